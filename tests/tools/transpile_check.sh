#!/usr/bin/env bash
# ivy-transpile end to end: info, check (an unsupported model exits 2 and names the node),
# run on each backend built, convert at opsets 13 and 17 and run the result, which must give
# the first backend's outputs; a truncated .npy and a model given as .npy are errors (exit 1).
#   tests/tools/transpile_check.sh IVY_TRANSPILE ONNX_TESTDATA_DIR PYTHON [BACKENDS]
# BACKENDS: comma-separated (default xtensor,torch).
set -euo pipefail
tool=$1 data=$2 py=$3
IFS=, read -r -a backends <<< "${4:-xtensor,torch}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "transpile_check: FAILED: $*" >&2; exit 1; }
model=$data/pytorch-converted/test_Conv2d/model.onnx
"$py" -c "import numpy as np; np.save('$work/x.npy', np.random.default_rng(0).standard_normal((2, 3, 7, 5)).astype(np.float32))"
"$tool" info "$model" > "$work/info.txt"
grep -q '^  Conv: 1$' "$work/info.txt" || fail "info lists no Conv: $(cat "$work/info.txt")"
grep -q '^parameters: 2 arrays, 76 values$' "$work/info.txt" || fail "info's parameter count"
"$tool" check "$model" | grep -q 'every node is supported' || fail "check of a supported model"
set +e
"$tool" check "$data/node/test_strnormalizer_export_monday_casesensintive_lower/model.onnx" > "$work/check.txt" 2>&1
rc=$?
set -e
[ $rc -eq 2 ] || fail "check of an unsupported model exited $rc, not 2"
grep -q 'StringNormalizer' "$work/check.txt" || fail "check does not name the unsupported operator: $(cat "$work/check.txt")"
for b in "${backends[@]}"; do
  "$tool" run "$model" --input 0=$work/x.npy --backend $b --output-dir "$work/out_$b" > /dev/null
done
for opset in 13 17; do
  "$tool" convert "$model" -o "$work/c$opset.onnx" --opset $opset > /dev/null
  "$tool" run "$work/c$opset.onnx" -i 0=$work/x.npy -d "$work/conv_$opset" > /dev/null
done
"$py" - "$work" "${backends[@]}" <<'PY'
import sys, numpy as np
w, backends = sys.argv[1], sys.argv[2:]
ref = np.load(w + "/out_%s/3.npy" % backends[0])
assert ref.shape == (2, 4, 5, 4), ref.shape
for other in ["out_" + b for b in backends[1:]] + ["conv_13", "conv_17"]:
    got = np.load("%s/%s/3.npy" % (w, other))
    assert got.dtype == ref.dtype and got.shape == ref.shape, other
    assert np.allclose(got, ref, rtol=1e-5, atol=1e-6), (other, np.abs(got - ref).max())
PY
head -c 100 "$work/x.npy" > "$work/bad.npy"
for bad in bad.npy c13.onnx; do
  if "$tool" run "$model" -i 0=$work/$bad -d "$work/o" > "$work/err.txt" 2>&1; then fail "run accepted $bad"; fi
  grep -q "^ivy-transpile: .*$bad" "$work/err.txt" || fail "no clear error for $bad: $(cat "$work/err.txt")"
done
echo "transpile_check: passed (info, check, run on ${backends[*]}, convert at 13 and 17, bad inputs)"

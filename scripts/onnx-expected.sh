#!/bin/bash
# Rewrites tests/onnx/expected_<suite>.txt from the reports of the onnx_<suite>_* ctests: the
# tests of ONNX's backend test data that pass on every backend built. Run after
# `ctest -R onnx_` (the reports are in the build folder).
#   scripts/onnx-expected.sh [BUILD]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
for suite in node pytorch-converted pytorch-operator simple; do
  reports=("$build"/onnx_"$suite"_report_*.txt)
  [ -e "${reports[0]}" ] || { echo "no $build/onnx_${suite}_report_*.txt: run ctest -R onnx_ first" >&2; exit 2; }
  out=tests/onnx/expected_$suite.txt
  {
    echo "# ONNX backend test data, suite $suite (libonnx-testdata): the tests that pass on every backend."
    echo "# tests/onnx/node_tests.cpp fails a run in which one of these does not pass; regenerate with"
    echo "# scripts/onnx-expected.sh after a ctest run (the reports list why each other test fails)."
    grep -h '^PASS ' "${reports[@]}" | sort | uniq -c | awk -v n=${#reports[@]} '$1 == n {print $3}'
  } > "$out"
  echo "$out: $(grep -vc '^#' "$out") tests pass on ${#reports[@]} backend(s)"
done

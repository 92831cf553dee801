#!/usr/bin/env bash
# bench/transpile in one run: the models (bench/transpile_models.py, into build/bench_models),
# ivy eager / compiled on torch and xtensor and TorchScript (build/bench/transpile), then
# onnxruntime (bench/transpile_ort.js), 2 threads each, and the table of ratios.
#   bench/transpile.sh [BUILD]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
models=$build/bench_models
[ -f "$models/index.json" ] || /usr/bin/python3 bench/transpile_models.py "$models"
export OMP_NUM_THREADS=2
# five repetitions in random order, the median of each: this VM's speed drifts between
# minutes, and interleaving spreads the drift over every column alike
"$build/bench/transpile" --models "$models" --benchmark_min_time=1 --benchmark_repetitions=5 \
  --benchmark_enable_random_interleaving=true --benchmark_report_aggregates_only=true \
  --benchmark_format=json > "$build/transpile_bench.json"
NODE_PATH=$build/npm/node_modules node bench/transpile_ort.js "$models" > "$build/transpile_ort.json"
/usr/bin/python3 - "$build/transpile_bench.json" "$build/transpile_ort.json" <<'PY'
import json, sys
ms = {}
for b in json.load(open(sys.argv[1]))["benchmarks"]:
    if b.get("aggregate_name") != "median":
        continue
    model, batch, who = b["name"].split("/")[:3]
    ms[(model, batch, who)] = b["real_time"]
for r in json.load(open(sys.argv[2])):
    ms[(r["model"], "b%d" % r["batch"], "onnxruntime")] = r["ms"]
cols = ["ivy_eager_torch", "ivy_compiled_torch", "ivy_eager_xtensor", "ivy_compiled_xtensor", "torchscript", "onnxruntime"]
print("| model | batch | " + " | ".join(cols) + " | compiled torch / TS | compiled xtensor / TS | best ivy / ORT |")
print("|" + "---|" * (len(cols) + 5))
for model in ("resnet18", "mobilenet_v2"):
    for batch in ("b1", "b8"):
        row = [ms.get((model, batch, c)) for c in cols]
        ts, ort = ms[(model, batch, "torchscript")], ms[(model, batch, "onnxruntime")]
        best = min(ms[(model, batch, "ivy_compiled_torch")], ms[(model, batch, "ivy_compiled_xtensor")])
        print("| %s | %s | " % (model, batch[1:]) + " | ".join("%.1f ms" % v for v in row) +
              " | %.2f | %.2f | %.2f |" % (ms[(model, batch, "ivy_compiled_torch")] / ts, ms[(model, batch, "ivy_compiled_xtensor")] / ts, best / ort))
PY

#!/usr/bin/env bash
# ivy::distributed side by side with raw MPI and PyTorch's DDP (bench/README.md, "Distributed"):
#   - Container all-reduce (packing included) over one MPI_Allreduce of the same bytes, 2 ranks
#   - DataParallel's training step on 1 and 2 ranks (one thread each, per-rank batch 32) and the
#     share of its all-reduce time hidden behind the backward pass (from the step's timeline)
#   - PyTorch 1.13 DDP (gloo) on the same CNN and batch, 1 and 2 processes
# Usage: bench/distributed.sh [BUILD_DIR]   (after building the target distributed_bench)
set -euo pipefail
build=${1:-build}
out=$(mktemp -d)
mpirun=(mpirun --allow-run-as-root --oversubscribe --bind-to none)
export OMP_NUM_THREADS=1
"${mpirun[@]}" -np 1 "$build/bench/distributed_bench" --benchmark_filter=DataParallelStep \
  --benchmark_format=json > "$out/ivy1.json"
"${mpirun[@]}" -np 2 "$build/bench/distributed_bench" --benchmark_format=json > "$out/ivy2.json"
/usr/bin/python3 "$(dirname "$0")/ddp_step.py" 40 > "$out/ddp.jsonl"
/usr/bin/python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
def medians(path):
    rows = {}
    for b in json.load(open(path))["benchmarks"]:
        if b.get("aggregate_name") == "median":
            rows[b["run_name"].split("/iterations")[0]] = b
    return rows
one, two = medians(out + "/ivy1.json"), medians(out + "/ivy2.json")
ddp = {d["ranks"]: d["step_ms"] for d in map(json.loads, open(out + "/ddp.jsonl"))}
print("| measure (2 ranks, one thread each) | ivy | reference | ratio |")
print("|---|---|---|---|")
for arg, name in (("0", "the CNN's 12 parameters (82 KB)"), ("1", "200 small leaves (92 KB)")):
    ivy, raw = two[f"BM_ContainerAllReduce/{arg}"], two[f"BM_RawAllreduce/{arg}"]
    print(f"| Container all-reduce, {name} | {ivy['real_time']:.1f} us | MPI_Allreduce {raw['real_time']:.1f} us | "
          f"{raw['real_time'] / ivy['real_time']:.2f}x |")
for key, label in (("0/16384", "xtensor, 16 KiB buckets"), ("1/16384", "torch, 16 KiB buckets"),
                   ("0/1048576", "xtensor, default buckets"), ("1/1048576", "torch, default buckets")):
    a, b = one[f"BM_DataParallelStep/{key}"], two[f"BM_DataParallelStep/{key}"]
    print(f"| DataParallel step, {label}: 2 ranks / 1 rank | {b['real_time']:.1f} / {a['real_time']:.1f} ms = "
          f"{b['real_time'] / a['real_time']:.2f} | DDP {ddp[2]:.1f} / {ddp[1]:.1f} ms = {ddp[2] / ddp[1]:.2f} | "
          f"hidden {100 * b['hidden']:.0f} %, {int(b['buckets'])} buckets |")
PY
rm -rf "$out"

#!/usr/bin/env bash
# The main job distributed against the main job alone, on one backend: 10 steps (640 images,
# global batch 64) in one process and under mpirun -np 2 --distributed (SyncBatchNorm, the
# same global batches); the parameters and statistics after them must agree to TOL.
# Usage: fashion_mnist_equal.sh FASHION_MNIST COMPARE BACKEND TOL OUT_DIR MPIRUN...
set -euo pipefail
exe=$1 compare=$2 backend=$3 tol=$4 out=$5
shift 5
mkdir -p "$out"
common=(--backend "$backend" --limit 640 --batch-size 64 --epochs 1)
"$exe" "${common[@]}" --checkpoint "$out/single_$backend.safetensors"
"$@" -np 2 "$exe" "${common[@]}" --distributed --checkpoint "$out/distributed_$backend.safetensors"
"$compare" "$out/single_$backend.safetensors" "$out/distributed_$backend.safetensors" "$tol" model

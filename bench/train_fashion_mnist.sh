#!/usr/bin/env bash
# Trains the CNN of examples/fashion_mnist.cpp with ivy on each backend and with PyTorch
# (bench/train_fashion_mnist.py), from the same initial weights, data order and settings,
# one after the other, and prints each run's per-epoch times and test accuracy.
#   bench/train_fashion_mnist.sh [EPOCHS] [extra flags for both, e.g. --limit 6400]
set -euo pipefail
cd "$(dirname "$0")/.."
# one thread everywhere: LibTorch, PyTorch and oneDNN (the xtensor backend's convolutions)
export OMP_NUM_THREADS=1
epochs=${1:-3}
shift || true
cmake --build build --target fashion_mnist > /dev/null
init=$(mktemp --suffix=.safetensors)
ckpt=$(mktemp --suffix=.safetensors)
trap 'rm -f "$init" "$ckpt"' EXIT
for backend in xtensor torch; do
  echo "== ivy, backend $backend"
  build/examples/fashion_mnist --backend "$backend" --epochs "$epochs" --save-init "$init" --checkpoint "$ckpt" "$@" \
    2>&1 | grep -E "^(fashion|epoch [0-9]+:|test)"
done
echo "== PyTorch"
/usr/bin/python3 bench/train_fashion_mnist.py --epochs "$epochs" --init "$init" "$@"

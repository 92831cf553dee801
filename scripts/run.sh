#!/usr/bin/env bash
# The main job: build ivy and train the Fashion-MNIST CNN (examples/fashion_mnist.cpp) for
# one epoch on the default backend; it ends with "test accuracy: 0.XXXX". Arguments go to
# the example: --backend xtensor|torch, --epochs N, --batch-size B, --lr, --seed, --limit N.
set -euo pipefail
cd "$(dirname "$0")/.."
step() { printf '\n== ivy [%s] %s\n' "$1" "$2"; }

step 1/4 "packages (scripts/install-deps.sh)"
bash scripts/install-deps.sh

step 2/4 "configuring build/ (cmake --preset default; log: build/configure.log)"
mkdir -p build
if ! cmake --preset default > build/configure.log 2>&1; then
  tail -n 30 build/configure.log >&2
  echo "ivy: configuring failed (whole log: build/configure.log). If a package is missing," \
    "scripts/install-deps.sh installs everything scripts/packages.txt lists." >&2
  exit 1
fi
grep '^-- ivy:' build/configure.log || true

steps=$(ninja -C build -t commands fashion_mnist | wc -l)
step 3/4 "building the example: $steps compile and link steps, those already done skipped; from scratch about 8 minutes on 2 cores"
cmake --build --preset default --target fashion_mnist

step 4/4 "training and evaluating (build/examples/fashion_mnist; checkpoint build/fashion_mnist_cnn.safetensors)"
./build/examples/fashion_mnist --checkpoint build/fashion_mnist_cnn.safetensors "$@"

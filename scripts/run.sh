#!/usr/bin/env bash
# The main job: build ivy and train the Fashion-MNIST CNN (examples/fashion_mnist.cpp) for
# one epoch on the default backend; it ends with "test accuracy: 0.XXXX". Arguments go to
# the example: --backend xtensor|torch, --epochs N, --batch-size B, --lr, --seed, --limit N.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake --preset default > /dev/null
cmake --build --preset default --target fashion_mnist
./build/examples/fashion_mnist --checkpoint build/fashion_mnist_cnn.safetensors "$@"

#!/usr/bin/env bash
# The main job: build ivy and run the quickstart example on the default backend.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake --preset default > /dev/null
cmake --build --preset default --target quickstart
./build/examples/quickstart

#!/usr/bin/env bash
# Builds ivy with every backend it finds and runs the whole test suite on each of them.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake --preset default -DIVY_BUILD_TESTS=ON > /dev/null
cmake --build --preset default
ctest --preset default -j2 "$@"

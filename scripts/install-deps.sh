#!/usr/bin/env bash
# Installs ivy's build and test dependencies from Debian's packages. Idempotent: does
# nothing when everything is already installed.
set -euo pipefail

PKGS=(
  cmake ninja-build g++ ccache
  libtorch-dev liblapack-dev   # torch backend (LibTorch 1.13; LAPACK, which it calls, also called directly for eig)
  xtensor-dev libxtensor-dev xtl-dev libeigen3-dev libdnnl-dev   # xtensor backend (+Eigen; oneDNN for its convolutions)
  libgtest-dev libbenchmark-dev nlohmann-json3-dev   # tests, benchmarks, fixtures; JSON also for safetensors headers
  libcli11-dev zlib1g-dev   # the examples' command lines; reading the gzip-compressed datasets
  pybind11-dev python3-dev python3-pytest python3-numpy python3-hypothesis  # Python bindings (python/) and their tests
  dataset-fashion-mnist   # the main job's data (examples/fashion_mnist)
)
# Nice to have, never required: the Python tests use torch for DLPack exchange when it imports;
# ivy-graph --svg runs Graphviz's dot.
OPTIONAL_PKGS=(python3-torch graphviz)

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
missing=()
for p in "${PKGS[@]}"; do
  installed "$p" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "ivy: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
# Optional packages: tried along with a required install, never fatal, never retried alone.
for p in "${OPTIONAL_PKGS[@]}"; do
  installed "$p" && continue
  $SUDO apt-get install -y -q --no-install-recommends "$p" || echo "ivy: optional package $p not installed; continuing"
done

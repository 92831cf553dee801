#!/usr/bin/env bash
# Builds ivy with every backend it finds and runs the whole test suite on each of them.
# Arguments go to ctest. Under CI=true (or IVY_REQUIRE_ALL=1) nothing optional may be missing:
# every backend, oneDNN, the Python module and the reference packages the tests compare
# against (python3-torch) must be there, or the run fails instead of testing less.
set -euo pipefail
cd "$(dirname "$0")/.."
case "${CI:-}" in true | TRUE | 1 | yes) export IVY_REQUIRE_ALL=1 ;; esac
strict=OFF
[ "${IVY_REQUIRE_ALL:-0}" = 1 ] && strict=ON
step() { printf '\n== ivy test [%s] %s\n' "$1" "$2"; }

step 1/7 "packages (scripts/install-deps.sh)"
bash scripts/install-deps.sh

step 2/7 "configuring build/ (log: build/configure.log; every optional part required: $strict)"
mkdir -p build
if ! cmake --preset default -DIVY_BUILD_TESTS=ON -DIVY_BUILD_BENCH=ON -DIVY_BUILD_EXAMPLES=ON \
    -DIVY_BUILD_PYTHON=ON -DIVY_REQUIRE_ALL=$strict > build/configure.log 2>&1; then
  tail -n 30 build/configure.log >&2
  echo "ivy: configuring failed (whole log: build/configure.log)" >&2
  exit 1
fi
grep '^-- ivy:' build/configure.log || true

steps=$(ninja -C build -t commands | wc -l)
step 3/7 "building everything: $steps compile and link steps, those already done skipped (README: time from scratch)"
cmake --build --preset default

step 4/7 "C++ tests (ctest)"
ctest --preset default -j2 "$@"

step 5/7 "ivy from another CMake project (tests/consumer/check.sh)"
bash tests/consumer/check.sh build

step 6/7 "Python tests (pytest, build/python)"
# The Python bindings (python/): pytest against NumPy on every backend.
if ! ls build/python/ivy/_ivy*.so > /dev/null 2>&1; then
  echo "ivy: the Python module build/python/ivy/_ivy*.so was not built (pybind11-dev missing?)" >&2
  exit 1
fi
set +e
PYTHONPATH=build/python /usr/bin/python3 -m pytest -q -p no:cacheprovider python/tests
rc=$?
# the element-wise tests again on the xtensor backend's baseline-ISA loops (no AVX2), and on
# both backends with ivy's loops held to AVX2 (no AVX-512: torch's routing changes with it)
if [ $rc -eq 0 ]; then
  IVY_CPU_CAPABILITY=default PYTHONPATH=build/python /usr/bin/python3 -m pytest -q -p no:cacheprovider \
    python/tests/test_elementwise.py -k xtensor
  rc=$?
fi
if [ $rc -eq 0 ]; then  # the scalar argmax/argmin/max/min and sum loops (row_kernels.cpp), both backends
  IVY_CPU_CAPABILITY=default PYTHONPATH=build/python /usr/bin/python3 -m pytest -q -p no:cacheprovider \
    python/tests/test_search_sort_stats.py -k "extremes_of_float_rows or argmax_argmin or whole_float_sums"
  rc=$?
fi
if [ $rc -eq 0 ]; then
  IVY_CPU_CAPABILITY=avx2 PYTHONPATH=build/python /usr/bin/python3 -m pytest -q -p no:cacheprovider \
    python/tests/test_elementwise.py
  rc=$?
fi

step 7/7 "the Array API standard's conformance suite (data-apis/array-api-tests)"
# Where the workplace provides it: IVY_ARRAY_API_TESTS, else shared/array-api-tests next to
# this checkout, else next to the repository it was cloned from (a local clone). It is not a
# Debian package, so a machine without it skips this step. A fixed Hypothesis seed keeps the
# run deterministic.
if [ $rc -eq 0 ]; then
  candidates=("${IVY_ARRAY_API_TESTS:-}" "$(cd .. && pwd)/shared/array-api-tests")
  origin=$(git config --get remote.origin.url 2> /dev/null || true)
  origin=${origin#file://}
  if [ -n "$origin" ] && [ -d "$origin" ]; then
    candidates+=("$(cd "$origin/.." && pwd)/shared/array-api-tests")
  fi
  suite=""
  for d in "${candidates[@]}"; do
    if [ -n "$d" ] && [ -x "$d/run" ]; then suite=$d; break; fi
  done
  if [ -z "$suite" ]; then
    echo "ivy: WARNING: the array-api-tests suite is not here (set IVY_ARRAY_API_TESTS); skipping the conformance run" >&2
  else
    echo "ivy: suite $suite"
    for b in $(PYTHONPATH=build/python /usr/bin/python3 -c "import ivy; print(' '.join(ivy.available_backends()))"); do
      PYTHONPATH=build/python MAX_EXAMPLES=${IVY_SUITE_EXAMPLES:-5} "$suite/run" "$b" --hypothesis-seed=0 || rc=1
    done
  fi
fi
set -e
if [ $rc -eq 5 ]; then
  echo "ivy: pytest collected no tests from python/tests" >&2
  exit 1
fi
exit $rc

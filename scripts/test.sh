#!/usr/bin/env bash
# Builds ivy with every backend it finds and runs the whole test suite on each of them.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake --preset default -DIVY_BUILD_TESTS=ON -DIVY_BUILD_BENCH=ON -DIVY_BUILD_EXAMPLES=ON -DIVY_BUILD_PYTHON=ON > /dev/null
cmake --build --preset default
ctest --preset default -j2 "$@"
# ivy from another CMake project: find_package(ivy) after cmake --install, and add_subdirectory
bash tests/consumer/check.sh build

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
# The Array API standard's own conformance suite (data-apis/array-api-tests) on every backend,
# where the workplace provides it (IVY_ARRAY_API_TESTS, else ../shared/array-api-tests next to
# the checkout, else /work/shared/array-api-tests); it is not a Debian package, so a machine
# without it skips this step. A fixed Hypothesis seed keeps the run deterministic.
if [ $rc -eq 0 ]; then
  suite=""
  for d in "${IVY_ARRAY_API_TESTS:-}" "$(cd .. && pwd)/shared/array-api-tests" /work/shared/array-api-tests; do
    if [ -n "$d" ] && [ -x "$d/run" ]; then suite=$d; break; fi
  done
  if [ -z "$suite" ]; then
    echo "ivy: the array-api-tests suite is not here; skipping the conformance run"
  else
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

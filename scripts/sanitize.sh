#!/usr/bin/env bash
# Builds ivy under a sanitizer preset (CMakePresets.json) and runs its ctests there.
#   scripts/sanitize.sh asan        ASan + UBSan + LSan, -O0, both backends: every C++ test
#                                   executable, the libraries and the demos (script only: long)
#   scripts/sanitize.sh asan-torch  the same on the torch backend alone (run by .ci/run)
#   scripts/sanitize.sh tsan        TSan, -O1, both backends: the concurrency test
# Further arguments go to ctest (e.g. -R core). Every report fails the run (halt_on_error,
# -fno-sanitize-recover=all); the only suppressions are of third-party libraries, by name, in
# tests/sanitizers/*.supp, each with its reason. Two settings are not suppressions:
# allocator_may_return_null=1, so that a request no allocator can serve (a hostile shape) makes
# operator new throw std::bad_alloc, which ivy must turn into an ivy::Error, as without ASan;
# and the distributed ctests run with leak detection off, because Open MPI's plugins leak at
# MPI_Finalize and are unloaded before LSan reports, leaving no library name to suppress by.
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${1:?usage: scripts/sanitize.sh asan|asan-torch|tsan [ctest arguments]}
shift
supp=$(pwd)/tests/sanitizers
case $preset in
  asan | asan-torch)
    # The tests and libraries it builds; the Python module and the benchmarks are not built.
    targets=(all)
    tests=()
    ;;
  tsan)
    targets=(ivy_tests)
    tests=(-R '^concurrency$')
    ;;
  *) echo "scripts/sanitize.sh: no preset named $preset (asan, asan-torch, tsan)" >&2; exit 2 ;;
esac
asan=halt_on_error=1:allocator_may_return_null=1:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1
export ASAN_OPTIONS=detect_leaks=1:$asan
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export LSAN_OPTIONS=suppressions=$supp/lsan.supp:print_suppressions=0
export TSAN_OPTIONS=suppressions=$supp/tsan.supp:halt_on_error=1:second_deadlock_stack=1
dir=build-$preset
mkdir -p "$dir"
printf '\n== ivy sanitize [%s] configure (log: %s/configure.log)\n' "$preset" "$dir"
if ! cmake --preset "$preset" > "$dir/configure.log" 2>&1; then
  tail -n 30 "$dir/configure.log" >&2
  exit 1
fi
printf '\n== ivy sanitize [%s] build: %s\n' "$preset" "${targets[*]}"
cmake --build --preset "$preset" --target "${targets[@]}"
printf '\n== ivy sanitize [%s] ctest\n' "$preset"
if [ "$preset" = tsan ]; then
  ctest --preset "$preset" -j2 --timeout 1800 "${tests[@]}" "$@"
else
  rc=0
  ctest --preset "$preset" -j2 --timeout 1800 -E '^distributed_' "$@" || rc=$?
  printf '\n== ivy sanitize [%s] ctest: the distributed entries (leak detection off: Open MPI)\n' "$preset"
  ASAN_OPTIONS=detect_leaks=0:$asan ctest --preset "$preset" -j2 --timeout 1800 -R '^distributed_' "$@" || rc=$?
  exit $rc
fi

#!/usr/bin/env bash
# Uses ivy from another CMake project (tests/consumer), the ways docs/using-ivy.md gives:
#   (a) package:      cmake --install BUILD_DIR --prefix <tmp>, then find_package(ivy CONFIG REQUIRED)
#   (c) build tree:   find_package(ivy CONFIG REQUIRED) with CMAKE_PREFIX_PATH=BUILD_DIR, no install
#   (b) subdirectory: add_subdirectory(<ivy source>) (torch off; tests, bench, python, examples
#                     off by default under a parent project, which this checks)
# Each builds tests/consumer and runs it. Usage: tests/consumer/check.sh BUILD_DIR
# (a configured and built ivy tree, e.g. build). Its scratch lies in BUILD_DIR/consumer-check.
set -euo pipefail

if [ $# -ne 1 ] || [ ! -f "$1/CMakeCache.txt" ]; then
  echo "usage: $0 BUILD_DIR   (a configured and built ivy build tree)" >&2
  exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
build=$(cd "$1" && pwd)
work="$build/consumer-check"

# The consumer builds with the build type of BUILD_DIR: in (b), ivy's sources then compile
# with the very flags the main build used (see the ccache note below).
build_type=$(sed -n 's/^CMAKE_BUILD_TYPE:[A-Z]*=//p' "$build/CMakeCache.txt")
build_type=${build_type:-Release}
gen=()
if command -v ninja > /dev/null; then gen=(-G Ninja); fi
launcher=()
if command -v ccache > /dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi

fail() { echo "ivy consumer check: $*" >&2; exit 1; }

# ---------------------------------------------------------------- (a) find_package
echo "== ivy consumer check (a): cmake --install, find_package(ivy CONFIG REQUIRED)"
rm -rf "$work/prefix" "$work/package"
mkdir -p "$work"
cmake --install "$build" --prefix "$work/prefix" > "$work/install.log" 2>&1 ||
  { cat "$work/install.log" >&2; fail "cmake --install $build failed"; }
cmake -S "$here" -B "$work/package" "${gen[@]}" "${launcher[@]}" -DCMAKE_BUILD_TYPE="$build_type" \
  -DIVY_CONSUMER_MODE=package -DCMAKE_PREFIX_PATH="$work/prefix" > "$work/package.configure.log" 2>&1 ||
  { cat "$work/package.configure.log" >&2; fail "configuring the consumer with find_package(ivy) failed"; }
grep "ivy_consumer:" "$work/package.configure.log"
# the package found must be the one just installed
ivy_dir=$(sed -n 's/^ivy_DIR:PATH=//p' "$work/package/CMakeCache.txt")
case "$ivy_dir" in
  "$work/prefix"/*) ;;
  *) fail "find_package(ivy) found '$ivy_dir', not the package installed under $work/prefix" ;;
esac
cmake --build "$work/package" || fail "building the consumer against the installed ivy failed"
# and the program must load the installed libivy, not the build tree's
deps=$(ldd "$work/package/ivy_consumer")
grep -q "libivy[^ ]* => $work/prefix/" <<< "$deps" ||
  { echo "$deps" >&2; fail "ivy_consumer does not load libivy from $work/prefix"; }
"$work/package/ivy_consumer" || fail "the consumer built with find_package(ivy) failed"

# ---------------------------------------------------------------- (c) the build tree
echo "== ivy consumer check (c): find_package(ivy CONFIG REQUIRED) from the build tree, not installed"
rm -rf "$work/buildtree"
cmake -S "$here" -B "$work/buildtree" "${gen[@]}" "${launcher[@]}" -DCMAKE_BUILD_TYPE="$build_type" \
  -DIVY_CONSUMER_MODE=package -DCMAKE_PREFIX_PATH="$build" > "$work/buildtree.configure.log" 2>&1 ||
  { cat "$work/buildtree.configure.log" >&2; fail "configuring the consumer with find_package(ivy) on the build tree failed"; }
grep "ivy_consumer:" "$work/buildtree.configure.log"
ivy_dir=$(sed -n 's/^ivy_DIR:PATH=//p' "$work/buildtree/CMakeCache.txt")
[ "$ivy_dir" = "$build" ] || fail "find_package(ivy) found '$ivy_dir', not the build tree $build"
cmake --build "$work/buildtree" || fail "building the consumer against the build tree failed"
deps=$(ldd "$work/buildtree/ivy_consumer")
grep -q "libivy[^ ]* => $build/" <<< "$deps" ||
  { echo "$deps" >&2; fail "ivy_consumer does not load libivy from the build tree $build"; }
"$work/buildtree/ivy_consumer" || fail "the consumer built with find_package(ivy) on the build tree failed"

# ---------------------------------------------------------------- (b) add_subdirectory
echo "== ivy consumer check (b): add_subdirectory(ivy), torch off"
# Cost: this compiles ivy a second time (without torch), through ccache, which ivy's
# CMakeLists puts in front of the compiler when it is installed. A translation unit whose
# command line is the main build's is a cache hit: ccache hashes the arguments and the
# preprocessed input, not the -o/-MT/-MF paths, and not the working directory unless -g is
# given. The backends' and ivy_cpu's sources are named by the same absolute paths from both
# build trees and get the same flags (same build type, above), so their objects come from the
# main build's entries. CCACHE_BASEDIR is deliberately left as the caller has it: a base_dir
# set here only would rewrite those absolute paths relative to this tree, and no key would
# match what the main build (run without one) stored. CCACHE_NOHASHDIR=1 keeps the working
# directory out of the keys of -g compiles (Debug, RelWithDebInfo). libivy's own sources
# (src/) differ from the main build's, which carry LibTorch's flags: they miss on the first
# run and hit on later runs of this check.
rm -rf "$work/subdirectory"
cmake -S "$here" -B "$work/subdirectory" "${gen[@]}" "${launcher[@]}" -DCMAKE_BUILD_TYPE="$build_type" \
  -DIVY_CONSUMER_MODE=subdirectory -DIVY_SOURCE_DIR="$src" -DIVY_WITH_TORCH=OFF \
  > "$work/subdirectory.configure.log" 2>&1 ||
  { cat "$work/subdirectory.configure.log" >&2; fail "configuring the consumer with add_subdirectory(ivy) failed"; }
grep "ivy_consumer:\|ivy: backends built" "$work/subdirectory.configure.log"
# under a parent project, ivy's tests, benchmarks, examples and Python module default to off
for opt in IVY_BUILD_TESTS IVY_BUILD_BENCH IVY_BUILD_EXAMPLES IVY_BUILD_PYTHON; do
  grep -q "^$opt:BOOL=OFF$" "$work/subdirectory/CMakeCache.txt" ||
    fail "$opt is not OFF by default when ivy is added with add_subdirectory"
done
CCACHE_NOHASHDIR=1 cmake --build "$work/subdirectory" ||
  fail "building the consumer with add_subdirectory(ivy) failed"
"$work/subdirectory/ivy_consumer" || fail "the consumer built with add_subdirectory(ivy) failed"

echo "== ivy consumer check: all three ways passed"

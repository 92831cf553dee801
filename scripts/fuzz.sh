#!/usr/bin/env bash
# Runs a libFuzzer harness for SECONDS (default 60) with ASan and UBSan: the harness and the
# code it parses with (frontends/onnx for onnx_import; the safetensors reader for
# safetensors_load; the graph JSON reader for graph_json) are compiled by clang-14 with
# -fsanitize=fuzzer; the rest of libivy comes from the gcc build (BUILD, default build/; run
# scripts/test.sh or cmake --build first). The seed corpus is the committed
# tests/fuzz/corpus/TARGET plus the models of ONNX's test data (onnx_import) or the files
# tests/fuzz/make_seeds.cpp writes (the others); new inputs go to BUILD/fuzz/TARGET/corpus, crash reproducers to
# BUILD/fuzz/TARGET/ (commit them to tests/fuzz/corpus/TARGET: the ctest fuzz_TARGET runs them).
# Limits: -rss_limit_mb=2048 (memory really used), -timeout=10 per input. A single request beyond
# what the machine can give makes the allocator throw (allocator_may_return_null=1), which ivy
# must turn into an ivy::Error: a model may ask for large results, never crash the caller.
#   scripts/fuzz.sh onnx_import 1800 [BUILD]
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:?usage: scripts/fuzz.sh TARGET [SECONDS] [BUILD]}
seconds=${2:-60}
build=${3:-build}
out=$build/fuzz/$target
mkdir -p "$out/corpus" "$out/seeds"
seed_tool() {  # the seed writer, from the gcc build's libivy
  g++ -std=c++20 -O1 -Iinclude tests/fuzz/make_seeds.cpp -L"$build" -livy \
    -Wl,-rpath,"$(cd "$build" && pwd)" -o "$out/make_seeds"
  "$out/make_seeds" "$target" "$out/seeds"
}
ivy_libs=(-L"$build" -livy -Wl,-rpath,"$(cd "$build" && pwd)")
case $target in
  onnx_import)
    sources=(tests/fuzz/onnx_import_fuzz.cpp frontends/onnx/*.cpp)
    libs=("${ivy_libs[@]}" -lonnx -lonnx_proto -lprotobuf)
    for m in /usr/share/libonnx-testdata/data/node/*/model.onnx; do
      cp "$m" "$out/seeds/$(basename "$(dirname "$m")").onnx"
    done
    ;;
  safetensors_load)
    sources=(tests/fuzz/safetensors_load_fuzz.cpp src/nn/safetensors.cpp src/core/json_util.cpp)
    libs=("${ivy_libs[@]}")
    seed_tool
    ;;
  graph_json)
    sources=(tests/fuzz/graph_json_fuzz.cpp src/trace/graph_io.cpp src/trace/graph_io_codec.cpp
             src/trace/graph_check.cpp src/core/json_util.cpp)
    libs=("${ivy_libs[@]}")
    seed_tool
    ;;
  *) echo "scripts/fuzz.sh: no harness named $target (onnx_import, safetensors_load, graph_json)" >&2; exit 2 ;;
esac
flags=(-std=c++20 -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
       -DONNX_ML=1 -DONNX_NAMESPACE=onnx -DIVY_HAS_ONNX -Iinclude -Isrc -Ifrontends/onnx)
echo "== fuzz $target: compiling with clang++-14 (${#sources[@]} files)"
clang++-14 "${flags[@]}" "${sources[@]}" "${libs[@]}" -o "$out/fuzzer"
echo "== fuzz $target: $seconds s"
ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 "$out/fuzzer" -max_total_time="$seconds" -rss_limit_mb=2048 \
  -malloc_limit_mb=1048576 -timeout=10 \
  -artifact_prefix="$out/" -print_final_stats=1 "$out/corpus" "$out/seeds" tests/fuzz/corpus/"$target"

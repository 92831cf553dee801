// libFuzzer harness for the graph JSON reader: any text given to ivy::graph_from_json either
// loads or is refused with an ivy::Error. A graph that loads and is small (at most
// kMaxElements elements in any value) is then replayed on zero inputs, and compiled (passes,
// fusion, the interpreter; no generated code) and run; both may refuse with an ivy::Error. A
// crash, a sanitizer report, another exception, a hang or memory beyond libFuzzer's limit is a
// bug. Built by scripts/fuzz.sh (clang, -fsanitize=fuzzer, the reader's sources instrumented)
// and, with run_corpus.cpp as its main, as the ctest fuzz_graph_json over the committed corpus.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <vector>

#include "ivy/compile.hpp"
#include "ivy/graph_io.hpp"
#include "ivy/ivy.hpp"

namespace {
constexpr std::int64_t kMaxElements = 1 << 16;
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const bool no_codegen = [] { return setenv("IVY_COMPILE_CODEGEN", "0", 1) == 0; }();
  (void)no_codegen;
  ivy::Graph g;
  try {
    g = ivy::graph_from_json(std::string_view(reinterpret_cast<const char*>(data), size));
  } catch (const ivy::Error&) {
    return 0;  // refused, with a message
  }
  for (const auto& v : g.values)
    if (v.shape.numel() > kMaxElements) return 0;
  std::vector<ivy::Array> in;
  try {
    for (int id : g.input_ids) in.push_back(ivy::zeros(g.value(id).shape, g.value(id).dtype));
  } catch (const ivy::Error&) {
    return 0;  // a dtype this backend lacks
  }
  std::vector<ivy::Array> eager;
  try {
    eager = g.run(in);
  } catch (const ivy::Error&) {
  }
  try {
    ivy::Executable exe(g, ivy::current_backend());
    (void)exe.run(in);
  } catch (const ivy::Error&) {
  }
  return 0;
}

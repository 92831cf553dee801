// libFuzzer harness for the ONNX importer: any bytes given to ivy::onnx::load_from_bytes either
// load (and then every operator of a small model runs on zero inputs) or are refused with an
// ivy::Error. Anything else — a crash, a sanitizer report, another exception, a hang, memory
// beyond libFuzzer's limit — is a bug. Built by scripts/fuzz.sh (clang, -fsanitize=fuzzer) and,
// with tests/fuzz/run_corpus.cpp as its main, as the ctest fuzz_onnx_import over the committed
// corpus.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "ivy/ivy.hpp"
#include "ivy/onnx.hpp"

namespace {
// Inputs of a model that loads are run only when small (elements per input, symbolic dims 1).
constexpr std::int64_t kMaxInputElements = 1 << 16;
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::shared_ptr<ivy::onnx::Model> model;
  try {
    model = ivy::onnx::load_from_bytes(std::string(reinterpret_cast<const char*>(data), size));
  } catch (const ivy::Error&) {
    return 0;  // refused, with a message
  }
  std::vector<ivy::onnx::Value> in;
  for (const auto& v : model->inputs()) {
    if (v.type != ivy::onnx::ValueType::Tensor || !v.has_shape) return 0;
    ivy::Shape s;
    std::int64_t n = 1;
    for (auto d : v.dims) {
      const std::int64_t k = d < 0 ? 1 : d;
      if (k > kMaxInputElements || n * k > kMaxInputElements) return 0;
      n *= k;
      s.push_back(k);
    }
    try {
      in.push_back(ivy::onnx::Value::of(ivy::zeros(s, v.dtype)));
    } catch (const ivy::Error&) {
      return 0;  // a dtype this backend lacks
    }
  }
  try {
    model->run_values(in);
  } catch (const ivy::Error&) {
  }
  return 0;
}

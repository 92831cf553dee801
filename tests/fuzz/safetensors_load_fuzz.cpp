// libFuzzer harness for the safetensors reader: any bytes given to Container::load_from_bytes
// either load (and then every leaf is read back and its size checked against the input's) or
// are refused with an ivy::Error. A crash, a sanitizer report, another exception, a hang or
// memory beyond libFuzzer's limit is a bug. Built by scripts/fuzz.sh (clang, -fsanitize=fuzzer,
// with the reader's sources instrumented) and, with run_corpus.cpp as its main, as the ctest
// fuzz_safetensors_load over the committed corpus.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <string>
#include <string_view>

#include "ivy/container.hpp"
#include "ivy/ivy.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  ivy::Container c;
  std::map<std::string, std::string> metadata;
  try {
    c = ivy::Container::load_from_bytes(bytes, ivy::Backend{}, &metadata, "fuzz.safetensors");
  } catch (const ivy::Error&) {
    return 0;  // refused, with a message
  }
  // A file that loads holds no more data than it has bytes: the reader never invents data.
  std::size_t total = 0;
  for (const auto& [name, a] : c.flatten()) {
    total += static_cast<std::size_t>(a.size()) * ivy::itemsize(a.dtype());
    // every leaf is readable (the copy made at load owns its bytes)
    if (a.size() == 0) continue;
    const ivy::Array flat = ivy::reshape(ivy::is_complex(a.dtype()) ? ivy::real(a) : a, {-1});
    (void)ivy::astype(flat, ivy::DType::float64).to_vector<double>();
  }
  if (total > size) std::abort();
  return 0;
}

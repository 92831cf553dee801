// One exported model with its inputs and ivy's outputs, as tools/onnx_ort_check.js reads
// them: DIR/model.onnx, DIR/in_<i>.bin and DIR/out_<i>.bin (raw little-endian elements) and
// DIR/case.json (names, dtypes, dims, the tolerance, whether the outputs are random).
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "ivy/ivy.hpp"

namespace ivy_test {

inline std::string ort_dtype(ivy::DType d) { return d == ivy::DType::bool_ ? "bool" : ivy::dtype_name(d); }

inline void write_raw(const std::filesystem::path& p, const ivy::Array& a) {
  std::vector<unsigned char> b(static_cast<std::size_t>(a.size()) * ivy::itemsize(a.dtype()));
  if (!b.empty()) ivy::copy_to_host(a, b.data());
  std::ofstream f(p, std::ios::binary);
  f.write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
}

inline void write_ort_case(const std::filesystem::path& dir, const std::string& model_bytes,
                           const std::vector<ivy::Array>& in, const std::vector<ivy::Array>& out, double rtol,
                           bool random) {
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "model.onnx", std::ios::binary) << model_bytes;
  nlohmann::json j;
  j["rtol"] = rtol;
  j["random"] = random;
  auto describe = [](const std::string& name, const ivy::Array& a) {
    return nlohmann::json{{"name", name}, {"dtype", ort_dtype(a.dtype())},
                          {"dims", std::vector<std::int64_t>(a.shape().begin(), a.shape().end())}};
  };
  for (std::size_t i = 0; i < in.size(); ++i) {
    write_raw(dir / ("in_" + std::to_string(i) + ".bin"), in[i]);
    j["inputs"].push_back(describe("input_" + std::to_string(i), in[i]));
  }
  for (std::size_t i = 0; i < out.size(); ++i) {
    write_raw(dir / ("out_" + std::to_string(i) + ".bin"), out[i]);
    j["outputs"].push_back(describe("output_" + std::to_string(i), out[i]));
  }
  std::ofstream(dir / "case.json") << j.dump(1);
}

}  // namespace ivy_test

// Helpers shared by the applied libraries' tests (libs/<name>/tests): the backends to run on,
// JSON fixtures from IVY_FIXTURES_DIR (defined per test executable), nested JSON lists as
// arrays, and arrays as float64 host values.
#pragma once

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "ivy/ivy.hpp"

#ifndef IVY_FIXTURES_DIR
#error "define IVY_FIXTURES_DIR"
#endif

namespace ivy::lib_testing {

inline std::vector<std::string> backend_names() {
  std::vector<std::string> v;
  for (auto b : ivy::available_backends()) v.push_back(b.name());
  return v;
}

// IVY_FIXTURES_DIR/<file> parsed, or an empty object when the file is missing (the tests
// then say which generator writes it).
inline nlohmann::json load_fixture(const std::string& file) {
  std::ifstream in(std::string(IVY_FIXTURES_DIR) + "/" + file);
  if (!in) return nlohmann::json::object();
  return nlohmann::json::parse(in);
}

// Nested JSON lists of numbers (or booleans) -> flat values and shape.
inline void flatten(const nlohmann::json& j, std::vector<double>& out, Shape& shape, std::size_t depth) {
  if (!j.is_array()) {
    out.push_back(j.is_boolean() ? (j.get<bool>() ? 1.0 : 0.0) : j.get<double>());  // booleans as 1 and 0
    return;
  }
  if (shape.size() == depth) shape.push_back(static_cast<std::int64_t>(j.size()));
  for (const auto& e : j) flatten(e, out, shape, depth + 1);
}
inline Array arr(const nlohmann::json& j, DType dt = float64) {
  std::vector<double> v;
  Shape s;
  flatten(j, v, s, 0);
  return ivy::asarray(v.data(), float64, s, dt);
}
inline std::vector<double> vals(const Array& x) { return ivy::astype(x, float64).to_vector<double>(); }

}  // namespace ivy::lib_testing

// Helpers shared by the applied libraries' tests (libs/<name>/tests): the backends to run on,
// JSON fixtures from IVY_FIXTURES_DIR (defined per test executable), nested JSON lists and
// host values as arrays, arrays as float64 host values, and elementwise closeness.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
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
// Host values of shape s, stored as dt.
inline Array arr(const std::vector<double>& v, const Shape& s, DType dt = float64) {
  return ivy::asarray(v.data(), float64, s, dt);
}
inline std::vector<double> vals(const Array& x) { return ivy::astype(x, float64).to_vector<double>(); }

// got defined, of want's shape, and |got - want| <= atol + rtol |want| at every element (NaN
// matches NaN).
inline ::testing::AssertionResult close(const Array& got, const Array& want, double atol, double rtol = 0.0) {
  if (!got.defined()) return ::testing::AssertionFailure() << "undefined result";
  if (!(got.shape() == want.shape()))
    return ::testing::AssertionFailure() << "shape " << got.shape().str() << " vs " << want.shape().str();
  const auto u = vals(got), v = vals(want);
  for (std::size_t i = 0; i < u.size(); ++i) {
    if (std::isnan(u[i]) && std::isnan(v[i])) continue;
    if (!(std::abs(u[i] - v[i]) <= atol + rtol * std::abs(v[i])))
      return ::testing::AssertionFailure() << "element " << i << ": " << u[i] << " vs " << v[i];
  }
  return ::testing::AssertionSuccess();
}

}  // namespace ivy::lib_testing

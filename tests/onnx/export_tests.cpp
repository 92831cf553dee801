// ivy::onnx's exporter: one traced program per primitive of ops.def (and dtype variants),
// each exported at opsets 13 and 17, checked by ONNX (the exporter runs the checker and strict
// shape inference), imported again and run on every backend against eager ivy. Each exported
// model is also written with its inputs and eager outputs under $IVY_ONNX_EXPORT_DIR, where
// tools/onnx_ort_check.js runs it in onnxruntime (the ctest onnx_export_ort).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <set>
#include <unistd.h>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ort_case.hpp"
#include "ivy/ivy.hpp"
#include "ivy/onnx.hpp"

namespace {

using ivy::Array;
using ivy::DType;
using ivy::Shape;
using Arrays = std::vector<Array>;

// Deterministic values in [lo, hi) (a fixed LCG per seed).
std::vector<double> values(std::int64_t n, unsigned seed, double lo, double hi) {
  std::vector<double> v(static_cast<std::size_t>(n));
  std::uint64_t s = 0x9E3779B97F4A7C15ull * (seed + 1);
  for (auto& x : v) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    x = lo + (hi - lo) * static_cast<double>(s >> 11) / 9007199254740992.0;
  }
  return v;
}
Array real(const Shape& s, unsigned seed, double lo = -2, double hi = 2, DType d = DType::float32) {
  return ivy::asarray(values(s.numel(), seed, lo, hi), s, d);
}
Array integers(const Shape& s, unsigned seed, std::int64_t lo, std::int64_t hi, DType d = DType::int64) {
  auto v = values(s.numel(), seed, static_cast<double>(lo), static_cast<double>(hi));
  std::vector<std::int64_t> r;
  for (double x : v) r.push_back(static_cast<std::int64_t>(std::floor(x)));
  return ivy::asarray(r, s, d);
}
Array bools(const Shape& s, unsigned seed) { return ivy::greater(real(s, seed), ivy::asarray(0.0)); }
// Floats with the special values: signed zeros, infinities, NaN, tiny and huge.
Array specials(DType d = DType::float32) {
  return ivy::asarray(std::vector<double>{0.0, -0.0, INFINITY, -INFINITY, NAN, 1e-30, -1e-30, 3.5, -2.5, 0.5, -0.5, 1e30, 2.0, -1.0},
                      Shape{14}, d);
}

struct Case {
  std::string name;
  std::function<Arrays()> inputs;
  ivy::TracedFn fn;
  double rtol = 1e-5;
  bool random = false;  // compare shapes and dtypes only
};

Arrays one(Array a) { return {std::move(a)}; }

std::vector<Case> unary_cases() {
  std::vector<Case> c;
  using F = Array (*)(const Array&);
  struct U { const char* name; F f; double lo, hi; bool specials; };
  const U us[] = {
      {"abs", ivy::abs, -3, 3, true},       {"acos", ivy::acos, -1, 1, false},    {"acosh", ivy::acosh, 1, 4, false},
      {"asin", ivy::asin, -1, 1, false},    {"asinh", ivy::asinh, -3, 3, true},   {"atan", ivy::atan, -3, 3, true},
      {"atanh", ivy::atanh, -0.9, 0.9, false}, {"ceil", ivy::ceil, -3, 3, true}, {"cos", ivy::cos, -3, 3, false},
      {"cosh", ivy::cosh, -3, 3, false},    {"exp", ivy::exp, -3, 3, true},       {"expm1", ivy::expm1, -3, 3, true},
      {"floor", ivy::floor, -3, 3, true},   {"isfinite", ivy::isfinite, -3, 3, true}, {"isinf", ivy::isinf, -3, 3, true},
      {"isnan", ivy::isnan, -3, 3, true},   {"log", ivy::log, 0.1, 4, false},     {"log1p", ivy::log1p, -0.9, 4, false},
      {"log2", ivy::log2, 0.1, 4, false},   {"log10", ivy::log10, 0.1, 4, false}, {"logical_not", ivy::logical_not, -1, 1, true},
      {"negative", ivy::negative, -3, 3, true}, {"positive", ivy::positive, -3, 3, true}, {"reciprocal", ivy::reciprocal, 0.5, 3, false},
      {"round", ivy::round, -3, 3, true},   {"sign", ivy::sign, -3, 3, false},    {"signbit", ivy::signbit, -3, 3, false},
      {"sin", ivy::sin, -3, 3, false},      {"sinh", ivy::sinh, -3, 3, false},    {"square", ivy::square, -3, 3, true},
      {"sqrt", ivy::sqrt, 0, 4, false},     {"tan", ivy::tan, -1, 1, false},      {"tanh", ivy::tanh, -3, 3, true},
      {"trunc", ivy::trunc, -3, 3, true},   {"conj", ivy::conj, -3, 3, false},    {"real", ivy::real, -3, 3, false},
      {"imag", ivy::imag, -3, 3, false},
  };
  for (const auto& u : us) {
    F f = u.f;
    const double lo = u.lo, hi = u.hi;
    c.push_back({u.name, [=] { return one(real(Shape{3, 4}, 1, lo, hi)); }, [f](const Arrays& x) { return one(f(x[0])); }});
    c.push_back({std::string(u.name) + "_f64", [=] { return one(real(Shape{5}, 2, lo, hi, DType::float64)); },
                 [f](const Arrays& x) { return one(f(x[0])); }});
    if (u.specials)
      c.push_back({std::string(u.name) + "_specials", [] { return one(specials()); }, [f](const Arrays& x) { return one(f(x[0])); }});
  }
  // integer inputs: float-valued ops cast, the others stay integers
  for (const U& u : {U{"abs", ivy::abs, 0, 0, false}, U{"negative", ivy::negative, 0, 0, false}, U{"sign", ivy::sign, 0, 0, false},
                     U{"square", ivy::square, 0, 0, false}, U{"exp", ivy::exp, 0, 0, false}, U{"floor", ivy::floor, 0, 0, false},
                     U{"isnan", ivy::isnan, 0, 0, false}, U{"signbit", ivy::signbit, 0, 0, false}, U{"sqrt", ivy::sqrt, 0, 0, false}}) {
    F f = u.f;
    c.push_back({std::string(u.name) + "_i32", [] { return one(integers(Shape{6}, 3, -5, 6, DType::int32)); },
                 [f](const Arrays& x) { return one(f(x[0])); }});
  }
  c.push_back({"bitwise_invert_i32", [] { return one(integers(Shape{6}, 4, -100, 100, DType::int32)); },
               [](const Arrays& x) { return one(ivy::bitwise_invert(x[0])); }});
  c.push_back({"bitwise_invert_u8", [] { return one(integers(Shape{6}, 4, 0, 255, DType::uint8)); },
               [](const Arrays& x) { return one(ivy::bitwise_invert(x[0])); }});
  c.push_back({"bitwise_invert_bool", [] { return one(bools(Shape{6}, 4)); }, [](const Arrays& x) { return one(ivy::bitwise_invert(x[0])); }});
  c.push_back({"logical_not_bool", [] { return one(bools(Shape{2, 3}, 5)); }, [](const Arrays& x) { return one(ivy::logical_not(x[0])); }});
  return c;
}

std::vector<Case> binary_cases() {
  std::vector<Case> c;
  using F = Array (*)(const Array&, const Array&);
  struct B { const char* name; F f; double lo, hi; bool ints; };
  const B bs[] = {
      {"add", ivy::add, -3, 3, true},           {"atan2", ivy::atan2, -3, 3, false},     {"copysign", ivy::copysign, -3, 3, false},
      {"divide", ivy::divide, 0.5, 3, false},   {"equal", ivy::equal, -1, 1, true},      {"floor_divide", ivy::floor_divide, -5, 5, true},
      {"greater", ivy::greater, -1, 1, true},   {"greater_equal", ivy::greater_equal, -1, 1, true}, {"hypot", ivy::hypot, -3, 3, false},
      {"less", ivy::less, -1, 1, true},         {"less_equal", ivy::less_equal, -1, 1, true}, {"logaddexp", ivy::logaddexp, -3, 3, false},
      {"logical_and", ivy::logical_and, -1, 1, false}, {"logical_or", ivy::logical_or, -1, 1, false}, {"logical_xor", ivy::logical_xor, -1, 1, false},
      {"maximum", ivy::maximum, -3, 3, true},   {"minimum", ivy::minimum, -3, 3, true},  {"multiply", ivy::multiply, -3, 3, true},
      {"not_equal", ivy::not_equal, -1, 1, true}, {"pow", ivy::pow, 0.5, 2, false},     {"remainder", ivy::remainder, -5, 5, true},
      {"subtract", ivy::subtract, -3, 3, true},
  };
  for (const auto& b : bs) {
    F f = b.f;
    const double lo = b.lo, hi = b.hi;
    // broadcasting [3, 1, 4] with [2, 1]
    c.push_back({b.name, [=] { return Arrays{real(Shape{3, 1, 4}, 1, lo, hi), real(Shape{2, 1}, 2, lo, hi)}; },
                 [f](const Arrays& x) { return one(f(x[0], x[1])); }});
    c.push_back({std::string(b.name) + "_f64", [=] { return Arrays{real(Shape{6}, 3, lo, hi, DType::float64), real(Shape{6}, 4, lo, hi, DType::float64)}; },
                 [f](const Arrays& x) { return one(f(x[0], x[1])); }});
    if (b.ints) {
      c.push_back({std::string(b.name) + "_i64", [] { return Arrays{integers(Shape{8}, 5, -9, 10), integers(Shape{8}, 6, 1, 5)}; },
                   [f](const Arrays& x) { return one(f(x[0], x[1])); }});
      c.push_back({std::string(b.name) + "_i32_neg", [] { return Arrays{integers(Shape{8}, 7, -9, 10, DType::int32), integers(Shape{8}, 8, -5, -1, DType::int32)}; },
                   [f](const Arrays& x) { return one(f(x[0], x[1])); }});
    }
  }
  // special values against special values (every pair)
  for (const B& b : {bs[1], bs[2], bs[8], bs[11], bs[15], bs[20]}) {
    F f = b.f;
    c.push_back({std::string(b.name) + "_specials", [] {
                   Array s = specials();
                   return Arrays{ivy::reshape(s, Shape{14, 1}), ivy::reshape(s, Shape{1, 14})};
                 },
                 [f](const Arrays& x) { return one(f(x[0], x[1])); }});
  }
  c.push_back({"add_mixed_int_float", [] { return Arrays{integers(Shape{4}, 1, -3, 3, DType::int32), real(Shape{4}, 2)}; },
               [](const Arrays& x) { return one(ivy::add(x[0], x[1])); }});
  c.push_back({"add_bool", [] { return Arrays{bools(Shape{5}, 1), bools(Shape{5}, 2)}; }, [](const Arrays& x) { return one(ivy::add(x[0], x[1])); }});
  c.push_back({"pow_i64", [] { return Arrays{integers(Shape{6}, 3, -4, 5), integers(Shape{6}, 4, 0, 4)}; },
               [](const Arrays& x) { return one(ivy::pow(x[0], x[1])); }});
  c.push_back({"divide_i32", [] { return Arrays{integers(Shape{6}, 3, -9, 9, DType::int32), integers(Shape{6}, 4, 1, 4, DType::int32)}; },
               [](const Arrays& x) { return one(ivy::divide(x[0], x[1])); }});
  for (const char* op : {"and", "or", "xor"}) {
    std::string nm = op;
    auto f = [nm](const Arrays& x) {
      return one(nm == "and" ? ivy::bitwise_and(x[0], x[1]) : nm == "or" ? ivy::bitwise_or(x[0], x[1]) : ivy::bitwise_xor(x[0], x[1]));
    };
    c.push_back({"bitwise_" + nm + "_i64", [] { return Arrays{integers(Shape{8}, 1, -1000, 1000), integers(Shape{8}, 2, -1000, 1000)}; }, f});
    c.push_back({"bitwise_" + nm + "_u8", [] { return Arrays{integers(Shape{8}, 3, 0, 256, DType::uint8), integers(Shape{8}, 4, 0, 256, DType::uint8)}; }, f});
    c.push_back({"bitwise_" + nm + "_i16", [] { return Arrays{integers(Shape{8}, 5, -30000, 30000, DType::int16), integers(Shape{8}, 6, -30000, 30000, DType::int16)}; }, f});
    c.push_back({"bitwise_" + nm + "_u64", [] {
                   return Arrays{ivy::astype(integers(Shape{8}, 7, -1000, 1000), DType::uint64), ivy::astype(integers(Shape{8}, 8, -1000, 1000), DType::uint64)};
                 }, f});
    c.push_back({"bitwise_" + nm + "_bool", [] { return Arrays{bools(Shape{8}, 3), bools(Shape{8}, 4)}; }, f});
  }
  c.push_back({"bitwise_left_shift_i32", [] { return Arrays{integers(Shape{8}, 1, -100, 100, DType::int32), integers(Shape{8}, 2, 0, 8, DType::int32)}; },
               [](const Arrays& x) { return one(ivy::bitwise_left_shift(x[0], x[1])); }});
  c.push_back({"bitwise_right_shift_i32", [] { return Arrays{integers(Shape{8}, 1, -100, 100, DType::int32), integers(Shape{8}, 2, 0, 8, DType::int32)}; },
               [](const Arrays& x) { return one(ivy::bitwise_right_shift(x[0], x[1])); }});
  c.push_back({"bitwise_left_shift_i64", [] { return Arrays{integers(Shape{8}, 1, -100, 100), integers(Shape{8}, 2, 0, 8)}; },
               [](const Arrays& x) { return one(ivy::bitwise_left_shift(x[0], x[1])); }});
  c.push_back({"bitwise_right_shift_i64", [] { return Arrays{integers(Shape{8}, 1, -100, 100), integers(Shape{8}, 2, 0, 8)}; },
               [](const Arrays& x) { return one(ivy::bitwise_right_shift(x[0], x[1])); }});
  c.push_back({"bitwise_right_shift_u16", [] { return Arrays{integers(Shape{8}, 1, 0, 60000, DType::uint16), integers(Shape{8}, 2, 0, 8, DType::uint16)}; },
               [](const Arrays& x) { return one(ivy::bitwise_right_shift(x[0], x[1])); }});
  return c;
}

std::vector<Case> other_cases() {
  std::vector<Case> c;
  auto x34 = [] { return one(real(Shape{3, 4}, 1)); };
  auto x234 = [] { return one(real(Shape{2, 3, 4}, 2)); };
  // creation
  c.push_back({"full", x34, [](const Arrays& x) { return one(ivy::add(x[0], ivy::full(Shape{3, 4}, 2.5))); }});
  c.push_back({"full_i64", [] { return one(integers(Shape{4}, 1, 0, 9)); },
               [](const Arrays& x) { return one(ivy::add(x[0], ivy::full(Shape{4}, std::int64_t{1} << 40, DType::int64))); }});
  c.push_back({"arange", [] { return one(real(Shape{5}, 1)); }, [](const Arrays& x) { return one(ivy::add(x[0], ivy::arange(0.5, 3.0, 0.5))); }});
  c.push_back({"linspace", [] { return one(real(Shape{7}, 1)); }, [](const Arrays& x) { return one(ivy::multiply(x[0], ivy::linspace(0.0, 1.0, 7))); }});
  c.push_back({"eye", x34, [](const Arrays& x) { return one(ivy::add(x[0], ivy::eye(3, 4, 1))); }});
  c.push_back({"random_uniform", x34, [](const Arrays& x) { return one(ivy::add(x[0], ivy::random_uniform(0.0, 1.0, Shape{3, 4}))); }, 1e-5, true});
  c.push_back({"random_normal", x34, [](const Arrays& x) { return one(ivy::add(x[0], ivy::random_normal(0.0, 1.0, Shape{3, 4}))); }, 1e-5, true});
  c.push_back({"randint", [] { return one(integers(Shape{3, 4}, 1, 0, 5)); },
               [](const Arrays& x) { return one(ivy::add(x[0], ivy::randint(0, 10, Shape{3, 4}, DType::int64))); }, 1e-5, true});
  c.push_back({"tril", x34, [](const Arrays& x) { return one(ivy::tril(x[0], -1)); }});
  c.push_back({"triu", x234, [](const Arrays& x) { return one(ivy::triu(x[0], 1)); }});
  // dtypes
  c.push_back({"astype_f32_i32", [] { return one(real(Shape{6}, 1, -50, 50)); }, [](const Arrays& x) { return one(ivy::astype(x[0], DType::int32)); }});
  c.push_back({"astype_i64_f64", [] { return one(integers(Shape{6}, 1, -50, 50)); }, [](const Arrays& x) { return one(ivy::astype(x[0], DType::float64)); }});
  c.push_back({"astype_f32_bool", [] { return one(specials()); }, [](const Arrays& x) { return one(ivy::astype(x[0], DType::bool_)); }});
  c.push_back({"astype_i64_u64", [] { return one(integers(Shape{6}, 1, -50, 50)); }, [](const Arrays& x) { return one(ivy::astype(x[0], DType::uint64)); }});
  c.push_back({"astype_u64_i64", [] { return one(ivy::astype(integers(Shape{6}, 1, -50, 50), DType::uint64)); },
               [](const Arrays& x) { return one(ivy::astype(x[0], DType::int64)); }});
  c.push_back({"astype_i32_u8", [] { return one(integers(Shape{6}, 1, -300, 300, DType::int32)); }, [](const Arrays& x) { return one(ivy::astype(x[0], DType::uint8)); }});
  c.push_back({"stop_gradient", x34, [](const Arrays& x) { return one(ivy::stop_gradient(x[0])); }});
  // manipulation
  c.push_back({"reshape", x234, [](const Arrays& x) { return one(ivy::reshape(x[0], Shape{4, -1})); }});
  c.push_back({"permute_dims", x234, [](const Arrays& x) { return one(ivy::permute_dims(x[0], ivy::Dims{2, 0, 1})); }});
  c.push_back({"permute_dims_0d", [] { return one(ivy::asarray(2.5f)); }, [](const Arrays& x) { return one(ivy::permute_dims(x[0], ivy::Dims{})); }});
  c.push_back({"broadcast_to", [] { return one(real(Shape{3, 1}, 1)); }, [](const Arrays& x) { return one(ivy::broadcast_to(x[0], Shape{2, 3, 4})); }});
  c.push_back({"flip", x234, [](const Arrays& x) { return one(ivy::flip(x[0], {0, 2})); }});
  c.push_back({"flip_all", x34, [](const Arrays& x) { return one(ivy::flip(x[0])); }});
  c.push_back({"roll", x234, [](const Arrays& x) { return one(ivy::roll(x[0], ivy::Dims{1, -5}, {0, 2})); }});
  c.push_back({"roll_flat", x34, [](const Arrays& x) { return one(ivy::roll(x[0], 5)); }});
  c.push_back({"repeat", x34, [](const Arrays& x) { return one(ivy::repeat(x[0], 2, 1)); }});
  c.push_back({"repeat_each", x34, [](const Arrays& x) { return one(ivy::repeat(x[0], ivy::asarray(std::vector<std::int64_t>{0, 2, 1}), 0)); }});
  c.push_back({"repeat_flat", x34, [](const Arrays& x) { return one(ivy::repeat(x[0], 3)); }});
  c.push_back({"tile", x34, [](const Arrays& x) { return one(ivy::tile(x[0], ivy::Dims{2, 1, 3})); }});
  c.push_back({"concat", [] { return Arrays{real(Shape{2, 3}, 1), real(Shape{4, 3}, 2)}; }, [](const Arrays& x) { return one(ivy::concat({x[0], x[1]}, 0)); }});
  c.push_back({"stack", [] { return Arrays{real(Shape{2, 3}, 1), real(Shape{2, 3}, 2)}; }, [](const Arrays& x) { return one(ivy::stack({x[0], x[1]}, 1)); }});
  // indexing
  c.push_back({"strided_slice", x234, [](const Arrays& x) {
                 return one(x[0].index({ivy::Slice(1, ivy::None), ivy::Slice(ivy::None, ivy::None, -2), ivy::Slice(1, 3)}));
               }});
  c.push_back({"strided_slice_reverse", x34, [](const Arrays& x) { return one(x[0].index({ivy::Slice(ivy::None, ivy::None, -1), 2})); }});
  c.push_back({"slice_update", [] { return Arrays{real(Shape{4, 5}, 1), real(Shape{2, 1}, 2)}; }, [](const Arrays& x) {
                 Array y = ivy::add(x[0], ivy::asarray(0.0f));
                 y.index_put({ivy::Slice(1, 4, 2), ivy::Slice(0, 5, 2)}, x[1]);
                 return one(y);
               }});
  c.push_back({"take", [] { return Arrays{real(Shape{5, 3}, 1), integers(Shape{2, 2}, 2, -5, 5)}; },
               [](const Arrays& x) { return one(ivy::take(x[0], x[1], 0)); }});
  c.push_back({"take_along_axis", [] { return Arrays{real(Shape{3, 4}, 1), integers(Shape{3, 2}, 2, 0, 4)}; },
               [](const Arrays& x) { return one(ivy::take_along_axis(x[0], x[1], 1)); }});
  c.push_back({"index_put_flat", [] { return Arrays{real(Shape{3, 4}, 1), real(Shape{3}, 2)}; }, [](const Arrays& x) {
                 return one(ivy::dispatch(ivy::OpId::index_put_flat, {x[0], ivy::asarray(std::vector<std::int64_t>{7, 0, 11}), x[1]}, ivy::attr::none{}));
               }});
  c.push_back({"scatter_add_flat", [] { return Arrays{real(Shape{3, 4}, 1), real(Shape{4}, 2)}; }, [](const Arrays& x) {
                 return one(ivy::dispatch(ivy::OpId::scatter_add_flat, {x[0], ivy::asarray(std::vector<std::int64_t>{7, 0, 7, 11}), x[1]}, ivy::attr::none{}));
               }});
  // searching, sorting, sets
  c.push_back({"argmax", x234, [](const Arrays& x) { return one(ivy::argmax(x[0], 1)); }});
  c.push_back({"argmin_flat_keepdims", x234, [](const Arrays& x) { return one(ivy::argmin(x[0], std::nullopt, true)); }});
  c.push_back({"nonzero", [] { return one(ivy::astype(integers(Shape{3, 4}, 1, -1, 2), DType::float32)); }, [](const Arrays& x) { return ivy::nonzero(x[0]); }});
  c.push_back({"where", [] { return Arrays{bools(Shape{3, 1}, 1), real(Shape{3, 4}, 2), real(Shape{4}, 3)}; },
               [](const Arrays& x) { return one(ivy::where(x[0], x[1], x[2])); }});
  c.push_back({"where_bool", [] { return Arrays{bools(Shape{3, 1}, 1), bools(Shape{3, 4}, 2), bools(Shape{4}, 3)}; },
               [](const Arrays& x) { return one(ivy::where(x[0], x[1], x[2])); }});
  c.push_back({"searchsorted", [] { return Arrays{ivy::asarray(std::vector<float>{-1, 0, 0, 1.5, 3}), real(Shape{2, 3}, 2)}; },
               [](const Arrays& x) { return one(ivy::searchsorted(x[0], x[1])); }});
  c.push_back({"searchsorted_right", [] { return Arrays{ivy::asarray(std::vector<float>{-1, 0, 0, 1.5, 3}), ivy::asarray(std::vector<float>{0, 3, -2, 1})}; },
               [](const Arrays& x) { return one(ivy::searchsorted(x[0], x[1], "right")); }});
  c.push_back({"sort", x234, [](const Arrays& x) { return one(ivy::sort(x[0], 1)); }});
  c.push_back({"sort_descending", x34, [](const Arrays& x) { return one(ivy::sort(x[0], -1, true)); }});
  c.push_back({"argsort", x234, [](const Arrays& x) { return one(ivy::argsort(x[0], 2)); }});
  c.push_back({"unique", [] { return one(ivy::astype(integers(Shape{3, 4}, 1, 0, 5), DType::float32)); }, [](const Arrays& x) {
                 auto u = ivy::unique_all(x[0]);
                 return Arrays{u.values, u.indices, u.inverse_indices, u.counts};
               }});
  c.push_back({"isin", [] { return Arrays{integers(Shape{3, 4}, 1, 0, 8), integers(Shape{3}, 2, 0, 8)}; },
               [](const Arrays& x) { return Arrays{ivy::isin(x[0], x[1]), ivy::isin(x[0], x[1], true)}; }});
  // reductions
  c.push_back({"sum", x234, [](const Arrays& x) { return Arrays{ivy::sum(x[0], {0, 2}), ivy::sum(x[0]), ivy::sum(x[0], 1, std::nullopt, true)}; }});
  c.push_back({"sum_i32", [] { return one(integers(Shape{3, 4}, 1, -9, 9, DType::int32)); }, [](const Arrays& x) { return one(ivy::sum(x[0], 1)); }});
  c.push_back({"sum_bool", [] { return one(bools(Shape{3, 4}, 1)); }, [](const Arrays& x) { return one(ivy::sum(x[0])); }});
  c.push_back({"prod", x234, [](const Arrays& x) { return Arrays{ivy::prod(x[0], 1), ivy::prod(x[0])}; }});
  c.push_back({"mean", x234, [](const Arrays& x) { return Arrays{ivy::mean(x[0], {1, 2}, true), ivy::mean(x[0])}; }});
  c.push_back({"max", x234, [](const Arrays& x) { return Arrays{ivy::max(x[0], 0), ivy::max(x[0])}; }});
  c.push_back({"min", x234, [](const Arrays& x) { return Arrays{ivy::min(x[0], -1, true), ivy::min(x[0])}; }});
  c.push_back({"var", x234, [](const Arrays& x) { return Arrays{ivy::var(x[0], 1), ivy::var(x[0], std::nullopt, 1.0)}; }});
  c.push_back({"std", x234, [](const Arrays& x) { return Arrays{ivy::std(x[0], {0, 2}, 1.0, true), ivy::std(x[0])}; }});
  c.push_back({"all", [] { return one(bools(Shape{3, 4}, 1)); }, [](const Arrays& x) { return Arrays{ivy::all(x[0], 1), ivy::all(x[0])}; }});
  c.push_back({"any", x34, [](const Arrays& x) { return Arrays{ivy::any(x[0], 0), ivy::any(ivy::greater(x[0], ivy::asarray(5.0f)))}; }});
  c.push_back({"cumulative_sum", x234, [](const Arrays& x) { return Arrays{ivy::cumulative_sum(x[0], 1), ivy::cumulative_sum(x[0], 2, std::nullopt, true)}; }});
  c.push_back({"cumulative_prod", [] { return one(real(Shape{2, 7}, 1, 0.5, 1.5)); },
               [](const Arrays& x) { return Arrays{ivy::cumulative_prod(x[0], 1), ivy::cumulative_prod(x[0], 1, std::nullopt, true)}; }});
  c.push_back({"cumulative_prod_i64", [] { return one(integers(Shape{9}, 1, -3, 4)); }, [](const Arrays& x) { return one(ivy::cumulative_prod(x[0], 0)); }});
  // linear algebra
  c.push_back({"matmul", [] { return Arrays{real(Shape{2, 3, 4}, 1), real(Shape{4, 5}, 2)}; }, [](const Arrays& x) { return one(ivy::matmul(x[0], x[1])); }});
  c.push_back({"matmul_vec", [] { return Arrays{real(Shape{4}, 1), real(Shape{4}, 2)}; }, [](const Arrays& x) { return one(ivy::matmul(x[0], x[1])); }});
  c.push_back({"diagonal", x234, [](const Arrays& x) { return Arrays{ivy::linalg::diagonal(x[0], 1), ivy::linalg::diagonal(x[0], -1)}; }});
  c.push_back({"det", [] { return one(real(Shape{2, 3, 3}, 1)); }, [](const Arrays& x) { return one(ivy::linalg::det(x[0])); }, 1e-4});
  c.push_back({"slogdet", [] { return one(real(Shape{2, 3, 3}, 1)); }, [](const Arrays& x) {
                 auto r = ivy::linalg::slogdet(x[0]);
                 return Arrays{r.sign, r.logabsdet};
               }, 1e-4});
  // neural-network kernels
  auto conv_attrs = [](ivy::Dims strides, ivy::Dims padding, ivy::Dims dil, std::int64_t groups, ivy::Dims spatial) {
    ivy::attr::conv a;
    a.strides = strides, a.padding = padding, a.dilations = dil, a.groups = groups, a.spatial = spatial;
    return a;
  };
  c.push_back({"conv", [] { return Arrays{real(Shape{2, 4, 7, 6}, 1), real(Shape{6, 2, 3, 2}, 2)}; }, [=](const Arrays& x) {
                 return one(ivy::dispatch(ivy::OpId::conv, {x[0], x[1]}, conv_attrs({2, 1}, {1, 0, 2, 1}, {1, 2}, 2, {})));
               }, 1e-4});
  c.push_back({"conv_transpose", [] { return Arrays{real(Shape{2, 6, 4, 5}, 1), real(Shape{6, 2, 3, 2}, 2)}; }, [=](const Arrays& x) {
                 return one(ivy::dispatch(ivy::OpId::conv_transpose, {x[0], x[1]}, conv_attrs({2, 1}, {1, 0, 2, 1}, {1, 2}, 2, {7, 6})));
               }, 1e-4});
  c.push_back({"conv_weight_grad", [] { return Arrays{real(Shape{2, 4, 7, 6}, 1), real(Shape{2, 6, 4, 5}, 2)}; }, [=](const Arrays& x) {
                 return one(ivy::dispatch(ivy::OpId::conv_weight_grad, {x[0], x[1]}, conv_attrs({2, 1}, {1, 0, 2, 1}, {1, 2}, 2, {3, 2})));
               }, 1e-4});
  c.push_back({"conv_weight_grad_1d", [] { return Arrays{real(Shape{3, 2, 9}, 1), real(Shape{3, 5, 5}, 2)}; }, [=](const Arrays& x) {
                 return one(ivy::dispatch(ivy::OpId::conv_weight_grad, {x[0], x[1]}, conv_attrs({2}, {1, 1}, {1}, 1, {3})));
               }, 1e-4});
  c.push_back({"max_pool", [] { return one(real(Shape{2, 3, 7, 6}, 1)); }, [](const Arrays& x) {
                 ivy::attr::pool p;
                 p.window = {3, 2}, p.strides = {2, 2}, p.padding = {1, 0, 1, 1}, p.dilations = {1, 2};
                 return ivy::dispatch_multi(ivy::OpId::max_pool, std::span<const Array>(x.data(), 1), p);
               }});
  c.push_back({"layer_norm", x234, [](const Arrays& x) {
                 ivy::attr::layer_norm p;
                 p.axis = 1, p.eps = 1e-5;
                 return ivy::dispatch_multi(ivy::OpId::layer_norm, std::span<const Array>(x.data(), 1), p);
               }, 1e-4});
  // empty arrays and 0-d values
  c.push_back({"empty", [] { return one(real(Shape{0, 3}, 1)); }, [](const Arrays& x) { return Arrays{ivy::exp(x[0]), ivy::sum(x[0], 0), ivy::sum(x[0])}; }});
  c.push_back({"zero_d", [] { return Arrays{ivy::asarray(2.5f), real(Shape{3}, 1)}; }, [](const Arrays& x) { return one(ivy::multiply(x[0], x[1])); }});
  // the same value returned twice, and an input returned as it is
  c.push_back({"outputs_alias", x34, [](const Arrays& x) { Array y = ivy::exp(x[0]); return Arrays{y, y, x[0]}; }});
  // a small network: conv, relu as maximum, pooling, a dense layer, log-softmax
  c.push_back({"small_cnn", [] { return Arrays{real(Shape{2, 1, 8, 8}, 1), real(Shape{4, 1, 3, 3}, 2), real(Shape{36, 3}, 3)}; },
               [=](const Arrays& x) {
                 Array h = ivy::dispatch(ivy::OpId::conv, {x[0], x[1]}, conv_attrs({1, 1}, {0, 0, 0, 0}, {1, 1}, 1, {}));
                 h = ivy::maximum(h, ivy::asarray(0.0f));
                 ivy::attr::pool p;
                 p.window = {2, 2}, p.strides = {2, 2}, p.padding = {0, 0, 0, 0}, p.dilations = {1, 1};
                 h = ivy::dispatch_multi(ivy::OpId::max_pool, std::span<const Array>(&h, 1), p)[0];
                 h = ivy::matmul(ivy::reshape(h, Shape{2, 36}), x[2]);
                 return one(ivy::subtract(h, ivy::log(ivy::sum(ivy::exp(h), 1, std::nullopt, true))));
               }, 1e-4});
  return c;
}

std::vector<Case> all_cases() {
  std::vector<Case> c = unary_cases();
  for (auto& v : binary_cases()) c.push_back(std::move(v));
  for (auto& v : other_cases()) c.push_back(std::move(v));
  return c;
}

// Equal shapes and dtypes; values exactly for integers and bools, else within rtol (NaN
// matches NaN, infinities match by sign).
void expect_same(const Array& got, const Array& want, double rtol, bool random, const std::string& what) {
  ASSERT_EQ(got.dtype(), want.dtype()) << what;
  ASSERT_EQ(got.shape().str(), want.shape().str()) << what;
  if (random) return;
  Array w = ivy::to_backend(want, got.backend());
  if (!ivy::is_real_floating(want.dtype())) {
    EXPECT_TRUE(ivy::array_equal(got, w)) << what << "\n got " << got << "\nwant " << w;
  } else {
    const double atol = want.dtype() == DType::float64 ? 1e-12 : 1e-6;
    EXPECT_TRUE(ivy::allclose(got, w, rtol, atol, true)) << what << "\n got " << got << "\nwant " << w;
  }
}

class OnnxExport : public testing::TestWithParam<std::string> {};

TEST_P(OnnxExport, EveryProgramRoundTrips) {
  const char* ort_dir = std::getenv("IVY_ONNX_EXPORT_DIR");
  const std::string backend = GetParam();
  int checked = 0;
  for (const Case& c : all_cases()) {
    for (int opset : {13, 17}) {
      const std::string what = c.name + " at opset " + std::to_string(opset) + " on " + backend;
      SCOPED_TRACE(what);
      Arrays in, eager;
      ivy::Graph g;
      {
        ivy::BackendScope scope(ivy::default_backend());
        in = c.inputs();
        g = ivy::trace(c.fn, in);
      }
      ivy::onnx::ExportOptions opt;
      opt.opset = opset;
      std::string bytes;
      try {
        bytes = ivy::onnx::export_graph(g, opt);
      } catch (const std::exception& e) {
        ADD_FAILURE() << what << ": " << e.what();
        continue;
      }
      ivy::onnx::ImportOptions io;
      io.backend = backend;
      auto model = ivy::onnx::load_from_bytes(bytes, io);
      EXPECT_EQ(model->opset(), opset);
      Arrays on_b;
      for (const auto& a : in) on_b.push_back(ivy::to_backend(a, backend));
      {
        ivy::BackendScope scope(backend.c_str());
        eager = c.fn(on_b);
      }
      Arrays got = model->run(on_b);
      ASSERT_EQ(got.size(), eager.size()) << what;
      for (std::size_t i = 0; i < got.size(); ++i) expect_same(got[i], eager[i], c.rtol, c.random, what + ", output " + std::to_string(i));
      if (ort_dir && backend == ivy::default_backend().name())
        ivy_test::write_ort_case(std::filesystem::path(ort_dir) / (c.name + "_opset" + std::to_string(opset)), bytes, in,
                                 eager, c.rtol, c.random);
      ++checked;
    }
  }
  EXPECT_GE(checked, 2 * 200);
}

// Every primitive of ops.def has an exported test program above, or is listed as
// unexportable with its reason.
TEST(OnnxExportCoverage, EveryPrimitiveIsCoveredOrListed) {
  std::set<std::string> seen;
  for (const Case& c : all_cases()) {
    ivy::BackendScope scope(ivy::default_backend());
    Arrays in = c.inputs();
    ivy::Graph g = ivy::trace(c.fn, in);
    for (const auto& n : g.nodes) seen.insert(ivy::op_info(n.op).name);
  }
  const auto listed = ivy::onnx::unexportable_primitives();
  for (int i = 0; i < ivy::kNumOps; ++i) {
    const std::string name = ivy::op_info(static_cast<ivy::OpId>(i)).name;
    EXPECT_TRUE(seen.count(name) || listed.count(name)) << name << " has no export test program and is not listed as unexportable";
    EXPECT_FALSE(seen.count(name) && listed.count(name)) << name << " is both tested and listed as unexportable";
  }
  for (const auto& [name, why] : listed) EXPECT_GT(why.size(), 20u) << name;
}

TEST(OnnxExportErrors, RefusedGraphsNameThePrimitive) {
  ivy::BackendScope scope(ivy::default_backend());
  Array m = real(Shape{3, 3}, 1);
  ivy::Graph g = ivy::trace([](const Array& x) { return ivy::linalg::inv(x); }, m);
  try {
    ivy::onnx::export_graph(g);
    ADD_FAILURE() << "inv exported";
  } catch (const ivy::ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("[onnx.export] primitive 'inv'"), std::string::npos) << e.what();
  }
  ivy::Graph ok = ivy::trace([](const Array& x) { return ivy::exp(x); }, m);
  for (int opset : {12, 18}) {
    ivy::onnx::ExportOptions o;
    o.opset = opset;
    try {
      ivy::onnx::export_graph(ok, o);
      ADD_FAILURE() << "opset " << opset << " accepted";
    } catch (const ivy::ValueError& e) {
      EXPECT_NE(std::string(e.what()).find("opset " + std::to_string(opset)), std::string::npos) << e.what();
    }
  }
  ivy::onnx::ExportOptions names;
  names.input_names = {"a", "b"};
  EXPECT_THROW(ivy::onnx::export_graph(ok, names), ivy::ValueError);
  Array z = ivy::astype(m, ivy::DType::complex64);
  ivy::Graph cg = ivy::trace([](const Array& x) { return ivy::exp(x); }, z);
  EXPECT_THROW(ivy::onnx::export_graph(cg), ivy::ValueError);
}

TEST(OnnxExportFiles, SaveIsAtomicAndNamesAreKept) {
  ivy::BackendScope scope(ivy::default_backend());
  const auto dir = std::filesystem::temp_directory_path() / ("ivy_export_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "m.onnx").string();
  Array w = real(Shape{4, 2}, 3);
  ivy::onnx::ExportOptions o;
  o.input_names = {"x"};
  o.output_names = {"y"};
  o.constant_names = {{w, "dense.weight"}};
  ivy::onnx::export_function([&](const Arrays& x) { return one(ivy::matmul(x[0], w)); }, {real(Shape{3, 4}, 1)}, path, o);
  auto model = ivy::onnx::load(path);
  ASSERT_EQ(model->inputs().size(), 1u);
  EXPECT_EQ(model->inputs()[0].name, "x");
  EXPECT_EQ(model->outputs()[0].name, "y");
  EXPECT_TRUE(model->parameters().contains("dense.weight"));
  Array x = real(Shape{3, 4}, 5);
  EXPECT_TRUE(ivy::allclose(model->run({x})[0], ivy::matmul(x, w)));
  // a failed export leaves the old file as it was
  const auto before = std::filesystem::file_size(path);
  ivy::Graph bad = ivy::trace([](const Array& x) { return ivy::linalg::inv(x); }, real(Shape{2, 2}, 1));
  EXPECT_THROW(ivy::onnx::save(bad, path), ivy::ValueError);
  EXPECT_EQ(std::filesystem::file_size(path), before);
  std::size_t files = 0;
  for (auto& e : std::filesystem::directory_iterator(dir)) (void)e, ++files;
  EXPECT_EQ(files, 1u);
  std::filesystem::remove_all(dir);
}

std::vector<std::string> backends() {
  std::vector<std::string> r;
  for (ivy::Backend b : ivy::available_backends()) r.emplace_back(b.name());
  return r;
}
INSTANTIATE_TEST_SUITE_P(Backends, OnnxExport, testing::ValuesIn(backends()), [](const auto& info) { return info.param; });

}  // namespace

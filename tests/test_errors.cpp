// Error conformance: every public function of functional.hpp (main namespace, linalg,
// fft) rejects bad input (wrong rank, incompatible shapes, bad dtype, axis out of range,
// bad options) with an ivy::Error whose message starts with "[function_name]", on every
// backend that was built.
#include <gtest/gtest.h>

#include <complex>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "ivy/ivy.hpp"

namespace {

using ivy::Array;
using ivy::Shape;

// A device no machine has: creating or moving arrays there must fail.
const ivy::Device kNoSuchDevice{ivy::Device::cuda, 99};

// Runs f; expects an exception of type E (ivy::Error or a subclass) whose what() starts
// with "[name]" (and contains `text`, when given).
template <class E, class F>
void expect_ivy_error(F&& f, std::string_view name, const char* stmt, const char* type, const char* file, int line,
                      std::string_view text = {}) {
  const std::string prefix = "[" + std::string(name) + "]";
  try {
    f();
  } catch (const ivy::Error& e) {
    std::string_view what = e.what();
    if (dynamic_cast<const E*>(&e) == nullptr)
      ADD_FAILURE_AT(file, line) << stmt << "\n  threw an ivy::Error that is not a " << type << ": " << what;
    else if (!what.starts_with(prefix))
      ADD_FAILURE_AT(file, line) << stmt << "\n  threw, but its message does not start with " << prefix << ":\n  "
                                 << what;
    else if (what.find(text) == std::string_view::npos)
      ADD_FAILURE_AT(file, line) << stmt << "\n  threw, but its message does not contain \"" << text << "\":\n  " << what;
    return;
  } catch (const std::exception& e) {
    ADD_FAILURE_AT(file, line) << stmt << "\n  threw a non-ivy exception: " << e.what();
    return;
  } catch (...) {
    ADD_FAILURE_AT(file, line) << stmt << "\n  threw something that is not a std::exception";
    return;
  }
  ADD_FAILURE_AT(file, line) << stmt << "\n  did not throw (expected " << type << " starting with " << prefix << ")";
}

// EXPECT_IVY_ERROR(stmt, "name"): stmt throws an ivy::Error whose message starts with
// "[name]". Wrap a stmt that has a top-level comma inside braces in parentheses.
#define EXPECT_IVY_ERROR(stmt, name) \
  expect_ivy_error<ivy::Error>([&] { (void)(stmt); }, name, #stmt, "ivy::Error", __FILE__, __LINE__)
// The same, and the error must be of the given ivy::Error subclass.
#define EXPECT_IVY_ERROR_AS(stmt, name, type) \
  expect_ivy_error<type>([&] { (void)(stmt); }, name, #stmt, #type, __FILE__, __LINE__)
// The same, and the message must contain `text`.
#define EXPECT_IVY_ERROR_WITH(stmt, name, type, text) \
  expect_ivy_error<type>([&] { (void)(stmt); }, name, #stmt, #type, __FILE__, __LINE__, text)

std::vector<std::string> backend_names() {
  std::vector<std::string> names;
  for (ivy::Backend b : ivy::available_backends()) names.emplace_back(b.name());
  return names;
}

// Every test runs inside a BackendScope for its backend, so arrays made with the
// creation functions live there.
class Errors : public testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    backend_ = ivy::Backend(GetParam().c_str());
    scope_ = std::make_unique<ivy::BackendScope>(backend_);
  }
  void TearDown() override { scope_.reset(); }

  static Array f64(const Shape& s) { return ivy::ones(s, ivy::float64); }
  static Array f32(const Shape& s) { return ivy::ones(s, ivy::float32); }
  static Array i32(const Shape& s) { return ivy::ones(s, ivy::int32); }
  static Array i64(const Shape& s) { return ivy::zeros(s, ivy::int64); }
  static Array b8(const Shape& s) { return ivy::full(s, true, ivy::bool_); }
  static Array c128(const Shape& s) { return ivy::ones(s, ivy::complex128); }

  ivy::Backend backend_;
  std::unique_ptr<ivy::BackendScope> scope_;
};

// ------------------------------------------------------------------ creation (16)
TEST_P(Errors, Creation) {
  const double inf = std::numeric_limits<double>::infinity();
  const std::complex<double> one_two(1.0, 2.0);
  EXPECT_IVY_ERROR(ivy::arange(0, 10, 0), "arange");                       // zero step
  EXPECT_IVY_ERROR(ivy::arange(0.0, inf), "arange");                       // infinite length
  EXPECT_IVY_ERROR(ivy::asarray({{1.0, 2.0}, {3.0}}), "asarray");          // ragged
  EXPECT_IVY_ERROR(ivy::asarray(f64({2}), ivy::int32, ivy::Device{}, false), "asarray");  // copy=false needs a copy
  EXPECT_IVY_ERROR(ivy::empty(Shape{2, -1}), "empty");
  EXPECT_IVY_ERROR(ivy::empty_like(f64({2}), std::nullopt, kNoSuchDevice), "empty_like");
  EXPECT_IVY_ERROR(ivy::eye(-1), "eye");
  EXPECT_IVY_ERROR(ivy::eye(2, -3), "eye");
  EXPECT_IVY_ERROR(ivy::from_dlpack(f64({2}), kNoSuchDevice), "from_dlpack");
  EXPECT_IVY_ERROR(ivy::full(Shape{-2}, 1.0), "full");
  EXPECT_IVY_ERROR(ivy::full(Shape{2}, one_two, ivy::float64), "full");       // complex fill, real dtype
  EXPECT_IVY_ERROR(ivy::full_like(f64({2}), one_two), "full_like");
  EXPECT_IVY_ERROR(ivy::linspace(0.0, 1.0, -1), "linspace");
  EXPECT_IVY_ERROR(ivy::meshgrid({f64({2, 2}), f64({3})}), "meshgrid");   // inputs must be 1-d
  EXPECT_IVY_ERROR(ivy::meshgrid({f64({2}), f64({3})}, "xz"), "meshgrid");  // bad indexing
  EXPECT_IVY_ERROR(ivy::ones(Shape{-1}), "ones");
  EXPECT_IVY_ERROR(ivy::ones(Shape{2}, ivy::float64, kNoSuchDevice), "ones");
  EXPECT_IVY_ERROR(ivy::ones_like(f64({2}), std::nullopt, kNoSuchDevice), "ones_like");
  EXPECT_IVY_ERROR(ivy::tril(f64({3})), "tril");                           // rank < 2
  EXPECT_IVY_ERROR(ivy::triu(f64({})), "triu");
  EXPECT_IVY_ERROR(ivy::zeros(Shape{3, -4}), "zeros");
  EXPECT_IVY_ERROR(ivy::zeros_like(f64({2}), std::nullopt, kNoSuchDevice), "zeros_like");
}

// ------------------------------------------------------------------ data types (6)
TEST_P(Errors, DataTypes) {
  EXPECT_IVY_ERROR(ivy::astype(f64({2}), ivy::float32, true, kNoSuchDevice), "astype");
  EXPECT_IVY_ERROR(ivy::finfo(i32({2})), "finfo");                          // not floating
  EXPECT_IVY_ERROR(ivy::finfo(ivy::int64), "finfo");
  EXPECT_IVY_ERROR(ivy::iinfo(f64({2})), "iinfo");                          // not integer
  EXPECT_IVY_ERROR(ivy::iinfo(ivy::complex64), "iinfo");
  EXPECT_IVY_ERROR(ivy::isdtype(ivy::float32, "floating point"), "isdtype");  // unknown kind
  EXPECT_IVY_ERROR(ivy::result_type(std::vector<ivy::DTypeArg>{}), "result_type");  // nothing to promote
}

// ------------------------------------------------------------------ elementwise (67)
struct UnaryFn {
  const char* name;
  Array (*f)(const Array&);
};

// Functions that take numeric input only: bool is a bad dtype.
const UnaryFn kNumericUnary[] = {
    {"abs", ivy::abs},         {"acos", ivy::acos},         {"acosh", ivy::acosh},         {"asin", ivy::asin},
    {"asinh", ivy::asinh},     {"atan", ivy::atan},         {"atanh", ivy::atanh},         {"conj", ivy::conj},
    {"cos", ivy::cos},         {"cosh", ivy::cosh},         {"exp", ivy::exp},             {"expm1", ivy::expm1},
    {"imag", ivy::imag},       {"isfinite", ivy::isfinite}, {"isinf", ivy::isinf},         {"isnan", ivy::isnan},
    {"log", ivy::log},         {"log1p", ivy::log1p},       {"log2", ivy::log2},           {"log10", ivy::log10},
    {"negative", ivy::negative}, {"positive", ivy::positive}, {"real", ivy::real},        {"reciprocal", ivy::reciprocal},
    {"round", ivy::round},     {"sign", ivy::sign},         {"sin", ivy::sin},             {"sinh", ivy::sinh},
    {"square", ivy::square},   {"sqrt", ivy::sqrt},         {"tan", ivy::tan},             {"tanh", ivy::tanh},
};
// Functions that take real numbers only: complex is a bad dtype (and bool too).
const UnaryFn kRealUnary[] = {
    {"ceil", ivy::ceil}, {"floor", ivy::floor}, {"signbit", ivy::signbit}, {"trunc", ivy::trunc}};

TEST_P(Errors, ElementwiseUnary) {
  for (const UnaryFn& u : kNumericUnary) {
    SCOPED_TRACE(u.name);
    EXPECT_IVY_ERROR_AS(u.f(b8({2, 2})), u.name, ivy::TypeError);
  }
  for (const UnaryFn& u : kRealUnary) {
    SCOPED_TRACE(u.name);
    EXPECT_IVY_ERROR_AS(u.f(c128({3})), u.name, ivy::TypeError);
    EXPECT_IVY_ERROR_AS(u.f(b8({3})), u.name, ivy::TypeError);
  }
  EXPECT_IVY_ERROR_AS(ivy::bitwise_invert(f64({3})), "bitwise_invert", ivy::TypeError);
  EXPECT_IVY_ERROR_AS(ivy::bitwise_invert(c128({3})), "bitwise_invert", ivy::TypeError);
}

struct BinaryFn {
  const char* name;
  Array (*f)(const Array&, const Array&);
};
#define IVY_BIN(name) BinaryFn{#name, static_cast<Array (*)(const Array&, const Array&)>(ivy::name)}
const BinaryFn kBinary[] = {
    IVY_BIN(add),       IVY_BIN(atan2),       IVY_BIN(bitwise_and),   IVY_BIN(bitwise_left_shift),
    IVY_BIN(bitwise_or), IVY_BIN(bitwise_right_shift), IVY_BIN(bitwise_xor), IVY_BIN(copysign),
    IVY_BIN(divide),    IVY_BIN(equal),       IVY_BIN(floor_divide),  IVY_BIN(greater),
    IVY_BIN(greater_equal), IVY_BIN(hypot),   IVY_BIN(less),          IVY_BIN(less_equal),
    IVY_BIN(logaddexp), IVY_BIN(logical_and), IVY_BIN(logical_or),    IVY_BIN(logical_xor),
    IVY_BIN(maximum),   IVY_BIN(minimum),     IVY_BIN(multiply),      IVY_BIN(nextafter),
    IVY_BIN(not_equal), IVY_BIN(pow),         IVY_BIN(remainder),     IVY_BIN(subtract),
};
// Bad dtypes per the standard: real-only functions reject complex, integer-only reject floats.
const BinaryFn kRealBinary[] = {
    IVY_BIN(atan2),   IVY_BIN(copysign), IVY_BIN(floor_divide), IVY_BIN(greater),   IVY_BIN(greater_equal),
    IVY_BIN(hypot),   IVY_BIN(less),     IVY_BIN(less_equal),   IVY_BIN(logaddexp), IVY_BIN(maximum),
    IVY_BIN(minimum), IVY_BIN(nextafter), IVY_BIN(remainder),
};
const BinaryFn kIntegerBinary[] = {
    IVY_BIN(bitwise_and), IVY_BIN(bitwise_left_shift), IVY_BIN(bitwise_or), IVY_BIN(bitwise_right_shift),
    IVY_BIN(bitwise_xor),
};
#undef IVY_BIN

TEST_P(Errors, ElementwiseBinary) {
  for (const BinaryFn& b : kBinary) {
    SCOPED_TRACE(b.name);
    bool integer_only = std::string_view(b.name).starts_with("bitwise");
    Array x = integer_only ? i32({2, 3}) : f64({2, 3});
    Array y = integer_only ? i32({4}) : f64({4});
    EXPECT_IVY_ERROR_AS(b.f(x, y), b.name, ivy::ValueError);  // (2, 3) and (4,) do not broadcast
    EXPECT_IVY_ERROR(b.f(x, integer_only ? i32({2, 1, 2}) : f64({2, 1, 2})), b.name);
  }
  for (const BinaryFn& b : kRealBinary) {
    SCOPED_TRACE(b.name);
    EXPECT_IVY_ERROR_AS(b.f(c128({3}), c128({3})), b.name, ivy::TypeError);
  }
  for (const BinaryFn& b : kIntegerBinary) {
    SCOPED_TRACE(b.name);
    EXPECT_IVY_ERROR_AS(b.f(f64({3}), f64({3})), b.name, ivy::TypeError);
  }
  for (const char* name : {"bitwise_left_shift", "bitwise_right_shift"}) {
    SCOPED_TRACE(name);
    auto f = std::string_view(name) == "bitwise_left_shift" ? kIntegerBinary[1].f : kIntegerBinary[3].f;
    EXPECT_IVY_ERROR_AS(f(b8({3}), b8({3})), name, ivy::TypeError);  // shifts need integers
  }
  for (const char* name : {"subtract", "divide", "pow"}) {  // numeric only: bool is a bad dtype
    SCOPED_TRACE(name);
    const BinaryFn* b = nullptr;
    for (const BinaryFn& c : kBinary)
      if (std::string_view(c.name) == name) b = &c;
    ASSERT_NE(b, nullptr);
    EXPECT_IVY_ERROR_AS(b->f(b8({3}), b8({3})), name, ivy::TypeError);
  }
  // the scalar overloads validate too
  EXPECT_IVY_ERROR_AS(ivy::bitwise_and(f64({3}), ivy::Scalar(1)), "bitwise_and", ivy::TypeError);
  EXPECT_IVY_ERROR_AS(ivy::atan2(ivy::Scalar(1.0), c128({2})), "atan2", ivy::TypeError);
  // clip, the 67th
  EXPECT_IVY_ERROR(ivy::clip(f64({2, 3}), ivy::Bound(f64({4})), ivy::Bound()), "clip");  // bound does not broadcast
  EXPECT_IVY_ERROR(ivy::clip(c128({3}), 0.0, 1.0), "clip");                                // complex is unordered
}

// ------------------------------------------------------------------ indexing (2)
TEST_P(Errors, Indexing) {
  Array x = f64({3, 4});
  EXPECT_IVY_ERROR_AS(ivy::take(x, f64({2}), 0), "take", ivy::TypeError);  // float indices
  EXPECT_IVY_ERROR_AS(ivy::take(x, i64({2}), 2), "take", ivy::IndexError);  // axis out of range
  EXPECT_IVY_ERROR(ivy::take(x, i64({2})), "take");                         // axis needed for 2-d x
  EXPECT_IVY_ERROR(ivy::take(f64({}), i64({1}), 0), "take");                // 0-d x
  EXPECT_IVY_ERROR(ivy::take_along_axis(x, i64({3}), 0), "take_along_axis");      // rank mismatch
  EXPECT_IVY_ERROR_AS(ivy::take_along_axis(x, i64({3, 4}), 5), "take_along_axis", ivy::IndexError);
  EXPECT_IVY_ERROR_AS(ivy::take_along_axis(x, f64({3, 4}), 1), "take_along_axis", ivy::TypeError);
  EXPECT_IVY_ERROR(ivy::take_along_axis(x, i64({2, 2}), 1), "take_along_axis");   // other dims do not broadcast
}

// ------------------------------------------------------------------ linear algebra (4)
TEST_P(Errors, LinearAlgebra) {
  EXPECT_IVY_ERROR_AS(ivy::matmul(f64({2, 3}), f64({4, 2})), "matmul", ivy::ValueError);
  EXPECT_IVY_ERROR(ivy::matmul(f64({}), f64({3})), "matmul");                     // 0-d operand
  EXPECT_IVY_ERROR(ivy::matmul(f64({2, 2, 3}), f64({3, 3, 2})), "matmul");        // batch does not broadcast
  EXPECT_IVY_ERROR_AS(ivy::matmul(b8({2, 2}), b8({2, 2})), "matmul", ivy::TypeError);
  EXPECT_IVY_ERROR(ivy::matrix_transpose(f64({3})), "matrix_transpose");
  EXPECT_IVY_ERROR(ivy::tensordot(f64({2, 3}), f64({4, 5}), 1), "tensordot");    // 3 != 4
  EXPECT_IVY_ERROR(ivy::tensordot(f64({2, 3}), f64({2, 3}), 3), "tensordot");    // more axes than dims
  EXPECT_IVY_ERROR((ivy::tensordot(f64({2, 3}), f64({3, 2}), ivy::TensordotAxes({0}, {0, 1}))), "tensordot");
  EXPECT_IVY_ERROR(ivy::vecdot(f64({3, 4}), f64({3, 5})), "vecdot");
  EXPECT_IVY_ERROR(ivy::vecdot(f64({3, 4}), f64({3, 4}), 2), "vecdot");
}

// ------------------------------------------------------------------ manipulation (15)
TEST_P(Errors, Manipulation) {
  Array x = f64({2, 3});
  EXPECT_IVY_ERROR(ivy::broadcast_arrays({x, f64({4})}), "broadcast_arrays");
  EXPECT_IVY_ERROR(ivy::broadcast_shapes(std::vector<Shape>{Shape{2, 3}, Shape{4}}), "broadcast_shapes");
  EXPECT_IVY_ERROR(ivy::broadcast_to(f64({3}), Shape{2, 4}), "broadcast_to");
  EXPECT_IVY_ERROR(ivy::broadcast_to(x, Shape{3}), "broadcast_to");                   // fewer dims
  // an input axis of length > 1 onto a target axis of 1 (the shapes broadcast, to another shape)
  EXPECT_IVY_ERROR_WITH(ivy::broadcast_to(f64({3}), Shape{1}), "broadcast_to", ivy::ValueError,
                        "cannot broadcast shape (3,) to (1,)");
  EXPECT_IVY_ERROR_WITH(ivy::broadcast_to(x, Shape{4, 1, 3}), "broadcast_to", ivy::ValueError, "(2, 3) to (4, 1, 3)");
  EXPECT_IVY_ERROR_WITH(ivy::broadcast_to(x, Shape{2, 4}), "broadcast_to", ivy::ValueError, "cannot be broadcast together");
  EXPECT_EQ(ivy::broadcast_to(f64({1, 3}), Shape{2, 0, 3}).shape(), (Shape{2, 0, 3}));  // 1 stretches to 0
  EXPECT_EQ(ivy::broadcast_to(x, Shape{5, 2, 3}).shape(), (Shape{5, 2, 3}));
  EXPECT_IVY_ERROR(ivy::concat({x, f64({2, 4})}, 0), "concat");                       // other dims differ
  EXPECT_IVY_ERROR(ivy::concat({x, f64({3})}, 0), "concat");                          // ranks differ
  EXPECT_IVY_ERROR(ivy::concat({x, x}, 2), "concat");                                 // axis out of range
  EXPECT_IVY_ERROR(ivy::concat({f64({}), f64({})}, 0), "concat");                     // 0-d inputs
  EXPECT_IVY_ERROR(ivy::concat(std::vector<Array>{}, 0), "concat");                   // nothing to join
  EXPECT_IVY_ERROR(ivy::concat(std::span<const Array>{}, 0), "concat");
  EXPECT_IVY_ERROR(ivy::expand_dims(x, 3), "expand_dims");                            // valid: [-3, 2]
  EXPECT_IVY_ERROR(ivy::expand_dims(x, -4), "expand_dims");
  EXPECT_IVY_ERROR((ivy::expand_dims(x, {0, 0})), "expand_dims");                     // repeated axis
  EXPECT_IVY_ERROR(ivy::flip(x, 2), "flip");
  EXPECT_IVY_ERROR((ivy::flip(x, {1, -1})), "flip");                                  // repeated axis
  EXPECT_IVY_ERROR((ivy::moveaxis(x, {0}, {0, 1})), "moveaxis");                      // lengths differ
  EXPECT_IVY_ERROR((ivy::moveaxis(x, {2}, {0})), "moveaxis");
  EXPECT_IVY_ERROR((ivy::moveaxis(x, {0, 0}, {0, 1})), "moveaxis");                   // repeated source
  EXPECT_IVY_ERROR((ivy::permute_dims(x, {0})), "permute_dims");                      // wrong length
  EXPECT_IVY_ERROR((ivy::permute_dims(x, {0, 0})), "permute_dims");                   // not a permutation
  EXPECT_IVY_ERROR((ivy::permute_dims(x, {0, 2})), "permute_dims");
  EXPECT_IVY_ERROR(ivy::repeat(x, -1), "repeat");
  EXPECT_IVY_ERROR(ivy::repeat(x, i64({4}), 1), "repeat");                            // 4 repeats for 3 items
  EXPECT_IVY_ERROR(ivy::repeat(x, 2, 2), "repeat");
  EXPECT_IVY_ERROR(ivy::repeat(x, f64({3}), 1), "repeat");                            // float repeats
  EXPECT_IVY_ERROR(ivy::repeat(f64({0}), -1), "repeat");                              // negative, nothing to repeat
  EXPECT_IVY_ERROR(ivy::repeat(x, ivy::asarray({1, -1, 2}), 1), "repeat");             // one negative count
  const std::vector<std::int64_t> dims33(33, 1);
  EXPECT_IVY_ERROR_WITH(ivy::Shape(std::span<const std::int64_t>(dims33)), "shape", ivy::ValueError,
                        "rank 33 exceeds ivy's maximum of 32");
  EXPECT_IVY_ERROR(ivy::reshape(x, Shape{4, 2}), "reshape");
  EXPECT_IVY_ERROR(ivy::reshape(x, Shape{-1, -1}), "reshape");
  EXPECT_IVY_ERROR(ivy::reshape(x, Shape{-1, 4}), "reshape");
  EXPECT_IVY_ERROR((ivy::roll(x, ivy::Dims{1, 2}, ivy::AxisArg(0))), "roll");         // shift/axis lengths differ
  EXPECT_IVY_ERROR(ivy::roll(x, 1, 2), "roll");
  EXPECT_IVY_ERROR(ivy::squeeze(x, 0), "squeeze");                                    // that axis is not 1
  EXPECT_IVY_ERROR(ivy::squeeze(f64({1, 3}), 2), "squeeze");
  EXPECT_IVY_ERROR(ivy::stack({x, f64({3, 2})}), "stack");                            // shapes differ
  EXPECT_IVY_ERROR(ivy::stack({x, x}, 3), "stack");                                   // valid: [-3, 2]
  EXPECT_IVY_ERROR(ivy::stack(std::vector<Array>{}), "stack");
  EXPECT_IVY_ERROR((ivy::tile(x, {2, -1})), "tile");
  EXPECT_IVY_ERROR(ivy::unstack(x, 2), "unstack");
  EXPECT_IVY_ERROR(ivy::unstack(f64({})), "unstack");                                 // 0-d
}

// ------------------------------------------------------------------ searching (6)
TEST_P(Errors, Searching) {
  Array x = f64({2, 3});
  EXPECT_IVY_ERROR(ivy::argmax(f64({0})), "argmax");                                  // empty
  EXPECT_IVY_ERROR_AS(ivy::argmax(x, 2), "argmax", ivy::IndexError);
  EXPECT_IVY_ERROR_AS(ivy::argmax(c128({3})), "argmax", ivy::TypeError);
  EXPECT_IVY_ERROR(ivy::argmin(f64({2, 0}), 1), "argmin");
  EXPECT_IVY_ERROR_AS(ivy::argmin(x, -3), "argmin", ivy::IndexError);
  EXPECT_IVY_ERROR_AS(ivy::argmin(c128({3})), "argmin", ivy::TypeError);
  EXPECT_IVY_ERROR(ivy::count_nonzero(x, 2), "count_nonzero");
  EXPECT_IVY_ERROR((ivy::count_nonzero(x, {0, 0})), "count_nonzero");
  EXPECT_IVY_ERROR(ivy::nonzero(f64({})), "nonzero");                                  // 0-d
  EXPECT_IVY_ERROR(ivy::searchsorted(x, f64({2})), "searchsorted");                   // x1 must be 1-d
  EXPECT_IVY_ERROR(ivy::searchsorted(f64({3}), f64({2}), "middle"), "searchsorted");  // bad side
  EXPECT_IVY_ERROR(ivy::searchsorted(f64({3}), f64({2}), "left", i64({2})), "searchsorted");  // sorter length
  EXPECT_IVY_ERROR(ivy::searchsorted(f64({3}), f64({2}), "left", f64({3})), "searchsorted");  // sorter dtype
  EXPECT_IVY_ERROR_AS(ivy::searchsorted(c128({3}), c128({2})), "searchsorted", ivy::TypeError);
  EXPECT_IVY_ERROR_AS(ivy::where(f64({2, 3}), x, x), "where", ivy::TypeError);       // condition not bool
  EXPECT_IVY_ERROR_AS(ivy::where(b8({2, 3}), x, f64({4})), "where", ivy::ValueError);
  EXPECT_IVY_ERROR(ivy::where(b8({5}), x, ivy::Scalar(0.0)), "where");
}

// ------------------------------------------------------------------ sorting (2)
TEST_P(Errors, Sorting) {
  Array x = f64({2, 3});
  EXPECT_IVY_ERROR_AS(ivy::argsort(x, 2), "argsort", ivy::IndexError);
  EXPECT_IVY_ERROR_AS(ivy::argsort(c128({3})), "argsort", ivy::TypeError);
  EXPECT_IVY_ERROR(ivy::argsort(f64({})), "argsort");                                 // 0-d
  EXPECT_IVY_ERROR_AS(ivy::sort(x, -3), "sort", ivy::IndexError);
  EXPECT_IVY_ERROR_AS(ivy::sort(c128({3})), "sort", ivy::TypeError);
  EXPECT_IVY_ERROR(ivy::sort(f64({})), "sort");
}

// ------------------------------------------------------------------ statistical (9)
TEST_P(Errors, Statistical) {
  Array x = f64({2, 3});
  EXPECT_IVY_ERROR(ivy::cumulative_prod(x), "cumulative_prod");                       // axis needed for 2-d
  EXPECT_IVY_ERROR(ivy::cumulative_prod(x, 2), "cumulative_prod");
  EXPECT_IVY_ERROR_AS(ivy::cumulative_prod(b8({3})), "cumulative_prod", ivy::TypeError);
  EXPECT_IVY_ERROR(ivy::cumulative_sum(x), "cumulative_sum");
  EXPECT_IVY_ERROR(ivy::cumulative_sum(x, -3), "cumulative_sum");
  EXPECT_IVY_ERROR_AS(ivy::cumulative_sum(b8({3})), "cumulative_sum", ivy::TypeError);
  EXPECT_IVY_ERROR(ivy::max(f64({0})), "max");                                        // no identity
  EXPECT_IVY_ERROR_AS(ivy::max(x, 2), "max", ivy::IndexError);
  EXPECT_IVY_ERROR_AS(ivy::max(c128({3})), "max", ivy::TypeError);
  EXPECT_IVY_ERROR_AS(ivy::mean(x, 2), "mean", ivy::IndexError);
  EXPECT_IVY_ERROR_AS(ivy::mean(b8({3})), "mean", ivy::TypeError);
  EXPECT_IVY_ERROR(ivy::min(f64({3, 0}), 1), "min");
  EXPECT_IVY_ERROR_AS(ivy::min(x, -3), "min", ivy::IndexError);
  EXPECT_IVY_ERROR((ivy::prod(x, {0, 0})), "prod");                                   // repeated axis
  EXPECT_IVY_ERROR_AS(ivy::prod(x, 5), "prod", ivy::IndexError);
  EXPECT_IVY_ERROR(ivy::std(x, {}, -1.0), "std");                                     // negative correction
  EXPECT_IVY_ERROR_AS(ivy::std(x, 2), "std", ivy::IndexError);
  EXPECT_IVY_ERROR((ivy::sum(x, {1, -1})), "sum");                                    // repeated axis
  EXPECT_IVY_ERROR_AS(ivy::sum(x, 2), "sum", ivy::IndexError);
  EXPECT_IVY_ERROR_AS(ivy::sum(x, {}, ivy::bool_), "sum", ivy::TypeError);  // bool accumulator
  EXPECT_IVY_ERROR(ivy::var(x, {}, -0.5), "var");
  EXPECT_IVY_ERROR_AS(ivy::var(x, -3), "var", ivy::IndexError);
}

// ------------------------------------------------------------------ utility (3)
TEST_P(Errors, Utility) {
  Array x = f64({2, 3});
  EXPECT_IVY_ERROR_AS(ivy::all(x, 2), "all", ivy::IndexError);
  EXPECT_IVY_ERROR((ivy::all(x, {0, 0})), "all");
  EXPECT_IVY_ERROR_AS(ivy::any(x, -3), "any", ivy::IndexError);
  EXPECT_IVY_ERROR((ivy::any(x, {1, 1})), "any");
  EXPECT_IVY_ERROR(ivy::diff(x, 2), "diff");                                          // axis out of range
  EXPECT_IVY_ERROR(ivy::diff(x, -1, -1), "diff");                                     // negative n
  EXPECT_IVY_ERROR(ivy::diff(x, 1, 1, f64({3, 1})), "diff");                          // prepend shape
  EXPECT_IVY_ERROR(ivy::diff(x, 1, 1, std::nullopt, f64({2, 2, 1})), "diff");         // append rank
  EXPECT_IVY_ERROR(ivy::diff(f64({})), "diff");                                       // 0-d
}

// ------------------------------------------------------------------ random (Ivy's)
TEST_P(Errors, Random) {
  EXPECT_IVY_ERROR(ivy::random_uniform(0.0, 1.0, Shape{-1}), "random_uniform");
  EXPECT_IVY_ERROR(ivy::random_uniform(0.0, 1.0, Shape{2}, ivy::int32), "random_uniform");  // not floating
  EXPECT_IVY_ERROR(ivy::random_normal(0.0, 1.0, Shape{3, -2}), "random_normal");
  EXPECT_IVY_ERROR(ivy::random_normal(0.0, -1.0, Shape{3}), "random_normal");                // negative std
  EXPECT_IVY_ERROR(ivy::randint(5, 2, Shape{3}), "randint");                                   // low >= high
  EXPECT_IVY_ERROR(ivy::randint(0, 2, Shape{-3}), "randint");
  EXPECT_IVY_ERROR(ivy::randint(0, 2, Shape{3}, ivy::float32), "randint");                    // not integer
  // seed(value, backend) has no invalid input: every value and every backend (or none) is fine.
  EXPECT_NO_THROW(ivy::seed(7, backend_));
}

// ------------------------------------------------------------------ comparison helpers
TEST_P(Errors, Comparison) {
  EXPECT_IVY_ERROR(ivy::allclose(f64({2, 3}), f64({4})), "allclose");  // shapes do not broadcast
}

// ------------------------------------------------------------------ linalg extension (25)
TEST_P(Errors, Linalg) {
  namespace la = ivy::linalg;
  Array rect = f64({2, 3}), vec = f64({3}), sq = f64({3, 3}), isq = i32({3, 3});
  EXPECT_IVY_ERROR(la::cholesky(rect), "cholesky");                            // not square
  EXPECT_IVY_ERROR(la::cholesky(vec), "cholesky");                             // rank 1
  EXPECT_IVY_ERROR_AS(la::cholesky(isq), "cholesky", ivy::TypeError);
  EXPECT_IVY_ERROR(la::cross(f64({4, 3}), f64({4, 2})), "cross");              // shape mismatch
  EXPECT_IVY_ERROR(la::cross(f64({4, 2}), f64({4, 2})), "cross");              // axis size must be 3
  EXPECT_IVY_ERROR(la::cross(f64({3, 4}), f64({3, 4}), 2), "cross");           // axis out of range
  EXPECT_IVY_ERROR(la::det(rect), "det");
  EXPECT_IVY_ERROR_AS(la::det(isq), "det", ivy::TypeError);
  EXPECT_IVY_ERROR(la::diagonal(vec), "diagonal");
  EXPECT_IVY_ERROR(la::eigh(rect), "eigh");
  EXPECT_IVY_ERROR_AS(la::eigh(isq), "eigh", ivy::TypeError);
  EXPECT_IVY_ERROR(la::eigvalsh(vec), "eigvalsh");
  EXPECT_IVY_ERROR(la::eig(rect), "eig");
  EXPECT_IVY_ERROR(la::eigvals(f64({2, 3, 4})), "eigvals");
  EXPECT_IVY_ERROR(la::inv(rect), "inv");
  EXPECT_IVY_ERROR_AS(la::inv(isq), "inv", ivy::TypeError);
  EXPECT_IVY_ERROR(la::matmul(rect, rect), "matmul");
  EXPECT_IVY_ERROR(la::matrix_norm(vec), "matrix_norm");                       // rank 1
  EXPECT_IVY_ERROR(la::matrix_norm(sq, false, std::string("max")), "matrix_norm");  // unknown ord
  EXPECT_IVY_ERROR(la::matrix_norm(sq, false, 3.0), "matrix_norm");            // 3 is not a matrix norm
  EXPECT_IVY_ERROR(la::matrix_power(rect, 2), "matrix_power");
  EXPECT_IVY_ERROR(la::matrix_power(vec, 2), "matrix_power");
  EXPECT_IVY_ERROR(la::matrix_rank(vec), "matrix_rank");
  EXPECT_IVY_ERROR(la::matrix_transpose(vec), "matrix_transpose");
  EXPECT_IVY_ERROR(la::outer(rect, vec), "outer");                             // inputs must be 1-d
  EXPECT_IVY_ERROR(la::pinv(vec), "pinv");
  EXPECT_IVY_ERROR(la::qr(vec), "qr");
  EXPECT_IVY_ERROR(la::qr(rect, "full"), "qr");                                // bad mode
  EXPECT_IVY_ERROR(la::slogdet(rect), "slogdet");
  EXPECT_IVY_ERROR(la::solve(rect, vec), "solve");                             // x1 not square
  EXPECT_IVY_ERROR(la::solve(sq, f64({4})), "solve");                          // sizes differ
  EXPECT_IVY_ERROR(la::solve(sq, f64({2, 2})), "solve");
  EXPECT_IVY_ERROR(la::svd(vec), "svd");
  EXPECT_IVY_ERROR_AS(la::svd(isq), "svd", ivy::TypeError);
  EXPECT_IVY_ERROR(la::svdvals(vec), "svdvals");
  EXPECT_IVY_ERROR(la::tensordot(rect, rect, 1), "tensordot");                 // 3 != 2
  EXPECT_IVY_ERROR(la::trace(vec), "trace");
  EXPECT_IVY_ERROR(la::vecdot(rect, f64({2, 4})), "vecdot");
  EXPECT_IVY_ERROR(la::vector_norm(rect, 2), "vector_norm");                   // axis out of range
  EXPECT_IVY_ERROR((la::vector_norm(rect, {0, 0})), "vector_norm");            // repeated axis
}

// ------------------------------------------------------------------ fft extension (14)
TEST_P(Errors, Fft) {
  namespace fft = ivy::fft;
  Array c = c128({4, 6}), r = f64({4, 6});
  EXPECT_IVY_ERROR(fft::fft(c, 0), "fft");                                     // n < 1
  EXPECT_IVY_ERROR(fft::fft(c, std::nullopt, 2), "fft");                       // axis out of range
  EXPECT_IVY_ERROR(fft::fft(c, std::nullopt, -1, "sideways"), "fft");          // bad norm
  EXPECT_IVY_ERROR(fft::fft(c128({})), "fft");                                 // 0-d
  EXPECT_IVY_ERROR(fft::ifft(c, -2), "ifft");
  EXPECT_IVY_ERROR(fft::ifft(c, std::nullopt, -3), "ifft");
  EXPECT_IVY_ERROR((fft::fftn(c, ivy::Dims{4, 4}, ivy::Dims{0})), "fftn");     // s and axes lengths differ
  EXPECT_IVY_ERROR((fft::fftn(c, std::nullopt, ivy::Dims{0, 2})), "fftn");     // axis out of range
  EXPECT_IVY_ERROR((fft::ifftn(c, ivy::Dims{0, 3})), "ifftn");                 // a zero length
  EXPECT_IVY_ERROR((fft::ifftn(c, std::nullopt, std::nullopt, "none")), "ifftn");
  EXPECT_IVY_ERROR_AS(fft::rfft(c), "rfft", ivy::TypeError);                   // complex input
  EXPECT_IVY_ERROR(fft::rfft(r, 0), "rfft");
  EXPECT_IVY_ERROR(fft::irfft(c, 0), "irfft");
  EXPECT_IVY_ERROR(fft::irfft(c, std::nullopt, 3), "irfft");
  EXPECT_IVY_ERROR_AS(fft::rfftn(c), "rfftn", ivy::TypeError);
  EXPECT_IVY_ERROR((fft::rfftn(r, ivy::Dims{4, 4, 4})), "rfftn");              // more lengths than dims
  EXPECT_IVY_ERROR((fft::irfftn(c, std::nullopt, ivy::Dims{1, 1})), "irfftn");  // repeated axis
  EXPECT_IVY_ERROR((fft::irfftn(c, std::nullopt, std::nullopt, "half")), "irfftn");
  EXPECT_IVY_ERROR(fft::hfft(c, 0), "hfft");
  EXPECT_IVY_ERROR(fft::hfft(c, std::nullopt, 2), "hfft");
  EXPECT_IVY_ERROR_AS(fft::ihfft(c), "ihfft", ivy::TypeError);
  EXPECT_IVY_ERROR(fft::ihfft(r, std::nullopt, -3), "ihfft");
  EXPECT_IVY_ERROR(fft::fftfreq(0), "fftfreq");
  EXPECT_IVY_ERROR(fft::fftfreq(4, 1.0, ivy::int32), "fftfreq");               // not floating
  EXPECT_IVY_ERROR(fft::rfftfreq(-1), "rfftfreq");
  EXPECT_IVY_ERROR(fft::rfftfreq(4, 1.0, ivy::int64), "rfftfreq");
  EXPECT_IVY_ERROR(fft::fftshift(r, 2), "fftshift");
  EXPECT_IVY_ERROR(fft::fftshift(r, -3), "fftshift");
  EXPECT_IVY_ERROR(fft::ifftshift(r, -3), "ifftshift");
  EXPECT_IVY_ERROR((fft::ifftshift(r, {0, 5})), "ifftshift");
  // The primitives called directly: their shape inference checks the axes, the lengths and
  // the norm code, for every backend's kernel (the kernels rely on it).
  for (ivy::OpId op : {ivy::OpId::fft_c2c, ivy::OpId::fft_r2c, ivy::OpId::fft_c2r}) {
    const Array& x = op == ivy::OpId::fft_r2c ? r : c;
    const std::string name = ivy::op_info(op).name;
    ivy::attr::fft v;
    v.axes = ivy::Dims{1};
    v.lengths = ivy::Dims{};
    EXPECT_IVY_ERROR(ivy::dispatch(op, x, v), name);  // lengths and axes differ in number
    v.lengths = ivy::Dims{0};
    EXPECT_IVY_ERROR(ivy::dispatch(op, x, v), name);  // a zero length
    v.axes = ivy::Dims{2};
    v.lengths = ivy::Dims{4};
    EXPECT_IVY_ERROR(ivy::dispatch(op, x, v), name);  // axis out of range
    v.axes = ivy::Dims{1, 1};
    v.lengths = ivy::Dims{4, 4};
    EXPECT_IVY_ERROR(ivy::dispatch(op, x, v), name);  // repeated axis
    v.axes = ivy::Dims{1};
    v.lengths = ivy::Dims{4};
    v.norm = 3;
    EXPECT_IVY_ERROR(ivy::dispatch(op, x, v), name);  // norm code
  }
}

// ------------------------------------------------------------------ undefined arrays
// A default-constructed Array is a bad input to every function. For the functions that
// accept every dtype and shape (logical_not, the set functions, can_cast, array_equal)
// it is the only one. Kept in one test: a function that dereferences it crashes, and
// under ctest that fails this test alone.
// dispatch_into needs a slot per output and a fixed output count; binary shapes that do
// not broadcast name both shapes.
TEST_P(Errors, DispatchIntoAndBroadcast) {
  Array x = f64({3, 1, 3, 2});
  Array two[2], four[4];
  EXPECT_IVY_ERROR_WITH(ivy::dispatch_into(ivy::OpId::unique, std::span<const Array>(&x, 1), ivy::Attrs{}, two), "unique",
                        ivy::Error, "dispatch_into was given 2 output slots; this primitive has 4 outputs");
  EXPECT_IVY_ERROR_WITH(ivy::dispatch_into(ivy::OpId::nonzero, std::span<const Array>(&x, 1), ivy::Attrs{}, four),
                        "nonzero", ivy::Error, "use dispatch_multi");
  Array m = ivy::reshape(ivy::arange(6.0), ivy::Shape{2, 3});
  EXPECT_IVY_ERROR_WITH(ivy::equal(m, ivy::ones({2})), "equal", ivy::ValueError,
                        "shapes (2, 3) and (2,) cannot be broadcast");
}

TEST_P(Errors, UndefinedInputs) {
  Array undefined;
  EXPECT_IVY_ERROR(ivy::asarray(undefined), "asarray");
  EXPECT_IVY_ERROR(ivy::empty_like(undefined), "empty_like");
  EXPECT_IVY_ERROR(ivy::from_dlpack(undefined), "from_dlpack");
  EXPECT_IVY_ERROR(ivy::full_like(undefined, 1.0), "full_like");
  EXPECT_IVY_ERROR(ivy::ones_like(undefined), "ones_like");
  EXPECT_IVY_ERROR(ivy::zeros_like(undefined), "zeros_like");
  EXPECT_IVY_ERROR(ivy::astype(undefined, ivy::float32), "astype");
  EXPECT_IVY_ERROR(ivy::can_cast(undefined, ivy::float32), "can_cast");
  EXPECT_IVY_ERROR(ivy::result_type(undefined, f64({1})), "result_type");
  for (const UnaryFn& u : kNumericUnary) EXPECT_IVY_ERROR(u.f(undefined), u.name);
  EXPECT_IVY_ERROR(ivy::logical_not(undefined), "logical_not");
  EXPECT_IVY_ERROR(ivy::add(undefined, f64({2})), "add");
  EXPECT_IVY_ERROR(ivy::unique_all(undefined), "unique_all");
  EXPECT_IVY_ERROR(ivy::unique_counts(undefined), "unique_counts");
  EXPECT_IVY_ERROR(ivy::unique_inverse(undefined), "unique_inverse");
  EXPECT_IVY_ERROR(ivy::unique_values(undefined), "unique_values");
  EXPECT_IVY_ERROR(ivy::isin(undefined, f64({2})), "isin");
  EXPECT_IVY_ERROR(ivy::isin(f64({2}), undefined), "isin");
  EXPECT_IVY_ERROR(ivy::array_equal(undefined, f64({2})), "array_equal");
  EXPECT_IVY_ERROR(ivy::allclose(undefined, f64({2})), "allclose");
  EXPECT_IVY_ERROR(ivy::sum(undefined), "sum");
  EXPECT_IVY_ERROR(ivy::linalg::det(undefined), "det");
  EXPECT_IVY_ERROR(ivy::fft::fft(undefined), "fft");
}

INSTANTIATE_TEST_SUITE_P(Backends, Errors, testing::ValuesIn(backend_names()),
                         [](const testing::TestParamInfo<std::string>& info) { return info.param; });

}  // namespace

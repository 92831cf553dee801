// The backends must agree with each other on random inputs (all pairs of built backends).
#include <gtest/gtest.h>

#include <functional>

#include "ivy/ivy.hpp"

namespace {

using Fn1 = std::function<ivy::Array(const ivy::Array&)>;
using Fn2 = std::function<ivy::Array(const ivy::Array&, const ivy::Array&)>;

bool two_backends() { return ivy::available_backends().size() >= 2; }

void expect_agree(const ivy::Array& a, const ivy::Array& b, const std::string& what, double tol = 1e-9) {
  ASSERT_EQ(a.dtype(), b.dtype()) << what;
  ASSERT_EQ(a.shape(), b.shape()) << what;
  EXPECT_TRUE(ivy::allclose(a, ivy::to_backend(b, a.backend()), tol, tol)) << what << "\n" << a << "\n" << b;
}

ivy::Array rnd(const ivy::Shape& s, double lo, double hi, ivy::DType d = ivy::float64) {
  return ivy::random_uniform(lo, hi, s, d, {}, "xtensor");
}

TEST(Agreement, UnaryElementwise) {
  if (!two_backends()) GTEST_SKIP();
  ivy::seed(11);
  auto x = rnd({4, 5}, -0.9, 0.9);
  auto pos = rnd({4, 5}, 1.1, 5.0);
  std::vector<std::pair<std::string, Fn1>> fns = {
      {"abs", [](auto& v) { return ivy::abs(v); }},       {"acos", [](auto& v) { return ivy::acos(v); }},
      {"asin", [](auto& v) { return ivy::asin(v); }},     {"atan", [](auto& v) { return ivy::atan(v); }},
      {"atanh", [](auto& v) { return ivy::atanh(v); }},   {"asinh", [](auto& v) { return ivy::asinh(v); }},
      {"ceil", [](auto& v) { return ivy::ceil(v); }},     {"cos", [](auto& v) { return ivy::cos(v); }},
      {"cosh", [](auto& v) { return ivy::cosh(v); }},     {"exp", [](auto& v) { return ivy::exp(v); }},
      {"expm1", [](auto& v) { return ivy::expm1(v); }},   {"floor", [](auto& v) { return ivy::floor(v); }},
      {"log1p", [](auto& v) { return ivy::log1p(v); }},   {"negative", [](auto& v) { return ivy::negative(v); }},
      {"round", [](auto& v) { return ivy::round(v); }},   {"sign", [](auto& v) { return ivy::sign(v); }},
      {"signbit", [](auto& v) { return ivy::signbit(v); }}, {"sin", [](auto& v) { return ivy::sin(v); }},
      {"sinh", [](auto& v) { return ivy::sinh(v); }},     {"square", [](auto& v) { return ivy::square(v); }},
      {"tan", [](auto& v) { return ivy::tan(v); }},       {"tanh", [](auto& v) { return ivy::tanh(v); }},
      {"trunc", [](auto& v) { return ivy::trunc(v); }},   {"isfinite", [](auto& v) { return ivy::isfinite(v); }},
      {"reciprocal", [](auto& v) { return ivy::reciprocal(v); }},
  };
  std::vector<std::pair<std::string, Fn1>> pos_fns = {
      {"log", [](auto& v) { return ivy::log(v); }},   {"log2", [](auto& v) { return ivy::log2(v); }},
      {"log10", [](auto& v) { return ivy::log10(v); }}, {"sqrt", [](auto& v) { return ivy::sqrt(v); }},
      {"acosh", [](auto& v) { return ivy::acosh(v); }},
  };
  for (auto& [name, f] : fns) expect_agree(f(x), f(ivy::to_backend(x, "torch")), name);
  for (auto& [name, f] : pos_fns) expect_agree(f(pos), f(ivy::to_backend(pos, "torch")), name);
  // float32 and complex too
  auto x32 = ivy::astype(x, ivy::float32);
  auto c = ivy::add(ivy::astype(x, ivy::complex128), ivy::multiply(ivy::astype(pos, ivy::complex128), ivy::Scalar(std::complex<double>(0, 1))));
  for (auto& [name, f] : std::vector<std::pair<std::string, Fn1>>{{"exp", [](auto& v) { return ivy::exp(v); }},
                                                                  {"sqrt", [](auto& v) { return ivy::sqrt(v); }},
                                                                  {"log", [](auto& v) { return ivy::log(v); }},
                                                                  {"abs", [](auto& v) { return ivy::abs(v); }},
                                                                  {"sign", [](auto& v) { return ivy::sign(v); }},
                                                                  {"tanh", [](auto& v) { return ivy::tanh(v); }}}) {
    expect_agree(f(c), f(ivy::to_backend(c, "torch")), name + " complex128");
    expect_agree(f(x32), f(ivy::to_backend(x32, "torch")), name + " float32", 1e-5);
  }
}

TEST(Agreement, BinaryBroadcasting) {
  if (!two_backends()) GTEST_SKIP();
  ivy::seed(12);
  auto a = rnd({3, 1, 4}, -3, 3), b = rnd({5, 1}, 0.5, 3);
  std::vector<std::pair<std::string, Fn2>> fns = {
      {"add", [](auto& u, auto& v) { return ivy::add(u, v); }},
      {"subtract", [](auto& u, auto& v) { return ivy::subtract(u, v); }},
      {"multiply", [](auto& u, auto& v) { return ivy::multiply(u, v); }},
      {"divide", [](auto& u, auto& v) { return ivy::divide(u, v); }},
      {"pow", [](auto& u, auto& v) { return ivy::pow(ivy::abs(u), v); }},
      {"atan2", [](auto& u, auto& v) { return ivy::atan2(u, v); }},
      {"hypot", [](auto& u, auto& v) { return ivy::hypot(u, v); }},
      {"logaddexp", [](auto& u, auto& v) { return ivy::logaddexp(u, v); }},
      {"maximum", [](auto& u, auto& v) { return ivy::maximum(u, v); }},
      {"minimum", [](auto& u, auto& v) { return ivy::minimum(u, v); }},
      {"remainder", [](auto& u, auto& v) { return ivy::remainder(u, v); }},
      {"floor_divide", [](auto& u, auto& v) { return ivy::floor_divide(u, v); }},
      {"copysign", [](auto& u, auto& v) { return ivy::copysign(u, v); }},
      {"less", [](auto& u, auto& v) { return ivy::less(u, v); }},
      {"greater_equal", [](auto& u, auto& v) { return ivy::greater_equal(u, v); }},
      {"logical_xor", [](auto& u, auto& v) { return ivy::logical_xor(ivy::greater(u, v), ivy::less(u, v)); }},
  };
  auto at = ivy::to_backend(a, "torch"), bt = ivy::to_backend(b, "torch");
  for (auto& [name, f] : fns) expect_agree(f(a, b), f(at, bt), name);
  // integers, with wrap-around and Python-style division
  auto i = ivy::randint(-50, 50, {6, 7}, ivy::int32, {}, "xtensor");
  auto j = ivy::randint(1, 9, {7}, ivy::int32, {}, "xtensor");
  auto it = ivy::to_backend(i, "torch"), jt = ivy::to_backend(j, "torch");
  expect_agree(ivy::floor_divide(i, j), ivy::floor_divide(it, jt), "int floor_divide");
  expect_agree(ivy::remainder(i, j), ivy::remainder(it, jt), "int remainder");
  expect_agree(ivy::bitwise_xor(i, j), ivy::bitwise_xor(it, jt), "int xor");
  expect_agree(ivy::bitwise_left_shift(i, j), ivy::bitwise_left_shift(it, jt), "int shift");
  auto u8 = ivy::astype(ivy::abs(i), ivy::uint8);
  expect_agree(ivy::multiply(u8, u8), ivy::multiply(ivy::to_backend(u8, "torch"), ivy::to_backend(u8, "torch")), "uint8 wrap");
}

TEST(Agreement, ReductionsAndManipulation) {
  if (!two_backends()) GTEST_SKIP();
  ivy::seed(13);
  auto x = rnd({3, 4, 5}, -2, 2);
  auto t = ivy::to_backend(x, "torch");
  std::vector<std::pair<std::string, Fn1>> fns = {
      {"sum", [](auto& v) { return ivy::sum(v, {0, 2}); }},
      {"prod", [](auto& v) { return ivy::prod(v, 1, std::nullopt, true); }},
      {"mean", [](auto& v) { return ivy::mean(v, -1); }},
      {"max", [](auto& v) { return ivy::max(v, {1, 2}); }},
      {"min", [](auto& v) { return ivy::min(v); }},
      {"var", [](auto& v) { return ivy::var(v, 0, 1.0); }},
      {"std", [](auto& v) { return ivy::std(v, {0, 1}, 0.5, true); }},
      {"argmax", [](auto& v) { return ivy::argmax(v, 1); }},
      {"argmin", [](auto& v) { return ivy::argmin(v); }},
      {"cumsum", [](auto& v) { return ivy::cumulative_sum(v, 2, std::nullopt, true); }},
      {"cumprod", [](auto& v) { return ivy::cumulative_prod(v, 0); }},
      {"sort", [](auto& v) { return ivy::sort(v, 1, true); }},
      {"argsort", [](auto& v) { return ivy::argsort(v, 0); }},
      {"flip", [](auto& v) { return ivy::flip(v, {0, 2}); }},
      {"roll", [](auto& v) { return ivy::roll(v, ivy::Dims{2, -1}, {0, 2}); }},
      {"tile", [](auto& v) { return ivy::tile(v, {2, 1, 1, 2}); }},
      {"repeat", [](auto& v) { return ivy::repeat(v, 2, 1); }},
      {"moveaxis", [](auto& v) { return ivy::moveaxis(v, {0}, {-1}); }},
      {"slice", [](auto& v) { return v.index({ivy::Slice(ivy::None, ivy::None, -2), ivy::Ellipsis, ivy::Slice(1, 4)}); }},
      {"mask", [](auto& v) { return v[ivy::greater(v, ivy::Scalar(0.5))]; }},
      {"take", [](auto& v) { return ivy::take(v, ivy::asarray({3, 0, 3}, std::nullopt, {}, v.backend()), 1); }},
      {"matmul", [](auto& v) { return ivy::matmul(v, ivy::matrix_transpose(v)); }},
      {"tensordot", [](auto& v) { return ivy::tensordot(v, v, ivy::TensordotAxes(ivy::Dims{1, 2}, ivy::Dims{1, 2})); }},
      {"where", [](auto& v) { return ivy::where(ivy::less(v, ivy::Scalar(0.0)), v, ivy::Scalar(7.0)); }},
      {"diff", [](auto& v) { return ivy::diff(v, 1, 2); }},
      {"unique", [](auto& v) { return ivy::unique_values(ivy::round(v)); }},
      {"searchsorted", [](auto& v) {
         auto s = ivy::sort(ivy::reshape(v, {-1}));
         return ivy::searchsorted(s, v, "right");
       }},
  };
  for (auto& [name, f] : fns) expect_agree(f(x), f(t), name);
}

TEST(Agreement, LinalgAndFft) {
  if (!two_backends()) GTEST_SKIP();
  ivy::seed(14);
  auto a = rnd({2, 4, 4}, -1, 1);
  a = ivy::add(a, ivy::multiply(ivy::eye(4, std::nullopt, 0, ivy::float64, {}, "xtensor"), ivy::Scalar(4.0)));
  auto spd = ivy::add(ivy::matmul(a, ivy::matrix_transpose(a)), ivy::eye(4, std::nullopt, 0, ivy::float64, {}, "xtensor"));
  auto b = rnd({2, 4, 3}, -1, 1);
  auto t = [](const ivy::Array& v) { return ivy::to_backend(v, "torch"); };
  expect_agree(ivy::linalg::det(a), ivy::linalg::det(t(a)), "det");
  expect_agree(ivy::linalg::inv(a), ivy::linalg::inv(t(a)), "inv", 1e-8);
  expect_agree(ivy::linalg::solve(a, b), ivy::linalg::solve(t(a), t(b)), "solve", 1e-8);
  expect_agree(ivy::linalg::cholesky(spd), ivy::linalg::cholesky(t(spd)), "cholesky", 1e-8);
  expect_agree(ivy::linalg::eigvalsh(spd), ivy::linalg::eigvalsh(t(spd)), "eigvalsh", 1e-8);
  expect_agree(ivy::linalg::svdvals(b), ivy::linalg::svdvals(t(b)), "svdvals", 1e-8);
  expect_agree(ivy::linalg::slogdet(a).logabsdet, ivy::linalg::slogdet(t(a)).logabsdet, "slogdet", 1e-8);
  expect_agree(ivy::linalg::matrix_norm(b, false, 2.0), ivy::linalg::matrix_norm(t(b), false, 2.0), "matrix_norm 2", 1e-8);
  expect_agree(ivy::linalg::pinv(b), ivy::linalg::pinv(t(b)), "pinv", 1e-8);
  expect_agree(ivy::linalg::vector_norm(b, {1, 2}, true, 3.0), ivy::linalg::vector_norm(t(b), {1, 2}, true, 3.0), "vector_norm");
  auto s = rnd({3, 8}, -1, 1);
  expect_agree(ivy::fft::fft(s), ivy::fft::fft(t(s)), "fft", 1e-10);
  expect_agree(ivy::fft::ifft(s, 5, 0, "ortho"), ivy::fft::ifft(t(s), 5, 0, "ortho"), "ifft", 1e-10);
  expect_agree(ivy::fft::rfftn(s), ivy::fft::rfftn(t(s)), "rfftn", 1e-10);
  auto r = ivy::fft::rfft(s);
  expect_agree(ivy::fft::irfft(r, 8), ivy::fft::irfft(t(r), 8), "irfft", 1e-10);
  expect_agree(ivy::fft::hfft(r), ivy::fft::hfft(t(r)), "hfft", 1e-10);
  expect_agree(ivy::fft::fftshift(s), ivy::fft::fftshift(t(s)), "fftshift");
}

}  // namespace

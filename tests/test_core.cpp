// Core types, backend choice, indexing, operators and tracing.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <thread>

#include "ivy/ivy.hpp"

namespace {

bool xtensor_built() {
  for (ivy::Backend b : ivy::available_backends())
    if (std::string(b.name()) == "xtensor") return true;
  return false;
}

std::vector<std::string> backend_names() {
  std::vector<std::string> v;
  for (auto b : ivy::available_backends()) v.push_back(b.name());
  return v;
}

class Core : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override { scope_ = std::make_unique<ivy::BackendScope>(ivy::Backend(GetParam())); }
  std::unique_ptr<ivy::BackendScope> scope_;
};

template <class T>
std::vector<T> V(const ivy::Array& a) {
  return a.to_vector<T>();
}

// ---------------------------------------------------------------- dtypes (hand-checked table)
TEST(DTypes, PromotionTable) {
  using namespace ivy;
  EXPECT_EQ(result_type(int8, uint8), int16);
  EXPECT_EQ(result_type(int16, uint16), int32);
  EXPECT_EQ(result_type(int32, uint32), int64);
  EXPECT_EQ(result_type(int64, uint8), int64);
  EXPECT_EQ(result_type(uint8, uint16), uint16);
  EXPECT_EQ(result_type(uint32, uint64), uint64);
  EXPECT_EQ(result_type(int8, int64), int64);
  EXPECT_EQ(result_type(float32, float64), float64);
  EXPECT_EQ(result_type(float32, complex64), complex64);
  EXPECT_EQ(result_type(float64, complex64), complex128);
  EXPECT_EQ(result_type(complex64, complex128), complex128);
  EXPECT_EQ(result_type(bool_, bool_), bool_);
  // ivy's documented cross-kind choices
  EXPECT_EQ(result_type(int64, float32), float32);
  EXPECT_EQ(result_type(uint64, int64), float64);
  EXPECT_EQ(result_type(float16, bfloat16), float32);
  EXPECT_EQ(result_type(int32, complex64), complex64);
  EXPECT_TRUE(can_cast(int8, int16));
  EXPECT_FALSE(can_cast(int16, int8));
  EXPECT_TRUE(can_cast(float32, float64));
  EXPECT_FALSE(can_cast(float64, float32));
  EXPECT_FALSE(can_cast(complex64, float64));
  EXPECT_TRUE(isdtype(int8, "signed integer"));
  EXPECT_TRUE(isdtype(uint8, {"bool", "integral"}));
  EXPECT_FALSE(isdtype(float32, "integral"));
  EXPECT_THROW(isdtype(float32, "floaty"), ivy::ValueError);
  EXPECT_EQ(finfo(float32).eps, std::pow(2.0, -23));
  EXPECT_EQ(finfo(float64).eps, std::pow(2.0, -52));
  EXPECT_EQ(finfo(complex64).dtype, float32);
  EXPECT_EQ(iinfo(int8).min, -128);
  EXPECT_EQ(iinfo(uint16).max, 65535u);
  EXPECT_THROW(iinfo(float32), ivy::TypeError);
}

TEST(Shapes, Broadcasting) {
  EXPECT_EQ(ivy::broadcast_shapes(ivy::Shape{3, 1}, ivy::Shape{1, 4}), (ivy::Shape{3, 4}));
  EXPECT_EQ(ivy::broadcast_shapes(ivy::Shape{}, ivy::Shape{2}), (ivy::Shape{2}));
  EXPECT_EQ(ivy::broadcast_shapes(ivy::Shape{0, 1}, ivy::Shape{1, 5}), (ivy::Shape{0, 5}));
  try {
    ivy::broadcast_shapes(ivy::Shape{2, 3}, ivy::Shape{4});
    FAIL();
  } catch (const ivy::ValueError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("[broadcast_shapes]", 0), 0u) << e.what();
    EXPECT_NE(std::string(e.what()).find("(2, 3)"), std::string::npos);
  }
}

// ---------------------------------------------------------------- backend choice
TEST(Backends, ResolutionOrder) {
  auto names = backend_names();
  if (names.size() < 2) GTEST_SKIP() << "needs two backends";
  ivy::Backend xt("xtensor"), th("torch");
  EXPECT_EQ(ivy::default_backend(), xt);
  EXPECT_EQ(ivy::zeros({2}).backend(), xt);  // default
  ivy::set_backend(th);
  EXPECT_EQ(ivy::zeros({2}).backend(), th);  // global
  {
    ivy::BackendScope s(xt);
    EXPECT_EQ(ivy::zeros({2}).backend(), xt);  // scope beats global
    {
      ivy::BackendScope s2(th);
      EXPECT_EQ(ivy::zeros({2}).backend(), th);  // innermost wins
    }
    EXPECT_EQ(ivy::zeros({2}).backend(), xt);
    EXPECT_EQ(ivy::zeros({2}, {}, {}, th).backend(), th);  // explicit beats scope
  }
  ivy::unset_backend();
  EXPECT_EQ(ivy::zeros({2}).backend(), xt);
  // inputs beat scope
  auto a = ivy::ones({2}, {}, {}, th);
  {
    ivy::BackendScope s(xt);
    EXPECT_EQ(ivy::sin(a).backend(), th);
  }
  // explicit per call moves the input
  auto c = ivy::clip(ivy::asarray({-1.0f, 0.5f, 2.0f}), 0.0, 1.0, th);
  EXPECT_EQ(c.backend(), th);
  EXPECT_EQ(V<float>(c), (std::vector<float>{0.0f, 0.5f, 1.0f}));
  // mixing backends is an error naming both
  auto b = ivy::ones({2}, {}, {}, xt);
  try {
    (void)ivy::add(a, b);
    FAIL();
  } catch (const ivy::Error& e) {
    std::string m = e.what();
    EXPECT_EQ(m.rfind("[add]", 0), 0u) << m;
    EXPECT_NE(m.find("torch"), std::string::npos);
    EXPECT_NE(m.find("xtensor"), std::string::npos);
  }
  EXPECT_THROW(ivy::Backend("nope"), ivy::ValueError);
}

TEST(Backends, ThreadLocalChoice) {
  auto names = backend_names();
  if (names.size() < 2) GTEST_SKIP();
  ivy::set_backend("torch");
  std::string other;
  std::thread t([&] { other = ivy::zeros({1}).backend().name(); });
  t.join();
  EXPECT_EQ(other, "xtensor");
  EXPECT_EQ(std::string(ivy::zeros({1}).backend().name()), "torch");
  ivy::unset_backend();
}

TEST(Backends, ToBackendZeroCopyAndValues) {
  auto names = backend_names();
  if (names.size() < 2) GTEST_SKIP();
  auto x = ivy::asarray({1.0, 2.0, 3.0, 4.0, 5.0, 6.0}, std::nullopt, {}, "xtensor");
  x = ivy::reshape(x, {2, 3});
  auto y = ivy::to_backend(x, "torch");
  EXPECT_EQ(std::string(y.backend().name()), "torch");
  EXPECT_EQ(y.shape(), (ivy::Shape{2, 3}));
  EXPECT_EQ(V<double>(y), V<double>(x));
  EXPECT_EQ(ivy::to_backend(x, "torch").backend(), y.backend());
  // zero-copy: the data pointers agree
  EXPECT_EQ(x.backend().impl()->data_ptr(x), y.backend().impl()->data_ptr(y));
  // non-contiguous torch view -> xtensor copies with the right values
  auto t = ivy::permute_dims(y, {1, 0});
  auto back = ivy::to_backend(t, "xtensor");
  EXPECT_EQ(V<double>(back), (std::vector<double>{1, 4, 2, 5, 3, 6}));
  // uint16 round trip through torch's widened storage
  auto u = ivy::asarray(std::vector<std::uint16_t>{0, 1, 65535}, std::nullopt, std::nullopt, {}, "xtensor");
  auto ut = ivy::to_backend(u, "torch");
  EXPECT_EQ(ut.dtype(), ivy::uint16);
  EXPECT_EQ(V<std::uint16_t>(ivy::add(ut, ivy::Scalar(1))), (std::vector<std::uint16_t>{1, 2, 0}));
}

// Identity maps on xtensor (real, conj, positive of real numbers; ceil, floor, trunc, round
// of integers; a roll by whole turns) return a new handle on the input's buffer instead of a
// copy; arrays are never written in place, so an in-place operator on the result rebinds it
// and leaves x alone.
TEST(Backends, XtensorIdentityMapsShareTheBuffer) {
  auto names = backend_names();
  if (std::find(names.begin(), names.end(), "xtensor") == names.end()) GTEST_SKIP();
  const ivy::BackendImpl* xb = ivy::get_backend("xtensor").impl();
  auto x = ivy::reshape(ivy::asarray({1.5f, -2.0f, 3.25f, 0.0f, -0.5f, 7.0f}, std::nullopt, {}, "xtensor"), {2, 3});
  for (auto* fn : {+[](const ivy::Array& a) { return ivy::real(a); }, +[](const ivy::Array& a) { return ivy::conj(a); },
                   +[](const ivy::Array& a) { return ivy::positive(a); }}) {
    auto y = fn(x);
    EXPECT_EQ(y.shape(), (ivy::Shape{2, 3}));
    EXPECT_EQ(y.dtype(), ivy::float32);
    EXPECT_EQ(xb->data_ptr(y), xb->data_ptr(x));
    EXPECT_EQ(V<float>(y), (std::vector<float>{1.5f, -2.0f, 3.25f, 0.0f, -0.5f, 7.0f}));
    y += 1.0f;
    EXPECT_EQ(V<float>(y), (std::vector<float>{2.5f, -1.0f, 4.25f, 1.0f, 0.5f, 8.0f}));
    EXPECT_EQ(V<float>(x), (std::vector<float>{1.5f, -2.0f, 3.25f, 0.0f, -0.5f, 7.0f}));
  }
  auto i = ivy::asarray(std::vector<std::int32_t>{-3, 0, 5}, std::nullopt, std::nullopt, {}, "xtensor");
  for (auto* fn : {+[](const ivy::Array& a) { return ivy::ceil(a); },
                   +[](const ivy::Array& a) { return ivy::floor(a); },
                   +[](const ivy::Array& a) { return ivy::trunc(a); },
                   +[](const ivy::Array& a) { return ivy::round(a); }}) {
    auto y = fn(i);
    EXPECT_EQ(y.dtype(), ivy::int32);
    EXPECT_EQ(xb->data_ptr(y), xb->data_ptr(i));
    EXPECT_EQ(V<std::int32_t>(y), (std::vector<std::int32_t>{-3, 0, 5}));
  }
  // a roll that moves nothing (shift a multiple of the length) shares the buffer too
  auto r0 = ivy::roll(x, 12);
  EXPECT_EQ(xb->data_ptr(r0), xb->data_ptr(x));
  EXPECT_EQ(r0.shape(), (ivy::Shape{2, 3}));
  auto r1 = ivy::roll(x, 1);
  EXPECT_NE(xb->data_ptr(r1), xb->data_ptr(x));
  EXPECT_EQ(V<float>(r1), (std::vector<float>{7.0f, 1.5f, -2.0f, 3.25f, 0.0f, -0.5f}));
  // complex input: a new buffer with the real part / the conjugate
  auto z = ivy::astype(ivy::asarray({1.0f, 2.0f}, std::nullopt, {}, "xtensor"), ivy::complex64);
  EXPECT_NE(xb->data_ptr(ivy::conj(z)), xb->data_ptr(z));
  EXPECT_NE(xb->data_ptr(ivy::real(z)), xb->data_ptr(z));
}

// ---------------------------------------------------------------- per-backend behaviour
// The product of two complex vectors, every complex dtype (LibTorch's dot of complex
// vectors returned 0 with Debian's build).
TEST_P(Core, MatmulOfComplexVectors) {
  for (ivy::DType d : {ivy::complex64, ivy::complex128}) {
    auto x = ivy::asarray(std::vector<std::complex<double>>{{1, 1}, {2, 2}, {3, 3}}, std::nullopt, d);
    auto y = ivy::asarray(std::vector<std::complex<double>>{{1, 2}, {0, -1}, {2, 0}}, std::nullopt, d);
    // (1+i)(1+2i) + (2+2i)(-i) + (3+3i)(2) = (-1+3i) + (2-2i) + (6+6i) = 7+7i
    auto r = ivy::astype(ivy::matmul(x, y), ivy::complex128).item<std::complex<double>>();
    EXPECT_EQ(r, std::complex<double>(7, 7)) << ivy::dtype_name(d);
    EXPECT_EQ(ivy::matmul(x, y).dtype(), d);
  }
}

TEST_P(Core, ScalarPromotion) {
  auto x = ivy::asarray({1.0f, 2.0f});
  EXPECT_EQ((x + 2.0).dtype(), ivy::float32);
  auto i = ivy::asarray({1, 2});
  EXPECT_EQ(i.dtype(), ivy::int32);
  EXPECT_EQ((i + 2).dtype(), ivy::int32);
  EXPECT_EQ((i + 2.5).dtype(), ivy::default_float_dtype());
  EXPECT_EQ(V<float>(i + 2.5), (std::vector<float>{3.5f, 4.5f}));
  EXPECT_EQ((x == 2.0).dtype(), ivy::bool_);
  EXPECT_EQ(V<bool>(x == 2.0), (std::vector<bool>{false, true}));
}

TEST_P(Core, ItemPrintAndOperators) {
  auto x = ivy::asarray({{1.0, 2.0}, {3.0, 4.0}});
  EXPECT_EQ(x.shape(), (ivy::Shape{2, 2}));
  EXPECT_EQ(x.ndim(), 2);
  EXPECT_EQ(x.size(), 4);
  EXPECT_EQ(ivy::sum(x).item<double>(), 10.0);
  EXPECT_THROW(x.item<double>(), ivy::ValueError);
  std::ostringstream os;
  os << x;
  EXPECT_NE(os.str().find("[[1., 2.],"), std::string::npos) << os.str();
  EXPECT_NE(os.str().find("float64"), std::string::npos);
  EXPECT_EQ(V<double>(-x), (std::vector<double>{-1, -2, -3, -4}));
  EXPECT_EQ(V<double>(x * x - x), (std::vector<double>{0, 2, 6, 12}));
  EXPECT_EQ(V<double>(ivy::matmul(x, x)), (std::vector<double>{7, 10, 15, 22}));
  EXPECT_EQ(V<double>(x.T()), (std::vector<double>{1, 3, 2, 4}));
  auto i = ivy::asarray({6, -7});
  EXPECT_EQ(V<int>(i % 4), (std::vector<int>{2, 1}));  // Python-style remainder
  EXPECT_EQ(V<int>(ivy::floor_divide(i, ivy::Scalar(4))), (std::vector<int>{1, -2}));
  EXPECT_EQ(V<int>(i << 1), (std::vector<int>{12, -14}));
  EXPECT_EQ(V<int>(~i), (std::vector<int>{-7, 6}));
  auto y = x;
  y += 1.0;
  EXPECT_EQ(V<double>(y), (std::vector<double>{2, 3, 4, 5}));
  EXPECT_EQ(V<double>(x), (std::vector<double>{1, 2, 3, 4}));  // handles are values
  auto k = ivy::asarray({1, 2});
  k *= 3;
  EXPECT_EQ(k.dtype(), ivy::int32);
  EXPECT_EQ(V<int>(k), (std::vector<int>{3, 6}));
}

TEST_P(Core, BasicIndexing) {
  auto x = ivy::reshape(ivy::arange(24, std::nullopt, 1, ivy::int64), {2, 3, 4});
  EXPECT_EQ(V<std::int64_t>(x[1].index({0})), (std::vector<std::int64_t>{12, 13, 14, 15}));
  auto s = x.index({ivy::Slice(), 1, ivy::Slice(1, ivy::None, 2)});
  EXPECT_EQ(s.shape(), (ivy::Shape{2, 2}));
  EXPECT_EQ(V<std::int64_t>(s), (std::vector<std::int64_t>{5, 7, 17, 19}));
  auto r = x.index({ivy::Ellipsis, ivy::Slice(ivy::None, ivy::None, -1)});
  EXPECT_EQ(V<std::int64_t>(r[0][0]), (std::vector<std::int64_t>{3, 2, 1, 0}));
  auto n = x.index({ivy::newaxis, 0, ivy::Ellipsis, ivy::None});
  EXPECT_EQ(n.shape(), (ivy::Shape{1, 3, 4, 1}));
  auto neg = x.index({-1, -1, -1});
  EXPECT_EQ(neg.ndim(), 0);
  EXPECT_EQ(neg.item<std::int64_t>(), 23);
  auto e = x.index({ivy::Slice(5, 10)});
  EXPECT_EQ(e.shape(), (ivy::Shape{0, 3, 4}));
  auto back = x.index({0, ivy::Slice(2, 0, -1), 0});
  EXPECT_EQ(V<std::int64_t>(back), (std::vector<std::int64_t>{8, 4}));
  EXPECT_THROW(x.index({2}), ivy::IndexError);
  EXPECT_THROW(x.index({0, 0, 0, 0}), ivy::IndexError);
  EXPECT_THROW(x.index({ivy::Ellipsis, ivy::Ellipsis}), ivy::IndexError);
}

TEST_P(Core, AdvancedIndexing) {
  auto x = ivy::reshape(ivy::arange(12, std::nullopt, 1, ivy::int64), {3, 4});
  auto mask = x > ivy::Scalar(8);
  EXPECT_EQ(V<std::int64_t>(x[mask]), (std::vector<std::int64_t>{9, 10, 11}));
  auto rows = ivy::asarray({2, 0});
  auto g = x[rows];
  EXPECT_EQ(g.shape(), (ivy::Shape{2, 4}));
  EXPECT_EQ(V<std::int64_t>(g), (std::vector<std::int64_t>{8, 9, 10, 11, 0, 1, 2, 3}));
  auto cols = ivy::asarray({1, 3});
  auto p = x.index({rows, cols});
  EXPECT_EQ(V<std::int64_t>(p), (std::vector<std::int64_t>{9, 3}));
  auto c = x.index({ivy::Slice(), cols});
  EXPECT_EQ(c.shape(), (ivy::Shape{3, 2}));
  EXPECT_EQ(V<std::int64_t>(c), (std::vector<std::int64_t>{1, 3, 5, 7, 9, 11}));
  auto m1 = x.index({1, ivy::asarray({-1, 0})});
  EXPECT_EQ(V<std::int64_t>(m1), (std::vector<std::int64_t>{7, 4}));
  EXPECT_THROW(x.index({ivy::asarray({3})}), ivy::IndexError);
  // mixed with integers and new axes (expected shapes and values from NumPy 1.24)
  auto y = ivy::reshape(ivy::arange(24, std::nullopt, 1, ivy::int64), {2, 3, 4});
  auto i01 = ivy::asarray({0, 1});
  EXPECT_EQ(y.index({i01, ivy::None}).shape(), (ivy::Shape{2, 1, 3, 4}));
  EXPECT_EQ(y.index({ivy::None, ivy::asarray({1, 0})}).shape(), (ivy::Shape{1, 2, 3, 4}));
  auto nonadj = y.index({0, ivy::Slice(), i01});  // integer + array apart: broadcast dims first
  EXPECT_EQ(nonadj.shape(), (ivy::Shape{2, 3}));
  EXPECT_EQ(V<std::int64_t>(nonadj), (std::vector<std::int64_t>{0, 4, 8, 1, 5, 9}));
  EXPECT_EQ(y.index({ivy::Slice(), ivy::None, ivy::asarray({1, 2})}).shape(), (ivy::Shape{2, 1, 2, 4}));
  EXPECT_EQ(V<std::int64_t>(y.index({1, ivy::asarray({2, 0}), 3})), (std::vector<std::int64_t>{23, 15}));
  EXPECT_EQ(y.index({ivy::Slice(), ivy::asarray(std::vector<bool>{true, false, true})}).shape(), (ivy::Shape{2, 2, 4}));
  EXPECT_THROW(y.index({0, 0, 0, i01}), ivy::IndexError);
  // a mask axis of extent 0 selects nothing (the standard's suite); other extents must match
  const std::vector<bool> none;
  EXPECT_EQ(x[ivy::asarray(none)].shape(), (ivy::Shape{0, 4}));
  EXPECT_EQ(x[ivy::reshape(ivy::asarray(none), {0, 0})].shape(), (ivy::Shape{0}));
  EXPECT_EQ(y.index({ivy::Slice(), ivy::asarray(none)}).shape(), (ivy::Shape{2, 0, 4}));
  EXPECT_THROW(x[ivy::asarray(std::vector<bool>{true, false})], ivy::IndexError);
}

TEST_P(Core, IndexedAssignment) {
  auto x = ivy::zeros({3, 4}, ivy::int32);
  x.index_put({1}, ivy::Scalar(5));
  x.index_put({ivy::Slice(), ivy::Slice(ivy::None, ivy::None, 3)}, ivy::asarray({7, 8}, ivy::int32));
  EXPECT_EQ(V<int>(x), (std::vector<int>{7, 0, 0, 8, 7, 5, 5, 8, 7, 0, 0, 8}));
  x.index_put({x == ivy::Scalar(0)}, ivy::Scalar(-1));
  EXPECT_EQ(V<int>(x), (std::vector<int>{7, -1, -1, 8, 7, 5, 5, 8, 7, -1, -1, 8}));
  x.index_put({ivy::asarray({0, 2}), ivy::asarray({1, 2})}, ivy::Scalar(9));
  EXPECT_EQ(V<int>(x), (std::vector<int>{7, 9, -1, 8, 7, 5, 5, 8, 7, -1, 9, 8}));
  x.index_put({2, ivy::Slice(3, 0, -1)}, ivy::asarray({1, 2, 3}, ivy::int32));
  EXPECT_EQ(V<int>(x[2]), (std::vector<int>{7, 3, 2, 1}));
  EXPECT_THROW(x.index_put({0}, ivy::asarray({1, 2}, ivy::int32)), ivy::ValueError);
}

TEST_P(Core, NonContiguousAndEmpty) {
  auto x = ivy::reshape(ivy::arange(6, std::nullopt, 1, ivy::float64), {2, 3});
  auto t = ivy::permute_dims(x, {1, 0});
  EXPECT_EQ(V<double>(ivy::exp(t) - ivy::exp(t)), std::vector<double>(6, 0.0));
  EXPECT_EQ(V<double>(ivy::sum(t, 0)), (std::vector<double>{3, 12}));
  auto e = ivy::zeros({0, 3});
  EXPECT_EQ(ivy::sum(e, 0).shape(), (ivy::Shape{3}));
  EXPECT_EQ(V<float>(ivy::sum(e, 0)), std::vector<float>(3, 0.0f));
  EXPECT_EQ(ivy::sin(e).shape(), (ivy::Shape{0, 3}));
  EXPECT_EQ(ivy::concat({e, e}, 0).shape(), (ivy::Shape{0, 3}));
  EXPECT_TRUE(std::isnan(ivy::mean(ivy::zeros({0})).item<float>()));
  EXPECT_THROW(ivy::max(e, 0), ivy::ValueError);
  auto z = ivy::asarray(ivy::Scalar(3.0));
  EXPECT_EQ(z.ndim(), 0);
  EXPECT_EQ(ivy::sqrt(z).ndim(), 0);
}

TEST_P(Core, Random) {
  ivy::seed(42);
  auto a = ivy::random_uniform(2.0, 3.0, {1000});
  ivy::seed(42);
  auto b = ivy::random_uniform(2.0, 3.0, {1000});
  EXPECT_TRUE(ivy::array_equal(a, b));
  EXPECT_TRUE(ivy::all(ivy::logical_and(a >= 2.0, a < 3.0)).item<bool>());
  double m = ivy::mean(a).item<float>();
  EXPECT_NEAR(m, 2.5, 0.05);
  auto n = ivy::random_normal(1.0, 2.0, {4000}, ivy::float64);
  EXPECT_NEAR(ivy::mean(n).item<double>(), 1.0, 0.15);
  EXPECT_NEAR(ivy::std(n).item<double>(), 2.0, 0.15);
  auto r = ivy::randint(-3, 4, {500});
  EXPECT_EQ(r.dtype(), ivy::int64);
  EXPECT_EQ(ivy::min(r).item<std::int64_t>(), -3);
  EXPECT_EQ(ivy::max(r).item<std::int64_t>(), 3);
}

// Result handles are recycled per thread (torch; on xtensor, results of at most 64 bytes
// together with their data): arrays made on one thread and released on another, threads
// that end with handles cached, many handles alive at once, and results on both sides of
// xtensor's 64-byte line keep their values (run under ASan as well).
TEST_P(Core, ArraysAcrossThreads) {
  ivy::Backend b(GetParam());
  std::vector<ivy::Array> made;
  for (int t = 0; t < 4; ++t) {
    std::thread th([&, t] {
      ivy::BackendScope s(b);
      auto x = ivy::full({3}, static_cast<double>(t), ivy::float32);
      for (int i = 0; i < 200; ++i) x = ivy::add(x, ivy::full({3}, 1.0, ivy::float32));  // churn
      made.push_back(x);
    });
    th.join();
  }
  ASSERT_EQ(made.size(), 4u);
  for (int t = 0; t < 4; ++t) EXPECT_EQ(V<float>(made[t]), std::vector<float>(3, 200.0f + t));
  std::vector<ivy::Array> many;
  for (int i = 0; i < 300; ++i) many.push_back(ivy::full({2}, static_cast<double>(i), ivy::int32));
  std::thread th([moved = std::move(many)]() mutable {
    for (int i = 0; i < 300; ++i) ASSERT_EQ(V<std::int32_t>(moved[i]), std::vector<std::int32_t>(2, i));
    moved.clear();  // released on a thread that made none of them
  });
  th.join();
  made.clear();
  auto y = ivy::add(ivy::ones({2}), ivy::ones({2}));
  EXPECT_EQ(V<float>(y), std::vector<float>(2, 2.0f));
  // 1, 16 (64 bytes) and 17 floats, a 0-d result, and 8 doubles (64 bytes), made in turn so
  // that recycled blocks of one size meet results of the others
  ivy::BackendScope s(b);
  std::vector<ivy::Array> mixed;
  for (int round = 0; round < 3; ++round) {
    mixed.clear();
    for (int i = 0; i < 100; ++i) {
      const std::int64_t n = i % 4 == 0 ? 1 : i % 4 == 1 ? 16 : 17;
      mixed.push_back(ivy::full({n}, static_cast<double>(i + round), ivy::float32));
      mixed.push_back(ivy::sum(mixed.back()));
      mixed.push_back(ivy::full({8}, static_cast<double>(-i), ivy::float64));
    }
    for (int i = 0; i < 100; ++i) {
      const std::int64_t n = i % 4 == 0 ? 1 : i % 4 == 1 ? 16 : 17;
      ASSERT_EQ(V<float>(mixed[3 * i]), std::vector<float>(static_cast<std::size_t>(n), static_cast<float>(i + round)));
      ASSERT_FLOAT_EQ(mixed[3 * i + 1].item<float>(), static_cast<float>(n * (i + round)));
      ASSERT_EQ(V<double>(mixed[3 * i + 2]), std::vector<double>(8, -i));
    }
  }
}

// dispatch_into writes a fixed number of outputs into caller slots; concat takes a braced
// list, a vector or a span alike; the binary metas' equal-shape path and broadcast path agree
// (the errors: Errors.DispatchIntoAndBroadcast).
TEST_P(Core, DispatchIntoConcatOverloadsBinaryShapes) {
  ivy::BackendScope s{ivy::Backend(GetParam())};
  auto x = ivy::asarray({3.0f, 1.0f, 3.0f, 2.0f});
  ivy::Array r[4];
  EXPECT_EQ(ivy::dispatch_into(ivy::OpId::unique, std::span<const ivy::Array>(&x, 1), ivy::Attrs{}, r), 4);
  EXPECT_EQ(V<float>(r[0]), (std::vector<float>{1, 2, 3}));
  EXPECT_EQ(V<std::int64_t>(r[3]), (std::vector<std::int64_t>{1, 1, 2}));
  auto a = ivy::asarray({1.0f, 2.0f}), b = ivy::asarray({3.0f});
  std::vector<ivy::Array> v{a, b};
  EXPECT_EQ(V<float>(ivy::concat({a, b})), (std::vector<float>{1, 2, 3}));
  EXPECT_EQ(V<float>(ivy::concat(v)), (std::vector<float>{1, 2, 3}));
  EXPECT_EQ(V<float>(ivy::concat(std::span<const ivy::Array>(v), 0)), (std::vector<float>{1, 2, 3}));
  // equal shapes and broadcast shapes
  auto m = ivy::reshape(ivy::arange(6.0), ivy::Shape{2, 3});
  EXPECT_EQ(ivy::less(m, m).shape(), (ivy::Shape{2, 3}));
  EXPECT_EQ(V<bool>(ivy::less(m, ivy::asarray({1.0, 1.0, 4.0}))), (std::vector<bool>{true, false, true, false, false, false}));
  EXPECT_EQ(ivy::divide(m, ivy::reshape(ivy::arange(1.0, 3.0), ivy::Shape{2, 1})).shape(), (ivy::Shape{2, 3}));
}

// Regressions found by the Python property tests (python/tests/test_hypothesis.py); values
// by hand.
TEST_P(Core, UnsignedScalarsAndPrinting) {
  for (ivy::DType d : {ivy::uint8, ivy::uint16, ivy::uint32}) {
    auto u = ivy::asarray({7, 200}, d);
    EXPECT_EQ(u.index({1}).item_scalar().i, 200) << d;
    EXPECT_EQ(u.index({1}).item_scalar().d, 200.0) << d;
    std::ostringstream os;
    os << u;
    EXPECT_NE(os.str().find("[  7, 200]"), std::string::npos) << os.str();
    EXPECT_NE(os.str().find(ivy::dtype_name(d)), std::string::npos) << os.str();
  }
  if (ivy::is_unsupported(ivy::current_backend(), "asarray", ivy::uint64)) return;
  std::vector<std::uint64_t> big{(1ull << 63) + 5, 18446744073709551615ull};
  auto x = ivy::asarray(big);
  ivy::Scalar s = x.index({0}).item_scalar();
  EXPECT_EQ(static_cast<std::uint64_t>(s.i), (1ull << 63) + 5);
  EXPECT_EQ(s.d, 9223372036854775808.0);
  EXPECT_EQ(x.index({1}).item<std::uint64_t>(), 18446744073709551615ull);
  std::ostringstream os;
  os << x;
  EXPECT_NE(os.str().find("18446744073709551615"), std::string::npos) << os.str();
}

TEST_P(Core, IntegerAccumulatorDtypes) {
  auto x = ivy::asarray({{1, 2}, {3, 1}}, ivy::int8);
  auto s = ivy::sum(x, 1, ivy::int16);
  EXPECT_EQ(s.dtype(), ivy::int16);
  std::vector<std::int16_t> host(2);
  ivy::copy_to_host(s, host.data());  // raw storage: must really be int16
  EXPECT_EQ(host, (std::vector<std::int16_t>{3, 4}));
  auto p = ivy::prod(x, 1, ivy::int32);
  std::vector<std::int32_t> hp(2);
  ivy::copy_to_host(p, hp.data());
  EXPECT_EQ(hp, (std::vector<std::int32_t>{2, 3}));
  auto c = ivy::cumulative_prod(ivy::asarray({2, 2, 1}, ivy::uint8), std::nullopt, ivy::int16);
  std::vector<std::int16_t> hc(3);
  ivy::copy_to_host(c, hc.data());
  EXPECT_EQ(hc, (std::vector<std::int16_t>{2, 4, 4}));
}

TEST_P(Core, FullReductionsWrapAndRound) {
  // integer accumulators wrap (by hand: 300 * 300 = 90000 = 65536 + 24464; 100 + 100 - 256 = -56)
  EXPECT_EQ(ivy::prod(ivy::asarray({300, 300}, ivy::uint16), {}, ivy::uint16).item<std::uint16_t>(), 24464);
  EXPECT_EQ(ivy::sum(ivy::asarray({100, 100}, ivy::int8), {}, ivy::int8).item<std::int8_t>(), -56);
  // 1 + 2 + ... + 1000 in float32 and float64, and the mean, with keepdims
  std::vector<double> v(1000);
  for (int i = 0; i < 1000; ++i) v[i] = i + 1;
  auto x = ivy::reshape(ivy::asarray(v), ivy::Shape{10, 100});
  EXPECT_EQ(ivy::sum(x).item<double>(), 500500.0);
  EXPECT_EQ(ivy::sum(ivy::astype(x, ivy::float32)).item<float>(), 500500.0f);
  auto m = ivy::mean(x, {}, true);
  EXPECT_EQ(m.shape(), (ivy::Shape{1, 1}));
  EXPECT_DOUBLE_EQ(m.item<double>(), 500.5);
  // 7 elements: the tail goes through the lanes too; product of 1..7 = 5040
  EXPECT_EQ(ivy::prod(ivy::asarray({1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0})).item<double>(), 5040.0);
}

TEST_P(Core, ComplexEdgeValues) {
  using C = std::complex<double>;
  const double inf = std::numeric_limits<double>::infinity();
  auto z = ivy::asarray(std::vector<C>{C(0, 0), C(1, 2)});
  auto w = ivy::asarray(std::vector<C>{C(0, inf), C(inf, 1)});
  auto sum = V<C>(z + w), diff = V<C>(z - w);
  EXPECT_EQ(sum[0], C(0, inf));  // componentwise: no NaN in the other part
  EXPECT_EQ(sum[1], C(inf, 3));
  EXPECT_EQ(diff[0], C(0, -inf));
  EXPECT_EQ(diff[1], C(-inf, 1));
  auto a = V<double>(ivy::abs(ivy::asarray(std::vector<C>{C(0, std::ldexp(1.0, 512)), C(3e300, 4e300)})));
  EXPECT_DOUBLE_EQ(a[0], std::ldexp(1.0, 512));
  EXPECT_DOUBLE_EQ(a[1], 5e300);
  auto sg = V<std::complex<float>>(ivy::sign(ivy::asarray(std::vector<std::complex<float>>{{1e-23f, 0.f}, {0.f, 0.f}})));
  EXPECT_EQ(sg[0], std::complex<float>(1, 0));
  EXPECT_EQ(sg[1], std::complex<float>(0, 0));
}

TEST_P(Core, HalfPrecisionReductions) {
  for (ivy::DType d : {ivy::float16, ivy::bfloat16}) {
    if (ivy::is_unsupported(ivy::current_backend(), "asarray", d)) continue;
    auto x = ivy::asarray({1.0, 2.0, 4.0}, d);
    EXPECT_EQ(ivy::prod(x).dtype(), d);
    EXPECT_EQ(ivy::astype(ivy::prod(x), ivy::float64).item<double>(), 8.0) << d;
    EXPECT_EQ(V<double>(ivy::astype(ivy::cumulative_sum(x), ivy::float64)), (std::vector<double>{1, 3, 7})) << d;
    EXPECT_NEAR(ivy::astype(ivy::std(x), ivy::float64).item<double>(), std::sqrt(14.0 / 9.0), 2e-2) << d;
    EXPECT_EQ(V<bool>(ivy::isin(x, ivy::asarray({2.0}, d))), (std::vector<bool>{false, true, false})) << d;
  }
}

// floor_divide's special values are the standard's where NumPy's differ: an infinity over
// a finite number is an infinity, a finite number over an infinity a zero, each signed as
// the quotient; the other cases follow NumPy.
TEST_P(Core, FloorDivideSpecialValuesFollowTheStandard) {
  const double inf = INFINITY;
  for (auto dt : {ivy::float32, ivy::float64}) {
    auto a = ivy::astype(ivy::asarray({inf, inf, -inf, -inf, 1.0, 1.0, -1.0, -1.0, 7.0, -7.0, inf, 0.0, 5.0}), dt);
    auto b = ivy::astype(ivy::asarray({2.0, -2.0, 2.0, -2.0, inf, -inf, inf, -inf, 2.0, 2.0, inf, 0.0, 0.0}), dt);
    auto r = ivy::astype(ivy::floor_divide(a, b), ivy::float64).to_vector<double>();
    const std::vector<double> want{inf, -inf, -inf, inf, 0.0, -0.0, -0.0, 0.0, 3.0, -4.0, NAN, NAN, inf};
    for (std::size_t i = 0; i < want.size(); ++i) {
      if (std::isnan(want[i])) {
        EXPECT_TRUE(std::isnan(r[i])) << i;
        continue;
      }
      EXPECT_EQ(r[i], want[i]) << i;
      EXPECT_EQ(std::signbit(r[i]), std::signbit(want[i])) << i;
    }
  }
}

// A C++ or Python integer scalar out of the integer array's range is refused on every
// backend with an OverflowError (a ValueError) naming the called function (not an internal
// one such as full), never wrapped around; scalars in range work as usual.
TEST_P(Core, OutOfRangeScalarsRaiseNamingTheFunction) {
  auto i8 = ivy::astype(ivy::asarray({1, 2}), ivy::int8);
  auto message = [](auto&& f) -> std::string {
    try {
      f();
    } catch (const ivy::OverflowError& e) {
      return e.what();
    } catch (const std::exception& e) {
      return std::string("other exception: ") + e.what();
    }
    return "no exception";
  };
  EXPECT_EQ(message([&] { ivy::add(i8, ivy::Scalar(300)); }).rfind("[add] the scalar 300 is out of range for int8 (-128 to 127)", 0), 0u);
  EXPECT_EQ(message([&] { ivy::multiply(ivy::Scalar(-129), i8); }).rfind("[multiply] ", 0), 0u);
  auto i32 = ivy::astype(i8, ivy::int32);
  EXPECT_EQ(message([&] { ivy::add(i32, ivy::Scalar(std::int64_t{1} << 40)); }).rfind("[add] the scalar 1099511627776", 0), 0u);
  auto m = ivy::asarray({true, false});
  EXPECT_EQ(message([&] { ivy::where(m, i8, ivy::Scalar(300)); }).rfind("[where] ", 0), 0u);
  EXPECT_EQ(message([&] { ivy::full({2}, ivy::Scalar(300), ivy::int8); }).rfind("[full] ", 0), 0u);
  EXPECT_EQ(message([&] { ivy::full_like(i8, ivy::Scalar(-1), ivy::uint8); }).rfind("[full_like] ", 0), 0u);
  EXPECT_EQ(message([&] { ivy::subtract(ivy::astype(i8, ivy::uint8), ivy::Scalar(-1)); }).rfind("[subtract] ", 0), 0u);
  // the edges of the range, and non-integer arrays, are fine
  EXPECT_EQ(V<int>(ivy::add(i8, ivy::Scalar(126))), (std::vector<int>{127, -128}));  // int8 arithmetic wraps
  EXPECT_EQ(V<int>(ivy::full({1}, ivy::Scalar(-128), ivy::int8)), (std::vector<int>{-128}));
  EXPECT_EQ(ivy::add(ivy::astype(i8, ivy::float32), ivy::Scalar(300)).dtype(), ivy::float32);
  EXPECT_EQ(V<std::int64_t>(ivy::full({1}, ivy::Scalar(std::numeric_limits<std::int64_t>::max()), ivy::int64)),
            (std::vector<std::int64_t>{std::numeric_limits<std::int64_t>::max()}));
}

// unique_* count every NaN as its own value, on short arrays too (torch's arrays of up to
// 128 elements take another path, which must count each NaN and give indices that rebuild
// the input).
TEST_P(Core, UniqueWithNaNOnShortAndLongArrays) {
  for (std::int64_t n : {3, 7, 128, 129, 1000}) {
    for (auto dt : {ivy::float32, ivy::float64}) {
      // [3, nan, 1, 3, nan, 1, ...] of length n
      std::vector<double> host;
      for (std::int64_t k = 0; k < n; ++k) host.push_back(k % 3 == 0 ? 3.0 : k % 3 == 1 ? NAN : 1.0);
      auto x = ivy::asarray(host.data(), ivy::float64, {n}, dt);
      auto u = ivy::unique_all(x);
      auto vals = V<double>(u.values), counts = V<double>(u.counts), first = V<double>(u.indices);
      const std::int64_t nans = (n + 1) / 3;
      ASSERT_EQ(static_cast<std::int64_t>(vals.size()), 2 + nans) << n;
      EXPECT_EQ(vals[0], 1.0);
      EXPECT_EQ(vals[1], 3.0);
      double total = 0;
      for (double c : counts) total += c;
      EXPECT_EQ(total, static_cast<double>(n)) << n;
      for (std::size_t g = 2; g < vals.size(); ++g) {
        EXPECT_TRUE(std::isnan(vals[g])) << n;
        EXPECT_EQ(counts[g], 1.0) << n;
      }
      EXPECT_EQ(first[0], 2.0);
      EXPECT_EQ(first[1], 0.0);
      EXPECT_EQ(first[2], 1.0);  // the first NaN
      // the inverse indices rebuild the input (NaN where NaN)
      auto rebuilt = V<double>(ivy::take(u.values, u.inverse_indices, 0));
      for (std::int64_t k = 0; k < n; ++k) {
        if (std::isnan(host[k])) EXPECT_TRUE(std::isnan(rebuilt[k])) << k;
        else EXPECT_EQ(rebuilt[k], host[k]) << k;
      }
      EXPECT_EQ(V<double>(ivy::unique_counts(x).counts), counts);
    }
  }
}

// Complex functions give the standard's special values on every backend (LibTorch differs
// at infinities, NaN and signed zeros, so the torch backend recomputes those elements as the
// xtensor backend computes every element).
TEST_P(Core, ComplexSpecialValuesFollowTheStandard) {
  using C = std::complex<double>;
  const double inf = INFINITY, pi = M_PI;
  auto one = [](ivy::Array (*f)(const ivy::Array&), C z) {
    return ivy::astype(f(ivy::asarray(std::vector<C>{z})), ivy::complex128).to_vector<C>()[0];
  };
  auto same = [](C got, C want) {
    return got.real() == want.real() && got.imag() == want.imag() &&
           std::signbit(got.real()) == std::signbit(want.real()) && std::signbit(got.imag()) == std::signbit(want.imag());
  };
  EXPECT_TRUE(same(one(ivy::acos, C(0.0, 0.0)), C(pi / 2, -0.0)));
  EXPECT_TRUE(same(one(ivy::acos, C(inf, 1.0)), C(0.0, -inf)));
  EXPECT_TRUE(same(one(ivy::acos, C(-inf, inf)), C(3 * pi / 4, -inf)));
  EXPECT_TRUE(same(one(ivy::exp, C(inf, 0.0)), C(inf, 0.0)));
  EXPECT_TRUE(same(one(ivy::exp, C(-inf, 2.0)), C(0.0 * std::cos(2.0), 0.0 * std::sin(2.0))));
  EXPECT_TRUE(same(one(ivy::expm1, C(inf, 0.0)), C(inf, 0.0)));
  EXPECT_TRUE(same(one(ivy::log1p, C(-2.0, -0.0)), C(0.0, -pi)));
  EXPECT_TRUE(same(one(ivy::atan, C(0.0, 1.0)), C(0.0, inf)));
  EXPECT_TRUE(same(one(ivy::tanh, C(inf, -2.0)), C(1.0, -0.0)));
  // ordinary arguments are unchanged: exp(1 + 1j)
  C e = one(ivy::exp, C(1.0, 1.0));
  EXPECT_NEAR(e.real(), std::exp(1.0) * std::cos(1.0), 1e-15);
  EXPECT_NEAR(e.imag(), std::exp(1.0) * std::sin(1.0), 1e-15);
}

// Inverse trigonometric and hyperbolic functions at large |z| keep their digits (the suite
// found torch's asin(1 + 6.7e7j) = inf j and atan(1 + 1.7e7j) = -pi/2 + 0j). Closed forms for
// z = 1 + iy, y large: asin = atan(1/y) + i asinh(y) to first order, atan -> pi/2 + i/y.
TEST_P(Core, InverseComplexFunctionsAtLargeModulus) {
  using C = std::complex<double>;
  const double y = 67108864.0;  // 2^26
  auto one = [](ivy::Array (*f)(const ivy::Array&), C z, ivy::DType d) {
    return ivy::astype(f(ivy::astype(ivy::asarray(std::vector<C>{z}), d)), ivy::complex128).to_vector<C>()[0];
  };
  for (ivy::DType d : {ivy::complex64, ivy::complex128}) {
    const double tol = d == ivy::complex64 ? 1e-6 : 1e-14;
    const C as = one(ivy::asin, C(1.0, y), d);
    EXPECT_NEAR(as.real(), 1.0 / y, tol / y) << ivy::dtype_name(d);
    EXPECT_NEAR(as.imag(), std::asinh(y), tol * std::asinh(y)) << ivy::dtype_name(d);
    const C ac = one(ivy::acos, C(1.0, y), d);
    EXPECT_NEAR(ac.real(), M_PI / 2 - 1.0 / y, tol) << ivy::dtype_name(d);
    EXPECT_NEAR(ac.imag(), -std::asinh(y), tol * std::asinh(y)) << ivy::dtype_name(d);
    const C at = one(ivy::atan, C(1.0, y / 4), d);
    EXPECT_NEAR(at.real(), M_PI / 2, tol) << ivy::dtype_name(d);
    EXPECT_NEAR(at.imag(), 4.0 / y, tol * 4.0 / y) << ivy::dtype_name(d);
    const C ah = one(ivy::asinh, C(y, 1.0), d);  // asinh(y + i) ~ log(2y) + i / y
    EXPECT_NEAR(ah.real(), std::log(2 * y), tol * std::log(2 * y)) << ivy::dtype_name(d);
    EXPECT_NEAR(ah.imag(), 1.0 / y, tol / y) << ivy::dtype_name(d);
  }
}

// QR near float32's range ends stays finite (Eigen's reflectors squared 1.8e19 to inf): |R00|
// is the first column's norm, R01 = conj(Q0) . a1.
TEST_P(Core, QrOfHugeFloat32Matrices) {
  for (double scale : {1e19, 1e-25}) {
    const ivy::Array a = ivy::astype(ivy::asarray(std::vector<double>{3 * scale, 1 * scale, 4 * scale, 2 * scale},
                                                  ivy::Shape{2, 2}), ivy::float32);
    const auto r = ivy::astype(ivy::linalg::qr(a).R, ivy::float64).to_vector<double>();
    EXPECT_NEAR(std::abs(r[0]), 5 * scale, 1e-6 * 5 * scale) << scale;  // |(3, 4)|
    EXPECT_NEAR(std::abs(r[1]), 2.2 * scale, 1e-6 * 5 * scale) << scale;  // (3*1 + 4*2) / 5
    EXPECT_NEAR(std::abs(r[3]), 0.4 * scale, 1e-6 * 5 * scale) << scale;  // det / 5 = (6 - 4) / 5
    EXPECT_EQ(r[2], 0.0);
  }
}

// The backends' own loops for short rows: a stack along the last axis (narrow concat
// chunks, every element size), sums and means over short trailing rows, and binary
// broadcasting with short inner blocks ((n, 4) / (n, 1)); values from closed forms.
TEST_P(Core, NarrowConcatShortRowSumsAndShortBroadcastBlocks) {
  const std::int64_t n = 300;
  // stack of 9 columns: out[i, k] = 1000 k + i
  for (auto dt : {ivy::int8, ivy::int16, ivy::float32, ivy::int64, ivy::complex128}) {
    std::vector<ivy::Array> cols;
    for (int k = 0; k < 9; ++k)
      cols.push_back(ivy::astype(ivy::arange(ivy::Scalar(1000.0 * k), ivy::Scalar(1000.0 * k + n), ivy::Scalar(1.0)), dt));
    if (dt == ivy::int8 || dt == ivy::int16) {  // small values for the narrow types
      cols.clear();
      for (int k = 0; k < 9; ++k) cols.push_back(ivy::astype(ivy::full({n}, ivy::Scalar(static_cast<double>(k))), dt));
    }
    const auto st0 = ivy::stack(cols, -1);
    const auto st = ivy::astype(st0, ivy::float64);  // complex: the real part, without a warning printed
    ASSERT_EQ(st.shape(), (ivy::Shape{n, 9}));
    const auto v = V<double>(st);
    for (std::int64_t i = 0; i < n; ++i)
      for (int k = 0; k < 9; ++k) {
        const double want = dt == ivy::int8 || dt == ivy::int16 ? k : 1000.0 * k + static_cast<double>(i);
        ASSERT_EQ(v[static_cast<std::size_t>(i * 9 + k)], want) << ivy::dtype_name(dt) << " " << i << " " << k;
      }
  }
  // chunks of 2, 0 and 3 columns: out[i] = (a[i, 0], a[i, 1], b[i, 0..2])
  const auto a = ivy::reshape(ivy::arange(0, 2 * n, 1, ivy::int32), {n, 2});
  const auto b = ivy::reshape(ivy::arange(10000, 10000 + 3 * n, 1, ivy::int32), {n, 3});
  const auto c = V<std::int32_t>(ivy::concat({a, ivy::zeros({n, 0}, ivy::int32), b}, 1));
  for (std::int64_t i = 0; i < n; ++i)
    for (int k = 0; k < 5; ++k)
      ASSERT_EQ(c[static_cast<std::size_t>(i * 5 + k)], k < 2 ? 2 * i + k : 10000 + 3 * i + (k - 2)) << i << " " << k;
  // sums and means over rows of 1..20: x[i, j] = i + j / 2, sum = L i + L (L - 1) / 4
  for (auto dt : {ivy::float32, ivy::float64})
    for (std::int64_t len = 1; len <= 20; ++len) {
      const auto i = ivy::reshape(ivy::astype(ivy::arange(0, n, 1), dt), {n, 1});
      const auto j = ivy::astype(ivy::arange(0, len, 1), dt);
      const auto x = i + j * 0.5;
      const auto s = V<double>(ivy::astype(ivy::sum(x, -1), ivy::float64));
      const auto m = V<double>(ivy::astype(ivy::mean(x, -1, true), ivy::float64));
      for (std::int64_t r = 0; r < n; ++r) {
        const double want = static_cast<double>(len * r) + static_cast<double>(len * (len - 1)) / 4.0;
        ASSERT_EQ(s[static_cast<std::size_t>(r)], want) << ivy::dtype_name(dt) << " len " << len << " row " << r;
        ASSERT_NEAR(m[static_cast<std::size_t>(r)], want / static_cast<double>(len), 1e-6 * (1 + want / len));
      }
    }
  const auto t3 = ivy::reshape(ivy::arange(0, 6 * n, 1, ivy::float32), {n, 2, 3});
  const auto s3 = V<float>(ivy::sum(t3, std::vector<std::int64_t>{-2, -1}));
  for (std::int64_t r = 0; r < n; ++r) ASSERT_EQ(s3[static_cast<std::size_t>(r)], static_cast<float>(36 * r + 15));
  // short broadcast blocks: (n, 4) / (n, 1), (n, 1) * (n, 4), (n, 3) - (3,), bool (n, 2) & (n, 1)
  const auto q = ivy::reshape(ivy::arange(1, 4 * n + 1, 1, ivy::float32), {n, 4});
  const auto d = ivy::reshape(ivy::arange(1, n + 1, 1, ivy::float32), {n, 1});
  const auto qd = V<float>(q / d), dq = V<float>(d * q);
  for (std::int64_t r = 0; r < n; ++r)
    for (int k = 0; k < 4; ++k) {
      const float qv = static_cast<float>(4 * r + k + 1), dv = static_cast<float>(r + 1);
      ASSERT_EQ(qd[static_cast<std::size_t>(r * 4 + k)], qv / dv);
      ASSERT_EQ(dq[static_cast<std::size_t>(r * 4 + k)], qv * dv);
    }
  const auto m3 = V<std::int64_t>(ivy::reshape(ivy::arange(0, 3 * n, 1, ivy::int64), {n, 3}) -
                                  ivy::asarray(std::vector<std::int64_t>{5, 7, 11}));
  for (std::int64_t r = 0; r < n; ++r)
    for (int k = 0; k < 3; ++k) ASSERT_EQ(m3[static_cast<std::size_t>(r * 3 + k)], 3 * r + k - (k == 0 ? 5 : k == 1 ? 7 : 11));
  const auto bl = ivy::reshape(ivy::remainder(ivy::arange(0, 2 * n, 1, ivy::int32), 3), {n, 2}) != 0;
  const auto br = ivy::reshape(ivy::remainder(ivy::arange(0, n, 1, ivy::int32), 2), {n, 1}) == 0;
  const auto band = V<bool>(ivy::logical_and(bl, br));
  for (std::int64_t r = 0; r < n; ++r)
    for (int k = 0; k < 2; ++k) ASSERT_EQ(band[static_cast<std::size_t>(r * 2 + k)], (2 * r + k) % 3 != 0 && r % 2 == 0);
  // empty: no rows, and rows of no elements
  EXPECT_EQ((ivy::zeros({0, 4}) / ivy::ones({0, 1})).shape(), (ivy::Shape{0, 4}));
  EXPECT_EQ(V<float>(ivy::sum(ivy::zeros({3, 0}), -1)), (std::vector<float>{0, 0, 0}));
  EXPECT_EQ(ivy::stack({ivy::zeros({0}), ivy::zeros({0})}, -1).shape(), (ivy::Shape{0, 2}));
}

// astype from complex to real keeps the real part and prints nothing (LibTorch's cast warned
// on stderr).
TEST_P(Core, ComplexToRealAstypeIsSilent) {
  const auto z = ivy::astype(ivy::asarray({1.5, -2.0}), ivy::complex64) + ivy::astype(ivy::asarray({0.0, 3.0}), ivy::complex64) * ivy::asarray(std::vector<std::complex<double>>{{0.0, 1.0}});
  ::testing::internal::CaptureStderr();
  const auto r = ivy::astype(z, ivy::float32);
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(V<float>(r), (std::vector<float>{1.5f, -2.0f}));
  EXPECT_EQ(err, "");
}

// var and std of a 0-d array (or over no axes) propagate NaN and infinities (a 0-d NaN gives
// NaN, not 0).
TEST_P(Core, VarianceOfSingleSamplesPropagatesNaN) {
  for (auto dt : {ivy::float32, ivy::float64}) {
    auto x = ivy::astype(ivy::asarray(std::vector<double>{NAN}, ivy::Shape{}), dt);
    EXPECT_TRUE(std::isnan(ivy::astype(ivy::std(x), ivy::float64).item<double>()));
    EXPECT_TRUE(std::isnan(ivy::astype(ivy::var(x), ivy::float64).item<double>()));
    auto v = ivy::astype(ivy::asarray(std::vector<double>{1.5, INFINITY, NAN}), dt);
    auto r = V<double>(ivy::var(v, std::vector<std::int64_t>{}));
    EXPECT_EQ(r[0], 0.0);
    EXPECT_TRUE(std::isnan(r[1]));
    EXPECT_TRUE(std::isnan(r[2]));
    EXPECT_EQ(ivy::astype(ivy::std(ivy::astype(ivy::asarray(std::vector<double>{2.0}, ivy::Shape{}), dt)), ivy::float64)
                  .item<double>(),
              0.0);
  }
}

// arange's length is computed without overflow when stop - start leaves int64's range
// (arange(8943875914525843201, 0, -279496122328932608) has 32 elements, not a negative length).
TEST_P(Core, ArangeLengthOfExtremeIntegerRanges) {
  auto r = ivy::arange(ivy::Scalar(std::int64_t{8943875914525843201}), ivy::Scalar(std::int64_t{0}),
                       ivy::Scalar(std::int64_t{-279496122328932608}), ivy::float32);
  EXPECT_EQ(r.shape(), ivy::Shape({32}));  // ceil(8943875914525843201 / 279496122328932608) = 32
  auto full_range = ivy::arange(ivy::Scalar(std::numeric_limits<std::int64_t>::min()),
                                ivy::Scalar(std::numeric_limits<std::int64_t>::max()),
                                ivy::Scalar(std::int64_t{1} << 62), ivy::int64);
  EXPECT_EQ(V<std::int64_t>(full_range),
            (std::vector<std::int64_t>{std::numeric_limits<std::int64_t>::min(), -(std::int64_t{1} << 62), 0,
                                       std::int64_t{1} << 62}));
  EXPECT_THROW(ivy::arange(ivy::Scalar(std::numeric_limits<std::int64_t>::min()),
                           ivy::Scalar(std::numeric_limits<std::int64_t>::max()), ivy::Scalar(1), ivy::int64),
               ivy::ValueError);
  EXPECT_THROW(ivy::arange(ivy::Scalar(0.0), ivy::Scalar(1e300), ivy::Scalar(1.0)), ivy::ValueError);
}

// A braced list mixing C++ types or kinds compiles and takes the default dtype of its
// highest kind, as a Python list does (e.g. asarray({1.0f, ivy::nan})).
TEST_P(Core, AsarrayOfAMixedList) {
  auto a = ivy::asarray({1.0f, ivy::nan});
  EXPECT_EQ(a.dtype(), ivy::default_float_dtype());
  auto v = V<double>(a);
  EXPECT_EQ(v[0], 1.0);
  EXPECT_TRUE(std::isnan(v[1]));
  EXPECT_EQ(ivy::asarray({1, 2.5}).dtype(), ivy::default_float_dtype());
  EXPECT_EQ(V<double>(ivy::asarray({1, 2.5})), (std::vector<double>{1.0, 2.5}));
  auto b = ivy::asarray({true, 2});
  EXPECT_EQ(b.dtype(), ivy::default_int_dtype());
  EXPECT_EQ(V<int>(b), (std::vector<int>{1, 2}));
  EXPECT_EQ(ivy::asarray({1, 2.5f}, ivy::float64).dtype(), ivy::float64);
  EXPECT_EQ(ivy::asarray({1.0, std::complex<double>(0, 1)}).dtype(), ivy::default_complex_dtype());
  EXPECT_THROW(ivy::asarray({1.0, std::complex<double>(0, 1)}, ivy::float32), ivy::TypeError);
  EXPECT_THROW(ivy::asarray({1, std::int64_t{300}}, ivy::int8), ivy::OverflowError);
  // a list of one C++ type keeps that type's dtype
  EXPECT_EQ(ivy::asarray({1.0f, 2.0f}).dtype(), ivy::float32);
  EXPECT_EQ(ivy::asarray({1.0, 2.0}).dtype(), ivy::float64);
}

// vecdot's result has its operands' promoted dtype, not the wider one sum gives small
// integers on its own.
TEST_P(Core, VecdotKeepsThePromotedDtype) {
  auto a = ivy::astype(ivy::asarray({1, 2, 3}), ivy::uint8), b = ivy::astype(ivy::asarray({4, 5, 6}), ivy::uint8);
  auto r = ivy::vecdot(a, b);
  EXPECT_EQ(r.dtype(), ivy::uint8);
  EXPECT_EQ(r.item<int>(), 32);
  auto c = ivy::astype(ivy::asarray({100, 100}), ivy::int8);
  EXPECT_EQ(ivy::vecdot(c, c).dtype(), ivy::int8);  // 20000 wraps, as int8 arithmetic does
  EXPECT_EQ(ivy::vecdot(c, ivy::astype(c, ivy::int16)).dtype(), ivy::int16);
}

// clip's bounds broadcast with x, the result taking the broadcast shape.
TEST_P(Core, ClipBoundsBroadcastWithX) {
  auto x = ivy::asarray(std::vector<double>{0.5}, ivy::Shape{});
  auto lo = ivy::asarray({0.0, 1.0, 0.25});
  auto r = ivy::clip(x, ivy::Bound(lo), ivy::Bound());
  EXPECT_EQ(r.shape(), ivy::Shape({3}));
  EXPECT_EQ(V<double>(r), (std::vector<double>{0.5, 1.0, 0.5}));
  auto e = ivy::clip(ivy::astype(ivy::asarray(std::vector<int>{0}, ivy::Shape{}), ivy::uint8),
                     ivy::Bound(ivy::zeros({0}, ivy::uint8)), ivy::Bound());
  EXPECT_EQ(e.shape(), ivy::Shape({0}));
  EXPECT_THROW(ivy::clip(ivy::zeros({2, 3}), ivy::Bound(ivy::zeros({4})), ivy::Bound()), ivy::ValueError);
}

// Complex tanh with an infinite real part and a finite imaginary part: +-1 + 0j, the zero
// signed as the imaginary part, as the standard lists it (libm signs it as sin(2 imag)).
TEST(ComplexSpecialCases, TanhOfInfiniteRealPartOnXtensor) {
  if (!xtensor_built()) GTEST_SKIP() << "no xtensor backend";
  ivy::BackendScope s("xtensor");
  using C = std::complex<double>;
  auto z = ivy::asarray({C(INFINITY, 2.0), C(INFINITY, -2.0), C(-INFINITY, 0.5)});
  auto t = ivy::tanh(z).to_vector<C>();
  EXPECT_EQ(t[0].real(), 1.0);
  EXPECT_EQ(t[0].imag(), 0.0);
  EXPECT_FALSE(std::signbit(t[0].imag()));  // sin(4) < 0: libm gives -0
  EXPECT_TRUE(std::signbit(t[1].imag()));
  EXPECT_EQ(t[2].real(), -1.0);
}

// pinv and matrix_rank take one rtol per matrix (an array broadcast against the batch
// shape): diag(1, 1e-3) keeps its small singular value under rtol 1e-4, drops it under 1e-2.
TEST_P(Core, PinvAndMatrixRankTakeAnRtolPerMatrix) {
  auto d = ivy::asarray(std::vector<double>{1.0, 0.0, 0.0, 1e-3}, ivy::Shape{2, 2});
  auto x = ivy::stack(std::vector<ivy::Array>{d, d});
  auto rtol = ivy::asarray({1e-4, 1e-2});
  auto p = ivy::linalg::pinv(x, rtol);
  auto v = V<double>(p);
  EXPECT_NEAR(v[0], 1.0, 1e-9);
  EXPECT_NEAR(v[3], 1000.0, 1e-6);
  EXPECT_NEAR(v[4], 1.0, 1e-9);
  EXPECT_NEAR(v[7], 0.0, 1e-12);
  auto r = ivy::linalg::matrix_rank(x, rtol);
  EXPECT_EQ(V<std::int64_t>(r), (std::vector<std::int64_t>{2, 1}));
  EXPECT_THROW(ivy::linalg::pinv(x, ivy::asarray({1e-4, 1e-2, 1.0})), ivy::ValueError);
}

// An array too large for any machine is an error, not a short allocation written past its
// end (the byte count wrapped around: the Array API suite's arange found it on xtensor).
TEST(XtensorAlloc, ImpossibleSizesThrowInsteadOfWrapping) {
  if (!xtensor_built()) GTEST_SKIP() << "no xtensor backend";
  ivy::BackendScope s("xtensor");
  EXPECT_THROW(ivy::arange(0, std::int64_t{1} << 62, 1, ivy::float32), ivy::Error);
  EXPECT_THROW(ivy::zeros({std::int64_t{1} << 31, std::int64_t{1} << 31}, ivy::float64), ivy::Error);
  EXPECT_EQ(ivy::arange(0, 5).size(), 5);
}

INSTANTIATE_TEST_SUITE_P(AllBackends, Core, ::testing::ValuesIn(backend_names()),
                         [](const auto& info) { return info.param; });

// ---------------------------------------------------------------- tracing
ivy::Array composite(const ivy::Array& x, const ivy::Array& w) {
  auto h = ivy::tanh(ivy::matmul(x, w) + 0.5);
  auto s = ivy::sum(h * h, -1, std::nullopt, true);
  return ivy::clip(h / (s + 1.0), -0.2, 0.2);
}

TEST(Trace, TraceOnXtensorReplayOnTorch) {
  auto names = backend_names();
  if (names.size() < 2) GTEST_SKIP();
  ivy::BackendScope scope("xtensor");
  ivy::seed(3);
  auto x = ivy::random_normal(0.0, 1.0, {4, 3}, ivy::float64);
  auto w = ivy::random_normal(0.0, 1.0, {3, 5}, ivy::float64);
  ivy::Graph g = ivy::trace(composite, x, w);
  std::string listing = g.str();
  EXPECT_NE(listing.find("matmul"), std::string::npos) << listing;
  EXPECT_NE(listing.find("tanh"), std::string::npos);
  EXPECT_GE(g.nodes.size(), 6u);
  // new inputs of the same shapes, replayed on torch
  auto x2 = ivy::random_normal(0.0, 1.0, {4, 3}, ivy::float64);
  auto w2 = ivy::random_normal(0.0, 1.0, {3, 5}, ivy::float64);
  auto direct = composite(x2, w2);
  auto replay = g.run({x2, w2}, "torch");
  ASSERT_EQ(replay.size(), 1u);
  EXPECT_EQ(std::string(replay[0].backend().name()), "torch");
  EXPECT_TRUE(ivy::allclose(direct, ivy::to_backend(replay[0], "xtensor"), 1e-12, 1e-12));
  // and on xtensor
  auto again = g.run({x2, w2});
  EXPECT_TRUE(ivy::array_equal(direct, again[0]));
  EXPECT_THROW(g.run({x2}), ivy::ValueError);
  EXPECT_THROW(g.run({w2, x2}), ivy::ValueError);
}

// long long and unsigned long long read 64-bit integers (they are distinct from int64_t and
// uint64_t on LP64); a backend can be named by a std::string where a Backend is expected.
TEST(CoreSpellings, LongLongReadsAndStringBackendNames) {
  for (auto b : ivy::available_backends()) {
    const std::string name = b.name();
    auto on = [](ivy::Backend where) { return ivy::arange(3, std::nullopt, 1, ivy::int64, {}, where); };
    ivy::Array x = on(name);  // std::string -> Backend
    EXPECT_EQ(x.backend(), b);
    EXPECT_EQ(x.to_vector<long long>(), (std::vector<long long>{0, 1, 2}));
    EXPECT_EQ(ivy::sum(x).item<long long>(), 3LL);
    EXPECT_EQ(x.to_vector<unsigned long long>(), (std::vector<unsigned long long>{0, 1, 2}));
  }
}

}  // namespace

// A Scalar made from a double keeps an int64 view: NaN is 0 and out-of-range values saturate
// (a plain cast of those is undefined behaviour; fuzzing the ONNX importer found one).
TEST(Core, ScalarFromOutOfRangeFloatSaturates) {
  EXPECT_EQ(ivy::Scalar(1e300).i, INT64_MAX);
  EXPECT_EQ(ivy::Scalar(-1e300).i, INT64_MIN);
  EXPECT_EQ(ivy::Scalar(std::nan("")).i, 0);
  EXPECT_EQ(ivy::Scalar(9.2233720368547758e18).i, INT64_MAX);
  EXPECT_EQ(ivy::Scalar(-2.5).i, -2);
  EXPECT_EQ(ivy::Scalar(std::complex<double>(3e20, 1)).i, INT64_MAX);
  EXPECT_EQ(ivy::Scalar(2.0f).kind, ivy::Scalar::Float);
}

// A result larger than the machine's memory is refused before any allocation, on every backend.
TEST(Core, ResultsBeyondPhysicalMemoryAreErrors) {
  for (ivy::Backend b : ivy::available_backends()) {
    try {
      ivy::zeros({std::int64_t{1} << 30, std::int64_t{1} << 20}, ivy::float32, {}, b);
      ADD_FAILURE() << "4 PiB allocated on " << b.name();
    } catch (const ivy::ValueError& e) {
      EXPECT_NE(std::string(e.what()).find("more than this machine's memory"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("[full]"), std::string::npos) << e.what();
    }
    ivy::Array big = ivy::zeros({std::int64_t{1} << 20}, ivy::float32, {}, b);  // 4 MiB still fine
    EXPECT_EQ(big.size(), std::int64_t{1} << 20);
  }
}

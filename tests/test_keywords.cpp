// The standard's keyword arguments through options structs (ivy/keywords.hpp), and arrays of
// the standard's largest rank (32), on every backend. Expected values by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>

#include "ivy/ivy.hpp"

namespace {
using ivy::Array;
using ivy::DType;
using V = std::vector<double>;
using S = std::vector<std::int64_t>;

std::vector<std::string> backend_names() {
  std::vector<std::string> v;
  for (auto b : ivy::available_backends()) v.push_back(b.name());
  return v;
}

class Keywords : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override { scope_ = std::make_unique<ivy::BackendScope>(ivy::Backend(GetParam())); }
  std::unique_ptr<ivy::BackendScope> scope_;
  // [[1, 2, 3], [4, 5, 6]] in float64
  Array m23() const { return ivy::asarray(V{1, 2, 3, 4, 5, 6}, ivy::Shape{2, 3}); }
};

V vals(const Array& a) { return ivy::astype(a, ivy::float64).to_vector<double>(); }
S shape(const Array& a) { return a.shape().vec(); }
void expect_near(const Array& a, const V& want, const S& want_shape, double tol = 1e-12) {
  EXPECT_EQ(shape(a), want_shape);
  const V got = vals(a);
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], tol) << "element " << i;
}

TEST_P(Keywords, Reductions) {
  const Array x = m23();
  expect_near(ivy::sum(x, {.axis = 1, .keepdims = true}), {6, 15}, {2, 1});
  expect_near(ivy::sum(x, {.keepdims = true}), {21}, {1, 1});
  const Array s32 = ivy::sum(x, {.dtype = ivy::float32});
  EXPECT_EQ(s32.dtype(), ivy::float32);
  expect_near(s32, {21}, {});
  expect_near(ivy::sum(x, {.axis = {0, 1}}), {21}, {});
  expect_near(ivy::prod(x, {.axis = 0}), {4, 10, 18}, {3});
  expect_near(ivy::prod(x, {.axis = 1, .keepdims = true}), {6, 120}, {2, 1});
  expect_near(ivy::std(x, {.axis = 1, .correction = 1}), {1, 1}, {2});
  expect_near(ivy::var(x, {.keepdims = true}), {35.0 / 12}, {1, 1});
  expect_near(ivy::var(x, {.axis = 0, .correction = 1.0, .keepdims = true}), {4.5, 4.5, 4.5}, {1, 3});
  expect_near(ivy::max(x, {.axis = 0}), {4, 5, 6}, {3});
  expect_near(ivy::min(x, {.axis = 1, .keepdims = true}), {1, 4}, {2, 1});
  expect_near(ivy::mean(x, {.keepdims = true}), {3.5}, {1, 1});
  const Array b = x > 2.5;
  expect_near(ivy::all(b, {.axis = 0}), {0, 0, 1}, {3});
  expect_near(ivy::any(b, {.axis = 1, .keepdims = true}), {1, 1}, {2, 1});
  expect_near(ivy::count_nonzero(b, {.axis = 1}), {1, 3}, {2});
  expect_near(ivy::argmax(x, {.axis = 1, .keepdims = true}), {2, 2}, {2, 1});
  expect_near(ivy::argmin(x, {.keepdims = true}), {0}, {1, 1});
  expect_near(ivy::cumulative_sum(x, {.axis = 1, .include_initial = true}), {0, 1, 3, 6, 0, 4, 9, 15}, {2, 4});
  const Array cp = ivy::cumulative_prod(x, {.axis = 0, .dtype = ivy::float32});
  EXPECT_EQ(cp.dtype(), ivy::float32);
  expect_near(cp, {1, 2, 3, 4, 10, 18}, {2, 3});
}

// A bool after the axis is keepdims for every reduction (include_initial for the cumulative
// ones); an int stays what the position says (std's correction).
TEST_P(Keywords, BoolAfterAxisIsKeepdims) {
  const Array x = m23();
  expect_near(ivy::sum(x, 1, true), {6, 15}, {2, 1});
  expect_near(ivy::prod(x, 0, true), {4, 10, 18}, {1, 3});
  const double pop = std::sqrt(2.0 / 3.0);  // population std of {1, 2, 3}
  expect_near(ivy::std(x, 1, true), {pop, pop}, {2, 1});
  expect_near(ivy::std(x, 1, 1), {1, 1}, {2});
  expect_near(ivy::var(x, 1, true), {2.0 / 3, 2.0 / 3}, {2, 1});
  expect_near(ivy::var(x, 1, 1.0), {1, 1}, {2});
  expect_near(ivy::cumulative_sum(x, 1, true), {0, 1, 3, 6, 0, 4, 9, 15}, {2, 4});
  expect_near(ivy::cumulative_prod(x, 1, true), {1, 1, 2, 6, 1, 4, 20, 120}, {2, 4});
  EXPECT_EQ(ivy::sum(x, 1, ivy::float32).dtype(), ivy::float32);  // a dtype is still a dtype
}

// Braces without designators keep their positional meaning (an axis list).
TEST_P(Keywords, UndesignatedBracesAreAxes) {
  const Array x = m23();
  expect_near(ivy::sum(x, {1}), {6, 15}, {2});
  expect_near(ivy::sum(x, {0, 1}), {21}, {});
  expect_near(ivy::max(x, {0}), {4, 5, 6}, {3});
  expect_near(ivy::linalg::vector_norm(x, {1}), {std::sqrt(14.0), std::sqrt(77.0)}, {2});
  expect_near(ivy::sum(x, {}), {21}, {});
}

TEST_P(Keywords, SortingSearchingUtility) {
  const Array v = ivy::asarray(V{3, 1, 2, 1});
  expect_near(ivy::sort(v, {.descending = true}), {3, 2, 1, 1}, {4});
  expect_near(ivy::argsort(v, {.descending = true, .stable = true}), {0, 2, 1, 3}, {4});
  expect_near(ivy::argsort(m23(), {.axis = 0, .descending = true}), {1, 1, 1, 0, 0, 0}, {2, 3});
  const Array sorted = ivy::asarray(V{1, 2, 2, 3});
  expect_near(ivy::searchsorted(sorted, ivy::asarray(V{2}), {.side = "right"}), {3}, {1});
  const Array order = ivy::asarray(S{1, 2, 3, 0});  // sorts [3, 1, 2, 2] ascending
  expect_near(ivy::searchsorted(ivy::asarray(V{3, 1, 2, 2}), ivy::asarray(V{2.5}), {.sorter = order}), {3}, {1});
  expect_near(ivy::diff(m23(), {.axis = 0}), {3, 3, 3}, {1, 3});
  expect_near(ivy::diff(ivy::asarray(V{1, 4, 9, 16}), {.n = 2}), {2, 2}, {2});
  expect_near(ivy::diff(ivy::asarray(V{1, 4}), {.prepend = ivy::asarray(V{0}), .append = ivy::asarray(V{10})}),
              {1, 3, 6}, {3});
}

TEST_P(Keywords, Creation) {
  const Array z = ivy::zeros({2}, {.dtype = ivy::int32});
  EXPECT_EQ(z.dtype(), ivy::int32);
  expect_near(z, {0, 0}, {2});
  expect_near(ivy::ones({1, 2}, {.dtype = ivy::float64}), {1, 1}, {1, 2});
  EXPECT_EQ(ivy::empty({3}, {.dtype = ivy::int8}).dtype(), ivy::int8);
  const Array f = ivy::full({2}, 3, {.dtype = ivy::int16});
  EXPECT_EQ(f.dtype(), ivy::int16);
  expect_near(f, {3, 3}, {2});
  expect_near(ivy::eye(3, {.k = 1}), {0, 1, 0, 0, 0, 1, 0, 0, 0}, {3, 3});
  expect_near(ivy::eye(2, 3, {.k = -1, .dtype = ivy::int8}), {0, 0, 0, 1, 0, 0}, {2, 3});
  const Array a = ivy::arange(4, {.dtype = ivy::float64});
  EXPECT_EQ(a.dtype(), ivy::float64);
  expect_near(a, {0, 1, 2, 3}, {4});
  expect_near(ivy::arange(1, 7, 2, {.dtype = ivy::int8}), {1, 3, 5}, {3});
  expect_near(ivy::arange(2, 5, {.dtype = ivy::int16}), {2, 3, 4}, {3});
  expect_near(ivy::linspace(0, 1, 5, {.endpoint = false}), {0, 0.2, 0.4, 0.6, 0.8}, {5}, 1e-7);
  const Array x = m23();
  EXPECT_EQ(ivy::ones_like(x, {.dtype = ivy::int8}).dtype(), ivy::int8);
  EXPECT_EQ(ivy::zeros_like(x, {.dtype = ivy::bool_}).dtype(), ivy::bool_);
  expect_near(ivy::full_like(x, 7, {.dtype = ivy::int32}), V(6, 7), {2, 3});
  EXPECT_EQ(ivy::empty_like(x, {.device = ivy::Device{}}).shape(), x.shape());
  expect_near(ivy::asarray(x, {.dtype = ivy::float32, .copy = true}), {1, 2, 3, 4, 5, 6}, {2, 3});
  expect_near(ivy::astype(x, ivy::int32, {.copy = false}), {1, 2, 3, 4, 5, 6}, {2, 3});
  expect_near(ivy::fft::fftfreq(4, {.d = 0.5}), {0, 0.5, -1, -0.5}, {4});
  expect_near(ivy::fft::rfftfreq(4, {.d = 0.25, .dtype = ivy::float64}), {0, 1, 2}, {3});
}

TEST_P(Keywords, LinalgAndFft) {
  const Array x = m23();
  expect_near(ivy::linalg::vector_norm(x, {.axis = 1, .ord = 1}), {6, 15}, {2});
  expect_near(ivy::linalg::vector_norm(x, {.keepdims = true, .ord = ivy::inf}), {6}, {1, 1});
  expect_near(ivy::linalg::matrix_norm(x, {.keepdims = true, .ord = 1.0}), {9}, {1, 1});
  expect_near(ivy::linalg::trace(x, {.offset = 1}), {8}, {});
  EXPECT_EQ(ivy::linalg::trace(ivy::astype(x, ivy::int32), {.dtype = ivy::int64}).dtype(), ivy::int64);
  // fft of [1, 2] padded to 4: [3, 1-2j, -1, 1+2j]
  const Array f = ivy::fft::fft(ivy::asarray(V{1, 2}), {.n = 4});
  expect_near(ivy::real(f), {3, 1, -1, 1}, {4});
  expect_near(ivy::imag(f), {0, -2, 0, 2}, {4});
  expect_near(ivy::real(ivy::fft::rfft(x, {.axis = 0})), {5, 7, 9, -3, -3, -3}, {2, 3});
  const Array along1 = ivy::fft::fftn(x, {.axes = ivy::Dims{1}, .norm = "ortho"});
  EXPECT_TRUE(ivy::allclose(along1, ivy::fft::fft(x, {.axis = 1, .norm = "ortho"})));
  expect_near(ivy::real(ivy::fft::ifft(ivy::asarray(V{4, 0, 0, 0}), {.norm = "forward"})), {4, 4, 4, 4}, {4});
}

// Bad input through the options forms: the error of the function called, named first.
TEST_P(Keywords, BadInputNamesTheFunction) {
  auto fails = [](const std::function<void()>& f, const std::string& op) {
    try {
      f();
    } catch (const ivy::Error& e) {
      return std::string(e.what()).rfind("[" + op + "]", 0) == 0 ? ::testing::AssertionSuccess()
                                                                 : ::testing::AssertionFailure() << e.what();
    }
    return ::testing::AssertionFailure() << "no error from " << op;
  };
  const Array x = m23();
  EXPECT_TRUE(fails([&] { ivy::sum(x, {.axis = 2, .keepdims = true}); }, "sum"));
  EXPECT_TRUE(fails([&] { ivy::var(x, {.axis = {0, 0}}); }, "var"));
  EXPECT_TRUE(fails([&] { ivy::argmax(x, {.axis = -3}); }, "argmax"));
  EXPECT_TRUE(fails([&] { ivy::cumulative_sum(x, {.axis = 2}); }, "cumulative_sum"));
  EXPECT_TRUE(fails([&] { ivy::sort(x, {.axis = 5}); }, "sort"));
  EXPECT_TRUE(fails([&] { ivy::searchsorted(ivy::asarray(V{1, 2}), x, {.side = "middle"}); }, "searchsorted"));
  EXPECT_TRUE(fails([&] { ivy::diff(x, {.n = -1}); }, "diff"));
  EXPECT_TRUE(fails([&] { ivy::zeros({-1}, {.dtype = ivy::float32}); }, "zeros"));
  EXPECT_TRUE(fails([&] { ivy::eye(-1, {.k = 1}); }, "eye"));
  EXPECT_TRUE(fails([&] { ivy::linspace(0, 1, -2, {.endpoint = false}); }, "linspace"));
  EXPECT_TRUE(fails([&] { ivy::linalg::vector_norm(x, {.axis = 4}); }, "vector_norm"));
  EXPECT_TRUE(fails([&] { ivy::fft::fft(x, {.n = 0}); }, "fft"));
}

// The standard's largest rank, 32: construction, reshape, broadcasting, reductions, permutes.
TEST_P(Keywords, Rank32Arrays) {
  EXPECT_EQ(ivy::kMaxRank, 32);
  ivy::Shape s32;
  for (int i = 0; i < 32; ++i) s32.push_back(i % 8 == 0 ? 2 : 1);  // four axes of 2: 16 elements
  const Array x = ivy::reshape(ivy::arange(16, {.dtype = ivy::float64}), s32);
  EXPECT_EQ(x.ndim(), 32);
  EXPECT_EQ(vals(ivy::sum(x)), V{120});
  // axis 24 is the last axis of length 2: the two halves of each block of 2 differ by 1
  S summed;  // the shape without axis 24: 2 at axes 0, 8 and 16
  for (int i = 0; i < 31; ++i) summed.push_back(i % 8 == 0 && i < 24 ? 2 : 1);
  expect_near(ivy::sum(x, {.axis = 24}), {1, 5, 9, 13, 17, 21, 25, 29}, summed);
  // reversing the axes reverses the order of the four length-2 axes' index bits
  S rev(32);
  for (int i = 0; i < 32; ++i) rev[static_cast<std::size_t>(i)] = 31 - i;
  const Array t = ivy::permute_dims(x, ivy::Dims(rev.begin(), rev.end()));
  V want;
  for (int i = 0; i < 16; ++i) want.push_back((i & 1) * 8 + (i >> 1 & 1) * 4 + (i >> 2 & 1) * 2 + (i >> 3 & 1));
  EXPECT_EQ(vals(ivy::reshape(t, {16})), want);
  // broadcasting a rank-32 array against a 1-d one
  const Array y = x + ivy::asarray(V{100, 200});
  EXPECT_EQ(y.ndim(), 32);
  EXPECT_EQ(y.shape()[31], 2);
  EXPECT_EQ(vals(ivy::sum(y)), V{120 * 2 + 16 * 300});
  EXPECT_EQ(ivy::expand_dims(ivy::reshape(x, ivy::Shape(s32.begin(), s32.begin() + 31)), 0).ndim(), 32);
  EXPECT_THROW(ivy::expand_dims(x, 0), ivy::ValueError);
}

INSTANTIATE_TEST_SUITE_P(Backends, Keywords, ::testing::ValuesIn(backend_names()),
                         [](const auto& info) { return info.param; });

}  // namespace

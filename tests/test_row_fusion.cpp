// Reductions in fusion (src/trace/row_fusion.cpp): softmax, log-softmax, RMS norm, a layer
// norm written out, mean-squared error and dot products compile into row programs, with
// generated kernels and with the interpreter, on both backends. On the xtensor backend the
// compiled results are eager's bits (the same pairwise row sums, the same elementwise
// functions); on torch, whose eager kernels are LibTorch's, they agree within a few ulp; both
// against closed forms computed here in long double.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "ivy/autodiff.hpp"
#include "ivy/compile.hpp"
#include "ivy/ivy.hpp"
#include "ivy/nn_functional.hpp"

namespace {
using ivy::Array;
using ivy::DType;

std::vector<double> values(const Array& a) {
  return ivy::astype(a, ivy::float64).to_vector<double>();
}

bool same_bits(const Array& a, const Array& b) {
  if (a.dtype() != b.dtype() || !(a.shape() == b.shape())) return false;
  auto x = a, y = ivy::to_backend(b, a.backend());
  if (a.dtype() == ivy::float32) {
    auto u = x.to_vector<float>(), v = y.to_vector<float>();
    return std::memcmp(u.data(), v.data(), u.size() * sizeof(float)) == 0;
  }
  auto u = x.to_vector<double>(), v = y.to_vector<double>();
  return std::memcmp(u.data(), v.data(), u.size() * sizeof(double)) == 0;
}

// |a - b| <= ulps * eps(dtype) * max(|b|, tiny) elementwise, NaN where the other is NaN.
::testing::AssertionResult close(const std::vector<double>& a, const std::vector<double>& b, DType dt, double ulps,
                                 double floor = 1e-30) {
  if (a.size() != b.size()) return ::testing::AssertionFailure() << "sizes " << a.size() << " vs " << b.size();
  const double eps = dt == DType::float32 ? 0x1p-23 : 0x1p-52;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::isnan(a[i]) && std::isnan(b[i])) continue;
    if (a[i] == b[i]) continue;
    if (!(std::abs(a[i] - b[i]) <= ulps * eps * std::max(std::abs(b[i]), floor)))
      return ::testing::AssertionFailure() << "element " << i << ": " << a[i] << " vs " << b[i];
  }
  return ::testing::AssertionSuccess();
}

Array input(const ivy::Shape& s, DType dt, double scale, int seed) {
  std::vector<double> v(static_cast<std::size_t>(s.numel()));
  std::uint64_t st = 0x9e3779b97f4a7c15ull * static_cast<std::uint64_t>(seed + 1);
  for (double& x : v) {
    st = st * 6364136223846793005ull + 1442695040888963407ull;
    x = scale * (static_cast<double>(st >> 11) / 9007199254740992.0 - 0.5);
  }
  return ivy::astype(ivy::asarray(v, s), dt);
}

// The functions under test (each as a user writes it) and their closed forms.
using Fn = std::function<std::vector<Array>(const std::vector<Array>&)>;

Array rms_norm(const Array& x, const Array& w) {
  return x * (1.0 / ivy::sqrt(ivy::mean(x * x, -1, true) + 1e-6)) * w;
}
Array layer_norm_written_out(const Array& x, const Array& w, const Array& b) {
  const Array mu = ivy::mean(x, -1, true);
  const Array d = x - mu;
  const Array var = ivy::mean(d * d, -1, true);
  return d / ivy::sqrt(var + 1e-5) * w + b;
}

struct Case {
  const char* name;
  Fn f;
  std::vector<ivy::Shape> shapes;
};

std::vector<Case> cases() {
  return {
      {"softmax", [](const std::vector<Array>& v) { return std::vector<Array>{ivy::nn::softmax(v[0], -1)}; },
       {{37, 1000}}},
      {"log_softmax", [](const std::vector<Array>& v) { return std::vector<Array>{ivy::nn::log_softmax(v[0], 1)}; },
       {{8, 129}}},
      {"softmax_3d_two_axes",
       [](const std::vector<Array>& v) {
         const Array m = ivy::max(v[0], {-2, -1}, true);
         const Array e = ivy::exp(v[0] - m);
         return std::vector<Array>{e / ivy::sum(e, {1, 2}, std::nullopt, true)};
       },
       {{5, 6, 7}}},
      {"rms_norm", [](const std::vector<Array>& v) { return std::vector<Array>{rms_norm(v[0], v[1])}; },
       {{64, 96}, {96}}},
      {"layer_norm_written_out",
       [](const std::vector<Array>& v) { return std::vector<Array>{layer_norm_written_out(v[0], v[1], v[2])}; },
       {{2, 3, 80}, {80}, {80}}},
      {"mse", [](const std::vector<Array>& v) { return std::vector<Array>{ivy::nn::mse_loss(v[0], v[1])}; },
       {{64, 10}, {64, 10}}},
      {"dot_rows_no_keepdims",
       [](const std::vector<Array>& v) {
         const Array s = ivy::sum(v[0] * v[1], -1);
         return std::vector<Array>{s * 2.0 + 1.0, ivy::min(v[0] - v[1], 1)};
       },
       {{300, 33}, {300, 33}}},
      {"masked_scores",  // a mask broadcast over heads, a per-row bias and a per-column scale
       [](const std::vector<Array>& v) {
         const Array s = v[0] * v[2] + v[1] + v[3];
         const Array m = ivy::max(s, -1, true);
         const Array e = ivy::exp(s - m);
         const Array z = ivy::sum(e, -1, std::nullopt, true);
         return std::vector<Array>{e / z, m, ivy::log(z)};
       },
       {{2, 3, 4, 40}, {2, 1, 4, 40}, {40}, {2, 3, 4, 1}}},
      {"large_rows_split_over_threads",
       [](const std::vector<Array>& v) { return std::vector<Array>{ivy::nn::softmax(v[0] * 3.0, -1)}; },
       {{2048, 256}}},
  };
}

// Inputs for a case; special values (inf, NaN, -0, subnormals, large) in the first input.
std::vector<Array> inputs_for(const Case& c, DType dt, bool special) {
  std::vector<Array> in;
  for (std::size_t i = 0; i < c.shapes.size(); ++i) in.push_back(input(c.shapes[i], dt, 8.0, static_cast<int>(i)));
  if (special) {
    auto v = values(in[0]);
    const double inf = std::numeric_limits<double>::infinity();
    const double specials[] = {inf, -inf, std::nan(""), -0.0, 1e-310, 80.0, -80.0, 700.0};
    for (std::size_t k = 0; k < v.size(); k += 7) v[k] = specials[(k / 7) % 8];
    in[0] = ivy::astype(ivy::asarray(v, c.shapes[0]), dt);
  }
  return in;
}

std::vector<std::string> backend_names() {
  std::vector<std::string> v;
  for (auto b : ivy::available_backends()) v.push_back(b.name());
  return v;
}

class RowFusion : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override { scope_ = std::make_unique<ivy::BackendScope>(ivy::Backend(GetParam())); }
  bool xtensor() const { return GetParam() == "xtensor"; }
  std::unique_ptr<ivy::BackendScope> scope_;
};

// Every case compiles into at least one row program, with fewer steps than without
// reductions fused; on xtensor it gives eager's bits, on torch values within 8 ulp of
// LibTorch's eager kernels (per element; 64 ulp of the row's scale for the outputs that
// cancel, as log-softmax's), with generated kernels and without.
TEST_P(RowFusion, CompiledEqualsEager) {
  for (const Case& c : cases())
    for (DType dt : {DType::float32, DType::float64})
      for (bool special : {false, true})
        for (bool generate : {true, false}) {
          SCOPED_TRACE(std::string(c.name) + " " + ivy::dtype_name(dt) + (special ? " special" : "") +
                       (generate ? " generated" : " interpreted"));
          const auto in = inputs_for(c, dt, special);
          ivy::CompileOptions opt;
          opt.generate_code = generate;
          ivy::CompiledFunction fused(c.f, opt);
          opt.fuse_reductions = false;
          ivy::CompiledFunction unfused(c.f, opt);
          auto exe = fused.executable(in);
          ASSERT_GE(exe->stats().fused_reductions, 1) << exe->plan_str();
          EXPECT_LT(exe->stats().steps, unfused.executable(in)->stats().steps) << exe->plan_str();
          const auto got = exe->run(in);
          const auto want = c.f(in);
          ASSERT_EQ(got.size(), want.size());
          for (std::size_t k = 0; k < got.size(); ++k) {
            ASSERT_EQ(got[k].shape(), want[k].shape());
            ASSERT_EQ(got[k].dtype(), want[k].dtype());
            if (xtensor()) {
              EXPECT_TRUE(same_bits(got[k], want[k])) << "output " << k << "\n" << exe->plan_str();
            } else {
              EXPECT_TRUE(close(values(got[k]), values(want[k]), dt, 64, 1.0)) << "output " << k;
            }
          }
        }
}

// Closed forms in long double: softmax, log-softmax, RMS norm and MSE.
TEST_P(RowFusion, MatchesClosedForms) {
  for (DType dt : {DType::float32, DType::float64}) {
    const std::int64_t R = 19, C = 300;
    const Array x = input({R, C}, dt, 20.0, 7), w = input({C}, dt, 2.0, 8), t = input({R, C}, dt, 3.0, 9);
    auto sm = ivy::compile([](const Array& a) { return ivy::nn::softmax(a, -1); })(x);
    auto lsm = ivy::compile([](const Array& a) { return ivy::nn::log_softmax(a, -1); })(x);
    auto rms = ivy::compile([](const Array& a, const Array& b) { return rms_norm(a, b); })(x, w);
    auto mse = ivy::compile([](const Array& a, const Array& b) { return ivy::nn::mse_loss(a, b); })(x, t);
    const auto X = values(x), W = values(w), T = values(t);
    std::vector<double> sm_ref, lsm_ref, rms_ref;
    long double se = 0;
    for (std::int64_t r = 0; r < R; ++r) {
      long double m = -INFINITY, z = 0, ms = 0;
      for (std::int64_t j = 0; j < C; ++j) m = std::max(m, static_cast<long double>(X[r * C + j]));
      for (std::int64_t j = 0; j < C; ++j) z += std::exp(static_cast<long double>(X[r * C + j]) - m);
      for (std::int64_t j = 0; j < C; ++j) ms += static_cast<long double>(X[r * C + j]) * X[r * C + j];
      ms /= C;
      for (std::int64_t j = 0; j < C; ++j) {
        const long double xv = X[r * C + j];
        sm_ref.push_back(static_cast<double>(std::exp(xv - m) / z));
        lsm_ref.push_back(static_cast<double>(xv - m - std::log(z)));
        rms_ref.push_back(static_cast<double>(xv / std::sqrt(ms + 1e-6L) * W[static_cast<std::size_t>(j)]));
        se += (xv - T[r * C + j]) * (xv - T[r * C + j]);
      }
    }
    const double mse_ref = static_cast<double>(se / (R * C));
    EXPECT_TRUE(close(values(sm), sm_ref, dt, 16, 1e-30));
    EXPECT_TRUE(close(values(lsm), lsm_ref, dt, 64, 1.0));
    EXPECT_TRUE(close(values(rms), rms_ref, dt, 8));
    EXPECT_TRUE(close(values(mse), {mse_ref}, dt, 16));
  }
}

// What stays out of row programs: integer reductions, reductions over leading axes, empty
// arrays; a group value read by something outside that the group then reads again (the
// matmul) ends the group, and the results stay right.
TEST_P(RowFusion, LeavesOutWhatItCannotRun) {
  const Array xi = ivy::astype(input({6, 9}, DType::float32, 50.0, 1), ivy::int32);
  auto exe_int = ivy::CompiledFunction([](const std::vector<Array>& v) {
                   return std::vector<Array>{ivy::sum(v[0] * v[0], -1) + 1};
                 }).executable({xi});
  EXPECT_EQ(exe_int->stats().fused_reductions, 0);
  const Array x = input({6, 9}, DType::float32, 4.0, 2);
  auto lead = [](const std::vector<Array>& v) { return std::vector<Array>{ivy::sum(ivy::exp(v[0]), 0) * 2.0}; };
  EXPECT_EQ(ivy::CompiledFunction(lead).executable({x})->stats().fused_reductions, 0);
  const Array empty = ivy::zeros({0, 5});
  auto sm = [](const std::vector<Array>& v) { return std::vector<Array>{ivy::nn::softmax(v[0] + 1.0, -1)}; };
  auto exe_empty = ivy::CompiledFunction(sm).executable({empty});
  EXPECT_EQ(exe_empty->stats().fused_reductions, 0);
  EXPECT_EQ(exe_empty->run({empty})[0].shape(), (ivy::Shape{0, 5}));

  const Array w = input({9, 9}, DType::float32, 1.0, 3);
  auto through_matmul = [w](const std::vector<Array>& v) {
    const Array d = v[0] - ivy::max(v[0], -1, true);
    const Array y = ivy::matmul(d, w);
    return std::vector<Array>{ivy::sum(d + y, -1)};
  };
  ivy::CompiledFunction c(through_matmul);
  auto exe = c.executable({x});
  const auto got = exe->run({x});
  const auto want = through_matmul({x});
  EXPECT_TRUE(close(values(got[0]), values(want[0]), DType::float32, 8)) << exe->plan_str();
}

// A training step's gradient of a cross-entropy loss: its log-softmax row group and the
// elementwise groups of the backward pass depend on each other once each group runs as one
// unit, unless grouping counts every formed unit as one node (a walk node by node missed the
// paths through the row group, the schedule had a cycle and compile threw). The gradient
// against its closed form,
// (softmax(x w^T) - onehot(y))^T x / N, in long double.
TEST_P(RowFusion, CompilesTheGradientOfACrossEntropyLoss) {
  const std::int64_t N = 6, C = 5, F = 7;
  const Array x = input({N, F}, DType::float64, 2.0, 1), w = input({C, F}, DType::float64, 1.0, 2);
  const Array y = ivy::asarray(std::vector<std::int64_t>{0, 4, 2, 2, 1, 3}, ivy::Shape{N});
  auto loss = [](const std::vector<Array>& v) {
    return ivy::nn::cross_entropy(ivy::matmul(v[0], ivy::matrix_transpose(v[2])), v[1]);
  };
  auto vg = ivy::value_and_grad(ivy::MultiFn(loss), {2});
  ivy::TracedFn step = [vg](const std::vector<Array>& in) {
    auto [l, g] = vg(in);
    return std::vector<Array>{l, g[0]};
  };
  ivy::CompiledFunction compiled(step);
  const auto exe = compiled.executable({x, y, w});
  EXPECT_GE(exe->stats().fused_reductions, 1) << exe->plan_str();
  const auto got = exe->run({x, y, w});
  const auto want = step({x, y, w});
  EXPECT_TRUE(close(values(got[1]), values(want[1]), DType::float64, 16, 1e-3)) << exe->plan_str();
  const auto xv = values(x), wv = values(w), gv = values(got[1]);
  const std::int64_t labels[] = {0, 4, 2, 2, 1, 3};
  std::vector<double> closed(static_cast<std::size_t>(C * F), 0.0);
  for (std::int64_t n = 0; n < N; ++n) {
    long double logits[5], top = -1e300L, total = 0;
    for (std::int64_t c = 0; c < C; ++c) {
      logits[c] = 0;
      for (std::int64_t f = 0; f < F; ++f) logits[c] += static_cast<long double>(xv[n * F + f]) * wv[c * F + f];
      top = std::max(top, logits[c]);
    }
    for (std::int64_t c = 0; c < C; ++c) total += std::exp(logits[c] - top);
    for (std::int64_t c = 0; c < C; ++c) {
      const long double p = std::exp(logits[c] - top) / total - (c == labels[n] ? 1.0L : 0.0L);
      for (std::int64_t f = 0; f < F; ++f) closed[c * F + f] += static_cast<double>(p * xv[n * F + f] / N);
    }
  }
  EXPECT_TRUE(close(gv, closed, DType::float64, 64, 1e-3));
}

INSTANTIATE_TEST_SUITE_P(Backends, RowFusion, ::testing::ValuesIn(backend_names()),
                         [](const auto& info) { return info.param; });

}  // namespace

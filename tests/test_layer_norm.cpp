// The layer_norm primitive on every backend: its three outputs against the closed form
// computed here in double, its VJP (all three cotangents) against central differences, its
// JVP against the VJP, compiled against eager, the public nn::layer_norm on top of it, and
// its errors.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "ivy/compile.hpp"
#include "ivy/ivy.hpp"
#include "ivy/nn_functional.hpp"

namespace {

using ivy::Array;
using ivy::Shape;

std::vector<std::string> backend_names() {
  std::vector<std::string> n;
  for (auto b : ivy::available_backends()) n.push_back(b.name());
  return n;
}

ivy::attr::layer_norm ln_attrs(std::int64_t axis, double eps) {
  ivy::attr::layer_norm v;
  v.axis = axis;
  v.eps = eps;
  return v;
}
std::vector<Array> layer_norm_prim(const Array& x, std::int64_t axis, double eps) {
  return ivy::dispatch_multi(ivy::OpId::layer_norm, std::span<const Array>(&x, 1), ln_attrs(axis, eps));
}
std::vector<double> vals(const Array& x) { return ivy::astype(x, ivy::float64).to_vector<double>(); }

// x of shape (2, 3, 4) with distinct, uneven values
std::vector<double> sample() {
  std::vector<double> v(24);
  for (int i = 0; i < 24; ++i) v[static_cast<std::size_t>(i)] = std::sin(1.3 * i + 0.2) * (1.0 + 0.25 * (i % 5));
  return v;
}

class LayerNorm : public ::testing::TestWithParam<std::string> {
 protected:
  ivy::BackendScope scope_{ivy::Backend(GetParam())};
};

TEST_P(LayerNorm, OutputsMatchTheClosedForm) {
  const std::vector<double> xv = sample();
  for (ivy::DType dt : {ivy::float64, ivy::float32})
    for (std::int64_t axis : {1, 2}) {
      const double eps = 1e-3;
      const Array x = ivy::asarray(xv, Shape{2, 3, 4}, dt);
      const auto r = layer_norm_prim(x, axis, eps);
      ASSERT_EQ(r.size(), 3u);
      const Shape stats = axis == 1 ? Shape{2, 1, 1} : Shape{2, 3, 1};
      EXPECT_EQ(r[0].shape(), (Shape{2, 3, 4}));
      EXPECT_EQ(r[1].shape(), stats);
      EXPECT_EQ(r[2].shape(), stats);
      for (const Array& o : r) EXPECT_EQ(o.dtype(), dt);
      const std::size_t row = axis == 1 ? 12 : 4;
      const auto y = vals(r[0]), m = vals(r[1]), rs = vals(r[2]);
      const double tol = dt == ivy::float64 ? 1e-12 : 2e-6;
      for (std::size_t k = 0; k < 24 / row; ++k) {
        double mu = 0, var = 0;
        for (std::size_t i = 0; i < row; ++i) mu += xv[k * row + i];
        mu /= static_cast<double>(row);
        for (std::size_t i = 0; i < row; ++i) var += (xv[k * row + i] - mu) * (xv[k * row + i] - mu);
        var /= static_cast<double>(row);
        const double rstd = 1 / std::sqrt(var + eps);
        EXPECT_NEAR(m[k], mu, tol * 4) << "row " << k;
        EXPECT_NEAR(rs[k], rstd, tol * 4 * rstd) << "row " << k;
        for (std::size_t i = 0; i < row; ++i)
          EXPECT_NEAR(y[k * row + i], (xv[k * row + i] - mu) * rstd, tol * 8) << "row " << k << " element " << i;
      }
    }
}

// f(x) = sum(w0 * y) + sum(w1 * mean) + sum(w2 * rstd): every output's cotangent is used
Array weighted(const Array& x, std::int64_t axis) {
  const auto r = layer_norm_prim(x, axis, 1e-2);
  Array w0 = ivy::cos(ivy::arange(0.0, static_cast<double>(r[0].size()), 1.0, ivy::float64));
  Array w1 = ivy::arange(1.0, 1.0 + static_cast<double>(r[1].size()), 1.0, ivy::float64);
  Array w2 = ivy::arange(2.0, 2.0 + static_cast<double>(r[2].size()), 1.0, ivy::float64) * -0.5;
  return ivy::sum(ivy::reshape(w0, r[0].shape()) * r[0]) + ivy::sum(ivy::reshape(w1, r[1].shape()) * r[1]) +
         ivy::sum(ivy::reshape(w2, r[2].shape()) * r[2]);
}

TEST_P(LayerNorm, GradientMatchesCentralDifferences) {
  const std::vector<double> xv = sample();
  for (std::int64_t axis : {1, 2}) {
    const Array x = ivy::asarray(xv, Shape{2, 3, 4}, ivy::float64);
    auto f = [axis](const Array& v) { return weighted(v, axis); };
    const auto g = vals(ivy::grad(f)(x));
    const double h = 1e-6;
    for (std::size_t i = 0; i < xv.size(); ++i) {
      std::vector<double> up = xv, down = xv;
      up[i] += h;
      down[i] -= h;
      const double fd = (f(ivy::asarray(up, Shape{2, 3, 4}, ivy::float64)).item<double>() -
                         f(ivy::asarray(down, Shape{2, 3, 4}, ivy::float64)).item<double>()) /
                        (2 * h);
      EXPECT_NEAR(g[i], fd, 1e-6 * (1 + std::abs(fd))) << "axis " << axis << " element " << i;
    }
  }
}

TEST_P(LayerNorm, JvpMatchesTheGradient) {
  const std::vector<double> xv = sample();
  const Array x = ivy::asarray(xv, Shape{2, 3, 4}, ivy::float64);
  const Array t = ivy::cos(ivy::reshape(ivy::arange(0.0, 24.0, 1.0, ivy::float64), {2, 3, 4}) * 0.7);
  for (std::int64_t axis : {1, 2}) {
    auto f = [axis](const std::vector<Array>& v) { return std::vector<Array>{weighted(v[0], axis)}; };
    auto [outs, touts] = ivy::jvp(f, {x}, {t});
    const double want = ivy::sum(ivy::grad([axis](const Array& v) { return weighted(v, axis); })(x) * t).item<double>();
    EXPECT_NEAR(touts[0].item<double>(), want, 1e-10 * (1 + std::abs(want))) << "axis " << axis;
  }
}

TEST_P(LayerNorm, CompiledEqualsEager) {
  const Array x = ivy::asarray(sample(), Shape{2, 3, 4}, ivy::float32);
  auto fn = [](const Array& v) { return ivy::nn::layer_norm(v, Shape{4}) * 2.0 + 1.0; };
  const Array eager = fn(x);
  const Array compiled = ivy::compile(std::function<Array(const Array&)>(fn))(x);
  EXPECT_EQ(vals(compiled), vals(eager));
}

TEST_P(LayerNorm, PublicFunctionUsesThePrimitive) {
  // nn::layer_norm with weight and bias against the primitive's y, scaled and shifted
  const Array x = ivy::asarray(sample(), Shape{2, 3, 4}, ivy::float64);
  const Array w = ivy::asarray(std::vector<double>{0.5, -1.0, 2.0, 1.5}, Shape{4}, ivy::float64);
  const Array b = ivy::asarray(std::vector<double>{0.1, 0.2, -0.3, 0.0}, Shape{4}, ivy::float64);
  const auto got = vals(ivy::nn::layer_norm(x, Shape{4}, w, b, 1e-5));
  const auto y = vals(layer_norm_prim(x, 2, 1e-5)[0]);
  const double wv[4] = {0.5, -1.0, 2.0, 1.5}, bv[4] = {0.1, 0.2, -0.3, 0.0};
  for (std::size_t i = 0; i < 24; ++i) EXPECT_NEAR(got[i], y[i] * wv[i % 4] + bv[i % 4], 1e-12) << i;
  // and the graph of a traced call holds the one primitive
  const ivy::Graph g = ivy::trace([](const Array& v) { return ivy::nn::layer_norm(v, Shape{3, 4}); }, x);
  int count = 0;
  for (const auto& n : g.nodes) count += n.op == ivy::OpId::layer_norm;
  EXPECT_EQ(count, 1) << g;
}

TEST_P(LayerNorm, BadInputNamesTheFunction) {
  const Array x = ivy::ones({2, 3}, ivy::float32);
  auto message = [](auto&& call) -> std::string {
    try {
      call();
    } catch (const ivy::Error& e) {
      return e.what();
    }
    return "no error";
  };
  EXPECT_NE(message([&] { layer_norm_prim(x, 2, 1e-5); }).find("[layer_norm] axis 2 must be in [0, 2)"),
            std::string::npos);
  EXPECT_NE(message([&] { layer_norm_prim(x, 1, -1.0); }).find("[layer_norm] eps must be >= 0"), std::string::npos);
  EXPECT_NE(message([&] { layer_norm_prim(ivy::ones({2, 3}, ivy::int32), 1, 1e-5); }).find("[layer_norm]"),
            std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(Backends, LayerNorm, ::testing::ValuesIn(backend_names()),
                         [](const auto& info) { return info.param; });

}  // namespace

// ivy::nn linear, convolution and pooling functions against PyTorch (tests/fixtures/nn_conv.json
// from tests/gen_nn_conv_fixtures.py: forward outputs and the gradients of sum(out * c)),
// on every backend; the primitives' second derivatives against finite differences of their
// first; argument errors.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "ivy/ivy.hpp"
#include "ivy/nn_conv.hpp"
#include "fixture_file.hpp"

#ifndef IVY_FIXTURES_DIR
#error "define IVY_FIXTURES_DIR"
#endif

namespace {

using json = nlohmann::json;
using ivy::Array;
using ivy::Dims;
using ivy::Shape;

std::vector<std::string> backend_names() {
  std::vector<std::string> n;
  for (auto b : ivy::available_backends()) n.push_back(b.name());
  return n;
}

const json& cases() {
  static const auto f = ivy::test_fixtures::load_fixture("nn_conv.json", "gen_nn_conv_fixtures.py");
  return f.cases();
}

Array decode(const json& a, ivy::Backend b) {
  Shape s;
  for (auto d : a.at("shape")) s.push_back(d.get<std::int64_t>());
  std::vector<double> v = a.at("data").get<std::vector<double>>();
  return ivy::asarray(v.data(), ivy::float64, s, ivy::float64, ivy::Device{}, b);
}
std::vector<double> values(const Array& x) {
  Array c = ivy::astype(x, ivy::float64);
  return c.to_vector<double>();
}
Dims dims(const json& o, const char* key, Dims dflt) {
  if (!o.contains(key)) return dflt;
  Dims d;
  for (auto e : o.at(key)) d.push_back(e.get<std::int64_t>());
  return d;
}
ivy::nn::Padding padding(const json& o) {
  if (!o.contains("padding")) return {};
  if (o.at("padding").is_string()) return ivy::nn::Padding(o.at("padding").get<std::string>());
  return ivy::nn::Padding(dims(o, "padding", {}));
}

// The case's function of its inputs.
Array call(const json& c, const std::vector<Array>& in) {
  const std::string fn = c.at("fn");
  const json& o = c.at("opts");
  const Array none;
  const bool last = o.value("channels_last", false);
  if (fn == "linear") return ivy::nn::linear(in[0], in[1], in.size() > 2 ? in[2] : none);
  if (fn == "conv") {
    ivy::nn::ConvOptions co;
    co.strides = dims(o, "strides", {1});
    co.padding = padding(o);
    co.dilations = dims(o, "dilations", {1});
    co.groups = o.value("groups", 1);
    co.channels_last = last;
    return ivy::nn::conv(in[0], in[1], in.size() > 2 ? in[2] : none, co);
  }
  if (fn == "conv_transpose") {
    ivy::nn::ConvTransposeOptions co;
    co.strides = dims(o, "strides", {1});
    co.padding = dims(o, "padding", {0});
    co.output_padding = dims(o, "output_padding", {0});
    co.dilations = dims(o, "dilations", {1});
    co.groups = o.value("groups", 1);
    co.channels_last = last;
    return ivy::nn::conv_transpose(in[0], in[1], in.size() > 2 ? in[2] : none, co);
  }
  ivy::nn::PoolOptions po;
  po.strides = dims(o, "strides", {});
  po.padding = padding(o);
  po.dilations = dims(o, "dilations", {1});
  po.ceil_mode = o.value("ceil_mode", false);
  po.count_include_pad = o.value("count_include_pad", true);
  po.channels_last = last;
  if (fn == "max_pool") return ivy::nn::max_pool(in[0], dims(o, "window", {}), po);
  if (fn == "avg_pool") return ivy::nn::avg_pool(in[0], dims(o, "window", {}), po);
  if (fn == "adaptive_avg_pool") return ivy::nn::adaptive_avg_pool(in[0], dims(o, "output_size", {}), last);
  throw std::runtime_error("unknown fn " + fn);
}

void expect_close(const std::vector<double>& got, const json& want, double tol, const std::string& what) {
  std::vector<double> w = want.at("data").get<std::vector<double>>();
  ASSERT_EQ(got.size(), w.size()) << what;
  double scale = 1e-30;
  for (double v : w) scale = std::max(scale, std::abs(v));
  for (std::size_t i = 0; i < w.size(); ++i)
    ASSERT_NEAR(got[i], w[i], tol * scale) << what << " at flat index " << i;
}

class NnConv : public ::testing::TestWithParam<std::string> {};

TEST_P(NnConv, MatchesTorchForwardAndGradients) {
  ASSERT_FALSE(cases().empty()) << "tests/fixtures/nn_conv.json is missing (run tests/gen_nn_conv_fixtures.py)";
  ivy::Backend b(GetParam());
  for (const auto& c : cases()) {
    SCOPED_TRACE(c.at("name").get<std::string>());
    for (ivy::DType dt : {ivy::float64, ivy::float32}) {
      const double tol = dt == ivy::float64 ? 1e-12 : 2e-5;
      std::vector<Array> in;
      for (const auto& a : c.at("inputs")) in.push_back(ivy::astype(decode(a, b), dt));
      auto r = ivy::vjp([&](const std::vector<Array>& xs) { return std::vector<Array>{call(c, xs)}; }, in);
      EXPECT_EQ(r.outputs[0].dtype(), dt);
      expect_close(values(r.outputs[0]), c.at("out"), tol, "forward");
      auto g = r.vjp_fn({ivy::astype(decode(c.at("cot"), b), dt)});
      for (std::size_t i = 0; i < in.size(); ++i)
        expect_close(values(g[i]), c.at("grads")[i], tol, "gradient of input " + std::to_string(i));
    }
  }
}

// Second order: the VJP of each primitive's VJP, against central differences of the first
// VJP (float64), for conv with padding, stride, dilation and groups and for max_pool.
TEST_P(NnConv, SecondDerivativesMatchFiniteDifferences) {
  ivy::Backend b(GetParam());
  ivy::BackendScope scope(b);
  ivy::seed(7);
  Array x = ivy::random_uniform(-1.0, 1.0, Shape{2, 4, 5, 6}, ivy::float64);
  Array w = ivy::random_uniform(-1.0, 1.0, Shape{4, 2, 3, 2}, ivy::float64);
  Array c = ivy::random_uniform(-1.0, 1.0, Shape{2, 4, 2, 5}, ivy::float64);  // conv's output shape
  ivy::nn::ConvOptions o;
  o.strides = {2, 1};
  o.padding = std::vector<std::pair<std::int64_t, std::int64_t>>{{1, 0}, {0, 1}};
  o.dilations = {1, 2};
  o.groups = 2;
  // h(x, w): weighted squares of the gradients of <conv(x, w), c>, convT(c, w) and cwg(x, c)
  Array ax = ivy::random_uniform(-1.0, 1.0, x.shape(), ivy::float64);
  Array aw = ivy::random_uniform(-1.0, 1.0, w.shape(), ivy::float64);
  auto h = [&](const std::vector<Array>& v) {
    auto r = ivy::vjp([&](const std::vector<Array>& xs) {
      return std::vector<Array>{ivy::sum(ivy::multiply(ivy::nn::conv(xs[0], xs[1], Array(), o), c))};
    }, v);
    auto g = r.vjp_fn({ivy::ones_like(r.outputs[0])});
    // nonlinear in (x, w) through the squares
    return ivy::add(ivy::sum(ivy::multiply(ivy::square(g[0]), ax)), ivy::sum(ivy::multiply(ivy::square(g[1]), aw)));
  };
  auto grads = ivy::grad([&](const std::vector<Array>& v) { return h(v); }, {0, 1})({x, w});
  const double eps = 1e-6;
  int checked = 0;
  for (int which = 0; which < 2; ++which) {
    Array base = which == 0 ? x : w;
    std::vector<double> bv = values(base), gv = values(grads[static_cast<std::size_t>(which)]);
    for (std::size_t k = 0; k < bv.size(); k += 7) {
      auto at = [&](double d) {
        std::vector<double> p = bv;
        p[k] += d;
        Array pa = ivy::asarray(p.data(), ivy::float64, base.shape(), ivy::float64, ivy::Device{}, b);
        return values(which == 0 ? h({pa, w}) : h({x, pa}))[0];
      };
      const double fd = (at(eps) - at(-eps)) / (2 * eps);
      EXPECT_NEAR(gv[k], fd, 1e-6 * std::max(1.0, std::abs(fd))) << (which ? "w" : "x") << " element " << k;
      ++checked;
    }
  }
  EXPECT_GT(checked, 40);
  // max_pool: the gradient of sum(max_pool(x)^2) is 2 * max at each argmax; its own
  // derivative (the hessian-vector product with v) puts 2 v at the argmax positions
  Array xp = ivy::random_uniform(-1.0, 1.0, Shape{1, 2, 5, 5}, ivy::float64);
  Array v = ivy::random_uniform(-1.0, 1.0, xp.shape(), ivy::float64);
  auto pool_loss = [](const Array& t) { return ivy::sum(ivy::square(ivy::nn::max_pool(t, {3}, {.strides = {2}}))); };
  auto [outs, tans] = ivy::jvp([&](const std::vector<Array>& t) { return std::vector<Array>{ivy::grad(pool_loss)(t[0])}; },
                               {xp}, {v});
  auto fd_dir = [&](double d) { return values(ivy::grad(pool_loss)(ivy::add(xp, ivy::multiply(v, d)))); };
  std::vector<double> plus = fd_dir(1e-6), minus = fd_dir(-1e-6), hv = values(tans[0]);
  for (std::size_t k = 0; k < hv.size(); ++k) EXPECT_NEAR(hv[k], (plus[k] - minus[k]) / 2e-6, 1e-6);
}

TEST_P(NnConv, BadInputIsAClearError) {
  ivy::BackendScope scope{ivy::Backend(GetParam())};
  Array x = ivy::zeros(Shape{1, 3, 5, 5});
  auto msg = [](auto&& f) {
    try {
      f();
    } catch (const ivy::Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(msg([&] { ivy::nn::conv2d(x, ivy::zeros(Shape{4, 2, 3, 3})); }).find("[conv] weight of shape (4, 2, 3, 3) expects 2 input channels"),
            std::string::npos);
  EXPECT_NE(msg([&] { ivy::nn::conv2d(ivy::zeros(Shape{3, 5, 5}), ivy::zeros(Shape{4, 3, 3, 3})); }).find("[nn.conv2d] expects an input of rank 4"),
            std::string::npos);
  EXPECT_NE(msg([&] { ivy::nn::conv2d(x, ivy::zeros(Shape{4, 3, 7, 3})); }).find("[conv] the window spans 7 elements"),
            std::string::npos);
  EXPECT_NE(msg([&] { ivy::nn::conv2d(x, ivy::zeros(Shape{4, 3, 3, 3}), ivy::zeros(Shape{3})); }).find("[nn.conv2d] bias of shape (3,) must have shape (4,)"),
            std::string::npos);
  EXPECT_NE(msg([&] { ivy::nn::conv2d(x, ivy::zeros(Shape{4, 3, 3, 3}), Array(), {.strides = {1, 2, 3}}); }).find("[nn.conv2d] strides (1, 2, 3) must have 1 or 2 entries"),
            std::string::npos);
  EXPECT_NE(msg([&] { ivy::nn::conv2d(ivy::zeros(Shape{1, 3, 5, 5}, ivy::int64), ivy::zeros(Shape{4, 3, 3, 3}, ivy::int64)); }).find("[conv]"),
            std::string::npos);
  EXPECT_NE(msg([&] { ivy::nn::max_pool2d(x, {2}, {.padding = 2}); }).find("[max_pool] padding"), std::string::npos);
  EXPECT_NE(msg([&] { ivy::nn::conv2d(x, ivy::zeros(Shape{4, 3, 3, 3}), Array(), {.padding = "FULL"}); }).find("[nn.padding] unknown padding \"FULL\""),
            std::string::npos);
  EXPECT_NE(msg([&] { ivy::nn::linear(ivy::zeros(Shape{2, 3}), ivy::zeros(Shape{4, 5})); }).find("[nn.linear] input of shape (2, 3) must end in in_features = 5"),
            std::string::npos);
  EXPECT_NE(msg([&] { ivy::nn::conv_transpose2d(x, ivy::zeros(Shape{3, 2, 3, 3}), Array(), {.strides = {2}, .output_padding = {2}}); })
                .find("[nn.conv_transpose2d] output_padding (2, 2) must be smaller than the strides (2, 2)"),
            std::string::npos);
  EXPECT_NE(msg([&] { ivy::nn::scatter_add_flat(ivy::zeros(Shape{4}), ivy::asarray(std::vector<std::int64_t>{5}), ivy::ones(Shape{1})); })
                .find("[scatter_add]"),
            std::string::npos);
}

// Empty batches, and the values of simple cases by hand.
TEST_P(NnConv, EdgeCasesByHand) {
  ivy::BackendScope scope{ivy::Backend(GetParam())};
  Array y = ivy::nn::conv2d(ivy::zeros(Shape{0, 2, 5, 5}), ivy::ones(Shape{3, 2, 3, 3}));
  EXPECT_EQ(y.shape(), (Shape{0, 3, 3, 3}));
  // a 1-d ones kernel sums windows: [1 2 3 4] with k=2 -> [3 5 7]
  Array s = ivy::nn::conv1d(ivy::reshape(ivy::asarray(std::vector<double>{1, 2, 3, 4}), Shape{1, 1, 4}),
                            ivy::ones(Shape{1, 1, 2}, ivy::float64));
  EXPECT_EQ(values(s), (std::vector<double>{3, 5, 7}));
  // max_pool picks the first of equal maxima; the gradient goes there only
  Array t = ivy::reshape(ivy::asarray(std::vector<double>{2, 2, 1, 0}), Shape{1, 1, 4});
  auto [v, idx] = ivy::nn::max_pool_with_indices(t, {2});
  EXPECT_EQ(values(v), (std::vector<double>{2, 1}));
  EXPECT_EQ(idx.to_vector<std::int64_t>(), (std::vector<std::int64_t>{0, 2}));
  Array g = ivy::grad([](const Array& a) { return ivy::sum(ivy::nn::max_pool1d(a, {2})); })(t);
  EXPECT_EQ(values(g), (std::vector<double>{1, 0, 1, 0}));
  // a NaN in a window wins, at its position (both the NaN-free and the NaN-aware loops)
  Array tn = ivy::reshape(ivy::asarray(std::vector<double>{1, ivy::nan, 3, 2}), Shape{1, 1, 2, 2});
  auto [vn, in_] = ivy::nn::max_pool_with_indices(tn, {1, 2});
  std::vector<double> got = values(vn);
  EXPECT_TRUE(std::isnan(got[0]));
  EXPECT_EQ(got[1], 3.0);
  EXPECT_EQ(in_.to_vector<std::int64_t>(), (std::vector<std::int64_t>{1, 2}));
  auto [vp, ip] = ivy::nn::max_pool_with_indices(ivy::reshape(ivy::asarray(std::vector<double>{1, 4, 3, 2}), Shape{1, 1, 2, 2}), {1, 2});
  EXPECT_EQ(values(vp), (std::vector<double>{4, 3}));
  EXPECT_EQ(ip.to_vector<std::int64_t>(), (std::vector<std::int64_t>{1, 2}));
  // scatter_add accumulates repeats
  Array sa = ivy::nn::scatter_add_flat(ivy::zeros(Shape{3}, ivy::float64), ivy::asarray(std::vector<std::int64_t>{1, 1, 2}),
                                       ivy::asarray(std::vector<double>{1, 2, 3}));
  EXPECT_EQ(values(sa), (std::vector<double>{0, 3, 3}));
}

// Eager convolutions and their adjoints from several threads at once give each thread's own
// result (the kernels share no per-process scratch).
TEST_P(NnConv, ThreadsRunAtOnce) {
  const std::string be = GetParam();
  ivy::BackendScope scope{ivy::Backend(be)};
  ivy::seed(21);
  const Array w = ivy::random_uniform(-1.0, 1.0, {16, 8, 3, 3}, ivy::float32);
  std::vector<Array> xs, want, want_gx;
  auto loss = [&](const Array& x) { return ivy::sum(ivy::nn::conv(x, w, Array(), {{1}, 1}) * ivy::nn::conv(x, w, Array(), {{1}, 1})); };
  for (int t = 0; t < 4; ++t) {
    xs.push_back(ivy::random_uniform(-1.0, 1.0, {2, 8, 20, 20}, ivy::float32));
    want.push_back(ivy::nn::conv(xs.back(), w, Array(), {{1}, 1}));
    want_gx.push_back(ivy::grad(loss)(xs.back()));
  }
  std::vector<int> ok(4, 0);
  std::vector<std::thread> ts;
  for (int t = 0; t < 4; ++t)
    ts.emplace_back([&, t] {
      ivy::BackendScope s{ivy::Backend(be)};
      int good = 1;
      for (int r = 0; r < 10; ++r) {
        const auto i = static_cast<std::size_t>(t);
        good &= static_cast<int>(ivy::allclose(ivy::nn::conv(xs[i], w, Array(), {{1}, 1}), want[i], 1e-6, 1e-6));
        good &= static_cast<int>(ivy::allclose(ivy::grad(loss)(xs[i]), want_gx[i], 1e-5, 1e-4));
      }
      ok[static_cast<std::size_t>(t)] = good;
    });
  for (auto& t : ts) t.join();
  for (int t = 0; t < 4; ++t) EXPECT_EQ(ok[static_cast<std::size_t>(t)], 1) << t;
}

INSTANTIATE_TEST_SUITE_P(Backends, NnConv, ::testing::ValuesIn(backend_names()),
                         [](const auto& info) { return info.param; });

}  // namespace

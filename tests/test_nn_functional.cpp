// ivy::nn's composed functions (include/ivy/nn_functional.hpp) on every backend that was built.
//
// - NnFunctionalFixtures: each case of tests/fixtures/nn_functional.json (written by
//   tests/gen_nn_fixtures.py from PyTorch 1.13; see there for the format) runs the function
//   under ivy::vjp, compares every output with torch's and pulls the stored cotangent of the
//   first output back to the floating inputs torch differentiates. Tolerance relative to the
//   largest expected element of each array: 1e-10 in float64, 1e-5 in float32 (a case may
//   set "rtol"); NaN and infinities must match exactly.
// - NnFunctional: values from other sources (mpmath, closed forms), finiteness of gradients
//   at extreme inputs, forward mode against reverse mode, dropout's statistics and seeding,
//   running statistics by hand, and the error messages.
//
// Build with -DIVY_FIXTURES_DIR="\"/path/to/tests/fixtures\"".
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <numbers>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "ivy/ivy.hpp"
#include "ivy/nn_functional.hpp"
#include "fixture_file.hpp"

#ifndef IVY_FIXTURES_DIR
#error "define IVY_FIXTURES_DIR as the (quoted) folder that holds nn_functional.json"
#endif

namespace {

using json = nlohmann::json;
using ivy::Array;
using ivy::DType;
namespace nn = ivy::nn;

std::vector<std::string> backend_names() {
  std::vector<std::string> n;
  for (auto b : ivy::available_backends()) n.push_back(b.name());
  return n;
}

// ------------------------------------------------------------------ fixture loading
using Fixtures = ivy::test_fixtures::Fixture;
const Fixtures& fixtures() {
  static const Fixtures f = ivy::test_fixtures::load_fixture("nn_functional.json", "gen_nn_fixtures.py");
  return f;
}

double num_of(const json& v) {
  if (v.is_string()) {
    const std::string s = v.get<std::string>();
    if (s == "nan") return std::numeric_limits<double>::quiet_NaN();
    if (s == "inf") return std::numeric_limits<double>::infinity();
    if (s == "-inf") return -std::numeric_limits<double>::infinity();
    throw std::invalid_argument("bad number " + s);
  }
  return v.get<double>();
}

ivy::Shape shape_of(const json& spec) {
  std::vector<std::int64_t> s = spec.at("shape").get<std::vector<std::int64_t>>();
  return ivy::Shape(s.begin(), s.end());
}

// An array of the fixture on the current (scoped) backend.
Array decode(const json& spec) {
  const DType d = ivy::dtype_from_name(spec.at("dtype").get<std::string>());
  const ivy::Shape s = shape_of(spec);
  const json& data = spec.at("data");
  if (ivy::is_integer(d)) {
    std::vector<std::int64_t> v;
    for (const json& e : data) v.push_back(e.get<std::int64_t>());
    return ivy::asarray(v, s, d);
  }
  std::vector<double> v;
  for (const json& e : data) v.push_back(num_of(e));
  return ivy::asarray(v, s, d);  // float32: the stored value is exactly a float32
}

std::vector<double> host(const Array& x) { return ivy::astype(x, DType::float64).to_vector<double>(); }

// Empty string when x matches spec (shape, dtype, values within rtol of the largest |value|).
std::string compare(const Array& x, const json& spec, double rtol) {
  if (!x.defined()) return "undefined result";
  const ivy::Shape s = shape_of(spec);
  const DType d = ivy::dtype_from_name(spec.at("dtype").get<std::string>());
  if (!(x.shape() == s)) return "shape " + x.shape().str() + ", expected " + s.str();
  if (x.dtype() != d) return std::string("dtype ") + ivy::dtype_name(x.dtype()) + ", expected " + ivy::dtype_name(d);
  std::vector<double> a = host(x);
  std::vector<double> e;
  for (const json& v : spec.at("data")) e.push_back(num_of(v));
  double scale = 0;
  for (double v : e)
    if (std::isfinite(v)) scale = std::max(scale, std::abs(v));
  const double tol = rtol * std::max(scale, 1e-300);
  for (std::size_t i = 0; i < e.size(); ++i) {
    const bool ok = std::isnan(e[i]) ? std::isnan(a[i])
                    : std::isinf(e[i]) ? a[i] == e[i]
                                       : std::abs(a[i] - e[i]) <= tol;
    if (!ok) {
      char buf[160];
      std::snprintf(buf, sizeof buf, "element %zu: got %.17g, expected %.17g (tolerance %.3g)", i, a[i], e[i], tol);
      return buf;
    }
  }
  return "";
}

// ------------------------------------------------------------------ the functions by name
using In = std::map<std::string, Array>;
using Fn = std::function<std::vector<Array>(const In&, const json&)>;

Array get(const In& in, const char* name) {
  auto it = in.find(name);
  return it == in.end() ? Array() : it->second;
}
nn::Reduction reduction_of(const json& p) {
  const std::string r = p.value("reduction", std::string("mean"));
  if (r == "none") return nn::Reduction::None;
  if (r == "sum") return nn::Reduction::Sum;
  if (r == "batchmean") return nn::Reduction::BatchMean;
  return nn::Reduction::Mean;
}
std::vector<Array> norm_outputs(const nn::NormResult& r, const In& in) {
  if (!get(in, "running_mean").defined()) return {r.output};
  return {r.output, r.running_mean, r.running_var};
}

const std::map<std::string, Fn>& functions() {
  static const std::map<std::string, Fn> t = {
      {"relu", [](const In& in, const json&) { return std::vector{nn::relu(in.at("x"))}; }},
      {"leaky_relu",
       [](const In& in, const json& p) {
         return std::vector{nn::leaky_relu(in.at("x"), p.value("negative_slope", 0.01))};
       }},
      {"elu", [](const In& in, const json& p) { return std::vector{nn::elu(in.at("x"), p.value("alpha", 1.0))}; }},
      {"gelu",
       [](const In& in, const json& p) { return std::vector{nn::gelu(in.at("x"), p.value("approximate", false))}; }},
      {"silu", [](const In& in, const json&) { return std::vector{nn::silu(in.at("x"))}; }},
      {"softplus",
       [](const In& in, const json& p) {
         return std::vector{nn::softplus(in.at("x"), p.value("beta", 1.0), p.value("threshold", 20.0))};
       }},
      {"sigmoid", [](const In& in, const json&) { return std::vector{nn::sigmoid(in.at("x"))}; }},
      {"hard_sigmoid", [](const In& in, const json&) { return std::vector{nn::hard_sigmoid(in.at("x"))}; }},
      {"hardswish", [](const In& in, const json&) { return std::vector{nn::hardswish(in.at("x"))}; }},
      {"mish", [](const In& in, const json&) { return std::vector{nn::mish(in.at("x"))}; }},
      {"softmax",
       [](const In& in, const json& p) { return std::vector{nn::softmax(in.at("x"), p.value("axis", -1))}; }},
      {"log_softmax",
       [](const In& in, const json& p) { return std::vector{nn::log_softmax(in.at("x"), p.value("axis", -1))}; }},
      {"cross_entropy",
       [](const In& in, const json& p) {
         nn::CrossEntropyOptions o;
         o.weight = get(in, "weight");
         o.ignore_index = p.value("ignore_index", std::int64_t{-100});
         o.label_smoothing = p.value("label_smoothing", 0.0);
         o.reduction = reduction_of(p);
         return std::vector{nn::cross_entropy(in.at("x"), in.at("target"), o)};
       }},
      {"nll_loss",
       [](const In& in, const json& p) {
         return std::vector{nn::nll_loss(in.at("x"), in.at("target"), get(in, "weight"),
                                         p.value("ignore_index", std::int64_t{-100}), reduction_of(p))};
       }},
      {"binary_cross_entropy",
       [](const In& in, const json& p) {
         return std::vector{nn::binary_cross_entropy(in.at("x"), in.at("target"), get(in, "weight"), reduction_of(p))};
       }},
      {"binary_cross_entropy_with_logits",
       [](const In& in, const json& p) {
         nn::BceWithLogitsOptions o{get(in, "weight"), get(in, "pos_weight"), reduction_of(p)};
         return std::vector{nn::binary_cross_entropy_with_logits(in.at("x"), in.at("target"), o)};
       }},
      {"mse_loss",
       [](const In& in, const json& p) { return std::vector{nn::mse_loss(in.at("x"), in.at("target"), reduction_of(p))}; }},
      {"l1_loss",
       [](const In& in, const json& p) { return std::vector{nn::l1_loss(in.at("x"), in.at("target"), reduction_of(p))}; }},
      {"huber_loss",
       [](const In& in, const json& p) {
         return std::vector{nn::huber_loss(in.at("x"), in.at("target"), p.value("delta", 1.0), reduction_of(p))};
       }},
      {"smooth_l1_loss",
       [](const In& in, const json& p) {
         return std::vector{nn::smooth_l1_loss(in.at("x"), in.at("target"), p.value("beta", 1.0), reduction_of(p))};
       }},
      {"kl_div",
       [](const In& in, const json& p) {
         return std::vector{nn::kl_div(in.at("x"), in.at("target"), reduction_of(p), p.value("log_target", false))};
       }},
      {"batch_norm",
       [](const In& in, const json& p) {
         return norm_outputs(nn::batch_norm(in.at("x"), get(in, "running_mean"), get(in, "running_var"),
                                            get(in, "weight"), get(in, "bias"), p.value("training", false),
                                            p.value("momentum", 0.1), p.value("eps", 1e-5),
                                            p.value("channel_axis", std::int64_t{1})),
                             in);
       }},
      {"layer_norm",
       [](const In& in, const json& p) {
         std::vector<std::int64_t> ns = p.at("normalized_shape").get<std::vector<std::int64_t>>();
         return std::vector{nn::layer_norm(in.at("x"), ivy::Dims(ns.begin(), ns.end()), get(in, "weight"),
                                           get(in, "bias"), p.value("eps", 1e-5))};
       }},
      {"group_norm",
       [](const In& in, const json& p) {
         return std::vector{nn::group_norm(in.at("x"), p.at("num_groups").get<std::int64_t>(), get(in, "weight"),
                                           get(in, "bias"), p.value("eps", 1e-5),
                                           p.value("channel_axis", std::int64_t{1}))};
       }},
      {"instance_norm",
       [](const In& in, const json& p) {
         return norm_outputs(nn::instance_norm(in.at("x"), get(in, "running_mean"), get(in, "running_var"),
                                               get(in, "weight"), get(in, "bias"), p.value("use_input_stats", true),
                                               p.value("momentum", 0.1), p.value("eps", 1e-5),
                                               p.value("channel_axis", std::int64_t{1})),
                             in);
       }},
      {"embedding",
       [](const In& in, const json&) { return std::vector{nn::embedding(in.at("indices"), in.at("weight"))}; }},
      {"one_hot",
       [](const In& in, const json& p) {
         return std::vector{nn::one_hot(in.at("indices"), p.value("num_classes", std::int64_t{-1}))};
       }},
  };
  return t;
}

// One fixture case on the current backend; empty when it matches.
std::string run_case(const json& c) {
  const std::string fn_name = c.at("fn").get<std::string>();
  auto it = functions().find(fn_name);
  if (it == functions().end()) return "unknown fn " + fn_name;
  const Fn& fn = it->second;
  const json& params = c.at("params");
  In in;
  for (auto& [k, v] : c.at("inputs").items()) in[k] = decode(v);
  const json& outs = c.at("outputs");
  const DType d0 = ivy::dtype_from_name(outs.at(0).at("dtype").get<std::string>());
  const double rtol = c.value("rtol", d0 == DType::float32 ? 1e-5 : 1e-10);

  std::vector<std::string> names;  // the inputs torch differentiated
  for (auto& [k, v] : c.at("grads").items()) names.push_back(k);
  std::vector<Array> primals;
  for (auto& n : names) primals.push_back(in.at(n));
  auto f = [&](const std::vector<Array>& xs) {
    In local = in;
    for (std::size_t i = 0; i < names.size(); ++i) local[names[i]] = xs[i];
    return fn(local, params);
  };
  ivy::VjpResult r = ivy::vjp(f, primals);
  if (r.outputs.size() != outs.size())
    return std::to_string(r.outputs.size()) + " outputs, expected " + std::to_string(outs.size());
  for (std::size_t k = 0; k < outs.size(); ++k)
    if (std::string m = compare(r.outputs[k], outs[k], rtol); !m.empty()) return "output " + std::to_string(k) + ": " + m;
  if (names.empty()) return "";
  std::vector<Array> cots(r.outputs.size());
  cots[0] = decode(c.at("cotangent"));
  std::vector<Array> g = r.vjp_fn(cots);
  for (std::size_t i = 0; i < names.size(); ++i)
    if (std::string m = compare(g[i], c.at("grads").at(names[i]), rtol); !m.empty())
      return "gradient of " + names[i] + ": " + m;
  return "";
}

class NnFunctionalFixtures : public ::testing::TestWithParam<std::string> {};

TEST_P(NnFunctionalFixtures, MatchTorch) {
  const Fixtures& fx = fixtures();
  ASSERT_TRUE(fx.error.empty()) << fx.error;
  ivy::BackendScope scope(GetParam().c_str());
  int n = 0;
  std::map<std::string, int> per_fn;
  for (const json& c : fx.doc.at("cases")) {
    const std::string name = c.at("name").get<std::string>();
    std::string m;
    try {
      m = run_case(c);
    } catch (const std::exception& e) {
      m = std::string("threw: ") + e.what();
    }
    EXPECT_TRUE(m.empty()) << "case " << name << ": " << m;
    ++n;
    ++per_fn[c.at("fn").get<std::string>()];
  }
  // every function of the table has cases (and the file was not truncated)
  EXPECT_GE(n, 250);
  for (auto& [fn, unused] : functions()) EXPECT_GT(per_fn[fn], 0) << "no fixture case for " << fn;
}

INSTANTIATE_TEST_SUITE_P(Backends, NnFunctionalFixtures, ::testing::ValuesIn(backend_names()),
                         [](const auto& info) { return info.param; });

// ------------------------------------------------------------------ hand-checked values
class NnFunctional : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override { scope_ = std::make_unique<ivy::BackendScope>(GetParam().c_str()); }
  void TearDown() override { scope_.reset(); }
  std::unique_ptr<ivy::BackendScope> scope_;
};

Array f64(std::vector<double> v) { return ivy::asarray(v); }

// d/dx sum(f(x) * c) via ivy::grad.
Array grad_of(const std::function<Array(const Array&)>& f, const Array& x) {
  return ivy::grad([&](const Array& a) { return ivy::sum(f(a)); })(x);
}

TEST_P(NnFunctional, GeluTailsMatchMpmath) {
  // x Phi(x) and Phi(x) + x phi(x) at 40 digits (mpmath), where torch's 1 + erf(x / sqrt 2)
  // has lost most digits: the exact gelu keeps ~1e-12 relative accuracy out to x = -35.
  const std::vector<double> x = {-3, -6, -10, -20, -35, 4, 0.3};
  const std::vector<double> y = {-0.0040496940948902836, -5.9195258702261888e-9, -7.6198530241605261e-23,
                                 -5.5072482372124674e-88, -3.9371874726534219e-267, 3.9998733150326675,
                                 0.18537342665668578};
  const std::vector<double> dy = {-0.011945647204183927, -3.5468709453902015e-8, -7.6184000964648141e-22,
                                  -1.1014360483133464e-86, -1.3780137862911361e-265, 1.0005036496612264,
                                  0.73232776682710985};
  Array xs = f64(x);
  std::vector<double> got = host(nn::gelu(xs));
  std::vector<double> gd = host(grad_of([](const Array& a) { return nn::gelu(a); }, xs));
  for (std::size_t i = 0; i < x.size(); ++i) {
    EXPECT_NEAR(got[i], y[i], 1e-12 * std::abs(y[i])) << "gelu(" << x[i] << ")";
    EXPECT_NEAR(gd[i], dy[i], 1e-11 * std::abs(dy[i])) << "gelu'(" << x[i] << ")";
  }
}

// erf against the C library's (correctly rounded to within an ulp or two) over the series,
// the switch at 0.5 and the tail; its derivative against 2 / sqrt(pi) e^(-x^2).
TEST_P(NnFunctional, ErfMatchesTheCLibrary) {
  std::vector<double> x = {0.0, -0.0, 1e-300, 1e-8, -0.1, 0.3, 0.49999, 0.5, -0.50001, 0.9, -1.7, 2.5, 4.0, -6.0, 27.0};
  Array xs = f64(x);
  const std::vector<double> got = host(nn::erf(xs));
  const std::vector<double> gd = host(grad_of([](const Array& a) { return nn::erf(a); }, xs));
  for (std::size_t i = 0; i < x.size(); ++i) {
    EXPECT_NEAR(got[i], std::erf(x[i]), 2e-14 * std::abs(std::erf(x[i])) + 1e-300) << "erf(" << x[i] << ")";
    const double d = 2.0 / std::sqrt(std::numbers::pi) * std::exp(-x[i] * x[i]);
    EXPECT_NEAR(gd[i], d, 1e-12 * d + 1e-300) << "erf'(" << x[i] << ")";
  }
  const std::vector<double> f = host(nn::erf(ivy::astype(xs, DType::float32)));
  for (std::size_t i = 0; i < x.size(); ++i)
    EXPECT_NEAR(f[i], std::erf(static_cast<float>(x[i])), 3e-7 * std::abs(std::erf(x[i])) + 1e-37) << x[i];
  EXPECT_TRUE(std::isnan(host(nn::erf(f64({ivy::nan})))[0]));
  EXPECT_EQ(host(nn::erf(f64({ivy::inf, -ivy::inf}))), (std::vector<double>{1.0, -1.0}));
  EXPECT_THROW(nn::erf(ivy::asarray({1, 2})), ivy::TypeError);
}

TEST_P(NnFunctional, ExtremeInputsGiveFiniteGradients) {
  for (DType d : {DType::float32, DType::float64}) {
    Array x = ivy::asarray(std::vector<double>{-1000, -100, -30, 0, 30, 100, 1000}, std::nullopt, d);
    const std::vector<std::pair<const char*, std::function<Array(const Array&)>>> fs = {
        {"sigmoid", [](const Array& a) { return nn::sigmoid(a); }},
        {"softplus", [](const Array& a) { return nn::softplus(a); }},
        {"softplus beta 3", [](const Array& a) { return nn::softplus(a, 3.0); }},
        {"silu", [](const Array& a) { return nn::silu(a); }},
        {"mish", [](const Array& a) { return nn::mish(a); }},
        {"elu", [](const Array& a) { return nn::elu(a); }},
        {"gelu", [](const Array& a) { return nn::gelu(a); }},
        {"gelu tanh", [](const Array& a) { return nn::gelu(a, true); }},
        {"log_softmax", [](const Array& a) { return nn::log_softmax(a); }},
        {"softmax", [](const Array& a) { return nn::softmax(a) * ivy::arange(0, 7, 1, a.dtype()); }},
        {"bce_with_logits",
         [](const Array& a) { return nn::binary_cross_entropy_with_logits(a, ivy::full_like(a, 0.25)); }},
    };
    for (auto& [name, f] : fs) {
      for (double v : host(f(x))) EXPECT_TRUE(std::isfinite(v)) << name << " value, " << ivy::dtype_name(d);
      for (double v : host(grad_of(f, x))) EXPECT_TRUE(std::isfinite(v)) << name << " gradient, " << ivy::dtype_name(d);
    }
  }
  // closed forms in float64: sigmoid(-100) = e^-100 / (1 + e^-100), log_softmax keeps -1000
  std::vector<double> s = host(nn::sigmoid(f64({-100, 100})));
  EXPECT_NEAR(s[0], std::exp(-100.0) / (1 + std::exp(-100.0)), 1e-15 * std::exp(-100.0));
  EXPECT_EQ(s[1], 1.0);
  std::vector<double> ls = host(nn::log_softmax(f64({0, -1000})));
  EXPECT_EQ(ls[0], 0.0);
  EXPECT_EQ(ls[1], -1000.0);
  std::vector<double> sp = host(nn::softplus(f64({-100, 100})));
  EXPECT_NEAR(sp[0], std::exp(-100.0), 1e-15 * std::exp(-100.0));
  EXPECT_EQ(sp[1], 100.0);
}

TEST_P(NnFunctional, ForwardModeMatchesReverseMode) {
  // jvp(t) == <grad, t> for a random tangent: forward mode differentiates the same forms
  // (binary_cross_entropy: through its forward, its custom VJP being reverse-only).
  Array x = f64({-2.5, -0.3, 0.0, 0.7, 3.1, 12.0});
  Array t = f64({0.3, -1.1, 0.4, 0.9, -0.2, 0.5});
  Array tgt = f64({0.1, 0.9, 0.5, 0.3, 1.0, 0.0});
  const std::vector<std::pair<const char*, std::function<Array(const Array&)>>> fs = {
      {"gelu", [](const Array& a) { return ivy::sum(nn::gelu(a) * a); }},
      {"sigmoid", [](const Array& a) { return ivy::sum(nn::sigmoid(a) * a); }},
      {"mish", [](const Array& a) { return ivy::sum(nn::mish(a) * a); }},
      {"log_softmax", [](const Array& a) { return ivy::sum(nn::log_softmax(a) * a); }},
      {"bce", [&](const Array& a) { return nn::binary_cross_entropy(nn::sigmoid(a), tgt); }},
      {"layer_norm", [](const Array& a) { return ivy::sum(nn::layer_norm(a, {6}) * ivy::exp(a * 0.1)); }},
  };
  for (auto& [name, f] : fs) {
    auto [outs, tangents] = ivy::jvp([&](const std::vector<Array>& v) { return std::vector{f(v[0])}; }, {x}, {t});
    const double fwd = tangents[0].item<double>();
    const double rev = ivy::sum(grad_of(f, x) * t).item<double>();
    EXPECT_NEAR(fwd, rev, 1e-12 * std::max(1.0, std::abs(rev))) << name;
  }
}

// Central differences of a scalar function of a float64 array.
std::vector<double> numeric_grad(const std::function<Array(const Array&)>& f, const Array& x, double h = 1e-6) {
  std::vector<double> v = host(x), g(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) {
    std::vector<double> up = v, dn = v;
    up[i] += h;
    dn[i] -= h;
    g[i] = (f(ivy::asarray(up, x.shape())).item<double>() - f(ivy::asarray(dn, x.shape())).item<double>()) / (2 * h);
  }
  return g;
}

TEST_P(NnFunctional, GradientsTorchDoesNotGiveMatchFiniteDifferences) {
  // torch refuses to differentiate class weights and pos_weight; ivy differentiates the
  // composition, weighted-mean denominator included
  Array logits = ivy::reshape(f64({0.3, -1.2, 2.0, 0.5, 0.1, -0.4, 1.1, 0.9, -2.0, 0.0, 0.7, 1.6}), {4, 3});
  Array idx = ivy::asarray(std::vector<std::int64_t>{2, -100, 0, 1}, ivy::Shape{4});
  Array w = f64({0.5, 1.5, 2.0});
  const std::vector<std::pair<const char*, std::function<Array(const Array&)>>> fs = {
      {"cross_entropy weight (mean, smoothing, ignore)",
       [&](const Array& a) { return nn::cross_entropy(logits, idx, {.weight = a, .label_smoothing = 0.3}); }},
      {"nll_loss weight (mean)", [&](const Array& a) { return nn::nll_loss(nn::log_softmax(logits), idx, a); }},
      {"binary_cross_entropy weight",
       [&](const Array& a) { return nn::binary_cross_entropy(nn::sigmoid(logits), nn::softmax(logits), a); }},
      {"bce_with_logits pos_weight",
       [&](const Array& a) { return nn::binary_cross_entropy_with_logits(logits, nn::softmax(logits), Array(), a); }},
  };
  for (auto& [name, f] : fs) {
    std::vector<double> g = host(ivy::grad(f)(w)), n = numeric_grad(f, w);
    for (std::size_t i = 0; i < g.size(); ++i) EXPECT_NEAR(g[i], n[i], 1e-7 * std::max(1.0, std::abs(n[i]))) << name;
  }
}

TEST_P(NnFunctional, KinksFollowTorch) {
  // hand-derived one-sided choices torch makes (also in the fixtures)
  Array x = f64({0.0, -3.0, 3.0});
  auto g = [&](std::function<Array(const Array&)> f) { return host(grad_of(f, x)); };
  EXPECT_EQ(g([](const Array& a) { return nn::relu(a); }), (std::vector<double>{0, 0, 1}));
  EXPECT_EQ(g([](const Array& a) { return nn::leaky_relu(a, 0.2); }), (std::vector<double>{0.2, 0.2, 1}));
  EXPECT_EQ(g([](const Array& a) { return nn::elu(a, 1.5); })[0], 1.5);
  EXPECT_EQ(g([](const Array& a) { return nn::hard_sigmoid(a); }), (std::vector<double>{1.0 / 6, 0, 0}));
  EXPECT_EQ(g([](const Array& a) { return nn::hardswish(a); }), (std::vector<double>{0.5, -0.5, 1.0}));
  EXPECT_EQ(host(grad_of([](const Array& a) { return nn::smooth_l1_loss(a, ivy::zeros_like(a), 0.0, nn::Reduction::Sum); }, x)),
            (std::vector<double>{0, -1, 1}));  // beta 0: l1's convention (torch: -1 at 0)
  EXPECT_EQ(host(grad_of([](const Array& a) { return nn::l1_loss(a, ivy::zeros_like(a), nn::Reduction::Sum); }, x)),
            (std::vector<double>{0, -1, 1}));
  EXPECT_EQ(host(nn::relu(f64({std::nan(""), -1.0, 2.0})))[2], 2.0);
  EXPECT_TRUE(std::isnan(host(nn::relu(f64({std::nan("")})))[0]));
}

TEST_P(NnFunctional, BatchNormRunningStatisticsByHand) {
  // one channel, values 1 and 3: mean 2, biased variance 1, unbiased 2
  Array x = ivy::reshape(f64({1.0, 3.0}), {2, 1});
  auto r = nn::batch_norm(x, f64({0.0}), f64({1.0}), {}, {}, /*training=*/true, 0.1, 1e-5);
  EXPECT_NEAR(r.running_mean.item<double>(), 0.2, 1e-15);
  EXPECT_NEAR(r.running_var.item<double>(), 0.9 + 0.1 * 2.0, 1e-15);
  std::vector<double> y = host(r.output);
  EXPECT_NEAR(y[0], -1.0 / std::sqrt(1.0 + 1e-5), 1e-15);
  EXPECT_NEAR(y[1], 1.0 / std::sqrt(1.0 + 1e-5), 1e-15);
  // eval mode: the running statistics, unchanged, and no gradient flows into them
  Array rm = f64({0.5}), rv = f64({4.0});
  auto e = nn::batch_norm(x, rm, rv, {}, {}, false);
  EXPECT_TRUE(ivy::array_equal(e.running_mean, rm));
  EXPECT_NEAR(host(e.output)[1], 2.5 / std::sqrt(4.0 + 1e-5), 1e-15);
  auto gs = ivy::grad(
      [&](const std::vector<Array>& v) {
        auto t = nn::batch_norm(x, v[0], v[1], {}, {}, true);
        return ivy::sum(t.running_mean) + ivy::sum(t.running_var) + ivy::sum(t.output * x);
      },
      {0, 1})({rm, rv});
  EXPECT_EQ(host(gs[0])[0], 0.0);
  EXPECT_EQ(host(gs[1])[0], 0.0);
  // instance_norm: running mean over the batch of per-instance statistics
  Array xi = ivy::reshape(f64({0, 2, 1, 5}), {2, 1, 2});  // instances (0, 2), (1, 5)
  auto ri = nn::instance_norm(xi, f64({0.0}), f64({0.0}), {}, {}, true, 0.5);
  EXPECT_NEAR(ri.running_mean.item<double>(), 0.5 * (1.0 + 3.0) / 2, 1e-15);
  EXPECT_NEAR(ri.running_var.item<double>(), 0.5 * (2.0 + 8.0) / 2, 1e-15);  // unbiased: 2 and 8
}

TEST_P(NnFunctional, DropoutStatisticsAndSeeds) {
  const std::int64_t n = 200000;
  for (DType d : {DType::float32, DType::float64}) {
    Array x = ivy::ones({n}, d);
    for (double p : {0.1, 0.5, 0.8}) {
      Array y = nn::dropout(x, p, true, 1234u);
      std::vector<double> v = host(y);
      const double scale = d == DType::float32 ? static_cast<double>(static_cast<float>(1.0 / (1.0 - p))) : 1.0 / (1.0 - p);
      std::int64_t kept = 0;
      for (double e : v) {
        if (e != 0.0) {
          ++kept;
          ASSERT_EQ(e, scale) << "kept values are scaled by 1 / (1 - p)";
        }
      }
      const double frac = static_cast<double>(kept) / static_cast<double>(n);
      const double sigma = std::sqrt(p * (1 - p) / static_cast<double>(n));
      EXPECT_NEAR(frac, 1 - p, 5 * sigma) << "p = " << p;
      // same seed, same mask; another seed, another mask; masks independent of the data
      EXPECT_TRUE(ivy::array_equal(nn::dropout(x, p, true, 1234u), y));
      EXPECT_FALSE(ivy::array_equal(nn::dropout(x, p, true, 1235u), y));
      EXPECT_FALSE(ivy::array_equal(nn::dropout(x, p, true, 1234ull << 32), y));
      // unseeded: the backend's generator, reproducible after ivy::seed
      ivy::seed(7);
      Array u1 = nn::dropout(x, p, true);
      ivy::seed(7);
      Array u2 = nn::dropout(x, p, true);
      EXPECT_TRUE(ivy::array_equal(u1, u2));
      std::int64_t ukept = 0;
      for (double e : host(u1)) ukept += e != 0.0;
      EXPECT_NEAR(static_cast<double>(ukept) / static_cast<double>(n), 1 - p, 5 * sigma);
    }
    // consecutive elements are not correlated: P(both kept) = (1 - p)^2 for p = 0.5
    std::vector<double> v = host(nn::dropout(x, 0.5, true, 99u));
    std::int64_t both = 0;
    for (std::int64_t i = 0; i + 1 < n; ++i) both += v[static_cast<std::size_t>(i)] != 0 && v[static_cast<std::size_t>(i + 1)] != 0;
    EXPECT_NEAR(static_cast<double>(both) / static_cast<double>(n - 1), 0.25, 0.01);
  }
  Array x = f64({1.0, -2.0, 3.0, std::nan("")});
  std::vector<double> id = host(nn::dropout(x, 0.5, false));
  EXPECT_EQ(id[1], -2.0);
  id = host(nn::dropout(x, 0.0, true));
  EXPECT_EQ(id[2], 3.0);
  std::vector<double> z = host(nn::dropout(x, 1.0, true));
  EXPECT_EQ(z[0], 0.0);
  EXPECT_EQ(z[1], 0.0);
  EXPECT_TRUE(std::isnan(z[3]));  // x * 0, as torch
  // the gradient is the scaled mask: no gradient flows into the mask itself
  Array xs = ivy::reshape(ivy::linspace(0.5, 2.0, 64), {8, 8});
  Array g = grad_of([](const Array& a) { return nn::dropout(a, 0.25, true, 5u) * 3.0; }, xs);
  std::vector<double> out = host(nn::dropout(xs, 0.25, true, 5u)), gv = host(g);
  for (std::size_t i = 0; i < out.size(); ++i) EXPECT_EQ(gv[i], out[i] != 0.0 ? 3.0 / 0.75 : 0.0);
}

TEST(NnFunctionalCrossBackend, SeededDropoutIsTheSameOnEveryBackend) {
  std::vector<std::string> names = backend_names();
  if (names.size() < 2) GTEST_SKIP() << "one backend built";
  std::vector<double> ref;
  for (auto& b : names) {
    Array x = ivy::ones({3, 1000}, DType::float32, {}, b.c_str());
    std::vector<double> v = host(nn::dropout(x, 0.3, true, 42u));
    if (ref.empty())
      ref = v;
    else
      EXPECT_EQ(v, ref) << b;
  }
}

TEST_P(NnFunctional, EmbeddingAndOneHot) {
  Array w = ivy::reshape(ivy::arange(0.0, 12.0), {4, 3});
  Array idx = ivy::asarray(std::vector<std::int64_t>{3, 0, 3}, ivy::Shape{3});
  EXPECT_EQ(host(nn::embedding(idx, w)), (std::vector<double>{9, 10, 11, 0, 1, 2, 9, 10, 11}));
  Array gw = grad_of([&](const Array& a) { return nn::embedding(idx, a); }, w);
  EXPECT_EQ(host(gw), (std::vector<double>{1, 1, 1, 0, 0, 0, 0, 0, 0, 2, 2, 2}));
  Array oh = nn::one_hot(ivy::asarray(std::vector<std::int64_t>{2, 0}, ivy::Shape{2}), 4, DType::int32);
  EXPECT_EQ(oh.dtype(), DType::int32);
  EXPECT_EQ(oh.shape(), (ivy::Shape{2, 4}));
  EXPECT_EQ(host(oh), (std::vector<double>{0, 0, 1, 0, 1, 0, 0, 0}));
  EXPECT_EQ(nn::one_hot(ivy::zeros({0}, DType::int64), 3).shape(), (ivy::Shape{0, 3}));
}

TEST_P(NnFunctional, EmptyBatchMeanIsNaN) {
  Array x = ivy::zeros({0, 5}, DType::float64);
  Array t = ivy::zeros({0}, DType::int64);
  EXPECT_TRUE(std::isnan(nn::cross_entropy(x, t).item<double>()));
  EXPECT_EQ(nn::cross_entropy(x, t, {.reduction = nn::Reduction::Sum}).item<double>(), 0.0);
  EXPECT_TRUE(std::isnan(nn::mse_loss(x, x).item<double>()));
  EXPECT_EQ(nn::mse_loss(x, x, nn::Reduction::None).shape(), x.shape());
  auto bn = nn::batch_norm(ivy::zeros({0, 3, 2}, DType::float64), ivy::zeros({3}, DType::float64),
                           ivy::ones({3}, DType::float64), {}, {}, true);
  EXPECT_EQ(bn.output.shape(), (ivy::Shape{0, 3, 2}));
  EXPECT_EQ(host(bn.running_var), (std::vector<double>{1, 1, 1}));
}

// ------------------------------------------------------------------ errors
template <class E>
void expect_error(const std::function<void()>& f, const std::string& prefix, const std::string& contains) {
  try {
    f();
    ADD_FAILURE() << "no exception; expected " << prefix << " ... " << contains;
  } catch (const E& e) {
    const std::string m = e.what();
    EXPECT_EQ(m.rfind(prefix, 0), 0u) << m;
    EXPECT_NE(m.find(contains), std::string::npos) << m;
  } catch (const std::exception& e) {
    ADD_FAILURE() << "wrong exception type: " << e.what();
  }
}

TEST_P(NnFunctional, Errors) {
  Array x = ivy::zeros({4, 3}, DType::float64);
  Array xi = ivy::zeros({4, 3}, DType::int64);
  Array t = ivy::asarray(std::vector<std::int64_t>{0, 1, 2, 1}, ivy::Shape{4});
  using ivy::IndexError;
  using ivy::TypeError;
  using ivy::ValueError;
  expect_error<TypeError>([&] { nn::relu(xi); }, "[nn.relu]", "real floating dtype, got int64");
  expect_error<ValueError>([&] { nn::gelu(Array()); }, "[nn.gelu]", "x is undefined");
  expect_error<IndexError>([&] { nn::softmax(x, 2); }, "[nn.softmax]", "axis 2 is out of range for an array of shape (4, 3)");
  expect_error<IndexError>([&] { nn::log_softmax(x, -3); }, "[nn.log_softmax]", "axis -3");
  expect_error<ValueError>([&] { nn::softplus(x, 0.0); }, "[nn.softplus]", "beta must be nonzero");
  // cross_entropy / nll_loss
  expect_error<ValueError>([&] { nn::cross_entropy(x, ivy::zeros({3}, DType::int64)); }, "[nn.cross_entropy]",
                           "target shape (3,) does not match input shape (4, 3) without its class axis 1: expected (4,)");
  expect_error<IndexError>([&] { nn::cross_entropy(x, ivy::asarray(std::vector<std::int64_t>{0, 3, 1, 1}, ivy::Shape{4})); },
                           "[nn.cross_entropy]", "target class index 3 is out of range [0, 3)");
  expect_error<IndexError>([&] { nn::nll_loss(x, ivy::asarray(std::vector<std::int64_t>{0, -1, 1, 1}, ivy::Shape{4})); },
                           "[nn.nll_loss]", "target class index -1 is out of range");
  EXPECT_NO_THROW(nn::nll_loss(x, ivy::asarray(std::vector<std::int64_t>{0, -100, 1, 1}, ivy::Shape{4})));
  expect_error<TypeError>([&] { nn::cross_entropy(x, ivy::zeros({4}, DType::bool_)); }, "[nn.cross_entropy]",
                          "integer dtype) or class probabilities");
  expect_error<ValueError>([&] { nn::cross_entropy(x, ivy::zeros({4, 2}, DType::float64)); }, "[nn.cross_entropy]",
                           "probability) target must have the input's shape (4, 3), got (4, 2)");
  expect_error<ValueError>([&] { nn::cross_entropy(x, t, {.label_smoothing = 1.5}); }, "[nn.cross_entropy]",
                           "label_smoothing must be in [0, 1], got 1.5");
  expect_error<ValueError>([&] { nn::cross_entropy(x, t, {.weight = ivy::ones({4}, DType::float64)}); },
                           "[nn.cross_entropy]", "weight (one per class) must have shape (3,), got (4,)");
  expect_error<TypeError>([&] { nn::cross_entropy(x, t, {.weight = ivy::ones({3}, DType::float32)}); },
                          "[nn.cross_entropy]", "must have the input's dtype float64, got float32");
  expect_error<ValueError>([&] { nn::cross_entropy(x, t, {.reduction = nn::Reduction::BatchMean}); },
                           "[nn.cross_entropy]", "reduction BatchMean is not supported");
  expect_error<TypeError>([&] { nn::nll_loss(x, ivy::zeros({4}, DType::float64)); }, "[nn.nll_loss]",
                          "class-index target must have an integer dtype, got float64");
  // elementwise losses
  expect_error<ValueError>([&] { nn::mse_loss(x, ivy::zeros({3, 4}, DType::float64)); }, "[nn.mse_loss]",
                           "target shape (3, 4) must equal the input shape (4, 3)");
  expect_error<TypeError>([&] { nn::l1_loss(x, ivy::zeros({4, 3}, DType::float32)); }, "[nn.l1_loss]",
                          "target dtype float32 must equal the input dtype float64");
  expect_error<ValueError>([&] { nn::huber_loss(x, x, 0.0); }, "[nn.huber_loss]", "delta must be positive");
  expect_error<ValueError>([&] { nn::smooth_l1_loss(x, x, -1.0); }, "[nn.smooth_l1_loss]", "beta must be >= 0");
  expect_error<ValueError>([&] { nn::binary_cross_entropy(x, x, ivy::ones({2}, DType::float64)); },
                           "[nn.binary_cross_entropy]", "weight of shape (2,) does not broadcast to the input shape (4, 3)");
  expect_error<ValueError>(
      [&] { nn::binary_cross_entropy_with_logits(x, x, {.pos_weight = ivy::ones({4}, DType::float64)}); },
      "[nn.binary_cross_entropy_with_logits]", "pos_weight of shape (4,) does not broadcast");
  // norms
  Array img = ivy::zeros({2, 6, 3, 3}, DType::float64);
  expect_error<ValueError>([&] { nn::batch_norm(ivy::zeros({1, 3}, DType::float64), {}, {}, {}, {}, true); },
                           "[nn.batch_norm]", "expected more than 1 value per channel when training, got input shape (1, 3)");
  expect_error<ValueError>([&] { nn::batch_norm(img, ivy::zeros({6}, DType::float64), {}); }, "[nn.batch_norm]",
                           "running_mean and running_var must both be given");
  expect_error<ValueError>([&] { nn::batch_norm(img, {}, {}, ivy::ones({3}, DType::float64)); }, "[nn.batch_norm]",
                           "weight must have shape (6,), got (3,)");
  expect_error<IndexError>([&] { nn::batch_norm(img, {}, {}, {}, {}, true, 0.1, 1e-5, 4); }, "[nn.batch_norm]",
                           "channel_axis 4 is out of range");
  expect_error<ValueError>([&] { nn::batch_norm(img, {}, {}, {}, {}, true, 0.1, 1e-5, 0); }, "[nn.batch_norm]",
                           "channel_axis must not be the batch axis 0");
  expect_error<ValueError>([&] { nn::group_norm(img, 4); }, "[nn.group_norm]",
                           "num_groups (4) must be positive and divide the 6 channels of input shape (2, 6, 3, 3)");
  expect_error<ValueError>([&] { nn::layer_norm(img, {3, 4}); }, "[nn.layer_norm]",
                           "normalized_shape (3, 4) must equal the last axes of the input shape (2, 6, 3, 3)");
  expect_error<ValueError>([&] { nn::layer_norm(img, {3}, ivy::ones({4}, DType::float64)); }, "[nn.layer_norm]",
                           "weight must have shape normalized_shape (3,), got (4,)");
  expect_error<ValueError>([&] { nn::instance_norm(img, {}, {}, {}, {}, false); }, "[nn.instance_norm]",
                           "use_input_stats = false needs running_mean and running_var");
  expect_error<ValueError>([&] { nn::instance_norm(ivy::zeros({2, 3, 1}, DType::float64)); }, "[nn.instance_norm]",
                           "expected more than 1 spatial element");
  expect_error<ValueError>([&] { nn::instance_norm(x); }, "[nn.instance_norm]", "input must have rank >= 3");
  // dropout, embedding, one_hot
  expect_error<ValueError>([&] { nn::dropout(x, 1.5); }, "[nn.dropout]", "p must be in [0, 1], got 1.5");
  expect_error<ValueError>([&] { nn::dropout(x, std::nan("")); }, "[nn.dropout]", "p must be in [0, 1]");
  expect_error<TypeError>([&] { nn::dropout(xi, 0.5); }, "[nn.dropout]", "real floating dtype");
  Array w = ivy::zeros({5, 2}, DType::float64);
  expect_error<IndexError>([&] { nn::embedding(ivy::asarray(std::vector<std::int64_t>{1, 5}, ivy::Shape{2}), w); },
                           "[nn.embedding]", "indices must lie in [0, 5), got values in [1, 5]");
  expect_error<TypeError>([&] { nn::embedding(x, w); }, "[nn.embedding]", "indices must have an integer dtype");
  expect_error<ValueError>([&] { nn::embedding(t, ivy::zeros({5}, DType::float64)); }, "[nn.embedding]",
                           "weight must be [num_embeddings, embedding_dim], got shape (5,)");
  expect_error<IndexError>([&] { nn::one_hot(t, 2); }, "[nn.one_hot]", "indices must lie in [0, 2), got values in [0, 2]");
  expect_error<ValueError>([&] { nn::one_hot(ivy::zeros({0}, DType::int64)); }, "[nn.one_hot]",
                           "cannot infer num_classes from empty indices");
}

INSTANTIATE_TEST_SUITE_P(Backends, NnFunctional, ::testing::ValuesIn(backend_names()),
                         [](const auto& info) { return info.param; });

}  // namespace

// ivy::nn's pad / interpolate (nn_resample.hpp) and attention / recurrent cells
// (nn_attention_rnn.hpp) against PyTorch 1.13, on every backend that was built.
//
// Each case of tests/fixtures/nn_resample.json (written by tests/gen_nn_resample_fixtures.py;
// see there for the format and the torch references) calls one ivy::nn function under
// ivy::vjp, with the case's floating inputs as primals, and compares the outputs and the
// input cotangents of L = sum_k sum(out_k * cot_k) with torch's. Tolerances are relative to
// the largest expected element of each array: 1e-10 for float64, the case's "rtol" (1e-5)
// for float32. The error tests check the "[nn.<name>]" messages.
//
// Build with -DIVY_FIXTURES_DIR="\"/path/to/tests/fixtures\"".
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "ivy/ivy.hpp"
#include "ivy/nn_attention_rnn.hpp"
#include "ivy/nn_resample.hpp"
#include "fixture_file.hpp"

#ifndef IVY_FIXTURES_DIR
#error "define IVY_FIXTURES_DIR as the (quoted) folder that holds nn_resample.json"
#endif

namespace {

using json = nlohmann::json;
using ivy::Array;
using ivy::DType;

// ------------------------------------------------------------------ loading
using Fixtures = ivy::test_fixtures::Fixture;
const Fixtures& fixtures() {
  static const Fixtures f = ivy::test_fixtures::load_fixture("nn_resample.json", "gen_nn_resample_fixtures.py");
  return f;
}

std::vector<std::string> backend_names() {
  std::vector<std::string> n;
  for (auto b : ivy::available_backends()) n.push_back(b.name());
  return n;
}

// ------------------------------------------------------------------ host arrays
struct Host {
  DType dtype = DType::float64;
  ivy::Shape shape;
  std::vector<double> v;  // values (bools as 0 / 1)
};

Host decode(const json& spec) {
  Host h;
  h.dtype = ivy::dtype_from_name(spec.at("dtype").get<std::string>());
  std::vector<std::int64_t> s = spec.at("shape").get<std::vector<std::int64_t>>();
  h.shape = ivy::Shape(s.begin(), s.end());
  for (const json& x : spec.at("data")) h.v.push_back(x.is_boolean() ? (x.get<bool>() ? 1.0 : 0.0) : x.get<double>());
  if (h.v.size() != static_cast<std::size_t>(h.shape.numel()))
    throw std::invalid_argument("data length does not match shape " + h.shape.str());
  return h;
}

// An ivy array on the current (scoped) backend.
Array to_ivy(const Host& h) {
  switch (h.dtype) {
    case DType::bool_: {
      std::vector<bool> b;
      for (double x : h.v) b.push_back(x != 0);
      return ivy::asarray(b, h.shape);
    }
    case DType::float32: {
      std::vector<float> f(h.v.begin(), h.v.end());
      return ivy::asarray(f, h.shape);
    }
    case DType::float64: return ivy::asarray(h.v, h.shape);
    default: throw std::invalid_argument(std::string("unexpected fixture dtype ") + ivy::dtype_name(h.dtype));
  }
}

Host from_ivy(const Array& x) {
  Host h;
  h.dtype = x.dtype();
  h.shape = x.shape();
  if (x.dtype() == DType::float32) {
    for (float f : x.to_vector<float>()) h.v.push_back(f);
  } else if (x.dtype() == DType::float64) {
    h.v = x.to_vector<double>();
  } else {
    throw std::invalid_argument(std::string("unexpected result dtype ") + ivy::dtype_name(x.dtype()));
  }
  return h;
}

// Empty when equal within rtol * (the largest |expected|, or 1 when all are 0).
std::string compare(const Host& got, const Host& want, double rtol, double* err) {
  std::ostringstream os;
  if (got.dtype != want.dtype) {
    os << "dtype " << ivy::dtype_name(got.dtype) << ", expected " << ivy::dtype_name(want.dtype);
    return os.str();
  }
  if (!(got.shape == want.shape)) {
    os << "shape " << got.shape << ", expected " << want.shape;
    return os.str();
  }
  double scale = 0;
  for (double w : want.v) scale = std::max(scale, std::abs(w));
  if (scale == 0) scale = 1;
  std::size_t bad = 0, first = 0;
  for (std::size_t e = 0; e < want.v.size(); ++e) {
    const double d = std::abs(got.v[e] - want.v[e]);
    *err = std::max(*err, d / scale);
    if (!(d <= rtol * scale) && bad++ == 0) first = e;  // NaN fails
  }
  if (!bad) return "";
  os.precision(17);
  os << "element " << first << " of " << want.shape << ": got " << got.v[first] << ", expected " << want.v[first]
     << "; " << bad << " of " << want.v.size() << " elements differ (rtol " << rtol << " of |" << scale << "|)";
  return os.str();
}

// ------------------------------------------------------------------ calling ivy::nn
using Named = std::map<std::string, Array>;

std::optional<Array> opt(const Named& in, const std::string& name) {
  auto it = in.find(name);
  return it == in.end() ? std::nullopt : std::optional<Array>(it->second);
}

std::vector<ivy::nn::RnnWeights> rnn_weights(const Named& in, std::int64_t layers, bool bidirectional) {
  std::vector<ivy::nn::RnnWeights> w;
  for (std::int64_t l = 0; l < layers; ++l)
    for (int d = 0; d < (bidirectional ? 2 : 1); ++d) {
      const std::string sfx = "_l" + std::to_string(l) + (d ? "_reverse" : "");
      w.push_back({in.at("w_ih" + sfx), in.at("w_hh" + sfx), opt(in, "b_ih" + sfx), opt(in, "b_hh" + sfx)});
    }
  return w;
}

// The outputs of the case's function on the named inputs, in the fixture's order.
std::vector<Array> call(const json& c, const Named& in) {
  const std::string fn = c.at("fn").get<std::string>();
  const json& p = c.at("params");
  namespace nn = ivy::nn;
  if (fn == "pad")
    return {nn::pad(in.at("x"), p.at("pads").get<std::vector<std::int64_t>>(), p.at("mode").get<std::string>(),
                    p.at("value").get<double>())};
  if (fn == "pad_axes") {
    std::vector<std::pair<std::int64_t, std::int64_t>> w;
    for (const json& pr : p.at("pad_width")) w.emplace_back(pr.at(0).get<std::int64_t>(), pr.at(1).get<std::int64_t>());
    return {nn::pad_axes(in.at("x"), w, p.at("mode").get<std::string>(), p.at("value").get<double>())};
  }
  if (fn == "interpolate") {
    nn::InterpolateOptions o;
    o.mode = p.at("mode").get<std::string>();
    if (p.contains("size")) o.size = p["size"].get<std::vector<std::int64_t>>();
    if (p.contains("scale_factor")) o.scale_factor = p["scale_factor"].get<std::vector<double>>();
    if (p.contains("align_corners")) o.align_corners = p["align_corners"].get<bool>();
    o.recompute_scale_factor = p.value("recompute_scale_factor", false);
    return {nn::interpolate(in.at("x"), o)};
  }
  if (fn == "sdpa") {
    std::optional<double> scale;
    if (!p.at("scale").is_null()) scale = p["scale"].get<double>();
    return {nn::scaled_dot_product_attention(in.at("query"), in.at("key"), in.at("value"), opt(in, "attn_mask"),
                                             p.at("is_causal").get<bool>(), scale)};
  }
  if (fn == "mha") {
    nn::MultiHeadAttentionExtras ex;
    ex.average_attn_weights = p.at("average_attn_weights").get<bool>();
    ex.add_zero_attn = p.at("add_zero_attn").get<bool>();
    ex.bias_k = opt(in, "bias_k");
    ex.bias_v = opt(in, "bias_v");
    ex.q_proj_weight = opt(in, "q_proj_weight");
    ex.k_proj_weight = opt(in, "k_proj_weight");
    ex.v_proj_weight = opt(in, "v_proj_weight");
    const bool need = p.at("need_weights").get<bool>();
    nn::MultiHeadAttentionResult r = nn::multi_head_attention(
        in.at("query"), in.at("key"), in.at("value"), p.at("num_heads").get<std::int64_t>(), opt(in, "in_proj_weight"),
        opt(in, "in_proj_bias"), in.at("out_proj_weight"), opt(in, "out_proj_bias"), opt(in, "key_padding_mask"),
        opt(in, "attn_mask"), need, ex);
    if (need != r.weights.has_value()) throw std::runtime_error("need_weights does not match the weights returned");
    if (need) return {r.output, *r.weights};
    return {r.output};
  }
  if (fn == "lstm_cell") {
    nn::LstmState s = nn::lstm_cell(in.at("x"), {in.at("h"), in.at("c")}, in.at("w_ih"), in.at("w_hh"),
                                    opt(in, "b_ih"), opt(in, "b_hh"));
    return {s.h, s.c};
  }
  if (fn == "gru_cell")
    return {nn::gru_cell(in.at("x"), in.at("h"), in.at("w_ih"), in.at("w_hh"), opt(in, "b_ih"), opt(in, "b_hh"))};
  if (fn == "lstm" || fn == "gru") {
    const std::int64_t layers = p.at("num_layers").get<std::int64_t>();
    const bool bidir = p.at("bidirectional").get<bool>();
    const auto w = rnn_weights(in, layers, bidir);
    if (fn == "lstm") {
      nn::LstmResult r = nn::lstm(in.at("x"), w, layers, bidir, opt(in, "h0"), opt(in, "c0"));
      return {r.output, r.h_n, r.c_n};
    }
    nn::GruResult r = nn::gru(in.at("x"), w, layers, bidir, opt(in, "h0"));
    return {r.output, r.h_n};
  }
  throw std::invalid_argument("unknown fn '" + fn + "'");
}

struct Outcome {
  std::string message;  // empty: passed
  double err = 0;
  bool single = false;
};

Outcome run_case(const std::string& backend_name, const json& c) {
  Outcome o;
  ivy::BackendScope scope(backend_name.c_str());
  Named consts;
  std::vector<std::string> diff = c.at("diff").get<std::vector<std::string>>();
  std::vector<Array> primals(diff.size());
  for (const json& i : c.at("inputs")) {
    const std::string name = i.at("name").get<std::string>();
    const Host h = decode(i.at("array"));
    o.single |= h.dtype == DType::float32;
    Array a = to_ivy(h);
    auto pos = std::find(diff.begin(), diff.end(), name);
    if (pos != diff.end())
      primals[static_cast<std::size_t>(pos - diff.begin())] = a;
    else
      consts[name] = a;
  }
  const double rtol = c.value("rtol", 1e-10);
  ivy::VjpResult r = ivy::vjp(
      [&](const std::vector<Array>& xs) {
        Named in = consts;
        for (std::size_t k = 0; k < diff.size(); ++k) in[diff[k]] = xs[k];
        return call(c, in);
      },
      primals);
  const json& outs = c.at("outputs");
  if (r.outputs.size() != outs.size()) {
    o.message = std::to_string(r.outputs.size()) + " outputs, the fixture has " + std::to_string(outs.size());
    return o;
  }
  std::vector<Array> cots;
  for (std::size_t k = 0; k < outs.size(); ++k) {
    if (std::string(r.outputs[k].backend().name()) != backend_name)
      o.message += " output " + std::to_string(k) + " on backend " + r.outputs[k].backend().name() + ";";
    const std::string d = compare(from_ivy(r.outputs[k]), decode(outs[k]), rtol, &o.err);
    if (!d.empty()) o.message += " output " + std::to_string(k) + ": " + d + ";";
    cots.push_back(to_ivy(decode(c.at("cotangents")[k])));
  }
  std::vector<Array> grads = r.vjp_fn(cots);
  const json& want = c.at("grads");
  if (grads.size() != want.size()) {
    o.message += " " + std::to_string(grads.size()) + " input cotangents, the fixture has " + std::to_string(want.size());
    return o;
  }
  for (std::size_t k = 0; k < grads.size(); ++k) {
    const std::string d = compare(from_ivy(grads[k]), decode(want[k]), rtol, &o.err);
    if (!d.empty()) o.message += " d/d" + diff[k] + ": " + d + ";";
  }
  return o;
}

// Runs every case whose fn is in `fns` on one backend; reports each failing case by name.
void run_all(const std::string& backend, const std::set<std::string>& fns, std::size_t min_cases) {
  ASSERT_TRUE(fixtures().error.empty()) << fixtures().error;
  std::size_t passed = 0, failed = 0;
  double worst[2] = {0, 0};
  std::string worst_case[2];
  std::set<std::string> seen;
  for (const json& c : fixtures().cases()) {
    const std::string fn = c.value("fn", std::string("?")), name = c.value("name", std::string("?"));
    if (!fns.count(fn)) continue;
    seen.insert(fn);
    Outcome o;
    try {
      o = run_case(backend, c);
    } catch (const std::exception& e) {
      o.message = std::string("threw ") + e.what();
    }
    if (o.message.empty()) {
      ++passed;
      if (o.err >= worst[o.single]) worst[o.single] = o.err, worst_case[o.single] = name;
    } else {
      ++failed;
      ADD_FAILURE() << "case '" << name << "' (backend " << backend << "):" << o.message;
    }
  }
  std::cout << "[nn fixtures] backend " << backend << ": " << passed << " passed, " << failed
            << " failed; largest relative difference: float64 " << worst[0] << " ('" << worst_case[0]
            << "'), float32 " << worst[1] << " ('" << worst_case[1] << "')" << std::endl;
  EXPECT_EQ(seen, fns) << "a function has no fixture case";
  EXPECT_GE(passed + failed, min_cases) << "nn_resample.json looks truncated";
}

class NnResampleFixtures : public ::testing::TestWithParam<std::string> {};
TEST_P(NnResampleFixtures, PadAndInterpolateMatchPyTorch) {
  run_all(GetParam(), {"pad", "pad_axes", "interpolate"}, 150);
}
INSTANTIATE_TEST_SUITE_P(Backends, NnResampleFixtures, ::testing::ValuesIn(backend_names()),
                         [](const auto& p) { return p.param; });

class NnAttentionFixtures : public ::testing::TestWithParam<std::string> {};
TEST_P(NnAttentionFixtures, AttentionAndRecurrentMatchPyTorch) {
  run_all(GetParam(), {"sdpa", "mha", "lstm_cell", "gru_cell", "lstm", "gru"}, 40);
}
INSTANTIATE_TEST_SUITE_P(Backends, NnAttentionFixtures, ::testing::ValuesIn(backend_names()),
                         [](const auto& p) { return p.param; });

// ------------------------------------------------------------------ hand-checked values
std::vector<double> vals(const Array& a) { return ivy::astype(a, DType::float64).to_vector<double>(); }

class NnResampleValues : public ::testing::TestWithParam<std::string> {};

TEST_P(NnResampleValues, PadModesOnARow) {
  ivy::BackendScope scope(GetParam().c_str());
  const Array x = ivy::asarray(std::vector<double>{0, 1, 2, 3, 4});
  namespace nn = ivy::nn;
  EXPECT_EQ(vals(nn::pad(x, {2, 1}, "reflect")), (std::vector<double>{2, 1, 0, 1, 2, 3, 4, 3}));
  EXPECT_EQ(vals(nn::pad(x, {2, 1}, "replicate")), (std::vector<double>{0, 0, 0, 1, 2, 3, 4, 4}));
  EXPECT_EQ(vals(nn::pad(x, {2, 1}, "circular")), (std::vector<double>{3, 4, 0, 1, 2, 3, 4, 0}));
  EXPECT_EQ(vals(nn::pad(x, {2, 1}, "constant", 9)), (std::vector<double>{9, 9, 0, 1, 2, 3, 4, 9}));
  EXPECT_EQ(vals(nn::pad(x, {-1, 2}, "reflect")), (std::vector<double>{1, 2, 3, 4, 3, 2}));
  EXPECT_EQ(vals(nn::pad(x, {-3, 3}, "reflect")), (std::vector<double>{3, 4, 3, 2, 1}));  // about the original edge
  EXPECT_EQ(vals(nn::pad(x, {-1, 2}, "circular")), (std::vector<double>{1, 2, 3, 4, 1, 2}));  // wraps the cropped row
  EXPECT_EQ(nn::pad(x, {-3, -2}).size(), 0);
  EXPECT_EQ(vals(nn::pad(x, {2, -5}, "constant", 1)), (std::vector<double>{1, 1}));  // everything cropped, then padded
  // integer input keeps its dtype
  const Array xi = ivy::asarray(std::vector<std::int64_t>{5, 6});
  Array yi = nn::pad(xi, {1, 1}, "constant", 7);
  EXPECT_EQ(yi.dtype(), DType::int64);
  EXPECT_EQ(yi.to_vector<std::int64_t>(), (std::vector<std::int64_t>{7, 5, 6, 7}));
  // per-axis form: axis 0 by (1, 0)
  Array m = nn::pad_axes(ivy::reshape(ivy::asarray(std::vector<double>{1, 2, 3, 4}), {2, 2}), {{1, 0}}, "replicate");
  EXPECT_EQ(m.shape(), (ivy::Shape{3, 2}));
  EXPECT_EQ(vals(m), (std::vector<double>{1, 2, 1, 2, 3, 4}));
}

TEST_P(NnResampleValues, InterpolateSmallCases) {
  ivy::BackendScope scope(GetParam().c_str());
  namespace nn = ivy::nn;
  const Array x = ivy::reshape(ivy::asarray(std::vector<double>{0, 10, 20}), {1, 1, 3});
  // linear, align_corners: exact midpoints
  EXPECT_EQ(vals(nn::interpolate(x, {5}, "linear", true)), (std::vector<double>{0, 5, 10, 15, 20}));
  // linear, half-pixel centres: src = (o + 0.5) * 3/6 - 0.5, clamped at 0
  EXPECT_EQ(vals(nn::interpolate(x, {6}, "linear", false)), (std::vector<double>{0, 2.5, 7.5, 12.5, 17.5, 20}));
  // nearest: floor(o * 3/6) ; nearest-exact: floor((o + 0.5) * 3/4)
  EXPECT_EQ(vals(nn::interpolate(x, {6})), (std::vector<double>{0, 0, 10, 10, 20, 20}));
  EXPECT_EQ(vals(nn::interpolate(x, {4}, "nearest-exact")), (std::vector<double>{0, 10, 10, 20}));
  // area down to 2: means of [0, 2) and [1, 3)
  EXPECT_EQ(vals(nn::interpolate(x, {2}, "area")), (std::vector<double>{5, 15}));
  // bicubic (align_corners) keeps the corner pixels, and its weights sum to 1 (a constant
  // image stays constant, border clamping included)
  const Array img = ivy::reshape(ivy::astype(ivy::arange(0, 16), DType::float64), {1, 1, 4, 4});
  const auto up = vals(nn::interpolate_scale(img, {2.0}, "bicubic", true));
  ASSERT_EQ(up.size(), 64u);
  EXPECT_NEAR(up[0], 0.0, 1e-12);
  EXPECT_NEAR(up[63], 15.0, 1e-12);
  for (double v : vals(nn::interpolate(ivy::full({1, 2, 3, 5}, 2.5, DType::float64), {7, 4}, "bicubic")))
    EXPECT_NEAR(v, 2.5, 1e-12);
  // the gradient of sum(interpolate) w.r.t. x counts how often each input is used (nearest x2)
  auto g = ivy::grad([](const Array& a) { return ivy::sum(ivy::nn::interpolate_scale(a, {2.0})); })(x);
  EXPECT_EQ(vals(g), (std::vector<double>{2, 2, 2}));
}

INSTANTIATE_TEST_SUITE_P(Backends, NnResampleValues, ::testing::ValuesIn(backend_names()),
                         [](const auto& p) { return p.param; });

class NnAttentionValues : public ::testing::TestWithParam<std::string> {};

TEST_P(NnAttentionValues, AttentionWithOneKeyCopiesTheValueAndLargeScoresStayFinite) {
  ivy::BackendScope scope(GetParam().c_str());
  namespace nn = ivy::nn;
  const Array q = ivy::asarray(std::vector<double>{1, 2, 3, 4}, ivy::Shape{2, 2});
  const Array k = ivy::asarray(std::vector<double>{5, 6}, ivy::Shape{1, 2});
  const Array v = ivy::asarray(std::vector<double>{7, -8, 9}, ivy::Shape{1, 3});
  EXPECT_EQ(vals(nn::scaled_dot_product_attention(q, k, v)), (std::vector<double>{7, -8, 9, 7, -8, 9}));
  // scores of 1e4 would overflow exp without the max shift; weights (1, 0) select value row 0
  const Array k2 = ivy::asarray(std::vector<double>{1, 0, 0, 1}, ivy::Shape{2, 2});
  const Array v2 = ivy::asarray(std::vector<double>{1, 2, 3, 4}, ivy::Shape{2, 2});
  const Array q2 = ivy::asarray(std::vector<double>{1e4, 0}, ivy::Shape{1, 2});
  const auto out = vals(nn::scaled_dot_product_attention(q2, k2, v2, std::nullopt, false, 1.0));
  EXPECT_EQ(out, (std::vector<double>{1, 2}));
  // the gradient through the stable softmax and the sigmoid is finite at extreme inputs
  auto g = ivy::grad([&](const Array& qq) { return ivy::sum(nn::scaled_dot_product_attention(qq, k2, v2)); })(q2);
  for (double d : vals(g)) EXPECT_TRUE(std::isfinite(d));
  const Array xbig = ivy::asarray(std::vector<double>{-800.0}, ivy::Shape{1, 1});
  auto gh = ivy::grad([&](const Array& b) {
    return ivy::sum(nn::gru_cell(xbig, ivy::zeros({1, 1}, DType::float64), ivy::full({3, 1}, 1.0, DType::float64),
                                 ivy::zeros({3, 1}, DType::float64), b, ivy::zeros({3}, DType::float64)));
  })(ivy::zeros({3}, DType::float64));
  for (double d : vals(gh)) EXPECT_TRUE(std::isfinite(d));
}

INSTANTIATE_TEST_SUITE_P(Backends, NnAttentionValues, ::testing::ValuesIn(backend_names()),
                         [](const auto& p) { return p.param; });

// ------------------------------------------------------------------ forward mode
// jvp and vjp of the same function agree: <J t, c> == <t, J^T c> for random t and c. This
// checks that every primitive these functions use has a forward-mode rule as well.
class NnResampleAttentionForwardMode : public ::testing::TestWithParam<std::string> {};

TEST_P(NnResampleAttentionForwardMode, JvpMatchesVjpForEachFunction) {
  ivy::BackendScope scope(GetParam().c_str());
  namespace nn = ivy::nn;
  ivy::seed(7);
  auto rnd = [](ivy::Shape s) { return ivy::random_normal(0.0, 1.0, s, DType::float64); };
  const Array mask = ivy::asarray(std::vector<bool>{true, false, true, true, true, true}, ivy::Shape{2, 3});
  const std::vector<std::pair<std::string, ivy::ArraysFn>> fns = {
      {"pad reflect", [](const std::vector<Array>& a) { return std::vector<Array>{nn::pad(a[0], {2, 1, 1, 0}, "reflect")}; }},
      {"pad circular", [](const std::vector<Array>& a) { return std::vector<Array>{nn::pad(a[0], {-1, 2}, "circular")}; }},
      {"interpolate bicubic",
       [](const std::vector<Array>& a) { return std::vector<Array>{nn::interpolate(a[0], {5, 7}, "bicubic", false)}; }},
      {"sdpa masked",
       [&](const std::vector<Array>& a) {
         return std::vector<Array>{nn::scaled_dot_product_attention(a[0], a[1], a[1], mask)};
       }},
      {"lstm cell",
       [](const std::vector<Array>& a) {
         nn::LstmState s = nn::lstm_cell(a[1], {a[1], a[1]}, ivy::reshape(a[0], {12, 3}), ivy::reshape(a[0], {12, 3}));
         return std::vector<Array>{s.h, s.c};
       }},
  };
  const std::vector<std::vector<Array>> primals = {
      {rnd({1, 2, 3, 4})}, {rnd({2, 5})}, {rnd({1, 2, 3, 4})}, {rnd({2, 2, 4}), rnd({2, 3, 4})}, {rnd({36}), rnd({2, 3})}};
  for (std::size_t f = 0; f < fns.size(); ++f) {
    SCOPED_TRACE(fns[f].first);
    std::vector<Array> tangents;
    for (const Array& p : primals[f]) tangents.push_back(rnd(p.shape()));
    auto [outs, jt] = ivy::jvp(fns[f].second, primals[f], tangents);
    ivy::VjpResult r = ivy::vjp(fns[f].second, primals[f]);
    std::vector<Array> cots;
    double lhs = 0, rhs = 0;
    for (std::size_t k = 0; k < outs.size(); ++k) {
      cots.push_back(rnd(outs[k].shape()));
      lhs += ivy::sum(jt[k] * cots[k]).item<double>();
    }
    std::vector<Array> g = r.vjp_fn(cots);
    for (std::size_t k = 0; k < g.size(); ++k) rhs += ivy::sum(g[k] * tangents[k]).item<double>();
    EXPECT_NEAR(lhs, rhs, 1e-10 * std::max(1.0, std::abs(rhs)));
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, NnResampleAttentionForwardMode, ::testing::ValuesIn(backend_names()),
                         [](const auto& p) { return p.param; });

// ------------------------------------------------------------------ errors
// Runs f, expects an exception of type E whose message starts with `prefix` and contains
// every string of `parts`.
template <class E, class F>
void expect_error(F&& f, const std::string& prefix, const std::vector<std::string>& parts) {
  try {
    f();
    ADD_FAILURE() << "no exception; expected " << prefix;
  } catch (const E& e) {
    const std::string m = e.what();
    EXPECT_EQ(m.rfind(prefix, 0), 0u) << m;
    for (const auto& p : parts) EXPECT_NE(m.find(p), std::string::npos) << "'" << p << "' not in: " << m;
  } catch (const std::exception& e) {
    ADD_FAILURE() << "wrong exception type: " << e.what();
  }
}

TEST(NnResampleErrors, PadRejectsBadPadsAndModes) {
  namespace nn = ivy::nn;
  const Array x = ivy::zeros({2, 3, 5}, DType::float64);
  expect_error<ivy::ValueError>([&] { nn::pad(x, {1, 2, 3}); }, "[nn.pad]", {"(2, 3, 5)", "even"});
  expect_error<ivy::ValueError>([&] { nn::pad(x, {1, 1, 1, 1, 1, 1, 1, 1}); }, "[nn.pad]", {"4 pairs for 3 axes"});
  expect_error<ivy::ValueError>([&] { nn::pad(x, {1, 1}, "wrap"); }, "[nn.pad]", {"unknown mode 'wrap'"});
  expect_error<ivy::ValueError>([&] { nn::pad(x, {1, 1}, "reflect", 2.0); }, "[nn.pad]", {"value 2", "constant mode"});
  expect_error<ivy::ValueError>([&] { nn::pad(x, {5, 0}, "reflect"); }, "[nn.pad]",
                                {"(2, 3, 5)", "axis 2 of size 5", "smaller than the size"});
  expect_error<ivy::ValueError>([&] { nn::pad(x, {0, 0, 3, 0}, "reflect"); }, "[nn.pad]", {"axis 1 of size 3"});
  expect_error<ivy::ValueError>([&] { nn::pad(x, {6, 0}, "circular"); }, "[nn.pad]", {"wraps around more than once"});
  expect_error<ivy::ValueError>([&] { nn::pad(x, {-3, 3}, "circular"); }, "[nn.pad]", {"at most 2 after cropping"});
  expect_error<ivy::ValueError>([&] { nn::pad(x, {-3, -3}); }, "[nn.pad]", {"leaves -1 elements"});
  expect_error<ivy::ValueError>([&] { nn::pad(x, {-3, -2}, "replicate"); }, "[nn.pad]", {"leaves 0 elements"});
  expect_error<ivy::ValueError>([&] { nn::pad(ivy::zeros({2, 0}), {1, 1}, "replicate"); }, "[nn.pad]",
                                {"axis 1 of size 0"});
  expect_error<ivy::ValueError>([&] { nn::pad_axes(x, {{1, 1}, {1, 1}, {1, 1}, {1, 1}}); }, "[nn.pad_axes]",
                                {"4 (before, after) pairs", "(2, 3, 5)"});
}

TEST(NnResampleErrors, InterpolateRejectsBadArguments) {
  namespace nn = ivy::nn;
  const Array x = ivy::zeros({1, 2, 4, 5}, DType::float64);
  expect_error<ivy::ValueError>([&] { nn::interpolate(x, {3, 3}, "linear"); }, "[nn.interpolate]",
                                {"(1, 2, 4, 5)", "'linear' needs 3-d input"});
  expect_error<ivy::ValueError>([&] { nn::interpolate(x, {3, 3}, "cubic"); }, "[nn.interpolate]", {"unknown mode 'cubic'"});
  expect_error<ivy::ValueError>([&] { nn::interpolate(ivy::zeros({4, 5}), {3}); }, "[nn.interpolate]",
                                {"(4, 5)", "1 to 3 spatial axes"});
  expect_error<ivy::ValueError>([&] { nn::interpolate(x, {3, 3, 3}); }, "[nn.interpolate]",
                                {"size (3, 3, 3)", "1 or 2 entries"});
  expect_error<ivy::ValueError>([&] { nn::interpolate(x, {3, 3}, "nearest", true); }, "[nn.interpolate]",
                                {"align_corners", "'nearest'"});
  expect_error<ivy::ValueError>([&] { nn::interpolate(x, {0, 3}); }, "[nn.interpolate]", {"greater than 0", "4 -> 0"});
  expect_error<ivy::ValueError>([&] { nn::interpolate_scale(x, {0.1}); }, "[nn.interpolate]", {"4 -> 0"});
  expect_error<ivy::ValueError>([&] { nn::interpolate_scale(x, {-2.0}); }, "[nn.interpolate]", {"positive"});
  expect_error<ivy::ValueError>([&] { nn::interpolate(x, nn::InterpolateOptions{}); }, "[nn.interpolate]",
                                {"exactly one of size and scale_factor"});
  nn::InterpolateOptions both;
  both.size = {2, 2};
  both.scale_factor = {2.0};
  expect_error<ivy::ValueError>([&] { nn::interpolate(x, both); }, "[nn.interpolate]", {"exactly one"});
  expect_error<ivy::TypeError>([&] { nn::interpolate(ivy::zeros({1, 1, 3}, DType::int64), {6}); }, "[nn.interpolate]",
                               {"real floating dtype", "int64"});
}

TEST(NnAttentionErrors, AttentionRejectsBadShapes) {
  namespace nn = ivy::nn;
  const Array q = ivy::zeros({2, 4, 8}, DType::float64), k = ivy::zeros({2, 5, 8}, DType::float64),
              v = ivy::zeros({2, 5, 3}, DType::float64);
  expect_error<ivy::ValueError>([&] { nn::scaled_dot_product_attention(q, ivy::zeros({2, 5, 7}, DType::float64), v); },
                                "[nn.scaled_dot_product_attention]", {"(2, 4, 8)", "(2, 5, 7)", "embedding size"});
  expect_error<ivy::ValueError>([&] { nn::scaled_dot_product_attention(q, k, ivy::zeros({2, 6, 3}, DType::float64)); },
                                "[nn.scaled_dot_product_attention]", {"(2, 6, 3)", "length S"});
  expect_error<ivy::ValueError>(
      [&] { nn::scaled_dot_product_attention(q, k, v, ivy::zeros({4, 6}, DType::bool_)); },
      "[nn.scaled_dot_product_attention]", {"attn_mask of shape (4, 6)", "(2, 4, 5)"});
  expect_error<ivy::ValueError>(
      [&] { nn::scaled_dot_product_attention(q, k, v, ivy::zeros({4, 5}, DType::bool_), true); },
      "[nn.scaled_dot_product_attention]", {"not both"});
  expect_error<ivy::TypeError>(
      [&] { nn::scaled_dot_product_attention(q, k, v, ivy::zeros({4, 5}, DType::int64)); },
      "[nn.scaled_dot_product_attention]", {"bool or floating"});
  expect_error<ivy::TypeError>(
      [&] { nn::scaled_dot_product_attention(q, ivy::zeros({2, 5, 8}, DType::float32), v); },
      "[nn.scaled_dot_product_attention]", {"share a dtype"});

  const Array x = ivy::zeros({2, 4, 6}, DType::float64);
  const Array win = ivy::zeros({18, 6}, DType::float64), wout = ivy::zeros({6, 6}, DType::float64);
  expect_error<ivy::ValueError>([&] { nn::multi_head_attention(x, x, x, 4, win, std::nullopt, wout, std::nullopt); },
                                "[nn.multi_head_attention]", {"embed_dim 6", "num_heads 4"});
  expect_error<ivy::ValueError>(
      [&] { nn::multi_head_attention(x, x, x, 2, ivy::zeros({12, 6}, DType::float64), std::nullopt, wout, std::nullopt); },
      "[nn.multi_head_attention]", {"in_proj_weight of shape (12, 6)", "(18, 6)"});
  expect_error<ivy::ValueError>(
      [&] {
        nn::multi_head_attention(x, x, x, 2, win, std::nullopt, wout, std::nullopt, ivy::zeros({2, 5}, DType::bool_));
      },
      "[nn.multi_head_attention]", {"key_padding_mask of shape (2, 5)", "(2, 4)"});
  expect_error<ivy::ValueError>(
      [&] {
        nn::multi_head_attention(x, x, x, 2, win, std::nullopt, wout, std::nullopt, std::nullopt,
                                 ivy::zeros({3, 4, 4}, DType::bool_));
      },
      "[nn.multi_head_attention]", {"3-d attn_mask has shape (3, 4, 4)", "(4, 4, 4)"});
  expect_error<ivy::ValueError>(
      [&] { nn::multi_head_attention(x, ivy::zeros({2, 4, 5}, DType::float64), x, 2, win, std::nullopt, wout, std::nullopt); },
      "[nn.multi_head_attention]", {"key (2, 4, 5)"});
  expect_error<ivy::ValueError>([&] { nn::multi_head_attention(x, x, x, 2, std::nullopt, std::nullopt, wout, std::nullopt); },
                                "[nn.multi_head_attention]", {"in_proj_weight is required"});
}

TEST(NnAttentionErrors, RecurrentRejectsBadShapes) {
  namespace nn = ivy::nn;
  const Array x = ivy::zeros({3, 4}, DType::float64), h = ivy::zeros({3, 5}, DType::float64);
  const Array w_ih = ivy::zeros({20, 4}, DType::float64), w_hh = ivy::zeros({20, 5}, DType::float64);
  expect_error<ivy::ValueError>([&] { nn::lstm_cell(x, {h, h}, ivy::zeros({20, 3}, DType::float64), w_hh); },
                                "[nn.lstm_cell]", {"w_ih of shape (20, 3)", "(20, 4)"});
  expect_error<ivy::ValueError>([&] { nn::lstm_cell(x, {h, ivy::zeros({3, 4}, DType::float64)}, w_ih, w_hh); },
                                "[nn.lstm_cell]", {"c of shape (3, 4)", "(3, 5)"});
  expect_error<ivy::ValueError>(
      [&] { nn::lstm_cell(x, {h, h}, w_ih, w_hh, ivy::zeros({20}, DType::float64), std::nullopt); }, "[nn.lstm_cell]",
      {"both b_ih and b_hh"});
  expect_error<ivy::ValueError>([&] { nn::gru_cell(x, h, w_ih, w_hh); }, "[nn.gru_cell]",
                                {"w_ih of shape (20, 4)", "(15, 4)"});
  expect_error<ivy::TypeError>([&] { nn::gru_cell(ivy::zeros({3, 4}, DType::int64), h, w_ih, w_hh); },
                               "[nn.gru_cell]", {"real floating"});
  const Array seq = ivy::zeros({2, 3, 4}, DType::float64);
  std::vector<nn::RnnWeights> one{{w_ih, w_hh, std::nullopt, std::nullopt}};
  expect_error<ivy::ValueError>([&] { nn::lstm(seq, one, 2); }, "[nn.lstm]", {"expected 2 weight sets", "got 1"});
  expect_error<ivy::ValueError>([&] { nn::lstm(seq, one, 1, false, ivy::zeros({1, 3, 5}, DType::float64)); },
                                "[nn.lstm]", {"h0 of shape (1, 3, 5)", "(1, 2, 5)"});
  expect_error<ivy::ValueError>([&] { nn::lstm(ivy::zeros({2, 3, 4, 1}, DType::float64), one, 1); }, "[nn.lstm]",
                                {"(2, 3, 4, 1)", "[N, T, F]"});
  // layer 1 of a bidirectional stack takes 2 * H inputs
  std::vector<nn::RnnWeights> two(4, nn::RnnWeights{w_ih, w_hh, std::nullopt, std::nullopt});
  expect_error<ivy::ValueError>([&] { nn::lstm(seq, two, 2, true); }, "[nn.lstm] layer 1: ",
                                {"w_ih of shape (20, 4)", "(20, 10)"});
  expect_error<ivy::ValueError>([&] { nn::gru(seq, one, 1); }, "[nn.gru] layer 0: ", {"w_ih of shape (20, 4)", "(15, 4)"});
  expect_error<ivy::ValueError>([&] { nn::gru(seq, one, 0); }, "[nn.gru]", {"num_layers must be >= 1"});
}

}  // namespace

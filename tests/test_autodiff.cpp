// ivy's reverse mode, on every backend: each differentiable primitive's VJP against central
// finite differences in float64, the transforms (grad, value_and_grad, vjp, jvp, jacrev,
// jacfwd, hessian, custom_vjp, execute_with_gradients) against closed forms, the
// conventions at non-smooth points, and the errors.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <functional>
#include <algorithm>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <fstream>

#include <nlohmann/json.hpp>

#include "ivy/ivy.hpp"
#include "fixture_file.hpp"

namespace {

using ivy::Array;
using ivy::Attrs;
using ivy::OpId;

std::vector<std::string> backend_names() {
  std::vector<std::string> n;
  for (auto b : ivy::available_backends()) n.push_back(b.name());
  return n;
}

std::vector<double> values(const Array& x) { return ivy::astype(x, ivy::float64).to_vector<double>(); }

Array random_array(const ivy::Shape& s, double lo, double hi, std::mt19937& g) {
  std::uniform_real_distribution<double> u(lo, hi);
  std::vector<double> v(static_cast<std::size_t>(s.numel()));
  for (auto& e : v) e = u(g);
  return ivy::asarray(v, s, ivy::float64);
}

// One primitive call to check: its inputs (float64 unless given) and attributes.
struct Case {
  std::string name;
  OpId op;
  std::vector<Array> in;
  Attrs attrs;
  std::vector<bool> differentiate;  // per input (default: the floating ones)
};

// A scalar loss of every floating output of the primitive: sum(out_k * w_k), with fixed
// random weights (for complex outputs, the real and imaginary parts weighted separately).
struct Loss {
  OpId op;
  Attrs attrs;
  std::vector<Array> weights_re, weights_im;
  Array operator()(const std::vector<Array>& in) const {
    std::vector<Array> outs = ivy::dispatch_multi(op, in, attrs);
    Array total = ivy::asarray(0.0, ivy::float64);
    for (std::size_t k = 0; k < outs.size() && k < weights_re.size(); ++k) {
      if (!weights_re[k].defined()) continue;
      const Array& y = outs[k];
      if (ivy::is_complex(y.dtype())) {
        total = total + ivy::sum(ivy::real(y) * weights_re[k]) + ivy::sum(ivy::imag(y) * weights_im[k]);
      } else {
        total = total + ivy::sum(y * weights_re[k]);
      }
    }
    return total;
  }
};

Loss make_loss(const Case& c, std::mt19937& g) {
  Loss l{c.op, c.attrs, {}, {}};
  std::vector<Array> outs = ivy::dispatch_multi(c.op, c.in, c.attrs);
  for (const Array& y : outs) {
    if (!ivy::is_floating(y.dtype())) {
      l.weights_re.emplace_back();
      l.weights_im.emplace_back();
      continue;
    }
    l.weights_re.push_back(random_array(y.shape(), -1, 1, g));
    l.weights_im.push_back(random_array(y.shape(), -1, 1, g));
  }
  return l;
}

// Every element of every differentiated input: ivy's gradient against central differences.
void check_against_finite_differences(const Case& c, double tol = 2e-6) {
  std::mt19937 g(7);
  Loss loss = make_loss(c, g);
  std::vector<int> argnums;
  for (std::size_t i = 0; i < c.in.size(); ++i) {
    const bool d = c.differentiate.empty() ? ivy::is_floating(c.in[i].dtype()) : c.differentiate[i];
    if (d) argnums.push_back(static_cast<int>(i));
  }
  auto grads = ivy::grad(ivy::MultiFn(loss), argnums)(c.in);
  ASSERT_EQ(grads.size(), argnums.size());
  // forward mode (the JVP rules) against reverse mode (the VJP rules): with a random
  // tangent t on the differentiated inputs, jvp = sum over inputs of <grad, t>
  {
    std::vector<Array> tangents;
    double expected = 0;
    for (std::size_t i = 0; i < c.in.size(); ++i) {
      const Array& x = c.in[i];
      Array t = ivy::asarray(random_array(x.shape(), -1, 1, g), x.dtype(), {}, std::nullopt, x.backend());
      const auto pos = std::find(argnums.begin(), argnums.end(), static_cast<int>(i));
      if (pos == argnums.end() || !ivy::is_floating(x.dtype())) {
        t = ivy::is_floating(x.dtype()) ? ivy::zeros_like(x) : x;
      } else {
        expected += ivy::astype(ivy::sum(ivy::multiply(grads[static_cast<std::size_t>(pos - argnums.begin())], t)),
                                ivy::float64).item<double>();
      }
      tangents.push_back(t);
    }
    std::vector<Array> primals = c.in;
    std::vector<int> floating;
    std::vector<Array> fp, ft;
    for (std::size_t i = 0; i < primals.size(); ++i)
      if (ivy::is_floating(primals[i].dtype())) floating.push_back(static_cast<int>(i)), fp.push_back(primals[i]), ft.push_back(tangents[i]);
    auto [outs, touts] = ivy::jvp(
        [&](const std::vector<Array>& v) {
          std::vector<Array> in = c.in;
          for (std::size_t j = 0; j < floating.size(); ++j) in[static_cast<std::size_t>(floating[j])] = v[j];
          return std::vector<Array>{loss(in)};
        },
        fp, ft);
    const double got = ivy::astype(touts[0], ivy::float64).item<double>();
    EXPECT_NEAR(got, expected, tol * 10 * (1 + std::abs(expected))) << c.name << ": jvp against <grad, tangent>";
  }
  for (std::size_t a = 0; a < argnums.size(); ++a) {
    const std::size_t i = static_cast<std::size_t>(argnums[a]);
    const Array& x = c.in[i];
    ASSERT_EQ(grads[a].shape(), x.shape()) << c.name << " input " << i;
    ASSERT_EQ(grads[a].dtype(), x.dtype()) << c.name << " input " << i;
    std::vector<double> xv = values(x), gv = values(grads[a]);
    const double h = 1e-6;
    for (std::size_t e = 0; e < xv.size(); ++e) {
      auto at = [&](double delta) {
        std::vector<double> v = xv;
        v[e] += delta;
        std::vector<Array> in = c.in;
        in[i] = ivy::asarray(ivy::asarray(v, x.shape(), ivy::float64), x.dtype(), {}, std::nullopt, x.backend());
        return ivy::astype(loss(in), ivy::float64).item<double>();
      };
      const double fd = (at(h) - at(-h)) / (2 * h);
      EXPECT_NEAR(gv[e], fd, tol * (1 + std::abs(fd))) << c.name << ": d/d input " << i << " element " << e;
    }
  }
}

class Autodiff : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override { scope_ = std::make_unique<ivy::BackendScope>(GetParam().c_str()); }
  std::unique_ptr<ivy::BackendScope> scope_;
};

Array arr(const ivy::Shape& s, double lo, double hi, int seed) {
  std::mt19937 g(static_cast<unsigned>(seed));
  return random_array(s, lo, hi, g);
}
Array to_current(const Array& x) { return ivy::to_backend(x, ivy::current_backend()); }

TEST_P(Autodiff, ElementwiseUnaryRulesMatchFiniteDifferences) {
  struct U {
    OpId op;
    double lo, hi;
  };
  const U ops[] = {{OpId::abs, 0.2, 2},      {OpId::acos, -0.9, 0.9}, {OpId::acosh, 1.2, 3},   {OpId::asin, -0.9, 0.9},
                   {OpId::asinh, -2, 2},     {OpId::atan, -2, 2},     {OpId::atanh, -0.9, 0.9}, {OpId::cos, -3, 3},
                   {OpId::cosh, -2, 2},      {OpId::exp, -2, 2},      {OpId::expm1, -2, 2},    {OpId::log, 0.2, 3},
                   {OpId::log1p, -0.5, 3},   {OpId::log2, 0.2, 3},    {OpId::log10, 0.2, 3},   {OpId::negative, -2, 2},
                   {OpId::positive, -2, 2},  {OpId::reciprocal, 0.3, 3}, {OpId::sin, -3, 3},   {OpId::sinh, -2, 2},
                   {OpId::square, -2, 2},    {OpId::sqrt, 0.2, 3},    {OpId::tan, -1.2, 1.2},  {OpId::tanh, -2, 2},
                   {OpId::real, -2, 2},      {OpId::conj, -2, 2}};
  int seed = 1;
  for (const U& u : ops) {
    for (const ivy::Shape& s : {ivy::Shape{}, ivy::Shape{3}, ivy::Shape{2, 3}}) {
      Case c{std::string(ivy::op_info(u.op).name), u.op, {to_current(arr(s, u.lo, u.hi, seed++))}, Attrs{}, {}};
      check_against_finite_differences(c);
    }
  }
  // negative abs inputs too
  check_against_finite_differences({"abs<0", OpId::abs, {to_current(arr({4}, -2, -0.2, 3))}, Attrs{}, {}});
}

TEST_P(Autodiff, ElementwiseBinaryRulesMatchFiniteDifferencesWithBroadcasting) {
  struct B {
    OpId op;
    double lo1, hi1, lo2, hi2;
  };
  const B ops[] = {{OpId::add, -2, 2, -2, 2},        {OpId::subtract, -2, 2, -2, 2}, {OpId::multiply, -2, 2, -2, 2},
                   {OpId::divide, -2, 2, 0.5, 2},    {OpId::atan2, -2, 2, 0.5, 2},   {OpId::hypot, 0.3, 2, 0.3, 2},
                   {OpId::logaddexp, -2, 2, -2, 2},  {OpId::pow, 0.5, 2, -1.5, 1.5}, {OpId::maximum, -2, 2, 3, 4},
                   {OpId::minimum, -2, 2, 3, 4},     {OpId::copysign, 0.5, 2, -2, 2}, {OpId::remainder, 0.3, 5, 1.1, 1.9}};
  int seed = 100;
  for (const B& b : ops) {
    const std::pair<ivy::Shape, ivy::Shape> shapes[] = {{{}, {}}, {{2, 3}, {2, 3}}, {{2, 3}, {3}}, {{2, 1}, {1, 3}}};
    for (const auto& [s1, s2] : shapes) {
      Case c{std::string(ivy::op_info(b.op).name), b.op,
             {to_current(arr(s1, b.lo1, b.hi1, seed)), to_current(arr(s2, b.lo2, b.hi2, seed + 1))}, Attrs{}, {}};
      seed += 2;
      if (b.op == OpId::copysign) c.differentiate = {true, false};
      check_against_finite_differences(c);
    }
  }
}

TEST_P(Autodiff, StructureAndReductionRulesMatchFiniteDifferences) {
  Array x = to_current(arr({2, 3, 4}, -2, 2, 11));
  auto reduce = [&](OpId op, ivy::Dims axes, bool keepdims) {
    std::optional<ivy::Dims> ax;  // none: every axis
    if (!axes.empty()) ax = axes;
    if (op == OpId::sum || op == OpId::prod) return Attrs(ivy::attr::reduce_acc{.axes = ax, .keepdims = keepdims});
    if (op == OpId::var || op == OpId::std)
      return Attrs(ivy::attr::reduce_var{.axes = ax, .keepdims = keepdims, .correction = 1});
    return Attrs(ivy::attr::reduce{.axes = ax, .keepdims = keepdims});
  };
  for (OpId op : {OpId::sum, OpId::prod, OpId::mean, OpId::max, OpId::min, OpId::var, OpId::std})
    for (const ivy::Dims& axes : {ivy::Dims{}, ivy::Dims{1}, ivy::Dims{0, 2}})
      for (bool keep : {false, true})
        check_against_finite_differences({std::string(ivy::op_info(op).name), op, {x}, reduce(op, axes, keep), {}});
  {
    Attrs a = ivy::attr::reshape{.shape = ivy::Shape{4, 6}};
    check_against_finite_differences({"reshape", OpId::reshape, {x}, a, {}});
  }
  {
    Attrs a = ivy::attr::permute_dims{.axes = ivy::Dims{2, 0, 1}};
    check_against_finite_differences({"permute_dims", OpId::permute_dims, {x}, a, {}});
  }
  {
    Attrs a = ivy::attr::broadcast_to{.shape = ivy::Shape{3, 2, 3, 4}};
    check_against_finite_differences({"broadcast_to", OpId::broadcast_to, {x}, a, {}});
  }
  {
    Attrs a = ivy::attr::flip{.axes = ivy::Dims{0, 2}};
    check_against_finite_differences({"flip", OpId::flip, {x}, a, {}});
  }
  {
    ivy::attr::roll v;
    v.shifts = ivy::Dims{1, -2};
    v.axes = ivy::Dims{1, 2};
    check_against_finite_differences({"roll", OpId::roll, {x}, v, {}});
    Attrs flat = ivy::attr::roll{.shifts = ivy::Dims{5}};
    check_against_finite_differences({"roll flat", OpId::roll, {x}, flat, {}});
  }
  {
    Attrs a = ivy::attr::tile{.reps = ivy::Dims{2, 1, 2}};
    check_against_finite_differences({"tile", OpId::tile, {x}, a, {}});
  }
  {
    ivy::attr::repeat v;
    v.repeats = ivy::Dims{2, 0, 3};
    v.axis = 1;
    check_against_finite_differences({"repeat per element", OpId::repeat, {x}, v, {}});
    Attrs b = ivy::attr::repeat{.repeats = ivy::Dims{2}};
    check_against_finite_differences({"repeat flat", OpId::repeat, {x}, b, {}});
  }
  {
    Attrs a = ivy::attr::one_axis{.axis = 1};
    Array y = to_current(arr({2, 2, 4}, -1, 1, 12));
    check_against_finite_differences({"concat", OpId::concat, {x, y}, a, {}});
  }
  {
    ivy::attr::slice v;
    v.start = ivy::Dims{1, 2, 0};
    v.stop = ivy::Dims{2, 0, 4};
    v.step = ivy::Dims{1, -1, 2};
    check_against_finite_differences({"strided_slice", OpId::strided_slice, {x}, v, {}});
    Array upd = to_current(arr({1, 2, 2}, -1, 1, 13));
    check_against_finite_differences({"slice_update", OpId::slice_update, {x, upd}, v, {}});
  }
  {
    Attrs a = ivy::attr::one_axis{.axis = 2};
    Array idx = to_current(ivy::asarray({3, 0, 3, 1}, ivy::int64));
    check_against_finite_differences({"take", OpId::take, {x, idx}, a, {}});
    Array along = to_current(ivy::remainder(ivy::reshape(ivy::arange(0, 2 * 3 * 5, 1, ivy::int64), {2, 3, 5}), 4));
    check_against_finite_differences({"take_along_axis", OpId::take_along_axis, {x, along}, a, {}});
  }
  {
    Array pos = to_current(ivy::asarray({1, 5, 7}, ivy::int64));
    Array vals = to_current(arr({3}, -1, 1, 14));
    check_against_finite_differences({"index_put_flat", OpId::index_put_flat, {x, pos, vals}, Attrs{}, {}});
  }
  {
    ivy::attr::sort v;
    v.axis = 1;
    v.descending = true;
    v.stable = true;
    check_against_finite_differences({"sort", OpId::sort, {x}, v, {}});
  }
  for (bool initial : {false, true})
    for (OpId op : {OpId::cumulative_sum, OpId::cumulative_prod}) {
      ivy::attr::cumulative v;
      v.axis = 2;
      v.include_initial = initial;
      check_against_finite_differences({std::string(ivy::op_info(op).name), op, {x}, v, {}});
    }
  {
    Array m = to_current(arr({2, 4, 3}, -1, 1, 15));
    for (std::int64_t k : {-1, 0, 2}) {
      Attrs a = ivy::attr::diagonal{.offset = k};
      check_against_finite_differences({"diagonal", OpId::diagonal, {m}, a, {}});
      Attrs t = ivy::attr::triangle{.k = k};
      check_against_finite_differences({"tril", OpId::tril, {m}, t, {}});
      check_against_finite_differences({"triu", OpId::triu, {m}, t, {}});
    }
  }
  {
    Array cond = to_current(ivy::asarray(std::vector<bool>{true, false, true}, ivy::Shape{3}));
    Array a = to_current(arr({2, 3}, -1, 1, 16)), b = to_current(arr({3}, -1, 1, 17));
    check_against_finite_differences({"where", OpId::where, {cond, a, b}, Attrs{}, {}});
    Attrs c128 = ivy::attr::astype{.dtype = ivy::complex128};
    check_against_finite_differences({"astype", OpId::astype, {a}, c128, {}});
  }
}

TEST_P(Autodiff, LinalgRulesMatchFiniteDifferences) {
  // well-conditioned matrices: random plus a multiple of the identity
  Array a = to_current(ivy::add(arr({2, 3, 3}, -1, 1, 21), ivy::multiply(ivy::eye(3, std::nullopt, 0, ivy::float64), 3.0)));
  Array b = to_current(arr({2, 3, 2}, -1, 1, 22));
  Array spd = ivy::add(ivy::matmul(a, ivy::matrix_transpose(a)), 0.0);
  check_against_finite_differences({"matmul", OpId::matmul, {a, b}, Attrs{}, {}});
  check_against_finite_differences({"matmul vec", OpId::matmul, {to_current(arr({3}, -1, 1, 23)), b}, Attrs{}, {}});
  check_against_finite_differences({"det", OpId::det, {a}, Attrs{}, {}});
  check_against_finite_differences({"slogdet", OpId::slogdet, {a}, Attrs{}, {}});
  check_against_finite_differences({"inv", OpId::inv, {a}, Attrs{}, {}});
  check_against_finite_differences({"solve", OpId::solve, {a, b}, Attrs{}, {}});
  for (bool upper : {false, true}) {
    Attrs c = ivy::attr::cholesky{.upper = upper};
    // a loss of the factor only sees A through its symmetric part: differentiate along
    // symmetric directions by composing with (X + X^T) / 2
    auto sym = [upper](const Array& x) {
      Attrs at = ivy::attr::cholesky{.upper = upper};
      Array s = ivy::divide(ivy::add(x, ivy::matrix_transpose(x)), 2.0);
      return ivy::dispatch(OpId::cholesky, s, at);
    };
    std::mt19937 g(3);
    Array w = random_array({2, 3, 3}, -1, 1, g);
    auto f = [&](const Array& x) { return ivy::sum(ivy::multiply(sym(x), to_current(w))); };
    Array gr = ivy::grad(f)(spd);
    std::vector<double> xv = values(spd), gv = values(gr);
    for (std::size_t e = 0; e < xv.size(); ++e) {
      auto at = [&](double d) {
        std::vector<double> v = xv;
        v[e] += d;
        return values(f(to_current(ivy::asarray(v, spd.shape(), ivy::float64))))[0];
      };
      EXPECT_NEAR(gv[e], (at(1e-6) - at(-1e-6)) / 2e-6, 1e-5) << "cholesky upper=" << upper << " element " << e;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, Autodiff, ::testing::ValuesIn(backend_names()),
                         [](const auto& info) { return info.param; });

// ---------------------------------------------------------------- transforms and conventions
class Transforms : public Autodiff {};

TEST_P(Transforms, GradOfClosedForms) {
  Array x = ivy::asarray({0.5, -1.0, 2.0});
  // d/dx sum(sin(x) * x) = cos(x) * x + sin(x)
  Array g = ivy::grad([](const Array& v) { return ivy::sum(ivy::sin(v) * v); })(x);
  std::vector<double> gv = values(g);
  for (int i = 0; i < 3; ++i) {
    const double xi = values(x)[static_cast<std::size_t>(i)];
    EXPECT_NEAR(gv[static_cast<std::size_t>(i)], std::cos(xi) * xi + std::sin(xi), 1e-12);
  }
  EXPECT_EQ(std::string(g.backend().name()), GetParam());
  auto [v, g2] = ivy::value_and_grad([](const Array& u) { return ivy::sum(u * u); })(x);
  EXPECT_NEAR(v.item<double>(), 0.25 + 1 + 4, 1e-12);
  EXPECT_EQ(values(g2), (std::vector<double>{1.0, -2.0, 4.0}));
  // second derivative: d2/dx2 sin(x) = -sin(x)
  auto d1 = ivy::grad([](const Array& u) { return ivy::sin(u); });
  auto d2 = ivy::grad([&](const Array& u) { return d1(u); });
  EXPECT_NEAR(d2(ivy::asarray(0.7, ivy::float64)).item<double>(), -std::sin(0.7), 1e-12);
  // third: d3/dx3 x^4 = 24 x
  auto p1 = ivy::grad([](const Array& u) { return u * u * u * u; });
  auto p2 = ivy::grad([&](const Array& u) { return p1(u); });
  auto p3 = ivy::grad([&](const Array& u) { return p2(u); });
  EXPECT_NEAR(p3(ivy::asarray(1.5, ivy::float64)).item<double>(), 36.0, 1e-9);
}

TEST_P(Transforms, ArgnumsAndNamedVariables) {
  Array a = ivy::asarray({1.0, 2.0}), b = ivy::asarray({3.0, -1.0});
  ivy::MultiFn f = [](const std::vector<Array>& v) { return ivy::sum(v[0] * v[1] * v[1]); };
  auto g = ivy::grad(f, {1, 0})({a, b});
  ASSERT_EQ(g.size(), 2u);
  EXPECT_EQ(values(g[0]), (std::vector<double>{6.0, -4.0}));  // 2 a b
  EXPECT_EQ(values(g[1]), (std::vector<double>{9.0, 1.0}));   // b^2
  // the paper's linear model: loss = mean((w x + b - y)^2)
  ivy::ArrayMap vars{{"w", ivy::asarray({0.5})}, {"b", ivy::asarray({0.0})}};
  Array xs = ivy::asarray({1.0, 2.0, 3.0}), ys = ivy::asarray({2.0, 4.0, 6.0});
  auto loss = [&](const ivy::ArrayMap& v) { return ivy::mean(ivy::square(v.at("w") * xs + v.at("b") - ys)); };
  auto r = ivy::execute_with_gradients(loss, vars);
  // residuals r_i = -1.5 x_i: loss = 2.25 * 14 / 3; dL/dw = 2/3 sum(r_i x_i), dL/db = 2/3 sum(r_i)
  EXPECT_NEAR(r.value.item<double>(), 2.25 * 14 / 3, 1e-12);
  EXPECT_NEAR(values(r.grads.at("w"))[0], 2.0 / 3 * -1.5 * 14, 1e-12);
  EXPECT_NEAR(values(r.grads.at("b"))[0], 2.0 / 3 * -1.5 * 6, 1e-12);
  // a few steps of gradient descent converge to w = 2, b = 0
  for (int step = 0; step < 300; ++step) {
    auto s = ivy::execute_with_gradients(loss, vars);
    for (auto& [k, v] : vars) v = v - 0.1 * s.grads.at(k);
  }
  EXPECT_NEAR(values(vars.at("w"))[0], 2.0, 1e-3);
  EXPECT_NEAR(values(vars.at("b"))[0], 0.0, 3e-3);
}

TEST_P(Transforms, VjpJvpAndJacobians) {
  Array x = ivy::asarray({0.3, -0.7, 1.1});
  auto f = [](const Array& v) { return ivy::stack({ivy::sum(ivy::exp(v)), ivy::prod(v), v[0] * v[2]}, 0); };
  // J[i][j] by hand
  std::vector<double> xv = values(x);
  const double J[3][3] = {{std::exp(xv[0]), std::exp(xv[1]), std::exp(xv[2])},
                          {xv[1] * xv[2], xv[0] * xv[2], xv[0] * xv[1]},
                          {xv[2], 0.0, xv[0]}};
  Array jr = ivy::jacrev(f)(x), jf = ivy::jacfwd(f)(x);
  ASSERT_EQ(jr.shape(), (ivy::Shape{3, 3}));
  ASSERT_EQ(jf.shape(), (ivy::Shape{3, 3}));
  std::vector<double> jrv = values(jr), jfv = values(jf);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      EXPECT_NEAR(jrv[static_cast<std::size_t>(3 * i + j)], J[i][j], 1e-12) << i << "," << j;
      EXPECT_NEAR(jfv[static_cast<std::size_t>(3 * i + j)], J[i][j], 1e-12) << i << "," << j;
    }
  ivy::ArraysFn fs = [&](const std::vector<Array>& v) { return std::vector<Array>{f(v[0])}; };
  auto [outs, tans] = ivy::jvp(fs, {x}, {ivy::asarray({1.0, 0.0, 2.0})});
  std::vector<double> tv = values(tans[0]);
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(tv[static_cast<std::size_t>(i)], J[i][0] + 2 * J[i][2], 1e-12);
  auto r = ivy::vjp(fs, {x});
  std::vector<double> cv = values(r.vjp_fn({ivy::asarray({1.0, -1.0, 0.5})})[0]);
  for (int j = 0; j < 3; ++j) EXPECT_NEAR(cv[static_cast<std::size_t>(j)], J[0][j] - J[1][j] + 0.5 * J[2][j], 1e-12);
}

TEST_P(Transforms, HessiansOfClosedForms) {
  // Rosenbrock: f = (1 - x)^2 + 100 (y - x^2)^2
  auto rosen = [](const Array& v) {
    Array a = v[0], b = v[1];
    return ivy::square(1.0 - a) + 100.0 * ivy::square(b - a * a);
  };
  const double x = 0.8, y = -0.3;
  Array h = ivy::hessian(rosen)(ivy::asarray({x, y}));
  std::vector<double> hv = values(h);
  EXPECT_NEAR(hv[0], 2 - 400 * (y - x * x) + 800 * x * x, 1e-9);
  EXPECT_NEAR(hv[1], -400 * x, 1e-9);
  EXPECT_NEAR(hv[2], -400 * x, 1e-9);
  EXPECT_NEAR(hv[3], 200, 1e-9);
  // log-sum-exp: H = diag(p) - p p^T
  Array z = ivy::asarray({0.1, -0.4, 0.9});
  Array hl = ivy::hessian([](const Array& v) { return ivy::log(ivy::sum(ivy::exp(v))); })(z);
  std::vector<double> zv = values(z), p(3), hlv = values(hl);
  double s = 0;
  for (int i = 0; i < 3; ++i) s += std::exp(zv[static_cast<std::size_t>(i)]);
  for (int i = 0; i < 3; ++i) p[static_cast<std::size_t>(i)] = std::exp(zv[static_cast<std::size_t>(i)]) / s;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      EXPECT_NEAR(hlv[static_cast<std::size_t>(3 * i + j)], (i == j ? p[static_cast<std::size_t>(i)] : 0) - p[static_cast<std::size_t>(i)] * p[static_cast<std::size_t>(j)], 1e-12);
}

TEST_P(Transforms, HessianOfAnMlpLossMatchesPyTorch) {
  const auto fixture =
      ivy::test_fixtures::load_fixture("hessian_mlp.json", "gen_hessian_fixture.py", ivy::test_fixtures::Layout::any);
  ASSERT_TRUE(fixture.error.empty()) << fixture.error;
  nlohmann::json j = fixture.doc;
  auto vec = [&](const char* k) { return j[k].get<std::vector<double>>(); };
  Array x = ivy::asarray(vec("x"), ivy::Shape{4, 3}, ivy::float64);
  Array t = ivy::asarray(vec("t"), ivy::Shape{4, 2}, ivy::float64);
  Array theta = ivy::asarray(vec("theta"), std::nullopt, ivy::float64);
  // theta = W1 (3, 5), b1 (5), W2 (5, 2), b2 (2), flattened in that order
  auto loss = [&](const Array& p) {
    Array w1 = ivy::reshape(p[ivy::Slice(0, 15)], {3, 5}), b1 = p[ivy::Slice(15, 20)];
    Array w2 = ivy::reshape(p[ivy::Slice(20, 30)], {5, 2}), b2 = p[ivy::Slice(30, 32)];
    Array h = ivy::tanh(ivy::matmul(x, w1) + b1);
    return ivy::mean(ivy::square(ivy::matmul(h, w2) + b2 - t));
  };
  EXPECT_NEAR(loss(theta).item<double>(), j["loss"].get<double>(), 1e-12);
  std::vector<double> got = values(ivy::hessian(loss)(theta)), want = vec("hessian");
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-10) << i;
  // forward over reverse gives the same matrix
  std::vector<double> fr = values(ivy::jacfwd(ivy::grad(loss))(theta));
  for (std::size_t i = 0; i < fr.size(); ++i) EXPECT_NEAR(fr[i], want[i], 1e-10) << i;
}

TEST_P(Transforms, SoftmaxCrossEntropyHessianAndGradInsideVjp) {
  // CE(z) = logsumexp(z) - z_y: gradient p - e_y, Hessian diag(p) - p p^T
  Array z = ivy::asarray({0.3, -1.2, 0.8, 0.1});
  auto ce = [](const Array& v) {
    Array m = ivy::max(v);
    return ivy::log(ivy::sum(ivy::exp(v - m))) + m - v[2];
  };
  std::vector<double> zv = values(z), p(4);
  double s = 0;
  for (double e : zv) s += std::exp(e);
  for (int i = 0; i < 4; ++i) p[static_cast<std::size_t>(i)] = std::exp(zv[static_cast<std::size_t>(i)]) / s;
  std::vector<double> g = values(ivy::grad(ce)(z)), h = values(ivy::jacfwd(ivy::jacrev(ce))(z));
  for (int i = 0; i < 4; ++i) {
    EXPECT_NEAR(g[static_cast<std::size_t>(i)], p[static_cast<std::size_t>(i)] - (i == 2), 1e-12);
    for (int k = 0; k < 4; ++k)
      EXPECT_NEAR(h[static_cast<std::size_t>(4 * i + k)],
                  (i == k ? p[static_cast<std::size_t>(i)] : 0) - p[static_cast<std::size_t>(i)] * p[static_cast<std::size_t>(k)], 1e-12);
  }
  // grad inside vjp: the VJP of x -> grad(ce)(x) with cotangent c is H c
  auto r = ivy::vjp([&](const std::vector<Array>& v) { return std::vector<Array>{ivy::grad(ce)(v[0])}; }, {z});
  std::vector<double> c{1.0, 0.0, -1.0, 0.5};
  std::vector<double> hc = values(r.vjp_fn({ivy::asarray(c)})[0]);
  for (int i = 0; i < 4; ++i) {
    double want = 0;
    for (int k = 0; k < 4; ++k) want += h[static_cast<std::size_t>(4 * i + k)] * c[static_cast<std::size_t>(k)];
    EXPECT_NEAR(hc[static_cast<std::size_t>(i)], want, 1e-12);
  }
}

TEST_P(Transforms, ConventionsAtNonSmoothPoints) {
  // abs'(0) = 0
  EXPECT_EQ(values(ivy::grad([](const Array& v) { return ivy::sum(ivy::abs(v)); })(ivy::asarray({0.0, -2.0, 3.0}))),
            (std::vector<double>{0.0, -1.0, 1.0}));
  // maximum: a tie splits the cotangent evenly
  ivy::MultiFn mx = [](const std::vector<Array>& v) { return ivy::sum(ivy::maximum(v[0], v[1])); };
  auto g = ivy::grad(mx, {0, 1})({ivy::asarray({1.0, 2.0, 3.0}), ivy::asarray({1.0, 5.0, 0.0})});
  EXPECT_EQ(values(g[0]), (std::vector<double>{0.5, 0.0, 1.0}));
  EXPECT_EQ(values(g[1]), (std::vector<double>{0.5, 1.0, 0.0}));
  // max reduction: ties share evenly
  EXPECT_EQ(values(ivy::grad([](const Array& v) { return ivy::max(v); })(ivy::asarray({3.0, 1.0, 3.0}))),
            (std::vector<double>{0.5, 0.0, 0.5}));
  // where: the cotangent reaches only the selected branch; the branch not taken contributes
  // zero, but a NaN derivative inside it still multiplies that zero (as in JAX): the safe
  // form puts a harmless value into the branch's input ("double where").
  Array x = ivy::asarray({4.0, -1.0});
  Array naive = ivy::grad([](const Array& v) { return ivy::sum(ivy::where(v > 0.0, ivy::sqrt(v), 0.0)); })(x);
  EXPECT_NEAR(values(naive)[0], 0.25, 1e-12);
  EXPECT_TRUE(std::isnan(values(naive)[1]));
  Array safe = ivy::grad([](const Array& v) {
    Array pos = v > 0.0;
    return ivy::sum(ivy::where(pos, ivy::sqrt(ivy::where(pos, v, 1.0)), 0.0));
  })(x);
  EXPECT_EQ(values(safe), (std::vector<double>{0.25, 0.0}));
  // stop_gradient: no gradient flows through it
  EXPECT_EQ(values(ivy::grad([](const Array& v) { return ivy::sum(v * ivy::stop_gradient(v)); })(ivy::asarray({2.0, 3.0}))),
            (std::vector<double>{2.0, 3.0}));
  // non-differentiable primitives carry no gradient: floor, sign, comparisons
  EXPECT_EQ(values(ivy::grad([](const Array& v) { return ivy::sum(ivy::floor(v) + ivy::sign(v)); })(ivy::asarray({1.5}))),
            (std::vector<double>{0.0}));
}

TEST_P(Transforms, ComplexArraysFollowJaxsConvention) {
  // grad of |z|^2 = x^2 + y^2 is dL/dx - i dL/dy = 2 conj(z)
  Array z = ivy::asarray(std::vector<std::complex<double>>{{1.0, 2.0}, {-0.5, 0.25}});
  Array g = ivy::grad([](const Array& v) { return ivy::sum(ivy::square(ivy::abs(v))); })(z);
  auto gv = g.to_vector<std::complex<double>>();
  EXPECT_NEAR(gv[0].real(), 2.0, 1e-12);
  EXPECT_NEAR(gv[0].imag(), -4.0, 1e-12);
  EXPECT_NEAR(gv[1].real(), -1.0, 1e-12);
  EXPECT_NEAR(gv[1].imag(), -0.5, 1e-12);
  // a holomorphic f: vjp_fn(1) is f'(z); for exp, exp(z)
  auto r = ivy::vjp([](const std::vector<Array>& v) { return std::vector<Array>{ivy::exp(v[0])}; }, {z});
  auto d = r.vjp_fn({ivy::ones_like(r.outputs[0])})[0].to_vector<std::complex<double>>();
  EXPECT_NEAR(std::abs(d[0] - std::exp(std::complex<double>(1.0, 2.0))), 0.0, 1e-12);
  EXPECT_NEAR(std::abs(d[1] - std::exp(std::complex<double>(-0.5, 0.25))), 0.0, 1e-12);
  // grad with holomorphic: f'(z) of f(z) = z^3 + sin(z) is 3 z^2 + cos(z)
  auto df = ivy::grad([](const Array& v) { return v * v * v + ivy::sin(v); }, ivy::GradOptions{true});
  const std::complex<double> z0(0.5, -1.5);
  auto got = df(ivy::asarray(std::vector<std::complex<double>>{z0}, ivy::Shape{}))
                 .item<std::complex<double>>();
  EXPECT_NEAR(std::abs(got - (3.0 * z0 * z0 + std::cos(z0))), 0.0, 1e-12);
  EXPECT_THROW(ivy::grad([](const Array& v) { return v; }, ivy::GradOptions{true})(ivy::asarray(1.0)), ivy::TypeError);
}

TEST_P(Transforms, CapturedArraysAreConstants) {
  Array c = ivy::asarray({2.0, 3.0});
  // c is also the argument: the captured one stays a constant (d/dx sum(x * c) = c)
  EXPECT_EQ(values(ivy::grad([&](const Array& v) { return ivy::sum(v * c); })(c)), (std::vector<double>{2.0, 3.0}));
}

TEST_P(Transforms, CustomVjpReplacesTheRule) {
  // a clipped gradient: forward x^2, backward 1 * cotangent whatever x is
  ivy::ArraysFn clipped = ivy::custom_vjp(
      [](const std::vector<Array>& v) { return std::vector<Array>{v[0] * v[0]}; },
      [](const std::vector<Array>&, const std::vector<Array>&, const std::vector<Array>& cot) {
        return std::vector<Array>{cot[0]};
      });
  Array g = ivy::grad([&](const Array& v) { return ivy::sum(clipped({v})[0] * 3.0); })(ivy::asarray({5.0, -2.0}));
  EXPECT_EQ(values(g), (std::vector<double>{3.0, 3.0}));
  // outside any transform it is the forward function
  EXPECT_EQ(values(clipped({ivy::asarray({3.0})})[0]), (std::vector<double>{9.0}));
}

// Reverse mode keeps what the rules read and no more: an intermediate read only by add and
// negative (their rules need its shape alone) is freed before the backward pass starts; exp's
// result, which its rule reads, lives until its node has run; nothing outlives grad.
TEST_P(Transforms, TapeKeepsOnlyWhatRulesRead) {
  std::weak_ptr<ivy::ArrayImpl> unread, read;
  bool unread_freed = false, read_kept = false;
  ivy::ArraysFn probe = ivy::custom_vjp(
      [](const std::vector<Array>& v) { return std::vector<Array>{v[0] * 1.0}; },
      [&](const std::vector<Array>&, const std::vector<Array>&, const std::vector<Array>& cot) {
        unread_freed = unread.expired();  // the last node recorded: the first to run
        read_kept = !read.expired();
        return std::vector<Array>{cot[0]};
      });
  auto f = [&](const Array& x) {
    Array a = x + 1.0;
    unread = a.impl_ptr();
    Array b = -a;
    Array m = ivy::exp(x);
    read = m.impl_ptr();
    return probe({ivy::sum(b) + ivy::sum(m)})[0];
  };
  const Array x = ivy::asarray({0.5, -1.0});
  const std::vector<double> g = values(ivy::grad(f)(x));
  EXPECT_NEAR(g[0], std::exp(0.5) - 1.0, 1e-15);
  EXPECT_NEAR(g[1], std::exp(-1.0) - 1.0, 1e-15);
  EXPECT_TRUE(unread_freed);
  EXPECT_TRUE(read_kept);
  EXPECT_TRUE(unread.expired());
  EXPECT_TRUE(read.expired());
}

TEST_P(Transforms, ErrorsNameTheTransform) {
  Array x = ivy::asarray({1.0, 2.0});
  auto message = [](const std::function<void()>& fn) {
    try {
      fn();
    } catch (const ivy::Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message([&] { ivy::grad([](const Array& v) { return v * 2.0; })(x); }).rfind("[grad] the function must return a 0-d", 0), 0u);
  EXPECT_EQ(message([&] { ivy::grad(ivy::MultiFn([](const std::vector<Array>& v) { return ivy::sum(v[0]); }), {2})({x}); }).rfind("[grad] argnums entry 2", 0), 0u);
  EXPECT_EQ(message([&] { ivy::grad([](const Array& v) { return ivy::sum(v); })(ivy::asarray({1, 2})); }).rfind("[grad] argument 0 has dtype int", 0), 0u);
  EXPECT_EQ(message([&] { ivy::grad([](const Array&) { return Array(); })(x); }).rfind("[grad] the function returned an undefined", 0), 0u);
  EXPECT_EQ(message([&] { ivy::grad([](const Array& v) { return ivy::sum(v) > 0.0; })(x); }).rfind("[grad] the function must return a real floating", 0), 0u);
  EXPECT_EQ(message([&] { ivy::jvp([](const std::vector<Array>& v) { return v; }, {x}, {}); }).rfind("[jvp]", 0), 0u);
  // vjp: a cotangent of the wrong count or shape
  auto r = ivy::vjp([](const std::vector<Array>& v) { return std::vector<Array>{v[0] * 2.0}; }, {x});
  EXPECT_EQ(message([&] { r.vjp_fn({}); }).rfind("[vjp] expected 1 cotangents, got 0", 0), 0u);
  EXPECT_EQ(message([&] { r.vjp_fn({ivy::asarray({1.0, 2.0, 3.0})}); }).rfind("[vjp] cotangent 0 has shape (3,), output 0 has shape (2,)", 0), 0u);
  EXPECT_EQ(message([&] { ivy::vjp([](const std::vector<Array>& v) { return v; }, {Array()}); }).rfind("[vjp] argument 0 is undefined", 0), 0u);
  // jacobians, hessian and execute_with_gradients of integer arguments
  auto ident = [](const Array& v) { return v; };
  EXPECT_EQ(message([&] { ivy::jacrev(ident)(ivy::asarray({1, 2})); }).rfind("[jacrev] argument 0 has dtype int", 0), 0u);
  EXPECT_EQ(message([&] { ivy::jacfwd(ident)(ivy::asarray({1, 2})); }).rfind("[jacfwd] argument 0 has dtype int", 0), 0u);
  EXPECT_EQ(message([&] { ivy::hessian([](const Array& v) { return ivy::sum(v); })(ivy::asarray({1, 2})); })
                .rfind("[hessian] argument 0 has dtype int", 0),
            0u);
  EXPECT_EQ(message([&] {
              ivy::execute_with_gradients([](const ivy::ArrayMap& m) { return ivy::sum(m.at("w")); },
                                          {{"w", ivy::asarray({1, 2})}});
            }).rfind("[execute_with_gradients] argument 0 has dtype int", 0),
            0u);
  // jvp: a tangent of the wrong shape
  EXPECT_EQ(message([&] { ivy::jvp([](const std::vector<Array>& v) { return v; }, {x}, {ivy::asarray({1.0})}); })
                .rfind("[jvp] tangent 0 must have the primal's shape", 0),
            0u);
  // custom_vjp: a backward function returning the wrong number of cotangents
  ivy::ArraysFn bad = ivy::custom_vjp([](const std::vector<Array>& v) { return std::vector<Array>{v[0] * v[0]}; },
                                      [](const std::vector<Array>&, const std::vector<Array>&, const std::vector<Array>&) {
                                        return std::vector<Array>{};
                                      });
  EXPECT_EQ(message([&] { ivy::grad([&](const Array& v) { return ivy::sum(bad({v})[0]); })(x); })
                .rfind("[custom_vjp] the backward function returned 0 cotangents for 1 inputs", 0),
            0u);
  // a throwing forward function leaves no tape paused or on the stack
  ivy::ArraysFn throws = ivy::custom_vjp([](const std::vector<Array>&) -> std::vector<Array> { throw ivy::ValueError("[f] no"); },
                                         [](const std::vector<Array>&, const std::vector<Array>&, const std::vector<Array>& c) { return c; });
  EXPECT_EQ(message([&] { ivy::grad([&](const Array& v) { return ivy::sum(throws({v})[0]); })(x); }), "[f] no");
  EXPECT_EQ(ivy::observer_depth(), 0);
  EXPECT_EQ(values(ivy::grad([](const Array& v) { return ivy::sum(v * v); })(x)), (std::vector<double>{2.0, 4.0}));
  EXPECT_EQ(message([&] { ivy::stop_gradient(Array()); }).rfind("[stop_gradient] got an undefined array", 0), 0u);
}

TEST_P(Transforms, ThreadsDifferentiateIndependently) {
  const std::string b = GetParam();
  std::vector<double> r1, r2;
  std::thread t1([&] {
    ivy::BackendScope s(b.c_str());
    for (int i = 0; i < 20; ++i) r1 = values(ivy::grad([](const Array& v) { return ivy::sum(v * v * v); })(ivy::asarray({1.0, 2.0})));
  });
  std::thread t2([&] {
    ivy::BackendScope s(b.c_str());
    for (int i = 0; i < 20; ++i) r2 = values(ivy::grad([](const Array& v) { return ivy::sum(ivy::exp(v)); })(ivy::asarray({0.0, 1.0})));
  });
  t1.join();
  t2.join();
  EXPECT_EQ(r1, (std::vector<double>{3.0, 12.0}));
  EXPECT_NEAR(r2[0], 1.0, 1e-15);
  EXPECT_NEAR(r2[1], std::exp(1.0), 1e-15);
}

TEST_P(Transforms, GradientsTraceIntoAGraph) {
  auto df = ivy::grad([](const Array& v) { return ivy::sum(ivy::tanh(v)); });
  Array x = ivy::asarray({0.2, -0.5});
  ivy::Graph g = ivy::trace([&](const Array& v) { return df(v); }, x);
  Array y = ivy::asarray({1.0, 0.0});
  std::vector<double> replay = values(g.run({y})[0]), direct = values(df(y));
  EXPECT_NEAR(replay[0], direct[0], 1e-15);
  EXPECT_NEAR(replay[1], 1.0, 1e-15);
}

INSTANTIATE_TEST_SUITE_P(Backends, Transforms, ::testing::ValuesIn(backend_names()),
                         [](const auto& info) { return info.param; });

}  // namespace

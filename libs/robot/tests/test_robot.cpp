// ivy::robot against NumPy (tests/fixtures/robot.json from tests/gen_robot_fixtures.py) on
// every backend: spline samples (orders 1-4, batch dims, a 2-d parameter) and exact anchor
// interpolation; Mico and Panda forward kinematics in float64 (1e-9) and float32 (1e-5), with
// and without a base pose; RigidMobile and sample_links by hand; gradients against central
// differences; argument errors.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "ivy/ivy.hpp"
#include "lib_test_util.hpp"
#include "ivy/robot.hpp"


namespace {

using json = nlohmann::json;
using ivy::Array;
using ivy::Ellipsis;
using ivy::Shape;
using ivy::Slice;
namespace robot = ivy::robot;

using ivy::lib_testing::backend_names;

const json& doc() {
  static const json d = ivy::lib_testing::load_fixture("robot.json");
  return d;
}

using ivy::lib_testing::arr;
using ivy::lib_testing::vals;

// |got - want| <= tol (relative: tol * max(1, |want|)).
::testing::AssertionResult close(const Array& got, const Array& want, double tol, bool relative = false) {
  if (!(got.shape() == want.shape()))
    return ::testing::AssertionFailure() << "shape " << got.shape().str() << " vs " << want.shape().str();
  auto u = vals(got), v = vals(want);
  for (std::size_t i = 0; i < u.size(); ++i)
    if (!(std::abs(u[i] - v[i]) <= tol * (relative ? std::max(1.0, std::abs(v[i])) : 1.0)))
      return ::testing::AssertionFailure() << "element " << i << ": " << u[i] << " vs " << v[i];
  return ::testing::AssertionSuccess();
}

// Central differences of a scalar function of x (float64) against ivy::grad.
void expect_grad_matches_fd(const std::function<Array(const Array&)>& f, const Array& x, double h, double tol) {
  auto g = vals(ivy::grad(f)(x));
  auto x0 = vals(x);
  ASSERT_EQ(g.size(), x0.size());
  for (std::size_t k = 0; k < x0.size(); ++k) {
    auto p = x0, m = x0;
    p[k] += h;
    m[k] -= h;
    double fd = (f(ivy::asarray(p, x.shape())).item<double>() - f(ivy::asarray(m, x.shape())).item<double>()) / (2 * h);
    EXPECT_NEAR(g[k], fd, tol) << "component " << k;
  }
}

template <class Fn>
void expect_error_message(Fn&& fn, const std::string& prefix) {
  try {
    fn();
    ADD_FAILURE() << "no error; expected " << prefix;
  } catch (const ivy::ValueError& e) {
    EXPECT_EQ(std::string(e.what()).rfind(prefix, 0), 0u) << e.what();
  } catch (const ivy::TypeError& e) {
    EXPECT_EQ(std::string(e.what()).rfind(prefix, 0), 0u) << e.what();
  }
}

class Robot : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    ASSERT_TRUE(doc().contains("splines")) << "tests/fixtures/robot.json is missing (run tests/gen_robot_fixtures.py)";
    scope_ = std::make_unique<ivy::BackendScope>(ivy::Backend(GetParam()));
  }
  std::unique_ptr<ivy::BackendScope> scope_;
};

// ---------------------------------------------------------------- splines
TEST_P(Robot, SplineMatchesNumpy) {
  ASSERT_GE(doc().at("splines").size(), 5u) << "robot.json lost spline cases (orders 1 to 4, and a batch)";
  for (const auto& c : doc().at("splines")) {
    const int order = c.at("order").get<int>();
    for (auto dt : {ivy::float64, ivy::float32}) {
      Array out = robot::sample_spline_path(arr(c.at("anchor_points"), dt), arr(c.at("anchor_vals"), dt),
                                            arr(c.at("sample_points"), dt), order);
      EXPECT_EQ(out.dtype(), dt);
      EXPECT_EQ(out.backend(), ivy::Backend(GetParam()));
      EXPECT_TRUE(close(out, arr(c.at("samples")), dt == ivy::float64 ? 1e-9 : 1e-4, true)) << "order " << order;
    }
  }
}

TEST_P(Robot, SplineInterpolatesAnchorsExactly) {
  ASSERT_GE(doc().at("splines").size(), 5u) << "robot.json lost spline cases (orders 1 to 4, and a batch)";
  for (const auto& c : doc().at("splines")) {
    const int order = c.at("order").get<int>();
    Array cp = arr(c.at("anchor_points")), f = arr(c.at("anchor_vals"));
    EXPECT_TRUE(close(robot::sample_spline_path(cp, f, cp, order), f, 1e-9)) << "order " << order;
  }
  // The drone demo's shape: 5 anchors at linspace(0, 1, 5), 3-d positions, 100 samples.
  Array t = ivy::reshape(ivy::linspace(0.0, 1.0, 5, ivy::float64), {5, 1});
  Array f =
      ivy::asarray({{-1.15, -1.028, 0.6}, {-0.5, 0.2, 1.0}, {0.0, 0.5, 0.9}, {0.6, 1.0, 0.7}, {1.025, 1.125, 0.6}});
  Array path = robot::sample_spline_path(t, f, ivy::reshape(ivy::linspace(0.0, 1.0, 100, ivy::float64), {100, 1}));
  EXPECT_EQ(path.shape(), (Shape{100, 3}));
  EXPECT_TRUE(close(path.index({0}), f.index({0}), 1e-9));
  EXPECT_TRUE(close(path.index({99}), f.index({4}), 1e-9));
}

TEST_P(Robot, SplineBatchDimsAndBroadcast) {
  const auto& c = doc().at("splines").at(2);  // order 3, batch 2
  Array cp = arr(c.at("anchor_points")), f = arr(c.at("anchor_vals")), x = arr(c.at("sample_points"));
  Array want = arr(c.at("samples"));
  // one batch element alone, unbatched
  EXPECT_TRUE(close(robot::sample_spline_path(cp.index({1}), f.index({1}), x.index({1})), want.index({1}), 1e-9));
  // two batch dims [1, 2, ...]
  Array out = robot::sample_spline_path(ivy::expand_dims(cp, 0), ivy::expand_dims(f, 0), ivy::expand_dims(x, 0));
  EXPECT_TRUE(close(out, ivy::expand_dims(want, 0), 1e-9));
  // shared sample points broadcast against batched anchors
  Array x0 = x.index({0});
  Array b = robot::sample_spline_path(cp, f, x0);
  EXPECT_EQ(b.shape(), (Shape{2, 9, 3}));
  EXPECT_TRUE(close(b.index({0}), want.index({0}), 1e-9));
  // anchor values batched over shared anchor points: [N, 1] with [3, N, PD]
  Array fs = ivy::stack({f.index({0}), 2.0 * f.index({0}), -f.index({0})});
  Array s = robot::sample_spline_path(cp.index({0}), fs, x0);
  EXPECT_EQ(s.shape(), (Shape{3, 9, 3}));
  EXPECT_TRUE(close(s.index({1}), 2.0 * want.index({0}), 1e-9));
}

TEST_P(Robot, SplineGradientAgainstFiniteDifferences) {
  const auto& c = doc().at("splines").at(2);
  Array cp = arr(c.at("anchor_points")).index({0}), f0 = arr(c.at("anchor_vals")).index({0});
  Array x = arr(c.at("sample_points")).index({0});
  Array W = ivy::reshape(ivy::linspace(-1.0, 1.0, 27, ivy::float64), {9, 3});
  // w.r.t. the anchor values (the drone's learnable anchors)
  expect_grad_matches_fd([&](const Array& f) { return ivy::sum(robot::sample_spline_path(cp, f, x) * W); }, f0, 1e-6,
                         1e-7);
  // w.r.t. the anchor points (order 3: smooth kernel)
  expect_grad_matches_fd([&](const Array& p) { return ivy::sum(robot::sample_spline_path(p, f0, x) * W); }, cp, 1e-6,
                         1e-5);
}

// ---------------------------------------------------------------- forward kinematics
robot::Manipulator arm(const std::string& name, Array base = Array(), ivy::DType dt = ivy::float64) {
  return name == "mico" ? robot::mico_manipulator(base, dt) : robot::panda_manipulator(base, dt);
}

TEST_P(Robot, ForwardKinematicsMatchesNumpy) {
  for (std::string name : {"mico", "panda"}) {
    const auto& fx = doc().at("fk").at(name);
    for (auto dt : {ivy::float64, ivy::float32}) {
      const double tol = dt == ivy::float64 ? 1e-9 : 1e-5;
      Array q = arr(fx.at("joint_angles"), dt);
      auto m = arm(name, Array(), dt);
      EXPECT_EQ(m.num_joints(), q.shape().back());
      Array mats = m.compute_link_matrices(q);
      EXPECT_EQ(mats.dtype(), dt);
      EXPECT_TRUE(close(mats, arr(fx.at("link_matrices")), tol)) << name;
      Array want_b = arr(fx.at("link_matrices_with_base"));
      auto mb = arm(name, arr(fx.at("base"), dt), dt);
      EXPECT_TRUE(close(mb.compute_link_matrices(q), want_b, tol)) << name << " with base";
      EXPECT_TRUE(close(mb.compute_link_poses(q), want_b.index({Ellipsis, Slice(0, 3), Slice()}), tol));
      // a [4, 4] base gives the same
      Array b44 = ivy::concat({arr(fx.at("base")), ivy::asarray({{0.0, 0.0, 0.0, 1.0}})}, 0);
      EXPECT_TRUE(close(arm(name, b44, dt).compute_link_matrices(q), want_b, tol));
    }
  }
}

TEST_P(Robot, ForwardKinematicsBatchDims) {
  const auto& fx = doc().at("fk").at("mico");
  Array q = arr(fx.at("joint_angles"));  // [7, 6]
  Array want = arr(fx.at("link_matrices"));
  auto m = robot::mico_manipulator();
  EXPECT_TRUE(close(m.compute_link_matrices(q.index({3})), want.index({3}), 1e-9));  // unbatched
  Array q2 = ivy::reshape(q.index({Slice(0, 6)}), {2, 3, 6});
  Array got = m.compute_link_poses(q2);
  EXPECT_EQ(got.shape(), (Shape{2, 3, 7, 3, 4}));
  EXPECT_TRUE(
      close(got, ivy::reshape(want.index({Slice(0, 6), Ellipsis, Slice(0, 3), Slice()}), {2, 3, 7, 3, 4}), 1e-9));
  // a batch of base poses [2, 3, 4] broadcast against joint angles [7, 1, 6]
  Array base = arr(fx.at("base"));
  Array bases = ivy::stack({base, base});
  auto mb = robot::mico_manipulator(bases);
  Array out = mb.compute_link_matrices(ivy::expand_dims(q, 1));
  EXPECT_EQ(out.shape(), (Shape{7, 2, 7, 4, 4}));
  EXPECT_TRUE(close(out.index({Slice(), 1}), arr(fx.at("link_matrices_with_base")), 1e-9));
}

TEST_P(Robot, ForwardKinematicsGradient) {
  const auto& fx = doc().at("fk").at("mico");
  Array q = arr(fx.at("joint_angles")).index({2});
  auto m = robot::mico_manipulator();
  Array w = ivy::asarray({0.7, -1.3, 0.4});
  // end-effector position
  auto f = [&](const Array& qq) { return ivy::sum(m.compute_link_poses(qq).index({Ellipsis, -1, Slice(), 3}) * w); };
  expect_grad_matches_fd(f, q, 1e-6, 1e-8);
  // and the link samples of the Panda (mean over points)
  auto p = robot::panda_manipulator();
  Array qp = arr(doc().at("fk").at("panda").at("joint_angles")).index({1});
  expect_grad_matches_fd([&](const Array& qq) { return ivy::mean(p.sample_links(qq) * w) * 10.0; }, qp, 1e-6, 1e-8);
}

// ---------------------------------------------------------------- sample_links
TEST_P(Robot, SampleLinksCountsAndEndpoints) {
  for (std::string name : {"mico", "panda"}) {
    const auto& fx = doc().at("fk").at(name);
    auto m = arm(name);
    Array q = arr(fx.at("joint_angles"));
    Array mats = arr(fx.at("link_matrices"));
    for (double spm : {25.0, 3.0, 100.0}) {
      // documented count: 1 + sum over links of max(1, ceil(L spm)) for L > 0
      std::int64_t S = 1;
      auto a = fx.at("dh").at("a"), d = fx.at("dh").at("d");
      for (std::size_t i = 0; i < a.size(); ++i) {
        double L = std::hypot(a[i].get<double>(), d[i].get<double>());
        if (L > 0) S += std::max<std::int64_t>(1, static_cast<std::int64_t>(std::ceil(L * spm)));
      }
      EXPECT_EQ(m.num_link_samples(spm), S);
      Array pts = m.sample_links(q, spm);
      EXPECT_EQ(pts.shape(), (Shape{q.shape()[0], S, 3})) << name;
      // every frame origin at its documented index
      auto idx = m.frame_origin_sample_indices(spm);
      ASSERT_EQ(idx.size(), static_cast<std::size_t>(m.num_joints() + 1));
      EXPECT_EQ(idx.front(), 0);
      EXPECT_EQ(idx.back(), S - 1);
      for (std::size_t i = 0; i < idx.size(); ++i)
        EXPECT_TRUE(close(pts.index({Slice(), idx[i]}),
                          mats.index({Slice(), static_cast<std::int64_t>(i), Slice(0, 3), 3}), 1e-9))
            << name << " origin " << i;
      // evenly spaced along each link: consecutive gaps within one link are equal
      auto P = vals(pts.index({0}));
      for (std::size_t i = 0; i + 1 < idx.size(); ++i) {
        for (std::int64_t k = idx[i] + 1; k < idx[i + 1]; ++k) {
          for (int c = 0; c < 3; ++c) {
            double g0 = P[3 * (k) + c] - P[3 * (k - 1) + c], g1 = P[3 * (k + 1) + c] - P[3 * k + c];
            EXPECT_NEAR(g0, g1, 1e-12);
          }
        }
      }
    }
  }
  // Panda's joint 2 has a = d = 0: that link has no samples, and origins 1 and 2 share an index.
  auto idx = robot::panda_manipulator().frame_origin_sample_indices();
  EXPECT_EQ(idx[1], idx[2]);
  EXPECT_EQ(robot::panda_manipulator().link_lengths()[1], 0.0);
}

// ---------------------------------------------------------------- RigidMobile
TEST_P(Robot, RigidMobileSampleBodyByHand) {
  robot::RigidMobile body(ivy::asarray({{0.0, 0.0, 0.0}, {1.0, 0.0, 0.0}, {0.0, 2.0, 0.0}, {0.0, 0.0, -1.0}}));
  EXPECT_EQ(body.num_body_points(), 4);
  // 90 degrees about z, then translate (1, 2, 3)
  Array T = ivy::asarray({{0.0, -1.0, 0.0, 1.0}, {1.0, 0.0, 0.0, 2.0}, {0.0, 0.0, 1.0, 3.0}});
  Array want = ivy::asarray({{1.0, 2.0, 3.0}, {1.0, 3.0, 3.0}, {-1.0, 2.0, 3.0}, {1.0, 2.0, 2.0}});
  EXPECT_TRUE(close(body.sample_body(T), want, 1e-12));
  // batch [2, 1] and a [.., 4, 4] matrix; float32 keeps its dtype
  Array I = ivy::concat({ivy::eye(3, std::nullopt, 0, ivy::float64), ivy::zeros({3, 1}, ivy::float64)}, -1);
  Array Tb = ivy::expand_dims(ivy::stack({T, I}), 1);
  Array out = body.sample_body(Tb);
  EXPECT_EQ(out.shape(), (Shape{2, 1, 4, 3}));
  EXPECT_TRUE(close(out.index({0, 0}), want, 1e-12));
  EXPECT_TRUE(close(out.index({1, 0}), body.rel_body_points(), 1e-12));
  Array T44 = ivy::astype(ivy::concat({T, ivy::asarray({{0.0, 0.0, 0.0, 1.0}})}, 0), ivy::float32);
  Array o32 = body.sample_body(T44);
  EXPECT_EQ(o32.dtype(), ivy::float32);
  EXPECT_TRUE(close(o32, want, 1e-6));
  // differentiable in the pose
  expect_grad_matches_fd([&](const Array& t) { return ivy::sum(ivy::sin(body.sample_body(t))); }, T, 1e-6, 1e-8);
}

// ---------------------------------------------------------------- other backends' constants
TEST_P(Robot, ConstantsMoveToTheJointAnglesBackend) {
  for (auto other : ivy::available_backends()) {
    auto m = robot::mico_manipulator(Array(), ivy::float64, other);
    EXPECT_EQ(m.a_s().backend(), other);
    Array q = arr(doc().at("fk").at("mico").at("joint_angles"), ivy::float32);
    Array out = m.compute_link_matrices(q);
    EXPECT_EQ(out.backend(), ivy::Backend(GetParam()));
    EXPECT_EQ(out.dtype(), ivy::float32);
    EXPECT_TRUE(close(out, arr(doc().at("fk").at("mico").at("link_matrices")), 1e-5));
  }
}

// ---------------------------------------------------------------- bad input
TEST_P(Robot, BadInput) {
  Array cp = ivy::reshape(ivy::linspace(0.0, 1.0, 4, ivy::float64), {4, 1});
  Array f = ivy::ones({4, 3}, ivy::float64);
  Array x = ivy::reshape(ivy::linspace(0.0, 1.0, 6, ivy::float64), {6, 1});
  const std::string sp = "[robot.sample_spline_path] ";
  expect_error_message([&] { robot::sample_spline_path(cp, f, x, 0); }, sp);
  expect_error_message([&] { robot::sample_spline_path(cp, ivy::ones({5, 3}, ivy::float64), x); }, sp);
  expect_error_message([&] { robot::sample_spline_path(cp, f, ivy::ones({6, 2}, ivy::float64)); }, sp);
  expect_error_message([&] { robot::sample_spline_path(ivy::linspace(0.0, 1.0, 4, ivy::float64), f, x); }, sp);
  expect_error_message([&] { robot::sample_spline_path(cp.index({Slice(0, 1)}), f.index({Slice(0, 1)}), x); }, sp);
  EXPECT_THROW(robot::sample_spline_path(cp, ivy::ones({4, 3}, ivy::int32), x), ivy::TypeError);
  EXPECT_THROW(robot::sample_spline_path(cp, f, x, -1), ivy::ValueError);
  // batch dims that do not broadcast
  expect_error_message([&] { robot::sample_spline_path(ivy::stack({cp, cp}), ivy::stack({f, f, f}), x); }, sp);

  robot::RigidMobile body(ivy::zeros({2, 3}, ivy::float64));
  expect_error_message([&] { robot::RigidMobile(ivy::zeros({2, 4}, ivy::float64)); }, "[robot.RigidMobile] ");
  expect_error_message([&] { body.sample_body(ivy::zeros({3, 3}, ivy::float64)); }, "[robot.sample_body] ");
  EXPECT_THROW(body.sample_body(ivy::zeros({3, 4}, ivy::int64)), ivy::TypeError);

  auto m = robot::mico_manipulator();
  const std::string cl = "[robot.compute_link_matrices] ";
  expect_error_message([&] { m.compute_link_matrices(ivy::zeros({7}, ivy::float64)); }, cl);
  expect_error_message([&] { m.compute_link_matrices(ivy::zeros({2, 5}, ivy::float64)); }, cl);
  EXPECT_THROW(m.compute_link_matrices(ivy::zeros({6}, ivy::int32)), ivy::TypeError);
  {  // a batch of 3 base poses against a batch of 2 joint configurations
    Array bases = ivy::broadcast_to(ivy::eye(4, std::nullopt, 0, ivy::float64), {3, 4, 4});
    auto batched = robot::mico_manipulator(bases);
    expect_error_message([&] { batched.compute_link_matrices(ivy::zeros({2, 6}, ivy::float64)); }, cl);
  }
  expect_error_message([&] { m.sample_links(ivy::zeros({6}, ivy::float64), 0.0); }, "[robot.sample_links] ");
  expect_error_message([&] { m.sample_links(ivy::zeros({5}, ivy::float64)); }, "[robot.sample_links] ");

  Array z6 = ivy::zeros({6}, ivy::float64), z5 = ivy::zeros({5}, ivy::float64);
  const std::string mp = "[robot.Manipulator] ";
  expect_error_message([&] { robot::Manipulator(z6, z6, z5, z6, z6); }, mp);
  expect_error_message([&] { robot::Manipulator(z6, z6, z6, z6, ivy::zeros({6, 1}, ivy::float64)); }, mp);
  EXPECT_THROW(robot::Manipulator(z6, z6, z6, ivy::zeros({6}, ivy::int32), z6), ivy::TypeError);
  Array nan_base = ivy::full({3, 4}, std::nan(""), ivy::float64);
  expect_error_message([&] { robot::Manipulator(z6, z6, z6, z6, z6, nan_base); }, mp);
  expect_error_message([&] { robot::mico_manipulator(nan_base); }, mp);
  expect_error_message([&] { robot::panda_manipulator(ivy::zeros({2, 4}, ivy::float64)); }, mp);
  expect_error_message([&] { robot::panda_manipulator(ivy::zeros({4, 4}, ivy::float64)); }, mp);  // last row not 0001
  EXPECT_THROW(robot::mico_manipulator(Array(), ivy::int32), ivy::TypeError);
  expect_error_message([&] { robot::panda_manipulator(Array(), ivy::int64); }, "[robot.panda_manipulator] ");
  // the message names what was got
  try {
    m.compute_link_matrices(ivy::zeros({2, 5}, ivy::float64));
  } catch (const ivy::ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("[..., 6]"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("(2, 5)"), std::string::npos) << e.what();
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, Robot, ::testing::ValuesIn(backend_names()),
                         [](const auto& info) { return info.param; });

}  // namespace

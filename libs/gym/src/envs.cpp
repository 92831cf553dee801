// The five environments: dynamics (semi-implicit Euler), observations, rewards, termination
// rules, initial-state distributions and drawings. docs/gym.md states every equation.
#include <cmath>
#include <string>
#include <vector>

#include "detail.hpp"
#include "ivy/gym.hpp"

namespace ivy::gym {

using namespace detail;

// ---------------------------------------------------------------- CartPole
CartPole::CartPole(const EnvOptions& options) : Env("CartPole", options, MAX_EPISODE_STEPS) {}

Array CartPole::step_impl(const Array& s, const Array& a) const {
  Array x = c(s, 0), xd = c(s, 1), th = c(s, 2), thd = c(s, 3);
  Array force = FORCE_SCALE * c(a, 0);
  Array cos_t = ivy::cos(th), sin_t = ivy::sin(th);
  constexpr double total = CART_MASS + POLE_MASS, pml = POLE_MASS * POLE_HALF_LENGTH;
  Array temp = (force + pml * thd * thd * sin_t) / total;
  Array thdd = (GRAVITY * sin_t - cos_t * temp) / (POLE_HALF_LENGTH * (4.0 / 3.0 - POLE_MASS * cos_t * cos_t / total));
  Array xdd = temp - pml * thdd * cos_t / total;
  Array xd2 = xd + DT * xdd;
  Array thd2 = thd + DT * thdd;
  return ivy::stack({x + DT * xd2, xd2, th + DT * thd2, thd2}, -1);
}
Array CartPole::observation_impl(const Array& s) const {
  Array th = c(s, 2);
  return ivy::stack({c(s, 0), c(s, 1), ivy::cos(th), ivy::sin(th), c(s, 3)}, -1);
}
Array CartPole::reward_impl(const Array& s) const {
  Array x = c(s, 0);
  return ivy::exp(-(x * x)) * (ivy::cos(c(s, 2)) + 1.0) * 0.5;
}
Array CartPole::terminated_impl(const Array& s) const { return ivy::abs(c(s, 0)) > X_LIMIT; }
Array CartPole::sample_impl(const Shape& b, DType dt, Backend be) const {
  Array x = uniform(-1.0, 1.0, b, dt, be), xd = uniform(-0.3, 0.3, b, dt, be);
  Array th = uniform(-ivy::pi, ivy::pi, b, dt, be), thd = uniform(-0.3, 0.3, b, dt, be);
  return ivy::stack({x, xd, th, thd}, -1);
}
std::string CartPole::render_impl(const std::vector<double>& s, int width, int height) const {
  const View v{-2.9, 2.9, -1.5, 1.5, width, height};
  const double x = s[0], th = s[2], len = 2.0 * POLE_HALF_LENGTH;
  std::string o = v.line(-X_LIMIT, 0, X_LIMIT, 0, "#888", 2);
  o += v.line(-X_LIMIT, -0.1, -X_LIMIT, 0.1, "#c33", 2) + v.line(X_LIMIT, -0.1, X_LIMIT, 0.1, "#c33", 2);
  o += v.rect(x, 0, 0.5, 0.3, "#3465a4");
  const double tx = x + len * std::sin(th), ty = len * std::cos(th);
  o += v.line(x, 0, tx, ty, "#c17d11", v.len(0.06));
  o += v.circle(x, 0, 0.04, "#222");
  return o;
}

// ---------------------------------------------------------------- MountainCar
MountainCar::MountainCar(const EnvOptions& options) : Env("MountainCar", options, MAX_EPISODE_STEPS) {}

Array MountainCar::step_impl(const Array& s, const Array& a) const {
  Array x = c(s, 0), xd = c(s, 1);
  Array xdd = FORCE_SCALE * c(a, 0) - GRAVITY * ivy::cos(3.0 * x);
  Array xd2 = xd + DT * xdd;
  return ivy::stack({x + DT * xd2, xd2}, -1);
}
Array MountainCar::observation_impl(const Array& s) const { return s; }
Array MountainCar::reward_impl(const Array& s) const {
  Array d = c(s, 0) - GOAL_X;
  return ivy::exp(-5.0 * d * d);
}
Array MountainCar::terminated_impl(const Array& s) const {
  Array x = c(s, 0);
  return ivy::logical_or(x >= GOAL_X, x < MIN_X);
}
Array MountainCar::sample_impl(const Shape& b, DType dt, Backend be) const {
  return ivy::stack({uniform(-0.9, -0.2, b, dt, be), ivy::zeros(b, dt, Device{}, be)}, -1);
}
std::string MountainCar::render_impl(const std::vector<double>& s, int width, int height) const {
  const View v{-1.3, 0.7, -0.5, 0.5, width, height};
  auto h = [](double x) { return std::sin(3.0 * x) / 3.0; };
  std::string pts;
  for (int i = 0; i <= 90; ++i) {
    const double x = MIN_X + (0.6 - MIN_X) * i / 90.0;
    pts += num(v.px(x)) + "," + num(v.py(h(x))) + " ";
  }
  std::string o = "<polyline points=\"" + pts + "\" fill=\"none\" stroke=\"#888\" stroke-width=\"2\"/>\n";
  o += v.line(GOAL_X, h(GOAL_X), GOAL_X, h(GOAL_X) + 0.12, "#333", 2);
  o += v.rect(GOAL_X + 0.03, h(GOAL_X) + 0.1, 0.06, 0.04, "#4e9a06");
  o += v.circle(s[0], h(s[0]) + 0.03, 0.03, "#3465a4");
  return o;
}

// ---------------------------------------------------------------- Pendulum
Pendulum::Pendulum(const EnvOptions& options) : Env("Pendulum", options, MAX_EPISODE_STEPS) {}

Array Pendulum::step_impl(const Array& s, const Array& a) const {
  Array th = c(s, 0), thd = c(s, 1);
  Array thdd = -(3.0 * GRAVITY / (2.0 * LENGTH)) * ivy::sin(th + ivy::pi) +
               (3.0 / (MASS * LENGTH * LENGTH)) * (TORQUE_SCALE * c(a, 0));
  Array thd2 = thd + DT * thdd;
  return ivy::stack({th + DT * thd2, thd2}, -1);
}
Array Pendulum::observation_impl(const Array& s) const {
  Array th = c(s, 0);
  return ivy::stack({ivy::cos(th), ivy::sin(th), c(s, 1)}, -1);
}
Array Pendulum::reward_impl(const Array& s) const { return (ivy::cos(c(s, 0)) + 1.0) * 0.5; }
Array Pendulum::terminated_impl(const Array& s) const { return ivy::zeros(batch_of(s), bool_, Device{}, s.backend()); }
Array Pendulum::sample_impl(const Shape& b, DType dt, Backend be) const {
  return ivy::stack({uniform(-ivy::pi, ivy::pi, b, dt, be), uniform(-1.0, 1.0, b, dt, be)}, -1);
}
std::string Pendulum::render_impl(const std::vector<double>& s, int width, int height) const {
  const View v{-1.3, 1.3, -1.3, 1.3, width, height};
  const double tx = LENGTH * std::sin(s[0]), ty = LENGTH * std::cos(s[0]);
  std::string o = v.circle(0, 0, LENGTH, "none", "#ddd");
  o += v.line(0, 0, tx, ty, "#c17d11", v.len(0.08));
  o += v.circle(tx, ty, 0.1, "#3465a4") + v.circle(0, 0, 0.04, "#222");
  return o;
}

// ---------------------------------------------------------------- Reacher
Reacher::Reacher(std::int64_t num_joints, const EnvOptions& options)
    : Env("Reacher", options, MAX_EPISODE_STEPS), n_(num_joints) {
  if (n_ < 1) throw ValueError("[gym.Reacher] num_joints must be >= 1, got " + std::to_string(n_));
}

Array Reacher::ee_impl(const Array& s) const {
  Array phi = ivy::cumulative_sum(sl(s, 0, n_), -1);  // absolute link angles
  return ivy::stack({ivy::sum(ivy::cos(phi), -1), ivy::sum(ivy::sin(phi), -1)}, -1);
}
Array Reacher::end_effector(const Array& state) const {
  check_state(state, "end_effector");
  return ee_impl(state);
}
Array Reacher::step_impl(const Array& s, const Array& a) const {
  Array thd2 = sl(s, n_, 2 * n_) + DT * (TORQUE_SCALE * a);
  return ivy::concat({sl(s, 0, n_) + DT * thd2, thd2, sl(s, 2 * n_, 2 * n_ + 2)}, -1);
}
Array Reacher::observation_impl(const Array& s) const {
  Array th = sl(s, 0, n_);
  return ivy::concat({ivy::cos(th), ivy::sin(th), sl(s, n_, 2 * n_ + 2)}, -1);
}
Array Reacher::reward_impl(const Array& s) const {
  Array d = ee_impl(s) - sl(s, 2 * n_, 2 * n_ + 2);
  return ivy::exp(-ivy::sum(d * d, -1));
}
Array Reacher::terminated_impl(const Array& s) const {
  Array d = ee_impl(s) - sl(s, 2 * n_, 2 * n_ + 2);
  return ivy::sum(d * d, -1) < GOAL_TOLERANCE * GOAL_TOLERANCE;
}
Array Reacher::sample_impl(const Shape& b, DType dt, Backend be) const {
  Shape bn = b;
  bn.push_back(n_);
  Array th = uniform(-ivy::pi, ivy::pi, bn, dt, be), thd = uniform(-1.0, 1.0, bn, dt, be);
  // The goal uniform over the reachable disk of radius n.
  Array r = static_cast<double>(n_) * ivy::sqrt(uniform(0.0, 1.0, b, dt, be));
  Array phi = uniform(-ivy::pi, ivy::pi, b, dt, be);
  Array goal = ivy::stack({r * ivy::cos(phi), r * ivy::sin(phi)}, -1);
  return ivy::concat({th, thd, goal}, -1);
}
std::string Reacher::render_impl(const std::vector<double>& s, int width, int height) const {
  const double R = static_cast<double>(n_) + 0.3;
  const View v{-R, R, -R, R, width, height};
  std::string o = v.circle(0, 0, static_cast<double>(n_), "none", "#ddd");
  o += v.circle(s[2 * n_], s[2 * n_ + 1], 0.08, "#cc0000");
  double x = 0, y = 0, phi = 0;
  for (std::int64_t i = 0; i < n_; ++i) {
    phi += s[i];
    const double nx = x + std::cos(phi), ny = y + std::sin(phi);
    o += v.line(x, y, nx, ny, "#3465a4", v.len(0.08)) + v.circle(x, y, 0.05, "#222");
    x = nx;
    y = ny;
  }
  o += v.circle(x, y, 0.05, "#4e9a06");
  return o;
}

// ---------------------------------------------------------------- Swimmer
Swimmer::Swimmer(std::int64_t num_urchins, const EnvOptions& options)
    : Env("Swimmer", options, MAX_EPISODE_STEPS), n_(num_urchins) {
  if (n_ < 0) throw ValueError("[gym.Swimmer] num_urchins must be >= 0, got " + std::to_string(n_));
}

namespace {
// Squared distances [B..., n] from the swimmer to each urchin.
Array urchin_d2(const Array& s, std::int64_t n) {
  Shape un = batch_of(s);
  un.push_back(n);
  un.push_back(2);
  Array u = ivy::reshape(sl(s, 6, 6 + 2 * n), un);
  Array d = ivy::expand_dims(sl(s, 0, 2), -2) - u;
  return ivy::sum(d * d, -1);
}
Array goal_d2(const Array& s) {
  Array d = sl(s, 0, 2) - sl(s, 4, 6);
  return ivy::sum(d * d, -1);
}
}  // namespace

Array Swimmer::step_impl(const Array& s, const Array& a) const {
  Array v2 = sl(s, 2, 4) + DT * (ACCELERATION_SCALE * a);
  return ivy::concat({sl(s, 0, 2) + DT * v2, v2, sl(s, 4, 6 + 2 * n_)}, -1);
}
Array Swimmer::observation_impl(const Array& s) const { return s; }
Array Swimmer::reward_impl(const Array& s) const {
  Array r = ivy::exp(-0.5 * goal_d2(s));
  if (n_ == 0) return r;
  return r * ivy::prod(1.0 - ivy::exp(-30.0 * urchin_d2(s, n_)), -1);
}
Array Swimmer::terminated_impl(const Array& s) const {
  Array t = goal_d2(s) < GOAL_TOLERANCE * GOAL_TOLERANCE;
  if (n_ == 0) return t;
  return ivy::logical_or(t, ivy::any(urchin_d2(s, n_) < URCHIN_RADIUS * URCHIN_RADIUS, -1));
}
Array Swimmer::sample_impl(const Shape& b, DType dt, Backend be) const {
  Shape b2 = b, bu = b;
  b2.push_back(2);
  bu.push_back(2 * n_);
  return ivy::concat({uniform(-1.0, 1.0, b2, dt, be), ivy::zeros(b2, dt, Device{}, be), uniform(-1.0, 1.0, b2, dt, be),
                      uniform(-1.0, 1.0, bu, dt, be)},
                     -1);
}
std::string Swimmer::render_impl(const std::vector<double>& s, int width, int height) const {
  const View v{-1.6, 1.6, -1.6, 1.6, width, height};
  std::string o = v.rect(0, 0, 2, 2, "#eef5fb");
  for (std::int64_t i = 0; i < n_; ++i) {
    const double ux = s[6 + 2 * i], uy = s[7 + 2 * i];
    for (int k = 0; k < 8; ++k) {  // spines
      const double a = k * M_PI / 4;
      o += v.line(ux, uy, ux + 0.12 * std::cos(a), uy + 0.12 * std::sin(a), "#333", 1.5);
    }
    o += v.circle(ux, uy, URCHIN_RADIUS, "#222");
  }
  o += v.circle(s[4], s[5], 0.06, "#4e9a06");
  o += v.line(s[0], s[1], s[0] + 0.2 * s[2], s[1] + 0.2 * s[3], "#3465a4", 2);
  o += v.circle(s[0], s[1], 0.06, "#3465a4");
  return o;
}

}  // namespace ivy::gym

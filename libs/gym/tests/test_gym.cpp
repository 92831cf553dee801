// ivy::gym on every backend: one step of every environment against NumPy
// (tests/fixtures/gym.json from tests/gen_gym_fixtures.py) in float64 (1e-9) and float32 (1e-5),
// flat and (2, 3) batches, through step() and the pure functions; rewards at hand-computed
// states; the termination and step-limit rules; reset ranges and reproducibility; gradients of
// the rewards after k steps w.r.t. the actions and the initial state against central finite
// differences; rendering; argument errors.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "ivy/gym.hpp"
#include "ivy/ivy.hpp"
#include "lib_test_util.hpp"


namespace {

using json = nlohmann::json;
using ivy::Array;
using ivy::Shape;
namespace gym = ivy::gym;

using ivy::lib_testing::backend_names;

const json& doc() {
  static const json d = ivy::lib_testing::load_fixture("gym.json");
  return d;
}

using ivy::lib_testing::arr;
using ivy::lib_testing::vals;
double scalar(const Array& x) { return ivy::astype(x, ivy::float64).item<double>(); }

using ivy::lib_testing::close;
::testing::AssertionResult same_flags(const Array& got, const json& want) {
  if (got.dtype() != ivy::bool_) return ::testing::AssertionFailure() << "dtype " << ivy::dtype_name(got.dtype());
  return close(ivy::astype(got, ivy::float64), arr(want), 0.0);
}
Shape with(Shape s, std::int64_t n) {
  s.push_back(n);
  return s;
}
std::unique_ptr<gym::Env> env_for(const std::string& key, const json& c, const gym::EnvOptions& o = {}) {
  if (key.rfind("Reacher", 0) == 0) return std::make_unique<gym::Reacher>(c.at("num_joints").get<int>(), o);
  if (key.rfind("Swimmer", 0) == 0) return std::make_unique<gym::Swimmer>(c.at("num_urchins").get<int>(), o);
  if (key == "CartPole") return std::make_unique<gym::CartPole>(o);
  if (key == "MountainCar") return std::make_unique<gym::MountainCar>(o);
  return std::make_unique<gym::Pendulum>(o);
}
template <class E, class F>
void expect_throw_msg(F&& f, const std::vector<std::string>& parts) {
  try {
    f();
    ADD_FAILURE() << "no exception";
  } catch (const E& e) {
    const std::string m = e.what();
    for (const auto& p : parts) EXPECT_NE(m.find(p), std::string::npos) << "'" << p << "' not in: " << m;
  } catch (const std::exception& e) {
    ADD_FAILURE() << "wrong exception type: " << e.what();
  }
}

class Gym : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    ASSERT_FALSE(doc().empty()) << "tests/fixtures/gym.json is missing (run tests/gen_gym_fixtures.py)";
    scope_ = std::make_unique<ivy::BackendScope>(ivy::Backend(GetParam()));
  }
  gym::EnvOptions opts(ivy::DType dt = ivy::float64, std::int64_t max_steps = 0) const {
    return {dt, ivy::Backend(GetParam()), max_steps};
  }
  std::unique_ptr<ivy::BackendScope> scope_;
};

// ---------------------------------------------------------------- one step against NumPy
TEST_P(Gym, OneStepMatchesNumPy) {
  // every environment of the library has its case
  ASSERT_GE(doc().size(), 7u) << "gym.json lost environment cases";
  for (const auto& [key, c] : doc().items()) {
    SCOPED_TRACE(key);
    for (auto dt : {ivy::float64, ivy::float32}) {
      const double tol = dt == ivy::float64 ? 1e-9 : 1e-5;
      auto env = env_for(key, c, opts(dt));
      Array s = arr(c.at("state"), dt), a = arr(c.at("action"), dt);
      ASSERT_EQ(s.shape().back(), env->state_size());
      ASSERT_EQ(a.shape().back(), env->action_size());
      // the pure functions at the state
      EXPECT_TRUE(close(env->observation(s), arr(c.at("observation")), tol));
      EXPECT_EQ(env->observation(s).shape().back(), env->observation_size());
      EXPECT_TRUE(close(env->reward(s), arr(c.at("reward")), tol));
      EXPECT_TRUE(same_flags(env->terminated(s), c.at("terminated")));
      EXPECT_TRUE(close(env->dynamics(s, a), arr(c.at("next_state")), tol));
      // the stateful interface
      env->set_state(s);
      EXPECT_TRUE(close(env->get_observation(), arr(c.at("observation")), tol));
      EXPECT_TRUE(close(env->get_reward(), arr(c.at("reward")), tol));
      EXPECT_TRUE(same_flags(env->get_terminated(), c.at("terminated")));
      gym::StepResult r = env->step(a);
      EXPECT_EQ(env->elapsed_steps(), 1);
      EXPECT_EQ(env->get_state().dtype(), dt);
      EXPECT_EQ(r.observation.dtype(), dt);
      EXPECT_EQ(r.reward.dtype(), dt);
      EXPECT_EQ(env->get_state().backend(), ivy::Backend(GetParam()));
      EXPECT_TRUE(close(env->get_state(), arr(c.at("next_state")), tol));
      EXPECT_TRUE(close(r.observation, arr(c.at("next_observation")), tol));
      EXPECT_TRUE(close(r.reward, arr(c.at("next_reward")), tol));
      EXPECT_TRUE(same_flags(r.info.at("terminated"), c.at("next_terminated")));
      EXPECT_TRUE(same_flags(r.done, c.at("next_terminated")));  // far from the step limit
      EXPECT_FALSE(ivy::any(r.info.at("truncated")).item<bool>());
      // the same rows as a (2, 3) batch
      const std::int64_t S = env->state_size(), A = env->action_size();
      env->set_state(ivy::reshape(s, {2, 3, S}));
      EXPECT_TRUE(env->batch_shape() == (Shape{2, 3}));
      r = env->step(ivy::reshape(a, {2, 3, A}));
      EXPECT_TRUE(close(env->get_state(), ivy::reshape(arr(c.at("next_state")), {2, 3, S}), tol));
      EXPECT_TRUE(close(r.reward, ivy::reshape(arr(c.at("next_reward")), {2, 3}), tol));
      EXPECT_TRUE(r.done.shape() == (Shape{2, 3}));
      EXPECT_TRUE(close(r.observation,
                        ivy::reshape(arr(c.at("next_observation")), {2, 3, env->observation_size()}), tol));
      // one environment, no batch dims
      env->set_state(s[3]);
      r = env->step(a[3]);
      EXPECT_TRUE(close(env->get_state(), arr(c.at("next_state"))[3], tol));
      EXPECT_EQ(r.reward.ndim(), 0);
    }
  }
}

// ---------------------------------------------------------------- rewards by hand
TEST_P(Gym, RewardsAtKnownStates) {
  const double pi = M_PI;
  gym::CartPole cp(opts());
  // upright at x = 0 -> 1; hanging -> 0; upright at x = 1 -> e^-1; horizontal at x = 0 -> 1/2
  EXPECT_TRUE(close(cp.reward(arr({0, 0, 0, 0, 0, 0, pi, 0, 1, 0, 0, 0, 0, 0, pi / 2, 0}, {4, 4})),
                    arr({1, 0, std::exp(-1.0), 0.5}, {4}), 1e-12));
  // upright at rest with no force is an equilibrium
  Array up = arr({0, 0, 0, 0}, {4});
  EXPECT_TRUE(close(cp.dynamics(up, arr({0}, {1})), up, 0.0));
  // a push to the right accelerates the cart right and tips the pole left (theta < 0)
  Array pushed = cp.dynamics(up, arr({1}, {1}));
  EXPECT_GT(vals(pushed)[1], 0.0);
  EXPECT_LT(vals(pushed)[3], 0.0);

  gym::MountainCar mc(opts());
  EXPECT_TRUE(close(mc.reward(arr({0.45, 0, -0.55, 0}, {2, 2})), arr({1, std::exp(-5.0)}, {2}), 1e-12));
  gym::Pendulum pd(opts());
  EXPECT_TRUE(close(pd.reward(arr({0, 3, pi, 0, pi / 2, 0}, {3, 2})), arr({1, 0, 0.5}, {3}), 1e-12));
  // hanging straight down at rest is an equilibrium; upright is unstable (falls away from 0)
  Array down = arr({pi, 0}, {2});
  EXPECT_TRUE(close(pd.dynamics(down, arr({0}, {1})), down, 1e-12));
  EXPECT_GT(vals(pd.dynamics(arr({0.1, 0}, {2}), arr({0}, {1})))[1], 0.0);

  gym::Reacher re(2, opts());
  // straight arm along x to the goal (2, 0) -> 1; folded back onto the base at goal (0, 0) -> 1;
  // straight arm, goal (0, 0) -> e^-4
  EXPECT_TRUE(close(re.reward(arr({0, 0, 0, 0, 2, 0, 0, pi, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, {3, 6})),
                    arr({1, 1, std::exp(-4.0)}, {3}), 1e-12));
  EXPECT_TRUE(close(re.end_effector(arr({pi / 2, -pi / 2, 0, 0, 0, 0}, {6})), arr({1, 1}, {2}), 1e-12));

  gym::Swimmer sw0(0, opts());
  EXPECT_TRUE(close(sw0.reward(arr({0.5, 0.5, 0, 0, 0.5, 0.5, 0, 0, 0, 0, 0, 1}, {2, 6})),
                    arr({1, std::exp(-0.5)}, {2}), 1e-12));
  gym::Swimmer sw1(1, opts());
  // on the goal with the urchin on top -> 0; urchin 1 away -> 1 - e^-30
  EXPECT_TRUE(close(sw1.reward(arr({0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0}, {2, 8})),
                    arr({0, 1 - std::exp(-30.0)}, {2}), 1e-12));
}

// ---------------------------------------------------------------- termination and step limit
TEST_P(Gym, DoneRules) {
  gym::CartPole cp(opts());
  EXPECT_TRUE(close(ivy::astype(cp.terminated(arr({2.5, 0, 0, 0, 2.3, 0, 0, 0, -2.41, 0, 0, 0}, {3, 4})), ivy::float64),
                    arr({1, 0, 1}, {3}), 0.0));
  gym::MountainCar mc(opts());
  EXPECT_TRUE(close(ivy::astype(mc.terminated(arr({0.45, 0, 0.44, 0, -1.21, 0, -1.19, 0}, {4, 2})), ivy::float64),
                    arr({1, 0, 1, 0}, {4}), 0.0));
  gym::Reacher re(2, opts());
  EXPECT_TRUE(close(ivy::astype(re.terminated(arr({0, 0, 0, 0, 1.96, 0, 0, 0, 0, 0, 1.94, 0}, {2, 6})), ivy::float64),
                    arr({1, 0}, {2}), 0.0));
  gym::Swimmer sw(1, opts());
  EXPECT_TRUE(close(ivy::astype(sw.terminated(arr({0, 0, 0, 0, 0.04, 0, 1, 1,  //
                                                    0, 0, 0, 0, 1, 1, 0.03, 0,  //
                                                    0, 0, 0, 0, 1, 1, 0.1, 0},
                                                   {3, 8})),
                                ivy::float64),
                    arr({1, 1, 0}, {3}), 0.0));

  // defaults
  EXPECT_EQ(gym::CartPole().max_episode_steps(), 500);
  EXPECT_EQ(gym::MountainCar().max_episode_steps(), 500);
  EXPECT_EQ(gym::Pendulum().max_episode_steps(), 200);
  EXPECT_EQ(gym::Reacher().max_episode_steps(), 200);
  EXPECT_EQ(gym::Swimmer().max_episode_steps(), 200);

  // the step limit: done (truncated) on the max_episode_steps-th step, for the whole batch
  gym::Pendulum pd(opts(ivy::float64, 3));
  EXPECT_EQ(pd.max_episode_steps(), 3);
  pd.reset({4}, 1);
  Array zero = ivy::zeros({4, 1}, ivy::float64);
  for (int t = 1; t <= 3; ++t) {
    auto r = pd.step(zero);
    EXPECT_EQ(pd.elapsed_steps(), t);
    EXPECT_EQ(ivy::all(r.done).item<bool>(), t == 3) << t;
    EXPECT_EQ(ivy::all(r.info.at("truncated")).item<bool>(), t == 3) << t;
    EXPECT_FALSE(ivy::any(r.info.at("terminated")).item<bool>());
  }
  gym::Pendulum pd200(opts());
  pd200.set_state(arr({0, 0, 1, 0}, {2, 2}), 198);
  EXPECT_FALSE(ivy::any(pd200.step(ivy::zeros({2, 1}, ivy::float64)).done).item<bool>());
  EXPECT_TRUE(ivy::all(pd200.step(ivy::zeros({2, 1}, ivy::float64)).done).item<bool>());
  pd200.reset({2});
  EXPECT_EQ(pd200.elapsed_steps(), 0);

  // termination is per environment of the batch
  cp.set_state(arr({2.395, 1.0, 0, 0, 0, 0, 0, 0}, {2, 4}));
  auto r = cp.step(ivy::zeros({2, 1}, ivy::float64));
  EXPECT_TRUE(close(ivy::astype(r.done, ivy::float64), arr({1, 0}, {2}), 0.0));
}

// ---------------------------------------------------------------- reset
TEST_P(Gym, ResetRangesAndReproducibility) {
  const double pi = M_PI;
  struct Range {
    std::int64_t col;
    double lo, hi;
  };
  auto check = [&](gym::Env& env, const std::vector<Range>& ranges) {
    SCOPED_TRACE(env.name());
    Array obs = env.reset({10, 50}, 5);
    EXPECT_TRUE(obs.shape() == (Shape{10, 50, env.observation_size()}));
    Array s = env.get_state();
    EXPECT_TRUE(s.shape() == (Shape{10, 50, env.state_size()}));
    EXPECT_EQ(s.dtype(), env.dtype());
    EXPECT_EQ(env.elapsed_steps(), 0);
    for (const auto& r : ranges) {
      Array col = s.index({ivy::Ellipsis, r.col});
      EXPECT_GE(scalar(ivy::min(col)), r.lo) << "column " << r.col;
      EXPECT_LE(scalar(ivy::max(col)), r.hi) << "column " << r.col;
      if (r.hi > r.lo) EXPECT_GT(scalar(ivy::max(col)) - scalar(ivy::min(col)), 0.5 * (r.hi - r.lo)) << r.col;
    }
    // reproducible under a seed, by argument or by ivy::seed
    Array again = (env.reset({10, 50}, 5), env.get_state());
    EXPECT_TRUE(close(again, s, 0.0));
    ivy::seed(5);
    env.reset({10, 50});
    EXPECT_TRUE(close(env.get_state(), s, 0.0));
    env.reset({10, 50}, 6);
    EXPECT_FALSE(close(env.get_state(), s, 0.0));
    EXPECT_TRUE(env.reset({}, 1).shape() == (Shape{env.observation_size()}));
  };
  for (auto dt : {ivy::float64, ivy::float32}) {
    gym::CartPole cp(opts(dt));
    check(cp, {{0, -1, 1}, {1, -0.3, 0.3}, {2, -pi, pi}, {3, -0.3, 0.3}});
    gym::MountainCar mc(opts(dt));
    check(mc, {{0, -0.9, -0.2}, {1, 0, 0}});
    gym::Pendulum pd(opts(dt));
    check(pd, {{0, -pi, pi}, {1, -1, 1}});
    gym::Reacher re(3, opts(dt));
    check(re, {{0, -pi, pi}, {1, -pi, pi}, {2, -pi, pi}, {3, -1, 1}, {5, -1, 1}});
    Array goal = re.get_state().index({ivy::Ellipsis, ivy::Slice(6, 8)});
    EXPECT_LE(scalar(ivy::max(ivy::sum(goal * goal, -1))), 9.0 + 1e-5);  // inside the reachable disk
    gym::Swimmer sw(5, opts(dt));
    check(sw, {{0, -1, 1}, {1, -1, 1}, {2, 0, 0}, {3, 0, 0}, {4, -1, 1}, {5, -1, 1}, {6, -1, 1}, {15, -1, 1}});
  }
}

// ---------------------------------------------------------------- gradients through the dynamics
// The sum of the rewards after each of k steps, as a function of the action sequence [k, B, A]
// and of the initial state, against central differences (float64).
TEST_P(Gym, GradientsMatchFiniteDifferences) {
  const int k = 6;
  std::vector<std::unique_ptr<gym::Env>> envs;
  envs.push_back(std::make_unique<gym::CartPole>(opts()));
  envs.push_back(std::make_unique<gym::MountainCar>(opts()));
  envs.push_back(std::make_unique<gym::Pendulum>(opts()));
  envs.push_back(std::make_unique<gym::Reacher>(2, opts()));
  envs.push_back(std::make_unique<gym::Swimmer>(3, opts()));
  for (auto& env : envs) {
    SCOPED_TRACE(env->name());
    env->reset({2}, 11);
    Array s0 = env->get_state();
    ivy::seed(12);
    Array acts = ivy::random_uniform(-0.8, 0.8, {k, 2, env->action_size()}, ivy::float64);
    auto rollout = [&](const Array& state, const Array& actions) {
      env->set_state(state);
      Array total = ivy::zeros({}, ivy::float64);
      for (int t = 0; t < k; ++t) total = total + ivy::sum(env->step(actions[t]).reward);
      return total;
    };
    auto fd = [&](const std::function<double(const Array&)>& f, const Array& x) {
      std::vector<double> v = vals(x), g(v.size());
      const double h = 1e-6;
      for (std::size_t i = 0; i < v.size(); ++i) {
        auto p = v, m = v;
        p[i] += h;
        m[i] -= h;
        g[i] = (f(arr(p, x.shape())) - f(arr(m, x.shape()))) / (2 * h);
      }
      return arr(g, x.shape());
    };
    Array ga = ivy::grad([&](const Array& a) { return rollout(s0, a); })(acts);
    Array fa = fd([&](const Array& a) { return scalar(rollout(s0, a)); }, acts);
    EXPECT_TRUE(close(ga, fa, 1e-6));
    EXPECT_GT(scalar(ivy::max(ivy::abs(ga))), 1e-4);  // the actions matter
    Array gs = ivy::grad([&](const Array& s) { return rollout(s, acts); })(s0);
    Array fs = fd([&](const Array& s) { return scalar(rollout(s, acts)); }, s0);
    EXPECT_TRUE(close(gs, fs, 1e-6));
    // the same through ivy::vjp and the pure functions
    auto res = ivy::vjp(
        [&](const std::vector<Array>& xs) {
          Array s = xs[0];
          Array total = ivy::zeros({}, ivy::float64);
          for (int t = 0; t < k; ++t) {
            s = env->dynamics(s, xs[1][t]);
            total = total + ivy::sum(env->reward(s));
          }
          return std::vector<Array>{total};
        },
        {s0, acts});
    auto cot = res.vjp_fn({ivy::ones({}, ivy::float64)});
    EXPECT_TRUE(close(cot[0], gs, 1e-12));
    EXPECT_TRUE(close(cot[1], ga, 1e-12));
  }
}

TEST_P(Gym, ClippedActionsHaveZeroGradient) {
  gym::Pendulum pd(opts());
  pd.set_state(arr({0.3, 0.1, -0.2, 0.0}, {2, 2}));
  Array s0 = pd.get_state();
  Array g = ivy::grad([&](const Array& a) {
    pd.set_state(s0);
    return ivy::sum(pd.step(a).reward);
  })(arr({1.5, 0.5}, {2, 1}));
  auto v = vals(g);
  EXPECT_EQ(v[0], 0.0);
  EXPECT_NE(v[1], 0.0);
}

// A float32 action drives a float64 environment (cast to the state's dtype).
TEST_P(Gym, ActionCastToStateDtype) {
  gym::CartPole cp(opts());
  cp.reset({3}, 2);
  auto r = cp.step(ivy::full({3, 1}, 0.5, ivy::float32));
  EXPECT_EQ(r.observation.dtype(), ivy::float64);
  EXPECT_EQ(cp.get_state().dtype(), ivy::float64);
}

// ---------------------------------------------------------------- render
TEST_P(Gym, RenderWritesSvg) {
  for (const std::string& name : gym::env_names()) {
    auto env = gym::make(name, opts());
    env->reset({3}, 4);
    env->step(ivy::zeros({3, env->action_size()}, ivy::float64));
    for (std::int64_t i = 0; i < 3; ++i) {
      const std::string svg = env->render(i, 320, 240);
      EXPECT_EQ(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"320\" height=\"240\"", 0), 0u) << name;
      EXPECT_NE(svg.find("</svg>"), std::string::npos);
      EXPECT_NE(svg.find("<circle"), std::string::npos) << name;
      EXPECT_NE(svg.find(env->name() + " step 1"), std::string::npos) << name;
      EXPECT_EQ(svg.find("nan"), std::string::npos) << name;
    }
    EXPECT_NE(env->render(0), env->render(1)) << name;  // different states draw differently
  }
  gym::CartPole cp(opts());
  cp.set_state(arr({1.0, 0, 0, 0}, {4}));
  EXPECT_NE(cp.render().find("<rect"), std::string::npos);  // the cart
}

// ---------------------------------------------------------------- bad input
TEST_P(Gym, BadInput) {
  gym::CartPole cp(opts());
  expect_throw_msg<ivy::ValueError>([&] { cp.step(ivy::zeros({1}, ivy::float64)); }, {"[gym.CartPole.step]", "reset"});
  expect_throw_msg<ivy::ValueError>([&] { cp.get_observation(); }, {"[gym.CartPole.get_observation]"});
  cp.reset({3});
  expect_throw_msg<ivy::ValueError>([&] { cp.step(ivy::zeros({3, 2}, ivy::float64)); },
                                    {"[gym.CartPole.step]", "(3, 1)", "(3, 2)"});
  expect_throw_msg<ivy::ValueError>([&] { cp.step(ivy::zeros({4, 1}, ivy::float64)); },
                                    {"[gym.CartPole.step]", "(3, 1)", "(4, 1)", "batch shape (3,)"});
  expect_throw_msg<ivy::ValueError>([&] { cp.step(ivy::zeros({1}, ivy::float64)); }, {"(3, 1)", "got (1,)"});
  expect_throw_msg<ivy::TypeError>([&] { cp.step(ivy::zeros({3, 1}, ivy::int64)); },
                                   {"[gym.CartPole.step]", "int64"});
  expect_throw_msg<ivy::ValueError>([&] { cp.set_state(ivy::zeros({3, 5}, ivy::float64)); },
                                    {"[gym.CartPole.set_state]", "[..., 4]", "(3, 5)"});
  expect_throw_msg<ivy::TypeError>([&] { cp.set_state(ivy::zeros({3, 4}, ivy::int32)); },
                                   {"[gym.CartPole.set_state]", "int32"});
  expect_throw_msg<ivy::ValueError>([&] { cp.set_state(ivy::zeros({3, 4}, ivy::float64), -1); }, {"elapsed_steps"});
  expect_throw_msg<ivy::ValueError>([&] { cp.render(3); }, {"[gym.CartPole.render]", "index 3"});
  expect_throw_msg<ivy::ValueError>([&] { cp.reset({2, -1}); }, {"[gym.CartPole.reset]"});
  gym::Pendulum pd(opts());
  expect_throw_msg<ivy::ValueError>(
      [&] { pd.dynamics(ivy::zeros({2, 2}, ivy::float64), ivy::zeros({3, 1}, ivy::float64)); },
      {"[gym.Pendulum.dynamics]", "(2, 1)", "(3, 1)"});
  expect_throw_msg<ivy::ValueError>([&] { pd.reward(ivy::zeros({2, 3}, ivy::float64)); },
                                    {"[gym.Pendulum.reward]", "[..., 2]", "(2, 3)"});
  gym::Reacher re(3, opts());
  expect_throw_msg<ivy::ValueError>([&] { re.end_effector(ivy::zeros({6}, ivy::float64)); },
                                    {"[gym.Reacher.end_effector]", "[..., 8]"});
  expect_throw_msg<ivy::TypeError>([] { gym::CartPole bad({ivy::int32}); }, {"[gym.CartPole]", "int32"});
  expect_throw_msg<ivy::ValueError>([] { gym::Reacher bad(0); }, {"[gym.Reacher]", "num_joints"});
  expect_throw_msg<ivy::ValueError>([] { gym::Swimmer bad(-1); }, {"[gym.Swimmer]", "num_urchins"});
  expect_throw_msg<ivy::ValueError>([] { gym::make("acrobot"); }, {"[gym.make]", "acrobot", "cartpole"});
  // an action on another backend than the state
  for (auto b : ivy::available_backends()) {
    if (b == ivy::Backend(GetParam())) continue;
    expect_throw_msg<ivy::ValueError>([&] { cp.step(ivy::zeros({3, 1}, ivy::float64, {}, b)); },
                                      {"[gym.CartPole.step]", "backend", b.name()});
  }
}

TEST_P(Gym, MakeAndOptions) {
  for (const std::string& name : gym::env_names()) {
    auto env = gym::make(name, opts(ivy::float32, 7));
    EXPECT_EQ(env->max_episode_steps(), 7);
    EXPECT_EQ(env->dtype(), ivy::float32);
    EXPECT_EQ(env->backend(), ivy::Backend(GetParam()));
    Array obs = env->reset({2}, 3);
    EXPECT_EQ(obs.dtype(), ivy::float32);
    EXPECT_EQ(obs.backend(), ivy::Backend(GetParam()));
    EXPECT_TRUE(obs.shape() == with({2}, env->observation_size()));
  }
  EXPECT_EQ(gym::make("reacher")->action_size(), 2);
  EXPECT_EQ(gym::make("swimmer")->observation_size(), 16);
  EXPECT_EQ(gym::Reacher(3).observation_size(), 11);
}

INSTANTIATE_TEST_SUITE_P(Backends, Gym, ::testing::ValuesIn(backend_names()),
                         [](const auto& info) { return info.param; });

}  // namespace

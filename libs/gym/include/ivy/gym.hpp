// ivy::gym: batched, differentiable control environments over ivy:: functions (every
// backend, float32/float64). docs/gym.md has the equations, constants and rules.
//
//   ivy::gym::CartPole env({.dtype = ivy::float32, .backend = "torch"});
//   ivy::Array obs = env.reset({32}, /*seed=*/0);        // 32 environments at once
//   auto [obs2, reward, done, info] = env.step(action);  // action [32, 1] in [-1, 1]
//
// State, observation and reward are ivy::Arrays, so a rollout written with step() (or the
// pure dynamics()/reward() functions) is differentiable: ivy::grad / vjp give gradients of
// the rewards w.r.t. the actions and the initial state through the dynamics.
//
// Shapes, with B the batch shape chosen at reset() or by set_state():
//   state [B..., state_size()], action [B..., action_size()], observation
//   [B..., observation_size()], reward / done [B...] (float / bool).
// Actions are clipped to [-1, 1] (the gradient is zero outside). Integration is
// semi-implicit Euler (velocity first, then position with the new velocity); angles are
// not wrapped.
//
// Bad input throws ivy::ValueError / ivy::TypeError("[gym.<Env>.<method>] ...") naming the
// shape (or dtype, or backend) it got and the one it expects.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ivy/autodiff.hpp"
#include "ivy/ivy.hpp"

namespace ivy::gym {

struct EnvOptions {
  DType dtype = float64;               // of the states reset() draws
  Backend backend = {};                // null: the backend current at construction
  std::int64_t max_episode_steps = 0;  // 0: the environment's default (docs/gym.md)
};

struct StepResult {
  Array observation;  // [B..., observation_size()] of the new state
  Array reward;       // [B...] of the new state
  Array done;         // [B...] bool: terminated or truncated
  ArrayMap info;      // "terminated" (the env's rule) and "truncated" (step limit), [B...] bool
};

// The common interface. The stateful calls (reset/step/get_*/set_state/render) work on the
// current state; the pure calls (dynamics/observation/reward/terminated) are the same math as
// functions of an explicit state, for rollouts written by hand.
class Env {
 public:
  virtual ~Env();
  Env(const Env&) = default;
  Env& operator=(const Env&) = default;

  const std::string& name() const { return name_; }
  virtual std::int64_t state_size() const = 0;
  virtual std::int64_t observation_size() const = 0;
  virtual std::int64_t action_size() const = 0;
  virtual double dt() const = 0;
  std::int64_t max_episode_steps() const { return max_steps_; }
  std::int64_t elapsed_steps() const { return elapsed_; }
  // Those of the current state (of the options before the first reset/set_state).
  DType dtype() const;
  Backend backend() const;
  Shape batch_shape() const;  // needs a state

  // New states drawn from the documented ranges (ivy::random_uniform on the env's backend,
  // seeded first with ivy::seed(*seed, backend) when a seed is given); elapsed_steps() = 0.
  // Returns the observation.
  Array reset(const Shape& batch_shape = {}, std::optional<std::uint64_t> seed = std::nullopt);
  // Advances every environment of the batch by one step of dt() under `action`
  // ([B..., action_size()], any real floating dtype: cast to the state's; clipped to [-1, 1]).
  StepResult step(const Array& action);
  Array get_observation() const;
  Array get_reward() const;  // [B...]
  Array get_terminated() const;  // [B...] bool, the env's termination rule at the current state
  Array get_state() const;   // [B..., state_size()]
  // Any real floating dtype and backend (the env follows them); any batch shape.
  void set_state(const Array& state, std::int64_t elapsed_steps = 0);
  // An SVG document (width x height pixels) of batch element `index` (flat, row-major).
  std::string render(std::int64_t index = 0, int width = 480, int height = 360) const;

  // ---- pure functions (validated like the stateful ones)
  Array dynamics(const Array& state, const Array& action) const;  // the next state
  Array observation(const Array& state) const;
  Array reward(const Array& state) const;
  Array terminated(const Array& state) const;

 protected:
  Env(std::string name, const EnvOptions& options, std::int64_t default_max_steps);
  // Implementations: inputs already checked; action already cast and clipped.
  virtual Array step_impl(const Array& state, const Array& action) const = 0;
  virtual Array observation_impl(const Array& state) const = 0;
  virtual Array reward_impl(const Array& state) const = 0;
  virtual Array terminated_impl(const Array& state) const = 0;
  virtual Array sample_impl(const Shape& batch_shape, DType dtype, Backend backend) const = 0;
  // The SVG body of one state (host values), drawn in a width x height view.
  virtual std::string render_impl(const std::vector<double>& state, int width, int height) const = 0;

  std::string where(const char* method) const;  // "[gym.<Env>.<method>] "
  void check_state(const Array& state, const char* method) const;
  Array check_action(const Array& action, const Array& state, const char* method) const;

 private:
  std::string name_;
  DType dtype_;
  Backend backend_;
  std::int64_t max_steps_;
  std::int64_t elapsed_ = 0;
  Array state_;
};

// Cart-pole swing-up. state [x, ẋ, θ, θ̇] (θ = 0 upright), observation [x, ẋ, cos θ, sin θ, θ̇],
// action [a] (force F = 10 a), reward exp(−x²)(cos θ + 1)/2. Terminates when |x| > 2.4.
class CartPole : public Env {
 public:
  static constexpr double GRAVITY = 9.8, CART_MASS = 1.0, POLE_MASS = 0.1, POLE_HALF_LENGTH = 0.5;
  static constexpr double FORCE_SCALE = 10.0, DT = 0.02, X_LIMIT = 2.4;
  static constexpr std::int64_t MAX_EPISODE_STEPS = 500;
  explicit CartPole(const EnvOptions& options = {});
  std::int64_t state_size() const override { return 4; }
  std::int64_t observation_size() const override { return 5; }
  std::int64_t action_size() const override { return 1; }
  double dt() const override { return DT; }

 protected:
  Array step_impl(const Array& state, const Array& action) const override;
  Array observation_impl(const Array& state) const override;
  Array reward_impl(const Array& state) const override;
  Array terminated_impl(const Array& state) const override;
  Array sample_impl(const Shape& batch_shape, DType dtype, Backend backend) const override;
  std::string render_impl(const std::vector<double>& state, int width, int height) const override;
};

// Mountain car on the track of height sin(3x)/3. state = observation = [x, ẋ], action [a],
// ẍ = 3a − 9.8 cos 3x, reward exp(−5(x − 0.45)²). Terminates at the goal (x ≥ 0.45) or past
// the left end of the track (x < −1.2).
class MountainCar : public Env {
 public:
  static constexpr double GRAVITY = 9.8, FORCE_SCALE = 3.0, DT = 0.02, GOAL_X = 0.45, MIN_X = -1.2;
  static constexpr std::int64_t MAX_EPISODE_STEPS = 500;
  explicit MountainCar(const EnvOptions& options = {});
  std::int64_t state_size() const override { return 2; }
  std::int64_t observation_size() const override { return 2; }
  std::int64_t action_size() const override { return 1; }
  double dt() const override { return DT; }

 protected:
  Array step_impl(const Array& state, const Array& action) const override;
  Array observation_impl(const Array& state) const override;
  Array reward_impl(const Array& state) const override;
  Array terminated_impl(const Array& state) const override;
  Array sample_impl(const Shape& batch_shape, DType dtype, Backend backend) const override;
  std::string render_impl(const std::vector<double>& state, int width, int height) const override;
};

// Pendulum swing-up. state [θ, θ̇] (θ = 0 upright), observation [cos θ, sin θ, θ̇], action [a]
// (torque a), θ̈ = −(3g/2l) sin(θ + π) + 3a/(ml²), reward (cos θ + 1)/2. Only the step limit ends it.
class Pendulum : public Env {
 public:
  static constexpr double GRAVITY = 9.8, MASS = 1.0, LENGTH = 1.0, TORQUE_SCALE = 1.0, DT = 0.05;
  static constexpr std::int64_t MAX_EPISODE_STEPS = 200;
  explicit Pendulum(const EnvOptions& options = {});
  std::int64_t state_size() const override { return 2; }
  std::int64_t observation_size() const override { return 3; }
  std::int64_t action_size() const override { return 1; }
  double dt() const override { return DT; }

 protected:
  Array step_impl(const Array& state, const Array& action) const override;
  Array observation_impl(const Array& state) const override;
  Array reward_impl(const Array& state) const override;
  Array terminated_impl(const Array& state) const override;
  Array sample_impl(const Shape& batch_shape, DType dtype, Backend backend) const override;
  std::string render_impl(const std::vector<double>& state, int width, int height) const override;
};

// A planar arm of n unit links (relative joint angles θ, link i at absolute angle θ1 + ... + θi).
// state [θ (n), θ̇ (n), goal (2)], observation [cos θ, sin θ, θ̇, goal], action [n] (θ̈ = a),
// reward exp(−‖ee − goal‖²). Terminates when ‖ee − goal‖ < 0.05.
class Reacher : public Env {
 public:
  static constexpr double TORQUE_SCALE = 1.0, DT = 0.05, GOAL_TOLERANCE = 0.05;
  static constexpr std::int64_t MAX_EPISODE_STEPS = 200;
  explicit Reacher(std::int64_t num_joints = 2, const EnvOptions& options = {});
  std::int64_t num_joints() const { return n_; }
  std::int64_t state_size() const override { return 2 * n_ + 2; }
  std::int64_t observation_size() const override { return 3 * n_ + 2; }
  std::int64_t action_size() const override { return n_; }
  double dt() const override { return DT; }
  // The end effector [B..., 2] of a state.
  Array end_effector(const Array& state) const;

 protected:
  Array step_impl(const Array& state, const Array& action) const override;
  Array observation_impl(const Array& state) const override;
  Array reward_impl(const Array& state) const override;
  Array terminated_impl(const Array& state) const override;
  Array sample_impl(const Shape& batch_shape, DType dtype, Backend backend) const override;
  std::string render_impl(const std::vector<double>& state, int width, int height) const override;

 private:
  Array ee_impl(const Array& state) const;
  std::int64_t n_;
};

// A point mass in the plane among n urchins. state [xy, ẋẏ, goal, urchins (2n)], observation =
// state, action [2] (acceleration a), reward exp(−0.5‖xy − goal‖²) Π_i (1 − exp(−30‖xy − u_i‖²)).
// Terminates at the goal (‖xy − goal‖ < 0.05) or on an urchin (‖xy − u_i‖ < 0.05).
class Swimmer : public Env {
 public:
  static constexpr double ACCELERATION_SCALE = 1.0, DT = 0.05, GOAL_TOLERANCE = 0.05, URCHIN_RADIUS = 0.05;
  static constexpr std::int64_t MAX_EPISODE_STEPS = 200;
  explicit Swimmer(std::int64_t num_urchins = 5, const EnvOptions& options = {});
  std::int64_t num_urchins() const { return n_; }
  std::int64_t state_size() const override { return 6 + 2 * n_; }
  std::int64_t observation_size() const override { return 6 + 2 * n_; }
  std::int64_t action_size() const override { return 2; }
  double dt() const override { return DT; }

 protected:
  Array step_impl(const Array& state, const Array& action) const override;
  Array observation_impl(const Array& state) const override;
  Array reward_impl(const Array& state) const override;
  Array terminated_impl(const Array& state) const override;
  Array sample_impl(const Shape& batch_shape, DType dtype, Backend backend) const override;
  std::string render_impl(const std::vector<double>& state, int width, int height) const override;

 private:
  std::int64_t n_;
};

// "cartpole", "mountain_car", "pendulum", "reacher", "swimmer" (ValueError listing them otherwise).
std::unique_ptr<Env> make(std::string_view name, const EnvOptions& options = {});
std::vector<std::string> env_names();

}  // namespace ivy::gym

// ivy::gym::Env: the stateful interface over the environments' pure functions, argument
// checks, rendering and the factory.
#include <algorithm>
#include <cctype>
#include <string>

#include "detail.hpp"
#include "ivy/gym.hpp"

namespace ivy::gym {

using namespace detail;

namespace {
bool float_dtype(DType d) { return d == float32 || d == float64; }
}  // namespace

Env::~Env() = default;

Env::Env(std::string name, const EnvOptions& options, std::int64_t default_max_steps)
    : name_(std::move(name)),
      dtype_(options.dtype),
      backend_(options.backend ? options.backend : current_backend()),
      max_steps_(options.max_episode_steps > 0 ? options.max_episode_steps : default_max_steps) {
  if (!float_dtype(dtype_))
    throw TypeError("[gym." + name_ + "] expects dtype float32 or float64, got " + dtype_name(dtype_));
  if (options.max_episode_steps < 0)
    throw ValueError("[gym." + name_ + "] max_episode_steps must be >= 0 (0: the default), got " +
                     std::to_string(options.max_episode_steps));
}

std::string Env::where(const char* method) const { return "[gym." + name_ + "." + method + "] "; }

DType Env::dtype() const { return dtype_; }
Backend Env::backend() const { return backend_; }

Shape Env::batch_shape() const {
  if (!state_.defined()) throw ValueError(where("batch_shape") + "no state yet: call reset() or set_state() first");
  return batch_of(state_);
}

void Env::check_state(const Array& state, const char* method) const {
  if (!state.defined()) throw ValueError(where(method) + "got an undefined state array");
  if (!float_dtype(state.dtype()))
    throw TypeError(where(method) + "expects a float32 or float64 state, got " + dtype_name(state.dtype()));
  if (state.ndim() < 1 || state.shape().back() != state_size())
    throw ValueError(where(method) + "expects a state of shape [..., " + std::to_string(state_size()) + "], got " +
                     state.shape().str());
}

Array Env::check_action(const Array& action, const Array& state, const char* method) const {
  if (!action.defined()) throw ValueError(where(method) + "got an undefined action array");
  if (!float_dtype(action.dtype()))
    throw TypeError(where(method) + "expects a float32 or float64 action, got " + dtype_name(action.dtype()));
  if (!(action.backend() == state.backend()))
    throw ValueError(where(method) + "action is on backend " + action.backend().name() + " but the state is on " +
                     state.backend().name());
  const Shape batch = batch_of(state);
  Shape want = batch;
  want.push_back(action_size());
  if (!(action.shape() == want))
    throw ValueError(where(method) + "expects an action of shape " + want.str() + " (batch shape " + batch.str() +
                     " + [" + std::to_string(action_size()) + "]), got " + action.shape().str());
  Array a = action.dtype() == state.dtype() ? action : ivy::astype(action, state.dtype());
  return ivy::clip(a, -1.0, 1.0);
}

Array Env::reset(const Shape& batch_shape, std::optional<std::uint64_t> seed) {
  for (auto d : batch_shape)
    if (d < 0) throw ValueError(where("reset") + "batch shape " + batch_shape.str() + " has a negative size");
  if (seed) ivy::seed(*seed, backend_);
  Array s = sample_impl(batch_shape, dtype_, backend_);
  state_ = s;
  elapsed_ = 0;
  return observation_impl(state_);
}

StepResult Env::step(const Array& action) {
  if (!state_.defined()) throw ValueError(where("step") + "no state yet: call reset() or set_state() first");
  Array a = check_action(action, state_, "step");
  state_ = step_impl(state_, a);
  ++elapsed_;
  Array term = terminated_impl(state_);
  Array trunc = ivy::full(batch_of(state_), elapsed_ >= max_steps_, bool_, Device{}, state_.backend());
  StepResult r;
  r.observation = observation_impl(state_);
  r.reward = reward_impl(state_);
  r.done = ivy::logical_or(term, trunc);
  r.info = {{"terminated", term}, {"truncated", trunc}};
  return r;
}

Array Env::get_observation() const {
  if (!state_.defined()) throw ValueError(where("get_observation") + "no state yet: call reset() or set_state() first");
  return observation_impl(state_);
}
Array Env::get_reward() const {
  if (!state_.defined()) throw ValueError(where("get_reward") + "no state yet: call reset() or set_state() first");
  return reward_impl(state_);
}
Array Env::get_terminated() const {
  if (!state_.defined()) throw ValueError(where("get_terminated") + "no state yet: call reset() or set_state() first");
  return terminated_impl(state_);
}
Array Env::get_state() const {
  if (!state_.defined()) throw ValueError(where("get_state") + "no state yet: call reset() or set_state() first");
  return state_;
}

void Env::set_state(const Array& state, std::int64_t elapsed_steps) {
  check_state(state, "set_state");
  if (elapsed_steps < 0)
    throw ValueError(where("set_state") + "elapsed_steps must be >= 0, got " + std::to_string(elapsed_steps));
  state_ = state;
  dtype_ = state.dtype();
  backend_ = state.backend();
  elapsed_ = elapsed_steps;
}

Array Env::dynamics(const Array& state, const Array& action) const {
  check_state(state, "dynamics");
  return step_impl(state, check_action(action, state, "dynamics"));
}
Array Env::observation(const Array& state) const {
  check_state(state, "observation");
  return observation_impl(state);
}
Array Env::reward(const Array& state) const {
  check_state(state, "reward");
  return reward_impl(state);
}
Array Env::terminated(const Array& state) const {
  check_state(state, "terminated");
  return terminated_impl(state);
}

std::string Env::render(std::int64_t index, int width, int height) const {
  if (!state_.defined()) throw ValueError(where("render") + "no state yet: call reset() or set_state() first");
  if (width <= 0 || height <= 0)
    throw ValueError(where("render") + "expects a positive picture size, got " + std::to_string(width) + " x " +
                     std::to_string(height));
  const std::int64_t n = batch_of(state_).numel();
  if (index < 0 || index >= n)
    throw ValueError(where("render") + "index " + std::to_string(index) + " is outside the batch of " +
                     std::to_string(n) + " (batch shape " + batch_of(state_).str() + ")");
  Array rows = ivy::reshape(ivy::stop_gradient(state_), Shape{n, state_size()});
  Array row = rows[index];
  const std::vector<double> s = ivy::astype(row, float64).to_vector<double>();
  const double r = ivy::astype(reward_impl(row), float64).item<double>();
  std::string out = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + std::to_string(width) + "\" height=\"" +
                    std::to_string(height) + "\" viewBox=\"0 0 " + std::to_string(width) + " " +
                    std::to_string(height) + "\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  out += render_impl(s, width, height);
  out += text(8, 18, name_ + " step " + std::to_string(elapsed_) + " reward " + num(r));
  out += "</svg>\n";
  return out;
}

// ---------------------------------------------------------------- factory
std::vector<std::string> env_names() { return {"cartpole", "mountain_car", "pendulum", "reacher", "swimmer"}; }

std::unique_ptr<Env> make(std::string_view name, const EnvOptions& options) {
  std::string n(name);
  std::transform(n.begin(), n.end(), n.begin(), [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
  if (n == "cartpole") return std::make_unique<CartPole>(options);
  if (n == "mountain_car") return std::make_unique<MountainCar>(options);
  if (n == "pendulum") return std::make_unique<Pendulum>(options);
  if (n == "reacher") return std::make_unique<Reacher>(2, options);
  if (n == "swimmer") return std::make_unique<Swimmer>(5, options);
  throw ValueError("[gym.make] unknown environment '" + std::string(name) +
                   "' (expected one of cartpole, mountain_car, pendulum, reacher, swimmer)");
}

}  // namespace ivy::gym

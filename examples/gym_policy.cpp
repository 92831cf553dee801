// The ivy_gym demo optimize_policy: an MLP policy (observation -> 64 -> 64 -> action, tanh
// after every layer, so actions lie in (-1, 1)) trained with Adam by gradients through the
// environment's dynamics: loss = -(sum of the rewards over a rollout of T steps), averaged over
// a batch of environments started from fresh random states every iteration. Runs on CartPole
// and Pendulum (ivy::gym), on the backend named by --backend; the same code on every backend.
//
// Reports the mean reward per step over a fixed held-out batch of initial states before and
// after training, and ends with one line per environment:
//   gym: env=cartpole backend=xtensor reward_before=0.1234 reward_after=0.2345 improved=yes
// --svg DIR writes render() frames of the first held-out rollout before and after training.
#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ivy/compile.hpp"
#include "ivy/gym.hpp"
#include "ivy/nn.hpp"

namespace {

namespace nn = ivy::nn;
namespace gym = ivy::gym;
using ivy::Array;

struct Settings {
  std::int64_t iterations = 200, steps = 100, batch = 32, eval_batch = 64;
  double lr = 1e-3;
  std::uint64_t seed = 0;
  std::string svg_dir;
  bool compiled = false;
};

std::shared_ptr<nn::Sequential> make_policy(std::int64_t obs, std::int64_t act, const nn::init::Where& w) {
  return std::make_shared<nn::Sequential>(std::initializer_list<std::shared_ptr<nn::Module>>{
      std::make_shared<nn::Linear>(obs, 64, true, w), nn::Tanh(), std::make_shared<nn::Linear>(64, 64, true, w),
      nn::Tanh(), std::make_shared<nn::Linear>(64, act, true, w), nn::Tanh()});
}

// The sum over the T steps of the batch-mean reward, starting from `start` (differentiable in
// the policy's parameters through the dynamics). With frames, also renders batch element 0.
Array rollout(gym::Env& env, nn::Module& policy, const Array& start, std::int64_t steps,
              std::vector<std::string>* frames = nullptr) {
  env.set_state(start);
  Array obs = env.get_observation();
  Array total = ivy::zeros({}, start.dtype(), {}, start.backend());
  if (frames) frames->push_back(env.render());
  for (std::int64_t t = 0; t < steps; ++t) {
    gym::StepResult r = env.step(policy(obs));
    total = total + ivy::mean(r.reward);
    obs = r.observation;
    if (frames && (t + 1) % 25 == 0) frames->push_back(env.render());
  }
  return total;
}

double to_double(const Array& x) { return ivy::astype(x, ivy::float64).item<double>(); }

void write_frames(const std::string& dir, const std::string& env, const std::string& when,
                  const std::vector<std::string>& frames) {
  std::filesystem::create_directories(dir);
  for (std::size_t i = 0; i < frames.size(); ++i) {
    const std::string path = dir + "/" + env + "_" + when + "_t" + std::to_string(i * 25) + ".svg";
    std::ofstream(path) << frames[i];
  }
}

struct Outcome {
  double before, after;
};

Outcome optimize_policy(const std::string& env_name, ivy::Backend backend, const Settings& st) {
  auto env = gym::make(env_name, {ivy::float32, backend});
  // Initial states are drawn on the default backend and moved, so that every backend trains
  // and is evaluated on the same states (ivy::seed streams differ between backends).
  auto sampler = gym::make(env_name, {ivy::float32, ivy::default_backend()});
  auto draw = [&](std::int64_t n, std::optional<std::uint64_t> seed) {
    sampler->reset({n}, seed);
    return ivy::to_backend(sampler->get_state(), backend);
  };
  nn::init::seed(st.seed);
  auto policy = make_policy(env->observation_size(), env->action_size(), {ivy::float32, backend, {}});
  ivy::optim::Adam opt(st.lr);

  const Array eval_start = draw(st.eval_batch, st.seed + 1);  // the held-out initial states
  std::vector<std::string> frames_before, frames_after;
  const double before =
      to_double(rollout(*env, *policy, eval_start, st.steps, st.svg_dir.empty() ? nullptr : &frames_before)) /
      static_cast<double>(st.steps);
  std::printf("%s: %lld parameters, %lld iterations of %lld environments x %lld steps, Adam lr %g\n", env_name.c_str(),
              static_cast<long long>(policy->num_parameters()), static_cast<long long>(st.iterations),
              static_cast<long long>(st.batch), static_cast<long long>(st.steps), st.lr);
  std::printf("%s: mean reward per step before training: %.4f\n", env_name.c_str(), before);

  // One training step's loss and gradients: [parameters (in flatten() order)..., start] ->
  // [loss, gradients...]; eager, or traced once and compiled with --compile.
  const auto paths = policy->parameters().flatten();
  auto loss_and_grads = [&](const std::vector<Array>& in) -> std::vector<Array> {
    std::vector<std::pair<std::string, Array>> leaves;
    for (std::size_t k = 0; k < paths.size(); ++k) leaves.emplace_back(paths[k].first, in[k]);
    policy->set_parameters(ivy::Container::from_pairs(leaves));
    const Array& start = in.back();
    auto [loss, grads] = nn::value_and_grad(*policy, [&](nn::Module& m) { return -rollout(*env, m, start, st.steps); });
    std::vector<Array> out{loss};
    for (auto& [path, g] : grads.flatten()) out.push_back(g);
    return out;
  };
  std::function<std::vector<Array>(const std::vector<Array>&)> train_step = loss_and_grads;
  if (st.compiled) train_step = ivy::compile(loss_and_grads);

  ivy::seed(st.seed + 2, ivy::default_backend());
  const auto t0 = std::chrono::steady_clock::now();
  for (std::int64_t it = 0; it < st.iterations; ++it) {
    const Array start = draw(st.batch, std::nullopt);
    std::vector<Array> in;
    for (auto& [path, p] : policy->parameters().flatten()) in.push_back(p);
    in.push_back(start);
    std::vector<Array> r = train_step(in);
    const Array& loss = r[0];
    std::vector<std::pair<std::string, Array>> g;
    for (std::size_t k = 0; k < paths.size(); ++k) g.emplace_back(paths[k].first, r[k + 1]);
    std::vector<std::pair<std::string, Array>> p;
    for (std::size_t k = 0; k < paths.size(); ++k) p.emplace_back(paths[k].first, in[k]);
    policy->set_parameters(opt.step(ivy::Container::from_pairs(p), ivy::Container::from_pairs(g)));
    if ((it + 1) % 20 == 0 || it + 1 == st.iterations) {
      const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      std::printf("%s: iteration %4lld  training reward per step %.4f  (%.1fs)\n", env_name.c_str(),
                  static_cast<long long>(it + 1), -to_double(loss) / static_cast<double>(st.steps), secs);
      std::fflush(stdout);
    }
  }
  const double after =
      to_double(rollout(*env, *policy, eval_start, st.steps, st.svg_dir.empty() ? nullptr : &frames_after)) /
      static_cast<double>(st.steps);
  std::printf("%s: mean reward per step after training:  %.4f\n", env_name.c_str(), after);
  if (!st.svg_dir.empty()) {
    write_frames(st.svg_dir, env_name, "before", frames_before);
    write_frames(st.svg_dir, env_name, "after", frames_after);
    std::printf("%s: wrote %zu SVG frames to %s\n", env_name.c_str(), frames_before.size() + frames_after.size(),
                st.svg_dir.c_str());
  }
  return {before, after};
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Optimize an MLP policy by gradients through CartPole's and Pendulum's dynamics (ivy::gym)"};
  std::string backend_name = "xtensor", env_choice = "all";
  Settings st;
  app.add_option("--backend", backend_name, "the backend to run on")->check(CLI::IsMember({"xtensor", "torch"}));
  app.add_option("--env", env_choice, "which environment")->check(CLI::IsMember({"cartpole", "pendulum", "all"}));
  app.add_option("--iterations", st.iterations, "policy updates per environment")->check(CLI::PositiveNumber);
  app.add_option("--steps", st.steps, "rollout length T")->check(CLI::PositiveNumber);
  app.add_option("--batch", st.batch, "environments per update")->check(CLI::PositiveNumber);
  app.add_option("--eval-batch", st.eval_batch, "held-out initial states for the before/after reward")
      ->check(CLI::PositiveNumber);
  app.add_option("--lr", st.lr, "Adam's learning rate")->check(CLI::PositiveNumber);
  app.add_option("--seed", st.seed, "initialization and sampling seed");
  app.add_option("--svg", st.svg_dir, "write render() frames before and after training to this folder");
  app.add_flag("--compile", st.compiled, "run each training step (rollout and gradients) as one compiled graph");
  CLI11_PARSE(app, argc, argv);

  bool all_improved = true;
  try {
    ivy::Backend backend(backend_name.c_str());
    ivy::BackendScope scope(backend);
    std::vector<std::string> envs = env_choice == "all" ? std::vector<std::string>{"cartpole", "pendulum"}
                                                        : std::vector<std::string>{env_choice};
    std::vector<std::string> lines;
    for (const auto& name : envs) {
      const auto t0 = std::chrono::steady_clock::now();
      Outcome o = optimize_policy(name, backend, st);
      const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      std::printf("%s: %.1f s\n\n", name.c_str(), secs);
      char buf[256];
      std::snprintf(buf, sizeof buf, "gym: env=%s backend=%s reward_before=%.4f reward_after=%.4f improved=%s",
                    name.c_str(), backend_name.c_str(), o.before, o.after, o.after > o.before ? "yes" : "no");
      lines.push_back(buf);
      all_improved = all_improved && o.after > o.before;
    }
    for (const auto& l : lines) std::printf("%s\n", l.c_str());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gym_policy: %s\n", e.what());
    return 1;
  }
  return all_improved ? 0 : 2;
}

// Concurrency: ivy's eager functions, the autodiff tape, a compiled Executable, one shared
// CompiledFunction (its signature cache filled from several threads at once), Container
// save/load and optimizer steps, called from several threads at once, give bit-for-bit the
// results of the same calls made one at a time, and each thread's backend scope stays its own
// (threads on different backends run side by side). It catches shared mutable state that
// corrupts results; races that happen to give the right bits are TSan's part
// (scripts/sanitize.sh tsan runs this file).
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <thread>

#include <unistd.h>
#include <vector>

#include "ivy/compile.hpp"
#include "ivy/container.hpp"
#include "ivy/ivy.hpp"
#include "ivy/nn_functional.hpp"
#include "ivy/optim.hpp"

namespace {
using ivy::Array;
using ivy::Backend;

// every value a workload makes, as float64 bits compared exactly
using Result = std::vector<std::vector<double>>;

std::vector<double> bits(const Array& a) { return ivy::astype(ivy::reshape(a, {-1}), ivy::float64).to_vector<double>(); }

// eager ops, a gradient through the tape, and a reduction, all from the seed `k`
Result workload(int k) {
  const Array x = ivy::reshape(ivy::astype(ivy::arange(0.0, 48.0), ivy::float32), {6, 8}) * (0.01 * (k + 1));
  const Array w = ivy::reshape(ivy::sin(ivy::astype(ivy::arange(0.0, 32.0), ivy::float32)), {8, 4});
  const Array y = ivy::nn::softmax(ivy::matmul(x, w), -1);
  auto loss = [&](const Array& ww) { return ivy::sum(ivy::tanh(ivy::matmul(x, ww))); };
  const Array g = ivy::grad(loss)(w);
  return {bits(y), bits(g), bits(ivy::linalg::vector_norm(x, 1, false, 2.0))};
}

TEST(Concurrency, EagerAndGradientsFromManyThreadsMatchSerialResults) {
  const std::vector<Backend> backends = ivy::available_backends();
  constexpr int kThreads = 6, kRounds = 200;
  // serial reference, per backend and seed
  std::vector<std::vector<Result>> want(backends.size());
  for (std::size_t b = 0; b < backends.size(); ++b) {
    ivy::BackendScope scope(backends[b]);
    for (int k = 0; k < kThreads; ++k) want[b].push_back(workload(k));
  }
  std::vector<std::string> failures(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      const std::size_t b = static_cast<std::size_t>(t) % backends.size();  // backends side by side
      try {
        ivy::BackendScope scope(backends[b]);
        for (int r = 0; r < kRounds; ++r) {
          if (ivy::current_backend().name() != backends[b].name()) {
            failures[t] = "scope changed to " + std::string(ivy::current_backend().name());
            return;
          }
          if (workload(t) != want[b][static_cast<std::size_t>(t)]) {
            failures[t] = "round " + std::to_string(r) + " on " + std::string(backends[b].name()) + " differs";
            return;
          }
        }
      } catch (const std::exception& e) {
        failures[t] = e.what();
      }
    });
  }
  for (auto& th : threads) th.join();
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(failures[t], "") << "thread " << t;
}

TEST(Concurrency, OneExecutableRunFromManyThreads) {
  for (const Backend& backend : ivy::available_backends()) {
    ivy::BackendScope scope(backend);
    auto f = [](const std::vector<Array>& in) {
      return std::vector<Array>{ivy::nn::softmax(ivy::exp(in[0]) * 0.5 + in[0], -1), ivy::sum(in[0] * in[0], 1)};
    };
    auto input = [](int k) {
      return ivy::reshape(ivy::astype(ivy::arange(0.0, 4096.0), ivy::float32), {64, 64}) * (0.001 * (k + 1));
    };
    ivy::Graph g = ivy::trace(f, {input(0)});
    ivy::Executable exe(g, backend);
    constexpr int kThreads = 4, kRounds = 100;
    std::vector<Result> want;
    for (int k = 0; k < kThreads; ++k) {
      Result r;
      for (const Array& a : exe.run({input(k)})) r.push_back(bits(a));
      want.push_back(r);
    }
    std::vector<std::string> failures(kThreads);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
      threads.emplace_back([&, t] {
        try {
          ivy::BackendScope inner(backend);
          const Array x = input(t);
          for (int r = 0; r < kRounds; ++r) {
            Result got;
            for (const Array& a : exe.run({x})) got.push_back(bits(a));
            if (got != want[static_cast<std::size_t>(t)]) {
              failures[t] = "round " + std::to_string(r) + " differs";
              return;
            }
          }
        } catch (const std::exception& e) {
          failures[t] = e.what();
        }
      });
    }
    for (auto& th : threads) th.join();
    for (int t = 0; t < kThreads; ++t) EXPECT_EQ(failures[t], "") << backend.name() << " thread " << t;
  }
}

// thread t's share of the third test: a compiled call on inputs of its own shape (a new
// signature of the shared function), a checkpoint saved to and loaded from its own file, and
// five Adam steps on its own parameters
Result compiled_checkpoint_and_steps(const ivy::CompiledFunction& cf, int t, const std::string& file) {
  const Array x = ivy::reshape(ivy::astype(ivy::arange(0.0, 12.0 * (t + 1)), ivy::float32), {t + 1, 12}) * 0.05;
  Result r;
  for (const Array& a : cf({x})) r.push_back(bits(a));
  ivy::Container params = ivy::Container::from_pairs({{"w", ivy::sin(x)}, {"b", ivy::cos(ivy::sum(x, 0))}});
  params.save(file);
  const ivy::Container back = ivy::Container::load(file);
  r.push_back(bits(back.at("w").array()));
  r.push_back(bits(back.at("b").array()));
  ivy::optim::Adam opt(0.1);
  for (int i = 0; i < 5; ++i) params = opt.step(params, params.map([](const Array& a) { return a * a; }));
  r.push_back(bits(params.at("w").array()));
  r.push_back(bits(params.at("b").array()));
  return r;
}

TEST(Concurrency, SharedCompiledFunctionCheckpointsAndOptimizers) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("ivy_concurrency_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  auto f = [](const std::vector<Array>& in) {
    return std::vector<Array>{ivy::nn::log_softmax(ivy::tanh(in[0]) * 2.0, -1), ivy::mean(in[0] * in[0], 0)};
  };
  const std::vector<Backend> backends = ivy::available_backends();
  constexpr int kThreads = 6, kRounds = 20;
  auto file_of = [&](int t, const char* who) { return (dir / (std::string(who) + std::to_string(t) + ".safetensors")).string(); };
  // serial reference, with a compiled function of its own (so that the threads' one starts empty)
  std::vector<Result> want(kThreads);
  {
    ivy::CompiledFunction serial(f);
    for (int t = 0; t < kThreads; ++t) {
      ivy::BackendScope scope(backends[static_cast<std::size_t>(t) % backends.size()]);
      want[t] = compiled_checkpoint_and_steps(serial, t, file_of(t, "serial"));
    }
  }
  ivy::CompiledFunction shared(f);
  std::vector<std::string> failures(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      try {
        ivy::BackendScope scope(backends[static_cast<std::size_t>(t) % backends.size()]);
        for (int r = 0; r < kRounds; ++r)
          if (compiled_checkpoint_and_steps(shared, t, file_of(t, "thread")) != want[t]) {
            failures[t] = "round " + std::to_string(r) + " differs";
            return;
          }
      } catch (const std::exception& e) {
        failures[t] = e.what();
      }
    });
  }
  for (auto& th : threads) th.join();
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(failures[t], "") << "thread " << t;
  // one signature per input shape and backend pair (threads t and t + 2 share neither)
  EXPECT_EQ(shared.traces(), kThreads);
  fs::remove_all(dir);
}

}  // namespace

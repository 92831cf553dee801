// Concurrency: ivy's eager functions, the autodiff tape and a compiled Executable called from
// several threads at once give bit-for-bit the results of the same calls made one at a time,
// and each thread's backend scope stays its own (threads on different backends run side by
// side). It catches shared mutable state that corrupts results; races that happen to give
// the right bits need a ThreadSanitizer build, which is not run yet.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "ivy/compile.hpp"
#include "ivy/ivy.hpp"
#include "ivy/nn_functional.hpp"

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

}  // namespace

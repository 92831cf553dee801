// Bounded memory over a long training run: a small CNN (conv 3x3, ReLU, max pool, linear;
// cross-entropy) trained with Adam for kSteps steps on every backend, eagerly and through
// ivy::compile. After a warm-up of kWarmup steps, neither the process's resident memory nor
// the bytes malloc holds for live blocks may keep growing: every tape, intermediate and cached
// buffer a step makes is freed or reused by the next one. Its own executable, so that the
// memory measured is this loop's alone.
//   IVY_LONG_RUN_STEPS=n   steps per variant (default 5000)
#include <gtest/gtest.h>
#include <malloc.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "ivy/container.hpp"
#include "ivy/ivy.hpp"
#include "ivy/nn.hpp"
#include "ivy/optim.hpp"

namespace {

using ivy::Array;
using ivy::Container;

// the process's resident set, in bytes (/proc/self/statm's second field, in pages)
double resident_bytes() {
  std::ifstream f("/proc/self/statm");
  long size = 0, resident = 0;
  f >> size >> resident;
  return static_cast<double>(resident) * static_cast<double>(sysconf(_SC_PAGE_SIZE));
}
// bytes in blocks malloc has handed out and not had back (the main arena)
double malloc_in_use() { return static_cast<double>(mallinfo2().uordblks); }

int steps_from_env() {
  const char* s = std::getenv("IVY_LONG_RUN_STEPS");
  return s ? std::max(1000, std::atoi(s)) : 5000;
}

// loss(x, y, w1, b1, w2, b2): x [8, 1, 12, 12], y [8] int64 labels
Array cnn_loss(const std::vector<Array>& v) {
  namespace nn = ivy::nn;
  Array h = ivy::nn::relu(nn::conv2d(v[0], v[2], v[3]));        // [8, 4, 10, 10]
  h = nn::max_pool2d(h, ivy::Dims{2});                            // [8, 4, 5, 5]
  h = ivy::reshape(h, ivy::Shape{8, 100});
  return nn::cross_entropy(nn::linear(h, v[4], v[5]), v[1]);
}

struct Curve {
  std::vector<double> rss, heap;  // one sample per kSample steps, from the end of the warm-up
};

constexpr int kWarmup = 500, kSample = 500;

Curve train(const char* backend, bool compiled, int steps) {
  ivy::BackendScope scope{ivy::Backend(backend)};
  ivy::seed(3);
  std::vector<Array> batches_x, batches_y;
  for (int b = 0; b < 4; ++b) {
    batches_x.push_back(ivy::random_normal(0.0, 1.0, {8, 1, 12, 12}, ivy::float32));
    batches_y.push_back(ivy::astype(ivy::floor(ivy::random_uniform(0.0, 10.0, {8})), ivy::int64));
  }
  Container params = Container::from_pairs({{"w1", ivy::random_normal(0.0, 0.3, {4, 1, 3, 3}, ivy::float32)},
                                            {"b1", ivy::zeros({4}, ivy::float32)},
                                            {"w2", ivy::random_normal(0.0, 0.1, {10, 100}, ivy::float32)},
                                            {"b2", ivy::zeros({10}, ivy::float32)}});
  const char* names[] = {"w1", "b1", "w2", "b2"};
  auto vg = ivy::value_and_grad(cnn_loss, {2, 3, 4, 5});
  ivy::TracedFn step = [vg](const std::vector<Array>& in) {
    auto [loss, grads] = vg(in);
    grads.insert(grads.begin(), loss);
    return grads;
  };
  if (compiled) step = ivy::compile(step);
  ivy::optim::Adam opt(1e-2);
  Curve c;
  double first_loss = 0, last_loss = 0;
  for (int i = 0; i < steps; ++i) {
    std::vector<Array> in{batches_x[i % 4], batches_y[i % 4]};
    for (const char* n : names) in.push_back(params.at(n).array());
    std::vector<Array> out = step(in);
    std::vector<std::pair<std::string, Array>> g;
    for (int k = 0; k < 4; ++k) g.emplace_back(names[k], out[static_cast<std::size_t>(k) + 1]);
    params = opt.step(params, Container::from_pairs(g));
    if (i < 4) first_loss += out[0].item<float>() / 4;
    if (i >= steps - 4) last_loss += out[0].item<float>() / 4;
    if (i + 1 >= kWarmup && (i + 1) % kSample == 0) {
      c.rss.push_back(resident_bytes());
      c.heap.push_back(malloc_in_use());
    }
  }
  // the run trained: the loss over the 4 batches fell
  EXPECT_LT(last_loss, 0.5 * first_loss) << backend << (compiled ? " compiled" : " eager");
  return c;
}

class BoundedMemory : public testing::TestWithParam<std::tuple<std::string, bool>> {};

TEST_P(BoundedMemory, TrainingLoopDoesNotGrow) {
  const auto& [backend, compiled] = GetParam();
  const int steps = steps_from_env();
  const Curve c = train(backend.c_str(), compiled, steps);
  ASSERT_GE(c.rss.size(), 2u);
  const double mb = 1024.0 * 1024.0;
  std::printf("[ memory ] %s %s, %d steps: resident %.1f MB after the warm-up, %.1f MB at the end; malloc in use "
              "%.2f MB, %.2f MB\n",
              backend.c_str(), compiled ? "compiled" : "eager", steps, c.rss.front() / mb, c.rss.back() / mb,
              c.heap.front() / mb, c.heap.back() / mb);
  // the bounds: resident memory grows by less than 5 % over the run after the warm-up, and
  // the live heap by less than 1 MB (a leak of 256 bytes a step over 4,500 steps would pass
  // the first and fail the second)
  EXPECT_LT(c.rss.back(), 1.05 * c.rss.front());
  EXPECT_LT(c.heap.back() - c.heap.front(), 1.0 * mb);
  // and neither keeps rising in the second half (a slow leak that the first bound allows)
  const std::size_t mid = c.rss.size() / 2;
  EXPECT_LT(c.rss.back() - c.rss[mid], 0.01 * c.rss.front() + 1.0 * mb);
}

std::vector<std::tuple<std::string, bool>> variants() {
  std::vector<std::tuple<std::string, bool>> v;
  for (ivy::Backend b : ivy::available_backends())
    for (bool compiled : {false, true}) v.emplace_back(b.name(), compiled);
  return v;
}

INSTANTIATE_TEST_SUITE_P(Backends, BoundedMemory, testing::ValuesIn(variants()),
                         [](const testing::TestParamInfo<std::tuple<std::string, bool>>& i) {
                           return std::get<0>(i.param) + (std::get<1>(i.param) ? "_compiled" : "_eager");
                         });

}  // namespace

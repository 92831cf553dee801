// Convolution forward and forward+backward through ivy on each backend against LibTorch's
// own at::conv2d and convolution_backward, on typical CNN shapes (bench/README.md,
// "Convolution"). Backs the xtensor kernel choice (oneDNN for float32,
// im2col + Eigen GEMM otherwise). Variants of one shape
// run interleaved (Google Benchmark repetitions), float32, one thread.
#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "ivy/backends/torch.hpp"
#include "ivy/nn.hpp"

namespace {

struct ConvShape {
  const char* name;
  std::int64_t n, c, h, w, o, k, stride, pad;
};
const ConvShape kShapes[] = {
    {"fmnist_conv1", 64, 1, 28, 28, 16, 3, 1, 1},   // the main job's first layer
    {"fmnist_conv2", 64, 16, 14, 14, 32, 3, 1, 1},  // and its second
    {"resnet_3x3", 16, 64, 28, 28, 64, 3, 1, 1},
    {"resnet_3x3_s2", 16, 64, 28, 28, 128, 3, 2, 1},
    {"resnet_1x1", 16, 64, 28, 28, 128, 1, 1, 0},
};

void run_ivy(benchmark::State& st, const ConvShape& s, const char* backend, bool backward) {
  ivy::BackendScope scope(backend);
  ivy::seed(0);
  ivy::Array x = ivy::random_uniform(-1.0, 1.0, ivy::Shape{s.n, s.c, s.h, s.w}, ivy::float32);
  ivy::Array w = ivy::random_uniform(-1.0, 1.0, ivy::Shape{s.o, s.c, s.k, s.k}, ivy::float32);
  ivy::nn::ConvOptions o{.strides = {s.stride}, .padding = s.pad};
  for (auto _ : st) {
    if (!backward) {
      ivy::Array y = ivy::nn::conv2d(x, w, ivy::Array(), o);
      benchmark::DoNotOptimize(y);
    } else {
      auto r = ivy::vjp([&](const std::vector<ivy::Array>& v) { return std::vector<ivy::Array>{ivy::nn::conv2d(v[0], v[1], ivy::Array(), o)}; },
                        {x, w});
      auto g = r.vjp_fn({ivy::ones_like(r.outputs[0])});
      benchmark::DoNotOptimize(g);
    }
  }
}

void run_libtorch(benchmark::State& st, const ConvShape& s, bool backward) {
  at::manual_seed(0);
  at::Tensor x = at::rand({s.n, s.c, s.h, s.w}), w = at::rand({s.o, s.c, s.k, s.k});
  at::NoGradGuard no_grad;
  for (auto _ : st) {
    at::Tensor y = at::conv2d(x, w, {}, s.stride, s.pad);
    if (backward) {
      auto g = at::convolution_backward(at::ones_like(y), x, w, c10::nullopt, {s.stride, s.stride}, {s.pad, s.pad},
                                        {1, 1}, false, {0, 0}, 1, {true, true, false});
      benchmark::DoNotOptimize(g);
    }
    benchmark::DoNotOptimize(y);
  }
}

const int kRegistered = [] {
  at::set_num_threads(1);
  for (const auto& s : kShapes)
    for (bool bwd : {false, true}) {
      const std::string suffix = std::string(s.name) + (bwd ? "/fwd+bwd" : "/fwd");
      benchmark::RegisterBenchmark(("libtorch/" + suffix).c_str(), [s, bwd](benchmark::State& st) { run_libtorch(st, s, bwd); })
          ->Unit(benchmark::kMillisecond);
      for (const char* b : {"torch", "xtensor"})
        benchmark::RegisterBenchmark((std::string("ivy_") + b + "/" + suffix).c_str(),
                                     [s, b, bwd](benchmark::State& st) { run_ivy(st, s, b, bwd); })
            ->Unit(benchmark::kMillisecond);
    }
  return 0;
}();

}  // namespace

BENCHMARK_MAIN();

// Layer normalization with weight and bias, forward and forward+backward: ivy::nn::layer_norm
// (the layer_norm primitive) on each backend, the same formula composed of ivy's array
// primitives (what nn::layer_norm ran before the primitive existed), and LibTorch's
// at::layer_norm with its native backward (bench/README.md, "Layer normalization").
// float32, one thread.
#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "ivy/backends/torch.hpp"
#include "ivy/nn.hpp"

namespace {

struct NormShape {
  const char* name;
  std::int64_t rows, features;
};
const NormShape kShapes[] = {
    {"bert_base", 2048, 768},  // 16 sequences of 128 tokens
    {"small", 256, 64},
};

ivy::Array composed(const ivy::Array& x, const ivy::Array& w, const ivy::Array& b) {
  const ivy::Dims axes{x.ndim() - 1};
  ivy::Array mu = ivy::mean(x, axes, true);
  ivy::Array y = (x - mu) * (1.0 / ivy::sqrt(ivy::var(x, axes, 0.0, true) + 1e-5));
  return y * w + b;
}

void run_ivy(benchmark::State& st, const NormShape& s, const char* backend, bool use_primitive, bool backward) {
  ivy::BackendScope scope(backend);
  ivy::seed(0);
  ivy::Array x = ivy::random_uniform(-1.0, 1.0, ivy::Shape{s.rows, s.features}, ivy::float32);
  ivy::Array w = ivy::random_uniform(0.5, 1.5, ivy::Shape{s.features}, ivy::float32);
  ivy::Array b = ivy::random_uniform(-0.1, 0.1, ivy::Shape{s.features}, ivy::float32);
  auto f = [&](const std::vector<ivy::Array>& v) {
    return std::vector<ivy::Array>{use_primitive ? ivy::nn::layer_norm(v[0], ivy::Dims{s.features}, v[1], v[2])
                                                 : composed(v[0], v[1], v[2])};
  };
  for (auto _ : st) {
    if (!backward) {
      auto y = f({x, w, b});
      benchmark::DoNotOptimize(y);
    } else {
      auto r = ivy::vjp(f, {x, w, b});
      auto g = r.vjp_fn({ivy::ones_like(r.outputs[0])});
      benchmark::DoNotOptimize(g);
    }
  }
}

void run_libtorch(benchmark::State& st, const NormShape& s, bool backward) {
  at::manual_seed(0);
  at::Tensor x = at::rand({s.rows, s.features}) * 2 - 1, w = at::rand({s.features}) + 0.5,
             b = at::rand({s.features}) * 0.2 - 0.1;
  at::NoGradGuard no_grad;
  const std::vector<int64_t> normalized{s.features};
  for (auto _ : st) {
    auto r = at::native_layer_norm(x, normalized, w, b, 1e-5);
    if (backward) {
      auto g = at::native_layer_norm_backward(at::ones_like(std::get<0>(r)), x, normalized, std::get<1>(r),
                                              std::get<2>(r), w, b, {true, true, true});
      benchmark::DoNotOptimize(g);
    }
    benchmark::DoNotOptimize(r);
  }
}

const int kRegistered = [] {
  at::set_num_threads(1);
  for (const auto& s : kShapes)
    for (bool bwd : {false, true}) {
      const std::string suffix = std::string(s.name) + (bwd ? "/fwd+bwd" : "/fwd");
      benchmark::RegisterBenchmark(("libtorch/" + suffix).c_str(), [s, bwd](benchmark::State& st) { run_libtorch(st, s, bwd); })
          ->Unit(benchmark::kMicrosecond);
      for (const char* be : {"torch", "xtensor"})
        for (bool prim : {true, false})
          benchmark::RegisterBenchmark((std::string("ivy_") + be + (prim ? "" : "_composed") + "/" + suffix).c_str(),
                                       [s, be, prim, bwd](benchmark::State& st) { run_ivy(st, s, be, prim, bwd); })
              ->Unit(benchmark::kMicrosecond);
    }
  return 0;
}();

}  // namespace

BENCHMARK_MAIN();

// bench/transpile: imported ONNX models (bench/transpile_models.py: torchvision resnet18 and
// mobilenet_v2, 3x224x224, batch 1 and 8) through ivy, eager and compiled, on torch and
// xtensor, against the same model as TorchScript (traced, frozen, optimize_for_inference) in
// LibTorch's JIT; bench/transpile.sh adds onnxruntime (bench/transpile_ort.js) in the same run
// and prints the ratios. Every runtime is checked against PyTorch's output before it is timed.
//
//   build/bench/transpile --models DIR [benchmark flags]
#include <benchmark/benchmark.h>
#include <ATen/Parallel.h>
#include <torch/script.h>

#include <cmath>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ivy/backends/torch.hpp"
#include "ivy/compile.hpp"
#include "ivy/ivy.hpp"
#include "ivy/onnx.hpp"

namespace {

std::string g_dir;

std::vector<float> read_f32(const std::string& file) {
  std::ifstream f(g_dir + "/" + file, std::ios::binary);
  std::vector<char> b((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  std::vector<float> v(b.size() / 4);
  std::memcpy(v.data(), b.data(), v.size() * 4);
  return v;
}

void check(const std::string& who, const std::vector<float>& got, const std::vector<float>& want) {
  double err = 0, top = 0;
  for (std::size_t i = 0; i < want.size(); ++i) err = std::max(err, double(std::abs(got[i] - want[i]))), top = std::max(top, double(std::abs(want[i])));
  if (got.size() != want.size() || !(err <= 1e-4 * top))
    throw std::runtime_error(who + " differs from PyTorch by " + std::to_string(err / top) + " x max|y|");
}

void register_entry(const nlohmann::json& e) {
  const std::string tag = e["model"].get<std::string>() + "/b" + std::to_string(e["batch"].get<int>());
  const std::vector<float> x = read_f32(e["input"]), want = read_f32(e["output"]);
  const auto shape_v = e["input_shape"].get<std::vector<std::int64_t>>();
  const ivy::Shape shape(shape_v.begin(), shape_v.end());
  for (const char* backend : {"torch", "xtensor"}) {
    ivy::onnx::ImportOptions o;
    o.backend = backend;
    std::shared_ptr<ivy::onnx::Model> model = ivy::onnx::load(g_dir + "/" + e["onnx"].get<std::string>(), o);
    ivy::Array xa = ivy::asarray(static_cast<const void*>(x.data()), ivy::DType::float32, shape, ivy::DType::float32, ivy::Device{}, backend);
    check(tag + " ivy eager " + backend, model->run({xa})[0].to_vector<float>(), want);
    auto compiled = std::make_shared<ivy::CompiledFunction>(ivy::compile([model](const std::vector<ivy::Array>& in) { return model->run(in); }));
    check(tag + " ivy compiled " + backend, (*compiled)({xa})[0].to_vector<float>(), want);
    benchmark::RegisterBenchmark((tag + "/ivy_eager_" + backend).c_str(), [model, xa](benchmark::State& st) {
      for (auto _ : st) benchmark::DoNotOptimize(model->run({xa}));
    })->Unit(benchmark::kMillisecond)->UseRealTime();
    benchmark::RegisterBenchmark((tag + "/ivy_compiled_" + backend).c_str(), [compiled, xa](benchmark::State& st) {
      for (auto _ : st) benchmark::DoNotOptimize((*compiled)({xa}));
    })->Unit(benchmark::kMillisecond)->UseRealTime();
  }
  torch::jit::Module loaded = torch::jit::load(g_dir + "/" + e["torchscript"].get<std::string>());
  auto ts = std::make_shared<torch::jit::script::Module>(torch::jit::optimize_for_inference(loaded));
  at::Tensor t = at::from_blob(const_cast<float*>(x.data()), shape_v, at::kFloat).clone();
  {
    at::NoGradGuard no_grad;
    at::Tensor y = ts->forward({t}).toTensor().contiguous();
    check(tag + " torchscript", std::vector<float>(y.data_ptr<float>(), y.data_ptr<float>() + y.numel()), want);
  }
  benchmark::RegisterBenchmark((tag + "/torchscript").c_str(), [ts, t](benchmark::State& st) {
    at::NoGradGuard no_grad;
    std::vector<torch::jit::IValue> in{t};
    for (int i = 0; i < 3; ++i) ts->forward(in);  // the profiling executor's warm-up runs
    for (auto _ : st) benchmark::DoNotOptimize(ts->forward(in));
  })->Unit(benchmark::kMillisecond)->UseRealTime();
}

}  // namespace

int main(int argc, char** argv) {
  at::set_num_threads(2);
  std::vector<char*> args;
  for (int i = 0; i < argc; ++i) {
    if (std::string(argv[i]) == "--models" && i + 1 < argc) {
      g_dir = argv[++i];
      continue;
    }
    args.push_back(argv[i]);
  }
  if (g_dir.empty()) {
    std::cerr << "usage: transpile --models DIR (made by bench/transpile_models.py) [benchmark flags]\n";
    return 2;
  }
  std::ifstream f(g_dir + "/index.json");
  for (const auto& e : nlohmann::json::parse(f)) register_entry(e);
  int n = static_cast<int>(args.size());
  benchmark::Initialize(&n, args.data());
  benchmark::RunSpecifiedBenchmarks();
  return 0;
}

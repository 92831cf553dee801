// ivy::compile against eager ivy and the native libraries (bench/README.md, "Compile"): the
// 2021 paper's Table 3 in C++. Workloads, float32 on the CPU, each written op for op the same
// way in every variant:
//   gelu     the tanh form 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))), 1e4 and 1e6 elements
//   lnorm    layer norm over the last axis of rows of 1000 (mean, centred square mean,
//            (x - m) / sqrt(v + 1e-5) * 1.5 + 0.25), 1e4 and 1e6 elements
//   softmax  softmax over the last axis of rows of 1024 (max, exp of the difference, sum,
//            division), 1000 rows; LibTorch's fused kernel: at::softmax
//   chain20  20 cheap elementwise ops (* 1.01, + 0.1, maximum -2, minimum 2, repeated), 1e6
//   quat     rotation matrices from a batch of 1e5 quaternions (normalized first), [B, 3, 3]
//   mlp      a training step's loss and gradients: MLP 784-256-10, ReLU, log-softmax
//            cross-entropy, batch 128 (value_and_grad; LibTorch: autograd backward)
// Variants:
//   ivy_<b>_eager / ivy_<b>_compiled   ivy functions on backend b, called directly / through
//                                      ivy::compile (compiled before timing)
//   libtorch      at:: ops eagerly; torchscript: the same function scripted by
//                 bench/compile_torchscript.py (Debian's python3-torch) and loaded with
//                 torch::jit::load (skipped when its file is missing)
//   xtensor       every op evaluated into a new xt::xarray (xtensor's eager style);
//   xtensor_expr  one lazy xtensor expression (xtensor's own fusion), where it is one
// Everything single-threaded (at::set_num_threads(1); ivy's loops are). After the runs the
// program prints the ratio table of bench/README.md and each workload's compile time.
//   --torchscript-dir DIR   where compile_torchscript.py wrote its .pt files (default: build/bench)
#include <benchmark/benchmark.h>

#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <torch/script.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <filesystem>
#include <map>
#include <stdexcept>
#include <string>
#include <xtensor/xadapt.hpp>
#include <xtensor/xarray.hpp>
#include <xtensor/xmath.hpp>
#include <xtensor/xview.hpp>
#include <xtensor/xreducer.hpp>

#include "ivy/backends/torch.hpp"
#include "ivy/compile.hpp"
#include "ivy/ivy.hpp"
#include "ivy/nn.hpp"

namespace {
using ivy::Array;
const double kC = std::sqrt(2.0 / M_PI);
std::string g_ts_dir = "build/bench";

// ---------------------------------------------------------------- the workloads, for ivy and at::
// (its own name: an unqualified gelu(x) on an at::Tensor finds at::gelu by argument-dependent
// lookup, LibTorch's fused erf-form kernel, and prefers it to this template)
template <class A>
A gelu_tanh_form(const A& x) {
  return 0.5 * x * (1.0 + tanh(kC * (x + 0.044715 * x * x * x)));
}
Array lnorm_ivy(const Array& x) {
  auto m = ivy::mean(x, -1, true);
  auto d = x - m;
  auto v = ivy::mean(d * d, -1, true);
  return d / ivy::sqrt(v + 1e-5) * 1.5 + 0.25;
}
at::Tensor lnorm_at(const at::Tensor& x) {
  auto m = at::mean(x, {-1}, true);
  auto d = x - m;
  auto v = at::mean(d * d, {-1}, true);
  return d / at::sqrt(v + 1e-5) * 1.5 + 0.25;
}
Array softmax_ivy(const Array& x) { return ivy::nn::softmax(x, -1); }
at::Tensor softmax_at(const at::Tensor& x) {
  auto e = at::exp(x - std::get<0>(at::max(x, -1, true)));
  return e / at::sum(e, {-1}, true);
}
Array chain_ivy(const Array& x) {
  Array y = x;
  for (int i = 0; i < 5; ++i) y = ivy::minimum(ivy::maximum(y * 1.01 + 0.1, -2.0), 2.0);
  return y;
}
at::Tensor chain_at(const at::Tensor& x) {
  at::Tensor y = x;
  for (int i = 0; i < 5; ++i) y = at::clamp_max(at::clamp_min(y * 1.01 + 0.1, -2.0), 2.0);
  return y;
}
Array quat_ivy(const Array& q0) {
  auto q = q0 / ivy::sqrt(ivy::sum(q0 * q0, -1, std::nullopt, true));
  auto x = q.index({ivy::Slice(), 0}), y = q.index({ivy::Slice(), 1}), z = q.index({ivy::Slice(), 2}),
       w = q.index({ivy::Slice(), 3});
  auto r = ivy::stack({1.0 - 2.0 * (y * y + z * z), 2.0 * (x * y - z * w), 2.0 * (x * z + y * w),
                       2.0 * (x * y + z * w), 1.0 - 2.0 * (x * x + z * z), 2.0 * (y * z - x * w),
                       2.0 * (x * z - y * w), 2.0 * (y * z + x * w), 1.0 - 2.0 * (x * x + y * y)},
                      -1);
  return ivy::reshape(r, {q0.shape()[0], 3, 3});
}
at::Tensor quat_at(const at::Tensor& q0) {
  auto q = q0 / at::sqrt(at::sum(q0 * q0, {-1}, true));
  auto x = q.select(1, 0), y = q.select(1, 1), z = q.select(1, 2), w = q.select(1, 3);
  auto r = at::stack({1.0 - 2.0 * (y * y + z * z), 2.0 * (x * y - z * w), 2.0 * (x * z + y * w),
                      2.0 * (x * y + z * w), 1.0 - 2.0 * (x * x + z * z), 2.0 * (y * z - x * w),
                      2.0 * (x * z - y * w), 2.0 * (y * z + x * w), 1.0 - 2.0 * (x * x + y * y)},
                     -1);
  return r.reshape({q0.size(0), 3, 3});
}
// mlp: inputs x [128, 784], one-hot labels [128, 10], W1 [784, 256], b1, W2 [256, 10], b2
Array mlp_loss_ivy(const std::vector<Array>& v) {
  auto h = ivy::maximum(ivy::matmul(v[0], v[2]) + v[3], 0.0);
  auto z = ivy::matmul(h, v[4]) + v[5];
  auto m = ivy::max(z, -1, true);
  auto lse = ivy::log(ivy::sum(ivy::exp(z - m), -1, std::nullopt, true)) + m;
  return ivy::mean(ivy::sum((lse - z) * v[1], -1));
}
at::Tensor mlp_loss_at(const std::vector<at::Tensor>& v) {
  auto h = at::clamp_min(at::matmul(v[0], v[2]) + v[3], 0.0);
  auto z = at::matmul(h, v[4]) + v[5];
  auto m = std::get<0>(at::max(z, -1, true));
  auto lse = at::log(at::sum(at::exp(z - m), {-1}, true)) + m;
  return at::mean(at::sum((lse - z) * v[1], {-1}));
}

// ---------------------------------------------------------------- xtensor, op by op and as one expression
using XA = xt::xarray<float>;
XA gelu_xt(const XA& x) {
  XA a = x * x;
  XA b = a * x;
  XA c = 0.044715f * b;
  XA d = x + c;
  XA e = float(kC) * d;
  XA f = xt::tanh(e);
  XA g = 1.0f + f;
  XA h = 0.5f * x;
  XA r = h * g;
  return r;
}
XA gelu_xt_expr(const XA& x) { return 0.5f * x * (1.0f + xt::tanh(float(kC) * (x + 0.044715f * x * x * x))); }
XA chain_xt(const XA& x) {
  XA y = x;
  for (int i = 0; i < 5; ++i) {
    XA a = y * 1.01f;
    XA b = a + 0.1f;
    XA c = xt::maximum(b, -2.0f);
    y = xt::minimum(c, 2.0f);
  }
  return y;
}
XA chain_xt_expr(const XA& x) {
  auto s = [](const auto& y) { return xt::minimum(xt::maximum(y * 1.01f + 0.1f, -2.0f), 2.0f); };
  return s(s(s(s(s(x)))));
}
XA lnorm_xt(const XA& x) {
  const std::size_t r = x.shape()[0];
  XA m = xt::mean(x, {1});
  m.reshape({r, std::size_t{1}});
  XA d = x - m;
  XA d2 = d * d;
  XA v = xt::mean(d2, {1});
  v.reshape({r, std::size_t{1}});
  XA ve = v + 1e-5f;
  XA s = xt::sqrt(ve);
  XA q = d / s;
  XA t = q * 1.5f;
  XA out = t + 0.25f;
  return out;
}
XA lnorm_xt_expr(const XA& x) {
  const std::size_t r = x.shape()[0];
  XA m = xt::mean(x, {1});
  m.reshape({r, std::size_t{1}});
  XA v = xt::mean(xt::square(x - m), {1});
  v.reshape({r, std::size_t{1}});
  return (x - m) / xt::sqrt(v + 1e-5f) * 1.5f + 0.25f;
}

// ---------------------------------------------------------------- variants
struct Case {
  std::string name;
  std::int64_t n;
  std::vector<std::int64_t> shape;
};
Array input_for(const Case& c, ivy::Backend b) {
  ivy::BackendScope s(b);
  ivy::seed(7);
  if (c.name == "quat") return ivy::random_normal(0.0, 1.0, {c.n, 4}, ivy::float32);
  return ivy::random_normal(0.0, 1.0, ivy::Shape(c.shape), ivy::float32);
}
std::function<Array(const Array&)> ivy_fn(const std::string& name) {
  if (name == "gelu") return [](const Array& x) { return gelu_tanh_form(x); };
  if (name == "lnorm") return lnorm_ivy;
  if (name == "softmax") return softmax_ivy;
  if (name == "chain20") return chain_ivy;
  return quat_ivy;
}
std::function<at::Tensor(const at::Tensor&)> at_fn(const std::string& name) {
  if (name == "gelu") return [](const at::Tensor& x) { return gelu_tanh_form(x); };
  if (name == "lnorm") return lnorm_at;
  if (name == "softmax") return softmax_at;
  if (name == "chain20") return chain_at;
  return quat_at;
}

std::map<std::string, double> g_compile_ms;

void register_case(const Case& c) {
  const std::string tag = c.name + "/" + std::to_string(c.n);
  for (const char* bname : {"xtensor", "torch"}) {
    const ivy::Backend b(bname);
    auto x = input_for(c, b);
    auto f = ivy_fn(c.name);
    benchmark::RegisterBenchmark((tag + "/ivy_" + bname + "_eager").c_str(), [x, f](benchmark::State& st) {
      for (auto _ : st) benchmark::DoNotOptimize(f(x));
    });
    auto t0 = std::chrono::steady_clock::now();
    auto cf = ivy::compile(f);
    cf(x);
    g_compile_ms[tag + "/" + bname] = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    benchmark::RegisterBenchmark((tag + "/ivy_" + bname + "_compiled").c_str(), [x, cf](benchmark::State& st) {
      for (auto _ : st) benchmark::DoNotOptimize(cf(x));
    });
    // the same plan with fused groups in the interpreted loops (no generated kernels)
    ivy::CompileOptions interp;
    interp.generate_code = false;
    auto ci = ivy::compile(f, interp);
    ci(x);
    benchmark::RegisterBenchmark((tag + "/ivy_" + bname + "_interp").c_str(), [x, ci](benchmark::State& st) {
      for (auto _ : st) benchmark::DoNotOptimize(ci(x));
    });
  }
  if (c.name == "chain20") {
    // the memory-bandwidth limit: one read and one write of the same bytes into a fresh buffer
    const std::size_t bytes = static_cast<std::size_t>(c.n) * sizeof(float);
    auto src = std::make_shared<std::vector<float>>(static_cast<std::size_t>(c.n), 1.0f);
    benchmark::RegisterBenchmark((tag + "/copy").c_str(), [src, bytes](benchmark::State& st) {
      for (auto _ : st) {
        std::unique_ptr<float[]> dst(new float[bytes / sizeof(float)]);
        std::memcpy(dst.get(), src->data(), bytes);
        benchmark::DoNotOptimize(dst.get());
      }
    });
  }
  const at::Tensor t = ivy::torch::unwrap(input_for(c, "torch")).clone();
  auto g = at_fn(c.name);
  // every column computes the same function: LibTorch's and TorchScript's results against
  // eager ivy's on torch (a row that measured something else would compare nothing)
  const at::Tensor want = ivy::torch::unwrap(ivy_fn(c.name)(input_for(c, "torch")));
  auto check = [&](const char* who, const at::Tensor& got) {
    const double err = (got - want).abs().max().item<double>() / (1.0 + want.abs().max().item<double>());
    if (!(err < 1e-5)) throw std::runtime_error(tag + ": " + who + " differs from ivy by " + std::to_string(err));
  };
  check("libtorch", g(t));
  // LibTorch's own fused kernels of the same functions
  std::function<at::Tensor(const at::Tensor&)> fused_at;
  if (c.name == "gelu") fused_at = [](const at::Tensor& x) { return at::gelu(x, "tanh"); };
  if (c.name == "lnorm") {
    const at::Tensor w = at::full({t.size(-1)}, 1.5f), b = at::full({t.size(-1)}, 0.25f);
    fused_at = [w, b](const at::Tensor& x) { return at::layer_norm(x, {x.size(-1)}, w, b, 1e-5); };
  }
  if (c.name == "softmax") fused_at = [](const at::Tensor& x) { return at::softmax(x, -1); };
  if (fused_at) {
    check("libtorch_fused", fused_at(t));
    benchmark::RegisterBenchmark((tag + "/libtorch_fused").c_str(), [t, fused_at](benchmark::State& st) {
      at::NoGradGuard no_grad;
      for (auto _ : st) benchmark::DoNotOptimize(fused_at(t));
    });
  }
  benchmark::RegisterBenchmark((tag + "/libtorch").c_str(), [t, g](benchmark::State& st) {
    at::NoGradGuard no_grad;
    for (auto _ : st) benchmark::DoNotOptimize(g(t));
  });
  const std::string ts = g_ts_dir + "/ts_" + c.name + ".pt";
  if (std::filesystem::exists(ts)) {
    auto mod = std::make_shared<torch::jit::script::Module>(torch::jit::load(ts));
    mod->eval();
    check("torchscript", mod->forward({t}).toTensor());
    benchmark::RegisterBenchmark((tag + "/torchscript").c_str(), [t, mod](benchmark::State& st) {
      at::NoGradGuard no_grad;
      std::vector<torch::jit::IValue> in{t};
      for (int i = 0; i < 3; ++i) mod->forward(in);  // the profiling executor's warm-up runs
      for (auto _ : st) benchmark::DoNotOptimize(mod->forward(in));
    });
  }
  if (c.name == "quat" || c.name == "softmax") return;
  auto xv = ivy::to_backend(input_for(c, "xtensor"), "xtensor").to_vector<float>();
  std::vector<std::size_t> sh(c.shape.begin(), c.shape.end());
  XA xa = xt::adapt(xv, sh);
  XA (*eager)(const XA&) = c.name == "gelu" ? gelu_xt : c.name == "chain20" ? chain_xt : lnorm_xt;
  XA (*expr)(const XA&) = c.name == "gelu" ? gelu_xt_expr : c.name == "chain20" ? chain_xt_expr : lnorm_xt_expr;
  benchmark::RegisterBenchmark((tag + "/xtensor").c_str(), [xa, eager](benchmark::State& st) {
    for (auto _ : st) benchmark::DoNotOptimize(eager(xa));
  });
  benchmark::RegisterBenchmark((tag + "/xtensor_expr").c_str(), [xa, expr](benchmark::State& st) {
    for (auto _ : st) benchmark::DoNotOptimize(expr(xa));
  });
}

void register_mlp() {
  const std::string tag = "mlp/128";
  auto make = [](ivy::Backend b) {
    ivy::BackendScope s(b);
    ivy::seed(11);
    std::vector<Array> v{ivy::random_normal(0.0, 1.0, {128, 784}, ivy::float32),
                         ivy::astype(ivy::equal(ivy::reshape(ivy::arange(0, 1280), {128, 10}) % 10,
                                                ivy::reshape(ivy::arange(0, 128) % 10, {128, 1})),
                                     ivy::float32),
                         ivy::random_normal(0.0, 0.05, {784, 256}, ivy::float32), ivy::zeros({256}, ivy::float32),
                         ivy::random_normal(0.0, 0.05, {256, 10}, ivy::float32), ivy::zeros({10}, ivy::float32)};
    return v;
  };
  for (const char* bname : {"xtensor", "torch"}) {
    auto v = make(bname);
    auto vg = ivy::value_and_grad(mlp_loss_ivy, {2, 3, 4, 5});
    auto step = [vg](const std::vector<Array>& in) {
      auto [loss, grads] = vg(in);
      grads.insert(grads.begin(), loss);
      return grads;
    };
    benchmark::RegisterBenchmark((tag + "/ivy_" + bname + "_eager").c_str(), [v, step](benchmark::State& st) {
      for (auto _ : st) benchmark::DoNotOptimize(step(v));
    });
    auto t0 = std::chrono::steady_clock::now();
    auto cf = ivy::compile(step);
    cf(v);
    g_compile_ms[tag + "/" + bname] = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    benchmark::RegisterBenchmark((tag + "/ivy_" + bname + "_compiled").c_str(), [v, cf](benchmark::State& st) {
      for (auto _ : st) benchmark::DoNotOptimize(cf(v));
    });
  }
  std::vector<at::Tensor> tv;
  for (auto& a : make("torch")) tv.push_back(ivy::torch::unwrap(a).clone());
  benchmark::RegisterBenchmark((tag + "/libtorch").c_str(), [tv](benchmark::State& st) {
    auto v = tv;
    for (int i = 2; i < 6; ++i) v[static_cast<std::size_t>(i)].requires_grad_(true);
    for (auto _ : st) {
      for (int i = 2; i < 6; ++i) v[static_cast<std::size_t>(i)].mutable_grad() = at::Tensor();
      auto loss = mlp_loss_at(v);
      loss.backward();
      benchmark::DoNotOptimize(v[2].grad());
    }
  });
}

// Collects each run's real time per iteration (ns), by name.
class Collect : public benchmark::ConsoleReporter {
 public:
  std::map<std::string, double> ns;
  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const auto& r : runs) ns[r.benchmark_name()] = r.GetAdjustedRealTime();
  }
};
}  // namespace

int main(int argc, char** argv) {
  at::set_num_threads(1);  // side-by-side timings on one core
  for (int i = 1; i + 1 < argc; ++i)
    if (std::string(argv[i]) == "--torchscript-dir") g_ts_dir = argv[i + 1];
  std::vector<char*> args;
  for (int i = 0; i < argc; ++i) {
    if (std::string(argv[i]) == "--torchscript-dir") {
      ++i;
      continue;
    }
    args.push_back(argv[i]);
  }
  int n_args = static_cast<int>(args.size());
  const std::vector<Case> cases = {{"gelu", 10000, {10, 1000}},   {"gelu", 1000000, {1000, 1000}},
                                   {"lnorm", 10000, {10, 1000}},  {"lnorm", 1000000, {1000, 1000}},
                                   {"softmax", 1024000, {1000, 1024}},
                                   {"chain20", 1000000, {1000, 1000}}, {"quat", 100000, {}}};
  for (const auto& c : cases) register_case(c);
  register_mlp();
  benchmark::Initialize(&n_args, args.data());
  Collect rep;
  benchmark::RunSpecifiedBenchmarks(&rep);
  // the table: times in us, and the speed-ups of compiled ivy
  std::printf("\n| workload | backend | eager ivy | compiled | interpreted | native eager | native fused | compile ms | vs native eager | vs eager ivy | vs interpreted | vs fused |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  std::vector<std::string> tags;
  for (const auto& c : cases) tags.push_back(c.name + "/" + std::to_string(c.n));
  tags.push_back("mlp/128");
  for (const auto& tag : tags)
    for (const char* b : {"xtensor", "torch"}) {
      auto get = [&](const std::string& v) {
        auto it = rep.ns.find(tag + "/" + v);
        return it == rep.ns.end() ? NAN : it->second / 1e3;
      };
      const double eager = get(std::string("ivy_") + b + "_eager"), comp = get(std::string("ivy_") + b + "_compiled");
      const double native = std::string(b) == "torch" ? get("libtorch") : get("xtensor");
      const double fused = std::string(b) == "torch" ? get("torchscript") : get("xtensor_expr");
      const double interp = get(std::string("ivy_") + b + "_interp");
      std::printf("| %s | %s | %.1f | %.1f | %.1f | %.1f | %.1f | %.2f | %.2fx | %.2fx | %.2fx | %.2fx |\n", tag.c_str(), b,
                  eager, comp, interp, native, fused, g_compile_ms[tag + "/" + b], native / comp, eager / comp,
                  interp / comp, fused / comp);
    }
  // against LibTorch's fused kernels, and the copy of chain20's bytes (the bandwidth limit)
  std::printf("\n| workload | LibTorch fused kernel us | ivy compiled on torch us | ratio (>1: ivy faster) |\n|---|---|---|---|\n");
  for (const auto& tag : tags) {
    auto it = rep.ns.find(tag + "/libtorch_fused");
    auto jt = rep.ns.find(tag + "/ivy_torch_compiled");
    if (it == rep.ns.end() || jt == rep.ns.end()) continue;
    std::printf("| %s | %.1f | %.1f | %.2fx |\n", tag.c_str(), it->second / 1e3, jt->second / 1e3, it->second / jt->second);
  }
  if (auto it = rep.ns.find("chain20/1000000/copy"); it != rep.ns.end())
    for (const char* b : {"xtensor", "torch"})
      if (auto jt = rep.ns.find(std::string("chain20/1000000/ivy_") + b + "_compiled"); jt != rep.ns.end())
        std::printf("\nchain20 compiled on %s: %.1f us, copy of the same bytes %.1f us: %.2fx the bandwidth limit\n", b,
                    jt->second / 1e3, it->second / 1e3, jt->second / it->second);
  return 0;
}

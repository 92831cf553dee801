// Reverse-mode autodiff against LibTorch's autograd (bench/README.md, "Autodiff"). Three
// workloads, float32 on the CPU:
//   mlp    an MLP 784-512-512-10, ReLU (maximum(x, 0)), softmax cross-entropy with a
//          max-shifted log-sum-exp, batch 128; gradients for the six parameters
//   chain  30 elementwise ops on 1e6 elements (5 x: sin, * 0.5, exp, * x, + x, tanh),
//          reduced by sum; gradient for x
//   lse    row-wise max-shifted log-sum-exp of a 1000 x 1000 matrix, summed to a scalar;
//          gradient for the matrix
// each computed the same way, op for op, by
//   libtorch     at:: ops on tensors with requires_grad, loss.backward() (grads reset to
//                undefined before each step, as zero_grad(set_to_none) does)
//   ivy_torch    ivy:: ops on the torch backend, ivy::value_and_grad
//   ivy_xtensor  ivy:: ops on the xtensor backend, ivy::value_and_grad
// and for each, two variants: `fwd` (the loss alone: ivy without a tape, LibTorch under
// at::NoGradGuard) and `fb` (loss and gradients). The benchmark's rounds run every variant
// once, interleaved, the first variant rotating from round to round (as bench/overhead.cpp):
// drift of the machine falls on all variants alike. Reported per variant: the median time
// (<v>_ms) and heap allocations per call (<v>_allocs, counted by a replacing operator new);
// per backend the paired backward/forward ratio (<b>_bwd_fwd: the median over rounds of
// (fb - fwd) / fwd of the same round); per ivy backend the paired ratio of its forward+
// backward over LibTorch's (<b>_vs_libtorch). Before any timing, ivy's gradients on both
// backends are checked against LibTorch's on the same inputs (|ivy - torch|_inf <= 1e-3 *
// |torch|_inf per gradient; the loss likewise); a mismatch aborts the program.
// Also per variant: minor page faults (<v>_faults) and kernel CPU time (<v>_kernel_ms) per
// call, from getrusage: the 4 MB buffers of `chain` and `lse` land on fresh pages whenever
// glibc has given the memory back to the kernel. After the run the program prints the table
// of bench/README.md.
// LibTorch runs single-threaded (at::set_num_threads(1)); ivy's xtensor kernels are.
//   --breakdown               instead of the benchmark: the cost of a page fault, then per
//                             workload LibTorch's forward with and without the graph and its
//                             backward alone, and for ivy the recorded forward, the backward
//                             alone (vjp_fn) and the time per primitive and phase (OpProfiler)
//   IVY_AUTODIFF_ROUNDS=f     scales each workload's number of rounds (mlp 60, chain 20, lse 60)
//   IVY_AUTODIFF_BACKENDS=b   ivy on backend b only (torch or xtensor; default both)
#include <benchmark/benchmark.h>
#include <sys/mman.h>
#include <sys/resource.h>

#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <ATen/core/grad_mode.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <memory>
#include <new>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "ivy/backends/torch.hpp"
#include "ivy/ivy.hpp"

// ---------------------------------------------------------------- counting allocator
// g_allocs and the replacing operator new / delete (this executable's one copy).
#include "alloc_counter.hpp"

namespace {

using ivy::Array;

// ---------------------------------------------------------------- the workloads
// Each is written twice, with ivy:: ops and with at:: ops, the same ops in the same order.
// Arguments: the differentiated ones first (their count: Workload::nparams), then constants.

Array relu(const Array& x) { return ivy::maximum(x, 0.0); }
// Row-wise log-sum-exp, shifted by the (gradient-free) row maximum, keepdims.
Array lse_rows(const Array& z) {
  Array m = ivy::stop_gradient(ivy::max(z, 1, true));
  return ivy::log(ivy::sum(ivy::exp(z - m), 1, std::nullopt, true)) + m;
}
at::Tensor lse_rows(const at::Tensor& z) {
  at::Tensor m = at::amax(z, {1}, true).detach();
  return at::log(at::sum(at::exp(z - m), {1}, true)) + m;
}

// a: W1 b1 W2 b2 W3 b3 | x onehot
Array mlp_ivy(const std::vector<Array>& a) {
  Array h = relu(ivy::matmul(a[6], a[0]) + a[1]);
  h = relu(ivy::matmul(h, a[2]) + a[3]);
  Array z = ivy::matmul(h, a[4]) + a[5];
  Array picked = ivy::sum(z * a[7], 1, std::nullopt, true);
  return ivy::mean(lse_rows(z) - picked);
}
at::Tensor mlp_torch(const std::vector<at::Tensor>& a) {
  static const at::Tensor zero = at::zeros({}, at::kFloat);
  at::Tensor h = at::maximum(at::matmul(a[6], a[0]) + a[1], zero);
  h = at::maximum(at::matmul(h, a[2]) + a[3], zero);
  at::Tensor z = at::matmul(h, a[4]) + a[5];
  at::Tensor picked = at::sum(z * a[7], {1}, true);
  return at::mean(lse_rows(z) - picked);
}

constexpr int kChainReps = 5;  // 6 ops each: 30
Array chain_ivy(const std::vector<Array>& a) {
  const Array& x = a[0];
  Array y = x;
  for (int r = 0; r < kChainReps; ++r) {
    y = ivy::sin(y);
    y = ivy::exp(y * 0.5);
    y = y * x;
    y = y + x;
    y = ivy::tanh(y);
  }
  return ivy::sum(y);
}
at::Tensor chain_torch(const std::vector<at::Tensor>& a) {
  const at::Tensor& x = a[0];
  at::Tensor y = x;
  for (int r = 0; r < kChainReps; ++r) {
    y = at::sin(y);
    y = at::exp(y * 0.5);
    y = y * x;
    y = y + x;
    y = at::tanh(y);
  }
  return at::sum(y);
}

Array lse_ivy(const std::vector<Array>& a) { return ivy::sum(lse_rows(a[0])); }
at::Tensor lse_torch(const std::vector<at::Tensor>& a) { return at::sum(lse_rows(a[0])); }

// Host data of one workload: its arrays' values and shapes.
struct Workload {
  std::string name;
  std::size_t nparams = 0;
  std::vector<std::vector<float>> data;
  std::vector<std::vector<std::int64_t>> shapes;
  std::function<Array(const std::vector<Array>&)> ivy_fn;
  std::function<at::Tensor(const std::vector<at::Tensor>&)> torch_fn;
  int rounds = 0;
};

std::vector<float> uniform(std::size_t n, float lo, float hi, std::mt19937& g) {
  std::uniform_real_distribution<float> u(lo, hi);
  std::vector<float> v(n);
  for (auto& e : v) e = u(g);
  return v;
}

Workload make_mlp() {
  std::mt19937 g(1);
  Workload w{"mlp", 6, {}, {}, mlp_ivy, mlp_torch, 60};
  const std::int64_t B = 128, dims[4] = {784, 512, 512, 10};
  for (int l = 0; l < 3; ++l) {
    const float s = 1.0f / std::sqrt(static_cast<float>(dims[l]));
    w.data.push_back(uniform(static_cast<std::size_t>(dims[l] * dims[l + 1]), -s, s, g));
    w.shapes.push_back({dims[l], dims[l + 1]});
    w.data.push_back(uniform(static_cast<std::size_t>(dims[l + 1]), -s, s, g));
    w.shapes.push_back({dims[l + 1]});
  }
  // then x and the one-hot labels
  w.data.push_back(uniform(static_cast<std::size_t>(B * dims[0]), 0.0f, 1.0f, g));
  w.shapes.push_back({B, dims[0]});
  std::vector<float> onehot(static_cast<std::size_t>(B * 10), 0.0f);
  std::uniform_int_distribution<int> label(0, 9);
  for (std::int64_t i = 0; i < B; ++i) onehot[static_cast<std::size_t>(i * 10 + label(g))] = 1.0f;
  w.data.push_back(std::move(onehot));
  w.shapes.push_back({B, 10});
  return w;
}
Workload make_chain() {
  std::mt19937 g(2);
  Workload w{"chain", 1, {}, {}, chain_ivy, chain_torch, 20};
  w.data.push_back(uniform(1000000, -1.0f, 1.0f, g));
  w.shapes.push_back({1000000});
  return w;
}
Workload make_lse() {
  std::mt19937 g(3);
  Workload w{"lse", 1, {}, {}, lse_ivy, lse_torch, 60};
  w.data.push_back(uniform(1000000, -4.0f, 4.0f, g));
  w.shapes.push_back({1000, 1000});
  return w;
}

std::vector<Array> ivy_args(const Workload& w, ivy::Backend b) {
  std::vector<Array> a;
  for (std::size_t i = 0; i < w.data.size(); ++i)
    a.push_back(ivy::asarray(w.data[i], ivy::Shape(w.shapes[i].begin(), w.shapes[i].end()), ivy::float32, {}, b));
  return a;
}
std::vector<at::Tensor> torch_args(const Workload& w) {
  std::vector<at::Tensor> a;
  for (std::size_t i = 0; i < w.data.size(); ++i) {
    at::Tensor t = at::from_blob(const_cast<float*>(w.data[i].data()), w.shapes[i], at::kFloat).clone();
    if (i < w.nparams) t.requires_grad_(true);
    a.push_back(t);
  }
  return a;
}

std::vector<int> argnums(const Workload& w) {
  std::vector<int> k;
  for (std::size_t i = 0; i < w.nparams; ++i) k.push_back(static_cast<int>(i));
  return k;
}

// One training step of LibTorch: loss and gradients into .grad (reset first).
at::Tensor torch_step(const Workload& w, std::vector<at::Tensor>& a) {
  for (std::size_t i = 0; i < w.nparams; ++i) a[i].mutable_grad() = at::Tensor();
  at::Tensor loss = w.torch_fn(a);
  loss.backward();
  return loss;
}

// ---------------------------------------------------------------- the check
std::vector<float> host(const at::Tensor& t) {
  at::Tensor c = t.detach().contiguous();
  return std::vector<float>(c.data_ptr<float>(), c.data_ptr<float>() + c.numel());
}
// |a - b|_inf <= tol * |b|_inf
bool close(const std::vector<float>& a, const std::vector<float>& b, double tol, double* rel) {
  if (a.size() != b.size()) return false;
  double diff = 0, scale = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    diff = std::max(diff, std::abs(static_cast<double>(a[i]) - b[i]));
    scale = std::max(scale, std::abs(static_cast<double>(b[i])));
  }
  *rel = scale > 0 ? diff / scale : diff;
  return std::isfinite(diff) && diff <= tol * scale;
}
void check_gradients(const Workload& w, const std::vector<ivy::Backend>& backends) {
  constexpr double kTol = 1e-3;
  std::vector<at::Tensor> ta = torch_args(w);
  at::Tensor loss = torch_step(w, ta);
  const std::vector<float> tloss = host(loss);
  for (ivy::Backend b : backends) {
    auto [value, grads] = ivy::value_and_grad(ivy::MultiFn(w.ivy_fn), argnums(w))(ivy_args(w, b));
    double rel = 0;
    if (value.dtype() != ivy::float32 || !close(value.to_vector<float>(), tloss, kTol, &rel)) {
      std::fprintf(stderr, "autodiff: %s on %s: the loss differs from LibTorch's (%g against %g, rel %g); aborting\n",
                   w.name.c_str(), b.name(), static_cast<double>(value.to_vector<float>()[0]),
                   static_cast<double>(tloss[0]), rel);
      std::exit(1);
    }
    double worst = rel;
    for (std::size_t i = 0; i < w.nparams; ++i) {
      const at::Tensor& tg = ta[i].grad();
      if (!tg.defined() || grads[i].dtype() != ivy::float32 ||
          !(grads[i].shape() == ivy::Shape(tg.sizes().begin(), tg.sizes().end())) ||
          !close(grads[i].to_vector<float>(), host(tg), kTol, &rel)) {
        std::fprintf(stderr,
                     "autodiff: %s on %s: the gradient of argument %zu differs from LibTorch's "
                     "(|ivy - torch|_inf / |torch|_inf = %g > %g, or shape/dtype); aborting\n",
                     w.name.c_str(), b.name(), i, rel, kTol);
        std::exit(1);
      }
      worst = std::max(worst, rel);
    }
    std::printf("check %-5s %-7s: loss %.6g, gradients agree with LibTorch's (worst |diff|_inf/|torch|_inf %.2e)\n",
                w.name.c_str(), b.name(), static_cast<double>(tloss[0]), worst);
  }
}

// ---------------------------------------------------------------- the timing
struct Variant {
  std::string name;
  std::function<void()> fn;
};
// minor page faults of the process so far (fresh pages of new buffers: glibc hands large
// blocks back to the kernel and maps them again)
long minor_faults() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_minflt;
}
// CPU time the process has spent in the kernel so far, in seconds (page faults, brk, munmap;
// the kernel accounts it per tick, so it is meaningful summed over many rounds)
double kernel_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_stime.tv_sec) + 1e-6 * static_cast<double>(u.ru_stime.tv_usec);
}
double median_of(std::vector<double> v) {
  if (v.empty()) return 0.0;
  auto mid = v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2);
  std::nth_element(v.begin(), mid, v.end());
  return *mid;
}

// Figures of one workload, for the table printed at the end.
struct Row {
  std::string backend;
  double fwd_ms, fb_ms, bwd_fwd, vs_libtorch, fwd_allocs, fb_allocs, fwd_faults, fb_faults, fwd_kernel_ms,
      fb_kernel_ms;
};
std::map<std::string, std::vector<Row>>& results() {
  static std::map<std::string, std::vector<Row>> r;
  return r;
}

void run_workload(benchmark::State& st, const Workload& w, const std::vector<ivy::Backend>& backends) {
  using clock = std::chrono::steady_clock;
  // the inputs, made once (untimed)
  auto ta = std::make_shared<std::vector<at::Tensor>>(torch_args(w));
  std::vector<Variant> vs;
  std::vector<std::string> labels = {"libtorch"};
  vs.push_back({"libtorch_fwd", [&w, ta] {
                  at::NoGradGuard no_grad;
                  benchmark::DoNotOptimize(w.torch_fn(*ta));
                }});
  vs.push_back({"libtorch_fb", [&w, ta] { benchmark::DoNotOptimize(torch_step(w, *ta)); }});
  for (ivy::Backend b : backends) {
    auto xa = std::make_shared<std::vector<Array>>(ivy_args(w, b));
    auto vg = ivy::value_and_grad(ivy::MultiFn(w.ivy_fn), argnums(w));
    const std::string l = std::string("ivy_") + b.name();
    labels.push_back(l);
    vs.push_back({l + "_fwd", [&w, xa] { benchmark::DoNotOptimize(w.ivy_fn(*xa)); }});
    vs.push_back({l + "_fb", [vg, xa] { benchmark::DoNotOptimize(vg(*xa)); }});
  }
  const std::size_t nv = vs.size();
  for (int rep = 0; rep < 2; ++rep)
    for (auto& v : vs) v.fn();  // warm up: first-call allocations, caches
  std::vector<std::vector<double>> t(nv);
  std::vector<long> allocs(nv, 0), faults(nv, 0);
  std::vector<double> kernel(nv, 0.0);
  std::size_t first = 0;
  std::int64_t rounds = 0;
  for (auto _ : st) {
    double total = 0;
    for (std::size_t j = 0; j < nv; ++j) {
      const std::size_t k = (first + j) % nv;
      const long a0 = g_allocs, f0 = minor_faults();
      const double k0 = kernel_seconds();
      const auto s = clock::now();
      vs[k].fn();
      const auto e = clock::now();
      allocs[k] += g_allocs - a0;
      faults[k] += minor_faults() - f0;
      kernel[k] += kernel_seconds() - k0;
      const double d = std::chrono::duration<double>(e - s).count();
      t[k].push_back(d);
      total += d;
    }
    first = (first + 1) % nv;
    ++rounds;
    st.SetIterationTime(total);
  }
  std::vector<Row> rows;
  for (std::size_t b = 0; b < labels.size(); ++b) {
    const std::size_t f = 2 * b, fb = 2 * b + 1;
    std::vector<double> bwd_fwd(t[f].size()), vs_lt(t[f].size());
    for (std::size_t r = 0; r < t[f].size(); ++r) {
      bwd_fwd[r] = (t[fb][r] - t[f][r]) / t[f][r];
      vs_lt[r] = t[fb][r] / t[1][r];
    }
    Row row{labels[b],
            median_of(t[f]) * 1e3,
            median_of(t[fb]) * 1e3,
            median_of(bwd_fwd),
            b == 0 ? 1.0 : median_of(vs_lt),
            static_cast<double>(allocs[f]) / static_cast<double>(rounds),
            static_cast<double>(allocs[fb]) / static_cast<double>(rounds),
            static_cast<double>(faults[f]) / static_cast<double>(rounds),
            static_cast<double>(faults[fb]) / static_cast<double>(rounds),
            kernel[f] * 1e3 / static_cast<double>(rounds),
            kernel[fb] * 1e3 / static_cast<double>(rounds)};
    st.counters[labels[b] + "_fwd_ms"] = row.fwd_ms;
    st.counters[labels[b] + "_fb_ms"] = row.fb_ms;
    st.counters[labels[b] + "_bwd_fwd"] = row.bwd_fwd;
    if (b > 0) st.counters[labels[b] + "_vs_libtorch"] = row.vs_libtorch;
    st.counters[labels[b] + "_fwd_allocs"] = row.fwd_allocs;
    st.counters[labels[b] + "_fb_allocs"] = row.fb_allocs;
    st.counters[labels[b] + "_fwd_faults"] = row.fwd_faults;
    st.counters[labels[b] + "_fb_faults"] = row.fb_faults;
    st.counters[labels[b] + "_fwd_kernel_ms"] = row.fwd_kernel_ms;
    st.counters[labels[b] + "_fb_kernel_ms"] = row.fb_kernel_ms;
    rows.push_back(row);
  }
  st.counters["rounds"] = static_cast<double>(rounds);
  results()[w.name] = rows;
}

// ---------------------------------------------------------------- --breakdown
// Where an ivy forward+backward step spends its time: a profiling observer, pushed around
// value_and_grad, charges the time since the previous primitive call to each primitive call
// it sees (so rule and tape work between two calls goes to the later one), by phase: `copy`
// (value_and_grad copying the primals, before the tape is pushed), `fwd` (the recorded
// forward: the tape is on the stack above the profiler), `bwd` (the backward pass: rules,
// fitting and accumulation). Time after the last call (releasing the tape) is `tail`.
class OpProfiler final : public ivy::DispatchObserver {
 public:
  using clock = std::chrono::steady_clock;
  struct Stat {
    long calls = 0;
    double s = 0;
  };
  std::map<std::string, std::map<std::string, Stat>> by_phase;  // phase -> op -> stat
  void start() {
    phase_ = "copy";
    last_ = clock::now();
  }
  void stop() { by_phase["tail"]["(release)"].s += std::chrono::duration<double>(clock::now() - last_).count(); }
  void on_dispatch(ivy::OpId op, std::span<const Array>, ivy::AttrsRef, std::span<const Array>) override {
    const auto now = clock::now();
    if (ivy::observer_depth() > 1) phase_ = "fwd";
    else if (std::string(phase_) == "fwd") phase_ = "bwd";
    Stat& st = by_phase[phase_][ivy::op_info(op).name];
    ++st.calls;
    st.s += std::chrono::duration<double>(now - last_).count();
    last_ = clock::now();  // the bookkeeping above is charged to no one
  }

 private:
  const char* phase_ = "copy";
  clock::time_point last_;
};

long g_last_faults = 0;  // minor page faults per call of the last median_ms
template <class F>
double median_ms(F&& f, int n) {
  std::vector<double> t;
  const long f0 = minor_faults();
  for (int i = 0; i < n; ++i) {
    const auto s = std::chrono::steady_clock::now();
    f();
    t.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - s).count());
  }
  g_last_faults = (minor_faults() - f0) / n;
  return median_of(t);
}

// The cost of a minor page fault on this machine: fresh anonymous pages (64 MB mapped,
// one byte written per 4 KB page, unmapped), the median of 9 per page.
void page_fault_cost() {
  constexpr std::size_t kBytes = std::size_t{64} << 20, kPage = 4096;
  std::vector<double> t;
  for (int rep = 0; rep < 9; ++rep) {
    void* m = mmap(nullptr, kBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) return;
    auto* p = static_cast<volatile char*>(m);
    const long f0 = minor_faults();
    const auto s = std::chrono::steady_clock::now();
    for (std::size_t i = 0; i < kBytes; i += kPage) p[i] = 1;
    const double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - s).count();
    const long faults = minor_faults() - f0;
    munmap(m, kBytes);
    t.push_back(us / static_cast<double>(std::max(1L, faults)));
  }
  std::printf("page faults: %.2f us per fresh 4 KB page (64 MB mapped and touched; 1,024 faults make 4 MB)\n",
              median_of(t));
}

void breakdown(const Workload& w, const std::vector<ivy::Backend>& backends) {
  const int n = w.name == "chain" ? 5 : 20;
  std::printf("\n== %s\n", w.name.c_str());
  {
    std::vector<at::Tensor> ta = torch_args(w);
    for (int i = 0; i < 2; ++i) torch_step(w, ta);
    const double fwd_nograd = median_ms(
        [&] {
          at::NoGradGuard g;
          benchmark::DoNotOptimize(w.torch_fn(ta));
        },
        n);
    const double fwd_graph = median_ms([&] { benchmark::DoNotOptimize(w.torch_fn(ta)); }, n);
    const double fb = median_ms([&] { benchmark::DoNotOptimize(torch_step(w, ta)); }, n);
    std::printf("libtorch: forward %.3f ms (no grad) / %.3f ms (recording the graph), forward+backward %.3f ms "
                "(%ld page faults), backward alone (fb - recording forward) %.3f ms\n",
                fwd_nograd, fwd_graph, fb, g_last_faults, fb - fwd_graph);
  }
  for (ivy::Backend b : backends) {
    std::vector<Array> xa = ivy_args(w, b);
    auto vg = ivy::value_and_grad(ivy::MultiFn(w.ivy_fn), argnums(w));
    for (int i = 0; i < 2; ++i) vg(xa);
    const double fwd = median_ms([&] { benchmark::DoNotOptimize(w.ivy_fn(xa)); }, n);
    const double fb = median_ms([&] { benchmark::DoNotOptimize(vg(xa)); }, n);
    const long fb_faults = g_last_faults;
    // the backward alone: one recorded tape, its pullback timed (vjp keeps the tape)
    std::vector<Array> wrt(xa.begin(), xa.begin() + static_cast<std::ptrdiff_t>(w.nparams));
    ivy::ArraysFn f = [&](const std::vector<Array>& ps) {
      std::vector<Array> all = xa;
      for (std::size_t i = 0; i < ps.size(); ++i) all[i] = ps[i];
      return std::vector<Array>{w.ivy_fn(all)};
    };
    const double rec = median_ms([&] { benchmark::DoNotOptimize(ivy::vjp(f, wrt)); }, n);
    ivy::VjpResult r = ivy::vjp(f, wrt);
    const std::vector<Array> seed = {ivy::ones_like(r.outputs[0])};
    const double bwd = median_ms([&] { benchmark::DoNotOptimize(r.vjp_fn(seed)); }, n);
    std::printf("ivy on %s: forward %.3f ms, recorded forward (vjp) %.3f ms, backward alone (vjp_fn) %.3f ms, "
                "forward+backward %.3f ms (%ld page faults)\n",
                b.name(), fwd, rec, bwd, fb, fb_faults);
    OpProfiler prof;
    {
      ivy::ObserverScope scope(prof);
      for (int i = 0; i < n; ++i) {
        prof.start();
        auto res = vg(xa);
        prof.stop();
      }
    }
    for (const char* phase : {"copy", "fwd", "bwd", "tail"}) {
      auto& ops = prof.by_phase[phase];
      std::vector<std::pair<std::string, OpProfiler::Stat>> v(ops.begin(), ops.end());
      std::sort(v.begin(), v.end(), [](const auto& a, const auto& c) { return a.second.s > c.second.s; });
      double total = 0;
      for (auto& [op, st] : v) total += st.s;
      std::printf("  %-4s %8.3f ms:", phase, total * 1e3 / n);
      for (std::size_t i = 0; i < v.size() && i < 10; ++i)
        std::printf(" %s %.0fx %.3f ms%s", v[i].first.c_str(), static_cast<double>(v[i].second.calls) / n,
                    v[i].second.s * 1e3 / n, i + 1 < std::min<std::size_t>(v.size(), 10) ? ";" : "");
      std::printf("\n");
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  at::set_num_threads(1);  // side-by-side timings on one core
  bool want_breakdown = false;
  for (int i = 1; i < argc; ++i)
    if (std::string(argv[i]) == "--breakdown") {
      want_breakdown = true;
      for (int j = i; j + 1 < argc; ++j) argv[j] = argv[j + 1];
      --argc;
      break;
    }
  benchmark::Initialize(&argc, argv);
  // IVY_AUTODIFF_BACKENDS=torch or =xtensor: time ivy on that backend only (default both)
  const char* only = std::getenv("IVY_AUTODIFF_BACKENDS");
  std::vector<ivy::Backend> backends;
  for (const char* name : {"torch", "xtensor"})
    for (ivy::Backend b : ivy::available_backends())
      if (std::string(b.name()) == name && (!only || std::string(only).find(name) != std::string::npos))
        backends.push_back(b);
  // IVY_AUTODIFF_ROUNDS=<factor>: scales every workload's number of rounds (default 1)
  double scale = 1.0;
  if (const char* env = std::getenv("IVY_AUTODIFF_ROUNDS")) scale = std::max(0.01, std::atof(env));
  static std::vector<Workload> workloads = {make_mlp(), make_chain(), make_lse()};
  for (const Workload& w : workloads) check_gradients(w, backends);
  std::fflush(stdout);
  if (want_breakdown) {
    page_fault_cost();
    for (const Workload& w : workloads) breakdown(w, backends);
    return 0;
  }
  for (const Workload& w : workloads)
    benchmark::RegisterBenchmark(("autodiff/" + w.name).c_str(),
                                 [&w, backends](benchmark::State& st) { run_workload(st, w, backends); })
        ->Iterations(std::max<std::int64_t>(3, std::llround(w.rounds * scale)))
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  // the table of bench/README.md
  std::printf("\n| workload | backend | forward ms | fwd+bwd ms | backward / forward | fwd+bwd vs LibTorch | allocs fwd | allocs fwd+bwd | page faults fwd+bwd | kernel ms fwd+bwd |\n");
  std::printf("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  for (const Workload& w : workloads) {
    auto it = results().find(w.name);
    if (it == results().end()) continue;
    for (const Row& r : it->second)
      std::printf("| %s | %s | %.3f | %.3f | %.2f | %.3f | %.0f | %.0f | %.0f | %.1f |\n", w.name.c_str(),
                  r.backend.c_str(), r.fwd_ms, r.fb_ms, r.bwd_fwd, r.vs_libtorch, r.fwd_allocs, r.fb_allocs,
                  r.fb_faults, r.fb_kernel_ms);
  }
  return 0;
}

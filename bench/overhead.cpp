// The cost of the ivy layer (the paper's Fig. 6 / Table 3, in C++): every benchmarked
// function is timed three ways side by side in one run, on float32 CPU inputs of 1, 1e2,
// 1e4 and 1e6 elements (matrix functions on square shapes of about that many elements):
//   <backend>/native/<fn>/<n>  the library call on its own arrays (what the kernel calls)
//   <backend>/ivy/<fn>/<n>     ivy::fn on ivy::Array inputs through the dispatch
//   <backend>/ns/<fn>/<n>      the backend's framework-specific namespace (torch only)
// Each benchmark also reports `allocs`: heap allocations per call (counting allocator).
// bench/summarize.py turns the JSON output into the tables of bench/README.md.
#include <benchmark/benchmark.h>

#include <atomic>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <new>

#include "ivy/ivy.hpp"

#ifdef IVY_HAS_TORCH
#include <ATen/Parallel.h>

#include "ivy/backends/torch.hpp"
#endif
#ifdef IVY_HAS_XTENSOR
#include <Eigen/Core>
#include <xtensor/xarray.hpp>
#include <xtensor/xmath.hpp>
#include <xtensor/xmanipulation.hpp>
#include <xtensor/xsort.hpp>
#endif

// ---------------------------------------------------------------- counting allocator
static std::atomic<long> g_allocs{0};
void* operator new(std::size_t n) {
  g_allocs.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n) {
  g_allocs.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void* operator new(std::size_t n, std::align_val_t al) {
  g_allocs.fetch_add(1, std::memory_order_relaxed);
  std::size_t a = static_cast<std::size_t>(al);
  if (void* p = std::aligned_alloc(a, (n + a - 1) / a * a)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n, std::align_val_t al) { return operator new(n, al); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }

namespace {

const std::int64_t kSizes[] = {1, 100, 10000, 1000000};

// Runs `body` in the timing loop and records allocations per iteration.
template <class F>
void timed(benchmark::State& st, F&& body) {
  long before = g_allocs.load();
  for (auto _ : st) body();
  long after = g_allocs.load();
  st.counters["allocs"] = static_cast<double>(after - before) / static_cast<double>(st.iterations());
}

void add(const std::string& name, std::function<void(benchmark::State&)> f) {
  benchmark::RegisterBenchmark(name.c_str(), [f](benchmark::State& st) { f(st); })->Unit(benchmark::kNanosecond);
}

std::int64_t side(std::int64_t n) { return std::max<std::int64_t>(1, static_cast<std::int64_t>(std::llround(std::sqrt(static_cast<double>(n))))); }

// ---------------------------------------------------------------- ivy-side cases
using IvyUnary = ivy::Array (*)(const ivy::Array&);
using IvyBinary = ivy::Array (*)(const ivy::Array&, const ivy::Array&);

#define UNARY_LIST(X)                                                                                          \
  X(abs) X(acos) X(asin) X(atan) X(ceil) X(cos) X(cosh) X(exp) X(expm1) X(floor) X(log) X(log1p) X(log2)      \
  X(log10) X(negative) X(round) X(sign) X(sin) X(sinh) X(sqrt) X(square) X(tan) X(tanh) X(trunc) X(reciprocal) \
  X(isnan) X(isfinite)
#define BINARY_LIST(X) \
  X(add) X(subtract) X(multiply) X(divide) X(maximum) X(minimum) X(pow) X(atan2) X(hypot) X(equal) X(less) X(greater)

#ifdef IVY_HAS_TORCH
at::Tensor trand(std::int64_t n) { return at::rand({n}, at::kFloat).add(0.5); }
void register_torch() {
  auto reg_unary = [](const char* fn, at::Tensor (*native)(const at::Tensor&), at::Tensor (*ns)(const at::Tensor&),
                      IvyUnary iv) {
    for (auto n : kSizes) {
      std::string sfx = std::string(fn) + "/" + std::to_string(n);
      add("torch/native/" + sfx, [n, native](benchmark::State& st) {
        at::Tensor t = trand(n);
        timed(st, [&] { benchmark::DoNotOptimize(native(t)); });
      });
      add("torch/ns/" + sfx, [n, ns](benchmark::State& st) {
        at::Tensor t = trand(n);
        timed(st, [&] { benchmark::DoNotOptimize(ns(t)); });
      });
      add("torch/ivy/" + sfx, [n, iv](benchmark::State& st) {
        ivy::Array x = ivy::torch::wrap(trand(n));
        timed(st, [&] { benchmark::DoNotOptimize(iv(x)); });
      });
    }
  };
  auto reg_binary = [](const char* fn, at::Tensor (*native)(const at::Tensor&, const at::Tensor&),
                       at::Tensor (*ns)(const at::Tensor&, const at::Tensor&), IvyBinary iv) {
    for (auto n : kSizes) {
      std::string sfx = std::string(fn) + "/" + std::to_string(n);
      add("torch/native/" + sfx, [n, native](benchmark::State& st) {
        at::Tensor a = trand(n), b = trand(n);
        timed(st, [&] { benchmark::DoNotOptimize(native(a, b)); });
      });
      add("torch/ns/" + sfx, [n, ns](benchmark::State& st) {
        at::Tensor a = trand(n), b = trand(n);
        timed(st, [&] { benchmark::DoNotOptimize(ns(a, b)); });
      });
      add("torch/ivy/" + sfx, [n, iv](benchmark::State& st) {
        ivy::Array a = ivy::torch::wrap(trand(n)), b = ivy::torch::wrap(trand(n));
        timed(st, [&] { benchmark::DoNotOptimize(iv(a, b)); });
      });
    }
  };
  // the native calls, exactly what the kernels call
#define T_UNARY(name, expr) \
  reg_unary(#name, [](const at::Tensor& x) { return expr; }, &ivy::torch::name, [](const ivy::Array& x) { return ivy::name(x); });
  T_UNARY(abs, at::abs(x)) T_UNARY(acos, at::acos(x)) T_UNARY(asin, at::asin(x)) T_UNARY(atan, at::atan(x))
  T_UNARY(ceil, at::ceil(x)) T_UNARY(cos, at::cos(x)) T_UNARY(cosh, at::cosh(x)) T_UNARY(exp, at::exp(x))
  T_UNARY(expm1, at::expm1(x)) T_UNARY(floor, at::floor(x)) T_UNARY(log, at::log(x)) T_UNARY(log1p, at::log1p(x))
  T_UNARY(log2, at::log2(x)) T_UNARY(log10, at::log10(x)) T_UNARY(negative, at::neg(x)) T_UNARY(round, at::round(x))
  T_UNARY(sign, at::where(at::isnan(x), x, at::sign(x))) T_UNARY(sin, at::sin(x)) T_UNARY(sinh, at::sinh(x))
  T_UNARY(sqrt, at::sqrt(x)) T_UNARY(square, at::square(x)) T_UNARY(tan, at::tan(x)) T_UNARY(tanh, at::tanh(x))
  T_UNARY(trunc, at::trunc(x)) T_UNARY(reciprocal, at::reciprocal(x)) T_UNARY(isnan, at::isnan(x))
  T_UNARY(isfinite, at::isfinite(x))
#undef T_UNARY
#define T_BINARY(name, expr)                                                                          \
  reg_binary(#name, [](const at::Tensor& x1, const at::Tensor& x2) { return expr; }, &ivy::torch::name, \
             [](const ivy::Array& a, const ivy::Array& b) { return ivy::name(a, b); });
  T_BINARY(add, at::add(x1, x2)) T_BINARY(subtract, at::sub(x1, x2)) T_BINARY(multiply, at::mul(x1, x2))
  T_BINARY(divide, at::div(x1, x2)) T_BINARY(maximum, at::maximum(x1, x2)) T_BINARY(minimum, at::minimum(x1, x2))
  T_BINARY(pow, at::pow(x1, x2)) T_BINARY(atan2, at::atan2(x1, x2)) T_BINARY(hypot, at::hypot(x1, x2))
  T_BINARY(equal, at::eq(x1, x2)) T_BINARY(less, at::lt(x1, x2)) T_BINARY(greater, at::gt(x1, x2))
  T_BINARY(matmul, at::matmul(x1, x2))
#undef T_BINARY
  // reductions and structure
  auto reg = [](const char* fn, std::function<void(const at::Tensor&)> native, std::function<void(const ivy::Array&)> iv,
                bool square) {
    for (auto n : kSizes) {
      std::string sfx = std::string(fn) + "/" + std::to_string(n);
      auto make = [n, square] { return square ? at::rand({side(n), side(n)}) : trand(n); };
      add("torch/native/" + sfx, [make, native](benchmark::State& st) {
        at::Tensor t = make();
        timed(st, [&] { native(t); });
      });
      add("torch/ivy/" + sfx, [make, iv](benchmark::State& st) {
        ivy::Array x = ivy::torch::wrap(make());
        timed(st, [&] { iv(x); });
      });
    }
  };
  reg("sum", [](auto& t) { benchmark::DoNotOptimize(at::sum(t, {0}, false)); }, [](auto& x) { benchmark::DoNotOptimize(ivy::sum(x)); }, false);
  reg("mean", [](auto& t) { benchmark::DoNotOptimize(at::mean(t, {0}, false)); }, [](auto& x) { benchmark::DoNotOptimize(ivy::mean(x)); }, false);
  reg("max", [](auto& t) { benchmark::DoNotOptimize(at::amax(t, {0}, false)); }, [](auto& x) { benchmark::DoNotOptimize(ivy::max(x)); }, false);
  reg("min", [](auto& t) { benchmark::DoNotOptimize(at::amin(t, {0}, false)); }, [](auto& x) { benchmark::DoNotOptimize(ivy::min(x)); }, false);
  reg("permute_dims", [](auto& t) { benchmark::DoNotOptimize(t.permute({1, 0})); },
      [](auto& x) { benchmark::DoNotOptimize(ivy::permute_dims(x, {1, 0})); }, true);
  reg("reshape", [](auto& t) { benchmark::DoNotOptimize(t.reshape({-1})); },
      [](auto& x) { benchmark::DoNotOptimize(ivy::reshape(x, {-1})); }, true);
  reg("flip", [](auto& t) { benchmark::DoNotOptimize(at::flip(t, {0})); }, [](auto& x) { benchmark::DoNotOptimize(ivy::flip(x, 0)); }, true);
  reg("cumulative_sum", [](auto& t) { benchmark::DoNotOptimize(at::cumsum(t, 0)); },
      [](auto& x) { benchmark::DoNotOptimize(ivy::cumulative_sum(x)); }, false);
}
#endif

#ifdef IVY_HAS_XTENSOR
using XA = xt::xarray<float>;
XA xrand(std::int64_t n) {
  XA a = xt::xarray<float>::from_shape({static_cast<std::size_t>(n)});
  for (std::int64_t i = 0; i < n; ++i) a(i) = 0.5f + static_cast<float>((i * 7919) % 1000) / 1000.0f;
  return a;
}
ivy::Array to_ivy(const XA& a) {
  return ivy::asarray(static_cast<const void*>(a.data()), ivy::float32, ivy::Shape{static_cast<std::int64_t>(a.size())},
                      std::nullopt, {}, "xtensor");
}
void register_xtensor() {
  auto reg = [](const char* fn, std::function<void(const XA&, const XA&)> native,
                std::function<void(const ivy::Array&, const ivy::Array&)> iv, bool square) {
    for (auto n : kSizes) {
      std::string sfx = std::string(fn) + "/" + std::to_string(n);
      std::int64_t m = square ? side(n) * side(n) : n;
      add("xtensor/native/" + sfx, [m, native, square, n](benchmark::State& st) {
        XA a = xrand(m), b = xrand(m);
        if (square) {
          a.reshape({static_cast<std::size_t>(side(n)), static_cast<std::size_t>(side(n))});
          b.reshape(a.shape());
        }
        timed(st, [&] { native(a, b); });
      });
      add("xtensor/ivy/" + sfx, [m, iv, square, n](benchmark::State& st) {
        ivy::Array a = to_ivy(xrand(m)), b = to_ivy(xrand(m));
        if (square) {
          a = ivy::reshape(a, {side(n), side(n)});
          b = ivy::reshape(b, {side(n), side(n)});
        }
        timed(st, [&] { iv(a, b); });
      });
    }
  };
  // Native: the xtensor expression each kernel evaluates, into a new array.
#define X_UNARY(name, expr) \
  reg(#name, [](const XA& a, const XA&) { XA r = expr; benchmark::DoNotOptimize(r.data()); }, \
      [](const ivy::Array& x, const ivy::Array&) { benchmark::DoNotOptimize(ivy::name(x)); }, false);
  X_UNARY(abs, xt::abs(a)) X_UNARY(acos, xt::acos(a)) X_UNARY(asin, xt::asin(a)) X_UNARY(atan, xt::atan(a))
  X_UNARY(ceil, xt::ceil(a)) X_UNARY(cos, xt::cos(a)) X_UNARY(cosh, xt::cosh(a)) X_UNARY(exp, xt::exp(a))
  X_UNARY(expm1, xt::expm1(a)) X_UNARY(floor, xt::floor(a)) X_UNARY(log, xt::log(a)) X_UNARY(log1p, xt::log1p(a))
  X_UNARY(log2, xt::log2(a)) X_UNARY(log10, xt::log10(a)) X_UNARY(negative, -a) X_UNARY(round, xt::nearbyint(a))
  X_UNARY(sign, xt::sign(a)) X_UNARY(sin, xt::sin(a)) X_UNARY(sinh, xt::sinh(a)) X_UNARY(sqrt, xt::sqrt(a))
  X_UNARY(square, xt::square(a)) X_UNARY(tan, xt::tan(a)) X_UNARY(tanh, xt::tanh(a)) X_UNARY(trunc, xt::trunc(a))
  X_UNARY(reciprocal, 1.0f / a)
#undef X_UNARY
#define X_UNARY_B(name, expr)                                                                             \
  reg(#name, [](const XA& a, const XA&) { xt::xarray<bool> r = expr; benchmark::DoNotOptimize(r.data()); }, \
      [](const ivy::Array& x, const ivy::Array&) { benchmark::DoNotOptimize(ivy::name(x)); }, false);
  X_UNARY_B(isnan, xt::isnan(a)) X_UNARY_B(isfinite, xt::isfinite(a))
#undef X_UNARY_B
#define X_BINARY(name, expr, R)                                                                      \
  reg(#name, [](const XA& a, const XA& b) { xt::xarray<R> r = expr; benchmark::DoNotOptimize(r.data()); }, \
      [](const ivy::Array& x, const ivy::Array& y) { benchmark::DoNotOptimize(ivy::name(x, y)); }, false);
  X_BINARY(add, a + b, float) X_BINARY(subtract, a - b, float) X_BINARY(multiply, a * b, float)
  X_BINARY(divide, a / b, float) X_BINARY(maximum, xt::maximum(a, b), float) X_BINARY(minimum, xt::minimum(a, b), float)
  X_BINARY(pow, xt::pow(a, b), float) X_BINARY(atan2, xt::atan2(a, b), float) X_BINARY(hypot, xt::hypot(a, b), float)
  X_BINARY(equal, xt::equal(a, b), bool) X_BINARY(less, a < b, bool) X_BINARY(greater, a > b, bool)
#undef X_BINARY
  using RowMat = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  reg("matmul",
      [](const XA& a, const XA& b) {
        auto k = static_cast<Eigen::Index>(a.shape()[0]);
        XA r = XA::from_shape(a.shape());
        Eigen::Map<RowMat>(r.data(), k, k).noalias() =
            Eigen::Map<const RowMat>(a.data(), k, k) * Eigen::Map<const RowMat>(b.data(), k, k);
        benchmark::DoNotOptimize(r.data());
      },
      [](const ivy::Array& x, const ivy::Array& y) { benchmark::DoNotOptimize(ivy::matmul(x, y)); }, true);
  reg("sum", [](const XA& a, const XA&) { XA r = xt::sum(a, {0}); benchmark::DoNotOptimize(r.data()); },
      [](const ivy::Array& x, const ivy::Array&) { benchmark::DoNotOptimize(ivy::sum(x)); }, false);
  reg("mean", [](const XA& a, const XA&) { XA r = xt::mean(a, {0}); benchmark::DoNotOptimize(r.data()); },
      [](const ivy::Array& x, const ivy::Array&) { benchmark::DoNotOptimize(ivy::mean(x)); }, false);
  reg("max", [](const XA& a, const XA&) { XA r = xt::amax(a, {0}); benchmark::DoNotOptimize(r.data()); },
      [](const ivy::Array& x, const ivy::Array&) { benchmark::DoNotOptimize(ivy::max(x)); }, false);
  reg("permute_dims", [](const XA& a, const XA&) { XA r = xt::transpose(a); benchmark::DoNotOptimize(r.data()); },
      [](const ivy::Array& x, const ivy::Array&) { benchmark::DoNotOptimize(ivy::permute_dims(x, {1, 0})); }, true);
  reg("flip", [](const XA& a, const XA&) { XA r = xt::flip(a, 0); benchmark::DoNotOptimize(r.data()); },
      [](const ivy::Array& x, const ivy::Array&) { benchmark::DoNotOptimize(ivy::flip(x, 0)); }, true);
  reg("cumulative_sum", [](const XA& a, const XA&) { XA r = xt::cumsum(a, 0); benchmark::DoNotOptimize(r.data()); },
      [](const ivy::Array& x, const ivy::Array&) { benchmark::DoNotOptimize(ivy::cumulative_sum(x)); }, false);
}
#endif

}  // namespace

int main(int argc, char** argv) {
#ifdef IVY_HAS_TORCH
  at::set_num_threads(1);  // side-by-side timings on one core, no thread-pool noise
  register_torch();
#endif
#ifdef IVY_HAS_XTENSOR
  register_xtensor();
#endif
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

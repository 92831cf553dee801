// layer_probe: one xtensor function called `reps` times through ivy and natively, each in
// its own non-inlined function (probe_ivy, probe_native), for a cache-simulating profiler
// to compare the two per call. bench/layer_probe.sh runs it under callgrind with the
// machine's L1/L2 sizes and prints instructions and L1 misses per call of each (and, with
// --tree, where the ivy call's instructions go).
//
// The native side of each function is the one bench/overhead times (the same expression,
// the same inputs' kinds); matrices are side x side with side = round(sqrt(elements)).
//
//   layer_probe <function> <elements> [reps]     (layer_probe --list: the functions)
#include <benchmark/benchmark.h>

#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unsupported/Eigen/FFT>
#include <xtensor/xarray.hpp>
#include <xtensor/xmanipulation.hpp>
#include <xtensor/xmath.hpp>
#include <xtensor/xset_operation.hpp>
#include <xtensor/xsort.hpp>

#include "ivy/backends/xtensor.hpp"
#include "ivy/ivy.hpp"
#include "xt_linalg_native.hpp"

namespace {
using XA = xt::xarray<float>;
using XZ = xt::xarray<std::complex<float>>;
using XL = xt::xarray<std::int64_t>;
namespace la = ivybench::xtla;

// The inputs, natively and as borrowed ivy arrays over the same memory.
struct In {
  long n = 0;
  std::size_t s = 0;
  XA a, b, zeros, sparse, dup, gen, spd, sq;
  XZ z;
  XL l;
};
struct IvyIn {
  ivy::Array a, b, zeros, sparse, dup, gen, spd, sq, z, l;
  long n = 0;
};

#define LAYER_PROBE_FNS(X)                                                                                           \
  X(roll) X(add) X(square) X(abs) X(flip) X(any) X(all) X(argmin) X(nonzero) X(unique_all) X(take_along_axis) X(det) \
      X(slogdet) X(svdvals) X(eigh) X(eigvalsh) X(fft) X(rfft) X(irfft) X(pow)
enum class Fn {
#define LAYER_PROBE_ENUM(f) f,
  LAYER_PROBE_FNS(LAYER_PROBE_ENUM)
#undef LAYER_PROBE_ENUM
};
constexpr const char* kNames[] = {
#define LAYER_PROBE_NAME(f) #f,
    LAYER_PROBE_FNS(LAYER_PROBE_NAME)
#undef LAYER_PROBE_NAME
};

// Results go to benchmark::DoNotOptimize, as in bench/overhead, so that no call is optimized away.
template <class T>
void sink(T&& v) {
  benchmark::DoNotOptimize(v);
}

// Each result is made as the benchmark makes it (a new array initialized by the call).
[[gnu::noinline]] void probe_ivy(Fn f, const IvyIn& x) {
  switch (f) {
#define IVY_PROBE(fn, call) \
  case Fn::fn:              \
    sink(call);             \
    break;
    IVY_PROBE(roll, ivy::roll(x.a, 3))
    IVY_PROBE(add, ivy::add(x.a, x.b))
    IVY_PROBE(square, ivy::square(x.a))
    IVY_PROBE(abs, ivy::abs(x.a))
    IVY_PROBE(flip, ivy::flip(x.a))
    IVY_PROBE(any, ivy::any(x.zeros))
    IVY_PROBE(all, ivy::all(x.a))
    IVY_PROBE(argmin, ivy::argmin(x.a))
    IVY_PROBE(nonzero, ivy::nonzero(x.sparse))
    IVY_PROBE(unique_all, ivy::unique_all(x.dup))
    IVY_PROBE(take_along_axis, ivy::take_along_axis(x.sq, x.l, 1))
    IVY_PROBE(det, ivy::linalg::det(x.gen))
    IVY_PROBE(slogdet, ivy::linalg::slogdet(x.gen))
    IVY_PROBE(svdvals, ivy::linalg::svdvals(x.gen))
    IVY_PROBE(eigh, ivy::linalg::eigh(x.spd))
    IVY_PROBE(eigvalsh, ivy::linalg::eigvalsh(x.spd))
    IVY_PROBE(fft, ivy::fft::fft(x.a))
    IVY_PROBE(rfft, ivy::fft::rfft(x.a))
    IVY_PROBE(irfft, ivy::fft::irfft(x.z, x.n))
    IVY_PROBE(pow, ivy::pow(x.a, x.b))
#undef IVY_PROBE
  }
}
[[gnu::noinline]] void probe_native(Fn f, const In& t) {
  switch (f) {
#define NATIVE_PROBE(fn, R, expr) \
  case Fn::fn: {                  \
    R r = expr;                   \
    sink(r.data());               \
    break;                        \
  }
    NATIVE_PROBE(roll, XA, xt::roll(t.a, 3))
    NATIVE_PROBE(add, XA, t.a + t.b)
    NATIVE_PROBE(square, XA, xt::square(t.a))
    NATIVE_PROBE(abs, XA, xt::abs(t.a))
    NATIVE_PROBE(flip, XA, xt::flip(t.a, 0))
    NATIVE_PROBE(argmin, auto, xt::argmin(t.a))
    NATIVE_PROBE(unique_all, auto, xt::unique(t.dup))
    NATIVE_PROBE(pow, XA, xt::pow(t.a, t.b))
#undef NATIVE_PROBE
    case Fn::any:
      sink(xt::any(t.zeros));
      break;
    case Fn::all:
      sink(xt::all(t.a));
      break;
    case Fn::nonzero:
      sink(xt::nonzero(t.sparse));
      break;
    case Fn::take_along_axis: {  // xtensor has none: the loop bench/overhead times
      XA r = XA::from_shape(t.sq.shape());
      for (std::size_t p = 0; p < t.s; ++p)
        for (std::size_t q = 0; q < t.s; ++q) r(p, q) = t.sq(p, static_cast<std::size_t>(t.l(p, q)));
      sink(r.data());
      break;
    }
    case Fn::det: la::det(t.gen); break;
    case Fn::slogdet: la::slogdet(t.gen); break;
    case Fn::svdvals: la::svdvals(t.gen); break;
    case Fn::eigh: la::eigh(t.spd); break;
    case Fn::eigvalsh: la::eigvalsh(t.spd); break;
    case Fn::fft: {  // Eigen::FFT (kissfft); a length-1 transform is the identity, as in the kernel
      XZ r = XZ::from_shape({static_cast<std::size_t>(t.n)});
      if (t.n == 1) {
        r(0) = t.a(0);
      } else {
        XZ c = xt::cast<std::complex<float>>(t.a);
        Eigen::FFT<float> fft;
        fft.fwd(r.data(), c.data(), t.n);
      }
      sink(r.data());
      break;
    }
    case Fn::rfft: {
      XZ r = XZ::from_shape({static_cast<std::size_t>(t.n / 2 + 1)});
      if (t.n == 1) {
        r(0) = t.a(0);
      } else {
        Eigen::FFT<float> fft;
        fft.SetFlag(Eigen::FFT<float>::HalfSpectrum);
        fft.fwd(r.data(), t.a.data(), t.n);
      }
      sink(r.data());
      break;
    }
    case Fn::irfft: {
      XA r = XA::from_shape({static_cast<std::size_t>(t.n)});
      if (t.n == 1) {
        r(0) = t.z(0).real();
      } else {
        Eigen::FFT<float> fft;
        fft.inv(r.data(), t.z.data(), t.n);
      }
      sink(r.data());
      break;
    }
  }
}

template <class T>
ivy::Array wrap(const xt::xarray<T>& v) {
  return ivy::xtensor::wrap(v);
}
}  // namespace

int main(int argc, char** argv) {
  if (argc == 2 && std::string(argv[1]) == "--list") {
    for (const char* name : kNames) std::printf("%s\n", name);
    return 0;
  }
  if (argc < 3) {
    std::fprintf(stderr, "usage: layer_probe <function> <elements> [reps]   (layer_probe --list: the functions)\n");
    return 2;
  }
  const std::string name = argv[1];
  int k = 0;
  while (k < static_cast<int>(std::size(kNames)) && name != kNames[k]) ++k;
  if (k == static_cast<int>(std::size(kNames))) {
    std::fprintf(stderr, "layer_probe: unknown function '%s' (layer_probe --list: the functions)\n", argv[1]);
    return 2;
  }
  const Fn f = static_cast<Fn>(k);
  const long n = std::atol(argv[2]), reps = argc > 3 ? std::atol(argv[3]) : 1000;
  if (n < 1 || reps < 1) {
    std::fprintf(stderr, "layer_probe: elements and reps must be positive\n");
    return 2;
  }
  In t;
  t.n = n;
  t.s = static_cast<std::size_t>(std::max(1.0, std::round(std::sqrt(static_cast<double>(n)))));
  const std::size_t un = static_cast<std::size_t>(n), s = t.s;
  t.a = XA::from_shape({un}), t.b = XA::from_shape({un}), t.zeros = xt::zeros<float>({un});
  t.sparse = XA::from_shape({un}), t.dup = XA::from_shape({un});
  for (std::size_t i = 0; i < un; ++i) {
    t.a(i) = 0.5f + static_cast<float>(i % 97) / 97.f, t.b(i) = 1.5f - static_cast<float>(i % 89) / 89.f;
    t.sparse(i) = static_cast<float>((i * 7919) % 3 == 0), t.dup(i) = static_cast<float>((i * 7919) % 100);
  }
  t.sq = XA::from_shape({s, s}), t.gen = XA::from_shape({s, s}), t.spd = XA::from_shape({s, s}), t.l = XL::from_shape({s, s});
  for (std::size_t p = 0; p < s; ++p)
    for (std::size_t q = 0; q < s; ++q) {
      const float v = 0.5f + static_cast<float>((p * 31 + q * 17) % 23) / 23.f;
      t.sq(p, q) = v, t.gen(p, q) = v + (p == q ? static_cast<float>(s) : 0.f);
      t.spd(p, q) = p == q ? static_cast<float>(s) + 1.f : 1.f / static_cast<float>(1 + p + q);
      t.l(p, q) = static_cast<std::int64_t>((p + 3 * q) % s);
    }
  t.z = XZ::from_shape({un / 2 + 1});
  for (std::size_t i = 0; i < t.z.size(); ++i) t.z(i) = {std::cos(static_cast<float>(i)), std::sin(static_cast<float>(i))};
  const IvyIn x{wrap(t.a), wrap(t.b), wrap(t.zeros), wrap(t.sparse), wrap(t.dup), wrap(t.gen), wrap(t.spd), wrap(t.sq), wrap(t.z),
                wrap(t.l), n};
  for (long r = 0; r < reps; ++r) {  // alternating, as the benchmark's blocks do
    probe_ivy(f, x);
    probe_native(f, t);
  }
  return 0;
}

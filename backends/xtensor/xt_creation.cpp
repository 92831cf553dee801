// xtensor backend: the creation primitives (full, arange, linspace, eye, the random draws,
// tril and triu).
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>
#include <limits>
#include <mutex>
#include <random>
#include <string>

#include "cpu_loops.hpp"
#include "xt_common.hpp"

namespace ivy::xtensor_backend {

namespace {

// A scalar attribute as a value of T (a complex value's real part for a real T).
template <class T>
T scalar_as(const Scalar& s) {
  if constexpr (std::is_same_v<T, bool>) return s.b;
  else if constexpr (is_cplx_v<T>) return T(static_cast<real_t<T>>(s.c.real()), static_cast<real_t<T>>(s.c.imag()));
  else if constexpr (std::is_floating_point_v<T>) return static_cast<T>(s.kind == Scalar::Int ? static_cast<double>(s.i) : s.d);
  else return static_cast<T>(s.kind == Scalar::Int || s.kind == Scalar::Bool ? s.i : static_cast<std::int64_t>(s.d));
}

}  // namespace

XT_KERNEL(full) {
  DType d = spec[0].dtype;
  out[0] = alloc(spec[0].shape, d);
  visit(d, [&](auto tag) {
    using T = typename decltype(tag)::type;
    // Short arrays with a plain loop; longer ones by the value's bytes: a zero (+0 of every
    // type) or a one-byte type is a memset, others fill with the AVX2 loop where the CPU has it.
    const T v = scalar_as<T>(a.get<attr::full>().value);
    if (out[0].size() <= 16) {
      std::fill_n(ptr<T>(out[0]), out[0].size(), v);
      return;
    }
    unsigned char bytes[sizeof(T)];
    std::memcpy(bytes, &v, sizeof(T));
    const bool zero = std::all_of(bytes, bytes + sizeof(T), [](unsigned char c) { return c == 0; });
    const std::int64_t n = out[0].size();
    if (zero || sizeof(T) == 1) std::memset(raw(out[0]), bytes[0], static_cast<std::size_t>(n) * sizeof(T));
    else cpu::loops::fill_best(ptr<T>(out[0]), n, v);
  });
}
XT_KERNEL(arange) {
  DType d = spec[0].dtype;
  std::int64_t len = spec[0].shape[0];
  out[0] = alloc(spec[0].shape, d);
  const auto& at = a.get<attr::arange>();
  bool ints = at.start.kind == Scalar::Int && at.stop.kind == Scalar::Int && at.step.kind == Scalar::Int;
  visit(d, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* p = ptr<T>(out[0]);
    if (ints) {
      for (std::int64_t i = 0; i < len; ++i) p[i] = static_cast<T>(at.start.i + i * at.step.i);
    } else {
      // start + i*step in float64, rounded once to T (NumPy's values; accumulating the step
      // in T would drift)
      const double s0 = at.start.d, step = at.step.d;
      if constexpr (is_cplx_v<T>) {
        for (std::int64_t i = 0; i < len; ++i) p[i] = T(static_cast<real_t<T>>(s0 + static_cast<double>(i) * step));
      } else {
        cpu::loops::affine_best(p, len, s0, step);
      }
    }
  });
}
XT_KERNEL(linspace) {
  DType d = spec[0].dtype;
  const auto& at = a.get<attr::linspace>();
  const std::int64_t num = at.num;
  const bool endpoint = at.endpoint;
  out[0] = alloc(spec[0].shape, d);
  visit(d, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* p = ptr<T>(out[0]);
    std::complex<double> s = at.start.c, e = at.stop.c;
    double div = endpoint ? static_cast<double>(num - 1) : static_cast<double>(num);
    if constexpr (!is_cplx_v<T> && !std::is_same_v<T, bool>) {  // real endpoints: real arithmetic
      const double s0 = s.real(), step = div > 0 ? (e.real() - s.real()) / div : 0.0;
      cpu::loops::affine_best(p, num, s0, step);
      if (endpoint && num > 1) p[num - 1] = static_cast<T>(e.real());
      return;
    }
    for (std::int64_t i = 0; i < num; ++i) {
      std::complex<double> v = (endpoint && num > 1 && i == num - 1) ? e : (div > 0 ? s + (e - s) * (static_cast<double>(i) / div) : s);
      if constexpr (is_cplx_v<T>) p[i] = T(static_cast<real_t<T>>(v.real()), static_cast<real_t<T>>(v.imag()));
      else if constexpr (std::is_same_v<T, bool>) p[i] = v.real() != 0;
      else p[i] = static_cast<T>(v.real());
    }
  });
}
XT_KERNEL(eye) {
  DType d = spec[0].dtype;
  out[0] = alloc(spec[0].shape, d);
  visit(d, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* p = ptr<T>(out[0]);
    const auto& at = a.get<attr::eye>();
    const std::int64_t rows = at.n_rows, cols = at.n_cols, k = at.k;
    for (std::int64_t i = 0; i < rows; ++i)
      for (std::int64_t j = 0; j < cols; ++j) p[i * cols + j] = (j - i == k) ? T(1) : T(0);
  });
}

namespace {

template <class T, class Dist>
[[gnu::always_inline]] inline void random_loop(T* p, std::int64_t n, std::mt19937_64& g, const Dist& dist) {
  for (std::int64_t i = 0; i < n; ++i) {
    auto v = dist(g);
    if constexpr (is_cplx_v<T>) p[i] = T(static_cast<real_t<T>>(v), 0);
    else p[i] = static_cast<T>(v);
  }
}
#if IVY_AVX2
// The same loop with everything it calls inlined (flatten) and built for AVX2: the engine's
// refill of its 312 words (std::mt19937_64::_M_gen_rand, a libstdc++ template) vectorizes
// there, and its select on each word's low bit is branch-free; built for the baseline ISA it
// branches on random bits, several times slower a draw. The same integer operations, so
// the same draws; AVX2 without FMA, so the float operations round as the baseline's.
template <class T, class Dist>
[[gnu::flatten]] IVY_AVX2_FN void random_loop_avx2(T* p, std::int64_t n, std::mt19937_64& g, const Dist& dist) {
  random_loop(p, n, g, dist);
}
#endif
template <class Dist>
void fill_random(Array& out, Dist dist) {
  std::lock_guard<std::mutex> lock(rng_mutex());
  std::mt19937_64& g = rng();
  visit(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* p = ptr<T>(out);
    const std::int64_t n = out.size();
#if IVY_AVX2
    if (cpu::isa::kAvx2) return random_loop_avx2(p, n, g, dist);
#endif
    random_loop(p, n, g, dist);
  });
}
// 53 random bits -> a double in [0, 1) (one draw of the 64-bit engine).
inline double unit(std::mt19937_64& g) { return static_cast<double>(g() >> 11) * 0x1.0p-53; }
// Standard normal variates by the ziggurat method (Marsaglia and Tsang, 2000) with 256
// layers of equal area v under f(x) = exp(-x^2/2), x >= 0: layer 0 is the rectangle
// [0, r] x [0, f(r)] plus the tail beyond r (together v; x[0] = v / f(r) is its virtual
// width), layer i >= 1 the rectangle [0, x[i]] x [f(x[i]), f(x[i+1])], x[256] = 0. One
// 64-bit draw picks the layer (8 bits), the sign (1 bit) and a point u * x[i] (53 bits);
// a point left of x[i+1] is under the curve (most draws), one in the wedge beyond
// it is accepted when a uniform height falls under f, and layer 0's points beyond r are
// replaced by a draw from the tail (Marsaglia's exponential rejection); a rejected point
// starts over. r is the known solution for 256 layers (the layers built from it end at 0:
// the top one's area is v to 7e-16); the table is computed here at first use.
struct Ziggurat {
  static constexpr int kLayers = 256;
  static constexpr double kR = 3.6541528853610088;
  double x[kLayers + 1];
  double f[kLayers + 1];
  Ziggurat() {
    auto fx = [](double t) { return std::exp(-0.5 * t * t); };
    const double v = kR * fx(kR) + std::sqrt(std::acos(-1.0) / 2) * std::erfc(kR / std::sqrt(2.0));
    x[0] = v / fx(kR);
    x[1] = kR;
    for (int i = 1; i < kLayers - 1; ++i) x[i + 1] = std::sqrt(-2.0 * std::log(v / x[i] + fx(x[i])));
    x[kLayers] = 0;
    for (int i = 0; i <= kLayers; ++i) f[i] = fx(x[i]);
    f[0] = 0;  // layer 0 starts at height 0 (unused: it has no wedge)
  }
  double operator()(std::mt19937_64& g) const {
    for (;;) {
      const std::uint64_t bits = g();
      const int i = static_cast<int>(bits & 0xFF);
      const bool neg = (bits >> 8) & 1;
      const double t = static_cast<double>(bits >> 11) * 0x1.0p-53 * x[i];
      if (t < x[i + 1]) return neg ? -t : t;
      if (i == 0) {
        double a, b;
        do {
          a = -std::log(1.0 - unit(g)) / kR;
          b = -std::log(1.0 - unit(g));
        } while (b + b < a * a);
        return neg ? -(kR + a) : kR + a;
      }
      if (f[i] + unit(g) * (f[i + 1] - f[i]) < std::exp(-0.5 * t * t)) return neg ? -t : t;
    }
  }
};
const Ziggurat& ziggurat() {
  static const Ziggurat z;
  return z;
}

}  // namespace

XT_KERNEL(random_uniform) {
  out[0] = alloc(spec[0].shape, spec[0].dtype);
  const auto& at = a.get<attr::random_uniform>();
  const double lo = at.low.d, hi = at.high.d;
  // The draw in float64 rounds to the result dtype, which can round it up to `high` (float32
  // [0, 1): 1 draw in 2^25): capped at the largest value of the dtype below `high` rounded to
  // the dtype (or at `low` rounded, when there is none), so that every value lies in
  // [low, high) as the dtype compares (rounding keeps draws at or above the rounded low).
  double top;
  if (spec[0].dtype == float32) {
    const float h = static_cast<float>(hi);
    top = std::max(std::nextafter(h, -std::numeric_limits<float>::infinity()), static_cast<float>(lo));
  } else {
    top = std::max(std::nextafter(hi, -std::numeric_limits<double>::infinity()), lo);
  }
  fill_random(out[0], [lo, hi, top](std::mt19937_64& g) { return std::min(lo + (hi - lo) * unit(g), top); });
}
XT_KERNEL(random_normal) {
  out[0] = alloc(spec[0].shape, spec[0].dtype);
  const Ziggurat& z = ziggurat();
  const auto& at = a.get<attr::random_normal>();
  const double mean = at.mean.d, sd = at.std.d;
  fill_random(out[0], [&z, mean, sd](std::mt19937_64& g) { return mean + sd * z(g); });
}
XT_KERNEL(randint) {
  const auto& at = a.get<attr::randint>();
  const std::int64_t low = at.low.i, high = at.high.i;
  if (high <= low)
    throw ValueError("[randint] high (" + std::to_string(high) + ") must be greater than low (" + std::to_string(low) + ")");
  out[0] = alloc(spec[0].shape, spec[0].dtype);
  std::uniform_int_distribution<std::int64_t> ud(low, high - 1);
  fill_random(out[0], [&ud](std::mt19937_64& g) { return ud(g); });
}

namespace {

void tri(const Array& x, Array& out, std::int64_t k, bool lower) {
  out = contiguous_copy(x);
  std::int64_t r = x.shape()[x.ndim() - 2], c = x.shape()[x.ndim() - 1];
  std::int64_t batch = r * c ? x.size() / (r * c) : 0;
  std::size_t sz = itemsize(x.dtype());
  auto* p = static_cast<unsigned char*>(raw(out));
  for (std::int64_t b = 0; b < batch; ++b)
    for (std::int64_t i = 0; i < r; ++i)
      for (std::int64_t j = 0; j < c; ++j) {
        bool keep = lower ? (j - i <= k) : (j - i >= k);
        if (!keep) std::memset(p + ((b * r + i) * c + j) * sz, 0, sz);
      }
}

}  // namespace

XT_KERNEL(tril) { tri(in[0], out[0], a.get<attr::triangle>().k, true); }
XT_KERNEL(triu) { tri(in[0], out[0], a.get<attr::triangle>().k, false); }

}  // namespace ivy::xtensor_backend

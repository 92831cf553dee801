// xtensor backend: creation, manipulation, indexing, searching, sorting and sets.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <random>
#include <tuple>

#include <xtensor/xoperation.hpp>

#include "cpu_loops.hpp"
#include "sort_kernels.hpp"
#include "strided_copy.hpp"
#include "xt_common.hpp"

namespace ivy::xtb {
namespace {

template <class T>
T scalar_as(const Scalar& s) {
  if constexpr (std::is_same_v<T, bool>) return s.b;
  else if constexpr (is_cplx_v<T>) return T(static_cast<real_t<T>>(s.c.real()), static_cast<real_t<T>>(s.c.imag()));
  else if constexpr (std::is_floating_point_v<T>) return static_cast<T>(s.kind == Scalar::Int ? static_cast<double>(s.i) : s.d);
  else return static_cast<T>(s.kind == Scalar::Int || s.kind == Scalar::Bool ? s.i : static_cast<std::int64_t>(s.d));
}

template <class T> bool nan_v(T v) {
  if constexpr (std::is_floating_point_v<T>) return std::isnan(v);
  else return false;
}
// Total order with NaN last (the standard's sorting rule).
template <class T> bool lt(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) return !std::isnan(a) && (std::isnan(b) || a < b);
  else return a < b;
}
template <class T> bool eq_v(T a, T b) { return a == b; }

// ---------------------------------------------------------------- creation
XT_KERNEL(full) {
  DType d = spec[0].dtype;
  out[0] = alloc(spec[0].shape, d);
  visit(d, [&](auto tag) {
    using T = typename decltype(tag)::type;
    // Short arrays with a plain loop; longer ones by the value's bytes: a zero (+0 of every
    // type) or a one-byte type is a memset, others fill with the AVX2 loop where the CPU has it.
    const T v = scalar_as<T>(a.s0);
    if (out[0].size() <= 16) {
      std::fill_n(ptr<T>(out[0]), out[0].size(), v);
      return;
    }
    unsigned char bytes[sizeof(T)];
    std::memcpy(bytes, &v, sizeof(T));
    const bool zero = std::all_of(bytes, bytes + sizeof(T), [](unsigned char c) { return c == 0; });
    const std::int64_t n = out[0].size();
    if (zero || sizeof(T) == 1) std::memset(raw(out[0]), bytes[0], static_cast<std::size_t>(n) * sizeof(T));
    else loops::fill_best(ptr<T>(out[0]), n, v);
  });
}
XT_KERNEL(arange) {
  DType d = spec[0].dtype;
  std::int64_t len = spec[0].shape[0];
  out[0] = alloc(spec[0].shape, d);
  bool ints = a.s0.kind == Scalar::Int && a.s1.kind == Scalar::Int && a.s2.kind == Scalar::Int;
  visit(d, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* p = ptr<T>(out[0]);
    if (ints) {
      for (std::int64_t i = 0; i < len; ++i) p[i] = static_cast<T>(a.s0.i + i * a.s2.i);
    } else {
      // start + i*step in float64, rounded once to T (NumPy's values; accumulating the step
      // in T would drift)
      const double s0 = a.s0.d, step = a.s2.d;
      if constexpr (is_cplx_v<T>) {
        for (std::int64_t i = 0; i < len; ++i) p[i] = T(static_cast<real_t<T>>(s0 + static_cast<double>(i) * step));
      } else {
        loops::affine_best(p, len, s0, step);
      }
    }
  });
}
XT_KERNEL(linspace) {
  DType d = spec[0].dtype;
  std::int64_t num = a.i0;
  out[0] = alloc(spec[0].shape, d);
  visit(d, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* p = ptr<T>(out[0]);
    std::complex<double> s = a.s0.c, e = a.s1.c;
    double div = a.b0 ? static_cast<double>(num - 1) : static_cast<double>(num);
    if constexpr (!is_cplx_v<T> && !std::is_same_v<T, bool>) {  // real endpoints: real arithmetic
      const double s0 = s.real(), step = div > 0 ? (e.real() - s.real()) / div : 0.0;
      loops::affine_best(p, num, s0, step);
      if (a.b0 && num > 1) p[num - 1] = static_cast<T>(e.real());
      return;
    }
    for (std::int64_t i = 0; i < num; ++i) {
      std::complex<double> v = (a.b0 && num > 1 && i == num - 1) ? e : (div > 0 ? s + (e - s) * (static_cast<double>(i) / div) : s);
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
    for (std::int64_t i = 0; i < a.i0; ++i)
      for (std::int64_t j = 0; j < a.i1; ++j) p[i * a.i1 + j] = (j - i == a.i2) ? T(1) : T(0);
  });
}
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
// branches on random bits: 4.7 ns a draw here against 1.2. The same integer operations, so
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
    if (isa::kAvx2) return random_loop_avx2(p, n, g, dist);
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
// a point left of x[i+1] is under the curve (98.5 % of draws), one in the wedge beyond
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
XT_KERNEL(random_uniform) {
  out[0] = alloc(spec[0].shape, spec[0].dtype);
  const double lo = a.s0.d, hi = a.s1.d;
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
  const double mean = a.s0.d, sd = a.s1.d;
  fill_random(out[0], [&z, mean, sd](std::mt19937_64& g) { return mean + sd * z(g); });
}
XT_KERNEL(randint) {
  if (a.s1.i <= a.s0.i)
    throw ValueError("[randint] high (" + std::to_string(a.s1.i) + ") must be greater than low (" + std::to_string(a.s0.i) + ")");
  out[0] = alloc(spec[0].shape, spec[0].dtype);
  std::uniform_int_distribution<std::int64_t> ud(a.s0.i, a.s1.i - 1);
  fill_random(out[0], [&ud](std::mt19937_64& g) { return ud(g); });
}
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
XT_KERNEL(tril) { tri(in[0], out[0], a.i0, true); }
XT_KERNEL(triu) { tri(in[0], out[0], a.i0, false); }
XT_KERNEL(astype) { out[0] = in[0].dtype() == spec[0].dtype ? contiguous_copy(in[0]) : cast(in[0], spec[0].dtype); }

// ---------------------------------------------------------------- manipulation
XT_KERNEL(reshape) { alias_into(out[0], in[0], spec[0].shape); }
XT_KERNEL(permute_dims) { out[0] = permute(in[0], a.axes); }
XT_KERNEL(broadcast_to) { out[0] = broadcast_to(in[0], a.ints); }
XT_KERNEL(flip) {  // a strided copy walking the flipped axes backwards
  const Array& x = in[0];
  out[0] = alloc(x.shape(), x.dtype());
  Dims st = strides_of(x.shape());
  std::int64_t base = 0;
  for (std::int64_t d = 0; d < x.ndim(); ++d) {
    if (std::find(a.axes.begin(), a.axes.end(), d) == a.axes.end()) continue;
    if (x.shape()[d] > 0) base += (x.shape()[d] - 1) * st[d];
    st[d] = -st[d];
  }
  strided_copy(static_cast<unsigned char*>(raw(out[0])), static_cast<const unsigned char*>(raw(x)), x.shape(), st, base,
               itemsize(x.dtype()));
}
// Rolls and repeats move whole blocks (see blocks_around): every block of `inner` elements
// is copied in one piece (rolls: copyk::roll_rows, src/strided_copy.hpp).
XT_KERNEL(roll) {
  const Array& x = in[0];
  const std::size_t sz = itemsize(x.dtype());
  if (!a.has_axes) {  // the flattened array: one row of x.size() elements
    const std::int64_t n = x.size();
    const std::int64_t s = n > 1 ? copyk::roll_shift(a.ints[0], n) : 0;
    if (!s) return alias_into(out[0], x, x.shape());
    out[0] = alloc(x.shape(), x.dtype());
    copyk::roll_rows(static_cast<const unsigned char*>(raw(x)), static_cast<unsigned char*>(raw(out[0])), 1, n, 1, s, sz);
    return;
  }
  // The total shift of each axis (an axis may be named more than once).
  const Shape& shape = x.shape();
  Dims shift;  // no heap: Dims is fixed-capacity
  shift.resize(shape.size(), 0);
  for (std::size_t i = 0; i < a.axes.size(); ++i) shift[a.axes[i]] += a.ints[i];
  const Array* cur = &x;  // the input by reference until the first rolled axis
  Array result;
  for (std::size_t d = 0; d < shape.size(); ++d) {
    std::int64_t len = shape[d];
    if (len <= 1 || x.size() == 0) continue;
    std::int64_t s = copyk::roll_shift(shift[d], len);
    if (!s) continue;
    Array next = alloc(x.shape(), x.dtype());
    const AxisBlocks b = blocks_around(shape, static_cast<std::int64_t>(d));
    copyk::roll_rows(static_cast<const unsigned char*>(raw(*cur)), static_cast<unsigned char*>(raw(next)), b.outer, b.len,
                     b.inner, s, sz);
    result = std::move(next);
    cur = &result;
  }
  // nothing rolled (shifts that are multiples of the lengths, one-element axes): the input's
  // buffer under a new handle, as for the identity maps (xt_elementwise.cpp)
  if (cur == &x) alias_into(out[0], x, x.shape());
  else out[0] = std::move(result);
}
// Copies `count` elements of `sz` bytes from src to dst `times` times in a row.
void repeat_block(unsigned char* dst, const unsigned char* src, std::size_t bytes, std::int64_t times, std::size_t sz) {
  if (bytes == sz) {  // one element: typed fill
    visit_width(sz, [&](auto e) {
      using E = decltype(e);
      E v;
      std::memcpy(&v, src, sizeof(E));
      std::fill_n(reinterpret_cast<E*>(dst), times, v);
    });
    return;
  }
  for (std::int64_t k = 0; k < times; ++k) std::memcpy(dst + static_cast<std::size_t>(k) * bytes, src, bytes);
}
XT_KERNEL(repeat) {
  const bool along = a.has_axes && in[0].ndim();
  const Array& x = in[0];
  const Shape shape = along ? x.shape() : Shape{x.size()};
  const std::int64_t ax = along ? a.i0 : 0;
  const std::size_t sz = itemsize(x.dtype());
  out[0] = alloc(spec[0].shape, x.dtype());
  AxisBlocks b = blocks_around(shape, ax);
  const std::size_t bytes = static_cast<std::size_t>(b.inner) * sz;
  const auto* src = static_cast<const unsigned char*>(raw(x));
  auto* dst = static_cast<unsigned char*>(raw(out[0]));
  if (!bytes) return;
  for (std::int64_t o = 0; o < b.outer; ++o)
    for (std::int64_t i = 0; i < b.len; ++i, src += bytes) {
      std::int64_t r = a.ints.size() == 1 ? a.ints[0] : a.ints[static_cast<std::size_t>(i)];
      repeat_block(dst, src, bytes, r, sz);
      dst += static_cast<std::size_t>(r) * bytes;
    }
}
// Each output row (last axis) is the matching input row, repeated: block copies driven by
// an odometer over the leading axes (no index lists).
XT_KERNEL(tile) {
  const Shape& os = spec[0].shape;
  const Shape& xs = in[0].shape();
  const std::size_t r = os.size();
  out[0] = alloc(os, in[0].dtype());
  const std::size_t sz = itemsize(in[0].dtype());
  auto* dst = static_cast<unsigned char*>(raw(out[0]));
  const auto* src = static_cast<const unsigned char*>(raw(in[0]));
  if (os.numel() == 0) return;
  if (r == 0) {
    std::memcpy(dst, src, sz);
    return;
  }
  Shape padded;  // the input's shape, padded with leading 1s to the result's rank
  padded.resize(r, 1);
  for (std::size_t i = 0; i < xs.size(); ++i) padded[r - xs.size() + i] = xs[i];
  const Dims st = strides_of(padded);
  const std::size_t row = static_cast<std::size_t>(padded[r - 1]) * sz;
  const std::int64_t reps = os[r - 1] / padded[r - 1], rows = os.numel() / os[r - 1];
  Dims pos;
  pos.resize(r - 1);
  for (std::int64_t k = 0; k < rows; ++k) {
    std::int64_t off = 0;
    for (std::size_t d = 0; d + 1 < r; ++d) off += (pos[d] % padded[d]) * st[d];
    const unsigned char* s_row = src + off * static_cast<std::int64_t>(sz);
    for (std::int64_t j = 0; j < reps; ++j, dst += row) std::memcpy(dst, s_row, row);
    for (std::size_t d = r - 1; d-- > 0;) {
      if (++pos[d] < os[d]) break;
      pos[d] = 0;
    }
  }
}
XT_KERNEL(concat) {
  DType d = spec[0].dtype;
  out[0] = alloc(spec[0].shape, d);
  std::int64_t ax = a.i0, outer = 1;
  for (std::int64_t i = 0; i < ax; ++i) outer *= spec[0].shape[i];
  std::size_t sz = itemsize(d);
  std::int64_t out_block = outer ? spec[0].shape.numel() / outer : 0;
  auto* dst = static_cast<unsigned char*>(raw(out[0]));
  std::int64_t offset = 0;
  for (int k = 0; k < n; ++k) {
    const As x_as(in[k], d);
    const Array& x = *x_as;
    std::int64_t block = outer ? x.size() / outer : 0;
    auto* src = static_cast<const unsigned char*>(raw(x));
    for (std::int64_t o = 0; o < outer; ++o)
      if (block) std::memcpy(dst + (o * out_block + offset) * sz, src + o * block * sz, static_cast<std::size_t>(block) * sz);
    offset += block;
  }
}

// ---------------------------------------------------------------- indexing
// A strided copy (rows with step 1 in one memcpy).
XT_KERNEL(strided_slice) {
  const Array& x = in[0];
  out[0] = alloc(spec[0].shape, x.dtype());
  Dims st = strides_of(x.shape());  // scaled by the steps; base = the first element
  std::int64_t base = 0;
  for (std::int64_t d = 0; d < x.ndim(); ++d) {
    base += a.ints[d] * st[d];
    st[d] *= a.ints3[d];
  }
  strided_copy(static_cast<unsigned char*>(raw(out[0])), static_cast<const unsigned char*>(raw(x)), spec[0].shape, st,
               base, itemsize(x.dtype()));
}
// dst[base + sum_d i_d * dst_st[d]] = src[sum_d i_d * src_st[d]] over the positions i of
// shape ss (element units; a 0 source stride broadcasts).
template <class E>
void strided_put(E* dst, const E* src, const Shape& ss, const Dims& dst_st, std::int64_t base, const Dims& src_st) {
  const std::size_t r = ss.size();
  if (r == 0) {
    dst[base] = src[0];
    return;
  }
  const std::int64_t len = ss[r - 1], ds = dst_st[r - 1], vs = src_st[r - 1], rows = ss.numel() / len;
  Dims pos;
  pos.resize(r - 1);
  for (std::int64_t k = 0; k < rows; ++k) {
    std::int64_t doff = base, soff = 0;
    for (std::size_t d = 0; d + 1 < r; ++d) doff += pos[d] * dst_st[d], soff += pos[d] * src_st[d];
    for (std::int64_t j = 0; j < len; ++j) dst[doff + j * ds] = src[soff + j * vs];
    for (std::size_t d = r - 1; d-- > 0;) {
      if (++pos[d] < ss[d]) break;
      pos[d] = 0;
    }
  }
}
// A copy of x, then the value (broadcast over the slice) written through the slice's
// strides: no index lists, no materialized broadcast.
XT_KERNEL(slice_update) {
  const Array& x = in[0];
  const std::size_t r = static_cast<std::size_t>(x.ndim());
  out[0] = contiguous_copy(x);
  const As v_as(in[1], x.dtype());
  const Array& v = *v_as;
  const Dims xst = strides_of(x.shape());
  Shape ss;
  Dims dst_st, src_st;
  ss.resize(r);
  dst_st.resize(r);
  src_st.resize(r);
  std::int64_t base = 0;
  for (std::size_t d = 0; d < r; ++d) {
    const std::int64_t b = a.ints[d], e = a.ints2[d], st = a.ints3[d];
    ss[d] = slice_length(b, e, st);
    base += b * xst[d];
    dst_st[d] = st * xst[d];
  }
  if (ss.numel() == 0) return;
  const Dims vst = strides_of(v.shape());
  const std::size_t off = r - v.shape().size();  // v is aligned to the right of the slice
  for (std::size_t i = 0; i < v.shape().size(); ++i) src_st[off + i] = v.shape()[i] == 1 ? 0 : vst[i];
  visit_width(itemsize(x.dtype()), [&](auto e) {
    using E = decltype(e);
    strided_put(static_cast<E*>(raw(out[0])), static_cast<const E*>(raw(v)), ss, dst_st, base, src_st);
  });
}
// Copies `block` bytes (one element for inner == 1, then a typed move).
inline void copy_block(unsigned char* dst, const unsigned char* src, std::size_t block) {
  switch (block) {
    case 1: *dst = *src; break;
    case 2: std::memcpy(dst, src, 2); break;
    case 4: std::memcpy(dst, src, 4); break;
    case 8: std::memcpy(dst, src, 8); break;
    case 16: std::memcpy(dst, src, 16); break;
    default: std::memcpy(dst, src, block);
  }
}
// The index array as int64 data: the input itself when it already is int64 (no handle copy).
const std::int64_t* i64_data(const Array& idx, Array* keep) {
  if (idx.dtype() == int64) return ptr<std::int64_t>(idx);
  *keep = cast(idx, int64);
  return ptr<std::int64_t>(*keep);
}
void check_index(std::int64_t k, std::int64_t n, const char* op) {
  if (k < -n || k >= n)
    throw IndexError(std::string("[") + op + "] index " + std::to_string(k) + " is out of bounds for axis of size " +
                     std::to_string(n) + " (backend xtensor)");
}
// x viewed as [outer, len, inner] around the axis; the result as [outer, m, inner]: rows of
// `inner` elements copied by index, every index checked before any copy.
XT_KERNEL(take) {
  Array keep;
  const std::int64_t* ip = i64_data(in[1], &keep);
  const std::int64_t m = in[1].size();
  const AxisBlocks b = blocks_around(in[0].shape(), a.i0);
  for (std::int64_t j = 0; j < m; ++j) check_index(ip[j], b.len, "take");
  out[0] = alloc(spec[0].shape, in[0].dtype());
  const std::size_t block = static_cast<std::size_t>(b.inner) * itemsize(in[0].dtype());
  const auto* src = static_cast<const unsigned char*>(raw(in[0]));
  auto* dst = static_cast<unsigned char*>(raw(out[0]));
  if (block == 0) return;
  for (std::int64_t o = 0; o < b.outer; ++o)
    for (std::int64_t j = 0; j < m; ++j) {
      const std::int64_t k = ip[j] < 0 ? ip[j] + b.len : ip[j];
      copy_block(dst + (o * m + j) * block, src + (o * b.len + k) * block, block);
    }
}
// out[o, j, t] = x[o, idx[o, j, t], t], elements of E bytes; an index out of range throws.
template <class E>
void gather_along(void* out, const void* x, const std::int64_t* ip, AxisBlocks bx, AxisBlocks bi) {
  auto* dst = static_cast<E*>(out);
  const auto* src = static_cast<const E*>(x);
  for (std::int64_t o = 0; o < bi.outer; ++o) {
    const E* xo = src + o * bx.len * bx.inner;
    for (std::int64_t j = 0; j < bi.len; ++j, ip += bi.inner, dst += bi.inner)
      for (std::int64_t t = 0; t < bi.inner; ++t) {
        const std::int64_t k = ip[t] < 0 ? ip[t] + bx.len : ip[t];
        if (static_cast<std::uint64_t>(k) >= static_cast<std::uint64_t>(bx.len)) check_index(ip[t], bx.len, "take_along_axis");
        dst[t] = xo[k * bx.inner + t];
      }
  }
}
XT_KERNEL(take_along_axis) {
  const Shape& os = spec[0].shape;
  std::int64_t ax = a.i0;
  Shape xs = os;
  xs[ax] = in[0].shape()[ax];
  if (in[0].shape() == xs && in[1].shape() == os) {
    // no broadcasting: out[o, j, t] = x[o, idx[o, j, t], t] around the axis, in place
    Array keep;
    const std::int64_t* ip = i64_data(in[1], &keep);
    const AxisBlocks bx = blocks_around(xs, ax), bi = blocks_around(os, ax);
    out[0] = alloc(os, in[0].dtype());
    const void* src = raw(in[0]);
    void* dst = raw(out[0]);
    visit_width(itemsize(in[0].dtype()), [&](auto e) { gather_along<decltype(e)>(dst, src, ip, bx, bi); });
    return;
  }
  Array x = broadcast_to(in[0], xs);
  Array ib = broadcast_to(cast_if(in[1], int64), os);
  std::int64_t outer, inner_x, outer2, inner_i;
  Array xm, im;
  const Array& xr = axes_to_end(x, Dims{ax}, xm, &outer, &inner_x);
  const Array& ir = axes_to_end(ib, Dims{ax}, im, &outer2, &inner_i);
  Shape rs;
  for (std::int64_t d = 0; d < static_cast<std::int64_t>(os.size()); ++d)
    if (d != ax) rs.push_back(os[d]);
  rs.push_back(os[ax]);
  Array res = alloc(rs, x.dtype());
  std::size_t sz = itemsize(x.dtype());
  auto* src = static_cast<const unsigned char*>(raw(xr));
  auto* dst = static_cast<unsigned char*>(raw(res));
  const std::int64_t* ip = ptr<std::int64_t>(ir);
  for (std::int64_t o = 0; o < outer2; ++o)
    for (std::int64_t j = 0; j < inner_i; ++j) {
      std::int64_t k = ip[o * inner_i + j];
      if (k < -inner_x || k >= inner_x)
        throw IndexError("[take_along_axis] index " + std::to_string(k) + " is out of bounds for axis of size " +
                         std::to_string(inner_x) + " (backend xtensor)");
      if (k < 0) k += inner_x;
      std::memcpy(dst + (o * inner_i + j) * sz, src + (o * inner_x + k) * sz, sz);
    }
  // move the axis back
  Dims perm;
  std::int64_t r = static_cast<std::int64_t>(os.size());
  for (std::int64_t d = 0, src_d = 0; d < r; ++d) perm.push_back(d == ax ? r - 1 : src_d++);
  out[0] = permute(res, perm);
}
// Positions of the flattened copy, every index checked first; the value is one element or
// one per index.
XT_KERNEL(index_put_flat) {
  out[0] = contiguous_copy(in[0]);
  Array keep;
  const std::int64_t* ip = i64_data(in[1], &keep);
  const std::int64_t m = in[1].size(), total = in[0].size();
  for (std::int64_t j = 0; j < m; ++j) check_index(ip[j], total, "index_put");
  const As v_as(in[2], in[0].dtype());
  const Array& v = *v_as;
  const std::int64_t vstep = v.size() == 1 ? 0 : 1;
  const std::size_t sz = itemsize(in[0].dtype());
  auto* dst = static_cast<unsigned char*>(raw(out[0]));
  const auto* src = static_cast<const unsigned char*>(raw(v));
  for (std::int64_t j = 0; j < m; ++j) {
    const std::int64_t k = ip[j] < 0 ? ip[j] + total : ip[j];
    copy_block(dst + k * static_cast<std::int64_t>(sz), src + j * vstep * static_cast<std::int64_t>(sz), sz);
  }
}

// ---------------------------------------------------------------- searching
XT_KERNEL(nonzero) {
  // two passes (count, then fill the outputs): no list of hits
  const Array& x = in[0];
  const std::int64_t r = x.ndim(), count = x.size();
  visit(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* p = ptr<T>(x);
    std::int64_t cnt = 0;
    for (std::int64_t i = 0; i < count; ++i) cnt += p[i] != T{};
    for (std::int64_t d = 0; d < r; ++d) out[d] = alloc(Shape{cnt}, int64);
    if (r == 1) {
      std::int64_t* o = ptr<std::int64_t>(out[0]);
      for (std::int64_t i = 0; i < count; ++i)
        if (p[i] != T{}) *o++ = i;
      return;
    }
    const Dims st = strides_of(x.shape());
    std::int64_t* o[kMaxRank];
    for (std::int64_t d = 0; d < r; ++d) o[d] = ptr<std::int64_t>(out[d]);
    for (std::int64_t i = 0, j = 0; i < count; ++i)
      if (p[i] != T{}) {
        for (std::int64_t d = 0; d < r; ++d) o[d][j] = (i / st[d]) % x.shape()[d];
        ++j;
      }
  });
}
// o[i] = c[i] ? x1[i] : x2[i] over elements of E bytes, moved as unsigned integers.
template <class E>
void select_loop(void* o, const bool* c, const void* x1, const void* x2, std::int64_t n) {
  auto* cp = reinterpret_cast<const unsigned char*>(c);
  if constexpr (sizeof(E) <= 8)
    loops::select_best(static_cast<E*>(o), cp, static_cast<const E*>(x1), static_cast<const E*>(x2), n);
  else
    loops::select(static_cast<E*>(o), cp, static_cast<const E*>(x1), static_cast<const E*>(x2), n);
}
XT_KERNEL(where) {
  DType d = spec[0].dtype;
  const Shape& s = spec[0].shape;
  // inputs already of the result's shape and dtype are read in place (no handle copies)
  Array hold[3];
  const Array* p[3];
  for (int k = 0; k < 3; ++k) {
    const Array& x = in[k];
    if (x.shape() == s && (k == 0 || x.dtype() == d)) {
      p[k] = &x;
    } else {
      hold[k] = broadcast_to(k == 0 ? x : cast_if(x, d), s);
      p[k] = &hold[k];
    }
  }
  out[0] = alloc(s, d);
  const bool* cp = ptr<bool>(*p[0]);
  const void *x1 = raw(*p[1]), *x2 = raw(*p[2]);
  void* o = raw(out[0]);
  const std::int64_t count = s.numel();
  visit_width(itemsize(d), [&](auto e) { select_loop<decltype(e)>(o, cp, x1, x2, count); });
}
XT_KERNEL(searchsorted) {
  DType c = result_type(in[0].dtype(), in[1].dtype());
  const As x1_as(in[0], c), x2_as(in[1], c);
  const Array &x1 = *x1_as, &x2 = *x2_as;
  out[0] = alloc(spec[0].shape, int64);
  std::int64_t* o = ptr<std::int64_t>(out[0]);
  visit(c, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (is_cplx_v<T>) {
      fail("searchsorted", "complex inputs are not ordered");
    } else {
      sortk::search_sorted(ptr<T>(x1), x1.size(), ptr<T>(x2), x2.size(), a.b0, o);
    }
  });
}

// ---------------------------------------------------------------- sorting
// Stable sort; short runs by insertion (no temporary buffer, which std::stable_sort
// allocates on every call).
constexpr std::int64_t kSmallSort = 32;
// Room for kSmallSort (value, index) pairs left uninitialized: an array of pairs would
// value-initialize all 32 on every call (~64 stores for a one-element sort). Filled with
// placement new.
template <class KV>
struct SmallPairs {
  alignas(KV) unsigned char bytes[kSmallSort * sizeof(KV)];
  KV* data() { return reinterpret_cast<KV*>(bytes); }
};
template <class It, class Less>
void stable_sort_small(It first, It last, Less less) {
  if (last - first > kSmallSort) return std::stable_sort(first, last, less);
  for (It i = first + (first != last); i < last; ++i) {
    auto v = std::move(*i);
    It j = i;
    for (; j != first && less(v, *(j - 1)); --j) *j = std::move(*(j - 1));
    *j = std::move(v);
  }
}

// Longer rows sort by radix (src/sort_kernels.hpp).
using sortk::by_radix;
using sortk::key_t;
using sortk::radix_sort;
using sortk::RadixBuf;
using sortk::sort_key;
// Sorts along a.i0; writes values (want_values) or int64 indices.
// Along the last axis (the default, and every 1-d sort) the rows are x's own rows
// (axes_to_end returns x) and the result needs no permute.
Array sort_impl(const Array& x, const Attrs& a, bool want_values) {
  const std::int64_t r = x.ndim();  // >= 1 (meta)
  std::int64_t outer, len;
  Array moved;
  const Array& xr = axes_to_end(x, Dims{a.i0}, moved, &outer, &len);
  Array res = alloc(xr.shape(), want_values ? x.dtype() : int64);
  visit(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (is_cplx_v<T>) {
      fail("sort", "complex inputs are not ordered");
    } else {
      const T* p = ptr<T>(xr);
      if (by_radix(len)) {
        sortk::radix_rows(p, outer, len, a.b0, want_values, raw(res));
        return;
      }
      if (want_values) {  // values sort in place, no index indirection
        T* r = ptr<T>(res);
        std::copy(p, p + outer * len, r);
        for (std::int64_t o = 0; o < outer; ++o) {
          if (a.b0) stable_sort_small(r + o * len, r + (o + 1) * len, [](T u, T v) { return lt(v, u); });
          else stable_sort_small(r + o * len, r + (o + 1) * len, [](T u, T v) { return lt(u, v); });
        }
        return;
      }
      // indices: sort (value, index) pairs by value, stably (no indirection in the compares)
      using KV = std::pair<T, std::int64_t>;
      SmallPairs<KV> small;  // short rows need no heap buffer
      std::vector<KV> big(len > kSmallSort ? static_cast<std::size_t>(len) : 0);
      KV* kv = len > kSmallSort ? big.data() : small.data();
      std::int64_t* r = ptr<std::int64_t>(res);
      for (std::int64_t o = 0; o < outer; ++o) {
        const T* row = p + o * len;
        for (std::int64_t k = 0; k < len; ++k) ::new (static_cast<void*>(kv + k)) KV(row[k], k);
        if (a.b0) stable_sort_small(kv, kv + len, [](const KV& u, const KV& v) { return lt(v.first, u.first); });
        else stable_sort_small(kv, kv + len, [](const KV& u, const KV& v) { return lt(u.first, v.first); });
        for (std::int64_t k = 0; k < len; ++k) r[o * len + k] = kv[k].second;
      }
    }
  });
  if (a.i0 == r - 1) return res;
  Dims perm;
  for (std::int64_t d = 0, s = 0; d < r; ++d) perm.push_back(d == a.i0 ? r - 1 : s++);
  return permute(res, perm);
}
XT_KERNEL(sort) { out[0] = sort_impl(in[0], a, true); }
XT_KERNEL(argsort) { out[0] = sort_impl(in[0], a, false); }

// ---------------------------------------------------------------- sets
// (value, index) pairs sorted stably by value (no indirection in the compares); one pass
// counts the groups, a second writes the four outputs directly. Equal values form a group
// whose head has the smallest index; NaN != NaN, so each NaN is its own group. Complex
// values order lexicographically (real, imag).
XT_KERNEL(unique) {
  const Array& x = in[0];
  const std::int64_t N = x.size();
  visit(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using KV = std::pair<T, std::int64_t>;
    const T* p = ptr<T>(x);
    if constexpr (!is_cplx_v<T>) {
      if (by_radix(N)) {  // (see sort_impl)
        sortk::unique_radix(p, N, [&](std::int64_t U) {
          out[0] = alloc(Shape{U}, x.dtype());
          out[1] = alloc(Shape{U}, int64);
          out[2] = alloc(x.shape(), int64);
          out[3] = alloc(Shape{U}, int64);
          return std::tuple(ptr<T>(out[0]), ptr<std::int64_t>(out[1]), ptr<std::int64_t>(out[2]),
                            ptr<std::int64_t>(out[3]));
        });
        return;
      }
    }
    SmallPairs<KV> small;
    std::vector<KV> big(N > kSmallSort ? static_cast<std::size_t>(N) : 0);
    KV* kv = N > kSmallSort ? big.data() : small.data();
    {
      for (std::int64_t k = 0; k < N; ++k) ::new (static_cast<void*>(kv + k)) KV(p[k], k);
      stable_sort_small(kv, kv + N, [](const KV& u, const KV& v) {
        if constexpr (is_cplx_v<T>) {
          if (u.first.real() != v.first.real()) return lt(u.first.real(), v.first.real());
          return lt(u.first.imag(), v.first.imag());
        } else {
          return lt(u.first, v.first);
        }
      });
    }
    std::int64_t U = 0;
    for (std::int64_t k = 0; k < N; ++k) U += !(k > 0 && kv[k].first == kv[k - 1].first);
    out[0] = alloc(Shape{U}, x.dtype());
    out[1] = alloc(Shape{U}, int64);
    out[2] = alloc(x.shape(), int64);
    out[3] = alloc(Shape{U}, int64);
    T* vals = ptr<T>(out[0]);
    std::int64_t *first = ptr<std::int64_t>(out[1]), *inv = ptr<std::int64_t>(out[2]), *cnt = ptr<std::int64_t>(out[3]);
    std::int64_t g = -1;
    for (std::int64_t k = 0; k < N; ++k) {
      if (!(k > 0 && kv[k].first == kv[k - 1].first)) {
        ++g;
        vals[g] = kv[k].first;
        first[g] = kv[k].second;
        cnt[g] = 0;
      }
      ++cnt[g];
      inv[kv[k].second] = g;
    }
  });
}
XT_KERNEL(isin) {
  DType c = result_type(in[0].dtype(), in[1].dtype());
  const As x1_as(in[0], c), x2_as(in[1], c);
  const Array &x1 = *x1_as, &x2 = *x2_as;
  out[0] = alloc(spec[0].shape, bool_);
  bool* o = ptr<bool>(out[0]);
  visit(c, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* p = ptr<T>(x1);
    // complex values have no order: compare with every element
    auto scan = [&] {
      const T* q = ptr<T>(x2);
      const std::int64_t m = x2.size();
      for (std::int64_t i = 0; i < x1.size(); ++i) {
        bool f = false;
        for (std::int64_t j = 0; j < m; ++j) f |= p[i] == q[j];
        o[i] = f != a.b0;
      }
    };
    if constexpr (is_cplx_v<T>) {
      scan();
    } else {
      sortk::isin(p, x1.size(), ptr<T>(x2), x2.size(), o, a.b0);
    }
  });
}

}  // namespace

void register_structure(BackendImpl& b) {
#define R(name) XT_REG(b, name);
  R(full) R(arange) R(linspace) R(eye) R(random_uniform) R(random_normal) R(randint) R(tril) R(triu) R(astype)
  R(reshape) R(permute_dims) R(broadcast_to) R(flip) R(roll) R(repeat) R(tile) R(concat)
  R(strided_slice) R(slice_update) R(take) R(take_along_axis) R(index_put_flat)
  R(nonzero) R(where) R(searchsorted) R(sort) R(argsort) R(unique) R(isin)
#undef R
}

}  // namespace ivy::xtb

// xtensor backend: the reductions and the cumulative sums and products. ivy's loops compute
// them: whole-buffer and per-row passes (backends/cpu/row_kernels.hpp for float sums,
// max/min, argmax/argmin, all/any; the variance and the cumulative ones here). xtensor's
// reducers (xt::sum, xt::prod, xt::mean over xt::adapt views) compute the other cases of
// sum, prod and mean: some of the axes (but the trailing ones of a float32/float64 sum or
// mean), or an empty array.
#include <cmath>
#include <limits>

#include <xtensor/xmath.hpp>
#include <xtensor/xreducer.hpp>

#include "row_kernels.hpp"
#include "xt_common.hpp"

namespace ivy::xtensor_backend {
namespace {

// The reduced axes, sorted: `axes` when present, else every axis (the reduction attribute
// sets reduce, reduce_acc and reduce_var all hold the optional axes).
std::vector<std::size_t> red_axes(const Array& x, const std::optional<Dims>& axes) {
  std::vector<std::size_t> ax;
  if (axes)
    for (auto v : *axes) ax.push_back(static_cast<std::size_t>(v));
  else
    for (std::int64_t i = 0; i < x.ndim(); ++i) ax.push_back(static_cast<std::size_t>(i));
  std::sort(ax.begin(), ax.end());
  return ax;
}
Dims red_dims(const Array& x, const std::optional<Dims>& axes) {  // no heap: Dims is fixed-capacity
  Dims d;
  if (axes) {
    for (auto v : *axes) d.push_back(v);
    if (d.size() > 1) std::sort(d.begin(), d.end());
  } else {  // every axis, already in order
    for (std::int64_t i = 0; i < x.ndim(); ++i) d.push_back(i);
  }
  return d;
}
Shape squeezed(const Array& x, const std::vector<std::size_t>& ax) {
  Shape s;
  for (std::int64_t i = 0; i < x.ndim(); ++i)
    if (std::find(ax.begin(), ax.end(), static_cast<std::size_t>(i)) == ax.end()) s.push_back(x.shape()[i]);
  return s;
}

// What a reduction accumulates: the sum, the product, or the sum divided by the count.
enum class Reduction : std::uint8_t { sum, prod, mean };

// Reduction of a whole contiguous buffer to one value: eight interleaved accumulators (the
// loop vectorizes, and the partial sums keep rounding error closer to NumPy's pairwise sum
// than one running total); integers wrap (unsigned arithmetic), as the standard allows.
// float32/float64 sums and means: cpu::rows::sum_fp (pairwise over blocks, the torch backend's too).
// a * b (prod) or a + b (sum, mean) for the accumulator: integers in uint64 (no promotion to
// a signed int that could overflow), wrapped back to the accumulator's width.
template <Reduction R, class A>
A step(A acc, A v) {
  if constexpr (std::is_integral_v<A>) {
    const std::uint64_t x = acc, y = v;
    return static_cast<A>(R == Reduction::prod ? x * y : x + y);
  } else {
    return R == Reduction::prod ? acc * v : acc + v;
  }
}
template <Reduction R, class T>
T reduce_all(const T* p, std::int64_t n) {
  if constexpr (R != Reduction::prod && (std::is_same_v<T, float> || std::is_same_v<T, double>)) {
    const T s = cpu::rows::sum_fp(p, n);  // pairwise blocks (backends/cpu/row_kernels.hpp), as the torch backend's
    return R == Reduction::mean ? s / static_cast<T>(n) : s;
  }
  using A = typename std::conditional_t<std::is_integral_v<T>, std::make_unsigned<T>, std::type_identity<T>>::type;
  constexpr int kLanes = 8;
  A acc[kLanes];
  for (auto& v : acc) v = R == Reduction::prod ? A(1) : A(0);
  std::int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes)
    for (int k = 0; k < kLanes; ++k) acc[k] = step<R>(acc[k], static_cast<A>(p[i + k]));
  for (int k = 1; i < n; ++i, k = (k + 1) % kLanes) acc[k] = step<R>(acc[k], static_cast<A>(p[i]));  // tail
  for (int w = kLanes / 2; w > 0; w /= 2)  // combine pairwise
    for (int k = 0; k < w; ++k) acc[k] = step<R>(acc[k], acc[k + w]);
  T r = static_cast<T>(acc[0]);
  if constexpr (R == Reduction::mean) r = r / static_cast<real_t<T>>(n);
  return r;
}

template <class T, class U, class F>
Array rows(const Array& x, const Dims& axes, const OutSpec& spec, F&& f);

// sum / prod / mean, computed in the output dtype: over every axis of a non-empty array one
// pass of ivy's over the buffer (reduce_all); a float32/float64 sum or mean over trailing
// axes ivy's pairwise sum of each row in place (cpu::rows::sum_rows_fp); no axis a copy;
// every other case xtensor's reducer (xt::sum / xt::prod / xt::mean) over the array's view.
template <Reduction R>
void sum_prod_mean(const Array* in, const std::optional<Dims>& axes, const OutSpec* spec, Array* out) {
  DType d = spec[0].dtype;
  const As x_as(in[0], d);
  const Array& x = *x_as;
  const bool all_axes = !axes || static_cast<std::int64_t>(axes->size()) == x.ndim();
  if (all_axes && x.ndim() > 0 && x.size() > 0) {
    visit(d, [&](auto tag) {
      using T = typename decltype(tag)::type;
      if constexpr (std::is_same_v<T, bool> || (R == Reduction::mean && std::is_integral_v<T>)) {
        fail(R == Reduction::mean ? "mean" : "sum", "unsupported accumulation dtype");
      } else {
        out[0] = alloc(spec[0].shape, d);
        ptr<T>(out[0])[0] = reduce_all<R>(ptr<T>(x), x.size());
      }
    });
    return;
  }
  auto ax = red_axes(x, axes);
  if (ax.empty()) {
    out[0] = alias(x.dtype() == in[0].dtype() ? contiguous_copy(x) : x, spec[0].shape);
    return;
  }
  if constexpr (R != Reduction::prod) {
    const std::size_t r = static_cast<std::size_t>(x.ndim()), k = ax.size();
    bool trailing = x.size() > 0;
    for (std::size_t i = 0; i < k; ++i) trailing = trailing && ax[i] == r - k + i;
    if (trailing && (d == float32 || d == float64)) {
      // every row summed in place (short rows without a call per row), the mean divided after
      std::int64_t inner = 1;
      for (std::size_t i = r - k; i < r; ++i) inner *= x.shape()[i];
      const std::int64_t outer = x.size() / inner;
      out[0] = alloc(spec[0].shape, d);
      auto fill = [&](auto* o, const auto* p) {
        cpu::rows::sum_rows_fp(p, outer, inner, o);
        if constexpr (R == Reduction::mean)
          for (std::int64_t i = 0; i < outer; ++i) o[i] = o[i] / static_cast<std::remove_reference_t<decltype(*o)>>(inner);
      };
      if (d == float32) fill(ptr<float>(out[0]), ptr<float>(x));
      else fill(ptr<double>(out[0]), ptr<double>(x));
      return;
    }
  }
  Shape rs = squeezed(x, ax);
  visit(d, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, bool>) {
      fail("sum", "bool accumulation dtype");
    } else {
      auto v = view<T>(x);
      if constexpr (R == Reduction::sum) out[0] = eval<T>(rs, d, xt::sum<T>(v, ax));
      if constexpr (R == Reduction::prod) out[0] = eval<T>(rs, d, xt::prod<T>(v, ax));
      if constexpr (R == Reduction::mean) {
        if constexpr (std::is_integral_v<T>) fail("mean", "integer mean");
        else out[0] = eval<T>(rs, d, xt::mean<T>(v, ax));
      }
    }
  });
  out[0] = alias(out[0], spec[0].shape);
}

// Row-wise: reduction axes moved to the end, f(row pointer, length) -> value.
// (axes sorted; when they already are the trailing axes, x is read in place.)
template <class T, class U, class F>
Array rows(const Array& x, const Dims& axes, const OutSpec& spec, F&& f) {
  std::int64_t outer, inner;
  Array moved;
  const Array& xr = axes_to_end(x, axes, moved, &outer, &inner);
  Array res = alloc(spec.shape, spec.dtype);
  const T* p = ptr<T>(xr);
  U* o = ptr<U>(res);
  for (std::int64_t i = 0; i < outer; ++i) o[i] = f(p + i * inner, inner);
  return res;
}

// Row-wise over every axis: the whole buffer is the one row (what rows() computes when
// every axis is reduced, without building the axis list or looking for a permutation).
template <class T, class U, class F>
Array rows_all(const Array& x, const OutSpec& spec, F&& f) {
  Array res = alloc(spec.shape, spec.dtype);
  ptr<U>(res)[0] = f(ptr<T>(x), x.size());
  return res;
}
// rows() over the reduced axes (`axes` when present, else every axis).
template <class T, class U, class F>
Array rows_of(const Array& x, const std::optional<Dims>& axes, const OutSpec& spec, F&& f) {
  if (!axes) return rows_all<T, U>(x, spec, std::forward<F>(f));
  return rows<T, U>(x, red_dims(x, axes), spec, std::forward<F>(f));
}

template <bool IsMax>
void minmax(const Array* in, AttrsRef a, const OutSpec* spec, Array* out) {
  const auto& at = a.get<attr::reduce>();
  visit(in[0].dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (is_cplx_v<T>) {
      fail(IsMax ? "max" : "min", "complex inputs are not ordered");
    } else {
      out[0] = rows_of<T, T>(in[0], at.axes, spec[0], [](const T* r, std::int64_t len) { return cpu::rows::extreme<IsMax>(r, len); });
    }
  });
}

template <bool IsAll>
void allany(const Array* in, AttrsRef a, const OutSpec* spec, Array* out) {
  const auto& at = a.get<attr::reduce>();
  visit(in[0].dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    out[0] = rows_of<T, bool>(in[0], at.axes, spec[0], [](const T* r, std::int64_t len) { return cpu::rows::all_any<IsAll>(r, len); });
  });
}

template <bool IsStd>
void variance(const Array* in, AttrsRef a, const OutSpec* spec, Array* out) {
  DType od = spec[0].dtype;
  DType cd = is_complex(in[0].dtype()) ? in[0].dtype() : od;
  const As x_as(in[0], cd);
  const Array& x = *x_as;
  const auto& at = a.get<attr::reduce_var>();
  const double corr = at.correction;
  visit_float(cd, [&](auto tag) {
    using T = typename decltype(tag)::type;
    using R = real_t<T>;
    out[0] = rows_of<T, R>(x, at.axes, spec[0], [corr](const T* r, std::int64_t len) {
      R s = 0;
      if constexpr (std::is_same_v<T, R>) {
        // two passes, each a pairwise sum (the mean's and the squared deviations', by blocks
        // of squares summed pairwise, then the block sums pairwise), as accurate as NumPy's
        const R m = cpu::rows::sum_fp(r, len) / static_cast<R>(len);
        constexpr std::int64_t kBlock = 1024;
        R sq[kBlock];
        std::vector<R> partial;
        partial.reserve(static_cast<std::size_t>(len / kBlock + 1));
        for (std::int64_t b = 0; b < len; b += kBlock) {
          const std::int64_t n = std::min(kBlock, len - b);
          for (std::int64_t i = 0; i < n; ++i) {
            const R dv = r[b + i] - m;
            sq[i] = dv * dv;
          }
          partial.push_back(cpu::rows::sum_fp(sq, n));
        }
        s = partial.empty() ? R(0) : cpu::rows::sum_fp(partial.data(), static_cast<std::int64_t>(partial.size()));
      } else {
        T m{};
        for (std::int64_t i = 0; i < len; ++i) m += r[i];
        m /= static_cast<R>(len);
        for (std::int64_t i = 0; i < len; ++i) {
          R dv = std::abs(r[i] - m);
          s += dv * dv;
        }
      }
      R v = s / static_cast<R>(static_cast<double>(len) - corr);
      return IsStd ? std::sqrt(v) : v;
    });
  });
}

template <bool IsMax>
void argreduce(const Array* in, AttrsRef a, const OutSpec* spec, Array* out) {
  const Array& x = in[0];
  const auto& at = a.get<attr::argreduce>();
  const bool one_axis = at.axis && x.ndim();
  visit(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (is_cplx_v<T>) {
      fail(IsMax ? "argmax" : "argmin", "complex inputs are not ordered");
    } else {
      // first occurrence of the extreme; the first NaN wins (as NumPy does)
      auto f = [](const T* r, std::int64_t len) { return cpu::rows::arg_extreme<IsMax>(r, len); };
      out[0] = one_axis ? rows<T, std::int64_t>(x, Dims{*at.axis}, spec[0], f) : rows_all<T, std::int64_t>(x, spec[0], f);
    }
  });
}

// Running sums/products along an axis, with the array seen as [outer, len, inner]: each row
// of `inner` elements adds (multiplies) the previous row of the result, so the inner loop
// vectorizes. With inner == 1 the running value stays in a register instead of being read
// back from the element just stored (a store-to-load round trip on every element, slower
// than one add's latency). Integers wrap (unsigned arithmetic).
// include_initial starts each run with a row of the identity.
template <bool IsSum>
void cumulative(const Array* in, AttrsRef a, const OutSpec* spec, Array* out) {
  constexpr Reduction R = IsSum ? Reduction::sum : Reduction::prod;
  DType d = spec[0].dtype;
  const As x_as(in[0], d);
  const Array& x = *x_as;
  const auto& at = a.get<attr::cumulative>();
  const AxisBlocks blk = blocks_around(x.shape(), in[0].ndim() ? at.axis : 0);  // 0-d: one block of one
  const std::int64_t outer = blk.outer, len = blk.len, inner = blk.inner;
  const bool init = at.include_initial;
  out[0] = alloc(spec[0].shape, d);
  visit(d, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, bool>) {
      fail(IsSum ? "cumulative_sum" : "cumulative_prod", "bool accumulation dtype");
    } else {
      using A = typename std::conditional_t<std::is_integral_v<T>, std::make_unsigned<T>, std::type_identity<T>>::type;
      const A* p = reinterpret_cast<const A*>(ptr<T>(x));
      A* o = reinterpret_cast<A*>(ptr<T>(out[0]));
      const A id = IsSum ? A(0) : A(1);
      const std::int64_t olen = len + (init ? 1 : 0);
      for (std::int64_t ob = 0; ob < outer; ++ob) {
        const A* src = p + ob * len * inner;
        A* dst = o + ob * olen * inner;
        if (init) {
          std::fill_n(dst, inner, id);
          dst += inner;
        }
        if (len == 0) continue;
        if (inner == 1) {  // one run (every 1-d input): the running value stays in a register
          A acc = src[0];
          dst[0] = acc;
          for (std::int64_t i = 1; i < len; ++i) dst[i] = acc = step<R>(acc, src[i]);
          continue;
        }
        for (std::int64_t k = 0; k < inner; ++k) dst[k] = src[k];
        for (std::int64_t i = 1; i < len; ++i) {
          const A* prev = dst + (i - 1) * inner;
          A* cur = dst + i * inner;
          const A* v = src + i * inner;
          for (std::int64_t k = 0; k < inner; ++k) cur[k] = step<R>(prev[k], v[k]);
        }
      }
    }
  });
}

}  // namespace

// The kernels. Attribute sets: sum, prod reduce_acc (its dtype is already spec[0].dtype);
// mean, max, min, all, any reduce; var, std reduce_var; argmax, argmin argreduce;
// cumulative_sum, cumulative_prod cumulative.
XT_KERNEL(sum) {
  const auto& at = a.get<attr::reduce_acc>();
  sum_prod_mean<Reduction::sum>(in, at.axes, spec, out);
}
XT_KERNEL(prod) {
  const auto& at = a.get<attr::reduce_acc>();
  sum_prod_mean<Reduction::prod>(in, at.axes, spec, out);
}
XT_KERNEL(mean) {
  const auto& at = a.get<attr::reduce>();
  sum_prod_mean<Reduction::mean>(in, at.axes, spec, out);
}

XT_KERNEL(max) { minmax<true>(in, a, spec, out); }
XT_KERNEL(min) { minmax<false>(in, a, spec, out); }

XT_KERNEL(all) { allany<true>(in, a, spec, out); }
XT_KERNEL(any) { allany<false>(in, a, spec, out); }

XT_KERNEL(var) { variance<false>(in, a, spec, out); }
XT_KERNEL(std) { variance<true>(in, a, spec, out); }

XT_KERNEL(argmax) { argreduce<true>(in, a, spec, out); }
XT_KERNEL(argmin) { argreduce<false>(in, a, spec, out); }

XT_KERNEL(cumulative_sum) { cumulative<true>(in, a, spec, out); }
XT_KERNEL(cumulative_prod) { cumulative<false>(in, a, spec, out); }

}  // namespace ivy::xtensor_backend

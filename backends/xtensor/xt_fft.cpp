// xtensor backend: n-dimensional FFTs (numpy.fft fftn / ifftn / rfftn / irfftn semantics)
// built from Eigen's FFT module (kissfft): 1-D transforms applied along each axis in turn.
//
// Attributes (set fft): axes = normalized axes, lengths = signal length per axis (each axis
// is zero-padded or truncated to it before its transform), norm (0 backward, 1 ortho,
// 2 forward), inverse (read by fft_c2c; fft_r2c is forward, fft_c2r inverse). The primitives'
// shape inference (meta.cpp's fft_spec), which dispatch runs before every kernel, has
// checked the axes, the lengths and the norm code.
#include <unsupported/Eigen/FFT>

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>

#include "xt_common.hpp"

namespace ivy::xtensor_backend {
namespace {

using Index = std::int64_t;

std::string P(const char* op) { return std::string("[") + op + "] "; }

// Scratch for lines and intermediates: grows without writing (std::vector<std::complex>'s
// resize zero-fills every new element, a whole pass over the buffer before a line is even
// gathered) and keeps nothing when it grows, as every user writes a buffer before reading it.
template <class T>
class Scratch {
 public:
  std::size_t size() const { return n_; }
  void resize(std::size_t n) {
    if (n <= n_) return;
    // bytes, default-initialized (unwritten): a complex T would value-initialize
    p_ = std::make_unique_for_overwrite<unsigned char[]>(n * sizeof(T));
    n_ = n;
  }
  T* data() { return reinterpret_cast<T*>(p_.get()); }
  const T* data() const { return reinterpret_cast<const T*>(p_.get()); }
  T* begin() { return data(); }
  T& operator[](std::size_t i) { return data()[i]; }

 private:
  std::unique_ptr<unsigned char[]> p_;
  std::size_t n_ = 0;
};

// Runs tf(in, out) over every line along an axis ([outer, len, inner] blocks, see
// blocks_around): `in` holds the line's first `keep` values zero-padded to `in_len` (read in
// place when ReadInPlace, the lines are contiguous and already that long; else gathered into
// the scratch `li`, which tf may then modify), and tf writes `out_len` values to `out`
// (the result's line itself when contiguous, else the scratch `lo`, then scattered).
// A real source S read into complex scratch A is converted as it is gathered (never read in place).
template <bool ReadInPlace, class S, class A, class B, class TF>
void each_line(const S* src, B* dst, const AxisBlocks& b, Index keep, Index in_len, Index out_len, Scratch<A>& li,
               Scratch<B>& lo, TF&& tf) {
  constexpr bool kInPlace = ReadInPlace && std::is_same_v<S, A>;
  const bool read_direct = kInPlace && b.inner == 1 && b.len == in_len;
  const bool write_direct = b.inner == 1;
  if (!read_direct && li.size() < static_cast<std::size_t>(in_len)) li.resize(static_cast<std::size_t>(in_len));
  if (!write_direct && lo.size() < static_cast<std::size_t>(out_len)) lo.resize(static_cast<std::size_t>(out_len));
  for (Index o = 0; o < b.outer; ++o) {
    for (Index i = 0; i < b.inner; ++i) {
      const S* s = src + o * b.len * b.inner + i;
      B* d = dst + o * out_len * b.inner + i;
      B* out = write_direct ? d : lo.data();
      auto gathered = [&] {
        for (Index j = 0; j < keep; ++j) li[j] = A(s[j * b.inner]);
        std::fill(li.begin() + keep, li.begin() + in_len, A(0));
        return li.data();
      };
      if constexpr (kInPlace)
        tf(read_direct ? s : static_cast<const A*>(gathered()), out);
      else if constexpr (ReadInPlace)
        tf(static_cast<const A*>(gathered()), out);
      else
        tf(gathered(), out);
      if (!write_direct)
        for (Index j = 0; j < out_len; ++j) d[j * b.inner] = lo[j];
    }
  }
}

// A transform of length 1, whatever its direction, is a copy of each line's first value
// (zero for empty lines), converted to the destination's type (a complex value's real
// part where that is real: the imaginary part of bin 0 is ignored by a Hermitian inverse).
template <class D, class S>
D point_value(S v) {
  if constexpr (std::is_floating_point_v<D> && !std::is_floating_point_v<S>)
    return v.real();
  else
    return D(v);
}
template <class S, class D>
void first_points(const S* src, D* dst, const AxisBlocks& b) {
  if (b.len == 0) {
    std::fill(dst, dst + b.outer * b.inner, D(0));
    return;
  }
  const Index step = b.len * b.inner;
  if (b.inner == 1) {
    for (Index o = 0; o < b.outer; ++o) dst[o] = point_value<D>(src[o * step]);
    return;
  }
  for (Index o = 0; o < b.outer; ++o)
    for (Index i = 0; i < b.inner; ++i) dst[o * b.inner + i] = point_value<D>(src[o * step + i]);
}

// The transforms write into a destination the caller provides (the result array itself
// for the last axis, so no final copy) and keep their per-line scratch buffers between
// axes; a length-1 transform is a copy and touches neither Eigen nor the scratch.
template <class R>
struct Fft {
  using C = std::complex<R>;
  std::optional<Eigen::FFT<R>> plan;  // made on the first transform longer than 1
  Scratch<C> cline, cres;
  Scratch<R> rline, rres;
  // Scaling is applied once, at the end; real forward transforms produce only the n/2+1
  // bins kept (HalfSpectrum skips mirroring the rest; the pointer overloads used here
  // read no other flag).
  Eigen::FFT<R>& fft() {
    if (!plan) {
      plan.emplace();
      plan->SetFlag(Eigen::FFT<R>::Unscaled);
      plan->SetFlag(Eigen::FFT<R>::HalfSpectrum);
    }
    return *plan;
  }

  // Complex transform of length n along axis ax of src (shape `shape`, updated to the
  // result's); dst holds the result (outer * n * inner elements). A real src (S = R) is
  // converted line by line as it is read.
  template <class S>
  void c2c(const S* src, C* dst, Shape& shape, Index ax, Index n, bool inverse) {
    const AxisBlocks b = blocks_around(shape, ax);
    shape[static_cast<std::size_t>(ax)] = n;
    c2c_lines(src, dst, b, n, inverse);
  }
  // The same on the lines of an input seen as [outer, len, inner] blocks.
  template <class S>
  void c2c_lines(const S* src, C* dst, const AxisBlocks& b, Index n, bool inverse) {
    if (b.outer * n * b.inner == 0) return;
    const Index keep = std::min(b.len, n);
    if (n == 1) return first_points(src, dst, b);
    Eigen::FFT<R>& f = fft();
    each_line<true>(src, dst, b, keep, n, n, cline, cres, [&](const C* in, C* out) {
      if (inverse)
        f.inv(out, in, n);
      else
        f.fwd(out, in, n);
    });
  }

  // Real-to-complex transform of length n along ax: keeps the n/2+1 non-negative bins.
  void r2c(const R* src, C* dst, Shape& shape, Index ax, Index n) {
    const AxisBlocks b = blocks_around(shape, ax);
    shape[static_cast<std::size_t>(ax)] = n / 2 + 1;
    r2c_lines(src, dst, b, n);
  }
  void r2c_lines(const R* src, C* dst, const AxisBlocks& b, Index n) {
    const Index nh = n / 2 + 1;
    if (b.outer * nh * b.inner == 0) return;
    const Index keep = std::min(b.len, n);
    if (n == 1) return first_points(src, dst, b);
    Eigen::FFT<R>& f = fft();
    each_line<true>(src, dst, b, keep, n, nh, rline, cres, [&](const R* in, C* out) { f.fwd(out, in, n); });
  }

  // Complex-to-real (Hermitian) inverse transform with n output points along ax: reads
  // the first n/2+1 bins (zero-padded when fewer); imaginary parts of the bins that must
  // be real (0 and n/2) are ignored, as numpy's irfft does. For n a multiple of 4 Eigen's
  // kissfft reads only the real parts of those two bins (its half-length packing starts
  // from bin 0's and bin n/2's real parts), so contiguous full-length lines are read in
  // place; other lengths go through the generic complex inverse, whose rounding the
  // imaginary parts would touch, and are read from a copy with those parts zeroed.
  void c2r(const C* src, R* dst, Shape& shape, Index ax, Index n) {
    const AxisBlocks b = blocks_around(shape, ax);
    shape[static_cast<std::size_t>(ax)] = n;
    c2r_lines(src, dst, b, n);
  }
  void c2r_lines(const C* src, R* dst, const AxisBlocks& b, Index n) {
    const Index nh = n / 2 + 1;
    if (b.outer * n * b.inner == 0) return;
    const Index keep = std::min(b.len, nh);
    if (n == 1) return first_points(src, dst, b);
    Eigen::FFT<R>& f = fft();
    if (n % 4 == 0) {
      each_line<true>(src, dst, b, keep, nh, n, cline, rres, [&](const C* in, R* out) { f.inv(out, in, n); });
      return;
    }
    each_line<false>(src, dst, b, keep, nh, n, cline, rres, [&](C* in, R* out) {
      in[0] = C(in[0].real(), 0);
      if (n % 2 == 0) in[nh - 1] = C(in[nh - 1].real(), 0);
      f.inv(out, in, n);
    });
  }
};

// The overall scale factor of the transform over all listed axes.
double norm_scale(AttrsRef a, bool inverse) {
  const auto& at = a.get<attr::fft>();
  const std::int64_t norm = at.norm;
  double scale = 1;
  for (auto n : at.lengths) {
    const double dn = static_cast<double>(n);
    if (norm == 1)
      scale /= std::sqrt(dn);
    else if ((norm == 2 && !inverse) || (norm == 0 && inverse))
      scale /= dn;
  }
  return scale;
}

// Calls f(R{}) with R = float or double as the precision of dtype d (complex or real).
template <class F>
void visit_precision(const char* op, DType d, const Array& x, F&& f) {
  if (d == float32 || d == complex64)
    f(float{});
  else if (d == float64 || d == complex128)
    f(double{});
  else
    throw TypeError(P(op) + "unsupported dtype " + dtype_name(d) + " for input of shape " + x.shape().str() +
                    " and dtype " + dtype_name(x.dtype()) + " (backend xtensor)");
}

// The result array of a transform: its shape is what dispatch inferred from the same
// attributes (the input's, with each listed axis's length changed); the dtype is checked.
template <class T>
T* result_one_axis(const char* op, const OutSpec& spec, Array* out) {
  if (dtype_v<T> != spec.dtype)
    throw Error(P(op) + "internal error: computed dtype " + dtype_name(dtype_v<T>) + ", expected " +
                dtype_name(spec.dtype) + " (backend xtensor)");
  out[0] = alloc(spec.shape, spec.dtype);
  return ptr<T>(out[0]);
}
// The same for the last transform of several, whose computed shape is checked as well.
template <class T>
T* result(const char* op, const Shape& shape, const OutSpec& spec, Array* out) {
  if (shape != spec.shape)
    throw Error(P(op) + "internal error: computed shape " + shape.str() + ", expected " + spec.shape.str() +
                " (backend xtensor)");
  return result_one_axis<T>(op, spec, out);
}
template <class T>
void scale_by(T* p, std::int64_t n, double scale) {
  if (scale == 1) return;
  const real_t<T> s = static_cast<real_t<T>>(scale);
  for (std::int64_t i = 0; i < n; ++i) p[i] *= s;
}
// A transform over one axis (the 1-d functions), from src (x0's data, or its converted
// copy) straight into the result array: a copy for length 1, with no FFT object made, else
// lines(f, src, dst, blocks) with a fresh Fft<R>; then the norm's scaling.
template <class R, class D, class S, class Lines>
void one_axis_into(const char* op, const S* src, const Array& x0, AttrsRef a, const OutSpec& spec, Array* out,
                   bool inverse, Lines&& lines) {
  D* dst = result_one_axis<D>(op, spec, out);
  const auto& at = a.get<attr::fft>();
  const AxisBlocks b = blocks_around(x0.shape(), at.axes[0]);
  if (at.lengths[0] == 1) {
    first_points(src, dst, b);
  } else {
    Fft<R> f;
    lines(f, src, dst, b);
  }
  scale_by(dst, out[0].size(), norm_scale(a, inverse));
}
// Shape after the transform over axis ax with m points.
Shape after(Shape s, Index ax, Index m) {
  s[static_cast<std::size_t>(ax)] = m;
  return s;
}
// Complex transforms over axes [from, to) of the fft attributes' axes; the last one (when
// `last`) writes the result array. Intermediates alternate between two buffers.
// A real source (S = R, the input itself) is read only by the first transform.
template <class R, class S>
const std::complex<R>* c2c_steps(const char* op, Fft<R>& f, const S* src0, Shape& shape, AttrsRef a,
                                 std::size_t from, std::size_t to, bool inverse, bool last, const OutSpec& spec,
                                 Array* out, Scratch<std::complex<R>>* bufs) {
  using C = std::complex<R>;
  const auto& at = a.get<attr::fft>();
  const C* src = nullptr;
  if constexpr (std::is_same_v<S, C>) src = src0;
  for (std::size_t i = from; i < to; ++i) {
    const Shape next = after(shape, at.axes[i], at.lengths[i]);
    C* dst;
    if (last && i + 1 == to) {
      dst = result<C>(op, next, spec, out);
    } else {
      Scratch<C>& b = src && src == bufs[0].data() ? bufs[1] : bufs[0];
      b.resize(static_cast<std::size_t>(next.numel()));
      dst = b.data();
    }
    if (std::is_same_v<S, C> || i > from)
      f.c2c(src, dst, shape, at.axes[i], at.lengths[i], inverse);
    else
      f.c2c(src0, dst, shape, at.axes[i], at.lengths[i], inverse);
    src = dst;
  }
  return src;
}

}  // namespace

XT_KERNEL(fft_c2c) {
  const Array& x0 = in[0];
  const auto& at = a.get<attr::fft>();
  const bool inverse = at.inverse;
  visit_precision("fft_c2c", spec[0].dtype, x0, [&](auto r) {
    using R = decltype(r);
    using C = std::complex<R>;
    if (at.axes.size() == 1) {  // fft, ifft
      auto lines = [&](Fft<R>& f, const auto* src, C* dst, const AxisBlocks& b) {
        f.c2c_lines(src, dst, b, at.lengths[0], inverse);
      };
      if (x0.dtype() == dtype_v<R>) {
        one_axis_into<R, C>("fft_c2c", ptr<R>(x0), x0, a, spec[0], out, inverse, lines);
      } else {
        const As x_as(x0, dtype_v<C>);
        one_axis_into<R, C>("fft_c2c", ptr<C>(*x_as), x0, a, spec[0], out, inverse, lines);
      }
      return;
    }
    Fft<R> f;
    Shape shape = x0.shape();
    Scratch<C> bufs[2];
    if (x0.dtype() == dtype_v<R>) {  // a real input of this precision: converted as the first transform reads it
      c2c_steps<R>("fft_c2c", f, ptr<R>(x0), shape, a, 0, at.axes.size(), inverse, true, spec[0], out, bufs);
    } else {
      const As x_as(x0, dtype_v<C>);
      c2c_steps<R>("fft_c2c", f, ptr<C>(*x_as), shape, a, 0, at.axes.size(), inverse, true, spec[0], out, bufs);
    }
    scale_by(ptr<C>(out[0]), out[0].size(), norm_scale(a, inverse));
  });
}

XT_KERNEL(fft_r2c) {
  const Array& x0 = in[0];
  const auto& at = a.get<attr::fft>();
  visit_precision("fft_r2c", spec[0].dtype, x0, [&](auto r) {
    using R = decltype(r);
    using C = std::complex<R>;
    if (is_complex(x0.dtype()))
      throw TypeError(P("fft_r2c") + "expects a real input, got dtype " + dtype_name(x0.dtype()) + " with shape " +
                      x0.shape().str() + " (backend xtensor)");
    const As x_as(x0, dtype_v<R>);
    const std::size_t last = at.axes.size() - 1;
    if (last == 0) {  // rfft
      one_axis_into<R, C>("fft_r2c", ptr<R>(*x_as), x0, a, spec[0], out, false,
                          [&](Fft<R>& f, const R* src, C* dst, const AxisBlocks& b) { f.r2c_lines(src, dst, b, at.lengths[0]); });
      return;
    }
    Fft<R> f;
    Shape shape = (*x_as).shape();
    // numpy's rfftn: a real transform over the last listed axis, then complex ones.
    const Index nh = at.lengths[last] / 2 + 1;
    Scratch<C> bufs[2];
    bufs[0].resize(static_cast<std::size_t>(after(shape, at.axes[last], nh).numel()));
    C* dst = bufs[0].data();
    f.r2c(ptr<R>(*x_as), dst, shape, at.axes[last], at.lengths[last]);
    c2c_steps<R>("fft_r2c", f, dst, shape, a, 0, last, false, true, spec[0], out, bufs);
    scale_by(ptr<C>(out[0]), out[0].size(), norm_scale(a, false));
  });
}

XT_KERNEL(fft_c2r) {
  const Array& x0 = in[0];
  const auto& at = a.get<attr::fft>();
  visit_precision("fft_c2r", spec[0].dtype, x0, [&](auto r) {
    using R = decltype(r);
    using C = std::complex<R>;
    const As x_as(x0, dtype_v<C>);
    const std::size_t last = at.axes.size() - 1;
    if (last == 0) {  // irfft, hfft
      one_axis_into<R, R>("fft_c2r", ptr<C>(*x_as), x0, a, spec[0], out, true,
                          [&](Fft<R>& f, const C* src, R* dst, const AxisBlocks& b) { f.c2r_lines(src, dst, b, at.lengths[0]); });
      return;
    }
    Fft<R> f;
    Shape shape = (*x_as).shape();
    // numpy's irfftn: complex inverse transforms over all but the last listed axis, then a
    // Hermitian complex-to-real one over the last.
    Scratch<C> bufs[2];
    const C* src = c2c_steps<R>("fft_c2r", f, ptr<C>(*x_as), shape, a, 0, last, true, false, spec[0], out, bufs);
    R* dst = result<R>("fft_c2r", after(shape, at.axes[last], at.lengths[last]), spec[0], out);
    f.c2r(src, dst, shape, at.axes[last], at.lengths[last]);
    scale_by(dst, out[0].size(), norm_scale(a, true));
  });
}

}  // namespace ivy::xtensor_backend

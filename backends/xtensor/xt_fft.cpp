// xtensor backend: n-dimensional FFTs (numpy.fft fftn / ifftn / rfftn / irfftn semantics)
// built from Eigen's FFT module (kissfft): 1-D transforms applied along each axis in turn.
//
// Attrs: axes = normalized axes, ints = signal length per axis (each axis is zero-padded
// or truncated to it before its transform), i0 = norm (0 backward, 1 ortho, 2 forward),
// b0 (fft_c2c) = inverse.
#include <unsupported/Eigen/FFT>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "xt_common.hpp"

namespace ivy::xtb {
namespace {

using Index = std::int64_t;
using Dimv = std::vector<Index>;

std::string P(const char* op) { return std::string("[") + op + "] "; }

// outer * len * inner = the number of elements; len = shape[ax].
void split(const Dimv& shape, Index ax, Index& outer, Index& len, Index& inner) {
  outer = 1;
  inner = 1;
  for (Index i = 0; i < ax; ++i) outer *= shape[static_cast<std::size_t>(i)];
  len = shape[static_cast<std::size_t>(ax)];
  for (std::size_t i = static_cast<std::size_t>(ax) + 1; i < shape.size(); ++i) inner *= shape[i];
}

template <class R>
struct Fft {
  using C = std::complex<R>;
  Eigen::FFT<R> fft;
  Fft() { fft.SetFlag(Eigen::FFT<R>::Unscaled); }  // scaling is applied once, at the end

  // Complex transform of length n along axis ax of src (shape `shape`, which is updated).
  std::vector<C> c2c(const C* src, Dimv& shape, Index ax, Index n, bool inverse) {
    Index outer, len, inner;
    split(shape, ax, outer, len, inner);
    std::vector<C> dst(static_cast<std::size_t>(outer * n * inner));
    shape[static_cast<std::size_t>(ax)] = n;
    if (dst.empty()) return dst;
    const Index keep = std::min(len, n);
    std::vector<C> line(static_cast<std::size_t>(n)), res(static_cast<std::size_t>(n));
    for (Index o = 0; o < outer; ++o) {
      for (Index i = 0; i < inner; ++i) {
        const C* s = src + o * len * inner + i;
        for (Index j = 0; j < keep; ++j) line[j] = s[j * inner];
        std::fill(line.begin() + keep, line.end(), C(0));
        if (n == 1)
          res[0] = line[0];
        else if (inverse)
          fft.inv(res.data(), line.data(), n);
        else
          fft.fwd(res.data(), line.data(), n);
        C* d = dst.data() + o * n * inner + i;
        for (Index j = 0; j < n; ++j) d[j * inner] = res[j];
      }
    }
    return dst;
  }

  // Real-to-complex transform of length n along ax: keeps the n/2+1 non-negative bins.
  std::vector<C> r2c(const R* src, Dimv& shape, Index ax, Index n) {
    Index outer, len, inner;
    split(shape, ax, outer, len, inner);
    const Index nh = n / 2 + 1;
    std::vector<C> dst(static_cast<std::size_t>(outer * nh * inner));
    shape[static_cast<std::size_t>(ax)] = nh;
    if (dst.empty()) return dst;
    const Index keep = std::min(len, n);
    std::vector<R> line(static_cast<std::size_t>(n));
    std::vector<C> res(static_cast<std::size_t>(n));  // room for the full spectrum
    for (Index o = 0; o < outer; ++o) {
      for (Index i = 0; i < inner; ++i) {
        const R* s = src + o * len * inner + i;
        for (Index j = 0; j < keep; ++j) line[j] = s[j * inner];
        std::fill(line.begin() + keep, line.end(), R(0));
        if (n == 1)
          res[0] = C(line[0], 0);
        else
          fft.fwd(res.data(), line.data(), n);
        C* d = dst.data() + o * nh * inner + i;
        for (Index j = 0; j < nh; ++j) d[j * inner] = res[j];
      }
    }
    return dst;
  }

  // Complex-to-real (Hermitian) inverse transform with n output points along ax: reads
  // the first n/2+1 bins (zero-padded when fewer); imaginary parts of the bins that must
  // be real (0 and n/2) are ignored, as numpy's irfft does.
  std::vector<R> c2r(const C* src, Dimv& shape, Index ax, Index n) {
    Index outer, len, inner;
    split(shape, ax, outer, len, inner);
    const Index nh = n / 2 + 1;
    std::vector<R> dst(static_cast<std::size_t>(outer * n * inner));
    shape[static_cast<std::size_t>(ax)] = n;
    if (dst.empty()) return dst;
    const Index keep = std::min(len, nh);
    std::vector<C> line(static_cast<std::size_t>(n));
    std::vector<R> res(static_cast<std::size_t>(n));
    for (Index o = 0; o < outer; ++o) {
      for (Index i = 0; i < inner; ++i) {
        const C* s = src + o * len * inner + i;
        for (Index j = 0; j < keep; ++j) line[j] = s[j * inner];
        std::fill(line.begin() + keep, line.begin() + nh, C(0));
        line[0] = C(line[0].real(), 0);
        if (n % 2 == 0) line[nh - 1] = C(line[nh - 1].real(), 0);
        if (n == 1)
          res[0] = line[0].real();
        else
          fft.inv(res.data(), line.data(), n);
        R* d = dst.data() + o * n * inner + i;
        for (Index j = 0; j < n; ++j) d[j * inner] = res[j];
      }
    }
    return dst;
  }
};

// The overall scale factor of the transform over all listed axes.
double norm_scale(const Attrs& a, bool inverse) {
  double scale = 1;
  for (auto n : a.ints) {
    const double dn = static_cast<double>(n);
    if (a.i0 == 1)
      scale /= std::sqrt(dn);
    else if ((a.i0 == 2 && !inverse) || (a.i0 == 0 && inverse))
      scale /= dn;
  }
  return scale;
}

void check_attrs(const char* op, const Array& x, const Attrs& a) {
  if (a.i0 < 0 || a.i0 > 2)
    throw ValueError(P(op) + "invalid norm code " + std::to_string(a.i0) +
                     " (0 backward, 1 ortho, 2 forward) for input of shape " + x.shape().str() + " (backend xtensor)");
  if (a.axes.empty() || a.axes.size() != a.ints.size())
    throw ValueError(P(op) + "axes " + a.axes.str() + " and lengths " + a.ints.str() +
                     " must be non-empty and match, input shape " + x.shape().str() + " (backend xtensor)");
  for (std::size_t i = 0; i < a.axes.size(); ++i) {
    if (a.axes[i] < 0 || a.axes[i] >= x.ndim())
      throw IndexError(P(op) + "axis " + std::to_string(a.axes[i]) + " is out of range for input of shape " +
                       x.shape().str() + " (backend xtensor)");
    if (a.ints[i] < 1)
      throw ValueError(P(op) + "invalid number of data points " + std::to_string(a.ints[i]) + " for input of shape " +
                       x.shape().str() + " (backend xtensor)");
  }
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

template <class T>
Array to_array(const char* op, std::vector<T>& buf, const Dimv& shape, const OutSpec& spec, double scale) {
  if (Shape(shape.begin(), shape.end()) != spec.shape || dtype_v<T> != spec.dtype)
    throw Error(P(op) + "internal error: computed shape " + Shape(shape.begin(), shape.end()).str() + " and dtype " +
                dtype_name(dtype_v<T>) + ", expected " + spec.shape.str() + " and " + dtype_name(spec.dtype) +
                " (backend xtensor)");
  Array out = alloc(spec.shape, spec.dtype);
  if (scale != 1) {
    const real_t<T> s = static_cast<real_t<T>>(scale);
    for (auto& v : buf) v *= s;
  }
  if (!buf.empty()) std::memcpy(raw(out), buf.data(), buf.size() * sizeof(T));
  return out;
}

Dimv dims_of(const Array& x) { return Dimv(x.shape().begin(), x.shape().end()); }

XT_KERNEL(fft_c2c) {
  const Array& x0 = in[0];
  check_attrs("fft_c2c", x0, a);
  visit_precision("fft_c2c", spec[0].dtype, x0, [&](auto r) {
    using R = decltype(r);
    using C = std::complex<R>;
    Array x = cast_if(x0, dtype_v<C>);
    Dimv shape = dims_of(x);
    Fft<R> f;
    std::vector<C> buf;
    for (std::size_t i = 0; i < a.axes.size(); ++i)
      buf = f.c2c(i == 0 ? ptr<C>(x) : buf.data(), shape, a.axes[i], a.ints[i], a.b0);
    out[0] = to_array("fft_c2c", buf, shape, spec[0], norm_scale(a, a.b0));
  });
}

XT_KERNEL(fft_r2c) {
  const Array& x0 = in[0];
  check_attrs("fft_r2c", x0, a);
  visit_precision("fft_r2c", spec[0].dtype, x0, [&](auto r) {
    using R = decltype(r);
    using C = std::complex<R>;
    if (is_complex(x0.dtype()))
      throw TypeError(P("fft_r2c") + "expects a real input, got dtype " + dtype_name(x0.dtype()) + " with shape " +
                      x0.shape().str() + " (backend xtensor)");
    Array x = cast_if(x0, dtype_v<R>);
    Dimv shape = dims_of(x);
    Fft<R> f;
    const std::size_t last = a.axes.size() - 1;
    // numpy's rfftn: a real transform over the last listed axis, then complex ones.
    std::vector<C> buf = f.r2c(ptr<R>(x), shape, a.axes[last], a.ints[last]);
    for (std::size_t i = 0; i < last; ++i) buf = f.c2c(buf.data(), shape, a.axes[i], a.ints[i], false);
    out[0] = to_array("fft_r2c", buf, shape, spec[0], norm_scale(a, false));
  });
}

XT_KERNEL(fft_c2r) {
  const Array& x0 = in[0];
  check_attrs("fft_c2r", x0, a);
  visit_precision("fft_c2r", spec[0].dtype, x0, [&](auto r) {
    using R = decltype(r);
    using C = std::complex<R>;
    Array x = cast_if(x0, dtype_v<C>);
    Dimv shape = dims_of(x);
    Fft<R> f;
    const std::size_t last = a.axes.size() - 1;
    // numpy's irfftn: complex inverse transforms over all but the last listed axis, then a
    // Hermitian complex-to-real one over the last.
    std::vector<C> buf;
    const C* src = ptr<C>(x);
    for (std::size_t i = 0; i < last; ++i) {
      buf = f.c2c(src, shape, a.axes[i], a.ints[i], true);
      src = buf.data();
    }
    std::vector<R> res = f.c2r(src, shape, a.axes[last], a.ints[last]);
    out[0] = to_array("fft_c2r", res, shape, spec[0], norm_scale(a, true));
  });
}

}  // namespace

void register_fft(BackendImpl& b) {
  XT_REG(b, fft_c2c);
  XT_REG(b, fft_r2c);
  XT_REG(b, fft_c2r);
}

}  // namespace ivy::xtb

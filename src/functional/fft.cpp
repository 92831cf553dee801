// The fft extension.
#include "common.hpp"

namespace ivy::fft {

using detail::P;

namespace {
std::int64_t norm_code(std::string_view norm, const char* op) {
  if (norm == "backward") return 0;
  if (norm == "ortho") return 1;
  if (norm == "forward") return 2;
  throw ValueError(P(op) + "norm must be 'backward', 'ortho' or 'forward', got '" + std::string(norm) + "'");
}
std::string_view swap_norm(std::string_view norm) {
  if (norm == "backward") return "forward";
  if (norm == "forward") return "backward";
  return norm;
}
void need_floating(const Array& x, const char* op, bool real_only) {
  detail::need_defined(x, op);
  if (real_only ? !is_real_floating(x.dtype()) : !is_floating(x.dtype()))
    throw TypeError(P(op) + "expects a " + (real_only ? "real " : "") + "floating-point array, got " + dtype_name(x.dtype()) +
                    " (backend " + x.backend().name() + ")");
  if (x.ndim() == 0) throw ValueError(P(op) + "needs an array of rank >= 1");
}
// axes / lengths for the n-d functions; `last_from` computes a default for the last axis.
void nd_attrs(const Array& x, const std::optional<Dims>& s, const std::optional<Dims>& axes, const char* op, attr::fft& v,
              bool c2r) {
  Dims ax;
  if (axes) {
    ax = detail::norm_axes(*axes, x.ndim(), op, true);
    if (s && s->size() != ax.size())
      throw ValueError(P(op) + "s " + s->str() + " and axes " + axes->str() + " must have the same length");
  } else {
    std::int64_t k = s ? static_cast<std::int64_t>(s->size()) : x.ndim();
    if (k > x.ndim()) throw ValueError(P(op) + "s " + s->str() + " has more entries than x has axes " + x.shape().str());
    for (std::int64_t i = x.ndim() - k; i < x.ndim(); ++i) ax.push_back(i);
  }
  if (ax.empty()) throw ValueError(P(op) + "needs at least one axis");
  Dims len;
  for (std::size_t i = 0; i < ax.size(); ++i) {
    std::int64_t n = s && (*s)[i] != -1 ? (*s)[i] : x.shape()[ax[i]];
    if (c2r && i + 1 == ax.size() && !(s && (*s)[i] != -1)) n = 2 * (x.shape()[ax[i]] - 1);
    if (n < 1) throw ValueError(P(op) + "invalid number of data points " + std::to_string(n) + " along axis " + std::to_string(ax[i]));
    len.push_back(n);
  }
  v.axes = ax;
  v.lengths = len;
}
Array one_axis(OpId op, const Array& x, std::optional<std::int64_t> n, std::int64_t axis, std::string_view norm,
               const char* name, bool inverse, bool c2r) {
  std::int64_t ax = detail::norm_axis(axis, x.ndim(), name);
  std::int64_t len = n ? *n : (c2r ? 2 * (x.shape()[ax] - 1) : x.shape()[ax]);
  if (len < 1) throw ValueError(P(name) + "invalid number of data points " + std::to_string(len));
  attr::fft v;
  v.axes = Dims{ax};
  v.lengths = Dims{len};
  v.norm = norm_code(norm, name);
  v.inverse = inverse;
  return dispatch(op, x, v);
}
}  // namespace

Array fft(const Array& x, std::optional<std::int64_t> n, std::int64_t axis, std::string_view norm) {
  need_floating(x, "fft", false);
  return one_axis(OpId::fft_c2c, x, n, axis, norm, "fft", false, false);
}
Array ifft(const Array& x, std::optional<std::int64_t> n, std::int64_t axis, std::string_view norm) {
  need_floating(x, "ifft", false);
  return one_axis(OpId::fft_c2c, x, n, axis, norm, "ifft", true, false);
}
Array fftn(const Array& x, const std::optional<Dims>& s, const std::optional<Dims>& axes, std::string_view norm) {
  need_floating(x, "fftn", false);
  attr::fft v;
  nd_attrs(x, s, axes, "fftn", v, false);
  v.norm = norm_code(norm, "fftn");
  return dispatch(OpId::fft_c2c, x, v);
}
Array ifftn(const Array& x, const std::optional<Dims>& s, const std::optional<Dims>& axes, std::string_view norm) {
  need_floating(x, "ifftn", false);
  attr::fft v;
  nd_attrs(x, s, axes, "ifftn", v, false);
  v.norm = norm_code(norm, "ifftn");
  v.inverse = true;
  return dispatch(OpId::fft_c2c, x, v);
}
Array rfft(const Array& x, std::optional<std::int64_t> n, std::int64_t axis, std::string_view norm) {
  need_floating(x, "rfft", true);
  return one_axis(OpId::fft_r2c, x, n, axis, norm, "rfft", false, false);
}
Array irfft(const Array& x, std::optional<std::int64_t> n, std::int64_t axis, std::string_view norm) {
  need_floating(x, "irfft", false);
  return one_axis(OpId::fft_c2r, x, n, axis, norm, "irfft", true, true);
}
Array rfftn(const Array& x, const std::optional<Dims>& s, const std::optional<Dims>& axes, std::string_view norm) {
  need_floating(x, "rfftn", true);
  attr::fft v;
  nd_attrs(x, s, axes, "rfftn", v, false);
  v.norm = norm_code(norm, "rfftn");
  return dispatch(OpId::fft_r2c, x, v);
}
Array irfftn(const Array& x, const std::optional<Dims>& s, const std::optional<Dims>& axes, std::string_view norm) {
  need_floating(x, "irfftn", false);
  attr::fft v;
  nd_attrs(x, s, axes, "irfftn", v, true);
  v.norm = norm_code(norm, "irfftn");
  v.inverse = true;
  return dispatch(OpId::fft_c2r, x, v);
}
Array hfft(const Array& x, std::optional<std::int64_t> n, std::int64_t axis, std::string_view norm) {
  need_floating(x, "hfft", false);
  norm_code(norm, "hfft");
  Array c = is_complex(x.dtype()) ? conj(x) : x;
  return one_axis(OpId::fft_c2r, c, n, axis, swap_norm(norm), "hfft", true, true);
}
Array ihfft(const Array& x, std::optional<std::int64_t> n, std::int64_t axis, std::string_view norm) {
  need_floating(x, "ihfft", true);
  norm_code(norm, "ihfft");
  return conj(one_axis(OpId::fft_r2c, x, n, axis, swap_norm(norm), "ihfft", false, false));
}
Array fftfreq(std::int64_t n, double d, std::optional<DType> dtype, Device device, Backend backend) {
  if (n < 1) throw ValueError(P("fftfreq") + "n must be >= 1, got " + std::to_string(n));
  if (d == 0) throw ValueError(P("fftfreq") + "d must not be zero");
  DType dt = dtype.value_or(default_float_dtype());
  if (!is_real_floating(dt)) throw TypeError(P("fftfreq") + "dtype must be real floating, got " + dtype_name(dt));
  std::vector<double> v(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) v[i] = static_cast<double>(i < (n + 1) / 2 ? i : i - n) / (d * static_cast<double>(n));
  return asarray(v, std::nullopt, dt, device, backend);
}
Array rfftfreq(std::int64_t n, double d, std::optional<DType> dtype, Device device, Backend backend) {
  if (n < 1) throw ValueError(P("rfftfreq") + "n must be >= 1, got " + std::to_string(n));
  if (d == 0) throw ValueError(P("rfftfreq") + "d must not be zero");
  DType dt = dtype.value_or(default_float_dtype());
  if (!is_real_floating(dt)) throw TypeError(P("rfftfreq") + "dtype must be real floating, got " + dtype_name(dt));
  std::vector<double> v(static_cast<std::size_t>(n / 2 + 1));
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<double>(i) / (d * static_cast<double>(n));
  return asarray(v, std::nullopt, dt, device, backend);
}
namespace {
Array shift(const Array& x, const AxisArg& axes, bool inverse, const char* op) {
  detail::need_defined(x, op);
  Dims ax;
  if (axes.has) ax = detail::norm_axes(axes.dims, x.ndim(), op, true);
  else
    for (std::int64_t i = 0; i < x.ndim(); ++i) ax.push_back(i);
  if (ax.empty()) return x;
  Dims sh;
  for (auto a : ax) {
    std::int64_t n = x.shape()[a];
    sh.push_back(inverse ? -(n / 2) : n / 2);
  }
  return roll(x, sh, ax);
}
}  // namespace
Array fftshift(const Array& x, const AxisArg& axes) { return shift(x, axes, false, "fftshift"); }
Array ifftshift(const Array& x, const AxisArg& axes) { return shift(x, axes, true, "ifftshift"); }

}  // namespace ivy::fft

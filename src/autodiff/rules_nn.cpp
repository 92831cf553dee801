// VJP and JVP rules of the neural-network primitives (conv, conv_transpose, conv_weight_grad,
// max_pool) and of scatter_add_flat.
//
// The three convolution primitives are one bilinear form <conv(x, w), y> read three ways:
// conv_transpose is conv's adjoint in x and conv_weight_grad its adjoint in w, so each one's
// derivatives are the other two, and derivatives of any order stay within the three.
#include "autodiff/rule_helpers.hpp"

namespace ivy::autodiff {
namespace {

// The spatial sizes of a channels-first array [N, C, *S] or a weight [O, C/groups, *K].
Dims spatial_of(const Array& x) {
  Dims d;
  for (std::int64_t i = 2; i < x.ndim(); ++i) d.push_back(x.shape()[i]);
  return d;
}
// The call's convolution attributes with `spatial` replaced.
attr::conv with_spatial(AttrsRef a, const Dims& spatial) {
  attr::conv r = a.get<attr::conv>();
  r.spatial = spatial;
  return r;
}
Array conv_call(const Array& x, const Array& w, AttrsRef a) {
  return dispatch(OpId::conv, {x, w}, with_spatial(a, Dims{}));
}
// conv's adjoint in x, to an input of spatial sizes `spatial`
Array conv_transpose_call(const Array& y, const Array& w, AttrsRef a, const Dims& spatial) {
  return dispatch(OpId::conv_transpose, {y, w}, with_spatial(a, spatial));
}
// conv's adjoint in w, to a kernel of spatial sizes `kernel`
Array conv_weight_grad_call(const Array& x, const Array& gy, AttrsRef a, const Dims& kernel) {
  return dispatch(OpId::conv_weight_grad, {x, gy}, with_spatial(a, kernel));
}
Array flat(const Array& x) { return reshape(x, Shape{x.size()}); }

}  // namespace

// ---------------------------------------------------------------- conv: y = conv(x, w)
IVY_VJP_READS(conv, kReadsAll, kReadsNone) {
  if (!c.cot[0].defined()) return;
  const Array &x = c.in[0], &w = c.in[1], &g = c.cot[0];
  if (c.want[0]) grads[0] = conv_transpose_call(g, w, c.attrs, spatial_of(x));
  if (c.want[1]) grads[1] = conv_weight_grad_call(x, g, c.attrs, spatial_of(w));
}
IVY_JVP(conv) {
  Array t;
  if (c.tan[0].defined()) t = conv_call(c.tan[0], c.in[1], c.attrs);
  if (c.tan[1].defined()) t = add_opt(t, conv_call(c.in[0], c.tan[1], c.attrs));
  out_tangents[0] = t;
}

// ---------------------------------------------------------------- conv_transpose: z = conv_x^T(y, w)
// <g, conv_x^T(y, w)> = <conv(g, w), y> = <w, conv_w^T(g, y)>
IVY_VJP_READS(conv_transpose, kReadsAll, kReadsNone) {
  if (!c.cot[0].defined()) return;
  const Array &y = c.in[0], &w = c.in[1], &g = c.cot[0];
  if (c.want[0]) grads[0] = conv_call(g, w, c.attrs);
  if (c.want[1]) grads[1] = conv_weight_grad_call(g, y, c.attrs, spatial_of(w));
}
IVY_JVP(conv_transpose) {
  Array t;
  if (c.tan[0].defined()) t = dispatch(c.op, {c.tan[0], c.in[1]}, c.attrs);
  if (c.tan[1].defined()) t = add_opt(t, dispatch(c.op, {c.in[0], c.tan[1]}, c.attrs));
  out_tangents[0] = t;
}

// ---------------------------------------------------------------- conv_weight_grad: h = conv_w^T(x, gy)
// <k, conv_w^T(x, gy)> = <conv(x, k), gy> = <x, conv_x^T(gy, k)>
IVY_VJP_READS(conv_weight_grad, kReadsAll, kReadsNone) {
  if (!c.cot[0].defined()) return;
  const Array &x = c.in[0], &gy = c.in[1], &k = c.cot[0];
  if (c.want[0]) grads[0] = conv_transpose_call(gy, k, c.attrs, spatial_of(x));
  if (c.want[1]) grads[1] = conv_call(x, k, c.attrs);
}
IVY_JVP(conv_weight_grad) {
  Array t;
  if (c.tan[0].defined()) t = dispatch(c.op, {c.tan[0], c.in[1]}, c.attrs);
  if (c.tan[1].defined()) t = add_opt(t, dispatch(c.op, {c.in[0], c.tan[1]}, c.attrs));
  out_tangents[0] = t;
}

// ---------------------------------------------------------------- max_pool
// The cotangent of each window's maximum goes to the position it came from (positions shared
// by overlapping windows add up); the maximum's tangent is the tangent at that position.
IVY_VJP_READS(max_pool, kReadsNone, kReadsSecond) {
  if (!c.want[0] || !c.cot[0].defined()) return;
  const Array &x = c.in[0], &g = c.cot[0];
  Array base = zeros(Shape{x.size()}, g.dtype(), g.device(), g.backend());
  grads[0] = reshape(dispatch(OpId::scatter_add_flat, {base, flat(c.out[1]), flat(g)}, AttrsRef()), x.shape());
}
IVY_JVP(max_pool) {
  if (!c.tan[0].defined()) return;
  out_tangents[0] = reshape(take(flat(c.tan[0]), flat(c.out[1]), 0), c.out[0].shape());
}

// ---------------------------------------------------------------- layer_norm
// Over the N normalized axes, with y = (x - mean) * rstd and g = dy:
//   dx = rstd * (g - mean(g) - y * mean(g * y)) + dmean / N - drstd * rstd^2 * y / N
// (d mean / dx = 1 / N; d rstd / dx = -rstd^3 (x - mean) / N = -rstd^2 y / N). It reads the
// outputs y and rstd, not x.
namespace {
Dims normalized_axes(AttrsRef a, std::int64_t ndim) {
  Dims axes;
  for (std::int64_t i = a.get<attr::layer_norm>().axis; i < ndim; ++i) axes.push_back(i);
  return axes;
}
}  // namespace
IVY_VJP_READS(layer_norm, kReadsNone, kReadsFirst | (std::uint64_t{1} << 2)) {
  if (!c.want[0]) return;
  const Array &y = c.out[0], &rstd = c.out[2];
  const Dims axes = normalized_axes(c.attrs, y.ndim());
  const double n = static_cast<double>(y.size()) / static_cast<double>(std::max<std::int64_t>(rstd.size(), 1));
  Array gx;
  if (c.cot[0].defined()) {
    const Array& g = c.cot[0];
    gx = rstd * (g - mean(g, axes, true) - y * mean(g * y, axes, true));
  }
  if (c.cot[1].defined()) {
    Array t = broadcast_to(c.cot[1] / n, y.shape());
    gx = gx.defined() ? gx + t : t;
  }
  if (c.cot[2].defined()) {
    Array t = -(c.cot[2] * rstd * rstd / n) * y;
    gx = gx.defined() ? gx + t : t;
  }
  if (gx.defined()) grads[0] = gx;
}
// With t = dx: dmean = mean(t), drstd = -rstd^2 mean(y t), dy = rstd (t - mean(t) - y mean(y t)).
IVY_JVP(layer_norm) {
  if (!c.tan[0].defined()) return;
  const Array &t = c.tan[0], &y = c.out[0], &rstd = c.out[2];
  const Dims axes = normalized_axes(c.attrs, y.ndim());
  const Array tm = mean(t, axes, true), m = mean(y * t, axes, true);
  out_tangents[0] = rstd * (t - tm - y * m);
  out_tangents[1] = tm;
  out_tangents[2] = -(rstd * rstd * m);
}

// ---------------------------------------------------------------- scatter_add_flat(x, pos, v)
// x's cotangent passes through; v[j] gets the cotangent at pos[j].
IVY_VJP_READS(scatter_add_flat, kReadsSecond, kReadsNone) {
  if (!c.cot[0].defined()) return;
  const Array& g = c.cot[0];
  if (c.want[0]) grads[0] = g;
  if (c.want[2]) grads[2] = take(flat(g), c.in[1], 0);
}
IVY_JVP(scatter_add_flat) {
  if (!is_floating(c.out[0].dtype())) return;
  Array tx = tan_or_zeros(c, 0);
  Array tv = c.tan[2].defined() ? c.tan[2] : zero_like0(tx);
  out_tangents[0] = dispatch(c.op, {tx, c.in[1], tv}, c.attrs);
}

}  // namespace ivy::autodiff

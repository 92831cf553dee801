// Statistical and utility functions.
#include "common.hpp"

namespace ivy {

using detail::norm_axes;
using detail::norm_axis;
using detail::P;

namespace {
// The attributes every reduction set has (axes, keepdims), in the set S.
template <class S>
S red_attrs(const Array& x, const AxisArg& axis, bool keepdims, const char* op) {
  detail::need_defined(x, op);
  S a;
  a.keepdims = keepdims;
  if (axis.has) a.axes = norm_axes(axis.dims, x.ndim(), op);
  return a;
}
Array cumulative(OpId op, const char* name, const Array& x, std::optional<std::int64_t> axis, std::optional<DType> dtype,
                 bool include_initial) {
  detail::need_defined(x, name);
  attr::cumulative v;
  if (!axis) {
    if (x.ndim() > 1)
      throw ValueError(P(name) + "axis is required for arrays of rank > 1, got shape " + x.shape().str());
    v.axis = 0;
  } else {
    v.axis = x.ndim() == 0 ? (*axis == 0 || *axis == -1 ? 0 : norm_axis(*axis, 0, name)) : norm_axis(*axis, x.ndim(), name);
  }
  v.dtype = dtype;
  v.include_initial = include_initial;
  return dispatch(op, x, v);
}
}  // namespace

Array cumulative_prod(const Array& x, std::optional<std::int64_t> axis, std::optional<DType> dtype, bool include_initial) {
  return cumulative(OpId::cumulative_prod, "cumulative_prod", x, axis, dtype, include_initial);
}
Array cumulative_sum(const Array& x, std::optional<std::int64_t> axis, std::optional<DType> dtype, bool include_initial) {
  return cumulative(OpId::cumulative_sum, "cumulative_sum", x, axis, dtype, include_initial);
}
Array max(const Array& x, const AxisArg& axis, bool keepdims) {
  return dispatch(OpId::max, x, red_attrs<attr::reduce>(x, axis, keepdims, "max"));
}
Array min(const Array& x, const AxisArg& axis, bool keepdims) {
  return dispatch(OpId::min, x, red_attrs<attr::reduce>(x, axis, keepdims, "min"));
}
Array mean(const Array& x, const AxisArg& axis, bool keepdims) {
  return dispatch(OpId::mean, x, red_attrs<attr::reduce>(x, axis, keepdims, "mean"));
}
Array prod(const Array& x, const AxisArg& axis, std::optional<DType> dtype, bool keepdims) {
  auto a = red_attrs<attr::reduce_acc>(x, axis, keepdims, "prod");
  a.dtype = dtype;
  return dispatch(OpId::prod, x, a);
}
Array sum(const Array& x, const AxisArg& axis, std::optional<DType> dtype, bool keepdims) {
  auto a = red_attrs<attr::reduce_acc>(x, axis, keepdims, "sum");
  a.dtype = dtype;
  return dispatch(OpId::sum, x, a);
}
Array std(const Array& x, const AxisArg& axis, double correction, bool keepdims) {
  auto a = red_attrs<attr::reduce_var>(x, axis, keepdims, "std");
  a.correction = correction;
  return dispatch(OpId::std, x, a);
}
Array var(const Array& x, const AxisArg& axis, double correction, bool keepdims) {
  auto a = red_attrs<attr::reduce_var>(x, axis, keepdims, "var");
  a.correction = correction;
  return dispatch(OpId::var, x, a);
}
Array all(const Array& x, const AxisArg& axis, bool keepdims) {
  return dispatch(OpId::all, x, red_attrs<attr::reduce>(x, axis, keepdims, "all"));
}
Array any(const Array& x, const AxisArg& axis, bool keepdims) {
  return dispatch(OpId::any, x, red_attrs<attr::reduce>(x, axis, keepdims, "any"));
}
Array diff(const Array& x, std::int64_t axis, std::int64_t n, const std::optional<Array>& prepend,
           const std::optional<Array>& append) {
  detail::need_defined(x, "diff");
  if (x.ndim() == 0) throw ValueError("[diff] needs an array of rank >= 1");
  if (n < 0) throw ValueError(P("diff") + "n must be >= 0, got " + std::to_string(n));
  std::int64_t ax = norm_axis(axis, x.ndim(), "diff");
  std::vector<Array> parts;
  auto check = [&](const Array& p, const char* what) {
    Shape ps = p.shape(), xs = x.shape();
    if (p.ndim() == x.ndim()) ps[ax] = xs[ax];
    if (!(ps == xs))
      throw ValueError(P("diff") + what + " of shape " + p.shape().str() + " must match x " + x.shape().str() +
                       " except along axis " + std::to_string(ax));
  };
  if (prepend) check(*prepend, "prepend"), parts.push_back(*prepend);
  parts.push_back(x);
  if (append) check(*append, "append"), parts.push_back(*append);
  Array y = parts.size() > 1 ? concat(parts, ax) : x;
  for (std::int64_t k = 0; k < n; ++k) {
    std::int64_t len = y.shape()[ax];
    if (len == 0) break;
    attr::slice h, l;
    for (std::int64_t d = 0; d < y.ndim(); ++d) {
      h.start.push_back(d == ax ? 1 : 0);
      h.stop.push_back(y.shape()[d]);
      h.step.push_back(1);
      l.start.push_back(0);
      l.stop.push_back(d == ax ? len - 1 : y.shape()[d]);
      l.step.push_back(1);
    }
    Array a = dispatch(OpId::strided_slice, y, h), b = dispatch(OpId::strided_slice, y, l);
    y = is_bool(y.dtype()) ? not_equal(a, b) : subtract(a, b);
  }
  return y;
}

}  // namespace ivy

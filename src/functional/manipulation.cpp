// Manipulation functions.
#include "common.hpp"

namespace ivy {

using detail::norm_axes;
using detail::norm_axis;
using detail::P;

std::vector<Array> broadcast_arrays(const std::vector<Array>& arrays) {
  std::vector<Shape> shapes;
  for (auto& a : arrays) {
    detail::need_defined(a, "broadcast_arrays");
    shapes.push_back(a.shape());
  }
  Shape s;
  for (auto& sh : shapes) s = broadcast_shapes(s, sh, "broadcast_arrays");
  std::vector<Array> out;
  for (auto& a : arrays) out.push_back(a.shape() == s ? a : broadcast_to(a, s));
  return out;
}
Shape broadcast_shapes(const std::vector<Shape>& shapes) {
  if (shapes.empty()) throw ValueError("[broadcast_shapes] needs at least one shape");
  return broadcast_shapes(std::span<const Shape>(shapes));
}
Array broadcast_to(const Array& x, const Shape& shape) {
  detail::need_defined(x, "broadcast_to");
  attr::broadcast_to v;
  v.shape = shape;
  return dispatch(OpId::broadcast_to, x, v);
}
Array concat(std::span<const Array> arrays, std::optional<std::int64_t> axis) {
  if (arrays.empty()) throw ValueError("[concat] needs at least one array");
  for (auto& x : arrays) detail::need_defined(x, "concat");
  attr::one_axis v;
  if (!axis) {
    std::vector<Array> flat;
    for (auto& x : arrays) flat.push_back(reshape(x, Shape{x.size()}));
    v.axis = 0;
    return dispatch(OpId::concat, std::span<const Array>(flat), v);
  }
  std::int64_t r = arrays[0].ndim();
  if (r == 0) throw ValueError("[concat] zero-dimensional arrays cannot be concatenated");
  v.axis = norm_axis(*axis, r, "concat");
  return dispatch(OpId::concat, std::span<const Array>(arrays), v);
}
Array expand_dims(const Array& x, const AxisArg& axis) {
  detail::need_defined(x, "expand_dims");
  Dims ax = axis.has ? axis.dims : Dims{0};
  std::int64_t r = x.ndim() + static_cast<std::int64_t>(ax.size());
  Dims n = norm_axes(ax, r, "expand_dims");
  Shape s;
  std::size_t src = 0;
  for (std::int64_t i = 0; i < r; ++i) {
    if (std::find(n.begin(), n.end(), i) != n.end()) s.push_back(1);
    else s.push_back(x.shape()[src++]);
  }
  return reshape(x, s);
}
Array flip(const Array& x, const AxisArg& axis) {
  detail::need_defined(x, "flip");
  attr::flip v;
  if (axis.has) {
    v.axes = norm_axes(axis.dims, x.ndim(), "flip");
  } else {
    for (std::int64_t i = 0; i < x.ndim(); ++i) v.axes.push_back(i);
  }
  return dispatch(OpId::flip, x, v);
}
Array moveaxis(const Array& x, const Dims& source, const Dims& destination) {
  detail::need_defined(x, "moveaxis");
  if (source.size() != destination.size())
    throw ValueError(P("moveaxis") + "source " + source.str() + " and destination " + destination.str() +
                     " must have the same length");
  Dims s = norm_axes(source, x.ndim(), "moveaxis", true), d = norm_axes(destination, x.ndim(), "moveaxis", true);
  std::vector<std::int64_t> order(static_cast<std::size_t>(x.ndim()), -1);
  for (std::size_t i = 0; i < s.size(); ++i) order[d[i]] = s[i];
  std::int64_t next = 0;
  for (auto& o : order) {
    if (o >= 0) continue;
    while (std::find(s.begin(), s.end(), next) != s.end()) ++next;
    o = next++;
  }
  return permute_dims(x, Dims(order.begin(), order.end()));
}
Array permute_dims(const Array& x, const Dims& axes) {
  detail::need_defined(x, "permute_dims");
  if (static_cast<std::int64_t>(axes.size()) != x.ndim())
    throw ValueError(P("permute_dims") + "axes " + axes.str() + " must name every axis of shape " + x.shape().str());
  attr::permute_dims v;
  v.axes = norm_axes(axes, x.ndim(), "permute_dims", true);
  return dispatch(OpId::permute_dims, x, v);
}
Array repeat(const Array& x, const Array& repeats, std::optional<std::int64_t> axis) {
  detail::need_defined(x, "repeat");
  detail::need_defined(repeats, "repeat");
  if (!is_integer(repeats.dtype()) || repeats.ndim() > 1)
    throw TypeError(P("repeat") + "repeats must be a 0-d or 1-d integer array, got " + dtype_name(repeats.dtype()) +
                    repeats.shape().str());
  auto r = repeats.to_vector<std::int64_t>();
  if (r.size() > static_cast<std::size_t>(kMaxRank)) {
    // more per-element counts than the primitive's attribute holds: the same result as a take
    // of each element's index, repeated (the counts are host values already)
    Array src = axis ? x : reshape(x, Shape{x.size()});
    const std::int64_t ax = axis ? norm_axis(*axis, x.ndim(), "repeat") : 0;
    if (static_cast<std::int64_t>(r.size()) != src.shape()[static_cast<std::size_t>(ax)])
      throw ValueError(P("repeat") + "got " + std::to_string(r.size()) + " repeats for an axis of length " +
                       std::to_string(src.shape()[static_cast<std::size_t>(ax)]) + " (shape " + x.shape().str() + ")");
    std::vector<std::int64_t> idx;
    for (std::size_t i = 0; i < r.size(); ++i) {
      if (r[i] < 0) throw ValueError(P("repeat") + "repeats must be non-negative, got " + std::to_string(r[i]));
      idx.insert(idx.end(), static_cast<std::size_t>(r[i]), static_cast<std::int64_t>(i));
    }
    Array index = asarray(idx.data(), int64, Shape{static_cast<std::int64_t>(idx.size())}, int64, x.device(), x.backend());
    return take(src, index, ax);
  }
  attr::repeat v;
  v.repeats = Dims(r.begin(), r.end());
  if (axis) v.axis = norm_axis(*axis, x.ndim(), "repeat");
  return dispatch(OpId::repeat, x, v);
}
Array repeat(const Array& x, std::int64_t repeats, std::optional<std::int64_t> axis) {
  detail::need_defined(x, "repeat");
  attr::repeat v;
  v.repeats = Dims{repeats};
  if (axis) v.axis = norm_axis(*axis, x.ndim(), "repeat");
  return dispatch(OpId::repeat, x, v);
}
Array reshape(const Array& x, const Shape& shape, std::optional<bool> copy) {
  detail::need_defined(x, "reshape");
  attr::reshape v;
  v.shape = shape;
  Array r = dispatch(OpId::reshape, x, v);
  if (copy && *copy) r = astype(r, r.dtype(), true);
  return r;
}
Array roll(const Array& x, const Dims& shift, const AxisArg& axis) {
  detail::need_defined(x, "roll");
  attr::roll v;
  v.shifts = shift;
  if (axis.has) {
    Dims& axes = v.axes.emplace();
    for (auto ax : axis.dims) axes.push_back(norm_axis(ax, x.ndim(), "roll"));
    if (shift.size() == 1 && axes.size() > 1) {
      v.shifts.clear();
      for (std::size_t i = 0; i < axes.size(); ++i) v.shifts.push_back(shift[0]);
    }
  }
  return dispatch(OpId::roll, x, v);
}
Array squeeze(const Array& x, const AxisArg& axis) {
  detail::need_defined(x, "squeeze");
  Dims ax;
  if (axis.has) ax = norm_axes(axis.dims, x.ndim(), "squeeze");
  else
    for (std::int64_t i = 0; i < x.ndim(); ++i)
      if (x.shape()[i] == 1) ax.push_back(i);
  Shape s;
  for (std::int64_t i = 0; i < x.ndim(); ++i) {
    if (std::find(ax.begin(), ax.end(), i) != ax.end()) {
      if (x.shape()[i] != 1)
        throw ValueError(P("squeeze") + "cannot squeeze axis " + std::to_string(i) + " of size " +
                         std::to_string(x.shape()[i]) + " (shape " + x.shape().str() + ")");
    } else {
      s.push_back(x.shape()[i]);
    }
  }
  return reshape(x, s);
}
Array stack(const std::vector<Array>& arrays, std::int64_t axis) {
  if (arrays.empty()) throw ValueError("[stack] needs at least one array");
  for (auto& x : arrays) {
    detail::need_defined(x, "stack");
    if (!(x.shape() == arrays[0].shape()))
      throw ValueError(P("stack") + "all arrays must have the same shape, got " + arrays[0].shape().str() + " and " +
                       x.shape().str());
  }
  std::int64_t ax = norm_axis(axis, arrays[0].ndim() + 1, "stack");
  std::vector<Array> ex;
  for (auto& x : arrays) ex.push_back(expand_dims(x, ax));
  attr::one_axis v;
  v.axis = ax;
  return dispatch(OpId::concat, std::span<const Array>(ex), v);
}
Array tile(const Array& x, const Dims& repetitions) {
  detail::need_defined(x, "tile");
  for (auto r : repetitions)
    if (r < 0) throw ValueError(P("tile") + "repetitions must be non-negative, got " + repetitions.str());
  attr::tile v;
  v.reps = repetitions;
  return dispatch(OpId::tile, x, v);
}
std::vector<Array> unstack(const Array& x, std::int64_t axis) {
  detail::need_defined(x, "unstack");
  if (x.ndim() == 0) throw ValueError("[unstack] needs an array of rank >= 1");
  std::int64_t ax = norm_axis(axis, x.ndim(), "unstack");
  std::vector<Array> out;
  Shape rest = x.shape();
  rest.erase(static_cast<std::size_t>(ax));
  for (std::int64_t i = 0; i < x.shape()[ax]; ++i) {
    attr::slice v;
    for (std::int64_t d = 0; d < x.ndim(); ++d) {
      v.start.push_back(d == ax ? i : 0);
      v.stop.push_back(d == ax ? i + 1 : x.shape()[d]);
      v.step.push_back(1);
    }
    out.push_back(reshape(dispatch(OpId::strided_slice, x, v), rest));
  }
  return out;
}

// ---------------------------------------------------------------- indexing functions
Array take(const Array& x, const Array& indices, std::optional<std::int64_t> axis) {
  detail::need_defined(x, "take");
  detail::need_defined(indices, "take");
  if (!axis && x.ndim() != 1)
    throw ValueError(P("take") + "axis is required for arrays of rank != 1, got shape " + x.shape().str());
  if (x.ndim() == 0) throw ValueError(P("take") + "x must have rank >= 1");
  if (!is_integer(indices.dtype()))
    throw TypeError(P("take") + "indices must have an integer dtype, got " + dtype_name(indices.dtype()));
  attr::one_axis v;
  v.axis = norm_axis(axis.value_or(0), x.ndim(), "take");
  return detail::dispatch_fresh<OpId::take>(v, x, indices);
}
Array take_along_axis(const Array& x, const Array& indices, std::int64_t axis) {
  detail::need_defined(x, "take_along_axis");
  detail::need_defined(indices, "take_along_axis");
  if (x.ndim() == 0) throw ValueError(P("take_along_axis") + "x must have rank >= 1");
  attr::one_axis v;
  v.axis = norm_axis(axis, x.ndim(), "take_along_axis");
  return detail::dispatch_fresh<OpId::take_along_axis>(v, x, indices);
}

}  // namespace ivy

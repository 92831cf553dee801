// JVP rules of the structural primitives (the forward counterparts of rules_structure.cpp):
// triangles, manipulation, indexing, sort, the reductions, the cumulative sums and products,
// and diagonal.
//
// Every linear primitive (manipulation, indexing, sum, mean, cumulative_sum, diagonal) applies
// itself, with the same attributes, to the tangents (zeros for a missing one where it needs
// every input). Tangents are plain (no conjugation): prod and cumulative_prod are holomorphic,
// var/std are real-valued and take the real-linear map t -> 2 Re(sum conj(x - mean) t) / (N - c).
// Every rule is ivy code on the arrays' backend, so enclosing tapes and tracers record it.
#include <algorithm>

#include "autodiff/rule_helpers.hpp"
#include "autodiff/rules.hpp"

namespace ivy::autodiff {
namespace {

// Tangents exist only for floating outputs: nothing to do for an integer or bool result.
bool floating_out(const JvpCall& c) { return is_floating(c.out[0].dtype()); }

// a in dtype d (the real part first for complex a and real d).
Array to_dtype(Array a, DType d) {
  if (a.dtype() == d) return a;
  if (is_complex(a.dtype()) && !is_complex(d)) a = real(a);
  return a.dtype() == d ? a : astype(a, d);
}

// The same primitive on the tangent of input 0 (the only one that can carry one).
void linear_unary(const JvpCall& c, std::span<Array> out_tangents) {
  if (!floating_out(c) || !c.tan[0].defined()) return;
  out_tangents[0] = dispatch(c.op, c.tan[0], c.attrs);
}

// The inclusive scan of the affine recurrence s_i = a_i s_{i-1} + b_i (s_{-1} = 0) along
// `axis`, by doubling (Hillis-Steele over the composition of affine maps: each position holds
// the composition over a window ending at it, which doubles each pass). No division, so exact
// with zeros; log2(n) passes.
Array affine_scan(Array a, Array s, std::int64_t axis) {
  const std::int64_t n = s.shape()[static_cast<std::size_t>(axis)];
  for (std::int64_t st = 1; st < n; st *= 2) {
    Array a_hi = slice_axis(a, axis, st, n);
    Array tail = add(slice_axis(s, axis, st, n), multiply(a_hi, slice_axis(s, axis, 0, n - st)));
    if (2 * st < n) a = concat({slice_axis(a, axis, 0, st), multiply(a_hi, slice_axis(a, axis, 0, n - st))}, axis);
    s = concat({slice_axis(s, axis, 0, st), tail}, axis);
  }
  return s;
}

}  // namespace

// ---------------------------------------------------------------- triangles

IVY_JVP(tril) { linear_unary(c, out_tangents); }
IVY_JVP(triu) { linear_unary(c, out_tangents); }

// ---------------------------------------------------------------- manipulation

IVY_JVP(reshape) { linear_unary(c, out_tangents); }
IVY_JVP(permute_dims) { linear_unary(c, out_tangents); }
IVY_JVP(broadcast_to) { linear_unary(c, out_tangents); }
IVY_JVP(flip) { linear_unary(c, out_tangents); }
IVY_JVP(roll) { linear_unary(c, out_tangents); }
IVY_JVP(repeat) { linear_unary(c, out_tangents); }
IVY_JVP(tile) { linear_unary(c, out_tangents); }
// concat of the tangents, zeros for the inputs without one
IVY_JVP(concat) {
  if (!floating_out(c)) return;
  std::vector<Array> ts;
  ts.reserve(c.in.size());
  for (std::size_t i = 0; i < c.in.size(); ++i) ts.push_back(tan_or_zeros(c, static_cast<int>(i)));
  out_tangents[0] = dispatch(c.op, std::span<const Array>(ts), c.attrs);
}

// ---------------------------------------------------------------- indexing

IVY_JVP(strided_slice) { linear_unary(c, out_tangents); }
// slice_update(tx, tv): zeros of x for a missing tx, a 0-d zero (broadcast to the slice) for tv
IVY_JVP(slice_update) {
  if (!floating_out(c)) return;
  Array tx = tan_or_zeros(c, 0);
  Array tv = c.tan[1].defined() ? c.tan[1] : zero_like0(tx);
  out_tangents[0] = dispatch(c.op, {tx, tv}, c.attrs);
}
// take(tx, idx): the indices are constants
IVY_JVP(take) {
  if (!floating_out(c) || !c.tan[0].defined()) return;
  out_tangents[0] = dispatch(c.op, {c.tan[0], c.in[1]}, c.attrs);
}
IVY_JVP(take_along_axis) {
  if (!floating_out(c) || !c.tan[0].defined()) return;
  out_tangents[0] = dispatch(c.op, {c.tan[0], c.in[1]}, c.attrs);
}
// index_put_flat(tx, pos, tv): the same writes land (a 0-d zero for a missing tv)
IVY_JVP(index_put_flat) {
  if (!floating_out(c)) return;
  Array tx = tan_or_zeros(c, 0);
  Array tv = c.tan[2].defined() ? c.tan[2] : zero_like0(tx);
  out_tangents[0] = dispatch(c.op, {tx, c.in[1], tv}, c.attrs);
}

// ---------------------------------------------------------------- sort

// the tangent through the (stable) sorting permutation: take_along_axis(t, argsort(x))
IVY_JVP(sort) {
  if (!c.tan[0].defined()) return;
  const auto& p = c.attrs.get<attr::sort>();
  out_tangents[0] = take_along_axis(c.tan[0], argsort(c.in[0], p.axis, p.descending, true), p.axis);
}

// ---------------------------------------------------------------- reductions

IVY_JVP(sum) { linear_unary(c, out_tangents); }
// mean of t (exactly zero for an empty x: the output does not depend on it)
IVY_JVP(mean) {
  if (c.in[0].size() == 0) return;
  linear_unary(c, out_tangents);
}
// prod: sum over the reduced axes of t * (product of the other elements of the block)
IVY_JVP(prod) {
  if (!floating_out(c) || !c.tan[0].defined() || c.in[0].size() == 0) return;
  const auto& p = c.attrs.get<attr::reduce_acc>();
  const DType d = c.out[0].dtype();
  Array x = c.in[0], t = c.tan[0];
  if (x.dtype() != d && (is_complex(d) || !is_complex(x.dtype()))) x = to_dtype(x, d), t = to_dtype(t, d);
  out_tangents[0] = dispatch(OpId::sum, multiply(t, product_of_others(x, p.axes)), c.attrs);
}
namespace {
// max/min: the mean of the tangents at the tied extrema, sum(t * mask) / sum(mask) (NaN for a
// block whose extremum is NaN: no element equals it, 0 / 0, as the VJP)
void extremum_jvp(const JvpCall& c, std::span<Array> out_tangents) {
  if (!floating_out(c) || !c.tan[0].defined() || c.in[0].size() == 0) return;
  const auto& p = c.attrs.get<attr::reduce>();
  const Array& x = c.in[0];
  const Array& t = c.tan[0];
  const AxisArg ax = axis_arg(p.axes);
  Array mask = astype(equal(x, expand_reduced(c.out[0], x, p.axes)), t.dtype());
  out_tangents[0] = divide(sum(multiply(t, mask), ax, std::nullopt, p.keepdims), sum(mask, ax, std::nullopt, p.keepdims));
}
// var's tangent: 2 Re(sum conj(x - mean) t) / (N - correction), in var's output shape
Array var_tan(const JvpCall& c) {
  const auto& p = c.attrs.get<attr::reduce_var>();
  const Array& x = c.in[0];
  const auto n = static_cast<double>(reduced_count(x, p.axes));
  const AxisArg ax = axis_arg(p.axes);
  Array centered = subtract(x, mean(x, ax, true));
  Array prod_ct = is_complex(x.dtype()) ? real(multiply(conj(centered), c.tan[0])) : multiply(centered, c.tan[0]);
  return divide(multiply(sum(prod_ct, ax, std::nullopt, p.keepdims), Scalar(2.0)), Scalar(n - p.correction));
}
}  // namespace
IVY_JVP(max) { extremum_jvp(c, out_tangents); }
IVY_JVP(min) { extremum_jvp(c, out_tangents); }
IVY_JVP(var) {
  if (!c.tan[0].defined() || c.in[0].size() == 0) return;
  out_tangents[0] = var_tan(c);
}
// std = sqrt(var): var's tangent / (2 std) (0 / 0 = NaN where std == 0, as the VJP and JAX)
IVY_JVP(std) {
  if (!c.tan[0].defined() || c.in[0].size() == 0) return;
  out_tangents[0] = divide(var_tan(c), multiply(c.out[0], Scalar(2.0)));
}

// ---------------------------------------------------------------- cumulative

IVY_JVP(cumulative_sum) { linear_unary(c, out_tangents); }
// cumulative_prod: y_i = y_{i-1} x_i, so dy_i = x_i dy_{i-1} + y_{i-1} t_i, i.e.
// dy_i = sum_{j<=i} t_j prod_{k<=i, k!=j} x_k: an affine scan, exact with zeros (no division);
// the include_initial slot is the constant 1 (tangent 0).
IVY_JVP(cumulative_prod) {
  if (!floating_out(c) || !c.tan[0].defined() || c.in[0].size() == 0) return;
  const auto& p = c.attrs.get<attr::cumulative>();
  const std::int64_t ax = p.axis;
  const DType d = c.out[0].dtype();
  Array x = c.in[0], t = c.tan[0];
  if (x.ndim() == 0) x = reshape(x, Shape{1}), t = reshape(t, Shape{1});
  if (x.dtype() != d && (is_complex(d) || !is_complex(x.dtype()))) x = to_dtype(x, d), t = to_dtype(t, d);
  const std::int64_t n = x.shape()[static_cast<std::size_t>(ax)];
  Array y_before = slice_axis(cumulative_prod(x, ax, std::nullopt, true), ax, 0, n);  // y_{i-1}, y_{-1} = 1
  Array r = affine_scan(x, multiply(t, y_before), ax);
  if (p.include_initial) {
    Shape zs = r.shape();
    zs[static_cast<std::size_t>(ax)] = 1;
    r = concat({zeros(zs, r.dtype(), r.device(), r.backend()), r}, ax);
  }
  out_tangents[0] = r;
}

// ---------------------------------------------------------------- diagonal

IVY_JVP(diagonal) { linear_unary(c, out_tangents); }

}  // namespace ivy::autodiff

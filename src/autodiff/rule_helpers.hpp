// Small helpers shared by the VJP rules (rules_*.cpp) and the JVP rules (jvp_*.cpp). Each is
// ivy code on the arrays' backend, so enclosing tapes and tracers record it.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>

#include "autodiff/rules.hpp"

namespace ivy::autodiff {

// ---- elementwise

// conj(x) for complex x, x itself otherwise (no primitive recorded on real paths).
inline Array cj(const Array& x) { return is_complex(x.dtype()) ? conj(x) : x; }

// a / where(den == 0, 1, den): 0 (not NaN) where den and a are both 0, with a finite derivative there.
inline Array safe_div(const Array& a, const Array& den) { return divide(a, where(equal(den, 0), 1, den)); }

// ---- structure (slices and reductions)

// A 0-d zero of a's dtype on a's backend and device.
inline Array zero_like0(const Array& a) { return zeros(Shape{}, a.dtype(), a.device(), a.backend()); }

// a[start:stop] along `axis` (every other axis whole).
inline Array slice_axis(const Array& a, std::int64_t axis, std::int64_t start, std::int64_t stop) {
  attr::slice w;
  for (std::int64_t d = 0; d < a.ndim(); ++d) {
    w.start.push_back(d == axis ? start : 0);
    w.stop.push_back(d == axis ? stop : a.shape()[static_cast<std::size_t>(d)]);
    w.step.push_back(1);
  }
  return dispatch(OpId::strided_slice, a, w);
}

// The reduced axes of a reduction view (every axis when it has none).
inline Dims reduced_axes(std::int64_t rank, const std::optional<Dims>& axes) {
  if (axes) return *axes;
  Dims a;
  for (std::int64_t i = 0; i < rank; ++i) a.push_back(i);
  return a;
}

// The AxisArg of a reduction view: its axes, or none (every axis).
inline AxisArg axis_arg(const std::optional<Dims>& axes) { return axes ? AxisArg(*axes) : AxisArg(); }

// How many elements of x each reduced output element covers.
inline std::int64_t reduced_count(const Array& x, const std::optional<Dims>& axes) {
  std::int64_t n = 1;
  for (auto ax : reduced_axes(x.ndim(), axes)) n *= x.shape()[static_cast<std::size_t>(ax)];
  return n;
}

// A reduction's output (or its cotangent) re-expanded to x's shape.
inline Array expand_reduced(const Array& g, const Array& x, const std::optional<Dims>& axes) {
  return broadcast_to(reshape(g, keepdims_shape(x.shape(), axes)), x.shape());
}

// At each position of the last axis, the product of every other element of that axis: the
// exclusive products from the left times those from the right (exact with zeros).
inline Array product_of_others_last(const Array& xr) {
  const std::int64_t ax = xr.ndim() - 1, k = xr.shape()[static_cast<std::size_t>(ax)];
  Array left = slice_axis(cumulative_prod(xr, ax, std::nullopt, true), ax, 0, k);
  Array right = flip(slice_axis(cumulative_prod(flip(xr, AxisArg(ax)), ax, std::nullopt, true), ax, 0, k), AxisArg(ax));
  return multiply(left, right);
}

// At each element of x, the product of the other elements of its reduced block (x's shape):
// the reduced axes moved last and merged, then product_of_others_last.
inline Array product_of_others(const Array& x, const std::optional<Dims>& axes) {
  const Dims red = reduced_axes(x.ndim(), axes);
  Dims perm;
  Shape ps;
  std::int64_t k = 1;
  for (std::int64_t d = 0; d < x.ndim(); ++d)
    if (std::find(red.begin(), red.end(), d) == red.end()) perm.push_back(d), ps.push_back(x.shape()[static_cast<std::size_t>(d)]);
  Shape rs = ps;
  for (auto d : red) perm.push_back(d), ps.push_back(x.shape()[static_cast<std::size_t>(d)]), k *= x.shape()[static_cast<std::size_t>(d)];
  rs.push_back(k);
  bool identity = true;
  for (std::size_t i = 0; i < perm.size(); ++i) identity &= perm[i] == static_cast<std::int64_t>(i);
  Array xp = identity ? x : permute_dims(x, perm);
  Array others = reshape(product_of_others_last(reshape(xp, rs)), ps);
  if (!identity) {
    Dims inv;
    inv.resize(perm.size());
    for (std::size_t i = 0; i < perm.size(); ++i) inv[static_cast<std::size_t>(perm[i])] = static_cast<std::int64_t>(i);
    others = permute_dims(others, inv);
  }
  return others;
}

// ---- linear algebra (matrices are the last two axes)

// The conjugate transpose of the last two axes.
inline Array mH(const Array& x) { return matrix_transpose(cj(x)); }

// The Hermitian part (x + x^H) / 2.
inline Array sym(const Array& x) { return multiply(add(x, mH(x)), Scalar(0.5)); }

// The n x n identity of dtype d on like's backend and device.
inline Array eye_as(std::int64_t n, DType d, const Array& like) {
  return eye(n, std::nullopt, 0, d, like.device(), like.backend());
}

// (..., n) -> (..., n, n) with v on the diagonal.
inline Array diag_embed(const Array& v) {
  return multiply(expand_dims(v, -1), eye_as(v.shape().back(), real_of(v.dtype()), v));
}

// The main diagonal of each matrix: (..., n, n) -> (..., n).
inline Array diag_of(const Array& x) { return linalg::diagonal(x, 0); }

// F_ij = 1/(w_j - w_i) off the diagonal, 0 on it (inf where eigenvalues coincide).
inline Array inv_gaps(const Array& w) {
  Array e = subtract(expand_dims(w, -2), expand_dims(w, -1));
  Array I = eye_as(w.shape().back(), real_of(w.dtype()), w);
  return subtract(reciprocal(add(e, I)), I);
}

// acc + t, or t alone when acc is undefined (an empty accumulator).
inline Array add_opt(const Array& acc, const Array& t) { return acc.defined() ? add(acc, t) : t; }

// x[..., :, start:stop] (a slice of the last axis).
inline Array slice_last(const Array& x, std::int64_t start, std::int64_t stop) {
  attr::slice v;
  for (std::int64_t i = 0; i < x.ndim(); ++i) {
    bool last = i == x.ndim() - 1;
    v.start.push_back(last ? start : 0);
    v.stop.push_back(last ? stop : x.shape()[i]);
    v.step.push_back(1);
  }
  return dispatch(OpId::strided_slice, x, v);
}

}  // namespace ivy::autodiff

// Linear algebra: the main namespace's four functions and the linalg extension.
#include <cmath>
#include <limits>

#include "common.hpp"

namespace ivy {

using detail::norm_axis;
using detail::P;

namespace {
void need_float(const Array& x, const char* op) {
  if (!is_floating(x.dtype()))
    throw TypeError(P(op) + "expects a floating-point array, got " + dtype_name(x.dtype()) + " (shape " + x.shape().str() +
                    ", backend " + x.backend().name() + ")");
}
void need_matrix(const Array& x, const char* op) {
  detail::need_defined(x, op);
  if (x.ndim() < 2) throw ValueError(P(op) + "expects an array of rank >= 2, got shape " + x.shape().str());
}
void need_square(const Array& x, const char* op) {
  need_matrix(x, op);
  if (x.shape()[x.ndim() - 1] != x.shape()[x.ndim() - 2])
    throw ValueError(P(op) + "expects square matrices, got shape " + x.shape().str());
}
}  // namespace

Array matmul(const Array& x1, const Array& x2) {
  detail::need_defined(x1, "matmul");
  detail::need_defined(x2, "matmul");
  return detail::dispatch_fresh<OpId::matmul>(detail::kNoAttrs, x1, x2);
}
Array matrix_transpose(const Array& x) {
  need_matrix(x, "matrix_transpose");
  Dims perm;
  for (std::int64_t i = 0; i < x.ndim(); ++i) perm.push_back(i);
  std::swap(perm[x.ndim() - 1], perm[x.ndim() - 2]);
  attr::permute_dims v;
  v.axes = perm;
  return dispatch(OpId::permute_dims, x, v);
}
Array tensordot(const Array& x1, const Array& x2, const TensordotAxes& axes) {
  detail::need_defined(x1, "tensordot");
  detail::need_defined(x2, "tensordot");
  Dims a1, a2;
  if (axes.pair) {
    if (axes.a1.size() != axes.a2.size())
      throw ValueError(P("tensordot") + "axes lists " + axes.a1.str() + " and " + axes.a2.str() + " differ in length");
    a1 = detail::norm_axes(axes.a1, x1.ndim(), "tensordot", true);
    a2 = detail::norm_axes(axes.a2, x2.ndim(), "tensordot", true);
  } else {
    if (axes.n < 0 || axes.n > x1.ndim() || axes.n > x2.ndim())
      throw ValueError(P("tensordot") + "axes=" + std::to_string(axes.n) + " is invalid for shapes " + x1.shape().str() +
                       " and " + x2.shape().str());
    for (std::int64_t i = 0; i < axes.n; ++i) {
      a1.push_back(x1.ndim() - axes.n + i);
      a2.push_back(i);
    }
  }
  std::int64_t k = 1;
  for (std::size_t i = 0; i < a1.size(); ++i) {
    if (x1.shape()[a1[i]] != x2.shape()[a2[i]])
      throw ValueError(P("tensordot") + "contracted axes differ in size: shapes " + x1.shape().str() + " and " +
                       x2.shape().str());
    k *= x1.shape()[a1[i]];
  }
  Dims p1, p2;
  Shape free1, free2;
  for (std::int64_t i = 0; i < x1.ndim(); ++i)
    if (std::find(a1.begin(), a1.end(), i) == a1.end()) p1.push_back(i), free1.push_back(x1.shape()[i]);
  for (auto a : a1) p1.push_back(a);
  for (auto a : a2) p2.push_back(a);
  for (std::int64_t i = 0; i < x2.ndim(); ++i)
    if (std::find(a2.begin(), a2.end(), i) == a2.end()) p2.push_back(i), free2.push_back(x2.shape()[i]);
  Array m1 = reshape(permute_dims(x1, p1), Shape{free1.numel(), k});
  Array m2 = reshape(permute_dims(x2, p2), Shape{k, free2.numel()});
  Shape out = free1;
  for (auto d : free2) out.push_back(d);
  return reshape(matmul(m1, m2), out);
}
Array vecdot(const Array& x1, const Array& x2, std::int64_t axis) {
  detail::need_defined(x1, "vecdot");
  detail::need_defined(x2, "vecdot");
  if (x1.ndim() == 0 || x2.ndim() == 0) throw ValueError(P("vecdot") + "inputs must have rank >= 1");
  Shape s = broadcast_shapes(x1.shape(), x2.shape(), "vecdot");
  std::int64_t ax = norm_axis(axis, static_cast<std::int64_t>(s.size()), "vecdot");
  std::int64_t a1 = ax - (static_cast<std::int64_t>(s.size()) - x1.ndim());
  std::int64_t a2 = ax - (static_cast<std::int64_t>(s.size()) - x2.ndim());
  if (a1 < 0 || a2 < 0 || x1.shape()[a1] != x2.shape()[a2])
    throw ValueError(P("vecdot") + "shapes " + x1.shape().str() + " and " + x2.shape().str() +
                     " differ along the contracted axis " + std::to_string(axis));
  Array prod = multiply(is_complex(x1.dtype()) ? conj(x1) : x1, x2);
  return sum(prod, ax, prod.dtype());  // the operands' promoted dtype, not sum's widened one
}

namespace linalg {
Array cholesky(const Array& x, bool upper) {
  need_square(x, "cholesky");
  need_float(x, "cholesky");
  attr::cholesky v;
  v.upper = upper;
  return dispatch(OpId::cholesky, x, v);
}
Array cross(const Array& x1, const Array& x2, std::int64_t axis) {
  detail::need_defined(x1, "cross");
  detail::need_defined(x2, "cross");
  if (x1.ndim() == 0 || x2.ndim() == 0) throw ValueError(P("cross") + "inputs must have rank >= 1");
  if (!is_numeric(x1.dtype()) || !is_numeric(x2.dtype())) throw TypeError(P("cross") + "inputs must be numeric");
  Shape s = broadcast_shapes(x1.shape(), x2.shape(), "cross");
  std::int64_t r = static_cast<std::int64_t>(s.size());
  std::int64_t ax = norm_axis(axis, r, "cross");
  auto dim = [&](const Array& x) { return ax - (r - x.ndim()) >= 0 ? x.shape()[ax - (r - x.ndim())] : 1; };
  if (dim(x1) != 3 || dim(x2) != 3)
    throw ValueError(P("cross") + "axis " + std::to_string(axis) + " must have size 3 in both inputs, got shapes " +
                     x1.shape().str() + " and " + x2.shape().str());
  auto b = broadcast_arrays({x1, x2});
  auto c1 = unstack(b[0], ax), c2 = unstack(b[1], ax);
  Array r0 = subtract(multiply(c1[1], c2[2]), multiply(c1[2], c2[1]));
  Array r1 = subtract(multiply(c1[2], c2[0]), multiply(c1[0], c2[2]));
  Array r2 = subtract(multiply(c1[0], c2[1]), multiply(c1[1], c2[0]));
  return stack({r0, r1, r2}, ax);
}
Array det(const Array& x) {
  need_square(x, "det");
  need_float(x, "det");
  return dispatch(OpId::det, x, detail::kNoAttrs);
}
Array diagonal(const Array& x, std::int64_t offset) {
  need_matrix(x, "diagonal");
  attr::diagonal v;
  v.offset = offset;
  return dispatch(OpId::diagonal, x, v);
}
EighResult eigh(const Array& x) {
  need_square(x, "eigh");
  need_float(x, "eigh");
  Array r[2];
  dispatch_into(OpId::eigh, std::span<const Array>(&x, 1), detail::kNoAttrs, r);
  return {std::move(r[0]), std::move(r[1])};
}
Array eigvalsh(const Array& x) {
  need_square(x, "eigvalsh");
  need_float(x, "eigvalsh");
  return dispatch(OpId::eigvalsh, x, detail::kNoAttrs);
}
EigResult eig(const Array& x) {
  need_square(x, "eig");
  need_float(x, "eig");
  Array r[2];
  dispatch_into(OpId::eig, std::span<const Array>(&x, 1), detail::kNoAttrs, r);
  return {std::move(r[0]), std::move(r[1])};
}
Array eigvals(const Array& x) {
  need_square(x, "eigvals");
  need_float(x, "eigvals");
  return dispatch(OpId::eigvals, x, detail::kNoAttrs);
}
Array inv(const Array& x) {
  need_square(x, "inv");
  need_float(x, "inv");
  return dispatch(OpId::inv, x, detail::kNoAttrs);
}
Array matmul(const Array& x1, const Array& x2) { return ivy::matmul(x1, x2); }
Array matrix_norm(const Array& x, bool keepdims, const Ord& ord) {
  need_matrix(x, "matrix_norm");
  need_float(x, "matrix_norm");
  std::int64_t r = x.ndim();
  Dims both{r - 2, r - 1};
  auto keep = [&](Array v) {
    if (!keepdims) return v;
    Shape s = v.shape();
    s.push_back(1);
    s.push_back(1);
    return reshape(v, s);
  };
  Array ax = abs(x);
  if (auto* s = std::get_if<std::string>(&ord)) {
    if (*s == "fro") return keep(sqrt(sum(multiply(ax, ax), both)));
    if (*s == "nuc") return keep(sum(svdvals(x), -1));
    throw ValueError(P("matrix_norm") + "ord must be 'fro', 'nuc', a number or +-inf, got '" + *s + "'");
  }
  double o = std::get<double>(ord);
  if (o == 1 || o == -1) {
    Array cs = sum(ax, r - 2);
    return keep(o > 0 ? max(cs, -1) : min(cs, -1));
  }
  if (std::isinf(o)) {
    Array rs = sum(ax, r - 1);
    return keep(o > 0 ? max(rs, -1) : min(rs, -1));
  }
  if (o == 2 || o == -2) {
    Array sv = svdvals(x);
    return keep(o > 0 ? max(sv, -1) : min(sv, -1));
  }
  throw ValueError(P("matrix_norm") + "unsupported ord " + std::to_string(o) + "; expected 1, -1, 2, -2, inf, -inf, 'fro' or 'nuc'");
}
Array matrix_power(const Array& x, std::int64_t n) {
  need_square(x, "matrix_power");
  if (!is_numeric(x.dtype())) throw TypeError(P("matrix_power") + "expects a numeric array, got " + dtype_name(x.dtype()));
  std::int64_t m = x.shape()[x.ndim() - 1];
  if (n == 0) {
    Array I = eye(m, std::nullopt, 0, x.dtype(), Device{}, x.backend());
    return broadcast_to(I, x.shape());
  }
  Array base = x;
  if (n < 0) {
    need_float(x, "matrix_power");
    base = inv(x);
    n = -n;
  }
  Array result;
  while (n) {
    if (n & 1) result = result.defined() ? ivy::matmul(result, base) : base;
    n >>= 1;
    if (n) base = ivy::matmul(base, base);
  }
  return result;
}
namespace {
// The relative tolerance of pinv/matrix_rank as an array of x's batch shape plus a trailing 1
// (to scale each matrix's largest singular value): a per-matrix array, or one value.
Array rtol_column(const Array& x, const std::optional<Array>& rtol_array, std::optional<double> rtol, const char* op) {
  const std::int64_t m = x.shape()[x.ndim() - 2], n = x.shape()[x.ndim() - 1];
  if (!rtol_array) {
    const double tol = rtol ? *rtol : static_cast<double>(std::max(m, n)) * finfo(x.dtype()).eps;
    return full(Shape{}, Scalar(tol), (is_complex(x.dtype()) ? real_of(x.dtype()) : x.dtype()), x.device(), x.backend());
  }
  const Array& r = *rtol_array;
  detail::need_defined(r, op);
  if (!is_real(r.dtype()) || r.dtype() == DType::bool_)
    throw TypeError(P(op) + "rtol must have a real dtype, got " + dtype_name(r.dtype()));
  Shape batch;
  for (std::int64_t d = 0; d + 2 < x.ndim(); ++d) batch.push_back(x.shape()[static_cast<std::size_t>(d)]);
  const Shape joint = broadcast_shapes(batch, r.shape(), op);
  if (!(joint == batch))
    throw ValueError(P(op) + "rtol of shape " + r.shape().str() + " does not broadcast to the batch shape " + batch.str() +
                     " of x " + x.shape().str());
  return expand_dims(astype(r, (is_complex(x.dtype()) ? real_of(x.dtype()) : x.dtype())), -1);
}
Array matrix_rank_impl(const Array& x, const std::optional<Array>& rtol_array, std::optional<double> rtol) {
  need_matrix(x, "matrix_rank");
  need_float(x, "matrix_rank");
  Array s = svdvals(x);
  Array tol = rtol_column(x, rtol_array, rtol, "matrix_rank");
  if (s.shape().back() == 0) return sum(astype(greater(s, Scalar(0.0)), default_int_dtype()), -1);
  Array smax = max(s, -1, true);
  return sum(astype(greater(s, multiply(smax, tol)), default_int_dtype()), -1);
}
Array pinv_impl(const Array& x, const std::optional<Array>& rtol_array, std::optional<double> rtol) {
  need_matrix(x, "pinv");
  need_float(x, "pinv");
  auto [U, S, Vh] = svd(x, false);
  Array tol = rtol_column(x, rtol_array, rtol, "pinv");
  if (S.shape().back() == 0) return ivy::matrix_transpose(zeros_like(x));
  Array cutoff = multiply(max(S, -1, true), tol);
  Array big = greater(S, cutoff);
  Array sinv = where(big, divide(Scalar(1.0), where(big, S, Scalar(1.0))), Scalar(0.0));
  // pinv = V diag(sinv) U^H
  Array V = conj(ivy::matrix_transpose(Vh));
  Array Uh = conj(ivy::matrix_transpose(U));
  Array scaled = multiply(V, expand_dims(astype(sinv, V.dtype()), -2));
  return ivy::matmul(scaled, Uh);
}
}  // namespace
Array matrix_rank(const Array& x, std::optional<double> rtol) { return matrix_rank_impl(x, std::nullopt, rtol); }
Array matrix_rank(const Array& x, const Array& rtol) { return matrix_rank_impl(x, rtol, std::nullopt); }
Array matrix_transpose(const Array& x) { return ivy::matrix_transpose(x); }
Array outer(const Array& x1, const Array& x2) {
  detail::need_defined(x1, "outer");
  detail::need_defined(x2, "outer");
  if (x1.ndim() != 1 || x2.ndim() != 1)
    throw ValueError(P("outer") + "inputs must be 1-d, got shapes " + x1.shape().str() + " and " + x2.shape().str());
  return multiply(reshape(x1, Shape{x1.size(), 1}), reshape(x2, Shape{1, x2.size()}));
}
Array pinv(const Array& x, std::optional<double> rtol) { return pinv_impl(x, std::nullopt, rtol); }
Array pinv(const Array& x, const Array& rtol) { return pinv_impl(x, rtol, std::nullopt); }
QRResult qr(const Array& x, std::string_view mode) {
  need_matrix(x, "qr");
  need_float(x, "qr");
  if (mode != "reduced" && mode != "complete")
    throw ValueError(P("qr") + "mode must be 'reduced' or 'complete', got '" + std::string(mode) + "'");
  attr::qr v;
  v.complete = mode == "complete";
  Array r[2];
  dispatch_into(OpId::qr, std::span<const Array>(&x, 1), v, r);
  return {std::move(r[0]), std::move(r[1])};
}
SlogdetResult slogdet(const Array& x) {
  need_square(x, "slogdet");
  need_float(x, "slogdet");
  Array r[2];
  dispatch_into(OpId::slogdet, std::span<const Array>(&x, 1), detail::kNoAttrs, r);
  return {std::move(r[0]), std::move(r[1])};
}
Array solve(const Array& x1, const Array& x2) {
  need_square(x1, "solve");
  detail::need_defined(x2, "solve");
  need_float(x1, "solve");
  if (!is_floating(x2.dtype())) throw TypeError(P("solve") + "x2 must be floating-point, got " + dtype_name(x2.dtype()));
  return detail::dispatch_fresh<OpId::solve>(detail::kNoAttrs, x1, x2);
}
SVDResult svd(const Array& x, bool full_matrices) {
  need_matrix(x, "svd");
  need_float(x, "svd");
  attr::svd v;
  v.full_matrices = full_matrices;
  Array r[3];
  dispatch_into(OpId::svd, std::span<const Array>(&x, 1), v, r);
  return {std::move(r[0]), std::move(r[1]), std::move(r[2])};
}
Array svdvals(const Array& x) {
  need_matrix(x, "svdvals");
  need_float(x, "svdvals");
  return dispatch(OpId::svdvals, x, detail::kNoAttrs);
}
Array tensordot(const Array& x1, const Array& x2, const TensordotAxes& axes) { return ivy::tensordot(x1, x2, axes); }
Array trace(const Array& x, std::int64_t offset, std::optional<DType> dtype) {
  need_matrix(x, "trace");
  if (!is_numeric(x.dtype())) throw TypeError(P("trace") + "expects a numeric array, got " + dtype_name(x.dtype()));
  return sum(diagonal(x, offset), -1, dtype);
}
Array vecdot(const Array& x1, const Array& x2, std::int64_t axis) { return ivy::vecdot(x1, x2, axis); }
Array vector_norm(const Array& x, const AxisArg& axis, bool keepdims, double ord) {
  detail::need_defined(x, "vector_norm");
  if (!is_numeric(x.dtype())) throw TypeError(P("vector_norm") + "expects a numeric array, got " + dtype_name(x.dtype()));
  if (axis.has) detail::norm_axes(axis.dims, x.ndim(), "vector_norm");
  Array ax = abs(x);
  DType fd = is_floating(ax.dtype()) ? ax.dtype() : default_float_dtype();
  ax = astype(ax, fd, false);
  if (std::isinf(ord)) {
    if (x.size() == 0) throw ValueError(P("vector_norm") + "ord=+-inf of an empty array has no identity");
    return ord > 0 ? max(ax, axis, keepdims) : min(ax, axis, keepdims);
  }
  if (ord == 0) return astype(sum(astype(not_equal(ax, Scalar(0.0)), fd), axis, std::nullopt, keepdims), fd);
  if (ord == 1) return sum(ax, axis, std::nullopt, keepdims);
  if (ord == 2) return sqrt(sum(multiply(ax, ax), axis, std::nullopt, keepdims));
  return pow(sum(pow(ax, Scalar(ord)), axis, std::nullopt, keepdims), Scalar(1.0 / ord));
}
}  // namespace linalg

}  // namespace ivy

// Searching, sorting and set functions.
#include "common.hpp"

namespace ivy {

using detail::norm_axis;
using detail::P;
using detail::scalar_like;

namespace {
Array arg_reduce(OpId op, const char* name, const Array& x, std::optional<std::int64_t> axis, bool keepdims) {
  detail::need_defined(x, name);
  attr::argreduce v;
  v.keepdims = keepdims;
  if (axis) {
    v.axis = x.ndim() == 0 ? (*axis == 0 || *axis == -1 ? 0 : norm_axis(*axis, 0, name)) : norm_axis(*axis, x.ndim(), name);
  }
  return dispatch(op, x, v);
}
}  // namespace

Array argmax(const Array& x, std::optional<std::int64_t> axis, bool keepdims) {
  return arg_reduce(OpId::argmax, "argmax", x, axis, keepdims);
}
Array argmin(const Array& x, std::optional<std::int64_t> axis, bool keepdims) {
  return arg_reduce(OpId::argmin, "argmin", x, axis, keepdims);
}
Array count_nonzero(const Array& x, const AxisArg& axis, bool keepdims) {
  detail::need_defined(x, "count_nonzero");
  if (axis.has) detail::norm_axes(axis.dims, x.ndim(), "count_nonzero");
  Array nz = astype(not_equal(x, Scalar(std::int64_t{0})), default_int_dtype());
  return sum(nz, axis, default_int_dtype(), keepdims);
}
std::vector<Array> nonzero(const Array& x) {
  detail::need_defined(x, "nonzero");
  return dispatch_multi(OpId::nonzero, std::span<const Array>(&x, 1), detail::kNoAttrs);
}
Array searchsorted(const Array& x1, const Array& x2, std::string_view side, const std::optional<Array>& sorter) {
  detail::need_defined(x1, "searchsorted");
  detail::need_defined(x2, "searchsorted");
  if (side != "left" && side != "right")
    throw ValueError(P("searchsorted") + "side must be 'left' or 'right', got '" + std::string(side) + "'");
  if (x1.ndim() != 1) throw ValueError(P("searchsorted") + "x1 must be 1-d, got shape " + x1.shape().str());
  Array s = x1;
  if (sorter) {
    detail::need_defined(*sorter, "searchsorted");
    if (!is_integer(sorter->dtype()))
      throw TypeError(P("searchsorted") + "sorter must have an integer dtype, got " + dtype_name(sorter->dtype()));
    if (!(sorter->shape() == x1.shape()))
      throw ValueError(P("searchsorted") + "sorter of shape " + sorter->shape().str() + " must match x1 " + x1.shape().str());
    s = take(x1, *sorter, 0);
  }
  attr::searchsorted v;
  v.right = side == "right";
  return detail::dispatch_fresh<OpId::searchsorted>(v, s, x2);
}
Array where(const Array& condition, const Array& x1, const Array& x2) {
  detail::need_defined(condition, "where");
  detail::need_defined(x1, "where");
  detail::need_defined(x2, "where");
  return detail::dispatch_fresh<OpId::where>(detail::kNoAttrs, condition, x1, x2);
}
Array where(const Array& condition, const Array& x1, Scalar x2) { return where(condition, x1, scalar_like(x2, x1, "where")); }
Array where(const Array& condition, Scalar x1, const Array& x2) { return where(condition, scalar_like(x1, x2, "where"), x2); }
Array where(const Array& condition, Scalar x1, Scalar x2) {
  detail::need_defined(condition, "where");
  Array a = asarray(x1, std::nullopt, Device{}, condition.backend());
  return where(condition, a, scalar_like(x2, a, "where"));
}

// ---------------------------------------------------------------- sets
namespace {
// The unique primitive's four outputs (values, first indices, inverse, counts) into r.
void unique4(const Array& x, const char* name, Array (&r)[4]) {
  detail::need_defined(x, name);
  dispatch_into(OpId::unique, std::span<const Array>(&x, 1), detail::kNoAttrs, r);
}
}  // namespace
UniqueAll unique_all(const Array& x) {
  Array r[4];
  unique4(x, "unique_all", r);
  return {std::move(r[0]), std::move(r[1]), std::move(r[2]), std::move(r[3])};
}
UniqueCounts unique_counts(const Array& x) {
  Array r[4];
  unique4(x, "unique_counts", r);
  return {std::move(r[0]), std::move(r[3])};
}
UniqueInverse unique_inverse(const Array& x) {
  Array r[4];
  unique4(x, "unique_inverse", r);
  return {std::move(r[0]), std::move(r[2])};
}
Array unique_values(const Array& x) {
  Array r[4];
  unique4(x, "unique_values", r);
  return std::move(r[0]);
}
Array isin(const Array& x1, const Array& x2, bool invert) {
  detail::need_defined(x1, "isin");
  detail::need_defined(x2, "isin");
  attr::isin v;
  v.invert = invert;
  return detail::dispatch_fresh<OpId::isin>(v, x1, x2);
}

// ---------------------------------------------------------------- sorting
namespace {
Array do_sort(OpId op, const char* name, const Array& x, std::int64_t axis, bool descending) {
  detail::need_defined(x, name);
  if (x.ndim() == 0) throw ValueError(P(name) + "needs an array of rank >= 1, got a 0-d array");
  attr::sort v;
  v.axis = norm_axis(axis, x.ndim(), name);
  v.descending = descending;
  v.stable = true;  // ivy's sorts are always stable
  return dispatch(op, x, v);
}
}  // namespace
Array argsort(const Array& x, std::int64_t axis, bool descending, bool stable) {
  (void)stable;
  return do_sort(OpId::argsort, "argsort", x, axis, descending);
}
Array sort(const Array& x, std::int64_t axis, bool descending, bool stable) {
  (void)stable;
  return do_sort(OpId::sort, "sort", x, axis, descending);
}

}  // namespace ivy

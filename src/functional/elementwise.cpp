// The elementwise functions: each one dispatches its primitive; scalars follow the
// standard's rules (see scalar_result_type).
#include "common.hpp"

namespace ivy {

using detail::P;
using detail::scalar_like;

#define IVY_OP(...)
#define IVY_UNARY_OP(name, meta, kinds, props)                  \
  Array name(const Array& x) {                           \
    return dispatch(OpId::name, x, detail::kNoAttrs);    \
  }
#define IVY_BINARY_OP(name, meta, kinds, props)                                                          \
  Array name(const Array& x1, const Array& x2) { /* dispatch rejects undefined inputs */        \
    return detail::dispatch_fresh<OpId::name>(detail::kNoAttrs, x1, x2);                         \
  }                                                                                              \
  Array name(const Array& x1, Scalar x2) {                                                       \
    detail::need_defined(x1, #name);                                                             \
    return detail::dispatch_fresh<OpId::name>(detail::kNoAttrs, x1, scalar_like(x2, x1, #name)); \
  }                                                                                              \
  Array name(Scalar x1, const Array& x2) {                                                       \
    detail::need_defined(x2, #name);                                                             \
    return detail::dispatch_fresh<OpId::name>(detail::kNoAttrs, scalar_like(x1, x2, #name), x2); \
  }
#include "ivy/ops.def"
#undef IVY_OP
#undef IVY_UNARY_OP
#undef IVY_BINARY_OP

Array clip(const Array& x_in, const Bound& min, const Bound& max, Backend backend) {
  detail::need_defined(x_in, "clip");
  Array x = backend ? to_backend(x_in, backend) : x_in;
  if (!is_real(x.dtype()))
    throw TypeError(P("clip") + "x must have a real numeric dtype, got " + dtype_name(x.dtype()) + " (backend " +
                    x.backend().name() + ")");
  auto bound = [&](const Bound& b) -> Array {
    if (auto* a = std::get_if<Array>(&b)) {
      detail::need_defined(*a, "clip");
      if (!is_real(a->dtype())) throw TypeError(P("clip") + "bounds must be real, got " + dtype_name(a->dtype()));
      // bounds broadcast with x (the result takes the broadcast shape, as the standard's
      // draft has it); shapes that do not broadcast throw here
      broadcast_shapes(x.shape(), a->shape(), "clip");
      return backend ? to_backend(*a, backend) : *a;
    }
    if (auto* s = std::get_if<Scalar>(&b)) {
      if (s->kind == Scalar::Complex) throw TypeError(P("clip") + "bounds must be real, got " + s->str());
      return scalar_like(*s, x, "clip");
    }
    return Array();
  };
  Array lo = bound(min), hi = bound(max);
  Array r = x;
  if (lo.defined()) r = maximum(r, lo);
  if (hi.defined()) r = minimum(r, hi);
  if (r.dtype() != x.dtype()) r = astype(r, x.dtype());
  if (!lo.defined() && !hi.defined()) r = positive(x);
  return r;
}

bool array_equal(const Array& a, const Array& b) {
  detail::need_defined(a, "array_equal");
  detail::need_defined(b, "array_equal");
  if (!(a.shape() == b.shape())) return false;
  Array bb = b.backend() == a.backend() ? b : to_backend(b, a.backend());
  return all(equal(a, bb)).item<bool>();
}
bool allclose(const Array& a, const Array& b, double rtol, double atol, bool equal_nan) {
  detail::need_defined(a, "allclose");
  detail::need_defined(b, "allclose");
  Array bb = b.backend() == a.backend() ? b : to_backend(b, a.backend());
  if (is_bool(a.dtype()) || is_bool(bb.dtype())) return array_equal(a, bb);
  if (!(broadcast_shapes(a.shape(), bb.shape(), "allclose") == a.shape()) && !(a.shape() == bb.shape())) return false;
  Array diff = abs(subtract(a, bb));
  Array tol = add(multiply(abs(bb), Scalar(rtol)), Scalar(atol));
  Array ok = less_equal(astype(diff, float64), astype(tol, float64));
  if (equal_nan) ok = logical_or(ok, logical_and(isnan(a), isnan(bb)));
  ok = logical_or(ok, equal(a, bb));  // equal infinities
  return all(ok).item<bool>();
}

}  // namespace ivy

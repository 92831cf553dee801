// The xtensor backend's framework-specific namespace: ivy functions on xtensor's own
// arrays (xt::xarray<T>), no wrapping. Opt-in header (it pulls in xtensor); the elementwise
// functions are xtensor expressions, returned lazily so that they compose like any xtensor
// expression. They are not the xtensor backend's kernels, which run ivy's own loops on the
// backend's buffers (docs/architecture.md, "What each backend is"), so a result may differ
// from ivy::name's in the last bit.
#pragma once

#include <cstring>

#include <xtensor/xadapt.hpp>
#include <xtensor/xarray.hpp>
#include <xtensor/xmath.hpp>
#include <xtensor/xoperation.hpp>

#include "ivy/ivy.hpp"

namespace ivy::xtensor {

// Copies an xt::xarray into an ivy::Array on the xtensor backend (and back).
template <class T>
Array wrap(const xt::xarray<T>& a) {
  Shape s;
  for (auto d : a.shape()) s.push_back(static_cast<std::int64_t>(d));
  if constexpr (std::is_same_v<T, bool>) {
    std::vector<std::uint8_t> tmp(a.begin(), a.end());
    return asarray(static_cast<const void*>(tmp.data()), DType::bool_, s, std::nullopt, {}, "xtensor");
  } else {
    return asarray(static_cast<const void*>(a.data()), dtype_v<T>, s, std::nullopt, {}, "xtensor");
  }
}
template <class T>
xt::xarray<T> unwrap(const Array& x) {
  if (x.dtype() != dtype_v<T>)
    throw TypeError(std::string("[xtensor::unwrap] array has dtype ") + dtype_name(x.dtype()) + ", requested " +
                    dtype_name(dtype_v<T>));
  typename xt::xarray<T>::shape_type s(x.shape().begin(), x.shape().end());
  xt::xarray<T> out = xt::xarray<T>::from_shape(s);
  auto v = x.to_vector<T>();
  std::copy(v.begin(), v.end(), out.begin());
  return out;
}

#define IVY_XT_UNARY(name, xtfn) \
  template <class E>             \
  auto name(E&& x) {             \
    return xt::xtfn(std::forward<E>(x)); \
  }
IVY_XT_UNARY(abs, abs) IVY_XT_UNARY(acos, acos) IVY_XT_UNARY(acosh, acosh) IVY_XT_UNARY(asin, asin)
IVY_XT_UNARY(asinh, asinh) IVY_XT_UNARY(atan, atan) IVY_XT_UNARY(atanh, atanh) IVY_XT_UNARY(ceil, ceil)
IVY_XT_UNARY(cos, cos) IVY_XT_UNARY(cosh, cosh) IVY_XT_UNARY(exp, exp) IVY_XT_UNARY(expm1, expm1)
IVY_XT_UNARY(floor, floor) IVY_XT_UNARY(isfinite, isfinite) IVY_XT_UNARY(isinf, isinf) IVY_XT_UNARY(isnan, isnan)
IVY_XT_UNARY(log, log) IVY_XT_UNARY(log1p, log1p) IVY_XT_UNARY(log2, log2) IVY_XT_UNARY(log10, log10)
IVY_XT_UNARY(round, nearbyint) IVY_XT_UNARY(sign, sign) IVY_XT_UNARY(sin, sin) IVY_XT_UNARY(sinh, sinh)
IVY_XT_UNARY(sqrt, sqrt) IVY_XT_UNARY(square, square) IVY_XT_UNARY(tan, tan) IVY_XT_UNARY(tanh, tanh)
IVY_XT_UNARY(trunc, trunc)
#undef IVY_XT_UNARY
#define IVY_XT_BINARY(name, expr)        \
  template <class E1, class E2>          \
  auto name(E1&& x1, E2&& x2) {          \
    return expr;                         \
  }
IVY_XT_BINARY(add, std::forward<E1>(x1) + std::forward<E2>(x2))
IVY_XT_BINARY(subtract, std::forward<E1>(x1) - std::forward<E2>(x2))
IVY_XT_BINARY(multiply, std::forward<E1>(x1) * std::forward<E2>(x2))
IVY_XT_BINARY(divide, std::forward<E1>(x1) / std::forward<E2>(x2))
IVY_XT_BINARY(atan2, xt::atan2(std::forward<E1>(x1), std::forward<E2>(x2)))
IVY_XT_BINARY(hypot, xt::hypot(std::forward<E1>(x1), std::forward<E2>(x2)))
IVY_XT_BINARY(maximum, xt::maximum(std::forward<E1>(x1), std::forward<E2>(x2)))
IVY_XT_BINARY(minimum, xt::minimum(std::forward<E1>(x1), std::forward<E2>(x2)))
IVY_XT_BINARY(pow, xt::pow(std::forward<E1>(x1), std::forward<E2>(x2)))
IVY_XT_BINARY(equal, xt::equal(std::forward<E1>(x1), std::forward<E2>(x2)))
IVY_XT_BINARY(not_equal, xt::not_equal(std::forward<E1>(x1), std::forward<E2>(x2)))
IVY_XT_BINARY(less, std::forward<E1>(x1) < std::forward<E2>(x2))
IVY_XT_BINARY(less_equal, std::forward<E1>(x1) <= std::forward<E2>(x2))
IVY_XT_BINARY(greater, std::forward<E1>(x1) > std::forward<E2>(x2))
IVY_XT_BINARY(greater_equal, std::forward<E1>(x1) >= std::forward<E2>(x2))
#undef IVY_XT_BINARY

// clip(x, lo, hi) on an xtensor expression (NaN stays NaN).
template <class E, class T>
auto clip(E&& x, T lo, T hi) {
  return xt::clip(std::forward<E>(x), std::move(lo), std::move(hi));  // bounds held by value
}

}  // namespace ivy::xtensor

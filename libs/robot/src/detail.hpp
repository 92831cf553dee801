// Private helpers of ivy::robot: argument checks and moving constants to an input's
// backend and dtype.
#pragma once

#include <string>

#include "ivy/ivy.hpp"

namespace ivy::robot::detail {

inline std::string tag(const char* fn) { return std::string("[robot.") + fn + "] "; }

inline void check_float(const Array& x, const char* fn, const char* what) {
  if (!x.defined()) throw ValueError(tag(fn) + what + " is an undefined array");
  if (!is_real_floating(x.dtype()))
    throw TypeError(tag(fn) + "expects " + what + " to be float32 or float64, got " + dtype_name(x.dtype()));
}
// x of shape [..., n] (n < 0: any trailing size), at least `min_ndim` dims.
inline void check_trailing(const Array& x, const char* fn, const char* what, std::int64_t min_ndim,
                           const std::string& expected, std::int64_t n = -1) {
  check_float(x, fn, what);
  if (x.ndim() < min_ndim || (n >= 0 && x.shape().back() != n))
    throw ValueError(tag(fn) + "expects " + what + " of shape " + expected + ", got shape " + x.shape().str());
}
// x[..., rows, cols] with rows one of {r1, r2}.
inline void check_mat(const Array& x, const char* fn, const char* what, std::int64_t r1, std::int64_t r2,
                      std::int64_t cols) {
  check_float(x, fn, what);
  const auto& s = x.shape();
  if (x.ndim() < 2 || s.back() != cols || (s[s.size() - 2] != r1 && s[s.size() - 2] != r2))
    throw ValueError(tag(fn) + "expects " + what + " of shape [..., " + std::to_string(r1) + " or " +
                     std::to_string(r2) + ", " + std::to_string(cols) + "], got shape " + s.str());
}
inline bool all_finite(const Array& x) { return ivy::all(ivy::isfinite(x)).item<bool>(); }

// A constant on `like`'s backend in `like`'s dtype (no copy when already there).
inline Array like(const Array& constant, const Array& like) {
  Array c = constant.backend() == like.backend() ? constant : ivy::to_backend(constant, like.backend());
  return c.dtype() == like.dtype() ? c : ivy::astype(c, like.dtype(), false);
}

// The leading dims of x, all but the last k.
inline Shape batch_of(const Array& x, std::size_t k) {
  const auto& s = x.shape();
  return Shape(s.begin(), s.end() - static_cast<std::ptrdiff_t>(k));
}

}  // namespace ivy::robot::detail

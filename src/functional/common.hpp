// Shared helpers for the functional layer (internal).
#pragma once

#include <algorithm>
#include <atomic>
#include <string>

#include "dispatch/observed.hpp"
#include "ivy/functional.hpp"

namespace ivy::detail {

inline std::string P(const char* op) { return std::string("[") + op + "] "; }

// Normalizes axes (negative allowed) for an array of rank `rank`; sorted unless keep_order.
inline Dims norm_axes(const Dims& axes, std::int64_t rank, const char* op, bool keep_order = false) {
  Dims out;
  for (auto a : axes) {
    if (a < -rank || a >= rank)
      throw IndexError(P(op) + "axis " + std::to_string(a) + " is out of range for an array of rank " + std::to_string(rank));
    auto v = a < 0 ? a + rank : a;
    if (std::find(out.begin(), out.end(), v) != out.end())
      throw ValueError(P(op) + "axis " + std::to_string(a) + " is repeated in " + axes.str());
    out.push_back(v);
  }
  if (!keep_order) std::sort(out.begin(), out.end());
  return out;
}
inline std::int64_t norm_axis(std::int64_t axis, std::int64_t rank, const char* op) {
  return normalize_axis(axis, rank, op);
}

// An integer scalar must be representable in the integer dtype it is converted to (both
// backends refuse, instead of one wrapping and the other failing); OverflowError otherwise.
inline void check_scalar_fits(const Scalar& s, DType dt, const char* op) {
  // (uint64 takes every bit pattern: a Scalar's 64 bits cannot tell -1 from 2^64 - 1, which
  // is how the Python bindings pass integers above 2^63)
  if (s.kind != Scalar::Int || !is_integer(dt) || dt == uint64) return;
  const IInfo r = iinfo(dt);
  if (s.i < r.min || (s.i > 0 && static_cast<std::uint64_t>(s.i) > r.max))
    throw OverflowError(P(op) + "the scalar " + s.str() + " is out of range for " + dtype_name(dt) + " (" +
                        std::to_string(r.min) + " to " + std::to_string(r.max) + ")");
}

// A 0-d array holding s, with the dtype the standard's scalar rules give next to `like`.
inline Array scalar_like(const Scalar& s, const Array& like, const char* op) {
  attr::full w;  // shape () by default
  w.value = s;
  w.dtype = scalar_result_type(like.dtype(), s, op);
  check_scalar_fits(s, w.dtype, op);
  return dispatch(OpId::full, std::span<const Array>(), w, like.backend());
}

// Shared empty attributes for primitives that take none (no per-call construction).
inline constexpr attr::none kNoAttrs{};

inline void need_defined(const Array& x, const char* op) {
  if (!x.defined()) throw ValueError(P(op) + "got an undefined array");
}


// Primitives with kFreshResult in ops.def (their kernels, on every backend, always return
// fresh arrays and keep no input handle past the call) take their inputs as borrowed
// (non-owning) handles: copying shared handles into the input span would only cost an atomic
// reference-count pair per input. Only observers keep inputs: with one active, the handles
// are copied. Views, and functions whose kernels may hand back an input's buffer (reshape,
// astype to the same dtype, and on xtensor the identity maps: real, conj and positive of real
// numbers, ceil, floor, trunc and round of integers, a roll by whole turns), lack the
// property, and dispatch_fresh refuses them at compile time.
inline constexpr std::uint8_t kPropsOf[] = {
#define IVY_OP(name, nin, nout, meta, kinds, props, attrs) static_cast<std::uint8_t>(props),
#include "ivy/ops.def"
#undef IVY_OP
};
inline Array borrowed(const Array& x) { return Array(std::shared_ptr<ArrayImpl>(std::shared_ptr<ArrayImpl>(), x.impl())); }
template <OpId op, class... A>
inline Array dispatch_fresh(AttrsRef a, const A&... xs) {
  static_assert((kPropsOf[static_cast<int>(op)] & kFreshResult) != 0,
                "dispatch_fresh: the primitive lacks kFreshResult in ops.def");
  if (g_observed_threads.load(std::memory_order_relaxed)) return dispatch(op, {xs...}, a);
  const Array in[sizeof...(A)] = {borrowed(xs)...};
  return dispatch(op, std::span<const Array>(in, sizeof...(A)), a);
}

}  // namespace ivy::detail

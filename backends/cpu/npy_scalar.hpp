// NumPy's scalar definitions of the functions where C++ (and LibTorch) compute something
// else for some inputs, shared by the backends that compute them element by element:
// floor_divide and remainder of floating values (NumPy's npy_divmod: both are defined
// through fmod, which is exact, and round where NumPy rounds, so a // b is not always the
// exact floor of a / b), a faster form of each that takes the exact path only where it
// cannot decide, and integer shifts by any count.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "scalar_ops.hpp"

namespace ivy::cpu::npy {

// maximum/minimum: NumPy's rule (scalar_ops.hpp, where the fused loops take them too).
using sops::maximum;
using sops::minimum;

template <class T>
T floor_divide(T a, T b) {
  // The standard's values where NumPy's differ: an infinity over a nonzero finite number is
  // an infinity (NumPy: NaN), a nonzero finite number over an infinity a zero (NumPy: -1
  // for opposite signs), each with the sign of the quotient.
  const bool opposite = std::signbit(a) != std::signbit(b);
  if (std::isinf(a) && std::isfinite(b) && b != 0) return opposite ? -std::numeric_limits<T>::infinity() : std::numeric_limits<T>::infinity();
  if (std::isinf(b) && std::isfinite(a) && a != 0) return opposite ? -T(0) : T(0);
  if (b == 0) return a / b;  // +-inf, or NaN for 0 // 0 and NaN // 0
  const T m = std::fmod(a, b);
  T d = (a - m) / b;
  if (m != 0 && ((b < 0) != (m < 0))) d -= 1;
  if (d == 0) return std::copysign(T(0), a / b);
  T f = std::floor(d);
  if (d - f > T(0.5)) f += 1;  // NaN operands stay NaN: the comparison is false
  return f;
}

template <class T>
T remainder(T a, T b) {
  T m = std::fmod(a, b);  // NaN for b == 0, an infinite a or a NaN operand
  if (m != 0) {
    if ((b < 0) != (m < 0)) m += b;
  } else {
    m = std::copysign(T(0), b);
  }
  return m;
}

// fmod is slow, so the common case takes floor(a / b) and checks it with an exact
// remainder: a - q*b is computed exactly (float: in double; double: with a fused
// multiply-add), and q is the true floor iff that remainder lies in [0, b) (or (b, 0] for
// negative b). Within |q| < 2^(digits-2) the exact floor is also NumPy's result: NumPy
// divides the rounded a - fmod by b, and the two roundings move that quotient by less than
// |q| * 2^(1-digits) < 1/2 from the integer it snaps to. Above, NumPy's result can be one
// off the exact floor (float32 -43457.785 // 0.0055247922: NumPy -7865960, the floor
// -7865959). Anything else (zero, inf, NaN operands, large quotients, rounding at the
// boundary) takes the exact path. T: float or double.
template <class T>
[[gnu::always_inline]] inline bool fast_floor_quot(T a, T b, T& q, T& r) {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>);
  q = std::floor(a / b);
  constexpr T lim = static_cast<T>(std::uint64_t(1) << (std::numeric_limits<T>::digits - 2));
  if (!(std::fabs(q) < lim)) return false;
  if constexpr (std::is_same_v<T, float>)
    r = static_cast<T>(static_cast<double>(a) - static_cast<double>(q) * static_cast<double>(b));
  else
    r = std::fma(-q, b, a);
  return b > 0 ? (r >= 0 && r < b) : (b < 0 && r <= 0 && r > b);
}
template <class T>
[[gnu::always_inline]] inline T floor_divide_fast(T a, T b) {
  T q, r;
  return fast_floor_quot(a, b, q, r) ? q : floor_divide(a, b);
}
template <class T>
[[gnu::always_inline]] inline T remainder_fast(T a, T b) {
  T q, r;
  // float: a - q*b is exact in double unless |a| << |b| (then q = -1 gives a + b, which may
  // need more than 53 bits; NumPy rounds that sum once, so take the exact path).
  const bool exact = !std::is_same_v<T, float> || !(std::fabs(a) < std::fabs(b) * T(0x1p-28));
  if (exact && fast_floor_quot(a, b, q, r)) return r == 0 ? std::copysign(T(0), b) : r;
  return remainder(a, b);
}

// Shifts of integers (T): a count of the width or more shifts every bit out (0 to the
// left; the sign fill to the right), and a negative count, read as unsigned, is such a
// count. Branch-free (the count is clamped) so that loops over them vectorize.
template <class T>
T left_shift(T a, T b) {
  using UT = std::make_unsigned_t<T>;
  constexpr std::uint64_t bits = sizeof(T) * 8;
  const std::uint64_t sh = static_cast<UT>(b);
  const UT r = static_cast<UT>(static_cast<UT>(a) << (sh & (bits - 1)));
  return sh < bits ? static_cast<T>(r) : T(0);
}
template <class T>
T right_shift(T a, T b) {
  constexpr std::uint64_t bits = sizeof(T) * 8;
  const std::uint64_t sh = static_cast<std::make_unsigned_t<T>>(b);
  if constexpr (std::is_signed_v<T>) return static_cast<T>(a >> std::min(sh, bits - 1));
  else return sh < bits ? static_cast<T>(a >> (sh & (bits - 1))) : T(0);
}

}  // namespace ivy::cpu::npy

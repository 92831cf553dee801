// NumPy's floor_divide and remainder of two floating values (its npy_divmod), for the
// backends that compute them element by element: both are defined through fmod, which is
// exact, and round where NumPy rounds (so a // b is not always the exact floor of a / b).
#pragma once

#include <cmath>

namespace ivy::npy {

template <class T>
T floor_divide(T a, T b) {
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

}  // namespace ivy::npy

// The scalar definition of each elementwise operation that compiles to a few instructions,
// one function per operation, shared by the xtensor backend's loops, the fused loops of
// compiled graphs and the C++ source that ivy::compile generates for them (this file is
// embedded in libivy and prepended to every generated source, so it includes only the
// standard library and defines nothing outside ivy::cpu::sops). Each is the same IEEE
// operation whatever the ISA the caller is built for; no operation may be contracted into an
// FMA (callers build with -ffp-contract=off). Integer arithmetic wraps around (through the
// unsigned type), as the standard allows. The transcendental functions are not here: float32
// ones are vec_math.hpp's block functions, float64 ones libm's.
#pragma once

#include <cstdint>

namespace ivy::cpu::sops {

// Only <cstdint> and compiler builtins (the same libm functions and instructions as <cmath>'s),
// so that a generated source compiles in a fraction of the time <cmath> would take.
using u8 = unsigned char;  // bool elements: 0 or 1
template <class A, class B> constexpr bool kSame = false;
template <class A> constexpr bool kSame<A, A> = true;
template <class T> constexpr bool kInt = kSame<T, std::int32_t> || kSame<T, std::int64_t>;
template <class T> constexpr bool kFloat = kSame<T, float> || kSame<T, double>;
template <class T> struct UnsignedOf { using type = T; };
template <> struct UnsignedOf<std::int32_t> { using type = std::uint32_t; };
template <> struct UnsignedOf<std::int64_t> { using type = std::uint64_t; };
template <class T> using Unsigned = typename UnsignedOf<T>::type;

inline float fabs_(float x) { return __builtin_fabsf(x); }
inline double fabs_(double x) { return __builtin_fabs(x); }
inline float sqrt_(float x) { return __builtin_sqrtf(x); }
inline double sqrt_(double x) { return __builtin_sqrt(x); }
inline float floor_(float x) { return __builtin_floorf(x); }
inline double floor_(double x) { return __builtin_floor(x); }
inline float ceil_(float x) { return __builtin_ceilf(x); }
inline double ceil_(double x) { return __builtin_ceil(x); }
inline float trunc_(float x) { return __builtin_truncf(x); }
inline double trunc_(double x) { return __builtin_trunc(x); }
inline float nearbyint_(float x) { return __builtin_nearbyintf(x); }
inline double nearbyint_(double x) { return __builtin_nearbyint(x); }
inline float copysign_(float a, float b) { return __builtin_copysignf(a, b); }
inline double copysign_(double a, double b) { return __builtin_copysign(a, b); }
template <class T> constexpr T kInfinity = T(__builtin_inf());
template <class T> constexpr T kMax = kSame<T, float> ? T(__FLT_MAX__) : T(__DBL_MAX__);

// maximum/minimum: NumPy's rule, the second operand unless the first is greater (less), so
// -0 against +0 gives the second (the x86 max/min instructions' rule), and NaN in either
// operand gives NaN (a NaN `a` is kept; a NaN `b` fails the compare and is taken).
// Branch-free: a max, a compare and a select per vector.
template <class T>
inline T maximum(T a, T b) {
  const T m = a > b ? a : b;
  if constexpr (kFloat<T>) return a != a ? a : m;
  else return m;
}
template <class T>
inline T minimum(T a, T b) {
  const T m = a < b ? a : b;
  if constexpr (kFloat<T>) return a != a ? a : m;
  else return m;
}

// Conversion to the element type To (bool: nonzero is 1). Floating -> integer conversions of
// NaN or out-of-range values are not defined here (callers refuse them).
template <class To, class From>
inline To convert(From v) {
  if constexpr (kSame<To, u8>) return static_cast<u8>(v != From(0));
  else return static_cast<To>(v);
}

template <class T>
inline T abs(T x) {
  if constexpr (kInt<T>) return x < 0 ? static_cast<T>(Unsigned<T>(0) - Unsigned<T>(x)) : x;
  else return fabs_(x);
}
template <class T>
inline T negative(T x) {
  if constexpr (kInt<T>) return static_cast<T>(Unsigned<T>(0) - Unsigned<T>(x));
  else return -x;
}
template <class T>
inline T square(T x) {
  if constexpr (kInt<T>) return static_cast<T>(Unsigned<T>(x) * Unsigned<T>(x));
  else return x * x;
}
template <class T> inline T sqrt(T x) { return sqrt_(x); }
template <class T> inline T reciprocal(T x) { return T(1) / x; }
// rounding: integers are their own floor, ceil, trunc and round; round is half to even
template <class T>
inline T floor(T x) {
  if constexpr (kInt<T>) return x;
  else return floor_(x);
}
template <class T>
inline T ceil(T x) {
  if constexpr (kInt<T>) return x;
  else return ceil_(x);
}
template <class T>
inline T trunc(T x) {
  if constexpr (kInt<T>) return x;
  else return trunc_(x);
}
template <class T>
inline T round(T x) {
  if constexpr (kInt<T>) return x;
  else return nearbyint_(x);
}

// predicates (result bool); integers are finite, never NaN or infinite
template <class T>
inline u8 isnan(T x) {
  if constexpr (kFloat<T>) return static_cast<u8>(x != x);
  else return 0;
}
template <class T>
inline u8 isinf(T x) {
  if constexpr (kFloat<T>) return static_cast<u8>(fabs_(x) == kInfinity<T>);
  else return 0;
}
template <class T>
inline u8 isfinite(T x) {
  if constexpr (kFloat<T>) return static_cast<u8>(fabs_(x) <= kMax<T>);
  else return 1;
}
template <class T>
inline u8 signbit(T x) {
  if constexpr (kFloat<T>) return static_cast<u8>(__builtin_signbit(x) != 0);
  else if constexpr (kInt<T>) return static_cast<u8>(x < 0);
  else return 0;
}
inline u8 logical_not(u8 x) { return static_cast<u8>(!x); }
template <class T>
inline T bitwise_invert(T x) {
  if constexpr (kSame<T, u8>) return static_cast<u8>(!x);
  else return static_cast<T>(~x);
}

template <class T>
inline T add(T a, T b) {
  if constexpr (kInt<T>) return static_cast<T>(Unsigned<T>(a) + Unsigned<T>(b));
  else return a + b;
}
template <class T>
inline T subtract(T a, T b) {
  if constexpr (kInt<T>) return static_cast<T>(Unsigned<T>(a) - Unsigned<T>(b));
  else return a - b;
}
template <class T>
inline T multiply(T a, T b) {
  if constexpr (kInt<T>) return static_cast<T>(Unsigned<T>(a) * Unsigned<T>(b));
  else return a * b;
}
template <class T> inline T divide(T a, T b) { return a / b; }
template <class T> inline T copysign(T a, T b) { return copysign_(a, b); }
template <class T> inline T bitwise_and(T a, T b) { return static_cast<T>(a & b); }
template <class T> inline T bitwise_or(T a, T b) { return static_cast<T>(a | b); }
template <class T> inline T bitwise_xor(T a, T b) { return static_cast<T>(a ^ b); }

// comparisons (result bool)
template <class T> inline u8 equal(T a, T b) { return static_cast<u8>(a == b); }
template <class T> inline u8 not_equal(T a, T b) { return static_cast<u8>(a != b); }
template <class T> inline u8 less(T a, T b) { return static_cast<u8>(a < b); }
template <class T> inline u8 less_equal(T a, T b) { return static_cast<u8>(a <= b); }
template <class T> inline u8 greater(T a, T b) { return static_cast<u8>(a > b); }
template <class T> inline u8 greater_equal(T a, T b) { return static_cast<u8>(a >= b); }

template <class T> inline T where(u8 c, T a, T b) { return c ? a : b; }

// logaddexp of float64 (float32's is vec_math.hpp's; libm's log1p and exp): a - b is NaN exactly when an input is
// NaN or both are the same infinity; every other case (equal finite values included:
// log1p(1) = ln 2) is the formula.
template <class T>
inline T logaddexp(T a, T b) {
  const T d = a - b;
  if (d != d) return a == b ? a : T(__builtin_nan(""));
  return (a < b ? b : a) + __builtin_log1p(__builtin_exp(-fabs_(d)));
}

}  // namespace ivy::cpu::sops

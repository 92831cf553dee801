// NumPy's floor_divide, remainder, copysign and shifts over contiguous arrays (npy_kernels.hpp).
// Built with -fno-trapping-math (the branch-free selects vectorize) and -ffp-contract=off
// (nothing is fused into an FMA that the source does not ask for): CMakeLists.txt.
#include "npy_kernels.hpp"

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "cpu_isa.hpp"
#include "cpu_loops.hpp"
#include "npy_scalar.hpp"

#if IVY_AVX2
#include <immintrin.h>
#endif

namespace ivy::cpu::npy {
namespace {

// float32: a branch-free first pass (it vectorizes) that gives NaN where it cannot decide
// (the check of fast_floor_quot fails, or an operand is NaN/inf/zero-divisor), then the
// exact path for those elements only.
template <bool Rem>
[[gnu::always_inline]] inline float fd_try(float a, float b) {
  const float qf = a / b;
  const bool in_range = std::fabs(qf) < 0x1p22f;  // fast_floor_quot's bound; false for NaN, inf
  const float qc = in_range ? qf : 0.f;
  const float t = static_cast<float>(static_cast<std::int32_t>(qc));  // trunc
  const float fl0 = t - (t > qc ? 1.f : 0.f);                          // floor
  const float fl = fl0 == 0.f ? std::copysign(0.f, qc) : fl0;
  const double r = static_cast<double>(a) - static_cast<double>(fl) * static_cast<double>(b);
  const double bd = b;
  const bool okp = (r >= 0.0) & (r < bd), okn = (r <= 0.0) & (r > bd);
  bool ok = in_range & (((b > 0.f) & okp) | ((b < 0.f) & okn));
  if constexpr (Rem) {
    const bool exact = !(std::fabs(a) < std::fabs(b) * 0x1p-28f);  // as in remainder_fast
    const float rf = static_cast<float>(r);
    const float rz = rf == 0.f ? std::copysign(0.f, b) : rf;
    return (ok & exact) ? rz : std::numeric_limits<float>::quiet_NaN();
  } else {
    return ok ? fl : std::numeric_limits<float>::quiet_NaN();
  }
}
#if IVY_AVX2
// The same first pass where the CPU has FMA: the check's remainder a - q*b is std::fma's
// (one rounding), in float. For the true floor q the exact remainder lies in [0, b) (or
// (b, 0]); rounded once it stays in [0, b] and keeps its sign, and for any other q it lies
// outside [0, b) and rounding keeps it there (b is a float; a nonzero a - q*b is a multiple
// of the smaller ulp of a and b, so it does not round to 0): the check decides exactly as
// the float64 one. A remainder rounded up to b fails it and takes the exact path. The value
// is NumPy's: fmod is exact, and NumPy's `mod += b` rounds once, as the fma does.
template <bool Rem>
[[gnu::always_inline]] inline float fd_try_fma(float a, float b) {
  const float qf = a / b;
  const bool in_range = std::fabs(qf) < 0x1p22f;  // fast_floor_quot's bound; false for NaN, inf
  const float fl = std::floor(in_range ? qf : 0.f);  // -0 for -0, +0 for [0, 1): NumPy's zero
  const float r = std::fma(-fl, b, a);
  const bool ok = in_range & (((b > 0.f) & (r >= 0.f) & (r < b)) | ((b < 0.f) & (r <= 0.f) & (r > b)));
  if constexpr (Rem) return ok ? (r == 0.f ? std::copysign(0.f, b) : r) : std::numeric_limits<float>::quiet_NaN();
  else return ok ? fl : std::numeric_limits<float>::quiet_NaN();
}
template <bool Rem>
IVY_AVX2_FMA_FN std::uint32_t fd_first_pass_fma(float* __restrict o, const float* p, const float* q, std::int64_t n,
                                                    OneElement which) {
  return cpu::loops::each2<std::uint32_t>(o, p, q, n, which, [](float a, float b, std::uint32_t& flag) {
    const float r = fd_try_fma<Rem>(a, b);
    flag |= static_cast<std::uint32_t>(r != r);
    return r;
  });
}
#endif

template <bool Rem>
void divmod_f32(float* o, const float* p, const float* q, std::int64_t n, OneElement which) {
  std::uint32_t undecided;  // noted in the same loop: no second pass when none
#if IVY_AVX2
  if (cpu::isa::kAvx2)
    undecided = fd_first_pass_fma<Rem>(o, p, q, n, which);
  else
#endif
    undecided = cpu::loops::each2<std::uint32_t>(o, p, q, n, which, [](float a, float b, std::uint32_t& flag) {
      const float r = fd_try<Rem>(a, b);
      flag |= static_cast<std::uint32_t>(r != r);
      return r;
    });
  if (undecided == 0) return;
  for (std::int64_t i = 0; i < n; ++i) {
    if (o[i] != o[i]) {
      const float a = p[which == OneElement::first ? 0 : i], b = q[which == OneElement::second ? 0 : i];
      o[i] = Rem ? remainder_fast(a, b) : floor_divide_fast(a, b);
    }
  }
}
// float64: the exact-remainder check of fast_floor_quot per element (its std::fma is one
// instruction where the CPU has FMA), fmod where it cannot decide.
template <bool Rem>
[[gnu::always_inline]] inline double divmod_f64_one(double a, double b, unsigned char&) {
  return Rem ? remainder_fast(a, b) : floor_divide_fast(a, b);
}
#if IVY_AVX2
template <bool Rem>
IVY_AVX2_FMA_FN void divmod_f64_fma(double* __restrict o, const double* p, const double* q, std::int64_t n,
                                     OneElement which) {
  cpu::loops::each2<unsigned char>(o, p, q, n, which, divmod_f64_one<Rem>);
}
#endif
template <bool Rem>
void divmod_f64(double* o, const double* p, const double* q, std::int64_t n, OneElement which) {
#if IVY_AVX2
  if (cpu::isa::kAvx2) return divmod_f64_fma<Rem>(o, p, q, n, which);
#endif
  cpu::loops::each2<unsigned char>(o, p, q, n, which, divmod_f64_one<Rem>);
}
// Shifts: the plain shift (the count masked to the width, what C++ and LibTorch compute on
// x86), which collects the counts' bits above width - 1 in a flag: set for any count out of
// range (read as unsigned, a negative count is too); only then is the whole loop redone with
// the defined form.
template <bool Left, class T>
void shift(T* o, const T* p, const T* q, std::int64_t n, OneElement which) {
  static_assert(std::is_integral_v<T> && !std::is_same_v<T, bool>);
  using UT = std::make_unsigned_t<T>;
  const UT out_of_range = cpu::loops::each2_best<UT>(o, p, q, n, which, [](T a, T b, UT& flag) -> T {
    constexpr UT width_mask = static_cast<UT>(sizeof(T) * 8 - 1);
    const UT c = static_cast<UT>(b);
    flag |= static_cast<UT>(c & static_cast<UT>(~width_mask));
    const int sh = static_cast<int>(c & width_mask);
    if constexpr (Left) return static_cast<T>(static_cast<UT>(a) << sh);
    else return static_cast<T>(a >> sh);
  });
  if (out_of_range == 0) return;
  cpu::loops::each2_best<unsigned char>(o, p, q, n, which, [](T a, T b, unsigned char&) -> T {
    if constexpr (Left) return left_shift(a, b);
    else return right_shift(a, b);
  });
}

}  // namespace

void floor_divide_n(float* o, const float* p, const float* q, std::int64_t n, OneElement which) {
  divmod_f32<false>(o, p, q, n, which);
}
void floor_divide_n(double* o, const double* p, const double* q, std::int64_t n, OneElement which) {
  divmod_f64<false>(o, p, q, n, which);
}
void remainder_n(float* o, const float* p, const float* q, std::int64_t n, OneElement which) {
  divmod_f32<true>(o, p, q, n, which);
}
void remainder_n(double* o, const double* p, const double* q, std::int64_t n, OneElement which) {
  divmod_f64<true>(o, p, q, n, which);
}
// copysign: the sign bit of b on the magnitude of a (NaNs included: their sign bits are
// read and written as any other), two bitwise operations per element.
void copysign_n(float* o, const float* p, const float* q, std::int64_t n, OneElement which) {
  cpu::loops::each2_best<unsigned char>(o, p, q, n, which, [](float a, float b, unsigned char&) { return std::copysign(a, b); });
}
void copysign_n(double* o, const double* p, const double* q, std::int64_t n, OneElement which) {
  cpu::loops::each2_best<unsigned char>(o, p, q, n, which, [](double a, double b, unsigned char&) { return std::copysign(a, b); });
}
template <class T>
void left_shift_n(T* o, const T* p, const T* q, std::int64_t n, OneElement which) {
  shift<true>(o, p, q, n, which);
}
template <class T>
void right_shift_n(T* o, const T* p, const T* q, std::int64_t n, OneElement which) {
  shift<false>(o, p, q, n, which);
}
#define IVY_NPY_SHIFTS(T)                                                          \
  template void left_shift_n<T>(T*, const T*, const T*, std::int64_t, OneElement); \
  template void right_shift_n<T>(T*, const T*, const T*, std::int64_t, OneElement);
IVY_NPY_SHIFTS(std::int8_t)
IVY_NPY_SHIFTS(std::int16_t)
IVY_NPY_SHIFTS(std::int32_t)
IVY_NPY_SHIFTS(std::int64_t)
IVY_NPY_SHIFTS(std::uint8_t)
IVY_NPY_SHIFTS(std::uint16_t)
IVY_NPY_SHIFTS(std::uint32_t)
IVY_NPY_SHIFTS(std::uint64_t)
#undef IVY_NPY_SHIFTS

// Bool results: one loop per function and type, in the AVX2 build where the CPU has it
// (the compares and the narrowing to bytes vectorize).
template <class T, class F>
void bool_loop2(bool* o, const T* p, const T* q, std::int64_t n, OneElement which, F f) {
  cpu::loops::each2_best<unsigned char>(o, p, q, n, which, [f](T a, T b, unsigned char&) -> bool { return f(a, b); });
}
template <class T>
void compare_n(Cmp op, bool* o, const T* p, const T* q, std::int64_t n, OneElement which) {
  switch (op) {
    case Cmp::equal: return bool_loop2(o, p, q, n, which, [](T a, T b) { return a == b; });
    case Cmp::not_equal: return bool_loop2(o, p, q, n, which, [](T a, T b) { return a != b; });
    case Cmp::less: return bool_loop2(o, p, q, n, which, [](T a, T b) { return a < b; });
    case Cmp::less_equal: return bool_loop2(o, p, q, n, which, [](T a, T b) { return a <= b; });
    case Cmp::greater: return bool_loop2(o, p, q, n, which, [](T a, T b) { return a > b; });
    case Cmp::greater_equal: return bool_loop2(o, p, q, n, which, [](T a, T b) { return a >= b; });
    case Cmp::logical_and: return bool_loop2(o, p, q, n, which, [](T a, T b) { return (a != T(0)) & (b != T(0)); });
    case Cmp::logical_or: return bool_loop2(o, p, q, n, which, [](T a, T b) { return (a != T(0)) | (b != T(0)); });
    case Cmp::logical_xor: return bool_loop2(o, p, q, n, which, [](T a, T b) { return (a != T(0)) != (b != T(0)); });
  }
}
template <class T>
void predicate_n(Pred op, bool* o, const T* x, std::int64_t n) {
  if constexpr (std::is_floating_point_v<T>) {
    using U = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
    constexpr U kSign = U{1} << (sizeof(T) * 8 - 1);
    switch (op) {  // (on the bits: the compares of NaN would raise no flag, but this vectorizes alike)
      case Pred::isnan: return cpu::loops::each1_best(o, x, n, [](T v) { return v != v; });
      case Pred::isinf: return cpu::loops::each1_best(o, x, n, [](T v) { return std::fabs(v) == std::numeric_limits<T>::infinity(); });
      case Pred::isfinite: return cpu::loops::each1_best(o, x, n, [](T v) { return std::fabs(v) < std::numeric_limits<T>::infinity(); });
      case Pred::signbit: return cpu::loops::each1_best(o, x, n, [](T v) { return (std::bit_cast<U>(v) & kSign) != 0; });
      case Pred::logical_not: return cpu::loops::each1_best(o, x, n, [](T v) { return v == T(0); });
    }
  } else {
    switch (op) {
      case Pred::isnan:
      case Pred::isinf: return cpu::loops::each1_best(o, x, n, [](T) { return false; });
      case Pred::isfinite: return cpu::loops::each1_best(o, x, n, [](T) { return true; });
      case Pred::signbit: return cpu::loops::each1_best(o, x, n, [](T v) { return v < T(0); });
      case Pred::logical_not: return cpu::loops::each1_best(o, x, n, [](T v) { return v == T(0); });
    }
  }
}
template <class T>
void sign_n(T* o, const T* x, std::int64_t n) {
  cpu::loops::each1_best(o, x, n, [](T v) -> T {
    if constexpr (std::is_floating_point_v<T>) return v > T(0) ? T(1) : (v < T(0) ? T(-1) : (v == v ? T(0) : v));
    else if constexpr (std::is_unsigned_v<T>) return v > T(0) ? T(1) : T(0);
    else return static_cast<T>((v > T(0)) - (v < T(0)));
  });
}
bool exact_fast(Exact op) {
#if IVY_AVX2
  if (cpu::isa::kAvx2) return true;
#endif
  return op == Exact::negative || op == Exact::square || op == Exact::reciprocal;
}
template <class T>
void exact_n(Exact op, T* o, const T* x, std::int64_t n) {
  switch (op) {
    case Exact::negative: return cpu::loops::each1_best(o, x, n, [](T v) { return -v; });
    case Exact::square: return cpu::loops::each1_best(o, x, n, [](T v) { return v * v; });
    case Exact::floor: return cpu::loops::each1_best(o, x, n, [](T v) { return std::floor(v); });
    case Exact::ceil: return cpu::loops::each1_best(o, x, n, [](T v) { return std::ceil(v); });
    case Exact::trunc: return cpu::loops::each1_best(o, x, n, [](T v) { return std::trunc(v); });
    case Exact::round: return cpu::loops::each1_best(o, x, n, [](T v) { return std::nearbyint(v); });
    case Exact::reciprocal: return cpu::loops::each1_best(o, x, n, [](T v) { return T(1) / v; });
  }
}
#if IVY_AVX2
// maximum/minimum of two full float operands both off a 32-byte boundary (cpu::loops::splits_lines),
// with AVX-512VL: 256-bit lanes, each filled by two 16-byte loads, which never straddle a line
// on 16-byte-aligned data. The loop of 128-bit vectors pays the NaN rule's compare and
// select on top of a plain maxps for every 16 bytes, and the 256-bit loop on such inputs
// splits every other load; this loop does neither. Lanes as the functor's: max_ps(a, b) is
// `a > b ? a : b`, min_ps(a, b) `a < b ? a : b`, and a NaN `a` is kept.
// The two lane types' intrinsics (256-bit registers of two 16-byte halves).
template <class T>
struct Halves;
template <>
struct Halves<float> {
  using V = __m256;
  static constexpr int kLanes = 8;
  IVY_AVX512VL_FN static V load(const float* p) { return _mm256_loadu2_m128(p + 4, p); }
  IVY_AVX512VL_FN static V max(V a, V b) { return _mm256_max_ps(a, b); }
  IVY_AVX512VL_FN static V min(V a, V b) { return _mm256_min_ps(a, b); }
  IVY_AVX512VL_FN static V keep_nan(V m, V a) { return _mm256_mask_blend_ps(_mm256_cmp_ps_mask(a, a, _CMP_UNORD_Q), m, a); }
  IVY_AVX512VL_FN static void store(float* o, V r, bool halves) {
    if (halves) _mm256_storeu2_m128(o + 4, o, r);
    else _mm256_storeu_ps(o, r);
  }
};
template <>
struct Halves<double> {
  using V = __m256d;
  static constexpr int kLanes = 4;
  IVY_AVX512VL_FN static V load(const double* p) { return _mm256_loadu2_m128d(p + 2, p); }
  IVY_AVX512VL_FN static V max(V a, V b) { return _mm256_max_pd(a, b); }
  IVY_AVX512VL_FN static V min(V a, V b) { return _mm256_min_pd(a, b); }
  IVY_AVX512VL_FN static V keep_nan(V m, V a) { return _mm256_mask_blend_pd(_mm256_cmp_pd_mask(a, a, _CMP_UNORD_Q), m, a); }
  IVY_AVX512VL_FN static void store(double* o, V r, bool halves) {
    if (halves) _mm256_storeu2_m128d(o + 2, o, r);
    else _mm256_storeu_pd(o, r);
  }
};
template <class T>
IVY_AVX512VL_FN void maxmin_halves(bool mx, T* o, const T* p, const T* q, std::int64_t n) {
  using H = Halves<T>;
  const bool o_off = (reinterpret_cast<std::uintptr_t>(o) & 31) != 0;
  std::int64_t i = 0;
  for (; i + H::kLanes <= n; i += H::kLanes) {
    const typename H::V a = H::load(p + i), b = H::load(q + i);
    H::store(o + i, H::keep_nan(mx ? H::max(a, b) : H::min(a, b), a), o_off);
  }
  for (; i < n; ++i) o[i] = mx ? maximum(p[i], q[i]) : minimum(p[i], q[i]);
}
#endif
template <class T>
void arith_n(Arith op, T* o, const T* p, const T* q, std::int64_t n, OneElement which) {
#if IVY_AVX2
  if constexpr (std::is_floating_point_v<T>) {
    if ((op == Arith::maximum || op == Arith::minimum) && which == OneElement::neither && n >= 64 &&
        cpu::isa::kAvx512 && cpu::loops::splits_lines(o, p, q, OneElement::neither))
      return maxmin_halves(op == Arith::maximum, o, p, q, n);
  }
#endif
  using Flag = unsigned char;
  if constexpr (std::is_floating_point_v<T>) {
    switch (op) {
      case Arith::add: cpu::loops::each2_best<Flag>(o, p, q, n, which, [](T a, T b, Flag&) { return a + b; }); return;
      case Arith::subtract: cpu::loops::each2_best<Flag>(o, p, q, n, which, [](T a, T b, Flag&) { return a - b; }); return;
      case Arith::multiply: cpu::loops::each2_best<Flag>(o, p, q, n, which, [](T a, T b, Flag&) { return a * b; }); return;
      case Arith::divide: cpu::loops::each2_best<Flag>(o, p, q, n, which, [](T a, T b, Flag&) { return a / b; }); return;
      // The select on a compare (each2_best's Wide loop), cpu::npy::maximum's rule.
      case Arith::maximum: cpu::loops::each2_best<Flag, true>(o, p, q, n, which, [](T a, T b, Flag&) { return maximum(a, b); }); return;
      case Arith::minimum: cpu::loops::each2_best<Flag, true>(o, p, q, n, which, [](T a, T b, Flag&) { return minimum(a, b); }); return;
    }
  } else {
    using W = std::make_unsigned_t<T>;
    switch (op) {
      case Arith::add:
        cpu::loops::each2_best<Flag>(o, p, q, n, which, [](T a, T b, Flag&) { return static_cast<T>(static_cast<W>(static_cast<W>(a) + static_cast<W>(b))); });
        return;
      case Arith::subtract:
        cpu::loops::each2_best<Flag>(o, p, q, n, which, [](T a, T b, Flag&) { return static_cast<T>(static_cast<W>(static_cast<W>(a) - static_cast<W>(b))); });
        return;
      case Arith::multiply:
        cpu::loops::each2_best<Flag>(o, p, q, n, which, [](T a, T b, Flag&) { return static_cast<T>(static_cast<W>(static_cast<W>(a) * static_cast<W>(b))); });
        return;
      case Arith::divide: return;  // float only (the header)
      case Arith::maximum: cpu::loops::each2_best<Flag, true>(o, p, q, n, which, [](T a, T b, Flag&) { return maximum(a, b); }); return;
      case Arith::minimum: cpu::loops::each2_best<Flag, true>(o, p, q, n, which, [](T a, T b, Flag&) { return minimum(a, b); }); return;
    }
  }
}
#define IVY_NPY_ARITH(T) template void arith_n<T>(Arith, T*, const T*, const T*, std::int64_t, OneElement);
IVY_NPY_ARITH(float)
IVY_NPY_ARITH(double)
IVY_NPY_ARITH(std::int8_t)
IVY_NPY_ARITH(std::int16_t)
IVY_NPY_ARITH(std::int32_t)
IVY_NPY_ARITH(std::int64_t)
IVY_NPY_ARITH(std::uint8_t)
#undef IVY_NPY_ARITH
template void exact_n<float>(Exact, float*, const float*, std::int64_t);
template void exact_n<double>(Exact, double*, const double*, std::int64_t);
template void sign_n<std::int8_t>(std::int8_t*, const std::int8_t*, std::int64_t);
template void sign_n<std::int16_t>(std::int16_t*, const std::int16_t*, std::int64_t);
template void sign_n<std::int32_t>(std::int32_t*, const std::int32_t*, std::int64_t);
template void sign_n<std::int64_t>(std::int64_t*, const std::int64_t*, std::int64_t);
template void sign_n<std::uint8_t>(std::uint8_t*, const std::uint8_t*, std::int64_t);
template void sign_n<float>(float*, const float*, std::int64_t);
template void sign_n<double>(double*, const double*, std::int64_t);
#define IVY_NPY_BOOL(T)                                                                 \
  template void compare_n<T>(Cmp, bool*, const T*, const T*, std::int64_t, OneElement); \
  template void predicate_n<T>(Pred, bool*, const T*, std::int64_t);
IVY_NPY_BOOL(bool)
IVY_NPY_BOOL(std::int8_t)
IVY_NPY_BOOL(std::int16_t)
IVY_NPY_BOOL(std::int32_t)
IVY_NPY_BOOL(std::int64_t)
IVY_NPY_BOOL(std::uint8_t)
IVY_NPY_BOOL(float)
IVY_NPY_BOOL(double)
#undef IVY_NPY_BOOL

}  // namespace ivy::cpu::npy

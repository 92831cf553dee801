// Element-wise math of ivy's own (vec_math.hpp). Built with -ffp-contract=off: the fused
// multiply-adds are the ones the source names, so the baseline and AVX2 loops round alike;
// and -fno-math-errno, so that loops calling sqrt vectorize.
#include "vec_math.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

#include "cpu_isa.hpp"
#include "cpu_loops.hpp"

#if IVY_AVX2
#include <immintrin.h>
#endif

namespace ivy::cpu::vmath {
namespace {
#define IVY_VM [[gnu::always_inline]] inline  // the loops' helpers, inlined into each ISA's build

// ---- log1p, float32
//
// u = 1 + x is split as u = 2^k * m with m in [sqrt(1/2), sqrt(2)), and
//   log1p(x) = k*ln2 + log1p(f) + c/u,   f = m - 1,
// where c = (1 + x) - u is the rounding error of u, found exactly by the usual two-sum
// steps (x - (u - 1) while |x| < 2, else 1 - (u - x)). For k = 0 the exact f is x itself and
// c is not needed. c/u is below half an ulp of u relative to u, and for k != 0 the result is
// at least 0.34 in magnitude, so c/u is needed only to a few bits: it is c * 2^-k * (1 - f + f^2)
// (1/m to within |f|^3 < 8 %, no division).
// log1p(f) = f - f^2/2 + f^3 * P(f) on [-0.2930, 0.4143], P of degree 8 fitted by
// iteratively reweighted least squares toward the minimax error of the result relative to
// log1p(f) (tests/vec_math/fit_log1p.py: 9e-10 with the coefficients rounded to float).
constexpr float kP[9] = {0.3333331048488617f,   -0.24999986588954926f, 0.20002231001853943f,
                         -0.1666925996541977f,  0.14218559861183167f,  -0.12384109944105148f,
                         0.11873514205217361f,  -0.11791542917490005f, 0.06916240602731705f};
constexpr float kLn2Hi = 0.693359375f;           // 355/512: k * kLn2Hi is exact for |k| <= 2^15
constexpr float kLn2Lo = -2.12194440054690583e-4f;  // ln 2 - kLn2Hi
constexpr std::int32_t kSqrtHalfBits = 0x3f3504f3;   // float(sqrt(1/2))

// One element; the AVX2 loop below does exactly these operations lane by lane.
inline float log1p_one(float x) {
  if (!(x > -1.f && x < std::numeric_limits<float>::infinity()) || x == 0.f) {
    if (x == -1.f) return -std::numeric_limits<float>::infinity();
    return x < -1.f ? std::numeric_limits<float>::quiet_NaN() : x;  // +inf, NaN, zeros
  }
  const float u = x + 1.f;
  const std::int32_t iu = std::bit_cast<std::int32_t>(u) + (0x3f800000 - kSqrtHalfBits);
  const std::int32_t ki = (iu >> 23) - 127;
  const float m = std::bit_cast<float>((iu & 0x007fffff) + kSqrtHalfBits);
  float f, c;
  if (ki == 0) {
    f = x;
    c = 0.f;
  } else {
    f = m - 1.f;
    const float err = ki >= 2 ? 1.f - (u - x) : x - (u - 1.f);
    const float scale = std::bit_cast<float>((127 - std::min(ki, 126)) << 23);  // 2^-k
    c = err * scale * std::fma(f, f, 1.f - f);
  }
  const float k = static_cast<float>(ki);
  const float z = f * f;
  float p = kP[8];
  for (int i = 7; i >= 0; --i) p = std::fma(p, f, kP[i]);
  float y = std::fma(z * f, p, std::fma(k, kLn2Lo, c));
  y = std::fma(-0.5f, z, y);
  return std::fma(k, kLn2Hi, f + y);
}

#if IVY_AVX2
IVY_AVX2_FMA_FN inline __m256 log1p8(__m256 x) {
  const __m256 one = _mm256_set1_ps(1.f);
  const __m256 u = _mm256_add_ps(x, one);
  const __m256i iu = _mm256_add_epi32(_mm256_castps_si256(u), _mm256_set1_epi32(0x3f800000 - kSqrtHalfBits));
  const __m256i ki = _mm256_sub_epi32(_mm256_srai_epi32(iu, 23), _mm256_set1_epi32(127));
  const __m256 m = _mm256_castsi256_ps(
      _mm256_add_epi32(_mm256_and_si256(iu, _mm256_set1_epi32(0x007fffff)), _mm256_set1_epi32(kSqrtHalfBits)));
  const __m256 k0 = _mm256_castsi256_ps(_mm256_cmpeq_epi32(ki, _mm256_setzero_si256()));
  const __m256 big = _mm256_castsi256_ps(_mm256_cmpgt_epi32(ki, _mm256_set1_epi32(1)));
  const __m256 f = _mm256_blendv_ps(_mm256_sub_ps(m, one), x, k0);
  const __m256 err = _mm256_blendv_ps(_mm256_sub_ps(x, _mm256_sub_ps(u, one)), _mm256_sub_ps(one, _mm256_sub_ps(u, x)), big);
  const __m256 scale = _mm256_castsi256_ps(
      _mm256_slli_epi32(_mm256_sub_epi32(_mm256_set1_epi32(127), _mm256_min_epi32(ki, _mm256_set1_epi32(126))), 23));
  __m256 c = _mm256_mul_ps(_mm256_mul_ps(err, scale), _mm256_fmadd_ps(f, f, _mm256_sub_ps(one, f)));
  c = _mm256_andnot_ps(k0, c);
  const __m256 k = _mm256_cvtepi32_ps(ki);
  const __m256 z = _mm256_mul_ps(f, f);
  __m256 p = _mm256_set1_ps(kP[8]);
  for (int i = 7; i >= 0; --i) p = _mm256_fmadd_ps(p, f, _mm256_set1_ps(kP[i]));
  __m256 y = _mm256_fmadd_ps(_mm256_mul_ps(z, f), p, _mm256_fmadd_ps(k, _mm256_set1_ps(kLn2Lo), c));
  y = _mm256_fmadd_ps(_mm256_set1_ps(-0.5f), z, y);
  const __m256 r = _mm256_fmadd_ps(k, _mm256_set1_ps(kLn2Hi), _mm256_add_ps(f, y));
  // -1 -> -inf, below -1 (and -inf) -> NaN, +inf, NaN and zeros -> themselves
  const __m256 inf = _mm256_set1_ps(std::numeric_limits<float>::infinity());
  const __m256 ok = _mm256_and_ps(_mm256_and_ps(_mm256_cmp_ps(x, _mm256_set1_ps(-1.f), _CMP_GT_OQ),
                                                _mm256_cmp_ps(x, inf, _CMP_LT_OQ)),
                                  _mm256_cmp_ps(x, _mm256_setzero_ps(), _CMP_NEQ_OQ));
  __m256 sp = _mm256_blendv_ps(x, _mm256_set1_ps(std::numeric_limits<float>::quiet_NaN()),
                               _mm256_cmp_ps(x, _mm256_set1_ps(-1.f), _CMP_LT_OQ));
  sp = _mm256_blendv_ps(sp, _mm256_sub_ps(_mm256_setzero_ps(), inf), _mm256_cmp_ps(x, _mm256_set1_ps(-1.f), _CMP_EQ_OQ));
  return _mm256_blendv_ps(sp, r, ok);
}
IVY_AVX2_FMA_FN void log1p_avx2(float* o, const float* x, std::int64_t n) {
  std::int64_t i = 0;
  for (; i + 8 <= n; i += 8) _mm256_storeu_ps(o + i, log1p8(_mm256_loadu_ps(x + i)));
  if (i < n) {  // the tail through one padded vector: the same operations as the others
    alignas(32) float buf[8] = {};
    std::memcpy(buf, x + i, static_cast<std::size_t>(n - i) * sizeof(float));
    _mm256_store_ps(buf, log1p8(_mm256_load_ps(buf)));
    std::memcpy(o + i, buf, static_cast<std::size_t>(n - i) * sizeof(float));
  }
}
#endif

// ---- exp, float32, computed in float32
//
// x = n ln2 + r, n = x/ln2 rounded (by adding 1.5*2^23 in one fused multiply-add), r by two
// fused multiply-adds (ln2 in a part of 16 bits and the rest); e^r by its Taylor polynomial
// of degree 7 in fused multiply-adds (|r| <= 0.347: truncation 5e-9 relative); times 2^n
// built as two factors 2^(n/2), 2^(n - n/2), so that subnormal results round once and
// overflow gives inf. x is clamped to [-104, 89] first (the result is 0 or inf beyond);
// NaN comes back as itself. Within 0.94 ulp of the exact value over every float32 (measured
// against the float64 exp; tests/vec_math).
IVY_VM float exp32_one(float x) {
  const float xc = std::min(std::max(x, -104.0f), 89.0f);
  const float t = std::fma(xc, 1.44269504088896341f, 12582912.0f);
  const float nf = t - 12582912.0f;
  float r = std::fma(nf, -0.693145751953125f, xc);
  r = std::fma(nf, -1.428606765330187e-06f, r);
  float p = 1.0f / 5040.0f;
  p = std::fma(p, r, 1.0f / 720.0f);
  p = std::fma(p, r, 1.0f / 120.0f);
  p = std::fma(p, r, 1.0f / 24.0f);
  p = std::fma(p, r, 1.0f / 6.0f);
  p = std::fma(p, r, 0.5f);
  p = std::fma(p, r, 1.0f);
  p = std::fma(p, r, 1.0f);
  const std::int32_t n = std::bit_cast<std::int32_t>(t) - 0x4b400000;  // t's bits less 1.5*2^23's
  const std::int32_t n1 = n >> 1, n2 = n - n1;
  const float s1 = std::bit_cast<float>((n1 + 127) << 23), s2 = std::bit_cast<float>((n2 + 127) << 23);
  const float y = p * s1 * s2;
  return x != x ? x : y;
}
IVY_VM void exp32_loop(float* __restrict o, const float* __restrict x, std::int64_t n) {
#pragma GCC unroll 4
  for (std::int64_t i = 0; i < n; ++i) o[i] = exp32_one(x[i]);
}
#if IVY_AVX2
IVY_AVX2_FMA_FN void exp32_loop_avx2(float* __restrict o, const float* __restrict x, std::int64_t n) {
  exp32_loop(o, x, n);
}
IVY_AVX512_FN void exp32_loop_avx512(float* __restrict o, const float* __restrict x, std::int64_t n) {
  exp32_loop(o, x, n);
}
#endif
void exp32_run(float* o, const float* x, std::int64_t n) {
#if IVY_AVX2
  if (cpu::isa::kAvx512) return exp32_loop_avx512(o, x, n);
  if (cpu::isa::kAvx2) return exp32_loop_avx2(o, x, n);
#endif
  exp32_loop(o, x, n);
}

// ---- float32 functions computed in float64
//
// Each computes its float32 result from the float64 value of x with float64 adds, multiplies,
// divides and square roots (no FMA: the baseline and AVX2 loops give the same bits), to
// about 1e-13 relative, and rounds once: the exact value rounded to float32 but where it lies
// within ~1e-13 relative of a rounding boundary. Special values come out as C99 says (NaN in,
// NaN out; the signs of zeros of the odd functions; the infinities). Cores:
// - exp_parts: x = n ln2 + r (n = x/ln2 rounded by adding and subtracting 1.5*2^52, ln2 in
//   two parts, the first of 32 bits so n*part is exact), e^r - 1 by its Taylor series to
//   r^11 (|r| <= 0.35: truncation 7e-15 relative), 2^n built from the exponent bits; x clamped to
//   +-200 first (float32 results overflow or underflow well inside). e^x = 2^n + 2^n (e^r - 1),
//   e^x - 1 = 2^n (e^r - 1) + (2^n - 1) (no cancellation beyond 3.4x).
// - log_d: x = 2^k m with m in [sqrt(1/2), sqrt(2)) from the float64 bits (float32
//   subnormals are normal there), log m = 2 atanh(s), s = (m - 1)/(m + 1), |s| <= 0.172, by
//   its series to s^15 (truncation 1e-13).
// - log1p_d: log(u) + (y - (u - 1))/u for u = 1 + y (the rounding of u put back).
// - atan_d: 1/|t| above 1 (pi/2 - ...), then (w - 1)/(w + 1) above tan(pi/8) (pi/4 + ...),
//   then one halving, atan u = 2 atan(u / (1 + sqrt(1 + u^2))), |u| <= 0.2, by its series to
//   u^19 (truncation 6e-16).
// - trigonometric: x = n*(pi/2) + r by Cody-Waite in three parts of pi/2 (the first two of 33
//   bits: n*part exact for |n| < 2^20, |x| < 2^17 here), sin r and cos r by their series to
//   r^13 and r^12 (|r| <= pi/4: truncation below 1e-12 relative); |x| >= 2^17, inf and NaN go
//   to libm in a second pass.
constexpr double kRound = 0x1.8p52;
constexpr double kInvLn2 = 0x1.71547652b82fep+0;
constexpr double kLn2 = 0x1.62e42fefa39efp-1;
constexpr double kLn2A = 0x1.62e42fee00000p-1;  // 32 bits
constexpr double kLn2B = 0x1.a39ef35793c76p-33;
constexpr double kInvLn10 = 0x1.bcb7b1526e50ep-2;
constexpr double kPio2 = 0x1.921fb54442d18p+0;
constexpr double kPio4 = 0x1.921fb54442d18p-1;
constexpr double kTwoOverPi = 0x1.45f306dc9c883p-1;
constexpr double kPio2A = 0x1.921fb54400000p+0;   // 33 bits
constexpr double kPio2B = 0x1.0b4611a600000p-34;  // 33 bits
constexpr double kPio2C = 0x1.3198a2e037073p-69;
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// x = n ln2 + r; returns e^r - 1 (its series to r^11 less the 1, no cancellation) and 2^n.
IVY_VM double exp_parts(double x, double& scale) {
  x = x > 200.0 ? 200.0 : (x < -200.0 ? -200.0 : x);  // NaN stays
  const double t = x * kInvLn2 + kRound;
  const double n = t - kRound;
  const double r = (x - n * kLn2A) - n * kLn2B;
  constexpr double kInvFact[9] = {1.0, 1.0 / 2, 1.0 / 6, 1.0 / 24, 1.0 / 120, 1.0 / 720, 1.0 / 5040,
                                  1.0 / 40320, 1.0 / 362880};
  double p = 1.0 / 39916800;  // 1/11!
  p = p * r + 1.0 / 3628800;
  for (int k = 8; k >= 0; --k) p = p * r + kInvFact[k];
  const std::uint64_t ni = std::bit_cast<std::uint64_t>(t) - std::bit_cast<std::uint64_t>(kRound);  // n mod 2^64
  scale = std::bit_cast<double>((ni + 1023) << 52);
  return r * p;
}
IVY_VM double exp_d(double x) {
  double scale;
  const double em = exp_parts(x, scale);
  return scale + scale * em;
}
// sinh |x| (Cosh = false) or cosh x, no division: |x| = n ln2 + r as in exp_parts, C = cosh r
// and S = sinh r by their series to r^10 and r^11 (truncation 6e-15 relative), and
// e^(+-|x|) = 2^(+-n) (C +- S) give sinh |x| = C (2^(n-1) - 2^(-n-1)) + S (2^(n-1) + 2^(-n-1))
// (n = 0: S alone; n >= 1: the two terms cancel by at most 2.5x) and cosh the terms swapped.
template <bool Cosh>
IVY_VM double sinh_cosh_abs(double x) {
  double a = std::fabs(x);
  a = a > 200.0 ? 200.0 : a;  // NaN stays
  const double t = a * kInvLn2 + kRound;
  const double n = t - kRound;
  const double r = (a - n * kLn2A) - n * kLn2B;
  const double z = r * r;
  const double c = 1.0 + z * (0.5 + z * (1.0 / 24 + z * (1.0 / 720 + z * (1.0 / 40320 + z * (1.0 / 3628800)))));
  const double s = r + r * (z * (1.0 / 6 + z * (1.0 / 120 + z * (1.0 / 5040 + z * (1.0 / 362880 + z * (1.0 / 39916800))))));
  const std::uint64_t ni = std::bit_cast<std::uint64_t>(t) - std::bit_cast<std::uint64_t>(kRound);  // 0 <= n <= 289
  const double hp = std::bit_cast<double>((ni + 1022) << 52);  // 2^(n-1)
  const double hm = std::bit_cast<double>((1022 - ni) << 52);  // 2^(-n-1)
  return Cosh ? c * (hp + hm) + s * (hp - hm) : c * (hp - hm) + s * (hp + hm);
}
// e^x - 1 = 2^n (e^r - 1) + (2^n - 1): 2^n - 1 exact for |n| <= 53; for n = 0 the series alone
IVY_VM double expm1_d(double x) {
  double scale;
  const double em = exp_parts(x, scale);
  return scale * em + (scale - 1.0);
}
// log x for x > 0 (0 -> -inf, negative -> NaN, inf -> inf, NaN -> NaN); k, lm: x = 2^k m,
// log m, for log2 and log10.
IVY_VM double log_parts(double x, double& kd) {
  // (unsigned shifts and the exponent field made a float64 by the 2^52 trick: AVX2 has no
  // 64-bit arithmetic shift or int64 -> float64 conversion, and the loop would not vectorize)
  const std::uint64_t bits = std::bit_cast<std::uint64_t>(x);
  const double field = std::bit_cast<double>(0x4330000000000000ULL | (bits >> 52)) - 0x1p52;
  double m = std::bit_cast<double>((bits & 0x000fffffffffffffULL) | 0x3ff0000000000000ULL);
  const bool hi = m > 1.4142135623730951;
  m = hi ? m * 0.5 : m;
  kd = field - (hi ? 1022.0 : 1023.0);
  const double sr = (m - 1.0) / (m + 1.0);
  const double z = sr * sr;
  double p = 1.0 / 15;
  constexpr double kOdd[7] = {1.0, 1.0 / 3, 1.0 / 5, 1.0 / 7, 1.0 / 9, 1.0 / 11, 1.0 / 13};
  for (int k = 6; k >= 0; --k) p = p * z + kOdd[k];
  return 2.0 * sr * p;  // log m
}
IVY_VM double log_fix(double x, double v) {  // the special values of log at 0, < 0, inf, NaN
  return x > 0.0 && x < kInf ? v : (x == 0.0 ? -kInf : (x == kInf ? kInf : kNaN));
}
IVY_VM double log_d(double x) {
  double k;
  const double lm = log_parts(x, k);
  return log_fix(x, k * kLn2 + lm);
}
IVY_VM double log1p_d(double y) {  // y >= -1 (below: NaN)
  const double u = 1.0 + y;
  return log_d(u) + (u > 0.0 && u < kInf ? (y - (u - 1.0)) / u : 0.0);
}
IVY_VM double atan_d(double t) {
  const double a = std::fabs(t);
  const bool inv = a > 1.0;
  const double w = inv ? 1.0 / a : a;
  const bool big = w > 0.41421356237309503;
  const double u0 = big ? (w - 1.0) / (w + 1.0) : w;
  const double u = u0 / (1.0 + std::sqrt(1.0 + u0 * u0));  // atan u0 = 2 atan u
  const double z = u * u;
  double p = 1.0 / 19;
  constexpr double kAlt[9] = {1.0, -1.0 / 3, 1.0 / 5, -1.0 / 7, 1.0 / 9, -1.0 / 11, 1.0 / 13, -1.0 / 15, 1.0 / 17};
  p = -p;
  for (int k = 8; k >= 0; --k) p = p * z + kAlt[k];
  double r = 2.0 * u * p + (big ? kPio4 : 0.0);
  r = inv ? kPio2 - r : r;
  return std::copysign(r, t);
}
// sin r, cos r for |r| <= pi/4
IVY_VM void sincos_reduced(double r, double& s, double& c) {
  const double z = r * r;
  const double sp =
      z * (-1.0 / 6 + z * (1.0 / 120 + z * (-1.0 / 5040 + z * (1.0 / 362880 + z * (-1.0 / 39916800 + z * (1.0 / 6227020800))))));
  s = r + r * sp;
  c = 1.0 + z * (-0.5 + z * (1.0 / 24 + z * (-1.0 / 720 + z * (1.0 / 40320 + z * (-1.0 / 3628800 + z * (1.0 / 479001600))))));
}
// x = n*(pi/2) + r: returns r, q = n mod 4
IVY_VM double reduce_pio2(double x, std::int64_t& q) {
  const double t = x * kTwoOverPi + kRound;
  const double n = t - kRound;
  q = std::bit_cast<std::int64_t>(t) & 3;
  return ((x - n * kPio2A) - n * kPio2B) - n * kPio2C;
}

template <Op F>
IVY_VM float f32(float xf) {
  const double x = xf;
  if constexpr (F == Op::sin || F == Op::cos || F == Op::tan) {
    std::int64_t q;
    double s, c;
    sincos_reduced(reduce_pio2(x, q), s, c);
    double v;
    if constexpr (F == Op::tan) {
      const bool odd = (q & 1) != 0;
      v = (odd ? -c : s) / (odd ? s : c);
    } else {
      if constexpr (F == Op::cos) q = (q + 1) & 3;  // cos x = sin(x + pi/2)
      const double sv = (q & 1) ? c : s;
      v = (q & 2) ? -sv : sv;
    }
    const float f = static_cast<float>(v);
    if constexpr (F == Op::cos) return f;
    else return xf == 0.f ? xf : f;  // the sign of a zero (r + r*sp is +0 for r = -0)
  } else if constexpr (F == Op::exp) {
    return static_cast<float>(exp_d(x));
  } else if constexpr (F == Op::expm1) {
    return xf == 0.f ? xf : static_cast<float>(expm1_d(x));
  } else if constexpr (F == Op::log || F == Op::log2 || F == Op::log10) {
    double k;
    const double lm = log_parts(x, k);
    double v;
    if constexpr (F == Op::log) v = k * kLn2 + lm;
    else if constexpr (F == Op::log2) v = k + lm * kInvLn2;
    else v = (k * kLn2 + lm) * kInvLn10;
    return static_cast<float>(log_fix(x, v));
  } else if constexpr (F == Op::sinh) {
    return static_cast<float>(std::copysign(sinh_cosh_abs<false>(x), x));
  } else if constexpr (F == Op::cosh) {
    return static_cast<float>(sinh_cosh_abs<true>(x));
  } else if constexpr (F == Op::tanh) {
    const double e = expm1_d(2.0 * std::fabs(x));
    return static_cast<float>(std::copysign(e / (e + 2.0), x));
  } else if constexpr (F == Op::asin) {
    return static_cast<float>(atan_d(x / std::sqrt((1.0 - x) * (1.0 + x))));
  } else if constexpr (F == Op::acos) {
    return static_cast<float>(2.0 * atan_d(std::sqrt((1.0 - x) / (1.0 + x))));
  } else if constexpr (F == Op::atan) {
    return static_cast<float>(atan_d(x));
  } else if constexpr (F == Op::asinh) {
    const double a = std::fabs(x);  // above 2^60, a + a^2/(1 + sqrt(1 + a^2)) is 2a (and inf stays inf)
    const double y = a > 0x1p60 ? 2.0 * a : a + a * a / (1.0 + std::sqrt(1.0 + a * a));
    return static_cast<float>(std::copysign(log1p_d(y), x));
  } else if constexpr (F == Op::acosh) {
    const double d = x - 1.0;
    return static_cast<float>(x >= 1.0 ? log1p_d(d + std::sqrt(d * (x + 1.0))) : kNaN);
  } else {
    static_assert(F == Op::atanh);
    const double a = std::fabs(x);
    return static_cast<float>(std::copysign(0.5 * log1p_d(2.0 * a / (1.0 - a)), x));
  }
}
template <Op F>
constexpr bool kTrig = F == Op::sin || F == Op::cos || F == Op::tan;
// One pass; for the trigonometric functions it notes any |x| >= 2^17 (or inf/NaN).
template <Op F>
IVY_VM std::uint32_t f32_loop(float* __restrict o, const float* __restrict x, std::int64_t n) {
  std::uint32_t far = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    if constexpr (kTrig<F>) far |= static_cast<std::uint32_t>(!(std::fabs(x[i]) < 0x1p17f));
    o[i] = f32<F>(x[i]);
  }
  return far;
}
#if IVY_AVX2
template <Op F>
IVY_AVX2_FN std::uint32_t f32_loop_avx2(float* __restrict o, const float* __restrict x, std::int64_t n) {
  return f32_loop<F>(o, x, n);
}
template <Op F>
IVY_AVX512_FN std::uint32_t f32_loop_avx512(float* __restrict o, const float* __restrict x, std::int64_t n) {
  return f32_loop<F>(o, x, n);
}
#endif
template <Op F>
void f32_run(float* o, const float* x, std::int64_t n) {
  std::uint32_t far;
#if IVY_AVX2
  if (cpu::isa::kAvx512)
    far = f32_loop_avx512<F>(o, x, n);
  else if (cpu::isa::kAvx2)
    far = f32_loop_avx2<F>(o, x, n);
  else
#endif
    far = f32_loop<F>(o, x, n);
  if constexpr (kTrig<F>) {
    if (far)
      for (std::int64_t i = 0; i < n; ++i) {
        if (std::fabs(x[i]) < 0x1p17f) continue;
        o[i] = F == Op::sin ? std::sin(x[i]) : (F == Op::cos ? std::cos(x[i]) : std::tan(x[i]));
      }
  }
}
// pow for x > 0 finite and y finite: e^(y ln x) in float64 (ln x to ~1e-16 relative, so the
// exponent to ~1e-14 absolute at most where the float32 result is finite and not 0).
IVY_VM float pow_positive(float xf, float yf) {
  double k;
  const double lm = log_parts(xf, k);
  return static_cast<float>(exp_d(static_cast<double>(yf) * (k * kLn2 + lm)));
}
IVY_VM bool pow_other(float x, float y) {  // the cases left to libm
  return !(x > 0.f && x < std::numeric_limits<float>::infinity() && std::fabs(y) < std::numeric_limits<float>::infinity());
}
IVY_VM std::uint32_t pow_loop(float* __restrict o, const float* p, const float* q, std::int64_t n, OneElement which) {
  return cpu::loops::each2<std::uint32_t>(o, p, q, n, which, [](float a, float b, std::uint32_t& flag) {
    flag |= static_cast<std::uint32_t>(pow_other(a, b));
    return pow_positive(a, b);
  });
}
// The AVX2 and AVX-512 builds of a binary loop (name##_avx2, name##_avx512: the same source
// under each target), and the widest one the CPU runs.
using BinaryLoop = std::uint32_t (*)(float*, const float*, const float*, std::int64_t, OneElement);
#if IVY_AVX2
#define IVY_VM_BINARY_BUILDS(name)                                                                               \
  IVY_AVX2_FN std::uint32_t name##_avx2(float* __restrict o, const float* p, const float* q, std::int64_t n,     \
                                        OneElement which) {                                                      \
    return name(o, p, q, n, which);                                                                              \
  }                                                                                                              \
  IVY_AVX512_FN std::uint32_t name##_avx512(float* __restrict o, const float* p, const float* q, std::int64_t n, \
                                            OneElement which) {                                                  \
    return name(o, p, q, n, which);                                                                              \
  }
#define IVY_VM_BINARY_BEST(name) best_binary(name, name##_avx2, name##_avx512)
BinaryLoop best_binary(BinaryLoop base, BinaryLoop avx2, BinaryLoop avx512) {
  return cpu::isa::kAvx512 ? avx512 : (cpu::isa::kAvx2 ? avx2 : base);
}
#else
#define IVY_VM_BINARY_BUILDS(name)
#define IVY_VM_BINARY_BEST(name) BinaryLoop(name)
#endif
IVY_VM_BINARY_BUILDS(pow_loop)
// logaddexp: max(a, b) + log1p(e^-|a - b|) in float64, rounded once. a - b is NaN exactly
// when an input is NaN or both are the same infinity (then a, which is b: +-inf; else NaN).
// (y = e^-|a - b| is in (0, 1], so u = 1 + y needs none of log1p_d's special cases: without
// them the loop vectorizes)
IVY_VM float logaddexp_one(float af, float bf) {
  const double a = af, b = bf;
  const double d = a - b;
  const double y = exp_d(-std::fabs(d));
  const double u = 1.0 + y;
  double k;
  const double lm = log_parts(u, k);
  const double v = (a < b ? b : a) + ((k * kLn2 + lm) + (y - (u - 1.0)) / u);
  return static_cast<float>(d != d ? (a == b ? a : kNaN) : v);
}
IVY_VM std::uint32_t logaddexp_loop(float* __restrict o, const float* p, const float* q, std::int64_t n, OneElement which) {
  return cpu::loops::each2<std::uint32_t>(o, p, q, n, which,
                                          [](float a, float b, std::uint32_t&) { return logaddexp_one(a, b); });
}
IVY_VM_BINARY_BUILDS(logaddexp_loop)
// hypot: sqrt(a^2 + b^2) in float64 (the squares exact, no overflow or underflow there),
// rounded once; an infinity gives +inf even beside a NaN (C99), else NaN in, NaN out.
IVY_VM float hypot_one(float af, float bf) {
  const double a = af, b = bf;
  const double r = std::sqrt(a * a + b * b);
  return static_cast<float>(std::fabs(a) == kInf || std::fabs(b) == kInf ? kInf : r);
}
IVY_VM std::uint32_t hypot_loop(float* __restrict o, const float* p, const float* q, std::int64_t n, OneElement which) {
  return cpu::loops::each2<std::uint32_t>(o, p, q, n, which,
                                          [](float a, float b, std::uint32_t&) { return hypot_one(a, b); });
}
IVY_VM_BINARY_BUILDS(hypot_loop)
// atan2(y, x) for finite nonzero y and x: atan(y / x) in float64 (the quotient to 2^-53
// relative, which moves the angle by less than 2^-54 relative), plus or minus pi for x < 0.
// Zeros, infinities and NaN are flagged for a second pass (atan2 in float64 from libm).
constexpr double kPi = 0x1.921fb54442d18p+1;
IVY_VM bool atan2_other(float y, float x) {
  constexpr float kInfF = std::numeric_limits<float>::infinity();
  return !(std::fabs(y) < kInfF && std::fabs(x) < kInfF && y != 0.f && x != 0.f);
}
IVY_VM float atan2_finite(float yf, float xf) {
  const double y = yf, x = xf;
  const double r = atan_d(y / x);
  return static_cast<float>(x < 0.0 ? r + (y < 0.0 ? -kPi : kPi) : r);
}
IVY_VM std::uint32_t atan2_loop(float* __restrict o, const float* p, const float* q, std::int64_t n, OneElement which) {
  return cpu::loops::each2<std::uint32_t>(o, p, q, n, which, [](float a, float b, std::uint32_t& flag) {
    flag |= static_cast<std::uint32_t>(atan2_other(a, b));
    return atan2_finite(a, b);
  });
}
IVY_VM_BINARY_BUILDS(atan2_loop)
#undef IVY_VM_BINARY_BUILDS
#undef IVY_VM

}  // namespace

void logaddexp_n(float* o, const float* p, const float* q, std::int64_t n, OneElement which) {
  IVY_VM_BINARY_BEST(logaddexp_loop)(o, p, q, n, which);
}

void hypot_n(float* o, const float* p, const float* q, std::int64_t n, OneElement which) {
  IVY_VM_BINARY_BEST(hypot_loop)(o, p, q, n, which);
}

void atan2_n(float* o, const float* p, const float* q, std::int64_t n, OneElement which) {
  if (!IVY_VM_BINARY_BEST(atan2_loop)(o, p, q, n, which)) return;
  for (std::int64_t i = 0; i < n; ++i) {  // zeros, infinities, NaN
    const float y = p[which == OneElement::first ? 0 : i], x = q[which == OneElement::second ? 0 : i];
    if (atan2_other(y, x)) o[i] = static_cast<float>(std::atan2(static_cast<double>(y), static_cast<double>(x)));
  }
}

void pow_n(float* o, const float* p, const float* q, std::int64_t n, OneElement which) {
  if (!IVY_VM_BINARY_BEST(pow_loop)(o, p, q, n, which)) return;
  for (std::int64_t i = 0; i < n; ++i) {  // the cases left to libm
    const float a = p[which == OneElement::first ? 0 : i], b = q[which == OneElement::second ? 0 : i];
    if (pow_other(a, b)) o[i] = std::pow(a, b);
  }
}
#undef IVY_VM_BINARY_BEST

void unary_n(Op op, float* o, const float* x, std::int64_t n) {
  switch (op) {
#define IVY_VM_CASE(name) \
  case Op::name: return f32_run<Op::name>(o, x, n);
    case Op::exp: return exp32_run(o, x, n);
    IVY_VM_CASE(sin) IVY_VM_CASE(cos) IVY_VM_CASE(tan) IVY_VM_CASE(expm1) IVY_VM_CASE(log)
    IVY_VM_CASE(log2) IVY_VM_CASE(log10) IVY_VM_CASE(sinh) IVY_VM_CASE(cosh) IVY_VM_CASE(tanh) IVY_VM_CASE(asin)
    IVY_VM_CASE(acos) IVY_VM_CASE(atan) IVY_VM_CASE(asinh) IVY_VM_CASE(acosh) IVY_VM_CASE(atanh)
#undef IVY_VM_CASE
  }
}

void log1p_n(float* o, const float* x, std::int64_t n) {
#if IVY_AVX2
  if (cpu::isa::kAvx2) return log1p_avx2(o, x, n);
#endif
  for (std::int64_t i = 0; i < n; ++i) o[i] = log1p_one(x[i]);
}

}  // namespace ivy::cpu::vmath

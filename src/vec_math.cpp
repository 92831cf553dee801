// Element-wise math of ivy's own (vec_math.hpp). Built with -ffp-contract=off: the fused
// multiply-adds are the ones the source names, so the baseline and AVX2 loops round alike.
#include "vec_math.hpp"

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

#include "cpu_isa.hpp"

#if IVY_AVX2
#include <immintrin.h>
#endif

namespace ivy::vmath {
namespace {

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

// ---- tan, float32, computed in float64
//
// x = n*(pi/2) + r with n = x*(2/pi) rounded to nearest (by adding and subtracting 1.5*2^52,
// whose sum's lowest bit is n's parity) and r by Cody-Waite in three parts of pi/2: the first
// two have 33 significant bits, so n*part is exact for |n| < 2^20 (|x| < 2^17 here). Then
// tan x = sin r / cos r (n even) or -cos r / sin r (n odd), with sin and cos of |r| <= pi/4 by
// their Taylor series to r^13 and r^12 (truncation below 1e-12 relative). Every step is a
// float64 add, multiply or divide (no FMA), so the baseline and AVX2 loops give the same bits,
// and the result is the exact tan rounded once to float32 but for an error near 1e-12
// relative. |x| >= 2^17, inf and NaN go to libm's tanf in a second pass.
constexpr double kTwoOverPi = 0x1.45f306dc9c883p-1;
constexpr double kPio2A = 0x1.921fb54400000p+0;   // 33 bits
constexpr double kPio2B = 0x1.0b4611a600000p-34;  // 33 bits
constexpr double kPio2C = 0x1.3198a2e037073p-69;
constexpr double kRound = 0x1.8p52;

[[gnu::always_inline]] inline float tan_reduced(float xf) {
  const double x = xf;
  const double t = x * kTwoOverPi + kRound;
  const double n = t - kRound;
  const bool odd = (std::bit_cast<std::int64_t>(t) & 1) != 0;
  const double r = ((x - n * kPio2A) - n * kPio2B) - n * kPio2C;
  const double z = r * r;
  const double sp =
      z * (-1.0 / 6 + z * (1.0 / 120 + z * (-1.0 / 5040 + z * (1.0 / 362880 + z * (-1.0 / 39916800 + z * (1.0 / 6227020800))))));
  const double s = r + r * sp;
  const double c =
      1.0 + z * (-0.5 + z * (1.0 / 24 + z * (-1.0 / 720 + z * (1.0 / 40320 + z * (-1.0 / 3628800 + z * (1.0 / 479001600))))));
  const double num = odd ? -c : s, den = odd ? s : c;
  const float q = static_cast<float>(num / den);
  return xf == 0.f ? xf : q;  // the sign of a zero (r + r * sp is +0 for r = -0)
}
[[gnu::always_inline]] inline std::uint32_t tan_loop(float* __restrict o, const float* __restrict x, std::int64_t n) {
  std::uint32_t far = 0;  // any |x| >= 2^17, inf or NaN
  for (std::int64_t i = 0; i < n; ++i) {
    far |= static_cast<std::uint32_t>(!(std::fabs(x[i]) < 0x1p17f));
    o[i] = tan_reduced(x[i]);
  }
  return far;
}
#if IVY_AVX2
IVY_AVX2_FN std::uint32_t tan_loop_avx2(float* __restrict o, const float* __restrict x, std::int64_t n) {
  return tan_loop(o, x, n);
}
#endif

}  // namespace

void tan_n(float* o, const float* x, std::int64_t n) {
  std::uint32_t far;
#if IVY_AVX2
  if (isa::kAvx2)
    far = tan_loop_avx2(o, x, n);
  else
#endif
    far = tan_loop(o, x, n);
  if (far)
    for (std::int64_t i = 0; i < n; ++i)
      if (!(std::fabs(x[i]) < 0x1p17f)) o[i] = std::tan(x[i]);
}

void log1p_n(float* o, const float* x, std::int64_t n) {
#if IVY_AVX2
  if (isa::kAvx2) return log1p_avx2(o, x, n);
#endif
  for (std::int64_t i = 0; i < n; ++i) o[i] = log1p_one(x[i]);
}

}  // namespace ivy::vmath

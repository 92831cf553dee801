// Element-wise math functions of ivy's own over contiguous arrays, for the backends whose
// library computes them more slowly or with other results than the standard asks for.
// Each gives the same bits on the build's baseline ISA and on AVX2 (cpu_isa.hpp): the
// baseline loop does the same operations one element at a time, its fused multiply-adds
// through std::fma (exact by definition).
#pragma once

#include <cstdint>

namespace ivy::vmath {

// o[i] = log1p(x[i]) for n float32 elements (o may be x; no other overlap): within one ulp
// of the exact value (0.90 ulp at most, measured over every float32); log1p(-1) = -inf, below -1 NaN,
// +inf, NaN, zeros of either sign and subnormals as the standard (and C99) give them.
void log1p_n(float* o, const float* x, std::int64_t n);

// o[i] = tan(x[i]) for n float32 elements (o must not overlap x): the exact value rounded
// to float32 but for an error near 1e-12 relative (computed in float64) for |x| < 2^17,
// libm's tanf beyond; tan(+-0) = +-0, inf and NaN give NaN.
void tan_n(float* o, const float* x, std::int64_t n);

}  // namespace ivy::vmath

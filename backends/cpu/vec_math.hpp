// Element-wise math functions of ivy's own over contiguous arrays, for the backends whose
// library computes them more slowly or with other results than the standard asks for.
// Each gives the same bits on the build's baseline ISA and on AVX2 (cpu_isa.hpp): the
// baseline loop does the same operations one element at a time (log1p's and exp's fused
// multiply-adds through std::fma, exact by definition; the float64-computed ones use none).
#pragma once

#include <cstdint>

#include "cpu_loops.hpp"

namespace ivy::cpu::vmath {

using loops::OneElement;

// o[i] = log1p(x[i]) for n float32 elements (o may be x; no other overlap): within one ulp
// of the exact value (0.90 ulp at most, measured over every float32); log1p(-1) = -inf, below -1 NaN,
// +inf, NaN, zeros of either sign and subnormals as the standard (and C99) give them.
void log1p_n(float* o, const float* x, std::int64_t n);

// o[i] = op(x[i]) for n float32 elements (o must not overlap x); special values as C99 gives
// them. exp is computed in float32 with fused multiply-adds, within 0.94 ulp of the exact
// value (every float32: tests/vec_math). The others are computed in float64 (vec_math.cpp):
// the exact value rounded to float32 but where it lies within ~1e-13 relative of a rounding
// boundary (every sampled float32 within 0.5 ulp + 1e-4 of the float64 function); sin, cos,
// tan of |x| >= 2^17 are libm's.
enum class Op : std::uint8_t {
  sin, cos, tan, exp, expm1, log, log2, log10, sinh, cosh, tanh, asin, acos, atan, asinh, acosh, atanh
};
void unary_n(Op op, float* o, const float* x, std::int64_t n);
// The binary functions below read a = p[i] and b = q[i], or q[0] / p[0] for the operand
// `which` names (cpu::loops::OneElement). `o` overlaps neither operand.
// o[i] = pow(a, b) for float32: for a > 0 finite and b finite computed in float64 as above
// (e^(b ln a)); every other case (zeros, negative a, infinities, NaN) is libm's powf.
void pow_n(float* o, const float* p, const float* q, std::int64_t n, OneElement which);

// o[i] = logaddexp(a, b) = log(e^a + e^b) for float32, operands as pow_n's: computed in
// float64 as max(a, b) + log1p(e^-|a - b|) and rounded once (as the functions above); NaN in,
// NaN out; logaddexp(inf, inf) = inf, logaddexp(-inf, -inf) = -inf, inf and -inf give inf.
void logaddexp_n(float* o, const float* p, const float* q, std::int64_t n, OneElement which);
// o[i] = hypot(a, b) for float32, operands as pow_n's: sqrt(a^2 + b^2) computed in float64 and
// rounded once; an infinity gives +inf (even beside a NaN), else a NaN gives NaN.
void hypot_n(float* o, const float* p, const float* q, std::int64_t n, OneElement which);
// o[i] = atan2(a, b) (a the y coordinate) for float32, operands as pow_n's: for finite nonzero
// operands computed in float64 as above (atan(a / b), +-pi where b < 0); zeros, infinities and
// NaN give libm's float64 atan2 rounded (C99's special values).
void atan2_n(float* o, const float* p, const float* q, std::int64_t n, OneElement which);

}  // namespace ivy::cpu::vmath

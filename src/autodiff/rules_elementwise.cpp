// VJP rules of the elementwise primitives (ops.def's unary and binary rows with
// kDifferentiable), of where and of astype.
//
// Complex inputs: the cotangent of a holomorphic f is g * conj(f'(z)), i.e. the cotangent
// of z = x + iy is dL/dx + i dL/dy; the non-holomorphic rules (abs, real, imag, conj) use
// the same convention. For real arrays every conj below is skipped (it is the identity).
// Binary rules return cotangents in the broadcast output shape; the tape sums them down.
#include <complex>
#include <numbers>

#include "autodiff/rule_helpers.hpp"
#include "autodiff/rules.hpp"

namespace ivy::autodiff {
namespace {

// g * conj(d): the cotangent through a holomorphic function with derivative d.
Array through(const Array& g, const Array& d) { return multiply(g, cj(d)); }
// g / conj(d)
Array through_inv(const Array& g, const Array& d) { return divide(g, cj(d)); }

// The one output cotangent when it is defined and some input wants a cotangent (else
// every input cotangent is zero: the rule writes nothing).
const Array* cot_if_needed(const VjpCall& c) {
  if (!c.cot[0].defined()) return nullptr;
  for (bool w : c.want)
    if (w) return &c.cot[0];
  return nullptr;
}

}  // namespace

// ---------------------------------------------------------------- unary

// abs: real g * sign(x) (abs'(0) = 0); complex g * z / |z| (0 at z == 0).
IVY_VJP_READS(abs, kReadsAll, kReadsAll) {
  const Array* g = cot_if_needed(c);
  if (!g) return;
  const Array& x = c.in[0];
  grads[0] = is_complex(x.dtype()) ? multiply(*g, safe_div(x, c.out[0])) : multiply(*g, sign(x));
}
// acos' = -1 / sqrt(1 - z^2)
IVY_VJP_READS(acos, kReadsAll, kReadsNone) {
  const Array* g = cot_if_needed(c);
  if (!g) return;
  const Array& x = c.in[0];
  grads[0] = negative(through_inv(*g, sqrt(subtract(1, square(x)))));
}
// acosh' = 1 / (sqrt(z - 1) * sqrt(z + 1)) (the principal branch; sqrt(z^2 - 1) for real z > 1)
IVY_VJP_READS(acosh, kReadsAll, kReadsNone) {
  const Array* g = cot_if_needed(c);
  if (!g) return;
  const Array& x = c.in[0];
  grads[0] = through_inv(*g, multiply(sqrt(subtract(x, 1)), sqrt(add(x, 1))));
}
// asin' = 1 / sqrt(1 - z^2)
IVY_VJP_READS(asin, kReadsAll, kReadsNone) {
  const Array* g = cot_if_needed(c);
  if (!g) return;
  grads[0] = through_inv(*g, sqrt(subtract(1, square(c.in[0]))));
}
// asinh' = 1 / sqrt(z^2 + 1)
IVY_VJP_READS(asinh, kReadsAll, kReadsNone) {
  const Array* g = cot_if_needed(c);
  if (!g) return;
  grads[0] = through_inv(*g, sqrt(add(square(c.in[0]), 1)));
}
// atan' = 1 / (1 + z^2)
IVY_VJP_READS(atan, kReadsAll, kReadsNone) {
  const Array* g = cot_if_needed(c);
  if (!g) return;
  grads[0] = through_inv(*g, add(square(c.in[0]), 1));
}
// atanh' = 1 / (1 - z^2)
IVY_VJP_READS(atanh, kReadsAll, kReadsNone) {
  const Array* g = cot_if_needed(c);
  if (!g) return;
  grads[0] = through_inv(*g, subtract(1, square(c.in[0])));
}
// conj: conj(g) (g itself for a real input)
IVY_VJP_READS(conj, kReadsNone, kReadsNone, false) {
  const Array* g = cot_if_needed(c);
  if (!g) return;
  grads[0] = cj(*g);
}
// cos' = -sin
IVY_VJP_READS(cos, kReadsAll, kReadsNone) {
  const Array* g = cot_if_needed(c);
  if (!g) return;
  grads[0] = negative(through(*g, sin(c.in[0])));
}
// cosh' = sinh
IVY_VJP_READS(cosh, kReadsAll, kReadsNone) {
  const Array* g = cot_if_needed(c);
  if (!g) return;
  grads[0] = through(*g, sinh(c.in[0]));
}
// exp' = exp = out
IVY_VJP_READS(exp, kReadsNone, kReadsAll) {
  const Array* g = cot_if_needed(c);
  if (!g) return;
  grads[0] = through(*g, c.out[0]);
}
// expm1' = exp = out + 1
IVY_VJP_READS(expm1, kReadsNone, kReadsAll) {
  const Array* g = cot_if_needed(c);
  if (!g) return;
  grads[0] = through(*g, add(c.out[0], 1));
}
// imag(z) = y: the cotangent of z is 0 + i g (zero for a real input: imag is then constant 0)
IVY_VJP_READS(imag, kReadsNone, kReadsNone) {
  const Array* g = cot_if_needed(c);
  if (!g || !is_complex(c.in[0].dtype())) return;
  grads[0] = multiply(*g, Scalar(std::complex<double>(0.0, 1.0)));
}
// log' = 1 / z
IVY_VJP_READS(log, kReadsAll, kReadsNone) {
  const Array* g = cot_if_needed(c);
  if (!g) return;
  grads[0] = through_inv(*g, c.in[0]);
}
// log1p' = 1 / (1 + z)
IVY_VJP_READS(log1p, kReadsAll, kReadsNone) {
  const Array* g = cot_if_needed(c);
  if (!g) return;
  grads[0] = through_inv(*g, add(c.in[0], 1));
}
// log2' = 1 / (z ln 2)
IVY_VJP_READS(log2, kReadsAll, kReadsNone) {
  const Array* g = cot_if_needed(c);
  if (!g) return;
  grads[0] = through_inv(*g, multiply(c.in[0], std::numbers::ln2));
}
// log10' = 1 / (z ln 10)
IVY_VJP_READS(log10, kReadsAll, kReadsNone) {
  const Array* g = cot_if_needed(c);
  if (!g) return;
  grads[0] = through_inv(*g, multiply(c.in[0], std::numbers::ln10));
}
IVY_VJP_READS(negative, kReadsNone, kReadsNone, false) {
  const Array* g = cot_if_needed(c);
  if (!g) return;
  grads[0] = negative(*g);
}
IVY_VJP_READS(positive, kReadsNone, kReadsNone, false) {
  const Array* g = cot_if_needed(c);
  if (!g) return;
  grads[0] = *g;
}
// real(z) = x: the cotangent of z is g + 0i (the tape casts g to the input's dtype)
IVY_VJP_READS(real, kReadsNone, kReadsNone, false) {
  const Array* g = cot_if_needed(c);
  if (!g) return;
  grads[0] = *g;
}
// reciprocal' = -1 / z^2 = -out^2
IVY_VJP_READS(reciprocal, kReadsNone, kReadsAll) {
  const Array* g = cot_if_needed(c);
  if (!g) return;
  grads[0] = negative(through(*g, square(c.out[0])));
}
// sin' = cos
IVY_VJP_READS(sin, kReadsAll, kReadsNone) {
  const Array* g = cot_if_needed(c);
  if (!g) return;
  grads[0] = through(*g, cos(c.in[0]));
}
// sinh' = cosh
IVY_VJP_READS(sinh, kReadsAll, kReadsNone) {
  const Array* g = cot_if_needed(c);
  if (!g) return;
  grads[0] = through(*g, cosh(c.in[0]));
}
// square' = 2 z
IVY_VJP_READS(square, kReadsAll, kReadsNone) {
  const Array* g = cot_if_needed(c);
  if (!g) return;
  grads[0] = through(*g, multiply(c.in[0], 2));
}
// sqrt' = 1 / (2 sqrt z) = 0.5 / out
IVY_VJP_READS(sqrt, kReadsNone, kReadsAll) {
  const Array* g = cot_if_needed(c);
  if (!g) return;
  grads[0] = through_inv(*g, multiply(c.out[0], 2));
}
// tan' = 1 + tan^2 = 1 + out^2
IVY_VJP_READS(tan, kReadsNone, kReadsAll) {
  const Array* g = cot_if_needed(c);
  if (!g) return;
  grads[0] = through(*g, add(square(c.out[0]), 1));
}
// tanh' = 1 - tanh^2 = 1 - out^2
IVY_VJP_READS(tanh, kReadsNone, kReadsAll) {
  const Array* g = cot_if_needed(c);
  if (!g) return;
  grads[0] = through(*g, subtract(1, square(c.out[0])));
}

// ---------------------------------------------------------------- binary

IVY_VJP_READS(add, kReadsNone, kReadsNone, false) {
  const Array* g = cot_if_needed(c);
  if (!g) return;
  if (c.want[0]) grads[0] = *g;
  if (c.want[1]) grads[1] = *g;
}
IVY_VJP_READS(subtract, kReadsNone, kReadsNone, false) {
  const Array* g = cot_if_needed(c);
  if (!g) return;
  if (c.want[0]) grads[0] = *g;
  if (c.want[1]) grads[1] = negative(*g);
}
// gx1 = g * conj(x2), gx2 = g * conj(x1)
IVY_VJP_READS(multiply, kReadsAll, kReadsNone) {
  const Array* g = cot_if_needed(c);
  if (!g) return;
  if (c.want[0]) grads[0] = through(*g, c.in[1]);
  if (c.want[1]) grads[1] = through(*g, c.in[0]);
}
// gx1 = g / conj(x2), gx2 = -g * conj(x1 / x2^2) = -gx1 * conj(out)
IVY_VJP_READS(divide, kReadsSecond, kReadsAll) {
  const Array* g = cot_if_needed(c);
  if (!g) return;
  Array g1 = through_inv(*g, c.in[1]);
  if (c.want[1]) grads[1] = negative(through(g1, c.out[0]));
  if (c.want[0]) grads[0] = std::move(g1);
}
// atan2(x1, x2): gx1 = g * x2 / (x1^2 + x2^2), gx2 = -g * x1 / (x1^2 + x2^2) (NaN at the origin, as JAX)
IVY_VJP_READS(atan2, kReadsAll, kReadsNone) {
  const Array* g = cot_if_needed(c);
  if (!g) return;
  const Array& x1 = c.in[0];
  const Array& x2 = c.in[1];
  Array q = divide(*g, add(square(x1), square(x2)));
  if (c.want[0]) grads[0] = multiply(q, x2);
  if (c.want[1]) grads[1] = negative(multiply(q, x1));
}
// copysign(x1, x2) = |x1| * s(x2), s = +-1 by x2's sign bit: gx1 = g * sign(x1) * s(x2) (0 at
// x1 == 0, as abs'(0)); x2 gets no cotangent
IVY_VJP_READS(copysign, kReadsAll, kReadsNone) {
  const Array* g = cot_if_needed(c);
  if (!g || !c.want[0]) return;
  grads[0] = multiply(*g, multiply(sign(c.in[0]), copysign(1.0, c.in[1])));
}
// hypot: gx1 = g * x1 / out, gx2 = g * x2 / out; 0 at x1 == x2 == 0 (hypot(x, 0) = |x|, abs'(0) = 0)
IVY_VJP_READS(hypot, kReadsAll, kReadsAll) {
  const Array* g = cot_if_needed(c);
  if (!g) return;
  Array q = safe_div(*g, c.out[0]);
  if (c.want[0]) grads[0] = multiply(q, c.in[0]);
  if (c.want[1]) grads[1] = multiply(q, c.in[1]);
}
// logaddexp: gxi = g * exp(xi - out), with xi - out read as 0 where xi == out (an infinite
// operand, or the other operand -inf): exp(inf - inf) would be NaN
IVY_VJP_READS(logaddexp, kReadsAll, kReadsAll) {
  const Array* g = cot_if_needed(c);
  if (!g) return;
  const Array& out = c.out[0];
  for (std::size_t i = 0; i < 2; ++i)
    if (c.want[i]) grads[i] = multiply(*g, exp(where(equal(c.in[i], out), 0, subtract(c.in[i], out))));
}
// maximum: the larger operand gets g, a tie gives g / 2 to each (NaN: neither)
IVY_VJP_READS(maximum, kReadsAll, kReadsNone) {
  const Array* g = cot_if_needed(c);
  if (!g) return;
  const Array& x1 = c.in[0];
  const Array& x2 = c.in[1];
  Array tie = where(equal(x1, x2), multiply(*g, 0.5), 0);
  if (c.want[0]) grads[0] = where(greater(x1, x2), *g, tie);
  if (c.want[1]) grads[1] = where(less(x1, x2), *g, tie);
}
// minimum: the smaller operand gets g, a tie gives g / 2 to each (NaN: neither)
IVY_VJP_READS(minimum, kReadsAll, kReadsNone) {
  const Array* g = cot_if_needed(c);
  if (!g) return;
  const Array& x1 = c.in[0];
  const Array& x2 = c.in[1];
  Array tie = where(equal(x1, x2), multiply(*g, 0.5), 0);
  if (c.want[0]) grads[0] = where(less(x1, x2), *g, tie);
  if (c.want[1]) grads[1] = where(greater(x1, x2), *g, tie);
}
// pow(x, y): gx = g * conj(y * x^(y-1)) (0 where y == 0), gy = g * conj(log(x) * out) with
// log(x) read as 0 where x == 0 (JAX's rule: log(where(x == 0, 1, x)))
IVY_VJP_READS(pow, kReadsAll, kReadsAll) {
  const Array* g = cot_if_needed(c);
  if (!g) return;
  const Array& x = c.in[0];
  const Array& y = c.in[1];
  if (c.want[0]) {
    Array d = multiply(y, pow(x, subtract(y, 1)));
    grads[0] = through(*g, where(equal(y, 0), 0, d));
  }
  if (c.want[1]) {
    Array lx = log(where(equal(x, 0), 1, x));
    grads[1] = through(*g, multiply(lx, c.out[0]));
  }
}
// remainder(x1, x2) = x1 - floor(x1 / x2) * x2: gx1 = g, gx2 = -g * floor_divide(x1, x2)
IVY_VJP_READS(remainder, kReadsAll, kReadsNone) {
  const Array* g = cot_if_needed(c);
  if (!g) return;
  if (c.want[0]) grads[0] = *g;
  if (c.want[1]) grads[1] = negative(multiply(*g, floor_divide(c.in[0], c.in[1])));
}

// ---------------------------------------------------------------- where, astype

// where(cond, a, b): ga = where(cond, g, 0), gb = where(cond, 0, g); cond gets nothing
IVY_VJP_READS(where, kReadsFirst, kReadsNone) {
  const Array* g = cot_if_needed(c);
  if (!g) return;
  const Array& cond = c.in[0];
  if (c.want[1]) grads[1] = where(cond, *g, 0);
  if (c.want[2]) grads[2] = where(cond, 0, *g);
}
// astype: g itself (the tape casts it back to the input's dtype: the real part for a real input)
IVY_VJP_READS(astype, kReadsNone, kReadsNone, false) {
  const Array* g = cot_if_needed(c);
  if (!g) return;
  grads[0] = *g;
}

}  // namespace ivy::autodiff

// JVP rules of the elementwise primitives (ops.def's unary and binary rows with
// kDifferentiable), of where and of astype: the forward form of rules_elementwise.cpp, with
// the same edge-case choices.
//
// Tangents are plain: for a holomorphic f, t_out = f'(z) * t (no conjugation). The
// non-holomorphic rules (abs, real, imag, conj) use the real-linear map. Binary rules add
// only the defined tangent terms and may return a tangent in an operand's shape or in the
// broadcast shape; the forward tracer broadcasts and casts it to the output.
#include <numbers>

#include "autodiff/rule_helpers.hpp"
#include "autodiff/rules.hpp"

namespace ivy::autodiff {
namespace {

// a + b where either may be undefined (zero); undefined when both are.
Array plus(const Array& a, const Array& b) {
  if (!a.defined()) return b;
  if (!b.defined()) return a;
  return add(a, b);
}

}  // namespace

// ---------------------------------------------------------------- unary

// abs: real t * sign(x) (abs'(0) = 0); complex real(conj(z) * t) / |z| (0 at z == 0).
IVY_JVP(abs) {
  const Array& x = c.in[0];
  const Array t = tan_or_zeros(c, 0);
  out_tangents[0] = is_complex(x.dtype()) ? safe_div(real(multiply(conj(x), t)), c.out[0]) : multiply(t, sign(x));
}
// acos' = -1 / sqrt(1 - z^2)
IVY_JVP(acos) { out_tangents[0] = negative(divide(tan_or_zeros(c, 0), sqrt(subtract(1, square(c.in[0]))))); }
// acosh' = 1 / (sqrt(z - 1) * sqrt(z + 1)) (the principal branch)
IVY_JVP(acosh) {
  const Array& x = c.in[0];
  out_tangents[0] = divide(tan_or_zeros(c, 0), multiply(sqrt(subtract(x, 1)), sqrt(add(x, 1))));
}
// asin' = 1 / sqrt(1 - z^2)
IVY_JVP(asin) { out_tangents[0] = divide(tan_or_zeros(c, 0), sqrt(subtract(1, square(c.in[0])))); }
// asinh' = 1 / sqrt(z^2 + 1)
IVY_JVP(asinh) { out_tangents[0] = divide(tan_or_zeros(c, 0), sqrt(add(square(c.in[0]), 1))); }
// atan' = 1 / (1 + z^2)
IVY_JVP(atan) { out_tangents[0] = divide(tan_or_zeros(c, 0), add(square(c.in[0]), 1)); }
// atanh' = 1 / (1 - z^2)
IVY_JVP(atanh) { out_tangents[0] = divide(tan_or_zeros(c, 0), subtract(1, square(c.in[0]))); }
// conj: conj(t) (t itself for a real input)
IVY_JVP(conj) { out_tangents[0] = cj(tan_or_zeros(c, 0)); }
// cos' = -sin
IVY_JVP(cos) { out_tangents[0] = negative(multiply(tan_or_zeros(c, 0), sin(c.in[0]))); }
// cosh' = sinh
IVY_JVP(cosh) { out_tangents[0] = multiply(tan_or_zeros(c, 0), sinh(c.in[0])); }
// exp' = exp = out
IVY_JVP(exp) { out_tangents[0] = multiply(tan_or_zeros(c, 0), c.out[0]); }
// expm1' = exp = out + 1
IVY_JVP(expm1) { out_tangents[0] = multiply(tan_or_zeros(c, 0), add(c.out[0], 1)); }
// imag: imag(t) (a real input's imag is the constant 0: no tangent)
IVY_JVP(imag) {
  if (!is_complex(c.in[0].dtype())) return;
  out_tangents[0] = imag(tan_or_zeros(c, 0));
}
// log' = 1 / z
IVY_JVP(log) { out_tangents[0] = divide(tan_or_zeros(c, 0), c.in[0]); }
// log1p' = 1 / (1 + z)
IVY_JVP(log1p) { out_tangents[0] = divide(tan_or_zeros(c, 0), add(c.in[0], 1)); }
// log2' = 1 / (z ln 2)
IVY_JVP(log2) { out_tangents[0] = divide(tan_or_zeros(c, 0), multiply(c.in[0], std::numbers::ln2)); }
// log10' = 1 / (z ln 10)
IVY_JVP(log10) { out_tangents[0] = divide(tan_or_zeros(c, 0), multiply(c.in[0], std::numbers::ln10)); }
IVY_JVP(negative) { out_tangents[0] = negative(tan_or_zeros(c, 0)); }
IVY_JVP(positive) { out_tangents[0] = tan_or_zeros(c, 0); }
// real: real(t) (t itself for a real input)
IVY_JVP(real) {
  const Array t = tan_or_zeros(c, 0);
  out_tangents[0] = is_complex(t.dtype()) ? real(t) : t;
}
// reciprocal' = -1 / z^2 = -out^2
IVY_JVP(reciprocal) { out_tangents[0] = negative(multiply(tan_or_zeros(c, 0), square(c.out[0]))); }
// sin' = cos
IVY_JVP(sin) { out_tangents[0] = multiply(tan_or_zeros(c, 0), cos(c.in[0])); }
// sinh' = cosh
IVY_JVP(sinh) { out_tangents[0] = multiply(tan_or_zeros(c, 0), cosh(c.in[0])); }
// square' = 2 z
IVY_JVP(square) { out_tangents[0] = multiply(tan_or_zeros(c, 0), multiply(c.in[0], 2)); }
// sqrt' = 1 / (2 sqrt z) = 0.5 / out
IVY_JVP(sqrt) { out_tangents[0] = divide(tan_or_zeros(c, 0), multiply(c.out[0], 2)); }
// tan' = 1 + tan^2 = 1 + out^2
IVY_JVP(tan) { out_tangents[0] = multiply(tan_or_zeros(c, 0), add(square(c.out[0]), 1)); }
// tanh' = 1 - tanh^2 = 1 - out^2
IVY_JVP(tanh) { out_tangents[0] = multiply(tan_or_zeros(c, 0), subtract(1, square(c.out[0]))); }

// ---------------------------------------------------------------- binary

IVY_JVP(add) { out_tangents[0] = plus(c.tan[0], c.tan[1]); }
IVY_JVP(subtract) {
  const Array& t1 = c.tan[0];
  const Array& t2 = c.tan[1];
  if (!t2.defined()) out_tangents[0] = t1;
  else if (!t1.defined()) out_tangents[0] = negative(t2);
  else out_tangents[0] = subtract(t1, t2);
}
// t = t1 * x2 + x1 * t2
IVY_JVP(multiply) {
  Array a, b;
  if (c.tan[0].defined()) a = multiply(c.tan[0], c.in[1]);
  if (c.tan[1].defined()) b = multiply(c.in[0], c.tan[1]);
  out_tangents[0] = plus(a, b);
}
// t = (t1 - out * t2) / x2
IVY_JVP(divide) {
  const Array& t1 = c.tan[0];
  const Array& t2 = c.tan[1];
  const Array& x2 = c.in[1];
  if (!t2.defined()) out_tangents[0] = divide(t1, x2);
  else if (!t1.defined()) out_tangents[0] = negative(divide(multiply(t2, c.out[0]), x2));
  else out_tangents[0] = divide(subtract(t1, multiply(t2, c.out[0])), x2);
}
// atan2(x1, x2): t = (x2 t1 - x1 t2) / (x1^2 + x2^2) (NaN at the origin, as JAX)
IVY_JVP(atan2) {
  const Array& x1 = c.in[0];
  const Array& x2 = c.in[1];
  Array a, b;
  if (c.tan[0].defined()) a = multiply(c.tan[0], x2);
  if (c.tan[1].defined()) b = negative(multiply(c.tan[1], x1));
  out_tangents[0] = divide(plus(a, b), add(square(x1), square(x2)));
}
// copysign(x1, x2) = |x1| * s(x2): t = t1 * sign(x1) * s(x2) (0 at x1 == 0); x2 contributes nothing
IVY_JVP(copysign) {
  if (!c.tan[0].defined()) return;
  out_tangents[0] = multiply(c.tan[0], multiply(sign(c.in[0]), copysign(1.0, c.in[1])));
}
// hypot: t = (x1 t1 + x2 t2) / out, 0 at x1 == x2 == 0
IVY_JVP(hypot) {
  Array a, b;
  if (c.tan[0].defined()) a = multiply(c.tan[0], c.in[0]);
  if (c.tan[1].defined()) b = multiply(c.tan[1], c.in[1]);
  out_tangents[0] = safe_div(plus(a, b), c.out[0]);
}
// logaddexp: t = sum_i ti * exp(xi - out), xi - out read as 0 where xi == out (equal infinities)
IVY_JVP(logaddexp) {
  const Array& out = c.out[0];
  Array parts[2];
  for (std::size_t i = 0; i < 2; ++i)
    if (c.tan[i].defined())
      parts[i] = multiply(c.tan[i], exp(where(equal(c.in[i], out), 0, subtract(c.in[i], out))));
  out_tangents[0] = plus(parts[0], parts[1]);
}

namespace {
// maximum (first = greater) or minimum (first = less): the selected operand's tangent, a tie
// 0.5 t1 + 0.5 t2, NaN: 0.
template <bool is_max>
void extremum_jvp(const JvpCall& c, std::span<Array> out_tangents) {
  const Array& x1 = c.in[0];
  const Array& x2 = c.in[1];
  const Array& t1 = c.tan[0];
  const Array& t2 = c.tan[1];
  Array first1 = is_max ? greater(x1, x2) : less(x1, x2);
  Array tie = plus(t1.defined() ? multiply(t1, 0.5) : Array(), t2.defined() ? multiply(t2, 0.5) : Array());
  Array rest = where(equal(x1, x2), tie, 0);
  if (t2.defined()) rest = where(is_max ? less(x1, x2) : greater(x1, x2), t2, rest);
  out_tangents[0] = t1.defined() ? where(first1, t1, rest) : rest;
}
}  // namespace

IVY_JVP(maximum) { extremum_jvp<true>(c, out_tangents); }
IVY_JVP(minimum) { extremum_jvp<false>(c, out_tangents); }

// pow(x, y): t = tx * y x^(y-1) (0 where y == 0) + ty * log(x) * out, log(x) read as 0 where x == 0
IVY_JVP(pow) {
  const Array& x = c.in[0];
  const Array& y = c.in[1];
  Array a, b;
  if (c.tan[0].defined()) {
    Array d = multiply(y, pow(x, subtract(y, 1)));
    a = multiply(c.tan[0], where(equal(y, 0), 0, d));
  }
  if (c.tan[1].defined()) {
    Array lx = log(where(equal(x, 0), 1, x));
    b = multiply(c.tan[1], multiply(lx, c.out[0]));
  }
  out_tangents[0] = plus(a, b);
}
// remainder(x1, x2) = x1 - floor(x1 / x2) * x2: t = t1 - t2 * floor_divide(x1, x2)
IVY_JVP(remainder) {
  Array b;
  if (c.tan[1].defined()) b = negative(multiply(c.tan[1], floor_divide(c.in[0], c.in[1])));
  out_tangents[0] = plus(c.tan[0], b);
}

// ---------------------------------------------------------------- where, astype

// where(cond, a, b): where(cond, ta, tb), zeros for the missing one; cond has none
IVY_JVP(where) {
  const Array& cond = c.in[0];
  const Array& ta = c.tan[1];
  const Array& tb = c.tan[2];
  if (ta.defined() && tb.defined()) out_tangents[0] = where(cond, ta, tb);
  else if (ta.defined()) out_tangents[0] = where(cond, ta, 0);
  else if (tb.defined()) out_tangents[0] = where(cond, 0, tb);
}
// astype: the tangent cast the same way (complex to real: the real part); none for an
// integer or bool result
IVY_JVP(astype) {
  const DType to = c.out[0].dtype();
  if (!is_floating(to)) return;
  Array t = tan_or_zeros(c, 0);
  if (is_complex(t.dtype()) && !is_complex(to)) t = real(t);
  out_tangents[0] = t.dtype() == to ? t : dispatch(c.op, t, c.attrs);
}

}  // namespace ivy::autodiff

// ONNX elementwise operators of the default domain: unary math and activations, binary
// arithmetic, comparisons and logic (NumPy broadcasting from opset 7, the limited
// `broadcast`/`axis` form before), the variadic Max/Min/Sum/Mean, Where, Clip and the casts.
// Everything is written with ivy's public array functions only.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <iterator>
#include <numbers>
#include <span>
#include <string>
#include <vector>

#include "ivy/nn_functional.hpp"
#include "onnx_ops.hpp"

namespace ivy::onnx::detail {
namespace {

using Arrays = std::vector<Array>;
using UnaryFn = Array (*)(const Array&);
using BinFn = Array (*)(const Array&, const Array&);

// ---------------------------------------------------------------- operand checks
// Every input defined, inputs from `typed` on sharing one dtype (when same_dtype), and all
// shapes broadcasting together by NumPy's rules; returns the broadcast shape.
Shape check_operands(const NodeInfo& n, const Arrays& in, std::size_t typed = 0, bool same_dtype = true) {
  std::string shapes, dtypes;
  std::size_t rank = 0;
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (!in[i].defined()) n.fail("input " + std::to_string(i) + " is absent");
    shapes += (i ? ", " : "") + in[i].shape().str();
    dtypes += std::string(i ? ", " : "") + dtype_name(in[i].dtype());
    rank = std::max<std::size_t>(rank, in[i].shape().size());
  }
  if (same_dtype)
    for (std::size_t i = typed + 1; i < in.size(); ++i)
      if (in[i].dtype() != in[typed].dtype()) n.fail("the inputs need one dtype, got " + dtypes);
  Shape out;
  out.resize(rank, 1);
  for (const Array& x : in) {
    const Shape& s = x.shape();
    for (std::size_t j = 0; j < s.size(); ++j) {
      std::int64_t& o = out[rank - 1 - j];
      const std::int64_t d = s[s.size() - 1 - j];
      if (o == 1) o = d;
      else if (d != 1 && d != o) n.fail("the input shapes " + shapes + " do not broadcast together");
    }
  }
  return out;
}

// Opset < 7: B reaches A's shape only with broadcast=1, its dims aligned at `axis` (suffix
// by default); without it the shapes must be equal. Returns B reshaped for NumPy broadcasting.
Array legacy_rhs(const NodeInfo& n, const Array& a, const Array& b) {
  if (n.i("broadcast", 0) == 0) {
    if (!(a.shape() == b.shape()))
      n.fail("without broadcast=1 the shapes must be equal, got " + a.shape().str() + " and " + b.shape().str());
    return b;
  }
  Array r = b;
  if (b.size() == 1) {
    r = reshape(b, Shape{});  // one element goes anywhere
  } else if (n.has("axis")) {
    const std::int64_t axis = norm_axis(n, n.i("axis"), a.ndim());
    if (axis + b.ndim() > a.ndim())
      n.fail("B of shape " + b.shape().str() + " at axis " + std::to_string(axis) + " exceeds A's shape " +
             a.shape().str());
    Shape s = b.shape();
    s.resize(static_cast<std::size_t>(a.ndim() - axis), 1);  // trailing ones up to A's rank
    r = reshape(b, s);
  }
  if (!(check_operands(n, {a, r}) == a.shape()))
    n.fail("B of shape " + b.shape().str() + " does not broadcast to A's shape " + a.shape().str());
  return r;
}

// ---------------------------------------------------------------- generic forms
template <UnaryFn F>
Arrays unary(const NodeInfo& n, const Arrays& in) {
  need_inputs(n, in, 1, 1);
  return {F(in[0])};
}

template <BinFn F>
Arrays binary(const NodeInfo& n, const Arrays& in) {
  need_inputs(n, in, 2, 2);
  check_operands(n, in);
  return {F(in[0], in[1])};
}

template <BinFn F>
Arrays binary_legacy(const NodeInfo& n, const Arrays& in) {
  need_inputs(n, in, 2, 2);
  if (in[0].dtype() != in[1].dtype())
    n.fail(std::string("the inputs need one dtype, got ") + dtype_name(in[0].dtype()) + ", " +
           dtype_name(in[1].dtype()));
  return {F(in[0], legacy_rhs(n, in[0], in[1]))};
}

// Max, Min, Sum: a left fold over 1..N inputs with multidirectional broadcasting.
template <BinFn F>
Arrays fold(const NodeInfo& n, const Arrays& in) {
  need_inputs(n, in, 1, -1);
  check_operands(n, in);
  Array acc = in[0];
  for (std::size_t i = 1; i < in.size(); ++i) acc = F(acc, in[i]);
  return {acc};
}

Arrays mean_op(const NodeInfo& n, const Arrays& in) {
  Array s = fold<ivy::add>(n, in)[0];
  return {in.size() == 1 ? s : s / static_cast<double>(in.size())};
}

// ---------------------------------------------------------------- unary compositions
Array relu_(const Array& x) { return where(x < 0, 0, x); }  // NaN stays NaN
// 1 / (1 + e^-x), with e = e^-|x| <= 1 so nothing overflows.
Array sigmoid_(const Array& x) {
  Array nonneg = x >= 0;
  Array e = exp(-abs(x));
  Array r = 1.0 / (e + 1.0);
  return where(nonneg, r, e * r);
}
// log(1 + e^x) = log1p(e^-|x|) + max(x, 0).
Array softplus_(const Array& x) { return log1p(exp(-abs(x))) + maximum(x, 0.0); }
Array softsign_(const Array& x) { return x / (abs(x) + 1.0); }
Array mish_(const Array& x) { return x * tanh(softplus_(x)); }
Array hardswish_(const Array& x) { return x * clip(x * (1.0 / 6.0) + 0.5, 0.0, 1.0); }

// erf of any real dtype: ivy::nn::erf in float32 / float64 (half floats in float32,
// integers in float64), cast back.
Array erf_(const Array& x) {
  const DType d = x.dtype();
  if (d == float32 || d == float64) return nn::erf(x);
  Array r = nn::erf(astype(x, is_floating(d) ? float32 : float64));
  return astype(r, d);
}

// ---------------------------------------------------------------- activations with attributes
Arrays leaky_relu_op(const NodeInfo& n, const Arrays& in) {
  need_inputs(n, in, 1, 1);
  const Array& x = in[0];
  return {where(x < 0, x * n.f("alpha", 0.01), x)};
}

Arrays hard_sigmoid_op(const NodeInfo& n, const Arrays& in) {
  need_inputs(n, in, 1, 1);
  return {clip(in[0] * n.f("alpha", 0.2) + n.f("beta", 0.5), 0.0, 1.0)};
}

// x < 0: alpha (e^x - 1); expm1 sees min(x, 0) so the unused branch cannot overflow.
Arrays elu_op(const NodeInfo& n, const Arrays& in) {
  need_inputs(n, in, 1, 1);
  const Array& x = in[0];
  return {where(x < 0, expm1(minimum(x, 0.0)) * n.f("alpha", 1.0), x)};
}

// gamma (x > 0 ? x : alpha (e^x - 1)); Selu-1 has rounder default constants than Selu-6.
Arrays selu_op(const NodeInfo& n, const Arrays& in) {
  need_inputs(n, in, 1, 1);
  const bool v1 = n.opset < 6;
  const double alpha = n.f("alpha", v1 ? 1.6732 : 1.67326319217681884765625);
  const double gamma = n.f("gamma", v1 ? 1.0507 : 1.05070102214813232421875);
  const Array& x = in[0];
  return {where(x > 0, x * gamma, expm1(minimum(x, 0.0)) * (alpha * gamma))};
}

// max(0, x) + min(0, alpha (e^(x / alpha) - 1))
Arrays celu_op(const NodeInfo& n, const Arrays& in) {
  need_inputs(n, in, 1, 1);
  const double alpha = n.f("alpha", 1.0);
  if (alpha == 0) n.fail("alpha must be nonzero");
  const Array& x = in[0];
  return {maximum(x, 0.0) + minimum(expm1(x / alpha) * alpha, 0.0)};
}

Arrays thresholded_relu_op(const NodeInfo& n, const Arrays& in) {
  need_inputs(n, in, 1, 1);
  const Array& x = in[0];
  return {where(x > n.f("alpha", 1.0), x, 0)};
}

// x < -lambd: x + bias; x > lambd: x - bias; else 0. Integers are computed in float64 and
// cast back to their dtype.
Arrays shrink_op(const NodeInfo& n, const Arrays& in) {
  need_inputs(n, in, 1, 1);
  const double bias = n.f("bias", 0.0), lambd = n.f("lambd", 0.5);
  const DType d = in[0].dtype();
  Array x = is_floating(d) ? in[0] : astype(in[0], float64);
  Array r = where(x < -lambd, x + bias, where(x > lambd, x - bias, 0));
  return {r.dtype() == d ? r : astype(r, d)};
}

// x < 0 ? slope x : x, slope broadcasting unidirectionally to x.
Arrays prelu_op(const NodeInfo& n, const Arrays& in) {
  need_inputs(n, in, 2, 2);
  const Array& x = in[0];
  Array slope = in[1];
  // before opset 7 a 1-d slope of one value per channel applies along axis 1
  if (n.opset < 7 && slope.ndim() == 1 && x.ndim() > 2 && slope.shape()[0] == x.shape()[1] && slope.shape()[0] > 1) {
    Shape s{slope.shape()[0]};
    for (std::int64_t d = 2; d < x.ndim(); ++d) s.push_back(1);
    slope = reshape(slope, s);
  }
  if (!(check_operands(n, {x, slope}) == x.shape()))
    n.fail("slope of shape " + slope.shape().str() + " does not broadcast to X's shape " + x.shape().str());
  return {where(x < 0, x * slope, x)};
}

// ---------------------------------------------------------------- predicates
Arrays is_inf_op(const NodeInfo& n, const Arrays& in) {
  need_inputs(n, in, 1, 1);
  const Array& x = in[0];
  const bool pos = n.i("detect_positive", 1) != 0, neg = n.i("detect_negative", 1) != 0;
  if (pos && neg) return {isinf(x)};
  if (pos) return {logical_and(isinf(x), x > 0)};
  if (neg) return {logical_and(isinf(x), x < 0)};
  return {zeros_like(x, bool_)};
}

// ---------------------------------------------------------------- arithmetic
// Div: integers truncate toward zero (C), not floor; floor and truncation differ where the
// exact quotient is negative and not whole.
Array div_(const Array& a, const Array& b) {
  if (!is_integer(a.dtype())) return divide(a, b);
  Array q = floor_divide(a, b);
  if (is_unsigned_int(a.dtype())) return q;
  Array fix = logical_and(remainder(a, b) != 0, (a < 0) != (b < 0));
  return where(fix, q + 1, q);
}

// Pow: the result has the base's dtype. Mixed dtypes are computed in float64 (a floating
// operand) or int64 (two integers) and cast back to the base's dtype.
Arrays pow_op(const NodeInfo& n, const Arrays& in) {
  need_inputs(n, in, 2, 2);
  check_operands(n, in, 0, false);
  const Array &x = in[0], &y = in[1];
  if (x.dtype() == y.dtype()) return {pow(x, y)};
  const DType c = is_floating(x.dtype()) || is_floating(y.dtype()) ? float64 : int64;
  auto to_c = [&](const Array& v) { return v.dtype() == c ? v : astype(v, c); };
  return {astype(pow(to_c(x), to_c(y)), x.dtype())};
}

// Mod: fmod=0 takes the divisor's sign (Python's %), fmod=1 the dividend's (C fmod).
Arrays mod_op(const NodeInfo& n, const Arrays& in) {
  need_inputs(n, in, 2, 2);
  check_operands(n, in);
  const Array &a = in[0], &b = in[1];
  if (n.i("fmod", 0) == 0 || is_unsigned_int(a.dtype())) return {remainder(a, b)};
  // floats: the remainder of the magnitudes (exactly fmod there) with the dividend's sign
  if (is_floating(a.dtype())) return {copysign(remainder(abs(a), abs(b)), a)};
  Array r = remainder(a, b);
  Array fix = logical_and(r != 0, (r < 0) != (a < 0));
  return {where(fix, r - b, r)};
}

Arrays bit_shift_op(const NodeInfo& n, const Arrays& in) {
  need_inputs(n, in, 2, 2);
  check_operands(n, in);
  const std::string dir = n.s("direction", "");
  if (dir == "LEFT") return {bitwise_left_shift(in[0], in[1])};
  if (dir == "RIGHT") return {bitwise_right_shift(in[0], in[1])};
  n.fail("direction must be \"LEFT\" or \"RIGHT\", got \"" + dir + "\"");
}

Arrays where_op(const NodeInfo& n, const Arrays& in) {
  need_inputs(n, in, 3, 3);
  check_operands(n, in, 1);
  if (in[0].dtype() != bool_) n.fail(std::string("the condition must be bool, got ") + dtype_name(in[0].dtype()));
  return {where(in[0], in[1], in[2])};
}

// ---------------------------------------------------------------- Clip
// Opset < 11: float attributes min / max; an absent one is no bound.
Arrays clip_attr_op(const NodeInfo& n, const Arrays& in) {
  need_inputs(n, in, 1, 1);
  Bound lo, hi;
  if (n.has("min")) lo = Scalar(n.f("min", 0.0));
  if (n.has("max")) hi = Scalar(n.f("max", 0.0));
  return {clip(in[0], lo, hi)};
}

// Opset >= 11: optional scalar inputs min and max of x's dtype; an absent one is no bound.
Arrays clip_op(const NodeInfo& n, const Arrays& in) {
  need_inputs(n, in, 1, 3);
  const Array& x = in[0];
  auto bound = [&](std::size_t i, const char* what) -> Bound {
    if (in.size() <= i || !in[i].defined()) return {};
    const Array& b = in[i];
    if (b.dtype() != x.dtype())
      n.fail(std::string(what) + " has dtype " + dtype_name(b.dtype()) + ", the input " + dtype_name(x.dtype()));
    if (b.size() != 1) n.fail(std::string(what) + " must be a scalar, got shape " + b.shape().str());
    return reshape(b, Shape{});
  };
  return {clip(x, bound(1, "min"), bound(2, "max"))};
}

// ---------------------------------------------------------------- Cast, CastLike
// To bool: nonzero is true; otherwise astype (float to integer truncates toward zero).
Array cast_to(const Array& x, DType to) {
  if (x.dtype() == to) return x;
  if (to == bool_) return x != 0;
  return astype(x, to);
}

// Cast-1 names its target type as a string: the TensorProto.DataType enum name.
std::int64_t code_of_name(const NodeInfo& n, std::string name) {
  static const char* const kNames[] = {"UNDEFINED", "FLOAT",     "UINT8",      "INT8",    "UINT16",  "INT16",
                                       "INT32",     "INT64",     "STRING",     "BOOL",    "FLOAT16", "DOUBLE",
                                       "UINT32",    "UINT64",    "COMPLEX64",  "COMPLEX128", "BFLOAT16"};
  for (char& ch : name) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  for (std::int64_t i = 1; i < static_cast<std::int64_t>(std::size(kNames)); ++i)
    if (name == kNames[i]) return i;
  n.fail("unknown data type name \"" + name + "\" in attribute 'to'");
}

Arrays cast_op(const NodeInfo& n, const Arrays& in) {
  need_inputs(n, in, 1, 1);
  auto it = n.attrs.find("to");
  if (it == n.attrs.end()) n.fail("attribute 'to' is required");
  const std::int64_t code = it->second.kind == Attribute::String ? code_of_name(n, it->second.s) : n.i("to");
  return {cast_to(in[0], dtype_of_code(n, code))};
}

Arrays cast_like_op(const NodeInfo& n, const Arrays& in) {
  need_inputs(n, in, 2, 2);
  return {cast_to(in[0], in[1].dtype())};
}

}  // namespace

void add_elementwise_ops(std::vector<OpEntry>& table) {
  const std::vector<OpEntry> ops = {
      // unary math (later versions only add types)
      {"", "Abs", 1, unary<ivy::abs>},
      {"", "Neg", 1, unary<ivy::negative>},
      {"", "Exp", 1, unary<ivy::exp>},
      {"", "Log", 1, unary<ivy::log>},
      {"", "Sqrt", 1, unary<ivy::sqrt>},
      {"", "Reciprocal", 1, unary<ivy::reciprocal>},
      {"", "Floor", 1, unary<ivy::floor>},
      {"", "Ceil", 1, unary<ivy::ceil>},
      {"", "Tanh", 1, unary<ivy::tanh>},
      {"", "Sin", 7, unary<ivy::sin>},
      {"", "Cos", 7, unary<ivy::cos>},
      {"", "Tan", 7, unary<ivy::tan>},
      {"", "Asin", 7, unary<ivy::asin>},
      {"", "Acos", 7, unary<ivy::acos>},
      {"", "Atan", 7, unary<ivy::atan>},
      {"", "Sinh", 9, unary<ivy::sinh>},
      {"", "Cosh", 9, unary<ivy::cosh>},
      {"", "Asinh", 9, unary<ivy::asinh>},
      {"", "Acosh", 9, unary<ivy::acosh>},
      {"", "Atanh", 9, unary<ivy::atanh>},
      {"", "Sign", 9, unary<ivy::sign>},
      {"", "Erf", 9, unary<erf_>},
      {"", "Round", 11, unary<ivy::round>},  // half to even
      {"", "Not", 1, unary<ivy::logical_not>},
      {"", "IsNaN", 9, unary<ivy::isnan>},
      {"", "IsInf", 10, is_inf_op},
      // activations
      {"", "Relu", 1, unary<relu_>},
      {"", "Sigmoid", 1, unary<sigmoid_>},
      {"", "Softplus", 1, unary<softplus_>},
      {"", "Softsign", 1, unary<softsign_>},
      {"", "HardSwish", 14, unary<hardswish_>},
      {"", "Mish", 18, unary<mish_>},
      {"", "HardSigmoid", 1, hard_sigmoid_op},
      {"", "LeakyRelu", 1, leaky_relu_op},
      {"", "Elu", 1, elu_op},
      {"", "Selu", 1, selu_op},  // Selu-1 and Selu-6 differ in defaults only (read by opset)
      {"", "Celu", 12, celu_op},
      {"", "ThresholdedRelu", 10, thresholded_relu_op},
      {"", "Shrink", 9, shrink_op},
      {"", "PRelu", 1, prelu_op},
      // binary: opset 1-6 limited broadcasting, NumPy's from 7
      {"", "Add", 1, binary_legacy<ivy::add>},
      {"", "Add", 7, binary<ivy::add>},
      {"", "Sub", 1, binary_legacy<ivy::subtract>},
      {"", "Sub", 7, binary<ivy::subtract>},
      {"", "Mul", 1, binary_legacy<ivy::multiply>},
      {"", "Mul", 7, binary<ivy::multiply>},
      {"", "Div", 1, binary_legacy<div_>},
      {"", "Div", 7, binary<div_>},
      {"", "Pow", 1, binary_legacy<ivy::pow>},
      {"", "Pow", 7, pow_op},
      {"", "Mod", 10, mod_op},
      {"", "And", 1, binary_legacy<ivy::logical_and>},
      {"", "And", 7, binary<ivy::logical_and>},
      {"", "Or", 1, binary_legacy<ivy::logical_or>},
      {"", "Or", 7, binary<ivy::logical_or>},
      {"", "Xor", 1, binary_legacy<ivy::logical_xor>},
      {"", "Xor", 7, binary<ivy::logical_xor>},
      {"", "Equal", 1, binary_legacy<ivy::equal>},
      {"", "Equal", 7, binary<ivy::equal>},
      {"", "Greater", 1, binary_legacy<ivy::greater>},
      {"", "Greater", 7, binary<ivy::greater>},
      {"", "Less", 1, binary_legacy<ivy::less>},
      {"", "Less", 7, binary<ivy::less>},
      {"", "GreaterOrEqual", 12, binary<ivy::greater_equal>},
      {"", "LessOrEqual", 12, binary<ivy::less_equal>},
      {"", "BitShift", 11, bit_shift_op},
      // variadic (before opset 8 the inputs had equal shapes: a case of broadcasting)
      {"", "Max", 1, fold<ivy::maximum>},
      {"", "Min", 1, fold<ivy::minimum>},
      {"", "Sum", 1, fold<ivy::add>},
      {"", "Mean", 1, mean_op},
      {"", "Where", 9, where_op},
      {"", "Clip", 1, clip_attr_op},
      {"", "Clip", 11, clip_op},
      {"", "Cast", 1, cast_op},  // `to`: a type name (Cast-1) or a TensorProto code (Cast-6 on)
      {"", "CastLike", 15, cast_like_op},
  };
  table.insert(table.end(), ops.begin(), ops.end());
}

}  // namespace ivy::onnx::detail

// ONNX quantization operators (default domain): QuantizeLinear / DequantizeLinear (per tensor
// at opset 10, per axis from 13), DynamicQuantizeLinear, the exact integer ConvInteger and
// MatMulInteger, and the requantizing QLinearConv and QLinearMatMul. Written with ivy's public
// API only. Integer products are computed in float64, where every sum of (u)int8 products is
// exact, and cast to int32; rounding is half to even and results saturate to the output type.
#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "ivy/nn_conv.hpp"
#include "onnx_ops.hpp"

namespace ivy::onnx::detail {
namespace {

using Arrays = std::vector<Array>;
using Ints = std::vector<std::int64_t>;

std::string str(std::int64_t v) { return std::to_string(v); }

// [1, .., len, .., 1] of the given rank, len at axis `at`.
Shape unit_shape(std::int64_t rank, std::int64_t at, std::int64_t len) {
  Shape s;
  s.resize(static_cast<std::size_t>(rank), 1);
  s[static_cast<std::size_t>(at)] = len;
  return s;
}

bool present(const Arrays& in, std::size_t i) { return in.size() > i && in[i].defined(); }

// The saturation range of a quantized dtype.
std::pair<double, double> range_of(const NodeInfo& n, DType d, const char* what) {
  if (d == uint8) return {0, 255};
  if (d == int8) return {-128, 127};
  if (d == uint16) return {0, 65535};
  if (d == int16) return {-32768, 32767};
  n.fail(std::string(what) + " must be uint8 or int8 (or a 16-bit integer), got " + dtype_name(d));
}

// A scale must be a real floating array.
void need_float(const NodeInfo& n, const Array& a, const char* what) {
  if (!is_floating(a.dtype()) || is_complex(a.dtype()))
    n.fail(std::string(what) + " must be a floating tensor, got " + dtype_name(a.dtype()));
}

// A zero point (or quantized operand) must be an integer array.
void need_int(const NodeInfo& n, const Array& a, const char* what) {
  if (!is_integer(a.dtype())) n.fail(std::string(what) + " must be an integer tensor, got " + dtype_name(a.dtype()));
}

// A per-tensor parameter: one element, returned 0-d.
Array scalar_param(const NodeInfo& n, const Array& p, const char* what) {
  if (p.size() != 1) n.fail(std::string(what) + " must be a scalar, got shape " + p.shape().str());
  return reshape(p, Shape{});
}

// A quantization parameter against x: one value (per tensor) becomes 0-d; from opset 13 a
// 1-D one of x.shape[axis] values (per axis) becomes [1, .., L, .., 1] of x's rank. The axis
// attribute is normalized only when a parameter is per axis.
Array axis_param(const NodeInfo& n, const Array& p, const Array& x, const char* what) {
  if (p.size() == 1 || n.since < 13 || p.ndim() != 1 || x.ndim() == 0) return scalar_param(n, p, what);
  const std::int64_t axis = norm_axis(n, n.i("axis", 1), x.ndim());
  const std::int64_t len = x.shape()[static_cast<std::size_t>(axis)];
  if (p.shape()[0] != len)
    n.fail(std::string(what) + " of shape " + p.shape().str() + " needs " + str(len) + " values along axis " +
           str(axis) + " of x's shape " + x.shape().str());
  return reshape(p, unit_shape(x.ndim(), axis, len));
}

// round(v) + zp saturated to [lo, hi] and cast to the quantized dtype d; v floating.
Array saturate(const Array& v, const Array& zp, DType d, std::pair<double, double> r) {
  Array q = round(v);
  if (zp.defined()) q = q + astype(zp, q.dtype());
  return astype(clip(q, r.first, r.second), d);
}

// The dtype x / scale is computed in: float32 / float64 as they are, half floats in float32,
// integers in float64.
DType quotient_dtype(DType x) {
  if (x == float32 || x == float64) return x;
  return is_floating(x) ? float32 : float64;
}

// ---------------------------------------------------------------- QuantizeLinear
// y = saturate(round(x / y_scale) + y_zero_point); y takes the zero point's dtype (uint8 when
// it is absent).
Arrays quantize_op(const NodeInfo& n, const Arrays& in) {
  need_inputs(n, in, 2, 3);
  const Array& x = in[0];
  if (is_complex(x.dtype()) || x.dtype() == bool_)
    n.fail(std::string("x must be real, got ") + dtype_name(x.dtype()));
  need_float(n, in[1], "y_scale");
  const DType c = quotient_dtype(x.dtype());
  Array scale = astype(axis_param(n, in[1], x, "y_scale"), c);
  Array zp;
  DType out = uint8;
  if (present(in, 2)) {
    need_int(n, in[2], "y_zero_point");
    zp = axis_param(n, in[2], x, "y_zero_point");
    out = zp.dtype();
  }
  const auto r = range_of(n, out, "y_zero_point");
  Array xc = x.dtype() == c ? x : astype(x, c);
  return {saturate(xc / scale, zp, out, r)};
}

// ---------------------------------------------------------------- DequantizeLinear
// y = (x - x_zero_point) * x_scale in the scale's dtype; int32 x has no zero point (or 0).
Arrays dequantize_op(const NodeInfo& n, const Arrays& in) {
  need_inputs(n, in, 2, 3);
  const Array& x = in[0];
  need_int(n, x, "x");
  need_float(n, in[1], "x_scale");
  Array scale = axis_param(n, in[1], x, "x_scale");
  Array d = astype(x, int64);
  if (present(in, 2)) {
    need_int(n, in[2], "x_zero_point");
    if (in[2].dtype() != x.dtype())
      n.fail(std::string("x_zero_point has dtype ") + dtype_name(in[2].dtype()) + ", x " + dtype_name(x.dtype()));
    d = d - astype(axis_param(n, in[2], x, "x_zero_point"), int64);
  }
  return {astype(d, scale.dtype()) * scale};
}

// ---------------------------------------------------------------- DynamicQuantizeLinear
// uint8 quantization of float x over [min(x, 0), max(x, 0)]: scale = range / 255,
// zero point = saturate(round(-min / scale)), y = QuantizeLinear(x, scale, zero point).
// An all-zero x (range 0) gets y = 0 rather than 0 / 0.
Arrays dynamic_quantize_op(const NodeInfo& n, const Arrays& in) {
  need_inputs(n, in, 1, 1);
  const Array& x = in[0];
  if (!is_floating(x.dtype()) || is_complex(x.dtype()))
    n.fail(std::string("x must be a floating tensor, got ") + dtype_name(x.dtype()));
  if (x.size() == 0) n.fail("x of shape " + x.shape().str() + " is empty");
  const DType c = quotient_dtype(x.dtype());
  Array xc = x.dtype() == c ? x : astype(x, c);
  Array lo = minimum(min(xc), 0.0), hi = maximum(max(xc), 0.0);
  Array scale = (hi - lo) / 255.0;
  Array zero = scale == 0;
  Array safe = where(zero, 1.0, scale);
  Array zp = astype(round(clip(-(lo / safe), 0.0, 255.0)), uint8);
  Array q = where(zero, 0.0, xc / safe);
  return {saturate(q, zp, uint8, {0, 255}), astype(scale, float32), zp};
}

// ---------------------------------------------------------------- integer convolutions
// x - x_zero_point in float64 (x_zero_point per tensor).
Array centered_input(const NodeInfo& n, const Array& x, const Array& zp, const char* what) {
  Array r = astype(x, float64);
  if (!zp.defined()) return r;
  need_int(n, zp, what);
  return r - astype(scalar_param(n, zp, what), float64);
}

// w - w_zero_point in float64; the zero point is per tensor or one per output channel [M].
Array centered_weight(const NodeInfo& n, const Array& w, const Array& zp, const char* what) {
  Array r = astype(w, float64);
  if (!zp.defined()) return r;
  need_int(n, zp, what);
  if (zp.size() == 1) return r - astype(reshape(zp, Shape{}), float64);
  if (zp.ndim() != 1 || zp.shape()[0] != w.shape()[0])
    n.fail(std::string(what) + " of shape " + zp.shape().str() + " needs 1 or " + str(w.shape()[0]) +
           " values for the weight of shape " + w.shape().str());
  return r - astype(reshape(zp, unit_shape(w.ndim(), 0, w.shape()[0])), float64);
}

// The convolution of the centered x and w (plus an optional int32 bias), exact in float64.
Array integer_conv(const NodeInfo& n, const Array& x, const Array& w, const Array& xzp, const Array& wzp,
                   const Array& bias) {
  need_int(n, x, "x");
  need_int(n, w, "w");
  if (x.ndim() < 3) n.fail("x of shape " + x.shape().str() + " needs [N, C, spatial...]");
  if (x.ndim() > 5) n.unsupported("x of shape " + x.shape().str() + ": more than 3 spatial axes");
  if (w.ndim() != x.ndim())
    n.fail("w of shape " + w.shape().str() + " does not match x of shape " + x.shape().str());
  const std::int64_t d = x.ndim() - 2;
  Dims k;
  for (std::int64_t i = 2; i < w.ndim(); ++i) k.push_back(w.shape()[i]);
  const Ints ks = n.ints("kernel_shape", Ints{});
  if (!ks.empty() && Dims(ks.begin(), ks.end()) != k)
    n.fail("kernel_shape " + Dims(ks.begin(), ks.end()).str() + " differs from w's shape " + w.shape().str());
  nn::ConvOptions o;
  o.strides = per_axis(n, "strides", d, 1);
  o.dilations = per_axis(n, "dilations", d, 1);
  o.groups = n.i("group", 1);
  if (o.groups < 1 || x.shape()[1] != w.shape()[1] * o.groups || w.shape()[0] % o.groups != 0)
    n.fail("x of shape " + x.shape().str() + " and w of shape " + w.shape().str() + " do not fit group " +
           str(o.groups));
  o.padding = window_pads(n, sizes_of(x), spans_of(k, o.dilations), o.strides);
  Array b;
  if (bias.defined()) {
    if (!is_integer(bias.dtype()) || bias.ndim() != 1 || bias.shape()[0] != w.shape()[0])
      n.fail("B must be an int32 vector of " + str(w.shape()[0]) + " values, got " + dtype_name(bias.dtype()) +
             " " + bias.shape().str());
    b = astype(bias, float64);
  }
  return nn::conv(centered_input(n, x, xzp, "x_zero_point"), centered_weight(n, w, wzp, "w_zero_point"), b, o);
}

Array arg(const Arrays& in, std::size_t i) { return present(in, i) ? in[i] : Array(); }

// ConvInteger: int32 conv(x - x_zero_point, w - w_zero_point) (padding is zero after centering).
Arrays conv_integer_op(const NodeInfo& n, const Arrays& in) {
  need_inputs(n, in, 2, 4);
  return {astype(integer_conv(n, in[0], in[1], arg(in, 2), arg(in, 3), Array()), int32)};
}

// A multiplier from float32 scales, as float64 (the requantization is done in float64).
Array as_f64(const Array& a) { return astype(a, float64); }

// QLinearConv: saturate(round((conv(x - x_zp, w - w_zp) + B) * x_scale * w_scale / y_scale)
// + y_zp); w_scale and w_zp are per tensor or per output channel.
Arrays qlinear_conv_op(const NodeInfo& n, const Arrays& in) {
  need_inputs(n, in, 8, 9);
  const Array &x = in[0], &w = in[3];
  need_float(n, in[1], "x_scale");
  need_float(n, in[4], "w_scale");
  need_float(n, in[6], "y_scale");
  need_int(n, in[7], "y_zero_point");
  if (in[2].dtype() != x.dtype())
    n.fail(std::string("x_zero_point has dtype ") + dtype_name(in[2].dtype()) + ", x " + dtype_name(x.dtype()));
  if (in[5].dtype() != w.dtype())
    n.fail(std::string("w_zero_point has dtype ") + dtype_name(in[5].dtype()) + ", w " + dtype_name(w.dtype()));
  Array acc = integer_conv(n, x, w, in[2], in[5], arg(in, 8));
  const Array xs = scalar_param(n, in[1], "x_scale"), ys = scalar_param(n, in[6], "y_scale");
  Array ws = in[4];
  if (ws.size() == 1) {
    ws = reshape(ws, Shape{});
  } else {
    if (ws.ndim() != 1 || ws.shape()[0] != w.shape()[0])
      n.fail("w_scale of shape " + ws.shape().str() + " needs 1 or " + str(w.shape()[0]) + " values");
    ws = reshape(ws, unit_shape(acc.ndim(), 1, ws.shape()[0]));
  }
  const Array yzp = scalar_param(n, in[7], "y_zero_point");
  const auto r = range_of(n, yzp.dtype(), "y_zero_point");
  return {saturate(acc * as_f64(xs * ws / ys), yzp, yzp.dtype(), r)};
}

// ---------------------------------------------------------------- integer matmuls
// A parameter of a (per tensor, or per row: M values, or [.., M, 1]) against a of shape
// [.., M, K], in a shape that broadcasts against the [.., M, N] product.
Array row_param(const NodeInfo& n, const Array& p, const Array& a, const char* what) {
  if (p.size() == 1) return reshape(p, Shape{});
  if (a.ndim() >= 2 && p.ndim() == 1 && p.shape()[0] == a.shape()[static_cast<std::size_t>(a.ndim() - 2)])
    return reshape(p, Shape{p.shape()[0], 1});
  if (a.ndim() >= 2 && p.ndim() == a.ndim() && p.shape()[static_cast<std::size_t>(p.ndim() - 1)] == 1)
    return p;
  n.fail(std::string(what) + " of shape " + p.shape().str() + " is neither a scalar nor one value per row of " +
         a.shape().str());
}

// A parameter of b (per tensor, or per column: N values, or [.., 1, N]) against b [.., K, N].
Array col_param(const NodeInfo& n, const Array& p, const Array& b, const char* what) {
  if (p.size() == 1) return reshape(p, Shape{});
  const std::int64_t cols = b.ndim() >= 2 ? b.shape()[static_cast<std::size_t>(b.ndim() - 1)] : -1;
  if (p.ndim() == 1 && p.shape()[0] == cols) return p;
  if (b.ndim() >= 2 && p.ndim() == b.ndim() && p.shape()[static_cast<std::size_t>(p.ndim() - 2)] == 1) return p;
  n.fail(std::string(what) + " of shape " + p.shape().str() + " is neither a scalar nor one value per column of " +
         b.shape().str());
}

// matmul(a - a_zp, b - b_zp), exact in float64.
Array integer_matmul(const NodeInfo& n, const Array& a, const Array& b, const Array& azp, const Array& bzp) {
  need_int(n, a, "A");
  need_int(n, b, "B");
  if (a.ndim() == 0 || b.ndim() == 0) n.fail("A " + a.shape().str() + " and B " + b.shape().str() + " must not be 0-d");
  const std::int64_t ka = a.shape()[static_cast<std::size_t>(a.ndim() - 1)];
  const std::int64_t kb = b.shape()[static_cast<std::size_t>(b.ndim() >= 2 ? b.ndim() - 2 : 0)];
  if (ka != kb) n.fail("A " + a.shape().str() + " and B " + b.shape().str() + " do not multiply");
  Array af = astype(a, float64), bf = astype(b, float64);
  if (azp.defined()) {
    need_int(n, azp, "a_zero_point");
    af = af - astype(row_param(n, azp, a, "a_zero_point"), float64);
  }
  if (bzp.defined()) {
    need_int(n, bzp, "b_zero_point");
    bf = bf - astype(col_param(n, bzp, b, "b_zero_point"), float64);
  }
  return matmul(af, bf);
}

// MatMulInteger: int32 matmul(A - a_zero_point, B - b_zero_point).
Arrays matmul_integer_op(const NodeInfo& n, const Arrays& in) {
  need_inputs(n, in, 2, 4);
  return {astype(integer_matmul(n, in[0], in[1], arg(in, 2), arg(in, 3)), int32)};
}

// QLinearMatMul: saturate(round(matmul(a - a_zp, b - b_zp) * a_scale * b_scale / y_scale)
// + y_zp); a's parameters per tensor or per row, b's per tensor or per column.
Arrays qlinear_matmul_op(const NodeInfo& n, const Arrays& in) {
  need_inputs(n, in, 8, 8);
  const Array &a = in[0], &b = in[3];
  need_float(n, in[1], "a_scale");
  need_float(n, in[4], "b_scale");
  need_float(n, in[6], "y_scale");
  need_int(n, in[7], "y_zero_point");
  if (in[2].dtype() != a.dtype())
    n.fail(std::string("a_zero_point has dtype ") + dtype_name(in[2].dtype()) + ", a " + dtype_name(a.dtype()));
  if (in[5].dtype() != b.dtype())
    n.fail(std::string("b_zero_point has dtype ") + dtype_name(in[5].dtype()) + ", b " + dtype_name(b.dtype()));
  Array acc = integer_matmul(n, a, b, in[2], in[5]);
  const Array as = row_param(n, in[1], a, "a_scale"), bs = col_param(n, in[4], b, "b_scale");
  const Array ys = scalar_param(n, in[6], "y_scale");
  const Array yzp = scalar_param(n, in[7], "y_zero_point");
  const auto r = range_of(n, yzp.dtype(), "y_zero_point");
  return {saturate(acc * as_f64(as * bs / ys), yzp, yzp.dtype(), r)};
}

}  // namespace

void add_quant_ops(std::vector<OpEntry>& table) {
  const std::vector<OpEntry> ops = {
      {"", "QuantizeLinear", 10, quantize_op},  // 13 adds per-axis parameters (read by since)
      {"", "QuantizeLinear", 13, quantize_op},
      {"", "DequantizeLinear", 10, dequantize_op},
      {"", "DequantizeLinear", 13, dequantize_op},
      {"", "DynamicQuantizeLinear", 11, dynamic_quantize_op},
      {"", "ConvInteger", 10, conv_integer_op},
      {"", "MatMulInteger", 10, matmul_integer_op},
      {"", "QLinearConv", 10, qlinear_conv_op},
      {"", "QLinearMatMul", 10, qlinear_matmul_op},
  };
  table.insert(table.end(), ops.begin(), ops.end());
}

}  // namespace ivy::onnx::detail

// ONNX neural-network operators (default domain): MatMul, Gemm, convolutions, pooling,
// normalizations, softmax family, Dropout, Flatten, LRN, DepthToSpace / SpaceToDepth and
// LpNormalization, written with ivy's public API only.
#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "onnx_ops.hpp"
#include "ivy/nn_conv.hpp"
#include "ivy/nn_functional.hpp"
#include "ivy/nn_resample.hpp"

namespace ivy::onnx::detail {
namespace {

using Ints = std::vector<std::int64_t>;

std::string str(std::int64_t v) { return std::to_string(v); }

// Floor division (Python's //), for paddings that may be negative.
std::int64_t floor_div(std::int64_t a, std::int64_t b) {
  const std::int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

// The spatial axes 2 .. rank-1.
Dims spatial_axes(const Array& x) {
  Dims a;
  for (std::int64_t i = 2; i < x.ndim(); ++i) a.push_back(i);
  return a;
}

// A [C] parameter viewed as [1, C, 1, ...] against rank r; a higher-rank one gets a leading 1.
Array per_channel(const Array& a, std::int64_t r) {
  Shape s{1};
  for (auto v : a.shape()) s.push_back(v);
  if (a.ndim() == 1)
    for (std::int64_t i = 2; i < r; ++i) s.push_back(1);
  return reshape(a, s);
}

// a * f, keeping integer dtypes.
Array scaled(const Array& a, double f) {
  if (f == 1.0) return a;
  Array r = a * f;
  return is_integer(a.dtype()) ? astype(r, a.dtype()) : r;
}

// The input needs 1 to 3 spatial axes after [N, C].
std::int64_t spatial_rank(const NodeInfo& n, const Array& x) {
  if (x.ndim() < 3) n.fail("input of shape " + x.shape().str() + " needs [N, C, spatial...]");
  if (x.ndim() > 5) n.unsupported("input of shape " + x.shape().str() + ": more than 3 spatial axes");
  return x.ndim() - 2;
}

// A weight [*, *, k...] against x's spatial rank, and kernel_shape (when given) equal to k.
Dims kernel_of(const NodeInfo& n, const Array& x, const Array& w) {
  if (w.ndim() != x.ndim())
    n.fail("weight of shape " + w.shape().str() + " does not match input of shape " + x.shape().str());
  Dims k;
  for (std::int64_t i = 2; i < w.ndim(); ++i) k.push_back(w.shape()[i]);
  const Ints ks = n.ints("kernel_shape", Ints{});
  if (!ks.empty() && Dims(ks.begin(), ks.end()) != k)
    n.fail("kernel_shape " + Dims(ks.begin(), ks.end()).str() + " differs from the weight's " + w.shape().str());
  return k;
}

// An integer attribute that opset 1 stored as a float (LpPool's p).
std::int64_t int_or_float(const NodeInfo& n, const char* name, std::int64_t def) {
  if (!n.has(name)) return def;
  const Attribute& a = n.attrs.at(name);
  return a.kind == Attribute::Float ? static_cast<std::int64_t>(a.f) : a.i;
}

// (sum |x|^p)^(1/p) given the sums.
Array lp_root(const Array& s, std::int64_t p) {
  if (p == 1) return s;
  if (p == 2) return sqrt(s);
  return pow(s, 1.0 / static_cast<double>(p));
}
Array abs_pow(const Array& x, std::int64_t p) {
  if (p == 1) return abs(x);
  if (p == 2) return x * x;
  return pow(abs(x), static_cast<double>(p));
}

// ---------------------------------------------------------------- MatMul, Gemm
std::vector<Array> op_matmul(const NodeInfo& n, const std::vector<Array>& in) {
  need_inputs(n, in, 2, 2);
  return {matmul(in[0], in[1])};
}

std::vector<Array> op_gemm(const NodeInfo& n, const std::vector<Array>& in) {
  need_inputs(n, in, n.opset >= 11 ? 2 : 3, 3);
  Array a = in[0], b = in[1];
  if (a.ndim() != 2 || b.ndim() != 2) n.fail("A " + a.shape().str() + " and B " + b.shape().str() + " must be 2-D");
  if (n.i("transA", 0)) a = matrix_transpose(a);
  if (n.i("transB", 0)) b = matrix_transpose(b);
  if (a.shape()[1] != b.shape()[0])
    n.fail("A' " + a.shape().str() + " and B' " + b.shape().str() + " do not multiply");
  Array y = scaled(matmul(a, b), n.f("alpha", 1.0));
  const double beta = n.f("beta", 1.0);
  if (in.size() > 2 && in[2].defined() && beta != 0.0) {
    const Array& c = in[2];
    const Shape mn{a.shape()[0], b.shape()[1]};
    // C broadcasts one way to (M, N); before opset 7 without `broadcast` it must be (M, N).
    bool ok = c.ndim() <= 2;
    for (std::int64_t i = 0; ok && i < c.ndim(); ++i) {
      const std::int64_t have = c.shape()[c.ndim() - 1 - i], want = mn[1 - i];
      ok = have == 1 || have == want;
    }
    if (n.opset < 7 && n.i("broadcast", 0) == 0) ok = c.shape() == mn;
    if (!ok) n.fail("C of shape " + c.shape().str() + " does not broadcast to " + mn.str());
    y = y + scaled(c, beta);
  }
  return {y};
}

// ---------------------------------------------------------------- convolutions
std::vector<Array> op_conv(const NodeInfo& n, const std::vector<Array>& in) {
  need_inputs(n, in, 2, 3);
  const Array& x = in[0];
  const Array& w = in[1];
  const std::int64_t d = spatial_rank(n, x);
  const Dims k = kernel_of(n, x, w);
  nn::ConvOptions o;
  o.strides = per_axis(n, "strides", d, 1);
  o.dilations = per_axis(n, "dilations", d, 1);
  o.groups = n.i("group", 1);
  o.padding = window_pads(n, sizes_of(x), spans_of(k, o.dilations), o.strides);
  return {nn::conv(x, w, in.size() > 2 ? in[2] : Array(), o)};
}

std::vector<Array> op_conv_transpose(const NodeInfo& n, const std::vector<Array>& in) {
  need_inputs(n, in, 2, 3);
  const Array& x = in[0];
  const Array& w = in[1];
  const std::int64_t d = spatial_rank(n, x);
  const Dims k = kernel_of(n, x, w);
  const Dims strides = per_axis(n, "strides", d, 1), dil = per_axis(n, "dilations", d, 1);
  const Dims out_pad = per_axis(n, "output_padding", d, 0);
  const std::string mode = n.s("auto_pad", "NOTSET");
  const bool same = mode == "SAME_UPPER" || mode == "SAME_LOWER";
  // output_shape: spatial sizes (a full [N, C, ...] shape is accepted too)
  Ints out = n.ints("output_shape", Ints{});
  if (static_cast<std::int64_t>(out.size()) == d + 2) out.erase(out.begin(), out.begin() + 2);
  if (!out.empty() && static_cast<std::int64_t>(out.size()) != d)
    n.fail("output_shape has " + str(static_cast<std::int64_t>(out.size())) + " values for " + str(d) +
           " spatial axes");
  if (out.empty() && same)
    for (std::int64_t i = 0; i < d; ++i) out.push_back(x.shape()[2 + i] * strides[i]);
  // (begin, end) cropping of the full output (S - 1) * stride + span + output_padding
  Pads p(static_cast<std::size_t>(d), {0, 0});
  if (!out.empty()) {
    for (std::int64_t i = 0; i < d; ++i) {
      const std::int64_t total =
          strides[i] * (x.shape()[2 + i] - 1) + out_pad[i] + dil[i] * (k[i] - 1) + 1 - out[i];
      const std::int64_t half = floor_div(total, 2);
      p[i] = mode == "SAME_UPPER" ? std::pair{half, total - half} : std::pair{total - half, half};
    }
  } else if (mode != "VALID") {
    p = window_pads(n, sizes_of(x), spans_of(k, dil), strides);
  }
  // ivy pads symmetrically: let it crop the common part; what the end needs beyond that comes
  // first from ivy's output_padding (computed values of the full result, as ONNX's are),
  // then from cropping / zero-extending the rest
  nn::ConvTransposeOptions o;
  o.strides = strides;
  o.dilations = dil;
  o.groups = n.i("group", 1);
  o.padding = Dims{};
  o.output_padding = Dims{};
  Pads rest{{0, 0}, {0, 0}};
  bool adjust = false;
  for (std::int64_t i = 0; i < d; ++i) {
    const std::int64_t c = std::max<std::int64_t>(0, std::min(p[i].first, p[i].second));
    const std::int64_t end = out_pad[i] - (p[i].second - c);  // > 0: rows to add at the end
    const std::int64_t op = end > 0 ? std::min(end, std::max(strides[i], dil[i]) - 1) : 0;
    o.padding.push_back(c);
    o.output_padding.push_back(op);
    rest.push_back({c - p[i].first, end - op});
    adjust = adjust || rest.back() != std::pair<std::int64_t, std::int64_t>{0, 0};
  }
  Array y = nn::conv_transpose(x, w, Array(), o);
  if (adjust) y = nn::pad_axes(y, rest);
  if (in.size() > 2 && in[2].defined()) {
    if (in[2].ndim() != 1 || in[2].shape()[0] != y.shape()[1])
      n.fail("bias of shape " + in[2].shape().str() + " must have one value per output channel of " + y.shape().str());
    y = y + per_channel(in[2], y.ndim());
  }
  return {y};
}

// ---------------------------------------------------------------- pooling
// kernel_shape, strides, dilations and (begin, end) pads of a pooling node.
struct PoolSetup {
  Dims kernel, strides, dilations;
  Pads pads;
};
PoolSetup pool_setup(const NodeInfo& n, const Array& x) {
  const Ints ks = n.ints("kernel_shape");
  PoolSetup s;
  s.kernel = Dims(ks.begin(), ks.end());
  const std::int64_t d = static_cast<std::int64_t>(ks.size());
  if (d < 1 || x.ndim() != d + 2)
    n.fail("kernel_shape " + s.kernel.str() + " does not fit input of shape " + x.shape().str());
  spatial_rank(n, x);
  s.strides = per_axis(n, "strides", d, 1);
  s.dilations = per_axis(n, "dilations", d, 1);
  s.pads = window_pads(n, sizes_of(x), spans_of(s.kernel, s.dilations), s.strides);
  return s;
}

// Flat row-major positions in x [N, C, S...] rewritten column-major over the spatial axes.
Array column_major(const Array& idx, const Shape& xs) {
  Dims sizes;
  for (std::size_t i = 2; i < xs.size(); ++i) sizes.push_back(xs[i]);
  const std::int64_t plane = sizes.numel();
  if (plane == 0) return idx;
  const Array s = remainder(idx, Scalar(plane));
  Array r = floor_divide(idx, Scalar(plane)) * Scalar(plane);
  std::int64_t inner = plane, col = 1;
  for (auto len : sizes) {
    inner /= len;
    r = r + remainder(floor_divide(s, Scalar(inner)), Scalar(len)) * Scalar(col);
    col *= len;
  }
  return r;
}

std::vector<Array> op_max_pool(const NodeInfo& n, const std::vector<Array>& in) {
  need_inputs(n, in, 1, 1);
  // integers (int8, uint8 from opset 12) pool exactly in float64 and are cast back
  const bool integer = is_integer(in[0].dtype());
  const Array x = integer ? astype(in[0], float64) : in[0];
  const PoolSetup s = pool_setup(n, x);
  nn::PoolOptions o;
  o.strides = s.strides;
  o.dilations = s.dilations;
  o.padding = s.pads;
  o.ceil_mode = n.i("ceil_mode", 0) != 0;
  if (n.n_outputs < 2) {
    Array y = nn::max_pool(x, s.kernel, o);
    return {integer ? astype(y, in[0].dtype()) : y};
  }
  auto [y, idx] = nn::max_pool_with_indices(x, s.kernel, o);
  if (integer) y = astype(y, in[0].dtype());
  if (n.i("storage_order", 0) != 0) idx = column_major(idx, x.shape());
  return {y, idx};
}

std::vector<Array> op_avg_pool(const NodeInfo& n, const std::vector<Array>& in) {
  need_inputs(n, in, 1, 1);
  const Array& x = in[0];
  const PoolSetup s = pool_setup(n, x);
  for (auto v : s.dilations)
    if (v != 1) n.unsupported("dilations " + s.dilations.str() + " in average pooling");
  nn::PoolOptions o;
  o.strides = s.strides;
  o.padding = s.pads;
  o.ceil_mode = n.i("ceil_mode", 0) != 0;
  o.count_include_pad = n.i("count_include_pad", 0) != 0;
  return {nn::avg_pool(x, s.kernel, o)};
}

// Window sums of |x|^p (zero padding) by a per-channel convolution with ones.
std::vector<Array> op_lp_pool(const NodeInfo& n, const std::vector<Array>& in) {
  need_inputs(n, in, 1, 1);
  const Array& x = in[0];
  const std::int64_t p = int_or_float(n, "p", 2);
  if (p < 1) n.fail("p = " + str(p) + " must be >= 1");
  PoolSetup s = pool_setup(n, x);
  if (n.i("ceil_mode", 0) != 0) n.unsupported("ceil_mode for LpPool (an opset 18 attribute)");
  const std::int64_t c = x.shape()[1];
  Shape ks{c, 1};
  for (auto v : s.kernel) ks.push_back(v);
  nn::ConvOptions o;
  o.strides = s.strides;
  o.dilations = s.dilations;
  o.padding = s.pads;
  o.groups = std::max<std::int64_t>(c, 1);
  return {lp_root(nn::conv(abs_pow(x, p), ones(ks, x.dtype(), x.device(), x.backend()), Array(), o), p)};
}

std::vector<Array> op_global_avg_pool(const NodeInfo& n, const std::vector<Array>& in) {
  need_inputs(n, in, 1, 1);
  const Array& x = in[0];
  if (x.ndim() < 2) n.fail("input of shape " + x.shape().str() + " needs [N, C, ...]");
  const Dims axes = spatial_axes(x);
  return {axes.empty() ? x : ivy::mean(x, AxisArg(axes), true)};
}

std::vector<Array> op_global_max_pool(const NodeInfo& n, const std::vector<Array>& in) {
  need_inputs(n, in, 1, 1);
  const Array& x = in[0];
  if (x.ndim() < 2) n.fail("input of shape " + x.shape().str() + " needs [N, C, ...]");
  const Dims axes = spatial_axes(x);
  return {axes.empty() ? x : ivy::max(x, AxisArg(axes), true)};
}

std::vector<Array> op_global_lp_pool(const NodeInfo& n, const std::vector<Array>& in) {
  need_inputs(n, in, 1, 1);
  const Array& x = in[0];
  if (x.ndim() < 2) n.fail("input of shape " + x.shape().str() + " needs [N, C, ...]");
  const std::int64_t p = int_or_float(n, "p", 2);
  if (p < 1) n.fail("p = " + str(p) + " must be >= 1");
  const Dims axes = spatial_axes(x);
  if (axes.empty()) return {lp_root(abs_pow(x, p), p)};
  return {lp_root(ivy::sum(abs_pow(x, p), AxisArg(axes), std::nullopt, true), p)};
}

// ---------------------------------------------------------------- normalization
// Inference: the given statistics. Training (training_mode=1 from opset 14; from 7 to 13, the
// optional outputs being asked for; is_test=0 before 7): the batch's mean and population
// variance, the running statistics input * momentum + batch * (1 - momentum) as outputs 1 and
// 2, and (opsets 7 to 13) the batch's mean and variance as outputs 3 and 4.
std::vector<Array> op_batch_norm(const NodeInfo& n, const std::vector<Array>& in) {
  need_inputs(n, in, 5, 5);
  const Array& x = in[0];
  if (x.ndim() < 2) n.fail("input of shape " + x.shape().str() + " needs [N, C, ...]");
  const std::int64_t r = x.ndim();
  const double eps = n.f("epsilon", 1e-5);
  const bool training = n.opset >= 14 ? n.i("training_mode", 0) != 0
                                      : n.opset < 7 ? n.i("is_test", 0) == 0 : n.n_outputs > 1;
  const bool spatial = n.opset >= 9 || n.i("spatial", 1) != 0;
  if (n.n_outputs > 1 && !training) n.fail("running_mean and running_var are outputs only with training_mode=1");
  const Array scale = per_channel(in[1], r), bias = per_channel(in[2], r);
  if (!training)
    return {(x - per_channel(in[3], r)) / sqrt(per_channel(in[4], r) + eps) * scale + bias};
  Dims axes{0};  // legacy spatial=0: statistics per activation, over the batch only
  if (spatial)
    for (std::int64_t i = 2; i < r; ++i) axes.push_back(i);
  const Array m = ivy::mean(x, AxisArg(axes), true), v = ivy::var(x, AxisArg(axes), 0.0, true);
  const Array y = (x - m) / sqrt(v + eps) * scale + bias;
  if (n.n_outputs < 2) return {y};
  const double mom = n.f("momentum", 0.9);
  const Array batch_mean = reshape(m, in[3].shape()), batch_var = reshape(v, in[4].shape());
  std::vector<Array> out{y, in[3] * mom + batch_mean * (1.0 - mom), in[4] * mom + batch_var * (1.0 - mom)};
  if (n.opset < 14) out.insert(out.end(), {batch_mean, batch_var});
  return out;
}

// Per sample and channel over the spatial axes (population variance).
std::vector<Array> op_instance_norm(const NodeInfo& n, const std::vector<Array>& in) {
  need_inputs(n, in, 3, 3);
  const Array& x = in[0];
  if (x.ndim() < 3) n.fail("input of shape " + x.shape().str() + " needs [N, C, spatial...]");
  const double eps = n.f("epsilon", 1e-5);
  const AxisArg axes(spatial_axes(x));
  const Array m = ivy::mean(x, axes, true), v = ivy::var(x, axes, 0.0, true);
  return {(x - m) / sqrt(v + eps) * per_channel(in[1], x.ndim()) + per_channel(in[2], x.ndim())};
}

// Over axes [axis, rank): standardized in the stash_type precision, then scaled in x's dtype;
// outputs Y, Mean and InvStdDev (the last two keep the reduced axes as 1).
std::vector<Array> op_layer_norm(const NodeInfo& n, const std::vector<Array>& in) {
  need_inputs(n, in, 2, 3);
  const Array& x = in[0];
  const std::int64_t r = x.ndim();
  const std::int64_t axis = norm_axis(n, n.i("axis", -1), r);
  const double eps = n.f("epsilon", 1e-5);
  const DType stash = dtype_of_code(n, n.i("stash_type", 1));
  if (!is_real_floating(stash)) n.fail(std::string("stash_type ") + dtype_name(stash) + " is not a floating type");
  Dims axes;
  for (std::int64_t i = axis; i < r; ++i) axes.push_back(i);
  const Array xs = x.dtype() == stash ? x : astype(x, stash);
  const Array mu = ivy::mean(xs, AxisArg(axes), true);
  const Array dev = xs - mu;
  const Array inv = reciprocal(sqrt(ivy::mean(dev * dev, AxisArg(axes), true) + eps));
  const Array normed = dev * inv;
  Array y = (normed.dtype() == x.dtype() ? normed : astype(normed, x.dtype())) * in[1];
  if (in.size() > 2 && in[2].defined()) y = y + in[2];
  return {y, mu, inv};
}

// Local response normalization: window sums of x^2 over channels [c - (size-1)/2,
// c + ceil((size-1)/2)], by a convolution with ones over [N, 1, C, rest].
std::vector<Array> op_lrn(const NodeInfo& n, const std::vector<Array>& in) {
  need_inputs(n, in, 1, 1);
  const Array& x = in[0];
  if (x.ndim() < 2) n.fail("input of shape " + x.shape().str() + " needs [N, C, ...]");
  const std::int64_t size = n.i("size");
  if (size < 1) n.fail("size " + str(size) + " must be >= 1");
  const double alpha = n.f("alpha", 1e-4), beta = n.f("beta", 0.75), bias = n.f("bias", 1.0);
  std::int64_t rest = 1;
  for (std::int64_t i = 2; i < x.ndim(); ++i) rest *= x.shape()[i];
  const Array sq = reshape(x * x, Shape{x.shape()[0], 1, x.shape()[1], rest});
  const std::int64_t lo = (size - 1) / 2;
  nn::ConvOptions o;
  o.padding = Pads{{lo, size - 1 - lo}, {0, 0}};
  const Array sums = nn::conv(sq, ones(Shape{1, 1, size, 1}, x.dtype(), x.device(), x.backend()), Array(), o);
  return {x / pow(reshape(sums, x.shape()) * (alpha / static_cast<double>(size)) + bias, beta)};
}

// x / ||x||_p along axis (p 1 or 2).
std::vector<Array> op_lp_norm(const NodeInfo& n, const std::vector<Array>& in) {
  need_inputs(n, in, 1, 1);
  const Array& x = in[0];
  const std::int64_t axis = norm_axis(n, n.i("axis", -1), x.ndim());
  const std::int64_t p = n.i("p", 2);
  if (p != 1 && p != 2) n.fail("p = " + str(p) + " (only 1 and 2 are defined)");
  return {x / lp_root(ivy::sum(abs_pow(x, p), AxisArg(axis), std::nullopt, true), p)};
}

// ---------------------------------------------------------------- softmax family
enum class Soft { Max, LogMax, HardMax };

// 1 at the first maximum along axis, 0 elsewhere.
Array hardmax(const Array& x, std::int64_t axis) {
  const std::int64_t c = x.shape()[axis];
  Shape s;
  for (std::int64_t i = 0; i < x.ndim(); ++i) s.push_back(i == axis ? c : 1);
  const Array pos = reshape(arange(Scalar(0), Scalar(c), Scalar(1), int64, x.device(), x.backend()), s);
  return astype(equal(argmax(x, axis, true), pos), x.dtype());
}

template <Soft K>
Array soft_along(const Array& x, std::int64_t axis) {
  if constexpr (K == Soft::Max) return nn::softmax(x, axis);
  if constexpr (K == Soft::LogMax) return nn::log_softmax(x, axis);
  if constexpr (K == Soft::HardMax) return hardmax(x, axis);
}

// [prod(dims[:axis]), prod(dims[axis:])] with axis in [-r, r].
Shape as_2d(const NodeInfo& n, const Shape& s, std::int64_t axis) {
  const std::int64_t r = static_cast<std::int64_t>(s.size());
  if (axis < 0) axis += r;
  if (axis < 0 || axis > r) n.fail("axis " + str(axis) + " is out of range for shape " + s.str());
  std::int64_t a = 1, b = 1;
  for (std::int64_t i = 0; i < r; ++i) (i < axis ? a : b) *= s[i];
  return Shape{a, b};
}

// Opset 13: along axis (default -1). Before: over the second axis of x coerced to 2-D at
// axis (default 1).
template <Soft K>
std::vector<Array> op_softmax(const NodeInfo& n, const std::vector<Array>& in) {
  need_inputs(n, in, 1, 1);
  const Array& x = in[0];
  if (n.opset >= 13) return {soft_along<K>(x, norm_axis(n, n.i("axis", -1), x.ndim()))};
  const Shape flat = as_2d(n, x.shape(), n.i("axis", 1));
  return {reshape(soft_along<K>(reshape(x, flat), 1), x.shape())};
}

// ---------------------------------------------------------------- shape-like operators
// Inference identity; the mask (when named) is all true (bool from opset 10, x's dtype before).
// Training (training_mode true from opset 12, is_test=0 before 7): each element kept with
// probability 1 - ratio and scaled by 1 / (1 - ratio), the mask from the backend's generator.
std::vector<Array> op_dropout(const NodeInfo& n, const std::vector<Array>& in) {
  need_inputs(n, in, 1, n.opset >= 12 ? 3 : 1);
  const Array& x = in[0];
  double ratio = n.f("ratio", 0.5);
  bool training = n.opset < 7 && n.i("is_test", 0) == 0;
  if (n.opset >= 12) {
    ratio = in.size() > 1 && in[1].defined() ? float_values(n, in[1], "ratio").at(0) : 0.5;
    training = in.size() > 2 && in[2].defined() && int_values(n, astype(in[2], int64), "training_mode").at(0) != 0;
  }
  if (!(ratio >= 0 && ratio < 1)) n.fail("ratio " + std::to_string(ratio) + " must be in [0, 1)");
  if (training && ratio > 0) {
    if (!is_real_floating(x.dtype())) n.fail(std::string("training-mode dropout of a ") + dtype_name(x.dtype()) + " input");
    const Array keep = greater_equal(random_uniform(0.0, 1.0, x.shape(), x.dtype(), Device{}, x.backend()), asarray(ratio, x.dtype()));
    const Array y = where(keep, x / (1.0 - ratio), zeros_like(x));
    if (n.n_outputs < 2) return {y};
    return {y, n.opset >= 10 ? keep : astype(keep, x.dtype())};
  }
  if (n.n_outputs < 2) return {x};
  return {x, n.opset >= 10 ? full_like(x, Scalar(true), bool_) : full_like(x, Scalar(1), x.dtype())};
}

std::vector<Array> op_flatten(const NodeInfo& n, const std::vector<Array>& in) {
  need_inputs(n, in, 1, 1);
  return {reshape(in[0], as_2d(n, in[0].shape(), n.i("axis", 1)))};
}

// [N, C, H, W] -> [N, C / b^2, H b, W b]; DCR reads the channel as (b, b, C'), CRD as (C', b, b).
std::vector<Array> op_depth_to_space(const NodeInfo& n, const std::vector<Array>& in) {
  need_inputs(n, in, 1, 1);
  const Array& x = in[0];
  const std::int64_t bs = n.i("blocksize");
  if (x.ndim() != 4) n.fail("input of shape " + x.shape().str() + " must be [N, C, H, W]");
  if (bs < 1 || x.shape()[1] % (bs * bs) != 0)
    n.fail("blocksize " + str(bs) + " squared must divide the channels of " + x.shape().str());
  const std::int64_t b = x.shape()[0], c = x.shape()[1] / (bs * bs), h = x.shape()[2], w = x.shape()[3];
  const std::string mode = n.s("mode", "DCR");
  Array t;
  if (mode == "DCR")
    t = permute_dims(reshape(x, Shape{b, bs, bs, c, h, w}), Dims{0, 3, 4, 1, 5, 2});
  else if (mode == "CRD")
    t = permute_dims(reshape(x, Shape{b, c, bs, bs, h, w}), Dims{0, 1, 4, 2, 5, 3});
  else
    n.fail("unknown mode \"" + mode + "\"");
  return {reshape(t, Shape{b, c, h * bs, w * bs})};
}

// [N, C, H, W] -> [N, C b^2, H / b, W / b], the block offsets leading the channel.
std::vector<Array> op_space_to_depth(const NodeInfo& n, const std::vector<Array>& in) {
  need_inputs(n, in, 1, 1);
  const Array& x = in[0];
  const std::int64_t bs = n.i("blocksize");
  if (x.ndim() != 4) n.fail("input of shape " + x.shape().str() + " must be [N, C, H, W]");
  if (bs < 1 || x.shape()[2] % bs != 0 || x.shape()[3] % bs != 0)
    n.fail("blocksize " + str(bs) + " must divide the height and width of " + x.shape().str());
  const std::int64_t b = x.shape()[0], c = x.shape()[1], h = x.shape()[2] / bs, w = x.shape()[3] / bs;
  const Array t = permute_dims(reshape(x, Shape{b, c, h, bs, w, bs}), Dims{0, 3, 5, 1, 2, 4});
  return {reshape(t, Shape{b, c * bs * bs, h, w})};
}

// ---------------------------------------------------------------- losses
// The negative log-likelihood of log-probabilities x [N, C, d...] at integer targets
// [N, d...], each weighted by weight[target] (1 without weights); targets equal to
// ignore_index count 0 and weigh nothing. reduction: none (per position), sum, or mean (the
// sum over the sum of the weights).
Array nll(const NodeInfo& n, const Array& x, const Array& target, const Array& weight) {
  if (x.ndim() < 2) n.fail("the input must have shape [N, C, ...], got " + x.shape().str());
  if (!is_integer(target.dtype())) n.fail("the target must be an integer tensor, got " + std::string(dtype_name(target.dtype())));
  Shape want = x.shape();
  want.erase(1);
  if (!(target.shape() == want))
    n.fail("the target's shape " + target.shape().str() + " must be the input's " + x.shape().str() + " without axis 1");
  const std::string reduction = n.s("reduction", "mean");
  if (reduction != "none" && reduction != "sum" && reduction != "mean") n.fail("unknown reduction '" + reduction + "'");
  Array t = astype(target, int64);
  Array keep = n.has("ignore_index") ? not_equal(t, n.i("ignore_index")) : full_like(t, true, bool_);
  Array safe = where(keep, t, std::int64_t{0});  // an ignored target may lie outside [0, C)
  Array picked = squeeze(take_along_axis(x, expand_dims(safe, 1), 1), 1);
  Array w = weight.defined() ? take(weight, safe, 0) : ones_like(picked);
  w = where(keep, w, 0.0);
  Array loss = -picked * w;
  if (reduction == "none") return loss;
  if (reduction == "sum") return sum(loss);
  return sum(loss) / sum(w);
}

std::vector<Array> op_nll_loss(const NodeInfo& n, const std::vector<Array>& in) {
  need_inputs(n, in, 2, 3);
  return {nll(n, in[0], in[1], in.size() > 2 ? in[2] : Array())};
}

// SoftmaxCrossEntropyLoss: nll of log_softmax over axis 1; the log-probabilities are the
// optional second output.
std::vector<Array> op_softmax_ce_loss(const NodeInfo& n, const std::vector<Array>& in) {
  need_inputs(n, in, 2, 3);
  if (in[0].ndim() < 2) n.fail("the scores must have shape [N, C, ...], got " + in[0].shape().str());
  Array log_prob = nn::log_softmax(in[0], 1);
  return {nll(n, log_prob, in[1], in.size() > 2 ? in[2] : Array()), log_prob};
}

}  // namespace

void add_nn_ops(std::vector<OpEntry>& table) {
  const OpEntry entries[] = {
      {"", "MatMul", 1, op_matmul},
      {"", "Gemm", 1, op_gemm},
      {"", "Gemm", 7, op_gemm},
      {"", "Gemm", 11, op_gemm},
      {"", "Conv", 1, op_conv},
      {"", "ConvTranspose", 1, op_conv_transpose},
      {"", "MaxPool", 1, op_max_pool},
      {"", "AveragePool", 1, op_avg_pool},
      {"", "LpPool", 1, op_lp_pool},
      {"", "GlobalAveragePool", 1, op_global_avg_pool},
      {"", "GlobalMaxPool", 1, op_global_max_pool},
      {"", "GlobalLpPool", 1, op_global_lp_pool},
      {"", "BatchNormalization", 1, op_batch_norm},
      {"", "BatchNormalization", 7, op_batch_norm},
      {"", "BatchNormalization", 9, op_batch_norm},
      {"", "BatchNormalization", 14, op_batch_norm},
      {"", "InstanceNormalization", 1, op_instance_norm},
      {"", "LayerNormalization", 17, op_layer_norm},
      {"", "LRN", 1, op_lrn},
      {"", "LpNormalization", 1, op_lp_norm},
      {"", "Softmax", 1, op_softmax<Soft::Max>},
      {"", "Softmax", 13, op_softmax<Soft::Max>},
      {"", "LogSoftmax", 1, op_softmax<Soft::LogMax>},
      {"", "LogSoftmax", 13, op_softmax<Soft::LogMax>},
      {"", "Hardmax", 1, op_softmax<Soft::HardMax>},
      {"", "Hardmax", 13, op_softmax<Soft::HardMax>},
      {"", "Dropout", 1, op_dropout},
      {"", "Dropout", 7, op_dropout},
      {"", "Dropout", 10, op_dropout},
      {"", "Dropout", 12, op_dropout},
      {"", "Flatten", 1, op_flatten},
      {"", "DepthToSpace", 1, op_depth_to_space},
      {"", "SpaceToDepth", 1, op_space_to_depth},
      {"", "NegativeLogLikelihoodLoss", 12, op_nll_loss},
      {"", "NegativeLogLikelihoodLoss", 13, op_nll_loss},
      {"", "SoftmaxCrossEntropyLoss", 12, op_softmax_ce_loss},
      {"", "SoftmaxCrossEntropyLoss", 13, op_softmax_ce_loss},
  };
  table.insert(table.end(), std::begin(entries), std::end(entries));
}

}  // namespace ivy::onnx::detail

// ivy::nn linear, convolution and pooling functions (include/ivy/nn_conv.hpp): argument
// checks and layout handling around the conv, conv_transpose, max_pool and scatter_add_flat
// primitives; average pooling is a depthwise convolution with a window of ones, divided by
// each window's element count.
#include <algorithm>
#include <cctype>
#include <string>

#include "ivy/dispatch.hpp"
#include "ivy/functional.hpp"
#include "ivy/nn_conv.hpp"

namespace ivy::nn {
namespace {

std::string P(const char* op) { return std::string("[") + op + "] "; }

// One value per spatial axis: v as is when it has d entries, repeated when it has one.
Dims per_axis(const char* op, const char* name, const Dims& v, std::int64_t d) {
  if (static_cast<std::int64_t>(v.size()) == d) return v;
  if (v.size() == 1) {
    Dims r;
    for (std::int64_t i = 0; i < d; ++i) r.push_back(v[0]);
    return r;
  }
  throw ValueError(P(op) + name + " " + v.str() + " must have 1 or " + std::to_string(d) + " entries (one per spatial axis)");
}

// The spatial rank of x ([N, C, *S] or [N, *S, C]); `want` > 0 requires that rank.
std::int64_t spatial_rank(const char* op, const Array& x, std::int64_t want = 0) {
  const std::int64_t d = x.ndim() - 2;
  if (d < 1 || d > 3 || (want && d != want))
    throw ValueError(P(op) + "expects an input of rank " + (want ? std::to_string(want + 2) : std::string("3 to 5")) +
                     " ([N, C, *spatial] or [N, *spatial, C]), got shape " + x.shape().str());
  return d;
}

// channels-last [N, *S, C] <-> channels-first [N, C, *S]
Array to_first(const Array& x, bool channels_last) {
  if (!channels_last) return x;
  Dims perm{0, x.ndim() - 1};
  for (std::int64_t i = 1; i < x.ndim() - 1; ++i) perm.push_back(i);
  return permute_dims(x, perm);
}
Array to_last(const Array& x, bool channels_last) {
  if (!channels_last) return x;
  Dims perm{0};
  for (std::int64_t i = 2; i < x.ndim(); ++i) perm.push_back(i);
  perm.push_back(1);
  return permute_dims(x, perm);
}
Dims spatial_sizes(const Array& x_first) {
  Dims s;
  for (std::int64_t i = 2; i < x_first.ndim(); ++i) s.push_back(x_first.shape()[i]);
  return s;
}

// y + b over the channel axis 1 of a channels-first y
Array add_bias(const char* op, const Array& y, const Array& b) {
  if (!b.defined()) return y;
  if (b.ndim() != 1 || b.shape()[0] != y.shape()[1])
    throw ValueError(P(op) + "bias of shape " + b.shape().str() + " must have shape (" + std::to_string(y.shape()[1]) +
                     ",), one per output channel");
  Shape s{1, y.shape()[1]};
  for (std::int64_t i = 2; i < y.ndim(); ++i) s.push_back(1);
  return add(y, reshape(b, s));
}

// LibTorch's ceil_mode: one more window when it starts inside the input or the padding
// before it; returned as the extra padding after the axis that makes the window fit.
std::int64_t ceil_extra(std::int64_t len, std::int64_t lo, std::int64_t hi, std::int64_t span, std::int64_t stride) {
  const std::int64_t room = len + lo + hi - span;
  if (room < 0) return 0;
  std::int64_t out = (room + stride - 1) / stride + 1;
  if ((out - 1) * stride >= len + lo) --out;
  return std::max<std::int64_t>(0, (out - 1) * stride + span - (len + lo + hi));
}

struct PoolGeometry {
  Dims window, strides, dilations, padding;  // padding: before each axis, then after
  Dims extra;                                // ceil_mode's padding after each axis (in padding too)
};
PoolGeometry pool_geometry(const char* op, const Array& xf, const Dims& window, const PoolOptions& o, bool dilated) {
  const std::int64_t d = xf.ndim() - 2;
  PoolGeometry g;
  g.window = per_axis(op, "window", window, d);
  g.strides = o.strides.empty() ? g.window : per_axis(op, "strides", o.strides, d);
  g.dilations = dilated ? per_axis(op, "dilations", o.dilations, d) : per_axis(op, "dilations", Dims{1}, d);
  for (std::int64_t i = 0; i < d; ++i)
    if (g.window[i] < 1 || g.strides[i] < 1 || g.dilations[i] < 1)
      throw ValueError(P(op) + "window " + g.window.str() + ", strides " + g.strides.str() + " and dilations " +
                       g.dilations.str() + " must be >= 1");
  Dims spans;
  for (std::int64_t i = 0; i < d; ++i) spans.push_back(g.dilations[i] * (g.window[i] - 1) + 1);
  const Dims sizes = spatial_sizes(xf);
  g.padding = o.padding.resolve(op, sizes, spans, g.strides);
  for (std::int64_t i = 0; i < d; ++i) {
    const std::int64_t e =
        o.ceil_mode ? ceil_extra(sizes[i], g.padding[i], g.padding[d + i], spans[i], g.strides[i]) : 0;
    g.extra.push_back(e);
    g.padding[d + i] += e;
  }
  return g;
}

}  // namespace

// ---------------------------------------------------------------- padding
Padding::Padding(std::string_view name) {
  std::string u;
  for (char c : name) u.push_back(static_cast<char>(std::toupper(static_cast<unsigned char>(c))));
  if (u == "SAME") {
    kind_ = Kind::Same;
  } else if (u == "VALID") {
    kind_ = Kind::Explicit;
    all_ = 0;
  } else {
    throw ValueError("[nn.padding] unknown padding \"" + std::string(name) + "\": expected \"SAME\", \"VALID\" or amounts");
  }
}

Dims Padding::resolve(const char* op, const Dims& sizes, const Dims& spans, const Dims& strides) const {
  const std::size_t d = sizes.size();
  Dims lo, hi;
  switch (kind_) {
    case Kind::Explicit:
      for (std::size_t i = 0; i < d; ++i) lo.push_back(all_), hi.push_back(all_);
      break;
    case Kind::PerAxis: {
      Dims v = per_axis(op, "padding", per_axis_, static_cast<std::int64_t>(d));
      lo = v;
      hi = v;
      break;
    }
    case Kind::BeforeAfter:
      if (before_after_.size() != d)
        throw ValueError(P(op) + "padding has " + std::to_string(before_after_.size()) + " (before, after) pairs for " +
                         std::to_string(d) + " spatial axes");
      for (auto [b, a] : before_after_) lo.push_back(b), hi.push_back(a);
      break;
    case Kind::Same:
      for (std::size_t i = 0; i < d; ++i) {
        const std::int64_t out = (sizes[i] + strides[i] - 1) / strides[i];
        const std::int64_t total = std::max<std::int64_t>(0, (out - 1) * strides[i] + spans[i] - sizes[i]);
        lo.push_back(total / 2);
        hi.push_back(total - total / 2);
      }
      break;
  }
  Dims r;
  for (auto v : lo) r.push_back(v);
  for (auto v : hi) r.push_back(v);
  for (auto v : r)
    if (v < 0) throw ValueError(P(op) + "padding " + r.str() + " must not be negative");
  return r;
}

// ---------------------------------------------------------------- linear
Array linear(const Array& x, const Array& w, const Array& b) {
  if (w.ndim() != 2)
    throw ValueError("[nn.linear] weight must be [out_features, in_features], got shape " + w.shape().str());
  if (x.ndim() < 1 || x.shape()[x.ndim() - 1] != w.shape()[1])
    throw ValueError("[nn.linear] input of shape " + x.shape().str() + " must end in in_features = " +
                     std::to_string(w.shape()[1]) + " (weight " + w.shape().str() + ")");
  Array y = matmul(x, matrix_transpose(w));
  if (!b.defined()) return y;
  if (b.ndim() != 1 || b.shape()[0] != w.shape()[0])
    throw ValueError("[nn.linear] bias of shape " + b.shape().str() + " must have shape (" + std::to_string(w.shape()[0]) +
                     ",)");
  return add(y, b);
}

// ---------------------------------------------------------------- convolutions
namespace {
Array conv_impl(const char* op, const Array& x, const Array& w, const Array& bias, const ConvOptions& o,
                std::int64_t want_rank) {
  const std::int64_t d = spatial_rank(op, x, want_rank);
  if (w.ndim() != d + 2)
    throw ValueError(P(op) + "weight must be [out_channels, in_channels/groups, *kernel] with " + std::to_string(d) +
                     " kernel axes, got shape " + w.shape().str() + " for input " + x.shape().str());
  const Array xf = to_first(x, o.channels_last);
  attr::conv v;
  v.strides = per_axis(op, "strides", o.strides, d);
  v.dilations = per_axis(op, "dilations", o.dilations, d);
  v.groups = o.groups;
  Dims spans;
  for (std::int64_t i = 0; i < d; ++i) spans.push_back(v.dilations[i] * (w.shape()[2 + i] - 1) + 1);
  v.padding = o.padding.resolve(op, spatial_sizes(xf), spans, v.strides);
  Array y = add_bias(op, dispatch(OpId::conv, {xf, w}, v), bias);
  return to_last(y, o.channels_last);
}
}  // namespace

Array conv(const Array& x, const Array& w, const Array& bias, const ConvOptions& o) {
  return conv_impl("nn.conv", x, w, bias, o, 0);
}
Array conv1d(const Array& x, const Array& w, const Array& bias, const ConvOptions& o) {
  return conv_impl("nn.conv1d", x, w, bias, o, 1);
}
Array conv2d(const Array& x, const Array& w, const Array& bias, const ConvOptions& o) {
  return conv_impl("nn.conv2d", x, w, bias, o, 2);
}
Array conv3d(const Array& x, const Array& w, const Array& bias, const ConvOptions& o) {
  return conv_impl("nn.conv3d", x, w, bias, o, 3);
}
Array depthwise_conv2d(const Array& x, const Array& w, const Array& bias, ConvOptions o) {
  spatial_rank("nn.depthwise_conv2d", x, 2);
  o.groups = x.shape()[o.channels_last ? x.ndim() - 1 : 1];
  return conv_impl("nn.depthwise_conv2d", x, w, bias, o, 2);
}

namespace {
Array conv_transpose_impl(const char* op, const Array& x, const Array& w, const Array& bias,
                          const ConvTransposeOptions& o, std::int64_t want_rank) {
  const std::int64_t d = spatial_rank(op, x, want_rank);
  if (w.ndim() != d + 2)
    throw ValueError(P(op) + "weight must be [in_channels, out_channels/groups, *kernel] with " + std::to_string(d) +
                     " kernel axes, got shape " + w.shape().str() + " for input " + x.shape().str());
  const Array xf = to_first(x, o.channels_last);
  attr::conv v;
  v.strides = per_axis(op, "strides", o.strides, d);
  v.dilations = per_axis(op, "dilations", o.dilations, d);
  v.groups = o.groups;
  const Dims pad = per_axis(op, "padding", o.padding, d);
  const Dims out_pad = per_axis(op, "output_padding", o.output_padding, d);
  for (std::int64_t i = 0; i < d; ++i) {
    if (pad[i] < 0 || out_pad[i] < 0 || v.strides[i] < 1 || v.dilations[i] < 1)
      throw ValueError(P(op) + "padding " + pad.str() + " and output_padding " + out_pad.str() +
                       " must be >= 0, strides and dilations >= 1");
    if (out_pad[i] >= v.strides[i])
      throw ValueError(P(op) + "output_padding " + out_pad.str() + " must be smaller than the strides " +
                       v.strides.str());
    const std::int64_t len = (xf.shape()[2 + i] - 1) * v.strides[i] - 2 * pad[i] +
                             v.dilations[i] * (w.shape()[2 + i] - 1) + out_pad[i] + 1;
    if (len < 0)
      throw ValueError(P(op) + "the output would have " + std::to_string(len) + " elements on spatial axis " +
                       std::to_string(i) + " (input " + x.shape().str() + ", padding " + pad.str() + ")");
    v.spatial.push_back(len);
  }
  for (auto p : pad) v.padding.push_back(p);
  for (auto p : pad) v.padding.push_back(p);
  Array y = add_bias(op, dispatch(OpId::conv_transpose, {xf, w}, v), bias);
  return to_last(y, o.channels_last);
}
}  // namespace

Array conv_transpose(const Array& x, const Array& w, const Array& bias, const ConvTransposeOptions& o) {
  return conv_transpose_impl("nn.conv_transpose", x, w, bias, o, 0);
}
Array conv_transpose1d(const Array& x, const Array& w, const Array& bias, const ConvTransposeOptions& o) {
  return conv_transpose_impl("nn.conv_transpose1d", x, w, bias, o, 1);
}
Array conv_transpose2d(const Array& x, const Array& w, const Array& bias, const ConvTransposeOptions& o) {
  return conv_transpose_impl("nn.conv_transpose2d", x, w, bias, o, 2);
}
Array conv_transpose3d(const Array& x, const Array& w, const Array& bias, const ConvTransposeOptions& o) {
  return conv_transpose_impl("nn.conv_transpose3d", x, w, bias, o, 3);
}

// ---------------------------------------------------------------- pooling
namespace {
std::pair<Array, Array> max_pool_impl(const char* op, const Array& x, const Dims& window, const PoolOptions& o,
                                      std::int64_t want_rank) {
  spatial_rank(op, x, want_rank);
  const Array xf = to_first(x, o.channels_last);
  const PoolGeometry g = pool_geometry(op, xf, window, o, true);
  attr::pool v;
  v.window = g.window;
  v.strides = g.strides;
  v.dilations = g.dilations;
  v.padding = g.padding;
  std::vector<Array> r = dispatch_multi(OpId::max_pool, std::span<const Array>(&xf, 1), v);
  if (!o.channels_last) return {r[0], r[1]};
  // positions in [N, C, *S] -> positions in [N, *S, C]
  const std::int64_t c = xf.shape()[1], plane = xf.size() / std::max<std::int64_t>(1, xf.shape()[0] * c);
  const Array& p = r[1];
  Array n_idx = floor_divide(p, Scalar(c * plane));
  Array c_idx = remainder(floor_divide(p, Scalar(plane)), Scalar(c));
  Array s_idx = remainder(p, Scalar(plane));
  Array q = add(multiply(add(multiply(n_idx, Scalar(plane)), s_idx), Scalar(c)), c_idx);
  return {to_last(r[0], true), to_last(q, true)};
}
}  // namespace

std::pair<Array, Array> max_pool_with_indices(const Array& x, const Dims& window, const PoolOptions& o) {
  return max_pool_impl("nn.max_pool", x, window, o, 0);
}
Array max_pool(const Array& x, const Dims& window, const PoolOptions& o) {
  return max_pool_impl("nn.max_pool", x, window, o, 0).first;
}
Array max_pool1d(const Array& x, const Dims& window, const PoolOptions& o) {
  return max_pool_impl("nn.max_pool1d", x, window, o, 1).first;
}
Array max_pool2d(const Array& x, const Dims& window, const PoolOptions& o) {
  return max_pool_impl("nn.max_pool2d", x, window, o, 2).first;
}
Array max_pool3d(const Array& x, const Dims& window, const PoolOptions& o) {
  return max_pool_impl("nn.max_pool3d", x, window, o, 3).first;
}

namespace {
Array avg_pool_impl(const char* op, const Array& x, const Dims& window, const PoolOptions& o, std::int64_t want_rank) {
  const std::int64_t d = spatial_rank(op, x, want_rank);
  if (!is_floating(x.dtype()) || is_complex(x.dtype()))
    throw TypeError(P(op) + "expects a real floating array, got " + std::string(dtype_name(x.dtype())));
  const Array xf = to_first(x, o.channels_last);
  const PoolGeometry g = pool_geometry(op, xf, window, o, false);
  const std::int64_t c = xf.shape()[1];
  Shape ks{c, 1}, k1{1, 1}, plane{1, 1};
  std::int64_t taps = 1;
  for (std::int64_t i = 0; i < d; ++i) {
    ks.push_back(g.window[i]);
    k1.push_back(g.window[i]);
    taps *= g.window[i];
  }
  attr::conv v;
  v.strides = g.strides;
  v.dilations = g.dilations;
  v.padding = g.padding;
  v.groups = std::max<std::int64_t>(c, 1);
  Array sums = dispatch(OpId::conv, {xf, ones(ks, x.dtype(), x.device(), x.backend())}, v);
  bool uniform = o.count_include_pad;
  for (auto e : g.extra) uniform = uniform && e == 0;
  if (uniform) return to_last(divide(sums, Scalar(static_cast<double>(taps))), o.channels_last);
  // Each window's divisor: the elements it covers of the input (count_include_pad = false)
  // or of the input with its padding (true), counted by the same window over ones.
  Dims count_pad = g.padding;
  for (std::int64_t i = 0; i < d; ++i) plane.push_back(xf.shape()[2 + i] + (o.count_include_pad ? g.padding[i] + g.padding[d + i] - g.extra[i] : 0));
  if (o.count_include_pad)
    for (std::int64_t i = 0; i < d; ++i) {
      count_pad[i] = 0;
      count_pad[d + i] = g.extra[i];
    }
  attr::conv cv = v;
  cv.groups = 1;
  cv.padding = count_pad;
  Array counts = dispatch(OpId::conv, {ones(plane, x.dtype(), x.device(), x.backend()),
                                       ones(k1, x.dtype(), x.device(), x.backend())}, cv);
  return to_last(divide(sums, counts), o.channels_last);
}
}  // namespace

Array avg_pool(const Array& x, const Dims& window, const PoolOptions& o) {
  return avg_pool_impl("nn.avg_pool", x, window, o, 0);
}
Array avg_pool1d(const Array& x, const Dims& window, const PoolOptions& o) {
  return avg_pool_impl("nn.avg_pool1d", x, window, o, 1);
}
Array avg_pool2d(const Array& x, const Dims& window, const PoolOptions& o) {
  return avg_pool_impl("nn.avg_pool2d", x, window, o, 2);
}
Array avg_pool3d(const Array& x, const Dims& window, const PoolOptions& o) {
  return avg_pool_impl("nn.avg_pool3d", x, window, o, 3);
}

Array adaptive_avg_pool(const Array& x, const Dims& output_size, bool channels_last) {
  const char* op = "nn.adaptive_avg_pool";
  const std::int64_t d = spatial_rank(op, x);
  if (!is_floating(x.dtype()) || is_complex(x.dtype()))
    throw TypeError(P(op) + "expects a real floating array, got " + std::string(dtype_name(x.dtype())));
  const Dims out = per_axis(op, "output_size", output_size, d);
  Array y = to_first(x, channels_last);
  for (std::int64_t i = 0; i < d; ++i) {
    const std::int64_t len = y.shape()[2 + i], n = out[i];
    if (n < 1 || (len == 0 && n > 0))
      throw ValueError(P(op) + "output_size " + out.str() + " must be >= 1 and the input " + x.shape().str() +
                       " non-empty on the spatial axes");
    // the [len, n] averaging matrix of this axis: column j averages bin j
    std::vector<double> m(static_cast<std::size_t>(len * n), 0.0);
    for (std::int64_t j = 0; j < n; ++j) {
      const std::int64_t s = (j * len) / n, e = ((j + 1) * len + n - 1) / n;
      for (std::int64_t t = s; t < e; ++t) m[static_cast<std::size_t>(t * n + j)] = 1.0 / static_cast<double>(e - s);
    }
    Array mat = asarray(m.data(), float64, Shape{len, n}, y.dtype(), y.device(), y.backend());
    y = moveaxis(matmul(moveaxis(y, Dims{2 + i}, Dims{-1}), mat), Dims{-1}, Dims{2 + i});
  }
  return to_last(y, channels_last);
}

Array scatter_add_flat(const Array& x, const Array& positions, const Array& values) {
  return dispatch(OpId::scatter_add_flat, {x, positions, values}, AttrsRef());
}

}  // namespace ivy::nn

// ivy::nn::pad and ivy::nn::interpolate (include/ivy/nn_resample.hpp), from ivy:: array
// functions only: slicing, concat, full, take and matmul. Index lists and interpolation
// weights are computed on the host and uploaded to the input's backend and device.
#include "ivy/nn_resample.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace ivy::nn {
namespace {

std::string list_str(const std::vector<std::int64_t>& v) {
  std::ostringstream os;
  os << "(";
  for (std::size_t i = 0; i < v.size(); ++i) os << (i ? ", " : "") << v[i];
  os << (v.size() == 1 ? ",)" : ")");
  return os.str();
}

std::string list_str(const std::vector<double>& v) {
  std::ostringstream os;
  os << "(";
  for (std::size_t i = 0; i < v.size(); ++i) os << (i ? ", " : "") << v[i];
  os << (v.size() == 1 ? ",)" : ")");
  return os.str();
}

// int64 index vector on x's backend and device.
Array index_array(const std::vector<std::int64_t>& idx, const Array& like) {
  return ivy::asarray(idx, Shape{static_cast<std::int64_t>(idx.size())}, DType::int64, like.device(), like.backend());
}

// x[..., start:stop, ...] along one axis (a strided_slice: differentiable, a view).
Array slice_axis(const Array& x, std::int64_t axis, std::int64_t start, std::int64_t stop) {
  if (start == 0 && stop == x.shape()[static_cast<std::size_t>(axis)]) return x;
  std::vector<Index> items(static_cast<std::size_t>(x.ndim()), Index(Slice()));
  items[static_cast<std::size_t>(axis)] = Index(Slice(start, stop));
  return x.index(items);
}

// The fill value as a Scalar of x's kind, so full() makes an array of x's dtype.
Scalar fill_scalar(DType d, double value) {
  if (is_bool(d)) return Scalar(value != 0.0);
  if (is_integer(d)) return Scalar(static_cast<std::int64_t>(value));
  return Scalar(value);
}

}  // namespace

// ---------------------------------------------------------------- pad
Array pad(const Array& x, const std::vector<std::int64_t>& pads, std::string_view mode, double value) {
  const std::string where = "[nn.pad] input of shape " + x.shape().str() + ", pads " + list_str(pads);
  const bool constant = mode == "constant", reflect = mode == "reflect", replicate = mode == "replicate",
             circular = mode == "circular";
  if (!constant && !reflect && !replicate && !circular)
    throw ValueError("[nn.pad] unknown mode '" + std::string(mode) +
                     "'; expected constant, reflect, replicate or circular");
  if (!constant && value != 0.0) {
    std::ostringstream v;
    v << value;
    throw ValueError("[nn.pad] the fill value " + v.str() + " applies to constant mode only, not '" + std::string(mode) +
                     "'");
  }
  if (pads.size() % 2 != 0) throw ValueError(where + ": pads must hold (before, after) pairs (an even length)");
  if (static_cast<std::int64_t>(pads.size()) > 2 * x.ndim())
    throw ValueError(where + ": " + std::to_string(pads.size() / 2) + " pairs for " + std::to_string(x.ndim()) +
                     " axes");
  Array y = x;
  const std::int64_t n_axes = static_cast<std::int64_t>(pads.size() / 2);
  for (std::int64_t k = 0; k < n_axes; ++k) {
    const std::int64_t axis = x.ndim() - 1 - k;  // pair k pads the k-th axis from the end
    const std::int64_t before = pads[static_cast<std::size_t>(2 * k)];
    const std::int64_t after = pads[static_cast<std::size_t>(2 * k + 1)];
    const std::int64_t n = x.shape()[static_cast<std::size_t>(axis)];
    const std::int64_t out = n + before + after;
    const std::string ax = " on axis " + std::to_string(axis) + " of size " + std::to_string(n);
    if (before == 0 && after == 0) continue;
    if (out < 0 || (out == 0 && (reflect || replicate)))
      throw ValueError(where + ": padding (" + std::to_string(before) + ", " + std::to_string(after) + ")" + ax +
                       " leaves " + std::to_string(out) + " elements");
    if (constant) {
      // crop the negative sides, then concatenate blocks of `value` on the positive ones
      y = slice_axis(y, axis, std::max<std::int64_t>(-before, 0), n - std::max<std::int64_t>(-after, 0));
      std::vector<Array> parts;
      auto block = [&](std::int64_t len) {
        Shape s = y.shape();
        s[static_cast<std::size_t>(axis)] = len;
        return ivy::full(s, fill_scalar(x.dtype(), value), x.dtype(), x.device(), x.backend());
      };
      if (before > 0) parts.push_back(block(before));
      if (y.shape()[static_cast<std::size_t>(axis)] > 0) parts.push_back(y);
      if (after > 0) parts.push_back(block(after));
      if (!parts.empty()) y = parts.size() > 1 ? ivy::concat(parts, axis) : parts[0];  // none: the empty crop
      continue;
    }
    if (before <= 0 && after <= 0) {  // cropping only: a slice in every mode
      y = slice_axis(y, axis, -before, n + after);
      continue;
    }
    // One gather per axis: output position o reads source index idx[o].
    std::vector<std::int64_t> idx(static_cast<std::size_t>(out));
    if (reflect || replicate) {
      // o - before is the position in the original axis (negative before: a crop); pad
      // first, crop afterwards, so a reflection mirrors about the original edge element.
      if (n == 0) throw ValueError(where + ": cannot " + std::string(mode) + "-pad" + ax);
      if (reflect && (before >= n || after >= n))
        throw ValueError(where + ": reflect padding (" + std::to_string(before) + ", " + std::to_string(after) +
                         ")" + ax + " must be smaller than the size");
      for (std::int64_t o = 0; o < out; ++o) {
        std::int64_t j = o - before;
        if (reflect)
          j = j < 0 ? -j : (j >= n ? 2 * (n - 1) - j : j);
        else
          j = std::clamp<std::int64_t>(j, 0, n - 1);
        idx[static_cast<std::size_t>(o)] = j;
      }
    } else {
      // circular: crop first to [lo, hi), then wrap around the cropped span of length m
      const std::int64_t lo = std::max<std::int64_t>(-before, 0), hi = n - std::max<std::int64_t>(-after, 0);
      const std::int64_t m = hi - lo;
      if (before > m || after > m)
        throw ValueError(where + ": circular padding (" + std::to_string(before) + ", " + std::to_string(after) +
                         ")" + ax + " wraps around more than once (at most " + std::to_string(m) +
                         " after cropping)");
      const std::int64_t shift = std::max<std::int64_t>(before, 0);
      for (std::int64_t o = 0; o < out; ++o) {
        const std::int64_t kk = ((o - shift) % m + m) % m;
        idx[static_cast<std::size_t>(o)] = lo + kk;
      }
    }
    y = ivy::take(y, index_array(idx, x), axis);
  }
  return y;
}

Array pad_axes(const Array& x, const std::vector<std::pair<std::int64_t, std::int64_t>>& pad_width,
               std::string_view mode, double value) {
  if (static_cast<std::int64_t>(pad_width.size()) > x.ndim())
    throw ValueError("[nn.pad_axes] " + std::to_string(pad_width.size()) + " (before, after) pairs for an input of shape " +
                     x.shape().str());
  // torch's flat form names axes from the last one backwards
  std::vector<std::int64_t> pads(2 * static_cast<std::size_t>(x.ndim()), 0);
  for (std::size_t a = 0; a < pad_width.size(); ++a) {
    const std::size_t k = static_cast<std::size_t>(x.ndim()) - 1 - a;
    pads[2 * k] = pad_width[a].first;
    pads[2 * k + 1] = pad_width[a].second;
  }
  return pad(x, pads, mode, value);
}

// ---------------------------------------------------------------- interpolate
namespace {

enum class Kind { nearest, nearest_exact, area, linear, cubic };

// torch's floorf on a source coordinate: the coordinate is rounded to float first.
template <class T>
std::int64_t floor_f(T v) {
  return static_cast<std::int64_t>(std::floor(static_cast<float>(v)));
}

// The [n_in, n_out] matrix W^T of one axis's map, row-major: out[o] = sum_i x[i] W[o, i].
// An empty vector means the identity (the axis is copied).
// `scale`: the user's scale factor for this axis (absent: size given or recomputed).
// T: the precision torch's CPU kernel computes indices and weights in (its opmath type:
// float for float32 input, double for float64), so that a source coordinate that lands
// on an integer in one precision and just below it in the other picks the same taps.
// The nearest modes follow torch's generic kernel (the one contiguous NCHW input with C > 1
// takes): no shortcuts, source index floorf(dst * step). (torch's channels-last kernel, which
// also serves C == 1, copies an axis whose size is unchanged and maps out == 2 * in to
// dst / 2; the two differ only for scale factors such as 1.1 that leave a size unchanged.)
template <class T>
std::vector<double> axis_weights(Kind kind, std::int64_t n_in, std::int64_t n_out, bool align_corners,
                                 std::optional<double> scale) {
  std::vector<double> wt(static_cast<std::size_t>(n_in * n_out), 0.0);
  auto add = [&](std::int64_t o, std::int64_t i, T w) {
    wt[static_cast<std::size_t>(i * n_out + o)] += static_cast<double>(w);
  };
  const bool has_scale = scale && *scale > 0;
  // torch's compute_scales_value: 1 / factor when a factor is given, else in / out
  const T step = has_scale ? static_cast<T>(1.0 / *scale) : static_cast<T>(n_in) / static_cast<T>(n_out);
  switch (kind) {
    case Kind::nearest:
      for (std::int64_t o = 0; o < n_out; ++o)
        add(o, std::min(floor_f<T>(step * static_cast<T>(o)), n_in - 1), T(1));
      return wt;
    case Kind::nearest_exact:
      // the half-pixel source coordinate (clamped at 0), rounded half up
      for (std::int64_t o = 0; o < n_out; ++o) {
        T r = step * (static_cast<T>(o) + T(0.5)) - T(0.5);
        if (r < 0) r = 0;
        add(o, std::min(floor_f<T>(r + T(0.5)), n_in - 1), T(1));
      }
      return wt;
    case Kind::area:
      // adaptive average pooling: output o averages [floor(o*in/out), ceil((o+1)*in/out))
      for (std::int64_t o = 0; o < n_out; ++o) {
        const std::int64_t a = (o * n_in) / n_out, b = ((o + 1) * n_in + n_out - 1) / n_out;
        for (std::int64_t i = a; i < b; ++i) add(o, i, T(1) / static_cast<T>(b - a));
      }
      return wt;
    case Kind::linear:
    case Kind::cubic: {
      if (kind == Kind::linear && n_out == n_in) return {};  // torch copies an unchanged axis
      // torch's area_pixel_compute_scale / area_pixel_compute_source_index
      T s;
      if (align_corners)
        s = n_out > 1 ? static_cast<T>(n_in - 1) / static_cast<T>(n_out - 1) : T(0);
      else
        s = step;
      for (std::int64_t o = 0; o < n_out; ++o) {
        T r = align_corners ? s * static_cast<T>(o) : s * (static_cast<T>(o) + T(0.5)) - T(0.5);
        if (kind == Kind::linear) {
          if (r < 0) r = 0;  // linear modes clamp the source coordinate at 0
          const std::int64_t i0 = std::min(floor_f<T>(r), n_in - 1);
          const T lambda = std::clamp(r - static_cast<T>(i0), T(0), T(1));
          const std::int64_t i1 = i0 < n_in - 1 ? i0 + 1 : i0;
          add(o, i0, T(1) - lambda);
          add(o, i1, lambda);
        } else {
          // Keys' cubic convolution, A = -0.75, taps i0-1 .. i0+2 clamped to the border
          const T A = T(-0.75);
          const std::int64_t i0 = floor_f<T>(r);
          const T t = r - static_cast<T>(i0);
          auto near = [&](T d) { return ((A + 2) * d - (A + 3)) * d * d + 1; };      // |d| <= 1
          auto far = [&](T d) { return ((A * d - 5 * A) * d + 8 * A) * d - 4 * A; };  // 1 < |d| < 2
          const T c[4] = {far(t + T(1)), near(t), near(T(1) - t), far(T(2) - t)};
          for (std::int64_t j = 0; j < 4; ++j) add(o, std::clamp<std::int64_t>(i0 - 1 + j, 0, n_in - 1), c[j]);
        }
      }
      return wt;
    }
  }
  return wt;
}

}  // namespace

Array interpolate(const Array& x, const InterpolateOptions& opt) {
  const std::string where = "[nn.interpolate] input of shape " + x.shape().str();
  const std::string& mode = opt.mode;
  Kind kind;
  std::int64_t need_dims = 0;  // 0: any of 1..3
  if (mode == "nearest") kind = Kind::nearest;
  else if (mode == "nearest-exact") kind = Kind::nearest_exact;
  else if (mode == "area") kind = Kind::area;
  else if (mode == "linear") kind = Kind::linear, need_dims = 1;
  else if (mode == "bilinear") kind = Kind::linear, need_dims = 2;
  else if (mode == "trilinear") kind = Kind::linear, need_dims = 3;
  else if (mode == "bicubic") kind = Kind::cubic, need_dims = 2;
  else
    throw ValueError("[nn.interpolate] unknown mode '" + mode +
                     "'; expected nearest, nearest-exact, area, linear, bilinear, bicubic or trilinear");
  if (x.ndim() < 3 || x.ndim() > 5)
    throw ValueError(where + ": expected [N, C, d1, ..., dk] with 1 to 3 spatial axes (3-d to 5-d)");
  const std::int64_t k = x.ndim() - 2;
  if (need_dims && k != need_dims)
    throw ValueError(where + ": mode '" + mode + "' needs " + std::to_string(need_dims + 2) + "-d input, got " +
                     std::to_string(x.ndim()) + "-d");
  if (!is_real_floating(x.dtype()))
    throw TypeError(where + ": interpolation needs a real floating dtype, got " + dtype_name(x.dtype()));
  const bool interpolating = kind == Kind::linear || kind == Kind::cubic;
  if (opt.align_corners && !interpolating)
    throw ValueError("[nn.interpolate] align_corners can only be set with the interpolating modes linear, bilinear, "
                     "bicubic and trilinear, not '" + mode + "'");
  const bool align = opt.align_corners.value_or(false);
  const bool has_size = !opt.size.empty(), has_scale = !opt.scale_factor.empty();
  if (has_size == has_scale)
    throw ValueError(where + ": give exactly one of size and scale_factor");
  if (has_size && opt.recompute_scale_factor)
    throw ValueError("[nn.interpolate] recompute_scale_factor is not meaningful with an explicit size");
  const std::size_t given = has_size ? opt.size.size() : opt.scale_factor.size();
  if (given != 1 && given != static_cast<std::size_t>(k))
    throw ValueError(where + ": " + (has_size ? "size " + list_str(opt.size) : "scale_factor " + list_str(opt.scale_factor)) +
                     " must have 1 or " + std::to_string(k) + " entries (one per spatial axis)");

  std::vector<std::int64_t> out(static_cast<std::size_t>(k));
  std::vector<std::optional<double>> scales(static_cast<std::size_t>(k));
  for (std::int64_t a = 0; a < k; ++a) {
    const std::size_t ai = static_cast<std::size_t>(a), pick = given == 1 ? 0 : ai;
    const std::int64_t n_in = x.shape()[ai + 2];
    if (has_size) {
      out[ai] = opt.size[pick];
    } else {
      const double f = opt.scale_factor[pick];
      if (!(f > 0) || !std::isfinite(f))
        throw ValueError(where + ": scale_factor " + list_str(opt.scale_factor) + " must be positive and finite");
      out[ai] = static_cast<std::int64_t>(std::floor(static_cast<double>(n_in) * f));
      // area always recomputes (torch routes it through adaptive pooling)
      if (!opt.recompute_scale_factor && kind != Kind::area) scales[ai] = f;
    }
    if (n_in <= 0 || out[ai] <= 0)
      throw ValueError(where + ": input and output sizes should be greater than 0, got " + std::to_string(n_in) +
                       " -> " + std::to_string(out[ai]) + " on spatial axis " + std::to_string(a));
  }

  Array y = x;
  for (std::int64_t a = 0; a < k; ++a) {
    const std::size_t ai = static_cast<std::size_t>(a);
    const std::int64_t n_in = x.shape()[ai + 2], n_out = out[ai];
    std::vector<double> wt = x.dtype() == DType::float64 ? axis_weights<double>(kind, n_in, n_out, align, scales[ai])
                                                         : axis_weights<float>(kind, n_in, n_out, align, scales[ai]);
    if (wt.empty()) continue;  // identity on this axis
    const Array w = ivy::asarray(wt, Shape{n_in, n_out}, x.dtype(), x.device(), x.backend());
    // contract the axis with W^T: move it last, matmul, move the new axis back
    const std::int64_t axis = a + 2;
    if (axis == x.ndim() - 1) {
      y = ivy::matmul(y, w);
    } else {
      y = ivy::moveaxis(y, Dims{axis}, Dims{-1});
      y = ivy::matmul(y, w);
      y = ivy::moveaxis(y, Dims{-1}, Dims{axis});
    }
  }
  return y;
}

Array interpolate(const Array& x, const std::vector<std::int64_t>& size, std::string_view mode,
                  std::optional<bool> align_corners) {
  InterpolateOptions o;
  o.size = size;
  o.mode = std::string(mode);
  o.align_corners = align_corners;
  if (size.empty()) throw ValueError("[nn.interpolate] input of shape " + x.shape().str() + ": size is empty");
  return interpolate(x, o);
}

Array interpolate_scale(const Array& x, const std::vector<double>& scale_factor, std::string_view mode,
                        std::optional<bool> align_corners, bool recompute_scale_factor) {
  InterpolateOptions o;
  o.scale_factor = scale_factor;
  o.mode = std::string(mode);
  o.align_corners = align_corners;
  o.recompute_scale_factor = recompute_scale_factor;
  if (scale_factor.empty())
    throw ValueError("[nn.interpolate] input of shape " + x.shape().str() + ": scale_factor is empty");
  return interpolate(x, o);
}

}  // namespace ivy::nn

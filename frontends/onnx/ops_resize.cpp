// ONNX's Resize (10, 11, 13) and Upsample (7, 9), plus Det and MeanVarianceNormalization.
// Resize is separable: for each axis whose size changes, a small [out, in] weight matrix is
// built on the host from ONNX's coordinate rule (coordinate_transformation_mode) and
// interpolation kernel (mode, nearest_mode, cubic_coeff_a, exclude_outside), then applied
// along that axis with one matmul, so the result is differentiable in the input.
#include <cmath>
#include <limits>

#include "onnx_ops.hpp"

namespace ivy::onnx::detail {
namespace {

using Arrays = std::vector<Array>;

// The input coordinate of output index i along an axis of length n_in -> n_out with scale s.
double source_coord(const NodeInfo& n, const std::string& mode, double i, std::int64_t n_in, std::int64_t n_out,
                    double s, double roi_start, double roi_end) {
  if (mode == "half_pixel") return (i + 0.5) / s - 0.5;
  if (mode == "pytorch_half_pixel") return n_out > 1 ? (i + 0.5) / s - 0.5 : 0.0;
  // (the resized length is n_in * s, the unrounded one when scales were given)
  const double len = static_cast<double>(n_in) * s;
  if (mode == "align_corners") return len > 1 ? i * static_cast<double>(n_in - 1) / (len - 1) : 0.0;
  if (mode == "asymmetric") return i / s;
  if (mode == "tf_half_pixel_for_nn") return (i + 0.5) / s;
  if (mode == "tf_crop_and_resize")
    return n_out > 1 ? roi_start * static_cast<double>(n_in - 1) +
                           i * (roi_end - roi_start) * static_cast<double>(n_in - 1) / static_cast<double>(n_out - 1)
                     : 0.5 * (roi_start + roi_end) * static_cast<double>(n_in - 1);
  n.fail("unknown coordinate_transformation_mode '" + mode + "'");
}

// Cubic convolution weight of distance t with coefficient a.
double cubic(double t, double a) {
  t = std::abs(t);
  if (t <= 1) return ((a + 2) * t - (a + 3)) * t * t + 1;
  if (t < 2) return ((a * t - 5 * a) * t + 8 * a) * t - 4 * a;
  return 0;
}

// The [n_out, n_in] matrix of one axis (row i: the weights of the input elements for output
// i). Positions outside the input: extrapolation_value for tf_crop_and_resize (returned in
// `outside`, 1 where the row is outside), else clamped to the border.
std::vector<double> axis_weights(const NodeInfo& n, std::int64_t n_in, std::int64_t n_out, double scale,
                                 double roi_start, double roi_end, std::vector<char>& outside) {
  const std::string mode = n.s("mode", "nearest");
  const std::string coord = n.s("coordinate_transformation_mode", n.since >= 11 ? "half_pixel" : "asymmetric");
  // (Resize 10 and Upsample map to the floor of the asymmetric coordinate)
  const std::string nearest = n.s("nearest_mode", n.since >= 11 ? "round_prefer_floor" : "floor");
  const double a = n.f("cubic_coeff_a", -0.75);
  const bool exclude = n.i("exclude_outside", 0) != 0;
  std::vector<double> w(static_cast<std::size_t>(n_out * n_in), 0.0);
  outside.assign(static_cast<std::size_t>(n_out), 0);
  auto at = [&](std::int64_t i, std::int64_t j) -> double& { return w[static_cast<std::size_t>(i * n_in + j)]; };
  for (std::int64_t i = 0; i < n_out; ++i) {
    const double x = source_coord(n, coord, static_cast<double>(i), n_in, n_out, scale, roi_start, roi_end);
    if (coord == "tf_crop_and_resize" && (x < 0 || x > static_cast<double>(n_in - 1))) {
      outside[static_cast<std::size_t>(i)] = 1;
      continue;
    }
    if (mode == "nearest") {
      double r;
      if (nearest == "round_prefer_floor") r = (x - std::floor(x) == 0.5) ? std::floor(x) : std::round(x);
      else if (nearest == "round_prefer_ceil") r = std::round(x);
      else if (nearest == "floor") r = std::floor(x);
      else if (nearest == "ceil") r = std::ceil(x);
      else n.fail("unknown nearest_mode '" + nearest + "'");
      const auto j = static_cast<std::int64_t>(std::clamp(r, 0.0, static_cast<double>(n_in - 1)));
      at(i, j) = 1;
    } else if (mode == "linear") {
      const double xc = std::clamp(x, 0.0, static_cast<double>(n_in - 1));
      const auto j0 = static_cast<std::int64_t>(std::floor(xc));
      const std::int64_t j1 = std::min(j0 + 1, n_in - 1);
      const double f = xc - static_cast<double>(j0);
      at(i, j0) += 1 - f;
      at(i, j1) += f;
    } else if (mode == "cubic") {
      const auto j0 = static_cast<std::int64_t>(std::floor(x));
      const double f = x - static_cast<double>(j0);
      double total = 0;
      double ws[4];
      std::int64_t js[4];
      for (int k = 0; k < 4; ++k) {
        const std::int64_t j = j0 - 1 + k;
        double c = cubic(f - (k - 1), a);
        if (j < 0 || j >= n_in) {
          if (exclude) c = 0;
        }
        ws[k] = c;
        js[k] = std::clamp<std::int64_t>(j, 0, n_in - 1);
        total += c;
      }
      for (int k = 0; k < 4; ++k) at(i, js[k]) += exclude && total != 0 ? ws[k] / total : ws[k];
    } else {
      n.fail("unknown mode '" + mode + "'");
    }
  }
  return w;
}

// x resized to `sizes` (one per axis) with per-axis scales and roi.
Array resize(const NodeInfo& n, const Array& x, const std::vector<std::int64_t>& sizes, const std::vector<double>& scales,
             const std::vector<double>& roi) {
  if (!is_floating(x.dtype()) || is_complex(x.dtype()))
    n.unsupported("resizing " + std::string(dtype_name(x.dtype())) + " arrays (real floating only)");
  const std::int64_t r = x.ndim();
  const double extrapolation = n.f("extrapolation_value", 0.0);
  Array y = x;
  for (std::int64_t ax = 0; ax < r; ++ax) {
    const std::int64_t n_in = x.shape()[ax], n_out = sizes[static_cast<std::size_t>(ax)];
    const double s = scales[static_cast<std::size_t>(ax)];
    const double r0 = roi.empty() ? 0.0 : roi[static_cast<std::size_t>(ax)];
    const double r1 = roi.empty() ? 1.0 : roi[static_cast<std::size_t>(ax + r)];
    if (n_in == n_out && s == 1.0 && n.s("coordinate_transformation_mode", "") != "tf_crop_and_resize") continue;
    if (n_out == 0 || n_in == 0) {
      Shape sh = y.shape();
      sh[ax] = n_out;
      y = zeros(sh, y.dtype(), y.device(), y.backend());
      continue;
    }
    std::vector<char> outside;
    const std::vector<double> w = axis_weights(n, n_in, n_out, s, r0, r1, outside);
    Array m = asarray(w, Shape{n_out, n_in}, y.dtype(), y.device(), y.backend());
    // the axis last, times m^T, the axis back
    Array moved = moveaxis(y, Dims{ax}, Dims{-1});
    Array z = matmul(moved, permute_dims(m, Dims{1, 0}));
    bool any_outside = false;
    for (char o : outside) any_outside = any_outside || o;
    if (any_outside) {
      std::vector<std::uint8_t> mask(outside.begin(), outside.end());
      Array out_mask = asarray(static_cast<const void*>(mask.data()), bool_, Shape{n_out}, bool_, y.device(), y.backend());
      z = where(out_mask, full_like(z, extrapolation), z);
    }
    y = moveaxis(z, Dims{-1}, Dims{ax});
  }
  return y;
}

// The output sizes and scales of Resize / Upsample from scales or sizes.
Arrays op_resize(const NodeInfo& n, const Arrays& in) {
  need_inputs(n, in, 1, 4);
  const Array& x = in[0];
  const std::int64_t r = x.ndim();
  std::vector<double> roi, scales;
  std::vector<std::int64_t> sizes;
  if (n.since < 11) {  // Resize 10: (X, scales)
    if (in.size() < 2) n.fail("needs the scales input");
    scales = float_values(n, in[1], "scales");
  } else {  // (X, roi, scales, sizes)
    if (in.size() > 1 && in[1].defined() && in[1].size() > 0) roi = float_values(n, in[1], "roi");
    if (in.size() > 2 && in[2].defined() && in[2].size() > 0) scales = float_values(n, in[2], "scales");
    if (in.size() > 3 && in[3].defined() && in[3].size() > 0) sizes = int_values(n, in[3], "sizes");
  }
  if (!roi.empty() && static_cast<std::int64_t>(roi.size()) != 2 * r)
    n.fail("roi has " + std::to_string(roi.size()) + " values; the input's rank " + std::to_string(r) + " needs " +
           std::to_string(2 * r));
  if (scales.empty() == sizes.empty()) n.fail("exactly one of scales and sizes must be given");
  if (!scales.empty()) {
    if (static_cast<std::int64_t>(scales.size()) != r)
      n.fail("scales has " + std::to_string(scales.size()) + " values for an input of rank " + std::to_string(r));
    for (std::int64_t ax = 0; ax < r; ++ax) {
      const double s = scales[static_cast<std::size_t>(ax)];
      if (!(s > 0)) n.fail("scales must be positive, got " + std::to_string(s));
      double len = static_cast<double>(x.shape()[ax]);
      if (!roi.empty() && n.s("coordinate_transformation_mode", "") == "tf_crop_and_resize")
        len *= roi[static_cast<std::size_t>(ax + r)] - roi[static_cast<std::size_t>(ax)];
      sizes.push_back(size_from_value(n, std::floor(len * s), "the resized length"));
    }
  } else {
    if (static_cast<std::int64_t>(sizes.size()) != r)
      n.fail("sizes has " + std::to_string(sizes.size()) + " values for an input of rank " + std::to_string(r));
    for (std::int64_t ax = 0; ax < r; ++ax) {
      if (sizes[static_cast<std::size_t>(ax)] < 0) n.fail("sizes must be non-negative");
      scales.push_back(x.shape()[ax] ? static_cast<double>(sizes[static_cast<std::size_t>(ax)]) / static_cast<double>(x.shape()[ax]) : 1.0);
    }
  }
  return {resize(n, x, sizes, scales, roi)};
}

// Upsample 7 (scales attribute) and 9 (scales input): Resize 10 with asymmetric coordinates.
Arrays op_upsample(const NodeInfo& n, const Arrays& in) {
  need_inputs(n, in, 1, 2);
  std::vector<double> scales = n.since >= 9 ? float_values(n, in.at(1), "scales") : n.floats("scales", {});
  std::vector<std::int64_t> sizes;
  for (std::int64_t ax = 0; ax < in[0].ndim(); ++ax) {
    if (static_cast<std::int64_t>(scales.size()) != in[0].ndim()) n.fail("scales must have one value per axis");
    sizes.push_back(size_from_value(n, std::floor(static_cast<double>(in[0].shape()[ax]) * scales[static_cast<std::size_t>(ax)]), "the resized length"));
  }
  return {resize(n, in[0], sizes, scales, {})};
}

Arrays op_det(const NodeInfo& n, const Arrays& in) {
  need_inputs(n, in, 1, 1);
  return {linalg::det(in[0])};
}

// (x - mean) / sqrt(var), both over `axes` (default 0, 2, 3), population variance.
Arrays op_mvn(const NodeInfo& n, const Arrays& in) {
  need_inputs(n, in, 1, 1);
  const Array& x = in[0];
  const std::vector<std::int64_t> ax = n.ints("axes", {0, 2, 3});
  Dims axes;
  for (std::int64_t a : ax) axes.push_back(norm_axis(n, a, x.ndim()));
  Array mu = mean(x, axes, true);
  Array centered = x - mu;
  return {centered / sqrt(mean(centered * centered, axes, true) + 1e-9)};
}

}  // namespace

void add_resize_ops(std::vector<OpEntry>& table) {
  const OpEntry entries[] = {
      {"", "Resize", 10, op_resize},
      {"", "Resize", 11, op_resize},
      {"", "Resize", 13, op_resize},
      {"", "Upsample", 7, op_upsample},
      {"", "Upsample", 9, op_upsample},
      {"", "Det", 11, op_det},
      {"", "MeanVarianceNormalization", 9, op_mvn},
  };
  table.insert(table.end(), std::begin(entries), std::end(entries));
}

}  // namespace ivy::onnx::detail

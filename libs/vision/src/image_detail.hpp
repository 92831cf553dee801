// Private helpers of ivy::vision's image-side functions (image, quantization, mesh, voxel
// grids, smoothing, implicit, padding): argument checks with "[vision.<fn>] " messages, shape
// splitting into batch and trailing dims, and flat-index gathers over a flattened batch.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "ivy/ivy.hpp"

namespace ivy::vision::image_detail {

// Added to denominators (the spec's MIN_DENOMINATOR; the public name lives elsewhere).
inline constexpr double kMinDen = 1e-12;

inline std::string P(const char* fn) { return std::string("[vision.") + fn + "] "; }

inline Shape sub(const Shape& s, std::int64_t a, std::int64_t b) {
  Shape r;
  for (std::int64_t i = a; i < b; ++i) r.push_back(s[static_cast<std::size_t>(i)]);
  return r;
}
inline Shape cat(Shape a, const Shape& b) {
  for (auto v : b) a.push_back(v);
  return a;
}

inline void check_defined(const Array& x, const char* fn, const char* what) {
  if (!x.defined()) throw ValueError(P(fn) + what + " is an undefined array");
}
inline void check_float(const Array& x, const char* fn, const char* what) {
  check_defined(x, fn, what);
  if (!is_real_floating(x.dtype()))
    throw TypeError(P(fn) + what + " must be float32 or float64, got " + dtype_name(x.dtype()));
}
// An image [..., H, W, C] of a real floating dtype.
inline void check_image(const Array& x, const char* fn, const char* what = "image") {
  check_float(x, fn, what);
  if (x.ndim() < 3)
    throw ValueError(P(fn) + what + " must have shape [..., H, W, C], got shape " + x.shape().str());
}
// x of shape [..., n].
inline void check_last(const Array& x, const char* fn, const char* what, std::int64_t n) {
  check_float(x, fn, what);
  if (x.ndim() < 1 || x.shape().back() != n)
    throw ValueError(P(fn) + what + " must have shape [..., " + std::to_string(n) + "], got shape " + x.shape().str());
}
// Two arrays of one backend.
inline void check_same_backend(const Array& a, const Array& b, const char* fn, const char* wa, const char* wb) {
  if (a.backend() != b.backend())
    throw ValueError(P(fn) + wa + " lives on backend " + a.backend().name() + ", " + wb + " on " + b.backend().name());
}
inline void check_positive(std::int64_t v, const char* fn, const char* what) {
  if (v <= 0) throw ValueError(P(fn) + what + " must be positive, got " + std::to_string(v));
}

// The image's batch shape, its height and width.
struct ImageDims {
  Shape batch;
  std::int64_t B, H, W, C;
};
inline ImageDims image_dims(const Array& x) {
  const Shape& s = x.shape();
  const std::int64_t n = x.ndim();
  ImageDims d{sub(s, 0, n - 3), 0, s[n - 3], s[n - 2], s[n - 1]};
  d.B = d.batch.numel();
  return d;
}

inline Array i64_arange(std::int64_t n, const Array& like) {
  return arange(Scalar(std::int64_t{0}), Scalar(n), Scalar(std::int64_t{1}), int64, like.device(), like.backend());
}
inline Array i64_scalar(std::int64_t v, const Array& like) { return full(Shape{}, Scalar(v), int64, like.device(), like.backend()); }

// rows[flat_idx] for a [R, C] table and int64 indices of any shape: result idx.shape + [C].
inline Array gather_rows(const Array& table, const Array& idx) {
  Array g = take(table, reshape(idx, Shape{idx.size()}), 0);
  return reshape(g, cat(idx.shape(), Shape{table.shape()[1]}));
}

// Bilinear interpolation of flat images [B*H*W, C] at coordinates x, y of shape [B, M]
// (pixel units; clamped to the image, so the border replicates). Result [B, M, C]; a
// non-finite coordinate gives NaN. Differentiable in the table and in x, y.
inline Array bilinear_flat(const Array& table, std::int64_t B, std::int64_t H, std::int64_t W, const Array& x_in,
                           const Array& y_in) {
  Array fin = logical_and(isfinite(x_in), isfinite(y_in));
  Array x = clip(where(fin, x_in, 0.0), 0.0, static_cast<double>(W - 1));
  Array y = clip(where(fin, y_in, 0.0), 0.0, static_cast<double>(H - 1));
  // x0 in [0, max(W-2, 0)] so that x0 + 1 stays inside for W >= 2; the weight x - x0 in [0, 1]
  Array x0f = clip(floor(x), 0.0, static_cast<double>(std::max<std::int64_t>(W - 2, 0)));
  Array y0f = clip(floor(y), 0.0, static_cast<double>(std::max<std::int64_t>(H - 2, 0)));
  Array wx = x - x0f, wy = y - y0f;
  Array x0 = astype(x0f, int64), y0 = astype(y0f, int64);
  Array x1 = minimum(x0 + std::int64_t{1}, i64_scalar(W - 1, x0));
  Array y1 = minimum(y0 + std::int64_t{1}, i64_scalar(H - 1, y0));
  Array base = reshape(i64_arange(B, x0) * (H * W), Shape{B, 1});
  Array r0 = base + y0 * W, r1 = base + y1 * W;
  Array I00 = gather_rows(table, r0 + x0), I01 = gather_rows(table, r0 + x1);
  Array I10 = gather_rows(table, r1 + x0), I11 = gather_rows(table, r1 + x1);
  Array wxe = expand_dims(wx, -1), wye = expand_dims(wy, -1);
  Array out = (1.0 - wye) * ((1.0 - wxe) * I00 + wxe * I01) + wye * ((1.0 - wxe) * I10 + wxe * I11);
  return where(expand_dims(fin, -1), out, nan);
}

// Values from a host vector of int64 (e.g. a shape) as a 1-d array on like's backend.
inline Array host_i64(const std::vector<std::int64_t>& v, const Array& like) {
  return asarray(v, Shape{static_cast<std::int64_t>(v.size())}, int64, like.device(), like.backend());
}

}  // namespace ivy::vision::image_detail

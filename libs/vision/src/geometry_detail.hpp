// Private helpers of ivy::vision's geometry (single/two-view, projective, optical flow):
// component access, argument checks, homogeneous coordinates and the batched
// matrix-times-points product that every coordinate transform goes through.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ivy/ivy.hpp"
#include "ivy/vision/single_view_geometry.hpp"

namespace ivy::vision::geometry_detail {

// x[..., i], x[..., a:b] along the last axis.
inline Array c(const Array& x, std::int64_t i) { return x.index({Ellipsis, i}); }
inline Array sl(const Array& x, std::int64_t a, std::int64_t b) { return x.index({Ellipsis, Slice(a, b)}); }

inline std::string P(const char* fn) { return std::string("[vision.") + fn + "] "; }

inline void check_defined(const Array& x, const char* fn, const char* what) {
  if (!x.defined()) throw ValueError(P(fn) + "got an undefined array for " + what);
}
inline void check_float(const Array& x, const char* fn, const char* what) {
  if (!x.defined()) throw ValueError(P(fn) + "got an undefined array for " + what);
  if (!is_real_floating(x.dtype()))
    throw TypeError(P(fn) + "expects " + what + " of dtype float32 or float64, got " + dtype_name(x.dtype()));
}
// x of shape [..., n].
inline void check_vec(const Array& x, const char* fn, std::int64_t n, const char* what) {
  check_float(x, fn, what);
  if (x.ndim() < 1 || x.shape().back() != n)
    throw ValueError(P(fn) + "expects " + what + " of shape [..., " + std::to_string(n) + "], got shape " +
                     x.shape().str());
}
// x of shape [..., 3] or [..., 4] (homogeneous; the 4th entry is ignored).
inline void check_xyz(const Array& x, const char* fn, const char* what) {
  check_float(x, fn, what);
  if (x.ndim() < 1 || (x.shape().back() != 3 && x.shape().back() != 4))
    throw ValueError(P(fn) + "expects " + what + " of shape [..., 3] or homogeneous [..., 4], got shape " +
                     x.shape().str());
}
// x of shape [..., r, cols].
inline void check_mat(const Array& x, const char* fn, std::int64_t r, std::int64_t cols, const char* what) {
  check_float(x, fn, what);
  if (x.ndim() < 2 || x.shape()[x.ndim() - 2] != r || x.shape().back() != cols)
    throw ValueError(P(fn) + "expects " + what + " of shape [..., " + std::to_string(r) + ", " + std::to_string(cols) +
                     "], got shape " + x.shape().str());
}
// An image [..., H, W, ch].
inline void check_image(const Array& x, const char* fn, std::int64_t ch, const char* what) {
  check_float(x, fn, what);
  if (x.ndim() < 3 || (ch > 0 && x.shape().back() != ch))
    throw ValueError(P(fn) + "expects " + what + " of shape [..., H, W, " + (ch > 0 ? std::to_string(ch) : "C") +
                     "], got shape " + x.shape().str());
}

// First three entries of [..., 3] or [..., 4].
inline Array xyz(const Array& x) { return x.shape().back() == 3 ? x : sl(x, 0, 3); }
// [..., n] -> [..., n + 1] with a trailing 1.
inline Array homo(const Array& x) { return ivy::concat({x, ivy::ones_like(sl(x, 0, 1))}, -1); }
// [..., 3, 4] -> [..., 4, 4] with bottom row [0, 0, 0, 1].
inline Array homo_mat(const Array& m) {
  Array first = m.index({Ellipsis, Slice(0, 1), Slice()});
  Array bottom = ivy::concat({ivy::zeros_like(sl(first, 0, 3)), ivy::ones_like(sl(first, 3, 4))}, -1);
  return ivy::concat({m, bottom}, -2);
}

// sqrt(x) for x >= 0 with gradient 0 (not inf) at 0.
inline Array safe_sqrt(const Array& x) {
  Array pos = x > 0.0;
  return ivy::where(pos, ivy::sqrt(ivy::where(pos, x, 1.0)), 0.0);
}
inline Array norm(const Array& v, bool keepdims = true) {
  return safe_sqrt(ivy::sum(v * v, -1, std::nullopt, keepdims));
}

// Inserts n singleton axes before the last `tail` axes of x (so a per-batch matrix or vector
// broadcasts over point/image dims).
inline Array expand_before(const Array& x, std::int64_t n, std::int64_t tail) {
  if (n <= 0) return x;
  Shape s;
  for (std::int64_t i = 0; i < x.ndim() - tail; ++i) s.push_back(x.shape()[i]);
  for (std::int64_t i = 0; i < n; ++i) s.push_back(1);
  for (std::int64_t i = x.ndim() - tail; i < x.ndim(); ++i) s.push_back(x.shape()[i]);
  return ivy::reshape(x, s);
}

// M [B..., m, n] applied to points [B..., S..., n] -> [B..., S..., m]. M's leading dims are the
// batch dims; the points' remaining leading dims S are point (image) dims. The points are
// flattened to [B..., P, n] and multiplied by M^T in one broadcast matmul.
inline Array apply_mat(const Array& M, const Array& pts) {
  const std::int64_t nb = M.ndim() - 2;
  const std::int64_t ns = std::max<std::int64_t>(0, pts.ndim() - 1 - nb);
  const std::int64_t lead = pts.ndim() - 1 - ns;  // the points' own batch dims
  Shape flat, sdims;
  for (std::int64_t i = 0; i < lead; ++i) flat.push_back(pts.shape()[i]);
  std::int64_t p = 1;
  for (std::int64_t i = lead; i < lead + ns; ++i) {
    sdims.push_back(pts.shape()[i]);
    p *= pts.shape()[i];
  }
  flat.push_back(p);
  flat.push_back(pts.shape().back());
  Array out = ivy::matmul(ivy::reshape(pts, flat), ivy::matrix_transpose(M));  // [B..., P, m]
  Shape s;
  for (std::int64_t i = 0; i < out.ndim() - 2; ++i) s.push_back(out.shape()[i]);
  for (auto d : sdims) s.push_back(d);
  s.push_back(out.shape().back());
  return ivy::reshape(out, s);
}

// [M | t] [B..., m, n + 1] applied to points [B..., S..., n] as if they were homogeneous:
// M x + t, without building the homogeneous points.
inline Array apply_affine(const Array& Mt, const Array& pts) {
  const std::int64_t n = Mt.shape().back() - 1;
  const std::int64_t ns = std::max<std::int64_t>(0, pts.ndim() - 1 - (Mt.ndim() - 2));
  Array lin = apply_mat(Mt.index({Ellipsis, Slice(), Slice(0, n)}), pts);
  return lin + expand_before(Mt.index({Ellipsis, Slice(), n}), ns, 1);
}

// Uniform pixel coordinates [1..., H, W, 3] (x, y, 1) for an image-like array [B..., H, W, ch]:
// size-1 batch dims (so the grid broadcasts and batch matrices still line up), the array's
// dtype and backend.
inline Array pixel_grid_like(const Array& img) {
  const std::int64_t h = img.shape()[img.ndim() - 3], w = img.shape()[img.ndim() - 2];
  Shape ones;
  for (std::int64_t i = 0; i < img.ndim() - 3; ++i) ones.push_back(1);
  return create_uniform_pixel_coords_image({h, w}, ones, false, true, img.dtype(), img.backend());
}

}  // namespace ivy::vision::geometry_detail

// ivy::vision quantization (see include/ivy/vision/quantization.hpp). Points are scattered
// with scatter_add over the flattened batch of pixels plus one dump slot for dropped points;
// the depth buffer keeps, per pixel, the first point of a (pixel, depth, index) ordering made
// from two stable sorts, so every pixel receives exactly one point's values.
#include "ivy/vision/quantization.hpp"

#include "image_detail.hpp"
#include "ivy/nn_conv.hpp"

namespace ivy::vision {

using namespace image_detail;

QuantizedImage quantize_to_image(const Array& pixel_coords, std::array<std::int64_t, 2> image_dims,
                                 const Array& features, bool with_db) {
  const char* fn = "quantize_to_image";
  check_float(pixel_coords, fn, "pixel_coords");
  const Array& pc = pixel_coords;
  if (pc.ndim() < 2 || (pc.shape().back() != 2 && pc.shape().back() != 3))
    throw ValueError(P(fn) + "pixel_coords must have shape [..., N, 2] or [..., N, 3], got shape " + pc.shape().str());
  const bool ds = pc.shape().back() == 3;
  const std::int64_t H = image_dims[0], W = image_dims[1];
  check_positive(H, fn, "image_dims[0]");
  check_positive(W, fn, "image_dims[1]");
  const std::int64_t nb = pc.ndim() - 2, N = pc.shape()[nb];
  const Shape batch = sub(pc.shape(), 0, nb);
  const std::int64_t B = batch.numel();
  if (features.defined()) {
    check_float(features, fn, "features");
    check_same_backend(pc, features, fn, "pixel_coords", "features");
    if (features.ndim() != pc.ndim() || !(sub(features.shape(), 0, nb + 1) == sub(pc.shape(), 0, nb + 1)))
      throw ValueError(P(fn) + "features must have shape [..., N, F] with the leading dims of pixel_coords " +
                       pc.shape().str() + ", got " + features.shape().str());
  } else if (!ds) {
    throw ValueError(P(fn) + "2-d pixel coordinates " + pc.shape().str() + " need features");
  }
  if (with_db && !ds)
    throw ValueError(P(fn) + "with_db needs depth: pixel_coords of shape [..., N, 3] (u*d, v*d, d), got shape " +
                     pc.shape().str());

  Array c = reshape(pc, Shape{B * N, pc.shape().back()});
  Array x = c.index({Ellipsis, 0}), y = c.index({Ellipsis, 1});
  Array valid = logical_and(isfinite(x), isfinite(y));
  Array d;
  if (ds) {
    d = c.index({Ellipsis, 2});
    valid = logical_and(valid, d > 0.0);
    Array d_safe = where(valid, d, 1.0);
    x = x / d_safe, y = y / d_safe;
  }
  x = where(valid, x, 0.0), y = where(valid, y, 0.0);
  Array col = floor(x + 0.5), row = floor(y + 0.5);
  valid = logical_and(valid, logical_and(logical_and(col >= 0.0, col <= static_cast<double>(W - 1)),
                                         logical_and(row >= 0.0, row <= static_cast<double>(H - 1))));
  const std::int64_t slots = B * H * W;  // pixel slots; index `slots` is the dump
  Array bidx = reshape(broadcast_to(expand_dims(i64_arange(B, c) * (H * W), -1), Shape{B, N}), Shape{B * N});
  Array lin = bidx + astype(where(valid, row, 0.0), int64) * W + astype(where(valid, col, 0.0), int64);
  lin = where(valid, lin, i64_scalar(slots, lin));

  // values drawn per point: [features..., depth], and a count of 1
  std::vector<Array> parts;
  std::int64_t F = 0;
  if (features.defined()) {
    F = features.shape().back();
    parts.push_back(reshape(features, Shape{B * N, F}));
  }
  if (ds) parts.push_back(expand_dims(d, -1));
  const DType dt = features.defined() ? result_type(features, pc) : pc.dtype();
  for (auto& p : parts) p = astype(p, dt);
  Array ones_col = ones(Shape{B * N, 1}, dt, c.device(), c.backend());
  parts.push_back(ones_col);
  Array vals = concat(parts, -1);  // [B*N, K]
  const std::int64_t K = vals.shape()[1];

  Array counts_flat;
  if (with_db) {
    // order by pixel, then depth, then point index (two stable sorts); the first of each
    // pixel's run is its nearest point
    Array key = where(valid, d, 0.0);
    Array by_depth = argsort(key, -1, false, true);
    Array by_pixel = argsort(take(lin, by_depth, 0), -1, false, true);
    Array perm = take(by_depth, by_pixel, 0);
    Array sl = take(lin, perm, 0);
    Array first = concat({full(Shape{1}, Scalar(true), bool_, sl.device(), sl.backend()),
                          sl.index({Slice(1, None)}) != sl.index({Slice(None, -1)})},
                         0);
    // where, not a product with the mask: a hidden point's inf/NaN features must not leak
    Array winners = where(expand_dims(first, -1), take(vals, perm, 0), 0.0);
    Array pos = reshape(expand_dims(sl, -1) * K + expand_dims(i64_arange(K, sl), 0), Shape{B * N * K});
    Array acc = nn::scatter_add_flat(zeros(Shape{(slots + 1) * K}, dt, c.device(), c.backend()), pos,
                                     reshape(winners, Shape{B * N * K}));
    acc = reshape(acc, Shape{slots + 1, K}).index({Slice(None, slots)});
    // the counts still count every point in the pixel
    Array cnt = nn::scatter_add_flat(zeros(Shape{slots + 1}, dt, c.device(), c.backend()), lin, ones(Shape{B * N}, dt, c.device(), c.backend()));
    counts_flat = expand_dims(cnt.index({Slice(None, slots)}), -1);
    vals = acc.index({Slice(), Slice(None, K - 1)});
  } else {
    Array pos = reshape(expand_dims(lin, -1) * K + expand_dims(i64_arange(K, lin), 0), Shape{B * N * K});
    Array acc = nn::scatter_add_flat(zeros(Shape{(slots + 1) * K}, dt, c.device(), c.backend()), pos, reshape(vals, Shape{B * N * K}));
    acc = reshape(acc, Shape{slots + 1, K}).index({Slice(None, slots)});
    counts_flat = acc.index({Slice(), Slice(K - 1, K)});
    vals = acc.index({Slice(), Slice(None, K - 1)}) / maximum(counts_flat, 1.0);
  }
  QuantizedImage r;
  const Shape img = cat(batch, Shape{H, W});
  if (F > 0) r.image = reshape(vals.index({Slice(), Slice(None, F)}), cat(img, Shape{F}));
  if (ds) r.depth = reshape(vals.index({Slice(), Slice(F, F + 1)}), cat(img, Shape{1}));
  r.counts = astype(reshape(counts_flat, cat(img, Shape{1})), pc.dtype());
  r.mask = r.counts > 0.0;
  return r;
}

}  // namespace ivy::vision

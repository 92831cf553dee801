// ivy::vision image functions (see include/ivy/vision/image.hpp).
#include "ivy/vision/image.hpp"

#include <cmath>
#include <cstring>
#include <limits>

#include "image_detail.hpp"

namespace ivy::vision {

using namespace image_detail;

Array stack_images(const std::vector<Array>& images, std::array<double, 2> desired_aspect_ratio) {
  const char* fn = "stack_images";
  if (images.empty()) throw ValueError(P(fn) + "needs at least one image, got none");
  check_defined(images[0], fn, "images[0]");
  if (images[0].ndim() < 3)
    throw ValueError(P(fn) + "images must have shape [..., H, W, C], got shape " + images[0].shape().str());
  for (std::size_t i = 1; i < images.size(); ++i) {
    check_defined(images[i], fn, "an image");
    if (!(images[i].shape() == images[0].shape()) || images[i].dtype() != images[0].dtype())
      throw ValueError(P(fn) + "all images must share one shape and dtype: images[0] is " + images[0].shape().str() +
                       " " + dtype_name(images[0].dtype()) + ", images[" + std::to_string(i) + "] is " +
                       images[i].shape().str() + " " + dtype_name(images[i].dtype()));
    check_same_backend(images[0], images[i], fn, "images[0]", "another image");
  }
  if (!(desired_aspect_ratio[0] > 0) || !(desired_aspect_ratio[1] > 0))
    throw ValueError(P(fn) + "desired_aspect_ratio must be two positive numbers, got (" +
                     std::to_string(desired_aspect_ratio[0]) + ", " + std::to_string(desired_aspect_ratio[1]) + ")");
  if (images.size() == 1) return images[0];
  const auto d = image_dims(images[0]);
  const auto n = static_cast<std::int64_t>(images.size());
  const double target = std::log(desired_aspect_ratio[0] / desired_aspect_ratio[1]);
  std::int64_t best_rows = 1, best_cols = n;
  double best_err = std::numeric_limits<double>::infinity();
  std::int64_t best_empty = 0;
  for (std::int64_t cols = 1; cols <= n; ++cols) {
    const std::int64_t rows = (n + cols - 1) / cols;
    const double err = std::abs(std::log(static_cast<double>(rows * d.H) / static_cast<double>(cols * d.W)) - target);
    const std::int64_t empty = rows * cols - n;
    // strict improvement (1e-12 guards rounding) or an equal ratio with fewer empty cells
    if (err < best_err - 1e-12 || (std::abs(err - best_err) <= 1e-12 && empty < best_empty)) {
      best_err = err, best_rows = rows, best_cols = cols, best_empty = empty;
    }
  }
  Array blank = zeros_like(images[0]);
  std::vector<Array> rows;
  for (std::int64_t r = 0; r < best_rows; ++r) {
    std::vector<Array> row;
    for (std::int64_t c = 0; c < best_cols; ++c) {
      const std::int64_t k = r * best_cols + c;
      row.push_back(k < n ? images[static_cast<std::size_t>(k)] : blank);
    }
    rows.push_back(concat(row, -2));
  }
  return concat(rows, -3);
}

ImageGradients gradient_image(const Array& x) {
  const char* fn = "gradient_image";
  check_image(x, fn, "x");
  const auto d = image_dims(x);
  Array dx = x.index({Ellipsis, Slice(), Slice(1, None), Slice()}) - x.index({Ellipsis, Slice(), Slice(None, -1), Slice()});
  Array dy = x.index({Ellipsis, Slice(1, None), Slice(), Slice()}) - x.index({Ellipsis, Slice(None, -1), Slice(), Slice()});
  dx = concat({dx, zeros(cat(d.batch, Shape{d.H, 1, d.C}), x.dtype(), x.device(), x.backend())}, -2);
  dy = concat({dy, zeros(cat(d.batch, Shape{1, d.W, d.C}), x.dtype(), x.device(), x.backend())}, -3);
  return {dx, dy};
}

Array float_img_to_uint8_img(const Array& x) {
  const char* fn = "float_img_to_uint8_img";
  check_float(x, fn, "x");
  Array xf = astype(x, float32);
  std::vector<float> host(static_cast<std::size_t>(xf.size()));
  if (!host.empty()) copy_to_host(xf, host.data());
  // the float32 bytes in host order, 4 per element
  return asarray(static_cast<const void*>(host.data()), uint8, cat(x.shape(), Shape{4}), uint8, x.device(),
                 x.backend());
}

Array uint8_img_to_float_img(const Array& x) {
  const char* fn = "uint8_img_to_float_img";
  check_defined(x, fn, "x");
  if (x.dtype() != uint8) throw TypeError(P(fn) + "x must be uint8, got " + dtype_name(x.dtype()));
  if (x.ndim() < 1 || x.shape().back() != 4)
    throw ValueError(P(fn) + "x must have shape [..., 4] (the bytes of each float32), got shape " + x.shape().str());
  std::vector<std::uint8_t> host(static_cast<std::size_t>(x.size()));
  if (!host.empty()) copy_to_host(x, host.data());
  return asarray(static_cast<const void*>(host.data()), float32, sub(x.shape(), 0, x.ndim() - 1), float32, x.device(),
                 x.backend());
}

Crop random_crop_with_offsets(const Array& x, std::array<std::int64_t, 2> crop_size) {
  const char* fn = "random_crop";
  check_defined(x, fn, "x");
  if (x.ndim() < 3) throw ValueError(P(fn) + "x must have shape [..., H, W, C], got shape " + x.shape().str());
  const auto d = image_dims(x);
  const std::int64_t h = crop_size[0], w = crop_size[1];
  if (h < 1 || w < 1 || h > d.H || w > d.W)
    throw ValueError(P(fn) + "crop_size (" + std::to_string(h) + ", " + std::to_string(w) +
                     ") must be positive and fit the image of shape " + x.shape().str());
  // one top-left offset per flattened batch element, uniform over the valid positions
  Array ox = randint(0, d.W - w + 1, Shape{d.B}, int64, x.device(), x.backend());
  Array oy = randint(0, d.H - h + 1, Shape{d.B}, int64, x.device(), x.backend());
  Array rows = expand_dims(oy, -1) + expand_dims(i64_arange(h, x), 0);  // [B, h]
  Array cols = expand_dims(ox, -1) + expand_dims(i64_arange(w, x), 0);  // [B, w]
  Array base = reshape(i64_arange(d.B, x) * (d.H * d.W), Shape{d.B, 1, 1});
  Array flat = base + expand_dims(rows, -1) * d.W + expand_dims(cols, 1);  // [B, h, w]
  Array out = gather_rows(reshape(x, Shape{d.B * d.H * d.W, d.C}), flat);
  return {reshape(out, cat(d.batch, Shape{h, w, d.C})), reshape(stack({ox, oy}, -1), cat(d.batch, Shape{2}))};
}

Array random_crop(const Array& x, std::array<std::int64_t, 2> crop_size) {
  return random_crop_with_offsets(x, crop_size).image;
}

namespace {
// image [B..., H, W, C], coords [B..., N..., 2] with the batch dims checked -> [B..., N..., C]
Array interpolate(const Array& image, const Array& coords, const char* fn, const char* what) {
  check_image(image, fn, "image");
  check_last(coords, fn, what, 2);
  check_same_backend(image, coords, fn, "image", what);
  const auto d = image_dims(image);
  const std::int64_t nb = image.ndim() - 3;
  if (coords.ndim() < nb + 1 || !(sub(coords.shape(), 0, nb) == d.batch))
    throw ValueError(P(fn) + what + " must have shape [B..., N..., 2] with the image's batch dims " + d.batch.str() +
                     ", got shape " + coords.shape().str() + " for an image of shape " + image.shape().str());
  const Shape samples = sub(coords.shape(), nb, coords.ndim() - 1);
  const std::int64_t M = samples.numel();
  Array c = reshape(coords, Shape{d.B, M, 2});
  Array out = bilinear_flat(reshape(image, Shape{d.B * d.H * d.W, d.C}), d.B, d.H, d.W, c.index({Ellipsis, 0}),
                            c.index({Ellipsis, 1}));
  return reshape(out, cat(cat(d.batch, samples), Shape{d.C}));
}
}  // namespace

Array bilinearly_interpolate_image(const Array& image, const Array& sampling_pixel_coords) {
  return interpolate(image, sampling_pixel_coords, "bilinearly_interpolate_image", "sampling_pixel_coords");
}

Array bilinear_resample(const Array& x, const Array& warp) {
  const char* fn = "bilinear_resample";
  check_image(x, fn, "x");
  check_defined(warp, fn, "warp");
  if (warp.ndim() != x.ndim())
    throw ValueError(P(fn) + "warp must have shape [B..., H', W', 2] with the batch dims of x " + x.shape().str() +
                     ", got shape " + warp.shape().str());
  return interpolate(x, warp, fn, "warp");
}

}  // namespace ivy::vision

// ivy::vision image functions: stacking, gradients, float <-> uint8 bit packing, random
// crops and bilinear sampling. Images are [..., H, W, C] (any leading batch dims), pixel
// origin top-left, pixel centres at integer coordinates, coordinates ordered (x, y).
// Written with ivy:: functions only: every backend, differentiable where the math is.
// See docs/vision-images.md.
#pragma once

#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "ivy/ivy.hpp"

namespace ivy::vision {

// Tiles images of one shape [..., H, W, C] into a grid [..., rows*H, cols*W, C], row-major,
// with zero images filling the empty cells. The grid is the one whose aspect ratio
// (rows*H) / (cols*W) is closest (in log ratio) to desired_aspect_ratio = {height, width};
// ties go to fewer empty cells, then to fewer columns. One image is returned unchanged.
// Any dtype.
Array stack_images(const std::vector<Array>& images, std::array<double, 2> desired_aspect_ratio = {1.0, 1.0});

// Forward differences of x [..., H, W, C]: dx = x[.., y, x+1, :] - x[.., y, x, :] (0 in the
// last column), dy = x[.., y+1, x, :] - x[.., y, x, :] (0 in the last row).
struct ImageGradients {
  Array dx, dy;
};
ImageGradients gradient_image(const Array& x);

// Bit packing for saving float images to 8-bit files: x [...] (cast to float32) becomes
// uint8 [..., 4], the four bytes of each float32 in the host's (little-endian) byte order;
// uint8_img_to_float_img is the exact inverse ([..., 4] uint8 -> float32 [...]). No gradient.
Array float_img_to_uint8_img(const Array& x);
Array uint8_img_to_float_img(const Array& x);

// A crop of crop_size = {h, w} from each image of x [..., H, W, C] -> [..., h, w, C], at an
// offset drawn independently and uniformly for every batch element from all H-h+1 by W-w+1
// positions, with ivy::randint on x's backend (reproducible after ivy::seed). 1 <= h <= H
// and 1 <= w <= W. Differentiable in x.
Array random_crop(const Array& x, std::array<std::int64_t, 2> crop_size);
// The same, also returning the offsets [..., 2] = (x, y) of each crop's top-left pixel (int64).
struct Crop {
  Array image, offsets;
};
Crop random_crop_with_offsets(const Array& x, std::array<std::int64_t, 2> crop_size);

// Bilinear interpolation of image [B..., H, W, C] at sampling_pixel_coords [B..., N..., 2]
// (x, y in pixels; the leading dims equal the image's batch dims, then any sample dims)
// -> [B..., N..., C]. Coordinates are clamped to [0, W-1] x [0, H-1] (the border pixels
// extend outwards); a non-finite coordinate gives NaN. Differentiable in the image and the
// coordinates (piecewise linear; zero gradient in a coordinate clamped at the border).
Array bilinearly_interpolate_image(const Array& image, const Array& sampling_pixel_coords);

// Resamples x [B..., H, W, C] through a warp field warp [B..., H', W', 2] of pixel
// coordinates: out[.., i, j, :] = x bilinearly sampled at warp[.., i, j, :] -> [B..., H', W', C].
// Same rules as bilinearly_interpolate_image.
Array bilinear_resample(const Array& x, const Array& warp);

}  // namespace ivy::vision

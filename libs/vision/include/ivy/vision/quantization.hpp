// ivy::vision quantization: forward warping / point rendering of (possibly non-integer)
// pixel coordinates with features into an image with integer pixel centres, with or
// without a depth buffer. See docs/vision-images.md.
#pragma once

#include <array>
#include <cstdint>

#include "ivy/ivy.hpp"

namespace ivy::vision {

// pixel_coords [..., N, 2] are pixel coordinates (u, v); [..., N, 3] are depth-scaled pixel
// coordinates (u*d, v*d, d) (the vision convention), giving u = x/d, v = y/d and depth d.
// Point n lands in pixel (row, col) = (floor(v + 0.5), floor(u + 0.5)) (the pixel whose
// centre is nearest); points outside the image, with non-finite coordinates or (3-d input)
// with d <= 0 are dropped. features [..., N, F] (optional for 3-d input; pass an undefined
// Array) are the values drawn. image_dims = {H, W}.
//   with_db = false: every point in a pixel counts; the pixel gets the mean of their
//                    features (and depths).
//   with_db = true:  a depth buffer: the pixel gets the features (and depth) of its nearest
//                    point (smallest d; among equal depths the lowest n). Needs 3-d input.
// Pixels no point reaches are 0 in image and depth. Differentiable in the features and the
// depths drawn (not in the positions, which are rounded). Deterministic on every backend.
struct QuantizedImage {
  Array image;   // [..., H, W, F]  (undefined without features)
  Array depth;   // [..., H, W, 1]  (undefined for 2-d pixel coordinates)
  Array counts;  // [..., H, W, 1]  number of points that landed in each pixel (dtype of pixel_coords)
  Array mask;    // [..., H, W, 1]  bool: counts > 0
};
QuantizedImage quantize_to_image(const Array& pixel_coords, std::array<std::int64_t, 2> image_dims,
                                 const Array& features = Array(), bool with_db = false);

}  // namespace ivy::vision

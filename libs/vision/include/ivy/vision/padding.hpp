// ivy::vision padding of omnidirectional (equirectangular) images. See docs/vision-images.md.
#pragma once

#include <cstdint>

#include "ivy/ivy.hpp"

namespace ivy::vision {

// Pads an equirectangular image [..., H, W, C] by pad_size on every side -> [..., H+2p,
// W+2p, C], wrapping as the sphere does: the rows above the top come from the top p rows
// seen across the pole (flipped vertically and shifted by floor(W/2) columns:
// out row -1-r, col j = image row r, col (j + floor(W/2)) mod W), likewise below the
// bottom; then the columns wrap around horizontally (left border = the last p columns of
// the vertically padded image, right border = its first p). 0 <= pad_size <= min(H, W).
// Differentiable.
Array pad_omni_image(const Array& image, std::int64_t pad_size);

}  // namespace ivy::vision

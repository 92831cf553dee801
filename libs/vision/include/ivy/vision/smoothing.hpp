// ivy::vision smoothing: windowed fusion of an image with per-pixel weights or variances,
// as depthwise convolutions with VALID padding (the result shrinks by kernel_dim - 1 in
// height and width). Images [..., H, W, C], float32/float64; differentiable.
// See docs/vision-images.md.
#pragma once

#include <cstdint>

#include "ivy/ivy.hpp"

namespace ivy::vision {

// Weighted box smoothing over kernel_dim x kernel_dim windows:
//   mean'    = sum(w * m) / (sum(w) + 1e-12)
//   weights' = sum(w) / kernel_dim^2              (the window's mean weight)
// mean, weights [..., H, W, C] -> both [..., H-k+1, W-k+1, C].
struct WeightedImage {
  Array mean, weights;
};
WeightedImage weighted_image_smooth(const Array& mean, const Array& weights, std::int64_t kernel_dim);

// Inverse-variance fusion over kernel_dim x kernel_dim windows, each neighbour's variance
// inflated by its distance from the window centre (floor(k/2), floor(k/2)):
//   s_j      = 1 + kernel_scale[c] * |offset_j|          (the kernel, per channel)
//   var'     = 1 / (sum_j 1 / (s_j * (var_j + 1e-12)) + 1e-12)
//   mean'    = var' * sum_j mean_j / (s_j * (var_j + 1e-12))
// mean, var [..., H, W, C], kernel_scale [C] (or [] / [1] for all channels) ->
// both [..., H-k+1, W-k+1, C]. Differentiable in mean, var and kernel_scale.
struct MeanVarImage {
  Array mean, var;
};
MeanVarImage smooth_image_fom_var_image(const Array& mean, const Array& var, std::int64_t kernel_dim,
                                        const Array& kernel_scale);
MeanVarImage smooth_image_fom_var_image(const Array& mean, const Array& var, std::int64_t kernel_dim,
                                        double kernel_scale);

}  // namespace ivy::vision

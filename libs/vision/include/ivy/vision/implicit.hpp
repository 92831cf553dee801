// ivy::vision implicit rendering helpers (NeRF-style): pixel sampling, stratified depth
// sampling along rays, densities to termination probabilities, and volume rendering of
// an implicit function. Written with ivy:: functions only; differentiable in densities,
// features, near/far bounds and ray origins/directions. See docs/vision-images.md.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "ivy/ivy.hpp"

namespace ivy::vision {

// Dimensions {h, w} of a downsampled image with about num_pixels pixels and the aspect ratio
// of image_dims = {H, W}: h = sqrt(num_pixels * H / W), w = h * W / H, each rounded to the
// nearest integer (half away from zero) or, with maximum = true, rounded down so that
// h * w <= num_pixels; each at least 1. Also returns h * w.
struct DownsampledDims {
  std::array<std::int64_t, 2> image_dims;
  std::int64_t num_pixels;
};
DownsampledDims downsampled_image_dims_from_desired_num_pixels(std::array<std::int64_t, 2> image_dims,
                                                                std::int64_t num_pixels, bool maximum = false);

// An image [batch_shape..., h, w, 2] of integer pixel coordinates (x, y) (stored as floats) of
// an image of image_dims = {H, W}, one per cell of an h x w grid of windows of size
// (W / w, H / h): the window centre (j + 0.5) * W / w - 0.5, i.e. the cell's middle in pixel
// units, plus (randomize) a uniform offset in [-W/(2w), W/(2w)) (likewise in y) drawn with
// ivy::random_uniform (reproducible after ivy::seed); then rounded (half to even) and clamped
// to [0, W-1] x [0, H-1]. normalized divides x by W and y by H; homogeneous appends a 1.
Array create_sampled_pixel_coords_image(std::array<std::int64_t, 2> image_dims,
                                        std::array<std::int64_t, 2> samples_per_dim, const Shape& batch_shape = {},
                                        bool normalized = false, bool randomize = true, bool homogeneous = false,
                                        DType dtype = DType::float32, Backend backend = {}, Device device = {});

// Samples aligned images [..., H, W, C_i] (one batch shape, H and W) at the same random
// pixels: the grid of create_sampled_pixel_coords_image (randomized) with the dims of
// downsampled_image_dims_from_desired_num_pixels({H, W}, num_pixels), drawn independently
// per batch element. Returns one [..., n, C_i] per image, n = h * w, pixels row-major.
std::vector<Array> sample_images(const std::vector<Array>& images, std::int64_t num_pixels);

// alpha = 1 - exp(-density * inter_sample_distance), elementwise (broadcasting).
Array sampled_volume_density_to_occupancy_probability(const Array& density, const Array& inter_sample_distance);

// Termination probabilities along rays [..., S]: w_i = alpha_i * T_i, with the transmittance
// T_i = prod_{j<i} (1 - alpha_j), computed as exp(-sum_{j<i} density_j * distance_j) (the
// same product, without cumprod's trouble at alpha = 1 in the gradient).
Array ray_termination_probabilities(const Array& density, const Array& inter_sample_distance);

// num_samples stratified samples between starts and ends [...] -> [..., num_samples]:
// sample i = start + (i + u_i) * (end - start) / num_samples, u_i ~ U[0, 1) from
// ivy::random_uniform on starts' backend (reproducible after ivy::seed). Differentiable in
// starts and ends.
Array stratified_sample(const Array& starts, const Array& ends, std::int64_t num_samples);

// Volume rendering: features' = sum_i w_i f_i over the samples, ray_term_probs [..., S],
// features [..., S, F] -> [..., F]; with render_variance also sum_i w_i (f_i - features')^2.
struct RenderedRays {
  Array features, variance;  // variance undefined unless asked for
};
RenderedRays render_rays_via_termination_probabilities(const Array& ray_term_probs, const Array& features,
                                                       bool render_variance = false);

// The implicit function: query points [B..., R..., S, 3] -> (features [B..., R..., S, F],
// densities [B..., R..., S] or [B..., R..., S, 1]). Anything else it needs (time stamps,
// interpolated features, variables) it captures.
using ImplicitFunction = std::function<std::pair<Array, Array>(const Array& points)>;

// Renders features and depth along rays: rays_o [B..., 3] (camera centres), rays_d
// [B..., R..., 3] (directions), near and far [B..., R...]. Depth samples t come from
// stratified_sample(near, far, samples_per_ray) (so the result is random; ivy::seed fixes
// it); points o + t d; distances between samples t_{i+1} - t_i with 1e10 after the last;
// w = ray_termination_probabilities(densities, distances). Returns features
// [B..., R..., F] = sum w f and depth [B..., R..., 1] = sum w t (t along the ray parameter,
// radial depth for unit directions), and their variances with render_variance. Features are
// not clipped.
struct ImplicitRendering {
  Array features, depth, features_variance, depth_variance;  // undefined where not asked for
};
ImplicitRendering render_implicit_features_and_depth(const ImplicitFunction& network_fn, const Array& rays_o,
                                                     const Array& rays_d, const Array& near, const Array& far,
                                                     std::int64_t samples_per_ray, bool render_depth = true,
                                                     bool render_feats = true, bool render_variance = false);

}  // namespace ivy::vision

// ivy::vision smoothing (see include/ivy/vision/smoothing.hpp): depthwise VALID
// convolutions over the flattened batch, channels last.
#include "ivy/vision/smoothing.hpp"

#include <cmath>
#include <vector>

#include "image_detail.hpp"
#include "ivy/nn_conv.hpp"

namespace ivy::vision {

using namespace image_detail;

namespace {
// mean and a second image of the same shape, a kernel that fits; returns the dims.
ImageDims check_pair(const Array& mean, const Array& other, const char* other_name, std::int64_t k, const char* fn) {
  check_image(mean, fn, "mean");
  check_float(other, fn, other_name);
  check_same_backend(mean, other, fn, "mean", other_name);
  if (!(other.shape() == mean.shape()))
    throw ValueError(P(fn) + other_name + " must have the shape of mean " + mean.shape().str() + ", got " +
                     other.shape().str());
  const auto d = image_dims(mean);
  if (k < 1 || k > d.H || k > d.W)
    throw ValueError(P(fn) + "kernel_dim must be in [1, min(H, W)] for an image of shape " + mean.shape().str() +
                     ", got " + std::to_string(k));
  return d;
}
// Depthwise VALID correlation of x [..., H, W, C] with w [C, 1, k, k] -> [..., H', W', C].
Array depthwise_valid(const Array& x, const Array& w, const ImageDims& d, std::int64_t k) {
  nn::ConvOptions o;
  o.channels_last = true;
  o.padding = nn::Padding::valid();
  Array y = nn::depthwise_conv2d(reshape(x, Shape{d.B, d.H, d.W, d.C}), w, Array(), o);
  return reshape(y, cat(d.batch, Shape{d.H - k + 1, d.W - k + 1, d.C}));
}
}  // namespace

WeightedImage weighted_image_smooth(const Array& mean, const Array& weights, std::int64_t kernel_dim) {
  const char* fn = "weighted_image_smooth";
  const auto d = check_pair(mean, weights, "weights", kernel_dim, fn);
  const DType dt = result_type(mean, weights);
  Array box = ones(Shape{d.C, 1, kernel_dim, kernel_dim}, dt, mean.device(), mean.backend());
  Array sum_w = depthwise_valid(astype(weights, dt), box, d, kernel_dim);
  Array sum_mw = depthwise_valid(astype(mean * weights, dt), box, d, kernel_dim);
  return {sum_mw / (sum_w + kMinDen), sum_w / static_cast<double>(kernel_dim * kernel_dim)};
}

MeanVarImage smooth_image_fom_var_image(const Array& mean, const Array& var, std::int64_t kernel_dim,
                                        const Array& kernel_scale) {
  const char* fn = "smooth_image_fom_var_image";
  const auto d = check_pair(mean, var, "var", kernel_dim, fn);
  check_float(kernel_scale, fn, "kernel_scale");
  check_same_backend(mean, kernel_scale, fn, "mean", "kernel_scale");
  if (kernel_scale.ndim() > 1 || (kernel_scale.ndim() == 1 && kernel_scale.shape()[0] != d.C && kernel_scale.shape()[0] != 1))
    throw ValueError(P(fn) + "kernel_scale must have shape [C] = [" + std::to_string(d.C) + "], [1] or [], got shape " +
                     kernel_scale.shape().str());
  const DType dt = result_type({DTypeArg(mean), DTypeArg(var), DTypeArg(kernel_scale)});
  // distances of the kernel taps from the centre tap, row-major [k, k]
  const std::int64_t k = kernel_dim, c0 = k / 2;
  std::vector<double> dist;
  for (std::int64_t i = 0; i < k; ++i)
    for (std::int64_t j = 0; j < k; ++j) dist.push_back(std::hypot(static_cast<double>(i - c0), static_cast<double>(j - c0)));
  Array D = asarray(dist, Shape{1, k, k}, dt, mean.device(), mean.backend());
  Array scale = reshape(astype(kernel_scale, dt), Shape{kernel_scale.size(), 1, 1});
  Array recip_kernel = reshape(1.0 / (1.0 + scale * D), Shape{kernel_scale.size(), 1, k, k});
  if (kernel_scale.size() != d.C) recip_kernel = broadcast_to(recip_kernel, Shape{d.C, 1, k, k});
  Array recip_var = 1.0 / (astype(var, dt) + kMinDen);
  Array precision = depthwise_valid(recip_var, recip_kernel, d, k);
  Array new_var = 1.0 / (precision + kMinDen);
  Array new_mean = new_var * depthwise_valid(astype(mean, dt) * recip_var, recip_kernel, d, k);
  return {new_mean, new_var};
}

MeanVarImage smooth_image_fom_var_image(const Array& mean, const Array& var, std::int64_t kernel_dim,
                                        double kernel_scale) {
  check_defined(mean, "smooth_image_fom_var_image", "mean");
  return smooth_image_fom_var_image(mean, var, kernel_dim,
                                    full(Shape{}, Scalar(kernel_scale), mean.dtype(), mean.device(), mean.backend()));
}

}  // namespace ivy::vision

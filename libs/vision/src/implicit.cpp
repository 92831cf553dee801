// ivy::vision implicit rendering helpers (see include/ivy/vision/implicit.hpp).
#include "ivy/vision/implicit.hpp"

#include <algorithm>
#include <cmath>

#include "image_detail.hpp"

namespace ivy::vision {

using namespace image_detail;

DownsampledDims downsampled_image_dims_from_desired_num_pixels(std::array<std::int64_t, 2> image_dims,
                                                                std::int64_t num_pixels, bool maximum) {
  const char* fn = "downsampled_image_dims_from_desired_num_pixels";
  check_positive(image_dims[0], fn, "image_dims[0]");
  check_positive(image_dims[1], fn, "image_dims[1]");
  check_positive(num_pixels, fn, "num_pixels");
  const double ratio = static_cast<double>(image_dims[1]) / static_cast<double>(image_dims[0]);  // W / H
  const double h = std::sqrt(static_cast<double>(num_pixels) / ratio);
  auto to_int = [maximum](double v) {
    return std::max<std::int64_t>(1, static_cast<std::int64_t>(maximum ? std::floor(v) : std::round(v)));
  };
  DownsampledDims r{{to_int(h), to_int(h * ratio)}, 0};
  r.num_pixels = r.image_dims[0] * r.image_dims[1];
  return r;
}

Array create_sampled_pixel_coords_image(std::array<std::int64_t, 2> image_dims,
                                        std::array<std::int64_t, 2> samples_per_dim, const Shape& batch_shape,
                                        bool normalized, bool randomize, bool homogeneous, DType dtype,
                                        Backend backend, Device device) {
  const char* fn = "create_sampled_pixel_coords_image";
  check_positive(image_dims[0], fn, "image_dims[0]");
  check_positive(image_dims[1], fn, "image_dims[1]");
  check_positive(samples_per_dim[0], fn, "samples_per_dim[0]");
  check_positive(samples_per_dim[1], fn, "samples_per_dim[1]");
  if (!is_real_floating(dtype)) throw TypeError(P(fn) + "dtype must be float32 or float64, got " + dtype_name(dtype));
  const double H = static_cast<double>(image_dims[0]), W = static_cast<double>(image_dims[1]);
  const std::int64_t h = samples_per_dim[0], w = samples_per_dim[1];
  const double wx = W / static_cast<double>(w), wy = H / static_cast<double>(h);  // window sizes
  Array xs = arange(Scalar(std::int64_t{0}), Scalar(w), Scalar(std::int64_t{1}), dtype, device, backend) * wx + (wx / 2 - 0.5);
  Array ys = arange(Scalar(std::int64_t{0}), Scalar(h), Scalar(std::int64_t{1}), dtype, device, backend) * wy + (wy / 2 - 0.5);
  auto grid = meshgrid({xs, ys}, "xy");                    // each [h, w]
  Array c = stack({grid[0], grid[1]}, -1);                 // [h, w, 2]
  const Shape full_shape = cat(batch_shape, Shape{h, w, 2});
  c = broadcast_to(c, full_shape);
  Array window = asarray(std::vector<double>{wx, wy}, Shape{2}, dtype, c.device(), c.backend());
  if (randomize) c = c + (random_uniform(0.0, 1.0, full_shape, dtype, c.device(), c.backend()) - 0.5) * window;
  Array hi = asarray(std::vector<double>{W - 1, H - 1}, Shape{2}, dtype, c.device(), c.backend());
  c = minimum(maximum(round(c), 0.0), hi);
  if (normalized) c = c / asarray(std::vector<double>{W, H}, Shape{2}, dtype, c.device(), c.backend());
  if (homogeneous) c = concat({c, ones(cat(batch_shape, Shape{h, w, 1}), dtype, c.device(), c.backend())}, -1);
  return c;
}

std::vector<Array> sample_images(const std::vector<Array>& images, std::int64_t num_pixels) {
  const char* fn = "sample_images";
  if (images.empty()) throw ValueError(P(fn) + "needs at least one image, got none");
  check_defined(images[0], fn, "images[0]");
  if (images[0].ndim() < 3) throw ValueError(P(fn) + "images must have shape [..., H, W, C], got " + images[0].shape().str());
  const auto d = image_dims(images[0]);
  for (std::size_t i = 1; i < images.size(); ++i) {
    check_defined(images[i], fn, "an image");
    const Array& im = images[i];
    if (im.ndim() != images[0].ndim() || !(sub(im.shape(), 0, im.ndim() - 1) == sub(images[0].shape(), 0, im.ndim() - 1)))
      throw ValueError(P(fn) + "images must share batch shape, H and W: images[0] is " + images[0].shape().str() +
                       ", images[" + std::to_string(i) + "] is " + im.shape().str());
    check_same_backend(images[0], im, fn, "images[0]", "another image");
  }
  const auto dims = downsampled_image_dims_from_desired_num_pixels({d.H, d.W}, num_pixels);
  const std::int64_t n = dims.num_pixels;
  Array coords = create_sampled_pixel_coords_image({d.H, d.W}, dims.image_dims, Shape{d.B}, false, true, false,
                                                   float64, images[0].backend(), images[0].device());
  Array xy = astype(reshape(coords, Shape{d.B, n, 2}), int64);
  Array flat = reshape(i64_arange(d.B, xy) * (d.H * d.W), Shape{d.B, 1}) + xy.index({Ellipsis, 1}) * d.W +
               xy.index({Ellipsis, 0});  // [B, n]
  std::vector<Array> out;
  for (const auto& im : images) {
    const std::int64_t C = im.shape().back();
    out.push_back(reshape(gather_rows(reshape(im, Shape{d.B * d.H * d.W, C}), flat), cat(d.batch, Shape{n, C})));
  }
  return out;
}

Array sampled_volume_density_to_occupancy_probability(const Array& density, const Array& inter_sample_distance) {
  const char* fn = "sampled_volume_density_to_occupancy_probability";
  check_float(density, fn, "density");
  check_float(inter_sample_distance, fn, "inter_sample_distance");
  return 1.0 - exp(-(density * inter_sample_distance));
}

Array ray_termination_probabilities(const Array& density, const Array& inter_sample_distance) {
  const char* fn = "ray_termination_probabilities";
  check_float(density, fn, "density");
  check_float(inter_sample_distance, fn, "inter_sample_distance");
  Array tau = density * inter_sample_distance;  // optical depth per interval, broadcast
  if (tau.ndim() < 1)
    throw ValueError(P(fn) + "density and inter_sample_distance must have shape [..., S], got " +
                     density.shape().str() + " and " + inter_sample_distance.shape().str());
  // exclusive cumulative sum: the optical depth in front of each sample
  Array before = cumulative_sum(tau, -1, std::nullopt, true).index({Ellipsis, Slice(None, -1)});
  return (1.0 - exp(-tau)) * exp(-before);
}

Array stratified_sample(const Array& starts, const Array& ends, std::int64_t num_samples) {
  const char* fn = "stratified_sample";
  check_float(starts, fn, "starts");
  check_float(ends, fn, "ends");
  check_same_backend(starts, ends, fn, "starts", "ends");
  check_positive(num_samples, fn, "num_samples");
  auto b = broadcast_arrays({starts, ends});
  const DType dt = result_type(starts, ends);
  Array s = expand_dims(b[0], -1), e = expand_dims(b[1], -1);
  const Shape shape = cat(b[0].shape(), Shape{num_samples});
  Array i = arange(Scalar(std::int64_t{0}), Scalar(num_samples), Scalar(std::int64_t{1}), dt, starts.device(), starts.backend());
  Array u = random_uniform(0.0, 1.0, shape, dt, starts.device(), starts.backend());
  return s + (i + u) * ((e - s) / static_cast<double>(num_samples));
}

RenderedRays render_rays_via_termination_probabilities(const Array& ray_term_probs, const Array& features,
                                                       bool render_variance) {
  const char* fn = "render_rays_via_termination_probabilities";
  check_float(ray_term_probs, fn, "ray_term_probs");
  check_float(features, fn, "features");
  check_same_backend(ray_term_probs, features, fn, "ray_term_probs", "features");
  if (ray_term_probs.ndim() < 1 || features.ndim() != ray_term_probs.ndim() + 1 ||
      !(sub(features.shape(), 0, features.ndim() - 1) == ray_term_probs.shape()))
    throw ValueError(P(fn) + "expects ray_term_probs [..., S] and features [..., S, F] with the same leading dims, got " +
                     ray_term_probs.shape().str() + " and " + features.shape().str());
  Array w = expand_dims(ray_term_probs, -1);
  RenderedRays r;
  r.features = sum(w * features, -2);
  if (render_variance) {
    Array dev = features - expand_dims(r.features, -2);
    r.variance = sum(w * dev * dev, -2);
  }
  return r;
}

ImplicitRendering render_implicit_features_and_depth(const ImplicitFunction& network_fn, const Array& rays_o,
                                                     const Array& rays_d, const Array& near, const Array& far,
                                                     std::int64_t samples_per_ray, bool render_depth,
                                                     bool render_feats, bool render_variance) {
  const char* fn = "render_implicit_features_and_depth";
  if (!network_fn) throw ValueError(P(fn) + "network_fn is empty");
  check_last(rays_o, fn, "rays_o", 3);
  check_last(rays_d, fn, "rays_d", 3);
  check_float(near, fn, "near");
  check_float(far, fn, "far");
  check_positive(samples_per_ray, fn, "samples_per_ray");
  const std::int64_t nb = rays_o.ndim() - 1;
  const Shape batch = sub(rays_o.shape(), 0, nb);
  const Shape total = sub(rays_d.shape(), 0, rays_d.ndim() - 1);  // [B..., R...]
  if (rays_d.ndim() < rays_o.ndim() || !(sub(rays_d.shape(), 0, nb) == batch))
    throw ValueError(P(fn) + "rays_d must have shape [B..., R..., 3] with the batch dims of rays_o " +
                     rays_o.shape().str() + ", got " + rays_d.shape().str());
  if (!(near.shape() == total) || !(far.shape() == total))
    throw ValueError(P(fn) + "near and far must have shape " + total.str() + " (rays_d without its last axis), got " +
                     near.shape().str() + " and " + far.shape().str());
  const std::int64_t S = samples_per_ray;
  const std::int64_t nr = static_cast<std::int64_t>(total.size()) - nb;  // ray batch dims
  // [B..., R..., S] depths along each ray and the query points [B..., R..., S, 3]
  Array t = stratified_sample(near, far, S);
  Shape o_shape = batch;
  for (std::int64_t i = 0; i < nr + 1; ++i) o_shape.push_back(1);
  o_shape.push_back(3);
  Array pts = reshape(rays_o, o_shape) + expand_dims(rays_d, -2) * expand_dims(t, -1);
  auto [feat, density] = network_fn(pts);
  check_float(density, fn, "the network's densities");
  const Shape ts = t.shape();
  if (density.size() != ts.numel())
    throw ValueError(P(fn) + "the network's densities must have " + ts.str() + " (or a trailing 1) elements, got shape " +
                     density.shape().str());
  density = reshape(density, ts);
  // distances to the next sample; 1e10 after the last one (the ray ends there)
  Array far_end = full(cat(total, Shape{1}), Scalar(1e10), t.dtype(), t.device(), t.backend());
  Array dists = concat({t.index({Ellipsis, Slice(1, None)}) - t.index({Ellipsis, Slice(None, -1)}), far_end}, -1);
  Array w = ray_termination_probabilities(density, dists);
  ImplicitRendering r;
  if (render_feats) {
    check_float(feat, fn, "the network's features");
    if (feat.size() % ts.numel() != 0 || feat.size() == 0)
      throw ValueError(P(fn) + "the network's features must have shape " + ts.str() + " + [F], got shape " +
                       feat.shape().str());
    Array f = reshape(feat, cat(ts, Shape{feat.size() / ts.numel()}));
    auto rf = render_rays_via_termination_probabilities(w, f, render_variance);
    r.features = rf.features;
    r.features_variance = rf.variance;
  }
  if (render_depth) {
    auto rd = render_rays_via_termination_probabilities(w, expand_dims(t, -1), render_variance);
    r.depth = rd.features;
    r.depth_variance = rd.variance;
  }
  return r;
}

}  // namespace ivy::vision

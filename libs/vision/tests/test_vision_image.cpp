// ivy::vision's image-side functions on every backend against fixtures recomputed from the
// formulas with NumPy loops (tests/fixtures/vision_image.json from
// tests/gen_vision_image_fixtures.py): bilinear interpolation and resampling, gradients,
// float <-> uint8 bytes, smoothing, quantization with and without a depth buffer,
// rasterization, voxel grids, the NeRF helpers and omni padding; float64 to 1e-9 and float32
// to 1e-4, with batch dims. Random functions (random_crop, stratified_sample, sampled pixel
// coordinates, implicit rendering) are checked against their defining properties and against
// host recomputation from what they drew. Gradients against central finite differences, and
// argument errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <fstream>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "ivy/ivy.hpp"
#include "lib_test_util.hpp"
#include "ivy/vision/image.hpp"
#include "ivy/vision/implicit.hpp"
#include "ivy/vision/mesh.hpp"
#include "ivy/vision/padding.hpp"
#include "ivy/vision/quantization.hpp"
#include "ivy/vision/smoothing.hpp"
#include "ivy/vision/voxel_grids.hpp"


namespace {

using json = nlohmann::json;
using ivy::Array;
using ivy::Ellipsis;
using ivy::Shape;
using ivy::Slice;
namespace vision = ivy::vision;

using ivy::lib_testing::backend_names;

const json& doc() {
  static const json d = ivy::lib_testing::load_fixture("vision_image.json");
  return d;
}

using ivy::lib_testing::arr;
using ivy::lib_testing::vals;

using ivy::lib_testing::close;
double tol_for(ivy::DType dt) { return dt == ivy::float64 ? 1e-9 : 1e-4; }

template <class E, class F>
void expect_error(F&& f, const std::string& prefix) {
  try {
    f();
    ADD_FAILURE() << "no exception, expected one starting with " << prefix;
  } catch (const E& e) {
    EXPECT_EQ(std::string(e.what()).rfind(prefix, 0), 0u) << e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "wrong exception type: " << e.what();
  }
}

// Central differences of a scalar function of x against ivy::grad.
void check_grad(const std::function<Array(const Array&)>& f, const Array& x, double h, double tol) {
  auto g = vals(ivy::grad(f)(x));
  auto xv = vals(x);
  ASSERT_EQ(g.size(), xv.size());
  for (std::size_t i = 0; i < xv.size(); ++i) {
    auto p = xv, m = xv;
    p[i] += h;
    m[i] -= h;
    double fd = (f(arr(p, x.shape())).item<double>() - f(arr(m, x.shape())).item<double>()) / (2 * h);
    EXPECT_NEAR(g[i], fd, tol) << "element " << i;
  }
}

class VisionImageBase : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    ASSERT_TRUE(doc().contains("bilinear")) << "fixtures/vision_image.json is missing (run gen_vision_image_fixtures.py)";
    scope_ = std::make_unique<ivy::BackendScope>(ivy::Backend(GetParam()));
  }
  const json& fx(const char* k) const { return doc().at(k); }
  std::unique_ptr<ivy::BackendScope> scope_;
};
class VisionImage : public VisionImageBase {};
class VisionImageSmoothing : public VisionImageBase {};
class VisionImageImplicit : public VisionImageBase {};
class VisionImageQuantization : public VisionImageBase {};
class VisionImageVoxel : public VisionImageBase {};
class VisionImageMesh : public VisionImageBase {};
class VisionImagePadding : public VisionImageBase {};
class VisionImageGrad : public VisionImageBase {};
class VisionImageErrors : public VisionImageBase {};

// ---------------------------------------------------------------- image
TEST_P(VisionImage, BilinearInterpolationMatchesFixture) {
  const auto& f = fx("bilinear");
  for (auto dt : {ivy::float64, ivy::float32}) {
    Array img = arr(f["image"], dt), c = arr(f["coords"], dt), want = arr(f["expected"], dt);
    // batch [2], sample dims [4, 3]
    EXPECT_TRUE(close(vision::bilinearly_interpolate_image(img, c), want, tol_for(dt)));
    // extra batch dim [2, 1]
    Array img2 = ivy::reshape(img, Shape{2, 1, 5, 6, 3}), c2 = ivy::reshape(c, Shape{2, 1, 4, 3, 2});
    EXPECT_TRUE(close(vision::bilinearly_interpolate_image(img2, c2), ivy::reshape(want, Shape{2, 1, 4, 3, 3}), tol_for(dt)));
    // no batch dims, flat samples
    Array one = vision::bilinearly_interpolate_image(img[1], ivy::reshape(c[1], Shape{12, 2}));
    EXPECT_TRUE(close(one, ivy::reshape(want[1], Shape{12, 3}), tol_for(dt)));
    // as a warp field [B, H', W', 2]
    EXPECT_TRUE(close(vision::bilinear_resample(img, c), want, tol_for(dt)));
  }
  // a pixel centre reproduces the pixel; a NaN coordinate gives NaN
  Array img = arr(f["image"]);
  Array at = vision::bilinearly_interpolate_image(img, arr({2.0, 3.0, 0.0, 0.0}, Shape{2, 1, 2}));
  EXPECT_TRUE(close(at, ivy::stack({img.index({0, 3, 2}), img.index({1, 0, 0})}, 0).index({Slice(), ivy::newaxis}), 0));
  Array bad = vision::bilinearly_interpolate_image(img, arr({ivy::nan, 1.0, 1.0, 1.0}, Shape{2, 1, 2}));
  auto b = vals(bad);
  EXPECT_TRUE(std::isnan(b[0]) && std::isnan(b[2]));
  EXPECT_FALSE(std::isnan(b[3]));
  // a one-column image: constant along x, linear along y
  Array col = ivy::reshape(ivy::asarray({1.0, 3.0, 7.0}), Shape{3, 1, 1});
  EXPECT_TRUE(close(vision::bilinearly_interpolate_image(col, arr({-2.0, 0.5, 0.4, 1.25, 9.0, 9.0}, Shape{3, 2})),
                    arr({2.0, 4.0, 7.0}, Shape{3, 1}), 1e-12));
}

TEST_P(VisionImage, GradientImage) {
  const auto& f = fx("gradient");
  for (auto dt : {ivy::float64, ivy::float32}) {
    auto [dx, dy] = vision::gradient_image(arr(f["image"], dt));
    EXPECT_TRUE(close(dx, arr(f["dx"]), tol_for(dt)));
    EXPECT_TRUE(close(dy, arr(f["dy"]), tol_for(dt)));
    EXPECT_EQ(dx.dtype(), dt);
  }
}

TEST_P(VisionImage, FloatUint8BitPacking) {
  const auto& f = fx("uint8");
  Array x = arr(f["float"], ivy::float32);
  Array bytes = vision::float_img_to_uint8_img(x);
  EXPECT_EQ(bytes.dtype(), ivy::uint8);
  EXPECT_EQ(bytes.backend().name(), GetParam());
  EXPECT_TRUE(close(bytes, arr(f["bytes"]), 0));
  Array back = vision::uint8_img_to_float_img(bytes);
  EXPECT_EQ(back.dtype(), ivy::float32);
  EXPECT_TRUE(ivy::array_equal(back, x));
  // float64 input is stored as float32
  EXPECT_TRUE(close(vision::float_img_to_uint8_img(arr(f["float"])), arr(f["bytes"]), 0));
}

TEST_P(VisionImage, StackImages) {
  // three 2x3 images with batch [2]: a 2x2 grid for a square target, one row for 1:3
  std::vector<Array> ims;
  for (int k = 0; k < 3; ++k) ims.push_back(ivy::full(Shape{2, 2, 3, 1}, k + 1.0, ivy::float64));
  Array s = vision::stack_images(ims, {1.0, 1.0});
  ASSERT_EQ(s.shape(), (Shape{2, 4, 6, 1}));
  auto v = vals(s);
  auto at = [&](int b, int i, int j) { return v[(b * 4 + i) * 6 + j]; };
  for (int b = 0; b < 2; ++b) {
    EXPECT_EQ(at(b, 0, 0), 1.0);
    EXPECT_EQ(at(b, 1, 5), 2.0);
    EXPECT_EQ(at(b, 3, 2), 3.0);
    EXPECT_EQ(at(b, 2, 3), 0.0);  // the empty cell
  }
  Array row = vision::stack_images(ims, {1.0, 3.0});
  ASSERT_EQ(row.shape(), (Shape{2, 2, 9, 1}));
  EXPECT_EQ(vals(row)[8], 3.0);
  EXPECT_TRUE(ivy::array_equal(vision::stack_images({ims[0]}), ims[0]));
}

TEST_P(VisionImage, RandomCropIsACropAndReproducible) {
  const std::int64_t B0 = 3, B1 = 2, H = 6, W = 7, C = 2, h = 3, w = 4;
  Array x = ivy::reshape(ivy::arange(0, B0 * B1 * H * W * C, 1, ivy::float64), Shape{B0, B1, H, W, C});
  ivy::seed(11);
  auto crop = vision::random_crop_with_offsets(x, {h, w});
  ASSERT_EQ(crop.image.shape(), (Shape{B0, B1, h, w, C}));
  ASSERT_EQ(crop.offsets.shape(), (Shape{B0, B1, 2}));
  auto xv = vals(x), cv = vals(crop.image), ov = vals(crop.offsets);
  for (std::int64_t b = 0; b < B0 * B1; ++b) {
    const auto ox = static_cast<std::int64_t>(ov[2 * b]), oy = static_cast<std::int64_t>(ov[2 * b + 1]);
    ASSERT_TRUE(ox >= 0 && ox <= W - w && oy >= 0 && oy <= H - h) << ox << " " << oy;
    for (std::int64_t i = 0; i < h; ++i)
      for (std::int64_t j = 0; j < w; ++j)
        for (std::int64_t c = 0; c < C; ++c)
          ASSERT_EQ(cv[(((b * h + i) * w) + j) * C + c], xv[(((b * H + oy + i) * W) + ox + j) * C + c]);
  }
  ivy::seed(11);
  EXPECT_TRUE(ivy::array_equal(vision::random_crop(x, {h, w}), crop.image));
  // every offset is reachable: 200 crops of 2x2 from 4x5 images
  ivy::seed(5);
  auto many = vision::random_crop_with_offsets(ivy::zeros(Shape{200, 4, 5, 1}, ivy::float32), {2, 2});
  std::set<double> xs, ys;
  auto mv = vals(many.offsets);
  for (std::size_t k = 0; k < mv.size(); k += 2) xs.insert(mv[k]), ys.insert(mv[k + 1]);
  EXPECT_EQ(xs, (std::set<double>{0, 1, 2, 3}));
  EXPECT_EQ(ys, (std::set<double>{0, 1, 2}));
  // the whole image is the only crop of its own size
  EXPECT_TRUE(ivy::array_equal(vision::random_crop(x, {H, W}), x));
}

// ---------------------------------------------------------------- smoothing
TEST_P(VisionImageSmoothing, MatchesDirectLoops) {
  const auto& f = fx("smoothing");
  const std::int64_t k = f["kernel_dim"].get<std::int64_t>();
  for (auto dt : {ivy::float64, ivy::float32}) {
    Array mean = arr(f["mean"], dt), weights = arr(f["weights"], dt), var = arr(f["var"], dt);
    auto ws = vision::weighted_image_smooth(mean, weights, k);
    EXPECT_TRUE(close(ws.mean, arr(f["weighted_mean"]), tol_for(dt)));
    EXPECT_TRUE(close(ws.weights, arr(f["weighted_weights"]), tol_for(dt)));
    auto vs = vision::smooth_image_fom_var_image(mean, var, k, arr(f["kernel_scale"], dt));
    EXPECT_TRUE(close(vs.mean, arr(f["var_mean"]), tol_for(dt)));
    EXPECT_TRUE(close(vs.var, arr(f["var_var"]), tol_for(dt)));
    // batch dims [1, 2]
    auto vb = vision::smooth_image_fom_var_image(ivy::expand_dims(mean, 0), ivy::expand_dims(var, 0), k,
                                                 arr(f["kernel_scale"], dt));
    EXPECT_TRUE(close(vb.mean, ivy::expand_dims(arr(f["var_mean"]), 0), tol_for(dt)));
  }
  // a 1x1 kernel changes nothing in the mean; equal weights give the box mean
  Array m = arr(f["mean"]);
  auto id = vision::smooth_image_fom_var_image(m, arr(f["var"]), 1, 0.0);
  EXPECT_TRUE(close(id.mean, m, 1e-9));
  auto box = vision::weighted_image_smooth(m, ivy::ones_like(m), 5);  // 5x6 -> 1x2
  ASSERT_EQ(box.mean.shape(), (Shape{2, 1, 2, 2}));
  EXPECT_TRUE(close(box.mean.index({Ellipsis, Slice(0, 1), Slice()}), ivy::mean(m.index({Ellipsis, Slice(0, 5), Slice(0, 5), Slice()}), {-3, -2}, true), 1e-9));
}

// ---------------------------------------------------------------- implicit / NeRF
TEST_P(VisionImageImplicit, TerminationAndRenderingClosedForms) {
  const auto& f = fx("nerf");
  for (auto dt : {ivy::float64, ivy::float32}) {
    Array dens = arr(f["density"], dt), dist = arr(f["dist"], dt), feat = arr(f["features"], dt);
    EXPECT_TRUE(close(vision::sampled_volume_density_to_occupancy_probability(dens, dist), arr(f["occupancy"]), tol_for(dt)));
    Array w = vision::ray_termination_probabilities(dens, dist);
    EXPECT_TRUE(close(w, arr(f["termination"]), tol_for(dt)));
    auto r = vision::render_rays_via_termination_probabilities(w, feat, true);
    EXPECT_TRUE(close(r.features, arr(f["rendering"]), tol_for(dt)));
    EXPECT_TRUE(close(r.variance, arr(f["variance"]), tol_for(dt)));
    EXPECT_FALSE(vision::render_rays_via_termination_probabilities(w, feat).variance.defined());
  }
}

TEST_P(VisionImageImplicit, DownsampledDims) {
  for (const auto& c : fx("downsample")) {
    auto d = vision::downsampled_image_dims_from_desired_num_pixels(
        {c["image_dims"][0].get<std::int64_t>(), c["image_dims"][1].get<std::int64_t>()}, c["num_pixels"].get<std::int64_t>(),
        c["maximum"].get<bool>());
    EXPECT_EQ(d.image_dims[0], c["dims"][0].get<std::int64_t>()) << c.dump();
    EXPECT_EQ(d.image_dims[1], c["dims"][1].get<std::int64_t>()) << c.dump();
    EXPECT_EQ(d.num_pixels, c["n"].get<std::int64_t>());
    if (c["maximum"].get<bool>()) EXPECT_LE(d.num_pixels, c["num_pixels"].get<std::int64_t>());
  }
}

TEST_P(VisionImageImplicit, SampledPixelCoords) {
  // windows of 3x3 pixels over a 9x6 image: centres x in {1, 4}, y in {1, 4, 7}
  Array c = vision::create_sampled_pixel_coords_image({9, 6}, {3, 2}, Shape{2}, false, false, false, ivy::float64);
  ASSERT_EQ(c.shape(), (Shape{2, 3, 2, 2}));
  std::vector<double> want;
  for (int b = 0; b < 2; ++b)
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 2; ++j) want.insert(want.end(), {1.0 + 3 * j, 1.0 + 3 * i});
  EXPECT_TRUE(close(c, arr(want, Shape{2, 3, 2, 2}), 0));
  Array n = vision::create_sampled_pixel_coords_image({9, 6}, {3, 2}, {}, true, false, true, ivy::float32);
  ASSERT_EQ(n.shape(), (Shape{3, 2, 3}));
  EXPECT_TRUE(close(n.index({2, 1}), ivy::asarray({4.0 / 6, 7.0 / 9, 1.0}), 1e-6));
  // randomized: integers inside the image and within half a window (+ rounding) of the centre
  ivy::seed(3);
  Array r = vision::create_sampled_pixel_coords_image({20, 30}, {4, 5}, Shape{3}, false, true, false, ivy::float64);
  auto rv = vals(r);
  std::set<double> distinct;
  for (std::size_t k = 0; k < rv.size(); k += 2) {
    const std::size_t cell = (k / 2) % 20;
    const double cx = (cell % 5) * 6.0 + 2.5, cy = (cell / 5) * 5.0 + 2.0;
    EXPECT_EQ(rv[k], std::round(rv[k]));
    EXPECT_LE(std::abs(rv[k] - cx), 3.0 + 0.5);
    EXPECT_LE(std::abs(rv[k + 1] - cy), 2.5 + 0.5);
    EXPECT_TRUE(rv[k] >= 0 && rv[k] <= 29 && rv[k + 1] >= 0 && rv[k + 1] <= 19);
    distinct.insert(rv[k] - cx);
  }
  EXPECT_GT(distinct.size(), 3u);  // offsets do vary
}

TEST_P(VisionImageImplicit, SampleImagesReadTheSamePixels) {
  // image 0 holds each pixel's (x, y); image 1 holds 10 y + x
  const std::int64_t H = 6, W = 8;
  std::vector<double> xy, code;
  for (int b = 0; b < 2; ++b)
    for (int i = 0; i < H; ++i)
      for (int j = 0; j < W; ++j) xy.insert(xy.end(), {double(j), double(i)}), code.push_back(10.0 * i + j + 100 * b);
  ivy::seed(9);
  auto s = vision::sample_images({arr(xy, Shape{2, H, W, 2}), arr(code, Shape{2, H, W, 1}, ivy::float32)}, 12);
  ASSERT_EQ(s.size(), 2u);
  ASSERT_EQ(s[0].shape(), (Shape{2, 12, 2}));  // 3 x 4 windows of 2 x 2 pixels
  ASSERT_EQ(s[1].shape(), (Shape{2, 12, 1}));
  EXPECT_EQ(s[1].dtype(), ivy::float32);
  auto p = vals(s[0]), q = vals(s[1]);
  for (int b = 0; b < 2; ++b)
    for (int n = 0; n < 12; ++n) {
      const double x = p[(b * 12 + n) * 2], y = p[(b * 12 + n) * 2 + 1];
      EXPECT_EQ(q[b * 12 + n], 10 * y + x + 100 * b);
      EXPECT_LE(std::abs(x - ((n % 4) * 2 + 0.5)), 1.5);
      EXPECT_LE(std::abs(y - ((n / 4) * 2 + 0.5)), 1.5);
    }
}

TEST_P(VisionImageImplicit, StratifiedSampleStaysInItsBins) {
  for (auto dt : {ivy::float64, ivy::float32}) {
    Array s = ivy::asarray({{0.0, 1.0, -2.0}, {0.5, 0.5, 3.0}}, dt), e = ivy::asarray({{1.0, 4.0, 2.0}, {2.5, 0.5, 3.5}}, dt);
    ivy::seed(21);
    Array z = vision::stratified_sample(s, e, 5);
    ASSERT_EQ(z.shape(), (Shape{2, 3, 5}));
    EXPECT_EQ(z.dtype(), dt);
    auto zv = vals(z), sv = vals(s), ev = vals(e);
    for (std::size_t r = 0; r < 6; ++r) {
      const double bin = (ev[r] - sv[r]) / 5;
      for (int i = 0; i < 5; ++i) {
        EXPECT_GE(zv[r * 5 + i], sv[r] + i * bin - 1e-6);
        EXPECT_LE(zv[r * 5 + i], sv[r] + (i + 1) * bin + 1e-6);
      }
    }
    ivy::seed(21);
    EXPECT_TRUE(ivy::array_equal(vision::stratified_sample(s, e, 5), z));
  }
}

TEST_P(VisionImageImplicit, RenderImplicitFeaturesAndDepth) {
  // rays: batch [2], ray batch [3]
  Array o = ivy::asarray({{0.1, -0.2, 0.0}, {1.0, 0.5, -0.5}});
  Array d = ivy::asarray({0.0, 0.0, 1.0, 0.3, 0.1, 0.9, -0.2, 0.4, 1.2, 0.5, -0.5, 1.0, 0.0, 0.2, 0.8, 0.1, 0.1, 1.1});
  d = ivy::reshape(d, Shape{2, 3, 3});
  Array near = ivy::full(Shape{2, 3}, 0.5, ivy::float64), far = ivy::asarray({{2.0, 3.0, 2.5}, {1.5, 4.0, 2.0}});
  Array seen;
  auto net = [&seen](const Array& pts) {
    seen = pts;
    Array x = pts.index({Ellipsis, 0}), y = pts.index({Ellipsis, 1}), z = pts.index({Ellipsis, 2});
    Array feat = ivy::stack({ivy::sin(x), y, z * z}, -1);
    return std::make_pair(feat, ivy::expand_dims(ivy::abs(x) + 0.5 * z, -1));
  };
  const int S = 6;
  ivy::seed(4);
  auto r = vision::render_implicit_features_and_depth(net, o, d, near, far, S, true, true, true);
  ASSERT_EQ(seen.shape(), (Shape{2, 3, S, 3}));
  ASSERT_EQ(r.features.shape(), (Shape{2, 3, 3}));
  ASSERT_EQ(r.depth.shape(), (Shape{2, 3, 1}));
  ASSERT_TRUE(r.features_variance.defined() && r.depth_variance.defined());
  // recompute on the host from the points the network saw
  auto P = vals(seen), O = vals(o), D = vals(d), nv = vals(near), fv = vals(far);
  std::vector<double> wf, wd, wdv;
  for (int b = 0; b < 2; ++b)
    for (int q = 0; q < 3; ++q) {
      const int ray = b * 3 + q;
      std::vector<double> t(S), sig(S);
      std::vector<std::array<double, 3>> feat(S);
      double dd = 0;
      for (int k = 0; k < 3; ++k) dd += D[ray * 3 + k] * D[ray * 3 + k];
      for (int s = 0; s < S; ++s) {
        const double* p = &P[(ray * S + s) * 3];
        double tp = 0;
        for (int k = 0; k < 3; ++k) tp += (p[k] - O[b * 3 + k]) * D[ray * 3 + k];
        t[s] = tp / dd;
        sig[s] = std::abs(p[0]) + 0.5 * p[2];
        feat[s] = {std::sin(p[0]), p[1], p[2] * p[2]};
        ASSERT_GE(t[s], nv[ray] - 1e-9);
        ASSERT_LE(t[s], fv[ray] + 1e-9);
        if (s > 0) ASSERT_GT(t[s], t[s - 1]);
      }
      double T = 1, depth = 0;
      std::array<double, 3> acc{};
      std::vector<double> w(S);
      for (int s = 0; s < S; ++s) {
        const double delta = s + 1 < S ? t[s + 1] - t[s] : 1e10;
        const double alpha = 1 - std::exp(-sig[s] * delta);
        w[s] = alpha * T;
        T *= 1 - alpha;
        depth += w[s] * t[s];
        for (int k = 0; k < 3; ++k) acc[k] += w[s] * feat[s][k];
      }
      double dvar = 0;
      for (int s = 0; s < S; ++s) dvar += w[s] * (t[s] - depth) * (t[s] - depth);
      wf.insert(wf.end(), acc.begin(), acc.end());
      wd.push_back(depth);
      wdv.push_back(dvar);
    }
  EXPECT_TRUE(close(r.features, arr(wf, Shape{2, 3, 3}), 1e-9));
  EXPECT_TRUE(close(r.depth, arr(wd, Shape{2, 3, 1}), 1e-9));
  EXPECT_TRUE(close(r.depth_variance, arr(wdv, Shape{2, 3, 1}), 1e-9));
  // only what is asked for
  auto only_depth = vision::render_implicit_features_and_depth(net, o, d, near, far, S, true, false);
  EXPECT_FALSE(only_depth.features.defined());
  EXPECT_TRUE(only_depth.depth.defined());
}

// ---------------------------------------------------------------- quantization
TEST_P(VisionImageQuantization, DepthBufferAndMeanMatchBruteForce) {
  const auto& f = fx("quantize");
  const std::array<std::int64_t, 2> dims{f["image_dims"][0].get<std::int64_t>(), f["image_dims"][1].get<std::int64_t>()};
  for (auto dt : {ivy::float64, ivy::float32}) {
    Array pc = arr(f["pixel_coords"], dt), feat = arr(f["features"], dt);
    for (const char* mode : {"db", "mean"}) {
      const bool db = std::string(mode) == "db";
      auto q = vision::quantize_to_image(pc, dims, feat, db);
      EXPECT_TRUE(close(q.image, arr(f[mode]["image"]), tol_for(dt))) << mode;
      EXPECT_TRUE(close(q.depth, arr(f[mode]["depth"]), tol_for(dt))) << mode;
      EXPECT_TRUE(close(q.counts, arr(f[mode]["counts"]), 0)) << mode;
      EXPECT_TRUE(close(q.mask, ivy::astype(arr(f[mode]["counts"]) > 0.0, ivy::float64), 0)) << mode;
      EXPECT_EQ(q.mask.dtype(), ivy::bool_);
    }
    // batch dims [1, 2]; depth only
    auto q = vision::quantize_to_image(ivy::expand_dims(pc, 0), dims, Array(), true);
    EXPECT_FALSE(q.image.defined());
    EXPECT_TRUE(close(q.depth, ivy::expand_dims(arr(f["db"]["depth"]), 0), tol_for(dt)));
    // plain (u, v) coordinates
    auto uv = vision::quantize_to_image(arr(f["uv"]["pixel_coords"], dt), dims, feat);
    EXPECT_TRUE(close(uv.image, arr(f["uv"]["image"]), tol_for(dt)));
    EXPECT_TRUE(close(uv.counts, arr(f["uv"]["counts"]), 0));
    EXPECT_FALSE(uv.depth.defined());
  }
}

TEST_P(VisionImageQuantization, GradientReachesTheWinningFeatures) {
  const auto& f = fx("quantize");
  Array pc = arr(f["pixel_coords"]), feat = arr(f["features"]);
  Array wt = ivy::reshape(ivy::arange(0, 40, 1, ivy::float64), Shape{2, 4, 5, 1}) * 0.1 + 1.0;
  auto loss = [&](const Array& ft) { return ivy::sum(vision::quantize_to_image(pc, {4, 5}, ft, true).image * wt); };
  check_grad(loss, feat, 1e-6, 1e-6);
}

// A hidden point's non-finite features never reach the image or the gradient (the winner is
// selected, not multiplied by a 0/1 mask).
TEST_P(VisionImageQuantization, HiddenNonFiniteFeaturesDoNotLeak) {
  // two points in pixel (0, 0): the near one (d = 1) has features 2, the far one (d = 3) inf/NaN
  Array pc = ivy::asarray({{0.0, 0.0, 1.0}, {0.0, 0.0, 3.0}});
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  Array feat = ivy::asarray({{2.0, 2.0}, {inf, nan}});
  auto q = vision::quantize_to_image(pc, {1, 2}, feat, true);
  EXPECT_EQ(ivy::astype(q.image, ivy::float64).to_vector<double>(), (std::vector<double>{2.0, 2.0, 0.0, 0.0}));
  Array g = ivy::grad([&](const Array& ft) { return ivy::sum(vision::quantize_to_image(pc, {1, 2}, ft, true).image); })(feat);
  EXPECT_EQ(ivy::astype(g, ivy::float64).to_vector<double>(), (std::vector<double>{1.0, 1.0, 0.0, 0.0}));
}

// ---------------------------------------------------------------- voxel grids
TEST_P(VisionImageVoxel, DimsAndResModesMatchLoops) {
  const auto& f = fx("voxel");
  for (auto dt : {ivy::float64, ivy::float32}) {
    Array coords = arr(f["coords"], dt), feat = arr(f["features"], dt);
    const auto& dm = f["dims_mode"];
    auto g = vision::coords_to_voxel_grid(coords, ivy::asarray({3, 4, 2}), "DIMS", Array(), feat);
    EXPECT_TRUE(close(g.grid, arr(dm["grid"]), tol_for(dt) * 10));
    EXPECT_TRUE(close(g.dims, arr(dm["dims"]), 0));
    EXPECT_EQ(g.dims.dtype(), ivy::int64);
    EXPECT_TRUE(close(g.resolutions, arr(dm["res"]), tol_for(dt)));
    EXPECT_TRUE(close(g.lower_corners, arr(dm["lower"]), tol_for(dt)));
    const auto& rm = f["res_mode"];
    // homogeneous coordinates, bounds [6], resolutions [3]
    Array hom = ivy::concat({coords, ivy::ones(Shape{2, 40, 1}, dt)}, -1);
    auto r = vision::coords_to_voxel_grid(hom, arr(rm["spec"], dt), "RES", arr(rm["bounds"], dt), feat);
    EXPECT_TRUE(close(r.grid, arr(rm["grid"]), tol_for(dt) * 10));
    EXPECT_TRUE(close(r.dims, arr(rm["dims"]), 0));
    EXPECT_TRUE(close(r.resolutions, arr(rm["res"]), tol_for(dt)));
    // batch dims [2, 1], no features: coordinates and counts only
    auto nb = vision::coords_to_voxel_grid(ivy::expand_dims(coords, 1), ivy::asarray({3, 4, 2}), "DIMS");
    Array want = arr(dm["grid"]);
    EXPECT_TRUE(close(nb.grid, ivy::expand_dims(ivy::concat({want.index({Ellipsis, Slice(0, 3)}), want.index({Ellipsis, Slice(5, 6)})}, -1), 1),
                      tol_for(dt) * 10));
  }
}

// ---------------------------------------------------------------- mesh
TEST_P(VisionImageMesh, RasterizeMatchesLoops) {
  const auto& f = fx("rasterize");
  const std::array<std::int64_t, 2> dims{f["image_dims"][0].get<std::int64_t>(), f["image_dims"][1].get<std::int64_t>()};
  for (auto dt : {ivy::float64, ivy::float32}) {
    Array tris = arr(f["triangles"], dt);
    auto r = vision::rasterize_triangles(tris, dims);
    EXPECT_TRUE(close(r.mask, arr(f["depth"]["mask"]), 0));
    EXPECT_TRUE(close(r.triangle_ids, arr(f["depth"]["ids"]), 0));
    EXPECT_EQ(r.triangle_ids.dtype(), ivy::int64);
    EXPECT_TRUE(close(r.barycentrics, arr(f["depth"]["bary"]), tol_for(dt)));
    EXPECT_TRUE(close(r.depth, arr(f["depth"]["depth"]), tol_for(dt)));
    auto flat = vision::rasterize_triangles(tris.index({Ellipsis, Slice(0, 2)}), dims);
    EXPECT_TRUE(close(flat.mask, arr(f["flat"]["mask"]), 0));
    EXPECT_TRUE(close(flat.triangle_ids, arr(f["flat"]["ids"]), 0));
    EXPECT_TRUE(close(flat.barycentrics, arr(f["flat"]["bary"]), tol_for(dt)));
    EXPECT_FALSE(flat.depth.defined());
    // unbatched
    auto one = vision::rasterize_triangles(tris[1], dims);
    EXPECT_TRUE(close(one.depth, arr(f["depth"]["depth"])[1], tol_for(dt)));
  }
}

TEST_P(VisionImageMesh, TrimeshIndicesAndCoordImage) {
  Array idx = vision::create_trimesh_indices_for_image(Shape{2}, {2, 3});
  ASSERT_EQ(idx.shape(), (Shape{2, 4, 3}));
  EXPECT_EQ(idx.dtype(), ivy::int64);
  const std::vector<double> want{0, 3, 1, 1, 3, 4, 1, 4, 2, 2, 4, 5};
  EXPECT_TRUE(close(idx[1], arr(want, Shape{4, 3}), 0));
  // a 3x3 coordinate image with the centre pixel invalid: only triangles avoiding vertex 4 stay
  Array img = ivy::reshape(ivy::arange(0, 27, 1, ivy::float64), Shape{3, 3, 3});
  std::vector<bool> mv(9, true);
  mv[4] = false;
  Array mask = ivy::asarray(mv, Shape{3, 3, 1});
  auto m = vision::coord_image_to_trimesh(img, mask);
  ASSERT_EQ(m.vertices.shape(), (Shape{9, 3}));
  EXPECT_TRUE(close(m.vertices[4], ivy::asarray({12.0, 13.0, 14.0}), 0));
  ASSERT_EQ(m.indices.shape(), (Shape{8, 3}));
  auto iv = vals(m.indices), vv = vals(m.valid);
  for (int t = 0; t < 8; ++t) {
    const bool touches = iv[3 * t] == 4 || iv[3 * t + 1] == 4 || iv[3 * t + 2] == 4;
    EXPECT_EQ(vv[t], touches ? 0.0 : 1.0) << t;
  }
  EXPECT_TRUE(ivy::all(vision::coord_image_to_trimesh(img).valid).item<bool>());
}

// ---------------------------------------------------------------- padding
TEST_P(VisionImagePadding, OmniPadding) {
  const auto& f = fx("omni");
  for (auto dt : {ivy::float64, ivy::float32}) {
    Array img = arr(f["image"], dt);
    EXPECT_TRUE(close(vision::pad_omni_image(img, f["pad"].get<std::int64_t>()), arr(f["expected"]), tol_for(dt)));
    EXPECT_TRUE(close(vision::pad_omni_image(img[0], 2), arr(f["expected"])[0], tol_for(dt)));
    EXPECT_TRUE(ivy::array_equal(vision::pad_omni_image(img, 0), img));
  }
}

// ---------------------------------------------------------------- gradients
TEST_P(VisionImageGrad, BilinearInterpolationAgainstFiniteDifferences) {
  ivy::seed(1);
  Array img = ivy::random_uniform(-1.0, 1.0, Shape{2, 4, 5, 2}, ivy::float64);
  // coordinates inside, away from the integer kinks
  Array c = ivy::asarray({0.3, 0.6, 2.7, 1.2, 3.4, 2.55, 1.45, 0.25, 2.2, 2.8, 3.65, 1.7, 0.8, 2.35, 1.6, 0.45});
  c = ivy::reshape(c, Shape{2, 2, 2, 2});
  Array wt = ivy::random_uniform(-1.0, 1.0, Shape{2, 2, 2, 2}, ivy::float64);
  check_grad([&](const Array& im) { return ivy::sum(vision::bilinearly_interpolate_image(im, c) * wt); }, img, 1e-6, 1e-7);
  check_grad([&](const Array& cc) { return ivy::sum(vision::bilinearly_interpolate_image(img, cc) * wt); }, c, 1e-6, 1e-6);
}

TEST_P(VisionImageGrad, RenderingAgainstFiniteDifferences) {
  const auto& f = fx("nerf");
  Array dens = arr(f["density"]), dist = arr(f["dist"]), feat = arr(f["features"]);
  Array wt = ivy::reshape(ivy::linspace(-1.0, 1.0, 24, ivy::float64), Shape{2, 3, 4});
  auto loss = [&](const Array& sigma) {
    auto r = vision::render_rays_via_termination_probabilities(vision::ray_termination_probabilities(sigma, dist), feat, true);
    return ivy::sum(r.features * wt) + ivy::sum(r.variance);
  };
  check_grad(loss, dens, 1e-6, 1e-6);
  // smoothing, in the variance image
  const auto& s = fx("smoothing");
  Array m = arr(s["mean"]), sc = arr(s["kernel_scale"]);
  auto sm = [&](const Array& v) {
    auto r = vision::smooth_image_fom_var_image(m, v, 3, sc);
    return ivy::sum(r.mean) + ivy::sum(r.var);
  };
  check_grad(sm, arr(s["var"]), 1e-6, 1e-5);
}

// ---------------------------------------------------------------- errors
TEST_P(VisionImageErrors, BadInputsThrowNamedErrors) {
  Array img = ivy::zeros(Shape{2, 4, 5, 3}, ivy::float32);
  expect_error<ivy::ValueError>([&] { vision::bilinearly_interpolate_image(img, ivy::zeros(Shape{2, 7, 3})); },
                                "[vision.bilinearly_interpolate_image] ");
  expect_error<ivy::ValueError>([&] { vision::bilinearly_interpolate_image(img, ivy::zeros(Shape{3, 7, 2})); },
                                "[vision.bilinearly_interpolate_image] ");
  expect_error<ivy::TypeError>(
      [&] { vision::bilinearly_interpolate_image(ivy::zeros(Shape{4, 5, 3}, ivy::int32), ivy::zeros(Shape{7, 2})); },
      "[vision.bilinearly_interpolate_image] ");
  expect_error<ivy::ValueError>([&] { vision::gradient_image(ivy::zeros(Shape{4, 5})); }, "[vision.gradient_image] ");
  expect_error<ivy::ValueError>([&] { vision::random_crop(img, {5, 2}); }, "[vision.random_crop] ");
  expect_error<ivy::ValueError>([&] { vision::random_crop(img, {0, 2}); }, "[vision.random_crop] ");
  expect_error<ivy::ValueError>([&] { vision::stack_images({}); }, "[vision.stack_images] ");
  expect_error<ivy::ValueError>([&] { vision::stack_images({img, ivy::zeros(Shape{2, 4, 4, 3}, ivy::float32)}); },
                                "[vision.stack_images] ");
  expect_error<ivy::TypeError>([&] { vision::uint8_img_to_float_img(ivy::zeros(Shape{3, 4}, ivy::int32)); },
                               "[vision.uint8_img_to_float_img] ");
  expect_error<ivy::ValueError>([&] { vision::weighted_image_smooth(img, img, 6); }, "[vision.weighted_image_smooth] ");
  expect_error<ivy::ValueError>([&] { vision::weighted_image_smooth(img, ivy::zeros(Shape{2, 4, 5, 2}, ivy::float32), 3); },
                                "[vision.weighted_image_smooth] ");
  expect_error<ivy::ValueError>(
      [&] { vision::smooth_image_fom_var_image(img, img, 3, ivy::zeros(Shape{2}, ivy::float32)); },
      "[vision.smooth_image_fom_var_image] ");
  expect_error<ivy::ValueError>([&] { vision::quantize_to_image(ivy::zeros(Shape{2, 10, 4}), {4, 5}); },
                                "[vision.quantize_to_image] ");
  expect_error<ivy::ValueError>(
      [&] { vision::quantize_to_image(ivy::zeros(Shape{2, 10, 2}), {4, 5}, ivy::zeros(Shape{2, 10, 1}), true); },
      "[vision.quantize_to_image] ");
  expect_error<ivy::ValueError>([&] { vision::quantize_to_image(ivy::zeros(Shape{2, 10, 3}), {0, 5}); },
                                "[vision.quantize_to_image] ");
  Array pts = ivy::zeros(Shape{2, 10, 3});
  expect_error<ivy::ValueError>([&] { vision::coords_to_voxel_grid(pts, ivy::asarray({2, 2, 2}), "SIZE"); },
                                "[vision.coords_to_voxel_grid] ");
  expect_error<ivy::ValueError>([&] { vision::coords_to_voxel_grid(pts, ivy::asarray({2, 2}), "DIMS"); },
                                "[vision.coords_to_voxel_grid] ");
  expect_error<ivy::ValueError>([&] { vision::coords_to_voxel_grid(pts, ivy::asarray({2, 0, 2}), "DIMS"); },
                                "[vision.coords_to_voxel_grid] ");
  expect_error<ivy::ValueError>([&] { vision::rasterize_triangles(ivy::zeros(Shape{2, 4, 2}), {4, 4}); },
                                "[vision.rasterize_triangles] ");
  expect_error<ivy::ValueError>([&] { vision::pad_omni_image(img, 5); }, "[vision.pad_omni_image] ");
  expect_error<ivy::ValueError>([&] { vision::stratified_sample(ivy::zeros(Shape{3}), ivy::ones(Shape{3}), 0); },
                                "[vision.stratified_sample] ");
  expect_error<ivy::ValueError>(
      [&] {
        vision::render_rays_via_termination_probabilities(ivy::zeros(Shape{2, 8}), ivy::zeros(Shape{2, 7, 3}));
      },
      "[vision.render_rays_via_termination_probabilities] ");
  expect_error<ivy::ValueError>([&] { vision::downsampled_image_dims_from_desired_num_pixels({0, 4}, 10); },
                                "[vision.downsampled_image_dims_from_desired_num_pixels] ");
}

INSTANTIATE_TEST_SUITE_P(Backends, VisionImage, ::testing::ValuesIn(backend_names()),
                         [](const auto& info) { return info.param; });
INSTANTIATE_TEST_SUITE_P(Backends, VisionImageSmoothing, ::testing::ValuesIn(backend_names()),
                         [](const auto& info) { return info.param; });
INSTANTIATE_TEST_SUITE_P(Backends, VisionImageImplicit, ::testing::ValuesIn(backend_names()),
                         [](const auto& info) { return info.param; });
INSTANTIATE_TEST_SUITE_P(Backends, VisionImageQuantization, ::testing::ValuesIn(backend_names()),
                         [](const auto& info) { return info.param; });
INSTANTIATE_TEST_SUITE_P(Backends, VisionImageVoxel, ::testing::ValuesIn(backend_names()),
                         [](const auto& info) { return info.param; });
INSTANTIATE_TEST_SUITE_P(Backends, VisionImageMesh, ::testing::ValuesIn(backend_names()),
                         [](const auto& info) { return info.param; });
INSTANTIATE_TEST_SUITE_P(Backends, VisionImagePadding, ::testing::ValuesIn(backend_names()),
                         [](const auto& info) { return info.param; });
INSTANTIATE_TEST_SUITE_P(Backends, VisionImageGrad, ::testing::ValuesIn(backend_names()),
                         [](const auto& info) { return info.param; });
INSTANTIATE_TEST_SUITE_P(Backends, VisionImageErrors, ::testing::ValuesIn(backend_names()),
                         [](const auto& info) { return info.param; });

}  // namespace

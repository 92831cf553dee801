// ivy::vision geometry (single-view, projective, two-view) and optical flow against NumPy
// (tests/fixtures/vision_geometry.json from tests/gen_vision_geometry_fixtures.py: two cameras
// with the spec's 480 x 640 intrinsics, a 9 x 12 grid of pixels over the full image) on every
// backend, float64 to 1e-6 and float32 looser; round trips, batch dims, gradients against
// central differences, and the [vision.<function>] argument errors.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "ivy/ivy.hpp"
#include "lib_test_util.hpp"
#include "ivy/mech.hpp"
#include "ivy/vision/optical_flow.hpp"
#include "ivy/vision/projective_geometry.hpp"
#include "ivy/vision/single_view_geometry.hpp"
#include "ivy/vision/two_view_geometry.hpp"


namespace {

using json = nlohmann::json;
using ivy::Array;
using ivy::Ellipsis;
using ivy::Shape;
using ivy::Slice;
namespace vis = ivy::vision;

using ivy::lib_testing::backend_names;

const json& doc() {
  static const json d = ivy::lib_testing::load_fixture("vision_geometry.json");
  return d;
}

using ivy::lib_testing::arr;
Array F(const std::string& key, ivy::DType dt = ivy::float64) { return arr(doc().at(key), dt); }
Array cam(int i, const std::string& key, ivy::DType dt = ivy::float64) { return arr(doc().at("cams").at(i).at(key), dt); }
using ivy::lib_testing::vals;

using ivy::lib_testing::close;
Array xyz(const Array& x) { return x.index({Ellipsis, Slice(0, 3)}); }
Array homo(const Array& x) { return ivy::concat({x, ivy::ones_like(x.index({Ellipsis, Slice(0, 1)}))}, -1); }
// Stacks copies of x into [2, 3, ...]: x, then x scaled by 1 + k / 10 (k = 1..5).
Array batch23(const Array& x) {
  std::vector<Array> v;
  for (int k = 0; k < 6; ++k) v.push_back(x * (1.0 + k / 10.0));
  Shape s{2, 3};
  for (auto d : x.shape()) s.push_back(d);
  return ivy::reshape(ivy::stack(v, 0), s);
}
vis::ImageDims image_dims() { return {doc().at("image_dims")[0].get<std::int64_t>(), doc().at("image_dims")[1].get<std::int64_t>()}; }
double tol_for(ivy::DType dt) { return dt == ivy::float64 ? 1e-6 : 1e-2; }
double rtol_for(ivy::DType dt) { return dt == ivy::float64 ? 1e-9 : 1e-4; }

// Expects fn() to throw E with a message starting with prefix.
template <class E>
void expect_error(const std::function<void()>& fn, const std::string& prefix) {
  try {
    fn();
    ADD_FAILURE() << "no exception, expected " << prefix;
  } catch (const E& e) {
    EXPECT_EQ(std::string(e.what()).rfind(prefix, 0), 0u) << e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "wrong exception type: " << e.what();
  }
}

class BackendTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    ASSERT_TRUE(doc().contains("calib_mat"))
        << "tests/fixtures/vision_geometry.json is missing (run tests/gen_vision_geometry_fixtures.py)";
    scope_ = std::make_unique<ivy::BackendScope>(ivy::Backend(GetParam()));
  }
  std::unique_ptr<ivy::BackendScope> scope_;
};
class VisionGeometry : public BackendTest {};
class VisionFlow : public BackendTest {};

// ---------------------------------------------------------------- pixel grids and intrinsics
TEST_P(VisionGeometry, UniformPixelCoordsImage) {
  Array g = vis::create_uniform_pixel_coords_image({3, 4}, {2});
  EXPECT_EQ(g.shape(), (Shape{2, 3, 4, 3}));
  EXPECT_EQ(g.dtype(), ivy::float64);
  EXPECT_EQ(g.backend().name(), GetParam());
  // Pixel (x = 2, y = 1) of batch 1: (2, 1, 1).
  EXPECT_TRUE(close(g.index({1, 1, 2}), ivy::asarray({2.0, 1.0, 1.0}), 0));
  EXPECT_TRUE(close(g.index({0, 2, 3}), ivy::asarray({3.0, 2.0, 1.0}), 0));
  Array n = vis::create_uniform_pixel_coords_image({3, 4}, {}, true, false, ivy::float32);
  EXPECT_EQ(n.shape(), (Shape{3, 4, 2}));
  EXPECT_EQ(n.dtype(), ivy::float32);
  EXPECT_TRUE(close(n.index({2, 3}), ivy::asarray({3.0 / 4.0, 2.0 / 3.0}), 1e-6));
  EXPECT_THROW(vis::create_uniform_pixel_coords_image({0, 4}), ivy::ValueError);
  EXPECT_THROW(vis::create_uniform_pixel_coords_image({2, 4}, {}, false, true, ivy::int32), ivy::TypeError);
}

TEST_P(VisionGeometry, IntrinsicsAndCalibration) {
  for (auto dt : {ivy::float64, ivy::float32}) {
    const double tol = dt == ivy::float64 ? 1e-9 : 1e-4;
    Array f = F("focal_lengths", dt), pp = F("pp_offsets", dt), ang = F("persp_angles", dt);
    EXPECT_TRUE(close(vis::focal_lengths_to_persp_angles(f, image_dims()), ang, tol));
    EXPECT_TRUE(close(vis::persp_angles_to_focal_lengths(ang, image_dims()), f, 0, tol));
    Array K = vis::focal_lengths_and_pp_offsets_to_calib_mat(f, pp);
    EXPECT_EQ(K.dtype(), dt);
    EXPECT_TRUE(close(K, F("calib_mat", dt), 0, tol));
    EXPECT_TRUE(close(vis::calib_mat_to_inv_calib_mat(K), F("inv_calib_mat", dt), tol, tol));
    for (const auto& in : {vis::focal_lengths_and_pp_offsets_to_intrinsics_object(f, pp, image_dims()),
                           vis::persp_angles_and_pp_offsets_to_intrinsics_object(ang, pp, image_dims()),
                           vis::calib_mat_to_intrinsics_object(K, image_dims())}) {
      EXPECT_TRUE(close(in.focal_lengths, f, 0, tol));
      EXPECT_TRUE(close(in.persp_angles, ang, tol));
      EXPECT_TRUE(close(in.pp_offsets, pp, 0, tol));
      EXPECT_TRUE(close(in.calib_mats, F("calib_mat", dt), 0, tol));
      EXPECT_TRUE(close(in.inv_calib_mats, F("inv_calib_mat", dt), tol, tol));
    }
  }
  // Batched: [2, 3] focal lengths give [2, 3, 3, 3] calibration matrices.
  Array K = vis::focal_lengths_and_pp_offsets_to_calib_mat(batch23(F("focal_lengths")), F("pp_offsets"));
  EXPECT_EQ(K.shape(), (Shape{2, 3, 3, 3}));
  EXPECT_TRUE(close(ivy::matmul(K, vis::calib_mat_to_inv_calib_mat(K)),
                    ivy::broadcast_to(ivy::eye(3, std::nullopt, 0, ivy::float64), K.shape()), 1e-12));
}

TEST_P(VisionGeometry, ExtrinsicsFullMatsAndCameraGeometry) {
  for (int i = 0; i < 2; ++i) {
    SCOPED_TRACE(i);
    Array E = vis::rot_mat_and_cam_center_to_ext_mat(cam(i, "R"), cam(i, "C"));
    EXPECT_TRUE(close(E, cam(i, "E"), 1e-9));
    EXPECT_TRUE(close(vis::projection_matrix_inverse(E), cam(i, "inv_E"), 1e-9));
    EXPECT_TRUE(close(vis::inv_ext_mat_to_camera_center(cam(i, "inv_E")), cam(i, "C"), 1e-12));
    Array P = vis::calib_and_ext_to_full_mat(F("calib_mat"), E);
    EXPECT_TRUE(close(P, cam(i, "P"), 1e-8));
    EXPECT_TRUE(close(vis::projection_matrix_inverse(P), cam(i, "inv_P"), 1e-9));
    auto in = vis::focal_lengths_and_pp_offsets_to_intrinsics_object(F("focal_lengths"), F("pp_offsets"), image_dims());
    for (const auto& g : {vis::ext_mat_and_intrinsics_to_cam_geometry_object(cam(i, "E"), in),
                          vis::inv_ext_mat_and_intrinsics_to_cam_geometry_object(cam(i, "inv_E"), in)}) {
      EXPECT_TRUE(close(g.extrinsics.cam_centers, cam(i, "C"), 1e-9));
      EXPECT_TRUE(close(g.extrinsics.Rs, cam(i, "R"), 1e-9));
      EXPECT_TRUE(close(g.extrinsics.inv_Rs, ivy::matrix_transpose(cam(i, "R")), 1e-9));
      EXPECT_EQ(g.extrinsics.ext_mats_homo.shape(), (Shape{4, 4}));
      EXPECT_TRUE(close(g.extrinsics.ext_mats_homo.index({Slice(0, 3)}), cam(i, "E"), 1e-9));
      EXPECT_TRUE(close(g.extrinsics.inv_ext_mats_homo.index({Slice(0, 3)}), cam(i, "inv_E"), 1e-9));
      EXPECT_TRUE(close(g.full_mats_homo.index({Slice(0, 3)}), cam(i, "P"), 1e-8));
      EXPECT_TRUE(close(g.inv_full_mats_homo.index({Slice(0, 3)}), cam(i, "inv_P"), 1e-9));
      EXPECT_TRUE(close(ivy::matmul(g.full_mats_homo, g.inv_full_mats_homo), ivy::eye(4, std::nullopt, 0, ivy::float64), 1e-9));
    }
  }
  // Batched cameras [2, 3]: inv_ext_mat = [R^T | C].
  ivy::seed(4);
  Array R = ivy::mech::get_random_rot_mat({2, 3});
  Array C = ivy::random_normal(0.0, 1.0, {2, 3, 3}, ivy::float64);
  Array E = vis::rot_mat_and_cam_center_to_ext_mat(R, C);
  EXPECT_EQ(E.shape(), (Shape{2, 3, 3, 4}));
  Array inv_E = vis::projection_matrix_inverse(E);
  EXPECT_TRUE(close(inv_E, ivy::concat({ivy::matrix_transpose(R), ivy::expand_dims(C, -1)}, -1), 1e-9));
  EXPECT_TRUE(close(vis::inv_ext_mat_to_camera_center(inv_E), C, 1e-9));
  // One centre for all rotations broadcasts.
  EXPECT_EQ(vis::rot_mat_and_cam_center_to_ext_mat(R, ivy::asarray({1.0, 2.0, 3.0})).shape(), (Shape{2, 3, 3, 4}));
}

// ---------------------------------------------------------------- depth, camera, world, ds pixels
TEST_P(VisionGeometry, DepthCameraWorldChain) {
  for (auto dt : {ivy::float64, ivy::float32}) {
    SCOPED_TRACE(ivy::dtype_name(dt));
    const double at = tol_for(dt), rt = rtol_for(dt);
    Array depth = F("depth", dt), upc = F("uniform_pixel_coords", dt), Kinv = F("inv_calib_mat", dt), K = F("calib_mat", dt);
    Array ds = F("ds_pixel_coords", dt), camc = F("cam_coords", dt), world = F("world_coords", dt);
    EXPECT_TRUE(close(vis::depth_to_ds_pixel_coords(depth, upc), ds, at, rt));
    EXPECT_TRUE(close(vis::depth_to_radial_depth(depth, Kinv, upc), F("radial_depth", dt), at, rt));
    EXPECT_TRUE(close(vis::ds_pixel_coords_to_radial_depth(ds, Kinv), F("radial_depth", dt), at, rt));
    Array c4 = vis::ds_pixel_to_cam_coords(ds, Kinv);
    EXPECT_EQ(c4.shape(), (Shape{9, 12, 4}));
    EXPECT_EQ(c4.dtype(), dt);
    EXPECT_TRUE(close(c4, homo(camc), at, rt));
    EXPECT_TRUE(close(vis::depth_to_cam_coords(depth, Kinv, upc), homo(camc), at, rt));
    EXPECT_TRUE(close(vis::cam_to_ds_pixel_coords(camc, K), ds, at, rt));
    EXPECT_TRUE(close(vis::cam_to_ds_pixel_coords(homo(camc), K), ds, at, rt));  // homogeneous input
    EXPECT_TRUE(close(vis::cam_coords_to_depth(camc, K), depth, at, rt));
    EXPECT_TRUE(close(vis::cam_to_world_coords(camc, cam(0, "inv_E", dt)), homo(world), at, rt));
    EXPECT_TRUE(close(vis::depth_to_world_coords(depth, Kinv, cam(0, "inv_E", dt), upc), homo(world), at, rt));
    EXPECT_TRUE(close(vis::ds_pixel_to_world_coords(ds, cam(0, "inv_P", dt)), homo(world), at, rt));
    EXPECT_TRUE(close(vis::world_to_cam_coords(world, cam(0, "E", dt)), homo(camc), at, rt));
    EXPECT_TRUE(close(vis::world_to_cam_coords(homo(world), cam(1, "E", dt)), homo(F("cam_coords_in_1", dt)), at, rt));
    EXPECT_TRUE(close(vis::world_to_ds_pixel_coords(world, cam(1, "P", dt)), F("ds_pixel_coords_in_1", dt), at, rt));
    EXPECT_TRUE(close(vis::world_coords_to_depth(homo(world), cam(1, "P", dt)),
                      F("ds_pixel_coords_in_1", dt).index({Ellipsis, Slice(2, 3)}), at, rt));
  }
  // The default pixel grid is the image's own (x = column, y = row).
  Array d = ivy::full({2, 3, 1}, 2.0, ivy::float64);
  Array ds = vis::depth_to_ds_pixel_coords(d);
  EXPECT_TRUE(close(ds.index({1, 2}), ivy::asarray({4.0, 2.0, 2.0}), 0));
}

TEST_P(VisionGeometry, ProjectionBackProjectionRoundTrips) {
  // depth -> cam -> world -> ds pixels (camera 0) -> depth, in float64 and float32.
  for (auto dt : {ivy::float64, ivy::float32}) {
    const double at = tol_for(dt), rt = rtol_for(dt);
    Array depth = F("depth", dt), upc = F("uniform_pixel_coords", dt);
    Array world = vis::depth_to_world_coords(depth, F("inv_calib_mat", dt), cam(0, "inv_E", dt), upc);
    Array ds = vis::world_to_ds_pixel_coords(world, cam(0, "P", dt));
    EXPECT_TRUE(close(ds, upc * depth, at, rt));
    EXPECT_TRUE(close(vis::world_coords_to_depth(world, cam(0, "P", dt)), depth, at, rt));
    // via camera 1 and back
    Array ds1 = vis::world_to_ds_pixel_coords(world, cam(1, "P", dt));
    Array w2 = vis::ds_pixel_to_world_coords(ds1, cam(1, "inv_P", dt));
    EXPECT_TRUE(close(w2, world, at, rt));
  }
  // cam -> sphere -> cam, and angular pixels -> sphere -> angular pixels.
  Array camc = F("cam_coords");
  EXPECT_TRUE(close(vis::sphere_to_cam_coords(vis::cam_to_sphere_coords(camc)), homo(camc), 1e-9));
  EXPECT_TRUE(close(vis::sphere_to_cam_coords(vis::cam_to_sphere_coords(camc, false), false), homo(camc), 1e-9));
  const double ppd = doc().at("pixels_per_degree").get<double>();
  Array ang = F("angular_pixel_coords");
  EXPECT_TRUE(close(vis::sphere_to_angular_pixel_coords(vis::angular_pixel_to_sphere_coords(ang, ppd), ppd), ang, 1e-9));
  Array sph = F("sphere_coords");
  EXPECT_TRUE(close(vis::angular_pixel_to_sphere_coords(vis::sphere_to_angular_pixel_coords(sph, ppd), ppd), sph, 1e-9));
  // Batch dims [2, 3]: one depth image per batch element and one camera per batch element.
  Array depth = batch23(F("depth"));
  Array inv_E = ivy::broadcast_to(cam(1, "inv_E"), {2, 3, 3, 4});
  Array P = ivy::broadcast_to(cam(1, "P"), {2, 3, 3, 4});
  Array world = vis::depth_to_world_coords(depth, F("inv_calib_mat"), inv_E, F("uniform_pixel_coords"));
  EXPECT_EQ(world.shape(), (Shape{2, 3, 9, 12, 4}));
  EXPECT_TRUE(close(vis::world_coords_to_depth(world, P), depth, 1e-6, 1e-9));
  // Per-element cameras: element k uses camera k % 2; compare with the unbatched result.
  Array Ps = ivy::reshape(ivy::stack({cam(0, "P"), cam(1, "P"), cam(0, "P"), cam(1, "P"), cam(0, "P"), cam(1, "P")}, 0),
                          {2, 3, 3, 4});
  Array wb = ivy::broadcast_to(homo(F("world_coords")), {2, 3, 9, 12, 4});
  Array dsb = vis::world_to_ds_pixel_coords(wb, Ps);
  EXPECT_TRUE(close(dsb.index({1, 0}), F("ds_pixel_coords_in_1"), 1e-6, 1e-9));
  EXPECT_TRUE(close(dsb.index({1, 1}), F("ds_pixel_coords"), 1e-6, 1e-9));
}

TEST_P(VisionGeometry, RayVectors) {
  Array upc = F("uniform_pixel_coords"), want = F("world_ray_vectors");
  EXPECT_TRUE(close(vis::pixel_coords_to_world_ray_vectors(cam(0, "inv_P"), upc), want, 1e-9));
  EXPECT_TRUE(close(vis::pixel_coords_to_world_ray_vectors(cam(0, "inv_P"), upc * 3.0, cam(0, "C")), want, 1e-9));
  // The camera centre plus the ray times the radial depth is the world point.
  Array w = cam(0, "C") + want * F("radial_depth");
  EXPECT_TRUE(close(w, F("world_coords"), 1e-6));
  EXPECT_TRUE(close(vis::sphere_coords_to_world_ray_vectors(F("sphere_coords"), ivy::matrix_transpose(cam(0, "R"))),
                    F("sphere_world_ray_vectors"), 1e-9));
  // Batched: [2, 3] cameras, float32.
  Array inv_P = ivy::broadcast_to(cam(0, "inv_P", ivy::float32), {2, 3, 3, 4});
  // The pixel coords carry the batch dims (here as size 1) before the image dims.
  Array r = vis::pixel_coords_to_world_ray_vectors(inv_P, ivy::reshape(F("uniform_pixel_coords", ivy::float32), {1, 1, 9, 12, 3}));
  EXPECT_EQ(r.shape(), (Shape{2, 3, 9, 12, 3}));
  EXPECT_TRUE(close(r.index({1, 2}), want, 1e-5));
}

TEST_P(VisionGeometry, SphereAndAngularPixelCoords) {
  const double ppd = doc().at("pixels_per_degree").get<double>();
  for (auto dt : {ivy::float64, ivy::float32}) {
    const double at = dt == ivy::float64 ? 1e-9 : 1e-4, rt = rtol_for(dt);
    Array camc = F("cam_coords", dt), sph = F("sphere_coords", dt);
    EXPECT_TRUE(close(vis::cam_to_sphere_coords(camc), sph, at, rt));
    EXPECT_TRUE(close(vis::cam_to_sphere_coords(homo(camc)), sph, at, rt));
    EXPECT_TRUE(close(vis::sphere_to_cam_coords(sph), homo(camc), at, rt));
    EXPECT_TRUE(close(vis::ds_pixel_to_sphere_coords(F("ds_pixel_coords", dt), F("inv_calib_mat", dt)), sph, at, rt));
    EXPECT_TRUE(close(vis::sphere_to_ds_pixel_coords(sph, F("calib_mat", dt)), F("ds_pixel_coords", dt), at * 100, rt));
    EXPECT_TRUE(close(vis::sphere_to_angular_pixel_coords(sph, ppd), F("angular_pixel_coords", dt), at * 100, rt));
    EXPECT_TRUE(close(vis::angular_pixel_to_sphere_coords(F("angular_pixel_coords", dt), ppd), sph, at, rt));
  }
  // forward_facing_z = false is ivy::mech's polar convention [atan2(y, x), acos(z / r), r].
  Array camc = F("cam_coords");
  EXPECT_TRUE(close(vis::cam_to_sphere_coords(camc, false), ivy::mech::cartesian_to_polar_coords(camc), 1e-12));
  // A point straight ahead: phi = 0, theta = pi / 2, angular pixel x = 180 ppd, y = 90 ppd.
  Array a = vis::sphere_to_angular_pixel_coords(vis::cam_to_sphere_coords(ivy::asarray({0.0, 0.0, 2.0})), ppd);
  EXPECT_TRUE(close(a, ivy::asarray({180.0 * ppd, 90.0 * ppd, 2.0}), 1e-9));
}

// ---------------------------------------------------------------- projective geometry
TEST_P(VisionGeometry, ProjectiveGeometry) {
  Array P = cam(0, "P");
  EXPECT_TRUE(close(vis::projection_matrix_pseudo_inverse(P), F("pseudo_inverse"), 1e-12, 1e-6));
  EXPECT_TRUE(close(ivy::matmul(P, vis::projection_matrix_pseudo_inverse(P)), ivy::eye(3, std::nullopt, 0, ivy::float64), 1e-9));
  EXPECT_TRUE(close(vis::projection_matrix_inverse(P), F("projection_inverse"), 1e-9, 1e-9));
  // transform: [2, 3] batch of matrices over [2, 3, 9, 12] points.
  Array pts = batch23(homo(F("world_coords")));
  Array M = ivy::broadcast_to(P, {2, 3, 3, 4});
  Array t = vis::transform(pts, M);
  EXPECT_EQ(t.shape(), (Shape{2, 3, 9, 12, 3}));
  EXPECT_TRUE(close(t.index({0, 0}), F("ds_pixel_coords"), 1e-6, 1e-9));
  // A single matrix over any point dims.
  EXPECT_EQ(vis::transform(pts, P).shape(), (Shape{2, 3, 9, 12, 3}));
  // DLT recovers the homography (unit norm, largest entry positive).
  Array A = F("dlt_A");
  Array h = vis::solve_homogeneous_dlt(A);
  EXPECT_EQ(h.shape(), (Shape{9}));
  EXPECT_TRUE(close(h, F("dlt_h"), 1e-9));
  Array h2 = vis::solve_homogeneous_dlt(-2.0 * ivy::broadcast_to(A, {2, 12, 9}));
  EXPECT_TRUE(close(h2.index({1}), F("dlt_h"), 1e-9));
  // float32: this system's condition number (~2.5e6, unnormalised pixels) allows only a small
  // residual relative to |A|, not the exact vector.
  Array h32 = vis::solve_homogeneous_dlt(F("dlt_A", ivy::float32));
  EXPECT_EQ(h32.dtype(), ivy::float32);
  EXPECT_NEAR(ivy::linalg::vector_norm(h32).item<double>(), 1.0, 1e-5);
  EXPECT_LT(ivy::max(ivy::abs(ivy::matmul(F("dlt_A", ivy::float32), h32))).item<double>(), 1e-3 * 5.9e5);
  // A wide system (fewer rows than unknowns) gives a null vector.
  Array A5 = F("dlt_A").index({Slice(0, 5)});
  Array x = vis::solve_homogeneous_dlt(A5);
  EXPECT_TRUE(close(ivy::matmul(A5, x), ivy::zeros({5}), 1e-8));
  EXPECT_NEAR(ivy::linalg::vector_norm(x).item<double>(), 1.0, 1e-12);
}

// ---------------------------------------------------------------- two-view geometry
TEST_P(VisionGeometry, TwoViewCoordinateMaps) {
  const double ppd = doc().at("pixels_per_degree").get<double>();
  for (auto dt : {ivy::float64, ivy::float32}) {
    const double at = tol_for(dt), rt = rtol_for(dt);
    EXPECT_TRUE(close(vis::ds_pixel_to_ds_pixel_coords(F("ds_pixel_coords", dt), F("cam1to2_full_mat", dt)),
                      F("ds_pixel_coords_in_1", dt), at, rt));
    EXPECT_TRUE(close(vis::cam_to_cam_coords(F("cam_coords", dt), F("cam1to2_ext_mat", dt)),
                      homo(F("cam_coords_in_1", dt)), at, rt));
    EXPECT_TRUE(close(vis::sphere_to_sphere_coords(F("sphere_coords", dt), F("cam1to2_ext_mat", dt)),
                      F("sphere_coords_in_1", dt), dt == ivy::float64 ? 1e-9 : 1e-4, rt));
    EXPECT_TRUE(close(vis::angular_pixel_to_angular_pixel_coords(F("angular_pixel_coords", dt), F("cam1to2_ext_mat", dt), ppd),
                      F("angular_pixel_coords_in_1", dt), dt == ivy::float64 ? 1e-7 : 2e-2, rt));
  }
  // Batched [2, 3].
  Array ds = batch23(F("ds_pixel_coords"));
  Array out = vis::ds_pixel_to_ds_pixel_coords(ds, ivy::broadcast_to(F("cam1to2_full_mat"), {2, 3, 3, 4}));
  EXPECT_EQ(out.shape(), (Shape{2, 3, 9, 12, 3}));
  EXPECT_TRUE(close(out.index({0, 0}), F("ds_pixel_coords_in_1"), 1e-6, 1e-9));
}

TEST_P(VisionGeometry, FundamentalMatrix) {
  Array Fm = vis::get_fundamental_matrix(cam(0, "P"), cam(1, "P"));
  EXPECT_EQ(Fm.shape(), (Shape{3, 3}));
  EXPECT_TRUE(close(Fm, F("fundamental_matrix"), 1e-9, 1e-7));
  // x2^T F x1 = 0 for corresponding pixels (F normalised to unit norm; pixels ~ 1e2..1e3).
  Array Fn = Fm / ivy::linalg::matrix_norm(Fm);
  Array x1 = F("uniform_pixel_coords");
  Array x2 = homo(x1.index({Ellipsis, Slice(0, 2)}) + F("flow"));
  Array res = ivy::sum(x2 * vis::transform(x1, Fn), -1);
  EXPECT_LT(ivy::max(ivy::abs(res)).item<double>(), 1e-9);
  // rank 2; batched and float32.
  EXPECT_NEAR(ivy::linalg::det(Fn).item<double>(), 0.0, 1e-12);
  Array Fb = vis::get_fundamental_matrix(ivy::broadcast_to(cam(0, "P", ivy::float32), {2, 3, 3, 4}), cam(1, "P", ivy::float32));
  EXPECT_EQ(Fb.shape(), (Shape{2, 3, 3, 3}));
  EXPECT_TRUE(close(Fb.index({1, 2}), F("fundamental_matrix"), 1e-6, 2e-3));
}

TEST_P(VisionGeometry, ClosestMutualPointsAlongSkewRays) {
  // Ray 0: from (0, 0, 0) along x; ray 1: from (0, 1, 1) along y. Closest points (0, 0, 0)
  // and (0, 0, 1).
  Array centres = ivy::asarray({{0.0, 0.0, 0.0}, {0.0, 1.0, 1.0}});
  Array rays = ivy::reshape(ivy::asarray({{1.0, 0.0, 0.0}, {0.0, 1.0, 0.0}}), {2, 1, 3});
  Array p = vis::closest_mutual_points_along_two_skew_rays(centres, rays);
  EXPECT_EQ(p.shape(), (Shape{2, 1, 4}));
  EXPECT_TRUE(close(ivy::reshape(p, {8}), ivy::asarray({0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 1.0}), 1e-10));
  // Rays of the two cameras through corresponding pixels meet at the world points.
  Array C = ivy::stack({cam(0, "C"), cam(1, "C")}, 0);
  Array r0 = F("world_ray_vectors");
  Array d1 = xyz(F("world_coords")) - cam(1, "C");
  Array r1 = d1 / ivy::linalg::vector_norm(d1, -1, true);
  Array q = vis::closest_mutual_points_along_two_skew_rays(ivy::broadcast_to(C, {2, 3, 2, 3}),
                                                           ivy::broadcast_to(ivy::stack({r0, r1}, 0), {2, 3, 2, 9, 12, 3}));
  EXPECT_EQ(q.shape(), (Shape{2, 3, 2, 9, 12, 4}));
  EXPECT_TRUE(close(q.index({1, 1, 0}), homo(F("world_coords")), 1e-8));
  EXPECT_TRUE(close(q.index({1, 1, 1}), homo(F("world_coords")), 1e-8));
}

TEST_P(VisionGeometry, TriangulateDepth) {
  Array full = ivy::stack({cam(0, "P"), cam(1, "P")}, 0);  // [2, 3, 4]
  Array x1 = F("uniform_pixel_coords");
  Array x2 = homo(x1.index({Ellipsis, Slice(0, 2)}) + F("flow"));
  Array pix = ivy::stack({x1, x2}, 0);  // [2, 9, 12, 3]
  for (const std::string method : {"cmp", "dlt"}) {
    SCOPED_TRACE(method);
    Array ds = vis::triangulate_depth(pix, full, method);
    EXPECT_EQ(ds.shape(), (Shape{9, 12, 3}));
    EXPECT_TRUE(close(ds, F("ds_pixel_coords"), 1e-6, 1e-8));
    // Batched [2, 3] with the depth-scaled coordinates of the second view as input.
    Array pixb = ivy::broadcast_to(ivy::stack({F("ds_pixel_coords"), F("ds_pixel_coords_in_1")}, 0), {2, 3, 2, 9, 12, 3});
    Array dsb = vis::triangulate_depth(pixb, ivy::broadcast_to(full, {2, 3, 2, 3, 4}), method);
    EXPECT_EQ(dsb.shape(), (Shape{2, 3, 9, 12, 3}));
    EXPECT_TRUE(close(dsb.index({1, 2}), F("ds_pixel_coords"), 1e-6, 1e-8));
    // float32: relative accuracy ~1e-3 of the depth.
    Array ds32 = vis::triangulate_depth(ivy::astype(pix, ivy::float32), ivy::astype(full, ivy::float32), method);
    EXPECT_EQ(ds32.dtype(), ivy::float32);
    EXPECT_TRUE(close(ds32.index({Ellipsis, Slice(2, 3)}), F("depth"), 0, 2e-3));
  }
  // Explicit inverse matrices and centres give the same.
  Array inv = ivy::stack({cam(0, "inv_P"), cam(1, "inv_P")}, 0);
  Array C = ivy::stack({cam(0, "C"), cam(1, "C")}, 0);
  EXPECT_TRUE(close(vis::triangulate_depth(pix, full, "cmp", inv, C), F("ds_pixel_coords"), 1e-6, 1e-8));
}

// ---------------------------------------------------------------- gradients
TEST_P(VisionGeometry, GradientsAgainstFiniteDifferences) {
  // f(ds) = sum(ds_pixel_to_world_coords(ds, inv_P) * W) and triangulate_depth (cmp, dlt) as a
  // function of the second view's pixels.
  Array inv_P = cam(0, "inv_P");
  Array Wt = ivy::asarray({0.3, -1.1, 0.7, 0.0});
  Array ds0 = F("ds_pixel_coords").index({Slice(2, 4), Slice(3, 5)});  // [2, 2, 3]
  auto fw = [&](const Array& ds) { return ivy::sum(vis::ds_pixel_to_world_coords(ds, inv_P) * Wt); };
  Array full = ivy::stack({cam(0, "P"), cam(1, "P")}, 0);
  Array x1 = F("uniform_pixel_coords").index({Slice(2, 4), Slice(3, 5)});
  Array x2 = homo(x1.index({Ellipsis, Slice(0, 2)}) + F("flow").index({Slice(2, 4), Slice(3, 5)}));
  auto ftri = [&](const std::string& method) {
    return [&, method](const Array& p2) {
      Array pix = ivy::stack({x1, p2}, 0);
      return ivy::sum(vis::triangulate_depth(pix, full, method).index({Ellipsis, 2}));
    };
  };
  struct Case {
    std::function<Array(const Array&)> f;
    Array x;
    double h, tol;
  };
  std::vector<Case> cases{{fw, ds0, 1e-3, 1e-7}, {ftri("cmp"), x2, 1e-4, 1e-5}, {ftri("dlt"), x2, 1e-4, 1e-5}};
  for (std::size_t n = 0; n < cases.size(); ++n) {
    SCOPED_TRACE(n);
    auto& cs = cases[n];
    auto g = vals(ivy::grad(cs.f)(cs.x));
    auto x = vals(cs.x);
    double gmax = 0;
    for (double v : g) gmax = std::max(gmax, std::abs(v));
    ASSERT_GT(gmax, 0.0);
    for (std::size_t k = 0; k < x.size(); ++k) {
      if (n > 0 && k % 3 == 2) continue;  // the homogeneous 1 of the pixels
      auto p = x, m = x;
      p[k] += cs.h;
      m[k] -= cs.h;
      double fd = (cs.f(ivy::asarray(p, cs.x.shape())).item<double>() - cs.f(ivy::asarray(m, cs.x.shape())).item<double>()) /
                  (2 * cs.h);
      ASSERT_TRUE(std::isfinite(g[k]));
      EXPECT_NEAR(g[k], fd, cs.tol * std::max(1.0, gmax)) << k;
    }
  }
}

// ---------------------------------------------------------------- argument errors
TEST_P(VisionGeometry, BadInputErrors) {
  Array K = F("calib_mat"), P = cam(0, "P"), ds = F("ds_pixel_coords");
  expect_error<ivy::ValueError>([&] { vis::ds_pixel_to_cam_coords(ivy::zeros({4, 2}), K); },
                                "[vision.ds_pixel_to_cam_coords] expects ds pixel coords of shape [..., 3]");
  expect_error<ivy::ValueError>([&] { vis::ds_pixel_to_cam_coords(ds, P); },
                                "[vision.ds_pixel_to_cam_coords] expects inverse calibration matrix of shape [..., 3, 3]");
  expect_error<ivy::ValueError>([&] { vis::world_to_ds_pixel_coords(ivy::zeros({4, 5}), P); },
                                "[vision.world_to_ds_pixel_coords] expects world coords of shape [..., 3] or homogeneous [..., 4]");
  expect_error<ivy::ValueError>([&] { vis::depth_to_ds_pixel_coords(ivy::zeros({3, 4, 2})); },
                                "[vision.depth_to_ds_pixel_coords] expects depth image of shape [..., H, W, 1]");
  expect_error<ivy::TypeError>([&] { vis::cam_to_sphere_coords(ivy::zeros({3}, ivy::int32)); },
                               "[vision.cam_to_sphere_coords] expects camera coords of dtype float32 or float64, got int32");
  expect_error<ivy::ValueError>([&] { vis::focal_lengths_and_pp_offsets_to_calib_mat(ivy::zeros({3}), ivy::zeros({2})); },
                                "[vision.focal_lengths_and_pp_offsets_to_calib_mat]");
  expect_error<ivy::ValueError>([&] { vis::sphere_to_angular_pixel_coords(ivy::zeros({3}), 0.0); },
                                "[vision.sphere_to_angular_pixel_coords] expects a positive finite pixels_per_degree");
  expect_error<ivy::ValueError>([&] { vis::projection_matrix_inverse(K); },
                                "[vision.projection_matrix_inverse] expects projection matrix [M | t] of shape [..., 3, 4], got shape (3, 3)");
  expect_error<ivy::ValueError>([&] { vis::transform(ds, P.index({Slice(), Slice(0, 2)})); },
                                "[vision.transform] expects coordinates of shape [..., 2]");
  expect_error<ivy::ValueError>([&] { vis::get_fundamental_matrix(K, P); },
                                "[vision.get_fundamental_matrix] expects full projection matrix 1 of shape [..., 3, 4]");
  Array full = ivy::stack({P, P}, 0);
  Array pix = ivy::stack({ds, ds}, 0);
  Array X = ivy::zeros({4, 5, 3}, ivy::float64), ids = ivy::zeros({2, 1}, ivy::float64);
  Array trans = ivy::zeros({2, 3, 4}, ivy::float64), E = ivy::zeros({3, 4}, ivy::float64);
  expect_error<ivy::ValueError>([&] { vis::project_cam_coords_with_object_transformations(X, Array(), ids, trans, E); },
                                "[vision.project_cam_coords_with_object_transformations] got an undefined array for id image");
  expect_error<ivy::ValueError>(
      [&] { vis::project_cam_coords_with_object_transformations(X, ivy::zeros({4, 5, 1}, ivy::float64), Array(), trans, E); },
      "[vision.project_cam_coords_with_object_transformations] got an undefined array for object ids");
  expect_error<ivy::ValueError>([&] { vis::triangulate_depth(pix, full, "cmp", P); },
                                "[vision.triangulate_depth] expects inverse full projection matrices of shape [..., 2, 3, 4]");
  expect_error<ivy::ValueError>([&] { vis::triangulate_depth(pix, full, "cmt"); },
                                "[vision.triangulate_depth] unknown triangulation method 'cmt' (expected \"cmp\" or \"dlt\")");
  expect_error<ivy::ValueError>([&] { vis::triangulate_depth(pix, P); },
                                "[vision.triangulate_depth] expects full projection matrices of shape [..., 2, 3, 4]");
  expect_error<ivy::ValueError>([&] { vis::triangulate_depth(ds, full); },
                                "[vision.triangulate_depth] expects ds pixel coords of shape [B..., 2, S..., 3]");
  expect_error<ivy::ValueError>(
      [&] { vis::closest_mutual_points_along_two_skew_rays(ivy::zeros({3, 3}), ivy::zeros({2, 5, 3})); },
      "[vision.closest_mutual_points_along_two_skew_rays] expects camera centres of shape [..., 2, 3]");
  expect_error<ivy::TypeError>([&] { vis::solve_homogeneous_dlt(ivy::zeros({4, 4}, ivy::int64)); },
                               "[vision.solve_homogeneous_dlt] expects matrix A of dtype float32 or float64");
}

INSTANTIATE_TEST_SUITE_P(Backends, VisionGeometry, ::testing::ValuesIn(backend_names()),
                         [](const auto& info) { return info.param; });

// ---------------------------------------------------------------- optical flow
TEST_P(VisionFlow, FlowFromDepthAndDepthFromFlow) {
  for (auto dt : {ivy::float64, ivy::float32}) {
    SCOPED_TRACE(ivy::dtype_name(dt));
    const double ft = dt == ivy::float64 ? 1e-7 : 2e-2;
    Array flow = vis::flow_from_depth_and_cam_mats(F("ds_pixel_coords", dt), F("cam1to2_full_mat", dt));
    EXPECT_EQ(flow.shape(), (Shape{9, 12, 2}));
    EXPECT_TRUE(close(flow, F("flow", dt), ft));
    Array full = ivy::stack({cam(0, "P", dt), cam(1, "P", dt)}, 0);
    for (const std::string method : {"cmp", "dlt"}) {
      SCOPED_TRACE(method);
      Array depth = vis::depth_from_flow_and_cam_mats(flow, full, method, {}, {}, F("uniform_pixel_coords", dt));
      EXPECT_EQ(depth.shape(), (Shape{9, 12, 1}));
      EXPECT_TRUE(close(depth, F("depth", dt), 0, dt == ivy::float64 ? 1e-8 : 2e-3));
    }
  }
  // Batched [2, 3] and the default pixel grid: a flow image built on the grid 0..W-1.
  Array depth = batch23(F("depth"));
  Array ds = vis::depth_to_ds_pixel_coords(depth);
  Array flow = vis::flow_from_depth_and_cam_mats(ds, ivy::broadcast_to(F("cam1to2_full_mat"), {2, 3, 3, 4}));
  Array full = ivy::broadcast_to(ivy::stack({cam(0, "P"), cam(1, "P")}, 0), {2, 3, 2, 3, 4});
  Array back = vis::depth_from_flow_and_cam_mats(flow, full);
  EXPECT_EQ(back.shape(), (Shape{2, 3, 9, 12, 1}));
  EXPECT_TRUE(close(back, depth, 0, 1e-8));
}

TEST_P(VisionFlow, ProjectFlowToEpipolarLine) {
  Array Fm = F("fundamental_matrix"), upc = F("uniform_pixel_coords");
  Array got = vis::project_flow_to_epipolar_line(F("noisy_flow"), Fm, upc);
  EXPECT_TRUE(close(got, F("epipolar_flow"), 1e-7));
  // The true flow already lies on its epipolar lines: unchanged.
  EXPECT_TRUE(close(vis::project_flow_to_epipolar_line(F("flow"), Fm, upc), F("flow"), 1e-6));
  // Batched, float32.
  Array b = vis::project_flow_to_epipolar_line(batch23(F("noisy_flow", ivy::float32)) * 0.0 + F("noisy_flow", ivy::float32),
                                               ivy::broadcast_to(F("fundamental_matrix", ivy::float32), {2, 3, 3, 3}),
                                               ivy::reshape(F("uniform_pixel_coords", ivy::float32), {1, 1, 9, 12, 3}));
  EXPECT_EQ(b.shape(), (Shape{2, 3, 9, 12, 2}));
  EXPECT_TRUE(close(b.index({1, 1}), F("epipolar_flow"), 5e-2));
}

TEST_P(VisionFlow, PixelCostVolume) {
  const auto s = doc().at("cost_search_range").get<std::int64_t>();
  Array cv = vis::pixel_cost_volume(F("cost_image1"), F("cost_image2"), s);
  EXPECT_EQ(cv.shape(), (Shape{4, 5, 9}));
  EXPECT_TRUE(close(cv, F("cost_volume"), 1e-12));
  // Search range 0: the per-pixel mean product; batched.
  Array i1 = batch23(F("cost_image1")), i2 = batch23(F("cost_image2"));
  Array c0 = vis::pixel_cost_volume(i1, i2, 0);
  EXPECT_EQ(c0.shape(), (Shape{2, 3, 4, 5, 1}));
  EXPECT_TRUE(close(c0, ivy::mean(i1 * i2, -1, true), 1e-12));
  EXPECT_EQ(vis::pixel_cost_volume(i1, i2, 2).shape(), (Shape{2, 3, 4, 5, 25}));
}

TEST_P(VisionFlow, VelocityFromFlowCamCoordsAndCamMats) {
  for (auto dt : {ivy::float64, ivy::float32}) {
    Array v = vis::velocity_from_flow_cam_coords_and_cam_mats(F("flow_t_to_tm1", dt), F("cam_t", dt), F("cam_coords", dt),
                                                              F("cam1to2_ext_mat", dt),
                                                              ivy::asarray({doc().at("delta_t").get<double>()}, dt));
    EXPECT_EQ(v.shape(), (Shape{9, 12, 3}));
    EXPECT_TRUE(close(v, F("velocity"), dt == ivy::float64 ? 1e-8 : 1e-3, rtol_for(dt)));
  }
  // Batched: delta_t per batch element [2, 3] (or [2, 3, 1]).
  Array dt = ivy::full({2, 3, 1}, doc().at("delta_t").get<double>(), ivy::float64);
  auto b = [](const Array& x) { return ivy::broadcast_to(x, {2, 3, 9, 12, x.shape().back()}); };
  Array v = vis::velocity_from_flow_cam_coords_and_cam_mats(
      b(F("flow_t_to_tm1")), b(homo(F("cam_t"))), b(homo(F("cam_coords"))),
      ivy::broadcast_to(F("cam1to2_ext_mat"), {2, 3, 3, 4}), dt);
  EXPECT_EQ(v.shape(), (Shape{2, 3, 9, 12, 3}));
  EXPECT_TRUE(close(v.index({1, 0}), F("velocity"), 1e-8));
}

TEST_P(VisionFlow, ObjectTransformations) {
  for (auto dt : {ivy::float64, ivy::float32}) {
    SCOPED_TRACE(ivy::dtype_name(dt));
    const double at = dt == ivy::float64 ? 1e-9 : 1e-4;
    Array camc = F("cam_coords", dt), ids = F("id_image", dt), oids = F("obj_ids", dt), T = F("obj_trans", dt);
    Array c2 = vis::project_cam_coords_with_object_transformations(camc, ids, oids, T, F("cam1to2_ext_mat", dt));
    EXPECT_EQ(c2.shape(), (Shape{9, 12, 4}));
    EXPECT_TRUE(close(c2, homo(F("obj_cam_coords_2", dt)), at, rtol_for(dt)));
    Array v = vis::velocity_from_cam_coords_id_image_and_object_trans(camc, ids, oids, T,
                                                                      ivy::asarray({doc().at("delta_t").get<double>()}, dt));
    EXPECT_TRUE(close(v, F("obj_velocity", dt), at * 10, rtol_for(dt)));
    Array fl = vis::flow_from_cam_coords_id_image_and_object_trans(camc, ids, oids, T, F("calib_mat", dt),
                                                                   F("cam1to2_ext_mat", dt));
    EXPECT_TRUE(close(fl, F("obj_flow", dt), dt == ivy::float64 ? 1e-7 : 5e-2, rtol_for(dt)));
  }
  // Integer id images work too; batched [2, 3].
  Array ids = ivy::astype(F("id_image"), ivy::int64);
  Array c2 = vis::project_cam_coords_with_object_transformations(
      batch23(F("cam_coords")), ivy::broadcast_to(ids, {2, 3, 9, 12, 1}), ivy::broadcast_to(F("obj_ids"), {2, 3, 2, 1}),
      ivy::broadcast_to(F("obj_trans"), {2, 3, 2, 3, 4}), ivy::broadcast_to(F("cam1to2_ext_mat"), {2, 3, 3, 4}));
  EXPECT_EQ(c2.shape(), (Shape{2, 3, 9, 12, 4}));
  EXPECT_TRUE(close(c2.index({0, 0}), homo(F("obj_cam_coords_2")), 1e-9));
  // No objects listed: everything static, zero velocity.
  Array none = vis::velocity_from_cam_coords_id_image_and_object_trans(
      F("cam_coords"), F("id_image"), ivy::full({1, 1}, 7.0), ivy::expand_dims(ivy::asarray({{1.0, 0.0, 0.0, 5.0}, {0.0, 1.0, 0.0, 0.0}, {0.0, 0.0, 1.0, 0.0}}), 0),
      ivy::asarray({0.1}));
  EXPECT_TRUE(close(none, ivy::zeros({9, 12, 3}), 0));
}

TEST_P(VisionFlow, GradientAndErrors) {
  // d flow / d depth against central differences.
  Array M = F("cam1to2_full_mat");
  Array upc = F("uniform_pixel_coords").index({Slice(0, 2), Slice(0, 2)});
  Array Wt = ivy::asarray({1.0, -0.5});
  auto f = [&](const Array& d) { return ivy::sum(vis::flow_from_depth_and_cam_mats(upc * d, M) * Wt); };
  Array d0 = F("depth").index({Slice(0, 2), Slice(0, 2)});
  auto g = vals(ivy::grad(f)(d0));
  auto x = vals(d0);
  for (std::size_t k = 0; k < x.size(); ++k) {
    auto p = x, m = x;
    p[k] += 1e-5;
    m[k] -= 1e-5;
    double fd = (f(ivy::asarray(p, d0.shape())).item<double>() - f(ivy::asarray(m, d0.shape())).item<double>()) / 2e-5;
    EXPECT_NEAR(g[k], fd, 1e-6 * std::max(1.0, std::abs(fd))) << k;
  }
  Array full = ivy::stack({cam(0, "P"), cam(1, "P")}, 0);
  expect_error<ivy::ValueError>([&] { vis::depth_from_flow_and_cam_mats(F("flow"), full, "cmt"); },
                                "[vision.triangulate_depth] unknown triangulation method 'cmt'");
  expect_error<ivy::ValueError>([&] { vis::depth_from_flow_and_cam_mats(F("ds_pixel_coords"), full); },
                                "[vision.depth_from_flow_and_cam_mats] expects flow of shape [..., H, W, 2]");
  expect_error<ivy::ValueError>([&] { vis::pixel_cost_volume(F("cost_image1"), F("cost_image2").index({Slice(0, 3)}), 1); },
                                "[vision.pixel_cost_volume] expects images of the same shape");
  expect_error<ivy::ValueError>([&] { vis::project_flow_to_epipolar_line(F("flow"), full); },
                                "[vision.project_flow_to_epipolar_line] expects fundamental matrix of shape [..., 3, 3]");
  expect_error<ivy::ValueError>(
      [&] {
        vis::project_cam_coords_with_object_transformations(F("cam_coords"), F("id_image"), F("obj_ids"),
                                                            F("obj_trans").index({Slice(0, 1)}), F("cam1to2_ext_mat"));
      },
      "[vision.project_cam_coords_with_object_transformations] expects object transformations of shape [..., N, 3, 4]");
  expect_error<ivy::TypeError>([&] { vis::flow_from_depth_and_cam_mats(ivy::zeros({2, 2, 3}, ivy::int32), M); },
                               "[vision.flow_from_depth_and_cam_mats] expects ds pixel coords of dtype float32 or float64");
}

INSTANTIATE_TEST_SUITE_P(Backends, VisionFlow, ::testing::ValuesIn(backend_names()),
                         [](const auto& info) { return info.param; });


}  // namespace

// ivy::vision single-view geometry: pixel grids, intrinsics/extrinsics, depth <-> camera <->
// world <-> ds pixel coordinates, rays, sphere and angular pixel coordinates, bilinear sampling.
#include "ivy/vision/single_view_geometry.hpp"

#include <cmath>

#include "geometry_detail.hpp"
#include "ivy/mech.hpp"
#include "ivy/vision/projective_geometry.hpp"

namespace ivy::vision {

using namespace geometry_detail;

namespace {
void check_dims(ImageDims d, const char* fn) {
  if (d[0] <= 0 || d[1] <= 0)
    throw ValueError(P(fn) + "expects positive image dims {H, W}, got {" + std::to_string(d[0]) + ", " +
                     std::to_string(d[1]) + "}");
}
// [W, H] as an array like x (so dtype and backend follow x).
Array wh_like(const Array& x, ImageDims d) {
  return ivy::asarray({static_cast<double>(d[1]), static_cast<double>(d[0])}, x.dtype(), Device{}, x.backend());
}
Array mat3(const std::array<Array, 9>& e) {
  std::vector<Array> rows;
  for (int r = 0; r < 3; ++r) rows.push_back(ivy::stack({e[3 * r], e[3 * r + 1], e[3 * r + 2]}, -1));
  return ivy::stack(rows, -2);
}
Array at(const Array& m, std::int64_t r, std::int64_t col) { return m.index({Ellipsis, r, col}); }
Array depth_grid(const Array& depth, const Array& upc, const char* fn) {
  check_image(depth, fn, 1, "depth image");
  if (!upc.defined()) return pixel_grid_like(depth);
  check_vec(upc, fn, 3, "uniform pixel coords");
  return upc;
}
}  // namespace

// ---------------------------------------------------------------- pixel grids and intrinsics
Array create_uniform_pixel_coords_image(ImageDims image_dims, const Shape& batch_shape, bool normalized,
                                        bool homogeneous, DType dtype, Backend backend) {
  check_dims(image_dims, "create_uniform_pixel_coords_image");
  if (!is_real_floating(dtype))
    throw TypeError(P("create_uniform_pixel_coords_image") + "expects dtype float32 or float64, got " + dtype_name(dtype));
  const std::int64_t h = image_dims[0], w = image_dims[1];
  Array xs = ivy::arange(0, w, 1, dtype, Device{}, backend);
  Array ys = ivy::arange(0, h, 1, dtype, Device{}, backend);
  if (normalized) {
    xs = xs / (static_cast<double>(w) + MIN_DENOMINATOR);
    ys = ys / (static_cast<double>(h) + MIN_DENOMINATOR);
  }
  auto g = ivy::meshgrid({xs, ys}, "xy");  // each [H, W]
  std::vector<Array> comps{g[0], g[1]};
  if (homogeneous) comps.push_back(ivy::ones_like(g[0]));
  Array img = ivy::stack(comps, -1);
  if (batch_shape.empty()) return img;
  Shape s = batch_shape;
  for (auto d : img.shape()) s.push_back(d);
  return ivy::broadcast_to(img, s);
}

Array persp_angles_to_focal_lengths(const Array& persp_angles, ImageDims image_dims) {
  check_dims(image_dims, "persp_angles_to_focal_lengths");
  check_vec(persp_angles, "persp_angles_to_focal_lengths", 2, "perspective angles (x, y)");
  return -wh_like(persp_angles, image_dims) / (2.0 * ivy::tan(persp_angles / 2.0));
}

Array focal_lengths_to_persp_angles(const Array& focal_lengths, ImageDims image_dims) {
  check_dims(image_dims, "focal_lengths_to_persp_angles");
  check_vec(focal_lengths, "focal_lengths_to_persp_angles", 2, "focal lengths (fx, fy)");
  return 2.0 * ivy::atan(wh_like(focal_lengths, image_dims) / (-2.0 * focal_lengths));
}

Array focal_lengths_and_pp_offsets_to_calib_mat(const Array& focal_lengths, const Array& pp_offsets) {
  check_vec(focal_lengths, "focal_lengths_and_pp_offsets_to_calib_mat", 2, "focal lengths (fx, fy)");
  check_vec(pp_offsets, "focal_lengths_and_pp_offsets_to_calib_mat", 2, "principal point offsets (px, py)");
  auto b = ivy::broadcast_arrays({focal_lengths, pp_offsets});
  Array fx = c(b[0], 0), fy = c(b[0], 1), px = c(b[1], 0), py = c(b[1], 1);
  Array z = ivy::zeros_like(fx), o = ivy::ones_like(fx);
  return mat3({fx, z, px, z, fy, py, z, z, o});
}

Array calib_mat_to_inv_calib_mat(const Array& calib_mat) {
  check_mat(calib_mat, "calib_mat_to_inv_calib_mat", 3, 3, "calibration matrix");
  Array fx = at(calib_mat, 0, 0), fy = at(calib_mat, 1, 1), px = at(calib_mat, 0, 2), py = at(calib_mat, 1, 2);
  Array z = ivy::zeros_like(fx), o = ivy::ones_like(fx);
  return mat3({1.0 / fx, z, -px / fx, z, 1.0 / fy, -py / fy, z, z, o});
}

// ---------------------------------------------------------------- extrinsics and full matrices
Array rot_mat_and_cam_center_to_ext_mat(const Array& rot_mat, const Array& cam_center) {
  check_mat(rot_mat, "rot_mat_and_cam_center_to_ext_mat", 3, 3, "rotation matrix");
  check_vec(cam_center, "rot_mat_and_cam_center_to_ext_mat", 3, "camera centre");
  Array t = -ivy::matmul(rot_mat, ivy::expand_dims(cam_center, -1));  // [..., 3, 1]
  auto b = ivy::broadcast_arrays({rot_mat.index({Ellipsis, Slice(), Slice(0, 1)}), t});
  Shape s = b[0].shape();
  s[s.size() - 1] = 3;
  return ivy::concat({ivy::broadcast_to(rot_mat, s), b[1]}, -1);
}

Array inv_ext_mat_to_camera_center(const Array& inv_ext_mat) {
  check_mat(inv_ext_mat, "inv_ext_mat_to_camera_center", 3, 4, "inverse extrinsic matrix");
  return inv_ext_mat.index({Ellipsis, Slice(), 3});
}

Array calib_and_ext_to_full_mat(const Array& calib_mat, const Array& ext_mat) {
  check_mat(calib_mat, "calib_and_ext_to_full_mat", 3, 3, "calibration matrix");
  check_mat(ext_mat, "calib_and_ext_to_full_mat", 3, 4, "extrinsic matrix");
  return ivy::matmul(calib_mat, ext_mat);
}

// ---------------------------------------------------------------- depth and ds pixel coords
Array depth_to_ds_pixel_coords(const Array& depth, const Array& uniform_pixel_coords) {
  Array upc = depth_grid(depth, uniform_pixel_coords, "depth_to_ds_pixel_coords");
  return upc * depth;
}

Array depth_to_radial_depth(const Array& depth, const Array& inv_calib_mat, const Array& uniform_pixel_coords) {
  check_mat(inv_calib_mat, "depth_to_radial_depth", 3, 3, "inverse calibration matrix");
  Array upc = depth_grid(depth, uniform_pixel_coords, "depth_to_radial_depth");
  return norm(apply_mat(inv_calib_mat, upc * depth));
}

Array ds_pixel_coords_to_radial_depth(const Array& ds_pixel_coords, const Array& inv_calib_mat) {
  check_vec(ds_pixel_coords, "ds_pixel_coords_to_radial_depth", 3, "ds pixel coords");
  check_mat(inv_calib_mat, "ds_pixel_coords_to_radial_depth", 3, 3, "inverse calibration matrix");
  return norm(apply_mat(inv_calib_mat, ds_pixel_coords));
}

// ---------------------------------------------------------------- camera coordinates
Array cam_to_ds_pixel_coords(const Array& cam_coords, const Array& calib_mat) {
  check_xyz(cam_coords, "cam_to_ds_pixel_coords", "camera coords");
  check_mat(calib_mat, "cam_to_ds_pixel_coords", 3, 3, "calibration matrix");
  return apply_mat(calib_mat, xyz(cam_coords));
}

Array cam_coords_to_depth(const Array& cam_coords, const Array& calib_mat) {
  check_xyz(cam_coords, "cam_coords_to_depth", "camera coords");
  check_mat(calib_mat, "cam_coords_to_depth", 3, 3, "calibration matrix");
  return sl(apply_mat(calib_mat, xyz(cam_coords)), 2, 3);
}

Array ds_pixel_to_cam_coords(const Array& ds_pixel_coords, const Array& inv_calib_mat) {
  check_vec(ds_pixel_coords, "ds_pixel_to_cam_coords", 3, "ds pixel coords");
  check_mat(inv_calib_mat, "ds_pixel_to_cam_coords", 3, 3, "inverse calibration matrix");
  return homo(apply_mat(inv_calib_mat, ds_pixel_coords));
}

Array depth_to_cam_coords(const Array& depth, const Array& inv_calib_mat, const Array& uniform_pixel_coords) {
  check_mat(inv_calib_mat, "depth_to_cam_coords", 3, 3, "inverse calibration matrix");
  Array upc = depth_grid(depth, uniform_pixel_coords, "depth_to_cam_coords");
  return homo(apply_mat(inv_calib_mat, upc * depth));
}

// ---------------------------------------------------------------- world coordinates
Array world_to_cam_coords(const Array& world_coords, const Array& ext_mat) {
  check_xyz(world_coords, "world_to_cam_coords", "world coords");
  check_mat(ext_mat, "world_to_cam_coords", 3, 4, "extrinsic matrix");
  return homo(apply_affine(ext_mat, xyz(world_coords)));
}

Array cam_to_world_coords(const Array& cam_coords, const Array& inv_ext_mat) {
  check_xyz(cam_coords, "cam_to_world_coords", "camera coords");
  check_mat(inv_ext_mat, "cam_to_world_coords", 3, 4, "inverse extrinsic matrix");
  return homo(apply_affine(inv_ext_mat, xyz(cam_coords)));
}

Array world_to_ds_pixel_coords(const Array& world_coords, const Array& full_mat) {
  check_xyz(world_coords, "world_to_ds_pixel_coords", "world coords");
  check_mat(full_mat, "world_to_ds_pixel_coords", 3, 4, "full projection matrix");
  return apply_affine(full_mat, xyz(world_coords));
}

Array world_coords_to_depth(const Array& world_coords, const Array& full_mat) {
  check_xyz(world_coords, "world_coords_to_depth", "world coords");
  check_mat(full_mat, "world_coords_to_depth", 3, 4, "full projection matrix");
  return sl(apply_affine(full_mat, xyz(world_coords)), 2, 3);
}

Array ds_pixel_to_world_coords(const Array& ds_pixel_coords, const Array& inv_full_mat) {
  check_vec(ds_pixel_coords, "ds_pixel_to_world_coords", 3, "ds pixel coords");
  check_mat(inv_full_mat, "ds_pixel_to_world_coords", 3, 4, "inverse full projection matrix");
  return homo(apply_affine(inv_full_mat, ds_pixel_coords));
}

Array depth_to_world_coords(const Array& depth, const Array& inv_calib_mat, const Array& inv_ext_mat,
                            const Array& uniform_pixel_coords) {
  check_mat(inv_calib_mat, "depth_to_world_coords", 3, 3, "inverse calibration matrix");
  check_mat(inv_ext_mat, "depth_to_world_coords", 3, 4, "inverse extrinsic matrix");
  Array upc = depth_grid(depth, uniform_pixel_coords, "depth_to_world_coords");
  Array cam = apply_mat(inv_calib_mat, upc * depth);
  return homo(apply_affine(inv_ext_mat, cam));
}

// ---------------------------------------------------------------- rays
Array pixel_coords_to_world_ray_vectors(const Array& inv_full_mat, const Array& pixel_coords,
                                        const Array& camera_center) {
  check_mat(inv_full_mat, "pixel_coords_to_world_ray_vectors", 3, 4, "inverse full projection matrix");
  check_vec(pixel_coords, "pixel_coords_to_world_ray_vectors", 3, "homogeneous pixel coords");
  Array cc;
  if (camera_center.defined()) {
    check_vec(camera_center, "pixel_coords_to_world_ray_vectors", 3, "camera centre");
    cc = camera_center;
  } else {
    cc = inv_full_mat.index({Ellipsis, Slice(), 3});
  }
  // Both the point and C are inv_full_mat's images, so their difference is R^T K^-1 p.
  Array pts = apply_affine(inv_full_mat, pixel_coords);
  const std::int64_t ns = pts.ndim() - 1 - (inv_full_mat.ndim() - 2);
  Array v = pts - expand_before(cc, ns, 1);
  return v / (norm(v) + MIN_DENOMINATOR);
}

Array sphere_coords_to_world_ray_vectors(const Array& sphere_coords, const Array& inv_rotation_mat) {
  check_vec(sphere_coords, "sphere_coords_to_world_ray_vectors", 3, "sphere coords [phi, theta, r]");
  check_mat(inv_rotation_mat, "sphere_coords_to_world_ray_vectors", 3, 3, "inverse rotation matrix");
  Array v = apply_mat(inv_rotation_mat, xyz(sphere_to_cam_coords(sphere_coords)));
  return v / (norm(v) + MIN_DENOMINATOR);
}

// ---------------------------------------------------------------- spheres and angular pixels
Array cam_to_sphere_coords(const Array& cam_coords, bool forward_facing_z) {
  check_xyz(cam_coords, "cam_to_sphere_coords", "camera coords");
  Array p = xyz(cam_coords);
  if (!forward_facing_z) return ivy::mech::cartesian_to_polar_coords(p);
  // (z, x, y) in ivy::mech's polar form gives [atan2(x, z), acos(y / r), r].
  return ivy::mech::cartesian_to_polar_coords(ivy::stack({c(p, 2), c(p, 0), c(p, 1)}, -1));
}

Array sphere_to_cam_coords(const Array& sphere_coords, bool forward_facing_z) {
  check_vec(sphere_coords, "sphere_to_cam_coords", 3, "sphere coords [phi, theta, r]");
  Array q = ivy::mech::polar_to_cartesian_coords(sphere_coords);
  if (!forward_facing_z) return homo(q);
  return homo(ivy::stack({c(q, 1), c(q, 2), c(q, 0)}, -1));
}

Array ds_pixel_to_sphere_coords(const Array& ds_pixel_coords, const Array& inv_calib_mat) {
  check_vec(ds_pixel_coords, "ds_pixel_to_sphere_coords", 3, "ds pixel coords");
  check_mat(inv_calib_mat, "ds_pixel_to_sphere_coords", 3, 3, "inverse calibration matrix");
  return cam_to_sphere_coords(apply_mat(inv_calib_mat, ds_pixel_coords));
}

Array sphere_to_ds_pixel_coords(const Array& sphere_coords, const Array& calib_mat) {
  check_vec(sphere_coords, "sphere_to_ds_pixel_coords", 3, "sphere coords [phi, theta, r]");
  check_mat(calib_mat, "sphere_to_ds_pixel_coords", 3, 3, "calibration matrix");
  return apply_mat(calib_mat, xyz(sphere_to_cam_coords(sphere_coords)));
}

namespace {
void check_ppd(double ppd, const char* fn) {
  if (!(ppd > 0.0) || !std::isfinite(ppd))
    throw ValueError(P(fn) + "expects a positive finite pixels_per_degree, got " + std::to_string(ppd));
}
constexpr double kDeg = 180.0 / ivy::pi;
}  // namespace

Array sphere_to_angular_pixel_coords(const Array& sphere_coords, double pixels_per_degree) {
  check_vec(sphere_coords, "sphere_to_angular_pixel_coords", 3, "sphere coords [phi, theta, r]");
  check_ppd(pixels_per_degree, "sphere_to_angular_pixel_coords");
  Array x = ivy::remainder(180.0 - c(sphere_coords, 0) * kDeg, 360.0) * pixels_per_degree;
  Array y = ivy::remainder(c(sphere_coords, 1) * kDeg, 180.0) * pixels_per_degree;
  return ivy::stack({x, y, c(sphere_coords, 2)}, -1);
}

Array angular_pixel_to_sphere_coords(const Array& angular_pixel_coords, double pixels_per_degree) {
  check_vec(angular_pixel_coords, "angular_pixel_to_sphere_coords", 3, "angular pixel coords");
  check_ppd(pixels_per_degree, "angular_pixel_to_sphere_coords");
  Array phi = (180.0 - c(angular_pixel_coords, 0) / pixels_per_degree) / kDeg;
  Array theta = (c(angular_pixel_coords, 1) / pixels_per_degree) / kDeg;
  return ivy::stack({phi, theta, c(angular_pixel_coords, 2)}, -1);
}

// ---------------------------------------------------------------- camera containers
Intrinsics focal_lengths_and_pp_offsets_to_intrinsics_object(const Array& focal_lengths, const Array& pp_offsets,
                                                             ImageDims image_dims) {
  Intrinsics in;
  in.focal_lengths = focal_lengths;
  in.persp_angles = focal_lengths_to_persp_angles(focal_lengths, image_dims);
  in.pp_offsets = pp_offsets;
  in.calib_mats = focal_lengths_and_pp_offsets_to_calib_mat(focal_lengths, pp_offsets);
  in.inv_calib_mats = calib_mat_to_inv_calib_mat(in.calib_mats);
  return in;
}

Intrinsics persp_angles_and_pp_offsets_to_intrinsics_object(const Array& persp_angles, const Array& pp_offsets,
                                                            ImageDims image_dims) {
  Intrinsics in = focal_lengths_and_pp_offsets_to_intrinsics_object(
      persp_angles_to_focal_lengths(persp_angles, image_dims), pp_offsets, image_dims);
  in.persp_angles = persp_angles;
  return in;
}

Intrinsics calib_mat_to_intrinsics_object(const Array& calib_mat, ImageDims image_dims) {
  check_mat(calib_mat, "calib_mat_to_intrinsics_object", 3, 3, "calibration matrix");
  Array f = ivy::stack({at(calib_mat, 0, 0), at(calib_mat, 1, 1)}, -1);
  Array pp = ivy::stack({at(calib_mat, 0, 2), at(calib_mat, 1, 2)}, -1);
  Intrinsics in;
  in.focal_lengths = f;
  in.persp_angles = focal_lengths_to_persp_angles(f, image_dims);
  in.pp_offsets = pp;
  in.calib_mats = calib_mat;
  in.inv_calib_mats = calib_mat_to_inv_calib_mat(calib_mat);
  return in;
}

namespace {
CameraGeometry make_geometry(const Array& ext_mat, const Array& inv_ext_mat, const Intrinsics& in) {
  CameraGeometry g;
  g.intrinsics = in;
  g.extrinsics.cam_centers = inv_ext_mat.index({Ellipsis, Slice(), 3});
  g.extrinsics.Rs = ext_mat.index({Ellipsis, Slice(), Slice(0, 3)});
  g.extrinsics.inv_Rs = inv_ext_mat.index({Ellipsis, Slice(), Slice(0, 3)});
  g.extrinsics.ext_mats_homo = homo_mat(ext_mat);
  g.extrinsics.inv_ext_mats_homo = homo_mat(inv_ext_mat);
  Array full = ivy::matmul(in.calib_mats, ext_mat);
  // inv_full = inv_ext [K^-1 0; 0 1]: [R^T K^-1 | C].
  Array inv_full = ivy::concat({ivy::matmul(g.extrinsics.inv_Rs, in.inv_calib_mats),
                                inv_ext_mat.index({Ellipsis, Slice(), Slice(3, 4)})},
                               -1);
  auto b = ivy::broadcast_arrays({full, inv_full});
  g.full_mats_homo = homo_mat(b[0]);
  g.inv_full_mats_homo = homo_mat(b[1]);
  return g;
}
void check_intrinsics(const Intrinsics& in, const char* fn) {
  check_mat(in.calib_mats, fn, 3, 3, "intrinsics.calib_mats");
  check_mat(in.inv_calib_mats, fn, 3, 3, "intrinsics.inv_calib_mats");
}
}  // namespace

CameraGeometry ext_mat_and_intrinsics_to_cam_geometry_object(const Array& ext_mat, const Intrinsics& intrinsics) {
  check_mat(ext_mat, "ext_mat_and_intrinsics_to_cam_geometry_object", 3, 4, "extrinsic matrix");
  check_intrinsics(intrinsics, "ext_mat_and_intrinsics_to_cam_geometry_object");
  return make_geometry(ext_mat, projection_matrix_inverse(ext_mat), intrinsics);
}

CameraGeometry inv_ext_mat_and_intrinsics_to_cam_geometry_object(const Array& inv_ext_mat,
                                                                  const Intrinsics& intrinsics) {
  check_mat(inv_ext_mat, "inv_ext_mat_and_intrinsics_to_cam_geometry_object", 3, 4, "inverse extrinsic matrix");
  check_intrinsics(intrinsics, "inv_ext_mat_and_intrinsics_to_cam_geometry_object");
  return make_geometry(projection_matrix_inverse(inv_ext_mat), inv_ext_mat, intrinsics);
}

}  // namespace ivy::vision

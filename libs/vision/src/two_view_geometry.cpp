// ivy::vision two-view geometry: frame-to-frame coordinate maps, the fundamental matrix,
// closest points of two rays and two-view triangulation ("cmp" and "dlt").
#include "ivy/vision/two_view_geometry.hpp"

#include <string>

#include "geometry_detail.hpp"
#include "ivy/vision/projective_geometry.hpp"

namespace ivy::vision {

using namespace geometry_detail;

Array ds_pixel_to_ds_pixel_coords(const Array& ds_pixel_coords1, const Array& cam1to2_full_mat) {
  check_vec(ds_pixel_coords1, "ds_pixel_to_ds_pixel_coords", 3, "ds pixel coords");
  check_mat(cam1to2_full_mat, "ds_pixel_to_ds_pixel_coords", 3, 4, "cam1to2 full matrix");
  return apply_affine(cam1to2_full_mat, ds_pixel_coords1);
}

Array cam_to_cam_coords(const Array& cam_coords1, const Array& cam1to2_ext_mat) {
  check_xyz(cam_coords1, "cam_to_cam_coords", "camera coords");
  check_mat(cam1to2_ext_mat, "cam_to_cam_coords", 3, 4, "cam1to2 extrinsic matrix");
  return homo(apply_affine(cam1to2_ext_mat, xyz(cam_coords1)));
}

Array sphere_to_sphere_coords(const Array& sphere_coords1, const Array& cam1to2_ext_mat) {
  check_vec(sphere_coords1, "sphere_to_sphere_coords", 3, "sphere coords [phi, theta, r]");
  check_mat(cam1to2_ext_mat, "sphere_to_sphere_coords", 3, 4, "cam1to2 extrinsic matrix");
  return cam_to_sphere_coords(cam_to_cam_coords(sphere_to_cam_coords(sphere_coords1), cam1to2_ext_mat));
}

Array angular_pixel_to_angular_pixel_coords(const Array& angular_pixel_coords1, const Array& cam1to2_ext_mat,
                                            double pixels_per_degree) {
  check_vec(angular_pixel_coords1, "angular_pixel_to_angular_pixel_coords", 3, "angular pixel coords");
  check_mat(cam1to2_ext_mat, "angular_pixel_to_angular_pixel_coords", 3, 4, "cam1to2 extrinsic matrix");
  Array s1 = angular_pixel_to_sphere_coords(angular_pixel_coords1, pixels_per_degree);
  return sphere_to_angular_pixel_coords(sphere_to_sphere_coords(s1, cam1to2_ext_mat), pixels_per_degree);
}

Array get_fundamental_matrix(const Array& full_mat1, const Array& full_mat2) {
  check_mat(full_mat1, "get_fundamental_matrix", 3, 4, "full projection matrix 1");
  check_mat(full_mat2, "get_fundamental_matrix", 3, 4, "full projection matrix 2");
  // C1 = -M1^-1 p4 (P1 [C1; 1] = 0); e2 = P2 [C1; 1], the epipole in view 2.
  Array c1 = projection_matrix_inverse(full_mat1).index({Ellipsis, Slice(), Slice(3, 4)});  // [..., 3, 1]
  Array e2 = ivy::matmul(full_mat2, ivy::concat({c1, ivy::ones_like(c1.index({Ellipsis, Slice(0, 1), Slice()}))}, -2));
  Array ex = c(ivy::squeeze(e2, -1), 0), ey = c(ivy::squeeze(e2, -1), 1), ez = c(ivy::squeeze(e2, -1), 2);
  Array z = ivy::zeros_like(ex);
  Array skew = ivy::stack({ivy::stack({z, -ez, ey}, -1), ivy::stack({ez, z, -ex}, -1), ivy::stack({-ey, ex, z}, -1)}, -2);
  return ivy::matmul(skew, ivy::matmul(full_mat2, projection_matrix_pseudo_inverse(full_mat1)));
}

Array closest_mutual_points_along_two_skew_rays(const Array& camera_centers, const Array& world_ray_vectors) {
  const char* fn = "closest_mutual_points_along_two_skew_rays";
  check_mat(camera_centers, fn, 2, 3, "camera centres");
  check_vec(world_ray_vectors, fn, 3, "world ray vectors");
  const std::int64_t ns = world_ray_vectors.ndim() - camera_centers.ndim();
  const std::int64_t ax = world_ray_vectors.ndim() - ns - 2;
  if (ns < 0 || world_ray_vectors.shape()[ax] != 2)
    throw ValueError(P(fn) + "expects world ray vectors of shape [B..., 2, S..., 3] for camera centres of shape " +
                     camera_centers.shape().str() + ", got shape " + world_ray_vectors.shape().str());
  auto d = ivy::unstack(world_ray_vectors, ax);
  auto p = ivy::unstack(expand_before(camera_centers, ns, 1), ax);
  // With n = d0 x d1: t0 = ((p1 - p0) . (d1 x n)) / |n|^2, t1 = ((p1 - p0) . (d0 x n)) / |n|^2.
  Array n = ivy::linalg::cross(d[0], d[1]);
  Array nn = ivy::sum(n * n, -1, std::nullopt, true) + MIN_DENOMINATOR;
  Array dp = p[1] - p[0];
  Array t0 = ivy::sum(dp * ivy::linalg::cross(d[1], n), -1, std::nullopt, true) / nn;
  Array t1 = ivy::sum(dp * ivy::linalg::cross(d[0], n), -1, std::nullopt, true) / nn;
  return homo(ivy::stack({p[0] + t0 * d[0], p[1] + t1 * d[1]}, ax));
}

namespace {
Array triangulate_cmp(const Array& ds, const Array& full_mats, Array inv_full_mats, Array camera_centers) {
  const char* fn = "triangulate_depth";
  if (!inv_full_mats.defined()) {
    inv_full_mats = projection_matrix_inverse(full_mats);
  } else {
    check_mat(inv_full_mats, fn, 3, 4, "inverse full projection matrices");
    if (inv_full_mats.ndim() != full_mats.ndim() || inv_full_mats.shape()[inv_full_mats.ndim() - 3] != 2)
      throw ValueError(P(fn) + "expects inverse full projection matrices of shape [..., 2, 3, 4] like the full "
                       "matrices " + full_mats.shape().str() + ", got shape " + inv_full_mats.shape().str());
  }
  if (!camera_centers.defined()) {
    camera_centers = inv_full_mats.index({Ellipsis, Slice(), 3});
  } else {
    check_mat(camera_centers, fn, 2, 3, "camera centres");
  }
  Array rays = pixel_coords_to_world_ray_vectors(inv_full_mats, ds, camera_centers);
  Array pts = closest_mutual_points_along_two_skew_rays(camera_centers, rays);
  const std::int64_t ax = full_mats.ndim() - 3;
  Array pts0 = ivy::unstack(pts, ax)[0];
  return world_to_ds_pixel_coords(pts0, ivy::unstack(full_mats, ax)[0]);
}

Array triangulate_dlt(const Array& ds, const Array& full_mats) {
  const std::int64_t ax = full_mats.ndim() - 3;
  const std::int64_t ns = ds.ndim() - 1 - (full_mats.ndim() - 2);
  auto pix = ivy::unstack(ds, ax);             // 2 x [B..., S..., 3]
  auto mats = ivy::unstack(full_mats, ax);     // 2 x [B..., 3, 4]
  std::vector<Array> rows;
  for (int k = 0; k < 2; ++k) {
    Array u = pix[k] / (sl(pix[k], 2, 3) + MIN_DENOMINATOR);
    Array pm = expand_before(mats[k], ns, 2);  // [B..., 1.., 3, 4]
    Array r0 = pm.index({Ellipsis, 0, Slice()}), r1 = pm.index({Ellipsis, 1, Slice()}), r2 = pm.index({Ellipsis, 2, Slice()});
    rows.push_back(sl(u, 0, 1) * r2 - r0);  // x P^3 - P^1
    rows.push_back(sl(u, 1, 2) * r2 - r1);  // y P^3 - P^2
  }
  Array X = solve_homogeneous_dlt(ivy::stack(rows, -2));  // [B..., S..., 4]
  // P0 X = w [x d, y d, d] for the homogeneous weight w = X[3].
  Array proj = apply_mat(mats[0], X);
  return proj / (sl(X, 3, 4) + MIN_DENOMINATOR);
}
}  // namespace

Array triangulate_depth(const Array& ds_pixel_coords, const Array& full_mats, std::string_view method,
                        const Array& inv_full_mats, const Array& camera_centers) {
  const char* fn = "triangulate_depth";
  if (method != "cmp" && method != "dlt")
    throw ValueError(P(fn) + "unknown triangulation method '" + std::string(method) + "' (expected \"cmp\" or \"dlt\")");
  check_mat(full_mats, fn, 3, 4, "full projection matrices");
  check_vec(ds_pixel_coords, fn, 3, "ds pixel coords");
  const std::int64_t ax = full_mats.ndim() - 3;
  if (ax < 0 || full_mats.shape()[ax] != 2)
    throw ValueError(P(fn) + "expects full projection matrices of shape [..., 2, 3, 4], got shape " +
                     full_mats.shape().str());
  if (ds_pixel_coords.ndim() - 1 < ax + 1 || ds_pixel_coords.shape()[ax] != 2)
    throw ValueError(P(fn) + "expects ds pixel coords of shape [B..., 2, S..., 3] for full matrices of shape " +
                     full_mats.shape().str() + ", got shape " + ds_pixel_coords.shape().str());
  if (method == "cmp") return triangulate_cmp(ds_pixel_coords, full_mats, inv_full_mats, camera_centers);
  return triangulate_dlt(ds_pixel_coords, full_mats);
}

}  // namespace ivy::vision

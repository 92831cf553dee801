// ivy::vision single-view geometry over ivy:: functions (every backend, differentiable).
// Conventions (docs/vision.md):
//   images           [..., H, W, C]; pixel origin top-left, pixel centres at integers,
//                    pixel coordinates ordered (x, y) = (column, row).
//   pixel coords     [..., 3] homogeneous (x, y, 1); ds pixel coords [..., 3] = [x·d, y·d, d]
//                    ("depth scaled"); depth d = camera z; radial depth = |X_cam|.
//   camera frame     +z forward (along the optical axis), +x left, +y up; hence the focal
//                    lengths are negative: f = -[W, H] / (2 tan(angle / 2)).
//   calib_mat K      [..., 3, 3] = [[fx, 0, px], [0, fy, py], [0, 0, 1]]; ds = K X_cam.
//   ext_mat E        [..., 3, 4] = R [I | -C] (world -> camera); inv_ext_mat [..., 3, 4] =
//                    [R^T | C] (camera -> world, last column the camera centre C).
//   full_mat P       [..., 3, 4] = K E (world -> ds pixel); inv_full_mat [..., 3, 4] =
//                    [R^T K^-1 | C] (ds pixel -> world).
//   cam/world coords inputs [..., 3] or homogeneous [..., 4] (4th entry ignored); outputs of
//                    the *_to_cam_coords / *_to_world_coords functions are homogeneous [..., 4].
//   sphere coords    [..., 3] = [phi, theta, r]; forward_facing_z: phi = atan2(x, z),
//                    theta = acos(y / r); otherwise ivy::mech's polar [atan2(y, x), acos(z / r), r].
//   angular pixels   [..., 3] = [((180 - phi°) mod 360)·ppd, (theta° mod 180)·ppd, r].
// Batch dims: a matrix [B..., m, n] applies to coordinates [B..., S..., n]: its leading dims are
// the batch dims (they broadcast), the coordinates' remaining leading dims S are image/point dims.
// Every function accepts float32 or float64 and throws ivy::ValueError / ivy::TypeError
// "[vision.<function>] ..." for a wrong trailing shape or a non-floating dtype.
#pragma once

#include <array>
#include <cstdint>

#include "ivy/ivy.hpp"

namespace ivy::vision {

inline constexpr double MIN_DENOMINATOR = 1e-12;

using ImageDims = std::array<std::int64_t, 2>;  // {H, W}

// ---------------------------------------------------------------- pixel grids and intrinsics
// [batch_shape..., H, W, 3] of (x, y, 1) (or (x, y) when !homogeneous); normalized divides x by W
// and y by H.
Array create_uniform_pixel_coords_image(ImageDims image_dims, const Shape& batch_shape = {}, bool normalized = false,
                                        bool homogeneous = true, DType dtype = float64, Backend backend = {});
// [..., 2] angles (x, y) in radians <-> [..., 2] focal lengths (fx, fy) = -[W, H] / (2 tan(angle / 2)).
Array persp_angles_to_focal_lengths(const Array& persp_angles, ImageDims image_dims);
Array focal_lengths_to_persp_angles(const Array& focal_lengths, ImageDims image_dims);
// ([..., 2], [..., 2]) -> K [..., 3, 3].
Array focal_lengths_and_pp_offsets_to_calib_mat(const Array& focal_lengths, const Array& pp_offsets);
// K [..., 3, 3] -> K^-1 in closed form [[1/fx, 0, -px/fx], [0, 1/fy, -py/fy], [0, 0, 1]].
Array calib_mat_to_inv_calib_mat(const Array& calib_mat);

// ---------------------------------------------------------------- extrinsics and full matrices
// (R [..., 3, 3], C [..., 3]) -> E = [R | -R C] [..., 3, 4].
Array rot_mat_and_cam_center_to_ext_mat(const Array& rot_mat, const Array& cam_center);
// inv_ext_mat (or inv_full_mat) [..., 3, 4] -> its last column C [..., 3].
Array inv_ext_mat_to_camera_center(const Array& inv_ext_mat);
// K E [..., 3, 4].
Array calib_and_ext_to_full_mat(const Array& calib_mat, const Array& ext_mat);

// ---------------------------------------------------------------- depth and ds pixel coords
// depth [..., H, W, 1] -> ds pixel coords [..., H, W, 3] = uniform pixel coords * depth.
// uniform_pixel_coords [..., H, W, 3] defaults to the image's grid.
Array depth_to_ds_pixel_coords(const Array& depth, const Array& uniform_pixel_coords = {});
// depth [..., H, W, 1] -> radial depth |X_cam| [..., H, W, 1].
Array depth_to_radial_depth(const Array& depth, const Array& inv_calib_mat, const Array& uniform_pixel_coords = {});
// ds [..., 3] -> |K^-1 ds| [..., 1].
Array ds_pixel_coords_to_radial_depth(const Array& ds_pixel_coords, const Array& inv_calib_mat);

// ---------------------------------------------------------------- camera coordinates
Array cam_to_ds_pixel_coords(const Array& cam_coords, const Array& calib_mat);     // -> [..., 3]
Array cam_coords_to_depth(const Array& cam_coords, const Array& calib_mat);        // -> [..., 1]
Array ds_pixel_to_cam_coords(const Array& ds_pixel_coords, const Array& inv_calib_mat);  // -> [..., 4]
Array depth_to_cam_coords(const Array& depth, const Array& inv_calib_mat,
                          const Array& uniform_pixel_coords = {});  // [..., H, W, 1] -> [..., H, W, 4]

// ---------------------------------------------------------------- world coordinates
Array world_to_cam_coords(const Array& world_coords, const Array& ext_mat);       // -> [..., 4]
Array cam_to_world_coords(const Array& cam_coords, const Array& inv_ext_mat);     // -> [..., 4]
Array world_to_ds_pixel_coords(const Array& world_coords, const Array& full_mat);  // -> [..., 3]
Array world_coords_to_depth(const Array& world_coords, const Array& full_mat);     // -> [..., 1]
Array ds_pixel_to_world_coords(const Array& ds_pixel_coords, const Array& inv_full_mat);  // -> [..., 4]
Array depth_to_world_coords(const Array& depth, const Array& inv_calib_mat, const Array& inv_ext_mat,
                            const Array& uniform_pixel_coords = {});  // [..., H, W, 1] -> [..., H, W, 4]

// ---------------------------------------------------------------- rays
// Unit world-frame ray directions [..., 3] through homogeneous pixel coords [..., 3] (any
// positive scale): normalise(inv_full_mat [p; 1] - C). camera_center [..., 3] defaults to
// inv_full_mat's last column.
Array pixel_coords_to_world_ray_vectors(const Array& inv_full_mat, const Array& pixel_coords,
                                        const Array& camera_center = {});
// Unit world-frame ray directions of sphere coords [..., 3]: normalise(inv_R X_cam).
Array sphere_coords_to_world_ray_vectors(const Array& sphere_coords, const Array& inv_rotation_mat);

// bilinearly_interpolate_image (spec: single_view_geometry) is declared in ivy/vision/image.hpp.

// ---------------------------------------------------------------- spheres and angular pixels
Array cam_to_sphere_coords(const Array& cam_coords, bool forward_facing_z = true);       // [..., 3|4] -> [..., 3]
Array sphere_to_cam_coords(const Array& sphere_coords, bool forward_facing_z = true);    // -> [..., 4]
Array ds_pixel_to_sphere_coords(const Array& ds_pixel_coords, const Array& inv_calib_mat);
Array sphere_to_ds_pixel_coords(const Array& sphere_coords, const Array& calib_mat);
Array sphere_to_angular_pixel_coords(const Array& sphere_coords, double pixels_per_degree);
// The exact inverse on phi in (-pi, pi], theta in [0, pi).
Array angular_pixel_to_sphere_coords(const Array& angular_pixel_coords, double pixels_per_degree);

// ---------------------------------------------------------------- camera containers
struct Intrinsics {
  Array focal_lengths;   // [..., 2] (fx, fy)
  Array persp_angles;    // [..., 2] (x, y), radians
  Array pp_offsets;      // [..., 2] (px, py)
  Array calib_mats;      // [..., 3, 3]
  Array inv_calib_mats;  // [..., 3, 3]
};
struct Extrinsics {
  Array cam_centers;        // [..., 3]
  Array Rs;                 // [..., 3, 3]
  Array inv_Rs;             // [..., 3, 3]
  Array ext_mats_homo;      // [..., 4, 4]
  Array inv_ext_mats_homo;  // [..., 4, 4]
};
struct CameraGeometry {
  Intrinsics intrinsics;
  Extrinsics extrinsics;
  Array full_mats_homo;      // [..., 4, 4]: K E with bottom row [0, 0, 0, 1]
  Array inv_full_mats_homo;  // [..., 4, 4]: its inverse
};

Intrinsics focal_lengths_and_pp_offsets_to_intrinsics_object(const Array& focal_lengths, const Array& pp_offsets,
                                                             ImageDims image_dims);
Intrinsics persp_angles_and_pp_offsets_to_intrinsics_object(const Array& persp_angles, const Array& pp_offsets,
                                                            ImageDims image_dims);
Intrinsics calib_mat_to_intrinsics_object(const Array& calib_mat, ImageDims image_dims);
CameraGeometry ext_mat_and_intrinsics_to_cam_geometry_object(const Array& ext_mat, const Intrinsics& intrinsics);
CameraGeometry inv_ext_mat_and_intrinsics_to_cam_geometry_object(const Array& inv_ext_mat,
                                                                  const Intrinsics& intrinsics);

}  // namespace ivy::vision

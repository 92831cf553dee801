// ivy::vision two-view geometry over ivy:: functions (every backend, differentiable).
// Conventions as in single_view_geometry.hpp. "cam1to2" matrices map frame-1 quantities to
// frame 2: cam1to2_ext_mat = E2 E1^-1 (camera 1 coords -> camera 2 coords, [..., 3, 4]);
// cam1to2_full_mat = P2 P1^-1 (ds pixel coords 1 -> ds pixel coords 2, [..., 3, 4]), i.e.
// full_mat2 · inv_full_mats_homo1 without its last row.
#pragma once

#include <string_view>

#include "ivy/ivy.hpp"
#include "ivy/vision/single_view_geometry.hpp"

namespace ivy::vision {

// ds [..., 3] in frame 1 -> ds [..., 3] in frame 2.
Array ds_pixel_to_ds_pixel_coords(const Array& ds_pixel_coords1, const Array& cam1to2_full_mat);
// camera coords [..., 3|4] in frame 1 -> homogeneous camera coords [..., 4] in frame 2.
Array cam_to_cam_coords(const Array& cam_coords1, const Array& cam1to2_ext_mat);
// sphere coords [..., 3] (forward-facing z) in frame 1 -> in frame 2.
Array sphere_to_sphere_coords(const Array& sphere_coords1, const Array& cam1to2_ext_mat);
// angular pixel coords [..., 3] in frame 1 -> in frame 2.
Array angular_pixel_to_angular_pixel_coords(const Array& angular_pixel_coords1, const Array& cam1to2_ext_mat,
                                            double pixels_per_degree);
// F [..., 3, 3] = [e2]x P2 P1⁺ with e2 = P2 [C1; 1], so that x2^T F x1 = 0 for corresponding
// homogeneous pixels x1, x2. full_mat1/2 [..., 3, 4].
Array get_fundamental_matrix(const Array& full_mat1, const Array& full_mat2);
// camera_centers [B..., 2, 3], unit (or any non-zero) world_ray_vectors [B..., 2, S..., 3] ->
// homogeneous world points [B..., 2, S..., 4]: entry i is the point on ray i closest to the
// other ray. Parallel rays are degenerate (the denominators get MIN_DENOMINATOR).
Array closest_mutual_points_along_two_skew_rays(const Array& camera_centers, const Array& world_ray_vectors);
// ds_pixel_coords [B..., 2, S..., 3]: corresponding (homogeneous, any positive scale) pixels in
// views 0 and 1; full_mats [B..., 2, 3, 4]. Returns ds pixel coords [B..., S..., 3] in view 0:
// view 0's pixels scaled by the triangulated depth. method "cmp": the point on ray 0 closest to
// ray 1 (inv_full_mats [B..., 2, 3, 4] and camera_centers [B..., 2, 3] are computed when
// undefined); "dlt": the homogeneous DLT solution of the four linear constraints per pixel.
Array triangulate_depth(const Array& ds_pixel_coords, const Array& full_mats, std::string_view method = "cmp",
                        const Array& inv_full_mats = {}, const Array& camera_centers = {});

}  // namespace ivy::vision

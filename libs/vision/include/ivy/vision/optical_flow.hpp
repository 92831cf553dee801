// ivy::vision optical flow over ivy:: functions (every backend, differentiable in the
// floating inputs). Conventions as in single_view_geometry.hpp; flow [..., H, W, 2] is (dx, dy)
// in pixels from frame 1 to frame 2. Optional uniform_pixel_coords [..., H, W, 3] default to
// the image's grid.
#pragma once

#include <cstdint>
#include <string_view>

#include "ivy/ivy.hpp"
#include "ivy/vision/single_view_geometry.hpp"

namespace ivy::vision {

// ds pixel coords [..., H, W, 3] in frame 1 and cam1to2_full_mat [..., 3, 4] -> flow [..., H, W, 2]:
// the projection in frame 2 minus the pixel in frame 1.
Array flow_from_depth_and_cam_mats(const Array& ds_pixel_coords1, const Array& cam1to2_full_mat);
// flow [B..., H, W, 2] from frame 1 to 2 and full_mats [B..., 2, 3, 4] -> depth in frame 1
// [B..., H, W, 1], by triangulate_depth (method "cmp" or "dlt").
Array depth_from_flow_and_cam_mats(const Array& flow, const Array& full_mats, std::string_view method = "cmp",
                                   const Array& inv_full_mats = {}, const Array& camera_centers = {},
                                   const Array& uniform_pixel_coords = {});
// flow [B..., H, W, 2] and F [B..., 3, 3] -> flow [B..., H, W, 2] whose end point x1 + flow is
// moved perpendicularly onto the epipolar line F x1 in frame 2.
Array project_flow_to_epipolar_line(const Array& flow, const Array& fundamental_matrix,
                                    const Array& uniform_pixel_coords = {});
// image1, image2 [..., H, W, D] -> [..., H, W, (2 s + 1)^2]: channel (dy + s)(2 s + 1) + (dx + s)
// holds mean_D(image1[y, x] * image2[y + dy, x + dx]), image2 zero outside (FlowNet's correlation).
Array pixel_cost_volume(const Array& image1, const Array& image2, std::int64_t search_range);
// Velocity [..., H, W, 3] of the scene relative to camera t: (X_t - X_{t-1 in t}) / delta_t, where
// X_{t-1 in t} is cam_coords_tm1 moved into frame t by cam_tm1_to_t_ext_mat [..., 3, 4] and sampled
// bilinearly at x + flow_t_to_tm1. cam coords [..., H, W, 3|4]; delta_t [...] or [..., 1].
Array velocity_from_flow_cam_coords_and_cam_mats(const Array& flow_t_to_tm1, const Array& cam_coords_t,
                                                 const Array& cam_coords_tm1, const Array& cam_tm1_to_t_ext_mat,
                                                 const Array& delta_t, const Array& uniform_pixel_coords = {});
// cam_coords_1 [B..., H, W, 3|4], id_image [B..., H, W, 1] (any real dtype), obj_ids [B..., N, 1],
// obj_trans [B..., N, 3, 4] (each object's motion, in camera-1 coordinates), cam_1_to_2_ext_mat
// [B..., 3, 4] -> homogeneous camera-2 coords [B..., H, W, 4]: pixels whose id equals obj_ids[i]
// are moved by obj_trans[i] (others stay), then all are moved into camera 2.
Array project_cam_coords_with_object_transformations(const Array& cam_coords_1, const Array& id_image,
                                                     const Array& obj_ids, const Array& obj_trans,
                                                     const Array& cam_1_to_2_ext_mat);
// (X_t - T X_t) / delta_t [B..., H, W, 3] with T the pixel's object transformation from t to t-1
// (identity for pixels of no listed object).
Array velocity_from_cam_coords_id_image_and_object_trans(const Array& cam_coords_t, const Array& id_image,
                                                         const Array& obj_ids, const Array& obj_trans,
                                                         const Array& delta_t);
// Flow [B..., H, W, 2]: the projection (calib_mat [B..., 3, 3]) of the moved points
// (project_cam_coords_with_object_transformations) minus the projection of cam_coords_1.
Array flow_from_cam_coords_id_image_and_object_trans(const Array& cam_coords_1, const Array& id_image,
                                                     const Array& obj_ids, const Array& obj_trans,
                                                     const Array& calib_mat, const Array& cam_1_to_2_ext_mat);

}  // namespace ivy::vision

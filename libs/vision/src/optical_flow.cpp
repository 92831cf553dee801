// ivy::vision optical flow: flow <-> depth through camera matrices, epipolar projection of
// flow, cost volumes, and velocities / flow from object transformations.
#include "ivy/vision/optical_flow.hpp"

#include <string>

#include "geometry_detail.hpp"
#include "ivy/vision/image.hpp"
#include "ivy/vision/two_view_geometry.hpp"

namespace ivy::vision {

using namespace geometry_detail;

namespace {
Array grid_for(const Array& img, const Array& upc, const char* fn) {
  if (!upc.defined()) return pixel_grid_like(img);
  check_vec(upc, fn, 3, "uniform pixel coords");
  return upc;
}
// [..., 2] -> [..., 3] with a trailing 0 (a displacement of homogeneous pixels).
Array pad0(const Array& flow) { return ivy::concat({flow, ivy::zeros_like(sl(flow, 0, 1))}, -1); }
// delta_t [B...] or [B..., 1] as [B..., 1, 1, 1] against images [B..., H, W, C].
Array dt_like(const Array& dt, const Array& img, const char* fn) {
  check_float(dt, fn, "delta_t");
  Array d = dt;
  const std::int64_t nb = img.ndim() - 3;
  if (d.ndim() == nb + 1 && d.shape().back() == 1) d = ivy::squeeze(d, -1);
  if (d.ndim() > nb)
    throw ValueError(P(fn) + "expects delta_t of shape [B...] or [B..., 1] for images of shape " + img.shape().str() +
                     ", got shape " + dt.shape().str());
  return expand_before(d, 3, 0);
}
// Per-pixel object transforms: mask [B..., H, W, N] of id_image == obj_ids and the points
// moved by every object's transform [B..., H, W, N, 3]; returns sum_i m_i T_i X + (1 - sum m) X.
Array move_objects(const Array& cam_coords, const Array& id_image, const Array& obj_ids, const Array& obj_trans,
                   const char* fn) {
  check_xyz(cam_coords, fn, "camera coords");
  check_defined(id_image, fn, "id image");
  check_defined(obj_ids, fn, "object ids");
  if (id_image.ndim() < 3 || id_image.shape().back() != 1)
    throw ValueError(P(fn) + "expects an id image of shape [..., H, W, 1], got shape " + id_image.shape().str());
  if (obj_ids.ndim() < 2 || obj_ids.shape().back() != 1)
    throw ValueError(P(fn) + "expects object ids of shape [..., N, 1], got shape " + obj_ids.shape().str());
  check_mat(obj_trans, fn, 3, 4, "object transformations");
  if (obj_trans.ndim() < 3 || obj_trans.shape()[obj_trans.ndim() - 3] != obj_ids.shape()[obj_ids.ndim() - 2])
    throw ValueError(P(fn) + "expects object transformations of shape [..., N, 3, 4] for object ids of shape " +
                     obj_ids.shape().str() + ", got shape " + obj_trans.shape().str());
  Array X = xyz(cam_coords);
  const std::int64_t nb = obj_trans.ndim() - 3;
  const std::int64_t ns = X.ndim() - 1 - nb;  // image dims
  // [B..., 1.., N] ids against [B..., H, W, 1] id image.
  Array ids = expand_before(ivy::squeeze(obj_ids, -1), ns, 1);
  Array mask = ivy::astype(id_image == ids, X.dtype());  // [B..., H, W, N]
  Array T = expand_before(obj_trans, ns, 3);             // [B..., 1.., N, 3, 4]
  Array Xh = ivy::expand_dims(ivy::expand_dims(homo(X), -2), -1);  // [B..., H, W, 1, 4, 1]
  Array moved = ivy::squeeze(ivy::matmul(T, Xh), -1);      // [B..., H, W, N, 3]
  Array m = ivy::expand_dims(mask, -1);
  return ivy::sum(m * moved, -2) + (1.0 - ivy::sum(m, -2)) * X;
}
}  // namespace

Array flow_from_depth_and_cam_mats(const Array& ds_pixel_coords1, const Array& cam1to2_full_mat) {
  check_vec(ds_pixel_coords1, "flow_from_depth_and_cam_mats", 3, "ds pixel coords");
  check_mat(cam1to2_full_mat, "flow_from_depth_and_cam_mats", 3, 4, "cam1to2 full matrix");
  Array ds2 = ds_pixel_to_ds_pixel_coords(ds_pixel_coords1, cam1to2_full_mat);
  return sl(ds2, 0, 2) / (sl(ds2, 2, 3) + MIN_DENOMINATOR) -
         sl(ds_pixel_coords1, 0, 2) / (sl(ds_pixel_coords1, 2, 3) + MIN_DENOMINATOR);
}

Array depth_from_flow_and_cam_mats(const Array& flow, const Array& full_mats, std::string_view method,
                                   const Array& inv_full_mats, const Array& camera_centers,
                                   const Array& uniform_pixel_coords) {
  const char* fn = "depth_from_flow_and_cam_mats";
  check_image(flow, fn, 2, "flow");
  Array upc = grid_for(flow, uniform_pixel_coords, fn);
  Array x2 = upc + pad0(flow);
  auto b = ivy::broadcast_arrays({upc, x2});
  Array pix = ivy::stack({b[0], b[1]}, -4);  // [B..., 2, H, W, 3]
  return sl(triangulate_depth(pix, full_mats, method, inv_full_mats, camera_centers), 2, 3);
}

Array project_flow_to_epipolar_line(const Array& flow, const Array& fundamental_matrix,
                                    const Array& uniform_pixel_coords) {
  const char* fn = "project_flow_to_epipolar_line";
  check_image(flow, fn, 2, "flow");
  check_mat(fundamental_matrix, fn, 3, 3, "fundamental matrix");
  Array x1 = grid_for(flow, uniform_pixel_coords, fn);
  Array l = apply_mat(fundamental_matrix, x1);  // epipolar lines a x + b y + c = 0 in frame 2
  Array a = sl(l, 0, 1), bb = sl(l, 1, 2), cc = sl(l, 2, 3);
  Array x0 = sl(x1, 0, 1) + sl(flow, 0, 1), y0 = sl(x1, 1, 2) + sl(flow, 1, 2);
  // Foot of the perpendicular from (x0, y0).
  Array den = a * a + bb * bb + MIN_DENOMINATOR;
  Array x = (bb * (bb * x0 - a * y0) - a * cc) / den;
  Array y = (a * (a * y0 - bb * x0) - bb * cc) / den;
  return ivy::concat({x, y}, -1) - sl(x1, 0, 2);
}

Array pixel_cost_volume(const Array& image1, const Array& image2, std::int64_t search_range) {
  const char* fn = "pixel_cost_volume";
  check_image(image1, fn, 0, "image1");
  check_image(image2, fn, 0, "image2");
  if (!(image1.shape() == image2.shape()))
    throw ValueError(P(fn) + "expects images of the same shape, got " + image1.shape().str() + " and " +
                     image2.shape().str());
  if (search_range < 0) throw ValueError(P(fn) + "expects search_range >= 0, got " + std::to_string(search_range));
  const std::int64_t nd = image2.ndim(), h = image2.shape()[nd - 3], w = image2.shape()[nd - 2];
  const std::int64_t s = search_range;
  // Zero-pad image2 by s on each side of H and W.
  Array padded = image2;
  if (s > 0) {
    Shape zr = image2.shape();
    zr[nd - 3] = s;
    padded = ivy::concat({ivy::zeros(zr, image2.dtype(), Device{}, image2.backend()), padded,
                          ivy::zeros(zr, image2.dtype(), Device{}, image2.backend())},
                         nd - 3);
    Shape zc = padded.shape();
    zc[nd - 2] = s;
    padded = ivy::concat({ivy::zeros(zc, image2.dtype(), Device{}, image2.backend()), padded,
                          ivy::zeros(zc, image2.dtype(), Device{}, image2.backend())},
                         nd - 2);
  }
  std::vector<Array> costs;
  for (std::int64_t dy = 0; dy <= 2 * s; ++dy)
    for (std::int64_t dx = 0; dx <= 2 * s; ++dx) {
      Array win = padded.index({Ellipsis, Slice(dy, dy + h), Slice(dx, dx + w), Slice()});
      costs.push_back(ivy::mean(image1 * win, -1, true));
    }
  return ivy::concat(costs, -1);
}

Array velocity_from_flow_cam_coords_and_cam_mats(const Array& flow_t_to_tm1, const Array& cam_coords_t,
                                                 const Array& cam_coords_tm1, const Array& cam_tm1_to_t_ext_mat,
                                                 const Array& delta_t, const Array& uniform_pixel_coords) {
  const char* fn = "velocity_from_flow_cam_coords_and_cam_mats";
  check_image(flow_t_to_tm1, fn, 2, "flow");
  check_xyz(cam_coords_t, fn, "camera coords at t");
  check_xyz(cam_coords_tm1, fn, "camera coords at t-1");
  check_image(cam_coords_t, fn, 0, "camera coords at t");
  check_image(cam_coords_tm1, fn, 0, "camera coords at t-1");
  check_mat(cam_tm1_to_t_ext_mat, fn, 3, 4, "camera t-1 to t extrinsic matrix");
  Array upc = grid_for(flow_t_to_tm1, uniform_pixel_coords, fn);
  Array where_tm1 = sl(upc, 0, 2) + flow_t_to_tm1;  // [B..., H, W, 2]
  Array tm1_in_t = xyz(cam_to_cam_coords(cam_coords_tm1, cam_tm1_to_t_ext_mat));
  Array sampled = bilinearly_interpolate_image(tm1_in_t, where_tm1);
  return (xyz(cam_coords_t) - sampled) / dt_like(delta_t, cam_coords_t, fn);
}

Array project_cam_coords_with_object_transformations(const Array& cam_coords_1, const Array& id_image,
                                                     const Array& obj_ids, const Array& obj_trans,
                                                     const Array& cam_1_to_2_ext_mat) {
  const char* fn = "project_cam_coords_with_object_transformations";
  check_mat(cam_1_to_2_ext_mat, fn, 3, 4, "camera 1 to 2 extrinsic matrix");
  Array moved = move_objects(cam_coords_1, id_image, obj_ids, obj_trans, fn);
  return cam_to_cam_coords(moved, cam_1_to_2_ext_mat);
}

Array velocity_from_cam_coords_id_image_and_object_trans(const Array& cam_coords_t, const Array& id_image,
                                                         const Array& obj_ids, const Array& obj_trans,
                                                         const Array& delta_t) {
  const char* fn = "velocity_from_cam_coords_id_image_and_object_trans";
  Array moved = move_objects(cam_coords_t, id_image, obj_ids, obj_trans, fn);
  check_image(cam_coords_t, fn, 0, "camera coords");
  return (xyz(cam_coords_t) - moved) / dt_like(delta_t, cam_coords_t, fn);
}

Array flow_from_cam_coords_id_image_and_object_trans(const Array& cam_coords_1, const Array& id_image,
                                                     const Array& obj_ids, const Array& obj_trans,
                                                     const Array& calib_mat, const Array& cam_1_to_2_ext_mat) {
  const char* fn = "flow_from_cam_coords_id_image_and_object_trans";
  check_mat(calib_mat, fn, 3, 3, "calibration matrix");
  check_mat(cam_1_to_2_ext_mat, fn, 3, 4, "camera 1 to 2 extrinsic matrix");
  Array cam2 = cam_to_cam_coords(move_objects(cam_coords_1, id_image, obj_ids, obj_trans, fn), cam_1_to_2_ext_mat);
  Array p2 = cam_to_ds_pixel_coords(cam2, calib_mat);
  Array p1 = cam_to_ds_pixel_coords(cam_coords_1, calib_mat);
  return sl(p2, 0, 2) / (sl(p2, 2, 3) + MIN_DENOMINATOR) - sl(p1, 0, 2) / (sl(p1, 2, 3) + MIN_DENOMINATOR);
}

}  // namespace ivy::vision

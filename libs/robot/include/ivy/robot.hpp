// ivy::robot: spline paths, rigid mobile bodies and DH manipulators over ivy:: functions
// (every backend, differentiable, arbitrary leading batch dims, float32 or float64).
// See docs/robot.md. Bad arguments throw ivy::ValueError / ivy::TypeError whose message
// starts "[robot.<function>] ".
#pragma once

#include <cstdint>
#include <vector>

#include "ivy/ivy.hpp"

namespace ivy::robot {

// ---------------------------------------------------------------- splines
// Polyharmonic spline through the anchors, evaluated at the sample points.
//   anchor_points [..., N, D] (D = 1 for a path parameter), anchor_vals [..., N, PD],
//   sample_points [..., NS, D] -> [..., NS, PD]; batch dims broadcast.
// phi(r) = r^{k/2} for odd order k, 0.5 r^{k/2} log r for even k, with r the squared distance
// clamped to >= 1e-6. Weights from [[A, B], [B^T, 0]] [w; v] = [f; 0], B = [c, 1], solved
// with ivy::linalg::solve; s(x) = sum_i w_i phi(|x - c_i|^2) + v . [x, 1].
inline constexpr double SPLINE_MIN_SQUARED_DISTANCE = 1e-6;
Array sample_spline_path(const Array& anchor_points, const Array& anchor_vals, const Array& sample_points,
                         int order = 3);

// ---------------------------------------------------------------- rigid mobile body
class RigidMobile {
 public:
  explicit RigidMobile(Array rel_body_points);  // [NBP, 3], body frame
  // inv_ext_mats [..., 3, 4] or [..., 4, 4] (body -> world, [R | t]) -> [..., NBP, 3] = R p + t.
  Array sample_body(const Array& inv_ext_mats) const;
  const Array& rel_body_points() const { return rel_body_points_; }
  std::int64_t num_body_points() const { return rel_body_points_.shape()[0]; }

 private:
  Array rel_body_points_;
};

// ---------------------------------------------------------------- manipulators
// Standard Denavit-Hartenberg chain: joint i (1-based) maps frame i-1 to frame i by
//   A_i = Rz(theta_i) Tz(d_i) Tx(a_i) Rx(alpha_i),   theta_i = q_i * scale_i - offset_i,
// and frame 0 is the base, placed in the world by base_inv_ext_mat (body -> world).
class Manipulator {
 public:
  // a_s, d_s, alpha_s, dh_joint_scales, dh_joint_offsets: [J] each, real floating.
  // base_inv_ext_mat: [..., 3, 4] or [..., 4, 4] (finite; a 4x4's last row [0, 0, 0, 1]);
  // undefined = identity. Its batch dims, if any, broadcast against the joint angles'.
  Manipulator(Array a_s, Array d_s, Array alpha_s, Array dh_joint_scales, Array dh_joint_offsets,
              Array base_inv_ext_mat = Array());

  // joint_angles [..., J] -> [..., J+1, 4, 4]: T_0 = base, T_i = T_{i-1} A_i (frame i in the world).
  Array compute_link_matrices(const Array& joint_angles) const;
  // [..., J] -> [..., J+1, 3, 4]: the top three rows of compute_link_matrices.
  Array compute_link_poses(const Array& joint_angles) const;
  // Points along the links, [..., S, 3] with S = num_link_samples(samples_per_metre).
  // Link i joins the origins o_{i-1}, o_i of frames i-1 and i; its length L_i = sqrt(a_i^2 + d_i^2)
  // does not depend on the joint angles. A link with L_i > 0 contributes m_i = max(1, ceil(L_i *
  // samples_per_metre)) points o_{i-1} + (k / m_i)(o_i - o_{i-1}), k = 0 .. m_i-1; links of zero
  // length contribute none; the last frame origin o_J closes the list. So every frame origin
  // appears once (coincident origins once), in chain order, and S does not depend on the angles.
  Array sample_links(const Array& joint_angles, double samples_per_metre = 25) const;
  std::int64_t num_link_samples(double samples_per_metre = 25) const;
  // Index in sample_links' output of frame origin o_i, i = 0 .. J (coincident origins share one).
  std::vector<std::int64_t> frame_origin_sample_indices(double samples_per_metre = 25) const;

  std::int64_t num_joints() const { return num_joints_; }
  const std::vector<double>& link_lengths() const { return link_lengths_; }  // L_1 .. L_J
  const Array& base_inv_ext_mat() const { return base_; }                    // [..., 4, 4]
  const Array& a_s() const { return a_; }
  const Array& d_s() const { return d_; }
  const Array& alpha_s() const { return alpha_; }
  const Array& dh_joint_scales() const { return scales_; }
  const Array& dh_joint_offsets() const { return offsets_; }

 private:
  std::vector<std::int64_t> link_sample_counts(double samples_per_metre, const char* fn) const;
  Array a_, d_, alpha_, scales_, offsets_, base_;
  std::int64_t num_joints_ = 0;
  std::vector<double> link_lengths_;
};

// Kinova Mico (6 joints) and Franka Panda (7 joints, flange at d_7 = 0.107) with the DH
// constants of docs/robot.md; dtype/backend of the constants (the base pose keeps its own
// and is converted to them).
Manipulator mico_manipulator(Array base_inv_ext_mat = Array(), DType dtype = float64, Backend backend = {});
Manipulator panda_manipulator(Array base_inv_ext_mat = Array(), DType dtype = float64, Backend backend = {});

}  // namespace ivy::robot

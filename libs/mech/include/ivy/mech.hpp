// ivy::mech: rotations, poses and coordinates over ivy:: functions (every backend,
// differentiable). Conventions (docs/mech.md):
//   quaternion      [..., 4]  xyzw, scalar last
//   axis-angle      [..., 4]  [ex, ey, ez, theta], unit axis
//   rotation vector [..., 3]  theta * e
//   polar axis-angle[..., 3]  [acos(ez), atan2(ey, ex), theta]
//   rotation matrix [..., 3, 3]
//   Euler angles    [..., 3]  [e0, e1, e2] for convention "c0c1c2":
//                             R = R_c2(e2) * R_c1(e1) * R_c0(e0) (rotations about fixed axes,
//                             SciPy's lowercase from_euler). 12 conventions, default "zyx".
//   poses: rot-vec [..., 6] = [xyz, rv]; euler [..., 6] = [xyz, euler];
//          axis-angle [..., 7] = [xyz, axis, angle]; quaternion [..., 7] = [xyz, quat];
//          matrix [..., 3, 4] = [R | t].
//   polar coords    [..., 3]  [phi = atan2(y, x), theta = acos(z / (r + eps)), r]
// Every function accepts arbitrary leading batch dims, float32 or float64, and throws
// ivy::ValueError("[mech.<function>] ...") for a wrong trailing shape.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "ivy/ivy.hpp"

namespace ivy::mech {

inline constexpr double MIN_DENOMINATOR = 1e-12;
// Euler angle extraction switches to its gimbal-lock formula when cos(e1) (Tait-Bryan) or
// sin(e1) (proper Euler) is below this; it then sets e2 = 0.
inline constexpr double GIMBAL_TOLERANCE = 1e-4;

// ---------------------------------------------------------------- quaternions
Array hamilton_product(const Array& q1, const Array& q2);  // q1 * q2: apply q2, then q1
Array inverse_quaternion(const Array& q);                  // conj(q) / |q|^2
Array quaternion_to_rot_mat(const Array& q);               // normalises q
Array rot_mat_to_quaternion(const Array& R);               // result has w >= 0
Array axis_angle_to_quaternion(const Array& axis_angle);
Array quaternion_to_axis_angle(const Array& q);            // theta in [0, pi]; axis (0,0,1) at theta 0
Array rotation_vector_to_quaternion(const Array& rot_vec);
Array quaternion_to_rotation_vector(const Array& q);       // |rv| in [0, pi]
Array scale_quaternion_rotation_angle(const Array& q, double scale);
Array polar_axis_angle_to_quaternion(const Array& polar_axis_angle);
Array quaternion_to_polar_axis_angle(const Array& q);

// ---------------------------------------------------------------- rotation matrices
Array rot_vec_to_rot_mat(const Array& rot_vec);  // Rodrigues, series near 0
Array rot_mat_to_rot_vec(const Array& R);
Array axis_angle_to_rot_mat(const Array& axis_angle);
Array rot_mat_to_axis_angle(const Array& R);
Array euler_to_rot_mat(const Array& euler, std::string_view convention = "zyx");
// e0, e2 in (-pi, pi]; e1 in [-pi/2, pi/2] (Tait-Bryan) or [0, pi] (proper Euler).
Array rot_mat_to_euler(const Array& R, std::string_view convention = "zyx");
Array euler_to_quaternion(const Array& euler, std::string_view convention = "zyx");
Array quaternion_to_euler(const Array& q, std::string_view convention = "zyx");
Array euler_to_axis_angle(const Array& euler, std::string_view convention = "zyx");
Array axis_angle_to_euler(const Array& axis_angle, std::string_view convention = "zyx");
// Rotation whose columns are [x, y, z] with z towards the target, y the world +z made
// orthogonal to z, x = y cross z (degenerate when the target is straight above or below).
Array target_facing_rotation_matrix(const Array& body_pos, const Array& target_pos);

// ---------------------------------------------------------------- poses
Array quaternion_pose_to_mat_pose(const Array& pose);
Array mat_pose_to_quaternion_pose(const Array& pose);
Array rot_vec_pose_to_mat_pose(const Array& pose);
Array mat_pose_to_rot_vec_pose(const Array& pose);
Array euler_pose_to_mat_pose(const Array& pose, std::string_view convention = "zyx");
Array mat_pose_to_euler_pose(const Array& pose, std::string_view convention = "zyx");
Array axis_angle_pose_to_mat_pose(const Array& pose);
Array mat_pose_to_axis_angle_pose(const Array& pose);
Array quaternion_pose_to_rot_vec_pose(const Array& pose);
Array quaternion_pose_to_euler_pose(const Array& pose, std::string_view convention = "zyx");
Array euler_pose_to_quaternion_pose(const Array& pose, std::string_view convention = "zyx");
Array euler_pose_to_axis_angle_pose(const Array& pose, std::string_view convention = "zyx");
Array axis_angle_pose_to_euler_pose(const Array& pose, std::string_view convention = "zyx");
Array axis_angle_pose_to_quaternion_pose(const Array& pose);
// pose [..., 7] moved by velocity [..., 7] = [linear velocity, quaternion of the rotation per
// unit time] over dt: position + v dt, hamilton_product(quat, quaternion scaled by dt).
Array increment_quaternion_pose_with_velocity(const Array& pose, const Array& velocity, double dt);

// ---------------------------------------------------------------- coordinates
Array polar_to_cartesian_coords(const Array& polar);
Array cartesian_to_polar_coords(const Array& xyz);
Array make_coordinates_homogeneous(const Array& coords);        // [..., N] -> [..., N + 1]
Array make_transformation_homogeneous(const Array& transform);  // [..., 3, 4] -> [..., 4, 4]

// ---------------------------------------------------------------- random rotations
// Uniform (Haar) over rotations: a normalised 4-d standard normal draw, w made >= 0.
// Seed with ivy::seed.
Array get_random_quaternion(const Shape& batch_shape = {}, DType dtype = float64, Backend backend = {});
Array get_random_rot_mat(const Shape& batch_shape = {}, DType dtype = float64, Backend backend = {});
Array get_random_axis_angle(const Shape& batch_shape = {}, DType dtype = float64, Backend backend = {});
Array get_random_euler(const Shape& batch_shape = {}, std::string_view convention = "zyx", DType dtype = float64,
                       Backend backend = {});

}  // namespace ivy::mech

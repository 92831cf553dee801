// ivy::mech poses ([xyz, rotation] and [R | t]) and coordinate conversions.
#include <cmath>
#include <string>

#include "detail.hpp"
#include "ivy/mech.hpp"

namespace ivy::mech {

using namespace detail;

namespace {
// [R | t] from R [..., 3, 3] and t [..., 3].
Array mat_pose(const Array& R, const Array& t) { return ivy::concat({R, ivy::expand_dims(t, -1)}, -1); }
Array rot_of(const Array& pose) { return pose.index({Ellipsis, Slice(), Slice(0, 3)}); }
Array pos_of(const Array& pose) { return pose.index({Ellipsis, Slice(), 3}); }
Array with_pos(const Array& pose, const Array& rot) { return ivy::concat({sl(pose, 0, 3), rot}, -1); }
}  // namespace

Array quaternion_pose_to_mat_pose(const Array& pose) {
  check_vec(pose, "quaternion_pose_to_mat_pose", 7, "quaternion pose [x, y, z, qx, qy, qz, qw]");
  return mat_pose(quaternion_to_rot_mat(sl(pose, 3, 7)), sl(pose, 0, 3));
}

Array mat_pose_to_quaternion_pose(const Array& pose) {
  check_mat(pose, "mat_pose_to_quaternion_pose", 3, 4, "matrix pose [R | t]");
  return ivy::concat({pos_of(pose), rot_mat_to_quaternion(rot_of(pose))}, -1);
}

Array rot_vec_pose_to_mat_pose(const Array& pose) {
  check_vec(pose, "rot_vec_pose_to_mat_pose", 6, "rotation-vector pose [x, y, z, rx, ry, rz]");
  return mat34(rot_vec_entries(sl(pose, 3, 6)), sl(pose, 0, 3));
}

Array mat_pose_to_rot_vec_pose(const Array& pose) {
  check_mat(pose, "mat_pose_to_rot_vec_pose", 3, 4, "matrix pose [R | t]");
  return ivy::concat({pos_of(pose), rot_mat_to_rot_vec(rot_of(pose))}, -1);
}

Array euler_pose_to_mat_pose(const Array& pose, std::string_view convention) {
  parse_convention(convention, "euler_pose_to_mat_pose");
  check_vec(pose, "euler_pose_to_mat_pose", 6, "Euler pose [x, y, z, e0, e1, e2]");
  return mat_pose(euler_to_rot_mat(sl(pose, 3, 6), convention), sl(pose, 0, 3));
}

Array mat_pose_to_euler_pose(const Array& pose, std::string_view convention) {
  parse_convention(convention, "mat_pose_to_euler_pose");
  check_mat(pose, "mat_pose_to_euler_pose", 3, 4, "matrix pose [R | t]");
  return ivy::concat({pos_of(pose), rot_mat_to_euler(rot_of(pose), convention)}, -1);
}

Array axis_angle_pose_to_mat_pose(const Array& pose) {
  check_vec(pose, "axis_angle_pose_to_mat_pose", 7, "axis-angle pose [x, y, z, ex, ey, ez, theta]");
  return mat_pose(axis_angle_to_rot_mat(sl(pose, 3, 7)), sl(pose, 0, 3));
}

Array mat_pose_to_axis_angle_pose(const Array& pose) {
  check_mat(pose, "mat_pose_to_axis_angle_pose", 3, 4, "matrix pose [R | t]");
  return ivy::concat({pos_of(pose), rot_mat_to_axis_angle(rot_of(pose))}, -1);
}

Array quaternion_pose_to_rot_vec_pose(const Array& pose) {
  check_vec(pose, "quaternion_pose_to_rot_vec_pose", 7, "quaternion pose [x, y, z, qx, qy, qz, qw]");
  return with_pos(pose, quaternion_to_rotation_vector(sl(pose, 3, 7)));
}

Array quaternion_pose_to_euler_pose(const Array& pose, std::string_view convention) {
  parse_convention(convention, "quaternion_pose_to_euler_pose");
  check_vec(pose, "quaternion_pose_to_euler_pose", 7, "quaternion pose [x, y, z, qx, qy, qz, qw]");
  return with_pos(pose, quaternion_to_euler(sl(pose, 3, 7), convention));
}

Array euler_pose_to_quaternion_pose(const Array& pose, std::string_view convention) {
  parse_convention(convention, "euler_pose_to_quaternion_pose");
  check_vec(pose, "euler_pose_to_quaternion_pose", 6, "Euler pose [x, y, z, e0, e1, e2]");
  return with_pos(pose, euler_to_quaternion(sl(pose, 3, 6), convention));
}

Array euler_pose_to_axis_angle_pose(const Array& pose, std::string_view convention) {
  parse_convention(convention, "euler_pose_to_axis_angle_pose");
  check_vec(pose, "euler_pose_to_axis_angle_pose", 6, "Euler pose [x, y, z, e0, e1, e2]");
  return with_pos(pose, euler_to_axis_angle(sl(pose, 3, 6), convention));
}

Array axis_angle_pose_to_euler_pose(const Array& pose, std::string_view convention) {
  parse_convention(convention, "axis_angle_pose_to_euler_pose");
  check_vec(pose, "axis_angle_pose_to_euler_pose", 7, "axis-angle pose [x, y, z, ex, ey, ez, theta]");
  return with_pos(pose, axis_angle_to_euler(sl(pose, 3, 7), convention));
}

Array axis_angle_pose_to_quaternion_pose(const Array& pose) {
  check_vec(pose, "axis_angle_pose_to_quaternion_pose", 7, "axis-angle pose [x, y, z, ex, ey, ez, theta]");
  return with_pos(pose, axis_angle_to_quaternion(sl(pose, 3, 7)));
}

Array increment_quaternion_pose_with_velocity(const Array& pose, const Array& velocity, double dt) {
  check_vec(pose, "increment_quaternion_pose_with_velocity", 7, "quaternion pose [x, y, z, qx, qy, qz, qw]");
  check_vec(velocity, "increment_quaternion_pose_with_velocity", 7,
            "quaternion velocity [vx, vy, vz, qx, qy, qz, qw]");
  Array position = sl(pose, 0, 3) + sl(velocity, 0, 3) * dt;
  Array step = scale_quaternion_rotation_angle(sl(velocity, 3, 7), dt);
  return ivy::concat({position, hamilton_product(sl(pose, 3, 7), step)}, -1);
}

// ---------------------------------------------------------------- coordinates
Array polar_to_cartesian_coords(const Array& polar) {
  check_vec(polar, "polar_to_cartesian_coords", 3, "polar coordinates [phi, theta, r]");
  Array phi = c(polar, 0), theta = c(polar, 1), r = c(polar, 2);
  Array rs = r * ivy::sin(theta);
  return ivy::stack({rs * ivy::cos(phi), rs * ivy::sin(phi), r * ivy::cos(theta)}, -1);
}

Array cartesian_to_polar_coords(const Array& xyz) {
  check_vec(xyz, "cartesian_to_polar_coords", 3, "cartesian coordinates [x, y, z]");
  Array x = c(xyz, 0), y = c(xyz, 1), z = c(xyz, 2);
  Array rho2 = x * x + y * y;
  Array r = safe_sqrt(rho2 + z * z);
  // phi = atan2(y, x) (0 on the z axis) and theta = acos(z / r) written as atan2(|(x, y)|, z)
  // (pi/2 at the origin, as acos(0 / eps)), both with finite gradients on the z axis
  Array on_z = rho2 == 0.0;
  Array phi = ivy::where(on_z, 0.0, ivy::atan2(ivy::where(on_z, 0.0, y), ivy::where(on_z, 1.0, x)));
  Array at_origin = ivy::logical_and(on_z, z == 0.0);
  Array theta = ivy::where(at_origin, M_PI / 2, ivy::atan2(safe_sqrt(rho2), ivy::where(at_origin, 1.0, z)));
  return ivy::stack({phi, theta, r}, -1);
}

Array make_coordinates_homogeneous(const Array& coords) {
  check_float(coords, "make_coordinates_homogeneous");
  if (coords.ndim() < 1)
    throw ValueError("[mech.make_coordinates_homogeneous] expects coordinates of shape [..., N], got shape " +
                     coords.shape().str());
  return ivy::concat({coords, ivy::ones_like(sl(coords, 0, 1))}, -1);
}

Array make_transformation_homogeneous(const Array& transform) {
  check_mat(transform, "make_transformation_homogeneous", 3, 4, "transformation [R | t]");
  Array first = transform.index({Ellipsis, Slice(0, 1), Slice()});  // [..., 1, 4]
  Array bottom = ivy::concat({ivy::zeros_like(sl(first, 0, 3)), ivy::ones_like(sl(first, 3, 4))}, -1);
  return ivy::concat({transform, bottom}, -2);
}

}  // namespace ivy::mech

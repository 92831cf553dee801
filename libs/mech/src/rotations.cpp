// ivy::mech rotations: quaternions, rotation vectors, axis-angle, rotation matrices and Euler
// angles, written with ivy:: functions only. Branches are selected with where(), and the
// unselected branch is always fed safe inputs so that gradients stay finite.
#include <array>
#include <string>
#include <vector>

#include "detail.hpp"
#include "ivy/mech.hpp"

namespace ivy::mech {

using namespace detail;

// ---------------------------------------------------------------- quaternions
Array hamilton_product(const Array& q1, const Array& q2) {
  check_vec(q1, "hamilton_product", 4, "quaternion q1");
  check_vec(q2, "hamilton_product", 4, "quaternion q2");
  Array x1 = c(q1, 0), y1 = c(q1, 1), z1 = c(q1, 2), w1 = c(q1, 3);
  Array x2 = c(q2, 0), y2 = c(q2, 1), z2 = c(q2, 2), w2 = c(q2, 3);
  return ivy::stack({w1 * x2 + x1 * w2 + y1 * z2 - z1 * y2,  //
                     w1 * y2 - x1 * z2 + y1 * w2 + z1 * x2,  //
                     w1 * z2 + x1 * y2 - y1 * x2 + z1 * w2,  //
                     w1 * w2 - x1 * x2 - y1 * y2 - z1 * z2},
                    -1);
}

Array inverse_quaternion(const Array& q) {
  check_vec(q, "inverse_quaternion", 4, "quaternion");
  Array n2 = ivy::sum(q * q, -1, std::nullopt, true);
  Array conj = ivy::concat({-sl(q, 0, 3), sl(q, 3, 4)}, -1);
  return conj / (n2 + MIN_DENOMINATOR);
}

Array quaternion_to_rot_mat(const Array& q) {
  check_vec(q, "quaternion_to_rot_mat", 4, "quaternion");
  Array x = c(q, 0), y = c(q, 1), z = c(q, 2), w = c(q, 3);
  Array s = 2.0 / (x * x + y * y + z * z + w * w + MIN_DENOMINATOR);
  return mat3({1.0 - s * (y * y + z * z), s * (x * y - z * w), s * (x * z + y * w),  //
               s * (x * y + z * w), 1.0 - s * (x * x + z * z), s * (y * z - x * w),  //
               s * (x * z - y * w), s * (y * z + x * w), 1.0 - s * (x * x + y * y)});
}

Array rot_mat_to_quaternion(const Array& R) {
  check_mat(R, "rot_mat_to_quaternion", 3, 3, "rotation matrix");
  Array r00 = m(R, 0, 0), r01 = m(R, 0, 1), r02 = m(R, 0, 2);
  Array r10 = m(R, 1, 0), r11 = m(R, 1, 1), r12 = m(R, 1, 2);
  Array r20 = m(R, 2, 0), r21 = m(R, 2, 1), r22 = m(R, 2, 2);
  // 4 w^2, 4 x^2, 4 y^2, 4 z^2: the branch dividing by the largest is the well-conditioned one.
  Array dw = 1.0 + r00 + r11 + r22, dx = 1.0 + r00 - r11 - r22;
  Array dy = 1.0 - r00 + r11 - r22, dz = 1.0 - r00 - r11 + r22;
  auto s_of = [](const Array& d) { return 2.0 * ivy::sqrt(ivy::clip(d, Bound(Scalar(MIN_DENOMINATOR)), Bound())); };
  Array sw = s_of(dw), sx = s_of(dx), sy = s_of(dy), sz = s_of(dz);  // 4 times the pivot component
  Array qw = ivy::stack({(r21 - r12) / sw, (r02 - r20) / sw, (r10 - r01) / sw, 0.25 * sw}, -1);
  Array qx = ivy::stack({0.25 * sx, (r01 + r10) / sx, (r02 + r20) / sx, (r21 - r12) / sx}, -1);
  Array qy = ivy::stack({(r01 + r10) / sy, 0.25 * sy, (r12 + r21) / sy, (r02 - r20) / sy}, -1);
  Array qz = ivy::stack({(r02 + r20) / sz, (r12 + r21) / sz, 0.25 * sz, (r10 - r01) / sz}, -1);
  Array use_w = ivy::logical_and(ivy::logical_and(dw >= dx, dw >= dy), dw >= dz);
  Array use_x = ivy::logical_and(dx >= dy, dx >= dz);
  Array use_y = dy >= dz;
  Array q = ivy::where(ivy::expand_dims(use_y, -1), qy, qz);
  q = ivy::where(ivy::expand_dims(use_x, -1), qx, q);
  q = ivy::where(ivy::expand_dims(use_w, -1), qw, q);
  return ivy::where(ivy::expand_dims(c(q, 3) < 0.0, -1), -q, q);
}

Array axis_angle_to_quaternion(const Array& axis_angle) {
  check_vec(axis_angle, "axis_angle_to_quaternion", 4, "axis-angle [ex, ey, ez, theta]");
  Array half = 0.5 * sl(axis_angle, 3, 4);
  return ivy::concat({sl(axis_angle, 0, 3) * ivy::sin(half), ivy::cos(half)}, -1);
}

namespace {
// q with w >= 0, its vector part v, |v| (gradient 0 at 0) and w.
struct Canonical {
  Array v, n, w;
};
Canonical canonical(const Array& q) {
  Array neg = c(q, 3) < 0.0;
  Array v = ivy::where(ivy::expand_dims(neg, -1), -sl(q, 0, 3), sl(q, 0, 3));
  return {v, safe_sqrt(ivy::sum(v * v, -1)), ivy::where(neg, -c(q, 3), c(q, 3))};
}
}  // namespace

Array quaternion_to_axis_angle(const Array& q) {
  check_vec(q, "quaternion_to_axis_angle", 4, "quaternion");
  auto [v, n, w] = canonical(q);
  Array theta = 2.0 * ivy::atan2(n, w);
  Array pos = n > 0.0;
  Array inv_n = ivy::expand_dims(1.0 / ivy::where(pos, n, 1.0), -1);
  Array z_axis = ivy::stack({ivy::zeros_like(n), ivy::zeros_like(n), ivy::ones_like(n)}, -1);
  Array axis = ivy::where(ivy::expand_dims(pos, -1), v * inv_n, z_axis);
  return ivy::concat({axis, ivy::expand_dims(theta, -1)}, -1);
}

Array rotation_vector_to_quaternion(const Array& rot_vec) {
  check_vec(rot_vec, "rotation_vector_to_quaternion", 3, "rotation vector");
  Array t2 = ivy::sum(rot_vec * rot_vec, -1);
  Array small = t2 < 1e-4;
  Array t = ivy::sqrt(ivy::where(small, 1.0, t2));
  // sin(t/2)/t and cos(t/2), by their series where t is small.
  Array k = ivy::where(small, 0.5 - t2 / 48.0 + t2 * t2 / 3840.0, ivy::sin(0.5 * t) / t);
  Array w = ivy::where(small, 1.0 - t2 / 8.0 + t2 * t2 / 384.0, ivy::cos(0.5 * t));
  return ivy::concat({rot_vec * ivy::expand_dims(k, -1), ivy::expand_dims(w, -1)}, -1);
}

Array quaternion_to_rotation_vector(const Array& q) {
  check_vec(q, "quaternion_to_rotation_vector", 4, "quaternion");
  auto [v, n, w] = canonical(q);
  Array pos = n > 0.0;
  Array theta = 2.0 * ivy::atan2(n, w);
  // theta / |v|, which tends to 2 / w as |v| -> 0.
  Array f = ivy::where(pos, theta / ivy::where(pos, n, 1.0), 2.0 / (w + MIN_DENOMINATOR));
  return v * ivy::expand_dims(f, -1);
}

Array scale_quaternion_rotation_angle(const Array& q, double scale) {
  check_vec(q, "scale_quaternion_rotation_angle", 4, "quaternion");
  Array aa = quaternion_to_axis_angle(q);
  return axis_angle_to_quaternion(ivy::concat({sl(aa, 0, 3), sl(aa, 3, 4) * scale}, -1));
}

Array polar_axis_angle_to_quaternion(const Array& polar_axis_angle) {
  check_vec(polar_axis_angle, "polar_axis_angle_to_quaternion", 3, "polar axis-angle [acos(ez), atan2(ey, ex), theta]");
  Array inc = c(polar_axis_angle, 0), az = c(polar_axis_angle, 1), theta = c(polar_axis_angle, 2);
  Array axis = ivy::stack({ivy::sin(inc) * ivy::cos(az), ivy::sin(inc) * ivy::sin(az), ivy::cos(inc), theta}, -1);
  return axis_angle_to_quaternion(axis);
}

Array quaternion_to_polar_axis_angle(const Array& q) {
  check_vec(q, "quaternion_to_polar_axis_angle", 4, "quaternion");
  Array aa = quaternion_to_axis_angle(q);
  Array ex = c(aa, 0), ey = c(aa, 1), ez = c(aa, 2);
  // atan2 with safe inputs where the axis lies on z (azimuth 0 there).
  Array on_z = ivy::logical_and(ex == 0.0, ey == 0.0);
  Array az = ivy::where(on_z, 0.0, ivy::atan2(ivy::where(on_z, 0.0, ey), ivy::where(on_z, 1.0, ex)));
  // inclination as atan2(|(ex, ey)|, ez): acos(ez) with a finite gradient on the z axis
  Array inc = ivy::atan2(safe_sqrt(ex * ex + ey * ey), ez);
  return ivy::stack({inc, az, c(aa, 3)}, -1);
}

// ---------------------------------------------------------------- rotation matrices
std::array<Array, 9> detail::rot_vec_entries(const Array& rot_vec) {
  Array t2 = ivy::sum(rot_vec * rot_vec, -1);
  Array small = t2 < 1e-4;
  Array t = ivy::sqrt(ivy::where(small, 1.0, t2));
  Array sh = ivy::sin(0.5 * t);
  // R = I + A K + B K^2 with A = sin t / t, B = (1 - cos t) / t^2, series near 0.
  Array A = ivy::where(small, 1.0 - t2 / 6.0 + t2 * t2 / 120.0, ivy::sin(t) / t);
  Array B = ivy::where(small, 0.5 - t2 / 24.0 + t2 * t2 / 720.0, 2.0 * sh * sh / (t * t));
  return rodrigues_entries(c(rot_vec, 0), c(rot_vec, 1), c(rot_vec, 2), A, B);
}

Array rot_vec_to_rot_mat(const Array& rot_vec) {
  check_vec(rot_vec, "rot_vec_to_rot_mat", 3, "rotation vector");
  return mat3(rot_vec_entries(rot_vec));
}

Array rot_mat_to_rot_vec(const Array& R) {
  check_mat(R, "rot_mat_to_rot_vec", 3, 3, "rotation matrix");
  return quaternion_to_rotation_vector(rot_mat_to_quaternion(R));
}

Array axis_angle_to_rot_mat(const Array& axis_angle) {
  check_vec(axis_angle, "axis_angle_to_rot_mat", 4, "axis-angle [ex, ey, ez, theta]");
  Array t = c(axis_angle, 3);
  return rodrigues(c(axis_angle, 0), c(axis_angle, 1), c(axis_angle, 2), ivy::sin(t), 1.0 - ivy::cos(t));
}

Array rot_mat_to_axis_angle(const Array& R) {
  check_mat(R, "rot_mat_to_axis_angle", 3, 3, "rotation matrix");
  return quaternion_to_axis_angle(rot_mat_to_quaternion(R));
}

namespace {
// Elementary rotation about axis a (0 = x, 1 = y, 2 = z) by angle t.
Array elementary(int a, const Array& t) {
  Array co = ivy::cos(t), si = ivy::sin(t), z = ivy::zeros_like(t), o = ivy::ones_like(t);
  if (a == 0) return mat3({o, z, z, z, co, -si, z, si, co});
  if (a == 1) return mat3({co, z, si, z, o, z, -si, z, co});
  return mat3({co, -si, z, si, co, z, z, z, o});
}
Array elementary_quaternion(int a, const Array& t) {
  Array z = ivy::zeros_like(t), s = ivy::sin(0.5 * t);
  std::vector<Array> v{z, z, z, ivy::cos(0.5 * t)};
  v[a] = s;
  return ivy::stack(v, -1);
}
}  // namespace

Array euler_to_rot_mat(const Array& euler, std::string_view convention) {
  auto ax = parse_convention(convention, "euler_to_rot_mat");
  check_vec(euler, "euler_to_rot_mat", 3, "Euler angles");
  return ivy::matmul(elementary(ax[2], c(euler, 2)),
                     ivy::matmul(elementary(ax[1], c(euler, 1)), elementary(ax[0], c(euler, 0))));
}

Array euler_to_quaternion(const Array& euler, std::string_view convention) {
  auto ax = parse_convention(convention, "euler_to_quaternion");
  check_vec(euler, "euler_to_quaternion", 3, "Euler angles");
  return hamilton_product(elementary_quaternion(ax[2], c(euler, 2)),
                          hamilton_product(elementary_quaternion(ax[1], c(euler, 1)),
                                           elementary_quaternion(ax[0], c(euler, 0))));
}

Array rot_mat_to_euler(const Array& R, std::string_view convention) {
  auto ax = parse_convention(convention, "rot_mat_to_euler");
  check_mat(R, "rot_mat_to_euler", 3, 3, "rotation matrix");
  const int i = ax[0], j = ax[1];
  const bool proper = ax[2] == ax[0];
  const int k = proper ? 3 - i - j : ax[2];
  const double eps = (j - i + 3) % 3 == 1 ? 1.0 : -1.0;  // +1 when (i, j, k) is cyclic
  auto r = [&](int a, int b) { return m(R, a, b); };
  // R = R_c2(e2) R_j(e1) R_i(e0); (sb, cb) are sin e1, cos e1 up to a positive factor.
  Array sb, cb, y0, x0, y2, x2;
  if (proper) {
    cb = r(i, i);
    sb = safe_sqrt(r(i, j) * r(i, j) + r(i, k) * r(i, k));
    y0 = r(i, j), x0 = eps * r(i, k), y2 = r(j, i), x2 = -eps * r(k, i);
  } else {
    sb = -eps * r(k, i);
    cb = safe_sqrt(r(i, i) * r(i, i) + r(j, i) * r(j, i));
    y0 = eps * r(k, j), x0 = r(k, k), y2 = eps * r(j, i), x2 = r(i, i);
  }
  Array e1 = ivy::atan2(sb, cb);
  Array lock = (proper ? sb : cb) < GIMBAL_TOLERANCE;
  // At the lock only e0 + e2 (or e0 - e2) is defined: e2 = 0, and R = R_j(e1) R_i(e0) gives
  // e0 from row j.
  Array yl = -eps * r(j, k), xl = r(j, j);
  Array e0_free = ivy::atan2(ivy::where(lock, 0.0, y0), ivy::where(lock, 1.0, x0));
  Array e2_free = ivy::atan2(ivy::where(lock, 0.0, y2), ivy::where(lock, 1.0, x2));
  Array lock_ok = ivy::logical_and(lock, ivy::logical_or(yl != 0.0, xl != 0.0));
  Array e0_lock = ivy::atan2(ivy::where(lock_ok, yl, 0.0), ivy::where(lock_ok, xl, 1.0));
  Array e0 = ivy::where(lock, e0_lock, e0_free);
  Array e2 = ivy::where(lock, 0.0, e2_free);
  return ivy::stack({e0, e1, e2}, -1);
}

Array quaternion_to_euler(const Array& q, std::string_view convention) {
  parse_convention(convention, "quaternion_to_euler");
  check_vec(q, "quaternion_to_euler", 4, "quaternion");
  return rot_mat_to_euler(quaternion_to_rot_mat(q), convention);
}

Array euler_to_axis_angle(const Array& euler, std::string_view convention) {
  parse_convention(convention, "euler_to_axis_angle");
  check_vec(euler, "euler_to_axis_angle", 3, "Euler angles");
  return quaternion_to_axis_angle(euler_to_quaternion(euler, convention));
}

Array axis_angle_to_euler(const Array& axis_angle, std::string_view convention) {
  parse_convention(convention, "axis_angle_to_euler");
  check_vec(axis_angle, "axis_angle_to_euler", 4, "axis-angle [ex, ey, ez, theta]");
  return rot_mat_to_euler(axis_angle_to_rot_mat(axis_angle), convention);
}

Array target_facing_rotation_matrix(const Array& body_pos, const Array& target_pos) {
  check_vec(body_pos, "target_facing_rotation_matrix", 3, "body position");
  check_vec(target_pos, "target_facing_rotation_matrix", 3, "target position");
  auto unit = [](const Array& v) {  // v / |v|, 0 for v = 0
    Array n2 = ivy::sum(v * v, -1, std::nullopt, true);
    return v / ivy::sqrt(ivy::where(n2 > 0.0, n2, 1.0));
  };
  Array z = unit(target_pos - body_pos);
  Array up = ivy::zeros_like(z) + ivy::asarray(std::vector<double>{0.0, 0.0, 1.0}, std::nullopt, z.dtype(), Device{},
                                               z.backend());
  Array x = unit(ivy::linalg::cross(up, z));
  Array y = ivy::linalg::cross(z, x);
  return ivy::stack({x, y, z}, -1);
}

// ---------------------------------------------------------------- random rotations
Array get_random_quaternion(const Shape& batch_shape, DType dtype, Backend backend) {
  Shape s = batch_shape;
  s.push_back(4);
  // A normalised isotropic Gaussian 4-vector is uniform on S^3, hence Haar-uniform on SO(3).
  Array g = ivy::random_normal(0.0, 1.0, s, dtype, Device{}, backend);
  Array n2 = ivy::sum(g * g, -1, std::nullopt, true);
  Array q = g / ivy::sqrt(ivy::where(n2 > 0.0, n2, 1.0));
  return ivy::where(ivy::expand_dims(c(q, 3) < 0.0, -1), -q, q);
}

Array get_random_rot_mat(const Shape& batch_shape, DType dtype, Backend backend) {
  return quaternion_to_rot_mat(get_random_quaternion(batch_shape, dtype, backend));
}

Array get_random_axis_angle(const Shape& batch_shape, DType dtype, Backend backend) {
  return quaternion_to_axis_angle(get_random_quaternion(batch_shape, dtype, backend));
}

Array get_random_euler(const Shape& batch_shape, std::string_view convention, DType dtype, Backend backend) {
  parse_convention(convention, "get_random_euler");
  return rot_mat_to_euler(get_random_rot_mat(batch_shape, dtype, backend), convention);
}

}  // namespace ivy::mech

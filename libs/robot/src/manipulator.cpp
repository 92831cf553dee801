// ivy::robot::Manipulator: standard DH forward kinematics; the Mico and Panda arms.
#include <cmath>
#include <string>

#include "detail.hpp"
#include "ivy/robot.hpp"

namespace ivy::robot {

using namespace detail;

namespace {
Array last_axis(const Array& x, std::int64_t i) { return x.index({Ellipsis, i}); }
}  // namespace

Manipulator::Manipulator(Array a_s, Array d_s, Array alpha_s, Array dh_joint_scales, Array dh_joint_offsets,
                         Array base_inv_ext_mat)
    : a_(std::move(a_s)),
      d_(std::move(d_s)),
      alpha_(std::move(alpha_s)),
      scales_(std::move(dh_joint_scales)),
      offsets_(std::move(dh_joint_offsets)) {
  const char* fn = "Manipulator";
  const std::pair<const Array*, const char*> params[] = {
      {&a_, "a_s"}, {&d_, "d_s"}, {&alpha_, "alpha_s"}, {&scales_, "dh_joint_scales"}, {&offsets_, "dh_joint_offsets"}};
  for (const auto& [p, name] : params) {
    check_float(*p, fn, name);
    if (p->ndim() != 1 || p->shape()[0] < 1)
      throw ValueError(tag(fn) + "expects " + name + " of shape [J], J >= 1, got shape " + p->shape().str());
    if (p->shape()[0] != a_.shape()[0])
      throw ValueError(tag(fn) + "expects " + name + " of shape (" + std::to_string(a_.shape()[0]) +
                       ") like a_s, got shape " + p->shape().str());
    if (!all_finite(*p)) throw ValueError(tag(fn) + "got non-finite values in " + name);
  }
  num_joints_ = a_.shape()[0];
  auto av = ivy::astype(a_, float64).to_vector<double>(), dv = ivy::astype(d_, float64).to_vector<double>();
  for (std::int64_t i = 0; i < num_joints_; ++i) link_lengths_.push_back(std::hypot(av[i], dv[i]));

  if (!base_inv_ext_mat.defined()) {
    base_ = ivy::eye(4, std::nullopt, 0, a_.dtype(), {}, a_.backend());
    return;
  }
  check_mat(base_inv_ext_mat, fn, "base_inv_ext_mat", 3, 4, 4);
  Array b = like(base_inv_ext_mat, a_);
  if (!all_finite(b)) throw ValueError(tag(fn) + "got a non-finite base_inv_ext_mat");
  Array top = b.index({Ellipsis, Slice(0, 3), Slice()});
  Shape row_shape = batch_of(b, 2);
  row_shape.push_back(1);
  row_shape.push_back(4);
  Array row = ivy::broadcast_to(ivy::asarray(std::vector<double>{0, 0, 0, 1}, Shape{1, 4}, b.dtype(), {}, b.backend()),
                                row_shape);
  if (b.shape()[b.ndim() - 2] == 4) {
    Array given = b.index({Ellipsis, Slice(3, 4), Slice()});
    if (!ivy::all(ivy::abs(given - row) <= 1e-6).item<bool>())
      throw ValueError(tag(fn) + "expects the last row of a [..., 4, 4] base_inv_ext_mat to be [0, 0, 0, 1]");
  }
  base_ = ivy::concat({top, row}, -2);
}

Array Manipulator::compute_link_matrices(const Array& joint_angles) const {
  const char* fn = "compute_link_matrices";
  check_trailing(joint_angles, fn, "joint_angles", 1, "[..., " + std::to_string(num_joints_) + "]", num_joints_);
  const Array& q = joint_angles;
  Array theta = q * like(scales_, q) - like(offsets_, q);  // [..., J]
  Array ct = ivy::cos(theta), st = ivy::sin(theta);
  Array al = like(alpha_, q), a = like(a_, q), d = like(d_, q);
  Array ca = ivy::broadcast_to(ivy::cos(al), q.shape()), sa = ivy::broadcast_to(ivy::sin(al), q.shape());
  Array zero = ivy::zeros_like(q), one = ivy::ones_like(q);
  // A_i = Rz(theta) Tz(d) Tx(a) Rx(alpha), [..., J, 4, 4]: one stack of the 16 entries, row-major
  Array A = ivy::stack({ct, -st * ca, st * sa, a * ct,      //
                        st, ct * ca, -ct * sa, a * st,      //
                        zero, sa, ca, ivy::broadcast_to(d, q.shape()),  //
                        zero, zero, zero, one},
                       -1);
  Shape a_shape = A.shape();
  a_shape[a_shape.size() - 1] = 4;
  a_shape.push_back(4);
  A = ivy::reshape(A, a_shape);
  Shape out_batch = ivy::broadcast_shapes(batch_of(q, 1), batch_of(base_, 2), "robot.compute_link_matrices");
  Shape mat_shape = out_batch;
  mat_shape.push_back(4);
  mat_shape.push_back(4);
  Array T = ivy::broadcast_to(like(base_, q), mat_shape);
  std::vector<Array> mats{T};
  for (std::int64_t i = 0; i < num_joints_; ++i) {
    T = ivy::matmul(T, A.index({Ellipsis, i, Slice(), Slice()}));
    mats.push_back(T);
  }
  return ivy::stack(mats, -3);
}

Array Manipulator::compute_link_poses(const Array& joint_angles) const {
  return compute_link_matrices(joint_angles).index({Ellipsis, Slice(0, 3), Slice()});
}

std::vector<std::int64_t> Manipulator::link_sample_counts(double samples_per_metre, const char* fn) const {
  if (!(samples_per_metre > 0) || !std::isfinite(samples_per_metre))
    throw ValueError(tag(fn) + "expects a finite samples_per_metre > 0, got " + std::to_string(samples_per_metre));
  std::vector<std::int64_t> m;
  for (double L : link_lengths_)
    m.push_back(L > 0 ? std::max<std::int64_t>(1, static_cast<std::int64_t>(std::ceil(L * samples_per_metre))) : 0);
  return m;
}

std::int64_t Manipulator::num_link_samples(double samples_per_metre) const {
  std::int64_t s = 1;
  for (auto m : link_sample_counts(samples_per_metre, "num_link_samples")) s += m;
  return s;
}

std::vector<std::int64_t> Manipulator::frame_origin_sample_indices(double samples_per_metre) const {
  std::vector<std::int64_t> idx{0};
  for (auto m : link_sample_counts(samples_per_metre, "frame_origin_sample_indices")) idx.push_back(idx.back() + m);
  return idx;
}

Array Manipulator::sample_links(const Array& joint_angles, double samples_per_metre) const {
  auto counts = link_sample_counts(samples_per_metre, "sample_links");
  check_trailing(joint_angles, "sample_links", "joint_angles", 1, "[..., " + std::to_string(num_joints_) + "]",
                 num_joints_);
  Array origins = compute_link_matrices(joint_angles).index({Ellipsis, Slice(0, 3), 3});  // [..., J+1, 3]
  std::vector<Array> parts;
  for (std::int64_t i = 0; i < num_joints_; ++i) {
    const std::int64_t m = counts[static_cast<std::size_t>(i)];
    if (m == 0) continue;
    Array o0 = origins.index({Ellipsis, Slice(i, i + 1), Slice()});  // [..., 1, 3]
    Array o1 = origins.index({Ellipsis, Slice(i + 1, i + 2), Slice()});
    Array t = ivy::expand_dims(ivy::arange(0, m, 1, joint_angles.dtype(), {}, joint_angles.backend()) / double(m), -1);
    parts.push_back(o0 + t * (o1 - o0));  // [..., m, 3]
  }
  parts.push_back(origins.index({Ellipsis, Slice(num_joints_, num_joints_ + 1), Slice()}));
  return ivy::concat(parts, -2);
}

// ---------------------------------------------------------------- the arms
namespace {
Manipulator make(const char* fn, const std::vector<std::vector<double>>& p, Array base, DType dtype, Backend backend) {
  if (!is_real_floating(dtype)) throw TypeError(tag(fn) + "expects dtype float32 or float64, got " + dtype_name(dtype));
  if (!backend.impl()) backend = ivy::current_backend();
  auto arr = [&](const std::vector<double>& v) { return ivy::asarray(v, std::nullopt, dtype, {}, backend); };
  return Manipulator(arr(p[0]), arr(p[1]), arr(p[2]), arr(p[3]), arr(p[4]), std::move(base));
}
}  // namespace

Manipulator mico_manipulator(Array base_inv_ext_mat, DType dtype, Backend backend) {
  const double d1 = 0.2755, d2 = 0.29, d3 = 0.1233, d4 = 0.0741, d5 = 0.0741, d6 = 0.16, e2 = 0.007;
  const double aa = M_PI / 6, sa = std::sin(aa), s2a = std::sin(2 * aa);
  const double d4b = d3 + sa / s2a * d4, d5b = sa / s2a * (d4 + d5), d6b = sa / s2a * d5 + d6;
  return make("mico_manipulator",
              {{0, d2, 0, 0, 0, 0},
               {d1, 0, -e2, -d4b, -d5b, -d6b},
               {M_PI / 2, M_PI, M_PI / 2, 2 * aa, 2 * aa, M_PI},
               {-1, 1, 1, 1, 1, 1},
               {0, M_PI / 2, -M_PI / 2, 0, M_PI, -M_PI / 2}},
              std::move(base_inv_ext_mat), dtype, backend);
}

Manipulator panda_manipulator(Array base_inv_ext_mat, DType dtype, Backend backend) {
  return make("panda_manipulator",
              {{0, 0, 0.0825, -0.0825, 0, 0.088, 0},
               {0.333, 0, 0.316, 0, 0.384, 0, 0.107},
               {-M_PI / 2, M_PI / 2, M_PI / 2, -M_PI / 2, M_PI / 2, M_PI / 2, 0},
               {1, 1, 1, 1, 1, 1, 1},
               {0, 0, 0, 0, 0, 0, 0}},
              std::move(base_inv_ext_mat), dtype, backend);
}

}  // namespace ivy::robot

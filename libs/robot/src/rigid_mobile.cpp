// ivy::robot::RigidMobile: a rigid body given by points in its own frame.
#include "detail.hpp"
#include "ivy/robot.hpp"

namespace ivy::robot {

using namespace detail;

RigidMobile::RigidMobile(Array rel_body_points) : rel_body_points_(std::move(rel_body_points)) {
  check_float(rel_body_points_, "RigidMobile", "rel_body_points");
  if (rel_body_points_.ndim() != 2 || rel_body_points_.shape()[1] != 3)
    throw ValueError(tag("RigidMobile") + "expects rel_body_points of shape [NBP, 3], got shape " +
                     rel_body_points_.shape().str());
}

Array RigidMobile::sample_body(const Array& inv_ext_mats) const {
  check_mat(inv_ext_mats, "sample_body", "inv_ext_mats", 3, 4, 4);
  // [p, 1] [NBP, 4] @ [R | t]^T [..., 4, 3] -> [..., NBP, 3]
  Array T = inv_ext_mats.index({Ellipsis, Slice(0, 3), Slice()});
  Array p = like(rel_body_points_, inv_ext_mats);
  Array ph = ivy::concat({p, ivy::ones_like(p.index({Slice(), Slice(0, 1)}))}, -1);
  return ivy::matmul(ph, ivy::matrix_transpose(T));
}

}  // namespace ivy::robot

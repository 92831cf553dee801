// ivy::vision projective geometry: coordinate transforms, projection matrix inverses, DLT.
#include "ivy/vision/projective_geometry.hpp"

#include "geometry_detail.hpp"

namespace ivy::vision {

using namespace geometry_detail;

Array transform(const Array& coords, const Array& trans) {
  check_float(trans, "transform", "transformation matrix");
  if (trans.ndim() < 2) throw ValueError(P("transform") + "expects a transformation matrix of shape [..., m, n], got shape " + trans.shape().str());
  check_vec(coords, "transform", trans.shape().back(), "coordinates");
  return apply_mat(trans, coords);
}

Array projection_matrix_pseudo_inverse(const Array& proj_mat) {
  check_mat(proj_mat, "projection_matrix_pseudo_inverse", 3, 4, "projection matrix");
  Array pt = ivy::matrix_transpose(proj_mat);
  return ivy::matmul(pt, ivy::linalg::inv(ivy::matmul(proj_mat, pt)));
}

Array projection_matrix_inverse(const Array& proj_mat) {
  check_mat(proj_mat, "projection_matrix_inverse", 3, 4, "projection matrix [M | t]");
  Array m_inv = ivy::linalg::inv(proj_mat.index({Ellipsis, Slice(), Slice(0, 3)}));
  Array t = proj_mat.index({Ellipsis, Slice(), Slice(3, 4)});
  return ivy::concat({m_inv, -ivy::matmul(m_inv, t)}, -1);
}

Array solve_homogeneous_dlt(const Array& A) {
  check_float(A, "solve_homogeneous_dlt", "matrix A");
  if (A.ndim() < 2)
    throw ValueError(P("solve_homogeneous_dlt") + "expects a matrix A of shape [..., h, w], got shape " + A.shape().str());
  const std::int64_t h = A.shape()[A.ndim() - 2], w = A.shape().back();
  // Vh is [..., w, w] either way: reduced when h >= w (the differentiable case), full otherwise.
  Array vh = ivy::linalg::svd(A, h < w).Vh;
  Array x = vh.index({Ellipsis, w - 1, Slice()});
  // Fix the sign: the largest-magnitude entry positive (backends' SVDs differ in sign).
  Array big = ivy::take_along_axis(x, ivy::argmax(ivy::abs(x), -1, true), -1);
  return ivy::where(big < 0.0, -x, x);
}

}  // namespace ivy::vision

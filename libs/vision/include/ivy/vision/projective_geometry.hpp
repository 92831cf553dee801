// ivy::vision projective geometry over ivy:: functions (every backend, differentiable).
// Batch dims as in single_view_geometry.hpp: a matrix's leading dims are batch dims; the
// coordinates' remaining leading dims are image/point dims.
#pragma once

#include "ivy/ivy.hpp"

namespace ivy::vision {

// coords [B..., S..., n] transformed by trans [B..., m, n] -> [B..., S..., m].
Array transform(const Array& coords, const Array& trans);
// P [..., 3, 4] of full row rank -> P^T (P P^T)^-1 [..., 4, 3] (P P⁺ = I).
Array projection_matrix_pseudo_inverse(const Array& proj_mat);
// [M | t] [..., 3, 4] -> [M^-1 | -M^-1 t] [..., 3, 4], the inverse of the affine map
// x -> M x + t (ext_mat -> inv_ext_mat, full_mat -> inv_full_mat).
Array projection_matrix_inverse(const Array& proj_mat);
// A [..., h, w] -> the unit x [..., w] minimising |A x| (the right singular vector of the
// smallest singular value), signed so that its largest-magnitude entry is positive.
Array solve_homogeneous_dlt(const Array& A);

}  // namespace ivy::vision

// ivy::robot::sample_spline_path: polyharmonic spline interpolation.
#include <string>

#include "detail.hpp"
#include "ivy/robot.hpp"

namespace ivy::robot {

using namespace detail;

namespace {
// phi(r) for r the squared distance (clamped).
Array kernel(const Array& r, int order) {
  Array rc = ivy::maximum(r, SPLINE_MIN_SQUARED_DISTANCE);
  Array p = ivy::pow(rc, 0.5 * order);
  return order % 2 ? p : 0.5 * p * ivy::log(rc);
}
// Squared distances between x [..., M, D] and c [..., N, D] -> [..., M, N].
Array sq_dists(const Array& x, const Array& c) {
  Array d = ivy::expand_dims(x, -2) - ivy::expand_dims(c, -3);
  return ivy::sum(d * d, -1);
}
// [x, 1]: [..., M, D] -> [..., M, D + 1].
Array with_ones(const Array& x) { return ivy::concat({x, ivy::ones_like(x.index({Ellipsis, Slice(0, 1)}))}, -1); }
}  // namespace

Array sample_spline_path(const Array& anchor_points, const Array& anchor_vals, const Array& sample_points, int order) {
  const char* fn = "sample_spline_path";
  if (order < 1) throw ValueError(tag(fn) + "expects order >= 1, got " + std::to_string(order));
  check_trailing(anchor_points, fn, "anchor_points", 2, "[..., N, D]");
  check_trailing(anchor_vals, fn, "anchor_vals", 2, "[..., N, PD]");
  check_trailing(sample_points, fn, "sample_points", 2, "[..., NS, D]");
  const std::int64_t N = anchor_points.shape()[anchor_points.ndim() - 2], D = anchor_points.shape().back();
  if (anchor_vals.shape()[anchor_vals.ndim() - 2] != N)
    throw ValueError(tag(fn) + "anchor_vals of shape " + anchor_vals.shape().str() + " has not the N = " +
                     std::to_string(N) + " rows of anchor_points of shape " + anchor_points.shape().str());
  if (sample_points.shape().back() != D)
    throw ValueError(tag(fn) + "expects sample_points of shape [..., NS, " + std::to_string(D) +
                     "] like anchor_points " + anchor_points.shape().str() + ", got shape " +
                     sample_points.shape().str());
  if (N < D + 1)
    throw ValueError(tag(fn) + "needs at least D + 1 = " + std::to_string(D + 1) +
                     " anchors, got anchor_points of shape " + anchor_points.shape().str());
  // the three batch shapes must broadcast (checked here, so the error names this function)
  ivy::broadcast_shapes(ivy::broadcast_shapes(batch_of(anchor_points, 2), batch_of(anchor_vals, 2), "robot.sample_spline_path"),
                        batch_of(sample_points, 2), "robot.sample_spline_path");
  const std::int64_t PD = anchor_vals.shape().back();
  const DType dt = ivy::result_type(ivy::result_type(anchor_points, anchor_vals), sample_points.dtype());
  Array c = ivy::astype(anchor_points, dt, false);
  Array f = ivy::astype(anchor_vals, dt, false);
  Array x = ivy::astype(sample_points, dt, false);

  // [[A, B], [B^T, 0]] [w; v] = [f; 0]
  Array B = with_ones(c);
  Shape zb = batch_of(c, 2);
  zb.push_back(D + 1);
  zb.push_back(D + 1);
  Array M = ivy::concat({ivy::concat({kernel(sq_dists(c, c), order), B}, -1),
                         ivy::concat({ivy::matrix_transpose(B), ivy::zeros(zb, dt, {}, c.backend())}, -1)},
                        -2);
  Shape fb = batch_of(f, 2);
  fb.push_back(D + 1);
  fb.push_back(PD);
  Array rhs = ivy::concat({f, ivy::zeros(fb, dt, {}, f.backend())}, -2);
  Array sol = ivy::linalg::solve(M, rhs);
  Array w = sol.index({Ellipsis, Slice(0, N), Slice()});
  Array v = sol.index({Ellipsis, Slice(N, N + D + 1), Slice()});
  return ivy::matmul(kernel(sq_dists(x, c), order), w) + ivy::matmul(with_ones(x), v);
}

}  // namespace ivy::robot

// Signed distances of spheres and cuboids (sdf.hpp).
#include "ivy/vision/sdf.hpp"

#include <limits>
#include <string>

namespace ivy::vision {
namespace {

void check_float(const Array& x, const char* fn, const char* what) {
  if (!x.defined()) throw ValueError(std::string("[vision.") + fn + "] got an undefined " + what);
  if (!is_real_floating(x.dtype()))
    throw TypeError(std::string("[vision.") + fn + "] expects " + what + " of dtype float32 or float64, got " +
                    dtype_name(x.dtype()));
}
// x of shape [..., n] (n < 0: any) with at least `min_rank` dims.
void check_trailing(const Array& x, const char* fn, const char* what, const Shape& trailing) {
  check_float(x, fn, what);
  const auto r = static_cast<std::int64_t>(trailing.size());
  bool ok = x.ndim() >= r;
  for (std::int64_t i = 0; ok && i < r; ++i)
    if (trailing[i] >= 0 && x.shape()[x.ndim() - r + i] != trailing[i]) ok = false;
  if (!ok) {
    std::string want = "[...";
    for (auto t : trailing) want += ", " + (t < 0 ? std::string("N") : std::to_string(t));
    throw ValueError(std::string("[vision.") + fn + "] expects " + what + " of shape " + want + "], got shape " +
                     x.shape().str());
  }
}
std::int64_t dim_from_end(const Array& x, std::int64_t k) { return x.shape()[x.ndim() - k]; }

// min over axis -2 of d [..., N, NQ], as [..., NQ, 1]; +inf when N == 0.
Array min_over_shapes(const Array& d) {
  if (dim_from_end(d, 2) == 0) {
    Shape s = d.shape();
    s.erase(s.size() - 2);
    s.push_back(1);
    return full(s, std::numeric_limits<double>::infinity(), d.dtype(), d.device(), d.backend());
  }
  return expand_dims(min(d, -2), -1);
}

// |x| along `axis` with gradient 0 (not NaN) where x is 0.
Array safe_norm(const Array& x, std::int64_t axis = -1) {
  Array sq = sum(x * x, axis);
  Array pos = sq > 0.0;
  return where(pos, sqrt(where(pos, sq, 1.0)), 0.0);
}

}  // namespace

Array sphere_signed_distances(const Array& sphere_positions, const Array& sphere_radii, const Array& query_positions) {
  constexpr const char* fn = "sphere_signed_distances";
  check_trailing(sphere_positions, fn, "sphere_positions", {-1, 3});
  check_trailing(sphere_radii, fn, "sphere_radii", {-1, 1});
  check_trailing(query_positions, fn, "query_positions", {-1, 3});
  if (dim_from_end(sphere_radii, 2) != dim_from_end(sphere_positions, 2))
    throw ValueError(std::string("[vision.") + fn + "] sphere_positions " + sphere_positions.shape().str() +
                     " and sphere_radii " + sphere_radii.shape().str() + " differ in the number of spheres");
  // [..., NS, 1, 3] - [..., 1, NQ, 3] -> distances [..., NS, NQ]
  Array diff = expand_dims(query_positions, -3) - expand_dims(sphere_positions, -2);
  Array d = safe_norm(diff) - sphere_radii;  // radii [..., NS, 1] broadcast over NQ
  return min_over_shapes(d);
}

Array cuboid_signed_distances(const Array& cuboid_ext_mats, const Array& cuboid_dims, const Array& query_positions) {
  constexpr const char* fn = "cuboid_signed_distances";
  check_trailing(cuboid_ext_mats, fn, "cuboid_ext_mats", {-1, 3, 4});
  check_trailing(cuboid_dims, fn, "cuboid_dims", {-1, 3});
  check_trailing(query_positions, fn, "query_positions", {-1, 3});
  if (dim_from_end(cuboid_dims, 2) != dim_from_end(cuboid_ext_mats, 3))
    throw ValueError(std::string("[vision.") + fn + "] cuboid_ext_mats " + cuboid_ext_mats.shape().str() +
                     " and cuboid_dims " + cuboid_dims.shape().str() + " differ in the number of cuboids");
  // local = R q + t for every cuboid and query: [..., NC, 3, 3] @ [..., 1, 3, NQ] -> [..., NC, 3, NQ]
  // (kept with the coordinates on axis -2, as matmul gives them, so the reductions below run
  // over contiguous rows of queries)
  Array R = cuboid_ext_mats.index({Ellipsis, Slice(0, 3)});
  Array t = cuboid_ext_mats.index({Ellipsis, Slice(0, 3), Slice(3, 4)});
  Array q_cols = expand_dims(matrix_transpose(query_positions), -3);
  Array local = matmul(R, q_cols) + t;                               // [..., NC, 3, NQ]
  Array d = abs(local) - expand_dims(cuboid_dims, -1) * 0.5;         // [..., NC, 3, NQ]
  Array outside = safe_norm(maximum(d, 0.0), -2);                    // [..., NC, NQ]
  Array inside = minimum(max(d, -2), 0.0);
  return min_over_shapes(outside + inside);
}

PrimitiveScene::PrimitiveScene(Array sphere_positions, Array sphere_radii, Array cuboid_ext_mats, Array cuboid_dims)
    : sphere_positions_(std::move(sphere_positions)),
      sphere_radii_(std::move(sphere_radii)),
      cuboid_ext_mats_(std::move(cuboid_ext_mats)),
      cuboid_dims_(std::move(cuboid_dims)) {
  if (sphere_positions_.defined() != sphere_radii_.defined())
    throw ValueError("[vision.PrimitiveScene] sphere_positions and sphere_radii must both be given or both omitted");
  if (cuboid_ext_mats_.defined() != cuboid_dims_.defined())
    throw ValueError("[vision.PrimitiveScene] cuboid_ext_mats and cuboid_dims must both be given or both omitted");
}

Array PrimitiveScene::sdf(const Array& query_positions) const {
  Array result;
  if (sphere_positions_.defined())
    result = sphere_signed_distances(sphere_positions_, sphere_radii_, query_positions);
  if (cuboid_ext_mats_.defined()) {
    Array c = cuboid_signed_distances(cuboid_ext_mats_, cuboid_dims_, query_positions);
    result = result.defined() ? minimum(result, c) : c;
  }
  if (!result.defined()) {
    check_trailing(query_positions, "PrimitiveScene.sdf", "query_positions", {-1, 3});
    Shape s = query_positions.shape();
    s[s.size() - 1] = 1;
    result = full(s, std::numeric_limits<double>::infinity(), query_positions.dtype(), query_positions.device(),
                  query_positions.backend());
  }
  return result;
}

}  // namespace ivy::vision

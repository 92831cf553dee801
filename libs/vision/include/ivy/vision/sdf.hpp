// ivy::vision signed distance functions of primitive shapes, over ivy:: functions (every
// backend, differentiable in the queries and in the shapes' parameters).
//   sphere_signed_distances(positions [..., NS, 3], radii [..., NS, 1], query [..., NQ, 3])
//       -> [..., NQ, 1]: min over spheres of |q - c| - r.
//   cuboid_signed_distances(ext_mats [..., NC, 3, 4], dims [..., NC, 3], query [..., NQ, 3])
//       -> [..., NQ, 1]: min over cuboids of the exact box distance in each cuboid's frame.
//       ext_mats map world to cuboid coordinates (the inverse of the cuboid's pose,
//       [R^T | -R^T c]); dims are the full side lengths. With d = |E [q; 1]| - dims / 2:
//       sdf = |max(d, 0)| + min(max_i d_i, 0) (negative inside, zero on the surface).
// Leading dims of the shapes and of the query broadcast against each other. No shapes give
// +inf. Gradients are finite everywhere (the norm of max(d, 0) has gradient 0 where it is 0).
#pragma once

#include "ivy/ivy.hpp"

namespace ivy::vision {

Array sphere_signed_distances(const Array& sphere_positions, const Array& sphere_radii, const Array& query_positions);
Array cuboid_signed_distances(const Array& cuboid_ext_mats, const Array& cuboid_dims, const Array& query_positions);

// A scene of spheres and cuboids (either set may be empty: undefined arrays or zero count).
// sdf(query [..., NQ, 3]) -> [..., NQ, 1], the minimum over every shape.
class PrimitiveScene {
 public:
  PrimitiveScene(Array sphere_positions, Array sphere_radii, Array cuboid_ext_mats, Array cuboid_dims);
  Array sdf(const Array& query_positions) const;
  const Array& sphere_positions() const { return sphere_positions_; }
  const Array& sphere_radii() const { return sphere_radii_; }
  const Array& cuboid_ext_mats() const { return cuboid_ext_mats_; }
  const Array& cuboid_dims() const { return cuboid_dims_; }

 private:
  Array sphere_positions_, sphere_radii_, cuboid_ext_mats_, cuboid_dims_;
};

}  // namespace ivy::vision

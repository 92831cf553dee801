// ivy::vision voxel grids: points (with optional features) binned into a regular grid.
// See docs/vision-images.md.
#pragma once

#include <string_view>

#include "ivy/ivy.hpp"

namespace ivy::vision {

// Bins coords [..., N, 3] (or homogeneous [..., N, 4]; the 4th entry is ignored) into a
// voxel grid per batch element over the box [lower, upper]: coord_bounds [6] or [..., 6] =
// (x_min, y_min, z_min, x_max, y_max, z_max), or, when undefined, each batch element's
// bounding box of its points. Points outside the box (bounds inclusive) or non-finite are
// dropped.
//   mode "DIMS": voxel_shape_spec [3] or [..., 3] = voxels per axis (positive integers);
//   mode "RES":  voxel_shape_spec [3] or [..., 3] = voxel sizes; voxels per axis
//                ceil(extent / (size + 1e-12)), at least 1.
// Either way the resolution used is extent / voxels (the grid spans the box exactly), and a
// point's voxel is floor((p - lower) / (resolution + 1e-12)) clamped to [0, voxels - 1].
// The grid has the largest voxel counts over the batch; a batch element with fewer voxels
// uses the corner at index 0 (its lower bound) and leaves the rest empty. The voxel counts
// are read on the host (the grid's shape depends on them).
// grid [..., X, Y, Z, 3 + F + 1]: per voxel the mean coordinate of its points, the mean of
// their features [..., N, F] (optional), and their count; empty voxels are 0. Differentiable
// in the coordinates' means and the features.
struct VoxelGrid {
  Array grid;           // [..., X, Y, Z, 3 + F + 1]
  Array dims;           // [..., 3] int64 voxels per axis of each batch element
  Array resolutions;    // [..., 3]
  Array lower_corners;  // [..., 3]
};
VoxelGrid coords_to_voxel_grid(const Array& coords, const Array& voxel_shape_spec, std::string_view mode = "DIMS",
                               const Array& coord_bounds = Array(), const Array& features = Array());

}  // namespace ivy::vision

// ivy::vision meshes: rasterizing image-space triangles and triangle meshes over pixel
// grids. See docs/vision-images.md.
#pragma once

#include <array>
#include <cstdint>

#include "ivy/ivy.hpp"

namespace ivy::vision {

// Rasterizes triangles [..., N, 3, 2] (vertex pixel coordinates (x, y)) or [..., N, 3, 3]
// ((x, y, depth)) into images of image_dims = {H, W}. Pixel (row i, col j) is sampled at its
// centre (j, i) and is covered by a triangle when its screen-space barycentrics
// (l0, l1, l2) are all >= 0 (edges included; either winding; degenerate triangles and, with
// depth, triangles with a vertex at depth <= 0 cover nothing). The pixel shows one triangle:
// the nearest (perspective-correct depth 1 / sum(l_k / z_k)) with depth, else the lowest
// index; ties go to the lowest index. Every pixel tests every triangle: O(H*W*N) memory.
struct Rasterization {
  Array mask;          // [..., H, W, 1] bool: covered
  Array triangle_ids;  // [..., H, W, 1] int64: the triangle shown, -1 where none
  Array barycentrics;  // [..., H, W, 3]: its screen-space barycentrics, 0 where none
  Array depth;         // [..., H, W, 1]: its interpolated depth, 0 where none (undefined for 2-d vertices)
};
Rasterization rasterize_triangles(const Array& pixel_coords_triangles, std::array<std::int64_t, 2> image_dims);

// Triangle indices [batch_shape..., 2*(H-1)*(W-1), 3] (int64) of a mesh over an H x W pixel
// grid with vertices numbered row-major (k = row * W + col). Quad by quad, row-major, each
// quad's two triangles (tl, bl, tr) and (tr, bl, br), both of one winding.
Array create_trimesh_indices_for_image(const Shape& batch_shape, std::array<std::int64_t, 2> image_dims,
                                       Backend backend = {}, Device device = {});

// A mesh from a coordinate image coord_img [..., H, W, C]: vertices [..., H*W, C] (the
// pixels, row-major), indices from create_trimesh_indices_for_image, and valid [..., T]
// (bool): a triangle is valid when its three vertices are valid in validity_mask
// [..., H, W, 1] or [..., H, W] (bool; undefined: all valid). Invalid triangles are flagged,
// not removed, so every batch element keeps the same number of triangles.
struct TriMesh {
  Array vertices, indices, valid;
};
TriMesh coord_image_to_trimesh(const Array& coord_img, const Array& validity_mask = Array());

}  // namespace ivy::vision

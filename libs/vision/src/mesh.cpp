// ivy::vision meshes (see include/ivy/vision/mesh.hpp). Rasterization evaluates the three
// edge functions of every triangle at every pixel centre ([B, H*W, N] arrays); the sign test
// uses the edge functions themselves (exact for integer vertices), the barycentrics divide
// them by the triangle's doubled signed area.
#include "ivy/vision/mesh.hpp"

#include <vector>

#include "image_detail.hpp"

namespace ivy::vision {

using namespace image_detail;

Rasterization rasterize_triangles(const Array& pixel_coords_triangles, std::array<std::int64_t, 2> image_dims) {
  const char* fn = "rasterize_triangles";
  const Array& t = pixel_coords_triangles;
  check_float(t, fn, "pixel_coords_triangles");
  if (t.ndim() < 3 || t.shape()[t.ndim() - 2] != 3 || (t.shape().back() != 2 && t.shape().back() != 3))
    throw ValueError(P(fn) + "pixel_coords_triangles must have shape [..., N, 3, 2] or [..., N, 3, 3], got shape " +
                     t.shape().str());
  const std::int64_t H = image_dims[0], W = image_dims[1];
  check_positive(H, fn, "image_dims[0]");
  check_positive(W, fn, "image_dims[1]");
  const bool with_depth = t.shape().back() == 3;
  const std::int64_t nb = t.ndim() - 3, N = t.shape()[nb];
  const Shape batch = sub(t.shape(), 0, nb);
  const std::int64_t B = batch.numel(), HW = H * W;
  const DType dt = t.dtype();
  Array v = reshape(t, Shape{B, 1, N, 3, t.shape().back()});
  auto comp = [&](int k, int c) { return v.index({Slice(), Slice(), Slice(), k, c}); };  // [B, 1, N]
  Array xs = arange(Scalar(std::int64_t{0}), Scalar(W), Scalar(std::int64_t{1}), dt, t.device(), t.backend());
  Array ys = arange(Scalar(std::int64_t{0}), Scalar(H), Scalar(std::int64_t{1}), dt, t.device(), t.backend());
  Array px = reshape(broadcast_to(reshape(xs, Shape{1, W}), Shape{H, W}), Shape{1, HW, 1});
  Array py = reshape(broadcast_to(reshape(ys, Shape{H, 1}), Shape{H, W}), Shape{1, HW, 1});
  Array x0 = comp(0, 0), y0 = comp(0, 1), x1 = comp(1, 0), y1 = comp(1, 1), x2 = comp(2, 0), y2 = comp(2, 1);
  // edge function of the directed edge a -> b at (qx, qy)
  auto edge = [](const Array& ax, const Array& ay, const Array& bx, const Array& by, const Array& qx, const Array& qy) {
    return (bx - ax) * (qy - ay) - (by - ay) * (qx - ax);
  };
  Array area = edge(x0, y0, x1, y1, x2, y2);  // [B, 1, N], twice the signed area
  Array e0 = edge(x1, y1, x2, y2, px, py), e1 = edge(x2, y2, x0, y0, px, py), e2 = edge(x0, y0, x1, y1, px, py);
  Array cov = logical_and(area != 0.0,
                          logical_and(logical_and(e0 * area >= 0.0, e1 * area >= 0.0), e2 * area >= 0.0));  // [B, HW, N]
  Array area_safe = where(area != 0.0, area, 1.0);
  Array l0 = e0 / area_safe, l1 = e1 / area_safe, l2 = e2 / area_safe;
  Array idx, z;
  if (with_depth) {
    Array z0 = comp(0, 2), z1 = comp(1, 2), z2 = comp(2, 2);
    Array front = logical_and(logical_and(z0 > 0.0, z1 > 0.0), z2 > 0.0);
    cov = logical_and(cov, front);
    auto safe = [&](const Array& zk) { return where(front, zk, 1.0); };
    Array inv = l0 / safe(z0) + l1 / safe(z1) + l2 / safe(z2);
    z = 1.0 / where(cov, inv, 1.0);
    idx = argmin(where(cov, z, inf), -1, true);  // the first of the nearest
  } else {
    idx = argmax(astype(cov, int32), -1, true);  // the first covering triangle
  }
  Array any_cov = any(cov, -1, true);  // [B, HW, 1]
  auto pick = [&](const Array& a) { return where(any_cov, take_along_axis(a, idx, -1), 0.0); };
  Rasterization r;
  const Shape img = cat(batch, Shape{H, W});
  r.mask = reshape(any_cov, cat(img, Shape{1}));
  r.triangle_ids = reshape(where(any_cov, idx, i64_scalar(-1, idx)), cat(img, Shape{1}));
  r.barycentrics = reshape(concat({pick(l0), pick(l1), pick(l2)}, -1), cat(img, Shape{3}));
  if (with_depth) r.depth = reshape(pick(z), cat(img, Shape{1}));
  return r;
}

Array create_trimesh_indices_for_image(const Shape& batch_shape, std::array<std::int64_t, 2> image_dims,
                                       Backend backend, Device device) {
  const char* fn = "create_trimesh_indices_for_image";
  const std::int64_t H = image_dims[0], W = image_dims[1];
  check_positive(H, fn, "image_dims[0]");
  check_positive(W, fn, "image_dims[1]");
  std::vector<std::int64_t> tri;
  for (std::int64_t r = 0; r + 1 < H; ++r)
    for (std::int64_t c = 0; c + 1 < W; ++c) {
      const std::int64_t tl = r * W + c, tr = tl + 1, bl = tl + W, br = bl + 1;
      tri.insert(tri.end(), {tl, bl, tr, tr, bl, br});
    }
  const std::int64_t T = static_cast<std::int64_t>(tri.size()) / 3;
  Array idx = asarray(tri, Shape{T, 3}, int64, device, backend);
  return broadcast_to(idx, cat(batch_shape, Shape{T, 3}));
}

TriMesh coord_image_to_trimesh(const Array& coord_img, const Array& validity_mask) {
  const char* fn = "coord_image_to_trimesh";
  check_image(coord_img, fn, "coord_img");
  const auto d = image_dims(coord_img);
  TriMesh m;
  m.vertices = reshape(coord_img, cat(d.batch, Shape{d.H * d.W, d.C}));
  m.indices = create_trimesh_indices_for_image(d.batch, {d.H, d.W}, coord_img.backend(), coord_img.device());
  const std::int64_t T = m.indices.shape()[m.indices.ndim() - 2];
  if (!validity_mask.defined()) {
    m.valid = full(cat(d.batch, Shape{T}), Scalar(true), bool_, coord_img.device(), coord_img.backend());
    return m;
  }
  check_same_backend(coord_img, validity_mask, fn, "coord_img", "validity_mask");
  const Shape hw = cat(d.batch, Shape{d.H, d.W});
  if (!(validity_mask.shape() == hw) && !(validity_mask.shape() == cat(hw, Shape{1})))
    throw ValueError(P(fn) + "validity_mask must have shape " + cat(hw, Shape{1}).str() + " or " + hw.str() + ", got " +
                     validity_mask.shape().str());
  Array mf = reshape(astype(validity_mask, bool_), Shape{d.B, d.H * d.W});
  Array tri = create_trimesh_indices_for_image({}, {d.H, d.W}, coord_img.backend(), coord_img.device());
  Array corners = reshape(take(mf, reshape(tri, Shape{T * 3}), 1), Shape{d.B, T, 3});
  m.valid = reshape(all(corners, -1), cat(d.batch, Shape{T}));
  return m;
}

}  // namespace ivy::vision

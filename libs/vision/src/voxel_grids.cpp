// ivy::vision voxel grids (see include/ivy/vision/voxel_grids.hpp): per-point voxel indices,
// then one scatter_add of [coords, features, 1] over the flattened batch of voxels (plus a
// dump slot for dropped points), divided by the counts.
#include "ivy/vision/voxel_grids.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "image_detail.hpp"
#include "ivy/nn_conv.hpp"

namespace ivy::vision {

using namespace image_detail;

namespace {
// spec [n] or [..., n] -> [B, n] (broadcast over the batch)
Array per_batch(const Array& a, const Shape& batch, std::int64_t n, const char* fn, const char* what) {
  const std::int64_t B = batch.numel();
  if (a.ndim() == 1 && a.shape()[0] == n) return broadcast_to(reshape(a, Shape{1, n}), Shape{B, n});
  if (a.shape() == cat(batch, Shape{n})) return reshape(a, Shape{B, n});
  throw ValueError(P(fn) + what + " must have shape [" + std::to_string(n) + "] or " + cat(batch, Shape{n}).str() +
                   ", got shape " + a.shape().str());
}
}  // namespace

VoxelGrid coords_to_voxel_grid(const Array& coords, const Array& voxel_shape_spec, std::string_view mode,
                               const Array& coord_bounds, const Array& features) {
  const char* fn = "coords_to_voxel_grid";
  check_float(coords, fn, "coords");
  if (coords.ndim() < 2 || (coords.shape().back() != 3 && coords.shape().back() != 4))
    throw ValueError(P(fn) + "coords must have shape [..., N, 3] or [..., N, 4], got shape " + coords.shape().str());
  if (mode != "DIMS" && mode != "RES")
    throw ValueError(P(fn) + "mode must be \"DIMS\" or \"RES\", got \"" + std::string(mode) + "\"");
  check_defined(voxel_shape_spec, fn, "voxel_shape_spec");
  check_same_backend(coords, voxel_shape_spec, fn, "coords", "voxel_shape_spec");
  const std::int64_t nb = coords.ndim() - 2, N = coords.shape()[nb];
  const Shape batch = sub(coords.shape(), 0, nb);
  const std::int64_t B = batch.numel();
  const DType dt = features.defined() ? result_type(coords, features) : coords.dtype();
  Array p = astype(reshape(coords.index({Ellipsis, Slice(0, 3)}), Shape{B, N, 3}), dt);
  Array fin = all(isfinite(p), -1);  // [B, N]

  // the box per batch element, [B, 3] each
  Array lower, upper, valid = fin;
  if (coord_bounds.defined()) {
    check_float(coord_bounds, fn, "coord_bounds");
    check_same_backend(coords, coord_bounds, fn, "coords", "coord_bounds");
    Array cb = astype(per_batch(coord_bounds, batch, 6, fn, "coord_bounds"), dt);
    lower = cb.index({Slice(), Slice(0, 3)}), upper = cb.index({Slice(), Slice(3, 6)});
    Array inside = all(logical_and(p >= expand_dims(lower, 1), p <= expand_dims(upper, 1)), -1);
    valid = logical_and(valid, inside);
  } else {
    if (N == 0) throw ValueError(P(fn) + "needs points or coord_bounds to place the grid, got " + coords.shape().str());
    lower = min(where(expand_dims(fin, -1), p, inf), 1);
    upper = max(where(expand_dims(fin, -1), p, -inf), 1);
    lower = where(isfinite(lower), lower, 0.0), upper = where(isfinite(upper), upper, 0.0);  // no finite point
  }
  Array extent = upper - lower;

  // voxels per axis [B, 3], on the host too
  Array spec = per_batch(voxel_shape_spec, batch, 3, fn, "voxel_shape_spec");
  Array dims;
  if (mode == "DIMS") {
    Array s = astype(spec, float64);
    if (!all(logical_and(s >= 1.0, s == floor(s))).item<bool>())
      throw ValueError(P(fn) + "in mode DIMS voxel_shape_spec must hold positive integers");
    dims = astype(s, int64);
  } else {
    check_float(voxel_shape_spec, fn, "voxel_shape_spec");
    if (!all(spec > 0.0).item<bool>()) throw ValueError(P(fn) + "in mode RES voxel_shape_spec must be positive");
    dims = maximum(astype(ceil(stop_gradient(extent) / (astype(spec, dt) + kMinDen)), int64), i64_scalar(1, extent));
  }
  const auto hd = dims.to_vector<std::int64_t>();
  std::int64_t X = 1, Y = 1, Z = 1;
  for (std::int64_t b = 0; b < B; ++b) {
    X = std::max(X, hd[3 * b]), Y = std::max(Y, hd[3 * b + 1]), Z = std::max(Z, hd[3 * b + 2]);
  }
  Array res = extent / astype(dims, dt);

  // voxel index of each point, clamped into its batch element's grid
  Array idx = floor((p - expand_dims(lower, 1)) / (expand_dims(res, 1) + kMinDen));
  idx = where(expand_dims(valid, -1), idx, 0.0);
  Array vi = minimum(maximum(astype(idx, int64), i64_scalar(0, dims)), expand_dims(dims - std::int64_t{1}, 1));  // [B, N, 3]
  const std::int64_t V = X * Y * Z, slots = B * V;
  Array lin = expand_dims(i64_arange(B, vi) * V, -1) + vi.index({Ellipsis, 0}) * (Y * Z) + vi.index({Ellipsis, 1}) * Z +
              vi.index({Ellipsis, 2});
  lin = reshape(where(valid, lin, i64_scalar(slots, lin)), Shape{B * N});

  std::vector<Array> parts{reshape(p, Shape{B * N, 3})};
  std::int64_t F = 0;
  if (features.defined()) {
    check_float(features, fn, "features");
    check_same_backend(coords, features, fn, "coords", "features");
    if (features.ndim() != coords.ndim() || !(sub(features.shape(), 0, nb + 1) == sub(coords.shape(), 0, nb + 1)))
      throw ValueError(P(fn) + "features must have shape [..., N, F] with the leading dims of coords " +
                       coords.shape().str() + ", got " + features.shape().str());
    F = features.shape().back();
    parts.push_back(astype(reshape(features, Shape{B * N, F}), dt));
  }
  // dropped points keep finite values (their slot is discarded)
  parts[0] = where(reshape(expand_dims(fin, -1), Shape{B * N, 1}), parts[0], 0.0);
  parts.push_back(ones(Shape{B * N, 1}, dt, p.device(), p.backend()));
  Array vals = concat(parts, -1);
  const std::int64_t K = 3 + F + 1;
  Array pos = reshape(expand_dims(lin, -1) * K + expand_dims(i64_arange(K, lin), 0), Shape{B * N * K});
  Array acc = nn::scatter_add_flat(zeros(Shape{(slots + 1) * K}, dt, p.device(), p.backend()), pos, reshape(vals, Shape{B * N * K}));
  acc = reshape(acc, Shape{slots + 1, K}).index({Slice(None, slots)});
  Array cnt = acc.index({Slice(), Slice(K - 1, K)});
  Array grid = concat({acc.index({Slice(), Slice(None, K - 1)}) / maximum(cnt, 1.0), cnt}, -1);

  VoxelGrid r;
  r.grid = reshape(grid, cat(batch, Shape{X, Y, Z, K}));
  r.dims = reshape(dims, cat(batch, Shape{3}));
  r.resolutions = reshape(res, cat(batch, Shape{3}));
  r.lower_corners = reshape(lower, cat(batch, Shape{3}));
  return r;
}

}  // namespace ivy::vision

// VJP rules of the structural primitives: creation of triangles (tril, triu), manipulation
// (reshape ... concat), indexing (strided_slice ... index_put_flat), sort, the reductions
// (sum ... std), the cumulative sums and products, and diagonal.
//
// Complex inputs: as in rules_elementwise.cpp, the cotangent of z = x + iy is dL/dx + i dL/dy,
// so a holomorphic map with derivative d sends g to g * conj(d) (prod, cumulative_prod), and
// var/std send g * 2 (x - mean) / (N - correction) (no conj). Linear rearrangements (every
// manipulation and indexing rule, sum, mean) move g unchanged.
//
// Scatter-adds (the VJPs of take, take_along_axis and repeat with per-element counts) are
// segment sums: sort the target ids, an exact segmented doubling scan over each run of equal
// ids, then the last element of each run (see segment_sum). No rule reads array data on the
// host: every rule is ivy code on the arrays' backend, recorded by enclosing tapes.
#include <algorithm>

#include "autodiff/rule_helpers.hpp"
#include "autodiff/rules.hpp"

namespace ivy::autodiff {
namespace {

// arange(n) as int64 on a's backend and device.
Array iota(std::int64_t n, const Array& a) {
  return arange(Scalar(std::int64_t{0}), Scalar(n), Scalar(std::int64_t{1}), int64, a.device(), a.backend());
}

Shape ones_shape(std::int64_t rank) {
  Shape s;
  s.resize(static_cast<std::size_t>(rank), 1);
  return s;
}

// sum_{j >= i} a_j along `axis`.
Array rev_cumsum(const Array& a, std::int64_t axis) {
  return flip(cumulative_sum(flip(a, AxisArg(axis)), axis), AxisArg(axis));
}

// Indices of any integer dtype as int64 with negative entries counted from the end of an axis
// of length n (the kernels' rule), flattened.
Array norm_index(const Array& idx, std::int64_t n) {
  Array i = astype(idx, int64, false);
  i = where(less(i, Scalar(std::int64_t{0})), add(i, Scalar(n)), i);
  return reshape(i, Shape{i.size()});
}

// Segment sum along `axis`: G's slices along axis (m >= 1 of them) carry the ids seg (1-d
// int64, ascending, values in [0, n)); runs of equal ids are at most max_run long. Result: G's
// shape with axis of length n, entry k the sum of the slices with id k (0 for none).
// An inclusive segmented scan by doubling (Hillis-Steele: step s adds the partial sum s slices
// back when that slice has the same id; ids are sorted, so everything between does too),
// then each run's last partial sum. Exact summation (no prefix-sum differences, so no
// cancellation, and a NaN or inf stays in its own segment); log2(max_run) passes over G.
Array segment_sum(Array G, const Array& seg, std::int64_t n, std::int64_t axis, std::int64_t max_run) {
  const std::int64_t m = G.shape()[static_cast<std::size_t>(axis)];
  const std::int64_t run = std::min(m, max_run);
  for (std::int64_t s = 1; s < run; s *= 2) {
    Shape bs = ones_shape(G.ndim());
    bs[static_cast<std::size_t>(axis)] = m - s;
    Array same = reshape(equal(slice_axis(seg, 0, s, m), slice_axis(seg, 0, 0, m - s)), bs);
    Array tail = add(slice_axis(G, axis, s, m), where(same, slice_axis(G, axis, 0, m - s), Scalar(0)));
    G = concat({slice_axis(G, axis, 0, s), tail}, axis);
  }
  Array q = iota(n, seg);
  Array lo = searchsorted(seg, q, "left"), hi = searchsorted(seg, q, "right");
  Array last = take(G, maximum(subtract(hi, Scalar(std::int64_t{1})), Scalar(std::int64_t{0})), axis);
  Shape bn = ones_shape(G.ndim());
  bn[static_cast<std::size_t>(axis)] = n;
  return where(reshape(greater(hi, lo), bn), last, Scalar(0));
}

}  // namespace

// ---------------------------------------------------------------- triangles

// tril/triu are linear masks: the same mask on g.
IVY_VJP_READS(tril, kReadsNone, kReadsNone, false) {
  if (c.want[0] && c.cot[0].defined()) grads[0] = tril(c.cot[0], c.attrs.get<attr::triangle>().k);
}
IVY_VJP_READS(triu, kReadsNone, kReadsNone, false) {
  if (c.want[0] && c.cot[0].defined()) grads[0] = triu(c.cot[0], c.attrs.get<attr::triangle>().k);
}

// ---------------------------------------------------------------- manipulation

IVY_VJP_READS(reshape, kReadsNone, kReadsNone) {
  if (c.want[0] && c.cot[0].defined()) grads[0] = reshape(c.cot[0], c.in[0].shape());
}
// permute_dims by the inverse permutation
IVY_VJP_READS(permute_dims, kReadsNone, kReadsNone, false) {
  if (!c.want[0] || !c.cot[0].defined()) return;
  const auto& p = c.attrs.get<attr::permute_dims>();
  Dims inv;
  inv.resize(p.axes.size());
  for (std::size_t i = 0; i < p.axes.size(); ++i) inv[static_cast<std::size_t>(p.axes[i])] = static_cast<std::int64_t>(i);
  grads[0] = permute_dims(c.cot[0], inv);
}
// the tape sums g over the broadcast axes
IVY_VJP_READS(broadcast_to, kReadsNone, kReadsNone, false) {
  if (c.want[0] && c.cot[0].defined()) grads[0] = c.cot[0];
}
// flip is its own inverse: the same flip of g
IVY_VJP_READS(flip, kReadsNone, kReadsNone, false) {
  if (c.want[0] && c.cot[0].defined()) grads[0] = dispatch(OpId::flip, c.cot[0], c.attrs);
}
// roll of g by the negated shifts (same axes; the flattened roll when it has none)
IVY_VJP_READS(roll, kReadsNone, kReadsNone, false) {
  if (!c.want[0] || !c.cot[0].defined()) return;
  attr::roll w = c.attrs.get<attr::roll>();
  for (auto& s : w.shifts) s = -s;
  grads[0] = dispatch(OpId::roll, c.cot[0], w);
}
// repeat: every input element gets the sum of its copies. One count r for all: g viewed as
// (pre, len, r, post) summed over r; per-element counts: a segment sum over the source index
// of each output element (repeat of arange; zero counts give 0).
IVY_VJP_READS(repeat, kReadsNone, kReadsNone) {
  if (!c.want[0] || !c.cot[0].defined()) return;
  const auto& p = c.attrs.get<attr::repeat>();
  const Array& x = c.in[0];
  const Array& g = c.cot[0];
  if (x.size() == 0) return;
  const bool flat = !p.axis || x.ndim() == 0;
  const std::int64_t ax = flat ? 0 : *p.axis;
  const Shape w = flat ? Shape{x.size()} : x.shape();
  const std::int64_t len = w[static_cast<std::size_t>(ax)];
  std::int64_t pre = 1, post = 1;
  for (std::int64_t d = 0; d < ax; ++d) pre *= w[static_cast<std::size_t>(d)];
  for (std::int64_t d = ax + 1; d < static_cast<std::int64_t>(w.size()); ++d) post *= w[static_cast<std::size_t>(d)];
  const bool uniform =
      std::all_of(p.repeats.begin(), p.repeats.end(), [&](std::int64_t r) { return r == p.repeats[0]; });
  Array r;
  if (uniform) {
    r = sum(reshape(g, Shape{pre, len, p.repeats[0], post}), 2);
  } else {
    attr::repeat v;
    v.repeats = p.repeats;
    v.axis = 0;
    Array seg = dispatch(OpId::repeat, iota(len, g), v);  // (total,): the source of each output
    const std::int64_t total = seg.size();
    if (total == 0) return;
    r = segment_sum(reshape(g, Shape{pre, total, post}), seg, len, 1,
                    *std::max_element(p.repeats.begin(), p.repeats.end()));
  }
  grads[0] = reshape(r, x.shape());
}
// tile: g is (r0*d0, r1*d1, ...) over x padded to the result's rank; view it as
// (r0, d0, r1, d1, ...) and sum the rep axes (one axis at a time past the rank limit).
IVY_VJP_READS(tile, kReadsNone, kReadsNone) {
  if (!c.want[0] || !c.cot[0].defined()) return;
  const Array& x = c.in[0];
  if (x.size() == 0) return;
  const Dims& reps = c.attrs.get<attr::tile>().reps;
  const Shape& xs = x.shape();
  const std::size_t rank = std::max(xs.size(), reps.size());
  Shape d, k;
  for (std::size_t i = 0; i < rank; ++i) {
    d.push_back(i < rank - xs.size() ? 1 : xs[i - (rank - xs.size())]);
    k.push_back(i < rank - reps.size() ? 1 : reps[i - (rank - reps.size())]);
  }
  Array r = c.cot[0];
  std::size_t split = 0;
  for (std::size_t i = 0; i < rank; ++i) split += k[i] != 1;
  if (split == 0) {
  } else if (rank + split <= static_cast<std::size_t>(kMaxRank)) {
    Shape s;
    Dims sum_axes;
    for (std::size_t i = 0; i < rank; ++i) {
      if (k[i] != 1) {
        sum_axes.push_back(static_cast<std::int64_t>(s.size()));
        s.push_back(k[i]);
      }
      s.push_back(d[i]);
    }
    r = sum(reshape(r, s), AxisArg(sum_axes));
  } else {
    Shape cur = r.shape();
    for (std::size_t i = 0; i < rank; ++i) {
      if (k[i] == 1) continue;
      std::int64_t pre = 1, post = 1;
      for (std::size_t j = 0; j < i; ++j) pre *= cur[j];
      for (std::size_t j = i + 1; j < rank; ++j) post *= cur[j];
      r = sum(reshape(r, Shape{pre, k[i], d[i], post}), 1);
      cur[i] = d[i];
      r = reshape(r, cur);
    }
  }
  grads[0] = reshape(r, xs);
}
// concat: each input gets its extent of g along the axis
IVY_VJP_READS(concat, kReadsNone, kReadsNone) {
  if (!c.cot[0].defined()) return;
  const std::int64_t ax = c.attrs.get<attr::one_axis>().axis;
  std::int64_t off = 0;
  for (std::size_t i = 0; i < c.in.size(); ++i) {
    const std::int64_t len = c.in[i].shape()[static_cast<std::size_t>(ax)];
    if (c.want[i]) grads[i] = slice_axis(c.cot[0], ax, off, off + len);
    off += len;
  }
}

// ---------------------------------------------------------------- indexing

// strided_slice: zeros of x's shape with g written into the slice
IVY_VJP_READS(strided_slice, kReadsNone, kReadsNone) {
  if (!c.want[0] || !c.cot[0].defined()) return;
  const Array& g = c.cot[0];
  grads[0] = dispatch(OpId::slice_update, {zeros_like(c.in[0], g.dtype()), g}, c.attrs);
}
// slice_update(x, v): x gets g with the slice zeroed, v gets the slice of g (the tape sums
// it down to v's shape)
IVY_VJP_READS(slice_update, kReadsNone, kReadsNone) {
  if (!c.cot[0].defined()) return;
  const Array& g = c.cot[0];
  if (c.want[0]) grads[0] = dispatch(OpId::slice_update, {g, zero_like0(g)}, c.attrs);
  if (c.want[1]) grads[1] = dispatch(OpId::strided_slice, g, c.attrs);
}
// take(x, idx, axis): scatter-add of g along the axis, gx[.., k, ..] = sum over j with
// idx[j] == k of g[.., j, ..]: a segment sum over the sorted indices (repeats accumulate).
IVY_VJP_READS(take, kReadsSecond, kReadsNone) {
  if (!c.want[0] || !c.cot[0].defined()) return;
  const Array& x = c.in[0];
  const Array& idx = c.in[1];
  const std::int64_t ax = c.attrs.get<attr::one_axis>().axis;
  const std::int64_t n = x.shape()[static_cast<std::size_t>(ax)], m = idx.size();
  if (m == 0 || x.size() == 0 || c.cot[0].size() == 0) return;
  Shape gs;
  for (std::int64_t d = 0; d < ax; ++d) gs.push_back(x.shape()[static_cast<std::size_t>(d)]);
  gs.push_back(m);
  for (std::int64_t d = ax + 1; d < x.ndim(); ++d) gs.push_back(x.shape()[static_cast<std::size_t>(d)]);
  Array i = norm_index(idx, n);
  Array perm = argsort(i, 0);
  grads[0] = segment_sum(take(reshape(c.cot[0], gs), perm, ax), take(i, perm, 0), n, ax, m);
}
// take_along_axis(x, idx, axis): the same scatter-add per lane. Each element of g goes to the
// flat position (o * n + idx) * inner + t of x broadcast to the result's shape with the axis of
// length n (the tape sums that down to x); a segment sum over those positions, sorted.
IVY_VJP_READS(take_along_axis, kReadsSecond, kReadsNone) {
  if (!c.want[0] || !c.cot[0].defined()) return;
  const Array& x = c.in[0];
  const std::int64_t ax = c.attrs.get<attr::one_axis>().axis;
  const Shape& os = c.out[0].shape();
  const std::int64_t n = x.shape()[static_cast<std::size_t>(ax)], mo = os[static_cast<std::size_t>(ax)];
  const std::int64_t total = os.numel();
  if (total == 0 || n == 0) return;
  std::int64_t outer = 1, inner = 1;
  for (std::int64_t d = 0; d < ax; ++d) outer *= os[static_cast<std::size_t>(d)];
  for (std::int64_t d = ax + 1; d < static_cast<std::int64_t>(os.size()); ++d) inner *= os[static_cast<std::size_t>(d)];
  Shape xb = os;
  xb[static_cast<std::size_t>(ax)] = n;
  Array i = reshape(broadcast_to(reshape(norm_index(c.in[1], n), c.in[1].shape()), os), Shape{outer, mo, inner});
  Array base = add(reshape(multiply(iota(outer, i), Scalar(n * inner)), Shape{outer, 1, 1}),
                   reshape(iota(inner, i), Shape{1, 1, inner}));
  Array key = reshape(add(base, multiply(i, Scalar(inner))), Shape{total});
  Array perm = argsort(key, 0);
  Array r = segment_sum(take(reshape(c.cot[0], Shape{total}), perm, 0), take(key, perm, 0), outer * n * inner, 0, mo);
  grads[0] = reshape(r, xb);
}
// index_put_flat(x, pos, v): x gets g with the written positions zeroed; v[j] gets g at pos[j]
// when its write is the one that landed (a repeated position keeps one write: which one is
// found by writing the ids 1..m the same way, as JAX does for scatter).
IVY_VJP_READS(index_put_flat, kReadsSecond, kReadsNone) {
  if (!c.cot[0].defined()) return;
  const Array& g = c.cot[0];
  const Array& pos = c.in[1];
  if (c.want[0]) grads[0] = dispatch(OpId::index_put_flat, {g, pos, zero_like0(g)}, c.attrs);
  const std::int64_t m = pos.size(), n = g.size();
  if (c.want[2] && m > 0) {
    Array ids = add(iota(m, g), Scalar(std::int64_t{1}));
    Array won = dispatch(OpId::index_put_flat, {zeros(Shape{n}, int64, g.device(), g.backend()), pos, ids}, c.attrs);
    grads[2] = where(equal(take(won, pos, 0), ids), take(reshape(g, Shape{n}), pos, 0), Scalar(0));
  }
}

// ---------------------------------------------------------------- sort

// sort: g goes back through the sorting permutation, gx = take_along_axis(g, argsort(perm))
// with perm the (stable) argsort of x in the same direction.
IVY_VJP_READS(sort, kReadsAll, kReadsNone) {
  if (!c.want[0] || !c.cot[0].defined()) return;
  const auto& p = c.attrs.get<attr::sort>();
  Array perm = argsort(c.in[0], p.axis, p.descending, true);
  grads[0] = take_along_axis(c.cot[0], argsort(perm, p.axis), p.axis);
}

// ---------------------------------------------------------------- reductions

// sum: g broadcast back over the reduced axes
IVY_VJP_READS(sum, kReadsNone, kReadsNone) {
  if (!c.want[0] || !c.cot[0].defined()) return;
  const auto& p = c.attrs.get<attr::reduce_acc>();
  grads[0] = expand_reduced(c.cot[0], c.in[0], p.axes);
}
// mean: g / N broadcast back (N: the elements per output element)
IVY_VJP_READS(mean, kReadsNone, kReadsNone) {
  if (!c.want[0] || !c.cot[0].defined()) return;
  const auto& p = c.attrs.get<attr::reduce>();
  const Array& x = c.in[0];
  if (x.size() == 0) return;
  const auto n = static_cast<double>(reduced_count(x, p.axes));
  grads[0] = divide(expand_reduced(c.cot[0], x, p.axes), Scalar(n));
}
// prod: g * conj(product of the other elements of the reduced block), exact with zeros: the
// reduced axes moved last and merged, exclusive cumulative products from both sides.
IVY_VJP_READS(prod, kReadsAll, kReadsNone) {
  if (!c.want[0] || !c.cot[0].defined()) return;
  const auto& p = c.attrs.get<attr::reduce_acc>();
  const Array& x = c.in[0];
  if (x.size() == 0) return;
  Array others = product_of_others(x, p.axes);
  grads[0] = multiply(expand_reduced(c.cot[0], x, p.axes), cj(others));
}
namespace {
// max/min: g split evenly among the elements equal to the extremum (JAX): g * mask / count
// (NaN for a block whose extremum is NaN: no element equals it, 0 / 0).
void extremum_vjp(const VjpCall& c, std::span<Array> grads) {
  if (!c.want[0] || !c.cot[0].defined()) return;
  const auto& p = c.attrs.get<attr::reduce>();
  const Array& x = c.in[0];
  const Array& g = c.cot[0];
  if (x.size() == 0) return;
  Array mask = astype(equal(x, expand_reduced(c.out[0], x, p.axes)), g.dtype());
  Array count = sum(mask, axis_arg(p.axes), std::nullopt, true);
  grads[0] = divide(multiply(expand_reduced(g, x, p.axes), mask), count);
}
// var's cotangent: g * 2 (x - mean) / (N - correction), g broadcast back
Array var_cot(const VjpCall& c, const Array& g) {
  const auto& p = c.attrs.get<attr::reduce_var>();
  const Array& x = c.in[0];
  const auto n = static_cast<double>(reduced_count(x, p.axes));
  Array centered = subtract(x, mean(x, axis_arg(p.axes), true));
  return divide(multiply(multiply(expand_reduced(g, x, p.axes), centered), Scalar(2.0)),
                Scalar(n - p.correction));
}
}  // namespace
IVY_VJP_READS(max, kReadsAll, kReadsAll) { extremum_vjp(c, grads); }
IVY_VJP_READS(min, kReadsAll, kReadsAll) { extremum_vjp(c, grads); }
IVY_VJP_READS(var, kReadsAll, kReadsNone) {
  if (!c.want[0] || !c.cot[0].defined() || c.in[0].size() == 0) return;
  grads[0] = var_cot(c, c.cot[0]);
}
// std = sqrt(var): var's rule applied to g / (2 std). Where std == 0 this is 0 * inf = NaN,
// as JAX gives (PyTorch gives 0).
IVY_VJP_READS(std, kReadsAll, kReadsAll) {
  if (!c.want[0] || !c.cot[0].defined() || c.in[0].size() == 0) return;
  grads[0] = var_cot(c, divide(c.cot[0], multiply(c.out[0], Scalar(2.0))));
}

// ---------------------------------------------------------------- cumulative

// cumulative_sum: the reverse cumulative sum of g (without the initial slot's cotangent when
// include_initial: that slot is the constant 0)
IVY_VJP_READS(cumulative_sum, kReadsNone, kReadsNone) {
  if (!c.want[0] || !c.cot[0].defined()) return;
  const auto& p = c.attrs.get<attr::cumulative>();
  Array g = c.cot[0];
  const std::int64_t len = g.shape()[static_cast<std::size_t>(p.axis)];
  if (p.include_initial) g = slice_axis(g, p.axis, 1, len);
  grads[0] = reshape(rev_cumsum(g, p.axis), c.in[0].shape());
}
// cumulative_prod: y_j = prod_{k<=j} x_k, gx_i = sum_{j>=i} g_j conj(prod_{k<=j, k!=i} x_k).
// With z the first zero of a lane: for i < z that is revcumsum(g conj(y))_i / conj(x_i);
// for i = z it is revcumsum(g conj(y'))_z with y' the cumulative product of x with x_z
// replaced by 1; for i > z it is 0 (the product holds x_z). (PyTorch's approach; the divisor
// is made 1 where unused, so the rule's own derivatives stay finite.)
IVY_VJP_READS(cumulative_prod, kReadsAll, kReadsAll) {
  if (!c.want[0] || !c.cot[0].defined()) return;
  const auto& p = c.attrs.get<attr::cumulative>();
  const std::int64_t ax = p.axis;
  Array x = c.in[0].ndim() == 0 ? reshape(c.in[0], Shape{1}) : c.in[0];
  if (x.size() == 0) return;
  Array y = c.out[0], g = c.cot[0];
  if (x.dtype() != y.dtype()) x = astype(x, y.dtype());
  if (p.include_initial) {
    const std::int64_t len = y.shape()[static_cast<std::size_t>(ax)];
    y = slice_axis(y, ax, 1, len);
    g = slice_axis(g, ax, 1, len);
  }
  Array is_zero = equal(x, Scalar(0));
  Array zeros_so_far = cumulative_sum(astype(is_zero, int64), ax);
  Array before = equal(zeros_so_far, Scalar(std::int64_t{0}));
  Array first = logical_and(is_zero, equal(zeros_so_far, Scalar(std::int64_t{1})));
  Array divisor = where(before, x, Scalar(1));
  Array y1 = cumulative_prod(where(first, Scalar(1), x), ax);
  Array a = divide(rev_cumsum(multiply(g, cj(y)), ax), cj(divisor));
  Array b = rev_cumsum(multiply(g, cj(y1)), ax);
  grads[0] = reshape(where(before, a, where(first, b, Scalar(0))), c.in[0].shape());
}

// ---------------------------------------------------------------- diagonal

// diagonal(offset): g written on that diagonal of zeros of x's shape. In the flattened matrix
// (R*C) the diagonal is the slice start::C+1 with start = offset (>= 0) or -offset * C.
IVY_VJP_READS(diagonal, kReadsNone, kReadsNone) {
  if (!c.want[0] || !c.cot[0].defined()) return;
  const Array& x = c.in[0];
  const Array& g = c.cot[0];
  if (g.size() == 0) return;
  const std::int64_t off = c.attrs.get<attr::diagonal>().offset;
  const Shape& xs = x.shape();
  const std::int64_t rows = xs[xs.size() - 2], cols = xs.back(), len = g.shape().back();
  const std::int64_t start = off >= 0 ? off : -off * cols, step = cols + 1;
  Shape fs;
  attr::slice w;
  for (std::size_t d = 0; d + 2 < xs.size(); ++d) {
    fs.push_back(xs[d]);
    w.start.push_back(0);
    w.stop.push_back(xs[d]);
    w.step.push_back(1);
  }
  fs.push_back(rows * cols);
  w.start.push_back(start);
  w.stop.push_back(start + (len - 1) * step + 1);
  w.step.push_back(step);
  Array flat = dispatch(OpId::slice_update, {zeros(fs, g.dtype(), g.device(), g.backend()), g}, w);
  grads[0] = reshape(flat, xs);
}

}  // namespace ivy::autodiff

// The ONNX operators that create, reshape, index, scatter, reduce and sort tensors, written
// with ivy's public API only. Shapes, axes and other small integer inputs are read on the host
// (int_values); everything else stays on the input's backend.
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>
#include <unordered_map>
#include <vector>

#include "ivy/nn_conv.hpp"  // nn::scatter_add_flat (scatter reduction "add")
#include "onnx_ops.hpp"

namespace ivy::onnx::detail {

namespace {

using I64 = std::int64_t;
using Ints = std::vector<I64>;
using Arrays = std::vector<Array>;

// ---------------------------------------------------------------- helpers

// Input k, or an undefined Array when the node leaves it out.
Array input(const Arrays& in, std::size_t k) { return k < in.size() ? in[k] : Array(); }

std::string str(const Ints& v) {
  std::string s = "[";
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

Shape to_shape(const Ints& v) { return Shape(v.begin(), v.end()); }

// The product of dims [a, b) of s.
I64 prod_of(const Shape& s, std::size_t a, std::size_t b) {
  I64 p = 1;
  for (std::size_t i = a; i < b; ++i) p *= s[i];
  return p;
}

// Row-major strides of the first k dims of s, counted within those dims.
Ints strides_of(const Shape& s, std::size_t k) {
  Ints st(k, 1);
  for (std::size_t i = k; i-- > 1;) st[i - 1] = st[i] * s[i];
  return st;
}

// An axis of an array of rank r (negative counts from the end); it must exist.
I64 axis_of(const NodeInfo& n, I64 axis, I64 r) {
  I64 d = norm_axis(n, axis, r);
  if (d >= r) n.fail("axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(r));
  return d;
}

// Axes normalized against rank r, each at most once.
Ints axes_of(const NodeInfo& n, const Ints& axes, I64 r) {
  Ints out;
  for (I64 a : axes) {
    I64 d = axis_of(n, a, r);
    if (std::find(out.begin(), out.end(), d) != out.end())
      n.fail("axis " + std::to_string(a) + " is repeated in " + str(axes));
    out.push_back(d);
  }
  return out;
}

// The one value of a single-element integer input.
I64 one_int(const NodeInfo& n, const Array& a, const char* what) {
  Ints v = int_values(n, a, what);
  if (v.size() != 1) n.fail(std::string(what) + " must hold one value, got " + std::to_string(v.size()));
  return v[0];
}

// 0, 1, ..., count-1 as int64 on like's backend.
Array arange_i64(I64 count, const Array& like) {
  return arange(Scalar(I64{0}), Scalar(count), Scalar(I64{1}), int64, like.device(), like.backend());
}

// An int64 scalar on like's backend.
Array scalar_i64(I64 v, const Array& like) { return full(Shape{}, Scalar(v), int64, like.device(), like.backend()); }

// x[..., b:e:step] on one axis (Python's slice rules; nullopt = open end).
Array slice_axis(const Array& x, I64 axis, std::optional<I64> b, std::optional<I64> e, I64 step = 1) {
  std::vector<Index> ix(static_cast<std::size_t>(axis), Index(Slice()));
  ix.emplace_back(Slice(b, e, step));
  return x.index(ix);
}

// Integer indices as int64, negative ones counted back from len (an int64 array that
// broadcasts against them); any index outside [-len, len) fails.
Array norm_index(const NodeInfo& n, const Array& idx, const Array& len, const char* what) {
  if (!is_integer(idx.dtype())) n.fail(std::string(what) + " must be integers, got " + dtype_name(idx.dtype()));
  Array i = astype(idx, int64, false);
  i = where(i < 0, i + len, i);
  if (i.size() > 0 && any(logical_or(i < 0, i >= len)).item<bool>())
    n.fail(std::string(what) + " hold values out of range for the indexed dims");
  return i;
}

// A host scalar of dtype dt's kind with s's value.
Scalar scalar_as(DType dt, const Scalar& s) {
  if (is_bool(dt)) return Scalar(s.b);
  if (is_integer(dt)) return s.kind == Scalar::Int ? s : Scalar(s.i);  // an Int keeps uint64 values
  if (is_complex(dt)) return Scalar(s.c);
  return Scalar(s.d);
}

// ---------------------------------------------------------------- constants and shapes

std::vector<Array> op_constant(const NodeInfo& n, const Arrays& in) {
  need_inputs(n, in, 0, 0);
  if (n.has("value")) return {n.tensor("value")};
  if (n.has("value_float")) return {full(Shape{}, Scalar(n.f("value_float", 0.0)), float32)};
  if (n.has("value_floats")) {
    std::vector<double> v = n.floats("value_floats", {});
    return {asarray(std::vector<float>(v.begin(), v.end()))};
  }
  if (n.has("value_int")) return {full(Shape{}, Scalar(n.i("value_int")), int64)};
  if (n.has("value_ints")) return {asarray(n.ints("value_ints"))};
  if (n.has("value_string") || n.has("value_strings")) n.unsupported("string constants (ivy has no string dtype)");
  if (n.has("sparse_value")) n.unsupported("sparse constants");
  n.fail("needs one of the attributes value, value_float(s), value_int(s)");
}

std::vector<Array> op_constant_of_shape(const NodeInfo& n, const Arrays& in) {
  need_inputs(n, in, 1, 1);
  Ints dims = int_values(n, in[0], "shape");
  for (I64 d : dims)
    if (d < 0) n.fail("shape " + str(dims) + " has a negative dim");
  Array v = n.has("value") ? n.tensor("value") : Array();
  if (v.defined() && v.size() != 1) n.fail("attribute 'value' must hold one element, got shape " + v.shape().str());
  const DType dt = v.defined() ? v.dtype() : float32;
  const Scalar fill = v.defined() ? v.item_scalar() : Scalar(0.0);
  return {full(to_shape(dims), scalar_as(dt, fill), dt, in[0].device(), in[0].backend())};
}

std::vector<Array> op_shape(const NodeInfo& n, const Arrays& in) {
  need_inputs(n, in, 1, 1);
  const Array& x = in[0];
  const I64 r = x.ndim();
  I64 s = 0, e = r;
  if (n.since >= 15) {  // start/end: negative from the end, then clamped to [0, r]
    s = n.i("start", 0);
    e = n.i("end", r);
    if (s < 0) s += r;
    if (e < 0) e += r;
    s = std::clamp<I64>(s, 0, r);
    e = std::clamp<I64>(e, 0, r);
  }
  Ints v;
  for (I64 i = s; i < e; ++i) v.push_back(x.shape()[static_cast<std::size_t>(i)]);
  return {int64_array(v, x)};
}

std::vector<Array> op_size(const NodeInfo& n, const Arrays& in) {
  need_inputs(n, in, 1, 1);
  return {scalar_i64(in[0].size(), in[0])};
}

std::vector<Array> op_reshape(const NodeInfo& n, const Arrays& in) {
  need_inputs(n, in, n.since < 5 ? 1 : 2, n.since < 5 ? 1 : 2);
  const Array& x = in[0];
  const Ints target = n.since < 5 ? n.ints("shape") : int_values(n, in[1], "shape");
  const bool allowzero = n.since >= 14 && n.i("allowzero", 0) != 0;
  Shape out;
  I64 infer = -1, known = 1;
  for (std::size_t i = 0; i < target.size(); ++i) {
    I64 d = target[i];
    if (d == 0 && !allowzero) {  // 0 copies the input's dim
      if (static_cast<I64>(i) >= x.ndim())
        n.fail("shape " + str(target) + " copies dim " + std::to_string(i) + " of " + x.shape().str());
      d = x.shape()[i];
    } else if (d == -1) {
      if (infer >= 0) n.fail("shape " + str(target) + " has more than one -1");
      infer = static_cast<I64>(i);
    } else if (d < 0) {
      n.fail("shape " + str(target) + " has a negative dim");
    }
    out.push_back(d);
    if (static_cast<I64>(i) != infer && __builtin_mul_overflow(known, d, &known))
      n.fail("shape " + str(target) + " has more elements than int64 can count");
  }
  if (infer >= 0) {  // -1 takes what the other dims leave
    if (known == 0 || x.size() % known != 0)
      n.fail("cannot infer the -1 of shape " + str(target) + " for input " + x.shape().str());
    out[static_cast<std::size_t>(infer)] = x.size() / known;
  }
  if (out.numel() != x.size()) n.fail("cannot reshape " + x.shape().str() + " to " + str(target));
  return {reshape(x, out)};
}

std::vector<Array> op_transpose(const NodeInfo& n, const Arrays& in) {
  need_inputs(n, in, 1, 1);
  const Array& x = in[0];
  const I64 r = x.ndim();
  Ints axes(static_cast<std::size_t>(r));
  std::iota(axes.begin(), axes.end(), I64{0});
  const Ints perm = n.ints("perm", Ints(axes.rbegin(), axes.rend()));  // default: reversed
  Ints sorted = perm;
  std::sort(sorted.begin(), sorted.end());
  if (sorted != axes) n.fail("perm " + str(perm) + " is not a permutation of the axes of " + x.shape().str());
  return {permute_dims(x, Dims(perm.begin(), perm.end()))};
}

// The axes of Squeeze/Unsqueeze: an attribute before opset 13, then an optional input.
bool read_axes(const NodeInfo& n, const Arrays& in, Ints* axes) {
  if (n.since < 13) {
    *axes = n.ints("axes", {});
    return n.has("axes");
  }
  Array a = input(in, 1);
  if (a.defined()) *axes = int_values(n, a, "axes");
  return a.defined();
}

std::vector<Array> op_squeeze(const NodeInfo& n, const Arrays& in) {
  need_inputs(n, in, 1, n.since < 13 ? 1 : 2);
  const Array& x = in[0];
  const I64 r = x.ndim();
  Ints axes;
  std::vector<bool> drop(static_cast<std::size_t>(r), false);
  if (!read_axes(n, in, &axes)) {  // no axes: every dim of size 1
    for (I64 d = 0; d < r; ++d) drop[static_cast<std::size_t>(d)] = x.shape()[d] == 1;
  } else {
    for (I64 d : axes_of(n, axes, r)) {
      if (x.shape()[d] != 1) n.fail("cannot squeeze axis " + std::to_string(d) + " of shape " + x.shape().str());
      drop[static_cast<std::size_t>(d)] = true;
    }
  }
  Shape out;
  for (I64 d = 0; d < r; ++d)
    if (!drop[static_cast<std::size_t>(d)]) out.push_back(x.shape()[d]);
  return {reshape(x, out)};
}

std::vector<Array> op_unsqueeze(const NodeInfo& n, const Arrays& in) {
  need_inputs(n, in, n.since < 13 ? 1 : 2, n.since < 13 ? 1 : 2);
  const Array& x = in[0];
  Ints axes;
  if (!read_axes(n, in, &axes)) n.fail("needs axes");
  const I64 rout = x.ndim() + static_cast<I64>(axes.size());  // axes count in the output's rank
  Ints at = axes_of(n, axes, rout);
  Shape out;
  for (I64 d = 0, k = 0; d < rout; ++d) out.push_back(std::count(at.begin(), at.end(), d) ? 1 : x.shape()[k++]);
  return {reshape(x, out)};
}

// ---------------------------------------------------------------- joining and splitting

std::vector<Array> op_concat(const NodeInfo& n, const Arrays& in) {
  need_inputs(n, in, 1, -1);
  for (const Array& a : in)
    if (!a.defined()) n.fail("every input is required");
  const I64 axis = n.since < 4 ? n.i("axis", 1) : n.i("axis");
  return {concat(in, axis_of(n, axis, in[0].ndim()))};
}

std::vector<Array> op_split(const NodeInfo& n, const Arrays& in) {
  need_inputs(n, in, 1, n.since == 1 || n.since >= 13 ? 2 : 1);
  const Array& x = in[0];
  const I64 d = axis_of(n, n.i("axis", 0), x.ndim());
  const I64 len = x.shape()[d];
  Ints sizes;
  if (n.since >= 13 || (n.since == 1 && !n.has("split"))) {
    if (input(in, 1).defined()) sizes = int_values(n, in[1], "split");
  } else {
    sizes = n.ints("split", {});
  }
  if (sizes.empty()) {  // equal parts, one per output
    const I64 parts = n.n_outputs;
    if (parts < 1 || len % parts != 0)
      n.fail("cannot split axis " + std::to_string(d) + " of " + x.shape().str() + " into " + std::to_string(parts) +
             " equal parts");
    sizes.assign(static_cast<std::size_t>(parts), len / parts);
  }
  I64 total = 0;
  for (I64 s : sizes) {
    if (s < 0) n.fail("split " + str(sizes) + " has a negative size");
    total += s;
  }
  if (total != len)
    n.fail("split " + str(sizes) + " does not add up to axis " + std::to_string(d) + " of " + x.shape().str());
  std::vector<Array> out;
  I64 b = 0;
  for (I64 s : sizes) {
    out.push_back(slice_axis(x, d, b, b + s));
    b += s;
  }
  return out;
}

// ---------------------------------------------------------------- slicing and gathering

std::vector<Array> op_slice(const NodeInfo& n, const Arrays& in) {
  Ints starts, ends, axes, steps;
  bool have_axes;
  if (n.since < 10) {
    need_inputs(n, in, 1, 1);
    starts = n.ints("starts");
    ends = n.ints("ends");
    have_axes = n.has("axes");
    axes = n.ints("axes", {});
  } else {
    need_inputs(n, in, 3, 5);
    starts = int_values(n, in[1], "starts");
    ends = int_values(n, in[2], "ends");
    have_axes = input(in, 3).defined();
    if (have_axes) axes = int_values(n, in[3], "axes");
    if (input(in, 4).defined()) steps = int_values(n, in[4], "steps");
  }
  const Array& x = in[0];
  const I64 r = x.ndim();
  if (!have_axes)
    for (std::size_t i = 0; i < starts.size(); ++i) axes.push_back(static_cast<I64>(i));
  if (!input(in, 4).defined()) steps.assign(starts.size(), 1);
  if (ends.size() != starts.size() || axes.size() != starts.size() || steps.size() != starts.size())
    n.fail("starts " + str(starts) + ", ends " + str(ends) + ", axes " + str(axes) + " and steps " + str(steps) +
           " must have one length");
  std::vector<Index> ix(static_cast<std::size_t>(r), Index(Slice()));
  const Ints dims = axes_of(n, axes, r);
  for (std::size_t i = 0; i < dims.size(); ++i) {
    const I64 d = dims[i], step = steps[i], len = x.shape()[d];
    if (step == 0) n.fail("steps " + str(steps) + " has a zero");
    I64 s = starts[i], e = ends[i];
    if (s < 0) s += len;
    if (e < 0) e += len;
    if (step > 0) {  // start and end clamped to [0, len]
      ix[static_cast<std::size_t>(d)] = Slice(std::clamp<I64>(s, 0, len), std::clamp<I64>(e, 0, len), step);
    } else if (len == 0) {
      ix[static_cast<std::size_t>(d)] = Slice(0, 0, 1);
    } else {  // start clamped to [0, len-1], end to [-1, len-1] (-1: through element 0)
      s = std::clamp<I64>(s, 0, len - 1);
      e = std::clamp<I64>(e, -1, len - 1);
      ix[static_cast<std::size_t>(d)] = Slice(s, e < 0 ? std::nullopt : std::optional<I64>(e), step);
    }
  }
  return {x.index(ix)};
}

std::vector<Array> op_gather(const NodeInfo& n, const Arrays& in) {
  need_inputs(n, in, 2, 2);
  const Array& x = in[0];
  if (!is_integer(in[1].dtype())) n.fail(std::string("indices must be integers, got ") + dtype_name(in[1].dtype()));
  return {take(x, in[1], axis_of(n, n.i("axis", 0), x.ndim()))};  // take accepts [-len, len)
}

std::vector<Array> op_gather_elements(const NodeInfo& n, const Arrays& in) {
  need_inputs(n, in, 2, 2);
  const Array &x = in[0], &idx = in[1];
  const I64 r = x.ndim(), d = axis_of(n, n.i("axis", 0), r);
  if (idx.ndim() != r) n.fail("indices " + idx.shape().str() + " must have the rank of data " + x.shape().str());
  if (!is_integer(idx.dtype())) n.fail(std::string("indices must be integers, got ") + dtype_name(idx.dtype()));
  // other axes: data cut to the indices' extent
  std::vector<Index> ix;
  for (I64 k = 0; k < r; ++k) {
    if (k != d && idx.shape()[k] > x.shape()[k])
      n.fail("indices " + idx.shape().str() + " exceed data " + x.shape().str() + " on axis " + std::to_string(k));
    ix.emplace_back(k == d ? Slice() : Slice(0, idx.shape()[k]));
  }
  return {take_along_axis(x.index(ix), idx, d)};
}

std::vector<Array> op_gather_nd(const NodeInfo& n, const Arrays& in) {
  need_inputs(n, in, 2, 2);
  const Array &x = in[0], &idx = in[1];
  const Shape &xs = x.shape(), &is = idx.shape();
  const I64 r = x.ndim(), q = idx.ndim(), b = n.i("batch_dims", 0);
  if (r < 1 || q < 1 || b < 0 || b >= std::min(r, q))
    n.fail("batch_dims " + std::to_string(b) + " does not fit data " + xs.str() + " and indices " + is.str());
  const I64 k = is[q - 1];
  if (b + k > r) n.fail("index tuples of length " + std::to_string(k) + " are too long for data " + xs.str());
  for (I64 j = 0; j < b; ++j)
    if (xs[j] != is[j]) n.fail("the batch dims of data " + xs.str() + " and indices " + is.str() + " differ");
  const std::size_t ub = static_cast<std::size_t>(b), uk = static_cast<std::size_t>(k);
  const I64 B = prod_of(xs, 0, ub), M = prod_of(xs, ub, ub + uk), R = prod_of(xs, ub + uk, xs.size());
  const I64 L = prod_of(is, ub, is.size() - 1);
  // each index tuple as a row position within its batch's [M] rows, then across batches
  Shape sub(xs.begin() + b, xs.begin() + b + k);
  Array i = norm_index(n, reshape(idx, Shape{B, L, k}), int64_array(sub.vec(), x), "indices");
  Array lin = sum(i * int64_array(strides_of(sub, uk), x), AxisArg(I64{2}), std::optional<DType>(int64), false);
  lin = lin + reshape(arange_i64(B, x) * Scalar(M), Shape{B, 1});
  Array g = take(reshape(x, Shape{B * M, R}), reshape(lin, Shape{B * L}), 0);
  Shape out(is.begin(), is.end() - 1);
  for (std::size_t j = ub + uk; j < xs.size(); ++j) out.push_back(xs[j]);
  return {reshape(g, out)};
}

// ---------------------------------------------------------------- scattering

// data with updates written (or combined by the node's reduction) at flat positions.
Array scatter_flat(const NodeInfo& n, const Array& data, const Array& pos, const Array& upd) {
  const std::string red = n.s("reduction", "none");
  const bool known = red == "none" || red == "add" || red == "mul" || red == "max" || red == "min";
  if (!known) n.fail("unknown reduction '" + red + "'");
  if ((red != "none" && n.since < 16) || ((red == "max" || red == "min") && n.since < 18))
    n.fail("reduction '" + red + "' needs a newer opset");
  const I64 m = pos.size();
  if (m == 0) return data;
  Array flat = reshape(data, Shape{data.size()});
  Array p = reshape(pos, Shape{m}), u = reshape(astype(upd, data.dtype(), false), Shape{m});
  if (red == "none") {
    flat.index_put({p}, u);
  } else if (red == "add") {
    flat = nn::scatter_add_flat(flat, p, u);
  } else {
    // mul/max/min: in rounds of distinct positions, each update applied in order
    Ints hp = int_values(n, p, "scatter positions");
    std::unordered_map<I64, std::size_t> seen;
    std::vector<Ints> rounds;
    for (std::size_t j = 0; j < hp.size(); ++j) {
      std::size_t k = seen[hp[j]]++;
      if (k == rounds.size()) rounds.emplace_back();
      rounds[k].push_back(static_cast<I64>(j));
    }
    for (const Ints& sel : rounds) {
      Array s = int64_array(sel, data);
      Array ps = take(p, s, 0), us = take(u, s, 0), cur = take(flat, ps, 0);
      flat.index_put({ps}, red == "mul" ? cur * us : red == "max" ? maximum(cur, us) : minimum(cur, us));
    }
  }
  return reshape(flat, data.shape());
}

std::vector<Array> op_scatter_elements(const NodeInfo& n, const Arrays& in) {
  need_inputs(n, in, 3, 3);
  const Array &x = in[0], &idx = in[1], &upd = in[2];
  const Shape &xs = x.shape(), &is = idx.shape();
  const I64 r = x.ndim(), d = axis_of(n, n.i("axis", 0), r);
  if (idx.ndim() != r || !(upd.shape() == is))
    n.fail("indices " + is.str() + " and updates " + upd.shape().str() + " must have one shape of the rank of data " +
           xs.str());
  for (I64 k = 0; k < r; ++k)
    if (k != d && is[k] > xs[k])
      n.fail("indices " + is.str() + " exceed data " + xs.str() + " on axis " + std::to_string(k));
  // flat position: the index on the axis, the element's own coordinate on the others
  const Ints st = strides_of(xs, xs.size());
  Array pos = norm_index(n, idx, scalar_i64(xs[d], x), "indices") * Scalar(st[static_cast<std::size_t>(d)]);
  for (I64 k = 0; k < r; ++k) {
    if (k == d) continue;
    Shape sh;
    sh.resize(static_cast<std::size_t>(r), 1);
    sh[static_cast<std::size_t>(k)] = is[k];
    pos = pos + reshape(arange_i64(is[k], x) * Scalar(st[static_cast<std::size_t>(k)]), sh);
  }
  return {scatter_flat(n, x, pos, upd)};
}

std::vector<Array> op_scatter_nd(const NodeInfo& n, const Arrays& in) {
  need_inputs(n, in, 3, 3);
  const Array &x = in[0], &idx = in[1], &upd = in[2];
  const Shape &xs = x.shape(), &is = idx.shape();
  const I64 r = x.ndim(), q = idx.ndim();
  if (r < 1 || q < 1 || is[q - 1] > r) n.fail("indices " + is.str() + " do not fit data " + xs.str());
  const std::size_t k = static_cast<std::size_t>(is[q - 1]);
  Shape want(is.begin(), is.end() - 1);
  for (std::size_t j = k; j < xs.size(); ++j) want.push_back(xs[j]);
  if (!(upd.shape() == want)) n.fail("updates " + upd.shape().str() + " must have shape " + want.str());
  const I64 R = prod_of(xs, k, xs.size()), L = prod_of(is, 0, is.size() - 1);
  // each index tuple as a row of R elements, then the elements of that row
  Shape sub(xs.begin(), xs.begin() + static_cast<I64>(k));
  Array i = norm_index(n, reshape(idx, Shape{L, static_cast<I64>(k)}), int64_array(sub.vec(), x), "indices");
  Array lin = sum(i * int64_array(strides_of(sub, k), x), AxisArg(I64{1}), std::optional<DType>(int64), false);
  Array pos = reshape(lin * Scalar(R), Shape{L, 1}) + reshape(arange_i64(R, x), Shape{1, R});
  return {scatter_flat(n, x, pos, upd)};
}

// ---------------------------------------------------------------- broadcasting and ranges

std::vector<Array> op_expand(const NodeInfo& n, const Arrays& in) {
  need_inputs(n, in, 2, 2);
  const Array& x = in[0];
  const Ints s = int_values(n, in[1], "shape");
  const I64 r = x.ndim(), m = static_cast<I64>(s.size()), rank = std::max(r, m);
  Shape out;
  for (I64 i = 0; i < rank; ++i) {  // both aligned at the right, 1 broadcasts either way
    const I64 a = i - (rank - r) >= 0 ? x.shape()[i - (rank - r)] : 1;
    const I64 c = i - (rank - m) >= 0 ? s[static_cast<std::size_t>(i - (rank - m))] : 1;
    if (c < 0 || (a != c && a != 1 && c != 1)) n.fail("cannot expand " + x.shape().str() + " to " + str(s));
    out.push_back(a == 1 ? c : a);
  }
  return {broadcast_to(x, out)};
}

std::vector<Array> op_tile(const NodeInfo& n, const Arrays& in) {
  need_inputs(n, in, 2, 2);
  const Ints rep = int_values(n, in[1], "repeats");
  if (static_cast<I64>(rep.size()) != in[0].ndim())
    n.fail("repeats " + str(rep) + " must have one entry per axis of " + in[0].shape().str());
  for (I64 v : rep)
    if (v < 0) n.fail("repeats " + str(rep) + " has a negative entry");
  return {tile(in[0], Dims(rep.begin(), rep.end()))};
}

std::vector<Array> op_range(const NodeInfo& n, const Arrays& in) {
  need_inputs(n, in, 3, 3);
  const DType dt = in[0].dtype();
  for (const Array& a : in)
    if (a.size() != 1 || a.dtype() != dt) n.fail("start, limit and delta must be scalars of one dtype");
  const Array& like = in[0];
  if (is_integer(dt)) {  // exact in int64
    const I64 s = one_int(n, in[0], "start"), l = one_int(n, in[1], "limit"), d = one_int(n, in[2], "delta");
    if (d == 0) n.fail("delta is 0");
    const I64 span = l - s;
    const I64 count = d > 0 ? (span > 0 ? (span + d - 1) / d : 0) : (span < 0 ? (span + d + 1) / d : 0);
    return {astype(arange_i64(count, like) * Scalar(d) + Scalar(s), dt)};
  }
  const double s = float_values(n, in[0], "start")[0], l = float_values(n, in[1], "limit")[0],
               d = float_values(n, in[2], "delta")[0];
  const double c = std::ceil((l - s) / d);
  if (d == 0 || !std::isfinite(c)) n.fail("start, limit and delta give no finite count");
  const I64 count = size_from_value(n, std::max(c, 0.0), "the element count");
  return {astype(astype(arange_i64(count, like), float64) * Scalar(d) + Scalar(s), dt)};
}

// ---------------------------------------------------------------- reductions

enum class Red { Sum, Mean, Max, Min, Prod, L1, L2, LogSum, LogSumExp, SumSquare };

Array reduce_by(Red k, const Array& x, const AxisArg& ax, bool keep) {
  const DType dt = x.dtype();
  const std::optional<DType> same = dt;
  switch (k) {
    case Red::Sum: return sum(x, ax, same, keep);
    case Red::Prod: return prod(x, ax, same, keep);
    case Red::Max: return ivy::max(x, ax, keep);
    case Red::Min: return ivy::min(x, ax, keep);
    case Red::L1: return sum(abs(x), ax, same, keep);
    case Red::SumSquare: return sum(x * x, ax, same, keep);
    default: break;
  }
  // the others in floating point (integers through float64, cast back)
  const bool integral = !is_floating(dt);
  const Array f = integral ? astype(x, float64) : x;
  const std::optional<DType> none;
  Array y;
  if (k == Red::Mean) {
    y = mean(f, ax, keep);
  } else if (k == Red::L2) {
    y = sqrt(sum(f * f, ax, none, keep));
  } else if (k == Red::LogSum) {
    y = log(sum(f, ax, none, keep));
  } else if (f.size() == 0) {
    y = log(sum(exp(f), ax, none, keep));
  } else {  // log-sum-exp shifted by the (finite) maximum
    auto shift = [&](bool kd) {
      Array m = ivy::max(f, ax, kd);
      return where(isfinite(m), m, zeros_like(m));
    };
    y = log(sum(exp(f - shift(true)), ax, none, keep)) + shift(keep);
  }
  return integral ? astype(y, dt) : y;
}

// One reduction operator: axes from the attribute, or (ReduceSum from 13, the others from
// 18) from the optional second input, where empty axes with noop_with_empty_axes return x.
template <Red K>
std::vector<Array> op_reduce(const NodeInfo& n, const Arrays& in) {
  const bool axes_input = n.since >= (K == Red::Sum ? 13 : 18);
  need_inputs(n, in, 1, axes_input ? 2 : 1);
  const Array& x = in[0];
  Ints axes;
  if (!axes_input) axes = n.ints("axes", {});
  else if (input(in, 1).defined()) axes = int_values(n, in[1], "axes");
  if (axes.empty() && axes_input && n.i("noop_with_empty_axes", 0) != 0) return {x};
  const Ints dims = axes_of(n, axes, x.ndim());
  const AxisArg ax = dims.empty() ? AxisArg() : AxisArg(dims);
  return {reduce_by(K, x, ax, n.i("keepdims", 1) != 0)};
}

template <bool Largest>
std::vector<Array> op_arg(const NodeInfo& n, const Arrays& in) {
  need_inputs(n, in, 1, 1);
  const Array& x = in[0];
  const I64 d = axis_of(n, n.i("axis", 0), x.ndim());
  const bool keep = n.i("keepdims", 1) != 0, last = n.i("select_last_index", 0) != 0;
  const Array y = last ? flip(x, d) : x;  // the last extremum is the first of the flipped axis
  Array i = astype(Largest ? argmax(y, d, keep) : argmin(y, d, keep), int64, false);
  if (last) i = Scalar(x.shape()[d] - 1) - i;
  return {i};
}

std::vector<Array> op_cumsum(const NodeInfo& n, const Arrays& in) {
  need_inputs(n, in, 2, 2);
  const Array& x = in[0];
  const I64 d = axis_of(n, one_int(n, in[1], "axis"), x.ndim());
  const bool exclusive = n.i("exclusive", 0) != 0, reverse = n.i("reverse", 0) != 0;
  Array y = reverse ? flip(x, d) : x;
  y = exclusive ? slice_axis(cumulative_sum(y, d, x.dtype(), true), d, 0, x.shape()[d])  // drop the last sum
                : cumulative_sum(y, d, x.dtype());
  return {reverse ? flip(y, d) : y};
}

std::vector<Array> op_topk(const NodeInfo& n, const Arrays& in) {
  need_inputs(n, in, n.since < 10 ? 1 : 2, n.since < 10 ? 1 : 2);
  const Array& x = in[0];
  const I64 d = axis_of(n, n.i("axis", -1), x.ndim());
  const I64 k = n.since < 10 ? n.i("k") : one_int(n, in[1], "k");
  if (k < 0 || k > x.shape()[d])
    n.fail("k " + std::to_string(k) + " is out of range for axis " + std::to_string(d) + " of " + x.shape().str());
  const bool largest = n.i("largest", 1) != 0;
  // a stable sort keeps equal values in index order, as TopK asks
  Array order = slice_axis(argsort(x, d, largest, true), d, 0, k);
  return {take_along_axis(x, order, d), astype(order, int64, false)};
}

// ---------------------------------------------------------------- padding

// The source position of output position i (from -before) on an axis of len elements.
I64 pad_source(const std::string& mode, I64 i, I64 len) {
  if (mode == "edge" || len == 1) return std::clamp<I64>(i, 0, len - 1);
  if (mode == "wrap") return ((i % len) + len) % len;
  const I64 p = 2 * (len - 1);  // reflect: period of the mirrored sequence
  const I64 m = ((i % p) + p) % p;
  return m < len ? m : p - m;
}

std::vector<Array> op_pad(const NodeInfo& n, const Arrays& in) {
  const std::string mode = n.s("mode", "constant");
  if (mode != "constant" && mode != "reflect" && mode != "edge" && !(mode == "wrap" && n.since >= 19))
    n.fail("unknown mode '" + mode + "'");
  Ints pads, axes;
  bool have_axes = false;
  Scalar value(0.0);
  if (n.since < 11) {
    need_inputs(n, in, 1, 1);
    pads = n.ints(n.since < 2 ? "paddings" : "pads");
    value = Scalar(n.f("value", 0.0));
  } else {
    need_inputs(n, in, 2, n.since >= 18 ? 4 : 3);
    pads = int_values(n, in[1], "pads");
    Array cv = input(in, 2);
    if (cv.defined() && cv.size() > 0) {
      if (cv.size() != 1) n.fail("constant_value must be a scalar, got shape " + cv.shape().str());
      value = cv.item_scalar();
    }
    have_axes = input(in, 3).defined();
    if (have_axes) axes = int_values(n, in[3], "axes");
  }
  const Array& x = in[0];
  const I64 r = x.ndim();
  if (!have_axes)
    for (I64 d = 0; d < r; ++d) axes.push_back(d);
  const Ints dims = axes_of(n, axes, r);
  if (pads.size() != 2 * dims.size())
    n.fail("pads " + str(pads) + " must hold 2 values per padded axis of " + x.shape().str());
  const Scalar fill = scalar_as(x.dtype(), value);
  Array y = x;
  for (std::size_t j = 0; j < dims.size(); ++j) {
    const I64 d = dims[j], b = pads[j], e = pads[j + dims.size()], len = y.shape()[d];
    if (b == 0 && e == 0) continue;
    if (len + b + e < 0)
      n.fail("pads " + str(pads) + " remove more than axis " + std::to_string(d) + " of " + x.shape().str() + " holds");
    if (mode == "constant") {  // crop (negative pads), then fill blocks on both sides
      y = slice_axis(y, d, std::max<I64>(-b, 0), len - std::max<I64>(-e, 0));
      auto block = [&](I64 p) {
        Shape s = y.shape();
        s[static_cast<std::size_t>(d)] = p;
        return full(s, fill, y.dtype(), y.device(), y.backend());
      };
      std::vector<Array> parts;
      if (b > 0) parts.push_back(block(b));
      parts.push_back(y);
      if (e > 0) parts.push_back(block(e));
      y = concat(parts, d);
    } else {  // gather each output position's source position
      if (len == 0)
        n.fail("mode '" + mode + "' cannot pad the empty axis " + std::to_string(d) + " of " + x.shape().str());
      Ints src;
      for (I64 i = -b; i < len + e; ++i) src.push_back(pad_source(mode, i, len));
      y = take(y, int64_array(src, y), d);
    }
  }
  return {y};
}

// ---------------------------------------------------------------- selection and creation

std::vector<Array> op_nonzero(const NodeInfo& n, const Arrays& in) {
  need_inputs(n, in, 1, 1);
  const Array x = in[0].ndim() == 0 ? reshape(in[0], Shape{1}) : in[0];
  std::vector<Array> nz = nonzero(x);
  for (Array& a : nz) a = astype(a, int64, false);
  return {stack(nz, 0)};  // [rank, count]
}

std::vector<Array> op_onehot(const NodeInfo& n, const Arrays& in) {
  need_inputs(n, in, 3, 3);
  const Array &idx = in[0], &values = in[2];
  const std::vector<double> dv = float_values(n, in[1], "depth");
  if (dv.size() != 1 || !(dv[0] >= 0)) n.fail("depth must be one non-negative value");
  const I64 depth = static_cast<I64>(dv[0]);
  if (values.size() != 2) n.fail("values must hold [off, on], got shape " + values.shape().str());
  const I64 r = idx.ndim(), a = norm_axis(n, n.i("axis", -1), r + 1);
  Array i = astype(idx, int64, false);
  if (n.since >= 11) i = where(i < 0, i + Scalar(depth), i);  // negative counts back from depth
  Shape ts;
  ts.resize(static_cast<std::size_t>(r + 1), 1);
  ts[static_cast<std::size_t>(a)] = depth;
  // out of range indices match no class and give all off values
  Array hit = expand_dims(i, a) == reshape(arange_i64(depth, idx), ts);
  Array v = reshape(values, Shape{2});
  return {where(hit, v[1], v[0])};
}

std::vector<Array> op_trilu(const NodeInfo& n, const Arrays& in) {
  need_inputs(n, in, 1, 2);
  const Array& x = in[0];
  if (x.ndim() < 2) n.fail("input " + x.shape().str() + " must have rank >= 2");
  const I64 k = input(in, 1).defined() ? one_int(n, in[1], "k") : 0;
  return {n.i("upper", 1) != 0 ? triu(x, k) : tril(x, k)};
}

std::vector<Array> op_eyelike(const NodeInfo& n, const Arrays& in) {
  need_inputs(n, in, 1, 1);
  const Array& x = in[0];
  if (x.ndim() != 2) n.fail("input " + x.shape().str() + " must have rank 2");
  const DType dt = n.has("dtype") ? dtype_of_code(n, n.i("dtype")) : x.dtype();
  return {eye(x.shape()[0], x.shape()[1], n.i("k", 0), dt, x.device(), x.backend())};
}

std::vector<Array> op_compress(const NodeInfo& n, const Arrays& in) {
  need_inputs(n, in, 2, 2);
  const Array& x = in[0];
  if (in[1].ndim() != 1) n.fail("condition " + in[1].shape().str() + " must have rank 1");
  // without an axis the flattened input
  const bool has_axis = n.has("axis");
  const Array y = has_axis ? x : reshape(x, Shape{x.size()});
  const I64 d = has_axis ? axis_of(n, n.i("axis"), x.ndim()) : 0, len = y.shape()[d];
  Array cond = astype(in[1], bool_, false);
  if (cond.size() > len) {  // entries past the axis must select nothing
    if (any(slice_axis(cond, 0, len, std::nullopt)).item<bool>())
      n.fail("condition selects beyond axis " + std::to_string(d) + " of " + y.shape().str());
    cond = slice_axis(cond, 0, 0, len);
  }
  return {take(y, astype(nonzero(cond)[0], int64, false), d)};
}

std::vector<Array> op_reverse_sequence(const NodeInfo& n, const Arrays& in) {
  need_inputs(n, in, 2, 2);
  const Array& x = in[0];
  const I64 r = x.ndim(), ba = n.i("batch_axis", 1), ta = n.i("time_axis", 0);
  if (r < 2 || ba < 0 || ba > 1 || ta < 0 || ta > 1 || ba == ta)
    n.fail("batch_axis " + std::to_string(ba) + " and time_axis " + std::to_string(ta) +
           " must be 0 and 1 in some order, input " + x.shape().str());
  const I64 T = x.shape()[ta], B = x.shape()[ba];
  if (in[1].ndim() != 1 || in[1].shape()[0] != B)
    n.fail("sequence_lens " + in[1].shape().str() + " must have shape [" + std::to_string(B) + "]");
  Shape ts, bs;
  ts.resize(static_cast<std::size_t>(r), 1);
  bs.resize(static_cast<std::size_t>(r), 1);
  ts[static_cast<std::size_t>(ta)] = T;
  bs[static_cast<std::size_t>(ba)] = B;
  Array t = reshape(arange_i64(T, x), ts);
  Array lens = reshape(astype(in[1], int64, false), bs);
  if (B > 0 && any(logical_or(lens < 0, lens > T)).item<bool>())
    n.fail("sequence_lens must lie in [0, " + std::to_string(T) + "]");
  // time t of a sequence of length L reads from L-1-t when t < L
  Array src = broadcast_to(where(t < lens, lens - 1 - t, t), x.shape());
  return {take_along_axis(x, src, ta)};
}

// The group of each of the rows (rows x cols values, row-major), groups numbered in the rows'
// lexicographic order; NaNs sort last and equal one another.
template <class T>
Ints group_rows(const std::vector<T>& v, I64 rows, I64 cols, I64* n_groups) {
  auto lt = [](T a, T b) {
    if constexpr (std::is_floating_point_v<T>) {
      if (std::isnan(a)) return false;
      if (std::isnan(b)) return true;
    }
    return a < b;
  };
  auto cmp = [&](I64 i, I64 j) {
    for (I64 c = 0; c < cols; ++c) {
      const T a = v[static_cast<std::size_t>(i * cols + c)], b = v[static_cast<std::size_t>(j * cols + c)];
      if (lt(a, b)) return -1;
      if (lt(b, a)) return 1;
    }
    return 0;
  };
  Ints order(static_cast<std::size_t>(rows)), group(static_cast<std::size_t>(rows));
  std::iota(order.begin(), order.end(), I64{0});
  std::stable_sort(order.begin(), order.end(), [&](I64 i, I64 j) { return cmp(i, j) < 0; });
  I64 g = -1;
  for (std::size_t k = 0; k < order.size(); ++k) {
    if (k == 0 || cmp(order[k - 1], order[k]) != 0) ++g;
    group[static_cast<std::size_t>(order[k])] = g;
  }
  *n_groups = g + 1;
  return group;
}

std::vector<Array> op_unique(const NodeInfo& n, const Arrays& in) {
  need_inputs(n, in, 1, 1);
  const Array& x = in[0];
  if (is_complex(x.dtype())) n.unsupported("Unique of complex values");
  // the slices along the axis (or the flattened elements) as host rows
  const bool has_axis = n.has("axis");
  const Array y = has_axis ? x : reshape(x, Shape{x.size()});
  const I64 d = has_axis ? axis_of(n, n.i("axis"), x.ndim()) : 0;
  const I64 rows = y.shape()[d];
  I64 cols = 1;
  for (I64 k = 0; k < y.ndim(); ++k)
    if (k != d) cols *= y.shape()[k];
  const Array m = reshape(moveaxis(y, Dims{d}, Dims{0}), Shape{rows, cols});
  I64 ng = 0;
  Ints group;
  if (is_floating(x.dtype())) group = group_rows(m.to_vector<double>(), rows, cols, &ng);
  else if (is_unsigned_int(x.dtype())) group = group_rows(m.to_vector<std::uint64_t>(), rows, cols, &ng);
  else group = group_rows(m.to_vector<I64>(), rows, cols, &ng);
  // first occurrence and count per group; unsorted output orders groups by first occurrence
  const auto ung = static_cast<std::size_t>(ng);
  Ints first(ung, -1), counts(ung, 0), rank(ung), out_order(ung);
  for (I64 i = 0; i < rows; ++i) {
    const auto g = static_cast<std::size_t>(group[static_cast<std::size_t>(i)]);
    if (first[g] < 0) first[g] = i;
    ++counts[g];
  }
  std::iota(out_order.begin(), out_order.end(), I64{0});
  if (n.i("sorted", 1) == 0)
    std::sort(out_order.begin(), out_order.end(),
              [&](I64 a, I64 b) { return first[static_cast<std::size_t>(a)] < first[static_cast<std::size_t>(b)]; });
  Ints idx, cnt, inverse;
  for (std::size_t k = 0; k < out_order.size(); ++k) {
    const auto g = static_cast<std::size_t>(out_order[k]);
    rank[g] = static_cast<I64>(k);
    idx.push_back(first[g]);
    cnt.push_back(counts[g]);
  }
  for (I64 g : group) inverse.push_back(rank[static_cast<std::size_t>(g)]);
  const Array sel = int64_array(idx, x);
  return {take(y, sel, d), sel, int64_array(inverse, x), int64_array(cnt, x)};
}

}  // namespace

void add_tensor_ops(std::vector<OpEntry>& table) {
  const OpEntry entries[] = {
      {"", "Constant", 1, op_constant},
      {"", "Constant", 12, op_constant},  // value_float(s), value_int(s)
      {"", "ConstantOfShape", 9, op_constant_of_shape},
      {"", "Shape", 1, op_shape},
      {"", "Shape", 15, op_shape},  // start, end
      {"", "Size", 1, op_size},
      {"", "Reshape", 1, op_reshape},  // shape attribute
      {"", "Reshape", 5, op_reshape},  // shape input
      {"", "Reshape", 14, op_reshape},  // allowzero
      {"", "Transpose", 1, op_transpose},
      {"", "Squeeze", 1, op_squeeze},
      {"", "Squeeze", 13, op_squeeze},  // axes input
      {"", "Unsqueeze", 1, op_unsqueeze},
      {"", "Unsqueeze", 13, op_unsqueeze},
      {"", "Concat", 1, op_concat},  // axis defaults to 1
      {"", "Concat", 4, op_concat},  // axis required
      {"", "Split", 1, op_split},  // split attribute or input
      {"", "Split", 2, op_split},  // split attribute
      {"", "Split", 13, op_split},  // split input
      {"", "Slice", 1, op_slice},  // attributes
      {"", "Slice", 10, op_slice},  // inputs, steps
      {"", "Gather", 1, op_gather},
      {"", "GatherElements", 11, op_gather_elements},
      {"", "GatherND", 11, op_gather_nd},
      {"", "GatherND", 12, op_gather_nd},  // batch_dims
      {"", "Scatter", 9, op_scatter_elements},
      {"", "ScatterElements", 11, op_scatter_elements},
      {"", "ScatterElements", 16, op_scatter_elements},  // reduction add, mul
      {"", "ScatterElements", 18, op_scatter_elements},  // reduction max, min
      {"", "ScatterND", 11, op_scatter_nd},
      {"", "ScatterND", 16, op_scatter_nd},
      {"", "ScatterND", 18, op_scatter_nd},
      {"", "Expand", 8, op_expand},
      {"", "Tile", 6, op_tile},
      {"", "Range", 11, op_range},
      {"", "ReduceSum", 1, op_reduce<Red::Sum>},
      {"", "ReduceSum", 13, op_reduce<Red::Sum>},  // axes input
      {"", "ReduceMean", 1, op_reduce<Red::Mean>},
      {"", "ReduceMean", 18, op_reduce<Red::Mean>},
      {"", "ReduceMax", 1, op_reduce<Red::Max>},
      {"", "ReduceMax", 18, op_reduce<Red::Max>},
      {"", "ReduceMin", 1, op_reduce<Red::Min>},
      {"", "ReduceMin", 18, op_reduce<Red::Min>},
      {"", "ReduceProd", 1, op_reduce<Red::Prod>},
      {"", "ReduceProd", 18, op_reduce<Red::Prod>},
      {"", "ReduceL1", 1, op_reduce<Red::L1>},
      {"", "ReduceL1", 18, op_reduce<Red::L1>},
      {"", "ReduceL2", 1, op_reduce<Red::L2>},
      {"", "ReduceL2", 18, op_reduce<Red::L2>},
      {"", "ReduceLogSum", 1, op_reduce<Red::LogSum>},
      {"", "ReduceLogSum", 18, op_reduce<Red::LogSum>},
      {"", "ReduceLogSumExp", 1, op_reduce<Red::LogSumExp>},
      {"", "ReduceLogSumExp", 18, op_reduce<Red::LogSumExp>},
      {"", "ReduceSumSquare", 1, op_reduce<Red::SumSquare>},
      {"", "ReduceSumSquare", 18, op_reduce<Red::SumSquare>},
      {"", "ArgMax", 1, op_arg<true>},
      {"", "ArgMax", 12, op_arg<true>},  // select_last_index
      {"", "ArgMin", 1, op_arg<false>},
      {"", "ArgMin", 12, op_arg<false>},
      {"", "CumSum", 11, op_cumsum},
      {"", "TopK", 1, op_topk},  // k attribute
      {"", "TopK", 10, op_topk},  // k input
      {"", "TopK", 11, op_topk},  // largest, sorted
      {"", "Pad", 1, op_pad},  // paddings, value attributes
      {"", "Pad", 2, op_pad},  // pads, value attributes
      {"", "Pad", 11, op_pad},  // pads, constant_value inputs
      {"", "Pad", 18, op_pad},  // axes input
      {"", "Pad", 19, op_pad},  // wrap mode
      {"", "NonZero", 9, op_nonzero},
      {"", "OneHot", 9, op_onehot},
      {"", "OneHot", 11, op_onehot},  // negative indices
      {"", "Trilu", 14, op_trilu},
      {"", "EyeLike", 9, op_eyelike},
      {"", "Compress", 9, op_compress},
      {"", "ReverseSequence", 10, op_reverse_sequence},
      {"", "Unique", 11, op_unique},
  };
  table.insert(table.end(), std::begin(entries), std::end(entries));
}

}  // namespace ivy::onnx::detail

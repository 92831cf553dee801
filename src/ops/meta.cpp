#include "meta.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace ivy::meta {

namespace {
std::string P(const char* op) { return std::string("[") + op + "] "; }

int one(OutSpec* out, const Shape& s, DType d) {
  out[0].shape = s;
  out[0].dtype = d;
  out[0].known = true;
  return 1;
}

void need_rank(const char* op, const Array& x, std::int64_t min_rank) {
  if (x.ndim() < min_rank)
    throw ValueError(P(op) + "expects an array of rank >= " + std::to_string(min_rank) + ", got shape " + x.shape().str());
}

void need_canonical_axis(const char* op, std::int64_t axis, std::int64_t rank) {
  if (axis < 0 || axis >= std::max<std::int64_t>(rank, 1) || (rank == 0 && axis != 0))
    throw IndexError(P(op) + "axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank));
}

void need_axes(const char* op, const Dims& axes, std::int64_t rank) {
  bool seen[kMaxRank] = {};
  for (auto ax : axes) {
    if (ax < 0 || ax >= rank)
      throw IndexError(P(op) + "axis " + std::to_string(ax) + " is out of range for rank " + std::to_string(rank));
    if (seen[ax]) throw ValueError(P(op) + "axis " + std::to_string(ax) + " appears twice in " + axes.str());
    seen[ax] = true;
  }
}

// The shape of a reduction of x over a set's axes (every axis when it has none).
template <class View>
Shape reduced(const Array& x, const View& p) {
  Shape s;
  auto r = x.ndim();
  for (std::int64_t i = 0; i < r; ++i) {
    bool red = !p.axes || std::find(p.axes->begin(), p.axes->end(), i) != p.axes->end();
    if (!red)
      s.push_back(x.shape()[i]);
    else if (p.keepdims)
      s.push_back(1);
  }
  return s;
}

DType acc_dtype(DType d) {
  if (is_bool(d)) return default_int_dtype();
  if (is_signed_int(d)) return itemsize(d) < itemsize(default_int_dtype()) ? default_int_dtype() : d;
  if (is_unsigned_int(d)) return uint64;
  return d;
}

DType float_of(DType d) { return is_floating(d) ? d : default_float_dtype(); }

void need_square(const char* op, const Array& x) {
  need_rank(op, x, 2);
  auto r = x.ndim();
  if (x.shape()[r - 1] != x.shape()[r - 2])
    throw ValueError(P(op) + "expects square matrices in the last two axes, got shape " + x.shape().str());
}

Shape batch_of(const Shape& s, int drop) {
  Shape b;
  for (std::size_t i = 0; i + drop < s.size(); ++i) b.push_back(s[i]);
  return b;
}
}  // namespace

void bad_dtype(const char* op, const Array& x, std::uint8_t kinds, const BackendImpl* be) {
  std::string allowed;
  auto add = [&](const char* s) { allowed += (allowed.empty() ? "" : ", ") + std::string(s); };
  if (kinds & kBoolKind) add("bool");
  if (kinds & kIntegerKind) add("integer");
  if (kinds & kRealFloating) add("real floating");
  if (kinds & kComplexKind) add("complex floating");
  throw TypeError(P(op) + "got dtype " + dtype_name(x.dtype()) + " (shape " + x.shape().str() + ", backend " + be->name +
                  "); expected " + allowed);
}

// ---- elementwise
int infer_abs(const char*, const Array* in, int, AttrsRef, OutSpec* out) {
  return one(out, in[0].shape(), real_of(in[0].dtype()));
}
int infer_unary_float(const char*, const Array* in, int, AttrsRef, OutSpec* out) {
  return one(out, in[0].shape(), float_of(in[0].dtype()));
}
int infer_unary_same(const char*, const Array* in, int, AttrsRef, OutSpec* out) {
  return one(out, in[0].shape(), in[0].dtype());
}
int infer_real_part(const char*, const Array* in, int, AttrsRef, OutSpec* out) {
  return one(out, in[0].shape(), real_of(in[0].dtype()));
}
int infer_unary_bool(const char*, const Array* in, int, AttrsRef, OutSpec* out) { return one(out, in[0].shape(), bool_); }
// The broadcast shape of a binary function's inputs into out[0]; equal shapes (the common
// case) are copied without the per-axis walk.
static void binary_shape(const char* op, const Array* in, OutSpec* out) {
  if (in[0].shape() == in[1].shape())
    out[0].shape = in[0].shape();
  else
    out[0].shape = broadcast_shapes(in[0].shape(), in[1].shape(), op);
  out[0].known = true;
}
int infer_binary(const char* op, const Array* in, int, AttrsRef, OutSpec* out) {
  binary_shape(op, in, out);
  out[0].dtype = result_type(in[0].dtype(), in[1].dtype());
  return 1;
}
int infer_binary_float(const char* op, const Array* in, int, AttrsRef, OutSpec* out) {
  binary_shape(op, in, out);
  out[0].dtype = float_of(result_type(in[0].dtype(), in[1].dtype()));
  return 1;
}
int infer_comparison(const char* op, const Array* in, int, AttrsRef, OutSpec* out) {
  binary_shape(op, in, out);
  out[0].dtype = bool_;
  return 1;
}
int infer_logical(const char* op, const Array* in, int n, AttrsRef a, OutSpec* out) { return infer_comparison(op, in, n, a, out); }

// ---- creation
namespace {
void need_shape(const char* op, const Shape& s) {
  for (auto d : s)
    if (d < 0) throw ValueError(P(op) + "negative dimension in shape " + s.str());
}
}  // namespace
int infer_full(const char* op, const Array*, int, AttrsRef a, OutSpec* out) {
  const auto& p = a.get<attr::full>();
  need_shape(op, p.shape);
  return one(out, p.shape, p.dtype);
}
int infer_arange(const char* op, const Array*, int, AttrsRef a, OutSpec* out) {
  const auto& p = a.get<attr::arange>();
  double start = p.start.d, stop = p.stop.d, step = p.step.d;
  if (step == 0) throw ValueError(P(op) + "step must not be zero");
  if (!std::isfinite(start) || !std::isfinite(stop) || !std::isfinite(step))
    throw ValueError(P(op) + "start, stop and step must be finite");
  std::int64_t len;
  if (p.start.kind == Scalar::Int && p.stop.kind == Scalar::Int && p.step.kind == Scalar::Int) {
    // ceil((stop - start) / step) in 128 bits: stop - start (+ step) can leave int64's range
    const __int128 d = static_cast<__int128>(p.stop.i) - p.start.i, st = p.step.i;
    const __int128 n = st > 0 ? (d > 0 ? (d + st - 1) / st : 0) : (d < 0 ? (-d - st - 1) / -st : 0);
    if (n > std::numeric_limits<std::int64_t>::max())
      throw ValueError(P(op) + "the range from " + p.start.str() + " to " + p.stop.str() + " by " + p.step.str() +
                       " has more elements than an array can hold");
    len = static_cast<std::int64_t>(n);
  } else {
    const double n = std::ceil((stop - start) / step);
    if (!(n < 9.2e18))
      throw ValueError(P(op) + "the range from " + p.start.str() + " to " + p.stop.str() + " by " + p.step.str() +
                       " has more elements than an array can hold");
    len = std::max<std::int64_t>(0, static_cast<std::int64_t>(n));
  }
  return one(out, Shape{len}, p.dtype);
}
int infer_linspace(const char* op, const Array*, int, AttrsRef a, OutSpec* out) {
  const auto& p = a.get<attr::linspace>();
  if (p.num < 0) throw ValueError(P(op) + "num must be >= 0, got " + std::to_string(p.num));
  return one(out, Shape{p.num}, p.dtype);
}
int infer_eye(const char* op, const Array*, int, AttrsRef a, OutSpec* out) {
  const auto& p = a.get<attr::eye>();
  if (p.n_rows < 0 || p.n_cols < 0)
    throw ValueError(P(op) + "n_rows and n_cols must be >= 0, got " + std::to_string(p.n_rows) + ", " + std::to_string(p.n_cols));
  return one(out, Shape{p.n_rows, p.n_cols}, p.dtype);
}
namespace {
template <class View>
int random_spec(const char* op, const View& p, OutSpec* out) {
  need_shape(op, p.shape);
  return one(out, p.shape, p.dtype);
}
}  // namespace
int infer_random_uniform(const char* op, const Array*, int, AttrsRef a, OutSpec* out) {
  return random_spec(op, a.get<attr::random_uniform>(), out);
}
int infer_random_normal(const char* op, const Array*, int, AttrsRef a, OutSpec* out) {
  return random_spec(op, a.get<attr::random_normal>(), out);
}
int infer_randint(const char* op, const Array*, int, AttrsRef a, OutSpec* out) {
  return random_spec(op, a.get<attr::randint>(), out);
}
int infer_matrix_same(const char* op, const Array* in, int, AttrsRef, OutSpec* out) {
  need_rank(op, in[0], 2);
  return one(out, in[0].shape(), in[0].dtype());
}
int infer_astype(const char*, const Array* in, int, AttrsRef a, OutSpec* out) {
  const auto& p = a.get<attr::astype>(); return one(out, in[0].shape(), p.dtype); }

// ---- manipulation
int infer_reshape(const char* op, const Array* in, int, AttrsRef a, OutSpec* out) {
  const auto& p = a.get<attr::reshape>();
  Shape s = p.shape;
  int infer = -1;
  std::int64_t known = 1;
  bool too_many = false;  // the known dimensions' product exceeds int64 (and none is 0)
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == -1) {
      if (infer >= 0) throw ValueError(P(op) + "only one dimension can be -1, got " + s.str());
      infer = static_cast<int>(i);
    } else if (s[i] < 0) {
      throw ValueError(P(op) + "invalid dimension in shape " + s.str());
    } else if (s[i] == 0) {
      known = 0;
      too_many = false;
    } else if (known != 0 && __builtin_mul_overflow(known, s[i], &known)) {
      too_many = true;
      known = 1;
    }
  }
  auto n = in[0].size();
  if (too_many)
    throw ValueError(P(op) + "cannot reshape array of shape " + in[0].shape().str() + " (size " + std::to_string(n) +
                     ") into " + s.str() + ": more than 2^63 elements");
  if (infer >= 0) {
    if (known == 0 || n % known != 0)
      throw ValueError(P(op) + "cannot reshape array of shape " + in[0].shape().str() + " into " + s.str());
    s[infer] = n / known;
  } else if (known != n) {
    throw ValueError(P(op) + "cannot reshape array of shape " + in[0].shape().str() + " (size " + std::to_string(n) +
                     ") into " + s.str());
  }
  return one(out, s, in[0].dtype());
}
int infer_permute_dims(const char* op, const Array* in, int, AttrsRef a, OutSpec* out) {
  const auto& p = a.get<attr::permute_dims>();
  if (static_cast<std::int64_t>(p.axes.size()) != in[0].ndim())
    throw ValueError(P(op) + "axes " + p.axes.str() + " do not match an array of shape " + in[0].shape().str());
  need_axes(op, p.axes, in[0].ndim());
  Shape s;
  for (auto ax : p.axes) s.push_back(in[0].shape()[ax]);
  return one(out, s, in[0].dtype());
}
[[noreturn, gnu::cold, gnu::noinline]] void broadcast_to_fail(const char* op, const Shape& s, const Shape& t) {
  broadcast_shapes(s, t, op);  // throws for shapes that do not broadcast together
  throw ValueError(P(op) + "cannot broadcast shape " + s.str() + " to " + t.str());
}
// The standard's rule, checked without building the broadcast shape: the input has at most
// the target's rank, and each of its axes (aligned right) is 1 or the target's length.
int infer_broadcast_to(const char* op, const Array* in, int, AttrsRef a, OutSpec* out) {
  const auto& p = a.get<attr::broadcast_to>();
  const Shape& s = in[0].shape();
  const Shape& t = p.shape;
  bool ok = s.size() <= t.size();
  for (std::size_t i = 1; ok && i <= s.size(); ++i) {
    const std::int64_t d = s[s.size() - i];
    ok = d == 1 || d == t[t.size() - i];
  }
  if (!ok) broadcast_to_fail(op, s, t);
  return one(out, t, in[0].dtype());
}
int infer_flip(const char* op, const Array* in, int, AttrsRef a, OutSpec* out) {
  const auto& p = a.get<attr::flip>();
  need_axes(op, p.axes, in[0].ndim());
  return one(out, in[0].shape(), in[0].dtype());
}
int infer_roll(const char* op, const Array* in, int, AttrsRef a, OutSpec* out) {
  const auto& p = a.get<attr::roll>();
  if (p.axes) {
    if (p.axes->size() != p.shifts.size())
      throw ValueError(P(op) + "shift " + p.shifts.str() + " and axis " + p.axes->str() + " differ in length");
    for (auto ax : *p.axes) need_canonical_axis(op, ax, in[0].ndim());
  } else if (p.shifts.size() != 1) {
    throw ValueError(P(op) + "without axis, shift must be a single integer, got " + p.shifts.str());
  }
  return one(out, in[0].shape(), in[0].dtype());
}
int infer_repeat(const char* op, const Array* in, int, AttrsRef a, OutSpec* out) {
  const auto& p = a.get<attr::repeat>();
  const Array& x = in[0];
  if (p.axis) need_canonical_axis(op, *p.axis, x.ndim());
  std::int64_t len = p.axis ? (x.ndim() ? x.shape()[*p.axis] : 1) : x.size();
  if (p.repeats.size() != 1 && static_cast<std::int64_t>(p.repeats.size()) != len)
    throw ValueError(P(op) + "repeats " + p.repeats.str() + " must have 1 or " + std::to_string(len) + " entries");
  std::int64_t total = 0;
  for (auto r : p.repeats)
    if (r < 0) throw ValueError(P(op) + "repeats must be non-negative, got " + p.repeats.str());
  bool too_many = false;
  if (p.repeats.size() == 1) {
    too_many = __builtin_mul_overflow(p.repeats[0], len, &total);  // one count for every element: no loop
  } else {
    for (auto r : p.repeats) too_many = too_many || __builtin_add_overflow(total, r, &total);
  }
  if (too_many)
    throw ValueError(P(op) + "repeats " + p.repeats.str() + " of an array of shape " + x.shape().str() +
                     " give more than 2^63 elements");
  Shape s = p.axis ? x.shape() : Shape{total};
  if (p.axis && x.ndim()) s[*p.axis] = total;
  if (p.axis && !x.ndim()) s = Shape{total};
  return one(out, s, x.dtype());
}
int infer_tile(const char* op, const Array* in, int, AttrsRef a, OutSpec* out) {
  const auto& p = a.get<attr::tile>();
  const Shape& xs = in[0].shape();
  std::size_t r = std::max(xs.size(), p.reps.size());
  Shape s;
  s.resize(r);
  for (std::size_t i = 0; i < r; ++i) {
    std::int64_t d = i < r - xs.size() ? 1 : xs[i - (r - xs.size())];
    std::int64_t k = i < r - p.reps.size() ? 1 : p.reps[i - (r - p.reps.size())];
    if (k < 0) throw ValueError(P(op) + "repetitions must be non-negative, got " + p.reps.str());
    if (__builtin_mul_overflow(d, k, &s[i]))
      throw ValueError(P(op) + "repetitions " + p.reps.str() + " of an array of shape " + xs.str() +
                       " give a dimension of more than 2^63");
  }
  return one(out, s, in[0].dtype());
}
int infer_concat(const char* op, const Array* in, int n, AttrsRef a, OutSpec* out) {
  const auto& p = a.get<attr::one_axis>();
  if (n < 1) throw ValueError(P(op) + "needs at least one array");
  auto r = in[0].ndim();
  if (r == 0) throw ValueError(P(op) + "zero-dimensional arrays cannot be concatenated");
  need_canonical_axis(op, p.axis, r);
  Shape s = in[0].shape();
  DType d = in[0].dtype();
  for (int i = 1; i < n; ++i) {
    const Shape& t = in[i].shape();
    bool ok = static_cast<std::int64_t>(t.size()) == r;
    for (std::int64_t k = 0; ok && k < r; ++k)
      if (k != p.axis && t[k] != s[k]) ok = false;
    if (!ok)
      throw ValueError(P(op) + "array " + std::to_string(i) + " has shape " + t.str() + ", incompatible with " +
                       in[0].shape().str() + " along axis " + std::to_string(p.axis));
    s[p.axis] += t[p.axis];
    d = result_type(d, in[i].dtype());
  }
  return one(out, s, d);
}

// ---- indexing
int infer_strided_slice(const char* op, const Array* in, int, AttrsRef a, OutSpec* out) {
  const auto& p = a.get<attr::slice>();
  auto r = in[0].ndim();
  if (static_cast<std::int64_t>(p.start.size()) != r || p.stop.size() != p.start.size() || p.step.size() != p.start.size())
    throw ValueError(P(op) + "start/stop/step must have one entry per axis of shape " + in[0].shape().str());
  Shape s;
  for (std::int64_t i = 0; i < r; ++i) {
    auto st = p.step[i], b = p.start[i], e = p.stop[i];
    if (st == 0) throw ValueError(P(op) + "slice step must not be zero");
    s.push_back(slice_length(b, e, st));
  }
  return one(out, s, in[0].dtype());
}
int infer_slice_update(const char* op, const Array* in, int n, AttrsRef a, OutSpec* out) {
  const auto& p = a.get<attr::slice>();
  OutSpec sl;
  infer_strided_slice(op, in, n, a, &sl);
  Shape b = broadcast_shapes(in[1].shape(), sl.shape, op);
  if (!(b == sl.shape))
    throw ValueError(P(op) + "value of shape " + in[1].shape().str() + " cannot be broadcast to the selection " +
                     sl.shape.str());
  return one(out, in[0].shape(), in[0].dtype());
}
int infer_take(const char* op, const Array* in, int, AttrsRef a, OutSpec* out) {
  const auto& p = a.get<attr::one_axis>();
  const Array& x = in[0];
  if (!is_integer(in[1].dtype()))
    throw TypeError(P(op) + "indices must have an integer dtype, got " + dtype_name(in[1].dtype()));
  need_rank(op, x, 1);
  need_canonical_axis(op, p.axis, x.ndim());
  Shape s;
  for (std::int64_t i = 0; i < p.axis; ++i) s.push_back(x.shape()[i]);
  for (auto d : in[1].shape()) s.push_back(d);
  for (std::int64_t i = p.axis + 1; i < x.ndim(); ++i) s.push_back(x.shape()[i]);
  if (x.shape()[p.axis] == 0 && in[1].size() > 0)
    throw IndexError(P(op) + "cannot take from an empty axis " + std::to_string(p.axis) + " of shape " + x.shape().str());
  return one(out, s, x.dtype());
}
int infer_take_along_axis(const char* op, const Array* in, int, AttrsRef a, OutSpec* out) {
  const auto& p = a.get<attr::one_axis>();
  const Array& x = in[0];
  const Array& idx = in[1];
  if (!is_integer(idx.dtype()))
    throw TypeError(P(op) + "indices must have an integer dtype, got " + dtype_name(idx.dtype()));
  need_rank(op, x, 1);
  if (idx.ndim() != x.ndim())
    throw ValueError(P(op) + "indices of shape " + idx.shape().str() + " must have the rank of x " + x.shape().str());
  need_canonical_axis(op, p.axis, x.ndim());
  Shape xs = x.shape(), is = idx.shape();
  xs[p.axis] = 1;
  is[p.axis] = 1;
  Shape s = broadcast_shapes(xs, is, op);
  s[p.axis] = idx.shape()[p.axis];
  return one(out, s, x.dtype());
}
int infer_index_put(const char* op, const Array* in, int, AttrsRef, OutSpec* out) {
  if (in[1].dtype() != int64 || in[1].ndim() != 1)
    throw TypeError(P(op) + "positions must be a 1-d int64 array, got " + dtype_name(in[1].dtype()) + in[1].shape().str());
  Shape b = broadcast_shapes(in[2].shape(), in[1].shape(), op);
  if (!(b == in[1].shape()))
    throw ValueError(P(op) + "value of shape " + in[2].shape().str() + " cannot be broadcast to " + std::to_string(in[1].size()) +
                     " selected elements");
  return one(out, in[0].shape(), in[0].dtype());
}

// ---- neural-network kernels
namespace {
// The spatial rank of a channels-first array [N, C, *S] (1 to 3 spatial axes).
std::int64_t spatial_rank(const char* op, const Array& x, const char* what) {
  if (x.ndim() < 3 || x.ndim() > 5)
    throw ValueError(P(op) + what + " must have shape [N, C, *spatial] with 1 to 3 spatial axes, got shape " +
                     x.shape().str());
  return x.ndim() - 2;
}
void need_per_axis(const char* op, const char* name, const Dims& v, std::int64_t d, std::int64_t min) {
  if (static_cast<std::int64_t>(v.size()) != d)
    throw ValueError(P(op) + name + " " + v.str() + " must have one entry per spatial axis (" + std::to_string(d) + ")");
  for (auto e : v)
    if (e < min)
      throw ValueError(P(op) + name + " " + v.str() + " must be >= " + std::to_string(min) + " on every axis");
}
// The output length of a window of `k` taps dilated by `dil` sliding with `stride` over
// `len` elements padded by lo and hi; an error when the window does not fit once.
std::int64_t window_count(const char* op, std::int64_t len, std::int64_t lo, std::int64_t hi, std::int64_t k,
                          std::int64_t dil, std::int64_t stride, std::int64_t axis) {
  const std::int64_t span = dil * (k - 1) + 1, padded = len + lo + hi;
  if (padded < span)
    throw ValueError(P(op) + "the window spans " + std::to_string(span) + " elements on spatial axis " +
                     std::to_string(axis) + ", more than its " + std::to_string(len) + " elements padded to " +
                     std::to_string(padded));
  return (padded - span) / stride + 1;
}
// padding: d entries before, then d after, none negative
void need_padding(const char* op, const Dims& v, std::int64_t d) {
  if (static_cast<std::int64_t>(v.size()) != 2 * d)
    throw ValueError(P(op) + "padding " + v.str() + " must list the padding before each of the " + std::to_string(d) +
                     " spatial axes, then after each");
  for (auto e : v)
    if (e < 0) throw ValueError(P(op) + "padding " + v.str() + " must be >= 0 on every axis");
}
template <class ConvView>
void check_conv_attrs(const char* op, const ConvView& p, std::int64_t d) {
  need_per_axis(op, "strides", p.strides, d, 1);
  need_per_axis(op, "dilations", p.dilations, d, 1);
  need_padding(op, p.padding, d);
  if (p.groups < 1) throw ValueError(P(op) + "groups must be >= 1, got " + std::to_string(p.groups));
}
void need_same_dtype(const char* op, const Array& a, const Array& b) {
  if (a.dtype() != b.dtype())
    throw TypeError(P(op) + "operands must have one dtype, got " + dtype_name(a.dtype()) + " and " + dtype_name(b.dtype()));
}
// [N, C, *S] convolved with [O, C/groups, *K]: the result's shape (checks channels and groups).
template <class ConvView>
Shape conv_result(const char* op, const Shape& xs, const Shape& ws, const ConvView& p) {
  const std::int64_t d = static_cast<std::int64_t>(xs.size()) - 2;
  const std::int64_t c = xs[1], o = ws[0];
  if (c % p.groups != 0 || o % p.groups != 0)
    throw ValueError(P(op) + "groups " + std::to_string(p.groups) + " must divide the input channels " +
                     std::to_string(c) + " and the output channels " + std::to_string(o));
  if (ws[1] * p.groups != c)
    throw ValueError(P(op) + "weight of shape " + ws.str() + " expects " + std::to_string(ws[1] * p.groups) +
                     " input channels (" + std::to_string(ws[1]) + " per group, " + std::to_string(p.groups) +
                     " groups), the input " + xs.str() + " has " + std::to_string(c));
  Shape r{xs[0], o};
  for (std::int64_t i = 0; i < d; ++i)
    r.push_back(window_count(op, xs[2 + i], p.padding[i], p.padding[d + i], ws[2 + i], p.dilations[i], p.strides[i], i));
  return r;
}
}  // namespace

int infer_conv(const char* op, const Array* in, int, AttrsRef a, OutSpec* out) {
  const auto& p = a.get<attr::conv>();
  const std::int64_t d = spatial_rank(op, in[0], "the input");
  if (in[1].ndim() != in[0].ndim())
    throw ValueError(P(op) + "weight of shape " + in[1].shape().str() + " must have the input's rank (input " +
                     in[0].shape().str() + ")");
  need_same_dtype(op, in[0], in[1]);
  check_conv_attrs(op, p, d);
  if (!p.spatial.empty()) throw ValueError(P(op) + "takes no spatial sizes, got " + p.spatial.str());
  return one(out, conv_result(op, in[0].shape(), in[1].shape(), p), in[0].dtype());
}
int infer_conv_transpose(const char* op, const Array* in, int, AttrsRef a, OutSpec* out) {
  const auto& p = a.get<attr::conv>();
  const Array &y = in[0], &w = in[1];
  const std::int64_t d = spatial_rank(op, y, "the input");
  if (w.ndim() != y.ndim())
    throw ValueError(P(op) + "weight of shape " + w.shape().str() + " must have the input's rank (input " +
                     y.shape().str() + ")");
  need_same_dtype(op, y, w);
  check_conv_attrs(op, p, d);
  need_per_axis(op, "spatial", p.spatial, d, 0);
  if (y.shape()[1] != w.shape()[0])
    throw ValueError(P(op) + "input of shape " + y.shape().str() + " has " + std::to_string(y.shape()[1]) +
                     " channels, the weight " + w.shape().str() + " expects " + std::to_string(w.shape()[0]));
  Shape r{y.shape()[0], w.shape()[1] * p.groups};
  for (auto e : p.spatial) r.push_back(e);
  Shape fwd = conv_result(op, r, w.shape(), p);  // the conv this is the adjoint of maps r back to y
  if (!(fwd == y.shape()))
    throw ValueError(P(op) + "a result of shape " + r.str() + " convolves to " + fwd.str() + ", not to the input's " +
                     y.shape().str());
  return one(out, r, y.dtype());
}
int infer_conv_weight_grad(const char* op, const Array* in, int, AttrsRef a, OutSpec* out) {
  const auto& p = a.get<attr::conv>();
  const Array &x = in[0], &gy = in[1];
  const std::int64_t d = spatial_rank(op, x, "the input");
  if (gy.ndim() != x.ndim())
    throw ValueError(P(op) + "output gradient of shape " + gy.shape().str() + " must have the input's rank (input " +
                     x.shape().str() + ")");
  need_same_dtype(op, x, gy);
  check_conv_attrs(op, p, d);
  need_per_axis(op, "spatial", p.spatial, d, 1);
  if (x.shape()[1] % p.groups != 0)
    throw ValueError(P(op) + "groups " + std::to_string(p.groups) + " must divide the input channels " +
                     std::to_string(x.shape()[1]));
  Shape r{gy.shape()[1], x.shape()[1] / p.groups};
  for (auto e : p.spatial) r.push_back(e);
  Shape fwd = conv_result(op, x.shape(), r, p);
  if (!(fwd == gy.shape()))
    throw ValueError(P(op) + "the input " + x.shape().str() + " convolved with a weight " + r.str() + " gives " +
                     fwd.str() + ", not the output gradient's " + gy.shape().str());
  return one(out, r, x.dtype());
}
int infer_max_pool(const char* op, const Array* in, int, AttrsRef a, OutSpec* out) {
  const auto& p = a.get<attr::pool>();
  const Array& x = in[0];
  const std::int64_t d = spatial_rank(op, x, "the input");
  need_per_axis(op, "window", p.window, d, 1);
  need_per_axis(op, "strides", p.strides, d, 1);
  need_per_axis(op, "dilations", p.dilations, d, 1);
  need_padding(op, p.padding, d);
  Shape r{x.shape()[0], x.shape()[1]};
  for (std::int64_t i = 0; i < d; ++i) {
    if (p.padding[i] >= p.dilations[i] * (p.window[i] - 1) + 1)
      throw ValueError(P(op) + "padding " + p.padding.str() + " before each axis must be smaller than the window span on spatial axis " +
                       std::to_string(i) + " (a window of padding alone has no maximum)");
    r.push_back(window_count(op, x.shape()[2 + i], p.padding[i], p.padding[d + i], p.window[i], p.dilations[i], p.strides[i], i));
  }
  out[0] = {r, x.dtype(), true};
  out[1] = {r, int64, true};
  return 2;
}

int infer_layer_norm(const char* op, const Array* in, int, AttrsRef a, OutSpec* out) {
  const auto& p = a.get<attr::layer_norm>();
  const Array& x = in[0];
  if (p.axis < 0 || p.axis >= x.ndim())
    throw ValueError(P(op) + "axis " + std::to_string(p.axis) + " must be in [0, " + std::to_string(x.ndim()) +
                     ") for an input of shape " + x.shape().str() + " (at least one axis is normalized)");
  if (!(p.eps >= 0.0) || !std::isfinite(p.eps))
    throw ValueError(P(op) + "eps must be >= 0 and finite, got " + std::to_string(p.eps));
  Shape stats = x.shape();
  for (std::int64_t i = p.axis; i < x.ndim(); ++i) stats[static_cast<std::size_t>(i)] = 1;
  out[0] = {x.shape(), x.dtype(), true};
  out[1] = {stats, x.dtype(), true};
  out[2] = {stats, x.dtype(), true};
  return 3;
}

// ---- searching, sorting, sets
int infer_argreduce(const char* op, const Array* in, int, AttrsRef a, OutSpec* out) {
  const auto& p = a.get<attr::argreduce>();
  const Array& x = in[0];
  if (x.size() == 0) throw ValueError(P(op) + "attempt to get " + op + " of an empty array " + x.shape().str());
  Shape s;
  if (p.axis) {
    need_canonical_axis(op, *p.axis, x.ndim());
    if (x.ndim() == 0) return one(out, s, int64);
    s = x.shape();
    if (p.keepdims) s[*p.axis] = 1;
    else s.erase(*p.axis);
  } else if (p.keepdims) {
    s.resize(x.ndim(), 1);
  }
  return one(out, s, int64);
}
int infer_nonzero(const char* op, const Array* in, int, AttrsRef, OutSpec* out) {
  if (in[0].ndim() == 0) throw ValueError(P(op) + "is not defined for zero-dimensional arrays");
  for (std::int64_t i = 0; i < in[0].ndim(); ++i) {
    out[i].shape = Shape{-1};
    out[i].dtype = int64;
    out[i].known = false;
  }
  return static_cast<int>(in[0].ndim());
}
int infer_where(const char* op, const Array* in, int, AttrsRef, OutSpec* out) {
  if (!is_bool(in[0].dtype()))
    throw TypeError(P(op) + "condition must be bool, got " + dtype_name(in[0].dtype()));
  Shape s = broadcast_shapes(broadcast_shapes(in[0].shape(), in[1].shape(), op), in[2].shape(), op);
  return one(out, s, result_type(in[1].dtype(), in[2].dtype()));
}
int infer_searchsorted(const char* op, const Array* in, int, AttrsRef, OutSpec* out) {
  if (in[0].ndim() != 1) throw ValueError(P(op) + "x1 must be 1-d, got shape " + in[0].shape().str());
  return one(out, in[1].shape(), int64);
}
int infer_sort(const char* op, const Array* in, int, AttrsRef a, OutSpec* out) {
  const auto& p = a.get<attr::sort>();
  need_rank(op, in[0], 1);
  need_canonical_axis(op, p.axis, in[0].ndim());
  return one(out, in[0].shape(), std::string_view(op) == "argsort" ? int64 : in[0].dtype());
}
int infer_unique(const char*, const Array* in, int, AttrsRef, OutSpec* out) {
  out[0] = {Shape{-1}, in[0].dtype(), false};
  out[1] = {Shape{-1}, int64, false};
  out[2] = {in[0].shape(), int64, true};
  out[3] = {Shape{-1}, int64, false};
  return 4;
}
int infer_isin(const char*, const Array* in, int, AttrsRef, OutSpec* out) { return one(out, in[0].shape(), bool_); }

// ---- reductions
namespace {
template <class View>
void check_reduce(const char* op, const Array& x, const View& p) {
  if (p.axes) need_axes(op, *p.axes, x.ndim());
}
}  // namespace
int infer_reduce_accumulate(const char* op, const Array* in, int, AttrsRef a, OutSpec* out) {
  const auto& p = a.get<attr::reduce_acc>();
  check_reduce(op, in[0], p);
  if (p.dtype && is_bool(*p.dtype)) throw TypeError(P(op) + "cannot accumulate in dtype bool");
  return one(out, reduced(in[0], p), p.dtype ? *p.dtype : acc_dtype(in[0].dtype()));
}
int infer_reduce_float(const char* op, const Array* in, int, AttrsRef a, OutSpec* out) {
  const auto& p = a.get<attr::reduce>();
  check_reduce(op, in[0], p);
  return one(out, reduced(in[0], p), float_of(in[0].dtype()));
}
int infer_reduce_same(const char* op, const Array* in, int, AttrsRef a, OutSpec* out) {
  const auto& p = a.get<attr::reduce>();
  check_reduce(op, in[0], p);
  const Array& x = in[0];
  for (std::int64_t i = 0; i < x.ndim(); ++i) {
    bool red = !p.axes || std::find(p.axes->begin(), p.axes->end(), i) != p.axes->end();
    if (red && x.shape()[i] == 0)
      throw ValueError(P(op) + "zero-size reduction along axis " + std::to_string(i) + " of shape " + x.shape().str() +
                       " has no identity");
  }
  return one(out, reduced(x, p), x.dtype());
}
int infer_reduce_variance(const char* op, const Array* in, int, AttrsRef a, OutSpec* out) {
  const auto& p = a.get<attr::reduce_var>();
  check_reduce(op, in[0], p);
  if (p.correction < 0) throw ValueError(P(op) + "correction must be >= 0, got " + std::to_string(p.correction));
  return one(out, reduced(in[0], p), real_of(float_of(in[0].dtype())));
}
int infer_reduce_bool(const char* op, const Array* in, int, AttrsRef a, OutSpec* out) {
  const auto& p = a.get<attr::reduce>();
  check_reduce(op, in[0], p);
  return one(out, reduced(in[0], p), bool_);
}
int infer_cumulative(const char* op, const Array* in, int, AttrsRef a, OutSpec* out) {
  const auto& p = a.get<attr::cumulative>();
  const Array& x = in[0];
  if (p.dtype && is_bool(*p.dtype)) throw TypeError(P(op) + "cannot accumulate in dtype bool");
  Shape s = x.shape();
  if (x.ndim() == 0) {
    s = Shape{1};
    if (p.axis != 0) need_canonical_axis(op, p.axis, 0);
  } else {
    need_canonical_axis(op, p.axis, x.ndim());
  }
  if (p.include_initial) s[x.ndim() ? p.axis : 0] += 1;
  return one(out, s, p.dtype ? *p.dtype : acc_dtype(x.dtype()));
}

// ---- linear algebra
int infer_matmul(const char* op, const Array* in, int, AttrsRef, OutSpec* out) {
  const Shape &s1 = in[0].shape(), &s2 = in[1].shape();
  if (s1.empty() || s2.empty())
    throw ValueError(P(op) + "operands must have rank >= 1, got shapes " + s1.str() + " and " + s2.str());
  std::int64_t k1 = s1.back(), k2 = s2.size() == 1 ? s2[0] : s2[s2.size() - 2];
  if (k1 != k2)
    throw ValueError(P(op) + "contracted dimensions differ: shapes " + s1.str() + " and " + s2.str() + " (" +
                     std::to_string(k1) + " != " + std::to_string(k2) + ")");
  Shape s;  // batch dims: only where an operand has them (a plain matrix product skips the Shape work)
  if (s1.size() > 2 || s2.size() > 2) {
    Shape b1 = s1.size() > 2 ? batch_of(s1, 2) : Shape{}, b2 = s2.size() > 2 ? batch_of(s2, 2) : Shape{};
    s = broadcast_shapes(b1, b2, op);
  }
  if (s1.size() >= 2) s.push_back(s1[s1.size() - 2]);
  if (s2.size() >= 2) s.push_back(s2.back());
  return one(out, s, result_type(in[0].dtype(), in[1].dtype()));
}
int infer_diagonal(const char* op, const Array* in, int, AttrsRef a, OutSpec* out) {
  const auto& p = a.get<attr::diagonal>();
  need_rank(op, in[0], 2);
  const Shape& s = in[0].shape();
  std::int64_t r = s[s.size() - 2], c = s.back(), off = p.offset;
  std::int64_t len = off >= 0 ? std::min(r, c - off) : std::min(r + off, c);
  Shape o = batch_of(s, 2);
  o.push_back(std::max<std::int64_t>(0, len));
  return one(out, o, in[0].dtype());
}
int infer_square_same(const char* op, const Array* in, int, AttrsRef, OutSpec* out) {
  need_square(op, in[0]);
  return one(out, in[0].shape(), in[0].dtype());
}
int infer_square_to_batch(const char* op, const Array* in, int, AttrsRef, OutSpec* out) {
  need_square(op, in[0]);
  return one(out, batch_of(in[0].shape(), 2), in[0].dtype());
}
int infer_slogdet(const char* op, const Array* in, int, AttrsRef, OutSpec* out) {
  need_square(op, in[0]);
  Shape b = batch_of(in[0].shape(), 2);
  out[0] = {b, in[0].dtype(), true};
  out[1] = {b, real_of(in[0].dtype()), true};
  return 2;
}
int infer_solve(const char* op, const Array* in, int, AttrsRef, OutSpec* out) {
  need_square(op, in[0]);
  const Shape &s1 = in[0].shape(), &s2 = in[1].shape();
  auto m = s1.back();
  DType d = result_type(in[0].dtype(), in[1].dtype());
  if (s2.size() == 1) {
    if (s2[0] != m) throw ValueError(P(op) + "x2 of shape " + s2.str() + " does not match x1 of shape " + s1.str());
    Shape s = batch_of(s1, 2);
    s.push_back(m);
    return one(out, s, d);
  }
  if (s2.size() < 2 || s2[s2.size() - 2] != m)
    throw ValueError(P(op) + "x2 of shape " + s2.str() + " does not match x1 of shape " + s1.str());
  Shape s = broadcast_shapes(batch_of(s1, 2), batch_of(s2, 2), op);
  s.push_back(m);
  s.push_back(s2.back());
  return one(out, s, d);
}
int infer_eigh(const char* op, const Array* in, int, AttrsRef, OutSpec* out) {
  need_square(op, in[0]);
  Shape v = batch_of(in[0].shape(), 1);
  out[0] = {v, real_of(in[0].dtype()), true};
  out[1] = {in[0].shape(), in[0].dtype(), true};
  return 2;
}
int infer_eigvalsh(const char* op, const Array* in, int, AttrsRef, OutSpec* out) {
  need_square(op, in[0]);
  return one(out, batch_of(in[0].shape(), 1), real_of(in[0].dtype()));
}
int infer_eig(const char* op, const Array* in, int, AttrsRef, OutSpec* out) {
  need_square(op, in[0]);
  DType c = complex_of(in[0].dtype());
  out[0] = {batch_of(in[0].shape(), 1), c, true};
  out[1] = {in[0].shape(), c, true};
  return 2;
}
int infer_eigvals(const char* op, const Array* in, int, AttrsRef, OutSpec* out) {
  need_square(op, in[0]);
  return one(out, batch_of(in[0].shape(), 1), complex_of(in[0].dtype()));
}
int infer_svd(const char* op, const Array* in, int, AttrsRef a, OutSpec* out) {
  const auto& p = a.get<attr::svd>();
  need_rank(op, in[0], 2);
  const Shape& s = in[0].shape();
  auto m = s[s.size() - 2], n = s.back(), k = std::min(m, n);
  Shape b = batch_of(s, 2), u = b, sv = b, vh = b;
  u.push_back(m);
  u.push_back(p.full_matrices ? m : k);
  sv.push_back(k);
  vh.push_back(p.full_matrices ? n : k);
  vh.push_back(n);
  out[0] = {u, in[0].dtype(), true};
  out[1] = {sv, real_of(in[0].dtype()), true};
  out[2] = {vh, in[0].dtype(), true};
  return 3;
}
int infer_svdvals(const char* op, const Array* in, int, AttrsRef, OutSpec* out) {
  need_rank(op, in[0], 2);
  const Shape& s = in[0].shape();
  Shape b = batch_of(s, 2);
  b.push_back(std::min(s[s.size() - 2], s.back()));
  return one(out, b, real_of(in[0].dtype()));
}
int infer_qr(const char* op, const Array* in, int, AttrsRef a, OutSpec* out) {
  const auto& p = a.get<attr::qr>();
  need_rank(op, in[0], 2);
  const Shape& s = in[0].shape();
  auto m = s[s.size() - 2], n = s.back(), k = std::min(m, n);
  Shape q = batch_of(s, 2), r = q;
  q.push_back(m);
  q.push_back(p.complete ? m : k);
  r.push_back(p.complete ? m : k);
  r.push_back(n);
  out[0] = {q, in[0].dtype(), true};
  out[1] = {r, in[0].dtype(), true};
  return 2;
}

// ---- fft
namespace {
// The result's shape and dtype, written straight into the output spec (no Shape copies),
// after checking the axes, the lengths and the norm code, for every backend's kernel.
int fft_spec(const char* op, const Array& x, AttrsRef a, DType d, OutSpec* out) {
  const auto& p = a.get<attr::fft>();
  if (p.axes.size() != p.lengths.size() || p.axes.empty())
    throw ValueError(P(op) + "axes " + p.axes.str() + " and lengths " + p.lengths.str() + " must be non-empty and match");
  need_axes(op, p.axes, x.ndim());
  if (p.norm < 0 || p.norm > 2)
    throw ValueError(P(op) + "invalid norm code " + std::to_string(p.norm) + " (0 backward, 1 ortho, 2 forward)");
  Shape& s = out[0].shape;
  s = x.shape();
  for (std::size_t i = 0; i < p.axes.size(); ++i) {
    if (p.lengths[i] < 1) throw ValueError(P(op) + "invalid number of data points " + std::to_string(p.lengths[i]));
    s[p.axes[i]] = p.lengths[i];
  }
  out[0].dtype = d;
  out[0].known = true;
  return 1;
}
}  // namespace
int infer_fft_c2c(const char* op, const Array* in, int, AttrsRef a, OutSpec* out) {
  return fft_spec(op, in[0], a, complex_of(in[0].dtype()), out);
}
int infer_fft_r2c(const char* op, const Array* in, int, AttrsRef a, OutSpec* out) {
  const auto& p = a.get<attr::fft>();
  fft_spec(op, in[0], a, complex_of(in[0].dtype()), out);
  out[0].shape[p.axes.back()] = p.lengths.back() / 2 + 1;
  return 1;
}
int infer_fft_c2r(const char* op, const Array* in, int, AttrsRef a, OutSpec* out) {
  return fft_spec(op, in[0], a, real_of(complex_of(in[0].dtype())), out);
}

}  // namespace ivy::meta

#include "meta.hpp"

#include <algorithm>
#include <cmath>
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

Shape reduced(const Array& x, const Attrs& a) {
  Shape s;
  auto r = x.ndim();
  for (std::int64_t i = 0; i < r; ++i) {
    bool red = !a.has_axes || std::find(a.axes.begin(), a.axes.end(), i) != a.axes.end();
    if (!red)
      s.push_back(x.shape()[i]);
    else if (a.b0)
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
  if (kinds & K_B) add("bool");
  if (kinds & K_I) add("integer");
  if (kinds & K_F) add("real floating");
  if (kinds & K_C) add("complex floating");
  throw TypeError(P(op) + "got dtype " + dtype_name(x.dtype()) + " (shape " + x.shape().str() + ", backend " + be->name +
                  "); expected " + allowed);
}

// ---- elementwise
int m_abs(const char*, const Array* in, int, const Attrs&, OutSpec* out) {
  return one(out, in[0].shape(), real_of(in[0].dtype()));
}
int m_ufloat(const char*, const Array* in, int, const Attrs&, OutSpec* out) {
  return one(out, in[0].shape(), float_of(in[0].dtype()));
}
int m_usame(const char*, const Array* in, int, const Attrs&, OutSpec* out) {
  return one(out, in[0].shape(), in[0].dtype());
}
int m_realpart(const char*, const Array* in, int, const Attrs&, OutSpec* out) {
  return one(out, in[0].shape(), real_of(in[0].dtype()));
}
int m_ubool(const char*, const Array* in, int, const Attrs&, OutSpec* out) { return one(out, in[0].shape(), bool_); }
// The broadcast shape of a binary function's inputs into out[0]; equal shapes (the common
// case) are copied without the per-axis walk.
static void binary_shape(const char* op, const Array* in, OutSpec* out) {
  if (in[0].shape() == in[1].shape())
    out[0].shape = in[0].shape();
  else
    out[0].shape = broadcast_shapes(in[0].shape(), in[1].shape(), op);
  out[0].known = true;
}
int m_binary(const char* op, const Array* in, int, const Attrs&, OutSpec* out) {
  binary_shape(op, in, out);
  out[0].dtype = result_type(in[0].dtype(), in[1].dtype());
  return 1;
}
int m_bfloat(const char* op, const Array* in, int, const Attrs&, OutSpec* out) {
  binary_shape(op, in, out);
  out[0].dtype = float_of(result_type(in[0].dtype(), in[1].dtype()));
  return 1;
}
int m_compare(const char* op, const Array* in, int, const Attrs&, OutSpec* out) {
  binary_shape(op, in, out);
  out[0].dtype = bool_;
  return 1;
}
int m_logical(const char* op, const Array* in, int n, const Attrs& a, OutSpec* out) { return m_compare(op, in, n, a, out); }

// ---- creation
namespace {
void need_shape(const char* op, const Shape& s) {
  for (auto d : s)
    if (d < 0) throw ValueError(P(op) + "negative dimension in shape " + s.str());
}
}  // namespace
int m_full(const char* op, const Array*, int, const Attrs& a, OutSpec* out) {
  need_shape(op, a.ints);
  return one(out, a.ints, a.dtype);
}
int m_arange(const char* op, const Array*, int, const Attrs& a, OutSpec* out) {
  double start = a.s0.d, stop = a.s1.d, step = a.s2.d;
  if (step == 0) throw ValueError(P(op) + "step must not be zero");
  if (!std::isfinite(start) || !std::isfinite(stop) || !std::isfinite(step))
    throw ValueError(P(op) + "start, stop and step must be finite");
  std::int64_t len;
  if (a.s0.kind == Scalar::Int && a.s1.kind == Scalar::Int && a.s2.kind == Scalar::Int) {
    std::int64_t s = a.s0.i, e = a.s1.i, st = a.s2.i;
    len = slice_length(s, e, st);
  } else {
    len = std::max<std::int64_t>(0, static_cast<std::int64_t>(std::ceil((stop - start) / step)));
  }
  return one(out, Shape{len}, a.dtype);
}
int m_linspace(const char* op, const Array*, int, const Attrs& a, OutSpec* out) {
  if (a.i0 < 0) throw ValueError(P(op) + "num must be >= 0, got " + std::to_string(a.i0));
  return one(out, Shape{a.i0}, a.dtype);
}
int m_eye(const char* op, const Array*, int, const Attrs& a, OutSpec* out) {
  if (a.i0 < 0 || a.i1 < 0)
    throw ValueError(P(op) + "n_rows and n_cols must be >= 0, got " + std::to_string(a.i0) + ", " + std::to_string(a.i1));
  return one(out, Shape{a.i0, a.i1}, a.dtype);
}
int m_random(const char* op, const Array*, int, const Attrs& a, OutSpec* out) {
  need_shape(op, a.ints);
  return one(out, a.ints, a.dtype);
}
int m_matrix_same(const char* op, const Array* in, int, const Attrs&, OutSpec* out) {
  need_rank(op, in[0], 2);
  return one(out, in[0].shape(), in[0].dtype());
}
int m_astype(const char*, const Array* in, int, const Attrs& a, OutSpec* out) { return one(out, in[0].shape(), a.dtype); }

// ---- manipulation
int m_reshape(const char* op, const Array* in, int, const Attrs& a, OutSpec* out) {
  Shape s = a.ints;
  int infer = -1;
  std::int64_t known = 1;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == -1) {
      if (infer >= 0) throw ValueError(P(op) + "only one dimension can be -1, got " + s.str());
      infer = static_cast<int>(i);
    } else if (s[i] < 0) {
      throw ValueError(P(op) + "invalid dimension in shape " + s.str());
    } else {
      known *= s[i];
    }
  }
  auto n = in[0].size();
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
int m_permute(const char* op, const Array* in, int, const Attrs& a, OutSpec* out) {
  if (static_cast<std::int64_t>(a.axes.size()) != in[0].ndim())
    throw ValueError(P(op) + "axes " + a.axes.str() + " do not match an array of shape " + in[0].shape().str());
  need_axes(op, a.axes, in[0].ndim());
  Shape s;
  for (auto ax : a.axes) s.push_back(in[0].shape()[ax]);
  return one(out, s, in[0].dtype());
}
[[noreturn, gnu::cold, gnu::noinline]] void broadcast_to_fail(const char* op, const Shape& s, const Shape& t) {
  broadcast_shapes(s, t, op);  // throws for shapes that do not broadcast together
  throw ValueError(P(op) + "cannot broadcast shape " + s.str() + " to " + t.str());
}
// The standard's rule, checked without building the broadcast shape: the input has at most
// the target's rank, and each of its axes (aligned right) is 1 or the target's length.
int m_broadcast_to(const char* op, const Array* in, int, const Attrs& a, OutSpec* out) {
  const Shape& s = in[0].shape();
  const Shape& t = a.ints;
  bool ok = s.size() <= t.size();
  for (std::size_t i = 1; ok && i <= s.size(); ++i) {
    const std::int64_t d = s[s.size() - i];
    ok = d == 1 || d == t[t.size() - i];
  }
  if (!ok) broadcast_to_fail(op, s, t);
  return one(out, t, in[0].dtype());
}
int m_flip(const char* op, const Array* in, int, const Attrs& a, OutSpec* out) {
  need_axes(op, a.axes, in[0].ndim());
  return one(out, in[0].shape(), in[0].dtype());
}
int m_roll(const char* op, const Array* in, int, const Attrs& a, OutSpec* out) {
  if (a.has_axes) {
    if (a.axes.size() != a.ints.size())
      throw ValueError(P(op) + "shift " + a.ints.str() + " and axis " + a.axes.str() + " differ in length");
    for (auto ax : a.axes) need_canonical_axis(op, ax, in[0].ndim());
  } else if (a.ints.size() != 1) {
    throw ValueError(P(op) + "without axis, shift must be a single integer, got " + a.ints.str());
  }
  return one(out, in[0].shape(), in[0].dtype());
}
int m_repeat(const char* op, const Array* in, int, const Attrs& a, OutSpec* out) {
  const Array& x = in[0];
  std::int64_t len = a.has_axes ? (x.ndim() ? x.shape()[a.i0] : 1) : x.size();
  if (a.has_axes) need_canonical_axis(op, a.i0, x.ndim());
  if (a.ints.size() != 1 && static_cast<std::int64_t>(a.ints.size()) != len)
    throw ValueError(P(op) + "repeats " + a.ints.str() + " must have 1 or " + std::to_string(len) + " entries");
  std::int64_t total = 0;
  for (auto r : a.ints)
    if (r < 0) throw ValueError(P(op) + "repeats must be non-negative, got " + a.ints.str());
  if (a.ints.size() == 1) total = a.ints[0] * len;  // one count for every element: no loop over them
  else
    for (auto r : a.ints) total += r;
  Shape s = a.has_axes ? x.shape() : Shape{total};
  if (a.has_axes && x.ndim()) s[a.i0] = total;
  if (a.has_axes && !x.ndim()) s = Shape{total};
  return one(out, s, x.dtype());
}
int m_tile(const char* op, const Array* in, int, const Attrs& a, OutSpec* out) {
  const Shape& xs = in[0].shape();
  std::size_t r = std::max(xs.size(), a.ints.size());
  Shape s;
  s.resize(r);
  for (std::size_t i = 0; i < r; ++i) {
    std::int64_t d = i < r - xs.size() ? 1 : xs[i - (r - xs.size())];
    std::int64_t k = i < r - a.ints.size() ? 1 : a.ints[i - (r - a.ints.size())];
    if (k < 0) throw ValueError(P(op) + "repetitions must be non-negative, got " + a.ints.str());
    s[i] = d * k;
  }
  return one(out, s, in[0].dtype());
}
int m_concat(const char* op, const Array* in, int n, const Attrs& a, OutSpec* out) {
  if (n < 1) throw ValueError(P(op) + "needs at least one array");
  auto r = in[0].ndim();
  if (r == 0) throw ValueError(P(op) + "zero-dimensional arrays cannot be concatenated");
  need_canonical_axis(op, a.i0, r);
  Shape s = in[0].shape();
  DType d = in[0].dtype();
  for (int i = 1; i < n; ++i) {
    const Shape& t = in[i].shape();
    bool ok = static_cast<std::int64_t>(t.size()) == r;
    for (std::int64_t k = 0; ok && k < r; ++k)
      if (k != a.i0 && t[k] != s[k]) ok = false;
    if (!ok)
      throw ValueError(P(op) + "array " + std::to_string(i) + " has shape " + t.str() + ", incompatible with " +
                       in[0].shape().str() + " along axis " + std::to_string(a.i0));
    s[a.i0] += t[a.i0];
    d = result_type(d, in[i].dtype());
  }
  return one(out, s, d);
}

// ---- indexing
int m_strided_slice(const char* op, const Array* in, int, const Attrs& a, OutSpec* out) {
  auto r = in[0].ndim();
  if (static_cast<std::int64_t>(a.ints.size()) != r || a.ints2.size() != a.ints.size() || a.ints3.size() != a.ints.size())
    throw ValueError(P(op) + "start/stop/step must have one entry per axis of shape " + in[0].shape().str());
  Shape s;
  for (std::int64_t i = 0; i < r; ++i) {
    auto st = a.ints3[i], b = a.ints[i], e = a.ints2[i];
    if (st == 0) throw ValueError(P(op) + "slice step must not be zero");
    s.push_back(slice_length(b, e, st));
  }
  return one(out, s, in[0].dtype());
}
int m_slice_update(const char* op, const Array* in, int n, const Attrs& a, OutSpec* out) {
  OutSpec sl;
  m_strided_slice(op, in, n, a, &sl);
  Shape b = broadcast_shapes(in[1].shape(), sl.shape, op);
  if (!(b == sl.shape))
    throw ValueError(P(op) + "value of shape " + in[1].shape().str() + " cannot be broadcast to the selection " +
                     sl.shape.str());
  return one(out, in[0].shape(), in[0].dtype());
}
int m_take(const char* op, const Array* in, int, const Attrs& a, OutSpec* out) {
  const Array& x = in[0];
  if (!is_integer(in[1].dtype()))
    throw TypeError(P(op) + "indices must have an integer dtype, got " + dtype_name(in[1].dtype()));
  need_rank(op, x, 1);
  need_canonical_axis(op, a.i0, x.ndim());
  Shape s;
  for (std::int64_t i = 0; i < a.i0; ++i) s.push_back(x.shape()[i]);
  for (auto d : in[1].shape()) s.push_back(d);
  for (std::int64_t i = a.i0 + 1; i < x.ndim(); ++i) s.push_back(x.shape()[i]);
  if (x.shape()[a.i0] == 0 && in[1].size() > 0)
    throw IndexError(P(op) + "cannot take from an empty axis " + std::to_string(a.i0) + " of shape " + x.shape().str());
  return one(out, s, x.dtype());
}
int m_take_along(const char* op, const Array* in, int, const Attrs& a, OutSpec* out) {
  const Array& x = in[0];
  const Array& idx = in[1];
  if (!is_integer(idx.dtype()))
    throw TypeError(P(op) + "indices must have an integer dtype, got " + dtype_name(idx.dtype()));
  need_rank(op, x, 1);
  if (idx.ndim() != x.ndim())
    throw ValueError(P(op) + "indices of shape " + idx.shape().str() + " must have the rank of x " + x.shape().str());
  need_canonical_axis(op, a.i0, x.ndim());
  Shape xs = x.shape(), is = idx.shape();
  xs[a.i0] = 1;
  is[a.i0] = 1;
  Shape s = broadcast_shapes(xs, is, op);
  s[a.i0] = idx.shape()[a.i0];
  return one(out, s, x.dtype());
}
int m_index_put(const char* op, const Array* in, int, const Attrs&, OutSpec* out) {
  if (in[1].dtype() != int64 || in[1].ndim() != 1)
    throw TypeError(P(op) + "positions must be a 1-d int64 array, got " + dtype_name(in[1].dtype()) + in[1].shape().str());
  Shape b = broadcast_shapes(in[2].shape(), in[1].shape(), op);
  if (!(b == in[1].shape()))
    throw ValueError(P(op) + "value of shape " + in[2].shape().str() + " cannot be broadcast to " + std::to_string(in[1].size()) +
                     " selected elements");
  return one(out, in[0].shape(), in[0].dtype());
}

// ---- searching, sorting, sets
int m_argreduce(const char* op, const Array* in, int, const Attrs& a, OutSpec* out) {
  const Array& x = in[0];
  if (x.size() == 0) throw ValueError(P(op) + "attempt to get " + op + " of an empty array " + x.shape().str());
  Shape s;
  if (a.has_axes) {
    need_canonical_axis(op, a.i0, x.ndim());
    if (x.ndim() == 0) return one(out, s, int64);
    s = x.shape();
    if (a.b0) s[a.i0] = 1;
    else s.erase(a.i0);
  } else if (a.b0) {
    s.resize(x.ndim(), 1);
  }
  return one(out, s, int64);
}
int m_nonzero(const char* op, const Array* in, int, const Attrs&, OutSpec* out) {
  if (in[0].ndim() == 0) throw ValueError(P(op) + "is not defined for zero-dimensional arrays");
  for (std::int64_t i = 0; i < in[0].ndim(); ++i) {
    out[i].shape = Shape{-1};
    out[i].dtype = int64;
    out[i].known = false;
  }
  return static_cast<int>(in[0].ndim());
}
int m_where(const char* op, const Array* in, int, const Attrs&, OutSpec* out) {
  if (!is_bool(in[0].dtype()))
    throw TypeError(P(op) + "condition must be bool, got " + dtype_name(in[0].dtype()));
  Shape s = broadcast_shapes(broadcast_shapes(in[0].shape(), in[1].shape(), op), in[2].shape(), op);
  return one(out, s, result_type(in[1].dtype(), in[2].dtype()));
}
int m_searchsorted(const char* op, const Array* in, int, const Attrs&, OutSpec* out) {
  if (in[0].ndim() != 1) throw ValueError(P(op) + "x1 must be 1-d, got shape " + in[0].shape().str());
  return one(out, in[1].shape(), int64);
}
int m_sort(const char* op, const Array* in, int, const Attrs& a, OutSpec* out) {
  need_rank(op, in[0], 1);
  need_canonical_axis(op, a.i0, in[0].ndim());
  return one(out, in[0].shape(), std::string_view(op) == "argsort" ? int64 : in[0].dtype());
}
int m_unique(const char*, const Array* in, int, const Attrs&, OutSpec* out) {
  out[0] = {Shape{-1}, in[0].dtype(), false};
  out[1] = {Shape{-1}, int64, false};
  out[2] = {in[0].shape(), int64, true};
  out[3] = {Shape{-1}, int64, false};
  return 4;
}
int m_isin(const char*, const Array* in, int, const Attrs&, OutSpec* out) { return one(out, in[0].shape(), bool_); }

// ---- reductions
namespace {
void check_reduce(const char* op, const Array& x, const Attrs& a) {
  if (a.has_axes) need_axes(op, a.axes, x.ndim());
}
}  // namespace
int m_reduce_acc(const char* op, const Array* in, int, const Attrs& a, OutSpec* out) {
  check_reduce(op, in[0], a);
  if (a.has_dtype && is_bool(a.dtype)) throw TypeError(P(op) + "cannot accumulate in dtype bool");
  return one(out, reduced(in[0], a), a.has_dtype ? a.dtype : acc_dtype(in[0].dtype()));
}
int m_reduce_float(const char* op, const Array* in, int, const Attrs& a, OutSpec* out) {
  check_reduce(op, in[0], a);
  return one(out, reduced(in[0], a), float_of(in[0].dtype()));
}
int m_reduce_same(const char* op, const Array* in, int, const Attrs& a, OutSpec* out) {
  check_reduce(op, in[0], a);
  const Array& x = in[0];
  for (std::int64_t i = 0; i < x.ndim(); ++i) {
    bool red = !a.has_axes || std::find(a.axes.begin(), a.axes.end(), i) != a.axes.end();
    if (red && x.shape()[i] == 0)
      throw ValueError(P(op) + "zero-size reduction along axis " + std::to_string(i) + " of shape " + x.shape().str() +
                       " has no identity");
  }
  return one(out, reduced(x, a), x.dtype());
}
int m_reduce_var(const char* op, const Array* in, int, const Attrs& a, OutSpec* out) {
  check_reduce(op, in[0], a);
  if (a.f0 < 0) throw ValueError(P(op) + "correction must be >= 0, got " + std::to_string(a.f0));
  return one(out, reduced(in[0], a), real_of(float_of(in[0].dtype())));
}
int m_reduce_bool(const char* op, const Array* in, int, const Attrs& a, OutSpec* out) {
  check_reduce(op, in[0], a);
  return one(out, reduced(in[0], a), bool_);
}
int m_cumulative(const char* op, const Array* in, int, const Attrs& a, OutSpec* out) {
  const Array& x = in[0];
  if (a.has_dtype && is_bool(a.dtype)) throw TypeError(P(op) + "cannot accumulate in dtype bool");
  Shape s = x.shape();
  if (x.ndim() == 0) {
    s = Shape{1};
    if (a.i0 != 0) need_canonical_axis(op, a.i0, 0);
  } else {
    need_canonical_axis(op, a.i0, x.ndim());
  }
  if (a.b1) s[x.ndim() ? a.i0 : 0] += 1;
  return one(out, s, a.has_dtype ? a.dtype : acc_dtype(x.dtype()));
}

// ---- linear algebra
int m_matmul(const char* op, const Array* in, int, const Attrs&, OutSpec* out) {
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
int m_diagonal(const char* op, const Array* in, int, const Attrs& a, OutSpec* out) {
  need_rank(op, in[0], 2);
  const Shape& s = in[0].shape();
  std::int64_t r = s[s.size() - 2], c = s.back(), off = a.i0;
  std::int64_t len = off >= 0 ? std::min(r, c - off) : std::min(r + off, c);
  Shape o = batch_of(s, 2);
  o.push_back(std::max<std::int64_t>(0, len));
  return one(out, o, in[0].dtype());
}
int m_sq_same(const char* op, const Array* in, int, const Attrs&, OutSpec* out) {
  need_square(op, in[0]);
  return one(out, in[0].shape(), in[0].dtype());
}
int m_sq_batch(const char* op, const Array* in, int, const Attrs&, OutSpec* out) {
  need_square(op, in[0]);
  return one(out, batch_of(in[0].shape(), 2), in[0].dtype());
}
int m_slogdet(const char* op, const Array* in, int, const Attrs&, OutSpec* out) {
  need_square(op, in[0]);
  Shape b = batch_of(in[0].shape(), 2);
  out[0] = {b, in[0].dtype(), true};
  out[1] = {b, real_of(in[0].dtype()), true};
  return 2;
}
int m_solve(const char* op, const Array* in, int, const Attrs&, OutSpec* out) {
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
int m_eigh(const char* op, const Array* in, int, const Attrs&, OutSpec* out) {
  need_square(op, in[0]);
  Shape v = batch_of(in[0].shape(), 1);
  out[0] = {v, real_of(in[0].dtype()), true};
  out[1] = {in[0].shape(), in[0].dtype(), true};
  return 2;
}
int m_eigvalsh(const char* op, const Array* in, int, const Attrs&, OutSpec* out) {
  need_square(op, in[0]);
  return one(out, batch_of(in[0].shape(), 1), real_of(in[0].dtype()));
}
int m_eig(const char* op, const Array* in, int, const Attrs&, OutSpec* out) {
  need_square(op, in[0]);
  DType c = complex_of(in[0].dtype());
  out[0] = {batch_of(in[0].shape(), 1), c, true};
  out[1] = {in[0].shape(), c, true};
  return 2;
}
int m_eigvals(const char* op, const Array* in, int, const Attrs&, OutSpec* out) {
  need_square(op, in[0]);
  return one(out, batch_of(in[0].shape(), 1), complex_of(in[0].dtype()));
}
int m_svd(const char* op, const Array* in, int, const Attrs& a, OutSpec* out) {
  need_rank(op, in[0], 2);
  const Shape& s = in[0].shape();
  auto m = s[s.size() - 2], n = s.back(), k = std::min(m, n);
  Shape b = batch_of(s, 2), u = b, sv = b, vh = b;
  u.push_back(m);
  u.push_back(a.b0 ? m : k);
  sv.push_back(k);
  vh.push_back(a.b0 ? n : k);
  vh.push_back(n);
  out[0] = {u, in[0].dtype(), true};
  out[1] = {sv, real_of(in[0].dtype()), true};
  out[2] = {vh, in[0].dtype(), true};
  return 3;
}
int m_svdvals(const char* op, const Array* in, int, const Attrs&, OutSpec* out) {
  need_rank(op, in[0], 2);
  const Shape& s = in[0].shape();
  Shape b = batch_of(s, 2);
  b.push_back(std::min(s[s.size() - 2], s.back()));
  return one(out, b, real_of(in[0].dtype()));
}
int m_qr(const char* op, const Array* in, int, const Attrs& a, OutSpec* out) {
  need_rank(op, in[0], 2);
  const Shape& s = in[0].shape();
  auto m = s[s.size() - 2], n = s.back(), k = std::min(m, n);
  Shape q = batch_of(s, 2), r = q;
  q.push_back(m);
  q.push_back(a.b0 ? m : k);
  r.push_back(a.b0 ? m : k);
  r.push_back(n);
  out[0] = {q, in[0].dtype(), true};
  out[1] = {r, in[0].dtype(), true};
  return 2;
}

// ---- fft
namespace {
// The result's shape and dtype, written straight into the output spec (no Shape copies),
// after checking the axes, the lengths and the norm code (i0), for every backend's kernel.
int fft_spec(const char* op, const Array& x, const Attrs& a, DType d, OutSpec* out) {
  if (a.axes.size() != a.ints.size() || a.axes.empty())
    throw ValueError(P(op) + "axes " + a.axes.str() + " and lengths " + a.ints.str() + " must be non-empty and match");
  need_axes(op, a.axes, x.ndim());
  if (a.i0 < 0 || a.i0 > 2)
    throw ValueError(P(op) + "invalid norm code " + std::to_string(a.i0) + " (0 backward, 1 ortho, 2 forward)");
  Shape& s = out[0].shape;
  s = x.shape();
  for (std::size_t i = 0; i < a.axes.size(); ++i) {
    if (a.ints[i] < 1) throw ValueError(P(op) + "invalid number of data points " + std::to_string(a.ints[i]));
    s[a.axes[i]] = a.ints[i];
  }
  out[0].dtype = d;
  out[0].known = true;
  return 1;
}
}  // namespace
int m_fft_c2c(const char* op, const Array* in, int, const Attrs& a, OutSpec* out) {
  return fft_spec(op, in[0], a, complex_of(in[0].dtype()), out);
}
int m_fft_r2c(const char* op, const Array* in, int, const Attrs& a, OutSpec* out) {
  fft_spec(op, in[0], a, complex_of(in[0].dtype()), out);
  out[0].shape[a.axes.back()] = a.ints.back() / 2 + 1;
  return 1;
}
int m_fft_c2r(const char* op, const Array* in, int, const Attrs& a, OutSpec* out) {
  return fft_spec(op, in[0], a, real_of(complex_of(in[0].dtype())), out);
}

}  // namespace ivy::meta

// ivy::Array: host access, printing, operators and indexing.
#include <cmath>
#include <iomanip>
#include <sstream>

#include "functional/common.hpp"

namespace ivy {

using detail::P;

void copy_to_host(const Array& x, void* dst) {
  if (!x.defined()) throw ValueError("[to_host] undefined array");
  x.impl()->backend->to_host(x, dst);
}

template <class T>
std::vector<T> Array::to_vector() const {
  if (!defined()) throw ValueError("[to_vector] undefined array");
  Array c = dtype() == dtype_v<T> ? *this : astype(*this, dtype_v<T>);
  if constexpr (std::is_same_v<T, bool>) {
    std::vector<std::uint8_t> tmp(static_cast<std::size_t>(size()));
    copy_to_host(c, tmp.data());
    return std::vector<bool>(tmp.begin(), tmp.end());
  } else {
    std::vector<T> out(static_cast<std::size_t>(size()));
    copy_to_host(c, out.data());
    return out;
  }
}
template std::vector<bool> Array::to_vector<bool>() const;
template std::vector<std::int8_t> Array::to_vector<std::int8_t>() const;
template std::vector<std::int16_t> Array::to_vector<std::int16_t>() const;
template std::vector<std::int32_t> Array::to_vector<std::int32_t>() const;
template std::vector<std::int64_t> Array::to_vector<std::int64_t>() const;
template std::vector<std::uint8_t> Array::to_vector<std::uint8_t>() const;
template std::vector<std::uint16_t> Array::to_vector<std::uint16_t>() const;
template std::vector<std::uint32_t> Array::to_vector<std::uint32_t>() const;
template std::vector<std::uint64_t> Array::to_vector<std::uint64_t>() const;
template std::vector<float> Array::to_vector<float>() const;
template std::vector<double> Array::to_vector<double>() const;
template std::vector<std::complex<float>> Array::to_vector<std::complex<float>>() const;
template std::vector<std::complex<double>> Array::to_vector<std::complex<double>>() const;
// long long and unsigned long long where they are types of their own (int64_t is long on
// LP64 systems): the 64-bit integers under their other spelling.
#if defined(__LP64__)
static_assert(!std::is_same_v<long long, std::int64_t> && sizeof(long long) == 8);
template std::vector<long long> Array::to_vector<long long>() const;
template std::vector<unsigned long long> Array::to_vector<unsigned long long>() const;
#endif

Scalar Array::item_scalar() const {
  if (size() != 1) throw ValueError("[item] needs an array with exactly one element, got shape " + shape().str());
  DType d = dtype();
  if (is_bool(d)) return Scalar(item<bool>());
  // uint64 keeps its bits in Scalar::i and its value in Scalar::d; narrower unsigned types
  // read exactly through int64 (a backend without uint64 can still read them).
  if (d == uint64) return Scalar(item<std::uint64_t>());
  if (is_integer(d)) return Scalar(item<std::int64_t>());
  if (is_complex(d)) return Scalar(item<std::complex<double>>());
  return Scalar(item<double>());
}

Array Array::from_scalar(Scalar s, DType d) { return full(Shape{}, s, d); }

Array Array::T() const {
  if (ndim() > 2) throw ValueError("[T] is defined for arrays of rank <= 2, got shape " + shape().str() + "; use mT");
  return ndim() == 2 ? permute_dims(*this, Dims{1, 0}) : *this;
}
Array Array::mT() const { return matrix_transpose(*this); }

// ---------------------------------------------------------------- printing
namespace {
std::string fmt_value(const Array& flat_host_d, std::int64_t i, DType d, const std::vector<double>& re,
                      const std::vector<double>& im, const std::vector<std::int64_t>& iv, const std::vector<std::uint64_t>& uv) {
  (void)flat_host_d;
  std::ostringstream os;
  auto real = [&](double v) {
    if (std::isnan(v)) return std::string("nan");
    if (std::isinf(v)) return std::string(v > 0 ? "inf" : "-inf");
    std::ostringstream o;
    o << std::setprecision(d == float64 || d == complex128 ? 8 : 6) << v;
    std::string s = o.str();
    if (s.find_first_of(".e") == std::string::npos) s += ".";
    return s;
  };
  if (is_bool(d)) os << (iv[i] ? "True" : "False");
  else if (is_unsigned_int(d)) os << uv[i];
  else if (is_integer(d)) os << iv[i];
  else if (is_complex(d)) os << real(re[i]) << (im[i] < 0 || (im[i] == 0 && std::signbit(im[i])) ? "" : "+") << real(im[i]) << "j";
  else os << real(re[i]);
  return os.str();
}
}  // namespace

std::ostream& operator<<(std::ostream& os, const Array& a) {
  if (!a.defined()) return os << "Array(undefined)";
  DType d = a.dtype();
  std::vector<double> re, im;
  std::vector<std::int64_t> iv;
  std::vector<std::uint64_t> uv;
  if (is_complex(d)) {
    for (auto c : a.to_vector<std::complex<double>>()) re.push_back(c.real()), im.push_back(c.imag());
  } else if (d == uint64) {
    uv = a.to_vector<std::uint64_t>();
  } else if (is_unsigned_int(d)) {
    for (auto v : a.to_vector<std::int64_t>()) uv.push_back(static_cast<std::uint64_t>(v));
  } else if (is_integer(d) || is_bool(d)) {
    iv = a.to_vector<std::int64_t>();
  } else {
    re = a.to_vector<double>();
  }
  std::vector<std::string> cells(static_cast<std::size_t>(a.size()));
  std::size_t width = 0;
  for (std::int64_t i = 0; i < a.size(); ++i) {
    cells[i] = fmt_value(a, i, d, re, im, iv, uv);
    width = std::max(width, cells[i].size());
  }
  const Shape& s = a.shape();
  std::ostringstream out;
  out << "array(";
  std::int64_t idx = 0;
  std::function<void(std::size_t)> rec = [&](std::size_t dim) {
    if (dim == s.size()) {
      out << std::setw(static_cast<int>(width)) << cells[idx++];
      return;
    }
    out << "[";
    for (std::int64_t i = 0; i < s[dim]; ++i) {
      if (i) {
        out << ",";
        if (dim + 1 == s.size()) out << " ";
        else out << std::string(s.size() - dim - 1, '\n') << std::string(dim + 7, ' ');
      }
      rec(dim + 1);
    }
    out << "]";
  };
  rec(0);
  out << ", dtype=" << dtype_name(d);
  if (a.size() == 0) out << ", shape=" << s.str();
  out << ", backend=" << a.backend().name() << ")";
  return os << out.str();
}

// ---------------------------------------------------------------- operators
#define IVY_BIN_OPS(op, fn)                                                           \
  Array operator op(const Array& a, const Array& b) { return fn(a, b); }             \
  Array operator op(const Array& a, Scalar b) { return fn(a, b); }                   \
  Array operator op(Scalar a, const Array& b) { return fn(a, b); }
IVY_BIN_OPS(+, add)
IVY_BIN_OPS(-, subtract)
IVY_BIN_OPS(*, multiply)
IVY_BIN_OPS(/, divide)
IVY_BIN_OPS(%, remainder)
IVY_BIN_OPS(&, bitwise_and)
IVY_BIN_OPS(|, bitwise_or)
IVY_BIN_OPS(^, bitwise_xor)
IVY_BIN_OPS(<<, bitwise_left_shift)
IVY_BIN_OPS(>>, bitwise_right_shift)
IVY_BIN_OPS(==, equal)
IVY_BIN_OPS(!=, not_equal)
IVY_BIN_OPS(<, less)
IVY_BIN_OPS(<=, less_equal)
IVY_BIN_OPS(>, greater)
IVY_BIN_OPS(>=, greater_equal)
#undef IVY_BIN_OPS
Array operator-(const Array& a) { return negative(a); }
Array operator+(const Array& a) { return positive(a); }
Array operator~(const Array& a) { return bitwise_invert(a); }
Array operator!(const Array& a) { return logical_not(a); }

namespace {
Array inplace_result(const Array& self, const Array& r, const char* op) {
  if (r.dtype() != self.dtype() && !can_cast(r.dtype(), self.dtype()) && !(is_floating(r.dtype()) && is_floating(self.dtype())))
    throw TypeError(P(op) + "result dtype " + dtype_name(r.dtype()) + " cannot be stored in-place into " +
                    dtype_name(self.dtype()));
  if (!(r.shape() == self.shape()))
    throw ValueError(P(op) + "in-place result shape " + r.shape().str() + " differs from " + self.shape().str());
  return r.dtype() == self.dtype() ? r : astype(r, self.dtype());
}
}  // namespace
#define IVY_INPLACE(op, fn)                                                                       \
  Array& Array::operator op(const Array& o) {                                                     \
    *this = inplace_result(*this, fn(*this, o), #fn);                                             \
    return *this;                                                                                 \
  }
IVY_INPLACE(+=, add)
IVY_INPLACE(-=, subtract)
IVY_INPLACE(*=, multiply)
IVY_INPLACE(/=, divide)
IVY_INPLACE(%=, remainder)
IVY_INPLACE(&=, bitwise_and)
IVY_INPLACE(|=, bitwise_or)
IVY_INPLACE(^=, bitwise_xor)
IVY_INPLACE(<<=, bitwise_left_shift)
IVY_INPLACE(>>=, bitwise_right_shift)
#undef IVY_INPLACE
#define IVY_INPLACE_S(op, fn)                                                                     \
  Array& Array::operator op(Scalar o) {                                                           \
    *this = inplace_result(*this, fn(*this, o), #fn);                                             \
    return *this;                                                                                 \
  }
IVY_INPLACE_S(+=, add)
IVY_INPLACE_S(-=, subtract)
IVY_INPLACE_S(*=, multiply)
IVY_INPLACE_S(/=, divide)
#undef IVY_INPLACE_S

// ---------------------------------------------------------------- indexing
namespace {
struct Plan {
  attr::slice slice;           // strided_slice attrs over x's axes
  Shape result_shape;          // after dropping integer axes and inserting new axes
  bool has_arrays = false;
  // for advanced indexing: per x-axis, the index array (undefined when none)
  std::vector<Array> arrays;   // one entry per x axis
};

void norm_slice(const Slice& s, std::int64_t n, std::int64_t* b, std::int64_t* e, std::int64_t* st) {
  std::int64_t step = s.step.value_or(1);
  if (step == 0) throw ValueError("[index] slice step must not be zero");
  std::int64_t start, stop;
  if (step > 0) {
    start = s.start.value_or(0);
    stop = s.stop.value_or(n);
    if (start < 0) start += n;
    if (stop < 0) stop += n;
    start = std::clamp<std::int64_t>(start, 0, n);
    stop = std::clamp<std::int64_t>(stop, 0, n);
  } else {
    start = s.start ? *s.start : n - 1;
    stop = s.stop ? *s.stop : -1;
    if (s.start && start < 0) start += n;
    if (s.stop && stop < 0) stop += n;
    start = std::clamp<std::int64_t>(start, -1, n - 1);
    stop = std::clamp<std::int64_t>(stop, -1, n - 1);
  }
  *b = start;
  *e = stop;
  *st = step;
}

Plan make_plan(const Array& x, const std::vector<Index>& items) {
  const Shape& xs = x.shape();
  std::int64_t r = x.ndim();
  std::int64_t consumed = 0, n_ellipsis = 0;
  for (auto& it : items) {
    switch (it.kind()) {
      case Index::Integer:
      case Index::SliceK: consumed += 1; break;
      case Index::ArrayK: consumed += is_bool(it.array().dtype()) ? std::max<std::int64_t>(it.array().ndim(), 0) : 1; break;
      case Index::EllipsisK: n_ellipsis++; break;
      case Index::NewAxisK: break;
    }
  }
  if (n_ellipsis > 1) throw IndexError("[index] an index can only have a single ellipsis");
  if (consumed > r)
    throw IndexError("[index] too many indices for an array of shape " + xs.str() + ": " + std::to_string(consumed) +
                     " were given");
  Plan p;
  p.arrays.resize(static_cast<std::size_t>(r));
  std::int64_t axis = 0;
  auto full_axis = [&](std::int64_t ax) {
    p.slice.start.push_back(0);
    p.slice.stop.push_back(xs[ax]);
    p.slice.step.push_back(1);
    p.result_shape.push_back(xs[ax]);
  };
  for (auto& it : items) {
    switch (it.kind()) {
      case Index::Integer: {
        std::int64_t n = xs[axis], i = it.integer();
        if (i < -n || i >= n)
          throw IndexError("[index] index " + std::to_string(i) + " is out of bounds for axis " + std::to_string(axis) +
                           " with size " + std::to_string(n) + " (shape " + xs.str() + ")");
        if (i < 0) i += n;
        p.slice.start.push_back(i);
        p.slice.stop.push_back(i + 1);
        p.slice.step.push_back(1);
        axis++;
        break;
      }
      case Index::SliceK: {
        std::int64_t b, e, st;
        norm_slice(it.slice(), xs[axis], &b, &e, &st);
        p.slice.start.push_back(b);
        p.slice.stop.push_back(e);
        p.slice.step.push_back(st);
        p.result_shape.push_back(slice_length(b, e, st));
        axis++;
        break;
      }
      case Index::EllipsisK: {
        std::int64_t k = r - consumed;
        for (std::int64_t j = 0; j < k; ++j) full_axis(axis++);
        break;
      }
      case Index::NewAxisK: p.result_shape.push_back(1); break;
      case Index::ArrayK: {
        const Array& ia = it.array();
        p.has_arrays = true;
        if (is_bool(ia.dtype())) {
          // each mask axis has the extent of the axis it indexes, or 0 (an empty mask selects
          // nothing, as the standard's test suite expects; NumPy raises there)
          for (std::int64_t j = 0; j < ia.ndim(); ++j)
            if (ia.shape()[j] != xs[axis + j] && ia.shape()[j] != 0)
              throw IndexError("[index] boolean index of shape " + ia.shape().str() + " does not match the indexed axes of " +
                               xs.str() + " starting at axis " + std::to_string(axis));
          if (ia.ndim() == 0) throw IndexError("[index] zero-dimensional boolean indices are not supported");
          auto nz = nonzero(ia);
          for (std::int64_t j = 0; j < ia.ndim(); ++j) {
            p.arrays[axis] = nz[j];
            full_axis(axis++);
          }
        } else if (is_integer(ia.dtype())) {
          p.arrays[axis] = ia;
          full_axis(axis++);
        } else {
          throw IndexError(std::string("[index] index arrays must be integer or bool, got ") + dtype_name(ia.dtype()));
        }
        break;
      }
    }
  }
  while (axis < r) full_axis(axis++);
  return p;
}

Array apply_basic(const Array& x, const Plan& p) {
  bool trivial = true;
  for (std::int64_t d = 0; d < x.ndim(); ++d)
    trivial &= p.slice.start[d] == 0 && p.slice.stop[d] == x.shape()[d] && p.slice.step[d] == 1;
  Array y = trivial ? x : dispatch(OpId::strided_slice, x, p.slice);
  if (!p.has_arrays && !(y.shape() == p.result_shape)) y = reshape(y, p.result_shape);
  return y;
}

Array getitem(const Array& x, const std::vector<Index>& items) {
  bool has_arrays = std::any_of(items.begin(), items.end(), [](const Index& i) { return i.kind() == Index::ArrayK; });
  bool rewrite = has_arrays && std::any_of(items.begin(), items.end(), [](const Index& i) {
                   return i.kind() == Index::Integer || i.kind() == Index::NewAxisK;
                 });
  if (rewrite) {
    // NumPy's rules, by rewriting: with index arrays present, integers are advanced indices
    // too (0-d index arrays), and a new axis is a size-1 axis inserted into x first.
    const Shape& xs = x.shape();
    std::int64_t r = x.ndim(), consumed = 0;
    for (auto& it : items) {
      if (it.kind() == Index::Integer || it.kind() == Index::SliceK) consumed += 1;
      else if (it.kind() == Index::ArrayK) consumed += is_bool(it.array().dtype()) ? it.array().ndim() : 1;
    }
    if (consumed > r)
      throw IndexError("[index] too many indices for an array of shape " + xs.str() + ": " + std::to_string(consumed) +
                       " were given");
    Shape ns;
    std::vector<Index> it2;
    std::int64_t axis = 0;
    for (auto& it : items) {
      switch (it.kind()) {
        case Index::Integer:
          ns.push_back(xs[axis++]);
          it2.emplace_back(full(Shape{}, Scalar(it.integer()), int64, {}, x.backend()));
          break;
        case Index::SliceK: ns.push_back(xs[axis++]), it2.push_back(it); break;
        case Index::ArrayK: {
          std::int64_t k = is_bool(it.array().dtype()) ? it.array().ndim() : 1;
          for (std::int64_t j = 0; j < k; ++j) ns.push_back(xs[axis++]);
          it2.push_back(it);
          break;
        }
        case Index::EllipsisK:
          for (std::int64_t j = 0; j < r - consumed; ++j) ns.push_back(xs[axis++]);
          it2.push_back(it);
          break;
        case Index::NewAxisK: ns.push_back(1), it2.emplace_back(Slice()); break;
      }
    }
    while (axis < r) ns.push_back(xs[axis++]);
    return getitem(reshape(x, ns), it2);
  }
  Plan p = make_plan(x, items);
  if (!p.has_arrays) return apply_basic(x, p);
  // Advanced indexing: basic part first (array axes kept whole), then a gather.
  Plan basic = p;
  basic.has_arrays = true;  // keep rank: integers are size-1 axes here
  Array y = apply_basic(x, basic);
  // Which axes of y carry arrays; integer axes of x are size 1 in y and are squeezed after.
  std::vector<std::int64_t> arr_axes;
  std::vector<Array> arrs;
  for (std::int64_t d = 0; d < x.ndim(); ++d)
    if (p.arrays[d].defined()) {
      arr_axes.push_back(d);
      arrs.push_back(p.arrays[d]);
    }
  auto b = broadcast_arrays(arrs);
  Shape bshape = b[0].shape();
  // linear index over the array axes
  Array lin;
  std::int64_t stride = 1;
  for (std::size_t k = arr_axes.size(); k-- > 0;) {
    std::int64_t n = y.shape()[arr_axes[k]];
    Array ik = astype(b[k], int64);
    ik = where(less(ik, Scalar(std::int64_t{0})), add(ik, Scalar(n)), ik);
    Array bad = logical_or(less(ik, Scalar(std::int64_t{0})), greater_equal(ik, Scalar(n)));
    if (any(bad).item<bool>())
      throw IndexError("[index] index array has entries out of bounds for axis " + std::to_string(arr_axes[k]) +
                       " with size " + std::to_string(n));
    Array term = multiply(ik, Scalar(stride));
    lin = lin.defined() ? add(lin, term) : term;
    stride *= n;
  }
  // move array axes to the front, merge them, take
  Dims perm;
  for (auto d : arr_axes) perm.push_back(d);
  for (std::int64_t d = 0; d < y.ndim(); ++d)
    if (std::find(arr_axes.begin(), arr_axes.end(), d) == arr_axes.end()) perm.push_back(d);
  Array yp = permute_dims(y, perm);
  Shape merged{stride};
  for (std::size_t d = arr_axes.size(); d < perm.size(); ++d) merged.push_back(yp.shape()[d]);
  Array g = take(reshape(yp, merged), reshape(lin, Shape{lin.size()}), 0);
  // result axes: broadcast dims then the remaining axes (in x order, minus integer axes,
  // plus new axes) -- new axes are placed where they appeared among the basic axes.
  Shape rest;
  for (std::size_t d = arr_axes.size(); d < perm.size(); ++d) rest.push_back(yp.shape()[d]);
  Shape gshape = bshape;
  for (auto d : rest) gshape.push_back(d);
  g = reshape(g, gshape);
  // adjacent array axes: NumPy puts the broadcast dims where the first array axis was
  bool adjacent = true;
  for (std::size_t k = 1; k < arr_axes.size(); ++k) adjacent &= arr_axes[k] == arr_axes[k - 1] + 1;
  std::int64_t nb = static_cast<std::int64_t>(bshape.size());
  if (adjacent && arr_axes[0] > 0) {
    Dims pp;
    for (std::int64_t d = 0; d < arr_axes[0]; ++d) pp.push_back(nb + d);
    for (std::int64_t d = 0; d < nb; ++d) pp.push_back(d);
    for (std::int64_t d = nb + arr_axes[0]; d < g.ndim(); ++d) pp.push_back(d);
    g = permute_dims(g, pp);
  }
  return g;
}
}  // namespace

Array Array::operator[](const Index& i) const { return getitem(*this, {i}); }
Array Array::index(std::initializer_list<Index> items) const { return getitem(*this, std::vector<Index>(items)); }
Array Array::index(const std::vector<Index>& items) const { return getitem(*this, items); }

void Array::index_put(const std::vector<Index>& items, const Array& value) {
  if (!defined()) throw ValueError("[index_put] undefined array");
  if (value.backend() != backend())
    throw ValueError(std::string("[index_put] value lives on backend ") + value.backend().name() + ", the array on " +
                     backend().name());
  Plan p = make_plan(*this, items);
  if (!p.has_arrays) {
    Shape sel = p.result_shape;
    Shape bs = broadcast_shapes(value.shape(), sel, "index_put");
    if (!(bs == sel))
      throw ValueError("[index_put] value of shape " + value.shape().str() + " cannot be broadcast to the selection " +
                       sel.str());
    Shape raw_sel;
    for (std::int64_t d = 0; d < ndim(); ++d) {
      auto b = p.slice.start[d], e = p.slice.stop[d], st = p.slice.step[d];
      raw_sel.push_back(slice_length(b, e, st));
    }
    Array v = reshape(broadcast_to(value, sel), raw_sel);
    *this = dispatch(OpId::slice_update, {*this, v}, p.slice);
    return;
  }
  Array pos = getitem(reshape(arange(Scalar(std::int64_t{0}), Scalar(size()), 1, int64, {}, backend()), shape()), items);
  Array flat = reshape(pos, Shape{pos.size()});
  Shape bs = broadcast_shapes(value.shape(), pos.shape(), "index_put");
  if (!(bs == pos.shape()))
    throw ValueError("[index_put] value of shape " + value.shape().str() + " cannot be broadcast to the selection " +
                     pos.shape().str());
  Array v = reshape(broadcast_to(value, pos.shape()), Shape{pos.size()});
  *this = dispatch(OpId::index_put_flat, {*this, flat, v}, detail::kNoAttrs);
}
void Array::index_put(std::initializer_list<Index> items, const Array& value) { index_put(std::vector<Index>(items), value); }
void Array::index_put(std::initializer_list<Index> items, Scalar value) {
  index_put(std::vector<Index>(items), detail::scalar_like(value, *this, "index_put"));
}

}  // namespace ivy

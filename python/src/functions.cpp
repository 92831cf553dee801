// The functional API (ivy/functional.hpp) bound one-to-one, in the C++ argument order.
// The Python package gives them the standard's signatures; here None means "absent".
#include "common.hpp"

namespace ivy_py {

using ivy::Array;
using ivy::AxisArg;
using ivy::Device;
using ivy::Dims;
using ivy::DType;
using ivy::Scalar;

namespace {
using ODType = std::optional<DType>;
using ODevice = std::optional<Device>;
using OInt = std::optional<std::int64_t>;

Device dev_or_cpu(const ODevice& d) { return d.value_or(Device{}); }

ivy::Bound to_bound(py::handle h) {
  if (h.is_none()) return ivy::Bound{};
  if (py::isinstance<Array>(h)) return ivy::Bound(h.cast<Array>());
  return ivy::Bound(h.cast<Scalar>());
}

py::tuple to_tuple(const std::vector<Array>& v) {
  py::tuple t(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) t[i] = py::cast(v[i]);
  return t;
}

ivy::TensordotAxes to_tensordot_axes(py::handle axes) {
  if (PyIndex_Check(axes.ptr()) && !PySequence_Check(axes.ptr())) return ivy::TensordotAxes(to_int64(axes));
  py::sequence s = py::reinterpret_borrow<py::sequence>(axes);
  if (s.size() != 2) throw ivy::ValueError("[tensordot] axes must be an int or a pair of axis sequences");
  return ivy::TensordotAxes(s[0].cast<Dims>(), s[1].cast<Dims>());
}
}  // namespace

void bind_functions(py::module_& m) {
  // ------------------------------------------------------------ creation
  m.def("arange", [](Scalar start, std::optional<Scalar> stop, Scalar step, ODType dtype, ODevice dev) {
    return ivy::arange(start, stop, step, dtype, dev_or_cpu(dev));
  });
  m.def("asarray_array", [](const Array& x, ODType dtype, std::optional<bool> copy) {
    return ivy::asarray(x, dtype, Device{}, copy);
  });
  m.def("asarray_scalar", [](Scalar s, ODType dtype, ODevice dev) { return ivy::asarray(s, dtype, dev_or_cpu(dev)); });
  m.def("empty", [](const Dims& s, ODType dtype, ODevice dev) { return ivy::empty(s, dtype, dev_or_cpu(dev)); });
  m.def("zeros", [](const Dims& s, ODType dtype, ODevice dev) { return ivy::zeros(s, dtype, dev_or_cpu(dev)); });
  m.def("ones", [](const Dims& s, ODType dtype, ODevice dev) { return ivy::ones(s, dtype, dev_or_cpu(dev)); });
  m.def("full", [](const Dims& s, Scalar v, ODType dtype, ODevice dev) { return ivy::full(s, v, dtype, dev_or_cpu(dev)); });
  m.def("empty_like", [](const Array& x, ODType dtype, ODevice dev) { return ivy::empty_like(x, dtype, dev); });
  m.def("zeros_like", [](const Array& x, ODType dtype, ODevice dev) { return ivy::zeros_like(x, dtype, dev); });
  m.def("ones_like", [](const Array& x, ODType dtype, ODevice dev) { return ivy::ones_like(x, dtype, dev); });
  m.def("full_like", [](const Array& x, Scalar v, ODType dtype, ODevice dev) { return ivy::full_like(x, v, dtype, dev); });
  m.def("eye", [](std::int64_t n_rows, OInt n_cols, std::int64_t k, ODType dtype, ODevice dev) {
    return ivy::eye(n_rows, n_cols, k, dtype, dev_or_cpu(dev));
  });
  m.def("from_dlpack", [](const Array& x, ODevice dev, std::optional<bool> copy) { return ivy::from_dlpack(x, dev, copy); });
  m.def("linspace", [](Scalar start, Scalar stop, std::int64_t num, ODType dtype, ODevice dev, bool endpoint) {
    return ivy::linspace(start, stop, num, dtype, dev_or_cpu(dev), endpoint);
  });
  m.def("meshgrid", [](const std::vector<Array>& xs, std::string_view indexing) {
    return to_tuple(ivy::meshgrid(xs, indexing));
  });
  m.def("tril", &ivy::tril);
  m.def("triu", &ivy::triu);

  // ------------------------------------------------------------ data types
  m.def("astype", [](const Array& x, DType d, bool copy, ODevice dev) { return ivy::astype(x, d, copy, dev); });

  // ------------------------------------------------------------ elementwise
#define IVY_OP(...)
#define IVY_UNARY_OP(name, meta, kinds, props) m.def(#name, [](const Array& x) { return ivy::name(x); });
#define IVY_BINARY_OP(name, meta, kinds, props)                                           \
  m.def(#name, [](const Array& a, const Array& b) { return ivy::name(a, b); });    \
  m.def(#name, [](const Array& a, Scalar b) { return ivy::name(a, b); });          \
  m.def(#name, [](Scalar a, const Array& b) { return ivy::name(a, b); });
#include "ivy/ops.def"
#undef IVY_OP
#undef IVY_UNARY_OP
#undef IVY_BINARY_OP
  m.def("clip", [](const Array& x, py::handle lo, py::handle hi) { return ivy::clip(x, to_bound(lo), to_bound(hi)); });

  // ------------------------------------------------------------ indexing
  m.def("take", [](const Array& x, const Array& i, OInt axis) { return ivy::take(x, i, axis); });
  m.def("take_along_axis", [](const Array& x, const Array& i, std::int64_t axis) { return ivy::take_along_axis(x, i, axis); });

  // ------------------------------------------------------------ linear algebra
  m.def("matmul", [](const Array& a, const Array& b) { return ivy::matmul(a, b); });
  m.def("matrix_transpose", [](const Array& x) { return ivy::matrix_transpose(x); });
  m.def("tensordot", [](const Array& a, const Array& b, py::handle axes) {
    return ivy::tensordot(a, b, to_tensordot_axes(axes));
  });
  m.def("vecdot", [](const Array& a, const Array& b, std::int64_t axis) { return ivy::vecdot(a, b, axis); });

  // ------------------------------------------------------------ manipulation
  m.def("broadcast_arrays", [](const std::vector<Array>& xs) { return to_tuple(ivy::broadcast_arrays(xs)); });
  m.def("broadcast_shapes", [](const std::vector<Dims>& shapes) { return ivy::broadcast_shapes(shapes); });
  m.def("broadcast_to", &ivy::broadcast_to);
  m.def("concat", [](const std::vector<Array>& xs, OInt axis) { return ivy::concat(xs, axis); });
  m.def("expand_dims", [](const Array& x, const AxisArg& axis) { return ivy::expand_dims(x, axis); });
  m.def("flip", [](const Array& x, const AxisArg& axis) { return ivy::flip(x, axis); });
  m.def("moveaxis", &ivy::moveaxis);
  m.def("permute_dims", &ivy::permute_dims);
  m.def("repeat", [](const Array& x, const Array& r, OInt axis) { return ivy::repeat(x, r, axis); });
  m.def("repeat", [](const Array& x, std::int64_t r, OInt axis) { return ivy::repeat(x, r, axis); });
  m.def("reshape", [](const Array& x, const Dims& s, std::optional<bool> copy) { return ivy::reshape(x, s, copy); });
  m.def("roll", [](const Array& x, const Dims& shift, const AxisArg& axis) { return ivy::roll(x, shift, axis); });
  m.def("squeeze", [](const Array& x, const AxisArg& axis) { return ivy::squeeze(x, axis); });
  m.def("stack", [](const std::vector<Array>& xs, std::int64_t axis) { return ivy::stack(xs, axis); });
  m.def("tile", &ivy::tile);
  m.def("unstack", [](const Array& x, std::int64_t axis) { return to_tuple(ivy::unstack(x, axis)); });

  // ------------------------------------------------------------ searching
  m.def("argmax", [](const Array& x, OInt axis, bool keepdims) { return ivy::argmax(x, axis, keepdims); });
  m.def("argmin", [](const Array& x, OInt axis, bool keepdims) { return ivy::argmin(x, axis, keepdims); });
  m.def("count_nonzero", [](const Array& x, const AxisArg& axis, bool keepdims) {
    return ivy::count_nonzero(x, axis, keepdims);
  });
  m.def("nonzero", [](const Array& x) { return to_tuple(ivy::nonzero(x)); });
  m.def("searchsorted", [](const Array& a, const Array& v, std::string_view side, std::optional<Array> sorter) {
    return ivy::searchsorted(a, v, side, sorter);
  });
  m.def("where", [](const Array& c, const Array& a, const Array& b) { return ivy::where(c, a, b); });
  m.def("where", [](const Array& c, const Array& a, Scalar b) { return ivy::where(c, a, b); });
  m.def("where", [](const Array& c, Scalar a, const Array& b) { return ivy::where(c, a, b); });
  m.def("where", [](const Array& c, Scalar a, Scalar b) { return ivy::where(c, a, b); });

  // ------------------------------------------------------------ sets
  m.def("unique_all", [](const Array& x) {
    auto r = ivy::unique_all(x);
    return py::make_tuple(r.values, r.indices, r.inverse_indices, r.counts);
  });
  m.def("unique_counts", [](const Array& x) {
    auto r = ivy::unique_counts(x);
    return py::make_tuple(r.values, r.counts);
  });
  m.def("unique_inverse", [](const Array& x) {
    auto r = ivy::unique_inverse(x);
    return py::make_tuple(r.values, r.inverse_indices);
  });
  m.def("unique_values", &ivy::unique_values);
  m.def("isin", [](const Array& a, const Array& b, bool invert) { return ivy::isin(a, b, invert); });

  // ------------------------------------------------------------ sorting
  m.def("argsort", [](const Array& x, std::int64_t axis, bool descending, bool stable) {
    return ivy::argsort(x, axis, descending, stable);
  });
  m.def("sort", [](const Array& x, std::int64_t axis, bool descending, bool stable) {
    return ivy::sort(x, axis, descending, stable);
  });

  // ------------------------------------------------------------ statistical
  m.def("cumulative_sum", [](const Array& x, OInt axis, ODType dtype, bool include_initial) {
    return ivy::cumulative_sum(x, axis, dtype, include_initial);
  });
  m.def("cumulative_prod", [](const Array& x, OInt axis, ODType dtype, bool include_initial) {
    return ivy::cumulative_prod(x, axis, dtype, include_initial);
  });
  m.def("max", [](const Array& x, const AxisArg& axis, bool keepdims) { return ivy::max(x, axis, keepdims); });
  m.def("min", [](const Array& x, const AxisArg& axis, bool keepdims) { return ivy::min(x, axis, keepdims); });
  m.def("mean", [](const Array& x, const AxisArg& axis, bool keepdims) { return ivy::mean(x, axis, keepdims); });
  m.def("prod", [](const Array& x, const AxisArg& axis, ODType dtype, bool keepdims) {
    return ivy::prod(x, axis, dtype, keepdims);
  });
  m.def("sum", [](const Array& x, const AxisArg& axis, ODType dtype, bool keepdims) {
    return ivy::sum(x, axis, dtype, keepdims);
  });
  m.def("std", [](const Array& x, const AxisArg& axis, double correction, bool keepdims) {
    return ivy::std(x, axis, correction, keepdims);
  });
  m.def("var", [](const Array& x, const AxisArg& axis, double correction, bool keepdims) {
    return ivy::var(x, axis, correction, keepdims);
  });

  // ------------------------------------------------------------ utility
  m.def("all", [](const Array& x, const AxisArg& axis, bool keepdims) { return ivy::all(x, axis, keepdims); });
  m.def("any", [](const Array& x, const AxisArg& axis, bool keepdims) { return ivy::any(x, axis, keepdims); });
  m.def("diff", [](const Array& x, std::int64_t axis, std::int64_t n, std::optional<Array> prepend,
                   std::optional<Array> append) { return ivy::diff(x, axis, n, prepend, append); });

  // ------------------------------------------------------------ random (Ivy's) and helpers
  m.def("random_uniform", [](Scalar low, Scalar high, const Dims& shape, ODType dtype, ODevice dev) {
    return ivy::random_uniform(low, high, shape, dtype, dev_or_cpu(dev));
  });
  m.def("random_normal", [](Scalar mean, Scalar std, const Dims& shape, ODType dtype, ODevice dev) {
    return ivy::random_normal(mean, std, shape, dtype, dev_or_cpu(dev));
  });
  m.def("randint", [](std::int64_t low, std::int64_t high, const Dims& shape, ODType dtype, ODevice dev) {
    return ivy::randint(low, high, shape, dtype, dev_or_cpu(dev));
  });
  // A 0-d array holding a Python scalar on the backend of `like` (dtype None: the
  // standard's scalar rule next to like's dtype).
  m.def("scalar_array", [](Scalar v, ODType dtype, const Array& like) {
    DType d = dtype ? *dtype : ivy::scalar_result_type(like.dtype(), v, "asarray");
    return ivy::full(ivy::Shape{}, v, d, like.device(), like.backend());
  });
  m.def("array_equal", &ivy::array_equal);
  m.def("allclose", &ivy::allclose, py::arg("a"), py::arg("b"), py::arg("rtol") = 1e-5, py::arg("atol") = 1e-8,
        py::arg("equal_nan") = true);
}

}  // namespace ivy_py

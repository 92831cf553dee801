// Data exchange between Python and ivy: Python scalars and nested sequences, NumPy
// arrays (zero-copy both ways where the layout allows), DLPack capsules (producer and
// consumer, legacy and versioned), and __getitem__/__setitem__ keys.
#include <pybind11/numpy.h>

#include <algorithm>
#include <cstring>

#include "common.hpp"
#include "dlpack.h"

namespace ivy_py {

using ivy::Array;
using ivy::Backend;
using ivy::Device;
using ivy::DType;
using ivy::Scalar;
using ivy::Shape;

// ---------------------------------------------------------------- small helpers
bool is_python_scalar(py::handle h) {
  PyObject* o = h.ptr();
  return PyBool_Check(o) || PyLong_Check(o) || PyFloat_Check(o) || PyComplex_Check(o);
}

std::int64_t to_int64(py::handle h) {
  PyObject* idx = PyNumber_Index(h.ptr());
  if (!idx) throw py::error_already_set();
  long long v = PyLong_AsLongLong(idx);
  Py_DECREF(idx);
  if (v == -1 && PyErr_Occurred()) throw py::error_already_set();
  return static_cast<std::int64_t>(v);
}

std::shared_ptr<void> keep_alive(py::object o) {
  auto* held = new py::object(std::move(o));
  return std::shared_ptr<void>(held, [](void* p) {
    auto* obj = static_cast<py::object*>(p);
    if (!Py_IsInitialized()) {  // interpreter gone: leak the reference rather than crash
      obj->release();
      delete obj;
      return;
    }
    py::gil_scoped_acquire gil;
    delete obj;
  });
}

namespace {

Backend pick(Backend b) { return b ? b : ivy::current_backend(); }

Shape shape_of(const std::vector<std::int64_t>& v) { return Shape(std::span<const std::int64_t>(v.data(), v.size())); }

// ---------------------------------------------------------------- NumPy dtypes
const char* numpy_typestr(DType d) {
  switch (d) {
    case DType::bool_: return "|b1";
    case DType::int8: return "|i1";
    case DType::int16: return "=i2";
    case DType::int32: return "=i4";
    case DType::int64: return "=i8";
    case DType::uint8: return "|u1";
    case DType::uint16: return "=u2";
    case DType::uint32: return "=u4";
    case DType::uint64: return "=u8";
    case DType::float16: return "=f2";
    case DType::float32: return "=f4";
    case DType::float64: return "=f8";
    case DType::complex64: return "=c8";
    case DType::complex128: return "=c16";
    default: throw ivy::TypeError(std::string("[to_numpy] NumPy has no dtype for ") + ivy::dtype_name(d));
  }
}

std::optional<DType> dtype_from_numpy(const py::dtype& dt) {
  char kind = dt.kind();
  auto size = dt.itemsize();
  switch (kind) {
    case 'b': return DType::bool_;
    case 'i':
      if (size == 1) return DType::int8;
      if (size == 2) return DType::int16;
      if (size == 4) return DType::int32;
      if (size == 8) return DType::int64;
      break;
    case 'u':
      if (size == 1) return DType::uint8;
      if (size == 2) return DType::uint16;
      if (size == 4) return DType::uint32;
      if (size == 8) return DType::uint64;
      break;
    case 'f':
      if (size == 2) return DType::float16;
      if (size == 4) return DType::float32;
      if (size == 8) return DType::float64;
      break;
    case 'c':
      if (size == 8) return DType::complex64;
      if (size == 16) return DType::complex128;
      break;
    default: break;
  }
  return std::nullopt;
}

}  // namespace

// ---------------------------------------------------------------- NumPy -> ivy
Array from_numpy(py::handle obj, std::optional<DType> dtype, Device device, std::optional<bool> copy, Backend backend) {
  py::array arr = py::array::ensure(obj);
  if (!arr) throw py::error_already_set();
  auto d = dtype_from_numpy(arr.dtype());
  if (!d)
    throw ivy::TypeError("[asarray] NumPy dtype " + py::str(arr.dtype()).cast<std::string>() +
                         " has no ivy counterpart");
  Backend b = pick(backend);
  ivy::check_supported(b, "asarray", *d);
  const bool will_cast = dtype && *dtype != *d;
  if (copy && !*copy && will_cast)
    throw ivy::ValueError(std::string("[asarray] copy=False but converting ") + ivy::dtype_name(*d) + " to " +
                          ivy::dtype_name(*dtype) + " needs a copy");
  const int flags = arr.flags();
  const bool native = arr.dtype().attr("isnative").cast<bool>();
  const bool contiguous = (flags & py::array::c_style) != 0;
  const bool aligned = (flags & 0x0100 /* NPY_ARRAY_ALIGNED */) != 0;
  bool fresh = false;  // arr is a private copy made here
  if (!native || !contiguous || !aligned) {
    if (copy && !*copy)
      throw ivy::ValueError("[asarray] copy=False but the NumPy array is not C-contiguous, aligned and native-endian");
    py::module_ np = py::module_::import("numpy");
    arr = np.attr("ascontiguousarray")(arr, py::arg("dtype") = arr.dtype().attr("newbyteorder")("="));
    fresh = true;
  }
  std::vector<std::int64_t> dims(arr.shape(), arr.shape() + arr.ndim());
  Shape shape = shape_of(dims);
  Array x;
  const bool must_copy = (copy && *copy && !fresh && !will_cast) || shape.numel() == 0 || device.kind != Device::cpu ||
                         !b.impl()->wrap;
  if (must_copy) {
    x = b.impl()->from_host(arr.data(), shape, *d, device);
  } else {
    x = b.impl()->wrap(const_cast<void*>(arr.data()), shape, *d, keep_alive(arr));
  }
  if (will_cast) x = ivy::astype(x, *dtype);
  return x;
}

// ---------------------------------------------------------------- ivy -> NumPy
py::object to_numpy(const Array& x, bool copy) {
  Array y = x;
  if (y.dtype() == DType::bfloat16) y = ivy::astype(y, DType::float32);  // NumPy has no bfloat16
  py::dtype dt(std::string(numpy_typestr(y.dtype())));
  std::vector<py::ssize_t> shape(y.shape().begin(), y.shape().end());
  std::vector<py::ssize_t> strides(shape.size());
  py::ssize_t acc = static_cast<py::ssize_t>(ivy::itemsize(y.dtype()));
  for (std::size_t i = shape.size(); i-- > 0;) {
    strides[i] = acc;
    acc *= std::max<py::ssize_t>(shape[i], 1);
  }
  const ivy::BackendImpl* impl = y.impl()->backend;
  void* p = (!copy && y.device().kind == Device::cpu && impl->data_ptr) ? impl->data_ptr(y) : nullptr;
  if (p) {
    auto* keep = new Array(y);
    py::capsule base(keep, [](void* q) { delete static_cast<Array*>(q); });
    return py::array(dt, shape, strides, p, base);
  }
  py::array out(dt, shape, strides);
  if (y.size()) ivy::copy_to_host(y, out.mutable_data());
  return std::move(out);
}

// ---------------------------------------------------------------- sequences -> ivy
namespace {
enum Kind { KBool = 0, KInt = 1, KFloat = 2, KComplex = 3 };

void flatten(py::handle obj, std::size_t depth, const std::vector<std::int64_t>& shape, std::vector<Scalar>& out,
             int& kind) {
  if (depth == shape.size()) {
    if (PyList_Check(obj.ptr()) || PyTuple_Check(obj.ptr()))
      throw ivy::ValueError("[asarray] nested sequences are ragged (deeper at some positions)");
    Scalar s;
    if (py::isinstance<Array>(obj)) {
      const Array& a = obj.cast<const Array&>();
      s = a.item_scalar();
    } else {
      py::detail::make_caster<Scalar> c;
      if (!c.load(obj, true))
        throw ivy::TypeError("[asarray] cannot convert an object of type " +
                             py::str(py::type::handle_of(obj).attr("__name__")).cast<std::string>() +
                             " to an array element");
      s = py::detail::cast_op<Scalar>(c);
    }
    int k = s.kind == Scalar::Bool ? KBool : s.kind == Scalar::Int ? KInt : s.kind == Scalar::Float ? KFloat : KComplex;
    kind = std::max(kind, k);
    out.push_back(s);
    return;
  }
  if (!(PyList_Check(obj.ptr()) || PyTuple_Check(obj.ptr())))
    throw ivy::ValueError("[asarray] nested sequences are ragged (shallower at some positions)");
  py::sequence seq = py::reinterpret_borrow<py::sequence>(obj);
  if (static_cast<std::int64_t>(seq.size()) != shape[depth])
    throw ivy::ValueError("[asarray] nested sequences are ragged: expected length " + std::to_string(shape[depth]) +
                          " at depth " + std::to_string(depth) + ", got " + std::to_string(seq.size()));
  for (auto item : seq) flatten(item, depth + 1, shape, out, kind);
}
}  // namespace

Array from_sequence(py::handle seq, std::optional<DType> dtype, Device device, Backend backend) {
  std::vector<std::int64_t> shape;
  py::handle cur = seq;
  while (PyList_Check(cur.ptr()) || PyTuple_Check(cur.ptr())) {
    py::sequence s = py::reinterpret_borrow<py::sequence>(cur);
    shape.push_back(static_cast<std::int64_t>(s.size()));
    if (shape.size() > static_cast<std::size_t>(ivy::kMaxRank))
      throw ivy::ValueError("[asarray] nested sequences deeper than " + std::to_string(ivy::kMaxRank) + " levels");
    if (s.size() == 0) break;
    cur = PySequence_Fast_GET_ITEM(cur.ptr(), 0);
  }
  std::vector<Scalar> vals;
  int kind = KBool;
  flatten(seq, 0, shape, vals, kind);
  Shape sh = shape_of(shape);
  DType target;
  if (dtype) target = *dtype;
  else if (vals.empty()) target = ivy::default_float_dtype();
  else
    target = kind == KBool ? DType::bool_
             : kind == KInt ? ivy::default_int_dtype()
             : kind == KFloat ? ivy::default_float_dtype()
                              : ivy::default_complex_dtype();
  Backend b = pick(backend);
  const std::size_t n = vals.size();
  auto make = [&](const void* data, DType data_dtype) {
    return ivy::asarray(data, data_dtype, sh, target, device, b);
  };
  if (n == 0) return ivy::full(sh, Scalar(std::int64_t{0}), target, device, b);
  if (kind == KComplex || ivy::is_complex(target)) {
    std::vector<std::complex<double>> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = vals[i].c;
    return make(v.data(), DType::complex128);
  }
  if (kind == KFloat || ivy::is_real_floating(target)) {
    std::vector<double> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = vals[i].d;
    return make(v.data(), DType::float64);
  }
  if (kind == KInt || ivy::is_integer(target)) {
    if (target == DType::uint64) {
      std::vector<std::uint64_t> v(n);
      for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<std::uint64_t>(vals[i].i);
      return make(v.data(), DType::uint64);
    }
    std::vector<std::int64_t> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = vals[i].i;
    return make(v.data(), DType::int64);
  }
  std::vector<std::uint8_t> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = vals[i].b ? 1 : 0;
  return make(v.data(), DType::bool_);
}

// ---------------------------------------------------------------- indexing
namespace {
struct Key {
  std::vector<ivy::Index> items;
  int bool_scalar = -1;  // the sole index is a boolean scalar: 0 False, 1 True
};

Array index_array(const Array& x, py::handle obj) {
  Array a;
  if (py::isinstance<Array>(obj)) a = obj.cast<Array>();
  else if (PyList_Check(obj.ptr()) || PyTuple_Check(obj.ptr())) a = from_sequence(obj, std::nullopt, {}, x.backend());
  else a = from_numpy(obj, std::nullopt, {}, std::nullopt, x.backend());
  if (a.backend() != x.backend()) a = ivy::to_backend(a, x.backend());
  return a;
}

Key to_key(const Array& x, py::handle key) {
  Key k;
  bool is_tuple = PyTuple_Check(key.ptr());
  auto add = [&](py::handle it, bool sole) {
    PyObject* o = it.ptr();
    if (o == Py_None) {
      k.items.emplace_back(ivy::newaxis);
    } else if (o == Py_Ellipsis) {
      k.items.emplace_back(ivy::Ellipsis);
    } else if (PyBool_Check(o)) {
      if (!sole) throw ivy::IndexError("[index] a boolean scalar index is only supported as the sole index");
      k.bool_scalar = o == Py_True ? 1 : 0;
    } else if (PySlice_Check(o)) {
      auto opt = [](py::object v) -> std::optional<std::int64_t> {
        if (v.is_none()) return std::nullopt;
        return to_int64(v);
      };
      py::object s = py::reinterpret_borrow<py::object>(it);
      k.items.emplace_back(ivy::Slice(opt(s.attr("start")), opt(s.attr("stop")), opt(s.attr("step"))));
    } else if (py::isinstance<Array>(it)) {
      Array a = index_array(x, it);
      if (a.ndim() == 0 && ivy::is_bool(a.dtype())) {
        if (!sole) throw ivy::IndexError("[index] a 0-d boolean index is only supported as the sole index");
        k.bool_scalar = a.item<bool>() ? 1 : 0;
      } else {
        k.items.emplace_back(a);
      }
    } else if (PyIndex_Check(o) && !PySequence_Check(o)) {
      k.items.emplace_back(to_int64(it));
    } else if (PyList_Check(o) || py::hasattr(it, "__array_interface__")) {
      k.items.emplace_back(index_array(x, it));
    } else {
      throw ivy::IndexError("[index] unsupported index of type " +
                            py::str(py::type::handle_of(it).attr("__name__")).cast<std::string>() +
                            "; expected int, slice, ..., None, a tuple of those, or an integer/boolean array");
    }
  };
  if (is_tuple) {
    py::tuple t = py::reinterpret_borrow<py::tuple>(key);
    for (auto it : t) add(it, t.size() == 1);
  } else {
    add(key, true);
  }
  return k;
}
}  // namespace

Array getitem(const Array& x, py::handle key) {
  Key k = to_key(x, key);
  if (k.bool_scalar >= 0) {
    Array y = x.index({ivy::Index(ivy::newaxis)});
    if (k.bool_scalar == 0) y = y.index({ivy::Index(ivy::Slice(0, 0))});
    return y;
  }
  return x.index(k.items);
}

void setitem(Array& x, py::handle key, py::handle value) {
  Key k = to_key(x, key);
  if (k.bool_scalar == 0) return;
  if (k.bool_scalar == 1) k.items = {ivy::Index(ivy::Ellipsis)};
  if (py::isinstance<Array>(value)) {
    Array v = value.cast<Array>();
    if (v.backend() != x.backend()) v = ivy::to_backend(v, x.backend());
    x.index_put(k.items, v);
    return;
  }
  py::detail::make_caster<Scalar> c;
  if (c.load(value, true)) {
    Scalar s = py::detail::cast_op<Scalar>(c);
    Array v = ivy::full(Shape{}, s, x.dtype(), {}, x.backend());
    x.index_put(k.items, v);
    return;
  }
  if (PyList_Check(value.ptr()) || PyTuple_Check(value.ptr())) {
    x.index_put(k.items, from_sequence(value, x.dtype(), {}, x.backend()));
    return;
  }
  if (py::hasattr(value, "__array_interface__")) {
    x.index_put(k.items, from_numpy(value, x.dtype(), {}, std::nullopt, x.backend()));
    return;
  }
  throw ivy::TypeError("[setitem] cannot assign a value of type " +
                       py::str(py::type::handle_of(value).attr("__name__")).cast<std::string>());
}

// ---------------------------------------------------------------- DLPack
namespace {
IvyDLDataType dl_dtype(DType d) {
  auto bits = static_cast<std::uint8_t>(ivy::itemsize(d) * 8);
  if (ivy::is_bool(d)) return {kIvyDLBool, 8, 1};
  if (ivy::is_signed_int(d)) return {kIvyDLInt, bits, 1};
  if (ivy::is_unsigned_int(d)) return {kIvyDLUInt, bits, 1};
  if (d == DType::bfloat16) return {kIvyDLBfloat, 16, 1};
  if (ivy::is_complex(d)) return {kIvyDLComplex, bits, 1};
  return {kIvyDLFloat, bits, 1};
}

DType dtype_from_dl(IvyDLDataType t) {
  if (t.lanes != 1) throw py::buffer_error("[from_dlpack] vector (lanes != 1) DLPack dtypes are not supported");
  auto bad = [&]() -> DType {
    throw py::buffer_error("[from_dlpack] unsupported DLPack dtype (code " + std::to_string(t.code) + ", bits " +
                           std::to_string(t.bits) + ")");
  };
  switch (t.code) {
    case kIvyDLBool: return t.bits == 8 ? DType::bool_ : bad();
    case kIvyDLInt:
      return t.bits == 8 ? DType::int8 : t.bits == 16 ? DType::int16 : t.bits == 32 ? DType::int32 : t.bits == 64 ? DType::int64 : bad();
    case kIvyDLUInt:
      return t.bits == 8 ? DType::uint8 : t.bits == 16 ? DType::uint16 : t.bits == 32 ? DType::uint32 : t.bits == 64 ? DType::uint64 : bad();
    case kIvyDLFloat: return t.bits == 16 ? DType::float16 : t.bits == 32 ? DType::float32 : t.bits == 64 ? DType::float64 : bad();
    case kIvyDLBfloat: return t.bits == 16 ? DType::bfloat16 : bad();
    case kIvyDLComplex: return t.bits == 64 ? DType::complex64 : t.bits == 128 ? DType::complex128 : bad();
    default: return bad();
  }
}

struct DLCtx {
  Array keep;
  std::vector<unsigned char> host;
  std::vector<std::int64_t> shape, strides;
};

// Fills dl_tensor from x; returns whether the exported memory is a copy.
bool export_tensor(const Array& x, std::optional<bool> copy, DLCtx* ctx, IvyDLTensor* t) {
  if (x.device().kind != Device::cpu)
    throw py::buffer_error("[__dlpack__] exporting arrays on " + x.device().str() + " is not supported");
  bool copied = false;
  Array src = x;
  if (copy && *copy) {
    src = ivy::astype(x, x.dtype(), true);
    copied = true;
  }
  const ivy::BackendImpl* impl = src.impl()->backend;
  void* p = impl->data_ptr ? impl->data_ptr(src) : nullptr;
  if (!p) {
    // Storage without the array's layout (torch's widened uint16/uint32, a non-contiguous or
    // lazily conjugated tensor): the capsule holds the values, compacted, even with
    // copy=False. Arrays are immutable, so only a consumer writing into the capsule could
    // tell; versioned capsules say so with the is-copied flag.
    ctx->host.resize(std::max<std::size_t>(1, static_cast<std::size_t>(src.size()) * ivy::itemsize(src.dtype())));
    if (src.size()) ivy::copy_to_host(src, ctx->host.data());
    p = ctx->host.data();
    copied = true;
  }
  ctx->keep = src;
  ctx->shape.assign(src.shape().begin(), src.shape().end());
  ctx->strides.resize(ctx->shape.size());
  std::int64_t acc = 1;
  for (std::size_t i = ctx->shape.size(); i-- > 0;) {
    ctx->strides[i] = acc;
    acc *= std::max<std::int64_t>(ctx->shape[i], 1);
  }
  t->data = p;
  t->device = {kIvyDLCPU, 0};
  t->ndim = static_cast<std::int32_t>(ctx->shape.size());
  t->dtype = dl_dtype(src.dtype());
  t->shape = ctx->shape.data();
  t->strides = ctx->strides.data();
  t->byte_offset = 0;
  return copied;
}

void legacy_capsule_dtor(PyObject* cap) {
  if (!PyCapsule_IsValid(cap, "dltensor")) return;  // consumed (renamed) or invalid
  PyObject *type, *value, *tb;
  PyErr_Fetch(&type, &value, &tb);
  auto* m = static_cast<IvyDLManagedTensor*>(PyCapsule_GetPointer(cap, "dltensor"));
  if (m && m->deleter) m->deleter(m);
  PyErr_Restore(type, value, tb);
}
void versioned_capsule_dtor(PyObject* cap) {
  if (!PyCapsule_IsValid(cap, "dltensor_versioned")) return;
  PyObject *type, *value, *tb;
  PyErr_Fetch(&type, &value, &tb);
  auto* m = static_cast<IvyDLManagedTensorVersioned*>(PyCapsule_GetPointer(cap, "dltensor_versioned"));
  if (m && m->deleter) m->deleter(m);
  PyErr_Restore(type, value, tb);
}

py::object to_dlpack(const Array& x, py::object max_version, py::object dl_device, std::optional<bool> copy) {
  if (!dl_device.is_none()) {
    auto dev = dl_device.cast<std::pair<int, int>>();
    if (dev.first != kIvyDLCPU)
      throw py::buffer_error("[__dlpack__] only dl_device=(1, 0) (CPU) is supported, got (" + std::to_string(dev.first) +
                             ", " + std::to_string(dev.second) + ")");
  }
  bool versioned = false;
  if (!max_version.is_none()) {
    auto v = max_version.cast<std::pair<int, int>>();
    versioned = v.first >= 1;
  }
  auto ctx = std::make_unique<DLCtx>();
  if (versioned) {
    auto m = std::make_unique<IvyDLManagedTensorVersioned>();
    bool copied = export_tensor(x, copy, ctx.get(), &m->dl_tensor);
    m->version = {1, 0};
    m->flags = copied ? kIvyDLFlagIsCopied : 0;
    m->deleter = [](IvyDLManagedTensorVersioned* self) {
      delete static_cast<DLCtx*>(self->manager_ctx);
      delete self;
    };
    m->manager_ctx = ctx.get();
    PyObject* cap = PyCapsule_New(m.get(), "dltensor_versioned", versioned_capsule_dtor);
    if (!cap) throw py::error_already_set();
    ctx.release();
    m.release();
    return py::reinterpret_steal<py::object>(cap);
  }
  auto m = std::make_unique<IvyDLManagedTensor>();
  export_tensor(x, copy, ctx.get(), &m->dl_tensor);
  m->deleter = [](IvyDLManagedTensor* self) {
    delete static_cast<DLCtx*>(self->manager_ctx);
    delete self;
  };
  m->manager_ctx = ctx.get();
  PyObject* cap = PyCapsule_New(m.get(), "dltensor", legacy_capsule_dtor);
  if (!cap) throw py::error_already_set();
  ctx.release();
  m.release();
  return py::reinterpret_steal<py::object>(cap);
}

// Copies a strided tensor (strides in elements) into contiguous row-major memory.
void gather_strided(const unsigned char* src, const std::vector<std::int64_t>& shape,
                    const std::vector<std::int64_t>& strides, std::size_t isz, unsigned char* dst) {
  const std::size_t nd = shape.size();
  std::int64_t n = 1;
  for (auto s : shape) n *= s;
  if (n == 0) return;
  std::vector<std::int64_t> idx(nd, 0);
  for (std::int64_t k = 0; k < n; ++k) {
    std::int64_t off = 0;
    for (std::size_t d = 0; d < nd; ++d) off += idx[d] * strides[d];
    std::memcpy(dst + k * isz, src + off * static_cast<std::int64_t>(isz), isz);
    for (std::size_t d = nd; d-- > 0;) {
      if (++idx[d] < shape[d]) break;
      idx[d] = 0;
    }
  }
}

Array from_dlpack_capsule(py::object capsule, std::optional<bool> copy, Backend backend) {
  PyObject* cap = capsule.ptr();
  IvyDLTensor* t = nullptr;
  std::shared_ptr<void> owner;
  bool read_only = false;
  if (PyCapsule_IsValid(cap, "dltensor_versioned")) {
    auto* m = static_cast<IvyDLManagedTensorVersioned*>(PyCapsule_GetPointer(cap, "dltensor_versioned"));
    if (m->version.major > 1)
      throw py::buffer_error("[from_dlpack] DLPack version " + std::to_string(m->version.major) + "." +
                             std::to_string(m->version.minor) + " is newer than the supported 1.x");
    t = &m->dl_tensor;
    read_only = (m->flags & kIvyDLFlagReadOnly) != 0;
    PyCapsule_SetName(cap, "used_dltensor_versioned");
    owner = std::shared_ptr<void>(m, [](void* p) {
      auto* mt = static_cast<IvyDLManagedTensorVersioned*>(p);
      if (!mt->deleter) return;
      if (!Py_IsInitialized()) return;
      py::gil_scoped_acquire gil;
      mt->deleter(mt);
    });
  } else if (PyCapsule_IsValid(cap, "dltensor")) {
    auto* m = static_cast<IvyDLManagedTensor*>(PyCapsule_GetPointer(cap, "dltensor"));
    t = &m->dl_tensor;
    PyCapsule_SetName(cap, "used_dltensor");
    owner = std::shared_ptr<void>(m, [](void* p) {
      auto* mt = static_cast<IvyDLManagedTensor*>(p);
      if (!mt->deleter) return;
      if (!Py_IsInitialized()) return;
      py::gil_scoped_acquire gil;
      mt->deleter(mt);
    });
  } else {
    throw ivy::TypeError("[from_dlpack] expected a DLPack capsule named 'dltensor' or 'dltensor_versioned'");
  }
  (void)read_only;  // ivy never writes into memory it wraps: in-place updates rebind to new arrays
  if (t->device.device_type != kIvyDLCPU && t->device.device_type != kIvyDLCUDAHost)
    throw py::buffer_error("[from_dlpack] only CPU memory can be imported, got DLPack device type " +
                           std::to_string(t->device.device_type));
  DType d = dtype_from_dl(t->dtype);
  std::vector<std::int64_t> shape(t->shape, t->shape + t->ndim);
  const std::size_t isz = ivy::itemsize(d);
  bool compact = true;
  std::vector<std::int64_t> strides(shape.size());
  {
    std::int64_t acc = 1;
    for (std::size_t i = shape.size(); i-- > 0;) {
      strides[i] = t->strides ? t->strides[i] : acc;
      if (shape[i] != 1 && strides[i] != acc) compact = false;
      acc *= shape[i];
    }
  }
  Shape sh = shape_of(shape);
  auto* data = static_cast<unsigned char*>(t->data) + t->byte_offset;
  Backend b = pick(backend);
  ivy::check_supported(b, "from_dlpack", d);
  const bool must_copy = (copy && *copy) || !compact || sh.numel() == 0 || !b.impl()->wrap;
  if (must_copy) {
    if (copy && !*copy && !compact)
      throw ivy::ValueError("[from_dlpack] copy=False but the DLPack tensor is not C-contiguous");
    Array x;
    if (compact) {
      x = b.impl()->from_host(data, sh, d, {});
    } else {
      std::vector<unsigned char> buf(static_cast<std::size_t>(sh.numel()) * isz);
      gather_strided(data, shape, strides, isz, buf.data());
      x = b.impl()->from_host(buf.data(), sh, d, {});
    }
    return x;  // `owner` releases the producer's memory here
  }
  return b.impl()->wrap(data, sh, d, std::move(owner));
}
}  // namespace

void bind_interop(py::module_& m, py::class_<Array>& cls) {
  m.def("from_numpy", [](py::handle obj, std::optional<DType> dtype, std::optional<Device> device,
                         std::optional<bool> copy, Backend backend) {
    return from_numpy(obj, dtype, device.value_or(Device{}), copy, backend);
  }, py::arg("obj"), py::arg("dtype") = py::none(), py::arg("device") = py::none(),
        py::arg("copy") = py::none(), py::arg("backend") = py::none(),
        "Wraps (zero-copy when C-contiguous, aligned and native-endian) or copies a NumPy array.");
  m.def("to_numpy", &to_numpy, py::arg("x"), py::arg("copy") = false,
        "A NumPy array sharing x's memory when its backend exposes contiguous CPU data; else a copy.");
  m.def("from_sequence", [](py::handle obj, std::optional<DType> dtype, std::optional<Device> device, Backend backend) {
    return from_sequence(obj, dtype, device.value_or(Device{}), backend);
  }, py::arg("obj"), py::arg("dtype") = py::none(), py::arg("device") = py::none(), py::arg("backend") = py::none());
  m.def("from_dlpack_capsule", &from_dlpack_capsule, py::arg("capsule"), py::arg("copy") = py::none(),
        py::arg("backend") = py::none());
  cls.def("__dlpack__", [](const Array& x, py::object stream, py::object max_version, py::object dl_device,
                           std::optional<bool> copy) {
    (void)stream;  // CPU only: there is no stream to synchronize with
    return to_dlpack(x, max_version, dl_device, copy);
  },
          py::kw_only(), py::arg("stream") = py::none(), py::arg("max_version") = py::none(),
          py::arg("dl_device") = py::none(), py::arg("copy") = py::none());
  cls.def("__dlpack_device__", [](const Array& x) {
    Device d = x.device();
    return py::make_tuple(d.kind == Device::cuda ? static_cast<int>(kIvyDLCUDA) : static_cast<int>(kIvyDLCPU),
                          static_cast<int>(d.index));
  });
  cls.def("__getitem__", [](const Array& x, py::handle key) { return getitem(x, key); });
  cls.def("__setitem__", [](Array& x, py::handle key, py::handle value) { setitem(x, key, value); });
}

}  // namespace ivy_py

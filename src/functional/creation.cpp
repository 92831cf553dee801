// Creation functions, data-type functions and random numbers.
#include "common.hpp"

namespace ivy {

using detail::P;

namespace {
Backend pick(Backend b) { return b ? b : current_backend(); }
void check_device(Backend b, Device dev, const char* op) {
  if (dev.kind == Device::cpu) return;
  auto devs = b.impl()->devices ? b.impl()->devices() : std::vector<Device>{Device{}};
  if (std::find(devs.begin(), devs.end(), dev) == devs.end())
    throw ValueError(P(op) + "device " + dev.str() + " is not available on backend " + b.name());
  throw NotImplementedError(P(op) + "creating arrays on " + dev.str() + " is not implemented yet (backend " + b.name() + ")");
}
DType scalar_default(const Scalar& s) {
  switch (s.kind) {
    case Scalar::Bool: return bool_;
    case Scalar::Int: return default_int_dtype();
    case Scalar::Float: return default_float_dtype();
    default: return default_complex_dtype();
  }
}
Array create(OpId op, AttrsRef a, Backend b, Device dev, const char* name) {
  b = pick(b);
  check_device(b, dev, name);
  return dispatch(op, std::span<const Array>(), a, b);
}
Array full_named(const Shape& shape, Scalar fill_value, std::optional<DType> dtype, Device device, Backend backend,
                 const char* name);
Array like_named(const Array& x, Scalar fill_value, std::optional<DType> dtype, std::optional<Device> device,
                 const char* name);
}  // namespace

Array arange(Scalar start, std::optional<Scalar> stop, Scalar step, std::optional<DType> dtype, Device device,
             Backend backend) {
  if (!stop) {
    stop = start;
    start = Scalar(std::int64_t{0});
  }
  for (const Scalar* s : {&start, &*stop, &step})
    if (s->kind == Scalar::Complex) throw TypeError("[arange] start, stop and step must be real numbers");
  attr::arange v;
  v.start = start;
  v.stop = *stop;
  v.step = step;
  bool ints = start.kind != Scalar::Float && stop->kind != Scalar::Float && step.kind != Scalar::Float;
  if (!ints) {  // the float attrs are read from .d
    v.start = Scalar(start.d);
    v.stop = Scalar(stop->d);
    v.step = Scalar(step.d);
  } else {
    v.start = Scalar(start.i);
    v.stop = Scalar(stop->i);
    v.step = Scalar(step.i);
  }
  v.dtype = dtype ? *dtype : (ints ? default_int_dtype() : default_float_dtype());
  if (is_bool(v.dtype)) throw TypeError("[arange] dtype bool is not allowed");
  return create(OpId::arange, v, backend, device, "arange");
}

Array asarray(const Array& obj, std::optional<DType> dtype, Device device, std::optional<bool> copy, Backend backend) {
  detail::need_defined(obj, "asarray");
  (void)device;
  Array x = obj;
  bool copied = false;
  if (backend && backend != x.backend()) {
    x = to_backend(x, backend);
    copied = x.impl() != obj.impl();
  }
  if (dtype && *dtype != x.dtype()) {
    if (copy && !*copy)
      throw ValueError(P("asarray") + "copy=false but converting " + dtype_name(x.dtype()) + " to " + dtype_name(*dtype) +
                       " needs a copy");
    return astype(x, *dtype);
  }
  if (copy && *copy && !copied) return astype(x, x.dtype(), true);
  return x;
}
Array asarray(Scalar obj, std::optional<DType> dtype, Device device, Backend backend) {
  return full(Shape{}, obj, dtype ? *dtype : scalar_default(obj), device, backend);
}
Array asarray(const void* data, DType data_dtype, const Shape& shape, std::optional<DType> dtype, Device device,
              Backend backend) {
  Backend b = pick(backend);
  check_supported(b, "asarray", data_dtype);
  for (auto d : shape)
    if (d < 0) throw ValueError(P("asarray") + "negative dimension in shape " + shape.str());
  if (shape.numel() > 0 && data == nullptr) throw ValueError(P("asarray") + "null data for shape " + shape.str());
  Array x = b.impl()->from_host(data, shape, data_dtype, device);
  if (dtype && *dtype != data_dtype) x = astype(x, *dtype);
  return x;
}
Array empty(const Shape& shape, std::optional<DType> dtype, Device device, Backend backend) {
  return full_named(shape, Scalar(std::int64_t{0}), dtype.value_or(default_float_dtype()), device, backend, "empty");
}
Array empty_like(const Array& x, std::optional<DType> dtype, std::optional<Device> device) {
  return like_named(x, Scalar(std::int64_t{0}), dtype, device, "empty_like");
}
Array eye(std::int64_t n_rows, std::optional<std::int64_t> n_cols, std::int64_t k, std::optional<DType> dtype, Device device,
          Backend backend) {
  attr::eye v;
  v.n_rows = n_rows;
  v.n_cols = n_cols.value_or(n_rows);
  v.k = k;
  v.dtype = dtype.value_or(default_float_dtype());
  return create(OpId::eye, v, backend, device, "eye");
}
Array from_dlpack(const Array& x, std::optional<Device> device, std::optional<bool> copy, Backend backend) {
  detail::need_defined(x, "from_dlpack");
  if (device && !(*device == x.device()))
    throw ValueError(P("from_dlpack") + "moving between devices (" + x.device().str() + " -> " + device->str() +
                     ") is not supported");
  Array y = backend ? to_backend(x, backend) : x;
  if (copy && *copy) y = astype(y, y.dtype(), true);
  return y;
}
namespace {
Array full_named(const Shape& shape, Scalar fill_value, std::optional<DType> dtype, Device device, Backend backend,
                 const char* name) {
  for (auto d : shape)
    if (d < 0) throw ValueError(P(name) + "negative dimension in shape " + shape.str());
  attr::full v;
  v.shape = shape;
  v.value = fill_value;
  v.dtype = dtype ? *dtype : scalar_default(fill_value);
  if (fill_value.kind == Scalar::Complex && !is_complex(v.dtype))
    throw TypeError(P(name) + "a complex fill value needs a complex dtype, got " + dtype_name(v.dtype));
  detail::check_scalar_fits(fill_value, v.dtype, name);
  return create(OpId::full, v, backend, device, name);
}
}  // namespace
Array asarray(std::initializer_list<Scalar> data, std::optional<DType> dtype, Device device, Backend backend) {
  Scalar::Kind kind = Scalar::Bool;
  for (const Scalar& s : data) kind = std::max(kind, s.kind);
  const DType dt = dtype ? *dtype
                   : kind == Scalar::Bool  ? DType::bool_
                   : kind == Scalar::Int   ? default_int_dtype()
                   : kind == Scalar::Float ? default_float_dtype()
                                           : default_complex_dtype();
  if (kind == Scalar::Complex && !is_complex(dt))
    throw TypeError(P("asarray") + "a list with complex numbers needs a complex dtype, got " + dtype_name(dt));
  const Shape shape{static_cast<std::int64_t>(data.size())};
  switch (kind) {
    case Scalar::Bool: {
      std::vector<bool> v;
      for (const Scalar& s : data) v.push_back(s.b);
      return asarray(v, shape, dt, device, backend);
    }
    case Scalar::Int: {
      std::vector<std::int64_t> v;
      for (const Scalar& s : data) {
        detail::check_scalar_fits(s, dt, "asarray");
        v.push_back(s.i);
      }
      return asarray(v.data(), int64, shape, dt, device, backend);
    }
    case Scalar::Float: {
      std::vector<double> v;
      for (const Scalar& s : data) v.push_back(s.d);
      return asarray(v.data(), float64, shape, dt, device, backend);
    }
    case Scalar::Complex: {
      std::vector<std::complex<double>> v;
      for (const Scalar& s : data) v.push_back(s.c);
      return asarray(v.data(), complex128, shape, dt, device, backend);
    }
  }
  throw TypeError(P("asarray") + "bad scalar kind");
}

Array full(const Shape& shape, Scalar fill_value, std::optional<DType> dtype, Device device, Backend backend) {
  return full_named(shape, fill_value, dtype, device, backend, "full");
}
namespace {
Array like_named(const Array& x, Scalar fill_value, std::optional<DType> dtype, std::optional<Device> device,
                 const char* name) {
  detail::need_defined(x, name);
  return full_named(x.shape(), fill_value, dtype.value_or(x.dtype()), device.value_or(x.device()), x.backend(), name);
}
}  // namespace
Array full_like(const Array& x, Scalar fill_value, std::optional<DType> dtype, std::optional<Device> device) {
  return like_named(x, fill_value, dtype, device, "full_like");
}
Array linspace(Scalar start, Scalar stop, std::int64_t num, std::optional<DType> dtype, Device device, bool endpoint,
               Backend backend) {
  attr::linspace v;
  v.start = start;
  v.stop = stop;
  v.num = num;
  v.endpoint = endpoint;
  bool cplx = start.kind == Scalar::Complex || stop.kind == Scalar::Complex;
  v.dtype = dtype ? *dtype : (cplx ? default_complex_dtype() : default_float_dtype());
  if (cplx && !is_complex(v.dtype))
    throw TypeError(P("linspace") + "complex start/stop need a complex dtype, got " + dtype_name(v.dtype));
  return create(OpId::linspace, v, backend, device, "linspace");
}
std::vector<Array> meshgrid(const std::vector<Array>& arrays, std::string_view indexing) {
  if (indexing != "xy" && indexing != "ij")
    throw ValueError(P("meshgrid") + "indexing must be 'xy' or 'ij', got '" + std::string(indexing) + "'");
  std::vector<Array> out;
  if (arrays.empty()) return out;
  Shape s;
  DType d = arrays[0].dtype();
  for (auto& x : arrays) {
    detail::need_defined(x, "meshgrid");
    if (x.ndim() != 1) throw ValueError(P("meshgrid") + "inputs must be 1-d, got shape " + x.shape().str());
    if (x.dtype() != d)
      throw TypeError(P("meshgrid") + "inputs must share one dtype, got " + dtype_name(d) + " and " + dtype_name(x.dtype()));
    s.push_back(x.size());
  }
  bool xy = indexing == "xy" && arrays.size() >= 2;
  if (xy) std::swap(s[0], s[1]);
  for (std::size_t i = 0; i < arrays.size(); ++i) {
    Shape r;
    r.resize(arrays.size(), 1);
    std::size_t pos = i;
    if (xy && i < 2) pos = 1 - i;
    r[pos] = arrays[i].size();
    out.push_back(broadcast_to(reshape(arrays[i], r), s));
  }
  return out;
}
Array ones(const Shape& shape, std::optional<DType> dtype, Device device, Backend backend) {
  return full_named(shape, Scalar(std::int64_t{1}), dtype.value_or(default_float_dtype()), device, backend, "ones");
}
Array ones_like(const Array& x, std::optional<DType> dtype, std::optional<Device> device) {
  return like_named(x, Scalar(std::int64_t{1}), dtype, device, "ones_like");
}
Array zeros(const Shape& shape, std::optional<DType> dtype, Device device, Backend backend) {
  return full_named(shape, Scalar(std::int64_t{0}), dtype.value_or(default_float_dtype()), device, backend, "zeros");
}
Array zeros_like(const Array& x, std::optional<DType> dtype, std::optional<Device> device) {
  return like_named(x, Scalar(std::int64_t{0}), dtype, device, "zeros_like");
}
Array tril(const Array& x, std::int64_t k) {
  detail::need_defined(x, "tril");
  attr::triangle v;
  v.k = k;
  return dispatch(OpId::tril, x, v);
}
Array triu(const Array& x, std::int64_t k) {
  detail::need_defined(x, "triu");
  attr::triangle v;
  v.k = k;
  return dispatch(OpId::triu, x, v);
}

// ---------------------------------------------------------------- data types
Array astype(const Array& x, DType dtype, bool copy, std::optional<Device> device) {
  detail::need_defined(x, "astype");
  if (device && !(*device == x.device()))
    throw ValueError(P("astype") + "moving to device " + device->str() + " is not supported");
  if (!copy && x.dtype() == dtype) return x;
  attr::astype v;
  v.dtype = dtype;
  return dispatch(OpId::astype, x, v);
}
bool can_cast(const Array& from, DType to) {
  detail::need_defined(from, "can_cast");
  return can_cast(from.dtype(), to);
}
FInfo finfo(const Array& x) {
  detail::need_defined(x, "finfo");
  return finfo(x.dtype());
}
IInfo iinfo(const Array& x) {
  detail::need_defined(x, "iinfo");
  return iinfo(x.dtype());
}
DType result_type(const std::vector<DTypeArg>& args) {
  std::vector<DType> ds;
  std::vector<Scalar> scalars;
  for (auto& a : args) {
    if (auto* d = std::get_if<DType>(&a)) ds.push_back(*d);
    else if (auto* x = std::get_if<Array>(&a)) {
      detail::need_defined(*x, "result_type");
      ds.push_back(x->dtype());
    }
    else scalars.push_back(std::get<Scalar>(a));
  }
  if (ds.empty()) throw ValueError("[result_type] needs at least one array or dtype");
  DType r = result_type(std::span<const DType>(ds));
  for (auto& s : scalars) r = scalar_result_type(r, s, "result_type");
  return r;
}
DType result_type(const Array& a, const Array& b) {
  detail::need_defined(a, "result_type");
  detail::need_defined(b, "result_type");
  return result_type(a.dtype(), b.dtype());
}

// ---------------------------------------------------------------- random
Array random_uniform(Scalar low, Scalar high, const Shape& shape, std::optional<DType> dtype, Device device, Backend backend) {
  attr::random_uniform v;
  v.shape = shape;
  v.low = Scalar(low.d);
  v.high = Scalar(high.d);
  v.dtype = dtype.value_or(default_float_dtype());
  if (!is_real_floating(v.dtype)) throw TypeError(P("random_uniform") + "dtype must be real floating, got " + dtype_name(v.dtype));
  if (!(low.d <= high.d)) throw ValueError(P("random_uniform") + "low (" + low.str() + ") must not exceed high (" + high.str() + ")");
  return create(OpId::random_uniform, v, backend, device, "random_uniform");
}
Array random_normal(Scalar mean, Scalar std, const Shape& shape, std::optional<DType> dtype, Device device, Backend backend) {
  attr::random_normal v;
  v.shape = shape;
  v.mean = Scalar(mean.d);
  v.std = Scalar(std.d);
  v.dtype = dtype.value_or(default_float_dtype());
  if (!is_real_floating(v.dtype)) throw TypeError(P("random_normal") + "dtype must be real floating, got " + dtype_name(v.dtype));
  if (!(std.d >= 0)) throw ValueError(P("random_normal") + "std must be >= 0, got " + std.str());
  return create(OpId::random_normal, v, backend, device, "random_normal");
}
Array randint(std::int64_t low, std::int64_t high, const Shape& shape, std::optional<DType> dtype, Device device,
              Backend backend) {
  if (high <= low)
    throw ValueError(P("randint") + "high (" + std::to_string(high) + ") must be greater than low (" + std::to_string(low) + ")");
  attr::randint v;
  v.shape = shape;
  v.low = Scalar(low);
  v.high = Scalar(high);
  v.dtype = dtype.value_or(default_int_dtype());
  if (!is_integer(v.dtype)) throw TypeError(P("randint") + "dtype must be an integer dtype, got " + dtype_name(v.dtype));
  return create(OpId::randint, v, backend, device, "randint");
}
void seed(std::uint64_t value, Backend backend) {
  if (backend) {
    if (backend.impl()->seed) backend.impl()->seed(value);
    return;
  }
  for (auto b : available_backends())
    if (b.impl()->seed) b.impl()->seed(value);
}

}  // namespace ivy

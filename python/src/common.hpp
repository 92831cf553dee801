// Shared pieces of the _ivy extension: type casters between Python objects and ivy's
// small value types (Scalar, Dims, AxisArg, Backend), and helpers used by several files.
#pragma once

#include <pybind11/complex.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "ivy/ivy.hpp"

namespace py = pybind11;

namespace ivy_py {

// Exact Python number types only (bool, int, float, complex): no conversion.
bool is_python_scalar(py::handle h);

// Python int -> int64 via __index__ (raises TypeError for non-integers).
std::int64_t to_int64(py::handle h);

// A shared_ptr owner that keeps a Python object alive; its deleter takes the GIL.
std::shared_ptr<void> keep_alive(py::object o);

// NumPy <-> ivy (numpy.h is only touched in interop.cpp).
ivy::Array from_numpy(py::handle arr, std::optional<ivy::DType> dtype, ivy::Device device, std::optional<bool> copy,
                      ivy::Backend backend);
py::object to_numpy(const ivy::Array& x, bool copy);

// Nested Python sequences of scalars -> ivy array.
ivy::Array from_sequence(py::handle seq, std::optional<ivy::DType> dtype, ivy::Device device, ivy::Backend backend);

// Python index key -> ivy index items, and the getitem/setitem built on them.
ivy::Array getitem(const ivy::Array& x, py::handle key);
void setitem(ivy::Array& x, py::handle key, py::handle value);

void bind_interop(py::module_& m, py::class_<ivy::Array>& cls);
void bind_functions(py::module_& m);
void bind_linalg_fft(py::module_& m);

}  // namespace ivy_py

namespace pybind11::detail {

// ivy::Scalar <-> bool | int | float | complex. NumPy scalars (0-d, with .item()) are
// accepted in the converting pass; ivy arrays never are.
template <>
struct type_caster<ivy::Scalar> {
 public:
  PYBIND11_TYPE_CASTER(ivy::Scalar, const_name("bool | int | float | complex"));

  bool load(handle src, bool convert) {
    PyObject* o = src.ptr();
    if (PyBool_Check(o)) {
      value = ivy::Scalar(o == Py_True);
      return true;
    }
    if (PyLong_Check(o)) {
      int overflow = 0;
      long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
      if (overflow == 0) {
        if (v == -1 && PyErr_Occurred()) {
          PyErr_Clear();
          return false;
        }
        value = ivy::Scalar(static_cast<std::int64_t>(v));
        return true;
      }
      if (overflow > 0) {  // values in (int64 max, uint64 max] keep their bit pattern
        unsigned long long u = PyLong_AsUnsignedLongLong(o);
        if (!PyErr_Occurred()) {
          value = ivy::Scalar(static_cast<std::uint64_t>(u));
          return true;
        }
        PyErr_Clear();
      }
      throw std::overflow_error("Python int too large to convert to an ivy scalar (int64/uint64)");
    }
    if (PyFloat_Check(o)) {
      value = ivy::Scalar(PyFloat_AS_DOUBLE(o));
      return true;
    }
    if (PyComplex_Check(o)) {
      value = ivy::Scalar(std::complex<double>(PyComplex_RealAsDouble(o), PyComplex_ImagAsDouble(o)));
      return true;
    }
    if (!convert) return false;
    if (isinstance<ivy::Array>(src)) return false;
    // NumPy scalars and 0-d NumPy arrays.
    if (hasattr(src, "dtype") && hasattr(src, "item") && hasattr(src, "ndim")) {
      try {
        if (src.attr("ndim").cast<int>() != 0) return false;
        object item = src.attr("item")();
        return load(item, false);
      } catch (error_already_set&) {
        return false;
      }
    }
    return false;
  }

  static handle cast(const ivy::Scalar& s, return_value_policy, handle) {
    switch (s.kind) {
      case ivy::Scalar::Bool: return PyBool_FromLong(s.b ? 1 : 0);
      case ivy::Scalar::Int: return PyLong_FromLongLong(s.i);
      case ivy::Scalar::Float: return PyFloat_FromDouble(s.d);
      default: return PyComplex_FromDoubles(s.c.real(), s.c.imag());
    }
  }
};

// ivy::Dims (shapes, axis lists) <-> int | sequence of ints (-> tuple).
template <>
struct type_caster<ivy::Dims> {
 public:
  PYBIND11_TYPE_CASTER(ivy::Dims, const_name("int | tuple[int, ...]"));

  bool load(handle src, bool) {
    if (src.is_none() || PyUnicode_Check(src.ptr()) || PyBytes_Check(src.ptr())) return false;
    if (PyBool_Check(src.ptr())) return false;
    if (PyIndex_Check(src.ptr()) && !PySequence_Check(src.ptr())) {
      value = ivy::Dims{ivy_py::to_int64(src)};
      return true;
    }
    if (!PySequence_Check(src.ptr())) return false;
    sequence seq = reinterpret_borrow<sequence>(src);
    if (seq.size() > static_cast<std::size_t>(ivy::kMaxRank))
      throw value_error("ivy supports at most " + std::to_string(ivy::kMaxRank) + " dimensions, got " +
                        std::to_string(seq.size()));
    ivy::Dims d;
    for (auto item : seq) {
      if (PyBool_Check(item.ptr()) || !PyIndex_Check(item.ptr())) return false;
      d.push_back(ivy_py::to_int64(item));
    }
    value = d;
    return true;
  }

  static handle cast(const ivy::Dims& d, return_value_policy, handle) {
    tuple t(d.size());
    for (std::size_t i = 0; i < d.size(); ++i) t[i] = int_(static_cast<long long>(d[i]));
    return t.release();
  }
};

// ivy::AxisArg <-> None | int | sequence of ints.
template <>
struct type_caster<ivy::AxisArg> {
 public:
  PYBIND11_TYPE_CASTER(ivy::AxisArg, const_name("None | int | tuple[int, ...]"));

  bool load(handle src, bool convert) {
    if (src.is_none()) {
      value = ivy::AxisArg{};
      return true;
    }
    make_caster<ivy::Dims> dc;
    if (!dc.load(src, convert)) return false;
    value = ivy::AxisArg(cast_op<ivy::Dims>(dc));
    return true;
  }
  static handle cast(const ivy::AxisArg& a, return_value_policy p, handle h) {
    if (!a.has) return none().release();
    return make_caster<ivy::Dims>::cast(a.dims, p, h);
  }
};

// ivy::Backend <-> None | str (the backend's name).
template <>
struct type_caster<ivy::Backend> {
 public:
  PYBIND11_TYPE_CASTER(ivy::Backend, const_name("str | None"));

  bool load(handle src, bool) {
    if (src.is_none()) {
      value = ivy::Backend{};
      return true;
    }
    if (!PyUnicode_Check(src.ptr())) return false;
    value = ivy::Backend(src.cast<std::string>());  // throws ivy::ValueError for unknown names
    return true;
  }
  static handle cast(const ivy::Backend& b, return_value_policy, handle) {
    if (!b) return none().release();
    return str(b.name()).release();
  }
};

}  // namespace pybind11::detail

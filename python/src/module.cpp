// _ivy: the compiled core of ivy's Python bindings. It exposes ivy::Array, the dtypes,
// devices, backend selection and every ivy:: function; the pure-Python package `ivy`
// (python/ivy/) wraps them with the Array API standard's exact signatures.
#include <pybind11/functional.h>

#include <sstream>

#include "common.hpp"

namespace ivy_py {
void bind_autodiff(py::module_& m);  // python/src/autodiff.cpp
void bind_nn(py::module_& m);        // python/src/nn.cpp (_ivy.nn and Container)
#ifdef IVY_PY_ONNX
void bind_onnx(py::module_& m);      // python/src/onnx.cpp (_ivy.onnx)
#endif
#ifdef IVY_PY_DISTRIBUTED
void bind_distributed(py::module_& m);  // python/src/distributed.cpp (_ivy.distributed)
#endif
namespace {

using ivy::Array;
using ivy::Backend;
using ivy::Device;
using ivy::DType;
using ivy::Scalar;

// The Python-visible context manager over ivy::BackendScope (RAII, thread-local).
class PyBackendScope {
 public:
  explicit PyBackendScope(Backend b) : b_(b) {}
  void enter() {
    if (guard_) throw ivy::ValueError("[BackendScope] this scope is already active; create a new one to nest");
    guard_.emplace(b_);
  }
  void exit() { guard_.reset(); }
  Backend backend() const { return b_; }

 private:
  Backend b_;
  std::optional<ivy::BackendScope> guard_;
};

// `x op= y` rebinds x's handle to the result, which must keep x's shape and be castable
// to x's dtype: as ivy's C++ operators, plus no complex -> real narrowing.
Array inplace_result(const Array& self, const Array& r, const char* op) {
  DType a = self.dtype(), b = r.dtype();
  bool ok = a == b || ivy::can_cast(b, a) || (ivy::is_real_floating(a) && ivy::is_real_floating(b)) ||
            (ivy::is_complex(a) && ivy::is_floating(b));
  if (!ok)
    throw ivy::TypeError(std::string("[") + op + "] in-place result dtype " + ivy::dtype_name(b) +
                         " cannot be stored into an array of dtype " + ivy::dtype_name(a));
  if (!(r.shape() == self.shape()))
    throw ivy::ValueError(std::string("[") + op + "] in-place result shape " + r.shape().str() +
                          " differs from the array's shape " + self.shape().str());
  return a == b ? r : ivy::astype(r, a);
}

py::object scalar_to_py(const Scalar& s) { return py::cast(s); }
// A one-element array's value as a Python scalar; uint64 values keep their full range
// (ivy::Scalar holds integers as int64 bits).
py::object item_py(const Array& x) {
  Scalar s = x.item_scalar();
  if (x.dtype() == ivy::uint64)
    return py::reinterpret_steal<py::object>(PyLong_FromUnsignedLongLong(static_cast<unsigned long long>(s.i)));
  return scalar_to_py(s);
}

std::string repr(const Array& x) {
  std::ostringstream os;
  os << x;
  return os.str();
}

void bind_errors(py::module_& m) {
  (void)m;
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const ivy::TypeError& e) {
      PyErr_SetString(PyExc_TypeError, e.what());
    } catch (const ivy::OverflowError& e) {
      PyErr_SetString(PyExc_OverflowError, e.what());
    } catch (const ivy::ValueError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const ivy::IndexError& e) {
      PyErr_SetString(PyExc_IndexError, e.what());
    } catch (const ivy::NotImplementedError& e) {
      PyErr_SetString(PyExc_NotImplementedError, e.what());
    } catch (const ivy::Error& e) {
      PyErr_SetString(PyExc_RuntimeError, e.what());
    }
  });
}

void bind_dtypes(py::module_& m) {
  py::enum_<DType> dt(m, "DType", "An ivy data type (compare with ==, hashable).");
  for (DType d : ivy::all_dtypes()) dt.value(ivy::dtype_name(d), d);
  // Replace (not overload) enum_'s __repr__/__str__.
  dt.attr("__repr__") = py::cpp_function([](DType d) { return std::string("ivy.") + ivy::dtype_name(d); },
                                         py::name("__repr__"), py::is_method(dt));
  dt.attr("__str__") = py::cpp_function([](DType d) { return std::string(ivy::dtype_name(d)); }, py::name("__str__"),
                                        py::is_method(dt));
  dt.def_property_readonly("itemsize", [](DType d) { return ivy::itemsize(d); });
  dt.def("__reduce__", [](DType d) {
    return py::make_tuple(py::module_::import("ivy").attr("_dtype_from_name"), py::make_tuple(ivy::dtype_name(d)));
  });

  m.def("dtype_from_name", &ivy::dtype_from_name);
  m.def("all_dtypes", [] { return std::vector<DType>(ivy::all_dtypes().begin(), ivy::all_dtypes().end()); });
  m.def("isdtype", [](DType d, std::string_view kind) { return ivy::isdtype(d, kind); });
  m.def("result_type_dtypes", [](const std::vector<DType>& ds) { return ivy::result_type(std::span<const DType>(ds)); });
  m.def("result_type", [](const std::vector<ivy::DTypeArg>& args) { return ivy::result_type(args); });
  m.def("can_cast", py::overload_cast<DType, DType>(&ivy::can_cast));
  m.def("default_float_dtype", &ivy::default_float_dtype);
  m.def("default_int_dtype", &ivy::default_int_dtype);
  m.def("default_complex_dtype", &ivy::default_complex_dtype);
  m.def("set_default_float_dtype", &ivy::set_default_float_dtype);
  m.def("set_default_int_dtype", &ivy::set_default_int_dtype);

  py::class_<ivy::FInfo>(m, "finfo_object")
      .def_readonly("bits", &ivy::FInfo::bits)
      .def_readonly("eps", &ivy::FInfo::eps)
      .def_readonly("max", &ivy::FInfo::max)
      .def_readonly("min", &ivy::FInfo::min)
      .def_readonly("smallest_normal", &ivy::FInfo::smallest_normal)
      .def_readonly("dtype", &ivy::FInfo::dtype)
      .def("__repr__", [](const ivy::FInfo& f) {
        std::ostringstream os;
        os << "finfo(bits=" << f.bits << ", eps=" << f.eps << ", max=" << f.max << ", min=" << f.min
           << ", smallest_normal=" << f.smallest_normal << ", dtype=" << ivy::dtype_name(f.dtype) << ")";
        return os.str();
      });
  py::class_<ivy::IInfo>(m, "iinfo_object")
      .def_readonly("bits", &ivy::IInfo::bits)
      .def_property_readonly("min", [](const ivy::IInfo& i) { return py::int_(static_cast<long long>(i.min)); })
      .def_property_readonly("max", [](const ivy::IInfo& i) { return py::int_(static_cast<unsigned long long>(i.max)); })
      .def_readonly("dtype", &ivy::IInfo::dtype)
      .def("__repr__", [](const ivy::IInfo& i) {
        return "iinfo(bits=" + std::to_string(i.bits) + ", min=" + std::to_string(i.min) +
               ", max=" + std::to_string(i.max) + ", dtype=" + ivy::dtype_name(i.dtype) + ")";
      });
  m.def("finfo", py::overload_cast<DType>(&ivy::finfo));
  m.def("iinfo", py::overload_cast<DType>(&ivy::iinfo));
}

void bind_devices(py::module_& m) {
  py::class_<Device>(m, "Device", "A device: 'cpu', 'cuda' or 'cuda:N'.")
      .def(py::init([](const std::string& s) { return Device::parse(s); }), py::arg("name"))
      .def_property_readonly("kind", [](const Device& d) { return d.kind == Device::cpu ? "cpu" : "cuda"; })
      .def_readonly("index", &Device::index)
      .def("__eq__", [](const Device& a, const Device& b) { return a == b; }, py::is_operator())
      .def("__eq__", [](const Device& a, const std::string& b) { return a.str() == b; }, py::is_operator())
      .def("__ne__", [](const Device& a, const Device& b) { return !(a == b); }, py::is_operator())
      .def("__ne__", [](const Device& a, const std::string& b) { return a.str() != b; }, py::is_operator())
      .def("__hash__", [](const Device& d) { return std::hash<std::string>()(d.str()); })
      .def("__str__", &Device::str)
      .def("__repr__", [](const Device& d) { return "Device('" + d.str() + "')"; })
      .def("__reduce__", [](const Device& d) {
        return py::make_tuple(py::module_::import("ivy._ivy").attr("Device"), py::make_tuple(d.str()));
      });
  py::implicitly_convertible<std::string, Device>();
}

void bind_backends(py::module_& m) {
  m.def("available_backends", [] {
    std::vector<std::string> out;
    for (auto b : ivy::available_backends()) out.emplace_back(b.name());
    return out;
  });
  m.def("set_backend", [](Backend b) {
    if (!b) throw ivy::ValueError("[set_backend] needs a backend name; use unset_backend() to clear");
    ivy::set_backend(b);
  });
  m.def("unset_backend", &ivy::unset_backend);
  m.def("current_backend", &ivy::current_backend);
  m.def("default_backend", &ivy::default_backend);
  m.def("to_backend", [](const Array& x, Backend b) {
    if (!b) throw ivy::ValueError("[to_backend] needs a backend name");
    return ivy::to_backend(x, b);
  });
  m.def("devices", [](Backend b) {
    if (!b) b = ivy::current_backend();
    return b.impl()->devices ? b.impl()->devices() : std::vector<Device>{Device{}};
  }, py::arg("backend") = py::none());
  m.def("is_unsupported", [](Backend b, std::string_view op, DType d) { return ivy::is_unsupported(b, op, d); });
  m.def("seed", [](std::uint64_t v, Backend b) { ivy::seed(v, b); }, py::arg("value"), py::arg("backend") = py::none());

  py::class_<PyBackendScope>(m, "BackendScope",
                             "with ivy.BackendScope('torch'): ... -- the innermost scope's backend is used for new arrays.")
      .def(py::init([](Backend b) {
        if (!b) throw ivy::ValueError("[BackendScope] needs a backend name");
        return std::make_unique<PyBackendScope>(b);
      }), py::arg("backend"))
      .def("__enter__", [](py::object self) {
        self.cast<PyBackendScope&>().enter();
        return self;
      })
      .def("__exit__", [](PyBackendScope& s, py::args) {
        s.exit();
        return false;
      })
      .def_property_readonly("backend", &PyBackendScope::backend)
      .def("__repr__", [](const PyBackendScope& s) { return std::string("BackendScope('") + s.backend().name() + "')"; });
}

template <class F>
void def_inplace(py::class_<Array>& cls, const char* name, const char* op, F fn) {
  cls.def(name, [fn, op](py::object self, const Array& o) {
    Array& a = self.cast<Array&>();
    a = inplace_result(a, fn(a, o), op);
    return self;
  }, py::is_operator());
  cls.def(name, [fn, op](py::object self, Scalar o) {
    Array& a = self.cast<Array&>();
    a = inplace_result(a, fn(a, o), op);
    return self;
  }, py::is_operator());
}

void bind_array(py::module_& m, py::class_<Array>& cls) {
  cls.def_property_readonly("dtype", &Array::dtype)
      .def_property_readonly("device", &Array::device)
      .def_property_readonly("backend", [](const Array& x) { return std::string(x.backend().name()); })
      .def_property_readonly("shape", [](const Array& x) { return x.shape(); })
      .def_property_readonly("ndim", &Array::ndim)
      .def_property_readonly("size", &Array::size)
      .def_property_readonly("T", &Array::T)
      .def_property_readonly("mT", &Array::mT)
      .def("__repr__", &repr)
      .def("__str__", &repr)
      .def("__len__", [](const Array& x) {
        if (x.ndim() == 0) throw py::type_error("len() of a 0-d array");
        return x.shape()[0];
      })
      .def("item", [](const Array& x) { return item_py(x); })
      .def("_same", [](const Array& a, const Array& b) { return a.impl() == b.impl(); })
      .def("__bool__", [](const Array& x) {
        Scalar s = x.item_scalar();
        if (s.kind == Scalar::Complex) return s.c != std::complex<double>{};
        if (s.kind == Scalar::Float) return s.d != 0.0;
        return s.kind == Scalar::Bool ? s.b : s.i != 0;
      })
      .def("__int__", [](const Array& x) {
        if (ivy::is_complex(x.dtype())) throw py::type_error("int() of a complex array");
        if (ivy::is_bool(x.dtype())) return py::int_(x.item_scalar().b ? 1 : 0);
        return py::int_(item_py(x));
      })
      .def("__float__", [](const Array& x) {
        if (ivy::is_complex(x.dtype())) throw py::type_error("float() of a complex array");
        Scalar s = x.item_scalar();
        return s.kind == Scalar::Bool ? (s.b ? 1.0 : 0.0) : s.d;  // d holds every int's value (uint64 too)
      })
      .def("__complex__", [](const Array& x) {
        Scalar s = x.item_scalar();
        return s.kind == Scalar::Complex ? s.c : std::complex<double>(s.kind == Scalar::Bool ? (s.b ? 1.0 : 0.0) : s.d, 0.0);
      })
      .def("__index__", [](const Array& x) {
        if (!ivy::is_integer(x.dtype()))
          throw py::type_error(std::string("only integer arrays can be used as an index, got dtype ") +
                               ivy::dtype_name(x.dtype()));
        if (x.ndim() != 0) throw py::type_error("only 0-d integer arrays can be converted to an index");
        return py::int_(item_py(x));
      });

#define IVY_PY_BINOP(pyname, rpyname, fn)                                                                   \
  cls.def(pyname, [](const Array& a, const Array& b) { return ivy::fn(a, b); }, py::is_operator());        \
  cls.def(pyname, [](const Array& a, Scalar b) { return ivy::fn(a, b); }, py::is_operator());              \
  cls.def(rpyname, [](const Array& a, Scalar b) { return ivy::fn(b, a); }, py::is_operator());
  IVY_PY_BINOP("__add__", "__radd__", add)
  IVY_PY_BINOP("__sub__", "__rsub__", subtract)
  IVY_PY_BINOP("__mul__", "__rmul__", multiply)
  IVY_PY_BINOP("__truediv__", "__rtruediv__", divide)
  IVY_PY_BINOP("__floordiv__", "__rfloordiv__", floor_divide)
  IVY_PY_BINOP("__mod__", "__rmod__", remainder)
  IVY_PY_BINOP("__pow__", "__rpow__", pow)
  IVY_PY_BINOP("__and__", "__rand__", bitwise_and)
  IVY_PY_BINOP("__or__", "__ror__", bitwise_or)
  IVY_PY_BINOP("__xor__", "__rxor__", bitwise_xor)
  IVY_PY_BINOP("__lshift__", "__rlshift__", bitwise_left_shift)
  IVY_PY_BINOP("__rshift__", "__rrshift__", bitwise_right_shift)
#undef IVY_PY_BINOP
#define IVY_PY_CMP(pyname, fn)                                                                        \
  cls.def(pyname, [](const Array& a, const Array& b) { return ivy::fn(a, b); }, py::is_operator()); \
  cls.def(pyname, [](const Array& a, Scalar b) { return ivy::fn(a, b); }, py::is_operator());
  IVY_PY_CMP("__eq__", equal)
  IVY_PY_CMP("__ne__", not_equal)
  IVY_PY_CMP("__lt__", less)
  IVY_PY_CMP("__le__", less_equal)
  IVY_PY_CMP("__gt__", greater)
  IVY_PY_CMP("__ge__", greater_equal)
#undef IVY_PY_CMP
  cls.attr("__hash__") = py::none();
  cls.def("__matmul__", [](const Array& a, const Array& b) { return ivy::matmul(a, b); }, py::is_operator());
  cls.def("__rmatmul__", [](const Array& a, const Array& b) { return ivy::matmul(b, a); }, py::is_operator());
  cls.def("__imatmul__", [](py::object self, const Array& o) {
    Array& a = self.cast<Array&>();
    a = inplace_result(a, ivy::matmul(a, o), "matmul");
    return self;
  }, py::is_operator());
  cls.def("__neg__", [](const Array& a) { return ivy::negative(a); });
  cls.def("__pos__", [](const Array& a) { return ivy::positive(a); });
  cls.def("__abs__", [](const Array& a) { return ivy::abs(a); });
  cls.def("__invert__", [](const Array& a) { return ivy::bitwise_invert(a); });

#define IVY_PY_INPLACE(pyname, fn)                                                                      \
  def_inplace(cls, pyname, #fn, [](const Array& a, const auto& b) { return ivy::fn(a, b); });
  IVY_PY_INPLACE("__iadd__", add)
  IVY_PY_INPLACE("__isub__", subtract)
  IVY_PY_INPLACE("__imul__", multiply)
  IVY_PY_INPLACE("__itruediv__", divide)
  IVY_PY_INPLACE("__ifloordiv__", floor_divide)
  IVY_PY_INPLACE("__imod__", remainder)
  IVY_PY_INPLACE("__ipow__", pow)
  IVY_PY_INPLACE("__iand__", bitwise_and)
  IVY_PY_INPLACE("__ior__", bitwise_or)
  IVY_PY_INPLACE("__ixor__", bitwise_xor)
  IVY_PY_INPLACE("__ilshift__", bitwise_left_shift)
  IVY_PY_INPLACE("__irshift__", bitwise_right_shift)
#undef IVY_PY_INPLACE

  (void)m;
}

void bind_trace(py::module_& m) {
  py::class_<ivy::Graph>(m, "Graph", "A traced graph of ivy primitives; replayable on any backend.")
      .def("__str__", &ivy::Graph::str)
      .def("__repr__", [](const ivy::Graph& g) {
        return "<ivy.Graph: " + std::to_string(g.nodes.size()) + " nodes, " + std::to_string(g.input_ids.size()) +
               " inputs, " + std::to_string(g.output_ids.size()) + " outputs>";
      })
      .def_property_readonly("num_nodes", [](const ivy::Graph& g) { return g.nodes.size(); })
      .def_property_readonly("ops", [](const ivy::Graph& g) {
        std::vector<std::string> ops;
        for (auto& n : g.nodes) ops.emplace_back(ivy::op_info(n.op).name);
        return ops;
      })
      .def("run", [](const ivy::Graph& g, const std::vector<Array>& inputs, Backend b) { return g.run(inputs, b); },
           py::arg("inputs"), py::arg("backend") = py::none());
  m.def("trace", [](py::function fn, const std::vector<Array>& example_inputs) {
    ivy::TracedFn f = [fn](const std::vector<Array>& xs) {
      py::tuple args(xs.size());
      for (std::size_t i = 0; i < xs.size(); ++i) args[i] = py::cast(xs[i]);
      py::object r = fn(*args);
      if (py::isinstance<Array>(r)) return std::vector<Array>{r.cast<Array>()};
      return r.cast<std::vector<Array>>();
    };
    return ivy::trace(f, example_inputs);
  }, py::arg("fn"), py::arg("example_inputs"));
  // ivy.compile's core (python/ivy/_compile.py adds pytrees and static arguments): a
  // compiled function of a flat list of arrays returning a flat list of arrays
  py::class_<ivy::CompiledFunction>(m, "CompiledFunction")
      .def(py::init([](py::function fn, std::size_t cache_size, bool fuse) {
             ivy::TracedFn f = [fn](const std::vector<Array>& xs) {
               py::gil_scoped_acquire gil;
               return fn(xs).cast<std::vector<Array>>();
             };
             ivy::CompileOptions o;
             o.cache_size = cache_size;
             o.fuse_elementwise = fuse;
             return ivy::CompiledFunction(std::move(f), o);
           }),
           py::arg("fn"), py::arg("cache_size") = 16, py::arg("fuse") = true)
      .def("__call__", [](const ivy::CompiledFunction& c, const std::vector<Array>& xs) { return c(xs); })
      .def_property_readonly("traces", &ivy::CompiledFunction::traces)
      .def_property_readonly("cached", &ivy::CompiledFunction::cached)
      .def("plan", [](const ivy::CompiledFunction& c, const std::vector<Array>& xs) { return c.executable(xs)->plan_str(); })
      .def("graph", [](const ivy::CompiledFunction& c, const std::vector<Array>& xs) { return c.executable(xs)->graph(); });
  m.def("graph_to_json", [](const ivy::Graph& g) { return ivy::graph_to_json(g); }, py::arg("graph"));
  m.def("graph_from_json", [](const std::string& s, Backend b) { return ivy::graph_from_json(s, b); }, py::arg("text"),
        py::arg("backend") = py::none());
  m.def("graph_to_dot", [](const ivy::Graph& g) { return ivy::graph_to_dot(g); }, py::arg("graph"));
}

}  // namespace
}  // namespace ivy_py

PYBIND11_MODULE(_ivy, m) {
  using namespace ivy_py;
  m.doc() = "ivy's compiled core: ivy::Array, dtypes, devices, backends and the functional API.";
  bind_errors(m);
  bind_dtypes(m);
  bind_devices(m);
  py::class_<ivy::Array> cls(m, "Array", "An ivy array: a handle to an array owned by one backend.");
  bind_array(m, cls);
  bind_interop(m, cls);
  bind_backends(m);
  bind_functions(m);
  bind_linalg_fft(m);
  bind_trace(m);
  bind_autodiff(m);
  bind_nn(m);
#ifdef IVY_PY_ONNX
  bind_onnx(m);
#endif
#ifdef IVY_PY_DISTRIBUTED
  bind_distributed(m);
#endif
  m.attr("kMaxRank") = ivy::kMaxRank;
}

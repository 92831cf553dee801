// ivy's reverse-mode autodiff (ivy/autodiff.hpp) for Python: ivy::vjp over a Python callable
// on a flat list of arrays, and ivy::stop_gradient. The pytrees and the JAX-style transforms
// (grad, value_and_grad, jvp, jacrev, jacfwd, hessian) are built on these in
// python/ivy/_autodiff.py.
//
// The GIL is held throughout (the callable is Python code, and the tape is per thread), so
// nothing here releases it. A Python exception raised inside the callable travels through
// ivy::vjp as pybind11's error_already_set (the tape's observer scope unwinds) and comes out
// in Python as that same exception.
#include "common.hpp"

namespace ivy_py {

using ivy::Array;

namespace {

// The callable's result: a list or tuple of ivy arrays (the Python layer flattens first).
std::vector<Array> arrays_from_result(const py::handle& r) {
  if (!py::isinstance<py::list>(r) && !py::isinstance<py::tuple>(r))
    throw py::type_error(std::string("[vjp] the flat function must return a list of ivy arrays, got ") +
                         std::string(py::str(r.get_type().attr("__name__"))));
  py::sequence seq = py::reinterpret_borrow<py::sequence>(r);
  std::vector<Array> out;
  out.reserve(seq.size());
  for (std::size_t k = 0; k < seq.size(); ++k) {
    py::object item = seq[k];
    if (!py::isinstance<Array>(item))
      throw py::type_error("[vjp] output " + std::to_string(k) + " is a " +
                           std::string(py::str(item.get_type().attr("__name__"))) + ", not an ivy array");
    out.push_back(item.cast<Array>());
  }
  return out;
}

// Cotangents: a sequence with one entry per output, each an ivy array or None (zeros).
std::vector<Array> cotangents_from(const py::handle& cots) {
  if (!py::isinstance<py::list>(cots) && !py::isinstance<py::tuple>(cots))
    throw py::type_error("[vjp] the cotangents must be a list of ivy arrays (or None)");
  py::sequence seq = py::reinterpret_borrow<py::sequence>(cots);
  std::vector<Array> out(seq.size());
  for (std::size_t k = 0; k < seq.size(); ++k) {
    py::object item = seq[k];
    if (item.is_none()) continue;
    if (!py::isinstance<Array>(item))
      throw py::type_error("[vjp] cotangent " + std::to_string(k) + " is a " +
                           std::string(py::str(item.get_type().attr("__name__"))) + ", not an ivy array or None");
    out[k] = item.cast<Array>();
  }
  return out;
}

py::list to_list(const std::vector<Array>& v) {
  py::list l;
  for (const Array& a : v) l.append(py::cast(a));
  return l;
}

}  // namespace

void bind_autodiff(py::module_& m) {
  m.def("stop_gradient", [](const Array& x) { return ivy::stop_gradient(x); }, py::arg("x"));

  // vjp(fn, primals) -> (outputs, pullback): fn maps a list of arrays (copies of the primals)
  // to a list of arrays; pullback maps a list of output cotangents (arrays or None) to the
  // list of primal cotangents (zeros where no gradient flows). The pullback may be called
  // any number of times, and inside enclosing vjp calls (it is recorded by their tapes).
  m.def(
      "vjp",
      [](py::function fn, const std::vector<Array>& primals) {
        ivy::ArraysFn f = [fn](const std::vector<Array>& xs) -> std::vector<Array> {
          py::object r = fn(to_list(xs));
          return arrays_from_result(r);
        };
        ivy::VjpResult res = ivy::vjp(f, primals);
        auto pull = res.vjp_fn;
        py::cpp_function pullback(
            [pull](py::handle cots) { return to_list(pull(cotangents_from(cots))); }, py::arg("cotangents"));
        return py::make_tuple(to_list(res.outputs), pullback);
      },
      py::arg("fn"), py::arg("primals"));
}

}  // namespace ivy_py

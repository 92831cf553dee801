// ivy::Container for Python (ivy.Container): a nested tree of named ivy arrays built from
// nested dicts, with path access ("a/b"), leafwise map and arithmetic, and safetensors
// save/load. Errors keep ivy's messages ("[container] ...", "[save] ...", "[load] ...").
#include <pybind11/functional.h>

#include "common.hpp"
#include "ivy/container.hpp"

namespace ivy_py {

using ivy::Array;
using ivy::Container;
using ivy::Scalar;

namespace {

const char* kC = "[container] ";

std::string type_name(py::handle h) { return py::str(py::type::handle_of(h).attr("__name__")); }

Container from_py(py::handle h, const std::string& path);

// A nested mapping of str -> (array | mapping | Container) as a node.
Container from_mapping(py::handle h, const std::string& path) {
  Container c;
  py::object items = h.attr("items")();
  for (auto kv : items) {
    py::tuple t = py::reinterpret_borrow<py::tuple>(kv);
    if (!PyUnicode_Check(t[0].ptr()))
      throw ivy::TypeError(std::string(kC) + "keys must be strings, got " + std::string(py::repr(t[0])) +
                           (path.empty() ? std::string() : " under '" + path + "'"));
    std::string key = t[0].cast<std::string>();
    std::string child_path = path.empty() ? key : path + "/" + key;
    if (key.empty() || key.find('/') != std::string::npos)
      throw ivy::ValueError(std::string(kC) + "key '" + child_path +
                            "' is empty or contains '/'; nest dicts to build paths");
    c[key] = from_py(t[1], child_path);
  }
  return c;
}

Container from_py(py::handle h, const std::string& path) {
  if (py::isinstance<Array>(h)) return Container(h.cast<Array>());
  if (py::isinstance<Container>(h)) return h.cast<Container>();
  if (py::hasattr(h, "items") && py::hasattr(h, "keys")) return from_mapping(h, path);
  throw ivy::TypeError(std::string(kC) + "leaves must be ivy arrays (or nested dicts / Containers), got a " +
                       type_name(h) + (path.empty() ? std::string() : " at '" + path + "'"));
}

py::object to_py_tree(const Container& c) {
  if (c.is_leaf()) return py::cast(c.array());
  py::dict d;
  for (const auto& [k, child] : c.children()) d[py::str(k)] = to_py_tree(child);
  return d;
}

// A subtree for Python: a leaf's array, or the node as a Container.
py::object subtree(const Container& c) { return c.is_leaf() ? py::cast(c.array()) : py::cast(c); }

std::string fspath(py::handle p) {
  py::object s = py::module_::import("os").attr("fspath")(p);
  if (!PyUnicode_Check(s.ptr()))
    throw ivy::TypeError(std::string(kC) + "file paths must be str or os.PathLike of str, got " + type_name(s));
  return s.cast<std::string>();
}

Array call_leaf_fn(const py::function& fn, py::object arg0, py::object arg1, const std::string& path) {
  py::object r = arg1 ? fn(arg0, arg1) : fn(arg0);
  if (!py::isinstance<Array>(r))
    throw ivy::TypeError(std::string(kC) + "map: the function must return an ivy array, got a " + type_name(r) +
                         " for '" + path + "'");
  return r.cast<Array>();
}

}  // namespace

void bind_container(py::module_& m) {
  py::class_<Container> c(m, "Container",
                          "A nested tree of named ivy arrays: Container({'conv': {'w': w, 'b': b}}). Paths join "
                          "keys with '/' ('conv/w').");
  c.def(py::init([](py::object data) { return data.is_none() ? Container() : from_py(data, ""); }),
        py::arg("data") = py::none())
      .def_static(
          "from_flat",
          [](const std::vector<std::pair<std::string, Array>>& pairs) { return Container::from_pairs(pairs); },
          py::arg("pairs"), "A Container from (path, array) pairs, as flatten() returns them.")
      .def_property_readonly("is_leaf", &Container::is_leaf)
      .def_property_readonly("num_leaves", &Container::num_leaves)
      .def_property_readonly("array", &Container::array, "The array of a leaf container.")
      .def("keys", &Container::keys, "The direct children's keys, in insertion order.")
      .def("values", [](const Container& self) {
        py::list out;
        for (const auto& kv : self.children()) out.append(subtree(kv.second));
        return out;
      })
      .def("items", [](const Container& self) {
        py::list out;
        for (const auto& kv : self.children()) out.append(py::make_tuple(kv.first, subtree(kv.second)));
        return out;
      })
      .def("__iter__", [](const Container& self) { return py::iter(py::cast(self.keys())); })
      .def("__len__", [](const Container& self) { return self.children().size(); })
      .def("__contains__", [](const Container& self, const std::string& path) { return self.contains(path); })
      .def("__getitem__", [](const Container& self, const std::string& path) {
        if (!self.contains(path)) throw py::key_error(std::string(kC) + "no entry at '" + path + "'");
        return subtree(self.at(path));
      })
      .def("__setitem__", [](Container& self, const std::string& path, py::handle value) {
        if (path.empty()) throw ivy::ValueError(std::string(kC) + "cannot assign to the empty path");
        self.set(path, from_py(value, path));
      })
      .def("__delitem__", [](Container& self, const std::string& path) {
        if (path.empty() || !self.erase(path)) throw py::key_error(std::string(kC) + "no entry at '" + path + "'");
      })
      .def("flatten", &Container::flatten, "Every leaf as (path, array), depth first, in insertion order.")
      .def("to_dict", [](const Container& self) {
        if (self.is_leaf()) throw ivy::TypeError(std::string(kC) + "to_dict: this container is a leaf, not a node");
        return to_py_tree(self);
      }, "The tree as nested dicts of ivy arrays.")
      .def("map", [](const Container& self, py::function fn) {
        return self.map_with_paths(
            [&fn](const std::string& path, const Array& x) { return call_leaf_fn(fn, py::cast(x), {}, path); });
      }, py::arg("fn"), "A tree of the same structure with fn(array) at every leaf.")
      .def("map_with_paths", [](const Container& self, py::function fn) {
        return self.map_with_paths([&fn](const std::string& path, const Array& x) {
          return call_leaf_fn(fn, py::str(path), py::cast(x), path);
        });
      }, py::arg("fn"), "A tree of the same structure with fn(path, array) at every leaf.")
      .def("same_structure", &Container::same_structure, py::arg("other"))
      .def("sum", &Container::sum)
      .def("mean", &Container::mean)
      .def("global_sum_of_squares", &Container::global_sum_of_squares)
      .def("to_backend", [](const Container& self, ivy::Backend b) { return self.to_backend(b); }, py::arg("backend"))
      .def("__str__", [](const Container& self) {
        std::string s = self.str();
        if (!s.empty() && s.back() == '\n') s.pop_back();
        return s;
      })
      .def("__repr__", [](const Container& self) {
        std::string s = self.str();
        if (!s.empty() && s.back() == '\n') s.pop_back();
        return "Container(" + std::to_string(self.num_leaves()) + " leaves:\n" + s + ")";
      })
      .def(
          "save",
          [](const Container& self, py::handle path, const std::optional<std::map<std::string, std::string>>& md) {
            self.save(fspath(path), md.value_or(std::map<std::string, std::string>{}));
          },
          py::arg("path"), py::arg("metadata") = py::none(),
          "Writes the leaves to a safetensors file (metadata: str -> str, stored under __metadata__).")
      .def_static(
          "load",
          [](py::handle path, ivy::Backend backend, bool with_metadata) -> py::object {
            std::map<std::string, std::string> md;
            Container r = Container::load(fspath(path), backend, &md);
            if (with_metadata) return py::make_tuple(r, md);
            return py::cast(r);
          },
          py::arg("path"), py::arg("backend") = py::none(), py::arg("with_metadata") = false,
          "Reads a safetensors file (on `backend`, else the current one); with_metadata=True returns "
          "(container, metadata dict). Every problem with the file is a ValueError starting with \"[load]\".");

  // Leafwise arithmetic with a Container of the same structure, a Python scalar or an array
  // (broadcast against every leaf).
#define IVY_PY_CONTAINER_OP(pyname, rpyname, fn)                                                               \
  c.def(pyname, [](const Container& a, const Container& b) {                                                   \
    return Container::map2(a, b, [](const Array& x, const Array& y) { return ivy::fn(x, y); });               \
  }, py::is_operator());                                                                                       \
  c.def(pyname, [](const Container& a, Scalar s) { return a.map([s](const Array& x) { return ivy::fn(x, s); }); }, \
        py::is_operator());                                                                                    \
  c.def(pyname, [](const Container& a, const Array& y) {                                                       \
    return a.map([&y](const Array& x) { return ivy::fn(x, y); });                                              \
  }, py::is_operator());                                                                                       \
  c.def(rpyname, [](const Container& a, Scalar s) { return a.map([s](const Array& x) { return ivy::fn(s, x); }); }, \
        py::is_operator());                                                                                    \
  c.def(rpyname, [](const Container& a, const Array& y) {                                                      \
    return a.map([&y](const Array& x) { return ivy::fn(y, x); });                                              \
  }, py::is_operator());
  IVY_PY_CONTAINER_OP("__add__", "__radd__", add)
  IVY_PY_CONTAINER_OP("__sub__", "__rsub__", subtract)
  IVY_PY_CONTAINER_OP("__mul__", "__rmul__", multiply)
  IVY_PY_CONTAINER_OP("__truediv__", "__rtruediv__", divide)
  IVY_PY_CONTAINER_OP("__pow__", "__rpow__", pow)
#undef IVY_PY_CONTAINER_OP
  c.def("__neg__", [](const Container& a) { return -a; });
  c.attr("__hash__") = py::none();
}

}  // namespace ivy_py

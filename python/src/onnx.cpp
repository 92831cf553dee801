// _ivy.onnx: ivy::onnx for Python (built when the ONNX frontend is): ONNX models as callable,
// trainable modules (parameters as a dict of arrays by ONNX name, a functional `apply` for
// ivy.grad), and any Python function of arrays exported as an ONNX model.
#include "common.hpp"
#include "ivy/onnx.hpp"

namespace ivy_py {
namespace {

using ivy::Array;
using Model = ivy::onnx::Model;

py::dict to_dict(const ivy::Container& c) {
  py::dict d;
  for (const auto& [path, a] : c.flatten()) d[py::str(path)] = a;
  return d;
}

ivy::Container from_dict(const py::dict& d) {
  std::vector<std::pair<std::string, Array>> leaves;
  for (auto [k, v] : d) leaves.emplace_back(k.cast<std::string>(), v.cast<Array>());
  return ivy::Container::from_pairs(leaves);
}

py::object outputs_of(std::vector<Array> out) {
  if (out.size() == 1) return py::cast(out[0]);
  return py::cast(out);
}

py::dict info(const ivy::onnx::ValueInfo& v) {
  py::dict d;
  d["name"] = v.name;
  d["type"] = v.type == ivy::onnx::ValueType::Tensor ? "tensor" : v.type == ivy::onnx::ValueType::Sequence ? "sequence" : "optional";
  d["dtype"] = v.dtype;
  py::list dims;
  for (std::size_t i = 0; i < v.dims.size(); ++i) {
    if (v.dims[i] >= 0) dims.append(v.dims[i]);
    else dims.append(v.dim_names[i].empty() ? py::object(py::none()) : py::object(py::str(v.dim_names[i])));
  }
  d["shape"] = v.has_shape ? py::object(py::tuple(dims)) : py::object(py::none());
  return d;
}

}  // namespace

void bind_onnx(py::module_& parent) {
  py::module_ m = parent.def_submodule("onnx", "ONNX models in and out (ivy::onnx)");
  py::class_<Model, std::shared_ptr<Model>>(m, "Model", "An imported ONNX model: a callable, trainable module.")
      .def("__call__", [](Model& model, py::args args) {
             std::vector<Array> xs;
             for (auto a : args) xs.push_back(a.cast<Array>());
             return outputs_of(model.run(xs));
           })
      .def("run", [](Model& model, const std::map<std::string, Array>& named) { return model.run(named); }, py::arg("inputs"),
           "Inputs by name -> outputs by name.")
      .def("parameters", [](const Model& model) { return to_dict(model.parameters()); },
           "The floating initializers (trainable), by ONNX name.")
      .def("buffers", [](const Model& model) { return to_dict(model.buffers()); }, "The other initializers, by ONNX name.")
      .def("set_parameters", [](Model& model, const py::dict& p) { model.set_parameters(from_dict(p)); }, py::arg("params"))
      .def("apply", [](Model& model, const py::dict& params, py::args args) {
             // the model as a function of its parameters (for ivy.grad): run with `params`,
             // the model's own parameters restored after
             ivy::Container old = model.parameters();
             model.set_parameters(from_dict(params));
             std::vector<Array> xs;
             for (auto a : args) xs.push_back(a.cast<Array>());
             std::vector<Array> out;
             try {
               out = model.run(xs);
             } catch (...) {
               model.set_parameters(old);
               throw;
             }
             model.set_parameters(old);
             return outputs_of(std::move(out));
           }, py::arg("params"))
      .def("to_backend", [](Model& model, ivy::Backend b) { model.to_backend(b); }, py::arg("backend"))
      .def_property_readonly("inputs", [](const Model& model) {
        py::list l;
        for (const auto& v : model.inputs()) l.append(info(v));
        return l;
      })
      .def_property_readonly("outputs", [](const Model& model) {
        py::list l;
        for (const auto& v : model.outputs()) l.append(info(v));
        return l;
      })
      .def_property_readonly("opset", &Model::opset)
      .def_property_readonly("producer", &Model::producer)
      .def("operator_counts", &Model::operator_counts)
      .def_property_readonly("num_parameters", &Model::num_parameters)
      .def("__repr__", [](const Model& model) {
        return "<ivy.onnx.Model: opset " + std::to_string(model.opset()) + ", " + std::to_string(model.inputs().size()) +
               " inputs, " + std::to_string(model.outputs().size()) + " outputs, " + std::to_string(model.num_parameters()) +
               " parameters>";
      });
  m.def("load", [](const std::string& path, ivy::Backend b) {
          ivy::onnx::ImportOptions o;
          o.backend = b;
          return ivy::onnx::load(path, o);
        }, py::arg("path"), py::arg("backend") = py::none(), "Imports an ONNX model file.");
  m.def("load_from_bytes", [](const py::bytes& data, ivy::Backend b) {
          ivy::onnx::ImportOptions o;
          o.backend = b;
          return ivy::onnx::load_from_bytes(std::string(data), o);
        }, py::arg("data"), py::arg("backend") = py::none());
  auto options = [](int opset, const std::optional<std::vector<std::string>>& in, const std::optional<std::vector<std::string>>& out) {
    ivy::onnx::ExportOptions o;
    o.opset = opset;
    if (in) o.input_names = *in;
    if (out) o.output_names = *out;
    return o;
  };
  m.def("export_graph", [options](const ivy::Graph& g, int opset, std::optional<std::vector<std::string>> in,
                                  std::optional<std::vector<std::string>> out) {
          return py::bytes(ivy::onnx::export_graph(g, options(opset, in, out)));
        }, py::arg("graph"), py::arg("opset") = 17, py::arg("input_names") = py::none(), py::arg("output_names") = py::none(),
        "A traced graph as ONNX model bytes.");
  m.def("save_graph", [options](const ivy::Graph& g, const std::string& path, int opset, std::optional<std::vector<std::string>> in,
                                std::optional<std::vector<std::string>> out) { ivy::onnx::save(g, path, options(opset, in, out)); },
        py::arg("graph"), py::arg("path"), py::arg("opset") = 17, py::arg("input_names") = py::none(),
        py::arg("output_names") = py::none(), "A traced graph written as an ONNX file (atomically).");
  m.def("supported_operators", &ivy::onnx::supported_operators);
  m.def("unexportable_primitives", &ivy::onnx::unexportable_primitives);
}

}  // namespace ivy_py

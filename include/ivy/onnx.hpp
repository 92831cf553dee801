// ONNX in: a model file imported as an ivy module. Each node runs as a function written with
// ivy's public API (frontends/onnx/), chosen by domain, operator and the model's opset, so an
// imported model runs on every backend, traces, compiles and differentiates like code written
// with ivy. Initializers become the module's parameters (floating ones, trainable) and buffers
// (the others), under their ONNX names.
//
//   auto model = ivy::onnx::load("resnet18.onnx");
//   std::vector<ivy::Array> out = model->run({x});             // inputs in the model's order
//   auto [loss, grads] = ivy::nn::value_and_grad(*model, [&](ivy::nn::Module& m) { ... });
//
// Built when Debian's libonnx-dev is found (IVY_HAS_ONNX); errors start with [onnx.import]
// (reading the file) or [onnx.run] (running a node) and name the node, operator and opset.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ivy/module.hpp"
#include "ivy/trace.hpp"

namespace ivy::onnx {

struct ImportOptions {
  Backend backend = {};  // where the parameters live (default: the current backend)
};

// What a graph value holds: a tensor, a sequence of tensors, or an optional (empty, or
// holding a tensor or a sequence).
enum class ValueType { Tensor, Sequence, Optional };

// A graph input or output: its name, type, element dtype and dims (-1 where the model leaves
// a dim symbolic or unknown; dim_names holds the symbol, or ""; dims only for tensors).
struct ValueInfo {
  std::string name;
  ValueType type = ValueType::Tensor;
  bool optional_of_sequence = false;  // an Optional whose element is a sequence
  DType dtype = DType::float32;
  std::vector<std::int64_t> dims;
  std::vector<std::string> dim_names;
  bool has_shape = false;
};
// (Inputs and outputs that are maps or sparse tensors are refused at import.)

// A value of a graph, as run_values takes and gives them.
struct Value {
  ValueType type = ValueType::Tensor;
  Array tensor;                 // a tensor, or an optional's tensor
  std::vector<Array> sequence;  // a sequence, or an optional's sequence
  bool present = true;          // an optional that holds something
  bool holds_sequence = false;  // an optional whose element is a sequence
  static Value of(Array a) { Value v; v.tensor = std::move(a); return v; }
  static Value of_sequence(std::vector<Array> s) {
    Value v;
    v.type = ValueType::Sequence;
    v.sequence = std::move(s);
    return v;
  }
  static Value empty_optional(bool of_sequence) {
    Value v;
    v.type = ValueType::Optional;
    v.present = false;
    v.holds_sequence = of_sequence;
    return v;
  }
};

namespace detail {
struct Program;
}

class Model : public nn::Module {
 public:
  explicit Model(std::shared_ptr<const detail::Program> program);
  ~Model() override;

  const std::vector<ValueInfo>& inputs() const;
  const std::vector<ValueInfo>& outputs() const;
  int opset() const;  // of the default domain
  std::string producer() const;
  // How many nodes of each operator the model has, its subgraphs' included ("Conv", or
  // "domain.Op" outside the default domain).
  std::map<std::string, int> operator_counts() const;
  // True when the model draws random numbers (RandomUniform, Bernoulli, ..., Dropout given a
  // training_mode input): its outputs can be compared by shape and dtype only.
  bool has_random_operators() const;

  // Every output, for the inputs in the order of inputs(); optional trailing inputs may be
  // left out.
  std::vector<Array> run(const std::vector<Array>& inputs);
  // (braces: run({a, b}) would otherwise also match the map form's iterator constructor)
  std::vector<Array> run(std::initializer_list<Array> inputs) { return run(std::vector<Array>(inputs)); }
  // The same by name: {input name: array} -> {output name: array}.
  std::map<std::string, Array> run(const std::map<std::string, Array>& inputs);
  // A model of one input: its first output.
  Array forward(const Array& x) override;
  // Inputs and outputs of any type (sequences and optionals too); the array forms above
  // need a model whose inputs and outputs are tensors.
  std::vector<Value> run_values(const std::vector<Value>& inputs);

 protected:
  std::string describe() const override;

 private:
  std::shared_ptr<const detail::Program> program_;
  // Each initializer's variable, in the program's order (registration is over, so the
  // Module's storage no longer moves; set_parameters and to_backend assign in place).
  std::vector<const Array*> initializer_values_;
};

// Imports a model file (protobuf ONNX): the file is checked (onnx::checker), and every node
// must map to an operator function; all the nodes that do not are listed in one
// NotImplementedError.
std::shared_ptr<Model> load(const std::string& path, const ImportOptions& options = {});
std::shared_ptr<Model> load_from_bytes(const std::string& bytes, const ImportOptions& options = {});

// A TensorProto file (as the ONNX test data stores inputs and outputs) as an array.
Array load_tensor(const std::string& path, Backend backend = {});
// A TensorProto, SequenceProto or OptionalProto file, as the type says.
Value load_value(const std::string& path, ValueType type, Backend backend = {});

// The operators the frontend implements: "Op" (default domain) with the since_version of
// each implementation, e.g. {"Softmax", {1, 13}}.
std::map<std::string, std::vector<int>> supported_operators();

// ---- ONNX out

// How export_graph writes a graph.
struct ExportOptions {
  int opset = 17;                               // the default domain's opset: 13 to 17
  std::vector<std::string> input_names;         // one per graph input (default input_0, input_1, ...)
  std::vector<std::string> output_names;        // one per graph output (default output_0, ...)
  // Names for captured constants (the initializers), matched by array identity: an imported
  // model's parameters keep their names this way. Others are const_0, const_1, ...
  std::vector<std::pair<Array, std::string>> constant_names;
  // true: only the constants constant_names names become initializers (what an importer treats
  // as the model's variables), the others Constant nodes; false: every constant is one.
  bool only_named_initializers = false;
  std::string graph_name = "ivy";
};

// The graph as a serialized ONNX ModelProto: every primitive as an ONNX node or a small
// composition of nodes, for the graph's (traced, static) shapes; captured constants are
// initializers. The model passes ONNX's checker and strict shape inference before it is
// returned. Errors: ValueError "[onnx.export] ..." naming the primitive, for the primitives
// unexportable_primitives() lists, complex values, and opsets outside 13 to 17.
std::string export_graph(const Graph& g, const ExportOptions& options = {});
// export_graph written to `path` atomically (the old file or the complete new one).
void save(const Graph& g, const std::string& path, const ExportOptions& options = {});
// trace(fn, example_inputs), then save.
void export_function(const TracedFn& fn, const std::vector<Array>& example_inputs, const std::string& path,
                     const ExportOptions& options = {});
// The primitives of ops.def that opsets 13 to 17 cannot express, each with the reason.
std::map<std::string, std::string> unexportable_primitives();

}  // namespace ivy::onnx

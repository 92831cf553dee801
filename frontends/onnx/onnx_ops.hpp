// The ONNX frontend's operator interface (internal; no ONNX or protobuf headers): a node as
// the importer hands it over, and the table of operator functions, one per operator and
// version range, each written only with ivy's public API so that every backend, the tracer,
// compile and autodiff run imported models with nothing extra.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "ivy/ivy.hpp"
#include "ivy/onnx.hpp"

namespace ivy::onnx::detail {

// One attribute of a node, as read from the model (the kinds ONNX operators of the default
// domain use; graphs and sparse tensors are refused by the importer).
struct Attribute {
  enum Kind { Float, Int, String, Tensor, Floats, Ints, Strings };
  Kind kind = Int;
  double f = 0;
  std::int64_t i = 0;
  std::string s;
  Array t;
  std::vector<double> floats;
  std::vector<std::int64_t> ints;
  std::vector<std::string> strings;
};

// A node of the model: what an operator function reads besides its input arrays.
struct NodeInfo {
  std::string name;     // may be empty in the file; messages then use "#<index>"
  std::string op_type;
  std::string domain;   // "" for the default domain ai.onnx
  int opset = 0;        // the model's opset version for the node's domain
  int since = 0;        // the since_version of the operator version that runs it
  int n_outputs = 1;    // outputs the node names (trailing optional ones may be absent)
  std::map<std::string, Attribute> attrs;

  bool has(const char* attr) const { return attrs.count(attr) != 0; }
  // Typed attribute reads: the default when absent; a wrong kind is an error naming the node.
  std::int64_t i(const char* attr, std::int64_t def) const;
  std::int64_t i(const char* attr) const;  // required
  double f(const char* attr, double def) const;
  std::string s(const char* attr, const std::string& def) const;
  std::vector<std::int64_t> ints(const char* attr, const std::vector<std::int64_t>& def) const;
  std::vector<std::int64_t> ints(const char* attr) const;  // required
  std::vector<double> floats(const char* attr, const std::vector<double>& def) const;
  Array tensor(const char* attr) const;  // required
  // "[onnx.import] node 'name' (Op, opset N): what" as an ivy::ValueError (NotImplementedError
  // for the second form).
  [[noreturn]] void fail(const std::string& what) const;
  [[noreturn]] void unsupported(const std::string& what) const;
  std::string where() const;  // "node 'name' (Op, opset N)"
};

// An operator function: the node, its inputs (an absent optional input is an undefined
// Array), and it returns one Array per output the node names (it may return more; extra
// ones are dropped; an undefined Array for an optional output it does not compute).
using OpFn = std::vector<Array> (*)(const NodeInfo& node, const std::vector<Array>& in);
// The same over values of any type (sequences, optionals), for the operators that take them.
using ValueFn = std::vector<Value> (*)(const NodeInfo& node, const std::vector<Value>& in);

struct OpEntry {
  const char* domain;   // "" = ai.onnx
  const char* op_type;
  int since;            // the first opset version this function implements
  OpFn fn;              // one of fn and vfn
  ValueFn vfn = nullptr;
};

// Each operator family appends its entries (frontends/onnx/ops_*.cpp).
void add_elementwise_ops(std::vector<OpEntry>& table);
void add_tensor_ops(std::vector<OpEntry>& table);
void add_nn_ops(std::vector<OpEntry>& table);
void add_resize_ops(std::vector<OpEntry>& table);
void add_sequence_ops(std::vector<OpEntry>& table);
void add_rnn_ops(std::vector<OpEntry>& table);
void add_misc_ops(std::vector<OpEntry>& table);
void add_random_ops(std::vector<OpEntry>& table);
void add_quant_ops(std::vector<OpEntry>& table);
void add_training_ops(std::vector<OpEntry>& table);
void add_signal_ops(std::vector<OpEntry>& table);

// Helpers the operator functions share (frontends/onnx/op_helpers.cpp).
// The number of inputs must be in [lo, hi] (hi < 0: no upper bound); inputs below lo must be
// defined.
void need_inputs(const NodeInfo& n, const std::vector<Array>& in, int lo, int hi);
// The values of a small integer array (shapes, axes, indices read on the host).
std::vector<std::int64_t> int_values(const NodeInfo& n, const Array& a, const char* what);
// The values of a floating array read on the host, as doubles.
std::vector<double> float_values(const NodeInfo& n, const Array& a, const char* what);
// An axis attribute or input normalized against rank r (negative counts from the end).
std::int64_t norm_axis(const NodeInfo& n, std::int64_t axis, std::int64_t rank);
// An int64 1-d array on x's backend.
Array int64_array(const std::vector<std::int64_t>& v, const Array& like);
// A size computed from a model's values (a floor or ceil already taken) as an element count:
// non-negative, finite and at most 2^40 (1 Ti elements), else an error naming `what`.
std::int64_t size_from_value(const NodeInfo& n, double v, const char* what);
// Convolution and pooling attributes (ops_nn.cpp, ops_quant.cpp):
// a per-spatial-axis attribute: `def` on every axis when absent, else exactly d values;
Dims per_axis(const NodeInfo& n, const char* name, std::int64_t d, std::int64_t def);
// (begin, end) padding per axis from auto_pad and pads, for windows spanning `spans` elements
// moving by `strides` over `sizes` (SAME_*: ceil(size / stride) outputs);
using Pads = std::vector<std::pair<std::int64_t, std::int64_t>>;
Pads window_pads(const NodeInfo& n, const Dims& sizes, const Dims& spans, const Dims& strides);
// window spans dilation * (k - 1) + 1, and the spatial sizes of [N, C, *S].
Dims spans_of(const Dims& k, const Dims& dil);
Dims sizes_of(const Array& x);
// The ONNX TensorProto.DataType code of a dtype and back (errors name the node).
DType dtype_of_code(const NodeInfo& n, std::int64_t code);

}  // namespace ivy::onnx::detail

// Graph well-formedness (declared, with its contract, in graph_check.hpp).
#include "trace/graph_check.hpp"
#include "trace/graph_util.hpp"

#include <limits>
#include <memory>
#include <vector>

#include "ivy/dispatch.hpp"

namespace ivy::graph_io_detail {

std::string id_str(std::int64_t id) { return "%" + std::to_string(id); }
std::string node_str(std::size_t n, OpId op) {
  return "node " + std::to_string(n) + " (" + op_info(op).name + ")";
}
std::string type_str(DType d, const Shape& s) { return std::string(dtype_name(d)) + s.str(); }

std::int64_t checked_nbytes(const Shape& s, DType d) {
  const std::uint64_t limit = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
  std::uint64_t n = 1;
  bool zero = false;
  for (std::int64_t e : s) {
    if (e == 0) {
      zero = true;
      continue;
    }
    if (n > limit / static_cast<std::uint64_t>(e)) return -1;
    n *= static_cast<std::uint64_t>(e);
  }
  if (n > limit / itemsize(d)) return -1;
  return zero ? 0 : static_cast<std::int64_t>(n * itemsize(d));
}

void check_graph(const Graph& g, const char* who, const std::string& ctx, bool with_arrays) {
  auto fail = [&](const std::string& what) { throw ValueError(std::string("[") + who + "] " + ctx + what); };
  const std::size_t nv = g.values.size();
  if (nv > static_cast<std::size_t>(std::numeric_limits<int>::max())) fail("too many values");
  for (std::size_t v = 0; v < nv; ++v) {
    const Graph::Value& val = g.values[v];
    if (static_cast<int>(val.dtype) >= kNumDTypes)
      fail("value " + id_str(static_cast<std::int64_t>(v)) + " has no valid dtype");
    for (std::int64_t e : val.shape)
      if (e < 0) fail("value " + id_str(static_cast<std::int64_t>(v)) + " has the negative extent in " + val.shape.str());
    if (checked_nbytes(val.shape, val.dtype) < 0)
      fail("value " + id_str(static_cast<std::int64_t>(v)) + " of shape " + val.shape.str() + " has too many bytes");
  }
  auto in_range = [&](int id) { return id >= 0 && static_cast<std::size_t>(id) < nv; };

  // where each value is defined, for the "defined twice" message
  graph_util::ById<std::string> defined_by(nv);
  auto define = [&](int id, const std::string& where) {
    std::string& d = defined_by[id];
    if (!d.empty()) fail(where + ": " + id_str(id) + " is already defined by " + d);
    d = where;
  };
  for (std::size_t i = 0; i < g.input_ids.size(); ++i) {
    const int id = g.input_ids[i];
    const std::string where = "input " + std::to_string(i);
    if (!in_range(id)) fail(where + ": " + id_str(id) + " is not a value of the graph");
    define(id, where);
  }
  if (with_arrays && g.constants.size() != g.constant_ids.size())
    fail(std::to_string(g.constant_ids.size()) + " constant ids but " + std::to_string(g.constants.size()) +
         " constant arrays");
  for (std::size_t i = 0; i < g.constant_ids.size(); ++i) {
    const int id = g.constant_ids[i];
    const std::string where = "constant " + std::to_string(i);
    if (!in_range(id)) fail(where + ": " + id_str(id) + " is not a value of the graph");
    define(id, where);
    if (!with_arrays) continue;
    const Array& x = g.constants[i];
    const Graph::Value& val = g.value(id);
    if (!x.defined()) fail(where + " (" + id_str(id) + ") has no array");
    if (x.dtype() != val.dtype || !(x.shape() == val.shape))
      fail(where + " (" + id_str(id) + ") is " + type_str(x.dtype(), x.shape()) + " but the value is " +
           type_str(val.dtype, val.shape));
  }
  for (std::size_t n = 0; n < g.nodes.size(); ++n) {
    const Graph::Node& node = g.nodes[n];
    if (static_cast<int>(node.op) >= kNumOps)
      fail("node " + std::to_string(n) + " has no valid op");
    const OpInfo& info = op_info(node.op);
    const std::string where = node_str(n, node.op);
    if (info.n_in >= 0 && node.inputs.size() != static_cast<std::size_t>(info.n_in))
      fail(where + ": " + std::to_string(node.inputs.size()) + " inputs, the primitive takes " +
           std::to_string(info.n_in));
    if (info.n_out >= 0 && node.outputs.size() != static_cast<std::size_t>(info.n_out))
      fail(where + ": " + std::to_string(node.outputs.size()) + " outputs, the primitive makes " +
           std::to_string(info.n_out));
    if (info.n_out < 0 && node.outputs.size() > static_cast<std::size_t>(kMaxOutputs))
      fail(where + ": " + std::to_string(node.outputs.size()) + " outputs, more than the most a primitive makes (" +
           std::to_string(kMaxOutputs) + ")");
    for (int id : node.inputs) {
      if (!in_range(id)) fail(where + ": input " + id_str(id) + " is not a value of the graph");
      if (defined_by[id].empty())
        fail(where + ": input " + id_str(id) + " is read before it is defined");
    }
    for (int id : node.outputs) {
      if (!in_range(id)) fail(where + ": output " + id_str(id) + " is not a value of the graph");
      define(id, where);
    }
  }
  for (std::size_t i = 0; i < g.output_ids.size(); ++i) {
    const int id = g.output_ids[i];
    const std::string where = "output " + std::to_string(i);
    if (!in_range(id)) fail(where + ": " + id_str(id) + " is not a value of the graph");
    if (defined_by[id].empty()) fail(where + ": " + id_str(id) + " is never defined");
  }
}

namespace {
bool kind_allowed(DType d, std::uint8_t kinds) {
  const std::uint8_t k = is_bool(d) ? kBoolKind : is_integer(d) ? kIntegerKind : is_complex(d) ? kComplexKind : kRealFloating;
  return (k & kinds) != 0;
}
}  // namespace

void check_types(const Graph& g, const char* who, const std::string& ctx) {
  const std::string head = std::string("[") + who + "] " + ctx;
  // metadata-only arrays: the primitives' rules read shapes and dtypes, never data
  std::vector<Array> in;
  OutSpec specs[kMaxOutputs];
  for (std::size_t n = 0; n < g.nodes.size(); ++n) {
    const Graph::Node& node = g.nodes[n];
    const OpInfo& info = op_info(node.op);
    const std::string where = head + node_str(n, node.op) + ": ";
    in.clear();
    for (int id : node.inputs) {
      const Graph::Value& v = g.value(id);
      if (!kind_allowed(v.dtype, info.kinds))
        throw ValueError(where + "input " + id_str(id) + " is " + type_str(v.dtype, v.shape) +
                        ", a dtype the primitive does not take");
      in.emplace_back(std::make_shared<ArrayImpl>(v.shape, v.dtype, Device{}, nullptr));
    }
    if (AttrsRef(node.attrs).set() != info.set)
      throw ValueError(where + "has attribute set '" + attr_set_name(AttrsRef(node.attrs).set()) +
                       "', the primitive takes '" + info.attr_set + "'");
    int n_out = 0;
    try {
      n_out = info.meta(info.name, in.data(), static_cast<int>(in.size()), node.attrs, specs);
    } catch (const Error& e) {
      throw ValueError(where + e.what());
    }
    if (n_out != static_cast<int>(node.outputs.size()))
      throw ValueError(where + "declares " + std::to_string(node.outputs.size()) + " outputs, its inputs make " +
                       std::to_string(n_out));
    for (int i = 0; i < n_out; ++i) {
      const int id = node.outputs[static_cast<std::size_t>(i)];
      const Graph::Value& v = g.value(id);
      const bool shape_ok = specs[i].known ? v.shape == specs[i].shape : v.shape.size() == specs[i].shape.size();
      if (v.dtype != specs[i].dtype || !shape_ok)
        throw ValueError(where + "output " + id_str(id) + " is declared " + type_str(v.dtype, v.shape) +
                         " but its inputs make " + type_str(specs[i].dtype, specs[i].shape));
    }
  }
}

}  // namespace ivy::graph_io_detail

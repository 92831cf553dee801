// Tracing: a dispatch observer that records calls into a Graph, def-use upkeep, and replay.
#include <algorithm>
#include <sstream>
#include <unordered_map>

#include "ivy/trace.hpp"
#include "trace/graph_util.hpp"

namespace ivy {

namespace {
class Recorder final : public DispatchObserver {
 public:
  explicit Recorder(Graph& g) : g_(g) {}
  int id_of(const Array& x, bool as_constant) {
    auto it = ids_.find(x.impl());
    if (it != ids_.end()) return it->second;
    int id = static_cast<int>(g_.values.size());
    g_.values.push_back({x.shape(), x.dtype()});
    ids_[x.impl()] = id;
    keep_.push_back(x);  // keeps the address unique while tracing
    if (as_constant) {
      g_.constant_ids.push_back(id);
      g_.constants.push_back(x);
    }
    return id;
  }
  void on_dispatch(OpId op, std::span<const Array> in, AttrsRef a, std::span<const Array> out) override {
    const int node_index = static_cast<int>(g_.nodes.size());
    Graph::Node node{op, a, {}, {}};
    for (const Array& x : in) {
      const int id = id_of(x, true);
      node.inputs.push_back(id);
      g_.value(id).users.push_back(node_index);
    }
    for (const Array& y : out) {
      // a kernel may return an input unchanged (e.g. a zero-copy reshape keeps the impl
      // distinct, so this only happens for identity ops): give outputs fresh ids
      int id = static_cast<int>(g_.values.size());
      g_.values.push_back({y.shape(), y.dtype(), node_index, {}});
      ids_[y.impl()] = id;
      keep_.push_back(y);
      node.outputs.push_back(id);
    }
    g_.nodes.push_back(std::move(node));
  }

 private:
  Graph& g_;
  std::unordered_map<const ArrayImpl*, int> ids_;
  std::vector<Array> keep_;
};

}  // namespace

bool tracing_active() {
  for (DispatchObserver* o = innermost_observer(); o; o = o->below())
    if (dynamic_cast<Recorder*>(o)) return true;
  return false;
}

Graph trace(const TracedFn& fn, const std::vector<Array>& example_inputs) {
  Graph g;
  Recorder rec(g);
  for (auto& x : example_inputs) {
    if (!x.defined()) throw ValueError("[trace] an example input is undefined");
    g.input_ids.push_back(rec.id_of(x, false));
  }
  std::vector<Array> outs;
  {
    ObserverScope observing(rec);
    outs = fn(example_inputs);
  }
  for (auto& y : outs) {
    if (!y.defined()) throw ValueError("[trace] the traced function returned an undefined array");
    g.output_ids.push_back(rec.id_of(y, true));
  }
  return g;
}
Graph trace(const std::function<Array(const Array&)>& fn, const Array& example_input) {
  return trace([&](const std::vector<Array>& v) { return std::vector<Array>{fn(v[0])}; }, {example_input});
}
Graph trace(const std::function<Array(const Array&, const Array&)>& fn, const Array& a, const Array& b) {
  return trace([&](const std::vector<Array>& v) { return std::vector<Array>{fn(v[0], v[1])}; }, {a, b});
}

std::vector<Array> Graph::run(const std::vector<Array>& inputs, Backend backend) const {
  if (inputs.size() != input_ids.size())
    throw ValueError("[Graph::run] expected " + std::to_string(input_ids.size()) + " inputs, got " +
                     std::to_string(inputs.size()));
  Backend target = backend;
  if (!target) target = inputs.empty() ? current_backend() : inputs[0].backend();
  std::vector<Array> env(values.size());
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const Value& v = values[input_ids[i]];
    if (!(inputs[i].shape() == v.shape) || inputs[i].dtype() != v.dtype)
      throw ValueError("[Graph::run] input " + std::to_string(i) + " has " + dtype_name(inputs[i].dtype()) +
                       inputs[i].shape().str() + ", the graph was traced with " + dtype_name(v.dtype) + v.shape.str());
    env[input_ids[i]] = to_backend(inputs[i], target);
  }
  for (std::size_t i = 0; i < constant_ids.size(); ++i) env[constant_ids[i]] = to_backend(constants[i], target);
  BackendScope scope(target);  // creation nodes run on the target too
  std::vector<Array> in;
  for (const Node& n : nodes) {
    in.clear();
    for (int id : n.inputs) in.push_back(env[id]);
    if (op_info(n.op).n_out == 1) {
      env[n.outputs[0]] = dispatch(n.op, std::span<const Array>(in), n.attrs, n.inputs.empty() ? target : Backend{});
    } else {
      auto outs = dispatch_multi(n.op, std::span<const Array>(in), n.attrs, n.inputs.empty() ? target : Backend{});
      for (std::size_t k = 0; k < n.outputs.size() && k < outs.size(); ++k) env[n.outputs[k]] = outs[k];
    }
    // later nodes carry the shapes the trace saw: a data-dependent one that differs now
    // would make them fail or compute garbage, so it stops here and says why
    if (op_info(n.op).has(kDataDependentShape))
      for (int o : n.outputs)
        if (!(env[o].shape() == values[o].shape))
          throw ValueError(std::string("[Graph::run] ") + op_info(n.op).name + " gave shape " + env[o].shape().str() +
                           " on these inputs where the trace saw " + values[o].shape.str() +
                           ": its output shape depends on the data, and the nodes after it were traced with the old "
                           "shape; trace the function again for these inputs");
  }
  std::vector<Array> out;
  for (int id : output_ids) out.push_back(env[id]);
  return out;
}

bool Graph::is_output(int value) const {
  return std::find(output_ids.begin(), output_ids.end(), value) != output_ids.end();
}

void Graph::rebuild_uses() {
  for (Value& v : values) v.producer = -1, v.users.clear();
  graph_util::ById<char> defined(values.size(), 0);
  auto check = [&](int id, const char* what) {
    if (id < 0 || static_cast<std::size_t>(id) >= values.size())
      throw ValueError(std::string("[Graph::rebuild_uses] ") + what + " %" + std::to_string(id) + " is not a value of the graph");
  };
  for (int id : input_ids) check(id, "input"), defined[id] = 1;
  for (int id : constant_ids) check(id, "constant"), defined[id] = 1;
  for (std::size_t n = 0; n < nodes.size(); ++n) {
    for (int id : nodes[n].inputs) {
      check(id, "node input");
      if (!defined[id])
        throw ValueError("[Graph::rebuild_uses] node " + std::to_string(n) + " (" + op_info(nodes[n].op).name + ") reads %" +
                         std::to_string(id) + " before it is defined");
      value(id).users.push_back(static_cast<int>(n));
    }
    for (int id : nodes[n].outputs) {
      check(id, "node output");
      if (defined[id])
        throw ValueError("[Graph::rebuild_uses] %" + std::to_string(id) + " is defined twice");
      defined[id] = 1;
      value(id).producer = static_cast<int>(n);
    }
  }
}

std::string Graph::str() const {
  std::ostringstream os;
  auto val = [&](int id) { return "%" + std::to_string(id); };
  os << "graph(";
  for (std::size_t i = 0; i < input_ids.size(); ++i)
    os << (i ? ", " : "") << val(input_ids[i]) << ": " << dtype_name(values[input_ids[i]].dtype) << values[input_ids[i]].shape;
  os << ") {\n";
  for (std::size_t i = 0; i < constant_ids.size(); ++i)
    os << "  " << val(constant_ids[i]) << " = constant : " << dtype_name(values[constant_ids[i]].dtype)
       << values[constant_ids[i]].shape << "\n";
  for (const Node& n : nodes) {
    os << "  ";
    for (std::size_t k = 0; k < n.outputs.size(); ++k) os << (k ? ", " : "") << val(n.outputs[k]);
    os << " = " << op_info(n.op).name << "(";
    for (std::size_t k = 0; k < n.inputs.size(); ++k) os << (k ? ", " : "") << val(n.inputs[k]);
    os << ")";
    std::string at = attrs_str(n.op, n.attrs);
    if (!at.empty()) os << " {" << at << "}";
    os << " :";
    for (int o : n.outputs) os << " " << dtype_name(values[o].dtype) << values[o].shape;
    os << "\n";
  }
  os << "  return";
  for (std::size_t i = 0; i < output_ids.size(); ++i) os << (i ? ", " : " ") << val(output_ids[i]);
  os << "\n}";
  return os.str();
}
std::ostream& operator<<(std::ostream& os, const Graph& g) { return os << g.str(); }

}  // namespace ivy

// Tracing: record the primitive calls a function makes into a graph that can be
// printed and replayed on any backend with new inputs of the same shapes.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "ivy/dispatch.hpp"

namespace ivy {

struct Graph {
  struct Node {
    OpId op;
    Attrs attrs;
    std::vector<int> inputs;   // value ids
    std::vector<int> outputs;  // value ids
  };
  // A value's def-use information: the node that produces it (-1 for graph inputs and
  // captured constants) and the nodes that read it, in node order, a node once per input
  // slot that reads it. Kept current by the tracer; passes that edit `nodes` call
  // rebuild_uses() after.
  struct Value {
    Shape shape;
    DType dtype;
    int producer = -1;
    std::vector<int> users;
  };
  std::vector<Value> values;       // every value the graph knows, by id
  std::vector<int> input_ids;      // the traced function's parameters
  std::vector<int> output_ids;     // what it returned
  std::vector<int> constant_ids;   // arrays captured from outside the function
  std::vector<Array> constants;    // their data (same order as constant_ids)
  std::vector<Node> nodes;         // in execution order

  // The value and the node with id `id` (an index into `values` / `nodes`; unchecked, as
  // the graph's ids are checked where a graph comes from outside).
  Value& value(int id) { return values[static_cast<std::size_t>(id)]; }
  const Value& value(int id) const { return values[static_cast<std::size_t>(id)]; }
  Node& node(int id) { return nodes[static_cast<std::size_t>(id)]; }
  const Node& node(int id) const { return nodes[static_cast<std::size_t>(id)]; }
  int producer(int value) const { return values.at(static_cast<std::size_t>(value)).producer; }
  const std::vector<int>& users(int value) const { return values.at(static_cast<std::size_t>(value)).users; }
  // True when the function returns the value (a use outside the nodes).
  bool is_output(int value) const;
  // Recomputes every value's producer and users from `nodes`; throws ValueError when a node
  // reads a value that no earlier node, input or constant defines, or two define one value.
  void rebuild_uses();

  // Human-readable listing, one node per line: "%3 = add(%1, %2) {..} : float32(2, 3)".
  std::string str() const;
  // Replays the graph on `backend` (default: the backend of the inputs / current).
  // Inputs must have the traced shapes and dtypes.
  std::vector<Array> run(const std::vector<Array>& inputs, Backend backend = {}) const;
};
std::ostream& operator<<(std::ostream& os, const Graph& g);

using TracedFn = std::function<std::vector<Array>(const std::vector<Array>&)>;
Graph trace(const TracedFn& fn, const std::vector<Array>& example_inputs);
// Whether a trace is recording on this thread (calls that are not primitives, such as
// ivy::distributed's collectives, refuse to run inside one: a graph would keep their result
// as a constant).
bool tracing_active();
Graph trace(const std::function<Array(const Array&)>& fn, const Array& example_input);
Graph trace(const std::function<Array(const Array&, const Array&)>& fn, const Array& a, const Array& b);

}  // namespace ivy

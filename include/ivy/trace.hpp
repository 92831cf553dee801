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
  struct Value {
    Shape shape;
    DType dtype;
  };
  std::vector<Value> values;       // every value the graph knows, by id
  std::vector<int> input_ids;      // the traced function's parameters
  std::vector<int> output_ids;     // what it returned
  std::vector<int> constant_ids;   // arrays captured from outside the function
  std::vector<Array> constants;    // their data (same order as constant_ids)
  std::vector<Node> nodes;         // in execution order

  // Human-readable listing, one node per line: "%3 = add(%1, %2) {..} : float32(2, 3)".
  std::string str() const;
  // Replays the graph on `backend` (default: the backend of the inputs / current).
  // Inputs must have the traced shapes and dtypes.
  std::vector<Array> run(const std::vector<Array>& inputs, Backend backend = {}) const;
};
std::ostream& operator<<(std::ostream& os, const Graph& g);

using TracedFn = std::function<std::vector<Array>(const std::vector<Array>&)>;
Graph trace(const TracedFn& fn, const std::vector<Array>& example_inputs);
Graph trace(const std::function<Array(const Array&)>& fn, const Array& example_input);
Graph trace(const std::function<Array(const Array&, const Array&)>& fn, const Array& a, const Array& b);

}  // namespace ivy

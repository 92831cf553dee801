// Graph export and import: versioned JSON (exact round trip, constants included) and
// Graphviz DOT.
//
// The JSON schema, version 2 (every field required, no others allowed):
//
//   {"format": "ivy-graph", "version": 2,
//    "values":    [{"shape": [2, 3], "dtype": "float32"}, ...],      value id = index
//    "inputs":    [0, 1],                                           Graph::input_ids
//    "outputs":   [7],                                              Graph::output_ids
//    "constants": [{"value": 2, "data": "<base64>"}, ...],          Graph::constant_ids + data
//    "nodes":     [{"op": "add", "inputs": [0, 2], "outputs": [3], "attrs": {...}}, ...]}
//
// "data" is the base64 (standard alphabet, padded) of the constant's elements, contiguous,
// row-major, little-endian, in the value's dtype (complex: real then imaginary part).
// "attrs" holds every attribute of the primitive's attribute set (ops.def), by name:
//   int    a JSON integer                 bool   true / false
//   ints   an array of integers           dtype  its name ("float32")
//   float  a number, or one of the strings "inf", "-inf", "nan" (the quiet NaN 0x7ff8...),
//          "-nan" (0xfff8...) and "nan:0x<16 hex digits>" (any other NaN, by its bits)
//   scalar an object with one key that keeps the Scalar's kind: {"bool": true}, {"int": -3}
//          (an integer above int64's range is a Scalar made from a uint64), {"float": <float>},
//          {"complex": [<float>, <float>]}
//   opt_*  null when absent, else as above
// Version 1 files are read too: they spelled an optional field x as "has_x" (a boolean) and x.
// Finite doubles are written in the shortest form that reads back to the same bits.
#pragma once

#include <string>
#include <string_view>

#include "ivy/trace.hpp"

namespace ivy {

// The schema version graph_to_json writes; graph_from_json reads it and every earlier one.
inline constexpr int kGraphFormatVersion = 2;

// The graph as JSON text: one top-level field per line indented by `indent` spaces, each
// value, constant and node on a line of its own (indent < 0: all on one line). Throws ValueError "[graph_to_json] ..."
// for a graph that is not well formed (ids out of range, constants that disagree with
// their values, a value defined twice or read before its definition).
std::string graph_to_json(const Graph& g, int indent = 1);

// Reads graph_to_json's text; constants are created on `backend` (default: the current
// one). Validates everything: the JSON, the schema, op and attribute names and types, ids,
// shapes, dtypes, constant data, input and output counts, and that every value is defined
// once before it is read. Every error is a ValueError whose message starts "[load_graph]".
// The graph's producers and users are rebuilt.
Graph graph_from_json(std::string_view text, Backend backend = {});

// graph_to_json written atomically: a temporary file in the target's directory, synced,
// then renamed over the target. Errors: ValueError "[save_graph] ...".
void save_graph(const Graph& g, const std::string& path);
// graph_from_json of a file's contents; a file that cannot be read is a ValueError
// "[load_graph] cannot open ...".
Graph load_graph(const std::string& path, Backend backend = {});

// Graphviz DOT: graph inputs, captured constants (small ones show their elements), one
// node per primitive call labelled with its op and attributes, graph outputs; each edge
// carries the value's id, dtype and shape. Throws ValueError "[graph_to_dot] ..." for a
// graph that is not well formed.
std::string graph_to_dot(const Graph& g);

}  // namespace ivy

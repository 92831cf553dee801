// Well-formedness of a Graph, and the labels of values, nodes and types that messages about
// graphs use (internal to libivy). The graph JSON writer, the reader (on what it assembled)
// and the DOT writer all apply check_graph.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "ivy/trace.hpp"

namespace ivy::graph_io_detail {

// "%<id>", a value's label.
std::string id_str(std::int64_t id);
// "node <n> (<op name>)".
std::string node_str(std::size_t n, OpId op);
// "<dtype><shape>", e.g. "float32(2, 3)".
std::string type_str(DType d, const Shape& s);

// numel * itemsize of a shape with non-negative extents, or -1 when it exceeds int64.
std::int64_t checked_nbytes(const Shape& s, DType d);

// Throws ValueError "[who] <ctx>..." unless: every id is a value of the graph, every value
// has a dtype of ivy's and a shape whose byte count fits int64, constants match their values,
// input and output counts fit each primitive, every value is defined at most once (graph
// input, constant or node output), every node input and graph output is defined, and node
// inputs are defined before the node. Values that nothing defines or reads are allowed (the
// graph passes keep ids when they drop nodes). `with_arrays` false: the constants' arrays
// are not made yet (the reader checks their data itself) and are not checked.
void check_graph(const Graph& g, const char* who, const std::string& ctx = {}, bool with_arrays = true);

// Throws ValueError "[who] <ctx>node <n> (<op>): ..." unless every node, applied
// to its inputs' declared dtypes and shapes, is a valid call of its primitive (dtype kinds,
// attribute set, the primitive's own shape and dtype rules) and makes exactly the declared
// dtypes and shapes of its outputs (a data-dependent extent, nonzero's, is not compared).
// Kernels size and index buffers by the declared types, so a graph that passes check_graph
// but not this one would read or write outside them. `g` must pass check_graph first.
void check_types(const Graph& g, const char* who, const std::string& ctx = {});

}  // namespace ivy::graph_io_detail

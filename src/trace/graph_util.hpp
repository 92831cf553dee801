// Helpers the graph passes and the executor share (internal to libivy).
#pragma once

#include <cstdint>
#include <vector>

#include "ivy/trace.hpp"

namespace ivy::graph_util {

// A vector indexed by graph ids (value or node ids, ints >= 0), or by positions in a list of
// them: what the passes and the executor keep per value or per node.
template <class T>
class ById : public std::vector<T> {
 public:
  using std::vector<T>::vector;
  using std::vector<T>::operator[];
  explicit ById(int n, const T& fill = T()) : std::vector<T>(static_cast<std::size_t>(n), fill) {}
  T& operator[](int id) { return std::vector<T>::operator[](static_cast<std::size_t>(id)); }
  const T& operator[](int id) const { return std::vector<T>::operator[](static_cast<std::size_t>(id)); }
};

// The contiguous row-major bytes of x (through its backend's host copy, not a primitive).
std::vector<unsigned char> host_bytes(const Array& x);
// Element i of a host copy of dtype d, as a double (bool/int/float dtypes; complex: real part).
double element_as_double(const unsigned char* bytes, DType d, std::int64_t i);
// Runs one primitive on `backend` through its meta function and kernel, without notifying
// dispatch observers (compile-time evaluation must not show up in an enclosing trace).
std::vector<Array> call_primitive(OpId op, const std::vector<Array>& in, AttrsRef a, Backend backend);
// Every read of value `from` (node inputs and graph outputs) now reads `to`. Visits only
// from's users, so the users lists must be current; it moves them to `to` (out of node
// order: a pass that edits calls g.rebuild_uses() once when it is done).
void replace_uses(Graph& g, int from, int to);
// Node `node`'s input `slot` now reads `to`, the users lists kept current (out of order).
void rewire_input(Graph& g, int node, std::size_t slot, int to);
// The index of value `id` in g.constants, or -1.
int constant_index(const Graph& g, int id);

}  // namespace ivy::graph_util

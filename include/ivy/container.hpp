// ivy::Container: a nested tree of named arrays (the paper's ivy.Container), the home of a
// Module's variables, an optimizer's state and a checkpoint's contents.
//
// A Container is either a leaf holding one Array, or a node whose children are Containers
// under string keys, kept in insertion order. Paths join keys with '/': "conv1/weight".
// Keys are non-empty and contain no '/'. Copies share the arrays (Array is a handle) but
// not the tree: changing a copy's structure leaves the original as it was.
// The path "" is the container itself (at(""), contains(""), set("", v)); a path with an
// empty component ("a//b", "/a", "a/") is a [container] ValueError in every member.
// Structures compare by paths: two trees with the same keys in another order have the same
// structure, and map2 / arithmetic pair their leaves by path (results in the first's order).
// Empty nodes are kept by map/copies but hold no leaves, so a saved file does not keep them.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ivy/array.hpp"

namespace ivy {

class Container {
 public:
  // An empty node (no children).
  Container();
  // A leaf.
  Container(Array leaf);  // NOLINT(google-explicit-constructor): a leaf converts from its array
  // A node from (path, array) pairs; paths with '/' build the nested nodes, in order.
  static Container from_pairs(const std::vector<std::pair<std::string, Array>>& leaves);
  static Container from_map(const std::map<std::string, Array>& leaves);

  bool is_leaf() const;
  // The leaf's array; [container] error on a node.
  const Array& array() const;
  // Direct children's keys in insertion order (empty for a leaf).
  std::vector<std::string> keys() const;
  // Direct children as (key, subtree) in insertion order (empty for a leaf).
  const std::vector<std::pair<std::string, Container>>& children() const { return children_; }
  // Number of leaves below (1 for a leaf).
  std::int64_t num_leaves() const;
  bool empty() const;  // a node without children

  // The subtree at a path ("a/b"); [container] error naming the path when absent.
  const Container& at(const std::string& path) const;
  Container& at(const std::string& path);
  bool contains(const std::string& path) const;
  // A child by key, created as an empty node when absent; [container] error on a leaf.
  Container& operator[](const std::string& key);
  // Sets the subtree at a path (creating intermediate nodes); replaces what was there.
  void set(const std::string& path, Container value);
  // Removes the subtree at a path; false if it was absent.
  bool erase(const std::string& path);

  // Every leaf with its full path, depth first, in insertion order.
  std::vector<std::pair<std::string, Array>> flatten() const;
  std::map<std::string, Array> to_map() const;
  static Container unflatten(const std::vector<std::pair<std::string, Array>>& leaves) { return from_pairs(leaves); }

  // A tree of the same structure with fn applied to every leaf.
  Container map(const std::function<Array(const Array&)>& fn) const;
  Container map_with_paths(const std::function<Array(const std::string& path, const Array&)>& fn) const;
  // fn over corresponding leaves of two trees of the same structure (same paths); otherwise
  // a [container] error naming the first path that differs.
  static Container map2(const Container& a, const Container& b,
                        const std::function<Array(const Array&, const Array&)>& fn);
  bool same_structure(const Container& other) const;

  // Leafwise arithmetic with another container of the same structure or a scalar.
  friend Container operator+(const Container& a, const Container& b);
  friend Container operator-(const Container& a, const Container& b);
  friend Container operator*(const Container& a, const Container& b);
  friend Container operator/(const Container& a, const Container& b);
  friend Container operator+(const Container& a, Scalar s);
  friend Container operator-(const Container& a, Scalar s);
  friend Container operator*(const Container& a, Scalar s);
  friend Container operator/(const Container& a, Scalar s);
  friend Container operator*(Scalar s, const Container& a);
  friend Container operator-(const Container& a);

  // Leafwise reductions over every axis: a tree of 0-d arrays.
  Container sum() const;
  Container mean() const;
  // The sum over every leaf of sum(leaf^2) (a 0-d array; the global L2 norm squared).
  Array global_sum_of_squares() const;

  // Every leaf on another backend (a copy; device unchanged).
  Container to_backend(Backend b) const;

  // A readable tree: one line per node and leaf, leaves with shape and dtype.
  std::string str() const;

  // safetensors (its published layout: 8-byte little-endian header length, a JSON header
  // mapping each path to {dtype, shape, data_offsets}, then raw little-endian data). save
  // writes a temporary file in the same directory, fsyncs it and renames it over path;
  // load validates the whole file before building anything: every problem is a [load]
  // error naming the file, never a crash or a partial container. metadata goes to
  // "__metadata__" (string values).
  void save(const std::string& path, const std::map<std::string, std::string>& metadata = {}) const;
  static Container load(const std::string& path, Backend backend = {},
                        std::map<std::string, std::string>* metadata = nullptr);
  // load of a safetensors file already in memory; name stands for the file in errors.
  static Container load_from_bytes(std::string_view bytes, Backend backend = {},
                                   std::map<std::string, std::string>* metadata = nullptr,
                                   const std::string& name = "<bytes>");

 private:
  friend struct ContainerAccess;       // src/nn/container.cpp's builders
  std::shared_ptr<const Array> leaf_;  // set for a leaf
  std::vector<std::pair<std::string, Container>> children_;
};

// Writes c.str().
std::ostream& operator<<(std::ostream& os, const Container& c);

}  // namespace ivy

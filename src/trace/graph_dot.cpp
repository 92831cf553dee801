// Graph -> Graphviz DOT (include/ivy/graph_io.hpp): inputs, constants (small ones with
// their elements), one node per primitive call, outputs, and an edge per value read.
#include "ivy/graph_io.hpp"
#include "trace/graph_check.hpp"
#include "trace/graph_io_codec.hpp"
#include "trace/graph_util.hpp"

#include <bit>
#include <cmath>
#include <cstring>
#include <sstream>
#include <vector>

namespace ivy {

// the encodings and the well-formedness check shared with graph_io.cpp
using namespace graph_io_detail;

namespace {

// A string for a double-quoted DOT label: quotes and backslashes escaped, newlines as DOT's
// centered line break, other control characters dropped.
std::string dot_escape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out.push_back('\\');
      out.push_back(c);
    } else if (c == '\n') {
      out.append("\\n");
    } else if (static_cast<unsigned char>(c) >= 0x20) {
      out.push_back(c);
    }
  }
  return out;
}

// The elements of a constant (host bytes in host order), as "[1, 2.5, nan]".
std::string elements_str(const std::vector<unsigned char>& bytes, DType d, std::int64_t n) {
  std::ostringstream os;
  os << "[";
  const unsigned char* p = bytes.data();
  auto read = [&](auto tag, std::int64_t i) {
    decltype(tag) v;
    std::memcpy(&v, p + static_cast<std::size_t>(i) * sizeof v, sizeof v);
    return v;
  };
  for (std::int64_t i = 0; i < n; ++i) {
    if (i) os << ", ";
    switch (d) {
      case DType::bool_: os << (read(std::uint8_t{}, i) ? "true" : "false"); break;
      case DType::int8: os << static_cast<int>(read(std::int8_t{}, i)); break;
      case DType::int16: os << read(std::int16_t{}, i); break;
      case DType::int32: os << read(std::int32_t{}, i); break;
      case DType::int64: os << read(std::int64_t{}, i); break;
      case DType::uint8: os << static_cast<unsigned>(read(std::uint8_t{}, i)); break;
      case DType::uint16: os << read(std::uint16_t{}, i); break;
      case DType::uint32: os << read(std::uint32_t{}, i); break;
      case DType::uint64: os << read(std::uint64_t{}, i); break;
      case DType::float16: os << half_to_float(read(std::uint16_t{}, i)); break;
      case DType::bfloat16:
        os << std::bit_cast<float>(static_cast<std::uint32_t>(read(std::uint16_t{}, i)) << 16);
        break;
      case DType::float32: os << read(float{}, i); break;
      case DType::float64: os << read(double{}, i); break;
      case DType::complex64: {
        const float re = read(float{}, 2 * i), im = read(float{}, 2 * i + 1);
        os << re << (std::signbit(im) ? "" : "+") << im << "j";
        break;
      }
      case DType::complex128: {
        const double re = read(double{}, 2 * i), im = read(double{}, 2 * i + 1);
        os << re << (std::signbit(im) ? "" : "+") << im << "j";
        break;
      }
    }
  }
  os << "]";
  return os.str();
}

// Constants with at most this many elements show them in their DOT label.
constexpr std::int64_t kDotMaxShownElements = 8;

}  // namespace

std::string graph_to_dot(const Graph& g) {
  check_graph(g, "graph_to_dot");
  std::ostringstream os;
  // the DOT node that defines each value: its producing node, else the input or constant
  graph_util::ById<std::string> def(g.values.size());
  auto name = [](char kind, std::size_t k) {
    std::string s(1, kind);
    s += std::to_string(k);
    return s;
  };
  for (int id : g.input_ids) def[id] = name('v', static_cast<std::size_t>(id));
  for (int id : g.constant_ids) def[id] = name('v', static_cast<std::size_t>(id));
  for (std::size_t n = 0; n < g.nodes.size(); ++n)
    for (int id : g.nodes[n].outputs) def[id] = name('n', n);
  auto value_label = [&](int v) {
    const Graph::Value& val = g.value(v);
    return dot_escape(id_str(v) + " " + type_str(val.dtype, val.shape));
  };

  os << "digraph ivy_graph {\n";
  os << "  node [fontname=\"Helvetica\", fontsize=10];\n";
  os << "  edge [fontname=\"Helvetica\", fontsize=9];\n";
  for (std::size_t i = 0; i < g.input_ids.size(); ++i) {
    const int v = g.input_ids[i];
    os << "  v" << v << " [shape=ellipse, style=filled, fillcolor=\"#d6e6ff\", label=\""
       << dot_escape("input " + std::to_string(i) + "\n") << value_label(v) << "\"];\n";
  }
  for (std::size_t i = 0; i < g.constant_ids.size(); ++i) {
    const int v = g.constant_ids[i];
    const Array& x = g.constants[i];
    std::string label = "constant\n" + id_str(v) + " " + type_str(x.dtype(), x.shape());
    if (x.size() <= kDotMaxShownElements) {
      std::vector<unsigned char> bytes(static_cast<std::size_t>(x.size()) * itemsize(x.dtype()));
      if (!bytes.empty()) x.impl()->backend->to_host(x, bytes.data());
      label += "\n= " + elements_str(bytes, x.dtype(), x.size());
    }
    os << "  v" << v << " [shape=box, style=\"rounded,filled\", fillcolor=\"#eeeeee\", label=\"" << dot_escape(label)
       << "\"];\n";
  }
  for (std::size_t n = 0; n < g.nodes.size(); ++n) {
    const Graph::Node& node = g.nodes[n];
    std::string label = op_info(node.op).name;
    const std::string at = attrs_str(node.op, node.attrs);
    if (!at.empty()) label += "\n" + at;
    os << "  n" << n << " [shape=box, label=\"" << dot_escape(label) << "\"];\n";
  }
  for (std::size_t i = 0; i < g.output_ids.size(); ++i)
    os << "  out" << i << " [shape=doubleoctagon, style=filled, fillcolor=\"#d8f5d0\", label=\"output " << i
       << "\"];\n";
  for (std::size_t n = 0; n < g.nodes.size(); ++n)
    for (int v : g.nodes[n].inputs)
      os << "  " << def[v] << " -> n" << n << " [label=\"" << value_label(v) << "\"];\n";
  for (std::size_t i = 0; i < g.output_ids.size(); ++i) {
    const int v = g.output_ids[i];
    os << "  " << def[v] << " -> out" << i << " [label=\"" << value_label(v) << "\"];\n";
  }
  os << "}\n";
  return os.str();
}

}  // namespace ivy

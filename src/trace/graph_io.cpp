// Graph <-> JSON and Graph -> DOT (the schema: include/ivy/graph_io.hpp).
//
// Reading never trusts the text: every field is type-checked before it is read, ids are
// range-checked before they index anything, and the assembled graph goes through the same
// well-formedness check the writers apply (check_graph) before any array is created.
#include "ivy/graph_io.hpp"
#include "core/atomic_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <sstream>

namespace ivy {

namespace {

using ojson = nlohmann::ordered_json;

constexpr const char* kFormatName = "ivy-graph";
// JSON nesting deeper than this is rejected before parsing (a valid file nests 6 deep:
// root, nodes, node, attrs, scalar, complex pair).
constexpr int kMaxDepth = 32;

std::string id_str(std::int64_t id) { return "%" + std::to_string(id); }
std::string node_str(std::size_t n, OpId op) {
  return "node " + std::to_string(n) + " (" + op_info(op).name + ")";
}
std::string type_str(DType d, const Shape& s) { return std::string(dtype_name(d)) + s.str(); }

// ---------------------------------------------------------------- byte order, base64

// Host byte order <-> little endian, each scalar component of an element in place (complex
// elements are two components). Nothing to do on a little-endian host.
void to_from_little_endian(unsigned char* p, std::size_t nbytes, DType d) {
  if constexpr (std::endian::native == std::endian::little) {
    (void)p, (void)nbytes, (void)d;
  } else {
    std::size_t w = is_complex(d) ? itemsize(d) / 2 : itemsize(d);
    for (std::size_t i = 0; i + w <= nbytes; i += w) std::reverse(p + i, p + i + w);
  }
}

constexpr char kB64Alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
// Alphabet character -> its 6-bit value; -1 for every other byte.
constexpr std::array<std::int8_t, 256> kB64Value = [] {
  std::array<std::int8_t, 256> t{};
  for (auto& v : t) v = -1;
  for (int i = 0; i < 64; ++i) t[static_cast<unsigned char>(kB64Alphabet[i])] = static_cast<std::int8_t>(i);
  return t;
}();

// Standard base64 with '=' padding to a multiple of 4 characters.
std::string base64_encode(const unsigned char* p, std::size_t n) {
  std::string out;
  out.reserve((n + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 3 <= n; i += 3) {
    const std::uint32_t v = (std::uint32_t{p[i]} << 16) | (std::uint32_t{p[i + 1]} << 8) | p[i + 2];
    for (int s = 18; s >= 0; s -= 6) out.push_back(kB64Alphabet[(v >> s) & 63]);
  }
  if (n - i == 1) {
    const std::uint32_t v = std::uint32_t{p[i]} << 16;
    out.push_back(kB64Alphabet[(v >> 18) & 63]);
    out.push_back(kB64Alphabet[(v >> 12) & 63]);
    out.append("==");
  } else if (n - i == 2) {
    const std::uint32_t v = (std::uint32_t{p[i]} << 16) | (std::uint32_t{p[i + 1]} << 8);
    out.push_back(kB64Alphabet[(v >> 18) & 63]);
    out.push_back(kB64Alphabet[(v >> 12) & 63]);
    out.push_back(kB64Alphabet[(v >> 6) & 63]);
    out.push_back('=');
  }
  return out;
}

// The inverse of base64_encode, strict: only its output is accepted (length a multiple of
// 4, alphabet characters, '=' only as the last one or two, unused bits of the last group
// zero). Returns an empty string on success, else what is wrong.
std::string base64_decode(std::string_view s, std::vector<unsigned char>& out) {
  out.clear();
  if (s.size() % 4 != 0) return "its length " + std::to_string(s.size()) + " is not a multiple of 4";
  std::size_t pad = 0;
  if (!s.empty() && s.back() == '=') pad = s.size() >= 2 && s[s.size() - 2] == '=' ? 2 : 1;
  out.reserve(s.size() / 4 * 3);
  for (std::size_t i = 0; i < s.size(); i += 4) {
    const bool last = i + 4 == s.size();
    std::uint32_t v = 0;
    for (std::size_t k = 0; k < 4; ++k) {
      const unsigned char ch = static_cast<unsigned char>(s[i + k]);
      if (last && k >= 4 - pad) continue;  // a padding character, checked above
      const int x = kB64Value[ch];
      if (x < 0) {
        std::ostringstream why;
        why << "character " << (i + k) << " (code " << static_cast<int>(ch) << ") is not base64";
        return why.str();
      }
      v |= static_cast<std::uint32_t>(x) << (18 - 6 * k);
    }
    const std::size_t bytes = last ? 3 - pad : 3;
    if (last && (v & ((1u << (8 * (3 - bytes))) - 1)) != 0) return "the padding bits of its last group are not zero";
    for (std::size_t k = 0; k < bytes; ++k) out.push_back(static_cast<unsigned char>((v >> (16 - 8 * k)) & 0xFF));
  }
  return {};
}

// ---------------------------------------------------------------- doubles and scalars

constexpr std::uint64_t kQuietNaN = 0x7ff8000000000000ULL;
constexpr std::uint64_t kNegQuietNaN = 0xfff8000000000000ULL;

// A double as JSON: finite values as numbers (the writer emits the shortest text that reads
// back to the same bits; -0.0 keeps its sign), the others as strings (the schema's list).
ojson double_to_json(double v) {
  if (std::isfinite(v)) return ojson(v);
  if (std::isinf(v)) return ojson(v > 0 ? "inf" : "-inf");
  const auto bits = std::bit_cast<std::uint64_t>(v);
  if (bits == kQuietNaN) return ojson("nan");
  if (bits == kNegQuietNaN) return ojson("-nan");
  char buf[32];
  std::snprintf(buf, sizeof buf, "nan:0x%016llx", static_cast<unsigned long long>(bits));
  return ojson(buf);
}

// double_to_json's inverse (a JSON integer is read as the double nearest to it). Returns
// false when `j` is none of the forms the schema allows.
bool json_to_double(const ojson& j, double& out) {
  if (j.is_number_float()) {
    out = j.get<double>();
    return std::isfinite(out);
  }
  if (j.is_number_unsigned()) {
    out = static_cast<double>(j.get<std::uint64_t>());
    return true;
  }
  if (j.is_number_integer()) {
    out = static_cast<double>(j.get<std::int64_t>());
    return true;
  }
  if (!j.is_string()) return false;
  const std::string& s = j.get_ref<const std::string&>();
  if (s == "inf" || s == "-inf") {
    out = s == "inf" ? std::numeric_limits<double>::infinity() : -std::numeric_limits<double>::infinity();
    return true;
  }
  if (s == "nan" || s == "-nan") {
    out = std::bit_cast<double>(s == "nan" ? kQuietNaN : kNegQuietNaN);
    return true;
  }
  // "nan:0x" and exactly 16 hex digits whose bits are a NaN
  if (s.size() != 22 || s.compare(0, 6, "nan:0x") != 0) return false;
  std::uint64_t bits = 0;
  for (std::size_t i = 6; i < s.size(); ++i) {
    const char c = s[i];
    int x = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
    if (x < 0) return false;
    bits = (bits << 4) | static_cast<std::uint64_t>(x);
  }
  out = std::bit_cast<double>(bits);
  return std::isnan(out);
}

// The int64 that Scalar's constructors store for a floating value. For values outside int64
// (NaN, infinities, |v| >= 2^63) that conversion is undefined in C++ and yields INT64_MIN on
// x86-64; this gives INT64_MIN without performing it.
std::int64_t scalar_int_of(double v) {
  if (v >= -9223372036854775808.0 && v < 9223372036854775808.0) return static_cast<std::int64_t>(v);
  return std::numeric_limits<std::int64_t>::min();
}

// A Scalar as its constructors make one from a double or a complex<double>, all fields set.
Scalar float_scalar(double v) {
  Scalar s;
  s.kind = Scalar::Float;
  s.b = v != 0;
  s.i = scalar_int_of(v);
  s.d = v;
  s.c = v;
  return s;
}
Scalar complex_scalar(std::complex<double> v) {
  Scalar s;
  s.kind = Scalar::Complex;
  s.b = v != std::complex<double>{};
  s.i = scalar_int_of(v.real());
  s.d = v.real();
  s.c = v;
  return s;
}

// A Scalar keeps its kind. An Int scalar made from a uint64 above int64's range holds the
// bits in `i` (negative) and the value in `d` (positive): it is written as that unsigned value.
ojson scalar_to_json(const Scalar& s) {
  ojson o = ojson::object();
  switch (s.kind) {
    case Scalar::Bool: o["bool"] = s.b; break;
    case Scalar::Int:
      if (s.i < 0 && !(s.d < 0))
        o["int"] = static_cast<std::uint64_t>(s.i);
      else
        o["int"] = s.i;
      break;
    case Scalar::Float: o["float"] = double_to_json(s.d); break;
    case Scalar::Complex: o["complex"] = ojson::array({double_to_json(s.c.real()), double_to_json(s.c.imag())}); break;
  }
  return o;
}

// A JSON integer that fits int64.
bool json_to_int64(const ojson& j, std::int64_t& out) {
  if (j.is_number_unsigned()) {
    const auto u = j.get<std::uint64_t>();
    if (u > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) return false;
    out = static_cast<std::int64_t>(u);
    return true;
  }
  if (j.is_number_integer()) {
    out = j.get<std::int64_t>();
    return true;
  }
  return false;
}

// What a JSON value is, for messages: "a string", "an integer", "a float", ...
std::string kind_of(const ojson& j) {
  if (j.is_number_integer()) return "an integer";
  if (j.is_number_float()) return "a float";
  if (j.is_string()) return "a string";
  if (j.is_boolean()) return "a boolean";
  if (j.is_null()) return "null";
  if (j.is_array()) return "an array";
  if (j.is_object()) return "an object";
  return "a " + std::string(j.type_name());
}
// A JSON value's text, shortened for a message.
std::string brief(const ojson& j) {
  std::string s = j.dump(-1, ' ', false, ojson::error_handler_t::replace);
  if (s.size() > 48) s = s.substr(0, 45) + "...";
  return s;
}

bool dtype_named(std::string_view name, DType& out) {
  for (DType d : all_dtypes())
    if (name == dtype_name(d)) {
      out = d;
      return true;
    }
  return false;
}
bool op_named(std::string_view name, OpId& out) {
  for (int i = 0; i < kNumOps; ++i)
    if (name == op_info(static_cast<OpId>(i)).name) {
      out = static_cast<OpId>(i);
      return true;
    }
  return false;
}

// numel * itemsize of a shape with non-negative extents, or -1 when it exceeds int64.
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

// ---------------------------------------------------------------- well-formedness

// Throws ValueError "[who] <ctx>..." unless: every id is a value of the graph, every value
// has a dtype of ivy's and a shape whose byte count fits int64, constants match their values,
// input and output counts fit each primitive, every value is defined at most once (graph
// input, constant or node output), every node input and graph output is defined, and node
// inputs are defined before the node. Values that nothing defines or reads are allowed (the
// graph passes keep ids when they drop nodes). `with_arrays` false: the constants' arrays
// are not made yet (the reader checks their data itself) and are not checked.
void check_graph(const Graph& g, const char* who, const std::string& ctx = {}, bool with_arrays = true) {
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
  std::vector<std::string> defined_by(nv);
  auto define = [&](int id, const std::string& where) {
    std::string& d = defined_by[static_cast<std::size_t>(id)];
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
    const Graph::Value& val = g.values[static_cast<std::size_t>(id)];
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
      if (defined_by[static_cast<std::size_t>(id)].empty())
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
    if (defined_by[static_cast<std::size_t>(id)].empty()) fail(where + ": " + id_str(id) + " is never defined");
  }
}

// ---------------------------------------------------------------- writing

ojson attrs_to_json(OpId op, const Attrs& a) {
  ojson o = ojson::object();
  const AttrField* f = op_info(op).attrs;
  for (int i = 0; f && f[i].name; ++i) {
    ojson& v = o[f[i].name];
    switch (f[i].type) {
      case AttrType::Int: v = attr_value<AttrType::Int>(a, f, i); break;
      case AttrType::Bool: v = attr_value<AttrType::Bool>(a, f, i); break;
      case AttrType::Float: v = double_to_json(attr_value<AttrType::Float>(a, f, i)); break;
      case AttrType::Scalar: v = scalar_to_json(attr_value<AttrType::Scalar>(a, f, i)); break;
      case AttrType::Ints: {
        v = ojson::array();
        for (std::int64_t e : attr_value<AttrType::Ints>(a, f, i)) v.push_back(e);
        break;
      }
      case AttrType::DType: {
        const DType d = attr_value<AttrType::DType>(a, f, i);
        if (static_cast<int>(d) >= kNumDTypes)
          throw ValueError(std::string("[graph_to_json] attribute '") + f[i].name + "' of " + op_info(op).name +
                           " has no valid dtype");
        v = dtype_name(d);
        break;
      }
    }
  }
  return o;
}

// The contiguous little-endian bytes of x.
std::vector<unsigned char> host_bytes(const Array& x) {
  std::vector<unsigned char> out(static_cast<std::size_t>(x.size()) * itemsize(x.dtype()));
  if (!out.empty()) {
    x.impl()->backend->to_host(x, out.data());
    to_from_little_endian(out.data(), out.size(), x.dtype());
  }
  return out;
}

// indent < 0: the whole document on one line. Else one top-level field per line, indented
// by `indent` spaces, and each entry of values, constants and nodes on a line of its own.
std::string layout(const ojson& root, int indent) {
  if (indent < 0) return root.dump();
  const std::string pad1(static_cast<std::size_t>(indent), ' '), pad2(2 * static_cast<std::size_t>(indent), ' ');
  std::string out = "{\n";
  for (auto it = root.begin(); it != root.end(); ++it) {
    if (it != root.begin()) out += ",\n";
    out += pad1 + ojson(it.key()).dump() + ": ";
    const ojson& v = it.value();
    if (v.is_array() && !v.empty() && v[0].is_object()) {
      out += "[\n";
      for (std::size_t i = 0; i < v.size(); ++i) out += pad2 + v[i].dump() + (i + 1 < v.size() ? ",\n" : "\n");
      out += pad1 + "]";
    } else {
      out += v.dump();
    }
  }
  return out + "\n}";
}

std::string to_json_text(const Graph& g, int indent, const char* who) {
  check_graph(g, who);
  ojson root = ojson::object();
  root["format"] = kFormatName;
  root["version"] = kGraphFormatVersion;
  ojson& values = root["values"] = ojson::array();
  for (const Graph::Value& v : g.values) {
    ojson e = ojson::object();
    e["shape"] = ojson::array();
    for (std::int64_t d : v.shape) e["shape"].push_back(d);
    e["dtype"] = dtype_name(v.dtype);
    values.push_back(std::move(e));
  }
  root["inputs"] = g.input_ids;
  root["outputs"] = g.output_ids;
  ojson& constants = root["constants"] = ojson::array();
  for (std::size_t i = 0; i < g.constant_ids.size(); ++i) {
    const std::vector<unsigned char> bytes = host_bytes(g.constants[i]);
    ojson e = ojson::object();
    e["value"] = g.constant_ids[i];
    e["data"] = base64_encode(bytes.data(), bytes.size());
    constants.push_back(std::move(e));
  }
  ojson& nodes = root["nodes"] = ojson::array();
  for (const Graph::Node& n : g.nodes) {
    ojson e = ojson::object();
    e["op"] = op_info(n.op).name;
    e["inputs"] = n.inputs;
    e["outputs"] = n.outputs;
    e["attrs"] = attrs_to_json(n.op, n.attrs);
    nodes.push_back(std::move(e));
  }
  return layout(root, indent);
}

// ---------------------------------------------------------------- reading

// Parses a whole file or text; `ctx` ("" or "<path>: ") follows "[load_graph] " in messages.
class Reader {
 public:
  Reader(std::string_view text, Backend backend, std::string ctx)
      : text_(text), backend_(backend ? backend : current_backend()), ctx_(std::move(ctx)) {}

  Graph read() {
    parse();
    if (!root_.is_object()) fail("the document is " + kind_of(root_) + ", not an object");
    static const char* const kKeys[] = {"format", "version", "values", "inputs", "outputs", "constants", "nodes"};
    check_keys(root_, kKeys, "the document");
    const ojson& format = root_.at("format");
    if (!format.is_string() || format.get_ref<const std::string&>() != kFormatName)
      fail("format is " + brief(format) + ", not \"" + kFormatName + "\"");
    std::int64_t version = 0;
    if (!json_to_int64(root_.at("version"), version))
      fail("version is " + kind_of(root_.at("version")) + ", not an integer");
    if (version != kGraphFormatVersion)
      fail("version " + std::to_string(version) + " is not supported (this build reads version " +
           std::to_string(kGraphFormatVersion) + ")");

    read_values();
    g_.input_ids = read_ids(root_.at("inputs"), "inputs", "input");
    g_.output_ids = read_ids(root_.at("outputs"), "outputs", "output");
    read_constants();
    read_nodes();
    check_graph(g_, "load_graph", ctx_, /*with_arrays=*/false);
    make_constants();
    try {
      g_.rebuild_uses();
    } catch (const ValueError& e) {
      fail(e.what());
    }
    return std::move(g_);
  }

 private:
  [[noreturn]] void fail(const std::string& what) const { throw ValueError("[load_graph] " + ctx_ + what); }

  // Rejects nesting deeper than kMaxDepth (strings and their escapes are skipped, so
  // brackets inside strings do not count), then parses, rejecting a key repeated in an object.
  void parse() {
    int depth = 0;
    bool in_string = false, escaped = false;
    for (char ch : text_) {
      if (in_string) {
        if (escaped)
          escaped = false;
        else if (ch == '\\')
          escaped = true;
        else if (ch == '"')
          in_string = false;
        continue;
      }
      if (ch == '"') {
        in_string = true;
      } else if (ch == '{' || ch == '[') {
        if (++depth > kMaxDepth) fail("the JSON nests deeper than " + std::to_string(kMaxDepth) + " levels");
      } else if (ch == '}' || ch == ']') {
        --depth;
      }
    }
    std::vector<std::set<std::string>> seen;
    std::string duplicate;
    auto cb = [&](int, ojson::parse_event_t ev, ojson& parsed) {
      if (ev == ojson::parse_event_t::object_start) {
        seen.emplace_back();
      } else if (ev == ojson::parse_event_t::object_end) {
        if (!seen.empty()) seen.pop_back();
      } else if (ev == ojson::parse_event_t::key && !seen.empty()) {
        const std::string& k = parsed.get_ref<const std::string&>();
        if (!seen.back().insert(k).second && duplicate.empty()) duplicate = k;
      }
      return true;
    };
    try {
      root_ = ojson::parse(text_.begin(), text_.end(), cb);
    } catch (const nlohmann::json::exception& e) {
      fail(std::string("not valid JSON: ") + e.what());
    }
    if (!duplicate.empty()) fail("the key '" + duplicate + "' appears twice in one object");
  }

  // `o` (an object) has exactly the keys `keys`.
  template <std::size_t N>
  void check_keys(const ojson& o, const char* const (&keys)[N], const std::string& where) const {
    for (auto it = o.begin(); it != o.end(); ++it)
      if (std::find_if(std::begin(keys), std::end(keys), [&](const char* k) { return it.key() == k; }) ==
          std::end(keys)) {
        std::string allowed;
        for (const char* k : keys) allowed += (allowed.empty() ? "" : ", ") + std::string(k);
        fail(where + ": unexpected field '" + it.key() + "' (allowed: " + allowed + ")");
      }
    for (const char* k : keys)
      if (!o.contains(k)) fail(where + ": missing field '" + k + "'");
  }

  const ojson& array_at(const ojson& o, const char* key, const std::string& where) const {
    const ojson& a = o.at(key);
    if (!a.is_array()) fail(where + key + " is " + kind_of(a) + ", not an array");
    return a;
  }

  // A value id: an integer in [0, values). `what` names the list ("node 3 (add): input"),
  // `index` the position in it (kNoIndex: a single id, not in a list).
  static constexpr std::size_t kNoIndex = static_cast<std::size_t>(-1);
  int read_id(const ojson& j, const std::string& what, std::size_t index) const {
    std::int64_t id = 0;
    if (!json_to_int64(j, id))
      fail(what + (index == kNoIndex ? std::string() : " " + std::to_string(index)) + " is " + kind_of(j) + " (" + brief(j) + "), not a value id");
    if (id < 0 || static_cast<std::uint64_t>(id) >= g_.values.size())
      fail(what + " " + id_str(id) + " is not a value of the graph");
    return static_cast<int>(id);
  }
  std::vector<int> read_ids(const ojson& a, const std::string& where, const std::string& what) const {
    if (!a.is_array()) fail(where + " is " + kind_of(a) + ", not an array of value ids");
    std::vector<int> ids;
    ids.reserve(a.size());
    for (std::size_t i = 0; i < a.size(); ++i) ids.push_back(read_id(a[i], what, i));
    return ids;
  }

  DType read_dtype(const ojson& j, const std::string& where) const {
    if (!j.is_string()) fail(where + " is " + kind_of(j) + ", not a dtype name");
    DType d{};
    if (!dtype_named(j.get_ref<const std::string&>(), d)) fail(where + " '" + j.get<std::string>() + "' is not a dtype");
    return d;
  }

  // A list of at most kMaxRank int64 (shapes, attribute lists).
  Dims read_ints(const ojson& j, const std::string& where) const {
    if (!j.is_array()) fail(where + " is " + kind_of(j) + ", not an array of integers");
    if (j.size() > static_cast<std::size_t>(kMaxRank))
      fail(where + " has " + std::to_string(j.size()) + " entries, more than ivy's maximum " +
           std::to_string(kMaxRank));
    Dims out;
    for (std::size_t i = 0; i < j.size(); ++i) {
      std::int64_t v = 0;
      if (!json_to_int64(j[i], v))
        fail(where + " entry " + std::to_string(i) + " is " + kind_of(j[i]) + " (" + brief(j[i]) +
             "), not an int64 integer");
      out.push_back(v);
    }
    return out;
  }

  void read_values() {
    const ojson& a = array_at(root_, "values", "");
    if (a.size() > static_cast<std::size_t>(std::numeric_limits<int>::max())) fail("too many values");
    g_.values.reserve(a.size());
    static const char* const kKeys[] = {"shape", "dtype"};
    for (std::size_t v = 0; v < a.size(); ++v) {
      const std::string where = "value " + id_str(static_cast<std::int64_t>(v));
      const ojson& e = a[v];
      if (!e.is_object()) fail(where + " is " + kind_of(e) + ", not an object");
      check_keys(e, kKeys, where);
      Graph::Value val;
      val.dtype = read_dtype(e.at("dtype"), where + ": dtype");
      val.shape = read_ints(e.at("shape"), where + ": shape");
      for (std::int64_t x : val.shape)
        if (x < 0) fail(where + ": shape " + val.shape.str() + " has a negative extent");
      if (checked_nbytes(val.shape, val.dtype) < 0)
        fail(where + ": shape " + val.shape.str() + " has too many bytes");
      g_.values.push_back(std::move(val));
    }
  }

  void read_constants() {
    const ojson& a = array_at(root_, "constants", "");
    static const char* const kKeys[] = {"value", "data"};
    for (std::size_t i = 0; i < a.size(); ++i) {
      std::string where = "constant " + std::to_string(i);
      const ojson& e = a[i];
      if (!e.is_object()) fail(where + " is " + kind_of(e) + ", not an object");
      check_keys(e, kKeys, where);
      const int id = read_id(e.at("value"), where + ": value", kNoIndex);
      where += " (" + id_str(id) + ")";
      const ojson& data = e.at("data");
      if (!data.is_string()) fail(where + ": data is " + kind_of(data) + ", not a base64 string");
      std::vector<unsigned char> bytes;
      const std::string why = base64_decode(data.get_ref<const std::string&>(), bytes);
      if (!why.empty()) fail(where + ": data is not valid base64: " + why);
      const Graph::Value& val = g_.values[static_cast<std::size_t>(id)];
      const std::int64_t want = checked_nbytes(val.shape, val.dtype);
      if (static_cast<std::int64_t>(bytes.size()) != want)
        fail(where + ": data has " + std::to_string(bytes.size()) + " bytes but " + type_str(val.dtype, val.shape) +
             " needs " + std::to_string(want));
      if (val.dtype == DType::bool_)
        for (std::size_t k = 0; k < bytes.size(); ++k)
          if (bytes[k] > 1)
            fail(where + ": bool element " + std::to_string(k) + " is the byte " + std::to_string(bytes[k]) +
                 "; booleans are 0 or 1");
      g_.constant_ids.push_back(id);
      bytes_.push_back(std::move(bytes));
    }
  }

  // Every field of the op's attribute set, by name, with its type.
  Attrs read_attrs(OpId op, const ojson& o, const std::string& where) const {
    const OpInfo& info = op_info(op);
    const AttrField* f = info.attrs;
    if (!o.is_object()) fail(where + ": attrs is " + kind_of(o) + ", not an object");
    auto field_list = [&] {
      std::string s;
      for (int i = 0; f && f[i].name; ++i) s += (i ? ", " : "") + std::string(f[i].name);
      return s.empty() ? std::string("none") : s;
    };
    for (auto it = o.begin(); it != o.end(); ++it) {
      bool known = false;
      for (int i = 0; f && f[i].name && !known; ++i) known = it.key() == f[i].name;
      if (!known)
        fail(where + ": unknown attribute '" + it.key() + "' (the " + info.attr_set + " set has: " + field_list() + ")");
    }
    Attrs a;
    for (int i = 0; f && f[i].name; ++i) {
      const std::string at = where + ": attribute '" + f[i].name + "'";
      if (!o.contains(f[i].name)) fail(where + ": missing attribute '" + f[i].name + "'");
      const ojson& v = o.at(f[i].name);
      auto wrong = [&](const char* want) {
        fail(at + " is " + kind_of(v) + " (" + brief(v) + "), not " + want);
      };
      switch (f[i].type) {
        case AttrType::Int: {
          std::int64_t x = 0;
          if (!json_to_int64(v, x)) wrong("an int64 integer");
          attr_value<AttrType::Int>(a, f, i) = x;
          break;
        }
        case AttrType::Bool:
          if (!v.is_boolean()) wrong("a boolean");
          attr_value<AttrType::Bool>(a, f, i) = v.get<bool>();
          break;
        case AttrType::Float: {
          double x = 0;
          if (!json_to_double(v, x)) wrong("a float (a number, \"inf\", \"-inf\", \"nan\", \"-nan\" or \"nan:0x...\")");
          attr_value<AttrType::Float>(a, f, i) = x;
          break;
        }
        case AttrType::Scalar: attr_value<AttrType::Scalar>(a, f, i) = read_scalar(v, at); break;
        case AttrType::Ints: attr_value<AttrType::Ints>(a, f, i) = read_ints(v, at); break;
        case AttrType::DType: attr_value<AttrType::DType>(a, f, i) = read_dtype(v, at); break;
      }
    }
    return a;
  }

  Scalar read_scalar(const ojson& v, const std::string& at) const {
    if (!v.is_object() || v.size() != 1)
      fail(at + " is " + brief(v) +
           ", not a scalar (an object with one of the keys bool, int, float, complex)");
    const std::string& kind = v.begin().key();
    const ojson& x = v.begin().value();
    const char* want = nullptr;
    if (kind == "bool") {
      if (x.is_boolean()) return Scalar(x.get<bool>());
      want = "a boolean";
    } else if (kind == "int") {
      if (x.is_number_unsigned()) return Scalar(x.get<std::uint64_t>());
      if (x.is_number_integer()) return Scalar(x.get<std::int64_t>());
      want = "an integer (int64 or uint64)";
    } else if (kind == "float") {
      double d = 0;
      if (json_to_double(x, d)) return float_scalar(d);
      want = "a float";
    } else if (kind == "complex") {
      double re = 0, im = 0;
      if (x.is_array() && x.size() == 2 && json_to_double(x[0], re) && json_to_double(x[1], im))
        return complex_scalar({re, im});
      want = "a pair of floats";
    } else {
      fail(at + ": unknown scalar kind '" + kind + "' (bool, int, float or complex)");
    }
    fail(at + ": the " + kind + " scalar's value is " + kind_of(x) + " (" + brief(x) + "), not " + want);
  }

  void read_nodes() {
    const ojson& a = array_at(root_, "nodes", "");
    g_.nodes.reserve(a.size());
    static const char* const kKeys[] = {"op", "inputs", "outputs", "attrs"};
    for (std::size_t n = 0; n < a.size(); ++n) {
      std::string where = "node " + std::to_string(n);
      const ojson& e = a[n];
      if (!e.is_object()) fail(where + " is " + kind_of(e) + ", not an object");
      check_keys(e, kKeys, where);
      const ojson& op_j = e.at("op");
      if (!op_j.is_string()) fail(where + ": op is " + kind_of(op_j) + ", not an op name");
      Graph::Node node;
      if (!op_named(op_j.get_ref<const std::string&>(), node.op))
        fail(where + ": unknown op '" + op_j.get<std::string>() + "'");
      where = node_str(n, node.op);
      node.inputs = read_ids(e.at("inputs"), where + ": inputs", where + ": input");
      node.outputs = read_ids(e.at("outputs"), where + ": outputs", where + ": output");
      node.attrs = read_attrs(node.op, e.at("attrs"), where);
      g_.nodes.push_back(std::move(node));
    }
  }

  // The constants' arrays on the chosen backend (after the graph passed check_graph).
  void make_constants() {
    const BackendImpl* be = backend_.impl();
    for (std::size_t i = 0; i < g_.constant_ids.size(); ++i) {
      const int id = g_.constant_ids[i];
      const Graph::Value& val = g_.values[static_cast<std::size_t>(id)];
      const std::string where = "constant " + std::to_string(i) + " (" + id_str(id) + ")";
      if (is_unsupported(backend_, "asarray", val.dtype))
        fail(where + ": backend " + backend_.name() + " does not support dtype " + dtype_name(val.dtype));
      std::vector<unsigned char>& bytes = bytes_[i];
      to_from_little_endian(bytes.data(), bytes.size(), val.dtype);
      unsigned char none = 0;
      try {
        g_.constants.push_back(be->from_host(bytes.empty() ? &none : bytes.data(), val.shape, val.dtype, Device{}));
      } catch (const Error& e) {
        fail(where + ": " + e.what());
      }
    }
  }

  std::string_view text_;
  Backend backend_;
  std::string ctx_;
  ojson root_;
  Graph g_;
  std::vector<std::vector<unsigned char>> bytes_;  // the constants' data, by constant index
};

Graph from_json(std::string_view text, Backend backend, std::string ctx) {
  try {
    return Reader(text, backend, std::move(ctx)).read();
  } catch (const nlohmann::json::exception& e) {  // not expected: every access is checked first
    throw ValueError("[load_graph] " + std::string(e.what()));
  }
}

// ---------------------------------------------------------------- files

std::string errno_text(int err) { return std::strerror(err); }

// ---------------------------------------------------------------- DOT

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

float half_to_float(std::uint16_t h) {
  const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000) << 16;
  const std::uint32_t exp = (h >> 10) & 0x1F, man = h & 0x3FF;
  if (exp == 0) {  // zero or subnormal: man * 2^-24
    const float v = std::ldexp(static_cast<float>(man), -24);
    return sign ? -v : v;
  }
  if (exp == 31) return std::bit_cast<float>(sign | 0x7F800000u | (man << 13));
  return std::bit_cast<float>(sign | ((exp + 112) << 23) | (man << 13));
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

// ---------------------------------------------------------------- public API

std::string graph_to_json(const Graph& g, int indent) { return to_json_text(g, indent, "graph_to_json"); }

Graph graph_from_json(std::string_view text, Backend backend) { return from_json(text, backend, {}); }

void save_graph(const Graph& g, const std::string& path) {
  if (path.empty()) throw ValueError("[save_graph] empty file name");
  std::string text = to_json_text(g, 1, "save_graph");
  text.push_back('\n');

  // written atomically: the target is either the old file or the complete new one
  detail::AtomicFile file(path, "save_graph");
  file.write(text.data(), text.size());
  file.commit();
}

Graph load_graph(const std::string& path, Backend backend) {
  std::string text;
  {
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) {
      const int err = errno;
      throw ValueError("[load_graph] cannot open " + path + ": " + errno_text(err));
    }
    char chunk[1 << 16];
    while (true) {
      const std::size_t n = std::fread(chunk, 1, sizeof chunk, f);
      text.append(chunk, n);
      if (n < sizeof chunk) break;
    }
    const bool err = std::ferror(f) != 0;
    const int e = errno;
    std::fclose(f);
    if (err) throw ValueError("[load_graph] cannot read " + path + ": " + errno_text(e));
  }
  return from_json(text, backend, path + ": ");
}

std::string graph_to_dot(const Graph& g) {
  check_graph(g, "graph_to_dot");
  std::ostringstream os;
  // the DOT node that defines each value: its producing node, else the input or constant
  std::vector<std::string> def(g.values.size());
  auto name = [](char kind, std::size_t k) {
    std::string s(1, kind);
    s += std::to_string(k);
    return s;
  };
  for (int id : g.input_ids) def[static_cast<std::size_t>(id)] = name('v', static_cast<std::size_t>(id));
  for (int id : g.constant_ids) def[static_cast<std::size_t>(id)] = name('v', static_cast<std::size_t>(id));
  for (std::size_t n = 0; n < g.nodes.size(); ++n)
    for (int id : g.nodes[n].outputs) def[static_cast<std::size_t>(id)] = name('n', n);
  auto value_label = [&](int v) {
    const Graph::Value& val = g.values[static_cast<std::size_t>(v)];
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
      os << "  " << def[static_cast<std::size_t>(v)] << " -> n" << n << " [label=\"" << value_label(v) << "\"];\n";
  for (std::size_t i = 0; i < g.output_ids.size(); ++i) {
    const int v = g.output_ids[i];
    os << "  " << def[static_cast<std::size_t>(v)] << " -> out" << i << " [label=\"" << value_label(v) << "\"];\n";
  }
  os << "}\n";
  return os.str();
}

}  // namespace ivy

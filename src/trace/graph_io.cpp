// Graph <-> JSON (the schema: include/ivy/graph_io.hpp): the writer, the reader and the
// file functions. Graph -> DOT is graph_dot.cpp; the encodings both use (base64, byte order,
// doubles and scalars) are graph_io_codec, the well-formedness check graph_check.
//
// Reading never trusts the text: every field is type-checked before it is read, ids are
// range-checked before they index anything, and the assembled graph goes through the same
// well-formedness check the writers apply (check_graph) before any array is created.
#include "ivy/graph_io.hpp"
#include "core/atomic_file.hpp"
#include "core/byte_order.hpp"
#include "core/json_util.hpp"
#include "trace/graph_check.hpp"
#include "trace/graph_io_codec.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <limits>
#include <utility>
#include <vector>

namespace ivy {

// the encodings and the well-formedness check shared with graph_dot.cpp
using namespace graph_io_detail;

namespace {

constexpr const char* kFormatName = "ivy-graph";
// JSON nesting deeper than this is rejected before parsing (a valid file nests 6 deep:
// root, nodes, node, attrs, scalar, complex pair).
constexpr int kMaxDepth = 32;

// ---------------------------------------------------------------- writing

ojson attr_to_json(std::int64_t v, OpId, const AttrField&) { return v; }
ojson attr_to_json(bool v, OpId, const AttrField&) { return v; }
ojson attr_to_json(double v, OpId, const AttrField&) { return double_to_json(v); }
ojson attr_to_json(const Scalar& v, OpId, const AttrField&) { return scalar_to_json(v); }
ojson attr_to_json(const Dims& v, OpId, const AttrField&) {
  ojson r = ojson::array();
  for (std::int64_t e : v) r.push_back(e);
  return r;
}
ojson attr_to_json(DType d, OpId op, const AttrField& f) {
  if (static_cast<int>(d) >= kNumDTypes)
    throw ValueError(std::string("[graph_to_json] attribute '") + f.name + "' of " + op_info(op).name +
                     " has no valid dtype");
  return dtype_name(d);
}
template <class T>
ojson attr_to_json(const std::optional<T>& v, OpId op, const AttrField& f) {  // absent: null
  return v ? attr_to_json(*v, op, f) : ojson(nullptr);
}

ojson attrs_to_json(OpId op, AttrsRef a) {
  ojson o = ojson::object();
  visit_attr_set(a.set(), [&]<class S>(std::type_identity<S>) {
    S::for_each(a.get<S>(), [&](const AttrField& f, const auto& v) { o[f.name] = attr_to_json(v, op, f); });
  });
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
    if (version < 1 || version > kGraphFormatVersion)
      fail("version " + std::to_string(version) + " is not supported (this build reads versions 1 to " +
           std::to_string(kGraphFormatVersion) + ")");
    version_ = static_cast<int>(version);

    read_values();
    g_.input_ids = read_ids(root_.at("inputs"), "inputs", "input");
    g_.output_ids = read_ids(root_.at("outputs"), "outputs", "output");
    read_constants();
    read_nodes();
    check_graph(g_, "load_graph", ctx_, /*with_arrays=*/false);
    check_types(g_, "load_graph", ctx_);
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

  // Parses the text, rejecting nesting deeper than kMaxDepth and a key repeated in an object.
  void parse() {
    json_util::ParsedJson p = json_util::parse_json_rejecting_duplicates(text_, kMaxDepth);
    switch (p.problem) {
      case json_util::JsonProblem::none: break;
      case json_util::JsonProblem::too_deep:
        fail("the JSON nests deeper than " + std::to_string(kMaxDepth) + " levels");
      case json_util::JsonProblem::invalid: fail("not valid JSON: " + p.detail);
      case json_util::JsonProblem::duplicate_key: fail("the key '" + p.detail + "' appears twice in one object");
    }
    root_ = std::move(p.value);
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
      const Graph::Value& val = g_.value(id);
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

  // Every field of the op's attribute set, by name, with its type. Version 1 spelled an
  // optional field `name` as the pair has_<name> (a boolean) and name.
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
      for (int i = 0; f && f[i].name && !known; ++i)
        known = it.key() == f[i].name || (version_ == 1 && f[i].optional && it.key() == std::string("has_") + f[i].name);
      if (!known)
        fail(where + ": unknown attribute '" + it.key() + "' (the " + info.attr_set + " set has: " + field_list() + ")");
    }
    return visit_attr_set(info.set, [&]<class S>(std::type_identity<S>) {
      S s;
      S::for_each(s, [&](const AttrField& fd, auto& v) {
        if (!o.contains(fd.name)) fail(where + ": missing attribute '" + fd.name + "'");
        read_field(v, o, fd, where + ": attribute '" + fd.name + "'");
      });
      return Attrs(s);
    });
  }
  void read_field(std::int64_t& out, const ojson& o, const AttrField& f, const std::string& at) const {
    const ojson& v = o.at(f.name);
    if (!json_to_int64(v, out)) wrong_value(v, at, "an int64 integer");
  }
  void read_field(bool& out, const ojson& o, const AttrField& f, const std::string& at) const {
    const ojson& v = o.at(f.name);
    if (!v.is_boolean()) wrong_value(v, at, "a boolean");
    out = v.get<bool>();
  }
  void read_field(double& out, const ojson& o, const AttrField& f, const std::string& at) const {
    const ojson& v = o.at(f.name);
    if (!json_to_double(v, out)) wrong_value(v, at, "a float (a number, \"inf\", \"-inf\", \"nan\", \"-nan\" or \"nan:0x...\")");
  }
  void read_field(Scalar& out, const ojson& o, const AttrField& f, const std::string& at) const {
    out = read_scalar(o.at(f.name), at);
  }
  void read_field(Dims& out, const ojson& o, const AttrField& f, const std::string& at) const {
    out = read_ints(o.at(f.name), at);
  }
  void read_field(DType& out, const ojson& o, const AttrField& f, const std::string& at) const {
    out = read_dtype(o.at(f.name), at);
  }
  // An optional field: null when absent (version 1: has_<name> false, the value ignored).
  template <class T>
  void read_field(std::optional<T>& out, const ojson& o, const AttrField& f, const std::string& at) const {
    bool present = !o.at(f.name).is_null();
    if (version_ == 1) {
      const std::string flag = std::string("has_") + f.name;
      if (!o.contains(flag)) fail(at + " needs its flag '" + flag + "' in a version 1 file");
      const ojson& h = o.at(flag);
      if (!h.is_boolean()) wrong_value(h, at + " flag '" + flag + "'", "a boolean");
      present = h.get<bool>();
    }
    if (!present) {
      out.reset();
      return;
    }
    read_field(out.emplace(), o, f, at);
  }
  [[noreturn]] void wrong_value(const ojson& v, const std::string& at, const char* want) const {
    fail(at + " is " + kind_of(v) + " (" + brief(v) + "), not " + want);
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
      const Graph::Value& val = g_.value(id);
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
  int version_ = kGraphFormatVersion;  // of the document being read
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

}  // namespace ivy

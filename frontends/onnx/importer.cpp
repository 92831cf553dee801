// ONNX model files to ivy::onnx::Model: parsing and checking (Debian's libonnx), tensors to
// arrays, each node bound to the operator function of its domain, type and opset, and the
// evaluation of the node list. The only file of the frontend that sees ONNX's headers.
#include <onnx/checker.h>
#include <onnx/onnx-data_pb.h>
#include <onnx/onnx_pb.h>
#include <onnx/shape_inference/implementation.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <new>
#include <set>
#include <sstream>
#include <unordered_map>

#include "ivy/onnx.hpp"
#include "onnx_ops.hpp"

namespace ivy::onnx {

namespace detail {

struct Program;

// The control-flow operators, which the evaluator runs itself (their bodies are graphs).
// (Gradient, of the training domain: derivatives of one graph value with respect to others,
// computed by ivy's autodiff over the nodes before it.)
enum class Control { None, If, Loop, Scan, SequenceMap, Gradient };

// A node bound to its operator function, or a control-flow node with its graphs.
struct BoundNode {
  NodeInfo info;
  OpFn fn = nullptr;
  ValueFn vfn = nullptr;
  Control control = Control::None;
  std::map<std::string, std::shared_ptr<const Program>> graphs;  // graph attributes by name
  std::vector<std::string> inputs, outputs;  // "" = an absent optional input / unused output
};

struct Initializer {
  std::string onnx_name;    // the name nodes read it by
  std::string module_name;  // its name among the module's parameters or buffers
  Array value;
  bool parameter = false;   // floating: trained; otherwise a buffer
};

struct Program {
  std::vector<ValueInfo> inputs, outputs;
  std::vector<Initializer> initializers;                // the main graph's: module variables
  std::vector<std::pair<std::string, Array>> constants;  // a subgraph's initializers
  std::vector<BoundNode> nodes;
  int opset = 0;
  std::string producer;
};

namespace {

const std::vector<OpEntry>& op_table() {
  static const std::vector<OpEntry> table = [] {
    std::vector<OpEntry> t;
    add_elementwise_ops(t);
    add_tensor_ops(t);
    add_nn_ops(t);
    add_resize_ops(t);
    add_sequence_ops(t);
    add_rnn_ops(t);
    add_misc_ops(t);
    add_random_ops(t);
    add_quant_ops(t);
    add_training_ops(t);
    add_signal_ops(t);
    return t;
  }();
  return table;
}

// The entry for (domain, op) with the largest since <= opset, or nullptr.
const OpEntry* find_op(const std::string& domain, const std::string& op, int opset) {
  const OpEntry* best = nullptr;
  for (const OpEntry& e : op_table())
    if (domain == e.domain && op == e.op_type && e.since <= opset && (!best || e.since > best->since)) best = &e;
  return best;
}

[[noreturn]] void import_fail(const std::string& where, const std::string& what) {
  throw ValueError("[onnx.import] " + where + what);
}

DType dtype_of(int code, const std::string& where) {
  NodeInfo n;
  n.name = where;
  try {
    return dtype_of_code(n, code);
  } catch (const NotImplementedError&) {
    throw NotImplementedError("[onnx.import] " + where + ": string tensors are not supported (ivy has no string dtype)");
  } catch (const ValueError&) {
    import_fail(where, ": unknown tensor data type " + std::to_string(code));
  }
}

// ONNX's TensorProto as an array: dims checked and the byte count computed before anything is
// allocated; the data from raw_data (little-endian) or the typed field of its dtype.
// The bytes of a tensor stored outside the model: external_data's location, a relative path
// that must stay inside the model's folder (after following links), read from its offset for
// its length, both checked against the file before anything is read.
struct ExternalSpan {
  std::filesystem::path file;
  std::int64_t offset = 0, length = 0;
};
ExternalSpan resolve_external(const ::onnx::TensorProto& t, const std::string& base_dir, const std::string& where) {
  namespace fs = std::filesystem;
  std::string location;
  std::int64_t offset = 0, length = -1;
  for (const auto& kv : t.external_data()) {
    auto number = [&](const std::string& v) {
      std::size_t used = 0;
      long long x = -1;
      try {
        x = std::stoll(v, &used);
      } catch (const std::exception&) {
      }
      if (used != v.size() || x < 0) import_fail(where, ": external_data " + kv.key() + " '" + v + "' is not a non-negative integer");
      return static_cast<std::int64_t>(x);
    };
    if (kv.key() == "location") location = kv.value();
    else if (kv.key() == "offset") offset = number(kv.value());
    else if (kv.key() == "length") length = number(kv.value());
  }
  if (location.empty()) import_fail(where, ": external data without a location");
  const fs::path rel(location);
  if (rel.is_absolute()) import_fail(where, ": external data location '" + location + "' is an absolute path");
  std::error_code ec;
  const fs::path dir = fs::weakly_canonical(fs::path(base_dir.empty() ? "." : base_dir), ec);
  const fs::path file = fs::weakly_canonical(dir / rel, ec);
  if (ec) import_fail(where, ": external data location '" + location + "' cannot be resolved");
  const auto [d_end, f_it] = std::mismatch(dir.begin(), dir.end(), file.begin(), file.end());
  if (d_end != dir.end() || file == dir)
    import_fail(where, ": external data location '" + location + "' leaves the model's folder");
  std::ifstream f(file, std::ios::binary | std::ios::ate);
  if (!f) import_fail(where, ": cannot open the external data file '" + location + "'");
  const auto size = static_cast<std::int64_t>(f.tellg());
  if (offset > size) import_fail(where, ": external data offset " + std::to_string(offset) + " is past the end of '" + location + "' (" + std::to_string(size) + " bytes)");
  if (length < 0) length = size - offset;
  if (length > size - offset)
    import_fail(where, ": external data of " + std::to_string(length) + " bytes at offset " + std::to_string(offset) +
                           " runs past the end of '" + location + "' (" + std::to_string(size) + " bytes)");
  return {file, offset, length};
}
std::string read_external(const ::onnx::TensorProto& t, const std::string& base_dir, const std::string& where) {
  const ExternalSpan e = resolve_external(t, base_dir, where);
  std::ifstream f(e.file, std::ios::binary);
  std::string bytes(static_cast<std::size_t>(e.length), '\0');
  f.seekg(e.offset);
  if (e.length > 0 && !f.read(bytes.data(), e.length)) import_fail(where, ": cannot read the external data file");
  return bytes;
}
// Every external tensor's location and bounds, before ONNX's checker looks at the files;
// true when there is one.
bool check_external(const ::onnx::GraphProto& g, const std::string* base_dir, const std::string& ctx) {
  bool any = false;
  for (const auto& t : g.initializer())
    if (t.data_location() == ::onnx::TensorProto::EXTERNAL) {
      if (!base_dir)
        throw NotImplementedError("[onnx.import] " + ctx + "initializer '" + t.name() +
                                  "': a tensor with external data needs the model's folder (load a file)");
      resolve_external(t, *base_dir, ctx + "initializer '" + t.name() + "'");
      any = true;
    }
  for (const auto& n : g.node())
    for (const auto& a : n.attribute())
      if (a.type() == ::onnx::AttributeProto::GRAPH) any = check_external(a.g(), base_dir, ctx) || any;
  return any;
}

Array to_array(const ::onnx::TensorProto& t, Backend backend, const std::string& where, const std::string* base_dir = nullptr) {
  std::string external;
  if (t.data_location() == ::onnx::TensorProto::EXTERNAL) {
    if (!base_dir)
      throw NotImplementedError("[onnx.import] " + where + ": a tensor with external data needs the model's folder (load a file)");
    external = read_external(t, *base_dir, where);
  }
  if (t.has_segment()) throw NotImplementedError("[onnx.import] " + where + ": segmented tensors are not supported");
  const DType dt = dtype_of(t.data_type(), where);
  Shape shape;
  std::int64_t n = 1;
  if (t.dims_size() > kMaxRank) import_fail(where, ": rank " + std::to_string(t.dims_size()) + " is above ivy's " + std::to_string(kMaxRank));
  for (std::int64_t d : t.dims()) {
    if (d < 0) import_fail(where, ": negative dimension " + std::to_string(d));
    if (d > 0 && n > std::numeric_limits<std::int64_t>::max() / d) import_fail(where, ": the element count overflows");
    n *= d;
    shape.push_back(d);
  }
  const std::size_t item = itemsize(dt);
  if (n > static_cast<std::int64_t>(std::numeric_limits<std::size_t>::max() / item / 2))
    import_fail(where, ": the tensor is too large");
  const std::size_t bytes = static_cast<std::size_t>(n) * item;
  std::vector<unsigned char> buf;
  auto need_count = [&](int have, const char* field) {
    if (have != n)
      import_fail(where, std::string(": ") + field + " holds " + std::to_string(have) + " values, the dims say " +
                             std::to_string(n));
  };
  if (t.data_location() == ::onnx::TensorProto::EXTERNAL || t.has_raw_data()) {
    const std::string& raw = t.data_location() == ::onnx::TensorProto::EXTERNAL ? external : t.raw_data();
    if (raw.size() != bytes)
      import_fail(where, std::string(": ") + (external.empty() ? "raw_data" : "the external data") + " holds " +
                             std::to_string(raw.size()) + " bytes, the dims and dtype say " + std::to_string(bytes));
    buf.assign(raw.begin(), raw.end());  // x86-64 and ONNX are both little-endian
  } else {
    // the typed field must hold the dims' count before that many bytes are allocated
    switch (dt) {
      case DType::float32: need_count(t.float_data_size(), "float_data"); break;
      case DType::float64: need_count(t.double_data_size(), "double_data"); break;
      case DType::int64: need_count(t.int64_data_size(), "int64_data"); break;
      case DType::uint32:
      case DType::uint64: need_count(t.uint64_data_size(), "uint64_data"); break;
      case DType::complex64: need_count(t.float_data_size() / 2, "float_data (pairs)"); break;
      case DType::complex128: need_count(t.double_data_size() / 2, "double_data (pairs)"); break;
      default: need_count(t.int32_data_size(), "int32_data"); break;
    }
    buf.resize(bytes);
    auto put = [&](std::size_t i, const auto& v) { std::memcpy(buf.data() + i * item, &v, item); };
    switch (dt) {
      case DType::float32:
        need_count(t.float_data_size(), "float_data");
        for (int i = 0; i < n; ++i) put(static_cast<std::size_t>(i), t.float_data(i));
        break;
      case DType::float64:
        need_count(t.double_data_size(), "double_data");
        for (int i = 0; i < n; ++i) put(static_cast<std::size_t>(i), t.double_data(i));
        break;
      case DType::int64:
        need_count(t.int64_data_size(), "int64_data");
        for (int i = 0; i < n; ++i) put(static_cast<std::size_t>(i), t.int64_data(i));
        break;
      case DType::uint32:
      case DType::uint64:
        need_count(t.uint64_data_size(), "uint64_data");
        for (int i = 0; i < n; ++i) {
          const std::uint64_t v = t.uint64_data(i);
          if (dt == DType::uint32) put(static_cast<std::size_t>(i), static_cast<std::uint32_t>(v));
          else put(static_cast<std::size_t>(i), v);
        }
        break;
      case DType::complex64:
        need_count(t.float_data_size() / 2, "float_data (pairs)");
        for (int i = 0; i < 2 * n; ++i) std::memcpy(buf.data() + static_cast<std::size_t>(i) * 4, &t.float_data().Get(i), 4);
        break;
      case DType::complex128:
        need_count(t.double_data_size() / 2, "double_data (pairs)");
        for (int i = 0; i < 2 * n; ++i) std::memcpy(buf.data() + static_cast<std::size_t>(i) * 8, &t.double_data().Get(i), 8);
        break;
      default:  // bool, int8..int32, uint8, uint16, float16, bfloat16: int32_data, one value (or bit pattern) each
        need_count(t.int32_data_size(), "int32_data");
        for (int i = 0; i < n; ++i) {
          const std::int32_t v = t.int32_data(i);
          switch (item) {
            case 1: put(static_cast<std::size_t>(i), static_cast<std::uint8_t>(v)); break;
            case 2: put(static_cast<std::size_t>(i), static_cast<std::uint16_t>(v)); break;
            default: put(static_cast<std::size_t>(i), v); break;
          }
        }
        break;
    }
  }
  return asarray(static_cast<const void*>(buf.data()), dt, shape, dt, Device{}, backend);
}

ValueInfo value_info(const ::onnx::ValueInfoProto& v, const std::string& ctx) {
  ValueInfo r;
  r.name = v.name();
  const ::onnx::TypeProto* t = &v.type();
  if (t->has_optional_type()) {
    r.type = ValueType::Optional;
    t = &t->optional_type().elem_type();
    r.optional_of_sequence = t->has_sequence_type();
  }
  if (t->has_sequence_type()) {
    if (r.type == ValueType::Tensor) r.type = ValueType::Sequence;
    t = &t->sequence_type().elem_type();
  }
  if (t->has_map_type() || t->has_sparse_tensor_type() || t->has_sequence_type() || t->has_optional_type())
    throw NotImplementedError("[onnx.import] " + ctx + "the graph input or output '" + v.name() +
                              "' is a map, a sparse tensor or a nested sequence: not supported");
  if (t->has_tensor_type()) {
    const auto& tt = t->tensor_type();
    try {
      r.dtype = dtype_of(tt.elem_type(), "value '" + v.name() + "'");
    } catch (const Error&) {
    }
    if (tt.has_shape()) {
      r.has_shape = true;
      for (const auto& d : tt.shape().dim()) {
        r.dims.push_back(d.has_dim_value() ? d.dim_value() : -1);
        r.dim_names.push_back(d.has_dim_param() ? d.dim_param() : "");
      }
    }
  }
  return r;
}

Attribute to_attribute(const ::onnx::AttributeProto& a, const NodeInfo& node, Backend backend, const std::string* base_dir) {
  Attribute r;
  if (!a.ref_attr_name().empty()) node.unsupported("attribute references (functions) are not supported");
  switch (a.type()) {
    case ::onnx::AttributeProto::FLOAT: r.kind = Attribute::Float, r.f = a.f(); break;
    case ::onnx::AttributeProto::INT: r.kind = Attribute::Int, r.i = a.i(); break;
    case ::onnx::AttributeProto::STRING: r.kind = Attribute::String, r.s = a.s(); break;
    case ::onnx::AttributeProto::TENSOR:
      r.kind = Attribute::Tensor;
      r.t = to_array(a.t(), backend, node.where() + " attribute '" + a.name() + "'", base_dir);
      break;
    case ::onnx::AttributeProto::FLOATS:
      r.kind = Attribute::Floats;
      r.floats.assign(a.floats().begin(), a.floats().end());
      break;
    case ::onnx::AttributeProto::INTS:
      r.kind = Attribute::Ints;
      r.ints.assign(a.ints().begin(), a.ints().end());
      break;
    case ::onnx::AttributeProto::STRINGS:
      r.kind = Attribute::Strings;
      r.strings.assign(a.strings().begin(), a.strings().end());
      break;
    default:
      node.unsupported("attribute '" + a.name() + "' is a graph, sparse tensor or type: not supported yet");
  }
  return r;
}

// A name usable as a module variable: '/' (the Container path separator) becomes '.'; a
// clash gets a numeric suffix.
std::string module_name(const std::string& onnx_name, std::set<std::string>& taken) {
  std::string s = onnx_name.empty() ? std::string("initializer") : onnx_name;
  std::replace(s.begin(), s.end(), '/', '.');
  std::string r = s;
  for (int k = 1; taken.count(r); ++k) r = s + "#" + std::to_string(k);
  taken.insert(r);
  return r;
}

using Opsets = std::unordered_map<std::string, int>;

Control control_of(const std::string& domain, const std::string& op, int opset) {
  if (domain == "ai.onnx.preview.training" && op == "Gradient") return Control::Gradient;
  if (!domain.empty()) return Control::None;
  if (op == "If") return Control::If;
  if (op == "Loop") return Control::Loop;
  if (op == "Scan" && opset >= 9) return Control::Scan;  // Scan 8 had a batch axis
  if (op == "SequenceMap" && opset >= 17) return Control::SequenceMap;
  return Control::None;
}

// One graph: the main one (top: its initializers are the module's variables) or a body of a
// control-flow node. Unsupported nodes, at any depth, are collected in `missing`.
std::shared_ptr<Program> build_graph(const ::onnx::GraphProto& g, const Opsets& opsets, Backend backend,
                                     const std::string& ctx, const std::string* base_dir, bool top,
                                     std::vector<std::string>& missing) {
  auto p = std::make_shared<Program>();
  std::set<std::string> init_names, taken;
  for (const auto& t : g.initializer()) {
    Array value = to_array(t, backend, "initializer '" + t.name() + "'", base_dir);
    init_names.insert(t.name());
    if (!top) {
      p->constants.emplace_back(t.name(), value);
      continue;
    }
    Initializer in;
    in.onnx_name = t.name();
    in.value = value;
    in.parameter = is_floating(in.value.dtype());
    in.module_name = module_name(t.name(), taken);
    p->initializers.push_back(std::move(in));
  }
  if (g.sparse_initializer_size() > 0) throw NotImplementedError("[onnx.import] " + ctx + "sparse initializers are not supported");
  for (const auto& v : g.input())
    if (!init_names.count(v.name())) p->inputs.push_back(value_info(v, ctx));
  for (const auto& v : g.output()) p->outputs.push_back(value_info(v, ctx));

  for (int k = 0; k < g.node_size(); ++k) {
    const ::onnx::NodeProto& nd = g.node(k);
    BoundNode b;
    b.info.name = nd.name().empty() ? "#" + std::to_string(k) : nd.name();
    b.info.op_type = nd.op_type();
    b.info.domain = nd.domain() == "ai.onnx" ? "" : nd.domain();
    auto os = opsets.find(b.info.domain);
    b.info.opset = os != opsets.end() ? os->second : 0;
    b.info.n_outputs = nd.output_size();
    b.control = control_of(b.info.domain, b.info.op_type, b.info.opset);
    const OpEntry* e = b.control == Control::None ? find_op(b.info.domain, b.info.op_type, b.info.opset) : nullptr;
    if (b.control == Control::None && !e) {
      missing.push_back((b.info.domain.empty() ? "" : b.info.domain + ".") + b.info.op_type + " (opset " +
                        std::to_string(b.info.opset) + ", node '" + b.info.name + "')");
      continue;
    }
    if (e) {
      b.fn = e->fn;
      b.vfn = e->vfn;
      b.info.since = e->since;
    }
    for (const auto& a : nd.attribute()) {
      if (a.type() == ::onnx::AttributeProto::GRAPH) {
        b.graphs[a.name()] = build_graph(a.g(), opsets, backend, ctx, base_dir, false, missing);
      } else if (a.type() == ::onnx::AttributeProto::TYPE_PROTO) {  // only "is it a sequence" is used
        Attribute t;
        t.i = a.tp().has_sequence_type() ||
              (a.tp().has_optional_type() && a.tp().optional_type().elem_type().has_sequence_type());
        b.info.attrs[a.name() + "_is_sequence"] = t;
      } else {
        b.info.attrs[a.name()] = to_attribute(a, b.info, backend, base_dir);
      }
    }
    b.inputs.assign(nd.input().begin(), nd.input().end());
    b.outputs.assign(nd.output().begin(), nd.output().end());
    p->nodes.push_back(std::move(b));
  }
  return p;
}

std::shared_ptr<Program> build(::onnx::ModelProto& m, Backend backend, const std::string& ctx,
                               const std::string* base_dir, const std::string& path) {
  const bool external = check_external(m.graph(), base_dir, ctx);
  try {
    // external data: the checker reads the file again, to find the data next to it
    if (external) ::onnx::checker::check_model(path);
    else ::onnx::checker::check_model(m);
  } catch (const std::exception& e) {
    import_fail(ctx, std::string("the model fails ONNX's checker: ") + e.what());
  }
  // (No ONNX shape inference: the importer does not need the shapes, and Debian's ONNX 1.12
  // dereferences null in convTransposeShapeInference on a malformed ConvTranspose; the
  // reproducer is tests/fuzz/corpus/onnx_import/crash-convtranspose-shape-inference.)
  Opsets opsets;
  for (const auto& o : m.opset_import()) opsets[o.domain() == "ai.onnx" ? "" : o.domain()] = static_cast<int>(o.version());
  std::vector<std::string> missing;
  auto p = build_graph(m.graph(), opsets, backend, ctx, base_dir, true, missing);
  p->producer = m.producer_name() + (m.producer_version().empty() ? "" : " " + m.producer_version());
  p->opset = opsets.count("") ? opsets[""] : 0;
  if (!missing.empty()) {
    std::string list;
    for (const auto& s : missing) list += "\n  " + s;
    throw NotImplementedError("[onnx.import] " + ctx + std::to_string(missing.size()) + " node(s) of operators ivy does not implement:" + list);
  }
  return p;
}

std::shared_ptr<Model> make_model(std::shared_ptr<Program> p) { return std::make_shared<Model>(std::move(p)); }

std::string read_file(const std::string& path, const char* what) {
  std::ifstream f(path, std::ios::binary | std::ios::ate);
  if (!f) throw ValueError(std::string("[") + what + "] cannot open '" + path + "'");
  const std::streamoff size = f.tellg();
  // protobuf messages are limited to 2 GiB
  if (size < 0 || size > std::streamoff(2147483647))
    throw ValueError(std::string("[") + what + "] '" + path + "' is larger than protobuf's 2 GiB limit");
  std::string bytes(static_cast<std::size_t>(size), '\0');
  f.seekg(0);
  if (!f.read(bytes.data(), size)) throw ValueError(std::string("[") + what + "] cannot read '" + path + "'");
  return bytes;
}

}  // namespace
}  // namespace detail

// ---------------------------------------------------------------- Model
Model::Model(std::shared_ptr<const detail::Program> program) : program_(std::move(program)) {
  for (const auto& in : program_->initializers) {
    if (in.parameter) register_parameter(in.module_name, in.value);
    else register_buffer(in.module_name, in.value);
  }
  for (const auto& in : program_->initializers)
    initializer_values_.push_back(in.parameter ? &param(in.module_name) : &buffer(in.module_name));
}
Model::~Model() = default;
const std::vector<ValueInfo>& Model::inputs() const { return program_->inputs; }
const std::vector<ValueInfo>& Model::outputs() const { return program_->outputs; }
int Model::opset() const { return program_->opset; }
std::string Model::producer() const { return program_->producer; }
namespace {
void count_operators(const detail::Program& p, std::map<std::string, int>& counts) {
  for (const auto& b : p.nodes) {
    ++counts[b.info.domain.empty() ? b.info.op_type : b.info.domain + "." + b.info.op_type];
    for (const auto& [name, g] : b.graphs) count_operators(*g, counts);
  }
}
}  // namespace
std::map<std::string, int> Model::operator_counts() const {
  std::map<std::string, int> counts;
  count_operators(*program_, counts);
  return counts;
}
namespace {
// Random draws: the random operators, and Dropout given a training_mode input (its value
// decides at run time).
bool any_random(const detail::Program& p) {
  for (const auto& b : p.nodes) {
    const std::string& op = b.info.op_type;
    if (b.info.domain.empty() && (op == "RandomUniform" || op == "RandomNormal" || op == "RandomUniformLike" ||
                                  op == "RandomNormalLike" || op == "Bernoulli" || op == "Multinomial" ||
                                  (op == "Dropout" && b.inputs.size() > 2 && !b.inputs[2].empty())))
      return true;
    for (const auto& [name, g] : b.graphs)
      if (any_random(*g)) return true;
  }
  return false;
}
}  // namespace
bool Model::has_random_operators() const { return any_random(*program_); }
std::string Model::describe() const {
  return "onnx opset " + std::to_string(program_->opset) + ", " + std::to_string(program_->nodes.size()) + " nodes";
}

namespace {
// x against a tensor input's dtype and dims.
void check_tensor(const ValueInfo& v, const Array& x) {
  if (x.dtype() != v.dtype)
    throw ValueError("[onnx.run] input '" + v.name + "' must be " + dtype_name(v.dtype) + ", got " + dtype_name(x.dtype()));
  if (!v.has_shape) return;
  bool ok = static_cast<std::size_t>(x.ndim()) == v.dims.size();
  for (std::size_t d = 0; ok && d < v.dims.size(); ++d) ok = v.dims[d] < 0 || v.dims[d] == x.shape()[d];
  if (ok) return;
  std::string want = "(";
  for (std::size_t d = 0; d < v.dims.size(); ++d)
    want += (d ? ", " : "") + (v.dims[d] >= 0 ? std::to_string(v.dims[d]) : v.dim_names[d].empty() ? "?" : v.dim_names[d]);
  throw ValueError("[onnx.run] input '" + v.name + "' must have shape " + want + (v.dims.size() == 1 ? ",)" : ")") +
                   ", got " + x.shape().str());
}
}  // namespace

namespace detail {
namespace {

// The values visible to a graph: its own, then those of the graphs around it.
struct Scope {
  std::unordered_map<std::string, Value> vars;
  const Scope* parent = nullptr;
  const Value* find(const std::string& name) const {
    for (const Scope* s = this; s; s = s->parent) {
      auto it = s->vars.find(name);
      if (it != s->vars.end()) return &it->second;
    }
    return nullptr;
  }
};

std::vector<Value> eval(const Program& p, Scope& scope);

// A body graph run on `args` (bound to its inputs in order) inside `outer`.
std::vector<Value> call_graph(const BoundNode& b, const char* attr, const std::vector<Value>& args, const Scope& outer) {
  auto it = b.graphs.find(attr);
  if (it == b.graphs.end()) b.info.fail(std::string("needs the graph attribute '") + attr + "'");
  const Program& g = *it->second;
  if (args.size() != g.inputs.size())
    b.info.fail(std::string("its ") + attr + " takes " + std::to_string(g.inputs.size()) + " inputs, the node gives " +
                std::to_string(args.size()));
  Scope s;
  s.parent = &outer;
  for (std::size_t i = 0; i < args.size(); ++i) s.vars[g.inputs[i].name] = args[i];
  return eval(g, s);
}

const Array& tensor_arg(const BoundNode& b, const std::vector<Value>& in, std::size_t i, const char* what) {
  if (i >= in.size() || in[i].type != ValueType::Tensor || !in[i].tensor.defined()) b.info.fail(std::string(what) + " must be a tensor");
  return in[i].tensor;
}
bool truth(const BoundNode& b, const Array& c) {
  if (c.size() != 1) b.info.fail("the condition must hold one value, got shape " + c.shape().str());
  return astype(c, int64).to_vector<std::int64_t>()[0] != 0;
}
// Per-iteration tensors stacked along a new axis 0 (none: an empty [0] tensor).
Value stacked(const std::vector<Array>& items) {
  if (items.empty()) return Value::of(zeros(Shape{0}));
  return Value::of(stack(items, 0));
}

std::vector<Value> run_if(const BoundNode& b, const std::vector<Value>& in, const Scope& scope) {
  return call_graph(b, truth(b, tensor_arg(b, in, 0, "cond")) ? "then_branch" : "else_branch", {}, scope);
}

// Loop: M (max trips) and cond optional; body (i, cond, carried...) -> (cond, carried..., scans...).
std::vector<Value> run_loop(const BoundNode& b, const std::vector<Value>& in, const Scope& scope) {
  const bool has_m = !in.empty() && in[0].type == ValueType::Tensor && in[0].tensor.defined();
  const bool has_cond = in.size() > 1 && in[1].type == ValueType::Tensor && in[1].tensor.defined();
  const std::int64_t m = has_m ? int_values(b.info, in[0].tensor, "M")[0] : 0;
  bool cond = has_cond ? truth(b, in[1].tensor) : true;
  std::vector<Value> carried(in.begin() + std::min<std::size_t>(2, in.size()), in.end());
  std::vector<std::vector<Array>> scans;
  for (std::int64_t i = 0; (!has_m || i < m) && cond; ++i) {
    std::vector<Value> args{Value::of(asarray(i)), Value::of(asarray(cond))};
    args.insert(args.end(), carried.begin(), carried.end());
    std::vector<Value> out = call_graph(b, "body", args, scope);
    if (out.size() < 1 + carried.size()) b.info.fail("the body returns too few outputs");
    cond = truth(b, tensor_arg(b, out, 0, "the body's condition"));
    for (std::size_t k = 0; k < carried.size(); ++k) carried[k] = out[1 + k];
    const std::size_t n_scan = out.size() - 1 - carried.size();
    scans.resize(n_scan);
    for (std::size_t k = 0; k < n_scan; ++k) scans[k].push_back(tensor_arg(b, out, 1 + carried.size() + k, "a scan output"));
    if (!has_m && !has_cond) b.info.fail("a loop with neither a trip count nor a condition never ends");
  }
  std::vector<Value> r = carried;
  for (std::size_t k = 0; k + carried.size() < static_cast<std::size_t>(b.info.n_outputs); ++k)
    r.push_back(stacked(k < scans.size() ? scans[k] : std::vector<Array>{}));
  return r;
}

// Scan (9+): states..., scan inputs... ; body (states..., slices...) -> (states..., slices...).
std::vector<Value> run_scan(const BoundNode& b, const std::vector<Value>& in, const Scope& scope) {
  const std::int64_t n_scan = b.info.i("num_scan_inputs");
  const std::int64_t n_state = static_cast<std::int64_t>(in.size()) - n_scan;
  if (n_scan < 1 || n_state < 0) b.info.fail("num_scan_inputs " + std::to_string(n_scan) + " does not fit its inputs");
  const std::vector<std::int64_t> in_axes = b.info.ints("scan_input_axes", std::vector<std::int64_t>(static_cast<std::size_t>(n_scan), 0));
  const std::vector<std::int64_t> in_dirs = b.info.ints("scan_input_directions", std::vector<std::int64_t>(static_cast<std::size_t>(n_scan), 0));
  std::vector<Value> states(in.begin(), in.begin() + n_state);
  std::vector<Array> xs;
  std::vector<std::int64_t> axes;
  std::int64_t len = -1;
  for (std::int64_t k = 0; k < n_scan; ++k) {
    const Array& x = tensor_arg(b, in, static_cast<std::size_t>(n_state + k), "a scan input");
    const std::int64_t ax = norm_axis(b.info, in_axes.at(static_cast<std::size_t>(k)), x.ndim());
    if (len >= 0 && x.shape()[ax] != len) b.info.fail("the scan inputs differ in length");
    len = x.shape()[ax];
    xs.push_back(x);
    axes.push_back(ax);
  }
  std::vector<std::vector<Array>> outs;
  for (std::int64_t t = 0; t < len; ++t) {
    std::vector<Value> args = states;
    for (std::int64_t k = 0; k < n_scan; ++k) {
      const std::int64_t at = in_dirs.at(static_cast<std::size_t>(k)) ? len - 1 - t : t;
      args.push_back(Value::of(take(xs[static_cast<std::size_t>(k)], asarray(at), axes[static_cast<std::size_t>(k)])));
    }
    std::vector<Value> out = call_graph(b, "body", args, scope);
    if (out.size() < static_cast<std::size_t>(n_state))
      b.info.fail("the body gives " + std::to_string(out.size()) + " outputs for " + std::to_string(n_state) + " state variables");
    for (std::int64_t k = 0; k < n_state; ++k) states[static_cast<std::size_t>(k)] = out[static_cast<std::size_t>(k)];
    outs.resize(out.size() - static_cast<std::size_t>(n_state));
    for (std::size_t k = 0; k < outs.size(); ++k) outs[k].push_back(tensor_arg(b, out, static_cast<std::size_t>(n_state) + k, "a scan output"));
  }
  if (b.info.n_outputs < n_state)
    b.info.fail(std::to_string(b.info.n_outputs) + " outputs for " + std::to_string(n_state) + " state variables");
  const std::size_t n_out = static_cast<std::size_t>(b.info.n_outputs) - static_cast<std::size_t>(n_state);
  const std::vector<std::int64_t> out_axes = b.info.ints("scan_output_axes", std::vector<std::int64_t>(n_out, 0));
  const std::vector<std::int64_t> out_dirs = b.info.ints("scan_output_directions", std::vector<std::int64_t>(n_out, 0));
  std::vector<Value> r = states;
  for (std::size_t k = 0; k < n_out; ++k) {
    std::vector<Array> items = k < outs.size() ? outs[k] : std::vector<Array>{};
    if (out_dirs.at(k)) std::reverse(items.begin(), items.end());
    if (items.empty()) {
      r.push_back(Value::of(zeros(Shape{0})));
      continue;
    }
    const std::int64_t ax = norm_axis(b.info, out_axes.at(k), items[0].ndim() + 1);
    r.push_back(Value::of(stack(items, ax)));
  }
  return r;
}

// SequenceMap: the body applied to each item of the first sequence (and of the other
// sequence inputs; tensor inputs are passed whole), each output gathered into a sequence.
std::vector<Value> run_sequence_map(const BoundNode& b, const std::vector<Value>& in, const Scope& scope) {
  if (in.empty() || in[0].type != ValueType::Sequence) b.info.fail("input 0 must be a sequence");
  const std::size_t len = in[0].sequence.size();
  std::vector<std::vector<Array>> outs(static_cast<std::size_t>(b.info.n_outputs));
  for (std::size_t i = 0; i < len; ++i) {
    std::vector<Value> args;
    for (const Value& v : in) {
      if (v.type == ValueType::Sequence) {
        if (v.sequence.size() != len) b.info.fail("the sequences differ in length");
        args.push_back(Value::of(v.sequence[i]));
      } else {
        args.push_back(v);
      }
    }
    std::vector<Value> out = call_graph(b, "body", args, scope);
    for (std::size_t k = 0; k < outs.size() && k < out.size(); ++k) outs[k].push_back(tensor_arg(b, out, k, "an output of the body"));
  }
  std::vector<Value> r;
  for (auto& o : outs) r.push_back(Value::of_sequence(std::move(o)));
  return r;
}

const char* type_name(ValueType t) {
  switch (t) {
    case ValueType::Tensor: return "a tensor";
    case ValueType::Sequence: return "a sequence";
    case ValueType::Optional: return "an optional";
  }
  return "?";
}

void run_nodes(const Program& p, Scope& scope, std::size_t end);

// Gradient: the derivatives of the value named y with respect to the values named xs (the
// node's inputs, in order), by ivy's autodiff over the graph's nodes before this one: they
// run again in a scope where xs are the differentiated variables, and y's cotangent is ones
// (a non-scalar y gives the gradient of its sum).
std::vector<Value> run_gradient(const Program& p, std::size_t at, const std::vector<Value>& in, const Scope& scope) {
  const BoundNode& b = p.nodes[at];
  auto xs_attr = b.info.attrs.find("xs");
  auto y_attr = b.info.attrs.find("y");
  if (xs_attr == b.info.attrs.end() || xs_attr->second.kind != Attribute::Strings || y_attr == b.info.attrs.end() ||
      y_attr->second.kind != Attribute::String)
    b.info.fail("needs the attributes xs (names) and y (a name)");
  const std::vector<std::string>& xs = xs_attr->second.strings;
  const std::string& y = y_attr->second.s;
  if (b.info.has("zs")) b.info.unsupported("the zs attribute");
  if (in.size() != xs.size()) b.info.fail(std::to_string(in.size()) + " inputs for " + std::to_string(xs.size()) + " names in xs");
  std::vector<Array> primals;
  for (std::size_t i = 0; i < in.size(); ++i) primals.push_back(tensor_arg(b, in, i, "each input"));
  if (static_cast<std::size_t>(b.info.n_outputs) != xs.size())
    b.info.fail(std::to_string(b.info.n_outputs) + " outputs for " + std::to_string(xs.size()) + " names in xs");
  auto f = [&](const std::vector<Array>& xv) {
    Scope s;
    s.parent = &scope;
    for (std::size_t i = 0; i < xs.size(); ++i) s.vars[xs[i]] = Value::of(xv[i]);
    run_nodes(p, s, at);
    auto it = s.vars.find(y);
    if (it == s.vars.end() || it->second.type != ValueType::Tensor)
      b.info.fail("y '" + y + "' is not a tensor computed from xs by the nodes before it");
    return std::vector<Array>{it->second.tensor};
  };
  VjpResult r = vjp(f, primals);
  std::vector<Value> out;
  for (Array& g : r.vjp_fn({ones_like(r.outputs[0])})) out.push_back(Value::of(std::move(g)));
  return out;
}

std::vector<Value> eval(const Program& p, Scope& scope) {
  run_nodes(p, scope, p.nodes.size());
  std::vector<Value> result;
  for (const ValueInfo& v : p.outputs) {
    const Value* x = scope.find(v.name);
    if (!x) throw ValueError("[onnx.run] the graph output '" + v.name + "' is never computed");
    result.push_back(*x);
  }
  return result;
}

// The first `end` nodes of p, their outputs into scope (p's constants first).
void run_nodes(const Program& p, Scope& scope, std::size_t end) {
  for (const auto& [name, a] : p.constants) scope.vars[name] = Value::of(a);
  std::vector<Value> vargs;
  std::vector<Array> args;
  for (std::size_t index = 0; index < end; ++index) {
    const BoundNode& b = p.nodes[index];
    vargs.clear();
    for (const std::string& name : b.inputs) {
      if (name.empty()) {
        vargs.emplace_back();
        continue;
      }
      const Value* v = scope.find(name);
      if (!v) throw ValueError("[onnx.run] " + b.info.where() + ": its input '" + name + "' has no value (a model input not given?)");
      vargs.push_back(*v);
    }
    while (!vargs.empty() && vargs.back().type == ValueType::Tensor && !vargs.back().tensor.defined()) vargs.pop_back();
    std::vector<Value> outs;
    try {
      switch (b.control) {
        case Control::If: outs = run_if(b, vargs, scope); break;
        case Control::Loop: outs = run_loop(b, vargs, scope); break;
        case Control::Scan: outs = run_scan(b, vargs, scope); break;
        case Control::SequenceMap: outs = run_sequence_map(b, vargs, scope); break;
        case Control::Gradient: outs = run_gradient(p, index, vargs, scope); break;
        case Control::None:
          if (b.vfn) {
            outs = b.vfn(b.info, vargs);
          } else {
            args.clear();
            for (std::size_t k = 0; k < vargs.size(); ++k) {
              if (vargs[k].type != ValueType::Tensor)
                b.info.fail("input " + std::to_string(k) + " ('" + b.inputs[k] + "') is " + type_name(vargs[k].type) +
                            ", the operator takes tensors");
              args.push_back(vargs[k].tensor);
            }
            for (Array& a : b.fn(b.info, args)) outs.push_back(Value::of(std::move(a)));
          }
          break;
      }
    } catch (const NotImplementedError& e) {
      const std::string w = e.what();
      throw NotImplementedError(w.rfind("[onnx.", 0) == 0 ? w : "[onnx.run] " + b.info.where() + ": " + w);
    } catch (const Error& e) {
      const std::string w = e.what();
      throw ValueError(w.rfind("[onnx.", 0) == 0 ? w : "[onnx.run] " + b.info.where() + ": " + w);
    } catch (const std::bad_alloc&) {  // e.g. a ConstantOfShape whose shape input asks for terabytes
      throw ValueError("[onnx.run] " + b.info.where() + ": out of memory: a result larger than this machine can hold");
    }
    for (std::size_t k = 0; k < b.outputs.size(); ++k) {
      if (b.outputs[k].empty()) continue;
      if (k >= outs.size() || (outs[k].type == ValueType::Tensor && !outs[k].tensor.defined()))
        throw NotImplementedError("[onnx.run] " + b.info.where() + ": output " + std::to_string(k) + " ('" + b.outputs[k] +
                                  "') is not computed by ivy's implementation");
      scope.vars[b.outputs[k]] = outs[k];
    }
  }
}

}  // namespace
}  // namespace detail

std::vector<Value> Model::run_values(const std::vector<Value>& inputs) {
  const detail::Program& p = *program_;
  if (inputs.size() > p.inputs.size())
    throw ValueError("[onnx.run] the model takes " + std::to_string(p.inputs.size()) + " inputs, got " +
                     std::to_string(inputs.size()));
  detail::Scope scope;
  for (std::size_t i = 0; i < p.initializers.size(); ++i)
    scope.vars[p.initializers[i].onnx_name] = Value::of(*initializer_values_[i]);
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const ValueInfo& v = p.inputs[i];
    const Value& x = inputs[i];
    if (x.type == ValueType::Tensor && !x.tensor.defined()) continue;  // left out
    if (x.type != v.type)
      throw ValueError("[onnx.run] input '" + v.name + "' must be " + detail::type_name(v.type) + ", got " +
                       detail::type_name(x.type));
    if (x.type == ValueType::Tensor) check_tensor(v, x.tensor);
    scope.vars[v.name] = x;
  }
  // Operators that create arrays (ConstantOfShape, Range, the random ones) make them where
  // the model runs: the backend of its tensor inputs, else of its variables, else the current one.
  Backend where;
  for (const Value& x : inputs)
    if (!where && x.type == ValueType::Tensor && x.tensor.defined()) where = x.tensor.backend();
  if (!where && !initializer_values_.empty() && initializer_values_[0]->defined()) where = initializer_values_[0]->backend();
  std::unique_ptr<BackendScope> run_here;
  if (where) run_here = std::make_unique<BackendScope>(where);
  return detail::eval(p, scope);
}

std::vector<Array> Model::run(const std::vector<Array>& inputs) {
  std::vector<Value> in;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    if (i < program_->inputs.size() && program_->inputs[i].type != ValueType::Tensor)
      throw ValueError("[onnx.run] input '" + program_->inputs[i].name + "' is " + detail::type_name(program_->inputs[i].type) +
                       ": use run_values");
    in.push_back(Value::of(inputs[i]));
  }
  std::vector<Array> out;
  for (const Value& v : run_values(in)) {
    if (v.type != ValueType::Tensor) throw ValueError("[onnx.run] the model has outputs that are not tensors: use run_values");
    out.push_back(v.tensor);
  }
  return out;
}

std::map<std::string, Array> Model::run(const std::map<std::string, Array>& inputs) {
  std::vector<Array> in(program_->inputs.size());
  std::size_t used = 0;
  for (std::size_t i = 0; i < in.size(); ++i) {
    auto it = inputs.find(program_->inputs[i].name);
    if (it != inputs.end()) in[i] = it->second, ++used;
  }
  if (used != inputs.size())
    for (const auto& [name, x] : inputs) {
      bool known = false;
      for (const auto& v : program_->inputs) known = known || v.name == name;
      if (!known) throw ValueError("[onnx.run] the model has no input '" + name + "'");
    }
  std::vector<Array> out = run(in);
  std::map<std::string, Array> r;
  for (std::size_t i = 0; i < out.size(); ++i) r[program_->outputs[i].name] = out[i];
  return r;
}

Array Model::forward(const Array& x) {
  if (program_->inputs.size() != 1)
    throw ValueError("[onnx.run] forward(x) needs a model of one input; this one has " +
                     std::to_string(program_->inputs.size()) + " (use run)");
  return run(std::vector<Array>{x}).at(0);
}

// ---------------------------------------------------------------- loading
std::shared_ptr<Model> load_from_bytes(const std::string& bytes, const ImportOptions& options) {
  ::onnx::ModelProto m;
  if (!m.ParseFromString(bytes)) throw ValueError("[onnx.import] not an ONNX model (the protobuf does not parse)");
  return detail::make_model(detail::build(m, options.backend ? options.backend : current_backend(), "", nullptr, ""));
}

std::shared_ptr<Model> load(const std::string& path, const ImportOptions& options) {
  const std::string bytes = detail::read_file(path, "onnx.import");
  ::onnx::ModelProto m;
  if (!m.ParseFromString(bytes))
    throw ValueError("[onnx.import] " + path + ": not an ONNX model (the protobuf does not parse)");
  const std::string dir = std::filesystem::path(path).parent_path().string();
  return detail::make_model(detail::build(m, options.backend ? options.backend : current_backend(), path + ": ", &dir, path));
}

Array load_tensor(const std::string& path, Backend backend) {
  const std::string bytes = detail::read_file(path, "onnx.load_tensor");
  ::onnx::TensorProto t;
  if (!t.ParseFromString(bytes)) throw ValueError("[onnx.load_tensor] " + path + ": not a TensorProto");
  return detail::to_array(t, backend ? backend : current_backend(), path);
}

namespace {
Value value_of(const ::onnx::SequenceProto& sp, Backend backend, const std::string& where) {
  if (sp.elem_type() != ::onnx::SequenceProto::TENSOR && sp.tensor_values_size() > 0)
    throw NotImplementedError("[onnx.load_value] " + where + ": only sequences of tensors are supported");
  std::vector<Array> items;
  for (const auto& t : sp.tensor_values()) items.push_back(detail::to_array(t, backend, where));
  return Value::of_sequence(std::move(items));
}
}  // namespace

Value load_value(const std::string& path, ValueType type, Backend backend) {
  const std::string bytes = detail::read_file(path, "onnx.load_value");
  const Backend b = backend ? backend : current_backend();
  if (type == ValueType::Tensor) {
    ::onnx::TensorProto t;
    if (!t.ParseFromString(bytes)) throw ValueError("[onnx.load_value] " + path + ": not a TensorProto");
    return Value::of(detail::to_array(t, b, path));
  }
  if (type == ValueType::Sequence) {
    ::onnx::SequenceProto sp;
    if (!sp.ParseFromString(bytes)) throw ValueError("[onnx.load_value] " + path + ": not a SequenceProto");
    return value_of(sp, b, path);
  }
  ::onnx::OptionalProto op;
  if (!op.ParseFromString(bytes)) throw ValueError("[onnx.load_value] " + path + ": not an OptionalProto");
  if (op.has_tensor_value()) {
    Value v = Value::of(detail::to_array(op.tensor_value(), b, path));
    v.type = ValueType::Optional;
    return v;
  }
  if (op.has_sequence_value()) {
    Value v = value_of(op.sequence_value(), b, path);
    v.type = ValueType::Optional;
    v.holds_sequence = true;
    return v;
  }
  return Value::empty_optional(op.elem_type() == ::onnx::OptionalProto::SEQUENCE);
}

std::map<std::string, std::vector<int>> supported_operators() {
  std::map<std::string, std::vector<int>> r;
  for (const detail::OpEntry& e : detail::op_table()) r[std::string(e.domain[0] ? std::string(e.domain) + "." : "") + e.op_type].push_back(e.since);
  for (auto& [k, v] : r) std::sort(v.begin(), v.end());
  return r;
}

}  // namespace ivy::onnx

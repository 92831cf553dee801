// ONNX model files to ivy::onnx::Model: parsing and checking (Debian's libonnx), tensors to
// arrays, each node bound to the operator function of its domain, type and opset, and the
// evaluation of the node list. The only file of the frontend that sees ONNX's headers.
#include <onnx/checker.h>
#include <onnx/onnx_pb.h>
#include <onnx/shape_inference/implementation.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>
#include <unordered_map>

#include "ivy/onnx.hpp"
#include "onnx_ops.hpp"

namespace ivy::onnx {

namespace detail {

// A node bound to its operator function.
struct BoundNode {
  NodeInfo info;
  OpFn fn = nullptr;
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
  std::vector<Initializer> initializers;
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
Array to_array(const ::onnx::TensorProto& t, Backend backend, const std::string& where) {
  if (t.data_location() == ::onnx::TensorProto::EXTERNAL)
    throw NotImplementedError("[onnx.import] " + where + ": tensors with external data are not supported yet");
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
  if (t.has_raw_data()) {
    if (t.raw_data().size() != bytes)
      import_fail(where, ": raw_data holds " + std::to_string(t.raw_data().size()) + " bytes, the dims and dtype say " +
                             std::to_string(bytes));
    buf.assign(t.raw_data().begin(), t.raw_data().end());  // x86-64 and ONNX are both little-endian
  } else {
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
  if (v.type().has_sequence_type() || v.type().has_map_type() || v.type().has_optional_type() ||
      v.type().has_sparse_tensor_type())
    throw NotImplementedError("[onnx.import] " + ctx + "the graph input or output '" + v.name() +
                              "' is a sequence, map, optional or sparse tensor: not supported yet");
  if (v.type().has_tensor_type()) {
    const auto& tt = v.type().tensor_type();
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

Attribute to_attribute(const ::onnx::AttributeProto& a, const NodeInfo& node, Backend backend) {
  Attribute r;
  if (!a.ref_attr_name().empty()) node.unsupported("attribute references (functions) are not supported");
  switch (a.type()) {
    case ::onnx::AttributeProto::FLOAT: r.kind = Attribute::Float, r.f = a.f(); break;
    case ::onnx::AttributeProto::INT: r.kind = Attribute::Int, r.i = a.i(); break;
    case ::onnx::AttributeProto::STRING: r.kind = Attribute::String, r.s = a.s(); break;
    case ::onnx::AttributeProto::TENSOR:
      r.kind = Attribute::Tensor;
      r.t = to_array(a.t(), backend, node.where() + " attribute '" + a.name() + "'");
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

std::shared_ptr<Program> build(::onnx::ModelProto& m, Backend backend, const std::string& ctx) {
  try {
    ::onnx::checker::check_model(m);
  } catch (const std::exception& e) {
    import_fail(ctx, std::string("the model fails ONNX's checker: ") + e.what());
  }
  try {  // lenient: the importer does not need the shapes, so an inference error is not fatal
    ::onnx::shape_inference::InferShapes(m);
  } catch (const std::exception&) {
  }
  auto p = std::make_shared<Program>();
  p->producer = m.producer_name() + (m.producer_version().empty() ? "" : " " + m.producer_version());
  std::unordered_map<std::string, int> opsets;
  for (const auto& o : m.opset_import()) opsets[o.domain() == "ai.onnx" ? "" : o.domain()] = static_cast<int>(o.version());
  p->opset = opsets.count("") ? opsets[""] : 0;
  const ::onnx::GraphProto& g = m.graph();

  std::set<std::string> init_names, taken;
  for (const auto& t : g.initializer()) {
    Initializer in;
    in.onnx_name = t.name();
    in.value = to_array(t, backend, "initializer '" + t.name() + "'");
    in.parameter = is_floating(in.value.dtype());
    in.module_name = module_name(t.name(), taken);
    init_names.insert(t.name());
    p->initializers.push_back(std::move(in));
  }
  if (g.sparse_initializer_size() > 0) throw NotImplementedError("[onnx.import] " + ctx + "sparse initializers are not supported");
  for (const auto& v : g.input())
    if (!init_names.count(v.name())) p->inputs.push_back(value_info(v, ctx));
  for (const auto& v : g.output()) p->outputs.push_back(value_info(v, ctx));

  std::vector<std::string> missing;
  for (int k = 0; k < g.node_size(); ++k) {
    const ::onnx::NodeProto& nd = g.node(k);
    BoundNode b;
    b.info.name = nd.name().empty() ? "#" + std::to_string(k) : nd.name();
    b.info.op_type = nd.op_type();
    b.info.domain = nd.domain() == "ai.onnx" ? "" : nd.domain();
    b.info.opset = opsets.count(b.info.domain) ? opsets[b.info.domain] : 0;
    b.info.n_outputs = nd.output_size();
    const OpEntry* e = find_op(b.info.domain, b.info.op_type, b.info.opset);
    if (!e) {
      missing.push_back((b.info.domain.empty() ? "" : b.info.domain + ".") + b.info.op_type + " (opset " +
                        std::to_string(b.info.opset) + ", node '" + b.info.name + "')");
      continue;
    }
    b.fn = e->fn;
    b.info.since = e->since;
    for (const auto& a : nd.attribute()) b.info.attrs[a.name()] = to_attribute(a, b.info, backend);
    b.inputs.assign(nd.input().begin(), nd.input().end());
    b.outputs.assign(nd.output().begin(), nd.output().end());
    p->nodes.push_back(std::move(b));
  }
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
}
Model::~Model() = default;
const std::vector<ValueInfo>& Model::inputs() const { return program_->inputs; }
const std::vector<ValueInfo>& Model::outputs() const { return program_->outputs; }
int Model::opset() const { return program_->opset; }
std::string Model::producer() const { return program_->producer; }
std::string Model::describe() const {
  return "onnx opset " + std::to_string(program_->opset) + ", " + std::to_string(program_->nodes.size()) + " nodes";
}

std::vector<Array> Model::run(const std::vector<Array>& inputs) {
  const detail::Program& p = *program_;
  if (inputs.size() > p.inputs.size())
    throw ValueError("[onnx.run] the model takes " + std::to_string(p.inputs.size()) + " inputs, got " +
                     std::to_string(inputs.size()));
  std::unordered_map<std::string, Array> env;
  for (const auto& in : p.initializers) env[in.onnx_name] = in.parameter ? param(in.module_name) : buffer(in.module_name);
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const ValueInfo& v = p.inputs[i];
    const Array& x = inputs[i];
    if (!x.defined()) continue;
    if (x.dtype() != v.dtype)
      throw ValueError("[onnx.run] input '" + v.name + "' must be " + dtype_name(v.dtype) + ", got " + dtype_name(x.dtype()));
    if (v.has_shape) {
      bool ok = static_cast<std::size_t>(x.ndim()) == v.dims.size();
      for (std::size_t d = 0; ok && d < v.dims.size(); ++d) ok = v.dims[d] < 0 || v.dims[d] == x.shape()[d];
      if (!ok) {
        std::string want = "(";
        for (std::size_t d = 0; d < v.dims.size(); ++d)
          want += (d ? ", " : "") + (v.dims[d] >= 0 ? std::to_string(v.dims[d]) : v.dim_names[d].empty() ? "?" : v.dim_names[d]);
        throw ValueError("[onnx.run] input '" + v.name + "' must have shape " + want + (v.dims.size() == 1 ? ",)" : ")") +
                         ", got " + x.shape().str());
      }
    }
    env[v.name] = x;
  }
  std::vector<Array> args;
  for (const detail::BoundNode& b : p.nodes) {
    args.clear();
    for (const std::string& name : b.inputs) {
      if (name.empty()) {
        args.emplace_back();
        continue;
      }
      auto it = env.find(name);
      if (it == env.end() || !it->second.defined())
        throw ValueError("[onnx.run] " + b.info.where() + ": its input '" + name + "' has no value (a model input not given?)");
      args.push_back(it->second);
    }
    while (!args.empty() && !args.back().defined()) args.pop_back();  // trailing absent optional inputs
    std::vector<Array> outs;
    try {
      outs = b.fn(b.info, args);
    } catch (const NotImplementedError& e) {
      const std::string w = e.what();
      throw NotImplementedError(w.rfind("[onnx.", 0) == 0 ? w : "[onnx.run] " + b.info.where() + ": " + w);
    } catch (const Error& e) {
      const std::string w = e.what();
      throw ValueError(w.rfind("[onnx.", 0) == 0 ? w : "[onnx.run] " + b.info.where() + ": " + w);
    }
    for (std::size_t k = 0; k < b.outputs.size(); ++k) {
      if (b.outputs[k].empty()) continue;
      if (k >= outs.size() || !outs[k].defined())
        throw NotImplementedError("[onnx.run] " + b.info.where() + ": output " + std::to_string(k) + " ('" + b.outputs[k] +
                                  "') is not computed by ivy's implementation");
      env[b.outputs[k]] = outs[k];
    }
  }
  std::vector<Array> result;
  for (const ValueInfo& v : p.outputs) {
    auto it = env.find(v.name);
    if (it == env.end()) throw ValueError("[onnx.run] the graph output '" + v.name + "' is never computed");
    result.push_back(it->second);
  }
  return result;
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
  return detail::make_model(detail::build(m, options.backend ? options.backend : current_backend(), ""));
}

std::shared_ptr<Model> load(const std::string& path, const ImportOptions& options) {
  const std::string bytes = detail::read_file(path, "onnx.import");
  ::onnx::ModelProto m;
  if (!m.ParseFromString(bytes))
    throw ValueError("[onnx.import] " + path + ": not an ONNX model (the protobuf does not parse)");
  return detail::make_model(detail::build(m, options.backend ? options.backend : current_backend(), path + ": "));
}

Array load_tensor(const std::string& path, Backend backend) {
  const std::string bytes = detail::read_file(path, "onnx.load_tensor");
  ::onnx::TensorProto t;
  if (!t.ParseFromString(bytes)) throw ValueError("[onnx.load_tensor] " + path + ": not a TensorProto");
  return detail::to_array(t, backend ? backend : current_backend(), path);
}

std::map<std::string, std::vector<int>> supported_operators() {
  std::map<std::string, std::vector<int>> r;
  for (const detail::OpEntry& e : detail::op_table()) r[std::string(e.domain[0] ? std::string(e.domain) + "." : "") + e.op_type].push_back(e.since);
  for (auto& [k, v] : r) std::sort(v.begin(), v.end());
  return r;
}

}  // namespace ivy::onnx

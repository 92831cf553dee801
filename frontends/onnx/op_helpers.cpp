// What the ONNX operator functions share: typed attribute reads with errors that name the
// node, input checks, host reads of small arrays, and ONNX's dtype codes.
#include <cmath>

#include "onnx_ops.hpp"

namespace ivy::onnx::detail {

namespace {
const char* kind_name(Attribute::Kind k) {
  switch (k) {
    case Attribute::Float: return "float";
    case Attribute::Int: return "int";
    case Attribute::String: return "string";
    case Attribute::Tensor: return "tensor";
    case Attribute::Floats: return "floats";
    case Attribute::Ints: return "ints";
    case Attribute::Strings: return "strings";
  }
  return "?";
}
}  // namespace

std::string NodeInfo::where() const {
  return "node '" + name + "' (" + (domain.empty() ? "" : domain + ".") + op_type + ", opset " +
         std::to_string(opset) + ")";
}
void NodeInfo::fail(const std::string& what) const { throw ValueError("[onnx.import] " + where() + ": " + what); }
void NodeInfo::unsupported(const std::string& what) const {
  throw NotImplementedError("[onnx.import] " + where() + ": " + what);
}

namespace {
const Attribute* find(const NodeInfo& n, const char* attr, Attribute::Kind want) {
  auto it = n.attrs.find(attr);
  if (it == n.attrs.end()) return nullptr;
  if (it->second.kind != want)
    n.fail(std::string("attribute '") + attr + "' is " + kind_name(it->second.kind) + ", expected " + kind_name(want));
  return &it->second;
}
const Attribute& need(const NodeInfo& n, const char* attr, Attribute::Kind want) {
  const Attribute* a = find(n, attr, want);
  if (!a) n.fail(std::string("needs the attribute '") + attr + "'");
  return *a;
}
}  // namespace

std::int64_t NodeInfo::i(const char* attr, std::int64_t def) const {
  const Attribute* a = find(*this, attr, Attribute::Int);
  return a ? a->i : def;
}
std::int64_t NodeInfo::i(const char* attr) const { return need(*this, attr, Attribute::Int).i; }
double NodeInfo::f(const char* attr, double def) const {
  const Attribute* a = find(*this, attr, Attribute::Float);
  return a ? a->f : def;
}
std::string NodeInfo::s(const char* attr, const std::string& def) const {
  const Attribute* a = find(*this, attr, Attribute::String);
  return a ? a->s : def;
}
std::vector<std::int64_t> NodeInfo::ints(const char* attr, const std::vector<std::int64_t>& def) const {
  const Attribute* a = find(*this, attr, Attribute::Ints);
  return a ? a->ints : def;
}
std::vector<std::int64_t> NodeInfo::ints(const char* attr) const { return need(*this, attr, Attribute::Ints).ints; }
std::vector<double> NodeInfo::floats(const char* attr, const std::vector<double>& def) const {
  const Attribute* a = find(*this, attr, Attribute::Floats);
  return a ? a->floats : def;
}
Array NodeInfo::tensor(const char* attr) const { return need(*this, attr, Attribute::Tensor).t; }

void need_inputs(const NodeInfo& n, const std::vector<Array>& in, int lo, int hi) {
  const int k = static_cast<int>(in.size());
  if (k < lo || (hi >= 0 && k > hi))
    n.fail("takes " + (hi == lo ? std::to_string(lo) : std::to_string(lo) + " to " + (hi < 0 ? "any" : std::to_string(hi))) +
           " inputs, got " + std::to_string(k));
  for (int i = 0; i < lo; ++i)
    if (!in[static_cast<std::size_t>(i)].defined()) n.fail("input " + std::to_string(i) + " is required");
}

std::vector<std::int64_t> int_values(const NodeInfo& n, const Array& a, const char* what) {
  if (!a.defined()) n.fail(std::string(what) + " is missing");
  if (!is_integer(a.dtype()))
    n.fail(std::string(what) + " must be an integer tensor, got " + dtype_name(a.dtype()));
  return astype(a, int64).to_vector<std::int64_t>();
}

std::vector<double> float_values(const NodeInfo& n, const Array& a, const char* what) {
  if (!a.defined()) n.fail(std::string(what) + " is missing");
  if (is_complex(a.dtype())) n.fail(std::string(what) + " must be real, got " + dtype_name(a.dtype()));
  return astype(a, float64).to_vector<double>();
}

std::int64_t norm_axis(const NodeInfo& n, std::int64_t axis, std::int64_t rank) {
  if (axis < -rank || axis >= std::max<std::int64_t>(rank, 1))
    n.fail("axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank));
  return axis < 0 ? axis + rank : axis;
}

Array int64_array(const std::vector<std::int64_t>& v, const Array& like) {
  return asarray(static_cast<const void*>(v.data()), int64, Shape{static_cast<std::int64_t>(v.size())}, int64,
                 like.device(), like.backend());
}

std::int64_t size_from_value(const NodeInfo& n, double v, const char* what) {
  constexpr double kMax = 1099511627776.0;  // 2^40
  if (!(v >= 0 && v <= kMax)) n.fail(std::string(what) + " " + std::to_string(v) + " is not a size in [0, 2^40]");
  return static_cast<std::int64_t>(v);
}

DType dtype_of_code(const NodeInfo& n, std::int64_t code) {
  // TensorProto.DataType: 1 float, 2 uint8, 3 int8, 4 uint16, 5 int16, 6 int32, 7 int64,
  // 8 string, 9 bool, 10 float16, 11 double, 12 uint32, 13 uint64, 14 complex64,
  // 15 complex128, 16 bfloat16
  switch (code) {
    case 1: return float32;
    case 2: return uint8;
    case 3: return int8;
    case 4: return uint16;
    case 5: return int16;
    case 6: return int32;
    case 7: return int64;
    case 9: return bool_;
    case 10: return float16;
    case 11: return float64;
    case 12: return uint32;
    case 13: return uint64;
    case 14: return complex64;
    case 15: return complex128;
    case 16: return bfloat16;
    case 8: n.unsupported("ivy has no string dtype");
    default: break;
  }
  n.fail("unknown tensor data type " + std::to_string(code));
}

// A per-spatial-axis attribute: `def` on every axis when absent, else exactly d values.
Dims per_axis(const NodeInfo& n, const char* name, std::int64_t d, std::int64_t def) {
  const std::vector<std::int64_t> v = n.ints(name, {});
  if (v.empty()) {
    Dims r;
    for (std::int64_t i = 0; i < d; ++i) r.push_back(def);
    return r;
  }
  if (static_cast<std::int64_t>(v.size()) != d)
    n.fail(std::string(name) + " has " + std::to_string(v.size()) + " values for " + std::to_string(d) +
           " spatial axes");
  return Dims(v.begin(), v.end());
}

// (begin, end) padding per axis from auto_pad and pads, for windows spanning `spans`
// elements moving by `strides` over `sizes` (SAME_*: ceil(size / stride) outputs).
Pads window_pads(const NodeInfo& n, const Dims& sizes, const Dims& spans, const Dims& strides) {
  const std::size_t d = sizes.size();
  const std::string mode = n.s("auto_pad", "NOTSET");
  Pads p(d, {0, 0});
  if (mode == "NOTSET" || mode.empty()) {
    const std::vector<std::int64_t> v = n.ints("pads", std::vector<std::int64_t>(2 * d, 0));
    if (v.size() != 2 * d) n.fail("pads has " + std::to_string(v.size()) + " values for " +
                                  std::to_string(d) + " spatial axes");
    for (std::size_t i = 0; i < d; ++i) {
      if (v[i] < 0 || v[d + i] < 0) n.fail("pads " + Dims(v.begin(), v.end()).str() + " must not be negative");
      p[i] = {v[i], v[d + i]};
    }
  } else if (mode == "SAME_UPPER" || mode == "SAME_LOWER") {
    for (std::size_t i = 0; i < d; ++i) {
      const std::int64_t out = (sizes[i] + strides[i] - 1) / strides[i];
      const std::int64_t total = std::max<std::int64_t>(0, (out - 1) * strides[i] + spans[i] - sizes[i]);
      const std::int64_t small = total / 2;
      p[i] = mode == "SAME_UPPER" ? std::pair{small, total - small} : std::pair{total - small, small};
    }
  } else if (mode != "VALID") {
    n.fail("unknown auto_pad \"" + mode + "\"");
  }
  return p;
}

// Window spans dilation * (k - 1) + 1.
Dims spans_of(const Dims& k, const Dims& dil) {
  Dims s;
  for (std::size_t i = 0; i < k.size(); ++i) s.push_back(dil[i] * (k[i] - 1) + 1);
  return s;
}

Dims sizes_of(const Array& x) {
  Dims s;
  for (std::int64_t i = 2; i < x.ndim(); ++i) s.push_back(x.shape()[i]);
  return s;
}

}  // namespace ivy::onnx::detail

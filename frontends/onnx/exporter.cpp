// ONNX out: an ivy::Graph as an ONNX model at opset 13 to 17. Each primitive of ops.def
// becomes one ONNX node or a small composition of them, written for the graph's static
// shapes (a traced graph fixes every shape), in the dtypes ONNX's operators accept; the
// result passes ONNX's checker and strict shape inference before it is returned.
#include <onnx/checker.h>
#include <onnx/onnx_pb.h>
#include <onnx/shape_inference/implementation.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <functional>
#include <numbers>
#include <optional>
#include <set>
#include <unordered_map>

#include "core/atomic_file.hpp"
#include "ivy/ivy.hpp"
#include "ivy/onnx.hpp"

namespace ivy::onnx {

namespace {

using ::onnx::TensorProto;
using I64s = std::vector<std::int64_t>;

constexpr int kMinExportOpset = 13;
constexpr int kMaxExportOpset = 17;

[[noreturn]] void export_fail(const std::string& what) { throw ValueError("[onnx.export] " + what); }

int onnx_code(DType d) {
  switch (d) {
    case DType::bool_: return TensorProto::BOOL;
    case DType::int8: return TensorProto::INT8;
    case DType::int16: return TensorProto::INT16;
    case DType::int32: return TensorProto::INT32;
    case DType::int64: return TensorProto::INT64;
    case DType::uint8: return TensorProto::UINT8;
    case DType::uint16: return TensorProto::UINT16;
    case DType::uint32: return TensorProto::UINT32;
    case DType::uint64: return TensorProto::UINT64;
    case DType::float16: return TensorProto::FLOAT16;
    case DType::bfloat16: return TensorProto::BFLOAT16;
    case DType::float32: return TensorProto::FLOAT;
    case DType::float64: return TensorProto::DOUBLE;
    case DType::complex64: return TensorProto::COMPLEX64;
    case DType::complex128: return TensorProto::COMPLEX128;
  }
  return TensorProto::UNDEFINED;
}

// The unsigned dtype of an integer dtype's width.
DType unsigned_of(DType d) {
  switch (itemsize(d)) {
    case 1: return DType::uint8;
    case 2: return DType::uint16;
    case 4: return DType::uint32;
    default: return DType::uint64;
  }
}

// Why a primitive has no ONNX form at opsets 13 to 17 (nullptr: it has one).
const char* unexportable_reason(OpId op) {
  switch (op) {
    case OpId::cholesky:
    case OpId::inv:
    case OpId::solve:
    case OpId::eigh:
    case OpId::eigvalsh:
    case OpId::eig:
    case OpId::eigvals:
    case OpId::svd:
    case OpId::svdvals:
    case OpId::qr:
      return "ONNX (to opset 17) has no matrix factorization or solver operator (only Det), and these need pivoting or "
             "iterations that depend on the data";
    case OpId::fft_c2c:
    case OpId::fft_r2c:
    case OpId::fft_c2r:
      return "its input or output is complex, and no ONNX operator computes on complex tensors (DFT-17 stores them as a "
             "trailing axis of 2 reals, which every complex value of the graph would have to use)";
    case OpId::nextafter:
      return "it steps the floating-point bit pattern, and ONNX has no bit reinterpretation of floats";
    case OpId::conj:
    case OpId::real:
    case OpId::imag:
      return nullptr;  // real inputs only (complex ones are refused like every complex value)
    default:
      return nullptr;
  }
}

// Builds the GraphProto: one ONNX name per ivy value, constants as initializers, and helper
// nodes with fresh names.
class Builder {
 public:
  Builder(::onnx::GraphProto* g, int opset) : g_(g), opset_(opset) {}

  int opset() const { return opset_; }
  std::string fresh(const std::string& hint) { return hint + "_" + std::to_string(counter_++); }

  // A node; returns its output names (fresh ones, n_out of them).
  std::vector<std::string> node(const char* op, const std::vector<std::string>& in, int n_out,
                                const std::function<void(::onnx::NodeProto&)>& attrs = {}) {
    auto* n = g_->add_node();
    n->set_op_type(op);
    n->set_name(fresh(std::string(op)));
    for (const auto& i : in) n->add_input(i);
    std::vector<std::string> out;
    for (int k = 0; k < n_out; ++k) {
      out.push_back(fresh("t"));
      n->add_output(out.back());
    }
    if (attrs) attrs(*n);
    return out;
  }
  std::string op(const char* op, const std::vector<std::string>& in, const std::function<void(::onnx::NodeProto&)>& attrs = {}) {
    return node(op, in, 1, attrs)[0];
  }

  // Constants, as initializers (one per distinct content).
  std::string tensor(const void* data, DType d, const Shape& shape, const std::string& name = "") {
    const std::size_t bytes = static_cast<std::size_t>(shape.numel()) * itemsize(d);
    std::string raw(static_cast<const char*>(data), bytes);
    std::string key = std::to_string(static_cast<int>(d)) + ":" + shape.str() + ":" + raw;
    if (name.empty()) {
      auto it = cache_.find(key);
      if (it != cache_.end()) return it->second;
    }
    auto* t = g_->add_initializer();
    const std::string n = name.empty() ? fresh("c") : name;
    t->set_name(n);
    t->set_data_type(onnx_code(d));
    for (auto s : shape) t->add_dims(s);
    t->set_raw_data(std::move(raw));  // x86-64 and ONNX's raw_data are both little-endian
    if (name.empty()) cache_.emplace(std::move(key), n);
    return n;
  }
  // The same data as a Constant node (not an initializer: importers do not take it for a variable).
  std::string constant_node(const void* data, DType d, const Shape& shape) {
    return op("Constant", {}, [&](::onnx::NodeProto& n) {
      auto* a = n.add_attribute();
      a->set_name("value");
      a->set_type(::onnx::AttributeProto::TENSOR);
      auto* t = a->mutable_t();
      t->set_data_type(onnx_code(d));
      for (auto s : shape) t->add_dims(s);
      t->set_raw_data(std::string(static_cast<const char*>(data), static_cast<std::size_t>(shape.numel()) * itemsize(d)));
    });
  }
  std::string ints(const I64s& v) { return tensor(v.data(), DType::int64, Shape{static_cast<std::int64_t>(v.size())}); }
  std::string int_scalar(std::int64_t v) { return tensor(&v, DType::int64, Shape{}); }
  // A 0-d constant of dtype d holding v (converted as a C++ cast would).
  std::string scalar(double v, DType d) {
    unsigned char buf[8] = {};
    write_element(buf, v, d);
    return tensor(buf, d, Shape{});
  }
  std::string scalar_i(std::int64_t v, DType d) {
    unsigned char buf[8] = {};
    write_int(buf, v, d);
    return tensor(buf, d, Shape{});
  }
  // A tensor of `shape` filled with v (ConstantOfShape: no data of the size of the result).
  std::string filled(const Shape& shape, double v, DType d) {
    unsigned char buf[8] = {};
    write_element(buf, v, d);
    return constant_of_shape(shape, buf, d);
  }
  // The same for an integer or bool value, exactly (an int64's bits for any integer dtype).
  std::string filled_int(const Shape& shape, std::int64_t v, DType d) {
    unsigned char buf[8] = {};
    write_int(buf, v, d);
    return constant_of_shape(shape, buf, d);
  }
  std::string constant_of_shape(const Shape& shape, const unsigned char* element, DType d) {
    I64s dims(shape.begin(), shape.end());
    return op("ConstantOfShape", {ints(dims)}, [&](::onnx::NodeProto& n) {
      auto* a = n.add_attribute();
      a->set_name("value");
      a->set_type(::onnx::AttributeProto::TENSOR);
      auto* t = a->mutable_t();
      t->set_data_type(onnx_code(d));
      t->add_dims(1);
      t->set_raw_data(std::string(reinterpret_cast<const char*>(element), itemsize(d)));
    });
  }
  std::string cast(const std::string& x, DType from, DType to) {
    if (from == to) return x;
    return op("Cast", {x}, [&](auto& n) { attr_i(n, "to", onnx_code(to)); });
  }

  static void attr_i(::onnx::NodeProto& n, const char* name, std::int64_t v) {
    auto* a = n.add_attribute();
    a->set_name(name);
    a->set_type(::onnx::AttributeProto::INT);
    a->set_i(v);
  }
  static void attr_f(::onnx::NodeProto& n, const char* name, double v) {
    auto* a = n.add_attribute();
    a->set_name(name);
    a->set_type(::onnx::AttributeProto::FLOAT);
    a->set_f(static_cast<float>(v));
  }
  static void attr_s(::onnx::NodeProto& n, const char* name, const std::string& v) {
    auto* a = n.add_attribute();
    a->set_name(name);
    a->set_type(::onnx::AttributeProto::STRING);
    a->set_s(v);
  }
  static void attr_is(::onnx::NodeProto& n, const char* name, const I64s& v) {
    auto* a = n.add_attribute();
    a->set_name(name);
    a->set_type(::onnx::AttributeProto::INTS);
    for (auto x : v) a->add_ints(x);
  }

 private:
  static void write_int(unsigned char* buf, std::int64_t v, DType d) {
    switch (d) {
      case DType::bool_: { const std::uint8_t b = v != 0; std::memcpy(buf, &b, 1); break; }
      case DType::int8: { const auto b = static_cast<std::int8_t>(v); std::memcpy(buf, &b, 1); break; }
      case DType::uint8: { const auto b = static_cast<std::uint8_t>(v); std::memcpy(buf, &b, 1); break; }
      case DType::int16: { const auto b = static_cast<std::int16_t>(v); std::memcpy(buf, &b, 2); break; }
      case DType::uint16: { const auto b = static_cast<std::uint16_t>(v); std::memcpy(buf, &b, 2); break; }
      case DType::int32: { const auto b = static_cast<std::int32_t>(v); std::memcpy(buf, &b, 4); break; }
      case DType::uint32: { const auto b = static_cast<std::uint32_t>(v); std::memcpy(buf, &b, 4); break; }
      case DType::int64: std::memcpy(buf, &v, 8); break;
      case DType::uint64: { const auto b = static_cast<std::uint64_t>(v); std::memcpy(buf, &b, 8); break; }
      default: write_element(buf, static_cast<double>(v), d); break;
    }
  }
  static void write_element(unsigned char* buf, double v, DType d) {
    switch (d) {
      case DType::float32: { const auto f = static_cast<float>(v); std::memcpy(buf, &f, 4); break; }
      case DType::float64: std::memcpy(buf, &v, 8); break;
      case DType::float16:
      case DType::bfloat16: {
        // through ivy's own conversion of a one-element array
        Array a = astype(asarray(std::vector<double>{v}), d);
        copy_to_host(a, buf);
        break;
      }
      default: write_int(buf, static_cast<std::int64_t>(v), d); break;
    }
  }

  ::onnx::GraphProto* g_;
  int opset_;
  int counter_ = 0;
  std::unordered_map<std::string, std::string> cache_;
};

// One node of the ivy graph, written as ONNX nodes.
class NodeWriter {
 public:
  NodeWriter(Builder& b, const Graph& g, const Graph::Node& n, std::vector<std::string>& names)
      : b_(b), g_(g), n_(n), names_(names) {}

  void write();

 private:
  const Graph::Value& in_v(std::size_t i) const { return g_.value(n_.inputs[i]); }
  const Graph::Value& out_v(std::size_t i = 0) const { return g_.value(n_.outputs[i]); }
  DType in_t(std::size_t i) const { return in_v(i).dtype; }
  DType out_t(std::size_t i = 0) const { return out_v(i).dtype; }
  const Shape& in_s(std::size_t i) const { return in_v(i).shape; }
  const Shape& out_s(std::size_t i = 0) const { return out_v(i).shape; }
  const std::string& in(std::size_t i) const { return names_[static_cast<std::size_t>(n_.inputs[i])]; }
  // Input i cast to d.
  std::string in_as(std::size_t i, DType d) { return b_.cast(in(i), in_t(i), d); }
  void set_out(std::size_t i, const std::string& name) { names_[static_cast<std::size_t>(n_.outputs[i])] = name; }
  template <class S>
  const S& at() const { return n_.attrs.get<S>(); }
  const char* name() const { return op_info(n_.op).name; }
  [[noreturn]] void fail(const std::string& what) const {
    export_fail("primitive '" + std::string(name()) + "' (node " + std::to_string(&n_ - g_.nodes.data()) + "): " + what);
  }

  std::string one(const char* op, const std::vector<std::string>& ins,
                  const std::function<void(::onnx::NodeProto&)>& attrs = {}) {
    return b_.op(op, ins, attrs);
  }
  std::string un(const char* op, const std::string& x) { return b_.op(op, {x}); }
  std::string bin(const char* op, const std::string& a, const std::string& c) { return b_.op(op, {a, c}); }
  std::string where(const std::string& c, const std::string& a, const std::string& e) { return b_.op("Where", {c, a, e}); }
  // Add, Sub, Mul, Div, Pow or MatMul in a dtype ONNX's schema accepts for it at this opset:
  // 8- and 16-bit integers (before opset 14 for the first four; always for MatMul) and every
  // integer but int32 and int64 for Pow are computed in 64 bits and cast back, which wraps
  // as ivy's own integer arithmetic does.
  std::string arith(const char* op, const std::string& a, const std::string& c, DType d) {
    const std::string_view o(op);
    bool widen = false;
    if (is_integer(d)) {
      if (o == "Pow") widen = d != DType::int32 && d != DType::int64;
      else if (o == "MatMul") widen = itemsize(d) < 4;
      else widen = itemsize(d) < 4 && b_.opset() < 14;
    }
    if (!widen) return bin(op, a, c);
    const DType w = is_unsigned_int(d) && o != "Pow" ? DType::uint64 : DType::int64;
    return b_.cast(bin(op, b_.cast(a, d, w), b_.cast(c, d, w)), w, d);
  }
  std::string k(double v, DType d) { return b_.scalar(v, d); }

  // x < 0, or x a negative zero (floats); false for unsigned integers.
  std::string signbit(const std::string& x, DType d) {
    if (is_unsigned_int(d)) return b_.filled(Shape{}, 0, DType::bool_);
    std::string neg = bin("Less", x, k(0, d));
    if (!is_real_floating(d)) return neg;
    std::string zero_neg = bin("And", bin("Equal", x, k(0, d)), bin("Less", un("Reciprocal", x), k(0, d)));
    return bin("Or", neg, zero_neg);
  }
  std::string log1p(const std::string& x, DType d) {
    std::string u = bin("Add", x, k(1, d));
    std::string general = bin("Div", bin("Mul", un("Log", u), x), bin("Sub", u, k(1, d)));
    return where(bin("Equal", u, k(1, d)), x, where(un("IsInf", u), u, general));
  }
  std::string expm1(const std::string& x, DType d) {
    std::string u = un("Exp", x);
    std::string um1 = bin("Sub", u, k(1, d));
    std::string general = bin("Div", bin("Mul", um1, x), un("Log", u));
    return where(bin("Equal", u, k(1, d)), x,
                 where(un("IsInf", u), um1, where(bin("Equal", u, k(0, d)), k(-1, d), general)));
  }
  // The bitwise operation of two integer arrays at opsets without Bitwise* (bit by bit over
  // an extra trailing axis of the bit positions; BitShift takes unsigned integers only).
  std::string bitwise(const std::string& a, const std::string& c, DType d, const char* how);
  std::string bitwise_int64(const std::string& a, const std::string& c, std::int64_t bits, bool sign, const char* how);
  std::string reduce(const char* op, const std::string& x, const std::optional<Dims>& axes, bool keepdims);
  I64s reduced_axes(const std::optional<Dims>& axes) const;
  std::string reshape(const std::string& x, const Shape& s) {
    I64s dims(s.begin(), s.end());
    return one("Reshape", {x, b_.ints(dims)});
  }

  void elementwise();
  void structural();

  Builder& b_;
  const Graph& g_;
  const Graph::Node& n_;
  std::vector<std::string>& names_;
};

// The bitwise operation of a and c, int64 arrays holding `bits`-bit values (signed: the top
// bit is the sign), bit by bit over a trailing axis of bit positions: bit k < top of x is
// floor(x / 2^k) mod 2 (Mod with fmod=0 floors, so a negative x gives its two's-complement
// bits); the sign bit weighs -2^(bits-1). bits <= 32, so every product fits in int64.
std::string NodeWriter::bitwise_int64(const std::string& a, const std::string& c, std::int64_t bits, bool sign, const char* how) {
  const DType w = DType::int64;
  const std::int64_t plain = sign ? bits - 1 : bits;
  I64s pw;
  for (std::int64_t i = 0; i < plain; ++i) pw.push_back(std::int64_t{1} << i);
  const std::string p = b_.ints(pw);
  I64s all = pw;
  if (sign) all.push_back(-(std::int64_t{1} << (bits - 1)));
  const std::string weights = b_.ints(all);
  auto bits_of = [&](const std::string& x) {
    std::string xx = one("Unsqueeze", {x, b_.ints({-1})});
    std::string low = bin("Mod", bin("Div", bin("Sub", xx, bin("Mod", xx, p)), p), k(2, w));
    if (!sign) return low;
    std::string top = b_.cast(bin("Less", xx, k(0, w)), DType::bool_, w);
    return one("Concat", {low, top}, [](auto& n) { Builder::attr_i(n, "axis", -1); });
  };
  const std::string_view h(how);
  std::string ba = bits_of(a), bc = bits_of(c), r;
  if (h == "and") r = bin("Mul", ba, bc);
  else if (h == "or") r = bin("Sub", bin("Add", ba, bc), bin("Mul", ba, bc));
  else r = bin("Mod", bin("Add", ba, bc), k(2, w));
  return one("ReduceSum", {bin("Mul", r, weights), b_.ints({-1})}, [](auto& n) { Builder::attr_i(n, "keepdims", 0); });
}

std::string NodeWriter::bitwise(const std::string& a, const std::string& c, DType d, const char* how) {
  const DType w = DType::int64;
  if (itemsize(d) < 8) {
    const std::int64_t bits = static_cast<std::int64_t>(itemsize(d)) * 8;
    return b_.cast(bitwise_int64(b_.cast(a, d, w), b_.cast(c, d, w), bits, !is_unsigned_int(d), how), w, d);
  }
  // 64 bits: as int64 (uint64 wraps there and back), split into a low unsigned and a high
  // signed 32-bit half: x = hi * 2^32 + lo, lo = x mod 2^32
  std::string x = b_.cast(a, d, w), y = b_.cast(c, d, w);
  const std::string two32 = k(4294967296.0, w);
  auto lo = [&](const std::string& v) { return bin("Mod", v, two32); };
  auto hi = [&](const std::string& v, const std::string& l) { return bin("Div", bin("Sub", v, l), two32); };
  std::string lx = lo(x), ly = lo(y);
  std::string r_lo = bitwise_int64(lx, ly, 32, false, how);
  std::string r_hi = bitwise_int64(hi(x, lx), hi(y, ly), 32, true, how);
  return b_.cast(bin("Add", bin("Mul", r_hi, two32), r_lo), w, d);
}

// The axes a reduction of input 0 names, as a list (every axis when absent).
I64s NodeWriter::reduced_axes(const std::optional<Dims>& axes) const {
  if (axes) return I64s(axes->begin(), axes->end());
  I64s all;
  for (std::size_t i = 0; i < in_s(0).size(); ++i) all.push_back(static_cast<std::int64_t>(i));
  return all;
}

// A Reduce* node over `axes` (absent: every axis; empty: none), in the form of the opset:
// ReduceSum takes its axes as an input from 13 on, the others as an attribute up to 17.
std::string NodeWriter::reduce(const char* op, const std::string& x, const std::optional<Dims>& axes, bool keepdims) {
  if (axes && axes->empty()) return un("Identity", x);
  const I64s list = reduced_axes(axes);
  if (list.empty()) return un("Identity", x);  // a 0-d input
  if (std::string_view(op) == "ReduceSum")
    return one(op, {x, b_.ints(list)}, [&](auto& n) { Builder::attr_i(n, "keepdims", keepdims); });
  return one(op, {x}, [&](auto& n) {
    Builder::attr_is(n, "axes", list);
    Builder::attr_i(n, "keepdims", keepdims);
  });
}

void NodeWriter::elementwise() {
  const DType t = out_t();
  if (n_.inputs.size() == 1) {
    const DType d = in_t(0);
    // the computing dtype: the result's for float-valued ops, else the input's
    auto x = [&] { return in_as(0, is_floating(t) ? t : d); };
    switch (n_.op) {
      case OpId::abs: set_out(0, is_unsigned_int(d) ? un("Identity", in(0)) : un("Abs", in(0))); return;
      case OpId::acos: set_out(0, un("Acos", x())); return;
      case OpId::acosh: set_out(0, un("Acosh", x())); return;
      case OpId::asin: set_out(0, un("Asin", x())); return;
      case OpId::asinh: set_out(0, un("Asinh", x())); return;
      case OpId::atan: set_out(0, un("Atan", x())); return;
      case OpId::atanh: set_out(0, un("Atanh", x())); return;
      case OpId::cos: set_out(0, un("Cos", x())); return;
      case OpId::cosh: set_out(0, un("Cosh", x())); return;
      case OpId::sin: set_out(0, un("Sin", x())); return;
      case OpId::sinh: set_out(0, un("Sinh", x())); return;
      case OpId::tan: set_out(0, un("Tan", x())); return;
      case OpId::tanh: set_out(0, un("Tanh", x())); return;
      case OpId::exp: set_out(0, un("Exp", x())); return;
      case OpId::log: set_out(0, un("Log", x())); return;
      case OpId::sqrt: set_out(0, un("Sqrt", x())); return;
      case OpId::reciprocal: set_out(0, un("Reciprocal", x())); return;
      case OpId::expm1: set_out(0, expm1(x(), t)); return;
      case OpId::log1p: set_out(0, log1p(x(), t)); return;
      case OpId::log2: set_out(0, bin("Div", un("Log", x()), k(std::numbers::ln2, t))); return;
      case OpId::log10: set_out(0, bin("Div", un("Log", x()), k(std::numbers::ln10, t))); return;
      case OpId::bitwise_invert:
        if (d == DType::bool_) set_out(0, un("Not", in(0)));
        else set_out(0, arith("Sub", b_.scalar_i(-1, d), in(0), d));  // -1 - x (unsigned: all ones - x)
        return;
      case OpId::ceil:
      case OpId::floor:
      case OpId::round:
      case OpId::trunc:
        if (!is_real_floating(d)) {
          set_out(0, un("Identity", in(0)));
        } else if (n_.op == OpId::trunc) {
          set_out(0, where(bin("Less", in(0), k(0, d)), un("Ceil", in(0)), un("Floor", in(0))));
        } else {
          set_out(0, un(n_.op == OpId::ceil ? "Ceil" : n_.op == OpId::floor ? "Floor" : "Round", in(0)));  // Round: half to even
        }
        return;
      case OpId::conj:
      case OpId::real:
      case OpId::positive:
        set_out(0, un("Identity", in(0)));
        return;
      case OpId::imag: set_out(0, b_.filled(out_s(), 0, t)); return;
      case OpId::isfinite:
        if (!is_real_floating(d)) set_out(0, b_.filled(out_s(), 1, DType::bool_));
        else set_out(0, un("Not", bin("Or", un("IsInf", in(0)), un("IsNaN", in(0)))));
        return;
      case OpId::isinf:
      case OpId::isnan:
        if (!is_real_floating(d)) set_out(0, b_.filled(out_s(), 0, DType::bool_));
        else set_out(0, un(n_.op == OpId::isinf ? "IsInf" : "IsNaN", in(0)));
        return;
      case OpId::logical_not: set_out(0, un("Not", in_as(0, DType::bool_))); return;
      case OpId::negative:
        set_out(0, is_unsigned_int(d) ? arith("Sub", k(0, d), in(0), d) : un("Neg", in(0)));
        return;
      case OpId::sign: set_out(0, is_unsigned_int(d) ? b_.cast(bin("Greater", in(0), k(0, d)), DType::bool_, d) : un("Sign", in(0))); return;
      case OpId::signbit:
        set_out(0, is_unsigned_int(d) ? b_.filled(out_s(), 0, DType::bool_) : signbit(in(0), d));
        return;
      case OpId::square: set_out(0, arith("Mul", in(0), in(0), d)); return;
      default: break;
    }
    fail("no ONNX form of this element-wise primitive");
  }

  // binary: both inputs in the computing dtype (comparisons: the promoted input dtype)
  DType c = t;
  const bool comparison = t == DType::bool_ && n_.op != OpId::add && n_.op != OpId::multiply &&
                          n_.op != OpId::bitwise_and && n_.op != OpId::bitwise_or && n_.op != OpId::bitwise_xor &&
                          n_.op != OpId::logical_and && n_.op != OpId::logical_or && n_.op != OpId::logical_xor;
  if (comparison) c = result_type(in_t(0), in_t(1));
  if (n_.op == OpId::logical_and || n_.op == OpId::logical_or || n_.op == OpId::logical_xor) c = DType::bool_;
  const std::string a = in_as(0, c), e = in_as(1, c);
  const bool is_bool = c == DType::bool_;
  switch (n_.op) {
    case OpId::add: set_out(0, is_bool ? bin("Or", a, e) : arith("Add", a, e, c)); return;
    case OpId::multiply: set_out(0, is_bool ? bin("And", a, e) : arith("Mul", a, e, c)); return;
    case OpId::subtract: set_out(0, arith("Sub", a, e, c)); return;
    case OpId::divide: set_out(0, arith("Div", a, e, c)); return;
    case OpId::pow: set_out(0, arith("Pow", a, e, c)); return;
    case OpId::maximum: set_out(0, bin("Max", a, e)); return;
    case OpId::minimum: set_out(0, bin("Min", a, e)); return;
    case OpId::equal: set_out(0, bin("Equal", a, e)); return;
    case OpId::not_equal: set_out(0, un("Not", bin("Equal", a, e))); return;
    case OpId::greater: set_out(0, bin("Greater", a, e)); return;
    case OpId::greater_equal: set_out(0, bin("GreaterOrEqual", a, e)); return;
    case OpId::less: set_out(0, bin("Less", a, e)); return;
    case OpId::less_equal: set_out(0, bin("LessOrEqual", a, e)); return;
    case OpId::logical_and: set_out(0, bin("And", a, e)); return;
    case OpId::logical_or: set_out(0, bin("Or", a, e)); return;
    case OpId::logical_xor: set_out(0, bin("Xor", a, e)); return;
    case OpId::bitwise_and:
    case OpId::bitwise_or:
    case OpId::bitwise_xor: {
      const char* how = n_.op == OpId::bitwise_and ? "and" : n_.op == OpId::bitwise_or ? "or" : "xor";
      if (is_bool) set_out(0, bin(n_.op == OpId::bitwise_and ? "And" : n_.op == OpId::bitwise_or ? "Or" : "Xor", a, e));
      else set_out(0, bitwise(a, e, c, how));
      return;
    }
    case OpId::bitwise_left_shift:
    case OpId::bitwise_right_shift: {
      // in uint32 for widths up to 32 (zero-extended; truncated back), uint64 for 64
      const DType u = itemsize(c) == 8 ? DType::uint64 : DType::uint32;
      const bool left = n_.op == OpId::bitwise_left_shift;
      auto widen = [&](const std::string& x) { return b_.cast(b_.cast(x, c, unsigned_of(c)), unsigned_of(c), u); };
      auto narrow = [&](const std::string& x) { return b_.cast(b_.cast(x, u, unsigned_of(c)), unsigned_of(c), c); };
      auto shift = [&](const std::string& x) {
        return one("BitShift", {widen(x), widen(e)},
                   [&](auto& n) { Builder::attr_s(n, "direction", left ? "LEFT" : "RIGHT"); });
      };
      if (is_unsigned_int(c) || left) {
        set_out(0, narrow(shift(a)));
      } else {
        // arithmetic shift of a negative a: -1 - ((-1 - a) >> s), as -1 - a is not negative
        std::string pos = narrow(shift(a));
        std::string flipped = arith("Sub", b_.scalar_i(-1, c), a, c);
        std::string negs = arith("Sub", b_.scalar_i(-1, c),
                                 narrow(one("BitShift", {widen(flipped), widen(e)},
                                            [](auto& n) { Builder::attr_s(n, "direction", "RIGHT"); })),
                                 c);
        set_out(0, where(bin("Less", a, k(0, c)), negs, pos));
      }
      return;
    }
    case OpId::atan2: {
      const double pi = std::numbers::pi;
      std::string q = un("Atan", bin("Div", a, e));  // a = y, e = x
      std::string sy = signbit(a, c), sx = signbit(e, c);
      std::string adj = where(sx, bin("Add", q, where(sy, k(-pi, c), k(pi, c))), q);
      std::string zero_zero = bin("And", bin("Equal", a, k(0, c)), bin("Equal", e, k(0, c)));
      std::string at_zero = where(sx, where(sy, k(-pi, c), k(pi, c)), where(sy, k(-0.0, c), k(0, c)));
      std::string inf_inf = bin("And", un("IsInf", a), un("IsInf", e));
      std::string at_inf = where(sx, where(sy, k(-0.75 * pi, c), k(0.75 * pi, c)), where(sy, k(-0.25 * pi, c), k(0.25 * pi, c)));
      set_out(0, where(zero_zero, at_zero, where(inf_inf, at_inf, adj)));
      return;
    }
    case OpId::copysign: {
      std::string m = un("Abs", a);
      set_out(0, where(signbit(e, c), un("Neg", m), m));
      return;
    }
    case OpId::hypot: {
      std::string aa = un("Abs", a), ae = un("Abs", e);
      std::string hi = bin("Max", aa, ae), lo = bin("Min", aa, ae);
      std::string ratio = bin("Div", lo, hi);
      std::string scaled = bin("Mul", hi, un("Sqrt", bin("Add", k(1, c), bin("Mul", ratio, ratio))));
      std::string any_inf = bin("Or", un("IsInf", a), un("IsInf", e));
      set_out(0, where(any_inf, k(INFINITY, c), where(bin("Equal", hi, k(0, c)), k(0, c), scaled)));
      return;
    }
    case OpId::logaddexp: {
      std::string hi = bin("Max", a, e);
      std::string d = un("Neg", un("Abs", bin("Sub", a, e)));
      std::string general = bin("Add", hi, log1p(un("Exp", d), c));
      set_out(0, where(bin("Equal", a, e), bin("Add", a, k(std::numbers::ln2, c)), general));
      return;
    }
    case OpId::floor_divide: {
      if (is_real_floating(c)) {
        set_out(0, un("Floor", bin("Div", a, e)));
      } else if (is_unsigned_int(c)) {
        set_out(0, arith("Div", a, e, c));
      } else {  // Div truncates: one less where it rounded a negative quotient up
        std::string q = arith("Div", a, e, c);
        std::string inexact = un("Not", bin("Equal", arith("Mul", q, e, c), a));
        std::string opposite = bin("Xor", bin("Less", a, k(0, c)), bin("Less", e, k(0, c)));
        set_out(0, where(bin("And", inexact, opposite), arith("Sub", q, k(1, c), c), q));
      }
      return;
    }
    case OpId::remainder: {
      if (!is_real_floating(c)) {  // Mod with fmod=0: the divisor's sign, as Python's %
        set_out(0, bin("Mod", a, e));
      } else {
        std::string r = one("Mod", {a, e}, [](auto& n) { Builder::attr_i(n, "fmod", 1); });
        std::string fix = bin("And", un("Not", bin("Equal", r, k(0, c))), bin("Xor", bin("Less", r, k(0, c)), bin("Less", e, k(0, c))));
        set_out(0, where(fix, bin("Add", r, e), r));
      }
      return;
    }
    default: break;
  }
  fail("no ONNX form of this element-wise primitive");
}

void NodeWriter::structural() {
  const DType t = n_.outputs.empty() ? DType::float32 : out_t();
  switch (n_.op) {
    case OpId::full: {
      const Scalar& s = at<attr::full>().value;
      if (is_floating(t)) set_out(0, b_.filled(out_s(), s.d, t));
      else set_out(0, b_.filled_int(out_s(), t == DType::bool_ ? static_cast<std::int64_t>(s.b) : s.i, t));
      return;
    }
    case OpId::arange:
    case OpId::linspace:
    case OpId::eye: {
      // deterministic and input-free: the values, computed by ivy, as a constant
      Array v = dispatch(n_.op, std::span<const Array>{}, AttrsRef(n_.attrs));
      std::vector<unsigned char> bytes(static_cast<std::size_t>(v.size()) * itemsize(v.dtype()));
      if (!bytes.empty()) copy_to_host(v, bytes.data());
      set_out(0, b_.tensor(bytes.data(), v.dtype(), v.shape()));
      return;
    }
    case OpId::random_uniform:
    case OpId::random_normal:
    case OpId::randint: {
      I64s shape(out_s().begin(), out_s().end());
      const DType fd = t == DType::float64 ? DType::float64 : DType::float32;
      std::string r;
      if (n_.op == OpId::random_normal) {
        const auto& p = at<attr::random_normal>();
        r = one("RandomNormal", {}, [&](auto& n) {
          Builder::attr_i(n, "dtype", onnx_code(fd));
          Builder::attr_f(n, "mean", p.mean.d);
          Builder::attr_f(n, "scale", p.std.d);
          Builder::attr_is(n, "shape", shape);
        });
      } else {
        double lo = 0, hi = 1;
        if (n_.op == OpId::random_uniform) lo = at<attr::random_uniform>().low.d, hi = at<attr::random_uniform>().high.d;
        else lo = static_cast<double>(at<attr::randint>().low.i), hi = static_cast<double>(at<attr::randint>().high.i);
        r = one("RandomUniform", {}, [&](auto& n) {
          Builder::attr_i(n, "dtype", onnx_code(n_.op == OpId::randint ? DType::float64 : fd));
          Builder::attr_f(n, "low", lo);
          Builder::attr_f(n, "high", hi);
          Builder::attr_is(n, "shape", shape);
        });
        if (n_.op == OpId::randint) {
          r = un("Floor", r);
          set_out(0, b_.cast(r, DType::float64, t));
          return;
        }
      }
      set_out(0, b_.cast(r, fd, t));
      return;
    }
    case OpId::tril:
    case OpId::triu: {
      const std::int64_t kk = at<attr::triangle>().k;
      const bool upper = n_.op == OpId::triu;
      if (b_.opset() >= 14 && t != DType::bool_) {
        set_out(0, one("Trilu", {in(0), b_.int_scalar(kk)}, [&](auto& n) { Builder::attr_i(n, "upper", upper); }));
      } else {
        const Shape& s = in_s(0);
        const std::int64_t rows = s[s.size() - 2], cols = s[s.size() - 1];
        std::vector<unsigned char> mask(static_cast<std::size_t>(rows * cols));
        for (std::int64_t i = 0; i < rows; ++i)
          for (std::int64_t j = 0; j < cols; ++j)
            mask[static_cast<std::size_t>(i * cols + j)] = upper ? (j - i >= kk) : (j - i <= kk);
        std::string m = b_.tensor(mask.data(), DType::bool_, Shape{rows, cols});
        set_out(0, where(m, in(0), b_.filled(Shape{}, 0, t)));
      }
      return;
    }
    case OpId::astype: set_out(0, in_t(0) == t ? un("Identity", in(0)) : b_.cast(in(0), in_t(0), t)); return;
    case OpId::stop_gradient: set_out(0, un("Identity", in(0))); return;
    case OpId::reshape: set_out(0, reshape(in(0), out_s())); return;
    case OpId::permute_dims: {
      const auto& p = at<attr::permute_dims>();
      // a 0-d array has only the empty permutation, which an ONNX attribute cannot hold
      if (p.axes.empty()) { set_out(0, un("Identity", in(0))); return; }
      set_out(0, one("Transpose", {in(0)}, [&](auto& n) { Builder::attr_is(n, "perm", I64s(p.axes.begin(), p.axes.end())); }));
      return;
    }
    case OpId::broadcast_to:
      set_out(0, one("Expand", {in(0), b_.ints(I64s(out_s().begin(), out_s().end()))}));
      return;
    case OpId::flip: {
      const auto& p = at<attr::flip>();
      if (p.axes.empty()) { set_out(0, un("Identity", in(0))); return; }
      const std::size_t m = p.axes.size();
      set_out(0, one("Slice", {in(0), b_.ints(I64s(m, -1)), b_.ints(I64s(m, std::numeric_limits<std::int64_t>::min())),
                              b_.ints(I64s(p.axes.begin(), p.axes.end())), b_.ints(I64s(m, -1))}));
      return;
    }
    case OpId::roll: {
      const auto& p = at<attr::roll>();
      std::string x = in(0);
      Shape s = in_s(0);
      I64s axes, shifts(p.shifts.begin(), p.shifts.end());
      if (!p.axes) {
        x = reshape(x, Shape{s.numel()});
        s = Shape{s.numel()};
        axes = {0};
      } else {
        axes.assign(p.axes->begin(), p.axes->end());
      }
      for (std::size_t i = 0; i < axes.size(); ++i) {
        const std::int64_t len = s[static_cast<std::size_t>(axes[i])];
        if (len == 0) continue;
        const std::int64_t sh = ((shifts[i] % len) + len) % len;
        if (sh == 0) continue;
        std::string ax = b_.ints({axes[i]});
        std::string tail = one("Slice", {x, b_.ints({len - sh}), b_.ints({len}), ax});
        std::string head = one("Slice", {x, b_.ints({0}), b_.ints({len - sh}), ax});
        x = one("Concat", {tail, head}, [&](auto& n) { Builder::attr_i(n, "axis", axes[i]); });
      }
      if (!p.axes) x = reshape(x, in_s(0));
      set_out(0, x == in(0) ? un("Identity", x) : x);
      return;
    }
    case OpId::repeat: {
      const auto& p = at<attr::repeat>();
      std::string x = in(0);
      Shape s = in_s(0);
      std::int64_t axis = p.axis ? *p.axis : 0;
      if (!p.axis || s.empty()) {
        x = reshape(x, Shape{s.numel()});
        s = Shape{s.numel()};
        axis = 0;
      }
      const std::int64_t len = s[static_cast<std::size_t>(axis)];
      I64s idx;
      for (std::int64_t i = 0; i < len; ++i) {
        const std::int64_t r = p.repeats.size() == 1 ? p.repeats[0] : p.repeats[static_cast<std::size_t>(i)];
        for (std::int64_t j = 0; j < r; ++j) idx.push_back(i);
      }
      set_out(0, one("Gather", {x, b_.ints(idx)}, [&](auto& n) { Builder::attr_i(n, "axis", axis); }));
      return;
    }
    case OpId::tile: {
      const auto& p = at<attr::tile>();
      const Shape& s = in_s(0);
      const std::size_t r = std::max(s.size(), p.reps.size());
      Shape padded;
      for (std::size_t i = 0; i < r - s.size(); ++i) padded.push_back(1);
      for (auto d : s) padded.push_back(d);
      I64s reps(r - p.reps.size(), 1);
      for (auto v : p.reps) reps.push_back(v);
      std::string x = padded.size() == s.size() ? in(0) : reshape(in(0), padded);
      set_out(0, one("Tile", {x, b_.ints(reps)}));
      return;
    }
    case OpId::concat: {
      std::vector<std::string> xs;
      for (std::size_t i = 0; i < n_.inputs.size(); ++i) xs.push_back(in_as(i, t));
      const std::int64_t axis = at<attr::one_axis>().axis;
      set_out(0, one("Concat", xs, [&](auto& n) { Builder::attr_i(n, "axis", axis); }));
      return;
    }
    case OpId::strided_slice: {
      const auto& p = at<attr::slice>();
      const Shape& s = in_s(0);
      I64s starts, ends, axes, steps;
      for (std::size_t i = 0; i < s.size(); ++i) {
        const std::int64_t len = out_s()[i], st = p.step[i], b = p.start[i];
        if (st == 1 && b == 0 && len == s[i]) continue;  // the whole axis
        std::int64_t e = b + st * len;
        if (st < 0 && e < 0) e = std::numeric_limits<std::int64_t>::min();
        starts.push_back(b), ends.push_back(e), axes.push_back(static_cast<std::int64_t>(i)), steps.push_back(st);
      }
      if (axes.empty()) set_out(0, un("Identity", in(0)));
      else set_out(0, one("Slice", {in(0), b_.ints(starts), b_.ints(ends), b_.ints(axes), b_.ints(steps)}));
      return;
    }
    case OpId::slice_update: {
      const auto& p = at<attr::slice>();
      const Shape& s = in_s(0);
      // the flat positions the slice selects, in its row-major order
      Shape sel;
      for (std::size_t i = 0; i < s.size(); ++i) sel.push_back(slice_length(p.start[i], p.stop[i], p.step[i]));
      const std::int64_t count = sel.numel();
      I64s pos;
      pos.reserve(static_cast<std::size_t>(count));
      std::vector<std::int64_t> idx(s.size(), 0);
      for (std::int64_t e = 0; e < count; ++e) {
        std::int64_t flat = 0;
        for (std::size_t i = 0; i < s.size(); ++i) flat = flat * s[i] + p.start[i] + idx[i] * p.step[i];
        pos.push_back(flat);
        for (std::size_t i = s.size(); i-- > 0;) {
          if (++idx[i] < sel[i]) break;
          idx[i] = 0;
        }
      }
      std::string flat_x = reshape(in(0), Shape{s.numel()});
      std::string vals = reshape(one("Expand", {in_as(1, t), b_.ints(I64s(sel.begin(), sel.end()))}), Shape{count, });
      std::string indices = b_.tensor(pos.data(), DType::int64, Shape{count, 1});
      set_out(0, reshape(one("ScatterND", {flat_x, indices, vals}), s));
      return;
    }
    case OpId::take: {
      const std::int64_t axis = at<attr::one_axis>().axis;
      set_out(0, one("Gather", {in(0), in_as(1, DType::int64)}, [&](auto& n) { Builder::attr_i(n, "axis", axis); }));
      return;
    }
    case OpId::take_along_axis: {
      const std::int64_t axis = at<attr::one_axis>().axis;
      Shape xs = out_s(), is = out_s();
      xs[static_cast<std::size_t>(axis)] = in_s(0)[static_cast<std::size_t>(axis)];
      std::string x = in(0), ix = in_as(1, DType::int64);
      if (!(xs == in_s(0))) x = one("Expand", {x, b_.ints(I64s(xs.begin(), xs.end()))});
      if (!(is == in_s(1))) ix = one("Expand", {ix, b_.ints(I64s(is.begin(), is.end()))});
      set_out(0, one("GatherElements", {x, ix}, [&](auto& n) { Builder::attr_i(n, "axis", axis); }));
      return;
    }
    case OpId::index_put_flat:
    case OpId::scatter_add_flat: {
      const Shape& s = in_s(0);
      const std::int64_t count = in_s(1)[0], total = s.numel();
      std::string flat_x = reshape(in(0), Shape{total});
      std::string vals = one("Expand", {in_as(2, t), b_.ints({count})});
      if (n_.op == OpId::index_put_flat || b_.opset() >= 16) {
        std::string indices = reshape(in(1), Shape{count, 1});
        std::string r = one("ScatterND", {flat_x, indices, vals}, [&](auto& n) {
          if (n_.op == OpId::scatter_add_flat) Builder::attr_s(n, "reduction", "add");
        });
        set_out(0, reshape(r, s));
      } else {  // before ScatterND's reduction: a sum over a one-hot selection (Where keeps inf and NaN local)
        I64s range(static_cast<std::size_t>(total));
        for (std::int64_t i = 0; i < total; ++i) range[static_cast<std::size_t>(i)] = i;
        std::string hit = bin("Equal", reshape(in(1), Shape{count, 1}), b_.ints(range));
        std::string spread = where(hit, reshape(vals, Shape{count, 1}), b_.filled(Shape{}, 0, t));
        std::string added = one("ReduceSum", {spread, b_.ints({0})}, [](auto& n) { Builder::attr_i(n, "keepdims", 0); });
        set_out(0, reshape(arith("Add", flat_x, added, t), s));
      }
      return;
    }
    case OpId::argmax:
    case OpId::argmin: {
      const auto& p = at<attr::argreduce>();
      const char* op = n_.op == OpId::argmax ? "ArgMax" : "ArgMin";
      std::string x = in(0);
      std::int64_t axis = p.axis ? *p.axis : 0;
      if (!p.axis || in_s(0).empty()) {
        x = reshape(x, Shape{in_s(0).numel()});
        axis = 0;
      }
      std::string r = one(op, {x}, [&](auto& n) {
        Builder::attr_i(n, "axis", axis);
        Builder::attr_i(n, "keepdims", 0);
      });
      set_out(0, reshape(r, out_s()));
      return;
    }
    case OpId::nonzero: {
      std::string nz = one("NonZero", {in(0)});
      for (std::size_t i = 0; i < n_.outputs.size(); ++i)
        set_out(i, one("Gather", {nz, b_.int_scalar(static_cast<std::int64_t>(i))}, [](auto& n) { Builder::attr_i(n, "axis", 0); }));
      return;
    }
    case OpId::where:
      if (t == DType::bool_) {  // valid ONNX either way, but onnxruntime has no bool Where: select uint8s
        set_out(0, b_.cast(where(in(0), b_.cast(in_as(1, t), t, DType::uint8), b_.cast(in_as(2, t), t, DType::uint8)),
                           DType::uint8, t));
        return;
      }
      set_out(0, where(in(0), in_as(1, t), in_as(2, t)));
      return;
    case OpId::searchsorted: {
      const DType c = result_type(in_t(0), in_t(1));
      const bool right = at<attr::searchsorted>().right;
      std::string v = one("Unsqueeze", {in_as(1, c), b_.ints({-1})});
      std::string before = bin(right ? "LessOrEqual" : "Less", in_as(0, c), v);
      set_out(0, one("ReduceSum", {b_.cast(before, DType::bool_, DType::int64), b_.ints({-1})},
                     [](auto& n) { Builder::attr_i(n, "keepdims", 0); }));
      return;
    }
    case OpId::sort:
    case OpId::argsort: {
      const auto& p = at<attr::sort>();
      const std::int64_t len = in_s(0)[static_cast<std::size_t>(p.axis)];
      auto r = b_.node("TopK", {in(0), b_.ints({len})}, 2, [&](auto& n) {
        Builder::attr_i(n, "axis", p.axis);
        Builder::attr_i(n, "largest", p.descending);
        Builder::attr_i(n, "sorted", 1);
      });
      set_out(0, n_.op == OpId::sort ? r[0] : r[1]);
      return;
    }
    case OpId::unique: {
      std::string flat = reshape(in(0), Shape{in_s(0).numel()});
      auto r = b_.node("Unique", {flat}, 4, [](auto& n) { Builder::attr_i(n, "sorted", 1); });
      set_out(0, r[0]);
      set_out(1, r[1]);
      set_out(2, reshape(r[2], out_s(2)));
      set_out(3, r[3]);
      return;
    }
    case OpId::isin: {
      const DType c = result_type(in_t(0), in_t(1));
      std::string x = one("Unsqueeze", {in_as(0, c), b_.ints({-1})});
      std::string hit = bin("Equal", x, reshape(in_as(1, c), Shape{in_s(1).numel()}));
      std::string count = one("ReduceSum", {b_.cast(hit, DType::bool_, DType::int64), b_.ints({-1})},
                              [](auto& n) { Builder::attr_i(n, "keepdims", 0); });
      std::string found = bin("Greater", count, b_.int_scalar(0));
      set_out(0, at<attr::isin>().invert ? un("Not", found) : found);
      return;
    }
    case OpId::sum:
    case OpId::prod: {
      const auto& p = at<attr::reduce_acc>();
      std::string x = in_as(0, t);
      set_out(0, reduce(n_.op == OpId::sum ? "ReduceSum" : "ReduceProd", x, p.axes, p.keepdims));
      return;
    }
    case OpId::mean:
    case OpId::max:
    case OpId::min: {
      const auto& p = at<attr::reduce>();
      const char* op = n_.op == OpId::mean ? "ReduceMean" : n_.op == OpId::max ? "ReduceMax" : "ReduceMin";
      set_out(0, reduce(op, in_as(0, t), p.axes, p.keepdims));
      return;
    }
    case OpId::var:
    case OpId::std: {
      const auto& p = at<attr::reduce_var>();
      std::string x = in_as(0, t);
      std::int64_t count = 1;
      for (auto ax : reduced_axes(p.axes)) count *= in_s(0)[static_cast<std::size_t>(ax)];
      std::string mu = reduce("ReduceMean", x, p.axes, true);
      std::string d = bin("Sub", x, mu);
      std::string ss = reduce("ReduceSum", bin("Mul", d, d), p.axes, p.keepdims);
      std::string v = bin("Div", ss, k(static_cast<double>(count) - p.correction, t));
      set_out(0, n_.op == OpId::var ? v : un("Sqrt", v));
      return;
    }
    case OpId::all:
    case OpId::any: {
      const auto& p = at<attr::reduce>();
      std::string truth = in_as(0, DType::bool_);
      if (n_.op == OpId::all) truth = un("Not", truth);
      std::string count = reduce("ReduceSum", b_.cast(truth, DType::bool_, DType::int64), p.axes, p.keepdims);
      set_out(0, n_.op == OpId::all ? bin("Equal", count, b_.int_scalar(0)) : bin("Greater", count, b_.int_scalar(0)));
      return;
    }
    case OpId::cumulative_sum:
    case OpId::cumulative_prod: {
      const auto& p = at<attr::cumulative>();
      const std::int64_t axis = p.axis;
      std::string x = in_as(0, t);
      const Shape& s = in_s(0);
      Shape one_slab = s;
      one_slab[static_cast<std::size_t>(axis)] = 1;
      const double unit = n_.op == OpId::cumulative_sum ? 0 : 1;
      std::string y;
      if (n_.op == OpId::cumulative_sum) {
        y = one("CumSum", {x, b_.int_scalar(axis)});
      } else {  // a scan in ceil(log2 n) steps: y_i *= y_{i - 2^k}
        const std::int64_t len = s[static_cast<std::size_t>(axis)];
        y = x;
        for (std::int64_t step = 1; step < len; step *= 2) {
          Shape pad = s;
          pad[static_cast<std::size_t>(axis)] = step;
          std::string shifted = one("Concat", {b_.filled(pad, 1, t), one("Slice", {y, b_.ints({0}), b_.ints({len - step}), b_.ints({axis})})},
                                    [&](auto& n) { Builder::attr_i(n, "axis", axis); });
          y = arith("Mul", y, shifted, t);
        }
        if (y == x) y = un("Identity", x);
      }
      if (p.include_initial)
        y = one("Concat", {b_.filled(one_slab, unit, t), y}, [&](auto& n) { Builder::attr_i(n, "axis", axis); });
      set_out(0, y);
      return;
    }
    case OpId::matmul: set_out(0, arith("MatMul", in_as(0, t), in_as(1, t), t)); return;
    case OpId::diagonal: {
      const Shape& s = in_s(0);
      const std::int64_t rows = s[s.size() - 2], cols = s[s.size() - 1], off = at<attr::diagonal>().offset;
      const std::int64_t len = out_s().back();
      I64s idx;
      for (std::int64_t i = 0; i < len; ++i) idx.push_back((i + std::max<std::int64_t>(-off, 0)) * cols + i + std::max<std::int64_t>(off, 0));
      Shape flat(s.begin(), s.end() - 2);
      flat.push_back(rows * cols);
      set_out(0, one("Gather", {reshape(in(0), flat), b_.ints(idx)}, [](auto& n) { Builder::attr_i(n, "axis", -1); }));
      return;
    }
    case OpId::det: set_out(0, un("Det", in(0))); return;
    case OpId::slogdet: {
      std::string d = un("Det", in(0));
      set_out(0, un("Sign", d));
      set_out(1, un("Log", un("Abs", d)));
      return;
    }
    case OpId::conv: {
      const auto& p = at<attr::conv>();
      const Shape& ws = in_s(1);
      set_out(0, one("Conv", {in(0), in(1)}, [&](auto& n) {
        Builder::attr_is(n, "kernel_shape", I64s(ws.begin() + 2, ws.end()));
        Builder::attr_is(n, "strides", I64s(p.strides.begin(), p.strides.end()));
        Builder::attr_is(n, "dilations", I64s(p.dilations.begin(), p.dilations.end()));
        Builder::attr_is(n, "pads", I64s(p.padding.begin(), p.padding.end()));
        Builder::attr_i(n, "group", p.groups);
      }));
      return;
    }
    case OpId::conv_transpose: {
      const auto& p = at<attr::conv>();
      const Shape& ys = in_s(0);
      const Shape& ws = in_s(1);
      const std::size_t d = ys.size() - 2;
      I64s out_pad;
      for (std::size_t i = 0; i < d; ++i) {
        const std::int64_t natural = p.strides[i] * (ys[2 + i] - 1) + (ws[2 + i] - 1) * p.dilations[i] + 1 - p.padding[i] - p.padding[d + i];
        out_pad.push_back(p.spatial[i] - natural);
      }
      set_out(0, one("ConvTranspose", {in(0), in(1)}, [&](auto& n) {
        Builder::attr_is(n, "kernel_shape", I64s(ws.begin() + 2, ws.end()));
        Builder::attr_is(n, "strides", I64s(p.strides.begin(), p.strides.end()));
        Builder::attr_is(n, "dilations", I64s(p.dilations.begin(), p.dilations.end()));
        Builder::attr_is(n, "pads", I64s(p.padding.begin(), p.padding.end()));
        Builder::attr_is(n, "output_padding", out_pad);
        Builder::attr_i(n, "group", p.groups);
      }));
      return;
    }
    case OpId::conv_weight_grad: {
      // gw[o, c, k] = sum over n, s of x[n, c, s * stride + k * dilation - pad] gy[n, o, s]: a
      // convolution of x with the batch as channels, gy as the kernel, stride and dilation swapped
      const auto& p = at<attr::conv>();
      const Shape& xs = in_s(0);
      const std::size_t d = xs.size() - 2;
      I64s perm{1, 0};
      for (std::size_t i = 0; i < d; ++i) perm.push_back(static_cast<std::int64_t>(2 + i));
      auto tr = [&](const std::string& v) { return one("Transpose", {v}, [&](auto& n) { Builder::attr_is(n, "perm", perm); }); };
      std::string full = one("Conv", {tr(in(0)), tr(in(1))}, [&](auto& n) {
        Builder::attr_is(n, "strides", I64s(p.dilations.begin(), p.dilations.end()));
        Builder::attr_is(n, "dilations", I64s(p.strides.begin(), p.strides.end()));
        Builder::attr_is(n, "pads", I64s(p.padding.begin(), p.padding.end()));
      });  // [C, O, K'] with K' >= K
      I64s zeros(d, 0), ends(p.spatial.begin(), p.spatial.end()), axes;
      for (std::size_t i = 0; i < d; ++i) axes.push_back(static_cast<std::int64_t>(2 + i));
      std::string cut = one("Slice", {full, b_.ints(zeros), b_.ints(ends), b_.ints(axes)});
      const std::int64_t c_all = xs[1], o_all = out_s()[0], g = p.groups;
      if (g > 1) {  // keep the blocks of matching groups: [C/g, O, K]
        std::vector<std::string> blocks;
        for (std::int64_t j = 0; j < g; ++j)
          blocks.push_back(one("Slice", {cut, b_.ints({j * (c_all / g), j * (o_all / g)}),
                                         b_.ints({(j + 1) * (c_all / g), (j + 1) * (o_all / g)}), b_.ints({0, 1})}));
        cut = one("Concat", blocks, [](auto& n) { Builder::attr_i(n, "axis", 1); });
      }
      set_out(0, tr(cut));
      return;
    }
    case OpId::max_pool: {
      const auto& p = at<attr::pool>();
      auto r = b_.node("MaxPool", {in(0)}, 2, [&](auto& n) {
        Builder::attr_is(n, "kernel_shape", I64s(p.window.begin(), p.window.end()));
        Builder::attr_is(n, "strides", I64s(p.strides.begin(), p.strides.end()));
        Builder::attr_is(n, "dilations", I64s(p.dilations.begin(), p.dilations.end()));
        Builder::attr_is(n, "pads", I64s(p.padding.begin(), p.padding.end()));
      });
      set_out(0, r[0]);
      set_out(1, r[1]);  // ONNX's Indices and ivy's positions both count over the whole input
      return;
    }
    case OpId::layer_norm: {
      const auto& p = at<attr::layer_norm>();
      const Shape& xs = in_s(0);
      if (b_.opset() >= 17) {
        Shape norm(xs.begin() + p.axis, xs.end());
        auto r = b_.node("LayerNormalization", {in(0), b_.filled(norm, 1, t)}, 3, [&](auto& n) {
          Builder::attr_i(n, "axis", p.axis);
          Builder::attr_f(n, "epsilon", p.eps);
        });
        for (int i = 0; i < 3; ++i) set_out(static_cast<std::size_t>(i), r[static_cast<std::size_t>(i)]);
      } else {
        Dims axes;
        for (auto i = p.axis; i < static_cast<std::int64_t>(xs.size()); ++i) axes.push_back(i);
        std::string mu = reduce("ReduceMean", in(0), axes, true);
        std::string d = bin("Sub", in(0), mu);
        std::string var = reduce("ReduceMean", bin("Mul", d, d), axes, true);
        std::string rstd = un("Reciprocal", un("Sqrt", bin("Add", var, k(p.eps, t))));
        set_out(0, bin("Mul", d, rstd));
        set_out(1, mu);
        set_out(2, rstd);
      }
      return;
    }
    default: break;
  }
  fail("no ONNX form of this primitive");
}

void NodeWriter::write() {
  if (const char* why = unexportable_reason(n_.op)) fail(std::string("cannot be expressed in ONNX: ") + why);
  for (int id : n_.inputs)
    if (is_complex(g_.value(id).dtype)) fail("complex inputs cannot be exported: no ONNX operator computes on complex tensors");
  for (int id : n_.outputs)
    if (is_complex(g_.value(id).dtype)) fail("complex results cannot be exported: no ONNX operator computes on complex tensors");
  // A result without elements needs no computation (shapes are static except after a
  // data-dependent primitive, whose results keep their runtime shapes).
  const auto& info = op_info(n_.op);
  if (!info.has(kDataDependentShape) && !info.has(kRandom)) {
    bool all_empty = !n_.outputs.empty();
    for (int id : n_.outputs) all_empty = all_empty && g_.value(id).shape.numel() == 0;
    if (all_empty) {
      for (std::size_t i = 0; i < n_.outputs.size(); ++i) set_out(i, b_.filled(out_s(i), 0, out_t(i)));
      return;
    }
  }
  if (info.has(kElementwise)) elementwise();
  else structural();
}

void value_info(::onnx::ValueInfoProto* v, const std::string& name, DType d, const Shape* shape, bool known = true) {
  v->set_name(name);
  auto* tt = v->mutable_type()->mutable_tensor_type();
  tt->set_elem_type(onnx_code(d));
  auto* sp = tt->mutable_shape();
  for (auto s : *shape)
    if (known) sp->add_dim()->set_dim_value(s);
    else sp->add_dim();  // of the traced rank, its size known at run time only
}

// Values that a data-dependent primitive's results reach: their shapes are known only at run time.
std::vector<bool> dynamic_values(const Graph& g) {
  std::vector<bool> dyn(g.values.size(), false);
  for (const auto& n : g.nodes) {
    bool d = op_info(n.op).has(kDataDependentShape);
    for (int i : n.inputs) d = d || dyn[static_cast<std::size_t>(i)];
    if (d)
      for (int o : n.outputs) dyn[static_cast<std::size_t>(o)] = true;
  }
  return dyn;
}

std::string unique_name(const std::string& want, std::set<std::string>& taken, const std::string& fallback) {
  std::string base = want.empty() ? fallback : want;
  std::string n = base;
  for (int k = 1; taken.count(n); ++k) n = base + "_" + std::to_string(k);
  taken.insert(n);
  return n;
}

}  // namespace

std::map<std::string, std::string> unexportable_primitives() {
  std::map<std::string, std::string> out;
  for (int i = 0; i < kNumOps; ++i) {
    const OpId op = static_cast<OpId>(i);
    if (const char* why = unexportable_reason(op)) out.emplace(op_info(op).name, why);
  }
  return out;
}

std::string export_graph(const Graph& g, const ExportOptions& options) {
  if (options.opset < kMinExportOpset || options.opset > kMaxExportOpset)
    export_fail("opset " + std::to_string(options.opset) + " is not supported; choose one from " + std::to_string(kMinExportOpset) +
                " to " + std::to_string(kMaxExportOpset));
  if (!options.input_names.empty() && options.input_names.size() != g.input_ids.size())
    export_fail(std::to_string(options.input_names.size()) + " input names for a graph of " + std::to_string(g.input_ids.size()) + " inputs");
  if (!options.output_names.empty() && options.output_names.size() != g.output_ids.size())
    export_fail(std::to_string(options.output_names.size()) + " output names for a graph of " + std::to_string(g.output_ids.size()) +
                " outputs");
  for (std::size_t i = 0; i < g.constant_ids.size() && i < g.constants.size(); ++i)
    if (!g.constants[i].defined()) export_fail("constant " + std::to_string(i) + " holds no array");
  if (g.constants.size() != g.constant_ids.size()) export_fail("the graph's constants and constant ids differ in number");

  ::onnx::ModelProto m;
  m.set_ir_version(8);  // the IR version of opsets 15 to 17 (ONNX 1.10 to 1.12); also valid for 13 and 14
  m.set_producer_name("ivy");
  m.set_producer_version("0.1");
  auto* os = m.add_opset_import();
  os->set_domain("");
  os->set_version(options.opset);
  auto* gp = m.mutable_graph();
  gp->set_name(options.graph_name.empty() ? "ivy" : options.graph_name);

  std::vector<std::string> names(g.values.size());
  std::set<std::string> taken;
  const std::vector<bool> dyn = dynamic_values(g);
  for (std::size_t i = 0; i < g.input_ids.size(); ++i) {
    const int id = g.input_ids[i];
    if (id < 0 || static_cast<std::size_t>(id) >= g.values.size()) export_fail("input id " + std::to_string(id) + " is out of range");
    const auto& v = g.value(id);
    if (is_complex(v.dtype)) export_fail("input " + std::to_string(i) + " is complex: no ONNX operator computes on complex tensors");
    names[static_cast<std::size_t>(id)] =
        unique_name(options.input_names.empty() ? "" : options.input_names[i], taken, "input_" + std::to_string(i));
    value_info(gp->add_input(), names[static_cast<std::size_t>(id)], v.dtype, &v.shape);
  }
  Builder b(gp, options.opset);
  for (std::size_t i = 0; i < g.constant_ids.size(); ++i) {
    const int id = g.constant_ids[i];
    if (id < 0 || static_cast<std::size_t>(id) >= g.values.size()) export_fail("constant id " + std::to_string(id) + " is out of range");
    const Array& a = g.constants[i];
    if (is_complex(a.dtype())) export_fail("constant " + std::to_string(i) + " is complex: no ONNX operator computes on complex tensors");
    std::string want;
    for (const auto& [arr, nm] : options.constant_names)
      if (arr.impl() == a.impl()) want = nm;
    std::vector<unsigned char> bytes(static_cast<std::size_t>(a.size()) * itemsize(a.dtype()));
    if (!bytes.empty()) copy_to_host(a, bytes.data());
    if (options.only_named_initializers && want.empty()) {
      names[static_cast<std::size_t>(id)] = b.constant_node(bytes.data(), a.dtype(), a.shape());
      continue;
    }
    const std::string nm = unique_name(want, taken, "const_" + std::to_string(i));
    names[static_cast<std::size_t>(id)] = b.tensor(bytes.data(), a.dtype(), a.shape(), nm);
  }
  for (const auto& n : g.nodes) {
    for (int id : n.inputs)
      if (id < 0 || static_cast<std::size_t>(id) >= g.values.size() || names[static_cast<std::size_t>(id)].empty())
        export_fail(std::string("node '") + op_info(n.op).name + "' reads value " + std::to_string(id) + " before anything defines it");
    for (int id : n.outputs)
      if (id < 0 || static_cast<std::size_t>(id) >= g.values.size()) export_fail("output id " + std::to_string(id) + " is out of range");
    NodeWriter(b, g, n, names).write();
  }
  // Graph outputs under their own names (an Identity each, so that an input, a constant or
  // one value returned twice is still a distinct output).
  for (std::size_t i = 0; i < g.output_ids.size(); ++i) {
    const int id = g.output_ids[i];
    if (id < 0 || static_cast<std::size_t>(id) >= g.values.size() || names[static_cast<std::size_t>(id)].empty())
      export_fail("output " + std::to_string(i) + " (value " + std::to_string(id) + ") is not defined");
    const auto& v = g.value(id);
    if (is_complex(v.dtype)) export_fail("output " + std::to_string(i) + " is complex: no ONNX operator computes on complex tensors");
    const std::string nm =
        unique_name(options.output_names.empty() ? "" : options.output_names[i], taken, "output_" + std::to_string(i));
    auto* node = gp->add_node();
    node->set_op_type("Identity");
    node->set_name("out_" + std::to_string(i));
    node->add_input(names[static_cast<std::size_t>(id)]);
    node->add_output(nm);
    value_info(gp->add_output(), nm, v.dtype, &v.shape, !dyn[static_cast<std::size_t>(id)]);
  }

  // What ONNX itself says of the model: a refusal here is an exporter bug, reported as such.
  try {
    ::onnx::checker::check_model(m);
    ::onnx::ModelProto inferred = m;
    ::onnx::shape_inference::InferShapes(inferred, ::onnx::OpSchemaRegistry::Instance(), ::onnx::ShapeInferenceOptions(true, 1, false));
  } catch (const std::exception& e) {
    export_fail(std::string("ONNX refuses the exported model (an exporter bug; please report it): ") + e.what());
  }
  const std::size_t size = m.ByteSizeLong();
  if (size > static_cast<std::size_t>(std::numeric_limits<int>::max()))
    export_fail("the model is " + std::to_string(size) + " bytes, above protobuf's 2 GiB limit for one message");
  std::string out;
  if (!m.SerializeToString(&out)) export_fail("protobuf could not serialize the model");
  return out;
}

void save(const Graph& g, const std::string& path, const ExportOptions& options) {
  const std::string bytes = export_graph(g, options);
  ivy::detail::AtomicFile f(path, "onnx.export");
  f.write(bytes.data(), bytes.size());
  f.commit();
}

void export_function(const TracedFn& fn, const std::vector<Array>& example_inputs, const std::string& path,
                     const ExportOptions& options) {
  save(trace(fn, example_inputs), path, options);
}

}  // namespace ivy::onnx

// Fused elementwise programs: building them from graph nodes and running them block by block.
#include "trace/fusion.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <sstream>
#include <unordered_map>
#ifdef IVY_FUSION_OPENMP
#include <omp.h>
#endif

#include "cpu_isa.hpp"
#include "npy_scalar.hpp"
#include "scalar_ops.hpp"
#include "vec_math.hpp"
#include "ivy/dispatch.hpp"
#include "trace/codegen.hpp"

namespace ivy::fusion {

namespace {
constexpr std::int64_t kBlock = 1024;  // elements per block: every scratch slot holds one block

bool fusible_dtype(DType d) {
  return d == DType::bool_ || d == DType::int32 || d == DType::int64 || d == DType::float32 || d == DType::float64;
}

// The FOp of an elementwise primitive, and how its operands are typed:
//   same   operands converted to the result dtype
//   cmp    operands converted to their common dtype, result bool
//   logic  operands converted to bool, result bool
//   pred   operand kept, result bool (isnan, signbit, ...)
enum class Form { same, cmp, logic, pred };
struct OpEntry {
  OpId op;
  FOp fop;
  Form form;
  bool float_only;  // only for real floating results/operands
  bool int_ok;      // integer (and bool where the op allows it) compute dtypes
};
constexpr OpEntry kTable[] = {
    {OpId::abs, FOp::abs, Form::same, false, true},
    {OpId::negative, FOp::negative, Form::same, false, true},
    {OpId::positive, FOp::convert, Form::same, false, true},
    {OpId::square, FOp::square, Form::same, false, true},
    {OpId::sqrt, FOp::sqrt, Form::same, true, false},
    {OpId::reciprocal, FOp::reciprocal, Form::same, true, false},
    {OpId::floor, FOp::floor, Form::same, false, true},
    {OpId::ceil, FOp::ceil, Form::same, false, true},
    {OpId::trunc, FOp::trunc, Form::same, false, true},
    {OpId::round, FOp::round, Form::same, false, true},
    {OpId::exp, FOp::exp, Form::same, true, false},
    {OpId::expm1, FOp::expm1, Form::same, true, false},
    {OpId::log, FOp::log, Form::same, true, false},
    {OpId::log1p, FOp::log1p, Form::same, true, false},
    {OpId::log2, FOp::log2, Form::same, true, false},
    {OpId::log10, FOp::log10, Form::same, true, false},
    {OpId::sin, FOp::sin, Form::same, true, false},
    {OpId::cos, FOp::cos, Form::same, true, false},
    {OpId::tan, FOp::tan, Form::same, true, false},
    {OpId::sinh, FOp::sinh, Form::same, true, false},
    {OpId::cosh, FOp::cosh, Form::same, true, false},
    {OpId::tanh, FOp::tanh, Form::same, true, false},
    {OpId::asin, FOp::asin, Form::same, true, false},
    {OpId::acos, FOp::acos, Form::same, true, false},
    {OpId::atan, FOp::atan, Form::same, true, false},
    {OpId::asinh, FOp::asinh, Form::same, true, false},
    {OpId::acosh, FOp::acosh, Form::same, true, false},
    {OpId::atanh, FOp::atanh, Form::same, true, false},
    {OpId::isnan, FOp::isnan, Form::pred, false, true},
    {OpId::isinf, FOp::isinf, Form::pred, false, true},
    {OpId::isfinite, FOp::isfinite, Form::pred, false, true},
    {OpId::signbit, FOp::signbit, Form::pred, false, true},
    {OpId::logical_not, FOp::logical_not, Form::logic, false, true},
    {OpId::bitwise_invert, FOp::bitwise_invert, Form::same, false, true},
    {OpId::add, FOp::add, Form::same, false, true},
    {OpId::subtract, FOp::subtract, Form::same, false, true},
    {OpId::multiply, FOp::multiply, Form::same, false, true},
    {OpId::divide, FOp::divide, Form::same, true, false},
    {OpId::maximum, FOp::maximum, Form::same, false, true},
    {OpId::minimum, FOp::minimum, Form::same, false, true},
    {OpId::pow, FOp::pow, Form::same, true, false},
    {OpId::atan2, FOp::atan2, Form::same, true, false},
    {OpId::hypot, FOp::hypot, Form::same, true, false},
    {OpId::logaddexp, FOp::logaddexp, Form::same, true, false},
    {OpId::copysign, FOp::copysign, Form::same, true, false},
    {OpId::bitwise_and, FOp::bitwise_and, Form::same, false, true},
    {OpId::bitwise_or, FOp::bitwise_or, Form::same, false, true},
    {OpId::bitwise_xor, FOp::bitwise_xor, Form::same, false, true},
    {OpId::equal, FOp::equal, Form::cmp, false, true},
    {OpId::not_equal, FOp::not_equal, Form::cmp, false, true},
    {OpId::less, FOp::less, Form::cmp, false, true},
    {OpId::less_equal, FOp::less_equal, Form::cmp, false, true},
    {OpId::greater, FOp::greater, Form::cmp, false, true},
    {OpId::greater_equal, FOp::greater_equal, Form::cmp, false, true},
    {OpId::logical_and, FOp::bitwise_and, Form::logic, false, true},
    {OpId::logical_or, FOp::bitwise_or, Form::logic, false, true},
    {OpId::logical_xor, FOp::bitwise_xor, Form::logic, false, true},
};
const OpEntry* entry_of(OpId op) {
  for (const auto& e : kTable)
    if (e.op == op) return &e;
  return nullptr;
}
bool bitwise(FOp f) { return f == FOp::bitwise_and || f == FOp::bitwise_or || f == FOp::bitwise_xor || f == FOp::bitwise_invert; }
}  // namespace

const char* fop_name(FOp f) {
  static const char* const names[] = {
      "convert", "abs", "negative", "square", "sqrt", "reciprocal", "floor", "ceil", "trunc", "round", "exp", "expm1",
      "log", "log1p", "log2", "log10", "sin", "cos", "tan", "sinh", "cosh", "tanh", "asin", "acos", "atan", "asinh",
      "acosh", "atanh", "isnan", "isinf", "isfinite", "signbit", "logical_not", "bitwise_invert", "add", "subtract",
      "multiply", "divide", "maximum", "minimum", "pow", "atan2", "hypot", "logaddexp", "copysign", "bitwise_and",
      "bitwise_or", "bitwise_xor", "equal", "not_equal", "less", "less_equal", "greater", "greater_equal", "where"};
  return names[static_cast<int>(f)];
}

bool fusible(const Graph& g, const Graph::Node& n) {
  if (n.outputs.size() != 1) return false;
  const auto& out = g.value(n.outputs[0]);
  if (!fusible_dtype(out.dtype)) return false;
  for (int id : n.inputs)
    if (!fusible_dtype(g.value(id).dtype)) return false;
  if (n.op == OpId::where) return true;
  if (n.op == OpId::astype) {
    // float -> integer conversion of NaN or out-of-range values is left to the backends
    const DType from = g.value(n.inputs[0]).dtype;
    return !(is_real_floating(from) && (out.dtype == DType::int32 || out.dtype == DType::int64));
  }
  const OpEntry* e = entry_of(n.op);
  if (!e) return false;
  DType compute = out.dtype;
  if (e->form == Form::cmp)
    compute = n.inputs.size() == 2 ? result_type(g.value(n.inputs[0]).dtype,
                                                 g.value(n.inputs[1]).dtype)
                                   : out.dtype;
  if (e->form == Form::pred) compute = g.value(n.inputs[0]).dtype;
  if (e->form == Form::logic) return true;
  if (!fusible_dtype(compute)) return false;
  if (is_real_floating(compute)) return !bitwise(e->fop);
  if (e->float_only || !e->int_ok) return false;
  if (compute == DType::bool_) {
    // bool arithmetic beyond the bitwise ops and comparisons is left to the backends
    return bitwise(e->fop) || e->form == Form::cmp || e->form == Form::pred;
  }
  return true;
}

Program build(const Graph& g, const std::vector<int>& nodes, const std::vector<int>& outputs) {
  Program p;
  p.nodes = nodes;
  p.shape = g.value(g.node(nodes.back()).outputs[0]).shape;
  std::unordered_map<int, int> reg_of;  // value id -> register
  auto new_reg = [&](DType d) {
    p.reg_dtype.push_back(d);
    return static_cast<int>(p.reg_dtype.size()) - 1;
  };
  // external inputs first, in order of first use
  std::vector<char> inside(g.values.size(), 0);
  for (int k : nodes) inside[static_cast<std::size_t>(g.node(k).outputs[0])] = 1;
  for (int k : nodes)
    for (int id : g.node(k).inputs)
      if (!inside[static_cast<std::size_t>(id)] && !reg_of.count(id)) {
        reg_of[id] = new_reg(g.value(id).dtype);
        p.input_values.push_back(id);
      }
  // how each input is read
  const Shape& S = p.shape;
  const int rank = static_cast<int>(S.size());
  for (int id : p.input_values) {
    const auto& v = g.value(id);
    InputRead r;
    r.dtype = v.dtype;
    if (v.shape.numel() == 1) r.kind = InputRead::scalar;
    else if (v.shape == S) r.kind = InputRead::full;
    else {
      r.kind = InputRead::broadcast;
      // strides of the input over the output's axes (0 where it broadcasts), then adjacent
      // axes merged where the input steps through them as one
      const int vr = static_cast<int>(v.shape.size());
      std::vector<std::int64_t> dims, strides;
      std::int64_t stride = 1;
      std::vector<std::int64_t> st(static_cast<std::size_t>(rank), 0);
      for (int d = rank - 1; d >= 0; --d) {
        const int vd = d - (rank - vr);
        const std::int64_t len = vd >= 0 ? v.shape[static_cast<std::size_t>(vd)] : 1;
        st[static_cast<std::size_t>(d)] = len == 1 ? 0 : stride;
        stride *= len;
      }
      for (int d = 0; d < rank; ++d) {
        const std::int64_t len = S[static_cast<std::size_t>(d)];
        if (len == 1) continue;
        const std::int64_t s = st[static_cast<std::size_t>(d)];
        if (!dims.empty() && strides.back() == s * len) {
          dims.back() *= len;
          strides.back() = s;
        } else {
          dims.push_back(len);
          strides.push_back(s);
        }
      }
      r.dims = dims;
      r.strides = strides;
      const std::int64_t run = dims.empty() ? 1 : dims.back();
      p.row = p.row == 0 ? run : std::min(p.row, run);
    }
    p.reads.push_back(r);
  }
  // the instructions
  auto operand = [&](int value, DType want) {
    const int r = reg_of.at(value);
    if (p.reg_dtype[static_cast<std::size_t>(r)] == want) return r;
    const int c = new_reg(want);
    p.code.push_back({FOp::convert, want, p.reg_dtype[static_cast<std::size_t>(r)], c, r});
    return c;
  };
  for (int k : nodes) {
    const auto& n = g.node(k);
    const int out = n.outputs[0];
    const DType dt = g.value(out).dtype;
    auto in_dt = [&](int i) { return g.value(n.inputs[static_cast<std::size_t>(i)]).dtype; };
    Instr ins{FOp::convert, dt, dt, -1};
    if (n.op == OpId::where) {
      ins.op = FOp::where;
      ins.a = operand(n.inputs[0], DType::bool_);
      ins.b = operand(n.inputs[1], dt);
      ins.c = operand(n.inputs[2], dt);
    } else if (n.op == OpId::astype) {
      ins.a = operand(n.inputs[0], in_dt(0));
      ins.arg_dt = in_dt(0);
    } else {
      const OpEntry* e = entry_of(n.op);
      ins.op = e->fop;
      DType compute = dt;
      if (e->form == Form::cmp) compute = n.inputs.size() == 2 ? result_type(in_dt(0), in_dt(1)) : in_dt(0);
      if (e->form == Form::pred) compute = in_dt(0);
      if (e->form == Form::logic) compute = DType::bool_;
      ins.arg_dt = compute;
      ins.a = operand(n.inputs[0], compute);
      if (n.inputs.size() > 1) ins.b = operand(n.inputs[1], compute);
      if (n.op == OpId::positive) ins.arg_dt = compute;  // a copy through convert
    }
    ins.dst = new_reg(dt);
    p.code.push_back(ins);
    reg_of[out] = ins.dst;
  }
  for (int v : outputs) {
    p.output_values.push_back(v);
    p.output_regs.push_back(reg_of.at(v));
  }
  // scratch slots: inputs read in full use their data directly; scalar and broadcast inputs
  // own a slot for the whole run; instruction results take a free slot and give it back
  // after their last reader (outputs stay to the end of the block)
  const int n_regs = static_cast<int>(p.reg_dtype.size());
  std::vector<int> last(static_cast<std::size_t>(n_regs), -1);
  for (std::size_t i = 0; i < p.code.size(); ++i)
    for (int r : {p.code[i].a, p.code[i].b, p.code[i].c})
      if (r >= 0) last[static_cast<std::size_t>(r)] = static_cast<int>(i);
  for (int r : p.output_regs) last[static_cast<std::size_t>(r)] = std::numeric_limits<int>::max();
  p.reg_slot.assign(static_cast<std::size_t>(n_regs), -1);
  std::vector<int> free_slots;
  for (std::size_t i = 0; i < p.input_values.size(); ++i)
    if (p.reads[i].kind != InputRead::full) p.reg_slot[i] = p.n_slots++;
  for (std::size_t i = 0; i < p.code.size(); ++i) {
    int slot;
    if (!free_slots.empty()) slot = free_slots.back(), free_slots.pop_back();
    else slot = p.n_slots++;
    p.reg_slot[static_cast<std::size_t>(p.code[i].dst)] = slot;
    for (int r : {p.code[i].a, p.code[i].b, p.code[i].c})
      if (r >= static_cast<int>(p.input_values.size()) && last[static_cast<std::size_t>(r)] == static_cast<int>(i)) {
        free_slots.push_back(p.reg_slot[static_cast<std::size_t>(r)]);
        last[static_cast<std::size_t>(r)] = -2;  // an instruction may read one register twice
      }
  }
  // uniform registers: one-element inputs, and results computed from those alone
  p.reg_uniform.assign(static_cast<std::size_t>(n_regs), 0);
  for (std::size_t i = 0; i < p.input_values.size(); ++i) p.reg_uniform[i] = p.reads[i].kind == InputRead::scalar;
  for (const Instr& ins : p.code) {
    bool u = true;
    for (int r : {ins.a, ins.b, ins.c})
      if (r >= 0) u = u && p.reg_uniform[static_cast<std::size_t>(r)];
    p.reg_uniform[static_cast<std::size_t>(ins.dst)] = u;
  }
  p.reg_output.assign(static_cast<std::size_t>(n_regs), -1);
  for (std::size_t j = p.output_regs.size(); j-- > 0;) p.reg_output[static_cast<std::size_t>(p.output_regs[j])] = static_cast<int>(j);
  return p;
}

std::string Program::str() const {
  std::ostringstream os;
  os << "fused" << shape << " {";
  for (std::size_t i = 0; i < input_values.size(); ++i) os << " r" << i << "=%" << input_values[i];
  os << ";";
  for (const Instr& in : code) {
    os << " r" << in.dst << "=" << fop_name(in.op) << "(r" << in.a;
    if (in.b >= 0) os << ",r" << in.b;
    if (in.c >= 0) os << ",r" << in.c;
    os << "):" << dtype_name(in.dt) << ";";
  }
  for (std::size_t j = 0; j < output_values.size(); ++j) os << " %" << output_values[j] << "=r" << output_regs[j];
  os << " }";
  return os.str();
}

// ---------------------------------------------------------------- the block interpreter
namespace {
using u8 = unsigned char;
namespace sops = cpu::sops;
// lambdas of the loops inline into run_avx2 and take its instruction set
#define IVY_INL __attribute__((always_inline))

template <class F>
[[gnu::always_inline]] inline void visit5(DType d, F&& f) {
  switch (d) {
    case DType::bool_: return f(u8{});
    case DType::int32: return f(std::int32_t{});
    case DType::int64: return f(std::int64_t{});
    case DType::float32: return f(float{});
    default: return f(double{});
  }
}

template <class O, class A, class F>
[[gnu::always_inline]] inline void map1(void* o, const void* a, std::int64_t n, F f) {
  O* __restrict po = static_cast<O*>(o);
  const A* __restrict pa = static_cast<const A*>(a);
  // unrolled after vectorization: long dependency chains of several vectors overlap
#pragma GCC unroll 4
  for (std::int64_t i = 0; i < n; ++i) po[i] = f(pa[i]);
}
template <class O, class A, class F>
[[gnu::always_inline]] inline void map2(void* o, const void* a, const void* b, std::int64_t n, int mode, F f) {
  // mode 0: both operands full blocks; 1: b one value for the whole block; 2: a one value
  O* __restrict po = static_cast<O*>(o);
  const A* __restrict pa = static_cast<const A*>(a);
  const A* __restrict pb = static_cast<const A*>(b);
  if (mode == 1) {
    const A vb = pb[0];
    for (std::int64_t i = 0; i < n; ++i) po[i] = f(pa[i], vb);
  } else if (mode == 2) {
    const A va = pa[0];
    for (std::int64_t i = 0; i < n; ++i) po[i] = f(va, pb[i]);
  } else {
    for (std::int64_t i = 0; i < n; ++i) po[i] = f(pa[i], pb[i]);
  }
}

template <class T> constexpr bool kInt = sops::kInt<T>;

// One instruction over n elements: o = op(a, b, c), each element by scalar_ops.hpp's function
// (the transcendental float32 ones by vec_math's block functions, float64 ones by libm's), as
// the xtensor backend's eager kernels compute them.
[[gnu::always_inline]] inline void exec(const Instr& in, void* o, const void* a, const void* b, const void* c,
                                        std::int64_t n, int mode) {
  namespace vm = cpu::vmath;
  const DType dt = in.dt;
#define IVY_S1(F) [](auto x) IVY_INL { return sops::F(x); }
#define IVY_S2(F) [](auto x, auto y) IVY_INL { return sops::F(x, y); }
  switch (in.op) {
    case FOp::convert:
      visit5(in.arg_dt, [&](auto s) IVY_INL {
        using S = decltype(s);
        visit5(dt, [&](auto t) IVY_INL {
          using T = decltype(t);
          map1<T, S>(o, a, n, [](S v) IVY_INL { return sops::convert<T>(v); });
        });
      });
      return;
    case FOp::where:
      visit5(dt, [&](auto t) IVY_INL {
        using T = decltype(t);
        T* __restrict po = static_cast<T*>(o);
        const u8* __restrict pc = static_cast<const u8*>(a);
        const T* __restrict pb = static_cast<const T*>(b);
        const T* __restrict pd = static_cast<const T*>(c);
        for (std::int64_t i = 0; i < n; ++i) po[i] = sops::where(pc[i], pb[i], pd[i]);
      });
      return;
    case FOp::equal:
    case FOp::not_equal:
    case FOp::less:
    case FOp::less_equal:
    case FOp::greater:
    case FOp::greater_equal:
      visit5(in.arg_dt, [&](auto s) IVY_INL {
        using S = decltype(s);
        switch (in.op) {
          case FOp::equal: return map2<u8, S>(o, a, b, n, mode, IVY_S2(equal));
          case FOp::not_equal: return map2<u8, S>(o, a, b, n, mode, IVY_S2(not_equal));
          case FOp::less: return map2<u8, S>(o, a, b, n, mode, IVY_S2(less));
          case FOp::less_equal: return map2<u8, S>(o, a, b, n, mode, IVY_S2(less_equal));
          case FOp::greater: return map2<u8, S>(o, a, b, n, mode, IVY_S2(greater));
          default: return map2<u8, S>(o, a, b, n, mode, IVY_S2(greater_equal));
        }
      });
      return;
    case FOp::isnan:
    case FOp::isinf:
    case FOp::isfinite:
    case FOp::signbit:
      visit5(in.arg_dt, [&](auto s) IVY_INL {
        using S = decltype(s);
        switch (in.op) {
          case FOp::isnan: return map1<u8, S>(o, a, n, IVY_S1(isnan));
          case FOp::isinf: return map1<u8, S>(o, a, n, IVY_S1(isinf));
          case FOp::isfinite: return map1<u8, S>(o, a, n, IVY_S1(isfinite));
          default: return map1<u8, S>(o, a, n, IVY_S1(signbit));
        }
      });
      return;
    case FOp::logical_not: return map1<u8, u8>(o, a, n, IVY_S1(logical_not));
    default: break;
  }
  // the rest: result and operands of dtype dt
  visit5(dt, [&](auto t) IVY_INL {
    using T = decltype(t);
    if constexpr (std::is_same_v<T, u8>) {
      switch (in.op) {
        case FOp::bitwise_and: return map2<T, T>(o, a, b, n, mode, IVY_S2(bitwise_and));
        case FOp::bitwise_or: return map2<T, T>(o, a, b, n, mode, IVY_S2(bitwise_or));
        case FOp::bitwise_xor: return map2<T, T>(o, a, b, n, mode, IVY_S2(bitwise_xor));
        case FOp::bitwise_invert: return map1<T, T>(o, a, n, IVY_S1(bitwise_invert));
        default: return;
      }
    } else if constexpr (kInt<T>) {
      switch (in.op) {
        case FOp::abs: return map1<T, T>(o, a, n, IVY_S1(abs));
        case FOp::negative: return map1<T, T>(o, a, n, IVY_S1(negative));
        case FOp::square: return map1<T, T>(o, a, n, IVY_S1(square));
        case FOp::floor:
        case FOp::ceil:
        case FOp::trunc:
        case FOp::round: return map1<T, T>(o, a, n, [](T x) IVY_INL { return x; });
        case FOp::bitwise_invert: return map1<T, T>(o, a, n, IVY_S1(bitwise_invert));
        case FOp::add: return map2<T, T>(o, a, b, n, mode, IVY_S2(add));
        case FOp::subtract: return map2<T, T>(o, a, b, n, mode, IVY_S2(subtract));
        case FOp::multiply: return map2<T, T>(o, a, b, n, mode, IVY_S2(multiply));
        case FOp::maximum: return map2<T, T>(o, a, b, n, mode, IVY_S2(maximum));
        case FOp::minimum: return map2<T, T>(o, a, b, n, mode, IVY_S2(minimum));
        case FOp::bitwise_and: return map2<T, T>(o, a, b, n, mode, IVY_S2(bitwise_and));
        case FOp::bitwise_or: return map2<T, T>(o, a, b, n, mode, IVY_S2(bitwise_or));
        case FOp::bitwise_xor: return map2<T, T>(o, a, b, n, mode, IVY_S2(bitwise_xor));
        default: return;
      }
    } else {
      constexpr bool f32 = std::is_same_v<T, float>;
      float* of = static_cast<float*>(o);
      const float* af = static_cast<const float*>(a);
      const float* bf = static_cast<const float*>(b);
      auto vm1 = [&](vm::Op op, auto libm) IVY_INL {
        if constexpr (f32) vm::unary_n(op, of, af, n);
        else map1<T, T>(o, a, n, libm);
      };
      const auto which = static_cast<cpu::loops::OneElement>(mode);
      switch (in.op) {
        case FOp::abs: return map1<T, T>(o, a, n, IVY_S1(abs));
        case FOp::negative: return map1<T, T>(o, a, n, IVY_S1(negative));
        case FOp::square: return map1<T, T>(o, a, n, IVY_S1(square));
        case FOp::sqrt: return map1<T, T>(o, a, n, IVY_S1(sqrt));
        case FOp::reciprocal: return map1<T, T>(o, a, n, IVY_S1(reciprocal));
        case FOp::floor: return map1<T, T>(o, a, n, IVY_S1(floor));
        case FOp::ceil: return map1<T, T>(o, a, n, IVY_S1(ceil));
        case FOp::trunc: return map1<T, T>(o, a, n, IVY_S1(trunc));
        case FOp::round: return map1<T, T>(o, a, n, IVY_S1(round));
        case FOp::exp: return vm1(vm::Op::exp, [](T x) IVY_INL { return std::exp(x); });
        case FOp::expm1: return vm1(vm::Op::expm1, [](T x) IVY_INL { return std::expm1(x); });
        case FOp::log: return vm1(vm::Op::log, [](T x) IVY_INL { return std::log(x); });
        case FOp::log1p:
          if constexpr (f32) return vm::log1p_n(of, af, n);
          else return map1<T, T>(o, a, n, [](T x) IVY_INL { return std::log1p(x); });
        case FOp::log2: return vm1(vm::Op::log2, [](T x) IVY_INL { return std::log2(x); });
        case FOp::log10: return vm1(vm::Op::log10, [](T x) IVY_INL { return std::log10(x); });
        case FOp::sin: return vm1(vm::Op::sin, [](T x) IVY_INL { return std::sin(x); });
        case FOp::cos: return vm1(vm::Op::cos, [](T x) IVY_INL { return std::cos(x); });
        case FOp::tan: return vm1(vm::Op::tan, [](T x) IVY_INL { return std::tan(x); });
        case FOp::sinh: return vm1(vm::Op::sinh, [](T x) IVY_INL { return std::sinh(x); });
        case FOp::cosh: return vm1(vm::Op::cosh, [](T x) IVY_INL { return std::cosh(x); });
        case FOp::tanh: return vm1(vm::Op::tanh, [](T x) IVY_INL { return std::tanh(x); });
        case FOp::asin: return vm1(vm::Op::asin, [](T x) IVY_INL { return std::asin(x); });
        case FOp::acos: return vm1(vm::Op::acos, [](T x) IVY_INL { return std::acos(x); });
        case FOp::atan: return vm1(vm::Op::atan, [](T x) IVY_INL { return std::atan(x); });
        case FOp::asinh: return vm1(vm::Op::asinh, [](T x) IVY_INL { return std::asinh(x); });
        case FOp::acosh: return vm1(vm::Op::acosh, [](T x) IVY_INL { return std::acosh(x); });
        case FOp::atanh: return vm1(vm::Op::atanh, [](T x) IVY_INL { return std::atanh(x); });
        case FOp::add: return map2<T, T>(o, a, b, n, mode, IVY_S2(add));
        case FOp::subtract: return map2<T, T>(o, a, b, n, mode, IVY_S2(subtract));
        case FOp::multiply: return map2<T, T>(o, a, b, n, mode, IVY_S2(multiply));
        case FOp::divide: return map2<T, T>(o, a, b, n, mode, IVY_S2(divide));
        case FOp::maximum: return map2<T, T>(o, a, b, n, mode, IVY_S2(maximum));
        case FOp::minimum: return map2<T, T>(o, a, b, n, mode, IVY_S2(minimum));
        case FOp::copysign: return map2<T, T>(o, a, b, n, mode, IVY_S2(copysign));
        case FOp::pow:
          if constexpr (f32) return vm::pow_n(of, af, bf, n, which);
          else return map2<T, T>(o, a, b, n, mode, [](T x, T y) IVY_INL { return std::pow(x, y); });
        case FOp::atan2:
          if constexpr (f32) return vm::atan2_n(of, af, bf, n, which);
          else return map2<T, T>(o, a, b, n, mode, [](T x, T y) IVY_INL { return std::atan2(x, y); });
        case FOp::hypot:
          if constexpr (f32) return vm::hypot_n(of, af, bf, n, which);
          else return map2<T, T>(o, a, b, n, mode, [](T x, T y) IVY_INL { return std::hypot(x, y); });
        case FOp::logaddexp:
          if constexpr (f32) return vm::logaddexp_n(of, af, bf, n, which);
          else return map2<T, T>(o, a, b, n, mode, IVY_S2(logaddexp));
        default: return;
      }
    }
  });
#undef IVY_S1
#undef IVY_S2
}

// Fills `n` elements of slot `dst` with a broadcast input's elements for output positions
// [start, start + n).
template <std::size_t Size>
struct Item {
  unsigned char b[Size];
};
// Copies `run` items of Size bytes from src (every `stride` items; 0: one item repeated).
template <std::size_t Size>
void copy_run(u8* out, const u8* src, std::int64_t run, std::int64_t stride) {
  using I = Item<Size>;
  I* o = reinterpret_cast<I*>(out);
  const I* s = reinterpret_cast<const I*>(src);
  if (stride == 1) {
    std::memcpy(out, src, static_cast<std::size_t>(run) * Size);
  } else if (stride == 0) {
    // one item repeated: a fill of the unsigned integer of its size (vectorizes)
    using W = std::conditional_t<Size == 1, std::uint8_t, std::conditional_t<Size == 4, std::uint32_t, std::uint64_t>>;
    W v;
    std::memcpy(&v, s, Size);
    W* w = reinterpret_cast<W*>(out);
    for (std::int64_t i = 0; i < run; ++i) w[i] = v;
  } else {
    for (std::int64_t i = 0; i < run; ++i) std::memcpy(o + i, s + i * stride, Size);
  }
}

// Fills `n` elements of slot `dst` with a broadcast input's elements for output positions
// [start, start + n).
template <std::size_t Size>
void gather(const InputRead& r, const u8* base, std::int64_t start, std::int64_t n, u8* dst) {
  const int nd = static_cast<int>(r.dims.size());
  std::int64_t idx[kMaxRank] = {};
  std::int64_t rem = start, off = 0;
  for (int d = nd - 1; d >= 0; --d) {
    idx[d] = rem % r.dims[static_cast<std::size_t>(d)];
    rem /= r.dims[static_cast<std::size_t>(d)];
    off += idx[d] * r.strides[static_cast<std::size_t>(d)];
  }
  const std::int64_t inner = r.dims[static_cast<std::size_t>(nd - 1)];
  const std::int64_t inner_stride = r.strides[static_cast<std::size_t>(nd - 1)];
  std::int64_t done = 0;
  while (done < n) {
    const std::int64_t run = std::min(inner - idx[nd - 1], n - done);
    copy_run<Size>(dst + static_cast<std::size_t>(done) * Size, base + static_cast<std::size_t>(off) * Size, run, inner_stride);
    done += run;
    // step the odometer past the run
    idx[nd - 1] += run;
    off += run * inner_stride;
    for (int d = nd - 1; d > 0 && idx[d] == r.dims[static_cast<std::size_t>(d)]; --d) {
      off -= idx[d] * r.strides[static_cast<std::size_t>(d)];
      idx[d] = 0;
      ++idx[d - 1];
      off += r.strides[static_cast<std::size_t>(d - 1)];
    }
  }
}
void gather_any(const InputRead& r, const u8* base, std::int64_t start, std::int64_t n, u8* dst) {
  switch (itemsize(r.dtype)) {
    case 1: return gather<1>(r, base, start, n, dst);
    case 4: return gather<4>(r, base, start, n, dst);
    default: return gather<8>(r, base, start, n, dst);
  }
}

// Elements [begin, end) of the program's output.
[[gnu::always_inline]] inline void run_impl(const Program& p, const void* const* in, void* const* out, void* scratch,
                                            std::int64_t begin, std::int64_t end) {
  const std::int64_t N = p.shape.numel();
  if (N == 0 || begin >= end) return;
  const std::int64_t block = std::min(N, kBlock);
  auto slot = [&](int s) IVY_INL { return static_cast<u8*>(scratch) + static_cast<std::size_t>(s) * static_cast<std::size_t>(block) * 8; };
  const std::size_t n_regs = p.reg_dtype.size();
  // per-call state on the stack for programs of up to 128 registers and 32 outputs
  const void* ptr_small[128];
  std::vector<const void*> ptr_big;
  const void** ptr = ptr_small;
  if (n_regs > 128) ptr_big.resize(n_regs), ptr = ptr_big.data();
  const std::size_t n_in = p.input_values.size();
  // outputs written directly: those computed by an instruction whose array no input shares
  const std::size_t n_out = p.output_regs.size();
  char direct_small[32];
  std::vector<char> direct_big;
  char* direct = direct_small;
  if (n_out > 32) direct_big.resize(n_out), direct = direct_big.data();
  for (std::size_t j = 0; j < n_out; ++j) {
    bool d = p.reg_output[static_cast<std::size_t>(p.output_regs[j])] == static_cast<int>(j);
    for (std::size_t i = 0; i < n_in; ++i) d = d && in[i] != out[j];
    direct[j] = d;
  }
  // Chunks: up to `block` elements, and when the program reads a broadcast input, inside one
  // run of `row` elements (p.row): every broadcast input is then either one element for the
  // whole chunk (a uniform register) or a contiguous stretch, read in place. Rows shorter
  // than 64 elements are gathered in full blocks instead.
  const std::int64_t row = p.row >= 64 ? p.row : 0;
  char uni_small[128];
  std::vector<char> uni_big;
  char* uni = uni_small;
  if (n_regs > 128) uni_big.resize(n_regs), uni = uni_big.data();
  auto splat = [&](int r, std::int64_t n) IVY_INL {
    // register r holds one value: fill its slot with n copies, and read it from there
    u8* dst = slot(p.reg_slot[static_cast<std::size_t>(r)]);
    const u8* src = static_cast<const u8*>(ptr[static_cast<std::size_t>(r)]);
    switch (itemsize(p.reg_dtype[static_cast<std::size_t>(r)])) {
      case 1: copy_run<1>(dst, src, n, 0); break;
      case 4: copy_run<4>(dst, src, n, 0); break;
      default: copy_run<8>(dst, src, n, 0); break;
    }
    ptr[static_cast<std::size_t>(r)] = dst;
    uni[static_cast<std::size_t>(r)] = 0;
  };
  std::int64_t start = begin;
  while (start < end) {
    const std::int64_t n = std::min(row ? std::min(block, row - start % row) : block, end - start);
    for (std::size_t i = 0; i < n_in; ++i) {
      const InputRead& r = p.reads[i];
      const std::size_t isz = itemsize(r.dtype);
      const u8* base = static_cast<const u8*>(in[i]);
      uni[i] = 0;
      if (r.kind == InputRead::full) {
        ptr[i] = base + static_cast<std::size_t>(start) * isz;
      } else if (r.kind == InputRead::scalar) {
        ptr[i] = base;
        uni[i] = 1;
      } else if (row) {
        // the input's element at output position `start`, then its step along the chunk
        std::int64_t rem = start, off = 0;
        for (std::size_t d = r.dims.size(); d-- > 0;) {
          off += (rem % r.dims[d]) * r.strides[d];
          rem /= r.dims[d];
        }
        ptr[i] = base + static_cast<std::size_t>(off) * isz;
        uni[i] = r.strides.back() == 0;
      } else {
        gather_any(r, base, start, n, slot(p.reg_slot[i]));
        ptr[i] = slot(p.reg_slot[i]);
      }
    }
    for (const Instr& ins : p.code) {
      const int ra = ins.a, rb = ins.b, rc = ins.c;
      const bool ua = uni[static_cast<std::size_t>(ra)], ub = rb < 0 || uni[static_cast<std::size_t>(rb)],
                 uc = rc < 0 || uni[static_cast<std::size_t>(rc)];
      const bool all_uniform = ua && ub && uc;
      int mode = 0;
      if (!all_uniform) {
        if (rc >= 0) {  // where: operands in full blocks
          if (ua) splat(ra, n);
          if (uni[static_cast<std::size_t>(rb)]) splat(rb, n);
          if (uni[static_cast<std::size_t>(rc)]) splat(rc, n);
        } else if (rb >= 0) {
          mode = ub ? 1 : ua ? 2 : 0;
        }
      }
      // an output's value goes straight to its array unless that array is also an input
      // (written in place): then it is copied after the chunk's last read
      const int j = p.reg_output[static_cast<std::size_t>(ins.dst)];
      void* o = j >= 0 && direct[static_cast<std::size_t>(j)] && p.output_regs[static_cast<std::size_t>(j)] == ins.dst
                    ? static_cast<void*>(static_cast<u8*>(out[j]) + static_cast<std::size_t>(start) * itemsize(ins.dt))
                    : static_cast<void*>(slot(p.reg_slot[static_cast<std::size_t>(ins.dst)]));
      // a result of uniform operands is one value: computed once
      exec(ins, o, ptr[static_cast<std::size_t>(ra)], rb >= 0 ? ptr[static_cast<std::size_t>(rb)] : nullptr,
           rc >= 0 ? ptr[static_cast<std::size_t>(rc)] : nullptr, all_uniform ? 1 : n, mode);
      ptr[static_cast<std::size_t>(ins.dst)] = o;
      uni[static_cast<std::size_t>(ins.dst)] = all_uniform;
    }
    for (std::size_t j = 0; j < p.output_regs.size(); ++j) {
      const int r = p.output_regs[j];
      const std::size_t isz = itemsize(p.reg_dtype[static_cast<std::size_t>(r)]);
      u8* dst = static_cast<u8*>(out[j]) + static_cast<std::size_t>(start) * isz;
      const u8* src = static_cast<const u8*>(ptr[static_cast<std::size_t>(r)]);
      if (uni[static_cast<std::size_t>(r)]) {
        switch (isz) {
          case 1: copy_run<1>(dst, src, n, 0); break;
          case 4: copy_run<4>(dst, src, n, 0); break;
          default: copy_run<8>(dst, src, n, 0); break;
        }
      } else if (dst != src) {
        std::memmove(dst, src, static_cast<std::size_t>(n) * isz);
      }
    }
    start += n;
  }
}

void run_baseline(const Program& p, const void* const* in, void* const* out, void* scratch, std::int64_t b,
                  std::int64_t e) {
  run_impl(p, in, out, scratch, b, e);
}
#if IVY_AVX2
IVY_AVX2_FN void run_avx2(const Program& p, const void* const* in, void* const* out, void* scratch, std::int64_t b,
                          std::int64_t e) {
  run_impl(p, in, out, scratch, b, e);
}
IVY_AVX512_FN void run_avx512(const Program& p, const void* const* in, void* const* out, void* scratch, std::int64_t b,
                              std::int64_t e) {
  run_impl(p, in, out, scratch, b, e);
}
#endif
void run_range(const Program& p, const void* const* in, void* const* out, void* scratch, std::int64_t b,
               std::int64_t e) {
#if IVY_AVX2
  if (cpu::isa::kAvx512) return run_avx512(p, in, out, scratch, b, e);
  if (cpu::isa::kAvx2) return run_avx2(p, in, out, scratch, b, e);
#endif
  run_baseline(p, in, out, scratch, b, e);
}
// This thread's scratch for p, grown as needed and kept for the next call.
void* thread_scratch(const Program& p) {
  thread_local std::unique_ptr<std::vector<double>> mine;
  if (!mine) mine = std::make_unique<std::vector<double>>();
  const std::size_t words = scratch_bytes(p) / 8;
  if (mine->size() < words) mine->resize(words);
  return mine->data();
}
// Outputs of at least this many elements are split over OpenMP's threads.
constexpr std::int64_t kParallelMin = std::int64_t{1} << 16;
}  // namespace

std::size_t scratch_bytes(const Program& p) {
  return static_cast<std::size_t>(std::max(p.n_slots, 1)) * static_cast<std::size_t>(std::min<std::int64_t>(std::max<std::int64_t>(p.shape.numel(), 1), kBlock)) * 8;
}

void gather_input(const Program& p, int input, const void* base, std::int64_t start, std::int64_t n, void* dst) {
  gather_any(p.reads[static_cast<std::size_t>(input)], static_cast<const u8*>(base), start, n, static_cast<u8*>(dst));
}

namespace {
// The functions generated kernels call back (codegen::Runtime).
void rt_gather(const void* program, int input, const void* base, std::int64_t start, std::int64_t n, void* dst) {
  gather_input(*static_cast<const Program*>(program), input, base, start, n, dst);
}
void rt_unary_f32(int op, float* o, const float* x, std::int64_t n) {
  cpu::vmath::unary_n(static_cast<cpu::vmath::Op>(op), o, x, n);
}
void rt_binary_f32(int op, float* o, const float* a, const float* b, std::int64_t n, int which) {
  const auto w = static_cast<cpu::loops::OneElement>(which);
  switch (op) {
    case 0: return cpu::vmath::pow_n(o, a, b, n, w);
    case 1: return cpu::vmath::atan2_n(o, a, b, n, w);
    case 2: return cpu::vmath::hypot_n(o, a, b, n, w);
    default: return cpu::vmath::logaddexp_n(o, a, b, n, w);
  }
}
// Elements [b, e) of p's output by its generated kernel.
void run_kernel(const Program& p, const void* const* in, void* const* out, std::int64_t b, std::int64_t e) {
  const codegen::Runtime rt{&p, rt_gather, rt_unary_f32, cpu::vmath::log1p_n, rt_binary_f32};
  p.kernel(in, out, b, e, &rt);
}
}  // namespace

void run_serial(const Program& p, const void* const* in, void* const* out) {
  const std::int64_t N = p.shape.numel();
  if (N == 0) return;
  if (p.kernel) return run_kernel(p, in, out, 0, N);
  run_range(p, in, out, thread_scratch(p), 0, N);
}

void run(const Program& p, const void* const* in, void* const* out, void* scratch) {
  const std::int64_t N = p.shape.numel();
  if (p.kernel) {
    if (N == 0) return;
#ifdef IVY_FUSION_OPENMP
    if (N >= kParallelMin && omp_get_max_threads() > 1 && !omp_in_parallel()) {
      const std::int64_t blocks = (N + kBlock - 1) / kBlock;
#pragma omp parallel
      {
        const std::int64_t t = omp_get_thread_num(), T = omp_get_num_threads();
        run_kernel(p, in, out, blocks * t / T * kBlock, std::min(N, blocks * (t + 1) / T * kBlock));
      }
      return;
    }
#endif
    run_kernel(p, in, out, 0, N);
    return;
  }
#ifdef IVY_FUSION_OPENMP
  // each element depends on its own position only: whole blocks per thread, same results
  if (!scratch && N >= kParallelMin && omp_get_max_threads() > 1 && !omp_in_parallel()) {
    const std::int64_t blocks = (N + kBlock - 1) / kBlock;
#pragma omp parallel
    {
      const std::int64_t t = omp_get_thread_num(), T = omp_get_num_threads();
      const std::int64_t b = blocks * t / T * kBlock, e = std::min(N, blocks * (t + 1) / T * kBlock);
      run_range(p, in, out, thread_scratch(p), b, e);
    }
    return;
  }
#endif
  run_range(p, in, out, scratch ? scratch : thread_scratch(p), 0, N);
}

}  // namespace ivy::fusion

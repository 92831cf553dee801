// Property-based test of ivy::compile: seeded random programs (elementwise ops with
// broadcasting, promotion and scalar operands, where, astype, reductions, reshapes, views,
// concat, matmul, captured constants) run compiled and eagerly on every backend, and their
// compiled graphs through a JSON round trip. A failing program is shrunk to a minimal one,
// printed with its seed.
//
// Reproduce one case: IVY_COMPILE_RANDOM_SEED=<seed> IVY_COMPILE_RANDOM_N=1
//   build/tests/ivy_tests --gtest_filter='*CompileRandom*'
// (IVY_COMPILE_RANDOM_N alone changes how many programs run per backend; IVY_COMPILE_RANDOM_CODEGEN=1
// gives every program generated kernels, not every 4th.)
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <filesystem>
#include <optional>
#include <random>
#include <sstream>

#include "ivy/compile.hpp"
#include "ivy/graph_io.hpp"
#include "ivy/ivy.hpp"
#ifdef IVY_TEST_HAS_ONNX
#include "ivy/onnx.hpp"
#include "onnx/ort_case.hpp"
#endif

namespace {
using ivy::Array;
using ivy::DType;
using ivy::Shape;
using Rng = std::mt19937_64;

constexpr std::uint64_t kBaseSeed = 20240530;  // case i uses kBaseSeed + i
constexpr int kPrograms = 1500;                // per backend

std::vector<std::string> backend_names() {
  std::vector<std::string> v;
  for (auto b : ivy::available_backends()) v.push_back(b.name());
  return v;
}

// ---------------------------------------------------------------- random helpers
int uniform(Rng& r, int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(r); }
bool chance(Rng& r, double p) { return std::uniform_real_distribution<double>(0.0, 1.0)(r) < p; }
template <class T>
const T& pick(Rng& r, const std::vector<T>& v) {
  return v[static_cast<std::size_t>(uniform(r, 0, static_cast<int>(v.size()) - 1))];
}

const std::vector<DType> kDTypes = {ivy::float32, ivy::float64, ivy::int32, ivy::int64, ivy::bool_};

bool broadcastable(const Shape& a, const Shape& b) {
  const std::size_t n = std::max(a.size(), b.size());
  for (std::size_t i = 0; i < n; ++i) {
    const std::int64_t x = i < a.size() ? a[a.size() - 1 - i] : 1, y = i < b.size() ? b[b.size() - 1 - i] : 1;
    if (x != y && x != 1 && y != 1) return false;
  }
  return true;
}
Shape broadcast(const Shape& a, const Shape& b) { return ivy::broadcast_shapes(a, b); }

// ---------------------------------------------------------------- programs
// A program is a list of steps over a list of values: values 0..n_inputs-1 are the inputs,
// value n_inputs + k is step k's result. The function returns `outputs`.
enum class Kind : std::uint8_t {
  unary, binary, scalar, where, where_scalar, astype, reduce, reshape, permute, expand_dims, broadcast_to,
  flip, squeeze, slice, concat, matmul, constant
};

struct UnaryDef {
  const char* name;  // printed as name(%x)
  Array (*fn)(const Array&);
};
const UnaryDef kUnary[] = {
    {"exp", [](const Array& x) { return ivy::exp(x); }},
    {"log_abs_plus_1", [](const Array& x) { return ivy::log(ivy::abs(x) + 1); }},  // log(abs(x) + 1)
    {"sin", [](const Array& x) { return ivy::sin(x); }},
    {"cos", [](const Array& x) { return ivy::cos(x); }},
    {"tanh", [](const Array& x) { return ivy::tanh(x); }},
    {"sqrt_abs", [](const Array& x) { return ivy::sqrt(ivy::abs(x)); }},  // sqrt(abs(x))
    {"abs", [](const Array& x) { return ivy::abs(x); }},
    {"negative", [](const Array& x) { return ivy::negative(x); }},
    {"positive", [](const Array& x) { return ivy::positive(x); }},
    {"square", [](const Array& x) { return ivy::square(x); }},
    {"floor", [](const Array& x) { return ivy::floor(x); }},
    {"ceil", [](const Array& x) { return ivy::ceil(x); }},
    {"round", [](const Array& x) { return ivy::round(x); }},
    {"expm1", [](const Array& x) { return ivy::expm1(x); }},
    {"reciprocal", [](const Array& x) { return ivy::reciprocal(x); }},
    {"atan", [](const Array& x) { return ivy::atan(x); }},
    {"sign", [](const Array& x) { return ivy::sign(x); }},  // not fused: splits groups
    {"isnan", [](const Array& x) { return ivy::isnan(x); }},
    {"isinf", [](const Array& x) { return ivy::isinf(x); }},
    {"isfinite", [](const Array& x) { return ivy::isfinite(x); }},
    {"signbit", [](const Array& x) { return ivy::signbit(x); }},
    {"logical_not", [](const Array& x) { return ivy::logical_not(x); }},
    {"bitwise_invert", [](const Array& x) { return ivy::bitwise_invert(x); }},
};

struct BinaryDef {
  const char* name;
  Array (*fn)(const Array&, const Array&);
  int want;  // operand kinds generated for: 0 any, 1 float first operand, 2 integer or bool
};
const BinaryDef kBinary[] = {
    {"add", [](const Array& a, const Array& b) { return ivy::add(a, b); }, 0},
    {"subtract", [](const Array& a, const Array& b) { return ivy::subtract(a, b); }, 0},
    {"multiply", [](const Array& a, const Array& b) { return ivy::multiply(a, b); }, 0},
    {"divide", [](const Array& a, const Array& b) { return ivy::divide(a, b); }, 0},
    {"maximum", [](const Array& a, const Array& b) { return ivy::maximum(a, b); }, 0},
    {"minimum", [](const Array& a, const Array& b) { return ivy::minimum(a, b); }, 0},
    {"pow_abs", [](const Array& a, const Array& b) { return ivy::pow(ivy::abs(a), b); }, 1},  // pow(abs(a), b)
    {"atan2", [](const Array& a, const Array& b) { return ivy::atan2(a, b); }, 1},
    {"hypot", [](const Array& a, const Array& b) { return ivy::hypot(a, b); }, 1},
    {"logaddexp", [](const Array& a, const Array& b) { return ivy::logaddexp(a, b); }, 1},
    {"copysign", [](const Array& a, const Array& b) { return ivy::copysign(a, b); }, 1},
    {"equal", [](const Array& a, const Array& b) { return ivy::equal(a, b); }, 0},
    {"not_equal", [](const Array& a, const Array& b) { return ivy::not_equal(a, b); }, 0},
    {"less", [](const Array& a, const Array& b) { return ivy::less(a, b); }, 0},
    {"less_equal", [](const Array& a, const Array& b) { return ivy::less_equal(a, b); }, 0},
    {"greater", [](const Array& a, const Array& b) { return ivy::greater(a, b); }, 0},
    {"greater_equal", [](const Array& a, const Array& b) { return ivy::greater_equal(a, b); }, 0},
    {"logical_and", [](const Array& a, const Array& b) { return ivy::logical_and(a, b); }, 0},
    {"logical_or", [](const Array& a, const Array& b) { return ivy::logical_or(a, b); }, 0},
    {"logical_xor", [](const Array& a, const Array& b) { return ivy::logical_xor(a, b); }, 0},
    {"bitwise_and", [](const Array& a, const Array& b) { return ivy::bitwise_and(a, b); }, 2},
    {"bitwise_or", [](const Array& a, const Array& b) { return ivy::bitwise_or(a, b); }, 2},
    {"bitwise_xor", [](const Array& a, const Array& b) { return ivy::bitwise_xor(a, b); }, 2},
};

// Binary ops with a Python-like scalar operand, on either side.
struct ScalarDef {
  const char* name;
  Array (*left)(const Array&, ivy::Scalar);   // x op s
  Array (*right)(ivy::Scalar, const Array&);  // s op x
};
const ScalarDef kScalarOps[] = {
    {"add", [](const Array& x, ivy::Scalar s) { return x + s; }, [](ivy::Scalar s, const Array& x) { return s + x; }},
    {"subtract", [](const Array& x, ivy::Scalar s) { return x - s; }, [](ivy::Scalar s, const Array& x) { return s - x; }},
    {"multiply", [](const Array& x, ivy::Scalar s) { return x * s; }, [](ivy::Scalar s, const Array& x) { return s * x; }},
    {"divide", [](const Array& x, ivy::Scalar s) { return x / s; }, [](ivy::Scalar s, const Array& x) { return s / x; }},
    {"maximum", [](const Array& x, ivy::Scalar s) { return ivy::maximum(x, s); },
     [](ivy::Scalar s, const Array& x) { return ivy::maximum(s, x); }},
    {"minimum", [](const Array& x, ivy::Scalar s) { return ivy::minimum(x, s); },
     [](ivy::Scalar s, const Array& x) { return ivy::minimum(s, x); }},
    // pow(abs(x), s) and pow(abs(s), x): a non-negative base
    {"pow_abs", [](const Array& x, ivy::Scalar s) { return ivy::pow(ivy::abs(x), s); },
     [](ivy::Scalar s, const Array& x) {
       const ivy::Scalar base = s.kind == ivy::Scalar::Float ? ivy::Scalar(std::abs(s.d))
                                : s.kind == ivy::Scalar::Int ? ivy::Scalar(s.i < 0 ? -s.i : s.i)
                                                             : s;
       return ivy::pow(base, x);
     }},
    {"greater", [](const Array& x, ivy::Scalar s) { return x > s; }, [](ivy::Scalar s, const Array& x) { return s > x; }},
    {"less", [](const Array& x, ivy::Scalar s) { return x < s; }, [](ivy::Scalar s, const Array& x) { return s < x; }},
    {"equal", [](const Array& x, ivy::Scalar s) { return x == s; }, [](ivy::Scalar s, const Array& x) { return s == x; }},
};

const char* const kReduce[] = {"sum", "mean", "max", "min", "prod", "any", "all"};

struct Step {
  Kind kind = Kind::unary;
  int fn = 0;             // index into kUnary / kBinary / kScalarOps / kReduce
  std::vector<int> args;  // operand value ids
  ivy::Scalar scalar;     // scalar, where_scalar
  bool scalar_first = false;
  DType dtype = ivy::float32;   // astype
  std::vector<std::int64_t> ints;  // axes (reduce, flip, squeeze, permute), shape (reshape, broadcast_to)
  bool has_axes = false;           // reduce, flip: false = every axis
  bool keepdims = false;
  bool transpose_b = false;        // matmul(a, matrix_transpose(b))
  std::int64_t axis = 0;           // expand_dims, concat
  std::vector<ivy::Slice> slices;  // slice: one per leading axis
  Array constant;                  // constant: the captured array
};

struct Program {
  // on the backend under test; inputs2 has the same shapes and dtypes, other data (a
  // second call of the compiled function)
  std::vector<Array> inputs, inputs2;
  std::vector<Step> steps;
  std::vector<int> outputs;
  int n_inputs() const { return static_cast<int>(inputs.size()); }
};

ivy::Dims dims_of(const std::vector<std::int64_t>& v) { return ivy::Dims(v.begin(), v.end()); }

Array apply_step(const Step& s, const std::vector<Array>& v) {
  auto arg = [&](std::size_t i) -> const Array& { return v.at(static_cast<std::size_t>(s.args.at(i))); };
  switch (s.kind) {
    case Kind::unary: return kUnary[s.fn].fn(arg(0));
    case Kind::binary: return kBinary[s.fn].fn(arg(0), arg(1));
    case Kind::scalar:
      return s.scalar_first ? kScalarOps[s.fn].right(s.scalar, arg(0)) : kScalarOps[s.fn].left(arg(0), s.scalar);
    case Kind::where: return ivy::where(arg(0), arg(1), arg(2));
    case Kind::where_scalar:
      return s.scalar_first ? ivy::where(arg(0), s.scalar, arg(1)) : ivy::where(arg(0), arg(1), s.scalar);
    case Kind::astype: return ivy::astype(arg(0), s.dtype);
    case Kind::reduce: {
      const ivy::AxisArg ax = s.has_axes ? ivy::AxisArg(dims_of(s.ints)) : ivy::AxisArg();
      switch (s.fn) {
        case 0: return ivy::sum(arg(0), ax, std::nullopt, s.keepdims);
        case 1: return ivy::mean(arg(0), ax, s.keepdims);
        case 2: return ivy::max(arg(0), ax, s.keepdims);
        case 3: return ivy::min(arg(0), ax, s.keepdims);
        case 4: return ivy::prod(arg(0), ax, std::nullopt, s.keepdims);
        case 5: return ivy::any(arg(0), ax, s.keepdims);
        default: return ivy::all(arg(0), ax, s.keepdims);
      }
    }
    case Kind::reshape: return ivy::reshape(arg(0), dims_of(s.ints));
    case Kind::permute: return ivy::permute_dims(arg(0), dims_of(s.ints));
    case Kind::expand_dims: return ivy::expand_dims(arg(0), s.axis);
    case Kind::broadcast_to: return ivy::broadcast_to(arg(0), dims_of(s.ints));
    case Kind::flip: return s.has_axes ? ivy::flip(arg(0), dims_of(s.ints)) : ivy::flip(arg(0));
    case Kind::squeeze: return ivy::squeeze(arg(0), dims_of(s.ints));
    case Kind::slice: {
      std::vector<ivy::Index> idx(s.slices.begin(), s.slices.end());
      return arg(0).index(idx);
    }
    case Kind::concat: return ivy::concat({arg(0), arg(1)}, s.axis);
    case Kind::matmul: return ivy::matmul(arg(0), s.transpose_b ? ivy::matrix_transpose(arg(1)) : arg(1));
    case Kind::constant: return s.constant;
  }
  return {};
}

// Every value of the program (inputs, then one per step).
std::vector<Array> run_all(const Program& p, const std::vector<Array>& inputs) {
  std::vector<Array> vals(inputs);
  vals.reserve(inputs.size() + p.steps.size());
  for (const Step& s : p.steps) vals.push_back(apply_step(s, vals));
  return vals;
}
ivy::TracedFn function_of(const Program& p) {
  return [p](const std::vector<Array>& inputs) {
    auto vals = run_all(p, inputs);
    std::vector<Array> out;
    for (int id : p.outputs) out.push_back(vals.at(static_cast<std::size_t>(id)));
    return out;
  };
}

// ---------------------------------------------------------------- listing
std::string ints_str(const std::vector<std::int64_t>& v) {
  std::ostringstream os;
  os << "[";
  for (std::size_t i = 0; i < v.size(); ++i) os << (i ? ", " : "") << v[i];
  os << "]";
  return os.str();
}
std::string type_str(const Array& a) { return std::string(ivy::dtype_name(a.dtype())) + a.shape().str(); }
std::string opt_str(const std::optional<std::int64_t>& v) { return v ? std::to_string(*v) : ""; }

// "%5 = add(%2 : float32(2, 3), %3 : int32(3)) -> float32(2, 3)"; `vals` gives the types.
std::string step_str(const Step& s, int id, const std::vector<Array>& vals) {
  std::ostringstream os;
  auto a = [&](std::size_t i) {
    const int v = s.args.at(i);
    return "%" + std::to_string(v) + " : " + type_str(vals.at(static_cast<std::size_t>(v)));
  };
  os << "%" << id << " = ";
  switch (s.kind) {
    case Kind::unary: os << kUnary[s.fn].name << "(" << a(0) << ")"; break;
    case Kind::binary: os << kBinary[s.fn].name << "(" << a(0) << ", " << a(1) << ")"; break;
    case Kind::scalar:
      os << kScalarOps[s.fn].name << "("
         << (s.scalar_first ? s.scalar.str() + ", " + a(0) : a(0) + ", " + s.scalar.str()) << ")";
      break;
    case Kind::where: os << "where(" << a(0) << ", " << a(1) << ", " << a(2) << ")"; break;
    case Kind::where_scalar:
      os << "where(" << a(0) << ", " << (s.scalar_first ? s.scalar.str() + ", " + a(1) : a(1) + ", " + s.scalar.str())
         << ")";
      break;
    case Kind::astype: os << "astype(" << a(0) << ", " << ivy::dtype_name(s.dtype) << ")"; break;
    case Kind::reduce:
      os << kReduce[s.fn] << "(" << a(0) << ", axis=" << (s.has_axes ? ints_str(s.ints) : "None")
         << ", keepdims=" << (s.keepdims ? "true" : "false") << ")";
      break;
    case Kind::reshape: os << "reshape(" << a(0) << ", " << ints_str(s.ints) << ")"; break;
    case Kind::permute: os << "permute_dims(" << a(0) << ", " << ints_str(s.ints) << ")"; break;
    case Kind::expand_dims: os << "expand_dims(" << a(0) << ", " << s.axis << ")"; break;
    case Kind::broadcast_to: os << "broadcast_to(" << a(0) << ", " << ints_str(s.ints) << ")"; break;
    case Kind::flip: os << "flip(" << a(0) << ", axis=" << (s.has_axes ? ints_str(s.ints) : "None") << ")"; break;
    case Kind::squeeze: os << "squeeze(" << a(0) << ", " << ints_str(s.ints) << ")"; break;
    case Kind::slice:
      os << "(" << a(0) << ")[";
      for (std::size_t i = 0; i < s.slices.size(); ++i)
        os << (i ? ", " : "") << opt_str(s.slices[i].start) << ":" << opt_str(s.slices[i].stop) << ":"
           << opt_str(s.slices[i].step);
      os << "]";
      break;
    case Kind::concat: os << "concat([" << a(0) << ", " << a(1) << "], axis=" << s.axis << ")"; break;
    case Kind::matmul:
      os << "matmul(" << a(0) << ", " << (s.transpose_b ? "matrix_transpose(" + a(1) + ")" : a(1)) << ")";
      break;
    case Kind::constant:
      os << "constant";
      if (s.constant.size() <= 32) os << " " << s.constant;
      break;
  }
  os << " -> " << type_str(vals.at(static_cast<std::size_t>(id)));
  return os.str();
}

std::string options_str(const ivy::CompileOptions& o) {
  std::ostringstream os;
  os << "dce=" << o.eliminate_dead_code << " cse=" << o.eliminate_common_subexpressions << " fold=" << o.fold_constants
     << " simplify=" << o.simplify << " fuse=" << o.fuse_elementwise << " plan_memory=" << o.plan_memory
     << " generate_code=" << o.generate_code;
  return os.str();
}

std::string program_str(const Program& p) {
  std::ostringstream os;
  std::vector<Array> vals;
  try {
    vals = run_all(p, p.inputs);
  } catch (const std::exception& e) {
    return std::string("(the program does not run eagerly: ") + e.what() + ")\n";
  }
  for (int i = 0; i < p.n_inputs(); ++i) {
    const Array& x = p.inputs[static_cast<std::size_t>(i)];
    os << "  input %" << i << " : " << type_str(x);
    if (x.size() <= 32) os << " = " << x << "\n    second call: " << p.inputs2[static_cast<std::size_t>(i)];
    os << "\n";
  }
  for (std::size_t k = 0; k < p.steps.size(); ++k)
    os << "  " << step_str(p.steps[k], p.n_inputs() + static_cast<int>(k), vals) << "\n";
  os << "  return";
  for (int id : p.outputs) os << " %" << id;
  os << "\n";
  return os.str();
}

// ---------------------------------------------------------------- generation
// Input shapes: a base shape, and variants of it that broadcast against it (size-1 dims,
// fewer leading axes) or an independent shape. `large`: rank 3 with dims 6..14, so that
// fused loops run over more than one 1024-element block.
Shape random_shape(Rng& r, bool zero_ok, bool large) {
  Shape s;
  const int rank = large ? 3 : uniform(r, 0, 3);
  for (int i = 0; i < rank; ++i) s.push_back(large ? uniform(r, 6, 14) : (zero_ok && chance(r, 0.15) ? 0 : uniform(r, 1, 5)));
  return s;
}
Shape variant_of(Rng& r, const Shape& base, bool zero_ok, bool large) {
  switch (uniform(r, 0, 5)) {
    case 0:
    case 1: return base;
    case 2: {  // some dims become 1
      Shape s = base;
      for (auto& d : s)
        if (chance(r, 0.5)) d = 1;
      return s;
    }
    case 3: {  // fewer leading axes, maybe a size-1 dim
      Shape s;
      const int drop = uniform(r, 0, static_cast<int>(base.size()));
      for (std::size_t i = static_cast<std::size_t>(drop); i < base.size(); ++i) s.push_back(chance(r, 0.3) ? 1 : base[i]);
      return s;
    }
    case 4: {  // the base with 1s where it has them replaced: base broadcasts against it
      Shape s = base;
      for (auto& d : s)
        if (d == 1) d = uniform(r, 1, 4);
      return s;
    }
    default: return random_shape(r, zero_ok, large);
  }
}

// Random data of a dtype: floats mostly normal with some small integers (ties for equal,
// floor, maximum; a zero as -0.0 half the time), and with `specials` some NaN and +-inf;
// integers in [-6, 6].
Array random_array(Rng& r, const Shape& shape, DType dt, bool specials) {
  const auto n = static_cast<std::size_t>(shape.numel());
  std::normal_distribution<double> normal(0.0, 1.5);
  auto real = [&]() -> double {
    if (specials && chance(r, 0.06)) {
      const double sp[] = {std::nan(""), ivy::inf, -ivy::inf, -0.0, 0.0};
      return sp[uniform(r, 0, 4)];
    }
    if (chance(r, 0.25)) {
      const double k = uniform(r, -3, 3);
      return k == 0 && chance(r, 0.5) ? -0.0 : k;
    }
    return normal(r);
  };
  switch (dt) {
    case DType::float32: {
      std::vector<float> v(n);
      for (auto& x : v) x = static_cast<float>(real());
      return ivy::asarray(v, shape);
    }
    case DType::float64: {
      std::vector<double> v(n);
      for (auto& x : v) x = real();
      return ivy::asarray(v, shape);
    }
    case DType::int32: {
      std::vector<std::int32_t> v(n);
      for (auto& x : v) x = uniform(r, -6, 6);
      return ivy::asarray(v, shape);
    }
    case DType::int64: {
      std::vector<std::int64_t> v(n);
      for (auto& x : v) x = uniform(r, -6, 6);
      return ivy::asarray(v, shape);
    }
    default: {
      std::vector<bool> v(n);
      for (std::size_t i = 0; i < n; ++i) v[i] = chance(r, 0.5);
      return ivy::asarray(v, shape);
    }
  }
}

ivy::Scalar random_scalar(Rng& r) {
  switch (uniform(r, 0, 5)) {
    case 0:
    case 1: {
      const double f[] = {2.5, -1.5, 0.5, 0.0, 1.0, 3.0, -0.25};
      return ivy::Scalar(f[uniform(r, 0, 6)]);
    }
    case 2:
    case 3: {
      const int i[] = {2, 3, -1, 0, 1};
      return ivy::Scalar(i[uniform(r, 0, 4)]);
    }
    case 4: return ivy::Scalar(chance(r, 0.5));
    default: return ivy::Scalar(-2.0);
  }
}

// Value ids satisfying `ok`, the most recent weighted up (chains of steps): the last value
// listed 6 times, the two before it 3 times.
template <class F>
std::vector<int> candidates(const std::vector<Array>& vals, F ok) {
  std::vector<int> c;
  const int n = static_cast<int>(vals.size());
  for (int i = 0; i < n; ++i)
    if (ok(vals[static_cast<std::size_t>(i)])) {
      const int copies = i == n - 1 ? 6 : i >= n - 3 ? 3 : 1;
      c.insert(c.end(), static_cast<std::size_t>(copies), i);
    }
  return c;
}
bool is_float(const Array& a) { return ivy::is_real_floating(a.dtype()); }

// A random shape with numel elements (rank 0..4), one dim sometimes -1.
std::vector<std::int64_t> reshape_target(Rng& r, std::int64_t numel) {
  std::vector<std::int64_t> s;
  if (numel == 0) {
    const int rank = uniform(r, 1, 3);
    for (int i = 0; i < rank; ++i) s.push_back(uniform(r, 1, 4));
    s[static_cast<std::size_t>(uniform(r, 0, rank - 1))] = 0;
    return s;
  }
  std::int64_t rest = numel;
  const int rank = uniform(r, 0, 4);
  for (int i = 0; i + 1 < rank; ++i) {
    std::vector<std::int64_t> divisors;
    for (std::int64_t d = 1; d <= rest; ++d)
      if (rest % d == 0) divisors.push_back(d);
    const std::int64_t d = pick(r, divisors);
    s.push_back(d);
    rest /= d;
  }
  if (rank > 0) s.push_back(rest);
  else if (rest != 1) s.push_back(rest);
  if (!s.empty() && chance(r, 0.25)) s[static_cast<std::size_t>(uniform(r, 0, static_cast<int>(s.size()) - 1))] = -1;
  return s;
}

// One step over `vals`, or nothing when the chosen kind has no suitable operands. Its
// validity for ivy (dtypes, shapes) is checked by running it.
std::optional<Step> propose(Rng& r, const std::vector<Array>& vals, bool specials) {
  static const std::pair<Kind, int> kWeights[] = {
      {Kind::unary, 20}, {Kind::binary, 24}, {Kind::scalar, 10}, {Kind::where, 5}, {Kind::where_scalar, 2},
      {Kind::astype, 6}, {Kind::reduce, 8}, {Kind::reshape, 5}, {Kind::permute, 4}, {Kind::expand_dims, 3},
      {Kind::broadcast_to, 3}, {Kind::flip, 3}, {Kind::squeeze, 2}, {Kind::slice, 3}, {Kind::concat, 3},
      {Kind::matmul, 4}, {Kind::constant, 2}};
  int total = 0;
  for (auto& [k, w] : kWeights) total += w;
  int roll = uniform(r, 0, total - 1);
  Kind kind = Kind::unary;
  for (auto& [k, w] : kWeights) {
    if (roll < w) {
      kind = k;
      break;
    }
    roll -= w;
  }
  Step s;
  s.kind = kind;
  auto any = [](const Array&) { return true; };
  const auto all = candidates(vals, any);
  auto val = [&](int id) -> const Array& { return vals[static_cast<std::size_t>(id)]; };
  switch (kind) {
    case Kind::unary:
      s.fn = uniform(r, 0, static_cast<int>(std::size(kUnary)) - 1);
      s.args = {pick(r, all)};
      break;
    case Kind::binary: {
      s.fn = uniform(r, 0, static_cast<int>(std::size(kBinary)) - 1);
      const int want = kBinary[s.fn].want;
      auto first = candidates(vals, [&](const Array& x) {
        return want == 0 || (want == 1 && is_float(x)) || (want == 2 && !is_float(x));
      });
      if (first.empty()) return std::nullopt;
      const int a = pick(r, first);
      auto second = candidates(vals, [&](const Array& x) {
        return broadcastable(x.shape(), val(a).shape()) && (want != 2 || !is_float(x));
      });
      s.args = {a, pick(r, second)};
      if (chance(r, 0.5)) std::swap(s.args[0], s.args[1]);
      if (want == 1 && !is_float(val(s.args[0]))) std::swap(s.args[0], s.args[1]);
      break;
    }
    case Kind::scalar:
      s.fn = uniform(r, 0, static_cast<int>(std::size(kScalarOps)) - 1);
      s.args = {pick(r, all)};
      s.scalar = random_scalar(r);
      s.scalar_first = chance(r, 0.3);
      break;
    case Kind::where:
    case Kind::where_scalar: {
      auto conds = candidates(vals, [](const Array& x) { return x.dtype() == ivy::bool_; });
      if (conds.empty()) return std::nullopt;
      const int c = pick(r, conds);
      auto xs = candidates(vals, [&](const Array& x) { return broadcastable(x.shape(), val(c).shape()); });
      const int x1 = pick(r, xs);
      if (kind == Kind::where) {
        const Shape cs = broadcast(val(c).shape(), val(x1).shape());
        auto ys = candidates(vals, [&](const Array& x) { return broadcastable(x.shape(), cs); });
        s.args = {c, x1, pick(r, ys)};
      } else {
        s.args = {c, x1};
        s.scalar = random_scalar(r);
        s.scalar_first = chance(r, 0.5);
      }
      break;
    }
    case Kind::astype:
      s.args = {pick(r, all)};
      s.dtype = pick(r, kDTypes);
      break;
    case Kind::reduce: {
      s.fn = uniform(r, 0, static_cast<int>(std::size(kReduce)) - 1);
      s.args = {pick(r, all)};
      const int rank = static_cast<int>(val(s.args[0]).ndim());
      s.keepdims = chance(r, 0.5);
      s.has_axes = rank > 0 && chance(r, 0.65);
      if (s.has_axes) {
        for (int d = 0; d < rank; ++d)
          if (chance(r, 0.45)) s.ints.push_back(chance(r, 0.3) ? d - rank : d);
        if (s.ints.empty()) s.ints.push_back(uniform(r, 0, rank - 1));
      }
      break;
    }
    case Kind::reshape:
      s.args = {pick(r, all)};
      s.ints = reshape_target(r, val(s.args[0]).size());
      break;
    case Kind::permute: {
      s.args = {pick(r, all)};
      const int rank = static_cast<int>(val(s.args[0]).ndim());
      for (int d = 0; d < rank; ++d) s.ints.push_back(d);
      std::shuffle(s.ints.begin(), s.ints.end(), r);
      break;
    }
    case Kind::expand_dims: {
      auto xs = candidates(vals, [](const Array& x) { return x.ndim() < 5; });
      if (xs.empty()) return std::nullopt;
      s.args = {pick(r, xs)};
      const int rank = static_cast<int>(val(s.args[0]).ndim());
      s.axis = uniform(r, -(rank + 1), rank);
      break;
    }
    case Kind::broadcast_to: {
      auto xs = candidates(vals, [](const Array& x) { return x.ndim() < 5; });
      if (xs.empty()) return std::nullopt;
      s.args = {pick(r, xs)};
      const Shape& xs_shape = val(s.args[0]).shape();
      const int extra = uniform(r, 0, 2);
      for (int i = 0; i < extra; ++i) s.ints.push_back(uniform(r, 1, 3));
      for (auto d : xs_shape) s.ints.push_back(d == 1 && chance(r, 0.6) ? uniform(r, 0, 4) : d);
      break;
    }
    case Kind::flip: {
      s.args = {pick(r, all)};
      const int rank = static_cast<int>(val(s.args[0]).ndim());
      s.has_axes = rank > 0 && chance(r, 0.6);
      if (s.has_axes) {
        for (int d = 0; d < rank; ++d)
          if (chance(r, 0.5)) s.ints.push_back(d);
        if (s.ints.empty()) s.ints.push_back(uniform(r, -rank, rank - 1));
      }
      break;
    }
    case Kind::squeeze: {
      auto xs = candidates(vals, [](const Array& x) {
        return std::find(x.shape().begin(), x.shape().end(), 1) != x.shape().end();
      });
      if (xs.empty()) return std::nullopt;
      s.args = {pick(r, xs)};
      const Shape& sh = val(s.args[0]).shape();
      for (std::size_t d = 0; d < sh.size(); ++d)
        if (sh[d] == 1 && chance(r, 0.7)) s.ints.push_back(static_cast<std::int64_t>(d));
      if (s.ints.empty()) return std::nullopt;
      break;
    }
    case Kind::slice: {
      auto xs = candidates(vals, [](const Array& x) { return x.ndim() > 0; });
      if (xs.empty()) return std::nullopt;
      s.args = {pick(r, xs)};
      const Shape& sh = val(s.args[0]).shape();
      const int n = uniform(r, 1, static_cast<int>(sh.size()));
      for (int d = 0; d < n; ++d) {
        const int len = static_cast<int>(sh[static_cast<std::size_t>(d)]);
        ivy::Slice sl;
        if (chance(r, 0.7)) {
          if (chance(r, 0.6)) sl.start = uniform(r, -len - 1, len + 1);
          if (chance(r, 0.6)) sl.stop = uniform(r, -len - 1, len + 1);
          if (chance(r, 0.5)) sl.step = pick(r, std::vector<std::int64_t>{1, 2, 3, -1, -2});
        }
        s.slices.push_back(sl);
      }
      break;
    }
    case Kind::concat: {
      const int a = pick(r, all);
      auto bs = candidates(vals, [&](const Array& x) { return x.shape() == val(a).shape(); });
      s.args = {a, pick(r, bs)};
      const int rank = static_cast<int>(val(a).ndim());
      s.axis = rank > 0 ? uniform(r, -rank, rank - 1) : 0;
      break;
    }
    case Kind::matmul: {
      auto as = candidates(vals, [](const Array& x) { return x.ndim() == 2 && is_float(x); });
      if (as.empty()) return std::nullopt;
      const int a = pick(r, as);
      const std::int64_t k = val(a).shape()[1];
      // b (k, n) as it is, or b (n, k) transposed: a itself always qualifies
      auto plain = candidates(vals, [&](const Array& x) { return x.ndim() == 2 && is_float(x) && x.shape()[0] == k; });
      auto trans = candidates(vals, [&](const Array& x) { return x.ndim() == 2 && is_float(x) && x.shape()[1] == k; });
      s.transpose_b = plain.empty() || chance(r, 0.4);
      s.args = {a, pick(r, s.transpose_b ? trans : plain)};
      break;
    }
    case Kind::constant: {
      // a captured array: of a shape like an existing value's (so it meets others), or new
      const Shape shape = chance(r, 0.7) ? val(pick(r, all)).shape() : random_shape(r, true, false);
      s.constant = random_array(r, shape, pick(r, kDTypes), specials);
      break;
    }
  }
  return s;
}

// ---------------------------------------------------------------- steps left out
// The compiled and eager runs may round transcendental functions differently (the fused
// float32 exp and tanh; LibTorch's functions against libm's, by an ulp or so). A value is
// `inexact` when such a function computed it or a float value it was computed from, `f32`
// when it is float32 or was computed from a float32 value (differences of float32 size).
struct Flags {
  std::vector<char> f32, inexact;
};
bool named(const char* name, std::initializer_list<const char*> names) {
  for (const char* n : names)
    if (std::strcmp(name, n) == 0) return true;
  return false;
}
bool rounding_step(const Step& s) {
  switch (s.kind) {
    case Kind::unary: return named(kUnary[s.fn].name, {"exp", "log_abs_plus_1", "sin", "cos", "tanh", "expm1", "atan"});
    case Kind::binary: return named(kBinary[s.fn].name, {"pow_abs", "atan2", "hypot", "logaddexp"});
    case Kind::scalar: return named(kScalarOps[s.fn].name, {"pow_abs"});
    default: return false;
  }
}
// Steps whose result jumps somewhere in a float operand (comparisons, rounding, signs, truth
// values, conversion to integers): exact when that operand is far from the jumps.
bool discrete_step(const Step& s, DType from) {
  switch (s.kind) {
    case Kind::unary:
      return named(kUnary[s.fn].name, {"floor", "ceil", "round", "sign", "signbit", "isnan", "isinf", "isfinite",
                                       "logical_not"});
    case Kind::binary:
      return named(kBinary[s.fn].name, {"equal", "not_equal", "less", "less_equal", "greater", "greater_equal",
                                        "logical_and", "logical_or", "logical_xor"});
    case Kind::scalar: return named(kScalarOps[s.fn].name, {"greater", "less", "equal"});
    case Kind::astype: return ivy::is_real_floating(from) && !ivy::is_real_floating(s.dtype);
    case Kind::reduce: return s.fn >= 5;  // any, all
    default: return false;
  }
}

// Tests on a float array's elements (a float64 copy on xtensor), true when any element meets them.
Array host64(const Array& x) { return ivy::astype(x, ivy::float64); }
bool any_of(const Array& mask) { return mask.size() > 0 && ivy::any(mask).item<bool>(); }
bool has_nan(const Array& x) { return any_of(ivy::isnan(host64(x))); }
bool near_zero(const Array& x, double tol) { return any_of(ivy::abs(host64(x)) <= tol); }
bool huge(const Array& x, double limit) { return any_of(ivy::abs(host64(x)) > limit); }
bool near_int(const Array& x, double tol) {
  const Array h = host64(x);
  return any_of(ivy::abs(h - ivy::round(h)) <= tol * (1.0 + ivy::abs(h)));
}
bool near_half(const Array& x, double tol) {
  const Array h = host64(x);
  return any_of(ivy::abs(h - ivy::floor(h) - 0.5) <= tol * (1.0 + ivy::abs(h)));
}
// |y ln|x|| > limit: how much pow(|x|, y) magnifies a relative error of y.
bool steep_pow(const Array& x, const Array& y, double limit) {
  return any_of(ivy::abs(host64(y) * ivy::log(ivy::abs(host64(x)))) > limit);
}
// Elements where a and b are zeros of opposite signs (broadcast).
bool opposite_zeros(const Array& a, const Array& b) {
  const Array x = host64(a), y = host64(b);
  return any_of(ivy::logical_and(ivy::logical_and(x == 0.0, y == 0.0), ivy::signbit(x) != ivy::signbit(y)));
}
bool near_tie(const Array& a, const Array& b, double tol) {
  const Array x = host64(a), y = host64(b);
  return any_of(ivy::abs(x - y) <= tol * (1.0 + ivy::abs(x) + ivy::abs(y)));
}

// Whether step s over `vals` (flags f) stays clear of what the comparison cannot allow for:
// - signbit of a NaN, copysign from a NaN: the sign of a NaN an operation produces is
//   unspecified (IEEE 754 6.3), and LibTorch's functions and the fused loop differ there
//   (cos(NaN) on torch: 0xffffffff, fused: 0x7fc00000); the comparison ignores NaN signs.
// - maximum and minimum of a -0.0 and a +0.0: which one they return is implementation-
//   defined (the standard says so); LibTorch's choice depends on the loop it takes (for
//   shapes (4, 4) and (1, 4) the first operand, elsewhere the second), the fused loop's
//   is always the second (NumPy's rule, as xtensor's); 1 / x, atan2, copysign see it.
// - a discrete step (above), a pole (divide, reciprocal, pow of a base near 0) or a branch
//   cut (atan2 at y = 0, copysign at 0; x / 0 and x * inf at x = 0) on an inexact operand
//   within its possible error of the jump: relative 1e-4 when float32, 1e-9 when float64;
//   within 0.05 / 1e-3 of a pole (LibTorch's logaddexp, for one, is off by an ulp of 1
//   where its result is small, and 1 / x turns that into a relative error).
// - steep functions of an inexact argument, which magnify its relative error: sin and cos
//   above 16 (an ulp there is 1e-6 in float32), exp and expm1 above 20, pow(|a|, b) where
//   |b| (a inexact) or |b ln|a|| (b inexact) exceeds 10.
bool well_defined(const Step& s, const std::vector<Array>& vals, const Flags& f) {
  auto arg = [&](std::size_t i) -> const Array& { return vals[static_cast<std::size_t>(s.args[i])]; };
  auto inexact = [&](std::size_t i) { return is_float(arg(i)) && f.inexact[static_cast<std::size_t>(s.args[i])]; };
  auto tol = [&](std::size_t i) { return f.f32[static_cast<std::size_t>(s.args[i])] ? 1e-4 : 1e-9; };
  auto pole = [&](std::size_t i) { return f.f32[static_cast<std::size_t>(s.args[i])] ? 0.05 : 1e-3; };
  switch (s.kind) {
    case Kind::unary: {
      const char* name = kUnary[s.fn].name;
      if (named(name, {"signbit"}) && has_nan(arg(0))) return false;
      if (!inexact(0)) return true;
      if (named(name, {"sign", "signbit", "logical_not"})) return !near_zero(arg(0), tol(0));
      if (named(name, {"floor", "ceil"})) return !near_int(arg(0), tol(0));
      if (named(name, {"round"})) return !near_half(arg(0), tol(0));
      if (named(name, {"isinf", "isfinite"})) return !huge(arg(0), f.f32[static_cast<std::size_t>(s.args[0])] ? 1e37 : 1e306);
      if (named(name, {"sin", "cos"})) return !huge(arg(0), 16);
      if (named(name, {"exp", "expm1"})) return !huge(arg(0), 20);
      if (named(name, {"reciprocal"})) return !near_zero(arg(0), pole(0));
      return true;
    }
    case Kind::binary: {
      const char* name = kBinary[s.fn].name;
      if (named(name, {"copysign"}) && has_nan(arg(1))) return false;
      if (named(name, {"maximum", "minimum"}) && opposite_zeros(arg(0), arg(1))) return false;
      if (named(name, {"equal", "not_equal", "less", "less_equal", "greater", "greater_equal"}))
        return !((inexact(0) || inexact(1)) && near_tie(arg(0), arg(1), std::max(tol(0), tol(1))));
      if (named(name, {"logical_and", "logical_or", "logical_xor"}))
        return !(inexact(0) && near_zero(arg(0), tol(0))) && !(inexact(1) && near_zero(arg(1), tol(1)));
      if (named(name, {"divide"}))
        return !(inexact(1) && near_zero(arg(1), pole(1))) && !(inexact(0) && near_zero(arg(0), tol(0)) && near_zero(arg(1), 0));
      if (named(name, {"multiply"}))
        return !(inexact(0) && near_zero(arg(0), tol(0)) && huge(arg(1), 1e308)) &&
               !(inexact(1) && near_zero(arg(1), tol(1)) && huge(arg(0), 1e308));
      if (named(name, {"pow_abs"}))
        return !(inexact(0) && (near_zero(arg(0), pole(0)) || huge(arg(1), 10))) &&
               !(inexact(1) && steep_pow(arg(0), arg(1), 10));
      if (named(name, {"atan2"})) return !(inexact(0) && near_zero(arg(0), tol(0)));
      if (named(name, {"copysign"})) return !(inexact(1) && near_zero(arg(1), tol(1)));
      return true;
    }
    case Kind::scalar: {
      const char* name = kScalarOps[s.fn].name;
      if (named(name, {"maximum", "minimum"}) && s.scalar.kind != ivy::Scalar::Complex &&
          opposite_zeros(arg(0), ivy::full({}, s.scalar.d, ivy::float64, {}, arg(0).backend())))
        return false;
      if (!inexact(0)) return true;
      if (named(name, {"greater", "less", "equal"}))
        return !near_tie(arg(0), ivy::full({}, s.scalar.d, ivy::float64, {}, arg(0).backend()), tol(0));
      if (named(name, {"divide"}) && s.scalar_first) return !near_zero(arg(0), pole(0));
      if (named(name, {"divide"}) && s.scalar.d == 0) return !near_zero(arg(0), tol(0));
      if (named(name, {"pow_abs"}) && !s.scalar_first) return !near_zero(arg(0), pole(0));
      if (named(name, {"pow_abs"}) && s.scalar_first)
        return !steep_pow(ivy::full({}, s.scalar.d, ivy::float64, {}, arg(0).backend()), arg(0), 10);
      return true;
    }
    case Kind::astype:
      if (!inexact(0)) return true;
      if (s.dtype == ivy::bool_) return !near_zero(arg(0), tol(0));
      if (!ivy::is_real_floating(s.dtype)) return !near_int(arg(0), tol(0));
      return !huge(arg(0), 1e38);
    case Kind::reduce: return !(s.fn >= 5 && inexact(0) && near_zero(arg(0), tol(0)));
    default: return true;
  }
}
// The flags of the value step s computes (y) from `vals`.
void push_flags(const Step& s, const std::vector<Array>& vals, const Array& y, Flags& f) {
  char f32 = y.dtype() == ivy::float32, inexact = 0;
  for (int a : s.args) f32 = static_cast<char>(f32 || f.f32[static_cast<std::size_t>(a)]);
  if (is_float(y) && !discrete_step(s, s.args.empty() ? y.dtype() : vals[static_cast<std::size_t>(s.args[0])].dtype())) {
    inexact = rounding_step(s);
    for (int a : s.args)
      inexact = static_cast<char>(inexact || (is_float(vals[static_cast<std::size_t>(a)]) && f.inexact[static_cast<std::size_t>(a)]));
  }
  f.f32.push_back(f32);
  f.inexact.push_back(inexact);
}
Flags input_flags(const std::vector<Array>& inputs) {
  Flags f;
  for (const Array& x : inputs) f.f32.push_back(x.dtype() == ivy::float32), f.inexact.push_back(0);
  return f;
}
// The flags of every value of p (`vals` from run_all); false when a step is left out above.
bool annotate(const Program& p, const std::vector<Array>& vals, Flags& f) {
  f = input_flags(p.inputs);
  for (std::size_t k = 0; k < p.steps.size(); ++k) {
    if (!well_defined(p.steps[k], vals, f)) return false;
    push_flags(p.steps[k], vals, vals[p.inputs.size() + k], f);
  }
  return true;
}

// At most how many elements step s would produce (before running it: broadcasting and
// matmul can make a value far larger than its operands).
constexpr std::int64_t kMaxElements = 20000;
std::int64_t result_elements(const Step& s, const std::vector<Array>& vals) {
  auto shape = [&](std::size_t i) { return vals[static_cast<std::size_t>(s.args[i])].shape(); };
  auto numel_of = [](const std::vector<std::int64_t>& v) {
    std::int64_t n = 1;
    for (auto d : v) n *= std::max<std::int64_t>(d, 1);
    return n;
  };
  switch (s.kind) {
    case Kind::binary:
    case Kind::where_scalar: return broadcastable(shape(0), shape(1)) ? broadcast(shape(0), shape(1)).numel() : 0;
    case Kind::where: {
      if (!broadcastable(shape(0), shape(1))) return 0;
      const Shape ab = broadcast(shape(0), shape(1));
      return broadcastable(ab, shape(2)) ? broadcast(ab, shape(2)).numel() : 0;
    }
    case Kind::matmul: return shape(0)[0] * (s.transpose_b ? shape(1)[0] : shape(1)[1]);
    case Kind::broadcast_to: return numel_of(s.ints);
    case Kind::concat: return 2 * shape(0).numel();
    case Kind::constant: return s.constant.size();
    default: return shape(0).numel();
  }
}

Program generate(std::uint64_t seed) {
  Rng r(seed);
  Program p;
  const bool large = chance(r, 0.08);
  const bool zero_ok = chance(r, 0.15);
  const bool specials = chance(r, 0.15);
  const Shape base = random_shape(r, zero_ok, large);
  const int n_in = uniform(r, 1, 3);
  for (int i = 0; i < n_in; ++i) {
    const Shape shape = i == 0 ? base : variant_of(r, base, zero_ok, large);
    const DType dt = pick(r, kDTypes);
    p.inputs.push_back(random_array(r, shape, dt, specials));
    p.inputs2.push_back(random_array(r, shape, dt, specials));
  }
  std::vector<Array> vals = p.inputs, vals2 = p.inputs2;
  Flags flags = input_flags(p.inputs), flags2 = flags;
  const int n_steps = chance(r, 0.15) ? uniform(r, 11, 20) : uniform(r, 1, 10);
  for (int k = 0; k < n_steps; ++k) {
    for (int attempt = 0; attempt < 20; ++attempt) {
      auto s = propose(r, vals, specials);
      if (!s) continue;
      if (result_elements(*s, vals) > kMaxElements) continue;  // kept small: cheap runs
      Array y, y2;
      try {
        y = apply_step(*s, vals);
        y2 = apply_step(*s, vals2);
      } catch (const ivy::Error&) {
        continue;  // invalid for these dtypes / shapes: another step
      }
      if (y.size() > kMaxElements || !well_defined(*s, vals, flags) || !well_defined(*s, vals2, flags2)) continue;
      push_flags(*s, vals, y, flags);
      push_flags(*s, vals2, y2, flags2);
      p.steps.push_back(std::move(*s));
      vals.push_back(y);
      vals2.push_back(y2);
      break;
    }
  }
  // outputs: the last value and up to two others, in random order
  const int last = static_cast<int>(vals.size()) - 1;
  p.outputs = {last};
  const int extra = uniform(r, 0, 2);
  for (int i = 0; i < extra && last > 0; ++i) {
    const int v = uniform(r, 0, last - 1);
    if (std::find(p.outputs.begin(), p.outputs.end(), v) == p.outputs.end()) p.outputs.push_back(v);
  }
  std::shuffle(p.outputs.begin(), p.outputs.end(), r);
  return p;
}

// ---------------------------------------------------------------- checking
std::vector<unsigned char> host_bytes(const Array& x) {
  std::vector<unsigned char> b(static_cast<std::size_t>(x.size()) * ivy::itemsize(x.dtype()));
  if (!b.empty()) ivy::copy_to_host(x, b.data());
  return b;
}

// Tolerances of a compiled result against the eager one: |got - want| <= atol + rtol |want|
// with rtol = atol = 1e-5 for float32 and 1e-12 for float64; a float64 value computed from
// float32 ones (`from_f32`) carries their error, and gets float32's. The fused float32 exp
// and tanh are within ~1.3 ulp of the exact value and LibTorch's own functions within 1 ulp
// (the two sides may round differently); chains of steps amplify such differences. NaN must
// meet NaN, an infinity the same infinity; integers and bools are exact. Empty when they
// agree, else the first difference.
std::string compare_close(const Array& got, const Array& want, bool from_f32) {
  if (got.dtype() != want.dtype() || !(got.shape() == want.shape()))
    return "type " + type_str(got) + " vs eager " + type_str(want);
  const auto u = host_bytes(got), v = host_bytes(want);
  auto check = [&](auto zero, double tol) -> std::string {
    using T = decltype(zero);
    const std::size_t n = u.size() / sizeof(T);
    for (std::size_t i = 0; i < n; ++i) {
      T a, b;
      std::memcpy(&a, u.data() + i * sizeof(T), sizeof(T));
      std::memcpy(&b, v.data() + i * sizeof(T), sizeof(T));
      if (std::isnan(a) && std::isnan(b)) continue;
      if (a == b) continue;
      const double da = a, db = b;
      if (std::isfinite(da) && std::isfinite(db) && std::abs(da - db) <= tol + tol * std::abs(db)) continue;
      std::ostringstream os;
      os.precision(17);
      os << "element " << i << ": compiled " << da << " vs eager " << db;
      return os.str();
    }
    return "";
  };
  if (got.dtype() == ivy::float32) return check(float{}, 1e-5);
  if (got.dtype() == ivy::float64) return check(double{}, from_f32 ? 1e-5 : 1e-12);
  if (u != v) {
    for (std::size_t i = 0; i < u.size(); ++i)
      if (u[i] != v[i]) return "byte " + std::to_string(i) + " differs (" + ivy::dtype_name(got.dtype()) + ")";
  }
  return "";
}
// Bit-for-bit equality (dtype, shape and bytes); empty when equal.
std::string compare_bits(const Array& a, const Array& b) {
  if (a.dtype() != b.dtype() || !(a.shape() == b.shape())) return "type " + type_str(a) + " vs " + type_str(b);
  if (host_bytes(a) != host_bytes(b)) return "bytes differ (" + type_str(a) + ")";
  return "";
}

// Whether output k of p on `inputs` moves beyond the tolerances of `want` when the results
// of the rounding steps are scaled by random factors within 4 ulp of 1, as implementations
// of those functions may differ: then a difference there comes from the program's
// conditioning (cancellation, a steep function) and says nothing about the compiler.
bool ill_conditioned(const Program& p, const std::vector<Array>& inputs, std::size_t k, const Array& want, bool f32) {
  Rng r(0x5eed + k);
  std::uniform_real_distribution<double> ulps(-4.0, 4.0);
  for (int trial = 0; trial < 4; ++trial) {
    std::vector<Array> vals(inputs);
    try {
      for (const Step& s : p.steps) {
        Array y = apply_step(s, vals);
        if (rounding_step(s) && is_float(y) && y.size() > 0) {
          const double ulp = y.dtype() == ivy::float32 ? 0x1p-23 : 0x1p-52;
          std::vector<double> factor(static_cast<std::size_t>(y.size()));
          for (auto& e : factor) e = 1.0 + ulp * ulps(r);
          y = y * ivy::astype(ivy::asarray(factor, y.shape()), y.dtype());
        }
        vals.push_back(y);
      }
    } catch (const ivy::Error&) {
      return true;
    }
    if (!compare_close(vals[static_cast<std::size_t>(p.outputs[k])], want, f32).empty()) return true;
  }
  return false;
}

struct Outcome {
  bool valid = true;             // false: the program does not run eagerly (a shrinking candidate)
  bool ill_conditioned = false;  // a difference beyond the tolerances that ill_conditioned() explains
  std::string failure;           // empty: everything agrees (or ill_conditioned)
  int fused_groups = 0;
};

// Runs p eagerly and compiled with o, on both input sets (the second call reuses the cached
// executable and its buffers; the first call's results must stay intact): compiled results
// close to the eager ones. Then the executable's graph replayed directly (as eager) and
// after a JSON round trip (bit-identical to the direct replay, and the same JSON again).
Outcome check(const Program& p, const ivy::CompileOptions& o) {
  Outcome out;
  const auto fn = function_of(p);
  std::vector<Array> vals, vals2, want, want2;
  try {
    vals = run_all(p, p.inputs);
    vals2 = run_all(p, p.inputs2);
  } catch (const ivy::Error&) {
    out.valid = false;
    return out;
  }
  for (int id : p.outputs) {
    want.push_back(vals[static_cast<std::size_t>(id)]);
    want2.push_back(vals2[static_cast<std::size_t>(id)]);
  }
  Flags flags, flags2;
  if (!annotate(p, vals, flags) || !annotate(p, vals2, flags2)) {  // a shrinking candidate with a step left out above
    out.valid = false;
    return out;
  }
  auto fail = [&](const std::string& what) {
    out.failure = what;
    return out;
  };
  auto explained = [&]() {
    out.ill_conditioned = true;
    return out;
  };
  try {
    const ivy::CompiledFunction cf = ivy::compile(fn, o);
    const auto got = cf(p.inputs);
    const auto got2 = cf(p.inputs2);
    if (got.size() != want.size() || got2.size() != want.size())
      return fail("compiled returned " + std::to_string(got.size()) + " arrays");
    for (std::size_t k = 0; k < got.size(); ++k) {
      const bool f32 = flags.f32[static_cast<std::size_t>(p.outputs[k])];
      auto d = compare_close(got[k], want[k], f32);
      if (!d.empty() && got[k].dtype() == want[k].dtype() && ill_conditioned(p, p.inputs, k, want[k], f32)) return explained();
      if (!d.empty()) return fail("output " + std::to_string(k) + " (%" + std::to_string(p.outputs[k]) + "): " + d);
      d = compare_close(got2[k], want2[k], f32);
      if (!d.empty() && got2[k].dtype() == want2[k].dtype() && ill_conditioned(p, p.inputs2, k, want2[k], f32))
        return explained();
      if (!d.empty())
        return fail("second call, output " + std::to_string(k) + " (%" + std::to_string(p.outputs[k]) + "): " + d);
    }
    if (cf.traces() != 1) return fail("traced " + std::to_string(cf.traces()) + " times for one signature");
    const auto exe = cf.executable(p.inputs);
    out.fused_groups = exe->stats().fused_groups;
    const ivy::Graph& g = exe->graph();
    const auto replay = g.run(p.inputs);
    // the optimized graph replayed primitive by primitive computes what eager did, and so
    // does an unfused compiled run: bit for bit on xtensor (the passes keep every value).
    // LibTorch's kernels round differently for strided and contiguous operands (its
    // vectorized and scalar paths; the sign of a zero sum), and the passes change layouts
    // (astype to the same dtype, a copy, goes; folded views become constants), so there
    // they are held to the tolerances.
    const bool exact = std::string(ivy::current_backend().name()) == "xtensor";
    for (std::size_t k = 0; k < replay.size(); ++k) {
      const bool f32 = flags.f32[static_cast<std::size_t>(p.outputs[k])];
      auto d = exact ? compare_bits(replay[k], want[k]) : compare_close(replay[k], want[k], f32);
      if (!d.empty() && !exact && ill_conditioned(p, p.inputs, k, want[k], f32)) return explained();
      if (!d.empty()) return fail("optimized graph replayed vs eager, output " + std::to_string(k) + ": " + d);
      if (!o.fuse_elementwise) {
        d = exact ? compare_bits(got[k], want[k]) : compare_close(got[k], want[k], f32);
        if (!d.empty() && !exact && ill_conditioned(p, p.inputs, k, want[k], f32)) return explained();
        if (!d.empty()) return fail("unfused compiled vs eager, output " + std::to_string(k) + ": " + d);
      }
    }
    const std::string json = ivy::graph_to_json(g);
    const ivy::Graph back = ivy::graph_from_json(json);
    const auto reloaded = back.run(p.inputs);
    if (reloaded.size() != replay.size()) return fail("JSON-reloaded graph returned " + std::to_string(reloaded.size()) + " arrays");
    for (std::size_t k = 0; k < replay.size(); ++k) {
      const auto d = compare_bits(reloaded[k], replay[k]);
      if (!d.empty()) return fail("JSON-reloaded graph, output " + std::to_string(k) + ": " + d);
    }
    if (ivy::graph_to_json(back) != json) return fail("graph_to_json(graph_from_json(j)) != j");
  } catch (const std::exception& e) {
    return fail(std::string("threw: ") + e.what());
  }
  return out;
}

// ---------------------------------------------------------------- shrinking
// Drops value `v` (unused by any step) from p: renumbers later ids. Outputs lose it.
void drop_value(Program& p, int v) {
  auto fix = [v](int& id) {
    if (id > v) --id;
  };
  if (v < p.n_inputs()) {
    p.inputs.erase(p.inputs.begin() + v);
    p.inputs2.erase(p.inputs2.begin() + v);
  }
  else p.steps.erase(p.steps.begin() + (v - p.n_inputs()));
  p.outputs.erase(std::remove(p.outputs.begin(), p.outputs.end(), v), p.outputs.end());
  for (auto& s : p.steps)
    for (auto& a : s.args) fix(a);
  for (auto& o : p.outputs) fix(o);
}
bool used_by_steps(const Program& p, int v) {
  for (const auto& s : p.steps)
    if (std::find(s.args.begin(), s.args.end(), v) != s.args.end()) return true;
  return false;
}
int last_value(const Program& p) { return p.n_inputs() + static_cast<int>(p.steps.size()) - 1; }
void ensure_last_returned(Program& p) {
  const int last = last_value(p);
  if (last >= 0 && std::find(p.outputs.begin(), p.outputs.end(), last) == p.outputs.end()) p.outputs.push_back(last);
}

// Smallest program found that still fails with options o: steps removed from the end, then
// unused steps, extra outputs and unused inputs removed, operands replaced by inputs of the
// same type, until nothing more helps.
Program shrink(Program p, const ivy::CompileOptions& o, std::string& failure) {
  int budget = 3000;  // checks at most
  auto still_fails = [&](const Program& q) {
    if (budget-- <= 0 || q.outputs.empty()) return false;
    const Outcome r = check(q, o);
    if (!r.valid || r.failure.empty()) return false;
    failure = r.failure;
    return true;
  };
  bool progress = true;
  while (progress && budget > 0) {
    progress = false;
    // the last step
    while (p.steps.size() > 1) {
      Program q = p;
      drop_value(q, last_value(q));
      ensure_last_returned(q);
      if (!still_fails(q)) break;
      p = std::move(q);
      progress = true;
    }
    // extra outputs
    for (std::size_t k = 0; k < p.outputs.size() && p.outputs.size() > 1;) {
      Program q = p;
      q.outputs.erase(q.outputs.begin() + static_cast<std::ptrdiff_t>(k));
      ensure_last_returned(q);
      if (q.outputs.size() < p.outputs.size() && still_fails(q)) {
        p = std::move(q);
        progress = true;
      } else {
        ++k;
      }
    }
    // steps whose result no step reads (returned or not), the last one excepted
    for (int v = last_value(p) - 1; v >= p.n_inputs(); --v) {
      if (used_by_steps(p, v)) continue;
      Program q = p;
      drop_value(q, v);
      if (q.outputs.empty()) continue;
      if (still_fails(q)) {
        p = std::move(q);
        progress = true;
      }
    }
    // operands replaced by an input (or an earlier value) of the same dtype and shape
    std::vector<Array> vals;
    try {
      vals = run_all(p, p.inputs);
    } catch (const ivy::Error&) {
      break;
    }
    for (std::size_t k = 0; k < p.steps.size(); ++k)
      for (std::size_t j = 0; j < p.steps[k].args.size(); ++j) {
        const int cur = p.steps[k].args[j];
        for (int v = 0; v < cur; ++v) {
          const Array& x = vals[static_cast<std::size_t>(v)];
          const Array& y = vals[static_cast<std::size_t>(cur)];
          if (x.dtype() != y.dtype() || !(x.shape() == y.shape())) continue;
          Program q = p;
          q.steps[k].args[j] = v;
          if (still_fails(q)) {
            p = std::move(q);
            progress = true;
            break;
          }
        }
      }
    // inputs nothing reads
    for (int v = p.n_inputs() - 1; v >= 0; --v) {
      if (used_by_steps(p, v) || std::find(p.outputs.begin(), p.outputs.end(), v) != p.outputs.end()) continue;
      Program q = p;
      drop_value(q, v);
      if (still_fails(q)) {
        p = std::move(q);
        progress = true;
      }
    }
  }
  return p;
}

// ---------------------------------------------------------------- the suite
class CompileRandom : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override { scope_ = std::make_unique<ivy::BackendScope>(ivy::Backend(GetParam())); }
  std::unique_ptr<ivy::BackendScope> scope_;
};

std::uint64_t env_u64(const char* name, std::uint64_t fallback) {
  const char* s = std::getenv(name);
  return s && *s ? std::strtoull(s, nullptr, 0) : fallback;
}

// Every 10th program (seed % 10 == 9) also runs under one of these (in turn).
ivy::CompileOptions variant(std::uint64_t which) {
  ivy::CompileOptions o;
  switch (which % 3) {
    case 0: o.fuse_elementwise = false; break;
    case 1: o.plan_memory = false; break;
    default:
      o.eliminate_dead_code = o.eliminate_common_subexpressions = o.fold_constants = o.simplify = false;
      o.plan_memory = false;
      break;
  }
  return o;
}

TEST_P(CompileRandom, CompiledMatchesEager) {
  const int n = static_cast<int>(env_u64("IVY_COMPILE_RANDOM_N", kPrograms));
  const std::uint64_t base = env_u64("IVY_COMPILE_RANDOM_SEED", kBaseSeed);
  const bool all_codegen = env_u64("IVY_COMPILE_RANDOM_CODEGEN", 0) != 0;
  const auto t0 = std::chrono::steady_clock::now();
  int failures = 0, reported = 0, fused = 0, with_fusion = 0, ill = 0;
  std::size_t steps = 0;
  for (int i = 0; i < n; ++i) {
    const std::uint64_t seed = base + static_cast<std::uint64_t>(i);
    const Program p = generate(seed);
    steps += p.steps.size();
    // fused groups run generated kernels in every 4th program (each new program costs a
    // compiler run, ~0.1 s), interpreted loops in the others; IVY_COMPILE_RANDOM_CODEGEN=1:
    // generated kernels in every program
    std::vector<ivy::CompileOptions> options{ivy::CompileOptions{}};
    options[0].generate_code = all_codegen || seed % 4 == 0;
    if (seed % 10 == 9) options.push_back(variant(seed / 10));
    options.back().generate_code = options[0].generate_code;
    for (const auto& o : options) {
      const Outcome r = check(p, o);
      if (&o == &options[0]) fused += r.fused_groups, with_fusion += r.fused_groups > 0;
      ill += r.ill_conditioned;
      if (r.failure.empty()) continue;
      ++failures;
      if (reported < 3) {  // the first few, shrunk
        ++reported;
        std::string why = r.failure;
        const Program m = shrink(p, o, why);
        std::string plan;
        try {
          auto exe = ivy::CompiledFunction(function_of(m), o).executable(m.inputs);
          plan = "optimized graph:\n" + exe->graph().str() + "\nplan:\n" + exe->plan_str();
        } catch (const std::exception& e) {
          plan = std::string("(compiling it throws: ") + e.what() + ")\n";
        }
        ADD_FAILURE() << "backend " << GetParam() << ", seed " << seed << " (IVY_COMPILE_RANDOM_SEED=" << seed
                      << " IVY_COMPILE_RANDOM_N=1), options " << options_str(o) << "\n"
                      << r.failure << "\nminimal program (" << why << "):\n"
                      << program_str(m) << plan;
      }
      break;
    }
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::cout << "[ CompileRandom ] " << GetParam() << ": " << n << " programs, " << steps << " steps, " << with_fusion
            << " compiled with fused groups (" << fused << " groups), " << ill << " runs ill-conditioned, " << failures
            << " failing, " << secs << " s\n";
  EXPECT_EQ(failures, 0);
  if (n >= 100) {
    EXPECT_GT(with_fusion, n / 4) << "the generator should produce fusible programs";
    EXPECT_LE(ill, n / 100) << "ill-conditioned programs should be rare: the generator leaves out steep steps";
  }
}

#ifdef IVY_TEST_HAS_ONNX
// The first 100 random programs (IVY_ONNX_RANDOM_N) exported to ONNX, at opsets 17 and 13 in
// turn: the exporter runs ONNX's checker and strict shape inference on each, the re-imported
// model must compute eager's outputs (the tolerances and conditioning rule of compiled runs),
// and each agreeing model is written with its inputs and outputs under $IVY_ONNX_EXPORT_DIR
// for onnxruntime (the ctest onnx_export_ort).
TEST_P(CompileRandom, ExportedToOnnxMatchesEager) {
  const int n = static_cast<int>(env_u64("IVY_ONNX_RANDOM_N", 100));
  const char* ort_dir = std::getenv("IVY_ONNX_EXPORT_DIR");
  const std::string backend = GetParam();
  int exported = 0, ill = 0, failures = 0, written = 0;
  for (int i = 0; i < n; ++i) {
    const std::uint64_t seed = kBaseSeed + static_cast<std::uint64_t>(i);
    const Program p = generate(seed);
    std::vector<Array> vals;
    try {
      vals = run_all(p, p.inputs);
    } catch (const ivy::Error&) {
      continue;
    }
    Flags flags;
    if (!annotate(p, vals, flags)) continue;
    std::vector<Array> want;
    for (int id : p.outputs) want.push_back(vals[static_cast<std::size_t>(id)]);
    const int opset = i % 2 ? 13 : 17;
    auto report = [&](const std::string& what) {
      ++failures;
      ADD_FAILURE() << "backend " << backend << ", seed " << seed << ", opset " << opset << ": " << what << "\n"
                    << program_str(p);
    };
    std::string bytes;
    try {
      ivy::onnx::ExportOptions o;
      o.opset = opset;
      bytes = ivy::onnx::export_graph(ivy::trace(function_of(p), p.inputs), o);
    } catch (const std::exception& e) {
      report(std::string("export: ") + e.what());
      continue;
    }
    ++exported;
    std::vector<Array> got;
    try {
      ivy::onnx::ImportOptions io;
      io.backend = backend;
      got = ivy::onnx::load_from_bytes(bytes, io)->run(p.inputs);
    } catch (const std::exception& e) {
      report(std::string("re-import: ") + e.what());
      continue;
    }
    if (got.size() != want.size()) {
      report("the model returned " + std::to_string(got.size()) + " arrays");
      continue;
    }
    bool agree = true, explained = false;
    for (std::size_t k = 0; k < got.size() && agree; ++k) {
      const bool f32 = flags.f32[static_cast<std::size_t>(p.outputs[k])];
      const std::string d = compare_close(got[k], want[k], f32);
      if (d.empty()) continue;
      if (got[k].dtype() == want[k].dtype() && ill_conditioned(p, p.inputs, k, want[k], f32)) {
        explained = true;
        continue;
      }
      report("output " + std::to_string(k) + " (%" + std::to_string(p.outputs[k]) + "): " + d);
      agree = false;
    }
    ill += explained;
    if (agree && !explained && ort_dir && backend == "xtensor") {
      ivy_test::write_ort_case(std::filesystem::path(ort_dir) / ("random_" + std::to_string(seed)), bytes, p.inputs,
                               want, 1e-4, false);
      ++written;
    }
  }
  std::cout << "[ OnnxRandom ] " << backend << ": " << n << " programs, " << exported << " exported, " << ill
            << " ill-conditioned, " << failures << " failing, " << written << " written for onnxruntime\n";
  EXPECT_EQ(failures, 0);
  EXPECT_GE(exported, n * 9 / 10);
  EXPECT_LE(ill, n / 20);
}
#endif

INSTANTIATE_TEST_SUITE_P(Backends, CompileRandom, ::testing::ValuesIn(backend_names()),
                         [](const auto& info) { return info.param; });

}  // namespace

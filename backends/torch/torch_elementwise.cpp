// The torch backend's elementwise kernels: the native functions (ns_ops.inc) on inputs cast
// to the compute dtype.
#include <cmath>
#include <cstdint>
#include <limits>
#include <string_view>
#include <utility>

#include <ATen/ExpandUtils.h>
#include <type_traits>

#include "complex_special.hpp"
#include "cpu_isa.hpp"
#include "npy_kernels.hpp"
#include "torch_common.hpp"
#include "vec_math.hpp"

// The native functions on the direct path: ns_ops.inc over LibTorch's CPU kernels, with ivy's
// loops where the operands qualify. Internal to this file, so that the compiler can inline
// them into the kernels below, their only callers.
namespace ivy::torch_backend::direct {
namespace {
namespace aten = ::ivy::torch_backend::cpu_first;
constexpr bool kDirectPath = true;
#include "ns_ops.inc"
}  // namespace
}  // namespace ivy::torch_backend::direct

namespace ivy::torch_backend {
namespace {

// LibTorch 1.13 lacks many float16 CPU kernels: float16 computes in float32 and rounds back.
DType compute_dtype(DType d) { return d == float16 ? float32 : d; }

// uint64 (int64 storage with the unsigned bits): the functions whose int64 result differs.
// Addition, subtraction, multiplication, negation and the bitwise functions wrap alike in
// two's complement and need nothing.
enum class U64 { none, abs, sign, signbit, floor_divide, remainder, pow, left_shift, right_shift, maximum, minimum,
                 less, less_equal, greater, greater_equal };
constexpr U64 u64_op(std::string_view name) {
  constexpr std::pair<std::string_view, U64> kOps[] = {
      {"abs", U64::abs}, {"sign", U64::sign}, {"signbit", U64::signbit}, {"floor_divide", U64::floor_divide}, {"remainder", U64::remainder},
      {"pow", U64::pow}, {"bitwise_left_shift", U64::left_shift}, {"bitwise_right_shift", U64::right_shift},
      {"maximum", U64::maximum}, {"minimum", U64::minimum}, {"less", U64::less}, {"less_equal", U64::less_equal},
      {"greater", U64::greater}, {"greater_equal", U64::greater_equal}};
  for (const auto& [n, op] : kOps)
    if (n == name) return op;
  return U64::none;
}
// f on the broadcast uint64 values of a and b (int64 storage), a new int64-storage tensor.
template <class F>
at::Tensor u64_loop(const at::Tensor& a, const at::Tensor& b, F f) {
  const auto shape = at::infer_size(a.sizes(), b.sizes());
  const at::Tensor x = a.cpu().expand(shape).contiguous(), y = b.cpu().expand(shape).contiguous();
  at::Tensor r = at::empty(shape, at::TensorOptions().dtype(at::kLong));
  const auto* px = reinterpret_cast<const std::uint64_t*>(x.data_ptr<std::int64_t>());
  const auto* py = reinterpret_cast<const std::uint64_t*>(y.data_ptr<std::int64_t>());
  auto* pr = reinterpret_cast<std::uint64_t*>(r.data_ptr<std::int64_t>());
  for (std::int64_t i = 0, n = r.numel(); i < n; ++i) pr[i] = f(px[i], py[i]);
  return a.device().is_cpu() ? r : r.to(a.device());
}
at::Tensor u64_binary(U64 op, const at::Tensor& x1, const at::Tensor& x2) {
  using U = std::uint64_t;
  switch (op) {
    case U64::floor_divide: return u64_loop(x1, x2, [](U a, U b) { return b ? a / b : U(0); });  // NumPy: x // 0 is 0
    case U64::remainder: return u64_loop(x1, x2, [](U a, U b) { return b ? a % b : U(0); });
    case U64::pow:
      return u64_loop(x1, x2, [](U a, U e) {
        U r = 1;
        for (; e; e >>= 1, a *= a)
          if (e & 1) r *= a;
        return r;
      });
    case U64::left_shift: return u64_loop(x1, x2, [](U a, U b) { return b < 64 ? a << b : U(0); });
    case U64::right_shift: return u64_loop(x1, x2, [](U a, U b) { return b < 64 ? a >> b : U(0); });
    case U64::maximum: return u64_order(at::maximum(u64_order(x1), u64_order(x2)));
    case U64::minimum: return u64_order(at::minimum(u64_order(x1), u64_order(x2)));
    case U64::less: return at::lt(u64_order(x1), u64_order(x2));
    case U64::less_equal: return at::le(u64_order(x1), u64_order(x2));
    case U64::greater: return at::gt(u64_order(x1), u64_order(x2));
    case U64::greater_equal: return at::ge(u64_order(x1), u64_order(x2));
    default: return {};
  }
}

using UnaryFn = at::Tensor (*)(const at::Tensor&);
using BinaryFn = at::Tensor (*)(const at::Tensor&, const at::Tensor&);
// How a kernel passes its inputs to the native function.
enum class Operands {
  compute_dtype,  // cast to the compute dtype of the output's dtype
  as_given,       // unchanged (abs, real, imag and the bool-valued predicates)
  common_dtype,   // cast to the inputs' result type (comparisons and logical functions)
};

// The kernel of a unary / binary elementwise primitive: `native` (ivy::torch::<name>), or on
// the direct path `direct` (direct::<name>), on the operands, its result cast to the output's
// dtype (comparisons: made an array of the output's dtype, bool).
template <UnaryFn native, UnaryFn direct_fn, Operands operands, U64 u64>
void unary_kernel(const char* op, const Array* in, int n, const OutSpec* spec, Array* out) {
  run_kernel(op, in, n, [&](bool direct) {
    if constexpr (u64 == U64::abs || u64 == U64::sign || u64 == U64::signbit)
      if (in[0].dtype() == uint64) [[unlikely]] {  // abs: the value; sign: 0 or 1; signbit: false
        const at::Tensor& x = tensor_of(in[0]);
        out[0] = make_array(u64 == U64::abs    ? at::clone(x)
                            : u64 == U64::sign ? at::ne(x, 0).to(at::kLong)
                                               : at::zeros(x.sizes(), x.options().dtype(at::kBool)),
                            spec[0].dtype);
        return;
      }
    if constexpr (operands == Operands::as_given) {
      const at::Tensor& x = tensor_of(in[0]);
      out[0] = make_array_cast(direct ? direct_fn(x) : native(x), spec[0].dtype);
    } else {
      const Input x = input_as(in[0], compute_dtype(spec[0].dtype));
      out[0] = make_array_cast(direct ? direct_fn(*x) : native(*x), spec[0].dtype);
    }
  });
}
// The standard's special values of complex functions (LibTorch's differ at infinities, NaN
// and signed zeros): on the direct path, the elements with a component that is infinite, NaN
// or zero are recomputed with complex_special.hpp (as the xtensor backend computes them all).
// LibTorch 1.13's inverse trigonometric and hyperbolic functions also lose every digit at
// large |z| (asin(1 + 6.7e7j) is inf j in complex128: iz + sqrt(1 - z^2) cancels), so their
// complex results are recomputed at every element.
// r is the fresh result of fn on x, same complex dtype, not yet shared.
constexpr bool recompute_every_element(cpu::complex_special::Fn fn) {
  using cpu::complex_special::Fn;
  return fn == Fn::acos || fn == Fn::acosh || fn == Fn::asin || fn == Fn::asinh || fn == Fn::atan || fn == Fn::atanh;
}
at::Tensor fix_complex_special(cpu::complex_special::Fn fn, const at::Tensor& x, at::Tensor r) {
  if (!r.is_complex() || !x.device().is_cpu() || x.scalar_type() != r.scalar_type() || x.numel() != r.numel())
    return r;
  const at::Tensor xc = x.resolve_conj().contiguous();
  if (!r.is_contiguous()) r = r.contiguous();
  const bool every = recompute_every_element(fn);
  auto run = [&](auto* px, auto* pr) {
    for (std::int64_t i = 0, n = xc.numel(); i < n; ++i)
      if (every || cpu::complex_special::covered(px[i])) pr[i] = cpu::complex_special::eval(fn, px[i]);
  };
  if (r.scalar_type() == at::kComplexFloat)
    run(reinterpret_cast<const std::complex<float>*>(xc.data_ptr<c10::complex<float>>()),
        reinterpret_cast<std::complex<float>*>(r.data_ptr<c10::complex<float>>()));
  else if (r.scalar_type() == at::kComplexDouble)
    run(reinterpret_cast<const std::complex<double>*>(xc.data_ptr<c10::complex<double>>()),
        reinterpret_cast<std::complex<double>*>(r.data_ptr<c10::complex<double>>()));
  return r;
}
template <UnaryFn native, UnaryFn direct_fn, cpu::complex_special::Fn fn>
void complex_special_kernel(const char* op, const Array* in, int n, const OutSpec* spec, Array* out) {
  run_kernel(op, in, n, [&](bool direct) {
    const Input x = input_as(in[0], compute_dtype(spec[0].dtype));
    // where every complex element is recomputed, LibTorch's result would be thrown away
    const bool ours = direct && recompute_every_element(fn) && x->is_complex() && x->device().is_cpu();
    at::Tensor r = ours ? at::empty(x->sizes(), x->options().requires_grad(false)) : direct ? direct_fn(*x) : native(*x);
    if (direct && r.is_complex()) r = fix_complex_special(fn, *x, std::move(r));
    out[0] = make_array_cast(std::move(r), spec[0].dtype);
  });
}
template <BinaryFn native, BinaryFn direct_fn, Operands operands, U64 u64>
void binary_kernel(const char* op, const Array* in, int n, const OutSpec* spec, Array* out) {
  run_kernel(op, in, n, [&](bool direct) {
    if constexpr (u64 != U64::none) {
      const DType c = operands == Operands::common_dtype ? result_type(in[0].dtype(), in[1].dtype())
                                                         : compute_dtype(spec[0].dtype);
      if (c == uint64) [[unlikely]] {
        const Input x1 = input_as(in[0], c), x2 = input_as(in[1], c);
        out[0] = make_array(u64_binary(u64, *x1, *x2), spec[0].dtype);
        return;
      }
    }
    if constexpr (operands == Operands::common_dtype) {
      const DType c = result_type(in[0].dtype(), in[1].dtype());
      const Input x1 = input_as(in[0], c), x2 = input_as(in[1], c);
      out[0] = make_array(direct ? direct_fn(*x1, *x2) : native(*x1, *x2), spec[0].dtype);
    } else {
      const DType c = compute_dtype(spec[0].dtype);
      const Input x1 = input_as(in[0], c), x2 = input_as(in[1], c);
      out[0] = make_array_cast(direct ? direct_fn(*x1, *x2) : native(*x1, *x2), spec[0].dtype);
    }
  });
}

}  // namespace

// k_<name> of an elementwise primitive, from the native function <name> of either path.
#define UNARY_KERNEL(name, operands) \
  TORCH_KERNEL(name) {                                                                             \
    unary_kernel<&torch::name, &direct::name, Operands::operands, u64_op(#name)>(#name, in, n, spec, out); \
  }
// an elementwise function with complex special values (complex_special.hpp)
#define COMPLEX_SPECIAL_KERNEL(name)                                                                     \
  TORCH_KERNEL(name) {                                                                                   \
    complex_special_kernel<&torch::name, &direct::name, cpu::complex_special::Fn::name>(#name, in, n, spec, \
                                                                                        out);            \
  }
#define BINARY_KERNEL(name, operands) \
  TORCH_KERNEL(name) {                                                                              \
    binary_kernel<&torch::name, &direct::name, Operands::operands, u64_op(#name)>(#name, in, n, spec, out); \
  }

UNARY_KERNEL(abs, as_given)
COMPLEX_SPECIAL_KERNEL(acos)
COMPLEX_SPECIAL_KERNEL(acosh)
COMPLEX_SPECIAL_KERNEL(asin)
COMPLEX_SPECIAL_KERNEL(asinh)
COMPLEX_SPECIAL_KERNEL(atan)
COMPLEX_SPECIAL_KERNEL(atanh)
UNARY_KERNEL(bitwise_invert, compute_dtype)
UNARY_KERNEL(ceil, compute_dtype)
UNARY_KERNEL(conj, compute_dtype)
COMPLEX_SPECIAL_KERNEL(cos)
COMPLEX_SPECIAL_KERNEL(cosh)
COMPLEX_SPECIAL_KERNEL(exp)
COMPLEX_SPECIAL_KERNEL(expm1)
UNARY_KERNEL(floor, compute_dtype)
UNARY_KERNEL(imag, as_given)
UNARY_KERNEL(isfinite, as_given)
UNARY_KERNEL(isinf, as_given)
UNARY_KERNEL(isnan, as_given)
COMPLEX_SPECIAL_KERNEL(log)
COMPLEX_SPECIAL_KERNEL(log1p)
COMPLEX_SPECIAL_KERNEL(log2)
COMPLEX_SPECIAL_KERNEL(log10)
UNARY_KERNEL(logical_not, as_given)
UNARY_KERNEL(negative, compute_dtype)
UNARY_KERNEL(positive, compute_dtype)
UNARY_KERNEL(real, as_given)
UNARY_KERNEL(reciprocal, compute_dtype)
UNARY_KERNEL(round, compute_dtype)
UNARY_KERNEL(sign, compute_dtype)
UNARY_KERNEL(signbit, as_given)
COMPLEX_SPECIAL_KERNEL(sin)
COMPLEX_SPECIAL_KERNEL(sinh)
UNARY_KERNEL(square, compute_dtype)
COMPLEX_SPECIAL_KERNEL(sqrt)
COMPLEX_SPECIAL_KERNEL(tan)
COMPLEX_SPECIAL_KERNEL(tanh)
UNARY_KERNEL(trunc, compute_dtype)

BINARY_KERNEL(add, compute_dtype)
BINARY_KERNEL(atan2, compute_dtype)
BINARY_KERNEL(bitwise_and, compute_dtype)
BINARY_KERNEL(bitwise_left_shift, compute_dtype)
BINARY_KERNEL(bitwise_or, compute_dtype)
BINARY_KERNEL(bitwise_right_shift, compute_dtype)
BINARY_KERNEL(bitwise_xor, compute_dtype)
BINARY_KERNEL(copysign, compute_dtype)
BINARY_KERNEL(divide, compute_dtype)
BINARY_KERNEL(equal, common_dtype)
BINARY_KERNEL(floor_divide, compute_dtype)
BINARY_KERNEL(greater, common_dtype)
BINARY_KERNEL(greater_equal, common_dtype)
BINARY_KERNEL(hypot, compute_dtype)
BINARY_KERNEL(less, common_dtype)
BINARY_KERNEL(less_equal, common_dtype)
BINARY_KERNEL(logaddexp, compute_dtype)
BINARY_KERNEL(logical_and, common_dtype)
BINARY_KERNEL(logical_or, common_dtype)
BINARY_KERNEL(logical_xor, common_dtype)
BINARY_KERNEL(maximum, compute_dtype)
BINARY_KERNEL(minimum, compute_dtype)
BINARY_KERNEL(multiply, compute_dtype)
BINARY_KERNEL(nextafter, compute_dtype)
BINARY_KERNEL(not_equal, common_dtype)
BINARY_KERNEL(pow, compute_dtype)
BINARY_KERNEL(remainder, compute_dtype)
BINARY_KERNEL(subtract, compute_dtype)

#undef UNARY_KERNEL
#undef BINARY_KERNEL

}  // namespace ivy::torch_backend

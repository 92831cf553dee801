// The torch backend: ivy's kernels over LibTorch's at::Tensor.
#include <ATen/ATen.h>
#include <ATen/CPUFunctions.h>
#include <ATen/Dispatch.h>
#include <ATen/CompositeExplicitAutogradFunctions.h>
#include <ATen/CPUGeneratorImpl.h>
#include <c10/core/impl/LocalDispatchKeySet.h>
#include <c10/util/Exception.h>
#include <torch/csrc/autograd/VariableTypeUtils.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <mutex>

#include "ivy/backends/torch.hpp"
#include "cpu_isa.hpp"
#include "cpu_loops.hpp"
#include "handle_cache.hpp"
#include "npy_kernels.hpp"
#include "row_kernels.hpp"
#include "sort_kernels.hpp"
#include "strided_copy.hpp"
#include "torch_lapack.hpp"
#include "vec_math.hpp"
#include "ivy/dispatch.hpp"

namespace ivy::torch {

namespace {
// The passes below over LibTorch's results and operands are compiled for the baseline ISA
// and for AVX2 (src/cpu_isa.hpp): NAME_body is the loop, NAME picks the build at run time.
#if IVY_AVX2
#define ISA_PASS(ret, name, params, args)                                                 \
  template <class U>                                                                      \
  [[gnu::noinline]] ret name##_base params { return name##_body<U> args; }                \
  template <class U>                                                                      \
  [[gnu::noinline]] IVY_AVX2_FN ret name##_avx2 params { return name##_body<U> args; }    \
  template <class U>                                                                      \
  ret name params { return ::ivy::isa::kAvx2 ? name##_avx2<U> args : name##_base<U> args; }
#else
#define ISA_PASS(ret, name, params, args) \
  template <class U>                      \
  [[gnu::noinline]] ret name params { return name##_body<U> args; }
#endif
// The sign bit of a float bit pattern (U: uint32 or uint64).
template <class U> inline constexpr U kSignBit = U(1) << (sizeof(U) * 8 - 1);

// at::remainder is fmod-based like NumPy's, but a zero result keeps the dividend's sign
// where NumPy gives it the divisor's. A nonzero result already has the divisor's sign, so
// giving zeros the divisor's sign changes nothing else (a copysign in general, in place on
// the fresh result in the common case below, where it only writes when a zero occurred).
// r[i] = +-0 with b[i]'s sign where r[i] is a zero, on the bit patterns (integer selects
// vectorize; the float compare-and-select form does not without -fno-trapping-math).
template <class U>
[[gnu::always_inline]] inline void zero_signs_body(void* rv, const void* bv, std::int64_t n, bool scalar_b) {
  constexpr U sign = kSignBit<U>;
  auto* __restrict r = static_cast<unsigned char*>(rv);
  const auto* __restrict b = static_cast<const unsigned char*>(bv);
  auto fix = [](U x, U y) { return (x & ~sign) == 0 ? (y & sign) : x; };
  U x, y;
  if (scalar_b) {
    std::memcpy(&y, b, sizeof(U));
    for (std::int64_t i = 0; i < n; ++i) {
      std::memcpy(&x, r + i * sizeof(U), sizeof(U));
      x = fix(x, y);
      std::memcpy(r + i * sizeof(U), &x, sizeof(U));
    }
  } else {
    for (std::int64_t i = 0; i < n; ++i) {
      std::memcpy(&x, r + i * sizeof(U), sizeof(U));
      std::memcpy(&y, b + i * sizeof(U), sizeof(U));
      x = fix(x, y);
      std::memcpy(r + i * sizeof(U), &x, sizeof(U));
    }
  }
}
ISA_PASS(void, zero_signs, (void* r, const void* b, std::int64_t n, bool scalar_b), (r, b, n, scalar_b))
// Whether any of n floats (U: float or double) is a NaN / a zero or a NaN / not a normal
// number (zero, subnormal, infinite or NaN), in one read-only pass (compares and an or per
// vector).
template <class U, class Pred>
[[gnu::always_inline]] inline bool any_float(const void* xv, std::int64_t n, Pred pred) {
  const U* __restrict x = static_cast<const U*>(xv);
  int acc = 0;
  for (std::int64_t i = 0; i < n; ++i) acc |= pred(x[i]);
  return acc != 0;
}
template <class U>
[[gnu::always_inline]] inline bool any_nan_body(const void* x, std::int64_t n) {
  return any_float<U>(x, n, [](U v) { return v != v; });
}
ISA_PASS(bool, any_nan, (const void* x, std::int64_t n), (x, n))
template <class U>
[[gnu::always_inline]] inline bool any_zero_or_nan_body(const void* x, std::int64_t n) {
  return any_float<U>(x, n, [](U v) { return !(std::fabs(v) > U(0)); });
}
ISA_PASS(bool, any_zero_or_nan, (const void* x, std::int64_t n), (x, n))
template <class U>
[[gnu::always_inline]] inline bool any_not_normal_body(const void* x, std::int64_t n) {
  return any_float<U>(x, n, [](U v) {
    const U m = std::fabs(v);
    return !(m >= std::numeric_limits<U>::min()) | !(m < std::numeric_limits<U>::infinity());
  });
}
ISA_PASS(bool, any_not_normal, (const void* x, std::int64_t n), (x, n))
template <class U>
[[gnu::always_inline]] inline bool any_inf_body(const void* x, std::int64_t n) {
  return any_float<U>(x, n, [](U v) { return std::fabs(v) == std::numeric_limits<U>::infinity(); });
}
ISA_PASS(bool, any_inf, (const void* x, std::int64_t n), (x, n))
// Whether a floating tensor has a NaN: one pass over contiguous float32/64 CPU data, else
// LibTorch's isnan and any.
bool has_nan(const at::Tensor& t) {
  if (t.device().is_cpu() && t.is_contiguous() && !t.is_neg()) {
    if (t.scalar_type() == at::kFloat) return any_nan<float>(t.data_ptr(), t.numel());
    if (t.scalar_type() == at::kDouble) return any_nan<double>(t.data_ptr(), t.numel());
  }
  return at::isnan(t).any().item<bool>();
}
// Whether a floating tensor has an infinity: one pass over contiguous float32/64 CPU data,
// else LibTorch's isinf and any.
bool has_inf(const at::Tensor& t) {
  if (t.device().is_cpu() && t.is_contiguous() && !t.is_neg()) {
    if (t.scalar_type() == at::kFloat) return any_inf<float>(t.data_ptr(), t.numel());
    if (t.scalar_type() == at::kDouble) return any_inf<double>(t.data_ptr(), t.numel());
  }
  return at::isinf(t).any().item<bool>();
}
// The smallest normal number of a floating dtype (bfloat16 has float32's exponent range).
double min_normal(at::ScalarType t) {
  if (t == at::kDouble) return std::numeric_limits<double>::min();
  if (t == at::kHalf) return 0x1p-14;
  return std::numeric_limits<float>::min();
}
// Whether a floating tensor has a value that is not a normal number (the same, for log1p).
bool has_not_normal(const at::Tensor& t) {
  if (t.device().is_cpu() && t.is_contiguous() && !t.is_neg()) {
    if (t.scalar_type() == at::kFloat) return any_not_normal<float>(t.data_ptr(), t.numel());
    if (t.scalar_type() == at::kDouble) return any_not_normal<double>(t.data_ptr(), t.numel());
  }
  const at::Tensor m = at::abs(t);
  return at::logical_not(at::logical_and(at::ge(m, min_normal(t.scalar_type())), at::lt(m, INFINITY))).any().item<bool>();
}
// Whether any of the n counts (integers of type I, contiguous) is negative or `bits` (a power
// of two, 8 to 64) or more: read as unsigned, such a count has a bit above bits - 1 set.
// Or-reduced without an early exit, so that the loop vectorizes.
template <class I>
[[gnu::always_inline]] inline bool counts_out_of_range_body(const void* cv, std::int64_t n, std::uint64_t bits) {
  using U = std::make_unsigned_t<I>;
  const I* __restrict c = static_cast<const I*>(cv);
  const U high = static_cast<U>(~(bits - 1));
  U acc = 0;
  for (std::int64_t i = 0; i < n; ++i) acc |= static_cast<U>(static_cast<U>(c[i]) & high);
  return acc != 0;
}
ISA_PASS(bool, counts_out_of_range, (const void* c, std::int64_t n, std::uint64_t bits), (c, n, bits))
#undef ISA_PASS
// The same for a count tensor of any layout: one pass over contiguous CPU data, else
// LibTorch's comparisons (then any count that may be out of range counts).
bool shift_counts_out_of_range(const at::Tensor& c, std::int64_t bits) {
  if (c.device().is_cpu() && c.is_contiguous() && !c.is_conj() && !c.is_neg()) {
    const void* p = c.data_ptr();
    const std::int64_t n = c.numel();
    const auto b = static_cast<std::uint64_t>(bits);
    switch (c.scalar_type()) {
      case at::kByte: return counts_out_of_range<std::uint8_t>(p, n, b);
      case at::kChar: return counts_out_of_range<std::int8_t>(p, n, b);
      case at::kShort: return counts_out_of_range<std::int16_t>(p, n, b);
      case at::kInt: return counts_out_of_range<std::int32_t>(p, n, b);
      case at::kLong: return counts_out_of_range<std::int64_t>(p, n, b);
      default: break;
    }
  }
  return true;
}
// NumPy's loops (src/npy_kernels.hpp, the xtensor backend's) for the kernels' direct path:
// plain CPU operands (see Path below) that are contiguous, of one dtype, and either of the
// same sizes (mode 0) or one of them a single element with no more dimensions than the
// other (1: b, 2: a), so that the result has the other's sizes. There one pass computes
// NumPy's result, where LibTorch's kernel gives another for some inputs and needs a pass
// that checks for them after it (np_floor_divide and the others in ns_ops.inc), or, for
// copysign, runs at two speeds (ns_ops.inc). float32 pow goes to ivy's loop computed in
// float64 (src/vec_math.hpp) where AVX-512 runs it: 36 % faster than LibTorch's kernel at 1e4
// elements, and correctly rounded. Returns an undefined tensor where the operands do not
// qualify.
enum class NpyOp { floor_divide, remainder, copysign, left_shift, right_shift, pow, hypot };
// The loops' mode for two operands (above), or -1 where they do not qualify.
int loop_mode(const at::Tensor& a, const at::Tensor& b) {
  if (b.scalar_type() != a.scalar_type() || !a.device().is_cpu() || !b.device().is_cpu() || !a.is_contiguous() ||
      !b.is_contiguous() || a.is_neg() || b.is_neg())
    return -1;
  if (a.sizes() == b.sizes()) return 0;
  if (b.numel() == 1 && b.dim() <= a.dim()) return 1;
  if (a.numel() == 1 && a.dim() <= b.dim()) return 2;
  return -1;
}
// f(T{}) for the dtypes the bool-result loops have; false for the others.
template <class F>
bool visit_bool_loop_types(at::ScalarType ty, F&& f) {
  switch (ty) {
    case at::kFloat: f(float{}); return true;
    case at::kDouble: f(double{}); return true;
    case at::kLong: f(std::int64_t{}); return true;
    case at::kInt: f(std::int32_t{}); return true;
    case at::kShort: f(std::int16_t{}); return true;
    case at::kChar: f(std::int8_t{}); return true;
    case at::kByte: f(std::uint8_t{}); return true;
    case at::kBool: f(bool{}); return true;
    default: return false;
  }
}
// The same without bool: the real dtypes ivy's sort/search/set kernels take.
template <class F>
bool visit_real_loop_types(at::ScalarType ty, F&& f) {
  return ty != at::kBool && visit_bool_loop_types(ty, [&](auto tag) {
    if constexpr (!std::is_same_v<decltype(tag), bool>) f(tag);
  });
}
// Comparisons and the logical functions (npy_kernels.hpp) on the direct path: one vectorized
// pass into a bool tensor, where LibTorch's kernels go through a TensorIterator that casts to
// bool (4.8-7.7 us against ~0.9 us for 1e4 float32 elements). Operands as npy_loop's.
at::Tensor cmp_loop(npy::Cmp op, const at::Tensor& a, const at::Tensor& b) {
  const int mode = loop_mode(a, b);
  if (mode < 0) return {};
  const at::Tensor& full = mode == 2 ? b : a;
  at::Tensor r;
  const bool ok = visit_bool_loop_types(a.scalar_type(), [&](auto tag) {
    using T = decltype(tag);
    r = ::at::cpu::empty(full.sizes(), full.options().dtype(at::kBool));
    npy::compare_n(op, r.data_ptr<bool>(), a.data_ptr<T>(), b.data_ptr<T>(), r.numel(), mode);
  });
  return ok ? r : at::Tensor();
}
// isnan, isinf, isfinite, signbit, logical_not of a contiguous CPU tensor, the same way.
at::Tensor pred_loop(npy::Pred op, const at::Tensor& x) {
  if (!x.device().is_cpu() || !x.is_contiguous() || x.is_neg()) return {};
  at::Tensor r;
  const bool ok = visit_bool_loop_types(x.scalar_type(), [&](auto tag) {
    using T = decltype(tag);
    r = ::at::cpu::empty(x.sizes(), x.options().dtype(at::kBool));
    npy::predicate_n(op, r.data_ptr<bool>(), x.data_ptr<T>(), r.numel());
  });
  return ok ? r : at::Tensor();
}
// NumPy's sign of a contiguous real CPU tensor (npy::sign_n), on the direct path; LibTorch's
// sign keeps NaN only with a where(isnan) around it: three passes.
at::Tensor sign_loop(const at::Tensor& x) {
  if (!x.device().is_cpu() || !x.is_contiguous() || x.is_neg() || x.scalar_type() == at::kBool) return {};
  at::Tensor r;
  const bool ok = visit_bool_loop_types(x.scalar_type(), [&](auto tag) {
    using T = decltype(tag);
    if constexpr (!std::is_same_v<T, bool>) {
      r = ::at::cpu::empty(x.sizes(), x.options());
      npy::sign_n(r.data_ptr<T>(), x.data_ptr<T>(), r.numel());
    }
  });
  return ok ? r : at::Tensor();
}
// negative, square, floor, ceil, trunc, round of a contiguous float32/64 CPU tensor by one
// loop of ivy's (npy::exact_n: the same values as LibTorch's kernels, whose results are exact
// or x * x), on the direct path where that loop is vectorized: without LibTorch's
// TensorIterator (1e4 float32 negative 1.47 -> ~1.0 us).
at::Tensor exact_loop(npy::Exact op, const at::Tensor& x) {
  const auto ty = x.scalar_type();
  if ((ty != at::kFloat && ty != at::kDouble) || !x.device().is_cpu() || !x.is_contiguous() || x.is_neg() ||
      !npy::exact_fast(op))
    return {};
  at::Tensor r = ::at::cpu::empty(x.sizes(), x.options());
  if (ty == at::kFloat) npy::exact_n(op, r.data_ptr<float>(), x.data_ptr<float>(), r.numel());
  else npy::exact_n(op, r.data_ptr<double>(), x.data_ptr<double>(), r.numel());
  return r;
}
// add, subtract, multiply, divide, maximum and minimum of two plain CPU tensors of one real
// dtype (npy::arith_n: the values LibTorch's kernels give, bit for bit, but for maximum and
// minimum NaN's bits and the scalar tail's choice between -0 and +0, where it is NumPy's rule
// as in every lane and on the xtensor backend), on the direct path: one
// vectorized loop without LibTorch's TensorIterator, whose setup costs ~0.4 us a call (1e4
// float32 add: 1.28 us through at::cpu::add). Operands as npy_loop's; bool (LibTorch's add is
// a logical or there) and integer divide (a float result) are left to LibTorch.
at::Tensor arith_loop(npy::Arith op, const at::Tensor& a, const at::Tensor& b) {
  const int mode = loop_mode(a, b);
  if (mode < 0 || (op == npy::Arith::divide && !a.is_floating_point())) return {};
  const at::Tensor& full = mode == 2 ? b : a;
  at::Tensor r;
  visit_real_loop_types(a.scalar_type(), [&](auto tag) {
    using T = decltype(tag);
    r = ::at::cpu::empty(full.sizes(), full.options());
    npy::arith_n(op, r.data_ptr<T>(), a.data_ptr<T>(), b.data_ptr<T>(), r.numel(), mode);
  });
  return r;
}
at::Tensor npy_loop(NpyOp op, const at::Tensor& a, const at::Tensor& b) {
  const auto ty = a.scalar_type();
  if (op == NpyOp::pow && (ty != at::kFloat || !isa::kAvx512)) return {};
  if (op == NpyOp::hypot && (ty != at::kFloat || !isa::kAvx2)) return {};
  const int mode = loop_mode(a, b);
  if (mode < 0) return {};
  const at::Tensor& full = mode == 2 ? b : a;
  auto run = [&](auto tag) {
    using T = decltype(tag);
    at::Tensor r = ::at::cpu::empty(full.sizes(), full.options());
    T* o = r.data_ptr<T>();
    const T* p = a.data_ptr<T>();
    const T* q = b.data_ptr<T>();
    const std::int64_t n = r.numel();
    if constexpr (std::is_floating_point_v<T>) {
      if (op == NpyOp::floor_divide) npy::floor_divide_n(o, p, q, n, mode);
      else if (op == NpyOp::remainder) npy::remainder_n(o, p, q, n, mode);
      else if (op == NpyOp::copysign) npy::copysign_n(o, p, q, n, mode);
      else if constexpr (std::is_same_v<T, float>) {
        if (op == NpyOp::pow) vmath::pow_n(o, p, q, n, mode);
        else vmath::hypot_n(o, p, q, n, mode);
      }
    } else {
      if (op == NpyOp::left_shift) npy::left_shift_n(o, p, q, n, mode);
      else npy::right_shift_n(o, p, q, n, mode);
    }
    return r;
  };
  const bool floating = op != NpyOp::left_shift && op != NpyOp::right_shift;
  if (floating) {
    if (ty == at::kFloat) return run(float{});
    if (ty == at::kDouble) return run(double{});
    return {};
  }
  switch (ty) {
    case at::kByte: return run(std::uint8_t{});
    case at::kChar: return run(std::int8_t{});
    case at::kShort: return run(std::int16_t{});
    case at::kInt: return run(std::int32_t{});
    case at::kLong: return run(std::int64_t{});
    default: return {};
  }
}
}  // namespace

// The public namespace: LibTorch's functions through its dispatcher (autograd included).
namespace A = ::at;
constexpr bool kNpyLoops = false;  // (LibTorch's kernels, as a LibTorch user calls them)
#include "ns_ops.inc"
at::Tensor clip(const at::Tensor& x, std::optional<double> min, std::optional<double> max) {
  return at::clamp(x, min ? c10::optional<at::Scalar>(*min) : c10::nullopt,
                   max ? c10::optional<at::Scalar>(*max) : c10::nullopt);
}

}  // namespace ivy::torch

// Where LibTorch exports its CPU kernel of a function (at::cpu::, what its dispatcher ends up
// calling for a dense CPU tensor once the autograd and autocast layers are passed), the
// kernels' direct path calls it straight; everything else is looked up in at:: as usual.
// (Qualified lookup finds these using-declarations first; the using-directive supplies the
// rest.)
namespace ivy::torch_cpu_first {
using namespace ::at;
using ::at::cpu::acos;
using ::at::cpu::acosh;
using ::at::cpu::add;
using ::at::cpu::asin;
using ::at::cpu::asinh;
using ::at::cpu::atan;
using ::at::cpu::atan2;
using ::at::cpu::atanh;
using ::at::cpu::bitwise_and;
using ::at::cpu::bitwise_left_shift;
using ::at::cpu::bitwise_not;
using ::at::cpu::bitwise_or;
using ::at::cpu::bitwise_right_shift;
using ::at::cpu::bitwise_xor;
using ::at::cpu::ceil;
using ::at::cpu::copysign;
using ::at::cpu::cos;
using ::at::cpu::cosh;
using ::at::cpu::div;
using ::at::cpu::eq;
using ::at::cpu::exp;
using ::at::cpu::expm1;
using ::at::cpu::floor;
using ::at::cpu::ge;
using ::at::cpu::gt;
using ::at::cpu::hypot;
using ::at::cpu::isnan;
using ::at::cpu::le;
using ::at::cpu::log;
using ::at::cpu::log10;
using ::at::cpu::log1p;
using ::at::cpu::log2;
using ::at::cpu::logaddexp;
using ::at::cpu::lt;
using ::at::cpu::maximum;
using ::at::cpu::minimum;
using ::at::cpu::mul;
using ::at::cpu::ne;
using ::at::cpu::neg;
using ::at::cpu::nextafter;
using ::at::cpu::pow;
using ::at::cpu::reciprocal;
using ::at::cpu::remainder;
using ::at::cpu::round;
using ::at::cpu::sign;
using ::at::cpu::signbit;
using ::at::cpu::sin;
using ::at::cpu::sinh;
using ::at::cpu::sqrt;
using ::at::cpu::sub;
using ::at::cpu::tan;
using ::at::cpu::tanh;
using ::at::cpu::trunc;
using ::at::cpu::where;
using ::at::cpu::amax;
using ::at::cpu::mm;
using ::at::cpu::amin;
using ::at::cpu::cumprod;
using ::at::cpu::cumsum;
using ::at::cpu::flip;
using ::at::cpu::mean;
using ::at::cpu::prod;
using ::at::cpu::roll;
using ::at::cpu::sum;
using ::at::cpu::tril;
using ::at::cpu::triu;
// CompositeExplicitAutograd kernels (one implementation for every device; the calls they
// make inside still go through the dispatcher)
using ::at::compositeexplicitautograd::_to_copy;
using ::at::compositeexplicitautograd::repeat;
// abs: LibTorch's functional abs is CompositeExplicitAutograd: an empty result and abs_out,
// two more dispatcher calls; here the same two steps on the CPU kernels.
inline at::Tensor abs(const at::Tensor& x) {
  at::Tensor r = ::at::cpu::empty({0}, x.options());
  ::at::cpu::abs_out(r, x);
  return r;
}
// clone of a contiguous tensor: LibTorch's empty CPU tensor of its sizes and dtype and one
// memcpy (LibTorch's clone makes empty_like and copy_, two more dispatcher calls, and copies
// through a TensorIterator: 1.2 us against 0.85 for 40 KB here). Tensors with a negative or
// conjugate bit (whose copy resolves it) and other layouts take LibTorch's.
inline at::Tensor clone(const at::Tensor& x, c10::optional<at::MemoryFormat> format = c10::nullopt) {
  if (format || !x.is_contiguous() || x.is_neg() || x.is_conj() || x.layout() != at::kStrided)
    return ::at::compositeexplicitautograd::clone(x, format);
  at::Tensor r = ::at::cpu::empty(x.sizes(), x.options());
  if (r.nbytes() > 0) std::memcpy(r.data_ptr(), x.data_ptr(), r.nbytes());
  return r;
}
// full on the CPU: LibTorch's empty CPU tensor and one fill loop of ivy's (cpu_loops.hpp,
// AVX2 where there: 32-byte stores) for the real dtypes and bool (LibTorch's full makes
// empty and fill_, two more dispatcher calls, and fills through a TensorIterator). The value
// converts as fill_ converts it (c10::Scalar::to: an error where it overflows the dtype).
template <class T>
void fill_value(at::Tensor& r, const at::Scalar& v) {
  loops::fill_best(r.data_ptr<T>(), r.numel(), v.to<T>());
}
inline at::Tensor full(at::IntArrayRef size, const at::Scalar& v, at::TensorOptions o) {
  if (o.device().is_cpu() && o.layout() == at::kStrided) {
    switch (c10::typeMetaToScalarType(o.dtype())) {
#define IVY_FULL_CASE(ty, T)                      \
  case at::ty: {                                  \
    at::Tensor r = ::at::cpu::empty(size, o);    \
    fill_value<T>(r, v);                          \
    return r;                                     \
  }
      IVY_FULL_CASE(kFloat, float) IVY_FULL_CASE(kDouble, double) IVY_FULL_CASE(kLong, std::int64_t)
      IVY_FULL_CASE(kInt, std::int32_t) IVY_FULL_CASE(kShort, std::int16_t) IVY_FULL_CASE(kChar, std::int8_t)
      IVY_FULL_CASE(kByte, std::uint8_t) IVY_FULL_CASE(kBool, bool)
#undef IVY_FULL_CASE
      default: break;
    }
  }
  return ::at::compositeexplicitautograd::full(size, v, o);
}
// zeros_like of a contiguous tensor: LibTorch's empty CPU tensor of its sizes and dtype,
// zeroed with memset (LibTorch's zeros_like makes the same two steps, empty_like and zero_,
// as two more dispatcher calls)
inline at::Tensor zeros_like(const at::Tensor& x) {
  if (!x.is_contiguous()) return ::at::compositeexplicitautograd::zeros_like(x);
  at::Tensor r = ::at::cpu::empty(x.sizes(), x.options());
  if (r.nbytes() > 0) std::memset(r.data_ptr(), 0, r.nbytes());
  return r;
}
}  // namespace ivy::torch_cpu_first

// The same functions over the CPU kernels, for the backend's kernels (not public).
namespace ivy::torch::direct {
namespace {
namespace A = ::ivy::torch_cpu_first;
constexpr bool kNpyLoops = true;  // plain CPU tensors: npy_loop where the operands qualify
#include "ns_ops.inc"
}  // namespace
}  // namespace ivy::torch::direct

namespace ivy {
namespace {

extern BackendImpl kTorch;

// LibTorch 1.13 has no uint16/uint32/uint64: uint16 and uint32 are stored widened in
// int32/int64 and wrapped back after arithmetic; uint64 is unsupported (see list).
at::ScalarType st_slow(DType d) {
  throw NotImplementedError(std::string("[torch] dtype ") + dtype_name(d) + " is not supported by LibTorch 1.13");
}
// Storage type of each ivy dtype (DType order); uint64 has none.
constexpr at::ScalarType kStorage[kNumDTypes] = {
    at::kBool, at::kChar, at::kShort, at::kInt, at::kLong, at::kByte, at::kInt /* uint16 */, at::kLong /* uint32 */,
    at::kLong /* uint64: unused */, at::kHalf, at::kBFloat16, at::kFloat, at::kDouble, at::kComplexFloat,
    at::kComplexDouble};
inline at::ScalarType st(DType d) { return d == uint64 ? st_slow(d) : kStorage[static_cast<int>(d)]; }
DType from_st(at::ScalarType s) {
  switch (s) {
    case at::kBool: return bool_;
    case at::kChar: return int8;
    case at::kShort: return int16;
    case at::kInt: return int32;
    case at::kLong: return int64;
    case at::kByte: return uint8;
    case at::kHalf: return float16;
    case at::kBFloat16: return bfloat16;
    case at::kFloat: return float32;
    case at::kDouble: return float64;
    case at::kComplexFloat: return complex64;
    case at::kComplexDouble: return complex128;
    default: throw TypeError(std::string("[torch] unsupported tensor dtype ") + c10::toString(s));
  }
}
bool widened(DType d) { return d == uint16 || d == uint32; }

// Wrap a tensor's values into the range of a widened unsigned dtype.
at::Tensor wrap_unsigned_slow(const at::Tensor& t, DType d) {
  if (d == uint16) return at::bitwise_and(t, 0xFFFF);
  return at::bitwise_and(t, static_cast<int64_t>(0xFFFFFFFFLL));
}
inline at::Tensor wrap_unsigned(at::Tensor t, DType d) {
  if (widened(d)) return wrap_unsigned_slow(t, d);
  return t;
}

struct TorchImpl final : ArrayImpl {
  // The shape is read from the tensor's sizes (the base is built before `t` takes t_).
  TorchImpl(at::Tensor&& t_, DType d)
      : ArrayImpl(std::span<const std::int64_t>(t_.sizes().data(), t_.sizes().size()), d,
                  t_.is_cuda() ? Device{Device::cuda, static_cast<int16_t>(t_.get_device())} : Device{}, &kTorch),
        t(std::move(t_)) {}
  at::Tensor t;
};

const at::Tensor& T(const Array& a) { return static_cast<TorchImpl*>(a.impl())->t; }

// Result handles come from a per-thread free list (src/handle_cache.hpp): a pointer pop
// instead of a malloc/free pair, the only heap work ivy adds to a LibTorch call.
struct TorchHandles;

at::Tensor cast(const at::Tensor& t, DType d);
// Every torch array stores its dtype's storage type: a kernel result LibTorch promoted
// (integer sums and products come back int64) is cast here, so no array can carry storage
// of another type than its label.
Array handle(at::Tensor&& t, DType d) {
  return Array(std::allocate_shared<TorchImpl>(handles::Alloc<TorchImpl, TorchHandles>(), std::move(t), d));
}
Array make(at::Tensor t, DType d) {
  if (t.scalar_type() != st(d)) t = cast(t, d);
  return handle(std::move(t), d);
}
// make(cast(t, d), d) with one test on the common path: a kernel's fresh result in dtype d's
// storage type (widened unsigned dtypes are also wrapped into their range).
Array make_cast(at::Tensor&& t, DType d) {
  if (t.scalar_type() != st(d) || widened(d)) t = cast(t, d);
  return handle(std::move(t), d);
}
// Cast storage to the ivy dtype `d`.
at::Tensor cast(const at::Tensor& t, DType d) {
  auto target = st(d);
  at::Tensor r = t.scalar_type() == target ? t : t.to(target);
  return widened(d) ? wrap_unsigned(r, d) : r;
}
// An input in dtype d: borrowed (no reference-count traffic) when no cast is needed, else
// the converted tensor, owned. Unlike c10::MaybeOwned, whose operator* on a temporary
// returns a copy (two atomic reference-count updates per input), `*in_as(x, d)` is always
// a reference, valid until the end of the full expression.
class In {
 public:
  explicit In(const at::Tensor& borrowed) : p_(&borrowed) {}
  explicit In(at::Tensor&& owned) : own_(std::move(owned)), p_(&own_) {}
  In(const In&) = delete;
  In& operator=(const In&) = delete;
  const at::Tensor& operator*() const { return *p_; }
  const at::Tensor* operator->() const { return p_; }

 private:
  at::Tensor own_;
  const at::Tensor* p_;
};
In in_as(const Array& a, DType d) {
  if (a.dtype() == d) return In(T(a));
  return In(cast(T(a), d));
}
at::TensorOptions opts(DType d) { return at::TensorOptions().dtype(st(d)); }
std::vector<int64_t> vec(const Dims& d) { return {d.begin(), d.end()}; }
// A view of the dims for a LibTorch call made in the same expression (no vector built).
c10::IntArrayRef ref(const Dims& d) { return c10::IntArrayRef(d.data(), d.size()); }
at::Scalar scal(const Scalar& s) {
  switch (s.kind) {
    case Scalar::Bool: return at::Scalar(s.b);
    case Scalar::Int: return at::Scalar(static_cast<int64_t>(s.i));
    case Scalar::Float: return at::Scalar(s.d);
    default: return at::Scalar(c10::complex<double>(s.c.real(), s.c.imag()));
  }
}

// How a kernel calls LibTorch for these inputs.
// - autograd: some input takes part in LibTorch's autograd (it has autograd metadata, plain
//   tensors have none, and requires grad or carries a forward-mode tangent): LibTorch's
//   dispatcher as usual, so gradients keep flowing.
// - below_autograd: otherwise LibTorch's autograd kernels would only check, exclude
//   themselves and redispatch (~25-45 ns a call on the benchmark VM): the kernel's LibTorch
//   calls run with those layers excluded, as they would after them (ivy differentiates with
//   its own tape; the results are the same tensors, no grad_fn either way).
// - direct: moreover every input is a dense CPU tensor with no other dispatch keys than a
//   fresh one has (no conjugate/negative bit, not sparse, quantized, named or a wrapper
//   subclass) and the thread's dispatch state is LibTorch's default (no inference mode,
//   autocast, tracer or other thread-local keys): the functions with an exported CPU
//   kernel are called straight (ivy::torch::direct), which is the very kernel the
//   dispatcher would reach after passing the layers that have nothing to do here, without
//   the ~25 ns of the dispatcher's key computation, profiler check and table lookup.
enum class Path { autograd, below_autograd, direct };
constexpr c10::DispatchKeySet kPlainCpu({c10::DispatchKey::CPU, c10::DispatchKey::ADInplaceOrView,
                                         c10::DispatchKey::AutogradCPU, c10::DispatchKey::AutocastCPU});
// LibTorch's thread-local dispatch state (included/excluded keys), looked up once per kernel
// (c10::impl::raw_local_dispatch_key_set: the exported thread_local of LibTorch's Linux
// builds, which its own guards read and write).
using TlsKeys = c10::impl::PODLocalDispatchKeySet;
Path path_for(const TlsKeys& tls, const Array* in, int n) {
  // LibTorch stores the sets XORed with its defaults: all zero is the default state.
  bool plain = (tls.included_ | tls.excluded_) == 0;
  for (int i = 0; i < n; ++i) {  // (dispatch gives kernels defined inputs of this backend)
    const c10::TensorImpl* t = T(in[i]).unsafeGetTensorImpl();
    if (t->autograd_meta() && (t->requires_grad() || T(in[i])._fw_grad(0).defined())) return Path::autograd;
    plain &= t->key_set() == kPlainCpu;
  }
  return plain ? Path::direct : Path::below_autograd;
}
// Excludes keys from the thread's dispatch for a scope, as c10::impl::ExcludeDispatchKeyGuard
// (behind at::AutoDispatchBelowAutograd and at::AutoDispatchBelowADInplaceOrView) does, on
// the state already looked up.
class ExcludeKeys {
 public:
  ExcludeKeys(TlsKeys& tls, c10::DispatchKeySet keys) : tls_(tls), saved_(tls.excluded_) {
    tls.set_excluded(tls.excluded() | keys);
  }
  ~ExcludeKeys() { tls_.excluded_ = saved_; }
  ExcludeKeys(const ExcludeKeys&) = delete;
  ExcludeKeys& operator=(const ExcludeKeys&) = delete;

 private:
  TlsKeys& tls_;
  std::uint64_t saved_;
};

// Every kernel runs inside this so that LibTorch's errors become ivy errors, on the path
// above. A kernel body that takes a bool is told whether to use the direct calls (it runs
// below autograd either way, for the LibTorch calls that have no CPU entry point). Kernels
// returning views of an input (View) keep the view bookkeeping layer (ADInplaceOrView) on
// the dispatcher path, so LibTorch still knows them as views; on the direct path they do
// that layer's work themselves (tracked_view). The others skip it as LibTorch's autograd
// kernels do before calling the backend.
template <bool View = false, class F>
void guarded(const char* op, const Array* in, int n, F&& f) {
  auto body = [&](bool direct) {
    if constexpr (std::is_invocable_v<F&, bool>) f(direct);
    else f();
  };
  try {
    // One lookup of the thread-local address (__tls_get_addr from this library): the empty
    // asm keeps the compiler from recomputing it at each use.
    TlsKeys* tls_addr = &c10::impl::raw_local_dispatch_key_set;
    asm("" : "+r"(tls_addr));
    TlsKeys& tls = *tls_addr;
    const Path p = path_for(tls, in, n);
    if (p == Path::autograd) {
      body(false);
    } else if constexpr (View) {
      if (p == Path::direct) {  // the view kernel itself, registered as a view (tracked_view)
        ExcludeKeys below_views(tls, c10::autograd_dispatch_keyset_with_ADInplaceOrView);
        body(true);
      } else {
        ExcludeKeys below_autograd(tls, c10::autograd_dispatch_keyset);
        body(false);
      }
    } else {
      ExcludeKeys below_autograd_and_views(tls, c10::autograd_dispatch_keyset_with_ADInplaceOrView);
      body(p == Path::direct);
    }
  } catch (const Error&) {
    throw;
  } catch (const c10::Error& e) {
    throw Error(std::string("[") + op + "] backend torch: " + e.what_without_backtrace());
  } catch (const std::exception& e) {
    throw Error(std::string("[") + op + "] backend torch: " + e.what());
  }
}

#define KERNEL(name) \
  void k_##name(const Array* in, int n, const Attrs& a, const OutSpec* spec, Array* out)
#define RUN_AS(view, name, ...) \
  KERNEL(name) {                 \
    (void)a;                     \
    guarded<view>(#name, in, n, [&](bool direct) { (void)direct; __VA_ARGS__; }); \
  }
#define RUN(name, ...) RUN_AS(false, name, __VA_ARGS__)
// A view of `base` computed on the direct path by the view function's CompositeExplicitAutograd
// kernel (below the view layer, where that layer calls it), registered as LibTorch's view
// bookkeeping layer (ADInplaceOrView) registers its result for a dense CPU base: the view
// records its base and the grad mode it was made in and shares the base's version counter,
// so in-place changes through either are seen by LibTorch's autograd as with its own views.
at::Tensor tracked_view(const at::Tensor& base, const at::Tensor& v) {
  using ::torch::autograd::CreationMeta;
  return ::torch::autograd::as_view(base, v, /*is_bw_differentiable=*/true, /*is_fw_differentiable=*/true,
                                  /*view_func=*/nullptr,
                                  at::GradMode::is_enabled() ? CreationMeta::DEFAULT : CreationMeta::NO_GRAD_MODE);
}
// A view function on the kernel's path (in RUN_VIEW kernels).
#define VIEW(name, x, ...) \
  (direct ? tracked_view(x, ::at::compositeexplicitautograd::name(x, __VA_ARGS__)) : (x).name(__VA_ARGS__))
// A kernel whose result is a view of its input (see guarded).
#define RUN_VIEW(name, ...) RUN_AS(true, name, __VA_ARGS__)
#define SET(expr) out[0] = make(expr, spec[0].dtype)
// A fresh result cast to the output dtype (see make_cast).
#define SET_CAST(expr) out[0] = make_cast(expr, spec[0].dtype)

// ---- elementwise: inputs cast to the compute dtype, then the native call.
// LibTorch 1.13 lacks many float16 CPU kernels: float16 computes in float32 and rounds back.
DType compute_dtype(DType d) { return d == float16 ? float32 : d; }
// The namespace function on the kernel's path (see guarded).
#define NS(name, ...) (direct ? torch::direct::name(__VA_ARGS__) : torch::name(__VA_ARGS__))
// A LibTorch function on the kernel's path.
#define AT(name, ...) (direct ? ::ivy::torch_cpu_first::name(__VA_ARGS__) : ::at::name(__VA_ARGS__))
#define UNARY_OUT(name) \
  RUN(name, SET_CAST(NS(name, *in_as(in[0], compute_dtype(spec[0].dtype)))))
#define UNARY_RAW(name) RUN(name, SET_CAST(NS(name, T(in[0]))))
#define BINARY_OUT(name)                                                                    \
  RUN(name, {                                                                               \
    DType c = compute_dtype(spec[0].dtype);                                                 \
    SET_CAST(NS(name, *in_as(in[0], c), *in_as(in[1], c)));                                 \
  })
#define BINARY_CMP(name)                                       \
  RUN(name, {                                                  \
    DType c = result_type(in[0].dtype(), in[1].dtype());       \
    SET(NS(name, *in_as(in[0], c), *in_as(in[1], c)));         \
  })
UNARY_RAW(abs)
UNARY_OUT(acos) UNARY_OUT(acosh) UNARY_OUT(asin) UNARY_OUT(asinh) UNARY_OUT(atan) UNARY_OUT(atanh)
UNARY_OUT(bitwise_invert) UNARY_OUT(ceil) UNARY_OUT(conj) UNARY_OUT(cos) UNARY_OUT(cosh) UNARY_OUT(exp)
UNARY_OUT(expm1) UNARY_OUT(floor) UNARY_RAW(imag) UNARY_RAW(isfinite) UNARY_RAW(isinf) UNARY_RAW(isnan)
UNARY_OUT(log) UNARY_OUT(log1p) UNARY_OUT(log2) UNARY_OUT(log10) UNARY_RAW(logical_not) UNARY_OUT(negative)
UNARY_OUT(positive) UNARY_RAW(real) UNARY_OUT(reciprocal) UNARY_OUT(round) UNARY_OUT(sign) UNARY_RAW(signbit)
UNARY_OUT(sin) UNARY_OUT(sinh) UNARY_OUT(square) UNARY_OUT(sqrt) UNARY_OUT(tan) UNARY_OUT(tanh) UNARY_OUT(trunc)
BINARY_OUT(add) BINARY_OUT(atan2) BINARY_OUT(bitwise_and) BINARY_OUT(bitwise_left_shift) BINARY_OUT(bitwise_or)
BINARY_OUT(bitwise_right_shift) BINARY_OUT(bitwise_xor) BINARY_OUT(copysign) BINARY_OUT(divide)
BINARY_CMP(equal) BINARY_OUT(floor_divide) BINARY_CMP(greater) BINARY_CMP(greater_equal) BINARY_OUT(hypot)
BINARY_CMP(less) BINARY_CMP(less_equal) BINARY_OUT(logaddexp) BINARY_CMP(logical_and) BINARY_CMP(logical_or)
BINARY_CMP(logical_xor) BINARY_OUT(maximum) BINARY_OUT(minimum) BINARY_OUT(multiply) BINARY_OUT(nextafter)
BINARY_CMP(not_equal) BINARY_OUT(pow) BINARY_OUT(remainder) BINARY_OUT(subtract)

// ---- creation
RUN(full, SET(AT(full, ref(a.ints), scal(a.s0), opts(spec[0].dtype))))
// start + i * step in float64 rounded once to a float32/float64 result, into a CPU tensor
// (loops::affine_best, vectorized: 2 us for 1e4 float32 elements against LibTorch's arange,
// multiply, add and cast, 14 us); undefined for other dtypes.
at::Tensor affine_fill(DType d, std::int64_t n, double start, double step) {
  if (d != float32 && d != float64) return {};
  at::Tensor r = ::at::cpu::empty({n}, opts(d));
  if (d == float32) loops::affine_best(r.data_ptr<float>(), n, start, step);
  else loops::affine_best(r.data_ptr<double>(), n, start, step);
  return r;
}
RUN(arange, {
  auto n = spec[0].shape[0];
  at::Tensor r;
  const bool ints = a.s0.kind == Scalar::Int && a.s1.kind == Scalar::Int && a.s2.kind == Scalar::Int;
  if (direct && !ints)
    if (at::Tensor f = affine_fill(spec[0].dtype, n, a.s0.d, a.s2.d); f.defined()) {
      SET(std::move(f));
      return;
    }
  if (ints)
    r = at::arange(0, n, at::TensorOptions().dtype(at::kLong)).mul(a.s2.i).add(a.s0.i);
  else
    r = at::arange(0, n, at::TensorOptions().dtype(at::kDouble)).mul(a.s2.d).add(a.s0.d);
  SET_CAST(std::move(r));
})
RUN(linspace, {
  DType d = spec[0].dtype;
  auto num = a.i0;
  bool cplx = is_complex(d);
  if (direct && !cplx) {  // NumPy's values: start + i * step, the endpoint exactly stop
    const double div = a.b0 ? static_cast<double>(num - 1) : static_cast<double>(num);
    const double s0 = a.s0.d, step = div > 0 ? (a.s1.d - s0) / div : 0.0;
    if (at::Tensor f = affine_fill(d, num, s0, step); f.defined()) {
      if (a.b0 && num > 1) {
        if (d == float32) f.data_ptr<float>()[num - 1] = static_cast<float>(a.s1.d);
        else f.data_ptr<double>()[num - 1] = a.s1.d;
      }
      SET(std::move(f));
      return;
    }
  }
  auto calc = at::kDouble;
  at::Tensor r;
  auto lin = [&](double s, double e) {
    if (num == 0) return at::empty({0}, at::TensorOptions().dtype(calc));
    if (!a.b0) {
      double step = (e - s) / static_cast<double>(num);
      return at::arange(0, num, at::TensorOptions().dtype(calc)).mul(step).add(s);
    }
    return at::linspace(s, e, num, at::TensorOptions().dtype(calc));
  };
  if (cplx)
    r = at::complex(lin(a.s0.c.real(), a.s1.c.real()), lin(a.s0.c.imag(), a.s1.c.imag()));
  else
    r = lin(a.s0.d, a.s1.d);
  SET_CAST(std::move(r));
})
// eye on the direct path: a zeroed CPU buffer and the ones written along the diagonal (1e4
// float32 elements: 4 us against 15 for LibTorch's arange, compare and cast below).
at::Tensor eye_fill(DType d, std::int64_t rows, std::int64_t cols, std::int64_t k) {
  at::Tensor r = ::at::cpu::empty({rows, cols}, opts(d));
  std::memset(r.data_ptr(), 0, static_cast<std::size_t>(r.numel()) * static_cast<std::size_t>(r.element_size()));
  AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND3(at::kBool, at::kHalf, at::kBFloat16, r.scalar_type(), "eye", [&] {
    auto* p = r.data_ptr<scalar_t>();
    for (std::int64_t i = std::max<std::int64_t>(0, -k); i < rows && i + k < cols; ++i) p[i * cols + i + k] = scalar_t(1);
  });
  return r;
}
RUN(eye, {
  if (direct) {
    SET(eye_fill(spec[0].dtype, a.i0, a.i1, a.i2));
    return;
  }
  auto rows = at::arange(a.i0, at::TensorOptions().dtype(at::kLong)).unsqueeze(1);
  auto cols = at::arange(a.i1, at::TensorOptions().dtype(at::kLong)).unsqueeze(0);
  SET_CAST(at::eq(rows + a.i2, cols));
})
// The largest value of a real floating dtype below `high` rounded to that dtype (as a
// double), or `low` rounded when the dtype has none in [low, high): float64 draws of
// random_uniform are capped at it, as their rounding to the dtype could otherwise give
// `high` (float32 [0, 1): 1 draw in 2^25). Rounding keeps them at or above the rounded low,
// so every value lies in [low, high) as the dtype compares. (16-bit types round as LibTorch
// converts a double to them, through float.)
double uniform_top(double low, double high, DType d) {
  auto below16 = [low](auto h) {  // one step down from h, not below low rounded likewise
    using H = decltype(h);
    const std::uint16_t bits = h.x;
    H b = h;
    b.x = (bits & 0x7fff) == 0 ? std::uint16_t(0x8001) : (bits & 0x8000) ? std::uint16_t(bits + 1) : std::uint16_t(bits - 1);
    return std::max(static_cast<double>(static_cast<float>(b)),
                    static_cast<double>(static_cast<float>(H(static_cast<float>(low)))));
  };
  if (d == float16) return below16(c10::Half(static_cast<float>(high)));
  if (d == bfloat16) return below16(c10::BFloat16(static_cast<float>(high)));
  if (d == float32)
    return std::max(std::nextafter(static_cast<float>(high), -std::numeric_limits<float>::infinity()),
                    static_cast<float>(low));
  return std::max(std::nextafter(high, -std::numeric_limits<double>::infinity()), low);
}
// On the direct path a float32/float64 result is one pass over LibTorch's float64 draws
// (scale, shift, cap, rounding: the same operations in the same order, so the same values)
// instead of three or four passes and dispatcher calls. Undefined for other dtypes.
at::Tensor affine_draws(const at::Tensor& u, DType d, double scale, double shift, double top) {
  const double* p = u.data_ptr<double>();
  const std::int64_t n = u.numel();
  auto run = [&](auto* o) {
    for (std::int64_t i = 0; i < n; ++i) {
      const double v = p[i] * scale;
      const double w = v + shift;
      o[i] = static_cast<std::remove_pointer_t<decltype(o)>>(top < w ? top : w);  // NaN stays NaN, as clamp_max
    }
  };
  if (d == float64) {
    at::Tensor r = ::at::cpu::empty(u.sizes(), u.options());
    run(r.data_ptr<double>());
    return r;
  }
  if (d == float32) {
    at::Tensor r = ::at::cpu::empty(u.sizes(), u.options().dtype(at::kFloat));
    run(r.data_ptr<float>());
    return r;
  }
  return {};
}
RUN(random_uniform, {
  at::Tensor u = at::rand(ref(a.ints), at::TensorOptions().dtype(at::kDouble));
  const double top = uniform_top(a.s0.d, a.s1.d, spec[0].dtype);
  if (direct)
    if (at::Tensor r = affine_draws(u, spec[0].dtype, a.s1.d - a.s0.d, a.s0.d, top); r.defined()) {
      SET(std::move(r));
      return;
    }
  u.mul_(a.s1.d - a.s0.d).add_(a.s0.d).clamp_max_(top);
  SET_CAST(std::move(u));
})
RUN(random_normal, {
  auto z = at::randn(ref(a.ints), at::TensorOptions().dtype(at::kDouble));
  if (direct)
    if (at::Tensor r = affine_draws(z, spec[0].dtype, a.s1.d, a.s0.d, std::numeric_limits<double>::infinity());
        r.defined()) {
      SET(std::move(r));
      return;
    }
  SET_CAST(z.mul(a.s1.d).add(a.s0.d));
})
RUN(randint, SET_CAST(at::randint(a.s0.i, a.s1.i, ref(a.ints), at::TensorOptions().dtype(at::kLong))))
RUN(tril, SET(AT(tril, T(in[0]), a.i0)))
RUN(triu, SET(AT(triu, T(in[0]), a.i0)))
// A new array either way: the conversion already made one unless the storage type is
// unchanged (then clone).
RUN(astype, {
  const at::Tensor& x = T(in[0]);
  const DType d = spec[0].dtype;
  if (x.scalar_type() == st(d))  // same storage type: a copy, or the range wrap (also a new tensor)
    SET(widened(d) ? cast(x, d) : AT(clone, x));
  else  // what Tensor::to does for another dtype
    SET_CAST(AT(_to_copy, x, opts(d)));
})

// ---- manipulation
// at::reshape is a view (_reshape_alias) when the strides allow one, else a copy
RUN_VIEW(reshape, {
  const at::Tensor& x = T(in[0]);
  if (direct) {
    const at::DimVector shape(spec[0].shape.begin(), spec[0].shape.end());
    if (auto strides = at::detail::computeStride(x.sizes(), x.strides(), shape)) {
      SET(tracked_view(x, ::at::cpu::_reshape_alias(x, shape, *strides)));
      return;
    }
  }
  SET(x.reshape(ref(spec[0].shape)));
})
RUN_VIEW(permute_dims, SET(VIEW(permute, T(in[0]), ref(a.axes))))
RUN_VIEW(broadcast_to, SET(VIEW(expand, T(in[0]), ref(a.ints))))
// flip of a plain contiguous CPU tensor on the direct path: one strided copy that walks the
// flipped axes backwards (src/strided_copy.hpp, the xtensor backend's flip; rows of an
// unflipped last axis are memcpy'd): -30..-35 % against at::flip at 1e4 elements.
at::Tensor own_flip(const at::Tensor& x, const Dims& axes) {
  at::Tensor r = ::at::cpu::empty(x.sizes(), x.options());
  const Shape shape(std::span<const std::int64_t>(x.sizes().data(), x.sizes().size()));
  Dims st(std::span<const std::int64_t>(x.strides().data(), x.strides().size()));
  std::int64_t base = 0;
  for (std::int64_t d : axes) {
    if (shape[d] > 0) base += (shape[d] - 1) * st[d];
    st[d] = -st[d];
  }
  copyk::strided_copy(static_cast<unsigned char*>(r.data_ptr()), static_cast<const unsigned char*>(x.data_ptr()), shape,
                      st, base, static_cast<std::size_t>(x.element_size()));
  return r;
}
RUN(flip, {
  const at::Tensor& x = T(in[0]);
  if (direct && x.device().is_cpu() && x.is_contiguous() && !x.is_neg() && !x.is_conj() && x.layout() == at::kStrided)
    SET(own_flip(x, a.axes));
  else
    SET(a.axes.empty() ? AT(clone, x) : AT(flip, x, ref(a.axes)));
})
// roll of a contiguous CPU tensor, flattened or along one axis, on the direct path: two
// memcpy's per row (copyk::roll_rows, the xtensor backend's), where LibTorch's roll
// gathers (4.1 us for 1e4 float32 elements against 0.9).
at::Tensor roll_copy(const at::Tensor& x, const Attrs& a) {
  if (!x.device().is_cpu() || !x.is_contiguous() || x.is_neg() || x.is_conj() || a.ints.size() != 1 || x.numel() == 0)
    return {};
  std::int64_t outer = 1, len = x.numel(), inner = 1;
  if (a.has_axes) {
    if (a.axes.size() != 1) return {};
    const std::int64_t ax = a.axes[0] < 0 ? a.axes[0] + x.dim() : a.axes[0];
    len = x.size(ax);
    for (std::int64_t d = 0; d < x.dim(); ++d)
      if (d < ax) outer *= x.size(d);
      else if (d > ax) inner *= x.size(d);
  }
  const std::int64_t s = copyk::roll_shift(a.ints[0], len);
  at::Tensor r = ::at::cpu::empty(x.sizes(), x.options());
  const auto sz = static_cast<std::size_t>(x.element_size());
  if (s == 0) std::memcpy(r.data_ptr(), x.data_ptr(), static_cast<std::size_t>(x.numel()) * sz);
  else copyk::roll_rows(static_cast<const unsigned char*>(x.data_ptr()), static_cast<unsigned char*>(r.data_ptr()), outer,
                        len, inner, s, sz);
  return r;
}
RUN(roll, {
  if (direct)
    if (at::Tensor r = roll_copy(T(in[0]), a); r.defined()) {
      SET(std::move(r));
      return;
    }
  SET(AT(roll, T(in[0]), ref(a.ints), ref(a.axes)));
})
RUN(repeat, {
  at::Tensor x = a.has_axes ? T(in[0]) : T(in[0]).reshape({-1});
  if (x.dim() == 0) x = x.reshape({1});
  int64_t axis = a.has_axes ? a.i0 : 0;
  at::Tensor r = a.ints.size() == 1 ? at::repeat_interleave(x, a.ints[0], axis)
                                    : at::repeat_interleave(x, at::tensor(ref(a.ints), at::kLong), axis);
  SET(std::move(r));
})
// at::tile is repeat with the counts padded by leading 1s to the input's rank
RUN(tile, {
  const at::Tensor& x = T(in[0]);
  c10::SmallVector<int64_t, 8> reps(a.ints.begin(), a.ints.end());
  if (static_cast<int64_t>(reps.size()) < x.dim()) reps.insert(reps.begin(), x.dim() - static_cast<int64_t>(reps.size()), 1);
  SET(direct ? ::ivy::torch_cpu_first::repeat(x, reps) : x.repeat(reps));
})
RUN(concat, {
  c10::SmallVector<at::Tensor, 8> ts;  // inline for up to 8 inputs (no heap list)
  ts.reserve(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) ts.push_back(*in_as(in[i], spec[0].dtype));
  SET(at::cat(at::TensorList(ts.data(), ts.size()), a.i0));
})

// ---- indexing
// Apply one normalized slice per axis; negative steps select ascending then flip.
at::Tensor slice_view(at::Tensor t, const Attrs& a, std::vector<int64_t>* flipped) {
  for (int64_t d = 0; d < t.dim(); ++d) {
    int64_t b = a.ints[d], e = a.ints2[d], s = a.ints3[d];
    if (s > 0) {
      t = t.slice(d, b, std::max(b, e), s);
    } else {
      int64_t len = slice_length(b, e, s);
      if (len == 0) {
        t = t.slice(d, 0, 0);
      } else {
        t = t.slice(d, b - (len - 1) * (-s), b + 1, -s);
        flipped->push_back(d);
      }
    }
  }
  return t;
}
RUN_VIEW(strided_slice, {
  std::vector<int64_t> fl;
  at::Tensor v = slice_view(T(in[0]), a, &fl);
  SET(fl.empty() ? v : at::flip(v, fl));
})
RUN(slice_update, {
  at::Tensor r = T(in[0]).clone();
  std::vector<int64_t> fl;
  at::Tensor v = slice_view(r, a, &fl);
  at::Tensor val = in_as(in[1], spec[0].dtype)->expand(v.sizes());
  if (!fl.empty()) val = at::flip(val, fl);
  v.copy_(val);
  SET(std::move(r));
})
at::Tensor norm_index(const at::Tensor& idx, int64_t n) {
  at::Tensor i = idx.to(at::kLong);
  return at::where(i < 0, i + n, i);
}
RUN(take, {
  int64_t ax = a.i0;
  at::Tensor x = T(in[0]);
  at::Tensor idx = norm_index(T(in[1]), x.size(ax)).reshape({-1});
  SET(at::index_select(x, ax, idx).reshape(ref(spec[0].shape)));
})
RUN(take_along_axis, {
  int64_t ax = a.i0;
  const at::Tensor& x = T(in[0]);
  at::Tensor idx = norm_index(T(in[1]), x.size(ax)).expand(ref(spec[0].shape));
  Dims xs = spec[0].shape;  // no heap vectors for the expanded shapes
  xs[static_cast<std::size_t>(ax)] = x.size(ax);
  SET(at::gather(x.expand(ref(xs)), ax, idx));
})
RUN(index_put_flat, {
  at::Tensor r = T(in[0]).clone().reshape({-1});
  at::Tensor idx = norm_index(T(in[1]), r.numel());
  r.index_put_({idx}, in_as(in[2], spec[0].dtype)->expand(idx.sizes()));
  SET(r.reshape(ref(spec[0].shape)));
})

// ---- searching, sorting, sets
// A whole contiguous CPU tensor reduced by one pass of ivy's (src/row_kernels.hpp: the
// xtensor backend's row loops) into a 0-d tensor, on the direct path: argmax/argmin (real
// dtypes) and all/any (LibTorch: 12 us for 1e4 float32 as eq + sum + eq, ivy's ~1.5 us).
// Undefined where the tensor does not qualify.
// (shape: the result's, of one element)
enum class Whole { argmax, argmin, all, any, max, min };
at::Tensor whole_reduce(const at::Tensor& x, Whole which, at::IntArrayRef shape) {
  const bool arg = which == Whole::argmax || which == Whole::argmin;
  if (!x.device().is_cpu() || !x.is_contiguous() || x.is_neg() || (arg && (x.numel() == 0 || x.scalar_type() == at::kBool)))
    return {};
  at::Tensor r;
  const std::int64_t n = x.numel();
  if (which == Whole::max || which == Whole::min) {  // float32/64 (row_kernels.cpp's vector loops)
    if (n == 0 || (x.scalar_type() != at::kFloat && x.scalar_type() != at::kDouble)) return {};
    r = ::at::cpu::empty(shape, x.options());
    if (x.scalar_type() == at::kFloat)
      *r.data_ptr<float>() = rowk::extreme_fp(x.data_ptr<float>(), n, which == Whole::max);
    else
      *r.data_ptr<double>() = rowk::extreme_fp(x.data_ptr<double>(), n, which == Whole::max);
    return r;
  }
  const bool ok = ::ivy::torch::visit_bool_loop_types(x.scalar_type(), [&](auto tag) {
    using T = decltype(tag);
    const T* p = x.data_ptr<T>();
    if (arg) {
      r = ::at::cpu::empty(shape, x.options().dtype(at::kLong));
      *r.data_ptr<std::int64_t>() = which == Whole::argmax ? rowk::arg_extreme<true>(p, n) : rowk::arg_extreme<false>(p, n);
    } else {
      r = ::at::cpu::empty(shape, x.options().dtype(at::kBool));
      *r.data_ptr<bool>() = which == Whole::all ? rowk::all_any<true>(p, n) : rowk::all_any<false>(p, n);
    }
  });
  return ok ? r : at::Tensor();
}
at::Tensor arg_reduce(const at::Tensor& x, const Attrs& a, bool is_max, const OutSpec& spec, bool direct) {
  at::Tensor r;
  if (direct && (!a.has_axes || x.dim() <= 1))
    if (at::Tensor w = whole_reduce(x, is_max ? Whole::argmax : Whole::argmin, ref(spec.shape)); w.defined()) return w;
  if (a.has_axes && x.dim() > 0) r = is_max ? at::argmax(x, a.i0, a.b0) : at::argmin(x, a.i0, a.b0);
  else r = (is_max ? at::argmax(x.reshape({-1})) : at::argmin(x.reshape({-1})));
  return r.reshape(ref(spec.shape));
}
RUN(argmax, SET(arg_reduce(T(in[0]), a, true, spec[0], direct)))
RUN(argmin, SET(arg_reduce(T(in[0]), a, false, spec[0], direct)))
KERNEL(nonzero) {
  (void)a;
  (void)n;
  guarded("nonzero", in, n, [&] {
    // (count, ndim) row-major: a 1-d input's single column already is contiguous (one
    // view); otherwise one (ndim, count) copy whose rows are the outputs
    at::Tensor nz = at::nonzero(T(in[0]));
    if (nz.size(1) == 1) {
      out[0] = make(nz.select(1, 0), int64);
      return;
    }
    nz = nz.t().contiguous();
    for (int64_t i = 0; i < nz.size(0); ++i) out[i] = make(nz.select(0, i), int64);
  });
}
// where of a contiguous bool CPU condition and two contiguous CPU operands of its shape and
// the result's dtype (1-8 byte elements): ivy's select loop, on the direct path (LibTorch's
// at::where: a TensorIterator, 10.5 us for 1e4 float32 elements against 1.2).
at::Tensor select_loop(const at::Tensor& c, const at::Tensor& x1, const at::Tensor& x2) {
  auto plain = [&](const at::Tensor& t) {
    return t.device().is_cpu() && t.is_contiguous() && !t.is_neg() && !t.is_conj() && t.sizes() == c.sizes();
  };
  if (c.scalar_type() != at::kBool || x1.scalar_type() != x2.scalar_type() || !plain(c) || !plain(x1) || !plain(x2))
    return {};
  at::Tensor r = ::at::cpu::empty(c.sizes(), x1.options());
  const auto* cp = static_cast<const unsigned char*>(c.data_ptr());
  const std::int64_t n = r.numel();
  auto run = [&](auto e) {
    using E = decltype(e);
    loops::select_best(static_cast<E*>(r.data_ptr()), cp, static_cast<const E*>(x1.data_ptr()),
                       static_cast<const E*>(x2.data_ptr()), n);
  };
  switch (x1.element_size()) {
    case 1: run(std::uint8_t{}); break;
    case 2: run(std::uint16_t{}); break;
    case 4: run(std::uint32_t{}); break;
    case 8: run(std::uint64_t{}); break;
    default: return {};
  }
  return r;
}
RUN(where, {
  const auto x1 = in_as(in[1], spec[0].dtype), x2 = in_as(in[2], spec[0].dtype);
  if (direct)
    if (at::Tensor r = select_loop(T(in[0]), *x1, *x2); r.defined()) {
      SET(std::move(r));
      return;
    }
  SET(AT(where, T(in[0]), *x1, *x2));
})
// NumPy's order puts NaN after +inf; LibTorch's binary search compares with `<`, for which
// NaN is unordered (sorted [1, 2, inf, nan, nan]: torch gives 5 for a NaN on the left and
// for inf on the right, NumPy 3). When the sorted values hold NaN, they are searched with
// NaN read as +inf, capped at the number k of non-NaN values (every non-NaN value's answer
// is at most k), and a NaN value gets k (left) or the length (right).
at::Tensor np_searchsorted(const at::Tensor& s, const at::Tensor& v, bool right) {
  at::Tensor r = at::searchsorted(s, v, false, right);
  if (!s.is_floating_point() || !::ivy::torch::has_nan(s)) return r;
  const at::Tensor nan_s = at::isnan(s);
  const at::Tensor k = at::logical_not(nan_s).sum();
  r = at::minimum(at::searchsorted(at::where(nan_s, INFINITY, s), v, false, right), k);
  return at::where(at::isnan(v), right ? at::full({}, s.numel(), r.options()) : k.to(r.scalar_type()), r);
}
// On the direct path, real CPU operands: ivy's branch-free binary search (src/sort_kernels.hpp,
// the xtensor backend's; NumPy's NaN order directly): 1e4 values in 1e4 float32 elements take
// 0.17 ms where LibTorch's search takes 0.75.
at::Tensor search_loop(const at::Tensor& s, const at::Tensor& v, bool right) {
  if (!s.device().is_cpu() || !v.device().is_cpu() || s.dim() != 1 || s.is_neg() || v.is_neg()) return {};
  at::Tensor r;
  auto run = [&](auto tag) {
    using V = decltype(tag);
    r = ::at::cpu::empty(v.sizes(), v.options().dtype(at::kLong));
    sortk::search_sorted(s.data_ptr<V>(), s.numel(), v.data_ptr<V>(), v.numel(), right, r.data_ptr<std::int64_t>());
  };
  if (!::ivy::torch::visit_real_loop_types(s.scalar_type(), run)) return {};
  return r;
}
RUN(searchsorted, {
  DType c = result_type(in[0].dtype(), in[1].dtype());
  const at::Tensor s = in_as(in[0], c)->contiguous(), v = in_as(in[1], c)->contiguous();
  if (direct)
    if (at::Tensor r = search_loop(s, v, a.b0); r.defined()) {
      SET(std::move(r));
      return;
    }
  SET(np_searchsorted(s, v, a.b0));
})
std::tuple<at::Tensor, at::Tensor> do_sort(const at::Tensor& x, const Attrs& a) {
  // Stable sort, in either direction, keeps equal elements in their original order.
  return at::sort(x, true, a.i0, a.b0);
}
// sort/argsort along the last axis of a contiguous real CPU tensor whose rows are long enough
// for ivy's radix sort (src/sort_kernels.hpp; the xtensor backend's) or short enough for its
// insertion sort on the same keys, on the direct path: the same stable order as LibTorch's
// (NaN above +inf, -0 and +0 equal), in linear time for long rows, and for short ones
// without LibTorch's sort setup (one element: ~2 us).
at::Tensor radix_sort_rows(const at::Tensor& x, const Attrs& a, bool want_values) {
  if (!x.device().is_cpu() || !x.is_contiguous() || x.is_neg() || x.dim() == 0) return {};
  const std::int64_t axis = a.i0 < 0 ? a.i0 + x.dim() : a.i0;
  const std::int64_t len = x.size(-1);
  const bool radix = sortk::by_radix(len), short_row = len >= 1 && len <= sortk::kShortRow;
  if (axis != x.dim() - 1 || !(radix || short_row)) return {};
  at::Tensor r;
  auto run = [&](auto tag) {
    using V = decltype(tag);
    r = ::at::cpu::empty(x.sizes(), want_values ? x.options() : x.options().dtype(at::kLong));
    if (radix) sortk::radix_rows(x.data_ptr<V>(), x.numel() / len, len, a.b0, want_values, r.data_ptr());
    else sortk::short_rows(x.data_ptr<V>(), x.numel() / len, len, a.b0, want_values, r.data_ptr());
  };
  if (!::ivy::torch::visit_real_loop_types(x.scalar_type(), run)) return {};
  return r;
}
RUN(sort, {
  if (direct)
    if (at::Tensor r = radix_sort_rows(T(in[0]), a, true); r.defined()) {
      SET(std::move(r));
      return;
    }
  SET(std::get<0>(do_sort(T(in[0]), a)));
})
RUN(argsort, {
  if (direct)
    if (at::Tensor r = radix_sort_rows(T(in[0]), a, false); r.defined()) {
      SET(std::move(r));
      return;
    }
  SET(std::get<1>(do_sort(T(in[0]), a)));
})
KERNEL(unique) {
  (void)a;
  (void)n;
  guarded("unique", in, n, [&](bool direct) {
    // on the direct path, a contiguous real CPU array long enough for ivy's radix sort (src/sort_kernels.hpp, the
    // xtensor backend's): one sort and one pass for all four outputs, 0.11 ms for 1e4 float32
    // elements where LibTorch's unique, its stable sort of the inverse and the gathers
    // below take 1.1 ms
    const at::Tensor& x = T(in[0]);
    if (direct && x.device().is_cpu() && x.is_contiguous() && !x.is_neg() && sortk::by_radix(x.numel())) {
      auto run = [&](auto tag) {
        using V = decltype(tag);
        sortk::unique_radix(x.data_ptr<V>(), x.numel(), [&](std::int64_t U) {
          at::Tensor vals = ::at::cpu::empty({U}, x.options()), first = ::at::cpu::empty({U}, x.options().dtype(at::kLong)),
                     inv = ::at::cpu::empty(x.sizes(), x.options().dtype(at::kLong)),
                     cnt = ::at::cpu::empty({U}, x.options().dtype(at::kLong));
          auto ptrs = std::tuple(vals.data_ptr<V>(), first.data_ptr<std::int64_t>(), inv.data_ptr<std::int64_t>(),
                                 cnt.data_ptr<std::int64_t>());
          out[0] = make(std::move(vals), in[0].dtype());
          out[1] = make(std::move(first), int64);
          out[2] = make(inv.reshape(ref(spec[2].shape)), int64);
          out[3] = make(std::move(cnt), int64);
          return ptrs;
        });
      };
      if (::ivy::torch::visit_real_loop_types(x.scalar_type(), run)) return;
    }
    at::Tensor flat = T(in[0]).reshape({-1});
    auto [vals, inv, counts] = at::_unique2(flat, true, true, true);
    int64_t N = flat.numel();
    // first occurrence: a stable sort of the inverse indices groups equal values in their
    // original order, so each group's head is its smallest index
    at::Tensor first = at::empty({vals.size(0)}, at::TensorOptions().dtype(at::kLong));
    if (N > 0) {
      at::Tensor perm = std::get<1>(at::sort(inv.reshape({-1}), true, 0, false));
      at::Tensor starts = at::cumsum(counts, 0) - counts;
      first = perm.index_select(0, starts);
    }
    out[0] = make(std::move(vals), in[0].dtype());
    out[1] = make(std::move(first), int64);
    out[2] = make(inv.reshape(ref(spec[2].shape)), int64);
    out[3] = make(std::move(counts), int64);
  });
}
// On the direct path, real CPU operands: ivy's isin (src/sort_kernels.hpp, the xtensor
// backend's: a vectorized scan for up to 32 test values, else binary search in a sorted
// copy), 14 us for 1e4 float32 elements in 1e4 where LibTorch's isin takes 173.
at::Tensor isin_loop(const at::Tensor& x, const at::Tensor& t, bool invert) {
  if (!x.device().is_cpu() || !t.device().is_cpu() || x.is_neg() || t.is_neg()) return {};
  at::Tensor r;
  auto run = [&](auto tag) {
    using V = decltype(tag);
    r = ::at::cpu::empty(x.sizes(), x.options().dtype(at::kBool));
    sortk::isin(x.data_ptr<V>(), x.numel(), t.data_ptr<V>(), t.numel(), r.data_ptr<bool>(), invert);
  };
  if (!::ivy::torch::visit_real_loop_types(x.scalar_type(), run)) return {};
  return r;
}
RUN(isin, {
  DType c = result_type(in[0].dtype(), in[1].dtype());
  if (direct && c != float16 && c != bfloat16) {
    const at::Tensor x = in_as(in[0], c)->contiguous(), t = in_as(in[1], c)->contiguous();
    if (at::Tensor r = isin_loop(x, t, a.b0); r.defined()) {
      SET(std::move(r));
      return;
    }
  }
  if (c == float16 || c == bfloat16) c = float32;  // no half isin kernel in LibTorch 1.13 (exact upcast)
  SET(at::isin(*in_as(in[0], c), *in_as(in[1], c), false, a.b0));
})

// ---- reductions
// The reduced axes, without a heap allocation (pass as ref(red_dims(...)) in one expression).
Dims red_dims(const Array& x, const Attrs& a) {
  if (a.has_axes) return a.axes;
  Dims d;
  d.resize(static_cast<std::size_t>(x.ndim()));
  for (std::size_t i = 0; i < d.size(); ++i) d[i] = static_cast<int64_t>(i);
  return d;
}
// The same axes as a view for a LibTorch call in the same expression (no copy).
constexpr auto kIota = [] {
  std::array<int64_t, kMaxRank> v{};
  for (int i = 0; i < kMaxRank; ++i) v[static_cast<std::size_t>(i)] = i;
  return v;
}();
c10::IntArrayRef red_ref(const Array& x, const Attrs& a) {
  if (a.has_axes) return ref(a.axes);
  return c10::IntArrayRef(kIota.data(), static_cast<std::size_t>(x.ndim()));
}
bool no_reduction(const Array& x, const Attrs& a) { return (a.has_axes && a.axes.empty()) || x.ndim() == 0; }
// (whole_reduce: a full reduction of a contiguous tensor on the direct path)
bool whole(const Array& x, const Attrs& a) { return !a.has_axes || static_cast<std::int64_t>(a.axes.size()) == x.ndim(); }
// The sum (or mean) of a whole contiguous float32/float64 CPU tensor on the direct path, by
// ivy's pairwise loop (rowk::sum_fp, the xtensor backend's): 0.3 us for 1e4 float32 elements
// where LibTorch's sum takes 1.2 us and its mean 3 (a sum and a dispatched division). The
// mean divides by the count in the dtype, as LibTorch's does. Undefined where the tensor
// does not qualify.
at::Tensor whole_sum(const at::Tensor& x, bool mean, at::IntArrayRef shape) {
  const std::int64_t n = x.numel();
  if (n == 0 || !x.device().is_cpu() || !x.is_contiguous() || x.is_neg()) return {};
  if (x.scalar_type() == at::kFloat) {
    at::Tensor r = ::at::cpu::empty(shape, x.options());
    const float s = rowk::sum_fp(x.data_ptr<float>(), n);
    *r.data_ptr<float>() = mean ? s / static_cast<float>(n) : s;
    return r;
  }
  if (x.scalar_type() == at::kDouble) {
    at::Tensor r = ::at::cpu::empty(shape, x.options());
    const double s = rowk::sum_fp(x.data_ptr<double>(), n);
    *r.data_ptr<double>() = mean ? s / static_cast<double>(n) : s;
    return r;
  }
  return {};
}
RUN(sum, {
  In xi = in_as(in[0], spec[0].dtype);
  const at::Tensor& x = *xi;
  if (direct && whole(in[0], a) && in[0].ndim() > 0)
    if (at::Tensor w = whole_sum(x, false, ref(spec[0].shape)); w.defined()) {
      SET(std::move(w));
      return;
    }
  SET(no_reduction(in[0], a) ? AT(clone, x) : wrap_unsigned(AT(sum, x, red_ref(in[0], a), a.b0), spec[0].dtype));
})
// float16/bfloat16 accumulate in float32 where LibTorch 1.13 has no half kernel (prod,
// cumsum, cumprod, sqrt), rounded back to the requested dtype by make().
DType half_up(DType d) { return d == float16 || d == bfloat16 ? float32 : d; }
RUN(prod, {
  at::Tensor x = *in_as(in[0], half_up(spec[0].dtype));
  if (!no_reduction(in[0], a)) {
    auto dims = red_dims(in[0], a);
    std::sort(dims.begin(), dims.end(), std::greater<>());
    for (auto d : dims) x = AT(prod, x, d, a.b0);
  }
  SET(wrap_unsigned(AT(clone, x), spec[0].dtype));
})
RUN(mean, {
  In xi = in_as(in[0], spec[0].dtype);
  const at::Tensor& x = *xi;
  if (direct && whole(in[0], a) && in[0].ndim() > 0)
    if (at::Tensor w = whole_sum(x, true, ref(spec[0].shape)); w.defined()) {
      SET(std::move(w));
      return;
    }
  SET(no_reduction(in[0], a) ? AT(clone, x) : AT(mean, x, red_ref(in[0], a), a.b0));
})
// (a whole contiguous float32/64 tensor on the direct path: whole_reduce, 0.4 us for 1e4
// float32 elements against LibTorch's amax 1.35, amin 2.07)
#define MINMAX(name, which, at_fn)                                                                           \
  RUN(name, {                                                                                                \
    if (direct && whole(in[0], a) && in[0].ndim() > 0)                                                       \
      if (at::Tensor w = whole_reduce(T(in[0]), which, ref(spec[0].shape)); w.defined()) {                   \
        SET(std::move(w));                                                                                   \
        return;                                                                                              \
      }                                                                                                      \
    SET(no_reduction(in[0], a) ? AT(clone, T(in[0])) : AT(at_fn, T(in[0]), red_ref(in[0], a), a.b0));        \
  })
MINMAX(max, Whole::max, amax)
MINMAX(min, Whole::min, amin)
#undef MINMAX
at::Tensor variance(const Array& xin, const Attrs& a, DType out) {
  at::Tensor x = *in_as(xin, is_complex(xin.dtype()) ? xin.dtype() : out);
  if (no_reduction(xin, a))  // every element is its own sample of size 1
    return at::div(at::zeros(x.sizes(), at::TensorOptions().dtype(st(out))), 1.0 - a.f0);
  auto dims = red_dims(xin, a);
  int64_t count = 1;
  for (auto d : dims) count *= x.size(d);
  at::Tensor m = at::mean(x, ref(dims), true);
  at::Tensor dev = at::abs(x - m);
  at::Tensor s = at::sum(dev * dev, ref(dims), a.b0);
  return at::div(s, static_cast<double>(count) - a.f0).to(st(out));
}
RUN(var, SET(variance(in[0], a, spec[0].dtype)))
RUN(std, SET(at::sqrt(variance(in[0], a, half_up(spec[0].dtype)))))
RUN(all, {
  if (direct && whole(in[0], a) && in[0].ndim() > 0)
    if (at::Tensor w = whole_reduce(T(in[0]), Whole::all, ref(spec[0].shape)); w.defined()) {
      SET(std::move(w));
      return;
    }
  at::Tensor z = at::eq(T(in[0]), 0);
  SET(no_reduction(in[0], a) ? at::logical_not(z) : at::eq(at::sum(z.to(at::kLong), red_ref(in[0], a), a.b0), 0));
})
RUN(any, {
  if (direct && whole(in[0], a) && in[0].ndim() > 0)
    if (at::Tensor w = whole_reduce(T(in[0]), Whole::any, ref(spec[0].shape)); w.defined()) {
      SET(std::move(w));
      return;
    }
  at::Tensor z = at::ne(T(in[0]), 0);
  SET(no_reduction(in[0], a) ? z : at::gt(at::sum(z.to(at::kLong), red_ref(in[0], a), a.b0), 0));
})
at::Tensor cumulative(const Array& xin, const Attrs& a, DType d, bool is_sum) {
  at::Tensor x = *in_as(xin, half_up(d));
  if (x.dim() == 0) x = x.reshape({1});
  int64_t ax = xin.ndim() ? a.i0 : 0;
  at::Tensor r = is_sum ? at::cumsum(x, ax) : at::cumprod(x, ax);
  if (a.b1) {
    auto s = x.sizes().vec();
    s[ax] = 1;
    r = at::cat({at::full(s, is_sum ? 0 : 1, x.options()), r}, ax);
  }
  return wrap_unsigned(std::move(r), d);
}
RUN(cumulative_sum, SET(cumulative(in[0], a, spec[0].dtype, true)))
RUN(cumulative_prod, SET(cumulative(in[0], a, spec[0].dtype, false)))

// ---- linear algebra
RUN(matmul, {
  DType d = spec[0].dtype;
  In i1 = in_as(in[0], d), i2 = in_as(in[1], d);
  const at::Tensor &x1 = *i1, &x2 = *i2;
  at::Tensor r;
  if (d == bool_ || is_integer(d)) {
    // LibTorch's CPU matmul lacks integer paths for some shapes: compute in int64.
    r = wrap_unsigned(at::matmul(x1.to(at::kLong), x2.to(at::kLong)), d);
    r = cast(r, d);
  } else if (direct && x1.dim() == 2 && x2.dim() == 2) {
    r = ::ivy::torch_cpu_first::mm(x1, x2);  // what at::matmul calls for two matrices
  } else {
    r = at::matmul(x1, x2);
  }
  SET(std::move(r));
})
RUN_VIEW(diagonal, SET(VIEW(diagonal, T(in[0]), a.i0, -2, -1)))
RUN(cholesky, SET(at::linalg_cholesky(T(in[0]), a.b0)))
// On the direct path the CPU kernels the composites linalg_det and linalg_slogdet call (see
// eigh below): the same tensors, the LU factors they also return dropped.
RUN(det, SET(direct ? std::get<0>(::at::cpu::_linalg_det(T(in[0]))) : at::linalg_det(T(in[0]))))
KERNEL(slogdet) {
  (void)a;
  (void)n;
  guarded("slogdet", in, n, [&](bool direct) {
    if (direct) {
      auto [s, l, lu, piv] = ::at::cpu::_linalg_slogdet(T(in[0]));
      out[0] = make(std::move(s), spec[0].dtype);
      out[1] = make(std::move(l), spec[1].dtype);
      return;
    }
    auto [s, l] = at::linalg_slogdet(T(in[0]));
    out[0] = make(std::move(s), spec[0].dtype);
    out[1] = make(std::move(l), spec[1].dtype);
  });
}
RUN(inv, SET(at::linalg_inv(T(in[0]))))
RUN(solve, {
  DType d = spec[0].dtype;
  In ia = in_as(in[0], d), ib = in_as(in[1], d);
  const at::Tensor &A = *ia, &Bm = *ib;
  if (Bm.dim() == 1) {
    SET(at::linalg_solve(A, Bm.unsqueeze(-1)).squeeze(-1));
  } else if (A.sizes().slice(0, A.dim() - 2) == Bm.sizes().slice(0, Bm.dim() - 2)) {
    SET(at::linalg_solve(A, Bm));  // batch dims already equal: no expanded views
  } else {
    const Shape& s = spec[0].shape;
    Shape as = s;
    as[as.size() - 1] = A.size(-1);
    SET(at::linalg_solve(A.expand(ref(as)), Bm.expand(ref(s))));
  }
})
// The decompositions whose LibTorch function is a composite over a CPU kernel (linalg_eigh
// over _linalg_eigh, linalg_svd over _linalg_svd, ...) call that kernel straight on the direct
// path: the call the composite makes for a plain CPU tensor (compute_v / compute_uv false for
// the values-only functions, as for a tensor that needs no gradient), without two dispatcher
// passes (~20 ns each) through code a 1x1 decomposition has long evicted from the L1i.
KERNEL(eigh) {
  (void)a;
  (void)n;
  guarded("eigh", in, n, [&](bool direct) {
    auto [w, v] = direct ? ::at::cpu::_linalg_eigh(T(in[0]), "L", true) : at::linalg_eigh(T(in[0]), "L");
    out[0] = make(std::move(w), spec[0].dtype);
    out[1] = make(std::move(v), spec[1].dtype);
  });
}
RUN(eigvalsh, SET(direct ? std::get<0>(::at::cpu::_linalg_eigh(T(in[0]), "L", false)) : at::linalg_eigvalsh(T(in[0]), "L")))
// eig, eigvals (and qr below) on the direct path: LAPACK called as LibTorch's CPU kernels call
// it, without the tensor work LibTorch wraps around it (~140k instructions for a 1 x 1 eig;
// torch_lapack.cpp).
KERNEL(eig) {
  (void)a;
  (void)n;
  guarded("eig", in, n, [&](bool direct) {
    at::Tensor w, v;
    if (direct && torch_lapack::serves(T(in[0]))) torch_lapack::eig("eig", T(in[0]), true, w, v);
    else std::tie(w, v) = at::linalg_eig(T(in[0]));
    out[0] = make(std::move(w), spec[0].dtype);
    out[1] = make(std::move(v), spec[1].dtype);
  });
}
KERNEL(eigvals) {
  (void)a;
  (void)n;
  guarded("eigvals", in, n, [&](bool direct) {
    at::Tensor w, none;
    if (direct && torch_lapack::serves(T(in[0]))) torch_lapack::eig("eigvals", T(in[0]), false, w, none);
    else w = at::linalg_eigvals(T(in[0]));
    out[0] = make(std::move(w), spec[0].dtype);
  });
}
KERNEL(svd) {
  (void)n;
  guarded("svd", in, n, [&](bool direct) {
    auto [u, s, vh] = direct ? ::at::cpu::_linalg_svd(T(in[0]), a.b0, true) : at::linalg_svd(T(in[0]), a.b0);
    out[0] = make(std::move(u), spec[0].dtype);
    out[1] = make(std::move(s), spec[1].dtype);
    out[2] = make(std::move(vh), spec[2].dtype);
  });
}
RUN(svdvals, SET(direct ? std::get<1>(::at::cpu::_linalg_svd(T(in[0]), false, false)) : at::linalg_svdvals(T(in[0]))))
KERNEL(qr) {
  (void)n;
  guarded("qr", in, n, [&](bool direct) {
    at::Tensor q, r;
    if (direct && torch_lapack::serves(T(in[0])) && T(in[0]).numel() > 0) torch_lapack::qr(T(in[0]), a.b0, q, r);
    else std::tie(q, r) = at::linalg_qr(T(in[0]), a.b0 ? "complete" : "reduced");
    out[0] = make(std::move(q), spec[0].dtype);
    out[1] = make(std::move(r), spec[1].dtype);
  });
}

// ---- fft
const char* norm_name(int64_t i) { return i == 1 ? "ortho" : i == 2 ? "forward" : "backward"; }
RUN(fft_c2c, {
  In xi = in_as(in[0], spec[0].dtype);
  const at::Tensor& x = *xi;
  SET(a.b0 ? at::fft_ifftn(x, ref(a.ints), ref(a.axes), norm_name(a.i0))
           : at::fft_fftn(x, ref(a.ints), ref(a.axes), norm_name(a.i0)));
})
RUN(fft_r2c, SET(at::fft_rfftn(*in_as(in[0], real_of(spec[0].dtype)), ref(a.ints), ref(a.axes), norm_name(a.i0))))
RUN(fft_c2r, SET(at::fft_irfftn(*in_as(in[0], complex_of(spec[0].dtype)), ref(a.ints), ref(a.axes), norm_name(a.i0))))

// ---- host services
Array from_host(const void* data, const Shape& shape, DType d, Device dev) {
  if (dev.kind != Device::cpu && !at::hasCUDA())
    throw ValueError("[asarray] device " + dev.str() + " is not available on backend torch (LibTorch built without CUDA)");
  auto sizes = vec(shape);
  at::Tensor t;
  int64_t n = shape.numel();
  if (d == uint16) {
    auto src = static_cast<const uint16_t*>(data);
    t = at::empty(sizes, at::kInt);
    auto* p = t.data_ptr<int32_t>();
    for (int64_t i = 0; i < n; ++i) p[i] = src[i];
  } else if (d == uint32) {
    auto src = static_cast<const uint32_t*>(data);
    t = at::empty(sizes, at::kLong);
    auto* p = t.data_ptr<int64_t>();
    for (int64_t i = 0; i < n; ++i) p[i] = src[i];
  } else {
    t = at::empty(sizes, opts(d));
    if (n) std::memcpy(t.data_ptr(), data, static_cast<size_t>(n) * itemsize(d));
  }
  if (dev.kind == Device::cuda) t = t.to(at::Device(at::kCUDA, dev.index));
  return make(std::move(t), d);
}
void to_host(const Array& x, void* dst) {
  at::Tensor t = T(x).cpu().contiguous();
  int64_t n = t.numel();
  if (x.dtype() == uint16) {
    auto* p = t.data_ptr<int32_t>();
    auto* o = static_cast<uint16_t*>(dst);
    for (int64_t i = 0; i < n; ++i) o[i] = static_cast<uint16_t>(p[i]);
  } else if (x.dtype() == uint32) {
    auto* p = t.data_ptr<int64_t>();
    auto* o = static_cast<uint32_t*>(dst);
    for (int64_t i = 0; i < n; ++i) o[i] = static_cast<uint32_t>(p[i]);
  } else if (n) {
    std::memcpy(dst, t.data_ptr(), static_cast<size_t>(n) * itemsize(x.dtype()));
  }
}
void* data_ptr(const Array& x) {
  const at::Tensor& t = T(x);
  if (widened(x.dtype()) || !t.is_contiguous() || t.is_cuda() || t.is_conj() || t.is_neg()) return nullptr;
  return t.data_ptr();
}
Array wrap(void* data, const Shape& shape, DType d, std::shared_ptr<void> owner) {
  if (widened(d)) {
    return from_host(data, shape, d, Device{});
  }
  auto* keep = new std::shared_ptr<void>(std::move(owner));
  at::Tensor t = at::from_blob(
      data, vec(shape), [keep](void*) { delete keep; }, opts(d));
  return make(std::move(t), d);
}
void seed(uint64_t s) {
  auto gen = at::detail::getDefaultCPUGenerator();
  std::lock_guard<std::mutex> lock(gen.mutex());
  gen.set_current_seed(s);
}
std::vector<Device> devices() {
  std::vector<Device> d{Device{}};
  if (at::hasCUDA()) d.push_back(Device{Device::cuda, 0});
  return d;
}

const Unsupported kUnsupported[] = {
    {nullptr, uint64, "LibTorch 1.13 has no uint64 dtype and int64 storage cannot hold its range"},
    {"nextafter", float16, "LibTorch 1.13 has no float16 nextafter kernel on CPU"},
    {"nextafter", bfloat16, "LibTorch 1.13 has no bfloat16 nextafter kernel on CPU"},
};

BackendImpl make_backend() {
  BackendImpl b;
  b.name = "torch";
#define IVY_OP(name, nin, nout, meta, kinds) b.kernels[static_cast<int>(OpId::name)] = &k_##name;
#include "ivy/ops.def"
#undef IVY_OP
  b.unsupported = kUnsupported;
  b.from_host = &from_host;
  b.to_host = &to_host;
  b.data_ptr = &data_ptr;
  b.wrap = &wrap;
  b.seed = &seed;
  b.devices = &devices;
  finalize_backend(b);
  return b;
}
BackendImpl kTorch = make_backend();

}  // namespace

void register_torch_backend() { register_backend(&kTorch); }

namespace torch {
Array wrap(const at::Tensor& t) {
  register_torch_backend();
  return make(t, from_st(t.scalar_type()));
}
at::Tensor unwrap(const Array& a) {
  if (a.impl()->backend != &kTorch)
    throw ValueError(std::string("[torch::unwrap] array lives on backend ") + a.backend().name() + ", not torch");
  return T(a);
}
}  // namespace torch

}  // namespace ivy

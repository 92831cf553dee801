// The torch backend's direct path (see Path in torch_common.hpp): for plain dense CPU tensors
// outside LibTorch's autograd, kernels call LibTorch's CPU kernels without its dispatcher
// (namespace cpu_first), and ivy's own loops where LibTorch's kernels compute something other
// than NumPy, or take a slower route to the same values (torch_direct.cpp). The scans that
// check LibTorch's results against NumPy's rules (has_nan, ...) are declared here too: the
// native namespace (ns_ops.inc) uses them on every path.
#pragma once

#include <ATen/ATen.h>
#include <ATen/CPUFunctions.h>
#include <ATen/CompositeExplicitAutogradFunctions.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <type_traits>

#include "cpu_loops.hpp"
#include "npy_kernels.hpp"

// Where LibTorch exports its CPU kernel of a function (at::cpu::, what its dispatcher ends up
// calling for a dense CPU tensor once the autograd and autocast layers are passed), the
// kernels' direct path calls it straight; everything else is looked up in at:: as usual.
// (Qualified lookup finds these using-declarations first; the using-directive supplies the
// rest.)
namespace ivy::torch_backend::cpu_first {
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
// through a TensorIterator). Tensors with a negative or conjugate bit (whose copy resolves it)
// and other layouts take LibTorch's.
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
  cpu::loops::fill_best(r.data_ptr<T>(), r.numel(), v.to<T>());
}
inline at::Tensor full(at::IntArrayRef size, const at::Scalar& v, at::TensorOptions o) {
  if (o.device().is_cpu() && o.layout() == at::kStrided) {
    auto filled = [&](auto tag) {
      at::Tensor r = ::at::cpu::empty(size, o);
      fill_value<decltype(tag)>(r, v);
      return r;
    };
    switch (c10::typeMetaToScalarType(o.dtype())) {
      case at::kFloat: return filled(float{});
      case at::kDouble: return filled(double{});
      case at::kLong: return filled(std::int64_t{});
      case at::kInt: return filled(std::int32_t{});
      case at::kShort: return filled(std::int16_t{});
      case at::kChar: return filled(std::int8_t{});
      case at::kByte: return filled(std::uint8_t{});
      case at::kBool: return filled(bool{});
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
}  // namespace ivy::torch_backend::cpu_first

namespace ivy::torch_backend {

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

// ---- scans of LibTorch's results and operands (one pass over contiguous float32/64 or
// integer CPU data, else LibTorch's own operations)
// Whether a floating tensor has a NaN / an infinity / a value that is not a normal number
// (zero, subnormal, infinite or NaN).
bool has_nan(const at::Tensor& t);
bool has_inf(const at::Tensor& t);
bool has_not_normal(const at::Tensor& t);
// The smallest normal number of a floating dtype (bfloat16 has float32's exponent range).
inline double min_normal(at::ScalarType t) {
  if (t == at::kDouble) return std::numeric_limits<double>::min();
  if (t == at::kHalf) return 0x1p-14;
  return std::numeric_limits<float>::min();
}
// Whether any shift count of c is negative or `bits` or more (true where c does not qualify
// for the one-pass check: the caller then treats every count as possibly out of range).
bool shift_counts_out_of_range(const at::Tensor& c, std::int64_t bits);
// Whether any of n floats (U: float or double) at x is a zero or a NaN.
template <class U>
bool any_zero_or_nan(const void* x, std::int64_t n);
// r[i] = +-0 with b[i]'s sign (b[0]'s when scalar_b) where r[i] is a zero, on the bit patterns
// of n floats (U: uint32 for float32, uint64 for float64).
template <class U>
void zero_signs(void* r, const void* b, std::int64_t n, bool scalar_b);

// ---- ivy's loops for the direct path. Each returns an undefined tensor where its operands
// do not qualify: plain CPU tensors that are contiguous, of one dtype, and either of the same
// sizes (OneElement::neither) or one of them a single element with no more dimensions than
// the other (OneElement::second: b, OneElement::first: a), so that the result has the other's
// sizes.
// The loops' operands for a and b (above), or nothing where they do not qualify.
std::optional<cpu::loops::OneElement> loop_operands(const at::Tensor& a, const at::Tensor& b);
// Comparisons and the logical functions: one vectorized pass into a bool tensor, where
// LibTorch's kernels go through a TensorIterator that casts to bool.
at::Tensor compare_loop(cpu::npy::Cmp op, const at::Tensor& a, const at::Tensor& b);
// isnan, isinf, isfinite, signbit, logical_not of a contiguous CPU tensor, the same way.
at::Tensor predicate_loop(cpu::npy::Pred op, const at::Tensor& x);
// negative, square, floor, ceil, trunc, round, reciprocal of a contiguous float32/64 CPU tensor
// by one loop of ivy's (cpu::npy::exact_n: the same values as LibTorch's kernels, whose results
// are exact or x * x), where that loop is vectorized: without LibTorch's TensorIterator.
at::Tensor exact_loop(cpu::npy::Exact op, const at::Tensor& x);
// add, subtract, multiply, divide, maximum and minimum of two tensors of one real dtype
// (cpu::npy::arith_n: the values LibTorch's kernels give, bit for bit, but for maximum and
// minimum NaN's bits and the scalar tail's choice between -0 and +0, where it is NumPy's rule
// as in every lane and on the xtensor backend): one vectorized loop without the setup of
// LibTorch's TensorIterator. bool (LibTorch's add is a logical or there) and integer divide
// (a float result) are left to LibTorch.
at::Tensor arithmetic_loop(cpu::npy::Arith op, const at::Tensor& a, const at::Tensor& b);
// NumPy's loops (backends/cpu/npy_kernels.hpp, the xtensor backend's): one pass computes
// NumPy's result where LibTorch's kernel gives another for some inputs and needs a pass that
// checks for them after it (np_floor_divide and the others in ns_ops.inc), or, for copysign,
// runs at two speeds (ns_ops.inc). float32 pow and hypot go to ivy's loops computed in float64
// (backends/cpu/vec_math.hpp), correctly rounded, where AVX-512 (pow) or AVX2 (hypot) runs
// them faster than LibTorch's kernels.
enum class NumpyOp { floor_divide, remainder, copysign, left_shift, right_shift, pow, hypot };
at::Tensor numpy_loop(NumpyOp op, const at::Tensor& a, const at::Tensor& b);
// A whole contiguous CPU tensor reduced by one pass of ivy's (backends/cpu/row_kernels.hpp:
// the xtensor backend's row loops) into a tensor of one element of the given shape (the
// result's): argmax/argmin (real dtypes; int64), all/any (bool; one pass where LibTorch takes
// eq, sum and eq) and max/min (float32/64). Undefined where the tensor does not qualify.
enum class Whole { argmax, argmin, all, any, max, min };
at::Tensor whole_reduce(const at::Tensor& x, Whole which, at::IntArrayRef shape);
// NumPy's sign of a contiguous real CPU tensor (cpu::npy::sign_n), where LibTorch's sign keeps
// NaN only with a where(isnan) around it: three passes.
inline at::Tensor sign_loop(const at::Tensor& x) {
  if (!x.device().is_cpu() || !x.is_contiguous() || x.is_neg() || x.scalar_type() == at::kBool) return {};
  at::Tensor r;
  const bool ok = visit_bool_loop_types(x.scalar_type(), [&](auto tag) {
    using T = decltype(tag);
    if constexpr (!std::is_same_v<T, bool>) {
      r = ::at::cpu::empty(x.sizes(), x.options());
      cpu::npy::sign_n(r.data_ptr<T>(), x.data_ptr<T>(), r.numel());
    }
  });
  return ok ? r : at::Tensor();
}

}  // namespace ivy::torch_backend

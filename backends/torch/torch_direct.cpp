// The torch backend's direct path: ivy's loops over LibTorch's tensors (torch_direct.hpp says
// where each is used), and the scans that check LibTorch's results against NumPy's rules.
#include "torch_direct.hpp"

#include <cmath>
#include <cstring>
#include <limits>

#include "cpu_isa.hpp"
#include "row_kernels.hpp"
#include "vec_math.hpp"

namespace ivy::torch_backend {

// The passes below over LibTorch's results and operands are compiled for the baseline ISA
// and for AVX2 (backends/cpu/cpu_isa.hpp): NAME_body is the loop, NAME picks the build at run
// time.
#if IVY_AVX2
#define ISA_PASS(ret, name, params, args)                                                 \
  template <class U>                                                                      \
  [[gnu::noinline]] ret name##_base params { return name##_body<U> args; }                \
  template <class U>                                                                      \
  [[gnu::noinline]] IVY_AVX2_FN ret name##_avx2 params { return name##_body<U> args; }    \
  template <class U>                                                                      \
  ret name params { return ::ivy::cpu::isa::kAvx2 ? name##_avx2<U> args : name##_base<U> args; }
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
// the fresh result in the common case, where it only writes when a zero occurred).
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
template void zero_signs<std::uint32_t>(void*, const void*, std::int64_t, bool);
template void zero_signs<std::uint64_t>(void*, const void*, std::int64_t, bool);

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
[[gnu::always_inline]] inline bool any_zero_or_nan_body(const void* x, std::int64_t n) {
  return any_float<U>(x, n, [](U v) { return !(std::fabs(v) > U(0)); });
}
ISA_PASS(bool, any_zero_or_nan, (const void* x, std::int64_t n), (x, n))
template bool any_zero_or_nan<float>(const void*, std::int64_t);
template bool any_zero_or_nan<double>(const void*, std::int64_t);

namespace {
template <class U>
[[gnu::always_inline]] inline bool any_nan_body(const void* x, std::int64_t n) {
  return any_float<U>(x, n, [](U v) { return v != v; });
}
ISA_PASS(bool, any_nan, (const void* x, std::int64_t n), (x, n))
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
}  // namespace
#undef ISA_PASS

bool has_nan(const at::Tensor& t) {
  if (t.device().is_cpu() && t.is_contiguous() && !t.is_neg()) {
    if (t.scalar_type() == at::kFloat) return any_nan<float>(t.data_ptr(), t.numel());
    if (t.scalar_type() == at::kDouble) return any_nan<double>(t.data_ptr(), t.numel());
  }
  return at::isnan(t).any().item<bool>();
}
bool has_inf(const at::Tensor& t) {
  if (t.device().is_cpu() && t.is_contiguous() && !t.is_neg()) {
    if (t.scalar_type() == at::kFloat) return any_inf<float>(t.data_ptr(), t.numel());
    if (t.scalar_type() == at::kDouble) return any_inf<double>(t.data_ptr(), t.numel());
  }
  return at::isinf(t).any().item<bool>();
}
bool has_not_normal(const at::Tensor& t) {
  if (t.device().is_cpu() && t.is_contiguous() && !t.is_neg()) {
    if (t.scalar_type() == at::kFloat) return any_not_normal<float>(t.data_ptr(), t.numel());
    if (t.scalar_type() == at::kDouble) return any_not_normal<double>(t.data_ptr(), t.numel());
  }
  const at::Tensor m = at::abs(t);
  return at::logical_not(at::logical_and(at::ge(m, min_normal(t.scalar_type())), at::lt(m, INFINITY))).any().item<bool>();
}
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

using cpu::loops::OneElement;
std::optional<OneElement> loop_operands(const at::Tensor& a, const at::Tensor& b) {
  if (b.scalar_type() != a.scalar_type() || !a.device().is_cpu() || !b.device().is_cpu() || !a.is_contiguous() ||
      !b.is_contiguous() || a.is_neg() || b.is_neg())
    return std::nullopt;
  if (a.sizes() == b.sizes()) return OneElement::neither;
  if (b.numel() == 1 && b.dim() <= a.dim()) return OneElement::second;
  if (a.numel() == 1 && a.dim() <= b.dim()) return OneElement::first;
  return std::nullopt;
}
at::Tensor compare_loop(cpu::npy::Cmp op, const at::Tensor& a, const at::Tensor& b) {
  const std::optional<OneElement> which = loop_operands(a, b);
  if (!which) return {};
  const at::Tensor& full = *which == OneElement::first ? b : a;
  at::Tensor r;
  const bool ok = visit_bool_loop_types(a.scalar_type(), [&](auto tag) {
    using T = decltype(tag);
    r = ::at::cpu::empty(full.sizes(), full.options().dtype(at::kBool));
    cpu::npy::compare_n(op, r.data_ptr<bool>(), a.data_ptr<T>(), b.data_ptr<T>(), r.numel(), *which);
  });
  return ok ? r : at::Tensor();
}
at::Tensor predicate_loop(cpu::npy::Pred op, const at::Tensor& x) {
  if (!x.device().is_cpu() || !x.is_contiguous() || x.is_neg()) return {};
  at::Tensor r;
  const bool ok = visit_bool_loop_types(x.scalar_type(), [&](auto tag) {
    using T = decltype(tag);
    r = ::at::cpu::empty(x.sizes(), x.options().dtype(at::kBool));
    cpu::npy::predicate_n(op, r.data_ptr<bool>(), x.data_ptr<T>(), r.numel());
  });
  return ok ? r : at::Tensor();
}
at::Tensor exact_loop(cpu::npy::Exact op, const at::Tensor& x) {
  const auto ty = x.scalar_type();
  if ((ty != at::kFloat && ty != at::kDouble) || !x.device().is_cpu() || !x.is_contiguous() || x.is_neg() ||
      !cpu::npy::exact_fast(op))
    return {};
  at::Tensor r = ::at::cpu::empty(x.sizes(), x.options());
  if (ty == at::kFloat) cpu::npy::exact_n(op, r.data_ptr<float>(), x.data_ptr<float>(), r.numel());
  else cpu::npy::exact_n(op, r.data_ptr<double>(), x.data_ptr<double>(), r.numel());
  return r;
}
at::Tensor arithmetic_loop(cpu::npy::Arith op, const at::Tensor& a, const at::Tensor& b) {
  const std::optional<OneElement> which = loop_operands(a, b);
  if (!which || (op == cpu::npy::Arith::divide && !a.is_floating_point())) return {};
  const at::Tensor& full = *which == OneElement::first ? b : a;
  at::Tensor r;
  visit_real_loop_types(a.scalar_type(), [&](auto tag) {
    using T = decltype(tag);
    r = ::at::cpu::empty(full.sizes(), full.options());
    cpu::npy::arith_n(op, r.data_ptr<T>(), a.data_ptr<T>(), b.data_ptr<T>(), r.numel(), *which);
  });
  return r;
}
at::Tensor numpy_loop(NumpyOp op, const at::Tensor& a, const at::Tensor& b) {
  const auto ty = a.scalar_type();
  if (op == NumpyOp::pow && (ty != at::kFloat || !cpu::isa::kAvx512)) return {};
  if (op == NumpyOp::hypot && (ty != at::kFloat || !cpu::isa::kAvx2)) return {};
  const std::optional<OneElement> found = loop_operands(a, b);
  if (!found) return {};
  const OneElement which = *found;
  const at::Tensor& full = which == OneElement::first ? b : a;
  auto run = [&](auto tag) {
    using T = decltype(tag);
    at::Tensor r = ::at::cpu::empty(full.sizes(), full.options());
    T* o = r.data_ptr<T>();
    const T* p = a.data_ptr<T>();
    const T* q = b.data_ptr<T>();
    const std::int64_t n = r.numel();
    if constexpr (std::is_floating_point_v<T>) {
      if (op == NumpyOp::floor_divide) cpu::npy::floor_divide_n(o, p, q, n, which);
      else if (op == NumpyOp::remainder) cpu::npy::remainder_n(o, p, q, n, which);
      else if (op == NumpyOp::copysign) cpu::npy::copysign_n(o, p, q, n, which);
      else if constexpr (std::is_same_v<T, float>) {
        if (op == NumpyOp::pow) cpu::vmath::pow_n(o, p, q, n, which);
        else cpu::vmath::hypot_n(o, p, q, n, which);
      }
    } else {
      if (op == NumpyOp::left_shift) cpu::npy::left_shift_n(o, p, q, n, which);
      else cpu::npy::right_shift_n(o, p, q, n, which);
    }
    return r;
  };
  const bool floating = op != NumpyOp::left_shift && op != NumpyOp::right_shift;
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

at::Tensor whole_reduce(const at::Tensor& x, Whole which, at::IntArrayRef shape) {
  const bool arg = which == Whole::argmax || which == Whole::argmin;
  if (!x.device().is_cpu() || !x.is_contiguous() || x.is_neg() ||
      (arg && (x.numel() == 0 || x.scalar_type() == at::kBool)))
    return {};
  at::Tensor r;
  const std::int64_t n = x.numel();
  if (which == Whole::max || which == Whole::min) {  // float32/64 (row_kernels.cpp's vector loops)
    if (n == 0 || (x.scalar_type() != at::kFloat && x.scalar_type() != at::kDouble)) return {};
    r = ::at::cpu::empty(shape, x.options());
    if (x.scalar_type() == at::kFloat)
      *r.data_ptr<float>() = cpu::rows::extreme_fp(x.data_ptr<float>(), n, which == Whole::max);
    else
      *r.data_ptr<double>() = cpu::rows::extreme_fp(x.data_ptr<double>(), n, which == Whole::max);
    return r;
  }
  const bool ok = visit_bool_loop_types(x.scalar_type(), [&](auto tag) {
    using T = decltype(tag);
    const T* p = x.data_ptr<T>();
    if (arg) {
      r = ::at::cpu::empty(shape, x.options().dtype(at::kLong));
      *r.data_ptr<std::int64_t>() =
          which == Whole::argmax ? cpu::rows::arg_extreme<true>(p, n) : cpu::rows::arg_extreme<false>(p, n);
    } else {
      r = ::at::cpu::empty(shape, x.options().dtype(at::kBool));
      *r.data_ptr<bool>() = which == Whole::all ? cpu::rows::all_any<true>(p, n) : cpu::rows::all_any<false>(p, n);
    }
  });
  return ok ? r : at::Tensor();
}

}  // namespace ivy::torch_backend

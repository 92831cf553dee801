// backends/cpu (namespace ivy::cpu, library ivy_cpu): ivy's own CPU kernels, shared by both
// backends. They run on plain contiguous buffers (an xtensor-backend array's, or a CPU
// at::Tensor's data) and call no array library. The xtensor backend's elementwise functions,
// reductions, sorts, copies and fills run on them; the torch backend uses them mostly on its
// direct path (plain CPU tensors), where LibTorch's kernel is slower or gives another result
// than NumPy's. What is where:
//   cpu_loops.hpp       loops applying one scalar functor (this file), OneElement
//   npy_scalar.hpp,     NumPy's scalar definitions; loops for floor_divide, remainder,
//   npy_kernels.*       copysign, shifts, comparisons, predicates, sign, the exact functions
//                       (negative, floor, ...) and arithmetic
//   vec_math.*          float32 transcendental functions (log1p and exp in float32, the others,
//                       pow, logaddexp, hypot and atan2 among them, in float64)
//   row_kernels.*       reductions of one row: all/any, argmax/argmin, max/min, float sums
//   sort_kernels.hpp    radix and insertion sorts of rows, searchsorted, unique, isin
//   strided_copy.*      strided gathers, roll and concat by row copies
//   complex_special.hpp complex functions with the standard's special values (over libm)
//   handle_cache.hpp    per-thread free lists for result handles and buffers
//   cpu_isa.*           CPU detection (kAvx2, kAvx512) and the ISA target attributes
// Every ISA build of a loop gives the same bits (cpu_isa.hpp).
//
// This file: plain loops over contiguous data applying one scalar functor, compiled where
// they are instantiated, for the build's ISA and (each*_avx2) for AVX2, chosen by the caller
// with cpu::isa::kAvx2 (cpu_isa.hpp), or by the *_best forms.
#pragma once

#include <cstdint>

#include "cpu_isa.hpp"

namespace ivy::cpu::loops {

// The operands of a binary loop over n elements: both full (n contiguous elements each), or
// one of them a single element that every i reads (the only broadcast these loops do).
enum class OneElement : std::uint8_t {
  neither,  // a = p[i], b = q[i]
  second,   // b = q[0] for every i
  first,    // a = p[0] for every i
};

// Unary: o[i] = f(p[i]).
template <class U, class T, class F>
[[gnu::always_inline]] inline void each1(U* __restrict o, const T* __restrict p, std::int64_t n, const F& f) {
  for (std::int64_t i = 0; i < n; ++i) o[i] = f(p[i]);
}
// Binary: o[i] = f(a, b, flag), a and b as `which` says. `flag` starts at 0 and is
// returned: functors whose defined result differs from the plain computation for some
// inputs note those in it.
template <class Flag, class U, class T, class F>
[[gnu::always_inline]] inline Flag each2(U* __restrict o, const T* p, const T* q, std::int64_t n, OneElement which,
                                         const F& f) {
  Flag flag = 0;
  if (which == OneElement::neither) {
    for (std::int64_t i = 0; i < n; ++i) o[i] = f(p[i], q[i], flag);
  } else if (which == OneElement::second) {
    const T b = q[0];
    for (std::int64_t i = 0; i < n; ++i) o[i] = f(p[i], b, flag);
  } else {
    const T a = p[0];
    for (std::int64_t i = 0; i < n; ++i) o[i] = f(a, q[i], flag);
  }
  return flag;
}
#if IVY_AVX2
template <class U, class T, class F>
IVY_AVX2_FN void each1_avx2(U* __restrict o, const T* __restrict p, std::int64_t n, const F& f) {
  each1(o, p, n, f);
}
template <class Flag, class U, class T, class F>
IVY_AVX2_FN Flag each2_avx2(U* __restrict o, const T* p, const T* q, std::int64_t n, OneElement which, const F& f) {
  return each2<Flag>(o, p, q, n, which, f);
}
#endif
// o[i] = v for n elements of a trivially copyable T (the same loop, in 32-byte stores where
// AVX2 builds it: twice the store rate of the baseline's 16-byte stores).
template <class T>
[[gnu::always_inline]] inline void fill(T* __restrict o, std::int64_t n, T v) {
  for (std::int64_t i = 0; i < n; ++i) o[i] = v;
}
#if IVY_AVX2
template <class T>
IVY_AVX2_FN void fill_avx2(T* __restrict o, std::int64_t n, T v) {
  fill(o, n, v);
}
#endif
template <class T>
void fill_best(T* __restrict o, std::int64_t n, T v) {
#if IVY_AVX2
  if (cpu::isa::kAvx2) return fill_avx2(o, n, v);
#endif
  fill(o, n, v);
}
// o[i] = T(s0 + i * step) computed in float64 and rounded once (arange's and linspace's
// values, as NumPy's): an int32 counter where n fits, as int32 -> float64 converts in vector
// lanes (int64 -> float64 needs AVX-512); AVX2 without FMA, so the same roundings.
template <class T, class I>
[[gnu::always_inline]] inline void affine(T* __restrict o, I n, double s0, double step) {
  for (I i = 0; i < n; ++i) o[i] = static_cast<T>(s0 + static_cast<double>(i) * step);
}
#if IVY_AVX2
template <class T, class I>
IVY_AVX2_FN void affine_avx2(T* __restrict o, I n, double s0, double step) {
  affine(o, n, s0, step);
}
#endif
template <class T>
void affine_best(T* __restrict o, std::int64_t n, double s0, double step) {
  if (n <= INT32_MAX) {
    const auto m = static_cast<std::int32_t>(n);
#if IVY_AVX2
    if (cpu::isa::kAvx2) return affine_avx2(o, m, s0, step);
#endif
    return affine(o, m, s0, step);
  }
  affine(o, n, s0, step);
}
// o[i] = c[i] ? a : b (c: bools as bytes) for a trivially copyable E, with a = p[i] and
// b = q[i], or p[0] / q[0] for the operand Which names. Both operands are read whatever the
// condition, so the select is a blend in vector lanes (reading only the chosen one would be a
// branch on the condition, mispredicted on random conditions).
template <class E, OneElement Which = OneElement::neither>
[[gnu::always_inline]] inline void select(E* __restrict o, const unsigned char* c, const E* p, const E* q,
                                          std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) {
    const E a = Which == OneElement::first ? p[0] : p[i], b = Which == OneElement::second ? q[0] : q[i];
    o[i] = c[i] ? a : b;
  }
}
#if IVY_AVX2
template <class E, OneElement Which = OneElement::neither>
IVY_AVX2_FN void select_avx2(E* __restrict o, const unsigned char* c, const E* p, const E* q, std::int64_t n) {
  select<E, Which>(o, c, p, q, n);
}
#endif
template <class E, OneElement Which = OneElement::neither>
void select_best(E* __restrict o, const unsigned char* c, const E* p, const E* q, std::int64_t n) {
#if IVY_AVX2
  if (cpu::isa::kAvx2) return select_avx2<E, Which>(o, c, p, q, n);
#endif
  select<E, Which>(o, c, p, q, n);
}
// each1 and each2 in the AVX2 build where the CPU has it.
template <class U, class T, class F>
void each1_best(U* __restrict o, const T* __restrict p, std::int64_t n, const F& f) {
#if IVY_AVX2
  if (cpu::isa::kAvx2) return each1_avx2(o, p, n, f);
#endif
  each1(o, p, n, f);
}
#if IVY_AVX2
template <class Flag, class U, class T, class F>
IVY_AVX512VL_FN Flag each2_avx512(U* __restrict o, const T* p, const T* q, std::int64_t n, OneElement which,
                                  const F& f) {
  return each2<Flag>(o, p, q, n, which, f);
}
template <class Flag, class U, class T, class F>
IVY_AVX2_128_FN Flag each2_avx2_128(U* __restrict o, const T* p, const T* q, std::int64_t n, OneElement which,
                                    const F& f) {
  return each2<Flag>(o, p, q, n, which, f);
}
template <class Flag, class U, class T, class F>
IVY_AVX512VL_128_FN Flag each2_avx512_128(U* __restrict o, const T* p, const T* q, std::int64_t n, OneElement which,
                                          const F& f) {
  return each2<Flag>(o, p, q, n, which, f);
}
// Whether 32-byte vectors would split cache lines where it costs: the result off a 32-byte
// boundary, or both operands full (OneElement::neither) and both off it. Then every other 32-byte load (store) of
// that stream straddles two lines. Split stores, or split loads on both operands, cost more
// than the wider vectors save; split loads on one operand alone do not, so the 256-bit loop
// keeps that case. Buffers ivy allocates start on 64 bytes; views and wrapped buffers of
// other libraries (xtensor's and NumPy's align to 16) need not.
inline bool splits_lines(const void* o, const void* p, const void* q, OneElement which) {
  const auto off = [](const void* v) { return (reinterpret_cast<std::uintptr_t>(v) & 31) != 0; };
  return off(o) || (which == OneElement::neither && off(p) && off(q));
}
#endif
// Wide: for functors whose vector form is a select on a compare (maximum and minimum with
// their NaN rule), the AVX-512 build where the CPU has it, on 256-bit vectors. AVX-512
// selects through a mask register in one micro-op where AVX2's blend takes three. 256-bit
// rather than 512-bit vectors: the mask select is kept, and the loop does not depend on the
// CPU's 512-bit throughput, which differs between AVX-512 CPUs. Plain arithmetic has no
// select to gain from and stays on AVX2 (its AVX-512 loop gains nothing, and on inputs off
// a 64-byte boundary its loads split lines).
// Operands that would split lines (splits_lines) take the same instructions on 128-bit
// vectors, whose loads and stores never straddle lines on 16-byte-aligned data.
template <class Flag, bool Wide = false, class U, class T, class F>
Flag each2_best(U* __restrict o, const T* p, const T* q, std::int64_t n, OneElement which, const F& f) {
#if IVY_AVX2
  if (cpu::isa::kAvx2) {
    const bool split = n >= 64 && splits_lines(o, p, q, which);
    if constexpr (Wide) {
      if (cpu::isa::kAvx512)
        return split ? each2_avx512_128<Flag>(o, p, q, n, which, f) : each2_avx512<Flag>(o, p, q, n, which, f);
    }
    return split ? each2_avx2_128<Flag>(o, p, q, n, which, f) : each2_avx2<Flag>(o, p, q, n, which, f);
  }
#endif
  return each2<Flag>(o, p, q, n, which, f);
}

}  // namespace ivy::cpu::loops

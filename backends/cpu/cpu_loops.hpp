// Plain loops over contiguous data applying one scalar functor, for the backends' kernels
// of their own: compiled where they are instantiated, for the build's ISA and (each*_avx2)
// for AVX2, chosen by the caller with cpu::isa::kAvx2 (cpu_isa.hpp).
#pragma once

#include <cstdint>

#include "cpu_isa.hpp"

namespace ivy::cpu::loops {

// Unary: o[i] = f(p[i]).
template <class U, class T, class F>
[[gnu::always_inline]] inline void each1(U* __restrict o, const T* __restrict p, std::int64_t n, const F& f) {
  for (std::int64_t i = 0; i < n; ++i) o[i] = f(p[i]);
}
// Binary: o[i] = f(a, b, flag); mode 0: both operands full, 1: the second is one element,
// 2: the first is. `flag` starts at 0 and is returned: functors whose defined result
// differs from the plain computation for some inputs note those in it.
template <class Flag, class U, class T, class F>
[[gnu::always_inline]] inline Flag each2(U* __restrict o, const T* p, const T* q, std::int64_t n, int mode,
                                         const F& f) {
  Flag flag = 0;
  if (mode == 0) {
    for (std::int64_t i = 0; i < n; ++i) o[i] = f(p[i], q[i], flag);
  } else if (mode == 1) {
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
IVY_AVX2_FN Flag each2_avx2(U* __restrict o, const T* p, const T* q, std::int64_t n, int mode, const F& f) {
  return each2<Flag>(o, p, q, n, mode, f);
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
// o[i] = c[i] ? p[i] : q[i] (c: bools as bytes) for a trivially copyable E; with Mode 1, p
// is one value for every i (p[0]), with Mode 2 q is. Both operands are read whatever the
// condition, so the select is a blend in vector lanes (reading only the chosen one would be a
// branch on the condition, mispredicted on random conditions).
template <class E, int Mode = 0>
[[gnu::always_inline]] inline void select(E* __restrict o, const unsigned char* c, const E* p, const E* q,
                                          std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) {
    const E a = Mode == 1 ? p[0] : p[i], b = Mode == 2 ? q[0] : q[i];
    o[i] = c[i] ? a : b;
  }
}
#if IVY_AVX2
template <class E, int Mode = 0>
IVY_AVX2_FN void select_avx2(E* __restrict o, const unsigned char* c, const E* p, const E* q, std::int64_t n) {
  select<E, Mode>(o, c, p, q, n);
}
#endif
template <class E, int Mode = 0>
void select_best(E* __restrict o, const unsigned char* c, const E* p, const E* q, std::int64_t n) {
#if IVY_AVX2
  if (cpu::isa::kAvx2) return select_avx2<E, Mode>(o, c, p, q, n);
#endif
  select<E, Mode>(o, c, p, q, n);
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
IVY_AVX512VL_FN Flag each2_avx512(U* __restrict o, const T* p, const T* q, std::int64_t n, int mode, const F& f) {
  return each2<Flag>(o, p, q, n, mode, f);
}
template <class Flag, class U, class T, class F>
IVY_AVX2_128_FN Flag each2_avx2_128(U* __restrict o, const T* p, const T* q, std::int64_t n, int mode, const F& f) {
  return each2<Flag>(o, p, q, n, mode, f);
}
template <class Flag, class U, class T, class F>
IVY_AVX512VL_128_FN Flag each2_avx512_128(U* __restrict o, const T* p, const T* q, std::int64_t n, int mode,
                                          const F& f) {
  return each2<Flag>(o, p, q, n, mode, f);
}
// Whether 32-byte vectors would split cache lines where it costs: the result off a 32-byte
// boundary, or both full operands (mode 0) off it. Then every other 32-byte load (store) of
// that stream straddles two lines. Split stores, or split loads on both operands, cost more
// than the wider vectors save; split loads on one operand alone do not, so the 256-bit loop
// keeps that case. Buffers ivy allocates start on 64 bytes; views and wrapped buffers of
// other libraries (xtensor's and NumPy's align to 16) need not.
inline bool splits_lines(const void* o, const void* p, const void* q, int mode) {
  const auto off = [](const void* v) { return (reinterpret_cast<std::uintptr_t>(v) & 31) != 0; };
  return off(o) || (mode == 0 && off(p) && off(q));
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
Flag each2_best(U* __restrict o, const T* p, const T* q, std::int64_t n, int mode, const F& f) {
#if IVY_AVX2
  if (cpu::isa::kAvx2) {
    const bool split = n >= 64 && splits_lines(o, p, q, mode);
    if constexpr (Wide) {
      if (cpu::isa::kAvx512)
        return split ? each2_avx512_128<Flag>(o, p, q, n, mode, f) : each2_avx512<Flag>(o, p, q, n, mode, f);
    }
    return split ? each2_avx2_128<Flag>(o, p, q, n, mode, f) : each2_avx2<Flag>(o, p, q, n, mode, f);
  }
#endif
  return each2<Flag>(o, p, q, n, mode, f);
}

}  // namespace ivy::cpu::loops

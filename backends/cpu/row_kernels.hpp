// Reductions of one contiguous row, of ivy's own: the xtensor backend's max/min, all/any,
// argmax/argmin and float32/float64 sum/mean kernels run them on every row of a reduction,
// the torch backend's direct path on a whole contiguous CPU tensor, or its rows for sums and
// means (LibTorch's take 2-3 passes and dispatcher calls: all/any as eq + sum + eq). Templates compiled where they are used; the float32/float64 argmax/argmin
// and max/min in row_kernels.cpp.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace ivy::cpu::rows {

// all (IsAll) or any of r[0..len): a value is true where it is not zero (NaN is true).
// Branch-free counts over chunks (they vectorize), stopping after the deciding chunk.
template <bool IsAll, class T>
bool all_any(const T* r, std::int64_t len) {
  constexpr std::int64_t kChunk = 512;
  for (std::int64_t s = 0; s < len; s += kChunk) {
    const std::int64_t e = std::min(len, s + kChunk);
    std::int64_t c = 0;
    for (std::int64_t i = s; i < e; ++i) c += r[i] != T{};
    if (IsAll && c != e - s) return false;
    if (!IsAll && c) return true;
  }
  return IsAll;
}

// float32/float64 forms of arg_extreme and extreme (row_kernels.cpp): the same results,
// from an AVX2 build where the CPU has it (cpu::isa::kAvx2): a vector max/min with a NaN flag,
// then the first index holding that value; the scalar loops below compare one element at a
// time through a select chain.
std::int64_t arg_extreme_fp(const float* r, std::int64_t len, bool is_max);
std::int64_t arg_extreme_fp(const double* r, std::int64_t len, bool is_max);
float extreme_fp(const float* r, std::int64_t len, bool is_max);
double extreme_fp(const double* r, std::int64_t len, bool is_max);

// The sum of r[0..len) for float32/float64 (row_kernels.cpp), the same bits on every
// build: blocks of 1024 elements, each summed by 256 bytes of interleaved accumulators (64
// float or 32 double lanes, starting at -0, the identity of IEEE addition) combined
// pairwise, and the block sums combined pairwise (NumPy's scheme, with a larger block):
// the rounding error grows with the lanes' 16 or 32 additions per block and
// log2(len / 1024) rather than with len. The AVX2 build where the CPU has it (the same additions in wider
// vectors). Both backends' whole-array sum and mean of float32/float64 use it.
float sum_fp(const float* r, std::int64_t len);
double sum_fp(const double* r, std::int64_t len);
// o[i] = sum_fp(x + i * len, len) for each of `rows` contiguous rows (len >= 1), the same
// bits; rows of up to 16 elements by an unrolled tree per row (no call per row).
void sum_rows_fp(const float* x, std::int64_t rows, std::int64_t len, float* o);
void sum_rows_fp(const double* x, std::int64_t rows, std::int64_t len, double* o);

// The scalar forms, for every real T.
template <bool IsMax, class T>
std::int64_t arg_extreme_scalar(const T* r, std::int64_t len) {
  std::int64_t bi = 0;
  T best = r[0];
  bool nan = false;
  for (std::int64_t i = 1; i < len; ++i) {
    const T v = r[i];
    if constexpr (std::is_floating_point_v<T>) nan |= v != v;
    if (IsMax ? (v > best) : (v < best)) {
      best = v;
      bi = i;
    }
  }
  if constexpr (std::is_floating_point_v<T>)
    if (nan || best != best)
      for (std::int64_t i = 0; i < len; ++i)
        if (std::isnan(r[i])) return i;
  return bi;
}
// The maximum (IsMax) or minimum of r[0..len), len >= 1; NaN when there is one. Of equal
// values (0 and -0) the first.
template <bool IsMax, class T>
T extreme_scalar(const T* r, std::int64_t len) {
  T best = r[0];
  bool nan = false;
  for (std::int64_t i = 0; i < len; ++i) {  // branch-free; a NaN is reported at the end
    const T v = r[i];
    if constexpr (std::is_floating_point_v<T>) nan |= v != v;
    best = (IsMax ? (v > best) : (v < best)) ? v : best;
  }
  if constexpr (std::is_floating_point_v<T>)
    if (nan) return std::numeric_limits<T>::quiet_NaN();
  return best;
}

// Index of the first maximum (IsMax) or minimum of r[0..len), len >= 1, for a real T; the
// first NaN wins, as in NumPy.
template <bool IsMax, class T>
std::int64_t arg_extreme(const T* r, std::int64_t len) {
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) return arg_extreme_fp(r, len, IsMax);
  else return arg_extreme_scalar<IsMax>(r, len);
}
template <bool IsMax, class T>
T extreme(const T* r, std::int64_t len) {
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) return extreme_fp(r, len, IsMax);
  else return extreme_scalar<IsMax>(r, len);
}

}  // namespace ivy::cpu::rows

// float32/float64 argmax/argmin and max/min of one contiguous row (row_kernels.hpp). The
// scalar loops carry the best value from element to element (a compare and a select each,
// one dependent chain); here the AVX2 build keeps four vectors of running extremes with a NaN
// flag beside them (max/min ignore a NaN operand in the position we give them, the flag
// records it), then finds the first element equal to the extreme with vector compares.
// Results equal the scalar loops' bit for bit: the value found is the same; of values that
// compare equal (0 and -0) the first in the row is the one reported; a NaN anywhere gives NaN
// (max/min) or the index of the first NaN (argmax/argmin).
#include "row_kernels.hpp"

#include "cpu_isa.hpp"

#if IVY_AVX2
#include <immintrin.h>
#endif

namespace ivy::cpu::rows {
namespace {

// First i in [0, len) with r[i] == v (v is no NaN and occurs in r).
template <class T>
std::int64_t first_equal_scalar(const T* r, std::int64_t len, T v) {
  for (std::int64_t i = 0; i < len; ++i)
    if (r[i] == v) return i;
  return 0;
}
template <class T>
std::int64_t first_nan(const T* r, std::int64_t len) {
  for (std::int64_t i = 0; i < len; ++i)
    if (r[i] != r[i]) return i;
  return 0;
}

#if IVY_AVX2
// The vector operations for T (8 float or 4 double lanes).
template <class T> struct Vec;
template <> struct Vec<float> {
  using R = __m256;
  static constexpr int kW = 8;
  IVY_AVX2_FN static R load(const float* p) { return _mm256_loadu_ps(p); }
  IVY_AVX2_FN static R set1(float v) { return _mm256_set1_ps(v); }
  IVY_AVX2_FN static R zero() { return _mm256_setzero_ps(); }
  // max(v, acc): acc where v is NaN (MAXPS returns its second operand then)
  IVY_AVX2_FN static R vmax(R v, R acc) { return _mm256_max_ps(v, acc); }
  IVY_AVX2_FN static R vmin(R v, R acc) { return _mm256_min_ps(v, acc); }
  IVY_AVX2_FN static R unord(R a, R b) { return _mm256_cmp_ps(a, b, _CMP_UNORD_Q); }
  IVY_AVX2_FN static R eq(R a, R b) { return _mm256_cmp_ps(a, b, _CMP_EQ_OQ); }
  IVY_AVX2_FN static R bor(R a, R b) { return _mm256_or_ps(a, b); }
  IVY_AVX2_FN static int mask(R a) { return _mm256_movemask_ps(a); }
  IVY_AVX2_FN static void store(float* p, R a) { _mm256_storeu_ps(p, a); }
};
template <> struct Vec<double> {
  using R = __m256d;
  static constexpr int kW = 4;
  IVY_AVX2_FN static R load(const double* p) { return _mm256_loadu_pd(p); }
  IVY_AVX2_FN static R set1(double v) { return _mm256_set1_pd(v); }
  IVY_AVX2_FN static R zero() { return _mm256_setzero_pd(); }
  IVY_AVX2_FN static R vmax(R v, R acc) { return _mm256_max_pd(v, acc); }
  IVY_AVX2_FN static R vmin(R v, R acc) { return _mm256_min_pd(v, acc); }
  IVY_AVX2_FN static R unord(R a, R b) { return _mm256_cmp_pd(a, b, _CMP_UNORD_Q); }
  IVY_AVX2_FN static R eq(R a, R b) { return _mm256_cmp_pd(a, b, _CMP_EQ_OQ); }
  IVY_AVX2_FN static R bor(R a, R b) { return _mm256_or_pd(a, b); }
  IVY_AVX2_FN static int mask(R a) { return _mm256_movemask_pd(a); }
  IVY_AVX2_FN static void store(double* p, R a) { _mm256_storeu_pd(p, a); }
};

// The extreme of the non-NaN elements of r[0..len) (len >= 1) into *best; returns whether
// there is a NaN. (If every element is NaN, *best is NaN.)
template <bool IsMax, class T>
IVY_AVX2_FN inline typename Vec<T>::R op(typename Vec<T>::R v, typename Vec<T>::R acc) {
  if constexpr (IsMax) return Vec<T>::vmax(v, acc);
  else return Vec<T>::vmin(v, acc);
}
template <bool IsMax, class T>
IVY_AVX2_FN bool extreme_avx2(const T* r, std::int64_t len, T* best) {
  using V = Vec<T>;
  using R = typename V::R;
  constexpr std::int64_t W = V::kW;
  R a0 = V::set1(r[0]), a1 = a0, a2 = a0, a3 = a0, nan = V::zero();
  std::int64_t i = 0;
  for (; i + 4 * W <= len; i += 4 * W) {
    const R v0 = V::load(r + i), v1 = V::load(r + i + W), v2 = V::load(r + i + 2 * W), v3 = V::load(r + i + 3 * W);
    nan = V::bor(nan, V::bor(V::unord(v0, v1), V::unord(v2, v3)));
    a0 = op<IsMax, T>(v0, a0);
    a1 = op<IsMax, T>(v1, a1);
    a2 = op<IsMax, T>(v2, a2);
    a3 = op<IsMax, T>(v3, a3);
  }
  for (; i + W <= len; i += W) {
    const R v = V::load(r + i);
    nan = V::bor(nan, V::unord(v, v));
    a0 = op<IsMax, T>(v, a0);
  }
  a0 = op<IsMax, T>(a1, a0);
  a2 = op<IsMax, T>(a3, a2);
  a0 = op<IsMax, T>(a2, a0);
  alignas(32) T lane[W];
  V::store(lane, a0);
  T b = lane[0];
  bool has_nan = V::mask(nan) != 0;
  for (std::int64_t k = 1; k < W; ++k) b = (IsMax ? (lane[k] > b) : (lane[k] < b)) ? lane[k] : b;
  for (; i < len; ++i) {
    const T v = r[i];
    has_nan |= v != v;
    b = (IsMax ? (v > b) : (v < b)) ? v : b;
  }
  *best = b;
  return has_nan;
}
template <class T>
IVY_AVX2_FN std::int64_t first_equal_avx2(const T* r, std::int64_t len, T v) {
  using V = Vec<T>;
  constexpr std::int64_t W = V::kW;
  const typename V::R t = V::set1(v);
  std::int64_t i = 0;
  for (; i + W <= len; i += W)
    if (const int m = V::mask(V::eq(V::load(r + i), t))) return i + __builtin_ctz(static_cast<unsigned>(m));
  for (; i < len; ++i)
    if (r[i] == v) return i;
  return 0;
}
#endif

template <class T>
std::int64_t arg_impl(const T* r, std::int64_t len, bool is_max) {
#if IVY_AVX2
  if (cpu::isa::kAvx2 && len > 1) {
    T best;
    const bool nan = is_max ? extreme_avx2<true>(r, len, &best) : extreme_avx2<false>(r, len, &best);
    return nan ? first_nan(r, len) : first_equal_avx2(r, len, best);
  }
#endif
  return is_max ? arg_extreme_scalar<true>(r, len) : arg_extreme_scalar<false>(r, len);
}
template <class T>
T value_impl(const T* r, std::int64_t len, bool is_max) {
#if IVY_AVX2
  if (cpu::isa::kAvx2 && len > 1) {
    T best;
    const bool nan = is_max ? extreme_avx2<true>(r, len, &best) : extreme_avx2<false>(r, len, &best);
    if (nan) return std::numeric_limits<T>::quiet_NaN();
    // 0 and -0 compare equal: the first of them in the row, as the scalar loop keeps it
    return best == T(0) ? r[first_equal_avx2(r, len, best)] : best;
  }
#endif
  return is_max ? extreme_scalar<true>(r, len) : extreme_scalar<false>(r, len);
}

// ---- sum_fp (row_kernels.hpp)
constexpr std::int64_t kSumBlock = 1024;
template <class T>
[[gnu::always_inline]] inline T block_sum(const T* r, std::int64_t len) {  // len <= kSumBlock
  constexpr int L = 256 / sizeof(T);  // eight AVX2 vectors: independent chains of additions
  T acc[L];
  if (len < L) {  // the same bits: lanes past len hold -0 (x + -0 is x), so the tree starts at
                  // the power of two that covers len
    int p = 1;
    while (p < len) p *= 2;
    for (int k = 0; k < p; ++k) acc[k] = k < len ? r[k] : T(-0.0);
    for (int w = p / 2; w > 0; w /= 2)
      for (int k = 0; k < w; ++k) acc[k] += acc[k + w];
    return acc[0];
  }
  for (auto& v : acc) v = T(-0.0);
  std::int64_t i = 0;
  for (; i + L <= len; i += L)
    for (int k = 0; k < L; ++k) acc[k] += r[i + k];
  for (int k = 0; i < len; ++i, ++k) acc[k] += r[i];
  for (int w = L / 2; w > 0; w /= 2)
    for (int k = 0; k < w; ++k) acc[k] += acc[k + w];
  return acc[0];
}
// The split of len elements (more than one block) into two runs of whole blocks, halving
// the block count.
inline std::int64_t sum_split(std::int64_t len) { return (len / kSumBlock + 1) / 2 * kSumBlock; }
template <class T>
T sum_scalar(const T* r, std::int64_t len) {
  if (len <= kSumBlock) return block_sum(r, len);
  const std::int64_t h = sum_split(len);
  return sum_scalar(r, h) + sum_scalar(r + h, len - h);
}
#if IVY_AVX2
template <class T>
IVY_AVX2_FN T sum_avx2(const T* r, std::int64_t len) {
  if (len <= kSumBlock) return block_sum(r, len);
  const std::int64_t h = sum_split(len);
  return sum_avx2(r, h) + sum_avx2(r + h, len - h);
}
#endif
template <class T>
T sum_impl(const T* r, std::int64_t len) {
#if IVY_AVX2
  if (cpu::isa::kAvx2) return sum_avx2(r, len);
#endif
  return sum_scalar(r, len);
}

// Rows of len <= P (P a power of two, len > P / 2): block_sum's short tree, lanes past len -0.
template <int P, class T>
void short_rows(const T* x, std::int64_t rows, std::int64_t len, T* o) {
  for (std::int64_t i = 0; i < rows; ++i) {
    const T* r = x + i * len;
    T acc[P];
    for (int k = 0; k < P; ++k) acc[k] = k < len ? r[k] : T(-0.0);
    for (int w = P / 2; w > 0; w /= 2)
      for (int k = 0; k < w; ++k) acc[k] += acc[k + w];
    o[i] = acc[0];
  }
}
template <class T>
void sum_rows_impl(const T* x, std::int64_t rows, std::int64_t len, T* o) {
  switch (len) {
    case 1: return short_rows<1>(x, rows, len, o);
    case 2: return short_rows<2>(x, rows, len, o);
    case 3:
    case 4: return short_rows<4>(x, rows, len, o);
    case 5:
    case 6:
    case 7:
    case 8: return short_rows<8>(x, rows, len, o);
    default:
      if (len <= 16) return short_rows<16>(x, rows, len, o);
      for (std::int64_t i = 0; i < rows; ++i) o[i] = sum_impl(x + i * len, len);
  }
}

}  // namespace

void sum_rows_fp(const float* x, std::int64_t rows, std::int64_t len, float* o) { sum_rows_impl(x, rows, len, o); }
void sum_rows_fp(const double* x, std::int64_t rows, std::int64_t len, double* o) { sum_rows_impl(x, rows, len, o); }

std::int64_t arg_extreme_fp(const float* r, std::int64_t len, bool is_max) { return arg_impl(r, len, is_max); }
std::int64_t arg_extreme_fp(const double* r, std::int64_t len, bool is_max) { return arg_impl(r, len, is_max); }
float extreme_fp(const float* r, std::int64_t len, bool is_max) { return value_impl(r, len, is_max); }
double extreme_fp(const double* r, std::int64_t len, bool is_max) { return value_impl(r, len, is_max); }
float sum_fp(const float* r, std::int64_t len) { return sum_impl(r, len); }
double sum_fp(const double* r, std::int64_t len) { return sum_impl(r, len); }

}  // namespace ivy::cpu::rows

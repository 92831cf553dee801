// Radix sorting of contiguous rows, of ivy's own (header-only, compiled where used): the
// xtensor backend's sort/argsort/unique and the torch backend's direct path (LibTorch's CPU
// sort is a comparison sort, O(n log n) where radix is linear).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace ivy::cpu::sorting {

template <std::size_t N> struct uint_of;
template <> struct uint_of<1> { using type = std::uint8_t; };
template <> struct uint_of<2> { using type = std::uint16_t; };
template <> struct uint_of<4> { using type = std::uint32_t; };
template <> struct uint_of<8> { using type = std::uint64_t; };

// Longer rows sort by radix (linear time) instead of comparisons. LSD, one byte per pass,
// stable, on unsigned keys ordered as the standard's sort orders the values: integers with
// the sign bit flipped, floating values with their bits flipped so negatives come first,
// -0 keyed as +0 (equal to it: their input order stays) and every NaN above +inf (last, in
// input order). Descending sorts use the complemented keys (NaN first, as the reversed
// comparison puts it; equal values still in input order).
constexpr std::int64_t kRadixSort = 128;
template <class T> using key_t = typename uint_of<sizeof(T)>::type;
template <class T>
key_t<T> sort_key(T v, bool descending) {
  using K = key_t<T>;
  K k;
  if constexpr (std::is_floating_point_v<T>) {
    constexpr K sign = static_cast<K>(K(1) << (sizeof(K) * 8 - 1));
    if (std::isnan(v)) {
      k = static_cast<K>(~K(0));
    } else {
      const T w = v == 0 ? T(0) : v;
      K b;
      std::memcpy(&b, &w, sizeof b);
      k = (b & sign) ? static_cast<K>(~b) : static_cast<K>(b | sign);
    }
  } else if constexpr (std::is_signed_v<T>) {
    k = static_cast<K>(static_cast<K>(v) ^ static_cast<K>(K(1) << (sizeof(K) * 8 - 1)));
  } else {
    k = static_cast<K>(v);
  }
  return descending ? static_cast<K>(~k) : k;
}
// Whether rows of `len` elements sort by radix (its counts are 32-bit).
inline bool by_radix(std::int64_t len) { return len > kRadixSort && len < (std::int64_t(1) << 32); }
// Scratch for radix-sorting n (key, payload) pairs, in one allocation: keys and payloads,
// each twice (the passes alternate between the two copies).
template <class K, class V>
struct RadixBuf {
  static constexpr std::size_t kAlign = alignof(std::max_align_t);
  static std::size_t key_bytes(std::int64_t n) { return (static_cast<std::size_t>(2 * n) * sizeof(K) + kAlign - 1) / kAlign * kAlign; }
  explicit RadixBuf(std::int64_t n)
      : mem(static_cast<unsigned char*>(::operator new(key_bytes(n) + static_cast<std::size_t>(2 * n) * sizeof(V)))),
        k(reinterpret_cast<K*>(mem.get())),
        v(reinterpret_cast<V*>(mem.get() + key_bytes(n))),
        n_(n) {}
  K* key_tmp() const { return k + n_; }
  V* val_tmp() const { return v + n_; }
  struct Free {
    void operator()(unsigned char* p) const { ::operator delete(p); }
  };
  std::unique_ptr<unsigned char, Free> mem;
  K* k;
  V* v;
  std::int64_t n_;
};
// Sorts the n (key, payload) pairs in (k, v) stably by key, using (kt, vt) as scratch; returns
// the buffer that holds the sorted payloads (v or vt). Passes whose byte is the same for
// every key are skipped.
template <class K, class V>
V* radix_sort(std::int64_t n, K* k, V* v, K* kt, V* vt) {
  if (n <= 1) return v;
  constexpr int kBytes = sizeof(K);
  std::uint32_t count[kBytes][256] = {};
  for (std::int64_t i = 0; i < n; ++i)
    for (int b = 0; b < kBytes; ++b) ++count[b][(k[i] >> (8 * b)) & 0xFF];
  for (int b = 0; b < kBytes; ++b) {
    std::uint32_t* c = count[b];
    if (c[(k[0] >> (8 * b)) & 0xFF] == static_cast<std::uint32_t>(n)) continue;
    std::uint32_t sum = 0;
    for (int d = 0; d < 256; ++d) {
      const std::uint32_t t = c[d];
      c[d] = sum;
      sum += t;
    }
    for (std::int64_t i = 0; i < n; ++i) {
      const std::uint32_t pos = c[(k[i] >> (8 * b)) & 0xFF]++;
      kt[pos] = k[i];
      vt[pos] = v[i];
    }
    std::swap(k, kt);
    std::swap(v, vt);
  }
  return v;
}
// The length of the prefix of s[0, len) (len > 0) where `before` holds, for a `before`
// that holds on a prefix (std::lower_bound / upper_bound's answer): the range halves with
// a conditional move instead of a branch, so there is nothing to mispredict, and the
// searches for different values overlap in the pipeline.
template <class T, class Before>
std::int64_t bound_branchless(const T* s, std::int64_t len, Before before) {
  const T* base = s;
  while (len > 1) {
    const std::int64_t half = len / 2;
    base = before(base[half]) ? base + half : base;  // all of base[0, half] are before
    len -= half;
  }
  return (base - s) + (before(*base) ? 1 : 0);
}
// NumPy's searchsorted of the m values v in the sorted row s[0, len) into o (int64): side
// "left" (right = false): the number of s[j] before v in the standard's order (NaN last);
// "right": the number of s[j] that v is not before. For a non-NaN v these are plain e < v and
// e <= v (false for a NaN e); a NaN v comes after every non-NaN value (left) or after
// everything (right).
template <class T>
void search_sorted(const T* s, std::int64_t len, const T* v, std::int64_t m, bool right, std::int64_t* o) {
  if (len == 0) {
    for (std::int64_t i = 0; i < m; ++i) o[i] = 0;
    return;
  }
  std::int64_t non_nan = len;
  if constexpr (std::is_floating_point_v<T>) non_nan = bound_branchless(s, len, [](T e) { return e == e; });
  for (std::int64_t i = 0; i < m; ++i) {
    const T x = v[i];
    if constexpr (std::is_floating_point_v<T>) {
      if (x != x) {
        o[i] = right ? len : non_nan;
        continue;
      }
    }
    o[i] = right ? bound_branchless(s, len, [x](T e) { return e <= x; })
                 : bound_branchless(s, len, [x](T e) { return e < x; });
  }
}

// unique of the n elements of p (n > kRadixSort, by_radix(n)): the elements sorted stably by
// radix; equal neighbours (==: -0 joins 0, each NaN stands alone) form a group whose head is
// its first occurrence. outputs(U) is called once with the number of groups and returns
// {values (T*), first indices, inverse indices (n), counts} (int64_t*) to fill.
template <class T, class Outputs>
void unique_radix(const T* p, std::int64_t n, Outputs&& outputs) {
  RadixBuf<key_t<T>, std::int64_t> buf(n);
  for (std::int64_t k = 0; k < n; ++k) {
    buf.k[k] = sort_key(p[k], false);
    buf.v[k] = k;
  }
  const std::int64_t* order = radix_sort(n, buf.k, buf.v, buf.key_tmp(), buf.val_tmp());
  std::int64_t groups = 0;
  for (std::int64_t k = 0; k < n; ++k) groups += !(k > 0 && p[order[k]] == p[order[k - 1]]);
  auto [vals, first, inv, cnt] = outputs(groups);
  std::int64_t g = -1;
  for (std::int64_t k = 0; k < n; ++k) {
    const std::int64_t i = order[k];
    if (!(k > 0 && p[i] == p[order[k - 1]])) {
      ++g;
      vals[g] = p[i];
      first[g] = i;
      cnt[g] = 0;
    }
    ++cnt[g];
    inv[i] = g;
  }
}

// Small test sets: every element compared with every test value, in blocks of x1 with an
// accumulator of the element's width, so that the compare-and-or loop over the block
// vectorizes (NaN equals nothing; -0 equals 0).
template <class T>
void isin_small(const T* p, std::int64_t n, const T* q, std::int64_t m, bool* o, bool invert) {
  using U = typename uint_of<sizeof(T)>::type;
  constexpr std::int64_t kBlock = 256;
  U acc[kBlock];
  for (std::int64_t i0 = 0; i0 < n; i0 += kBlock) {
    const std::int64_t len = std::min(kBlock, n - i0);
    const T* pb = p + i0;
    for (std::int64_t k = 0; k < len; ++k) acc[k] = 0;
    for (std::int64_t j = 0; j < m; ++j) {
      const T v = q[j];
      for (std::int64_t k = 0; k < len; ++k) acc[k] |= pb[k] == v ? static_cast<U>(~U(0)) : U(0);
    }
    for (std::int64_t k = 0; k < len; ++k) o[i0 + k] = (acc[k] != 0) != invert;
  }
}
// o[i] = (p[i] is among q[0, m)) != invert for a real T: NaN is in nothing; -0 equals 0.
// Short q by the vectorized scan above, longer ones by binary search in a sorted copy.
template <class T>
void isin(const T* p, std::int64_t n, const T* q, std::int64_t m, bool* o, bool invert) {
  if (m <= 32) return isin_small(p, n, q, m, o, invert);
  std::vector<T> s(q, q + m);
  if constexpr (std::is_floating_point_v<T>)  // NaN matches nothing: out of the set, which `<` then orders
    s.erase(std::remove_if(s.begin(), s.end(), [](T v) { return v != v; }), s.end());
  std::sort(s.begin(), s.end());
  for (std::int64_t i = 0; i < n; ++i) o[i] = (p[i] == p[i] && std::binary_search(s.begin(), s.end(), p[i])) != invert;
}

// Sorts each of the `outer` rows of `len` elements of p (contiguous) stably into out_rows:
// the values (want_values, out of T) or their int64 indices in the row; descending keeps
// equal elements in input order too. by_radix(len) must hold.
template <class T>
void radix_rows(const T* p, std::int64_t outer, std::int64_t len, bool descending, bool want_values, void* out) {
  using K = key_t<T>;
  auto each_row = [&](auto* out_rows, auto payload) {
    using V = std::remove_pointer_t<decltype(out_rows)>;
    RadixBuf<K, V> buf(len);
    for (std::int64_t o = 0; o < outer; ++o) {
      const T* row = p + o * len;
      for (std::int64_t j = 0; j < len; ++j) {
        buf.k[j] = sort_key(row[j], descending);
        buf.v[j] = payload(row, j);
      }
      const V* sorted = radix_sort(len, buf.k, buf.v, buf.key_tmp(), buf.val_tmp());
      std::memcpy(out_rows + o * len, sorted, static_cast<std::size_t>(len) * sizeof(V));
    }
  };
  if (want_values) each_row(static_cast<T*>(out), [](const T* row, std::int64_t j) { return row[j]; });
  else each_row(static_cast<std::int64_t*>(out), [](const T*, std::int64_t j) { return j; });
}

// Rows of at most kShortRow elements: insertion sort of (radix key, index) pairs on the stack,
// the radix sort's stable order without its scratch buffer (the torch backend's direct path,
// where LibTorch's sort has a fixed set-up cost that dominates short rows). Arguments as
// radix_rows'; len >= 1.
constexpr std::int64_t kShortRow = 32;
template <class T>
void short_rows(const T* p, std::int64_t outer, std::int64_t len, bool descending, bool want_values, void* out) {
  using K = key_t<T>;
  K keys[kShortRow];
  std::int64_t idx[kShortRow];
  for (std::int64_t o = 0; o < outer; ++o) {
    const T* row = p + o * len;
    for (std::int64_t j = 0; j < len; ++j) {
      const K k = sort_key(row[j], descending);
      std::int64_t i = j;
      for (; i > 0 && k < keys[i - 1]; --i) keys[i] = keys[i - 1], idx[i] = idx[i - 1];
      keys[i] = k, idx[i] = j;
    }
    if (want_values) {
      T* r = static_cast<T*>(out) + o * len;
      for (std::int64_t j = 0; j < len; ++j) r[j] = row[idx[j]];
    } else {
      std::memcpy(static_cast<std::int64_t*>(out) + o * len, idx, static_cast<std::size_t>(len) * sizeof(std::int64_t));
    }
  }
}

}  // namespace ivy::cpu::sorting

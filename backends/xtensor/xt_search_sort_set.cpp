// xtensor backend: searching, sorting and sets (nonzero, where, searchsorted, sort, argsort,
// unique, isin); argmax and argmin are row reductions and live in xt_reductions.cpp.
#include <algorithm>
#include <cmath>
#include <new>
#include <tuple>
#include <utility>
#include <vector>

#include "cpu_loops.hpp"
#include "sort_kernels.hpp"
#include "xt_common.hpp"

namespace ivy::xtensor_backend {

namespace {

// Total order with NaN last (the standard's sorting rule).
template <class T> bool lt(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) return !std::isnan(a) && (std::isnan(b) || a < b);
  else return a < b;
}

}  // namespace

// ---------------------------------------------------------------- searching
XT_KERNEL(nonzero) {
  // two passes (count, then fill the outputs): no list of hits
  const Array& x = in[0];
  const std::int64_t r = x.ndim(), count = x.size();
  visit(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* p = ptr<T>(x);
    std::int64_t cnt = 0;
    for (std::int64_t i = 0; i < count; ++i) cnt += p[i] != T{};
    for (std::int64_t d = 0; d < r; ++d) out[d] = alloc(Shape{cnt}, int64);
    if (r == 1) {
      std::int64_t* o = ptr<std::int64_t>(out[0]);
      for (std::int64_t i = 0; i < count; ++i)
        if (p[i] != T{}) *o++ = i;
      return;
    }
    const Dims st = strides_of(x.shape());
    std::int64_t* o[kMaxRank];
    for (std::int64_t d = 0; d < r; ++d) o[d] = ptr<std::int64_t>(out[d]);
    for (std::int64_t i = 0, j = 0; i < count; ++i)
      if (p[i] != T{}) {
        for (std::int64_t d = 0; d < r; ++d) o[d][j] = (i / st[d]) % x.shape()[d];
        ++j;
      }
  });
}

namespace {

// o[i] = c[i] ? x1[i] : x2[i] over elements of E bytes, moved as unsigned integers.
template <class E>
void select_loop(void* o, const bool* c, const void* x1, const void* x2, std::int64_t n) {
  auto* cp = reinterpret_cast<const unsigned char*>(c);
  if constexpr (sizeof(E) <= 8)
    cpu::loops::select_best(static_cast<E*>(o), cp, static_cast<const E*>(x1), static_cast<const E*>(x2), n);
  else
    cpu::loops::select(static_cast<E*>(o), cp, static_cast<const E*>(x1), static_cast<const E*>(x2), n);
}

}  // namespace

XT_KERNEL(where) {
  DType d = spec[0].dtype;
  const Shape& s = spec[0].shape;
  // inputs already of the result's shape and dtype are read in place (no handle copies)
  Array hold[3];
  const Array* p[3];
  for (int k = 0; k < 3; ++k) {
    const Array& x = in[k];
    if (x.shape() == s && (k == 0 || x.dtype() == d)) {
      p[k] = &x;
    } else {
      hold[k] = broadcast_to(k == 0 ? x : cast_if(x, d), s);
      p[k] = &hold[k];
    }
  }
  out[0] = alloc(s, d);
  const bool* cp = ptr<bool>(*p[0]);
  const void *x1 = raw(*p[1]), *x2 = raw(*p[2]);
  void* o = raw(out[0]);
  const std::int64_t count = s.numel();
  visit_width(itemsize(d), [&](auto e) { select_loop<decltype(e)>(o, cp, x1, x2, count); });
}
XT_KERNEL(searchsorted) {
  DType c = result_type(in[0].dtype(), in[1].dtype());
  const As x1_as(in[0], c), x2_as(in[1], c);
  const Array &x1 = *x1_as, &x2 = *x2_as;
  out[0] = alloc(spec[0].shape, int64);
  std::int64_t* o = ptr<std::int64_t>(out[0]);
  visit(c, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (is_cplx_v<T>) {
      fail("searchsorted", "complex inputs are not ordered");
    } else {
      cpu::sorting::search_sorted(ptr<T>(x1), x1.size(), ptr<T>(x2), x2.size(), a.get<attr::searchsorted>().right, o);
    }
  });
}

// ---------------------------------------------------------------- sorting
namespace {

// Stable sort; short runs by insertion (no temporary buffer, which std::stable_sort
// allocates on every call).
constexpr std::int64_t kSmallSort = 32;
// Room for kSmallSort (value, index) pairs left uninitialized: an array of pairs would
// value-initialize all 32 on every call, whatever the row's length. Filled with placement new.
template <class KV>
struct SmallPairs {
  alignas(KV) unsigned char bytes[kSmallSort * sizeof(KV)];
  KV* data() { return reinterpret_cast<KV*>(bytes); }
};
template <class It, class Less>
void stable_sort_small(It first, It last, Less less) {
  if (last - first > kSmallSort) return std::stable_sort(first, last, less);
  for (It i = first + (first != last); i < last; ++i) {
    auto v = std::move(*i);
    It j = i;
    for (; j != first && less(v, *(j - 1)); --j) *j = std::move(*(j - 1));
    *j = std::move(v);
  }
}

// Longer rows sort by radix (backends/cpu/sort_kernels.hpp).
using cpu::sorting::by_radix;
// Sorts along the sort attributes' axis (descending when they say so; sorts are always stable,
// so `stable` needs nothing); writes values (want_values) or int64 indices.
// Along the last axis (the default, and every 1-d sort) the rows are x's own rows
// (axes_to_end returns x) and the result needs no permute.
Array sort_impl(const Array& x, AttrsRef a, bool want_values) {
  const std::int64_t r = x.ndim();  // >= 1 (meta)
  const auto& at = a.get<attr::sort>();
  const std::int64_t axis = at.axis;
  const bool descending = at.descending;
  std::int64_t outer, len;
  Array moved;
  const Array& xr = axes_to_end(x, Dims{axis}, moved, &outer, &len);
  Array res = alloc(xr.shape(), want_values ? x.dtype() : int64);
  visit(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (is_cplx_v<T>) {
      fail("sort", "complex inputs are not ordered");
    } else {
      const T* p = ptr<T>(xr);
      if (by_radix(len)) {
        cpu::sorting::radix_rows(p, outer, len, descending, want_values, raw(res));
        return;
      }
      if (want_values) {  // values sort in place, no index indirection
        T* r = ptr<T>(res);
        std::copy(p, p + outer * len, r);
        for (std::int64_t o = 0; o < outer; ++o) {
          if (descending) stable_sort_small(r + o * len, r + (o + 1) * len, [](T u, T v) { return lt(v, u); });
          else stable_sort_small(r + o * len, r + (o + 1) * len, [](T u, T v) { return lt(u, v); });
        }
        return;
      }
      // indices: sort (value, index) pairs by value, stably (no indirection in the compares)
      using KV = std::pair<T, std::int64_t>;
      SmallPairs<KV> small;  // short rows need no heap buffer
      std::vector<KV> big(len > kSmallSort ? static_cast<std::size_t>(len) : 0);
      KV* kv = len > kSmallSort ? big.data() : small.data();
      std::int64_t* r = ptr<std::int64_t>(res);
      for (std::int64_t o = 0; o < outer; ++o) {
        const T* row = p + o * len;
        for (std::int64_t k = 0; k < len; ++k) ::new (static_cast<void*>(kv + k)) KV(row[k], k);
        if (descending) stable_sort_small(kv, kv + len, [](const KV& u, const KV& v) { return lt(v.first, u.first); });
        else stable_sort_small(kv, kv + len, [](const KV& u, const KV& v) { return lt(u.first, v.first); });
        for (std::int64_t k = 0; k < len; ++k) r[o * len + k] = kv[k].second;
      }
    }
  });
  if (axis == r - 1) return res;
  Dims perm;
  for (std::int64_t d = 0, s = 0; d < r; ++d) perm.push_back(d == axis ? r - 1 : s++);
  return permute(res, perm);
}

}  // namespace

XT_KERNEL(sort) { out[0] = sort_impl(in[0], a, true); }
XT_KERNEL(argsort) { out[0] = sort_impl(in[0], a, false); }

// ---------------------------------------------------------------- sets
// (value, index) pairs sorted stably by value (no indirection in the compares); one pass
// counts the groups, a second writes the four outputs directly. Equal values form a group
// whose head has the smallest index; NaN != NaN, so each NaN is its own group. Complex
// values order lexicographically (real, imag).
XT_KERNEL(unique) {
  const Array& x = in[0];
  const std::int64_t N = x.size();
  visit(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using KV = std::pair<T, std::int64_t>;
    const T* p = ptr<T>(x);
    if constexpr (!is_cplx_v<T>) {
      if (by_radix(N)) {  // (see sort_impl)
        cpu::sorting::unique_radix(p, N, [&](std::int64_t U) {
          out[0] = alloc(Shape{U}, x.dtype());
          out[1] = alloc(Shape{U}, int64);
          out[2] = alloc(x.shape(), int64);
          out[3] = alloc(Shape{U}, int64);
          return std::tuple(ptr<T>(out[0]), ptr<std::int64_t>(out[1]), ptr<std::int64_t>(out[2]),
                            ptr<std::int64_t>(out[3]));
        });
        return;
      }
    }
    SmallPairs<KV> small;
    std::vector<KV> big(N > kSmallSort ? static_cast<std::size_t>(N) : 0);
    KV* kv = N > kSmallSort ? big.data() : small.data();
    {
      for (std::int64_t k = 0; k < N; ++k) ::new (static_cast<void*>(kv + k)) KV(p[k], k);
      stable_sort_small(kv, kv + N, [](const KV& u, const KV& v) {
        if constexpr (is_cplx_v<T>) {
          if (u.first.real() != v.first.real()) return lt(u.first.real(), v.first.real());
          return lt(u.first.imag(), v.first.imag());
        } else {
          return lt(u.first, v.first);
        }
      });
    }
    std::int64_t U = 0;
    for (std::int64_t k = 0; k < N; ++k) U += !(k > 0 && kv[k].first == kv[k - 1].first);
    out[0] = alloc(Shape{U}, x.dtype());
    out[1] = alloc(Shape{U}, int64);
    out[2] = alloc(x.shape(), int64);
    out[3] = alloc(Shape{U}, int64);
    T* vals = ptr<T>(out[0]);
    std::int64_t *first = ptr<std::int64_t>(out[1]), *inv = ptr<std::int64_t>(out[2]), *cnt = ptr<std::int64_t>(out[3]);
    std::int64_t g = -1;
    for (std::int64_t k = 0; k < N; ++k) {
      if (!(k > 0 && kv[k].first == kv[k - 1].first)) {
        ++g;
        vals[g] = kv[k].first;
        first[g] = kv[k].second;
        cnt[g] = 0;
      }
      ++cnt[g];
      inv[kv[k].second] = g;
    }
  });
}
XT_KERNEL(isin) {
  DType c = result_type(in[0].dtype(), in[1].dtype());
  const As x1_as(in[0], c), x2_as(in[1], c);
  const Array &x1 = *x1_as, &x2 = *x2_as;
  out[0] = alloc(spec[0].shape, bool_);
  bool* o = ptr<bool>(out[0]);
  const bool invert = a.get<attr::isin>().invert;
  visit(c, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* p = ptr<T>(x1);
    // complex values have no order: compare with every element
    auto scan = [&] {
      const T* q = ptr<T>(x2);
      const std::int64_t m = x2.size();
      for (std::int64_t i = 0; i < x1.size(); ++i) {
        bool f = false;
        for (std::int64_t j = 0; j < m; ++j) f |= p[i] == q[j];
        o[i] = f != invert;
      }
    };
    if constexpr (is_cplx_v<T>) {
      scan();
    } else {
      cpu::sorting::isin(p, x1.size(), ptr<T>(x2), x2.size(), o, invert);
    }
  });
}

}  // namespace ivy::xtensor_backend

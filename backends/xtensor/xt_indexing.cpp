// xtensor backend: the indexing primitives (strided_slice, slice_update, take,
// take_along_axis, index_put_flat).
#include <cstring>
#include <string>

#include "strided_copy.hpp"
#include "xt_common.hpp"

namespace ivy::xtensor_backend {

// A strided copy (rows with step 1 in one memcpy).
XT_KERNEL(strided_slice) {
  const Array& x = in[0];
  out[0] = alloc(spec[0].shape, x.dtype());
  const auto& at = a.get<attr::slice>();
  Dims st = strides_of(x.shape());  // scaled by the steps; base = the first element
  std::int64_t base = 0;
  for (std::int64_t d = 0; d < x.ndim(); ++d) {
    base += at.start[d] * st[d];
    st[d] *= at.step[d];
  }
  strided_copy(static_cast<unsigned char*>(raw(out[0])), static_cast<const unsigned char*>(raw(x)), spec[0].shape, st,
               base, itemsize(x.dtype()));
}

namespace {

// dst[base + sum_d i_d * dst_st[d]] = src[sum_d i_d * src_st[d]] over the positions i of
// shape ss (element units; a 0 source stride broadcasts).
template <class E>
void strided_put(E* dst, const E* src, const Shape& ss, const Dims& dst_st, std::int64_t base, const Dims& src_st) {
  const std::size_t r = ss.size();
  if (r == 0) {
    dst[base] = src[0];
    return;
  }
  const std::int64_t len = ss[r - 1], ds = dst_st[r - 1], vs = src_st[r - 1], rows = ss.numel() / len;
  Dims pos;
  pos.resize(r - 1);
  for (std::int64_t k = 0; k < rows; ++k) {
    std::int64_t doff = base, soff = 0;
    for (std::size_t d = 0; d + 1 < r; ++d) doff += pos[d] * dst_st[d], soff += pos[d] * src_st[d];
    for (std::int64_t j = 0; j < len; ++j) dst[doff + j * ds] = src[soff + j * vs];
    for (std::size_t d = r - 1; d-- > 0;) {
      if (++pos[d] < ss[d]) break;
      pos[d] = 0;
    }
  }
}

}  // namespace

// A copy of x, then the value (broadcast over the slice) written through the slice's
// strides: no index lists, no materialized broadcast.
XT_KERNEL(slice_update) {
  const Array& x = in[0];
  const std::size_t r = static_cast<std::size_t>(x.ndim());
  out[0] = contiguous_copy(x);
  const As v_as(in[1], x.dtype());
  const Array& v = *v_as;
  const Dims xst = strides_of(x.shape());
  Shape ss;
  Dims dst_st, src_st;
  ss.resize(r);
  dst_st.resize(r);
  src_st.resize(r);
  const auto& at = a.get<attr::slice>();
  std::int64_t base = 0;
  for (std::size_t d = 0; d < r; ++d) {
    const std::int64_t b = at.start[d], e = at.stop[d], st = at.step[d];
    ss[d] = slice_length(b, e, st);
    base += b * xst[d];
    dst_st[d] = st * xst[d];
  }
  if (ss.numel() == 0) return;
  const Dims vst = strides_of(v.shape());
  const std::size_t off = r - v.shape().size();  // v is aligned to the right of the slice
  for (std::size_t i = 0; i < v.shape().size(); ++i) src_st[off + i] = v.shape()[i] == 1 ? 0 : vst[i];
  visit_width(itemsize(x.dtype()), [&](auto e) {
    using E = decltype(e);
    strided_put(static_cast<E*>(raw(out[0])), static_cast<const E*>(raw(v)), ss, dst_st, base, src_st);
  });
}

namespace {

// Copies `block` bytes (one element for inner == 1, then a typed move).
inline void copy_block(unsigned char* dst, const unsigned char* src, std::size_t block) {
  switch (block) {
    case 1: *dst = *src; break;
    case 2: std::memcpy(dst, src, 2); break;
    case 4: std::memcpy(dst, src, 4); break;
    case 8: std::memcpy(dst, src, 8); break;
    case 16: std::memcpy(dst, src, 16); break;
    default: std::memcpy(dst, src, block);
  }
}
// The index array as int64 data: the input itself when it already is int64 (no handle copy).
const std::int64_t* i64_data(const Array& idx, Array* keep) {
  if (idx.dtype() == int64) return ptr<std::int64_t>(idx);
  *keep = cast(idx, int64);
  return ptr<std::int64_t>(*keep);
}
void check_index(std::int64_t k, std::int64_t n, const char* op) {
  if (k < -n || k >= n)
    throw IndexError(std::string("[") + op + "] index " + std::to_string(k) + " is out of bounds for axis of size " +
                     std::to_string(n) + " (backend xtensor)");
}

}  // namespace

// x viewed as [outer, len, inner] around the axis; the result as [outer, m, inner]: rows of
// `inner` elements copied by index, every index checked before any copy.
XT_KERNEL(take) {
  Array keep;
  const std::int64_t* ip = i64_data(in[1], &keep);
  const std::int64_t m = in[1].size();
  const AxisBlocks b = blocks_around(in[0].shape(), a.get<attr::one_axis>().axis);
  for (std::int64_t j = 0; j < m; ++j) check_index(ip[j], b.len, "take");
  out[0] = alloc(spec[0].shape, in[0].dtype());
  const std::size_t block = static_cast<std::size_t>(b.inner) * itemsize(in[0].dtype());
  const auto* src = static_cast<const unsigned char*>(raw(in[0]));
  auto* dst = static_cast<unsigned char*>(raw(out[0]));
  if (block == 0) return;
  for (std::int64_t o = 0; o < b.outer; ++o)
    for (std::int64_t j = 0; j < m; ++j) {
      const std::int64_t k = ip[j] < 0 ? ip[j] + b.len : ip[j];
      copy_block(dst + (o * m + j) * block, src + (o * b.len + k) * block, block);
    }
}

namespace {

// out[o, j, t] = x[o, idx[o, j, t], t], elements of E bytes; an index out of range throws.
template <class E>
void gather_along(void* out, const void* x, const std::int64_t* ip, AxisBlocks bx, AxisBlocks bi) {
  auto* dst = static_cast<E*>(out);
  const auto* src = static_cast<const E*>(x);
  for (std::int64_t o = 0; o < bi.outer; ++o) {
    const E* xo = src + o * bx.len * bx.inner;
    for (std::int64_t j = 0; j < bi.len; ++j, ip += bi.inner, dst += bi.inner)
      for (std::int64_t t = 0; t < bi.inner; ++t) {
        const std::int64_t k = ip[t] < 0 ? ip[t] + bx.len : ip[t];
        if (static_cast<std::uint64_t>(k) >= static_cast<std::uint64_t>(bx.len)) check_index(ip[t], bx.len, "take_along_axis");
        dst[t] = xo[k * bx.inner + t];
      }
  }
}

}  // namespace

XT_KERNEL(take_along_axis) {
  const Shape& os = spec[0].shape;
  const std::int64_t ax = a.get<attr::one_axis>().axis;
  Shape xs = os;
  xs[ax] = in[0].shape()[ax];
  if (in[0].shape() == xs && in[1].shape() == os) {
    // no broadcasting: out[o, j, t] = x[o, idx[o, j, t], t] around the axis, in place
    Array keep;
    const std::int64_t* ip = i64_data(in[1], &keep);
    const AxisBlocks bx = blocks_around(xs, ax), bi = blocks_around(os, ax);
    out[0] = alloc(os, in[0].dtype());
    const void* src = raw(in[0]);
    void* dst = raw(out[0]);
    visit_width(itemsize(in[0].dtype()), [&](auto e) { gather_along<decltype(e)>(dst, src, ip, bx, bi); });
    return;
  }
  Array x = broadcast_to(in[0], xs);
  Array ib = broadcast_to(cast_if(in[1], int64), os);
  std::int64_t outer, inner_x, outer2, inner_i;
  Array xm, im;
  const Array& xr = axes_to_end(x, Dims{ax}, xm, &outer, &inner_x);
  const Array& ir = axes_to_end(ib, Dims{ax}, im, &outer2, &inner_i);
  Shape rs;
  for (std::int64_t d = 0; d < static_cast<std::int64_t>(os.size()); ++d)
    if (d != ax) rs.push_back(os[d]);
  rs.push_back(os[ax]);
  Array res = alloc(rs, x.dtype());
  std::size_t sz = itemsize(x.dtype());
  auto* src = static_cast<const unsigned char*>(raw(xr));
  auto* dst = static_cast<unsigned char*>(raw(res));
  const std::int64_t* ip = ptr<std::int64_t>(ir);
  for (std::int64_t o = 0; o < outer2; ++o)
    for (std::int64_t j = 0; j < inner_i; ++j) {
      std::int64_t k = ip[o * inner_i + j];
      if (k < -inner_x || k >= inner_x)
        throw IndexError("[take_along_axis] index " + std::to_string(k) + " is out of bounds for axis of size " +
                         std::to_string(inner_x) + " (backend xtensor)");
      if (k < 0) k += inner_x;
      std::memcpy(dst + (o * inner_i + j) * sz, src + (o * inner_x + k) * sz, sz);
    }
  // move the axis back
  Dims perm;
  std::int64_t r = static_cast<std::int64_t>(os.size());
  for (std::int64_t d = 0, src_d = 0; d < r; ++d) perm.push_back(d == ax ? r - 1 : src_d++);
  out[0] = permute(res, perm);
}
// Positions of the flattened copy, every index checked first; the value is one element or
// one per index.
XT_KERNEL(index_put_flat) {
  out[0] = contiguous_copy(in[0]);
  Array keep;
  const std::int64_t* ip = i64_data(in[1], &keep);
  const std::int64_t m = in[1].size(), total = in[0].size();
  for (std::int64_t j = 0; j < m; ++j) check_index(ip[j], total, "index_put");
  const As v_as(in[2], in[0].dtype());
  const Array& v = *v_as;
  const std::int64_t vstep = v.size() == 1 ? 0 : 1;
  const std::size_t sz = itemsize(in[0].dtype());
  auto* dst = static_cast<unsigned char*>(raw(out[0]));
  const auto* src = static_cast<const unsigned char*>(raw(v));
  for (std::int64_t j = 0; j < m; ++j) {
    const std::int64_t k = ip[j] < 0 ? ip[j] + total : ip[j];
    copy_block(dst + k * static_cast<std::int64_t>(sz), src + j * vstep * static_cast<std::int64_t>(sz), sz);
  }
}

// A copy of x with each value added at its flat position (repeated positions accumulate in
// order); the value is one element or one per position.
XT_KERNEL(scatter_add_flat) {
  out[0] = contiguous_copy(in[0]);
  Array keep;
  const std::int64_t* ip = i64_data(in[1], &keep);
  const std::int64_t m = in[1].size(), total = in[0].size();
  for (std::int64_t j = 0; j < m; ++j) check_index(ip[j], total, "scatter_add");
  const As v_as(in[2], in[0].dtype());
  const Array& v = *v_as;
  const std::int64_t vstep = v.size() == 1 ? 0 : 1;
  visit(in[0].dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, bool>) {
      throw TypeError("[scatter_add] bool arrays are not supported (backend xtensor)");
    } else {
      T* dst = ptr<T>(out[0]);
      const T* src = ptr<T>(v);
      for (std::int64_t j = 0; j < m; ++j) {
        const std::int64_t k = ip[j] < 0 ? ip[j] + total : ip[j];
        dst[k] = static_cast<T>(dst[k] + src[j * vstep]);
      }
    }
  });
}

}  // namespace ivy::xtensor_backend

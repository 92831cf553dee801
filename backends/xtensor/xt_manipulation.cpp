// xtensor backend: the manipulation primitives (reshape, permute_dims, broadcast_to, flip,
// roll, repeat, tile, concat).
#include <algorithm>
#include <cstring>

#include "strided_copy.hpp"
#include "xt_common.hpp"

namespace ivy::xtensor_backend {

XT_KERNEL(reshape) { alias_into(out[0], in[0], spec[0].shape); }
XT_KERNEL(permute_dims) { out[0] = permute(in[0], a.get<attr::permute_dims>().axes); }
XT_KERNEL(broadcast_to) { out[0] = broadcast_to(in[0], a.get<attr::broadcast_to>().shape); }
XT_KERNEL(flip) {  // a strided copy walking the flipped axes backwards
  const Array& x = in[0];
  const Dims& axes = a.get<attr::flip>().axes;
  out[0] = alloc(x.shape(), x.dtype());
  Dims st = strides_of(x.shape());
  std::int64_t base = 0;
  for (std::int64_t d = 0; d < x.ndim(); ++d) {
    if (std::find(axes.begin(), axes.end(), d) == axes.end()) continue;
    if (x.shape()[d] > 0) base += (x.shape()[d] - 1) * st[d];
    st[d] = -st[d];
  }
  strided_copy(static_cast<unsigned char*>(raw(out[0])), static_cast<const unsigned char*>(raw(x)), x.shape(), st, base,
               itemsize(x.dtype()));
}
// Rolls and repeats move whole blocks (see blocks_around): every block of `inner` elements
// is copied in one piece (rolls: cpu::strided::roll_rows, backends/cpu/strided_copy.hpp).
XT_KERNEL(roll) {
  const Array& x = in[0];
  const std::size_t sz = itemsize(x.dtype());
  const auto& at = a.get<attr::roll>();
  if (!at.axes) {  // the flattened array: one row of x.size() elements
    const std::int64_t n = x.size();
    const std::int64_t s = n > 1 ? cpu::strided::roll_shift(at.shifts[0], n) : 0;
    if (!s) return alias_into(out[0], x, x.shape());
    out[0] = alloc(x.shape(), x.dtype());
    cpu::strided::roll_rows(static_cast<const unsigned char*>(raw(x)), static_cast<unsigned char*>(raw(out[0])), 1, n, 1, s, sz);
    return;
  }
  // The total shift of each axis (an axis may be named more than once).
  const Shape& shape = x.shape();
  Dims shift;  // no heap: Dims is fixed-capacity
  shift.resize(shape.size(), 0);
  for (std::size_t i = 0; i < at.axes->size(); ++i) shift[(*at.axes)[i]] += at.shifts[i];
  const Array* cur = &x;  // the input by reference until the first rolled axis
  Array result;
  for (std::size_t d = 0; d < shape.size(); ++d) {
    std::int64_t len = shape[d];
    if (len <= 1 || x.size() == 0) continue;
    std::int64_t s = cpu::strided::roll_shift(shift[d], len);
    if (!s) continue;
    Array next = alloc(x.shape(), x.dtype());
    const AxisBlocks b = blocks_around(shape, static_cast<std::int64_t>(d));
    cpu::strided::roll_rows(static_cast<const unsigned char*>(raw(*cur)), static_cast<unsigned char*>(raw(next)), b.outer, b.len,
                     b.inner, s, sz);
    result = std::move(next);
    cur = &result;
  }
  // nothing rolled (shifts that are multiples of the lengths, one-element axes): the input's
  // buffer under a new handle, as for the identity maps (xt_elementwise.cpp)
  if (cur == &x) alias_into(out[0], x, x.shape());
  else out[0] = std::move(result);
}

namespace {

// Copies the `bytes` bytes at src to dst `times` times in a row (elements of `sz` bytes).
void repeat_block(unsigned char* dst, const unsigned char* src, std::size_t bytes, std::int64_t times, std::size_t sz) {
  if (bytes == sz) {  // one element: typed fill
    visit_width(sz, [&](auto e) {
      using E = decltype(e);
      E v;
      std::memcpy(&v, src, sizeof(E));
      std::fill_n(reinterpret_cast<E*>(dst), times, v);
    });
    return;
  }
  for (std::int64_t k = 0; k < times; ++k) std::memcpy(dst + static_cast<std::size_t>(k) * bytes, src, bytes);
}

}  // namespace

XT_KERNEL(repeat) {
  const auto& at = a.get<attr::repeat>();
  const bool along = at.axis && in[0].ndim();
  const Array& x = in[0];
  const Shape shape = along ? x.shape() : Shape{x.size()};
  const std::int64_t ax = along ? *at.axis : 0;
  const std::size_t sz = itemsize(x.dtype());
  out[0] = alloc(spec[0].shape, x.dtype());
  AxisBlocks b = blocks_around(shape, ax);
  const std::size_t bytes = static_cast<std::size_t>(b.inner) * sz;
  const auto* src = static_cast<const unsigned char*>(raw(x));
  auto* dst = static_cast<unsigned char*>(raw(out[0]));
  if (!bytes) return;
  for (std::int64_t o = 0; o < b.outer; ++o)
    for (std::int64_t i = 0; i < b.len; ++i, src += bytes) {
      std::int64_t r = at.repeats.size() == 1 ? at.repeats[0] : at.repeats[static_cast<std::size_t>(i)];
      repeat_block(dst, src, bytes, r, sz);
      dst += static_cast<std::size_t>(r) * bytes;
    }
}
// Each output row (last axis) is the matching input row, repeated: block copies driven by
// an odometer over the leading axes (no index lists).
XT_KERNEL(tile) {
  const Shape& os = spec[0].shape;
  const Shape& xs = in[0].shape();
  const std::size_t r = os.size();
  out[0] = alloc(os, in[0].dtype());
  const std::size_t sz = itemsize(in[0].dtype());
  auto* dst = static_cast<unsigned char*>(raw(out[0]));
  const auto* src = static_cast<const unsigned char*>(raw(in[0]));
  if (os.numel() == 0) return;
  if (r == 0) {
    std::memcpy(dst, src, sz);
    return;
  }
  Shape padded;  // the input's shape, padded with leading 1s to the result's rank
  padded.resize(r, 1);
  for (std::size_t i = 0; i < xs.size(); ++i) padded[r - xs.size() + i] = xs[i];
  const Dims st = strides_of(padded);
  const std::size_t row = static_cast<std::size_t>(padded[r - 1]) * sz;
  const std::int64_t reps = os[r - 1] / padded[r - 1], rows = os.numel() / os[r - 1];
  Dims pos;
  pos.resize(r - 1);
  for (std::int64_t k = 0; k < rows; ++k) {
    std::int64_t off = 0;
    for (std::size_t d = 0; d + 1 < r; ++d) off += (pos[d] % padded[d]) * st[d];
    const unsigned char* s_row = src + off * static_cast<std::int64_t>(sz);
    for (std::int64_t j = 0; j < reps; ++j, dst += row) std::memcpy(dst, s_row, row);
    for (std::size_t d = r - 1; d-- > 0;) {
      if (++pos[d] < os[d]) break;
      pos[d] = 0;
    }
  }
}
XT_KERNEL(concat) {
  DType d = spec[0].dtype;
  out[0] = alloc(spec[0].shape, d);
  std::int64_t ax = a.get<attr::one_axis>().axis, outer = 1;
  for (std::int64_t i = 0; i < ax; ++i) outer *= spec[0].shape[i];
  std::vector<Array> held;  // the inputs in the result's dtype, alive until the copy is done
  held.reserve(static_cast<std::size_t>(n));
  std::vector<std::int64_t> chunks;
  std::vector<const unsigned char*> srcs;
  for (int k = 0; k < n; ++k) {
    held.push_back(in[k].dtype() == d ? in[k] : cast(in[k], d));
    const Array& x = held.back();
    chunks.push_back(outer ? x.size() / outer : 0);
    srcs.push_back(static_cast<const unsigned char*>(raw(x)));
  }
  cpu::strided::concat_rows(static_cast<unsigned char*>(raw(out[0])), srcs.data(), chunks.data(), n, outer, itemsize(d));
}

}  // namespace ivy::xtensor_backend

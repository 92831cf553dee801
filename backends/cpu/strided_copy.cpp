// Strided copies (strided_copy.hpp).
#include "strided_copy.hpp"

#include <algorithm>
#include <cstring>

namespace ivy::cpu::strided {

namespace {
struct Bytes16 {
  std::uint64_t lo, hi;
};
template <class E>
void strided_row(unsigned char* dst, const unsigned char* src, std::int64_t n, std::int64_t step) {
  constexpr std::int64_t w = sizeof(E);
  if (step == 0) {  // one element repeated: read once, then a fill that vectorizes
    E v;
    std::memcpy(&v, src, w);
    for (std::int64_t i = 0; i < n; ++i) std::memcpy(dst + i * w, &v, w);
    return;
  }
  for (std::int64_t i = 0; i < n; ++i) std::memcpy(dst + i * w, src + i * step * w, w);
}
// One row of `n` elements of `sz` bytes read with `step`.
void row(unsigned char* dst, const unsigned char* src, std::int64_t n, std::int64_t step, std::size_t sz) {
  switch (sz) {
    case 1: return strided_row<std::uint8_t>(dst, src, n, step);
    case 2: return strided_row<std::uint16_t>(dst, src, n, step);
    case 4: return strided_row<std::uint32_t>(dst, src, n, step);
    case 8: return strided_row<std::uint64_t>(dst, src, n, step);
    default: return strided_row<Bytes16>(dst, src, n, step);
  }
}
}  // namespace

void strided_copy(unsigned char* dst, const unsigned char* src, const Shape& os, const Dims& strides, std::int64_t base,
                  std::size_t sz) {
  const std::int64_t r = static_cast<std::int64_t>(os.size());
  if (os.numel() == 0) return;
  if (r == 0) {
    std::memcpy(dst, src + base * static_cast<std::int64_t>(sz), sz);
    return;
  }
  const std::int64_t len = os[r - 1], step = strides[r - 1];
  const std::size_t row_bytes = static_cast<std::size_t>(len) * sz;
  const std::int64_t rows = os.numel() / len;
  Dims pos;  // odometer over the leading axes of the result
  pos.resize(static_cast<std::size_t>(r - 1));
  for (std::int64_t k = 0; k < rows; ++k) {
    std::int64_t off = base;
    for (std::int64_t d = 0; d + 1 < r; ++d) off += pos[d] * strides[d];
    const unsigned char* s = src + off * static_cast<std::int64_t>(sz);
    if (step == 1) {
      std::memcpy(dst, s, row_bytes);
    } else {
      row(dst, s, len, step, sz);
    }
    dst += row_bytes;
    for (std::int64_t d = r - 2; d >= 0; --d) {
      if (++pos[d] < os[d]) break;
      pos[d] = 0;
    }
  }
}

void roll_rows(const unsigned char* src, unsigned char* dst, std::int64_t outer, std::int64_t len, std::int64_t inner,
               std::int64_t shift, std::size_t sz) {
  const std::size_t row = static_cast<std::size_t>(len * inner) * sz;
  const std::size_t head = static_cast<std::size_t>((len - shift) * inner) * sz;  // moves to the back
  for (std::int64_t o = 0; o < outer; ++o) {
    const unsigned char* s = src + static_cast<std::size_t>(o) * row;
    unsigned char* d = dst + static_cast<std::size_t>(o) * row;
    std::memcpy(d + (row - head), s, head);
    std::memcpy(d, s + head, row - head);
  }
}

namespace {
// rows [o0, o1) of one narrow input: chunk elements of type E per row into dst rows of row_len
template <class E>
void narrow_chunks(unsigned char* dst, const unsigned char* src, std::int64_t chunk, std::int64_t row_len,
                   std::int64_t o0, std::int64_t o1) {
  constexpr std::int64_t w = sizeof(E);
  if (chunk == 1) {
    for (std::int64_t o = o0; o < o1; ++o) std::memcpy(dst + o * row_len * w, src + o * w, w);
    return;
  }
  for (std::int64_t o = o0; o < o1; ++o)
    for (std::int64_t i = 0; i < chunk; ++i) std::memcpy(dst + (o * row_len + i) * w, src + (o * chunk + i) * w, w);
}
}  // namespace

void concat_rows(unsigned char* dst, const unsigned char* const* srcs, const std::int64_t* chunks, int n,
                 std::int64_t outer, std::size_t sz) {
  std::int64_t row_len = 0;
  for (int k = 0; k < n; ++k) row_len += chunks[k];
  if (row_len == 0 || outer == 0) return;
  constexpr std::size_t kWide = 64;  // bytes from which a chunk goes by memcpy
  // blocks of rows whose part of dst stays in L1 while every input writes its columns
  const std::int64_t rows_per_block =
      std::max<std::int64_t>(1, static_cast<std::int64_t>(16384 / (static_cast<std::size_t>(row_len) * sz)));
  for (std::int64_t o0 = 0; o0 < outer; o0 += rows_per_block) {
    const std::int64_t o1 = std::min(outer, o0 + rows_per_block);
    std::int64_t offset = 0;
    for (int k = 0; k < n; ++k) {
      const std::int64_t c = chunks[k];
      unsigned char* d = dst + static_cast<std::size_t>(offset) * sz;
      const unsigned char* s = srcs[k];
      offset += c;
      if (c == 0) continue;
      if (static_cast<std::size_t>(c) * sz >= kWide || (sz != 1 && sz != 2 && sz != 4 && sz != 8)) {
        for (std::int64_t o = o0; o < o1; ++o)
          std::memcpy(d + static_cast<std::size_t>(o * row_len) * sz, s + static_cast<std::size_t>(o * c) * sz,
                      static_cast<std::size_t>(c) * sz);
        continue;
      }
      switch (sz) {
        case 1: narrow_chunks<std::uint8_t>(d, s, c, row_len, o0, o1); break;
        case 2: narrow_chunks<std::uint16_t>(d, s, c, row_len, o0, o1); break;
        case 4: narrow_chunks<std::uint32_t>(d, s, c, row_len, o0, o1); break;
        default: narrow_chunks<std::uint64_t>(d, s, c, row_len, o0, o1); break;
      }
    }
  }
}

}  // namespace ivy::cpu::strided

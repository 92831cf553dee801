// Strided copies (strided_copy.hpp).
#include "strided_copy.hpp"

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

}  // namespace ivy::cpu::strided

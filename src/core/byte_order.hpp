// Host byte order <-> little endian for array data, the order ivy's files store (safetensors,
// graph JSON constants); internal to libivy.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>

#include "ivy/core.hpp"

namespace ivy {

// Swaps each scalar component of the elements in p[0, nbytes) in place (complex elements are
// two components). Nothing to do on a little-endian host; the swap is its own inverse.
inline void to_from_little_endian(unsigned char* p, std::size_t nbytes, DType d) {
  if constexpr (std::endian::native == std::endian::little) {
    (void)p, (void)nbytes, (void)d;
  } else {
    const std::size_t w = is_complex(d) ? itemsize(d) / 2 : itemsize(d);
    for (std::size_t i = 0; i + w <= nbytes; i += w) std::reverse(p + i, p + i + w);
  }
}

}  // namespace ivy

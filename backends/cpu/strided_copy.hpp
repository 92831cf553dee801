// Copies between layouts for the backends' own kernels: a strided gather into a contiguous
// buffer, element = itemsize bytes whatever the dtype.
#pragma once

#include <cstddef>
#include <cstdint>

#include "ivy/core.hpp"

namespace ivy::cpu::strided {

// dst (contiguous, shape os) = the elements of src at base + sum_d i_d * strides[d]
// (element units; strides may be negative or 0), rows with stride 1 copied in one memcpy.
void strided_copy(unsigned char* dst, const unsigned char* src, const Shape& os, const Dims& strides, std::int64_t base,
                  std::size_t sz);

// A roll's shift as the equivalent one in [0, len) (len > 0; shifts may be negative or
// several turns).
inline std::int64_t roll_shift(std::int64_t shift, std::int64_t len) { return ((shift % len) + len) % len; }

// dst = src rolled by `shift` (0 < shift < len) along the middle axis of an [outer, len,
// inner] contiguous array of sz-byte elements: each of the outer rows in two memcpy's.
void roll_rows(const unsigned char* src, unsigned char* dst, std::int64_t outer, std::int64_t len, std::int64_t inner,
               std::int64_t shift, std::size_t sz);

// dst = n inputs side by side along one axis of a row-major result: each of the `outer` rows
// of dst holds chunks[0] elements of srcs[0], then chunks[1] of srcs[1], ... (input k
// contiguous, row o at srcs[k] + o * chunks[k]), elements of sz bytes. Narrow chunks (a few
// elements, as in a stack along the last axis) are copied element by element in blocks of
// rows, wide ones by memcpy.
void concat_rows(unsigned char* dst, const unsigned char* const* srcs, const std::int64_t* chunks, int n,
                 std::int64_t outer, std::size_t sz);

}  // namespace ivy::cpu::strided

// Copies between layouts for the backends' own kernels: a strided gather into a contiguous
// buffer, element = itemsize bytes whatever the dtype.
#pragma once

#include <cstddef>
#include <cstdint>

#include "ivy/core.hpp"

namespace ivy::copyk {

// dst (contiguous, shape os) = the elements of src at base + sum_d i_d * strides[d]
// (element units; strides may be negative or 0), rows with stride 1 copied in one memcpy.
void strided_copy(unsigned char* dst, const unsigned char* src, const Shape& os, const Dims& strides, std::int64_t base,
                  std::size_t sz);

}  // namespace ivy::copyk

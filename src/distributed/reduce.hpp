// The host-side pieces of ivy::distributed that do not touch MPI: the rank-order reduction
// kernels, the call header every collective exchanges first, and host buffers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "ivy/array.hpp"
#include "ivy/distributed.hpp"

namespace ivy::distributed::detail {

// Why op cannot reduce dtype d ("" when it can); the message starts after "[name] ".
std::string reduce_refusal(ReduceOp op, DType d);
// dst[i] = src_0[i] op src_1[i] op ... op src_{parts-1}[i], folded left in rank order, where
// src_r = src + r * stride_bytes; mean divides the sum by parts. float16/bfloat16 accumulate
// in float32 and round once. dst may not overlap src.
void reduce_parts(void* dst, const void* src, std::size_t stride_bytes, int parts, std::size_t n, DType d,
                  ReduceOp op);

// A 64-byte-aligned host buffer shared by the arrays that wrap it.
std::shared_ptr<std::byte> host_buffer(std::size_t bytes);

// The header every rank sends before a collective: what it is about to do.
struct CallHeader {
  std::uint32_t magic = 0x49565944;  // "IVYD"
  std::int32_t kind = 0;             // which collective
  std::int32_t op = 0;               // ReduceOp, or the root
  std::int32_t dtype = 0;
  std::int64_t ndim = 0;  // -1: a container (dims[0]: its leaves, structure: a hash of it)
  std::int64_t dims[32] = {};
  std::uint64_t structure = 0;
  std::uint64_t bytes = 0;
};
std::string describe_header(const CallHeader& h);
std::uint64_t hash_bytes(const void* data, std::size_t n, std::uint64_t seed = 0xcbf29ce484222325ULL);

// x's bytes where they lie (contiguous CPU array of a backend with data_ptr), else a host
// copy kept in `copy`.
const std::byte* host_bytes(const Array& x, std::shared_ptr<std::byte>& copy);
// Writes x's bytes (row-major) to dst: a memcpy from where they lie when x is a contiguous
// CPU array, else copy_to_host. Returns the number of bytes.
std::size_t copy_bytes(const Array& x, std::byte* dst);
// An array of `shape` and d on `like`'s backend and device over the host buffer (zero-copy
// where the backend wraps host memory, else copied).
Array array_over(std::shared_ptr<std::byte> buffer, std::size_t offset, const Shape& shape, DType d, const Array& like);

}  // namespace ivy::distributed::detail

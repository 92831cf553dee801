// Rank-order reduction kernels, call headers and host buffers of ivy::distributed
// (src/distributed/reduce.hpp). No MPI here.
#include "distributed/reduce.hpp"

#include <bit>
#include <cmath>
#include <complex>
#include <cstring>
#include <new>
#include <sstream>
#include <type_traits>

#include "ivy/dispatch.hpp"
#include "ivy/functional.hpp"

namespace ivy::distributed::detail {

namespace {

// IEEE binary16 and bfloat16 <-> float32, rounding to nearest even (NaN stays NaN).
float f16_to_f32(std::uint16_t h) {
  const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
  std::uint32_t exp = (h >> 10) & 0x1fu, man = h & 0x3ffu;
  std::uint32_t bits;
  if (exp == 0x1f) bits = sign | 0x7f800000u | (man << 13);
  else if (exp != 0) bits = sign | ((exp + 112) << 23) | (man << 13);
  else if (man == 0) bits = sign;
  else {  // subnormal: normalize
    int e = -1;
    do {
      ++e;
      man <<= 1;
    } while ((man & 0x400u) == 0);
    bits = sign | (static_cast<std::uint32_t>(112 - e) << 23) | ((man & 0x3ffu) << 13);
  }
  return std::bit_cast<float>(bits);
}
std::uint16_t f32_to_f16(float f) {
  const std::uint32_t x = std::bit_cast<std::uint32_t>(f);
  const std::uint16_t sign = static_cast<std::uint16_t>((x >> 16) & 0x8000u);
  const std::uint32_t ax = x & 0x7fffffffu;
  if (ax > 0x7f800000u) return static_cast<std::uint16_t>(sign | 0x7e00u);  // NaN
  if (ax >= 0x477ff000u) return static_cast<std::uint16_t>(sign | 0x7c00u);  // overflows to inf
  if (ax < 0x38800000u) {  // subnormal or zero in binary16: scale and round in float
    const float r = std::bit_cast<float>(ax) * 0x1p24f;  // exact
    return static_cast<std::uint16_t>(sign | static_cast<std::uint16_t>(std::nearbyint(r)));
  }
  const std::uint32_t rounded = ax + 0x0fffu + ((ax >> 13) & 1u);
  return static_cast<std::uint16_t>(sign | ((rounded - 0x38000000u) >> 13));
}
float bf16_to_f32(std::uint16_t b) { return std::bit_cast<float>(static_cast<std::uint32_t>(b) << 16); }
std::uint16_t f32_to_bf16(float f) {
  const std::uint32_t x = std::bit_cast<std::uint32_t>(f);
  if ((x & 0x7fffffffu) > 0x7f800000u) return static_cast<std::uint16_t>((x >> 16) | 0x40u);  // quiet NaN
  return static_cast<std::uint16_t>((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
}

template <class T>
T fmax_nan(T a, T b) {
  if (a != a) return a;
  if (b != b) return b;
  return a < b ? b : a;
}
template <class T>
T fmin_nan(T a, T b) {
  if (a != a) return a;
  if (b != b) return b;
  return b < a ? b : a;
}

// The fold over parts for one C++ type T (accumulating in A; A == T except for the half types).
template <class T, class A, class Load, class Store>
void fold(T* dst, const std::byte* src, std::size_t stride, int parts, std::size_t n, ReduceOp op, Load load,
          Store store) {
  auto part = [&](int r) { return reinterpret_cast<const T*>(src + static_cast<std::size_t>(r) * stride); };
  for (std::size_t i = 0; i < n; ++i) {
    A acc = load(part(0)[i]);
    for (int r = 1; r < parts; ++r) {
      const A v = load(part(r)[i]);
      if constexpr (std::is_integral_v<A>) {
        using U = std::make_unsigned_t<A>;  // wraps as NumPy's integers do
        if (op == ReduceOp::sum) acc = static_cast<A>(static_cast<U>(acc) + static_cast<U>(v));
        else if (op == ReduceOp::prod) acc = static_cast<A>(static_cast<U>(acc) * static_cast<U>(v));
        else if (op == ReduceOp::max) acc = acc < v ? v : acc;
        else acc = v < acc ? v : acc;
      } else {
        if (op == ReduceOp::sum || op == ReduceOp::mean) acc = acc + v;
        else if (op == ReduceOp::prod) acc = acc * v;
        else if constexpr (std::is_floating_point_v<A>) acc = op == ReduceOp::max ? fmax_nan(acc, v) : fmin_nan(acc, v);
      }
    }
    if constexpr (!std::is_integral_v<A>)
      if (op == ReduceOp::mean) acc = acc / static_cast<A>(parts);
    dst[i] = store(acc);
  }
}
template <class T>
void fold_plain(void* dst, const void* src, std::size_t stride, int parts, std::size_t n, ReduceOp op) {
  auto id = [](T v) { return v; };
  fold<T, T>(static_cast<T*>(dst), static_cast<const std::byte*>(src), stride, parts, n, op, id, id);
}

}  // namespace

std::string reduce_refusal(ReduceOp op, DType d) {
  const std::string dt = dtype_name(d), on = reduce_op_name(op);
  if (d == DType::bool_ && (op != ReduceOp::max && op != ReduceOp::min))
    return on + " of a bool array: bool takes max (any) and min (all); cast to an integer dtype for " + on;
  if (is_complex(d) && (op == ReduceOp::max || op == ReduceOp::min))
    return on + " of a " + dt + " array: complex numbers are not ordered";
  if (op == ReduceOp::mean && !is_floating(d))
    return "mean of a " + dt + " array: mean needs a floating dtype (sum it, or cast first)";
  return "";
}

void reduce_parts(void* dst, const void* src, std::size_t stride, int parts, std::size_t n, DType d, ReduceOp op) {
  switch (d) {
    case DType::bool_: {  // max: any, min: all
      auto* o = static_cast<std::uint8_t*>(dst);
      const auto* s = static_cast<const std::uint8_t*>(src);
      for (std::size_t i = 0; i < n; ++i) {
        bool acc = s[i] != 0;
        for (int r = 1; r < parts; ++r) {
          const bool v = s[static_cast<std::size_t>(r) * stride + i] != 0;
          acc = op == ReduceOp::max ? (acc || v) : (acc && v);
        }
        o[i] = acc ? 1 : 0;
      }
      return;
    }
    case DType::int8: return fold_plain<std::int8_t>(dst, src, stride, parts, n, op);
    case DType::int16: return fold_plain<std::int16_t>(dst, src, stride, parts, n, op);
    case DType::int32: return fold_plain<std::int32_t>(dst, src, stride, parts, n, op);
    case DType::int64: return fold_plain<std::int64_t>(dst, src, stride, parts, n, op);
    case DType::uint8: return fold_plain<std::uint8_t>(dst, src, stride, parts, n, op);
    case DType::uint16: return fold_plain<std::uint16_t>(dst, src, stride, parts, n, op);
    case DType::uint32: return fold_plain<std::uint32_t>(dst, src, stride, parts, n, op);
    case DType::uint64: return fold_plain<std::uint64_t>(dst, src, stride, parts, n, op);
    case DType::float16:
      return fold<std::uint16_t, float>(static_cast<std::uint16_t*>(dst), static_cast<const std::byte*>(src), stride,
                                        parts, n, op, f16_to_f32, f32_to_f16);
    case DType::bfloat16:
      return fold<std::uint16_t, float>(static_cast<std::uint16_t*>(dst), static_cast<const std::byte*>(src), stride,
                                        parts, n, op, bf16_to_f32, f32_to_bf16);
    case DType::float32: return fold_plain<float>(dst, src, stride, parts, n, op);
    case DType::float64: return fold_plain<double>(dst, src, stride, parts, n, op);
    case DType::complex64: return fold_plain<std::complex<float>>(dst, src, stride, parts, n, op);
    case DType::complex128: return fold_plain<std::complex<double>>(dst, src, stride, parts, n, op);
  }
}

std::shared_ptr<std::byte> host_buffer(std::size_t bytes) {
  constexpr std::align_val_t kAlign{64};
  auto* p = static_cast<std::byte*>(::operator new(bytes == 0 ? 64 : bytes, kAlign));
  return std::shared_ptr<std::byte>(p, [](std::byte* q) { ::operator delete(q, std::align_val_t{64}); });
}

namespace {
const char* kind_name(std::int32_t k) {
  static const char* const names[] = {"?",          "all_reduce", "broadcast", "all_gather",
                                      "reduce_scatter", "barrier", "all_reduce (container)",
                                      "broadcast (container)"};
  return k >= 0 && k < 8 ? names[k] : "?";
}
}  // namespace

std::string describe_header(const CallHeader& h) {
  if (h.magic != 0x49565944) return "a call that is not ivy's";
  std::ostringstream s;
  s << kind_name(h.kind);
  if (h.kind == 1 || h.kind == 4 || h.kind == 6) s << " " << reduce_op_name(static_cast<ReduceOp>(h.op));
  if (h.kind == 2 || h.kind == 7) s << " from root " << h.op;
  if (h.ndim >= 0 && h.kind != 5) {
    s << " of " << dtype_name(static_cast<DType>(h.dtype)) << " [";
    for (std::int64_t i = 0; i < h.ndim && i < 32; ++i) s << (i ? ", " : "") << h.dims[i];
    s << "]";
  } else if (h.ndim < 0) {
    s << " of " << h.dims[0] << " leaves, " << h.bytes << " bytes (structure " << std::hex << h.structure << std::dec
      << ")";
  }
  return s.str();
}

std::uint64_t hash_bytes(const void* data, std::size_t n, std::uint64_t seed) {
  const auto* p = static_cast<const unsigned char*>(data);
  std::uint64_t h = seed;
  for (std::size_t i = 0; i < n; ++i) {
    h ^= p[i];
    h *= 0x100000001b3ULL;
  }
  return h;
}

namespace {
// x's contiguous CPU bytes where they lie, or null
const std::byte* data_in_place(const Array& x) {
  const BackendImpl* be = x.backend().impl();
  if (x.device().kind != Device::cpu || !be || !be->data_ptr) return nullptr;
  return static_cast<const std::byte*>(be->data_ptr(x));
}
}  // namespace

const std::byte* host_bytes(const Array& x, std::shared_ptr<std::byte>& copy) {
  if (const std::byte* p = data_in_place(x)) return p;
  copy = host_buffer(static_cast<std::size_t>(x.size()) * itemsize(x.dtype()));
  if (x.size() > 0) copy_to_host(x, copy.get());
  return copy.get();
}

std::size_t copy_bytes(const Array& x, std::byte* dst) {
  const std::size_t n = static_cast<std::size_t>(x.size()) * itemsize(x.dtype());
  if (n == 0) return 0;
  if (const std::byte* p = data_in_place(x)) std::memcpy(dst, p, n);
  else copy_to_host(x, dst);
  return n;
}

Array array_over(std::shared_ptr<std::byte> buffer, std::size_t offset, const Shape& shape, DType d, const Array& like) {
  const BackendImpl* be = like.backend().impl();
  std::byte* at = buffer.get() + offset;
  if (like.device().kind == Device::cpu && be && be->wrap && shape.numel() > 0)
    return be->wrap(at, shape, d, std::shared_ptr<void>(buffer, at));
  return asarray(static_cast<const void*>(at), d, shape, d, like.device(), like.backend());
}

}  // namespace ivy::distributed::detail

// Internal to the xtensor backend: array storage, dtype visiting, helpers, and the
// declaration of every primitive's kernel.
// Arrays are contiguous row-major buffers that the backend allocates itself (alloc,
// xt_backend.cpp) or wraps (a foreign buffer kept alive by `owner`), shared between handles,
// so reshape and cross-backend exchange are zero-copy; no xtensor container holds them.
// Kernels read and write them through plain pointers (ptr<T>) with ivy's loops
// (backends/cpu and the kernel files), Eigen maps for linear algebra, Eigen's FFT module for
// fft and oneDNN for float32 convolutions; xtensor adaptors over them (view<T>, eval) serve
// the two things xtensor computes: binary elementwise functions of operands that broadcast,
// and some sums, products and means over axes (xt_backend.cpp lists what runs where).
#pragma once

#include <complex>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <random>
#include <algorithm>
#include <vector>

#include <xtensor/xadapt.hpp>
#include <xtensor/xarray.hpp>
#include <xtensor/xmath.hpp>
#include <xtensor/xnoalias.hpp>
#include <xtensor/xstorage.hpp>

#include "cpu_isa.hpp"
#include "strided_copy.hpp"
#include "ivy/dispatch.hpp"

namespace ivy::xtensor_backend {

extern BackendImpl kXtensor;

struct XtImpl final : ArrayImpl {
  XtImpl(const Shape& s, DType d, std::shared_ptr<void> owner_, void* data_)
      : ArrayImpl(s, d, Device{}, &kXtensor), owner(std::move(owner_)), data(data_) {}
  std::shared_ptr<void> owner;  // keeps the buffer alive (ours or a foreign backend's)
  void* data;
};

using c64 = std::complex<float>;
using c128 = std::complex<double>;
template <class T> inline constexpr bool is_cplx_v = false;
template <class T> inline constexpr bool is_cplx_v<std::complex<T>> = true;
template <class T> struct real_type { using type = T; };
template <class T> struct real_type<std::complex<T>> { using type = T; };
template <class T> using real_t = typename real_type<T>::type;

template <class T> struct Tag { using type = T; };
// The unsigned integer type of N bytes.
template <std::size_t N> struct uint_of;
template <> struct uint_of<1> { using type = std::uint8_t; };
template <> struct uint_of<2> { using type = std::uint16_t; };
template <> struct uint_of<4> { using type = std::uint32_t; };
template <> struct uint_of<8> { using type = std::uint64_t; };

// Calls f(Tag<T>{}) for the C++ type of dtype d. float16/bfloat16 are not available on
// this backend (see the unsupported list).
template <class F>
decltype(auto) visit(DType d, F&& f) {
  switch (d) {
    case DType::bool_: return f(Tag<bool>{});
    case DType::int8: return f(Tag<std::int8_t>{});
    case DType::int16: return f(Tag<std::int16_t>{});
    case DType::int32: return f(Tag<std::int32_t>{});
    case DType::int64: return f(Tag<std::int64_t>{});
    case DType::uint8: return f(Tag<std::uint8_t>{});
    case DType::uint16: return f(Tag<std::uint16_t>{});
    case DType::uint32: return f(Tag<std::uint32_t>{});
    case DType::uint64: return f(Tag<std::uint64_t>{});
    case DType::float32: return f(Tag<float>{});
    case DType::float64: return f(Tag<double>{});
    case DType::complex64: return f(Tag<c64>{});
    case DType::complex128: return f(Tag<c128>{});
    default:
      throw NotImplementedError(std::string("[xtensor] dtype ") + dtype_name(d) + " is not supported by the xtensor backend");
  }
}
// Only the floating types (float, double, complex<float>, complex<double>).
template <class F>
decltype(auto) visit_float(DType d, F&& f) {
  switch (d) {
    case DType::float32: return f(Tag<float>{});
    case DType::float64: return f(Tag<double>{});
    case DType::complex64: return f(Tag<c64>{});
    case DType::complex128: return f(Tag<c128>{});
    default: throw TypeError(std::string("[xtensor] expected a floating dtype, got ") + dtype_name(d));
  }
}

// Small-buffer shape: adaptors over our buffers allocate nothing for rank <= 6.
using xshape_t = xt::svector<std::size_t, 6>;
inline xshape_t xshape(const Shape& s) { return xshape_t(s.begin(), s.end()); }

template <class T>
T* ptr(const Array& a) {
  return static_cast<T*>(static_cast<XtImpl*>(a.impl())->data);
}
inline void* raw(const Array& a) { return static_cast<XtImpl*>(a.impl())->data; }

// An xtensor view (adaptor, no ownership) over an array's buffer.
template <class T>
auto view(const Array& a) {
  return xt::adapt(ptr<T>(a), static_cast<std::size_t>(a.size()), xt::no_ownership(), xshape(a.shape()));
}


// A fresh, uninitialized buffer for an array of shape s and dtype d (kernels write every element).
Array alloc(const Shape& s, DType d);
// A new array sharing x's buffer with another shape (same number of elements).
Array alias(const Array& x, const Shape& s);
void alias_into(Array& out, const Array& x, const Shape& s);
// Elementwise dtype conversion (complex -> real keeps the real part; -> bool is != 0).
Array cast(const Array& x, DType d);
inline Array cast_if(const Array& x, DType d) { return x.dtype() == d ? x : cast(x, d); }
// An input seen in dtype d: the input itself, by reference (copying a handle costs an atomic
// reference-count pair per call), or its converted copy, owned here.
class As {
 public:
  As(const Array& x, DType d) : p_(&x) {
    if (x.dtype() != d) {
      own_ = cast(x, d);
      p_ = &own_;
    }
  }
  As(const As&) = delete;
  As& operator=(const As&) = delete;
  const Array& operator*() const { return *p_; }

 private:
  Array own_;
  const Array* p_;
};

// Evaluates an xtensor expression into a new array of shape s and dtype d (C++ type T).
template <class T, class E>
Array eval(const Shape& s, DType d, E&& expr) {
  Array out = alloc(s, d);
  auto v = view<T>(out);
  xt::noalias(v) = std::forward<E>(expr);
  return out;
}

// Element strides of a contiguous row-major array of shape s (no heap: Dims is fixed-capacity).
inline Dims strides_of(const Shape& s) {
  Dims st;
  st.resize(s.size());
  std::int64_t acc = 1;
  for (std::size_t i = s.size(); i-- > 0;) {
    st[i] = acc;
    acc *= s[i];
  }
  return st;
}
// The array seen as [outer, len, inner] around `axis`: runs along the axis move blocks of
// `inner` contiguous elements.
struct AxisBlocks {
  std::int64_t outer = 1, len = 1, inner = 1;
};
inline AxisBlocks blocks_around(const Shape& s, std::int64_t axis) {
  AxisBlocks b;
  for (std::int64_t d = 0; d < static_cast<std::int64_t>(s.size()); ++d) {
    if (d < axis) b.outer *= s[d];
    else if (d == axis) b.len = s[d];
    else b.inner *= s[d];
  }
  return b;
}

// Elements moved by width, whatever their dtype: unsigned integers of 1 to 8 bytes, a pair of
// words for 16 (complex128).
struct Bytes16 {
  std::uint64_t lo, hi;
};
// Calls f(E{}) with E the element type of `width` bytes (an itemsize).
template <class F>
void visit_width(std::size_t width, F&& f) {
  switch (width) {
    case 1: return f(std::uint8_t{});
    case 2: return f(std::uint16_t{});
    case 4: return f(std::uint32_t{});
    case 8: return f(std::uint64_t{});
    default: return f(Bytes16{});
  }
}

// Layout helpers (type-agnostic, element = itemsize bytes).
Array broadcast_to(const Array& x, const Shape& s);
Array permute(const Array& x, const Dims& perm);
using cpu::strided::strided_copy;  // backends/cpu/strided_copy.hpp
Array contiguous_copy(const Array& x);

// x with `axes` moved to the end (keeping order), and its [outer, inner] sizes. When they
// already are the trailing axes in that order, x itself (no copy, and no handle copy: each
// is an atomic reference-count update); else a permuted copy, held in `moved`.
// (Inline: the trailing case is the common one, a few compares on the kernels' hot path.)
const Array& axes_to_end_copy(const Array& x, const Dims& axes, Array& moved, std::int64_t* outer, std::int64_t* inner);
inline const Array& axes_to_end(const Array& x, const Dims& axes, Array& moved, std::int64_t* outer,
                                std::int64_t* inner) {
  const std::int64_t r = x.ndim(), k = static_cast<std::int64_t>(axes.size());
  bool trailing = true;
  for (std::int64_t i = 0; i < k; ++i) trailing &= axes[static_cast<std::size_t>(i)] == r - k + i;
  if (!trailing) return axes_to_end_copy(x, axes, moved, outer, inner);
  *outer = 1;
  *inner = 1;
  for (std::int64_t d = 0; d < r; ++d) (d < r - k ? *outer : *inner) *= x.shape()[d];
  return x;
}

[[noreturn]] void fail(const char* op, const std::string& msg);

// The backend's seedable generator (guard uses with rng_mutex()).
std::mt19937_64& rng();
std::mutex& rng_mutex();
void seed_rng(std::uint64_t s);

// The kernel of every primitive, one per ops.def row: k_<op> (a Kernel, see dispatch.hpp).
// Each is defined, with external linkage, in the file of its ops.def category
// (xt_elementwise, xt_creation, xt_manipulation, xt_indexing, xt_search_sort_set,
// xt_reductions, xt_linalg, xt_fft); xt_backend.cpp's kernel table takes the address of
// each, so a row without its kernel fails to link.
#define IVY_OP(name, ...) void k_##name(const Array* in, int n, AttrsRef a, const OutSpec* spec, Array* out);
#include "ivy/ops.def"
#undef IVY_OP

// Defines kernel k_<name> (outside any unnamed namespace: it is the declaration above).
#define XT_KERNEL(name) \
  void k_##name([[maybe_unused]] const Array* in, [[maybe_unused]] int n, [[maybe_unused]] AttrsRef a, \
                [[maybe_unused]] const OutSpec* spec, Array* out)

}  // namespace ivy::xtensor_backend

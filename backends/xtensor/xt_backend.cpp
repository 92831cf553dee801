// The xtensor backend: ivy's CPU backend over buffers of its own. Despite the name, xtensor
// computes little of it; what computes what:
// - storage: one contiguous row-major buffer per array, allocated here (alloc: in one block
//   with the array's handle, 64-byte aligned, freed blocks recycled per thread by size) or
//   wrapped from another backend or the host (wrap, kept alive by its owner); xtensor only
//   adapts views over it (xt_common.hpp). No float16/bfloat16.
// - elementwise: ivy's loops (backends/cpu: cpu_loops, vec_math, npy_kernels) over a scalar
//   functor of <cmath>/<complex> or of ivy's; binary operands that broadcast other than by
//   contiguous blocks through xtensor's broadcasting assignment (xt_elementwise.cpp).
// - reductions: ivy's loops (backends/cpu/row_kernels, xt_reductions.cpp); xtensor's reducers
//   for sum, prod and mean over some of the axes.
// - linear algebra: Eigen (matmul's products, LLT, PartialPivLU, the eigensolvers, JacobiSVD,
//   HouseholderQR; xt_linalg.cpp).
// - fft: Eigen's FFT module (kissfft), one axis at a time (xt_fft.cpp).
// - convolutions: oneDNN for float32 where the build has it, else im2col and Eigen's GEMM;
//   max_pool: ivy's loop (xt_nn.cpp).
// - random: std::mt19937_64 (one per backend, seeded by seed_rng) with ivy's uniform and
//   ziggurat normal draws; randint through std::uniform_int_distribution (xt_creation.cpp).
// - sort, search, sets: ivy's radix sort for long rows (backends/cpu/sort_kernels.hpp),
//   insertion sort or std::stable_sort for short ones; ivy's searchsorted, isin, where
//   (xt_search_sort_set.cpp).
// - creation, manipulation, indexing: ivy's fills, strided copies and memcpy.
// This file: storage, layout helpers, dtype conversion, host services and the kernel table.
#include <mutex>
#include <random>

#include "cpu_loops.hpp"
#include "handle_cache.hpp"
#include "xt_common.hpp"

namespace ivy::xtensor_backend {

[[noreturn]] void fail(const char* op, const std::string& msg) {
  throw Error(std::string("[") + op + "] backend xtensor: " + msg);
}

namespace {
// Allocates the XtImpl and its buffer in one block: the allocator over-allocates and hands
// out the tail as the data area (one heap allocation per result array), aligned to 64 bytes
// (a cache line; the AVX2 loops are slower on data off a 32-byte boundary).
// Results of at most kSmallData bytes (one-element and other small results) take blocks of
// one size from a per-thread free list (backends/cpu/handle_cache.hpp): a pointer pop and
// push instead of malloc and free. Larger results take blocks of their size class from other
// per-thread lists (cpu::handles::blocks up to 1 MiB a block, cpu::handles::large above). The
// control block keeps this allocator, so `extra` tells deallocate which way the block came
// and its size.
template <class U>
struct XtSmallResults;  // the free list's tag (one block size per U)
constexpr std::size_t kAlign = 64, kSmallData = 64;
template <class U>
struct TailAlloc {
  using value_type = U;
  std::size_t extra;
  void** tail;
  TailAlloc(std::size_t e, void** t) : extra(e), tail(t) {}
  template <class V>
  TailAlloc(const TailAlloc<V>& o) : extra(o.extra), tail(o.tail) {}  // NOLINT
  bool small(std::size_t n) const { return n == 1 && extra <= kSmallData; }
  // A larger block's size class (cpu::handles::block_class): kept in cpu::handles::blocks up
  // to blocks::kMaxBlock, in cpu::handles::large above.
  std::size_t pooled(std::size_t n) const {
    return n == 1 ? cpu::handles::block_class(n * sizeof(U) + kAlign - 1 + extra) : 0;
  }
  static bool is_large(std::size_t c) { return c > cpu::handles::blocks::kMaxBlock; }
  U* allocate(std::size_t n) {
    const std::size_t head = n * sizeof(U);
    void* block;
    if (small(n)) {
      block = cpu::handles::take<XtSmallResults<U>>();
      if (!block) block = ::operator new(head + kAlign - 1 + kSmallData);
    } else if (const std::size_t c = pooled(n)) {
      block = is_large(c) ? cpu::handles::large::take(c) : cpu::handles::blocks::take(c);
      if (!block) block = ::operator new(c);
    } else {
      block = ::operator new(head + kAlign - 1 + extra);
    }
    auto* p = static_cast<unsigned char*>(block);
    const auto t = (reinterpret_cast<std::uintptr_t>(p + head) + kAlign - 1) & ~static_cast<std::uintptr_t>(kAlign - 1);
    *tail = p + (t - reinterpret_cast<std::uintptr_t>(p));
    return reinterpret_cast<U*>(p);
  }
  void deallocate(U* p, std::size_t n) noexcept {
    if (small(n)) {
      if (cpu::handles::give<XtSmallResults<U>>(p)) return;
    } else if (const std::size_t c = pooled(n)) {
      if (is_large(c) ? cpu::handles::large::give(p, c) : cpu::handles::blocks::give(p, c)) return;
    }
    ::operator delete(p);
  }
  template <class V>
  bool operator==(const TailAlloc<V>& o) const { return tail == o.tail; }
};
}  // namespace

Array alloc(const Shape& s, DType d) {
  // a size no machine can hold (2^56 bytes and more) is refused before the byte count can
  // wrap around and a short block be written past its end
  constexpr std::uint64_t kMaxBytes = std::uint64_t{1} << 56;
  const std::int64_t n = s.numel();
  if (n < 0 || static_cast<std::uint64_t>(n) > kMaxBytes / itemsize(d))
    throw ValueError("[xtensor] an array of shape " + s.str() + " and dtype " + dtype_name(d) +
                     " needs more memory than can be allocated (over 2^56 bytes)");
  std::size_t bytes = static_cast<std::size_t>(n) * itemsize(d);
  void* data = nullptr;
  auto impl = std::allocate_shared<XtImpl>(TailAlloc<XtImpl>(bytes ? bytes : 1, &data), s, d, nullptr, nullptr);
  impl->data = data;
  return Array(std::move(impl));
}

// A view's handle (no buffer of its own) comes from a per-thread free list
// (backends/cpu/handle_cache.hpp). It keeps the original's handle alive (which owns or keeps
// the buffer). alias_into writes the handle into its destination here: a returned handle is
// two 8-byte stores that the caller's move reads back as one 16-byte load, which the CPU
// cannot forward from the stores (a store-forwarding stall after the call).
struct XtViewHandles;
void alias_into(Array& out, const Array& x, const Shape& s) {
  auto* impl = static_cast<XtImpl*>(x.impl());
  out = Array(std::allocate_shared<XtImpl>(cpu::handles::Alloc<XtImpl, XtViewHandles>(), s, x.dtype(),
                                           std::shared_ptr<void>(x.impl_ptr()), impl->data));
}
Array alias(const Array& x, const Shape& s) {
  Array r;
  alias_into(r, x, s);
  return r;
}

namespace {
template <class To, class From>
To convert(From v) {
  if constexpr (std::is_same_v<To, bool>) {
    return v != From{};
  } else if constexpr (is_cplx_v<From> && !is_cplx_v<To>) {
    return static_cast<To>(v.real());
  } else if constexpr (is_cplx_v<To> && !is_cplx_v<From>) {
    return To(static_cast<real_t<To>>(v), 0);
  } else if constexpr (is_cplx_v<To> && is_cplx_v<From>) {
    return To(static_cast<real_t<To>>(v.real()), static_cast<real_t<To>>(v.imag()));
  } else if constexpr (std::is_floating_point_v<From> && std::is_integral_v<To>) {
    // Out-of-range and NaN conversions are undefined in C++; define them as 0.
    if (!(v > static_cast<From>(std::numeric_limits<To>::min()) - 1 &&
          v < static_cast<From>(std::numeric_limits<To>::max()) + 1))
      return To{0};
    return static_cast<To>(v);
  } else {
    return static_cast<To>(v);
  }
}
}  // namespace

Array cast(const Array& x, DType d) {
  Array out = alloc(x.shape(), d);
  std::int64_t n = x.size();
  visit(x.dtype(), [&](auto ft) {
    using F = typename decltype(ft)::type;
    visit(d, [&](auto tt) {
      using T = typename decltype(tt)::type;
      const F* src = ptr<F>(x);
      T* dst = ptr<T>(out);
      auto conv = [](F v) { return convert<T>(v); };
      if constexpr (!is_cplx_v<F> && !is_cplx_v<T>) cpu::loops::each1_best(dst, src, n, conv);
      else cpu::loops::each1(dst, src, n, conv);
    });
  });
  return out;
}

// A strided copy reading broadcast axes with stride 0.
Array broadcast_to(const Array& x, const Shape& s) {
  if (x.shape() == s) return x;
  const std::size_t r = s.size(), off = r - x.shape().size();
  const Dims xst = strides_of(x.shape());
  Dims st;
  st.resize(r);  // leading (new) axes: stride 0
  for (std::size_t i = 0; i < x.shape().size(); ++i) st[off + i] = x.shape()[i] == 1 ? 0 : xst[i];
  Array out = alloc(s, x.dtype());
  strided_copy(static_cast<unsigned char*>(raw(out)), static_cast<const unsigned char*>(raw(x)), s, st, 0,
               itemsize(x.dtype()));
  return out;
}

Array permute(const Array& x, const Dims& perm) {
  bool identity = true;
  for (std::size_t i = 0; i < perm.size(); ++i) identity &= perm[i] == static_cast<std::int64_t>(i);
  if (identity) return x;
  const Shape& xs = x.shape();
  const Dims st = strides_of(xs);
  Shape os;
  Dims pst;
  bool order_kept = true;  // axes longer than 1 keep their order: the bytes do not move
  std::int64_t last = -1;
  for (auto p : perm) {
    os.push_back(xs[p]);
    pst.push_back(st[p]);
    if (xs[p] > 1) order_kept &= p > last, last = p;
  }
  Array out = alloc(os, x.dtype());
  if (order_kept) {
    if (x.size()) std::memcpy(raw(out), raw(x), static_cast<std::size_t>(x.size()) * itemsize(x.dtype()));
    return out;
  }
  strided_copy(static_cast<unsigned char*>(raw(out)), static_cast<const unsigned char*>(raw(x)), os, pst, 0,
               itemsize(x.dtype()));
  return out;
}

Array contiguous_copy(const Array& x) {
  Array out = alloc(x.shape(), x.dtype());
  if (x.size()) std::memcpy(raw(out), raw(x), static_cast<std::size_t>(x.size()) * itemsize(x.dtype()));
  return out;
}

const Array& axes_to_end_copy(const Array& x, const Dims& axes, Array& moved, std::int64_t* outer,
                              std::int64_t* inner) {
  const std::int64_t r = x.ndim();
  *outer = 1;
  *inner = 1;
  Dims perm;
  for (std::int64_t i = 0; i < r; ++i)
    if (std::find(axes.begin(), axes.end(), i) == axes.end()) {
      perm.push_back(i);
      *outer *= x.shape()[i];
    }
  for (auto a : axes) {
    perm.push_back(a);
    *inner *= x.shape()[a];
  }
  moved = permute(x, perm);
  return moved;
}

// ---------------------------------------------------------------- host services
namespace {
Array from_host(const void* data, const Shape& shape, DType d, Device dev) {
  if (dev.kind != Device::cpu) throw ValueError("[asarray] device " + dev.str() + " is not available on backend xtensor (cpu only)");
  if (d == float16 || d == bfloat16)
    throw NotImplementedError(std::string("[asarray] dtype ") + dtype_name(d) + " is not supported on backend xtensor");
  Array out = alloc(shape, d);
  if (shape.numel()) std::memcpy(raw(out), data, static_cast<std::size_t>(shape.numel()) * itemsize(d));
  return out;
}
void to_host(const Array& x, void* dst) {
  if (x.size()) std::memcpy(dst, raw(x), static_cast<std::size_t>(x.size()) * itemsize(x.dtype()));
}
void* data_ptr(const Array& x) { return raw(x); }
Array wrap(void* data, const Shape& shape, DType d, std::shared_ptr<void> owner) {
  if (d == float16 || d == bfloat16)
    throw NotImplementedError(std::string("[to_backend] dtype ") + dtype_name(d) + " is not supported on backend xtensor");
  return Array(std::make_shared<XtImpl>(shape, d, std::move(owner), data));
}
std::vector<Device> devices() { return {Device{}}; }

const Unsupported kUnsupported[] = {
    {nullptr, float16, "xtensor has no half-precision element type"},
    {nullptr, bfloat16, "xtensor has no bfloat16 element type"},
};

BackendImpl make() {
  BackendImpl b;
  b.name = "xtensor";
  // The kernel table: one entry per ops.def row, each the row's k_ kernel (xt_common.hpp).
#define IVY_OP(name, ...) b.kernels[static_cast<int>(OpId::name)] = &k_##name;
#include "ivy/ops.def"
#undef IVY_OP
  b.unsupported = kUnsupported;
  b.from_host = &from_host;
  b.to_host = &to_host;
  b.data_ptr = &data_ptr;
  b.wrap = &wrap;
  b.seed = &seed_rng;
  b.devices = &devices;
  finalize_backend(b);
  return b;
}
}  // namespace

std::mt19937_64& rng() {
  static std::mt19937_64 g(0x1f2e3d4c5b6a7988ULL);
  return g;
}
std::mutex& rng_mutex() {
  static std::mutex m;
  return m;
}
void seed_rng(std::uint64_t s) {
  std::lock_guard<std::mutex> lock(rng_mutex());
  rng().seed(s);
}

BackendImpl kXtensor = make();

}  // namespace ivy::xtensor_backend

namespace ivy {
void register_xtensor_backend() { register_backend(&xtensor_backend::kXtensor); }
}  // namespace ivy

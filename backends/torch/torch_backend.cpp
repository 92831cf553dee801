// The torch backend: ivy's kernels over LibTorch's at::Tensor (CPU, and CUDA where LibTorch
// was built with it). What computes what:
// - storage: one at::Tensor per array (TorchImpl, torch_common.hpp) of the dtype's storage
//   type (uint16/uint32 widened to int32/int64, uint64 as int64 bits); CPU buffers come from
//   ivy's caching allocator, which keeps freed buffers above 1 MiB for reuse, unless
//   IVY_TORCH_CACHING_ALLOCATOR=0 (torch_allocator.cpp).
// - path: LibTorch's functions through its dispatcher where an input takes part in LibTorch's
//   autograd, below the autograd layer otherwise, and on plain dense CPU tensors (the direct
//   path) LibTorch's exported CPU kernels called straight (Path, torch_common.hpp).
// - elementwise: LibTorch's functions, with ivy's checks and fixes where their values differ
//   from NumPy's (ns_ops.inc); on the direct path ivy's loops where the operands qualify
//   (backends/cpu: npy_kernels for arithmetic, comparisons, predicates, floor_divide,
//   remainder, copysign and shifts; vec_math for float32 pow, hypot, log1p and some
//   transcendental functions) and complex special values from complex_special.hpp; uint64
//   ordering through LibTorch on order-mapped bits, its division, shifts and pow through
//   loops of ivy's (torch_elementwise.cpp).
// - reductions: LibTorch's sum, prod, mean, amax/amin, cumsum, cumprod (var and std from its
//   mean and sum); on the direct path ivy's row loops (backends/cpu/row_kernels) for
//   whole-tensor max, min, argmax, argmin, all and any, and float sums and means over
//   trailing axes (torch_reductions.cpp).
// - linear algebra: LibTorch's matmul/mm and linalg functions (its CPU linear algebra calls
//   LAPACK); on the direct path the CPU kernels under the linalg composites, and LAPACK
//   called directly for eig, eigvals and qr (torch_linalg.cpp, torch_lapack.cpp).
// - fft: LibTorch's fft_fftn, fft_ifftn, fft_rfftn and fft_irfftn (torch_fft.cpp).
// - convolution and pooling: LibTorch's convolution, convolution_backward and
//   max_pool*_with_indices, unequal padding applied beforehand (torch_nn.cpp).
// - random: LibTorch's default CPU generator (at::rand and at::randn in float64,
//   at::randint), scaled by LibTorch's operators or, on the direct path, by one loop of ivy's
//   (torch_creation.cpp).
// - sort, search, sets: LibTorch's sort, searchsorted, _unique2, isin and where (complex and
//   half unique by a stable sort of ivy's); on the direct path ivy's radix and short-row
//   sorts, searchsorted, unique, isin and select loop (backends/cpu/sort_kernels.hpp,
//   cpu_loops.hpp; torch_sort_set.cpp).
// - creation, manipulation, indexing: LibTorch's functions; on the direct path ivy's fill,
//   arange/linspace, eye, flip, roll and concat loops.
// This file holds the host services (copies to and from host memory, zero-copy exchange,
// seeding, devices), the kernel table filled from ops.def, the registration, and
// ivy::torch::wrap/unwrap; the kernels are in the files of their category (torch_common.hpp
// lists them).
#include <ATen/CPUGeneratorImpl.h>

#include <cstring>
#include <limits>
#include <mutex>

#include "torch_common.hpp"

namespace ivy::torch_backend {

at::ScalarType storage_type_unsupported(DType d) {
  throw NotImplementedError(std::string("[torch] dtype ") + dtype_name(d) + " is not supported by LibTorch 1.13");
}
at::Tensor wrap_unsigned_slow(const at::Tensor& t, DType d) {
  if (d == uint16) return at::bitwise_and(t, 0xFFFF);
  return at::bitwise_and(t, static_cast<int64_t>(0xFFFFFFFFLL));
}
at::Tensor u64_to_floating(const at::Tensor& t, at::ScalarType target) {
  // one rounding per element (C's conversion, as NumPy's): float32 directly, the others
  // through float64 (float16/bfloat16 as LibTorch converts a double; complex exactly)
  const at::Tensor c = t.cpu().contiguous();
  const auto* p = reinterpret_cast<const std::uint64_t*>(c.data_ptr<std::int64_t>());
  const std::int64_t n = c.numel();
  at::Tensor r;
  if (target == at::kFloat || target == at::kComplexFloat) {
    r = at::empty(c.sizes(), at::TensorOptions().dtype(at::kFloat));
    auto* o = r.data_ptr<float>();
    for (std::int64_t i = 0; i < n; ++i) o[i] = static_cast<float>(p[i]);
  } else {
    r = at::empty(c.sizes(), at::TensorOptions().dtype(at::kDouble));
    auto* o = r.data_ptr<double>();
    for (std::int64_t i = 0; i < n; ++i) o[i] = static_cast<double>(p[i]);
  }
  if (r.scalar_type() != target) r = r.to(target);
  return t.device().is_cpu() ? r : r.to(t.device());
}
at::Tensor floating_to_u64(const at::Tensor& t) {
  // values below 2^63 convert as to int64 (negative ones wrap, as on NumPy's x86 builds);
  // those at or above it as (x - 2^63) with the top bit set
  const at::Tensor x = (t.is_complex() ? at::real(t) : t).to(at::kDouble);
  constexpr double k2p63 = 9223372036854775808.0;
  const at::Tensor big = at::ge(x, k2p63);
  at::Tensor r = x.to(at::kLong);
  if (at::any(big).item<bool>())
    r = at::where(big, at::bitwise_xor(at::sub(x, k2p63).to(at::kLong), std::numeric_limits<std::int64_t>::min()), r);
  return r;
}
at::Tensor u64_order(const at::Tensor& t) { return at::bitwise_xor(t, std::numeric_limits<std::int64_t>::min()); }

namespace {

// The ivy dtype of a tensor's storage type (the narrowest that reads it unchanged).
DType dtype_of(at::ScalarType s) {
  switch (s) {
    case at::kBool: return bool_;
    case at::kChar: return int8;
    case at::kShort: return int16;
    case at::kInt: return int32;
    case at::kLong: return int64;
    case at::kByte: return uint8;
    case at::kHalf: return float16;
    case at::kBFloat16: return bfloat16;
    case at::kFloat: return float32;
    case at::kDouble: return float64;
    case at::kComplexFloat: return complex64;
    case at::kComplexDouble: return complex128;
    default: throw TypeError(std::string("[torch] unsupported tensor dtype ") + c10::toString(s));
  }
}

// ---- host services
Array from_host(const void* data, const Shape& shape, DType d, Device dev) {
  if (dev.kind != Device::cpu && !at::hasCUDA())
    throw ValueError("[asarray] device " + dev.str() + " is not available on backend torch (LibTorch built without CUDA)");
  auto sizes = to_vector(shape);
  at::Tensor t;
  int64_t n = shape.numel();
  if (d == uint16) {
    auto src = static_cast<const uint16_t*>(data);
    t = at::empty(sizes, at::kInt);
    auto* p = t.data_ptr<int32_t>();
    for (int64_t i = 0; i < n; ++i) p[i] = src[i];
  } else if (d == uint32) {
    auto src = static_cast<const uint32_t*>(data);
    t = at::empty(sizes, at::kLong);
    auto* p = t.data_ptr<int64_t>();
    for (int64_t i = 0; i < n; ++i) p[i] = src[i];
  } else {
    t = at::empty(sizes, tensor_options(d));
    if (n) std::memcpy(t.data_ptr(), data, static_cast<size_t>(n) * itemsize(d));
  }
  if (dev.kind == Device::cuda) t = t.to(at::Device(at::kCUDA, dev.index));
  return make_array(std::move(t), d);
}
void to_host(const Array& x, void* dst) {
  const at::Tensor& src = tensor_of(x);
  if (!widened(x.dtype()) && src.device().is_cpu() && !src.is_contiguous() && src.numel()) {
    // a strided CPU view: one copy straight into dst (contiguous() would copy twice)
    at::from_blob(dst, src.sizes(), src.options().requires_grad(false)).copy_(src);
    return;
  }
  at::Tensor t = src.cpu().contiguous();
  int64_t n = t.numel();
  if (x.dtype() == uint16) {
    auto* p = t.data_ptr<int32_t>();
    auto* o = static_cast<uint16_t*>(dst);
    for (int64_t i = 0; i < n; ++i) o[i] = static_cast<uint16_t>(p[i]);
  } else if (x.dtype() == uint32) {
    auto* p = t.data_ptr<int64_t>();
    auto* o = static_cast<uint32_t*>(dst);
    for (int64_t i = 0; i < n; ++i) o[i] = static_cast<uint32_t>(p[i]);
  } else if (n) {
    std::memcpy(dst, t.data_ptr(), static_cast<size_t>(n) * itemsize(x.dtype()));
  }
}
void* data_ptr(const Array& x) {
  const at::Tensor& t = tensor_of(x);
  if (widened(x.dtype()) || !t.is_contiguous() || t.is_cuda() || t.is_conj() || t.is_neg()) return nullptr;
  if (t.numel() == 0) {  // LibTorch's data pointer is null: any aligned address (nothing is read)
    alignas(16) static unsigned char none[16];
    return none;
  }
  return t.data_ptr();
}
Array wrap(void* data, const Shape& shape, DType d, std::shared_ptr<void> owner) {
  if (widened(d)) {
    return from_host(data, shape, d, Device{});
  }
  auto* keep = new std::shared_ptr<void>(std::move(owner));
  at::Tensor t = at::from_blob(
      data, to_vector(shape), [keep](void*) { delete keep; }, tensor_options(d));
  return make_array(std::move(t), d);
}
void seed(uint64_t s) {
  auto gen = at::detail::getDefaultCPUGenerator();
  std::lock_guard<std::mutex> lock(gen.mutex());
  gen.set_current_seed(s);
}
std::vector<Device> devices() {
  std::vector<Device> d{Device{}};
  if (at::hasCUDA()) d.push_back(Device{Device::cuda, 0});
  return d;
}

const Unsupported kUnsupported[] = {
    {"nextafter", float16, "LibTorch 1.13 has no float16 nextafter kernel on CPU"},
    {"nextafter", bfloat16, "LibTorch 1.13 has no bfloat16 nextafter kernel on CPU"},
};

// The table: k_<op> for every row of ops.def (declared in torch_common.hpp).
BackendImpl make_backend() {
  BackendImpl b;
  b.name = "torch";
#define IVY_OP(name, ...) b.kernels[static_cast<int>(OpId::name)] = &k_##name;
#include "ivy/ops.def"
#undef IVY_OP
  b.unsupported = kUnsupported;
  b.from_host = &from_host;
  b.to_host = &to_host;
  b.data_ptr = &data_ptr;
  b.wrap = &wrap;
  b.seed = &seed;
  b.devices = &devices;
  finalize_backend(b);
  return b;
}

}  // namespace

BackendImpl kTorch = make_backend();

}  // namespace ivy::torch_backend

namespace ivy {

void register_torch_backend() {
  torch_backend::install_caching_allocator();
  register_backend(&torch_backend::kTorch);
}

namespace torch {
Array wrap(const at::Tensor& t) {
  register_torch_backend();
  return torch_backend::make_array(t, torch_backend::dtype_of(t.scalar_type()));
}
at::Tensor unwrap(const Array& a) {
  if (a.impl()->backend != &torch_backend::kTorch)
    throw ValueError(std::string("[torch::unwrap] array lives on backend ") + a.backend().name() + ", not torch");
  return torch_backend::tensor_of(a);
}
at::Tensor to_tensor(const Array& a) {
  if (!a.defined()) throw ValueError("[torch::to_tensor] got an undefined array");
  register_torch_backend();
  return unwrap(a.impl()->backend == &torch_backend::kTorch ? a : to_backend(a, "torch")).clone();
}
Array from_tensor(const at::Tensor& t) { return wrap(t.clone()); }
}  // namespace torch

}  // namespace ivy

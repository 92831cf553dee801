// Internal to the torch backend: how an ivy::Array holds an at::Tensor, the dtype mapping, the
// path a kernel takes through LibTorch, and the declarations of the kernels, one per row of
// ops.def, defined in the files of their category:
//   torch_elementwise.cpp   elementwise (with the direct path's native functions)
//   torch_creation.cpp      creation, tril/triu, astype
//   torch_manipulation.cpp  manipulation (and the view bookkeeping, tracked_view)
//   torch_indexing.cpp      indexing
//   torch_sort_set.cpp      searching, sorting, sets
//   torch_reductions.cpp    reductions
//   torch_linalg.cpp        linear algebra (torch_lapack.cpp: LAPACK for eig, eigvals, qr)
//   torch_fft.cpp           fft
//   torch_backend.cpp       host services, the kernel table, registration, ivy::torch::wrap
//   torch_direct.cpp/.hpp   the direct path: LibTorch's CPU kernels and ivy's own loops
//   torch_native.cpp        the public native namespace ivy::torch (ns_ops.inc)
#pragma once

#include <ATen/ATen.h>
#include <ATen/CompositeExplicitAutogradFunctions.h>
#include <c10/util/Exception.h>
#include <torch/version.h>

#include <cstdint>
#include <exception>
#include <memory>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "handle_cache.hpp"
#include "ivy/attrs.hpp"
#include "ivy/backends/torch.hpp"
#include "ivy/dispatch.hpp"
#include "torch_direct.hpp"

// ---- LibTorch internals: the one switch over them.
// With LibTorch 1.13 the kernels read the thread's dispatch state straight from LibTorch's
// thread_local (c10::impl::raw_local_dispatch_key_set, stored XORed with its defaults), write
// it for their scopes, and register the direct path's views with torch::autograd::as_view
// (tracked_view): internals of that version. Built against another LibTorch, or with
// IVY_TORCH_PUBLIC_API defined (CMake option IVY_TORCH_PUBLIC_API), they use only what
// LibTorch exports for extensions: the state through c10::impl::tls_local_dispatch_key_set()
// (the accessor its own guards use), the scopes through at::AutoDispatchBelowADInplaceOrView /
// at::AutoDispatchBelowAutograd, and views always through the dispatcher. ivy's own loops on
// the direct path run on both, so the results are the same; the portable one costs more per
// call.
#if !defined(IVY_TORCH_PUBLIC_API) && TORCH_VERSION_MAJOR == 1 && TORCH_VERSION_MINOR == 13
#define IVY_TORCH_INTERNALS 1
#else
#define IVY_TORCH_INTERNALS 0
#endif
#include <c10/core/impl/LocalDispatchKeySet.h>

namespace ivy::torch_backend {

extern BackendImpl kTorch;  // torch_backend.cpp

// ---- dtypes
// LibTorch 1.13 has no uint16/uint32/uint64: uint16 and uint32 are stored widened in
// int32/int64 and wrapped back after arithmetic; uint64 is stored in int64 with the unsigned
// bit pattern (the kernels whose int64 result differs from the uint64 one, ordering,
// division, shifts, conversion to floating types, take the unsigned path: u64_* below).
[[noreturn]] at::ScalarType storage_type_unsupported(DType d);
// Storage type of each ivy dtype (DType order).
inline constexpr at::ScalarType kStorage[kNumDTypes] = {
    at::kBool, at::kChar, at::kShort, at::kInt, at::kLong, at::kByte, at::kInt /* uint16 */, at::kLong /* uint32 */,
    at::kLong /* uint64: its bits */, at::kHalf, at::kBFloat16, at::kFloat, at::kDouble, at::kComplexFloat,
    at::kComplexDouble};
inline at::ScalarType storage_type(DType d) { return kStorage[static_cast<int>(d)]; }
inline bool widened(DType d) { return d == uint16 || d == uint32; }
// Wrap a tensor's values into the range of a widened unsigned dtype.
at::Tensor wrap_unsigned_slow(const at::Tensor& t, DType d);
inline at::Tensor wrap_unsigned(at::Tensor t, DType d) {
  if (widened(d)) return wrap_unsigned_slow(t, d);
  return t;
}
// uint64 (torch_backend.cpp): int64 storage holding uint64 bits converted exactly (as C's
// uint64 -> float/double, NumPy's) to the floating or complex storage type `target`; a
// floating/complex tensor converted to uint64 bits (values at or above 2^63 too).
at::Tensor u64_to_floating(const at::Tensor& t, at::ScalarType target);
at::Tensor floating_to_u64(const at::Tensor& t);
// The order-preserving map of uint64 bits to int64 (its own inverse): x ^ 2^63, so that
// LibTorch's signed comparisons, sorts and extremes give the unsigned order.
at::Tensor u64_order(const at::Tensor& t);
// Cast storage to the ivy dtype `d` (a tensor that does not hold uint64 bits).
inline at::Tensor cast(const at::Tensor& t, DType d) {
  auto target = storage_type(d);
  if (d == uint64 && (t.is_floating_point() || t.is_complex())) [[unlikely]]
    return floating_to_u64(t);
  // complex to real keeps the real part (at::real first: LibTorch's own cast does the same
  // but prints a warning)
  at::Tensor r = t.scalar_type() == target ? t
                 : t.is_complex() && !at::isComplexType(target) ? at::real(t).to(target)
                                                                 : t.to(target);
  return widened(d) ? wrap_unsigned(r, d) : r;
}
// Cast storage of ivy dtype `from` to the ivy dtype `d`.
inline at::Tensor cast_from(const at::Tensor& t, DType from, DType d) {
  if (from == uint64 && is_floating(d)) [[unlikely]]
    return u64_to_floating(t, storage_type(d));
  return cast(t, d);
}

// ---- arrays
struct TorchImpl final : ArrayImpl {
  // The shape is read from the tensor's sizes (the base is built before `t` takes t_).
  TorchImpl(at::Tensor&& t_, DType d)
      : ArrayImpl(std::span<const std::int64_t>(t_.sizes().data(), t_.sizes().size()), d,
                  t_.is_cuda() ? Device{Device::cuda, static_cast<int16_t>(t_.get_device())} : Device{}, &kTorch),
        t(std::move(t_)) {}
  at::Tensor t;
};

// The tensor an array of this backend holds.
inline const at::Tensor& tensor_of(const Array& a) { return static_cast<TorchImpl*>(a.impl())->t; }

// Result handles come from a per-thread free list (backends/cpu/handle_cache.hpp): a pointer
// pop instead of a malloc/free pair, the only heap work ivy adds to a LibTorch call. This tag
// names the backend's list (one list for every file of the backend).
struct TorchHandles;

// Every torch array stores its dtype's storage type: a kernel result LibTorch promoted
// (integer sums and products come back int64) is cast here, so no array can carry storage
// of another type than its label.
inline Array handle(at::Tensor&& t, DType d) {
  return Array(std::allocate_shared<TorchImpl>(cpu::handles::Alloc<TorchImpl, TorchHandles>(), std::move(t), d));
}
// An array of dtype d holding t (cast where t's storage type is not d's).
inline Array make_array(at::Tensor t, DType d) {
  if (t.scalar_type() != storage_type(d)) t = cast(t, d);
  return handle(std::move(t), d);
}
// make_array(cast(t, d), d) with one test on the common path: a kernel's fresh result in dtype
// d's storage type (widened unsigned dtypes are also wrapped into their range).
inline Array make_array_cast(at::Tensor&& t, DType d) {
  if (t.scalar_type() != storage_type(d) || widened(d)) t = cast(t, d);
  return handle(std::move(t), d);
}

// An input in dtype d: borrowed (no reference-count traffic) when no cast is needed, else
// the converted tensor, owned. Unlike c10::MaybeOwned, whose operator* on a temporary
// returns a copy (two atomic reference-count updates per input), `*input_as(x, d)` is always
// a reference, valid until the end of the full expression.
class Input {
 public:
  explicit Input(const at::Tensor& borrowed) : p_(&borrowed) {}
  explicit Input(at::Tensor&& owned) : own_(std::move(owned)), p_(&own_) {}
  Input(const Input&) = delete;
  Input& operator=(const Input&) = delete;
  const at::Tensor& operator*() const { return *p_; }
  const at::Tensor* operator->() const { return p_; }

 private:
  at::Tensor own_;
  const at::Tensor* p_;
};
inline Input input_as(const Array& a, DType d) {
  if (a.dtype() == d) return Input(tensor_of(a));
  return Input(cast_from(tensor_of(a), a.dtype(), d));
}
// A kernel `k` of one uint64 input run on its bits mapped by u64_order (labelled int64), so
// that LibTorch's signed order is the unsigned one; the first output mapped back to uint64
// when it holds values (sort, unique, max, min), not when indices (argsort, argmax, argmin).
inline void u64_ordered(void (*k)(const Array*, int, AttrsRef, const OutSpec*, Array*), const Array* in,
                        AttrsRef a, const OutSpec* spec, Array* out, bool values) {
  const Array tmp[1] = {handle(u64_order(tensor_of(in[0])), int64)};
  k(tmp, 1, a, spec, out);
  if (values) out[0] = handle(u64_order(tensor_of(out[0])), uint64);
}
inline at::TensorOptions tensor_options(DType d) { return at::TensorOptions().dtype(storage_type(d)); }
inline std::vector<int64_t> to_vector(const Dims& d) { return {d.begin(), d.end()}; }
// A view of the dims for a LibTorch call made in the same expression (no vector built).
inline c10::IntArrayRef ref(const Dims& d) { return c10::IntArrayRef(d.data(), d.size()); }
inline at::Scalar to_at_scalar(const Scalar& s) {
  switch (s.kind) {
    case Scalar::Bool: return at::Scalar(s.b);
    case Scalar::Int: return at::Scalar(static_cast<int64_t>(s.i));
    case Scalar::Float: return at::Scalar(s.d);
    default: return at::Scalar(c10::complex<double>(s.c.real(), s.c.imag()));
  }
}

// ---- the kernel's path
// How a kernel calls LibTorch for these inputs.
// - autograd: some input takes part in LibTorch's autograd (it has autograd metadata, plain
//   tensors have none, and requires grad or carries a forward-mode tangent): LibTorch's
//   dispatcher as usual, so gradients keep flowing.
// - below_autograd: otherwise LibTorch's autograd kernels would only check, exclude
//   themselves and redispatch: the kernel's LibTorch calls run with those layers excluded,
//   as they would after them (ivy differentiates with its own tape; the results are the same
//   tensors, no grad_fn either way).
// - direct: moreover every input is a dense CPU tensor with no other dispatch keys than a
//   fresh one has (no conjugate/negative bit, not sparse, quantized, named or a wrapper
//   subclass) and the thread's dispatch state is LibTorch's default (no inference mode,
//   autocast, tracer or other thread-local keys): the functions with an exported CPU
//   kernel are called straight (cpu_first, ivy::torch_backend::direct), which is the very
//   kernel the dispatcher would reach after passing the layers that have nothing to do here,
//   without the dispatcher's key computation, profiler check and table lookup.
enum class Path { autograd, below_autograd, direct };
inline constexpr c10::DispatchKeySet kPlainCpu({c10::DispatchKey::CPU, c10::DispatchKey::ADInplaceOrView,
                                                c10::DispatchKey::AutogradCPU, c10::DispatchKey::AutocastCPU});
#if IVY_TORCH_INTERNALS
// LibTorch's thread-local dispatch state (included/excluded keys), looked up once per kernel
// (c10::impl::raw_local_dispatch_key_set: the exported thread_local of LibTorch's Linux
// builds, which its own guards read and write).
using TlsKeys = c10::impl::PODLocalDispatchKeySet;
inline Path path_for(const TlsKeys& tls, const Array* in, int n) {
  // LibTorch stores the sets XORed with its defaults: all zero is the default state.
  bool plain = (tls.included_ | tls.excluded_) == 0;
  for (int i = 0; i < n; ++i) {  // (dispatch gives kernels defined inputs of this backend)
    const c10::TensorImpl* t = tensor_of(in[i]).unsafeGetTensorImpl();
    if (t->autograd_meta() && (t->requires_grad() || tensor_of(in[i])._fw_grad(0).defined())) return Path::autograd;
    plain &= t->key_set() == kPlainCpu;
  }
  return plain ? Path::direct : Path::below_autograd;
}
// Excludes keys from the thread's dispatch for a scope, as c10::impl::ExcludeDispatchKeyGuard
// (behind at::AutoDispatchBelowAutograd and at::AutoDispatchBelowADInplaceOrView) does, on
// the state already looked up.
class ExcludeKeys {
 public:
  ExcludeKeys(TlsKeys& tls, c10::DispatchKeySet keys) : tls_(tls), saved_(tls.excluded_) {
    tls.set_excluded(tls.excluded() | keys);
  }
  ~ExcludeKeys() { tls_.excluded_ = saved_; }
  ExcludeKeys(const ExcludeKeys&) = delete;
  ExcludeKeys& operator=(const ExcludeKeys&) = delete;

 private:
  TlsKeys& tls_;
  std::uint64_t saved_;
};
#else
// The portable path's choice: the same rule, on the state LibTorch's accessor returns.
inline Path path_for(const Array* in, int n) {
  const c10::impl::LocalDispatchKeySet tls = c10::impl::tls_local_dispatch_key_set();
  bool plain = tls.included_ == c10::default_included_set && tls.excluded_ == c10::default_excluded_set;
  for (int i = 0; i < n; ++i) {
    const at::Tensor& t = tensor_of(in[i]);
    if (t.requires_grad() || t._fw_grad(0).defined()) return Path::autograd;
    plain &= t.key_set() == kPlainCpu;
  }
  return plain ? Path::direct : Path::below_autograd;
}
#endif

// Every kernel runs its body inside this, so that LibTorch's errors become ivy errors ("[op]
// backend torch: ..."), on the path above. The body takes a bool `direct`: whether to call
// the direct path's functions (it runs below autograd either way, for the LibTorch calls
// that have no CPU entry point). Kernels returning views of an input (ReturnsView) keep the
// view bookkeeping layer (ADInplaceOrView) on the dispatcher path, so LibTorch still knows
// them as views; on the direct path they do that layer's work themselves (tracked_view). The
// others skip it as LibTorch's autograd kernels do before calling the backend.
template <bool ReturnsView, class F>
void run_on_path(const char* op, const Array* in, int n, F&& body) {
  try {
#if IVY_TORCH_INTERNALS
    // One lookup of the thread-local address (__tls_get_addr from this library): the empty
    // asm keeps the compiler from recomputing it at each use.
    TlsKeys* tls_addr = &c10::impl::raw_local_dispatch_key_set;
    asm("" : "+r"(tls_addr));
    TlsKeys& tls = *tls_addr;
    const Path p = path_for(tls, in, n);
    if (p == Path::autograd) {
      body(false);
    } else if constexpr (ReturnsView) {
      if (p == Path::direct) {  // the view kernel itself, registered as a view (tracked_view)
        ExcludeKeys below_views(tls, c10::autograd_dispatch_keyset_with_ADInplaceOrView);
        body(true);
      } else {
        ExcludeKeys below_autograd(tls, c10::autograd_dispatch_keyset);
        body(false);
      }
    } else {
      ExcludeKeys below_autograd_and_views(tls, c10::autograd_dispatch_keyset_with_ADInplaceOrView);
      body(p == Path::direct);
    }
#else
    const Path p = path_for(in, n);
    if (p == Path::autograd) {
      body(false);
    } else if constexpr (ReturnsView) {  // through the view layer: LibTorch records the view
      at::AutoDispatchBelowAutograd below_autograd;
      body(false);
    } else {
      at::AutoDispatchBelowADInplaceOrView below_autograd_and_views;
      body(p == Path::direct);
    }
#endif
  } catch (const Error&) {
    throw;
  } catch (const c10::Error& e) {
    throw Error(std::string("[") + op + "] backend torch: " + e.what_without_backtrace());
  } catch (const std::exception& e) {
    throw Error(std::string("[") + op + "] backend torch: " + e.what());
  }
}
// run_on_path for a kernel whose results are new tensors / may be views of its input.
template <class F>
void run_kernel(const char* op, const Array* in, int n, F&& body) {
  run_on_path<false>(op, in, n, body);
}
template <class F>
void run_view_kernel(const char* op, const Array* in, int n, F&& body) {
  run_on_path<true>(op, in, n, body);
}

// A view of `base` computed on the direct path by the view function's CompositeExplicitAutograd
// kernel (below the view layer, where that layer calls it), registered as LibTorch's view
// bookkeeping layer (ADInplaceOrView) registers its result for a dense CPU base: the view
// records its base and the grad mode it was made in and shares the base's version counter,
// so in-place changes through either are seen by LibTorch's autograd as with its own views.
// (torch_manipulation.cpp)
at::Tensor tracked_view(const at::Tensor& base, const at::Tensor& v);

// Makes LibTorch's CPU allocator keep freed buffers above 1 MiB for reuse (once per process;
// torch_allocator.cpp).
void install_caching_allocator();

// ---- the kernels: k_<op> for every row of ops.def (torch_backend.cpp puts them in the
// table; one that is not defined fails the link)
#define IVY_OP(name, ...) void k_##name(const Array* in, int n, AttrsRef a, const OutSpec* spec, Array* out);
#include "ivy/ops.def"
#undef IVY_OP

// The three macros the kernel files share.
// TORCH_KERNEL(name) { ... }: the definition of k_<name>, with the table's parameters: the
//   inputs `in` (`n` of them), the attributes `a`, the output specs `spec` and the outputs
//   `out`.
#define TORCH_KERNEL(name)                                                                             \
  void k_##name([[maybe_unused]] const Array* in, [[maybe_unused]] int n, [[maybe_unused]] AttrsRef a, \
                [[maybe_unused]] const OutSpec* spec, Array* out)
// ATEN_CALL(fn, args...): LibTorch's function `fn` on the kernel's path, in a body run by
//   run_kernel (it reads the body's `direct`): its CPU kernel where cpu_first has one on the
//   direct path, else at::fn through the dispatcher.
#define ATEN_CALL(fn, ...) \
  (direct ? ::ivy::torch_backend::cpu_first::fn(__VA_ARGS__) : ::at::fn(__VA_ARGS__))
// VIEW_CALL(fn, x, args...): the view method x.fn(args...) on the kernel's path, in a body run
//   by run_view_kernel: on the direct path the CompositeExplicitAutograd kernel, registered
//   as a view of x (tracked_view).
#define VIEW_CALL(fn, x, ...)                                                                  \
  (direct ? ::ivy::torch_backend::tracked_view(x, ::at::compositeexplicitautograd::fn(x, __VA_ARGS__)) \
          : (x).fn(__VA_ARGS__))

}  // namespace ivy::torch_backend

// The op table, the backend interface derived from it, and the one dispatch point.
#pragma once

#include <functional>
#include <span>

#include "ivy/array.hpp"
#include "ivy/attrs.hpp"

namespace ivy {

enum class OpId : std::uint16_t {
#define IVY_OP(name, nin, nout, meta, kinds, props, attrs) name,
#include "ivy/ops.def"
#undef IVY_OP
  kCount
};
inline constexpr int kNumOps = static_cast<int>(OpId::kCount);

// What dispatch infers before calling a kernel. known=false: data dependent dims.
struct OutSpec {
  Shape shape;
  DType dtype = DType::float32;
  bool known = true;
};

// The most outputs a primitive has. A primitive whose count is data dependent (n_out = -1 in
// ops.def: nonzero) has at most as many as its first input has axes.
inline constexpr int kMaxOutputs = kMaxRank;

// meta: validates inputs (throwing ivy errors that start with "[op]") and fills the
// output specs; returns how many outputs the op produces.
using MetaFn = int (*)(const char* op, const Array* in, int n_in, AttrsRef a, OutSpec* out);
// kernel: computes outputs; must produce exactly the dtypes and (known) shapes given. Inputs
// may be borrowed (non-owning) handles: a kernel must not keep an input handle, or an
// output sharing an input's impl, past the call (copy the data or hold the buffer instead).
using Kernel = void (*)(const Array* in, int n_in, AttrsRef a, const OutSpec* spec, Array* out);

// The dtype kinds a primitive accepts, as a bit mask over these four.
enum KindMask : std::uint8_t { kBoolKind = 1, kIntegerKind = 2, kRealFloating = 4, kComplexKind = 8 };
inline constexpr std::uint8_t kAnyKind = 15, kNumeric = 14, kRealNumeric = 6, kIntegerOrBool = 3, kInteger = 2,
                              kFloating = 12;

// Per-primitive properties (ops.def explains each); a row's props are an OR of these.
enum OpProps : std::uint8_t {
  kNoProps = 0,
  kElementwise = 1,
  kView = 2,
  kDifferentiable = 4,
  kRandom = 8,
  kDataDependentShape = 16,
  kFreshResult = 32,
};

struct OpInfo {
  const char* name;
  int n_in;
  int n_out;
  MetaFn meta;
  std::uint8_t kinds;
  std::uint8_t props;
  const char* attr_set;       // the name of its attribute set in ops.def
  AttrSet set;                // that set
  const AttrField* attrs;     // its fields, ending with a field named nullptr
  bool has(OpProps p) const { return (props & p) != 0; }
};
const OpInfo& op_info(OpId op);
OpId op_from_name(std::string_view name);  // throws ValueError
// The primitive's attributes by name: "axis=0, descending=false, stable=true".
std::string attrs_str(OpId op, AttrsRef a);

// One entry a backend cannot do: op (nullptr = every op) on dtype, and why.
struct Unsupported {
  const char* op;
  DType dtype;
  const char* why;
};

// The Backend interface: a kernel table (indexed by OpId) plus host services.
struct BackendImpl {
  const char* name = "";
  Kernel kernels[kNumOps] = {};
  std::span<const Unsupported> unsupported;
  // Bit d set when dtype d appears in `unsupported` (filled by finalize_backend): lets
  // dispatch skip the list in the common case.
  std::uint16_t unsupported_mask = 0;
  // Create an array by copying contiguous row-major host data of dtype d.
  Array (*from_host)(const void* data, const Shape& shape, DType d, Device dev) = nullptr;
  // Copy x (any layout) to contiguous row-major host memory in x.dtype().
  void (*to_host)(const Array& x, void* dst) = nullptr;
  // Zero-copy exchange: a pointer to x's contiguous CPU data (nullptr if not possible),
  // and wrapping foreign CPU memory kept alive by `owner`.
  void* (*data_ptr)(const Array& x) = nullptr;
  Array (*wrap)(void* data, const Shape& shape, DType d, std::shared_ptr<void> owner) = nullptr;
  void (*seed)(std::uint64_t s) = nullptr;
  std::vector<Device> (*devices)() = nullptr;
};

// Fills derived fields (unsupported_mask); every backend calls it once when built.
void finalize_backend(BackendImpl& b);

// True if `backend` lists (op, dtype) as unsupported (op may be a public function name).
bool is_unsupported(Backend backend, std::string_view op, DType dtype);
// Throws NotImplementedError("[op] ... not supported on backend ...") when listed.
void check_supported(Backend backend, const char* op, DType dtype);

// ---- backend registry and choice
void register_backend(const BackendImpl* b);
std::vector<Backend> available_backends();
Backend get_backend(std::string_view name);  // throws ValueError listing the built ones
void set_backend(Backend b);                   // global (thread-local) setting
void unset_backend();
Backend current_backend();                     // scope > global > default
Backend default_backend();                     // xtensor when built, else the first one

// The paper's `with` block: RAII, innermost wins, thread-local.
class BackendScope {
 public:
  explicit BackendScope(Backend b);
  ~BackendScope();
  BackendScope(const BackendScope&) = delete;
  BackendScope& operator=(const BackendScope&) = delete;

 private:
  Backend prev_;
};

// Move/convert an array to another backend (zero-copy for contiguous CPU data).
Array to_backend(const Array& x, Backend b);

// ---- the one dispatch point
// Resolves the backend (explicit > inputs > scope > global > default), validates and
// infers outputs via meta, calls the kernel, then notifies this thread's observers.
Array dispatch(OpId op, std::span<const Array> in, AttrsRef a, Backend explicit_backend = {});
std::vector<Array> dispatch_multi(OpId op, std::span<const Array> in, AttrsRef a, Backend explicit_backend = {});
// A primitive with a fixed number of outputs, written into out[0 .. n_out) (no result
// vector); throws if out has fewer slots than the primitive's outputs. Returns n_out.
int dispatch_into(OpId op, std::span<const Array> in, AttrsRef a, std::span<Array> out, Backend explicit_backend = {});
inline Array dispatch(OpId op, std::initializer_list<Array> in, AttrsRef a, Backend b = {}) {
  return dispatch(op, std::span<const Array>(in.begin(), in.size()), a, b);
}
inline Array dispatch(OpId op, const Array& x, AttrsRef a, Backend b = {}) {
  return dispatch(op, std::span<const Array>(&x, 1), a, b);
}

// Observers of dispatch: tracers, gradient tapes, profilers. Each thread has its own stack of
// them; every primitive call that completes is reported to every observer on the calling
// thread's stack, innermost (most recently pushed) first, after its kernel has run. With no
// observer anywhere, dispatch pays one relaxed load of a global counter.
class DispatchObserver {
 public:
  virtual ~DispatchObserver() = default;
  virtual void on_dispatch(OpId op, std::span<const Array> in, AttrsRef a, std::span<const Array> out) = 0;
  DispatchObserver* below() const { return below_; }  // the next one down the stack

 private:
  friend class ObserverScope;
  DispatchObserver* below_ = nullptr;  // the next observer down this thread's stack
};

// Pushes an observer on this thread's stack for the scope's lifetime. Scopes nest; one
// observer may be on the stack once at a time (pushing it twice throws ValueError).
class ObserverScope {
 public:
  explicit ObserverScope(DispatchObserver& o);
  ~ObserverScope();
  ObserverScope(const ObserverScope&) = delete;
  ObserverScope& operator=(const ObserverScope&) = delete;

 private:
  DispatchObserver& o_;
};
// The innermost observer of this thread (nullptr when none), and how many are stacked.
DispatchObserver* innermost_observer();
int observer_depth();

}  // namespace ivy

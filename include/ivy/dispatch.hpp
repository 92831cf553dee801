// The op table, the backend interface derived from it, and the one dispatch point.
#pragma once

#include <functional>
#include <span>

#include "ivy/array.hpp"

namespace ivy {

enum class OpId : std::uint16_t {
#define IVY_OP(name, nin, nout, meta, kinds) name,
#include "ivy/ops.def"
#undef IVY_OP
  kCount
};
inline constexpr int kNumOps = static_cast<int>(OpId::kCount);

// Primitive attributes. Which field means what is written next to each row of ops.def.
struct Attrs {
  Dims axes, ints, ints2, ints3;
  Scalar s0, s1, s2;
  std::int64_t i0 = 0, i1 = 0, i2 = 0;
  double f0 = 0;
  DType dtype = DType::float32;
  bool has_dtype = false;
  bool has_axes = false;
  bool b0 = false, b1 = false;
  friend bool operator==(const Attrs&, const Attrs&) = default;
};
std::string attrs_str(OpId op, const Attrs& a);

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
using MetaFn = int (*)(const char* op, const Array* in, int n_in, const Attrs& a, OutSpec* out);
// kernel: computes outputs; must produce exactly the dtypes and (known) shapes given. Inputs
// may be borrowed (non-owning) handles: a kernel must not keep an input handle, or an
// output sharing an input's impl, past the call (copy the data or hold the buffer instead).
using Kernel = void (*)(const Array* in, int n_in, const Attrs& a, const OutSpec* spec, Array* out);

enum KindMask : std::uint8_t { K_B = 1, K_I = 2, K_F = 4, K_C = 8 };
inline constexpr std::uint8_t K_ANY = 15, K_NUM = 14, K_REALNUM = 6, K_INTB = 3, K_INT = 2, K_FC = 12;

struct OpInfo {
  const char* name;
  int n_in;
  int n_out;
  MetaFn meta;
  std::uint8_t kinds;
};
const OpInfo& op_info(OpId op);
OpId op_from_name(std::string_view name);  // throws ValueError

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
// infers outputs via meta, records a node when a tracer is active, calls the kernel.
Array dispatch(OpId op, std::span<const Array> in, const Attrs& a, Backend explicit_backend = {});
std::vector<Array> dispatch_multi(OpId op, std::span<const Array> in, const Attrs& a, Backend explicit_backend = {});
// A primitive with a fixed number of outputs, written into out[0 .. n_out) (no result
// vector); throws if out has fewer slots than the primitive's outputs. Returns n_out.
int dispatch_into(OpId op, std::span<const Array> in, const Attrs& a, std::span<Array> out, Backend explicit_backend = {});
inline Array dispatch(OpId op, std::initializer_list<Array> in, const Attrs& a, Backend b = {}) {
  return dispatch(op, std::span<const Array>(in.begin(), in.size()), a, b);
}
inline Array dispatch(OpId op, const Array& x, const Attrs& a, Backend b = {}) {
  return dispatch(op, std::span<const Array>(&x, 1), a, b);
}

// Tracing hook: one thread-local pointer, checked once per dispatch.
class TraceRecorder {
 public:
  virtual ~TraceRecorder() = default;
  virtual void record(OpId op, std::span<const Array> in, const Attrs& a, std::span<const Array> out) = 0;
};
TraceRecorder* active_recorder();
void set_active_recorder(TraceRecorder* r);

}  // namespace ivy

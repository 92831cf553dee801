// Kernels made ready once for a compiled graph, reading and writing channels-last
// activations ([N, *S, C] in memory for the logical [N, C, *S]), the layout oneDNN's
// convolutions read and write without a reorder:
// - a float32 convolution: its weights (with any per-channel scale already folded in)
//   reordered into the layout the chosen kernel reads, its bias added by the same kernel.
//   (No activation is fused: oneDNN's relu and clip turn NaN into a number, eager ivy's keep
//   it.)
// - a float32 max pool (values only), NaN-propagating as the eager kernels.
// - a float32 matmul of [..., K] by a captured [K, N] weight (row-major in and out): the
//   weight reordered once, a bias added by the same kernel.
// Implemented over oneDNN (backends/cpu/dnnl_prepared.cpp) when the build has it; the make_
// functions return nullptr otherwise. Internal to libivy; no oneDNN type leaks here.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ivy/core.hpp"

namespace ivy::prepared {

struct ConvSpec {
  Shape x, w, y;                         // [N, C, *S], [O, C/groups, *K], [N, O, *S']
  std::vector<std::int64_t> strides;     // per spatial axis
  std::vector<std::int64_t> dilations;   // per spatial axis, 1 = dense (ivy's convention)
  std::vector<std::int64_t> pad_lo, pad_hi;
  std::int64_t groups = 1;
  std::vector<float> weights;            // w's elements, row-major
  std::vector<float> bias;               // O values, or empty
};

// Window maxima over [N, C, *S]; taps in the padding are never selected (a window wholly in
// the padding gives -inf), a NaN in a window gives NaN.
struct MaxPoolSpec {
  Shape x, y;
  std::vector<std::int64_t> window, strides, dilations, pad_lo;  // per spatial axis
};

// x [..., K] @ w [K, N] + bias [N] -> [..., N]
struct MatmulSpec {
  Shape x, y;
  std::int64_t k = 0, n = 0;
  std::vector<float> weights;  // [K, N] row-major
  std::vector<float> bias;     // N values, or empty
};

class Kernel {
 public:
  virtual ~Kernel() = default;
  // The layouts it reads and writes: channels-last (convolutions, pools) or row-major.
  virtual bool channels_last() const { return true; }
  // Host bytes a run needs in `scratch` (a row-major input in channels-last, oneDNN's
  // scratchpad).
  virtual std::size_t scratch_bytes() const = 0;
  // y (channels-last) from x (row-major, or channels-last when x_channels_last); row-major
  // kernels read and write row-major only. Safe to call from several threads at once with
  // distinct x, y and scratch.
  virtual void run(const float* x, bool x_channels_last, float* y, void* scratch) const = 0;
  // What runs, for plans and tests ("conv brgconv:avx512_core", "max_pool").
  virtual std::string name() const = 0;
};

// Copies an array of logical shape [N, C, *S] from channels-last to row-major.
class ToRowMajor {
 public:
  virtual ~ToRowMajor() = default;
  virtual void run(const float* channels_last, float* row_major) const = 0;
};

// nullptr when no prepared kernel exists for the spec (no oneDNN in the build, or oneDNN
// offers only its reference implementation for it).
std::unique_ptr<Kernel> make_conv(const ConvSpec& spec);
std::unique_ptr<Kernel> make_max_pool(const MaxPoolSpec& spec);
std::unique_ptr<Kernel> make_matmul(const MatmulSpec& spec);
// nullptr without oneDNN (then no make_ function gives a kernel either).
std::unique_ptr<ToRowMajor> make_to_row_major(const Shape& shape);
// True when the build can prepare kernels at all.
bool available();

}  // namespace ivy::prepared

// A float32 convolution made ready once for a compiled graph: its weights (with any
// per-channel scale already folded in) reordered into the layout the chosen kernel reads and
// its bias added by the same kernel, so that a run converts only the activations. (No
// activation is fused: oneDNN's relu and clip turn NaN into a number, eager ivy's keep it.)
// Implemented over oneDNN (backends/cpu/dnnl_prepared_conv.cpp) when the build has it;
// make_conv returns nullptr otherwise. Internal to libivy; no oneDNN type leaks here.
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

// Values between prepared convolutions stay channels-last ([N, *S, C] in memory for the
// logical [N, C, *S]), the layout oneDNN's kernels read and write without a reorder.
class Conv {
 public:
  virtual ~Conv() = default;
  // Host bytes a run needs in `scratch` (a plain input in the kernel's layout, oneDNN's
  // scratchpad).
  virtual std::size_t scratch_bytes() const = 0;
  // y (channels-last, spec.y) = conv(x (spec.x, row-major or channels-last), weights) + bias.
  // Safe to call from several threads at once with distinct x, y and scratch.
  virtual void run(const float* x, bool x_channels_last, float* y, void* scratch) const = 0;
  // The kernel chosen, for plans and tests.
  virtual std::string kernel_name() const = 0;
};

// Copies an array of logical shape [N, C, *S] from channels-last to row-major.
class ToRowMajor {
 public:
  virtual ~ToRowMajor() = default;
  virtual void run(const float* channels_last, float* row_major) const = 0;
};

// nullptr when no prepared kernel exists for the spec (no oneDNN in the build, or oneDNN
// offers only its reference implementation for it).
std::unique_ptr<Conv> make_conv(const ConvSpec& spec);
// nullptr without oneDNN (then no make_conv gives a kernel either).
std::unique_ptr<ToRowMajor> make_to_row_major(const Shape& shape);
// True when the build can prepare convolutions at all.
bool available();

}  // namespace ivy::prepared

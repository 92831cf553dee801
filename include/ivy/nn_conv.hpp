// ivy::nn: linear layers, convolutions and pooling, on every backend and differentiable
// through ivy's autodiff (src/nn/conv.cpp over the conv, conv_transpose, conv_weight_grad
// and max_pool primitives).
//
// Layouts: inputs are channels-first, [N, C, *spatial] (NCW, NCHW, NCDHW), or channels-last,
// [N, *spatial, C], with channels_last = true; 1 to 3 spatial axes. Weights keep one layout
// in both: [O, C/groups, *kernel] for convolutions and [C_in, C_out/groups, *kernel] for
// transposed convolutions (LibTorch's), so a model switches layout without touching weights.
// Per-axis arguments (strides, dilations, windows) take one value for every spatial axis or
// one per axis.
#pragma once

#include <concepts>
#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

#include "ivy/array.hpp"

namespace ivy::nn {

// A convolution's or pool's padding: "VALID" (none), "SAME" (the output has ceil(L / stride)
// positions; the odd element goes after, as TensorFlow and ONNX SAME_UPPER do), the same
// amount before and after every axis, one amount per axis, or (before, after) per axis.
class Padding {
 public:
  Padding() = default;
  template <std::integral I>
  Padding(I all) : kind_(Kind::Explicit), all_(static_cast<std::int64_t>(all)) {}  // NOLINT: Padding p = 1
  Padding(Dims per_axis) : kind_(Kind::PerAxis), per_axis_(per_axis) {}  // NOLINT
  Padding(std::vector<std::pair<std::int64_t, std::int64_t>> before_after)  // NOLINT
      : kind_(Kind::BeforeAfter), before_after_(std::move(before_after)) {}
  Padding(std::string_view name);  // NOLINT: "SAME" or "VALID" (case-insensitive)
  Padding(const char* name) : Padding(std::string_view(name)) {}  // NOLINT
  static Padding same() { return Padding("SAME"); }
  static Padding valid() { return Padding(); }

  // The padding before each axis, then after each (the primitives' form), for windows of
  // `span` elements (dilated) moving by `strides` over spatial sizes `sizes`.
  Dims resolve(const char* op, const Dims& sizes, const Dims& spans, const Dims& strides) const;
  bool is_same() const { return kind_ == Kind::Same; }

 private:
  enum class Kind { Explicit, PerAxis, BeforeAfter, Same };
  Kind kind_ = Kind::Explicit;
  std::int64_t all_ = 0;
  Dims per_axis_;
  std::vector<std::pair<std::int64_t, std::int64_t>> before_after_;
};

// x @ w^T + b with w [out, in] (LibTorch's layout) and b [out] (optional).
Array linear(const Array& x, const Array& w, const Array& b = Array());

struct ConvOptions {
  Dims strides = {1};
  Padding padding = 0;
  Dims dilations = {1};
  std::int64_t groups = 1;
  bool channels_last = false;
};
// A cross-correlation (as LibTorch's conv): x [N, C, *S] (or [N, *S, C]), w [O, C/groups, *K],
// bias [O] (optional) -> [N, O, *S'] (or [N, *S', O]).
Array conv(const Array& x, const Array& w, const Array& bias = Array(), const ConvOptions& options = {});
// conv checking the spatial rank (1, 2 or 3).
Array conv1d(const Array& x, const Array& w, const Array& bias = Array(), const ConvOptions& options = {});
Array conv2d(const Array& x, const Array& w, const Array& bias = Array(), const ConvOptions& options = {});
Array conv3d(const Array& x, const Array& w, const Array& bias = Array(), const ConvOptions& options = {});
// depthwise: groups = channels, w [C * multiplier, 1, *K]
Array depthwise_conv2d(const Array& x, const Array& w, const Array& bias = Array(), ConvOptions options = {});

struct ConvTransposeOptions {
  Dims strides = {1};
  Dims padding = {0};         // symmetric, per axis (LibTorch's)
  Dims output_padding = {0};  // added after each axis, < stride
  Dims dilations = {1};
  std::int64_t groups = 1;
  bool channels_last = false;
};
// The transposed convolution (LibTorch's conv_transpose): x [N, C_in, *S], w [C_in,
// C_out/groups, *K] -> [N, C_out, (S-1)*stride - 2*padding + dilation*(K-1) + output_padding + 1].
Array conv_transpose(const Array& x, const Array& w, const Array& bias = Array(),
                     const ConvTransposeOptions& options = {});
Array conv_transpose1d(const Array& x, const Array& w, const Array& bias = Array(),
                       const ConvTransposeOptions& options = {});
Array conv_transpose2d(const Array& x, const Array& w, const Array& bias = Array(),
                       const ConvTransposeOptions& options = {});
Array conv_transpose3d(const Array& x, const Array& w, const Array& bias = Array(),
                       const ConvTransposeOptions& options = {});

struct PoolOptions {
  Dims strides = {};  // empty: the window
  Padding padding = 0;
  Dims dilations = {1};   // max pooling only
  bool ceil_mode = false;  // LibTorch's: a last, partial window when it starts inside the input
  bool count_include_pad = true;  // average pooling: padding counts in the divisor
  bool channels_last = false;
};
// Window maxima (padding never wins).
Array max_pool(const Array& x, const Dims& window, const PoolOptions& options = {});
Array max_pool1d(const Array& x, const Dims& window, const PoolOptions& options = {});
Array max_pool2d(const Array& x, const Dims& window, const PoolOptions& options = {});
Array max_pool3d(const Array& x, const Dims& window, const PoolOptions& options = {});
// The maxima and their flat positions in x (int64).
std::pair<Array, Array> max_pool_with_indices(const Array& x, const Dims& window, const PoolOptions& options = {});
// Window means, LibTorch's divisor rules (count_include_pad, ceil_mode).
Array avg_pool(const Array& x, const Dims& window, const PoolOptions& options = {});
Array avg_pool1d(const Array& x, const Dims& window, const PoolOptions& options = {});
Array avg_pool2d(const Array& x, const Dims& window, const PoolOptions& options = {});
Array avg_pool3d(const Array& x, const Dims& window, const PoolOptions& options = {});
// Means over output_size bins per spatial axis (bin i covers [floor(i*L/n), ceil((i+1)*L/n))).
Array adaptive_avg_pool(const Array& x, const Dims& output_size, bool channels_last = false);

// Adds values into a copy of x at flat positions (repeats accumulate): the scatter-add
// primitive, differentiable in x and values.
Array scatter_add_flat(const Array& x, const Array& positions, const Array& values);

}  // namespace ivy::nn

// ivy::nn padding and interpolation, written with ivy:: array functions only: they run on
// every backend, and ivy's autodiff differentiates them (through take, concat, slicing and
// matmul).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ivy/functional.hpp"

namespace ivy::nn {

// ---------------------------------------------------------------- pad
// pad(x, pads, mode, value) as torch.nn.functional.pad: `pads` lists (before, after) pairs
// starting from the LAST axis and going backwards, {l_last, r_last, l_prev, r_prev, ...};
// it has an even length of at most 2 * x.ndim(). Axes it does not name are left alone.
// Modes:
//   "constant"   fill with `value` (cast to x's dtype)
//   "reflect"    mirror without repeating the edge: [a b c d], 2 before -> c b a b c d
//                (a pad must be < the axis size)
//   "replicate"  repeat the edge element: a a a b c d
//   "circular"   wrap around: c d a b c d (a pad must be <= the axis size left after cropping)
// A negative pad crops that many elements from that side, in every mode. As in torch,
// reflect and replicate pad first and crop afterwards (the reflection is about the original
// edge), circular crops first and wraps the cropped axis; the result size of an axis,
// size + before + after, must be >= 0 (> 0 in reflect and replicate mode). `value` belongs
// to constant mode: another mode with a nonzero value is an error, as in torch.
// Unlike torch, the non-constant modes take any rank (torch asks for a batch axis and
// pads at most the last three axes); every mode pads any number of trailing axes.
// Errors: ValueError "[nn.pad] ..." naming the shape and the pads.
Array pad(const Array& x, const std::vector<std::int64_t>& pads, std::string_view mode = "constant",
          double value = 0.0);

// The same with one (before, after) pair per axis, in axis order (NumPy's pad_width):
// pad_axes(x, {{0, 0}, {1, 2}}) pads axis 1 of a matrix by 1 before and 2 after. Fewer
// pairs than axes pad the LEADING axes; the others stay as they are.
Array pad_axes(const Array& x, const std::vector<std::pair<std::int64_t, std::int64_t>>& pad_width,
               std::string_view mode = "constant", double value = 0.0);

// ---------------------------------------------------------------- interpolate
// interpolate as torch.nn.functional.interpolate (PyTorch 1.13, antialias=false) over the
// spatial axes of an input [N, C, d1, ..., dk], k = 1, 2 or 3:
//   size:          the output size of every spatial axis (one entry: the same for all), or
//   scale_factor:  output size = floor(input size * factor) per axis (one entry: all axes);
//                  exactly one of the two is given.
//   mode:          "nearest" (source index floor(dst * in/out), torch's legacy nearest),
//                  "nearest-exact" (floor((dst + 0.5) * in/out)), "area" (adaptive average
//                  pooling), "linear" (k = 1), "bilinear" (k = 2), "bicubic" (k = 2; cubic
//                  convolution with A = -0.75, border indices clamped), "trilinear" (k = 3).
//   align_corners: for the linear modes and bicubic (default false); must be absent for the
//                  others, as in torch.
//   recompute_scale_factor: with scale_factor, compute the sampling grid from the integer
//                  output size instead of the factor (torch's recompute_scale_factor=True).
// When a scale factor is given (and not recomputed) the sampling step is 1/factor, not
// in/out, as in torch, and the linear modes copy an axis whose size does not change (torch
// does too). Indices and weights are computed in the precision torch's CPU kernels use
// (float for float32 input, double for float64). The nearest modes follow torch's generic
// kernel, the one a contiguous input with C > 1 takes; torch's channels-last kernel (which
// also serves C == 1) copies an axis whose size a factor such as 1.1 leaves unchanged and
// maps out = 2 * in to dst / 2, so for such factors torch's C == 1 results differ from
// its own C > 1 results, and ivy gives the latter.
// Every mode is a linear map per spatial axis, so the implementation builds a small
// [out, in] weight matrix per axis on the host (torch's index and weight rules, computed in
// double) and applies it with one matmul per axis: no integer gathers, exact torch weights,
// and the gradient is the transposed matrix for free (ivy differentiates matmul). The
// matrices are dense: O(in * out) memory and work per axis line instead of a gather's
// O(out * taps), which is cheap for feature-map sizes (hundreds of pixels per axis).
// Integer inputs are not accepted (TypeError): interpolation needs a floating dtype.
struct InterpolateOptions {
  std::vector<std::int64_t> size;      // empty: use scale_factor
  std::vector<double> scale_factor;    // empty: use size
  std::string mode = "nearest";
  std::optional<bool> align_corners;
  bool recompute_scale_factor = false;
};
Array interpolate(const Array& x, const InterpolateOptions& options);
// interpolate(x, {8, 6}, "bilinear") : by output size
Array interpolate(const Array& x, const std::vector<std::int64_t>& size, std::string_view mode = "nearest",
                  std::optional<bool> align_corners = std::nullopt);
// interpolate_scale(x, {2.0}, "bicubic", true) : by scale factor
Array interpolate_scale(const Array& x, const std::vector<double>& scale_factor, std::string_view mode = "nearest",
                        std::optional<bool> align_corners = std::nullopt, bool recompute_scale_factor = false);

}  // namespace ivy::nn

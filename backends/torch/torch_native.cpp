// The torch backend's native namespace, ivy::torch (include/ivy/backends/torch.hpp): ivy's
// functions on LibTorch's own at::Tensor, through LibTorch's dispatcher, so that LibTorch's
// autograd keeps working through them. The elementwise functions are ns_ops.inc's, compiled
// here with aten = ::at (the same file, compiled with LibTorch's CPU kernels, is the kernels'
// direct path: torch_elementwise.cpp).
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <type_traits>

#include "cpu_isa.hpp"
#include "ivy/backends/torch.hpp"
#include "npy_kernels.hpp"
#include "torch_direct.hpp"
#include "vec_math.hpp"

namespace ivy::torch {

namespace aten = ::at;
constexpr bool kDirectPath = false;
// The scans ns_ops.inc calls (has_nan, ...) and the direct path's loops it names.
using namespace ::ivy::torch_backend;
#include "ns_ops.inc"

at::Tensor clip(const at::Tensor& x, std::optional<double> min, std::optional<double> max) {
  return at::clamp(x, min ? c10::optional<at::Scalar>(*min) : c10::nullopt,
                   max ? c10::optional<at::Scalar>(*max) : c10::nullopt);
}

}  // namespace ivy::torch

// The torch backend's framework-specific namespace: ivy functions on LibTorch's own
// at::Tensor, no wrapping. Opt-in header (it pulls in ATen); link ivy::torch.
// LibTorch's autograd keeps working through these calls: they are ATen calls.
#pragma once

#include <ATen/ATen.h>

#include "ivy/ivy.hpp"

namespace ivy::torch {

// Zero-copy bridges between at::Tensor and ivy::Array (on the torch backend). Both sides then
// share one buffer: an in-place write into the tensor (unwrap(a).mul_(10), or t.add_(1) after
// wrap(t)) changes every array on that buffer, including one that to_backend moved zero-copy
// (docs/semantics.md, "Aliasing"). Use them to read, and for LibTorch's autograd.
Array wrap(const at::Tensor& t);
at::Tensor unwrap(const Array& a);  // throws if `a` is not on the torch backend
// Copies, for code that writes in place: to_tensor gives a tensor of its own (from an array
// on any backend); from_tensor an array independent of t.
at::Tensor to_tensor(const Array& a);
Array from_tensor(const at::Tensor& t);

#define IVY_OP(...)
#define IVY_UNARY_OP(name, meta, kinds, props) at::Tensor name(const at::Tensor& x);
#define IVY_BINARY_OP(name, meta, kinds, props) at::Tensor name(const at::Tensor& x1, const at::Tensor& x2);
#include "ivy/ops.def"
#undef IVY_OP
#undef IVY_UNARY_OP
#undef IVY_BINARY_OP
at::Tensor matmul(const at::Tensor& x1, const at::Tensor& x2);
at::Tensor clip(const at::Tensor& x, std::optional<double> min = std::nullopt, std::optional<double> max = std::nullopt);

}  // namespace ivy::torch

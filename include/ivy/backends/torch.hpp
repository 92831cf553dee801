// The torch backend's framework-specific namespace: ivy functions on LibTorch's own
// at::Tensor, no wrapping. Opt-in header (it pulls in ATen); link ivy::torch.
// LibTorch's autograd keeps working through these calls: they are ATen calls.
#pragma once

#include <ATen/ATen.h>

#include "ivy/ivy.hpp"

namespace ivy::torch {

// Zero-copy bridges between at::Tensor and ivy::Array (on the torch backend).
Array wrap(const at::Tensor& t);
at::Tensor unwrap(const Array& a);  // throws if `a` is not on the torch backend

#define IVY_TORCH_UNARY(name) at::Tensor name(const at::Tensor& x);
#define IVY_TORCH_BINARY(name) at::Tensor name(const at::Tensor& x1, const at::Tensor& x2);
IVY_TORCH_UNARY(abs) IVY_TORCH_UNARY(acos) IVY_TORCH_UNARY(acosh) IVY_TORCH_UNARY(asin) IVY_TORCH_UNARY(asinh)
IVY_TORCH_UNARY(atan) IVY_TORCH_UNARY(atanh) IVY_TORCH_UNARY(bitwise_invert) IVY_TORCH_UNARY(ceil)
IVY_TORCH_UNARY(conj) IVY_TORCH_UNARY(cos) IVY_TORCH_UNARY(cosh) IVY_TORCH_UNARY(exp) IVY_TORCH_UNARY(expm1)
IVY_TORCH_UNARY(floor) IVY_TORCH_UNARY(imag) IVY_TORCH_UNARY(isfinite) IVY_TORCH_UNARY(isinf)
IVY_TORCH_UNARY(isnan) IVY_TORCH_UNARY(log) IVY_TORCH_UNARY(log1p) IVY_TORCH_UNARY(log2) IVY_TORCH_UNARY(log10)
IVY_TORCH_UNARY(logical_not) IVY_TORCH_UNARY(negative) IVY_TORCH_UNARY(positive) IVY_TORCH_UNARY(real)
IVY_TORCH_UNARY(reciprocal) IVY_TORCH_UNARY(round) IVY_TORCH_UNARY(sign) IVY_TORCH_UNARY(signbit)
IVY_TORCH_UNARY(sin) IVY_TORCH_UNARY(sinh) IVY_TORCH_UNARY(square) IVY_TORCH_UNARY(sqrt) IVY_TORCH_UNARY(tan)
IVY_TORCH_UNARY(tanh) IVY_TORCH_UNARY(trunc)
IVY_TORCH_BINARY(add) IVY_TORCH_BINARY(atan2) IVY_TORCH_BINARY(bitwise_and) IVY_TORCH_BINARY(bitwise_left_shift)
IVY_TORCH_BINARY(bitwise_or) IVY_TORCH_BINARY(bitwise_right_shift) IVY_TORCH_BINARY(bitwise_xor)
IVY_TORCH_BINARY(copysign) IVY_TORCH_BINARY(divide) IVY_TORCH_BINARY(equal) IVY_TORCH_BINARY(floor_divide)
IVY_TORCH_BINARY(greater) IVY_TORCH_BINARY(greater_equal) IVY_TORCH_BINARY(hypot) IVY_TORCH_BINARY(less)
IVY_TORCH_BINARY(less_equal) IVY_TORCH_BINARY(logaddexp) IVY_TORCH_BINARY(logical_and)
IVY_TORCH_BINARY(logical_or) IVY_TORCH_BINARY(logical_xor) IVY_TORCH_BINARY(maximum) IVY_TORCH_BINARY(minimum)
IVY_TORCH_BINARY(multiply) IVY_TORCH_BINARY(nextafter) IVY_TORCH_BINARY(not_equal) IVY_TORCH_BINARY(pow)
IVY_TORCH_BINARY(remainder) IVY_TORCH_BINARY(subtract) IVY_TORCH_BINARY(matmul)
#undef IVY_TORCH_UNARY
#undef IVY_TORCH_BINARY
at::Tensor clip(const at::Tensor& x, std::optional<double> min = std::nullopt, std::optional<double> max = std::nullopt);

}  // namespace ivy::torch

// The torch backend's direct eig/eigvals/qr (torch_lapack.cpp): the LAPACK calls LibTorch's CPU
// kernels make, without LibTorch's tensor bookkeeping around them.
#pragma once
#include <ATen/core/Tensor.h>

namespace ivy::torch_lapack {
// A stack of matrices of float32, float64, complex64 or complex128 whose sizes LAPACK's 32-bit
// integers address.
bool serves(const at::Tensor& a);
// Eigenvalues (complex, a's shape without its last axis) and, when `vectors`, right
// eigenvectors (complex, a's shape, batched column-major as LibTorch returns them) of square
// matrices (dispatch's shape inference checked them), the same bits as at::linalg_eig /
// at::linalg_eigvals give for a tensor without autograd. Throws ivy errors starting with
// "[op]" for non-finite input and for LAPACK not converging.
void eig(const char* op, const at::Tensor& a, bool vectors, at::Tensor& values, at::Tensor& vecs);
// Q and R of a non-empty stack ("reduced", or "complete" when `complete`), batched
// column-major, the same bits as at::linalg_qr gives for a tensor without autograd.
void qr(const at::Tensor& a, bool complete, at::Tensor& q, at::Tensor& r);
}  // namespace ivy::torch_lapack

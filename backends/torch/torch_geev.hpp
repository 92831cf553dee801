// The torch backend's direct eig/eigvals (torch_geev.cpp): LAPACK's ?geev as LibTorch's CPU
// linalg_eig calls it, without LibTorch's tensor bookkeeping around it.
#pragma once
#include <ATen/core/Tensor.h>

namespace ivy::torch_geev {
// A square-matrix stack of float32, float64, complex64 or complex128.
bool serves(const at::Tensor& a);
// Eigenvalues (complex, a's shape without its last axis) and, when `vectors`, right
// eigenvectors (complex, a's shape, batched column-major as LibTorch returns them), the same
// bits as at::linalg_eig / at::linalg_eigvals give for a tensor without autograd. Throws
// ivy errors starting with "[op]" for non-finite input and for LAPACK not converging.
void eig(const char* op, const at::Tensor& a, bool vectors, at::Tensor& values, at::Tensor& vecs);
}  // namespace ivy::torch_geev

// NumPy's floor_divide, remainder, copysign and shifts over contiguous arrays, for the
// backends that compute them with loops of their own: the xtensor backend, and the torch
// backend for plain CPU tensors (LibTorch's kernels give other results for some inputs
// there: NaN for overflowing quotients, counts taken modulo the width; its copysign runs at
// one of two speeds per process). Bit for bit NumPy's results, on the build's baseline ISA
// and on AVX2 alike.
//
// Each computes o[i] = f(a, b) over n elements with a = p[i], b = q[i] (mode 0),
// b = q[0] (mode 1: the second operand is one element) or a = p[0] (mode 2). `o` must not
// overlap the operands.
#pragma once

#include <cstdint>

namespace ivy::npy {

void floor_divide_n(float* o, const float* p, const float* q, std::int64_t n, int mode);
void floor_divide_n(double* o, const double* p, const double* q, std::int64_t n, int mode);
void remainder_n(float* o, const float* p, const float* q, std::int64_t n, int mode);
void remainder_n(double* o, const double* p, const double* q, std::int64_t n, int mode);
void copysign_n(float* o, const float* p, const float* q, std::int64_t n, int mode);
void copysign_n(double* o, const double* p, const double* q, std::int64_t n, int mode);
// T: the signed and unsigned integers of 8 to 64 bits (instantiated in npy_kernels.cpp).
template <class T>
void left_shift_n(T* o, const T* p, const T* q, std::int64_t n, int mode);
template <class T>
void right_shift_n(T* o, const T* p, const T* q, std::int64_t n, int mode);

}  // namespace ivy::npy

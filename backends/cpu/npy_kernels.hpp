// NumPy's floor_divide, remainder, copysign and shifts over contiguous arrays, for the
// backends that compute them with loops of their own: the xtensor backend, and the torch
// backend for plain CPU tensors (LibTorch's kernels give other results for some inputs
// there: NaN for overflowing quotients, counts taken modulo the width; its copysign runs at
// one of two speeds per process). Bit for bit NumPy's results, on the build's baseline ISA
// and on AVX2 alike.
//
// Each computes o[i] = f(a, b) over n elements with a = p[i] and b = q[i], or q[0] / p[0]
// for the operand `which` names (cpu::loops::OneElement). `o` must not overlap the operands.
#pragma once

#include <cstdint>

#include "cpu_loops.hpp"

namespace ivy::cpu::npy {

using loops::OneElement;

void floor_divide_n(float* o, const float* p, const float* q, std::int64_t n, OneElement which);
void floor_divide_n(double* o, const double* p, const double* q, std::int64_t n, OneElement which);
void remainder_n(float* o, const float* p, const float* q, std::int64_t n, OneElement which);
void remainder_n(double* o, const double* p, const double* q, std::int64_t n, OneElement which);
void copysign_n(float* o, const float* p, const float* q, std::int64_t n, OneElement which);
void copysign_n(double* o, const double* p, const double* q, std::int64_t n, OneElement which);
// T: the signed and unsigned integers of 8 to 64 bits (instantiated in npy_kernels.cpp).
template <class T>
void left_shift_n(T* o, const T* p, const T* q, std::int64_t n, OneElement which);
template <class T>
void right_shift_n(T* o, const T* p, const T* q, std::int64_t n, OneElement which);

// Bool results (o[i] is 0 or 1), for T: bool, the signed integers of 8 to 64 bits, uint8,
// float and double. Comparisons as IEEE and C++ define them (NaN compares unequal to
// everything); the logical functions take a value as true where it is not zero (NaN is true),
// as NumPy. `o` must not overlap the operands.
enum class Cmp : std::uint8_t { equal, not_equal, less, less_equal, greater, greater_equal, logical_and, logical_or, logical_xor };
template <class T>
void compare_n(Cmp op, bool* o, const T* p, const T* q, std::int64_t n, OneElement which);
// isnan, isinf, isfinite (integers: false, false, true), signbit (the sign bit of a float,
// NaN's and -0's included; integers: v < 0), logical_not (v == 0).
enum class Pred : std::uint8_t { isnan, isinf, isfinite, signbit, logical_not };
template <class T>
void predicate_n(Pred op, bool* o, const T* x, std::int64_t n);

// NumPy's sign: -1, 0 or 1 (a zero of either sign gives +0, NaN stays NaN), for the T of
// compare_n but bool.
template <class T>
void sign_n(T* o, const T* x, std::int64_t n);

// Element-wise functions whose IEEE result is exact (no rounding of their own: the sign
// flipped, the value rounded to an integer in the given direction, round half to even) and
// square (x * x, one rounding) and reciprocal (1 / x, one rounding): float and double. `o` must not overlap `x`. floor, ceil, trunc
// and round are vector instructions only in the AVX2 build (`fast(op)` says whether this
// build's loop is one).
enum class Exact : std::uint8_t { negative, square, floor, ceil, trunc, round, reciprocal };
bool exact_fast(Exact op);
template <class T>
void exact_n(Exact op, T* o, const T* x, std::int64_t n);

// The four arithmetic functions and maximum/minimum over contiguous operands, `which` as
// floor_divide_n's. float and double: IEEE's one rounding per element, the values LibTorch's
// kernels give; maximum/minimum give NaN where an operand is NaN, and the second
// operand where the two compare equal (NumPy's rule; -0 and +0 meet in no other way). The integer types of 8 to 64 bits: add, subtract
// and multiply wrap around (two's complement, as LibTorch's kernels do), maximum and minimum;
// divide is float only. `o` must not overlap the operands.
enum class Arith : std::uint8_t { add, subtract, multiply, divide, maximum, minimum };
template <class T>
void arith_n(Arith op, T* o, const T* p, const T* q, std::int64_t n, OneElement which);

}  // namespace ivy::cpu::npy

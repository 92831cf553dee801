// Complex elementary functions with the Array API standard's special values, shared by the
// backends. The standard's tables follow C99 Annex G, which glibc's complex functions (what
// libstdc++'s std::acos(std::complex) and friends call) implement; on top of them:
// expm1 = exp(z) - 1 and log1p = log(z + 1), adding a real 1 so the sign of a zero imaginary
// part survives (the branch cuts depend on it); log2 = log(z) / ln 2; tanh of an infinite
// real part with a finite imaginary part is +-1 + 0j, the zero signed as the imaginary part
// (glibc signs it as sin(2 imag)).
#pragma once

#include <cmath>
#include <complex>
#include <cstdint>
#include <numbers>

namespace ivy::cpu::complex_special {

enum class Fn : std::uint8_t {
  acos, acosh, asin, asinh, atan, atanh, cos, cosh, exp, expm1, log, log1p, log2, log10, sin, sinh, sqrt, tan, tanh
};

template <class R>
std::complex<R> eval(Fn f, std::complex<R> z) {
  switch (f) {
    case Fn::acos: return std::acos(z);
    case Fn::acosh: return std::acosh(z);
    case Fn::asin: return std::asin(z);
    case Fn::asinh: return std::asinh(z);
    case Fn::atan: return std::atan(z);
    case Fn::atanh: return std::atanh(z);
    case Fn::cos: return std::cos(z);
    case Fn::cosh: return std::cosh(z);
    case Fn::exp: return std::exp(z);
    case Fn::expm1: return std::exp(z) - R(1);
    case Fn::log: return std::log(z);
    case Fn::log1p: return std::log(z + R(1));
    case Fn::log2: return std::log(z) / static_cast<R>(std::numbers::ln2);
    case Fn::log10: return std::log10(z);
    case Fn::sin: return std::sin(z);
    case Fn::sinh: return std::sinh(z);
    case Fn::sqrt: return std::sqrt(z);
    case Fn::tan: return std::tan(z);
    case Fn::tanh:
      if (std::isinf(z.real()) && std::isfinite(z.imag()))
        return {std::copysign(R(1), z.real()), std::copysign(R(0), z.imag())};
      return std::tanh(z);
  }
  return z;
}

// Whether z is an argument the standard's special-case tables cover: a component that is
// infinite, NaN or zero (a signed zero selects a side of a branch cut). Elsewhere any
// accurate implementation gives the standard's values.
template <class R>
bool covered(std::complex<R> z) {
  return !std::isfinite(z.real()) || !std::isfinite(z.imag()) || z.real() == R(0) || z.imag() == R(0);
}

}  // namespace ivy::cpu::complex_special

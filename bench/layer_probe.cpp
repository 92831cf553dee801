// layer_probe: one xtensor function called `reps` times through ivy and natively, each in
// its own non-inlined function (probe_ivy, probe_native), for a cache-simulating profiler
// to compare the two per call. bench/layer_probe.sh runs it under callgrind with the
// machine's L1/L2 sizes and prints instructions and L1 misses per call of each.
//
//   layer_probe <roll|add|square|abs|flip> <elements> [reps]
#include <cstdio>
#include <cstdlib>
#include <string>

#include <xtensor/xarray.hpp>
#include <xtensor/xmanipulation.hpp>
#include <xtensor/xmath.hpp>

#include "ivy/backends/xtensor.hpp"
#include "ivy/ivy.hpp"

namespace {
using XA = xt::xarray<float>;
enum class Fn { roll, add, square, abs, flip };

// Results go to an empty asm statement so that neither call is optimized away.
template <class T>
void keep(const T* p) {
  asm volatile("" : : "r"(p) : "memory");
}
// Each result is made as the benchmark makes it (a new array initialized by the call).
[[gnu::noinline]] void probe_ivy(Fn f, const ivy::Array& a, const ivy::Array& b) {
  switch (f) {
#define IVY_PROBE(fn, call)  \
  case Fn::fn: {             \
    ivy::Array r = call;     \
    keep(r.impl());          \
    break;                   \
  }
    IVY_PROBE(roll, ivy::roll(a, 3)) IVY_PROBE(add, ivy::add(a, b)) IVY_PROBE(square, ivy::square(a))
    IVY_PROBE(abs, ivy::abs(a)) IVY_PROBE(flip, ivy::flip(a))
#undef IVY_PROBE
  }
}
[[gnu::noinline]] void probe_native(Fn f, const XA& a, const XA& b) {
  switch (f) {
#define NATIVE_PROBE(fn, expr) \
  case Fn::fn: {               \
    XA r = expr;               \
    keep(r.data());            \
    break;                     \
  }
    NATIVE_PROBE(roll, xt::roll(a, 3)) NATIVE_PROBE(add, a + b) NATIVE_PROBE(square, xt::square(a))
    NATIVE_PROBE(abs, xt::abs(a)) NATIVE_PROBE(flip, xt::flip(a, 0))
#undef NATIVE_PROBE
  }
}
}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: layer_probe <roll|add|square|abs|flip> <elements> [reps]\n");
    return 2;
  }
  const std::string name = argv[1];
  Fn f;
  if (name == "roll") f = Fn::roll;
  else if (name == "add") f = Fn::add;
  else if (name == "square") f = Fn::square;
  else if (name == "abs") f = Fn::abs;
  else if (name == "flip") f = Fn::flip;
  else {
    std::fprintf(stderr, "layer_probe: unknown function '%s'\n", argv[1]);
    return 2;
  }
  const long n = std::atol(argv[2]), reps = argc > 3 ? std::atol(argv[3]) : 1000;
  if (n < 1 || reps < 1) {
    std::fprintf(stderr, "layer_probe: elements and reps must be positive\n");
    return 2;
  }
  XA a = XA::from_shape({static_cast<std::size_t>(n)}), b = XA::from_shape({static_cast<std::size_t>(n)});
  for (long i = 0; i < n; ++i) a(i) = 0.5f + static_cast<float>(i % 97) / 97.f, b(i) = 1.5f - static_cast<float>(i % 89) / 89.f;
  const ivy::Array x = ivy::xtensor::wrap(a), y = ivy::xtensor::wrap(b);
  for (long k = 0; k < reps; ++k) {  // alternating, as the benchmark's blocks do
    probe_ivy(f, x, y);
    probe_native(f, a, b);
  }
  return 0;
}

// ivy's own float32 functions (backends/cpu/vec_math.cpp, included here to reach both of their
// loops): against the float64 function rounded, on a sample of every float32 bit pattern,
// and the AVX2 and baseline loops against each other bit for bit.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "vec_math.cpp"  // NOLINT: the loops are internal to the file

namespace ivy::cpu::isa {
extern const bool kAvx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
extern const bool kAvx512 = kAvx2 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
                            __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512bw");
}  // namespace ivy::cpu::isa

namespace {
using ivy::cpu::vmath::log1p_n;
using ivy::cpu::vmath::log1p_one;
using ivy::cpu::vmath::Op;
using ivy::cpu::vmath::pow_n;
using ivy::cpu::vmath::unary_n;

// |got - exact| in units of the last place of the float32 result nearest to exact.
double ulp_error(float got, double exact) {
  const float near = static_cast<float>(exact);
  int e;
  std::frexp(near, &e);
  const double ulp = std::ldexp(1.0, std::max(e - 24, -149));
  return std::fabs(static_cast<double>(got) - exact) / ulp;
}

std::vector<float> sample_inputs() {
  std::vector<float> v;
  // every 97th bit pattern (both signs, NaNs and infinities included)
  for (std::uint64_t b = 0; b < (1ull << 32); b += 97) v.push_back(std::bit_cast<float>(static_cast<std::uint32_t>(b)));
  // dense where the reduction changes branch: x near -1 (u = 1 + x tiny), u near sqrt(1/2)
  // and sqrt(2) (k changes), u near 2 and 4 (the error term's two forms), and near 2^24
  // and 2^25 (1 + x rounds by ties)
  for (float c : {-1.f, -0.29289323f, 0.41421357f, 1.f, 3.f, 0x1p24f, 0x1p25f, 0.f})
    for (int s = -1; s <= 1; s += 2) {
      float x = c;
      for (int i = 0; i < 5000; ++i) {
        v.push_back(x);
        x = std::nextafter(x, s * std::numeric_limits<float>::infinity());
      }
    }
  for (float x : {0.f, -0.f, -1.f, -2.f, 1e30f, std::numeric_limits<float>::max(), std::numeric_limits<float>::denorm_min(),
                  -std::numeric_limits<float>::denorm_min(), std::numeric_limits<float>::min(),
                  std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(),
                  std::numeric_limits<float>::quiet_NaN()})
    v.push_back(x);
  return v;
}

TEST(VecMath, Log1pWithinOneUlpOfExact) {
  const std::vector<float> in = sample_inputs();
  std::vector<float> out(in.size());
  log1p_n(out.data(), in.data(), static_cast<std::int64_t>(in.size()));
  double worst = 0;
  float worst_x = 0;
  std::int64_t checked = 0;
  for (std::size_t i = 0; i < in.size(); ++i) {
    const float x = in[i], got = out[i];
    const double exact = std::log1p(static_cast<double>(x));
    if (std::isnan(x) || x < -1.f) {
      ASSERT_TRUE(std::isnan(got)) << "log1p(" << x << ") = " << got;
      continue;
    }
    if (x == -1.f || std::isinf(x) || x == 0.f || std::fabs(x) < std::numeric_limits<float>::min()) {
      // -inf, +inf, and x itself for zeros (sign kept) and subnormals
      const float want = x == -1.f ? -std::numeric_limits<float>::infinity() : x;
      ASSERT_EQ(std::bit_cast<std::uint32_t>(got), std::bit_cast<std::uint32_t>(want)) << "log1p(" << x << ")";
      continue;
    }
    const double err = ulp_error(got, exact);
    if (err > worst) worst = err, worst_x = x;
    ++checked;
  }
  EXPECT_LT(worst, 1.0) << "at x = " << worst_x;
  EXPECT_GT(checked, 20000000);
}

TEST(VecMath, Log1pLoopsAgreeBitForBit) {
  if (!ivy::cpu::isa::kAvx2) GTEST_SKIP() << "no AVX2 on this CPU: only the baseline loop runs";
  const std::vector<float> in = sample_inputs();
  std::vector<float> out(in.size());
  log1p_n(out.data(), in.data(), static_cast<std::int64_t>(in.size()));
  for (std::size_t i = 0; i < in.size(); ++i) {
    const float s = log1p_one(in[i]);
    if (std::isnan(s) && std::isnan(out[i])) continue;
    ASSERT_EQ(std::bit_cast<std::uint32_t>(s), std::bit_cast<std::uint32_t>(out[i])) << "log1p(" << in[i] << ")";
  }
}

TEST(VecMath, Log1pEveryLengthAndInPlace) {
  // the padded tail vector: lengths 0..40, values differing per position, and o == x
  for (std::int64_t n = 0; n <= 40; ++n) {
    std::vector<float> x(static_cast<std::size_t>(n)), o(static_cast<std::size_t>(n) + 1, 7.f);
    for (std::int64_t i = 0; i < n; ++i) x[i] = 0.37f * static_cast<float>(i) - 0.9f;
    log1p_n(o.data(), x.data(), n);
    for (std::int64_t i = 0; i < n; ++i) EXPECT_EQ(o[i], log1p_one(x[i])) << "n " << n << " i " << i;
    EXPECT_EQ(o[n], 7.f) << "wrote past the end, n " << n;
    std::vector<float> y = x;
    log1p_n(y.data(), y.data(), n);
    for (std::int64_t i = 0; i < n; ++i) EXPECT_EQ(y[i], o[i]);
  }
}

// ---- exp computed in float32 (cpu::vmath::unary_n(Op::exp))
// every 7th bit pattern (in chunks), every float32 within 4096 steps of the ends of the finite
// nonzero results, of the subnormal range and of 0, and the special values
std::vector<float> exp_edge_inputs() {
  std::vector<float> v;
  for (float c : {88.7228394f, -87.3365479f, -103.972077f, 0.f})
    for (int s = -1; s <= 1; s += 2) {
      float x = c;
      for (int i = 0; i < 4096; ++i, x = std::nextafter(x, s * std::numeric_limits<float>::infinity())) v.push_back(x);
    }
  for (float x : {std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(),
                  std::numeric_limits<float>::quiet_NaN(), -std::numeric_limits<float>::quiet_NaN(), 0.f, -0.f,
                  std::numeric_limits<float>::max(), -std::numeric_limits<float>::max()})
    v.push_back(x);
  return v;
}

TEST(VecMath, ExpWithinOneUlpOfExact) {
  double worst = 0;
  float worst_x = 0;
  // returns false after a failed assertion
  auto check = [&](const std::vector<float>& in) {
    std::vector<float> out(in.size());
    unary_n(Op::exp, out.data(), in.data(), static_cast<std::int64_t>(in.size()));
    for (std::size_t i = 0; i < in.size(); ++i) {
      const float x = in[i], got = out[i];
      if (std::isnan(x)) {
        EXPECT_TRUE(std::isnan(got)) << "exp(" << x << ") = " << got;
        if (!std::isnan(got)) return false;
        continue;
      }
      const double exact = std::exp(static_cast<double>(x));
      const float near = static_cast<float>(exact);
      if (std::isinf(near) || near == 0.f) {
        // overflow to inf, underflow to +0 (and exp(-inf)): the rounded value, or within one
        // ulp of the exact value its finite neighbour (FLT_MAX, 2^-149)
        const float neighbour = std::isinf(near) ? std::numeric_limits<float>::max() : std::numeric_limits<float>::denorm_min();
        const bool ok = std::bit_cast<std::uint32_t>(got) == std::bit_cast<std::uint32_t>(near) ||
                        (got == neighbour && std::fabs(exact - neighbour) <= (std::isinf(near) ? 0x1p104 : 0x1p-149));
        EXPECT_TRUE(ok) << "exp(" << x << ") = " << got << ", exact " << exact;
        if (!ok) return false;
        continue;
      }
      const double err = ulp_error(got, exact);
      if (err > worst) worst = err, worst_x = x;
    }
    return true;
  };
  std::vector<float> chunk;
  for (std::uint64_t b = 0; b < (1ull << 32); b += 7) {
    chunk.push_back(std::bit_cast<float>(static_cast<std::uint32_t>(b)));
    if (chunk.size() == (1u << 22)) {
      if (!check(chunk)) return;
      chunk.clear();
    }
  }
  if (!check(chunk) || !check(exp_edge_inputs())) return;
  EXPECT_LT(worst, 0.95) << "exp at x = " << worst_x;
  EXPECT_GT(worst, 0.5) << "a sample this large reaches past half an ulp: the comparison saw nothing";
  const float special[] = {0.f, -0.f, -std::numeric_limits<float>::infinity(), std::numeric_limits<float>::infinity()};
  float o[4];
  unary_n(Op::exp, o, special, 4);
  EXPECT_EQ(o[0], 1.f);
  EXPECT_EQ(o[1], 1.f);
  EXPECT_EQ(std::bit_cast<std::uint32_t>(o[2]), 0u);
  EXPECT_EQ(o[3], std::numeric_limits<float>::infinity());
}

TEST(VecMath, ExpLoopsAgreeBitForBit) {
  if (!ivy::cpu::isa::kAvx2) GTEST_SKIP() << "no AVX2 on this CPU: only the baseline loop runs";
  // every 101st pattern (the baseline's std::fma may be software: a smaller sample) and the
  // tails of odd lengths
  std::vector<float> in;
  for (std::uint64_t b = 0; b < (1ull << 32); b += 101) in.push_back(std::bit_cast<float>(static_cast<std::uint32_t>(b)));
  for (int i = 0; i < 37; ++i) in.push_back(-110.f + 5.3f * static_cast<float>(i));
  const auto n = static_cast<std::int64_t>(in.size());
  std::vector<float> base(in.size()), wide(in.size());
  ivy::cpu::vmath::exp32_loop(base.data(), in.data(), n);
  for (int isa = 1; isa <= (ivy::cpu::isa::kAvx512 ? 2 : 1); ++isa) {
    for (std::int64_t len : {n, n - 1, n - 7, n - 15}) {
      std::fill(wide.begin(), wide.end(), 0.f);
      if (isa == 2) ivy::cpu::vmath::exp32_loop_avx512(wide.data(), in.data(), len);
      else ivy::cpu::vmath::exp32_loop_avx2(wide.data(), in.data(), len);
      for (std::int64_t i = 0; i < len; ++i)
        ASSERT_EQ(std::bit_cast<std::uint32_t>(wide[i]), std::bit_cast<std::uint32_t>(base[i]))
            << "isa " << isa << " exp(" << in[i] << "), length " << len;
    }
  }
}

// ---- the functions computed in float64 (cpu::vmath::unary_n)
struct Fn {
  Op op;
  const char* name;
  double (*exact)(double);  // libm's float64 function: the reference, to ~1e-16
  float (*libm)(float);     // libm's float32 function: the special values, and trig beyond 2^17
};
const Fn kFns[] = {{Op::sin, "sin", ::sin, ::sinf},       {Op::cos, "cos", ::cos, ::cosf},
                   {Op::tan, "tan", ::tan, ::tanf},
                   {Op::expm1, "expm1", ::expm1, ::expm1f}, {Op::log, "log", ::log, ::logf},
                   {Op::log2, "log2", ::log2, ::log2f},   {Op::log10, "log10", ::log10, ::log10f},
                   {Op::sinh, "sinh", ::sinh, ::sinhf},   {Op::cosh, "cosh", ::cosh, ::coshf},
                   {Op::tanh, "tanh", ::tanh, ::tanhf},   {Op::asin, "asin", ::asin, ::asinf},
                   {Op::acos, "acos", ::acos, ::acosf},   {Op::atan, "atan", ::atan, ::atanf},
                   {Op::asinh, "asinh", ::asinh, ::asinhf}, {Op::acosh, "acosh", ::acosh, ::acoshf},
                   {Op::atanh, "atanh", ::atanh, ::atanhf}};
bool trig(Op op) { return op == Op::sin || op == Op::cos || op == Op::tan; }

std::vector<float> f64_inputs() {
  std::vector<float> v;
  for (std::uint64_t b = 0; b < (1ull << 32); b += 509) v.push_back(std::bit_cast<float>(static_cast<std::uint32_t>(b)));
  // near multiples of pi/2 (the reduced argument cancels)
  for (int k = -40; k <= 40; ++k) {
    float x = static_cast<float>(k * 1.5707963267948966);
    for (int i = 0; i < 100; ++i) x = std::nextafter(x, -std::numeric_limits<float>::infinity());
    for (int i = 0; i < 200; ++i, x = std::nextafter(x, std::numeric_limits<float>::infinity())) v.push_back(x);
  }
  // the floats in [1, 2^17) nearest to multiples of pi/2 (exhaustive search in long double):
  // the reduced argument down to 4e-9
  for (float c : {0x1.f9cbe2p+7f, 0x1.f9cbe2p+8f, 0x1.2d97c8p+2f, 0x1.9a48dep+15f, 0x1.f9cbe2p+9f, 0x1.2d97c8p+3f,
                  0x1.9a48dep+16f, 0x1.f9cbe2p+10f}) {
    v.push_back(c);
    v.push_back(-c);
  }
  // around 2^17 (trig: libm beyond), the ends of the domains (+-1, 0), the float32 overflow and
  // underflow of exp/sinh/cosh, ln2/2 (expm1's two forms), sqrt(2) (log's split), exact
  // powers of 2 and 10 (log2, log10 exact)
  for (float c : {0x1p17f, -0x1p17f, 1.f, -1.f, 88.72f, -87.33f, -103.97f, 89.41f, 0.34657359f, -0.34657359f,
                  1.41421356f, 1024.f, 1000.f, 1e-5f})
    for (int i = -64; i <= 64; ++i) v.push_back(c + static_cast<float>(i) * std::fabs(c) * 0x1p-20f);
  for (float x : {0.f, -0.f, std::numeric_limits<float>::denorm_min(), -std::numeric_limits<float>::denorm_min(),
                  std::numeric_limits<float>::min(), std::numeric_limits<float>::max(), -std::numeric_limits<float>::max(),
                  std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(),
                  std::numeric_limits<float>::quiet_NaN(), 8.f, 0.125f, 100.f, 2.f, 0.5f, -0.5f})
    v.push_back(x);
  return v;
}

TEST(VecMath, Float64ComputedCorrectlyRounded) {
  const std::vector<float> in = f64_inputs();
  std::vector<float> out(in.size());
  for (const Fn& f : kFns) {
    unary_n(f.op, out.data(), in.data(), static_cast<std::int64_t>(in.size()));
    double worst = 0;
    float worst_x = 0;
    for (std::size_t i = 0; i < in.size(); ++i) {
      const float x = in[i], got = out[i];
      if (trig(f.op) && !(std::fabs(x) < 0x1p17f)) {  // libm's, bit for bit (inf/NaN: NaN)
        const float want = f.libm(x);
        if (std::isnan(want)) ASSERT_TRUE(std::isnan(got)) << f.name << "(" << x << ")";
        else ASSERT_EQ(std::bit_cast<std::uint32_t>(got), std::bit_cast<std::uint32_t>(want)) << f.name << "(" << x << ")";
        continue;
      }
      const double exact = f.exact(static_cast<double>(x));
      const float near = static_cast<float>(exact);
      if (std::isnan(near) || std::isinf(near) || near == 0.f) {  // NaN, the infinities, signed zeros
        if (std::isnan(near)) ASSERT_TRUE(std::isnan(got)) << f.name << "(" << x << ") = " << got;
        else ASSERT_EQ(std::bit_cast<std::uint32_t>(got), std::bit_cast<std::uint32_t>(near)) << f.name << "(" << x << ")";
        continue;
      }
      ASSERT_TRUE(std::isfinite(got)) << f.name << "(" << x << ") = " << got;
      const double err = ulp_error(got, exact);
      if (err > worst) worst = err, worst_x = x;
    }
    EXPECT_LT(worst, 0.5001) << f.name << " at x = " << worst_x;
  }
}

// Each build of a loop: 0 baseline, 1 AVX2, 2 AVX-512.
void f64_loop(int isa, Op op, float* o, const float* x, std::int64_t n) {
  switch (op) {
#define IVY_T_CASE(name)                                                    \
  case Op::name:                                                            \
    if (isa == 2) ivy::cpu::vmath::f32_loop_avx512<Op::name>(o, x, n);           \
    else if (isa == 1) ivy::cpu::vmath::f32_loop_avx2<Op::name>(o, x, n);        \
    else ivy::cpu::vmath::f32_loop<Op::name>(o, x, n);                           \
    break;
    IVY_T_CASE(sin) IVY_T_CASE(cos) IVY_T_CASE(tan) IVY_T_CASE(expm1) IVY_T_CASE(log)
    IVY_T_CASE(log2) IVY_T_CASE(log10) IVY_T_CASE(sinh) IVY_T_CASE(cosh) IVY_T_CASE(tanh) IVY_T_CASE(asin)
    IVY_T_CASE(acos) IVY_T_CASE(atan) IVY_T_CASE(asinh) IVY_T_CASE(acosh) IVY_T_CASE(atanh)
#undef IVY_T_CASE
  }
}

TEST(VecMath, Float64ComputedLoopsAgreeBitForBit) {
  if (!ivy::cpu::isa::kAvx2) GTEST_SKIP() << "no AVX2 on this CPU: only the baseline loop runs";
  const std::vector<float> in = f64_inputs();
  const auto n = static_cast<std::int64_t>(in.size());
  std::vector<float> wide(in.size()), base(in.size());
  for (const Fn& f : kFns) {
    f64_loop(0, f.op, base.data(), in.data(), n);
    for (int isa = 1; isa <= (ivy::cpu::isa::kAvx512 ? 2 : 1); ++isa) {
      f64_loop(isa, f.op, wide.data(), in.data(), n);
      for (std::size_t i = 0; i < in.size(); ++i) {
        if (trig(f.op) && !(std::fabs(in[i]) < 0x1p17f)) continue;  // the second pass's libm values
        if (std::isnan(wide[i]) && std::isnan(base[i])) continue;
        ASSERT_EQ(std::bit_cast<std::uint32_t>(wide[i]), std::bit_cast<std::uint32_t>(base[i]))
            << f.name << "(" << in[i] << "), ISA " << (isa == 2 ? "AVX-512" : "AVX2");
      }
    }
  }
  // pow's builds, on the same inputs as bases against a few exponents
  std::vector<float> q(in.size());
  for (std::size_t i = 0; i < q.size(); ++i) q[i] = static_cast<float>(static_cast<int>(i % 41) - 20) * 0.37f;
  ivy::cpu::vmath::pow_loop(base.data(), in.data(), q.data(), n, ivy::cpu::loops::OneElement::neither);
  for (int isa = 1; isa <= (ivy::cpu::isa::kAvx512 ? 2 : 1); ++isa) {
    if (isa == 2) ivy::cpu::vmath::pow_loop_avx512(wide.data(), in.data(), q.data(), n, ivy::cpu::loops::OneElement::neither);
    else ivy::cpu::vmath::pow_loop_avx2(wide.data(), in.data(), q.data(), n, ivy::cpu::loops::OneElement::neither);
    for (std::size_t i = 0; i < in.size(); ++i) {
      if (ivy::cpu::vmath::pow_other(in[i], q[i]) || (std::isnan(wide[i]) && std::isnan(base[i]))) continue;
      ASSERT_EQ(std::bit_cast<std::uint32_t>(wide[i]), std::bit_cast<std::uint32_t>(base[i]))
          << "pow(" << in[i] << ", " << q[i] << "), ISA " << isa;
    }
  }
}

TEST(VecMath, Float64ComputedEveryLength) {
  for (const Fn& f : kFns)
    for (std::int64_t n = 0; n <= 20; ++n) {
      std::vector<float> x(static_cast<std::size_t>(n)), o(static_cast<std::size_t>(n) + 1, 7.f);
      for (std::int64_t i = 0; i < n; ++i) x[i] = i == 5 && trig(f.op) ? 3e5f : 0.05f * static_cast<float>(i) + 1.01f;
      if (f.op == Op::asin || f.op == Op::acos || f.op == Op::atanh)
        for (auto& v : x) v -= 1.f;
      unary_n(f.op, o.data(), x.data(), n);
      for (std::int64_t i = 0; i < n; ++i) {
        const double e = f.exact(static_cast<double>(x[i]));
        EXPECT_NEAR(o[i], e, 1e-6 * std::fabs(e)) << f.name << " n " << n << " i " << i;
      }
      EXPECT_EQ(o[n], 7.f) << f.name << " wrote past the end, n " << n;
    }
}

TEST(VecMath, PowCorrectlyRoundedForPositiveBases) {
  // bases over every binade (and near 1), exponents from tiny to large, both signs, integers
  // and halves among them; special pairs libm's bit for bit
  std::vector<float> a, b;
  std::uint32_t h = 12345;
  auto next = [&h] { return h = h * 1664525u + 1013904223u; };
  for (int i = 0; i < 400000; ++i) {
    const float base = std::bit_cast<float>(0x00800000u + next() % 0x7f000000u);  // positive normal
    const float e = static_cast<float>(static_cast<std::int32_t>(next()) / 2147483648.0 * 300.0) * (i % 3 ? 1.f : 0.01f);
    a.push_back(base), b.push_back(e);
    a.push_back(1.f + static_cast<float>(static_cast<std::int32_t>(next())) * 0x1p-50f), b.push_back(e * 1e4f);
    a.push_back(static_cast<float>(next() % 1000) / 100.f), b.push_back(static_cast<float>(static_cast<int>(next() % 80) - 40) * 0.5f);
  }
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  const float sa[] = {0.f, -0.f, -2.f, -8.f, 1.f, -1.f, inf, -inf, nan, 2.f, 0.5f, std::numeric_limits<float>::denorm_min()};
  const float sb[] = {0.f, -0.f, 1.f, 2.f, 3.f, -3.f, 0.5f, -0.5f, inf, -inf, nan, 1e30f, -1e30f};
  for (float x : sa)
    for (float y : sb) a.push_back(x), b.push_back(y);
  std::vector<float> o(a.size());
  pow_n(o.data(), a.data(), b.data(), static_cast<std::int64_t>(a.size()), ivy::cpu::loops::OneElement::neither);
  double worst = 0;
  float wa = 0, wb = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const float x = a[i], y = b[i], got = o[i];
    if (!(x > 0.f && x < inf && std::fabs(y) < inf)) {
      const float want = std::pow(x, y);
      if (std::isnan(want)) ASSERT_TRUE(std::isnan(got)) << "pow(" << x << ", " << y << ")";
      else ASSERT_EQ(std::bit_cast<std::uint32_t>(got), std::bit_cast<std::uint32_t>(want)) << "pow(" << x << ", " << y << ")";
      continue;
    }
    const double exact = std::pow(static_cast<double>(x), static_cast<double>(y));
    const float near = static_cast<float>(exact);
    if (std::isinf(near) || near == 0.f) {
      ASSERT_EQ(std::bit_cast<std::uint32_t>(got), std::bit_cast<std::uint32_t>(near)) << "pow(" << x << ", " << y << ")";
      continue;
    }
    const double err = ulp_error(got, exact);
    if (err > worst) worst = err, wa = x, wb = y;
  }
  EXPECT_LT(worst, 0.5001) << "at pow(" << wa << ", " << wb << ")";
  // one-element operands on either side, and lengths around the vector width
  for (std::int64_t n = 0; n <= 20; ++n) {
    std::vector<float> x(static_cast<std::size_t>(n)), r1(static_cast<std::size_t>(n) + 1, 7.f), r2 = r1;
    for (std::int64_t i = 0; i < n; ++i) x[i] = i == 3 ? -2.f : 0.3f * static_cast<float>(i) + 0.1f;
    const float two = 2.f, half = 0.5f;
    pow_n(r1.data(), x.data(), &two, n, ivy::cpu::loops::OneElement::second);
    pow_n(r2.data(), &half, x.data(), n, ivy::cpu::loops::OneElement::first);
    for (std::int64_t i = 0; i < n; ++i) {
      EXPECT_EQ(r1[i], static_cast<float>(static_cast<double>(x[i]) * x[i])) << n << " " << i;
      EXPECT_EQ(r2[i], static_cast<float>(std::pow(0.5, static_cast<double>(x[i])))) << n << " " << i;
    }
    EXPECT_EQ(r1[n], 7.f);
    EXPECT_EQ(r2[n], 7.f);
  }
}
}  // namespace

namespace {
TEST(VecMath, LogaddexpCorrectlyRoundedAndLoopsAgree) {
  // pairs over many magnitudes and differences (equal pairs, |a - b| near 0 and beyond the
  // float range of e^-|a - b|), special values against their definitions
  std::vector<float> a, b;
  std::uint32_t h = 777;
  auto next = [&h] { return h = h * 1664525u + 1013904223u; };
  for (int i = 0; i < 300000; ++i) {
    const float x = static_cast<float>(static_cast<std::int32_t>(next()) / 2147483648.0) * (i % 4 == 0 ? 100.f : 5.f);
    const float y = i % 7 == 0 ? x : x + static_cast<float>(static_cast<std::int32_t>(next()) / 2147483648.0) * (i % 3 ? 1.f : 200.f);
    a.push_back(x), b.push_back(y);
  }
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  const float sv[] = {0.f, -0.f, 1.f, -1e30f, 1e30f, inf, -inf, nan, 88.f, -104.f, std::numeric_limits<float>::denorm_min()};
  for (float x : sv)
    for (float y : sv) a.push_back(x), b.push_back(y);
  const auto n = static_cast<std::int64_t>(a.size());
  std::vector<float> o(a.size());
  ivy::cpu::vmath::logaddexp_n(o.data(), a.data(), b.data(), n, ivy::cpu::loops::OneElement::neither);
  double worst = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const double x = a[i], y = b[i];
    const float got = o[i];
    if (std::isnan(x) || std::isnan(y)) {
      ASSERT_TRUE(std::isnan(got)) << a[i] << " " << b[i];
      continue;
    }
    if (std::isinf(x) && x == y) {  // both the same infinity
      ASSERT_EQ(got, a[i]);
      continue;
    }
    const double exact = std::max(x, y) + std::log1p(std::exp(-std::fabs(x - y)));
    const float near = static_cast<float>(exact);
    if (std::isinf(near) || near == 0.f) {
      ASSERT_EQ(std::bit_cast<std::uint32_t>(got), std::bit_cast<std::uint32_t>(near)) << a[i] << " " << b[i];
      continue;
    }
    worst = std::max(worst, ulp_error(got, exact));
  }
  EXPECT_LT(worst, 0.5001);
  // every build bit for bit, and the one-element modes at every length
  std::vector<float> base(a.size()), wide(a.size());
  ivy::cpu::vmath::logaddexp_loop(base.data(), a.data(), b.data(), n, ivy::cpu::loops::OneElement::neither);
  if (ivy::cpu::isa::kAvx2) {
    for (int isa = 1; isa <= (ivy::cpu::isa::kAvx512 ? 2 : 1); ++isa) {
      if (isa == 2) ivy::cpu::vmath::logaddexp_loop_avx512(wide.data(), a.data(), b.data(), n, ivy::cpu::loops::OneElement::neither);
      else ivy::cpu::vmath::logaddexp_loop_avx2(wide.data(), a.data(), b.data(), n, ivy::cpu::loops::OneElement::neither);
      for (std::size_t i = 0; i < a.size(); ++i) {
        if (std::isnan(wide[i]) && std::isnan(base[i])) continue;
        ASSERT_EQ(std::bit_cast<std::uint32_t>(wide[i]), std::bit_cast<std::uint32_t>(base[i])) << a[i] << " " << b[i];
      }
    }
  }
  for (std::int64_t len = 0; len <= 20; ++len) {
    std::vector<float> r1(static_cast<std::size_t>(len) + 1, 7.f), r2 = r1;
    const float c = 0.75f;
    ivy::cpu::vmath::logaddexp_n(r1.data(), a.data(), &c, len, ivy::cpu::loops::OneElement::second);
    ivy::cpu::vmath::logaddexp_n(r2.data(), &c, a.data(), len, ivy::cpu::loops::OneElement::first);
    for (std::int64_t i = 0; i < len; ++i) {
      const double want = std::max<double>(a[i], c) + std::log1p(std::exp(-std::fabs(static_cast<double>(a[i]) - c)));
      EXPECT_EQ(r1[i], static_cast<float>(want)) << len << " " << i;
      EXPECT_EQ(r2[i], r1[i]) << len << " " << i;
    }
    EXPECT_EQ(r1[len], 7.f);
    EXPECT_EQ(r2[len], 7.f);
  }
}

// hypot and atan2 (float64-computed) against libm's float64 functions, every build bit for
// bit, and the one-element modes; `fn` is the vec_math entry, `loops` its three builds.
using Binary = void (*)(float*, const float*, const float*, std::int64_t, ivy::cpu::loops::OneElement);
using BinaryLoopFn = std::uint32_t (*)(float*, const float*, const float*, std::int64_t, ivy::cpu::loops::OneElement);
void check_binary(const char* name, Binary fn, BinaryLoopFn base_loop, BinaryLoopFn avx2_loop, BinaryLoopFn avx512_loop,
                  double (*ref)(double, double)) {
  // pairs over the whole float32 range (random bit patterns, both signs), pairs of close
  // magnitudes and of very different ones, and every pair of special values
  std::vector<float> a, b;
  std::uint32_t h = 2024;
  auto next = [&h] { return h = h * 1664525u + 1013904223u; };
  for (int i = 0; i < 400000; ++i) {
    const float x = std::bit_cast<float>(next());
    float y = std::bit_cast<float>(next());
    if (i % 3 == 0) y = x * (1.f + static_cast<float>(static_cast<std::int32_t>(next()) / 2147483648.0) * 0.01f);
    if (i % 5 == 0) y = -y;
    a.push_back(x), b.push_back(y);
  }
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  const float sv[] = {0.f, -0.f, 1.f, -1.f, 3.f, 4.f, -1e30f, 1e30f, inf, -inf, nan, std::numeric_limits<float>::max(),
                      std::numeric_limits<float>::denorm_min(), -std::numeric_limits<float>::denorm_min()};
  for (float x : sv)
    for (float y : sv) a.push_back(x), b.push_back(y);
  const auto n = static_cast<std::int64_t>(a.size());
  std::vector<float> o(a.size());
  fn(o.data(), a.data(), b.data(), n, ivy::cpu::loops::OneElement::neither);
  double worst = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const double exact = ref(a[i], b[i]);
    const float near = static_cast<float>(exact);
    if (std::isnan(exact)) {
      ASSERT_TRUE(std::isnan(o[i])) << name << " " << a[i] << " " << b[i];
    } else if (std::isinf(near) || near == 0.f || std::isinf(a[i]) || std::isinf(b[i]) || a[i] == 0.f || b[i] == 0.f) {
      ASSERT_EQ(std::bit_cast<std::uint32_t>(o[i]), std::bit_cast<std::uint32_t>(near)) << name << " " << a[i] << " " << b[i];
    } else {
      worst = std::max(worst, ulp_error(o[i], exact));
    }
  }
  EXPECT_LT(worst, 0.5001) << name;
  std::vector<float> base(a.size()), wide(a.size());
  base_loop(base.data(), a.data(), b.data(), n, ivy::cpu::loops::OneElement::neither);
  if (ivy::cpu::isa::kAvx2) {
    for (int isa = 1; isa <= (ivy::cpu::isa::kAvx512 ? 2 : 1); ++isa) {
      (isa == 2 ? avx512_loop : avx2_loop)(wide.data(), a.data(), b.data(), n, ivy::cpu::loops::OneElement::neither);
      for (std::size_t i = 0; i < a.size(); ++i) {
        if (std::isnan(wide[i]) && std::isnan(base[i])) continue;
        ASSERT_EQ(std::bit_cast<std::uint32_t>(wide[i]), std::bit_cast<std::uint32_t>(base[i])) << name << " " << a[i] << " " << b[i];
      }
    }
  }
  for (std::int64_t len = 0; len <= 20; ++len) {
    std::vector<float> r1(static_cast<std::size_t>(len) + 1, 7.f), r2 = r1;
    const float c = -0.75f;
    fn(r1.data(), a.data() + 7, &c, len, ivy::cpu::loops::OneElement::second);
    fn(r2.data(), &c, a.data() + 7, len, ivy::cpu::loops::OneElement::first);
    for (std::int64_t i = 0; i < len; ++i) {
      const float x = a[static_cast<std::size_t>(i) + 7];
      const float w1 = static_cast<float>(ref(x, c)), w2 = static_cast<float>(ref(c, x));
      if (!std::isnan(w1)) EXPECT_EQ(r1[i], w1) << name << " " << len << " " << i;
      if (!std::isnan(w2)) EXPECT_EQ(r2[i], w2) << name << " " << len << " " << i;
    }
    EXPECT_EQ(r1[len], 7.f);
    EXPECT_EQ(r2[len], 7.f);
  }
}
double ref_hypot(double x, double y) { return std::hypot(x, y); }
double ref_atan2(double y, double x) { return std::atan2(y, x); }
#if IVY_AVX2
TEST(VecMath, HypotCorrectlyRoundedAndLoopsAgree) {
  check_binary("hypot", ivy::cpu::vmath::hypot_n, ivy::cpu::vmath::hypot_loop, ivy::cpu::vmath::hypot_loop_avx2,
               ivy::cpu::vmath::hypot_loop_avx512, ref_hypot);
}
TEST(VecMath, Atan2CorrectlyRoundedAndLoopsAgree) {
  check_binary("atan2", ivy::cpu::vmath::atan2_n, ivy::cpu::vmath::atan2_loop, ivy::cpu::vmath::atan2_loop_avx2,
               ivy::cpu::vmath::atan2_loop_avx512, ref_atan2);
}
#endif
}  // namespace

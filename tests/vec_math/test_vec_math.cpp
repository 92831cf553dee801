// ivy's own float32 functions (src/vec_math.cpp, included here to reach both of their
// loops): against the float64 function rounded, on a sample of every float32 bit pattern,
// and the AVX2 and baseline loops against each other bit for bit.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "vec_math.cpp"  // NOLINT: the loops are internal to the file

namespace ivy::isa {
extern const bool kAvx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
}  // namespace ivy::isa

namespace {
using ivy::vmath::log1p_n;
using ivy::vmath::log1p_one;
using ivy::vmath::tan_loop;
using ivy::vmath::tan_n;

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
  if (!ivy::isa::kAvx2) GTEST_SKIP() << "no AVX2 on this CPU: only the baseline loop runs";
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

std::vector<float> tan_inputs() {
  std::vector<float> v;
  for (std::uint64_t b = 0; b < (1ull << 32); b += 97) v.push_back(std::bit_cast<float>(static_cast<std::uint32_t>(b)));
  // near multiples of pi/2 (the reduced argument cancels) and around the 2^17 limit
  for (int k = -40; k <= 40; ++k) {
    float x = static_cast<float>(k * 1.5707963267948966);
    for (int i = 0; i < 200; ++i) x = std::nextafter(x, -std::numeric_limits<float>::infinity());
    for (int i = 0; i < 400; ++i, x = std::nextafter(x, std::numeric_limits<float>::infinity())) v.push_back(x);
  }
  // the floats in [1, 2^17) nearest to multiples of pi/2 (exhaustive search in long double):
  // the reduced argument down to 4e-9
  for (float c : {0x1.f9cbe2p+7f, 0x1.f9cbe2p+8f, 0x1.2d97c8p+2f, 0x1.9a48dep+15f, 0x1.f9cbe2p+9f, 0x1.2d97c8p+3f,
                  0x1.9a48dep+16f, 0x1.f9cbe2p+10f}) {
    v.push_back(c);
    v.push_back(-c);
  }
  for (float c : {0x1p17f, -0x1p17f, 1e5f})
    for (int i = -50; i <= 50; ++i) v.push_back(c + static_cast<float>(i) * 0.0078125f);
  for (float x : {0.f, -0.f, std::numeric_limits<float>::denorm_min(), -std::numeric_limits<float>::denorm_min(),
                  std::numeric_limits<float>::min(), std::numeric_limits<float>::max(), -std::numeric_limits<float>::max(),
                  std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(),
                  std::numeric_limits<float>::quiet_NaN()})
    v.push_back(x);
  return v;
}

TEST(VecMath, TanCorrectlyRoundedBelow2To17) {
  const std::vector<float> in = tan_inputs();
  std::vector<float> out(in.size());
  tan_n(out.data(), in.data(), static_cast<std::int64_t>(in.size()));
  double worst = 0;
  float worst_x = 0;
  for (std::size_t i = 0; i < in.size(); ++i) {
    const float x = in[i], got = out[i];
    if (!std::isfinite(x)) {
      ASSERT_TRUE(std::isnan(got)) << "tan(" << x << ") = " << got;
    } else if (!(std::fabs(x) < 0x1p17f)) {
      ASSERT_EQ(std::bit_cast<std::uint32_t>(got), std::bit_cast<std::uint32_t>(std::tan(x))) << "tan(" << x << ")";
    } else if (x == 0.f || std::fabs(x) < std::numeric_limits<float>::min()) {
      ASSERT_EQ(std::bit_cast<std::uint32_t>(got), std::bit_cast<std::uint32_t>(x)) << "tan(" << x << ")";
    } else {
      const double err = ulp_error(got, std::tan(static_cast<double>(x)));
      if (err > worst) worst = err, worst_x = x;
    }
  }
  // the exact value rounded, to the float64 evaluation's error: 0.5 ulp and a hair
  EXPECT_LT(worst, 0.5001) << "at x = " << worst_x;
}

TEST(VecMath, TanLoopsAgreeBitForBit) {
  if (!ivy::isa::kAvx2) GTEST_SKIP() << "no AVX2 on this CPU: only the baseline loop runs";
  const std::vector<float> in = tan_inputs();
  std::vector<float> avx(in.size()), base(in.size());
  tan_n(avx.data(), in.data(), static_cast<std::int64_t>(in.size()));
  tan_loop(base.data(), in.data(), static_cast<std::int64_t>(in.size()));  // the baseline build of the loop
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (!(std::fabs(in[i]) < 0x1p17f)) continue;  // the second pass's libm values
    ASSERT_EQ(std::bit_cast<std::uint32_t>(avx[i]), std::bit_cast<std::uint32_t>(base[i])) << "tan(" << in[i] << ")";
  }
}

TEST(VecMath, TanEveryLength) {
  for (std::int64_t n = 0; n <= 40; ++n) {
    std::vector<float> x(static_cast<std::size_t>(n)), o(static_cast<std::size_t>(n) + 1, 7.f);
    for (std::int64_t i = 0; i < n; ++i) x[i] = i == 5 ? 3e5f : 0.37f * static_cast<float>(i) - 3.f;
    tan_n(o.data(), x.data(), n);
    for (std::int64_t i = 0; i < n; ++i)
      EXPECT_NEAR(o[i], std::tan(static_cast<double>(x[i])), 1e-6 * std::fabs(std::tan(static_cast<double>(x[i])))) << n << " " << i;
    EXPECT_EQ(o[n], 7.f) << "wrote past the end, n " << n;
  }
}
}  // namespace

// uint64 on the torch backend: LibTorch 1.13 has no uint64, so the backend stores it in int64
// storage with the unsigned bit pattern. Values at and above 2^63 (negative as int64) must
// give the unsigned results, the same as the xtensor backend's native uint64.
// Only built with the torch backend (IVY_HAS_TORCH).
#ifdef IVY_HAS_TORCH

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "ivy/backends/torch.hpp"
#include "ivy/ivy.hpp"

namespace {

using U = std::uint64_t;
constexpr U k63 = U(1) << 63;
const std::vector<U> kBig = {0, 1, 5, k63 - 1, k63, k63 + 1, ~U(0), 12345678901234567890ULL, 7, k63 + 3};
const std::vector<U> kOther = {3, 1, k63, 7, ~U(0), 9, 2, U(1) << 62, 11, 0};

ivy::Array on(const std::vector<U>& v, const char* backend) {
  return ivy::asarray(v, std::nullopt, std::nullopt, {}, ivy::Backend(backend));
}

// f on the torch arrays and on the xtensor arrays: the same values (T) and dtype.
template <class T, class F>
std::vector<T> both(F f, const std::vector<U>& a = kBig, const std::vector<U>& b = kOther) {
  const ivy::Array t = f(on(a, "torch"), on(b, "torch"));
  const ivy::Array x = f(on(a, "xtensor"), on(b, "xtensor"));
  EXPECT_EQ(t.dtype(), x.dtype());
  EXPECT_EQ(t.backend().name(), std::string("torch"));
  const auto tv = t.to_vector<T>(), xv = x.to_vector<T>();
  EXPECT_EQ(tv, xv);
  return tv;
}

bool xtensor_built() {
  for (ivy::Backend b : ivy::available_backends())
    if (std::string(b.name()) == "xtensor") return true;
  return false;
}
// Each case compares with the xtensor backend's results.
class Uint64Torch : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!xtensor_built()) GTEST_SKIP() << "compares with the xtensor backend, not built";
  }
};

TEST_F(Uint64Torch, StorageRoundTrip) {
  const ivy::Array t = on(kBig, "torch");
  EXPECT_EQ(t.dtype(), ivy::uint64);
  EXPECT_EQ(t.to_vector<U>(), kBig);
  EXPECT_EQ(ivy::torch::unwrap(t).scalar_type(), at::kLong);
  EXPECT_EQ(ivy::to_backend(t, ivy::Backend("xtensor")).to_vector<U>(), kBig);
  EXPECT_EQ(ivy::to_backend(on(kBig, "xtensor"), ivy::Backend("torch")).to_vector<U>(), kBig);
}

TEST_F(Uint64Torch, Compare) {
  auto lt = both<bool>([](const ivy::Array& a, const ivy::Array& b) { return ivy::less(a, b); });
  for (std::size_t i = 0; i < kBig.size(); ++i) EXPECT_EQ(lt[i], kBig[i] < kOther[i]) << i;
  auto ge = both<bool>([](const ivy::Array& a, const ivy::Array& b) { return ivy::greater_equal(a, b); });
  for (std::size_t i = 0; i < kBig.size(); ++i) EXPECT_EQ(ge[i], kBig[i] >= kOther[i]) << i;
  auto eq = both<bool>([](const ivy::Array& a, const ivy::Array& b) { return ivy::equal(a, b); });
  for (std::size_t i = 0; i < kBig.size(); ++i) EXPECT_EQ(eq[i], kBig[i] == kOther[i]) << i;
}

TEST_F(Uint64Torch, SortUniqueMax) {
  auto s = both<U>([](const ivy::Array& a, const ivy::Array&) { return ivy::sort(a); });
  auto expect = kBig;
  std::sort(expect.begin(), expect.end());
  EXPECT_EQ(s, expect);
  // long enough for the radix paths
  std::vector<U> longer;
  for (int k = 0; k < 50; ++k) longer.insert(longer.end(), kBig.begin(), kBig.end());
  auto sl = both<U>([](const ivy::Array& a, const ivy::Array&) { return ivy::sort(a); }, longer, longer);
  EXPECT_TRUE(std::is_sorted(sl.begin(), sl.end()));
  auto u = both<U>([](const ivy::Array& a, const ivy::Array&) { return ivy::unique_values(a); }, longer, longer);
  auto uexp = expect;
  uexp.erase(std::unique(uexp.begin(), uexp.end()), uexp.end());
  std::vector<U> usorted = u;
  std::sort(usorted.begin(), usorted.end());
  EXPECT_EQ(usorted, uexp);
  EXPECT_EQ(both<U>([](const ivy::Array& a, const ivy::Array&) { return ivy::max(a); }), std::vector<U>{~U(0)});
  EXPECT_EQ(both<U>([](const ivy::Array& a, const ivy::Array&) { return ivy::min(ivy::take(a, ivy::asarray({4, 5, 6}, std::nullopt, {}, a.backend()))); }),
            std::vector<U>{k63});
  EXPECT_EQ(both<std::int64_t>([](const ivy::Array& a, const ivy::Array&) { return ivy::argmax(a); }),
            std::vector<std::int64_t>{6});
}

TEST_F(Uint64Torch, DivisionAndShift) {
  auto q = both<U>([](const ivy::Array& a, const ivy::Array& b) { return ivy::floor_divide(a, b); });
  auto r = both<U>([](const ivy::Array& a, const ivy::Array& b) { return ivy::remainder(a, b); });
  for (std::size_t i = 0; i < kBig.size(); ++i) {
    EXPECT_EQ(q[i], kOther[i] ? kBig[i] / kOther[i] : 0) << i;
    EXPECT_EQ(r[i], kOther[i] ? kBig[i] % kOther[i] : 0) << i;
  }
  const std::vector<U> counts = {0, 1, 63, 64, k63, 3, 1, 62, 70, 4};
  auto sh = both<U>([](const ivy::Array& a, const ivy::Array& b) { return ivy::bitwise_right_shift(a, b); }, kBig,
                    counts);
  for (std::size_t i = 0; i < kBig.size(); ++i) EXPECT_EQ(sh[i], counts[i] < 64 ? kBig[i] >> counts[i] : 0) << i;
}

TEST_F(Uint64Torch, AstypeFloat64AndBack) {
  auto f = both<double>([](const ivy::Array& a, const ivy::Array&) { return ivy::astype(a, ivy::float64); });
  for (std::size_t i = 0; i < kBig.size(); ++i) EXPECT_EQ(f[i], static_cast<double>(kBig[i])) << i;
  auto f32 = both<float>([](const ivy::Array& a, const ivy::Array&) { return ivy::astype(a, ivy::float32); });
  for (std::size_t i = 0; i < kBig.size(); ++i) EXPECT_EQ(f32[i], static_cast<float>(kBig[i])) << i;
  // back: values below 2^64 that float64 holds exactly
  const std::vector<U> exact = {0, 1, k63, k63 + 2048, ~U(0) - 2047, U(3) << 61};
  auto back = both<U>(
      [](const ivy::Array& a, const ivy::Array&) { return ivy::astype(ivy::astype(a, ivy::float64), ivy::uint64); },
      exact, exact);
  EXPECT_EQ(back, exact);
}

TEST_F(Uint64Torch, SumWraps) {
  auto s = both<U>([](const ivy::Array& a, const ivy::Array&) { return ivy::sum(a); });
  U expect = 0;
  for (U v : kBig) expect += v;
  EXPECT_EQ(s, std::vector<U>{expect});
}

}  // namespace

#endif  // IVY_HAS_TORCH

// The xtensor backend's per-thread list of larger result blocks (backends/cpu/handle_cache.hpp,
// cpu::handles::blocks): size classes, reuse, the list's limits, and the blocks a thread leaves
// when it ends. Runs in fresh threads, so blocks kept by earlier tests do not count.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <new>
#include <set>
#include <string_view>
#include <thread>

#include "../backends/cpu/handle_cache.hpp"
#include "ivy/ivy.hpp"

// Live blocks from the replaceable operator new: the flush test checks that an ended thread
// leaves none behind. Every unaligned form is replaced (plain, nothrow, array, sized delete),
// so a block is always freed by the function family that made it, also under ASan, whose
// runtime brings its own versions of the forms a program leaves alone.
namespace {
std::atomic<long> g_live{0};
void* counted_alloc(std::size_t n) noexcept {
  void* p = std::malloc(n ? n : 1);
  if (p) g_live.fetch_add(1, std::memory_order_relaxed);
  return p;
}
void counted_free(void* p) noexcept {
  if (!p) return;
  g_live.fetch_sub(1, std::memory_order_relaxed);
  std::free(p);
}
}  // namespace
void* operator new(std::size_t n) {
  if (void* p = counted_alloc(n)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n) { return operator new(n); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept { return counted_alloc(n); }
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept { return counted_alloc(n); }
void operator delete(void* p) noexcept { counted_free(p); }
void operator delete[](void* p) noexcept { counted_free(p); }
void operator delete(void* p, std::size_t) noexcept { counted_free(p); }
void operator delete[](void* p, std::size_t) noexcept { counted_free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { counted_free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { counted_free(p); }

namespace {

using ivy::cpu::handles::blocks::block_class;
using ivy::cpu::handles::blocks::kMaxBlock;

bool has_xtensor() {
  for (auto b : ivy::available_backends())
    if (std::string_view(b.name()) == "xtensor") return true;
  return false;
}
const void* data_of(const ivy::Array& a) { return ivy::get_backend("xtensor").impl()->data_ptr(a); }
ivy::Array floats(std::int64_t n, float v) { return ivy::full({n}, v, ivy::float32, {}, "xtensor"); }
template <class F>
void in_fresh_thread(F f) {
  std::thread t(f);
  t.join();
}

TEST(BlockCache, SizeClasses) {
  // hand-computed: an eighth of the power of two at or below n, 64 below 1 KiB
  EXPECT_EQ(block_class(1), 64u);
  EXPECT_EQ(block_class(64), 64u);
  EXPECT_EQ(block_class(65), 128u);
  EXPECT_EQ(block_class(1023), 1024u);
  EXPECT_EQ(block_class(1024), 1024u);
  EXPECT_EQ(block_class(1025), 1152u);
  EXPECT_EQ(block_class(40263), 40960u);  // a 1e4-element float32 result with its handle
  EXPECT_EQ(block_class(900263), 917504u);
  for (std::size_t n = 1; n <= kMaxBlock; n += 1 + n / 97) {
    const std::size_t c = block_class(n);
    ASSERT_GE(c, n) << n;
    ASSERT_LE(c - n, std::max<std::size_t>(64, n / 8)) << n;  // at most 12.5 % (or 64 bytes) more
    ASSERT_EQ(c % 64, 0u) << n;
    ASSERT_EQ(block_class(c), c) << n;  // a class is its own class
  }
}

TEST(BlockCache, AFreedResultBlockServesTheNextResultOfItsClass) {
  if (!has_xtensor()) GTEST_SKIP();
  in_fresh_thread([] {
    const void* p;
    {
      auto a = floats(10000, 7.0f);
      p = data_of(a);
    }
    // zeros writes every element of the recycled block, which still holds the sevens
    auto z = ivy::zeros({10000}, ivy::float32, {}, "xtensor");
    EXPECT_EQ(data_of(z), p);
    const auto v = z.to_vector<float>();
    EXPECT_EQ(std::count(v.begin(), v.end(), 0.0f), 10000);
    // an element-wise kernel's result takes the block freed last, which held -1s
    const void* q;
    {
      auto b = floats(10000, -1.0f);
      q = data_of(b);
    }
    auto s = ivy::add(z, z);
    EXPECT_EQ(data_of(s), q);
    const auto w = s.to_vector<float>();
    EXPECT_EQ(std::count(w.begin(), w.end(), 0.0f), 10000);
  });
}

// In a fresh thread: frees `made` results of n elements (first to last), then makes `kept`
// more, which must be exactly the first `kept` freed blocks (the rest went to the heap).
void expect_kept(std::int64_t n, int made, int kept) {
  in_fresh_thread([=] {
    std::vector<const void*> freed;
    {
      std::vector<ivy::Array> v;
      for (int i = 0; i < made; ++i) v.push_back(floats(n, 1.0f));
      for (auto& a : v) freed.push_back(data_of(a));
    }
    std::vector<ivy::Array> again;
    for (int i = 0; i < kept; ++i) again.push_back(floats(n, 2.0f));
    std::set<const void*> want(freed.begin(), freed.begin() + kept), got;
    for (auto& a : again) got.insert(data_of(a));
    EXPECT_EQ(got, want) << n << " elements, " << made << " freed";
  });
}

TEST(BlockCache, KeepsAtMostEightBlocksAThread) {
  if (!has_xtensor()) GTEST_SKIP();
  expect_kept(10000, 9, 8);  // 40,960-byte blocks: the slots run out first
}

TEST(BlockCache, KeepsAtMostFourMiBAThread) {
  if (!has_xtensor()) GTEST_SKIP();
  // 225,000 float32 elements: 900,000 bytes, a 917,504-byte block; four fit in 4 MiB
  expect_kept(225000, 5, 4);
}

TEST(BlockCache, AnEndedThreadLeavesNoBlockBehind) {
  if (!has_xtensor()) GTEST_SKIP();
  auto work = [] {
    for (std::int64_t n : {30, 100, 10000, 50000, 225000}) {
      auto a = floats(n, 1.0f);
      auto b = ivy::multiply(a, a);
      auto c = ivy::sum(b);
      EXPECT_EQ(c.to_vector<float>()[0], static_cast<float>(n));
    }
  };
  in_fresh_thread(work);  // first use of the lists in a thread: sets up what a thread keeps
  const long before = g_live.load();
  in_fresh_thread(work);
  EXPECT_EQ(g_live.load(), before);
}

}  // namespace

#include <gtest/gtest.h>

#include "ivy/ivy.hpp"

TEST(Smoke, AddOnEveryBackend) {
  for (auto b : ivy::available_backends()) {
    ivy::BackendScope s(b);
    auto x = ivy::asarray({1.0f, 2.0f, 3.0f});
    auto y = x + 1.5;
    EXPECT_EQ(y.dtype(), ivy::float32);
    EXPECT_EQ(y.to_vector<float>(), (std::vector<float>{2.5f, 3.5f, 4.5f})) << b;
  }
}

// Generated fused kernels (src/trace/codegen.cpp): every fusible operation and dtype compiled
// into generated code gives eager's bits on the xtensor backend (NaN, infinities, zeros of both
// signs, subnormals and integer extremes included), for full, broadcast and scalar operands;
// the kernel cache is private, reused and bounded; a missing compiler falls back with one
// warning; IVY_COMPILE_CODEGEN=0 and CompileOptions turn it off.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "ivy/compile.hpp"
#include "ivy/ivy.hpp"
#include "ivy/log.hpp"
#include "trace/codegen.hpp"

namespace {
using ivy::Array;
using ivy::DType;
namespace fs = std::filesystem;

bool same_bits(const Array& a, const Array& b) {
  if (a.dtype() != b.dtype() || !(a.shape() == b.shape())) return false;
  auto x = a, y = ivy::to_backend(b, a.backend());
  if (a.dtype() == ivy::float64) {
    auto u = x.to_vector<double>(), v = y.to_vector<double>();
    return std::memcmp(u.data(), v.data(), u.size() * sizeof(double)) == 0;
  }
  if (a.dtype() == ivy::float32) {
    auto u = x.to_vector<float>(), v = y.to_vector<float>();
    return std::memcmp(u.data(), v.data(), u.size() * sizeof(float)) == 0;
  }
  return ivy::array_equal(x, y);
}

// Equal bits but where both operands are NaN and both results NaN: which operand's NaN an
// addition or multiplication returns depends on the order the compiler gave the commutative
// operands (IEEE 754 leaves it open), in eager loops as in generated ones.
bool same_but_nan_of_two_nans(const Array& a, const Array& b, const Array& x, const Array& y) {
  if (!ivy::is_real_floating(a.dtype()) || a.dtype() != b.dtype() || !(a.shape() == b.shape())) return false;
  auto u = ivy::astype(a, ivy::float64).to_vector<double>(), v = ivy::astype(b, ivy::float64).to_vector<double>();
  auto p = ivy::astype(x, ivy::float64).to_vector<double>(), q = ivy::astype(y, ivy::float64).to_vector<double>();
  for (std::size_t i = 0; i < u.size(); ++i) {
    if (std::memcmp(&u[i], &v[i], sizeof(double)) == 0) continue;
    if (!(std::isnan(u[i]) && std::isnan(v[i]) && std::isnan(p[i]) && std::isnan(q[i]))) return false;
  }
  return true;
}

// Where two float arrays differ first, with the operands there (for the failure message).
std::string first_difference(const Array& a, const Array& b, const Array& x, const Array& y) {
  if (!ivy::is_real_floating(a.dtype()) || a.dtype() != b.dtype()) return "";
  auto u = ivy::astype(a, ivy::float64).to_vector<double>(), v = ivy::astype(b, ivy::float64).to_vector<double>();
  auto p = ivy::astype(x, ivy::float64).to_vector<double>(), q = ivy::astype(y, ivy::float64).to_vector<double>();
  for (std::size_t i = 0; i < u.size() && i < v.size(); ++i)
    if (std::memcmp(&u[i], &v[i], sizeof(double)) != 0) {
      std::ostringstream os;
      os << ": element " << i << " compiled " << u[i] << " eager " << v[i] << " (operands " << p[i] << ", " << q[i] << ")";
      return os.str();
    }
  return "";
}

// An environment variable set for one scope.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::string& value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old, had_ = true;
    ::setenv(name, value.c_str(), 1);
  }
  ~ScopedEnv() {
    if (had_) ::setenv(name_, old_.c_str(), 1);
    else ::unsetenv(name_);
  }

 private:
  const char* name_;
  std::string old_;
  bool had_ = false;
};

// Counts the warnings logged while it lives.
class WarningCounter {
 public:
  WarningCounter() {
    previous_ = ivy::set_log_handler([this](ivy::LogLevel l, const std::string& m) {
      if (l == ivy::LogLevel::warning) ++count, last = m;
    });
  }
  ~WarningCounter() { ivy::set_log_handler(previous_); }
  int count = 0;
  std::string last;

 private:
  ivy::LogHandler previous_;
};

// The values every operation sees: signed zeros, NaN, infinities, subnormals, rounding ties,
// the edges of exp's range, large arguments of the trigonometric functions, and random ones.
template <class T>
std::vector<T> special_values() {
  using L = std::numeric_limits<T>;
  std::vector<T> v = {T(0), -T(0), T(1), T(-1), T(0.5), T(-0.5), T(1.5), T(2.5), T(-2.5), T(3), T(-7), T(0.999),
                      T(1e-3), T(100), T(-100), T(88.7), T(89), T(-104), T(710), T(-745), T(1e10), T(-1e10),
                      T(131073.5), T(3.14159265358979), L::infinity(), -L::infinity(), L::quiet_NaN(),
                      -L::quiet_NaN(), L::denorm_min(), -L::denorm_min(), L::min() / T(4), L::min(), L::max(),
                      L::lowest(), L::epsilon()};
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-6.0, 6.0);
  for (int i = 0; i < 29; ++i) v.push_back(static_cast<T>(u(rng)));
  return v;
}
template <class T>
std::vector<T> special_ints() {
  using L = std::numeric_limits<T>;
  std::vector<T> v = {T(0), T(1), T(-1), T(2), T(-2), T(3), T(7), T(-7), T(100), T(-100), T(12345), L::max(),
                      L::min(), T(L::max() - 1), T(L::min() + 1)};
  std::mt19937 rng(11);
  std::uniform_int_distribution<int> u(-1000, 1000);
  for (int i = 0; i < 17; ++i) v.push_back(static_cast<T>(u(rng)));
  return v;
}

// Every pair of the special values as two flat arrays of dtype dt (the cross product).
std::pair<Array, Array> pairs(DType dt) {
  auto make = [&](auto tag) {
    using T = decltype(tag);
    std::vector<T> x, y;
    if constexpr (std::is_same_v<T, bool>) {
      for (bool a : {false, true})
        for (bool b : {false, true}) x.push_back(a), y.push_back(b);
    } else {
      std::vector<T> base;
      if constexpr (std::is_floating_point_v<T>) base = special_values<T>();
      else base = special_ints<T>();
      for (T a : base)
        for (T b : base) x.push_back(a), y.push_back(b);
    }
    const std::int64_t n = static_cast<std::int64_t>(x.size());
    return std::pair{ivy::asarray(x, ivy::Shape{n}), ivy::asarray(y, ivy::Shape{n})};
  };
  switch (dt) {
    case DType::float32: return make(float{});
    case DType::float64: return make(double{});
    case DType::int32: return make(std::int32_t{});
    case DType::int64: return make(std::int64_t{});
    default: return make(bool{});
  }
}

using Unary = std::function<Array(const Array&)>;
using Binary = std::function<Array(const Array&, const Array&)>;
struct Op1 {
  const char* name;
  Unary f;
};
struct Op2 {
  const char* name;
  Binary f;
};

// The fusible operations for operands of dtype dt (fusion::fusible's cover).
std::vector<Op1> unary_ops(DType dt) {
  std::vector<Op1> v = {{"isnan", [](const Array& x) { return ivy::isnan(x); }},
                        {"isinf", [](const Array& x) { return ivy::isinf(x); }},
                        {"isfinite", [](const Array& x) { return ivy::isfinite(x); }},
                        {"signbit", [](const Array& x) { return ivy::signbit(x); }}};
  if (dt == DType::bool_) {
    v = {{"logical_not", [](const Array& x) { return ivy::logical_not(x); }},
         {"bitwise_invert", [](const Array& x) { return ivy::bitwise_invert(x); }}};
    return v;
  }
  for (Op1 o : std::vector<Op1>{{"abs", [](const Array& x) { return ivy::abs(x); }},
                                {"negative", [](const Array& x) { return ivy::negative(x); }},
                                {"square", [](const Array& x) { return ivy::square(x); }},
                                {"floor", [](const Array& x) { return ivy::floor(x); }},
                                {"ceil", [](const Array& x) { return ivy::ceil(x); }},
                                {"trunc", [](const Array& x) { return ivy::trunc(x); }},
                                {"round", [](const Array& x) { return ivy::round(x); }}})
    v.push_back(o);
  if (!ivy::is_real_floating(dt)) {
    v.push_back({"bitwise_invert", [](const Array& x) { return ivy::bitwise_invert(x); }});
    v.push_back({"astype_float64", [](const Array& x) { return ivy::astype(x, ivy::float64); }});
    v.push_back({"astype_float32", [](const Array& x) { return ivy::astype(x, ivy::float32); }});
    v.push_back({"astype_bool", [](const Array& x) { return ivy::astype(x, ivy::bool_); }});
    return v;
  }
  for (Op1 o : std::vector<Op1>{
           {"sqrt", [](const Array& x) { return ivy::sqrt(x); }}, {"reciprocal", [](const Array& x) { return ivy::reciprocal(x); }},
           {"exp", [](const Array& x) { return ivy::exp(x); }}, {"expm1", [](const Array& x) { return ivy::expm1(x); }},
           {"log", [](const Array& x) { return ivy::log(x); }}, {"log1p", [](const Array& x) { return ivy::log1p(x); }},
           {"log2", [](const Array& x) { return ivy::log2(x); }}, {"log10", [](const Array& x) { return ivy::log10(x); }},
           {"sin", [](const Array& x) { return ivy::sin(x); }}, {"cos", [](const Array& x) { return ivy::cos(x); }},
           {"tan", [](const Array& x) { return ivy::tan(x); }}, {"sinh", [](const Array& x) { return ivy::sinh(x); }},
           {"cosh", [](const Array& x) { return ivy::cosh(x); }}, {"tanh", [](const Array& x) { return ivy::tanh(x); }},
           {"asin", [](const Array& x) { return ivy::asin(x); }}, {"acos", [](const Array& x) { return ivy::acos(x); }},
           {"atan", [](const Array& x) { return ivy::atan(x); }}, {"asinh", [](const Array& x) { return ivy::asinh(x); }},
           {"acosh", [](const Array& x) { return ivy::acosh(x); }}, {"atanh", [](const Array& x) { return ivy::atanh(x); }},
           {"astype_bool", [](const Array& x) { return ivy::astype(x, ivy::bool_); }},
           {"astype_other", [](const Array& x) {
              return ivy::astype(x, x.dtype() == ivy::float32 ? ivy::float64 : ivy::float32);
            }}})
    v.push_back(o);
  return v;
}
std::vector<Op2> binary_ops(DType dt) {
  std::vector<Op2> v = {{"equal", [](const Array& a, const Array& b) { return ivy::equal(a, b); }},
                        {"not_equal", [](const Array& a, const Array& b) { return ivy::not_equal(a, b); }},
                        {"less", [](const Array& a, const Array& b) { return ivy::less(a, b); }},
                        {"less_equal", [](const Array& a, const Array& b) { return ivy::less_equal(a, b); }},
                        {"greater", [](const Array& a, const Array& b) { return ivy::greater(a, b); }},
                        {"greater_equal", [](const Array& a, const Array& b) { return ivy::greater_equal(a, b); }},
                        {"where", [](const Array& a, const Array& b) { return ivy::where(ivy::less(a, b), a, b); }}};
  if (dt == DType::bool_)  // ordering comparisons of bool are refused
    v = {{"equal", [](const Array& a, const Array& b) { return ivy::equal(a, b); }},
         {"not_equal", [](const Array& a, const Array& b) { return ivy::not_equal(a, b); }},
         {"where", [](const Array& a, const Array& b) { return ivy::where(a, b, ivy::logical_not(b)); }}};
  if (dt == DType::bool_ || !ivy::is_real_floating(dt))
    for (Op2 o : std::vector<Op2>{{"bitwise_and", [](const Array& a, const Array& b) { return ivy::bitwise_and(a, b); }},
                                  {"bitwise_or", [](const Array& a, const Array& b) { return ivy::bitwise_or(a, b); }},
                                  {"bitwise_xor", [](const Array& a, const Array& b) { return ivy::bitwise_xor(a, b); }}})
      v.push_back(o);
  if (dt == DType::bool_) {
    for (Op2 o : std::vector<Op2>{{"logical_and", [](const Array& a, const Array& b) { return ivy::logical_and(a, b); }},
                                  {"logical_or", [](const Array& a, const Array& b) { return ivy::logical_or(a, b); }},
                                  {"logical_xor", [](const Array& a, const Array& b) { return ivy::logical_xor(a, b); }}})
      v.push_back(o);
    return v;
  }
  for (Op2 o : std::vector<Op2>{{"add", [](const Array& a, const Array& b) { return ivy::add(a, b); }},
                                {"subtract", [](const Array& a, const Array& b) { return ivy::subtract(a, b); }},
                                {"multiply", [](const Array& a, const Array& b) { return ivy::multiply(a, b); }},
                                {"maximum", [](const Array& a, const Array& b) { return ivy::maximum(a, b); }},
                                {"minimum", [](const Array& a, const Array& b) { return ivy::minimum(a, b); }}})
    v.push_back(o);
  if (ivy::is_real_floating(dt))
    for (Op2 o : std::vector<Op2>{{"divide", [](const Array& a, const Array& b) { return ivy::divide(a, b); }},
                                  {"pow", [](const Array& a, const Array& b) { return ivy::pow(a, b); }},
                                  {"atan2", [](const Array& a, const Array& b) { return ivy::atan2(a, b); }},
                                  {"hypot", [](const Array& a, const Array& b) { return ivy::hypot(a, b); }},
                                  {"logaddexp", [](const Array& a, const Array& b) { return ivy::logaddexp(a, b); }},
                                  {"copysign", [](const Array& a, const Array& b) { return ivy::copysign(a, b); }}})
      v.push_back(o);
  return v;
}

// An identity that fuses: two negations (two logical nots for bool), the same bits.
Array twice_negated(const Array& x) {
  if (x.dtype() == DType::bool_) return ivy::logical_not(ivy::logical_not(x));
  return ivy::negative(ivy::negative(x));
}

class Codegen : public ::testing::Test {
 protected:
  void SetUp() override {
    bool found = false;
    for (auto b : ivy::available_backends()) found = found || b.name() == std::string("xtensor");
    if (!found) GTEST_SKIP() << "no xtensor backend";
    scope_ = std::make_unique<ivy::BackendScope>(ivy::Backend("xtensor"));
  }
  std::unique_ptr<ivy::BackendScope> scope_;
};

// Every operation of every dtype, each between identities in one fused group, all in one
// generated library per dtype: eager's bits.
TEST_F(Codegen, EveryOperationAndDTypeEqualsEagerBitForBit) {
  int cases = 0;
  for (DType dt : {DType::float32, DType::float64, DType::int32, DType::int64, DType::bool_}) {
    auto [x, y] = pairs(dt);
    const auto u = unary_ops(dt);
    const auto b = binary_ops(dt);
    auto f = [&](const std::vector<Array>& in) {
      const Array xs = twice_negated(in[0]), ys = twice_negated(in[1]);
      std::vector<Array> out;
      for (const auto& o : u) out.push_back(twice_negated(o.f(xs)));
      for (const auto& o : b) out.push_back(twice_negated(o.f(xs, ys)));
      return out;
    };
    ivy::CompiledFunction c(f);
    auto exe = c.executable({x, y});
    ASSERT_GE(exe->stats().generated_kernels, 1) << ivy::dtype_name(dt) << exe->plan_str();
    EXPECT_EQ(exe->stats().generated_kernels, exe->stats().fused_groups);
    auto got = exe->run({x, y});
    auto want = f({x, y});
    ASSERT_EQ(got.size(), u.size() + b.size());
    for (std::size_t k = 0; k < got.size(); ++k) {
      const char* name = k < u.size() ? u[k].name : b[k - u.size()].name;
      EXPECT_TRUE(same_bits(got[k], want[k]) || same_but_nan_of_two_nans(got[k], want[k], x, y))
          << ivy::dtype_name(dt) << " " << name << first_difference(got[k], want[k], x, y);
      ++cases;
    }
  }
  EXPECT_GE(cases, 150);
}

// Operands that broadcast (rows of 64 and more read in place, shorter ones gathered), one-element
// operands, and uniform values computed from them, with calls between the loops.
TEST_F(Codegen, BroadcastAndScalarOperandsEqualEager) {
  ivy::seed(3);
  for (DType dt : {DType::float32, DType::float64}) {
    for (std::int64_t cols : {5, 64, 130}) {
      auto a = ivy::astype(ivy::random_normal(0.0, 2.0, {7, 3, cols}), dt);
      auto row = ivy::astype(ivy::random_normal(0.0, 2.0, {cols}), dt);
      auto col = ivy::astype(ivy::random_normal(0.0, 2.0, {3, 1}), dt);
      auto s = ivy::astype(ivy::asarray(0.75), dt);
      auto f = [](const std::vector<Array>& v) {
        auto k = ivy::exp(v[3]) * 2.0;                     // uniform: computed once
        auto t = ivy::tanh(v[0] * v[1] + k) - v[2];        // a call between loops
        auto w = ivy::where(ivy::greater(t, v[1]), ivy::log1p(ivy::abs(t)), ivy::pow(t, v[3]));
        return std::vector<Array>{w, ivy::maximum(w, v[2]) * k, ivy::hypot(v[2], t)};
      };
      ivy::CompiledFunction c(f);
      auto exe = c.executable({a, row, col, s});
      EXPECT_GE(exe->stats().generated_kernels, 1) << exe->plan_str();
      auto got = exe->run({a, row, col, s});
      auto want = f({a, row, col, s});
      for (std::size_t k = 0; k < got.size(); ++k)
        EXPECT_TRUE(same_bits(got[k], want[k])) << ivy::dtype_name(dt) << " cols " << cols << " output " << k;
    }
  }
}

// Large outputs split over threads, empty and 0-d outputs, and an output written over its
// input's buffer.
TEST_F(Codegen, LargeEmptyAndZeroDimensional) {
  auto f = [](const std::vector<Array>& v) { return std::vector<Array>{ivy::sin(v[0]) * v[0] + 1.0f}; };
  for (const ivy::Shape& shape : {ivy::Shape{1 << 18}, ivy::Shape{0, 4}, ivy::Shape{}}) {
    auto x = ivy::random_normal(0.0, 1.0, shape, ivy::float32);
    ivy::CompiledFunction c(f);
    EXPECT_TRUE(same_bits(c({x})[0], f({x})[0])) << shape.str();
  }
  auto chain = [](const std::vector<Array>& v) {
    auto t = ivy::exp(v[0]) + 1.0f;  // t dies in the next group: its buffer may be taken
    auto m = ivy::sum(t);
    return std::vector<Array>{ivy::tanh(t * m) - t, m};
  };
  auto x = ivy::random_normal(0.0, 1.0, {1000}, ivy::float32);
  ivy::CompiledFunction c(chain);
  auto got = c({x});
  auto want = chain({x});
  EXPECT_TRUE(same_bits(got[0], want[0]));
}

// The cache directory is created private; a second compile of the same program loads the
// library from it; its size stays within IVY_COMPILE_CACHE_MB.
TEST_F(Codegen, CacheIsPrivateReusedAndBounded) {
  const fs::path dir = fs::temp_directory_path() / ("ivy-codegen-test-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  ScopedEnv cache("IVY_CACHE_DIR", (dir / "kernels").string());
  auto f = [](const std::vector<Array>& v) { return std::vector<Array>{ivy::cos(v[0]) * v[0] - 0.25}; };
  auto x = ivy::random_normal(0.0, 1.0, {100}, ivy::float64);
  {
    ivy::CompiledFunction c(f);
    auto exe = c.executable({x});
    EXPECT_EQ(exe->stats().generated_kernels, 1);
  }
  struct stat st;
  ASSERT_EQ(::stat((dir / "kernels").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700u);
  int libs = 0;
  for (const auto& e : fs::directory_iterator(dir / "kernels")) libs += e.path().extension() == ".so";
  EXPECT_EQ(libs, 1);
  {
    ivy::CompiledFunction c(f);
    auto exe = c.executable({x});
    EXPECT_EQ(exe->stats().generated_kernels, 1);
    EXPECT_TRUE(exe->stats().generated_cached);
    EXPECT_TRUE(same_bits(exe->run({x})[0], f({x})[0]));
  }
  // a directory other users may write is made private before use
  ::chmod((dir / "kernels").c_str(), 0777);
  {
    ivy::CompiledFunction c([](const std::vector<Array>& v) { return std::vector<Array>{ivy::sin(v[0]) * v[0] - 0.5}; });
    EXPECT_EQ(c.executable({x})->stats().generated_kernels, 1);
  }
  ASSERT_EQ(::stat((dir / "kernels").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700u);
  // a bound of 0 MiB: each new library prunes the older ones
  {
    ScopedEnv bound("IVY_COMPILE_CACHE_MB", "0");
    ivy::CompiledFunction c([](const std::vector<Array>& v) { return std::vector<Array>{ivy::tan(v[0]) * v[0] - 2.0}; });
    EXPECT_EQ(c.executable({x})->stats().generated_kernels, 1);
    libs = 0;
    for (const auto& e : fs::directory_iterator(dir / "kernels")) libs += e.path().extension() == ".so";
    EXPECT_LE(libs, 1);
  }
  fs::remove_all(dir);
}

// No compiler, a cache directory of another user, IVY_COMPILE_CODEGEN=0 and the option off:
// the interpreted loops, the same bits; a failure warns once.
TEST_F(Codegen, FallsBackWithOneWarning) {
  auto f = [](const std::vector<Array>& v) { return std::vector<Array>{ivy::exp(v[0]) * v[0] + 3.0}; };
  auto g = [](const std::vector<Array>& v) { return std::vector<Array>{ivy::log1p(v[0]) * v[0] + 3.0}; };
  auto x = ivy::random_normal(0.0, 1.0, {300}, ivy::float32);
  const fs::path dir = fs::temp_directory_path() / ("ivy-codegen-nocxx-" + std::to_string(::getpid()));
  {
    ScopedEnv cache("IVY_CACHE_DIR", dir.string());
    ScopedEnv cxx("IVY_CXX", "/nonexistent/c++");
    WarningCounter warnings;
    for (ivy::TracedFn fn : {ivy::TracedFn(f), ivy::TracedFn(g)}) {
      ivy::CompiledFunction c(fn);
      auto exe = c.executable({x});
      EXPECT_EQ(exe->stats().generated_kernels, 0);
      EXPECT_GE(exe->stats().fused_groups, 1);
      EXPECT_TRUE(same_bits(exe->run({x})[0], fn({x})[0]));
    }
    EXPECT_EQ(warnings.count, 1);
    EXPECT_NE(warnings.last.find("/nonexistent/c++"), std::string::npos) << warnings.last;
    EXPECT_EQ(warnings.last.rfind("[compile]", 0), 0u) << warnings.last;
  }
  fs::remove_all(dir);
  if (::geteuid() == 0) {  // a directory owned by another user is refused
    const fs::path theirs = fs::temp_directory_path() / ("ivy-codegen-theirs-" + std::to_string(::getpid()));
    fs::create_directories(theirs);
    ASSERT_EQ(::chown(theirs.c_str(), 65534, 65534), 0);
    ScopedEnv cache("IVY_CACHE_DIR", theirs.string());
    WarningCounter warnings;
    ivy::CompiledFunction c(f);
    EXPECT_EQ(c.executable({x})->stats().generated_kernels, 0);
    EXPECT_EQ(warnings.count, 1);
    EXPECT_NE(warnings.last.find("another user"), std::string::npos) << warnings.last;
    fs::remove_all(theirs);
  }
  {
    ScopedEnv off("IVY_COMPILE_CODEGEN", "0");
    ivy::CompiledFunction c(f);
    EXPECT_EQ(c.executable({x})->stats().generated_kernels, 0);
  }
  ivy::CompileOptions opt;
  opt.generate_code = false;
  ivy::CompiledFunction c(f, opt);
  auto exe = c.executable({x});
  EXPECT_EQ(exe->stats().generated_kernels, 0);
  EXPECT_TRUE(same_bits(exe->run({x})[0], f({x})[0]));
}

}  // namespace

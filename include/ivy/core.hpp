// ivy core types: errors, dtypes and type promotion, shapes, devices, scalars.
#pragma once

#include <array>
#include <complex>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <ostream>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace ivy {

// ---------------------------------------------------------------- errors
// Every message starts with "[op_name]".
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};
class TypeError : public Error {
 public:
  using Error::Error;
};
class ValueError : public Error {
 public:
  using Error::Error;
};
// A scalar that the array's dtype cannot represent (int8 array + 300): a ValueError, raised
// as Python's OverflowError by the bindings.
class OverflowError : public ValueError {
 public:
  using ValueError::ValueError;
};
class IndexError : public Error {
 public:
  using Error::Error;
};
class NotImplementedError : public Error {
 public:
  using Error::Error;
};

// ---------------------------------------------------------------- dtypes
enum class DType : std::uint8_t {
  bool_,
  int8,
  int16,
  int32,
  int64,
  uint8,
  uint16,
  uint32,
  uint64,
  float16,
  bfloat16,
  float32,
  float64,
  complex64,
  complex128,
};
inline constexpr int kNumDTypes = 15;

inline constexpr DType bool_ = DType::bool_;
inline constexpr DType int8 = DType::int8;
inline constexpr DType int16 = DType::int16;
inline constexpr DType int32 = DType::int32;
inline constexpr DType int64 = DType::int64;
inline constexpr DType uint8 = DType::uint8;
inline constexpr DType uint16 = DType::uint16;
inline constexpr DType uint32 = DType::uint32;
inline constexpr DType uint64 = DType::uint64;
inline constexpr DType float16 = DType::float16;
inline constexpr DType bfloat16 = DType::bfloat16;
inline constexpr DType float32 = DType::float32;
inline constexpr DType float64 = DType::float64;
inline constexpr DType complex64 = DType::complex64;
inline constexpr DType complex128 = DType::complex128;

const char* dtype_name(DType d);
DType dtype_from_name(std::string_view name);  // throws ValueError
std::ostream& operator<<(std::ostream& os, DType d);
namespace detail {
// At namespace scope: a table local to a constexpr function is not static (C++20), and GCC
// then builds it on the stack at each call whose dtype is not a constant (a store per entry,
// on every result allocation).
inline constexpr std::size_t kItemSizes[kNumDTypes] = {1, 1, 2, 4, 8, 1, 2, 4, 8, 2, 2, 4, 8, 8, 16};
}  // namespace detail
// Bytes per element (inline: every allocation and kernel prologue asks).
constexpr std::size_t itemsize(DType d) { return detail::kItemSizes[static_cast<int>(d)]; }
std::span<const DType> all_dtypes();

constexpr bool is_bool(DType d) { return d == DType::bool_; }
constexpr bool is_signed_int(DType d) { return d >= DType::int8 && d <= DType::int64; }
constexpr bool is_unsigned_int(DType d) { return d >= DType::uint8 && d <= DType::uint64; }
constexpr bool is_integer(DType d) { return d >= DType::int8 && d <= DType::uint64; }
constexpr bool is_real_floating(DType d) { return d >= DType::float16 && d <= DType::float64; }
constexpr bool is_complex(DType d) { return d == DType::complex64 || d == DType::complex128; }
constexpr bool is_floating(DType d) { return is_real_floating(d) || is_complex(d); }
constexpr bool is_numeric(DType d) { return d != DType::bool_; }
constexpr bool is_real(DType d) { return !is_complex(d) && d != DType::bool_; }

// Standard kinds for isdtype: "bool", "signed integer", "unsigned integer", "integral",
// "real floating", "complex floating", "numeric".
bool isdtype(DType d, std::string_view kind);
bool isdtype(DType d, std::initializer_list<std::string_view> kinds);

// Type promotion. Within a kind the Array API table is followed exactly. Across kinds
// (which the standard leaves to implementations) ivy chooses:
//   int/uint  + float     -> the float dtype (as LibTorch and JAX do)
//   int/uint  + complex   -> the complex dtype
//   float     + complex   -> complex wide enough for both
//   int64/uint64 combined -> float64 (as NumPy does)
//   float16   + bfloat16  -> float32
//   bool      + any other   -> the other dtype (as NumPy and LibTorch do)
DType result_type(DType a, DType b);
DType result_type(std::span<const DType> ds);
bool can_cast(DType from, DType to);

// Default dtypes (thread-local; float32 / int64 / complex64 by default, as in Ivy).
DType default_float_dtype();
DType default_int_dtype();
DType default_complex_dtype();
void set_default_float_dtype(DType d);
void set_default_int_dtype(DType d);
DType complex_of(DType real_float);   // float32 -> complex64, float64 -> complex128
DType real_of(DType complex_dtype);   // complex64 -> float32 ...

struct FInfo {
  int bits;
  double eps, max, min, smallest_normal;
  DType dtype;
};
struct IInfo {
  int bits;
  std::int64_t min;
  std::uint64_t max;
  DType dtype;
};
FInfo finfo(DType d);
IInfo iinfo(DType d);

template <class T> struct dtype_of;
template <> struct dtype_of<bool> { static constexpr DType value = DType::bool_; };
template <> struct dtype_of<std::int8_t> { static constexpr DType value = DType::int8; };
template <> struct dtype_of<std::int16_t> { static constexpr DType value = DType::int16; };
template <> struct dtype_of<std::int32_t> { static constexpr DType value = DType::int32; };
template <> struct dtype_of<std::int64_t> { static constexpr DType value = DType::int64; };
template <> struct dtype_of<long long> {
  static constexpr DType value = sizeof(long long) == 8 ? DType::int64 : DType::int32;
};
template <> struct dtype_of<std::uint8_t> { static constexpr DType value = DType::uint8; };
template <> struct dtype_of<std::uint16_t> { static constexpr DType value = DType::uint16; };
template <> struct dtype_of<std::uint32_t> { static constexpr DType value = DType::uint32; };
template <> struct dtype_of<std::uint64_t> { static constexpr DType value = DType::uint64; };
template <> struct dtype_of<unsigned long long> { static constexpr DType value = DType::uint64; };
template <> struct dtype_of<float> { static constexpr DType value = DType::float32; };
template <> struct dtype_of<double> { static constexpr DType value = DType::float64; };
template <> struct dtype_of<std::complex<float>> { static constexpr DType value = DType::complex64; };
template <> struct dtype_of<std::complex<double>> { static constexpr DType value = DType::complex128; };
template <class T> inline constexpr DType dtype_v = dtype_of<T>::value;

// ---------------------------------------------------------------- shapes
inline constexpr int kMaxRank = 32;

// A fixed-capacity list of int64 (shapes, axes, strides): no heap allocation.
class Dims {
 public:
  // User-provided on purpose: value-initialization (Dims{}, and Attrs{} with four Dims) then
  // runs this constructor instead of first zero-filling all kMaxRank entries (~100 stores
  // per Attrs{} on the dispatch hot path).
  constexpr Dims() noexcept {}
  // Copies only the used entries (a Dims is copied on every dispatch).
  Dims(const Dims& o) noexcept : n_(o.n_) {
    for (std::size_t i = 0; i < n_; ++i) v_[i] = o.v_[i];
  }
  Dims& operator=(const Dims& o) noexcept {
    n_ = o.n_;
    for (std::size_t i = 0; i < n_; ++i) v_[i] = o.v_[i];
    return *this;
  }
  // inline: shapes and one-entry shift lists are built from braces on hot paths
  Dims(std::initializer_list<std::int64_t> v) : Dims(std::span<const std::int64_t>(v.begin(), v.size())) {}
  explicit Dims(std::span<const std::int64_t> v) : n_(v.size()) {  // inline: every array handle copies its shape
    if (n_ > static_cast<std::size_t>(kMaxRank)) rank_overflow(n_);
    for (std::size_t i = 0; i < n_; ++i) v_[i] = v[i];
  }
  template <class It>
  Dims(It first, It last) {
    for (; first != last; ++first) push_back(static_cast<std::int64_t>(*first));
  }
  std::size_t size() const { return n_; }
  bool empty() const { return n_ == 0; }
  std::int64_t& operator[](std::size_t i) { return v_[i]; }
  std::int64_t operator[](std::size_t i) const { return v_[i]; }
  std::int64_t* data() { return v_.data(); }
  const std::int64_t* data() const { return v_.data(); }
  std::int64_t* begin() { return v_.data(); }
  std::int64_t* end() { return v_.data() + n_; }
  const std::int64_t* begin() const { return v_.data(); }
  const std::int64_t* end() const { return v_.data() + n_; }
  std::int64_t back() const { return v_[n_ - 1]; }
  void push_back(std::int64_t x) {  // inline, as numel: shape inference calls both per dispatch
    if (n_ >= static_cast<std::size_t>(kMaxRank)) rank_overflow(n_ + 1);
    v_[n_++] = x;
  }
  void pop_back() { --n_; }
  void resize(std::size_t n, std::int64_t fill = 0);
  void insert(std::size_t pos, std::int64_t x);
  void erase(std::size_t pos);
  void clear() { n_ = 0; }
  std::int64_t numel() const {  // product (1 for rank 0)
    std::int64_t p = 1;
    for (std::size_t i = 0; i < n_; ++i) p *= v_[i];
    return p;
  }
  std::vector<std::int64_t> vec() const { return {begin(), end()}; }
  std::span<const std::int64_t> span() const { return {v_.data(), n_}; }
  friend bool operator==(const Dims& a, const Dims& b) {
    if (a.n_ != b.n_) return false;
    for (std::size_t i = 0; i < a.n_; ++i)
      if (a.v_[i] != b.v_[i]) return false;
    return true;
  }
  std::string str() const;  // "(2, 3)"

 private:
  [[noreturn]] static void rank_overflow(std::size_t n);
  // Not zero-filled: only the first n_ entries are meaningful (keeps construction cheap on
  // the dispatch hot path).
  std::array<std::int64_t, kMaxRank> v_;
  std::size_t n_ = 0;
};
using Shape = Dims;
std::ostream& operator<<(std::ostream& os, const Dims& s);

// Normalize a possibly negative axis against rank; throws IndexError naming op.
std::int64_t normalize_axis(std::int64_t axis, std::int64_t rank, const char* op);
// How many elements a normalized slice selects (Python's rules; step != 0).
constexpr std::int64_t slice_length(std::int64_t start, std::int64_t stop, std::int64_t step) {
  return step > 0 ? (stop > start ? (stop - start + step - 1) / step : 0)
                  : (start > stop ? (start - stop - step - 1) / (-step) : 0);
}
// Broadcast two shapes per the standard; throws ValueError naming op and both shapes.
Shape broadcast_shapes(const Shape& a, const Shape& b, const char* op = "broadcast_shapes");
Shape broadcast_shapes(std::span<const Shape> shapes);

// ---------------------------------------------------------------- devices
struct Device {
  enum Kind : std::uint8_t { cpu, cuda };
  Kind kind = cpu;
  std::int16_t index = 0;
  static Device parse(std::string_view s);  // "cpu", "cuda", "cuda:1"
  std::string str() const;
  friend bool operator==(const Device&, const Device&) = default;
};
std::ostream& operator<<(std::ostream& os, const Device& d);
inline const Device kCPU{};

// ---------------------------------------------------------------- scalars
// A host scalar as the standard's Python scalars: bool, int, float or complex.
struct Scalar {
  enum Kind : std::uint8_t { Bool, Int, Float, Complex };
  Kind kind = Int;
  bool b = false;
  std::int64_t i = 0;
  double d = 0;
  std::complex<double> c{};

  Scalar() = default;
  // A double's integer part as int64: NaN is 0, values beyond int64's range saturate (a plain
  // cast of those is undefined behaviour).
  static constexpr std::int64_t saturating_int(double v) {
    if (v != v) return 0;
    if (v >= 9223372036854775807.0) return INT64_MAX;
    if (v <= -9223372036854775808.0) return INT64_MIN;
    return static_cast<std::int64_t>(v);
  }
  Scalar(bool v) : kind(Bool), b(v), i(v), d(v), c(v) {}
  template <class T>
    requires(std::is_integral_v<T> && !std::is_same_v<T, bool>)
  Scalar(T v) : kind(Int), b(v != 0), i(static_cast<std::int64_t>(v)), d(static_cast<double>(v)), c(static_cast<double>(v)) {}
  template <class T>
    requires std::is_floating_point_v<T>
  Scalar(T v) : kind(Float), b(v != 0), i(saturating_int(static_cast<double>(v))), d(static_cast<double>(v)), c(static_cast<double>(v)) {}
  template <class T>
  Scalar(std::complex<T> v) : kind(Complex), b(v != std::complex<T>{}), i(saturating_int(static_cast<double>(v.real()))), d(v.real()), c(v) {}
  std::string str() const;
  friend bool operator==(const Scalar& a, const Scalar& b) { return a.kind == b.kind && a.c == b.c && a.i == b.i; }
};

// The dtype of `array op scalar`, following the standard's rules for Python scalars: the
// scalar takes the array's dtype when its kind fits (2.0 + float32 array -> float32).
// Across kinds ivy's choice: int/bool array with float scalar -> default_float_dtype();
// real array with complex scalar -> the complex dtype of the array's precision (or
// default_complex_dtype() for int arrays); bool array with int scalar -> default_int_dtype().
DType scalar_result_type(DType arr, const Scalar& s, const char* op);

}  // namespace ivy

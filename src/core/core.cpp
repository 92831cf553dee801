#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <sstream>

#include "ivy/core.hpp"


namespace ivy {

namespace {
constexpr const char* kNames[kNumDTypes] = {"bool",    "int8",     "int16",   "int32",   "int64",
                                            "uint8",   "uint16",   "uint32",  "uint64",  "float16",
                                            "bfloat16", "float32", "float64", "complex64", "complex128"};
constexpr DType kAll[kNumDTypes] = {bool_,  int8,    int16,    int32,   int64,   uint8,     uint16,    uint32,
                                    uint64, float16, bfloat16, float32, float64, complex64, complex128};
int bits_of(DType d) { return static_cast<int>(itemsize(d) * 8); }

thread_local DType tl_default_float = DType::float32;
thread_local DType tl_default_int = DType::int64;
}  // namespace

const char* dtype_name(DType d) {
  auto i = static_cast<int>(d);
  return (i >= 0 && i < kNumDTypes) ? kNames[i] : "invalid";
}
DType dtype_from_name(std::string_view name) {
  for (int i = 0; i < kNumDTypes; ++i)
    if (name == kNames[i]) return kAll[i];
  if (name == "bool_") return bool_;
  throw ValueError("[dtype] unknown dtype name '" + std::string(name) + "'");
}
std::ostream& operator<<(std::ostream& os, DType d) { return os << dtype_name(d); }
std::span<const DType> all_dtypes() { return {kAll, kNumDTypes}; }

bool isdtype(DType d, std::string_view kind) {
  if (kind == "bool") return is_bool(d);
  if (kind == "signed integer") return is_signed_int(d);
  if (kind == "unsigned integer") return is_unsigned_int(d);
  if (kind == "integral") return is_integer(d);
  if (kind == "real floating") return is_real_floating(d);
  if (kind == "complex floating") return is_complex(d);
  if (kind == "numeric") return is_numeric(d);
  for (DType x : kAll)
    if (kind == dtype_name(x)) return d == x;
  throw ValueError("[isdtype] unknown kind '" + std::string(kind) +
                   "'; expected a dtype name or one of bool, signed integer, unsigned integer, integral, real "
                   "floating, complex floating, numeric");
}
bool isdtype(DType d, std::initializer_list<std::string_view> kinds) {
  for (auto k : kinds)
    if (isdtype(d, k)) return true;
  return false;
}

DType complex_of(DType f) {
  if (is_complex(f)) return f;
  return f == DType::float64 ? DType::complex128 : DType::complex64;
}
DType real_of(DType c) {
  if (c == DType::complex64) return DType::float32;
  if (c == DType::complex128) return DType::float64;
  return c;
}

namespace {
DType promote_float(DType a, DType b) {
  if (a == b) return a;
  if ((a == float16 && b == bfloat16) || (a == bfloat16 && b == float16)) return float32;
  return bits_of(a) >= bits_of(b) ? a : b;
}
DType float_precision(DType d) { return is_complex(d) ? real_of(d) : d; }
}  // namespace

DType result_type(DType a, DType b) {
  if (a == b) return a;
  if (is_bool(a)) return b;
  if (is_bool(b)) return a;
  if (is_integer(a) && is_integer(b)) {
    bool sa = is_signed_int(a), sb = is_signed_int(b);
    if (sa == sb) return bits_of(a) >= bits_of(b) ? a : b;
    DType s = sa ? a : b, u = sa ? b : a;
    if (u == uint64) return float64;
    int need = std::max(bits_of(s), 2 * bits_of(u));
    switch (need) {
      case 8: return int8;
      case 16: return int16;
      case 32: return int32;
      default: return int64;
    }
  }
  if (is_integer(a)) return b;  // b floating
  if (is_integer(b)) return a;
  // both floating
  if (!is_complex(a) && !is_complex(b)) return promote_float(a, b);
  DType p = promote_float(float_precision(a), float_precision(b));
  return p == float64 ? complex128 : complex64;
}
DType result_type(std::span<const DType> ds) {
  if (ds.empty()) throw ValueError("[result_type] needs at least one dtype");
  DType r = ds[0];
  for (std::size_t i = 1; i < ds.size(); ++i) r = result_type(r, ds[i]);
  return r;
}
bool can_cast(DType from, DType to) { return from == to || result_type(from, to) == to; }

DType default_float_dtype() { return tl_default_float; }
DType default_int_dtype() { return tl_default_int; }
DType default_complex_dtype() { return complex_of(tl_default_float); }
void set_default_float_dtype(DType d) {
  if (d != float32 && d != float64)
    throw ValueError(std::string("[set_default_float_dtype] expected float32 or float64, got ") + dtype_name(d));
  tl_default_float = d;
}
void set_default_int_dtype(DType d) {
  if (d != int32 && d != int64)
    throw ValueError(std::string("[set_default_int_dtype] expected int32 or int64, got ") + dtype_name(d));
  tl_default_int = d;
}

FInfo finfo(DType d) {
  switch (d) {
    case float16: return {16, 0.0009765625, 65504.0, -65504.0, 6.103515625e-05, float16};
    case bfloat16: return {16, 0.0078125, 3.3895313892515355e38, -3.3895313892515355e38, 1.1754943508222875e-38, bfloat16};
    case float32:
    case complex64: {
      using L = std::numeric_limits<float>;
      return {32, L::epsilon(), L::max(), -L::max(), L::min(), float32};
    }
    case float64:
    case complex128: {
      using L = std::numeric_limits<double>;
      return {64, L::epsilon(), L::max(), -L::max(), L::min(), float64};
    }
    default: throw TypeError(std::string("[finfo] expected a floating-point dtype, got ") + dtype_name(d));
  }
}
IInfo iinfo(DType d) {
  switch (d) {
    case int8: return {8, -128, 127, int8};
    case int16: return {16, -32768, 32767, int16};
    case int32: return {32, std::numeric_limits<std::int32_t>::min(), 2147483647u, int32};
    case int64: return {64, std::numeric_limits<std::int64_t>::min(), 9223372036854775807ull, int64};
    case uint8: return {8, 0, 255, uint8};
    case uint16: return {16, 0, 65535, uint16};
    case uint32: return {32, 0, 4294967295ull, uint32};
    case uint64: return {64, 0, std::numeric_limits<std::uint64_t>::max(), uint64};
    default: throw TypeError(std::string("[iinfo] expected an integer dtype, got ") + dtype_name(d));
  }
}

// ---------------------------------------------------------------- Dims
void Dims::rank_overflow(std::size_t n) {
  throw ValueError("[shape] rank " + std::to_string(n) + " exceeds ivy's maximum of " + std::to_string(kMaxRank) +
                   " dimensions");
}
void Dims::resize(std::size_t n, std::int64_t fill) {
  if (n > static_cast<std::size_t>(kMaxRank)) rank_overflow(n);
  for (std::size_t i = n_; i < n; ++i) v_[i] = fill;
  n_ = n;
}
void Dims::insert(std::size_t pos, std::int64_t x) {
  push_back(0);
  for (std::size_t i = n_ - 1; i > pos; --i) v_[i] = v_[i - 1];
  v_[pos] = x;
}
void Dims::erase(std::size_t pos) {
  for (std::size_t i = pos; i + 1 < n_; ++i) v_[i] = v_[i + 1];
  --n_;
}
std::string Dims::str() const {
  std::string s = "(";
  for (std::size_t i = 0; i < n_; ++i) {
    if (i) s += ", ";
    s += std::to_string(v_[i]);
  }
  if (n_ == 1) s += ",";
  return s + ")";
}
std::ostream& operator<<(std::ostream& os, const Dims& s) { return os << s.str(); }

std::int64_t normalize_axis(std::int64_t axis, std::int64_t rank, const char* op) {
  if (axis < -rank || axis >= rank || rank == 0)
    throw IndexError("[" + std::string(op) + "] axis " + std::to_string(axis) + " is out of range for an array of rank " +
                     std::to_string(rank));
  return axis < 0 ? axis + rank : axis;
}

Shape broadcast_shapes(const Shape& a, const Shape& b, const char* op) {
  std::size_t n = std::max(a.size(), b.size());
  Shape r;
  r.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    std::int64_t da = i < n - a.size() ? 1 : a[i - (n - a.size())];
    std::int64_t db = i < n - b.size() ? 1 : b[i - (n - b.size())];
    if (da == db || db == 1)
      r[i] = da;
    else if (da == 1)
      r[i] = db;
    else
      throw ValueError("[" + std::string(op) + "] shapes " + a.str() + " and " + b.str() + " cannot be broadcast together");
  }
  return r;
}
Shape broadcast_shapes(std::span<const Shape> shapes) {
  Shape r;
  for (auto& s : shapes) r = broadcast_shapes(r, s);
  return r;
}

// ---------------------------------------------------------------- Device
Device Device::parse(std::string_view s) {
  if (s == "cpu") return {};
  if (s.substr(0, 4) == "cuda") {
    Device d{cuda, 0};
    if (s.size() > 5 && s[4] == ':') d.index = static_cast<std::int16_t>(std::stoi(std::string(s.substr(5))));
    else if (s.size() != 4) throw ValueError("[device] cannot parse device '" + std::string(s) + "'");
    return d;
  }
  throw ValueError("[device] unknown device '" + std::string(s) + "'; expected cpu or cuda[:N]");
}
std::string Device::str() const { return kind == cpu ? "cpu" : "cuda:" + std::to_string(index); }
std::ostream& operator<<(std::ostream& os, const Device& d) { return os << d.str(); }

// ---------------------------------------------------------------- Scalar
std::string Scalar::str() const {
  std::ostringstream os;
  switch (kind) {
    case Bool: os << (b ? "True" : "False"); break;
    case Int: os << i; break;
    case Float: os << d; break;
    case Complex: os << c.real() << (c.imag() >= 0 ? "+" : "") << c.imag() << "j"; break;
  }
  return os.str();
}

DType scalar_result_type(DType arr, const Scalar& s, const char* op) {
  switch (s.kind) {
    case Scalar::Bool: return arr;
    case Scalar::Int: return is_bool(arr) ? default_int_dtype() : arr;
    case Scalar::Float: return is_floating(arr) ? arr : default_float_dtype();
    case Scalar::Complex:
      if (is_complex(arr)) return arr;
      if (is_real_floating(arr)) return complex_of(arr == float64 ? float64 : float32);
      return default_complex_dtype();
  }
  throw TypeError(std::string("[") + op + "] bad scalar");
}

}  // namespace ivy

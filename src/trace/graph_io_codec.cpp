// Byte order, base64, half floats, and the schema's JSON forms of doubles, Scalars and int64
// (declared, with their contracts, in graph_io_codec.hpp).
#include "trace/graph_io_codec.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>

namespace ivy::graph_io_detail {

namespace {

constexpr char kB64Alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
// Alphabet character -> its 6-bit value; -1 for every other byte.
constexpr std::array<std::int8_t, 256> kB64Value = [] {
  std::array<std::int8_t, 256> t{};
  for (auto& v : t) v = -1;
  for (int i = 0; i < 64; ++i) t[static_cast<unsigned char>(kB64Alphabet[i])] = static_cast<std::int8_t>(i);
  return t;
}();

// The bits of the NaNs the schema writes as "nan" and "-nan".
constexpr std::uint64_t kQuietNaN = 0x7ff8000000000000ULL;
constexpr std::uint64_t kNegQuietNaN = 0xfff8000000000000ULL;

// The int64 that Scalar's constructors store for a floating value. For values outside int64
// (NaN, infinities, |v| >= 2^63) that conversion is undefined in C++ and yields INT64_MIN on
// x86-64; this gives INT64_MIN without performing it.
std::int64_t scalar_int_of(double v) {
  if (v >= -9223372036854775808.0 && v < 9223372036854775808.0) return static_cast<std::int64_t>(v);
  return std::numeric_limits<std::int64_t>::min();
}

}  // namespace

// ---------------------------------------------------------------- base64

std::string base64_encode(const unsigned char* p, std::size_t n) {
  std::string out;
  out.reserve((n + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 3 <= n; i += 3) {
    const std::uint32_t v = (std::uint32_t{p[i]} << 16) | (std::uint32_t{p[i + 1]} << 8) | p[i + 2];
    for (int s = 18; s >= 0; s -= 6) out.push_back(kB64Alphabet[(v >> s) & 63]);
  }
  if (n - i == 1) {
    const std::uint32_t v = std::uint32_t{p[i]} << 16;
    out.push_back(kB64Alphabet[(v >> 18) & 63]);
    out.push_back(kB64Alphabet[(v >> 12) & 63]);
    out.append("==");
  } else if (n - i == 2) {
    const std::uint32_t v = (std::uint32_t{p[i]} << 16) | (std::uint32_t{p[i + 1]} << 8);
    out.push_back(kB64Alphabet[(v >> 18) & 63]);
    out.push_back(kB64Alphabet[(v >> 12) & 63]);
    out.push_back(kB64Alphabet[(v >> 6) & 63]);
    out.push_back('=');
  }
  return out;
}

std::string base64_decode(std::string_view s, std::vector<unsigned char>& out) {
  out.clear();
  if (s.size() % 4 != 0) return "its length " + std::to_string(s.size()) + " is not a multiple of 4";
  std::size_t pad = 0;
  if (!s.empty() && s.back() == '=') pad = s.size() >= 2 && s[s.size() - 2] == '=' ? 2 : 1;
  out.reserve(s.size() / 4 * 3);
  for (std::size_t i = 0; i < s.size(); i += 4) {
    const bool last = i + 4 == s.size();
    std::uint32_t v = 0;
    for (std::size_t k = 0; k < 4; ++k) {
      const unsigned char ch = static_cast<unsigned char>(s[i + k]);
      if (last && k >= 4 - pad) continue;  // a padding character, checked above
      const int x = kB64Value[ch];
      if (x < 0) {
        std::ostringstream why;
        why << "character " << (i + k) << " (code " << static_cast<int>(ch) << ") is not base64";
        return why.str();
      }
      v |= static_cast<std::uint32_t>(x) << (18 - 6 * k);
    }
    const std::size_t bytes = last ? 3 - pad : 3;
    if (last && (v & ((1u << (8 * (3 - bytes))) - 1)) != 0) return "the padding bits of its last group are not zero";
    for (std::size_t k = 0; k < bytes; ++k) out.push_back(static_cast<unsigned char>((v >> (16 - 8 * k)) & 0xFF));
  }
  return {};
}

float half_to_float(std::uint16_t h) {
  const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000) << 16;
  const std::uint32_t exp = (h >> 10) & 0x1F, man = h & 0x3FF;
  if (exp == 0) {  // zero or subnormal: man * 2^-24
    const float v = std::ldexp(static_cast<float>(man), -24);
    return sign ? -v : v;
  }
  if (exp == 31) return std::bit_cast<float>(sign | 0x7F800000u | (man << 13));
  return std::bit_cast<float>(sign | ((exp + 112) << 23) | (man << 13));
}

// ---------------------------------------------------------------- doubles and scalars

ojson double_to_json(double v) {
  if (std::isfinite(v)) return ojson(v);
  if (std::isinf(v)) return ojson(v > 0 ? "inf" : "-inf");
  const auto bits = std::bit_cast<std::uint64_t>(v);
  if (bits == kQuietNaN) return ojson("nan");
  if (bits == kNegQuietNaN) return ojson("-nan");
  char buf[32];
  std::snprintf(buf, sizeof buf, "nan:0x%016llx", static_cast<unsigned long long>(bits));
  return ojson(buf);
}

bool json_to_double(const ojson& j, double& out) {
  if (j.is_number_float()) {
    out = j.get<double>();
    return std::isfinite(out);
  }
  if (j.is_number_unsigned()) {
    out = static_cast<double>(j.get<std::uint64_t>());
    return true;
  }
  if (j.is_number_integer()) {
    out = static_cast<double>(j.get<std::int64_t>());
    return true;
  }
  if (!j.is_string()) return false;
  const std::string& s = j.get_ref<const std::string&>();
  if (s == "inf" || s == "-inf") {
    out = s == "inf" ? std::numeric_limits<double>::infinity() : -std::numeric_limits<double>::infinity();
    return true;
  }
  if (s == "nan" || s == "-nan") {
    out = std::bit_cast<double>(s == "nan" ? kQuietNaN : kNegQuietNaN);
    return true;
  }
  // "nan:0x" and exactly 16 hex digits whose bits are a NaN
  if (s.size() != 22 || s.compare(0, 6, "nan:0x") != 0) return false;
  std::uint64_t bits = 0;
  for (std::size_t i = 6; i < s.size(); ++i) {
    const char c = s[i];
    int x = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
    if (x < 0) return false;
    bits = (bits << 4) | static_cast<std::uint64_t>(x);
  }
  out = std::bit_cast<double>(bits);
  return std::isnan(out);
}

Scalar float_scalar(double v) {
  Scalar s;
  s.kind = Scalar::Float;
  s.b = v != 0;
  s.i = scalar_int_of(v);
  s.d = v;
  s.c = v;
  return s;
}
Scalar complex_scalar(std::complex<double> v) {
  Scalar s;
  s.kind = Scalar::Complex;
  s.b = v != std::complex<double>{};
  s.i = scalar_int_of(v.real());
  s.d = v.real();
  s.c = v;
  return s;
}

ojson scalar_to_json(const Scalar& s) {
  ojson o = ojson::object();
  switch (s.kind) {
    case Scalar::Bool: o["bool"] = s.b; break;
    case Scalar::Int:
      if (s.i < 0 && !(s.d < 0))
        o["int"] = static_cast<std::uint64_t>(s.i);
      else
        o["int"] = s.i;
      break;
    case Scalar::Float: o["float"] = double_to_json(s.d); break;
    case Scalar::Complex: o["complex"] = ojson::array({double_to_json(s.c.real()), double_to_json(s.c.imag())}); break;
  }
  return o;
}

bool json_to_int64(const ojson& j, std::int64_t& out) {
  if (j.is_number_unsigned()) {
    const auto u = j.get<std::uint64_t>();
    if (u > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) return false;
    out = static_cast<std::int64_t>(u);
    return true;
  }
  if (j.is_number_integer()) {
    out = j.get<std::int64_t>();
    return true;
  }
  return false;
}

}  // namespace ivy::graph_io_detail

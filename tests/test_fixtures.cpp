// Conformance value tests: every case of tests/fixtures/fixtures.json (written by
// tests/gen_fixtures.py from NumPy) is run on every backend that was built, one
// GoogleTest test per (backend, case). See gen_fixtures.py for the file format.
//
// Build with -DIVY_FIXTURES_DIR="\"/path/to/tests/fixtures\"".
#include <gtest/gtest.h>

#include <cctype>
#include <cmath>
#include <complex>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "ivy/ivy.hpp"
#include "fixture_file.hpp"

#ifndef IVY_FIXTURES_DIR
#error "define IVY_FIXTURES_DIR as the (quoted) folder that holds fixtures.json"
#endif

namespace {

using json = nlohmann::json;
using ivy::Array;
using Args = std::vector<Array>;
using Outs = std::vector<Array>;
using Fn = std::function<Outs(const Args&, const json&)>;

// ------------------------------------------------------------------ loading
const ivy::test_fixtures::Fixture& fixtures() {
  static const auto f =
      ivy::test_fixtures::load_fixture("fixtures.json", "gen_fixtures.py", ivy::test_fixtures::Layout::top_level_list);
  return f;
}

int num_cases() { return static_cast<int>(fixtures().doc.size()); }

std::vector<std::string> backend_names() {
  std::vector<std::string> names;
  for (ivy::Backend b : ivy::available_backends()) names.emplace_back(b.name());
  return names;
}

// ------------------------------------------------------------------ host arrays
double num(const json& v) {
  if (v.is_string()) {
    const auto& s = v.get_ref<const std::string&>();
    if (s == "nan") return std::numeric_limits<double>::quiet_NaN();
    if (s == "inf") return std::numeric_limits<double>::infinity();
    if (s == "-inf") return -std::numeric_limits<double>::infinity();
    throw std::invalid_argument("bad number in fixture: " + s);
  }
  return v.get<double>();
}

// Values of any dtype, widened: floating/complex in c, signed ints and bools in i,
// unsigned ints in u.
struct Host {
  ivy::DType dtype = ivy::float64;
  ivy::Shape shape;
  std::vector<std::complex<double>> c;
  std::vector<std::int64_t> i;
  std::vector<std::uint64_t> u;
};

enum class Kind { Bool, Signed, Unsigned, Floating };
Kind kind_of(ivy::DType d) {
  if (ivy::is_bool(d)) return Kind::Bool;
  if (ivy::is_signed_int(d)) return Kind::Signed;
  if (ivy::is_unsigned_int(d)) return Kind::Unsigned;
  return Kind::Floating;
}

ivy::Dims dims_of(const json& v) {
  std::vector<std::int64_t> t = v.get<std::vector<std::int64_t>>();
  return ivy::Dims(t.begin(), t.end());
}

Host decode(const json& spec) {
  Host h;
  h.dtype = ivy::dtype_from_name(spec.at("dtype").get<std::string>());
  h.shape = dims_of(spec.at("shape"));
  for (const json& v : spec.at("data")) {
    switch (kind_of(h.dtype)) {
      case Kind::Bool: h.i.push_back(v.get<bool>() ? 1 : 0); break;
      case Kind::Signed: h.i.push_back(v.get<std::int64_t>()); break;
      case Kind::Unsigned: h.u.push_back(v.get<std::uint64_t>()); break;
      case Kind::Floating:
        if (ivy::is_complex(h.dtype))
          h.c.emplace_back(num(v.at(0)), num(v.at(1)));
        else
          h.c.emplace_back(num(v), 0.0);
        break;
    }
  }
  return h;
}

template <class T>
void put(std::vector<unsigned char>& buf, T v) {
  unsigned char b[sizeof(T)];
  std::memcpy(b, &v, sizeof(T));
  buf.insert(buf.end(), b, b + sizeof(T));
}

// An ivy array on the current (scoped) backend. float16/bfloat16 data is passed as
// float32 and converted by asarray (fixture values are exactly representable).
Array to_ivy(const Host& h) {
  using ivy::DType;
  DType src = (h.dtype == DType::float16 || h.dtype == DType::bfloat16) ? DType::float32 : h.dtype;
  std::vector<unsigned char> buf;
  std::size_t n = static_cast<std::size_t>(h.shape.numel());
  for (std::size_t k = 0; k < n; ++k) {
    switch (src) {
      case DType::bool_: put<std::uint8_t>(buf, h.i[k] != 0); break;
      case DType::int8: put(buf, static_cast<std::int8_t>(h.i[k])); break;
      case DType::int16: put(buf, static_cast<std::int16_t>(h.i[k])); break;
      case DType::int32: put(buf, static_cast<std::int32_t>(h.i[k])); break;
      case DType::int64: put(buf, static_cast<std::int64_t>(h.i[k])); break;
      case DType::uint8: put(buf, static_cast<std::uint8_t>(h.u[k])); break;
      case DType::uint16: put(buf, static_cast<std::uint16_t>(h.u[k])); break;
      case DType::uint32: put(buf, static_cast<std::uint32_t>(h.u[k])); break;
      case DType::uint64: put(buf, static_cast<std::uint64_t>(h.u[k])); break;
      case DType::float32: put(buf, static_cast<float>(h.c[k].real())); break;
      case DType::float64: put(buf, h.c[k].real()); break;
      case DType::complex64: put(buf, std::complex<float>(h.c[k])); break;
      case DType::complex128: put(buf, h.c[k]); break;
      default: throw std::invalid_argument("unexpected fixture dtype");
    }
  }
  unsigned char dummy = 0;
  const void* p = buf.empty() ? static_cast<const void*>(&dummy) : buf.data();
  return ivy::asarray(p, src, h.shape, h.dtype);
}

template <class T>
T get(const std::vector<unsigned char>& buf, std::size_t k) {
  T v;
  std::memcpy(&v, buf.data() + k * sizeof(T), sizeof(T));
  return v;
}

Host from_ivy(const Array& x) {
  using ivy::DType;
  Host h;
  h.dtype = x.dtype();
  h.shape = x.shape();
  Array y = x;
  DType d = x.dtype();
  if (d == DType::float16 || d == DType::bfloat16) {
    y = ivy::astype(x, DType::float32);
    d = DType::float32;
  }
  std::size_t n = static_cast<std::size_t>(y.size());
  std::vector<unsigned char> buf(n * ivy::itemsize(d) + 16);
  ivy::copy_to_host(y, buf.data());
  for (std::size_t k = 0; k < n; ++k) {
    switch (d) {
      case DType::bool_: h.i.push_back(get<std::uint8_t>(buf, k) != 0); break;
      case DType::int8: h.i.push_back(get<std::int8_t>(buf, k)); break;
      case DType::int16: h.i.push_back(get<std::int16_t>(buf, k)); break;
      case DType::int32: h.i.push_back(get<std::int32_t>(buf, k)); break;
      case DType::int64: h.i.push_back(get<std::int64_t>(buf, k)); break;
      case DType::uint8: h.u.push_back(get<std::uint8_t>(buf, k)); break;
      case DType::uint16: h.u.push_back(get<std::uint16_t>(buf, k)); break;
      case DType::uint32: h.u.push_back(get<std::uint32_t>(buf, k)); break;
      case DType::uint64: h.u.push_back(get<std::uint64_t>(buf, k)); break;
      case DType::float32: h.c.emplace_back(get<float>(buf, k), 0.0); break;
      case DType::float64: h.c.emplace_back(get<double>(buf, k), 0.0); break;
      case DType::complex64: h.c.emplace_back(get<std::complex<float>>(buf, k)); break;
      case DType::complex128: h.c.emplace_back(get<std::complex<double>>(buf, k)); break;
      default: throw std::invalid_argument("unexpected result dtype");
    }
  }
  return h;
}

// ------------------------------------------------------------------ comparison
// Defaults by the expected dtype's precision: float64 and complex128 tight enough that a result
// computed in float32 (relative error ~1e-7) fails; float32 and the half types looser.
struct Check {
  double rtol = 1e-10, atol = 1e-12;
  bool zero_sign = false;
  bool values = true;
};

Check check_for(ivy::DType expected, const json& c) {
  Check k;
  ivy::DType r = ivy::real_of(expected);
  if (r == ivy::float32) k.rtol = k.atol = 1e-4;
  if (r == ivy::float16 || r == ivy::bfloat16) k.rtol = k.atol = 1e-2;
  if (c.contains("check")) {
    const json& o = c["check"];
    if (o.contains("rtol")) k.rtol = o["rtol"].get<double>();
    if (o.contains("atol")) k.atol = o["atol"].get<double>();
    if (o.contains("zero_sign")) k.zero_sign = o["zero_sign"].get<bool>();
    if (o.contains("values")) k.values = o["values"].get<bool>();
  }
  return k;
}

bool close(double got, double want, const Check& k) {
  if (std::isnan(want)) return std::isnan(got);
  if (std::isinf(want)) return got == want;
  if (!std::isfinite(got)) return false;
  if (k.zero_sign && want == 0) return got == 0 && std::signbit(got) == std::signbit(want);
  return std::abs(got - want) <= k.atol + k.rtol * std::abs(want);
}

std::string fmt(double v) {
  std::ostringstream os;
  os.precision(17);
  if (v == 0 && std::signbit(v))
    os << "-0";
  else
    os << v;
  return os.str();
}

std::string index_str(std::size_t flat, const ivy::Shape& s) {
  std::vector<std::int64_t> idx(s.size());
  for (std::size_t d = s.size(); d-- > 0;) {
    idx[d] = s[d] ? static_cast<std::int64_t>(flat) % s[d] : 0;
    flat = s[d] ? flat / static_cast<std::size_t>(s[d]) : flat;
  }
  std::string out = "(";
  for (std::size_t d = 0; d < idx.size(); ++d) out += (d ? ", " : "") + std::to_string(idx[d]);
  return out + (idx.size() == 1 ? ",)" : ")");
}

// Empty string when equal; otherwise the first differing element and how many differ.
std::string compare(const Host& got, const Host& want, const Check& k) {
  std::ostringstream os;
  if (got.dtype != want.dtype) {
    os << "dtype " << got.dtype << ", expected " << want.dtype;
    return os.str();
  }
  if (!(got.shape == want.shape)) {
    os << "shape " << got.shape << ", expected " << want.shape;
    return os.str();
  }
  if (!k.values) return "";
  std::size_t n = static_cast<std::size_t>(want.shape.numel()), bad = 0, first = 0;
  std::string first_msg;
  for (std::size_t e = 0; e < n; ++e) {
    bool ok;
    std::string g, w;
    switch (kind_of(want.dtype)) {
      case Kind::Bool:
      case Kind::Signed:
        ok = got.i[e] == want.i[e];
        g = std::to_string(got.i[e]);
        w = std::to_string(want.i[e]);
        break;
      case Kind::Unsigned:
        ok = got.u[e] == want.u[e];
        g = std::to_string(got.u[e]);
        w = std::to_string(want.u[e]);
        break;
      default:
        ok = close(got.c[e].real(), want.c[e].real(), k) && close(got.c[e].imag(), want.c[e].imag(), k);
        if (ivy::is_complex(want.dtype)) {
          g = "(" + fmt(got.c[e].real()) + ", " + fmt(got.c[e].imag()) + ")";
          w = "(" + fmt(want.c[e].real()) + ", " + fmt(want.c[e].imag()) + ")";
        } else {
          g = fmt(got.c[e].real());
          w = fmt(want.c[e].real());
        }
    }
    if (!ok && bad++ == 0) {
      first = e;
      first_msg = "got " + g + ", expected " + w;
    }
  }
  if (!bad) return "";
  os << "element " << first << " at index " << index_str(first, want.shape) << ": " << first_msg << " (rtol "
     << k.rtol << ", atol " << k.atol << (k.zero_sign ? ", sign of zero checked" : "") << "); " << bad << " of " << n
     << " elements differ";
  return os.str();
}

// ------------------------------------------------------------------ kwargs helpers
bool has(const json& kw, const char* key) { return kw.contains(key) && !kw[key].is_null(); }

template <class T>
T opt(const json& kw, const char* key, T fallback) {
  return has(kw, key) ? kw[key].get<T>() : fallback;
}

std::optional<std::int64_t> opt_int(const json& kw, const char* key) {
  if (!has(kw, key)) return std::nullopt;
  return kw[key].get<std::int64_t>();
}

std::optional<double> opt_double(const json& kw, const char* key) {
  if (!has(kw, key)) return std::nullopt;
  return kw[key].get<double>();
}

std::optional<ivy::DType> opt_dtype(const json& kw, const char* key = "dtype") {
  if (!has(kw, key)) return std::nullopt;
  return ivy::dtype_from_name(kw[key].get<std::string>());
}

std::optional<ivy::Dims> opt_dims(const json& kw, const char* key) {
  if (!has(kw, key)) return std::nullopt;
  return dims_of(kw[key]);
}

ivy::AxisArg axis_arg(const json& kw, const char* key = "axis") {
  if (!has(kw, key)) return {};
  if (kw[key].is_array()) return ivy::AxisArg(dims_of(kw[key]));
  return ivy::AxisArg(kw[key].get<std::int64_t>());
}

ivy::Scalar scalar(const json& v) {
  if (v.is_boolean()) return ivy::Scalar(v.get<bool>());
  if (v.is_number_integer()) return ivy::Scalar(v.get<std::int64_t>());
  if (v.is_number_float() || v.is_string()) return ivy::Scalar(num(v));
  if (v.is_object() && v.contains("complex"))
    return ivy::Scalar(std::complex<double>(num(v["complex"].at(0)), num(v["complex"].at(1))));
  throw std::invalid_argument("not a scalar: " + v.dump());
}

// A matrix or vector norm's ord: a number, "inf", "-inf", "fro" or "nuc".
double ord_number(const json& v) { return v.is_string() ? num(v) : v.get<double>(); }
ivy::linalg::Ord matrix_ord(const json& v) {
  if (v.is_string() && (v == "fro" || v == "nuc")) return v.get<std::string>();
  return ord_number(v);
}

ivy::TensordotAxes tensordot_axes(const json& kw) {
  if (!has(kw, "axes")) return 2;
  const json& v = kw["axes"];
  if (v.is_array()) return ivy::TensordotAxes(dims_of(v.at(0)), dims_of(v.at(1)));
  return ivy::TensordotAxes(v.get<std::int64_t>());
}

Array bool_array(bool b) { return ivy::asarray(ivy::Scalar(b), ivy::bool_); }

Array f64_vector(const std::vector<double>& v) { return ivy::asarray(v); }

// ------------------------------------------------------------------ the dispatcher
// One explicit entry per function: the fixture's name and kwargs -> the ivy call.
#define IVY_UNARY(name) \
  {#name, [](const Args& a, const json&) -> Outs { return {ivy::name(a.at(0))}; }}

// Binary: two arrays, or an array and a scalar given as kwargs "x1" / "x2".
#define IVY_BINARY(name)                                                   \
  {#name, [](const Args& a, const json& kw) -> Outs {                      \
     if (has(kw, "x2")) return {ivy::name(a.at(0), scalar(kw["x2"]))};     \
     if (has(kw, "x1")) return {ivy::name(scalar(kw["x1"]), a.at(0))};     \
     return {ivy::name(a.at(0), a.at(1))};                                 \
   }}

#define IVY_FFT1(name)                                                                                   \
  {"fft." #name, [](const Args& a, const json& kw) -> Outs {                                             \
     return {ivy::fft::name(a.at(0), opt_int(kw, "n"), opt<std::int64_t>(kw, "axis", -1),             \
                            opt<std::string>(kw, "norm", "backward"))};                                  \
   }}

#define IVY_FFTN(name)                                                                                   \
  {"fft." #name, [](const Args& a, const json& kw) -> Outs {                                             \
     return {ivy::fft::name(a.at(0), opt_dims(kw, "s"), opt_dims(kw, "axes"),                          \
                            opt<std::string>(kw, "norm", "backward"))};                                  \
   }}

const std::map<std::string, Fn>& table() {
  static const std::map<std::string, Fn> t = {
      // ---- elementwise (67)
      IVY_UNARY(abs), IVY_UNARY(acos), IVY_UNARY(acosh), IVY_BINARY(add), IVY_UNARY(asin), IVY_UNARY(asinh),
      IVY_UNARY(atan), IVY_BINARY(atan2), IVY_UNARY(atanh), IVY_BINARY(bitwise_and), IVY_BINARY(bitwise_left_shift),
      IVY_UNARY(bitwise_invert), IVY_BINARY(bitwise_or), IVY_BINARY(bitwise_right_shift), IVY_BINARY(bitwise_xor),
      IVY_UNARY(ceil),
      {"clip",
       [](const Args& a, const json& kw) -> Outs {
         std::size_t next = 1;
         auto bound = [&](const char* key) -> ivy::Bound {
           if (!has(kw, key)) return std::monostate{};
           if (kw[key].is_string() && kw[key] == "array") return a.at(next++);
           return scalar(kw[key]);
         };
         ivy::Bound lo = bound("min");
         ivy::Bound hi = bound("max");
         return {ivy::clip(a.at(0), lo, hi)};
       }},
      IVY_UNARY(conj), IVY_BINARY(copysign), IVY_UNARY(cos), IVY_UNARY(cosh), IVY_BINARY(divide), IVY_BINARY(equal),
      IVY_UNARY(exp), IVY_UNARY(expm1), IVY_UNARY(floor), IVY_BINARY(floor_divide), IVY_BINARY(greater),
      IVY_BINARY(greater_equal), IVY_BINARY(hypot), IVY_UNARY(imag), IVY_UNARY(isfinite), IVY_UNARY(isinf),
      IVY_UNARY(isnan), IVY_BINARY(less), IVY_BINARY(less_equal), IVY_UNARY(log), IVY_UNARY(log1p), IVY_UNARY(log2),
      IVY_UNARY(log10), IVY_BINARY(logaddexp), IVY_BINARY(logical_and), IVY_UNARY(logical_not),
      IVY_BINARY(logical_or), IVY_BINARY(logical_xor), IVY_BINARY(maximum), IVY_BINARY(minimum),
      IVY_BINARY(multiply), IVY_UNARY(negative), IVY_BINARY(nextafter), IVY_BINARY(not_equal), IVY_UNARY(positive),
      IVY_BINARY(pow), IVY_UNARY(real), IVY_UNARY(reciprocal), IVY_BINARY(remainder), IVY_UNARY(round),
      IVY_UNARY(sign), IVY_UNARY(signbit), IVY_UNARY(sin), IVY_UNARY(sinh), IVY_UNARY(square), IVY_UNARY(sqrt),
      IVY_BINARY(subtract), IVY_UNARY(tan), IVY_UNARY(tanh), IVY_UNARY(trunc),

      // ---- creation
      {"arange",
       [](const Args&, const json& kw) -> Outs {
         std::optional<ivy::Scalar> stop;
         if (has(kw, "stop")) stop = scalar(kw["stop"]);
         ivy::Scalar step = has(kw, "step") ? scalar(kw["step"]) : ivy::Scalar(1);
         return {ivy::arange(scalar(kw.at("start")), stop, step, opt_dtype(kw))};
       }},
      {"asarray",
       [](const Args& a, const json& kw) -> Outs {
         if (a.empty()) return {ivy::asarray(scalar(kw.at("obj")), opt_dtype(kw))};
         return {ivy::asarray(a.at(0), opt_dtype(kw))};
       }},
      {"empty",
       [](const Args&, const json& kw) -> Outs { return {ivy::empty(dims_of(kw.at("shape")), opt_dtype(kw))}; }},
      {"empty_like", [](const Args& a, const json& kw) -> Outs { return {ivy::empty_like(a.at(0), opt_dtype(kw))}; }},
      {"eye",
       [](const Args&, const json& kw) -> Outs {
         return {ivy::eye(kw.at("n_rows").get<std::int64_t>(), opt_int(kw, "n_cols"), opt<std::int64_t>(kw, "k", 0),
                          opt_dtype(kw))};
       }},
      {"from_dlpack", [](const Args& a, const json&) -> Outs { return {ivy::from_dlpack(a.at(0))}; }},
      {"full",
       [](const Args&, const json& kw) -> Outs {
         return {ivy::full(dims_of(kw.at("shape")), scalar(kw.at("fill_value")), opt_dtype(kw))};
       }},
      {"full_like",
       [](const Args& a, const json& kw) -> Outs {
         return {ivy::full_like(a.at(0), scalar(kw.at("fill_value")), opt_dtype(kw))};
       }},
      {"linspace",
       [](const Args&, const json& kw) -> Outs {
         return {ivy::linspace(scalar(kw.at("start")), scalar(kw.at("stop")), kw.at("num").get<std::int64_t>(),
                               opt_dtype(kw), ivy::Device{}, opt<bool>(kw, "endpoint", true))};
       }},
      {"meshgrid",
       [](const Args& a, const json& kw) -> Outs {
         return ivy::meshgrid(a, opt<std::string>(kw, "indexing", "xy"));
       }},
      {"ones", [](const Args&, const json& kw) -> Outs { return {ivy::ones(dims_of(kw.at("shape")), opt_dtype(kw))}; }},
      {"ones_like", [](const Args& a, const json& kw) -> Outs { return {ivy::ones_like(a.at(0), opt_dtype(kw))}; }},
      {"tril", [](const Args& a, const json& kw) -> Outs { return {ivy::tril(a.at(0), opt<std::int64_t>(kw, "k", 0))}; }},
      {"triu", [](const Args& a, const json& kw) -> Outs { return {ivy::triu(a.at(0), opt<std::int64_t>(kw, "k", 0))}; }},
      {"zeros",
       [](const Args&, const json& kw) -> Outs { return {ivy::zeros(dims_of(kw.at("shape")), opt_dtype(kw))}; }},
      {"zeros_like", [](const Args& a, const json& kw) -> Outs { return {ivy::zeros_like(a.at(0), opt_dtype(kw))}; }},

      // ---- data types (dtype answers as a 0-d zero of that dtype, bools as 0-d bools)
      {"astype",
       [](const Args& a, const json& kw) -> Outs {
         return {ivy::astype(a.at(0), *opt_dtype(kw), opt<bool>(kw, "copy", true))};
       }},
      {"can_cast",
       [](const Args& a, const json& kw) -> Outs {
         return {bool_array(ivy::can_cast(a.at(0), ivy::dtype_from_name(kw.at("to").get<std::string>())))};
       }},
      {"finfo",
       [](const Args& a, const json&) -> Outs {
         ivy::FInfo f = ivy::finfo(a.at(0));
         return {f64_vector({static_cast<double>(f.bits), f.eps, f.max, f.min, f.smallest_normal})};
       }},
      {"iinfo",
       [](const Args& a, const json&) -> Outs {
         ivy::IInfo f = ivy::iinfo(a.at(0));
         return {f64_vector({static_cast<double>(f.bits), static_cast<double>(f.min), static_cast<double>(f.max)})};
       }},
      {"isdtype",
       [](const Args& a, const json& kw) -> Outs {
         return {bool_array(ivy::isdtype(a.at(0).dtype(), std::string_view(kw.at("kind").get_ref<const std::string&>())))};
       }},
      {"result_type",
       [](const Args& a, const json&) -> Outs {
         return {ivy::zeros(ivy::Shape{}, ivy::result_type(a.at(0), a.at(1)))};
       }},

      // ---- indexing
      {"take",
       [](const Args& a, const json& kw) -> Outs { return {ivy::take(a.at(0), a.at(1), opt_int(kw, "axis"))}; }},
      {"take_along_axis",
       [](const Args& a, const json& kw) -> Outs {
         return {ivy::take_along_axis(a.at(0), a.at(1), opt<std::int64_t>(kw, "axis", -1))};
       }},

      // ---- linear algebra (main namespace)
      {"matmul", [](const Args& a, const json&) -> Outs { return {ivy::matmul(a.at(0), a.at(1))}; }},
      {"matrix_transpose", [](const Args& a, const json&) -> Outs { return {ivy::matrix_transpose(a.at(0))}; }},
      {"tensordot",
       [](const Args& a, const json& kw) -> Outs { return {ivy::tensordot(a.at(0), a.at(1), tensordot_axes(kw))}; }},
      {"vecdot",
       [](const Args& a, const json& kw) -> Outs {
         return {ivy::vecdot(a.at(0), a.at(1), opt<std::int64_t>(kw, "axis", -1))};
       }},

      // ---- manipulation
      {"broadcast_arrays", [](const Args& a, const json&) -> Outs { return ivy::broadcast_arrays(a); }},
      {"broadcast_shapes",
       [](const Args&, const json& kw) -> Outs {
         std::vector<ivy::Shape> shapes;
         for (const json& s : kw.at("shapes")) shapes.push_back(dims_of(s));
         ivy::Shape r = ivy::broadcast_shapes(shapes);
         return {ivy::asarray(std::vector<std::int64_t>(r.begin(), r.end()))};
       }},
      {"broadcast_to",
       [](const Args& a, const json& kw) -> Outs { return {ivy::broadcast_to(a.at(0), dims_of(kw.at("shape")))}; }},
      {"concat",
       [](const Args& a, const json& kw) -> Outs {
         std::optional<std::int64_t> axis = 0;
         if (kw.contains("axis")) axis = opt_int(kw, "axis");
         return {ivy::concat(a, axis)};
       }},
      {"expand_dims", [](const Args& a, const json& kw) -> Outs { return {ivy::expand_dims(a.at(0), axis_arg(kw))}; }},
      {"flip", [](const Args& a, const json& kw) -> Outs { return {ivy::flip(a.at(0), axis_arg(kw))}; }},
      {"moveaxis",
       [](const Args& a, const json& kw) -> Outs {
         return {ivy::moveaxis(a.at(0), dims_of(kw.at("source")), dims_of(kw.at("destination")))};
       }},
      {"permute_dims",
       [](const Args& a, const json& kw) -> Outs { return {ivy::permute_dims(a.at(0), dims_of(kw.at("axes")))}; }},
      {"repeat",
       [](const Args& a, const json& kw) -> Outs {
         if (a.size() > 1) return {ivy::repeat(a.at(0), a.at(1), opt_int(kw, "axis"))};
         return {ivy::repeat(a.at(0), kw.at("repeats").get<std::int64_t>(), opt_int(kw, "axis"))};
       }},
      {"reshape", [](const Args& a, const json& kw) -> Outs { return {ivy::reshape(a.at(0), dims_of(kw.at("shape")))}; }},
      {"roll",
       [](const Args& a, const json& kw) -> Outs {
         const json& s = kw.at("shift");
         ivy::Dims shift = s.is_array() ? dims_of(s) : ivy::Dims{s.get<std::int64_t>()};
         return {ivy::roll(a.at(0), shift, axis_arg(kw))};
       }},
      {"squeeze", [](const Args& a, const json& kw) -> Outs { return {ivy::squeeze(a.at(0), axis_arg(kw))}; }},
      {"stack", [](const Args& a, const json& kw) -> Outs { return {ivy::stack(a, opt<std::int64_t>(kw, "axis", 0))}; }},
      {"tile", [](const Args& a, const json& kw) -> Outs { return {ivy::tile(a.at(0), dims_of(kw.at("repetitions")))}; }},
      {"unstack", [](const Args& a, const json& kw) -> Outs { return ivy::unstack(a.at(0), opt<std::int64_t>(kw, "axis", 0)); }},

      // ---- searching
      {"argmax",
       [](const Args& a, const json& kw) -> Outs {
         return {ivy::argmax(a.at(0), opt_int(kw, "axis"), opt<bool>(kw, "keepdims", false))};
       }},
      {"argmin",
       [](const Args& a, const json& kw) -> Outs {
         return {ivy::argmin(a.at(0), opt_int(kw, "axis"), opt<bool>(kw, "keepdims", false))};
       }},
      {"count_nonzero",
       [](const Args& a, const json& kw) -> Outs {
         return {ivy::count_nonzero(a.at(0), axis_arg(kw), opt<bool>(kw, "keepdims", false))};
       }},
      {"nonzero", [](const Args& a, const json&) -> Outs { return ivy::nonzero(a.at(0)); }},
      {"searchsorted",
       [](const Args& a, const json& kw) -> Outs {
         std::optional<Array> sorter;
         if (opt<bool>(kw, "sorter", false)) sorter = a.at(2);
         return {ivy::searchsorted(a.at(0), a.at(1), opt<std::string>(kw, "side", "left"), sorter)};
       }},
      {"where",
       [](const Args& a, const json& kw) -> Outs {
         if (has(kw, "x2")) return {ivy::where(a.at(0), a.at(1), scalar(kw["x2"]))};
         if (has(kw, "x1")) return {ivy::where(a.at(0), scalar(kw["x1"]), a.at(1))};
         return {ivy::where(a.at(0), a.at(1), a.at(2))};
       }},

      // ---- sets
      {"isin",
       [](const Args& a, const json& kw) -> Outs {
         return {ivy::isin(a.at(0), a.at(1), opt<bool>(kw, "invert", false))};
       }},
      {"unique_all",
       [](const Args& a, const json&) -> Outs {
         ivy::UniqueAll r = ivy::unique_all(a.at(0));
         return {r.values, r.indices, r.inverse_indices, r.counts};
       }},
      {"unique_counts",
       [](const Args& a, const json&) -> Outs {
         ivy::UniqueCounts r = ivy::unique_counts(a.at(0));
         return {r.values, r.counts};
       }},
      {"unique_inverse",
       [](const Args& a, const json&) -> Outs {
         ivy::UniqueInverse r = ivy::unique_inverse(a.at(0));
         return {r.values, r.inverse_indices};
       }},
      {"unique_values", [](const Args& a, const json&) -> Outs { return {ivy::unique_values(a.at(0))}; }},

      // ---- sorting
      {"argsort",
       [](const Args& a, const json& kw) -> Outs {
         return {ivy::argsort(a.at(0), opt<std::int64_t>(kw, "axis", -1), opt<bool>(kw, "descending", false),
                              opt<bool>(kw, "stable", true))};
       }},
      {"sort",
       [](const Args& a, const json& kw) -> Outs {
         return {ivy::sort(a.at(0), opt<std::int64_t>(kw, "axis", -1), opt<bool>(kw, "descending", false),
                           opt<bool>(kw, "stable", true))};
       }},

      // ---- statistical
      {"cumulative_prod",
       [](const Args& a, const json& kw) -> Outs {
         return {ivy::cumulative_prod(a.at(0), opt_int(kw, "axis"), opt_dtype(kw), opt<bool>(kw, "include_initial", false))};
       }},
      {"cumulative_sum",
       [](const Args& a, const json& kw) -> Outs {
         return {ivy::cumulative_sum(a.at(0), opt_int(kw, "axis"), opt_dtype(kw), opt<bool>(kw, "include_initial", false))};
       }},
      {"max",
       [](const Args& a, const json& kw) -> Outs {
         return {ivy::max(a.at(0), axis_arg(kw), opt<bool>(kw, "keepdims", false))};
       }},
      {"mean",
       [](const Args& a, const json& kw) -> Outs {
         return {ivy::mean(a.at(0), axis_arg(kw), opt<bool>(kw, "keepdims", false))};
       }},
      {"min",
       [](const Args& a, const json& kw) -> Outs {
         return {ivy::min(a.at(0), axis_arg(kw), opt<bool>(kw, "keepdims", false))};
       }},
      {"prod",
       [](const Args& a, const json& kw) -> Outs {
         return {ivy::prod(a.at(0), axis_arg(kw), opt_dtype(kw), opt<bool>(kw, "keepdims", false))};
       }},
      {"std",
       [](const Args& a, const json& kw) -> Outs {
         return {ivy::std(a.at(0), axis_arg(kw), opt<double>(kw, "correction", 0.0), opt<bool>(kw, "keepdims", false))};
       }},
      {"sum",
       [](const Args& a, const json& kw) -> Outs {
         return {ivy::sum(a.at(0), axis_arg(kw), opt_dtype(kw), opt<bool>(kw, "keepdims", false))};
       }},
      {"var",
       [](const Args& a, const json& kw) -> Outs {
         return {ivy::var(a.at(0), axis_arg(kw), opt<double>(kw, "correction", 0.0), opt<bool>(kw, "keepdims", false))};
       }},

      // ---- utility
      {"all",
       [](const Args& a, const json& kw) -> Outs {
         return {ivy::all(a.at(0), axis_arg(kw), opt<bool>(kw, "keepdims", false))};
       }},
      {"any",
       [](const Args& a, const json& kw) -> Outs {
         return {ivy::any(a.at(0), axis_arg(kw), opt<bool>(kw, "keepdims", false))};
       }},
      {"diff",
       [](const Args& a, const json& kw) -> Outs {
         std::size_t next = 1;
         std::optional<Array> prepend, append;
         if (opt<bool>(kw, "prepend", false)) prepend = a.at(next++);
         if (opt<bool>(kw, "append", false)) append = a.at(next++);
         return {ivy::diff(a.at(0), opt<std::int64_t>(kw, "axis", -1), opt<std::int64_t>(kw, "n", 1), prepend, append)};
       }},

      // ---- random (only properties are fixed): [zeros_like(x), checks...]
      {"random_uniform",
       [](const Args&, const json& kw) -> Outs {
         ivy::seed(0, ivy::current_backend());
         ivy::Scalar lo = scalar(kw.at("low")), hi = scalar(kw.at("high"));
         Array x = ivy::random_uniform(lo, hi, dims_of(kw.at("shape")), opt_dtype(kw));
         Array in_range = ivy::all(ivy::logical_and(ivy::greater_equal(x, lo), ivy::less(x, hi)));
         return {ivy::zeros_like(x), in_range};
       }},
      {"random_normal",
       [](const Args&, const json& kw) -> Outs {
         ivy::seed(0, ivy::current_backend());
         double m = kw.at("mean").get<double>(), s = kw.at("std").get<double>();
         Array x = ivy::random_normal(m, s, dims_of(kw.at("shape")), opt_dtype(kw));
         double n = static_cast<double>(x.size());
         Array mean_ok =
             ivy::less(ivy::abs(ivy::subtract(ivy::mean(x), ivy::Scalar(m))), ivy::Scalar(5.0 * s / std::sqrt(n)));
         Array std_ok = ivy::less(ivy::abs(ivy::subtract(ivy::std(x), ivy::Scalar(s))), ivy::Scalar(0.1 * s));
         return {ivy::zeros_like(x), mean_ok, std_ok};
       }},
      {"randint",
       [](const Args&, const json& kw) -> Outs {
         ivy::seed(0, ivy::current_backend());
         std::int64_t lo = kw.at("low").get<std::int64_t>(), hi = kw.at("high").get<std::int64_t>();
         Array x = ivy::randint(lo, hi, dims_of(kw.at("shape")), opt_dtype(kw));
         ivy::Scalar slo(lo), shi(hi), slast(hi - 1);
         Array in_range = ivy::all(ivy::logical_and(ivy::greater_equal(x, slo), ivy::less(x, shi)));
         Array ends_hit = ivy::logical_and(ivy::any(ivy::equal(x, slo)), ivy::any(ivy::equal(x, slast)));
         return {ivy::zeros_like(x), in_range, ends_hit};
       }},
      {"seed",
       [](const Args&, const json& kw) -> Outs {
         ivy::Backend b = ivy::current_backend();
         auto v = kw.at("value").get<std::uint64_t>();
         ivy::seed(v, b);
         Array x = ivy::random_uniform(0.0, 1.0, ivy::Shape{8}, ivy::float64);
         Array y = ivy::random_uniform(0.0, 1.0, ivy::Shape{8}, ivy::float64);
         ivy::seed(v, b);
         Array z = ivy::random_uniform(0.0, 1.0, ivy::Shape{8}, ivy::float64);
         return {bool_array(ivy::array_equal(x, z) && !ivy::array_equal(x, y))};
       }},

      // ---- comparison helpers
      {"allclose",
       [](const Args& a, const json& kw) -> Outs {
         return {bool_array(ivy::allclose(a.at(0), a.at(1), opt<double>(kw, "rtol", 1e-5), opt<double>(kw, "atol", 1e-8),
                                          opt<bool>(kw, "equal_nan", true)))};
       }},
      {"array_equal", [](const Args& a, const json&) -> Outs { return {bool_array(ivy::array_equal(a.at(0), a.at(1)))}; }},

      // ---- linalg extension
      {"linalg.cholesky",
       [](const Args& a, const json& kw) -> Outs {
         return {ivy::linalg::cholesky(a.at(0), opt<bool>(kw, "upper", false))};
       }},
      {"linalg.cross",
       [](const Args& a, const json& kw) -> Outs {
         return {ivy::linalg::cross(a.at(0), a.at(1), opt<std::int64_t>(kw, "axis", -1))};
       }},
      {"linalg.det", [](const Args& a, const json&) -> Outs { return {ivy::linalg::det(a.at(0))}; }},
      {"linalg.diagonal",
       [](const Args& a, const json& kw) -> Outs {
         return {ivy::linalg::diagonal(a.at(0), opt<std::int64_t>(kw, "offset", 0))};
       }},
      {"linalg.eig",  // [sort(real(w)), sort(imag(w)), zeros_like(w), A V - V diag(w)]
       [](const Args& a, const json&) -> Outs {
         ivy::linalg::EigResult r = ivy::linalg::eig(a.at(0));
         const Array &w = r.eigenvalues, &v = r.eigenvectors;
         Array av = ivy::matmul(ivy::astype(a.at(0), w.dtype()), v);
         Array residual = ivy::subtract(av, ivy::multiply(v, ivy::expand_dims(w, -2)));
         return {ivy::sort(ivy::real(w)), ivy::sort(ivy::imag(w)), ivy::zeros_like(w), residual};
       }},
      {"linalg.eigh",  // [w, V diag(w) V^H, V^H V]
       [](const Args& a, const json&) -> Outs {
         ivy::linalg::EighResult r = ivy::linalg::eigh(a.at(0));
         const Array &w = r.eigenvalues, &v = r.eigenvectors;
         Array vh = ivy::conj(ivy::matrix_transpose(v));
         Array recon = ivy::matmul(ivy::multiply(v, ivy::expand_dims(w, -2)), vh);
         return {w, recon, ivy::matmul(vh, v)};
       }},
      {"linalg.eigvals",  // [sort(real(w)), sort(imag(w)), zeros_like(w)]
       [](const Args& a, const json&) -> Outs {
         Array w = ivy::linalg::eigvals(a.at(0));
         return {ivy::sort(ivy::real(w)), ivy::sort(ivy::imag(w)), ivy::zeros_like(w)};
       }},
      {"linalg.eigvalsh", [](const Args& a, const json&) -> Outs { return {ivy::linalg::eigvalsh(a.at(0))}; }},
      {"linalg.inv", [](const Args& a, const json&) -> Outs { return {ivy::linalg::inv(a.at(0))}; }},
      {"linalg.matmul", [](const Args& a, const json&) -> Outs { return {ivy::linalg::matmul(a.at(0), a.at(1))}; }},
      {"linalg.matrix_norm",
       [](const Args& a, const json& kw) -> Outs {
         ivy::linalg::Ord ord = has(kw, "ord") ? matrix_ord(kw["ord"]) : ivy::linalg::Ord(std::string("fro"));
         return {ivy::linalg::matrix_norm(a.at(0), opt<bool>(kw, "keepdims", false), ord)};
       }},
      {"linalg.matrix_power",
       [](const Args& a, const json& kw) -> Outs {
         return {ivy::linalg::matrix_power(a.at(0), kw.at("n").get<std::int64_t>())};
       }},
      {"linalg.matrix_rank",
       [](const Args& a, const json& kw) -> Outs { return {ivy::linalg::matrix_rank(a.at(0), opt_double(kw, "rtol"))}; }},
      {"linalg.matrix_transpose",
       [](const Args& a, const json&) -> Outs { return {ivy::linalg::matrix_transpose(a.at(0))}; }},
      {"linalg.outer", [](const Args& a, const json&) -> Outs { return {ivy::linalg::outer(a.at(0), a.at(1))}; }},
      {"linalg.pinv",
       [](const Args& a, const json& kw) -> Outs { return {ivy::linalg::pinv(a.at(0), opt_double(kw, "rtol"))}; }},
      {"linalg.qr",  // [Q R, Q^H Q, R - triu(R)]
       [](const Args& a, const json& kw) -> Outs {
         ivy::linalg::QRResult r = ivy::linalg::qr(a.at(0), opt<std::string>(kw, "mode", "reduced"));
         Array qh = ivy::conj(ivy::matrix_transpose(r.Q));
         return {ivy::matmul(r.Q, r.R), ivy::matmul(qh, r.Q), ivy::subtract(r.R, ivy::triu(r.R))};
       }},
      {"linalg.slogdet",
       [](const Args& a, const json&) -> Outs {
         ivy::linalg::SlogdetResult r = ivy::linalg::slogdet(a.at(0));
         return {r.sign, r.logabsdet};
       }},
      {"linalg.solve", [](const Args& a, const json&) -> Outs { return {ivy::linalg::solve(a.at(0), a.at(1))}; }},
      {"linalg.svd",  // [U[..., :k] diag(S) Vh[..., :k, :], S, U^H U, Vh Vh^H]
       [](const Args& a, const json& kw) -> Outs {
         ivy::linalg::SVDResult r = ivy::linalg::svd(a.at(0), opt<bool>(kw, "full_matrices", true));
         std::int64_t k = r.S.shape().back();
         Array uk = r.U.index({ivy::Ellipsis, ivy::Slice(0, k)});
         Array vhk = r.Vh.index({ivy::Ellipsis, ivy::Slice(0, k), ivy::Slice()});
         Array recon = ivy::matmul(ivy::multiply(uk, ivy::expand_dims(r.S, -2)), vhk);
         Array uhu = ivy::matmul(ivy::conj(ivy::matrix_transpose(r.U)), r.U);
         Array vvh = ivy::matmul(r.Vh, ivy::conj(ivy::matrix_transpose(r.Vh)));
         return {recon, r.S, uhu, vvh};
       }},
      {"linalg.svdvals", [](const Args& a, const json&) -> Outs { return {ivy::linalg::svdvals(a.at(0))}; }},
      {"linalg.tensordot",
       [](const Args& a, const json& kw) -> Outs {
         return {ivy::linalg::tensordot(a.at(0), a.at(1), tensordot_axes(kw))};
       }},
      {"linalg.trace",
       [](const Args& a, const json& kw) -> Outs {
         return {ivy::linalg::trace(a.at(0), opt<std::int64_t>(kw, "offset", 0), opt_dtype(kw))};
       }},
      {"linalg.vecdot",
       [](const Args& a, const json& kw) -> Outs {
         return {ivy::linalg::vecdot(a.at(0), a.at(1), opt<std::int64_t>(kw, "axis", -1))};
       }},
      {"linalg.vector_norm",
       [](const Args& a, const json& kw) -> Outs {
         double ord = has(kw, "ord") ? ord_number(kw["ord"]) : 2.0;
         return {ivy::linalg::vector_norm(a.at(0), axis_arg(kw), opt<bool>(kw, "keepdims", false), ord)};
       }},

      // ---- fft extension
      IVY_FFT1(fft), IVY_FFT1(ifft), IVY_FFTN(fftn), IVY_FFTN(ifftn), IVY_FFT1(rfft), IVY_FFT1(irfft),
      IVY_FFTN(rfftn), IVY_FFTN(irfftn), IVY_FFT1(hfft), IVY_FFT1(ihfft),
      {"fft.fftfreq",
       [](const Args&, const json& kw) -> Outs {
         return {ivy::fft::fftfreq(kw.at("n").get<std::int64_t>(), opt<double>(kw, "d", 1.0), opt_dtype(kw))};
       }},
      {"fft.rfftfreq",
       [](const Args&, const json& kw) -> Outs {
         return {ivy::fft::rfftfreq(kw.at("n").get<std::int64_t>(), opt<double>(kw, "d", 1.0), opt_dtype(kw))};
       }},
      {"fft.fftshift",
       [](const Args& a, const json& kw) -> Outs { return {ivy::fft::fftshift(a.at(0), axis_arg(kw, "axes"))}; }},
      {"fft.ifftshift",
       [](const Args& a, const json& kw) -> Outs { return {ivy::fft::ifftshift(a.at(0), axis_arg(kw, "axes"))}; }},
  };
  return t;
}

#undef IVY_UNARY
#undef IVY_BINARY
#undef IVY_FFT1
#undef IVY_FFTN

// The public name ("linalg.det" -> "det") and the primitive behind it where the two
// differ, for is_unsupported (which accepts either).
std::string public_name(const std::string& fn) {
  auto dot = fn.find('.');
  return dot == std::string::npos ? fn : fn.substr(dot + 1);
}
const char* primitive_of(const std::string& fn) {
  static const std::map<std::string, const char*> m = {
      {"unique_all", "unique"},  {"unique_counts", "unique"}, {"unique_inverse", "unique"},
      {"unique_values", "unique"}, {"fft.fft", "fft_c2c"},    {"fft.ifft", "fft_c2c"},
      {"fft.fftn", "fft_c2c"},   {"fft.ifftn", "fft_c2c"},    {"fft.rfft", "fft_r2c"},
      {"fft.rfftn", "fft_r2c"},  {"fft.ihfft", "fft_r2c"},    {"fft.irfft", "fft_c2r"},
      {"fft.irfftn", "fft_c2r"}, {"fft.hfft", "fft_c2r"},     {"zeros", "full"},
      {"ones", "full"},          {"empty", "full"},           {"zeros_like", "full"},
      {"ones_like", "full"},     {"full_like", "full"},       {"empty_like", "full"},
  };
  auto it = m.find(fn);
  return it == m.end() ? nullptr : it->second;
}

// ------------------------------------------------------------------ the tests
class FixtureTest : public testing::TestWithParam<std::tuple<std::string, int>> {};

TEST(Fixtures, Load) {
  ASSERT_TRUE(fixtures().error.empty()) << fixtures().error;
  EXPECT_GT(num_cases(), 1000) << "fixtures.json looks truncated";
  EXPECT_FALSE(backend_names().empty()) << "no backend was built";
}

TEST(Fixtures, EveryCaseHasAnEntry) {
  std::set<std::string> missing;
  for (const json& c : fixtures().doc)
    if (!table().count(c.at("fn").get<std::string>())) missing.insert(c.at("fn").get<std::string>());
  std::string list;
  for (auto& m : missing) list += " " + m;
  EXPECT_TRUE(missing.empty()) << "fixture functions with no dispatcher entry:" << list;
}

TEST(Fixtures, EveryEntryHasCases) {
  std::set<std::string> seen;
  for (const json& c : fixtures().doc) seen.insert(c.at("fn").get<std::string>());
  std::string list;
  for (auto& [name, fn] : table())
    if (!seen.count(name)) list += " " + name;
  EXPECT_TRUE(list.empty()) << "dispatcher entries with no fixture case (regenerate fixtures.json?):" << list;
}

TEST_P(FixtureTest, MatchesNumPy) {
  const std::string backend_name = std::get<0>(GetParam());
  const int index = std::get<1>(GetParam());
  const json& c = fixtures().doc.at(static_cast<std::size_t>(index));
  const std::string fn = c.at("fn").get<std::string>();
  const std::string where = "fn=" + fn + " case=#" + std::to_string(index) + " backend=" + backend_name;
  auto entry = table().find(fn);
  ASSERT_NE(entry, table().end()) << where << ": no dispatcher entry";

  ivy::Backend backend(backend_name.c_str());
  const std::string op = public_name(fn);
  const char* prim = primitive_of(fn);
  auto skip_reason = [&](ivy::DType d, const char* role) -> std::string {
    if (ivy::is_unsupported(backend, op, d) || (prim && ivy::is_unsupported(backend, prim, d)))
      return std::string("backend ") + backend_name + " lists " + op + " on " + ivy::dtype_name(d) + " (" + role +
             ") as unsupported";
    return "";
  };
  std::vector<Host> inputs, expected;
  try {
    for (const json& a : c.at("args")) inputs.push_back(decode(a));
    for (const json& e : c.at("expected")) expected.push_back(decode(e));
  } catch (const std::exception& e) {
    FAIL() << where << ": malformed fixture: " << e.what();
  }
  for (const Host& h : inputs)
    if (auto r = skip_reason(h.dtype, "input"); !r.empty()) GTEST_SKIP() << where << ": " << r;
  if (auto d = opt_dtype(c.at("kwargs")))
    if (auto r = skip_reason(*d, "dtype argument"); !r.empty()) GTEST_SKIP() << where << ": " << r;
  for (const Host& h : expected)
    if (auto r = skip_reason(h.dtype, "output"); !r.empty()) GTEST_SKIP() << where << ": " << r;

  ivy::BackendScope scope(backend);
  Args args;
  Outs outs;
  try {
    for (const Host& h : inputs) args.push_back(to_ivy(h));
  } catch (const std::exception& e) {
    FAIL() << where << ": could not build the inputs: " << e.what();
  }
  try {
    outs = entry->second(args, c.at("kwargs"));
  } catch (const std::exception& e) {
    FAIL() << where << ": threw " << e.what();
  }
  ASSERT_EQ(outs.size(), expected.size()) << where << ": wrong number of outputs";
  for (std::size_t k = 0; k < outs.size(); ++k) {
    ASSERT_TRUE(outs[k].defined()) << where << ": output " << k << " is undefined";
    EXPECT_EQ(std::string(outs[k].backend().name()), backend_name)
        << where << ": output " << k << " lives on another backend";
    Host got;
    try {
      got = from_ivy(outs[k]);
    } catch (const std::exception& e) {
      ADD_FAILURE() << where << ": could not read output " << k << ": " << e.what();
      continue;
    }
    std::string diff = compare(got, expected[k], check_for(expected[k].dtype, c));
    EXPECT_TRUE(diff.empty()) << where << ": output " << k << ": " << diff;
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, FixtureTest,
                         testing::Combine(testing::ValuesIn(backend_names()), testing::Range(0, num_cases())),
                         [](const testing::TestParamInfo<FixtureTest::ParamType>& info) {
                           auto idx = static_cast<std::size_t>(std::get<1>(info.param));
                           std::string fn = fixtures().doc.at(idx).at("fn").get<std::string>();
                           for (char& ch : fn)
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return std::get<0>(info.param) + "_" + std::to_string(std::get<1>(info.param)) + "_" + fn;
                         });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(FixtureTest);

}  // namespace

// ivy's VJP rules against PyTorch's autograd, on every backend that was built: each case of
// tests/fixtures/autodiff.json (written by tests/gen_autodiff_fixtures.py; see there for the
// format and the losses) calls one primitive through ivy::vjp over ivy::dispatch_multi,
// pulls the case's output cotangents back and compares the input cotangents with
// torch.autograd.grad's. The fixture's complex cotangents are PyTorch's (dL/dRe + i dL/dIm);
// ivy's API speaks JAX's, the conjugate (docs/autodiff.md), so complex output cotangents are
// conjugated on the way in and complex input cotangents on the way out. Tolerances are relative to the largest expected element of each
// cotangent: 1e-4 for float32/complex64, 1e-9 for float64/complex128 (a case may widen it
// with "rtol").
//
// Build with -DIVY_FIXTURES_DIR="\"/path/to/tests/fixtures\"".
#include <gtest/gtest.h>

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
#include <vector>

#include "ivy/ivy.hpp"
#include "fixture_file.hpp"

#ifndef IVY_FIXTURES_DIR
#error "define IVY_FIXTURES_DIR as the (quoted) folder that holds autodiff.json"
#endif

namespace {

using json = nlohmann::json;
using ivy::Array;
using ivy::Attrs;
using ivy::DType;
using ivy::OpId;

// ------------------------------------------------------------------ loading
using Fixtures = ivy::test_fixtures::Fixture;
const Fixtures& fixtures() {
  static const Fixtures f = ivy::test_fixtures::load_fixture("autodiff.json", "gen_autodiff_fixtures.py");
  return f;
}

std::vector<std::string> backend_names() {
  std::vector<std::string> n;
  for (auto b : ivy::available_backends()) n.push_back(b.name());
  return n;
}

// ------------------------------------------------------------------ host arrays
// Values widened: floating/complex in c, integers and bools in i.
struct Host {
  DType dtype = DType::float64;
  ivy::Shape shape;
  std::vector<std::complex<double>> c;
  std::vector<std::int64_t> i;
};

ivy::Dims dims_of(const json& v) {
  std::vector<std::int64_t> t = v.get<std::vector<std::int64_t>>();
  return ivy::Dims(t.begin(), t.end());
}

Host decode(const json& spec) {
  Host h;
  h.dtype = ivy::dtype_from_name(spec.at("dtype").get<std::string>());
  h.shape = dims_of(spec.at("shape"));
  for (const json& v : spec.at("data")) {
    if (ivy::is_bool(h.dtype))
      h.i.push_back(v.get<bool>() ? 1 : 0);
    else if (ivy::is_integer(h.dtype))
      h.i.push_back(v.get<std::int64_t>());
    else if (ivy::is_complex(h.dtype))
      h.c.emplace_back(v.at(0).get<double>(), v.at(1).get<double>());
    else
      h.c.emplace_back(v.get<double>(), 0.0);
  }
  const std::size_t n = static_cast<std::size_t>(h.shape.numel());
  if ((ivy::is_floating(h.dtype) ? h.c.size() : h.i.size()) != n)
    throw std::invalid_argument("data length does not match shape " + h.shape.str());
  return h;
}

template <class T>
void put(std::vector<unsigned char>& buf, T v) {
  unsigned char b[sizeof(T)];
  std::memcpy(b, &v, sizeof(T));
  buf.insert(buf.end(), b, b + sizeof(T));
}

// An ivy array on the current (scoped) backend. A float32 value is the double read from
// the file rounded to float (the generator writes values that round to the intended one).
Array to_ivy(const Host& h) {
  std::vector<unsigned char> buf;
  const std::size_t n = static_cast<std::size_t>(h.shape.numel());
  for (std::size_t k = 0; k < n; ++k) {
    switch (h.dtype) {
      case DType::bool_: put<std::uint8_t>(buf, h.i[k] != 0); break;
      case DType::int32: put(buf, static_cast<std::int32_t>(h.i[k])); break;
      case DType::int64: put(buf, h.i[k]); break;
      case DType::float32: put(buf, static_cast<float>(h.c[k].real())); break;
      case DType::float64: put(buf, h.c[k].real()); break;
      case DType::complex64: put(buf, std::complex<float>(h.c[k])); break;
      case DType::complex128: put(buf, h.c[k]); break;
      default: throw std::invalid_argument(std::string("unexpected fixture dtype ") + ivy::dtype_name(h.dtype));
    }
  }
  unsigned char dummy = 0;
  const void* p = buf.empty() ? static_cast<const void*>(&dummy) : buf.data();
  return ivy::asarray(p, h.dtype, h.shape, h.dtype);
}

template <class T>
T get(const std::vector<unsigned char>& buf, std::size_t k) {
  T v;
  std::memcpy(&v, buf.data() + k * sizeof(T), sizeof(T));
  return v;
}

// A floating array's values on the host.
Host from_ivy(const Array& x) {
  Host h;
  h.dtype = x.dtype();
  h.shape = x.shape();
  const std::size_t n = static_cast<std::size_t>(x.size());
  std::vector<unsigned char> buf(n * ivy::itemsize(x.dtype()) + 16);
  ivy::copy_to_host(x, buf.data());
  for (std::size_t k = 0; k < n; ++k) {
    switch (x.dtype()) {
      case DType::float32: h.c.emplace_back(get<float>(buf, k), 0.0); break;
      case DType::float64: h.c.emplace_back(get<double>(buf, k), 0.0); break;
      case DType::complex64: h.c.emplace_back(get<std::complex<float>>(buf, k)); break;
      case DType::complex128: h.c.emplace_back(get<std::complex<double>>(buf, k)); break;
      default: throw std::invalid_argument(std::string("unexpected cotangent dtype ") + ivy::dtype_name(x.dtype()));
    }
  }
  return h;
}

// ------------------------------------------------------------------ attributes
// The attribute set's field names (ops.def) -> the ivy::attr view of that set. A field the
// JSON object leaves out keeps its default (0, false, empty, float32).
void set(const json& j, const char* key, std::int64_t& f) {
  if (j.contains(key)) f = j[key].get<std::int64_t>();
}
void set(const json& j, const char* key, bool& f) {
  if (j.contains(key)) f = j[key].get<bool>();
}
void set(const json& j, const char* key, double& f) {
  if (j.contains(key)) f = j[key].get<double>();
}
void set(const json& j, const char* key, ivy::Dims& f) {
  if (j.contains(key)) f = dims_of(j[key]);
}
void set(const json& j, const char* key, DType& f) {
  if (j.contains(key)) f = ivy::dtype_from_name(j[key].get<std::string>());
}

void set(const json& j, const char* key, ivy::Scalar& f) {
  if (!j.contains(key)) return;
  const json& v = j[key];
  if (v.is_boolean()) f = ivy::Scalar(v.get<bool>());
  else if (v.is_number_integer()) f = ivy::Scalar(v.get<std::int64_t>());
  else f = ivy::Scalar(v.get<double>());
}
template <class T>
void set(const json& j, const char* key, std::optional<T>& f) {  // null: absent
  if (!j.contains(key)) return;
  if (j[key].is_null()) f.reset();
  else set(j, key, f.emplace());
}

// The case's attributes: the primitive's set with the fields the object names; throws when
// the set is not the primitive's or the object names a field the set does not have.
Attrs make_attrs(OpId op, const json& c) {
  const ivy::OpInfo& info = ivy::op_info(op);
  const std::string set_name = c.at("set").get<std::string>();
  if (set_name != info.attr_set)
    throw std::invalid_argument("attribute set '" + set_name + "', but " + info.name + " takes '" + info.attr_set + "'");
  const json& j = c.at("attrs");
  for (auto it = j.begin(); it != j.end(); ++it) {
    bool known = false;
    for (const ivy::AttrField* f = info.attrs; f && f->name; ++f) known |= it.key() == f->name;
    if (!known) throw std::invalid_argument("set '" + set_name + "' has no field '" + it.key() + "'");
  }
  return ivy::visit_attr_set(info.set, [&]<class S>(std::type_identity<S>) {
    S s;
    S::for_each(s, [&](const ivy::AttrField& f, auto& v) { set(j, f.name, v); });
    return Attrs(s);
  });
}

// ------------------------------------------------------------------ comparison
double rtol_for(DType expected, const json& c) {
  if (c.contains("rtol")) return c["rtol"].get<double>();
  return ivy::real_of(expected) == DType::float32 ? 1e-4 : 1e-9;
}

std::string fmt(std::complex<double> v, bool cplx) {
  std::ostringstream os;
  os.precision(17);
  if (cplx)
    os << "(" << v.real() << ", " << v.imag() << ")";
  else
    os << v.real();
  return os.str();
}

// Empty when equal within rtol * (the largest |expected| element, or 1 when all are 0);
// *err: the largest difference relative to that scale.
std::string compare(const Host& got, const Host& want, double rtol, double* err) {
  std::ostringstream os;
  if (got.dtype != want.dtype) {
    os << "dtype " << ivy::dtype_name(got.dtype) << ", expected " << ivy::dtype_name(want.dtype);
    return os.str();
  }
  if (!(got.shape == want.shape)) {
    os << "shape " << got.shape << ", expected " << want.shape;
    return os.str();
  }
  double scale = 0;
  for (const auto& w : want.c) scale = std::max(scale, std::abs(w));
  if (scale == 0) scale = 1;
  const double tol = rtol * scale;
  std::size_t bad = 0, first = 0;
  double worst = 0;
  for (std::size_t e = 0; e < want.c.size(); ++e) {
    const double d = std::abs(got.c[e] - want.c[e]);
    *err = std::max(*err, d / scale);
    if (!(d <= tol)) {  // NaN fails
      if (bad++ == 0) first = e;
      worst = std::isnan(d) ? d : std::max(worst, d);
    }
  }
  if (!bad) return "";
  const bool cplx = ivy::is_complex(want.dtype);
  os << "element " << first << " of " << want.shape << ": got " << fmt(got.c[first], cplx) << ", expected "
     << fmt(want.c[first], cplx) << "; " << bad << " of " << want.c.size() << " elements differ, worst by " << worst
     << " (" << worst / scale << " of the largest expected |" << scale << "|, rtol " << rtol << ")";
  return os.str();
}

// ------------------------------------------------------------------ one case
struct Outcome {
  bool skipped = false;
  std::string message;  // a skip reason, or the failure; empty: passed
  bool single = false;  // float32 / complex64 expected values
  double err = 0;       // the largest difference, relative to each cotangent's largest element
};

Outcome run_case(const std::string& backend_name, const json& c) {
  Outcome o;
  const OpId op = ivy::op_from_name(c.at("op").get<std::string>());
  const ivy::OpInfo& info = ivy::op_info(op);
  ivy::Backend backend(backend_name.c_str());
  std::vector<Host> in_host;
  for (const json& a : c.at("inputs")) in_host.push_back(decode(a));
  for (const Host& h : in_host)
    if (ivy::is_unsupported(backend, info.name, h.dtype)) {
      o.skipped = true;
      o.message = std::string("backend lists ") + info.name + " on " + ivy::dtype_name(h.dtype) + " as unsupported";
      return o;
    }
  const Attrs attrs = make_attrs(op, c);
  ivy::BackendScope scope(backend);
  std::vector<Array> inputs;
  for (const Host& h : in_host) inputs.push_back(to_ivy(h));

  ivy::VjpResult r = ivy::vjp(
      [&](const std::vector<Array>& in) { return ivy::dispatch_multi(op, in, attrs); }, inputs);
  const json& cot_specs = c.at("cotangents");
  if (r.outputs.size() != cot_specs.size()) {
    o.message = std::to_string(r.outputs.size()) + " outputs, the fixture has " + std::to_string(cot_specs.size());
    return o;
  }
  // output cotangents: the linear part as given, plus 2 w y for a square term (from ivy's y)
  std::vector<Array> cots(r.outputs.size());
  for (std::size_t k = 0; k < cots.size(); ++k) {
    const json& s = cot_specs[k];
    if (s.is_null()) continue;
    const Array& y = r.outputs[k];
    if (ivy::is_unsupported(backend, info.name, y.dtype())) {
      o.skipped = true;
      o.message = std::string("backend lists ") + info.name + " on " + ivy::dtype_name(y.dtype()) + " as unsupported";
      return o;
    }
    Array ct;
    if (s.contains("linear")) ct = ivy::astype(to_ivy(decode(s["linear"])), y.dtype());
    if (s.contains("square")) {
      Array sq = ivy::astype(ivy::multiply(ivy::multiply(to_ivy(decode(s["square"])), 2.0), y), y.dtype());
      ct = ct.defined() ? ivy::add(ct, sq) : sq;
    }
    // the fixture speaks PyTorch's convention (dL/dRe + i dL/dIm), ivy::vjp JAX's (its conjugate)
    cots[k] = ivy::is_complex(ct.dtype()) ? ivy::conj(ct) : ct;
  }
  std::vector<Array> grads = r.vjp_fn(cots);
  const json& expected = c.at("expected");
  if (grads.size() != expected.size()) {
    o.message = std::to_string(grads.size()) + " input cotangents, the fixture has " + std::to_string(expected.size());
    return o;
  }
  std::string msg;
  for (std::size_t i = 0; i < grads.size(); ++i) {
    if (expected[i].is_null()) continue;
    const Host want = decode(expected[i]);
    if (!grads[i].defined()) {
      msg += " input " + std::to_string(i) + ": undefined cotangent;";
      continue;
    }
    if (std::string(grads[i].backend().name()) != backend_name)
      msg += " input " + std::to_string(i) + ": cotangent on backend " + grads[i].backend().name() + ";";
    const Array g = ivy::is_complex(grads[i].dtype()) ? ivy::conj(grads[i]) : grads[i];  // JAX's -> PyTorch's
    o.single |= ivy::real_of(want.dtype) == DType::float32;
    const std::string d = compare(from_ivy(g), want, rtol_for(want.dtype, c), &o.err);
    if (!d.empty()) msg += " input " + std::to_string(i) + ": " + d + ";";
  }
  o.message = msg;
  return o;
}

// ------------------------------------------------------------------ the tests
TEST(AutodiffFixturesFile, LoadsAndCoversEveryDifferentiablePrimitive) {
  ASSERT_TRUE(fixtures().error.empty()) << fixtures().error;
  EXPECT_GT(fixtures().cases().size(), 500u) << "autodiff.json looks truncated";
  EXPECT_FALSE(backend_names().empty()) << "no backend was built";
  std::set<std::string> covered;
  for (const json& c : fixtures().cases()) {
    const std::string name = c.at("name").get<std::string>(), op = c.at("op").get<std::string>();
    try {
      const OpId id = ivy::op_from_name(op);
      EXPECT_TRUE(ivy::op_info(id).has(ivy::kDifferentiable)) << name << ": " << op << " is not differentiable";
      make_attrs(id, c);
    } catch (const std::exception& e) {
      ADD_FAILURE() << "case '" << name << "': " << e.what();
    }
    covered.insert(op);
  }
  const json skipped = fixtures().doc.value("skipped", json::object());
  std::string missing;
  for (int k = 0; k < ivy::kNumOps; ++k) {
    const ivy::OpInfo& info = ivy::op_info(static_cast<OpId>(k));
    if (info.has(ivy::kDifferentiable) && !covered.count(info.name) && !skipped.contains(info.name))
      missing += std::string(" ") + info.name;
  }
  EXPECT_TRUE(missing.empty()) << "differentiable primitives with no PyTorch case and no skip reason:" << missing;
}

class AutodiffFixtures : public ::testing::TestWithParam<std::string> {};

TEST_P(AutodiffFixtures, VjpsMatchPyTorch) {
  ASSERT_TRUE(fixtures().error.empty()) << fixtures().error;
  const std::string backend = GetParam();
  int passed = 0, failed = 0;
  std::map<std::string, int> skips;
  double worst[2] = {0, 0};  // over the passing cases: double, single precision
  std::string worst_case[2];
  const json& cases = fixtures().cases();
  for (std::size_t n = 0; n < cases.size(); ++n) {
    const json& c = cases[n];
    const std::string name = c.value("name", std::string("?"));
    Outcome o;
    try {
      o = run_case(backend, c);
    } catch (const std::exception& e) {
      o.message = std::string("threw ") + e.what();
    }
    if (o.skipped) {
      ++skips[o.message];
    } else if (o.message.empty()) {
      ++passed;
      if (o.err >= worst[o.single]) worst[o.single] = o.err, worst_case[o.single] = name;
    } else {
      ++failed;
      ADD_FAILURE() << "case #" << n << " '" << name << "' (" << c.value("op", std::string("?")) << ", backend "
                    << backend << "):" << o.message;
    }
  }
  std::ostringstream summary;
  summary << "[autodiff fixtures] backend " << backend << ": " << passed << " passed, " << failed << " failed";
  int skipped = 0;
  for (const auto& [why, k] : skips) skipped += k;
  summary << ", " << skipped << " skipped; largest relative difference in a passing case: float64 " << worst[0]
          << " ('" << worst_case[0] << "'), float32 " << worst[1] << " ('" << worst_case[1] << "')";
  for (const auto& [why, k] : skips) summary << "\n  skipped " << k << ": " << why;
  std::cout << summary.str() << std::endl;
  EXPECT_GT(passed, 0);
}

INSTANTIATE_TEST_SUITE_P(Backends, AutodiffFixtures, ::testing::ValuesIn(backend_names()),
                         [](const auto& p) { return p.param; });

}  // namespace

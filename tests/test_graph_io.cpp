// Graph export and import (include/ivy/graph_io.hpp): exact JSON round trips of traced
// graphs on every backend and across backends, scalar attributes that keep their bits,
// rejection of malformed and corrupted documents (semantic corruptions, truncations,
// character flips), files, and DOT output.
#include <dirent.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <bit>
#include <cmath>
#include <complex>
#include <cstdio>
#include <functional>
#include <limits>
#include <nlohmann/json.hpp>
#include <set>

#include "ivy/compile.hpp"
#include "ivy/dispatch.hpp"
#include "ivy/graph_io.hpp"
#include "ivy/ivy.hpp"

namespace {

using ivy::Array;
using ivy::Graph;
using ojson = nlohmann::ordered_json;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

std::vector<std::string> backend_names() {
  std::vector<std::string> v;
  for (auto b : ivy::available_backends()) v.push_back(b.name());
  return v;
}

std::vector<unsigned char> bytes_of(const Array& x) {
  std::vector<unsigned char> out(static_cast<std::size_t>(x.size()) * ivy::itemsize(x.dtype()));
  if (!out.empty()) ivy::copy_to_host(x, out.data());
  return out;
}

bool same_bits(double a, double b) { return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b); }
bool in_int64(double v) { return v >= -9223372036854775808.0 && v < 9223372036854775808.0; }

// Every field the same, doubles by their bits. `i` of a Float/Complex scalar whose value
// lies outside int64 is not compared (its constructor's conversion is undefined there).
bool same_scalar(const ivy::Scalar& a, const ivy::Scalar& b) {
  if (a.kind != b.kind || a.b != b.b || !same_bits(a.d, b.d) || !same_bits(a.c.real(), b.c.real()) ||
      !same_bits(a.c.imag(), b.c.imag()))
    return false;
  const bool int_defined = a.kind == ivy::Scalar::Bool || a.kind == ivy::Scalar::Int || in_int64(a.c.real());
  return !int_defined || a.i == b.i;
}
// True when Scalar's operator== can hold for a copy (no NaN, `i` well defined).
bool plain_scalar(const ivy::Scalar& s) {
  return std::isfinite(s.c.real()) && std::isfinite(s.c.imag()) && in_int64(s.c.real());
}

// The attributes of `op`'s set in a and b are the same (scalars and floats by their bits);
// when no scalar holds NaN or an out-of-range value, the Attrs compare equal too.
// One field of both sets; `plain` turns false where == cannot be expected to hold.
template <class T>
void expect_same_field(const T& x, const T& y, const std::string& at, bool& plain) {
  if constexpr (std::is_same_v<T, double>) {
    EXPECT_TRUE(same_bits(x, y)) << at << ": " << x << " vs " << y;
    plain = plain && !std::isnan(x);
  } else if constexpr (std::is_same_v<T, ivy::Scalar>) {
    EXPECT_TRUE(same_scalar(x, y)) << at << ": " << x.str();
    plain = plain && plain_scalar(x);
  } else {
    EXPECT_EQ(x, y) << at;
  }
}
template <class T>
void expect_same_field(const std::optional<T>& x, const std::optional<T>& y, const std::string& at, bool& plain) {
  ASSERT_EQ(x.has_value(), y.has_value()) << at;
  if (x) expect_same_field(*x, *y, at, plain);
}

void expect_same_attrs(ivy::OpId op, const ivy::Attrs& a, const ivy::Attrs& b, const std::string& where) {
  ASSERT_EQ(a.set(), ivy::op_info(op).set) << where;
  ASSERT_EQ(b.set(), a.set()) << where;
  bool plain = true;
  ivy::visit_attr_set(a.set(), [&]<class S>(std::type_identity<S>) {
    const S& sb = b.get<S>();
    S::for_each(a.get<S>(), [&](const ivy::AttrField& f, const auto& x) {
      // the same field of b: walk b's set to the field of the same name
      S::for_each(sb, [&](const ivy::AttrField& g, const auto& y) {
        if constexpr (std::is_same_v<decltype(x), decltype(y)>)
          if (&g == &f) expect_same_field(x, y, where + " attribute " + f.name, plain);
      });
    });
  });
  if (plain) {
    EXPECT_TRUE(a == b) << where;
  }
}

// Same values (shape, dtype, def-use), ids, nodes, attributes and constant bytes; and the
// reloaded graph writes the same text.
void expect_same_graph(const Graph& g, const Graph& h) {
  ASSERT_EQ(g.values.size(), h.values.size());
  for (std::size_t v = 0; v < g.values.size(); ++v) {
    EXPECT_EQ(g.values[v].shape, h.values[v].shape) << "%" << v;
    EXPECT_EQ(g.values[v].dtype, h.values[v].dtype) << "%" << v;
    EXPECT_EQ(g.values[v].producer, h.values[v].producer) << "%" << v;
    EXPECT_EQ(g.values[v].users, h.values[v].users) << "%" << v;
  }
  EXPECT_EQ(g.input_ids, h.input_ids);
  EXPECT_EQ(g.output_ids, h.output_ids);
  EXPECT_EQ(g.constant_ids, h.constant_ids);
  ASSERT_EQ(g.constants.size(), h.constants.size());
  for (std::size_t i = 0; i < g.constants.size(); ++i) {
    EXPECT_EQ(g.constants[i].dtype(), h.constants[i].dtype()) << "constant " << i;
    EXPECT_EQ(g.constants[i].shape(), h.constants[i].shape()) << "constant " << i;
    EXPECT_EQ(bytes_of(g.constants[i]), bytes_of(h.constants[i])) << "constant " << i;
  }
  ASSERT_EQ(g.nodes.size(), h.nodes.size());
  for (std::size_t n = 0; n < g.nodes.size(); ++n) {
    const std::string where = "node " + std::to_string(n) + " (" + ivy::op_info(g.nodes[n].op).name + ")";
    ASSERT_EQ(g.nodes[n].op, h.nodes[n].op) << where;
    EXPECT_EQ(g.nodes[n].inputs, h.nodes[n].inputs) << where;
    EXPECT_EQ(g.nodes[n].outputs, h.nodes[n].outputs) << where;
    expect_same_attrs(g.nodes[n].op, g.nodes[n].attrs, h.nodes[n].attrs, where);
  }
  EXPECT_EQ(ivy::graph_to_json(g), ivy::graph_to_json(h));
}

// Same count, dtypes, shapes and bytes.
void expect_bit_equal(const std::vector<Array>& a, const std::vector<Array>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].dtype(), b[i].dtype()) << "result " << i;
    EXPECT_EQ(a[i].shape(), b[i].shape()) << "result " << i;
    EXPECT_EQ(bytes_of(a[i]), bytes_of(b[i])) << "result " << i;
  }
}

// ---------------------------------------------------------------- a graph with many ops

std::vector<Array> inputs_on(const std::string& backend, std::uint64_t seed) {
  ivy::BackendScope scope(backend);
  ivy::seed(seed);
  return {ivy::random_normal(0.0, 1.0, {3, 4}, ivy::float32), ivy::random_normal(0.0, 1.0, {4, 5}, ivy::float32),
          ivy::random_normal(0.0, 1.0, {3, 3}, ivy::float64),
          ivy::randint(-20, 20, {6}, ivy::int32)};
}

// Arrays the traced function reads from outside: they become the graph's constants.
struct Captured {
  Array f32, i64, b, c64, empty, zero_d, returned;
  explicit Captured(const std::string& backend) {
    ivy::BackendScope scope(backend);
    f32 = ivy::asarray(std::vector<float>{1.5f, -0.0f, std::numeric_limits<float>::infinity(),
                                          std::numeric_limits<float>::quiet_NaN()},
                       ivy::Shape{1, 4});
    i64 = ivy::asarray(std::vector<std::int64_t>{std::numeric_limits<std::int64_t>::min(), -1, 0, 7, 8,
                                                 std::numeric_limits<std::int64_t>::max()});
    b = ivy::asarray(std::vector<bool>{true, false, true, true}, ivy::Shape{1, 4});
    c64 = ivy::asarray(std::vector<std::complex<float>>{{1.f, -2.f}, {-0.f, 3.5f}});
    empty = ivy::zeros({0, 4}, ivy::float32);
    zero_d = ivy::asarray(std::vector<double>{2.25}, ivy::Shape{});
    returned = ivy::asarray(std::vector<std::int32_t>{4, 5, 6});
  }
};

std::vector<Array> many_ops(const std::vector<Array>& in, const Captured& c) {
  const Array& x = in[0];  // float32 (3, 4)
  const Array& y = in[1];  // float32 (4, 5)
  const Array& m = in[2];  // float64 (3, 3)
  const Array& k = in[3];  // int32 (6)
  std::vector<Array> out;
  // elementwise, with scalars (full nodes carrying Scalar attributes)
  Array e = ivy::sin(x) * 2.0 + ivy::exp(-x) - ivy::sqrt(ivy::abs(x)) / 3;
  out.push_back(e);
  out.push_back(x + ivy::Scalar(std::uint64_t{1} << 63));  // a uint64 scalar: bits in i, value in d
  // reductions: axes, keepdims, dtype, correction
  out.push_back(ivy::sum(e, 1, std::nullopt, true));
  out.push_back(ivy::mean(e, {0}));
  out.push_back(ivy::max(e, {0, 1}, true));
  out.push_back(ivy::var(e, 0, 1.0));
  out.push_back(ivy::argmax(e, 1, true));
  out.push_back(ivy::cumulative_sum(k, 0, ivy::int64));
  out.push_back(ivy::prod(k, {}, ivy::int64));
  out.push_back(ivy::any(x > 1.0, 1));
  // manipulation and slicing
  out.push_back(ivy::permute_dims(ivy::reshape(e, {4, 3}), {1, 0}));
  out.push_back(x.index({ivy::Slice(0, 2), ivy::Slice(std::nullopt, std::nullopt, -2)}));
  out.push_back(ivy::flip(x, 1));
  out.push_back(ivy::roll(x, 2, 1));
  out.push_back(ivy::tile(x, {2, 1}));
  out.push_back(ivy::broadcast_to(ivy::reshape(k, {6, 1}), {6, 3}));
  out.push_back(ivy::concat({x, e, ivy::square(x)}, 1));  // variadic
  out.push_back(ivy::concat({k, k}));
  // linear algebra, dtypes
  out.push_back(ivy::astype(ivy::matmul(x, y), ivy::float64));
  out.push_back(ivy::tril(m, -1));
  auto sd = ivy::linalg::slogdet(m);  // two outputs
  out.push_back(sd.sign);
  out.push_back(sd.logabsdet);
  auto sv = ivy::linalg::svd(m, false);  // three outputs
  out.push_back(sv.S);
  out.push_back(ivy::matmul(sv.U, sv.Vh));
  // creation with special values
  out.push_back(ivy::full({2, 2}, kNaN, ivy::float32));
  out.push_back(ivy::full({2}, kInf, ivy::float64));
  out.push_back(ivy::full({2}, -kInf, ivy::float32));
  out.push_back(ivy::full({3}, -0.0, ivy::float64));
  out.push_back(ivy::full({2}, std::complex<double>(1.5, -kNaN), ivy::complex128));
  out.push_back(ivy::full({2}, true));
  out.push_back(ivy::full({2}, std::numeric_limits<std::int64_t>::min(), ivy::int64));
  out.push_back(ivy::arange(-3, 9, 2, ivy::int32));
  out.push_back(ivy::linspace(0.0, 1.0, 5, ivy::float64, {}, false));
  out.push_back(ivy::eye(3, 4, 1, ivy::float32));
  // selection, sorting, integers
  out.push_back(ivy::where(x > 0.0, x, kNaN));
  out.push_back(ivy::sort(x, 1, true));
  out.push_back(ivy::argsort(x, 0));
  out.push_back(ivy::take(x, ivy::abs(k) % 4, 1));
  out.push_back(ivy::bitwise_and(k, 3) << 2);
  // a data-dependent output count (on data that does not change between replays)
  for (const Array& z : ivy::nonzero(c.b)) out.push_back(z);
  // captured constants (one returned unchanged) and an input returned unchanged
  out.push_back(x + c.f32);
  out.push_back(k.index({ivy::Slice(0, 4)}) * c.i64.index({ivy::Slice(0, 4)}));
  out.push_back(ivy::logical_and(x > 0.0, c.b));
  out.push_back(ivy::conj(c.c64));
  out.push_back(ivy::sum(c.empty, 0));
  out.push_back(x * c.zero_d);
  out.push_back(c.returned);
  out.push_back(y);
  return out;
}

Graph trace_many_ops(const std::string& backend, const Captured& c) {
  ivy::BackendScope scope(backend);
  return ivy::trace([&](const std::vector<Array>& in) { return many_ops(in, c); }, inputs_on(backend, 1));
}

TEST(GraphIO, RoundTripOfManyOpsOnEveryBackend) {
  for (const std::string& name : backend_names()) {
    SCOPED_TRACE(name);
    Captured c(name);
    Graph g = trace_many_ops(name, c);
    // the graph reaches the ops the test is about
    std::set<std::string> ops;
    for (const auto& n : g.nodes) ops.insert(ivy::op_info(n.op).name);
    for (const char* op : {"add", "sum", "max", "var", "reshape", "permute_dims", "strided_slice", "matmul", "astype",
                           "full", "where", "concat", "sort", "slogdet", "svd", "nonzero", "linspace", "cumulative_sum"})
      EXPECT_TRUE(ops.count(op)) << op;
    EXPECT_EQ(g.constants.size(), 7u);

    const std::string text = ivy::graph_to_json(g);
    Graph h = ivy::graph_from_json(text, name);
    expect_same_graph(g, h);
    for (const Array& k : h.constants) EXPECT_EQ(std::string(k.backend().name()), name);
    // attributes by name, scalars with their kind, non-finite doubles as strings
    EXPECT_NE(text.find("\"keepdims\":true"), std::string::npos);
    EXPECT_NE(text.find("\"float\":\"nan\""), std::string::npos);
    EXPECT_NE(text.find("\"float\":\"-inf\""), std::string::npos);
    EXPECT_NE(text.find("\"float\":-0.0"), std::string::npos);
    EXPECT_NE(text.find("\"int\":9223372036854775808"), std::string::npos);
    EXPECT_NE(text.find("\"dtype\":\"complex128\""), std::string::npos);
    // one-line form reads back the same
    expect_same_graph(g, ivy::graph_from_json(ivy::graph_to_json(g, -1), name));

    // replays agree bit for bit, on the traced inputs and on new ones
    for (std::uint64_t seed : {1u, 2u}) {
      auto in = inputs_on(name, seed);
      expect_bit_equal(g.run(in), h.run(in));
    }
  }
}

TEST(GraphIO, RoundTripAcrossBackends) {
  auto names = backend_names();
  for (const std::string& from : names)
    for (const std::string& to : names) {
      SCOPED_TRACE(from + " -> " + to);
      Captured c(from);
      Graph g = trace_many_ops(from, c);
      Graph h = ivy::graph_from_json(ivy::graph_to_json(g), to);
      expect_same_graph(g, h);
      for (const Array& k : h.constants) EXPECT_EQ(std::string(k.backend().name()), to);
      auto in = inputs_on(to, 3);
      expect_bit_equal(g.run(in, to), h.run(in));
    }
}

// Captured arrays of every dtype each backend holds, returned through an identity-like op.
TEST(GraphIO, ConstantsOfEveryDtype) {
  for (const std::string& name : backend_names()) {
    SCOPED_TRACE(name);
    ivy::BackendScope scope(name);
    std::vector<Array> consts;
    for (ivy::DType d : ivy::all_dtypes()) {
      if (ivy::is_unsupported(name, "asarray", d)) continue;
      // bytes 0, 1, 2, ... reinterpreted (bool: 0/1); awkward bit patterns included
      const std::size_t n = 5;
      std::vector<unsigned char> raw(n * ivy::itemsize(d));
      for (std::size_t i = 0; i < raw.size(); ++i)
        raw[i] = d == ivy::bool_ ? static_cast<unsigned char>(i % 2) : static_cast<unsigned char>(37 * i + 11);
      consts.push_back(ivy::asarray(static_cast<const void*>(raw.data()), d, ivy::Shape{static_cast<std::int64_t>(n)}));
    }
    Array x = ivy::zeros({2}, ivy::float32);
    Graph g = ivy::trace(
        [&](const std::vector<Array>& in) {
          std::vector<Array> out{in[0]};
          for (const Array& k : consts) out.push_back(ivy::reshape(k, {5, 1}));
          return out;
        },
        {x});
    ASSERT_EQ(g.constants.size(), consts.size());
    Graph h = ivy::graph_from_json(ivy::graph_to_json(g), name);
    expect_same_graph(g, h);
    expect_bit_equal(g.run({x}), h.run({x}));
  }
}

TEST(GraphIO, UnsupportedConstantDtypeIsRejected) {
  for (const std::string& name : backend_names()) {
    ivy::DType missing = ivy::float32;
    bool found = false;
    for (ivy::DType d : ivy::all_dtypes())
      if (ivy::is_unsupported(name, "asarray", d)) missing = d, found = true;
    if (!found) continue;
    // a hand-built graph whose one constant has that dtype, written on a backend that holds it
    for (const std::string& other : backend_names()) {
      if (ivy::is_unsupported(other, "asarray", missing)) continue;
      Graph g;
      g.values.push_back({ivy::Shape{2}, missing, -1, {}});
      g.constant_ids.push_back(0);
      g.constants.push_back(ivy::zeros({2}, missing, {}, other));
      g.output_ids.push_back(0);
      try {
        ivy::graph_from_json(ivy::graph_to_json(g), name);
        ADD_FAILURE() << name << " accepted a " << ivy::dtype_name(missing) << " constant";
      } catch (const ivy::ValueError& e) {
        EXPECT_EQ(std::string(e.what()).rfind("[load_graph] constant 0 (%0): backend " + name, 0), 0u) << e.what();
      }
    }
  }
}

// ---------------------------------------------------------------- scalars and floats, exactly

TEST(GraphIO, ScalarAndFloatAttributesKeepTheirBits) {
  const double snan = std::bit_cast<double>(std::uint64_t{0x7ff0000000000001});
  const double payload_nan = std::bit_cast<double>(std::uint64_t{0xfff80000deadbeef});
  const double neg_nan = std::bit_cast<double>(std::uint64_t{0xfff8000000000000});
  const std::vector<ivy::Scalar> scalars = {
      ivy::Scalar(kNaN), ivy::Scalar(neg_nan), ivy::Scalar(payload_nan), ivy::Scalar(snan), ivy::Scalar(kInf),
      ivy::Scalar(-kInf), ivy::Scalar(-0.0), ivy::Scalar(0.0), ivy::Scalar(5e-324), ivy::Scalar(-1.7976931348623157e308),
      ivy::Scalar(0.1), ivy::Scalar(1.0 / 3.0), ivy::Scalar(1e300), ivy::Scalar(2.5f),
      ivy::Scalar(std::numeric_limits<std::int64_t>::min()), ivy::Scalar(std::numeric_limits<std::int64_t>::max()),
      ivy::Scalar(std::numeric_limits<std::uint64_t>::max()), ivy::Scalar(std::uint64_t{1} << 63), ivy::Scalar(-7),
      ivy::Scalar(true), ivy::Scalar(false), ivy::Scalar(std::complex<double>(-0.0, kNaN)),
      ivy::Scalar(std::complex<double>(kInf, -2.5)), ivy::Scalar(std::complex<float>(1.25f, -0.5f))};
  // (var's meta rejects negative corrections, not NaN)
  const std::vector<double> corrections = {kNaN, payload_nan, kInf, -0.0, 5e-324, 1.0 / 3.0};

  Graph g;
  g.values.push_back({ivy::Shape{3}, ivy::float64, -1, {}});
  g.input_ids.push_back(0);
  for (const ivy::Scalar& s : scalars) {
    ivy::attr::full w;
    w.shape = ivy::Dims{2};
    w.value = s;
    w.dtype = s.kind == ivy::Scalar::Complex ? ivy::complex128 : ivy::float64;
    const int id = static_cast<int>(g.values.size());
    g.values.push_back({ivy::Shape{2}, w.dtype, -1, {}});
    g.nodes.push_back({ivy::OpId::full, w, {}, {id}});
    g.output_ids.push_back(id);
  }
  for (double corr : corrections) {
    ivy::attr::reduce_var w;
    w.correction = corr;
    const int id = static_cast<int>(g.values.size());
    g.values.push_back({ivy::Shape{}, ivy::float64, -1, {}});
    g.nodes.push_back({ivy::OpId::var, w, {0}, {id}});
    g.output_ids.push_back(id);
  }
  g.rebuild_uses();

  const std::string text = ivy::graph_to_json(g);
  for (const char* want : {"\"float\":\"nan\"", "\"float\":\"-nan\"", "\"float\":\"nan:0xfff80000deadbeef\"",
                           "\"float\":\"nan:0x7ff0000000000001\"", "\"float\":\"inf\"", "\"float\":-0.0",
                           "\"int\":18446744073709551615", "\"int\":-9223372036854775808", "\"bool\":false",
                           "\"correction\":\"nan:0xfff80000deadbeef\"", "\"correction\":5e-324"})
    EXPECT_NE(text.find(want), std::string::npos) << want;

  for (const std::string& name : backend_names()) {
    SCOPED_TRACE(name);
    Graph h = ivy::graph_from_json(text, name);
    expect_same_graph(g, h);
    ivy::BackendScope scope(name);
    Array x = ivy::asarray({1.0, -2.0, 4.5});
    expect_bit_equal(g.run({x}), h.run({x}));
  }
}

// ---------------------------------------------------------------- malformed documents

// A small graph for the corruption tests: scalars, reductions, variadic concat, a
// multi-output op, a captured constant.
struct Small {
  Graph g;
  std::vector<Array> inputs;
  Small() {
    ivy::BackendScope scope(ivy::default_backend());
    ivy::seed(5);
    Array c = ivy::asarray(std::vector<float>{0.5f, -1.f, 2.f, 0.f, -0.f, 3.f}, ivy::Shape{2, 3});
    inputs = {ivy::random_normal(0.0, 1.0, {2, 3}, ivy::float32), ivy::random_normal(0.0, 1.0, {3, 3}, ivy::float32)};
    g = ivy::trace(
        [&](const std::vector<Array>& in) {
          const Array& x = in[0];
          const Array& y = in[1];
          auto sd = ivy::linalg::slogdet(y);
          return std::vector<Array>{ivy::sum(x * 2.5, 1, std::nullopt, true), ivy::concat({ivy::matmul(x, y), x}, 0),
                                    ivy::where(x > 0.0, x, kNaN), ivy::sort(x, 1, true), x + c,
                                    ivy::var(x, 1, 1.0), sd.logabsdet, ivy::reshape(x, {3, 2})};
        },
        inputs);
  }
};

// What loading `text` may do: load a graph that is well formed (it writes back out, and its
// replay fails only with ivy errors), or throw ValueError "[load_graph] ...". Returns true
// when it loaded.
bool loads_or_rejects_cleanly(const std::string& text, const std::vector<Array>& inputs, const std::string& what) {
  Graph h;
  try {
    h = ivy::graph_from_json(text);
  } catch (const ivy::ValueError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("[load_graph] ", 0), 0u) << what << ": " << e.what();
    return false;
  } catch (const std::exception& e) {
    ADD_FAILURE() << what << ": not a ValueError: " << e.what();
    return false;
  }
  EXPECT_NO_THROW(ivy::graph_to_json(h)) << what;
  try {
    h.run(inputs);
  } catch (const ivy::Error&) {
  } catch (const std::exception& e) {
    ADD_FAILURE() << what << ": replay threw a non-ivy error: " << e.what();
  }
  return true;
}

void expect_rejected(const std::string& text, const std::string& want, const std::string& what) {
  try {
    ivy::graph_from_json(text);
    ADD_FAILURE() << what << ": loaded";
  } catch (const ivy::ValueError& e) {
    const std::string msg = e.what();
    EXPECT_EQ(msg.rfind("[load_graph] ", 0), 0u) << what << ": " << msg;
    EXPECT_NE(msg.find(want), std::string::npos) << what << ": '" << msg << "' does not say '" << want << "'";
  } catch (const std::exception& e) {
    ADD_FAILURE() << what << ": not a ValueError: " << e.what();
  }
}

int node_index(const ojson& j, const std::string& op) {
  const ojson& nodes = j["nodes"];
  for (std::size_t n = 0; n < nodes.size(); ++n)
    if (nodes[n]["op"] == op) return static_cast<int>(n);
  ADD_FAILURE() << "no " << op << " node";
  return 0;
}

TEST(GraphIO, RejectsSemanticCorruptions) {
  Small s;
  const std::string text = ivy::graph_to_json(s.g);
  const ojson base = ojson::parse(text);
  const int add = node_index(base, "add"), sum = node_index(base, "sum"), full = node_index(base, "full"),
            sort = node_index(base, "sort"), var = node_index(base, "var"), concat = node_index(base, "concat");
  const int n_values = static_cast<int>(base["values"].size());
  const std::string add_at = "node " + std::to_string(add) + " (add)";
  const std::string concat_at = "node " + std::to_string(concat) + " (concat)";
  const std::string sum_at = "node " + std::to_string(sum) + " (sum)";
  const int concat_out = base["nodes"][concat]["outputs"][0];
  const int greater_out = base["nodes"][node_index(base, "greater")]["outputs"][0];

  struct Case {
    std::string what, want;
    std::function<void(ojson&)> edit;
  };
  std::vector<Case> cases = {
      {"wrong format", "format is \"onnx\"", [](ojson& j) { j["format"] = "onnx"; }},
      {"wrong version", "version 3 is not supported", [](ojson& j) { j["version"] = 3; }},
      {"version 0", "version 0 is not supported", [](ojson& j) { j["version"] = 0; }},
      {"version as string", "version is a string", [](ojson& j) { j["version"] = "1"; }},
      {"missing nodes", "missing field 'nodes'", [](ojson& j) { j.erase("nodes"); }},
      {"extra field", "unexpected field 'extra'", [](ojson& j) { j["extra"] = 1; }},
      {"values not an array", "values is an object", [](ojson& j) { j["values"] = ojson::object(); }},
      {"unknown dtype", "'float33' is not a dtype", [](ojson& j) { j["values"][0]["dtype"] = "float33"; }},
      {"negative extent", "has a negative extent", [](ojson& j) { j["values"][0]["shape"][0] = -2; }},
      {"fractional extent", "is a float (2.5)", [](ojson& j) { j["values"][0]["shape"][0] = 2.5; }},
      {"rank 33", "more than ivy's maximum 32", [](ojson& j) { j["values"][0]["shape"] = std::vector<int>(33, 1); }},
      {"huge shape", "too many bytes",
       [](ojson& j) { j["values"][0]["shape"] = {std::int64_t{1} << 40, std::int64_t{1} << 40}; }},
      {"graph input out of range", "input %999 is not a value of the graph", [](ojson& j) { j["inputs"][0] = 999; }},
      {"negative input id", "input %-1 is not a value of the graph", [](ojson& j) { j["inputs"][0] = -1; }},
      {"input id as string", "input 0 is a string", [](ojson& j) { j["inputs"][0] = "0"; }},
      {"node input out of range", add_at + ": input %" + std::to_string(n_values + 3) + " is not a value of the graph",
       [&](ojson& j) { j["nodes"][add]["inputs"][0] = n_values + 3; }},
      {"unknown op", "unknown op 'addd'", [&](ojson& j) { j["nodes"][add]["op"] = "addd"; }},
      {"op as integer", "op is an integer", [&](ojson& j) { j["nodes"][add]["op"] = 5; }},
      {"three inputs to add", "3 inputs, the primitive takes 2",
       [&](ojson& j) { j["nodes"][add]["inputs"].push_back(0); }},
      {"two outputs of sort", "2 outputs, the primitive makes 1",
       [&](ojson& j) { j["nodes"][sort]["outputs"].push_back(n_values - 1); }},
      {"unknown attribute", "unknown attribute 'axis'", [&](ojson& j) { j["nodes"][add]["attrs"]["axis"] = 0; }},
      {"bool attribute as integer", "attribute 'keepdims' is an integer (1), not a boolean",
       [&](ojson& j) { j["nodes"][sum]["attrs"]["keepdims"] = 1; }},
      {"ints attribute as integer", "attribute 'axes' is an integer, not an array of integers",
       [&](ojson& j) { j["nodes"][sum]["attrs"]["axes"] = 1; }},
      {"missing attribute", "missing attribute 'keepdims'",
       [&](ojson& j) { j["nodes"][sum]["attrs"].erase("keepdims"); }},
      {"int attribute as float", "attribute 'axis' is a float (0.5), not an int64 integer",
       [&](ojson& j) { j["nodes"][concat]["attrs"]["axis"] = 0.5; }},
      {"dtype attribute unknown", "'float99' is not a dtype",
       [&](ojson& j) { j["nodes"][full]["attrs"]["dtype"] = "float99"; }},
      {"scalar as number", "not a scalar", [&](ojson& j) { j["nodes"][full]["attrs"]["value"] = 1.5; }},
      {"unknown scalar kind", "unknown scalar kind 'decimal'",
       [&](ojson& j) { j["nodes"][full]["attrs"]["value"] = {{"decimal", 1}}; }},
      {"bad float spelling", "the float scalar's value is a string",
       [&](ojson& j) { j["nodes"][full]["attrs"]["value"] = {{"float", "nan2"}}; }},
      {"nan bits that are not a NaN", "the float scalar's value",
       [&](ojson& j) { j["nodes"][full]["attrs"]["value"] = {{"float", "nan:0x3ff0000000000000"}}; }},
      {"complex with one part", "not a pair of floats",
       [&](ojson& j) { j["nodes"][full]["attrs"]["value"] = {{"complex", {1.0}}}; }},
      {"float attribute as string", "attribute 'correction' is a string",
       [&](ojson& j) { j["nodes"][var]["attrs"]["correction"] = "one"; }},
      {"base64 short by one group", "data has 21 bytes but float32(2, 3) needs 24",
       [](ojson& j) {
         std::string d = j["constants"][0]["data"];
         j["constants"][0]["data"] = d.substr(0, d.size() - 4);
       }},
      {"base64 bad length", "not a multiple of 4",
       [](ojson& j) { j["constants"][0]["data"] = j["constants"][0]["data"].get<std::string>() + "A"; }},
      {"base64 bad character", "is not base64",
       [](ojson& j) {
         std::string d = j["constants"][0]["data"];
         d[1] = '!';
         j["constants"][0]["data"] = d;
       }},
      {"constant that is also an input", "is already defined by input 0",
       [&](ojson& j) { j["constants"][0]["value"] = j["inputs"][0]; }},
      {"node output defined twice", "is already defined by input 0",
       [&](ojson& j) { j["nodes"][add]["outputs"][0] = j["inputs"][0]; }},
      {"node read before its definition", "is read before it is defined",
       [&](ojson& j) {
         ojson moved = j["nodes"][sum];  // reads the multiply's output
         j["nodes"].erase(static_cast<std::size_t>(sum));
         j["nodes"].insert(j["nodes"].begin(), moved);
       }},
      {"output never defined", "is never defined",
       [&](ojson& j) {
         j["values"].push_back({{"shape", ojson::array()}, {"dtype", "float32"}});
         j["outputs"].push_back(n_values);
       }},
      {"node not an object", "node 0 is an array", [](ojson& j) { j["nodes"][0] = ojson::array(); }},
      {"node without attrs", "missing field 'attrs'", [&](ojson& j) { j["nodes"][add].erase("attrs"); }},
      // the declared types must be what the primitives make of their inputs
      {"concat output one row short", concat_at + ": output %" + std::to_string(concat_out) +
           " is declared float32(3, 3) but its inputs make float32(4, 3)",
       [&](ojson& j) { j["values"][concat_out]["shape"][0] = 3; }},
      {"concat output declared float64", concat_at + ": output %" + std::to_string(concat_out) +
           " is declared float64(4, 3) but its inputs make float32(4, 3)",
       [&](ojson& j) { j["values"][concat_out]["dtype"] = "float64"; }},
      {"sum over an axis the input lacks", sum_at + ": [sum]", [&](ojson& j) { j["nodes"][sum]["attrs"]["axes"] = {7}; }},
      {"var of a bool input", "(var): input %" + std::to_string(greater_out) +
           " is bool(2, 3), a dtype the primitive does not take",
       [&](ojson& j) { j["nodes"][var]["inputs"][0] = greater_out; }},
  };
  for (const Case& c : cases) {
    ojson j = base;
    c.edit(j);
    expect_rejected(j.dump(1), c.want, c.what);
  }
  // the message of the issue's example, in full
  {
    ojson j = base;
    j["nodes"][add]["inputs"][1] = n_values + 3;
    try {
      ivy::graph_from_json(j.dump());
      ADD_FAILURE();
    } catch (const ivy::ValueError& e) {
      EXPECT_EQ(std::string(e.what()),
                "[load_graph] " + add_at + ": input %" + std::to_string(n_values + 3) + " is not a value of the graph");
    }
  }
  // text-level corruptions
  expect_rejected("", "not valid JSON", "empty text");
  expect_rejected("[1, 2]", "the document is an array, not an object", "an array");
  expect_rejected("{\"format\":\"ivy-graph\", " + text.substr(1), "the key 'format' appears twice", "repeated key");
  expect_rejected(std::string(200, '[') + std::string(200, ']'), "nests deeper than", "deep nesting");
  expect_rejected(text + "x", "not valid JSON", "trailing garbage");
  // bool constants hold 0 or 1
  {
    Graph g;
    g.values.push_back({ivy::Shape{3}, ivy::bool_, -1, {}});
    g.constant_ids.push_back(0);
    g.constants.push_back(ivy::asarray(std::vector<bool>{true, false, true}));
    g.output_ids.push_back(0);
    ojson j = ojson::parse(ivy::graph_to_json(g));
    j["constants"][0]["data"] = "AQIB";  // bytes 1, 2, 1
    expect_rejected(j.dump(), "bool element 1 is the byte 2", "bool byte 2");
    j["constants"][0]["data"] = "AQAB";  // 1, 0, 1: fine
    EXPECT_NO_THROW(ivy::graph_from_json(j.dump()));
  }
}

TEST(GraphIO, FuzzTruncations) {
  Small s;
  for (int indent : {-1, 1}) {
    const std::string text = ivy::graph_to_json(s.g, indent);
    for (std::size_t cut = 0; cut < text.size(); ++cut) {
      // a cut document is never complete JSON
      EXPECT_FALSE(loads_or_rejects_cleanly(text.substr(0, cut), s.inputs, "cut at " + std::to_string(cut)));
    }
  }
}

TEST(GraphIO, FuzzCharacterChanges) {
  Small s;
  const std::string text = ivy::graph_to_json(s.g, -1);
  EXPECT_TRUE(loads_or_rejects_cleanly(text, s.inputs, "the original"));
  const std::string pool = "0123456789-+.eE\"{}[],: aZ=/\\nt";
  int loaded = 0, tried = 0;
  for (std::size_t pos = 0; pos < text.size(); ++pos) {
    // replacements drawn from the pool, different per position, plus a deletion
    for (std::size_t k = 0; k < 4; ++k) {
      std::string t = text;
      const char r = pool[(pos * 7 + k * 11) % pool.size()];
      if (t[pos] == r) continue;
      t[pos] = r;
      loaded += loads_or_rejects_cleanly(t, s.inputs, "char " + std::to_string(pos) + " -> '" + std::string(1, r) + "'");
      ++tried;
    }
    std::string t = text;
    t.erase(pos, 1);
    loaded += loads_or_rejects_cleanly(t, s.inputs, "char " + std::to_string(pos) + " deleted");
    ++tried;
  }
  // some changes leave a valid graph (a digit of an id or a number), most do not
  EXPECT_GT(loaded, 0);
  EXPECT_LT(loaded, tried);
}

// ---------------------------------------------------------------- files

std::string temp_dir() {
  std::string tmpl = ::testing::TempDir() + "ivy_graph_io_XXXXXX";
  std::vector<char> buf(tmpl.begin(), tmpl.end());
  buf.push_back('\0');
  const char* d = ::mkdtemp(buf.data());
  return d ? std::string(d) : std::string();
}
std::vector<std::string> dir_entries(const std::string& dir) {
  std::vector<std::string> out;
  if (DIR* d = ::opendir(dir.c_str())) {
    while (dirent* e = ::readdir(d))
      if (std::string(e->d_name) != "." && std::string(e->d_name) != "..") out.push_back(e->d_name);
    ::closedir(d);
  }
  return out;
}

TEST(GraphIO, SaveAndLoadFiles) {
  Small s;
  const std::string dir = temp_dir();
  ASSERT_FALSE(dir.empty());
  const std::string path = dir + "/graph.json";
  ivy::save_graph(s.g, path);
  ivy::save_graph(s.g, path);  // over an existing file
  EXPECT_EQ(dir_entries(dir), std::vector<std::string>{"graph.json"});  // no temporaries left
  for (const std::string& name : backend_names()) {
    Graph h = ivy::load_graph(path, name);
    expect_same_graph(s.g, h);
    auto in = s.inputs;
    for (auto& x : in) x = ivy::to_backend(x, name);
    expect_bit_equal(s.g.run(in), h.run(in));
  }
  // errors
  try {
    ivy::load_graph(dir + "/missing.json");
    ADD_FAILURE();
  } catch (const ivy::ValueError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("[load_graph] cannot open " + dir + "/missing.json", 0), 0u) << e.what();
  }
  try {
    ivy::save_graph(s.g, dir + "/no/such/dir/graph.json");
    ADD_FAILURE();
  } catch (const ivy::ValueError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("[save_graph] ", 0), 0u) << e.what();
  }
  {
    std::FILE* f = std::fopen((dir + "/bad.json").c_str(), "wb");
    ASSERT_TRUE(f);
    std::fputs("{\"format\":\"ivy-graph\", \"version\":1", f);
    std::fclose(f);
    try {
      ivy::load_graph(dir + "/bad.json");
      ADD_FAILURE();
    } catch (const ivy::ValueError& e) {
      EXPECT_EQ(std::string(e.what()).rfind("[load_graph] " + dir + "/bad.json: not valid JSON", 0), 0u) << e.what();
    }
  }
  EXPECT_THROW(ivy::load_graph(dir), ivy::ValueError);  // a directory
  EXPECT_THROW(ivy::save_graph(s.g, ""), ivy::ValueError);
  for (const std::string& e : dir_entries(dir)) std::remove((dir + "/" + e).c_str());
  ::rmdir(dir.c_str());
}

// Optional attributes are null when absent; version 1 files spelled them as has_<name> plus
// a value, and still load.
TEST(GraphIO, OptionalAttributesAndVersionOneFiles) {
  auto doc = [](int version, const std::string& attrs) {
    return "{\"format\":\"ivy-graph\",\"version\":" + std::to_string(version) +
           ",\"values\":[{\"shape\":[2,3],\"dtype\":\"float64\"},{\"shape\":[3],\"dtype\":\"float64\"}],"
           "\"inputs\":[0],\"outputs\":[1],\"constants\":[],"
           "\"nodes\":[{\"op\":\"sum\",\"inputs\":[0],\"outputs\":[1],\"attrs\":" + attrs + "}]}";
  };
  const Array x = ivy::reshape(ivy::asarray({1.0, 2.0, 3.0, 4.0, 5.0, 6.0}), {2, 3});
  // version 2: axes [0], dtype absent
  Graph g2 = ivy::graph_from_json(doc(2, R"({"axes":[0],"keepdims":false,"dtype":null})"));
  const auto& s2 = g2.nodes[0].attrs.get<ivy::attr::reduce_acc>();
  ASSERT_TRUE(s2.axes.has_value());
  EXPECT_EQ(*s2.axes, (ivy::Dims{0}));
  EXPECT_FALSE(s2.dtype.has_value());
  EXPECT_NE(ivy::graph_to_json(g2, -1).find("\"dtype\":null"), std::string::npos);
  const std::vector<double> want = {5.0, 7.0, 9.0};
  EXPECT_EQ(g2.run({x})[0].to_vector<double>(), want);
  // version 1: the flags decide, the values of absent fields are ignored
  Graph g1 = ivy::graph_from_json(
      doc(1, R"({"axes":[0],"has_axes":true,"keepdims":false,"dtype":"float32","has_dtype":false})"));
  EXPECT_EQ(g1.nodes[0].attrs, g2.nodes[0].attrs);
  // and a version 1 file that lacks a flag, or a version 2 file that has one, is refused
  EXPECT_THROW(ivy::graph_from_json(doc(1, R"({"axes":[0],"keepdims":false,"dtype":"float32","has_dtype":false})")),
               ivy::ValueError);
  try {
    ivy::graph_from_json(doc(2, R"({"axes":[0],"has_axes":true,"keepdims":false,"dtype":null})"));
    ADD_FAILURE() << "accepted has_axes in version 2";
  } catch (const ivy::ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("unknown attribute 'has_axes'"), std::string::npos) << e.what();
  }
}

TEST(GraphIO, CompileRejectsDeclaredTypesThePrimitivesDoNotMake) {
  // a hand-edited Graph whose declared shape disagrees with the primitive's rule: the
  // executable's buffers are sized by the declaration, so compile refuses it
  Small s;
  Graph g = s.g;
  int reshape = -1;
  for (std::size_t n = 0; n < g.nodes.size(); ++n)
    if (std::string(ivy::op_info(g.nodes[n].op).name) == "reshape") reshape = static_cast<int>(n);
  ASSERT_GE(reshape, 0);
  const int out = g.nodes[static_cast<std::size_t>(reshape)].outputs[0];
  g.values[static_cast<std::size_t>(out)].shape = ivy::Shape{2, 2};
  try {
    ivy::Executable exe(g, ivy::default_backend());
    ADD_FAILURE() << "compiled";
  } catch (const ivy::ValueError& e) {
    EXPECT_EQ(std::string(e.what()), "[compile] node " + std::to_string(reshape) + " (reshape): output %" +
                                         std::to_string(out) + " is declared float32(2, 2) but its inputs make float32(3, 2)");
  }
  EXPECT_NO_THROW(ivy::Executable(s.g, ivy::default_backend()));
}

TEST(GraphIO, WritersRejectMalformedGraphs) {
  Small s;
  auto expect_prefix = [](auto&& fn, const std::string& prefix, const std::string& want) {
    try {
      fn();
      ADD_FAILURE() << prefix << " accepted it";
    } catch (const ivy::ValueError& e) {
      EXPECT_EQ(std::string(e.what()).rfind(prefix, 0), 0u) << e.what();
      EXPECT_NE(std::string(e.what()).find(want), std::string::npos) << e.what();
    }
  };
  Graph bad_input = s.g;
  bad_input.nodes.back().inputs[0] = static_cast<int>(bad_input.values.size()) + 5;
  expect_prefix([&] { ivy::graph_to_json(bad_input); }, "[graph_to_json] ", "is not a value of the graph");
  expect_prefix([&] { ivy::graph_to_dot(bad_input); }, "[graph_to_dot] ", "is not a value of the graph");
  expect_prefix([&] { ivy::save_graph(bad_input, ::testing::TempDir() + "never.json"); }, "[save_graph] ",
                "is not a value of the graph");
  Graph no_array = s.g;
  no_array.constants.pop_back();
  expect_prefix([&] { ivy::graph_to_json(no_array); }, "[graph_to_json] ", "constant ids but");
  Graph wrong_shape = s.g;
  wrong_shape.values[static_cast<std::size_t>(wrong_shape.constant_ids[0])].shape = ivy::Shape{6};
  expect_prefix([&] { ivy::graph_to_json(wrong_shape); }, "[graph_to_json] ", "but the value is float32(6,)");
}

// ---------------------------------------------------------------- DOT

TEST(GraphIO, DotIsWellFormed) {
  Captured c(ivy::default_backend().name());
  Graph g = trace_many_ops(ivy::default_backend().name(), c);
  const std::string dot = ivy::graph_to_dot(g);
  EXPECT_EQ(dot.rfind("digraph", 0), 0u);
  // braces balance outside quoted strings, and every quote is closed
  int depth = 0, min_depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < dot.size(); ++i) {
    const char ch = dot[i];
    if (in_string) {
      if (ch == '\\')
        ++i;
      else if (ch == '"')
        in_string = false;
      continue;
    }
    if (ch == '"') in_string = true;
    if (ch == '{') ++depth;
    if (ch == '}') min_depth = std::min(min_depth, --depth);
    if (ch == '\n') {
      EXPECT_TRUE(depth == 1 || i + 1 == dot.size()) << "unbalanced before offset " << i;
    }
  }
  EXPECT_FALSE(in_string);
  EXPECT_EQ(depth, 0);
  EXPECT_EQ(min_depth, 0);
  for (const auto& n : g.nodes) {
    EXPECT_NE(dot.find(std::string("label=\"") + ivy::op_info(n.op).name), std::string::npos) << ivy::op_info(n.op).name;
  }
  EXPECT_NE(dot.find("keepdims=true"), std::string::npos);          // attributes
  EXPECT_NE(dot.find("float32(3, 4)"), std::string::npos);          // edge types
  EXPECT_NE(dot.find("= [2.25]"), std::string::npos);               // a small constant's elements
  EXPECT_NE(dot.find("= [1.5, -0, inf, nan]"), std::string::npos);  // with special values
  for (std::size_t i = 0; i < g.output_ids.size(); ++i)
    EXPECT_NE(dot.find("label=\"output " + std::to_string(i) + "\""), std::string::npos);
  for (std::size_t i = 0; i < g.input_ids.size(); ++i)
    EXPECT_NE(dot.find("input " + std::to_string(i)), std::string::npos);
}

}  // namespace

// Every primitive of ops.def, called straight through dispatch on every backend with inputs
// and attributes it may not accept: a wrong number of inputs, a dtype kind it does not take,
// 0-d, empty, zero-size, rank-5, mismatched and non-contiguous inputs, axes out of range,
// negative and huge sizes, NaN parameters. Each call must either give a result or throw an
// ivy::Error whose message starts with "[primitive]" and is ivy's own (no LibTorch trace);
// the cases that are wrong by the primitive's own schema (arity, dtype kind, axis out of
// range, negative or impossible shapes) must throw. The case list is generated from ops.def,
// so a new primitive is covered when its row is added.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "ivy/ivy.hpp"

namespace {

using ivy::Array;
using ivy::Dims;
using ivy::DType;
using ivy::OpId;
using ivy::Shape;

enum class Want { Error, Answer };  // must throw / may give a result or throw

struct Tally {
  long cases = 0, results = 0, errors = 0;
};

// The marks of an exception text that comes from LibTorch or c10 instead of ivy.
bool looks_foreign(std::string_view what) {
  for (std::string_view mark : {"Exception raised from", "c10::", "at::", "frame #", "TORCH_CHECK"})
    if (what.find(mark) != std::string_view::npos) return true;
  return false;
}

// Runs one case; `what` describes it in a failure message.
void check(Tally& t, const ivy::OpInfo& info, const std::string& backend, const std::string& what, Want want,
           const std::function<void()>& call) {
  ++t.cases;
  const std::string prefix = std::string("[") + info.name + "]";
  const std::string where = std::string(info.name) + " on " + backend + ", " + what;
  try {
    call();
  } catch (const ivy::Error& e) {
    const std::string_view msg = e.what();
    ++t.errors;
    if (!msg.starts_with(prefix)) ADD_FAILURE() << where << ": the error does not start with " << prefix << ": " << msg;
    else if (looks_foreign(msg)) ADD_FAILURE() << where << ": the error carries a LibTorch message: " << msg;
    return;
  } catch (const std::exception& e) {
    ++t.errors;
    ADD_FAILURE() << where << ": threw a non-ivy exception: " << e.what();
    return;
  } catch (...) {
    ++t.errors;
    ADD_FAILURE() << where << ": threw something that is not a std::exception";
    return;
  }
  ++t.results;
  if (want == Want::Error) ADD_FAILURE() << where << ": gave a result, expected an ivy::Error starting with " << prefix;
}

constexpr std::uint8_t kKinds[] = {ivy::kBoolKind, ivy::kIntegerKind, ivy::kRealFloating, ivy::kComplexKind};
DType dtype_of_kind(std::uint8_t kind) {
  switch (kind) {
    case ivy::kBoolKind: return ivy::bool_;
    case ivy::kIntegerKind: return ivy::int64;
    case ivy::kRealFloating: return ivy::float32;
    default: return ivy::complex64;
  }
}
// The dtype the valid-looking cases use: float32 where the primitive takes real floats,
// else the first kind it takes.
DType accepted_dtype(std::uint8_t kinds) {
  if (kinds & ivy::kRealFloating) return ivy::float32;
  for (std::uint8_t k : kKinds)
    if (kinds & k) return dtype_of_kind(k);
  return ivy::float32;
}

// Values 1, 2, 3, 1, 2, ... (so that logs, divisions and square roots stay finite).
Array input(const Shape& shape, DType d) {
  std::vector<double> v(static_cast<std::size_t>(shape.numel()));
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = 1.0 + static_cast<double>(i % 3);
  return ivy::asarray(v.data(), ivy::float64, shape, d);
}
// The same values as a non-contiguous view: the transpose of a (cols, rows) array.
Array transposed_input(std::int64_t rows, std::int64_t cols, DType d) {
  return ivy::permute_dims(input(Shape{cols, rows}, d), Dims{1, 0});
}

std::vector<Array> n_copies(int n, const std::function<Array(int)>& make) {
  std::vector<Array> v;
  for (int i = 0; i < n; ++i) v.push_back(make(i));
  return v;
}

// The hostile values each attribute type is tried with, and whether the field's meaning makes
// the value wrong by the schema (an axis out of range, a negative or impossible shape).
constexpr std::int64_t kHuge = std::int64_t{1} << 40;
std::vector<std::pair<std::int64_t, Want>> int_variants(std::string_view field) {
  if (field == "axis") return {{64, Want::Error}, {-65, Want::Error}, {-1, Want::Answer}};
  return {{-1, Want::Answer}, {0, Want::Answer}, {kHuge, Want::Answer}, {-kHuge, Want::Answer}};
}
std::vector<std::pair<Dims, Want>> ints_variants(std::string_view field) {
  if (field == "axes") return {{Dims{64}, Want::Error}, {Dims{-65}, Want::Error}, {Dims{0, 0}, Want::Answer}, {Dims{}, Want::Answer}};
  if (field == "shape")
    return {{Dims{-3}, Want::Error}, {Dims{kHuge, kHuge}, Want::Error}, {Dims{2, 0}, Want::Answer}, {Dims{}, Want::Answer}};
  return {{Dims{-1}, Want::Answer},   {Dims{-1, -1}, Want::Answer}, {Dims{0, 0}, Want::Answer},
          {Dims{kHuge, kHuge}, Want::Answer}, {Dims{}, Want::Answer}, {Dims{1, 1, 1, 1, 1, 1}, Want::Answer}};
}
std::vector<double> float_variants() {
  return {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(), -1.0, 1e300};
}
std::vector<DType> dtype_variants() { return {ivy::bool_, ivy::int8, ivy::uint64, ivy::float16, ivy::complex128}; }

// Every case of one primitive whose attribute set is S, on one backend.
template <class S>
void cases_of(OpId op, const std::string& backend, Tally& t) {
  const ivy::OpInfo& info = ivy::op_info(op);
  const ivy::Backend be(backend.c_str());
  const DType ok_dtype = accepted_dtype(info.kinds);
  const S defaults{};
  // The primitive's own count of inputs, or 2 for a variadic one.
  const int n = info.n_in >= 0 ? info.n_in : 2;
  auto call = [&](const std::vector<Array>& in, const S& attrs) {
    (void)ivy::dispatch_multi(op, in, attrs, be);
  };
  auto same = [&](int count, const Shape& s, DType d) { return n_copies(count, [&](int) { return input(s, d); }); };

  // the number of inputs
  if (info.n_in >= 0) {
    check(t, info, backend, "one input too many", Want::Error,
          [&] { call(same(info.n_in + 1, Shape{2, 3}, ok_dtype), defaults); });
    if (info.n_in > 0)
      check(t, info, backend, "one input too few", Want::Error,
            [&] { call(same(info.n_in - 1, Shape{2, 3}, ok_dtype), defaults); });
  } else {
    for (int count : {0, 1, 3})
      check(t, info, backend, std::to_string(count) + " inputs", Want::Answer,
            [&] { call(same(count, Shape{2, 3}, ok_dtype), defaults); });
  }
  if (n == 0) {
    // creation primitives: their attributes are all they take
  } else {
    // a dtype kind the primitive does not take
    for (std::uint8_t k : kKinds)
      if (!(info.kinds & k))
        check(t, info, backend, std::string("inputs of dtype ") + ivy::dtype_name(dtype_of_kind(k)), Want::Error,
              [&] { call(same(n, Shape{2, 3}, dtype_of_kind(k)), defaults); });
    // shapes: 0-d, empty, zero-size, rank 1 to 5
    for (const Shape& s : {Shape{}, Shape{0}, Shape{2, 0}, Shape{0, 3}, Shape{3}, Shape{2, 3}, Shape{2, 3, 4, 5},
                           Shape{1, 2, 1, 3, 1}})
      check(t, info, backend, "inputs of shape " + s.str(), Want::Answer, [&] { call(same(n, s, ok_dtype), defaults); });
    // shapes that do not broadcast, and inputs of different dtypes
    if (n >= 2) {
      check(t, info, backend, "inputs of shapes (2,3) and (4)", Want::Answer, [&] {
        call(n_copies(n, [&](int i) { return input(i % 2 ? Shape{4} : Shape{2, 3}, ok_dtype); }), defaults);
      });
      for (std::uint8_t k : kKinds)
        if (info.kinds & k)
          check(t, info, backend, std::string("a second input of dtype ") + ivy::dtype_name(dtype_of_kind(k)),
                Want::Answer, [&] {
                  call(n_copies(n, [&](int i) { return input(Shape{2, 3}, i == 1 ? dtype_of_kind(k) : ok_dtype); }),
                       defaults);
                });
    }
    // non-contiguous inputs
    check(t, info, backend, "transposed (non-contiguous) inputs of shape (2,3)", Want::Answer,
          [&] { call(n_copies(n, [&](int) { return transposed_input(2, 3, ok_dtype); }), defaults); });
  }

  // each attribute, one at a time, set to hostile values (the inputs: (2,3) arrays)
  const std::vector<Array> in = n == 0 ? std::vector<Array>{} : same(n, Shape{2, 3}, ok_dtype);
  for (int field = 0; field < S::kCount; ++field) {
    const ivy::AttrField& f = S::kFields[field];
    // the variant runner: a copy of the defaults with field `field` set to `value`
    auto with = [&](const std::string& what, Want want, const auto& value) {
      check(t, info, backend, std::string("attribute ") + f.name + " = " + what, want, [&] {
        S attrs = defaults;
        int i = 0;
        S::for_each(attrs, [&](const ivy::AttrField&, auto& member) {
          if constexpr (std::is_assignable_v<decltype(member), decltype(value)>)
            if (i == field) member = value;
          ++i;
        });
        call(in, attrs);
      });
    };
    S probe = defaults;
    int i = 0;
    S::for_each(probe, [&](const ivy::AttrField&, auto& member) {
      if (i++ != field) return;
      using M = std::remove_cvref_t<decltype(member)>;
      if constexpr (std::is_same_v<M, std::int64_t> || std::is_same_v<M, std::optional<std::int64_t>>) {
        for (auto [v, want] : int_variants(f.name))
          with(std::to_string(v), want, v);
      } else if constexpr (std::is_same_v<M, Dims> || std::is_same_v<M, std::optional<Dims>>) {
        for (auto [v, want] : ints_variants(f.name))
          with(Shape(v).str(), want, v);
      } else if constexpr (std::is_same_v<M, double>) {
        for (double v : float_variants()) with(std::to_string(v), Want::Answer, v);
      } else if constexpr (std::is_same_v<M, ivy::Scalar>) {
        for (double v : float_variants()) with(std::to_string(v), Want::Answer, ivy::Scalar(v));
      } else if constexpr (std::is_same_v<M, bool>) {
        with("true", Want::Answer, true);
      } else if constexpr (std::is_same_v<M, DType> || std::is_same_v<M, std::optional<DType>>) {
        for (DType d : dtype_variants()) with(ivy::dtype_name(d), Want::Answer, d);
      }
    });
  }
}

std::vector<std::string> backend_names() {
  std::vector<std::string> names;
  for (ivy::Backend b : ivy::available_backends()) names.emplace_back(b.name());
  return names;
}

class BadInputs : public testing::TestWithParam<std::string> {};

TEST_P(BadInputs, EveryPrimitiveAnswersWithItsOwnError) {
  Tally t;
  int ops = 0;
#define IVY_OP(name, n_in, n_out, meta, kinds, props, attrs) \
  cases_of<ivy::attr::attrs>(OpId::name, GetParam(), t);       \
  ++ops;
#include "ivy/ops.def"
#undef IVY_OP
  EXPECT_EQ(ops, ivy::kNumOps);
  // the schema-wrong cases alone are at least one per primitive (one input too many or too few)
  EXPECT_GE(t.cases, 10L * ivy::kNumOps);
  RecordProperty("cases", static_cast<int>(t.cases));
  std::printf("[ bad inputs ] %s: %ld cases over %d primitives: %ld results, %ld ivy errors\n", GetParam().c_str(),
              t.cases, ops, t.results, t.errors);
}

INSTANTIATE_TEST_SUITE_P(Backends, BadInputs, testing::ValuesIn(backend_names()),
                         [](const testing::TestParamInfo<std::string>& i) { return i.param; });

}  // namespace

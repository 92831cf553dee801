// The op schema (named attribute views, properties), dispatch's observer stack and the
// graph's def-use information.
#include <gtest/gtest.h>

#include <initializer_list>
#include <set>
#include <string>
#include <thread>
#include <utility>

#include "ivy/ivy.hpp"

namespace {

using ivy::Array;
using ivy::Attrs;
using ivy::AttrsRef;
using ivy::OpId;

// f throws an ivy::Error whose message contains every one of `parts`.
template <class F>
void expect_error_with(F&& f, std::initializer_list<const char*> parts) {
  try {
    f();
  } catch (const ivy::Error& e) {
    for (const char* p : parts) EXPECT_NE(std::string(e.what()).find(p), std::string::npos) << e.what() << " lacks " << p;
    return;
  }
  ADD_FAILURE() << "did not throw";
}

TEST(Schema, SetsAreStructsWithTheirOwnFields) {
  ivy::attr::sort w;
  w.axis = -1 + 3;
  w.descending = true;
  ivy::AttrsRef c = w;
  EXPECT_EQ(c.set(), ivy::AttrSet::sort);
  EXPECT_EQ(c.get<ivy::attr::sort>().axis, 2);
  EXPECT_TRUE(c.get<ivy::attr::sort>().descending);
  EXPECT_FALSE(c.get<ivy::attr::sort>().stable);
  EXPECT_EQ(&c.get<ivy::attr::sort>(), &w);  // a reference, not a copy
  // optional fields start absent; the defaults of ops.def's types
  ivy::attr::reduce_acc r;
  EXPECT_FALSE(r.axes.has_value());
  EXPECT_FALSE(r.dtype.has_value());
  EXPECT_FALSE(r.keepdims);
  EXPECT_EQ(ivy::attr::astype{}.dtype, ivy::float32);
  EXPECT_EQ(ivy::attr::reduce_acc::kCount, 3);
  EXPECT_TRUE(ivy::attr::reduce_acc::kFields[0].optional);
  EXPECT_FALSE(ivy::attr::reduce_acc::kFields[1].optional);
  // reading as another set is an error naming both
  expect_error_with([&] { (void)c.get<ivy::attr::reduce>(); }, {"[Attrs]", "'sort'", "'reduce'"});
}

TEST(Schema, OwnedAttrsKeepEachSetAtItsOwnSize) {
  // small sets inside the handle, large ones in a block of their own size
  static_assert(sizeof(ivy::Attrs) <= 64);
  static_assert(sizeof(ivy::attr::sort) <= ivy::Attrs::kInlineBytes);
  static_assert(sizeof(ivy::attr::conv) > ivy::Attrs::kInlineBytes);
  ivy::attr::conv cv;
  cv.strides = ivy::Dims{2, 2};
  cv.groups = 3;
  Attrs a = cv;
  EXPECT_EQ(a.set(), ivy::AttrSet::conv);
  EXPECT_NE(&a.get<ivy::attr::conv>(), &cv);
  Attrs b = a;  // copies
  EXPECT_EQ(a, b);
  b.get<ivy::attr::conv>().groups = 4;
  EXPECT_FALSE(a == b);
  EXPECT_EQ(a.get<ivy::attr::conv>().groups, 3);
  Attrs moved = std::move(b);  // takes the block; the source holds the empty set
  EXPECT_EQ(moved.get<ivy::attr::conv>().groups, 4);
  EXPECT_EQ(b.set(), ivy::AttrSet::none);  // NOLINT(bugprone-use-after-move)
  ivy::attr::sort s{.axis = 1, .descending = true, .stable = false};
  Attrs small = s;
  Attrs small2 = std::move(small);
  EXPECT_EQ(small2.get<ivy::attr::sort>().axis, 1);
  small2 = moved;  // assignment across sets
  EXPECT_EQ(small2, moved);
  EXPECT_EQ(ivy::AttrsRef(small2), ivy::AttrsRef(moved));
  // equal fields in different sets are different attributes
  EXPECT_FALSE(ivy::AttrsRef(ivy::attr::triangle{.k = 1}) == ivy::AttrsRef(ivy::attr::diagonal{.offset = 1}));
  EXPECT_TRUE(ivy::AttrsRef(ivy::attr::triangle{.k = 1}) == ivy::AttrsRef(ivy::attr::triangle{.k = 1}));
}

TEST(Schema, DispatchRefusesAnotherPrimitivesSet) {
  Array x = ivy::asarray({3.0, 1.0, 2.0});
  ivy::attr::triangle t{.k = 0};
  expect_error_with([&] { ivy::dispatch(OpId::sort, x, t); }, {"[sort]", "'sort'", "'triangle'"});
  expect_error_with([&] { ivy::dispatch(OpId::negative, x, t); }, {"[negative]", "'none'", "'triangle'"});
}

TEST(Schema, AttributesPrintByName) {
  ivy::attr::sort w;
  w.axis = 1;
  w.descending = true;
  EXPECT_EQ(ivy::attrs_str(OpId::sort, w), "axis=1, descending=true, stable=false");
  ivy::attr::cumulative cv;
  cv.axis = 0;
  cv.include_initial = true;
  cv.dtype = ivy::int64;
  EXPECT_EQ(ivy::attrs_str(OpId::cumulative_sum, cv), "axis=0, include_initial=true, dtype=int64");
  EXPECT_EQ(ivy::attrs_str(OpId::matmul, ivy::AttrsRef()), "");
  ivy::attr::reduce_var rv;
  rv.correction = 1.5;
  rv.keepdims = true;
  EXPECT_EQ(ivy::attrs_str(OpId::std, rv), "axes=none, keepdims=true, correction=1.5");
  rv.axes = ivy::Dims{};
  EXPECT_EQ(ivy::attrs_str(OpId::std, rv), "axes=(), keepdims=true, correction=1.5");
}

TEST(Schema, EveryPrimitiveHasARowWithASetAndProperties) {
  std::set<std::string> names;
  for (int i = 0; i < ivy::kNumOps; ++i) {
    const auto& info = ivy::op_info(static_cast<OpId>(i));
    ASSERT_NE(info.attrs, nullptr) << info.name;
    ASSERT_NE(info.attr_set, nullptr) << info.name;
    EXPECT_TRUE(names.insert(info.name).second) << info.name;
    EXPECT_EQ(ivy::op_from_name(info.name), static_cast<OpId>(i));
    // elementwise primitives take no attributes and have one output
    if (info.has(ivy::kElementwise)) {
      EXPECT_EQ(info.attrs[0].name, nullptr) << info.name;
      EXPECT_EQ(info.n_out, 1) << info.name;
    }
  }
  const auto& sort = ivy::op_info(OpId::sort);
  EXPECT_STREQ(sort.attr_set, "sort");
  EXPECT_STREQ(sort.attrs[0].name, "axis");
  EXPECT_EQ(sort.attrs[0].type, ivy::AttrType::Int);
  EXPECT_STREQ(sort.attrs[2].name, "stable");
  EXPECT_EQ(sort.attrs[3].name, nullptr);
  EXPECT_TRUE(ivy::op_info(OpId::add).has(ivy::kElementwise));
  EXPECT_TRUE(ivy::op_info(OpId::add).has(ivy::kDifferentiable));
  EXPECT_FALSE(ivy::op_info(OpId::equal).has(ivy::kDifferentiable));
  EXPECT_FALSE(ivy::op_info(OpId::argsort).has(ivy::kDifferentiable));
  EXPECT_FALSE(ivy::op_info(OpId::floor).has(ivy::kDifferentiable));
  EXPECT_TRUE(ivy::op_info(OpId::reshape).has(ivy::kView));
  EXPECT_TRUE(ivy::op_info(OpId::randint).has(ivy::kRandom));
  EXPECT_TRUE(ivy::op_info(OpId::nonzero).has(ivy::kDataDependentShape));
  EXPECT_TRUE(ivy::op_info(OpId::unique).has(ivy::kDataDependentShape));
  EXPECT_FALSE(ivy::op_info(OpId::matmul).has(ivy::kElementwise));
}

TEST(Schema, EveryBackendHasAKernelForEveryPrimitive) {
  for (ivy::Backend b : ivy::available_backends())
    for (int i = 0; i < ivy::kNumOps; ++i)
      EXPECT_NE(b.impl()->kernels[i], nullptr) << b.name() << " " << ivy::op_info(static_cast<OpId>(i)).name;
}

// ---------------------------------------------------------------- observers
class CountingObserver final : public ivy::DispatchObserver {
 public:
  std::vector<std::string> seen;
  void on_dispatch(OpId op, std::span<const Array> in, AttrsRef, std::span<const Array> out) override {
    seen.push_back(std::string(ivy::op_info(op).name) + "/" + std::to_string(in.size()) + "/" + std::to_string(out.size()));
  }
};

TEST(Observers, NestedObserversEachSeeTheCallsMadeWhileTheyAreActive) {
  Array x = ivy::asarray({1.0, -2.0, 3.0});
  CountingObserver outer, inner;
  EXPECT_EQ(ivy::observer_depth(), 0);
  {
    ivy::ObserverScope o(outer);
    ivy::abs(x);
    {
      ivy::ObserverScope i(inner);
      EXPECT_EQ(ivy::observer_depth(), 2);
      EXPECT_EQ(ivy::innermost_observer(), &inner);
      ivy::add(x, x);
      EXPECT_THROW(ivy::ObserverScope again(outer), ivy::ValueError);  // already on the stack
    }
    EXPECT_EQ(ivy::innermost_observer(), &outer);
    ivy::sort(x);
  }
  EXPECT_EQ(ivy::observer_depth(), 0);
  EXPECT_EQ(ivy::innermost_observer(), nullptr);
  ivy::negative(x);  // nobody observes
  EXPECT_EQ(outer.seen, (std::vector<std::string>{"abs/1/1", "add/2/1", "sort/1/1"}));
  EXPECT_EQ(inner.seen, (std::vector<std::string>{"add/2/1"}));
}

TEST(Observers, TracingInsideAnObserverScopeRecordsAndReportsBoth) {
  Array x = ivy::asarray({3.0, 1.0, 2.0});
  CountingObserver outer;
  ivy::Graph g;
  {
    ivy::ObserverScope o(outer);
    g = ivy::trace([](const Array& v) { return ivy::exp(v); }, x);
  }
  ASSERT_EQ(g.nodes.size(), 1u);
  EXPECT_EQ(outer.seen, (std::vector<std::string>{"exp/1/1"}));
}

TEST(Observers, ObserversArePerThread) {
  CountingObserver here, there;
  ivy::ObserverScope o(here);
  std::thread t([&] {
    ivy::ObserverScope s(there);
    ivy::abs(ivy::asarray({1.0}));
  });
  t.join();
  ivy::negative(ivy::asarray({1.0}));
  // asarray dispatches nothing; each observer saw only its own thread's primitive
  EXPECT_EQ(here.seen, (std::vector<std::string>{"negative/1/1"}));
  EXPECT_EQ(there.seen, (std::vector<std::string>{"abs/1/1"}));
}

// ---------------------------------------------------------------- graphs
TEST(GraphSchema, PrintedGraphNamesItsAttributes) {
  Array x = ivy::reshape(ivy::asarray({3.0, 1.0, 2.0, 4.0}), {2, 2});
  ivy::Graph g = ivy::trace(
      [](const Array& v) {
        Array sorted = ivy::sort(v, 0, true);
        Array sums = ivy::cumulative_sum(v, 1, std::nullopt, true);
        return ivy::matmul(sorted, sums);
      },
      x);
  const std::string s = g.str();
  EXPECT_NE(s.find("sort(%0) {axis=0, descending=true, stable=true}"), std::string::npos) << s;
  EXPECT_NE(s.find("cumulative_sum(%0) {axis=1, include_initial=true, dtype=none}"), std::string::npos)
      << s;
  EXPECT_NE(s.find("= matmul(%1, %2) : float64(2, 3)"), std::string::npos) << s;
}

TEST(GraphSchema, DefUseFollowsTheRecordedNodes) {
  Array x = ivy::asarray({1.0, 2.0});
  ivy::Graph g = ivy::trace(
      [](const Array& v) {
        Array e = ivy::exp(v);
        return ivy::add(e, ivy::multiply(e, v));
      },
      x);
  ASSERT_EQ(g.nodes.size(), 3u);  // exp, multiply, add
  const int in = g.input_ids[0];
  const int e = g.nodes[0].outputs[0];
  const int m = g.nodes[1].outputs[0];
  const int out = g.output_ids[0];
  EXPECT_EQ(g.producer(in), -1);
  EXPECT_EQ(g.users(in), (std::vector<int>{0, 1}));
  EXPECT_EQ(g.producer(e), 0);
  EXPECT_EQ(g.users(e), (std::vector<int>{1, 2}));
  EXPECT_EQ(g.producer(m), 1);
  EXPECT_EQ(g.users(m), (std::vector<int>{2}));
  EXPECT_EQ(g.producer(out), 2);
  EXPECT_TRUE(g.users(out).empty());
  EXPECT_TRUE(g.is_output(out));
  EXPECT_FALSE(g.is_output(e));
  // rebuilt from the nodes, the same information
  ivy::Graph h = g;
  for (auto& v : h.values) v.users.clear(), v.producer = 7;
  h.rebuild_uses();
  for (std::size_t i = 0; i < g.values.size(); ++i) {
    EXPECT_EQ(h.values[i].producer, g.values[i].producer) << i;
    EXPECT_EQ(h.values[i].users, g.values[i].users) << i;
  }
  // a node that reads a value before it is defined is refused
  std::swap(h.nodes[0], h.nodes[1]);
  EXPECT_THROW(h.rebuild_uses(), ivy::ValueError);
}

}  // namespace

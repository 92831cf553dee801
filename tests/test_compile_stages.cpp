// The planning stages of ivy::compile (src/trace/compile_stages.hpp), each on its own, on
// graphs whose plan is known by construction.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "ivy/ivy.hpp"
#include "ivy/nn_conv.hpp"
#include "trace/compile_stages.hpp"

namespace st = ivy::compile_stages;

namespace {

std::vector<std::string> op_names(const ivy::Graph& g) {
  std::vector<std::string> names;
  for (const auto& n : g.nodes) names.emplace_back(ivy::op_info(n.op).name);
  return names;
}

int node_named(const ivy::Graph& g, const std::string& name, int nth = 0) {
  for (std::size_t k = 0; k < g.nodes.size(); ++k)
    if (ivy::op_info(g.nodes[k].op).name == name && nth-- == 0) return static_cast<int>(k);
  return -1;
}

// exp(x) -> *2 -> +1 -> tanh: four fusible nodes of one shape, x a float32 (4, 3) input, after
// the passes (which fold the scalars' full() nodes into constants)
ivy::Graph chain_graph() {
  ivy::Graph g = ivy::trace([](const ivy::Array& x) { return ivy::tanh(ivy::exp(x) * 2.0 + 1.0); },
                            ivy::ones({4, 3}, ivy::float32));
  st::optimize(g, ivy::current_backend(), {});
  return g;
}

}  // namespace

TEST(CompileStages, OptimizeRunsOnlyTheSelectedPasses) {
  auto fn = [](const ivy::Array& x) {
    ivy::Array unused = ivy::sin(x);  // dead: nothing returned reads it
    (void)unused;
    return ivy::exp(x * 1.0);         // x * 1 simplifies to x
  };
  const ivy::Array x = ivy::ones({3}, ivy::float32);
  ivy::Graph all = ivy::trace(fn, x);
  const std::size_t traced = all.nodes.size();
  st::optimize(all, x.backend(), {});
  EXPECT_EQ(op_names(all), std::vector<std::string>{"exp"}) << all;
  EXPECT_LT(all.nodes.size(), traced);

  ivy::Graph none = ivy::trace(fn, x);
  ivy::CompileOptions off;
  off.eliminate_dead_code = off.eliminate_common_subexpressions = off.fold_constants = off.simplify = false;
  st::optimize(none, x.backend(), off);
  EXPECT_EQ(none.nodes.size(), traced) << none;
}

TEST(CompileStages, OptimizeRejectsValueDependentShapes) {
  ivy::Graph g = ivy::trace([](const ivy::Array& x) { return ivy::nonzero(x)[0]; }, ivy::ones({3}, ivy::float32));
  EXPECT_THROW(st::optimize(g, ivy::current_backend(), {}), ivy::ValueError);
}

TEST(CompileStages, CheckSupportAcceptsWhatTheBackendRuns) {
  ivy::Graph g = chain_graph();
  EXPECT_NO_THROW(st::check_support(g, ivy::current_backend()));
}

TEST(CompileStages, ChainFusesIntoOneGroup) {
  const ivy::Graph g = chain_graph();
  const auto groups = st::fusion_groups(g);
  ASSERT_EQ(groups.size(), 1u) << g;
  EXPECT_EQ(groups[0].size(), g.nodes.size()) << g;
  EXPECT_TRUE(std::is_sorted(groups[0].begin(), groups[0].end()));
}

TEST(CompileStages, GroupsNeverCloseACycle) {
  // a = exp(x) feeds matmul(a, w) and c = a + m: a group {exp, add} would both produce the
  // matmul's input and read its output
  const ivy::Array x = ivy::ones({3, 3}, ivy::float32);
  const ivy::Array w = ivy::eye(3, {.dtype = ivy::float32});
  ivy::Graph g = ivy::trace(
      [](const ivy::Array& a0, const ivy::Array& w0) {
        const ivy::Array a = ivy::exp(a0) * 2.0;
        return ivy::tanh(a + ivy::matmul(a, w0));
      },
      x, w);
  const int e = node_named(g, "exp"), add = node_named(g, "add");
  ASSERT_GE(e, 0);
  ASSERT_GE(add, 0);
  for (const auto& G : st::fusion_groups(g)) {
    const bool has_e = std::find(G.begin(), G.end(), e) != G.end();
    const bool has_add = std::find(G.begin(), G.end(), add) != G.end();
    EXPECT_FALSE(has_e && has_add) << g;
  }
  // the schedule runs every unit after the units it reads
  const st::Schedule s = st::schedule(g, st::fusion_groups(g));
  std::vector<int> pos(s.units.size(), -1), unit_of(g.nodes.size(), -1);
  for (std::size_t i = 0; i < s.order.size(); ++i) pos[static_cast<std::size_t>(s.order[i])] = static_cast<int>(i);
  for (std::size_t u = 0; u < s.units.size(); ++u)
    for (int k : s.units[u]) unit_of[static_cast<std::size_t>(k)] = static_cast<int>(u);
  ASSERT_EQ(s.order.size(), s.units.size());
  for (std::size_t k = 0; k < g.nodes.size(); ++k)
    for (int v : g.nodes[k].inputs) {
      const int p = g.producer(v);
      if (p < 0 || unit_of[static_cast<std::size_t>(p)] == unit_of[k]) continue;
      EXPECT_LT(pos[static_cast<std::size_t>(unit_of[static_cast<std::size_t>(p)])],
                pos[static_cast<std::size_t>(unit_of[k])]) << "node " << k << " runs before its producer " << p;
    }
}

TEST(CompileStages, ScheduleKeepsNodeOrderAmongReadyUnits) {
  const ivy::Graph g = chain_graph();
  const st::Schedule s = st::schedule(g, {});  // no fusion: one unit per node
  ASSERT_EQ(s.units.size(), g.nodes.size());
  EXPECT_EQ(s.fused_units, 0);
  for (std::size_t i = 0; i < s.order.size(); ++i) {
    ASSERT_EQ(s.units[static_cast<std::size_t>(s.order[i])].size(), 1u);
    EXPECT_EQ(s.units[static_cast<std::size_t>(s.order[i])][0], static_cast<int>(i));
  }
}

TEST(CompileStages, LowerMakesKernelCallsAndPrograms) {
  const ivy::Graph g = chain_graph();
  const ivy::Backend b = ivy::current_backend();
  const st::Plan unfused = st::lower(g, st::schedule(g, {}), b);
  ASSERT_EQ(unfused.steps.size(), g.nodes.size());
  EXPECT_TRUE(unfused.programs.empty());
  for (std::size_t i = 0; i < unfused.steps.size(); ++i) {
    const st::Step& s = unfused.steps[i];
    EXPECT_LT(s.program, 0);
    EXPECT_NE(s.kernel, nullptr);
    EXPECT_EQ(s.op, g.nodes[i].op);
    EXPECT_EQ(s.in, g.nodes[i].inputs);
    ASSERT_EQ(s.specs.size(), 1u);
    EXPECT_EQ(s.specs[0].shape, ivy::Shape({4, 3}));
  }
  const st::Plan fused = st::lower(g, st::schedule(g, st::fusion_groups(g)), b);
  ASSERT_EQ(fused.steps.size(), 1u);
  ASSERT_EQ(fused.programs.size(), 1u);
  const auto& in = fused.steps[0].in;
  EXPECT_NE(std::find(in.begin(), in.end(), g.input_ids[0]), in.end());
  EXPECT_EQ(in, fused.programs[0].input_values);
  EXPECT_EQ(fused.steps[0].out, g.output_ids);
  EXPECT_EQ(fused.steps[0].inplace_input, std::vector<int>{-1});
}

TEST(CompileStages, InplaceOnlyForADeadBufferAnEarlierLoopWrote) {
  const ivy::Graph g = chain_graph();
  const int e = node_named(g, "exp"), mul = node_named(g, "multiply"), add = node_named(g, "add"),
            th = node_named(g, "tanh");
  ASSERT_TRUE(e >= 0 && mul >= 0 && add >= 0 && th >= 0) << g;
  // two loops: {exp, *2} writes a pool buffer that only {+1, tanh} reads, in full: the second
  // loop's output takes it
  st::Plan p = st::lower(g, st::schedule(g, {{e, mul}, {add, th}}), ivy::current_backend());
  ASSERT_EQ(p.steps.size(), 2u);
  st::choose_inplace(g, p);
  EXPECT_EQ(p.steps[0].inplace_input, std::vector<int>{-1});  // its input is the caller's x
  const auto& second_in = p.programs[1].input_values;
  const auto at = std::find(second_in.begin(), second_in.end(), g.nodes[static_cast<std::size_t>(mul)].outputs[0]);
  ASSERT_NE(at, second_in.end());
  EXPECT_EQ(p.steps[1].inplace_input, std::vector<int>{static_cast<int>(at - second_in.begin())});
  // the same split without the first loop fused: the buffer comes from a kernel call, whose
  // result may be a view, so nothing is taken
  st::Plan q = st::lower(g, st::schedule(g, {{add, th}}), ivy::current_backend());
  st::choose_inplace(g, q);
  EXPECT_EQ(q.steps.back().inplace_input, std::vector<int>{-1});
}

TEST(CompileStages, ReleaseAfterTheLastRead) {
  // y = exp(x) * x; z = y + 1 (unused input w): x dies at the multiply, y at the add,
  // the output z is kept, w at once
  const ivy::Array x = ivy::ones({2}, ivy::float32), w = ivy::zeros({2}, ivy::float32);
  ivy::Graph g = ivy::trace(
      [](const std::vector<ivy::Array>& in) { return std::vector<ivy::Array>{(ivy::exp(in[0]) * in[0]) + 1.0}; },
      {x, w});
  st::optimize(g, ivy::current_backend(), {});
  const st::Plan base = st::lower(g, st::schedule(g, {}), ivy::current_backend());
  st::Plan p = base;
  st::plan_release(g, p);
  const int e = node_named(g, "exp"), mul = node_named(g, "multiply"), add = node_named(g, "add");
  ASSERT_TRUE(e >= 0 && mul >= 0 && add >= 0) << g;
  auto released_at = [&](int v) {
    for (std::size_t i = 0; i < p.steps.size(); ++i)
      if (std::find(p.steps[i].release.begin(), p.steps[i].release.end(), v) != p.steps[i].release.end())
        return static_cast<int>(i);
    return -1;
  };
  EXPECT_EQ(released_at(g.input_ids[0]), mul);
  EXPECT_EQ(released_at(g.nodes[static_cast<std::size_t>(e)].outputs[0]), mul);
  EXPECT_EQ(released_at(g.nodes[static_cast<std::size_t>(mul)].outputs[0]), add);
  EXPECT_EQ(released_at(g.output_ids[0]), -1);
  EXPECT_EQ(p.release_first, std::vector<int>{g.input_ids[1]});
}

#ifdef IVY_TEST_HAS_DNNL
// conv (captured weight) -> + bias -> * scale -> relu -> max pool -> + 1 -> mean: the bias
// and scale fold into the conv's unit, the relu stays a node, the pool is a unit of its own;
// the relu and the + 1 run on channels-last values, the mean reads a row-major copy.
TEST(CompileStages, PreparedUnitsFoldAndLayoutsStayChannelsLast) {
  ivy::BackendScope scope{ivy::Backend("xtensor")};
  const ivy::Array w = ivy::ones({4, 3, 3, 3}, ivy::float32);
  const ivy::Array bias = ivy::reshape(ivy::arange(0, 4, 1, ivy::float32), {1, 4, 1, 1});
  const ivy::Array scale = ivy::full({1, 4, 1, 1}, 0.5, ivy::float32);
  auto fn = [&](const ivy::Array& x) {
    ivy::Array y = ivy::maximum((ivy::nn::conv(x, w) + bias) * scale, 0.0);
    ivy::nn::PoolOptions o;
    o.strides = {2};
    return ivy::mean(ivy::nn::max_pool(y, {2, 2}, o) + 1.0, ivy::AxisArg(ivy::Dims{2, 3}));
  };
  ivy::Graph g = ivy::trace(fn, ivy::ones({2, 3, 9, 9}, ivy::float32));
  st::optimize(g, ivy::current_backend(), {});
  const auto units = st::prepared_units(g);
  ASSERT_EQ(units.size(), 2u) << g;
  const int conv = node_named(g, "conv"), add = node_named(g, "add"), mul = node_named(g, "multiply");
  EXPECT_EQ(units[0].nodes, (std::vector<int>{conv, add, mul})) << g;
  EXPECT_EQ(units[0].kernel->name().rfind("conv ", 0), 0u) << units[0].kernel->name();
  EXPECT_EQ(units[1].nodes, std::vector<int>{node_named(g, "max_pool")});
  EXPECT_EQ(units[1].kernel->name(), "max_pool");

  st::Plan p = st::lower(g, st::schedule(g, {}, {units[0].nodes, units[1].nodes}), ivy::current_backend(), units);
  st::plan_layouts(g, p);
  const int relu = node_named(g, "maximum"), pool = node_named(g, "max_pool"), mean = node_named(g, "mean");
  const auto& out = [&](int node) { return g.node(node).outputs[0]; };
  EXPECT_TRUE(p.channels_last[units[0].output]);
  EXPECT_TRUE(p.channels_last[out(relu)]);   // elementwise over channels-last and a scalar
  EXPECT_TRUE(p.channels_last[out(pool)]);
  EXPECT_FALSE(p.channels_last[out(mean)]);  // a reduction: not elementwise
  for (const auto& s : p.steps) {
    if (s.op == ivy::OpId::mean) {
      EXPECT_EQ(s.row_major_in, std::vector<char>{1});  // reads the row-major copy
      EXPECT_TRUE(p.to_row_major[s.in[0]]);
    } else {
      for (char c : s.row_major_in) EXPECT_EQ(c, 0);
    }
  }
  // only the mean's input needs a copy
  int copies = 0;
  for (const auto& c : p.to_row_major) copies += c != nullptr;
  EXPECT_EQ(copies, 1);
}
#endif

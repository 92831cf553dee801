// The executor of compiled graphs (its planning stages declared in compile_stages.hpp), and
// ivy::compile's signature cache.
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <list>
#include <map>
#include <mutex>
#include <sstream>
#include <unordered_map>

#include "ivy/compile.hpp"
#include "trace/codegen.hpp"
#include "trace/compile_stages.hpp"
#include "trace/graph_check.hpp"
#include "trace/graph_util.hpp"

namespace ivy {

using graph_util::ById;

namespace {
// Buffers for fused outputs, reused once every array holding one is gone: a freed buffer goes
// back to the pool (up to kMaxCached bytes) and the next fused output of that size takes it.
class BufferPool : public std::enable_shared_from_this<BufferPool> {
 public:
  ~BufferPool() {
    for (auto& [bytes, p] : free_) std::free(p);
  }
  std::shared_ptr<void> acquire(std::size_t bytes) {
    const std::size_t size = std::max<std::size_t>(64, (bytes + 63) / 64 * 64);
    void* p = nullptr;
    {
      std::lock_guard<std::mutex> lock(m_);
      auto it = free_.find(size);
      if (it != free_.end()) {
        p = it->second;
        free_.erase(it);
        cached_ -= size;
      }
    }
    if (!p) p = std::aligned_alloc(64, size);
    if (!p) throw std::bad_alloc();
    auto self = shared_from_this();
    return std::shared_ptr<void>(p, [self, size](void* q) { self->give_back(q, size); });
  }

 private:
  static constexpr std::size_t kMaxCached = std::size_t{256} << 20;
  void give_back(void* p, std::size_t size) {
    {
      std::lock_guard<std::mutex> lock(m_);
      if (cached_ + size <= kMaxCached) {
        free_.emplace(size, p);
        cached_ += size;
        return;
      }
    }
    std::free(p);
  }
  std::mutex m_;
  std::multimap<std::size_t, void*> free_;
  std::size_t cached_ = 0;
};

}  // namespace

namespace compile_stages {

void optimize(Graph& g, Backend backend, const CompileOptions& opt) {
  g.rebuild_uses();
  passes::check_static_shapes(g);
  if (opt.eliminate_dead_code) passes::eliminate_dead_code(g);
  if (opt.fold_constants) passes::fold_constants(g, backend);
  if (opt.simplify) passes::simplify(g);
  if (opt.eliminate_common_subexpressions) passes::eliminate_common_subexpressions(g);
  if (opt.eliminate_dead_code) passes::eliminate_dead_code(g);
}

void check_support(const Graph& g, Backend backend) {
  const BackendImpl* be = backend.impl();
  for (const auto& n : g.nodes) {
    const OpInfo& info = op_info(n.op);
    if (!be->kernels[static_cast<int>(n.op)])
      throw NotImplementedError(std::string("[compile] ") + info.name + " is not implemented by backend " + be->name);
    for (int v : n.inputs) check_supported(backend, info.name, g.value(v).dtype);
    for (int v : n.outputs) check_supported(backend, info.name, g.value(v).dtype);
  }
}

namespace {
// The earliest node a dependency walk from nodes at or after `lo` may reach when a unit (a
// group being formed, or a formed unit) counts as one node: a walk that reaches a member
// reaches them all, so a unit with a member at or after `lo` lowers it to its first member,
// until no unit does. Unit lists are in execution order (first = earliest).
int effective_lo(int lo, const ById<std::vector<int>>& groups, const FormedUnits* formed) {
  for (bool lowered = true; lowered;) {
    lowered = false;
    auto visit = [&](const std::vector<int>& u) {
      if (!u.empty() && u.front() < lo && u.back() >= lo) {
        lo = u.front();
        lowered = true;
      }
    };
    for (const auto& G : groups) visit(G);
    if (formed)
      for (const auto& U : formed->lists) visit(U);
  }
  return lo;
}
}  // namespace

std::vector<std::vector<int>> fusion_groups(const Graph& g, const FormedUnits* formed) {
  const int n = static_cast<int>(g.nodes.size());
  ById<int> group_of(n, -1);
  ById<std::vector<int>> groups;
  // does node p (transitively, whole groups and formed units counted as one) read anything a
  // group in `set` computes? (`seen` is stamped with the walk's number, so no walk clears it.)
  ById<int> seen(n, 0);
  int walk = 0;
  std::vector<int> stack;
  // (from several nodes at once: one walk, each node visited once). Nodes are in execution
  // order, so a lone node before `lo`, the set's first member, reads nothing the set computes
  // unless through a unit with members on both sides of `lo`: the walk stops at lone nodes
  // before the first member of every unit it may jump back through (effective_lo).
  auto depends_on = [&](const std::vector<int>& from, const std::vector<int>& set, int lo) {
    ++walk;
    lo = effective_lo(lo, groups, formed);
    stack = from;
    while (!stack.empty()) {
      const int k = stack.back();
      stack.pop_back();
      if (k < lo || seen[k] == walk) continue;
      seen[k] = walk;
      const int h = group_of[k];
      if (h >= 0 && std::find(set.begin(), set.end(), h) != set.end()) return true;
      auto push_inputs = [&](int node) {
        for (int v : g.node(node).inputs) stack.push_back(g.producer(v));
      };
      const std::vector<int>* unit = h >= 0 ? &groups[h] : formed && formed->has(k) ? &formed->lists[formed->of[k]] : nullptr;
      if (unit) {
        for (int m : *unit) {
          seen[m] = walk;
          push_inputs(m);
        }
      } else {
        push_inputs(k);
      }
    }
    return false;
  };
  // can the groups in `set` and node k run as one unit? Not when something outside them
  // reads one of them and is read by one of them (or by k).
  std::vector<int> outside;
  auto can_merge = [&](const std::vector<int>& set, int k) {
    outside.clear();  // the producers outside the set that k or a member reads
    auto collect = [&](int node) {
      for (int v : g.node(node).inputs) {
        const int q = g.producer(v);
        if (q < 0) continue;
        const int h = group_of[q];
        if (h >= 0 && std::find(set.begin(), set.end(), h) != set.end()) continue;
        outside.push_back(q);
      }
    };
    collect(k);
    int lo = k;
    for (int G : set) {
      lo = std::min(lo, groups[G].front());
      for (int m : groups[G]) collect(m);
    }
    return !depends_on(outside, set, lo);
  };
  for (int k = 0; k < n; ++k) {
    const auto& node = g.node(k);
    if ((formed && formed->has(k)) || !fusion::fusible(g, node)) continue;
    const Shape& S = g.value(node.outputs[0]).shape;
    // the groups of k's producers with k's shape, joined as far as that keeps the order
    std::vector<int> set;
    for (int v : node.inputs) {
      const int p = g.producer(v);
      if (p < 0) continue;
      const int G = group_of[p];
      if (G < 0 || std::find(set.begin(), set.end(), G) != set.end()) continue;
      const auto& first = g.node(groups[G][0]);
      if (!(g.value(first.outputs[0]).shape == S)) continue;
      auto trial = set;
      trial.push_back(G);
      if (can_merge(trial, k)) set = std::move(trial);
    }
    int chosen;
    if (set.empty()) {
      chosen = static_cast<int>(groups.size());
      groups.emplace_back();
    } else {
      chosen = set[0];
      for (std::size_t i = 1; i < set.size(); ++i) {
        auto& from = groups[set[i]];
        for (int m : from) group_of[m] = chosen;
        auto& to = groups[chosen];
        to.insert(to.end(), from.begin(), from.end());
        from.clear();
      }
      std::sort(groups[chosen].begin(), groups[chosen].end());
    }
    groups[chosen].push_back(k);
    group_of[k] = chosen;
  }
  std::vector<std::vector<int>> out;
  for (auto& G : groups)
    if (G.size() >= 2) out.push_back(G);
  return out;
}

std::vector<std::vector<int>> row_groups(const Graph& g, FormedUnits& formed) {
  const int n = static_cast<int>(g.nodes.size());
  std::vector<std::vector<int>> out;
  ById<int> member(n, 0);  // == stamp: in the group being formed
  ById<int> seen(n, 0);
  int stamp = 0, walk = 0;
  std::vector<int> stack;
  const ById<std::vector<int>> no_groups;
  for (int seed = 0; seed < n; ++seed) {
    Shape S;
    int axis = 0;
    if (formed.has(seed) || !fusion::row_reduction(g, g.node(seed), &S, &axis)) continue;
    ++stamp;
    std::vector<int> G{seed};
    member[seed] = stamp;
    int lo = seed;  // the group's first node: nothing before it depends on the group
    // does node q, outside the group, read (transitively, formed units counted as one node)
    // anything the group computes?
    auto depends = [&](int q) {
      ++walk;
      const int lo_eff = effective_lo(lo, no_groups, &formed);
      stack.assign(1, q);
      while (!stack.empty()) {
        const int k = stack.back();
        stack.pop_back();
        if (k < lo_eff || seen[k] == walk) continue;
        seen[k] = walk;
        if (member[k] == stamp) return true;
        auto push_inputs = [&](int node) {
          for (int v : g.node(node).inputs)
            if (g.producer(v) >= 0) stack.push_back(g.producer(v));
        };
        if (formed.has(k)) {
          for (int m : formed.lists[formed.of[k]]) {
            seen[m] = walk;
            push_inputs(m);
          }
        } else {
          push_inputs(k);
        }
      }
      return false;
    };
    // can node k run in the group's rows: a reduction of the same rows, or a fusible node
    // with a full or per-row output whose group operands have its shape, are kept per-row
    // values read by a full node, or hold one element
    auto fits = [&](int k) {
      const auto& nd = g.node(k);
      Shape s2;
      int a2 = 0;
      if (fusion::row_reduction(g, nd, &s2, &a2)) return s2 == S && a2 == axis;
      if (!fusion::fusible(g, nd)) return false;
      const Shape& o = g.value(nd.outputs[0]).shape;
      const int oc = fusion::row_class(o, S, axis);
      if (oc == 0) return false;
      for (int v : nd.inputs) {
        const int q = g.producer(v);
        if (q < 0 || member[q] != stamp) continue;
        const Shape& vs = g.value(v).shape;
        if (vs == o || vs.numel() == 1 || (oc == 1 && fusion::row_class(vs, S, axis) == 2)) continue;
        return false;
      }
      return true;
    };
    auto reads_group = [&](int k) {
      for (int v : g.node(k).inputs)
        if (g.producer(v) >= 0 && member[g.producer(v)] == stamp) return true;
      return false;
    };
    auto outside_ok = [&](int k) {
      for (int v : g.node(k).inputs) {
        const int q = g.producer(v);
        if (q >= 0 && member[q] != stamp && depends(q)) return false;
      }
      return true;
    };
    // the fusible producers only the group reads
    auto grow_back = [&] {
      for (bool changed = true; changed;) {
        changed = false;
        for (std::size_t i = 0; i < G.size(); ++i)
          for (int v : g.node(G[i]).inputs) {
            const int q = g.producer(v);
            if (q < 0 || formed.has(q) || member[q] == stamp || g.is_output(v)) continue;
            bool only_group = true;
            for (int u : g.users(v)) only_group = only_group && member[u] == stamp;
            if (!only_group || !fits(q) || !outside_ok(q)) continue;
            member[q] = stamp;
            lo = std::min(lo, q);
            G.push_back(q);
            changed = true;
          }
      }
    };
    grow_back();
    for (int k = seed + 1; k < n; ++k)
      if (!formed.has(k) && member[k] != stamp && reads_group(k) && fits(k) && outside_ok(k)) {
        member[k] = stamp;
        G.push_back(k);
      }
    grow_back();
    bool acyclic = true;
    for (int k : G) acyclic = acyclic && outside_ok(k);
    if (G.size() < 2 || !acyclic) {
      for (int k : G) member[k] = 0;
      continue;
    }
    std::sort(G.begin(), G.end());
    formed.add(G);
    out.push_back(std::move(G));
  }
  return out;
}

Schedule schedule(const Graph& g, std::vector<std::vector<int>> groups, std::vector<std::vector<int>> prepared) {
  Schedule S;
  const int n = static_cast<int>(g.nodes.size());
  ById<int> unit_of(n, -1);
  S.fused_units = static_cast<int>(groups.size());
  S.prepared_units = static_cast<int>(prepared.size());
  for (auto* list : {&groups, &prepared})
    for (auto& G : *list) {
      for (int k : G) unit_of[k] = static_cast<int>(S.units.size());
      S.units.push_back(std::move(G));
    }
  for (int k = 0; k < n; ++k)
    if (unit_of[k] < 0) unit_of[k] = static_cast<int>(S.units.size()), S.units.push_back({k});
  const int nu = static_cast<int>(S.units.size());
  ById<std::vector<int>> succ(nu);
  ById<int> indeg(nu, 0);
  for (int u = 0; u < nu; ++u) {
    std::vector<int> preds;
    for (int k : S.units[u])
      for (int v : g.node(k).inputs) {
        const int p = g.producer(v);
        if (p >= 0 && unit_of[p] != u) preds.push_back(unit_of[p]);
      }
    std::sort(preds.begin(), preds.end());
    preds.erase(std::unique(preds.begin(), preds.end()), preds.end());
    for (int p : preds) succ[p].push_back(u), ++indeg[u];
  }
  std::vector<int> ready;
  for (int u = 0; u < nu; ++u)
    if (!indeg[u]) ready.push_back(u);
  auto first_node = [&](int u) { return S.units[u][0]; };
  while (!ready.empty()) {
    auto it = std::min_element(ready.begin(), ready.end(), [&](int a, int b) { return first_node(a) < first_node(b); });
    const int u = *it;
    ready.erase(it);
    S.order.push_back(u);
    for (int s : succ[u])
      if (--indeg[s] == 0) ready.push_back(s);
  }
  if (static_cast<int>(S.order.size()) != nu) throw Error("[compile] internal: the fused graph has a cycle");
  return S;
}

Plan lower(const Graph& g, const Schedule& S, Backend backend, const std::vector<PreparedUnit>& convs) {
  Plan P;
  const BackendImpl* be = backend.impl();
  const int n = static_cast<int>(g.nodes.size());
  ById<char> inside(n, 0);
  for (int u : S.order) {
    const auto& members = S.units[u];
    Step s;
    if (u >= S.fused_units && u < S.fused_units + S.prepared_units) {
      const PreparedUnit& c = convs.at(static_cast<std::size_t>(u - S.fused_units));
      s.op = OpId::conv;
      s.prepared = c.kernel;
      s.in = {c.input};
      s.out = {c.output};
    } else if (u >= S.fused_units) {
      const auto& node = g.node(members[0]);
      s.op = node.op;
      s.attrs = node.attrs;
      s.kernel = be->kernels[static_cast<int>(node.op)];
      s.in = node.inputs;
      s.out = node.outputs;
      for (int o : node.outputs)
        s.specs.push_back(OutSpec{g.value(o).shape, g.value(o).dtype, true});
    } else {
      for (int k : members) inside[k] = 1;
      std::vector<int> outs;
      for (int k : members) {
        const int v = g.node(k).outputs[0];
        bool used_outside = g.is_output(v);
        for (int user : g.users(v)) used_outside = used_outside || !inside[user];
        if (used_outside) outs.push_back(v);
      }
      for (int k : members) inside[k] = 0;
      bool rows = false;
      for (int k : members) {
        Shape S;
        int axis = 0;
        rows = rows || fusion::row_reduction(g, g.node(k), &S, &axis);
      }
      if (rows) {
        s.row_program = static_cast<int>(P.row_programs.size());
        P.row_programs.push_back(fusion::build_rows(g, members, outs));
        s.in = P.row_programs.back().input_values;
        s.out = P.row_programs.back().output_values;
        s.inplace_input.assign(s.out.size(), -1);  // rows read their inputs after writing outputs
        P.steps.push_back(std::move(s));
        continue;
      }
      s.program = static_cast<int>(P.programs.size());
      P.programs.push_back(fusion::build(g, members, outs));
      const auto& p = P.programs.back();
      s.in = p.input_values;
      s.out = p.output_values;
      s.inplace_input.assign(p.output_values.size(), -1);
    }
    P.steps.push_back(std::move(s));
  }
  return P;
}

void choose_inplace(const Graph& g, Plan& P) {
  ById<char> fused_value(g.values.size(), 0);  // written by a fused loop into a pool buffer
  ById<char> inside(g.nodes.size(), 0);
  for (Step& s : P.steps) {
    if (s.prepared) fused_value[s.out[0]] = 1;
    if (s.program < 0) continue;
    const fusion::Program& p = P.programs[s.program];
    for (int k : p.nodes) inside[k] = 1;
    std::vector<char> taken(p.input_values.size(), 0);
    for (std::size_t j = 0; j < p.output_values.size(); ++j) {
      const int v = p.output_values[j];
      for (std::size_t i = 0; i < p.input_values.size(); ++i) {
        const int iv = p.input_values[i];
        const auto& val = g.value(iv);
        if (taken[i] || p.reads[i].kind != fusion::InputRead::full || val.dtype != g.value(v).dtype)
          continue;
        if (!fused_value[iv] || g.is_output(iv)) continue;
        bool all_inside = true;
        for (int user : val.users) all_inside = all_inside && inside[user];
        if (!all_inside) continue;
        s.inplace_input[j] = static_cast<int>(i);
        taken[i] = 1;
        break;
      }
    }
    for (int k : p.nodes) inside[k] = 0;
    for (int v : p.output_values) fused_value[v] = 1;
  }
}

void plan_layouts(const Graph& g, Plan& P) {
  const int nv = static_cast<int>(g.values.size());
  P.channels_last.assign(static_cast<std::size_t>(nv), 0);
  P.to_row_major.assign(static_cast<std::size_t>(nv), nullptr);
  ById<char> cl(nv, 0), needs_copy(nv, 0);
  // a value whose order in memory matters: more than one element
  auto laid_out = [&](int v) { return g.value(v).shape.numel() > 1; };
  for (Step& s : P.steps) {
    s.row_major_in.assign(s.in.size(), 0);
    if (s.prepared) {
      const bool kernel_cl = s.prepared->channels_last();
      for (int v : s.out) cl[v] = kernel_cl;
      if (!kernel_cl)  // a row-major kernel reads a row-major copy
        for (std::size_t i = 0; i < s.in.size(); ++i)
          if (cl[s.in[i]] && laid_out(s.in[i])) s.row_major_in[i] = 1, needs_copy[s.in[i]] = 1;
      continue;
    }
    // elementwise over inputs of the output's shape (and one-element ones), some channels-last?
    bool elementwise = false;
    if (s.program >= 0) {
      const fusion::Program& p = P.programs[s.program];
      elementwise = true;
      for (std::size_t i = 0; i < p.reads.size(); ++i)
        elementwise = elementwise && (p.reads[i].kind != fusion::InputRead::broadcast || !laid_out(s.in[i]));
    } else if (s.out.size() == 1 && s.row_program < 0) {
      const int k = g.producer(s.out[0]);
      elementwise = k >= 0 && fusion::fusible(g, g.node(k));
      for (int v : s.in)
        elementwise = elementwise && (!laid_out(v) || g.value(v).shape == g.value(s.out[0]).shape);
    }
    bool any_cl = false, all_cl = true;
    for (int v : s.in)
      if (laid_out(v)) any_cl = any_cl || cl[v], all_cl = all_cl && cl[v];
    if (elementwise && any_cl && all_cl) {
      for (int v : s.out) cl[v] = laid_out(v);
      continue;
    }
    for (std::size_t i = 0; i < s.in.size(); ++i)
      if (cl[s.in[i]] && laid_out(s.in[i])) s.row_major_in[i] = 1, needs_copy[s.in[i]] = 1;
  }
  for (int v : g.output_ids)
    if (cl[v] && laid_out(v)) needs_copy[v] = 1;
  for (int v = 0; v < nv; ++v) {
    P.channels_last[v] = cl[v] && laid_out(v);
    if (!needs_copy[v]) continue;
    P.to_row_major[v] = prepared::make_to_row_major(g.value(v).shape);
    if (!P.to_row_major[v]) throw Error("[compile] internal: no row-major copy for a channels-last value");
  }
}

void plan_release(const Graph& g, Plan& P) {
  ById<int> last(g.values.size(), -1);
  for (std::size_t i = 0; i < P.steps.size(); ++i)
    for (int v : P.steps[i].in) last[v] = static_cast<int>(i);
  for (int v : g.output_ids) last[v] = -2;
  for (std::size_t v = 0; v < last.size(); ++v)
    if (last[v] >= 0) P.steps[last[v]].release.push_back(static_cast<int>(v));
  for (std::size_t i = 0; i < P.steps.size(); ++i)
    for (int v : P.steps[i].out)
      if (last[v] == -1) P.steps[i].release.push_back(v);  // written, never read
  for (int v : g.input_ids)
    if (last[v] == -1) P.release_first.push_back(v);
}

}  // namespace compile_stages

using compile_stages::Step;

struct Executable::Impl {
  Graph graph;
  Backend backend;
  CompileOptions options;
  Stats stats;
  compile_stages::Plan plan;
  std::vector<Array> constants;  // on the backend
  std::shared_ptr<BufferPool> pool = std::make_shared<BufferPool>();
};

Executable::Executable(Graph g, Backend backend, const CompileOptions& opt) : impl_(std::make_unique<Impl>()) {
  namespace st = compile_stages;
  const auto t0 = std::chrono::steady_clock::now();
  Impl& I = *impl_;
  if (!backend) backend = current_backend();
  I.backend = backend;
  I.options = opt;
  I.stats.traced_nodes = static_cast<int>(g.nodes.size());
  // the plan sizes every buffer by the declared types, so they must be the primitives' own
  graph_io_detail::check_graph(g, "compile");
  graph_io_detail::check_types(g, "compile");
  st::optimize(g, backend, opt);
  st::check_support(g, backend);
  for (const Array& c : g.constants) I.constants.push_back(to_backend(c, backend));
  const std::vector<st::PreparedUnit> convs = opt.prepare_kernels ? st::prepared_units(g) : std::vector<st::PreparedUnit>{};
  st::FormedUnits formed(static_cast<int>(g.nodes.size()));
  std::vector<std::vector<int>> conv_nodes;
  for (const auto& c : convs) {
    formed.add(c.nodes);
    conv_nodes.push_back(c.nodes);
  }
  std::vector<std::vector<int>> groups;
  if (opt.fuse_elementwise) {
    if (opt.fuse_reductions) groups = st::row_groups(g, formed);
    I.stats.fused_reductions = static_cast<int>(groups.size());
    for (auto& G : st::fusion_groups(g, &formed)) groups.push_back(std::move(G));
  }
  const st::Schedule schedule = st::schedule(g, std::move(groups), conv_nodes);
  I.plan = st::lower(g, schedule, backend, convs);
  if (!convs.empty()) st::plan_layouts(g, I.plan);
  if (opt.plan_memory) {
    st::choose_inplace(g, I.plan);
    st::plan_release(g, I.plan);
  }
  for (int u = 0; u < schedule.fused_units; ++u) {
    ++I.stats.fused_groups;
    I.stats.fused_nodes += static_cast<int>(schedule.units[u].size());
  }
  if (opt.generate_code && (!I.plan.programs.empty() || !I.plan.row_programs.empty())) {
    std::vector<fusion::Program*> programs;
    for (int k = 0; k < static_cast<int>(I.plan.programs.size()); ++k) programs.push_back(&I.plan.programs[k]);
    for (int k = 0; k < static_cast<int>(I.plan.row_programs.size()); ++k)
      for (fusion::Program* p : fusion::row_phase_programs(I.plan.row_programs[k])) programs.push_back(p);
    const codegen::Outcome made = codegen::prepare(programs);
    I.stats.generated_kernels = made.kernels;
    I.stats.generated_cached = made.cached;
    I.stats.codegen_ms = made.ms;
  }
  I.stats.prepared_kernels = schedule.prepared_units;
  I.stats.nodes = static_cast<int>(g.nodes.size());
  I.stats.steps = static_cast<int>(I.plan.steps.size());
  I.graph = std::move(g);
  I.stats.compile_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

Executable::~Executable() = default;
Executable::Executable(Executable&&) noexcept = default;
Executable& Executable::operator=(Executable&&) noexcept = default;
const Graph& Executable::graph() const { return impl_->graph; }
Backend Executable::backend() const { return impl_->backend; }
const Executable::Stats& Executable::stats() const { return impl_->stats; }

std::string Executable::plan_str() const {
  std::ostringstream os;
  const Impl& I = *impl_;
  for (const Step& s : I.plan.steps) {
    if (s.program >= 0) {
      os << I.plan.programs[s.program].str() << "\n";
    } else if (s.row_program >= 0) {
      os << I.plan.row_programs[s.row_program].str() << "\n";
    } else if (s.prepared) {
      os << "%" << s.out[0] << " = prepared(%" << s.in[0] << ") [" << s.prepared->name() << "]\n";
    } else {
      for (std::size_t k = 0; k < s.out.size(); ++k) os << (k ? ", " : "") << "%" << s.out[k];
      os << " = " << op_info(s.op).name << "(";
      for (std::size_t k = 0; k < s.in.size(); ++k) os << (k ? ", " : "") << "%" << s.in[k];
      os << ")\n";
    }
  }
  return os.str();
}

std::vector<Array> Executable::run(const std::vector<Array>& inputs) const {
  const Impl& I = *impl_;
  const Graph& g = I.graph;
  if (inputs.size() != g.input_ids.size())
    throw ValueError("[compiled] expected " + std::to_string(g.input_ids.size()) + " inputs, got " + std::to_string(inputs.size()));
  ById<Array> env(g.values.size());
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const auto& v = g.value(g.input_ids[i]);
    if (!inputs[i].defined()) throw ValueError("[compiled] input " + std::to_string(i) + " is undefined");
    if (!(inputs[i].shape() == v.shape) || inputs[i].dtype() != v.dtype)
      throw ValueError("[compiled] input " + std::to_string(i) + " has " + dtype_name(inputs[i].dtype()) + inputs[i].shape().str() +
                       ", the function was compiled for " + dtype_name(v.dtype) + v.shape.str());
    env[g.input_ids[i]] = to_backend(inputs[i], I.backend);
  }
  for (std::size_t i = 0; i < I.constants.size(); ++i) env[g.constant_ids[i]] = I.constants[i];
  for (int v : I.plan.release_first) env[v] = Array();
  const BackendImpl* be = I.backend.impl();
  std::vector<Array> in;
  Array outs[kMaxOutputs];
  std::vector<const void*> in_ptr;
  std::vector<void*> out_ptr;
  std::vector<std::shared_ptr<void>> copies;
  std::vector<Array> results;
  // row-major copies of channels-last values, made on first need (plan_layouts)
  ById<Array> row_major(I.plan.to_row_major.empty() ? 0 : static_cast<int>(g.values.size()));
  auto read = [&](const Step& s, std::size_t i) -> const Array& {
    const int v = s.in[i];
    if (s.row_major_in.empty() || !s.row_major_in[i]) return env[v];
    Array& r = row_major[v];
    if (!r.defined()) {
      const auto& val = g.value(v);
      auto buf = I.pool->acquire(static_cast<std::size_t>(val.shape.numel()) * sizeof(float));
      I.plan.to_row_major[v]->run(static_cast<const float*>(be->data_ptr(env[v])), static_cast<float*>(buf.get()));
      void* ptr = buf.get();
      r = be->wrap(ptr, val.shape, val.dtype, std::move(buf));
    }
    return r;
  };
  // x's data as contiguous host memory: its own, or a host copy in a pooled buffer
  auto host_data = [&](const Array& x) -> const void* {
    const void* ptr = be->data_ptr ? be->data_ptr(x) : nullptr;
    if (!ptr && x.size()) {
      copies.push_back(I.pool->acquire(static_cast<std::size_t>(x.size()) * itemsize(x.dtype())));
      copy_to_host(x, copies.back().get());
      ptr = copies.back().get();
    }
    return ptr;
  };
  for (const Step& s : I.plan.steps) {
    if (s.prepared) {
      const Array& x = read(s, 0);
      const void* xp = be->data_ptr ? be->data_ptr(x) : nullptr;
      std::shared_ptr<void> x_copy;
      if (!xp) {  // not contiguous host memory: a host copy, in a pooled buffer
        x_copy = I.pool->acquire(static_cast<std::size_t>(x.size()) * sizeof(float));
        copy_to_host(x, x_copy.get());
        xp = x_copy.get();
      }
      const auto& v = g.value(s.out[0]);
      auto buf = I.pool->acquire(static_cast<std::size_t>(v.shape.numel()) * sizeof(float));
      void* yp = buf.get();
      const std::size_t scratch_bytes = s.prepared->scratch_bytes();
      std::shared_ptr<void> scratch = scratch_bytes ? I.pool->acquire(scratch_bytes) : nullptr;
      const bool x_cl = !I.plan.channels_last.empty() && I.plan.channels_last[s.in[0]] && !s.row_major_in[0];
      s.prepared->run(static_cast<const float*>(xp), x_cl, static_cast<float*>(yp), scratch.get());
      env[s.out[0]] = be->wrap(yp, v.shape, v.dtype, std::move(buf));
    } else if (s.program < 0 && s.row_program < 0) {
      in.clear();
      for (std::size_t i = 0; i < s.in.size(); ++i) in.push_back(read(s, i));
      s.kernel(in.data(), static_cast<int>(in.size()), s.attrs, s.specs.data(), outs);
      in.clear();  // no handle outlives its release point
      for (std::size_t k = 0; k < s.out.size(); ++k) env[s.out[k]] = std::move(outs[k]);
    } else {  // a fused program or row program
      in_ptr.assign(s.in.size(), nullptr);
      copies.clear();
      for (std::size_t i = 0; i < s.in.size(); ++i) in_ptr[i] = host_data(read(s, i));
      out_ptr.assign(s.out.size(), nullptr);
      results.clear();
      results.resize(s.out.size());
      for (std::size_t j = 0; j < s.out.size(); ++j) {
        const auto& v = g.value(s.out[j]);
        const int src = s.inplace_input[j];
        if (src >= 0) {
          Array& x = env[s.in[src]];
          // only this environment holds the array: its buffer is free to take
          if (x.impl_ptr().use_count() == 1 && in_ptr[src]) {
            void* ptr = be->data_ptr ? be->data_ptr(x) : nullptr;
            if (ptr == in_ptr[src]) {
              results[j] = x;
              out_ptr[j] = ptr;
              continue;
            }
          }
        }
        auto buf = I.pool->acquire(static_cast<std::size_t>(v.shape.numel()) * itemsize(v.dtype));
        void* ptr = buf.get();
        results[j] = be->wrap(ptr, v.shape, v.dtype, std::move(buf));
        out_ptr[j] = ptr;
      }
      if (s.row_program >= 0) fusion::run_rows(I.plan.row_programs[s.row_program], in_ptr.data(), out_ptr.data());
      else fusion::run(I.plan.programs[s.program], in_ptr.data(), out_ptr.data(), nullptr);
      for (std::size_t j = 0; j < s.out.size(); ++j) env[s.out[j]] = std::move(results[j]);
    }
    for (int v : s.release) {
      env[v] = Array();
      if (!row_major.empty()) row_major[v] = Array();
    }
  }
  std::vector<Array> result;
  result.reserve(g.output_ids.size());
  for (int v : g.output_ids) {
    if (!I.plan.to_row_major.empty() && I.plan.to_row_major[v]) {
      Step out;
      out.in = {v};
      out.row_major_in = {1};
      result.push_back(read(out, 0));
    } else {
      result.push_back(env[v]);
    }
  }
  return result;
}

// ---------------------------------------------------------------- compile
struct CompiledFunction::State {
  TracedFn fn;
  CompileOptions options;
  std::mutex m;
  std::list<std::pair<std::string, std::shared_ptr<const Executable>>> cache;  // most recent first
  int traces = 0;
};

namespace {
std::string signature(const std::vector<Array>& inputs) {
  std::string key;
  for (const Array& x : inputs) {
    if (!x.defined()) throw ValueError("[compile] an input array is undefined");
    key += x.backend().name();
    key += ':';
    key += dtype_name(x.dtype());
    key += x.shape().str();
    key += ';';
  }
  return key;
}
}  // namespace

CompiledFunction::CompiledFunction(TracedFn fn, CompileOptions options) : state_(std::make_shared<State>()) {
  if (!fn) throw ValueError("[compile] no function given");
  if (options.cache_size == 0) options.cache_size = 1;
  state_->fn = std::move(fn);
  state_->options = options;
}

std::shared_ptr<const Executable> CompiledFunction::executable(const std::vector<Array>& inputs) const {
  State& S = *state_;
  const std::string key = signature(inputs);
  {
    std::lock_guard<std::mutex> lock(S.m);
    for (auto it = S.cache.begin(); it != S.cache.end(); ++it)
      if (it->first == key) {
        S.cache.splice(S.cache.begin(), S.cache, it);
        return it->second;
      }
  }
  // traced and compiled outside the lock: the function may call other compiled functions
  Graph g = trace(S.fn, inputs);
  const Backend backend = inputs.empty() ? current_backend() : inputs[0].backend();
  auto exe = std::make_shared<const Executable>(std::move(g), backend, S.options);
  std::lock_guard<std::mutex> lock(S.m);
  ++S.traces;
  for (auto it = S.cache.begin(); it != S.cache.end(); ++it)
    if (it->first == key) return it->second;  // another thread compiled it meanwhile
  S.cache.emplace_front(key, exe);
  while (S.cache.size() > S.options.cache_size) S.cache.pop_back();
  return exe;
}

std::vector<Array> CompiledFunction::operator()(const std::vector<Array>& inputs) const {
  // under a transform (gradient tape, tracer) the function runs as written, so that the
  // transform sees each primitive
  if (observer_depth() > 0) return state_->fn(inputs);
  return executable(inputs)->run(inputs);
}
int CompiledFunction::traces() const {
  std::lock_guard<std::mutex> lock(state_->m);
  return state_->traces;
}
std::size_t CompiledFunction::cached() const {
  std::lock_guard<std::mutex> lock(state_->m);
  return state_->cache.size();
}

CompiledFunction compile(TracedFn fn, CompileOptions options) { return CompiledFunction(std::move(fn), options); }
std::function<Array(const Array&)> compile(std::function<Array(const Array&)> fn, CompileOptions options) {
  CompiledFunction c([fn](const std::vector<Array>& v) { return std::vector<Array>{fn(v[0])}; }, options);
  return [c](const Array& x) { return c({x})[0]; };
}
std::function<Array(const Array&, const Array&)> compile(std::function<Array(const Array&, const Array&)> fn,
                                                         CompileOptions options) {
  CompiledFunction c([fn](const std::vector<Array>& v) { return std::vector<Array>{fn(v[0], v[1])}; }, options);
  return [c](const Array& a, const Array& b) { return c({a, b})[0]; };
}

}  // namespace ivy

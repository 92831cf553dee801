// Graph passes: dead-code and common-subexpression elimination, constant folding, algebraic
// simplification, and the static-shape check (include/ivy/compile.hpp).
#include <algorithm>
#include <cstring>
#include <map>
#include <numeric>
#include <unordered_map>
#include <utility>

#include "ivy/compile.hpp"
#include "trace/graph_util.hpp"

namespace ivy {

namespace graph_util {
std::vector<unsigned char> host_bytes(const Array& x) {
  std::vector<unsigned char> out(static_cast<std::size_t>(x.size()) * itemsize(x.dtype()));
  if (!out.empty()) x.impl()->backend->to_host(x, out.data());
  return out;
}
double element_as_double(const unsigned char* p, DType d, std::int64_t i) {
  auto get = [&](auto tag) {
    using T = decltype(tag);
    T v;
    std::memcpy(&v, p + static_cast<std::size_t>(i) * sizeof(T), sizeof(T));
    return static_cast<double>(v);
  };
  switch (d) {
    case DType::bool_: return get(static_cast<unsigned char>(0)) != 0 ? 1.0 : 0.0;
    case DType::int8: return get(std::int8_t{});
    case DType::int16: return get(std::int16_t{});
    case DType::int32: return get(std::int32_t{});
    case DType::int64: return get(std::int64_t{});
    case DType::uint8: return get(std::uint8_t{});
    case DType::uint16: return get(std::uint16_t{});
    case DType::uint32: return get(std::uint32_t{});
    case DType::uint64: return get(std::uint64_t{});
    case DType::float32: return get(float{});
    case DType::float64: return get(double{});
    case DType::complex64: return get(float{}) /* real part: the first half */;
    case DType::complex128: return get(double{});
    default: return std::numeric_limits<double>::quiet_NaN();  // float16/bfloat16: never "one" or "zero" here
  }
}
std::vector<Array> call_primitive(OpId op, const std::vector<Array>& in_, AttrsRef a, Backend backend) {
  const OpInfo& info = op_info(op);
  const BackendImpl* be = backend.impl();
  std::vector<Array> in;
  for (const Array& x : in_) in.push_back(to_backend(x, backend));
  for (const Array& x : in) check_supported(backend, info.name, x.dtype());
  OutSpec specs[kMaxOutputs];
  const int n_out = info.meta(info.name, in.data(), static_cast<int>(in.size()), a, specs);
  for (int i = 0; i < n_out; ++i) check_supported(backend, info.name, specs[i].dtype);
  if (!be->kernels[static_cast<int>(op)])
    throw NotImplementedError(std::string("[") + info.name + "] is not implemented by backend " + be->name);
  std::vector<Array> out(static_cast<std::size_t>(n_out));
  be->kernels[static_cast<int>(op)](in.data(), static_cast<int>(in.size()), a, specs, out.data());
  return out;
}
void replace_uses(Graph& g, int from, int to) {
  if (from == to) return;
  std::vector<int> moved = std::move(g.value(from).users);
  g.value(from).users.clear();
  for (int k : moved)  // (a node reading `from` twice is listed twice; the second visit finds nothing)
    for (int& id : g.node(k).inputs)
      if (id == from) id = to;
  auto& to_users = g.value(to).users;
  to_users.insert(to_users.end(), moved.begin(), moved.end());
  for (int& id : g.output_ids)
    if (id == from) id = to;
}
void rewire_input(Graph& g, int node, std::size_t slot, int to) {
  int& id = g.node(node).inputs[slot];
  auto& users = g.value(id).users;
  auto it = std::find(users.begin(), users.end(), node);
  if (it != users.end()) users.erase(it);
  id = to;
  g.value(to).users.push_back(node);
}
int constant_index(const Graph& g, int id) {
  for (std::size_t i = 0; i < g.constant_ids.size(); ++i)
    if (g.constant_ids[i] == id) return static_cast<int>(i);
  return -1;
}
}  // namespace graph_util

namespace passes {
using namespace graph_util;

namespace {
// Drops the constants no node or output reads (values keep their ids).
void drop_unused_constants(Graph& g) {
  ById<char> used(g.values.size(), 0);
  for (auto& n : g.nodes)
    for (int id : n.inputs) used[id] = 1;
  for (int id : g.output_ids) used[id] = 1;
  std::vector<int> ids;
  std::vector<Array> data;
  for (std::size_t i = 0; i < g.constant_ids.size(); ++i)
    if (used[g.constant_ids[i]]) ids.push_back(g.constant_ids[i]), data.push_back(g.constants[i]);
  g.constant_ids = std::move(ids);
  g.constants = std::move(data);
}
bool is_random(const Graph::Node& n) { return op_info(n.op).has(kRandom); }
}  // namespace

int eliminate_dead_code(Graph& g) {
  ById<char> live(g.values.size(), 0);
  for (int id : g.output_ids) live[id] = 1;
  std::vector<char> keep(g.nodes.size(), 0);
  for (std::size_t k = g.nodes.size(); k-- > 0;) {
    const auto& n = g.nodes[k];
    // a random primitive advances its generator: it stays so that later draws stay the same
    bool needed = is_random(n);
    for (int o : n.outputs) needed = needed || live[o];
    if (!needed) continue;
    keep[k] = 1;
    for (int i : n.inputs) live[i] = 1;
  }
  std::vector<Graph::Node> kept;
  for (std::size_t k = 0; k < g.nodes.size(); ++k)
    if (keep[k]) kept.push_back(std::move(g.nodes[k]));
  const int removed = static_cast<int>(g.nodes.size() - kept.size());
  g.nodes = std::move(kept);
  drop_unused_constants(g);
  g.rebuild_uses();
  return removed;
}

int eliminate_common_subexpressions(Graph& g) {
  g.rebuild_uses();  // replace_uses walks the users lists
  int merged = 0;
  // equal constants: one id for each distinct (dtype, shape, bytes)
  {
    std::map<std::pair<int, std::vector<std::int64_t>>, std::vector<std::pair<int, std::vector<unsigned char>>>> seen;
    for (std::size_t i = 0; i < g.constants.size(); ++i) {
      const Array& c = g.constants[i];
      std::vector<std::int64_t> shape(c.shape().begin(), c.shape().end());
      auto& bucket = seen[{static_cast<int>(c.dtype()), shape}];
      auto bytes = host_bytes(c);
      int same = -1;
      for (auto& [id, b] : bucket)
        if (b == bytes) same = id;
      if (same >= 0) {
        replace_uses(g, g.constant_ids[i], same);
        ++merged;
      } else {
        bucket.emplace_back(g.constant_ids[i], std::move(bytes));
      }
    }
  }
  // nodes: same primitive, attributes and inputs compute the same values
  std::map<std::pair<int, std::vector<int>>, std::vector<std::size_t>> seen;
  std::vector<char> dead(g.nodes.size(), 0);
  for (std::size_t k = 0; k < g.nodes.size(); ++k) {
    auto& n = g.nodes[k];
    if (is_random(n)) continue;
    auto& bucket = seen[{static_cast<int>(n.op), n.inputs}];
    bool found = false;
    for (std::size_t other : bucket) {
      const auto& m = g.nodes[other];
      if (!(m.attrs == n.attrs) || m.outputs.size() != n.outputs.size()) continue;
      for (std::size_t o = 0; o < n.outputs.size(); ++o) replace_uses(g, n.outputs[o], m.outputs[o]);
      dead[k] = 1;
      found = true;
      ++merged;
      break;
    }
    if (!found) bucket.push_back(k);
  }
  std::vector<Graph::Node> kept;
  for (std::size_t k = 0; k < g.nodes.size(); ++k)
    if (!dead[k]) kept.push_back(std::move(g.nodes[k]));
  g.nodes = std::move(kept);
  drop_unused_constants(g);
  g.rebuild_uses();
  return merged;
}

int fold_constants(Graph& g, Backend backend, std::int64_t max_elements) {
  if (!backend) backend = current_backend();
  std::unordered_map<int, Array> known;  // value id -> its constant data
  for (std::size_t i = 0; i < g.constant_ids.size(); ++i) known[g.constant_ids[i]] = g.constants[i];
  std::vector<Graph::Node> kept;
  int folded = 0;
  for (auto& n : g.nodes) {
    const OpInfo& info = op_info(n.op);
    bool foldable = !info.has(kRandom) && !info.has(kDataDependentShape);
    for (int id : n.inputs) foldable = foldable && known.count(id);
    for (int o : n.outputs) foldable = foldable && g.value(o).shape.numel() <= max_elements;
    std::vector<Array> outs;
    if (foldable) {
      std::vector<Array> in;
      for (int id : n.inputs) in.push_back(known[id]);
      try {
        outs = call_primitive(n.op, in, n.attrs, backend);
      } catch (const Error&) {
        foldable = false;  // the error belongs to run time (it may depend on the backend): keep the node
      }
      foldable = foldable && outs.size() == n.outputs.size();
    }
    if (!foldable) {
      kept.push_back(std::move(n));
      continue;
    }
    for (std::size_t o = 0; o < outs.size(); ++o) {
      // a folded view (a permute of a constant, say) is stored as a contiguous copy: the
      // graph then computes from the same layout after a JSON round trip
      const BackendImpl* be = backend.impl();
      if (outs[o].size() && be->data_ptr && !be->data_ptr(outs[o])) {
        auto bytes = host_bytes(outs[o]);
        outs[o] = be->from_host(bytes.data(), outs[o].shape(), outs[o].dtype(), outs[o].device());
      }
      known[n.outputs[o]] = outs[o];
      g.constant_ids.push_back(n.outputs[o]);
      g.constants.push_back(outs[o]);
    }
    ++folded;
  }
  g.nodes = std::move(kept);
  drop_unused_constants(g);
  g.rebuild_uses();
  return folded;
}

namespace {
// True when value `id` is a captured constant whose every element equals v. For v == 0 the
// sign matters where the result is floating: negative_zero asks for -0.0, which only a
// floating constant can hold (an integer or bool zero promotes to +0.0); otherwise +0.0.
bool constant_all(const Graph& g, int id, double v, bool negative_zero = false) {
  const int ci = constant_index(g, id);
  if (ci < 0) return false;
  const Array& c = g.constants[ci];
  if (is_complex(c.dtype())) return false;
  if (v == 0 && negative_zero && !is_floating(c.dtype())) return false;
  auto bytes = host_bytes(c);
  for (std::int64_t i = 0; i < c.size(); ++i) {
    const double e = element_as_double(bytes.data(), c.dtype(), i);
    if (e != v) return false;
    if (v == 0 && is_floating(c.dtype()) && std::signbit(e) != negative_zero) return false;
  }
  return true;
}
bool same_type(const Graph& g, int a, int b) {
  const auto& x = g.value(a);
  const auto& y = g.value(b);
  return x.dtype == y.dtype && x.shape == y.shape;
}
}  // namespace

int simplify(Graph& g) {
  g.rebuild_uses();  // replace_uses walks the users lists
  int changed = 0;
  for (std::size_t k = 0; k < g.nodes.size(); ++k) {
    auto& n = g.nodes[k];
    if (n.outputs.size() != 1) continue;
    const int out = n.outputs[0];
    int same = -1;  // the value the node's output equals, when one does
    auto in = [&](int i) { return n.inputs[i]; };
    auto pick = [&](int x) {
      if (same < 0 && same_type(g, x, out)) same = x;
    };
    const DType dt = g.value(out).dtype;
    // x + 0 is x exactly for integers; for floats only with -0.0 (-0.0 + +0.0 is +0.0)
    const bool neg_zero_add = is_floating(dt);
    switch (n.op) {
      case OpId::multiply:
        if (constant_all(g, in(1), 1)) pick(in(0));
        if (constant_all(g, in(0), 1)) pick(in(1));
        break;
      case OpId::divide:
        if (constant_all(g, in(1), 1)) pick(in(0));
        break;
      case OpId::add:
        if (dt != DType::bool_) {
          if (constant_all(g, in(1), 0, neg_zero_add)) pick(in(0));
          if (constant_all(g, in(0), 0, neg_zero_add)) pick(in(1));
        }
        break;
      case OpId::subtract:
        if (constant_all(g, in(1), 0, false)) pick(in(0));
        break;
      case OpId::positive:
      case OpId::reshape:
      case OpId::broadcast_to:
      case OpId::astype:
        pick(in(0));
        break;
      case OpId::permute_dims: {
        const Dims axes = std::as_const(n.attrs).get<attr::permute_dims>().axes;
        bool identity = true;
        for (std::size_t i = 0; i < axes.size(); ++i) identity = identity && axes[i] == static_cast<std::int64_t>(i);
        if (identity) pick(in(0));
        const int p = g.producer(in(0));
        if (same < 0 && p >= 0 && g.node(p).op == OpId::permute_dims) {
          // permute(permute(x, a), b) = permute(x, a[b[i]])
          const auto& inner = g.node(p);
          const Dims a = inner.attrs.get<attr::permute_dims>().axes;
          Dims c;
          for (std::size_t i = 0; i < axes.size(); ++i) c.push_back(a[static_cast<std::size_t>(axes[i])]);
          rewire_input(g, static_cast<int>(k), 0, inner.inputs[0]);
          n.attrs.get<attr::permute_dims>().axes = c;
          ++changed;
          bool id2 = true;
          for (std::size_t i = 0; i < c.size(); ++i) id2 = id2 && c[i] == static_cast<std::int64_t>(i);
          if (id2) pick(n.inputs[0]);
        }
        break;
      }
      default: break;
    }
    if (n.op == OpId::reshape && same < 0) {
      const int p = g.producer(in(0));
      if (p >= 0 && g.node(p).op == OpId::reshape) {
        // reshape(reshape(x, s1), s2) = reshape(x, s2), with s2 spelled out (no -1)
        rewire_input(g, static_cast<int>(k), 0, g.node(p).inputs[0]);
        Dims s;
        for (auto d : g.value(out).shape) s.push_back(d);
        n.attrs.get<attr::reshape>().shape = s;
        ++changed;
        pick(n.inputs[0]);
      }
    }
    if (same >= 0) {
      replace_uses(g, out, same);
      ++changed;
    }
  }
  if (changed) eliminate_dead_code(g);  // (which rebuilds the users lists in node order)
  return changed;
}

void check_static_shapes(const Graph& g, const char* who) {
  for (std::size_t k = 0; k < g.nodes.size(); ++k) {
    const OpInfo& info = op_info(g.nodes[k].op);
    if (info.has(kDataDependentShape))
      throw ValueError(std::string("[") + who + "] node " + std::to_string(k) + " (" + info.name +
                       ") has an output whose shape depends on the input's values (boolean-mask indexing, nonzero, "
                       "unique_*): a compiled function cannot replay it on other data; compute it outside the compiled "
                       "function, or use a fixed-shape form such as where(mask, x, 0)");
  }
}

}  // namespace passes
}  // namespace ivy

// Row programs (row_fusion.hpp): elementwise prologues and epilogues fused with reductions
// over trailing axes, built from graph nodes and run row by row.
#include "trace/row_fusion.hpp"

#include <algorithm>
#include <map>
#include <sstream>
#include <utility>
#ifdef IVY_FUSION_OPENMP
#include <omp.h>
#endif

#include "row_kernels.hpp"
#include "ivy/dispatch.hpp"

namespace ivy::fusion {

namespace {
using u8 = unsigned char;

bool reduction_op(OpId op) { return op == OpId::sum || op == OpId::mean || op == OpId::max || op == OpId::min; }

// Row-major strides (elements) of shape s.
std::vector<std::int64_t> strides_of(const Shape& s) {
  std::vector<std::int64_t> st(s.size(), 1);
  for (std::size_t d = s.size(); d-- > 1;) st[d - 1] = st[d] * s[d];
  return st;
}

// v read by a node whose output has rank `target` (aligned to the right, NumPy's rule): its
// strides over the leading positions [0, axis) (0 where it broadcasts) and its dims over the
// trailing ones [axis, target).
void align(const Shape& v, int target, int axis, std::vector<std::int64_t>* lead, Shape* trailing) {
  const int vr = static_cast<int>(v.size());
  const auto st = strides_of(v);
  lead->assign(static_cast<std::size_t>(axis), 0);
  *trailing = Shape{};
  for (int d = 0; d < target; ++d) {
    const int vd = d - (target - vr);
    const std::int64_t len = vd >= 0 ? v[static_cast<std::size_t>(vd)] : 1;
    if (d < axis) (*lead)[static_cast<std::size_t>(d)] = len == 1 ? 0 : st[static_cast<std::size_t>(vd)];
    else trailing->push_back(len);
  }
}
}  // namespace

int row_class(const Shape& v, const Shape& S, int axis) {
  if (v == S) return 1;
  const std::size_t rank = S.size(), a = static_cast<std::size_t>(axis);
  if (v.size() == rank) {
    bool keep = true;
    for (std::size_t d = 0; d < rank; ++d) keep = keep && v[d] == (d < a ? S[d] : 1);
    if (keep) return 2;
  }
  if (v.size() == a) {
    bool lead = true;
    for (std::size_t d = 0; d < a; ++d) lead = lead && v[d] == S[d];
    if (lead) return 3;
  }
  return 0;
}

bool row_reduction(const Graph& g, const Graph::Node& n, Shape* shape, int* axis) {
  if (!reduction_op(n.op) || n.inputs.size() != 1 || n.outputs.size() != 1) return false;
  const auto& x = g.value(n.inputs[0]);
  const DType d = x.dtype;
  if ((d != DType::float32 && d != DType::float64) || g.value(n.outputs[0]).dtype != d) return false;
  const int rank = static_cast<int>(x.shape.size());
  if (rank == 0 || x.shape.numel() == 0) return false;
  const std::optional<Dims>& given = n.op == OpId::sum ? n.attrs.get<attr::reduce_acc>().axes : n.attrs.get<attr::reduce>().axes;
  std::vector<std::int64_t> axes;
  if (!given) {
    for (int a = 0; a < rank; ++a) axes.push_back(a);
  } else {
    for (std::int64_t a : *given) axes.push_back(a < 0 ? a + rank : a);
  }
  std::sort(axes.begin(), axes.end());
  axes.erase(std::unique(axes.begin(), axes.end()), axes.end());
  if (axes.empty()) return false;
  const int first = rank - static_cast<int>(axes.size());
  for (std::size_t i = 0; i < axes.size(); ++i)
    if (axes[i] != first + static_cast<std::int64_t>(i)) return false;
  std::int64_t len = 1;
  for (int a = first; a < rank; ++a) len *= x.shape[static_cast<std::size_t>(a)];
  if (len > kMaxFusedRow) return false;
  if (row_class(g.value(n.outputs[0]).shape, x.shape, first) < 2) return false;
  *shape = x.shape;
  *axis = first;
  return true;
}

RowProgram build_rows(const Graph& g, const std::vector<int>& nodes, const std::vector<int>& outputs) {
  RowProgram p;
  p.nodes = nodes;
  bool found = false;
  for (int k : nodes)
    if (row_reduction(g, g.node(k), &p.shape, &p.axis)) {
      found = true;
      break;
    }
  if (!found) throw Error("[compile] internal: a row group without a reduction");
  const Shape& S = p.shape;
  const int rank = static_cast<int>(S.size()), axis = p.axis;
  p.rows = 1;
  p.len = 1;
  for (int d = 0; d < rank; ++d) (d < axis ? p.rows : p.len) *= S[static_cast<std::size_t>(d)];
  const Shape full_row(S.begin() + axis, S.end());
  const auto S_strides = strides_of(S);
  const std::vector<std::int64_t> S_lead(S_strides.begin(), S_strides.begin() + axis);

  // stages: a value is ready at stage 0 when it comes from outside, at its node's stage when
  // an elementwise node computes it, at the next stage when a reduction does
  enum Kind { reduce = 0, per_row = 1, full = 2 };
  std::map<int, int> ready, kind_of_value;  // value -> stage, value -> Kind of its node
  std::vector<int> node_stage, node_kind;
  int n_stages = 1;
  for (int k : nodes) {
    const auto& n = g.node(k);
    int s = 0;
    for (int v : n.inputs) {
      auto it = ready.find(v);
      if (it != ready.end()) s = std::max(s, it->second);
    }
    Shape dummy;
    int dummy_axis;
    const int kind = row_reduction(g, n, &dummy, &dummy_axis) ? reduce
                     : row_class(g.value(n.outputs[0]).shape, S, axis) == 1 ? full : per_row;
    node_stage.push_back(s);
    node_kind.push_back(kind);
    ready[n.outputs[0]] = kind == reduce ? s + 1 : s;
    kind_of_value[n.outputs[0]] = kind;
    n_stages = std::max(n_stages, ready[n.outputs[0]] + 1);
  }
  p.stages.resize(static_cast<std::size_t>(n_stages));

  // external inputs, in order of first use
  std::map<int, int> input_index;
  for (int k : nodes)
    for (int v : g.node(k).inputs)
      if (!ready.count(v) && !input_index.count(v)) {
        input_index[v] = static_cast<int>(p.input_values.size());
        p.input_values.push_back(v);
      }
  // where each group value lives when something outside its phase reads it
  std::map<int, int> output_index;
  for (int v : outputs) {
    output_index[v] = static_cast<int>(p.output_values.size());
    p.output_values.push_back(v);
  }
  auto phase_of = [&](int v) { return std::make_pair(ready.at(v) - (kind_of_value.at(v) == reduce ? 1 : 0), kind_of_value.at(v)); };
  std::map<int, RowSource> home;
  auto needs_home = [&](int v) {
    if (output_index.count(v) || kind_of_value.at(v) == reduce) return true;
    const auto ph = phase_of(v);
    for (int u : g.users(v)) {
      auto it = std::find(nodes.begin(), nodes.end(), u);
      if (it == nodes.end()) continue;
      const std::size_t i = static_cast<std::size_t>(it - nodes.begin());
      if (node_kind[i] == reduce || std::make_pair(node_stage[i], node_kind[i]) != ph) return true;
    }
    return false;
  };
  for (int k : nodes) {
    const int v = g.node(k).outputs[0];
    if (!needs_home(v)) continue;
    RowSource h;
    h.dtype = g.value(v).dtype;
    h.full = kind_of_value.at(v) == full;
    if (output_index.count(v)) {
      h.kind = RowSource::output;
      h.index = output_index.at(v);
    } else if (h.full) {
      h.kind = RowSource::buffer;
      h.index = p.n_buffers++;
    } else {
      h.kind = RowSource::row_value;
      h.index = p.n_row_values++;
    }
    home[v] = h;
  }

  // one program per (stage, kind) over a graph of row-level values: a full value is one row
  // (shape S[axis:]), a per-row value one element; an external input is its part over the
  // trailing axes, read at its row's offset
  for (int s = 0; s < n_stages; ++s)
    for (int kind : {per_row, full}) {
      std::vector<std::size_t> members;
      for (std::size_t i = 0; i < nodes.size(); ++i)
        if (node_stage[i] == s && node_kind[i] == kind) members.push_back(i);
      if (members.empty()) continue;
      RowPhase ph;
      Graph pg;
      std::map<std::pair<int, int>, int> local;  // (value, alignment rank) -> pg value
      auto add_value = [&](const Shape& shape, DType d) {
        Graph::Value val;
        val.shape = shape;
        val.dtype = d;
        pg.values.push_back(val);
        return static_cast<int>(pg.values.size()) - 1;
      };
      std::vector<int> pg_nodes;
      for (std::size_t i : members) {
        const auto& n = g.node(nodes[i]);
        const int out_rank = static_cast<int>(g.value(n.outputs[0]).shape.size());
        Graph::Node pn;
        pn.op = n.op;
        pn.attrs = n.attrs;
        for (int v : n.inputs) {
          const bool external = !ready.count(v);
          const std::pair<int, int> key{v, external ? out_rank : -1};
          auto it = local.find(key);
          if (it == local.end()) {
            RowSource src;
            Shape row_shape;
            const auto& val = g.value(v);
            if (external) {
              src.kind = RowSource::input;
              src.index = input_index.at(v);
              src.dtype = val.dtype;
              align(val.shape, out_rank, std::min(axis, out_rank), &src.lead, &row_shape);
              src.lead.resize(static_cast<std::size_t>(axis), 0);
              if (kind == per_row) row_shape = Shape{};
            } else {
              src = home.at(v);
              row_shape = kind_of_value.at(v) == full ? full_row : Shape{};
            }
            it = local.emplace(key, add_value(row_shape, val.dtype)).first;
            ph.in.push_back(src);
          }
          pn.inputs.push_back(it->second);
        }
        const int o = n.outputs[0];
        const int po = add_value(kind == full ? full_row : Shape{}, g.value(o).dtype);
        local[{o, -1}] = po;
        pn.outputs.push_back(po);
        pg.values[static_cast<std::size_t>(po)].producer = static_cast<int>(pg.nodes.size());
        pg_nodes.push_back(static_cast<int>(pg.nodes.size()));
        pg.nodes.push_back(std::move(pn));
      }
      std::vector<int> outs;
      for (std::size_t i : members) {
        const int o = g.node(nodes[i]).outputs[0];
        if (home.count(o)) {
          outs.push_back(local.at({o, -1}));
          ph.out.push_back(home.at(o));
        }
      }
      ph.prog = build(pg, pg_nodes, outs);
      // the program's inputs in its own order (build orders them by first use, as added here)
      RowStage& st = p.stages[static_cast<std::size_t>(s)];
      (kind == full ? st.has_row : st.has_scalar) = true;
      (kind == full ? st.row : st.scalar) = std::move(ph);
    }
  // the reductions, at the stage their operand is ready
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    if (node_kind[i] != reduce) continue;
    const auto& n = g.node(nodes[i]);
    RowReduce r;
    r.op = n.op;
    const int x = n.inputs[0];
    r.dtype = g.value(x).dtype;
    if (ready.count(x)) {
      r.src = home.at(x);
    } else {
      r.src.kind = RowSource::input;
      r.src.index = input_index.at(x);
      r.src.dtype = r.dtype;
      r.src.lead = S_lead;
    }
    r.dst = home.at(n.outputs[0]);
    p.stages[static_cast<std::size_t>(node_stage[i])].reduce.push_back(r);
  }
  return p;
}

std::vector<Program*> row_phase_programs(RowProgram& p) {
  std::vector<Program*> out;
  for (RowStage& s : p.stages) {
    if (s.has_scalar) out.push_back(&s.scalar.prog);
    if (s.has_row) out.push_back(&s.row.prog);
  }
  return out;
}

std::string RowProgram::str() const {
  std::ostringstream os;
  os << "rows" << shape << " axis " << axis << " {";
  const char* names[] = {"sum", "mean", "max", "min"};
  for (std::size_t s = 0; s < stages.size(); ++s) {
    const RowStage& st = stages[s];
    os << " stage " << s << ":";
    if (st.has_scalar) os << " " << st.scalar.prog.str();
    if (st.has_row) os << " " << st.row.prog.str();
    for (const RowReduce& r : st.reduce)
      os << " " << names[r.op == OpId::sum ? 0 : r.op == OpId::mean ? 1 : r.op == OpId::max ? 2 : 3];
    os << ";";
  }
  os << " } ->";
  for (int v : output_values) os << " %" << v;
  return os.str();
}

namespace {
template <class T>
T reduce_row(OpId op, const T* x, std::int64_t len) {
  switch (op) {
    case OpId::sum: return cpu::rows::sum_fp(x, len);
    case OpId::mean: return cpu::rows::sum_fp(x, len) / static_cast<T>(len);
    case OpId::max: return cpu::rows::extreme_fp(x, len, true);
    default: return cpu::rows::extreme_fp(x, len, false);
  }
}

// Rows [rb, re) of p.
void run_rows_range(const RowProgram& p, const void* const* in, void* const* out, std::uint64_t* row_values,
                    std::int64_t rb, std::int64_t re) {
  thread_local std::vector<std::uint64_t> buffers;  // row buffers: len elements of up to 8 bytes each
  const std::size_t words = static_cast<std::size_t>(p.n_buffers) * static_cast<std::size_t>(p.len);
  if (buffers.size() < words) buffers.resize(words);
  const std::size_t axis = static_cast<std::size_t>(p.axis);
  std::vector<std::int64_t> idx(axis, 0);
  for (std::size_t d = axis, r = static_cast<std::size_t>(rb); d-- > 0;) {
    idx[d] = static_cast<std::int64_t>(r % static_cast<std::size_t>(p.shape[d]));
    r /= static_cast<std::size_t>(p.shape[d]);
  }
  std::vector<const void*> pin;
  std::vector<void*> pout;
  for (std::int64_t r = rb; r < re; ++r) {
    auto at = [&](const RowSource& s) -> void* {
      const std::int64_t size = static_cast<std::int64_t>(itemsize(s.dtype));
      switch (s.kind) {
        case RowSource::input: {
          std::int64_t off = 0;
          for (std::size_t d = 0; d < axis; ++d) off += idx[d] * s.lead[d];
          return const_cast<u8*>(static_cast<const u8*>(in[s.index])) + off * size;
        }
        case RowSource::output: return static_cast<u8*>(out[s.index]) + (s.full ? r * p.len : r) * size;
        case RowSource::row_value: return row_values + static_cast<std::int64_t>(s.index) * p.rows + r;
        default: return buffers.data() + static_cast<std::int64_t>(s.index) * p.len;
      }
    };
    for (const RowStage& st : p.stages) {
      for (const RowPhase* ph : {st.has_scalar ? &st.scalar : nullptr, st.has_row ? &st.row : nullptr}) {
        if (!ph) continue;
        pin.clear();
        pout.clear();
        for (const RowSource& s : ph->in) pin.push_back(at(s));
        for (const RowSource& s : ph->out) pout.push_back(at(s));
        run_serial(ph->prog, pin.data(), pout.data());
      }
      for (const RowReduce& red : st.reduce) {
        if (red.dtype == DType::float32)
          *static_cast<float*>(at(red.dst)) = reduce_row(red.op, static_cast<const float*>(at(red.src)), p.len);
        else
          *static_cast<double*>(at(red.dst)) = reduce_row(red.op, static_cast<const double*>(at(red.src)), p.len);
      }
    }
    for (std::size_t d = axis; d-- > 0;) {  // the next row's index
      if (++idx[d] < p.shape[d]) break;
      idx[d] = 0;
    }
  }
}
constexpr std::int64_t kParallelMin = std::int64_t{1} << 16;
}  // namespace

void run_rows(const RowProgram& p, const void* const* in, void* const* out) {
  if (p.rows == 0 || p.len == 0) return;
  std::vector<std::uint64_t> row_values(static_cast<std::size_t>(p.n_row_values) * static_cast<std::size_t>(p.rows));
#ifdef IVY_FUSION_OPENMP
  if (p.rows > 1 && p.rows * p.len >= kParallelMin && omp_get_max_threads() > 1 && !omp_in_parallel()) {
#pragma omp parallel
    {
      const std::int64_t t = omp_get_thread_num(), T = omp_get_num_threads();
      run_rows_range(p, in, out, row_values.data(), p.rows * t / T, p.rows * (t + 1) / T);
    }
    return;
  }
#endif
  run_rows_range(p, in, out, row_values.data(), 0, p.rows);
}

}  // namespace ivy::fusion

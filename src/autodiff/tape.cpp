// Reverse mode: a tape records the differentiable primitive calls that read the arrays being
// differentiated (a DispatchObserver on the calling thread's stack) and walks them backwards
// with the VJP rules. Everything else (jvp, jacobians, hessians) is built on vjp.
#include <sys/mman.h>

#include <cstdlib>
#include <limits>
#include <memory>
#include <sstream>
#include <unordered_map>

#include "autodiff/rules.hpp"
#include "ivy/autodiff.hpp"

namespace ivy {

namespace autodiff {
namespace {

bool differentiable_dtype(DType d) { return is_floating(d); }

// IVY_TAPE_POISON_STAND_INS=1 (read once): the stand-ins for primals a node did not keep are
// filled with NaN (floating), true (bool) or the dtype's largest value (integers: out of
// range as an index) instead of viewing zeros. Tests
// only: it makes a rule that reads an undeclared primal fail its gradient checks.
bool poison_stand_ins() {
  static const bool on = [] {
    const char* v = std::getenv("IVY_TAPE_POISON_STAND_INS");
    return v && std::string(v) == "1";
  }();
  return on;
}

// Raises a pause counter for its lifetime (the counter's owner ignores calls while it is
// nonzero), also when the paused code throws.
class Paused {
 public:
  explicit Paused(int& counter) : counter_(counter) { ++counter_; }
  ~Paused() { --counter_; }
  Paused(const Paused&) = delete;
  Paused& operator=(const Paused&) = delete;

 private:
  int& counter_;
};

void accumulate(Array& slot, const Array& g) { slot = slot.defined() ? add(slot, g) : g; }

// A read-only mapping of zero pages, made once per process (address space only: no page of it
// is ever allocated; reading gives zeros, writing would fault). nullptr past its size or where
// mmap fails.
const void* zero_region(std::size_t bytes) {
  static constexpr std::size_t kBytes = std::size_t{1} << 32;
  static void* const region = [] {
    void* p = mmap(nullptr, kBytes, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    return p == MAP_FAILED ? nullptr : p;
  }();
  return region && bytes <= kBytes ? region : nullptr;
}

// What a rule may read of a primal it does not need the values of: its dtype, device,
// backend and shape (the extents stored in the tape's one list, from `dims_at`).
struct ArrayMeta {
  std::uint32_t dims_at;
  std::uint8_t ndim;
  DType dtype;
  Device device;
  Backend backend;
};

// Fits a rule's cotangent to its primal: summed over broadcast axes, cast to its dtype.
Array fit(Array g, const Shape& shape, DType dtype, const char* op) {
  if (!(g.shape() == shape)) {
    if (g.ndim() < static_cast<std::int64_t>(shape.size()))
      throw Error(std::string("[grad] the rule of ") + op + " gave a cotangent of shape " + g.shape().str() +
                  " for an input of shape " + shape.str());
    g = unbroadcast(g, shape);
  }
  if (g.dtype() != dtype) {
    if (is_complex(g.dtype()) && !is_complex(dtype)) g = real(g);
    if (g.dtype() != dtype) g = astype(g, dtype);
  }
  return g;
}

}  // namespace

// Records, while it is on the thread's observer stack, every differentiable primitive call
// with at least one tracked input; outputs of floating dtype become tracked in turn.
// Arrays are identified by their ArrayImpl with a weak reference beside the id: an entry whose
// array has died is stale (its address may belong to a new array), so the tape keeps alive
// only the primals its nodes saved (saved_values_of: what each rule reads), and a node's
// saved arrays are dropped once its rule has run.
class Tape final : public DispatchObserver {
 public:
  int track(const Array& x) {
    const int id = next_++;
    ids_[x.impl()] = Entry{id, x.impl_ptr()};
    return id;
  }
  int id_of(const Array& x) const {
    auto it = ids_.find(x.impl());
    // a live weak reference at x's address is x itself (two live arrays never share one)
    return it == ids_.end() || it->second.ref.expired() ? -1 : it->second.id;
  }
  bool tracks_any(std::span<const Array> xs) const {
    for (const Array& x : xs)
      if (id_of(x) >= 0) return true;
    return false;
  }

  void on_dispatch(OpId op, std::span<const Array> in, AttrsRef a, std::span<const Array> out) override {
    if (paused_) return;
    const VjpRule rule = vjp_rule_of(op);
    if (!rule || !tracks_any(in)) return;
    Node n;
    n.op = op;
    n.attrs = a;
    n.rule = rule;
    add_node(std::move(n), in, out, saved_values_of(op));
  }

  void record_custom(const std::vector<Array>& in, const std::vector<Array>& out, const CustomBwd& bwd) {
    Node n;
    n.custom = bwd;
    add_node(std::move(n), in, out, SavedValues{});  // a user's rule may read anything
  }

  // Cotangents of `wanted` (ids; -1: an untracked primal, zeros) given the cotangents of the
  // arrays with ids `seeds`. With `release`, each node's arrays are dropped once it is done.
  // With `ready`, ready(k, cotangent of wanted[k]) is called as soon as that cotangent is
  // final: once the first node that reads it (the last one the backward walk runs) is done,
  // or before the walk for one no node reads.
  std::vector<Array> backward(const std::vector<int>& seeds, const std::vector<Array>& seed_cots,
                              const std::vector<int>& wanted, bool release,
                              const std::function<void(std::size_t, const Array&)>* ready = nullptr) {
    std::vector<Array> ct(static_cast<std::size_t>(next_));
    for (std::size_t k = 0; k < seeds.size(); ++k)
      if (seeds[k] >= 0 && seed_cots[k].defined()) accumulate(ct[static_cast<std::size_t>(seeds[k])], seed_cots[k]);
    // final_after[i]: the wanted entries whose first reader is node i
    std::vector<std::vector<std::size_t>> final_after;
    if (ready) {
      final_after.resize(nodes_.size());
      std::unordered_map<int, std::size_t> first_reader;
      for (std::size_t i = 0; i < nodes_.size(); ++i)
        for (int id : nodes_[i].in_ids)
          if (id >= 0) first_reader.emplace(id, i);
      for (std::size_t k = 0; k < wanted.size(); ++k) {
        auto it = wanted[k] >= 0 ? first_reader.find(wanted[k]) : first_reader.end();
        if (it == first_reader.end()) (*ready)(k, wanted[k] >= 0 ? ct[static_cast<std::size_t>(wanted[k])] : Array());
        else final_after[it->second].push_back(k);
      }
    }
    for (std::size_t i = nodes_.size(); i-- > 0;) {
      Node& n = nodes_[i];
      bool any = false;
      std::vector<Array> cots(n.out.size());
      for (std::size_t k = 0; k < n.out.size(); ++k)
        if (n.out_ids[k] >= 0 && ct[static_cast<std::size_t>(n.out_ids[k])].defined()) {
          cots[k] = ct[static_cast<std::size_t>(n.out_ids[k])];
          any = true;
        }
      if (any) run_node(n, cots, ct);
      if (release) n = Node{};
      if (ready)
        for (std::size_t k : final_after[i]) (*ready)(k, ct[static_cast<std::size_t>(wanted[k])]);
    }
    std::vector<Array> result;
    for (int id : wanted) result.push_back(id >= 0 ? ct[static_cast<std::size_t>(id)] : Array());
    return result;
  }

  int& pause_counter() { return paused_; }

 private:
  struct Node {
    OpId op{};
    Attrs attrs;
    VjpRule rule = nullptr;
    CustomBwd custom;
    std::vector<Array> in, out;  // kept only where the rule reads their values (else undefined)
    std::vector<int> in_ids, out_ids;
    std::uint32_t meta_at = 0;  // metas_[meta_at ...]: the inputs', then the outputs'
    bool stand_ins = true;      // the rule reads the shapes of primals it did not keep
  };
  struct Entry {
    int id;
    std::weak_ptr<ArrayImpl> ref;
  };

  void add_node(Node&& proto, std::span<const Array> in, std::span<const Array> out, SavedValues saves) {
    Node& n = nodes_.emplace_back(std::move(proto));
    n.meta_at = static_cast<std::uint32_t>(metas_.size());
    n.stand_ins = saves.shapes;
    n.in_ids.reserve(in.size());
    n.in.reserve(in.size());
    for (std::size_t i = 0; i < in.size(); ++i) {
      n.in_ids.push_back(differentiable_dtype(in[i].dtype()) ? id_of(in[i]) : -1);
      add_meta(in[i]);
      n.in.push_back(saves.input(i) ? in[i] : Array());
    }
    n.out_ids.reserve(out.size());
    n.out.reserve(out.size());
    for (std::size_t k = 0; k < out.size(); ++k) {
      n.out_ids.push_back(differentiable_dtype(out[k].dtype()) ? track(out[k]) : -1);
      add_meta(out[k]);
      n.out.push_back(saves.output(k) ? out[k] : Array());
    }
  }
  void add_meta(const Array& x) {
    metas_.push_back({static_cast<std::uint32_t>(dims_.size()), static_cast<std::uint8_t>(x.ndim()), x.dtype(),
                      x.device(), x.backend()});
    dims_.insert(dims_.end(), x.shape().begin(), x.shape().end());
  }
  Shape shape_of(const ArrayMeta& m) const { return Shape(std::span<const std::int64_t>(dims_.data() + m.dims_at, m.ndim)); }

  // An array with m's shape, dtype and backend that the rule reads nothing of: a view of the
  // zero region where the backend can wrap host memory (a handle, no memory), else an empty
  // array. What a rule gets for a primal the tape did not keep; the last few are reused.
  Array stand_in(const ArrayMeta& m) {
    const std::int64_t* d = dims_.data() + m.dims_at;
    for (auto& [key, a] : stand_ins_)
      if (key.dtype == m.dtype && key.ndim == m.ndim && key.backend == m.backend && key.device == m.device &&
          std::equal(d, d + m.ndim, dims_.data() + key.dims_at))
        return a;
    static const std::shared_ptr<void> kNoOwner(static_cast<void*>(nullptr), [](void*) {});
    const Shape shape = shape_of(m);
    if (poison_stand_ins()) {
      // the checking run: values no rule may read, so that one reading a primal its
      // declaration (IVY_VJP_READS) does not name computes NaN or indexes out of range
      const Scalar poison = is_floating(m.dtype) ? Scalar(std::numeric_limits<double>::quiet_NaN())
                            : m.dtype == bool_   ? Scalar(true)
                                                 : Scalar(iinfo(m.dtype).max);
      return full(shape, poison, m.dtype, m.device, m.backend);
    }
    const BackendImpl* be = m.backend.impl();
    const void* zeros_at = m.device.kind == Device::cpu && be->wrap
                               ? zero_region(static_cast<std::size_t>(shape.numel()) * itemsize(m.dtype))
                               : nullptr;
    Array a = zeros_at ? be->wrap(const_cast<void*>(zeros_at), shape, m.dtype, kNoOwner)
                       : empty(shape, m.dtype, m.device, m.backend);
    if (stand_ins_.size() < 16) stand_ins_.emplace_back(m, a);
    else stand_ins_[next_stand_in_++ % 16] = {m, a};
    return a;
  }
  // The node's primals: `kept` itself when it holds them all, else a copy in `scratch` with
  // stand-ins for those it did not keep.
  std::span<const Array> primals(const std::vector<Array>& kept, std::uint32_t meta_at, std::vector<Array>& scratch) {
    if (std::all_of(kept.begin(), kept.end(), [](const Array& a) { return a.defined(); })) return kept;
    scratch.resize(kept.size());
    for (std::size_t i = 0; i < kept.size(); ++i)
      scratch[i] = kept[i].defined() ? kept[i] : stand_in(metas_[meta_at + i]);
    return scratch;
  }

  void run_node(const Node& n, const std::vector<Array>& cots, std::vector<Array>& ct) {
    std::vector<Array> grads(n.in.size());
    if (n.custom) {
      std::vector<Array> full(cots.size());
      for (std::size_t k = 0; k < cots.size(); ++k) full[k] = cots[k].defined() ? cots[k] : zeros_like(n.out[k]);
      grads = n.custom(n.in, n.out, full);
      if (grads.size() != n.in.size())
        throw ValueError("[custom_vjp] the backward function returned " + std::to_string(grads.size()) +
                         " cotangents for " + std::to_string(n.in.size()) + " inputs");
    } else {
      std::unique_ptr<bool[]> want(new bool[n.in.size()]());
      bool any = false;
      for (std::size_t i = 0; i < n.in.size(); ++i) any |= (want[i] = n.in_ids[i] >= 0);
      if (!any) return;
      std::vector<Array> in_scratch, out_scratch;
      const std::span<const Array> in = n.stand_ins ? primals(n.in, n.meta_at, in_scratch) : n.in,
                                   out = n.stand_ins
                                             ? primals(n.out, n.meta_at + static_cast<std::uint32_t>(n.in.size()), out_scratch)
                                             : n.out;
      VjpCall call{n.op, in, n.attrs, out, cots, std::span<const bool>(want.get(), n.in.size())};
      n.rule(call, grads);
    }
    for (std::size_t i = 0; i < n.in.size(); ++i)
      if (n.in_ids[i] >= 0 && grads[i].defined())
        accumulate(ct[static_cast<std::size_t>(n.in_ids[i])],
                   fit(grads[i], shape_of(metas_[n.meta_at + i]), metas_[n.meta_at + i].dtype,
                       n.custom ? "custom_vjp" : op_info(n.op).name));
  }

  std::vector<Node> nodes_;
  std::vector<ArrayMeta> metas_;
  std::vector<std::int64_t> dims_;
  std::vector<std::pair<ArrayMeta, Array>> stand_ins_;
  std::size_t next_stand_in_ = 0;
  std::unordered_map<const ArrayImpl*, Entry> ids_;
  int next_ = 0;
  int paused_ = 0;
};

// Forward mode: while on the thread's observer stack, gives every differentiable primitive
// call with a tangent on some input the tangents of its outputs, from the primitive's JVP
// rule. The rule's own calls are not traced by this tracer (they would be tangents of
// tangents); enclosing tracers and tapes see them, which is what nesting needs.
class ForwardTrace final : public DispatchObserver {
 public:
  void set_tangent(const Array& x, const Array& t) {
    tangents_[x.impl()] = t;
    held_.push_back(x);
  }
  Array tangent_of(const Array& x) const {
    auto it = tangents_.find(x.impl());
    return it == tangents_.end() ? Array() : it->second;
  }
  void on_dispatch(OpId op, std::span<const Array> in, AttrsRef a, std::span<const Array> out) override {
    if (paused_) return;
    const JvpRule rule = jvp_rule_of(op);
    if (!rule) return;
    std::vector<Array> tin(in.size());
    bool any = false;
    for (std::size_t i = 0; i < in.size(); ++i)
      if (differentiable_dtype(in[i].dtype()) && (tin[i] = tangent_of(in[i])).defined()) any = true;
    if (!any) return;
    std::vector<Array> tout(out.size());
    {
      Paused hidden(paused_);
      rule(JvpCall{op, in, a, out, tin}, tout);
    }
    for (std::size_t k = 0; k < out.size(); ++k) {
      if (!tout[k].defined() || !differentiable_dtype(out[k].dtype())) continue;
      Array t = tout[k];
      if (t.dtype() != out[k].dtype()) {
        if (is_complex(t.dtype()) && !is_complex(out[k].dtype())) t = real(t);
        if (t.dtype() != out[k].dtype()) t = astype(t, out[k].dtype());
      }
      if (!(t.shape() == out[k].shape())) t = broadcast_to(t, out[k].shape());
      set_tangent(out[k], t);
    }
  }

 private:
  std::unordered_map<const ArrayImpl*, Array> tangents_;
  std::vector<Array> held_;
  int paused_ = 0;
};

namespace {
// A new handle for what the function being differentiated sees, distinct from p (so that an
// array it captures from outside stays a constant). With no observer on this thread's
// stack, a zero-copy alias of p's buffer where its backend can make one; otherwise a copy
// through astype, a primitive that enclosing tapes and tracers record (an alias made
// outside dispatch would cut their chain).
Array fresh_primal(const Array& p) {
  if (observer_depth() == 0) {
    const BackendImpl* be = p.impl()->backend;
    if (be->data_ptr && be->wrap)
      if (void* data = be->data_ptr(p)) return be->wrap(data, p.shape(), p.dtype(), p.impl_ptr());
  }
  return astype(p, p.dtype(), true);
}

// The tapes on this thread's observer stack, innermost first.
std::vector<Tape*> active_tapes() {
  std::vector<Tape*> tapes;
  for (DispatchObserver* o = innermost_observer(); o; o = o->below())
    if (auto* t = dynamic_cast<Tape*>(o)) tapes.push_back(t);
  return tapes;
}

// Runs f on fresh handles of the primals (fresh_primal), recorded on a new tape.
struct Recording {
  std::shared_ptr<Tape> tape = std::make_shared<Tape>();
  std::vector<Array> primals;
  std::vector<int> primal_ids;
  std::vector<Array> outputs;
  std::vector<int> output_ids;
};
Recording record(const ArraysFn& f, const std::vector<Array>& primals, const char* name) {
  Recording r;
  for (std::size_t i = 0; i < primals.size(); ++i) {
    const Array& p = primals[i];
    if (!p.defined()) throw ValueError(std::string("[") + name + "] argument " + std::to_string(i) + " is undefined");
    Array x = fresh_primal(p);
    r.primal_ids.push_back(differentiable_dtype(x.dtype()) ? r.tape->track(x) : -1);
    r.primals.push_back(x);
  }
  {
    ObserverScope observing(*r.tape);
    r.outputs = f(r.primals);
  }
  for (std::size_t k = 0; k < r.outputs.size(); ++k) {
    if (!r.outputs[k].defined())
      throw ValueError(std::string("[") + name + "] the function returned an undefined array (output " +
                       std::to_string(k) + ")");
    r.output_ids.push_back(r.tape->id_of(r.outputs[k]));
  }
  return r;
}

std::vector<Array> pullback(const Recording& r, const std::vector<Array>& cots, bool release, const char* name,
                            const CotangentReady* ready = nullptr) {
  if (cots.size() != r.outputs.size())
    throw ValueError(std::string("[") + name + "] expected " + std::to_string(r.outputs.size()) + " cotangents, got " +
                     std::to_string(cots.size()));
  for (std::size_t k = 0; k < cots.size(); ++k)
    if (cots[k].defined() && !(cots[k].shape() == r.outputs[k].shape()))
      throw ValueError(std::string("[") + name + "] cotangent " + std::to_string(k) + " has shape " + cots[k].shape().str() +
                       ", output " + std::to_string(k) + " has shape " + r.outputs[k].shape().str());
  // The API speaks JAX's convention for complex arrays (a cotangent is dL/dRe - i dL/dIm);
  // the rules use its conjugate, so complex cotangents are conjugated on the way in and out.
  std::vector<Array> seeds(cots.size());
  for (std::size_t k = 0; k < cots.size(); ++k)
    seeds[k] = cots[k].defined() && is_complex(cots[k].dtype()) ? conj(cots[k]) : cots[k];
  // what the caller's ready sees: the API's convention, zeros where no gradient flows
  std::function<void(std::size_t, const Array&)> on_final;
  if (ready)
    on_final = [&](std::size_t i, const Array& g) {
      if (!g.defined()) (*ready)(i, zeros_like(r.primals[i]));
      else (*ready)(i, is_complex(g.dtype()) ? conj(g) : g);
    };
  std::vector<Array> g = r.tape->backward(r.output_ids, seeds, r.primal_ids, release, ready ? &on_final : nullptr);
  for (std::size_t i = 0; i < g.size(); ++i) {
    if (!g[i].defined()) g[i] = zeros_like(r.primals[i]);
    else if (is_complex(g[i].dtype())) g[i] = conj(g[i]);
  }
  return g;
}

void check_argument(const Array& x, std::size_t i, const char* name) {
  if (!x.defined()) throw ValueError(std::string("[") + name + "] argument " + std::to_string(i) + " is undefined");
  if (!is_floating(x.dtype()))
    throw TypeError(std::string("[") + name + "] argument " + std::to_string(i) + " has dtype " + dtype_name(x.dtype()) +
                    "; gradients are taken with respect to floating-point arrays only");
}
void check_scalar_output(const Array& y, bool holomorphic, const char* name) {
  if (!y.defined()) throw ValueError(std::string("[") + name + "] the function returned an undefined array");
  if (y.ndim() != 0)
    throw ValueError(std::string("[") + name + "] the function must return a 0-d array (a scalar), got shape " +
                     y.shape().str());
  if (holomorphic ? !is_complex(y.dtype()) : !is_real_floating(y.dtype()))
    throw TypeError(std::string("[") + name + "] the function must return a " +
                    (holomorphic ? "complex array (holomorphic)" : "real floating array") + ", got dtype " +
                    dtype_name(y.dtype()));
}

// value and gradients of f at xs for the arguments in argnums
std::pair<Array, std::vector<Array>> value_and_grads(const MultiFn& f, const std::vector<Array>& xs,
                                                     const std::vector<int>& argnums, const char* name,
                                                     bool holomorphic = false) {
  for (int k : argnums)
    if (k < 0 || static_cast<std::size_t>(k) >= xs.size())
      throw ValueError(std::string("[") + name + "] argnums entry " + std::to_string(k) + " is out of range for " +
                       std::to_string(xs.size()) + " arguments");
  for (int k : argnums) {
    check_argument(xs[static_cast<std::size_t>(k)], static_cast<std::size_t>(k), name);
    if (holomorphic && !is_complex(xs[static_cast<std::size_t>(k)].dtype()))
      throw TypeError(std::string("[") + name + "] holomorphic differentiation needs complex arguments, argument " +
                      std::to_string(k) + " has dtype " + dtype_name(xs[static_cast<std::size_t>(k)].dtype()));
  }
  // only the differentiated arguments are recorded; the others are passed as they are
  std::vector<Array> wrt;
  for (int k : argnums) wrt.push_back(xs[static_cast<std::size_t>(k)]);
  Recording r = record(
      [&](const std::vector<Array>& ps) {
        std::vector<Array> all = xs;
        for (std::size_t j = 0; j < argnums.size(); ++j) all[static_cast<std::size_t>(argnums[j])] = ps[j];
        return std::vector<Array>{f(all)};
      },
      wrt, name);
  check_scalar_output(r.outputs[0], holomorphic, name);
  std::vector<Array> g = pullback(r, {ones_like(r.outputs[0])}, true, name);
  return {r.outputs[0], std::move(g)};
}

std::vector<int> all_argnums(std::size_t n) {
  std::vector<int> a(n);
  for (std::size_t i = 0; i < n; ++i) a[i] = static_cast<int>(i);
  return a;
}

// A one-hot array of `shape` and `dtype` on `backend`: 1 at flat position i.
Array one_hot(const Shape& shape, std::int64_t i, DType dtype, Backend backend) {
  std::vector<double> v(static_cast<std::size_t>(shape.numel()), 0.0);
  v[static_cast<std::size_t>(i)] = 1.0;
  return asarray(v, shape, dtype, {}, backend);
}
}  // namespace
}  // namespace autodiff

using autodiff::Recording;

Array stop_gradient(const Array& x) {
  if (!x.defined()) throw ValueError("[stop_gradient] got an undefined array");
  return dispatch(OpId::stop_gradient, x, AttrsRef());
}

VjpResult vjp(const ArraysFn& f, const std::vector<Array>& primals) {
  auto r = std::make_shared<Recording>(autodiff::record(f, primals, "vjp"));
  VjpResult res;
  res.outputs = r->outputs;
  res.vjp_fn = [r](const std::vector<Array>& cots) { return autodiff::pullback(*r, cots, false, "vjp"); };
  res.vjp_streamed = [r](const std::vector<Array>& cots, const CotangentReady& ready) {
    return autodiff::pullback(*r, cots, false, "vjp", &ready);
  };
  return res;
}

std::function<Array(const Array&)> grad(ArrayFn f) {
  return [f = std::move(f)](const Array& x) {
    auto vg = autodiff::value_and_grads([&](const std::vector<Array>& v) { return f(v[0]); }, {x}, {0}, "grad");
    return vg.second[0];
  };
}
std::function<Array(const Array&)> grad(ArrayFn f, GradOptions options) {
  return [f = std::move(f), options](const Array& x) {
    auto vg = autodiff::value_and_grads([&](const std::vector<Array>& v) { return f(v[0]); }, {x}, {0}, "grad",
                                        options.holomorphic);
    return vg.second[0];
  };
}
std::function<std::pair<Array, Array>(const Array&)> value_and_grad(ArrayFn f) {
  return [f = std::move(f)](const Array& x) {
    auto vg = autodiff::value_and_grads([&](const std::vector<Array>& v) { return f(v[0]); }, {x}, {0}, "value_and_grad");
    return std::pair<Array, Array>(vg.first, vg.second[0]);
  };
}
std::function<std::vector<Array>(const std::vector<Array>&)> grad(MultiFn f, std::vector<int> argnums) {
  return [f = std::move(f), argnums = std::move(argnums)](const std::vector<Array>& xs) {
    return autodiff::value_and_grads(f, xs, argnums, "grad").second;
  };
}
std::function<std::pair<Array, std::vector<Array>>(const std::vector<Array>&)> value_and_grad(MultiFn f,
                                                                                              std::vector<int> argnums) {
  return [f = std::move(f), argnums = std::move(argnums)](const std::vector<Array>& xs) {
    return autodiff::value_and_grads(f, xs, argnums, "value_and_grad");
  };
}

namespace {
std::pair<Array, ArrayMap> map_value_and_grad(const MapFn& f, const ArrayMap& vars, const char* name) {
  std::vector<std::string> keys;
  std::vector<Array> xs;
  for (const auto& [k, v] : vars) keys.push_back(k), xs.push_back(v);
  auto vg = autodiff::value_and_grads(
      [&](const std::vector<Array>& v) {
        ArrayMap m;
        for (std::size_t i = 0; i < keys.size(); ++i) m.emplace(keys[i], v[i]);
        return f(m);
      },
      xs, autodiff::all_argnums(xs.size()), name);
  ArrayMap g;
  for (std::size_t i = 0; i < keys.size(); ++i) g.emplace(keys[i], vg.second[i]);
  return {vg.first, std::move(g)};
}
}  // namespace

std::function<ArrayMap(const ArrayMap&)> grad(MapFn f) {
  return [f = std::move(f)](const ArrayMap& vars) { return map_value_and_grad(f, vars, "grad").second; };
}
ValueAndGrads execute_with_gradients(const MapFn& f, const ArrayMap& variables) {
  auto [value, grads] = map_value_and_grad(f, variables, "execute_with_gradients");
  return {value, std::move(grads)};
}

std::pair<std::vector<Array>, std::vector<Array>> jvp(const ArraysFn& f, const std::vector<Array>& primals,
                                                      const std::vector<Array>& tangents) {
  if (tangents.size() != primals.size())
    throw ValueError("[jvp] got " + std::to_string(tangents.size()) + " tangents for " + std::to_string(primals.size()) +
                     " primals");
  for (std::size_t i = 0; i < primals.size(); ++i) {
    autodiff::check_argument(primals[i], i, "jvp");
    if (!tangents[i].defined() || !(tangents[i].shape() == primals[i].shape()) || tangents[i].dtype() != primals[i].dtype())
      throw ValueError("[jvp] tangent " + std::to_string(i) + " must have the primal's shape " + primals[i].shape().str() +
                       " and dtype " + dtype_name(primals[i].dtype()));
  }
  autodiff::ForwardTrace trace;
  std::vector<Array> xs;
  for (std::size_t i = 0; i < primals.size(); ++i) {
    xs.push_back(autodiff::fresh_primal(primals[i]));  // f's own handles (see record)
    trace.set_tangent(xs.back(), tangents[i]);
  }
  std::vector<Array> outs;
  {
    ObserverScope observing(trace);
    outs = f(xs);
  }
  std::vector<Array> touts;
  for (std::size_t k = 0; k < outs.size(); ++k) {
    if (!outs[k].defined())
      throw ValueError("[jvp] the function returned an undefined array (output " + std::to_string(k) + ")");
    Array t = trace.tangent_of(outs[k]);
    touts.push_back(t.defined() ? t : zeros_like(outs[k]));
  }
  return {outs, touts};
}

std::function<Array(const Array&)> jacrev(ArrayFn f) {
  return [f = std::move(f)](const Array& x) {
    autodiff::check_argument(x, 0, "jacrev");
    VjpResult r = vjp([&](const std::vector<Array>& v) { return std::vector<Array>{f(v[0])}; }, {x});
    const Array& y = r.outputs[0];
    std::vector<Array> rows;
    for (std::int64_t i = 0; i < y.size(); ++i)
      rows.push_back(r.vjp_fn({autodiff::one_hot(y.shape(), i, y.dtype(), y.backend())})[0]);
    Shape s = y.shape();
    for (auto d : x.shape()) s.push_back(d);
    if (rows.empty()) return zeros(s, x.dtype(), {}, x.backend());
    return reshape(stack(rows, 0), s);
  };
}
std::function<Array(const Array&)> jacfwd(ArrayFn f) {
  return [f = std::move(f)](const Array& x) {
    autodiff::check_argument(x, 0, "jacfwd");
    ArraysFn g = [&](const std::vector<Array>& v) { return std::vector<Array>{f(v[0])}; };
    std::vector<Array> cols;
    Array y;
    for (std::int64_t j = 0; j < x.size(); ++j) {
      auto [outs, tans] = jvp(g, {x}, {autodiff::one_hot(x.shape(), j, x.dtype(), x.backend())});
      y = outs[0];
      cols.push_back(tans[0]);
    }
    if (!y.defined()) y = f(x);
    Shape s = y.shape();
    for (auto d : x.shape()) s.push_back(d);
    if (cols.empty()) return zeros(s, y.dtype(), {}, y.backend());
    return reshape(stack(cols, -1), s);
  };
}
std::function<Array(const Array&)> hessian(ArrayFn f) {
  return [h = jacrev(grad(std::move(f)))](const Array& x) {
    autodiff::check_argument(x, 0, "hessian");
    return h(x);
  };
}

ArraysFn custom_vjp(ArraysFn fwd, CustomBwd bwd) {
  return [fwd = std::move(fwd), bwd = std::move(bwd)](const std::vector<Array>& xs) {
    std::vector<autodiff::Tape*> tapes;
    for (autodiff::Tape* t : autodiff::active_tapes())
      if (t->tracks_any(xs)) tapes.push_back(t);
    std::vector<Array> outs;
    {
      std::vector<std::unique_ptr<autodiff::Paused>> paused;
      for (autodiff::Tape* t : tapes) paused.push_back(std::make_unique<autodiff::Paused>(t->pause_counter()));
      outs = fwd(xs);
    }
    for (autodiff::Tape* t : tapes) t->record_custom(xs, outs, bwd);
    return outs;
  };
}

}  // namespace ivy

// ivy::compile: trace a function once per input signature, optimize its graph, and run the
// result through an executor that does no per-node dispatch work (the 2021 paper's
// compile_fn). docs/compile.md describes the passes, the fusion kernel and the guarantees.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "ivy/trace.hpp"

namespace ivy {

struct CompileOptions {
  bool eliminate_dead_code = true;
  bool eliminate_common_subexpressions = true;
  bool fold_constants = true;
  bool simplify = true;
  bool fuse_elementwise = true;
  // reductions over trailing axes (float32/float64 sum, mean, max, min) fuse with the
  // elementwise work before and after them into one loop over rows: softmax, log-softmax,
  // RMS norm, mean-squared error (needs fuse_elementwise)
  bool fuse_reductions = true;
  // float32 convolutions by captured weights (the per-channel bias and scale after them
  // folded in) and max pools run kernels prepared once, on channels-last activations, where
  // the build has them (oneDNN)
  bool prepare_kernels = true;
  bool plan_memory = true;  // release values after their last use; fused groups write in place
  // fused groups run C++ generated for them, compiled by the system compiler and cached on
  // disk (docs/compile.md); off, or when IVY_COMPILE_CODEGEN=0 or no compiler runs, they run
  // interpreted loops (the same results)
  bool generate_code = true;
  std::size_t cache_size = 16;  // input signatures kept per compiled function (least recently used goes)
};

// ---- graph passes: each rewrites the graph in place (def-use kept current) and returns how
// many nodes it removed or rewrote. None changes what the graph computes: random primitives
// are never merged, folded or removed while their results are used.
namespace passes {
// Removes nodes none of whose outputs reaches a graph output.
int eliminate_dead_code(Graph& g);
// Merges nodes with the same primitive, attributes and inputs (not random ones), and equal
// captured constants (same dtype, shape and bytes).
int eliminate_common_subexpressions(Graph& g);
// Evaluates nodes whose inputs are all captured constants (and creation nodes) at compile
// time on `backend`, turning their outputs into constants; skips random primitives and
// results larger than `max_elements`.
int fold_constants(Graph& g, Backend backend, std::int64_t max_elements = std::int64_t{1} << 22);
// Algebraic identities: x*1, 1*x, x+0, 0+x, x-0, x/1 (constant all ones / zeros that change
// neither shape nor dtype), reshape/broadcast_to to the same shape, astype to the same dtype,
// positive(x), double permutes (composed, dropped when the identity), reshape chains.
int simplify(Graph& g);
// Rejects graphs a compiled function cannot replay: a primitive whose output shape depends
// on the input's values (nonzero, unique, boolean-mask indexing) throws ValueError naming it.
void check_static_shapes(const Graph& g, const char* who = "compile");
}  // namespace passes

// A graph made ready to run on one backend: passes applied, kernels resolved, output specs
// inferred and validated once, connected elementwise groups fused into single loops, values
// released after their last use.
class Executable {
 public:
  Executable(Graph g, Backend backend, const CompileOptions& options = {});
  ~Executable();
  Executable(Executable&&) noexcept;
  Executable& operator=(Executable&&) noexcept;

  // Inputs must have the traced shapes and dtypes and live on the executable's backend
  // (others are moved to it).
  std::vector<Array> run(const std::vector<Array>& inputs) const;
  // The optimized graph (what run computes, before fusion), and the plan with its fused groups.
  const Graph& graph() const;
  Backend backend() const;
  std::string plan_str() const;

  struct Stats {
    int traced_nodes = 0;     // before the passes
    int nodes = 0;            // after them
    int steps = 0;            // kernel calls + fused loops per run
    int fused_groups = 0;
    int fused_nodes = 0;      // primitives inside fused groups
    int fused_reductions = 0;  // of the fused groups, those run row by row with reductions inside
    int prepared_kernels = 0;  // convolutions and pools run by prepared kernels
    double compile_ms = 0;    // passes + planning (not tracing), generated kernels included
    int generated_kernels = 0;    // fused groups that run generated code
    bool generated_cached = false;  // their library came from the cache
    double codegen_ms = 0;        // generating, compiling and loading them
  };
  const Stats& stats() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// The callable ivy::compile returns. Copies share one cache; calls are safe from several
// threads. Under an active transform (a gradient tape, a tracer), the call replays the
// optimized graph primitive by primitive so that the transform sees every primitive.
class CompiledFunction {
 public:
  CompiledFunction(TracedFn fn, CompileOptions options = {});
  std::vector<Array> operator()(const std::vector<Array>& inputs) const;

  // How many times the function was traced (one per new signature) and how many
  // signatures the cache holds now.
  int traces() const;
  std::size_t cached() const;
  // The executable for these inputs' signature, compiling it if needed.
  std::shared_ptr<const Executable> executable(const std::vector<Array>& inputs) const;

 private:
  struct State;
  std::shared_ptr<State> state_;
};

CompiledFunction compile(TracedFn fn, CompileOptions options = {});
// The same signatures as the function given.
std::function<Array(const Array&)> compile(std::function<Array(const Array&)> fn, CompileOptions options = {});
std::function<Array(const Array&, const Array&)> compile(std::function<Array(const Array&, const Array&)> fn,
                                                         CompileOptions options = {});

}  // namespace ivy

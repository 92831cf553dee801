// The stages that turn a traced graph into an Executable's plan, in the order the Executable's
// constructor runs them. Each is a function of its inputs, so that each can be tested alone
// (tests/test_compile_stages.cpp); internal to libivy.
#pragma once

#include <memory>
#include <vector>

#include "ivy/compile.hpp"
#include "trace/fusion.hpp"
#include "trace/graph_util.hpp"
#include "trace/prepared.hpp"
#include "trace/row_fusion.hpp"

namespace ivy::compile_stages {

using graph_util::ById;

// One unit of a run: a kernel call (program < 0, no prepared kernel), a fused loop
// (programs[program]) or a prepared kernel (prepared).
struct Step {
  int program = -1;
  int row_program = -1;  // a fused group with reductions (row_programs[row_program])
  std::shared_ptr<const prepared::Kernel> prepared;
  OpId op{};
  Attrs attrs;
  Kernel kernel = nullptr;
  std::vector<int> in, out;         // graph values read and written
  std::vector<OutSpec> specs;       // kernel calls: the outputs' shapes and dtypes
  std::vector<int> release;         // values read for the last time here
  std::vector<int> inplace_input;   // fused: per output, the input whose buffer it may take (-1: none)
  std::vector<char> row_major_in;   // per input: read the row-major copy of a channels-last value
};

// 1. The graph passes `opt` selects, in place: the static-shape check (always), dead code,
//    constant folding on `backend`, simplification, common subexpressions, dead code again.
void optimize(Graph& g, Backend backend, const CompileOptions& opt);

// 2. Throws NotImplementedError when `backend` has no kernel for a node's primitive, and the
//    dtype error of check_supported when it does not support a dtype a node reads or writes.
void check_support(const Graph& g, Backend backend);

// 3. Prepared kernels (prepared.hpp), where prepared::make_* gives one:
//    - each conv of a float32 input by a captured constant weight, with the chain of nodes
//      after it that only it feeds folded into its weights and bias: adds, subtractions,
//      multiplications and divisions by finite per-channel constants (a bias, an inference
//      batch norm);
//    - each float32 max_pool whose positions output nothing reads;
//    - each float32 matmul of [..., K] by a captured [K, N] weight with K >= 64 and
//      M K N >= 2^18, with the add of a constant [N] bias after it.
struct PreparedUnit {
  std::vector<int> nodes;  // the conv or pool first, then the nodes folded into it (execution order)
  int input = -1, output = -1;
  std::shared_ptr<const prepared::Kernel> kernel;
};
std::vector<PreparedUnit> prepared_units(const Graph& g);

// Units formed before a grouping stage (prepared units, row groups): their node lists and,
// per node, the index of its unit (-1: none). The schedule runs a unit as one step, so the
// grouping stages ask "does X depend on Y" with every formed unit counted as one node.
struct FormedUnits {
  std::vector<std::vector<int>> lists;
  ById<int> of;
  explicit FormedUnits(int n) : of(n, -1) {}
  void add(std::vector<int> nodes) {
    for (int k : nodes) of[k] = static_cast<int>(lists.size());
    lists.push_back(std::move(nodes));
  }
  bool has(int k) const { return of[k] >= 0; }
};

// 4. Fusion groups: lists of node indices (execution order) of two or more fusible nodes of
//    one output shape each, such that running each group as one unit, and each unit of
//    `formed` as one, keeps the graph acyclic. Nodes of `formed` join no group.
std::vector<std::vector<int>> fusion_groups(const Graph& g, const FormedUnits* formed = nullptr);

// 4a. Row groups (row_fusion.hpp), formed before the elementwise groups: from each reduction
//    a row program runs (row_reduction), not in `formed`, the later fusible nodes of the
//    same rows that read the group (and nothing that depends on it from outside), then the
//    earlier fusible nodes only the group reads. Groups of two or more nodes are returned and
//    added to `formed`.
std::vector<std::vector<int>> row_groups(const Graph& g, FormedUnits& formed);

// 5. Units and their order: the groups first (unit i < fused_units is groups[i]), then the
//    prepared units' node lists (the next prepared_units units), then every node
//    outside them alone; `order` runs each unit after the units it reads, and among ready
//    units the one whose first node comes first (random primitives keep their order). Throws
//    Error if contracting the groups made a cycle.
struct Schedule {
  ById<std::vector<int>> units;
  int fused_units = 0;
  int prepared_units = 0;
  std::vector<int> order;
};
Schedule schedule(const Graph& g, std::vector<std::vector<int>> groups, std::vector<std::vector<int>> prepared = {});

// 6. Lowering: one Step per unit in `s.order`; a single node becomes a kernel call of
//    `backend`, a group a fused program (its outputs are the values used outside it), a
//    prepared unit a call of convs[u - fused_units].kernel.
struct Plan {
  ById<Step> steps;
  ById<fusion::Program> programs;
  ById<fusion::RowProgram> row_programs;
  std::vector<int> release_first;   // inputs and constants nothing reads
  // per value: held channels-last (prepared.hpp), and the copy to row-major where a
  // step or the graph's outputs need one
  ById<char> channels_last;
  ById<std::shared_ptr<const prepared::ToRowMajor>> to_row_major;
};
Plan lower(const Graph& g, const Schedule& s, Backend backend, const std::vector<PreparedUnit>& convs = {});

// 7. Layouts: prepared convolutions and pools write channels-last values (prepared matmuls
//    row-major ones); a step that computes elementwise, reading only channels-last values of
//    its own shape and one-element values, runs on them as they are and writes channels-last
//    too (an elementwise result does not depend on the order of the elements in memory); any
//    other reader, and the graph's outputs, get a row-major copy, made once per value. Fills channels_last, row_major_in
//    and to_row_major.
void plan_layouts(const Graph& g, Plan& plan);

// 8. In-place choice: a fused output may take the buffer of an input that dies in its step,
//    one an earlier fused loop or prepared convolution wrote into a pool buffer (so no view
//    of it exists: every reader is in this step), of the output's dtype and read in full.
//    Fills inplace_input.
void choose_inplace(const Graph& g, Plan& plan);

// 9. Release points: each value is released after the last step that reads it (graph
//    outputs are kept); values written and never read after their step, and inputs nothing
//    reads, at once.
void plan_release(const Graph& g, Plan& plan);

}  // namespace ivy::compile_stages

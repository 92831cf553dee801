// Reductions in fusion: a group of elementwise primitives and reductions over one array shape
// S, every reduction (sum, mean, max or min of float32/float64) over the trailing axes
// [axis, rank) of S, runs row by row. A row r is one index over S[:axis]; its values are
// "full" (shape S, one row of len = S[axis:].numel() elements) or "per-row" (the reductions'
// results and what is computed from them alone, shape S[:axis] with or without the reduced
// axes kept as 1). Each row runs the group's stages in order; stage s runs
//   1. a one-element program of the per-row values whose inputs are ready at s,
//   2. a program over the row of the full values whose inputs are ready at s,
//   3. the reductions of full values ready at s, whose results are ready at s + 1.
// Full values read by a later stage live in a row buffer of the thread (or in the group's
// output they are), so each row is read from memory once and the rest from cache: softmax
// is a max, then exp(x - max) and its sum, then the division (internal to libivy).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "trace/fusion.hpp"

namespace ivy::fusion {

// Where a program operand or a reduction's row lives, for row r.
struct RowSource {
  enum Kind : std::uint8_t {
    input,      // external input `index`: element offset sum_d idx_d(r) * lead[d]
    output,     // group output `index`: offset r * len (full) or r (per-row)
    row_value,  // the per-row value `index` of the run (an array of `rows` elements): offset r
    buffer,     // the thread's row buffer `index` (len elements): offset 0
  } kind = input;
  int index = 0;
  DType dtype = DType::float32;
  bool full = false;                // output: a full value (else per-row)
  std::vector<std::int64_t> lead;   // input: its strides (elements) over S[:axis], 0 where broadcast
};

struct RowPhase {
  Program prog;
  std::vector<RowSource> in, out;  // per input / output of prog
};

struct RowReduce {
  OpId op;        // sum, mean, max or min
  DType dtype;    // float32 or float64, of the row and the result
  RowSource src;  // a full row, contiguous
  RowSource dst;  // a per-row value
};

struct RowStage {
  bool has_scalar = false, has_row = false;
  RowPhase scalar, row;
  std::vector<RowReduce> reduce;
};

struct RowProgram {
  Shape shape;                      // S
  int axis = 0;                     // the first reduced axis
  std::int64_t rows = 0, len = 0;   // S[:axis].numel(), S[axis:].numel()
  std::vector<int> input_values;    // external values read
  std::vector<int> output_values;   // group values used outside the group, in this order
  std::vector<int> nodes;           // the graph nodes the program replaces
  std::vector<RowStage> stages;
  int n_row_values = 0, n_buffers = 0;
  std::string str() const;
};

// Rows longer than this (elements) are not fused: the row buffers stay in cache.
constexpr std::int64_t kMaxFusedRow = std::int64_t{1} << 16;

// When node n is a reduction a row program runs: sum, mean, max or min of a float32/float64
// array (result of the same dtype) of at least one element over its trailing axes [axis,
// rank), with axis < rank and rows of at most kMaxFusedRow elements. Sets shape (the input's)
// and axis.
bool row_reduction(const Graph& g, const Graph::Node& n, Shape* shape, int* axis);

// How a value of shape v relates to a row group over (S, axis): 1 full (v == S), 2 per-row
// with the reduced axes kept (S[:axis] + 1s), 3 per-row without them (S[:axis]), 0 neither.
int row_class(const Shape& v, const Shape& S, int axis);

// The row program of `nodes` (execution order; a row group as the planner forms them, each
// node a row_reduction of (S, axis) or a fusible elementwise node whose output is full or
// per-row); `outputs` lists the values used outside the group.
RowProgram build_rows(const Graph& g, const std::vector<int>& nodes, const std::vector<int>& outputs);

// Every program of p's phases (for codegen::prepare).
std::vector<Program*> row_phase_programs(RowProgram& p);

// Runs p: in[i] holds input_values[i] (contiguous row-major host memory), out[j] receives
// output_values[j] (contiguous, its shape). Rows are split over OpenMP's threads.
void run_rows(const RowProgram& p, const void* const* in, void* const* out);

}  // namespace ivy::fusion

// Elementwise fusion: a connected group of elementwise primitives of one output shape becomes
// a program that one loop runs block by block over the group's output, reading each external
// input once and writing each group output once; intermediates live in block-sized scratch
// buffers only (internal to libivy).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ivy/trace.hpp"

namespace ivy::fusion {

// The operations a fused program runs, each on whole blocks of one dtype.
enum class FOp : std::uint8_t {
  convert,  // a -> dt
  // unary, result dtype dt (same as the operand's, but for the bool-valued ones)
  abs, negative, square, sqrt, reciprocal, floor, ceil, trunc, round, exp, expm1, log, log1p, log2, log10,
  sin, cos, tan, sinh, cosh, tanh, asin, acos, atan, asinh, acosh, atanh,
  isnan, isinf, isfinite, signbit, logical_not, bitwise_invert,
  // binary, operands already of the compute dtype
  add, subtract, multiply, divide, maximum, minimum, pow, atan2, hypot, logaddexp, copysign,
  bitwise_and, bitwise_or, bitwise_xor,
  equal, not_equal, less, less_equal, greater, greater_equal,  // result bool
  where,  // a bool, b and c of dt
};

// The operation's name, as ivy's function of it ("add", "where"; "convert" for astype).
const char* fop_name(FOp f);

struct Instr {
  FOp op;
  DType dt;      // the result's dtype
  DType arg_dt;  // the operands' dtype (compute dtype): a comparison's inputs, convert's source
  int dst;       // result register
  int a = -1, b = -1, c = -1;
};

// How an external input is read for a block of the group's output.
struct InputRead {
  enum Kind : std::uint8_t { full, scalar, broadcast } kind = full;
  DType dtype = DType::float32;
  // broadcast: the input's strides (elements, 0 where broadcast) over the collapsed output dims
  std::vector<std::int64_t> dims, strides;
};

struct Program {
  Shape shape;                      // the group's output shape
  std::vector<int> input_values;    // external values read (register i = input i)
  std::vector<InputRead> reads;
  std::vector<Instr> code;
  std::vector<DType> reg_dtype;     // per register
  std::vector<int> reg_slot;        // scratch slot per register (-1: reads the input directly)
  std::vector<char> reg_uniform;    // one value for every element (a one-element input)
  std::vector<int> reg_output;      // the output index a register is written to, or -1
  int n_slots = 0;
  std::int64_t row = 0;             // broadcast inputs: the shortest innermost run among them (0: none)
  std::vector<int> output_values;   // group values used outside the group, in this order
  std::vector<int> output_regs;
  std::vector<int> nodes;           // the graph nodes the program replaces
  // The generated kernel (codegen.hpp) run() calls in place of the interpreter, and the
  // loaded library that holds it (shared by the programs compiled together).
  using Kernel = void (*)(const void* const*, void* const*, std::int64_t, std::int64_t, const void*);
  Kernel kernel = nullptr;
  std::shared_ptr<void> library;
  std::string str() const;
};

// True when node n can run inside a fused program (its primitive and dtypes are covered).
bool fusible(const Graph& g, const Graph::Node& n);
// The program of `nodes` (graph node indices in execution order, all with output shape
// `shape`); `outputs` lists the values used outside the group.
Program build(const Graph& g, const std::vector<int>& nodes, const std::vector<int>& outputs);
// Runs the program: in[i] holds input_values[i]'s data (contiguous row-major host memory),
// out[j] receives output_values[j] (contiguous, the group's shape); scratch holds
// scratch_bytes(p) bytes, 8-byte aligned (nullptr: a buffer of the calling thread's, reused).
std::size_t scratch_bytes(const Program& p);
void run(const Program& p, const void* const* in, void* const* out, void* scratch);
// Runs p over its whole output on the calling thread (its generated kernel, or the
// interpreter with this thread's scratch), as row programs run their phases.
void run_serial(const Program& p, const void* const* in, void* const* out);
// The interpreter's gather of broadcast input `input` for output positions [start, start + n)
// into dst (contiguous), as the generated kernels call it.
void gather_input(const Program& p, int input, const void* base, std::int64_t start, std::int64_t n, void* dst);

}  // namespace ivy::fusion

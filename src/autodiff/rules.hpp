// The VJP rules of the primitives: one per kDifferentiable row of ops.def.
//
// A rule gets the recorded call (inputs, attributes, outputs) and the cotangents of its
// outputs, and writes the cotangent of each input it is asked for. Rules are written with
// ivy:: functions only, so they run on the arrays' backend and are recorded by enclosing
// tapes (higher-order derivatives). The tape then fits each result to its input: it sums a
// cotangent over the axes the input was broadcast along, casts it to the input's dtype
// (the real part for a real input) and drops it for integer and bool inputs. So a rule may
// return a cotangent in the broadcast shape and the computation dtype.
//
// Rules are explicit specializations of vjp_rule<op>, defined in rules_*.cpp; the table in
// vjp_table.cpp takes &vjp_rule<op> for every row with kDifferentiable, so a differentiable
// primitive without a rule is a link error.
#pragma once

#include <span>

#include "ivy/dispatch.hpp"
#include "ivy/functional.hpp"

namespace ivy::autodiff {

struct VjpCall {
  OpId op;
  std::span<const Array> in;   // the primal inputs, as the primitive got them
  AttrsRef attrs;
  std::span<const Array> out;  // the primal outputs
  std::span<const Array> cot;  // one per output; undefined: no cotangent (zeros)
  std::span<const bool> want;  // one per input: is its cotangent needed
};
// Writes grads[i] for the inputs with want[i] (left undefined: zero).
using VjpRule = void (*)(const VjpCall& c, std::span<Array> grads);

template <OpId op>
void vjp_rule(const VjpCall& c, std::span<Array> grads);

// The rule of a primitive (nullptr: not differentiable).
VjpRule vjp_rule_of(OpId op);

// Whether a primitive's VJP rule reads the values of its inputs and of its outputs. Where it
// does not, the tape keeps only their shapes and dtypes, and the rule gets stand-ins of that
// shape and dtype whose values are unset (a rule may take their shape, dtype and backend, and
// pass them to zeros_like and the like, but must not compute with them).
// Bit i of a mask: the rule reads the values of input (output) i; inputs past the 64th are
// kept when the mask is all ones.
// `shapes`: whether the rule reads the shape or dtype of a primal it does not keep (if not,
// it gets undefined arrays for those, and no stand-in is made).
struct SavedValues {
  std::uint64_t inputs = ~std::uint64_t{0};
  std::uint64_t outputs = ~std::uint64_t{0};
  bool shapes = true;
  bool input(std::size_t i) const { return i < 64 ? (inputs >> i & 1) != 0 : inputs == ~std::uint64_t{0}; }
  bool output(std::size_t k) const { return k < 64 ? (outputs >> k & 1) != 0 : outputs == ~std::uint64_t{0}; }
};
// The SavedValues of a differentiable primitive's rule, as its definition declares them
// (IVY_VJP_READS below); everything for the others.
SavedValues saved_values_of(OpId op);
// Declared by each rule's definition, next to the code that reads the primals.
template <OpId op>
SavedValues vjp_saves();
// Masks for IVY_VJP_READS.
inline constexpr std::uint64_t kReadsNone = 0, kReadsAll = ~std::uint64_t{0}, kReadsFirst = 1, kReadsSecond = 2;

// Forward mode: a JVP rule gets the call and the tangents of its inputs (undefined: zero;
// at least one is defined) and writes the tangent of each floating output (left undefined:
// zero). Tangents follow the same dtype rules as the primals: a tangent has its primal's
// shape and dtype (the forward tracer casts a rule's result to the output's dtype and
// broadcasts it to the output's shape).
struct JvpCall {
  OpId op;
  std::span<const Array> in;
  AttrsRef attrs;
  std::span<const Array> out;
  std::span<const Array> tan;  // one per input
};
using JvpRule = void (*)(const JvpCall& c, std::span<Array> tangents_out);
template <OpId op>
void jvp_rule(const JvpCall& c, std::span<Array> out_tangents);
JvpRule jvp_rule_of(OpId op);
// The tangent of input i, zeros of that input's shape and dtype when none was given.
Array tan_or_zeros(const JvpCall& c, int i);

// ---- helpers for rules
// The cotangent of output k, zeros of that output's shape and dtype when none was given.
Array cot_or_zeros(const VjpCall& c, int k);
// x summed over the leading and the size-1 axes that broadcasting `shape` to x's shape added.
Array unbroadcast(const Array& x, const Shape& shape);
// Shape after keeping the reduced axes as size 1 (axes normalized; none = every axis).
Shape keepdims_shape(const Shape& s, const std::optional<Dims>& axes);  // every axis when absent

}  // namespace ivy::autodiff

// Defines the VJP rule of primitive `op` (inside namespace ivy::autodiff), after declaring
// which primal values the rule reads: masks of inputs and of outputs, and optionally `false`
// when it reads not even the shapes of the others (SavedValues). E.g.
//   IVY_VJP_READS(exp, kReadsNone, kReadsAll) { ... reads c.out[0] only ... }
// The declaration and the code sit together, and a rule defined without one fails the link
// (vjp_table.cpp takes &vjp_saves<op> for every differentiable row). A rule that reads a value
// it did not declare gets NaN-filled stand-ins in the poisoned test run (tests/CMakeLists.txt,
// IVY_TAPE_POISON_STAND_INS), and its gradient tests fail there.
#define IVY_VJP_READS(op, inputs, outputs, ...)                                                    \
  template <> SavedValues vjp_saves<OpId::op>() { return SavedValues{inputs, outputs __VA_OPT__(, ) __VA_ARGS__}; } \
  IVY_VJP(op)
#define IVY_VJP(op) template <> void vjp_rule<OpId::op>(const VjpCall& c, std::span<Array> grads)
#define IVY_JVP(op) template <> void jvp_rule<OpId::op>(const JvpCall& c, std::span<Array> out_tangents)

// every row declares its specialization, so a rule may be defined in any rules_*.cpp
namespace ivy::autodiff {
#define IVY_OP(name, ...)                                                         \
  template <> void vjp_rule<OpId::name>(const VjpCall& c, std::span<Array> grads); \
  template <> SavedValues vjp_saves<OpId::name>();                                \
  template <> void jvp_rule<OpId::name>(const JvpCall& c, std::span<Array> out_tangents);
#include "ivy/ops.def"
#undef IVY_OP
}  // namespace ivy::autodiff

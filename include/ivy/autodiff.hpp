// Automatic differentiation over the primitives, on every backend.
//
// Reverse mode records the primitive calls a function makes on the arrays being
// differentiated (a tape: a DispatchObserver on this thread's stack), then walks them
// backwards, calling each primitive's VJP rule (src/autodiff/). The rules are written with
// ivy:: functions, so the backward pass runs on the arrays' backend, is itself observed by
// enclosing tapes and tracers, and can be differentiated again (grad(grad(f))).
//
// Conventions (docs/autodiff.md): gradients have the dtype and shape of their primal;
// primitives without kDifferentiable in ops.def (comparisons, integer results, indices,
// floor/ceil/round/sign, random) carry no gradient; abs'(0) = 0; maximum/minimum split a tie
// evenly between the two operands; where() sends the cotangent only to the selected branch
// (zero there; see docs/autodiff.md for the NaN trap); complex arrays follow JAX: a
// cotangent is dL/dRe - i dL/dIm, so grad of |z|^2 is 2 conj(z) and, for a holomorphic f,
// vjp_fn(1) is f'(z). (Inside, the rules work with the conjugate, dL/dRe + i dL/dIm.)
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "ivy/array.hpp"

namespace ivy {

using ArrayFn = std::function<Array(const Array&)>;
using ArraysFn = std::function<std::vector<Array>(const std::vector<Array>&)>;
using ArrayMap = std::map<std::string, Array>;

// A copy of x through which no gradient flows (a primitive: traced like any other).
Array stop_gradient(const Array& x);

// ---- reverse mode
// Called with a primal's index and its cotangent as soon as the backward walk has finished
// it (no later step adds to it), while the walk goes on: for work that overlaps the rest of
// the backward pass, such as ivy::distributed's gradient all-reduce.
using CotangentReady = std::function<void(std::size_t primal, const Array& cotangent)>;
struct VjpResult {
  std::vector<Array> outputs;
  // Cotangents of the outputs (one per output, same shapes and dtypes; an undefined Array
  // counts as zeros) -> cotangents of the primals (zeros where no gradient flows).
  std::function<std::vector<Array>(const std::vector<Array>&)> vjp_fn;
  // vjp_fn that also hands each primal's cotangent to `ready` once final (each primal once)
  std::function<std::vector<Array>(const std::vector<Array>&, const CotangentReady&)> vjp_streamed;
};
VjpResult vjp(const ArraysFn& f, const std::vector<Array>& primals);

// Gradient of a function with a 0-d real floating result.
std::function<Array(const Array&)> grad(ArrayFn f);
// holomorphic: f maps complex arguments to a 0-d complex result, and grad gives f'(z).
struct GradOptions {
  bool holomorphic = false;
};
std::function<Array(const Array&)> grad(ArrayFn f, GradOptions options);
std::function<std::pair<Array, Array>(const Array&)> value_and_grad(ArrayFn f);
// Several arguments: the gradients for the arguments named by argnums (in that order).
using MultiFn = std::function<Array(const std::vector<Array>&)>;
std::function<std::vector<Array>(const std::vector<Array>&)> grad(MultiFn f, std::vector<int> argnums);
std::function<std::pair<Array, std::vector<Array>>(const std::vector<Array>&)> value_and_grad(MultiFn f,
                                                                                              std::vector<int> argnums);
// A named structure of arrays (the paper's variables): gradients under the same names.
using MapFn = std::function<Array(const ArrayMap&)>;
std::function<ArrayMap(const ArrayMap&)> grad(MapFn f);

// The 2021 paper's call: the function's value and its gradients for every variable.
struct ValueAndGrads {
  Array value;
  ArrayMap grads;
};
ValueAndGrads execute_with_gradients(const MapFn& f, const ArrayMap& variables);

// ---- forward mode and derived transforms
// The outputs and J(primals) @ tangents for every output, in one forward pass with each
// primitive's JVP rule. Tangents have their primal's shape and dtype.
std::pair<std::vector<Array>, std::vector<Array>> jvp(const ArraysFn& f, const std::vector<Array>& primals,
                                                      const std::vector<Array>& tangents);
// Jacobian of f: R^{shape(x)} -> R^{shape(y)}, of shape shape(y) + shape(x).
std::function<Array(const Array&)> jacrev(ArrayFn f);
std::function<Array(const Array&)> jacfwd(ArrayFn f);
// Hessian of a function with a 0-d result: shape(x) + shape(x).
std::function<Array(const Array&)> hessian(ArrayFn f);

// A function with a user-supplied VJP: fwd computes the outputs, bwd maps (primals, outputs,
// output cotangents) to primal cotangents. Inside an enclosing transform the rule replaces
// differentiation through fwd's primitives.
using CustomBwd =
    std::function<std::vector<Array>(const std::vector<Array>&, const std::vector<Array>&, const std::vector<Array>&)>;
ArraysFn custom_vjp(ArraysFn fwd, CustomBwd bwd);

}  // namespace ivy

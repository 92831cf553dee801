// ONNX training operators of the domain ai.onnx.preview.training: the optimizer steps Adagrad,
// Adam and Momentum (standard and Nesterov). Each takes the learning rate R and the update
// count T (scalars), then N tensors X, their gradients G and the optimizer's state tensors,
// and returns the updated X's followed by the updated states. Written with ivy's public API
// only; the arithmetic runs in each X's dtype, the scalar schedule in float64.
#include <cstdint>
#include <string>
#include <vector>

#include "onnx_ops.hpp"

namespace ivy::onnx::detail {
namespace {

using Arrays = std::vector<Array>;

constexpr const char* kDomain = "ai.onnx.preview.training";

// R (a floating scalar) and T (an integer scalar), both 0-d float64; and the number of
// optimized tensors given `groups` tensors per X (X, G and the states).
struct Step {
  Array r, t;
  std::size_t count = 0;
};

Step read_step(const NodeInfo& n, const Arrays& in, std::size_t groups, const char* layout) {
  need_inputs(n, in, static_cast<int>(2 + groups), -1);
  if ((in.size() - 2) % groups != 0)
    n.fail("takes R, T and then " + std::string(layout) + " for each tensor, got " + std::to_string(in.size()) +
           " inputs");
  const Array &r = in[0], &t = in[1];
  if (!is_floating(r.dtype()) || is_complex(r.dtype()) || r.size() != 1)
    n.fail(std::string("R must be a floating scalar, got ") + dtype_name(r.dtype()) + " " + r.shape().str());
  if (!is_integer(t.dtype()) || t.size() != 1)
    n.fail(std::string("T must be an integer scalar, got ") + dtype_name(t.dtype()) + " " + t.shape().str());
  Step s;
  s.r = astype(reshape(r, Shape{}), float64);
  s.t = astype(reshape(t, Shape{}), float64);
  s.count = (in.size() - 2) / groups;
  return s;
}

// Input k of tensor i's group g (g = 0 for X, 1 for G, ...): defined, of X's shape and dtype.
const Array& member(const NodeInfo& n, const Arrays& in, const Step& s, std::size_t g, std::size_t i,
                    const char* what) {
  const Array& a = in[2 + g * s.count + i];
  const Array& x = in[2 + i];
  if (!a.defined()) n.fail(std::string(what) + std::to_string(i + 1) + " is absent");
  if (g == 0 && (!is_floating(x.dtype()) || is_complex(x.dtype())))
    n.fail("X" + std::to_string(i + 1) + " must be a real floating tensor, got " + dtype_name(x.dtype()));
  if (a.dtype() != x.dtype() || !(a.shape() == x.shape()))
    n.fail(std::string(what) + std::to_string(i + 1) + " is " + dtype_name(a.dtype()) + " " + a.shape().str() +
           ", X" + std::to_string(i + 1) + " " + dtype_name(x.dtype()) + " " + x.shape().str());
  return a;
}

// A float attribute the operator requires.
double need_f(const NodeInfo& n, const char* attr) {
  if (!n.has(attr)) n.fail(std::string("needs the attribute '") + attr + "'");
  return n.f(attr, 0.0);
}

// ---------------------------------------------------------------- Adagrad
// r = R / (1 + T decay_factor); G' = norm_coefficient X + G; H' = H + G'^2;
// X' = X - r G' / (sqrt(H') + epsilon). Outputs X'..., H'....
Arrays adagrad_op(const NodeInfo& n, const Arrays& in) {
  const Step s = read_step(n, in, 3, "X, G and H");
  const double decay = n.f("decay_factor", 0.0), eps = n.f("epsilon", 1e-6), norm = n.f("norm_coefficient", 0.0);
  const Array rate = s.r / (s.t * decay + 1.0);
  Arrays xs(s.count), hs(s.count);
  for (std::size_t i = 0; i < s.count; ++i) {
    const Array& x = member(n, in, s, 0, i, "X");
    const Array& g = member(n, in, s, 1, i, "G");
    const Array& h = member(n, in, s, 2, i, "H");
    Array gr = x * norm + g;
    hs[i] = h + gr * gr;
    xs[i] = x - astype(rate, x.dtype()) * gr / (sqrt(hs[i]) + eps);
  }
  xs.insert(xs.end(), hs.begin(), hs.end());
  return xs;
}

// ---------------------------------------------------------------- Momentum
// G' = norm_coefficient X + G; b = T > 0 ? beta : 1; V' = alpha V + b G';
// standard: X' = X - R V'; nesterov: X' = X - R (G' + alpha V'). Outputs X'..., V'....
Arrays momentum_op(const NodeInfo& n, const Arrays& in) {
  const Step s = read_step(n, in, 3, "X, G and V");
  const double alpha = need_f(n, "alpha"), beta = need_f(n, "beta"), norm = need_f(n, "norm_coefficient");
  if (!n.has("mode")) n.fail("needs the attribute 'mode'");
  const std::string mode = n.s("mode", "");
  if (mode != "standard" && mode != "nesterov")
    n.fail("mode must be \"standard\" or \"nesterov\", got \"" + mode + "\"");
  const Array b = where(s.t > 0, beta, 1.0);
  Arrays xs(s.count), vs(s.count);
  for (std::size_t i = 0; i < s.count; ++i) {
    const Array& x = member(n, in, s, 0, i, "X");
    const Array& g = member(n, in, s, 1, i, "G");
    const Array& v = member(n, in, s, 2, i, "V");
    const Array r = astype(s.r, x.dtype());
    Array gr = x * norm + g;
    vs[i] = v * alpha + astype(b, x.dtype()) * gr;
    xs[i] = mode == "standard" ? x - r * vs[i] : x - r * (gr + vs[i] * alpha);
  }
  xs.insert(xs.end(), vs.begin(), vs.end());
  return xs;
}

// ---------------------------------------------------------------- Adam
// G' = norm_coefficient X + G; V' = alpha V + (1 - alpha) G'; H' = beta H + (1 - beta) G'^2;
// r = T > 0 ? R sqrt(1 - beta^T) / (1 - alpha^T) : R; X' = (1 - norm_coefficient_post)
// (X - r V' / (sqrt(H') + epsilon)). Outputs X'..., V'..., H'....
Arrays adam_op(const NodeInfo& n, const Arrays& in) {
  const Step s = read_step(n, in, 4, "X, G, V and H");
  const double alpha = n.f("alpha", 0.9), beta = n.f("beta", 0.999), eps = n.f("epsilon", 1e-6);
  const double norm = n.f("norm_coefficient", 0.0), post = n.f("norm_coefficient_post", 0.0);
  // the bias correction, with T >= 1 in the formula so the unused branch stays finite
  const Array t1 = maximum(s.t, 1.0);
  const Array rate = where(s.t > 0, s.r * sqrt(1.0 - pow(beta, t1)) / (1.0 - pow(alpha, t1)), s.r);
  Arrays xs(s.count), vs(s.count), hs(s.count);
  for (std::size_t i = 0; i < s.count; ++i) {
    const Array& x = member(n, in, s, 0, i, "X");
    const Array& g = member(n, in, s, 1, i, "G");
    const Array& v = member(n, in, s, 2, i, "V");
    const Array& h = member(n, in, s, 3, i, "H");
    Array gr = x * norm + g;
    vs[i] = v * alpha + gr * (1.0 - alpha);
    hs[i] = h * beta + gr * gr * (1.0 - beta);
    Array step = x - astype(rate, x.dtype()) * (vs[i] / (sqrt(hs[i]) + eps));
    xs[i] = post == 0.0 ? step : step * (1.0 - post);
  }
  xs.insert(xs.end(), vs.begin(), vs.end());
  xs.insert(xs.end(), hs.begin(), hs.end());
  return xs;
}

}  // namespace

void add_training_ops(std::vector<OpEntry>& table) {
  const std::vector<OpEntry> ops = {
      {kDomain, "Adagrad", 1, adagrad_op},
      {kDomain, "Adam", 1, adam_op},
      {kDomain, "Momentum", 1, momentum_op},
  };
  table.insert(table.end(), ops.begin(), ops.end());
}

}  // namespace ivy::onnx::detail

// ivy::nn functions as compositions of ivy:: array functions (include/ivy/nn_functional.hpp).
// No backend code: every function runs on the inputs' backend, and ivy's autodiff
// differentiates it through the primitives used here (binary_cross_entropy alone supplies
// its own VJP, to give torch's clamped gradient).
//
// Recurring forms, each keeping gradients finite and torch's values at kinks:
//  - where(c, a, b) sends no cotangent to the unselected branch, but that branch's own
//    derivative still multiplies the zero (0 * inf = NaN), so a branch that can overflow or
//    hit log(0) gets a harmless input where it is not selected (docs/autodiff.md).
//  - -|x| as where(x >= 0, -x, x): derivative -1 at 0 (ivy's abs'(0) is 0), which keeps the
//    derivative of the two-sided stable forms (sigmoid, gelu's erfc, softplus(-x)) right at 0.
#include "ivy/nn_functional.hpp"

#include <cmath>
#include <limits>
#include <numbers>
#include <span>
#include <string>
#include <vector>

#include "ivy/autodiff.hpp"
#include "ivy/functional.hpp"

namespace ivy::nn {
namespace {

std::string P(const char* name) { return std::string("[nn.") + name + "] "; }
std::string num(double v) {
  std::string s = std::to_string(v);
  while (s.size() > 1 && s.back() == '0' && s[s.size() - 2] != '.') s.pop_back();
  return s;
}

// ---------------------------------------------------------------- validation helpers
void need_defined(const Array& x, const char* op, const char* what) {
  if (!x.defined()) throw ValueError(P(op) + what + " is undefined");
}
// x is defined and real floating.
void need_float(const Array& x, const char* op, const char* what) {
  need_defined(x, op, what);
  if (!is_real_floating(x.dtype()))
    throw TypeError(P(op) + what + " must have a real floating dtype, got " + dtype_name(x.dtype()));
}
void need_integer(const Array& x, const char* op, const char* what) {
  need_defined(x, op, what);
  if (!is_integer(x.dtype()))
    throw TypeError(P(op) + what + " must have an integer dtype, got " + dtype_name(x.dtype()));
}
// An optional array: absent, or defined with `ref`'s dtype.
void need_same_dtype_opt(const Array& a, const Array& ref, const char* op, const char* what) {
  if (!a.defined()) return;
  if (a.dtype() != ref.dtype())
    throw TypeError(P(op) + what + " must have the input's dtype " + dtype_name(ref.dtype()) + ", got " +
                    dtype_name(a.dtype()));
}
// An optional per-channel vector: absent, or [n] with ref's dtype.
void need_vector_opt(const Array& a, std::int64_t n, const Array& ref, const char* op, const char* what) {
  if (!a.defined()) return;
  need_same_dtype_opt(a, ref, op, what);
  if (!(a.shape() == Shape{n}))
    throw ValueError(P(op) + what + " must have shape " + Shape{n}.str() + ", got " + a.shape().str());
}
std::int64_t norm_axis(std::int64_t axis, std::int64_t rank, const char* op, const char* what, const Shape& shape) {
  if (axis < -rank || axis >= rank)
    throw IndexError(P(op) + what + " " + std::to_string(axis) + " is out of range for an array of shape " +
                     shape.str());
  return axis < 0 ? axis + rank : axis;
}
void need_real_finite(double v, const char* op, const char* what) {
  if (!std::isfinite(v)) throw ValueError(P(op) + what + " must be finite, got " + num(v));
}
// Elementwise losses: input and target of the same shape and real floating dtype.
void need_pair(const Array& input, const Array& target, const char* op) {
  need_float(input, op, "input");
  need_float(target, op, "target");
  if (!(input.shape() == target.shape()))
    throw ValueError(P(op) + "target shape " + target.shape().str() + " must equal the input shape " +
                     input.shape().str());
  if (input.dtype() != target.dtype())
    throw TypeError(P(op) + "target dtype " + dtype_name(target.dtype()) + " must equal the input dtype " +
                    dtype_name(input.dtype()));
}

// ---------------------------------------------------------------- reductions
const char* reduction_name(Reduction r) {
  switch (r) {
    case Reduction::None: return "None";
    case Reduction::Mean: return "Mean";
    case Reduction::Sum: return "Sum";
    case Reduction::BatchMean: return "BatchMean";
  }
  return "?";
}
void need_plain_reduction(Reduction r, const char* op) {
  if (r != Reduction::None && r != Reduction::Mean && r != Reduction::Sum)
    throw ValueError(P(op) + "reduction " + reduction_name(r) + " is not supported (None, Mean or Sum; BatchMean is "
                     "for kl_div)");
}
// Sum / count in loss's dtype; NaN for zero elements (0 / 0), as torch's mean of nothing.
Array mean_all(const Array& loss) {
  if (loss.size() > 0) return mean(loss);
  return sum(loss) / 0.0;
}
Array reduce(const Array& loss, Reduction r) {
  switch (r) {
    case Reduction::None: return loss;
    case Reduction::Sum: return sum(loss);
    default: return mean_all(loss);
  }
}

// A [1, .., n, .., 1] view of a per-channel vector for broadcasting against rank `rank`.
Array along(const Array& v, std::int64_t axis, std::int64_t rank) {
  Shape s;
  for (std::int64_t i = 0; i < rank; ++i) s.push_back(i == axis ? v.size() : 1);
  return reshape(v, s);
}

// -|x| with derivative -1 at x = 0 (for x >= 0 the branch -x is selected).
Array neg_abs(const Array& x, const Array& nonneg) { return where(nonneg, -x, x); }

// erfc(a) for a >= 0 as t exp(-a^2 + P(y)), t = 2 / (2 + a), y = 2t - 1 = (2 - a) / (2 + a),
// P a polynomial fitted to log(erfc(a) / t) + a^2 on y in [-1, 1] (a in [0, inf)) by
// tests/gen_nn_fixtures.py --erfc-fit (Chebyshev least squares at 40-digit precision,
// converted to monomials, highest degree first for Horner). Relative error for a <= 8:
// degree 22 about 2e-14 (float64; beyond, the rounding of a^2 dominates), degree 11 about
// 1e-8 (used below float64, half the operations). Relative, so the tails keep their
// accuracy: 0.5 erfc(|x| / sqrt 2) is Phi(-|x|).
constexpr double kErfcPoly64[] = {
    1.9357176209638298e-09,  -1.1815942977966713e-07, 1.5380889596575077e-07,  8.547470332485814e-07,
    -1.6994659738218904e-06, -2.3523522735989036e-06, 8.935610280766454e-06,   -4.072715953241037e-07,
    -3.0407582250789675e-05, 3.206636797462066e-05,   7.148842308029559e-05,   -0.00017442637525295448,
    -9.375809145511081e-05,  0.0006737091821062266,   -0.00014624299297911393, -0.0023458170667851864,
    0.0017589331743609847,   0.00882493893869743,     -0.009872689346826021,   -0.046895610245988734,
    0.04734330684152615,     0.6726432239778309,      -0.6717940840566862};
constexpr double kErfcPoly32[] = {
    -8.728380934451638e-05, 8.000738642115711e-06, 0.0005737663698240003, -0.0002279109671512035,
    -0.0022887652366580043, 0.001794066250707987,  0.008808825368661479,  -0.009880019324353626,
    -0.04689364055985729,   0.04734388761302736,   0.6726431547745393,    -0.6717940916807708};
Array erfc_nonneg(const Array& a) {
  const std::span<const double> c =
      a.dtype() == DType::float64 ? std::span<const double>(kErfcPoly64) : std::span<const double>(kErfcPoly32);
  Array den = a + 2.0;
  Array t = 2.0 / den;
  Array y = t * 2.0 - 1.0;
  Array p = y * c[0] + c[1];
  for (std::size_t k = 2; k < c.size(); ++k) p = p * y + c[k];
  return t * exp(p - a * a);
}

// Stable softplus(-x) = log(1 + e^-x) = log1p(e^-|x|) + max(-x, 0); derivative -sigmoid(x).
Array softplus_neg(const Array& x) {
  Array nonneg = x >= 0.0;
  Array nx = -x;
  return log1p(exp(where(nonneg, nx, x))) + where(nonneg, 0.0, nx);
}

// log_softmax core: x - max - log(sum(exp(x - max))), max without gradient.
Array log_softmax_impl(const Array& x, std::int64_t ax) {
  Array shifted = x - stop_gradient(max(x, ax, true));
  return shifted - log(sum(exp(shifted), ax, std::nullopt, true));
}

}  // namespace

// ---------------------------------------------------------------- activations
Array relu(const Array& x) {
  need_float(x, "relu", "x");
  // x <= 0 selects 0, so relu'(0) = 0 and NaN passes through (as torch).
  return where(x <= 0.0, 0.0, x);
}

Array leaky_relu(const Array& x, double negative_slope) {
  need_float(x, "leaky_relu", "x");
  need_real_finite(negative_slope, "leaky_relu", "negative_slope");
  return where(x > 0.0, x, x * negative_slope);  // slope at 0 is negative_slope (torch)
}

Array elu(const Array& x, double alpha) {
  need_float(x, "elu", "x");
  need_real_finite(alpha, "elu", "alpha");
  Array pos = x > 0.0;
  // expm1 sees min(x, 0) only, so a large x cannot overflow the unselected branch.
  return where(pos, x, expm1(where(pos, 0.0, x)) * alpha);
}

Array erf(const Array& x) {
  need_float(x, "erf", "x");
  const bool f64 = x.dtype() == DType::float64;
  Array a = abs(x);
  Array small = a < 0.5;
  // |x| < 0.5: the Maclaurin series (2 / sqrt(pi)) sum_k (-1)^k x^(2k+1) / (k! (2k+1)),
  // Horner in x^2, which keeps erf's relative accuracy near 0
  const int terms = f64 ? 13 : 8;
  std::vector<double> c(static_cast<std::size_t>(terms));
  double fact = 1;
  for (int k = 0; k < terms; ++k) {
    if (k > 0) fact *= k;
    c[static_cast<std::size_t>(k)] = (k % 2 ? -1.0 : 1.0) / (fact * (2 * k + 1));
  }
  Array z = where(small, x, 0.0);
  Array z2 = z * z;
  Array s = z2 * c[static_cast<std::size_t>(terms - 1)] + c[static_cast<std::size_t>(terms - 2)];
  for (int k = terms - 3; k >= 0; --k) s = s * z2 + c[static_cast<std::size_t>(k)];
  Array series = z * s * (2.0 / std::sqrt(std::numbers::pi));
  // elsewhere sign(x) (1 - erfc(|x|)) (inf gives 1; NaN stays NaN)
  Array tail = copysign(1.0 - erfc_nonneg(where(small, 1.0, a)), x);
  return where(small, series, tail);
}

Array gelu(const Array& x, bool approximate) {
  need_float(x, "gelu", "x");
  if (approximate) {
    const double k = std::sqrt(2.0 / std::numbers::pi);
    Array inner = (x + x * x * x * 0.044715) * k;
    return x * 0.5 * (tanh(inner) + 1.0);
  }
  // Phi(x) = 1 - h for x >= 0 and h for x < 0, h = erfc(|x| / sqrt 2) / 2: the small side is
  // always computed directly, so Phi keeps its relative accuracy in the left tail.
  Array nonneg = x >= 0.0;
  Array h = erfc_nonneg(-neg_abs(x, nonneg) * std::numbers::sqrt2 * 0.5) * 0.5;
  return x * where(nonneg, 1.0 - h, h);
}

Array sigmoid(const Array& x) {
  need_float(x, "sigmoid", "x");
  // e = exp(-|x|) <= 1: 1 / (1 + e) for x >= 0, e / (1 + e) for x < 0.
  Array nonneg = x >= 0.0;
  Array e = exp(neg_abs(x, nonneg));
  Array r = 1.0 / (e + 1.0);
  return where(nonneg, r, e * r);
}

Array silu(const Array& x) {
  need_float(x, "silu", "x");
  return x * sigmoid(x);
}

Array softplus(const Array& x, double beta, double threshold) {
  need_float(x, "softplus", "x");
  need_real_finite(beta, "softplus", "beta");
  if (beta == 0.0) throw ValueError(P("softplus") + "beta must be nonzero");
  if (std::isnan(threshold)) throw ValueError(P("softplus") + "threshold must not be NaN");
  Array bx = beta == 1.0 ? x : x * beta;
  Array linear = bx > threshold;
  // exp sees 0 where the linear branch is taken, so it cannot overflow there.
  Array soft = log1p(exp(where(linear, 0.0, bx)));
  if (beta != 1.0) soft = soft / beta;
  return where(linear, x, soft);
}

Array hard_sigmoid(const Array& x) {
  need_float(x, "hard_sigmoid", "x");
  // derivative 1/6 strictly inside (-3, 3), 0 at and beyond the kinks (torch)
  return where(x <= -3.0, 0.0, where(x >= 3.0, 1.0, (x + 3.0) / 6.0));
}

Array hardswish(const Array& x) {
  need_float(x, "hardswish", "x");
  // the middle branch covers [-3, 3): derivative -0.5 at -3 and 1 at 3, as torch's
  // vectorized CPU kernel (its scalar tail loop gives 1.5 at 3)
  return where(x < -3.0, 0.0, where(x < 3.0, x * (x + 3.0) / 6.0, x));
}

Array mish(const Array& x) {
  need_float(x, "mish", "x");
  return x * tanh(softplus(x));
}

Array softmax(const Array& x, std::int64_t axis) {
  need_float(x, "softmax", "x");
  if (x.ndim() == 0) {
    norm_axis(axis, 1, "softmax", "axis", x.shape());
    return reshape(softmax(reshape(x, Shape{1}), 0), Shape{});
  }
  const std::int64_t ax = norm_axis(axis, x.ndim(), "softmax", "axis", x.shape());
  if (x.size() == 0) return x * 1.0;
  Array e = exp(x - stop_gradient(max(x, ax, true)));
  return e / sum(e, ax, std::nullopt, true);
}

Array log_softmax(const Array& x, std::int64_t axis) {
  need_float(x, "log_softmax", "x");
  if (x.ndim() == 0) {
    norm_axis(axis, 1, "log_softmax", "axis", x.shape());
    return reshape(log_softmax(reshape(x, Shape{1}), 0), Shape{});
  }
  const std::int64_t ax = norm_axis(axis, x.ndim(), "log_softmax", "axis", x.shape());
  if (x.size() == 0) return x * 1.0;
  return log_softmax_impl(x, ax);
}

// ---------------------------------------------------------------- class-index losses
namespace {

// The class axis of [N, C, d...] (1) or of unbatched [C] (0).
std::int64_t class_axis_of(const Array& x) { return x.ndim() >= 2 ? 1 : 0; }

// Shape checks for class-index targets; returns C.
std::int64_t check_index_target(const Array& x, const Array& target, const char* op) {
  if (x.ndim() == 0) throw ValueError(P(op) + "input must have rank >= 1 ([N, C, ...] or [C]), got shape ()");
  need_integer(target, op, "class-index target");
  const std::int64_t cax = class_axis_of(x);
  Shape expect = x.shape();
  expect.erase(static_cast<std::size_t>(cax));
  if (!(target.shape() == expect))
    throw ValueError(P(op) + "target shape " + target.shape().str() + " does not match input shape " +
                     x.shape().str() + " without its class axis " + std::to_string(cax) + ": expected " +
                     expect.str());
  const std::int64_t C = x.shape()[static_cast<std::size_t>(cax)];
  return C;
}

// Throws IndexError when a target that is not ignore_index lies outside [0, C) (one host read).
void check_index_range(const Array& target, std::int64_t C, std::int64_t ignore_index, const char* op) {
  if (target.size() == 0) return;
  Array bad = logical_and(logical_or(target < std::int64_t{0}, target >= C), target != ignore_index);
  if (!any(bad).item<bool>()) return;
  std::vector<std::int64_t> v = target.to_vector<std::int64_t>();
  for (auto t : v)
    if ((t < 0 || t >= C) && t != ignore_index)
      throw IndexError(P(op) + "target class index " + std::to_string(t) + " is out of range [0, " +
                       std::to_string(C) + ") (and is not ignore_index " + std::to_string(ignore_index) + ")");
}

// The per-position pieces of nll: loss[N, d...] = -weight[t] logp[n, t, d...] (0 where ignored)
// and the Mean denominator sum(weight[t]) over the kept positions (their count without weights).
struct NllParts {
  Array loss, denom, valid;
};
NllParts nll_parts(const Array& logp, const Array& target, const Array& weight, std::int64_t ignore_index,
                   std::int64_t C) {
  const std::int64_t cax = class_axis_of(logp);
  const std::int64_t rank = logp.ndim();
  Array classes = along(arange(std::int64_t{0}, C, std::int64_t{1}, target.dtype(), target.device(), target.backend()),
                        cax, rank);
  Array t = expand_dims(target, cax);
  // One-hot mask of the targets over the class axis; an ignored target that is a valid
  // class is masked out explicitly (one outside [0, C) matches no class anyway).
  Array mask = equal(t, classes);
  Array valid = target != ignore_index;
  if (ignore_index >= 0 && ignore_index < C) mask = logical_and(mask, expand_dims(valid, cax));
  NllParts r;
  r.valid = valid;
  if (weight.defined()) {
    Array wb = along(weight, cax, rank);
    r.loss = -sum(where(mask, logp * wb, 0.0), cax);
    r.denom = sum(where(mask, wb, 0.0));
  } else {
    r.loss = -sum(where(mask, logp, 0.0), cax);
    r.denom = sum(astype(mask, logp.dtype()));
  }
  return r;
}

Array reduce_nll(const NllParts& p, Reduction r) {
  switch (r) {
    case Reduction::None: return p.loss;
    case Reduction::Sum: return sum(p.loss);
    default: return sum(p.loss) / p.denom;
  }
}

void check_class_weight(const Array& weight, const Array& x, std::int64_t C, const char* op) {
  if (!weight.defined()) return;
  need_float(weight, op, "weight");
  need_vector_opt(weight, C, x, op, "weight (one per class)");
}

}  // namespace

Array nll_loss(const Array& log_probs, const Array& target, const NllLossOptions& o) {
  const char* op = "nll_loss";
  need_float(log_probs, op, "input");
  need_plain_reduction(o.reduction, op);
  const std::int64_t C = check_index_target(log_probs, target, op);
  check_class_weight(o.weight, log_probs, C, op);
  check_index_range(target, C, o.ignore_index, op);
  return reduce_nll(nll_parts(log_probs, target, o.weight, o.ignore_index, C), o.reduction);
}
Array nll_loss(const Array& log_probs, const Array& target, const Array& weight, std::int64_t ignore_index,
               Reduction reduction) {
  return nll_loss(log_probs, target, NllLossOptions{weight, ignore_index, reduction});
}

Array cross_entropy(const Array& logits, const Array& target, const CrossEntropyOptions& o) {
  const char* op = "cross_entropy";
  need_float(logits, op, "input");
  need_defined(target, op, "target");
  need_plain_reduction(o.reduction, op);
  if (!(o.label_smoothing >= 0.0 && o.label_smoothing <= 1.0))
    throw ValueError(P(op) + "label_smoothing must be in [0, 1], got " + num(o.label_smoothing));
  if (logits.ndim() == 0) throw ValueError(P(op) + "input must have rank >= 1 ([N, C, ...] or [C]), got shape ()");
  const std::int64_t cax = class_axis_of(logits);
  const std::int64_t C = logits.shape()[static_cast<std::size_t>(cax)];
  const double eps = o.label_smoothing;

  if (is_real_floating(target.dtype())) {
    // class probabilities
    if (!(target.shape() == logits.shape()))
      throw ValueError(P(op) + "a floating (probability) target must have the input's shape " +
                       logits.shape().str() + ", got " + target.shape().str() +
                       " (class indices need an integer dtype)");
    if (target.dtype() != logits.dtype())
      throw TypeError(P(op) + "probability target dtype " + dtype_name(target.dtype()) +
                      " must equal the input dtype " + dtype_name(logits.dtype()));
    check_class_weight(o.weight, logits, C, op);
    Array logp = logits.size() ? log_softmax_impl(logits, cax) : logits * 1.0;
    Array tgt = eps > 0.0 ? target * (1.0 - eps) + eps / static_cast<double>(C) : target;
    if (o.weight.defined()) tgt = tgt * along(o.weight, cax, logits.ndim());
    Array loss = -sum(logp * tgt, cax);
    return reduce(loss, o.reduction);  // Mean: over the N * d1 * ... positions
  }
  if (!is_integer(target.dtype()))
    throw TypeError(P(op) + "target must hold class indices (integer dtype) or class probabilities (the input's "
                    "floating dtype), got " + dtype_name(target.dtype()));
  check_index_target(logits, target, op);
  check_class_weight(o.weight, logits, C, op);
  check_index_range(target, C, o.ignore_index, op);
  Array logp = logits.size() ? log_softmax_impl(logits, cax) : logits * 1.0;
  NllParts parts = nll_parts(logp, target, o.weight, o.ignore_index, C);
  if (eps == 0.0) return reduce_nll(parts, o.reduction);
  // Smoothing term per position: -sum_c weight_c logp_c, 0 at ignored positions; reduced
  // with nll's denominator (torch 1.13).
  Array lw = o.weight.defined() ? logp * along(o.weight, cax, logits.ndim()) : logp;
  Array smooth = where(parts.valid, -sum(lw, cax), 0.0);
  const double a = 1.0 - eps, b = eps / static_cast<double>(C);
  switch (o.reduction) {
    case Reduction::None: return parts.loss * a + smooth * b;
    case Reduction::Sum: return sum(parts.loss) * a + sum(smooth) * b;
    default: return (sum(parts.loss) * a + sum(smooth) * b) / parts.denom;
  }
}

// ---------------------------------------------------------------- binary losses
namespace {
// torch's clamped logs: max(log p, -100) and max(log(1 - p), -100), finite at p = 0 and 1
// (the log sees 1 where its result would be clamped away).
std::pair<Array, Array> clamped_logs(const Array& p) {
  const double lo = std::exp(-100.0);
  Array ok = p > lo;
  Array lp = where(ok, log(where(ok, p, 1.0)), -100.0);
  Array q = 1.0 - p;
  Array ok1 = q > lo;
  Array l1p = where(ok1, log1p(where(ok1, -p, 0.0)), -100.0);
  return {lp, l1p};
}

// Elementwise -(t log p + (1 - t) log(1 - p)) with torch's gradients (custom VJP):
// dp = g (p - t) / max(p (1 - p), 1e-12), dt = g (log(1 - p) - log p) with the clamped logs.
const ArraysFn& bce_elementwise() {
  static const ArraysFn f = custom_vjp(
      [](const std::vector<Array>& in) {
        auto [lp, l1p] = clamped_logs(in[0]);
        const Array& t = in[1];
        return std::vector<Array>{-(t * lp + (1.0 - t) * l1p)};
      },
      [](const std::vector<Array>& in, const std::vector<Array>&, const std::vector<Array>& cot) {
        const Array& p = in[0];
        const Array& t = in[1];
        auto [lp, l1p] = clamped_logs(p);
        Array dp = cot[0] * (p - t) / maximum(p * (1.0 - p), 1e-12);
        Array dt = cot[0] * (l1p - lp);
        return std::vector<Array>{dp, dt};
      });
  return f;
}

void need_broadcast_to(const Array& a, const Shape& target, const char* op, const char* what) {
  if (!a.defined()) return;
  Shape b;
  try {
    b = broadcast_shapes(a.shape(), target, op);
  } catch (const Error&) {
    b = Shape{-1};
  }
  if (!(b == target))
    throw ValueError(P(op) + what + " of shape " + a.shape().str() + " does not broadcast to the input shape " +
                     target.str());
}
}  // namespace

Array binary_cross_entropy(const Array& p, const Array& target, const Array& weight, Reduction reduction) {
  const char* op = "binary_cross_entropy";
  need_pair(p, target, op);
  need_plain_reduction(reduction, op);
  if (weight.defined()) {
    need_float(weight, op, "weight");
    need_same_dtype_opt(weight, p, op, "weight");
    need_broadcast_to(weight, p.shape(), op, "weight");
  }
  Array loss = bce_elementwise()({p, target})[0];
  if (weight.defined()) loss = loss * weight;
  return reduce(loss, reduction);
}

Array binary_cross_entropy_with_logits(const Array& logits, const Array& target, const BceWithLogitsOptions& o) {
  const char* op = "binary_cross_entropy_with_logits";
  need_pair(logits, target, op);
  need_plain_reduction(o.reduction, op);
  for (auto [a, what] : {std::pair{&o.weight, "weight"}, std::pair{&o.pos_weight, "pos_weight"}}) {
    if (!a->defined()) continue;
    need_float(*a, op, what);
    need_same_dtype_opt(*a, logits, op, what);
    need_broadcast_to(*a, logits.shape(), op, what);
  }
  // (1 - t) x + lw softplus(-x), lw = 1 + (pos_weight - 1) t
  Array sp = softplus_neg(logits);
  Array lin = (1.0 - target) * logits;
  Array loss = o.pos_weight.defined() ? lin + ((o.pos_weight - 1.0) * target + 1.0) * sp : lin + sp;
  if (o.weight.defined()) loss = loss * o.weight;
  return reduce(loss, o.reduction);
}
Array binary_cross_entropy_with_logits(const Array& logits, const Array& target, const Array& weight,
                                       const Array& pos_weight, Reduction reduction) {
  return binary_cross_entropy_with_logits(logits, target, BceWithLogitsOptions{weight, pos_weight, reduction});
}

// ---------------------------------------------------------------- regression losses
Array mse_loss(const Array& input, const Array& target, Reduction reduction) {
  need_pair(input, target, "mse_loss");
  need_plain_reduction(reduction, "mse_loss");
  return reduce(square(input - target), reduction);
}

Array l1_loss(const Array& input, const Array& target, Reduction reduction) {
  need_pair(input, target, "l1_loss");
  need_plain_reduction(reduction, "l1_loss");
  return reduce(abs(input - target), reduction);  // abs'(0) = 0, torch's sign(0)
}

Array huber_loss(const Array& input, const Array& target, double delta, Reduction reduction) {
  need_pair(input, target, "huber_loss");
  need_plain_reduction(reduction, "huber_loss");
  if (!(delta > 0.0) || !std::isfinite(delta))
    throw ValueError(P("huber_loss") + "delta must be positive and finite, got " + num(delta));
  Array d = input - target;
  Array ad = abs(d);
  return reduce(where(ad < delta, square(d) * 0.5, (ad - 0.5 * delta) * delta), reduction);
}

Array smooth_l1_loss(const Array& input, const Array& target, double beta, Reduction reduction) {
  need_pair(input, target, "smooth_l1_loss");
  need_plain_reduction(reduction, "smooth_l1_loss");
  if (!(beta >= 0.0) || !std::isfinite(beta))
    throw ValueError(P("smooth_l1_loss") + "beta must be >= 0 and finite, got " + num(beta));
  Array d = input - target;
  Array ad = abs(d);
  // beta 0: l1_loss, derivative 0 at d = 0 (torch's kernel gives -1 there, to the input and
  // to the target alike, which no function of input - target has)
  if (beta == 0.0) return reduce(ad, reduction);
  return reduce(where(ad < beta, square(d) * (0.5 / beta), ad - 0.5 * beta), reduction);
}

Array kl_div(const Array& input, const Array& target, Reduction reduction, bool log_target) {
  need_pair(input, target, "kl_div");
  Array loss;
  if (log_target) {
    loss = exp(target) * (target - input);
  } else {
    // xlogy(t, t) = 0 where t == 0 (log sees 1 there, so its derivative stays finite)
    Array nz = target != 0.0;
    loss = where(nz, target * log(where(nz, target, 1.0)), 0.0) - target * input;
  }
  if (reduction == Reduction::BatchMean) {
    if (input.ndim() == 0) return sum(loss);
    return sum(loss) / static_cast<double>(input.shape()[0]);
  }
  return reduce(loss, reduction);
}

// ---------------------------------------------------------------- normalization
namespace {
// The channel axis of a norm's input [N, C, ...] / [N, ..., C]: never the batch axis 0.
std::int64_t channel_axis_of(const Array& x, std::int64_t channel_axis, std::int64_t min_rank, const char* op) {
  if (x.ndim() < min_rank)
    throw ValueError(P(op) + "input must have rank >= " + std::to_string(min_rank) + ", got shape " +
                     x.shape().str());
  const std::int64_t ch = norm_axis(channel_axis, x.ndim(), op, "channel_axis", x.shape());
  if (ch == 0) throw ValueError(P(op) + "channel_axis must not be the batch axis 0 (shape " + x.shape().str() + ")");
  return ch;
}

// (x - mean) / sqrt(var + eps) * weight + bias, with the small per-channel factor
// 1 / sqrt(var + eps) * weight formed before touching x.
Array normalize(const Array& x, const Array& mean, const Array& var, double eps, const Array& w, const Array& b) {
  Array scale = 1.0 / sqrt(var + eps);
  if (w.defined()) scale = scale * w;
  Array y = (x - mean) * scale;
  return b.defined() ? y + b : y;
}

void check_running(const Array& rm, const Array& rv, std::int64_t C, const Array& x, const char* op) {
  if (rm.defined() != rv.defined())
    throw ValueError(P(op) + "running_mean and running_var must both be given or both be absent");
  need_vector_opt(rm, C, x, op, "running_mean");
  need_vector_opt(rv, C, x, op, "running_var");
}
void check_affine(const Array& w, const Array& b, std::int64_t C, const Array& x, const char* op) {
  need_vector_opt(w, C, x, op, "weight");
  need_vector_opt(b, C, x, op, "bias");
}
void check_momentum_eps(double momentum, double eps, const char* op) {
  if (!std::isfinite(momentum)) throw ValueError(P(op) + "momentum must be finite, got " + num(momentum));
  if (!(eps >= 0.0) || !std::isfinite(eps)) throw ValueError(P(op) + "eps must be >= 0 and finite, got " + num(eps));
}
// running (1 - m) + stat m, without gradient.
Array blend(const Array& running, const Array& stat, double m) {
  return stop_gradient(stop_gradient(running) * (1.0 - m) + stop_gradient(stat) * m);
}
}  // namespace

NormResult batch_norm(const Array& x, const Array& running_mean, const Array& running_var, const Array& weight,
                      const Array& bias, bool training, double momentum, double eps, std::int64_t channel_axis) {
  const char* op = "batch_norm";
  need_float(x, op, "input");
  const std::int64_t ch = channel_axis_of(x, channel_axis, 2, op);
  const std::int64_t C = x.shape()[static_cast<std::size_t>(ch)];
  check_running(running_mean, running_var, C, x, op);
  check_affine(weight, bias, C, x, op);
  check_momentum_eps(momentum, eps, op);
  const std::int64_t rank = x.ndim();
  const bool has_running = running_mean.defined();
  if (x.size() == 0) return {x * 1.0, running_mean, running_var};  // torch: nothing to normalize or update
  Dims axes;
  for (std::int64_t i = 0; i < rank; ++i)
    if (i != ch) axes.push_back(i);
  const std::int64_t n = x.size() / C;  // values per channel
  Array w = weight.defined() ? along(weight, ch, rank) : Array();
  Array b = bias.defined() ? along(bias, ch, rank) : Array();
  if (!training && has_running) {
    Array out = normalize(x, along(stop_gradient(running_mean), ch, rank), along(stop_gradient(running_var), ch, rank),
                          eps, w, b);
    return {out, running_mean, running_var};
  }
  if (training && n <= 1)
    throw ValueError(P(op) + "expected more than 1 value per channel when training, got input shape " +
                     x.shape().str());
  Array mu = mean(x, axes, true);
  Array var_b = var(x, axes, 0.0, true);  // biased: normalizes
  Array out = normalize(x, mu, var_b, eps, w, b);
  if (!(training && has_running)) return {out, running_mean, running_var};
  // running statistics: the unbiased variance n / (n - 1) var_b
  Array bm = reshape(mu, Shape{C});
  Array bv = reshape(var_b, Shape{C}) * (static_cast<double>(n) / static_cast<double>(n - 1));
  return {out, blend(running_mean, bm, momentum), blend(running_var, bv, momentum)};
}

Array layer_norm(const Array& x, const Dims& normalized_shape, const Array& weight, const Array& bias, double eps) {
  const char* op = "layer_norm";
  need_float(x, op, "input");
  const std::int64_t k = static_cast<std::int64_t>(normalized_shape.size());
  if (k == 0) throw ValueError(P(op) + "normalized_shape must not be empty");
  bool match = x.ndim() >= k;
  for (std::int64_t i = 0; match && i < k; ++i)
    match = x.shape()[static_cast<std::size_t>(x.ndim() - k + i)] == normalized_shape[static_cast<std::size_t>(i)];
  if (!match)
    throw ValueError(P(op) + "normalized_shape " + normalized_shape.str() + " must equal the last axes of the input " +
                     "shape " + x.shape().str());
  for (auto [a, what] : {std::pair{&weight, "weight"}, std::pair{&bias, "bias"}}) {
    if (!a->defined()) continue;
    need_same_dtype_opt(*a, x, op, what);
    if (!(a->shape() == normalized_shape))
      throw ValueError(P(op) + what + " must have shape normalized_shape " + normalized_shape.str() + ", got " +
                       a->shape().str());
  }
  if (!(eps >= 0.0) || !std::isfinite(eps)) throw ValueError(P(op) + "eps must be >= 0 and finite, got " + num(eps));
  if (x.size() == 0) return x * 1.0;
  Array y;
  if (x.dtype() == float32 || x.dtype() == float64) {
    // the layer_norm primitive: y, and the mean and rstd that its gradient reads
    attr::layer_norm v;
    v.axis = x.ndim() - k;
    v.eps = eps;
    y = dispatch_multi(OpId::layer_norm, std::span<const Array>(&x, 1), v)[0];
  } else {  // float16 and bfloat16: composed in the input's dtype
    Dims axes;
    for (std::int64_t i = x.ndim() - k; i < x.ndim(); ++i) axes.push_back(i);
    Array mu = mean(x, axes, true);
    y = (x - mu) * (1.0 / sqrt(var(x, axes, 0.0, true) + eps));
  }
  if (weight.defined()) y = y * weight;
  return bias.defined() ? y + bias : y;
}

Array group_norm(const Array& x, std::int64_t num_groups, const Array& weight, const Array& bias, double eps,
                 std::int64_t channel_axis) {
  const char* op = "group_norm";
  need_float(x, op, "input");
  const std::int64_t ch = channel_axis_of(x, channel_axis, 2, op);
  const std::int64_t C = x.shape()[static_cast<std::size_t>(ch)];
  if (num_groups <= 0 || C % num_groups != 0)
    throw ValueError(P(op) + "num_groups (" + std::to_string(num_groups) + ") must be positive and divide the " +
                     std::to_string(C) + " channels of input shape " + x.shape().str());
  check_affine(weight, bias, C, x, op);
  check_momentum_eps(0.0, eps, op);
  if (x.size() == 0) return x * 1.0;
  // [.., C, ..] -> [.., G, C/G, ..]; statistics over every axis but the batch and group axes
  Shape split;
  for (std::int64_t i = 0; i < x.ndim(); ++i) {
    if (i == ch) {
      split.push_back(num_groups);
      split.push_back(C / num_groups);
    } else {
      split.push_back(x.shape()[static_cast<std::size_t>(i)]);
    }
  }
  Dims axes;
  for (std::int64_t i = 1; i < static_cast<std::int64_t>(split.size()); ++i)
    if (i != ch) axes.push_back(i);
  Array xs = reshape(x, split);
  Array mu = mean(xs, axes, true);
  Array y = reshape((xs - mu) * (1.0 / sqrt(var(xs, axes, 0.0, true) + eps)), x.shape());
  if (weight.defined()) y = y * along(weight, ch, x.ndim());
  return bias.defined() ? y + along(bias, ch, x.ndim()) : y;
}

NormResult instance_norm(const Array& x, const Array& running_mean, const Array& running_var, const Array& weight,
                         const Array& bias, bool use_input_stats, double momentum, double eps,
                         std::int64_t channel_axis) {
  const char* op = "instance_norm";
  need_float(x, op, "input");
  const std::int64_t ch = channel_axis_of(x, channel_axis, 3, op);
  const std::int64_t rank = x.ndim();
  const std::int64_t C = x.shape()[static_cast<std::size_t>(ch)];
  check_running(running_mean, running_var, C, x, op);
  check_affine(weight, bias, C, x, op);
  check_momentum_eps(momentum, eps, op);
  const bool has_running = running_mean.defined();
  if (!use_input_stats && !has_running)
    throw ValueError(P(op) + "use_input_stats = false needs running_mean and running_var");
  if (x.size() == 0) return {x * 1.0, running_mean, running_var};
  Array w = weight.defined() ? along(weight, ch, rank) : Array();
  Array b = bias.defined() ? along(bias, ch, rank) : Array();
  if (!use_input_stats) {
    Array out = normalize(x, along(stop_gradient(running_mean), ch, rank), along(stop_gradient(running_var), ch, rank),
                          eps, w, b);
    return {out, running_mean, running_var};
  }
  const std::int64_t N = x.shape()[0];
  const std::int64_t s = x.size() / (N * C);  // spatial elements per instance
  if (s <= 1)
    throw ValueError(P(op) + "expected more than 1 spatial element when using input statistics, got input shape " +
                     x.shape().str());
  Dims axes;
  for (std::int64_t i = 1; i < rank; ++i)
    if (i != ch) axes.push_back(i);
  Array mu = mean(x, axes, true);
  Array var_b = var(x, axes, 0.0, true);
  Array out = normalize(x, mu, var_b, eps, w, b);
  if (!has_running) return {out, running_mean, running_var};
  // the batch mean of the per-instance statistics (variance unbiased), as torch
  Array bm = reshape(mean(mu, 0), Shape{C});
  Array bv = reshape(mean(var_b, 0), Shape{C}) * (static_cast<double>(s) / static_cast<double>(s - 1));
  return {out, blend(running_mean, bm, momentum), blend(running_var, bv, momentum)};
}

// ---------------------------------------------------------------- dropout
namespace {
// A 32-bit integer hash (xor-shift / multiply rounds, constants from the "lowbias32" family)
// of the values in [0, 2^32) an int64 array holds; the host version seeds it.
constexpr std::uint32_t kHashM1 = 0x7feb352dU, kHashM2 = 0x846ca68bU;
std::uint32_t hash32(std::uint32_t a) {
  a ^= a >> 16;
  a *= kHashM1;
  a ^= a >> 15;
  a *= kHashM2;
  a ^= a >> 16;
  return a;
}
// a * c mod 2^32 for int64 a in [0, 2^32) without int64 overflow: split a into 16-bit halves,
// a c = lo c + (hi c mod 2^16) 2^16 (mod 2^32), every product below 2^48.
Array mul32(const Array& a, std::uint32_t c) {
  const auto cc = static_cast<std::int64_t>(c);
  Array lo = (a & std::int64_t{0xFFFF}) * cc;
  Array hi = (((a >> std::int64_t{16}) * cc) & std::int64_t{0xFFFF}) << std::int64_t{16};
  return (lo + hi) & std::int64_t{0xFFFFFFFF};
}
Array hash32(const Array& x) {
  Array a = x ^ (x >> std::int64_t{16});
  a = mul32(a, kHashM1);
  a = a ^ (a >> std::int64_t{15});
  a = mul32(a, kHashM2);
  return a ^ (a >> std::int64_t{16});
}
// The kept elements' mask from the seed: element i is kept when the top 24 bits of
// hash(hash(i_lo ^ k0) ^ i_hi ^ k1) are >= ceil(p 2^24) (probability 1 - p to 2^-24).
Array seeded_keep(const Array& x, double p, std::uint64_t seed) {
  const std::int64_t k0 = hash32(static_cast<std::uint32_t>(seed));
  const std::int64_t k1 = hash32(static_cast<std::uint32_t>(seed >> 32) ^ 0x9e3779b9U);
  const std::int64_t n = x.size();
  Array idx = arange(std::int64_t{0}, n, std::int64_t{1}, DType::int64, x.device(), x.backend());
  Array lo = n > (std::int64_t{1} << 32) ? (idx & std::int64_t{0xFFFFFFFF}) : idx;
  Array h = hash32(lo ^ k0);
  h = n > (std::int64_t{1} << 32) ? (h ^ (idx >> std::int64_t{32})) : h;
  h = hash32(h ^ k1);
  const auto threshold = static_cast<std::int64_t>(std::ceil(p * 16777216.0));
  return reshape((h >> std::int64_t{8}) >= threshold, x.shape());
}
}  // namespace

Array dropout(const Array& x, double p, bool training, std::optional<std::uint64_t> seed) {
  need_float(x, "dropout", "x");
  if (!(p >= 0.0 && p <= 1.0)) throw ValueError(P("dropout") + "p must be in [0, 1], got " + num(p));
  if (!training || p == 0.0) return x;
  if (p == 1.0) return x * 0.0;
  Array keep = seed ? seeded_keep(x, p, *seed)
                    : random_uniform(0.0, 1.0, x.shape(), x.dtype(), x.device(), x.backend()) >= p;
  // the scaled mask is built from the random draw only: a constant for autodiff
  return x * (astype(keep, x.dtype()) * (1.0 / (1.0 - p)));
}

// ---------------------------------------------------------------- embedding, one_hot
Array embedding(const Array& indices, const Array& weight) {
  const char* op = "embedding";
  need_integer(indices, op, "indices");
  need_float(weight, op, "weight");
  if (weight.ndim() != 2)
    throw ValueError(P(op) + "weight must be [num_embeddings, embedding_dim], got shape " + weight.shape().str());
  const std::int64_t n = weight.shape()[0];
  if (indices.size() > 0 && any(logical_or(indices < std::int64_t{0}, indices >= n)).item<bool>()) {
    const auto lo = min(indices).item<std::int64_t>(), hi = max(indices).item<std::int64_t>();
    throw IndexError(P(op) + "indices must lie in [0, " + std::to_string(n) + "), got values in [" +
                     std::to_string(lo) + ", " + std::to_string(hi) + "]");
  }
  return take(weight, indices, 0);
}

Array one_hot(const Array& indices, std::int64_t num_classes, DType dtype) {
  const char* op = "one_hot";
  need_integer(indices, op, "indices");
  if (num_classes < -1) throw ValueError(P(op) + "num_classes must be -1 or >= 0, got " + std::to_string(num_classes));
  std::int64_t C = num_classes;
  if (indices.size() > 0) {
    const auto lo = min(indices).item<std::int64_t>(), hi = max(indices).item<std::int64_t>();
    if (C == -1) C = hi + 1;
    if (lo < 0 || hi >= C)
      throw IndexError(P(op) + "indices must lie in [0, " + std::to_string(C) + "), got values in [" +
                       std::to_string(lo) + ", " + std::to_string(hi) + "]");
  } else if (C == -1) {
    throw ValueError(P(op) + "cannot infer num_classes from empty indices");
  }
  Array classes = arange(std::int64_t{0}, C, std::int64_t{1}, indices.dtype(), indices.device(), indices.backend());
  Array m = equal(expand_dims(indices, -1), classes);
  return dtype == DType::bool_ ? m : astype(m, dtype);
}

}  // namespace ivy::nn

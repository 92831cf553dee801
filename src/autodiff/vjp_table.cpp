// The VJP and JVP rule tables, indexed by primitive, filled from ops.def: &vjp_rule<op> and
// &jvp_rule<op> for every row with kDifferentiable (a missing rule fails the link), nullptr
// for the others.
#include "autodiff/rules.hpp"

namespace ivy::autodiff {
namespace {
template <OpId op, bool differentiable>
constexpr VjpRule rule_entry() {
  if constexpr (differentiable) return &vjp_rule<op>;
  else return nullptr;
}
template <OpId op, bool differentiable>
constexpr JvpRule jvp_entry() {
  if constexpr (differentiable) return &jvp_rule<op>;
  else return nullptr;
}
constexpr VjpRule kRules[] = {
#define IVY_OP(name, nin, nout, meta, kinds, props, attrs) \
  rule_entry<OpId::name, ((props) & kDifferentiable) != 0>(),
#include "ivy/ops.def"
#undef IVY_OP
};
static_assert(sizeof(kRules) / sizeof(kRules[0]) == kNumOps);
constexpr JvpRule kJvpRules[] = {
#define IVY_OP(name, nin, nout, meta, kinds, props, attrs) \
  jvp_entry<OpId::name, ((props) & kDifferentiable) != 0>(),
#include "ivy/ops.def"
#undef IVY_OP
};
static_assert(sizeof(kJvpRules) / sizeof(kJvpRules[0]) == kNumOps);
}  // namespace

VjpRule vjp_rule_of(OpId op) { return kRules[static_cast<int>(op)]; }

// Read off the rules in rules_*.cpp; a rule that starts reading a value must be listed here
// (its gradient tests then fail on the zero stand-ins otherwise). Unlisted: everything kept.
SavedValues saved_values_of(OpId op) {
  constexpr std::uint64_t none = 0, all = ~std::uint64_t{0}, first = 1, second = 2;
  switch (op) {
    // the cotangent passed or moved: nothing of the primals (the tape fits the result)
    case OpId::add: case OpId::subtract: case OpId::negative: case OpId::positive: case OpId::conj:
    case OpId::real: case OpId::astype: case OpId::broadcast_to: case OpId::permute_dims: case OpId::flip:
    case OpId::roll: case OpId::tril: case OpId::triu:
      return {none, none, false};
    // the cotangent moved or summed by the primals' shapes
    case OpId::imag: case OpId::reshape: case OpId::tile: case OpId::repeat:
    case OpId::concat: case OpId::strided_slice: case OpId::slice_update: case OpId::diagonal:
    case OpId::sum: case OpId::mean: case OpId::cumulative_sum:
    case OpId::fft_c2c: case OpId::fft_r2c: case OpId::fft_c2r:
      return {none, none};
    // derivatives written with the result
    case OpId::exp: case OpId::expm1: case OpId::sqrt: case OpId::tan: case OpId::tanh: case OpId::reciprocal:
    case OpId::cholesky: case OpId::inv: case OpId::eig: case OpId::eigh: case OpId::svd:
      return {none, all};
    case OpId::max_pool: return {none, second};  // the argmax indices
    // the index input (or the condition) only
    case OpId::where: return {first, none};
    case OpId::take: case OpId::take_along_axis: case OpId::index_put_flat: case OpId::scatter_add_flat:
      return {second, none};
    case OpId::divide: return {second, all};  // g / x2, and the quotient for x2's cotangent
    case OpId::solve: return {first, all};    // A; of B only its rank
    case OpId::slogdet: return {all, first};  // the sign (complex); never logabsdet
    // the other operand, and the outputs that the rules below do not read
    case OpId::multiply: case OpId::matmul: case OpId::conv: case OpId::conv_transpose: case OpId::conv_weight_grad:
    case OpId::acos: case OpId::acosh: case OpId::asin: case OpId::asinh: case OpId::atan: case OpId::atanh:
    case OpId::atan2: case OpId::copysign: case OpId::cos: case OpId::cosh: case OpId::sin: case OpId::sinh:
    case OpId::log: case OpId::log1p: case OpId::log2: case OpId::log10: case OpId::square: case OpId::maximum:
    case OpId::minimum: case OpId::remainder: case OpId::prod: case OpId::var: case OpId::sort:
    case OpId::eigvals: case OpId::eigvalsh: case OpId::svdvals:
      return {all, none};
    default:
      return {all, all};
  }
}
JvpRule jvp_rule_of(OpId op) { return kJvpRules[static_cast<int>(op)]; }

Array tan_or_zeros(const JvpCall& c, int i) {
  const Array& t = c.tan[static_cast<std::size_t>(i)];
  return t.defined() ? t : zeros_like(c.in[static_cast<std::size_t>(i)]);
}

Array cot_or_zeros(const VjpCall& c, int k) {
  const Array& g = c.cot[static_cast<std::size_t>(k)];
  return g.defined() ? g : zeros_like(c.out[static_cast<std::size_t>(k)]);
}

Array unbroadcast(const Array& x, const Shape& shape) {
  if (x.shape() == shape) return x;
  const std::int64_t lead = x.ndim() - static_cast<std::int64_t>(shape.size());
  Dims axes;
  for (std::int64_t i = 0; i < x.ndim(); ++i)
    if (i < lead || (shape[static_cast<std::size_t>(i - lead)] == 1 && x.shape()[static_cast<std::size_t>(i)] != 1))
      axes.push_back(i);
  Array s = axes.empty() ? x : sum(x, AxisArg(axes), std::nullopt, true);
  return reshape(s, shape);
}

Shape keepdims_shape(const Shape& s, bool has_axes, const Dims& axes) {
  Shape k = s;
  for (std::size_t i = 0; i < k.size(); ++i)
    if (!has_axes || std::find(axes.begin(), axes.end(), static_cast<std::int64_t>(i)) != axes.end()) k[i] = 1;
  return k;
}

}  // namespace ivy::autodiff

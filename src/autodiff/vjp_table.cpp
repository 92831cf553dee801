// The VJP and JVP rule tables, indexed by primitive, filled from ops.def: &vjp_rule<op>,
// &vjp_saves<op> and &jvp_rule<op> for every row with kDifferentiable (a missing rule or
// declaration fails the link), nullptr for the others.
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
using SavesEntry = SavedValues (*)();
template <OpId op, bool differentiable>
constexpr SavesEntry saves_entry() {
  if constexpr (differentiable) return &vjp_saves<op>;
  else return nullptr;
}
constexpr SavesEntry kSaves[] = {
#define IVY_OP(name, nin, nout, meta, kinds, props, attrs) \
  saves_entry<OpId::name, ((props) & kDifferentiable) != 0>(),
#include "ivy/ops.def"
#undef IVY_OP
};
static_assert(sizeof(kSaves) / sizeof(kSaves[0]) == kNumOps);
}  // namespace

VjpRule vjp_rule_of(OpId op) { return kRules[static_cast<int>(op)]; }

SavedValues saved_values_of(OpId op) {
  const SavesEntry e = kSaves[static_cast<int>(op)];
  return e ? e() : SavedValues{};
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

Shape keepdims_shape(const Shape& s, const std::optional<Dims>& axes) {
  Shape k = s;
  for (std::size_t i = 0; i < k.size(); ++i)
    if (!axes || std::find(axes->begin(), axes->end(), static_cast<std::int64_t>(i)) != axes->end()) k[i] = 1;
  return k;
}

}  // namespace ivy::autodiff

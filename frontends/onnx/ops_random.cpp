// ONNX's random operators over ivy's random primitives: RandomUniform, RandomNormal, their
// *Like forms, and Bernoulli. Their draws come from the backend's generator (the `seed`
// attribute is accepted and not used: ivy seeds per backend with ivy::seed), so only the
// shape, dtype and distribution match ONNX's, as ONNX's own test runner checks them.
#include <cstdint>
#include <vector>

#include "onnx_ops.hpp"

namespace ivy::onnx::detail {
namespace {

using Arrays = std::vector<Array>;

// The dtype attribute (a TensorProto code), or `def` when absent; random values need a
// floating dtype.
DType random_dtype(const NodeInfo& n, DType def) {
  const DType d = n.has("dtype") ? dtype_of_code(n, n.i("dtype")) : def;
  if (!is_real_floating(d)) n.fail(std::string("draws need a floating dtype, got ") + dtype_name(d));
  return d;
}

Shape shape_attr(const NodeInfo& n) {
  Shape s;
  for (auto d : n.ints("shape")) {
    if (d < 0) n.fail("shape " + std::to_string(d) + " is negative");
    s.push_back(d);
  }
  return s;
}

Array uniform(const NodeInfo& n, const Shape& s, DType d, Backend b) {
  const double lo = n.f("low", 0.0), hi = n.f("high", 1.0);
  if (!(lo <= hi)) n.fail("low " + std::to_string(lo) + " is above high " + std::to_string(hi));
  return random_uniform(lo, hi, s, d, Device{}, b);
}
Array normal(const NodeInfo& n, const Shape& s, DType d, Backend b) {
  const double mean = n.f("mean", 0.0), scale = n.f("scale", 1.0);
  if (!(scale >= 0)) n.fail("scale " + std::to_string(scale) + " is negative");
  return random_normal(mean, scale, s, d, Device{}, b);
}

Arrays op_random_uniform(const NodeInfo& n, const Arrays& in) {
  need_inputs(n, in, 0, 0);
  return {uniform(n, shape_attr(n), random_dtype(n, DType::float32), Backend{})};
}
Arrays op_random_normal(const NodeInfo& n, const Arrays& in) {
  need_inputs(n, in, 0, 0);
  return {normal(n, shape_attr(n), random_dtype(n, DType::float32), Backend{})};
}
Arrays op_random_uniform_like(const NodeInfo& n, const Arrays& in) {
  need_inputs(n, in, 1, 1);
  const DType d = random_dtype(n, is_real_floating(in[0].dtype()) ? in[0].dtype() : DType::float32);
  return {uniform(n, in[0].shape(), d, in[0].backend())};
}
Arrays op_random_normal_like(const NodeInfo& n, const Arrays& in) {
  need_inputs(n, in, 1, 1);
  const DType d = random_dtype(n, is_real_floating(in[0].dtype()) ? in[0].dtype() : DType::float32);
  return {normal(n, in[0].shape(), d, in[0].backend())};
}
// Bernoulli: 1 where a uniform draw falls below the input's probability, in `dtype` (default:
// the input's).
Arrays op_bernoulli(const NodeInfo& n, const Arrays& in) {
  need_inputs(n, in, 1, 1);
  const Array& p = in[0];
  if (!is_real_floating(p.dtype())) n.fail(std::string("probabilities must be floating, got ") + dtype_name(p.dtype()));
  const DType out = n.has("dtype") ? dtype_of_code(n, n.i("dtype")) : p.dtype();
  Array u = random_uniform(0.0, 1.0, p.shape(), p.dtype(), Device{}, p.backend());
  return {astype(less(u, p), out)};
}

}  // namespace

void add_random_ops(std::vector<OpEntry>& table) {
  const OpEntry entries[] = {
      {"", "RandomUniform", 1, op_random_uniform},
      {"", "RandomNormal", 1, op_random_normal},
      {"", "RandomUniformLike", 1, op_random_uniform_like},
      {"", "RandomNormalLike", 1, op_random_normal_like},
      {"", "Bernoulli", 15, op_bernoulli},
  };
  table.insert(table.end(), std::begin(entries), std::end(entries));
}

}  // namespace ivy::onnx::detail

// The prepared-kernel stage of compile (compile_stages.hpp, stage 3): finds each conv of a
// float32 input by a captured weight, folds the per-channel affine nodes after it into its
// weights and bias, and prepares its kernel (prepared.hpp); likewise each float32 max pool
// whose positions nothing reads.
#include <cmath>
#include <cstring>
#include <optional>

#include "trace/compile_stages.hpp"

namespace ivy::compile_stages {
namespace {
using graph_util::constant_index;
using graph_util::host_bytes;

std::vector<float> floats_of(const Array& a) {
  const std::vector<unsigned char> b = host_bytes(a);
  std::vector<float> v(b.size() / sizeof(float));
  if (!v.empty()) std::memcpy(v.data(), b.data(), b.size());
  return v;
}

// The one node reading value v (and v no graph output), or -1.
int sole_user(const Graph& g, int v) {
  if (g.is_output(v)) return -1;
  const auto& us = g.users(v);
  return us.size() == 1 ? us[0] : -1;
}

// The values of float32 constant `id`, one per channel of a result of shape ys (axis 1),
// when it varies along no other axis (so that broadcasting it leaves ys as it is).
std::optional<std::vector<double>> per_channel(const Graph& g, int id, const Shape& ys) {
  const int ci = constant_index(g, id);
  if (ci < 0 || g.value(id).dtype != DType::float32) return std::nullopt;
  const Shape& cs = g.value(id).shape;
  const std::size_t r = ys.size(), rc = cs.size();
  if (rc > r) return std::nullopt;
  const std::int64_t channels = ys[1];
  bool along_channels = false;
  for (std::size_t j = 0; j < rc; ++j) {
    if (cs[j] == 1) continue;
    if (j + (r - rc) != 1 || cs[j] != channels) return std::nullopt;
    along_channels = true;
  }
  const std::vector<float> v = floats_of(g.constants[static_cast<std::size_t>(ci)]);
  if (v.empty()) return std::nullopt;
  std::vector<double> out(static_cast<std::size_t>(channels));
  for (std::int64_t o = 0; o < channels; ++o) out[static_cast<std::size_t>(o)] = v[along_channels ? o : 0];
  return out;
}

}  // namespace

std::vector<PreparedUnit> prepared_units(const Graph& g) {
  std::vector<PreparedUnit> units;
  if (!prepared::available()) return units;
  for (int k = 0; k < static_cast<int>(g.nodes.size()); ++k) {
    const auto& n = g.node(k);
    if (n.op == OpId::max_pool && n.outputs.size() == 2 && g.value(n.inputs[0]).dtype == DType::float32 &&
        g.users(n.outputs[1]).empty() && !g.is_output(n.outputs[1])) {
      const auto& p = n.attrs.get<attr::pool>();
      prepared::MaxPoolSpec spec;
      spec.x = g.value(n.inputs[0]).shape;
      spec.y = g.value(n.outputs[0]).shape;
      const std::size_t d = spec.x.size() < 2 ? 0 : spec.x.size() - 2;
      for (std::size_t i = 0; i < d; ++i) {
        spec.window.push_back(p.window[i]);
        spec.strides.push_back(p.strides[i]);
        spec.dilations.push_back(p.dilations[i]);
        spec.pad_lo.push_back(p.padding[i]);
      }
      PreparedUnit u;
      u.kernel = prepared::make_max_pool(spec);
      if (!u.kernel) continue;
      u.nodes = {k};
      u.input = n.inputs[0];
      u.output = n.outputs[0];
      units.push_back(std::move(u));
      continue;
    }
    if (n.op != OpId::conv || n.inputs.size() != 2) continue;
    const int x = n.inputs[0], w = n.inputs[1], y = n.outputs[0];
    const Shape& ys = g.value(y).shape;
    const int wi = constant_index(g, w);
    if (wi < 0 || g.value(y).dtype != DType::float32 || g.value(x).dtype != DType::float32 || ys.size() < 3 ||
        ys.size() > 5)
      continue;
    const std::int64_t channels = ys[1];
    // the folded epilogue: y' = y * scale + shift per output channel
    std::vector<double> scale(static_cast<std::size_t>(channels), 1.0), shift(static_cast<std::size_t>(channels), 0.0);
    bool scaled = false, shifted = false;
    PreparedUnit u;
    u.nodes.push_back(k);
    int cur = y;
    for (;;) {
      const int m = sole_user(g, cur);
      if (m < 0) break;
      const auto& mn = g.node(m);
      const bool arith = mn.op == OpId::add || mn.op == OpId::subtract || mn.op == OpId::multiply || mn.op == OpId::divide;
      if (!arith || mn.inputs.size() != 2 || mn.inputs[0] == mn.inputs[1]) break;
      const int out = mn.outputs[0];
      if (!(g.value(out).shape == ys) || g.value(out).dtype != DType::float32) break;
      const bool cur_first = mn.inputs[0] == cur;
      const auto c = per_channel(g, cur_first ? mn.inputs[1] : mn.inputs[0], ys);
      if (!c) break;
      bool ok = true;
      for (double e : *c) ok = ok && std::isfinite(e) && (mn.op != OpId::divide || e != 0.0);
      if (!ok || (mn.op == OpId::divide && !cur_first)) break;
      for (std::size_t o = 0; o < scale.size(); ++o) {
        const double e = (*c)[o];
        switch (mn.op) {
          case OpId::add: shift[o] += e; break;
          case OpId::subtract:
            if (cur_first) {
              shift[o] -= e;
            } else {
              scale[o] = -scale[o];
              shift[o] = e - shift[o];
            }
            break;
          case OpId::multiply: scale[o] *= e, shift[o] *= e; break;
          default: scale[o] /= e, shift[o] /= e; break;
        }
      }
      scaled = scaled || mn.op == OpId::multiply || mn.op == OpId::divide || (mn.op == OpId::subtract && !cur_first);
      shifted = true;
      u.nodes.push_back(m);
      cur = out;
    }
    prepared::ConvSpec spec;
    const auto& p = n.attrs.get<attr::conv>();
    const std::size_t d = ys.size() - 2;
    spec.x = g.value(x).shape;
    spec.w = g.value(w).shape;
    spec.y = ys;
    spec.groups = p.groups;
    for (std::size_t i = 0; i < d; ++i) {
      spec.strides.push_back(p.strides[i]);
      spec.dilations.push_back(p.dilations[i]);
      spec.pad_lo.push_back(p.padding[i]);
      spec.pad_hi.push_back(p.padding[d + i]);
    }
    spec.weights = floats_of(g.constants[static_cast<std::size_t>(wi)]);
    if (scaled) {
      const std::size_t per_out = spec.weights.size() / static_cast<std::size_t>(channels);
      for (std::size_t i = 0; i < spec.weights.size(); ++i)
        spec.weights[i] = static_cast<float>(spec.weights[i] * scale[i / per_out]);
    }
    if (shifted)
      for (double e : shift) spec.bias.push_back(static_cast<float>(e));
    u.kernel = prepared::make_conv(spec);
    if (!u.kernel) continue;
    u.input = x;
    u.output = cur;
    std::sort(u.nodes.begin(), u.nodes.end());
    units.push_back(std::move(u));
  }
  return units;
}

}  // namespace ivy::compile_stages

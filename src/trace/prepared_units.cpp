// The prepared-kernel stage of compile (compile_stages.hpp, stage 3): finds each conv of a
// float32 input by a captured weight, folds the per-channel affine nodes after it into its
// weights and bias, and prepares its kernel (prepared.hpp); likewise each float32 max pool
// whose positions nothing reads, and each large float32 matmul by a captured weight (with the
// bias added after it).
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

// matmul k of a float32 [..., K] by a captured [K, N] weight, large enough that a prepared
// GEMM pays (K >= 64, M K N >= 2^18), and the add of a constant [N] bias after it.
std::optional<PreparedUnit> matmul_unit(const Graph& g, int k) {
  const auto& n = g.node(k);
  const int x = n.inputs[0], w = n.inputs[1], y = n.outputs[0];
  const int wi = constant_index(g, w);
  const Shape &xs = g.value(x).shape, &ws = g.value(w).shape, &ys = g.value(y).shape;
  if (wi < 0 || g.value(x).dtype != DType::float32 || g.value(w).dtype != DType::float32 || xs.size() < 2 ||
      ws.size() != 2 || xs.back() != ws[0] || ys.size() != xs.size() || ys.back() != ws[1])
    return std::nullopt;
  const std::int64_t K = ws[0], N = ws[1], M = xs.numel() / std::max<std::int64_t>(K, 1);
  if (K < 64 || N <= 0 || M <= 0 || static_cast<double>(M) * K * N < static_cast<double>(1 << 18)) return std::nullopt;
  prepared::MatmulSpec spec;
  spec.x = xs;
  spec.y = ys;
  spec.k = K;
  spec.n = N;
  spec.weights = floats_of(g.constants[static_cast<std::size_t>(wi)]);
  PreparedUnit u;
  u.nodes = {k};
  int out = y;
  // a bias: + a float32 constant varying along the last axis only
  const int m = sole_user(g, y);
  if (m >= 0 && g.node(m).op == OpId::add && g.node(m).inputs.size() == 2) {
    const auto& a = g.node(m);
    const int c = a.inputs[0] == y ? a.inputs[1] : a.inputs[0];
    const int ci = constant_index(g, c);
    const Shape& cs = g.value(c).shape;
    bool along_last = ci >= 0 && c != y && g.value(c).dtype == DType::float32 && !cs.empty() && cs.back() == N &&
                      cs.size() <= ys.size() && g.value(a.outputs[0]).shape == ys &&
                      g.value(a.outputs[0]).dtype == DType::float32;
    for (std::size_t i = 0; along_last && i + 1 < cs.size(); ++i) along_last = cs[i] == 1;
    if (along_last) {
      spec.bias = floats_of(g.constants[static_cast<std::size_t>(ci)]);
      bool finite = true;
      for (float e : spec.bias) finite = finite && std::isfinite(e);
      if (finite) {
        u.nodes.push_back(m);
        out = a.outputs[0];
      } else {
        spec.bias.clear();
      }
    }
  }
  u.kernel = prepared::make_matmul(spec);
  if (!u.kernel) return std::nullopt;
  u.input = x;
  u.output = out;
  return u;
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
    if (n.op == OpId::matmul && n.inputs.size() == 2) {
      if (auto u = matmul_unit(g, k)) units.push_back(std::move(*u));
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

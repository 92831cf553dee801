// The applied libraries through ivy against the same math written directly in LibTorch C++
// (the 2021 Ivy paper's Table 3; bench/README.md, "Applied libraries").
//
// Each case is one library function on a batch of about 1e4 numbers of work, float32 on the
// CPU, computed three ways on the same input values:
//   libtorch   the function written by hand with at:: ops from the library's formulas (same
//              algorithm and arithmetic: the same branch-free where() selections, the same
//              safe square roots, the same matmuls; tensors built the way a LibTorch user
//              builds them, e.g. one at::stack of the 9 entries and a view, select() views);
//   eager      the ivy::<lib> function on the torch backend (inputs wrapped zero-copy);
//   compiled   the same ivy call through ivy::compile (traced and compiled before timing);
//   op for op  (where it differs from `libtorch`) LibTorch written call for call as the
//              library builds its result (nested stacks, concats of a ones column, components
//              read back from a stacked array): eager / op for op is the ivy layer's own cost,
//              eager / libtorch adds the library's construction choices.
// Before any timing the program checks, once, that every output of eager and compiled ivy
// is within 1e-5 (max abs difference) of the hand-written LibTorch output, and exits with a
// message otherwise.
//
// Timing (bench/autodiff.cpp's scheme): a case runs in rounds; each round runs every variant
// once, a block of `reps` calls each (reps chosen so a LibTorch block lasts kBlockSeconds), the first
// variant rotating from round to round, so that drift of the machine falls on all variants
// alike. Reported: the median time per call of each variant, and the paired ratios: the
// median over rounds of ivy's block time over LibTorch's block time in the same round.
// Everything single-threaded (at::set_num_threads(1); ivy's own loops are single-threaded).
//   IVY_LIBS_ROUNDS=n   rounds per case (default 400)
//   --plans             print each case's compiled plan after the check, and exit
//   --profile V S       after the check, run variant V (libtorch, eager, compiled, mirror) of
//                       the cases whose "lib/function" contains S for 3 s each, print the
//                       time per call, and exit (for perf record)
// Which libraries are timed depends on the targets that existed at configure time
// (IVY_LIBS_HAS_<LIB>) and, for vision's single-view geometry, on its header.
#include <benchmark/benchmark.h>

#include <ATen/ATen.h>
#include <ATen/Parallel.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "ivy/backends/torch.hpp"
#include "ivy/compile.hpp"
#include "ivy/ivy.hpp"

#if IVY_LIBS_HAS_MECH
#include "ivy/mech.hpp"
#endif
#if IVY_LIBS_HAS_VISION
#include "ivy/vision/sdf.hpp"
#if __has_include("ivy/vision/single_view_geometry.hpp")
#include "ivy/vision/single_view_geometry.hpp"
#define IVY_LIBS_HAS_SVG 1
#endif
#endif
#if IVY_LIBS_HAS_ROBOT
#include "ivy/robot.hpp"
#endif
#if IVY_LIBS_HAS_GYM
#include "ivy/gym.hpp"
#endif

namespace {
// The length of one timed block of LibTorch calls: long enough for the clock, short enough
// that many rounds fit (bench/README.md, "Applied libraries", gives the method).
constexpr double kBlockSeconds = 300e-6;
using ivy::Array;
using at::Tensor;
using Tensors = std::vector<Tensor>;
using Arrays = std::vector<Array>;

struct Case {
  std::string lib, fn, work;  // library, function, input shapes
  Tensors inputs;             // the hand-written version's inputs
  ivy::TracedFn ivy_fn;
  std::function<Tensors(const Tensors&)> at_fn;
  // Optional: LibTorch written op for op as the library builds its result (its nested
  // stacks, concats and component copies), where that differs from at_fn; isolates the
  // ivy layer from the library's construction choices.
  std::function<Tensors(const Tensors&)> mirror_fn = {};
};

// ---------------------------------------------------------------- helpers
std::vector<std::int64_t> with(at::IntArrayRef lead, std::initializer_list<std::int64_t> tail) {
  std::vector<std::int64_t> s(lead.begin(), lead.end());
  s.insert(s.end(), tail);
  return s;
}
at::IntArrayRef batch_of(const Tensor& x, std::int64_t trailing) { return x.sizes().slice(0, x.dim() - trailing); }
// [..., 4] quaternions (any scale) -> [..., 3, 3] rotation matrices (the formula of
// quaternion_to_rot_mat), one stack of the nine entries.
Tensor quat_to_rot_mat_at(const Tensor& q) {
  auto x = q.select(-1, 0), y = q.select(-1, 1), z = q.select(-1, 2), w = q.select(-1, 3);
  auto s = 2.0 / (x * x + y * y + z * z + w * w + 1e-12);
  return at::stack({1.0 - s * (y * y + z * z), s * (x * y - z * w), s * (x * z + y * w),  //
                    s * (x * y + z * w), 1.0 - s * (x * x + z * z), s * (y * z - x * w),  //
                    s * (x * z - y * w), s * (y * z + x * w), 1.0 - s * (x * x + y * y)},
                   -1)
      .view(with(batch_of(q, 1), {3, 3}));
}

// ---------------------------------------------------------------- mech, by hand
Tensor rot_mat_to_quaternion_at(const Tensor& R) {
  auto r = [&](int i, int j) { return R.select(-2, i).select(-1, j); };
  auto r00 = r(0, 0), r01 = r(0, 1), r02 = r(0, 2), r10 = r(1, 0), r11 = r(1, 1), r12 = r(1, 2), r20 = r(2, 0),
       r21 = r(2, 1), r22 = r(2, 2);
  auto dw = 1.0 + r00 + r11 + r22, dx = 1.0 + r00 - r11 - r22;
  auto dy = 1.0 - r00 + r11 - r22, dz = 1.0 - r00 - r11 + r22;
  auto s_of = [](const Tensor& d) { return 2.0 * at::sqrt(at::clamp_min(d, 1e-12)); };
  auto sw = s_of(dw), sx = s_of(dx), sy = s_of(dy), sz = s_of(dz);
  auto qw = at::stack({(r21 - r12) / sw, (r02 - r20) / sw, (r10 - r01) / sw, 0.25 * sw}, -1);
  auto qx = at::stack({0.25 * sx, (r01 + r10) / sx, (r02 + r20) / sx, (r21 - r12) / sx}, -1);
  auto qy = at::stack({(r01 + r10) / sy, 0.25 * sy, (r12 + r21) / sy, (r02 - r20) / sy}, -1);
  auto qz = at::stack({(r02 + r20) / sz, (r12 + r21) / sz, 0.25 * sz, (r10 - r01) / sz}, -1);
  auto use_w = (dw >= dx).logical_and(dw >= dy).logical_and(dw >= dz);
  auto use_x = (dx >= dy).logical_and(dx >= dz);
  auto use_y = dy >= dz;
  auto q = at::where(use_y.unsqueeze(-1), qy, qz);
  q = at::where(use_x.unsqueeze(-1), qx, q);
  q = at::where(use_w.unsqueeze(-1), qw, q);
  return at::where(q.select(-1, 3).unsqueeze(-1) < 0, -q, q);
}
// Elementary rotation about axis a (0 = x, 1 = y, 2 = z) by t: [..., 3, 3].
Tensor elementary_at(int a, const Tensor& t) {
  auto co = at::cos(t), si = at::sin(t), z = at::zeros_like(t), o = at::ones_like(t);
  Tensor m;
  if (a == 0) m = at::stack({o, z, z, z, co, -si, z, si, co}, -1);
  else if (a == 1) m = at::stack({co, z, si, z, o, z, -si, z, co}, -1);
  else m = at::stack({co, -si, z, si, co, z, z, z, o}, -1);
  return m.view(with(t.sizes(), {3, 3}));
}
// "zyx": R = R_x(e2) R_y(e1) R_z(e0).
Tensor euler_zyx_to_rot_mat_at(const Tensor& e) {
  return at::matmul(elementary_at(0, e.select(-1, 2)),
                    at::matmul(elementary_at(1, e.select(-1, 1)), elementary_at(2, e.select(-1, 0))));
}
// Rodrigues' coefficients of a rotation vector rv [..., 3]: R = I + A [rv]x + B [rv]x^2,
// A = sin t / t, B = (1 - cos t) / t^2 (t = |rv|), by their series where t^2 < 1e-4.
std::pair<Tensor, Tensor> rodrigues_coefficients(const Tensor& rv) {
  auto t2 = (rv * rv).sum(-1);
  auto small = t2 < 1e-4;
  auto t = at::sqrt(at::where(small, 1.0, t2));
  auto sh = at::sin(0.5 * t);
  auto A = at::where(small, 1.0 - t2 / 6.0 + t2 * t2 / 120.0, at::sin(t) / t);
  auto B = at::where(small, 0.5 - t2 / 24.0 + t2 * t2 / 720.0, 2.0 * sh * sh / (t * t));
  return {A, B};
}
// [x, y, z, rx, ry, rz] -> [R(rv) | xyz], Rodrigues with the series near 0.
Tensor rot_vec_pose_to_mat_pose_at(const Tensor& p) {
  auto rv = p.slice(-1, 3, 6);
  auto x = rv.select(-1, 0), y = rv.select(-1, 1), z = rv.select(-1, 2);
  const auto [A, B] = rodrigues_coefficients(rv);
  return at::stack({1.0 - B * (y * y + z * z), B * x * y - A * z, B * x * z + A * y, p.select(-1, 0),  //
                    B * x * y + A * z, 1.0 - B * (x * x + z * z), B * y * z - A * x, p.select(-1, 1),  //
                    B * x * z - A * y, B * y * z + A * x, 1.0 - B * (x * x + y * y), p.select(-1, 2)},
                   -1)
      .view(with(batch_of(p, 1), {3, 4}));
}

// ---------------------------------------------------------------- vision, by hand
// ext [NC, 3, 4], dims [NC, 3], query [NQ, 3] -> [NQ, 1]
Tensor cuboid_sdf_at(const Tensor& ext, const Tensor& dims, const Tensor& q) {
  auto local = (at::matmul(ext.slice(-1, 0, 3), q.transpose(-1, -2).unsqueeze(-3)) + ext.slice(-1, 3, 4))
                   .transpose(-1, -2);                   // [NC, NQ, 3]
  auto d = local.abs() - dims.unsqueeze(-2) * 0.5;       // [NC, NQ, 3]
  auto m = d.clamp_min(0.0);
  auto sq = (m * m).sum(-1);
  auto pos = sq > 0;
  auto outside = at::where(pos, at::sqrt(at::where(pos, sq, 1.0)), 0.0);  // |max(d, 0)|, gradient-safe
  auto inside = d.amax(-1).clamp_max(0.0);
  return (outside + inside).amin(-2).unsqueeze(-1);
}
// depth [B, H, W, 1], inv_K [B, 3, 3], inv_E [B, 3, 4] = [R^T | C], grid [H, W, 3] -> [B, H, W, 4]
Tensor depth_to_world_at(const Tensor& depth, const Tensor& inv_K, const Tensor& inv_E, const Tensor& grid) {
  const auto B = depth.size(0), H = depth.size(1), W = depth.size(2);
  auto cam = at::matmul((grid * depth).view({B, H * W, 3}), inv_K.transpose(-1, -2));               // K^-1 ds
  auto world = at::matmul(cam, inv_E.slice(-1, 0, 3).transpose(-1, -2)) + inv_E.select(-1, 3).unsqueeze(-2);
  return at::cat({world, at::ones_like(world.slice(-1, 0, 1))}, -1).view({B, H, W, 4});
}

// ---------------------------------------------------------------- robot, by hand
// Polyharmonic spline of order 3 (phi(r) = r^1.5, r the clamped squared distance).
// c [N, D], f [N, PD], x [NS, D] -> [NS, PD]
Tensor spline_at(const Tensor& c, const Tensor& f, const Tensor& x) {
  auto phi = [](const Tensor& r) { return at::pow(at::clamp_min(r, 1e-6), 1.5); };
  auto sqd = [](const Tensor& a, const Tensor& b) { return (a.unsqueeze(-2) - b.unsqueeze(-3)).square().sum(-1); };
  const auto N = c.size(0), D = c.size(1), PD = f.size(1);
  auto Bm = at::cat({c, at::ones({N, 1}, c.options())}, -1);
  auto M = at::cat({at::cat({phi(sqd(c, c)), Bm}, -1), at::cat({Bm.t(), at::zeros({D + 1, D + 1}, c.options())}, -1)},
                   -2);
  auto sol = at::linalg_solve(M, at::cat({f, at::zeros({D + 1, PD}, f.options())}, -2));
  return at::matmul(phi(sqd(x, c)), sol.slice(0, 0, N)) +
         at::matmul(at::cat({x, at::ones({x.size(0), 1}, x.options())}, -1), sol.slice(0, N, N + D + 1));
}
// Standard DH chain: A_i = Rz(theta_i) Tz(d_i) Tx(a_i) Rx(alpha_i), theta = q * scale - offset;
// T_0 = base, T_i = T_{i-1} A_i; the top three rows. q [B, J] -> [B, J+1, 3, 4]
struct DH {
  Tensor a, d, alpha, scales, offsets, base;  // [J] each, base [4, 4]
};
Tensor link_poses_at(const DH& p, const Tensor& q) {
  const auto B = q.size(0), J = q.size(1);
  auto theta = q * p.scales - p.offsets;
  auto ct = at::cos(theta), st = at::sin(theta);
  auto ca = at::cos(p.alpha).expand_as(q), sa = at::sin(p.alpha).expand_as(q);
  auto a = p.a.expand_as(q), d = p.d.expand_as(q), zero = at::zeros_like(q), one = at::ones_like(q);
  auto A = at::stack({ct, -st * ca, st * sa, a * ct, st, ct * ca, -ct * sa, a * st, zero, sa, ca, d, zero, zero, zero, one},
                     -1)
               .view({B, J, 4, 4});
  Tensor T = p.base.expand({B, 4, 4});
  Tensors mats{T};
  for (std::int64_t i = 0; i < J; ++i) {
    T = at::matmul(T, A.select(1, i));
    mats.push_back(T);
  }
  return at::stack(mats, 1).slice(-2, 0, 3);
}

// ---------------------------------------------------------------- gym, by hand
// One CartPole step (docs/gym.md): state [B, 4], action [B, 1] -> next state, observation,
// reward, terminated.
Tensors cartpole_step_at(const Tensor& s, const Tensor& action) {
  constexpr double g = 9.8, mc = 1.0, mp = 0.1, l = 0.5, fs = 10.0, dt = 0.02, xlim = 2.4;
  constexpr double total = mc + mp, pml = mp * l;
  auto x = s.select(-1, 0), xd = s.select(-1, 1), th = s.select(-1, 2), thd = s.select(-1, 3);
  auto force = fs * action.clamp(-1.0, 1.0).select(-1, 0);
  auto cos_t = at::cos(th), sin_t = at::sin(th);
  auto temp = (force + pml * thd * thd * sin_t) / total;
  auto thdd = (g * sin_t - cos_t * temp) / (l * (4.0 / 3.0 - mp * cos_t * cos_t / total));
  auto xdd = temp - pml * thdd * cos_t / total;
  auto xd2 = xd + dt * xdd, thd2 = thd + dt * thdd;
  auto x2 = x + dt * xd2, th2 = th + dt * thd2;
  auto c2 = at::cos(th2), s2 = at::sin(th2);
  return {at::stack({x2, xd2, th2, thd2}, -1), at::stack({x2, xd2, c2, s2, thd2}, -1),
          at::exp(-(x2 * x2)) * (c2 + 1.0) * 0.5, x2.abs() > xlim};
}

// ---------------------------------------------------------------- op for op as the libraries
// The libraries' construction, in at:: calls: mat3 stacks each row, then the rows; homo()
// concatenates a column of ones; compute_link_matrices stacks each row of A_i, then the rows.
Tensor mat3_mirror(const std::array<Tensor, 9>& e) {
  Tensors rows;
  for (int r = 0; r < 3; ++r) rows.push_back(at::stack({e[3 * r], e[3 * r + 1], e[3 * r + 2]}, -1));
  return at::stack(rows, -2);
}
Tensor quat_to_rot_mat_mirror(const Tensor& q) {
  auto x = q.select(-1, 0), y = q.select(-1, 1), z = q.select(-1, 2), w = q.select(-1, 3);
  auto s = 2.0 / (x * x + y * y + z * z + w * w + 1e-12);
  return mat3_mirror({1.0 - s * (y * y + z * z), s * (x * y - z * w), s * (x * z + y * w),  //
                      s * (x * y + z * w), 1.0 - s * (x * x + z * z), s * (y * z - x * w),  //
                      s * (x * z - y * w), s * (y * z + x * w), 1.0 - s * (x * x + y * y)});
}
Tensor elementary_mirror(int a, const Tensor& t) {
  auto co = at::cos(t), si = at::sin(t), z = at::zeros_like(t), o = at::ones_like(t);
  if (a == 0) return mat3_mirror({o, z, z, z, co, -si, z, si, co});
  if (a == 1) return mat3_mirror({co, z, si, z, o, z, -si, z, co});
  return mat3_mirror({co, -si, z, si, co, z, z, z, o});
}
Tensor euler_zyx_to_rot_mat_mirror(const Tensor& e) {
  return at::matmul(elementary_mirror(0, e.select(-1, 2)),
                    at::matmul(elementary_mirror(1, e.select(-1, 1)), elementary_mirror(2, e.select(-1, 0))));
}
Tensor rot_vec_pose_to_mat_pose_mirror(const Tensor& p) {
  auto rv = p.slice(-1, 3, 6);
  const auto [A, B] = rodrigues_coefficients(rv);
  auto x = rv.select(-1, 0), y = rv.select(-1, 1), z = rv.select(-1, 2);
  auto R = mat3_mirror({1.0 - B * (y * y + z * z), B * x * y - A * z, B * x * z + A * y,  //
                        B * x * y + A * z, 1.0 - B * (x * x + z * z), B * y * z - A * x,  //
                        B * x * z - A * y, B * y * z + A * x, 1.0 - B * (x * x + y * y)});
  return at::cat({R, p.slice(-1, 0, 3).unsqueeze(-1)}, -1);
}
Tensor homo_mirror(const Tensor& x) { return at::cat({x, at::ones_like(x.slice(-1, 0, 1))}, -1); }
Tensor depth_to_world_mirror(const Tensor& depth, const Tensor& inv_K, const Tensor& inv_E, const Tensor& grid) {
  const auto B = depth.size(0), H = depth.size(1), W = depth.size(2);
  auto cam = at::matmul((grid * depth).reshape({B, H * W, 3}), inv_K.transpose(-1, -2)).reshape({B, H, W, 3});
  auto world = at::matmul(homo_mirror(cam).reshape({B, H * W, 4}), inv_E.transpose(-1, -2)).reshape({B, H, W, 3});
  return homo_mirror(world);
}
Tensor link_poses_mirror(const DH& p, const Tensor& q) {
  const auto B = q.size(0), J = q.size(1);
  auto theta = q * p.scales - p.offsets;
  auto ct = at::cos(theta), st = at::sin(theta);
  auto ca = at::cos(p.alpha).expand_as(q), sa = at::sin(p.alpha).expand_as(q);
  auto zero = at::zeros_like(q), one = at::ones_like(q);
  auto row = [](const Tensor& a, const Tensor& b, const Tensor& c, const Tensor& d) { return at::stack({a, b, c, d}, -1); };
  auto A = at::stack({row(ct, -st * ca, st * sa, p.a * ct), row(st, ct * ca, -ct * sa, p.a * st),
                      row(zero, sa, ca, zero + p.d), row(zero, zero, zero, one)},
                     -2);
  Tensor T = p.base.expand({B, 4, 4});
  Tensors mats{T};
  for (std::int64_t i = 0; i < J; ++i) {
    T = at::matmul(T, A.select(1, i));
    mats.push_back(T);
  }
  return at::stack(mats, -3).slice(-2, 0, 3);
}
// as the library: dynamics() stacks the next state, observation()/reward()/terminated() read
// its components back (and take cos of the angle twice)
Tensors cartpole_step_mirror(const Tensor& s, const Tensor& action) {
  constexpr double g = 9.8, mc = 1.0, mp = 0.1, l = 0.5, fs = 10.0, dt = 0.02, xlim = 2.4;
  constexpr double total = mc + mp, pml = mp * l;
  auto a = action.clamp(-1.0, 1.0);
  auto x = s.select(-1, 0), xd = s.select(-1, 1), th = s.select(-1, 2), thd = s.select(-1, 3);
  auto force = fs * a.select(-1, 0);
  auto cos_t = at::cos(th), sin_t = at::sin(th);
  auto temp = (force + pml * thd * thd * sin_t) / total;
  auto thdd = (g * sin_t - cos_t * temp) / (l * (4.0 / 3.0 - mp * cos_t * cos_t / total));
  auto xdd = temp - pml * thdd * cos_t / total;
  auto xd2 = xd + dt * xdd, thd2 = thd + dt * thdd;
  auto n = at::stack({x + dt * xd2, xd2, th + dt * thd2, thd2}, -1);
  auto th2 = n.select(-1, 2);
  auto obs = at::stack({n.select(-1, 0), n.select(-1, 1), at::cos(th2), at::sin(th2), n.select(-1, 3)}, -1);
  auto x2 = n.select(-1, 0);
  return {n, obs, at::exp(-(x2 * x2)) * (at::cos(n.select(-1, 2)) + 1.0) * 0.5, at::abs(n.select(-1, 0)) > xlim};
}

// ---------------------------------------------------------------- the cases
std::vector<Case> make_cases() {
  std::vector<Case> cs;
  at::manual_seed(7);
  const auto f32 = at::TensorOptions().dtype(at::kFloat);
#if IVY_LIBS_HAS_MECH
  {
    const std::int64_t B = 2500;
    Tensor q = at::randn({B, 4}, f32);
    Tensor R = quat_to_rot_mat_at(q / q.norm(2, -1, true)).contiguous();
    Tensor e = at::rand({B, 3}, f32) * (2 * M_PI) - M_PI;
    e.select(-1, 1).mul_(0.5);
    Tensor pose = at::cat({at::randn({B, 3}, f32), at::randn({B, 3}, f32)}, -1);
    pose.slice(0, 0, 25).slice(1, 3, 6).mul_(1e-3);  // some rotations in the series branch
    cs.push_back({"mech", "quaternion_to_rot_mat", "q [2500, 4]", {q},
                  [](const Arrays& v) { return Arrays{ivy::mech::quaternion_to_rot_mat(v[0])}; },
                  [](const Tensors& v) { return Tensors{quat_to_rot_mat_at(v[0])}; },
                  [](const Tensors& v) { return Tensors{quat_to_rot_mat_mirror(v[0])}; }});
    cs.push_back({"mech", "rot_mat_to_quaternion", "R [2500, 3, 3]", {R},
                  [](const Arrays& v) { return Arrays{ivy::mech::rot_mat_to_quaternion(v[0])}; },
                  [](const Tensors& v) { return Tensors{rot_mat_to_quaternion_at(v[0])}; }});
    cs.push_back({"mech", "euler_to_rot_mat (zyx)", "e [2500, 3]", {e},
                  [](const Arrays& v) { return Arrays{ivy::mech::euler_to_rot_mat(v[0], "zyx")}; },
                  [](const Tensors& v) { return Tensors{euler_zyx_to_rot_mat_at(v[0])}; },
                  [](const Tensors& v) { return Tensors{euler_zyx_to_rot_mat_mirror(v[0])}; }});
    cs.push_back({"mech", "rot_vec_pose_to_mat_pose", "pose [2500, 6]", {pose},
                  [](const Arrays& v) { return Arrays{ivy::mech::rot_vec_pose_to_mat_pose(v[0])}; },
                  [](const Tensors& v) { return Tensors{rot_vec_pose_to_mat_pose_at(v[0])}; },
                  [](const Tensors& v) { return Tensors{rot_vec_pose_to_mat_pose_mirror(v[0])}; }});
  }
#endif
#if IVY_LIBS_HAS_VISION
  {
    const std::int64_t NC = 11, NQ = 1000;
    Tensor qc = at::randn({NC, 4}, f32);
    Tensor Rc = quat_to_rot_mat_at(qc / qc.norm(2, -1, true));
    Tensor centre = at::rand({NC, 3, 1}, f32) * 4.0 - 2.0;
    Tensor ext = at::cat({Rc.transpose(-1, -2), -at::matmul(Rc.transpose(-1, -2), centre)}, -1).contiguous();
    Tensor dims = at::rand({NC, 3}, f32) * 0.8 + 0.2;
    Tensor query = at::rand({NQ, 3}, f32) * 5.0 - 2.5;
    cs.push_back({"vision", "cuboid_signed_distances", "11 cuboids, query [1000, 3]", {ext, dims, query},
                  [](const Arrays& v) { return Arrays{ivy::vision::cuboid_signed_distances(v[0], v[1], v[2])}; },
                  [](const Tensors& v) { return Tensors{cuboid_sdf_at(v[0], v[1], v[2])}; }});
  }
#if IVY_LIBS_HAS_SVG
  {
    const std::int64_t B = 2, H = 32, W = 48;
    Tensor depth = at::rand({B, H, W, 1}, f32) * 4.0 + 1.0;
    // K = [[fx, 0, px], [0, fy, py], [0, 0, 1]] with negative focal lengths (docs/vision.md)
    Tensor K = at::zeros({B, 3, 3}, f32);
    K.select(-2, 0).select(-1, 0).fill_(-40.0);
    K.select(-2, 1).select(-1, 1).fill_(-40.0);
    K.select(-2, 0).select(-1, 2).fill_(W / 2.0);
    K.select(-2, 1).select(-1, 2).fill_(H / 2.0);
    K.select(-2, 2).select(-1, 2).fill_(1.0);
    Tensor inv_K = at::linalg_inv(K).contiguous();
    Tensor qe = at::randn({B, 4}, f32);
    Tensor inv_E =
        at::cat({quat_to_rot_mat_at(qe / qe.norm(2, -1, true)), at::randn({B, 3, 1}, f32)}, -1).contiguous();
    Tensor xs = at::arange(W, f32), ys = at::arange(H, f32);
    Tensor grid = at::stack({xs.view({1, W}).expand({H, W}), ys.view({H, 1}).expand({H, W}), at::ones({H, W}, f32)}, -1)
                      .contiguous();
    cs.push_back({"vision", "depth_to_world_coords", "depth [2, 32, 48, 1]", {depth, inv_K, inv_E, grid},
                  [](const Arrays& v) { return Arrays{ivy::vision::depth_to_world_coords(v[0], v[1], v[2], v[3])}; },
                  [](const Tensors& v) { return Tensors{depth_to_world_at(v[0], v[1], v[2], v[3])}; },
                  [](const Tensors& v) { return Tensors{depth_to_world_mirror(v[0], v[1], v[2], v[3])}; }});
  }
#endif
#endif
#if IVY_LIBS_HAS_ROBOT
  {
    Tensor anchors = at::linspace(0.0, 1.0, 5, f32).view({5, 1});
    Tensor vals = at::randn({5, 6}, f32);
    Tensor samples = at::linspace(0.0, 1.0, 1000, f32).view({1000, 1});
    cs.push_back({"robot", "sample_spline_path", "5 anchors x 6, 1000 samples", {anchors, vals, samples},
                  [](const Arrays& v) { return Arrays{ivy::robot::sample_spline_path(v[0], v[1], v[2])}; },
                  [](const Tensors& v) { return Tensors{spline_at(v[0], v[1], v[2])}; }});
    auto mico = std::make_shared<ivy::robot::Manipulator>(ivy::robot::mico_manipulator(Array(), ivy::float32, ivy::Backend("torch")));
    auto un = [](const Array& a) { return ivy::torch::unwrap(a).clone(); };
    DH dh{un(mico->a_s()), un(mico->d_s()), un(mico->alpha_s()), un(mico->dh_joint_scales()),
          un(mico->dh_joint_offsets()), at::eye(4, f32)};
    Tensor joints = (at::rand({128, 6}, f32) * 2.0 - 1.0) * M_PI;
    cs.push_back({"robot", "Mico compute_link_poses", "joints [128, 6]", {joints},
                  [mico](const Arrays& v) { return Arrays{mico->compute_link_poses(v[0])}; },
                  [dh](const Tensors& v) { return Tensors{link_poses_at(dh, v[0])}; },
                  [dh](const Tensors& v) { return Tensors{link_poses_mirror(dh, v[0])}; }});
  }
#endif
#if IVY_LIBS_HAS_GYM
  {
    const std::int64_t B = 2000;
    auto env = std::make_shared<ivy::gym::CartPole>(ivy::gym::EnvOptions{ivy::float32, ivy::Backend("torch")});
    Tensor state = at::cat({at::rand({B, 1}, f32) * 2 - 1, at::rand({B, 1}, f32) * 0.6 - 0.3,
                            (at::rand({B, 1}, f32) * 2 - 1) * M_PI, at::rand({B, 1}, f32) * 0.6 - 0.3},
                           -1);
    state.slice(0, 0, 20).select(1, 0).fill_(2.45);  // some terminated
    Tensor action = at::rand({B, 1}, f32) * 2.4 - 1.2;  // some clipped
    cs.push_back({"gym", "CartPole step", "2000 envs", {state, action},
                  [env](const Arrays& v) {
                    Array next = env->dynamics(v[0], v[1]);
                    return Arrays{next, env->observation(next), env->reward(next), env->terminated(next)};
                  },
                  [](const Tensors& v) { return cartpole_step_at(v[0], v[1]); },
                  [](const Tensors& v) { return cartpole_step_mirror(v[0], v[1]); }});
  }
#endif
  return cs;
}

// ---------------------------------------------------------------- checking and timing
double max_abs_diff(const Tensors& ref, const Arrays& got, const std::string& what) {
  if (ref.size() != got.size()) {
    std::fprintf(stderr, "libs: %s returned %zu outputs, LibTorch %zu\n", what.c_str(), got.size(), ref.size());
    std::exit(1);
  }
  double worst = 0;
  for (std::size_t i = 0; i < ref.size(); ++i) {
    Tensor g = ivy::torch::unwrap(ivy::to_backend(got[i], "torch"));
    if (g.sizes() != ref[i].sizes()) {
      std::fprintf(stderr, "libs: %s output %zu has shape %s, LibTorch %s\n", what.c_str(), i,
                   c10::str(g.sizes()).c_str(), c10::str(ref[i].sizes()).c_str());
      std::exit(1);
    }
    worst = std::max(worst, (g.to(at::kDouble) - ref[i].to(at::kDouble)).abs().max().item<double>());
  }
  return worst;
}
double median_of(std::vector<double> v) {
  if (v.empty()) return NAN;
  auto mid = v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2);
  std::nth_element(v.begin(), mid, v.end());
  return *mid;
}

struct Row {
  std::string lib, fn, work;
  double lt_us = NAN, eager_us = NAN, comp_us = NAN, eager_ratio = NAN, comp_ratio = NAN, comp_vs_eager = NAN;
  double mirror_us = NAN, eager_vs_mirror = NAN;  // where the case has a mirror
  double compile_ms = NAN, diff_eager = NAN, diff_comp = NAN;
  int reps = 1;
};
std::vector<Row>& rows() {
  static std::vector<Row> r;
  return r;
}

void run_case(benchmark::State& st, const Case& c, Row& row) {
  using clock = std::chrono::steady_clock;
  auto ta = std::make_shared<Tensors>(c.inputs);
  Arrays xa;
  for (const auto& t : c.inputs) xa.push_back(ivy::torch::wrap(t.clone()));
  auto cf = ivy::compile(c.ivy_fn);
  cf(xa);  // compiled at registration already; this is a cache hit
  std::vector<std::function<void()>> vs = {
      [&] {
        at::NoGradGuard no_grad;
        benchmark::DoNotOptimize(c.at_fn(*ta));
      },
      [&] { benchmark::DoNotOptimize(c.ivy_fn(xa)); },
      [&] { benchmark::DoNotOptimize(cf(xa)); }};
  if (c.mirror_fn)
    vs.push_back([&] {
      at::NoGradGuard no_grad;
      benchmark::DoNotOptimize(c.mirror_fn(*ta));
    });
  for (int w = 0; w < 3; ++w)
    for (auto& v : vs) v();  // warm up: first-call allocations, caches
  // reps: a LibTorch block lasts kBlockSeconds
  auto t0 = clock::now();
  for (int i = 0; i < 5; ++i) vs[0]();
  const double one = std::chrono::duration<double>(clock::now() - t0).count() / 5;
  const int reps = std::clamp(static_cast<int>(std::lround(kBlockSeconds / one)), 1, 1000);
  row.reps = reps;
  const std::size_t nv = vs.size();
  std::vector<std::vector<double>> t(nv);
  std::size_t first = 0;
  for (auto _ : st) {
    double total = 0;
    for (std::size_t j = 0; j < nv; ++j) {
      const std::size_t k = (first + j) % nv;
      const auto s = clock::now();
      for (int r = 0; r < reps; ++r) vs[k]();
      const double d = std::chrono::duration<double>(clock::now() - s).count();
      t[k].push_back(d);
      total += d;
    }
    first = (first + 1) % nv;
    st.SetIterationTime(total);
  }
  std::vector<double> re(t[0].size()), rc(t[0].size()), rce(t[0].size());
  for (std::size_t r = 0; r < t[0].size(); ++r) {
    re[r] = t[1][r] / t[0][r];
    rc[r] = t[2][r] / t[0][r];
    rce[r] = t[2][r] / t[1][r];
  }
  row.lt_us = median_of(t[0]) * 1e6 / reps;
  row.eager_us = median_of(t[1]) * 1e6 / reps;
  row.comp_us = median_of(t[2]) * 1e6 / reps;
  row.eager_ratio = median_of(re);
  row.comp_ratio = median_of(rc);
  row.comp_vs_eager = median_of(rce);
  if (nv == 4) {
    std::vector<double> rm(t[0].size());
    for (std::size_t r = 0; r < t[0].size(); ++r) rm[r] = t[1][r] / t[3][r];
    row.mirror_us = median_of(t[3]) * 1e6 / reps;
    row.eager_vs_mirror = median_of(rm);
    st.counters["mirror_us"] = row.mirror_us;
    st.counters["eager_vs_mirror"] = row.eager_vs_mirror;
  }
  st.counters["libtorch_us"] = row.lt_us;
  st.counters["eager_us"] = row.eager_us;
  st.counters["compiled_us"] = row.comp_us;
  st.counters["eager_vs_libtorch"] = row.eager_ratio;
  st.counters["compiled_vs_libtorch"] = row.comp_ratio;
  st.counters["reps"] = reps;
}
}  // namespace

int main(int argc, char** argv) {
  at::set_num_threads(1);  // side-by-side timings on one core (ivy's own loops are single-threaded)
  // --plans: print each case's compiled plan (ivy::Executable::plan_str) after the check and exit
  bool plans = false;
  std::string profile_variant, profile_case;
  for (int i = 1; i < argc; ++i)
    if (std::string(argv[i]) == "--plans") {
      plans = true;
      for (int j = i; j + 1 < argc; ++j) argv[j] = argv[j + 1];
      --argc;
      break;
    }
  for (int i = 1; i + 2 < argc; ++i)
    if (std::string(argv[i]) == "--profile") {
      profile_variant = argv[i + 1];
      profile_case = argv[i + 2];
      for (int j = i; j + 3 < argc; ++j) argv[j] = argv[j + 3];
      argc -= 3;
      break;
    }
  benchmark::Initialize(&argc, argv);
  int rounds = 400;
  if (const char* env = std::getenv("IVY_LIBS_ROUNDS")) rounds = std::max(3, std::atoi(env));
  static std::vector<Case> cases = make_cases();
  rows().resize(cases.size());
  // the check, once: eager and compiled ivy against the hand-written LibTorch
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const Case& c = cases[i];
    Row& row = rows()[i];
    row.lib = c.lib, row.fn = c.fn, row.work = c.work;
    Arrays xa;
    for (const auto& t : c.inputs) xa.push_back(ivy::torch::wrap(t.clone()));
    Tensors ref;
    {
      at::NoGradGuard no_grad;
      ref = c.at_fn(c.inputs);
    }
    const std::string what = c.lib + "::" + c.fn;
    row.diff_eager = max_abs_diff(ref, c.ivy_fn(xa), what + " (eager ivy)");
    auto t0 = std::chrono::steady_clock::now();
    auto cf = ivy::compile(c.ivy_fn);
    auto out = cf(xa);
    row.compile_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    row.diff_comp = max_abs_diff(ref, out, what + " (compiled ivy)");
    double diff_mirror = 0;
    if (c.mirror_fn) {
      at::NoGradGuard no_grad;
      Tensors m = c.mirror_fn(c.inputs);
      for (std::size_t k = 0; k < m.size(); ++k)
        diff_mirror = std::max(diff_mirror, (m[k].to(at::kDouble) - ref[k].to(at::kDouble)).abs().max().item<double>());
    }
    std::printf("check %-34s max |ivy - LibTorch|: eager %.3g, compiled %.3g%s\n", what.c_str(), row.diff_eager,
                row.diff_comp, c.mirror_fn ? (", op-for-op LibTorch " + std::to_string(diff_mirror)).c_str() : "");
    if (plans) std::printf("%s\n", cf.executable(xa)->plan_str().c_str());
    if (!(row.diff_eager <= 1e-5) || !(row.diff_comp <= 1e-5) || !(diff_mirror <= 1e-5)) {
      std::fprintf(stderr, "libs: %s differs from the hand-written LibTorch by more than 1e-5; not timing\n",
                   what.c_str());
      return 1;
    }
  }
  std::fflush(stdout);
  if (plans) return 0;
  if (!profile_variant.empty()) {
    for (const Case& c : cases) {
      if ((c.lib + "/" + c.fn).find(profile_case) == std::string::npos) continue;
      Arrays xa;
      for (const auto& t : c.inputs) xa.push_back(ivy::torch::wrap(t.clone()));
      auto cf = ivy::compile(c.ivy_fn);
      std::function<void()> f;
      if (profile_variant == "libtorch") f = [&] { benchmark::DoNotOptimize(c.at_fn(c.inputs)); };
      else if (profile_variant == "mirror" && c.mirror_fn) f = [&] { benchmark::DoNotOptimize(c.mirror_fn(c.inputs)); };
      else if (profile_variant == "eager") f = [&] { benchmark::DoNotOptimize(c.ivy_fn(xa)); };
      else if (profile_variant == "compiled") f = [&] { benchmark::DoNotOptimize(cf(xa)); };
      else continue;
      at::NoGradGuard no_grad;
      f();
      const auto t0 = std::chrono::steady_clock::now();
      std::int64_t n = 0;
      while (std::chrono::steady_clock::now() - t0 < std::chrono::seconds(3)) {
        f();
        ++n;
      }
      std::printf("profile %s/%s %s: %.1f us per call\n", c.lib.c_str(), c.fn.c_str(), profile_variant.c_str(),
                  std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / n);
    }
    return 0;
  }
  for (std::size_t i = 0; i < cases.size(); ++i)
    benchmark::RegisterBenchmark(("libs/" + cases[i].lib + "/" + cases[i].fn).c_str(),
                                 [i](benchmark::State& st) { run_case(st, cases[i], rows()[i]); })
        ->Iterations(rounds)
        ->UseManualTime()
        ->Unit(benchmark::kMicrosecond);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  std::printf("\n| library | function | inputs (float32) | LibTorch us | eager ivy us | compiled ivy us | eager / LibTorch | compiled / LibTorch | compiled / eager | LibTorch op for op us | eager / op for op | compile ms | max abs diff (eager, compiled) |\n");
  std::printf("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
  for (const Row& r : rows()) {
    if (std::isnan(r.lt_us)) continue;
    char mirror[64] = "- | -";
    if (!std::isnan(r.mirror_us)) std::snprintf(mirror, sizeof mirror, "%.1f | %.3f", r.mirror_us, r.eager_vs_mirror);
    std::printf("| %s | %s | %s | %.1f | %.1f | %.1f | %.3f | %.3f | %.3f | %s | %.1f | %.1e, %.1e |\n", r.lib.c_str(),
                r.fn.c_str(), r.work.c_str(), r.lt_us, r.eager_us, r.comp_us, r.eager_ratio, r.comp_ratio,
                r.comp_vs_eager, mirror, r.compile_ms, r.diff_eager, r.diff_comp);
  }
  return 0;
}

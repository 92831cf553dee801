// xtensor backend: the neural-network kernels (conv, conv_transpose, conv_weight_grad,
// max_pool) over channels-first arrays with 1 to 3 spatial axes.
//
// Convolutions of float32 arrays without an empty axis run oneDNN's convolution primitives
// (forward, backward data, backward weights) on the arrays' buffers, where the build found
// oneDNN (IVY_HAS_DNNL). The rest (float64, empty arrays, builds without oneDNN) are im2col +
// Eigen GEMM per sample and channel group: the input patches of a sample form a
// [C/groups * K, P] matrix (K taps per kernel, P output positions), and
// out[O/groups, P] = w[O/groups, C/groups * K] * cols. conv_transpose multiplies by w's
// transpose and scatters the columns back (col2im); conv_weight_grad accumulates gy * cols^T
// over the batch. A 1x1 kernel with unit strides and no padding uses the input as cols.
// Every spatial rank runs as rank 3, the missing leading axes of size 1.
// max_pool is a loop of ivy's over the windows.
#include <Eigen/Dense>
#ifdef IVY_HAS_DNNL
#include "dnnl_layouts.hpp"
#endif

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include "xt_common.hpp"

namespace ivy::xtensor_backend {
namespace {

using Index = std::int64_t;
template <class T> using RMat = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <class T> using Map = Eigen::Map<RMat<T>>;
template <class T> using CMap = Eigen::Map<const RMat<T>>;

// One convolution's geometry, spatial axes padded to three (leading axes of size 1).
struct Geometry {
  Index n = 0, c = 0, o = 0, groups = 1;
  Index s[3] = {1, 1, 1};    // input spatial sizes
  Index k[3] = {1, 1, 1};    // kernel taps
  Index out[3] = {1, 1, 1};  // output spatial sizes
  Index stride[3] = {1, 1, 1}, lo[3] = {0, 0, 0}, dil[3] = {1, 1, 1};
  Index cg() const { return c / groups; }
  Index og() const { return o / groups; }
  Index in_plane() const { return s[0] * s[1] * s[2]; }
  Index taps() const { return k[0] * k[1] * k[2]; }
  Index positions() const { return out[0] * out[1] * out[2]; }
  // cols is the input itself: one tap, unit strides, no padding
  bool direct() const {
    for (int i = 0; i < 3; ++i)
      if (k[i] != 1 || stride[i] != 1 || lo[i] != 0 || out[i] != s[i]) return false;
    return true;
  }
};

// x [N, C, *S], w [O, C/groups, *K], y [N, O, *S'] and the attributes.
Geometry geometry(const Shape& x, const Shape& w, const Shape& y, AttrsRef a) {
  const auto& p = a.get<attr::conv>();
  Geometry g;
  const int d = static_cast<int>(x.size()) - 2, off = 3 - d;
  g.n = x[0];
  g.c = x[1];
  g.o = w[0];
  g.groups = p.groups;
  for (int i = 0; i < d; ++i) {
    g.s[off + i] = x[2 + i];
    g.k[off + i] = w[2 + i];
    g.out[off + i] = y[2 + i];
    g.stride[off + i] = p.strides[i];
    g.lo[off + i] = p.padding[i];
    g.dil[off + i] = p.dilations[i];
  }
  return g;
}

// The output positions o in [0, n_out) whose tap at offset `off` lands inside [0, len):
// o * stride + off in [0, len).
inline void valid_range(Index off, Index stride, Index len, Index n_out, Index* first, Index* last) {
  Index f = off >= 0 ? 0 : (-off + stride - 1) / stride;
  Index l = len - 1 - off < 0 ? 0 : (len - 1 - off) / stride + 1;
  *first = std::min(f, n_out);
  *last = std::max(*first, std::min(l, n_out));
}

// cols [cg * taps, P] from one sample-group image [cg, S0, S1, S2] (zeros where taps fall in
// the padding).
template <class T>
void im2col(const Geometry& g, const T* img, T* cols) {
  const Index P = g.positions();
  Index row = 0;
  for (Index c = 0; c < g.cg(); ++c)
    for (Index k0 = 0; k0 < g.k[0]; ++k0)
      for (Index k1 = 0; k1 < g.k[1]; ++k1)
        for (Index k2 = 0; k2 < g.k[2]; ++k2, ++row) {
          T* dst = cols + row * P;
          const Index off0 = k0 * g.dil[0] - g.lo[0], off1 = k1 * g.dil[1] - g.lo[1], off2 = k2 * g.dil[2] - g.lo[2];
          Index a2, b2;
          valid_range(off2, g.stride[2], g.s[2], g.out[2], &a2, &b2);
          for (Index o0 = 0; o0 < g.out[0]; ++o0) {
            const Index i0 = o0 * g.stride[0] + off0;
            for (Index o1 = 0; o1 < g.out[1]; ++o1) {
              T* d = dst + (o0 * g.out[1] + o1) * g.out[2];
              const Index i1 = o1 * g.stride[1] + off1;
              if (i0 < 0 || i0 >= g.s[0] || i1 < 0 || i1 >= g.s[1]) {
                std::fill(d, d + g.out[2], T(0));
                continue;
              }
              const T* src = img + ((c * g.s[0] + i0) * g.s[1] + i1) * g.s[2];
              std::fill(d, d + a2, T(0));
              if (g.stride[2] == 1) {
                if (b2 > a2) std::memcpy(d + a2, src + a2 + off2, static_cast<std::size_t>(b2 - a2) * sizeof(T));
              } else {
                for (Index o2 = a2; o2 < b2; ++o2) d[o2] = src[o2 * g.stride[2] + off2];
              }
              std::fill(d + b2, d + g.out[2], T(0));
            }
          }
        }
}

// The adjoint of im2col: adds every column entry back into the image (which it does not clear).
template <class T>
void col2im(const Geometry& g, const T* cols, T* img) {
  const Index P = g.positions();
  Index row = 0;
  for (Index c = 0; c < g.cg(); ++c)
    for (Index k0 = 0; k0 < g.k[0]; ++k0)
      for (Index k1 = 0; k1 < g.k[1]; ++k1)
        for (Index k2 = 0; k2 < g.k[2]; ++k2, ++row) {
          const T* src = cols + row * P;
          const Index off0 = k0 * g.dil[0] - g.lo[0], off1 = k1 * g.dil[1] - g.lo[1], off2 = k2 * g.dil[2] - g.lo[2];
          Index a2, b2;
          valid_range(off2, g.stride[2], g.s[2], g.out[2], &a2, &b2);
          for (Index o0 = 0; o0 < g.out[0]; ++o0) {
            const Index i0 = o0 * g.stride[0] + off0;
            if (i0 < 0 || i0 >= g.s[0]) continue;
            for (Index o1 = 0; o1 < g.out[1]; ++o1) {
              const Index i1 = o1 * g.stride[1] + off1;
              if (i1 < 0 || i1 >= g.s[1]) continue;
              const T* s = src + (o0 * g.out[1] + o1) * g.out[2];
              T* dst = img + ((c * g.s[0] + i0) * g.s[1] + i1) * g.s[2];
              for (Index o2 = a2; o2 < b2; ++o2) dst[o2 * g.stride[2] + off2] += s[o2];
            }
          }
        }
}

template <class F>
void visit_real(const char* op, DType d, F&& f) {
  if (d == float32) return f(Tag<float>{});
  if (d == float64) return f(Tag<double>{});
  throw TypeError(std::string("[") + op + "] expects float32 or float64 arrays, got " + dtype_name(d) +
                  " (backend xtensor)");
}

Array zeroed(const Shape& s, DType d) {
  Array r = alloc(s, d);
  if (r.size()) std::memset(raw(r), 0, static_cast<std::size_t>(r.size()) * itemsize(d));
  return r;
}


#ifdef IVY_HAS_DNNL
// ---- oneDNN (Debian's libdnnl): its convolution and both backward passes on the arrays'
// own buffers in the plain layouts (ncw/nchw/ncdhw, [g]oi[d]hw), float32 only; oneDNN pads
// unequally before and after, as the primitives do.
namespace dnnl_conv {
using dnnl::memory;
using tag = memory::format_tag;

using cpu::dnnl_layouts::dims_of;
using cpu::dnnl_layouts::engine;
constexpr auto act_tag = cpu::dnnl_layouts::row_major;
constexpr auto weights_md = cpu::dnnl_layouts::weights;
struct Geo {
  memory::desc x, w, y;
  memory::dims strides, dil, lo, hi;
};
Geo geo(const Shape& x, const Shape& w, const Shape& y, AttrsRef a) {
  const auto& p = a.get<attr::conv>();
  const std::size_t d = x.size() - 2;
  Geo g{memory::desc(dims_of(x), memory::data_type::f32, act_tag(x.size())), weights_md(w, p.groups),
        memory::desc(dims_of(y), memory::data_type::f32, act_tag(y.size())), {}, {}, {}, {}};
  for (std::size_t i = 0; i < d; ++i) {
    g.strides.push_back(p.strides[i]);
    g.dil.push_back(p.dilations[i] - 1);  // oneDNN counts the gaps
    g.lo.push_back(p.padding[i]);
    g.hi.push_back(p.padding[d + i]);
  }
  return g;
}
dnnl::convolution_forward::primitive_desc forward_pd(const Geo& g) {
  dnnl::convolution_forward::desc d(dnnl::prop_kind::forward_training, dnnl::algorithm::convolution_direct, g.x, g.w,
                                    g.y, g.strides, g.dil, g.lo, g.hi);
  return dnnl::convolution_forward::primitive_desc(d, engine());
}
memory mem(const memory::desc& md, const Array& a) { return memory(md, engine(), raw(a)); }

// The oneDNN primitive run, with its operands (a0, a1) and result (out).
enum class Pass : std::uint8_t {
  forward,           // conv: x, w -> y
  backward_data,     // conv_transpose, the adjoint in x: gy, w -> gx
  backward_weights,  // conv_weight_grad, the adjoint in w: x, gy -> gw
};
void run(Pass pass, const Array& a0, const Array& a1, Array& out, AttrsRef a) {
  const Shape& xs = pass == Pass::backward_data ? out.shape() : a0.shape();
  const Shape& ws = pass == Pass::backward_weights ? out.shape() : a1.shape();
  const Shape& ys = pass == Pass::forward ? out.shape() : pass == Pass::backward_data ? a0.shape() : a1.shape();
  const Geo g = geo(xs, ws, ys, a);
  dnnl::stream st(engine());
  auto fwd = forward_pd(g);
  if (pass == Pass::forward) {
    dnnl::convolution_forward(fwd).execute(
        st, {{DNNL_ARG_SRC, mem(g.x, a0)}, {DNNL_ARG_WEIGHTS, mem(g.w, a1)}, {DNNL_ARG_DST, mem(g.y, out)}});
  } else if (pass == Pass::backward_data) {
    dnnl::convolution_backward_data::desc d(dnnl::algorithm::convolution_direct, g.x, g.w, g.y, g.strides, g.dil, g.lo,
                                            g.hi);
    dnnl::convolution_backward_data::primitive_desc pd(d, engine(), fwd);
    dnnl::convolution_backward_data(pd).execute(
        st, {{DNNL_ARG_DIFF_DST, mem(g.y, a0)}, {DNNL_ARG_WEIGHTS, mem(g.w, a1)}, {DNNL_ARG_DIFF_SRC, mem(g.x, out)}});
  } else {
    dnnl::convolution_backward_weights::desc d(dnnl::algorithm::convolution_direct, g.x, g.w, g.y, g.strides, g.dil,
                                               g.lo, g.hi);
    dnnl::convolution_backward_weights::primitive_desc pd(d, engine(), fwd);
    dnnl::convolution_backward_weights(pd).execute(
        st, {{DNNL_ARG_SRC, mem(g.x, a0)}, {DNNL_ARG_DIFF_DST, mem(g.y, a1)}, {DNNL_ARG_DIFF_WEIGHTS, mem(g.w, out)}});
  }
  st.wait();
}
// float32 with every size non-zero (oneDNN refuses empty tensors): the zero cases stay on
// the im2col path, which handles them
bool usable(DType d, const Shape& a, const Shape& b, const Shape& c) {
  if (d != float32) return false;
  for (const Shape* s : {&a, &b, &c})
    for (auto e : *s)
      if (e == 0) return false;
  return true;
}
}  // namespace dnnl_conv
#endif

}  // namespace

XT_KERNEL(conv) {
  const Array &x = in[0], &w = in[1];
  const Geometry g = geometry(x.shape(), w.shape(), spec[0].shape, a);
  out[0] = alloc(spec[0].shape, spec[0].dtype);
#ifdef IVY_HAS_DNNL
  if (dnnl_conv::usable(spec[0].dtype, x.shape(), w.shape(), spec[0].shape))
    return dnnl_conv::run(dnnl_conv::Pass::forward, x, w, out[0], a);
#endif
  if (out[0].size() == 0) return;
  if (g.cg() * g.taps() == 0) {  // a sum over nothing
    std::memset(raw(out[0]), 0, static_cast<std::size_t>(out[0].size()) * itemsize(spec[0].dtype));
    return;
  }
  visit_real("conv", spec[0].dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const Index P = g.positions(), rows = g.cg() * g.taps();
    const bool direct = g.direct();
    std::vector<T> cols(direct ? 0 : static_cast<std::size_t>(rows * P));
    const T* px = ptr<T>(x);
    const T* pw = ptr<T>(w);
    T* py = ptr<T>(out[0]);
    for (Index n = 0; n < g.n; ++n)
      for (Index gr = 0; gr < g.groups; ++gr) {
        const T* img = px + (n * g.c + gr * g.cg()) * g.in_plane();
        if (!direct) im2col(g, img, cols.data());
        CMap<T> C(direct ? img : cols.data(), rows, P);
        CMap<T> W(pw + gr * g.og() * rows, g.og(), rows);
        Map<T> Y(py + (n * g.o + gr * g.og()) * P, g.og(), P);
        Y.noalias() = W * C;
      }
  });
}

XT_KERNEL(conv_transpose) {
  const Array &gy = in[0], &w = in[1];
  const Geometry g = geometry(spec[0].shape, w.shape(), gy.shape(), a);
#ifdef IVY_HAS_DNNL
  if (dnnl_conv::usable(spec[0].dtype, gy.shape(), w.shape(), spec[0].shape)) {
    out[0] = alloc(spec[0].shape, spec[0].dtype);
    return dnnl_conv::run(dnnl_conv::Pass::backward_data, gy, w, out[0], a);
  }
#endif
  out[0] = zeroed(spec[0].shape, spec[0].dtype);
  if (out[0].size() == 0 || gy.size() == 0) return;
  visit_real("conv_transpose", spec[0].dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const Index P = g.positions(), rows = g.cg() * g.taps();
    const bool direct = g.direct();
    std::vector<T> cols(direct ? 0 : static_cast<std::size_t>(rows * P));
    const T* pg = ptr<T>(gy);
    const T* pw = ptr<T>(w);
    T* px = ptr<T>(out[0]);
    for (Index n = 0; n < g.n; ++n)
      for (Index gr = 0; gr < g.groups; ++gr) {
        T* img = px + (n * g.c + gr * g.cg()) * g.in_plane();
        CMap<T> W(pw + gr * g.og() * rows, g.og(), rows);
        CMap<T> G(pg + (n * g.o + gr * g.og()) * P, g.og(), P);
        if (direct) {
          Map<T>(img, rows, P).noalias() = W.transpose() * G;
        } else {
          Map<T>(cols.data(), rows, P).noalias() = W.transpose() * G;
          col2im(g, cols.data(), img);
        }
      }
  });
}

XT_KERNEL(conv_weight_grad) {
  const Array &x = in[0], &gy = in[1];
  const Geometry g = geometry(x.shape(), spec[0].shape, gy.shape(), a);
#ifdef IVY_HAS_DNNL
  if (dnnl_conv::usable(spec[0].dtype, x.shape(), gy.shape(), spec[0].shape)) {
    out[0] = alloc(spec[0].shape, spec[0].dtype);
    return dnnl_conv::run(dnnl_conv::Pass::backward_weights, x, gy, out[0], a);
  }
#endif
  out[0] = zeroed(spec[0].shape, spec[0].dtype);
  if (out[0].size() == 0 || gy.size() == 0) return;
  visit_real("conv_weight_grad", spec[0].dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const Index P = g.positions(), rows = g.cg() * g.taps();
    const bool direct = g.direct();
    std::vector<T> cols(direct ? 0 : static_cast<std::size_t>(rows * P));
    const T* px = ptr<T>(x);
    const T* pg = ptr<T>(gy);
    T* pw = ptr<T>(out[0]);
    for (Index n = 0; n < g.n; ++n)
      for (Index gr = 0; gr < g.groups; ++gr) {
        const T* img = px + (n * g.c + gr * g.cg()) * g.in_plane();
        if (!direct) im2col(g, img, cols.data());
        CMap<T> C(direct ? img : cols.data(), rows, P);
        CMap<T> G(pg + (n * g.o + gr * g.og()) * P, g.og(), P);
        Map<T>(pw + gr * g.og() * rows, g.og(), rows).noalias() += G * C.transpose();
      }
  });
}

// Window maxima over [N, C, *S]; a NaN in a window wins (as in torch); ties keep the first.
// Positions are flat indices into x.
XT_KERNEL(max_pool) {
  const Array& x = in[0];
  const auto& p = a.get<attr::pool>();
  const int d = static_cast<int>(x.ndim()) - 2, off = 3 - d;
  Index s[3] = {1, 1, 1}, k[3] = {1, 1, 1}, o[3] = {1, 1, 1}, st[3] = {1, 1, 1}, lo[3] = {0, 0, 0}, dl[3] = {1, 1, 1};
  for (int i = 0; i < d; ++i) {
    s[off + i] = x.shape()[2 + i];
    k[off + i] = p.window[i];
    o[off + i] = spec[0].shape[2 + i];
    st[off + i] = p.strides[i];
    lo[off + i] = p.padding[i];
    dl[off + i] = p.dilations[i];
  }
  out[0] = alloc(spec[0].shape, spec[0].dtype);
  out[1] = alloc(spec[1].shape, int64);
  const Index planes = x.shape()[0] * x.shape()[1], plane = s[0] * s[1] * s[2];
  visit(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, bool> || is_cplx_v<T>) {
      throw TypeError(std::string("[max_pool] expects a real numeric array, got ") + dtype_name(x.dtype()) +
                      " (backend xtensor)");
    } else {
      const T* px = ptr<T>(x);
      // restrict: the int64 positions written must not alias the Index geometry read
      T* __restrict pv = ptr<T>(out[0]);
      std::int64_t* __restrict pi = ptr<std::int64_t>(out[1]);
      const Index s1 = s[1], s2 = s[2], st0 = st[0], st1 = st[1], lo0 = lo[0], lo1 = lo[1], dl0 = dl[0], dl1 = dl[1],
                  dl2 = dl[2];
      // per axis and output position, the taps [first, last) that land inside the input
      std::vector<Index> first[3], last[3];
      for (int i = 0; i < 3; ++i)
        for (Index q = 0; q < o[i]; ++q) {
          const Index start = q * st[i] - lo[i];  // the input index of tap 0
          const Index f = start >= 0 ? 0 : (-start + dl[i] - 1) / dl[i];
          const Index l = s[i] - 1 - start < 0 ? 0 : (s[i] - 1 - start) / dl[i] + 1;
          first[i].push_back(std::min(f, k[i]));
          last[i].push_back(std::max(first[i].back(), std::min(l, k[i])));
        }
      // a later tap wins when greater, or when NaN over a number
      auto wins = [](T v, T best) {
        bool w = v > best;
        if constexpr (std::is_floating_point_v<T>) w = w | ((v != v) & (best == best));
        return w;
      };
      constexpr T lowest = std::is_floating_point_v<T> ? -std::numeric_limits<T>::infinity()
                                                        : std::numeric_limits<T>::lowest();
      // Unpadded, undilated 1-D and 2-D windows over an x without NaN: "greater" alone
      // decides, in a plain loop the compiler vectorizes (a NaN test in it keeps it scalar).
      bool plain = k[0] == 1 && o[0] == 1 && s[0] == 1 && dl1 == 1 && dl2 == 1;
      for (auto e : p.padding) plain = plain && e == 0;
      if constexpr (std::is_floating_point_v<T>)
        if (plain) {
          bool has_nan = false;
          for (Index i = 0, total = x.size(); i < total; ++i) has_nan |= px[i] != px[i];
          plain = !has_nan;
        }
      if (plain) {
        const Index K1 = k[1], K2 = k[2], S1 = st1, S2 = st[2], O1 = o[1], O2 = o[2];
        for (Index pl = 0; pl < planes; ++pl) {
          const T* img = px + pl * plane;
          for (Index o1 = 0; o1 < O1; ++o1)
            for (Index o2 = 0; o2 < O2; ++o2) {
              Index at = (o1 * S1) * s2 + o2 * S2;
              T best = img[at];
              for (Index k1 = 0; k1 < K1; ++k1)
                for (Index k2 = 0; k2 < K2; ++k2) {
                  const Index q = (o1 * S1 + k1) * s2 + o2 * S2 + k2;
                  const T v = img[q];
                  const bool w = v > best;
                  best = w ? v : best;
                  at = w ? q : at;
                }
              *pv++ = best;
              *pi++ = pl * plane + at;
            }
        }
        return;
      }
      for (Index pl = 0; pl < planes; ++pl) {
        const T* img = px + pl * plane;
        for (Index o0 = 0; o0 < o[0]; ++o0) {
          const Index a0 = first[0][o0], b0 = last[0][o0];
          for (Index o1 = 0; o1 < o[1]; ++o1) {
            const Index a1 = first[1][o1], b1 = last[1][o1];
            for (Index o2 = 0; o2 < o[2]; ++o2) {
              const Index a2 = first[2][o2], b2 = last[2][o2];
              const Index base2 = o2 * st[2] - lo[2];
              auto row_of = [=](Index k0, Index k1) {
                return ((o0 * st0 - lo0 + k0 * dl0) * s1 + (o1 * st1 - lo1 + k1 * dl1)) * s2 + base2;
              };
              T best;
              Index at;
              if (a0 < b0 && a1 < b1 && a2 < b2) {
                at = row_of(a0, a1) + a2 * dl2;
                best = img[at];
                for (Index k0 = a0; k0 < b0; ++k0)
                  for (Index k1 = a1; k1 < b1; ++k1) {
                    const Index row = row_of(k0, k1);
                    for (Index k2 = a2; k2 < b2; ++k2) {
                      const Index pos = row + k2 * dl2;
                      const T v = img[pos];
                      const bool win = wins(v, best);
                      best = win ? v : best;
                      at = win ? pos : at;
                    }
                  }
              } else {  // a window of padding alone (padding after the input): the lowest value
                best = lowest;
                at = 0;
              }
              *pv++ = best;
              *pi++ = pl * plane + at;
            }
          }
        }
      }
    }
  });
}

namespace {
// Sum over a row of f(x[i]) in double, in 16 independent partial sums (lanes) so that the
// additions vectorize without reassociating any one chain; the lanes are added in order.
template <class T, class F>
double lane_sum(const T* x, Index n, const F& f) {
  constexpr int kLanes = 16;
  double acc[kLanes] = {};
  Index i = 0;
  for (; i + kLanes <= n; i += kLanes)
    for (int l = 0; l < kLanes; ++l) acc[l] += f(static_cast<double>(x[i + l]));
  double s = 0;
  for (int l = 0; l < kLanes; ++l) s += acc[l];
  for (; i < n; ++i) s += f(static_cast<double>(x[i]));
  return s;
}
}  // namespace

// layer_norm: per row of the normalized axes (the trailing `row` elements, contiguous), the
// mean and the biased variance by two passes accumulated in double (lane_sum), then
// y = (x - mean) * rstd rounded to the input's dtype. ivy's loop: xtensor computes nothing here.
XT_KERNEL(layer_norm) {
  const Array& x = in[0];
  const auto& p = a.get<attr::layer_norm>();
  out[0] = alloc(spec[0].shape, spec[0].dtype);
  out[1] = alloc(spec[1].shape, spec[1].dtype);
  out[2] = alloc(spec[2].shape, spec[2].dtype);
  Index row = 1;
  for (std::int64_t i = p.axis; i < x.ndim(); ++i) row *= x.shape()[static_cast<std::size_t>(i)];
  const Index rows = row == 0 ? 0 : x.size() / row;
  visit(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (!std::is_floating_point_v<T>) {
      throw TypeError(std::string("[layer_norm] expects a real floating array, got ") + dtype_name(x.dtype()) +
                      " (backend xtensor)");
    } else {
      const T* px = ptr<T>(x);
      T* __restrict py = ptr<T>(out[0]);
      T* __restrict pm = ptr<T>(out[1]);
      T* __restrict pr = ptr<T>(out[2]);
      for (Index r = 0; r < rows; ++r) {
        const T* xr = px + r * row;
        const double mu = lane_sum(xr, row, [](double v) { return v; }) / static_cast<double>(row);
        const double ss = lane_sum(xr, row, [mu](double v) { return (v - mu) * (v - mu); });
        const double rstd = 1.0 / std::sqrt(ss / static_cast<double>(row) + p.eps);
        pm[r] = static_cast<T>(mu);
        pr[r] = static_cast<T>(rstd);
        T* yr = py + r * row;
        for (Index i = 0; i < row; ++i) yr[i] = static_cast<T>((static_cast<double>(xr[i]) - mu) * rstd);
      }
    }
  });
}

}  // namespace ivy::xtensor_backend

// ONNX signal and region operators (default domain): DFT, STFT, the Hann / Hamming / Blackman
// windows, MelWeightMatrix, MaxUnpool and RoiAlign, written with ivy's public API only.
// Complex values travel as ONNX lays them out: a trailing axis of 1 (real) or 2 (real, imag).
#include <cmath>
#include <complex>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "onnx_ops.hpp"
#include "ivy/nn_resample.hpp"

namespace ivy::onnx::detail {
namespace {

using I64 = std::int64_t;
using Ints = std::vector<I64>;

std::string str(I64 v) { return std::to_string(v); }

// A scalar (or one-element) integer input.
I64 scalar_int(const NodeInfo& n, const Array& a, const char* what) {
  const Ints v = int_values(n, a, what);
  if (v.size() != 1) n.fail(std::string(what) + " must hold one value, got shape " + a.shape().str());
  return v[0];
}
double scalar_float(const NodeInfo& n, const Array& a, const char* what) {
  const std::vector<double> v = float_values(n, a, what);
  if (v.size() != 1) n.fail(std::string(what) + " must hold one value, got shape " + a.shape().str());
  return v[0];
}

// The dtype the math runs in: float16 / bfloat16 are widened to float32.
DType compute_dtype(DType d) { return d == float16 || d == bfloat16 ? float32 : d; }

// ---------------------------------------------------------------- DFT, STFT
// The DFT of x [..., 1 | 2] along `axis` (< rank - 1), in ONNX's layout: [..., 2], or
// [..., 1] for the inverse one-sided transform (IRFFT).
Array dft(const NodeInfo& n, const Array& x, I64 axis, std::optional<I64> len, bool inverse, bool onesided) {
  if (!is_real_floating(x.dtype()))
    n.fail("input must be a real floating tensor [..., 1 or 2], got " + std::string(dtype_name(x.dtype())));
  const I64 c = x.ndim() >= 2 ? x.shape()[x.ndim() - 1] : 0;
  if (c != 1 && c != 2) n.fail("input of shape " + x.shape().str() + " needs a trailing axis of 1 (real) or 2 (complex)");
  if (len && *len < 1) n.fail("dft_length " + str(*len) + " must be positive");
  // float64 throughout, as ONNX's reference: float32 transforms leave ~1e-6 where it has zeros
  const DType dt = x.dtype();
  const Array xf = astype(x, float64, false);
  const Array re = xf.index({Ellipsis, 0});
  const bool cplx = c == 2;
  const Array sig = cplx ? re + xf.index({Ellipsis, 1}) * Scalar(std::complex<double>(0.0, 1.0)) : re;
  Array y;
  if (onesided && inverse) {
    if (!cplx) n.fail("the one-sided inverse DFT needs a complex input [..., 2], got shape " + x.shape().str());
    return astype(expand_dims(fft::irfft(sig, len, axis), -1), dt, false);
  }
  if (onesided) {
    if (cplx) n.fail("a one-sided DFT needs a real input [..., 1], got shape " + x.shape().str());
    y = fft::rfft(re, len, axis);
  } else {
    y = inverse ? fft::ifft(sig, len, axis) : fft::fft(sig, len, axis);
  }
  return astype(stack({real(y), imag(y)}, -1), dt, false);
}

// DFT-17: axis attribute (default 1); DFT-20: axis input (default -2). Both count the trailing
// complex axis in the rank but may not name it.
std::vector<Array> op_dft(const NodeInfo& n, const std::vector<Array>& in) {
  need_inputs(n, in, 1, n.since >= 20 ? 3 : 2);
  const Array& x = in[0];
  const I64 r = x.ndim();
  I64 axis = n.since >= 20 ? (in.size() > 2 && in[2].defined() ? scalar_int(n, in[2], "axis") : -2) : n.i("axis", 1);
  if (r < 2) n.fail("input of shape " + x.shape().str() + " needs a signal axis and a trailing complex axis");
  const I64 a = axis < 0 ? axis + r : axis;
  if (a < 0 || a > r - 2)
    n.fail("axis " + str(axis) + " is out of range for input of shape " + x.shape().str() + " (the last axis holds the complex parts)");
  std::optional<I64> len;
  if (in.size() > 1 && in[1].defined()) len = scalar_int(n, in[1], "dft_length");
  return {dft(n, x, a, len, n.i("inverse", 0) != 0, n.i("onesided", 0) != 0)};
}

// STFT: frames of frame_length every frame_step samples, times the window, each transformed.
std::vector<Array> op_stft(const NodeInfo& n, const std::vector<Array>& in) {
  need_inputs(n, in, 2, 4);
  const Array& x = in[0];
  if (x.ndim() != 3 || (x.shape()[2] != 1 && x.shape()[2] != 2))
    n.fail("signal of shape " + x.shape().str() + " must be [batch, length, 1 or 2]");
  const I64 len = x.shape()[1];
  const I64 step = scalar_int(n, in[1], "frame_step");
  if (step < 1) n.fail("frame_step " + str(step) + " must be positive");
  const bool has_window = in.size() > 2 && in[2].defined();
  if (has_window && in[2].ndim() != 1) n.fail("window of shape " + in[2].shape().str() + " must be 1-D");
  I64 fl = has_window ? in[2].shape()[0] : len;
  if (in.size() > 3 && in[3].defined()) {
    fl = scalar_int(n, in[3], "frame_length");
    if (has_window && in[2].shape()[0] != fl)
      n.fail("window of shape " + in[2].shape().str() + " does not match frame_length " + str(fl));
  }
  if (fl < 1 || fl > len)
    n.fail("frame_length " + str(fl) + " does not fit signal of shape " + x.shape().str());
  const I64 frames = 1 + (len - fl) / step;
  // sample positions [frames, fl] = f * step + k, gathered along the signal axis
  const Array f = arange(0, frames, 1, int64, x.device(), x.backend()) * Scalar(step);
  const Array k = arange(0, fl, 1, int64, x.device(), x.backend());
  const Array pos = reshape(expand_dims(f, 1) + expand_dims(k, 0), Shape{frames * fl});
  Array fr = reshape(take(x, pos, 1), Shape{x.shape()[0], frames, fl, x.shape()[2]});
  if (has_window) {
    if (!is_real_floating(in[2].dtype())) n.fail("window must be real floating, got " + std::string(dtype_name(in[2].dtype())));
    fr = fr * reshape(astype(in[2], x.dtype(), false), Shape{fl, 1});
  }
  return {dft(n, fr, 2, fl, false, n.i("onesided", 1) != 0)};
}

// ---------------------------------------------------------------- windows
enum class Win { Hann, Hamming, Blackman };

// w[k] over k in [0, size): N = size (periodic) or size - 1 (symmetric).
template <Win W>
std::vector<Array> op_window(const NodeInfo& n, const std::vector<Array>& in) {
  need_inputs(n, in, 1, 1);
  const I64 size = scalar_int(n, in[0], "size");
  if (size < 0) n.fail("size " + str(size) + " must not be negative");
  const DType dt = dtype_of_code(n, n.i("output_datatype", 1));
  const bool periodic = n.i("periodic", 1) != 0;
  const I64 den = periodic ? size : size - 1;
  const Array k = arange(0, size, 1, float64, in[0].device(), in[0].backend());
  if (den == 0) return {astype(ones_like(k), dt)};  // one-point symmetric window
  const Array a = k * (2.0 * pi / static_cast<double>(den));
  Array w;
  if constexpr (W == Win::Hann) w = 0.5 - 0.5 * cos(a);
  else if constexpr (W == Win::Hamming) w = 25.0 / 46.0 - (21.0 / 46.0) * cos(a);
  else w = 0.42 - 0.5 * cos(a) + 0.08 * cos(2.0 * a);
  return {astype(w, dt)};
}

// ---------------------------------------------------------------- MelWeightMatrix
// [dft_length / 2 + 1, num_mel_bins] triangular filters between mel-spaced points; the
// points come as ONNX computes them (num_mel_bins + 2 of them, spaced by range / (bins + 2),
// mapped to bins floor((dft_length + 1) * hz / sample_rate)).
std::vector<Array> op_mel_weight_matrix(const NodeInfo& n, const std::vector<Array>& in) {
  need_inputs(n, in, 5, 5);
  const I64 bins = scalar_int(n, in[0], "num_mel_bins");
  const I64 dft_len = scalar_int(n, in[1], "dft_length");
  const I64 rate = scalar_int(n, in[2], "sample_rate");
  const double lo = scalar_float(n, in[3], "lower_edge_hertz"), hi = scalar_float(n, in[4], "upper_edge_hertz");
  if (bins < 1 || dft_len < 1 || rate < 1)
    n.fail("num_mel_bins " + str(bins) + ", dft_length " + str(dft_len) + " and sample_rate " + str(rate) +
           " must be positive");
  const DType dt = dtype_of_code(n, n.i("output_datatype", 1));
  // the edge mels in the edges' precision, the rest in double
  double lo_mel, hi_mel;
  if (in[3].dtype() == float64) {
    lo_mel = 2595.0 * std::log10(1.0 + lo / 700.0);
    hi_mel = 2595.0 * std::log10(1.0 + hi / 700.0);
  } else {
    lo_mel = 2595.0f * std::log10(1.0f + static_cast<float>(lo) / 700.0f);
    hi_mel = 2595.0f * std::log10(1.0f + static_cast<float>(hi) / 700.0f);
  }
  const double mel_step = (hi_mel - lo_mel) / static_cast<double>(bins + 2);
  Ints pt(static_cast<std::size_t>(bins + 2));
  for (I64 i = 0; i < bins + 2; ++i) {
    const double hz = 700.0 * (std::pow(10.0, (static_cast<double>(i) * mel_step + lo_mel) / 2595.0) - 1.0);
    pt[static_cast<std::size_t>(i)] = static_cast<I64>(std::floor(static_cast<double>(dft_len + 1) * hz / static_cast<double>(rate)));
  }
  const I64 spec = dft_len / 2 + 1;
  std::vector<double> m(static_cast<std::size_t>(spec * bins), 0.0);
  auto set = [&](I64 j, I64 i, double v) {
    if (j < 0 || j >= spec)
      n.fail("mel point at frequency bin " + str(j) + " falls outside the " + str(spec) +
             " bins of dft_length " + str(dft_len) + " (lower_edge_hertz " + std::to_string(lo) + ", upper_edge_hertz " +
             std::to_string(hi) + ", sample_rate " + str(rate) + ")");
    m[static_cast<std::size_t>(j * bins + i)] = v;
  };
  for (I64 i = 0; i < bins; ++i) {
    const I64 l = pt[static_cast<std::size_t>(i)], c = pt[static_cast<std::size_t>(i + 1)], h = pt[static_cast<std::size_t>(i + 2)];
    if (c == l) set(c, i, 1.0);
    else
      for (I64 j = l; j <= c; ++j) set(j, i, static_cast<double>(j - l) / static_cast<double>(c - l));
    for (I64 j = c; j < h; ++j) set(j, i, static_cast<double>(h - j) / static_cast<double>(h - c));
  }
  return {asarray(m, Shape{spec, bins}, dt, in[0].device(), in[0].backend())};
}

// ---------------------------------------------------------------- MaxUnpool
// X's values written at their flat positions I into zeros of the pooled input's shape
// ((S - 1) * stride - pads + kernel); output_shape, when given, extends that at the ends.
std::vector<Array> op_max_unpool(const NodeInfo& n, const std::vector<Array>& in) {
  need_inputs(n, in, 2, 3);
  const Array& x = in[0];
  const Array& idx = in[1];
  const Ints ks = n.ints("kernel_shape");
  const I64 d = static_cast<I64>(ks.size());
  if (d < 1 || x.ndim() != d + 2)
    n.fail("kernel_shape " + Dims(ks.begin(), ks.end()).str() + " does not fit X of shape " + x.shape().str());
  if (idx.shape() != x.shape() || !is_integer(idx.dtype()))
    n.fail("I (" + std::string(dtype_name(idx.dtype())) + ", shape " + idx.shape().str() + ") must be an integer tensor of X's shape " +
           x.shape().str());
  const Ints st = n.ints("strides", Ints(static_cast<std::size_t>(d), 1));
  const Ints pads = n.ints("pads", Ints(static_cast<std::size_t>(2 * d), 0));
  if (static_cast<I64>(st.size()) != d || static_cast<I64>(pads.size()) != 2 * d)
    n.fail("strides " + Dims(st.begin(), st.end()).str() + " and pads " + Dims(pads.begin(), pads.end()).str() +
           " do not fit " + str(d) + " spatial axes");
  Shape inferred{x.shape()[0], x.shape()[1]};
  for (I64 i = 0; i < d; ++i) {
    const std::size_t u = static_cast<std::size_t>(i);
    inferred.push_back((x.shape()[2 + i] - 1) * st[u] - (pads[u] + pads[u + static_cast<std::size_t>(d)]) + ks[u]);
    if (inferred.back() < 1) n.fail("the unpooled shape " + inferred.str() + " is empty");
  }
  Array y = zeros(Shape{inferred.numel()}, x.dtype(), x.device(), x.backend());
  if (x.size() > 0) y.index_put({reshape(astype(idx, int64, false), Shape{x.size()})}, reshape(x, Shape{x.size()}));
  y = reshape(y, inferred);
  if (in.size() > 2 && in[2].defined()) {
    const Ints os = int_values(n, in[2], "output_shape");
    if (static_cast<I64>(os.size()) != x.ndim())
      n.fail("output_shape " + Dims(os.begin(), os.end()).str() + " must have X's rank " + str(x.ndim()));
    std::vector<std::pair<I64, I64>> grow;
    bool any = false;
    for (std::size_t i = 0; i < os.size(); ++i) {
      if (os[i] < inferred[i] || (i < 2 && os[i] != inferred[i]))
        n.fail("output_shape " + Dims(os.begin(), os.end()).str() + " cannot hold the unpooled shape " + inferred.str());
      grow.push_back({0, os[i] - inferred[i]});
      any = any || os[i] != inferred[i];
    }
    if (any) y = nn::pad_axes(y, grow);
  }
  return {y};
}

// ---------------------------------------------------------------- RoiAlign
// One axis of the sampling grid: per roi r, bin p and sample i (of G, the largest grid),
// the two neighbouring pixels and their bilinear weights (zero for samples outside the map or
// beyond the roi's own grid size g[r]).
struct AxisSamples {
  Array lo, hi;    // int64 [R, P, G]
  Array wlo, whi;  // [R, P, G]
  Array in_grid;   // bool [R, 1, G]
  Array g;         // [R] grid sizes (float)
  I64 G = 1;
};

AxisSamples axis_samples(const Array& start, const Array& size, I64 P, I64 L, I64 ratio) {
  const I64 R = start.shape()[0];
  const DType ft = start.dtype();
  AxisSamples s;
  const Array bin = size / Scalar(static_cast<double>(P));
  if (ratio > 0) {
    s.g = full(Shape{R}, Scalar(static_cast<double>(ratio)), ft, start.device(), start.backend());
    s.G = ratio;
  } else {
    s.g = ceil(bin);  // adaptive: ceil(roi size / bins) samples per bin
    if (R > 0) s.G = std::max<I64>(1, static_cast<I64>(max(s.g).item<double>()));
  }
  const Array p = reshape(arange(0, P, 1, ft, start.device(), start.backend()), Shape{1, P, 1});
  const Array i = reshape(arange(0, s.G, 1, ft, start.device(), start.backend()), Shape{1, 1, s.G});
  const Array g3 = reshape(s.g, Shape{R, 1, 1});
  const Array b3 = reshape(bin, Shape{R, 1, 1});
  const Array pos = reshape(start, Shape{R, 1, 1}) + p * b3 + (i + 0.5) * b3 / maximum(g3, Scalar(1.0));
  s.in_grid = i < g3;
  const Array valid = logical_and(pos >= Scalar(-1.0), pos <= Scalar(static_cast<double>(L)));
  Array c = maximum(pos, Scalar(0.0));
  Array low = floor(c);
  const Array edge = low >= Scalar(static_cast<double>(L - 1));
  low = where(edge, Scalar(static_cast<double>(L - 1)), low);
  const Array high = where(edge, Scalar(static_cast<double>(L - 1)), low + 1.0);
  c = where(edge, low, c);
  const Array frac = c - low;
  const Array keep = logical_and(valid, s.in_grid);
  s.wlo = where(keep, 1.0 - frac, Scalar(0.0));
  s.whi = where(keep, frac, Scalar(0.0));
  s.lo = astype(low, int64);
  s.hi = astype(high, int64);
  return s;
}

// [R, P, L]: the weight of pixel l in bin p, summed over the bin's samples (avg mode).
Array axis_matrix(const AxisSamples& s, I64 L) {
  const Array ls = reshape(arange(0, L, 1, int64, s.lo.device(), s.lo.backend()), Shape{1, 1, 1, L});
  const Array w = where(expand_dims(s.lo, -1) == ls, expand_dims(s.wlo, -1), Scalar(0.0)) +
                  where(expand_dims(s.hi, -1) == ls, expand_dims(s.whi, -1), Scalar(0.0));
  return sum(w, 2);
}

std::vector<Array> op_roi_align(const NodeInfo& n, const std::vector<Array>& in) {
  need_inputs(n, in, 3, 3);
  const Array& x = in[0];
  const Array& rois = in[1];
  const Array& bidx = in[2];
  if (x.ndim() != 4 || !is_real_floating(x.dtype()))
    n.fail("X (" + std::string(dtype_name(x.dtype())) + ", shape " + x.shape().str() + ") must be a floating [N, C, H, W] tensor");
  if (rois.ndim() != 2 || rois.shape()[1] != 4 || !is_real_floating(rois.dtype()))
    n.fail("rois (" + std::string(dtype_name(rois.dtype())) + ", shape " + rois.shape().str() + ") must be a floating [num_rois, 4] tensor");
  if (bidx.ndim() != 1 || bidx.shape()[0] != rois.shape()[0] || !is_integer(bidx.dtype()))
    n.fail("batch_indices (" + std::string(dtype_name(bidx.dtype())) + ", shape " + bidx.shape().str() +
           ") must be integer [num_rois] for rois " + rois.shape().str());
  const std::string mode = n.s("mode", "avg");
  if (mode != "avg" && mode != "max") n.fail("unknown mode '" + mode + "'");
  const std::string ctm =
      n.since >= 16 ? n.s("coordinate_transformation_mode", "half_pixel") : std::string("output_half_pixel");
  if (ctm != "half_pixel" && ctm != "output_half_pixel") n.fail("unknown coordinate_transformation_mode '" + ctm + "'");
  const bool half = ctm == "half_pixel";
  const I64 PH = n.i("output_height", 1), PW = n.i("output_width", 1), ratio = n.i("sampling_ratio", 0);
  if (PH < 1 || PW < 1 || ratio < 0)
    n.fail("output_height " + str(PH) + ", output_width " + str(PW) + " and sampling_ratio " + str(ratio) + " are invalid");
  const double scale = n.f("spatial_scale", 1.0);
  const I64 N = x.shape()[0], C = x.shape()[1], H = x.shape()[2], W = x.shape()[3], R = rois.shape()[0];
  for (I64 b : int_values(n, bidx, "batch_indices"))
    if (b < 0 || b >= N) n.fail("batch index " + str(b) + " is out of range for X of shape " + x.shape().str());
  const DType ft = compute_dtype(x.dtype());
  const Array xf = astype(x, ft, false);
  const Array r = astype(rois, ft, false);
  const double off = half ? 0.5 : 0.0;
  auto coord = [&](int k) { return r.index({Slice(), k}) * Scalar(scale) - Scalar(off); };
  const Array x0 = coord(0), y0 = coord(1);
  Array rw = coord(2) - x0, rh = coord(3) - y0;
  if (!half) {  // malformed rois become 1 x 1
    rw = maximum(rw, Scalar(1.0));
    rh = maximum(rh, Scalar(1.0));
  }
  const AxisSamples sy = axis_samples(y0, rh, PH, H, ratio), sx = axis_samples(x0, rw, PW, W, ratio);
  const Array bi = astype(bidx, int64, false);
  Array y;
  if (mode == "avg") {
    // out[r, c] = Ay[r] @ X[b_r, c] @ Ax[r]^T / count: the batch folded into Ay's rows
    const Array ay = axis_matrix(sy, H), ax = axis_matrix(sx, W);  // [R, PH, H], [R, PW, W]
    const Array hot = where(expand_dims(bi, 1) == reshape(arange(0, N, 1, int64, x.device(), x.backend()), Shape{1, N}),
                            Scalar(1.0), Scalar(0.0));
    const Array ayf = reshape(expand_dims(ay, 2) * reshape(astype(hot, ft), Shape{R, 1, N, 1}), Shape{R, PH, N * H});
    const Array xc = reshape(permute_dims(xf, Dims{1, 0, 2, 3}), Shape{C, N * H, W});
    const Array z = matmul(expand_dims(ayf, 1), expand_dims(xc, 0));  // [R, C, PH, W]
    y = matmul(z, expand_dims(matrix_transpose(ax), 1));             // [R, C, PH, PW]
    const Array count = maximum(sy.g * sx.g, Scalar(1.0));
    y = y / reshape(count, Shape{R, 1, 1, 1});
  } else {
    // the largest weighted corner of each sample, the largest over the bin's samples
    const Array xp = reshape(permute_dims(xf, Dims{0, 2, 3, 1}), Shape{N * H * W, C});
    const Shape grid{R, PH, sy.G, PW, sx.G};
    const Array base = reshape(bi * Scalar(H * W), Shape{R, 1, 1, 1, 1});
    auto ry = [&](const Array& a) { return reshape(a, Shape{R, PH, sy.G, 1, 1}); };
    auto rx = [&](const Array& a) { return reshape(a, Shape{R, 1, 1, PW, sx.G}); };
    Array m;
    for (int a = 0; a < 2; ++a)
      for (int b = 0; b < 2; ++b) {
        const Array pos = base + ry(a ? sy.hi : sy.lo) * Scalar(W) + rx(b ? sx.hi : sx.lo);
        const Array w = ry(a ? sy.whi : sy.wlo) * rx(b ? sx.whi : sx.wlo);
        Shape full_shape = grid;
        full_shape.push_back(C);
        const Array v = reshape(take(xp, reshape(broadcast_to(pos, grid), Shape{grid.numel()}), 0), full_shape) *
                        expand_dims(w, -1);
        m = m.defined() ? maximum(m, v) : v;
      }
    const Array mask = expand_dims(logical_and(reshape(sy.in_grid, Shape{R, 1, sy.G, 1, 1}),
                                               reshape(sx.in_grid, Shape{R, 1, 1, 1, sx.G})),
                                   -1);
    const Array best = max(where(mask, m, Scalar(-inf)), AxisArg(Dims{2, 4}));  // [R, PH, PW, C]
    y = where(any(mask, AxisArg(Dims{2, 4})), best, Scalar(0.0));
    y = permute_dims(y, Dims{0, 3, 1, 2});
  }
  return {astype(y, x.dtype(), false)};
}

}  // namespace

void add_signal_ops(std::vector<OpEntry>& table) {
  const OpEntry entries[] = {
      {"", "DFT", 17, op_dft},
      {"", "DFT", 20, op_dft},
      {"", "STFT", 17, op_stft},
      {"", "HannWindow", 17, op_window<Win::Hann>},
      {"", "HammingWindow", 17, op_window<Win::Hamming>},
      {"", "BlackmanWindow", 17, op_window<Win::Blackman>},
      {"", "MelWeightMatrix", 17, op_mel_weight_matrix},
      {"", "MaxUnpool", 9, op_max_unpool},
      {"", "MaxUnpool", 11, op_max_unpool},
      {"", "RoiAlign", 10, op_roi_align},
      {"", "RoiAlign", 16, op_roi_align},
  };
  table.insert(table.end(), std::begin(entries), std::end(entries));
}

}  // namespace ivy::onnx::detail

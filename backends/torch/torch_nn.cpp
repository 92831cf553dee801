// The torch backend's neural-network kernels (conv, conv_transpose, conv_weight_grad,
// max_pool): LibTorch's own convolution, convolution_backward and max_pool*_with_indices.
// LibTorch pads symmetrically; unequal padding before and after is applied to the input
// first (zeros for convolutions, -inf for pooling).
#include <limits>
#include <vector>

#include "torch_common.hpp"

namespace ivy::torch_backend {
namespace {

// padding: d entries before each spatial axis, then d after
bool symmetric(const Dims& padding) {
  const std::size_t d = padding.size() / 2;
  for (std::size_t i = 0; i < d; ++i)
    if (padding[i] != padding[d + i]) return false;
  return true;
}
std::vector<int64_t> before(const Dims& padding) {
  return std::vector<int64_t>(padding.begin(), padding.begin() + static_cast<std::ptrdiff_t>(padding.size() / 2));
}
// constant_pad_nd's list: (before, after) pairs from the last axis backwards.
std::vector<int64_t> pad_list(const Dims& padding) {
  const std::size_t d = padding.size() / 2;
  std::vector<int64_t> r;
  for (std::size_t i = d; i-- > 0;) {
    r.push_back(padding[i]);
    r.push_back(padding[d + i]);
  }
  return r;
}
std::vector<int64_t> zeros_like_dims(const Dims& d) { return std::vector<int64_t>(d.size(), 0); }

// x and the symmetric padding to pass to LibTorch: x itself and the padding before each axis
// when it is symmetric, else x padded with `fill` and no padding.
at::Tensor padded_input(const at::Tensor& x, const Dims& padding, double fill, std::vector<int64_t>* pad) {
  if (symmetric(padding)) {
    *pad = before(padding);
    return x;
  }
  *pad = std::vector<int64_t>(padding.size() / 2, 0);
  return at::constant_pad_nd(x, pad_list(padding), fill);
}

// Float32 convolutions over 2 or 3 spatial axes go to oneDNN (LibTorch's mkldnn_convolution,
// when LibTorch has it) rather than at::convolution: for small batches and kernels LibTorch
// picks its own im2col + GEMM path, which calls the system BLAS (Debian's reference BLAS
// unless an optimized one is installed) and ran mobilenet_v2 5x slower than oneDNN.
bool use_onednn(const at::Tensor& x, const at::Tensor& w) {
  static const bool has = at::hasMKLDNN();
  return has && x.scalar_type() == at::kFloat && w.scalar_type() == at::kFloat && (x.dim() == 4 || x.dim() == 5) &&
         x.numel() > 0 && w.numel() > 0;
}

}  // namespace

TORCH_KERNEL(conv) {
  run_kernel("conv", in, n, [&](bool) {
    const auto& p = a.get<attr::conv>();
    std::vector<int64_t> pad;
    at::Tensor x = padded_input(tensor_of(in[0]), p.padding, 0.0, &pad);
    const at::Tensor& w = tensor_of(in[1]);
    at::Tensor y = use_onednn(x, w) ? at::mkldnn_convolution(x.contiguous(), w.contiguous(), c10::nullopt, pad, ref(p.strides),
                                                              ref(p.dilations), p.groups)
                                    : at::convolution(x, w, c10::nullopt, ref(p.strides), pad, ref(p.dilations), false,
                                                      zeros_like_dims(p.strides), p.groups);
    out[0] = make_array(std::move(y), spec[0].dtype);
  });
}

// conv's adjoint in x is LibTorch's convolution backward for the input (it reads only the
// input's shape): on the padded input's shape when the padding is not symmetric, then the
// padding is cut off. (LibTorch's transposed convolution computes the same, far slower.)
TORCH_KERNEL(conv_transpose) {
  run_kernel("conv_transpose", in, n, [&](bool) {
    const auto& p = a.get<attr::conv>();
    const at::Tensor& gy = tensor_of(in[0]);
    const at::Tensor& w = tensor_of(in[1]);
    const std::size_t d = p.strides.size();
    const bool sym = symmetric(p.padding);
    std::vector<int64_t> xshape{gy.size(0), w.size(1) * p.groups}, pad(d, 0);
    for (std::size_t i = 0; i < d; ++i) {
      xshape.push_back(p.spatial[i] + (sym ? 0 : p.padding[i] + p.padding[d + i]));
      if (sym) pad[i] = p.padding[i];
    }
    at::Tensor shape_only = at::empty(xshape, gy.options());
    auto grads = at::convolution_backward(gy, shape_only, w, c10::nullopt, ref(p.strides), pad, ref(p.dilations), false,
                                          zeros_like_dims(p.strides), p.groups, {true, false, false});
    at::Tensor r = std::get<0>(grads);
    if (!sym) {
      for (std::size_t i = 0; i < d; ++i) r = r.narrow(static_cast<int64_t>(2 + i), p.padding[i], p.spatial[i]);
      r = r.contiguous();
    }
    out[0] = make_array(std::move(r), spec[0].dtype);
  });
}

TORCH_KERNEL(conv_weight_grad) {
  run_kernel("conv_weight_grad", in, n, [&](bool) {
    const auto& p = a.get<attr::conv>();
    std::vector<int64_t> pad;
    at::Tensor x = padded_input(tensor_of(in[0]), p.padding, 0.0, &pad);
    const at::Tensor& gy = tensor_of(in[1]);
    // LibTorch reads only the weight's shape and type here
    at::Tensor w = at::empty(ref(spec[0].shape), x.options());
    auto grads = at::convolution_backward(gy, x, w, c10::nullopt, ref(p.strides), pad, ref(p.dilations), false,
                                          zeros_like_dims(p.strides), p.groups, {false, true, false});
    out[0] = make_array(std::get<1>(grads), spec[0].dtype);
  });
}

// LibTorch's native_layer_norm without weight and bias: y, and its mean and rstd reshaped to
// the statistics' shape (the input's, the normalized axes as size 1).
TORCH_KERNEL(layer_norm) {
  run_kernel("layer_norm", in, n, [&](bool) {
    const auto& p = a.get<attr::layer_norm>();
    const at::Tensor& x = tensor_of(in[0]);
    const std::vector<int64_t> normalized(x.sizes().begin() + p.axis, x.sizes().end());
    auto r = at::native_layer_norm(x, normalized, c10::nullopt, c10::nullopt, p.eps);
    out[0] = make_array(std::move(std::get<0>(r)), spec[0].dtype);
    out[1] = make_array(std::get<1>(r).reshape(ref(spec[1].shape)), spec[1].dtype);
    out[2] = make_array(std::get<2>(r).reshape(ref(spec[2].shape)), spec[2].dtype);
  });
}

// LibTorch's max_pool*_with_indices (positions within each [*S] plane) when its padding
// limits hold (symmetric, at most half the window span), else on the input padded with -inf
// and the positions mapped back; then offset by each plane's start, to flat positions in x.
TORCH_KERNEL(max_pool) {
  run_kernel("max_pool", in, n, [&](bool) {
    const auto& p = a.get<attr::pool>();
    const at::Tensor& x0 = tensor_of(in[0]);
    const std::size_t d = p.window.size();
    bool native = symmetric(p.padding);
    for (std::size_t i = 0; i < d; ++i)
      native = native && p.padding[i] <= (p.dilations[i] * (p.window[i] - 1) + 1) / 2;
    std::vector<int64_t> pad;
    at::Tensor x = x0;
    if (native) {
      pad = before(p.padding);
    } else {
      pad = std::vector<int64_t>(d, 0);
      x = at::constant_pad_nd(x0, pad_list(p.padding), -std::numeric_limits<double>::infinity());
    }
    std::tuple<at::Tensor, at::Tensor> r;
    if (d == 1) {
      r = at::max_pool1d_with_indices(x, ref(p.window), ref(p.strides), pad, ref(p.dilations), false);
    } else if (d == 2) {
      // LibTorch's channels-last kernel vectorizes over the channels (its planar one does not);
      // the positions are within each plane either way.
      at::Tensor xl = x.contiguous(at::MemoryFormat::ChannelsLast);
      r = at::max_pool2d_with_indices(xl, ref(p.window), ref(p.strides), pad, ref(p.dilations), false);
      r = {std::get<0>(r).contiguous(), std::get<1>(r).contiguous()};
    } else {
      r = at::max_pool3d_with_indices(x, ref(p.window), ref(p.strides), pad, ref(p.dilations), false);
    }
    at::Tensor idx = std::get<1>(r);
    const int64_t nd = static_cast<int64_t>(d);
    if (!native) {  // unravel in the padded plane, shift, clamp into x, ravel in x's plane
      at::Tensor flat = at::zeros_like(idx);
      at::Tensor rest = idx;
      std::vector<at::Tensor> coord(d);
      for (int64_t i = nd; i-- > 0;) {
        const int64_t len = x.size(2 + i);
        coord[static_cast<std::size_t>(i)] = at::remainder(rest, len);
        rest = at::div(rest, len, "floor");
      }
      for (int64_t i = 0; i < nd; ++i) {
        at::Tensor c = at::clamp(coord[static_cast<std::size_t>(i)] - p.padding[static_cast<std::size_t>(i)], 0,
                                 x0.size(2 + i) - 1);
        flat = flat * x0.size(2 + i) + c;
      }
      idx = flat;
    }
    int64_t plane = 1;
    for (int64_t i = 0; i < nd; ++i) plane *= x0.size(2 + i);
    std::vector<int64_t> base_shape(static_cast<std::size_t>(2 + nd), 1);
    base_shape[0] = x0.size(0);
    base_shape[1] = x0.size(1);
    at::Tensor base = at::arange(x0.size(0) * x0.size(1), idx.options()).mul_(plane).reshape(base_shape);
    out[0] = make_array(std::get<0>(r), spec[0].dtype);
    out[1] = make_array(idx + base, int64);
  });
}

}  // namespace ivy::torch_backend

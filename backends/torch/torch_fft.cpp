// The torch backend's fft kernels: n-dimensional complex, real-to-complex and
// complex-to-real transforms over LibTorch's fft functions.
#include "torch_common.hpp"

namespace ivy::torch_backend {
namespace {

// The norm argument LibTorch's fft functions take for the view's norm (0, 1, 2).
const char* norm_name(int64_t i) { return i == 1 ? "ortho" : i == 2 ? "forward" : "backward"; }

}  // namespace

TORCH_KERNEL(fft_c2c) {
  run_kernel("fft_c2c", in, n, [&](bool) {
    const auto& p = a.get<attr::fft>();
    Input xi = input_as(in[0], spec[0].dtype);
    const at::Tensor& x = *xi;
    out[0] = make_array(p.inverse ? at::fft_ifftn(x, ref(p.lengths), ref(p.axes), norm_name(p.norm))
                                  : at::fft_fftn(x, ref(p.lengths), ref(p.axes), norm_name(p.norm)),
                        spec[0].dtype);
  });
}
TORCH_KERNEL(fft_r2c) {
  run_kernel("fft_r2c", in, n, [&](bool) {
    const auto& p = a.get<attr::fft>();
    const Input x = input_as(in[0], real_of(spec[0].dtype));
    out[0] = make_array(at::fft_rfftn(*x, ref(p.lengths), ref(p.axes), norm_name(p.norm)), spec[0].dtype);
  });
}
TORCH_KERNEL(fft_c2r) {
  run_kernel("fft_c2r", in, n, [&](bool) {
    const auto& p = a.get<attr::fft>();
    const Input x = input_as(in[0], complex_of(spec[0].dtype));
    out[0] = make_array(at::fft_irfftn(*x, ref(p.lengths), ref(p.axes), norm_name(p.norm)), spec[0].dtype);
  });
}

}  // namespace ivy::torch_backend

// The torch backend's manipulation kernels (reshape, permute_dims, broadcast_to, flip, roll,
// repeat, tile, concat), and the view bookkeeping of the direct path's views (tracked_view).
#include <cstring>
#include <span>
#include <vector>

#include "strided_copy.hpp"
#include "torch_common.hpp"
#if IVY_TORCH_INTERNALS
#include <torch/csrc/autograd/VariableTypeUtils.h>
#endif

namespace ivy::torch_backend {
namespace {

// flip of a plain contiguous CPU tensor on the direct path: one strided copy that walks the
// flipped axes backwards (backends/cpu/strided_copy.hpp, the xtensor backend's flip; rows of
// an unflipped last axis are memcpy'd).
at::Tensor own_flip(const at::Tensor& x, const Dims& axes) {
  at::Tensor r = ::at::cpu::empty(x.sizes(), x.options());
  const Shape shape(std::span<const std::int64_t>(x.sizes().data(), x.sizes().size()));
  Dims strides(std::span<const std::int64_t>(x.strides().data(), x.strides().size()));
  std::int64_t base = 0;
  for (std::int64_t d : axes) {
    if (shape[d] > 0) base += (shape[d] - 1) * strides[d];
    strides[d] = -strides[d];
  }
  cpu::strided::strided_copy(static_cast<unsigned char*>(r.data_ptr()), static_cast<const unsigned char*>(x.data_ptr()),
                             shape, strides, base, static_cast<std::size_t>(x.element_size()));
  return r;
}
// roll of a contiguous CPU tensor, flattened or along one axis, on the direct path: two
// memcpy's per row (cpu::strided::roll_rows, the xtensor backend's), where LibTorch's roll
// gathers.
at::Tensor roll_copy(const at::Tensor& x, const attr::roll& p) {
  if (!x.device().is_cpu() || !x.is_contiguous() || x.is_neg() || x.is_conj() || p.shifts.size() != 1 || x.numel() == 0)
    return {};
  std::int64_t outer = 1, len = x.numel(), inner = 1;
  if (p.axes) {
    if (p.axes->size() != 1) return {};
    const std::int64_t ax = (*p.axes)[0] < 0 ? (*p.axes)[0] + x.dim() : (*p.axes)[0];
    len = x.size(ax);
    for (std::int64_t d = 0; d < x.dim(); ++d)
      if (d < ax) outer *= x.size(d);
      else if (d > ax) inner *= x.size(d);
  }
  const std::int64_t s = cpu::strided::roll_shift(p.shifts[0], len);
  at::Tensor r = ::at::cpu::empty(x.sizes(), x.options());
  const auto sz = static_cast<std::size_t>(x.element_size());
  if (s == 0) std::memcpy(r.data_ptr(), x.data_ptr(), static_cast<std::size_t>(x.numel()) * sz);
  else
    cpu::strided::roll_rows(static_cast<const unsigned char*>(x.data_ptr()), static_cast<unsigned char*>(r.data_ptr()),
                            outer, len, inner, s, sz);
  return r;
}

// concat of contiguous CPU tensors of one dtype on the direct path: ivy's row copy
// (cpu::strided::concat_rows, the xtensor backend's), where LibTorch's cat walks narrow
// inputs (a stack along the last axis) element by element through TensorIterator.
// Undefined where it does not apply.
at::Tensor concat_copy(const c10::SmallVector<at::Tensor, 8>& ts, std::int64_t axis, const Shape& shape) {
  if (ts.empty()) return {};
  for (const at::Tensor& t : ts)
    if (!t.device().is_cpu() || !t.is_contiguous() || t.is_neg() || t.is_conj() ||
        t.scalar_type() != ts[0].scalar_type() || t.dim() != static_cast<std::int64_t>(shape.size()))
      return {};
  std::int64_t outer = 1;
  for (std::int64_t d = 0; d < axis; ++d) outer *= shape[static_cast<std::size_t>(d)];
  std::vector<std::int64_t> chunks;
  std::vector<const unsigned char*> srcs;
  chunks.reserve(ts.size());
  srcs.reserve(ts.size());
  for (const at::Tensor& t : ts) {
    chunks.push_back(outer ? t.numel() / outer : 0);
    srcs.push_back(static_cast<const unsigned char*>(t.data_ptr()));
  }
  at::Tensor r = ::at::cpu::empty(ref(shape), ts[0].options());
  cpu::strided::concat_rows(static_cast<unsigned char*>(r.data_ptr()), srcs.data(), chunks.data(),
                            static_cast<int>(ts.size()), outer, static_cast<std::size_t>(r.element_size()));
  return r;
}

}  // namespace

at::Tensor tracked_view(const at::Tensor& base, const at::Tensor& v) {
#if IVY_TORCH_INTERNALS
  using ::torch::autograd::CreationMeta;
  return ::torch::autograd::as_view(base, v, /*is_bw_differentiable=*/true, /*is_fw_differentiable=*/true,
                                    /*view_func=*/nullptr,
                                    at::GradMode::is_enabled() ? CreationMeta::DEFAULT : CreationMeta::NO_GRAD_MODE);
#else
  // the public path never takes the direct path, whose views these are
  (void)base;
  (void)v;
  throw Error("[torch] internal: a direct-path view without LibTorch's internals");
#endif
}

// at::reshape is a view (_reshape_alias) when the strides allow one, else a copy
TORCH_KERNEL(reshape) {
  run_view_kernel("reshape", in, n, [&](bool direct) {
    const at::Tensor& x = tensor_of(in[0]);
    if (direct) {
      const at::DimVector shape(spec[0].shape.begin(), spec[0].shape.end());
      if (auto strides = at::detail::computeStride(x.sizes(), x.strides(), shape)) {
        out[0] = make_array(tracked_view(x, ::at::cpu::_reshape_alias(x, shape, *strides)), spec[0].dtype);
        return;
      }
    }
    out[0] = make_array(x.reshape(ref(spec[0].shape)), spec[0].dtype);
  });
}
TORCH_KERNEL(permute_dims) {
  run_view_kernel("permute_dims", in, n, [&](bool direct) {
    out[0] = make_array(VIEW_CALL(permute, tensor_of(in[0]), ref(a.get<attr::permute_dims>().axes)), spec[0].dtype);
  });
}
TORCH_KERNEL(broadcast_to) {
  run_view_kernel("broadcast_to", in, n, [&](bool direct) {
    out[0] = make_array(VIEW_CALL(expand, tensor_of(in[0]), ref(a.get<attr::broadcast_to>().shape)), spec[0].dtype);
  });
}
TORCH_KERNEL(flip) {
  run_kernel("flip", in, n, [&](bool direct) {
    const at::Tensor& x = tensor_of(in[0]);
    const Dims& axes = a.get<attr::flip>().axes;
    if (direct && x.device().is_cpu() && x.is_contiguous() && !x.is_neg() && !x.is_conj() && x.layout() == at::kStrided)
      out[0] = make_array(own_flip(x, axes), spec[0].dtype);
    else
      out[0] = make_array(axes.empty() ? ATEN_CALL(clone, x) : ATEN_CALL(flip, x, ref(axes)), spec[0].dtype);
  });
}
TORCH_KERNEL(roll) {
  run_kernel("roll", in, n, [&](bool direct) {
    const auto& p = a.get<attr::roll>();
    if (direct)
      if (at::Tensor r = roll_copy(tensor_of(in[0]), p); r.defined()) {
        out[0] = make_array(std::move(r), spec[0].dtype);
        return;
      }
    out[0] = make_array(ATEN_CALL(roll, tensor_of(in[0]), ref(p.shifts), p.axes ? ref(*p.axes) : c10::IntArrayRef()), spec[0].dtype);
  });
}
TORCH_KERNEL(repeat) {
  run_kernel("repeat", in, n, [&](bool) {
    const auto& p = a.get<attr::repeat>();
    at::Tensor x = p.axis ? tensor_of(in[0]) : tensor_of(in[0]).reshape({-1});
    if (x.dim() == 0) x = x.reshape({1});
    int64_t axis = p.axis ? *p.axis : 0;
    at::Tensor r = p.repeats.size() == 1 ? at::repeat_interleave(x, p.repeats[0], axis)
                                         : at::repeat_interleave(x, at::tensor(ref(p.repeats), at::kLong), axis);
    out[0] = make_array(std::move(r), spec[0].dtype);
  });
}
// at::tile is repeat with the counts padded by leading 1s to the input's rank
TORCH_KERNEL(tile) {
  run_kernel("tile", in, n, [&](bool direct) {
    const at::Tensor& x = tensor_of(in[0]);
    const Dims& tile_reps = a.get<attr::tile>().reps;
    c10::SmallVector<int64_t, 8> reps(tile_reps.begin(), tile_reps.end());
    if (static_cast<int64_t>(reps.size()) < x.dim())
      reps.insert(reps.begin(), x.dim() - static_cast<int64_t>(reps.size()), 1);
    out[0] = make_array(direct ? cpu_first::repeat(x, reps) : x.repeat(reps), spec[0].dtype);
  });
}
TORCH_KERNEL(concat) {
  run_kernel("concat", in, n, [&](bool direct) {
    c10::SmallVector<at::Tensor, 8> ts;  // inline for up to 8 inputs (no heap list)
    ts.reserve(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) ts.push_back(*input_as(in[i], spec[0].dtype));
    const std::int64_t axis = a.get<attr::one_axis>().axis;
    if (direct) {
      at::Tensor r = concat_copy(ts, axis, spec[0].shape);
      if (r.defined()) {
        out[0] = make_array(std::move(r), spec[0].dtype);
        return;
      }
    }
    out[0] = make_array(at::cat(at::TensorList(ts.data(), ts.size()), axis), spec[0].dtype);
  });
}

}  // namespace ivy::torch_backend

// The torch backend's indexing kernels (strided_slice, slice_update, take, take_along_axis,
// index_put_flat).
#include <algorithm>
#include <vector>

#include "torch_common.hpp"

namespace ivy::torch_backend {
namespace {

// Apply one normalized slice per axis; negative steps select ascending then flip.
at::Tensor slice_view(at::Tensor t, AttrsRef a, std::vector<int64_t>* flipped) {
  const auto& p = a.get<attr::slice>();
  for (int64_t d = 0; d < t.dim(); ++d) {
    int64_t b = p.start[d], e = p.stop[d], s = p.step[d];
    if (s > 0) {
      t = t.slice(d, b, std::max(b, e), s);
    } else {
      int64_t len = slice_length(b, e, s);
      if (len == 0) {
        t = t.slice(d, 0, 0);
      } else {
        t = t.slice(d, b - (len - 1) * (-s), b + 1, -s);
        flipped->push_back(d);
      }
    }
  }
  return t;
}
// Indices as int64, negative ones counted from the end of an axis of length n.
at::Tensor norm_index(const at::Tensor& idx, int64_t n) {
  at::Tensor i = idx.to(at::kLong);
  return at::where(i < 0, i + n, i);
}

}  // namespace

TORCH_KERNEL(strided_slice) {
  run_view_kernel("strided_slice", in, n, [&](bool) {
    std::vector<int64_t> fl;
    at::Tensor v = slice_view(tensor_of(in[0]), a, &fl);
    out[0] = make_array(fl.empty() ? v : at::flip(v, fl), spec[0].dtype);
  });
}
TORCH_KERNEL(slice_update) {
  run_kernel("slice_update", in, n, [&](bool) {
    at::Tensor r = tensor_of(in[0]).clone();
    std::vector<int64_t> fl;
    at::Tensor v = slice_view(r, a, &fl);
    at::Tensor val = input_as(in[1], spec[0].dtype)->expand(v.sizes());
    if (!fl.empty()) val = at::flip(val, fl);
    v.copy_(val);
    out[0] = make_array(std::move(r), spec[0].dtype);
  });
}
TORCH_KERNEL(take) {
  run_kernel("take", in, n, [&](bool) {
    int64_t ax = a.get<attr::one_axis>().axis;
    at::Tensor x = tensor_of(in[0]);
    at::Tensor idx = norm_index(tensor_of(in[1]), x.size(ax)).reshape({-1});
    out[0] = make_array(at::index_select(x, ax, idx).reshape(ref(spec[0].shape)), spec[0].dtype);
  });
}
TORCH_KERNEL(take_along_axis) {
  run_kernel("take_along_axis", in, n, [&](bool) {
    int64_t ax = a.get<attr::one_axis>().axis;
    const at::Tensor& x = tensor_of(in[0]);
    at::Tensor idx = norm_index(tensor_of(in[1]), x.size(ax)).expand(ref(spec[0].shape));
    Dims xs = spec[0].shape;  // no heap vectors for the expanded shapes
    xs[static_cast<std::size_t>(ax)] = x.size(ax);
    out[0] = make_array(at::gather(x.expand(ref(xs)), ax, idx), spec[0].dtype);
  });
}
TORCH_KERNEL(index_put_flat) {
  run_kernel("index_put_flat", in, n, [&](bool) {
    at::Tensor r = tensor_of(in[0]).clone().reshape({-1});
    at::Tensor idx = norm_index(tensor_of(in[1]), r.numel());
    r.index_put_({idx}, input_as(in[2], spec[0].dtype)->expand(idx.sizes()));
    out[0] = make_array(r.reshape(ref(spec[0].shape)), spec[0].dtype);
  });
}

// index_put_ with accumulate: repeated positions add up
TORCH_KERNEL(scatter_add_flat) {
  run_kernel("scatter_add", in, n, [&](bool) {
    at::Tensor r = tensor_of(in[0]).clone().reshape({-1});
    at::Tensor idx = norm_index(tensor_of(in[1]), r.numel());
    if (idx.numel() > 0 && (idx.min().item<int64_t>() < 0 || idx.max().item<int64_t>() >= r.numel()))
      throw IndexError("[scatter_add] a position is out of bounds for " + std::to_string(r.numel()) +
                       " elements (backend torch)");
    r.index_put_({idx}, input_as(in[2], spec[0].dtype)->expand(idx.sizes()), true);
    out[0] = make_array(r.reshape(ref(spec[0].shape)), spec[0].dtype);
  });
}

}  // namespace ivy::torch_backend

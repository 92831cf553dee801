// The torch backend's reduction kernels (sum, prod, mean, max, min, var, std, all, any) and
// the cumulative sums and products.
#include <algorithm>
#include <array>
#include <functional>

#include "row_kernels.hpp"
#include "torch_common.hpp"

namespace ivy::torch_backend {
namespace {

// The helpers below take the primitive's view (attr::reduce, reduce_acc or reduce_var: each
// has the optional axes, absent for every axis, and keepdims).
// The reduced axes, without a heap allocation (pass as ref(red_dims(...)) in one expression).
template <class P>
Dims red_dims(const Array& x, const P& p) {
  if (p.axes) return *p.axes;
  Dims d;
  d.resize(static_cast<std::size_t>(x.ndim()));
  for (std::size_t i = 0; i < d.size(); ++i) d[i] = static_cast<int64_t>(i);
  return d;
}
// The same axes as a view for a LibTorch call in the same expression (no copy).
constexpr auto kIota = [] {
  std::array<int64_t, kMaxRank> v{};
  for (int i = 0; i < kMaxRank; ++i) v[static_cast<std::size_t>(i)] = i;
  return v;
}();
template <class P>
c10::IntArrayRef red_ref(const Array& x, const P& p) {
  if (p.axes) return ref(*p.axes);
  return c10::IntArrayRef(kIota.data(), static_cast<std::size_t>(x.ndim()));
}
template <class P>
bool no_reduction(const Array& x, const P& p) {
  return (p.axes && p.axes->empty()) || x.ndim() == 0;
}
// (whole_reduce: a full reduction of a contiguous tensor on the direct path)
template <class P>
bool whole(const Array& x, const P& p) {
  return !p.axes || static_cast<std::int64_t>(p.axes->size()) == x.ndim();
}
// The sum (or mean) over the trailing `k` axes (every axis: the whole tensor) of a contiguous
// float32/float64 CPU tensor on the direct path, by ivy's pairwise loop per row
// (cpu::rows::sum_fp / sum_rows_fp, the xtensor backend's), where LibTorch's mean is a sum and
// a dispatched division and its sum over short rows walks TensorIterator per element. The mean
// divides by the count in the dtype, as LibTorch's does. Undefined where the tensor does not
// qualify.
at::Tensor rows_sum(const at::Tensor& x, bool mean, at::IntArrayRef shape, std::int64_t k) {
  const std::int64_t n = x.numel();
  if (n == 0 || k < 1 || !x.device().is_cpu() || !x.is_contiguous() || x.is_neg()) return {};
  std::int64_t inner = 1;
  for (std::int64_t d = x.dim() - k; d < x.dim(); ++d) inner *= x.size(d);
  const std::int64_t outer = n / inner;
  auto run = [&](auto* out, const auto* p) {
    using T = std::remove_reference_t<decltype(*out)>;
    cpu::rows::sum_rows_fp(p, outer, inner, out);
    if (mean)
      for (std::int64_t i = 0; i < outer; ++i) out[i] = out[i] / static_cast<T>(inner);
  };
  if (x.scalar_type() == at::kFloat) {
    at::Tensor r = ::at::cpu::empty(shape, x.options());
    run(r.data_ptr<float>(), x.data_ptr<float>());
    return r;
  }
  if (x.scalar_type() == at::kDouble) {
    at::Tensor r = ::at::cpu::empty(shape, x.options());
    run(r.data_ptr<double>(), x.data_ptr<double>());
    return r;
  }
  return {};
}
// How many trailing axes a reduction's axes are (every axis when it names none); 0 when they
// are not the trailing ones.
template <class P>
std::int64_t trailing_axes(const Array& x, const P& p) {
  const std::int64_t r = x.ndim();
  if (!p.axes) return r;
  const std::int64_t k = static_cast<std::int64_t>(p.axes->size());
  if (k == 0 || k > r) return 0;
  bool seen[kMaxRank] = {};
  for (std::int64_t a : *p.axes) {
    const std::int64_t ax = a < 0 ? a + r : a;
    if (ax < r - k || ax >= r || seen[ax]) return 0;
    seen[ax] = true;
  }
  return k;
}
// float16/bfloat16 accumulate in float32 where LibTorch 1.13 has no half kernel (prod,
// cumsum, cumprod, sqrt), rounded back to the requested dtype by make_array().
DType half_up(DType d) { return d == float16 || d == bfloat16 ? float32 : d; }
// The max (IsMax) or min kernel: LibTorch's amax / amin; on the direct path a whole contiguous
// float32/64 tensor by whole_reduce's vector loop.
template <bool IsMax>
void extreme_kernel(const char* op, const Array* in, int n, AttrsRef a, const OutSpec* spec, Array* out) {
  run_kernel(op, in, n, [&](bool direct) {
    const auto& p = a.get<attr::reduce>();
    const at::Tensor& x = tensor_of(in[0]);
    if (direct && whole(in[0], p) && in[0].ndim() > 0)
      if (at::Tensor w = whole_reduce(x, IsMax ? Whole::max : Whole::min, ref(spec[0].shape)); w.defined()) {
        out[0] = make_array(std::move(w), spec[0].dtype);
        return;
      }
    if (no_reduction(in[0], p))
      out[0] = make_array(ATEN_CALL(clone, x), spec[0].dtype);
    else if constexpr (IsMax)
      out[0] = make_array(ATEN_CALL(amax, x, red_ref(in[0], p), p.keepdims), spec[0].dtype);
    else
      out[0] = make_array(ATEN_CALL(amin, x, red_ref(in[0], p), p.keepdims), spec[0].dtype);
  });
}
// The variance over the reduced axes with the view's correction, in dtype `out` (complex
// inputs computed in their own dtype: |x - mean|^2 is real).
at::Tensor variance(const Array& xin, AttrsRef a, DType out) {
  const auto& p = a.get<attr::reduce_var>();
  at::Tensor x = *input_as(xin, is_complex(xin.dtype()) ? xin.dtype() : out);
  if (no_reduction(xin, p)) {  // every element is its own sample of size 1: |x - x|^2 is 0, or NaN for NaN/inf
    at::Tensor dev = at::abs(x - x);
    return at::div(dev * dev, 1.0 - p.correction).to(storage_type(out));
  }
  auto dims = red_dims(xin, p);
  int64_t count = 1;
  for (auto d : dims) count *= x.size(d);
  at::Tensor m = at::mean(x, ref(dims), true);
  at::Tensor dev = at::abs(x - m);
  at::Tensor s = at::sum(dev * dev, ref(dims), p.keepdims);
  return at::div(s, static_cast<double>(count) - p.correction).to(storage_type(out));
}
// cumsum (is_sum) or cumprod along the view's axis (a 0-d input as one element), with the
// initial 0 or 1 first when include_initial.
at::Tensor cumulative(const Array& xin, AttrsRef a, DType d, bool is_sum) {
  const auto& p = a.get<attr::cumulative>();
  at::Tensor x = *input_as(xin, half_up(d));
  if (x.dim() == 0) x = x.reshape({1});
  int64_t ax = xin.ndim() ? p.axis : 0;
  at::Tensor r = is_sum ? at::cumsum(x, ax) : at::cumprod(x, ax);
  if (p.include_initial) {
    auto s = x.sizes().vec();
    s[ax] = 1;
    r = at::cat({at::full(s, is_sum ? 0 : 1, x.options()), r}, ax);
  }
  return wrap_unsigned(std::move(r), d);
}

}  // namespace

TORCH_KERNEL(sum) {
  run_kernel("sum", in, n, [&](bool direct) {
    const auto& p = a.get<attr::reduce_acc>();
    Input xi = input_as(in[0], spec[0].dtype);
    const at::Tensor& x = *xi;
    if (direct && in[0].ndim() > 0)
      if (at::Tensor w = rows_sum(x, false, ref(spec[0].shape), trailing_axes(in[0], p)); w.defined()) {
        out[0] = make_array(std::move(w), spec[0].dtype);
        return;
      }
    const DType d = spec[0].dtype;
    if (no_reduction(in[0], p)) out[0] = make_array(ATEN_CALL(clone, x), d);
    else out[0] = make_array(wrap_unsigned(ATEN_CALL(sum, x, red_ref(in[0], p), p.keepdims), d), d);
  });
}
TORCH_KERNEL(prod) {
  run_kernel("prod", in, n, [&](bool direct) {
    const auto& p = a.get<attr::reduce_acc>();
    at::Tensor x = *input_as(in[0], half_up(spec[0].dtype));
    if (!no_reduction(in[0], p)) {
      auto dims = red_dims(in[0], p);
      std::sort(dims.begin(), dims.end(), std::greater<>());
      for (auto d : dims) x = ATEN_CALL(prod, x, d, p.keepdims);
    }
    out[0] = make_array(wrap_unsigned(ATEN_CALL(clone, x), spec[0].dtype), spec[0].dtype);
  });
}
TORCH_KERNEL(mean) {
  run_kernel("mean", in, n, [&](bool direct) {
    const auto& p = a.get<attr::reduce>();
    Input xi = input_as(in[0], spec[0].dtype);
    const at::Tensor& x = *xi;
    if (direct && in[0].ndim() > 0)
      if (at::Tensor w = rows_sum(x, true, ref(spec[0].shape), trailing_axes(in[0], p)); w.defined()) {
        out[0] = make_array(std::move(w), spec[0].dtype);
        return;
      }
    if (no_reduction(in[0], p)) out[0] = make_array(ATEN_CALL(clone, x), spec[0].dtype);
    else out[0] = make_array(ATEN_CALL(mean, x, red_ref(in[0], p), p.keepdims), spec[0].dtype);
  });
}
TORCH_KERNEL(max) {
  if (in[0].dtype() == uint64) [[unlikely]]
    return u64_ordered(&k_max, in, a, spec, out, true);
  extreme_kernel<true>("max", in, n, a, spec, out);
}
TORCH_KERNEL(min) {
  if (in[0].dtype() == uint64) [[unlikely]]
    return u64_ordered(&k_min, in, a, spec, out, true);
  extreme_kernel<false>("min", in, n, a, spec, out);
}
TORCH_KERNEL(var) {
  run_kernel("var", in, n, [&](bool) { out[0] = make_array(variance(in[0], a, spec[0].dtype), spec[0].dtype); });
}
TORCH_KERNEL(std) {
  run_kernel("std", in, n, [&](bool) {
    out[0] = make_array(at::sqrt(variance(in[0], a, half_up(spec[0].dtype))), spec[0].dtype);
  });
}
TORCH_KERNEL(all) {
  run_kernel("all", in, n, [&](bool direct) {
    const auto& p = a.get<attr::reduce>();
    if (direct && whole(in[0], p) && in[0].ndim() > 0)
      if (at::Tensor w = whole_reduce(tensor_of(in[0]), Whole::all, ref(spec[0].shape)); w.defined()) {
        out[0] = make_array(std::move(w), spec[0].dtype);
        return;
      }
    at::Tensor z = at::eq(tensor_of(in[0]), 0);
    out[0] = make_array(no_reduction(in[0], p) ? at::logical_not(z)
                                               : at::eq(at::sum(z.to(at::kLong), red_ref(in[0], p), p.keepdims), 0),
                        spec[0].dtype);
  });
}
TORCH_KERNEL(any) {
  run_kernel("any", in, n, [&](bool direct) {
    const auto& p = a.get<attr::reduce>();
    if (direct && whole(in[0], p) && in[0].ndim() > 0)
      if (at::Tensor w = whole_reduce(tensor_of(in[0]), Whole::any, ref(spec[0].shape)); w.defined()) {
        out[0] = make_array(std::move(w), spec[0].dtype);
        return;
      }
    at::Tensor z = at::ne(tensor_of(in[0]), 0);
    out[0] = make_array(no_reduction(in[0], p) ? z : at::gt(at::sum(z.to(at::kLong), red_ref(in[0], p), p.keepdims), 0),
                        spec[0].dtype);
  });
}
TORCH_KERNEL(cumulative_sum) {
  run_kernel("cumulative_sum", in, n, [&](bool) {
    out[0] = make_array(cumulative(in[0], a, spec[0].dtype, true), spec[0].dtype);
  });
}
TORCH_KERNEL(cumulative_prod) {
  run_kernel("cumulative_prod", in, n, [&](bool) {
    out[0] = make_array(cumulative(in[0], a, spec[0].dtype, false), spec[0].dtype);
  });
}

}  // namespace ivy::torch_backend

// The torch backend's creation kernels (full, arange, linspace, eye, the random draws),
// tril/triu, and astype.
#include <ATen/Dispatch.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "cpu_loops.hpp"
#include "torch_common.hpp"

namespace ivy::torch_backend {
namespace {

// start + i * step in float64 rounded once to a float32/float64 result, into a CPU tensor
// (cpu::loops::affine_best, one vectorized pass, where LibTorch takes an arange, a multiply, an
// add and a cast); undefined for other dtypes.
at::Tensor affine_fill(DType d, std::int64_t n, double start, double step) {
  if (d != float32 && d != float64) return {};
  at::Tensor r = ::at::cpu::empty({n}, tensor_options(d));
  if (d == float32) cpu::loops::affine_best(r.data_ptr<float>(), n, start, step);
  else cpu::loops::affine_best(r.data_ptr<double>(), n, start, step);
  return r;
}
// eye on the direct path: a zeroed CPU buffer and the ones written along the diagonal
// (instead of the arange, compare and cast of k_eye's other path).
at::Tensor eye_fill(DType d, std::int64_t rows, std::int64_t cols, std::int64_t k) {
  at::Tensor r = ::at::cpu::empty({rows, cols}, tensor_options(d));
  if (r.numel() == 0) return r;  // an empty tensor has no buffer: data_ptr() is null
  std::memset(r.data_ptr(), 0, static_cast<std::size_t>(r.numel()) * static_cast<std::size_t>(r.element_size()));
  AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND3(at::kBool, at::kHalf, at::kBFloat16, r.scalar_type(), "eye", [&] {
    auto* p = r.data_ptr<scalar_t>();
    for (std::int64_t i = std::max<std::int64_t>(0, -k); i < rows && i + k < cols; ++i) p[i * cols + i + k] = scalar_t(1);
  });
  return r;
}
// The largest value of a real floating dtype below `high` rounded to that dtype (as a
// double), or `low` rounded when the dtype has none in [low, high): float64 draws of
// random_uniform are capped at it, as their rounding to the dtype could otherwise give
// `high` (float32 [0, 1): 1 draw in 2^25). Rounding keeps them at or above the rounded low,
// so every value lies in [low, high) as the dtype compares. (16-bit types round as LibTorch
// converts a double to them, through float.)
double uniform_top(double low, double high, DType d) {
  auto below16 = [low](auto h) {  // one step down from h, not below low rounded likewise
    using H = decltype(h);
    const std::uint16_t bits = h.x;
    H b = h;
    b.x = (bits & 0x7fff) == 0 ? std::uint16_t(0x8001) : (bits & 0x8000) ? std::uint16_t(bits + 1) : std::uint16_t(bits - 1);
    return std::max(static_cast<double>(static_cast<float>(b)),
                    static_cast<double>(static_cast<float>(H(static_cast<float>(low)))));
  };
  if (d == float16) return below16(c10::Half(static_cast<float>(high)));
  if (d == bfloat16) return below16(c10::BFloat16(static_cast<float>(high)));
  if (d == float32)
    return std::max(std::nextafter(static_cast<float>(high), -std::numeric_limits<float>::infinity()),
                    static_cast<float>(low));
  return std::max(std::nextafter(high, -std::numeric_limits<double>::infinity()), low);
}
// On the direct path a float32/float64 result is one pass over LibTorch's float64 draws
// (scale, shift, cap, rounding: the same operations in the same order, so the same values)
// instead of three or four passes and dispatcher calls. Undefined for other dtypes.
at::Tensor affine_draws(const at::Tensor& u, DType d, double scale, double shift, double top) {
  const double* p = u.data_ptr<double>();
  const std::int64_t n = u.numel();
  auto run = [&](auto* o) {
    for (std::int64_t i = 0; i < n; ++i) {
      const double v = p[i] * scale;
      const double w = v + shift;
      o[i] = static_cast<std::remove_pointer_t<decltype(o)>>(top < w ? top : w);  // NaN stays NaN, as clamp_max
    }
  };
  if (d == float64) {
    at::Tensor r = ::at::cpu::empty(u.sizes(), u.options());
    run(r.data_ptr<double>());
    return r;
  }
  if (d == float32) {
    at::Tensor r = ::at::cpu::empty(u.sizes(), u.options().dtype(at::kFloat));
    run(r.data_ptr<float>());
    return r;
  }
  return {};
}

}  // namespace

TORCH_KERNEL(full) {
  run_kernel("full", in, n, [&](bool direct) {
    const auto& p = a.get<attr::full>();
    const DType d = spec[0].dtype;
    // a float fill value rounded to the dtype first, as NumPy's conversion (LibTorch refuses a
    // double beyond the type's largest value that rounds to it, or to infinity)
    at::Scalar v = to_at_scalar(p.value);
    if (p.value.kind == Scalar::Float && (d == float32 || d == float16 || d == bfloat16)) {
      const float f = static_cast<float>(p.value.d);
      v = at::Scalar(d == float16    ? static_cast<double>(static_cast<float>(c10::Half(f)))
                     : d == bfloat16 ? static_cast<double>(static_cast<float>(c10::BFloat16(f)))
                                     : static_cast<double>(f));
    }
    else if (p.value.kind == Scalar::Complex && d == complex64)
      v = at::Scalar(c10::complex<double>(static_cast<float>(p.value.c.real()), static_cast<float>(p.value.c.imag())));
    out[0] = make_array(ATEN_CALL(full, ref(p.shape), v, tensor_options(d)), d);
  });
}
TORCH_KERNEL(arange) {
  run_kernel("arange", in, n, [&](bool direct) {
    const auto& p = a.get<attr::arange>();
    const auto len = spec[0].shape[0];
    at::Tensor r;
    const bool ints = p.start.kind == Scalar::Int && p.stop.kind == Scalar::Int && p.step.kind == Scalar::Int;
    if (direct && !ints)
      if (at::Tensor f = affine_fill(spec[0].dtype, len, p.start.d, p.step.d); f.defined()) {
        out[0] = make_array(std::move(f), spec[0].dtype);
        return;
      }
    if (ints)
      r = at::arange(0, len, at::TensorOptions().dtype(at::kLong)).mul(p.step.i).add(p.start.i);
    else
      r = at::arange(0, len, at::TensorOptions().dtype(at::kDouble)).mul(p.step.d).add(p.start.d);
    out[0] = make_array_cast(std::move(r), spec[0].dtype);
  });
}
TORCH_KERNEL(linspace) {
  run_kernel("linspace", in, n, [&](bool direct) {
    const auto& p = a.get<attr::linspace>();
    DType d = spec[0].dtype;
    auto num = p.num;
    bool cplx = is_complex(d);
    if (direct && !cplx) {  // NumPy's values: start + i * step, the endpoint exactly stop
      const double div = p.endpoint ? static_cast<double>(num - 1) : static_cast<double>(num);
      const double start = p.start.d, step = div > 0 ? (p.stop.d - start) / div : 0.0;
      if (at::Tensor f = affine_fill(d, num, start, step); f.defined()) {
        if (p.endpoint && num > 1) {
          if (d == float32) f.data_ptr<float>()[num - 1] = static_cast<float>(p.stop.d);
          else f.data_ptr<double>()[num - 1] = p.stop.d;
        }
        out[0] = make_array(std::move(f), spec[0].dtype);
        return;
      }
    }
    auto calc = at::kDouble;
    at::Tensor r;
    auto lin = [&](double s, double e) {
      if (num == 0) return at::empty({0}, at::TensorOptions().dtype(calc));
      if (!p.endpoint) {
        double step = (e - s) / static_cast<double>(num);
        return at::arange(0, num, at::TensorOptions().dtype(calc)).mul(step).add(s);
      }
      return at::linspace(s, e, num, at::TensorOptions().dtype(calc));
    };
    if (cplx)
      r = at::complex(lin(p.start.c.real(), p.stop.c.real()), lin(p.start.c.imag(), p.stop.c.imag()));
    else
      r = lin(p.start.d, p.stop.d);
    out[0] = make_array_cast(std::move(r), spec[0].dtype);
  });
}
TORCH_KERNEL(eye) {
  run_kernel("eye", in, n, [&](bool direct) {
    const auto& p = a.get<attr::eye>();
    if (direct) {
      out[0] = make_array(eye_fill(spec[0].dtype, p.n_rows, p.n_cols, p.k), spec[0].dtype);
      return;
    }
    auto rows = at::arange(p.n_rows, at::TensorOptions().dtype(at::kLong)).unsqueeze(1);
    auto cols = at::arange(p.n_cols, at::TensorOptions().dtype(at::kLong)).unsqueeze(0);
    out[0] = make_array_cast(at::eq(rows + p.k, cols), spec[0].dtype);
  });
}
TORCH_KERNEL(random_uniform) {
  run_kernel("random_uniform", in, n, [&](bool direct) {
    const auto& p = a.get<attr::random_uniform>();
    at::Tensor u = at::rand(ref(p.shape), at::TensorOptions().dtype(at::kDouble));
    const double top = uniform_top(p.low.d, p.high.d, spec[0].dtype);
    if (direct)
      if (at::Tensor r = affine_draws(u, spec[0].dtype, p.high.d - p.low.d, p.low.d, top); r.defined()) {
        out[0] = make_array(std::move(r), spec[0].dtype);
        return;
      }
    u.mul_(p.high.d - p.low.d).add_(p.low.d).clamp_max_(top);
    out[0] = make_array_cast(std::move(u), spec[0].dtype);
  });
}
TORCH_KERNEL(random_normal) {
  run_kernel("random_normal", in, n, [&](bool direct) {
    const auto& p = a.get<attr::random_normal>();
    auto z = at::randn(ref(p.shape), at::TensorOptions().dtype(at::kDouble));
    if (direct)
      if (at::Tensor r = affine_draws(z, spec[0].dtype, p.std.d, p.mean.d, std::numeric_limits<double>::infinity());
          r.defined()) {
        out[0] = make_array(std::move(r), spec[0].dtype);
        return;
      }
    out[0] = make_array_cast(z.mul(p.std.d).add(p.mean.d), spec[0].dtype);
  });
}
TORCH_KERNEL(randint) {
  run_kernel("randint", in, n, [&](bool) {
    const auto& p = a.get<attr::randint>();
    at::Tensor r = at::randint(p.low.i, p.high.i, ref(p.shape), at::TensorOptions().dtype(at::kLong));
    out[0] = make_array_cast(std::move(r), spec[0].dtype);
  });
}
TORCH_KERNEL(tril) {
  run_kernel("tril", in, n, [&](bool direct) {
    out[0] = make_array(ATEN_CALL(tril, tensor_of(in[0]), a.get<attr::triangle>().k), spec[0].dtype);
  });
}
TORCH_KERNEL(triu) {
  run_kernel("triu", in, n, [&](bool direct) {
    out[0] = make_array(ATEN_CALL(triu, tensor_of(in[0]), a.get<attr::triangle>().k), spec[0].dtype);
  });
}
// A new array either way: the conversion already made one unless the storage type is
// unchanged (then clone).
TORCH_KERNEL(astype) {
  run_kernel("astype", in, n, [&](bool direct) {
    const at::Tensor& x = tensor_of(in[0]);
    const DType d = spec[0].dtype;
    if (in[0].dtype() == uint64 && is_floating(d)) [[unlikely]]  // exact, as NumPy's
      out[0] = make_array(u64_to_floating(x, storage_type(d)), d);
    else if (d == uint64 && (x.is_floating_point() || x.is_complex())) [[unlikely]]  // values >= 2^63 too
      out[0] = make_array(floating_to_u64(x), d);
    else if (x.scalar_type() == storage_type(d))  // same storage type: a copy, or the range wrap (also a new tensor)
      out[0] = make_array(widened(d) ? cast(x, d) : ATEN_CALL(clone, x), d);
    else if (x.is_complex() && !is_complex(d))  // the real part (LibTorch's cast prints a warning)
      out[0] = make_array_cast(ATEN_CALL(_to_copy, at::real(x), tensor_options(d)), d);
    else  // what Tensor::to does for another dtype
      out[0] = make_array_cast(ATEN_CALL(_to_copy, x, tensor_options(d)), d);
  });
}

// A new tensor with x's values (spec[0].dtype is x's): astype's copy.
TORCH_KERNEL(stop_gradient) { k_astype(in, n, a, spec, out); }

}  // namespace ivy::torch_backend

// The torch backend's searching, sorting and set kernels (argmax, argmin, nonzero, where,
// searchsorted, sort, argsort, unique, isin).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <vector>

#include "cpu_loops.hpp"
#include "sort_kernels.hpp"
#include "torch_common.hpp"

namespace ivy::torch_backend {
namespace {

// argmax (is_max) or argmin, reshaped to the output's shape; on the direct path a whole
// reduction by whole_reduce's loop where the tensor qualifies.
at::Tensor arg_reduce(const at::Tensor& x, AttrsRef a, bool is_max, const OutSpec& spec, bool direct) {
  const auto& p = a.get<attr::argreduce>();
  at::Tensor r;
  if (direct && (!p.axis || x.dim() <= 1))
    if (at::Tensor w = whole_reduce(x, is_max ? Whole::argmax : Whole::argmin, ref(spec.shape)); w.defined()) return w;
  if (p.axis && x.dim() > 0) r = is_max ? at::argmax(x, *p.axis, p.keepdims) : at::argmin(x, *p.axis, p.keepdims);
  else r = (is_max ? at::argmax(x.reshape({-1})) : at::argmin(x.reshape({-1})));
  return r.reshape(ref(spec.shape));
}
// where of a contiguous bool CPU condition and two contiguous CPU operands of its shape and
// the result's dtype (1-8 byte elements): ivy's select loop, on the direct path (LibTorch's
// at::where goes through a TensorIterator).
// x1 or x2 may also be a 0-d value (where(x > 0, x, 0) in a ReLU).
at::Tensor select_loop(const at::Tensor& c, const at::Tensor& x1, const at::Tensor& x2) {
  auto plain = [&](const at::Tensor& t, bool may_be_0d) {
    return t.device().is_cpu() && t.is_contiguous() && !t.is_neg() && !t.is_conj() &&
           (t.sizes() == c.sizes() || (may_be_0d && t.dim() == 0));
  };
  if (c.scalar_type() != at::kBool || x1.scalar_type() != x2.scalar_type() || !plain(c, false) || !plain(x1, true) ||
      !plain(x2, true))
    return {};
  using cpu::loops::OneElement;
  const OneElement which = x1.dim() == 0 && c.dim() != 0   ? OneElement::first
                           : x2.dim() == 0 && c.dim() != 0 ? OneElement::second
                                                           : OneElement::neither;
  if (which == OneElement::first && x2.dim() == 0) return {};  // both 0-d: LibTorch's broadcast
  at::Tensor r = ::at::cpu::empty(c.sizes(), x1.options());
  const auto* cp = static_cast<const unsigned char*>(c.data_ptr());
  const std::int64_t n = r.numel();
  auto run = [&](auto e) {
    using E = decltype(e);
    auto* o = static_cast<E*>(r.data_ptr());
    const auto *p = static_cast<const E*>(x1.data_ptr()), *q = static_cast<const E*>(x2.data_ptr());
    if (which == OneElement::first) cpu::loops::select_best<E, OneElement::first>(o, cp, p, q, n);
    else if (which == OneElement::second) cpu::loops::select_best<E, OneElement::second>(o, cp, p, q, n);
    else cpu::loops::select_best<E, OneElement::neither>(o, cp, p, q, n);
  };
  switch (x1.element_size()) {
    case 1: run(std::uint8_t{}); break;
    case 2: run(std::uint16_t{}); break;
    case 4: run(std::uint32_t{}); break;
    case 8: run(std::uint64_t{}); break;
    default: return {};
  }
  return r;
}
// NumPy's order puts NaN after +inf; LibTorch's binary search compares with `<`, for which
// NaN is unordered (sorted [1, 2, inf, nan, nan]: torch gives 5 for a NaN on the left and
// for inf on the right, NumPy 3). When the sorted values hold NaN, they are searched with
// NaN read as +inf, capped at the number k of non-NaN values (every non-NaN value's answer
// is at most k), and a NaN value gets k (left) or the length (right).
at::Tensor np_searchsorted(const at::Tensor& s, const at::Tensor& v, bool right) {
  at::Tensor r = at::searchsorted(s, v, false, right);
  if (!s.is_floating_point() || !has_nan(s)) return r;
  const at::Tensor nan_s = at::isnan(s);
  const at::Tensor k = at::logical_not(nan_s).sum();
  r = at::minimum(at::searchsorted(at::where(nan_s, INFINITY, s), v, false, right), k);
  return at::where(at::isnan(v), right ? at::full({}, s.numel(), r.options()) : k.to(r.scalar_type()), r);
}
// On the direct path, real CPU operands: ivy's branch-free binary search
// (backends/cpu/sort_kernels.hpp, the xtensor backend's; NumPy's NaN order directly, no
// second search).
at::Tensor search_loop(const at::Tensor& s, const at::Tensor& v, bool right) {
  if (!s.device().is_cpu() || !v.device().is_cpu() || s.dim() != 1 || s.is_neg() || v.is_neg()) return {};
  at::Tensor r;
  auto run = [&](auto tag) {
    using V = decltype(tag);
    r = ::at::cpu::empty(v.sizes(), v.options().dtype(at::kLong));
    cpu::sorting::search_sorted(s.data_ptr<V>(), s.numel(), v.data_ptr<V>(), v.numel(), right,
                                r.data_ptr<std::int64_t>());
  };
  if (!visit_real_loop_types(s.scalar_type(), run)) return {};
  return r;
}
// (values, indices) of LibTorch's sort.
std::tuple<at::Tensor, at::Tensor> do_sort(const at::Tensor& x, AttrsRef a) {
  // Stable sort, in either direction, keeps equal elements in their original order (so the
  // `stable` attribute needs no separate path).
  const auto& p = a.get<attr::sort>();
  return at::sort(x, true, p.axis, p.descending);
}
// sort/argsort along the last axis of a contiguous real CPU tensor whose rows are long enough
// for ivy's radix sort (backends/cpu/sort_kernels.hpp; the xtensor backend's) or short enough
// for its insertion sort on the same keys, on the direct path: the same stable order as LibTorch's
// (NaN above +inf, -0 and +0 equal), in linear time for long rows, and for short ones
// without LibTorch's sort setup.
at::Tensor radix_sort_rows(const at::Tensor& x, AttrsRef a, bool want_values) {
  if (!x.device().is_cpu() || !x.is_contiguous() || x.is_neg() || x.dim() == 0) return {};
  const auto& p = a.get<attr::sort>();
  const std::int64_t axis = p.axis < 0 ? p.axis + x.dim() : p.axis;
  const std::int64_t len = x.size(-1);
  const bool radix = cpu::sorting::by_radix(len), short_row = len >= 1 && len <= cpu::sorting::kShortRow;
  if (axis != x.dim() - 1 || !(radix || short_row)) return {};
  at::Tensor r;
  auto run = [&](auto tag) {
    using V = decltype(tag);
    r = ::at::cpu::empty(x.sizes(), want_values ? x.options() : x.options().dtype(at::kLong));
    if (radix) cpu::sorting::radix_rows(x.data_ptr<V>(), x.numel() / len, len, p.descending, want_values, r.data_ptr());
    else cpu::sorting::short_rows(x.data_ptr<V>(), x.numel() / len, len, p.descending, want_values, r.data_ptr());
  };
  if (!visit_real_loop_types(x.scalar_type(), run)) return {};
  return r;
}
// On the direct path, real CPU operands: ivy's isin (backends/cpu/sort_kernels.hpp, the
// xtensor backend's: a vectorized scan for up to 32 test values, else binary search in a
// sorted copy).
at::Tensor isin_loop(const at::Tensor& x, const at::Tensor& t, bool invert) {
  if (!x.device().is_cpu() || !t.device().is_cpu() || x.is_neg() || t.is_neg()) return {};
  at::Tensor r;
  auto run = [&](auto tag) {
    using V = decltype(tag);
    r = ::at::cpu::empty(x.sizes(), x.options().dtype(at::kBool));
    cpu::sorting::isin(x.data_ptr<V>(), x.numel(), t.data_ptr<V>(), t.numel(), r.data_ptr<bool>(), invert);
  };
  if (!visit_real_loop_types(x.scalar_type(), run)) return {};
  return r;
}

}  // namespace

TORCH_KERNEL(argmax) {
  if (in[0].dtype() == uint64) [[unlikely]]
    return u64_ordered(&k_argmax, in, a, spec, out, false);
  run_kernel("argmax", in, n, [&](bool direct) {
    out[0] = make_array(arg_reduce(tensor_of(in[0]), a, true, spec[0], direct), spec[0].dtype);
  });
}
TORCH_KERNEL(argmin) {
  if (in[0].dtype() == uint64) [[unlikely]]
    return u64_ordered(&k_argmin, in, a, spec, out, false);
  run_kernel("argmin", in, n, [&](bool direct) {
    out[0] = make_array(arg_reduce(tensor_of(in[0]), a, false, spec[0], direct), spec[0].dtype);
  });
}
TORCH_KERNEL(nonzero) {
  run_kernel("nonzero", in, n, [&](bool) {
    // (count, ndim) row-major: a 1-d input's single column already is contiguous (one
    // view); otherwise one (ndim, count) copy whose rows are the outputs
    at::Tensor nz = at::nonzero(tensor_of(in[0]));
    if (nz.size(1) == 1) {
      out[0] = make_array(nz.select(1, 0), int64);
      return;
    }
    nz = nz.t().contiguous();
    for (int64_t i = 0; i < nz.size(0); ++i) out[i] = make_array(nz.select(0, i), int64);
  });
}
TORCH_KERNEL(where) {
  run_kernel("where", in, n, [&](bool direct) {
    const auto x1 = input_as(in[1], spec[0].dtype), x2 = input_as(in[2], spec[0].dtype);
    if (direct)
      if (at::Tensor r = select_loop(tensor_of(in[0]), *x1, *x2); r.defined()) {
        out[0] = make_array(std::move(r), spec[0].dtype);
        return;
      }
    out[0] = make_array(ATEN_CALL(where, tensor_of(in[0]), *x1, *x2), spec[0].dtype);
  });
}
TORCH_KERNEL(searchsorted) {
  run_kernel("searchsorted", in, n, [&](bool direct) {
    DType c = result_type(in[0].dtype(), in[1].dtype());
    at::Tensor s = input_as(in[0], c)->contiguous(), v = input_as(in[1], c)->contiguous();
    if (c == uint64) [[unlikely]] {  // searched in the unsigned order
      s = u64_order(s);
      v = u64_order(v);
    }
    const bool right = a.get<attr::searchsorted>().right;
    if (direct)
      if (at::Tensor r = search_loop(s, v, right); r.defined()) {
        out[0] = make_array(std::move(r), spec[0].dtype);
        return;
      }
    out[0] = make_array(np_searchsorted(s, v, right), spec[0].dtype);
  });
}
TORCH_KERNEL(sort) {
  if (in[0].dtype() == uint64) [[unlikely]]
    return u64_ordered(&k_sort, in, a, spec, out, true);
  run_kernel("sort", in, n, [&](bool direct) {
    if (direct)
      if (at::Tensor r = radix_sort_rows(tensor_of(in[0]), a, true); r.defined()) {
        out[0] = make_array(std::move(r), spec[0].dtype);
        return;
      }
    out[0] = make_array(std::get<0>(do_sort(tensor_of(in[0]), a)), spec[0].dtype);
  });
}
TORCH_KERNEL(argsort) {
  if (in[0].dtype() == uint64) [[unlikely]]
    return u64_ordered(&k_argsort, in, a, spec, out, false);
  run_kernel("argsort", in, n, [&](bool direct) {
    if (direct)
      if (at::Tensor r = radix_sort_rows(tensor_of(in[0]), a, false); r.defined()) {
        out[0] = make_array(std::move(r), spec[0].dtype);
        return;
      }
    out[0] = make_array(std::get<1>(do_sort(tensor_of(in[0]), a)), spec[0].dtype);
  });
}
TORCH_KERNEL(unique) {
  if (in[0].dtype() == uint64) [[unlikely]]
    return u64_ordered(&k_unique, in, a, spec, out, true);
  run_kernel("unique", in, n, [&](bool direct) {
    // on the direct path, a contiguous real CPU array long enough for ivy's radix sort
    // (backends/cpu/sort_kernels.hpp, the xtensor backend's): one sort and one pass for all
    // four outputs, where the path below takes LibTorch's unique, a stable sort of the
    // inverse and the gathers
    const at::Tensor& x = tensor_of(in[0]);
    if (direct && x.device().is_cpu() && x.is_contiguous() && !x.is_neg() && cpu::sorting::by_radix(x.numel())) {
      auto run = [&](auto tag) {
        using V = decltype(tag);
        cpu::sorting::unique_radix(x.data_ptr<V>(), x.numel(), [&](std::int64_t U) {
          at::Tensor vals = ::at::cpu::empty({U}, x.options()),
                     first = ::at::cpu::empty({U}, x.options().dtype(at::kLong)),
                     inv = ::at::cpu::empty(x.sizes(), x.options().dtype(at::kLong)),
                     cnt = ::at::cpu::empty({U}, x.options().dtype(at::kLong));
          auto ptrs = std::tuple(vals.data_ptr<V>(), first.data_ptr<std::int64_t>(), inv.data_ptr<std::int64_t>(),
                                 cnt.data_ptr<std::int64_t>());
          out[0] = make_array(std::move(vals), in[0].dtype());
          out[1] = make_array(std::move(first), int64);
          out[2] = make_array(inv.reshape(ref(spec[2].shape)), int64);
          out[3] = make_array(std::move(cnt), int64);
          return ptrs;
        });
      };
      if (visit_real_loop_types(x.scalar_type(), run)) return;
    }
    // shorter contiguous real CPU arrays, and complex or float16/bfloat16 CPU arrays (LibTorch
    // 1.13 has no complex or half unique kernel; complex in NumPy's lexicographic order, half
    // as float32, exact both ways): a stable sort of the indices with NaN last, each NaN its
    // own value (as on xtensor; LibTorch 1.13's _unique2 miscounts NaN)
    const bool half = x.scalar_type() == at::kHalf || x.scalar_type() == at::kBFloat16;
    const bool special = (x.is_complex() || half) && x.device().is_cpu();
    if (special || (direct && x.device().is_cpu() && x.is_contiguous() && !x.is_neg() && x.numel() < (std::int64_t(1) << 32))) {
      const at::Tensor xc = !special ? x : half ? x.to(at::kFloat).contiguous() : x.resolve_conj().resolve_neg().contiguous();
      auto run = [&](auto tag) {
        using V = decltype(tag);
        const V* p = xc.data_ptr<V>();
        const std::int64_t N = xc.numel();
        std::vector<std::int64_t> order(static_cast<std::size_t>(N));
        for (std::int64_t k = 0; k < N; ++k) order[k] = k;
        auto is_nan = [](V v) { return v != v; };
        auto lt = [](V u, V v) {
          if constexpr (std::is_arithmetic_v<V>) return u < v;
          else return u.real() < v.real() || (u.real() == v.real() && u.imag() < v.imag());
        };
        std::stable_sort(order.begin(), order.end(), [&](std::int64_t i, std::int64_t j) {
          return lt(p[i], p[j]) || (!is_nan(p[i]) && is_nan(p[j]));
        });
        auto head = [&](std::int64_t k) { return k == 0 || !(p[order[k]] == p[order[k - 1]]); };
        std::int64_t U = 0;
        for (std::int64_t k = 0; k < N; ++k) U += head(k);
        at::Tensor vals = at::empty({U}, xc.options()), first = at::empty({U}, xc.options().dtype(at::kLong)),
                   inv = at::empty(xc.sizes(), xc.options().dtype(at::kLong)),
                   cnt = at::zeros({U}, xc.options().dtype(at::kLong));
        V* pv = vals.data_ptr<V>();
        std::int64_t *pf = first.data_ptr<std::int64_t>(), *pi = inv.data_ptr<std::int64_t>(),
                     *pc = cnt.data_ptr<std::int64_t>();
        std::int64_t g = -1;
        for (std::int64_t k = 0; k < N; ++k) {
          if (head(k)) {
            ++g;
            pv[g] = p[order[k]];
            pf[g] = order[k];
          }
          ++pc[g];
          pi[order[k]] = g;
        }
        out[0] = make_array(std::move(vals), in[0].dtype());
        out[1] = make_array(std::move(first), int64);
        out[2] = make_array(inv.reshape(ref(spec[2].shape)), int64);
        out[3] = make_array(std::move(cnt), int64);
      };
      if (x.scalar_type() == at::kComplexFloat) return run(c10::complex<float>{});
      if (x.scalar_type() == at::kComplexDouble) return run(c10::complex<double>{});
      if (visit_real_loop_types(xc.scalar_type(), run)) return;
    }
    at::Tensor flat = tensor_of(in[0]).reshape({-1});
    auto [vals, inv, counts] = at::_unique2(flat, true, true, true);
    int64_t N = flat.numel();
    // first occurrence: a stable sort of the inverse indices groups equal values in their
    // original order, so each group's head is its smallest index
    at::Tensor first = at::empty({vals.size(0)}, at::TensorOptions().dtype(at::kLong));
    if (N > 0) {
      at::Tensor perm = std::get<1>(at::sort(inv.reshape({-1}), true, 0, false));
      at::Tensor starts = at::cumsum(counts, 0) - counts;
      first = perm.index_select(0, starts);
    }
    out[0] = make_array(std::move(vals), in[0].dtype());
    out[1] = make_array(std::move(first), int64);
    out[2] = make_array(inv.reshape(ref(spec[2].shape)), int64);
    out[3] = make_array(std::move(counts), int64);
  });
}
TORCH_KERNEL(isin) {
  run_kernel("isin", in, n, [&](bool direct) {
    const bool invert = a.get<attr::isin>().invert;
    DType c = result_type(in[0].dtype(), in[1].dtype());
    if (direct && c != float16 && c != bfloat16) {
      const at::Tensor x = input_as(in[0], c)->contiguous(), t = input_as(in[1], c)->contiguous();
      if (at::Tensor r = isin_loop(x, t, invert); r.defined()) {
        out[0] = make_array(std::move(r), spec[0].dtype);
        return;
      }
    }
    if (c == float16 || c == bfloat16) c = float32;  // no half isin kernel in LibTorch 1.13 (exact upcast)
    out[0] = make_array(at::isin(*input_as(in[0], c), *input_as(in[1], c), false, invert), spec[0].dtype);
  });
}

}  // namespace ivy::torch_backend

// The torch backend's linear algebra kernels (matmul, diagonal, the decompositions and
// solvers); eig, eigvals and qr call LAPACK directly on the direct path (torch_lapack.cpp).
#include <tuple>

#include "torch_common.hpp"
#include "torch_lapack.hpp"

namespace ivy::torch_backend {

TORCH_KERNEL(matmul) {
  run_kernel("matmul", in, n, [&](bool direct) {
    DType d = spec[0].dtype;
    Input i1 = input_as(in[0], d), i2 = input_as(in[1], d);
    const at::Tensor &x1 = *i1, &x2 = *i2;
    at::Tensor r;
    if (d == bool_ || is_integer(d)) {
      // LibTorch's CPU matmul lacks integer paths for some shapes: compute in int64.
      r = wrap_unsigned(at::matmul(x1.to(at::kLong), x2.to(at::kLong)), d);
      r = cast(r, d);
    } else if (direct && x1.dim() == 2 && x2.dim() == 2) {
      r = cpu_first::mm(x1, x2);  // what at::matmul calls for two matrices
    } else if (x1.dim() == 1 && x2.dim() == 1 && is_complex(d)) {
      // at::matmul of two complex vectors is at::dot, which returns 0 with Debian's LibTorch
      // (its complex dot BLAS call): the same product as a 1 x n by n x 1 matrix product.
      r = at::matmul(x1.unsqueeze(0), x2.unsqueeze(1)).reshape({});
    } else {
      r = at::matmul(x1, x2);
    }
    out[0] = make_array(std::move(r), spec[0].dtype);
  });
}
TORCH_KERNEL(diagonal) {
  run_view_kernel("diagonal", in, n, [&](bool direct) {
    out[0] = make_array(VIEW_CALL(diagonal, tensor_of(in[0]), a.get<attr::diagonal>().offset, -2, -1), spec[0].dtype);
  });
}
TORCH_KERNEL(cholesky) {
  run_kernel("cholesky", in, n, [&](bool) {
    out[0] = make_array(at::linalg_cholesky(tensor_of(in[0]), a.get<attr::cholesky>().upper), spec[0].dtype);
  });
}
// On the direct path the CPU kernels the composites linalg_det and linalg_slogdet call (see
// eigh below): the same tensors, the LU factors they also return dropped.
TORCH_KERNEL(det) {
  run_kernel("det", in, n, [&](bool direct) {
    const at::Tensor& x = tensor_of(in[0]);
    out[0] = make_array(direct ? std::get<0>(::at::cpu::_linalg_det(x)) : at::linalg_det(x), spec[0].dtype);
  });
}
TORCH_KERNEL(slogdet) {
  run_kernel("slogdet", in, n, [&](bool direct) {
    if (direct) {
      auto [s, l, lu, piv] = ::at::cpu::_linalg_slogdet(tensor_of(in[0]));
      out[0] = make_array(std::move(s), spec[0].dtype);
      out[1] = make_array(std::move(l), spec[1].dtype);
      return;
    }
    auto [s, l] = at::linalg_slogdet(tensor_of(in[0]));
    out[0] = make_array(std::move(s), spec[0].dtype);
    out[1] = make_array(std::move(l), spec[1].dtype);
  });
}
TORCH_KERNEL(inv) {
  run_kernel("inv", in, n, [&](bool) { out[0] = make_array(at::linalg_inv(tensor_of(in[0])), spec[0].dtype); });
}
TORCH_KERNEL(solve) {
  run_kernel("solve", in, n, [&](bool) {
    DType d = spec[0].dtype;
    Input ia = input_as(in[0], d), ib = input_as(in[1], d);
    const at::Tensor &A = *ia, &Bm = *ib;
    if (Bm.dim() == 1) {
      out[0] = make_array(at::linalg_solve(A, Bm.unsqueeze(-1)).squeeze(-1), spec[0].dtype);
    } else if (A.sizes().slice(0, A.dim() - 2) == Bm.sizes().slice(0, Bm.dim() - 2)) {
      out[0] = make_array(at::linalg_solve(A, Bm), spec[0].dtype);  // batch dims already equal: no expanded views
    } else {
      const Shape& s = spec[0].shape;
      Shape as = s;
      as[as.size() - 1] = A.size(-1);
      out[0] = make_array(at::linalg_solve(A.expand(ref(as)), Bm.expand(ref(s))), spec[0].dtype);
    }
  });
}
// The decompositions whose LibTorch function is a composite over a CPU kernel (linalg_eigh
// over _linalg_eigh, linalg_svd over _linalg_svd, ...) call that kernel straight on the direct
// path: the call the composite makes for a plain CPU tensor (compute_v / compute_uv false for
// the values-only functions, as for a tensor that needs no gradient), without two dispatcher
// passes.
TORCH_KERNEL(eigh) {
  run_kernel("eigh", in, n, [&](bool direct) {
    const at::Tensor& x = tensor_of(in[0]);
    auto [w, v] = direct ? ::at::cpu::_linalg_eigh(x, "L", true) : at::linalg_eigh(x, "L");
    out[0] = make_array(std::move(w), spec[0].dtype);
    out[1] = make_array(std::move(v), spec[1].dtype);
  });
}
TORCH_KERNEL(eigvalsh) {
  run_kernel("eigvalsh", in, n, [&](bool direct) {
    const at::Tensor& x = tensor_of(in[0]);
    out[0] = make_array(direct ? std::get<0>(::at::cpu::_linalg_eigh(x, "L", false)) : at::linalg_eigvalsh(x, "L"),
                        spec[0].dtype);
  });
}
// eig, eigvals (and qr below) on the direct path: LAPACK called as LibTorch's CPU kernels call
// it, without the tensor work LibTorch wraps around it (torch_lapack.cpp).
TORCH_KERNEL(eig) {
  run_kernel("eig", in, n, [&](bool direct) {
    const at::Tensor& x = tensor_of(in[0]);
    at::Tensor w, v;
    if (direct && torch_lapack::serves(x)) torch_lapack::eig("eig", x, true, w, v);
    else std::tie(w, v) = at::linalg_eig(x);
    out[0] = make_array(std::move(w), spec[0].dtype);
    out[1] = make_array(std::move(v), spec[1].dtype);
  });
}
TORCH_KERNEL(eigvals) {
  run_kernel("eigvals", in, n, [&](bool direct) {
    const at::Tensor& x = tensor_of(in[0]);
    at::Tensor w, none;
    if (direct && torch_lapack::serves(x)) torch_lapack::eig("eigvals", x, false, w, none);
    else w = at::linalg_eigvals(x);
    out[0] = make_array(std::move(w), spec[0].dtype);
  });
}
TORCH_KERNEL(svd) {
  run_kernel("svd", in, n, [&](bool direct) {
    const bool full_matrices = a.get<attr::svd>().full_matrices;
    const at::Tensor& x = tensor_of(in[0]);
    auto [u, s, vh] = direct ? ::at::cpu::_linalg_svd(x, full_matrices, true) : at::linalg_svd(x, full_matrices);
    out[0] = make_array(std::move(u), spec[0].dtype);
    out[1] = make_array(std::move(s), spec[1].dtype);
    out[2] = make_array(std::move(vh), spec[2].dtype);
  });
}
TORCH_KERNEL(svdvals) {
  run_kernel("svdvals", in, n, [&](bool direct) {
    const at::Tensor& x = tensor_of(in[0]);
    out[0] = make_array(direct ? std::get<1>(::at::cpu::_linalg_svd(x, false, false)) : at::linalg_svdvals(x),
                        spec[0].dtype);
  });
}
TORCH_KERNEL(qr) {
  run_kernel("qr", in, n, [&](bool direct) {
    const bool complete = a.get<attr::qr>().complete;
    const at::Tensor& x = tensor_of(in[0]);
    at::Tensor q, r;
    if (direct && torch_lapack::serves(x) && x.numel() > 0) torch_lapack::qr(x, complete, q, r);
    else std::tie(q, r) = at::linalg_qr(x, complete ? "complete" : "reduced");
    out[0] = make_array(std::move(q), spec[0].dtype);
    out[1] = make_array(std::move(r), spec[1].dtype);
  });
}

}  // namespace ivy::torch_backend

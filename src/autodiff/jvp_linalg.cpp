// JVP rules of the linear-algebra and fft primitives.
//
// Each rule is the real-linear map whose adjoint is the VJP rule in rules_linalg.cpp (same
// gauges, same assumptions): distinct eigenvalues / singular values and nonsingular factors
// (inf/nan otherwise, as in JAX); inputs that must be Hermitian (cholesky, eigh) take the
// Hermitian part of their tangent.
#include <algorithm>
#include <complex>

#include "autodiff/rule_helpers.hpp"
#include "autodiff/rules.hpp"

namespace ivy::autodiff {
namespace {

Array times_i(const Array& x) { return multiply(x, Scalar(std::complex<double>(0.0, 1.0))); }

Array re(const Array& x) { return is_complex(x.dtype()) ? real(x) : x; }
// tr(A^{-1} dA) per batch
Array trace_inv_mul(const Array& A, const Array& dA) { return sum(diag_of(linalg::solve(A, dA)), -1); }

// QR forward for Q (m x k), R (k x k) upper triangular, m >= k: with B = dA R^{-1}, C = Q^H B,
// T = triu(C,1) + tril(C,-1)^H + Re diag(C) (= dR R^{-1}): dR = T R, dQ = B - Q T.
std::pair<Array, Array> qr_tall_jvp(const Array& Q, const Array& R, const Array& dA) {
  Array B = mH(linalg::solve(mH(R), mH(dA)));  // dA R^{-1}
  Array C = matmul(mH(Q), B);
  Array T = add(add(triu(C, 1), mH(tril(C, -1))), diag_embed(re(diag_of(C))));
  return {subtract(B, matmul(Q, T)), matmul(T, R)};
}

}  // namespace

// ---- matmul: dA B + A dB (1-d operands as in the primal product)
IVY_JVP(matmul) {
  Array t;
  if (c.tan[0].defined()) t = matmul(c.tan[0], c.in[1]);
  if (c.tan[1].defined()) t = add_opt(t, matmul(c.in[0], c.tan[1]));
  out_tangents[0] = t;
}

// ---- cholesky (A = L L^H): dL = L Phi(L^{-1} sym(dA) L^{-H}), Phi = lower triangle with the diagonal
// halved; upper=true: U = L^H, dU = dL^H.
IVY_JVP(cholesky) {
  if (c.in[0].size() == 0) return;
  const bool upper = c.attrs.get<attr::cholesky>().upper;
  Array L = upper ? mH(c.out[0]) : c.out[0];
  Array Y = linalg::solve(L, sym(tan_or_zeros(c, 0)));  // L^{-1} dA
  Array X = mH(linalg::solve(L, mH(Y)));                // L^{-1} dA L^{-H}
  Array half = multiply(eye_as(X.shape().back(), real_of(X.dtype()), X), Scalar(0.5));
  Array dL = matmul(L, add(tril(X, -1), multiply(X, half)));
  out_tangents[0] = upper ? mH(dL) : dL;
}

// ---- det: det * tr(A^{-1} dA)
IVY_JVP(det) {
  if (c.in[0].size() == 0) return;
  out_tangents[0] = multiply(c.out[0], trace_inv_mul(c.in[0], tan_or_zeros(c, 0)));
}

// ---- slogdet: logabsdet' = Re tr(A^{-1} dA); a complex sign moves by i Im tr(A^{-1} dA) sign, a real
// sign is locally constant.
IVY_JVP(slogdet) {
  if (c.in[0].size() == 0) return;
  Array tr = trace_inv_mul(c.in[0], tan_or_zeros(c, 0));
  if (is_complex(tr.dtype())) out_tangents[0] = multiply(times_i(imag(tr)), c.out[0]);
  out_tangents[1] = re(tr);
}

// ---- inv (Y = A^{-1}): -Y dA Y
IVY_JVP(inv) {
  if (c.in[0].size() == 0) return;
  const Array& Y = c.out[0];
  out_tangents[0] = negative(matmul(matmul(Y, tan_or_zeros(c, 0)), Y));
}

// ---- solve (X = A^{-1} B): A^{-1} (dB - dA X); a 1-d B is one column for every batch.
IVY_JVP(solve) {
  const Array &A = c.in[0], &B = c.in[1], &X = c.out[0];
  if (X.size() == 0) return;
  const bool vec = B.ndim() == 1;
  Array rhs;
  if (c.tan[1].defined()) rhs = vec ? expand_dims(c.tan[1], -1) : c.tan[1];
  if (c.tan[0].defined()) {
    Array t = matmul(c.tan[0], vec ? expand_dims(X, -1) : X);
    rhs = rhs.defined() ? subtract(rhs, t) : negative(t);
  }
  Array dX = linalg::solve(A, rhs);
  out_tangents[0] = vec ? squeeze(dX, -1) : dX;
}

// ---- eigh (A = V diag(w) V^H), M = V^H sym(dA) V: dw = Re diag(M), dV = V (F o M), F_ij = 1/(w_j - w_i)
IVY_JVP(eigh) {
  if (c.in[0].size() == 0) return;
  const Array &w = c.out[0], &V = c.out[1];
  Array M = sym(matmul(mH(V), matmul(tan_or_zeros(c, 0), V)));
  out_tangents[0] = re(diag_of(M));
  out_tangents[1] = matmul(V, multiply(inv_gaps(w), M));
}

// ---- eigvalsh: dw = Re diag(V^H dA V) (V from eigh)
IVY_JVP(eigvalsh) {
  if (c.in[0].size() == 0) return;
  Array V = linalg::eigh(c.in[0]).eigenvectors;
  out_tangents[0] = re(sum(multiply(cj(V), matmul(tan_or_zeros(c, 0), V)), -2));
}

// ---- eig (A = V diag(w) V^{-1}, unit-norm columns), P = V^{-1} dA V: dw = diag(P),
// dV = V (F o P) - V diag(Re diag(V^H V (F o P))), F_ij = 1/(w_j - w_i) (the gauge of the VJP rule).
IVY_JVP(eig) {
  if (c.in[0].size() == 0) return;
  const Array &w = c.out[0], &V = c.out[1];
  Array dA = tan_or_zeros(c, 0);
  if (dA.dtype() != V.dtype()) dA = astype(dA, V.dtype());
  Array P = linalg::solve(V, matmul(dA, V));
  out_tangents[0] = diag_of(P);
  Array dV = matmul(V, multiply(inv_gaps(w), P));
  Array r = real(sum(multiply(conj(V), dV), -2));  // Re diag(V^H dV)
  out_tangents[1] = subtract(dV, multiply(V, expand_dims(r, -2)));
}

// ---- eigvals: dw = diag(V^{-1} dA V) (V from eig)
IVY_JVP(eigvals) {
  if (c.in[0].size() == 0) return;
  Array V = linalg::eig(c.in[0]).eigenvectors;
  Array dA = tan_or_zeros(c, 0);
  if (dA.dtype() != V.dtype()) dA = astype(dA, V.dtype());
  out_tangents[0] = diag_of(linalg::solve(V, matmul(dA, V)));
}

// ---- svd (A = U diag(S) Vh, reduced, k = min(m, n)), P = U^H dA V, F_ij = 1/(S_j^2 - S_i^2):
// dS = Re diag(P); dU = U [F o (P S + S P^H) + i Im diag(P) / S] + (I - U U^H) dA V S^{-1};
// dVh = (F o (S P + P^H S))^H Vh + S^{-1} U^H dA (I - V V^H)
// (phase gauge Im diag(V^H dV) = 0, as the VJP rule). full_matrices=True: square matrices only.
IVY_JVP(svd) {
  const Array& A = c.in[0];
  if (A.size() == 0) return;
  const std::int64_t m = A.shape()[A.ndim() - 2], n = A.shape().back(), k = std::min(m, n);
  if (c.attrs.get<attr::svd>().full_matrices && m != n)
    throw NotImplementedError(
        "[jvp] svd with full_matrices=True is differentiable only for square matrices (got shape " + A.shape().str() +
        "); use full_matrices=False");
  const Array &U = c.out[0], &S = c.out[1], &Vh = c.out[2];
  Array dA = tan_or_zeros(c, 0);
  Array V = mH(Vh);
  Array dAV, UhdA, P;
  if (m >= n) {
    dAV = matmul(dA, V);
    P = matmul(mH(U), dAV);
  } else {
    UhdA = matmul(mH(U), dA);
    P = matmul(UhdA, V);
  }
  out_tangents[1] = re(diag_of(P));
  Array F = inv_gaps(multiply(S, S));
  Array Srow = expand_dims(S, -2), Scol = expand_dims(S, -1);  // scale columns / rows by S
  Array PS = multiply(P, Srow), SP = multiply(Scol, P);
  Array OmU = multiply(F, add(PS, mH(PS)));
  if (is_complex(P.dtype())) OmU = add(OmU, diag_embed(times_i(divide(imag(diag_of(P)), S))));
  Array OmV = multiply(F, add(SP, mH(SP)));
  Array dU = matmul(U, OmU);
  if (m > k) {
    Array G = divide(dAV, Srow);  // dA V S^{-1}
    dU = add(dU, subtract(G, matmul(U, matmul(mH(U), G))));
  }
  Array dVh = matmul(mH(OmV), Vh);
  if (n > k) {
    Array H = divide(UhdA, Scol);  // S^{-1} U^H dA
    dVh = add(dVh, subtract(H, matmul(matmul(H, V), Vh)));
  }
  out_tangents[0] = dU;
  out_tangents[2] = dVh;
}

// ---- svdvals: dS = Re diag(U^H dA V) (U, Vh from the reduced svd)
IVY_JVP(svdvals) {
  if (c.in[0].size() == 0) return;
  auto r = linalg::svd(c.in[0], false);
  out_tangents[0] = re(sum(multiply(cj(r.U), matmul(tan_or_zeros(c, 0), mH(r.Vh))), -2));
}

// ---- qr (reduced; complete only when m <= n, where it is the reduced one)
// m >= n: see qr_tall_jvp. m < n: A = [X | Y], Q R1 = X, R2 = Q^H Y:
// (dQ, dR1) = qr_tall_jvp(Q, R1, dX), dR2 = dQ^H Y + Q^H dY.
IVY_JVP(qr) {
  const Array& A = c.in[0];
  if (A.size() == 0) return;
  const std::int64_t m = A.shape()[A.ndim() - 2], n = A.shape().back();
  if (c.attrs.get<attr::qr>().complete && m > n)
    throw NotImplementedError("[jvp] qr with mode='complete' is differentiable only when rows <= columns (got shape " +
                              A.shape().str() + "); use mode='reduced'");
  const Array &Q = c.out[0], &R = c.out[1];
  Array dA = tan_or_zeros(c, 0);
  if (m >= n) {
    auto [dQ, dR] = qr_tall_jvp(Q, R, dA);
    out_tangents[0] = dQ;
    out_tangents[1] = dR;
    return;
  }
  auto [dQ, dR1] = qr_tall_jvp(Q, slice_last(R, 0, m), slice_last(dA, 0, m));
  Array dR2 = add(matmul(mH(dQ), slice_last(A, m, n)), matmul(mH(Q), slice_last(dA, m, n)));
  out_tangents[0] = dQ;
  out_tangents[1] = concat({dR1, dR2}, -1);
}

// ---- fft_*: linear, the same transform of the tangent
IVY_JVP(fft_c2c) { out_tangents[0] = dispatch(c.op, tan_or_zeros(c, 0), c.attrs); }
IVY_JVP(fft_r2c) { out_tangents[0] = dispatch(c.op, tan_or_zeros(c, 0), c.attrs); }
IVY_JVP(fft_c2r) { out_tangents[0] = dispatch(c.op, tan_or_zeros(c, 0), c.attrs); }

}  // namespace ivy::autodiff

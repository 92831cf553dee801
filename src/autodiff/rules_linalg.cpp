// VJP rules of the linear-algebra and fft primitives.
//
// Complex convention (as the elementwise rules: multiply's cotangent is g * conj(y)): every
// rule returns the adjoint of the primitive's real-linear JVP under <X, Y> = Re tr(X^H Y).
// Spectral rules assume distinct eigenvalues / singular values and nonsingular factors:
// degenerate eigenvalues (eigh, eig) or singular values (svd) give inf/nan, as in JAX, and so
// do singular matrices in det, slogdet, inv, solve, cholesky and qr (rank deficient).
// Inputs that must be Hermitian (cholesky, eigh) get the Hermitian part of the gradient, as
// JAX (which symmetrizes the input) and PyTorch do.
#include <algorithm>
#include <complex>
#include <vector>

#include "autodiff/rule_helpers.hpp"
#include "autodiff/rules.hpp"

namespace ivy::autodiff {
namespace {

// a batch of scalars (...) as (..., 1, 1), to scale matrices
Array as_mat(const Array& b) {
  Shape s = b.shape();
  s.push_back(1);
  s.push_back(1);
  return reshape(b, s);
}
// x cropped (from the end) or zero-padded (at the end) along `axes` to target's extents there
Array fit_extents(const Array& x, const Dims& axes, const Shape& target) {
  Shape want = x.shape();
  for (auto ax : axes) want[ax] = target[ax];
  if (want == x.shape()) return x;
  if (x.size() == 0 || want.numel() == 0) return zeros(want, x.dtype(), x.device(), x.backend());
  attr::slice v;
  bool crop = false;
  for (std::int64_t i = 0; i < x.ndim(); ++i) {
    std::int64_t stop = std::min(x.shape()[i], want[i]);
    crop |= stop < x.shape()[i];
    v.start.push_back(0);
    v.stop.push_back(stop);
    v.step.push_back(1);
  }
  Array y = crop ? dispatch(OpId::strided_slice, x, v) : x;
  for (auto ax : axes) {
    if (y.shape()[ax] >= want[ax]) continue;
    Shape zs = y.shape();
    zs[ax] = want[ax] - y.shape()[ax];
    y = concat({y, zeros(zs, y.dtype(), y.device(), y.backend())}, ax);
  }
  return y;
}
// the adjoint's norm code: backward (0) <-> forward (2), ortho (1) stays
std::int64_t adjoint_norm(std::int64_t norm) { return norm == 0 ? 2 : norm == 2 ? 0 : 1; }
Array fft_call(OpId op, const Array& x, const Dims& axes, const Dims& lengths, std::int64_t norm, bool inverse) {
  attr::fft v;
  v.axes = axes;
  v.lengths = lengths;
  v.norm = norm;
  v.inverse = inverse;
  return dispatch(op, x, v);
}

// QR backward for Q (m x k), R (k x k) upper triangular, m >= k (either cotangent may be undefined):
// gA = (gQ + Q N) R^{-H}, M = gR R^H - Q^H gQ, N = triu(M,1) + triu(M,1)^H + Re diag(M).
Array qr_tall_vjp(const Array& Q, const Array& R, const Array& gQ, const Array& gR) {
  Array M;
  if (gR.defined()) M = matmul(gR, mH(R));
  if (gQ.defined()) M = M.defined() ? subtract(M, matmul(mH(Q), gQ)) : negative(matmul(mH(Q), gQ));
  Array Mu = triu(M, 1);
  Array rd = multiply(is_complex(M.dtype()) ? real(M) : M, eye_as(M.shape().back(), real_of(M.dtype()), M));
  Array N = add(add(Mu, mH(Mu)), rd);
  Array B = matmul(Q, N);
  if (gQ.defined()) B = add(gQ, B);
  return mH(linalg::solve(R, mH(B)));  // B R^{-H}
}

}  // namespace

// ---- matmul: gA = g @ B^H, gB = A^H @ g; a 1-d operand acts as a row (A) or column (B) matrix.
IVY_VJP_READS(matmul, kReadsAll, kReadsNone) {
  const Array& g = c.cot[0];
  if (!g.defined()) return;
  const Array &A = c.in[0], &B = c.in[1];
  const bool a1 = A.ndim() == 1, b1 = B.ndim() == 1;
  Array A2 = a1 ? reshape(A, Shape{1, A.shape()[0]}) : A;
  Array B2 = b1 ? reshape(B, Shape{B.shape()[0], 1}) : B;
  Array g2 = g;
  if (a1 && b1) g2 = reshape(g, Shape{1, 1});
  else if (a1) g2 = expand_dims(g, -2);
  else if (b1) g2 = expand_dims(g, -1);
  if (c.want[0] && is_floating(A.dtype())) {
    Array gA = matmul(g2, mH(B2));  // batch... x (1|m) x k
    grads[0] = a1 ? squeeze(gA, -2) : gA;
  }
  if (c.want[1] && is_floating(B.dtype())) {
    Array gB = matmul(mH(A2), g2);  // batch... x k x (1|n)
    grads[1] = b1 ? squeeze(gB, -1) : gB;
  }
}

// ---- cholesky (A = L L^H): gA = sym(L^{-H} Phi(L^H gL) L^{-1}), Phi = lower triangle with the
// diagonal halved; upper=true: L = U^H, gL = gU^H.
IVY_VJP_READS(cholesky, kReadsNone, kReadsAll) {
  if (!c.want[0] || !c.cot[0].defined() || c.in[0].size() == 0) return;
  const bool upper = c.attrs.get<attr::cholesky>().upper;
  Array L = upper ? mH(c.out[0]) : c.out[0];
  Array gL = upper ? mH(c.cot[0]) : c.cot[0];
  Array X = matmul(mH(L), gL);
  Array half = multiply(eye_as(X.shape().back(), real_of(X.dtype()), X), Scalar(0.5));
  Array phi = add(tril(X, -1), multiply(X, half));
  Array Lh = mH(L);
  Array Y = linalg::solve(Lh, phi);            // L^{-H} Phi
  Array G = mH(linalg::solve(Lh, mH(Y)));      // (L^{-H} Phi) L^{-1}
  grads[0] = sym(G);
}

// ---- det: gA = g conj(det) A^{-H}
IVY_VJP_READS(det, kReadsAll, kReadsAll) {
  if (!c.want[0] || !c.cot[0].defined() || c.in[0].size() == 0) return;
  Array coef = multiply(c.cot[0], cj(c.out[0]));
  grads[0] = multiply(as_mat(coef), mH(linalg::inv(c.in[0])));
}

// ---- slogdet: gA = (g_logabsdet + i Im(g_sign conj(sign))) A^{-H}; the sign of a real matrix is
// locally constant (no gradient); a complex sign = det/|det| moves with Im tr(A^{-1} dA).
IVY_VJP_READS(slogdet, kReadsAll, kReadsFirst) {
  if (!c.want[0] || c.in[0].size() == 0) return;
  const Array &gs = c.cot[0], &gl = c.cot[1];
  const bool cplx = is_complex(c.in[0].dtype());
  Array coef;
  if (gl.defined()) coef = gl;
  if (cplx && gs.defined()) {
    Array phase = multiply(imag(multiply(gs, conj(c.out[0]))), Scalar(std::complex<double>(0.0, 1.0)));
    coef = add_opt(coef, phase);
  }
  if (!coef.defined()) return;
  grads[0] = multiply(as_mat(coef), mH(linalg::inv(c.in[0])));
}

// ---- inv (Y = A^{-1}): gA = -Y^H g Y^H
IVY_VJP_READS(inv, kReadsNone, kReadsAll) {
  if (!c.want[0] || !c.cot[0].defined() || c.in[0].size() == 0) return;
  Array Yh = mH(c.out[0]);
  grads[0] = negative(matmul(matmul(Yh, c.cot[0]), Yh));
}

// ---- solve (X = A^{-1} B): gB = A^{-H} g, gA = -gB X^H; a 1-d B is one column for every batch.
IVY_VJP_READS(solve, kReadsFirst, kReadsAll) {
  const Array& g = c.cot[0];
  if (!g.defined() || (!c.want[0] && !c.want[1])) return;
  const Array &A = c.in[0], &B = c.in[1];
  const bool vec = B.ndim() == 1;
  Array g2 = vec ? expand_dims(g, -1) : g;
  Array X2 = vec ? expand_dims(c.out[0], -1) : c.out[0];
  Array gB = linalg::solve(mH(A), g2);  // broadcast batch x m x (1|k)
  if (c.want[0]) grads[0] = negative(matmul(gB, mH(X2)));
  if (c.want[1]) grads[1] = vec ? squeeze(gB, -1) : gB;
}

// ---- eigh (A = V diag(w) V^H): gA = V sym(diag(gw) + F o (V^H gV)) V^H, F_ij = 1/(w_j - w_i)
IVY_VJP_READS(eigh, kReadsNone, kReadsAll) {
  if (!c.want[0] || c.in[0].size() == 0) return;
  const Array &gw = c.cot[0], &gV = c.cot[1];
  if (!gw.defined() && !gV.defined()) return;
  const Array &w = c.out[0], &V = c.out[1];
  Array inner;
  if (gV.defined()) inner = sym(multiply(inv_gaps(w), matmul(mH(V), gV)));
  if (gw.defined()) inner = add_opt(inner, diag_embed(gw));
  grads[0] = matmul(matmul(V, inner), mH(V));
}

// ---- eigvalsh: gA = V diag(gw) V^H (V from eigh)
IVY_VJP_READS(eigvalsh, kReadsAll, kReadsNone) {
  if (!c.want[0] || !c.cot[0].defined() || c.in[0].size() == 0) return;
  Array V = linalg::eigh(c.in[0]).eigenvectors;
  grads[0] = matmul(multiply(V, expand_dims(c.cot[0], -2)), mH(V));
}

// ---- eig (A = V diag(w) V^{-1}, unit-norm columns of V):
// gA = V^{-H} (diag(gw) + conj(F) o (V^H gV - V^H V diag(Re diag(V^H gV)))) V^H, F_ij = 1/(w_j - w_i);
// the eigenvectors' phase is taken as fixed (Im diag(V^{-1} dV) = 0, as PyTorch).
IVY_VJP_READS(eig, kReadsNone, kReadsAll) {
  if (!c.want[0] || c.in[0].size() == 0) return;
  const Array &gw = c.cot[0], &gV = c.cot[1];
  if (!gw.defined() && !gV.defined()) return;
  const Array &w = c.out[0], &V = c.out[1];
  Array Vh = mH(V);
  Array inner;
  if (gV.defined()) {
    Array VhgV = matmul(Vh, gV);
    Array r = real(diag_of(VhgV));
    Array X = subtract(VhgV, multiply(matmul(Vh, V), expand_dims(r, -2)));
    inner = multiply(conj(inv_gaps(w)), X);
  }
  if (gw.defined()) inner = add_opt(inner, diag_embed(gw));
  grads[0] = linalg::solve(Vh, matmul(inner, Vh));
}

// ---- eigvals: gA = V^{-H} diag(gw) V^H (V from eig)
IVY_VJP_READS(eigvals, kReadsAll, kReadsNone) {
  if (!c.want[0] || !c.cot[0].defined() || c.in[0].size() == 0) return;
  Array Vh = mH(linalg::eig(c.in[0]).eigenvectors);
  grads[0] = linalg::solve(Vh, multiply(expand_dims(c.cot[0], -1), Vh));
}

// ---- svd (A = U diag(S) Vh, k = min(m, n)), with J = U^H gU, K = V^H gV, skew(X) = X - X^H,
// F_ij = 1/(S_j^2 - S_i^2):
// gA = U [(F o skew(J)) S + S (F o skew(K)) + diag(gS) + i Im diag(J) / S] Vh
//      + (I - U U^H) gU S^{-1} Vh + U S^{-1} gVh (I - V V^H)
// (phase gauge: Im diag(V^H dV) = 0, as PyTorch). full_matrices=True: square matrices only.
IVY_VJP_READS(svd, kReadsNone, kReadsAll) {
  if (!c.want[0] || c.in[0].size() == 0) return;
  const Array& A = c.in[0];
  const std::int64_t m = A.shape()[A.ndim() - 2], n = A.shape().back(), k = std::min(m, n);
  const Array &gU = c.cot[0], &gS = c.cot[1], &gVh = c.cot[2];
  if (!gU.defined() && !gS.defined() && !gVh.defined()) return;
  Array U = c.out[0], S = c.out[1], Vh = c.out[2];
  if (c.attrs.get<attr::svd>().full_matrices && m != n) {
    if (gU.defined() || gVh.defined())
      throw NotImplementedError(
          "[grad] svd with full_matrices=True is differentiable only for square matrices (got shape " +
          A.shape().str() + "); use full_matrices=False");
    // only the singular values are used: the first k columns of U and rows of Vh
    U = slice_last(U, 0, k);
    Vh = matrix_transpose(slice_last(matrix_transpose(Vh), 0, k));
  }
  if (!gU.defined() && !gVh.defined()) {  // gA = U diag(gS) Vh
    grads[0] = matmul(multiply(U, expand_dims(gS, -2)), Vh);
    return;
  }
  Array F;
  {
    Array S2 = multiply(S, S);
    F = inv_gaps(S2);
  }
  Array Srow = expand_dims(S, -2), Scol = expand_dims(S, -1);  // scale columns / rows by S
  Array inner, J;
  if (gU.defined()) {
    J = matmul(mH(U), gU);
    Array skJ = subtract(J, mH(J));
    inner = multiply(multiply(F, skJ), Srow);
    if (is_complex(J.dtype())) inner = add(inner, diag_embed(divide(diag_of(skJ), multiply(S, Scalar(2.0)))));
  }
  if (gVh.defined()) {
    Array K = matmul(Vh, mH(gVh));
    inner = add_opt(inner, multiply(Scol, multiply(F, subtract(K, mH(K)))));
  }
  if (gS.defined()) inner = add_opt(inner, diag_embed(gS));
  Array gA = matmul(matmul(U, inner), Vh);
  if (gU.defined() && m > k) gA = add(gA, matmul(divide(subtract(gU, matmul(U, J)), Srow), Vh));
  if (gVh.defined() && n > k) {
    Array proj = subtract(gVh, matmul(matmul(gVh, mH(Vh)), Vh));
    gA = add(gA, matmul(U, divide(proj, Scol)));
  }
  grads[0] = gA;
}

// ---- svdvals: gA = U diag(gs) Vh (U, Vh from the reduced svd)
IVY_VJP_READS(svdvals, kReadsAll, kReadsNone) {
  if (!c.want[0] || !c.cot[0].defined() || c.in[0].size() == 0) return;
  auto r = linalg::svd(c.in[0], false);
  grads[0] = matmul(multiply(r.U, expand_dims(c.cot[0], -2)), r.Vh);
}

// ---- qr (reduced; complete only when m <= n, where it is the reduced one)
// m >= n: see qr_tall_vjp. m < n: A = [X | Y], Q R1 = X, R2 = Q^H Y:
// gX = qr_tall_vjp(Q, R1, gQ + Y gR2^H, gR1), gY = Q gR2.
IVY_VJP_READS(qr, kReadsAll, kReadsAll) {
  if (!c.want[0] || c.in[0].size() == 0) return;
  const Array& A = c.in[0];
  const std::int64_t m = A.shape()[A.ndim() - 2], n = A.shape().back();
  if (c.attrs.get<attr::qr>().complete && m > n)
    throw NotImplementedError("[grad] qr with mode='complete' is differentiable only when rows <= columns (got shape " +
                              A.shape().str() + "); use mode='reduced'");
  const Array &gQ = c.cot[0], &gR = c.cot[1];
  if (!gQ.defined() && !gR.defined()) return;
  const Array &Q = c.out[0], &R = c.out[1];
  if (m >= n) {
    grads[0] = qr_tall_vjp(Q, R, gQ, gR);
    return;
  }
  Array Y = slice_last(A, m, n), R1 = slice_last(R, 0, m);
  Array gR1, gY, gQ1 = gQ;
  if (gR.defined()) {
    gR1 = slice_last(gR, 0, m);
    Array gR2 = slice_last(gR, m, n);
    gQ1 = add_opt(gQ1, matmul(Y, mH(gR2)));
    gY = matmul(Q, gR2);
  }
  Array gX = qr_tall_vjp(Q, R1, gQ1, gR1);
  if (!gY.defined()) {
    Shape s = Y.shape();
    gY = zeros(s, gX.dtype(), gX.device(), gX.backend());
  }
  grads[0] = concat({gX, gY}, -1);
}

// ---- fft_c2c: the adjoint transform (other direction, norm backward <-> forward) over the same
// lengths, then cropped / zero-padded back to the input's extents.
IVY_VJP_READS(fft_c2c, kReadsNone, kReadsNone) {
  if (!c.want[0] || !c.cot[0].defined()) return;
  const auto& p = c.attrs.get<attr::fft>();
  Array t = fft_call(OpId::fft_c2c, c.cot[0], p.axes, p.lengths, adjoint_norm(p.norm), !p.inverse);
  grads[0] = fit_extents(t, p.axes, c.in[0].shape());
}

// ---- fft_r2c: the half spectrum zero-padded to the full length, the adjoint complex transform,
// its real part, fitted back to the input's extents (exact: no Hermitian weighting needed).
IVY_VJP_READS(fft_r2c, kReadsNone, kReadsNone) {
  if (!c.want[0] || !c.cot[0].defined()) return;
  const auto& p = c.attrs.get<attr::fft>();
  const std::int64_t ax = p.axes.back();
  Shape full = c.cot[0].shape();
  full[ax] = p.lengths.back();
  Array g = fit_extents(c.cot[0], Dims{ax}, full);
  Array t = fft_call(OpId::fft_c2c, g, p.axes, p.lengths, adjoint_norm(p.norm), true);
  grads[0] = fit_extents(real(t), p.axes, c.in[0].shape());
}

// ---- fft_c2r (n points on the last axis from its first h = n/2+1 bins): gx = w o r2c(g) with the
// adjoint norm, w = 1 for bin 0 (and bin n/2 when n is even), 2 for the bins that stand for a
// conjugate pair; fitted back to the input's extents.
IVY_VJP_READS(fft_c2r, kReadsNone, kReadsNone) {
  if (!c.want[0] || !c.cot[0].defined()) return;
  const auto& p = c.attrs.get<attr::fft>();
  const Array& g = c.cot[0];
  const std::int64_t ax = p.axes.back(), n = p.lengths.back(), h = n / 2 + 1;
  Array t = fft_call(OpId::fft_r2c, g, p.axes, p.lengths, adjoint_norm(p.norm), false);
  std::vector<double> w(static_cast<std::size_t>(h), 2.0);
  w[0] = 1.0;
  if (n % 2 == 0) w[static_cast<std::size_t>(h - 1)] = 1.0;
  Shape ws{h};
  for (std::int64_t i = ax + 1; i < g.ndim(); ++i) ws.push_back(1);
  Array wt = asarray(w, ws, real_of(t.dtype()), g.device(), g.backend());
  grads[0] = fit_extents(multiply(t, wt), p.axes, c.in[0].shape());
}

}  // namespace ivy::autodiff

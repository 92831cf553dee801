"""The linalg and fft extensions (and matmul/tensordot/vecdot) against NumPy, on every
backend."""

import numpy as np
import pytest

import ivy
from conftest import check, np_dtype, to_np

RNG = np.random.default_rng(5)
A = RNG.normal(size=(3, 3)) + 3 * np.eye(3)
B = RNG.normal(size=(2, 4, 4)) + 4 * np.eye(4)
SPD = A @ A.T + np.eye(3)
TOL = dict(rtol=1e-9, atol=1e-10)


def test_matmul_family(backend):
    a = RNG.normal(size=(2, 3, 4))
    b = RNG.normal(size=(4, 5))
    check(ivy.matmul(ivy.asarray(a), ivy.asarray(b)), a @ b, **TOL)
    v = RNG.normal(size=(4,))
    check(ivy.matmul(ivy.asarray(a), ivy.asarray(v)), a @ v, **TOL)
    check(ivy.tensordot(ivy.asarray(a), ivy.asarray(b), axes=1), np.tensordot(a, b, axes=1), **TOL)
    c = RNG.normal(size=(4, 3, 6))
    check(ivy.tensordot(ivy.asarray(a), ivy.asarray(c), axes=((1, 2), (1, 0))),
          np.tensordot(a, c, axes=((1, 2), (1, 0))), **TOL)
    check(ivy.vecdot(ivy.asarray(a), ivy.asarray(v)), np.sum(a * v, axis=-1), **TOL)
    check(ivy.vecdot(ivy.asarray(a), ivy.asarray(a), axis=1), np.sum(a * a, axis=1), **TOL)
    z = RNG.normal(size=(3,)) + 1j * RNG.normal(size=(3,))
    check(ivy.vecdot(ivy.asarray(z), ivy.asarray(z)), np.vdot(z, z), **TOL)  # conjugates x1
    check(ivy.linalg.outer(ivy.asarray(v), ivy.asarray(v)), np.outer(v, v), **TOL)
    with pytest.raises(ValueError):
        ivy.matmul(ivy.asarray(a), ivy.asarray(a))


def test_solvers(backend):
    check(ivy.linalg.inv(ivy.asarray(A)), np.linalg.inv(A), **TOL)
    check(ivy.linalg.inv(ivy.asarray(B)), np.linalg.inv(B), **TOL)
    check(ivy.linalg.det(ivy.asarray(B)), np.linalg.det(B), **TOL)
    s, l = ivy.linalg.slogdet(ivy.asarray(A))
    ws, wl = np.linalg.slogdet(A)
    check(s, ws, **TOL)
    check(l, wl, **TOL)
    rhs = RNG.normal(size=(3, 2))
    check(ivy.linalg.solve(ivy.asarray(A), ivy.asarray(rhs)), np.linalg.solve(A, rhs), **TOL)
    check(ivy.linalg.cholesky(ivy.asarray(SPD)), np.linalg.cholesky(SPD), **TOL)
    check(ivy.linalg.cholesky(ivy.asarray(SPD), upper=True), np.linalg.cholesky(SPD).T, **TOL)
    check(ivy.linalg.matrix_power(ivy.asarray(A), 3), np.linalg.matrix_power(A, 3), **TOL)
    check(ivy.linalg.matrix_power(ivy.asarray(A), -2), np.linalg.matrix_power(A, -2), **TOL)
    check(ivy.linalg.matrix_power(ivy.asarray(A), 0), np.eye(3), **TOL)
    check(ivy.linalg.pinv(ivy.asarray(A[:, :2])), np.linalg.pinv(A[:, :2]), **TOL)


@pytest.mark.parametrize("shape", [(6, 6), (2, 5, 5), (7, 4), (4, 7)])
def test_triangular_factors_exactly_zero_elsewhere(backend, shape):
    """cholesky's factor and qr's R are exactly zero off their triangle, and every element of
    Q is written, even where the result's memory last held other values (NaN-filled arrays
    of the same sizes are made and dropped first)."""
    rng = np.random.default_rng(41)
    for _ in range(3):
        for s_ in (shape, shape[:-2] + (shape[-2], shape[-2]), shape[:-2] + (shape[-1], shape[-1])):
            ivy.full(s_, float("nan"), dtype=ivy.float64)
        if shape[-1] == shape[-2]:
            g = rng.normal(size=shape)
            spd = g @ np.swapaxes(g, -1, -2) + shape[-1] * np.eye(shape[-1])
            for upper in (False, True):
                c = to_np(ivy.linalg.cholesky(ivy.asarray(spd), upper=upper))
                want = np.linalg.cholesky(spd)
                want = np.swapaxes(want, -1, -2) if upper else want
                np.testing.assert_allclose(c, want, rtol=1e-10, atol=1e-12)
                off = np.tril(c, -1) if upper else np.triu(c, 1)
                assert np.all(off == 0)
        a = rng.normal(size=shape)
        for mode in ("reduced", "complete"):
            q, r = (to_np(t) for t in ivy.linalg.qr(ivy.asarray(a), mode=mode))
            assert np.all(np.isfinite(q)) and np.all(np.tril(r, -1) == 0)
            np.testing.assert_allclose(q @ r, a, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("dtype", ["float32", "complex64", "float64"])
@pytest.mark.parametrize("scale", [1e19, 1e-25])
def test_qr_of_huge_and_tiny_matrices(backend, dtype, scale):
    """QR of matrices near the dtype's range ends: R matches NumPy's (LAPACK's scaled norms),
    Q is the same as for the matrix scaled to 1 (the suite's complex64 entries of 1.8e19 made
    Eigen's reflectors overflow to NaN)."""
    t = np_dtype(dtype)
    base = np.array([[-1.8411, 0.3, 0.7], [2.0, 1e-3, -0.5], [0.25, -1.0, 1.5]])
    if t.kind == "c":
        base = base + 1j * np.array([[0.0, 0.5, -0.25], [1.0, 0.0, 0.5], [-0.75, 0.25, 0.0]])
    a = (base * scale).astype(t)
    q, r = (to_np(m) for m in ivy.linalg.qr(ivy.asarray(a)))
    wq, wr = np.linalg.qr(a)
    assert np.all(np.isfinite(r)) and np.all(np.isfinite(q))
    # same factorization up to the signs of R's rows (LAPACK and Eigen may differ there)
    signs = np.diag(r) / np.diag(wr)
    np.testing.assert_allclose(np.abs(signs), 1, rtol=1e-5)
    tol = 1e-5 if t in (np.float32, np.complex64) else 1e-12
    big = float(np.abs(a).max())
    np.testing.assert_allclose(r, signs[:, None] * wr, rtol=tol, atol=tol * big)
    np.testing.assert_allclose(q.astype(np.complex128) @ r, a, rtol=tol, atol=tol * big)


def test_decompositions(backend):
    w, v = ivy.linalg.eigh(ivy.asarray(SPD))
    ww, _ = np.linalg.eigh(SPD)
    check(w, ww, **TOL)
    vn = np.asarray(v)
    np.testing.assert_allclose(SPD @ vn, vn * np.asarray(w), rtol=1e-9, atol=1e-9)
    check(ivy.linalg.eigvalsh(ivy.asarray(SPD)), ww, **TOL)
    q, r = ivy.linalg.qr(ivy.asarray(A))
    np.testing.assert_allclose(np.asarray(q) @ np.asarray(r), A, rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(np.tril(np.asarray(r), -1), 0, atol=1e-12)
    q2, r2 = ivy.linalg.qr(ivy.asarray(RNG.normal(size=(5, 3))), mode="complete")
    assert q2.shape == (5, 5) and r2.shape == (5, 3)
    m = RNG.normal(size=(4, 3))
    u, s, vh = ivy.linalg.svd(ivy.asarray(m), full_matrices=False)
    np.testing.assert_allclose(np.asarray(u) * np.asarray(s) @ np.asarray(vh), m, rtol=1e-9, atol=1e-9)
    check(s, np.linalg.svd(m, compute_uv=False), **TOL)
    check(ivy.linalg.svdvals(ivy.asarray(m)), np.linalg.svd(m, compute_uv=False), **TOL)
    assert ivy.linalg.svd(ivy.asarray(m)).U.shape == (4, 4)
    ev = ivy.linalg.eigvals(ivy.asarray(A))
    np.testing.assert_allclose(np.sort_complex(np.asarray(ev)), np.sort_complex(np.linalg.eigvals(A)), rtol=1e-9)
    ew, evec = ivy.linalg.eig(ivy.asarray(A))
    np.testing.assert_allclose(A @ np.asarray(evec), np.asarray(evec) * np.asarray(ew), rtol=1e-8, atol=1e-8)
    np.testing.assert_allclose(np.linalg.norm(np.asarray(evec), axis=0), 1.0, rtol=1e-12)  # unit columns, as numpy's
    Z = RNG.normal(size=(6, 6)) + 1j * RNG.normal(size=(6, 6))
    zw, zvec = ivy.linalg.eig(ivy.asarray(Z))
    np.testing.assert_allclose(Z @ np.asarray(zvec), np.asarray(zvec) * np.asarray(zw), rtol=1e-8, atol=1e-8)
    np.testing.assert_allclose(np.linalg.norm(np.asarray(zvec), axis=0), 1.0, rtol=1e-12)


def test_norms_and_misc(backend):
    x = ivy.asarray(B)
    for ord_ in ["fro", "nuc", 1, -1, 2, -2, np.inf, -np.inf]:
        check(ivy.linalg.matrix_norm(x, ord=ord_), np.linalg.norm(B, ord=ord_, axis=(-2, -1)), **TOL)
    check(ivy.linalg.matrix_norm(x, keepdims=True), np.linalg.norm(B, axis=(-2, -1), keepdims=True), **TOL)
    v = RNG.normal(size=(3, 4))
    for ord_ in [1, 2, 3, np.inf, -np.inf, 0]:
        check(ivy.linalg.vector_norm(ivy.asarray(v), ord=ord_), np.linalg.norm(v.ravel(), ord=ord_), **TOL)
        check(ivy.linalg.vector_norm(ivy.asarray(v), axis=1, ord=ord_), np.linalg.norm(v, ord=ord_, axis=1), **TOL)
    check(ivy.linalg.vector_norm(ivy.asarray(v), axis=(0, 1), keepdims=True),
          np.linalg.norm(v, axis=(0, 1), keepdims=True), **TOL)
    check(ivy.linalg.matrix_rank(ivy.asarray(np.outer([1.0, 2, 3], [1.0, 1, 0]))), np.array(1, dtype=np.int64))
    check(ivy.linalg.trace(x), np.trace(B, axis1=-2, axis2=-1), **TOL)
    check(ivy.linalg.trace(x, offset=1), np.trace(B, offset=1, axis1=-2, axis2=-1), **TOL)
    check(ivy.linalg.diagonal(x, offset=-1), np.diagonal(B, offset=-1, axis1=-2, axis2=-1), **TOL)
    c1, c2 = RNG.normal(size=(4, 3)), RNG.normal(size=(4, 3))
    check(ivy.linalg.cross(ivy.asarray(c1), ivy.asarray(c2)), np.cross(c1, c2), **TOL)
    check(ivy.linalg.matrix_transpose(x), np.swapaxes(B, -1, -2))


def test_linalg_errors(backend):
    with pytest.raises(ValueError):
        ivy.linalg.inv(ivy.ones((2, 3)))
    with pytest.raises(TypeError):
        ivy.linalg.det(ivy.ones((2, 2), dtype=ivy.int32))


SIG = RNG.normal(size=(4, 6)) + 1j * RNG.normal(size=(4, 6))
REAL = RNG.normal(size=(4, 6))


@pytest.mark.parametrize("norm", ["backward", "ortho", "forward"])
def test_fft_1d(backend, norm):
    x = ivy.asarray(SIG)
    check(ivy.fft.fft(x, norm=norm), np.fft.fft(SIG, norm=norm), **TOL)
    check(ivy.fft.ifft(x, axis=0, norm=norm), np.fft.ifft(SIG, axis=0, norm=norm), **TOL)
    check(ivy.fft.fft(x, n=8, norm=norm), np.fft.fft(SIG, n=8, norm=norm), **TOL)
    check(ivy.fft.fft(x, n=4, norm=norm), np.fft.fft(SIG, n=4, norm=norm), **TOL)
    r = ivy.asarray(REAL)
    check(ivy.fft.rfft(r, norm=norm), np.fft.rfft(REAL, norm=norm), **TOL)
    h = np.fft.rfft(REAL)
    check(ivy.fft.irfft(ivy.asarray(h), n=6, norm=norm), np.fft.irfft(h, n=6, norm=norm), **TOL)
    check(ivy.fft.hfft(ivy.asarray(h), norm=norm), np.fft.hfft(h, norm=norm), **TOL)
    check(ivy.fft.ihfft(r, norm=norm), np.fft.ihfft(REAL, norm=norm), **TOL)


@pytest.mark.parametrize("axes", [None, (0,), (1, 0)])
def test_fft_nd(backend, axes):
    x = ivy.asarray(SIG)
    check(ivy.fft.fftn(x, axes=axes), np.fft.fftn(SIG, axes=axes), **TOL)
    check(ivy.fft.ifftn(x, axes=axes), np.fft.ifftn(SIG, axes=axes), **TOL)
    check(ivy.fft.rfftn(ivy.asarray(REAL), axes=axes), np.fft.rfftn(REAL, axes=axes), **TOL)
    s = (4, 8) if axes is None else tuple(8 for _ in axes)
    check(ivy.fft.fftn(x, s=s, axes=axes), np.fft.fftn(SIG, s=s, axes=axes), **TOL)
    h = np.fft.rfftn(REAL)
    check(ivy.fft.irfftn(ivy.asarray(h), s=(4, 6)), np.fft.irfftn(h, s=(4, 6)), **TOL)


def test_fft_helpers(backend):
    check(ivy.fft.fftfreq(8, d=0.5), np.fft.fftfreq(8, d=0.5).astype(np.float32), rtol=1e-6)
    check(ivy.fft.rfftfreq(9, dtype=ivy.float64), np.fft.rfftfreq(9), **TOL)
    a = np.arange(12.0).reshape(3, 4)
    check(ivy.fft.fftshift(ivy.asarray(a)), np.fft.fftshift(a))
    check(ivy.fft.ifftshift(ivy.asarray(a), axes=1), np.fft.ifftshift(a, axes=1))
    assert ivy.fft.fft(ivy.asarray(np.ones(4, dtype=np.float32))).dtype == ivy.complex64


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("n", [4, 6, 7, 8, 12, 16, 20])
def test_irfft_ignores_imaginary_dc_and_nyquist(backend, dtype, n):
    # Spectra that are not Hermitian at bin 0 and bin n/2 (nonzero imaginary parts there):
    # numpy's irfft reads only the real parts of those bins. Lines contiguous (last axis)
    # and strided (axis 0), of the full n/2+1 bins, fewer (zero-padded) and more (truncated).
    rng = np.random.default_rng(n)
    tol = dict(rtol=2e-5, atol=2e-5) if dtype == "complex64" else TOL
    for m in (n // 2 + 1, n // 2, n // 2 + 3):
        if m < 1:
            continue
        h = (rng.normal(size=(3, m)) + 1j * rng.normal(size=(3, m))).astype(dtype)
        h[:, 0] += 5j  # far from Hermitian at bin 0
        for norm in ("backward", "ortho", "forward"):
            expect = np.fft.irfft(h.astype(np.complex128), n=n, norm=norm)
            got = ivy.fft.irfft(ivy.asarray(h), n=n, norm=norm)
            check(got, expect.astype(np.float32 if dtype == "complex64" else np.float64), dtype=False, **tol)
            expect0 = np.fft.irfft(h.T.astype(np.complex128), n=n, axis=0, norm=norm)
            got0 = ivy.fft.irfft(ivy.asarray(np.ascontiguousarray(h.T)), n=n, axis=0, norm=norm)
            check(got0, expect0, dtype=False, **tol)


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128"])
def test_fft_of_length_one(backend, dtype):
    # A length-1 transform copies each line's first value (the real part for irfft/hfft,
    # zero where the line is empty), scaled by nothing in every norm; lines along the last
    # axis and along axis 0 (strided), lines cut to one value, empty lines padded, and
    # n-d transforms with some lengths 1.
    rng = np.random.default_rng(17)
    real = dtype.startswith("float")
    cdt = np.complex64 if dtype in ("float32", "complex64") else np.complex128
    rdt = np.float32 if cdt == np.complex64 else np.float64
    tol = dict(rtol=1e-6, atol=1e-6) if rdt == np.float32 else TOL

    def make(shape):
        v = rng.normal(size=shape) + (0 if real else 1j * rng.normal(size=shape))
        return v.astype(dtype)

    for shape, axis in (((1,), -1), ((5,), -1), ((3, 1), -1), ((3, 4), 0), ((1, 3), 0), ((2, 3, 4), 1), ((0,), -1),
                        ((0, 3), 0)):
        x = make(shape)
        xi = ivy.asarray(x)
        for norm in ("backward", "ortho", "forward"):
            check(ivy.fft.fft(xi, n=1, axis=axis, norm=norm), np.fft.fft(x, n=1, axis=axis, norm=norm).astype(cdt), **tol)
            check(ivy.fft.ifft(xi, n=1, axis=axis, norm=norm), np.fft.ifft(x, n=1, axis=axis, norm=norm).astype(cdt),
                  **tol)
            check(ivy.fft.irfft(xi, n=1, axis=axis, norm=norm),
                  np.fft.irfft(x, n=1, axis=axis, norm=norm).astype(rdt), **tol)
            check(ivy.fft.hfft(xi, n=1, axis=axis, norm=norm), np.fft.hfft(x, n=1, axis=axis, norm=norm).astype(rdt),
                  **tol)
            if real:
                check(ivy.fft.rfft(xi, n=1, axis=axis, norm=norm),
                      np.fft.rfft(x, n=1, axis=axis, norm=norm).astype(cdt), **tol)
                check(ivy.fft.ihfft(xi, n=1, axis=axis, norm=norm),
                      np.fft.ihfft(x, n=1, axis=axis, norm=norm).astype(cdt), **tol)
    x = make((3, 4))
    for s, axes in (((1, 4), (0, 1)), ((3, 1), (0, 1)), ((1, 1), (0, 1)), ((1,), (0,))):
        check(ivy.fft.fftn(ivy.asarray(x), s=s, axes=axes), np.fft.fftn(x, s=s, axes=axes).astype(cdt), **tol)
        check(ivy.fft.ifftn(ivy.asarray(x), s=s, axes=axes, norm="ortho"),
              np.fft.ifftn(x, s=s, axes=axes, norm="ortho").astype(cdt), **tol)
        if real:
            check(ivy.fft.rfftn(ivy.asarray(x), s=s, axes=axes), np.fft.rfftn(x, s=s, axes=axes).astype(cdt), **tol)
        check(ivy.fft.irfftn(ivy.asarray(x), s=s, axes=axes), np.fft.irfftn(x, s=s, axes=axes).astype(rdt), **tol)

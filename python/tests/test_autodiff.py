"""ivy's autodiff transforms in Python (JAX's API): grad, value_and_grad, vjp, jvp, jacrev,
jacfwd, hessian, stop_gradient, on every backend, against closed forms and central finite
differences in float64; pytrees, has_aux, argnums, nesting, errors, and JAX's signatures."""

import collections
import inspect

import numpy as np
import pytest

import ivy
from conftest import check, to_np

F64 = ivy.float64
E = inspect.Parameter.empty
P_OR_K = inspect.Parameter.POSITIONAL_OR_KEYWORD
K_ONLY = inspect.Parameter.KEYWORD_ONLY
VAR_P = inspect.Parameter.VAR_POSITIONAL


def a64(v):
    return ivy.asarray(np.asarray(v, dtype=np.float64))


def fd_grad(f, x, eps=1e-6):
    """Central differences of the 0-d ivy function f at the NumPy float64 array x."""
    x = np.asarray(x, dtype=np.float64)
    g = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        xp, xm = x.copy(), x.copy()
        xp[i] += eps
        xm[i] -= eps
        g[i] = (float(f(ivy.asarray(xp))) - float(f(ivy.asarray(xm)))) / (2 * eps)
    return g


def fd_jac(f, x, eps=1e-6):
    """Central-difference Jacobian (shape f(x).shape + x.shape) of the ivy function f."""
    x = np.asarray(x, dtype=np.float64)
    y0 = to_np(f(ivy.asarray(x.copy())))
    J = np.zeros(y0.shape + x.shape)
    for i in np.ndindex(x.shape):
        xp, xm = x.copy(), x.copy()
        xp[i] += eps
        xm[i] -= eps
        J[(Ellipsis,) + i] = (to_np(f(ivy.asarray(xp))) - to_np(f(ivy.asarray(xm)))) / (2 * eps)
    return J


RNG = np.random.default_rng(0)
X34 = RNG.standard_normal((3, 4))
W4 = RNG.standard_normal(4)


# ---------------------------------------------------------------- signatures (JAX's)
JAX_SIGNATURES = {
    "grad": [("fun", P_OR_K, E), ("argnums", P_OR_K, 0), ("has_aux", P_OR_K, False), ("holomorphic", P_OR_K, False),
             ("allow_int", P_OR_K, False), ("reduce_axes", P_OR_K, ())],
    "value_and_grad": [("fun", P_OR_K, E), ("argnums", P_OR_K, 0), ("has_aux", P_OR_K, False),
                       ("holomorphic", P_OR_K, False), ("allow_int", P_OR_K, False), ("reduce_axes", P_OR_K, ())],
    "vjp": [("fun", P_OR_K, E), ("primals", VAR_P, E), ("has_aux", K_ONLY, False), ("reduce_axes", K_ONLY, ())],
    "jvp": [("fun", P_OR_K, E), ("primals", P_OR_K, E), ("tangents", P_OR_K, E), ("has_aux", P_OR_K, False)],
    "jacrev": [("fun", P_OR_K, E), ("argnums", P_OR_K, 0), ("has_aux", P_OR_K, False), ("holomorphic", P_OR_K, False),
               ("allow_int", P_OR_K, False)],
    "jacfwd": [("fun", P_OR_K, E), ("argnums", P_OR_K, 0), ("has_aux", P_OR_K, False), ("holomorphic", P_OR_K, False)],
    "hessian": [("fun", P_OR_K, E), ("argnums", P_OR_K, 0), ("has_aux", P_OR_K, False),
                ("holomorphic", P_OR_K, False)],
    "stop_gradient": [("x", P_OR_K, E)],
}


@pytest.mark.parametrize("name", sorted(JAX_SIGNATURES))
def test_jax_signature(name):
    params = list(inspect.signature(getattr(ivy, name)).parameters.values())
    expected = JAX_SIGNATURES[name]
    assert [(p.name, p.kind) for p in params] == [(n, k) for n, k, _ in expected]
    for p, (_, _, default) in zip(params, expected):
        assert p.default is E if default is E else p.default == default, p.name
    assert name in ivy.__all__


def test_jax_signature_against_jax_if_installed():
    jax = pytest.importorskip("jax")
    for name in JAX_SIGNATURES:
        ref = getattr(jax.lax if name == "stop_gradient" else jax, name)
        ours = inspect.signature(getattr(ivy, name)).parameters
        theirs = inspect.signature(ref).parameters
        assert [(p.name, p.kind, p.default) for p in ours.values()] == [
            (p.name, p.kind, p.default) for p in theirs.values()
        ], name


def test_unsupported_options_raise_not_implemented():
    with pytest.raises(NotImplementedError, match="reduce_axes"):
        ivy.grad(ivy.sum, reduce_axes=("batch",))
    with pytest.raises(NotImplementedError, match="reduce_axes"):
        ivy.value_and_grad(ivy.sum, reduce_axes=("batch",))
    with pytest.raises(NotImplementedError, match="reduce_axes"):
        ivy.vjp(ivy.sum, ivy.ones(3), reduce_axes=("batch",))


def test_autodiff_not_in_array_api_listing():
    from ivy import _api

    for name in JAX_SIGNATURES:
        assert name not in _api.__all__


# ---------------------------------------------------------------- grad and value_and_grad
def test_grad_closed_form(backend):
    x = a64(X34)
    g = ivy.grad(lambda x: ivy.sum(ivy.sin(x) * x**2))(x)
    assert g.backend == backend
    check(g, np.cos(X34) * X34**2 + 2 * X34 * np.sin(X34), rtol=1e-12)
    v, g2 = ivy.value_and_grad(lambda x: ivy.sum(ivy.sin(x) * x**2))(x)
    check(v, np.sum(np.sin(X34) * X34**2), rtol=1e-12)
    check(g2, to_np(g), rtol=0)


def test_grad_keeps_float32(backend):
    x = ivy.asarray([1.0, 2.0, 3.0])
    g = ivy.grad(lambda x: ivy.sum(x * x))(x)
    check(g, np.array([2.0, 4.0, 6.0], dtype=np.float32))


def test_grad_of_python_float_argument(backend):
    g = ivy.grad(lambda x: x * x * x)(2.0)
    assert isinstance(g, ivy.Array) and g.shape == () and g.dtype == ivy.default_float_dtype()
    assert float(g) == pytest.approx(12.0)


FD_FUNCS = {
    "exp_sin_tanh": lambda x: ivy.sum(ivy.exp(ivy.sin(x)) * ivy.tanh(x)),
    "logsumexp": lambda x: ivy.log(ivy.sum(ivy.exp(x))),
    "gram": lambda x: ivy.sum((x @ x.T) ** 2),
    "softmax_dot": lambda x: ivy.sum(ivy.exp(x) / ivy.sum(ivy.exp(x), axis=1, keepdims=True) * a64(W4)),
    "smooth_ratio": lambda x: ivy.mean(ivy.sqrt(x * x + 1.0) / (2.0 + ivy.cos(x))),
    "norm": lambda x: ivy.linalg.vector_norm(x),
    "max_mean": lambda x: ivy.max(ivy.mean(x, axis=0) * 3.0 - x[0]),
}


@pytest.mark.parametrize("name", sorted(FD_FUNCS))
def test_grad_against_finite_differences(backend, name):
    f = FD_FUNCS[name]
    g = ivy.grad(f)(a64(X34))
    assert g.dtype == F64 and g.shape == (3, 4)
    np.testing.assert_allclose(to_np(g), fd_grad(f, X34), rtol=1e-6, atol=1e-7)


def test_argnums(backend):
    x, y = a64([1.0, 2.0]), a64([3.0, -1.0])

    def f(x, y, scale):
        return ivy.sum(x * x * y) * scale

    check(ivy.grad(f)(x, y, 2.0), np.array([12.0, -8.0]))
    check(ivy.grad(f, argnums=1)(x, y, 2.0), np.array([2.0, 8.0]))
    check(ivy.grad(f, argnums=-2)(x, y, 2.0), np.array([2.0, 8.0]))
    gx, gy = ivy.grad(f, argnums=(0, 1))(x, y, 2.0)
    check(gx, np.array([12.0, -8.0]))
    check(gy, np.array([2.0, 8.0]))
    gy1, gx1 = ivy.grad(f, argnums=(1, 0))(x, y, 2.0)
    check(gy1, np.array([2.0, 8.0]))
    check(gx1, np.array([12.0, -8.0]))
    (g1,) = ivy.grad(f, argnums=(0,))(x, y, 2.0)
    check(g1, np.array([12.0, -8.0]))
    ga, gb = ivy.grad(f, argnums=(0, 0))(x, y, 2.0)  # repeated: the same gradient twice
    check(ga, np.array([12.0, -8.0]))
    check(gb, np.array([12.0, -8.0]))
    # the non-differentiated argument is passed as it is (here a Python float) and kwargs too
    check(ivy.grad(lambda x, *, k: ivy.sum(x) * k)(x, k=3.0), np.array([3.0, 3.0]))
    v, (gx2, gy2) = ivy.value_and_grad(f, argnums=(0, 1))(x, y, 1.0)
    check(v, np.array(-1.0))
    check(gy2, np.array([1.0, 4.0]))


def test_argnums_errors():
    x = ivy.ones(2)
    with pytest.raises(TypeError, match=r"^\[grad\].*argnums"):
        ivy.grad(lambda x: ivy.sum(x), argnums=1)(x)
    with pytest.raises(TypeError, match=r"^\[grad\] argnums"):
        ivy.grad(lambda x: ivy.sum(x), argnums="0")
    with pytest.raises(TypeError, match=r"^\[jacrev\] argnums"):
        ivy.jacrev(lambda x: x, argnums=1.5)


def test_has_aux(backend):
    x = a64([1.0, 2.0, 3.0])

    def f(x):
        y = x * x
        return ivy.sum(y), {"y": y, "note": "anything"}

    g, aux = ivy.grad(f, has_aux=True)(x)
    check(g, np.array([2.0, 4.0, 6.0]))
    assert aux["note"] == "anything"
    check(aux["y"], np.array([1.0, 4.0, 9.0]))
    (v, aux2), g2 = ivy.value_and_grad(f, has_aux=True)(x)
    check(v, np.array(14.0))
    check(g2, np.array([2.0, 4.0, 6.0]))
    check(aux2["y"], np.array([1.0, 4.0, 9.0]))
    out, vjp_fn, aux3 = ivy.vjp(f, x, has_aux=True)
    check(out, np.array(14.0))
    check(vjp_fn(a64(2.0))[0], np.array([4.0, 8.0, 12.0]))
    assert aux3["note"] == "anything"
    y, t, aux4 = ivy.jvp(f, (x,), (a64([1.0, 0.0, 1.0]),), has_aux=True)
    check(t, np.array(8.0))
    J, aux5 = ivy.jacrev(f, has_aux=True)(x)
    check(J, np.array([2.0, 4.0, 6.0]))
    J, aux6 = ivy.jacfwd(f, has_aux=True)(x)
    check(J, np.array([2.0, 4.0, 6.0]))
    H, aux7 = ivy.hessian(f, has_aux=True)(x)
    check(H, 2 * np.eye(3))
    check(aux7["y"], np.array([1.0, 4.0, 9.0]))
    with pytest.raises(TypeError, match=r"^\[grad\].*has_aux=True"):
        ivy.grad(lambda x: ivy.sum(x), has_aux=True)(x)


# ---------------------------------------------------------------- pytrees
def test_grad_dict_params(backend):
    params = {"w": a64(W4), "b": a64(0.5)}
    X = a64(X34)
    t = a64([1.0, -1.0, 0.5])

    def loss(p, X, t):
        r = X @ p["w"] + p["b"] - t
        return ivy.sum(r * r)

    g = ivy.grad(loss)(params, X, t)
    assert isinstance(g, dict) and sorted(g) == ["b", "w"]
    r = X34 @ W4 + 0.5 - np.array([1.0, -1.0, 0.5])
    check(g["w"], 2 * X34.T @ r, rtol=1e-12)
    check(g["b"], np.array(2 * r.sum()), rtol=1e-12)


def test_grad_nested_lists_tuples_namedtuple_none(backend):
    Pair = collections.namedtuple("Pair", ["a", "b"])
    arg = [a64([1.0, 2.0]), (a64(3.0), Pair(a=a64([[1.0]]), b=None)), {"z": a64([0.5, -0.5, 2.0])}]

    def f(t):
        xs, (s, pair), d = t
        return ivy.sum(xs * xs) * s + ivy.sum(pair.a) * 4.0 + ivy.sum(ivy.exp(d["z"]))

    g = ivy.grad(f)(arg)
    assert type(g) is list and len(g) == 3
    assert type(g[1]) is tuple and type(g[1][1]) is Pair and g[1][1].b is None
    check(g[0], np.array([6.0, 12.0]))
    check(g[1][0], np.array(5.0))
    check(g[1][1].a, np.array([[4.0]]))
    check(g[2]["z"], np.exp([0.5, -0.5, 2.0]), rtol=1e-12)


def test_vjp_pytree_outputs(backend):
    x, y = a64([1.0, 2.0]), a64([3.0, 4.0])

    def f(x, y):
        return {"prod": x * y, "sum": [ivy.sum(x), ivy.sum(y * y)]}

    out, vjp_fn = ivy.vjp(f, x, y)
    assert sorted(out) == ["prod", "sum"]
    check(out["prod"], np.array([3.0, 8.0]))
    check(out["sum"][1], np.array(25.0))
    ct = {"prod": a64([1.0, 1.0]), "sum": [a64(2.0), a64(1.0)]}
    gx, gy = vjp_fn(ct)
    check(gx, np.array([3.0 + 2.0, 4.0 + 2.0]))
    check(gy, np.array([1.0 + 6.0, 2.0 + 8.0]))
    # vjp_fn can be called again
    gx2, gy2 = vjp_fn({"prod": a64([0.0, 1.0]), "sum": [a64(0.0), a64(0.0)]})
    check(gx2, np.array([0.0, 4.0]))
    check(gy2, np.array([0.0, 2.0]))
    # a single primal still gives a tuple
    out, vjp_fn = ivy.vjp(ivy.sin, x)
    res = vjp_fn(ivy.ones_like(out))
    assert type(res) is tuple and len(res) == 1
    check(res[0], np.cos([1.0, 2.0]), rtol=1e-12)
    # Python scalar cotangent for a 0-d output
    out, vjp_fn = ivy.vjp(lambda x: ivy.sum(x * x), x)
    check(vjp_fn(1.0)[0], np.array([2.0, 4.0]))


def test_vjp_dict_primal_and_integer_output(backend):
    p = {"a": a64([1.0, 2.0]), "n": ivy.asarray([1, 2])}
    out, vjp_fn = ivy.vjp(lambda p: (p["a"] * 2.0, p["n"] + 1), p)
    (g,) = vjp_fn((a64([1.0, 1.0]), ivy.asarray([0, 0])))
    check(g["a"], np.array([2.0, 2.0]))
    check(g["n"], np.array([0, 0]))  # integer primals: zero cotangents of their own dtype


def test_jvp(backend):
    x, t = a64(X34), a64(RNG.standard_normal((3, 4)))
    y, ty = ivy.jvp(ivy.sin, (x,), (t,))
    check(y, np.sin(X34), rtol=1e-12)
    check(ty, np.cos(X34) * to_np(t), rtol=1e-12)
    # pytree primals and outputs
    w, tw = a64(W4), a64([1.0, 0.0, 0.0, 2.0])

    def f(d, w):
        return (d["x"] @ w, ivy.sum(d["x"]))

    (o1, o2), (t1, t2) = ivy.jvp(f, [{"x": x}, w], [{"x": t}, tw])
    check(o1, X34 @ W4, rtol=1e-12)
    check(t1, to_np(t) @ W4 + X34 @ np.array([1.0, 0.0, 0.0, 2.0]), rtol=1e-12)
    check(t2, np.array(to_np(t).sum()), rtol=1e-12)
    # against finite differences of a nonlinear function
    g = FD_FUNCS["softmax_dot"]
    _, tg = ivy.jvp(g, (x,), (t,))
    fd = (float(g(a64(X34 + 1e-6 * to_np(t)))) - float(g(a64(X34 - 1e-6 * to_np(t))))) / 2e-6
    assert float(tg) == pytest.approx(fd, rel=1e-6)


def test_jvp_errors(backend):
    x = a64([1.0, 2.0])
    with pytest.raises(TypeError, match=r"^\[jvp\].*tuples or lists"):
        ivy.jvp(ivy.sin, x, x)
    with pytest.raises(ValueError, match=r"^\[jvp\].*tree structure"):
        ivy.jvp(ivy.sin, (x,), (x, x))
    with pytest.raises(ValueError, match=r"^\[jvp\].*shape"):
        ivy.jvp(ivy.sin, (x,), (a64([1.0]),))
    with pytest.raises(TypeError, match=r"^\[jvp\].*dtype"):
        ivy.jvp(ivy.sin, (x,), (ivy.asarray([1.0, 2.0], dtype=ivy.float32),))


# ---------------------------------------------------------------- higher order
def test_nested_grad(backend):
    f = lambda x: x**3 + ivy.sin(x)  # noqa: E731
    x = a64(0.7)
    check(ivy.grad(f)(x), np.array(3 * 0.49 + np.cos(0.7)), rtol=1e-12)
    check(ivy.grad(ivy.grad(f))(x), np.array(6 * 0.7 - np.sin(0.7)), rtol=1e-12)
    check(ivy.grad(ivy.grad(ivy.grad(f)))(x), np.array(6 - np.cos(0.7)), rtol=1e-12)
    # gradient of a function of a gradient, over arrays
    h = lambda x: ivy.sum(ivy.grad(lambda z: ivy.sum(ivy.exp(z) * z))(x) ** 2)  # noqa: E731
    xs = np.array([0.1, -0.4, 1.2])
    # d/dx sum(((1+x)e^x)^2) = 2 (1+x) e^x (2+x) e^x
    check(ivy.grad(h)(a64(xs)), 2 * (1 + xs) * (2 + xs) * np.exp(2 * xs), rtol=1e-11)


def test_jacrev_jacfwd(backend):
    def f(x):
        return ivy.stack([x[0] * x[1] * x[2], ivy.sin(x[0]) + x[2] ** 2])

    xn = np.array([0.3, -1.2, 2.0])
    expected = np.array([[xn[1] * xn[2], xn[0] * xn[2], xn[0] * xn[1]], [np.cos(xn[0]), 0.0, 2 * xn[2]]])
    for jac in (ivy.jacrev, ivy.jacfwd):
        J = jac(f)(a64(xn))
        assert J.shape == (2, 3)
        check(J, expected, rtol=1e-12)
    # matrix input and output: shape y.shape + x.shape, against finite differences
    g = lambda x: ivy.tanh(x @ x.T)  # noqa: E731
    Jr, Jf = ivy.jacrev(g)(a64(X34)), ivy.jacfwd(g)(a64(X34))
    assert Jr.shape == Jf.shape == (3, 3, 3, 4)
    np.testing.assert_allclose(to_np(Jr), fd_jac(g, X34), rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(to_np(Jf), to_np(Jr), rtol=1e-12, atol=1e-14)


def test_jacobians_pytrees_and_argnums(backend):
    def f(a, b):
        return {"u": a * b[0], "v": ivy.sum(a) * b[1]}

    a, b = a64([1.0, 2.0]), [a64(3.0), a64([1.0, -1.0, 0.5])]
    for jac in (ivy.jacrev, ivy.jacfwd):
        J = jac(f, argnums=(0, 1))(a, b)
        assert sorted(J) == ["u", "v"]
        Ja, Jb = J["u"]
        assert Ja.shape == (2, 2) and type(Jb) is list and Jb[0].shape == (2,) and Jb[1].shape == (2, 3)
        check(Ja, 3.0 * np.eye(2))
        check(Jb[0], np.array([1.0, 2.0]))
        check(Jb[1], np.zeros((2, 3)))
        Ja, Jb = J["v"]
        check(Ja, np.array([[1.0, 1.0], [-1.0, -1.0], [0.5, 0.5]]))
        check(Jb[0], np.zeros(3))
        check(Jb[1], 3.0 * np.eye(3))
        Jonly = jac(f)(a, b)  # argnums=0: the structure of argument 0 at each output leaf
        check(Jonly["u"], 3.0 * np.eye(2))
        assert Jonly["v"].shape == (3, 2)


def test_jacobian_zero_size(backend):
    x = ivy.zeros((0,), dtype=F64)
    for jac in (ivy.jacrev, ivy.jacfwd):
        J = jac(lambda x: ivy.sum(x) + ivy.ones(2, dtype=F64))(x)
        assert J.shape == (2, 0)


def test_hessian(backend):
    def rosen(x):
        return ivy.sum(100.0 * (x[1:] - x[:-1] ** 2) ** 2 + (1.0 - x[:-1]) ** 2)

    xn = np.array([0.5, -0.3, 1.1])
    H = ivy.hessian(rosen)(a64(xn))
    expected = np.zeros((3, 3))
    for i in range(2):
        expected[i, i] += 1200 * xn[i] ** 2 - 400 * xn[i + 1] + 2
        expected[i + 1, i + 1] += 200
        expected[i, i + 1] += -400 * xn[i]
        expected[i + 1, i] += -400 * xn[i]
    check(H, expected, rtol=1e-12)
    A = RNG.standard_normal((4, 4))
    Hq = ivy.hessian(lambda x: x @ (a64(A) @ x))(a64(W4))
    check(Hq, A + A.T, rtol=1e-12)
    # a pytree argument: blocks nested argument x argument
    Hd = ivy.hessian(lambda p: ivy.sum(p["a"] ** 2 * p["b"]))({"a": a64([1.0, 2.0]), "b": a64(3.0)})
    assert Hd["a"]["a"].shape == (2, 2) and Hd["a"]["b"].shape == (2,) and Hd["b"]["a"].shape == (2,)
    check(Hd["a"]["a"], 6.0 * np.eye(2))
    check(Hd["a"]["b"], np.array([2.0, 4.0]))
    check(Hd["b"]["b"], np.array(0.0))
    # argnums tuple
    Ht = ivy.hessian(lambda x, y: ivy.sum(x * x * y), argnums=(0, 1))(a64([1.0]), a64([2.0]))
    check(Ht[0][0], np.array([[4.0]]))
    check(Ht[0][1], np.array([[2.0]]))
    check(Ht[1][1], np.array([[0.0]]))


# ---------------------------------------------------------------- stop_gradient and conventions
def test_stop_gradient(backend):
    x = a64([1.0, -2.0, 3.0])
    check(ivy.grad(lambda x: ivy.sum(x * ivy.stop_gradient(x)))(x), np.array([1.0, -2.0, 3.0]))
    check(ivy.grad(lambda x: ivy.sum(ivy.stop_gradient(x * x)))(x), np.zeros(3))
    tree = ivy.stop_gradient({"a": x, "b": [x * 2.0]})
    check(tree["b"][0], np.array([2.0, -4.0, 6.0]))
    assert tree["a"].backend == backend
    with pytest.raises(TypeError, match=r"^\[stop_gradient\]"):
        ivy.stop_gradient("x")


def test_constants_and_integer_paths(backend):
    x = a64([1.0, 2.0])
    c = a64([5.0, 7.0])
    check(ivy.grad(lambda x: ivy.sum(c * c))(x), np.zeros(2))  # no dependence: zeros
    check(ivy.grad(lambda x: ivy.sum(ivy.floor(x) * x))(x), np.array([1.0, 2.0]))  # floor: no gradient
    g = ivy.grad(lambda x, n: ivy.sum(x * n), argnums=(0, 1), allow_int=True)(x, ivy.asarray([3, 4]))
    check(g[0], np.array([3.0, 4.0]))
    check(g[1], np.array([0, 0]))


def test_complex_follows_jax(backend):
    z = ivy.asarray(np.array([1 + 2j, -0.5 + 1j]))
    # a real function of a complex argument: JAX's gradient is 2 conj(z)
    g = ivy.grad(lambda z: ivy.sum(ivy.real(z * ivy.conj(z))))(z)
    check(g, 2 * np.conj(np.array([1 + 2j, -0.5 + 1j])), rtol=1e-12)
    # holomorphic: grad is f'(z)
    z0 = ivy.asarray(np.complex128(0.3 - 0.8j))
    check(ivy.grad(lambda z: z * z * z, holomorphic=True)(z0), np.array(3 * (0.3 - 0.8j) ** 2), rtol=1e-12)
    zn = np.array([1 + 2j, -0.5 + 1j])
    for jac in (ivy.jacrev, ivy.jacfwd):
        check(jac(ivy.sin, holomorphic=True)(z), np.diag(np.cos(zn)), rtol=1e-12)
    _, t = ivy.jvp(ivy.sin, (z,), (ivy.asarray(np.array([1j, 2.0])),))
    check(t, np.cos(zn) * np.array([1j, 2.0]), rtol=1e-12)
    out, vjp_fn = ivy.vjp(lambda z: z * z, z)
    check(vjp_fn(ivy.asarray(np.array([1.0 + 0j, 1j])))[0], 2 * zn * np.array([1.0, 1j]), rtol=1e-12)


# ---------------------------------------------------------------- errors
def test_grad_errors(backend):
    x = a64([1.0, 2.0])
    with pytest.raises(TypeError, match=r"^\[grad\] Gradient only defined for scalar-output functions.*\(2,\)"):
        ivy.grad(lambda x: x * 2.0)(x)
    with pytest.raises(TypeError, match=r"^\[grad\] Gradient only defined for scalar-output"):
        ivy.grad(lambda x: (ivy.sum(x), ivy.sum(x)))(x)
    with pytest.raises(TypeError, match=r"^\[value_and_grad\] Gradient only defined"):
        ivy.value_and_grad(lambda x: x)(x)
    with pytest.raises(TypeError, match=r"^\[grad\].*float.*not an ivy array"):  # Python scalar output
        ivy.grad(lambda x: 1.0)(x)
    with pytest.raises(TypeError, match=r"^\[vjp\].*int.*not an ivy array"):
        ivy.vjp(lambda x: (x, 3), x)
    with pytest.raises(TypeError, match=r"^\[grad\].*int64.*allow_int"):
        ivy.grad(lambda x: ivy.sum(x))(ivy.asarray([1, 2]))
    with pytest.raises(TypeError, match=r"^\[grad\].*int64"):
        ivy.grad(lambda x: x * 1.0)(3)
    with pytest.raises(TypeError, match=r"^\[grad\].*real-valued outputs"):
        ivy.grad(lambda x: ivy.astype(ivy.sum(x), ivy.complex128))(x)
    with pytest.raises(TypeError, match=r"^\[grad\].*holomorphic=True requires inputs with complex"):
        ivy.grad(lambda x: ivy.sum(x), holomorphic=True)(x)
    with pytest.raises(TypeError, match=r"^\[jacrev\].*real-valued outputs"):
        ivy.jacrev(lambda x: ivy.astype(x, ivy.complex128))(x)
    with pytest.raises(TypeError, match=r"^\[jacfwd\].*real-valued inputs"):
        ivy.jacfwd(lambda x: x)(ivy.asarray(np.array([1j])))
    with pytest.raises(TypeError, match=r"^\[grad\].*ivy arrays or Python scalars"):
        ivy.grad(lambda x: x)("not an array")
    with pytest.raises(TypeError, match=r"^\[grad\] expected a callable"):
        ivy.grad(3)


def test_vjp_fn_errors(backend):
    x = a64([1.0, 2.0])
    out, vjp_fn = ivy.vjp(lambda x: (x, ivy.sum(x)), x)
    with pytest.raises(ValueError, match=r"^\[vjp\] unexpected tree structure"):
        vjp_fn(a64([1.0, 1.0]))
    with pytest.raises(ValueError, match=r"^\[vjp\] unexpected tree structure"):
        vjp_fn([a64([1.0, 1.0]), a64(1.0)])  # a list, the output is a tuple
    with pytest.raises(ValueError, match=r"^\[vjp\] Shape of cotangent"):
        vjp_fn((a64([1.0, 1.0, 1.0]), a64(1.0)))
    with pytest.raises(ValueError, match=r"^\[vjp\] Type of cotangent"):
        vjp_fn((ivy.ones(2, dtype=ivy.float32), a64(1.0)))


class _Boom(Exception):
    pass


def test_python_exception_propagates(backend):
    err = _Boom("inside")

    def f(x):
        ivy.sin(x)
        raise err

    x = a64([1.0])
    for call in (lambda: ivy.grad(f)(x), lambda: ivy.vjp(f, x), lambda: ivy.jvp(f, (x,), (x,)),
                 lambda: ivy.jacrev(f)(x), lambda: ivy.hessian(f)(x), lambda: ivy.grad(ivy.grad(f))(a64(1.0))):
        with pytest.raises(_Boom) as info:
            call()
        assert info.value is err
    # an ivy error inside keeps its type and message
    with pytest.raises(ValueError, match=r"broadcast|\[add\]"):
        ivy.grad(lambda x: ivy.sum(x + ivy.ones(3, dtype=F64)))(a64([1.0, 2.0]))
    # and the machinery is still usable afterwards (no tape left on the stack)
    check(ivy.grad(lambda x: ivy.sum(x * x))(x), np.array([2.0]))


def test_functions_keep_names():
    def my_loss(x):
        return ivy.sum(x)

    assert ivy.grad(my_loss).__name__ == "my_loss"
    assert ivy.jacrev(my_loss).__name__ == "my_loss"

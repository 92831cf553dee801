"""Element-wise functions and array operators against NumPy, on every backend."""

import operator
import os

import numpy as np
import pytest

import ivy
from conftest import check, np_dtype, skip_unless_supported, to_np

RNG = np.random.default_rng(1234)


def sample(lo, hi, shape=(3, 4), dtype=np.float64):
    return RNG.uniform(lo, hi, size=shape).astype(dtype)


# name, numpy function, input domain
UNARY_REAL = [
    ("abs", np.abs, (-5, 5)),
    ("acos", np.arccos, (-0.99, 0.99)),
    ("acosh", np.arccosh, (1.01, 5)),
    ("asin", np.arcsin, (-0.99, 0.99)),
    ("asinh", np.arcsinh, (-5, 5)),
    ("atan", np.arctan, (-5, 5)),
    ("atanh", np.arctanh, (-0.99, 0.99)),
    ("ceil", np.ceil, (-5, 5)),
    ("cos", np.cos, (-5, 5)),
    ("cosh", np.cosh, (-3, 3)),
    ("exp", np.exp, (-5, 5)),
    ("expm1", np.expm1, (-1, 1)),
    ("floor", np.floor, (-5, 5)),
    ("log", np.log, (0.01, 10)),
    ("log1p", np.log1p, (-0.5, 10)),
    ("log2", np.log2, (0.01, 10)),
    ("log10", np.log10, (0.01, 10)),
    ("negative", np.negative, (-5, 5)),
    ("positive", np.positive, (-5, 5)),
    ("reciprocal", np.reciprocal, (0.5, 5)),
    ("round", np.round, (-5, 5)),
    ("sign", np.sign, (-5, 5)),
    ("sin", np.sin, (-5, 5)),
    ("sinh", np.sinh, (-3, 3)),
    ("square", np.square, (-5, 5)),
    ("sqrt", np.sqrt, (0, 10)),
    ("tan", np.tan, (-1.2, 1.2)),
    ("tanh", np.tanh, (-3, 3)),
    ("trunc", np.trunc, (-5, 5)),
]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name,fn,dom", UNARY_REAL, ids=[u[0] for u in UNARY_REAL])
def test_unary_real(backend, name, fn, dom, dtype):
    a = sample(*dom, dtype=np_dtype(dtype))
    out = getattr(ivy, name)(ivy.asarray(a))
    tol = 2e-6 if dtype == "float32" else 1e-12
    check(out, fn(a), rtol=tol, atol=tol)


@pytest.mark.parametrize("dtype", ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "float16", "float32",
                                   "float64", "complex64", "complex128"])
def test_abs_values_and_layouts(backend, dtype):
    """abs bit for bit: signed zeros, infinities, NaN, the most negative integer (wraps, as
    NumPy), on contiguous, transposed and strided inputs and zero-size ones."""
    skip_unless_supported(backend, getattr(ivy, dtype))
    t = np_dtype(dtype)
    if t.kind == "f":
        vals = np.array([0.0, -0.0, 1.5, -2.5, np.inf, -np.inf, np.nan, -np.finfo(t).max, -np.finfo(t).tiny / 4],
                        dtype=t)
    elif t.kind == "c":
        vals = np.array([0, complex(-0.0, -0.0), 3 - 4j, -1.5j, complex(np.inf, 1), complex(1, np.nan), -2.5 + 0j,
                         complex(3e30, 4e30), complex(1e-30, -1e-30)], dtype=t)
    else:
        info = np.iinfo(t)
        vals = np.array([0, 1, -1, info.max, info.min, 7] if info.min < 0 else [0, 1, info.max, 7], dtype=t)
    a = np.resize(vals, 6 * 5).reshape(6, 5)
    for x in (a, a.T, a[::2, 1::2], a[:0]):
        with np.errstate(all="ignore"):
            want = np.abs(x)
        got = to_np(ivy.abs(ivy.asarray(x)))
        assert got.dtype == want.dtype and got.shape == want.shape
        if t.kind == "c":  # |z| by hypot: within an ulp or two of NumPy's
            np.testing.assert_allclose(got, want, rtol=4 * np.finfo(want.dtype).eps, atol=0)
        else:
            assert np.ascontiguousarray(got).tobytes() == np.ascontiguousarray(want).tobytes()


@pytest.mark.parametrize("name,fn", [("isfinite", np.isfinite), ("isinf", np.isinf), ("isnan", np.isnan),
                                     ("signbit", np.signbit)])
def test_classification(backend, name, fn):
    a = np.array([0.0, -0.0, 1.5, -2.0, np.inf, -np.inf, np.nan], dtype=np.float64)
    check(getattr(ivy, name)(ivy.asarray(a)), fn(a))


UNARY_COMPLEX = [
    ("abs", np.abs), ("conj", np.conj), ("exp", np.exp), ("log", np.log), ("sqrt", np.sqrt), ("sin", np.sin),
    ("cos", np.cos), ("tanh", np.tanh), ("square", np.square), ("negative", np.negative), ("real", np.real),
    ("imag", np.imag),
]


@pytest.mark.parametrize("name,fn", UNARY_COMPLEX, ids=[u[0] for u in UNARY_COMPLEX])
def test_unary_complex(backend, name, fn):
    a = (sample(-2, 2) + 1j * sample(-2, 2)).astype(np.complex128)
    check(getattr(ivy, name)(ivy.asarray(a)), fn(a), rtol=1e-12, atol=1e-12)


INVERSE_COMPLEX = [("acos", np.arccos), ("acosh", np.arccosh), ("asin", np.arcsin), ("asinh", np.arcsinh),
                   ("atan", np.arctan), ("atanh", np.arctanh)]


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("name,fn", INVERSE_COMPLEX, ids=[u[0] for u in INVERSE_COMPLEX])
def test_inverse_complex_at_large_modulus(backend, name, fn, dtype):
    """Inverse trigonometric and hyperbolic functions keep their digits where |z| is large
    (the suite found LibTorch's asin(1 + 6.7e7j) = inf j and atan(1 + 1.7e7j) = -pi/2): NumPy
    (C99's formulas) as the reference, in every quadrant."""
    t = np_dtype(dtype)
    big = np.array([6.7e7, 1.7e7, 4e3, 1e30 if t == np.complex128 else 1e18], dtype=np.float64)
    parts = [complex(r, i) for m in big for r, i in ((1, m), (-1, m), (1, -m), (-1, -m), (m, 1), (m, -m), (-m, 0.5))]
    a = np.array(parts, dtype=t)
    want = fn(a)
    got = to_np(getattr(ivy, name)(ivy.asarray(a)))
    np.testing.assert_allclose(got, want, rtol=8 * np.finfo(t).eps, atol=0)


BINARY_FLOAT = [
    ("add", np.add), ("subtract", np.subtract), ("multiply", np.multiply), ("divide", np.divide),
    ("atan2", np.arctan2), ("copysign", np.copysign), ("hypot", np.hypot), ("logaddexp", np.logaddexp),
    ("maximum", np.maximum), ("minimum", np.minimum), ("pow", np.power), ("floor_divide", np.floor_divide),
    ("remainder", np.remainder), ("nextafter", np.nextafter),
]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name,fn", BINARY_FLOAT, ids=[b[0] for b in BINARY_FLOAT])
def test_binary_float(backend, name, fn, dtype):
    a = sample(0.5, 4, dtype=np_dtype(dtype))
    b = sample(-3, 3, shape=(4,), dtype=np_dtype(dtype))  # broadcast (3, 4) with (4,)
    if name in ("pow",):
        b = np.abs(b)
    if name in ("floor_divide", "remainder", "divide"):
        b = np.where(np.abs(b) < 0.1, 0.7, b).astype(a.dtype)
    tol = 1e-5 if dtype == "float32" else 1e-12
    check(getattr(ivy, name)(ivy.asarray(a), ivy.asarray(b)), fn(a, b), rtol=tol, atol=tol)


INT_BINARY = [
    ("add", np.add), ("subtract", np.subtract), ("multiply", np.multiply), ("floor_divide", np.floor_divide),
    ("remainder", np.remainder), ("maximum", np.maximum), ("minimum", np.minimum), ("bitwise_and", np.bitwise_and),
    ("bitwise_or", np.bitwise_or), ("bitwise_xor", np.bitwise_xor), ("equal", np.equal), ("less", np.less),
    ("greater_equal", np.greater_equal), ("not_equal", np.not_equal),
]


@pytest.mark.parametrize("dtype", ["int8", "int16", "int32", "int64", "uint8"])
@pytest.mark.parametrize("name,fn", INT_BINARY, ids=[b[0] for b in INT_BINARY])
def test_binary_int(backend, name, fn, dtype):
    t = np_dtype(dtype)
    lo = 0 if t.kind == "u" else -20
    a = RNG.integers(lo, 20, size=(2, 5)).astype(t)
    b = RNG.integers(1, 9, size=(2, 5)).astype(t)
    if t.kind == "i":
        b = b * np.where(RNG.integers(0, 2, size=b.shape) == 0, -1, 1).astype(t)
    check(getattr(ivy, name)(ivy.asarray(a), ivy.asarray(b)), fn(a, b))


@pytest.mark.parametrize("dtype", ["int8", "int32", "int64", "uint8", "uint16", "uint32"])
def test_shifts_and_invert(backend, dtype):
    skip_unless_supported(backend, getattr(ivy, dtype))
    t = np_dtype(dtype)
    a = np.array([0, 1, 5, 7, 12], dtype=t)
    s = np.array([0, 1, 2, 3, 1], dtype=t)
    x, y = ivy.asarray(a), ivy.asarray(s)
    check(ivy.bitwise_left_shift(x, y), np.left_shift(a, s))
    check(ivy.bitwise_right_shift(x, y), np.right_shift(a, s))
    check(ivy.bitwise_invert(x), np.invert(a))
    check(x << y, a << s)
    # counts of the type's width or more, or negative (the standard leaves them open): ivy
    # shifts everything out, 0 from a left shift and the sign fill from a right shift
    bits = t.itemsize * 8
    signed = np.iinfo(t).min < 0
    vals = np.array([5, 5, 5, 5, -5, -5, -5, -5] if signed else [5, 5, 5, 5], dtype=t)
    cnts = np.array([2, bits, 100, -1, 2, bits + 3, 100, -1] if signed else [2, bits, 100, 2 * bits - 1], dtype=t)
    ok = (cnts.astype(np.int64) >= 0) & (cnts.astype(np.int64) < bits)
    safe = np.where(ok, cnts, 0).astype(t)
    x2, y2 = ivy.asarray(vals), ivy.asarray(cnts)
    check(ivy.bitwise_left_shift(x2, y2), np.where(ok, np.left_shift(vals, safe), 0).astype(t))
    check(ivy.bitwise_right_shift(x2, y2), np.where(ok, np.right_shift(vals, safe), np.where(vals < 0, -1, 0)).astype(t))
    check(~x, ~a)


def test_logical(backend):
    a = np.array([True, False, True, False])
    b = np.array([True, True, False, False])
    x, y = ivy.asarray(a), ivy.asarray(b)
    assert x.dtype == ivy.bool
    check(ivy.logical_and(x, y), a & b)
    check(ivy.logical_or(x, y), a | b)
    check(ivy.logical_xor(x, y), a ^ b)
    check(ivy.logical_not(x), ~a)
    check(x & y, a & b)
    check(x | True, a | True)


def test_clip(backend):
    a = sample(-5, 5, dtype=np.float32)
    x = ivy.asarray(a)
    check(ivy.clip(x, -1.0, 2.0), np.clip(a, -1, 2))
    check(ivy.clip(x, min=0), np.clip(a, 0, None))
    check(ivy.clip(x, max=1.5), np.clip(a, None, 1.5))
    check(ivy.clip(x), a)
    lo = ivy.asarray(np.full((4,), -0.5, dtype=np.float32))
    check(ivy.clip(x, lo, 3.0), np.clip(a, -0.5, 3.0))
    i = ivy.asarray(np.arange(-5, 5, dtype=np.int16))
    check(ivy.clip(i, -2, 3), np.clip(np.arange(-5, 5, dtype=np.int16), -2, 3))


# ------------------------------------------------------------------ Python scalars
@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "int64", "uint8"])
def test_python_scalars_keep_array_dtype(backend, dtype):
    t = np_dtype(dtype)
    a = np.array([1, 2, 3, 4], dtype=t)
    x = ivy.asarray(a)
    check(ivy.add(x, 2), a + t.type(2))
    check(ivy.multiply(3, x), t.type(3) * a)
    check(x + 1, a + t.type(1))
    check(5 - x if t.kind != "u" else 10 - x, (t.type(5) - a) if t.kind != "u" else (t.type(10) - a))
    check(x * 2, a * t.type(2))
    check(x == 2, a == 2)
    check(x < 3, a < 3)
    check(ivy.maximum(x, 2), np.maximum(a, t.type(2)))
    if t.kind == "f":
        check(x / 2.0, a / t.type(2.0))
        check(2.0 / x, t.type(2.0) / a)
        check(x ** 2, a ** t.type(2), rtol=1e-6)
        check(2.0 ** x, t.type(2.0) ** a, rtol=1e-6)
        check(x + 0.5, a + t.type(0.5))


def test_python_scalar_kinds(backend):
    i = ivy.asarray([1, 2, 3], dtype=ivy.int32)
    assert (i + 1.5).dtype == ivy.default_float_dtype()  # int array, float scalar -> default float
    check(i + 1.5, np.array([2.5, 3.5, 4.5], dtype=np.float32))
    f = ivy.asarray([1.0, 2.0], dtype=ivy.float64)
    z = f + 1j
    assert z.dtype == ivy.complex128
    check(z, np.array([1 + 1j, 2 + 1j]))
    b = ivy.asarray([True, False])
    check(b & True, np.array([True, False]))


def test_where(backend):
    c = np.array([[True, False, True], [False, False, True]])
    a = sample(-1, 1, shape=(2, 3))
    b = sample(-1, 1, shape=(3,))
    check(ivy.where(ivy.asarray(c), ivy.asarray(a), ivy.asarray(b)), np.where(c, a, b))
    check(ivy.where(ivy.asarray(c), ivy.asarray(a), 0.0), np.where(c, a, 0.0))
    check(ivy.where(ivy.asarray(c), 1.0, ivy.asarray(a)), np.where(c, 1.0, a))


@pytest.mark.parametrize("dtype", ["bool", "int8", "int16", "int32", "int64", "uint8", "float32", "float64", "complex64",
                                   "complex128"])
def test_where_layouts(backend, dtype):
    """where with a condition and operands of one shape (ivy's select loop: every element of
    both operands read, then blended) on every dtype and lengths 0..70 and long, random and
    uniform conditions, payloads kept bit for bit (NaN, -0, extremes); strided, 2-d and
    broadcast inputs take the general path and must agree."""
    skip_unless_supported(backend, getattr(ivy, dtype))
    t = np.dtype(dtype)
    rng = np.random.default_rng(t.itemsize * 7 + 1)

    def values(n):
        if t.kind == "b":
            return rng.integers(0, 2, n).astype(t)
        if t.kind in "iu":
            info = np.iinfo(t)
            return rng.integers(info.min, info.max, n, dtype=t, endpoint=True)
        v = rng.normal(size=n).astype(t)
        if t.kind == "c":
            v = (v + 1j * rng.normal(size=n)).astype(t)
        special = np.array([np.nan, -0.0, np.inf, -np.inf], t)
        v[: min(n, 4)] = special[: min(n, 4)]
        return v

    def same_bits(got, want):
        got = to_np(got)
        assert got.dtype == want.dtype and got.shape == want.shape
        assert got.tobytes() == want.tobytes(), (got, want)

    for n in list(range(0, 71)) + [1000, 4099]:
        a, b = values(n), values(n)
        for c in (rng.uniform(size=n) < 0.5, np.ones(n, bool), np.zeros(n, bool)):
            same_bits(ivy.where(ivy.asarray(c), ivy.asarray(a), ivy.asarray(b)), np.where(c, a, b))
    a, b = values(300), values(300)
    c = rng.uniform(size=300) < 0.5
    same_bits(ivy.where(ivy.asarray(c)[::3], ivy.asarray(a)[1::3], ivy.asarray(b)[2::3]), np.where(c[::3], a[1::3], b[2::3]))
    m = rng.uniform(size=(12, 25)) < 0.5
    a2, b2 = values(300).reshape(12, 25), values(25)
    same_bits(ivy.where(ivy.asarray(m), ivy.asarray(a2), ivy.asarray(b2)), np.where(m, a2, b2))
    same_bits(ivy.where(ivy.asarray(m), ivy.permute_dims(ivy.asarray(a2.T.copy()), (1, 0)), ivy.asarray(a2)),
              np.where(m, a2, a2))


# ------------------------------------------------------------------ operators
OPS = [
    (operator.add, "+"), (operator.sub, "-"), (operator.mul, "*"), (operator.truediv, "/"),
    (operator.floordiv, "//"), (operator.mod, "%"), (operator.pow, "**"), (operator.lt, "<"), (operator.le, "<="),
    (operator.gt, ">"), (operator.ge, ">="), (operator.eq, "=="), (operator.ne, "!="),
]


@pytest.mark.parametrize("op,sym", OPS, ids=[o[1] for o in OPS])
def test_operators_array_array(backend, op, sym):
    a = sample(0.5, 3)
    b = sample(0.5, 3)
    check(op(ivy.asarray(a), ivy.asarray(b)), op(a, b), rtol=1e-12)


@pytest.mark.parametrize("op,sym", OPS, ids=[o[1] for o in OPS])
def test_operators_reflected_scalar(backend, op, sym):
    a = sample(0.5, 3)
    check(op(1.5, ivy.asarray(a)), op(1.5, a), rtol=1e-12)
    check(op(ivy.asarray(a), 1.5), op(a, 1.5), rtol=1e-12)


def test_unary_operators(backend):
    a = sample(-3, 3)
    x = ivy.asarray(a)
    check(-x, -a)
    check(+x, a)
    check(abs(x), np.abs(a))
    m = sample(-1, 1, shape=(4, 2))
    check(x @ ivy.asarray(m), a @ m, rtol=1e-12)


IN_PLACE = [
    ("+=", operator.iadd), ("-=", operator.isub), ("*=", operator.imul), ("/=", operator.itruediv),
    ("//=", operator.ifloordiv), ("%=", operator.imod), ("**=", operator.ipow),
]


@pytest.mark.parametrize("sym,op", IN_PLACE, ids=[o[0] for o in IN_PLACE])
def test_in_place_operators(backend, sym, op):
    a = sample(0.5, 3, dtype=np.float32)
    b = sample(0.5, 3, shape=(4,), dtype=np.float32)
    x = ivy.asarray(a)
    alias = x
    x_id = id(x)
    x = op(x, ivy.asarray(b))
    assert id(x) == x_id and alias is x  # updated in place: every reference sees it
    check(x, op(a.copy(), b), rtol=1e-6)
    y = ivy.asarray(a)
    y = op(y, 2)
    check(y, op(a.copy(), np.float32(2)), rtol=1e-6)


def test_in_place_rules(backend):
    x = ivy.asarray([1, 2, 3], dtype=ivy.int32)
    x += 1
    check(x, np.array([2, 3, 4], dtype=np.int32))
    x <<= 1
    check(x, np.array([4, 6, 8], dtype=np.int32))
    with pytest.raises(TypeError):
        x += ivy.asarray([0.5, 0.5, 0.5])  # float result cannot go into an int array
    with pytest.raises(ValueError):
        x += ivy.ones((2, 3), dtype=ivy.int32)  # would change the shape
    f = ivy.ones(3, dtype=ivy.float32)
    with pytest.raises(TypeError):
        f += 1j
    m = ivy.eye(2)
    m @= ivy.asarray([[1.0, 2.0], [3.0, 4.0]])
    check(m, np.array([[1.0, 2.0], [3.0, 4.0]], dtype=np.float32))


def test_scalar_conversions(backend):
    assert bool(ivy.asarray(True)) is True
    assert bool(ivy.asarray(0.0)) is False
    assert int(ivy.asarray(7)) == 7 and isinstance(int(ivy.asarray(7)), int)
    assert int(ivy.asarray(-2.7)) == -2
    assert float(ivy.asarray(2.5)) == 2.5
    assert complex(ivy.asarray(1 + 2j)) == 1 + 2j
    assert [10, 20, 30][ivy.asarray(1)] == 20  # __index__
    with pytest.raises(TypeError):
        [1, 2][ivy.asarray(1.0)]
    with pytest.raises(ValueError):
        bool(ivy.ones(3))
    assert ivy.asarray(3.5).item() == 3.5
    assert ivy.asarray([[1, 2], [3, 4]]).tolist() == [[1, 2], [3, 4]]


def test_mixed_dtype_promotion(backend):
    a = ivy.asarray([1, 2], dtype=ivy.int8)
    b = ivy.asarray([1, 2], dtype=ivy.uint8)
    assert (a + b).dtype == ivy.int16
    c = ivy.asarray([1.0, 2.0], dtype=ivy.float32)
    assert (c + ivy.asarray([1.0, 2.0], dtype=ivy.float64)).dtype == ivy.float64
    assert (a + c).dtype == ivy.float32  # ivy's cross-kind choice: int + float -> the float type
    assert (c + ivy.asarray([1j, 2j], dtype=ivy.complex64)).dtype == ivy.complex64


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name,fn", [("maximum", np.maximum), ("minimum", np.minimum)])
def test_maximum_minimum_propagate_nan(backend, dtype, name, fn):
    """A NaN in either operand gives NaN (the plain comparison alone keeps only a NaN first
    operand); long arrays too, where a single NaN among many values must still count."""
    t = np_dtype(dtype)
    a = np.array([1.0, np.nan, 3.0, np.nan, -0.0, 2.0], dtype=t)
    b = np.array([np.nan, 2.0, 1.0, np.nan, 0.0, -2.0], dtype=t)
    for u, v in ((a, b), (b, a)):
        got = to_np(getattr(ivy, name)(ivy.asarray(u), ivy.asarray(v)))
        np.testing.assert_array_equal(got, fn(u, v))
    long_a = np.linspace(-3, 3, 4099).astype(t)
    long_b = long_a[::-1].copy()
    long_b[4000] = np.nan
    got = to_np(getattr(ivy, name)(ivy.asarray(long_a), ivy.asarray(long_b)))
    np.testing.assert_array_equal(got, fn(long_a, long_b))
    assert np.isnan(got[4000]) and np.isnan(got).sum() == 1
    for one in (np.array([np.nan], dtype=t), np.array([0.5], dtype=t)):  # a one-element operand
        for u, v in ((long_b, one), (one, long_b)):
            np.testing.assert_array_equal(to_np(getattr(ivy, name)(ivy.asarray(u), ivy.asarray(v))), fn(u, v))


def _floordiv_operands(dtype):
    """Operands where a fast floor(a / b) check can go wrong: quotients within a few ulps of
    an integer (a = k * b nudged), |a| far below or above |b|, quotients near 2^23 / 2^52,
    subnormals, signed zeros, infinities and NaN; plus ordinary values."""
    t = np.dtype(dtype)
    rng = np.random.default_rng(2026)
    n = 3000
    b = (rng.standard_normal(n) * 10.0 ** rng.integers(-8, 9, n)).astype(t)
    plain = (rng.standard_normal(n) * 10.0 ** rng.integers(-8, 9, n)).astype(t)
    k = rng.integers(-3000, 3000, n).astype(t)
    near = (k * b).astype(t)
    steps = rng.integers(-2, 3, n)
    for s in (1, 2):
        near = np.where(steps >= s, np.nextafter(near, t.type(np.inf)), near)
        near = np.where(steps <= -s, np.nextafter(near, t.type(-np.inf)), near)
    big = (b * t.type(2.0 ** (np.finfo(t).nmant - 1)) * rng.uniform(0.5, 2.5, n).astype(t)).astype(t)
    tiny = (b * t.type(2.0 ** -30) * rng.uniform(-1, 1, n).astype(t)).astype(t)
    sub = np.finfo(t).smallest_subnormal
    special = np.array([0.0, -0.0, 1.0, -1.0, 7.0, -7.0, 0.5, -0.5, np.inf, -np.inf, np.nan, sub, -sub,
                        np.finfo(t).max, -np.finfo(t).max, np.finfo(t).tiny, 3.0, -3.0], dtype=t)
    sa, sb = [m.ravel() for m in np.meshgrid(special, special)]
    return [(plain, b), (near, b), (big, b), (tiny, b), (sa, sb)]


def _floor_divide_standard(x, y):
    """NumPy's floor_divide with the standard's values where the two differ: an infinity over
    a nonzero finite number is an infinity, a nonzero finite number over an infinity a zero,
    each signed as the quotient."""
    with np.errstate(all="ignore"):
        r = np.asarray(np.floor_divide(x, y))
        neg = np.signbit(x) != np.signbit(y)
        inf_num = np.isinf(x) & np.isfinite(y) & (y != 0)
        inf_den = np.isinf(y) & np.isfinite(x) & (x != 0)
        r = np.where(inf_num, np.where(neg, -np.inf, np.inf), r)
        r = np.where(inf_den, np.where(neg, -0.0, 0.0), r)
    return r.astype(np.result_type(x, y))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name,fn", [("floor_divide", _floor_divide_standard), ("remainder", np.remainder)])
def test_floor_divide_remainder_exact(backend, dtype, name, fn):
    """Contiguous operands (the kernels' fast paths: both full, or one a single element)
    against NumPy bit for bit, sign of zero included; NaN where NumPy gives NaN. Each group
    of operands separately (a NaN result sends a whole torch result to the exact path)."""
    f = getattr(ivy, name)

    def same(got, exp):
        nan = np.isnan(exp)
        np.testing.assert_array_equal(np.isnan(got), nan)
        np.testing.assert_array_equal(got[~nan], exp[~nan])
        np.testing.assert_array_equal(np.signbit(got[~nan]), np.signbit(exp[~nan]))

    for a, b in _floordiv_operands(dtype):
        with np.errstate(all="ignore"):
            same(to_np(f(ivy.asarray(a), ivy.asarray(b))), fn(a, b))
            for s in (b[7], np.float64(3.0).astype(a.dtype), np.float64(-0.25).astype(a.dtype)):
                one = np.array([s], dtype=a.dtype)
                same(to_np(f(ivy.asarray(a), ivy.asarray(one))), fn(a, one))
                same(to_np(f(ivy.asarray(one), ivy.asarray(a))), fn(one, a))
            m = 18  # broadcasting (rows against one row of divisors): xtensor's expression path
            a2, b2 = a[: len(a) // m * m].reshape(-1, m), b[:m]
            same(to_np(f(ivy.asarray(a2), ivy.asarray(b2))), fn(a2, b2))


def _layouts(a, b):
    """The same operands in the layouts the kernels treat differently: both full, one a
    single element of fewer or more dimensions (the result takes the other's or both),
    broadcasting rows, non-contiguous views, and zero-size arrays."""
    yield a, b
    for one in (b[3:4], b[3:4].reshape(1, 1), b[3:4].reshape(())):
        yield a, one
        yield one, a
    m = 7
    yield a[: len(a) // m * m].reshape(-1, m), b[:m]
    yield a[::2], b[::-2][::-1]
    yield a[:0], b[:0]
    yield a[:0].reshape(0, 3), b[3:4]


@pytest.mark.parametrize("dtype", ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"])
def test_shift_layouts(backend, dtype):
    """Shifts against NumPy's definition for counts in and out of range, in every layout,
    at lengths that leave a vector loop a tail."""
    skip_unless_supported(backend, getattr(ivy, dtype))
    t = np.dtype(dtype)
    bits = t.itemsize * 8
    rng = np.random.default_rng(bits)
    info = np.iinfo(t)
    for n, wild in ((37, False), (1003, False), (1003, True)):
        a = rng.integers(info.min, info.max, n, dtype=t, endpoint=True)
        hi = 2 * bits if wild else bits  # wild: a quarter of the counts out of range
        c = rng.integers(-3 if info.min < 0 else 0, hi, n).astype(t) if wild else rng.integers(0, bits, n).astype(t)
        if wild:  # the extremes of the count's type, and a count far past the width
            c[:3] = [info.min, info.max, min(2**40, int(info.max))]
        for x, y in _layouts(a, c):
            cnt = y.astype(np.int64)
            ok = (cnt >= 0) & (cnt < bits)
            safe = np.where(ok, cnt, 0).astype(t)
            xb, sb = np.broadcast_arrays(x, safe)
            okb = np.broadcast_to(ok, xb.shape)
            fill_r = np.where(xb < 0, t.type(-1), t.type(0)) if info.min < 0 else np.zeros_like(xb)
            want_l = np.where(okb, np.left_shift(xb, sb), t.type(0))  # (all of dtype t: no float64)
            want_r = np.where(okb, np.right_shift(xb, sb), fill_r)
            check(ivy.bitwise_left_shift(ivy.asarray(x), ivy.asarray(y)), want_l)
            check(ivy.bitwise_right_shift(ivy.asarray(x), ivy.asarray(y)), want_r)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name,fn", [("floor_divide", _floor_divide_standard), ("remainder", np.remainder)])
def test_floor_divide_remainder_layouts(backend, dtype, name, fn):
    """floor_divide/remainder in every layout (values with overflowing quotients, zeros,
    infinities and NaN among ordinary ones), bit for bit against NumPy."""
    t = np.dtype(dtype)
    rng = np.random.default_rng(7)
    a = (rng.standard_normal(1003) * 100).astype(t)
    b = (rng.standard_normal(1003) * 3).astype(t)
    a[:6] = [np.finfo(t).max, -np.finfo(t).max, 0.0, -0.0, np.inf, np.nan]
    b[:6] = [0.5, 0.25, -3.0, 2.0, 1.0, 4.0]
    b[10] = 0.0
    f = getattr(ivy, name)
    for x, y in _layouts(a, b):
        with np.errstate(all="ignore"):
            want = fn(x, y)
        got = to_np(f(ivy.asarray(x), ivy.asarray(y)))
        assert got.shape == want.shape and got.dtype == want.dtype
        nan = np.isnan(want)
        np.testing.assert_array_equal(np.isnan(got), nan)
        np.testing.assert_array_equal(got[~nan], want[~nan])
        np.testing.assert_array_equal(np.signbit(got[~nan]), np.signbit(want[~nan]))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_copysign_layouts(backend, dtype):
    """copysign in every layout, bit for bit against NumPy: signed zeros, infinities and NaNs
    of either sign on both sides (a NaN's sign bit is read and written as any other)."""
    t = np.dtype(dtype)
    ut = np.dtype("u%d" % t.itemsize)
    rng = np.random.default_rng(11)
    a = (rng.standard_normal(1003) * 100).astype(t)
    b = rng.standard_normal(1003).astype(t)
    nan = np.array(np.nan, t)
    neg_nan = -nan
    a[:8] = [0.0, -0.0, np.inf, -np.inf, nan, neg_nan, np.finfo(t).tiny / 4, 1.0]
    b[:8] = [-0.0, 0.0, neg_nan, nan, -1.0, 2.0, -np.inf, neg_nan]
    for x, y in _layouts(a, b):
        want = np.copysign(x, y)
        got = to_np(ivy.copysign(ivy.asarray(x), ivy.asarray(y)))
        assert got.shape == want.shape and got.dtype == want.dtype
        np.testing.assert_array_equal(np.ascontiguousarray(got).view(ut), np.ascontiguousarray(want).view(ut))


BOOL_BINARY = [("equal", np.equal), ("not_equal", np.not_equal), ("less", np.less), ("less_equal", np.less_equal),
               ("greater", np.greater), ("greater_equal", np.greater_equal), ("logical_and", np.logical_and),
               ("logical_or", np.logical_or), ("logical_xor", np.logical_xor)]
BOOL_UNARY = [("isnan", np.isnan), ("isinf", np.isinf), ("isfinite", np.isfinite), ("signbit", np.signbit),
              ("logical_not", np.logical_not)]


@pytest.mark.parametrize("dtype", ["bool", "int8", "int16", "int32", "int64", "uint8", "float32", "float64"])
def test_bool_results_layouts(backend, dtype):
    """Comparisons, logical functions and the is*/signbit predicates against NumPy in every
    layout and at lengths around the vector widths (both backends run loops of ivy's own for
    contiguous operands): NaN, signed zeros, infinities, integer extremes, equal pairs."""
    t = np.dtype(dtype)
    rng = np.random.default_rng(t.itemsize * 7 + len(dtype))
    n = 1003
    if t.kind == "b":
        a, b = rng.integers(0, 2, n).astype(t), rng.integers(0, 2, n).astype(t)
    elif t.kind in "iu":
        info = np.iinfo(t)
        a = rng.integers(info.min, info.max, n, dtype=t, endpoint=True)
        b = a.copy()
        b[::3] = rng.integers(info.min, info.max, len(b[::3]), dtype=t, endpoint=True)
        a[:5] = [0, info.min, info.max, 1, 0]
        b[:5] = [0, info.max, info.max, 0, 1]
    else:
        a = (rng.standard_normal(n) * 10).astype(t)
        b = a.copy()
        b[::3] = (rng.standard_normal(len(b[::3])) * 10).astype(t)
        a[:10] = [0.0, -0.0, np.nan, -np.nan, np.inf, -np.inf, np.nan, 1.0, np.finfo(t).tiny / 4, -np.finfo(t).max]
        b[:10] = [-0.0, 0.0, np.nan, 1.0, np.inf, np.inf, 0.0, np.nan, 0.0, -np.finfo(t).max]
    for name, fn in BOOL_BINARY:
        if t.kind == "b" and name.startswith(("less", "greater")):  # not defined for bool: an error
            with pytest.raises(TypeError, match=rf"\[{name}\] got dtype bool"):
                getattr(ivy, name)(ivy.asarray(a), ivy.asarray(b))
            continue
        for x, y in _layouts(a, b):
            want = fn(x, y)
            got = to_np(getattr(ivy, name)(ivy.asarray(x), ivy.asarray(y)))
            assert got.dtype == np.bool_ and got.shape == want.shape, name
            np.testing.assert_array_equal(got, want, err_msg=name)
        for k in range(0, 40):  # every tail length
            np.testing.assert_array_equal(to_np(getattr(ivy, name)(ivy.asarray(a[:k]), ivy.asarray(b[:k]))),
                                          fn(a[:k], b[:k]), err_msg=f"{name} n={k}")
    for name, fn in BOOL_UNARY:
        if (name == "signbit" and t.kind != "f") or (t.kind == "b" and name != "logical_not"):
            continue  # (the standard defines signbit for real floating-point dtypes, is* for numbers)
        for x in (a, a[::3], a[:0], a[:40].reshape(5, 8)):
            got = to_np(getattr(ivy, name)(ivy.asarray(x)))
            assert got.dtype == np.bool_ and got.shape == x.shape, name
            np.testing.assert_array_equal(got, fn(x), err_msg=name)
        for k in range(0, 40):
            np.testing.assert_array_equal(to_np(getattr(ivy, name)(ivy.asarray(a[:k]))), fn(a[:k]), err_msg=f"{name} n={k}")


@pytest.mark.parametrize("dtype", ["int8", "int16", "int32", "int64", "uint8", "float32", "float64"])
def test_sign_layouts(backend, dtype):
    """sign as NumPy's (-1, 0, 1; zeros of either sign give +0, NaN stays NaN; integer
    extremes) at every tail length, strided and 2-d."""
    skip_unless_supported(backend, getattr(ivy, dtype))
    t = np.dtype(dtype)
    rng = np.random.default_rng(8)
    if t.kind == "f":
        x = (rng.standard_normal(300) * 5).astype(t)
        x[:7] = [0.0, -0.0, np.nan, -np.inf, np.inf, np.finfo(t).tiny / 8, -np.finfo(t).tiny / 8]
    else:
        info = np.iinfo(t)
        x = rng.integers(info.min, info.max, 300, dtype=t, endpoint=True)
        x[:3] = [0, info.min, info.max]
    for v in [x[:k] for k in range(0, 40)] + [x, x[::3], x[:40].reshape(5, 8)]:
        got = to_np(ivy.sign(ivy.asarray(v)))
        want = np.sign(v)
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(got, want)
        if t.kind == "f":
            np.testing.assert_array_equal(np.signbit(got), np.signbit(want))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_log1p_extremes(backend, dtype):
    """log1p near the top of the range and of subnormals (LibTorch's vectorized log1p gives
    inf above ~1e38 and 0 for the smallest float32 subnormals), next to the special values;
    repeated so that vectorized loops see every value."""
    t = np.dtype(dtype)
    fi = np.finfo(t)
    x = np.array([fi.max, fi.max / 3, 1e30, fi.smallest_subnormal, -fi.smallest_subnormal, fi.tiny / 1e3, 0.0, -0.0,
                  -1.0, -2.0, np.inf, -np.inf, np.nan, 0.5, -0.5, 3.0], dtype=t)
    x = np.tile(x, 5)
    with np.errstate(all="ignore"):
        want = np.log1p(x)
    got = to_np(ivy.log1p(ivy.asarray(x)))
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    np.testing.assert_array_equal(np.isinf(got), np.isinf(want))
    fin = np.isfinite(want)
    np.testing.assert_array_equal(np.signbit(got[fin]), np.signbit(want[fin]))
    np.testing.assert_allclose(got[fin], want[fin], rtol=4 * fi.eps, atol=0)
    np.testing.assert_array_equal(got[np.isinf(want)], want[np.isinf(want)])


def _cpu_levels():
    """The ISA levels ivy's own loops run at here (src/cpu_isa.hpp): AVX2, AVX-512."""
    try:
        with open("/proc/cpuinfo") as f:
            flags = set(next((ln for ln in f if ln.startswith("flags")), "").split())
    except OSError:
        flags = set()
    cap = os.environ.get("IVY_CPU_CAPABILITY")
    avx2 = {"avx2", "fma"} <= flags and cap != "default"
    avx512 = avx2 and {"avx512f", "avx512dq", "avx512vl", "avx512bw"} <= flags and cap != "avx2"
    return avx2, avx512


_AVX2, _AVX512 = _cpu_levels()
# the torch backend's float32 functions that run through ivy's float64-computed loop on
# plain CPU tensors (backends/torch/ns_ops.inc, vm_unary): correctly rounded there
TORCH_VM = ({"sinh", "cosh", "asinh", "acosh", "atanh"} if _AVX2 else set()) | \
    ({"tan", "tanh", "expm1", "pow"} if _AVX512 else set())


def ulp_bound(backend, name):
    """ulps allowed against the float64 function: 0.501 where ivy's loop computes it in
    float64 (correctly rounded but within ~1e-13 of a rounding boundary), 0.95 for ivy's
    float32 exp (computed in float32, within 0.94 ulp: tests/vec_math), else 2 (LibTorch's
    kernels: asinh/atanh up to 1.33 ulp, tan/tanh/expm1/pow up to 1)."""
    if backend == "xtensor" and name == "exp":
        return 0.95
    return 0.501 if backend == "xtensor" or name in TORCH_VM else 2


F64_COMPUTED = [("sin", np.sin, (-100, 100)), ("cos", np.cos, (-100, 100)), ("exp", np.exp, (-110, 95)),
                ("expm1", np.expm1, (-20, 95)), ("log", np.log, (0, 1e30)), ("log2", np.log2, (0, 1e30)),
                ("log10", np.log10, (0, 1e30)), ("sinh", np.sinh, (-95, 95)), ("cosh", np.cosh, (-95, 95)),
                ("tanh", np.tanh, (-20, 20)), ("atan", np.arctan, (-1e6, 1e6)), ("asinh", np.arcsinh, (-1e30, 1e30)),
                ("acosh", np.arccosh, (1, 1e30)), ("atanh", np.arctanh, (-1, 1)), ("asin", np.arcsin, (-1, 1)),
                ("acos", np.arccos, (-1, 1))]


@pytest.mark.parametrize("name,fn,dom", F64_COMPUTED, ids=[f[0] for f in F64_COMPUTED])
def test_float32_transcendentals_within_one_ulp(backend, name, fn, dom):
    """float32 results within ulp_bound of the float64 function (ivy's loop, computed in
    float64 and rounded once: the xtensor backend, and torch's TORCH_VM), on values
    spread over the domain and its small magnitudes, at every tail length; the special
    values (zeros with their signs, infinities, NaN, outside the domain) as NumPy's."""
    rng = np.random.default_rng(17)
    lo, hi = dom
    x = np.concatenate([rng.uniform(lo, hi, 2000), rng.uniform(max(lo, -1), min(hi, 1), 2000),
                        np.exp2(rng.uniform(-140, 0, 500)) * (1 if lo >= 0 else rng.choice([-1, 1], 500))])
    x = x.astype(np.float32)
    x = x[(x >= lo) & (x <= hi)]
    with np.errstate(all="ignore"):
        exact = fn(x.astype(np.float64))
        near = exact.astype(np.float32)
    fin = np.isfinite(near)
    with np.errstate(all="ignore"):
        ulp = np.spacing(np.abs(near)).astype(np.float64) * ulp_bound(backend, name)
    for n in list(range(0, 12)) + [x.size]:
        got = to_np(getattr(ivy, name)(ivy.asarray(x[:n])))
        assert got.dtype == np.float32 and got.shape == (n,)
        f = fin[:n]
        assert np.all(np.abs(got[f].astype(np.float64) - exact[:n][f]) <= ulp[:n][f]), n
        np.testing.assert_array_equal(got[~f], near[:n][~f])
    sp = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, -2.0, 2.0], np.float32)
    with np.errstate(all="ignore"):
        want = fn(sp)
    got = to_np(getattr(ivy, name)(ivy.asarray(sp)))
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    ok = ~np.isnan(want)
    np.testing.assert_allclose(got[ok], want[ok], rtol=2 * np.finfo(np.float32).eps)
    np.testing.assert_array_equal(np.signbit(got[ok]), np.signbit(want[ok]))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name,fn", [("sinh", np.sinh), ("cosh", np.cosh)])
def test_sinh_cosh_top_of_range(backend, dtype, name, fn):
    """sinh/cosh finite up to the top of the range (LibTorch's vectorized kernels overflowed
    for float32 x in (88.72, 89.42] and float64 (709.78, 710.48]), inf beyond; contiguous and
    strided inputs (the two paths of the torch kernels)."""
    t = np.dtype(dtype)
    top = [88.73, 88.9, 89.2, 89.41, 89.5, 1e30] if t == np.float32 else [709.8, 710.0, 710.3, 710.47, 710.5, 1e300]
    x = np.array(top + [-v for v in top] + [0.0, -0.0, 1.0, -3.0, 50.0], dtype=t)
    x = np.tile(x, 5)
    with np.errstate(all="ignore"):
        want = fn(x)
    for xi, wi in [(ivy.asarray(x), want), (ivy.asarray(np.repeat(x, 2))[::2], want)]:
        got = to_np(getattr(ivy, name)(xi))
        np.testing.assert_array_equal(np.isinf(got), np.isinf(wi))
        fin = np.isfinite(wi)
        np.testing.assert_allclose(got[fin], wi[fin], rtol=4 * np.finfo(t).eps, atol=0)
        np.testing.assert_array_equal(np.signbit(got), np.signbit(wi))


def test_tan_float32_within_one_ulp(backend):
    """float32 tan (the xtensor backend's vectorized loop, computed in float64) within one ulp
    of float64's tan, near multiples of pi/2, beyond 2^17 (libm there), at every tail length;
    signed zeros kept, inf and NaN give NaN."""
    rng = np.random.default_rng(3)
    k = np.arange(-60, 61)
    x = np.concatenate([rng.uniform(-10, 10, 3000), np.exp2(rng.uniform(-149, 40, 3000)) * rng.choice([-1, 1], 3000),
                        k * (np.pi / 2), [float.fromhex("0x1.9a48dep+16"), float.fromhex("0x1.f9cbe2p+7")]]).astype(np.float32)
    exact = np.tan(x.astype(np.float64))
    ulp = np.spacing(np.abs(exact.astype(np.float32))).astype(np.float64)  # (LibTorch's tan: within 1 too)
    for n in list(range(0, 18)) + [x.size]:
        got = to_np(ivy.tan(ivy.asarray(x[:n])))
        assert got.dtype == np.float32 and got.shape == (n,)
        assert np.all(np.abs(got.astype(np.float64) - exact[:n]) <= ulp[:n]), n
    sp = np.array([0.0, -0.0, np.inf, -np.inf, np.nan], np.float32)
    got = to_np(ivy.tan(ivy.asarray(sp)))
    np.testing.assert_array_equal(np.signbit(got[:2]), [False, True])
    assert got[0] == 0 and np.all(np.isnan(got[2:]))


def test_pow_float32_within_one_ulp(backend):
    """float32 pow within ulp_bound of float64's pow (ivy's loop: xtensor; torch with
    AVX-512), for positive bases over many binades and exponents of both signs:
    both operands full, one of them 0-d (either side), at every tail length, and a
    broadcast pair (LibTorch's kernel on torch); zeros, negative bases, infinities and NaN as NumPy's."""
    rng = np.random.default_rng(29)
    a = np.concatenate([np.exp2(rng.uniform(-60, 60, 3000)), rng.uniform(0.5, 1.5, 1000),
                        1 + rng.uniform(-1e-6, 1e-6, 500)]).astype(np.float32)
    b = np.concatenate([rng.uniform(-2, 2, 3000), rng.uniform(-60, 60, 1000),
                        rng.uniform(-1e6, 1e6, 500)]).astype(np.float32)
    bound = ulp_bound(backend, "pow")

    def close(got, x, y, bound=bound):
        with np.errstate(all="ignore"):
            exact = np.power(x.astype(np.float64), y.astype(np.float64))
            near = exact.astype(np.float32)
        fin = np.isfinite(near) & (near != 0)
        assert got.dtype == np.float32
        ulp = np.spacing(np.abs(near[fin])).astype(np.float64) * bound
        assert np.all(np.abs(got[fin].astype(np.float64) - exact[fin]) <= ulp)
        np.testing.assert_array_equal(got[~fin], near[~fin])

    for n in list(range(0, 18)) + [a.size]:
        close(to_np(ivy.pow(ivy.asarray(a[:n]), ivy.asarray(b[:n]))), a[:n], b[:n])
    y0, x0 = np.float32(-1.5), np.float32(1.75)
    close(to_np(ivy.pow(ivy.asarray(a), ivy.asarray(y0))), a, np.full_like(a, y0))
    close(to_np(ivy.pow(ivy.asarray(x0), ivy.asarray(b))), np.full_like(b, x0), b)
    col, row = a[:40].reshape(40, 1), b[:30].reshape(1, 30)
    got = to_np(ivy.pow(ivy.asarray(col), ivy.asarray(row)))
    assert got.shape == (40, 30)
    close(got.ravel(), np.broadcast_to(col, (40, 30)).ravel(), np.broadcast_to(row, (40, 30)).ravel(),
          ulp_bound(backend, "pow") if backend == "xtensor" else 2)  # (torch: LibTorch's kernel broadcasts)
    sx = np.array([0.0, -0.0, -2.0, -8.0, 1.0, -1.0, np.inf, -np.inf, np.nan, 2.0], np.float32)
    sy = np.array([0.0, -0.0, 1.0, 2.0, 3.0, -3.0, 0.5, -0.5, np.inf, -np.inf, np.nan], np.float32)
    gx, gy = [g.ravel() for g in np.meshgrid(sx, sy)]
    with np.errstate(all="ignore"):
        want = np.power(gx, gy)
    np.testing.assert_array_equal(to_np(ivy.pow(ivy.asarray(gx), ivy.asarray(gy))), want)


@pytest.mark.parametrize("name,fn", [("atan2", np.arctan2), ("hypot", np.hypot)])
def test_atan2_hypot_float32_within_one_ulp(backend, name, fn):
    """float32 atan2 and hypot within ulp_bound of the float64 function (ivy's float64-
    computed loops: both on xtensor, hypot on torch with AVX2; LibTorch's atan2 within 2)
    over magnitudes from subnormal to max of both signs, near-equal pairs, every tail
    length, 0-d operands on either side, and a broadcast pair; zeros of both signs,
    infinities and NaN in every combination exactly as C99 gives them."""
    rng = np.random.default_rng(31)
    mags = lambda k: np.exp2(rng.uniform(-149, 127.9, k)) * rng.choice([-1.0, 1.0], k)  # noqa: E731
    a = np.concatenate([mags(3000), rng.uniform(-2, 2, 1000)]).astype(np.float32)
    b = np.concatenate([mags(3000), (a[3000:] * (1 + rng.uniform(-1e-3, 1e-3, 1000))).astype(np.float32)])
    b = b.astype(np.float32)
    bound = 0.501 if backend == "xtensor" or (name == "hypot" and _AVX2) else 2
    f = getattr(ivy, name)

    def close(got, x, y, bound=bound):
        with np.errstate(all="ignore"):
            exact = fn(x.astype(np.float64), y.astype(np.float64))
            near = exact.astype(np.float32)
        fin = np.isfinite(near) & (near != 0)
        assert got.dtype == np.float32
        ulp = np.spacing(np.abs(near[fin])).astype(np.float64) * bound
        assert np.all(np.abs(got[fin].astype(np.float64) - exact[fin]) <= ulp), name
        np.testing.assert_array_equal(got[~fin], near[~fin])

    for n in list(range(0, 18)) + [a.size]:
        close(to_np(f(ivy.asarray(a[:n]), ivy.asarray(b[:n]))), a[:n], b[:n])
    c = np.float32(-0.625)
    close(to_np(f(ivy.asarray(a), ivy.asarray(c))), a, np.full_like(a, c))
    close(to_np(f(ivy.asarray(c), ivy.asarray(b))), np.full_like(b, c), b)
    col, row = a[:40].reshape(40, 1), b[:30].reshape(1, 30)
    got = to_np(f(ivy.asarray(col), ivy.asarray(row)))
    assert got.shape == (40, 30)
    close(got.ravel(), np.broadcast_to(col, (40, 30)).ravel(), np.broadcast_to(row, (40, 30)).ravel(),
          0.501 if backend == "xtensor" else 2)  # (torch: LibTorch's kernel broadcasts)
    # every pair of special values: against float64's result rounded (NumPy's float32
    # arctan2(1, 1) is an ulp below pi/4 rounded)
    sv = np.array([0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan, 3e38, 1e-45], np.float32)
    gx, gy = [g.ravel() for g in np.meshgrid(sv, sv)]
    close(to_np(f(ivy.asarray(gx), ivy.asarray(gy))), gx, gy)


def test_log1p_float32_within_one_ulp(backend):
    """float32 log1p (ivy's vectorized loop on both backends' plain CPU arrays) within one
    ulp of float64's log1p, across the binades from subnormal to max and near -1, at
    lengths that leave every tail length, on contiguous, strided, 0-d and empty inputs."""
    rng = np.random.default_rng(7)
    mags = np.exp2(rng.uniform(-149, 127.9, 6000))
    x = np.concatenate([mags, -np.minimum(mags, 1.0) * rng.uniform(0, 1, 6000),
                        -1 + np.exp2(-np.arange(1, 25, dtype=np.float64))]).astype(np.float32)
    x = x[np.isfinite(x) & (x > -1)]
    exact = np.log1p(x.astype(np.float64))
    near = exact.astype(np.float32)
    ulp = np.spacing(np.abs(near)).astype(np.float64)
    for n in list(range(0, 18)) + [x.size]:
        got = to_np(ivy.log1p(ivy.asarray(x[:n])))
        assert got.dtype == np.float32 and got.shape == (n,)
        assert np.all(np.abs(got.astype(np.float64) - exact[:n]) <= ulp[:n]), n
    xs = ivy.asarray(x.reshape(-1, 3))[:, 1]  # a strided view
    got = to_np(ivy.log1p(xs))
    assert np.all(np.abs(got.astype(np.float64) - exact.reshape(-1, 3)[:, 1]) <= ulp.reshape(-1, 3)[:, 1])
    got0 = to_np(ivy.log1p(ivy.asarray(np.float32(0.5))))
    assert got0.shape == () and abs(float(got0) - np.log1p(0.5)) <= np.spacing(np.float32(np.log1p(0.5)))
    assert to_np(ivy.log1p(ivy.asarray(np.zeros((0, 3), np.float32)))).shape == (0, 3)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_exact_functions_layouts(backend, dtype):
    """negative, square, floor, ceil, trunc and round of float arrays (the torch backend's
    direct path computes them with ivy's loop, vectorized only in its AVX2 build; scripts/test.sh
    reruns this file at the baseline ISA): NumPy's values bit for bit, signed zeros, halves
    (round half to even), infinities, NaN, values beyond 2**23 / 2**52, every tail length,
    long, strided and 2-d inputs."""
    t = np.dtype(dtype).type
    rng = np.random.default_rng(41)
    base = (rng.normal(size=3000) * 10.0 ** rng.integers(-3, 12, size=3000)).astype(t)
    special = np.array([0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 0.0, -0.0, np.inf, -np.inf, np.nan, 1e-30, -1e-30,
                        2.0**23 + 0.5, -(2.0**23) - 0.5, 2.0**52, 3.4e38, -3.4e38, 0.49999997, -0.49999997], t)
    base[:len(special)] = special
    cases = [base[:k] for k in range(0, 41)] + [base, base[::3], base[:600].reshape(20, 30)]
    for fn, npfn in ((ivy.negative, np.negative), (ivy.square, np.square), (ivy.floor, np.floor),
                     (ivy.ceil, np.ceil), (ivy.trunc, np.trunc), (ivy.round, np.rint)):
        for x in cases:
            with np.errstate(over="ignore"):
                want = npfn(x)
            got = to_np(fn(ivy.asarray(x)))
            assert got.dtype == want.dtype and got.shape == want.shape
            np.testing.assert_array_equal(got, want)
            ok = ~np.isnan(want)
            np.testing.assert_array_equal(np.signbit(got[ok]), np.signbit(want[ok]))


# ---- the arithmetic loops (add, subtract, multiply, divide, maximum, minimum, reciprocal):
# every pair of special values, bit for bit against NumPy (NaN's payload aside), with both
# operands full, either one a single element, and a strided operand (the backends' other
# path). Long enough for the vector loops and their scalar tails.
F_SPECIAL = [0.0, -0.0, 1.0, -1.0, 3.5, -2.25, np.inf, -np.inf, np.nan, 1e30, -1e30, 1e-30, 1e-40, 7e-45, 1e300]
I_SPECIAL = {"int8": [-128, 127, -1, 0, 1, 100, -100, 64, 3],
             "int16": [-32768, 32767, -1, 0, 1, 300, -300, 256, 181],
             "int32": [-2**31, 2**31 - 1, -1, 0, 1, 70000, -70000, 65536, 46341],
             "int64": [-2**63, 2**63 - 1, -1, 0, 1, 2**40, -2**40, 2**32, 3037000500],
             "uint8": [0, 1, 255, 128, 200, 16, 3],
             "uint16": [0, 1, 65535, 32768, 40000, 256, 3],
             "uint32": [0, 1, 2**32 - 1, 2**31, 3 * 10**9, 65536, 3]}
ARITH = [("add", np.add), ("subtract", np.subtract), ("multiply", np.multiply), ("divide", np.divide),
         ("maximum", np.maximum), ("minimum", np.minimum)]


def assert_bits_equal(got, want, zero_signs=True):
    """Equal values, NaN where NaN, and the same sign on every zero (zero_signs)."""
    assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, got.shape, want.dtype, want.shape)
    np.testing.assert_array_equal(got, want)
    if want.dtype.kind == "f" and zero_signs:
        both = ~np.isnan(want)
        np.testing.assert_array_equal(np.signbit(got[both]), np.signbit(want[both]))


def arith_cases(vals, t):
    v = np.array(vals, dtype=np.float64 if t.kind == "f" else object).astype(t)
    a = np.repeat(v, len(v))  # every ordered pair
    b = np.tile(v, len(v))
    return a, b


@pytest.mark.parametrize("dtype", ["float32", "float64", *I_SPECIAL])
@pytest.mark.parametrize("name,fn", ARITH, ids=[u[0] for u in ARITH])
def test_arith_special_values_bitwise(backend, name, fn, dtype):
    skip_unless_supported(backend, getattr(ivy, dtype))
    t = np_dtype(dtype)
    if t.kind != "f" and name == "divide":
        pytest.skip("integer divide gives a float result (test_binary_int covers the promotion)")
    with np.errstate(all="ignore"):
        a, b = arith_cases(F_SPECIAL if t.kind == "f" else I_SPECIAL[dtype], t)
        f = getattr(ivy, name)
        assert_bits_equal(to_np(f(ivy.asarray(a), ivy.asarray(b))), fn(a, b))
        for k in range(0, len(a), 7):  # one-element operands, second and first
            for one in (a[k:k + 1], a[k:k + 1].reshape(())):
                assert_bits_equal(to_np(f(ivy.asarray(b), ivy.asarray(one))), fn(b, one))
                assert_bits_equal(to_np(f(ivy.asarray(one), ivy.asarray(b))), fn(one, b))
        # Contiguous views 4 to 12 bytes past a buffer's start: the loops' 128-bit variant
        # where both operands are off a 32-byte boundary (loops::each2_best).
        for off in (1, 2, 3, 4):
            pa, pb = np.concatenate([a[:off], a, a]), np.concatenate([b[:off], b, b])
            want = fn(pa[off:], pb[off:])
            assert_bits_equal(to_np(f(ivy.asarray(pa)[off:], ivy.asarray(pb)[off:])), want)
        # A strided operand and 2-D broadcasting take the backends' general path. There
        # torch's maximum/minimum are LibTorch's kernel, which picks -0 or +0 where the two
        # meet by the lane (vector or scalar tail): the standard leaves that choice to the
        # implementation, so only the values are compared there.
        signs = not (backend == "torch" and name in ("maximum", "minimum"))
        wa = np.repeat(a, 2)
        assert_bits_equal(to_np(f(ivy.asarray(wa)[::2], ivy.asarray(b))), fn(a, b), signs)
        m = len(F_SPECIAL) if t.kind == "f" else len(I_SPECIAL[dtype])
        a2, b2 = a.reshape(m, m), b[:m].reshape(1, m)
        assert_bits_equal(to_np(f(ivy.asarray(a2), ivy.asarray(b2))), fn(a2, b2), signs)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_reciprocal_special_values_bitwise(backend, dtype):
    t = np_dtype(dtype)
    with np.errstate(all="ignore"):
        x = np.array(F_SPECIAL * 3 + [5e-324, 2.0 ** -127, 3e38, -0.1], dtype=np.float64).astype(t)
        assert_bits_equal(to_np(ivy.reciprocal(ivy.asarray(x))), np.reciprocal(x))
        assert_bits_equal(to_np(ivy.reciprocal(ivy.asarray(np.repeat(x, 2))[::2])), np.reciprocal(x))


# Broadcasting shapes that split into an outer part and an inner block where each operand is
# whole or a single value (the xtensor backend's blocked loops), and shapes that do not.
BLOCKED_SHAPES = [((300, 200), (300, 1)), ((4, 1, 32), (1, 5, 32)), ((2, 3, 40), (40,)), ((2, 1, 40), (3, 40)),
                  ((7, 20), (7, 1)), ((3, 2, 17), (3, 1, 1)), ((1, 64), (5, 64)), ((2, 3, 4, 20), (3, 1, 20)),
                  ((5, 3), (5, 1)), ((2, 0, 20), (1, 20))]


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.complex128])
@pytest.mark.parametrize("op", ["add", "subtract", "multiply", "maximum"])
def test_broadcasting_blocks_equal_numpy(backend, op, dtype):
    if op == "maximum" and dtype == np.complex128:
        pytest.skip("maximum takes real operands")
    rng = np.random.default_rng(7)
    for a, b in BLOCKED_SHAPES:
        x = (rng.standard_normal(a) * 5).astype(dtype)
        y = (rng.standard_normal(b) * 5).astype(dtype)
        for p, q in ((x, y), (y, x)):
            r = to_np(getattr(ivy, op)(ivy.asarray(p), ivy.asarray(q)))
            e = getattr(np, op)(p, q)
            assert r.shape == e.shape and np.array_equal(r, e), (op, p.shape, q.shape, dtype)

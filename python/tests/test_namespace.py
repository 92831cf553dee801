"""The namespace itself: version, dtypes, constants, inspection API, exact signatures,
error translation, backend selection."""

import inspect
import math

import numpy as np
import pytest

import ivy
from conftest import BACKENDS, check

P_ONLY = inspect.Parameter.POSITIONAL_ONLY
P_OR_K = inspect.Parameter.POSITIONAL_OR_KEYWORD
K_ONLY = inspect.Parameter.KEYWORD_ONLY
VAR_P = inspect.Parameter.VAR_POSITIONAL

# (function, [(name, kind, default or inspect._empty)]) per the standard (2025.12).
E = inspect.Parameter.empty
SIGNATURES = {
    "arange": [("start", P_ONLY, E), ("stop", P_OR_K, None), ("step", P_OR_K, 1), ("dtype", K_ONLY, None),
               ("device", K_ONLY, None)],
    "asarray": [("obj", P_ONLY, E), ("dtype", K_ONLY, None), ("device", K_ONLY, None), ("copy", K_ONLY, None)],
    "empty": [("shape", P_OR_K, E), ("dtype", K_ONLY, None), ("device", K_ONLY, None)],
    "eye": [("n_rows", P_ONLY, E), ("n_cols", P_ONLY, None), ("k", K_ONLY, 0), ("dtype", K_ONLY, None),
            ("device", K_ONLY, None)],
    "from_dlpack": [("x", P_ONLY, E), ("device", K_ONLY, None), ("copy", K_ONLY, None)],
    "full": [("shape", P_OR_K, E), ("fill_value", P_OR_K, E), ("dtype", K_ONLY, None), ("device", K_ONLY, None)],
    "full_like": [("x", P_ONLY, E), ("fill_value", P_OR_K, E), ("dtype", K_ONLY, None), ("device", K_ONLY, None)],
    "linspace": [("start", P_ONLY, E), ("stop", P_ONLY, E), ("num", P_OR_K, E), ("dtype", K_ONLY, None),
                 ("device", K_ONLY, None), ("endpoint", K_ONLY, True)],
    "meshgrid": [("arrays", VAR_P, E), ("indexing", K_ONLY, "xy")],
    "tril": [("x", P_ONLY, E), ("k", K_ONLY, 0)],
    "astype": [("x", P_ONLY, E), ("dtype", P_ONLY, E), ("copy", K_ONLY, True), ("device", K_ONLY, None)],
    "can_cast": [("from_", P_ONLY, E), ("to", P_ONLY, E)],
    "finfo": [("type", P_ONLY, E)],
    "isdtype": [("dtype", P_OR_K, E), ("kind", P_OR_K, E)],
    "result_type": [("arrays_and_dtypes", VAR_P, E)],
    "add": [("x1", P_ONLY, E), ("x2", P_ONLY, E)],
    "sqrt": [("x", P_ONLY, E)],
    "clip": [("x", P_ONLY, E), ("min", P_OR_K, None), ("max", P_OR_K, None)],
    "take": [("x", P_ONLY, E), ("indices", P_ONLY, E), ("axis", K_ONLY, None)],
    "take_along_axis": [("x", P_ONLY, E), ("indices", P_ONLY, E), ("axis", K_ONLY, -1)],
    "tensordot": [("x1", P_ONLY, E), ("x2", P_ONLY, E), ("axes", K_ONLY, 2)],
    "vecdot": [("x1", P_ONLY, E), ("x2", P_ONLY, E), ("axis", K_ONLY, -1)],
    "broadcast_to": [("x", P_ONLY, E), ("shape", P_OR_K, E)],
    "concat": [("arrays", P_ONLY, E), ("axis", K_ONLY, 0)],
    "expand_dims": [("x", P_ONLY, E), ("axis", P_OR_K, E)],
    "moveaxis": [("x", P_ONLY, E), ("source", P_ONLY, E), ("destination", P_ONLY, E)],
    "permute_dims": [("x", P_ONLY, E), ("axes", P_OR_K, E)],
    "repeat": [("x", P_ONLY, E), ("repeats", P_ONLY, E), ("axis", K_ONLY, None)],
    "reshape": [("x", P_ONLY, E), ("shape", P_OR_K, E), ("copy", K_ONLY, None)],
    "roll": [("x", P_ONLY, E), ("shift", P_OR_K, E), ("axis", K_ONLY, None)],
    "squeeze": [("x", P_ONLY, E), ("axis", P_OR_K, E)],
    "tile": [("x", P_ONLY, E), ("repetitions", P_ONLY, E)],
    "argmax": [("x", P_ONLY, E), ("axis", K_ONLY, None), ("keepdims", K_ONLY, False)],
    "searchsorted": [("x1", P_ONLY, E), ("x2", P_ONLY, E), ("side", K_ONLY, "left"), ("sorter", K_ONLY, None)],
    "where": [("condition", P_ONLY, E), ("x1", P_ONLY, E), ("x2", P_ONLY, E)],
    "isin": [("x1", P_ONLY, E), ("x2", P_ONLY, E), ("invert", K_ONLY, False)],
    "sort": [("x", P_ONLY, E), ("axis", K_ONLY, -1), ("descending", K_ONLY, False), ("stable", K_ONLY, True)],
    "cumulative_sum": [("x", P_ONLY, E), ("axis", K_ONLY, None), ("dtype", K_ONLY, None),
                       ("include_initial", K_ONLY, False)],
    "std": [("x", P_ONLY, E), ("axis", K_ONLY, None), ("correction", K_ONLY, 0.0), ("keepdims", K_ONLY, False)],
    "sum": [("x", P_ONLY, E), ("axis", K_ONLY, None), ("dtype", K_ONLY, None), ("keepdims", K_ONLY, False)],
    "diff": [("x", P_ONLY, E), ("axis", K_ONLY, -1), ("n", K_ONLY, 1), ("prepend", K_ONLY, None),
             ("append", K_ONLY, None)],
    "linalg.matrix_norm": [("x", P_ONLY, E), ("keepdims", K_ONLY, False), ("ord", K_ONLY, "fro")],
    "linalg.vector_norm": [("x", P_ONLY, E), ("axis", K_ONLY, None), ("keepdims", K_ONLY, False), ("ord", K_ONLY, 2)],
    "linalg.matrix_power": [("x", P_ONLY, E), ("n", P_ONLY, E)],
    "linalg.svd": [("x", P_ONLY, E), ("full_matrices", K_ONLY, True)],
    "fft.fftn": [("x", P_ONLY, E), ("s", K_ONLY, None), ("axes", K_ONLY, None), ("norm", K_ONLY, "backward")],
    "fft.fftfreq": [("n", P_ONLY, E), ("d", K_ONLY, 1.0), ("dtype", K_ONLY, None), ("device", K_ONLY, None)],
}

MAIN = """arange asarray empty empty_like eye from_dlpack full full_like linspace meshgrid ones ones_like tril triu
zeros zeros_like astype can_cast finfo iinfo isdtype result_type abs acos acosh add asin asinh atan atan2 atanh
bitwise_and bitwise_left_shift bitwise_invert bitwise_or bitwise_right_shift bitwise_xor ceil clip conj copysign
cos cosh divide equal exp expm1 floor floor_divide greater greater_equal hypot imag isfinite isinf isnan less
less_equal log log1p log2 log10 logaddexp logical_and logical_not logical_or logical_xor maximum minimum multiply
negative nextafter not_equal positive pow real reciprocal remainder round sign signbit sin sinh square sqrt
subtract tan tanh trunc take take_along_axis matmul matrix_transpose tensordot vecdot broadcast_arrays
broadcast_shapes broadcast_to concat expand_dims flip moveaxis permute_dims repeat reshape roll squeeze stack tile
unstack argmax argmin count_nonzero nonzero searchsorted where unique_all unique_counts unique_inverse
unique_values isin argsort sort cumulative_prod cumulative_sum max mean min prod std sum var all any diff""".split()
LINALG = """cholesky cross det diagonal eig eigh eigvals eigvalsh inv matmul matrix_norm matrix_power matrix_rank
matrix_transpose outer pinv qr slogdet solve svd svdvals tensordot trace vecdot vector_norm""".split()
FFT = "fft ifft fftn ifftn rfft irfft rfftn irfftn hfft ihfft fftfreq rfftfreq fftshift ifftshift".split()


def test_version_and_constants():
    assert ivy.__array_api_version__ == "2025.12"
    assert ivy.e == math.e and ivy.pi == math.pi
    assert math.isinf(ivy.inf) and ivy.inf > 0
    assert math.isnan(ivy.nan)
    assert ivy.newaxis is None


@pytest.mark.parametrize("name", MAIN)
def test_main_namespace_has(name):
    assert callable(getattr(ivy, name))


@pytest.mark.parametrize("name", LINALG)
def test_linalg_has(name):
    assert callable(getattr(ivy.linalg, name))


@pytest.mark.parametrize("name", FFT)
def test_fft_has(name):
    assert callable(getattr(ivy.fft, name))


@pytest.mark.parametrize("name", sorted(SIGNATURES))
def test_signature(name):
    obj = ivy
    for part in name.split("."):
        obj = getattr(obj, part)
    params = list(inspect.signature(obj).parameters.values())
    expected = SIGNATURES[name]
    assert [(p.name, p.kind) for p in params] == [(n, k) for n, k, _ in expected]
    for p, (_, _, default) in zip(params, expected):
        if default is E:
            assert p.default is E, p.name
        else:
            assert p.default == default, p.name


def test_dtype_objects():
    names = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32",
             "float64", "complex64", "complex128"]
    dts = [getattr(ivy, n) for n in names]
    assert len(set(dts)) == len(dts)  # hashable and distinct
    for n, d in zip(names, dts):
        assert d == getattr(ivy, n) and str(d) == n and repr(d) == f"ivy.{n}"
        assert d != 0 and d != n
    assert ivy.float32.itemsize == 4 and ivy.complex128.itemsize == 16


def test_namespace_info():
    info = ivy.__array_namespace_info__()
    caps = info.capabilities()
    assert caps["boolean indexing"] is True and caps["data-dependent shapes"] is True
    assert caps["max dimensions"] == 32
    assert info.default_device() == ivy.Device("cpu")
    dd = info.default_dtypes()
    assert dd == {"real floating": ivy.float32, "complex floating": ivy.complex64, "integral": ivy.int64,
                  "indexing": ivy.int64}
    assert ivy.Device("cpu") in info.devices()
    with ivy.BackendScope("xtensor") if "xtensor" in BACKENDS else ivy.BackendScope(BACKENDS[0]):
        all_dt = info.dtypes()
        assert "float32" in all_dt and all_dt["float32"] == ivy.float32
        assert set(info.dtypes(kind="complex floating")) == {"complex64", "complex128"}
        assert set(info.dtypes(kind=("bool", "signed integer"))) == {"bool", "int8", "int16", "int32", "int64"}
        assert set(info.dtypes(kind=ivy.float64)) == {"float64"}
    if "torch" in BACKENDS:
        with ivy.BackendScope("torch"):
            assert "uint64" in info.dtypes()  # stored in int64 storage with the unsigned bits


def test_array_namespace(backend):
    x = ivy.asarray([1, 2, 3])
    assert x.__array_namespace__() is ivy
    assert x.__array_namespace__(api_version="2025.12") is ivy
    with pytest.raises(ValueError):
        x.__array_namespace__(api_version="1999.01")


def test_array_attributes(backend):
    x = ivy.ones((2, 3, 4), dtype=ivy.float64)
    assert x.shape == (2, 3, 4) and isinstance(x.shape, tuple)
    assert x.ndim == 3 and x.size == 24 and x.dtype == ivy.float64
    assert x.device == ivy.Device("cpu") and x.device == "cpu"
    assert x.backend == backend
    assert x.mT.shape == (2, 4, 3)
    assert ivy.ones((2, 5)).T.shape == (5, 2)
    assert x.to_device("cpu") is x
    assert len(x) == 2
    assert "backend=" + backend in repr(x)


def test_finfo_iinfo():
    f = ivy.finfo(ivy.float32)
    assert f.bits == 32 and f.eps == float(np.finfo(np.float32).eps)
    assert f.max == float(np.finfo(np.float32).max) and f.min == -f.max
    assert f.smallest_normal == float(np.finfo(np.float32).tiny) and f.dtype == ivy.float32
    assert ivy.finfo(ivy.complex128).dtype == ivy.float64
    i = ivy.iinfo(ivy.int16)
    assert (i.bits, i.min, i.max, i.dtype) == (16, -32768, 32767, ivy.int16)
    assert ivy.iinfo(ivy.uint64).max == 2**64 - 1
    assert ivy.finfo(ivy.ones(2, dtype=ivy.float64)).bits == 64
    with pytest.raises(TypeError):
        ivy.finfo(ivy.int32)


def test_isdtype_can_cast_result_type():
    assert ivy.isdtype(ivy.int8, "signed integer") and not ivy.isdtype(ivy.uint8, "signed integer")
    assert ivy.isdtype(ivy.float32, ("integral", "real floating"))
    assert ivy.isdtype(ivy.complex64, "numeric") and not ivy.isdtype(ivy.bool, "numeric")
    assert ivy.isdtype(ivy.float64, ivy.float64)
    with pytest.raises(ValueError):
        ivy.isdtype(ivy.float64, "no such kind")
    assert ivy.can_cast(ivy.int8, ivy.int16) and not ivy.can_cast(ivy.float64, ivy.float32)
    assert ivy.result_type(ivy.int8, ivy.int16) == ivy.int16
    assert ivy.result_type(ivy.uint8, ivy.int8) == ivy.int16
    assert ivy.result_type(ivy.float32, ivy.complex64, ivy.float64) == ivy.complex128
    x = ivy.ones(3, dtype=ivy.float32)
    assert ivy.result_type(x, 1.0) == ivy.float32
    assert ivy.result_type(ivy.asarray([1, 2], dtype=ivy.int32), 1) == ivy.int32
    with pytest.raises(ValueError):
        ivy.result_type(1, 2.0)


def test_errors_are_translated(backend):
    # ivy::ValueError -> ValueError (broadcast), message kept
    with pytest.raises(ValueError, match=r"^\[add\]|broadcast"):
        ivy.add(ivy.ones(3), ivy.ones(4))
    with pytest.raises(IndexError, match=r"\[index\]"):
        ivy.ones(3)[5]
    with pytest.raises(IndexError):
        ivy.sum(ivy.ones((2, 2)), axis=3)
    with pytest.raises(TypeError, match=r"\["):
        ivy.bitwise_and(ivy.ones(3), ivy.ones(3))
    with pytest.raises(ValueError, match=r"get_backend"):
        ivy.set_backend("no-such-backend")


def test_not_implemented_translated():
    if "xtensor" not in BACKENDS:
        pytest.skip("needs the xtensor backend")
    with ivy.BackendScope("xtensor"):
        with pytest.raises(NotImplementedError, match="float16"):
            ivy.ones(3, dtype=ivy.float16)


def test_backend_selection():
    default = ivy.default_backend()
    assert default in BACKENDS
    assert ivy.current_backend() == default
    other = BACKENDS[-1]
    ivy.set_backend(other)
    try:
        assert ivy.current_backend() == other
        assert ivy.zeros(2).backend == other
        with ivy.BackendScope(BACKENDS[0]) as scope:
            assert scope.backend == BACKENDS[0]
            assert ivy.current_backend() == BACKENDS[0]
            assert ivy.zeros(2).backend == BACKENDS[0]
            with ivy.BackendScope(other):
                assert ivy.current_backend() == other
            assert ivy.current_backend() == BACKENDS[0]
        assert ivy.current_backend() == other
    finally:
        ivy.unset_backend()
    assert ivy.current_backend() == default


def test_input_backend_wins_over_scope():
    if len(BACKENDS) < 2:
        pytest.skip("needs two backends")
    a, b = BACKENDS[0], BACKENDS[1]
    with ivy.BackendScope(a):
        x = ivy.asarray([1.0, 2.0, 3.0])
    with ivy.BackendScope(b):
        y = ivy.exp(x)
        assert y.backend == a
        z = ivy.to_backend(x, b)
        assert z.backend == b
        check(z, np.array([1.0, 2.0, 3.0], dtype=np.float32))
        with pytest.raises(ValueError, match=a):
            ivy.add(x, ivy.ones(3))  # arrays of two backends: an error naming both


def test_trace_and_replay():
    x = ivy.asarray([[1.0, 2.0], [3.0, 4.0]])
    g = ivy.trace(lambda a: ivy.sum(ivy.exp(a) * 2.0, axis=1), [x])
    assert g.num_nodes >= 2
    assert "exp" in str(g)
    for b in BACKENDS:
        with ivy.BackendScope(b):
            (out,) = g.run([ivy.to_backend(x, b)], b)
            assert out.backend == b
            check(out, (np.exp(np.asarray(x)) * 2).sum(axis=1), rtol=1e-6)

"""Property-based conformance tests (Hypothesis) of the ivy namespace against NumPy.

Our stand-in for the official array-api-tests suite: arrays of every dtype and many shapes
(0-d, zero-size axes, broadcasting pairs) are generated with Hypothesis' Array API
strategies (`make_strategies_namespace(ivy)`; float16/bfloat16, which the standard lacks,
through NumPy), run through ivy on every backend (the `backend` fixture) and compared with
NumPy 1.24, with tolerances per dtype and NaN == NaN. Dtype/backend pairs that
`ivy._ivy.is_unsupported` reports are never drawn.

Runs are deterministic (`derandomize=True`) and sized to keep the whole module quick.
Bugs it found are pinned by direct regression tests at the end.
"""

import math
import operator

import numpy as np
import pytest

import ivy
from conftest import to_np

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, assume, given, note, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from hypothesis.extra import numpy as hnp  # noqa: E402
from hypothesis.extra.array_api import make_strategies_namespace  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")  # NumPy's own overflow/invalid warnings

# 2021.12 is the newest revision Hypothesis 6.67 knows; ivy implements 2025.12.
xps = make_strategies_namespace(ivy, api_version="2021.12")


def hsettings(n):
    return settings(
        max_examples=n,
        deadline=None,
        derandomize=True,
        database=None,
        print_blob=False,
        suppress_health_check=[
            HealthCheck.function_scoped_fixture,
            HealthCheck.too_slow,
            HealthCheck.data_too_large,
            HealthCheck.filter_too_much,
        ],
    )


# ====================================================================== dtypes
ALL_NAMES = ("bool int8 int16 int32 int64 uint8 uint16 uint32 uint64 float16 bfloat16 float32 float64 "
             "complex64 complex128").split()
KINDS = {
    "bool": ("bool",),
    "int": ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"),
    "realfloat": ("float16", "bfloat16", "float32", "float64"),
    "complex": ("complex64", "complex128"),
}
KINDS["real"] = KINDS["int"] + KINDS["realfloat"]
KINDS["float"] = KINDS["realfloat"] + KINDS["complex"]
KINDS["numeric"] = KINDS["real"] + KINDS["complex"]
KINDS["intbool"] = KINDS["bool"] + KINDS["int"]
KINDS["all"] = KINDS["bool"] + KINDS["numeric"]
KINDS["std_real"] = tuple(n for n in KINDS["real"] if n not in ("float16", "bfloat16"))
KINDS["std_numeric"] = KINDS["std_real"] + KINDS["complex"]

NP = {n: np.dtype(n) for n in ALL_NAMES if n != "bfloat16"}
NP["bfloat16"] = np.dtype("float32")  # NumPy has no bfloat16: ivy exports it as float32


def D(name):
    return getattr(ivy, name)


def kind_of(name):
    if name == "bool":
        return "b"
    if name.startswith("uint"):
        return "u"
    if name.startswith("int"):
        return "i"
    if name.startswith("complex"):
        return "c"
    return "f"


def bits_of(name):
    return {"bool": 8, "bfloat16": 16}.get(name) or int("".join(c for c in name if c.isdigit()))


def supported(backend, fn, *names):
    return all(not ivy._ivy.is_unsupported(backend, fn, D(n)) for n in names)


# Half-precision functions LibTorch 1.13 has no CPU kernel for (the torch backend computes
# them in float32): pinned by test_half_kernels.
KNOWN_TORCH_GAPS = {
    ("prod", "bfloat16"), ("std", "float16"), ("cumulative_sum", "float16"), ("isin", "float16"),
    ("isin", "bfloat16"),
}


def dtype_names(backend, fn, kind):
    out = [n for n in KINDS[kind] if supported(backend, fn, n) and supported(backend, "asarray", n)]
    assert out
    return out


def promote(a, b):
    """The standard's promotion table, with ivy's documented choices across kinds."""
    if a == b:
        return a
    ka, kb = kind_of(a), kind_of(b)
    if ka == "b":
        return b
    if kb == "b":
        return a
    if ka in "iu" and kb in "iu":
        if ka == kb:
            return a if bits_of(a) >= bits_of(b) else b
        s, u = (a, b) if ka == "i" else (b, a)
        if bits_of(s) > bits_of(u):
            return s
        return "float64" if bits_of(u) == 64 else f"int{2 * bits_of(u)}"
    if ka in "iu":
        return b
    if kb in "iu":
        return a
    if ka == "f" and kb == "f":
        if {a, b} == {"float16", "bfloat16"}:
            return "float32"
        return a if bits_of(a) >= bits_of(b) else b
    prec = max(64 if n in ("float64", "complex128") else 32 for n in (a, b))
    return "complex64" if prec == 32 else "complex128"


def standard_pair(a, b):
    """True if the standard itself defines promoting a with b (same kind, not u64 + signed)."""
    ka, kb = kind_of(a), kind_of(b)
    if ka == "b" or kb == "b":
        return ka == kb
    if ka in "iu" and kb in "iu":
        return promote(a, b) != "float64"
    if "float16" in (a, b) or "bfloat16" in (a, b):
        return a == b or (ka == "f" and kb == "f")
    return ka in "fc" and kb in "fc"


# ====================================================================== tolerances / checks
RTOL = {"float16": 4e-3, "bfloat16": 3e-2, "float32": 2e-5, "complex64": 2e-5, "float64": 1e-11,
        "complex128": 1e-11}


def tol_for(name):
    r = RTOL.get(name, 0.0)
    return r, r


def assert_same(actual, expected, dtype_name=None, *, rtol=None, atol=None, check_dtype=True, mask=None):
    """actual: ivy array; expected: NumPy array. Shape, dtype, values (NaN == NaN)."""
    assert isinstance(actual, ivy.Array), f"expected an ivy array, got {type(actual).__name__}"
    if dtype_name is not None and check_dtype:
        assert str(actual.dtype) == dtype_name, f"dtype {actual.dtype} != expected {dtype_name}"
    a = to_np(actual)
    e = np.asarray(expected)
    assert a.shape == e.shape, f"shape {a.shape} != expected {e.shape}"
    if mask is not None:
        a, e = a[mask], e[mask]
    name = dtype_name or str(actual.dtype)
    if a.dtype.kind in "fc" or e.dtype.kind in "fc":
        r, t = tol_for(name)
        np.testing.assert_allclose(a, e, rtol=r if rtol is None else rtol, atol=t if atol is None else atol,
                                   equal_nan=True)
    else:
        np.testing.assert_array_equal(a, e.astype(a.dtype) if e.dtype != a.dtype and e.size else e)


# ====================================================================== strategies
SPECIAL_FLOATS = [0.0, -0.0, 1.0, -1.0, 0.5, -0.5, math.inf, -math.inf, math.nan]


def elements(name, *, lo=None, hi=None, allow_nan=True, allow_inf=True, specials=True):
    """Elements of dtype `name`, optionally within [lo, hi] (finite floats); for floats the
    special values NaN, +-inf, +-0 are mixed in unless disallowed."""
    k = kind_of(name)
    if k == "b":
        return st.booleans()
    if k in "iu":
        info = np.iinfo(NP[name])
        lo_ = info.min if lo is None else max(int(lo), int(info.min))
        hi_ = info.max if hi is None else min(int(hi), int(info.max))
        return st.integers(lo_, hi_)
    if k == "c":
        comp = elements("float32" if name == "complex64" else "float64", lo=lo, hi=hi, allow_nan=allow_nan,
                        allow_inf=allow_inf, specials=specials)
        if lo is not None:  # moderate values: no tiny components either (|z|**2 underflow, known bug)
            comp = comp.filter(lambda v: v == 0 or abs(v) >= 1e-6)
        return st.builds(complex, comp, comp)
    width = {"float16": 16, "bfloat16": 32, "float32": 32, "float64": 64}[name]
    wt = {16: np.float16, 32: np.float32, 64: np.float64}[width]

    def inward(v, up):  # nearest value of the float width at or inside the bound
        r = wt(v)
        if (up and float(r) < v) or (not up and float(r) > v):
            r = np.nextafter(r, wt(math.inf if up else -math.inf))
        return float(r)

    if name == "bfloat16":  # below bfloat16's max, so that rounding to it stays finite
        lo = -3.0e38 if lo is None else lo
        hi = 3.0e38 if hi is None else hi
    lo_ = None if lo is None else inward(lo, True)
    hi_ = None if hi is None else inward(hi, False)
    finite = st.floats(lo_, hi_, width=width, allow_nan=False, allow_infinity=False)
    if name == "bfloat16":  # representable in bfloat16: keep the 8 leading significand bits
        finite = finite.map(lambda v: float(np.frombuffer(
            (np.frombuffer(np.float32(v).tobytes(), np.uint32) & np.uint32(0xFFFF0000)).tobytes(), np.float32)[0]))
    if not specials:
        return finite
    sp = [v for v in SPECIAL_FLOATS if (allow_nan or v == v) and (allow_inf or abs(v) != math.inf)
          and (abs(v) == math.inf or v != v or ((lo_ is None or lo_ <= v) and (hi_ is None or v <= hi_)))]
    return st.one_of(finite, st.sampled_from(sp)) if sp else finite


def arrays(name, shape, *, elements_=None, unique=False, **kw):
    """Arrays of dtype `name` (created on the current backend)."""
    el = elements_ if elements_ is not None else elements(name, **kw)
    if name in ("float16", "bfloat16", "complex64", "complex128"):  # dtypes Hypothesis' 2021.12 lacks
        return hnp.arrays(NP[name], shape, elements=el, unique=unique).map(
            lambda a: ivy.asarray(a, dtype=D(name)))
    return xps.arrays(D(name), shape, elements=el, unique=unique)


def shapes(min_dims=0, max_dims=4, min_side=0, max_side=4):
    return xps.array_shapes(min_dims=min_dims, max_dims=max_dims, min_side=min_side, max_side=max_side)


def draw_dtype(data, backend, fn, kind, label="dtype"):
    return data.draw(st.sampled_from(dtype_names(backend, fn, kind)), label=label)


def python_scalar(name, **kw):
    """A Python scalar of the kind of dtype `name`, representable in it."""
    return elements(name, **kw).map(lambda v: v if isinstance(v, (bool, complex)) else v)


def np_ref_cast(a, name):
    """NumPy copy of a as dtype name (for bfloat16: float32)."""
    return np.asarray(a).astype(NP[name])


# ====================================================================== element-wise functions
def _sign(a):
    if a.dtype.kind == "c":
        with np.errstate(all="ignore"):
            mag = np.abs(a)
            return np.where(mag == 0, 0, a / np.where(mag == 0, 1, mag)).astype(a.dtype)
    return np.sign(a)


def _int_identity_or(fn):
    return lambda a: a.copy() if a.dtype.kind in "iub" else fn(a)


# name: (input kind, numpy reference, result kind: "same" | "bool" | "real")
UNARY = {
    "abs": ("numeric", np.abs, "real"),
    "acos": ("float", np.arccos, "same"),
    "acosh": ("float", np.arccosh, "same"),
    "asin": ("float", np.arcsin, "same"),
    "asinh": ("float", np.arcsinh, "same"),
    "atan": ("float", np.arctan, "same"),
    "atanh": ("float", np.arctanh, "same"),
    "bitwise_invert": ("intbool", np.invert, "same"),
    "ceil": ("real", _int_identity_or(np.ceil), "same"),
    "conj": ("numeric", np.conj, "same"),
    "cos": ("float", np.cos, "same"),
    "cosh": ("float", np.cosh, "same"),
    "exp": ("float", np.exp, "same"),
    "expm1": ("float", np.expm1, "same"),
    "floor": ("real", _int_identity_or(np.floor), "same"),
    "imag": ("numeric", np.imag, "real"),
    "isfinite": ("numeric", np.isfinite, "bool"),
    "isinf": ("numeric", np.isinf, "bool"),
    "isnan": ("numeric", np.isnan, "bool"),
    "log": ("float", np.log, "same"),
    "log1p": ("float", np.log1p, "same"),
    "log2": ("float", np.log2, "same"),
    "log10": ("float", np.log10, "same"),
    "logical_not": ("bool", np.logical_not, "bool"),
    "negative": ("numeric", np.negative, "same"),
    "positive": ("numeric", np.positive, "same"),
    "real": ("numeric", np.real, "real"),
    "reciprocal": ("float", np.reciprocal, "same"),
    "round": ("numeric", _int_identity_or(np.round), "same"),
    "sign": ("numeric", _sign, "same"),
    "signbit": ("realfloat", np.signbit, "bool"),
    "sin": ("float", np.sin, "same"),
    "sinh": ("float", np.sinh, "same"),
    "square": ("numeric", np.square, "same"),
    "sqrt": ("float", np.sqrt, "same"),
    "tan": ("float", np.tan, "same"),
    "tanh": ("float", np.tanh, "same"),
    "trunc": ("real", _int_identity_or(np.trunc), "same"),
}
assert set(UNARY) == set(ivy._api._UNARY)

# Functions computed from Python ints (exactly) to find integer overflow, where the
# standard leaves the result unspecified.
EXACT_INT = {
    "abs": abs, "negative": operator.neg, "square": lambda v: v * v,
    "add": operator.add, "subtract": operator.sub, "multiply": operator.mul, "pow": operator.pow,
    "floor_divide": operator.floordiv, "remainder": operator.mod,
}


def int_in_range_mask(name, fn_name, *np_args):
    """Elements where the exact integer result of fn_name fits dtype `name`."""
    info = np.iinfo(NP[name])
    exact = EXACT_INT[fn_name]
    objs = np.broadcast_arrays(*[np.asarray(a).astype(object) for a in np_args])

    def ok(*vs):
        try:
            r = exact(*(int(v) for v in vs))
        except (ZeroDivisionError, ValueError):
            return False
        return info.min <= r <= info.max

    return np.vectorize(ok, otypes=[bool])(*objs) if objs[0].size else np.zeros(objs[0].shape, bool)


def real_name(name):
    return {"complex64": "float32", "complex128": "float64"}.get(name, name)


def unary_expected_dtype(fn_name, name):
    res = UNARY[fn_name][2]
    return "bool" if res == "bool" else real_name(name) if res == "real" else name


BRANCH_CUT_FNS = ("acos", "acosh", "asin", "asinh", "atan", "atanh", "log", "log1p", "log2", "log10", "sqrt")
COMPLEX_POLES = {"atan": (1j, -1j), "atanh": (1 + 0j, -1 + 0j), "log": (0j,), "log2": (0j,), "log10": (0j,),
                 "log1p": (-1 + 0j,), "reciprocal": (0j,)}


@pytest.mark.parametrize("fn_name", sorted(UNARY))
@hsettings(50)
@given(data=st.data())
def test_unary(backend, fn_name, data):
    kind, ref, _ = UNARY[fn_name]
    name = draw_dtype(data, backend, fn_name, kind)
    el = None
    if kind_of(name) == "c":  # finite and moderate; poles and special values: test_complex_special_cases
        el = elements(name, lo=-20, hi=20, allow_nan=False, allow_inf=False)
        el = el.filter(lambda z: z not in COMPLEX_POLES.get(fn_name, ()))
        if fn_name in BRANCH_CUT_FNS:  # signed zeros on branch cuts: test_known_torch_branch_cut_signed_zero
            el = el.filter(lambda z: z.real != 0 and z.imag != 0)
    x = data.draw(arrays(name, shapes(), elements_=el), label="x")
    a = to_np(x)
    out = getattr(ivy, fn_name)(x)
    with np.errstate(all="ignore"):
        expected = ref(np_ref_cast(a, name))
    exp_dtype = unary_expected_dtype(fn_name, name)
    mask = None
    if kind_of(name) in "iu" and fn_name in EXACT_INT:
        mask = int_in_range_mask(name, fn_name, a)
    r, t = tol_for(name)
    if name == "complex64" and fn_name not in ("conj", "real", "imag", "negative", "positive"):
        r = 1e-4  # float32 complex kernels (torch's asin/acos/...) lose a few more bits
    if name in ("complex64", "complex128") and fn_name not in ("conj", "real", "imag", "negative", "positive"):
        # complex functions: accuracy relative to the magnitude of the result
        t = r * max(1.0, float(np.nanmax(np.abs(expected[np.isfinite(expected)]), initial=1.0)))
    assert_same(out, np.asarray(expected).astype(NP[exp_dtype]), exp_dtype, rtol=r, atol=t, mask=mask)


def _nextafter_ref(a, b):
    return np.nextafter(a, b)


# name: (input kind, numpy reference, result kind)
BINARY = {
    "add": ("numeric", np.add, "same"),
    "atan2": ("realfloat", np.arctan2, "same"),
    "bitwise_and": ("intbool", np.bitwise_and, "same"),
    "bitwise_left_shift": ("int", np.left_shift, "same"),
    "bitwise_or": ("intbool", np.bitwise_or, "same"),
    "bitwise_right_shift": ("int", np.right_shift, "same"),
    "bitwise_xor": ("intbool", np.bitwise_xor, "same"),
    "copysign": ("realfloat", np.copysign, "same"),
    "divide": ("float", np.divide, "same"),
    "equal": ("all", np.equal, "bool"),
    "floor_divide": ("real", np.floor_divide, "same"),
    "greater": ("real", np.greater, "bool"),
    "greater_equal": ("real", np.greater_equal, "bool"),
    "hypot": ("realfloat", np.hypot, "same"),
    "less": ("real", np.less, "bool"),
    "less_equal": ("real", np.less_equal, "bool"),
    "logaddexp": ("realfloat", np.logaddexp, "same"),
    "logical_and": ("bool", np.logical_and, "bool"),
    "logical_or": ("bool", np.logical_or, "bool"),
    "logical_xor": ("bool", np.logical_xor, "bool"),
    "maximum": ("real", np.maximum, "same"),
    "minimum": ("real", np.minimum, "same"),
    "multiply": ("numeric", np.multiply, "same"),
    "nextafter": ("realfloat", _nextafter_ref, "same"),
    "not_equal": ("all", np.not_equal, "bool"),
    "pow": ("numeric", np.power, "same"),
    "remainder": ("real", np.remainder, "same"),
    "subtract": ("numeric", np.subtract, "same"),
}
assert set(BINARY) == set(ivy._api._BINARY)

SHIFTS = ("bitwise_left_shift", "bitwise_right_shift")


def binary_operand_elements(fn_name, name, other_name, which):
    """Elements for operand `which` (1 or 2) of fn_name, avoiding inputs whose result the
    standard leaves unspecified (negative/too-large shifts, negative integer exponents)."""
    k = kind_of(name)
    if k == "c":  # finite, moderate: complex special values / overflow are tested separately
        return elements(name, lo=-20, hi=20, allow_nan=False, allow_inf=False)
    if fn_name in ("floor_divide", "remainder") and k in "iu":  # x // 0 is unspecified for ints
        return elements(name).filter(lambda v: v != 0)
    if fn_name in SHIFTS and which == 2:
        return elements(name, lo=0, hi=min(bits_of(name), bits_of(other_name)) - 1)
    if fn_name == "pow" and k in "iu":
        return elements(name, lo=0, hi=12) if which == 2 else elements(name, lo=-20, hi=20)
    return elements(name)


def binary_reference(fn_name, a1, a2, n1, n2):
    """NumPy reference computed in the promoted dtype; returns (expected, result dtype, mask)."""
    _, ref, res = BINARY[fn_name]
    rn = promote(n1, n2)
    c1, c2 = np_ref_cast(a1, rn), np_ref_cast(a2, rn)
    with np.errstate(all="ignore"):
        expected = ref(c1, c2)
    mask = unspecified_mask(fn_name, rn, c1, c2, np.shape(expected))
    if kind_of(rn) in "iu" and fn_name in EXACT_INT:
        mask &= int_in_range_mask(rn, fn_name, c1, c2)
    exp_dtype = "bool" if res == "bool" else rn
    if rn == "bfloat16" and exp_dtype == rn:
        expected = expected.astype(np.float32)
    return np.asarray(expected).astype(NP[exp_dtype]), exp_dtype, mask


def unspecified_mask(fn_name, rn, c1, c2, shape):
    """Elements whose result the comparison skips: complex division by (near) zero and complex
    0 ** y (NumPy itself is not reliable there), and infinite operands of floor_divide/remainder
    (NumPy returns NaN for inf // 1; torch returns inf)."""
    m = np.ones(shape, bool)
    if kind_of(rn) == "c" and fn_name == "divide":
        m &= np.broadcast_to((np.abs(c2) > 1e-6) & np.isfinite(c2), shape)  # torch: z / inf -> nan
    if kind_of(rn) == "c" and fn_name == "pow":
        m &= np.broadcast_to((np.abs(c1) > 1e-6) & np.isfinite(c1), shape) & np.broadcast_to(np.isfinite(c2), shape)
    if kind_of(rn) in "f" and fn_name in ("floor_divide", "remainder"):
        m &= np.broadcast_to(np.isfinite(c1), shape) & np.broadcast_to(np.isfinite(c2), shape)
    return m


def binary_tolerance(fn_name, rn, expected):
    r, t = tol_for(rn)
    if kind_of(rn) == "c" and fn_name in ("multiply", "divide", "pow"):
        fin = np.abs(expected[np.isfinite(expected)])
        t = r * max(1.0, float(fin.max(initial=1.0)))
    return r, t


@pytest.mark.parametrize("fn_name", sorted(BINARY))
@hsettings(50)
@given(data=st.data())
def test_binary(backend, fn_name, data):
    """Arrays of two (promotable) dtypes and mutually broadcastable shapes."""
    kind = BINARY[fn_name][0]
    n1 = draw_dtype(data, backend, fn_name, kind, "dtype1")
    names2 = [n for n in dtype_names(backend, fn_name, kind) if standard_pair(n1, n)
              and supported(backend, fn_name, promote(n1, n))]
    if fn_name in SHIFTS:  # shift counts as wide as the promoted type are unspecified
        names2 = [n for n in names2 if kind_of(n) == kind_of(n1)]
    n2 = data.draw(st.sampled_from(names2), label="dtype2")
    bshapes = data.draw(xps.mutually_broadcastable_shapes(2, min_side=0, max_side=4, max_dims=4), label="shapes")
    x1 = data.draw(arrays(n1, bshapes.input_shapes[0], elements_=binary_operand_elements(fn_name, n1, n2, 1)), label="x1")
    x2 = data.draw(arrays(n2, bshapes.input_shapes[1], elements_=binary_operand_elements(fn_name, n2, n1, 2)), label="x2")
    out = getattr(ivy, fn_name)(x1, x2)
    expected, exp_dtype, mask = binary_reference(fn_name, to_np(x1), to_np(x2), n1, n2)
    rn = promote(n1, n2)
    if kind_of(rn) in "iu" and fn_name in ("floor_divide", "remainder"):
        m = np.broadcast_to(np_ref_cast(to_np(x2), rn) != 0, expected.shape)
        mask = m if mask is None else (mask & m)
    r, t = binary_tolerance(fn_name, rn, expected)
    assert_same(out, expected, exp_dtype, rtol=r, atol=t, mask=mask)


@pytest.mark.parametrize("fn_name", sorted(BINARY))
@hsettings(15)
@given(data=st.data())
def test_binary_python_scalar(backend, fn_name, data):
    """array op scalar and scalar op array: the scalar takes the array's dtype."""
    kind = BINARY[fn_name][0]
    name = draw_dtype(data, backend, fn_name, kind)
    x = data.draw(arrays(name, shapes(), elements_=binary_operand_elements(fn_name, name, name, 1)), label="x")
    s = data.draw(binary_operand_elements(fn_name, name, name, 2), label="scalar")
    if kind_of(name) in "iu":
        s = int(s)
    scalar_first = data.draw(st.booleans(), label="scalar_first")
    if scalar_first and (fn_name in SHIFTS or fn_name == "pow"):
        assume(kind_of(name) not in "iu")  # x would be the shift count / exponent
    f = getattr(ivy, fn_name)
    out = f(s, x) if scalar_first else f(x, s)
    a = to_np(x)
    sa = np.asarray(s).astype(NP[name])
    if name == "bfloat16":
        sa = to_np(ivy.asarray(np.float32(s), dtype=ivy.bfloat16))
    args = (sa, a) if scalar_first else (a, sa)
    expected, exp_dtype, mask = binary_reference(fn_name, *args, name, name)
    if kind_of(name) in "iu" and fn_name in ("floor_divide", "remainder"):
        m = np.broadcast_to(args[1] != 0, expected.shape)
        mask = m if mask is None else (mask & m)
    r, t = binary_tolerance(fn_name, name, expected)
    assert_same(out, expected, exp_dtype, rtol=r, atol=t, mask=mask)


# ====================================================================== operators
BINOPS = {
    "__add__": "add", "__sub__": "subtract", "__mul__": "multiply", "__truediv__": "divide",
    "__floordiv__": "floor_divide", "__mod__": "remainder", "__pow__": "pow", "__and__": "bitwise_and",
    "__or__": "bitwise_or", "__xor__": "bitwise_xor", "__lshift__": "bitwise_left_shift",
    "__rshift__": "bitwise_right_shift", "__lt__": "less", "__le__": "less_equal", "__gt__": "greater",
    "__ge__": "greater_equal", "__eq__": "equal", "__ne__": "not_equal",
}
PYOP = {
    "__add__": operator.add, "__sub__": operator.sub, "__mul__": operator.mul, "__truediv__": operator.truediv,
    "__floordiv__": operator.floordiv, "__mod__": operator.mod, "__pow__": operator.pow,
    "__and__": operator.and_, "__or__": operator.or_, "__xor__": operator.xor, "__lshift__": operator.lshift,
    "__rshift__": operator.rshift, "__lt__": operator.lt, "__le__": operator.le, "__gt__": operator.gt,
    "__ge__": operator.ge, "__eq__": operator.eq, "__ne__": operator.ne,
}
IOP = {
    "__add__": operator.iadd, "__sub__": operator.isub, "__mul__": operator.imul,
    "__truediv__": operator.itruediv, "__floordiv__": operator.ifloordiv, "__mod__": operator.imod,
    "__pow__": operator.ipow, "__and__": operator.iand, "__or__": operator.ior, "__xor__": operator.ixor,
    "__lshift__": operator.ilshift, "__rshift__": operator.irshift,
}


def _operand_pair(data, backend, fn_name, same_dtype):
    kind = BINARY[fn_name][0]
    if kind == "float" or kind == "realfloat":
        kind = kind
    n1 = draw_dtype(data, backend, fn_name, kind, "dtype1")
    if same_dtype:
        n2 = n1
    else:
        names2 = [n for n in dtype_names(backend, fn_name, kind) if standard_pair(n1, n)
                  and (fn_name not in SHIFTS or kind_of(n) == kind_of(n1))]
        n2 = data.draw(st.sampled_from(names2), label="dtype2")
    return n1, n2


@pytest.mark.parametrize("op", sorted(BINOPS))
@hsettings(15)
@given(data=st.data())
def test_operator(backend, op, data):
    """x1 op x2 (arrays, broadcasting), x op scalar and scalar op x (the reflected method)."""
    fn_name = BINOPS[op]
    n1, n2 = _operand_pair(data, backend, fn_name, same_dtype=False)
    bshapes = data.draw(xps.mutually_broadcastable_shapes(2, max_side=3, max_dims=3), label="shapes")
    x1 = data.draw(arrays(n1, bshapes.input_shapes[0], elements_=binary_operand_elements(fn_name, n1, n2, 1)), label="x1")
    x2 = data.draw(arrays(n2, bshapes.input_shapes[1], elements_=binary_operand_elements(fn_name, n2, n1, 2)), label="x2")
    out = PYOP[op](x1, x2)
    expected, exp_dtype, mask = binary_reference(fn_name, to_np(x1), to_np(x2), n1, n2)
    rn = promote(n1, n2)
    if kind_of(rn) in "iu" and fn_name in ("floor_divide", "remainder"):
        m = np.broadcast_to(np_ref_cast(to_np(x2), rn) != 0, expected.shape)
        mask = m if mask is None else (mask & m)
    r, t = binary_tolerance(fn_name, rn, expected)
    assert_same(out, expected, exp_dtype, rtol=r, atol=t, mask=mask)

    # reflected: scalar op x1 calls x1.__rop__(scalar)
    if fn_name in SHIFTS or (fn_name == "pow" and kind_of(n1) in "iu") or op in ("__eq__", "__ne__", "__lt__",
                                                                               "__le__", "__gt__", "__ge__"):
        return
    s = data.draw(binary_operand_elements(fn_name, n1, n1, 1), label="scalar")
    if kind_of(n1) in "iu":
        s = int(s)
    out = PYOP[op](s, x1)
    sa = np.asarray(s).astype(NP[n1]) if n1 != "bfloat16" else to_np(ivy.asarray(np.float32(s), dtype=ivy.bfloat16))
    expected, exp_dtype, mask = binary_reference(fn_name, sa, to_np(x1), n1, n1)
    if kind_of(n1) in "iu" and fn_name in ("floor_divide", "remainder"):
        m = np.broadcast_to(to_np(x1) != 0, expected.shape)
        mask = m if mask is None else (mask & m)
    r, t = binary_tolerance(fn_name, n1, expected)
    assert_same(out, expected, exp_dtype, rtol=r, atol=t, mask=mask)


@pytest.mark.parametrize("op", sorted(IOP))
@hsettings(15)
@given(data=st.data())
def test_inplace_operator(backend, op, data):
    """x1 op= x2 with x2 broadcastable to x1 and result dtype == x1's dtype (or a scalar):
    x1 is rebound to the result, other references see it, the dtype stays."""
    fn_name = BINOPS[op]
    n1, _ = _operand_pair(data, backend, fn_name, same_dtype=True)
    names2 = [n for n in dtype_names(backend, fn_name, BINARY[fn_name][0])
              if standard_pair(n1, n) and promote(n1, n) == n1 and (fn_name not in SHIFTS or kind_of(n) == kind_of(n1))]
    n2 = data.draw(st.sampled_from(names2), label="dtype2")
    shape = data.draw(shapes(max_dims=3, max_side=3), label="shape")
    shape2 = data.draw(xps.broadcastable_shapes(shape, min_side=0, max_side=3), label="shape2")
    assume(np.broadcast_shapes(shape, shape2) == shape)
    use_scalar = data.draw(st.booleans(), label="scalar operand")
    x1 = data.draw(arrays(n1, shape, elements_=binary_operand_elements(fn_name, n1, n2, 1)), label="x1")
    if use_scalar:
        x2 = data.draw(binary_operand_elements(fn_name, n1, n1, 2), label="x2")
        if kind_of(n1) in "iu":
            x2 = int(x2)
        a2 = np.asarray(x2).astype(NP[n1]) if n1 != "bfloat16" else to_np(ivy.asarray(np.float32(x2), dtype=ivy.bfloat16))
        n2 = n1
    else:
        x2 = data.draw(arrays(n2, shape2, elements_=binary_operand_elements(fn_name, n2, n1, 2)), label="x2")
        a2 = to_np(x2)
    a1 = to_np(x1).copy()
    alias = x1
    x1 = IOP[op](x1, x2)
    expected, exp_dtype, mask = binary_reference(fn_name, a1, a2, n1, n2)
    if kind_of(n1) in "iu" and fn_name in ("floor_divide", "remainder"):
        m = np.broadcast_to(np_ref_cast(a2, n1) != 0, expected.shape)
        mask = m if mask is None else (mask & m)
    r, t = binary_tolerance(fn_name, n1, expected)
    assert_same(x1, expected, n1, rtol=r, atol=t, mask=mask)
    assert_same(alias, expected, n1, rtol=r, atol=t, mask=mask)


UNOPS = {"__neg__": ("numeric", operator.neg, "negative"), "__pos__": ("numeric", operator.pos, "positive"),
         "__abs__": ("numeric", operator.abs, "abs"), "__invert__": ("intbool", operator.invert, "bitwise_invert")}


@pytest.mark.parametrize("op", sorted(UNOPS))
@hsettings(15)
@given(data=st.data())
def test_unary_operator(backend, op, data):
    kind, pyop, fn_name = UNOPS[op]
    name = draw_dtype(data, backend, fn_name, kind)
    el = elements(name, lo=-20, hi=20, allow_nan=False, allow_inf=False) if kind_of(name) == "c" else None
    x = data.draw(arrays(name, shapes(max_dims=3), elements_=el), label="x")
    a = to_np(x)
    mask = int_in_range_mask(name, fn_name, a) if kind_of(name) in "iu" and fn_name in EXACT_INT else None
    with np.errstate(all="ignore"):
        expected = UNARY[fn_name][1](np_ref_cast(a, name))
    exp = unary_expected_dtype(fn_name, name)
    assert_same(pyop(x), np.asarray(expected).astype(NP[exp]), exp, mask=mask)


@hsettings(30)
@given(data=st.data())
def test_matmul_operator(backend, data):
    name = draw_dtype(data, backend, "matmul", "std_numeric")
    m, k, n = data.draw(st.tuples(*[st.integers(0, 3)] * 3), label="m,k,n")
    batch = data.draw(shapes(max_dims=2, max_side=2), label="batch")
    el = elements(name, lo=-8, hi=8, allow_nan=False, allow_inf=False)
    x1 = data.draw(arrays(name, batch + (m, k), elements_=el), label="x1")
    x2 = data.draw(arrays(name, (k, n), elements_=el), label="x2")
    out = x1 @ x2
    expected = to_np(x1) @ to_np(x2)
    r, _ = tol_for(name)
    assert_same(out, expected, name, rtol=r, atol=r * 64)


# ====================================================================== type promotion / casting
@hsettings(60)
@given(data=st.data())
def test_result_type(backend, data):
    names = dtype_names(backend, "result_type", "all")
    n = data.draw(st.integers(1, 4), label="n")
    picks = data.draw(st.lists(st.sampled_from(names), min_size=n, max_size=n), label="dtypes")
    expected = picks[0]
    for p in picks[1:]:
        expected = promote(expected, p)
    # ivy's promotion is not associative across kinds (int64, uint64, float16): compare pairs
    if len(picks) == 2 or all(standard_pair(a, b) for a in picks for b in picks):
        assert str(ivy.result_type(*[D(p) for p in picks])) == expected


@hsettings(40)
@given(data=st.data())
def test_result_type_python_scalars(backend, data):
    name = draw_dtype(data, backend, "result_type", "all")
    s = data.draw(st.one_of(st.booleans(), st.integers(-100, 100), st.floats(-10, 10), st.builds(complex, st.floats(-1, 1))),
                  label="scalar")
    k = kind_of(name)
    if isinstance(s, bool):
        expected = name
    elif isinstance(s, int):
        expected = name if k != "b" else str(ivy.default_int_dtype())
    elif isinstance(s, float):
        expected = name if k in "fc" else str(ivy.default_float_dtype())
    else:
        expected = {"float64": "complex128", "float32": "complex64"}.get(name, name) if k in "fc" else \
            str(ivy.default_complex_dtype())
        if name in ("float16", "bfloat16"):
            expected = None  # not specified
    got = str(ivy.result_type(D(name), s))
    if expected is not None:
        assert got == expected
    x = ivy.zeros((2,), dtype=D(name))
    if expected is not None and not (k == "b" and not isinstance(s, bool) and not isinstance(s, int)):
        if (k == "b" and isinstance(s, int) and not isinstance(s, bool)):
            return
        assert str((x + s).dtype) == got


@hsettings(60)
@given(data=st.data())
def test_can_cast(backend, data):
    names = dtype_names(backend, "can_cast", "all")
    a = data.draw(st.sampled_from(names), label="from")
    b = data.draw(st.sampled_from(names), label="to")
    got = ivy.can_cast(D(a), D(b))
    assert isinstance(got, bool)
    if standard_pair(a, b) or a == "bool":
        assert got == (promote(a, b) == b), f"can_cast({a}, {b})"
    if a == b:
        assert got
    x = ivy.zeros((1,), dtype=D(a))
    assert ivy.can_cast(x, D(b)) == got


@pytest.mark.parametrize("kind", ["int", "realfloat"])
def test_finfo_iinfo(backend, kind):
    for name in dtype_names(backend, "finfo" if kind != "int" else "iinfo", kind):
        if kind == "int":
            i, e = ivy.iinfo(D(name)), np.iinfo(NP[name])
            assert (i.bits, i.min, i.max) == (e.bits, e.min, e.max), name
            assert isinstance(i.min, int) and isinstance(i.max, int)
            assert str(i.dtype) == name
            assert ivy.iinfo(ivy.zeros((), dtype=D(name))).max == e.max
        else:
            f = ivy.finfo(D(name))
            if name == "bfloat16":
                e = dict(bits=16, eps=2.0 ** -7, max=float.fromhex("0x1.fep127"), smallest_normal=2.0 ** -126)
            else:
                fi = np.finfo(NP[name])
                e = dict(bits=fi.bits, eps=float(fi.eps), max=float(fi.max), smallest_normal=float(fi.tiny))
            assert f.bits == e["bits"], name
            for attr in ("eps", "max", "smallest_normal"):
                assert isinstance(getattr(f, attr), float)
                assert getattr(f, attr) == e[attr], (name, attr)
            assert f.min == -e["max"]
            assert str(f.dtype) == name
    for cname, fname in (("complex64", "float32"), ("complex128", "float64")):
        if kind == "realfloat":
            f = ivy.finfo(D(cname))
            assert f.eps == float(np.finfo(NP[fname]).eps) and str(f.dtype) == fname


def _astype_elements(src, dst):
    """Source values whose conversion to dst is specified (no NaN/inf/out-of-range to ints,
    no complex to real)."""
    ks, kd = kind_of(src), kind_of(dst)
    if ks in "fc" and kd in "iu":
        info = np.iinfo(NP[dst])
        lim = min(float(info.max), 65000.0 if src == "float16" else 1e15)
        lo = max(float(info.min), -lim)
        return elements(src, lo=lo, hi=lim, allow_nan=False, allow_inf=False)
    return elements(src)


@hsettings(80)
@given(data=st.data())
def test_astype(backend, data):
    names = dtype_names(backend, "astype", "all")
    src = data.draw(st.sampled_from(names), label="from")
    dsts = [n for n in names if not (kind_of(src) == "c" and kind_of(n) != "c")]
    dst = data.draw(st.sampled_from(dsts), label="to")
    x = data.draw(arrays(src, shapes(max_dims=3), elements_=_astype_elements(src, dst)), label="x")
    copy = data.draw(st.booleans(), label="copy")
    out = ivy.astype(x, D(dst), copy=copy)
    a = to_np(x)
    with np.errstate(all="ignore"):
        if kind_of(src) in "fc" and kind_of(dst) in "iu":
            expected = np.trunc(a.real if kind_of(src) == "c" else a).astype(NP[dst])
        else:
            expected = a.astype(NP[dst])
    if dst == "bfloat16":  # round to bfloat16 through ivy itself only for the tolerance
        assert_same(out, expected.astype(np.float32), dst, rtol=2 ** -8, atol=0)
        return
    if src == dst and not copy:
        assert out._same(x)
    if kind_of(dst) in "fc":
        assert_same(out, expected, dst, rtol=0 if kind_of(src) in "iub" and bits_of(src) <= 16 else None)
    else:
        assert_same(out, expected, dst)


# ====================================================================== creation functions
@hsettings(60)
@given(data=st.data())
def test_arange(backend, data):
    name = draw_dtype(data, backend, "arange", "std_real")
    k = kind_of(name)
    if k in "iu":
        info = np.iinfo(NP[name])
        lo = max(int(info.min), -1000)
        start = data.draw(st.integers(lo, min(int(info.max), 1000)), label="start")
        stop = data.draw(st.one_of(st.none(), st.integers(lo, min(int(info.max), 1000))), label="stop")
        step = data.draw(st.integers(-50, 50).filter(bool), label="step")
    else:
        q = st.integers(-400, 400).map(lambda v: v / 4)
        start, stop = data.draw(q, label="start"), data.draw(st.one_of(st.none(), q), label="stop")
        step = data.draw(st.integers(-40, 40).filter(bool).map(lambda v: v / 4), label="step")
    if stop is None:
        assume(start >= 0 or k != "u")
        if k == "u":
            assume(step > 0)
        out = ivy.arange(start, step=step, dtype=D(name)) if step != 1 else ivy.arange(start, dtype=D(name))
        expected = np.arange(0, start, step, dtype=NP[name]) if start >= 0 or k != "u" else None
    else:
        if k == "u":
            assume(start >= 0 and stop >= 0)
        out = ivy.arange(start, stop, step, dtype=D(name))
        expected = np.arange(start, stop, step, dtype=NP[name])
    n = max(0, math.ceil((stop - start) / step)) if stop is not None else max(0, math.ceil(start / step))
    assert out.shape == (n,)
    assert_same(out, expected, name)


@hsettings(40)
@given(data=st.data())
def test_arange_default_dtype(backend, data):
    start = data.draw(st.integers(-20, 20), label="start")
    stop = data.draw(st.integers(-20, 20), label="stop")
    x = ivy.arange(start, stop)
    assert str(x.dtype) == str(ivy.default_int_dtype())
    assert_same(x, np.arange(start, stop, dtype=NP[str(ivy.default_int_dtype())]))
    xf = ivy.arange(float(start), float(stop), 0.5)
    assert str(xf.dtype) == str(ivy.default_float_dtype())
    assert_same(xf, np.arange(start, stop, 0.5).astype(NP[str(ivy.default_float_dtype())]))


@hsettings(50)
@given(data=st.data())
def test_linspace(backend, data):
    name = draw_dtype(data, backend, "linspace", "float")
    real = st.floats(-1000, 1000, width=32)
    if kind_of(name) == "c":
        start = data.draw(st.builds(complex, real, real), label="start")
        stop = data.draw(st.builds(complex, real, real), label="stop")
    else:
        start, stop = data.draw(real, label="start"), data.draw(real, label="stop")
    num = data.draw(st.integers(0, 12), label="num")
    endpoint = data.draw(st.booleans(), label="endpoint")
    out = ivy.linspace(start, stop, num, dtype=D(name), endpoint=endpoint)
    expected = np.linspace(start, stop, num, endpoint=endpoint, dtype=np.complex128 if kind_of(name) == "c" else np.float64)
    scale = max(abs(start), abs(stop), 1.0)
    r, _ = tol_for(name)
    assert_same(out, expected.astype(NP[name]), name, rtol=r, atol=4 * r * scale)


@hsettings(60)
@given(data=st.data())
def test_full(backend, data):
    name = draw_dtype(data, backend, "full", "all")
    shape = data.draw(shapes(), label="shape")
    fill = data.draw(elements(name), label="fill_value")
    out = ivy.full(shape, fill, dtype=D(name))
    expected = np.full(shape, fill, dtype=NP[name]) if name != "bfloat16" else \
        np.full(shape, to_np(ivy.asarray(np.float32(fill), dtype=ivy.bfloat16)), dtype=np.float32)
    assert_same(out, expected, name, rtol=0, atol=0)
    # full_like, and the default dtype of a Python scalar fill value
    like = ivy.full_like(out, fill)
    assert_same(like, expected, name, rtol=0, atol=0)
    if kind_of(name) in "b":
        assert str(ivy.full((2,), fill).dtype) == "bool"
    elif kind_of(name) == "f" and name in ("float32", "float64"):
        assert str(ivy.full((2,), float(fill)).dtype) == str(ivy.default_float_dtype())


@hsettings(40)
@given(data=st.data())
def test_zeros_ones_empty(backend, data):
    name = draw_dtype(data, backend, "zeros", "all")
    shape = data.draw(shapes(), label="shape")
    for fn, npfn in ((ivy.zeros, np.zeros), (ivy.ones, np.ones)):
        assert_same(fn(shape, dtype=D(name)), npfn(shape, dtype=NP[name]), name)
    e = ivy.empty(shape, dtype=D(name))
    assert e.shape == shape and str(e.dtype) == name
    x = data.draw(arrays(name, shapes(max_dims=3)), label="x")
    other = data.draw(st.sampled_from(dtype_names(backend, "zeros_like", "all")), label="like dtype")
    for fn, npfn in ((ivy.zeros_like, np.zeros), (ivy.ones_like, np.ones)):
        assert_same(fn(x), npfn(x.shape, dtype=NP[name]), name)
        assert_same(fn(x, dtype=D(other)), npfn(x.shape, dtype=NP[other]), other)
    e = ivy.empty_like(x)
    assert e.shape == x.shape and e.dtype == x.dtype and e.backend == backend


@hsettings(50)
@given(data=st.data())
def test_eye(backend, data):
    name = draw_dtype(data, backend, "eye", "all")
    n = data.draw(st.integers(0, 6), label="n_rows")
    m = data.draw(st.one_of(st.none(), st.integers(0, 6)), label="n_cols")
    k = data.draw(st.integers(-7, 7), label="k")
    out = ivy.eye(n, m, k=k, dtype=D(name))
    assert_same(out, np.eye(n, m, k=k, dtype=NP[name]), name)


@pytest.mark.parametrize("fn", ["tril", "triu"])
@hsettings(30)
@given(data=st.data())
def test_tril_triu(backend, fn, data):
    name = draw_dtype(data, backend, fn, "all")
    x = data.draw(arrays(name, shapes(min_dims=2, max_dims=4)), label="x")
    k = data.draw(st.integers(-5, 5), label="k")
    out = getattr(ivy, fn)(x, k=k)
    assert_same(out, getattr(np, fn)(to_np(x), k=k), name, rtol=0, atol=0)


@hsettings(40)
@given(data=st.data())
def test_meshgrid(backend, data):
    name = draw_dtype(data, backend, "meshgrid", "all")
    n = data.draw(st.integers(1, 3), label="n")
    xs = [data.draw(arrays(name, (data.draw(st.integers(0, 4)),)), label=f"x{i}") for i in range(n)]
    indexing = data.draw(st.sampled_from(["xy", "ij"]), label="indexing")
    outs = ivy.meshgrid(*xs, indexing=indexing)
    exps = np.meshgrid(*[to_np(x) for x in xs], indexing=indexing)
    assert len(outs) == len(exps)
    for o, e in zip(outs, exps):
        assert_same(o, e, name, rtol=0, atol=0)


# ====================================================================== manipulation
def any_array(data, backend, fn, kind="all", **shape_kw):
    name = draw_dtype(data, backend, fn, kind)
    return name, data.draw(arrays(name, shapes(**shape_kw)), label="x")


def exact(out, expected, name):
    """Bit-for-bit values (NaN == NaN), shape and dtype."""
    assert isinstance(out, ivy.Array), f"expected an ivy array, got {type(out).__name__}"
    assert str(out.dtype) == name, f"dtype {out.dtype} != expected {name}"
    a, e = to_np(out), np.asarray(expected)
    assert a.shape == e.shape, f"shape {a.shape} != expected {e.shape}"
    np.testing.assert_array_equal(a, e)


@hsettings(40)
@given(data=st.data())
def test_concat(backend, data):
    name = draw_dtype(data, backend, "concat", "all")
    shape = data.draw(shapes(min_dims=1, max_dims=3), label="shape")
    axis = data.draw(st.integers(-len(shape), len(shape) - 1), label="axis")
    n = data.draw(st.integers(1, 3), label="n")
    names = [name] + [data.draw(st.sampled_from([m for m in dtype_names(backend, "concat", "all")
                                                 if standard_pair(name, m)]), label="dtype") for _ in range(n - 1)]
    xs = []
    for nm in names:
        s = list(shape)
        s[axis] = data.draw(st.integers(0, 3))
        xs.append(data.draw(arrays(nm, tuple(s)), label="x"))
    rn = names[0]
    for nm in names[1:]:
        rn = promote(rn, nm)
    out = ivy.concat(xs, axis=axis)
    exact(out, np.concatenate([np_ref_cast(to_np(x), rn) for x in xs], axis=axis), rn)
    out = ivy.concat(xs, axis=None)
    exact(out, np.concatenate([np_ref_cast(to_np(x), rn).ravel() for x in xs]), rn)


@hsettings(40)
@given(data=st.data())
def test_stack_unstack(backend, data):
    name, x = any_array(data, backend, "stack", max_dims=3)
    n = data.draw(st.integers(1, 3), label="n")
    xs = [x] + [data.draw(arrays(name, x.shape), label="x") for _ in range(n - 1)]
    axis = data.draw(st.integers(-x.ndim - 1, x.ndim), label="axis")
    out = ivy.stack(xs, axis=axis)
    exact(out, np.stack([to_np(v) for v in xs], axis=axis), name)
    parts = ivy.unstack(out, axis=axis)
    assert isinstance(parts, tuple) and len(parts) == n
    for p, v in zip(parts, xs):
        exact(p, to_np(v), name)


@hsettings(50)
@given(data=st.data())
def test_reshape(backend, data):
    name, x = any_array(data, backend, "reshape")
    size = math.prod(x.shape)
    # a target shape of the same size: factor size into up to 4 parts (or shapes with a 0)
    if size == 0:
        target = data.draw(st.lists(st.integers(0, 3), min_size=1, max_size=4).filter(lambda s: 0 in s), label="shape")
    else:
        divs = [d for d in range(1, size + 1) if size % d == 0]
        target, rest = [], size
        for _ in range(data.draw(st.integers(0, 3), label="ndims")):
            d = data.draw(st.sampled_from([d for d in divs if rest % d == 0]))
            target.append(d)
            rest //= d
        target.append(rest)
        if data.draw(st.booleans(), label="use -1"):
            target[data.draw(st.integers(0, len(target) - 1))] = -1
    out = ivy.reshape(x, tuple(target))
    exact(out, to_np(x).reshape(tuple(target)), name)


@hsettings(40)
@given(data=st.data())
def test_permute_dims_moveaxis(backend, data):
    name, x = any_array(data, backend, "permute_dims")
    perm = data.draw(st.permutations(range(x.ndim)), label="axes")
    exact(ivy.permute_dims(x, tuple(perm)), np.transpose(to_np(x), perm), name)
    if x.ndim:
        src = data.draw(st.lists(st.integers(-x.ndim, x.ndim - 1), unique_by=lambda v: v % x.ndim, max_size=x.ndim),
                        label="source")
        dst = data.draw(st.lists(st.integers(-x.ndim, x.ndim - 1), unique_by=lambda v: v % x.ndim,
                                 min_size=len(src), max_size=len(src)), label="destination")
        if len(src) == 1 and data.draw(st.booleans()):
            src, dst = src[0], dst[0]
        else:
            src, dst = tuple(src), tuple(dst)
        exact(ivy.moveaxis(x, src, dst), np.moveaxis(to_np(x), src, dst), name)


@hsettings(40)
@given(data=st.data())
def test_flip(backend, data):
    name, x = any_array(data, backend, "flip")
    axis = data.draw(st.one_of(st.none(), xps.valid_tuple_axes(x.ndim),
                               st.integers(-x.ndim, x.ndim - 1) if x.ndim else st.none()), label="axis")
    exact(ivy.flip(x, axis=axis), np.flip(to_np(x), axis=axis), name)


@hsettings(40)
@given(data=st.data())
def test_roll(backend, data):
    name, x = any_array(data, backend, "roll")
    if x.ndim and data.draw(st.booleans(), label="with axis"):
        axes = data.draw(xps.valid_tuple_axes(x.ndim, min_size=1), label="axis")
        shift = tuple(data.draw(st.lists(st.integers(-8, 8), min_size=len(axes), max_size=len(axes)), label="shift"))
        if len(axes) == 1 and data.draw(st.booleans()):
            axes, shift = axes[0], shift[0]
    else:
        axes, shift = None, data.draw(st.integers(-8, 8), label="shift")
    exact(ivy.roll(x, shift, axis=axes), np.roll(to_np(x), shift, axis=axes), name)


@hsettings(40)
@given(data=st.data())
def test_squeeze_expand_dims(backend, data):
    name, x = any_array(data, backend, "squeeze")
    ones = [i for i, s in enumerate(x.shape) if s == 1]
    if ones:
        ax = data.draw(st.lists(st.sampled_from(ones), unique=True, min_size=1), label="squeeze axes")
        axis = ax[0] if len(ax) == 1 else tuple(ax)
        exact(ivy.squeeze(x, axis), np.squeeze(to_np(x), axis), name)
    axis = data.draw(st.integers(-x.ndim - 1, x.ndim), label="expand axis")
    exact(ivy.expand_dims(x, axis), np.expand_dims(to_np(x), axis), name)
    nonone = [i for i, s in enumerate(x.shape) if s != 1]
    if nonone:
        with pytest.raises(ValueError):
            ivy.squeeze(x, nonone[0])


@hsettings(40)
@given(data=st.data())
def test_broadcast(backend, data):
    name = draw_dtype(data, backend, "broadcast_arrays", "all")
    n = data.draw(st.integers(1, 3), label="n")
    bs = data.draw(xps.mutually_broadcastable_shapes(n, max_side=3, max_dims=4), label="shapes")
    xs = [data.draw(arrays(name, s), label="x") for s in bs.input_shapes]
    outs = ivy.broadcast_arrays(*xs)
    exps = np.broadcast_arrays(*[to_np(x) for x in xs])
    assert len(outs) == n
    for o, e in zip(outs, exps):
        exact(o, e, name)
    assert tuple(ivy.broadcast_shapes(*bs.input_shapes)) == bs.result_shape
    target = data.draw(xps.broadcastable_shapes(xs[0].shape, min_side=0, max_side=3).map(
        lambda s: np.broadcast_shapes(s, xs[0].shape)), label="to shape")
    exact(ivy.broadcast_to(xs[0], target), np.broadcast_to(to_np(xs[0]), target), name)


@hsettings(40)
@given(data=st.data())
def test_tile(backend, data):
    name, x = any_array(data, backend, "tile", max_dims=3, max_side=3)
    reps = data.draw(st.lists(st.integers(0, 3), max_size=4), label="repetitions")
    exact(ivy.tile(x, tuple(reps)), np.tile(to_np(x), tuple(reps)), name)


@hsettings(40)
@given(data=st.data())
def test_repeat(backend, data):
    name, x = any_array(data, backend, "repeat", max_dims=3, max_side=3)
    axis = data.draw(st.one_of(st.none(), st.integers(-x.ndim, x.ndim - 1)) if x.ndim else st.none(), label="axis")
    n = x.size if axis is None else x.shape[axis]
    if data.draw(st.booleans(), label="array repeats"):
        reps_l = data.draw(st.lists(st.integers(0, 3), min_size=n, max_size=n), label="repeats")
        reps = ivy.asarray(reps_l, dtype=ivy.int64)
        ref_reps = np.asarray(reps_l, dtype=np.int64)
    else:
        reps = ref_reps = data.draw(st.integers(0, 3), label="repeats")
    exact(ivy.repeat(x, reps, axis=axis), np.repeat(to_np(x), ref_reps, axis=axis), name)


# ====================================================================== statistical
def axis_args(data, ndim):
    """axis: None, an int, or a tuple of unique axes."""
    if ndim == 0:
        return data.draw(st.sampled_from([None, ()]), label="axis")
    return data.draw(st.one_of(st.none(), st.integers(-ndim, ndim - 1), xps.valid_tuple_axes(ndim)), label="axis")


def red_tol(name, a, axis, n_terms):
    r, _ = tol_for(name)
    with np.errstate(all="ignore"):
        scale = np.nanmax(np.abs(a), initial=1.0) if a.size else 1.0
    return r * max(4, n_terms), r * max(4, n_terms) * float(scale if np.isfinite(scale) else 1.0)


def _n_reduced(shape, axis):
    if axis is None:
        return math.prod(shape)
    axes = (axis,) if isinstance(axis, int) else axis
    return math.prod(shape[a] for a in axes)


def default_sum_dtype(name):
    k = kind_of(name)
    if k == "b" or k == "i":
        return "int64"
    if k == "u":
        return "uint64"
    return name


@pytest.mark.parametrize("fn", ["sum", "prod"])
@hsettings(40)
@given(data=st.data())
def test_sum_prod(backend, fn, data):
    name = draw_dtype(data, backend, fn, "numeric")
    lim = 4 if fn == "prod" else 1000
    x = data.draw(arrays(name, shapes(max_dims=3), elements_=elements(name, lo=-lim, hi=lim, allow_nan=False,
                                                                      allow_inf=False)), label="x")
    axis = axis_args(data, x.ndim)
    keepdims = data.draw(st.booleans(), label="keepdims")
    want = data.draw(st.one_of(st.none(), st.sampled_from(
        [n for n in dtype_names(backend, fn, "numeric") if standard_pair(name, n) and promote(name, n) == n])), label="dtype")
    rn = want or default_sum_dtype(name)
    out = getattr(ivy, fn)(x, axis=axis, keepdims=keepdims, dtype=None if want is None else D(want))
    a = np_ref_cast(to_np(x), rn if rn != "bfloat16" else "float32")
    expected = getattr(np, fn)(a, axis=axis, keepdims=keepdims, dtype=a.dtype)
    r, t = red_tol(rn, a, axis, _n_reduced(x.shape, axis))
    if fn == "prod":
        t = 0
    assert_same(out, np.asarray(expected).astype(NP[rn]), rn, rtol=r, atol=t)


@pytest.mark.parametrize("fn", ["mean", "var", "std"])
@hsettings(40)
@given(data=st.data())
def test_mean_var_std(backend, fn, data):
    name = draw_dtype(data, backend, fn, "float" if fn == "mean" else "realfloat")
    x = data.draw(arrays(name, shapes(min_side=1, max_dims=3),
                         elements_=elements(name, lo=-100, hi=100, allow_nan=False, allow_inf=False)), label="x")
    axis = axis_args(data, x.ndim)
    keepdims = data.draw(st.booleans(), label="keepdims")
    a = to_np(x)
    if fn == "mean":
        out = ivy.mean(x, axis=axis, keepdims=keepdims)
        expected = np.mean(a.astype(np.complex128 if kind_of(name) == "c" else np.float64), axis=axis, keepdims=keepdims)
    else:
        corr = data.draw(st.sampled_from([0.0, 1.0]), label="correction")
        assume(_n_reduced(x.shape, axis) > corr)
        out = getattr(ivy, fn)(x, axis=axis, keepdims=keepdims, correction=corr)
        expected = getattr(np, fn)(a.astype(np.float64), axis=axis, keepdims=keepdims, ddof=corr)
    r, _ = tol_for(name)
    n = _n_reduced(x.shape, axis)
    scale = 100.0 if fn != "var" else 1e4
    assert_same(out, np.asarray(expected).astype(NP[name]), name, rtol=r * max(8, n), atol=r * max(8, n) * scale)


@pytest.mark.parametrize("fn", ["max", "min"])
@hsettings(40)
@given(data=st.data())
def test_max_min(backend, fn, data):
    name = draw_dtype(data, backend, fn, "real")
    x = data.draw(arrays(name, shapes(min_side=1, max_dims=3)), label="x")
    axis = axis_args(data, x.ndim)
    keepdims = data.draw(st.booleans(), label="keepdims")
    out = getattr(ivy, fn)(x, axis=axis, keepdims=keepdims)
    exact(out, getattr(np, "amax" if fn == "max" else "amin")(to_np(x), axis=axis, keepdims=keepdims), name)


@pytest.mark.parametrize("fn", ["cumulative_sum", "cumulative_prod"])
@hsettings(40)
@given(data=st.data())
def test_cumulative(backend, fn, data):
    name = draw_dtype(data, backend, fn, "numeric")
    lim = 3 if fn == "cumulative_prod" else 1000
    x = data.draw(arrays(name, shapes(max_dims=3), elements_=elements(name, lo=-lim, hi=lim, allow_nan=False,
                                                                      allow_inf=False)), label="x")
    assume(x.ndim >= 1)
    axis = None if x.ndim == 1 and data.draw(st.booleans(), label="axis None") else \
        data.draw(st.integers(-x.ndim, x.ndim - 1), label="axis")
    include_initial = data.draw(st.booleans(), label="include_initial")
    want = data.draw(st.one_of(st.none(), st.sampled_from(
        [n for n in dtype_names(backend, fn, "numeric") if standard_pair(name, n) and promote(name, n) == n])), label="dtype")
    rn = want or default_sum_dtype(name)
    if backend == "torch" and rn == "uint64":
        want, rn = "int64", "int64"  # documented gap (README)
    out = getattr(ivy, fn)(x, axis=axis, dtype=None if want is None else D(want), include_initial=include_initial)
    a = np_ref_cast(to_np(x), rn if rn != "bfloat16" else "float32")
    ax = 0 if axis is None else axis
    expected = (np.cumsum if fn == "cumulative_sum" else np.cumprod)(a, axis=ax, dtype=a.dtype)
    if include_initial:
        init = np.full(tuple(1 if i == ax % a.ndim else s for i, s in enumerate(a.shape)),
                       0 if fn == "cumulative_sum" else 1, dtype=a.dtype)
        expected = np.concatenate([init, expected], axis=ax)
    r, t = red_tol(rn, a, ax, a.shape[ax] if a.ndim else 1)
    assert_same(out, np.asarray(expected).astype(NP[rn]), rn, rtol=r, atol=0 if fn == "cumulative_prod" else t)


# ====================================================================== searching / sorting
@pytest.mark.parametrize("fn", ["argmax", "argmin"])
@hsettings(40)
@given(data=st.data())
def test_argmax_argmin(backend, fn, data):
    name = draw_dtype(data, backend, fn, "real")
    x = data.draw(arrays(name, shapes(min_side=1, max_dims=3), elements_=elements(name, allow_nan=False)), label="x")
    axis = None if x.ndim == 0 else data.draw(st.one_of(st.none(), st.integers(-x.ndim, x.ndim - 1)), label="axis")
    keepdims = data.draw(st.booleans(), label="keepdims")
    out = getattr(ivy, fn)(x, axis=axis, keepdims=keepdims)
    a = to_np(x)
    expected = getattr(np, fn)(a, axis=axis, keepdims=keepdims)
    exact(out, np.asarray(expected).astype(np.int64), "int64")


@hsettings(50)
@given(data=st.data())
def test_where(backend, data):
    n1 = draw_dtype(data, backend, "where", "all", "dtype1")
    n2 = data.draw(st.sampled_from([n for n in dtype_names(backend, "where", "all") if standard_pair(n1, n)]),
                   label="dtype2")
    bs = data.draw(xps.mutually_broadcastable_shapes(3, max_side=3, max_dims=3), label="shapes")
    c = data.draw(arrays("bool", bs.input_shapes[0]), label="condition")
    x1 = data.draw(arrays(n1, bs.input_shapes[1]), label="x1")
    x2 = data.draw(arrays(n2, bs.input_shapes[2]), label="x2")
    rn = promote(n1, n2)
    out = ivy.where(c, x1, x2)
    expected = np.where(to_np(c), np_ref_cast(to_np(x1), rn), np_ref_cast(to_np(x2), rn))
    exact(out, expected, rn)
    # a Python scalar operand takes the other operand's dtype
    s = data.draw(elements(n1), label="scalar")
    if kind_of(n1) in "iu":
        s = int(s)
    out = ivy.where(c, x1, s)
    sa = np.asarray(s).astype(NP[n1]) if n1 != "bfloat16" else to_np(ivy.asarray(np.float32(s), dtype=ivy.bfloat16))
    exact(out, np.where(to_np(c), to_np(x1), sa), n1)


@hsettings(40)
@given(data=st.data())
def test_nonzero(backend, data):
    name, x = any_array(data, backend, "nonzero", min_dims=1, max_dims=3)
    out = ivy.nonzero(x)
    exps = np.nonzero(to_np(x))
    assert isinstance(out, tuple) and len(out) == len(exps)
    for o, e in zip(out, exps):
        exact(o, e.astype(np.int64), "int64")


@hsettings(50)
@given(data=st.data())
def test_searchsorted(backend, data):
    name = draw_dtype(data, backend, "searchsorted", "real")
    el = elements(name, allow_nan=False)
    x1 = data.draw(arrays(name, (data.draw(st.integers(0, 8), label="n"),), elements_=el), label="x1")
    use_sorter = data.draw(st.booleans(), label="sorter")
    a1 = to_np(x1)
    if use_sorter:
        order = np.argsort(a1, kind="stable")
        sorter = ivy.asarray(order.astype(np.int64))
    else:
        x1 = ivy.sort(x1)
        a1 = np.sort(a1)
        sorter = None
    x2 = data.draw(arrays(name, shapes(max_dims=2), elements_=el), label="x2")
    side = data.draw(st.sampled_from(["left", "right"]), label="side")
    out = ivy.searchsorted(x1, x2, side=side, sorter=sorter)
    expected = np.searchsorted(a1, to_np(x2), side=side, sorter=None if sorter is None else order)
    exact(out, expected.astype(np.int64), "int64")


def _stable_argsort(a, axis, descending):
    """Reference stable argsort; descending keeps equal elements in their original order."""
    a = np.moveaxis(a, axis, -1)
    out = np.empty(a.shape, dtype=np.int64)
    for idx in np.ndindex(a.shape[:-1]):
        row = a[idx].tolist()  # Python numbers: negation cannot overflow
        key = (lambda i: (-row[i], i)) if descending else (lambda i: (row[i], i))
        out[idx] = sorted(range(len(row)), key=key)
    return np.moveaxis(out, -1, axis)


@pytest.mark.parametrize("fn", ["sort", "argsort"])
@hsettings(50)
@given(data=st.data())
def test_sort_argsort(backend, fn, data):
    name = draw_dtype(data, backend, fn, "real")
    x = data.draw(arrays(name, shapes(min_dims=1, max_dims=3, max_side=6),
                         elements_=st.one_of(elements(name, allow_nan=False, specials=False),
                                             elements(name, lo=-2, hi=2, allow_nan=False, specials=False).map(
                                                 lambda v: float(int(v)) if isinstance(v, float) else v))),
                  label="x")
    axis = data.draw(st.integers(-x.ndim, x.ndim - 1), label="axis")
    descending = data.draw(st.booleans(), label="descending")
    stable = data.draw(st.booleans(), label="stable")
    a = to_np(x)
    idx = _stable_argsort(a, axis % a.ndim, descending)
    if fn == "argsort":
        out = ivy.argsort(x, axis=axis, descending=descending, stable=stable)
        assert str(out.dtype) == "int64"
        if stable:
            exact(out, idx, "int64")
        else:  # any order of ties: the gathered values must be sorted
            got = np.take_along_axis(a, to_np(out).astype(np.int64), axis=axis)
            np.testing.assert_array_equal(got, np.take_along_axis(a, idx, axis=axis))
            np.testing.assert_array_equal(np.sort(to_np(out), axis=axis),
                                          np.broadcast_to(np.arange(a.shape[axis]).reshape(
                                              [-1 if i == axis % a.ndim else 1 for i in range(a.ndim)]), a.shape))
    else:
        out = ivy.sort(x, axis=axis, descending=descending, stable=stable)
        exact(out, np.take_along_axis(a, idx, axis=axis), name)


# ====================================================================== set functions
@hsettings(50)
@given(data=st.data())
def test_unique(backend, data):
    name = draw_dtype(data, backend, "unique_all", "real")
    el = st.one_of(elements(name, allow_nan=False), elements(name, lo=-3, hi=3, allow_nan=False, specials=False))
    x = data.draw(arrays(name, shapes(max_dims=3), elements_=el), label="x")
    a = to_np(x)
    flat = a.ravel()
    vals_np, idx_np, inv_np, cnt_np = np.unique(flat, return_index=True, return_inverse=True, return_counts=True)

    v = ivy.unique_values(x)
    got = np.sort(to_np(v))
    exact(ivy.asarray(got, dtype=D(name)), vals_np, name)

    res = ivy.unique_counts(x)
    order = np.argsort(to_np(res.values), kind="stable")
    np.testing.assert_array_equal(to_np(res.values)[order], vals_np)
    np.testing.assert_array_equal(to_np(res.counts)[order], cnt_np)
    assert str(res.counts.dtype) == "int64"

    res = ivy.unique_inverse(x)
    assert res.inverse_indices.shape == x.shape
    assert str(res.inverse_indices.dtype) == "int64"
    np.testing.assert_array_equal(to_np(res.values)[to_np(res.inverse_indices)], a)

    res = ivy.unique_all(x)
    assert res.inverse_indices.shape == x.shape
    vals = to_np(res.values)
    np.testing.assert_array_equal(np.sort(vals), vals_np)
    np.testing.assert_array_equal(flat[to_np(res.indices)], vals)
    np.testing.assert_array_equal(vals[to_np(res.inverse_indices)], a)
    np.testing.assert_array_equal(to_np(res.counts), [np.count_nonzero(flat == u) for u in vals])


@hsettings(40)
@given(data=st.data())
def test_isin(backend, data):
    name = draw_dtype(data, backend, "isin", "real")
    el = elements(name, lo=-4, hi=4, allow_nan=False, specials=False).map(
        lambda v: float(round(v)) if isinstance(v, float) else v)
    x1 = data.draw(arrays(name, shapes(max_dims=3), elements_=el), label="x1")
    x2 = data.draw(arrays(name, shapes(max_dims=2), elements_=el), label="x2")
    invert = data.draw(st.booleans(), label="invert")
    exact(ivy.isin(x1, x2, invert=invert), np.isin(to_np(x1), to_np(x2), invert=invert), "bool")


# ====================================================================== indexing
@hsettings(60)
@given(data=st.data())
def test_basic_indexing(backend, data):
    """Integers (negative too), slices with steps, ellipsis and None."""
    name, x = any_array(data, backend, "asarray", max_dims=4, max_side=5)
    idx = data.draw(xps.indices(x.shape, allow_newaxis=True, allow_ellipsis=True), label="index")
    out = x[idx]
    exact(out, to_np(x)[idx], name)


@hsettings(40)
@given(data=st.data())
def test_boolean_mask_indexing(backend, data):
    name, x = any_array(data, backend, "asarray", min_dims=1, max_dims=3)
    k = data.draw(st.integers(1, x.ndim), label="mask ndim")
    m = data.draw(arrays("bool", x.shape[:k]), label="mask")
    if data.draw(st.booleans(), label="leading ellipsis") and k < x.ndim:
        m = data.draw(arrays("bool", x.shape[x.ndim - k:]), label="mask")
        idx = (Ellipsis, m)
        np_idx = (Ellipsis, to_np(m))
    else:
        idx, np_idx = m, to_np(m)
    exact(x[idx], to_np(x)[np_idx], name)


@hsettings(40)
@given(data=st.data())
def test_integer_array_indexing(backend, data):
    name, x = any_array(data, backend, "asarray", min_dims=1, max_dims=3, min_side=1)
    ishape = data.draw(shapes(max_dims=2, max_side=3), label="index shape")
    n_arrays = data.draw(st.integers(1, x.ndim), label="n index arrays")
    idx = []
    for ax in range(n_arrays):
        n = x.shape[ax]
        i = data.draw(xps.arrays(ivy.int64, ishape, elements=st.integers(-n, n - 1)), label=f"index{ax}")
        idx.append(i)
    out = x[tuple(idx)]
    exact(out, to_np(x)[tuple(to_np(i) for i in idx)], name)
    # integer arrays mixed with an integer and a slice
    if x.ndim >= 2:
        i = data.draw(xps.arrays(ivy.int64, ishape, elements=st.integers(-x.shape[0], x.shape[0] - 1)), label="i")
        exact(x[i, 1:], to_np(x)[to_np(i), 1:], name)
        exact(x[:, i % x.shape[1] if x.shape[1] != x.shape[0] else i], to_np(x)[:, to_np(i) % x.shape[1]
              if x.shape[1] != x.shape[0] else to_np(i)], name)


@hsettings(60)
@given(data=st.data())
def test_setitem(backend, data):
    name, x = any_array(data, backend, "asarray", max_dims=3, max_side=4)
    a = to_np(x).copy()
    kind = data.draw(st.sampled_from(["basic", "mask", "int array"]), label="index kind")
    if kind == "basic" or x.ndim == 0:
        idx = data.draw(xps.indices(x.shape, allow_newaxis=False, allow_ellipsis=True), label="index")
        np_idx = idx
    elif kind == "mask":
        idx = data.draw(arrays("bool", x.shape), label="mask")
        np_idx = to_np(idx)
    else:
        assume(x.shape[0] > 0)
        idx = data.draw(xps.arrays(ivy.int64, (data.draw(st.integers(0, min(3, x.shape[0]))),),
                                   elements=st.integers(-x.shape[0], x.shape[0] - 1), unique=True), label="index")
        np_idx = to_np(idx)
    target_shape = a[np_idx].shape
    if data.draw(st.booleans(), label="scalar value"):
        v = data.draw(elements(name), label="value")
        if name == "bfloat16":
            v = float(to_np(ivy.asarray(np.float32(v), dtype=ivy.bfloat16)))
        val, np_val = v, v
    else:
        vshape = data.draw(xps.broadcastable_shapes(target_shape, min_side=0, max_side=4).filter(
            lambda s: np.broadcast_shapes(s, target_shape) == target_shape), label="value shape")
        val = data.draw(arrays(name, vshape), label="value")
        np_val = to_np(val)
    alias = x
    x[idx] = val
    with np.errstate(all="ignore"):
        a[np_idx] = np_val if name != "bfloat16" else np.asarray(np_val, dtype=np.float32)
    exact(x, a, name)
    exact(alias, a, name)


@hsettings(40)
@given(data=st.data())
def test_take(backend, data):
    name, x = any_array(data, backend, "take", min_dims=1, max_dims=3, min_side=1)
    axis = data.draw(st.integers(-x.ndim, x.ndim - 1), label="axis") if x.ndim > 1 else \
        data.draw(st.sampled_from([None, 0, -1]), label="axis")
    n = x.size if axis is None else x.shape[axis]
    i = data.draw(xps.arrays(ivy.int64, (data.draw(st.integers(0, 4)),), elements=st.integers(-n, n - 1)),
                  label="indices")
    exact(ivy.take(x, i, axis=axis), np.take(to_np(x), to_np(i), axis=axis), name)


# ====================================================================== conversion round trip
@hsettings(60)
@given(data=st.data())
def test_asarray_roundtrip(backend, data):
    """Hypothesis' own strategy (Python lists -> asarray, full + __setitem__) and item()."""
    name = draw_dtype(data, backend, "asarray", "all")
    x = data.draw(arrays(name, shapes()), label="x")
    assert x.backend == backend
    a = to_np(x)
    if x.size == 1:
        v = ivy.reshape(x, ()).item()
        e = a.reshape(()).item()
        assert v == e or (v != v and e != e), (v, e)
        assert type(v) is type(e) or name == "bfloat16" or kind_of(name) in "fc"
    if x.size or x.ndim <= 1:  # nested empty lists cannot say their shape
        y = ivy.asarray(x.tolist(), dtype=x.dtype)
        exact(y, a, name)
    z = ivy.from_dlpack(a) if name not in ("bfloat16", "bool") else ivy.asarray(a, dtype=x.dtype)
    exact(z, a, name)


# ====================================================================== regressions and known limits
# Bugs this suite found, each pinned by a direct test (the property tests above cover the
# same ground with random data).
@pytest.mark.parametrize("fn", ["sum", "prod", "cumulative_sum", "cumulative_prod"])
@pytest.mark.parametrize("dtype", ["int16", "int32", "uint8"])
def test_int_accumulator_dtype(backend, fn, dtype):
    """Reductions with an integer dtype= store that dtype (LibTorch promotes to int64)."""
    x = ivy.asarray([[1, 2], [3, 1]], dtype=ivy.int8)
    out = getattr(ivy, fn)(x, axis=1, dtype=D(dtype))
    expected = getattr(np, {"cumulative_sum": "cumsum", "cumulative_prod": "cumprod"}.get(fn, fn))(
        np.array([[1, 2], [3, 1]], np.int8), axis=1, dtype=NP[dtype])
    exact(out, expected, dtype)
    assert np.from_dlpack(out).dtype == NP[dtype] if dtype != "uint8" else True


@pytest.mark.parametrize("fn,dtype", sorted(KNOWN_TORCH_GAPS))
def test_half_kernels(backend, fn, dtype):
    """Half-precision functions LibTorch 1.13 has no CPU kernel for compute in float32."""
    if not supported(backend, fn, dtype):
        pytest.skip(f"{dtype} is not supported on {backend}")
    a = np.array([1.0, 2.0, 4.0], np.float32)
    x = ivy.asarray(a, dtype=D(dtype))
    if fn == "isin":
        out = ivy.isin(x, ivy.asarray(np.array([2.0], np.float32), dtype=D(dtype)))
        assert to_np(out).tolist() == [False, True, False]
        return
    out = getattr(ivy, fn)(x)
    assert out.dtype == D(dtype)
    ref = {"prod": np.prod(a), "std": np.std(a), "cumulative_sum": np.cumsum(a)}[fn]
    np.testing.assert_allclose(to_np(ivy.astype(out, ivy.float32)), ref, rtol=1e-2)


@pytest.mark.parametrize("op", ["add", "subtract"])
def test_complex_add_infinite_part(backend, op):
    """Complex sums are componentwise: an infinite part leaves the other part alone."""
    z = ivy.asarray(np.array([0j, 1 + 2j], np.complex64))
    w = ivy.asarray(np.array([complex(0, math.inf), complex(math.inf, 1)], np.complex64))
    out = getattr(ivy, op)(z, w)
    exact(out, getattr(np, op)(to_np(z), to_np(w)), "complex64")


def test_complex_abs_large(backend):
    a = np.array([0j, 0j, 0j, 2.0 ** 512 * 1j, 3e300 + 4e300j])
    exact_close = np.abs(a)
    np.testing.assert_allclose(to_np(ivy.abs(ivy.asarray(a))), exact_close, rtol=1e-15)


def test_complex_sign_tiny(backend):
    a = np.array([complex(1e-23, 0.0), complex(0, -1e-30), 0j], np.complex64)
    assert_same(ivy.sign(ivy.asarray(a)), np.array([1 + 0j, -1j, 0j], np.complex64), "complex64")


@pytest.mark.parametrize("dtype", ["uint8", "uint16", "uint32", "uint64"])
def test_unsigned_scalar_read(backend, dtype):
    """Every unsigned dtype reads back as Python scalars on every backend."""
    if not supported(backend, "asarray", dtype):
        pytest.skip(f"{dtype} is not supported on {backend}")
    x = ivy.asarray([7, 200], dtype=D(dtype))
    assert x[0].item() == 7 and int(x[1]) == 200 and float(x[1]) == 200.0 and complex(x[0]) == 7
    assert bool(x[0]) and operator.index(x[1]) == 200 and "200" in repr(x) and dtype in repr(x)


@pytest.mark.parametrize("v", [2 ** 63, 2 ** 64 - 1])
def test_uint64_scalars_python(backend, v):
    """uint64 elements above int64's range keep their value."""
    if not supported(backend, "asarray", "uint64"):
        pytest.skip("no uint64 on this backend")
    x = ivy.asarray([v, 1], dtype=ivy.uint64)
    assert x[0].item() == v and int(x[0]) == v and float(x[0]) == float(v) and x.tolist() == [v, 1]
    assert operator.index(x[1]) == 1 and ivy.full((2,), v, dtype=ivy.uint64).tolist() == [v, v]
    assert str(v) in repr(x)


def test_int_of_bool_is_int(backend):
    r = int(ivy.asarray(True))
    assert r == 1 and type(r) is int


def test_complex_atan_pole(backend):
    """atan at its poles (+-1j) is 0 +- inf j as the standard (atan(z) = -i atanh(i z)) and
    NumPy have it (LibTorch gives nan+nanj; ivy recomputes such elements)."""
    a = np.array([1j, -1j], np.complex128)
    with np.errstate(all="ignore"):
        exact(ivy.atan(ivy.asarray(a)), np.arctan(a), "complex128")


@pytest.mark.parametrize("fn,z", [("log1p", complex(-2.0, -0.0)), ("atan", complex(0.0, 2.0))])
def test_complex_branch_cut_signed_zero(backend, fn, z):
    """The sign of a zero component picks the side of a branch cut, as in C99 and NumPy:
    log1p(-2-0j) = log(1) - pi j, atan(+0+2j) has real part +pi/2 (LibTorch ignores it)."""
    a = np.array([z], np.complex64)
    exact_close = getattr(np, {"atan": "arctan"}.get(fn, fn))(a)
    assert_same(getattr(ivy, fn)(ivy.asarray(a)), exact_close, "complex64")


@pytest.mark.parametrize("fn", ["acos", "acosh", "asin", "asinh", "atan", "atanh", "cos", "cosh", "exp", "expm1",
                                "log", "log1p", "log2", "log10", "sin", "sinh", "sqrt", "tan", "tanh"])
def test_complex_special_values_agree_across_backends(fn):
    """At infinities, NaN and signed zeros the complex functions give the same values, bit for
    bit, on every backend (the standard's tables; complex_special.hpp)."""
    vals = [0.0, -0.0, 1.0, -1.5, math.inf, -math.inf, math.nan]
    a = np.array([complex(r, i) for r in vals for i in vals], np.complex128)
    got = {}
    for b in ivy.available_backends():
        with ivy.BackendScope(b):
            got[b] = to_np(getattr(ivy, fn)(ivy.asarray(a)))
    # the covered arguments (a component infinite, NaN or zero) bit for bit; the others to
    # rounding (each backend's own accurate implementation)
    covered = ~np.isfinite(a.real) | ~np.isfinite(a.imag) | (a.real == 0) | (a.imag == 0)
    ref = got[next(iter(got))]
    for b, v in got.items():
        np.testing.assert_allclose(v[~covered], ref[~covered], rtol=1e-15, atol=0, err_msg=f"{fn} on {b}")
        v, ref_c = v[covered], ref[covered]
        for part in ("real", "imag"):
            p, r = getattr(v, part), getattr(ref_c, part)
            np.testing.assert_array_equal(np.isnan(p), np.isnan(r), err_msg=f"{fn} {part} on {b}")
            keep = ~np.isnan(r)
            np.testing.assert_array_equal(p[keep], r[keep], err_msg=f"{fn} {part} on {b}")
            np.testing.assert_array_equal(np.signbit(p[keep]), np.signbit(r[keep]), err_msg=f"{fn} {part} on {b}")

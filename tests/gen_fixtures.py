#!/usr/bin/env python3
"""Generate the reference values for ivy's conformance suite (tests/test_fixtures.cpp).

Expected values come from NumPy (Debian's python3-numpy, 1.24), an implementation
independent of both ivy backends. Run from the repository root:

    /usr/bin/python3 tests/gen_fixtures.py            # writes tests/fixtures/fixtures.json
    /usr/bin/python3 tests/gen_fixtures.py -o out.json

Only NumPy and the standard library are needed. The output is deterministic (fixed seed,
fixed case order), so re-running it gives the identical file; commit the JSON together
with this script.

File format: a JSON list of cases

    {"fn": "add" | "linalg.det" | "fft.rfft" | ...,
     "args": [array, ...],            # positional array arguments, in order
     "kwargs": {...},                 # the remaining arguments by their C++/standard name
     "expected": [array, ...],        # every output, in the standard's order
     "check": {...}}                  # optional: "rtol", "atol", "zero_sign" (compare the
                                      # sign of zeros), "values": false (shape/dtype only)

with an array written as {"dtype": "float64", "shape": [2, 3], "data": [...]}: the data
flat in row-major order, complex values as [re, im] pairs, and the non-finite floats as
the strings "nan", "inf" and "-inf". kwargs values are JSON numbers, booleans, strings,
lists, null, or dtype names (strings) for the "dtype" keyword; a scalar operand of a
binary function is given as kwargs "x1"/"x2" (a number, or {"complex": [re, im]}).

Where ivy follows the standard and NumPy 1.24 does not, the expected value is computed
from the standard's definition instead (noted next to the case): sign of complex
numbers, the shape of unique_*'s inverse indices, vecdot, fft dtypes for float32 input,
descending stable sorts, and the dtypes of integer -> floating functions are avoided.
"""

import argparse
import json
import math
import os
import sys

import numpy as np

RNG = np.random.default_rng(0)
CASES = []

F64, F32 = np.float64, np.float32
C64, C128 = np.complex64, np.complex128
INT_DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]


# --------------------------------------------------------------------------- encoding
def enc_float(v):
    v = float(v)
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return v


def enc(a):
    a = np.asarray(a)
    name = a.dtype.name
    if name == "bool":
        data = [bool(v) for v in a.ravel()]
    elif a.dtype.kind in "iu":
        data = [int(v) for v in a.ravel()]
    elif a.dtype.kind == "c":
        data = [[enc_float(v.real), enc_float(v.imag)] for v in a.ravel()]
    elif a.dtype.kind == "f":
        data = [enc_float(v) for v in a.ravel()]
    else:
        raise TypeError("cannot encode dtype %s" % name)
    return {"dtype": name, "shape": [int(d) for d in a.shape], "data": data}


def add_case(fn, args, expected, kwargs=None, check=None):
    if not isinstance(expected, (list, tuple)):
        expected = [expected]
    c = {
        "fn": fn,
        "args": [enc(a) for a in args],
        "kwargs": kwargs or {},
        "expected": [enc(e) for e in expected],
    }
    if fn == "nextafter":  # one ulp apart is the whole point: compare exactly
        check = dict(check or {}, rtol=0.0, atol=0.0)
    if check:
        c["check"] = check
    CASES.append(c)


# --------------------------------------------------------------------------- inputs
def uni(lo, hi, shape, dtype=F64):
    return RNG.uniform(lo, hi, size=shape).astype(dtype)


def ints(lo, hi, shape, dtype):
    return RNG.integers(lo, hi, size=shape, endpoint=True).astype(dtype)


def cplx(shape, dtype=C128, lo=0.2, hi=2.0):
    """Complex values with both parts bounded away from 0 (off every branch cut)."""
    re = RNG.uniform(lo, hi, size=shape) * RNG.choice([-1.0, 1.0], size=shape)
    im = RNG.uniform(lo, hi, size=shape) * RNG.choice([-1.0, 1.0], size=shape)
    return (re + 1j * im).astype(dtype)


SPECIAL = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 3.0])


def special_grid(vals):
    a, b = np.meshgrid(vals, vals, indexing="ij")
    return a.ravel().copy(), b.ravel().copy()


# --------------------------------------------------------------------------- elementwise
# Real domain (lo, hi) per unary function, chosen inside the function's domain.
UNARY_REAL = {
    "abs": (np.abs, (-3, 3)),
    "acos": (np.arccos, (-0.95, 0.95)),
    "acosh": (np.arccosh, (1.05, 5)),
    "asin": (np.arcsin, (-0.95, 0.95)),
    "asinh": (np.arcsinh, (-3, 3)),
    "atan": (np.arctan, (-3, 3)),
    "atanh": (np.arctanh, (-0.95, 0.95)),
    "ceil": (np.ceil, (-3, 3)),
    "conj": (np.conj, (-3, 3)),
    "cos": (np.cos, (-3, 3)),
    "cosh": (np.cosh, (-4, 4)),
    "exp": (np.exp, (-5, 5)),
    "expm1": (np.expm1, (-2, 2)),
    "floor": (np.floor, (-3, 3)),
    "imag": (np.imag, (-3, 3)),
    "isfinite": (np.isfinite, (-3, 3)),
    "isinf": (np.isinf, (-3, 3)),
    "isnan": (np.isnan, (-3, 3)),
    "log": (np.log, (0.05, 10)),
    "log1p": (np.log1p, (-0.9, 5)),
    "log2": (np.log2, (0.05, 10)),
    "log10": (np.log10, (0.05, 10)),
    "logical_not": (np.logical_not, (-1, 1)),
    "negative": (np.negative, (-3, 3)),
    "positive": (np.positive, (-3, 3)),
    "real": (np.real, (-3, 3)),
    "reciprocal": (np.reciprocal, (0.5, 3)),
    "round": (np.round, (-3, 3)),
    "sign": (np.sign, (-3, 3)),
    "signbit": (np.signbit, (-3, 3)),
    "sin": (np.sin, (-3, 3)),
    "sinh": (np.sinh, (-4, 4)),
    "square": (np.square, (-3, 3)),
    "sqrt": (np.sqrt, (0, 10)),
    "tan": (np.tan, (-1.4, 1.4)),
    "tanh": (np.tanh, (-3, 3)),
    "trunc": (np.trunc, (-3, 3)),
}

# Functions whose special cases in the standard fix the sign of a zero result.
ZERO_SIGN_UNARY = {"abs", "ceil", "floor", "trunc", "round", "sin", "tan", "asin", "atan", "sinh", "tanh",
                   "asinh", "atanh", "expm1", "log1p", "sqrt", "negative", "positive", "conj", "signbit"}


def complex_sign(z):
    """sign(z) = z / |z| (0 for 0), as the standard defines it; NumPy 1.24 differs."""
    az = np.abs(z)
    out = np.zeros_like(z)
    nz = az != 0
    out[nz] = z[nz] / az[nz]
    return out


def gen_unary():
    for name, (f, (lo, hi)) in UNARY_REAL.items():
        for dt, shape in ((F64, (2, 3)), (F32, (5,))):
            x = uni(lo, hi, shape, dt)
            if name == "reciprocal":
                x = (x * RNG.choice([-1, 1], size=shape)).astype(dt)
            if name == "round" and dt == F64:  # halves round to even
                x = np.array([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5], dtype=dt).reshape(shape)
            add_case(name, [x], f(x))
        # a 0-d input and an empty input keep their shapes
        x0 = np.array(uni(lo, hi, (), F64))
        add_case(name, [x0], np.asarray(f(x0)))
        xe = np.zeros((0, 3), dtype=F32)
        add_case(name, [xe], np.asarray(f(xe)))
        # special values (NaN, +-inf, +-0) in both float dtypes
        with np.errstate(all="ignore"):
            for dt in (F64, F32):
                x = SPECIAL.astype(dt)
                y = f(x)
                check = {"zero_sign": True} if name in ZERO_SIGN_UNARY else None
                add_case(name, [x], y, check=check)

    # integer inputs for the functions that keep integer dtypes
    int_same = {
        "abs": np.abs, "negative": np.negative, "positive": np.positive, "square": np.square,
        "sign": np.sign, "bitwise_invert": np.invert,
        # ceil/floor/round/trunc are the identity on integers (NumPy would return float64)
        "ceil": lambda v: v.copy(), "floor": lambda v: v.copy(), "round": lambda v: v.copy(),
        "trunc": lambda v: v.copy(),
    }
    for name, f in int_same.items():
        for dt in (np.int8, np.int32, np.int64, np.uint8, np.uint16):
            lo = 0 if np.dtype(dt).kind == "u" else -9
            if name == "negative" and lo == 0:
                continue  # wraps around for unsigned: implementation-defined in practice
            x = ints(lo, 9, (2, 3), dt)
            add_case(name, [x], f(x))
    for name, f in {"isfinite": np.isfinite, "isinf": np.isinf, "isnan": np.isnan, "signbit": np.signbit,
                    "logical_not": np.logical_not, "real": np.real, "conj": np.conj}.items():
        x = ints(-5, 5, (4,), np.int32)
        if name == "signbit":
            add_case(name, [x], x < 0)
        else:
            add_case(name, [x], f(x))
    # bool inputs
    b = np.array([[True, False, True], [False, False, True]])
    add_case("logical_not", [b], np.logical_not(b))
    add_case("bitwise_invert", [b], np.invert(b))

    # complex inputs
    cfun = {
        "abs": np.abs, "acos": np.arccos, "acosh": np.arccosh, "asin": np.arcsin, "asinh": np.arcsinh,
        "atan": np.arctan, "atanh": np.arctanh, "conj": np.conj, "cos": np.cos, "cosh": np.cosh,
        "exp": np.exp, "expm1": np.expm1, "imag": np.imag, "isfinite": np.isfinite, "isinf": np.isinf,
        "isnan": np.isnan, "log": np.log, "log1p": np.log1p, "log2": np.log2, "log10": np.log10,
        "logical_not": np.logical_not, "negative": np.negative, "positive": np.positive, "real": np.real,
        "reciprocal": np.reciprocal, "round": np.round, "sign": complex_sign, "sin": np.sin, "sinh": np.sinh,
        "square": np.square, "sqrt": np.sqrt, "tan": np.tan, "tanh": np.tanh,
    }
    for name, f in cfun.items():
        for dt, shape in ((C128, (2, 2)), (C64, (3,))):
            z = cplx(shape, dt)
            if name == "round":
                z = (z * 3).astype(dt)
            add_case(name, [z], f(z))
    zs = np.array([complex(np.nan, 0), complex(np.inf, 1), complex(1, -np.inf), 0j, 1 + 1j], dtype=C128)
    for name in ("isfinite", "isinf", "isnan"):
        add_case(name, [zs], cfun[name](zs))


BINARY = {
    "add": np.add, "atan2": np.arctan2, "copysign": np.copysign, "divide": np.divide, "equal": np.equal,
    "floor_divide": np.floor_divide, "greater": np.greater, "greater_equal": np.greater_equal,
    "hypot": np.hypot, "less": np.less, "less_equal": np.less_equal, "logaddexp": np.logaddexp,
    "logical_and": np.logical_and, "logical_or": np.logical_or, "logical_xor": np.logical_xor,
    "maximum": np.maximum, "minimum": np.minimum, "multiply": np.multiply, "nextafter": np.nextafter,
    "not_equal": np.not_equal, "pow": np.power, "remainder": np.remainder, "subtract": np.subtract,
}
BITWISE = {
    "bitwise_and": np.bitwise_and, "bitwise_or": np.bitwise_or, "bitwise_xor": np.bitwise_xor,
    "bitwise_left_shift": np.left_shift, "bitwise_right_shift": np.right_shift,
}
ZERO_SIGN_BINARY = {"atan2", "copysign", "multiply", "divide", "nextafter"}


def gen_binary():
    for name, f in BINARY.items():
        lo, hi = (-3, 3)
        if name == "pow":
            lo, hi = (0.1, 3)
        # same shape, broadcasting (3,1)x(1,4), (2,3)x(3,), 0-d x (2,2); float64 and float32
        pairs = [((2, 3), (2, 3), F64), ((3, 1), (1, 4), F64), ((2, 3), (3,), F32), ((), (2, 2), F32),
                 ((4,), (4,), F32)]
        for s1, s2, dt in pairs:
            a, b = uni(lo, hi, s1, dt), uni(lo, hi, s2, dt)
            if name in ("divide", "floor_divide", "remainder"):
                b = np.where(np.abs(b) < 0.3, 0.7, b).astype(dt)
            if name in ("equal", "not_equal", "greater", "greater_equal", "less", "less_equal", "maximum",
                        "minimum") and a.shape == b.shape and a.size:
                b.ravel()[::2] = a.ravel()[::2]  # some ties
            add_case(name, [a, b], f(a, b))
        # mixed float32/float64 promotes to float64
        a, b = uni(lo, hi, (3,), F32), uni(lo, hi, (3,), F64)
        add_case(name, [a, b], f(a, b))
        # special values: every pair from SPECIAL (floor_divide/remainder: no infinities, where
        # the standard and Python's semantics disagree)
        vals = SPECIAL
        if name in ("floor_divide", "remainder"):
            vals = np.array([np.nan, 0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 3.0])
        with np.errstate(all="ignore"):
            for dt in (F64, F32):
                a, b = special_grid(vals.astype(dt))
                check = {"zero_sign": True} if name in ZERO_SIGN_BINARY else None
                add_case(name, [a, b], f(a, b), check=check)

    # floor_divide/remainder near quotient boundaries, compared exactly: a = k*b nudged by a
    # few ulps either way, |a| << |b| and |a| >> |b|, all sign combinations (the kernels take a
    # fast path and must agree with NumPy's fmod-based definition bit for bit)
    for dt in (F64, F32):
        n = 600
        b = (RNG.uniform(0.05, 40.0, n) * RNG.choice([-1.0, 1.0], n)).astype(dt)
        k = RNG.integers(-1000, 1000, n).astype(dt)
        a = (k * b).astype(dt)
        steps = RNG.integers(-3, 4, n)
        for _ in range(3):  # up to 3 ulps away from k*b
            a = np.where(steps > 0, np.nextafter(a, dt(np.inf)), np.where(steps < 0, np.nextafter(a, dt(-np.inf)), a))
            steps = steps - np.sign(steps)
        tiny = (RNG.uniform(1e-12, 1e-6, 100) * RNG.choice([-1.0, 1.0], 100)).astype(dt)
        big = (RNG.uniform(1e6, 1e9, 100) * RNG.choice([-1.0, 1.0], 100)).astype(dt)
        a = np.concatenate([a, tiny, big, np.array([1.0, -1.0, 7.0, -7.0], dt)])
        b = np.concatenate([b, big[::-1] / 1e3, tiny[::-1] * 1e3 + 1.0, np.array([0.1, 0.1, -0.7, 0.7], dt)])
        for name in ("floor_divide", "remainder"):
            add_case(name, [a, b], BINARY[name](a, b), check={"rtol": 0.0, "atol": 0.0, "zero_sign": True})

    # integer arithmetic and comparisons, several dtypes (and a mixed one)
    int_ops = ["add", "subtract", "multiply", "floor_divide", "remainder", "pow", "maximum", "minimum", "equal",
               "not_equal", "greater", "greater_equal", "less", "less_equal"]
    for name in int_ops:
        f = BINARY[name]
        for dt in (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint32):
            signed = np.dtype(dt).kind == "i"
            a = ints(-6 if signed else 0, 6, (2, 3), dt)
            b = ints(-6 if signed else 0, 6, (3,), dt)
            if name in ("floor_divide", "remainder"):
                b = np.where(b == 0, 3, b).astype(dt)
            if name == "pow":
                a = ints(-3 if signed else 0, 3, (2, 3), dt)
                b = ints(0, 3, (3,), dt)
            if name == "subtract" and not signed:
                a, b = np.maximum(a, b[None, :]), b
            add_case(name, [a, b], f(a, b))
        lo = 0 if name == "pow" else -5
        a, b = ints(-5, 5, (4,), np.int8), ints(lo, 5, (4,), np.int16)  # int8 + int16 -> int16
        if name in ("floor_divide", "remainder"):
            b = np.where(b == 0, 2, b).astype(np.int16)
        add_case(name, [a, b], f(a, b))
        a, b = ints(0, 5, (4,), np.uint8), ints(lo, 5, (4,), np.int8)  # uint8 + int8 -> int16
        if name in ("floor_divide", "remainder"):
            b = np.where(b == 0, -3, b).astype(np.int8)
        add_case(name, [a, b], f(a, b))

    # bitwise on integers and bools
    for name, f in BITWISE.items():
        for dt in (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64):
            signed = np.dtype(dt).kind == "i"
            if "shift" in name:
                a = ints(-15 if signed else 0, 15, (2, 3), dt)
                b = ints(0, 3, (1, 3), dt)
            else:
                a = ints(-100 if signed else 0, 100, (2, 3), dt)
                b = ints(-100 if signed else 0, 100, (1, 3), dt)
            add_case(name, [a, b], f(a, b))
        if "shift" not in name:
            a = np.array([True, True, False, False])
            b = np.array([True, False, True, False])
            add_case(name, [a, b], f(a, b))

    # logical on bools, and on numbers (nonzero is true)
    for name in ("logical_and", "logical_or", "logical_xor"):
        a = np.array([[True], [False]])
        b = np.array([True, False, True])
        add_case(name, [a, b], BINARY[name](a, b))
        a = np.array([0.0, 1.5, -2.0, 0.0])
        b = np.array([0, 0, 3, 4], dtype=np.int32)
        add_case(name, [a.astype(F64), b.astype(F64)], BINARY[name](a, b))
    for name in ("equal", "not_equal"):
        a = np.array([True, False, True])
        b = np.array([True, True, False])
        add_case(name, [a, b], BINARY[name](a, b))

    # complex arithmetic
    for name in ("add", "subtract", "multiply", "divide", "pow", "equal", "not_equal"):
        for dt in (C128, C64):
            a, b = cplx((2, 3), dt), cplx((3,), dt)
            if name in ("equal", "not_equal"):
                b = a[0].copy()
            add_case(name, [a, b], BINARY[name](a, b))
        a, b = uni(-2, 2, (3,), F64), cplx((3,), C128)  # float64 + complex128
        add_case(name, [a, b], BINARY[name](a, b))

    # an array with a Python-style scalar (the scalar takes the array's dtype)
    scal = [
        ("add", F32, 2.5, 2), ("subtract", F32, 1.25, 1), ("multiply", F64, -3.0, 2), ("divide", F64, 4.0, 1),
        ("pow", F64, 2.0, 2), ("maximum", F32, 0.0, 2), ("minimum", F64, 0.5, 1), ("greater", F64, 0.0, 2),
        ("less_equal", F32, 1.0, 1), ("equal", F64, 1.0, 2), ("atan2", F64, 1.0, 1), ("copysign", F64, -1.0, 2),
        ("hypot", F32, 3.0, 2), ("logaddexp", F64, 0.5, 1), ("remainder", F64, 1.5, 2),
        ("floor_divide", F64, 2.0, 2), ("nextafter", F32, 10.0, 2), ("not_equal", F32, 0.0, 1),
        ("greater_equal", F64, 1.0, 2), ("less", F64, -1.0, 1),
    ]
    for name, dt, s, pos in scal:
        x = uni(0.5, 3, (2, 3), dt)
        f = BINARY[name]
        if pos == 2:
            add_case(name, [x], np.asarray(f(x, s)).astype(np.result_type(f(x, x))), kwargs={"x2": s})
        else:
            add_case(name, [x], np.asarray(f(s, x)).astype(np.result_type(f(x, x))), kwargs={"x1": s})
    for name, dt, s, pos in [("add", np.int16, 3, 2), ("multiply", np.int32, -2, 1), ("bitwise_and", np.int64, 6, 2),
                             ("bitwise_left_shift", np.int32, 1, 2), ("remainder", np.int8, 3, 2),
                             ("bitwise_xor", np.uint8, 5, 1)]:
        x = ints(0, 20, (5,), dt)
        f = BINARY.get(name) or BITWISE[name]
        y = f(x, s) if pos == 2 else f(s, x)
        add_case(name, [x], np.asarray(y).astype(dt), kwargs={"x2" if pos == 2 else "x1": s})
    for name in ("logical_and", "logical_or"):
        b = np.array([True, False, True])
        add_case(name, [b], BINARY[name](b, True), kwargs={"x2": True})
    z = cplx((3,), C128)
    add_case("multiply", [z], z * (1 - 2j), kwargs={"x2": {"complex": [1.0, -2.0]}})
    add_case("add", [z], z + (0.5 + 0.25j), kwargs={"x2": {"complex": [0.5, 0.25]}})

    # clip (the 67th elementwise function): scalar, array and absent bounds; result keeps x's dtype
    x = uni(-3, 3, (3, 4), F64)
    add_case("clip", [x], np.clip(x, -1.0, 1.5), kwargs={"min": -1.0, "max": 1.5})
    add_case("clip", [x], np.clip(x, -0.5, None), kwargs={"min": -0.5})
    add_case("clip", [x], np.clip(x, None, 0.25), kwargs={"max": 0.25})
    add_case("clip", [x], x.copy(), kwargs={})
    lo = uni(-2, 0, (1, 4), F64)
    hi = uni(0, 2, (3, 1), F64)
    add_case("clip", [x, lo, hi], np.minimum(np.maximum(x, lo), hi), kwargs={"min": "array", "max": "array"})
    xi = ints(-10, 10, (6,), np.int32)
    add_case("clip", [xi], np.clip(xi, -3, 4).astype(np.int32), kwargs={"min": -3, "max": 4})
    xf = uni(-3, 3, (5,), F32)
    add_case("clip", [xf], np.clip(xf, F32(-1), F32(1)), kwargs={"min": -1.0, "max": 1.0})
    xs = np.array([np.nan, -np.inf, np.inf, 0.5], dtype=F64)
    with np.errstate(all="ignore"):
        add_case("clip", [xs], np.clip(xs, -1.0, 1.0), kwargs={"min": -1.0, "max": 1.0})


# --------------------------------------------------------------------------- creation / dtypes
def gen_creation():
    for start, stop, step, dt in [(0, 5, 1, "int64"), (2, 11, 3, "int64"), (10, 0, -2, "int32"),
                                  (0.0, 1.0, 0.25, "float64"), (-1.0, 1.0, 0.3, "float32"), (5, 5, 1, "int64"),
                                  (1.5, -1.0, -0.5, "float64")]:
        add_case("arange", [], np.arange(start, stop, step, dtype=dt),
                 kwargs={"start": start, "stop": stop, "step": step, "dtype": dt})
    add_case("arange", [], np.arange(6, dtype=np.int64), kwargs={"start": 6, "dtype": "int64"})
    add_case("arange", [], np.arange(4.0, dtype=F64), kwargs={"start": 4.0, "dtype": "float64"})
    for start, stop, num, endpoint, dt in [(0.0, 1.0, 5, True, "float64"), (0.0, 1.0, 5, False, "float64"),
                                           (-2.0, 3.0, 7, True, "float32"), (1.0, 2.0, 1, True, "float64"),
                                           (3.0, -1.0, 4, True, "float64"), (0.0, 1.0, 0, True, "float64")]:
        add_case("linspace", [], np.linspace(start, stop, num, endpoint=endpoint, dtype=dt),
                 kwargs={"start": start, "stop": stop, "num": num, "endpoint": endpoint, "dtype": dt})
    for n, m, k, dt in [(3, None, 0, "float64"), (3, 4, 1, "float64"), (4, 3, -1, "float32"), (2, 5, 3, "int32"),
                        (3, 3, 5, "float64"), (0, None, 0, "float64")]:
        add_case("eye", [], np.eye(n, m, k, dtype=dt), kwargs={"n_rows": n, "n_cols": m, "k": k, "dtype": dt})
    add_case("eye", [], np.eye(2, dtype=bool), kwargs={"n_rows": 2, "dtype": "bool"})
    x = uni(-1, 1, (4, 5), F64)
    xb = uni(-1, 1, (2, 3, 3), F32)
    for k in (0, 1, -1, 3, -4):
        add_case("tril", [x], np.tril(x, k), kwargs={"k": k})
        add_case("triu", [x], np.triu(x, k), kwargs={"k": k})
    add_case("tril", [xb], np.tril(xb), kwargs={"k": 0})
    add_case("triu", [xb], np.triu(xb, 1), kwargs={"k": 1})
    xi = ints(1, 9, (3, 3), np.int64)
    add_case("triu", [xi], np.triu(xi, -1), kwargs={"k": -1})

    for shape, v, dt in [((2, 3), 1.5, "float64"), ((4,), 7, "int32"), ((), -2.0, "float32"), ((2, 2), True, "bool"),
                         ((0, 2), 3.0, "float64")]:
        add_case("full", [], np.full(shape, v, dtype=dt), kwargs={"shape": list(shape), "fill_value": v, "dtype": dt})
    add_case("full", [], np.full((2,), 1 + 2j, dtype=C128),
             kwargs={"shape": [2], "fill_value": {"complex": [1.0, 2.0]}, "dtype": "complex128"})
    for fn, f in (("zeros", np.zeros), ("ones", np.ones)):
        add_case(fn, [], f((2, 3), dtype=F64), kwargs={"shape": [2, 3], "dtype": "float64"})
        add_case(fn, [], f((4,), dtype=np.int16), kwargs={"shape": [4], "dtype": "int16"})
        add_case(fn, [], f((), dtype=F32), kwargs={"shape": [], "dtype": "float32"})
    x = uni(-1, 1, (2, 3), F32)
    add_case("zeros_like", [x], np.zeros_like(x))
    add_case("ones_like", [x], np.ones_like(x))
    add_case("ones_like", [x], np.ones_like(x, dtype=np.int32), kwargs={"dtype": "int32"})
    add_case("full_like", [x], np.full_like(x, -4.5), kwargs={"fill_value": -4.5})
    add_case("full_like", [x], np.full_like(x, 3, dtype=np.int64), kwargs={"fill_value": 3, "dtype": "int64"})
    add_case("zeros_like", [ints(0, 3, (3,), np.uint8)], np.zeros(3, np.uint8))
    # empty / empty_like: only the shape and dtype are defined
    add_case("empty", [], np.zeros((3, 2), F64), kwargs={"shape": [3, 2], "dtype": "float64"},
             check={"values": False})
    add_case("empty_like", [x], np.zeros_like(x), check={"values": False})
    add_case("empty_like", [x], np.zeros((2, 3), np.int8), kwargs={"dtype": "int8"}, check={"values": False})
    # asarray from an array (copy and cast), from_dlpack (same values)
    add_case("asarray", [x], x.copy())
    add_case("asarray", [x], x.astype(F64), kwargs={"dtype": "float64"})
    add_case("asarray", [], np.asarray(2.5, dtype=F64), kwargs={"obj": 2.5, "dtype": "float64"})
    add_case("asarray", [], np.asarray(7, dtype=np.int64), kwargs={"obj": 7})
    add_case("asarray", [], np.asarray(True), kwargs={"obj": True})
    add_case("from_dlpack", [x], x.copy())
    add_case("from_dlpack", [xi], xi.copy())

    # meshgrid
    a, b, c = uni(0, 1, (3,), F64), uni(0, 1, (2,), F64), uni(0, 1, (4,), F64)
    add_case("meshgrid", [a, b], np.meshgrid(a, b, indexing="xy"), kwargs={"indexing": "xy"})
    add_case("meshgrid", [a, b], np.meshgrid(a, b, indexing="ij"), kwargs={"indexing": "ij"})
    add_case("meshgrid", [a, b, c], np.meshgrid(a, b, c, indexing="xy"), kwargs={"indexing": "xy"})
    add_case("meshgrid", [a, b, c], np.meshgrid(a, b, c, indexing="ij"), kwargs={"indexing": "ij"})
    add_case("meshgrid", [a], np.meshgrid(a), kwargs={"indexing": "xy"})


def dtype_result(dt):
    """A 0-d zero of dtype dt: how dtype-valued answers are written in the fixtures."""
    return np.zeros((), dtype=dt)


def gen_dtypes():
    # astype
    x = np.array([[-2.7, -0.5, 0.0], [0.5, 1.9, 3.99]], dtype=F64)
    add_case("astype", [x], x.astype(np.int32), kwargs={"dtype": "int32"})
    add_case("astype", [x], x.astype(F32), kwargs={"dtype": "float32"})
    add_case("astype", [x], x.astype(bool), kwargs={"dtype": "bool"})
    add_case("astype", [x], x.astype(C128), kwargs={"dtype": "complex128"})
    add_case("astype", [x], x.astype(np.int64), kwargs={"dtype": "int64", "copy": False})
    xi = ints(-100, 100, (5,), np.int32)
    add_case("astype", [xi], xi.astype(F64), kwargs={"dtype": "float64"})
    add_case("astype", [xi], xi.astype(np.int8), kwargs={"dtype": "int8"})
    add_case("astype", [xi], xi.astype(np.int16), kwargs={"dtype": "int16"})
    add_case("astype", [np.abs(xi)], np.abs(xi).astype(np.uint8), kwargs={"dtype": "uint8"})
    b = np.array([True, False, True])
    add_case("astype", [b], b.astype(F32), kwargs={"dtype": "float32"})
    add_case("astype", [b], b.astype(np.int64), kwargs={"dtype": "int64"})
    z = cplx((3,), C128)
    add_case("astype", [z], z.astype(C64), kwargs={"dtype": "complex64"})
    # can_cast (bool answer as a 0-d bool array)
    for frm, to in [("int8", "int16"), ("int16", "int8"), ("float32", "float64"), ("float64", "float32"),
                    ("uint8", "int16"), ("int32", "uint32"), ("float32", "complex64"), ("complex128", "float64"),
                    ("bool", "int8"), ("int64", "int64"), ("uint16", "uint32"), ("float64", "complex128")]:
        arr = np.zeros((2,), dtype=frm)
        add_case("can_cast", [arr], np.asarray(np.can_cast(frm, to)), kwargs={"to": to})
    # result_type (answer as a 0-d zero of the result dtype); only same-kind pairs, where
    # the standard's table is normative and NumPy agrees with it
    for d1, d2 in [("int8", "int16"), ("int32", "int64"), ("uint8", "int8"), ("uint8", "uint32"), ("uint16", "int32"),
                   ("float32", "float64"), ("float32", "complex64"), ("float64", "complex64"),
                   ("complex64", "complex128"), ("bool", "bool"), ("uint32", "int64"), ("int16", "int16")]:
        add_case("result_type", [np.zeros(1, d1), np.zeros(1, d2)], dtype_result(np.result_type(d1, d2)))
    # finfo / iinfo as a float64 vector: [bits, eps, max, min, smallest_normal] / [bits, min, max]
    for d in (F32, F64):
        fi = np.finfo(d)
        add_case("finfo", [np.zeros(1, d)], np.array([fi.bits, fi.eps, fi.max, fi.min, fi.smallest_normal], F64),
                 check={"rtol": 1e-12, "atol": 0.0})
    for d in (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64):
        ii = np.iinfo(d)
        add_case("iinfo", [np.zeros(1, d)], np.array([ii.bits, ii.min, ii.max], F64))
    # isdtype (bool answer as a 0-d bool array)
    kinds = {"bool": "b", "signed integer": "i", "unsigned integer": "u", "integral": "iu", "real floating": "f",
             "complex floating": "c", "numeric": "iufc"}
    for d in ("bool", "int8", "uint32", "float32", "complex128", "int64"):
        for kind, letters in kinds.items():
            add_case("isdtype", [np.zeros(1, d)], np.asarray(np.dtype(d).kind in letters), kwargs={"kind": kind})
        add_case("isdtype", [np.zeros(1, d)], np.asarray(d == "float32"), kwargs={"kind": "float32"})


# --------------------------------------------------------------------------- statistics / utility
def gen_reductions():
    x64 = uni(-2, 2, (3, 4), F64)
    x32 = uni(-2, 2, (2, 3, 4), F32)
    axes = [None, 0, 1, -1, [0, 1]]
    axes3 = [None, 0, 2, [0, 2], [1, 2], [0, 1, 2]]
    fns = {"sum": np.sum, "prod": np.prod, "mean": np.mean, "min": np.min, "max": np.max}
    for name, f in fns.items():
        for x, axs in ((x64, axes), (x32, axes3)):
            for ax in axs:
                for kd in (False, True):
                    nax = tuple(ax) if isinstance(ax, list) else ax
                    add_case(name, [x], np.asarray(f(x, axis=nax, keepdims=kd)), kwargs={"axis": ax, "keepdims": kd})
        x0 = np.array(1.5)
        add_case(name, [x0], np.asarray(f(x0)), kwargs={"axis": None, "keepdims": False})
    for name in ("var", "std"):
        f = getattr(np, name)
        for x, axs in ((x64, axes), (x32, axes3)):
            for ax in axs:
                for corr in (0.0, 1.0):
                    for kd in (False, True):
                        nax = tuple(ax) if isinstance(ax, list) else ax
                        add_case(name, [x], np.asarray(f(x, axis=nax, ddof=corr, keepdims=kd)),
                                 kwargs={"axis": ax, "correction": corr, "keepdims": kd})
        xc = cplx((2, 3), C128)
        add_case(name, [xc], np.asarray(f(xc, axis=1)), kwargs={"axis": 1, "correction": 0.0, "keepdims": False})
    # integers: sum/prod accumulate in int64 (uint64 for unsigned), min/max keep the dtype
    xi = ints(-5, 5, (3, 4), np.int32)
    xu = ints(0, 5, (3, 4), np.uint8)
    for name in ("sum", "prod"):
        f = fns[name]
        add_case(name, [xi], np.asarray(f(xi, dtype=np.int64)), kwargs={"axis": None, "keepdims": False})
        add_case(name, [xi], f(xi, axis=0, dtype=np.int64), kwargs={"axis": 0, "keepdims": False})
        add_case(name, [xu], f(xu, axis=1, dtype=np.uint64, keepdims=True), kwargs={"axis": 1, "keepdims": True})
        add_case(name, [xi], f(xi, axis=1, dtype=F64), kwargs={"axis": 1, "keepdims": False, "dtype": "float64"})
        add_case(name, [x32], f(x32, axis=1, dtype=F64), kwargs={"axis": 1, "keepdims": False, "dtype": "float64"})
        xb = np.array([[True, False], [True, True]])
        add_case(name, [xb], f(xb, axis=0, dtype=np.int64), kwargs={"axis": 0, "keepdims": False})
        xc = cplx((2, 3), C128)
        add_case(name, [xc], f(xc, axis=0), kwargs={"axis": 0, "keepdims": False})
    for name in ("min", "max"):
        add_case(name, [xi], fns[name](xi, axis=1), kwargs={"axis": 1, "keepdims": False})
        add_case(name, [xu], np.asarray(fns[name](xu)), kwargs={"axis": None, "keepdims": False})
    # empty reductions: sum -> 0, prod -> 1
    e = np.zeros((0, 3), F64)
    add_case("sum", [e], np.sum(e, axis=0), kwargs={"axis": 0, "keepdims": False})
    add_case("prod", [e], np.prod(e, axis=0), kwargs={"axis": 0, "keepdims": False})
    add_case("sum", [e], np.asarray(np.sum(e)), kwargs={"axis": None, "keepdims": False})
    # NaN propagates through min/max/sum/mean
    xn = np.array([[1.0, np.nan, 3.0], [4.0, 5.0, -6.0]])
    for name in ("sum", "prod", "mean", "min", "max"):
        add_case(name, [xn], fns[name](xn, axis=1), kwargs={"axis": 1, "keepdims": False})
    xinf = np.array([1.0, np.inf, -2.0])
    add_case("max", [xinf], np.asarray(np.max(xinf)), kwargs={"axis": None, "keepdims": False})
    add_case("min", [xinf], np.asarray(np.min(xinf)), kwargs={"axis": None, "keepdims": False})

    # all / any / count_nonzero
    xb = np.array([[True, False, True], [True, True, True]])
    xf = np.array([[0.0, 1.5, -2.0], [np.nan, 0.0, 0.0]])
    for name, f in (("all", np.all), ("any", np.any)):
        for x in (xb, xf, ints(0, 1, (2, 3), np.int32)):
            for ax in (None, 0, 1, -1, [0, 1]):
                for kd in (False, True):
                    nax = tuple(ax) if isinstance(ax, list) else ax
                    add_case(name, [x], np.asarray(f(x, axis=nax, keepdims=kd)), kwargs={"axis": ax, "keepdims": kd})
        add_case(name, [np.zeros((0,), bool)], np.asarray(f(np.zeros((0,), bool))),
                 kwargs={"axis": None, "keepdims": False})
    for x in (xb, xf, ints(-1, 1, (3, 4), np.int64)):
        for ax in (None, 0, 1, [0, 1]):
            for kd in (False, True):
                nax = tuple(ax) if isinstance(ax, list) else ax
                y = np.asarray(np.count_nonzero(x, axis=nax, keepdims=kd)).astype(np.int64)
                add_case("count_nonzero", [x], y, kwargs={"axis": ax, "keepdims": kd})

    # cumulative_sum / cumulative_prod
    x1 = uni(-2, 2, (5,), F64)
    x2 = uni(0.5, 1.5, (3, 4), F32)
    for name, f, init in (("cumulative_sum", np.cumsum, 0), ("cumulative_prod", np.cumprod, 1)):
        for inc in (False, True):
            y = f(x1)
            if inc:
                y = np.concatenate([[init], y]).astype(x1.dtype)
            add_case(name, [x1], y, kwargs={"axis": None, "include_initial": inc})
            for ax in (0, 1, -1):
                y = f(x2, axis=ax)
                if inc:
                    pad = np.full_like(np.take(x2, [0], axis=ax), init)
                    y = np.concatenate([pad, y], axis=ax)
                add_case(name, [x2], y, kwargs={"axis": ax, "include_initial": inc})
        xi = ints(-3, 3, (2, 4), np.int32)
        add_case(name, [xi], f(xi, axis=1, dtype=np.int64), kwargs={"axis": 1, "include_initial": False})
        add_case(name, [xi], f(xi, axis=0, dtype=F64), kwargs={"axis": 0, "include_initial": False, "dtype": "float64"})
        xc = cplx((4,), C128)
        add_case(name, [xc], f(xc), kwargs={"axis": None, "include_initial": False})
        add_case(name, [np.zeros((0,), F64)], np.array([init], F64), kwargs={"axis": None, "include_initial": True})

    # diff
    x = uni(-3, 3, (3, 5), F64)
    for ax, n in ((-1, 1), (0, 1), (1, 2), (-1, 3), (0, 2)):
        add_case("diff", [x], np.diff(x, n=n, axis=ax), kwargs={"axis": ax, "n": n})
    pre = uni(-3, 3, (3, 1), F64)
    app = uni(-3, 3, (3, 2), F64)
    add_case("diff", [x, pre], np.diff(x, axis=1, prepend=pre), kwargs={"axis": 1, "n": 1, "prepend": True})
    add_case("diff", [x, app], np.diff(x, axis=1, append=app), kwargs={"axis": 1, "n": 1, "append": True})
    add_case("diff", [x, pre, app], np.diff(x, n=2, axis=1, prepend=pre, append=app),
             kwargs={"axis": 1, "n": 2, "prepend": True, "append": True})
    xi = ints(-20, 20, (6,), np.int32)
    add_case("diff", [xi], np.diff(xi), kwargs={"axis": -1, "n": 1})
    xb = np.array([True, False, False, True])
    add_case("diff", [xb.astype(np.int8)], np.diff(xb.astype(np.int8)), kwargs={"axis": -1, "n": 1})


# --------------------------------------------------------------------------- searching / sorting / sets
def stable_desc_argsort(x, axis):
    """Descending, stable: equal elements keep their original order."""
    n = x.shape[axis]
    rev = np.flip(x, axis=axis)
    idx = np.argsort(rev, axis=axis, kind="stable")
    idx = np.flip(idx, axis=axis)
    return (n - 1 - idx).astype(np.int64)


def gen_search_sort_set():
    x = np.array([[3.0, 1.0, 4.0, 1.0], [5.0, 9.0, 2.0, 9.0], [-6.0, -6.0, 5.0, 3.0]])
    xi = ints(-5, 5, (3, 5), np.int32)
    x3 = uni(-1, 1, (2, 3, 4), F32)
    for name, f in (("argmax", np.argmax), ("argmin", np.argmin)):
        for arr in (x, xi, x3):
            for ax in (None, 0, 1, -1):
                for kd in (False, True):
                    add_case(name, [arr], np.asarray(f(arr, axis=ax, keepdims=kd)).astype(np.int64),
                             kwargs={"axis": ax, "keepdims": kd})
        ties = np.array([2.0, 7.0, 7.0, -1.0, 7.0, -1.0])  # the first occurrence wins
        add_case(name, [ties], np.asarray(f(ties)).astype(np.int64), kwargs={"axis": None, "keepdims": False})
    # sort / argsort (stable; ties everywhere)
    xt = np.array([[2, 1, 2, 3, 1, 2], [0, 0, -1, 5, 5, -1]], dtype=np.int64)
    for arr in (x, xt, x3, ints(0, 3, (7,), np.uint8)):
        for ax in ([-1, 0] if arr.ndim > 1 else [-1]):
            add_case("sort", [arr], np.sort(arr, axis=ax, kind="stable"),
                     kwargs={"axis": ax, "descending": False, "stable": True})
            add_case("sort", [arr], np.flip(np.sort(arr, axis=ax, kind="stable"), axis=ax),
                     kwargs={"axis": ax, "descending": True, "stable": True})
            add_case("argsort", [arr], np.argsort(arr, axis=ax, kind="stable").astype(np.int64),
                     kwargs={"axis": ax, "descending": False, "stable": True})
            add_case("argsort", [arr], stable_desc_argsort(arr, ax),
                     kwargs={"axis": ax, "descending": True, "stable": True})
    xs = np.array([0.0, -0.5, np.inf, -np.inf, 2.0])
    add_case("sort", [xs], np.sort(xs), kwargs={"axis": -1, "descending": False, "stable": True})
    # searchsorted
    s = np.sort(uni(-3, 3, (8,), F64))
    s[3] = s[4]  # a tie
    q = np.concatenate([uni(-4, 4, (4,), F64), [s[3], s[0], s[7]], [5.0, -5.0]]).reshape(3, 3)
    for side in ("left", "right"):
        add_case("searchsorted", [s, q], np.searchsorted(s, q, side=side).astype(np.int64), kwargs={"side": side})
    si = np.array([1, 2, 2, 2, 5, 7], dtype=np.int32)
    qi = np.array([0, 2, 3, 7, 8], dtype=np.int32)
    for side in ("left", "right"):
        add_case("searchsorted", [si, qi], np.searchsorted(si, qi, side=side).astype(np.int64), kwargs={"side": side})
    u = uni(-3, 3, (6,), F64)
    srt = np.argsort(u, kind="stable").astype(np.int64)
    qq = uni(-3, 3, (4,), F64)
    add_case("searchsorted", [u, qq, srt], np.searchsorted(u, qq, sorter=srt).astype(np.int64),
             kwargs={"side": "left", "sorter": True})
    add_case("searchsorted", [s, np.array(0.1)], np.asarray(np.searchsorted(s, 0.1)).astype(np.int64),
             kwargs={"side": "left"})

    # unique_* (values sorted; inverse indices have x's shape, as the standard asks)
    for arr in (np.array([3, 1, 3, 2, 1, 3, 7], dtype=np.int64), np.array([[1.5, -2.0, 1.5], [0.0, -2.0, 4.0]]),
                ints(0, 4, (2, 3, 2), np.int32), np.array([True, False, True])):
        vals, idx, inv, cnt = np.unique(arr, return_index=True, return_inverse=True, return_counts=True)
        idx, inv, cnt = idx.astype(np.int64), inv.reshape(arr.shape).astype(np.int64), cnt.astype(np.int64)
        add_case("unique_all", [arr], [vals, idx, inv, cnt])
        add_case("unique_counts", [arr], [vals, cnt])
        add_case("unique_inverse", [arr], [vals, inv])
        add_case("unique_values", [arr], vals)
    # isin
    a = ints(0, 9, (3, 4), np.int64)
    b = np.array([1, 3, 5, 7], dtype=np.int64)
    add_case("isin", [a, b], np.isin(a, b), kwargs={"invert": False})
    add_case("isin", [a, b], np.isin(a, b, invert=True), kwargs={"invert": True})
    af = np.array([0.5, 1.0, np.nan, 2.0])
    bf = np.array([[1.0, np.nan], [2.0, 3.0]])
    add_case("isin", [af, bf], np.isin(af, bf), kwargs={"invert": False})
    # nonzero
    for arr in (np.array([[0.0, 1.5, 0.0], [-2.0, 0.0, 3.0]]), np.array([True, False, True, True]),
                ints(0, 1, (2, 2, 3), np.int32), np.zeros((2, 2), F64)):
        add_case("nonzero", [arr], [i.astype(np.int64) for i in np.nonzero(arr)])
    # where
    c = np.array([[True], [False], [True]])
    a1 = uni(-1, 1, (3, 4), F64)
    a2 = uni(-1, 1, (4,), F64)
    add_case("where", [c, a1, a2], np.where(c, a1, a2))
    add_case("where", [c, a1.astype(F32), a2], np.where(c, a1.astype(F32), a2))
    cc = a1 > 0
    add_case("where", [cc, a1], np.where(cc, a1, 0.0), kwargs={"x2": 0.0})
    add_case("where", [cc, a1], np.where(cc, -1.0, a1), kwargs={"x1": -1.0})
    ia, ib = ints(0, 9, (3, 4), np.int32), ints(0, 9, (3, 4), np.int32)
    add_case("where", [cc, ia, ib], np.where(cc, ia, ib))
    # take / take_along_axis
    x = uni(-1, 1, (3, 4), F64)
    add_case("take", [x, np.array([2, 0, 2], np.int64)], np.take(x, [2, 0, 2], axis=0), kwargs={"axis": 0})
    add_case("take", [x, np.array([3, 1], np.int32)], np.take(x, [3, 1], axis=1), kwargs={"axis": 1})
    add_case("take", [x, np.array([0, 3], np.int64)], np.take(x, [0, 3], axis=-1), kwargs={"axis": -1})
    v = uni(-1, 1, (6,), F32)
    add_case("take", [v, np.array([5, 0, 1, 1], np.int64)], np.take(v, [5, 0, 1, 1]), kwargs={"axis": None})
    add_case("take", [x, np.zeros((0,), np.int64)], np.take(x, np.zeros((0,), np.int64), axis=0), kwargs={"axis": 0})
    idx = np.argsort(x, axis=1).astype(np.int64)
    add_case("take_along_axis", [x, idx], np.take_along_axis(x, idx, axis=1), kwargs={"axis": 1})
    idx0 = ints(0, 2, (2, 4), np.int64)
    add_case("take_along_axis", [x, idx0], np.take_along_axis(x, idx0, axis=0), kwargs={"axis": 0})
    idx1 = ints(0, 3, (3, 1), np.int64)
    add_case("take_along_axis", [x, idx1], np.take_along_axis(x, idx1, axis=-1), kwargs={"axis": -1})


# --------------------------------------------------------------------------- manipulation
def gen_manipulation():
    a = uni(-1, 1, (2, 3), F64)
    b = uni(-1, 1, (2, 3), F64)
    c = uni(-1, 1, (1, 3), F64)
    d = uni(-1, 1, (2, 2), F64)
    add_case("concat", [a, b, c], np.concatenate([a, b, c], axis=0), kwargs={"axis": 0})
    add_case("concat", [a, d], np.concatenate([a, d], axis=1), kwargs={"axis": 1})
    add_case("concat", [a, d], np.concatenate([a, d], axis=-1), kwargs={"axis": -1})
    add_case("concat", [a, c], np.concatenate([a, c], axis=None), kwargs={"axis": None})
    add_case("concat", [a.astype(F32), b], np.concatenate([a.astype(F32), b]), kwargs={"axis": 0})
    add_case("concat", [a], a.copy(), kwargs={"axis": 0})
    i1, i2 = ints(0, 9, (3,), np.int8), ints(0, 9, (2,), np.int32)
    add_case("concat", [i1, i2], np.concatenate([i1, i2]), kwargs={"axis": 0})
    for ax in (0, 1, 2, -1):
        add_case("stack", [a, b], np.stack([a, b], axis=ax), kwargs={"axis": ax})
    add_case("stack", [np.array(1.0), np.array(2.0), np.array(3.0)], np.stack([1.0, 2.0, 3.0]), kwargs={"axis": 0})
    x3 = uni(-1, 1, (2, 3, 4), F32)
    for ax in (None, 0, 1, -1, [0, 2], [0, 1, 2]):
        nax = tuple(ax) if isinstance(ax, list) else ax
        add_case("flip", [x3], np.flip(x3, axis=nax), kwargs={"axis": ax})
    for shift, ax in ((2, None), (-1, None), (1, 0), (-2, 2), ([1, 2], [0, 1]), ([3, -1], [2, 0]), (7, 1)):
        nshift = tuple(shift) if isinstance(shift, list) else shift
        nax = tuple(ax) if isinstance(ax, list) else ax
        add_case("roll", [x3], np.roll(x3, nshift, axis=nax), kwargs={"shift": shift, "axis": ax})
    xr = ints(0, 9, (2, 3), np.int64)
    add_case("repeat", [xr], np.repeat(xr, 2), kwargs={"repeats": 2, "axis": None})
    add_case("repeat", [xr], np.repeat(xr, 3, axis=0), kwargs={"repeats": 3, "axis": 0})
    add_case("repeat", [xr, np.array([1, 0, 2], np.int64)], np.repeat(xr, [1, 0, 2], axis=1), kwargs={"axis": 1})
    add_case("repeat", [xr, np.array([2, 1, 0, 1, 1, 3], np.int64)], np.repeat(xr, [2, 1, 0, 1, 1, 3]),
             kwargs={"axis": None})
    add_case("repeat", [a], np.repeat(a, 2, axis=-1), kwargs={"repeats": 2, "axis": -1})
    for reps in ([2], [2, 1], [1, 3], [2, 1, 2], [0, 2]):
        add_case("tile", [a], np.tile(a, reps), kwargs={"repetitions": reps})
    for perm in ([0, 1, 2], [2, 0, 1], [1, 2, 0], [2, 1, 0]):
        add_case("permute_dims", [x3], np.transpose(x3, perm), kwargs={"axes": perm})
    for src, dst in (([0], [2]), ([2], [0]), ([0, 1], [2, 0]), ([-1], [1])):
        add_case("moveaxis", [x3], np.moveaxis(x3, src, dst), kwargs={"source": src, "destination": dst})
    xs = uni(-1, 1, (1, 3, 1, 2), F64)
    for ax in (0, 2, -2, [0, 2]):
        nax = tuple(ax) if isinstance(ax, list) else ax
        add_case("squeeze", [xs], np.squeeze(xs, axis=nax), kwargs={"axis": ax})
    for ax in (0, 1, 2, -1, -3, [0, 3], [-1, 0]):
        nax = tuple(ax) if isinstance(ax, list) else ax
        add_case("expand_dims", [a], np.expand_dims(a, nax), kwargs={"axis": ax})
    for src, shape in (((3,), (2, 3)), ((2, 1), (2, 4)), ((1, 3), (4, 2, 3)), ((), (2, 2)), ((2, 3), (2, 3))):
        xx = uni(-1, 1, src, F64)
        add_case("broadcast_to", [xx], np.broadcast_to(xx, shape).copy(), kwargs={"shape": list(shape)})
    xa, xb2, xc = uni(-1, 1, (3, 1), F64), uni(-1, 1, (4,), F64), uni(-1, 1, (), F64)
    add_case("broadcast_arrays", [xa, xb2, xc], [v.copy() for v in np.broadcast_arrays(xa, xb2, xc)])
    add_case("broadcast_arrays", [xa, xb2.astype(F64)], [v.copy() for v in np.broadcast_arrays(xa, xb2)])
    for shape in ([6, 4], [4, -1], [-1], [2, 2, 2, 3], [24], [3, 8]):
        add_case("reshape", [x3], np.reshape(x3, shape), kwargs={"shape": shape})
    add_case("reshape", [np.array([5.0])], np.reshape(np.array([5.0]), ()), kwargs={"shape": []})
    for ax in (0, 1, 2, -1):
        add_case("unstack", [x3], [np.take(x3, i, axis=ax) for i in range(x3.shape[ax])], kwargs={"axis": ax})
    add_case("matrix_transpose", [x3], np.swapaxes(x3, -1, -2))
    add_case("matrix_transpose", [a], a.T.copy())


# --------------------------------------------------------------------------- linear algebra
def spd(n, batch=(), dtype=F64):
    a = RNG.uniform(-1, 1, size=batch + (n, n))
    return (a @ np.swapaxes(a, -1, -2) + n * np.eye(n)).astype(dtype)


def well(n, batch=(), dtype=F64):
    return (RNG.uniform(-1, 1, size=batch + (n, n)) + 2.5 * np.eye(n)).astype(dtype)


def vecdot_ref(x1, x2, axis):
    return np.sum(np.conj(x1) * x2, axis=axis)


def gen_linalg():
    # matmul
    for s1, s2, dt in (((2, 3), (3, 4), F64), ((3,), (3, 2), F64), ((2, 3), (3,), F32), ((4,), (4,), F64),
                       ((2, 2, 3), (3, 2), F64), ((2, 1, 2, 3), (3, 3, 2), F32), ((1, 3), (3, 1), F64)):
        x1, x2 = uni(-1, 1, s1, dt), uni(-1, 1, s2, dt)
        add_case("matmul", [x1, x2], np.asarray(np.matmul(x1, x2)))
    i1, i2 = ints(-4, 4, (2, 3), np.int32), ints(-4, 4, (3, 2), np.int32)
    add_case("matmul", [i1, i2], np.matmul(i1, i2))
    z1, z2 = cplx((2, 3)), cplx((3, 2))
    add_case("matmul", [z1, z2], np.matmul(z1, z2))
    x1, x2 = uni(-1, 1, (2, 3), F64), uni(-1, 1, (3, 2), F64)
    add_case("linalg.matmul", [x1, x2], x1 @ x2)
    # tensordot
    t1, t2 = uni(-1, 1, (2, 3, 4), F64), uni(-1, 1, (3, 4, 5), F64)
    add_case("tensordot", [t1, t2], np.tensordot(t1, t2, axes=2), kwargs={"axes": 2})
    t3 = uni(-1, 1, (4, 2), F64)
    add_case("tensordot", [t1, t3], np.tensordot(t1, t3, axes=1), kwargs={"axes": 1})
    a0, b0 = uni(-1, 1, (2,), F64), uni(-1, 1, (3,), F64)
    add_case("tensordot", [a0, b0], np.tensordot(a0, b0, axes=0), kwargs={"axes": 0})
    t4 = uni(-1, 1, (4, 3), F32)
    t1f = t1.astype(F32)
    add_case("tensordot", [t1f, t4], np.tensordot(t1f, t4, axes=([1, 2], [1, 0])),
             kwargs={"axes": [[1, 2], [1, 0]]})
    add_case("tensordot", [t1, t2], np.tensordot(t1, t2, axes=([1], [0])), kwargs={"axes": [[1], [0]]})
    add_case("linalg.tensordot", [t1, t2], np.tensordot(t1, t2, axes=2), kwargs={"axes": 2})
    # vecdot (conjugates x1; NumPy 1.24 has no vecdot)
    v1, v2 = uni(-1, 1, (3, 4), F64), uni(-1, 1, (4,), F64)
    add_case("vecdot", [v1, v2], vecdot_ref(v1, v2, -1), kwargs={"axis": -1})
    v3 = uni(-1, 1, (3, 4), F32)
    add_case("vecdot", [v3, v3], vecdot_ref(v3, v3, 0), kwargs={"axis": 0})
    w1, w2 = uni(-1, 1, (2, 1, 3), F64), uni(-1, 1, (4, 3), F64)
    add_case("vecdot", [w1, w2], vecdot_ref(w1, w2, -1), kwargs={"axis": -1})
    c1, c2 = cplx((2, 3)), cplx((2, 3))
    add_case("vecdot", [c1, c2], vecdot_ref(c1, c2, -1), kwargs={"axis": -1})
    add_case("linalg.vecdot", [v1, v2], vecdot_ref(v1, v2, -1), kwargs={"axis": -1})
    add_case("linalg.matrix_transpose", [t1], np.swapaxes(t1, -1, -2))

    # det / slogdet / inv / solve
    for m in (well(3), well(2, (2,)), well(4, (), F32), np.array([[1.0, 2.0], [2.0, 4.0]])):
        add_case("linalg.det", [m], np.asarray(np.linalg.det(m)))
    for m in (well(3), well(2, (3,)), np.array([[-2.0, 1.0], [0.0, 3.0]]), well(3, (), F32)):
        sgn, lad = np.linalg.slogdet(m)
        add_case("linalg.slogdet", [m], [np.asarray(sgn), np.asarray(lad)])
    for m in (well(3), well(2, (2,)), well(4, (), F32)):
        add_case("linalg.inv", [m], np.linalg.inv(m))
    zc = (cplx((3, 3)) + 3 * np.eye(3)).astype(C128)
    add_case("linalg.inv", [zc], np.linalg.inv(zc))
    add_case("linalg.det", [zc], np.asarray(np.linalg.det(zc)))
    A = well(3)
    B = uni(-1, 1, (3, 2), F64)
    add_case("linalg.solve", [A, B], np.linalg.solve(A, B))
    bv = uni(-1, 1, (3,), F64)
    add_case("linalg.solve", [A, bv], np.linalg.solve(A, bv))
    Ab = well(2, (2,))
    Bb = uni(-1, 1, (2, 2, 3), F64)
    add_case("linalg.solve", [Ab, Bb], np.linalg.solve(Ab, Bb))
    Bbb = uni(-1, 1, (2, 3), F64)  # broadcasts against the batch of Ab
    add_case("linalg.solve", [Ab, Bbb], np.linalg.solve(Ab, np.broadcast_to(Bbb, (2, 2, 3))))
    Af = well(3, (), F32)
    add_case("linalg.solve", [Af, B.astype(F32)], np.linalg.solve(Af, B.astype(F32)))
    # cholesky
    for m in (spd(3), spd(2, (2,)), spd(4, (), F32)):
        L = np.linalg.cholesky(m)
        add_case("linalg.cholesky", [m], L, kwargs={"upper": False})
        add_case("linalg.cholesky", [m], np.conj(np.swapaxes(L, -1, -2)), kwargs={"upper": True})
    # eigvalsh (ascending), svdvals (descending)
    for m in (spd(3), spd(2, (3,)), (spd(4) - 5 * np.eye(4)), spd(3, (), F32)):
        add_case("linalg.eigvalsh", [m], np.linalg.eigvalsh(m))
    hz = cplx((3, 3))
    hz = hz + np.conj(hz.T)
    add_case("linalg.eigvalsh", [hz], np.linalg.eigvalsh(hz))
    for m in (uni(-1, 1, (3, 4), F64), uni(-1, 1, (4, 2), F64), uni(-1, 1, (2, 3, 3), F64), uni(-1, 1, (3, 5), F32)):
        add_case("linalg.svdvals", [m], np.linalg.svd(m, compute_uv=False))
    # diagonal
    m = uni(-1, 1, (3, 4), F64)
    for off in (0, 1, -1, 3, -2):
        add_case("linalg.diagonal", [m], np.diagonal(m, offset=off, axis1=-2, axis2=-1).copy(),
                 kwargs={"offset": off})
    mb = uni(-1, 1, (2, 3, 3), F32)
    add_case("linalg.diagonal", [mb], np.diagonal(mb, axis1=-2, axis2=-1).copy(), kwargs={"offset": 0})
    # trace
    for off in (0, 1, -1, 5):
        add_case("linalg.trace", [m], np.asarray(np.trace(m, offset=off, axis1=-2, axis2=-1)), kwargs={"offset": off})
    add_case("linalg.trace", [mb], np.trace(mb, axis1=-2, axis2=-1), kwargs={"offset": 0})
    mi = ints(-5, 5, (3, 3), np.int32)
    add_case("linalg.trace", [mi], np.asarray(np.trace(mi, dtype=np.int64)), kwargs={"offset": 0})
    add_case("linalg.trace", [mi], np.asarray(np.trace(mi, dtype=F64)), kwargs={"offset": 0, "dtype": "float64"})
    # matrix_norm
    mm = uni(-2, 2, (3, 4), F64)
    mbn = uni(-2, 2, (2, 3, 3), F32)
    for ord_ in ("fro", "nuc", 1, -1, 2, -2, "inf", "-inf"):
        nord = {"inf": np.inf, "-inf": -np.inf}.get(ord_, ord_) if isinstance(ord_, str) else ord_
        for mat in (mm, mbn):
            for kd in (False, True):
                y = np.linalg.norm(mat, ord=nord, axis=(-2, -1), keepdims=kd)
                add_case("linalg.matrix_norm", [mat], np.asarray(y).astype(mat.dtype),
                         kwargs={"ord": ord_, "keepdims": kd})
    zm = cplx((2, 2))
    add_case("linalg.matrix_norm", [zm], np.asarray(np.linalg.norm(zm, "fro")), kwargs={"ord": "fro", "keepdims": False})
    # vector_norm
    vv = uni(-2, 2, (3, 4), F64)
    vf = uni(-2, 2, (2, 3, 2), F32)
    for ord_ in (2, 1, 3, 0.5, 0, "inf", "-inf"):
        nord = {"inf": np.inf, "-inf": -np.inf}.get(ord_, ord_) if isinstance(ord_, str) else ord_
        add_case("linalg.vector_norm", [vv], np.asarray(np.linalg.norm(vv.ravel(), ord=nord)),
                 kwargs={"axis": None, "keepdims": False, "ord": ord_})
        for ax, kd in ((1, False), (0, True), (-1, True)):
            add_case("linalg.vector_norm", [vv], np.linalg.norm(vv, ord=nord, axis=ax, keepdims=kd),
                     kwargs={"axis": ax, "keepdims": kd, "ord": ord_})
    # a tuple of axes (NumPy: collapse those axes into one, then a vector norm)
    for ax, ord_ in (([0, 2], 2), ([1, 2], 1), ([0, 1, 2], "inf")):
        nord = np.inf if ord_ == "inf" else ord_
        moved = np.moveaxis(vf, ax, list(range(-len(ax), 0)))
        flat = moved.reshape(moved.shape[: vf.ndim - len(ax)] + (-1,))
        add_case("linalg.vector_norm", [vf], np.asarray(np.linalg.norm(flat, ord=nord, axis=-1)),
                 kwargs={"axis": ax, "keepdims": False, "ord": ord_})
    add_case("linalg.vector_norm", [vf], np.sqrt(np.sum(vf.astype(F64) ** 2, axis=(0, 2), keepdims=True)).astype(F32),
             kwargs={"axis": [0, 2], "keepdims": True, "ord": 2})
    zv = cplx((4,))
    add_case("linalg.vector_norm", [zv], np.asarray(np.linalg.norm(zv)), kwargs={"axis": None, "keepdims": False, "ord": 2})
    # cross
    c1, c2 = uni(-1, 1, (4, 3), F64), uni(-1, 1, (4, 3), F64)
    add_case("linalg.cross", [c1, c2], np.cross(c1, c2), kwargs={"axis": -1})
    c3, c4 = uni(-1, 1, (3, 2), F32), uni(-1, 1, (3, 2), F32)
    add_case("linalg.cross", [c3, c4], np.cross(c3, c4, axis=0), kwargs={"axis": 0})
    c5 = uni(-1, 1, (3,), F64)
    add_case("linalg.cross", [c1, c5], np.cross(c1, c5), kwargs={"axis": -1})
    ci1, ci2 = ints(-5, 5, (2, 3), np.int64), ints(-5, 5, (2, 3), np.int64)
    add_case("linalg.cross", [ci1, ci2], np.cross(ci1, ci2), kwargs={"axis": -1})
    # outer
    o1, o2 = uni(-1, 1, (3,), F64), uni(-1, 1, (4,), F64)
    add_case("linalg.outer", [o1, o2], np.outer(o1, o2))
    add_case("linalg.outer", [o1.astype(F32), o2.astype(F32)], np.outer(o1.astype(F32), o2.astype(F32)))
    oi1, oi2 = ints(-3, 3, (2,), np.int32), ints(-3, 3, (3,), np.int32)
    add_case("linalg.outer", [oi1, oi2], np.outer(oi1, oi2))
    # matrix_power
    mp = well(3) / 2.5
    for n in (0, 1, 2, 5, -1, -3):
        add_case("linalg.matrix_power", [mp], np.linalg.matrix_power(mp, n), kwargs={"n": n})
    mpb = well(2, (2,), F32) / 2.5
    add_case("linalg.matrix_power", [mpb], np.linalg.matrix_power(mpb, 3), kwargs={"n": 3})
    mpi = ints(-2, 2, (3, 3), np.int64)
    add_case("linalg.matrix_power", [mpi], np.linalg.matrix_power(mpi, 3), kwargs={"n": 3})
    # pinv and matrix_rank (well-separated singular values, so the tolerance choice is moot)
    for pm in (well(3), uni(-1, 1, (3, 5), F64), uni(-1, 1, (4, 2), F64), uni(-1, 1, (2, 3, 2), F64)):
        add_case("linalg.pinv", [pm], np.linalg.pinv(pm), kwargs={})
    lowrank = uni(-1, 1, (4, 2), F64) @ uni(-1, 1, (2, 5), F64)
    add_case("linalg.pinv", [lowrank], np.linalg.pinv(lowrank, rcond=1e-8), kwargs={"rtol": 1e-8})
    for rm in (well(3), lowrank, np.zeros((3, 3)), uni(-1, 1, (2, 4, 3), F64), np.eye(4)[:, :3].copy()):
        add_case("linalg.matrix_rank", [rm], np.asarray(np.linalg.matrix_rank(rm)).astype(np.int64), kwargs={})
    d = np.diag([1.0, 1e-3, 1e-9])
    s = np.linalg.svd(d, compute_uv=False)
    add_case("linalg.matrix_rank", [d], np.asarray(np.sum(s > 1e-5 * s.max())).astype(np.int64), kwargs={"rtol": 1e-5})
    add_case("linalg.matrix_rank", [d], np.asarray(np.sum(s > 1e-2 * s.max())).astype(np.int64), kwargs={"rtol": 1e-2})


# --------------------------------------------------------------------------- fft
def cdt(x):
    """The complex dtype the standard asks for: complex64 for float32/complex64 input."""
    return C64 if x.dtype in (np.dtype(F32), np.dtype(C64)) else C128


def rdt(x):
    return F32 if x.dtype in (np.dtype(F32), np.dtype(C64)) else F64


# --------------------------------------------------------------------------- decompositions
# Factors that are unique only up to signs/phases or order (eigh, eig, qr, svd) are
# checked through invariants the C++ dispatcher computes with ivy itself:
#   linalg.eigh    -> [eigenvalues, V diag(w) V^H, V^H V]
#   linalg.eig     -> [sort(real(w)), sort(imag(w)), w * 0, A V - V diag(w)]
#   linalg.eigvals -> [sort(real(w)), sort(imag(w)), w * 0]
#   linalg.qr      -> [Q R, Q^H Q, R - triu(R)]
#   linalg.svd     -> [U[..., :k] diag(S) Vh[..., :k, :], S, U^H U, Vh Vh^H]
def gen_decompositions():
    for m in (spd(3), spd(2, (2,)), spd(4) - 5 * np.eye(4), spd(3, (), F32)):
        n = m.shape[-1]
        eye = np.broadcast_to(np.eye(n, dtype=m.dtype), m.shape).copy()
        add_case("linalg.eigh", [m], [np.linalg.eigvalsh(m), m.copy(), eye])
    hz = cplx((3, 3))
    hz = hz + np.conj(hz.T)
    add_case("linalg.eigh", [hz], [np.linalg.eigvalsh(hz), hz.copy(), np.eye(3, dtype=C128)])
    for m in (well(3), well(4), np.array([[0.0, -1.0], [1.0, 0.0]]), well(3, (), F32)):
        w = np.linalg.eigvals(m)
        cd = C64 if m.dtype == F32 else C128
        rd = F32 if m.dtype == F32 else F64
        inv = [np.sort(w.real).astype(rd), np.sort(w.imag).astype(rd), np.zeros(w.shape, cd)]
        add_case("linalg.eigvals", [m], inv)
        add_case("linalg.eig", [m], inv + [np.zeros(m.shape, cd)])
    for m, mode in ((uni(-1, 1, (4, 3), F64), "reduced"), (uni(-1, 1, (4, 3), F64), "complete"),
                    (uni(-1, 1, (3, 5), F64), "reduced"), (uni(-1, 1, (2, 3, 3), F32), "reduced"),
                    (cplx((3, 2)), "reduced")):
        q, r = np.linalg.qr(m, mode=mode)
        k = q.shape[-1]
        eye = np.broadcast_to(np.eye(k, dtype=m.dtype), m.shape[:-2] + (k, k)).copy()
        add_case("linalg.qr", [m], [m.copy(), eye, np.zeros(r.shape, m.dtype)], kwargs={"mode": mode})
    for m, full in ((uni(-1, 1, (4, 3), F64), True), (uni(-1, 1, (4, 3), F64), False), (uni(-1, 1, (2, 5), F64), True),
                    (uni(-1, 1, (2, 3, 3), F32), False), (cplx((3, 2)), False)):
        u, sv, vh = np.linalg.svd(m, full_matrices=full)
        eu = np.broadcast_to(np.eye(u.shape[-1], dtype=m.dtype), u.shape[:-2] + (u.shape[-1],) * 2).copy()
        ev = np.broadcast_to(np.eye(vh.shape[-2], dtype=m.dtype), vh.shape[:-2] + (vh.shape[-2],) * 2).copy()
        add_case("linalg.svd", [m], [m.copy(), sv, eu, ev], kwargs={"full_matrices": full})


# --------------------------------------------------------------------------- the rest
def gen_misc():
    # random numbers: only properties are fixed. The dispatcher seeds the backend, draws,
    # and returns [zeros_like(x), property checks...] (see test_fixtures.cpp).
    for low, high, shape, dt in ((0.0, 1.0, [3, 4], "float64"), (-2.0, 5.0, [100], "float32"), (1.0, 1.5, [], "float64")):
        add_case("random_uniform", [], [np.zeros(shape, dt), np.asarray(True)],
                 kwargs={"low": low, "high": high, "shape": shape, "dtype": dt})
    for mean, std, dt in ((0.0, 1.0, "float64"), (3.0, 0.5, "float32")):
        add_case("random_normal", [], [np.zeros([4000], dt), np.asarray(True), np.asarray(True)],
                 kwargs={"mean": mean, "std": std, "shape": [4000], "dtype": dt})
    for low, high, dt in ((0, 10, "int64"), (-5, 5, "int32")):
        add_case("randint", [], [np.zeros([500], dt), np.asarray(True), np.asarray(True)],
                 kwargs={"low": low, "high": high, "shape": [500], "dtype": dt})
    add_case("seed", [], [np.asarray(True)], kwargs={"value": 1234})

    # array_equal / allclose (answers as 0-d bools)
    a = uni(-1, 1, (2, 3), F64)
    add_case("array_equal", [a, a.copy()], np.asarray(True))
    b = a.copy()
    b[1, 2] += 1e-12
    add_case("array_equal", [a, b], np.asarray(False))
    add_case("array_equal", [a, a[:1].copy()], np.asarray(False))
    add_case("array_equal", [np.array([1, 2, 3], np.int32), np.array([1, 2, 3], np.int32)], np.asarray(True))
    add_case("allclose", [a, b], np.asarray(True), kwargs={})
    c = a + 1e-3
    add_case("allclose", [a, c], np.asarray(bool(np.allclose(a, c))), kwargs={})
    add_case("allclose", [a, c], np.asarray(bool(np.allclose(a, c, rtol=0, atol=1e-2))), kwargs={"rtol": 0.0, "atol": 1e-2})
    n1 = np.array([1.0, np.nan, np.inf])
    add_case("allclose", [n1, n1.copy()], np.asarray(True), kwargs={"equal_nan": True})
    add_case("allclose", [n1, n1.copy()], np.asarray(False), kwargs={"equal_nan": False})
    add_case("allclose", [a, a[0]], np.asarray(bool(np.allclose(a, a[0]))), kwargs={})

    # broadcast_shapes (the shape as an int64 vector)
    for shapes in (([3, 1], [4]), ([2, 1, 3], [5, 1], [1]), ([], [2, 2]), ([0, 1], [1, 3])):
        sh = np.broadcast_shapes(*[tuple(x) for x in shapes])
        add_case("broadcast_shapes", [], np.array(sh, dtype=np.int64), kwargs={"shapes": [list(x) for x in shapes]})

    # a few float16 cases (built from float32 data, compared loosely)
    h1 = uni(0.5, 2, (2, 3), np.float16)
    h2 = uni(0.5, 2, (3,), np.float16)
    loose = {"rtol": 1e-2, "atol": 1e-2}
    add_case("add", [h1, h2], h1 + h2, check=loose)
    add_case("multiply", [h1, h2], h1 * h2, check=loose)
    add_case("exp", [h1], np.exp(h1), check=loose)
    add_case("sqrt", [h1], np.sqrt(h1), check=loose)
    add_case("sum", [h1], np.sum(h1, axis=1), kwargs={"axis": 1, "keepdims": False}, check=loose)
    add_case("astype", [h1], h1.astype(F32), kwargs={"dtype": "float32"}, check=loose)
    add_case("astype", [h1.astype(F32)], h1.copy(), kwargs={"dtype": "float16"}, check=loose)
    add_case("result_type", [np.zeros(1, np.float16), np.zeros(1, F32)], dtype_result(F32))


def gen_fft():
    xr = uni(-1, 1, (8,), F64)
    xc = cplx((2, 6))
    xf = uni(-1, 1, (3, 5), F32)
    xcf = cplx((4,), C64)
    fft = np.fft
    for x in (xr, xc, xf, xcf):
        for n, ax, norm in ((None, -1, "backward"), (None, -1, "ortho"), (None, -1, "forward"), (5, -1, "backward"),
                            (10, -1, "backward"), (None, 0, "backward")):
            kw = {"n": n, "axis": ax, "norm": norm}
            add_case("fft.fft", [x], fft.fft(x, n=n, axis=ax, norm=norm).astype(cdt(x)), kwargs=kw)
            add_case("fft.ifft", [x], fft.ifft(x, n=n, axis=ax, norm=norm).astype(cdt(x)), kwargs=kw)
    for x in (xr, xf, uni(-1, 1, (2, 7), F64)):
        for n, ax, norm in ((None, -1, "backward"), (None, -1, "ortho"), (6, -1, "forward"), (11, -1, "backward"),
                            (None, 0, "backward")):
            kw = {"n": n, "axis": ax, "norm": norm}
            add_case("fft.rfft", [x], fft.rfft(x, n=n, axis=ax, norm=norm).astype(cdt(x)), kwargs=kw)
            add_case("fft.ihfft", [x], fft.ihfft(x, n=n, axis=ax, norm=norm).astype(cdt(x)), kwargs=kw)
    for x in (cplx((5,)), cplx((3, 4)), cplx((4,), C64)):
        for n, ax, norm in ((None, -1, "backward"), (None, -1, "ortho"), (9, -1, "backward"), (7, -1, "forward"),
                            (4, 0, "backward")):
            if ax == 0 and x.ndim == 1:
                continue
            kw = {"n": n, "axis": ax, "norm": norm}
            add_case("fft.irfft", [x], fft.irfft(x, n=n, axis=ax, norm=norm).astype(rdt(x)), kwargs=kw)
            add_case("fft.hfft", [x], fft.hfft(x, n=n, axis=ax, norm=norm).astype(rdt(x)), kwargs=kw)
    x3 = uni(-1, 1, (2, 3, 4), F64)
    xc3 = cplx((2, 3, 4))
    for s, axes, norm in ((None, None, "backward"), ([3, 4], None, "backward"), (None, [0, 2], "ortho"),
                          ([2, 6], [1, 2], "forward"), ([4], [0], "backward"), (None, [-1], "backward")):
        kw = {"s": s, "axes": axes, "norm": norm}
        for x in (x3, xc3, x3.astype(F32)):
            add_case("fft.fftn", [x], fft.fftn(x, s=s, axes=axes, norm=norm).astype(cdt(x)), kwargs=kw)
            add_case("fft.ifftn", [x], fft.ifftn(x, s=s, axes=axes, norm=norm).astype(cdt(x)), kwargs=kw)
        add_case("fft.rfftn", [x3], fft.rfftn(x3, s=s, axes=axes, norm=norm).astype(C128), kwargs=kw)
        xf3 = x3.astype(F32)
        add_case("fft.rfftn", [xf3], fft.rfftn(xf3, s=s, axes=axes, norm=norm).astype(C64), kwargs=kw)
    for s, axes, norm in ((None, None, "backward"), ([3, 6], None, "backward"), (None, [0, 2], "ortho"),
                          ([2, 5], [1, 2], "forward"), ([7], [-1], "backward")):
        kw = {"s": s, "axes": axes, "norm": norm}
        add_case("fft.irfftn", [xc3], fft.irfftn(xc3, s=s, axes=axes, norm=norm).astype(F64), kwargs=kw)
    for n, dd in ((8, 1.0), (7, 0.5), (1, 1.0), (10, 0.1)):
        add_case("fft.fftfreq", [], fft.fftfreq(n, dd).astype(F64), kwargs={"n": n, "d": dd, "dtype": "float64"})
        add_case("fft.rfftfreq", [], fft.rfftfreq(n, dd).astype(F64), kwargs={"n": n, "d": dd, "dtype": "float64"})
    add_case("fft.fftfreq", [], fft.fftfreq(6, 2.0).astype(F32), kwargs={"n": 6, "d": 2.0, "dtype": "float32"})
    add_case("fft.rfftfreq", [], fft.rfftfreq(6, 2.0).astype(F32), kwargs={"n": 6, "d": 2.0, "dtype": "float32"})
    for x in (uni(-1, 1, (7,), F64), uni(-1, 1, (8,), F64), uni(-1, 1, (3, 4), F32)):
        for axes in ([None, 0, -1, [0, 1]] if x.ndim == 2 else [None, 0]):
            nax = tuple(axes) if isinstance(axes, list) else axes
            add_case("fft.fftshift", [x], fft.fftshift(x, axes=nax), kwargs={"axes": axes})
            add_case("fft.ifftshift", [x], fft.ifftshift(x, axes=nax), kwargs={"axes": axes})


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("-o", "--output", default=os.path.join(here, "fixtures", "fixtures.json"))
    args = ap.parse_args()
    with np.errstate(all="ignore"):
        gen_unary()
        gen_binary()
        gen_creation()
        gen_dtypes()
        gen_reductions()
        gen_search_sort_set()
        gen_manipulation()
        gen_linalg()
        gen_decompositions()
        gen_fft()
        gen_misc()
    os.makedirs(os.path.dirname(os.path.abspath(args.output)), exist_ok=True)
    with open(args.output, "w") as f:
        json.dump(CASES, f, separators=(",", ":"), allow_nan=False)
        f.write("\n")
    fns = sorted({c["fn"] for c in CASES})
    print("wrote %d cases for %d functions to %s (%d bytes)" % (len(CASES), len(fns), args.output,
                                                                 os.path.getsize(args.output)), file=sys.stderr)


if __name__ == "__main__":
    main()

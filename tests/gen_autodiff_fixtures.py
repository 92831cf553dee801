#!/usr/bin/env python3
"""Generate PyTorch reference VJPs for ivy's differentiable primitives
(tests/test_autodiff_fixtures.cpp).

The reference cotangents come from PyTorch's autograd (Debian's python3-torch 1.13, run
with /usr/bin/python3), an implementation independent of ivy's rules. Run from the
repository root:

    /usr/bin/python3 tests/gen_autodiff_fixtures.py        # writes tests/fixtures/autodiff.json
    /usr/bin/python3 tests/gen_autodiff_fixtures.py -o out.json

Only NumPy, torch and the standard library are needed; the output is deterministic (fixed
seed, fixed case order): re-running it gives the identical file.

What a case is
--------------
One primitive of include/ivy/ops.def (by its row name), called directly with its
attributes (by the field names of its attribute set), on inputs in a valid domain, in
float32, float64 and, where the primitive takes complex input, complex64/complex128. A
scalar loss of the outputs is fixed per output k:

    L = sum_k  sum(Re(y_k) Re(c_k) + Im(y_k) Im(c_k))    "linear": c_k is the cotangent
              + sum(w_k |y_k|^2)                          "square": weights w_k (real)

and the expected input cotangents are torch.autograd.grad(L, inputs). A "linear" term is
a fixed output cotangent c_k; a "square" term stands for the output-dependent cotangent
2 w_k y_k, which the C++ test computes from ivy's own output. The square terms make losses
that are invariant where the primitive's outputs are not unique: eigenvectors (eigh, eig)
up to a sign or phase per column, singular vectors (svd) up to a shared phase, and the
Q/R factors of qr up to a diagonal of signs/phases; eig's eigenvalue terms use constant
weights, so they do not depend on the order the backend returns the eigenvalues in.

Complex convention: the file stores PyTorch's, in which the cotangent of a complex array
is dL/dRe + i dL/dIm (the "linear" c_k above, and every expected value). This script checks
it on a small example before writing anything (check_complex_convention: L = |z|^2 gives
2z, and grad_outputs c on exp(z) gives c * conj(exp(z))). It is also the convention ivy's
rules work in; ivy::vjp itself speaks JAX's, the conjugate dL/dRe - i dL/dIm
(docs/autodiff.md), so the C++ test conjugates complex output cotangents going in and
complex input cotangents coming out.

File format
-----------
{"generator": "...", "torch": "1.13...", "skipped": {op: why},
 "cases": [{"name": str, "op": ops.def row, "set": attribute set, "attrs": {field: value},
            "inputs": [array], "cotangents": [null | {"linear": array, "square": array}],
            "expected": [null | array],        # one per input; null: no gradient (int/bool)
            "rtol": number (optional)}]}

with an array written as {"dtype": "float64", "shape": [2, 3], "data": [...]}: data flat,
row-major, complex values as [re, im] pairs. Attribute values: ints and bools as JSON
numbers/booleans, "ints" as lists, "dtype" as a dtype name, "float" as a number.

Expressed differently in torch (same function, so the same VJP)
---------------------------------------------------------------
- expm1 / log1p on complex input: torch 1.13 has no complex kernels; exp(z) - 1 and
  log(1 + z) are used.
- var / std with a non-integer correction: torch 1.13 takes integer corrections only;
  sum(|x - mean|^2) / (N - correction) is used.
- strided_slice / slice_update: index_select / index_put with the slice's index lists
  (torch slicing has no negative steps).
- prod over several axes: one torch.prod per axis.
- take / take_along_axis with negative indices: the indices normalized inside the torch
  function (torch's index_select / gather reject negative indices).
- cholesky, eigh, eigvalsh: the Hermitian input is passed through (X + X^H) / 2 in torch,
  so the expected gradient is the Hermitian part (ivy returns the Hermitian part).

Skipped (torch cannot express them, or no well-defined reference)
------------------------------------------------------------------
- imag of a real input (torch.imag rejects real tensors; the gradient is zero anyway).
- index_put_flat with repeated positions (torch's index_put keeps an unspecified write).
- qr mode='complete' with rows > columns, and svd full_matrices=True on non-square input
  with U/Vh cotangents: neither torch nor ivy differentiates them (an error in both); the
  singular-values-only case of the latter is included.
- std where the variance is 0 (ivy's documented convention is NaN, as JAX; torch gives 0),
  max/min/maximum/minimum with NaN, abs/copysign/hypot at 0, remainder at the jumps of
  floor(x1 / x2), sqrt/log at 0, and every other non-smooth point.
- sort with ties when stable=false (the permutation is not unique).
- flip with axes=[] on an array of rank >= 1: ops.def says "every axis when empty", but
  both backends' kernels flip nothing (the public ivy::flip always names the axes); the
  VJP rule re-dispatches the same attributes, so it agrees with either reading. Only the
  0-d case, where the readings coincide, is included.
- float16 / bfloat16 (tolerances), and the n-d fft over more than two axes (kept small).
"""

import argparse
import json
import math
import os
import sys

import numpy as np
import torch

torch.set_grad_enabled(True)
torch.use_deterministic_algorithms(True)

RNG = np.random.default_rng(20240611)
CASES = []
SKIPPED = {}

F32, F64, C64, C128 = np.float32, np.float64, np.complex64, np.complex128
REAL = [F64, F32]
ALL = [F64, F32, C128, C64]
TORCH_OF = {np.dtype(F32): torch.float32, np.dtype(F64): torch.float64, np.dtype(C64): torch.complex64,
            np.dtype(C128): torch.complex128, np.dtype(np.int64): torch.int64, np.dtype(np.int32): torch.int32,
            np.dtype(np.bool_): torch.bool}
SHORT = {np.dtype(F32): "f32", np.dtype(F64): "f64", np.dtype(C64): "c64", np.dtype(C128): "c128"}


def is_float(dt):
    return np.dtype(dt).kind in "fc"


def is_cplx(dt):
    return np.dtype(dt).kind == "c"


def real_of(dt):
    return {np.dtype(C64): np.dtype(F32), np.dtype(C128): np.dtype(F64)}.get(np.dtype(dt), np.dtype(dt))


def wide(dt):
    """The 64-bit dtype of the same kind (float32 -> float64, complex64 -> complex128)."""
    return {np.dtype(F32): np.dtype(F64), np.dtype(C64): np.dtype(C128)}.get(np.dtype(dt), np.dtype(dt))


# --------------------------------------------------------------------------- encoding
def _short32(v):
    s = np.format_float_positional(np.float32(v), unique=True, trim="-")
    f = float(s)
    # what the C++ side does: parse to double, then round to float
    if np.float32(f) != np.float32(v):
        f = float(np.float32(v))
    return f


def _num(v, dt, exact):
    v = float(v)
    if math.isnan(v) or math.isinf(v):
        raise ValueError("non-finite value in a fixture")
    if real_of(dt) == np.dtype(F32):
        return _short32(v)
    return v if exact else float("%.13g" % v)


def enc(a, exact=True):
    """exact: inputs and cotangents (every bit kept); else expected values (rounded)."""
    a = np.asarray(a)
    dt = a.dtype
    if dt == np.bool_:
        data = [bool(v) for v in a.ravel()]
    elif dt.kind in "iu":
        data = [int(v) for v in a.ravel()]
    elif dt.kind == "c":
        data = [[_num(v.real, dt, exact), _num(v.imag, dt, exact)] for v in a.ravel()]
    else:
        data = [_num(v, dt, exact) for v in a.ravel()]
    return {"dtype": dt.name, "shape": [int(d) for d in a.shape], "data": data}


# --------------------------------------------------------------------------- inputs
def dec(x, digits=3):
    return np.round(np.asarray(x, dtype=np.float64), digits)


def uni(shape, dt, lo=-1.0, hi=1.0):
    """Values in [lo, hi] (both parts for complex), 3 decimals."""
    if is_cplx(dt):
        re = dec(RNG.uniform(lo, hi, size=shape))
        im = dec(RNG.uniform(lo, hi, size=shape))
        return (re + 1j * im).astype(dt)
    return dec(RNG.uniform(lo, hi, size=shape)).astype(dt)


def away(shape, dt, lo=0.2, hi=1.5):
    """Magnitudes in [lo, hi] with random signs (both parts for complex): off 0 and off the
    real axis, so off every branch cut of the principal branches."""
    def part():
        return dec(RNG.uniform(lo, hi, size=shape) * RNG.choice([-1.0, 1.0], size=shape))
    if is_cplx(dt):
        return (part() + 1j * part()).astype(dt)
    return part().astype(dt)


def cot(shape, dt):
    return uni(shape, dt, -1.0, 1.0)


def weights(shape, dt):
    return dec(RNG.uniform(0.2, 1.0, size=shape)).astype(real_of(dt))


# --------------------------------------------------------------------------- cotangent specs
# A spec is called with an output's (shape, dtype) and returns {"linear": arr, "square": arr}
# (either optional) or None (no cotangent for that output).
def LIN(shape, dt):
    return {"linear": cot(shape, dt)}


def SQ(shape, dt):
    return {"square": weights(shape, dt)}


def NONE(shape, dt):
    return None


def CONST(shape, dt):
    """eig's eigenvalues: constant weights on every term (invariant under reordering)."""
    c = dec(RNG.uniform(-1, 1)) + (1j * dec(RNG.uniform(-1, 1)) if is_cplx(dt) else 0)
    return {"linear": np.full(shape, c, dtype=dt), "square": np.full(shape, dec(RNG.uniform(0.2, 1.0)), dtype=real_of(dt))}


def ROWSQ(shape, dt):
    """eig's eigenvectors: |V|^2 weighted by row only (invariant under column reordering)."""
    rows = dec(RNG.uniform(0.2, 1.0, size=shape[:-1] + (1,)))
    return {"square": np.broadcast_to(rows, shape).astype(real_of(dt))}


# --------------------------------------------------------------------------- torch
def T(a):
    return torch.from_numpy(np.array(a, copy=True))


def torch_vjp(fn, inputs, specs):
    """fn on torch copies of inputs; the gradient of the spec loss for every floating input
    (None for the others); also the outputs."""
    ts = [T(a) for a in inputs]
    for t in ts:
        if t.is_floating_point() or t.is_complex():
            t.requires_grad_(True)
    outs = fn(*ts)
    if not isinstance(outs, (tuple, list)):
        outs = (outs,)
    loss = None
    for y, s in zip(outs, specs):
        if s is None or not y.requires_grad:
            continue
        terms = []
        if "linear" in s:
            c = T(s["linear"])
            terms.append((y.real * c.real + y.imag * c.imag).sum() if y.is_complex() else (y * c).sum())
        if "square" in s:
            w = T(s["square"])
            terms.append((w * (y.real ** 2 + y.imag ** 2)).sum() if y.is_complex() else (w * y * y).sum())
        for t in terms:
            loss = t if loss is None else loss + t
    diff = [t for t in ts if t.requires_grad]
    grads = torch.autograd.grad(loss, diff, allow_unused=True) if loss is not None and diff else [None] * len(diff)
    res, k = [], 0
    for t in ts:
        if t.requires_grad:
            g = grads[k]
            k += 1
            res.append(torch.zeros_like(t).detach().numpy() if g is None
                       else g.detach().resolve_conj().resolve_neg().numpy().copy())
        else:
            res.append(None)
    return res, [y.detach() for y in outs]


def output_specs(fn, inputs):
    with torch.no_grad():
        outs = fn(*[T(a) for a in inputs])
    if not isinstance(outs, (tuple, list)):
        outs = (outs,)
    return [(tuple(y.shape), np.dtype(str(y.dtype).replace("torch.", ""))) for y in outs]


def upcast(a):
    a = np.asarray(a)
    return a.astype(wide(a.dtype)) if is_float(a.dtype) else a


WORST = []  # (relative difference float32 vs float64 in torch, case name)


def optional_attrs(attrs):
    """ops.def's optional fields: the cases below spell one as has_<name> and <name>; the
    fixture holds <name>, or null when absent."""
    attrs = dict(attrs)
    for key in [k for k in attrs if k.startswith("has_")]:
        if not attrs.pop(key):
            attrs[key[4:]] = None
    return attrs


def add_case(name, op, aset, attrs, inputs, fn, specs=None, rtol=None, check32=True):
    """specs: one spec function per output (default LIN for floating outputs)."""
    outs = output_specs(fn, inputs)
    if specs is None:
        specs = [LIN] * len(outs)
    assert len(specs) == len(outs), name
    cots = [s(shape, dt) if is_float(dt) else None for s, (shape, dt) in zip(specs, outs)]
    expected, _ = torch_vjp(fn, inputs, cots)
    for e, a in zip(expected, inputs):
        if e is not None:
            assert e.shape == a.shape and e.dtype == a.dtype, (name, e.shape, a.shape, e.dtype, a.dtype)
            assert np.all(np.isfinite(e)), name
    # conditioning: the same case in 64-bit (exact upcasts of the inputs and cotangents)
    if check32 and any(is_float(a.dtype) and real_of(a.dtype) == np.dtype(F32) for a in inputs):
        wcots = [None if c is None else {k: upcast(v) for k, v in c.items()} for c in cots]
        ref, _ = torch_vjp(fn, [upcast(a) for a in inputs], wcots)
        for e, r in zip(expected, ref):
            if e is None or e.size == 0:
                continue
            scale = max(float(np.max(np.abs(r))), 1e-30)
            d = float(np.max(np.abs(e.astype(r.dtype) - r))) / scale
            WORST.append((d, name))
            if d > 2e-5:
                print("warning: %s: torch float32 vs float64 differ by %.2e (relative to the largest)" % (name, d),
                      file=sys.stderr)
    c = {"name": name, "op": op, "set": aset, "attrs": optional_attrs(attrs),
         "inputs": [enc(a) for a in inputs],
         "cotangents": [None if x is None else {k: enc(v) for k, v in x.items()} for x in cots],
         "expected": [None if e is None else enc(e, exact=False) for e in expected]}
    if rtol is not None:
        c["rtol"] = rtol
    CASES.append(c)


def sh(s):
    return "(" + ",".join(str(d) for d in s) + ")"


def check_complex_convention():
    z = torch.tensor([1.5 - 0.5j], dtype=torch.complex128, requires_grad=True)
    (g,) = torch.autograd.grad((z.real ** 2 + z.imag ** 2).sum(), [z])
    assert torch.allclose(g, 2 * z.detach()), g  # dL/dRe + i dL/dIm = 2x + 2iy
    c = torch.tensor([0.25 + 0.75j], dtype=torch.complex128)
    (g,) = torch.autograd.grad(torch.exp(z), [z], grad_outputs=[c])
    assert torch.allclose(g, c * torch.exp(z.detach()).conj()), g  # g * conj(f'(z)), as ivy's rules
    (g,) = torch.autograd.grad((torch.exp(z).real * c.real + torch.exp(z).imag * c.imag).sum(), [z])
    assert torch.allclose(g, c * torch.exp(z.detach()).conj()), g  # the "linear" loss is the same


# --------------------------------------------------------------------------- elementwise
UNARY = {
    # op: (torch function, real domain (lo, hi), complex ok)
    "abs": (torch.abs, (0.2, 2.0), True),
    "acos": (torch.acos, (-0.9, 0.9), True),
    "acosh": (torch.acosh, (1.2, 3.0), True),
    "asin": (torch.asin, (-0.9, 0.9), True),
    "asinh": (torch.asinh, (-2.0, 2.0), True),
    "atan": (torch.atan, (-2.0, 2.0), True),
    "atanh": (torch.atanh, (-0.9, 0.9), True),
    "conj": (torch.conj, (-2.0, 2.0), True),
    "cos": (torch.cos, (-3.0, 3.0), True),
    "cosh": (torch.cosh, (-2.0, 2.0), True),
    "exp": (torch.exp, (-2.0, 2.0), True),
    "expm1": (lambda x: torch.exp(x) - 1 if x.is_complex() else torch.expm1(x), (-2.0, 2.0), True),
    "imag": (torch.imag, None, True),
    "log": (torch.log, (0.2, 3.0), True),
    "log1p": (lambda x: torch.log(1 + x) if x.is_complex() else torch.log1p(x), (-0.5, 3.0), True),
    "log2": (torch.log2, (0.2, 3.0), True),
    "log10": (torch.log10, (0.2, 3.0), True),
    "negative": (torch.neg, (-2.0, 2.0), True),
    "positive": (torch.positive, (-2.0, 2.0), True),
    "real": (torch.real, (-2.0, 2.0), True),
    "reciprocal": (torch.reciprocal, (0.3, 3.0), True),
    "sin": (torch.sin, (-3.0, 3.0), True),
    "sinh": (torch.sinh, (-2.0, 2.0), True),
    "square": (torch.square, (-2.0, 2.0), True),
    "sqrt": (torch.sqrt, (0.2, 3.0), True),
    "tan": (torch.tan, (-1.2, 1.2), True),
    "tanh": (torch.tanh, (-2.0, 2.0), True),
}


def gen_unary():
    for op, (fn, dom, cplx_ok) in UNARY.items():
        plan = [(F64, ()), (F64, (2, 3)), (F64, (0,)), (F32, (2, 3)), (F32, (4,))]
        if cplx_ok:
            plan += [(C128, ()), (C128, (2, 3)), (C64, (2, 3))]
        for dt, shape in plan:
            if dom is None and not is_cplx(dt):
                continue  # imag of a real input: torch.imag rejects it (see the docstring)
            if is_cplx(dt):
                x = away(shape, dt, 0.2, 1.0)
            else:
                x = uni(shape, dt, *dom)
            add_case("%s %s %s" % (op, SHORT[np.dtype(dt)], sh(shape)), op, "none", {}, [x], fn)
    # abs on negative inputs, sign-mixed inputs
    add_case("abs f64 negative", "abs", "none", {}, [uni((4,), F64, -2.0, -0.2)], torch.abs)
    add_case("abs f32 mixed signs", "abs", "none", {}, [away((2, 3), F32)], torch.abs)


BINARY = {
    # op: (torch function, domain x1, domain x2, complex ok)
    "add": (torch.add, (-2, 2), (-2, 2), True),
    "subtract": (torch.sub, (-2, 2), (-2, 2), True),
    "multiply": (torch.mul, (-2, 2), (-2, 2), True),
    "divide": (torch.div, (-2, 2), "away", True),
    "atan2": (torch.atan2, (-2, 2), (0.5, 2), False),
    "copysign": (torch.copysign, "away", (-2, 2), False),
    "hypot": (torch.hypot, (0.3, 2), (0.3, 2), False),
    "logaddexp": (torch.logaddexp, (-2, 2), (-2, 2), False),
    "maximum": (torch.maximum, (-2, 2), (-2, 2), False),
    "minimum": (torch.minimum, (-2, 2), (-2, 2), False),
    "pow": (torch.pow, (0.5, 2), (-1.5, 1.5), True),
    "remainder": (torch.remainder, (-5, 5), "away", False),
}
PAIRS_F64 = [((), ()), ((2, 3), (2, 3)), ((2, 3), (3,)), ((2, 1), (1, 3)), ((), (2, 3)), ((0, 3), (3,))]
PAIRS_OTHER = [((2, 3), (3,)), ((2, 1), (1, 3))]


def binary_operand(op, which, dom, shape, dt):
    if is_cplx(dt):
        if op == "pow" and which == 0:  # base off the negative real axis
            re = dec(RNG.uniform(0.3, 1.5, size=shape))
            im = dec(RNG.uniform(-1.0, 1.0, size=shape))
            return (re + 1j * im).astype(dt)
        if op == "pow":
            return uni(shape, dt, -0.8, 0.8)
        return away(shape, dt, 0.3, 1.5) if dom == "away" else uni(shape, dt, -1.5, 1.5)
    if dom == "away":
        return away(shape, dt, 0.5, 2.0)
    return uni(shape, dt, *dom)


def gen_binary():
    for op, (fn, d1, d2, cplx_ok) in BINARY.items():
        plan = [(F64, p) for p in PAIRS_F64] + [(F32, p) for p in PAIRS_OTHER]
        if cplx_ok:
            plan += [(C128, p) for p in PAIRS_OTHER] + [(C64, PAIRS_OTHER[0])]
        for dt, (s1, s2) in plan:
            for _ in range(100):
                a = binary_operand(op, 0, d1, s1, dt)
                b = binary_operand(op, 1, d2, s2, dt)
                if op != "remainder":
                    break
                q = np.asarray(a, np.float64) / np.asarray(b, np.float64)
                frac = q - np.floor(q)
                if np.all((frac > 0.05) & (frac < 0.95)):
                    break  # away from the jumps of floor(x1 / x2)
            add_case("%s %s %s %s" % (op, SHORT[np.dtype(dt)], sh(s1), sh(s2)), op, "none", {}, [a, b], fn)
    # ties split the cotangent evenly (as torch does)
    a = np.array([1.0, 2.0, -0.5, 3.0])
    b = np.array([1.0, 2.5, -0.5, 0.25])
    add_case("maximum f64 ties", "maximum", "none", {}, [a, b], torch.maximum)
    add_case("minimum f64 ties", "minimum", "none", {}, [a, b], torch.minimum)
    # mixed dtypes: promoted result, each cotangent cast back to its input's dtype
    add_case("multiply f32*f64 (2,3) (3,)", "multiply", "none", {},
             [uni((2, 3), F32), uni((3,), F64)], torch.mul)
    add_case("multiply c64*f64 (2,3) (3,)", "multiply", "none", {},
             [uni((2, 3), C64), uni((3,), F64)], torch.mul)
    add_case("add f64+c128 (3,) (2,3)", "add", "none", {}, [uni((3,), F64), uni((2, 3), C128)], torch.add)
    add_case("divide f32/c128 (2,3) (3,)", "divide", "none", {}, [uni((2, 3), F32), away((3,), C128)], torch.div)


def gen_where_astype():
    for dt in ALL:
        cond = RNG.random((3,)) < 0.5
        cond[0], cond[1] = True, False
        add_case("where %s (3,) (2,3) (3,)" % SHORT[np.dtype(dt)], "where", "none", {},
                 [cond, uni((2, 3), dt), uni((3,), dt)], torch.where)
    cond = RNG.random((2, 1)) < 0.5
    cond[0, 0], cond[1, 0] = True, False
    add_case("where f64 (2,1) () (1,3)", "where", "none", {}, [cond, uni((), F64), uni((1, 3), F64)], torch.where)
    add_case("where f32/f64 (2,1) (2,3) (3,)", "where", "none", {}, [cond, uni((2, 3), F32), uni((3,), F64)],
             torch.where)
    conv = [(F64, F32), (F32, F64), (F64, C128), (F32, C64), (C128, C64), (C64, C128), (C128, F64)]
    for src, dst in conv:
        tdst = TORCH_OF[np.dtype(dst)]
        fn = (lambda x, tdst=tdst: x.to(tdst)) if not (is_cplx(src) and not is_cplx(dst)) else \
            (lambda x, tdst=tdst: x.real.to(tdst))  # complex -> real keeps the real part (as .to, without its warning)
        add_case("astype %s->%s (2,3)" % (SHORT[np.dtype(src)], SHORT[np.dtype(dst)]), "astype", "astype",
                 {"dtype": np.dtype(dst).name}, [uni((2, 3), src)], fn)


# --------------------------------------------------------------------------- reductions
def tdims(x, axes, has_axes):
    return tuple(axes) if has_axes else tuple(range(x.dim()))


def keep_shape(shape, axes, has_axes):
    return tuple(1 if (not has_axes or i in axes) else d for i, d in enumerate(shape))


def red_shape(shape, axes, has_axes, keepdims):
    if keepdims:
        return keep_shape(shape, axes, has_axes)
    return tuple(d for i, d in enumerate(shape) if has_axes and i not in axes)


def t_sum(axes, has, keep, dtype=None):
    td = TORCH_OF[np.dtype(dtype)] if dtype else None

    def f(x):
        if x.dim() == 0:
            return x.to(td) if td else x * 1
        return torch.sum(x, dim=tdims(x, axes, has), keepdim=keep, dtype=td)
    return f


def t_prod(axes, has, keep, dtype=None):
    td = TORCH_OF[np.dtype(dtype)] if dtype else None

    def f(x):
        y = x.to(td) if td else x
        if y.dim() == 0:
            return y * 1
        for ax in sorted(tdims(x, axes, has), reverse=True):
            y = torch.prod(y, dim=ax, keepdim=True)
        return y.reshape(red_shape(tuple(x.shape), axes, has, keep))
    return f


def t_mean(axes, has, keep):
    return lambda x: torch.mean(x, dim=tdims(x, axes, has), keepdim=keep) if x.dim() else x * 1


def t_amax(axes, has, keep, fn):
    return lambda x: fn(x, dim=tdims(x, axes, has), keepdim=keep) if x.dim() else x * 1


def t_var(axes, has, keep, corr, root):
    def f(x):
        dims = tdims(x, axes, has)
        if float(corr).is_integer():
            v = torch.var(x, dim=dims, correction=int(corr), keepdim=keep)
        else:
            n = 1
            for d in dims:
                n *= x.shape[d]
            c = x - x.mean(dim=dims, keepdim=True)
            v = (c.real ** 2 + c.imag ** 2 if x.is_complex() else c * c).sum(dim=dims, keepdim=keep) / (n - corr)
        return torch.sqrt(v) if root else v
    return f


def gen_reductions():
    x_shapes = [(2, 3, 4)]
    configs = [([], False, False), ([1], True, False), ([0, 2], True, True), ([2], True, True), ([0, 1, 2], True, False)]

    def attrs_reduce(axes, has, keep):
        return {"axes": axes, "has_axes": has, "keepdims": keep}

    for dt in ALL:
        for axes, has, keep in configs:
            if dt in (F32, C64, C128) and axes not in ([1], [0, 2]):
                continue
            desc = "%s (2,3,4) axes=%s keepdims=%s" % (SHORT[np.dtype(dt)], axes if has else "all", keep)
            x = uni((2, 3, 4), dt, -1.5, 1.5)
            add_case("sum " + desc, "sum", "reduce_acc", dict(attrs_reduce(axes, has, keep), dtype="float32",
                     has_dtype=False), [x], t_sum(axes, has, keep))
            add_case("mean " + desc, "mean", "reduce", attrs_reduce(axes, has, keep), [x], t_mean(axes, has, keep))
            xp = away((2, 3, 4), dt, 0.5, 1.3)
            add_case("prod " + desc, "prod", "reduce_acc", dict(attrs_reduce(axes, has, keep), dtype="float32",
                     has_dtype=False), [xp], t_prod(axes, has, keep))
            for corr in ([1.0, 0.0] if dt == F64 else [1.0]):
                for op, root in (("var", False), ("std", True)):
                    add_case("%s %s correction=%g" % (op, desc, corr), op, "reduce_var",
                             dict(attrs_reduce(axes, has, keep), correction=corr), [x], t_var(axes, has, keep, corr, root))
            if not is_cplx(dt):
                xm = uni((2, 3, 4), dt, -1.5, 1.5)
                for op, tf in (("max", torch.amax), ("min", torch.amin)):
                    add_case(op + " " + desc, op, "reduce", attrs_reduce(axes, has, keep), [xm],
                             t_amax(axes, has, keep, tf))
    # non-integer correction
    x = uni((3, 4), F64)
    for op, root in (("var", False), ("std", True)):
        add_case("%s f64 (3,4) axes=[1] correction=1.5" % op, op, "reduce_var",
                 {"axes": [1], "has_axes": True, "keepdims": False, "correction": 1.5}, [x],
                 t_var([1], True, False, 1.5, root))
        add_case("%s c128 (3,4) all correction=0.5" % op, op, "reduce_var",
                 {"axes": [], "has_axes": False, "keepdims": True, "correction": 0.5}, [uni((3, 4), C128)],
                 t_var([], False, True, 0.5, root))
    # accumulation dtype
    add_case("sum f32 (2,3) dtype=float64", "sum", "reduce_acc",
             {"axes": [0], "has_axes": True, "keepdims": False, "dtype": "float64", "has_dtype": True},
             [uni((2, 3), F32)], t_sum([0], True, False, F64))
    add_case("prod f64 (2,3) dtype=complex128", "prod", "reduce_acc",
             {"axes": [1], "has_axes": True, "keepdims": False, "dtype": "complex128", "has_dtype": True},
             [away((2, 3), F64, 0.5, 1.3)], t_prod([1], True, False, C128))
    # 0-d and empty inputs
    for op in ("sum", "mean", "prod"):
        aset = "reduce" if op == "mean" else "reduce_acc"
        at = {"axes": [], "has_axes": False, "keepdims": False}
        if aset == "reduce_acc":
            at.update(dtype="float32", has_dtype=False)
        tf = {"sum": t_sum, "mean": t_mean, "prod": t_prod}[op]([], False, False)
        add_case(op + " f64 () all", op, aset, at, [uni((), F64)], tf)
    add_case("sum f64 (0,3) axes=[0]", "sum", "reduce_acc",
             {"axes": [0], "has_axes": True, "keepdims": False, "dtype": "float32", "has_dtype": False},
             [np.zeros((0, 3))], t_sum([0], True, False))
    add_case("prod f64 (0,3) axes=[0]", "prod", "reduce_acc",
             {"axes": [0], "has_axes": True, "keepdims": False, "dtype": "float32", "has_dtype": False},
             [np.zeros((0, 3))], t_prod([0], True, False))
    add_case("max f64 (3,0) axes=[0]", "max", "reduce", {"axes": [0], "has_axes": True, "keepdims": True},
             [np.zeros((3, 0))], t_amax([0], True, True, torch.amax))
    # zeros in prod: one zero, two zeros in a block
    xz = away((3, 4), F64, 0.5, 1.5)
    xz[0, 1] = 0.0
    xz[1, 0] = xz[1, 2] = 0.0
    for axes, has in (([1], True), ([], False)):
        add_case("prod f64 (3,4) zeros axes=%s" % (axes if has else "all"), "prod", "reduce_acc",
                 {"axes": axes, "has_axes": has, "keepdims": False, "dtype": "float32", "has_dtype": False},
                 [xz], t_prod(axes, has, False))
    xz1 = away((3, 4), C128, 0.5, 1.2)
    xz1[2, 3] = 0
    add_case("prod c128 (3,4) zero axes=[1]", "prod", "reduce_acc",
             {"axes": [1], "has_axes": True, "keepdims": True, "dtype": "float32", "has_dtype": False},
             [xz1], t_prod([1], True, True))
    # ties share the cotangent evenly (torch.amax / amin do too)
    xt = np.array([[1.0, 3.0, 3.0, -2.0], [0.5, 0.5, 0.5, 0.25], [-1.0, -4.0, 2.0, -4.0]])
    for op, tf in (("max", torch.amax), ("min", torch.amin)):
        add_case(op + " f64 (3,4) ties axes=[1]", op, "reduce", {"axes": [1], "has_axes": True, "keepdims": False},
                 [xt], t_amax([1], True, False, tf))
        add_case(op + " f64 (3,4) ties all", op, "reduce", {"axes": [], "has_axes": False, "keepdims": False},
                 [xt], t_amax([], False, False, tf))


def t_cum(prod, axis, initial, dtype=None):
    td = TORCH_OF[np.dtype(dtype)] if dtype else None

    def f(x):
        y = x.reshape(1) if x.dim() == 0 else x
        y = torch.cumprod(y, dim=axis, dtype=td) if prod else torch.cumsum(y, dim=axis, dtype=td)
        if initial:
            s = list(y.shape)
            s[axis] = 1
            y = torch.cat([(torch.ones if prod else torch.zeros)(s, dtype=y.dtype), y], dim=axis)
        return y
    return f


def gen_cumulative():
    for dt in ALL:
        for op, prod in (("cumulative_sum", False), ("cumulative_prod", True)):
            for axis, initial in ((1, False), (0, True), (2, False)):
                if dt != F64 and axis == 2:
                    continue
                x = away((2, 3, 4), dt, 0.5, 1.3) if prod else uni((2, 3, 4), dt)
                add_case("%s %s (2,3,4) axis=%d include_initial=%s" % (op, SHORT[np.dtype(dt)], axis, initial), op,
                         "cumulative", {"axis": axis, "include_initial": initial, "dtype": "float32",
                                        "has_dtype": False}, [x], t_cum(prod, axis, initial))
    for op, prod in (("cumulative_sum", False), ("cumulative_prod", True)):
        add_case(op + " f64 () axis=0", op, "cumulative",
                 {"axis": 0, "include_initial": False, "dtype": "float32", "has_dtype": False},
                 [away((), F64, 0.5, 1.3)], t_cum(prod, 0, False))
        add_case(op + " f64 (0,3) axis=1 include_initial", op, "cumulative",
                 {"axis": 1, "include_initial": True, "dtype": "float32", "has_dtype": False},
                 [np.zeros((0, 3))], t_cum(prod, 1, True))
        add_case(op + " f32 (3,) dtype=float64", op, "cumulative",
                 {"axis": 0, "include_initial": False, "dtype": "float64", "has_dtype": True},
                 [away((3,), F32, 0.5, 1.3)], t_cum(prod, 0, False, F64))
    # zeros in cumulative_prod: one zero in a lane, two zeros in a lane, a zero first
    x = away((3, 5), F64, 0.5, 1.5)
    x[0, 2] = 0.0
    x[1, 1] = x[1, 3] = 0.0
    x[2, 0] = 0.0
    for initial in (False, True):
        add_case("cumulative_prod f64 (3,5) zeros include_initial=%s" % initial, "cumulative_prod", "cumulative",
                 {"axis": 1, "include_initial": initial, "dtype": "float32", "has_dtype": False}, [x],
                 t_cum(True, 1, initial))
    xc = away((2, 4), C128, 0.4, 1.2)
    xc[0, 1] = 0
    add_case("cumulative_prod c128 (2,4) zero", "cumulative_prod", "cumulative",
             {"axis": 1, "include_initial": False, "dtype": "float32", "has_dtype": False}, [xc], t_cum(True, 1, False))


# --------------------------------------------------------------------------- manipulation
def gen_manipulation():
    for dt in ALL:
        s = SHORT[np.dtype(dt)]
        x = uni((2, 3, 4), dt)
        add_case("reshape %s (2,3,4)->(4,6)" % s, "reshape", "reshape", {"shape": [4, 6]}, [x],
                 lambda v: v.reshape(4, 6))
        add_case("permute_dims %s (2,3,4) [2,0,1]" % s, "permute_dims", "permute_dims", {"axes": [2, 0, 1]}, [x],
                 lambda v: v.permute(2, 0, 1))
        add_case("broadcast_to %s (3,1)->(2,3,4)" % s, "broadcast_to", "broadcast_to", {"shape": [2, 3, 4]},
                 [uni((3, 1), dt)], lambda v: torch.broadcast_to(v, (2, 3, 4)))
        add_case("flip %s (2,3,4) [0,2]" % s, "flip", "flip", {"axes": [0, 2]}, [x], lambda v: torch.flip(v, [0, 2]))
        add_case("roll %s (2,3,4) shifts=[1,-2] axes=[1,2]" % s, "roll", "roll",
                 {"shifts": [1, -2], "axes": [1, 2], "has_axes": True}, [x], lambda v: torch.roll(v, (1, -2), (1, 2)))
        add_case("tile %s (2,3) reps=[2,1,2]" % s, "tile", "tile", {"reps": [2, 1, 2]}, [uni((2, 3), dt)],
                 lambda v: torch.tile(v, (2, 1, 2)))
        add_case("repeat %s (2,3,4) per element axis=1" % s, "repeat", "repeat",
                 {"repeats": [2, 0, 3], "has_axis": True, "axis": 1}, [x],
                 lambda v: torch.repeat_interleave(v, torch.tensor([2, 0, 3]), dim=1))
        add_case("concat %s (2,3,4)+(2,2,4) axis=1" % s, "concat", "one_axis", {"axis": 1},
                 [x, uni((2, 2, 4), dt)], lambda a, b: torch.cat([a, b], dim=1))
    x = uni((2, 3, 4), F64)
    add_case("reshape f64 (2,3,4)->(-1,)", "reshape", "reshape", {"shape": [-1]}, [x], lambda v: v.reshape(-1))
    add_case("reshape f64 ()->(1,1)", "reshape", "reshape", {"shape": [1, 1]}, [uni((), F64)],
             lambda v: v.reshape(1, 1))
    add_case("reshape f64 (0,3)->(3,0)", "reshape", "reshape", {"shape": [3, 0]}, [np.zeros((0, 3))],
             lambda v: v.reshape(3, 0))
    add_case("broadcast_to f64 ()->(2,3)", "broadcast_to", "broadcast_to", {"shape": [2, 3]}, [uni((), F64)],
             lambda v: torch.broadcast_to(v, (2, 3)))
    add_case("broadcast_to f64 (2,1,4)->(3,2,5,4)", "broadcast_to", "broadcast_to", {"shape": [3, 2, 5, 4]},
             [uni((2, 1, 4), F64)], lambda v: torch.broadcast_to(v, (3, 2, 5, 4)))
    add_case("flip f64 (2,3,4) all", "flip", "flip", {"axes": [0, 1, 2]}, [x], lambda v: torch.flip(v, [0, 1, 2]))
    add_case("flip f64 (3,) axes=[0]", "flip", "flip", {"axes": [0]}, [uni((3,), F64)], lambda v: torch.flip(v, [0]))
    # (the primitive with axes=[] flips nothing in both backends' kernels, whatever ops.def's
    # comment says; the public ivy::flip fills in every axis: only the 0-d case, where the
    # two readings agree, is here)
    add_case("flip f64 () axes=[]", "flip", "flip", {"axes": []}, [uni((), F64)], lambda v: torch.flip(v, []))
    add_case("roll f64 (2,3,4) flat shift=5", "roll", "roll", {"shifts": [5], "axes": [], "has_axes": False}, [x],
             lambda v: torch.roll(v, 5))
    add_case("roll f64 (2,3,4) shifts=[7] axes=[2]", "roll", "roll", {"shifts": [7], "axes": [2], "has_axes": True},
             [x], lambda v: torch.roll(v, 7, 2))
    add_case("roll f64 (2,3) shifts=[1,1] axes=[1,1]", "roll", "roll",
             {"shifts": [1, 1], "axes": [1, 1], "has_axes": True}, [uni((2, 3), F64)],
             lambda v: torch.roll(v, (1, 1), (1, 1)))
    add_case("tile f64 (2,3,4) reps=[2]", "tile", "tile", {"reps": [2]}, [x], lambda v: torch.tile(v, (2,)))
    add_case("tile f64 () reps=[3,2]", "tile", "tile", {"reps": [3, 2]}, [uni((), F64)],
             lambda v: torch.tile(v, (3, 2)))
    add_case("tile f64 (2,3) reps=[0,2]", "tile", "tile", {"reps": [0, 2]}, [uni((2, 3), F64)],
             lambda v: torch.tile(v, (0, 2)))
    add_case("repeat f64 (2,3,4) flat 2", "repeat", "repeat", {"repeats": [2], "has_axis": False, "axis": 0}, [x],
             lambda v: torch.repeat_interleave(v, 2))
    add_case("repeat f64 (2,3,4) axis=2 uniform 3", "repeat", "repeat", {"repeats": [3], "has_axis": True, "axis": 2},
             [x], lambda v: torch.repeat_interleave(v, 3, dim=2))
    add_case("repeat f64 (5,) per element flat", "repeat", "repeat",
             {"repeats": [1, 3, 0, 2, 4], "has_axis": False, "axis": 0}, [uni((5,), F64)],
             lambda v: torch.repeat_interleave(v, torch.tensor([1, 3, 0, 2, 4])))
    add_case("concat f64 three inputs axis=0 with an empty one", "concat", "one_axis", {"axis": 0},
             [uni((2, 3), F64), np.zeros((0, 3)), uni((1, 3), F64)], lambda a, b, c: torch.cat([a, b, c], 0))
    add_case("concat f32+f64 (2,3)+(2,2) axis=1", "concat", "one_axis", {"axis": 1},
             [uni((2, 3), F32), uni((2, 2), F64)], lambda a, b: torch.cat([a, b], 1))


# --------------------------------------------------------------------------- indexing
def norm_slices(shape, raw):
    """raw: one (start, stop, step) per axis, Python's conventions (None allowed)."""
    st, sp, ss, idx = [], [], [], []
    for n, (a, b, c) in zip(shape, raw):
        i = slice(a, b, c).indices(n)
        st.append(i[0])
        sp.append(i[1])
        ss.append(i[2])
        idx.append(list(range(*i)))
    return {"start": st, "stop": sp, "step": ss}, idx


def t_slice(idx):
    def f(x):
        y = x
        for ax, ii in enumerate(idx):
            y = torch.index_select(y, ax, torch.tensor(ii, dtype=torch.int64))
        return y
    return f


def t_slice_update(idx):
    def f(x, v):
        mesh = torch.meshgrid(*[torch.tensor(ii, dtype=torch.int64) for ii in idx], indexing="ij")
        vb = torch.broadcast_to(v, mesh[0].shape).to(x.dtype) if len(idx) else v
        return x.index_put(tuple(mesh), vb)
    return f


def t_take(axis, n):
    def f(x, i):
        j = torch.where(i < 0, i + n, i).to(torch.int64)
        y = torch.index_select(x, axis, j.reshape(-1))
        return y.reshape(tuple(x.shape[:axis]) + tuple(i.shape) + tuple(x.shape[axis + 1:]))
    return f


def t_take_along(axis, n):
    def f(x, i):
        j = torch.where(i < 0, i + n, i).to(torch.int64)
        return torch.take_along_dim(x, j, axis)
    return f


def gen_indexing():
    slices = [((2, 3, 4), [(1, 2, 1), (2, None, -1), (0, 4, 2)]),
              ((2, 3, 4), [(None, None, -1), (None, None, 1), (-1, 0, -2)]),
              ((5,), [(1, -1, 2)]),
              ((3, 4), [(0, 3, 1), (2, 2, 1)])]  # an empty selection
    for dt in ALL:
        s = SHORT[np.dtype(dt)]
        for k, (shape, raw) in enumerate(slices):
            if dt != F64 and k > 1:
                continue
            at, idx = norm_slices(shape, raw)
            x = uni(shape, dt)
            add_case("strided_slice %s %s %s" % (s, sh(shape), raw), "strided_slice", "slice", at, [x], t_slice(idx))
            sel = tuple(len(ii) for ii in idx)
            if 0 in sel:
                continue
            vshape = (1,) + sel[1:] if len(sel) > 1 else sel
            add_case("slice_update %s %s %s v%s" % (s, sh(shape), raw, sh(vshape)), "slice_update", "slice", at,
                     [x, uni(vshape, dt)], t_slice_update(idx))
        x = uni((2, 3, 4), dt)
        idx = np.array([3, 0, -1, 1], dtype=np.int64)  # 3 and -1 repeat
        add_case("take %s (2,3,4) axis=2 idx=%s" % (s, idx.tolist()), "take", "one_axis", {"axis": 2}, [x, idx],
                 t_take(2, 4))
        along = np.array([[[0, 1, -1, 3, 1]], [[2, 2, 2, 0, -4]]], dtype=np.int64)  # (2,1,5): broadcast on axis 1
        add_case("take_along_axis %s (2,3,4) idx(2,1,5) axis=2" % s, "take_along_axis", "one_axis", {"axis": 2},
                 [x, along], t_take_along(2, 4))
    x = uni((2, 3, 4), F64)
    idx2 = np.array([[2, 0], [-3, 2]], dtype=np.int64)
    add_case("take f64 (2,3,4) axis=1 idx(2,2)", "take", "one_axis", {"axis": 1}, [x, idx2], t_take(1, 3))
    add_case("take f64 (2,3,4) axis=0 idx() int32", "take", "one_axis", {"axis": 0}, [x, np.array(-1, dtype=np.int32)],
             t_take(0, 2))
    add_case("take f64 (5,) idx (0,)", "take", "one_axis", {"axis": 0},
             [uni((5,), F64), np.zeros((0,), dtype=np.int64)], t_take(0, 5))
    add_case("take c128 (5,) idx repeated", "take", "one_axis", {"axis": 0},
             [uni((5,), C128), np.array([4, 4, 4, 0, 2, 4], dtype=np.int64)], t_take(0, 5))
    along0 = np.array([[1, 0, 1], [1, 1, 0]], dtype=np.int64)
    add_case("take_along_axis f64 (2,3) axis=0", "take_along_axis", "one_axis", {"axis": 0},
             [uni((2, 3), F64), along0], t_take_along(0, 2))
    along1 = np.array([[0], [2]], dtype=np.int64)  # x (1,3) broadcast along axis 0
    add_case("take_along_axis f64 (1,3) idx(2,1) axis=1", "take_along_axis", "one_axis", {"axis": 1},
             [uni((1, 3), F64), along1], t_take_along(1, 3))
    # index_put_flat(x, positions, values): distinct positions only
    for dt in (F64, F32, C128):
        x = uni((3, 4), dt)
        pos = np.array([1, 5, 11, 7], dtype=np.int64)
        add_case("index_put_flat %s (3,4) pos=%s" % (SHORT[np.dtype(dt)], pos.tolist()), "index_put_flat", "none", {},
                 [x, pos, uni((4,), dt)],
                 lambda a, p, v: a.reshape(-1).index_put((p,), v).reshape(a.shape))
    add_case("index_put_flat f64 (2,3) broadcast value ()", "index_put_flat", "none", {},
             [uni((2, 3), F64), np.array([0, 4], dtype=np.int64), uni((), F64)],
             lambda a, p, v: a.reshape(-1).index_put((p,), v.expand(2)).reshape(a.shape))


def gen_where_sort():
    for dt in REAL:
        s = SHORT[np.dtype(dt)]
        x = uni((2, 3, 4), dt)
        for axis, desc in ((1, True), (2, False), (0, True)):
            add_case("sort %s (2,3,4) axis=%d descending=%s" % (s, axis, desc), "sort", "sort",
                     {"axis": axis, "descending": desc, "stable": True}, [x],
                     lambda v, axis=axis, desc=desc: torch.sort(v, dim=axis, descending=desc, stable=True)[0])
    xt = np.array([[1.0, -2.0, 1.0, 0.5, -2.0, 1.0], [3.0, 3.0, 3.0, 0.0, 0.0, 3.0]])
    for desc in (False, True):
        add_case("sort f64 (2,6) ties axis=1 descending=%s stable" % desc, "sort", "sort",
                 {"axis": 1, "descending": desc, "stable": True}, [xt],
                 lambda v, desc=desc: torch.sort(v, dim=1, descending=desc, stable=True)[0])
    add_case("sort f64 (5,) stable=false no ties", "sort", "sort", {"axis": 0, "descending": False, "stable": False},
             [uni((5,), F64)], lambda v: torch.sort(v, dim=0)[0])


# --------------------------------------------------------------------------- linear algebra
def gen_triangle_diagonal():
    for dt in ALL:
        s = SHORT[np.dtype(dt)]
        m = uni((2, 4, 3), dt)
        for k in ((-1, 0, 2) if dt == F64 else (1,)):
            add_case("tril %s (2,4,3) k=%d" % (s, k), "tril", "triangle", {"k": k}, [m],
                     lambda v, k=k: torch.tril(v, k))
            add_case("triu %s (2,4,3) k=%d" % (s, k), "triu", "triangle", {"k": k}, [m],
                     lambda v, k=k: torch.triu(v, k))
            add_case("diagonal %s (2,4,3) offset=%d" % (s, k), "diagonal", "diagonal", {"offset": k}, [m],
                     lambda v, k=k: torch.diagonal(v, k, -2, -1))
    m = uni((3, 5), F64)
    add_case("diagonal f64 (3,5) offset=-3 (empty)", "diagonal", "diagonal", {"offset": -3}, [m],
             lambda v: torch.diagonal(v, -3, -2, -1))
    add_case("diagonal f64 (3,5) offset=4", "diagonal", "diagonal", {"offset": 4}, [m],
             lambda v: torch.diagonal(v, 4, -2, -1))
    add_case("tril f64 (3,5) k=-5", "tril", "triangle", {"k": -5}, [m], lambda v: torch.tril(v, -5))


def well_conditioned(shape, dt, shift=3.0):
    a = uni(shape, dt)
    n = shape[-1]
    return (a + shift * np.eye(n)).astype(dt)


def hermitian(batch, n, dt, diag_lo=0.0, diag_hi=1.0, offdiag=1.0, spd=False, gap=0.3):
    """A Hermitian matrix (batch..., n, n) of short decimals, with eigenvalue gaps >= gap
    (and positive definite when spd)."""
    for _ in range(1000):
        a = np.zeros(batch + (n, n), dtype=dt)
        ok = True
        for b in np.ndindex(*batch):
            h = np.zeros((n, n), dtype=dt)
            for i in range(n):
                h[i, i] = dec(RNG.uniform(diag_lo, diag_hi))
                for j in range(i + 1, n):
                    v = uni((), dt, -offdiag, offdiag)
                    h[i, j] = v
                    h[j, i] = np.conj(v)
            if spd:
                h = h + n * np.eye(n, dtype=dt)
            w = np.linalg.eigvalsh(h.astype(wide(dt)))
            ok &= bool(np.min(np.diff(w)) >= gap) and (not spd or bool(w[0] > 0.5))
            a[b] = h
        if ok:
            return a
    raise RuntimeError("no well-separated Hermitian matrix found")


def svd_input(shape, dt, gap=0.3):
    for _ in range(1000):
        a = uni(shape, dt)
        s = np.linalg.svd(a.astype(wide(dt)), compute_uv=False)
        if np.all(s[..., -1] >= gap) and np.all(-np.diff(s, axis=-1) >= gap):
            return a
    raise RuntimeError("no well-separated svd input found")


def eig_input(n, dt, gap=0.4):
    for _ in range(1000):
        a = (uni((n, n), dt) + np.diag(np.arange(n, dtype=np.float64) * 1.0)).astype(dt)
        w, v = np.linalg.eig(a.astype(wide(dt)))
        gaps = np.abs(w[:, None] - w[None, :]) + np.eye(n) * 1e9
        if np.min(gaps) >= gap and np.linalg.cond(v) < 10:
            return a
    raise RuntimeError("no well-separated eig input found")


def qr_input(shape, dt):
    for _ in range(1000):
        a = uni(shape, dt)
        k = min(shape[-2:])
        r = np.linalg.qr(a.astype(wide(dt)))[1]
        if np.all(np.abs(np.diagonal(r, axis1=-2, axis2=-1))[..., :k] >= 0.3):
            return a
    raise RuntimeError("no well-conditioned qr input found")


def sym_t(x):
    return (x + x.mH) / 2


def gen_linalg():
    mm = [((2, 3), (3, 4)), ((3,), (3,)), ((3,), (2, 3, 4)), ((2, 3), (3,)), ((2, 1, 2, 3), (3, 3, 2)),
          ((0, 3), (3, 2)), ((2, 0), (0, 3))]
    for dt in ALL:
        s = SHORT[np.dtype(dt)]
        for k, (s1, s2) in enumerate(mm):
            if dt != F64 and k not in (0, 2, 4):
                continue
            add_case("matmul %s %s %s" % (s, sh(s1), sh(s2)), "matmul", "none", {}, [uni(s1, dt), uni(s2, dt)],
                     torch.matmul)
        a = well_conditioned((2, 3, 3), dt)
        add_case("det %s (2,3,3)" % s, "det", "none", {}, [a], torch.linalg.det)
        add_case("slogdet %s (2,3,3)" % s, "slogdet", "none", {}, [a], lambda v: tuple(torch.linalg.slogdet(v)))
        add_case("inv %s (2,3,3)" % s, "inv", "none", {}, [a], torch.linalg.inv)
        add_case("solve %s (2,3,3) (2,3,2)" % s, "solve", "none", {}, [a, uni((2, 3, 2), dt)], torch.linalg.solve)
        add_case("solve %s (2,3,3) (3,)" % s, "solve", "none", {}, [a, uni((3,), dt)], torch.linalg.solve)
        spd = hermitian((2,), 3, dt, spd=True, gap=0.0)
        for upper in (False, True):
            add_case("cholesky %s (2,3,3) upper=%s" % (s, upper), "cholesky", "cholesky", {"upper": upper}, [spd],
                     lambda v, upper=upper: torch.linalg.cholesky(sym_t(v), upper=upper))
        h = hermitian((2,), 3, dt, -2.0, 2.0, gap=0.5)
        add_case("eigh %s (2,3,3)" % s, "eigh", "none", {}, [h], lambda v: tuple(torch.linalg.eigh(sym_t(v))),
                 [LIN, SQ])
        add_case("eigh %s (2,3,3) eigenvalues only" % s, "eigh", "none", {}, [h],
                 lambda v: tuple(torch.linalg.eigh(sym_t(v))), [LIN, NONE])
        add_case("eigvalsh %s (2,3,3)" % s, "eigvalsh", "none", {}, [h], lambda v: torch.linalg.eigvalsh(sym_t(v)))
        e = eig_input(3, dt)
        add_case("eig %s (3,3)" % s, "eig", "none", {}, [e], lambda v: tuple(torch.linalg.eig(v)), [CONST, ROWSQ])
        add_case("eigvals %s (3,3)" % s, "eigvals", "none", {}, [e], torch.linalg.eigvals, [CONST])
        for shape in ((3, 3), (4, 2), (2, 4)):
            if dt != F64 and shape == (2, 4):
                continue
            a = svd_input(shape, dt)
            add_case("svd %s %s" % (s, sh(shape)), "svd", "svd", {"full_matrices": False}, [a],
                     lambda v: tuple(torch.linalg.svd(v, full_matrices=False)), [SQ, LIN, SQ])
            add_case("svdvals %s %s" % (s, sh(shape)), "svdvals", "none", {}, [a], torch.linalg.svdvals)
            q = qr_input(shape, dt)
            add_case("qr %s %s reduced" % (s, sh(shape)), "qr", "qr", {"complete": False}, [q],
                     lambda v: tuple(torch.linalg.qr(v, mode="reduced")), [SQ, SQ])
        a = svd_input((3, 3), dt)
        add_case("svd %s (3,3) full_matrices" % s, "svd", "svd", {"full_matrices": True}, [a],
                 lambda v: tuple(torch.linalg.svd(v, full_matrices=True)), [SQ, LIN, SQ])
        a = svd_input((4, 2), dt)
        add_case("svd %s (4,2) full_matrices, singular values only" % s, "svd", "svd", {"full_matrices": True}, [a],
                 lambda v: tuple(torch.linalg.svd(v, full_matrices=True)), [NONE, LIN, NONE])
        q = qr_input((2, 3), dt)
        add_case("qr %s (2,3) complete" % s, "qr", "qr", {"complete": True}, [q],
                 lambda v: tuple(torch.linalg.qr(v, mode="complete")), [SQ, SQ])
    # batches, broadcasting, 0-d results, empty batches (float64)
    a = well_conditioned((3, 3), F64)
    add_case("det f64 (3,3)", "det", "none", {}, [a], torch.linalg.det)
    add_case("slogdet f64 (3,3) negative determinant", "slogdet", "none", {}, [(a @ np.diag([1.0, 1.0, -1.0]))],
             lambda v: tuple(torch.linalg.slogdet(v)))
    add_case("det f64 (0,3,3)", "det", "none", {}, [np.zeros((0, 3, 3))], torch.linalg.det)
    add_case("inv f64 (0,2,2)", "inv", "none", {}, [np.zeros((0, 2, 2))], torch.linalg.inv)
    add_case("solve f64 (3,3) (2,3,2) broadcast", "solve", "none", {}, [a, uni((2, 3, 2), F64)], torch.linalg.solve)
    add_case("solve f64 (2,1,3,3) (3,3,1) broadcast", "solve", "none", {},
             [well_conditioned((2, 1, 3, 3), F64), uni((3, 3, 1), F64)], torch.linalg.solve)
    add_case("svd f64 (2,4,3) batch", "svd", "svd", {"full_matrices": False}, [svd_input((2, 4, 3), F64)],
             lambda v: tuple(torch.linalg.svd(v, full_matrices=False)), [SQ, LIN, SQ])
    add_case("eig c128 (2,3,3) batch", "eig", "none", {}, [np.stack([eig_input(3, C128), eig_input(3, C128)])],
             lambda v: tuple(torch.linalg.eig(v)), [CONST, ROWSQ])
    add_case("qr f64 (2,4,3) batch", "qr", "qr", {"complete": False}, [qr_input((2, 4, 3), F64)],
             lambda v: tuple(torch.linalg.qr(v, mode="reduced")), [SQ, SQ])
    add_case("qr f64 (3,3) R only", "qr", "qr", {"complete": False}, [qr_input((3, 3), F64)],
             lambda v: tuple(torch.linalg.qr(v, mode="reduced")), [NONE, SQ])
    add_case("matmul f64/c128 (2,3) (3,2) mixed", "matmul", "none", {}, [uni((2, 3), F64), uni((3, 2), C128)],
             lambda a, b: torch.matmul(a.to(b.dtype), b))  # torch.matmul does not promote


# --------------------------------------------------------------------------- fft
NORMS = ["backward", "ortho", "forward"]


def gen_fft():
    def c2c(lengths, axes, norm, inverse):
        f = torch.fft.ifftn if inverse else torch.fft.fftn
        return lambda v: f(v, s=lengths, dim=axes, norm=norm)

    def r2c(lengths, axes, norm):
        return lambda v: torch.fft.rfftn(v, s=lengths, dim=axes, norm=norm)

    def c2r(lengths, axes, norm):
        return lambda v: torch.fft.irfftn(v, s=lengths, dim=axes, norm=norm)

    def at(axes, lengths, norm, inverse):
        return {"axes": axes, "lengths": lengths, "norm": NORMS.index(norm), "inverse": inverse}

    # c2c: (input shape, axes, lengths)
    c2c_plan = [((5,), [0], [5]), ((4,), [0], [6]), ((6,), [0], [4]), ((3, 4), [0, 1], [3, 4]),
                ((3, 4), [0], [5]), ((2, 3, 4), [2, 1], [3, 2])]
    k = 0
    for dt in (C128, C64, F64, F32):
        s = SHORT[np.dtype(dt)]
        for shape, axes, lengths in c2c_plan:
            if dt != C128 and len(shape) == 3:
                continue
            for inverse in (False, True):
                norm = NORMS[k % 3]
                k += 1
                add_case("fft_c2c %s %s axes=%s n=%s norm=%s inverse=%s" % (s, sh(shape), axes, lengths, norm, inverse),
                         "fft_c2c", "fft", at(axes, lengths, norm, inverse), [uni(shape, dt)],
                         c2c(lengths, axes, norm, inverse))
    # r2c: real input only
    r2c_plan = [((5,), [0], [5]), ((6,), [0], [6]), ((4,), [0], [7]), ((7,), [0], [4]), ((3, 4), [0, 1], [3, 4]),
                ((3, 5), [1, 0], [6, 2]), ((2, 6), [1], [6])]
    for dt in (F64, F32):
        s = SHORT[np.dtype(dt)]
        for shape, axes, lengths in r2c_plan:
            for norm in (NORMS if dt == F64 else [NORMS[k % 3]]):
                k += 1
                add_case("fft_r2c %s %s axes=%s n=%s norm=%s" % (s, sh(shape), axes, lengths, norm), "fft_r2c", "fft",
                         at(axes, lengths, norm, False), [uni(shape, dt)], r2c(lengths, axes, norm))
    # empty batches
    add_case("fft_c2c c128 (0,4) axes=[1] n=[4] norm=backward inverse=False", "fft_c2c", "fft",
             at([1], [4], "backward", False), [np.zeros((0, 4), dtype=C128)], c2c([4], [1], "backward", False))
    add_case("fft_r2c f64 (0,4) axes=[1] n=[4] norm=ortho", "fft_r2c", "fft", at([1], [4], "ortho", False),
             [np.zeros((0, 4))], r2c([4], [1], "ortho"))
    # c2r: (input shape, axes, lengths): the last length is the output's extent
    c2r_plan = [((3,), [0], [4]), ((3,), [0], [5]), ((4,), [0], [4]), ((2,), [0], [6]), ((3, 3), [0, 1], [3, 4]),
                ((2, 4), [1], [5]), ((4, 3), [1, 0], [4, 3])]
    for dt in (C128, C64, F64):
        s = SHORT[np.dtype(dt)]
        for shape, axes, lengths in c2r_plan:
            for norm in (NORMS if dt == C128 else [NORMS[k % 3]]):
                k += 1
                add_case("fft_c2r %s %s axes=%s n=%s norm=%s" % (s, sh(shape), axes, lengths, norm), "fft_c2r", "fft",
                         at(axes, lengths, norm, True), [uni(shape, dt)], c2r(lengths, axes, norm))


# --------------------------------------------------------------------------- main
def differentiable_ops(ops_def):
    """(row name, attribute set) of every kDifferentiable row of ops.def."""
    import re
    rows = []
    for line in open(ops_def):
        line = line.split("//")[0]
        m = re.match(r"\s*IVY_(UNARY|BINARY)_OP\((\w+),.*\)", line)
        if m and "kDifferentiable" in line:
            rows.append(m.group(2))
        m = re.match(r"\s*IVY_OP\((\w+),.*\)", line)
        if m and "kDifferentiable" in line:
            rows.append(m.group(1))
    return rows


# --------------------------------------------------------------------------- neural-network kernels
def conv_attrs(d, strides, lo, hi, dil, groups, spatial=()):
    return {"strides": list(strides), "padding": list(lo) + list(hi), "dilations": list(dil), "groups": groups,
            "spatial": list(spatial)}


def torch_conv(d, x, w, strides, lo, hi, dil, groups):
    """conv as ivy defines it: zeros lo before / hi after each spatial axis, then torch's conv."""
    pads = []
    for i in reversed(range(d)):
        pads += [lo[i], hi[i]]
    f = {1: torch.nn.functional.conv1d, 2: torch.nn.functional.conv2d, 3: torch.nn.functional.conv3d}[d]
    return f(torch.nn.functional.pad(x, pads), w, None, list(strides), 0, list(dil), groups)


def gen_nn():
    F = torch.nn.functional
    # scatter_add_flat(x, positions, values): repeated positions add up
    for dt in (F64, F32):
        pos = np.array([1, 5, 1, 11, 7, 5], dtype=np.int64)
        add_case("scatter_add_flat %s (3,4) pos=%s" % (SHORT[np.dtype(dt)], pos.tolist()), "scatter_add_flat", "none",
                 {}, [uni((3, 4), dt), pos, uni((6,), dt)],
                 lambda a, p, v: a.reshape(-1).index_put((p,), v, accumulate=True).reshape(a.shape))
    add_case("scatter_add_flat f64 (2,3) broadcast value ()", "scatter_add_flat", "none", {},
             [uni((2, 3), F64), np.array([0, 4, 0], dtype=np.int64), uni((), F64)],
             lambda a, p, v: a.reshape(-1).index_put((p,), v.expand(3), accumulate=True).reshape(a.shape))

    # (name, x shape, w shape, strides, pad before, pad after, dilations, groups)
    convs = [
        ("1d", (2, 3, 7), (4, 3, 3), (1,), (0,), (0,), (1,), 1),
        ("1d stride2 pad(1,2) dil2", (2, 2, 9), (3, 2, 3), (2,), (1,), (2,), (2,), 1),
        ("2d", (2, 3, 6, 5), (4, 3, 3, 3), (1, 1), (1, 1), (1, 1), (1, 1), 1),
        ("2d stride(2,1) pad(0,1)/(1,2)", (1, 2, 7, 6), (3, 2, 3, 2), (2, 1), (0, 1), (1, 2), (1, 1), 1),
        ("2d groups2 dil(1,2)", (2, 4, 6, 7), (6, 2, 2, 3), (1, 1), (1, 0), (1, 0), (1, 2), 2),
        ("2d depthwise", (2, 3, 5, 5), (6, 1, 3, 3), (2, 2), (1, 1), (1, 1), (1, 1), 3),
        ("2d 1x1", (2, 4, 3, 3), (5, 4, 1, 1), (1, 1), (0, 0), (0, 0), (1, 1), 1),
        ("3d", (1, 2, 4, 5, 4), (3, 2, 2, 3, 2), (1, 2, 1), (1, 0, 1), (0, 1, 1), (1, 1, 2), 1),
        ("2d empty batch", (0, 2, 5, 5), (3, 2, 3, 3), (1, 1), (0, 0), (0, 0), (1, 1), 1),
    ]
    for name, xs, ws, st, lo, hi, dil, g in convs:
        d = len(xs) - 2
        for dt in (F64, F32):
            if dt == F32 and name not in ("2d", "3d"):
                continue
            add_case("conv %s %s x%s w%s" % (name, SHORT[np.dtype(dt)], sh(xs), sh(ws)), "conv", "conv",
                     conv_attrs(d, st, lo, hi, dil, g), [uni(xs, dt), uni(ws, dt)],
                     lambda x, w, d=d, st=st, lo=lo, hi=hi, dil=dil, g=g: torch_conv(d, x, w, st, lo, hi, dil, g))
        # the adjoints, defined through torch's autograd of the same conv (create_graph keeps
        # them differentiable): conv_transpose(y, w) = d<conv(x, w), y>/dx,
        # conv_weight_grad(x, gy) = d<conv(x, w), gy>/dw
        if xs[0] == 0:
            continue
        ys = tuple(torch_conv(d, torch.zeros(xs, dtype=torch.float64), torch.zeros(ws, dtype=torch.float64),
                              st, lo, hi, dil, g).shape)

        def conv_t(y, w, d=d, st=st, lo=lo, hi=hi, dil=dil, g=g, xs=xs):
            with torch.enable_grad():  # also under output_specs' no_grad
                x0 = torch.zeros(xs, dtype=y.dtype, requires_grad=True)
                (gx,) = torch.autograd.grad(torch_conv(d, x0, w, st, lo, hi, dil, g), [x0], grad_outputs=[y],
                                            create_graph=True)
            return gx

        def conv_wg(x, gy, d=d, st=st, lo=lo, hi=hi, dil=dil, g=g, ws=ws):
            with torch.enable_grad():
                w0 = torch.zeros(ws, dtype=x.dtype, requires_grad=True)
                (gw,) = torch.autograd.grad(torch_conv(d, x, w0, st, lo, hi, dil, g), [w0], grad_outputs=[gy],
                                            create_graph=True)
            return gw

        add_case("conv_transpose %s f64 y%s w%s" % (name, sh(ys), sh(ws)), "conv_transpose", "conv",
                 conv_attrs(d, st, lo, hi, dil, g, xs[2:]), [uni(ys, F64), uni(ws, F64)], conv_t)
        add_case("conv_weight_grad %s f64 x%s gy%s" % (name, sh(xs), sh(ys)), "conv_weight_grad", "conv",
                 conv_attrs(d, st, lo, hi, dil, g, ws[2:]), [uni(xs, F64), uni(ys, F64)], conv_wg)

    # max_pool(x) -> (maxima, flat positions in x); the positions carry no gradient
    def torch_max_pool(x, d, k, st, lo, hi, dil):
        pads = []
        for i in reversed(range(d)):
            pads += [lo[i], hi[i]]
        f = {1: F.max_pool1d, 2: F.max_pool2d, 3: F.max_pool3d}[d]
        v = f(F.pad(x, pads, value=-math.inf), list(k), list(st), 0, list(dil))
        return v, torch.zeros(v.shape, dtype=torch.int64)
    pools = [
        ("1d k3 s2", (2, 3, 9), (3,), (2,), (0,), (0,), (1,)),
        ("2d k2", (2, 3, 6, 6), (2, 2), (2, 2), (0, 0), (0, 0), (1, 1)),
        ("2d k3 s2 pad1 overlapping", (1, 2, 7, 6), (3, 3), (2, 2), (1, 1), (1, 1), (1, 1)),
        ("2d k(2,3) s1 pad(0,1)/(1,0) dil(2,1)", (2, 2, 6, 5), (2, 3), (1, 1), (0, 1), (1, 0), (2, 1)),
        ("3d k2", (1, 2, 4, 4, 6), (2, 2, 2), (2, 2, 2), (0, 0, 0), (0, 0, 0), (1, 1, 1)),
    ]
    for name, xs, k, st, lo, hi, dil in pools:
        d = len(xs) - 2
        for dt in (F64, F32):
            if dt == F32 and name != "2d k2":
                continue
            add_case("max_pool %s %s x%s" % (name, SHORT[np.dtype(dt)], sh(xs)), "max_pool", "pool",
                     {"window": list(k), "strides": list(st), "padding": list(lo) + list(hi), "dilations": list(dil)},
                     [uni(xs, dt)],
                     lambda x, d=d, k=k, st=st, lo=lo, hi=hi, dil=dil: torch_max_pool(x, d, k, st, lo, hi, dil),
                     specs=[LIN, None])

    # layer_norm(x) -> (y, mean, rstd) over the axes from `axis`: the formula composed of
    # torch's own functions (native_layer_norm's autograd covers y alone), every output's
    # cotangent used
    def torch_layer_norm(x, axis, eps):
        dims = tuple(range(axis, x.dim()))
        mu = x.mean(dim=dims, keepdim=True)
        var = ((x - mu) ** 2).mean(dim=dims, keepdim=True)
        rstd = 1 / torch.sqrt(var + eps)
        return (x - mu) * rstd, mu, rstd
    for xs, axis, eps in [((2, 3, 4), 2, 1e-5), ((2, 3, 4), 1, 1e-2), ((5, 7), 1, 0.0)]:
        for dt in (F64, F32):
            add_case("layer_norm axis%d eps%g %s x%s" % (axis, eps, SHORT[np.dtype(dt)], sh(xs)), "layer_norm",
                     "layer_norm", {"axis": axis, "eps": eps}, [uni(xs, dt)],
                     lambda x, axis=axis, eps=eps: torch_layer_norm(x, axis, eps))


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-o", "--output", default=os.path.join(here, "fixtures", "autodiff.json"))
    args = ap.parse_args()

    check_complex_convention()
    gen_unary()
    gen_binary()
    gen_where_astype()
    gen_reductions()
    gen_cumulative()
    gen_manipulation()
    gen_indexing()
    gen_where_sort()
    gen_triangle_diagonal()
    gen_linalg()
    gen_fft()
    gen_nn()

    covered = {c["op"] for c in CASES}
    rows = differentiable_ops(os.path.join(here, "..", "include", "ivy", "ops.def"))
    missing = [r for r in rows if r not in covered and r not in SKIPPED]
    if missing:
        sys.exit("differentiable rows without a case or a skip reason: %s" % missing)
    names = [c["name"] for c in CASES]
    dup = {n for n in names if names.count(n) > 1}
    if dup:
        sys.exit("duplicate case names: %s" % sorted(dup))

    doc = {
        "generator": "tests/gen_autodiff_fixtures.py: reference VJPs from PyTorch's autograd "
                     "(torch.autograd.grad of the loss described there); complex cotangents in PyTorch's convention, "
                     "dL/dRe + i dL/dIm (ivy::vjp speaks JAX's, the conjugate: the test converts). Regenerate with /usr/bin/python3 tests/gen_autodiff_fixtures.py; "
                     "do not edit by hand.",
        "torch": torch.__version__,
        "numpy": np.__version__,
        "skipped": SKIPPED,
        "cases": CASES,
    }
    text = json.dumps(doc, separators=(",", ":"))
    # one case per line: reviewable diffs
    text = text.replace(',{"name":', ',\n{"name":').replace('"cases":[{', '"cases":[\n{')
    with open(args.output, "w") as f:
        f.write(text + "\n")
    worst = sorted(WORST, reverse=True)[:3]
    print("wrote %s: %d cases over %d primitives (%d bytes); worst torch float32 vs float64: %s" %
          (args.output, len(CASES), len(covered), len(text), ", ".join("%.1e %s" % w for w in worst)))


if __name__ == "__main__":
    main()

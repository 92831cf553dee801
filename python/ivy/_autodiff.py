"""Automatic differentiation with JAX's API: grad, value_and_grad, vjp, jvp, jacrev, jacfwd,
hessian and stop_gradient over Python functions of ivy arrays.

Everything is built on the C++ reverse mode (`ivy::vjp`, include/ivy/autodiff.hpp, bound
as `_ivy.vjp` over flat lists of arrays): this module flattens the pytrees, checks the
arguments as JAX does, and assembles the results.

- Pytrees are nested tuples, lists, dicts (flattened in sorted key order, as JAX does),
  OrderedDicts, namedtuples and None (an empty subtree); every other object is a leaf.
  Differentiated leaves must be ivy arrays or Python scalars (converted with ivy.asarray);
  output leaves must be ivy arrays (a Python scalar output is a TypeError).
- Complex numbers follow JAX's convention here: a cotangent is dL/dRe - i dL/dIm, so
  grad(lambda z: ivy.sum(ivy.abs(z) ** 2))(z) is 2 conj(z), and grad(f, holomorphic=True)
  is f'(z). (The C++ API speaks the same convention.)
- Forward mode (jvp, jacfwd) is the VJP of the VJP, as in C++: u -> vjp_fn(u) is linear,
  so its own VJP applies the Jacobian to a tangent.
- ivy has no float0: integer and bool primals (allowed with allow_int=True, and in vjp and
  jvp) get zero cotangents and tangents of their own dtype.
"""

import collections as _collections
import functools as _functools
import operator as _operator

from . import _ivy as _C
from . import _api
from ._helpers import Array, is_scalar as _is_scalar

__all__ = ["grad", "value_and_grad", "vjp", "jvp", "jacrev", "jacfwd", "hessian", "stop_gradient"]


# ================================================================ pytrees
class _TreeDef:
    """The structure of a pytree: a node type, its static data and its children."""

    __slots__ = ("kind", "aux", "children", "num_leaves")

    def __init__(self, kind, aux=None, children=()):
        self.kind, self.aux, self.children = kind, aux, tuple(children)
        self.num_leaves = 1 if kind == "*" else sum(c.num_leaves for c in self.children)

    def _key(self):
        return (self.kind, self.aux, tuple(c._key() for c in self.children))

    def __eq__(self, other):
        return isinstance(other, _TreeDef) and self._key() == other._key()

    def __ne__(self, other):
        return not self == other

    __hash__ = None

    def _str(self):
        if self.kind == "*":
            return "*"
        if self.kind == "none":
            return "None"
        inner = [c._str() for c in self.children]
        if self.kind == "tuple":
            return "(" + ", ".join(inner) + ("," if len(inner) == 1 else "") + ")"
        if self.kind == "list":
            return "[" + ", ".join(inner) + "]"
        if self.kind in ("dict", "odict"):
            body = "{" + ", ".join(f"{k!r}: {v}" for k, v in zip(self.aux, inner)) + "}"
            return body if self.kind == "dict" else f"OrderedDict({body})"
        return f"{self.aux.__name__}(" + ", ".join(f"{f}={v}" for f, v in zip(self.aux._fields, inner)) + ")"

    def __repr__(self):
        return f"PyTreeDef({self._str()})"


_LEAF = _TreeDef("*")


def _sorted_keys(d):
    try:
        return sorted(d)
    except TypeError:
        return list(d)


def _flatten(x, leaves):
    if x is None:
        return _TreeDef("none")
    t = type(x)
    if t is tuple:
        return _TreeDef("tuple", None, [_flatten(c, leaves) for c in x])
    if t is list:
        return _TreeDef("list", None, [_flatten(c, leaves) for c in x])
    if t is dict:
        keys = _sorted_keys(x)
        return _TreeDef("dict", tuple(keys), [_flatten(x[k], leaves) for k in keys])
    if t is _collections.OrderedDict:
        keys = list(x)
        return _TreeDef("odict", tuple(keys), [_flatten(x[k], leaves) for k in keys])
    if isinstance(x, tuple) and hasattr(t, "_fields"):  # a namedtuple
        return _TreeDef("namedtuple", t, [_flatten(c, leaves) for c in x])
    leaves.append(x)
    return _LEAF


def tree_flatten(tree):
    leaves = []
    return leaves, _flatten(tree, leaves)


def _build(td, it):
    k = td.kind
    if k == "*":
        return next(it)
    if k == "none":
        return None
    children = [_build(c, it) for c in td.children]
    if k == "tuple":
        return tuple(children)
    if k == "list":
        return children
    if k == "dict":
        return dict(zip(td.aux, children))
    if k == "odict":
        return _collections.OrderedDict(zip(td.aux, children))
    return td.aux(*children)


def tree_unflatten(treedef, leaves):
    leaves = list(leaves)
    if len(leaves) != treedef.num_leaves:
        raise ValueError(f"tree_unflatten: {treedef} needs {treedef.num_leaves} leaves, got {len(leaves)}")
    return _build(treedef, iter(leaves))


def tree_map(f, tree):
    leaves, td = tree_flatten(tree)
    return tree_unflatten(td, [f(x) for x in leaves])


# ================================================================ checks and helpers
def _check_callable(fun, name):
    if not callable(fun):
        raise TypeError(f"[{name}] expected a callable value, got {fun!r}")


def _check_reduce_axes(reduce_axes, name):
    if reduce_axes != () and reduce_axes is not None and tuple(reduce_axes) != ():
        raise NotImplementedError(f"[{name}] reduce_axes is not supported by ivy (got {reduce_axes!r})")


def _is_real_floating(d):
    return _C.isdtype(d, "real floating")


def _is_complex(d):
    return _C.isdtype(d, "complex floating")


def _is_inexact(d):
    return _is_real_floating(d) or _is_complex(d)




def _type_name(x):
    return type(x).__name__


def _as_primal(x, name):
    """A differentiated leaf: an ivy array, or a Python scalar converted to one."""
    if isinstance(x, Array):
        return x
    if _is_scalar(x):
        return _api.asarray(x)
    raise TypeError(f"[{name}] arguments to differentiate must be ivy arrays or Python scalars (or pytrees of them), "
                    f"got a leaf of type {_type_name(x)}: {x!r}")


def _argnums_tuple(argnums, name):
    """(tuple of ints, whether argnums was a single int)."""
    if isinstance(argnums, bool):
        raise TypeError(f"[{name}] argnums must be an int or a tuple of ints, got {argnums!r}")
    try:
        return (_operator.index(argnums),), True
    except TypeError:
        pass
    try:
        nums = tuple(argnums)
    except TypeError:
        raise TypeError(f"[{name}] argnums must be an int or a tuple of ints, got {argnums!r}") from None
    for a in nums:
        if isinstance(a, bool) or not hasattr(a, "__index__"):
            raise TypeError(f"[{name}] argnums must be an int or a tuple of ints, got {argnums!r}")
    return tuple(_operator.index(a) for a in nums), False


def _resolve_argnums(nums, nargs, name):
    out = []
    for a in nums:
        if not -nargs <= a < nargs:
            raise TypeError(f"[{name}] differentiating with respect to argnums={nums} requires at least "
                            f"{(a if a >= 0 else -a - 1) + 1} positional arguments to be passed by the caller, "
                            f"but got only {nargs} positional arguments.")
        out.append(a % nargs)
    return out


def _check_input_rev(x, holomorphic, allow_int, name):
    d = x.dtype
    if holomorphic:
        if not _is_complex(d):
            raise TypeError(f"[{name}] {name} with holomorphic=True requires inputs with complex dtype, but got {d}.")
    elif not _is_inexact(d) and not allow_int:
        raise TypeError(f"[{name}] {name} requires real- or complex-valued inputs (input dtype that is a sub-dtype of "
                        f"inexact), but got {d}. If you want to use Boolean- or integer-valued inputs, use vjp or set "
                        f"allow_int to True.")


def _check_input_fwd(x, holomorphic, name):
    d = x.dtype
    if holomorphic:
        if not _is_complex(d):
            raise TypeError(f"[{name}] {name} with holomorphic=True requires inputs with complex dtype, but got {d}.")
    elif not _is_real_floating(d):
        raise TypeError(f"[{name}] {name} requires real-valued inputs (input dtype that is a sub-dtype of floating), "
                        f"but got {d}. For holomorphic differentiation, pass holomorphic=True. For differentiation of "
                        f"non-holomorphic functions involving complex inputs, use jvp directly.")


def _check_output_rev(y, holomorphic, name):
    d = y.dtype
    if holomorphic:
        if not _is_complex(d):
            raise TypeError(f"[{name}] {name} with holomorphic=True requires outputs with complex dtype, but got {d}.")
    elif not _is_real_floating(d):
        raise TypeError(f"[{name}] {name} requires real-valued outputs (output dtype that is a sub-dtype of floating), "
                        f"but got {d}. For holomorphic differentiation, pass holomorphic=True. For differentiation of "
                        f"non-holomorphic functions involving complex outputs, use vjp directly.")


# ================================================================ the recording
class _Recorded:
    """fun(*args) run under the C++ tape: flat outputs, the raw (C++ convention) pullback,
    the argument and output structures, and aux."""

    __slots__ = ("in_leaves", "in_tree", "outs", "out_tree", "pullback", "aux")


def _record(fun, args, has_aux, name):
    in_leaves, in_tree = tree_flatten(tuple(args))
    store = {}

    def flat_fun(xs):
        out = fun(*tree_unflatten(in_tree, xs))
        if has_aux:
            if not isinstance(out, (tuple, list)) or len(out) != 2:
                raise TypeError(f"[{name}] with has_aux=True, the function must return a pair (output, aux), got "
                                f"{_type_name(out)}: {out!r}")
            out, store["aux"] = out
        leaves, td = tree_flatten(out)
        for k, leaf in enumerate(leaves):
            if not isinstance(leaf, Array):
                where = "the output" if td == _LEAF else f"output leaf {k} of {td}"
                raise TypeError(f"[{name}] {where} is of type {_type_name(leaf)} ({leaf!r}), not an ivy array; "
                                f"differentiated functions must return ivy arrays (or pytrees of them)")
        store["out_tree"] = td
        return leaves

    outs, pullback = _C.vjp(flat_fun, in_leaves)
    r = _Recorded()
    r.in_leaves, r.in_tree, r.outs, r.out_tree = in_leaves, in_tree, list(outs), store["out_tree"]
    r.pullback, r.aux = pullback, store.get("aux")
    return r


def _pull(r, cts):
    """JAX-convention pullback of flat output cotangents (arrays or None) -> flat primal
    cotangents."""
    return list(r.pullback(list(cts)))


def _push_forward(r):
    """The forward map of a recording: flat primal tangents (arrays or None) -> flat output
    tangents, as the VJP of the (linear) pullback."""
    fl = [k for k, y in enumerate(r.outs) if _is_inexact(y.dtype)]
    if not fl:
        return lambda ts: [_api.zeros_like(y) for y in r.outs]

    def lin(us):
        cts = [None] * len(r.outs)
        for k, u in zip(fl, us):
            cts[k] = u
        return r.pullback(cts)

    _, pull2 = _C.vjp(lin, [_api.zeros_like(r.outs[k]) for k in fl])
    inexact_in = [_is_inexact(x.dtype) for x in r.in_leaves]

    def push(ts):
        got = pull2([t if ok else None for t, ok in zip(ts, inexact_in)])
        full = [_api.zeros_like(y) for y in r.outs] if len(fl) < len(r.outs) else [None] * len(r.outs)
        for k, g in zip(fl, got):
            full[k] = g
        return full

    return push


def _one_hots(x):
    """The rows of an identity matrix of x's size, each shaped like x (x's dtype and backend)."""
    n = x.size
    if n == 0:
        return []
    with _C.BackendScope(x.backend):
        e = _api.eye(n, dtype=x.dtype)
    return [_api.reshape(e[i], x.shape) for i in range(n)]


def _zeros(shape, dtype, like):
    with _C.BackendScope(like.backend):
        return _api.zeros(shape, dtype=dtype)


# ================================================================ vjp and jvp
def vjp(fun, *primals, has_aux=False, reduce_axes=()):
    """(fun(*primals), vjp_fn) [, aux]: vjp_fn(cotangent) maps a cotangent with the structure
    of the output to a tuple of cotangents, one per primal. vjp_fn may be called many times."""
    _check_reduce_axes(reduce_axes, "vjp")
    _check_callable(fun, "vjp")
    prim = tuple(tree_map(lambda x: _as_primal(x, "vjp"), p) for p in primals)
    r = _record(fun, prim, has_aux, "vjp")
    out = tree_unflatten(r.out_tree, r.outs)

    def vjp_fn(cotangent):
        leaves, td = tree_flatten(cotangent)
        if td != r.out_tree:
            raise ValueError(f"[vjp] unexpected tree structure of argument to vjp function: got {td}, but expected to "
                             f"match {r.out_tree}")
        cts = []
        for c, y in zip(leaves, r.outs):
            if not isinstance(c, Array):
                if not _is_scalar(c):
                    raise TypeError(f"[vjp] cotangents must be ivy arrays, got {_type_name(c)}")
                with _C.BackendScope(y.backend):
                    c = _api.asarray(c, dtype=y.dtype)
            if c.shape != y.shape:
                raise ValueError(f"[vjp] Shape of cotangent input to vjp pullback function {c.shape} must be the same "
                                 f"as the shape of corresponding primal output {y.shape}.")
            if not _is_inexact(y.dtype):
                cts.append(None)  # an integer or bool output carries no gradient (JAX: float0)
                continue
            if c.dtype != y.dtype:
                raise ValueError(f"[vjp] Type of cotangent input to vjp pullback function ({c.dtype}) is not the "
                                 f"expected tangent type ({y.dtype}) of corresponding primal output with dtype "
                                 f"{y.dtype}.")
            cts.append(c)
        return tree_unflatten(r.in_tree, _pull(r, cts))

    return (out, vjp_fn, r.aux) if has_aux else (out, vjp_fn)


def jvp(fun, primals, tangents, has_aux=False):
    """(fun(*primals), J(primals) @ tangents) [, aux]: primals and tangents are tuples or lists
    of the same structure; the output tangents have the structure of the output."""
    _check_callable(fun, "jvp")
    if not isinstance(primals, (tuple, list)) or not isinstance(tangents, (tuple, list)):
        raise TypeError(f"[jvp] primal and tangent arguments to jvp must be tuples or lists; found "
                        f"{_type_name(primals)} and {_type_name(tangents)}.")
    prim = tuple(tree_map(lambda x: _as_primal(x, "jvp"), p) for p in primals)
    p_leaves, p_tree = tree_flatten(prim)
    t_leaves, t_tree = tree_flatten(tuple(tangents))
    if p_tree != t_tree:
        raise ValueError(f"[jvp] primal and tangent arguments to jvp must have the same tree structure; primals have "
                         f"tree structure {p_tree} whereas tangents have tree structure {t_tree}.")
    ts = []
    for p, t in zip(p_leaves, t_leaves):
        if not isinstance(t, Array):
            if not _is_scalar(t):
                raise TypeError(f"[jvp] tangents must be ivy arrays, got {_type_name(t)}")
            with _C.BackendScope(p.backend):
                t = _api.asarray(t, dtype=p.dtype)
        if t.shape != p.shape:
            raise ValueError(f"[jvp] jvp called with different primal and tangent shapes; got primal shape {p.shape} "
                             f"and tangent shape as {t.shape}")
        if _is_inexact(p.dtype) and t.dtype != p.dtype:
            raise TypeError(f"[jvp] primal and tangent arguments to jvp do not match; dtypes must be equal. Got primal "
                            f"dtype {p.dtype} and so expected tangent dtype {p.dtype}, but got tangent dtype "
                            f"{t.dtype} instead.")
        ts.append(t)
    r = _record(fun, prim, has_aux, "jvp")
    out = tree_unflatten(r.out_tree, r.outs)
    t_out = tree_unflatten(r.out_tree, _push_forward(r)(ts))
    return (out, t_out, r.aux) if has_aux else (out, t_out)


# ================================================================ grad
def _partial_call(fun, args, kwargs, idx, name):
    """The differentiated arguments (converted) and fun as a function of them alone."""
    dyn = tuple(tree_map(lambda x: _as_primal(x, name), args[i]) for i in idx)

    def f_dyn(*d):
        full = list(args)
        for i, v in zip(idx, d):
            full[i] = v
        return fun(*full, **kwargs)

    return dyn, f_dyn


def _unique(seq):
    out = []
    for s in seq:
        if s not in out:
            out.append(s)
    return out


def _value_and_grad(fun, argnums, has_aux, holomorphic, allow_int, reduce_axes, name, with_value):
    _check_reduce_axes(reduce_axes, name)
    _check_callable(fun, name)
    nums, single = _argnums_tuple(argnums, name)

    @_functools.wraps(fun)
    def transformed(*args, **kwargs):
        req = _resolve_argnums(nums, len(args), name)
        idx = _unique(req)
        dyn, f_dyn = _partial_call(fun, args, kwargs, idx, name)
        for x in tree_flatten(dyn)[0]:
            _check_input_rev(x, holomorphic, allow_int, name)
        r = _record(f_dyn, dyn, has_aux, name)
        if r.out_tree != _LEAF:
            raise TypeError(f"[{name}] Gradient only defined for scalar-output functions. Output was a pytree "
                            f"{r.out_tree}.")
        y = r.outs[0]
        if y.shape != ():
            raise TypeError(f"[{name}] Gradient only defined for scalar-output functions. Output had shape: "
                            f"{y.shape}.")
        _check_output_rev(y, holomorphic, name)
        grads = tree_unflatten(r.in_tree, _pull(r, [_api.ones_like(y)]))
        by_arg = dict(zip(idx, grads))
        g = by_arg[req[0]] if single else tuple(by_arg[i] for i in req)
        if not with_value:
            return (g, r.aux) if has_aux else g
        return ((y, r.aux), g) if has_aux else (y, g)

    return transformed


def grad(fun, argnums=0, has_aux=False, holomorphic=False, allow_int=False, reduce_axes=()):
    """The gradient of fun (a 0-d real floating output) with respect to the positional
    argument(s) argnums: a function of fun's arguments returning the gradient with the
    structure of argument argnums (a tuple of them for a tuple argnums); with has_aux, fun
    returns (output, aux) and the function returns (gradient, aux)."""
    return _value_and_grad(fun, argnums, has_aux, holomorphic, allow_int, reduce_axes, "grad", False)


def value_and_grad(fun, argnums=0, has_aux=False, holomorphic=False, allow_int=False, reduce_axes=()):
    """As grad, returning (value, gradient) (((value, aux), gradient) with has_aux)."""
    return _value_and_grad(fun, argnums, has_aux, holomorphic, allow_int, reduce_axes, "value_and_grad", True)


# ================================================================ Jacobians and Hessians
def _assemble(r, per_out_in, single, idx, req):
    """Jacobian blocks per_out_in[k][j] (output leaf k, input leaf j) -> the output structure
    with, at each output leaf, the structure of the differentiated arguments."""
    per_out = []
    for blocks in per_out_in:
        by_arg = dict(zip(idx, tree_unflatten(r.in_tree, blocks)))
        per_out.append(by_arg[req[0]] if single else tuple(by_arg[i] for i in req))
    return tree_unflatten(r.out_tree, per_out)


def _jacrev(fun, argnums, has_aux, holomorphic, allow_int, name):
    _check_callable(fun, name)
    nums, single = _argnums_tuple(argnums, name)

    @_functools.wraps(fun)
    def jacfun(*args, **kwargs):
        req = _resolve_argnums(nums, len(args), name)
        idx = _unique(req)
        dyn, f_dyn = _partial_call(fun, args, kwargs, idx, name)
        for x in tree_flatten(dyn)[0]:
            _check_input_rev(x, holomorphic, allow_int, name)
        r = _record(f_dyn, dyn, has_aux, name)
        for y in r.outs:
            _check_output_rev(y, holomorphic, name)
        per_out_in = []
        for k, y in enumerate(r.outs):
            rows = []
            for e in _one_hots(y):
                cts = [None] * len(r.outs)
                cts[k] = e
                rows.append(_pull(r, cts))
            blocks = []
            for j, x in enumerate(r.in_leaves):
                shape = tuple(y.shape) + tuple(x.shape)
                if rows:
                    blocks.append(_api.reshape(_api.stack([row[j] for row in rows], axis=0), shape))
                else:
                    blocks.append(_zeros(shape, x.dtype, x))
            per_out_in.append(blocks)
        jac = _assemble(r, per_out_in, single, idx, req)
        return (jac, r.aux) if has_aux else jac

    return jacfun


def jacrev(fun, argnums=0, has_aux=False, holomorphic=False, allow_int=False):
    """The Jacobian of fun by reverse mode (one VJP per output element): for each output leaf
    y and differentiated argument leaf x, an array of shape y.shape + x.shape."""
    return _jacrev(fun, argnums, has_aux, holomorphic, allow_int, "jacrev")


def jacfwd(fun, argnums=0, has_aux=False, holomorphic=False):
    """The Jacobian of fun by forward mode (one JVP per input element), with jacrev's
    structure and shapes."""
    name = "jacfwd"
    _check_callable(fun, name)
    nums, single = _argnums_tuple(argnums, name)

    @_functools.wraps(fun)
    def jacfun(*args, **kwargs):
        req = _resolve_argnums(nums, len(args), name)
        idx = _unique(req)
        dyn, f_dyn = _partial_call(fun, args, kwargs, idx, name)
        for x in tree_flatten(dyn)[0]:
            _check_input_fwd(x, holomorphic, name)
        r = _record(f_dyn, dyn, has_aux, name)
        if holomorphic:
            for y in r.outs:
                _check_output_rev(y, True, name)
        push = _push_forward(r)
        per_out_in = [[None] * len(r.in_leaves) for _ in r.outs]
        for j, x in enumerate(r.in_leaves):
            cols = []
            for e in _one_hots(x):
                ts = [None] * len(r.in_leaves)
                ts[j] = e
                cols.append(push(ts))
            for k, y in enumerate(r.outs):
                shape = tuple(y.shape) + tuple(x.shape)
                if cols:
                    per_out_in[k][j] = _api.reshape(_api.stack([c[k] for c in cols], axis=-1), shape)
                else:
                    per_out_in[k][j] = _zeros(shape, y.dtype, y)
        jac = _assemble(r, per_out_in, single, idx, req)
        return (jac, r.aux) if has_aux else jac

    return jacfun


def hessian(fun, argnums=0, has_aux=False, holomorphic=False):
    """The Hessian of fun (a 0-d output): for argument leaves a and b, blocks of shape
    a.shape + b.shape, nested as JAX's hessian (jacfwd(jacrev(fun))) nests them. Computed as
    jacrev(jacrev(fun)), which costs one recording of fun and its gradient."""
    _check_callable(fun, "hessian")
    inner = _jacrev(fun, argnums, has_aux, holomorphic, False, "hessian")
    return _jacrev(inner, argnums, has_aux, holomorphic, False, "hessian")


# ================================================================ stop_gradient
def stop_gradient(x):
    """A copy of x (an ivy array or a pytree of them) through which no gradient flows."""

    def one(leaf):
        if isinstance(leaf, Array):
            return _C.stop_gradient(leaf)
        if _is_scalar(leaf):
            return _C.stop_gradient(_api.asarray(leaf))
        raise TypeError(f"[stop_gradient] expected ivy arrays (or pytrees of them), got {_type_name(leaf)}")

    return tree_map(one, x)

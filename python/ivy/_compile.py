"""ivy.compile: jax.jit's shape over ivy::compile (include/ivy/compile.hpp).

compile(fun, static_argnums=(), static_argnames=(), cache_size=16) returns a function with
fun's signature. Its arguments are pytrees (as in ivy's autodiff: tuples, lists, dicts,
namedtuples, None); their ivy-array leaves are the traced inputs, and everything else (the
static arguments, Python scalars and other leaves, the tree structure) selects the compiled
version: a new value of those traces again. Each version keeps up to cache_size input
signatures (shapes, dtypes, backend) in C++, and up to cache_size versions are kept here.

The first call with a signature runs fun once under the tracer, optimizes the graph (dead
code, common subexpressions, constant folding, identities, elementwise fusion) and caches
it; later calls run the optimized graph. Arrays fun reads from outside (closures, globals)
are captured as constants when it is traced, as jax.jit does. Under a transform (ivy.grad,
an enclosing trace) the compiled function runs fun itself, so the transform sees each
primitive. Output leaves must be ivy arrays.
"""

import collections as _collections
import functools as _functools
import inspect as _inspect

from . import _ivy as _C
from ._autodiff import tree_flatten as _flatten, tree_unflatten as _unflatten
from ._helpers import Array

__all__ = ["compile"]


def _hashable(x):
    try:
        hash(x)
        return x
    except TypeError:
        raise TypeError(f"ivy.compile: static argument {x!r} of type {type(x).__name__} is not hashable")


def compile(fun=None, *, static_argnums=(), static_argnames=(), cache_size=16, fuse=True):
    """Compile `fun` (usable as @ivy.compile or @ivy.compile(static_argnums=...))."""
    if fun is None:
        return lambda f: compile(f, static_argnums=static_argnums, static_argnames=static_argnames,
                                 cache_size=cache_size, fuse=fuse)
    if not callable(fun):
        raise TypeError(f"ivy.compile: expected a callable, got {type(fun).__name__}")
    if isinstance(static_argnums, int):
        static_argnums = (static_argnums,)
    if isinstance(static_argnames, str):
        static_argnames = (static_argnames,)
    static_argnums = tuple(static_argnums)
    static_argnames = frozenset(static_argnames)
    if cache_size < 1:
        raise ValueError("ivy.compile: cache_size must be at least 1")
    versions = _collections.OrderedDict()  # static key -> (C++ CompiledFunction, output treedef box)

    @_functools.wraps(fun)
    def compiled(*args, **kwargs):
        n = len(args)
        for i in static_argnums:
            if not -n <= i < n:
                raise ValueError(f"ivy.compile: static_argnums names argument {i}, the call has {n} positional arguments")
        static_pos = {i % n for i in static_argnums} if n else set()
        dyn_args = [a for i, a in enumerate(args) if i not in static_pos]
        dyn_kw = {k: v for k, v in kwargs.items() if k not in static_argnames}
        static_key = (tuple((i, _hashable(args[i])) for i in sorted(static_pos)),
                      tuple(sorted((k, _hashable(v)) for k, v in kwargs.items() if k in static_argnames)))
        leaves, tree = _flatten((dyn_args, dyn_kw))
        is_array = tuple(isinstance(l, Array) for l in leaves)
        others = tuple(_hashable(l) for l, a in zip(leaves, is_array) if not a)
        key = (static_key, tree._key(), is_array, others)
        entry = versions.get(key)
        if entry is None:
            out_tree = [None]
            # what a trace needs besides the arrays: the non-array leaves and static arguments
            # (equal for every call that reaches this version), never the first call's arrays
            template = [None if a else l for l, a in zip(leaves, is_array)]
            static_args = {i: args[i] for i in static_pos}
            static_kw = {k: v for k, v in kwargs.items() if k in static_argnames}

            def flat_fun(arrays):
                it = iter(arrays)
                full = [next(it) if a else l for l, a in zip(template, is_array)]
                d_args, d_kw = _unflatten(tree, full)
                d_it = iter(d_args)
                call_args = [static_args[i] if i in static_pos else next(d_it) for i in range(n)]
                call_kw = dict(d_kw)
                call_kw.update(static_kw)
                out = fun(*call_args, **call_kw)
                out_leaves, out_tree[0] = _flatten(out)
                for o in out_leaves:
                    if not isinstance(o, Array):
                        raise TypeError(f"ivy.compile: the function returned a {type(o).__name__} leaf; "
                                        "outputs must be ivy arrays")
                return list(out_leaves)

            entry = (_C.CompiledFunction(flat_fun, cache_size, fuse), out_tree)
            versions[key] = entry
            while len(versions) > cache_size:
                versions.popitem(last=False)
        else:
            versions.move_to_end(key)
        cf, out_tree = entry
        arrays = [l for l, a in zip(leaves, is_array) if a]
        out = cf(arrays)
        return _unflatten(out_tree[0], out)

    return compiled

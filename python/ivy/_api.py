"""The Array API standard's functions (main namespace) with their exact signatures.

Each function checks and converts its Python arguments and calls the compiled core
(`ivy._ivy`), which calls the C++ `ivy::` function of the same name.
"""

import builtins as _b
import sys as _sys
from collections import namedtuple as _namedtuple

from . import _ivy as _C
from ._helpers import (
    Array,
    DType,
    array_arg as _array_arg,
    device_arg as _device_arg,
    dtype_arg as _dtype_arg,
    is_scalar as _is_scalar,
    scalar_to_array as _scalar_to_array,
)

__all__ = []


def _export(fn):
    __all__.append(fn.__name__)
    return fn


# ============================================================== creation functions
@_export
def arange(start, /, stop=None, step=1, *, dtype=None, device=None):
    return _C.arange(start, stop, step, _dtype_arg(dtype), _device_arg(device))


@_export
def asarray(obj, /, *, dtype=None, device=None, copy=None):
    """Converts obj (ivy array, Python scalar, nested sequence, NumPy array, object with
    __dlpack__ or the buffer protocol) to an ivy array on the current backend.

    NumPy arrays and DLPack producers are wrapped without copying when their memory is
    C-contiguous CPU memory and copy is not True."""
    dtype = _dtype_arg(dtype)
    dev = _device_arg(device)
    if isinstance(obj, Array):
        if dev is not None and dev != obj.device:
            raise ValueError(f"[asarray] moving an array from {obj.device} to {dev} is not supported")
        if copy is not True and (dtype is None or dtype == obj.dtype):
            return obj  # the same array: later in-place updates of either show in both
        return _C.asarray_array(obj, dtype, copy)
    np = _sys.modules.get("numpy")
    if np is not None and isinstance(obj, (np.ndarray, np.generic)):  # before Python scalars: np.float64 is a float
        return _C.from_numpy(obj, dtype, dev, copy)
    if _is_scalar(obj):
        if copy is False:
            raise ValueError("[asarray] copy=False is impossible for a Python scalar")
        return _C.asarray_scalar(obj, dtype, dev)
    if isinstance(obj, (list, tuple)):
        if copy is False:
            raise ValueError("[asarray] copy=False is impossible for a Python sequence")
        return _C.from_sequence(obj, dtype, dev)
    if hasattr(obj, "__dlpack__"):
        try:
            x = from_dlpack(obj, device=dev, copy=copy)
        except (BufferError, TypeError, RuntimeError, ValueError):
            x = None
        if x is not None:
            if dtype is not None and dtype != x.dtype:
                if copy is False:
                    raise ValueError(f"[asarray] copy=False but converting {x.dtype} to {dtype} needs a copy")
                x = _C.astype(x, dtype, True, None)
            return x
    if np is not None:
        try:
            a = np.asarray(obj)
        except Exception as e:  # noqa: BLE001 - reported as a TypeError below
            raise TypeError(f"[asarray] cannot convert an object of type {type(obj).__name__}: {e}") from e
        if a.dtype == object:
            raise TypeError(f"[asarray] cannot convert an object of type {type(obj).__name__} to an array")
        return _C.from_numpy(a, dtype, dev, copy)
    raise TypeError(f"[asarray] cannot convert an object of type {type(obj).__name__} to an array")


@_export
def empty(shape, *, dtype=None, device=None):
    return _C.empty(shape, _dtype_arg(dtype), _device_arg(device))


@_export
def empty_like(x, /, *, dtype=None, device=None):
    return _C.empty_like(x, _dtype_arg(dtype), _device_arg(device))


@_export
def eye(n_rows, n_cols=None, /, *, k=0, dtype=None, device=None):
    # a diagonal beyond every row or column is empty, however far: such a k is clamped to
    # one that is just beyond, so that any Python int fits
    reach = n_rows + (n_rows if n_cols is None else n_cols) + 1
    k = _b.max(-reach, _b.min(reach, k))
    return _C.eye(n_rows, n_cols, k, _dtype_arg(dtype), _device_arg(device))


@_export
def from_dlpack(x, /, *, device=None, copy=None):
    dev = _device_arg(device)
    if isinstance(x, Array):
        return _C.from_dlpack(x, dev, copy)
    if not hasattr(x, "__dlpack__"):
        raise TypeError(f"[from_dlpack] {type(x).__name__} does not implement __dlpack__")
    if dev is not None and dev != _C.Device("cpu"):
        raise ValueError(f"[from_dlpack] only device 'cpu' is supported, got {dev}")
    if hasattr(x, "__dlpack_device__"):
        kind, _ = x.__dlpack_device__()
        if int(kind) not in (1, 3):
            raise BufferError(f"[from_dlpack] only CPU memory can be imported (DLPack device type {int(kind)})")
    try:
        capsule = x.__dlpack__(max_version=(1, 0))
    except TypeError:  # producers that predate DLPack 1.0 (NumPy < 2, torch < 2.3)
        capsule = x.__dlpack__()
    return _C.from_dlpack_capsule(capsule, copy, None)


@_export
def full(shape, fill_value, *, dtype=None, device=None):
    if isinstance(fill_value, Array):
        fill_value = fill_value.item()
    return _C.full(shape, fill_value, _dtype_arg(dtype), _device_arg(device))


@_export
def full_like(x, /, fill_value, *, dtype=None, device=None):
    if isinstance(fill_value, Array):
        fill_value = fill_value.item()
    return _C.full_like(x, fill_value, _dtype_arg(dtype), _device_arg(device))


@_export
def linspace(start, stop, /, num, *, dtype=None, device=None, endpoint=True):
    return _C.linspace(start, stop, num, _dtype_arg(dtype), _device_arg(device), endpoint)


@_export
def meshgrid(*arrays, indexing="xy"):
    return _C.meshgrid(list(arrays), indexing)


@_export
def ones(shape, *, dtype=None, device=None):
    return _C.ones(shape, _dtype_arg(dtype), _device_arg(device))


@_export
def ones_like(x, /, *, dtype=None, device=None):
    return _C.ones_like(x, _dtype_arg(dtype), _device_arg(device))


@_export
def tril(x, /, *, k=0):
    return _C.tril(x, k)


@_export
def triu(x, /, *, k=0):
    return _C.triu(x, k)


@_export
def zeros(shape, *, dtype=None, device=None):
    return _C.zeros(shape, _dtype_arg(dtype), _device_arg(device))


@_export
def zeros_like(x, /, *, dtype=None, device=None):
    return _C.zeros_like(x, _dtype_arg(dtype), _device_arg(device))


# ============================================================== data type functions
@_export
def astype(x, dtype, /, *, copy=True, device=None):
    if not isinstance(dtype, DType):
        raise TypeError(f"[astype] dtype must be an ivy dtype, got {dtype!r}")
    return _C.astype(x, dtype, copy, _device_arg(device))


@_export
def can_cast(from_, to, /):
    if isinstance(from_, Array):
        from_ = from_.dtype
    if not isinstance(from_, DType) or not isinstance(to, DType):
        raise TypeError("[can_cast] expects an ivy array or dtype and an ivy dtype")
    return _C.can_cast(from_, to)


@_export
def finfo(type, /):  # noqa: A002 - the standard's parameter name
    if isinstance(type, Array):
        type = type.dtype  # noqa: A001
    if not isinstance(type, DType):
        raise TypeError(f"[finfo] expects an ivy dtype or array, got {type!r}")
    return _C.finfo(type)


@_export
def iinfo(type, /):  # noqa: A002
    if isinstance(type, Array):
        type = type.dtype  # noqa: A001
    if not isinstance(type, DType):
        raise TypeError(f"[iinfo] expects an ivy dtype or array, got {type!r}")
    return _C.iinfo(type)


@_export
def isdtype(dtype, kind):
    if not isinstance(dtype, DType):
        raise TypeError(f"[isdtype] dtype must be an ivy dtype, got {dtype!r}")
    if isinstance(kind, tuple):
        return _b.any(isdtype(dtype, k) for k in kind)
    if isinstance(kind, DType):
        return dtype == kind
    if isinstance(kind, str):
        return _C.isdtype(dtype, kind)
    raise TypeError(f"[isdtype] kind must be a dtype, a kind name or a tuple of those, got {kind!r}")


@_export
def result_type(*arrays_and_dtypes):
    args = []
    for a in arrays_and_dtypes:
        if not (isinstance(a, (Array, DType)) or _is_scalar(a)):
            raise TypeError(f"[result_type] expects arrays, dtypes or Python scalars, got {type(a).__name__}")
        args.append(a)
    if not _b.any(isinstance(a, (Array, DType)) for a in args):
        raise ValueError("[result_type] needs at least one array or dtype")
    return _C.result_type(args)


# ============================================================== element-wise functions
# (generated below from two name lists: unary f(x, /) and binary f(x1, x2, /), where one
#  of x1, x2 may be a Python scalar)
_UNARY = (
    "abs acos acosh asin asinh atan atanh bitwise_invert ceil conj cos cosh exp expm1 floor imag "
    "isfinite isinf isnan log log1p log2 log10 logical_not negative positive real reciprocal round "
    "sign signbit sin sinh square sqrt tan tanh trunc"
).split()
_BINARY = (
    "add atan2 bitwise_and bitwise_left_shift bitwise_or bitwise_right_shift bitwise_xor copysign "
    "divide equal floor_divide greater greater_equal hypot less less_equal logaddexp logical_and "
    "logical_or logical_xor maximum minimum multiply nextafter not_equal pow remainder subtract"
).split()


def _make_unary(name):
    core = getattr(_C, name)

    def f(x, /):
        return core(x)

    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"Element-wise {name}(x) (Array API standard)."
    return f


def _make_binary(name):
    core = getattr(_C, name)

    def f(x1, x2, /):
        return core(x1, x2)

    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"Element-wise {name}(x1, x2) (Array API standard); one operand may be a Python scalar."
    return f


for _n in _UNARY:
    globals()[_n] = _make_unary(_n)
    __all__.append(_n)
for _n in _BINARY:
    globals()[_n] = _make_binary(_n)
    __all__.append(_n)
del _n


@_export
def clip(x, /, min=None, max=None):  # noqa: A002
    return _C.clip(x, min, max)


# ============================================================== indexing functions
@_export
def take(x, indices, /, *, axis=None):
    return _C.take(x, indices, axis)


@_export
def take_along_axis(x, indices, /, *, axis=-1):
    return _C.take_along_axis(x, indices, axis)


# ============================================================== linear algebra functions
@_export
def matmul(x1, x2, /):
    return _C.matmul(x1, x2)


@_export
def matrix_transpose(x, /):
    return _C.matrix_transpose(x)


@_export
def tensordot(x1, x2, /, *, axes=2):
    return _C.tensordot(x1, x2, axes)


@_export
def vecdot(x1, x2, /, *, axis=-1):
    return _C.vecdot(x1, x2, axis)


# ============================================================== manipulation functions
@_export
def broadcast_arrays(*arrays):
    return _C.broadcast_arrays(list(arrays))


@_export
def broadcast_shapes(*shapes):
    if not shapes:
        return ()
    return _C.broadcast_shapes([tuple(s) for s in shapes])


@_export
def broadcast_to(x, /, shape):
    return _C.broadcast_to(x, shape)


@_export
def concat(arrays, /, *, axis=0):
    return _C.concat(list(arrays), axis)


@_export
def expand_dims(x, /, axis):
    return _C.expand_dims(x, axis)


@_export
def flip(x, /, *, axis=None):
    return _C.flip(x, axis)


@_export
def moveaxis(x, source, destination, /):
    return _C.moveaxis(x, source, destination)


@_export
def permute_dims(x, /, axes):
    return _C.permute_dims(x, axes)


@_export
def repeat(x, repeats, /, *, axis=None):
    return _C.repeat(x, repeats, axis)


@_export
def reshape(x, /, shape, *, copy=None):
    return _C.reshape(x, shape, copy)


@_export
def roll(x, /, shift, *, axis=None):
    return _C.roll(x, shift, axis)


@_export
def squeeze(x, /, axis):
    return _C.squeeze(x, axis)


@_export
def stack(arrays, /, *, axis=0):
    return _C.stack(list(arrays), axis)


@_export
def tile(x, repetitions, /):
    return _C.tile(x, repetitions)


@_export
def unstack(x, /, *, axis=0):
    return _C.unstack(x, axis)


# ============================================================== searching functions
@_export
def argmax(x, /, *, axis=None, keepdims=False):
    return _C.argmax(x, axis, keepdims)


@_export
def argmin(x, /, *, axis=None, keepdims=False):
    return _C.argmin(x, axis, keepdims)


@_export
def count_nonzero(x, /, *, axis=None, keepdims=False):
    return _C.count_nonzero(x, axis, keepdims)


@_export
def nonzero(x, /):
    return _C.nonzero(x)


@_export
def searchsorted(x1, x2, /, *, side="left", sorter=None):
    _array_arg(x1, "x1")
    if not isinstance(x2, Array):
        x2 = _scalar_to_array(x2, x1, x1.dtype if _is_scalar(x2) else None)
    return _C.searchsorted(x1, x2, side, sorter)


@_export
def where(condition, x1, x2, /):
    return _C.where(condition, x1, x2)


# ============================================================== set functions
UniqueAllResult = _namedtuple("UniqueAllResult", ["values", "indices", "inverse_indices", "counts"])
UniqueCountsResult = _namedtuple("UniqueCountsResult", ["values", "counts"])
UniqueInverseResult = _namedtuple("UniqueInverseResult", ["values", "inverse_indices"])


@_export
def unique_all(x, /):
    return UniqueAllResult(*_C.unique_all(x))


@_export
def unique_counts(x, /):
    return UniqueCountsResult(*_C.unique_counts(x))


@_export
def unique_inverse(x, /):
    return UniqueInverseResult(*_C.unique_inverse(x))


@_export
def unique_values(x, /):
    return _C.unique_values(x)


@_export
def isin(x1, x2, /, *, invert=False):
    if not isinstance(x1, Array) and not isinstance(x2, Array):
        raise TypeError("[isin] at least one of x1, x2 must be an ivy array")
    if not isinstance(x1, Array):
        x1 = _scalar_to_array(x1, x2)
    if not isinstance(x2, Array):
        x2 = _scalar_to_array(x2, x1)
    return _C.isin(x1, x2, invert)


# ============================================================== sorting functions
@_export
def argsort(x, /, *, axis=-1, descending=False, stable=True):
    return _C.argsort(x, axis, descending, stable)


@_export
def sort(x, /, *, axis=-1, descending=False, stable=True):
    return _C.sort(x, axis, descending, stable)


# ============================================================== statistical functions
@_export
def cumulative_prod(x, /, *, axis=None, dtype=None, include_initial=False):
    return _C.cumulative_prod(x, axis, _dtype_arg(dtype), include_initial)


@_export
def cumulative_sum(x, /, *, axis=None, dtype=None, include_initial=False):
    return _C.cumulative_sum(x, axis, _dtype_arg(dtype), include_initial)


@_export
def max(x, /, *, axis=None, keepdims=False):  # noqa: A001
    return _C.max(x, axis, keepdims)


@_export
def mean(x, /, *, axis=None, keepdims=False):
    return _C.mean(x, axis, keepdims)


@_export
def min(x, /, *, axis=None, keepdims=False):  # noqa: A001
    return _C.min(x, axis, keepdims)


@_export
def prod(x, /, *, axis=None, dtype=None, keepdims=False):
    return _C.prod(x, axis, _dtype_arg(dtype), keepdims)


@_export
def std(x, /, *, axis=None, correction=0.0, keepdims=False):
    return _C.std(x, axis, correction, keepdims)


@_export
def sum(x, /, *, axis=None, dtype=None, keepdims=False):  # noqa: A001
    return _C.sum(x, axis, _dtype_arg(dtype), keepdims)


@_export
def var(x, /, *, axis=None, correction=0.0, keepdims=False):
    return _C.var(x, axis, correction, keepdims)


# ============================================================== utility functions
@_export
def all(x, /, *, axis=None, keepdims=False):  # noqa: A001
    return _C.all(x, axis, keepdims)


@_export
def any(x, /, *, axis=None, keepdims=False):  # noqa: A001
    return _C.any(x, axis, keepdims)


@_export
def diff(x, /, *, axis=-1, n=1, prepend=None, append=None):
    return _C.diff(x, axis, n, prepend, append)

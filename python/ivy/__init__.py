"""ivy: one array API for C++, in Python.

`import ivy` gives a Python Array API standard (2025.12) namespace, with the linalg and fft
extensions, over ivy's C++ core and its backends (xtensor, the default, and torch over
LibTorch). The backend is chosen as in C++: the backend of the input arrays, else the
innermost `with ivy.BackendScope(name):`, else `ivy.set_backend(name)`, else the default.

    import ivy
    x = ivy.asarray([[1.0, 2.0], [3.0, 4.0]])     # float32 on xtensor
    with ivy.BackendScope("torch"):
        y = ivy.linspace(0, 1, 5)                 # on torch
    ivy.linalg.inv(x)

Errors keep ivy's messages: ivy::TypeError -> TypeError, ValueError -> ValueError,
IndexError -> IndexError, NotImplementedError -> NotImplementedError, other ivy::Error ->
RuntimeError. NumPy exchange is zero-copy where the memory layout allows it
(np.asarray(x), ivy.asarray(ndarray)), and so is DLPack (np.from_dlpack(x),
ivy.from_dlpack(obj)).
"""

from . import _ivy
from ._ivy import Array, BackendScope, Device, DType, Graph
from ._ivy import available_backends, current_backend, default_backend, set_backend, unset_backend
from ._ivy import to_backend, trace, seed, array_equal, allclose
from ._ivy import (
    default_float_dtype,
    default_int_dtype,
    default_complex_dtype,
    set_default_float_dtype,
    set_default_int_dtype,
)
from . import _array  # noqa: F401  (attaches the Python parts of the array protocol)
from . import _dtype  # noqa: F401  (attaches kind and NumPy's dtype to ivy.DType)
from ._api import *  # noqa: F401,F403
from ._api import __all__ as _api_all
from ._api import UniqueAllResult, UniqueCountsResult, UniqueInverseResult
from ._info import __array_namespace_info__
from . import linalg, fft
from .nn import Container  # noqa: F401  (also makes ivy.nn available)
from ._autodiff import grad, value_and_grad, vjp, jvp, jacrev, jacfwd, hessian, stop_gradient
from ._compile import compile  # noqa: A001  (ivy.compile, like jax.jit; shadows the builtin inside ivy only)
from ._ivy import graph_to_json, graph_from_json, graph_to_dot
from ._helpers import device_arg as _device_arg, dtype_arg as _dtype_arg

__array_api_version__ = "2025.12"
__version__ = "0.1.0"

# ---------------------------------------------------------------- constants
e = 2.718281828459045
inf = float("inf")
nan = float("nan")
pi = 3.141592653589793
newaxis = None


# ---------------------------------------------------------------- random numbers (Ivy's)
def random_uniform(low=0.0, high=1.0, shape=(), *, dtype=None, device=None):
    return _ivy.random_uniform(low, high, shape, _dtype_arg(dtype), _device_arg(device))


def random_normal(mean=0.0, std=1.0, shape=(), *, dtype=None, device=None):
    return _ivy.random_normal(mean, std, shape, _dtype_arg(dtype), _device_arg(device))


def randint(low, high, shape=(), *, dtype=None, device=None):
    return _ivy.randint(low, high, shape, _dtype_arg(dtype), _device_arg(device))


def _dtype_from_name(name):
    return _ivy.dtype_from_name(name)


# ---------------------------------------------------------------- dtypes (defined last:
# `bool` shadows the builtin from here on in this module)
bool = DType.bool  # noqa: A001
int8 = DType.int8
int16 = DType.int16
int32 = DType.int32
int64 = DType.int64
uint8 = DType.uint8
uint16 = DType.uint16
uint32 = DType.uint32
uint64 = DType.uint64
float16 = DType.float16  # ivy extension (torch backend only)
bfloat16 = DType.bfloat16  # ivy extension (torch backend only)
float32 = DType.float32
float64 = DType.float64
complex64 = DType.complex64
complex128 = DType.complex128

__all__ = list(_api_all) + [
    "Array", "DType", "Device", "BackendScope", "Graph",
    "available_backends", "current_backend", "default_backend", "set_backend", "unset_backend",
    "to_backend", "trace", "seed", "array_equal", "allclose",
    "default_float_dtype", "default_int_dtype", "default_complex_dtype",
    "set_default_float_dtype", "set_default_int_dtype",
    "random_uniform", "random_normal", "randint",
    "grad", "value_and_grad", "vjp", "jvp", "jacrev", "jacfwd", "hessian", "stop_gradient",
    "linalg", "fft", "__array_namespace_info__", "__array_api_version__",
    "e", "inf", "nan", "pi", "newaxis",
    "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float16", "bfloat16", "float32", "float64", "complex64", "complex128",
    "UniqueAllResult", "UniqueCountsResult", "UniqueInverseResult",
]

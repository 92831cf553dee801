"""Pure-Python parts of the array object protocol, attached to the compiled ivy.Array."""

import sys as _sys

from . import _ivy as _C
from ._helpers import device_arg

Array = _C.Array

_API_VERSIONS = ("2021.12", "2022.12", "2023.12", "2024.12", "2025.12")


def __array_namespace__(self, /, *, api_version=None):
    if api_version is not None and api_version not in _API_VERSIONS:
        raise ValueError(f"ivy implements the Array API {_API_VERSIONS[-1]}; api_version={api_version!r} is unknown")
    return _sys.modules["ivy"]


def __array__(self, dtype=None, copy=None):
    """NumPy conversion: zero-copy (sharing memory) unless copy=True or the backend's
    memory cannot be exposed (then a copy)."""
    a = _C.to_numpy(self, copy is True)
    if dtype is not None:
        a = a.astype(dtype, copy=False)
    return a


def to_device(self, device, /, *, stream=None):
    d = device_arg(device)
    if d == self.device:
        return self
    raise ValueError(f"[to_device] moving arrays from {self.device} to {d} is not supported")


def __iter__(self):
    if self.ndim == 0:
        raise TypeError("iteration over a 0-d array")
    for i in range(self.shape[0]):
        yield self[i]


def to_numpy(self, copy=False):
    """A NumPy array sharing this array's memory where possible (copy=False)."""
    return _C.to_numpy(self, copy)


def tolist(self):
    """Nested Python lists of Python scalars (a Python scalar for a 0-d array)."""
    if self.ndim == 0:
        return self.item()
    if "numpy" in _sys.modules:
        return _C.to_numpy(self, True).tolist()
    return [self[i].tolist() for i in range(self.shape[0])]


def __copy__(self):
    return self


def __deepcopy__(self, memo):
    return _C.astype(self, self.dtype, True, None)


def __reduce__(self):
    return (_rebuild, (self.tolist(), self.dtype.name, self.backend, self.shape))


def _rebuild(data, dtype_name, backend, shape):
    import ivy

    with ivy.BackendScope(backend):
        x = _C.from_sequence(data, _C.dtype_from_name(dtype_name), None)
    return _C.reshape(x, shape, None)


for _name, _fn in list(globals().items()):
    if _name.startswith("__") and _name.endswith("__") and callable(_fn) and _name not in ("__builtins__",):
        if _name in ("__array_namespace__", "__array__", "__iter__", "__copy__", "__deepcopy__", "__reduce__"):
            setattr(Array, _name, _fn)
Array.to_device = to_device
Array.to_numpy = to_numpy
Array.tolist = tolist
del _name, _fn

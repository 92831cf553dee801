"""Small shared helpers of the pure-Python layer (argument checking and conversion)."""

import builtins as _b

from . import _ivy as _C

Array = _C.Array
DType = _C.DType
Device = _C.Device

_SCALAR_TYPES = (_b.bool, _b.int, _b.float, _b.complex)


def is_scalar(x):
    """True for Python bool/int/float/complex (the standard's Python scalars)."""
    return isinstance(x, _SCALAR_TYPES)


def device_arg(device):
    """None | str | Device -> None | Device."""
    if device is None or isinstance(device, Device):
        return device
    if isinstance(device, str):
        return Device(device)
    raise TypeError(f"expected a device (ivy.Device or a string such as 'cpu'), got {type(device).__name__}")


def dtype_arg(dtype):
    if dtype is not None and not isinstance(dtype, DType):
        raise TypeError(f"expected an ivy dtype (e.g. ivy.float32) or None, got {dtype!r}")
    return dtype


def array_arg(x, name="x"):
    if not isinstance(x, Array):
        raise TypeError(f"{name} must be an ivy array, got {type(x).__name__}")
    return x


def scalar_to_array(value, like, dtype=None):
    """A Python scalar as a 0-d array on like's backend (dtype by the standard's scalar rule)."""
    if isinstance(value, Array):
        return value
    if not is_scalar(value):
        raise TypeError(f"expected an ivy array or a Python scalar, got {type(value).__name__}")
    return _C.scalar_array(value, dtype, like)


def real_number(v, name):
    """A float from a Python number or a one-element ivy array."""
    if isinstance(v, Array):
        return float(v)
    if isinstance(v, (_b.int, _b.float)) and not isinstance(v, _b.bool):
        return float(v)
    raise TypeError(f"{name} must be a real number, got {type(v).__name__}")

"""__array_namespace_info__(): the standard's inspection API."""

from . import _ivy as _C
from ._helpers import DType, device_arg

# The standard's dtypes (ivy also has float16 and bfloat16, outside the standard).
_STANDARD = (
    "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float32", "float64", "complex64", "complex128",
)


class Info:
    """What the current backend of this thread offers (see ivy.current_backend())."""

    __module__ = "ivy"

    def capabilities(self):
        return {
            "boolean indexing": True,
            "data-dependent shapes": True,
            "max dimensions": _C.kMaxRank,
        }

    def default_device(self):
        return _C.Device("cpu")

    def default_dtypes(self, *, device=None):
        device_arg(device)
        return {
            "real floating": _C.default_float_dtype(),
            "complex floating": _C.default_complex_dtype(),
            "integral": _C.default_int_dtype(),
            "indexing": _C.DType.int64,
        }

    def dtypes(self, *, device=None, kind=None):
        from ._api import isdtype

        device_arg(device)
        backend = _C.current_backend()
        out = {}
        for name in _STANDARD:
            d = _C.dtype_from_name(name)
            if _C.is_unsupported(backend, "asarray", d):
                continue
            if kind is not None and not isdtype(d, kind):
                continue
            out[name] = d
        return out

    def devices(self):
        return tuple(_C.devices(None))  # a tuple since the 2025.12 standard

    def __repr__(self):
        return f"<ivy array namespace info (backend {_C.current_backend()})>"


def __array_namespace_info__():
    return Info()


assert all(isinstance(_C.dtype_from_name(n), DType) for n in _STANDARD)

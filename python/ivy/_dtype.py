"""Pure-Python parts of ivy's dtype objects, attached to the compiled ivy.DType: what
NumPy-based code reads off a dtype (`kind`, and `dtype` so that `np.dtype(ivy.float32)`,
`np.zeros(3, dtype=ivy.float32)` and the like work)."""

from . import _ivy as _C

DType = _C.DType

# NumPy's kind characters: b bool, i signed integer, u unsigned integer, f floating, c complex
_KINDS = {
    "bool": "b",
    "int8": "i", "int16": "i", "int32": "i", "int64": "i",
    "uint8": "u", "uint16": "u", "uint32": "u", "uint64": "u",
    "float16": "f", "bfloat16": "f", "float32": "f", "float64": "f",
    "complex64": "c", "complex128": "c",
}


def _kind(self):
    return _KINDS[str(self)]


def _numpy_dtype(self):
    """The NumPy dtype of the same name (NumPy reads it when given an ivy dtype). bfloat16
    has none: TypeError."""
    import numpy as np

    if str(self) == "bfloat16":
        raise TypeError("ivy.bfloat16 has no NumPy dtype (NumPy has no bfloat16); cast to float32 first")
    return np.dtype(str(self))


DType.kind = property(_kind, doc="NumPy's kind character: 'b', 'i', 'u', 'f' or 'c'.")
DType.dtype = property(_numpy_dtype, doc="The NumPy dtype of the same name (not for bfloat16).")

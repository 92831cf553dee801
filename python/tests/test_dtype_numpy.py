"""ivy dtypes read by NumPy-based code: np.dtype(ivy_dtype), dtype= arguments, and .kind,
against NumPy's own dtypes of the same names."""

import numpy as np
import pytest

import ivy

NAMES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
         "float16", "float32", "float64", "complex64", "complex128"]


@pytest.mark.parametrize("name", NAMES)
def test_numpy_reads_ivy_dtypes(name):
    d = getattr(ivy, name)
    assert np.dtype(d) == np.dtype(name)
    assert d.kind == np.dtype(name).kind
    assert np.zeros(2, dtype=d).dtype == np.dtype(name)
    assert np.issubdtype(np.dtype(d), np.dtype(name).type)


def test_array_dtype_into_numpy(backend):
    x = ivy.asarray([1.5, 2.5], dtype=ivy.float32)
    assert np.dtype(x.dtype) == np.float32
    assert np.asarray([1, 2], dtype=x.dtype).dtype == np.float32


def test_bfloat16_has_a_kind_but_no_numpy_dtype():
    assert ivy.bfloat16.kind == "f"
    with pytest.raises(TypeError, match="bfloat16 has no NumPy dtype"):
        ivy.bfloat16.dtype
    with pytest.raises(TypeError):  # NumPy words this one itself
        np.dtype(ivy.bfloat16)

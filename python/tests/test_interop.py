"""Zero-copy exchange with NumPy (buffer/__array__ and DLPack) and torch (DLPack), on
every backend: write through one side, read through the other."""

import copy
import gc
import pickle

import numpy as np
import pytest

import ivy
from conftest import BACKENDS, check

try:
    import torch
except ImportError:  # python3-torch is optional
    torch = None

needs_torch = pytest.mark.skipif(torch is None, reason="import torch failed (python3-torch not installed)")


def test_numpy_to_ivy_is_zero_copy(backend):
    a = np.arange(6, dtype=np.float64).reshape(2, 3)
    x = ivy.asarray(a)
    a[1, 2] = 42.0  # write through NumPy ...
    assert float(x[1, 2]) == 42.0  # ... read through ivy
    assert ivy.sum(x).item() == 0 + 1 + 2 + 3 + 4 + 42
    y = ivy.asarray(a, copy=True)
    a[0, 0] = -1.0
    assert float(y[0, 0]) == 0.0 and float(x[0, 0]) == -1.0


def test_numpy_memory_outlives_numpy_name(backend):
    a = np.arange(1000, dtype=np.float32)
    x = ivy.asarray(a)
    del a
    gc.collect()
    check(x[-3:], np.array([997, 998, 999], dtype=np.float32))


def test_ivy_to_numpy_is_zero_copy(backend):
    x = ivy.asarray([[1.0, 2.0], [3.0, 4.0]], dtype=ivy.float64)
    a = np.asarray(x)
    assert a.dtype == np.float64 and a.shape == (2, 2)
    a[0, 1] = -7.0  # write through NumPy into ivy's memory ...
    check(x, np.array([[1.0, -7.0], [3.0, 4.0]]))  # ... and ivy sees it
    b = np.array(x, copy=True)
    b[0, 0] = 100.0
    assert float(x[0, 0]) == 1.0
    c = x.to_numpy()
    c[1, 1] = 5.0
    assert float(x[1, 1]) == 5.0


def test_numpy_view_keeps_ivy_memory_alive(backend):
    a = np.asarray(ivy.arange(10, dtype=ivy.int32) * 3)
    gc.collect()
    np.testing.assert_array_equal(a, np.arange(10, dtype=np.int32) * 3)


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64",
                                   "float32", "float64", "complex64", "complex128"])
def test_numpy_round_trip_dtypes(backend, dtype):
    a = (np.arange(12) % 5).reshape(3, 4).astype(dtype)
    x = ivy.asarray(a)
    assert str(x.dtype) == dtype
    b = np.asarray(x)
    assert b.dtype == a.dtype
    np.testing.assert_array_equal(b, a)


def test_dlpack_ivy_to_numpy(backend):
    x = ivy.asarray(np.arange(12, dtype=np.float32).reshape(3, 4), copy=True)
    assert x.__dlpack_device__() == (1, 0)
    a = np.from_dlpack(x)
    np.testing.assert_array_equal(a, np.arange(12, dtype=np.float32).reshape(3, 4))
    # NumPy marks DLPack imports read-only; it is a view of ivy's buffer all the same:
    view = np.asarray(x)
    assert a.__array_interface__["data"][0] == view.__array_interface__["data"][0]
    view[2, 3] = -1.0  # write into ivy's memory ...
    assert a[2, 3] == -1.0  # ... read through the DLPack import
    assert float(x[2, 3]) == -1.0
    del x, view
    gc.collect()
    assert a[2, 3] == -1.0  # the capsule's deleter keeps ivy's buffer alive


def test_dlpack_numpy_to_ivy(backend):
    a = np.arange(10, dtype=np.int64)
    x = ivy.from_dlpack(a)
    assert x.backend == backend
    a[3] = 99
    assert int(x[3]) == 99
    y = ivy.from_dlpack(a, copy=True)
    a[4] = -4
    assert int(y[4]) == 4 and int(x[4]) == -4
    # a non-contiguous producer is copied
    z = ivy.from_dlpack(np.arange(20.0).reshape(4, 5)[:, 1::2])
    check(z, np.arange(20.0).reshape(4, 5)[:, 1::2])
    with pytest.raises(ValueError):
        ivy.from_dlpack(np.arange(20.0).reshape(4, 5)[:, 1::2], copy=False)


def test_dlpack_capsules(backend):
    x = ivy.asarray([1.0, 2.0, 3.0])
    legacy = x.__dlpack__()
    assert "dltensor" in repr(legacy)
    v = x.__dlpack__(max_version=(1, 0))
    assert "dltensor_versioned" in repr(v)
    y = ivy._ivy.from_dlpack_capsule(v)
    check(y, np.array([1.0, 2.0, 3.0], dtype=np.float32))
    del legacy  # an unconsumed capsule frees its tensor
    with pytest.raises(BufferError):
        x.__dlpack__(dl_device=(2, 0))
    c = x.__dlpack__(copy=True, max_version=(1, 0))
    z = ivy._ivy.from_dlpack_capsule(c)
    check(z, np.array([1.0, 2.0, 3.0], dtype=np.float32))


def test_from_dlpack_between_ivy_arrays():
    x = ivy.asarray([1, 2, 3])
    assert ivy.from_dlpack(x)._same(x)
    y = ivy.from_dlpack(x, copy=True)
    assert not y._same(x)
    check(y, np.array([1, 2, 3]))


def test_cross_backend_is_zero_copy():
    if len(BACKENDS) < 2:
        pytest.skip("needs two backends")
    with ivy.BackendScope(BACKENDS[0]):
        x = ivy.asarray(np.zeros(4, dtype=np.float32), copy=True)
    y = ivy.to_backend(x, BACKENDS[1])
    np.asarray(x)[2] = 8.0  # write into x's memory
    assert float(y[2]) == 8.0  # y (other backend) shares it


@needs_torch
def test_torch_to_ivy_zero_copy(backend):
    t = torch.arange(6, dtype=torch.float32).reshape(2, 3)
    x = ivy.from_dlpack(t)
    assert x.backend == backend and x.shape == (2, 3) and x.dtype == ivy.float32
    t[0, 1] = 50.0  # write through torch ...
    assert float(x[0, 1]) == 50.0  # ... read through ivy
    y = ivy.asarray(torch.ones(3, dtype=torch.float64))
    check(y, np.ones(3))


@needs_torch
def test_ivy_to_torch_zero_copy(backend):
    x = ivy.asarray(np.arange(4, dtype=np.float64), copy=True)
    t = torch.from_dlpack(x)
    assert t.dtype == torch.float64 and tuple(t.shape) == (4,)
    t[1] = -3.0  # write through torch into ivy's memory ...
    assert float(x[1]) == -3.0  # ... read through ivy
    del x
    gc.collect()
    assert t[1].item() == -3.0


def test_pickle_and_copy(backend):
    x = ivy.asarray([[1.5, 2.5], [3.5, 4.5]], dtype=ivy.float64)
    y = pickle.loads(pickle.dumps(x))
    assert y.backend == backend and y.dtype == ivy.float64
    check(y, np.asarray(x))
    assert pickle.loads(pickle.dumps(ivy.int16)) == ivy.int16
    assert pickle.loads(pickle.dumps(ivy.Device("cpu"))) == ivy.Device("cpu")
    d = copy.deepcopy(x)
    assert not d._same(x)
    check(d, np.asarray(x))

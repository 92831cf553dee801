"""__getitem__ / __setitem__ (basic, boolean and integer-array indexing), take and
take_along_axis, against NumPy, on every backend."""

import numpy as np
import pytest

import ivy
from conftest import check

A = np.arange(60, dtype=np.float64).reshape(3, 4, 5)

BASIC_KEYS = [
    1, -1, (0, 2), (2, -1, 4), slice(None), slice(1, None), slice(None, None, -1), slice(-2, None, -1),
    (slice(None), 1), (Ellipsis, 2), (1, Ellipsis), (None, 1), (slice(None), None, 2), (Ellipsis, None),
    (slice(0, 3, 2), slice(None, None, 2), slice(4, 0, -2)), (), (Ellipsis,), (1, slice(1, 3), None, -1),
    (slice(10, 20),), (slice(-100, 100),), (slice(3, 1),),
]


@pytest.mark.parametrize("key", BASIC_KEYS, ids=[repr(k) for k in BASIC_KEYS])
def test_basic_getitem(backend, key):
    check(ivy.asarray(A)[key], A[key])


ADVANCED_KEYS = [
    np.array([2, 0, 1]),
    (slice(None), np.array([3, 0])),
    (np.array([0, 2]), np.array([1, 3])),
    (np.array([[0, 1], [2, 2]]), slice(None), np.array([4, 0])),
    (1, np.array([0, 3, -1])),
    (Ellipsis, np.array([4, 4])),
    A[:, :, 0] > 20,
    (slice(None), A[0, :, 0] > 5),
    (A[:, 0, 0] > 5,),
    (slice(None), A[0, :, :] % 3 == 0),
    A > 30,
]


@pytest.mark.parametrize("key", ADVANCED_KEYS, ids=[f"adv{i}" for i in range(len(ADVANCED_KEYS))])
def test_advanced_getitem(backend, key):
    x = ivy.asarray(A)
    ikey = tuple(ivy.asarray(k) if isinstance(k, np.ndarray) else k for k in key) if isinstance(key, tuple) \
        else ivy.asarray(key)
    check(x[ikey], A[key])


def test_list_and_numpy_keys(backend):
    x = ivy.asarray(A)
    check(x[[0, 2]], A[[0, 2]])
    check(x[np.array([1, 0])], A[np.array([1, 0])])


def test_boolean_scalar_index(backend):
    x = ivy.asarray(A[0])
    check(x[True], A[0][True])
    check(x[False], A[0][False])
    check(x[ivy.asarray(True)], A[0][np.bool_(True)])


def test_empty_boolean_masks(backend):
    """A mask axis of extent 0 selects nothing, whatever the extent it indexes (the standard's
    suite asks this; NumPy raises); other extents must match."""
    x = ivy.asarray(A)  # (3, 4, 5)
    assert x[ivy.asarray(np.zeros(0, dtype=bool))].shape == (0, 4, 5)
    assert x[ivy.asarray(np.zeros((3, 0), dtype=bool))].shape == (0, 5)
    assert x[:, ivy.asarray(np.zeros(0, dtype=bool))].shape == (3, 0, 5)
    with pytest.raises(IndexError):
        x[ivy.asarray(np.array([True]))]


def test_index_errors(backend):
    x = ivy.asarray(A)
    with pytest.raises(IndexError):
        x[3]
    with pytest.raises(IndexError):
        x[0, 0, 0, 0]
    with pytest.raises(IndexError):
        x[..., ...]
    with pytest.raises(IndexError):
        x[ivy.asarray([5])]
    with pytest.raises(IndexError):
        x["a"]
    with pytest.raises(ValueError):
        x[::0]


def test_iteration(backend):
    x = ivy.asarray([[1, 2], [3, 4], [5, 6]])
    rows = list(x)
    assert len(rows) == 3
    check(rows[2], np.array([5, 6]))
    with pytest.raises(TypeError):
        iter(ivy.asarray(1.0)).__next__()


SET_CASES = [
    (1, 7.0),
    ((0, slice(1, 3)), -1.0),
    ((Ellipsis, 0), 3.5),
    ((slice(None), slice(None, None, 2), 1), 9.0),
    ((slice(None, None, -1), 0, slice(4, 0, -3)), 2.0),
]


@pytest.mark.parametrize("key,value", SET_CASES, ids=[repr(c[0]) for c in SET_CASES])
def test_setitem_scalar(backend, key, value):
    a = A.copy()
    x = ivy.asarray(a, copy=True)
    x[key] = value
    a[key] = value
    check(x, a)


def test_setitem_array_values(backend):
    a = A.copy()
    x = ivy.asarray(a, copy=True)
    v = np.arange(5, dtype=np.float64) * 100
    x[1, 2] = ivy.asarray(v)
    a[1, 2] = v
    x[0] = ivy.asarray(np.ones((4, 1)))  # broadcast
    a[0] = np.ones((4, 1))
    check(x, a)


def test_setitem_advanced(backend):
    a = A.copy()
    x = ivy.asarray(a, copy=True)
    mask = a > 40
    x[ivy.asarray(mask)] = 0.0
    a[mask] = 0.0
    check(x, a)
    idx = np.array([0, 2])
    x[ivy.asarray(idx), 1] = ivy.asarray(np.full((2, 5), -5.0))
    a[idx, 1] = -5.0
    check(x, a)
    x[[1]] = 1.0
    a[[1]] = 1.0
    check(x, a)


def test_setitem_rebinds_in_place(backend):
    x = ivy.zeros(4, dtype=ivy.int32)
    alias = x
    x[1] = 5
    check(alias, np.array([0, 5, 0, 0], dtype=np.int32))
    x[True] = 2
    check(alias, np.full(4, 2, dtype=np.int32))
    x[False] = 7
    check(alias, np.full(4, 2, dtype=np.int32))
    y = ivy.zeros(3)
    y[0] = ivy.asarray(1.0, dtype=ivy.float64)  # value cast to the array's dtype
    check(y, np.array([1, 0, 0], dtype=np.float32))


def test_setitem_value_from_other_backend():
    backends = ivy.available_backends()
    if len(backends) < 2:
        pytest.skip("needs two backends")
    with ivy.BackendScope(backends[0]):
        x = ivy.zeros(3)
    with ivy.BackendScope(backends[1]):
        v = ivy.ones(2)
    x[1:] = v
    assert x.backend == backends[0]
    check(x, np.array([0, 1, 1], dtype=np.float32))


def test_take(backend):
    x = ivy.asarray(A)
    check(ivy.take(x, ivy.asarray([3, 0, 3]), axis=1), np.take(A, [3, 0, 3], axis=1))
    check(ivy.take(x, ivy.asarray([-1, 0]), axis=2), np.take(A, [-1, 0], axis=2))
    v = ivy.asarray(np.arange(5.0))
    check(ivy.take(v, ivy.asarray([4, 1])), np.take(np.arange(5.0), [4, 1]))


def test_take_along_axis(backend):
    a = np.array([[10, 30, 20], [60, 40, 50]], dtype=np.int32)
    idx = np.argsort(a, axis=1)
    check(ivy.take_along_axis(ivy.asarray(a), ivy.asarray(idx), axis=1), np.take_along_axis(a, idx, axis=1))
    idx0 = np.argsort(a, axis=0)
    check(ivy.take_along_axis(ivy.asarray(a), ivy.asarray(idx0), axis=0), np.take_along_axis(a, idx0, axis=0))

"""Manipulation functions against NumPy, on every backend."""

import numpy as np
import pytest

import ivy
from conftest import check, np_dtype, skip_unless_supported, to_np

A = np.arange(24, dtype=np.float32).reshape(2, 3, 4)


def x():
    return ivy.asarray(A)


def test_broadcast(backend):
    a = np.arange(3.0).reshape(3, 1)
    b = np.arange(4.0)
    ga, gb = ivy.broadcast_arrays(ivy.asarray(a), ivy.asarray(b))
    wa, wb = np.broadcast_arrays(a, b)
    check(ga, wa)
    check(gb, wb)
    check(ivy.broadcast_to(ivy.asarray(b), (2, 3, 4)), np.broadcast_to(b, (2, 3, 4)))
    assert ivy.broadcast_shapes((3, 1), (4,), (2, 1, 1)) == (2, 3, 4)
    assert ivy.broadcast_shapes() == ()
    with pytest.raises(ValueError):
        ivy.broadcast_shapes((2,), (3,))
    with pytest.raises(ValueError):
        ivy.broadcast_to(ivy.asarray(b), (3,))


@pytest.mark.parametrize("axis", [0, 1, -1, None])
def test_concat(backend, axis):
    parts = [A, A + 100, A[:, :, :] * 2]
    check(ivy.concat([ivy.asarray(p) for p in parts], axis=axis),
          np.concatenate(parts, axis=axis))


def test_concat_promotes(backend):
    got = ivy.concat((ivy.asarray([1, 2], dtype=ivy.int8), ivy.asarray([3], dtype=ivy.int16)))
    check(got, np.array([1, 2, 3], dtype=np.int16))


@pytest.mark.parametrize("axis", [0, 1, 3, -1, -4, (0, 2), (-1, 0)])
def test_expand_dims(backend, axis):
    check(ivy.expand_dims(x(), axis=axis), np.expand_dims(A, axis))


def test_expand_dims_errors(backend):
    with pytest.raises(IndexError):
        ivy.expand_dims(x(), axis=5)


@pytest.mark.parametrize("axis", [None, 0, -1, (0, 2)])
def test_flip(backend, axis):
    check(ivy.flip(x(), axis=axis), np.flip(A, axis))


@pytest.mark.parametrize("dtype", ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                                   "float16", "float32", "float64", "complex64", "complex128"])
def test_flip_every_dtype_and_layout(backend, dtype):
    """flip bit for bit in every dtype (elements of 1 to 16 bytes), every axis combination,
    on 0-d, zero-size, contiguous and strided inputs."""
    skip_unless_supported(backend, getattr(ivy, dtype))
    t = np_dtype(dtype)
    rng = np.random.default_rng(5)
    base = rng.integers(0, 100, 3 * 4 * 5).reshape(3, 4, 5)
    a = (base % 2 == 1) if t == np.bool_ else (base * (1 + 1j) if t.kind == "c" else base).astype(t)
    cases = [(a, ax) for ax in [None, 0, 1, 2, -1, (0, 1), (0, 2), (1, 2), (0, 1, 2)]]
    cases += [(a[0, :, 0], 0), (np.array(a[0, 0, 0]), None), (a[:, :0], 0), (a[:, :0], (0, 2))]
    cases = [(ivy.asarray(v), v, ax) for v, ax in cases]
    # views made by ivy (strided on backends with views)
    cases += [(ivy.asarray(a)[:, ::2, 1:4], a[:, ::2, 1:4], 1),
              (ivy.permute_dims(ivy.asarray(a), (2, 0, 1)), a.transpose(2, 0, 1), (0, 2))]
    for x, v, ax in cases:
        got = to_np(ivy.flip(x, axis=ax))
        want = np.flip(v, axis=ax)
        assert got.shape == want.shape and got.dtype == want.dtype
        np.testing.assert_array_equal(np.ascontiguousarray(got).view(np.uint8),
                                      np.ascontiguousarray(want).view(np.uint8))


def test_moveaxis_permute(backend):
    check(ivy.moveaxis(x(), 0, -1), np.moveaxis(A, 0, -1))
    check(ivy.moveaxis(x(), (0, 1), (2, 0)), np.moveaxis(A, (0, 1), (2, 0)))
    check(ivy.permute_dims(x(), (2, 0, 1)), np.transpose(A, (2, 0, 1)))
    check(ivy.permute_dims(x(), (-1, 0, 1)), np.transpose(A, (2, 0, 1)))  # 2025.12: negative axes
    check(ivy.matrix_transpose(x()), np.swapaxes(A, -1, -2))


def test_repeat(backend):
    check(ivy.repeat(x(), 2), np.repeat(A, 2))
    check(ivy.repeat(x(), 3, axis=1), np.repeat(A, 3, axis=1))
    r = np.array([1, 0, 2], dtype=np.int64)
    check(ivy.repeat(x(), ivy.asarray(r), axis=1), np.repeat(A, r, axis=1))


@pytest.mark.parametrize("shape", [(6, 4), (-1,), (4, -1, 2), (24,), (2, 3, 4)])
def test_reshape(backend, shape):
    check(ivy.reshape(x(), shape), A.reshape(shape))


def test_reshape_errors(backend):
    with pytest.raises(ValueError):
        ivy.reshape(x(), (5, 5))


@pytest.mark.parametrize("shift,axis", [(1, None), (-2, None), (1, 0), ((1, -1), (1, 2)), (5, 2)])
def test_roll(backend, shift, axis):
    check(ivy.roll(x(), shift, axis=axis), np.roll(A, shift, axis=axis))


@pytest.mark.parametrize("dtype", ["bool", "int8", "int16", "float32", "float64", "complex128"])
def test_roll_block_copies(backend, dtype):
    """roll by whole-row copies (both backends' contiguous path): every axis of a 3-d array
    and the flattened array, shifts of either sign, zero, beyond the length; element widths
    1 to 16 bytes; a strided input (the general path) must agree."""
    skip_unless_supported(backend, getattr(ivy, dtype))
    a = (np.arange(5 * 7 * 9) % 251).astype(dtype).reshape(5, 7, 9)
    if a.dtype.kind == "c":
        a = a + 1j * a[::-1]
    for axis in (None, 0, 1, 2, -1):
        for shift in (0, 1, -1, 3, -8, 13, 63, -400):
            got = to_np(ivy.roll(ivy.asarray(a), shift, axis=axis))
            np.testing.assert_array_equal(got, np.roll(a, shift, axis=axis))
    np.testing.assert_array_equal(to_np(ivy.roll(ivy.asarray(a)[:, ::2], 2, axis=1)), np.roll(a[:, ::2], 2, axis=1))


def test_squeeze(backend):
    a = A.reshape(1, 2, 1, 12)
    check(ivy.squeeze(ivy.asarray(a), 0), np.squeeze(a, 0))
    check(ivy.squeeze(ivy.asarray(a), (0, 2)), np.squeeze(a, (0, 2)))
    check(ivy.squeeze(ivy.asarray(a), axis=-2), np.squeeze(a, -2))
    with pytest.raises(ValueError):
        ivy.squeeze(ivy.asarray(a), 1)


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_stack_unstack(backend, axis):
    parts = [A, A * 2]
    got = ivy.stack([ivy.asarray(p) for p in parts], axis=axis)
    want = np.stack(parts, axis=axis)
    check(got, want)
    pieces = ivy.unstack(got, axis=axis)
    assert isinstance(pieces, tuple) and len(pieces) == 2
    for p, w in zip(pieces, parts):
        check(p, w)


@pytest.mark.parametrize("reps", [(2,), (2, 1, 3), (1, 2, 1, 2)])
def test_tile(backend, reps):
    check(ivy.tile(x(), reps), np.tile(A, reps))


def test_rank_32(backend):
    """The standard's largest rank (its suite reshapes to 32 dimensions); 33 is an error."""
    shape = tuple(2 if i % 8 == 0 else 1 for i in range(32))
    a = np.arange(16.0).reshape(shape)
    x = ivy.reshape(ivy.asarray(np.arange(16.0)), shape)
    assert x.ndim == 32 and x.shape == shape
    check(x, a)
    check(ivy.sum(x, axis=24, keepdims=True), a.sum(axis=24, keepdims=True))
    check(ivy.permute_dims(x, tuple(range(31, -1, -1))), a.transpose())
    check(x + ivy.asarray(np.array([100.0, 200.0])), a + np.array([100.0, 200.0]))
    with pytest.raises(ValueError):
        ivy.reshape(x, (1,) * 33)

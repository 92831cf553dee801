"""Cases where the Array API standard's conformance suite found ivy off the standard (issue
32), each beside its C++ regression test in tests/test_core.cpp where the fix is in C++."""
import math

import pytest

import ivy

def test_floor_divide_infinities(backend):
    inf = math.inf
    a = ivy.asarray([inf, -inf, 1.0, -1.0, 1.0], dtype=ivy.float64)
    b = ivy.asarray([2.0, 2.0, inf, inf, -inf], dtype=ivy.float64)
    got = [float(v) for v in ivy.floor_divide(a, b)]
    assert got == [inf, -inf, 0.0, -0.0, -0.0]
    assert [math.copysign(1, v) for v in got[2:]] == [1, -1, -1]


def test_vecdot_dtype(backend):
    a = ivy.asarray([1, 2, 3], dtype=ivy.uint8)
    assert ivy.vecdot(a, a).dtype == ivy.uint8
    assert int(ivy.vecdot(a, a)) == 14


def test_asarray_without_copy_is_the_same_array(backend):
    x = ivy.asarray([1.0, 2.0])
    y = ivy.asarray(x, copy=False)
    x[0] = 5.0
    assert float(y[0]) == 5.0
    z = ivy.asarray(x, copy=True)
    x[1] = 7.0
    assert float(z[1]) == 2.0


def test_eye_with_a_diagonal_far_outside(backend):
    assert ivy.eye(0, None, k=2**63).shape == (0, 0)
    assert not bool(ivy.any(ivy.eye(3, 4, k=-(2**70))))
    assert bool(ivy.all(ivy.eye(2, k=0) == ivy.asarray([[1.0, 0.0], [0.0, 1.0]])))


def test_devices_is_a_tuple(backend):
    info = ivy.__array_namespace_info__()
    assert isinstance(info.devices(), tuple)
    assert info.default_device() in info.devices()


def test_pinv_and_matrix_rank_with_an_rtol_per_matrix(backend):
    d = ivy.asarray([[1.0, 0.0], [0.0, 1e-3]], dtype=ivy.float64)
    x = ivy.stack([d, d])
    rtol = ivy.asarray([1e-4, 1e-2])
    p = ivy.linalg.pinv(x, rtol=rtol)
    assert abs(float(p[0, 1, 1]) - 1000.0) < 1e-6
    assert float(p[1, 1, 1]) == 0.0
    assert [int(v) for v in ivy.linalg.matrix_rank(x, rtol=rtol)] == [2, 1]


def test_out_of_range_python_scalars_raise_overflow_error(backend):
    x = ivy.asarray([1, 2], dtype=ivy.int8)
    with pytest.raises(OverflowError, match=r"^\[add\] the scalar 300 is out of range for int8"):
        x + 300
    with pytest.raises(OverflowError, match=r"^\[add\]"):
        ivy.asarray([1], dtype=ivy.int32) + 2**40
    with pytest.raises(OverflowError, match=r"^\[where\]"):
        ivy.where(ivy.asarray([True, False]), x, 300)
    with pytest.raises(OverflowError, match=r"^\[full\]"):
        ivy.full((2,), 300, dtype=ivy.int8)
    assert [int(v) for v in x + 126] == [127, -128]
    assert ivy.isdtype((x + 300.0).dtype, "real floating")


def test_unique_counts_each_nan_on_short_arrays(backend):
    x = ivy.asarray([3.0, math.nan, 1.0], dtype=ivy.float32)
    u = ivy.unique_all(x)
    assert [float(v) for v in u.values[:2]] == [1.0, 3.0] and math.isnan(float(u.values[2]))
    assert [int(c) for c in u.counts] == [1, 1, 1]
    assert [int(i) for i in u.indices] == [2, 0, 1]
    rebuilt = [float(v) for v in ivy.take(u.values, u.inverse_indices, axis=0)]
    assert rebuilt[0] == 3.0 and math.isnan(rebuilt[1]) and rebuilt[2] == 1.0
    two = ivy.unique_counts(ivy.asarray([math.nan, math.nan], dtype=ivy.float64))
    assert [int(c) for c in two.counts] == [1, 1]


def test_repeat_with_more_counts_than_the_attribute_holds(backend):
    """Per-element repeats of an axis longer than 16 (the primitive's attribute limit) go
    through a take of the repeated indices (found by test_repeat once uint64 joined torch)."""
    x = ivy.reshape(ivy.arange(40), (2, 20))
    counts = [k % 3 for k in range(20)]
    r = ivy.repeat(x, ivy.asarray(counts), axis=1)
    want = [[v for k, v in enumerate(range(20 * row, 20 * row + 20)) for _ in range(counts[k])] for row in range(2)]
    assert r.tolist() == want
    flat = ivy.repeat(ivy.arange(20), ivy.asarray([1] * 20))
    assert flat.tolist() == list(range(20))
    with pytest.raises(ValueError, match=r"^\[repeat\]"):
        ivy.repeat(ivy.arange(20), ivy.asarray([1] * 19 + [-1]))

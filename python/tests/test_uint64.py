"""uint64 on every backend, values at and above 2^63 included (the torch backend stores uint64
in int64 storage with the unsigned bit pattern): each function against NumPy."""

import numpy as np
import pytest

import ivy
from conftest import check, np_dtype, skip_unless_supported, to_np

U = np.uint64
BIG = np.array([0, 1, 5, 2**63 - 1, 2**63, 2**63 + 1, 2**64 - 1, 12345678901234567890, 7, 2**63 + 3], dtype=U)
SMALL = np.array([3, 1, 2**63, 7, 2**64 - 1, 9, 2, 2**62, 11, 0], dtype=U)


@pytest.fixture
def u64(backend):
    skip_unless_supported(backend, ivy.uint64)
    return backend


def arr(a):
    return ivy.asarray(a, dtype=ivy.uint64)


def test_roundtrip_item_to_list(u64):
    x = arr(BIG)
    check(x, BIG)
    assert int(x[6]) == 2**64 - 1
    assert x[4].item() == 2**63
    assert x.tolist() == [int(v) for v in BIG] if hasattr(x, "tolist") else True
    assert "18446744073709551615" in str(x)


def test_creation(u64):
    check(ivy.full((3,), 2**64 - 1, dtype=ivy.uint64), np.full((3,), 2**64 - 1, dtype=U))
    check(ivy.zeros((2, 2), dtype=ivy.uint64), np.zeros((2, 2), U))
    check(ivy.ones((2,), dtype=ivy.uint64), np.ones((2,), U))
    check(ivy.arange(2, 10, 3, dtype=ivy.uint64), np.arange(2, 10, 3, dtype=U))
    check(ivy.eye(3, dtype=ivy.uint64), np.eye(3, dtype=U))
    check(ivy.linspace(0, 10, 6, dtype=ivy.uint64), np.linspace(0, 10, 6).astype(U))
    check(ivy.full_like(arr(BIG), 2**63), np.full_like(BIG, 2**63))


@pytest.mark.parametrize("fn", ["equal", "not_equal", "less", "less_equal", "greater", "greater_equal"])
def test_compare(u64, fn):
    check(getattr(ivy, fn)(arr(BIG), arr(SMALL)), getattr(np, fn)(BIG, SMALL))


@pytest.mark.parametrize("fn", ["add", "subtract", "multiply", "floor_divide", "remainder", "maximum", "minimum",
                                "bitwise_and", "bitwise_or", "bitwise_xor"])
def test_binary(u64, fn):
    with np.errstate(all="ignore"):
        check(getattr(ivy, fn)(arr(BIG), arr(SMALL)), getattr(np, fn)(BIG, SMALL))


def test_divide_to_float(u64):
    with np.errstate(all="ignore"):
        r = ivy.divide(arr(BIG), arr(SMALL))  # the default float dtype
        check(r, np.divide(BIG, SMALL).astype(np_dtype(r.dtype)), rtol=1e-6)


def test_pow_and_shifts(u64):
    e = np.array([0, 1, 2, 3, 63, 64, 2**63, 5, 65, 1], dtype=U)
    check(ivy.pow(arr(BIG), arr(e)), np.array([pow(int(a), int(b), 2**64) for a, b in zip(BIG, e)], dtype=U))
    s = np.array([0, 1, 63, 64, 2**63, 3, 1, 62, 70, 4], dtype=U)
    expect_r = np.array([int(a) >> int(b) if b < 64 else 0 for a, b in zip(BIG, s)], dtype=U)
    expect_l = np.array([(int(a) << int(b)) % 2**64 if b < 64 else 0 for a, b in zip(BIG, s)], dtype=U)
    check(ivy.bitwise_right_shift(arr(BIG), arr(s)), expect_r)
    check(ivy.bitwise_left_shift(arr(BIG), arr(s)), expect_l)


def test_unary(u64):
    check(ivy.abs(arr(BIG)), BIG)
    check(ivy.sign(arr(BIG)), np.sign(BIG))
    check(ivy.signbit(arr(BIG)), np.zeros(BIG.shape, bool))
    check(ivy.negative(arr(BIG)), np.negative(BIG))
    check(ivy.bitwise_invert(arr(BIG)), np.invert(BIG))
    check(ivy.square(arr(BIG)), np.square(BIG))
    check(ivy.clip(arr(BIG), 2**62, 2**63 + 2), np.clip(BIG, U(2**62), U(2**63 + 2)))


@pytest.mark.parametrize("to", ["float64", "float32", "int64", "int8", "uint32", "uint16", "uint8", "bool",
                                "complex128"])
def test_astype_from(u64, to):
    check(ivy.astype(arr(BIG), getattr(ivy, to)), BIG.astype(to), rtol=0)


def test_astype_to_and_back(u64):
    f = np.array([0.0, 1.0, 2.0**63, 2.0**64 - 2048, 3.0e18, 1.5e19], dtype=np.float64)
    check(ivy.astype(ivy.asarray(f), ivy.uint64), f.astype(U))
    check(ivy.astype(ivy.astype(arr(BIG), ivy.float64), ivy.uint64)[:4], BIG.astype(np.float64).astype(U)[:4])
    i = np.array([-1, 0, 5, -(2**63)], dtype=np.int64)
    check(ivy.astype(ivy.asarray(i), ivy.uint64), i.astype(U))
    check(ivy.astype(arr(BIG), ivy.uint64), BIG)


def test_promotion_with_int64_compares_exactly(u64):
    i = np.array([-1, 2**62, 5, 0, 9, 1, 2, 3, 4, 5], dtype=np.int64)
    check(ivy.less(arr(BIG), ivy.asarray(i)), np.less(BIG, i))


def test_reductions(u64):
    x = arr(BIG)
    check(ivy.sum(x), np.sum(BIG))
    check(ivy.prod(arr(SMALL[:4])), np.prod(SMALL[:4]))
    check(ivy.max(x), np.max(BIG))
    check(ivy.min(arr(BIG[2:])), np.min(BIG[2:]))
    check(ivy.argmax(x), np.argmax(BIG).astype(np.int64))
    check(ivy.argmin(arr(BIG[2:])), np.argmin(BIG[2:]).astype(np.int64))
    m = ivy.mean(x)
    check(m, np.mean(BIG).astype(np_dtype(m.dtype)), rtol=1e-6)
    x2 = arr(BIG.reshape(2, 5))
    check(ivy.max(x2, axis=1), np.max(BIG.reshape(2, 5), axis=1))
    check(ivy.min(x2, axis=0), np.min(BIG.reshape(2, 5), axis=0))
    check(ivy.cumulative_sum(x), np.cumsum(BIG))


def test_sort_search_set(u64):
    x = arr(BIG)
    check(ivy.sort(x), np.sort(BIG))
    check(ivy.sort(x, descending=True), np.sort(BIG)[::-1])
    check(ivy.argsort(x, stable=True), np.argsort(BIG, kind="stable").astype(np.int64))
    long = np.concatenate([BIG] * 40)
    check(ivy.sort(arr(long)), np.sort(long))
    vals = ivy.unique_values(arr(long))
    check(vals, np.unique(long))
    res = ivy.unique_all(x)
    check(res.values, np.unique(BIG))
    s = np.sort(BIG)
    check(ivy.searchsorted(arr(s), arr(SMALL)), np.searchsorted(s, SMALL).astype(np.int64))
    check(ivy.isin(arr(BIG), arr(SMALL)), np.isin(BIG, SMALL))


def test_manipulation(u64):
    x = arr(BIG)
    check(ivy.reshape(x, (2, 5)), BIG.reshape(2, 5))
    check(ivy.concat([x, x]), np.concatenate([BIG, BIG]))
    check(ivy.stack([x, x]), np.stack([BIG, BIG]))
    check(ivy.take(x, ivy.asarray([6, 4])), BIG[[6, 4]])
    check(ivy.where(ivy.greater(x, arr(SMALL)), x, arr(SMALL)), np.where(BIG > SMALL, BIG, SMALL))
    check(ivy.flip(x), BIG[::-1])
    check(x[4:7], BIG[4:7])


def test_iinfo(u64):
    info = ivy.iinfo(ivy.uint64)
    assert info.max == 2**64 - 1 and info.min == 0 and info.bits == 64


def test_dlpack(u64):
    x = arr(BIG)
    y = np.from_dlpack(x)
    assert y.dtype == U
    np.testing.assert_array_equal(y, BIG)
    z = ivy.from_dlpack(BIG)
    check(z, BIG)


def test_same_as_xtensor(u64):
    if u64 == "xtensor" or "xtensor" not in ivy.available_backends():
        pytest.skip("compares torch with xtensor")
    ops = [lambda a, b: ivy.floor_divide(a, b), lambda a, b: ivy.less(a, b), lambda a, b: ivy.maximum(a, b),
           lambda a, b: ivy.astype(a, ivy.float32), lambda a, b: ivy.sort(a)]
    mine = [to_np(op(arr(BIG), arr(SMALL))) for op in ops]
    with ivy.BackendScope("xtensor"):
        theirs = [to_np(op(arr(BIG), arr(SMALL))) for op in ops]
    for m, t in zip(mine, theirs):
        np.testing.assert_array_equal(m, t)

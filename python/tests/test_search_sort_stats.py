"""Searching, sorting, set, statistical and utility functions against NumPy, on every
backend."""

import math

import numpy as np
import pytest

import ivy
from conftest import check, skip_unless_supported, to_np

RNG = np.random.default_rng(99)
M = RNG.normal(size=(4, 5))
I = RNG.integers(-5, 5, size=(3, 6)).astype(np.int32)


@pytest.mark.parametrize("fn,npfn", [(ivy.argmax, np.argmax), (ivy.argmin, np.argmin)])
@pytest.mark.parametrize("axis", [None, 0, 1, -1])
def test_argmax_argmin(backend, fn, npfn, axis):
    check(fn(ivy.asarray(M), axis=axis), npfn(M, axis=axis).astype(np.int64))
    check(fn(ivy.asarray(M), axis=axis, keepdims=True), npfn(M, axis=axis, keepdims=True).astype(np.int64))


@pytest.mark.parametrize("dtype", ["int8", "int16", "int32", "int64", "uint8", "float32", "float64"])
def test_argmax_argmin_whole_arrays(backend, dtype):
    """argmax/argmin of whole arrays (no axis, and the axis of 1-d ones; the torch backend
    runs one loop of ivy's on contiguous tensors): first occurrence of ties, the first NaN
    wins, extremes and signed zeros, lengths 1..40 and long, strided and 2-d inputs."""
    skip_unless_supported(backend, getattr(ivy, dtype))
    t = np.dtype(dtype)
    rng = np.random.default_rng(t.itemsize + 3)
    if t.kind == "f":
        base = rng.normal(size=2000).astype(t)
        cases = [base, np.array([1, np.nan, 5, np.nan], t), np.array([-0.0, 0.0, -0.0], t), np.array([np.inf, 1, np.inf], t),
                 np.array([3.0, 1.0, -np.inf, -np.inf, np.nan], t), np.array([np.nan], t)]
    else:
        info = np.iinfo(t)
        base = rng.integers(info.min, info.max, 2000, dtype=t, endpoint=True)
        cases = [base, np.array([info.min, info.max, info.max, info.min], t), np.array([5, 5, 5], t)]
    cases += [base[:k] for k in range(1, 41)] + [base[::3], base[:40].reshape(5, 8)]
    for x in cases:
        for fn, npfn in ((ivy.argmax, np.argmax), (ivy.argmin, np.argmin)):
            check(fn(ivy.asarray(x)), np.array(npfn(x), dtype=np.int64))
            check(fn(ivy.asarray(x), keepdims=True), np.array(npfn(x, keepdims=True), dtype=np.int64))
            if x.ndim == 1:
                check(fn(ivy.asarray(x), axis=0), np.array(npfn(x, axis=0), dtype=np.int64))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_extremes_of_float_rows(backend, dtype):
    """max/min and argmax/argmin of float rows (ivy's vector loops on x86 with AVX2, the
    scalar ones under IVY_CPU_CAPABILITY=default; scripts/test.sh runs both): the extreme at
    every position of rows of every length 1..80, each tie kept at its first position, a
    NaN at every position (max/min NaN, argmax/argmin the first NaN), all NaN, infinities;
    of 0 and -0 the first in the row is max/min's value (its sign checked); rows of 2-d
    arrays along either axis, and strided inputs."""
    t = np.dtype(dtype)
    rng = np.random.default_rng(t.itemsize + 11)
    cases = []
    for n in list(range(1, 81)) + [255, 256, 257, 1000]:
        base = rng.uniform(-1, 1, n).astype(t)
        cases.append(base)
        for pos in sorted({0, n // 3, n // 2, n - 1}):
            hi, lo = base.copy(), base.copy()
            tie = pos + (n - pos) // 2  # a tie later in the row, where there is room
            hi[pos] = hi[tie] = 5
            lo[pos] = lo[tie] = -5
            nan = base.copy()
            nan[pos] = np.nan
            cases += [hi, lo, nan]
    for pos in range(70):  # a NaN at every position of one row, and a second later one
        x = rng.uniform(-1, 1, 70).astype(t)
        x[pos] = np.nan
        if pos + 5 < 70:
            x[pos + 5] = np.nan
        cases.append(x)
    cases += [np.full(37, np.nan, t), np.array([np.inf, -np.inf] * 20, t), np.full(50, -np.inf, t), np.full(33, 7, t)]
    for x in cases:
        for fn, npfn in ((ivy.argmax, np.argmax), (ivy.argmin, np.argmin)):
            check(fn(ivy.asarray(x)), np.array(npfn(x), dtype=np.int64))
        for fn, npfn in ((ivy.max, np.max), (ivy.min, np.min)):
            check(fn(ivy.asarray(x)), np.array(npfn(x), dtype=t))
    # signed zeros: on xtensor (ivy's loops) the first zero of the row is max/min's value;
    # the standard and NumPy leave which one open, and LibTorch's max/min differ
    for n in (2, 9, 40, 100):
        for first_neg in (True, False):
            x = np.zeros(n, t)
            x[n // 2 :] = np.where(rng.uniform(size=n - n // 2) < 0.5, -0.0, 0.0)
            x[: n // 2] = -1.0
            x[n // 2] = -0.0 if first_neg else 0.0
            r = to_np(ivy.max(ivy.asarray(x)))
            assert r == 0 and (backend != "xtensor" or bool(np.signbit(r)) == first_neg), (n, first_neg, r)
            y = -x
            y[n // 2] = -0.0 if first_neg else 0.0
            r = to_np(ivy.min(ivy.asarray(y)))
            assert r == 0 and (backend != "xtensor" or bool(np.signbit(r)) == first_neg), (n, first_neg, r)
    m = rng.uniform(-1, 1, (37, 45)).astype(t)
    m[3, 7] = np.nan
    m[10, :] = 2
    for axis in (0, 1, -1):
        for fn, npfn in ((ivy.argmax, np.argmax), (ivy.argmin, np.argmin)):
            check(fn(ivy.asarray(m), axis=axis), npfn(m, axis=axis).astype(np.int64))
        for fn, npfn in ((ivy.max, np.max), (ivy.min, np.min)):
            check(fn(ivy.asarray(m), axis=axis), npfn(m, axis=axis))
    s = rng.uniform(-1, 1, 301).astype(t)
    for fn, npfn in ((ivy.argmax, np.argmax), (ivy.max, np.max), (ivy.min, np.min)):
        got = fn(ivy.asarray(s)[::3])
        check(got, np.array(npfn(s[::3]), dtype=np.int64 if fn is ivy.argmax else t))


@pytest.mark.parametrize("dtype", ["bool", "int8", "int32", "int64", "uint8", "float32", "float64"])
def test_all_any_whole_arrays(backend, dtype):
    """all/any over every axis (None, or all of them listed; keepdims): NaN and -0 (true and
    false), a single deciding element at every position of chunks, lengths 0..40 and long,
    strided and 2-d inputs."""
    skip_unless_supported(backend, getattr(ivy, dtype))
    t = np.dtype(dtype)
    n = 1500
    cases = [np.ones(n, t), np.zeros(n, t), np.ones(0, t)]
    for pos in (0, 1, 511, 512, 513, 1023, n - 1):
        z = np.ones(n, t)
        z[pos] = 0
        o = np.zeros(n, t)
        o[pos] = 1
        cases += [z, o]
    if t.kind == "f":
        cases += [np.array([np.nan, np.nan], t), np.array([-0.0, 0.0], t), np.array([-0.0, np.nan], t)]
    ones = np.ones(n, t)
    cases += [ones[:k] for k in range(0, 41)] + [cases[3][::2], cases[3][:40].reshape(5, 8)]
    for x in cases:
        for fn, npfn in ((ivy.all, np.all), (ivy.any, np.any)):
            check(fn(ivy.asarray(x)), np.array(npfn(x)))
            check(fn(ivy.asarray(x), axis=tuple(range(x.ndim)), keepdims=True), np.array(npfn(x, axis=tuple(range(x.ndim)), keepdims=True)))


def test_count_nonzero_nonzero(backend):
    check(ivy.count_nonzero(ivy.asarray(I)), np.array(np.count_nonzero(I), dtype=np.int64))
    check(ivy.count_nonzero(ivy.asarray(I), axis=1), np.count_nonzero(I, axis=1).astype(np.int64))
    check(ivy.count_nonzero(ivy.asarray(I), axis=(0, 1), keepdims=True),
          np.array([[np.count_nonzero(I)]], dtype=np.int64))
    got = ivy.nonzero(ivy.asarray(I))
    want = np.nonzero(I)
    assert isinstance(got, tuple) and len(got) == 2
    for g, w in zip(got, want):
        check(g, w.astype(np.int64))


@pytest.mark.parametrize("side", ["left", "right"])
def test_searchsorted(backend, side):
    s = np.array([1.0, 2.0, 2.0, 3.5, 7.0])
    v = np.array([[0.0, 2.0], [3.5, 10.0]])
    check(ivy.searchsorted(ivy.asarray(s), ivy.asarray(v), side=side), np.searchsorted(s, v, side=side))
    check(ivy.searchsorted(ivy.asarray(s), 2.0, side=side), np.array(np.searchsorted(s, 2.0, side=side)))
    u = np.array([3.0, 1.0, 2.0])
    srt = np.argsort(u)
    check(ivy.searchsorted(ivy.asarray(u), ivy.asarray([2.5]), sorter=ivy.asarray(srt)),
          np.searchsorted(u, [2.5], sorter=srt))


@pytest.mark.parametrize("side", ["left", "right"])
@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "int64", "uint8"])
def test_searchsorted_lengths(backend, side, dtype):
    """Sorted arrays of every length up to 40 and a few long ones, with runs of equal values
    (and for floats -0/+0, infinities and NaN, which sorts last), searched for every value
    they hold, values between and beyond them, and NaN: NumPy's indices exactly."""
    skip_unless_supported(backend, getattr(ivy, dtype))
    t = np.dtype(dtype)
    rng = np.random.default_rng(5)
    for n in list(range(41)) + [100, 257, 1000, 4099]:
        if t.kind == "f":
            pool = np.array([-np.inf, -2.5, -1.0, -0.0, 0.0, 1.0, 1.5, 3.0, np.inf, np.nan], dtype=t)
            s = np.sort(np.concatenate([rng.choice(pool, n // 2), rng.normal(size=n - n // 2).astype(t)]))
            v = np.concatenate([s, pool, rng.normal(size=64).astype(t), (s[:-1] + s[1:]) / 2 if n > 1 else s])
        else:
            info = np.iinfo(t)
            s = np.sort(rng.integers(max(info.min, -50), min(info.max, 50), n, endpoint=True).astype(t))
            v = np.concatenate([s, np.array([info.min, info.max, 0], dtype=t),
                                rng.integers(max(info.min, -60), min(info.max, 60), 64, endpoint=True).astype(t)])
        with np.errstate(invalid="ignore"):
            want = np.searchsorted(s, v, side=side).astype(np.int64)
        check(ivy.searchsorted(ivy.asarray(s), ivy.asarray(v), side=side), want)


def test_unique(backend):
    a = np.array([[3, 1, 2], [1, 3, 3]], dtype=np.int32)
    x = ivy.asarray(a)
    vals, idx, inv, cnt = np.unique(a, return_index=True, return_inverse=True, return_counts=True)
    r = ivy.unique_all(x)
    assert r._fields == ("values", "indices", "inverse_indices", "counts")
    order = np.argsort(np.asarray(r.values))  # the standard leaves the order open
    check(ivy.asarray(np.asarray(r.values)[order]), vals)
    check(ivy.asarray(np.asarray(r.counts)[order]), cnt.astype(np.int64))
    np.testing.assert_array_equal(np.asarray(r.values)[np.asarray(r.inverse_indices)], a)
    assert tuple(r.inverse_indices.shape) == a.shape
    np.testing.assert_array_equal(a.reshape(-1)[np.asarray(r.indices)], np.asarray(r.values))
    c = ivy.unique_counts(x)
    assert dict(zip(np.asarray(c.values).tolist(), np.asarray(c.counts).tolist())) == {1: 2, 2: 1, 3: 3}
    v, i = ivy.unique_inverse(x)
    np.testing.assert_array_equal(np.asarray(v)[np.asarray(i)], a)
    check(ivy.sort(ivy.unique_values(x)), np.array([1, 2, 3], dtype=np.int32))


def test_isin(backend):
    a = np.array([1, 5, 2, 7], dtype=np.int64)
    b = np.array([2, 7, 9], dtype=np.int64)
    check(ivy.isin(ivy.asarray(a), ivy.asarray(b)), np.isin(a, b))
    check(ivy.isin(ivy.asarray(a), ivy.asarray(b), invert=True), np.isin(a, b, invert=True))
    check(ivy.isin(ivy.asarray(a), 5), np.isin(a, [5]))


@pytest.mark.parametrize("dtype", ["int8", "int32", "int64", "uint8", "float32", "float64"])
def test_isin_test_set_sizes(backend, dtype):
    """isin with test sets around the scan/binary-search switch (32 values) and long ones,
    holding repeats, NaN (which matches nothing, itself included) and -0 (equal to 0);
    elements in and out of the set, invert, 2-d and strided inputs, against NumPy."""
    skip_unless_supported(backend, getattr(ivy, dtype))
    t = np.dtype(dtype)
    rng = np.random.default_rng(t.itemsize + 23)
    lo, hi = (-60, 60) if t.kind != "u" else (0, 120)
    x = rng.integers(lo, hi, 700).astype(t)
    if t.kind == "f":
        x[:6] = [np.nan, -0.0, 0.0, np.inf, -np.inf, 0.5]
    for m in (0, 1, 31, 32, 33, 100, 500):
        tset = rng.integers(lo, hi, m).astype(t)
        if t.kind == "f" and m:
            tset[0] = np.nan
            tset[-1] = -0.0 if m % 2 else np.inf
        for invert in (False, True):
            check(ivy.isin(ivy.asarray(x), ivy.asarray(tset), invert=invert), np.isin(x, tset, invert=invert))
        x2 = x[:600].reshape(20, 30)
        check(ivy.isin(ivy.asarray(x2), ivy.asarray(tset)), np.isin(x2, tset))
        check(ivy.isin(ivy.asarray(x)[::3], ivy.asarray(tset)[::2]), np.isin(x[::3], tset[::2]))


@pytest.mark.parametrize("axis", [0, 1, -1])
@pytest.mark.parametrize("descending", [False, True])
def test_sort_argsort(backend, axis, descending):
    got = ivy.sort(ivy.asarray(M), axis=axis, descending=descending)
    want = np.sort(M, axis=axis)
    if descending:
        want = np.flip(want, axis=axis)
    check(got, want)
    a = np.array([3, 1, 2, 1, 3, 2], dtype=np.int16)
    order = ivy.argsort(ivy.asarray(a), descending=descending, stable=True)
    if descending:
        want_order = np.argsort(-a.astype(np.int64), kind="stable")
    else:
        want_order = np.argsort(a, kind="stable")
    check(order, want_order.astype(np.int64))


def _stable_order(row, descending):
    """Indices of a 1-d list in the standard's stable sort order: NaN last (first when
    descending, the reversed comparison), -0 equal to 0, ties in input order."""
    def key(i):
        v = row[i]
        nan = isinstance(v, float) and math.isnan(v)
        if descending:
            return (not nan, 0 if nan else -v, i)
        return (nan, 0 if nan else v, i)
    return sorted(range(len(row)), key=key)


def _long_rows(dtype):
    """1000 values per row (longer rows than the xtensor backend sorts by comparison): many
    ties; for floats NaN, both zeros, infinities, subnormals and normals of both signs."""
    rng = np.random.default_rng(7)
    nd = np.dtype(dtype)
    if nd.kind in "iu":
        info = np.iinfo(nd)
        few = rng.integers(max(info.min, -4), min(info.max, 4), size=(3, 1000), endpoint=True)
        a = few.astype(nd)
        a[:, :6] = [info.min, info.max, 0, info.min, info.max, 1]
        a[:, 500:700] = rng.integers(info.min, info.max, size=(3, 200), endpoint=True, dtype=nd)
        return a
    a = rng.normal(size=(3, 1000)).astype(nd)
    a[:, ::7] = np.round(a[:, ::7])  # ties, -0.0 among them
    specials = np.array([np.nan, -0.0, 0.0, np.inf, -np.inf, np.finfo(nd).tiny / 4, -np.finfo(nd).tiny / 4,
                         np.finfo(nd).max, -np.finfo(nd).max, -np.nan, -0.0, 0.0], dtype=nd)
    for r in range(3):
        a[r, rng.choice(1000, size=specials.size * 4, replace=False)] = np.tile(specials, 4)
    return a


@pytest.mark.parametrize("dtype", ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
                                   "uint64", "float32", "float64"])
@pytest.mark.parametrize("descending", [False, True])
def test_sort_argsort_long_rows(backend, dtype, descending):
    skip_unless_supported(backend, getattr(ivy, dtype))
    a = _long_rows(dtype)
    want_idx = np.array([_stable_order(r.tolist(), descending) for r in a], dtype=np.int64)
    got_idx = to_np(ivy.argsort(ivy.asarray(a), axis=-1, descending=descending, stable=True))
    np.testing.assert_array_equal(got_idx, want_idx)
    want = np.take_along_axis(a, want_idx, axis=-1)
    got = to_np(ivy.sort(ivy.asarray(a), axis=-1, descending=descending, stable=True))
    assert got.dtype == a.dtype
    # bit for bit: the zeros keep their sign and input order
    np.testing.assert_array_equal(got.view(np.uint8), want.view(np.uint8))
    # along the first axis of the transposed array (the sorted axis is not the last one)
    got_t = to_np(ivy.argsort(ivy.asarray(np.ascontiguousarray(a.T)), axis=0, descending=descending))
    np.testing.assert_array_equal(got_t, want_idx.T)
    # rows at the radix sort's threshold (128: by comparisons, 129: by radix), a strided
    # view, and a 1-d row
    for x in (a[:, :128], a[:, 300:429], a[:, ::3], a[1]):
        want_i = np.array([_stable_order(r.tolist(), descending) for r in np.atleast_2d(x)], dtype=np.int64)
        want_i = want_i.reshape(x.shape)
        np.testing.assert_array_equal(to_np(ivy.argsort(ivy.asarray(x), descending=descending)), want_i)
        got = to_np(ivy.sort(ivy.asarray(x), descending=descending))
        np.testing.assert_array_equal(got.view(np.uint8), np.take_along_axis(x, want_i, axis=-1).view(np.uint8))


@pytest.mark.parametrize("dtype", ["int16", "uint32", "float32", "float64"])
def test_unique_long(backend, dtype):
    skip_unless_supported(backend, getattr(ivy, dtype))
    a = _long_rows(dtype).reshape(-1)
    if a.dtype.kind == "f":
        a = a[~np.isnan(a)]  # NaNs are all distinct (checked by the hypothesis test)
    vals, idx, inv, cnt = np.unique(a, return_index=True, return_inverse=True, return_counts=True)
    r = ivy.unique_all(ivy.asarray(a))
    v = to_np(r.values)
    order = np.argsort(v, kind="stable")  # the standard leaves the order open
    np.testing.assert_array_equal(v[order], vals)
    np.testing.assert_array_equal(to_np(r.indices)[order], idx)  # the first occurrence of each value
    np.testing.assert_array_equal(to_np(r.counts)[order], cnt)
    np.testing.assert_array_equal(v[to_np(r.inverse_indices)], a)
    # each value is its first occurrence: -0.0 or 0.0, whichever comes first
    np.testing.assert_array_equal(np.signbit(v), np.signbit(a[to_np(r.indices)]))
    if a.dtype.kind == "f":  # with NaNs: each is its own value, counted once, at its index
        b = _long_rows(dtype).reshape(-1)
        r = ivy.unique_all(ivy.asarray(b))
        v, nan_b = to_np(r.values), np.isnan(b)
        assert np.isnan(v).sum() == nan_b.sum()
        np.testing.assert_array_equal(np.sort(to_np(r.indices)[np.isnan(v)]), np.flatnonzero(nan_b))
        np.testing.assert_array_equal(to_np(r.counts)[np.isnan(v)], 1)
        np.testing.assert_array_equal(np.sort(v[~np.isnan(v)]), np.unique(b[~nan_b]))
        inv = to_np(r.inverse_indices)
        np.testing.assert_array_equal(v[inv][~nan_b], b[~nan_b])
        assert np.all(np.isnan(v[inv][nan_b]))


@pytest.mark.parametrize("axis", [None, 0, 1, (0, 1), -1])
@pytest.mark.parametrize("keepdims", [False, True])
def test_reductions(backend, axis, keepdims):
    x = ivy.asarray(M)
    for fn, npfn in [(ivy.sum, np.sum), (ivy.prod, np.prod), (ivy.mean, np.mean), (ivy.max, np.max),
                     (ivy.min, np.min)]:
        check(fn(x, axis=axis, keepdims=keepdims), npfn(M, axis=axis, keepdims=keepdims), rtol=1e-12)
    for fn, npfn in [(ivy.std, np.std), (ivy.var, np.var)]:
        check(fn(x, axis=axis, keepdims=keepdims), npfn(M, axis=axis, keepdims=keepdims), rtol=1e-12)
        check(fn(x, axis=axis, correction=1, keepdims=keepdims), npfn(M, axis=axis, ddof=1, keepdims=keepdims),
              rtol=1e-12)
    b = M > 0
    check(ivy.all(ivy.asarray(b), axis=axis, keepdims=keepdims), np.all(b, axis=axis, keepdims=keepdims))
    check(ivy.any(ivy.asarray(b), axis=axis, keepdims=keepdims), np.any(b, axis=axis, keepdims=keepdims))


def _pairwise_sum(a):
    """ivy's whole-array float sum (src/row_kernels.hpp, sum_fp) written again in NumPy, in
    the array's dtype: blocks of 1024 elements, each summed by 256 bytes of lanes starting
    at -0 and combined pairwise; block sums combined pairwise."""
    t = a.dtype.type
    lanes = 256 // a.itemsize

    def block(b):
        acc = np.full(lanes, -0.0, a.dtype)
        full = len(b) // lanes * lanes
        for i in range(0, full, lanes):
            acc = acc + b[i:i + lanes]
        acc[:len(b) - full] = acc[:len(b) - full] + b[full:]
        w = lanes // 2
        while w:
            acc[:w] = acc[:w] + acc[w:2 * w]
            w //= 2
        return acc[0]

    def rec(b):
        if len(b) <= 1024:
            return block(b)
        h = (len(b) // 1024 + 1) // 2 * 1024
        return t(rec(b[:h]) + rec(b[h:]))

    return rec(a.ravel())


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_whole_float_sums(backend, dtype):
    """sum and mean of whole float32/float64 arrays: both backends sum pairwise over blocks
    (the torch backend on its direct path, plain contiguous tensors), so the result is the
    same bits on both; checked bit for bit against the scheme written in NumPy, and within
    a few units of the dtype's epsilon (times the sum of magnitudes) of the exact sum
    (math.fsum), at lengths around the lane and block boundaries and 2-d shapes. Signed
    zeros (all -0 sums to -0), infinities and NaN as IEEE addition gives them."""
    t = np.dtype(dtype).type
    rng = np.random.default_rng(np.dtype(dtype).itemsize)
    eps = float(np.finfo(t).eps)
    for shape in [(1,), (2,), (31,), (63,), (64,), (65,), (100,), (1023,), (1024,), (1025,), (2047,), (2048,),
                  (3073,), (10000,), (100003,), (300, 7), (4, 1024)]:
        a = (rng.normal(size=shape) * 10.0 ** rng.integers(-3, 4, size=shape)).astype(t)
        want = _pairwise_sum(a)
        got = to_np(ivy.sum(ivy.asarray(a)))
        assert got.dtype == np.dtype(t) and got.tobytes() == np.array(want, t).tobytes(), (shape, got, want)
        exact = math.fsum(a.ravel().astype(np.float64).tolist())
        bound = 4 * eps * (16 + math.log2(max(1, a.size / 1024)) + 1) * float(np.abs(a.astype(np.float64)).sum())
        assert abs(float(got) - exact) <= bound, (shape, float(got), exact, bound)
        mean = to_np(ivy.mean(ivy.asarray(a)))
        assert mean.tobytes() == np.array(t(want) / t(a.size), t).tobytes(), (shape, mean)
        check(ivy.sum(ivy.asarray(a), keepdims=True), np.array(want, t).reshape((1,) * a.ndim))
    for vals, want in [([-0.0] * 70, -0.0), ([-0.0] * 3, -0.0), ([-0.0, 0.0], 0.0), ([1.0, np.inf, 2.0], np.inf),
                       ([np.inf] + [1.0] * 80 + [-np.inf], np.nan), ([1.0, np.nan] * 600, np.nan),
                       ([np.finfo(t).max] * 3, np.inf)]:
        got = to_np(ivy.sum(ivy.asarray(np.array(vals, t))))
        np.testing.assert_array_equal(got, np.array(want, t))
        if want == 0:
            assert np.signbit(got) == np.signbit(want)


def test_reduction_dtypes(backend):
    i8 = ivy.asarray([100, 100, 100], dtype=ivy.int8)
    assert ivy.sum(i8).dtype == ivy.int64  # the standard's default accumulation for integers
    check(ivy.sum(i8), np.array(300, dtype=np.int64))
    check(ivy.sum(i8, dtype=ivy.float64), np.array(300.0))
    f = ivy.asarray([1.0, 2.0], dtype=ivy.float32)
    assert ivy.sum(f).dtype == ivy.float32 and ivy.mean(f).dtype == ivy.float32
    u8 = ivy.asarray([2, 3], dtype=ivy.uint8)
    check(ivy.prod(u8, dtype=ivy.int64), np.array(6, dtype=np.int64))
    check(ivy.prod(u8), np.array(6, dtype=np.uint64))
    check(ivy.sum(u8), np.array(5, dtype=np.uint64))


@pytest.mark.parametrize("axis", [0, 1, -1])
@pytest.mark.parametrize("include_initial", [False, True])
def test_cumulative(backend, axis, include_initial):
    got = ivy.cumulative_sum(ivy.asarray(M), axis=axis, include_initial=include_initial)
    want = np.cumsum(M, axis=axis)
    if include_initial:
        shape = list(M.shape)
        shape[axis] = 1
        want = np.concatenate([np.zeros(shape), want], axis=axis)
    check(got, want, rtol=1e-12, atol=1e-12)
    got = ivy.cumulative_prod(ivy.asarray(M), axis=axis, include_initial=include_initial)
    want = np.cumprod(M, axis=axis)
    if include_initial:
        want = np.concatenate([np.ones(shape), want], axis=axis)
    check(got, want, rtol=1e-12, atol=1e-12)
    v = np.arange(1, 6, dtype=np.int32)
    check(ivy.cumulative_sum(ivy.asarray(v)), np.cumsum(v).astype(np.int64))


@pytest.mark.parametrize("n", [1, 2])
@pytest.mark.parametrize("axis", [0, -1])
def test_diff(backend, n, axis):
    check(ivy.diff(ivy.asarray(M), axis=axis, n=n), np.diff(M, n=n, axis=axis), rtol=1e-12, atol=1e-12)
    v = np.array([1.0, 4.0, 9.0])
    check(ivy.diff(ivy.asarray(v), prepend=ivy.asarray([0.0]), append=ivy.asarray([20.0])),
          np.diff(v, prepend=0.0, append=20.0))


@pytest.mark.parametrize("dtype", ["int8", "int32", "int64", "uint8", "float32", "float64"])
@pytest.mark.parametrize("descending", [False, True])
def test_sort_argsort_short_rows(backend, dtype, descending):
    """Rows of 1 to 40 elements (the torch backend sorts rows of up to 32 by insertion on the
    radix keys, longer ones by LibTorch), 4 rows each, with ties and for floats NaN of both
    signs, both zeros and infinities: the standard's stable order, values bit for bit."""
    skip_unless_supported(backend, getattr(ivy, dtype))
    a = _long_rows(dtype)
    rng = np.random.default_rng(11)
    for n in range(1, 41):
        x = np.stack([a[r % 3, rng.choice(1000, size=n, replace=False)] for r in range(4)])
        if n >= 8:
            x[:, 1::4] = x[:, :1]  # ties within each row
        want_idx = np.array([_stable_order(r.tolist(), descending) for r in x], dtype=np.int64)
        got_idx = to_np(ivy.argsort(ivy.asarray(x), axis=-1, descending=descending, stable=True))
        np.testing.assert_array_equal(got_idx, want_idx, err_msg=f"argsort, rows of {n}")
        want = np.take_along_axis(x, want_idx, axis=-1)
        got = to_np(ivy.sort(ivy.asarray(x), axis=-1, descending=descending))
        np.testing.assert_array_equal(got.view(np.uint8), want.view(np.uint8), err_msg=f"sort, rows of {n}")
        # one row, 1-d
        got1 = to_np(ivy.argsort(ivy.asarray(x[2]), descending=descending))
        np.testing.assert_array_equal(got1, want_idx[2])

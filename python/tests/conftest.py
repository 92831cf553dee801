"""Shared fixtures: every test that takes `backend` runs once per backend ivy was built
with, inside `with ivy.BackendScope(name)`, so new arrays live on that backend."""

import importlib.util
import os

import numpy as np
import pytest

import ivy

BACKENDS = ivy.available_backends()


def pytest_configure(config):
    """No backend means nothing would run. Under IVY_REQUIRE_ALL=1 (scripts/test.sh sets it
    when CI=true) a missing backend or reference package fails the run instead of skipping
    the tests that need it."""
    if not BACKENDS:
        raise pytest.UsageError("ivy was built without any backend: no test would run")
    if os.environ.get("IVY_REQUIRE_ALL") != "1":
        return
    missing = [f"the {b} backend" for b in ("xtensor", "torch") if b not in BACKENDS]
    if importlib.util.find_spec("torch") is None:
        missing.append("the PyTorch reference (Debian package python3-torch)")
    if missing:
        raise pytest.UsageError("IVY_REQUIRE_ALL=1, but this machine lacks " + ", ".join(missing) +
                                " (scripts/install-deps.sh installs what scripts/packages.txt lists)")


@pytest.fixture(params=BACKENDS)
def backend(request):
    with ivy.BackendScope(request.param):
        yield request.param


def supports(backend, dtype):
    return not ivy._ivy.is_unsupported(backend, "asarray", dtype)


def skip_unless_supported(backend, *dtypes):
    for d in dtypes:
        if not supports(backend, d):
            pytest.skip(f"{d} is not supported on backend {backend}")


NP_DTYPES = {
    "bool": np.bool_, "int8": np.int8, "int16": np.int16, "int32": np.int32, "int64": np.int64,
    "uint8": np.uint8, "uint16": np.uint16, "uint32": np.uint32, "uint64": np.uint64,
    "float16": np.float16, "float32": np.float32, "float64": np.float64,
    "complex64": np.complex64, "complex128": np.complex128,
}


def np_dtype(d):
    return np.dtype(NP_DTYPES[str(d)])


def to_np(x):
    assert isinstance(x, ivy.Array), f"expected an ivy array, got {type(x).__name__}"
    return np.asarray(x)


def check(actual, expected, *, rtol=1e-7, atol=0.0, dtype=True, equal_nan=True):
    """actual: ivy array; expected: NumPy array/scalar. Compares shape, dtype and values."""
    expected = np.asarray(expected)
    a = to_np(actual)
    assert a.shape == expected.shape, f"shape {a.shape} != expected {expected.shape}"
    if dtype:
        assert a.dtype == expected.dtype, f"dtype {a.dtype} != expected {expected.dtype}"
    if a.dtype.kind in "fc" or expected.dtype.kind in "fc":
        np.testing.assert_allclose(a, expected, rtol=rtol, atol=atol, equal_nan=equal_nan)
    else:
        np.testing.assert_array_equal(a, expected)

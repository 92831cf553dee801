"""ivy.distributed: a world of one here, then the collectives under mpirun -np 2 and 3
(distributed_worker.py), which must be on the machine under IVY_REQUIRE_ALL=1."""
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest

import ivy

dist = pytest.importorskip("ivy.distributed") if os.environ.get("IVY_REQUIRE_ALL") != "1" else __import__(
    "ivy.distributed", fromlist=["init"])


def test_a_world_of_one_returns_the_values(backend):
    dist.init()
    if dist.uses_mpi():
        pytest.skip("running under mpirun: the worker checks that")
    assert (dist.rank(), dist.world_size()) == (0, 1)
    x = ivy.asarray(np.arange(6, dtype=np.float32).reshape(2, 3))
    for op in ("sum", "mean", "max", "min", "prod"):
        np.testing.assert_array_equal(np.asarray(dist.all_reduce(x, op)), np.arange(6).reshape(2, 3))
    assert np.asarray(dist.all_gather(x)).shape == (1, 2, 3)
    np.testing.assert_array_equal(np.asarray(dist.reduce_scatter(x)), np.asarray(x))
    c = dist.all_reduce(ivy.Container({"w": x}), "mean")
    np.testing.assert_array_equal(np.asarray(c["w"]), np.asarray(x))
    with pytest.raises(TypeError, match=r"\[distributed.all_reduce\] mean of a int32 array"):
        dist.all_reduce(ivy.asarray(np.arange(3, dtype=np.int32)), "mean")
    with pytest.raises(ValueError, match="unknown reduction 'avg'"):
        dist.all_reduce(x, "avg")
    assert list(dist.DistributedSampler(5, shuffle=False)) == [0, 1, 2, 3, 4]


@pytest.mark.parametrize("np_", [2, 3])
def test_collectives_under_mpirun(np_):
    mpirun = shutil.which("mpirun")
    if mpirun is None:
        if os.environ.get("IVY_REQUIRE_ALL") == "1":
            pytest.fail("mpirun (Debian package openmpi-bin) is missing")
        pytest.skip("no mpirun (openmpi-bin)")
    env = dict(os.environ, OMP_NUM_THREADS="1")
    worker = os.path.join(os.path.dirname(__file__), "distributed_worker.py")
    r = subprocess.run([mpirun, "--allow-run-as-root", "--oversubscribe", "--bind-to", "none", "-np", str(np_),
                        sys.executable, worker], env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    assert f"{np_} ranks, every check passed" in r.stdout

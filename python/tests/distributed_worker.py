"""Run by test_distributed.py under mpirun -np N: ivy.distributed's collectives with values
every rank can compute for every other (NumPy folds over the ranks), on every backend.
Exits 0 when every check passes; prints the first failure otherwise."""
import sys

import numpy as np

import ivy
import ivy.distributed as dist


def values(r, shape, dtype):
    n = int(np.prod(shape))
    v = (np.arange(n) * 7 + r * 3) % 11 - 5
    return v.reshape(shape).astype(dtype)


def main():
    dist.init()
    P, R = dist.world_size(), dist.rank()
    assert dist.uses_mpi() and P > 1, dist.describe()
    for b in ivy.available_backends():
        with ivy.BackendScope(b):
            for dtype in (np.float32, np.float64, np.int32, np.int64, np.complex128):
                x = ivy.asarray(values(R, (3, 4), dtype))
                every = [values(r, (3, 4), dtype) for r in range(P)]
                got = np.asarray(dist.all_reduce(x, "sum"))
                np.testing.assert_array_equal(got, sum(every[1:], every[0]), err_msg=f"{b} {dtype} sum")
                if dtype != np.complex128:
                    np.testing.assert_array_equal(np.asarray(dist.all_reduce(x, "max")), np.max(every, axis=0))
                np.testing.assert_array_equal(np.asarray(dist.all_gather(x)), np.stack(every))
                np.testing.assert_array_equal(np.asarray(dist.broadcast(x, root=P - 1)), every[P - 1])
            c = ivy.Container({"a": ivy.asarray(values(R, (5,), np.float32)), "b": {"c": ivy.asarray(np.float64(R))}})
            m = dist.all_reduce(c, "mean", bucket_bytes=8)
            np.testing.assert_allclose(np.asarray(m["a"]), np.mean([values(r, (5,), np.float32) for r in range(P)], 0),
                                       rtol=1e-6)
            assert float(np.asarray(m["b/c"])) == (P - 1) / 2
            # the gradient of an all_reduce reaches every rank: d/dx sum(all_reduce(x) * (rank + 1))
            g = ivy.grad(lambda v: ivy.sum(dist.all_reduce(v, "sum") * (R + 1.0)))(ivy.ones(3))
            np.testing.assert_array_equal(np.asarray(g), np.full(3, P * (P + 1) / 2, np.float32))
    try:
        dist.all_reduce(ivy.ones(R + 1))
        raise AssertionError("shapes that differ were reduced")
    except ValueError as e:
        assert "the ranks' calls do not match" in str(e), e
    sampler = dist.DistributedSampler(10, shuffle=False)
    assert list(sampler) == [(R + k * P) % 10 for k in range(-(-10 // P))], list(sampler)  # PyTorch's padding
    dist.barrier()
    dist.finalize()
    if R == 0:
        print(f"distributed_worker: {P} ranks, every check passed")


if __name__ == "__main__":
    try:
        main()
    except Exception as e:  # noqa: BLE001 - the rank's failure, reported to the others
        dist.report_failure(str(e))
        print(f"rank {dist.rank()}: {type(e).__name__}: {e}", file=sys.stderr)
        sys.exit(1)

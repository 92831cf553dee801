"""ivy.distributed: collectives over Open MPI on ivy arrays and Containers (no mpi4py).

    mpirun -np 2 python3 train.py

    import ivy, ivy.distributed as dist
    dist.init()                                   # a world of one without mpirun
    g = dist.all_reduce(grads, "mean")            # an array or a Container (bucketed)
    w = dist.broadcast(w, root=0)
    rows = dist.all_gather(x)                     # [world_size, *x.shape]
    for i in dist.DistributedSampler(len(data), seed=0): ...

Every rank must make the same calls in the same order; mismatched shapes or dtypes fail on
every rank with both calls named. "sum" and "mean" all-reduces are differentiable. A rank
that fails should call report_failure(str(e)): the others then stop with an error naming it.
Needs ivy built with ivy::distributed (Debian's libopenmpi-dev).
"""
try:
    from ._ivy.distributed import (DistributedSampler, all_gather, all_reduce, barrier, broadcast, broken_reason,
                                   describe, finalize, init, initialized, rank, reduce_scatter, report_failure,
                                   uses_mpi, world_size)
except ImportError as e:  # the module was built without ivy::distributed
    raise ImportError("ivy.distributed needs ivy built with ivy::distributed (Debian's libopenmpi-dev)") from e

__all__ = ["init", "finalize", "initialized", "uses_mpi", "rank", "world_size", "describe", "barrier",
           "report_failure", "broken_reason", "all_reduce", "broadcast", "all_gather", "reduce_scatter",
           "DistributedSampler"]

"""PyTorch's DistributedDataParallel (gloo) on the fashion-mnist CNN: the median training step
time with 1 and 2 processes, one thread each, per-rank batch 32 (bench/distributed.sh puts it
beside ivy's DataParallel). Prints one JSON line per world size."""
import json
import os
import statistics
import sys
import time

import torch
import torch.distributed as td
import torch.multiprocessing as mp
import torch.nn as tnn


def cnn():
    return tnn.Sequential(
        tnn.Conv2d(1, 16, 3, padding=1, bias=False), tnn.BatchNorm2d(16), tnn.ReLU(), tnn.MaxPool2d(2),
        tnn.Conv2d(16, 32, 3, padding=1, bias=False), tnn.BatchNorm2d(32), tnn.ReLU(), tnn.MaxPool2d(2),
        tnn.Flatten(), tnn.Linear(32 * 7 * 7, 10))


def worker(rank, world, steps, port, out):
    torch.set_num_threads(1)
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port))
    td.init_process_group("gloo", rank=rank, world_size=world)
    torch.manual_seed(0)
    model = tnn.parallel.DistributedDataParallel(cnn())
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    x = torch.randn(32, 1, 28, 28)
    y = torch.arange(32) % 10
    loss_fn = tnn.CrossEntropyLoss()
    times = []
    for i in range(steps + 5):
        t0 = time.perf_counter()
        opt.zero_grad()
        loss_fn(model(x), y).backward()
        opt.step()
        if i >= 5:
            times.append(time.perf_counter() - t0)
    if rank == 0:
        out.put(statistics.median(times))
    td.destroy_process_group()


def main():
    steps = int(sys.argv[1]) if len(sys.argv) > 1 else 40
    for world in (1, 2):
        ctx = mp.get_context("spawn")
        q = ctx.Queue()
        mp.spawn(worker, args=(world, steps, 29500 + world, q), nprocs=world, join=True)
        print(json.dumps({"framework": "pytorch-ddp-gloo", "torch": torch.__version__, "ranks": world,
                          "step_ms": 1e3 * q.get()}), flush=True)


if __name__ == "__main__":
    main()

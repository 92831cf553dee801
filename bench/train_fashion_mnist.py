#!/usr/bin/env python3
"""The PyTorch side of bench/train_fashion_mnist.sh: the CNN of examples/fashion_mnist.cpp,
trained the same way in PyTorch (Debian's python3-torch, run with /usr/bin/python3).

Same data (the IDX files of dataset-fashion-mnist), normalization, model, initial weights
(the --init file ivy wrote with --save-init: safetensors read with json + numpy), batch size,
Adam settings and learning-rate schedule, loss, and data order (the SplitMix64 Fisher-Yates shuffle of the example).
Prints one line per epoch ("epoch N: S s, I images/s") and "test accuracy: 0.XXXX".
"""
import argparse
import gzip
import json
import struct
import time

import numpy as np
import torch
import torch.nn as tnn

MASK = (1 << 64) - 1


class SplitMix64:
    def __init__(self, seed):
        self.state = seed & MASK

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)


def shuffle(v, rng):
    for i in range(len(v), 1, -1):
        j = rng.next() % i
        v[i - 1], v[j] = v[j], v[i - 1]


def read_split(folder, prefix):
    with gzip.open("%s/%s-images-idx3-ubyte.gz" % (folder, prefix)) as f:
        magic, n, rows, cols = struct.unpack(">IIII", f.read(16))
        assert magic == 0x803
        images = np.frombuffer(f.read(), dtype=np.uint8).reshape(n, 1, rows, cols)
    with gzip.open("%s/%s-labels-idx1-ubyte.gz" % (folder, prefix)) as f:
        magic, m = struct.unpack(">II", f.read(8))
        assert magic == 0x801 and m == n
        labels = np.frombuffer(f.read(), dtype=np.uint8).astype(np.int64)
    x = (images.astype(np.float32) / np.float32(255.0) - np.float32(0.2860)) * np.float32(1.0 / 0.3530)
    return torch.from_numpy(x), torch.from_numpy(labels)


def read_safetensors(path):
    with open(path, "rb") as f:
        blob = f.read()
    (n,) = struct.unpack("<Q", blob[:8])
    header = json.loads(blob[8:8 + n])
    data = blob[8 + n:]
    kinds = {"F32": np.float32, "F64": np.float64, "I64": np.int64}
    out = {}
    for name, e in header.items():
        if name == "__metadata__":
            continue
        b, end = e["data_offsets"]
        out[name] = np.frombuffer(data[b:end], dtype=kinds[e["dtype"]]).reshape(e["shape"]).copy()
    return out


def model():
    return tnn.Sequential(
        tnn.Conv2d(1, 16, 3, padding=1, bias=False), tnn.BatchNorm2d(16), tnn.ReLU(), tnn.MaxPool2d(2),
        tnn.Conv2d(16, 32, 3, padding=1, bias=False), tnn.BatchNorm2d(32), tnn.ReLU(), tnn.MaxPool2d(2),
        tnn.Flatten(), tnn.Linear(32 * 7 * 7, 10))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data-dir", default="/usr/share/datasets/fashion-mnist")
    ap.add_argument("--epochs", type=int, default=1)
    ap.add_argument("--batch-size", type=int, default=64)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--init", help="initial parameters written by fashion_mnist --save-init")
    ap.add_argument("--schedule", default="cosine", choices=["cosine", "constant"])
    ap.add_argument("--threads", type=int, default=0, help="torch.set_num_threads (0: torch's default)")
    args = ap.parse_args()
    if args.threads:
        torch.set_num_threads(args.threads)

    xtr, ytr = read_split(args.data_dir, "train")
    xte, yte = read_split(args.data_dir, "t10k")
    n = min(args.limit, len(ytr)) if args.limit else len(ytr)
    net = model()
    if args.init:
        params = read_safetensors(args.init)
        state = net.state_dict()
        for name, v in params.items():
            key = name.replace("/", ".")
            assert state[key].shape == v.shape, (key, state[key].shape, v.shape)
            state[key] = torch.from_numpy(v)
        net.load_state_dict(state)
    opt = torch.optim.Adam(net.parameters(), lr=args.lr)
    steps = (n + args.batch_size - 1) // args.batch_size
    sched = (torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=steps * args.epochs)
             if args.schedule == "cosine" else None)
    loss_fn = tnn.CrossEntropyLoss()
    rng = SplitMix64(args.seed)
    print("pytorch %s: %d training images, %d threads" % (torch.__version__, n, torch.get_num_threads()), flush=True)
    for epoch in range(1, args.epochs + 1):
        order = list(range(n))
        shuffle(order, rng)
        idx = torch.tensor(order)
        net.train()
        t0 = time.perf_counter()
        for b0 in range(0, n, args.batch_size):
            sel = idx[b0:b0 + args.batch_size]
            opt.zero_grad(set_to_none=True)
            loss = loss_fn(net(xtr[sel]), ytr[sel])
            loss.backward()
            opt.step()
            if sched:
                sched.step()
        secs = time.perf_counter() - t0
        print("epoch %d: %.1f s, %.0f images/s, last loss %.4f" % (epoch, secs, n / secs, loss.item()), flush=True)
    net.eval()
    with torch.no_grad():
        correct = sum(int((net(xte[b:b + 1000]).argmax(-1) == yte[b:b + 1000]).sum()) for b in range(0, len(yte), 1000))
    print("test accuracy: %.4f" % (correct / len(yte)))


if __name__ == "__main__":
    main()

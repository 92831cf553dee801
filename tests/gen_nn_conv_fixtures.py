#!/usr/bin/env python3
"""Reference values for ivy::nn's linear, convolution and pooling functions
(tests/test_nn_conv.cpp), from PyTorch 1.13 (Debian's python3-torch; run with /usr/bin/python3):

    /usr/bin/python3 tests/gen_nn_conv_fixtures.py     # writes tests/fixtures/nn_conv.json

Each case names an ivy::nn function and its options, stores the float64 inputs, the forward
output of the equivalent torch.nn.functional call, a random cotangent c and the gradients
of sum(out * c) for every input (torch.autograd.grad). Channels-last cases permute torch's
channels-first input and output. Deterministic: fixed seed, fixed order.
"""
import json
import os
import sys

import numpy as np
import torch
import torch.nn.functional as F

RNG = np.random.default_rng(20261126)
CASES = []


def enc(a):
    a = np.asarray(a)
    return {"shape": list(a.shape), "data": [float(v) for v in a.reshape(-1)]}


def add(name, fn, opts, inputs, torch_fn, last=False):
    ts = [torch.tensor(a, dtype=torch.float64, requires_grad=True) for a in inputs]
    first = [t.movedim(-1, 1) if (last and i == 0) else t for i, t in enumerate(ts)]
    y = torch_fn(*first)
    if last:
        y = y.movedim(1, -1)
    c = RNG.uniform(-1, 1, size=tuple(y.shape))
    grads = torch.autograd.grad((y * torch.tensor(c)).sum(), ts, allow_unused=True)
    CASES.append({"name": name, "fn": fn, "opts": opts, "inputs": [enc(a) for a in inputs],
                  "out": enc(y.detach().numpy()), "cot": enc(c),
                  "grads": [enc(np.zeros(a.shape) if g is None else g.numpy()) for a, g in zip(inputs, grads)]})


def u(*shape):
    return RNG.uniform(-1, 1, size=shape)


def main():
    # linear
    add("linear", "linear", {}, [u(4, 5), u(3, 5), u(3)], lambda x, w, b: F.linear(x, w, b))
    add("linear batched no bias", "linear", {}, [u(2, 3, 5), u(4, 5)], lambda x, w: F.linear(x, w))
    # conv: (name, x, w, b?, strides, padding, dilations, groups, channels_last, torch call)
    add("conv2d pad1", "conv", {"strides": [1], "padding": [1], "dilations": [1], "groups": 1},
        [u(2, 3, 6, 5), u(4, 3, 3, 3), u(4)], lambda x, w, b: F.conv2d(x, w, b, 1, 1))
    add("conv2d SAME stride1 k4", "conv", {"strides": [1], "padding": "SAME", "dilations": [1], "groups": 1},
        [u(1, 2, 5, 6), u(3, 2, 4, 4), u(3)],
        lambda x, w, b: F.conv2d(F.pad(x, [1, 2, 1, 2]), w, b))
    add("conv2d SAME stride2", "conv", {"strides": [2], "padding": "SAME", "dilations": [1], "groups": 1},
        [u(1, 2, 7, 6), u(3, 2, 3, 3), u(3)],
        lambda x, w, b: F.conv2d(F.pad(x, [0, 1, 1, 1]), w, b, 2))
    add("conv2d NHWC groups2 stride(2,1)", "conv",
        {"strides": [2, 1], "padding": [1, 0], "dilations": [1], "groups": 2, "channels_last": True},
        [u(2, 6, 5, 4), u(6, 2, 3, 2), u(6)], lambda x, w, b: F.conv2d(x, w, b, (2, 1), (1, 0), 1, 2), last=True)
    add("conv1d dil2", "conv", {"strides": [1], "padding": [2], "dilations": [2], "groups": 1},
        [u(3, 2, 8), u(4, 2, 3)], lambda x, w: F.conv1d(x, w, None, 1, 2, 2))
    add("conv3d stride2", "conv", {"strides": [2], "padding": [1], "dilations": [1], "groups": 1},
        [u(1, 2, 5, 4, 5), u(3, 2, 3, 3, 3), u(3)], lambda x, w, b: F.conv3d(x, w, b, 2, 1))
    add("conv2d batch1 odd", "conv", {"strides": [3], "padding": [0], "dilations": [1], "groups": 1},
        [u(1, 1, 7, 9), u(2, 1, 2, 2)], lambda x, w: F.conv2d(x, w, None, 3))
    # conv_transpose
    add("conv_transpose2d s2 p1 op1", "conv_transpose",
        {"strides": [2], "padding": [1], "output_padding": [1], "dilations": [1], "groups": 1},
        [u(2, 3, 4, 3), u(3, 2, 3, 3), u(2)], lambda x, w, b: F.conv_transpose2d(x, w, b, 2, 1, 1))
    add("conv_transpose1d groups2 dil2", "conv_transpose",
        {"strides": [3], "padding": [0], "output_padding": [2], "dilations": [2], "groups": 2},
        [u(1, 4, 5), u(4, 3, 2)], lambda x, w: F.conv_transpose1d(x, w, None, 3, 0, 2, 2, 2))
    add("conv_transpose3d NDHWC", "conv_transpose",
        {"strides": [1, 2, 1], "padding": [0, 1, 0], "output_padding": [0], "dilations": [1], "groups": 1,
         "channels_last": True},
        [u(1, 3, 3, 2, 2), u(2, 3, 2, 3, 2), u(3)], lambda x, w, b: F.conv_transpose3d(x, w, b, (1, 2, 1), (0, 1, 0)),
        last=True)
    # pooling
    add("max_pool2d k2", "max_pool", {"window": [2]}, [u(2, 3, 6, 6)], lambda x: F.max_pool2d(x, 2))
    add("max_pool2d k3 s2 p1 ceil", "max_pool", {"window": [3], "strides": [2], "padding": [1], "ceil_mode": True},
        [u(1, 2, 8, 7)], lambda x: F.max_pool2d(x, 3, 2, 1, ceil_mode=True))
    add("max_pool1d k3 s2 dil2", "max_pool", {"window": [3], "strides": [2], "dilations": [2]},
        [u(2, 2, 11)], lambda x: F.max_pool1d(x, 3, 2, 0, 2))
    add("max_pool3d NDHWC", "max_pool", {"window": [2], "channels_last": True},
        [u(1, 4, 4, 6, 3)], lambda x: F.max_pool3d(x, 2), last=True)
    add("max_pool2d SAME s2", "max_pool", {"window": [3], "strides": [2], "padding": "SAME"},
        [u(1, 2, 6, 5)], lambda x: F.max_pool2d(F.pad(x, [1, 1, 0, 1], value=-float("inf")), 3, 2))
    add("avg_pool2d k2", "avg_pool", {"window": [2]}, [u(2, 3, 6, 4)], lambda x: F.avg_pool2d(x, 2))
    add("avg_pool2d k3 s2 p1 exclude pad", "avg_pool",
        {"window": [3], "strides": [2], "padding": [1], "count_include_pad": False},
        [u(1, 2, 7, 6)], lambda x: F.avg_pool2d(x, 3, 2, 1, count_include_pad=False))
    add("avg_pool2d k3 s2 p1 ceil include pad", "avg_pool",
        {"window": [3], "strides": [2], "padding": [1], "ceil_mode": True},
        [u(1, 2, 8, 6)], lambda x: F.avg_pool2d(x, 3, 2, 1, ceil_mode=True))
    add("avg_pool2d k2 s2 ceil exclude pad", "avg_pool",
        {"window": [2], "strides": [2], "ceil_mode": True, "count_include_pad": False},
        [u(1, 1, 5, 5)], lambda x: F.avg_pool2d(x, 2, 2, 0, ceil_mode=True, count_include_pad=False))
    add("avg_pool1d", "avg_pool", {"window": [3], "strides": [1], "padding": [1]},
        [u(2, 2, 6)], lambda x: F.avg_pool1d(x, 3, 1, 1))
    add("avg_pool3d NDHWC", "avg_pool", {"window": [2], "channels_last": True},
        [u(1, 4, 2, 4, 3)], lambda x: F.avg_pool3d(x, 2), last=True)
    add("adaptive_avg_pool2d 7x5->3x2", "adaptive_avg_pool", {"output_size": [3, 2]},
        [u(2, 3, 7, 5)], lambda x: F.adaptive_avg_pool2d(x, (3, 2)))
    add("adaptive_avg_pool1d 5->5", "adaptive_avg_pool", {"output_size": [5]},
        [u(1, 2, 5)], lambda x: F.adaptive_avg_pool1d(x, 5))
    add("adaptive_avg_pool3d ->1", "adaptive_avg_pool", {"output_size": [1]},
        [u(1, 2, 3, 4, 2)], lambda x: F.adaptive_avg_pool3d(x, 1))

    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "nn_conv.json")
    if len(sys.argv) > 2 and sys.argv[1] == "-o":
        out = sys.argv[2]
    with open(out, "w") as f:
        json.dump({"generator": "tests/gen_nn_conv_fixtures.py (torch %s)" % torch.__version__, "cases": CASES}, f,
                  separators=(",", ":"))
        f.write("\n")
    print("wrote %s: %d cases" % (out, len(CASES)))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Generate PyTorch reference values for ivy::nn's layers (tests/test_module.cpp).

Each case builds one torch.nn layer (Debian's PyTorch 1.13, run with /usr/bin/python3),
replaces every parameter (and buffer) by known random values, runs it on stored inputs in
float64, and records the outputs and the gradients of L = sum_k sum(out_k * cot_k) with
respect to every parameter (torch.autograd). The C++ test builds the equivalent ivy layer
from "layer" and "config", loads "params" (and "buffers") by name with '.' mapped to '/',
runs the same call under ivy::nn::value_and_grad and compares. Run from the repository root:

    /usr/bin/python3 tests/gen_module_fixtures.py      # writes tests/fixtures/modules.json
    /usr/bin/python3 tests/gen_module_fixtures.py -o out.json

Only torch and the standard library are needed; the output is deterministic (fixed seeds,
fixed case order).

Format
------
    {"cases": [{"name": str, "layer": str, "config": {...}, "training": bool,
                "params": [{"name": str, "array": array}],      # torch named_parameters order
                "buffers": [{"name": str, "array": array}],     # before the call (no num_batches_tracked)
                "inputs": [{"name": str, "array": array}],
                "outputs": [array], "cotangents": [array],
                "grads": [{"name": str, "array": array}],       # dL/dparam, params order
                "buffers_after": [{"name": str, "array": array}]}]}

with an array written as {"dtype": "float64", "shape": [2, 3], "data": [...]} (flat,
row-major; bools as true/false; int64 as integers).

The layers and the ivy call each case stands for ("layer"):
  Linear, Conv2d, ConvTranspose2d, BatchNorm2d (train: batch statistics and the running-stat
  update; eval: running statistics), LayerNorm, GroupNorm, Embedding: forward(x).
  LSTM (2 layers, bidirectional, with h0/c0): outputs output, h_n, c_n (forward_with_state).
  GRU (2 layers, with h0): outputs output, h_n.
  MultiheadAttention (batch_first): forward(q, k, v, key_padding_mask, attn_mask) with
  need_weights=False; "mha_self" is forward(x).
  TransformerEncoderLayer (batch_first, eval): forward(src, src_mask, src_key_padding_mask).
  Sequential: a small CNN (Conv2d, ReLU, MaxPool2d, grouped Conv2d, BatchNorm2d in train
  mode, ReLU, Flatten, Linear).
"""
import argparse
import json
import os

import torch
import torch.nn as nn

torch.set_num_threads(1)
torch.set_default_dtype(torch.float64)


def enc(t):
    t = t.detach()
    if t.dtype == torch.bool:
        data = [bool(v) for v in t.flatten().tolist()]
    elif t.dtype in (torch.int64, torch.int32):
        data = [int(v) for v in t.flatten().tolist()]
    else:
        data = [float(v) for v in t.flatten().tolist()]
    return {"dtype": str(t.dtype).replace("torch.", ""), "shape": list(t.shape), "data": data}


def named(pairs):
    return [{"name": n, "array": enc(a)} for n, a in pairs]


CASES = []


def case(name, layer, config, module, inputs, call, training=False, seed=0):
    """Randomizes module's parameters and buffers, runs call(module, *inputs) (a tensor or a
    tuple of tensors) and stores the case."""
    g = torch.Generator().manual_seed(1000 + seed)
    with torch.no_grad():
        for pname, p in module.named_parameters():
            leaf = pname.split(".")[-1]
            if leaf == "weight" and p.dim() == 1:  # normalization scales: around 1
                p.copy_(1.0 + 0.3 * torch.randn(p.shape, generator=g))
            else:
                p.copy_(0.5 * torch.randn(p.shape, generator=g))
        for bname, b in module.named_buffers():
            if bname.endswith("running_mean"):
                b.copy_(0.3 * torch.randn(b.shape, generator=g))
            elif bname.endswith("running_var"):
                b.copy_(0.5 + torch.rand(b.shape, generator=g))
    module.train(training)
    buffers = [(n, b.clone()) for n, b in module.named_buffers() if not n.endswith("num_batches_tracked")]
    params = list(module.named_parameters())
    outs = call(module, *[a for _, a in inputs])
    if isinstance(outs, torch.Tensor):
        outs = (outs,)
    cots = [torch.randn(o.shape, generator=g) for o in outs]
    loss = sum((o * c).sum() for o, c in zip(outs, cots))
    grads = torch.autograd.grad(loss, [p for _, p in params], allow_unused=True)
    grads = [torch.zeros_like(p) if gr is None else gr for (_, p), gr in zip(params, grads)]
    buffers_after = [(n, b) for n, b in module.named_buffers() if not n.endswith("num_batches_tracked")]
    CASES.append({
        "name": name, "layer": layer, "config": config, "training": training,
        "params": named(params), "buffers": named(buffers), "inputs": named(inputs),
        "outputs": [enc(o) for o in outs], "cotangents": [enc(c) for c in cots],
        "grads": [{"name": n, "array": enc(gr)} for (n, _), gr in zip(params, grads)],
        "buffers_after": named(buffers_after),
    })


def rand(shape, seed):
    return torch.randn(shape, generator=torch.Generator().manual_seed(seed))


def fwd(m, x):
    return m(x)


def build():
    # ---- dense and convolution
    case("linear", "Linear", {"in": 5, "out": 3, "bias": True}, nn.Linear(5, 3),
         [("x", rand((2, 4, 5), 1))], fwd, seed=1)
    case("linear_nobias", "Linear", {"in": 4, "out": 2, "bias": False}, nn.Linear(4, 2, bias=False),
         [("x", rand((3, 4), 2))], fwd, seed=2)
    case("conv2d", "Conv2d",
         {"in": 4, "out": 6, "kernel": [3, 2], "stride": [2, 1], "padding": [1, 0], "dilation": [1, 2], "groups": 2},
         nn.Conv2d(4, 6, (3, 2), stride=(2, 1), padding=(1, 0), dilation=(1, 2), groups=2),
         [("x", rand((2, 4, 7, 8), 3))], fwd, seed=3)
    case("conv_transpose2d", "ConvTranspose2d",
         {"in": 4, "out": 6, "kernel": [3, 3], "stride": [2, 2], "padding": [1, 1], "output_padding": [1, 1],
          "groups": 2},
         nn.ConvTranspose2d(4, 6, 3, stride=2, padding=1, output_padding=1, groups=2),
         [("x", rand((2, 4, 3, 4), 4))], fwd, seed=4)
    # ---- normalization
    case("batchnorm2d_train", "BatchNorm2d", {"features": 3, "eps": 1e-5, "momentum": 0.2},
         nn.BatchNorm2d(3, momentum=0.2), [("x", 2.0 * rand((4, 3, 5, 5), 5) + 0.5)], fwd, training=True, seed=5)
    case("batchnorm2d_eval", "BatchNorm2d", {"features": 3, "eps": 1e-3, "momentum": 0.1},
         nn.BatchNorm2d(3, eps=1e-3), [("x", rand((2, 3, 4, 4), 6))], fwd, training=False, seed=6)
    case("layernorm", "LayerNorm", {"shape": [4, 5], "eps": 1e-5}, nn.LayerNorm([4, 5]),
         [("x", 3.0 * rand((2, 3, 4, 5), 7) - 1.0)], fwd, seed=7)
    case("groupnorm", "GroupNorm", {"groups": 3, "channels": 6, "eps": 1e-5}, nn.GroupNorm(3, 6),
         [("x", rand((2, 6, 3, 4), 8))], fwd, seed=8)
    case("embedding", "Embedding", {"num": 10, "dim": 4}, nn.Embedding(10, 4),
         [("x", torch.tensor([[1, 7, 3], [7, 0, 9]], dtype=torch.int64))], fwd, seed=9)
    # ---- recurrent
    case("lstm_2layer_bidirectional", "LSTM",
         {"input_size": 5, "hidden_size": 4, "num_layers": 2, "bias": True, "bidirectional": True},
         nn.LSTM(5, 4, num_layers=2, bidirectional=True, batch_first=True),
         [("x", rand((3, 6, 5), 10)), ("h0", 0.5 * rand((4, 3, 4), 11)), ("c0", 0.5 * rand((4, 3, 4), 12))],
         lambda m, x, h0, c0: (lambda r: (r[0], r[1][0], r[1][1]))(m(x, (h0, c0))), seed=10)
    case("gru_2layer", "GRU",
         {"input_size": 4, "hidden_size": 3, "num_layers": 2, "bias": True, "bidirectional": False},
         nn.GRU(4, 3, num_layers=2, batch_first=True),
         [("x", rand((2, 5, 4), 13)), ("h0", 0.5 * rand((2, 2, 3), 14))],
         lambda m, x, h0: m(x, h0), seed=13)
    # ---- attention
    kpm = torch.tensor([[False, False, True, False, True], [False, True, False, False, False]])
    case("mha", "MultiheadAttention", {"embed_dim": 8, "num_heads": 2, "bias": True},
         nn.MultiheadAttention(8, 2, batch_first=True),
         [("q", rand((2, 3, 8), 15)), ("k", rand((2, 5, 8), 16)), ("v", rand((2, 5, 8), 17)),
          ("key_padding_mask", kpm), ("attn_mask", 0.5 * rand((3, 5), 18))],
         lambda m, q, k, v, kp, am: m(q, k, v, key_padding_mask=kp, attn_mask=am, need_weights=False)[0], seed=15)
    case("mha_self", "MultiheadAttention", {"embed_dim": 6, "num_heads": 3, "bias": True},
         nn.MultiheadAttention(6, 3, batch_first=True),
         [("x", rand((2, 4, 6), 19))], lambda m, x: m(x, x, x, need_weights=False)[0], seed=19)
    # ---- transformer encoder layer, eval mode (dropout inactive)
    kpm2 = torch.tensor([[False, False, False, True, True], [False, False, False, False, False]])
    case("transformer_relu_post_norm", "TransformerEncoderLayer",
         {"d_model": 8, "nhead": 2, "dim_feedforward": 16, "dropout": 0.1, "activation": "relu", "norm_first": False},
         nn.TransformerEncoderLayer(8, 2, dim_feedforward=16, dropout=0.1, activation="relu", batch_first=True),
         [("src", rand((2, 5, 8), 20)), ("src_key_padding_mask", kpm2)],
         lambda m, s, kp: m(s, src_key_padding_mask=kp), seed=20)
    case("transformer_gelu_norm_first", "TransformerEncoderLayer",
         {"d_model": 6, "nhead": 3, "dim_feedforward": 10, "dropout": 0.2, "activation": "gelu", "norm_first": True},
         nn.TransformerEncoderLayer(6, 3, dim_feedforward=10, dropout=0.2, activation="gelu", batch_first=True,
                                    norm_first=True),
         [("src", rand((3, 4, 6), 21)), ("src_mask", 0.5 * rand((4, 4), 22))],
         lambda m, s, am: m(s, src_mask=am), seed=21)
    # ---- a small CNN: Sequential submodule names "0", "3", "4", "7"
    cnn = nn.Sequential(nn.Conv2d(2, 4, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(4, 6, 3, groups=2),
                        nn.BatchNorm2d(6), nn.ReLU(), nn.Flatten(), nn.Linear(24, 3))
    case("sequential_cnn", "SequentialCNN", {}, cnn, [("x", rand((3, 2, 8, 8), 23))], fwd, training=True, seed=23)


def main():
    ap = argparse.ArgumentParser()
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("-o", "--output", default=os.path.join(here, "fixtures", "modules.json"))
    args = ap.parse_args()
    build()
    doc = {"generator": "tests/gen_module_fixtures.py", "torch": torch.__version__, "cases": CASES}
    with open(args.output, "w") as f:
        json.dump(doc, f, separators=(",", ":"))
        f.write("\n")
    print(f"wrote {len(CASES)} cases to {args.output}")


if __name__ == "__main__":
    main()

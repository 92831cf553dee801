#!/usr/bin/env python3
"""Generate PyTorch references for ivy::nn's composed functions (tests/test_nn_functional.cpp).

The references come from torch.nn.functional and torch.autograd (Debian's python3-torch
1.13, run with /usr/bin/python3), an implementation independent of ivy. Run from the
repository root:

    /usr/bin/python3 tests/gen_nn_fixtures.py               # writes tests/fixtures/nn_functional.json
    /usr/bin/python3 tests/gen_nn_fixtures.py -o out.json
    /usr/bin/python3 tests/gen_nn_fixtures.py --erfc-fit    # prints gelu's erfc coefficients

The output is deterministic (fixed seeds, fixed case order).

What a case is
--------------
One ivy::nn function ("fn") with its options ("params"), on named inputs. The expected
values are torch's outputs and, for a random cotangent c of the first output (stored), the
gradients of sum(out * c) with respect to every floating input that torch differentiates
(an input torch refuses to differentiate, e.g. nll_loss's weight, or whose torch gradient
is not finite, e.g. kl_div's target where it is 0 (NaN) or binary_cross_entropy's target at
p = 0 (torch leaves that log unclamped), has no entry). Further outputs are running
statistics (batch_norm, instance_norm): compared forward only.

Layouts torch does not have are expressed through it: an NHWC norm (channel_axis -1) is
torch's NCHW function on x.permute(0, 3, 1, 2), permuted back, so the expected gradient is
with respect to the NHWC input.

File format
-----------
{"generator": "...", "torch": "1.13...",
 "cases": [{"name": str, "fn": str, "params": {...}, "inputs": {name: array},
            "outputs": [array], "cotangent": array, "grads": {name: array},
            "rtol": number (optional)}]}

An array is {"dtype": "float64", "shape": [2, 3], "data": [...]}, data flat row-major;
non-finite floats are the strings "nan", "inf", "-inf". float32 values are written as the
exact decimal of the float32 value.
"""
import argparse
import json
import math
import sys

import torch
import torch.nn.functional as F

torch.set_num_threads(1)


# ------------------------------------------------------------------ encoding
def enc_value(v, is_float):
    if not is_float:
        return int(v)
    v = float(v)
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return v


def enc(t):
    t = t.detach()
    name = {torch.float32: "float32", torch.float64: "float64", torch.int64: "int64",
            torch.int32: "int32", torch.bool: "bool"}[t.dtype]
    is_float = t.dtype.is_floating_point
    data = [enc_value(v, is_float) for v in t.reshape(-1).tolist()]
    return {"dtype": name, "shape": list(t.shape), "data": data}


# ------------------------------------------------------------------ case building
CASES = []
GEN = torch.Generator().manual_seed(20240611)


def randn(*shape, dtype=torch.float64, scale=1.0):
    return (torch.randn(tuple(shape), generator=GEN, dtype=torch.float64) * scale).to(dtype)


def rand(*shape, dtype=torch.float64, lo=0.0, hi=1.0):
    return (lo + (hi - lo) * torch.rand(tuple(shape), generator=GEN, dtype=torch.float64)).to(dtype)


def randint(lo, hi, *shape):
    return torch.randint(lo, hi, shape, generator=GEN, dtype=torch.int64)


def add(name, fn, params, inputs, compute, rtol=None, no_grad=()):
    """compute(dict of tensors) -> output tensor or list of tensors (first: the main one)."""
    def run(req=None):
        t = {}
        for k, v in inputs.items():
            c = v.clone()
            if k == req:
                c.requires_grad_(True)
            t[k] = c
        out = compute(t)
        return (out if isinstance(out, (list, tuple)) else [out]), t

    outs, _ = run()
    main = outs[0]
    cot = randn(*main.shape, dtype=main.dtype) if main.dtype.is_floating_point else None
    grads = {}
    if cot is not None:
        for k, v in inputs.items():
            if not v.dtype.is_floating_point or k in no_grad:
                continue
            try:
                o, t = run(k)
                (g,) = torch.autograd.grad((o[0] * cot).sum(), [t[k]], allow_unused=True)
            except RuntimeError:
                continue  # torch does not differentiate this input
            if g is None:
                g = torch.zeros_like(v)
            if not torch.isfinite(g).all():
                continue  # e.g. kl_div's target gradient at 0, binary_cross_entropy's target at p = 0
            grads[k] = enc(g)
    case = {"name": name, "fn": fn, "params": params, "inputs": {k: enc(v) for k, v in inputs.items()},
            "outputs": [enc(o) for o in outs], "grads": grads}
    if cot is not None:
        case["cotangent"] = enc(cot)
    if rtol is not None:
        case["rtol"] = rtol
    CASES.append(case)


RED = {"none": "none", "mean": "mean", "sum": "sum"}


# ------------------------------------------------------------------ activations
def activation_cases():
    specials = torch.tensor([0.0, 3.0, -3.0, 100.0, -100.0, 25.0, -25.0, 1e-3, -1e-3, 20.0, -20.0, 7.5,
                             -7.5, 0.5, -0.5], dtype=torch.float64)

    def xs(dtype):
        return torch.cat([specials, randn(45, scale=3.0)]).reshape(4, 15).to(dtype)

    acts = [
        ("relu", {}, lambda x: F.relu(x)),
        ("leaky_relu", {}, lambda x: F.leaky_relu(x)),
        ("leaky_relu", {"negative_slope": 0.2}, lambda x: F.leaky_relu(x, 0.2)),
        ("elu", {}, lambda x: F.elu(x)),
        ("elu", {"alpha": 1.5}, lambda x: F.elu(x, 1.5)),
        ("gelu", {}, lambda x: F.gelu(x)),
        ("gelu", {"approximate": True}, lambda x: F.gelu(x, approximate="tanh")),
        ("silu", {}, lambda x: F.silu(x)),
        ("softplus", {}, lambda x: F.softplus(x)),
        ("softplus", {"beta": 2.0, "threshold": 5.0}, lambda x: F.softplus(x, 2.0, 5.0)),
        ("softplus", {"beta": 0.5, "threshold": 3.0}, lambda x: F.softplus(x, 0.5, 3.0)),
        ("sigmoid", {}, lambda x: torch.sigmoid(x)),
        ("hard_sigmoid", {}, lambda x: F.hardsigmoid(x)),
        ("hardswish", {}, lambda x: F.hardswish(x)),
        ("mish", {}, lambda x: F.mish(x)),
    ]
    for i, (fn, params, f) in enumerate(acts):
        for dtype in (torch.float64, torch.float32):
            tag = "f64" if dtype == torch.float64 else "f32"
            # torch's float64 hardsigmoid / hardswish backward kernels use float constants
            # (1.0f / 6.0f, and 1/3 in the vectorized hardswish): ~3e-8 relative off
            rtol = 1e-7 if fn in ("hard_sigmoid", "hardswish") and dtype == torch.float64 else None
            add(f"{fn}/{i}_{tag}", fn, params, {"x": xs(dtype)}, lambda t, f=f: f(t["x"]), rtol=rtol)
    # gelu's tails (torch's 1 + erf loses the left tail's relative accuracy, so the C++ test
    # checks that against mpmath values; here only to max-scaled tolerance)
    tail = torch.tensor([-5.0, -8.0, -12.0, -20.0, -30.0, 5.0, 8.0, -1.0, -2.5, -3.7], dtype=torch.float64)
    add("gelu/tail_f64", "gelu", {}, {"x": tail}, lambda t: F.gelu(t["x"]))
    # left tail only, so the max-scaled tolerance is relative to these tiny values (on the
    # right torch's y (1 - y) gradient is 0 where the exact e^-x / (1 + e^-x)^2 is not)
    add("sigmoid/tail_f64", "sigmoid", {}, {"x": torch.tensor([-700.0, -300.0, -40.0, -45.0, -38.5])},
        lambda t: torch.sigmoid(t["x"]))

    for fn, tf in (("softmax", F.softmax), ("log_softmax", F.log_softmax)):
        x = randn(2, 3, 4, scale=2.0)
        for axis in (-1, 0, 1, -2):
            add(f"{fn}/axis{axis}", fn, {"axis": axis}, {"x": x}, lambda t, a=axis, tf=tf: tf(t["x"], dim=a))
        big = torch.tensor([[1000.0, -1000.0, 0.0, 999.0], [-50.0, 30.0, 30.0, -1e4]])
        add(f"{fn}/large", fn, {"axis": -1}, {"x": big}, lambda t, tf=tf: tf(t["x"], dim=-1))
        add(f"{fn}/large_f32", fn, {"axis": 1}, {"x": big.float()}, lambda t, tf=tf: tf(t["x"], dim=1))
        neg_inf = torch.tensor([[0.5, -math.inf, 2.0], [1.0, 1.0, -math.inf]])
        add(f"{fn}/neg_inf", fn, {"axis": -1}, {"x": neg_inf}, lambda t, tf=tf: tf(t["x"], dim=-1))
        add(f"{fn}/rank0", fn, {"axis": 0}, {"x": torch.tensor(1.5, dtype=torch.float64)},
            lambda t, tf=tf: tf(t["x"], dim=0))
        add(f"{fn}/batch1", fn, {"axis": -1}, {"x": randn(1, 6)}, lambda t, tf=tf: tf(t["x"], dim=-1))


# ------------------------------------------------------------------ losses
def ce_params(weight, ignore_index, smoothing, reduction):
    p = {"reduction": reduction}
    if ignore_index is not None:
        p["ignore_index"] = ignore_index
    if smoothing:
        p["label_smoothing"] = smoothing
    return p


def loss_cases():
    # cross_entropy / nll_loss with class indices
    shapes = [("2d", (6, 5), (6,)), ("spatial", (3, 4, 2, 3), (3, 2, 3)), ("unbatched", (5,), ()),
              ("batch1", (1, 4), (1,))]
    for sname, xs, ts in shapes:
        C = xs[1] if len(xs) >= 2 else xs[0]
        x = randn(*xs, scale=2.0)
        tgt = randint(0, C, *ts)
        if len(ts) >= 1 and tgt.numel() > 2:
            flat = tgt.reshape(-1)
            flat[1] = -100
        w = rand(C, lo=0.2, hi=2.0)
        for red in ("mean", "sum", "none"):
            for use_w in (False, True):
                for eps in (0.0, 0.15):
                    inputs = {"x": x, "target": tgt}
                    if use_w:
                        inputs["weight"] = w
                    name = f"cross_entropy/{sname}_{red}{'_w' if use_w else ''}{'_ls' if eps else ''}"
                    add(name, "cross_entropy", ce_params(use_w, None, eps, red), inputs,
                        lambda t, red=red, eps=eps: F.cross_entropy(t["x"], t["target"], weight=t.get("weight"),
                                                                    reduction=red, label_smoothing=eps))
        lp = F.log_softmax(x, dim=1 if len(xs) >= 2 else 0)
        for red in ("mean", "sum", "none"):
            for use_w in (False, True):
                inputs = {"x": lp, "target": tgt}
                if use_w:
                    inputs["weight"] = w
                add(f"nll_loss/{sname}_{red}{'_w' if use_w else ''}", "nll_loss", {"reduction": red}, inputs,
                    lambda t, red=red: F.nll_loss(t["x"], t["target"], weight=t.get("weight"), reduction=red))
    # ignore_index that is a valid class, with weights and smoothing
    x = randn(7, 4, scale=1.5)
    tgt = torch.tensor([0, 1, 2, 3, 1, 1, 0])
    w = rand(4, lo=0.5, hi=1.5)
    for red in ("mean", "sum", "none"):
        add(f"cross_entropy/ignore1_{red}", "cross_entropy", ce_params(True, 1, 0.2, red),
            {"x": x, "target": tgt, "weight": w},
            lambda t, red=red: F.cross_entropy(t["x"], t["target"], weight=t["weight"], ignore_index=1,
                                               reduction=red, label_smoothing=0.2))
        add(f"nll_loss/ignore1_{red}", "nll_loss", {"reduction": red, "ignore_index": 1},
            {"x": F.log_softmax(x, 1), "target": tgt},
            lambda t, red=red: F.nll_loss(t["x"], t["target"], ignore_index=1, reduction=red))
    # every target ignored (mean: 0 / 0), and an empty batch
    add("cross_entropy/all_ignored", "cross_entropy", {"reduction": "mean"},
        {"x": randn(3, 4), "target": torch.tensor([-100, -100, -100])},
        lambda t: F.cross_entropy(t["x"], t["target"]))
    for red in ("mean", "sum", "none"):
        add(f"cross_entropy/empty_{red}", "cross_entropy", {"reduction": red},
            {"x": randn(0, 4), "target": torch.zeros(0, dtype=torch.int64)},
            lambda t, red=red: F.cross_entropy(t["x"], t["target"], reduction=red))
    # float32
    x = randn(5, 6, dtype=torch.float32, scale=2.0)
    tgt = randint(0, 6, 5)
    add("cross_entropy/f32_ls_w", "cross_entropy", ce_params(True, None, 0.1, "mean"),
        {"x": x, "target": tgt, "weight": rand(6, dtype=torch.float32, lo=0.5, hi=2.0)},
        lambda t: F.cross_entropy(t["x"], t["target"], weight=t["weight"], label_smoothing=0.1))
    # probability targets
    for sname, xs in (("2d", (5, 4)), ("spatial", (2, 3, 4)), ("unbatched", (6,))):
        cax = 1 if len(xs) >= 2 else 0
        x = randn(*xs, scale=2.0)
        p = F.softmax(randn(*xs), dim=cax)
        C = xs[cax]
        w = rand(C, lo=0.3, hi=2.0)
        for red in ("mean", "sum", "none"):
            for use_w in (False, True):
                for eps in (0.0, 0.25):
                    inputs = {"x": x, "target": p}
                    if use_w:
                        inputs["weight"] = w
                    add(f"cross_entropy/probs_{sname}_{red}{'_w' if use_w else ''}{'_ls' if eps else ''}",
                        "cross_entropy", ce_params(use_w, None, eps, red), inputs,
                        lambda t, red=red, eps=eps: F.cross_entropy(t["x"], t["target"], weight=t.get("weight"),
                                                                    reduction=red, label_smoothing=eps))

    # binary cross-entropy
    pr = rand(4, 5, lo=0.02, hi=0.98)
    tg = rand(4, 5)
    w = rand(5, lo=0.5, hi=2.0)
    for red in ("mean", "sum", "none"):
        add(f"binary_cross_entropy/{red}", "binary_cross_entropy", {"reduction": red}, {"x": pr, "target": tg},
            lambda t, red=red: F.binary_cross_entropy(t["x"], t["target"], reduction=red))
        add(f"binary_cross_entropy/{red}_w", "binary_cross_entropy", {"reduction": red},
            {"x": pr, "target": tg, "weight": w},
            lambda t, red=red: F.binary_cross_entropy(t["x"], t["target"], weight=t["weight"], reduction=red))
    add("binary_cross_entropy/f32", "binary_cross_entropy", {"reduction": "mean"},
        {"x": pr.float(), "target": tg.float()}, lambda t: F.binary_cross_entropy(t["x"], t["target"]))
    # p at 0 and 1 exactly: log clamped to -100, torch's gradient (p - t) / max(p (1 - p), 1e-12)
    pe = torch.tensor([0.0, 0.0, 1.0, 1.0, 1e-30, 0.5], dtype=torch.float64)
    te = torch.tensor([0.0, 1.0, 0.0, 1.0, 0.3, 0.5], dtype=torch.float64)
    # (torch's EPSILON there is the float 1e-12f: 4e-9 relative off the double 1e-12)
    add("binary_cross_entropy/extremes", "binary_cross_entropy", {"reduction": "none"}, {"x": pe, "target": te},
        lambda t: F.binary_cross_entropy(t["x"], t["target"], reduction="none"), rtol=1e-8)

    lg = torch.cat([torch.tensor([0.0, 100.0, -100.0, 40.0, -40.0]), randn(15, scale=3.0)]).reshape(4, 5)
    pw = rand(5, lo=0.5, hi=3.0)
    for red in ("mean", "sum", "none"):
        for use_w in (False, True):
            for use_pw in (False, True):
                inputs = {"x": lg, "target": tg}
                if use_w:
                    inputs["weight"] = w
                if use_pw:
                    inputs["pos_weight"] = pw
                add(f"binary_cross_entropy_with_logits/{red}{'_w' if use_w else ''}{'_pw' if use_pw else ''}",
                    "binary_cross_entropy_with_logits", {"reduction": red}, inputs,
                    lambda t, red=red: F.binary_cross_entropy_with_logits(
                        t["x"], t["target"], weight=t.get("weight"), pos_weight=t.get("pos_weight"), reduction=red))
    add("binary_cross_entropy_with_logits/f32_pw", "binary_cross_entropy_with_logits", {"reduction": "mean"},
        {"x": lg.float(), "target": tg.float(), "pos_weight": pw.float()},
        lambda t: F.binary_cross_entropy_with_logits(t["x"], t["target"], pos_weight=t["pos_weight"]))

    # regression losses, with exact ties (d = 0) and |d| at the kink
    a = randn(3, 6)
    b = randn(3, 6)
    b[0, 0] = a[0, 0]                 # d = 0
    b[0, 1] = a[0, 1] - 1.0           # d = 1 (huber delta 1 / smooth_l1 beta 1 kink)
    b[0, 2] = a[0, 2] + 0.5           # d = -0.5
    for red in ("mean", "sum", "none"):
        add(f"mse_loss/{red}", "mse_loss", {"reduction": red}, {"x": a, "target": b},
            lambda t, red=red: F.mse_loss(t["x"], t["target"], reduction=red))
        add(f"l1_loss/{red}", "l1_loss", {"reduction": red}, {"x": a, "target": b},
            lambda t, red=red: F.l1_loss(t["x"], t["target"], reduction=red))
        for delta in (1.0, 0.5, 2.0):
            add(f"huber_loss/{red}_d{delta}", "huber_loss", {"reduction": red, "delta": delta}, {"x": a, "target": b},
                lambda t, red=red, d=delta: F.huber_loss(t["x"], t["target"], reduction=red, delta=d))
        for beta in (1.0, 0.5, 0.0):
            # beta 0 without the tie d = 0, where torch's gradient is -1 for input and target
            # alike (ivy: l1's 0)
            bb = b if beta else b + torch.eye(3, 6, dtype=torch.float64) * 0.25
            add(f"smooth_l1_loss/{red}_b{beta}", "smooth_l1_loss", {"reduction": red, "beta": beta},
                {"x": a, "target": bb},
                lambda t, red=red, be=beta: F.smooth_l1_loss(t["x"], t["target"], reduction=red, beta=be))
    add("mse_loss/f32", "mse_loss", {"reduction": "mean"}, {"x": a.float(), "target": b.float()},
        lambda t: F.mse_loss(t["x"], t["target"]))
    add("huber_loss/f32", "huber_loss", {"reduction": "sum", "delta": 0.7}, {"x": a.float(), "target": b.float()},
        lambda t: F.huber_loss(t["x"], t["target"], reduction="sum", delta=0.7))
    add("mse_loss/empty", "mse_loss", {"reduction": "mean"}, {"x": randn(0, 3), "target": randn(0, 3)},
        lambda t: F.mse_loss(t["x"], t["target"]))

    # kl_div: input log-probabilities; target probabilities (one exact 0) or log-probabilities
    inp = F.log_softmax(randn(4, 5), dim=1)
    tp = F.softmax(randn(4, 5), dim=1)
    tp[1, 2] = 0.0
    tl = F.log_softmax(randn(4, 5), dim=1)
    for red in ("none", "mean", "sum", "batchmean"):
        add(f"kl_div/{red}", "kl_div", {"reduction": red}, {"x": inp, "target": tp},
            lambda t, red=red: F.kl_div(t["x"], t["target"], reduction=red))
        add(f"kl_div/{red}_log_target", "kl_div", {"reduction": red, "log_target": True}, {"x": inp, "target": tl},
            lambda t, red=red: F.kl_div(t["x"], t["target"], reduction=red, log_target=True))
    # target gradients where the target is nonzero (torch's is NaN at 0)
    add("kl_div/target_grad", "kl_div", {"reduction": "sum"}, {"x": inp, "target": F.softmax(randn(4, 5), dim=1)},
        lambda t: F.kl_div(t["x"], t["target"], reduction="sum"))


# ------------------------------------------------------------------ normalization
def to_nchw(x):
    return x.permute(0, x.dim() - 1, *range(1, x.dim() - 1))


def to_nhwc(x):
    return x.permute(0, *range(2, x.dim()), 1)


def norm_cases():
    # batch_norm
    for layout in ("nchw", "nhwc"):
        cl = layout == "nhwc"
        for sname, shape in (("4d", (4, 3, 2, 2)), ("batch1", (1, 3, 2, 2)), ("3d", (2, 3, 5))):
            C = shape[1]
            x = randn(*shape, scale=2.0) + 0.5
            if cl:
                x = to_nhwc(x).contiguous()
            rm = randn(C)
            rv = rand(C, lo=0.5, hi=2.0)
            w = rand(C, lo=0.5, hi=1.5)
            b = randn(C)
            for training in (True, False):
                for stats in (True, False):
                    if not training and not stats and sname != "4d":
                        continue

                    def f(t, training=training, stats=stats, cl=cl):
                        m = t["running_mean"].clone() if stats else None
                        v = t["running_var"].clone() if stats else None
                        xin = to_nchw(t["x"]) if cl else t["x"]
                        y = F.batch_norm(xin, m, v, t.get("weight"), t.get("bias"), training=training or not stats,
                                         momentum=0.2, eps=1e-4)
                        y = to_nhwc(y) if cl else y
                        return [y, m, v] if stats else [y]
                    inputs = {"x": x, "weight": w, "bias": b}
                    if stats:
                        inputs["running_mean"] = rm
                        inputs["running_var"] = rv
                    add(f"batch_norm/{layout}_{sname}_{'train' if training else 'eval'}{'_stats' if stats else ''}",
                        "batch_norm", {"training": training, "momentum": 0.2, "eps": 1e-4,
                                       "channel_axis": -1 if cl else 1},
                        inputs, f, no_grad=("running_mean", "running_var"))
    x = randn(6, 4)
    add("batch_norm/2d_noaffine", "batch_norm", {"training": True, "channel_axis": 1},
        {"x": x, "running_mean": torch.zeros(4, dtype=torch.float64), "running_var": torch.ones(4, dtype=torch.float64)},
        lambda t: (lambda m, v: [F.batch_norm(t["x"], m, v, training=True), m, v])(t["running_mean"].clone(),
                                                                                   t["running_var"].clone()),
        no_grad=("running_mean", "running_var"))
    x = randn(3, 4, 5, dtype=torch.float32)
    add("batch_norm/f32_train", "batch_norm", {"training": True, "channel_axis": 1},
        {"x": x, "weight": rand(4, dtype=torch.float32), "bias": randn(4, dtype=torch.float32),
         "running_mean": torch.zeros(4), "running_var": torch.ones(4)},
        lambda t: (lambda m, v: [F.batch_norm(t["x"], m, v, t["weight"], t["bias"], training=True), m, v])(
            t["running_mean"].clone(), t["running_var"].clone()),
        no_grad=("running_mean", "running_var"))

    # layer_norm
    x = randn(2, 3, 4, scale=2.0)
    for ns in ((4,), (3, 4)):
        w = rand(*ns, lo=0.5, hi=1.5)
        b = randn(*ns)
        for affine in (True, False):
            inputs = {"x": x}
            if affine:
                inputs.update(weight=w, bias=b)
            add(f"layer_norm/{'x'.join(map(str, ns))}{'_affine' if affine else ''}", "layer_norm",
                {"normalized_shape": list(ns), "eps": 1e-5}, inputs,
                lambda t, ns=ns: F.layer_norm(t["x"], ns, t.get("weight"), t.get("bias"), eps=1e-5))
    add("layer_norm/f32", "layer_norm", {"normalized_shape": [6], "eps": 1e-3},
        {"x": randn(5, 6, dtype=torch.float32), "weight": rand(6, dtype=torch.float32)},
        lambda t: F.layer_norm(t["x"], (6,), t["weight"], None, eps=1e-3))

    # group_norm
    for layout in ("nchw", "nhwc"):
        cl = layout == "nhwc"
        x = randn(2, 6, 3, 2, scale=2.0)
        if cl:
            x = to_nhwc(x).contiguous()
        w = rand(6, lo=0.5, hi=1.5)
        b = randn(6)
        for g in (1, 3, 6):
            for affine in (True, False):
                inputs = {"x": x}
                if affine:
                    inputs.update(weight=w, bias=b)

                def f(t, g=g, cl=cl):
                    xin = to_nchw(t["x"]) if cl else t["x"]
                    y = F.group_norm(xin, g, t.get("weight"), t.get("bias"), eps=1e-5)
                    return to_nhwc(y) if cl else y
                add(f"group_norm/{layout}_g{g}{'_affine' if affine else ''}", "group_norm",
                    {"num_groups": g, "eps": 1e-5, "channel_axis": -1 if cl else 1}, inputs, f)
    add("group_norm/batch1_3d", "group_norm", {"num_groups": 2, "eps": 1e-5, "channel_axis": 1},
        {"x": randn(1, 4, 5)}, lambda t: F.group_norm(t["x"], 2, eps=1e-5))

    # instance_norm
    for layout in ("nchw", "nhwc"):
        cl = layout == "nhwc"
        x = randn(2, 3, 4, 3, scale=2.0) - 0.3
        if cl:
            x = to_nhwc(x).contiguous()
        rm = randn(3)
        rv = rand(3, lo=0.5, hi=2.0)
        w = rand(3, lo=0.5, hi=1.5)
        b = randn(3)
        for use_input in (True, False):
            for stats in (True, False):
                if not use_input and not stats:
                    continue

                def f(t, use_input=use_input, stats=stats, cl=cl):
                    m = t["running_mean"].clone() if stats else None
                    v = t["running_var"].clone() if stats else None
                    xin = to_nchw(t["x"]) if cl else t["x"]
                    y = F.instance_norm(xin, m, v, t["weight"], t["bias"], use_input_stats=use_input, momentum=0.3,
                                        eps=1e-5)
                    y = to_nhwc(y) if cl else y
                    return [y, m, v] if stats else [y]
                inputs = {"x": x, "weight": w, "bias": b}
                if stats:
                    inputs.update(running_mean=rm, running_var=rv)
                add(f"instance_norm/{layout}_{'input' if use_input else 'running'}{'_stats' if stats else ''}",
                    "instance_norm", {"use_input_stats": use_input, "momentum": 0.3, "eps": 1e-5,
                                      "channel_axis": -1 if cl else 1},
                    inputs, f, no_grad=("running_mean", "running_var"))
    add("instance_norm/1d_noaffine", "instance_norm", {"use_input_stats": True, "channel_axis": 1},
        {"x": randn(3, 2, 7)}, lambda t: F.instance_norm(t["x"]))


# ------------------------------------------------------------------ embedding, one_hot
def misc_cases():
    w = randn(10, 4)
    idx = torch.tensor([[1, 3, 3], [0, 9, 1]])
    add("embedding/2d", "embedding", {}, {"indices": idx, "weight": w}, lambda t: F.embedding(t["indices"], t["weight"]))
    add("embedding/scalar", "embedding", {}, {"indices": torch.tensor(7), "weight": w},
        lambda t: F.embedding(t["indices"], t["weight"]))
    add("embedding/f32", "embedding", {}, {"indices": torch.tensor([2, 2, 5, 0]), "weight": w.float()},
        lambda t: F.embedding(t["indices"], t["weight"]))
    for nc in (-1, 6):
        add(f"one_hot/{nc}", "one_hot", {"num_classes": nc}, {"indices": torch.tensor([[0, 3], [2, 2], [1, 4]])},
            lambda t, nc=nc: F.one_hot(t["indices"], nc).to(torch.float32))


# ------------------------------------------------------------------ gelu's erfc fit
def erfc_fit():
    """Prints src/nn/functional.cpp's kErfcPoly64 (degree 22) and kErfcPoly32 (degree 11):
    least-squares Chebyshev fits of log(erfc(a) / t) + a^2 in y = (2 - a) / (2 + a),
    t = 2 / (2 + a), converted to monomials, highest degree first."""
    import mpmath as mp
    import numpy as np
    from numpy.polynomial import chebyshev as C
    mp.mp.dps = 40
    nodes = 600
    ys = np.cos(np.pi * (np.arange(nodes) + 0.5) / nodes)  # Chebyshev nodes of y in (-1, 1)
    vals = []
    for y in ys:
        t = (1 + mp.mpf(y)) / 2
        a = 2 / t - 2                                   # y = (2 - a) / (2 + a)
        vals.append(float(mp.log(mp.erfc(a) / t) + a * a))
    for degree in (22, 11):
        mono = C.cheb2poly(C.chebfit(ys, np.array(vals), degree))
        worst = 0.0
        for a in np.linspace(0.0, 8.0, 2001):
            y, t = (2 - a) / (2 + a), 2 / (2 + a)
            p = 0.0
            for co in mono[::-1]:
                p = p * y + co
            ex = mp.erfc(mp.mpf(a))
            worst = max(worst, float(abs((mp.mpf(t * np.exp(-a * a + p)) - ex) / ex)))
        print(f"// degree {degree}: max relative error {worst:.2g} for a in [0, 8] (float64 Horner)")
        print(",\n".join(repr(float(v)) for v in mono[::-1]))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-o", "--output", default="tests/fixtures/nn_functional.json")
    ap.add_argument("--erfc-fit", action="store_true", help="print gelu's erfc coefficients and exit")
    args = ap.parse_args()
    if args.erfc_fit:
        erfc_fit()
        return
    activation_cases()
    loss_cases()
    norm_cases()
    misc_cases()
    doc = {"generator": "tests/gen_nn_fixtures.py", "torch": torch.__version__, "cases": CASES}
    with open(args.output, "w") as f:
        json.dump(doc, f, separators=(",", ":"))
        f.write("\n")
    print(f"wrote {len(CASES)} cases to {args.output}", file=sys.stderr)


if __name__ == "__main__":
    main()

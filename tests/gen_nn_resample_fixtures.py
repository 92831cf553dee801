#!/usr/bin/env python3
"""Generate PyTorch reference values for ivy::nn's padding, interpolation, attention and
recurrent functions (tests/test_nn_resample_attention.cpp).

The references come from Debian's PyTorch 1.13 (run with /usr/bin/python3), independent of
ivy. Run from the repository root:

    /usr/bin/python3 tests/gen_nn_resample_fixtures.py      # writes tests/fixtures/nn_resample.json
    /usr/bin/python3 tests/gen_nn_resample_fixtures.py -o out.json

Only NumPy, torch and the standard library are needed; the output is deterministic (fixed
seeds, fixed case order).

What a case is
--------------
One call of an ivy::nn function ("fn") with its options ("params") on named inputs. The
loss is L = sum_k sum(out_k * cot_k) over the outputs with a stored random cotangent per
output; "grads" holds torch.autograd.grad(L, diff inputs) for the inputs named in "diff"
(every floating input). The C++ test runs the same call under ivy::vjp on every backend and
compares the outputs and the input cotangents.

    {"name": str, "fn": str, "params": {...},
     "inputs": [{"name": str, "array": array}], "diff": [input names],
     "outputs": [array], "cotangents": [array], "grads": [array],   # grads in "diff" order
     "rtol": number (optional), "note": str (optional)}

with an array written as {"dtype": "float64", "shape": [2, 3], "data": [...]} (flat,
row-major; bools as true/false). float32 values are written as the double of the float32.

The references, per fn
----------------------
- pad: F.pad. Where torch asks for a batch layout (reflect / replicate / circular pad only
  the last 1-3 axes of a 3-5-d tensor), the input is reshaped to [B, 1, *padded axes],
  padded by F.pad and reshaped back: the same function, through torch's kernel.
- interpolate: F.interpolate (antialias off). pad and interpolate are linear in x, so each
  gradient is also checked against J^T cot with J built from torch forward calls alone. For
  nearest with a scale factor that leaves an axis size unchanged (1.15 on 5) torch 1.13's
  backward kernel (nearest_idx, which copies such an axis) is not the adjoint of its
  forward kernel (the generic one, floor(dst / 1.15)); those cases store J^T cot and say so
  in "note".
- sdpa: torch 1.13 has no F.scaled_dot_product_attention; the reference is its documented
  math, softmax(q k^T * scale + mask) v, in torch with autograd (bool mask: True = keep).
- mha: F.multi_head_attention_forward (training=False) on the inputs transposed to torch's
  sequence-first layout (ivy's is batch_first) and the outputs transposed back.
- lstm_cell / gru_cell: torch.lstm_cell / torch.gru_cell.
- lstm / gru: torch.nn.LSTM / GRU(batch_first=True) whose parameters are set to the stored
  weights (names w_ih_l{k}[_reverse] ...); gradients w.r.t. those parameters.
"""
import argparse
import json
import math
import os
import sys

import numpy as np
import torch
import torch.nn.functional as F

torch.set_num_threads(1)
CASES = []


def enc(t):
    t = t.detach()
    if t.dtype == torch.bool:
        data = [bool(v) for v in t.flatten().tolist()]
    else:
        data = [float(v) for v in t.flatten().tolist()]
    return {"dtype": str(t.dtype).replace("torch.", ""), "shape": list(t.shape), "data": data}


class Case:
    def __init__(self, name, fn, params, seed):
        self.name, self.fn, self.params = name, fn, params
        self.rng = np.random.default_rng(seed)
        self.inputs = []  # (name, tensor)

    def arr(self, name, shape, dtype=torch.float64, low=None, high=None):
        if low is None:
            v = self.rng.standard_normal(shape)
        else:
            v = self.rng.uniform(low, high, shape)
        t = torch.tensor(v, dtype=dtype).requires_grad_(True)
        self.inputs.append((name, t))
        return t

    def mask(self, name, shape, p_true=0.7, ensure_row=True):
        m = self.rng.uniform(size=shape) < p_true
        if ensure_row:  # every row (last axis) keeps at least one True
            m.reshape(-1, shape[-1])[:, 0] = True
        t = torch.tensor(m)
        self.inputs.append((name, t))
        return t

    def const(self, name, tensor):
        self.inputs.append((name, tensor))
        return tensor

    def finish(self, outputs, rtol=None, linear_fn=None):
        """linear_fn: for a function linear in its only input, the forward as a function of
        that input; the gradient is then checked against the adjoint of the forward."""
        outputs = [o for o in outputs]
        cots = [torch.tensor(self.rng.standard_normal(tuple(o.shape)), dtype=o.dtype) for o in outputs]
        loss = sum((o * c).sum() for o, c in zip(outputs, cots))
        diff = [(n, t) for n, t in self.inputs if t.is_floating_point() and t.requires_grad]
        grads = torch.autograd.grad(loss, [t for _, t in diff], allow_unused=True)
        grads = [g if g is not None else torch.zeros_like(t) for g, (_, t) in zip(grads, diff)]
        note = None
        if linear_fn is not None:
            adj = adjoint_from_forward(linear_fn, diff[0][1], cots[0])
            tol = 1e-4 if adj.dtype == torch.float32 else 1e-12
            if not torch.allclose(grads[0], adj, rtol=tol, atol=tol * float(adj.abs().max())):
                # torch 1.13's backward kernel is not the adjoint of its forward here
                # (upsample_nearest*d: forward by the generic kernel, backward by nearest_idx
                # with its shortcuts); the true gradient of the forward is stored instead
                note = "gradient: adjoint of torch's forward (torch 1.13's backward disagrees with its forward)"
                print(f"{self.name}: {note}", file=sys.stderr)
                grads[0] = adj
        for o in outputs + list(grads):
            assert torch.isfinite(o).all(), self.name
        c = {"name": self.name, "fn": self.fn, "params": self.params,
             "inputs": [{"name": n, "array": enc(t)} for n, t in self.inputs],
             "diff": [n for n, _ in diff],
             "outputs": [enc(o) for o in outputs], "cotangents": [enc(c) for c in cots],
             "grads": [enc(g) for g in grads]}
        if rtol is not None:
            c["rtol"] = rtol
        if note is not None:
            c["note"] = note
        CASES.append(c)


def adjoint_from_forward(fn, x, cot):
    """J^T cot for a linear fn, with J built column by column from torch forward calls only."""
    n = x.numel()
    with torch.no_grad():
        cols = []
        for j in range(n):
            e = torch.zeros(n, dtype=torch.float64)
            e[j] = 1.0
            cols.append(fn(e.reshape(x.shape).to(x.dtype)).to(torch.float64).flatten())
        J = torch.stack(cols, 1)  # [numel(out), numel(x)]
        return (J.t() @ cot.to(torch.float64).flatten()).reshape(x.shape).to(x.dtype)


# ------------------------------------------------------------------ pad
def torch_pad(x, pads, mode, value):
    if mode == "constant":
        return F.pad(x, pads, mode="constant", value=value)
    k = len(pads) // 2
    lead = x.shape[: x.dim() - k]
    y = F.pad(x.reshape((-1, 1) + tuple(x.shape[x.dim() - k:])), pads, mode=mode)
    return y.reshape(tuple(lead) + tuple(y.shape[2:]))


def pad_cases():
    specs = [
        # shape, pads, modes
        ((2, 3, 5), (1, 2), ["constant", "reflect", "replicate", "circular"]),
        ((1, 2, 4, 5), (2, 1, 1, 3), ["constant", "reflect", "replicate", "circular"]),
        ((1, 1, 3, 4, 5), (1, 1, 2, 0, 0, 2), ["constant", "reflect", "replicate", "circular"]),
        ((2, 3, 5), (-1, 2), ["constant", "reflect", "replicate", "circular"]),
        ((2, 3, 5), (3, -2), ["constant", "reflect", "replicate", "circular"]),
        ((2, 3, 5), (-3, 4), ["constant", "reflect", "replicate"]),
        ((1, 2, 4, 5), (-1, -2, 1, -1), ["constant", "reflect", "replicate", "circular"]),
        ((1, 2, 4, 5), (4, 4, 3, 3), ["reflect", "replicate", "circular"]),
        ((7,), (2, 3), ["constant", "reflect", "replicate", "circular"]),  # ivy: any rank
        ((3, 7), (0, 0, 1, 2), ["constant", "reflect", "replicate", "circular"]),
        ((2, 3, 4, 5), (1, 2, 0, 1, 2, 1, 1, 0), ["constant"]),
        ((2, 3, 5), (-3, -2), ["constant"]),
    ]
    seed = 100
    for shape, pads, modes in specs:
        for mode in modes:
            for dtype in ([torch.float64, torch.float32] if mode == "reflect" and len(shape) == 4 else [torch.float64]):
                value = 0.0 if mode != "constant" else (1.5 if len(pads) == 4 else 0.0)
                seed += 1
                c = Case(f"pad_{mode}_{'x'.join(map(str, shape))}_{'_'.join(map(str, pads))}_{str(dtype)[6:]}",
                         "pad", {"pads": list(pads), "mode": mode, "value": value}, seed)
                x = c.arr("x", shape, dtype)
                c.finish([torch_pad(x, list(pads), mode, value)], rtol=1e-5 if dtype == torch.float32 else None,
                         linear_fn=(lambda t: torch_pad(t, list(pads), mode, value)) if value == 0 else None)
    # the per-axis form: pad_axes(x, {{0, 0}, {1, 2}, {2, 0}}) == F.pad(x, (2, 0, 1, 2))
    c = Case("pad_axes_constant_2x3x4", "pad_axes", {"pad_width": [[0, 0], [1, 2], [2, 0]], "mode": "constant",
                                                      "value": -2.0}, 190)
    x = c.arr("x", (2, 3, 4))
    c.finish([F.pad(x, (2, 0, 1, 2), value=-2.0)])
    c = Case("pad_axes_reflect_3x5", "pad_axes", {"pad_width": [[2, 1]], "mode": "reflect", "value": 0.0}, 191)
    x = c.arr("x", (3, 5))
    c.finish([torch_pad(x.t().contiguous(), [2, 1], "reflect", 0.0).t()])


# ------------------------------------------------------------------ interpolate
def interp_cases():
    seed = 300
    specs = []
    # C > 1: torch's nearest on C == 1 input takes its channels-last kernel (see nn_resample.hpp)
    for mode, shape in [("nearest", (2, 3, 5)), ("nearest", (1, 2, 5, 7)), ("nearest", (1, 2, 3, 4, 5)),
                        ("nearest-exact", (1, 2, 5, 7)), ("area", (1, 2, 7, 5))]:
        nd = len(shape) - 2
        big = 9 if nd < 3 else 6  # keeps the 3-d cases small
        specs += [(mode, shape, {"size": [big] * nd}, None), (mode, shape, {"size": [2] * nd}, None),
                  (mode, shape, {"scale_factor": [2.0] * nd}, None),
                  (mode, shape, {"scale_factor": [0.5] * nd}, None),
                  (mode, shape, {"scale_factor": [1.7] * nd}, None)]
        if nd >= 2:
            specs.append((mode, shape, {"size": [shape[2], 2 * shape[3]] + [4] * (nd - 2)}, None))
            specs.append((mode, shape, {"scale_factor": [1.15, 2.5] + [1.0] * (nd - 2)}, None))
    for mode, shape in [("linear", (2, 3, 5)), ("bilinear", (1, 2, 5, 7)), ("bicubic", (1, 2, 5, 7)),
                        ("trilinear", (1, 1, 3, 4, 5)), ("bicubic", (2, 1, 4, 4))]:
        nd = len(shape) - 2
        for align in [False, True]:
            big = 9 if nd < 3 else 6
            specs += [(mode, shape, {"size": [big] * nd}, align), (mode, shape, {"size": [3] * nd}, align),
                      (mode, shape, {"scale_factor": [2.5 if nd < 3 else 1.6] * nd}, align),
                      (mode, shape, {"scale_factor": [0.6] * nd}, align),
                      (mode, shape, {"scale_factor": [1.7] * nd, "recompute_scale_factor": True}, align),
                      (mode, shape, {"size": [1] * nd}, align)]
            if nd >= 2:
                specs.append((mode, shape, {"scale_factor": [1.15, 3.0] + [0.7] * (nd - 2)}, align))
    specs.append(("bilinear", (1, 1, 1, 1), {"size": [3, 4]}, False))
    for i, (mode, shape, kw, align) in enumerate(specs):
        for dtype in ([torch.float64, torch.float32] if i % 5 == 0 else [torch.float64]):
            seed += 1
            params = {"mode": mode, **kw}
            if align is not None:
                params["align_corners"] = align
            key = "_".join(f"{k}{v}" for k, v in kw.items()).replace(" ", "")
            c = Case(f"interp_{mode}_{'x'.join(map(str, shape))}_{key}_ac{align}_{str(dtype)[6:]}", "interpolate",
                     params, seed)
            x = c.arr("x", shape, dtype)
            tkw = dict(kw)
            tkw["mode"] = mode
            if align is not None:
                tkw["align_corners"] = align
            c.finish([F.interpolate(x, **tkw)], rtol=1e-5 if dtype == torch.float32 else None,
                     linear_fn=lambda t: F.interpolate(t, **tkw))


# ------------------------------------------------------------------ attention
def sdpa_ref(q, k, v, mask=None, is_causal=False, scale=None):
    L, S = q.shape[-2], k.shape[-2]
    sc = 1.0 / math.sqrt(q.shape[-1]) if scale is None else scale
    s = q @ k.transpose(-2, -1) * sc
    if is_causal:
        s = s.masked_fill(~torch.ones(L, S, dtype=torch.bool).tril(), float("-inf"))
    elif mask is not None:
        s = s.masked_fill(~mask, float("-inf")) if mask.dtype == torch.bool else s + mask
    return torch.softmax(s, dim=-1) @ v


def sdpa_cases():
    seed = 500
    specs = [
        ("plain", (2, 3, 4, 5), (2, 3, 6, 5), (2, 3, 6, 7), None, False, None),
        ("unbatched", (4, 3), (5, 3), (5, 2), None, False, None),
        ("batch1_scale", (1, 5, 4), (1, 5, 4), (1, 5, 4), None, False, 0.3),
        ("causal_square", (2, 2, 5, 4), (2, 2, 5, 4), (2, 2, 5, 3), None, True, None),
        ("causal_rect", (1, 3, 4), (1, 6, 4), (1, 6, 2), None, True, None),
        ("boolmask_bcast", (2, 2, 4, 3), (2, 2, 5, 3), (2, 2, 5, 3), ("bool", (4, 5)), False, None),
        ("boolmask_full", (2, 3, 4), (2, 5, 4), (2, 5, 4), ("bool", (2, 3, 5)), False, None),
        ("floatmask", (2, 2, 3, 4), (2, 2, 5, 4), (2, 2, 5, 4), ("float", (2, 1, 3, 5)), False, None),
        ("kv_batch_bcast", (2, 3, 4, 5), (1, 1, 6, 5), (1, 1, 6, 5), None, False, None),
    ]
    for name, qs, ks, vs, mask, causal, scale in specs:
        for dtype in ([torch.float64, torch.float32] if name in ("plain", "boolmask_bcast") else [torch.float64]):
            seed += 1
            c = Case(f"sdpa_{name}_{str(dtype)[6:]}", "sdpa", {"is_causal": causal, "scale": scale}, seed)
            q, k, v = c.arr("query", qs, dtype), c.arr("key", ks, dtype), c.arr("value", vs, dtype)
            m = None
            if mask is not None and mask[0] == "bool":
                m = c.mask("attn_mask", mask[1])
            elif mask is not None:
                m = c.arr("attn_mask", mask[1], dtype)
            c.finish([sdpa_ref(q, k, v, m, causal, scale)], rtol=1e-5 if dtype == torch.float32 else None)


def mha_cases():
    seed = 600
    specs = [
        # name, N (None: unbatched), L, S, E, H, kdim, vdim, options
        ("self_basic", 2, 4, 4, 6, 2, None, None, {}),
        ("cross_weights_per_head", 2, 3, 5, 8, 4, None, None, {"average_attn_weights": False}),
        ("batch1_no_bias", 1, 3, 4, 6, 3, None, None, {"no_bias": True}),
        ("kpm_bool_attn2d_bool", 2, 4, 5, 6, 2, None, None, {"kpm": "bool", "attn": ("bool", 2)}),
        ("kpm_bool_attn3d_float", 2, 3, 4, 4, 2, None, None, {"kpm": "bool", "attn": ("float", 3)}),
        ("kpm_float", 2, 3, 4, 4, 2, None, None, {"kpm": "float"}),  # torch 1.13: float kpm only alone
        ("attn2d_float_no_weights", 2, 3, 4, 4, 1, None, None, {"attn": ("float", 2), "need_weights": False}),
        ("bias_kv_zero_attn_masks", 2, 3, 4, 6, 2, None, None, {"bias_kv": True, "add_zero_attn": True,
                                                               "kpm": "bool", "attn": ("bool", 2)}),
        ("separate_proj", 2, 3, 5, 6, 3, 4, 5, {}),
        ("unbatched", None, 4, 3, 6, 2, None, None, {"kpm": "bool"}),
    ]
    for name, N, L, S, E, H, kdim, vdim, opt in specs:
        for dtype in ([torch.float64, torch.float32] if name == "self_basic" else [torch.float64]):
            seed += 1
            params = {"num_heads": H, "need_weights": opt.get("need_weights", True),
                      "average_attn_weights": opt.get("average_attn_weights", True),
                      "add_zero_attn": opt.get("add_zero_attn", False)}
            c = Case(f"mha_{name}_{str(dtype)[6:]}", "mha", params, seed)
            bshape = (lambda *s: s) if N is None else (lambda *s: (N,) + s)
            kd, vd = kdim or E, vdim or E
            query = c.arr("query", bshape(L, E), dtype)
            key = c.arr("key", bshape(S, kd), dtype)
            value = c.arr("value", bshape(S, vd), dtype)
            separate = kdim is not None
            in_w = None if separate else c.arr("in_proj_weight", (3 * E, E), dtype, -0.6, 0.6)
            qw = c.arr("q_proj_weight", (E, E), dtype, -0.6, 0.6) if separate else None
            kw_ = c.arr("k_proj_weight", (E, kd), dtype, -0.6, 0.6) if separate else None
            vw = c.arr("v_proj_weight", (E, vd), dtype, -0.6, 0.6) if separate else None
            in_b = None if opt.get("no_bias") else c.arr("in_proj_bias", (3 * E,), dtype, -0.3, 0.3)
            out_w = c.arr("out_proj_weight", (E, E), dtype, -0.6, 0.6)
            out_b = None if opt.get("no_bias") else c.arr("out_proj_bias", (E,), dtype, -0.3, 0.3)
            bias_k = c.arr("bias_k", (1, 1, E), dtype) if opt.get("bias_kv") else None
            bias_v = c.arr("bias_v", (1, 1, E), dtype) if opt.get("bias_kv") else None
            kpm = None
            nb = 1 if N is None else N
            if opt.get("kpm") == "bool":  # True = ignore; keep the first key of every sequence
                m = c.rng.uniform(size=(nb, S)) < 0.35
                m[:, 0] = False
                kpm = c.const("key_padding_mask", torch.tensor(m if N is not None else m[0]))
            elif opt.get("kpm") == "float":
                kpm = c.arr("key_padding_mask", bshape(S) if N is not None else (S,), dtype)
            am = None
            if "attn" in opt:
                kind, nd = opt["attn"]
                shape = (L, S) if nd == 2 else (nb * H, L, S)
                if kind == "bool":  # True = not allowed; column 0 stays allowed
                    m = c.rng.uniform(size=shape) < 0.35
                    m[..., 0] = False
                    am = c.const("attn_mask", torch.tensor(m))
                else:
                    am = c.arr("attn_mask", shape, dtype)
            tr = (lambda t: t) if N is None else (lambda t: t.transpose(0, 1))
            out, w = F.multi_head_attention_forward(
                tr(query), tr(key), tr(value), E, H, in_w, in_b, bias_k, bias_v, params["add_zero_attn"], 0.0,
                out_w, out_b, training=False, key_padding_mask=kpm, need_weights=params["need_weights"],
                attn_mask=am, use_separate_proj_weight=separate, q_proj_weight=qw, k_proj_weight=kw_,
                v_proj_weight=vw, average_attn_weights=params["average_attn_weights"])
            outs = [tr(out)] + ([w] if params["need_weights"] else [])
            c.finish(outs, rtol=1e-5 if dtype == torch.float32 else None)


# ------------------------------------------------------------------ recurrent
def cell_cases():
    seed = 700
    for kind, G in [("lstm_cell", 4), ("gru_cell", 3)]:
        for name, N, Fdim, H, bias, dtype in [("basic", 3, 4, 5, True, torch.float64),
                                              ("batch1_nobias", 1, 2, 3, False, torch.float64),
                                              ("unbatched", None, 3, 4, True, torch.float64),
                                              ("f32", 2, 3, 4, True, torch.float32)]:
            seed += 1
            c = Case(f"{kind}_{name}", kind, {"bias": bias}, seed)
            b = (lambda *s: s) if N is None else (lambda *s: (N,) + s)
            x = c.arr("x", b(Fdim), dtype)
            h = c.arr("h", b(H), dtype)
            cc = c.arr("c", b(H), dtype) if kind == "lstm_cell" else None
            w_ih = c.arr("w_ih", (G * H, Fdim), dtype, -0.7, 0.7)
            w_hh = c.arr("w_hh", (G * H, H), dtype, -0.7, 0.7)
            b_ih = c.arr("b_ih", (G * H,), dtype, -0.5, 0.5) if bias else None
            b_hh = c.arr("b_hh", (G * H,), dtype, -0.5, 0.5) if bias else None
            # torch.lstm_cell / gru_cell take [N, *] only; nn.LSTMCell / GRUCell add and drop
            # the batch axis of unbatched input the same way
            u = (lambda t: t.unsqueeze(0)) if N is None else (lambda t: t)
            s = (lambda t: t.squeeze(0)) if N is None else (lambda t: t)
            if kind == "lstm_cell":
                hh, c2 = torch.lstm_cell(u(x), (u(h), u(cc)), w_ih, w_hh, b_ih, b_hh)
                outs = [s(hh), s(c2)]
            else:
                outs = [s(torch.gru_cell(u(x), u(h), w_ih, w_hh, b_ih, b_hh))]
            c.finish(outs, rtol=1e-5 if dtype == torch.float32 else None)


def rnn_cases():
    seed = 800
    specs = [
        # kind, name, N (None: unbatched), T, F, H, layers, bidirectional, bias, with h0, dtype
        ("lstm", "2layer_bidir", 2, 4, 3, 5, 2, True, True, True, torch.float64),
        ("lstm", "1layer_zero_state", 1, 5, 2, 3, 1, False, True, False, torch.float64),
        ("lstm", "2layer_nobias", 3, 3, 2, 4, 2, False, False, True, torch.float64),
        ("lstm", "unbatched_bidir", None, 4, 3, 2, 1, True, True, True, torch.float64),
        ("lstm", "2layer_bidir_f32", 2, 3, 3, 4, 2, True, True, True, torch.float32),
        ("gru", "2layer_bidir", 2, 4, 3, 5, 2, True, True, True, torch.float64),
        ("gru", "1layer_zero_state", 1, 5, 2, 3, 1, False, True, False, torch.float64),
        ("gru", "2layer_nobias", 3, 3, 2, 4, 2, False, False, True, torch.float64),
        ("gru", "unbatched_bidir", None, 4, 3, 2, 1, True, True, True, torch.float64),
        ("gru", "2layer_bidir_f32", 2, 3, 3, 4, 2, True, True, True, torch.float32),
    ]
    for kind, name, N, T, Fdim, H, layers, bidir, bias, with_h0, dtype in specs:
        seed += 1
        D = 2 if bidir else 1
        c = Case(f"{kind}_{name}", kind, {"num_layers": layers, "bidirectional": bidir, "bias": bias}, seed)
        b = (lambda *s: s) if N is None else (lambda *s: (N,) + s)
        x = c.arr("x", b(T, Fdim), dtype)
        sb = (lambda: (layers * D, H)) if N is None else (lambda: (layers * D, N, H))
        h0 = c.arr("h0", sb(), dtype) if with_h0 else None
        c0 = c.arr("c0", sb(), dtype) if with_h0 and kind == "lstm" else None
        mod = (torch.nn.LSTM if kind == "lstm" else torch.nn.GRU)(
            Fdim, H, num_layers=layers, bias=bias, batch_first=True, bidirectional=bidir).to(dtype)
        G = 4 if kind == "lstm" else 3
        # the module's own parameters (leaf tensors) take the stored values and are the
        # differentiated inputs
        for l in range(layers):
            for d in range(D):
                sfx = f"_l{l}" + ("_reverse" if d else "")
                fin = Fdim if l == 0 else D * H
                for nm, shape in [("weight_ih", (G * H, fin)), ("weight_hh", (G * H, H))] + (
                        [("bias_ih", (G * H,)), ("bias_hh", (G * H,))] if bias else []):
                    param = getattr(mod, nm + sfx)
                    assert tuple(param.shape) == shape, (nm, param.shape, shape)
                    with torch.no_grad():
                        param.copy_(torch.tensor(c.rng.uniform(-0.6, 0.6, shape), dtype=dtype))
                    c.inputs.append((nm.replace("weight", "w").replace("bias", "b") + sfx, param))
        out, st = mod(x, None if not with_h0 else ((h0, c0) if kind == "lstm" else h0))
        outs = [out] + (list(st) if kind == "lstm" else [st])
        c.finish(outs, rtol=1e-5 if dtype == torch.float32 else None)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-o", "--output", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures",
                                                           "nn_resample.json"))
    args = ap.parse_args()
    torch.manual_seed(0)
    pad_cases()
    interp_cases()
    sdpa_cases()
    mha_cases()
    cell_cases()
    rnn_cases()
    names = [c["name"] for c in CASES]
    assert len(names) == len(set(names)), "duplicate case names"
    doc = {"generator": "tests/gen_nn_resample_fixtures.py", "torch": torch.__version__, "cases": CASES}
    with open(args.output, "w") as f:
        json.dump(doc, f, separators=(",", ":"))
        f.write("\n")
    print(f"{len(CASES)} cases -> {args.output}", file=sys.stderr)


if __name__ == "__main__":
    main()

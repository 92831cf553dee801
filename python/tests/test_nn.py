"""ivy.nn and ivy.Container from Python, on every backend.

nn: forward values and gradients (ivy.vjp with a random cotangent) against
torch.nn.functional / torch.nn (PyTorch 1.13, float64) on a few shapes, including NHWC via
channels_last, SAME padding (checked against an explicit F.pad of TensorFlow's rule),
(before, after) padding pairs, groups, dilation and ceil_mode; error types; signatures.
Container: structure, arithmetic, and safetensors files checked by an independent reader
and writer written here from the published layout (json + numpy)."""

import inspect
import json
import math
import struct

import numpy as np
import pytest

import ivy
from conftest import check, supports, to_np

try:
    import torch
    import torch.nn.functional as F
except ImportError:  # the nn comparisons need torch; the Container tests do not
    torch = None
    F = None

needs_torch = pytest.mark.skipif(torch is None, reason="torch is not installed")
TOL = dict(rtol=1e-9, atol=1e-11)


# ================================================================ the comparison harness
def _as_list(y):
    return list(y) if isinstance(y, (tuple, list)) else [y]


def compare(ivy_fn, torch_fn, arrays, diff=None, tol=TOL, seed=0):
    """Runs ivy_fn on ivy arrays and torch_fn on torch tensors made from the same NumPy
    arrays; compares every output, then the vjp of a random cotangent with respect to the
    inputs listed in diff (default: every floating input)."""
    if diff is None:
        diff = [i for i, a in enumerate(arrays) if a.dtype.kind == "f"]
    xs = [ivy.asarray(a) for a in arrays]
    ts = [torch.tensor(a, requires_grad=(i in diff)) for i, a in enumerate(arrays)]
    ys = _as_list(ivy_fn(*xs))
    tys = _as_list(torch_fn(*ts))
    assert len(ys) == len(tys)
    for y, ty in zip(ys, tys):
        check(y, ty.detach().numpy(), dtype=False, **tol)
        assert y.dtype == getattr(ivy, str(ty.dtype).replace("torch.", ""))
    if not diff:
        return
    rng = np.random.default_rng(seed)
    cots = [rng.standard_normal(ty.shape) for ty in tys]
    floats = [k for k, ty in enumerate(tys) if ty.dtype.is_floating_point]

    def f(*d):
        args = list(xs)
        for i, v in zip(diff, d):
            args[i] = v
        return tuple(_as_list(ivy_fn(*args))[k] for k in floats)

    _, pull = ivy.vjp(f, *[xs[i] for i in diff])
    grads = pull(tuple(ivy.asarray(cots[k]) for k in floats))
    tgrads = torch.autograd.grad([tys[k] for k in floats], [ts[i] for i in diff],
                                 [torch.tensor(cots[k]) for k in floats], allow_unused=True)
    for i, g, tg in zip(diff, grads, tgrads):
        want = np.zeros(arrays[i].shape) if tg is None else tg.numpy()
        check(g, want, dtype=False, **tol)


def rn(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape)


def nchw_to_nhwc(t):
    return t.movedim(1, -1)


def nhwc_to_nchw(t):
    return t.movedim(-1, 1)


def same_pads(sizes, kernel, stride, dilation=None):
    """TensorFlow's SAME padding (odd element after) as F.pad's list, last axis first."""
    dilation = dilation or [1] * len(sizes)
    pads = []
    for L, k, s, d in zip(sizes, kernel, stride, dilation):
        out = -(-L // s)
        total = max(0, (out - 1) * s + (k - 1) * d + 1 - L)
        pads.append((total // 2, total - total // 2))
    return [p for pair in reversed(pads) for p in pair]


# ================================================================ cases: (ivy_fn, torch_fn, arrays[, diff])
def _conv_cases():
    c = {}
    x1, w1, b1 = rn(2, 3, 9, seed=1), rn(4, 3, 3, seed=2), rn(4, seed=3)
    c["conv1d_stride_pad"] = (lambda x, w, b: ivy.nn.conv1d(x, w, b, stride=2, padding=1),
                              lambda x, w, b: F.conv1d(x, w, b, stride=2, padding=1), [x1, w1, b1])
    c["conv_generic_1d"] = (lambda x, w: ivy.nn.conv(x, w, dilation=2), lambda x, w: F.conv1d(x, w, dilation=2),
                            [x1, w1])
    x2, w2, b2 = rn(2, 4, 7, 6, seed=4), rn(6, 2, 3, 2, seed=5), rn(6, seed=6)
    c["conv2d_groups_dilation"] = (
        lambda x, w, b: ivy.nn.conv2d(x, w, b, stride=(2, 1), padding=(1, 0), dilation=(1, 2), groups=2),
        lambda x, w, b: F.conv2d(x, w, b, stride=(2, 1), padding=(1, 0), dilation=(1, 2), groups=2), [x2, w2, b2])
    c["conv2d_nhwc_groups"] = (
        lambda x, w, b: ivy.nn.conv2d(x, w, b, stride=2, padding=1, groups=2, channels_last=True),
        lambda x, w, b: nchw_to_nhwc(F.conv2d(nhwc_to_nchw(x), w, b, stride=2, padding=1, groups=2)),
        [np.moveaxis(x2, 1, -1).copy(), w2, b2])
    we = rn(3, 4, 2, 4, seed=7)  # even kernel: SAME pads asymmetrically
    c["conv2d_same_stride1_even_kernel"] = (lambda x, w: ivy.nn.conv2d(x, w, padding="SAME"),
                                            lambda x, w: F.conv2d(x, w, padding="same"), [x2, we])
    c["conv2d_same_strided_dilated"] = (  # pads (1, 2) and (0, 1): the odd element goes after
        lambda x, w: ivy.nn.conv2d(x, w, stride=(2, 3), padding="same", dilation=(3, 1)),
        lambda x, w: F.conv2d(F.pad(x, same_pads([7, 6], [2, 4], [2, 3], [3, 1])), w, stride=(2, 3), dilation=(3, 1)),
        [x2, we])
    c["conv2d_same_nhwc"] = (
        lambda x, w: ivy.nn.conv2d(x, w, stride=(2, 3), padding="SAME", channels_last=True),
        lambda x, w: nchw_to_nhwc(F.conv2d(F.pad(nhwc_to_nchw(x), same_pads([7, 6], [2, 4], [2, 3])), w,
                                           stride=(2, 3))),
        [np.moveaxis(x2, 1, -1).copy(), we])
    c["conv2d_valid"] = (lambda x, w: ivy.nn.conv2d(x, w, padding="VALID"), lambda x, w: F.conv2d(x, w), [x2, we])
    c["conv2d_pairs"] = (lambda x, w: ivy.nn.conv2d(x, w, padding=[(1, 2), (0, 3)]),
                         lambda x, w: F.conv2d(F.pad(x, [0, 3, 1, 2]), w), [x2, we])
    x3, w3, b3 = rn(1, 2, 5, 4, 5, seed=8), rn(3, 2, 2, 3, 2, seed=9), rn(3, seed=10)
    c["conv3d"] = (lambda x, w, b: ivy.nn.conv3d(x, w, b, stride=(1, 2, 1), padding=(1, 0, 1)),
                   lambda x, w, b: F.conv3d(x, w, b, stride=(1, 2, 1), padding=(1, 0, 1)), [x3, w3, b3])
    c["conv3d_nhwc"] = (lambda x, w: ivy.nn.conv3d(x, w, padding=1, channels_last=True),
                        lambda x, w: nchw_to_nhwc(F.conv3d(nhwc_to_nchw(x), w, padding=1)),
                        [np.moveaxis(x3, 1, -1).copy(), w3])
    wd = rn(8, 1, 3, 3, seed=11)
    c["depthwise_conv2d"] = (lambda x, w: ivy.nn.depthwise_conv2d(x, w, padding=1),
                             lambda x, w: F.conv2d(x, w, padding=1, groups=4), [x2, wd])
    c["linear"] = (lambda x, w, b: ivy.nn.linear(x, w, b), lambda x, w, b: F.linear(x, w, b),
                   [rn(2, 3, 5, seed=12), rn(4, 5, seed=13), rn(4, seed=14)])
    c["linear_no_bias"] = (lambda x, w: ivy.nn.linear(x, w), lambda x, w: F.linear(x, w),
                           [rn(3, 5, seed=15), rn(2, 5, seed=16)])
    # transposed convolutions: weights [C_in, C_out/groups, *K]
    c["conv_transpose1d"] = (
        lambda x, w, b: ivy.nn.conv_transpose1d(x, w, b, stride=2, padding=1, output_padding=1),
        lambda x, w, b: F.conv_transpose1d(x, w, b, stride=2, padding=1, output_padding=1),
        [rn(2, 4, 6, seed=17), rn(4, 3, 3, seed=18), rn(3, seed=19)])
    xt, wt = rn(2, 4, 5, 4, seed=20), rn(4, 3, 3, 2, seed=21)
    c["conv_transpose2d_groups_dilation"] = (
        lambda x, w, b: ivy.nn.conv_transpose2d(x, w, b, stride=(2, 3), padding=(1, 0), output_padding=(1, 2),
                                                groups=2, dilation=(1, 2)),
        lambda x, w, b: F.conv_transpose2d(x, w, b, stride=(2, 3), padding=(1, 0), output_padding=(1, 2), groups=2,
                                           dilation=(1, 2)),
        [xt, wt, rn(6, seed=22)])
    c["conv_transpose2d_nhwc"] = (
        lambda x, w: ivy.nn.conv_transpose2d(x, w, stride=2, padding=1, channels_last=True),
        lambda x, w: nchw_to_nhwc(F.conv_transpose2d(nhwc_to_nchw(x), w, stride=2, padding=1)),
        [np.moveaxis(xt, 1, -1).copy(), wt])
    c["conv_transpose3d"] = (
        lambda x, w: ivy.nn.conv_transpose3d(x, w, stride=2, padding=(0, 1, 0)),
        lambda x, w: F.conv_transpose3d(x, w, stride=2, padding=(0, 1, 0)),
        [rn(1, 2, 3, 4, 3, seed=23), rn(2, 2, 2, 3, 2, seed=24)])
    c["conv_transpose_generic"] = (lambda x, w: ivy.nn.conv_transpose(x, w, stride=3),
                                   lambda x, w: F.conv_transpose1d(x, w, stride=3),
                                   [rn(1, 4, 5, seed=25), rn(4, 2, 4, seed=26)])
    return c


def _pool_cases():
    c = {}
    x1, x2, x3 = rn(2, 3, 11, seed=30), rn(2, 3, 7, 8, seed=31), rn(1, 2, 5, 6, 7, seed=32)
    c["max_pool1d_ceil_dilation"] = (
        lambda x: ivy.nn.max_pool1d(x, 3, stride=2, padding=1, dilation=2, ceil_mode=True),
        lambda x: F.max_pool1d(x, 3, stride=2, padding=1, dilation=2, ceil_mode=True), [x1])
    c["max_pool2d_indices"] = (lambda x: ivy.nn.max_pool2d(x, (3, 2), stride=(2, 1), padding=1, return_indices=True),
                               lambda x: F.max_pool2d(x, (3, 2), stride=(2, 1), padding=1, return_indices=True), [x2])
    c["max_pool2d_ceil"] = (lambda x: ivy.nn.max_pool2d(x, 3, stride=2, ceil_mode=True),
                            lambda x: F.max_pool2d(x, 3, stride=2, ceil_mode=True), [x2])
    c["max_pool2d_nhwc_indices"] = (
        lambda x: ivy.nn.max_pool2d(x, 2, stride=2, ceil_mode=True, return_indices=True, channels_last=True),
        lambda x: tuple(nchw_to_nhwc(t) for t in F.max_pool2d(nhwc_to_nchw(x), 2, stride=2, ceil_mode=True,
                                                                return_indices=True)),
        [np.moveaxis(x2, 1, -1).copy()])
    c["max_pool2d_same"] = (
        lambda x: ivy.nn.max_pool2d(x, 3, stride=2, padding="SAME"),
        lambda x: F.max_pool2d(F.pad(x, same_pads([7, 8], [3, 3], [2, 2]), value=-math.inf), 3, stride=2), [x2])
    c["max_pool3d"] = (lambda x: ivy.nn.max_pool3d(x, (2, 3, 2), stride=(1, 2, 2), padding=(1, 1, 0)),
                       lambda x: F.max_pool3d(x, (2, 3, 2), stride=(1, 2, 2), padding=(1, 1, 0)), [x3])
    c["max_pool_generic"] = (lambda x: ivy.nn.max_pool(x, 4), lambda x: F.max_pool1d(x, 4), [x1])
    for cip in (True, False):
        c[f"avg_pool1d_cip{cip}"] = (
            lambda x, cip=cip: ivy.nn.avg_pool1d(x, 4, stride=3, padding=2, ceil_mode=True, count_include_pad=cip),
            lambda x, cip=cip: F.avg_pool1d(x, 4, stride=3, padding=2, ceil_mode=True, count_include_pad=cip), [x1])
        c[f"avg_pool2d_cip{cip}"] = (
            lambda x, cip=cip: ivy.nn.avg_pool2d(x, (3, 2), stride=2, padding=1, ceil_mode=True,
                                                 count_include_pad=cip),
            lambda x, cip=cip: F.avg_pool2d(x, (3, 2), stride=2, padding=1, ceil_mode=True, count_include_pad=cip),
            [x2])
        c[f"avg_pool3d_cip{cip}"] = (
            lambda x, cip=cip: ivy.nn.avg_pool3d(x, 3, stride=2, padding=1, count_include_pad=cip),
            lambda x, cip=cip: F.avg_pool3d(x, 3, stride=2, padding=1, count_include_pad=cip), [x3])
    c["avg_pool2d_nhwc"] = (lambda x: ivy.nn.avg_pool2d(x, 2, channels_last=True),
                            lambda x: nchw_to_nhwc(F.avg_pool2d(nhwc_to_nchw(x), 2)),
                            [np.moveaxis(x2, 1, -1).copy()])
    c["avg_pool_generic"] = (lambda x: ivy.nn.avg_pool(x, 2, stride=1), lambda x: F.avg_pool2d(x, 2, stride=1), [x2])
    c["adaptive_avg_pool1d"] = (lambda x: ivy.nn.adaptive_avg_pool1d(x, 4),
                                lambda x: F.adaptive_avg_pool1d(x, 4), [x1])
    c["adaptive_avg_pool2d"] = (lambda x: ivy.nn.adaptive_avg_pool2d(x, (3, 5)),
                                lambda x: F.adaptive_avg_pool2d(x, (3, 5)), [x2])
    c["adaptive_avg_pool2d_nhwc"] = (lambda x: ivy.nn.adaptive_avg_pool2d(x, 3, channels_last=True),
                                     lambda x: nchw_to_nhwc(F.adaptive_avg_pool2d(nhwc_to_nchw(x), 3)),
                                     [np.moveaxis(x2, 1, -1).copy()])
    c["adaptive_avg_pool3d"] = (lambda x: ivy.nn.adaptive_avg_pool3d(x, (2, 4, 3)),
                                lambda x: F.adaptive_avg_pool3d(x, (2, 4, 3)), [x3])
    c["adaptive_avg_pool_generic"] = (lambda x: ivy.nn.adaptive_avg_pool(x, 5),
                                      lambda x: F.adaptive_avg_pool1d(x, 5), [x1])
    return c


def _activation_cases():
    x = rn(3, 7, seed=40) * 3
    c = {
        "relu": (ivy.nn.relu, F.relu if F else None),
        "leaky_relu": (lambda t: ivy.nn.leaky_relu(t, 0.2), lambda t: F.leaky_relu(t, 0.2)),
        "elu": (lambda t: ivy.nn.elu(t, alpha=1.5), lambda t: F.elu(t, alpha=1.5)),
        "gelu": (ivy.nn.gelu, F.gelu if F else None),
        "gelu_tanh": (lambda t: ivy.nn.gelu(t, approximate="tanh"), lambda t: F.gelu(t, approximate="tanh")),
        "silu": (ivy.nn.silu, F.silu if F else None),
        "softplus": (lambda t: ivy.nn.softplus(t, beta=2.0, threshold=5.0),
                     lambda t: F.softplus(t, beta=2.0, threshold=5.0)),
        "sigmoid": (ivy.nn.sigmoid, torch.sigmoid if torch else None),
        "hard_sigmoid": (ivy.nn.hard_sigmoid, F.hardsigmoid if F else None),
        "hardswish": (ivy.nn.hardswish, F.hardswish if F else None),
        "mish": (ivy.nn.mish, F.mish if F else None),
        "softmax": (ivy.nn.softmax, lambda t: F.softmax(t, dim=-1)),
        "softmax_axis0": (lambda t: ivy.nn.softmax(t, axis=0), lambda t: F.softmax(t, dim=0)),
        "log_softmax": (lambda t: ivy.nn.log_softmax(t, 0), lambda t: F.log_softmax(t, dim=0)),
    }
    return {f"act_{k}": (a, b, [x]) for k, (a, b) in c.items()}


def _loss_cases():
    c = {}
    logits = rn(5, 4, seed=50)
    tgt = np.array([0, 3, -100, 1, 3], dtype=np.int64)
    wc = np.abs(rn(4, seed=51)) + 0.5
    for red in ("mean", "sum", "none"):
        c[f"cross_entropy_{red}"] = (
            lambda x, t, w, red=red: ivy.nn.cross_entropy(x, t, weight=w, reduction=red, label_smoothing=0.1),
            lambda x, t, w, red=red: F.cross_entropy(x, t, weight=w, reduction=red, label_smoothing=0.1),
            [logits, tgt, wc], [0])
        c[f"nll_loss_{red}"] = (
            lambda x, t, w, red=red: ivy.nn.nll_loss(ivy.nn.log_softmax(x, 1), t, w, reduction=red),
            lambda x, t, w, red=red: F.nll_loss(F.log_softmax(x, 1), t, w, reduction=red), [logits, tgt, wc], [0])
    spatial = rn(2, 3, 4, seed=52)
    st = np.array([[0, 2, 1, 7], [2, 2, 0, 1]], dtype=np.int64)
    c["cross_entropy_spatial_ignore"] = (lambda x, t: ivy.nn.cross_entropy(x, t, ignore_index=7),
                                         lambda x, t: F.cross_entropy(x, t, ignore_index=7), [spatial, st])
    probs = np.exp(rn(5, 4, seed=53))
    probs /= probs.sum(1, keepdims=True)
    c["cross_entropy_probabilities"] = (lambda x, t: ivy.nn.cross_entropy(x, t, label_smoothing=0.2),
                                        lambda x, t: F.cross_entropy(x, t, label_smoothing=0.2), [logits, probs])
    p = 1 / (1 + np.exp(-rn(3, 4, seed=54)))
    t01 = np.random.default_rng(55).uniform(size=(3, 4))
    c["binary_cross_entropy"] = (lambda x, t, w: ivy.nn.binary_cross_entropy(x, t, w),
                                 lambda x, t, w: F.binary_cross_entropy(x, t, w), [p, t01, np.abs(rn(4, seed=56))],
                                 [0])
    c["binary_cross_entropy_sum"] = (lambda x, t: ivy.nn.binary_cross_entropy(x, t, reduction="sum"),
                                     lambda x, t: F.binary_cross_entropy(x, t, reduction="sum"), [p, t01], [0])
    c["bce_with_logits"] = (
        lambda x, t, w, pw: ivy.nn.binary_cross_entropy_with_logits(x, t, w, pos_weight=pw),
        lambda x, t, w, pw: F.binary_cross_entropy_with_logits(x, t, w, pos_weight=pw),
        [rn(3, 4, seed=57) * 5, t01, np.abs(rn(3, 1, seed=58)), np.abs(rn(4, seed=59)) + 0.5], [0, 1])
    a, b = rn(3, 5, seed=60), rn(3, 5, seed=61)
    for red in ("mean", "sum", "none"):
        c[f"mse_loss_{red}"] = (lambda x, t, red=red: ivy.nn.mse_loss(x, t, red),
                                lambda x, t, red=red: F.mse_loss(x, t, reduction=red), [a, b])
        c[f"l1_loss_{red}"] = (lambda x, t, red=red: ivy.nn.l1_loss(x, t, red),
                               lambda x, t, red=red: F.l1_loss(x, t, reduction=red), [a, b])
    c["huber_loss"] = (lambda x, t: ivy.nn.huber_loss(x, t, delta=0.7),
                       lambda x, t: F.huber_loss(x, t, delta=0.7), [a, b])
    c["smooth_l1_loss"] = (lambda x, t: ivy.nn.smooth_l1_loss(x, t, "sum", beta=0.5),
                           lambda x, t: F.smooth_l1_loss(x, t, reduction="sum", beta=0.5), [a, b])
    lp = np.log(probs)
    q = np.exp(rn(5, 4, seed=62))
    q /= q.sum(1, keepdims=True)
    c["kl_div_batchmean"] = (lambda x, t: ivy.nn.kl_div(x, t, reduction="batchmean"),
                             lambda x, t: F.kl_div(x, t, reduction="batchmean"), [lp, q])
    c["kl_div_log_target"] = (lambda x, t: ivy.nn.kl_div(x, t, reduction="none", log_target=True),
                              lambda x, t: F.kl_div(x, t, reduction="none", log_target=True), [lp, np.log(q)])
    return c


def _norm_cases():
    c = {}
    x = rn(4, 3, 5, 2, seed=70) * 2 + 1
    w, b = rn(3, seed=71), rn(3, seed=72)
    rm, rv = rn(3, seed=73), np.abs(rn(3, seed=74)) + 0.5
    c["batch_norm_eval"] = (
        lambda x, w, b, m, v: ivy.nn.batch_norm(x, m, v, w, b, training=False, eps=1e-3),
        lambda x, w, b, m, v: F.batch_norm(x, m, v, w, b, training=False, eps=1e-3), [x, w, b, rm, rv], [0, 1, 2])
    # training: fresh running statistics on each call (they are rebound), compared separately below
    c["batch_norm_train"] = (
        lambda x, w, b: ivy.nn.batch_norm(x, ivy.asarray(rm), ivy.asarray(rv), w, b, training=True, momentum=0.3),
        lambda x, w, b: F.batch_norm(x, torch.tensor(rm), torch.tensor(rv), w, b, training=True, momentum=0.3),
        [x, w, b])
    c["batch_norm_nhwc_no_stats"] = (
        lambda x, w, b: ivy.nn.batch_norm(x, None, None, w, b, training=True, channel_axis=-1),
        lambda x, w, b: nchw_to_nhwc(F.batch_norm(nhwc_to_nchw(x), None, None, w, b, training=True)),
        [np.moveaxis(x, 1, -1).copy(), w, b])
    c["layer_norm"] = (lambda x, w, b: ivy.nn.layer_norm(x, (5, 2), w, b, eps=1e-4),
                       lambda x, w, b: F.layer_norm(x, (5, 2), w, b, eps=1e-4),
                       [x, rn(5, 2, seed=75), rn(5, 2, seed=76)])
    c["layer_norm_int_shape"] = (lambda x: ivy.nn.layer_norm(x, 2), lambda x: F.layer_norm(x, (2,)), [x])
    x6 = rn(2, 6, 4, seed=77)
    c["group_norm"] = (lambda x, w, b: ivy.nn.group_norm(x, 3, w, b),
                       lambda x, w, b: F.group_norm(x, 3, w, b), [x6, rn(6, seed=78), rn(6, seed=79)])
    c["group_norm_nhwc"] = (lambda x: ivy.nn.group_norm(x, 2, channel_axis=-1),
                            lambda x: nchw_to_nhwc(F.group_norm(nhwc_to_nchw(x), 2)),
                            [np.moveaxis(x6, 1, -1).copy()])
    c["instance_norm"] = (lambda x, w, b: ivy.nn.instance_norm(x, weight=w, bias=b),
                          lambda x, w, b: F.instance_norm(x, weight=w, bias=b), [x, w, b])
    c["instance_norm_eval_stats"] = (
        lambda x, m, v: ivy.nn.instance_norm(x, m, v, use_input_stats=False),
        lambda x, m, v: F.instance_norm(x, m, v, use_input_stats=False), [x, rm, rv], [0])
    return c


def _misc_cases():
    c = {}
    idx = np.array([[1, 4, 4], [0, 9, 1]], dtype=np.int64)
    c["embedding"] = (ivy.nn.embedding, F.embedding if F else None, [idx, rn(10, 5, seed=80)])
    # pad: torch's forms, from the last axis backwards
    c["pad_constant_crop"] = (lambda x: ivy.nn.pad(x, (1, 2, -1, 1), value=1.5),
                              lambda x: F.pad(x, (1, 2, -1, 1), value=1.5), [rn(3, 4, seed=81)])
    c["pad_reflect"] = (lambda x: ivy.nn.pad(x, [2, 1, 1, 3], mode="reflect"),
                        lambda x: F.pad(x, [2, 1, 1, 3], mode="reflect"), [rn(2, 3, 5, 6, seed=82)])
    c["pad_replicate"] = (lambda x: ivy.nn.pad(x, (3, 2), mode="replicate"),
                          lambda x: F.pad(x, (3, 2), mode="replicate"), [rn(2, 3, 5, seed=83)])
    c["pad_circular"] = (lambda x: ivy.nn.pad(x, (1, 2, 2, 0), mode="circular"),
                         lambda x: F.pad(x, (1, 2, 2, 0), mode="circular"), [rn(1, 2, 4, 5, seed=84)])
    x2 = rn(2, 3, 4, 6, seed=85)
    interp = {
        "nearest_size": dict(size=(7, 5)),
        "nearest_exact_scale": dict(scale_factor=1.5, mode="nearest-exact"),
        "bilinear": dict(size=(5, 9), mode="bilinear", align_corners=False),
        "bilinear_align": dict(size=(5, 9), mode="bilinear", align_corners=True),
        "bicubic_scale": dict(scale_factor=(2.0, 0.5), mode="bicubic"),
        "bicubic_recompute": dict(scale_factor=1.7, mode="bicubic", recompute_scale_factor=True),
        "area": dict(size=(3, 4), mode="area"),
    }
    for k, kw in interp.items():
        c[f"interpolate_{k}"] = (lambda x, kw=kw: ivy.nn.interpolate(x, **kw),
                                 lambda x, kw=kw: F.interpolate(x, **kw), [x2])
    c["interpolate_linear_1d"] = (lambda x: ivy.nn.interpolate(x, size=11, mode="linear", align_corners=True),
                                  lambda x: F.interpolate(x, size=11, mode="linear", align_corners=True),
                                  [rn(2, 3, 6, seed=86)])
    c["interpolate_trilinear"] = (lambda x: ivy.nn.interpolate(x, size=(3, 5, 4), mode="trilinear"),
                                  lambda x: F.interpolate(x, size=(3, 5, 4), mode="trilinear"),
                                  [rn(1, 2, 2, 3, 5, seed=87)])
    return c


def _torch_sdpa(q, k, v, mask=None, is_causal=False, scale=None):
    """softmax(q k^T * scale + mask) v written out in torch (torch 1.13 has no
    F.scaled_dot_product_attention); a bool mask is True where attending is allowed."""
    s = q @ k.transpose(-2, -1) * (scale if scale is not None else 1 / math.sqrt(q.shape[-1]))
    if is_causal:
        mask = torch.ones(q.shape[-2], k.shape[-2], dtype=torch.bool).tril()
    if mask is not None and mask.dtype == torch.bool:
        s = s.masked_fill(~mask, -math.inf)
    elif mask is not None:
        s = s + mask
    return torch.softmax(s, -1) @ v


def _attention_cases():
    c = {}
    q, k, v = rn(2, 3, 4, 8, seed=90), rn(2, 3, 6, 8, seed=91), rn(2, 3, 6, 5, seed=92)
    c["sdpa"] = (ivy.nn.scaled_dot_product_attention, _torch_sdpa, [q, k, v])
    bmask = np.random.default_rng(93).uniform(size=(4, 6)) > 0.3
    bmask[:, 0] = True
    c["sdpa_bool_mask_scale"] = (
        lambda q, k, v, m: ivy.nn.scaled_dot_product_attention(q, k, v, attn_mask=m, scale=0.3),
        lambda q, k, v, m: _torch_sdpa(q, k, v, m, scale=0.3), [q, k, v, bmask])
    c["sdpa_float_mask"] = (lambda q, k, v, m: ivy.nn.scaled_dot_product_attention(q, k, v, m),
                            lambda q, k, v, m: _torch_sdpa(q, k, v, m), [q, k, v, rn(3, 1, 6, seed=94)])
    c["sdpa_causal"] = (lambda q, k, v: ivy.nn.scaled_dot_product_attention(q, k, v, is_causal=True),
                        lambda q, k, v: _torch_sdpa(q, k, v, is_causal=True), [q, k, v])
    return c


CASES = {}
if torch is not None:
    for maker in (_conv_cases, _pool_cases, _activation_cases, _loss_cases, _norm_cases, _misc_cases,
                  _attention_cases):
        CASES.update(maker())


# torch 1.13's hardsigmoid backward multiplies by the float32 constant 1.0f / 6.0f even in
# float64 (relative error 3e-8); ivy uses the double 1/6.
TOL_OVERRIDES = {"act_hard_sigmoid": dict(rtol=1e-7, atol=1e-10)}


@needs_torch
@pytest.mark.filterwarnings("ignore:Using padding='same'")
@pytest.mark.parametrize("name", sorted(CASES) or ["(torch missing)"])
def test_against_torch(backend, name):
    ivy_fn, torch_fn, arrays, *diff = CASES[name]
    compare(ivy_fn, torch_fn, arrays, diff[0] if diff else None, tol=TOL_OVERRIDES.get(name, TOL))


# ================================================================ stateful norms, modules
@needs_torch
@pytest.mark.parametrize("channel_axis", [1, -1])
def test_batch_norm_updates_running_stats_like_torch(backend, channel_axis):
    x = rn(6, 3, 4, seed=100) * 3 + 2
    w, b = rn(3, seed=101), rn(3, seed=102)
    rm0, rv0 = rn(3, seed=103), np.abs(rn(3, seed=104)) + 0.1
    xi = ivy.asarray(x if channel_axis == 1 else np.moveaxis(x, 1, -1).copy())
    m, v = ivy.asarray(rm0), ivy.asarray(rv0)
    m_alias = m
    y = ivy.nn.batch_norm(xi, m, v, ivy.asarray(w), ivy.asarray(b), training=True, momentum=0.25, eps=1e-4,
                          channel_axis=channel_axis)
    tm, tv = torch.tensor(rm0), torch.tensor(rv0)
    ty = F.batch_norm(torch.tensor(x), tm, tv, torch.tensor(w), torch.tensor(b), training=True, momentum=0.25,
                      eps=1e-4)
    want = ty.numpy() if channel_axis == 1 else np.moveaxis(ty.numpy(), 1, -1)
    check(y, want, **TOL)
    check(m, tm.numpy(), **TOL)  # rebound in place, as torch updates its buffers
    check(v, tv.numpy(), **TOL)
    assert m_alias is m
    assert not np.allclose(to_np(m), rm0)
    # eval mode leaves them alone
    before = to_np(m).copy()
    ivy.nn.batch_norm(xi, m, v, training=False, channel_axis=channel_axis)
    np.testing.assert_array_equal(to_np(m), before)


@needs_torch
def test_instance_norm_updates_running_stats_like_torch(backend):
    x = rn(2, 3, 7, seed=105)
    rm0, rv0 = rn(3, seed=106), np.abs(rn(3, seed=107)) + 0.1
    m, v = ivy.asarray(rm0), ivy.asarray(rv0)
    y = ivy.nn.instance_norm(ivy.asarray(x), m, v, momentum=0.4)
    tm, tv = torch.tensor(rm0), torch.tensor(rv0)
    ty = F.instance_norm(torch.tensor(x), tm, tv, momentum=0.4)
    check(y, ty.numpy(), **TOL)
    check(m, tm.numpy(), **TOL)
    check(v, tv.numpy(), **TOL)


@needs_torch
def test_batch_norm_gradient_through_ivy_grad(backend):
    """ivy.grad of a scalar loss through conv2d -> batch_norm -> relu -> mean, against torch."""
    x, w = rn(2, 3, 6, 6, seed=110), rn(4, 3, 3, 3, seed=111)
    g, b = rn(4, seed=112), rn(4, seed=113)

    def loss(w, g, b):
        h = ivy.nn.conv2d(ivy.asarray(x), w, padding="SAME")
        h = ivy.nn.batch_norm(h, None, None, g, b, training=True)
        return ivy.mean(ivy.nn.relu(h) ** 2)

    grads = ivy.grad(loss, argnums=(0, 1, 2))(ivy.asarray(w), ivy.asarray(g), ivy.asarray(b))
    tw, tg, tb = (torch.tensor(a, requires_grad=True) for a in (w, g, b))
    h = F.conv2d(torch.tensor(x), tw, padding="same")
    tl = (F.relu(F.batch_norm(h, None, None, tg, tb, training=True)) ** 2).mean()
    for got, want in zip(grads, torch.autograd.grad(tl, [tw, tg, tb])):
        check(got, want.numpy(), **TOL)


@needs_torch
@pytest.mark.parametrize("bidirectional", [False, True])
def test_lstm_gru_against_torch_modules(backend, bidirectional):
    torch.manual_seed(0)
    F_in, H, layers = 3, 4, 2
    x = rn(2, 5, F_in, seed=120)
    for kind in ("lstm", "gru"):
        mod = (torch.nn.LSTM if kind == "lstm" else torch.nn.GRU)(F_in, H, num_layers=layers, batch_first=True,
                                                                  bidirectional=bidirectional)
        mod = mod.double().eval()
        sfx = ["", "_reverse"] if bidirectional else [""]
        names = [(f"weight_ih_l{k}{s}", f"weight_hh_l{k}{s}", f"bias_ih_l{k}{s}", f"bias_hh_l{k}{s}")
                 for k in range(layers) for s in sfx]
        params = [[getattr(mod, n).detach().numpy() for n in group] for group in names]
        D = 2 if bidirectional else 1
        h0 = rn(layers * D, 2, H, seed=121)
        c0 = rn(layers * D, 2, H, seed=122)

        def ivy_fn(x, h0, c0, *flat):
            ws = [tuple(flat[4 * i:4 * i + 4]) for i in range(len(names))]
            if kind == "lstm":
                out, (h, c) = ivy.nn.lstm(x, ws, layers, bidirectional, hx=(h0, c0))
                return out, h, c
            out, h = ivy.nn.gru(x, ws, layers, bidirectional, hx=h0)
            return out, h

        def torch_fn(x, h0, c0, *flat):
            # what nn.LSTM / nn.GRU.forward call, with the weights as arguments
            if kind == "lstm":
                out, h, c = torch._VF.lstm(x, (h0, c0), list(flat), True, layers, 0.0, False, bidirectional, True)
                return out, h, c
            out, h = torch._VF.gru(x, h0, list(flat), True, layers, 0.0, False, bidirectional, True)
            return out, h

        with torch.no_grad():  # the module's own forward agrees with the functional form used here
            want = mod(torch.tensor(x), (torch.tensor(h0), torch.tensor(c0)) if kind == "lstm" else torch.tensor(h0))
        got = torch_fn(torch.tensor(x), torch.tensor(h0), torch.tensor(c0),
                       *[torch.tensor(a) for group in params for a in group])
        assert torch.equal(want[0], got[0])

        compare(ivy_fn, torch_fn, [x, h0, c0] + [a for group in params for a in group],
                diff=[0, 1, 2, 3, 4] if kind == "lstm" else [0, 1, 3, 4])


@needs_torch
def test_cells_against_torch(backend):
    x, h, cc = rn(3, 5, seed=130), rn(3, 4, seed=131), rn(3, 4, seed=132)
    lstm = torch.nn.LSTMCell(5, 4).double()
    gru = torch.nn.GRUCell(5, 4).double()
    lp = [p.detach().numpy() for p in (lstm.weight_ih, lstm.weight_hh, lstm.bias_ih, lstm.bias_hh)]
    gp = [p.detach().numpy() for p in (gru.weight_ih, gru.weight_hh, gru.bias_ih, gru.bias_hh)]
    compare(lambda x, h, c, *w: ivy.nn.lstm_cell(x, (h, c), *w),
            lambda x, h, c, *w: torch.lstm_cell(x, (h, c), *w), [x, h, cc] + lp)
    compare(lambda x, h, *w: ivy.nn.gru_cell(x, h, *w), lambda x, h, *w: torch.gru_cell(x, h, *w), [x, h] + gp)
    compare(lambda x, h, c, wi, wh: ivy.nn.lstm_cell(x, [h, c], wi, wh),  # no biases; hx as a list
            lambda x, h, c, wi, wh: torch.lstm_cell(x, (h, c), wi, wh), [x, h, cc] + lp[:2])


@needs_torch
@pytest.mark.parametrize("masks", [False, True])
def test_multi_head_attention_against_torch(backend, masks):
    torch.manual_seed(1)
    E, H = 8, 2
    mha = torch.nn.MultiheadAttention(E, H, batch_first=True).double().eval()
    q, k, v = rn(2, 3, E, seed=140), rn(2, 5, E, seed=141), rn(2, 5, E, seed=142)
    ps = [mha.in_proj_weight, mha.in_proj_bias, mha.out_proj.weight, mha.out_proj.bias]
    kpm = np.array([[False, False, True, False, True], [False, False, False, False, False]])
    am = rn(3, 5, seed=143)

    def ivy_fn(q, k, v, iw, ib, ow, ob, kpm_, am_):
        return ivy.nn.multi_head_attention(q, k, v, H, iw, ib, ow, ob, kpm_ if masks else None,
                                           am_ if masks else None, average_attn_weights=False)

    def torch_fn(q, k, v, iw, ib, ow, ob, kpm_, am_):
        return F.multi_head_attention_forward(
            q.transpose(0, 1), k.transpose(0, 1), v.transpose(0, 1), E, H, iw, ib, None, None, False, 0.0, ow, ob,
            training=False, key_padding_mask=kpm_ if masks else None, need_weights=True,
            attn_mask=am_ if masks else None, average_attn_weights=False)

    def torch_fn_bf(*a):
        out, w = torch_fn(*a)
        return out.transpose(0, 1), w

    compare(ivy_fn, torch_fn_bf, [q, k, v] + [p.detach().numpy() for p in ps] + [kpm, am], diff=list(range(7)))
    out, w = ivy.nn.multi_head_attention(*(ivy.asarray(a) for a in (q, k, v)), H,
                                         *(ivy.asarray(p.detach().numpy()) for p in ps), need_weights=False)
    assert w is None and out.shape == (2, 3, E)


# ================================================================ dropout, one_hot
def test_dropout(backend):
    x = ivy.asarray(np.random.default_rng(150).uniform(1, 2, size=(200, 50)))
    np.testing.assert_array_equal(to_np(ivy.nn.dropout(x, 0.5, training=False)), to_np(x))
    np.testing.assert_array_equal(to_np(ivy.nn.dropout(x, 0.0)), to_np(x))
    np.testing.assert_array_equal(to_np(ivy.nn.dropout(x, 1.0)), np.zeros((200, 50)))
    p = 0.3
    y = to_np(ivy.nn.dropout(x, p, seed=7))
    kept = y != 0
    assert abs(kept.mean() - (1 - p)) < 0.02  # 10000 draws: 4.5 standard deviations
    np.testing.assert_allclose(y[kept], to_np(x)[kept] / (1 - p), rtol=1e-12)
    # a seed gives the same mask on every call and backend; another seed another mask
    np.testing.assert_array_equal(to_np(ivy.nn.dropout(x, p, seed=7)), y)
    for other in ivy.available_backends():
        with ivy.BackendScope(other):
            np.testing.assert_array_equal(to_np(ivy.nn.dropout(ivy.to_backend(x, other), p, seed=7)), y)
    assert (to_np(ivy.nn.dropout(x, p, seed=8)) != 0).tolist() != kept.tolist()
    # the gradient is the mask scaled by 1 / (1 - p)
    g = to_np(ivy.grad(lambda t: ivy.sum(ivy.nn.dropout(t, p, seed=7)))(x))
    np.testing.assert_allclose(g, kept / (1 - p), rtol=1e-12)
    with pytest.raises(ValueError, match=r"^\[nn.dropout\]"):
        ivy.nn.dropout(x, 1.5)


@needs_torch
def test_one_hot(backend):
    idx = np.array([[0, 3], [2, 1]], dtype=np.int64)
    want = F.one_hot(torch.tensor(idx), 5).numpy()
    check(ivy.nn.one_hot(ivy.asarray(idx), 5), want.astype(np.float32))
    check(ivy.nn.one_hot(ivy.asarray(idx), dtype=ivy.int64), F.one_hot(torch.tensor(idx)).numpy())
    with pytest.raises((ValueError, IndexError), match=r"^\[nn.one_hot\]"):
        ivy.nn.one_hot(ivy.asarray(idx), 3)


# ================================================================ errors and signatures
def test_errors_map_to_python_exceptions(backend):
    x = ivy.ones((1, 2, 5, 5), dtype=ivy.float64)
    w = ivy.ones((3, 2, 3, 3), dtype=ivy.float64)
    with pytest.raises(ValueError, match=r"^\[nn.conv2d\]"):
        ivy.nn.conv2d(ivy.ones((2, 5, 5)), w)
    with pytest.raises(ValueError, match=r"^\[nn.conv2d\] padding has 1"):
        ivy.nn.conv2d(x, w, padding=[(1, 1)])
    with pytest.raises(ValueError, match="SAME"):
        ivy.nn.conv2d(x, w, padding="FULL")
    with pytest.raises(TypeError, match=r"^\[nn.conv2d\] padding must be"):
        ivy.nn.conv2d(x, w, padding=1.5)
    with pytest.raises(TypeError, match=r"^\[nn.max_pool2d\] kernel_size must be"):
        ivy.nn.max_pool2d(x, "3")
    with pytest.raises(ValueError, match=r"^\[nn.max_pool2d\] expects an input of rank 4"):
        ivy.nn.max_pool2d(ivy.ones((2, 5, 5)), 2)
    with pytest.raises(TypeError, match=r"^\[nn.relu\]"):
        ivy.nn.relu(ivy.asarray([1, 2]))
    with pytest.raises(ValueError, match=r"^\[nn.mse_loss\] reduction must be"):
        ivy.nn.mse_loss(x, x, reduction="avg")
    with pytest.raises(ValueError, match=r"^\[nn.mse_loss\] reduction must be"):
        ivy.nn.mse_loss(x, x, reduction="batchmean")
    with pytest.raises(IndexError, match=r"^\[nn.embedding\]"):
        ivy.nn.embedding(ivy.asarray([0, 4]), ivy.ones((4, 2)))
    with pytest.raises(IndexError, match=r"^\[nn.cross_entropy\]"):
        ivy.nn.cross_entropy(ivy.ones((2, 3)), ivy.asarray([0, 3]))
    with pytest.raises(NotImplementedError, match="dropout_p"):
        ivy.nn.scaled_dot_product_attention(x, x, x, dropout_p=0.1)
    with pytest.raises(ValueError, match="approximate"):
        ivy.nn.gelu(x, approximate="erf")
    with pytest.raises(ValueError, match=r"^\[nn.pad\]"):
        ivy.nn.pad(x, [1, 2, 3])
    with pytest.raises(TypeError, match=r"^\[nn.interpolate\] scale_factor"):
        ivy.nn.interpolate(x, scale_factor="2")
    with pytest.raises(TypeError, match="running_mean"):
        ivy.nn.batch_norm(x, [0.0, 0.0], None)


E_ = inspect.Parameter.empty
NN_SIGNATURES = {
    "conv2d": [("x", E_), ("w", E_), ("bias", None), ("stride", 1), ("padding", 0), ("dilation", 1), ("groups", 1),
               ("channels_last", False)],
    "conv_transpose2d": [("x", E_), ("w", E_), ("bias", None), ("stride", 1), ("padding", 0), ("output_padding", 0),
                         ("groups", 1), ("dilation", 1), ("channels_last", False)],
    "max_pool2d": [("x", E_), ("kernel_size", E_), ("stride", None), ("padding", 0), ("dilation", 1),
                   ("ceil_mode", False), ("return_indices", False), ("channels_last", False)],
    "avg_pool2d": [("x", E_), ("kernel_size", E_), ("stride", None), ("padding", 0), ("ceil_mode", False),
                   ("count_include_pad", True), ("channels_last", False)],
    "softmax": [("x", E_), ("axis", -1)],
    "cross_entropy": [("input", E_), ("target", E_), ("weight", None), ("ignore_index", -100), ("reduction", "mean"),
                      ("label_smoothing", 0.0)],
    "dropout": [("x", E_), ("p", 0.5), ("training", True), ("seed", None)],
    "pad": [("x", E_), ("pad", E_), ("mode", "constant"), ("value", 0.0)],
    "interpolate": [("x", E_), ("size", None), ("scale_factor", None), ("mode", "nearest"), ("align_corners", None),
                    ("recompute_scale_factor", None)],
    "batch_norm": [("x", E_), ("running_mean", E_), ("running_var", E_), ("weight", None), ("bias", None),
                   ("training", False), ("momentum", 0.1), ("eps", 1e-5), ("channel_axis", 1)],
}


@pytest.mark.parametrize("name", sorted(NN_SIGNATURES))
def test_nn_signatures(name):
    params = list(inspect.signature(getattr(ivy.nn, name)).parameters.values())
    assert [(p.name, p.default) for p in params] == NN_SIGNATURES[name]
    assert all(p.kind == inspect.Parameter.POSITIONAL_OR_KEYWORD for p in params)
    assert name in ivy.nn.__all__


@needs_torch
@pytest.mark.parametrize("name", ["cross_entropy", "nll_loss", "interpolate", "batch_norm", "layer_norm",
                                  "group_norm", "binary_cross_entropy_with_logits", "kl_div", "huber_loss",
                                  "smooth_l1_loss", "embedding"])
def test_nn_signatures_follow_torch(name):
    """The parameters torch.nn.functional's Python functions share with ivy.nn come in the
    same order with the same defaults (torch's first argument is `input`; its deprecated
    size_average / reduce and the options ivy lacks are left out)."""
    ours = inspect.signature(getattr(ivy.nn, name)).parameters
    theirs = inspect.signature(getattr(F, name)).parameters
    shared = [n for n in theirs if n in ours]
    assert [n for n in ours if n in theirs] == shared
    assert len(shared) >= 2
    for n in shared:
        if theirs[n].default is not E_ and n != "eps":
            assert ours[n].default == theirs[n].default, n


def test_namespace():
    assert ivy.nn.Container is ivy.Container
    for n in ivy.nn.__all__:
        assert callable(getattr(ivy.nn, n)), n
    assert set(ivy.nn.__all__) <= set(dir(ivy._ivy.nn)) | {"hardsigmoid"}


# ================================================================ Container
def _tree():
    return {"conv": {"w": ivy.asarray(np.arange(6.0).reshape(2, 3)), "b": ivy.asarray(np.array([1.0, -2.0]))},
            "head": ivy.asarray(np.array([[3, 4]], dtype=np.int32))}


def test_container_structure(backend):
    c = ivy.Container(_tree())
    assert c.keys() == ["conv", "head"] and list(c) == ["conv", "head"] and len(c) == 2
    assert [p for p, _ in c.flatten()] == ["conv/w", "conv/b", "head"]
    assert c.num_leaves == 3 and not c.is_leaf
    check(c["conv/w"], np.arange(6.0).reshape(2, 3))
    check(c["conv"]["b"], np.array([1.0, -2.0]))
    assert isinstance(c["conv"], ivy.Container)
    assert "conv/b" in c and "conv/x" not in c
    d = c.to_dict()
    assert list(d) == ["conv", "head"] and list(d["conv"]) == ["w", "b"]
    check(d["head"], np.array([[3, 4]], dtype=np.int32))
    assert str(c).splitlines() == ["conv/", "  w: float64[2, 3]", "  b: float64[2]", "head: int32[1, 2]"]
    assert repr(c).startswith("Container(3 leaves")
    c["extra/z"] = ivy.zeros((1,))
    assert c.keys() == ["conv", "head", "extra"] and c["extra/z"].shape == (1,)
    del c["extra"]
    assert c.keys() == ["conv", "head"]
    flat = ivy.Container.from_flat(c.flatten())
    assert flat.same_structure(c)
    with pytest.raises(KeyError, match="no entry at 'conv/x'"):
        c["conv/x"]
    with pytest.raises(KeyError):
        del c["nope"]
    with pytest.raises(TypeError, match="leaves must be ivy arrays"):
        ivy.Container({"a": [1.0, 2.0]})
    with pytest.raises(ValueError, match="contains '/'"):
        ivy.Container({"a/b": ivy.zeros((1,))})
    with pytest.raises(TypeError, match="keys must be strings"):
        ivy.Container({1: ivy.zeros((1,))})
    leaf = ivy.Container(ivy.ones((2,)))
    assert leaf.is_leaf and leaf.array.shape == (2,)
    with pytest.raises(TypeError, match="leaf"):
        leaf.to_dict()
    assert ivy.Container().to_dict() == {}


def test_container_map_and_arithmetic(backend):
    np_a, np_b = np.array([1.0, 2.0]), np.array([[4.0], [8.0]])
    c = ivy.Container({"a": ivy.asarray(np_a), "n": {"b": ivy.asarray(np_b)}})
    check((c * 3)["a"], np_a * 3)
    check((2 - c)["n/b"], 2 - np_b)
    check((1 / c)["a"], 1 / np_a)
    check((c + c)["n/b"], np_b * 2)
    check((c ** 2)["a"], np_a ** 2)
    check((-c)["a"], -np_a)
    check((c / c)["n/b"], np.ones((2, 1)))
    check((c - ivy.asarray(np.array([10.0, 20.0])))["n/b"], np_b - [10.0, 20.0])  # an array broadcasts to each leaf
    check(c.map(ivy.sqrt)["n/b"], np.sqrt(np_b))
    check(c.map_with_paths(lambda p, x: x * len(p))["n/b"], np_b * 3)
    check(c.sum()["n/b"], np.array(12.0))
    check(c.global_sum_of_squares(), np.array(85.0))
    with pytest.raises(ValueError, match="structures differ"):
        c + ivy.Container({"a": ivy.asarray(np_a)})
    with pytest.raises(TypeError, match="must return an ivy array"):
        c.map(lambda x: 1.0)
    with pytest.raises(ZeroDivisionError):  # a Python exception in fn comes out unchanged
        c.map(lambda x: 1 / 0)


ALL_DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16",
              "bfloat16", "float32", "float64", "complex64", "complex128"]
# the safetensors dtype codes (C64 / C128: ivy's extension for complex dtypes)
CODES = {"bool": "BOOL", "int8": "I8", "int16": "I16", "int32": "I32", "int64": "I64", "uint8": "U8",
         "uint16": "U16", "uint32": "U32", "uint64": "U64", "float16": "F16", "bfloat16": "BF16",
         "float32": "F32", "float64": "F64", "complex64": "C64", "complex128": "C128"}
NP_OF_CODE = {"BOOL": np.bool_, "I8": np.int8, "I16": np.int16, "I32": np.int32, "I64": np.int64, "U8": np.uint8,
              "U16": np.uint16, "U32": np.uint32, "U64": np.uint64, "F16": np.float16, "F32": np.float32,
              "F64": np.float64, "C64": np.complex64, "C128": np.complex128}


def _values(name, shape, seed):
    """Values that use each dtype's range: extremes, negative zero, inf and NaN for floats."""
    rng = np.random.default_rng(seed)
    n = int(np.prod(shape))
    if name == "bool":
        return rng.uniform(size=shape) > 0.5
    if name == "bfloat16":  # as the float32 values bfloat16 holds exactly (upper 16 bits)
        bits = (rng.integers(0, 2**16, size=n, dtype=np.uint32) << 16).astype(np.uint32)
        v = bits.view(np.float32)
        return np.where(np.isnan(v), np.float32(1.5), v).reshape(shape)
    dt = np.dtype(name)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        v = rng.integers(info.min, info.max, size=n, dtype=dt, endpoint=True)
        v[:2] = [info.min, info.max]
        return v.reshape(shape)
    if dt.kind == "f":
        v = (rng.standard_normal(n) * 1e3).astype(dt)
        v[:4] = [np.finfo(dt).max, -0.0, np.inf, np.finfo(dt).tiny]
        return v.reshape(shape)
    re = rng.standard_normal(n) + 1j * rng.standard_normal(n)
    return re.astype(dt).reshape(shape)


def _ivy_of(name, v):
    if name == "bfloat16":
        return ivy.astype(ivy.asarray(v), ivy.bfloat16)
    return ivy.asarray(v)


def _np_of(x):
    if x.dtype == ivy.bfloat16:
        return to_np(ivy.astype(x, ivy.float32))
    return to_np(x)


def _same_bits(a, b):
    a, b = np.asarray(a), np.asarray(b)
    assert a.dtype == b.dtype and a.shape == b.shape
    assert a.tobytes() == b.tobytes()


def _dtypes_on(backend):
    return [d for d in ALL_DTYPES if supports(backend, getattr(ivy, d))]


def test_container_save_load_roundtrip_every_dtype(backend, tmp_path):
    names = _dtypes_on(backend)
    tree = {"dtypes": {n: _ivy_of(n, _values(n, (3, 4), i)) for i, n in enumerate(names)},
            "scalar": ivy.asarray(np.float64(2.5)), "empty": ivy.zeros((0, 3), dtype=ivy.int16)}
    c = ivy.Container(tree)
    path = tmp_path / "model.safetensors"
    c.save(path, metadata={"format": "pt", "step": "12"})
    back, md = ivy.Container.load(str(path), with_metadata=True)
    assert md == {"format": "pt", "step": "12"}
    assert [p for p, _ in back.flatten()] == [p for p, _ in c.flatten()]
    for (p, x), (_, y) in zip(c.flatten(), back.flatten()):
        assert y.dtype == x.dtype and y.shape == x.shape and y.backend == backend, p
        _same_bits(_np_of(y), _np_of(x))
    # loading onto another backend gives the same bits (for the dtypes both support)
    for other in ivy.available_backends():
        both = ivy.Container({p: x for p, x in tree["dtypes"].items() if supports(other, x.dtype)})
        both.save(tmp_path / "both.safetensors")
        for p, y in ivy.Container.load(tmp_path / "both.safetensors", backend=other).flatten():
            assert y.backend == other
            _same_bits(_np_of(y), _np_of(both[p]))
    # a dtype the target backend lacks is a clear error, not a crash
    for other in ivy.available_backends():
        missing = [n for n in names if not supports(other, getattr(ivy, n))]
        if missing:
            with pytest.raises(NotImplementedError, match=r"^\[load\].*" + missing[0]):
                ivy.Container.load(path, backend=other)


def _read_safetensors(path):
    """An independent reader of the published layout: u64 LE header length, a JSON header
    {name: {dtype, shape, data_offsets}} (+ __metadata__), then the data buffer."""
    raw = open(path, "rb").read()
    (n,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8:8 + n].decode("utf-8"))
    data = raw[8 + n:]
    meta = header.pop("__metadata__", None)
    out, spans = {}, []
    for name, e in header.items():
        b, end = e["data_offsets"]
        spans.append((b, end))
        code = e["dtype"]
        if code == "BF16":  # widen to float32 by placing the 16 bits high
            u = np.frombuffer(data[b:end], dtype="<u2").astype(np.uint32) << 16
            arr = u.view(np.float32)
        else:
            arr = np.frombuffer(data[b:end], dtype=np.dtype(NP_OF_CODE[code]).newbyteorder("<"))
        out[name] = (code, arr.reshape(e["shape"]))
    spans.sort()
    pos = 0
    for b, end in spans:  # the buffer is covered exactly, without holes or overlaps
        assert b == pos
        pos = end
    assert pos == len(data)
    return out, meta


def test_container_file_read_by_independent_reader(backend, tmp_path):
    names = _dtypes_on(backend)
    vals = {n: _values(n, (2, 3), 10 + i) for i, n in enumerate(names)}
    c = ivy.Container({"w": {n: _ivy_of(n, v) for n, v in vals.items()}})
    path = tmp_path / "x.safetensors"
    c.save(str(path), metadata={"who": "ivy"})
    got, meta = _read_safetensors(path)
    assert meta == {"who": "ivy"}
    assert sorted(got) == sorted(f"w/{n}" for n in names)
    for n, v in vals.items():
        code, arr = got[f"w/{n}"]
        assert code == CODES[n]
        _same_bits(arr, v.astype(np.float32) if n == "bfloat16" else v)


def _write_safetensors(path, tensors, metadata=None, reverse_data=True):
    """An independent writer: tensors {name: (code, ndarray)}; data stored in the reverse
    order of the header's entries (any order is valid), header padded with spaces."""
    header, chunks, pos = {}, [], 0
    order = list(tensors.items())
    for name, (code, arr) in (reversed(order) if reverse_data else order):
        if code == "BF16":
            b = (np.ascontiguousarray(arr, dtype=np.float32).view(np.uint32) >> 16).astype("<u2").tobytes()
        else:
            b = np.ascontiguousarray(arr).astype(np.dtype(arr.dtype).newbyteorder("<")).tobytes()
        header[name] = {"dtype": code, "shape": list(arr.shape), "data_offsets": [pos, pos + len(b)]}
        chunks.append(b)
        pos += len(b)
    header = {k: header[k] for k, _ in order}
    if metadata is not None:
        header = {"__metadata__": metadata, **header}
    hb = json.dumps(header).encode("utf-8")
    hb += b" " * (-len(hb) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(hb)) + hb + b"".join(chunks))


def test_container_loads_file_from_independent_writer(backend, tmp_path):
    names = _dtypes_on(backend)
    vals = {n: _values(n, (4, 2, 1) if i % 2 else (5,), 30 + i) for i, n in enumerate(names)}
    tensors = {f"layer{i % 2}/{n}": (CODES[n], v) for i, (n, v) in enumerate(vals.items())}
    tensors["scalar"] = ("F64", np.array(3.25))
    path = tmp_path / "ext.safetensors"
    _write_safetensors(path, tensors, metadata={"k": "v"})
    c, md = ivy.Container.load(path, with_metadata=True)
    assert md == {"k": "v"}
    assert c.keys() == ["layer0", "layer1", "scalar"]
    assert sorted(p for p, _ in c.flatten()) == sorted(tensors)
    for name, (code, v) in tensors.items():
        x = c[name]
        assert str(x.dtype) == (next(n for n in CODES if CODES[n] == code)), name
        _same_bits(_np_of(x), v.astype(np.float32) if code == "BF16" else v)


def test_container_load_rejects_corrupt_files(backend, tmp_path):
    good = tmp_path / "good.safetensors"
    ivy.Container({"a": ivy.asarray(np.arange(10.0)), "b": ivy.asarray([1, 2, 3])}).save(good)
    raw = good.read_bytes()
    (n,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8:8 + n])

    def bad(name, content):
        p = tmp_path / name
        p.write_bytes(content)
        with pytest.raises(ValueError) as e:
            ivy.Container.load(p)
        assert str(e.value).startswith("[load]"), str(e.value)
        assert name in str(e.value)  # the message names the file
        return str(e.value)

    bad("truncated_data.st", raw[:-5])
    bad("truncated_header.st", raw[:8 + n // 2])
    bad("short.st", raw[:5])
    bad("empty.st", b"")
    bad("huge_length.st", struct.pack("<Q", 2**40) + raw[8:])
    bad("not_json.st", struct.pack("<Q", 8) + b"{nojson}")
    bad("not_object.st", struct.pack("<Q", 8) + b"[1, 2] ")
    h2 = dict(header)
    h2["a"] = dict(h2["a"], dtype="F99")
    hb = json.dumps(h2).encode()
    bad("bad_dtype.st", struct.pack("<Q", len(hb)) + hb + raw[8 + n:])
    h3 = dict(header)
    h3["a"] = dict(h3["a"], shape=[11])
    hb = json.dumps(h3).encode()
    bad("bad_shape.st", struct.pack("<Q", len(hb)) + hb + raw[8 + n:])
    bad("trailing.st", raw + b"\0" * 8)
    with pytest.raises(ValueError, match=r"^\[load\]"):
        ivy.Container.load(tmp_path / "does_not_exist.safetensors")

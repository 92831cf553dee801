"""ivy.nn: neural-network functions (C++ ivy::nn) with torch.nn.functional's argument names.

Every function runs on every backend (the backend of its input arrays) and is
differentiable with ivy.grad / ivy.vjp. Differences from torch.nn.functional:

- Layout: inputs are channels-first, [N, C, *spatial], or channels-last, [N, *spatial, C],
  with channels_last=True (convolutions and pooling); the norms take channel_axis (1 or -1).
  Weights keep torch's layout in both. Inputs need the batch axis.
- padding of convolutions and pooling: an int, a tuple of ints (one per spatial axis),
  "SAME" / "VALID" (any case; SAME puts the odd element after, as TensorFlow, for any
  stride), or a sequence of (before, after) pairs, one per spatial axis.
- Losses take reduction="none" | "mean" | "sum" ("batchmean" for kl_div) but not the
  deprecated size_average / reduce.
- batch_norm / instance_norm update the running statistics "in place" like torch: when
  training with running_mean / running_var given, those Python arrays are rebound to the
  new statistics (as `x += y` rebinds x); other references to the old arrays (e.g. a
  Container holding them) keep the old values.
- one_hot returns float32 unless dtype is given (torch: int64).
- The weight of nll_loss / cross_entropy receives a gradient (torch gives none).

Errors are ValueError / TypeError / IndexError / NotImplementedError whose messages start
with "[nn.<function>]".
"""

from . import _ivy as _C

_N = _C.nn

__all__ = [
    # linear, convolution, pooling
    "linear", "conv", "conv1d", "conv2d", "conv3d", "depthwise_conv2d",
    "conv_transpose", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d",
    "max_pool", "max_pool1d", "max_pool2d", "max_pool3d",
    "avg_pool", "avg_pool1d", "avg_pool2d", "avg_pool3d",
    "adaptive_avg_pool", "adaptive_avg_pool1d", "adaptive_avg_pool2d", "adaptive_avg_pool3d",
    # activations
    "relu", "leaky_relu", "elu", "gelu", "silu", "softplus", "sigmoid", "hard_sigmoid", "hardsigmoid",
    "hardswish", "mish", "softmax", "log_softmax",
    # losses
    "cross_entropy", "nll_loss", "binary_cross_entropy", "binary_cross_entropy_with_logits", "mse_loss",
    "l1_loss", "huber_loss", "smooth_l1_loss", "kl_div",
    # normalization, dropout, embedding
    "batch_norm", "instance_norm", "layer_norm", "group_norm", "dropout", "embedding", "one_hot",
    # padding, resampling
    "pad", "pad_axes", "interpolate",
    # attention, recurrent
    "scaled_dot_product_attention", "multi_head_attention", "lstm_cell", "gru_cell", "lstm", "gru",
]

Container = _C.Container


# ================================================================ linear, convolution
def linear(x, weight, bias=None):
    """x @ weight.T + bias, weight [out, in] (torch's layout)."""
    return _N.linear(x, weight, bias)


def conv(x, w, bias=None, stride=1, padding=0, dilation=1, groups=1, channels_last=False):
    """Cross-correlation over 1 to 3 spatial axes (from x's rank): x [N, C, *S] (or
    [N, *S, C] with channels_last), w [O, C/groups, *K], bias [O]."""
    return _N.conv(x, w, bias, stride, padding, dilation, groups, channels_last)


def conv1d(x, w, bias=None, stride=1, padding=0, dilation=1, groups=1, channels_last=False):
    return _N.conv1d(x, w, bias, stride, padding, dilation, groups, channels_last)


def conv2d(x, w, bias=None, stride=1, padding=0, dilation=1, groups=1, channels_last=False):
    """torch.nn.functional.conv2d; padding also takes "SAME" with any stride and
    [(top, bottom), (left, right)]; channels_last=True takes and returns NHWC."""
    return _N.conv2d(x, w, bias, stride, padding, dilation, groups, channels_last)


def conv3d(x, w, bias=None, stride=1, padding=0, dilation=1, groups=1, channels_last=False):
    return _N.conv3d(x, w, bias, stride, padding, dilation, groups, channels_last)


def depthwise_conv2d(x, w, bias=None, stride=1, padding=0, dilation=1, channels_last=False):
    """conv2d with groups = channels: w [C * multiplier, 1, kH, kW]."""
    return _N.depthwise_conv2d(x, w, bias, stride, padding, dilation, channels_last)


def conv_transpose(x, w, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1,
                   channels_last=False):
    """The transposed convolution over 1 to 3 spatial axes: w [C_in, C_out/groups, *K];
    padding is symmetric per axis (an int or one per axis), as torch."""
    return _N.conv_transpose(x, w, bias, stride, padding, output_padding, groups, dilation, channels_last)


def conv_transpose1d(x, w, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1,
                     channels_last=False):
    return _N.conv_transpose1d(x, w, bias, stride, padding, output_padding, groups, dilation, channels_last)


def conv_transpose2d(x, w, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1,
                     channels_last=False):
    return _N.conv_transpose2d(x, w, bias, stride, padding, output_padding, groups, dilation, channels_last)


def conv_transpose3d(x, w, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1,
                     channels_last=False):
    return _N.conv_transpose3d(x, w, bias, stride, padding, output_padding, groups, dilation, channels_last)


# ================================================================ pooling
def max_pool(x, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False,
             channels_last=False):
    """Window maxima over 1 to 3 spatial axes; stride None: the window. return_indices=True
    also returns torch's indices (int64: the flat position of each maximum in its spatial
    plane)."""
    return _N.max_pool(x, kernel_size, stride, padding, dilation, ceil_mode, return_indices, channels_last)


def max_pool1d(x, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False,
               channels_last=False):
    return _N.max_pool1d(x, kernel_size, stride, padding, dilation, ceil_mode, return_indices, channels_last)


def max_pool2d(x, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False,
               channels_last=False):
    return _N.max_pool2d(x, kernel_size, stride, padding, dilation, ceil_mode, return_indices, channels_last)


def max_pool3d(x, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False,
               channels_last=False):
    return _N.max_pool3d(x, kernel_size, stride, padding, dilation, ceil_mode, return_indices, channels_last)


def avg_pool(x, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True, channels_last=False):
    """Window means over 1 to 3 spatial axes, torch's divisor rules (count_include_pad,
    ceil_mode)."""
    return _N.avg_pool(x, kernel_size, stride, padding, ceil_mode, count_include_pad, channels_last)


def avg_pool1d(x, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True, channels_last=False):
    return _N.avg_pool1d(x, kernel_size, stride, padding, ceil_mode, count_include_pad, channels_last)


def avg_pool2d(x, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True, channels_last=False):
    return _N.avg_pool2d(x, kernel_size, stride, padding, ceil_mode, count_include_pad, channels_last)


def avg_pool3d(x, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True, channels_last=False):
    return _N.avg_pool3d(x, kernel_size, stride, padding, ceil_mode, count_include_pad, channels_last)


def adaptive_avg_pool(x, output_size, channels_last=False):
    """Means over output_size bins per spatial axis (an int for every axis, or one each)."""
    return _N.adaptive_avg_pool(x, output_size, channels_last)


def adaptive_avg_pool1d(x, output_size, channels_last=False):
    return _N.adaptive_avg_pool1d(x, output_size, channels_last)


def adaptive_avg_pool2d(x, output_size, channels_last=False):
    return _N.adaptive_avg_pool2d(x, output_size, channels_last)


def adaptive_avg_pool3d(x, output_size, channels_last=False):
    return _N.adaptive_avg_pool3d(x, output_size, channels_last)


# ================================================================ activations
def relu(x):
    return _N.relu(x)


def leaky_relu(x, negative_slope=0.01):
    return _N.leaky_relu(x, negative_slope)


def elu(x, alpha=1.0):
    return _N.elu(x, alpha)


def gelu(x, approximate="none"):
    """x * Phi(x); approximate="tanh" (or True) uses the tanh form."""
    return _N.gelu(x, approximate)


def silu(x):
    return _N.silu(x)


def softplus(x, beta=1.0, threshold=20.0):
    return _N.softplus(x, beta, threshold)


def sigmoid(x):
    return _N.sigmoid(x)


def hard_sigmoid(x):
    """relu6(x + 3) / 6 (torch's hardsigmoid)."""
    return _N.hard_sigmoid(x)


hardsigmoid = hard_sigmoid


def hardswish(x):
    return _N.hardswish(x)


def mish(x):
    return _N.mish(x)


def softmax(x, axis=-1):
    return _N.softmax(x, axis)


def log_softmax(x, axis=-1):
    return _N.log_softmax(x, axis)


# ================================================================ losses
def cross_entropy(input, target, weight=None, ignore_index=-100, reduction="mean", label_smoothing=0.0):  # noqa: A002
    """Logits [N, C, ...] (or [C]) with integer class targets [N, ...] or class
    probabilities of the logits' shape."""
    return _N.cross_entropy(input, target, weight, ignore_index, reduction, label_smoothing)


def nll_loss(input, target, weight=None, ignore_index=-100, reduction="mean"):  # noqa: A002
    return _N.nll_loss(input, target, weight, ignore_index, reduction)


def binary_cross_entropy(input, target, weight=None, reduction="mean"):  # noqa: A002
    return _N.binary_cross_entropy(input, target, weight, reduction)


def binary_cross_entropy_with_logits(input, target, weight=None, reduction="mean", pos_weight=None):  # noqa: A002
    return _N.binary_cross_entropy_with_logits(input, target, weight, reduction, pos_weight)


def mse_loss(input, target, reduction="mean"):  # noqa: A002
    return _N.mse_loss(input, target, reduction)


def l1_loss(input, target, reduction="mean"):  # noqa: A002
    return _N.l1_loss(input, target, reduction)


def huber_loss(input, target, reduction="mean", delta=1.0):  # noqa: A002
    return _N.huber_loss(input, target, reduction, delta)


def smooth_l1_loss(input, target, reduction="mean", beta=1.0):  # noqa: A002
    return _N.smooth_l1_loss(input, target, reduction, beta)


def kl_div(input, target, reduction="mean", log_target=False):  # noqa: A002
    """reduction "batchmean" divides the sum by the batch size (the true KL divergence)."""
    return _N.kl_div(input, target, reduction, log_target)


# ================================================================ normalization
def batch_norm(x, running_mean, running_var, weight=None, bias=None, training=False, momentum=0.1, eps=1e-5,
               channel_axis=1):
    """Returns the normalized x. Training with running_mean / running_var given updates
    them as torch does: running = (1 - momentum) running + momentum batch_stat (unbiased
    variance), by rebinding the given Python arrays to the new values."""
    return _N.batch_norm(x, running_mean, running_var, weight, bias, training, momentum, eps, channel_axis)


def instance_norm(x, running_mean=None, running_var=None, weight=None, bias=None, use_input_stats=True,
                  momentum=0.1, eps=1e-5, channel_axis=1):
    """Per sample and channel over the spatial axes; running statistics, when given and
    use_input_stats, are updated (rebound) as in batch_norm."""
    return _N.instance_norm(x, running_mean, running_var, weight, bias, use_input_stats, momentum, eps, channel_axis)


def layer_norm(x, normalized_shape, weight=None, bias=None, eps=1e-5):
    return _N.layer_norm(x, normalized_shape, weight, bias, eps)


def group_norm(x, num_groups, weight=None, bias=None, eps=1e-5, channel_axis=1):
    return _N.group_norm(x, num_groups, weight, bias, eps, channel_axis)


# ================================================================ dropout, embedding, one_hot
def dropout(x, p=0.5, training=True, seed=None):
    """Zeroes elements with probability p and scales the rest by 1 / (1 - p). seed=None
    uses the backend's generator (ivy.seed); an int seed gives the same mask on every
    backend and call."""
    return _N.dropout(x, p, training, seed)


def embedding(input, weight):  # noqa: A002
    """weight[input]: integer indices -> input.shape + [embedding_dim]."""
    return _N.embedding(input, weight)


def one_hot(x, num_classes=-1, dtype=None):
    """x.shape + [num_classes] (-1: max(x) + 1), float32 unless dtype is given."""
    return _N.one_hot(x, num_classes, dtype)


# ================================================================ padding, resampling
def pad(x, pad, mode="constant", value=0.0):  # noqa: A002
    """torch.nn.functional.pad: `pad` lists (before, after) amounts from the LAST axis
    backwards; modes "constant", "reflect", "replicate", "circular"; negative amounts crop."""
    return _N.pad(x, pad, mode, value)


def pad_axes(x, pad_width, mode="constant", value=0.0):
    """As pad, with one (before, after) pair per axis in axis order (NumPy's pad_width)."""
    return _N.pad_axes(x, pad_width, mode, value)


def interpolate(x, size=None, scale_factor=None, mode="nearest", align_corners=None, recompute_scale_factor=None):
    """torch.nn.functional.interpolate (antialias=False) over [N, C, *spatial]; modes
    "nearest", "nearest-exact", "area", "linear", "bilinear", "bicubic", "trilinear"."""
    return _N.interpolate(x, size, scale_factor, mode, align_corners, recompute_scale_factor)


# ================================================================ attention, recurrent
def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False, scale=None):
    """softmax(query @ key^T * scale + mask) @ value (torch 2's signature; dropout_p must be
    0). A bool attn_mask is True where attending is allowed."""
    return _N.scaled_dot_product_attention(query, key, value, attn_mask, dropout_p, is_causal, scale)


def multi_head_attention(query, key, value, num_heads, in_proj_weight, in_proj_bias, out_proj_weight, out_proj_bias,
                         key_padding_mask=None, attn_mask=None, need_weights=True, average_attn_weights=True,
                         bias_k=None, bias_v=None, add_zero_attn=False, q_proj_weight=None, k_proj_weight=None,
                         v_proj_weight=None):
    """nn.MultiheadAttention(batch_first=True) in eval mode: query [N, L, E] -> (output
    [N, L, E], attention weights or None). Bool masks are True where NOT allowed (torch's)."""
    return _N.multi_head_attention(query, key, value, num_heads, in_proj_weight, in_proj_bias, out_proj_weight,
                                   out_proj_bias, key_padding_mask, attn_mask, need_weights, average_attn_weights,
                                   bias_k, bias_v, add_zero_attn, q_proj_weight, k_proj_weight, v_proj_weight)


def lstm_cell(x, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    """One LSTM step (gates i, f, g, o): hx = (h, c) -> (h', c')."""
    return _N.lstm_cell(x, tuple(hx), w_ih, w_hh, b_ih, b_hh)


def gru_cell(x, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    """One GRU step (gates r, z, n): hx = h -> h'."""
    return _N.gru_cell(x, hx, w_ih, w_hh, b_ih, b_hh)


def lstm(x, weights, num_layers=1, bidirectional=False, hx=None):
    """nn.LSTM(batch_first=True) in eval mode: x [N, T, F]; weights: one tuple (w_ih, w_hh[,
    b_ih, b_hh]) per layer and direction (forward first); hx = (h0, c0) or None ->
    (output [N, T, D*H], (h_n, c_n))."""
    return _N.lstm(x, weights, num_layers, bidirectional, hx)


def gru(x, weights, num_layers=1, bidirectional=False, hx=None):
    """nn.GRU(batch_first=True) in eval mode -> (output, h_n); weights as in lstm."""
    return _N.gru(x, weights, num_layers, bidirectional, hx)

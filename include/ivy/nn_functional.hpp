// Neural-network functions built from ivy:: array functions only (namespace ivy::nn):
// activations, losses, normalization, dropout, embedding and one_hot. Being compositions of
// primitives, they run on every backend, and ivy's autodiff (ivy/autodiff.hpp) differentiates
// them in both modes; the forms are chosen so that gradients are finite for large |x| and
// follow PyTorch at kinks (relu'(0) = 0, leaky_relu'(0) = negative_slope, elu'(0) = alpha,
// hardsigmoid'(+-3) = 0, hardswish'(-3) = -0.5, hardswish'(3) = 1, l1'(0) = 0).
//
// Semantics are PyTorch 1.13's (torch.nn.functional), checked against fixtures written by
// tests/gen_nn_fixtures.py. Errors are ivy::ValueError / ivy::TypeError / ivy::IndexError
// whose messages start with "[nn.<name>]".
//
// Layout: a class axis / channel axis is an argument where PyTorch fixes it to 1; norms take
// channel_axis = 1 (NCHW) or -1 (NHWC). An undefined Array means "absent" for the optional
// arrays (weight, bias, running statistics, pos_weight).
#pragma once

#include <cstdint>
#include <optional>

#include "ivy/array.hpp"

namespace ivy::nn {

// ---------------------------------------------------------------- activations
// Every activation needs a real floating x and keeps its shape and dtype.
Array relu(const Array& x);                                   // max(x, 0); relu'(0) = 0
Array leaky_relu(const Array& x, double negative_slope = 0.01);
Array elu(const Array& x, double alpha = 1.0);                // x > 0 ? x : alpha (e^x - 1)
// x * Phi(x); approximate: the tanh form 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))).
// The exact form evaluates erfc from a fitted expansion (relative error ~1e-14 in float64;
// no erf primitive exists in ivy), differentiated like any other composition.
Array gelu(const Array& x, bool approximate = false);
// The error function of a real floating array: its Maclaurin series below |x| = 0.5, 1 - erfc
// above with gelu's erfc (relative error about 1e-14 in float64, 1e-7 in float32).
Array erf(const Array& x);
Array silu(const Array& x);                                   // x * sigmoid(x)
// (1/beta) log(1 + e^(beta x)), and x itself where beta x > threshold (as torch).
Array softplus(const Array& x, double beta = 1.0, double threshold = 20.0);
Array sigmoid(const Array& x);                                // stable for both signs
Array hard_sigmoid(const Array& x);                           // relu6(x + 3) / 6
Array hardswish(const Array& x);                              // x relu6(x + 3) / 6
Array mish(const Array& x);                                   // x tanh(softplus(x))
// Along `axis` (negative counts from the end); shifted by the (gradient-free) maximum.
Array softmax(const Array& x, std::int64_t axis = -1);
Array log_softmax(const Array& x, std::int64_t axis = -1);

// ---------------------------------------------------------------- losses
// None: the elementwise loss; Mean: its mean (weighted where a loss says so; NaN over zero
// elements, as torch); Sum: its sum; BatchMean: kl_div only, the sum divided by the batch
// size (the size of axis 0).
enum class Reduction { None, Mean, Sum, BatchMean };

// Class-index targets: logits / log-probabilities [N, C, d1, ...] (or [C] unbatched) with
// integer targets [N, d1, ...] (or 0-d) in [0, C), or equal to ignore_index (contributes
// nothing and is left out of the mean's denominator). Mean divides by the sum of the targets'
// class weights (their count without weights). A target outside [0, C) that is not
// ignore_index throws IndexError (checked with one host read of a reduction). The weight
// receives a gradient too (torch gives none).
struct NllLossOptions {
  Array weight;                    // [C], x's dtype; absent: all ones
  std::int64_t ignore_index = -100;
  Reduction reduction = Reduction::Mean;
};
Array nll_loss(const Array& log_probs, const Array& target, const NllLossOptions& options = {});
Array nll_loss(const Array& log_probs, const Array& target, const Array& weight, std::int64_t ignore_index = -100,
               Reduction reduction = Reduction::Mean);

// cross_entropy = nll_loss(log_softmax(logits, class axis), target) for class indices; or,
// for a floating target of the logits' shape, class probabilities:
// -sum_c weight_c target_c log_softmax_c (Mean: over the N * d1 * ... positions, unweighted).
// label_smoothing eps in [0, 1] mixes the target with the uniform distribution: for indices
// (1 - eps) * nll + eps / C * (-sum_c weight_c log_softmax_c), reduced as torch 1.13 does
// (ignored positions give 0; Mean divides by the same denominator as nll); for
// probabilities target <- target (1 - eps) + eps / C.
struct CrossEntropyOptions {
  Array weight;                    // [C], x's dtype; absent: all ones
  std::int64_t ignore_index = -100;  // class-index targets only
  double label_smoothing = 0.0;
  Reduction reduction = Reduction::Mean;
};
Array cross_entropy(const Array& logits, const Array& target, const CrossEntropyOptions& options = {});

// -weight (t log p + (1 - t) log(1 - p)), each log clamped to >= -100 (as torch). The
// gradient is torch's: weight (p - t) / max(p (1 - p), 1e-12) for p, and
// weight (log(1 - p) - log p) (clamped logs) for t; finite at p = 0 and p = 1.
// weight broadcasts to p's shape; target must have p's shape and dtype.
Array binary_cross_entropy(const Array& p, const Array& target, const Array& weight = {},
                           Reduction reduction = Reduction::Mean);

// weight ((1 - t) x + (1 + (pos_weight - 1) t) softplus(-x)), stable for any x.
// pos_weight broadcasts against the target (usually [C] along the last axis).
struct BceWithLogitsOptions {
  Array weight;
  Array pos_weight;
  Reduction reduction = Reduction::Mean;
};
Array binary_cross_entropy_with_logits(const Array& logits, const Array& target,
                                       const BceWithLogitsOptions& options = {});
Array binary_cross_entropy_with_logits(const Array& logits, const Array& target, const Array& weight,
                                       const Array& pos_weight = {}, Reduction reduction = Reduction::Mean);

// Elementwise regression losses; input and target need the same shape and floating dtype.
Array mse_loss(const Array& input, const Array& target, Reduction reduction = Reduction::Mean);
Array l1_loss(const Array& input, const Array& target, Reduction reduction = Reduction::Mean);
// |d| < delta ? d^2 / 2 : delta (|d| - delta / 2); delta > 0.
Array huber_loss(const Array& input, const Array& target, double delta = 1.0, Reduction reduction = Reduction::Mean);
// |d| < beta ? d^2 / (2 beta) : |d| - beta / 2; beta >= 0 (0: l1_loss, whose derivative at
// d = 0 is 0; torch's smooth_l1 kernel gives -1 there, to input and target alike).
Array smooth_l1_loss(const Array& input, const Array& target, double beta = 1.0,
                     Reduction reduction = Reduction::Mean);
// Pointwise target (log target - input) with 0 where target == 0 (log_target: exp(target)
// (target - input)). Mean is torch's elementwise mean; BatchMean divides the sum by the size
// of axis 0 (the mathematically correct KL divergence per sample). The target's gradient at
// target == 0 is -input (torch: NaN).
Array kl_div(const Array& input, const Array& target, Reduction reduction = Reduction::Mean, bool log_target = false);

// ---------------------------------------------------------------- normalization
// The normalized output and the running statistics after the call (the given arrays when
// they were not updated; undefined when absent). The statistics carry no gradient.
struct NormResult {
  Array output, running_mean, running_var;
};

// x [N, C, ...] (channel_axis 1) or [N, ..., C] (channel_axis -1), statistics per channel
// over every other axis. Training, or running statistics absent: normalize with the batch's
// mean and biased variance, and (training with statistics) update
//   running = (1 - momentum) running + momentum batch_stat   (variance unbiased).
// Otherwise normalize with the running statistics. weight, bias, running_*: [C], x's dtype.
// Training needs more than one value per channel; an empty batch returns an empty output
// and the statistics unchanged (as torch).
NormResult batch_norm(const Array& x, const Array& running_mean, const Array& running_var, const Array& weight = {},
                      const Array& bias = {}, bool training = false, double momentum = 0.1, double eps = 1e-5,
                      std::int64_t channel_axis = 1);

// Normalizes over the trailing axes given by normalized_shape (x's last dims must equal it);
// weight and bias have shape normalized_shape.
Array layer_norm(const Array& x, const Dims& normalized_shape, const Array& weight = {}, const Array& bias = {},
                 double eps = 1e-5);

// Splits the C channels into num_groups groups of C / num_groups channels and normalizes
// each sample's group over its channels and every spatial axis. weight, bias: [C].
Array group_norm(const Array& x, std::int64_t num_groups, const Array& weight = {}, const Array& bias = {},
                 double eps = 1e-5, std::int64_t channel_axis = 1);

// Per sample and channel over the spatial axes. use_input_stats: normalize with the
// instance statistics and (with running statistics) update them with their mean over the
// batch, as torch; otherwise normalize with the running statistics (then required).
NormResult instance_norm(const Array& x, const Array& running_mean = {}, const Array& running_var = {},
                         const Array& weight = {}, const Array& bias = {}, bool use_input_stats = true,
                         double momentum = 0.1, double eps = 1e-5, std::int64_t channel_axis = 1);

// ---------------------------------------------------------------- dropout, embedding
// Zeroes each element with probability p and scales the kept ones by 1 / (1 - p); the mask
// carries no gradient. Identity when !training or p == 0; x * 0 when p == 1. p in [0, 1].
// Without a seed the mask comes from ivy::random_uniform on x's backend (that backend's
// generator: reproducible after ivy::seed on the same backend, different across backends).
// With a seed the mask is a counter-based hash of (seed, flat element index) computed with
// ivy integer ops: the same seed gives the same mask on every backend and for every call,
// independent of the backends' generators (vary the seed per step).
Array dropout(const Array& x, double p = 0.5, bool training = true, std::optional<std::uint64_t> seed = std::nullopt);

// weight[indices]: integer indices of any shape in [0, num_embeddings) -> indices.shape +
// [embedding_dim]. The gradient goes to weight's rows (summed over repeats). Indices out of
// range throw IndexError (one host read).
Array embedding(const Array& indices, const Array& weight);

// indices.shape + [num_classes], 1 where the last index equals the value. num_classes -1:
// one more than the largest index. Reads the indices' min and max on the host (range check);
// carries no gradient.
Array one_hot(const Array& indices, std::int64_t num_classes = -1, DType dtype = DType::float32);

}  // namespace ivy::nn

// The sequence layers of include/ivy/nn_layers_seq.hpp (LSTM, GRU, MultiHeadAttention,
// TransformerEncoderLayer) over ivy::nn::lstm / gru / multi_head_attention and the layers of
// module.hpp. Parameters are registered under LibTorch's names and in its order, so a
// LibTorch state dict maps onto them one to one.
#include "ivy/nn_layers_seq.hpp"

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "ivy/functional.hpp"
#include "ivy/nn_functional.hpp"

namespace ivy::nn {
namespace {
std::string num(std::int64_t v) { return std::to_string(v); }

// Independent dropout seed streams for the several dropouts of one layer: Dropout uses
// seed + call number, so the bases are spread far apart (odd multiples of 2^64 / phi).
std::uint64_t sub_seed(std::uint64_t seed, std::uint64_t k) { return seed + k * 0x9e3779b97f4a7c15ULL; }
}  // namespace

// ---------------------------------------------------------------- recurrent layers
RecurrentBase::RecurrentBase(const char* name, std::int64_t gates, std::int64_t input_size, std::int64_t hidden_size,
                             std::int64_t num_layers, bool bias, bool bidirectional, const init::Where& where)
    : name_(name), input_(input_size), hidden_(hidden_size), layers_(num_layers), bias_(bias),
      bidirectional_(bidirectional) {
  if (input_size < 1 || hidden_size < 1 || num_layers < 1)
    throw ValueError("[" + name_ + "] input_size, hidden_size and num_layers must be >= 1, got " + num(input_size) +
                     ", " + num(hidden_size) + ", " + num(num_layers));
  const std::int64_t D = bidirectional ? 2 : 1;
  const double b = 1.0 / std::sqrt(static_cast<double>(hidden_size));
  for (std::int64_t l = 0; l < num_layers; ++l) {
    const std::int64_t in = l == 0 ? input_size : D * hidden_size;
    for (std::int64_t d = 0; d < D; ++d) {
      const std::string sfx = "_l" + num(l) + (d ? "_reverse" : "");
      register_parameter("weight_ih" + sfx, init::uniform(Shape{gates * hidden_size, in}, -b, b, where));
      register_parameter("weight_hh" + sfx, init::uniform(Shape{gates * hidden_size, hidden_size}, -b, b, where));
      if (bias) {
        register_parameter("bias_ih" + sfx, init::uniform(Shape{gates * hidden_size}, -b, b, where));
        register_parameter("bias_hh" + sfx, init::uniform(Shape{gates * hidden_size}, -b, b, where));
      }
    }
  }
}

std::vector<RnnWeights> RecurrentBase::weights() {
  std::vector<RnnWeights> w;
  const std::int64_t D = bidirectional_ ? 2 : 1;
  for (std::int64_t l = 0; l < layers_; ++l)
    for (std::int64_t d = 0; d < D; ++d) {
      const std::string sfx = "_l" + num(l) + (d ? "_reverse" : "");
      RnnWeights r{param("weight_ih" + sfx), param("weight_hh" + sfx), std::nullopt, std::nullopt};
      if (bias_) {
        r.b_ih = param("bias_ih" + sfx);
        r.b_hh = param("bias_hh" + sfx);
      }
      w.push_back(std::move(r));
    }
  return w;
}

void RecurrentBase::check_input(const Array& x) const {
  if (!x.defined()) throw ValueError("[" + name_ + "] the input is undefined");
  if ((x.ndim() != 2 && x.ndim() != 3) || x.shape()[static_cast<std::size_t>(x.ndim() - 1)] != input_)
    throw ValueError("[" + name_ + "] expected input [N, T, " + num(input_) + "] (batch_first) or [T, " + num(input_) +
                     "], got " + x.shape().str());
}

std::string RecurrentBase::describe() const {
  return name_ + " " + num(input_) + " -> " + num(hidden_) + ", layers " + num(layers_) +
         (bidirectional_ ? ", bidirectional" : "") + (bias_ ? "" : ", no bias");
}

LSTM::LSTM(std::int64_t input_size, std::int64_t hidden_size, std::int64_t num_layers, bool bias, bool bidirectional,
           const init::Where& where)
    : RecurrentBase("LSTM", 4, input_size, hidden_size, num_layers, bias, bidirectional, where) {}
Array LSTM::forward(const Array& x) { return forward_with_state(x).output; }
LstmResult LSTM::forward_with_state(const Array& x, const std::optional<Array>& h0, const std::optional<Array>& c0) {
  check_input(x);
  return lstm(x, weights(), layers_, bidirectional_, h0, c0);
}

GRU::GRU(std::int64_t input_size, std::int64_t hidden_size, std::int64_t num_layers, bool bias, bool bidirectional,
         const init::Where& where)
    : RecurrentBase("GRU", 3, input_size, hidden_size, num_layers, bias, bidirectional, where) {}
Array GRU::forward(const Array& x) { return forward_with_state(x).output; }
GruResult GRU::forward_with_state(const Array& x, const std::optional<Array>& h0) {
  check_input(x);
  return gru(x, weights(), layers_, bidirectional_, h0);
}

// ---------------------------------------------------------------- attention
MultiHeadAttention::MultiHeadAttention(std::int64_t embed_dim, std::int64_t num_heads, bool bias,
                                       const init::Where& where, double dropout, std::uint64_t seed)
    : embed_(embed_dim), heads_(num_heads), bias_(bias), dropout_(dropout), seed_(seed) {
  if (embed_dim < 1 || num_heads < 1 || embed_dim % num_heads != 0)
    throw ValueError("[MultiHeadAttention] embed_dim " + num(embed_dim) + " must be a positive multiple of num_heads " +
                     num(num_heads));
  if (!(dropout >= 0 && dropout <= 1))
    throw ValueError("[MultiHeadAttention] dropout must be in [0, 1], got " + std::to_string(dropout));
  const std::int64_t E = embed_dim;
  register_parameter("in_proj_weight", init::glorot_uniform(Shape{3 * E, E}, 1.0, where));
  if (bias) register_parameter("in_proj_bias", init::zeros(Shape{3 * E}, where));
  out_proj_ = register_module("out_proj", std::make_shared<Linear>(E, E, bias, where));
  if (bias) {  // LibTorch zeroes out_proj's bias and keeps Linear's default weight
    Container p = out_proj_->parameters();
    p.set("bias", init::zeros(Shape{E}, where));
    out_proj_->set_parameters(p);
  }
}

MultiHeadAttentionResult MultiHeadAttention::run(const Array& q, const Array& k, const Array& v,
                                                 const std::optional<Array>& kpm, const std::optional<Array>& am,
                                                 bool need_weights, bool average) {
  for (const Array* a : {&q, &k, &v})
    if (!a->defined()) throw ValueError("[MultiHeadAttention] query, key and value must be defined");
  if (q.ndim() < 1 || q.shape()[static_cast<std::size_t>(q.ndim() - 1)] != embed_)
    throw ValueError("[MultiHeadAttention] expected query [N, L, " + num(embed_) + "] (or [L, " + num(embed_) +
                     "]), got " + q.shape().str());
  const std::optional<Array> in_b = bias_ ? std::optional<Array>(param("in_proj_bias")) : std::nullopt;
  Container op = out_proj_->parameters();
  const Array& ow = op.at("weight").array();
  const std::optional<Array> ob = bias_ ? std::optional<Array>(op.at("bias").array()) : std::nullopt;
  const Array& w = param("in_proj_weight");
  const bool drop = training() && dropout_ > 0;
  if (!drop) {
    MultiHeadAttentionExtras ex;
    ex.average_attn_weights = average;
    return multi_head_attention(q, k, v, heads_, w, in_b, ow, ob, kpm, am, need_weights, ex);
  }
  // Training with dropout: the per-head weights P [N, H, L, S] from the function (which
  // validates shapes and applies the masks), then out_proj(concat_h(dropout(P_h) V_h)),
  // with V = value W_v^T + b_v as the function computes it.
  MultiHeadAttentionExtras ex;
  ex.average_attn_weights = false;
  MultiHeadAttentionResult r = multi_head_attention(q, k, v, heads_, w, in_b, ow, ob, kpm, am, true, ex);
  const bool batched = q.ndim() == 3;
  const Array P = batched ? *r.weights : expand_dims(*r.weights, 0);
  const Array vb = batched ? v : expand_dims(v, 0);
  const std::int64_t E = embed_, H = heads_, hd = E / H, N = vb.shape()[0], S = vb.shape()[1],
                     L = P.shape()[2];
  Array vp = matmul(vb, matrix_transpose(w.index({Slice(2 * E, 3 * E)})));
  if (in_b) vp = vp + in_b->index({Slice(2 * E, 3 * E)});
  const Array vh = permute_dims(reshape(vp, Shape{N, S, H, hd}), Dims{0, 2, 1, 3});
  const Array pd = dropout(P, dropout_, true, seed_ + calls_++);
  Array out = reshape(permute_dims(matmul(pd, vh), Dims{0, 2, 1, 3}), Shape{N, L, E});
  out = linear(out, ow, ob ? *ob : Array());
  MultiHeadAttentionResult res;
  res.output = batched ? out : squeeze(out, 0);
  if (need_weights) {
    Array wts = average ? sum(*r.weights, batched ? 1 : 0) / static_cast<double>(H) : *r.weights;
    res.weights = wts;
  }
  return res;
}

Array MultiHeadAttention::forward(const Array& x) { return run(x, x, x, std::nullopt, std::nullopt, false, true).output; }
Array MultiHeadAttention::forward(const Array& q, const Array& k, const Array& v, const std::optional<Array>& kpm,
                                  const std::optional<Array>& am) {
  return run(q, k, v, kpm, am, false, true).output;
}
MultiHeadAttentionResult MultiHeadAttention::forward_with_weights(const Array& q, const Array& k, const Array& v,
                                                                  const std::optional<Array>& kpm,
                                                                  const std::optional<Array>& am, bool average) {
  return run(q, k, v, kpm, am, true, average);
}
std::string MultiHeadAttention::describe() const {
  return "MultiHeadAttention " + num(embed_) + ", heads " + num(heads_) + (bias_ ? "" : ", no bias") +
         (dropout_ > 0 ? ", dropout " + std::to_string(dropout_) : "");
}

// ---------------------------------------------------------------- transformer
TransformerEncoderLayer::TransformerEncoderLayer(std::int64_t d_model, std::int64_t nhead, std::int64_t ff,
                                                 double dropout, const std::string& activation, bool norm_first,
                                                 bool batch_first, double eps, const init::Where& where,
                                                 std::uint64_t seed)
    : d_model_(d_model), nhead_(nhead), ff_(ff), norm_first_(norm_first), batch_first_(batch_first) {
  if (activation == "relu")
    gelu_ = false;
  else if (activation == "gelu")
    gelu_ = true;
  else
    throw ValueError("[TransformerEncoderLayer] activation must be \"relu\" or \"gelu\", got \"" + activation + "\"");
  if (d_model < 1 || nhead < 1 || d_model % nhead != 0 || ff < 1)
    throw ValueError("[TransformerEncoderLayer] d_model " + num(d_model) + " must be a positive multiple of nhead " +
                     num(nhead) + ", and dim_feedforward (" + num(ff) + ") >= 1");
  if (!(dropout >= 0 && dropout <= 1))
    throw ValueError("[TransformerEncoderLayer] dropout must be in [0, 1], got " + std::to_string(dropout));
  // LibTorch's registration order (its named_parameters order)
  self_attn_ = register_module("self_attn",
                               std::make_shared<MultiHeadAttention>(d_model, nhead, true, where, dropout, sub_seed(seed, 0)));
  linear1_ = register_module("linear1", std::make_shared<Linear>(d_model, ff, true, where));
  dropout_ = register_module("dropout", std::make_shared<Dropout>(dropout, sub_seed(seed, 1)));
  linear2_ = register_module("linear2", std::make_shared<Linear>(ff, d_model, true, where));
  norm1_ = register_module("norm1", std::make_shared<LayerNorm>(Dims{d_model}, eps, true, where));
  norm2_ = register_module("norm2", std::make_shared<LayerNorm>(Dims{d_model}, eps, true, where));
  dropout1_ = register_module("dropout1", std::make_shared<Dropout>(dropout, sub_seed(seed, 2)));
  dropout2_ = register_module("dropout2", std::make_shared<Dropout>(dropout, sub_seed(seed, 3)));
}

Array TransformerEncoderLayer::forward(const Array& src) { return forward(src, std::nullopt, std::nullopt); }

Array TransformerEncoderLayer::forward(const Array& src, const std::optional<Array>& mask,
                                       const std::optional<Array>& kpm) {
  if (!src.defined() || (src.ndim() != 2 && src.ndim() != 3) ||
      src.shape()[static_cast<std::size_t>(src.ndim() - 1)] != d_model_)
    throw ValueError("[TransformerEncoderLayer] expected src [N, T, " + num(d_model_) + "] (batch_first), [T, N, " +
                     num(d_model_) + "] or unbatched [T, " + num(d_model_) + "], got " +
                     (src.defined() ? src.shape().str() : std::string("undefined")));
  // sequence-first input is computed batch-first and transposed back
  const bool swap = !batch_first_ && src.ndim() == 3;
  Array x = swap ? permute_dims(src, Dims{1, 0, 2}) : src;
  auto sa = [&](const Array& h) { return dropout1_->forward(self_attn_->forward(h, h, h, kpm, mask)); };
  auto ffn = [&](const Array& h) {
    Array a = linear1_->forward(h);
    a = gelu_ ? gelu(a) : relu(a);
    return dropout2_->forward(linear2_->forward(dropout_->forward(a)));
  };
  if (norm_first_) {
    x = x + sa(norm1_->forward(x));
    x = x + ffn(norm2_->forward(x));
  } else {
    x = norm1_->forward(x + sa(x));
    x = norm2_->forward(x + ffn(x));
  }
  return swap ? permute_dims(x, Dims{1, 0, 2}) : x;
}

std::string TransformerEncoderLayer::describe() const {
  return "TransformerEncoderLayer d_model " + num(d_model_) + ", nhead " + num(nhead_) + ", feedforward " + num(ff_) +
         (gelu_ ? ", gelu" : ", relu") + (norm_first_ ? ", norm_first" : "");
}

}  // namespace ivy::nn

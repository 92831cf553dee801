// Sequence layers of ivy::nn: recurrent (LSTM, GRU), attention (MultiHeadAttention) and the
// transformer encoder block (TransformerEncoderLayer), as ivy::nn::Module subclasses over the
// functions of ivy/nn_attention_rnn.hpp. They run on every backend and train through
// ivy::nn::value_and_grad like the layers of ivy/module.hpp.
//
// Parameter names, shapes, order and default initialization follow LibTorch (torch.nn.LSTM,
// GRU, MultiheadAttention, TransformerEncoderLayer), with '/' for LibTorch's '.', so a
// torch state dict loads by name:
//   LSTM / GRU:          weight_ih_l{k}[_reverse], weight_hh_l{k}[_reverse],
//                        bias_ih_l{k}[_reverse], bias_hh_l{k}[_reverse]
//   MultiHeadAttention:  in_proj_weight, in_proj_bias, out_proj/weight, out_proj/bias
//   TransformerEncoderLayer: self_attn/..., linear1/..., linear2/..., norm1/..., norm2/...
// Errors are ivy::ValueError with a "[LSTM]", "[GRU]", "[MultiHeadAttention]" or
// "[TransformerEncoderLayer]" prefix (the functions underneath add their "[nn.*]" ones).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ivy/module.hpp"
#include "ivy/nn_attention_rnn.hpp"

namespace ivy::nn {

// ---------------------------------------------------------------- recurrent layers
// The shared part of LSTM and GRU: the weights of num_layers x D directions (D = 2 when
// bidirectional), registered layer-major with the forward direction first (LibTorch's
// order), each drawn from U(-1/sqrt(hidden), 1/sqrt(hidden)) by ivy::nn::init.
// Input is batch_first: x [N, T, input_size], or unbatched [T, input_size].
class RecurrentBase : public Module {
 public:
  std::int64_t input_size() const { return input_; }
  std::int64_t hidden_size() const { return hidden_; }
  std::int64_t num_layers() const { return layers_; }
  bool bidirectional() const { return bidirectional_; }

 protected:
  // gates: 4 (LSTM) or 3 (GRU); name: "LSTM" or "GRU" (error prefix)
  RecurrentBase(const char* name, std::int64_t gates, std::int64_t input_size, std::int64_t hidden_size,
                std::int64_t num_layers, bool bias, bool bidirectional, const init::Where& where);
  // The registered weights in the order ivy::nn::lstm / gru take them.
  std::vector<RnnWeights> weights();
  // [name] errors for an input that is not [N, T, input_size] / [T, input_size]
  void check_input(const Array& x) const;
  std::string describe() const override;

  std::string name_;
  std::int64_t input_, hidden_, layers_;
  bool bias_, bidirectional_;
};

// torch.nn.LSTM(input_size, hidden_size, num_layers, bias, batch_first=True, dropout=0,
// bidirectional) in either mode (no inter-layer dropout, no proj_size).
class LSTM : public RecurrentBase {
 public:
  LSTM(std::int64_t input_size, std::int64_t hidden_size, std::int64_t num_layers = 1, bool bias = true,
       bool bidirectional = false, const init::Where& where = {});
  // The output sequence [N, T, D * hidden_size] ([T, D * hidden_size] unbatched), from zero
  // initial states.
  Array forward(const Array& x) override;
  // The output and the final states h_n, c_n [num_layers * D, N, hidden_size] (no N when
  // unbatched); h0 and c0 (same shape) default to zeros.
  LstmResult forward_with_state(const Array& x, const std::optional<Array>& h0 = std::nullopt,
                                const std::optional<Array>& c0 = std::nullopt);
};

// torch.nn.GRU(input_size, hidden_size, num_layers, bias, batch_first=True, dropout=0,
// bidirectional).
class GRU : public RecurrentBase {
 public:
  GRU(std::int64_t input_size, std::int64_t hidden_size, std::int64_t num_layers = 1, bool bias = true,
      bool bidirectional = false, const init::Where& where = {});
  Array forward(const Array& x) override;
  // The output and the final state h_n [num_layers * D, N, hidden_size]; h0 defaults to zeros.
  GruResult forward_with_state(const Array& x, const std::optional<Array>& h0 = std::nullopt);
};

// ---------------------------------------------------------------- attention
// torch.nn.MultiheadAttention(embed_dim, num_heads, dropout, bias, batch_first=True) with
// kdim = vdim = embed_dim: in_proj_weight [3E, E] (q, k, v stacked; Xavier-uniform),
// in_proj_bias [3E] (zeros), out_proj a Linear(E, E) submodule (LibTorch's default weight,
// zero bias). query [N, L, E], key and value [N, S, E] (or unbatched [L, E], [S, E]).
// Masks as ivy::nn::multi_head_attention: key_padding_mask [N, S] (bool true = ignore that
// key, or additive float), attn_mask [L, S] or [N * num_heads, L, S] (bool true = not
// allowed, or additive float). In training mode with dropout > 0 the attention weights are
// dropped out (nn::dropout, seed stream seed + call number); in eval mode there is none.
class MultiHeadAttention : public Module {
 public:
  MultiHeadAttention(std::int64_t embed_dim, std::int64_t num_heads, bool bias = true, const init::Where& where = {},
                     double dropout = 0.0, std::uint64_t seed = 0);
  // Self-attention: forward(x, x, x).
  Array forward(const Array& x) override;
  // The attention output [N, L, E].
  Array forward(const Array& query, const Array& key, const Array& value,
                const std::optional<Array>& key_padding_mask = std::nullopt,
                const std::optional<Array>& attn_mask = std::nullopt);
  // The output and the attention weights ([N, L, S] averaged over heads, else [N, H, L, S]);
  // the weights are those before dropout.
  MultiHeadAttentionResult forward_with_weights(const Array& query, const Array& key, const Array& value,
                                                const std::optional<Array>& key_padding_mask = std::nullopt,
                                                const std::optional<Array>& attn_mask = std::nullopt,
                                                bool average_attn_weights = true);
  std::int64_t embed_dim() const { return embed_; }
  std::int64_t num_heads() const { return heads_; }
  Linear& out_proj() { return *out_proj_; }

 protected:
  std::string describe() const override;

 private:
  MultiHeadAttentionResult run(const Array& q, const Array& k, const Array& v, const std::optional<Array>& kpm,
                               const std::optional<Array>& am, bool need_weights, bool average);
  std::int64_t embed_, heads_;
  bool bias_;
  double dropout_;
  std::uint64_t seed_, calls_ = 0;
  std::shared_ptr<Linear> out_proj_;
};

// ---------------------------------------------------------------- transformer
// torch.nn.TransformerEncoderLayer(d_model, nhead, dim_feedforward, dropout, activation,
// layer_norm_eps, batch_first, norm_first):
//   norm_first = false:  x = norm1(x + dropout1(self_attn(x)));  x = norm2(x + dropout2(ff(x)))
//   norm_first = true:   x = x + dropout1(self_attn(norm1(x)));  x = x + dropout2(ff(norm2(x)))
//   ff(x) = linear2(dropout(activation(linear1(x)))),  activation "relu" or "gelu" (exact)
// Submodules self_attn (MultiHeadAttention with the same dropout on its weights), linear1,
// dropout, linear2, norm1, norm2, dropout1, dropout2. Dropout acts only in training mode,
// each with its own seed stream derived from `seed`. x [N, T, d_model] (batch_first) or
// [T, N, d_model], or unbatched [T, d_model].
class TransformerEncoderLayer : public Module {
 public:
  TransformerEncoderLayer(std::int64_t d_model, std::int64_t nhead, std::int64_t dim_feedforward = 2048,
                          double dropout = 0.1, const std::string& activation = "relu", bool norm_first = false,
                          bool batch_first = true, double layer_norm_eps = 1e-5, const init::Where& where = {},
                          std::uint64_t seed = 0);
  Array forward(const Array& src) override;
  // src_mask: attn_mask [T, T] or [N * nhead, T, T]; src_key_padding_mask [N, T] (as
  // MultiHeadAttention's).
  Array forward(const Array& src, const std::optional<Array>& src_mask,
                const std::optional<Array>& src_key_padding_mask = std::nullopt);

 protected:
  std::string describe() const override;

 private:
  std::int64_t d_model_, nhead_, ff_;
  bool gelu_, norm_first_, batch_first_;
  std::shared_ptr<MultiHeadAttention> self_attn_;
  std::shared_ptr<Linear> linear1_, linear2_;
  std::shared_ptr<Dropout> dropout_, dropout1_, dropout2_;
  std::shared_ptr<LayerNorm> norm1_, norm2_;
};

}  // namespace ivy::nn

// ivy::nn attention and recurrent cells, written with ivy:: array functions only: they run on
// every backend, and ivy's autodiff differentiates them.
//
// Errors are ivy::ValueError (shapes, options) or ivy::TypeError (dtypes) whose message
// starts with "[nn.<function>]" and names the shapes involved.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "ivy/functional.hpp"

namespace ivy::nn {

// ---------------------------------------------------------------- attention
// softmax(query @ key^T * scale + mask) @ value, as torch 2's
// F.scaled_dot_product_attention without dropout:
//   query [..., L, E], key [..., S, E], value [..., S, Ev] -> [..., L, Ev]; the leading
//   (batch, head) axes broadcast.
//   attn_mask: broadcastable to [..., L, S]; bool: true = this query may attend to this key
//     (false entries get -inf); floating: added to the scores.
//   is_causal: query i attends to keys j <= i (the top-left aligned lower triangle of an
//     L x S matrix); cannot be combined with attn_mask.
//   scale: defaults to 1 / sqrt(E).
// The softmax subtracts each row's maximum (under stop_gradient) before exp; a row whose
// keys are all masked gives NaN, as in torch.
Array scaled_dot_product_attention(const Array& query, const Array& key, const Array& value,
                                   const std::optional<Array>& attn_mask = std::nullopt, bool is_causal = false,
                                   std::optional<double> scale = std::nullopt);

// The less common arguments of torch.nn.functional.multi_head_attention_forward.
struct MultiHeadAttentionExtras {
  bool average_attn_weights = true;  // weights averaged over heads [N, L, S], else [N, H, L, S]
  // bias_k / bias_v [1, 1, E]: one extra key and value appended to every sequence (masks
  // get a column that does not mask it)
  std::optional<Array> bias_k, bias_v;
  bool add_zero_attn = false;  // then one all-zero key and value appended per head
  // use_separate_proj_weight: [E, E], [E, kdim], [E, vdim] (in_proj_weight is then ignored
  // and may be absent; in_proj_bias, when given, is still [3E] in q, k, v order)
  std::optional<Array> q_proj_weight, k_proj_weight, v_proj_weight;
};
struct MultiHeadAttentionResult {
  Array output;                  // [N, L, E] ([L, E] for unbatched input)
  std::optional<Array> weights;  // with need_weights: [N, L, S] or [N, H, L, S] (no N when unbatched)
};
// torch.nn.functional.multi_head_attention_forward in eval mode (no dropout), with the
// batch_first=True layout of nn.MultiheadAttention: query [N, L, E], key [N, S, kdim],
// value [N, S, vdim] (kdim = vdim = E with the packed in_proj_weight [3E, E] in q, k, v
// order), or the unbatched [L, E], [S, E], [S, E].
//   in_proj_bias [3E]; out_proj_weight [E, E]; out_proj_bias [E].
//   key_padding_mask [N, S] ([S] unbatched): bool true = IGNORE that key; floating: added.
//   attn_mask [L, S] or [N * num_heads, L, S] (row b * num_heads + h): bool true = NOT
//     allowed (note: the opposite of scaled_dot_product_attention's bool mask); floating:
//     added.
// Each head attends with scale 1/sqrt(E / num_heads); the heads are concatenated and
// projected by out_proj. Floating masks are cast to the query's dtype.
MultiHeadAttentionResult multi_head_attention(const Array& query, const Array& key, const Array& value,
                                              std::int64_t num_heads, const std::optional<Array>& in_proj_weight,
                                              const std::optional<Array>& in_proj_bias, const Array& out_proj_weight,
                                              const std::optional<Array>& out_proj_bias,
                                              const std::optional<Array>& key_padding_mask = std::nullopt,
                                              const std::optional<Array>& attn_mask = std::nullopt,
                                              bool need_weights = true, const MultiHeadAttentionExtras& extras = {});

// ---------------------------------------------------------------- recurrent cells
// One cell step, as torch.nn.functional's lstm_cell / gru_cell (torch.nn.LSTMCell, GRUCell):
// x [N, F] (or [F]), h and c [N, H] (or [H]); w_ih [G*H, F], w_hh [G*H, H], biases [G*H],
// with the gates stacked in torch's order: LSTM i, f, g, o (G = 4); GRU r, z, n (G = 3).
//   LSTM: i = sigmoid(.), f = sigmoid(.), g = tanh(.), o = sigmoid(.) of x W_ih^T + b_ih +
//         h W_hh^T + b_hh;  c' = f c + i g;  h' = o tanh(c')
//   GRU:  r, z = sigmoid(x W_i{r,z}^T + b_i{r,z} + h W_h{r,z}^T + b_h{r,z});
//         n = tanh(x W_in^T + b_in + r (h W_hn^T + b_hn));  h' = (1 - z) n + z h
struct LstmState {
  Array h, c;
};
LstmState lstm_cell(const Array& x, const LstmState& state, const Array& w_ih, const Array& w_hh,
                    const std::optional<Array>& b_ih = std::nullopt, const std::optional<Array>& b_hh = std::nullopt);
Array gru_cell(const Array& x, const Array& h, const Array& w_ih, const Array& w_hh,
               const std::optional<Array>& b_ih = std::nullopt, const std::optional<Array>& b_hh = std::nullopt);

// The weights of one layer in one direction (torch's weight_ih_l{k}[_reverse], ...).
struct RnnWeights {
  Array w_ih, w_hh;
  std::optional<Array> b_ih, b_hh;  // both or neither (torch's bias=True/False)
};
// Multi-layer LSTM / GRU as torch.nn.LSTM / GRU with batch_first=True in eval mode (no
// dropout, no proj_size):
//   x [N, T, F] (or unbatched [T, F]);
//   weights: num_layers * D entries, D = 2 when bidirectional: layer-major, the forward
//     direction first ([l0, l0_reverse, l1, l1_reverse, ...], torch's _all_weights order);
//     layer 0 takes F inputs, later layers D * H;
//   h0, c0 [num_layers * D, N, H] ([num_layers * D, H] unbatched), zeros when absent.
// Returns output [N, T, D * H] (the last layer's hidden states, forward then reverse
// direction along the last axis) and the final states [num_layers * D, N, H].
struct LstmResult {
  Array output, h_n, c_n;
};
LstmResult lstm(const Array& x, const std::vector<RnnWeights>& weights, std::int64_t num_layers,
                bool bidirectional = false, const std::optional<Array>& h0 = std::nullopt,
                const std::optional<Array>& c0 = std::nullopt);
struct GruResult {
  Array output, h_n;
};
GruResult gru(const Array& x, const std::vector<RnnWeights>& weights, std::int64_t num_layers,
              bool bidirectional = false, const std::optional<Array>& h0 = std::nullopt);

}  // namespace ivy::nn

// ivy::nn attention and recurrent cells (include/ivy/nn_attention_rnn.hpp), from ivy::
// array functions only, so they run on every backend and ivy's autodiff differentiates them.
#include "ivy/nn_attention_rnn.hpp"

#include <cmath>
#include <string>

#include "ivy/autodiff.hpp"

namespace ivy::nn {
namespace {

std::string shp(const Array& a) { return a.shape().str(); }
std::string num(std::int64_t v) { return std::to_string(v); }
std::int64_t dim(const Array& a, std::int64_t i) {
  return a.shape()[static_cast<std::size_t>(i < 0 ? a.ndim() + i : i)];
}

void require_float(const char* fn, const char* what, const Array& a) {
  if (!is_real_floating(a.dtype()))
    throw TypeError(std::string("[nn.") + fn + "] " + what + " of shape " + shp(a) +
                    " must have a real floating dtype, got " + dtype_name(a.dtype()));
}

// softmax over the last axis, shifted by the row maximum (a constant for autodiff: the
// shift cancels mathematically, so no gradient needs to flow through it).
Array softmax_last(const Array& s) {
  const Array m = ivy::stop_gradient(ivy::max(s, -1, true));
  const Array e = ivy::exp(s - m);
  return e / ivy::sum(e, -1, std::nullopt, true);
}

// A logistic sigmoid that is finite in value and gradient everywhere: with e = exp(-|x|)
// (|x| written as a where, so x = 0 still gets the derivative 1/4), 1/(1+e) for x >= 0 and
// e/(1+e) otherwise; both branches stay finite, so where() never multiplies 0 by inf.
Array sigmoid(const Array& x) {
  const Array pos = x >= 0.0;
  const Array e = ivy::exp(ivy::where(pos, -x, x));
  const Array d = 1.0 + e;
  return ivy::where(pos, 1.0 / d, e / d);
}

// x @ w^T + b: torch's linear.
Array linear(const Array& x, const Array& w, const std::optional<Array>& b) {
  Array y = ivy::matmul(x, ivy::matrix_transpose(w));
  return b ? y + *b : y;
}

// The columns [k*h, (k+1)*h) of the last axis.
Array chunk_last(const Array& x, std::int64_t k, std::int64_t h) {
  return x.index({Ellipsis, Slice(k * h, (k + 1) * h)});
}

// A bool mask as an additive float mask: -inf where `mask == masked_value`, else 0.
Array additive_from_bool(const Array& mask, bool masked_value, DType dtype) {
  const Array zeros = ivy::zeros(mask.shape(), dtype, mask.device(), mask.backend());
  const Array hit = masked_value ? mask : ivy::logical_not(mask);
  return ivy::where(hit, Scalar(-ivy::inf), zeros);
}

struct Attended {
  Array out, weights;
};

// softmax(q k^T * scale + bias) v, with `bias` an optional additive mask broadcastable to the scores.
Attended attend(const Array& q, const Array& k, const Array& v, const std::optional<Array>& bias, double scale) {
  Array scores = ivy::matmul(q, ivy::matrix_transpose(k)) * scale;
  if (bias) scores = scores + *bias;
  Array p = softmax_last(scores);
  return {ivy::matmul(p, v), p};
}

}  // namespace

// ---------------------------------------------------------------- attention
Array scaled_dot_product_attention(const Array& q, const Array& k, const Array& v,
                                   const std::optional<Array>& attn_mask, bool is_causal,
                                   std::optional<double> scale) {
  const char* fn = "scaled_dot_product_attention";
  const std::string shapes = "query " + shp(q) + ", key " + shp(k) + ", value " + shp(v);
  if (q.ndim() < 2 || k.ndim() < 2 || v.ndim() < 2)
    throw ValueError(std::string("[nn.") + fn + "] expected query [..., L, E], key [..., S, E] and value [..., S, Ev], got " +
                     shapes);
  require_float(fn, "query", q);
  require_float(fn, "key", k);
  require_float(fn, "value", v);
  if (k.dtype() != q.dtype() || v.dtype() != q.dtype())
    throw TypeError(std::string("[nn.") + fn + "] query, key and value must share a dtype, got " + dtype_name(q.dtype()) +
                    ", " + dtype_name(k.dtype()) + ", " + dtype_name(v.dtype()));
  if (dim(q, -1) != dim(k, -1))
    throw ValueError(std::string("[nn.") + fn + "] query and key must have the same embedding size E, got " + shapes);
  if (dim(k, -2) != dim(v, -2))
    throw ValueError(std::string("[nn.") + fn + "] key and value must have the same length S, got " + shapes);
  const std::int64_t L = dim(q, -2), S = dim(k, -2);
  // the scores' shape: the broadcast batch axes, then [L, S]
  Shape batch_q(q.shape().begin(), q.shape().end() - 2), batch_k(k.shape().begin(), k.shape().end() - 2),
      batch_v(v.shape().begin(), v.shape().end() - 2);
  Shape scores_shape;
  try {
    scores_shape = ivy::broadcast_shapes(std::vector<Shape>{batch_q, batch_k, batch_v});
  } catch (const ValueError&) {
    throw ValueError(std::string("[nn.") + fn + "] the batch axes of " + shapes + " do not broadcast");
  }
  scores_shape.push_back(L);
  scores_shape.push_back(S);
  const double sc = scale ? *scale : 1.0 / std::sqrt(static_cast<double>(dim(q, -1)));

  std::optional<Array> bias;
  if (is_causal && attn_mask)
    throw ValueError(std::string("[nn.") + fn + "] give either attn_mask or is_causal, not both");
  if (is_causal) {
    std::vector<bool> keep(static_cast<std::size_t>(L * S));
    for (std::int64_t i = 0; i < L; ++i)
      for (std::int64_t j = 0; j < S; ++j) keep[static_cast<std::size_t>(i * S + j)] = j <= i;
    const Array m = ivy::asarray(keep, Shape{L, S}, DType::bool_, q.device(), q.backend());
    bias = additive_from_bool(m, false, q.dtype());
  } else if (attn_mask) {
    const Array& m = *attn_mask;
    bool fits = m.ndim() <= static_cast<std::int64_t>(scores_shape.size());
    if (fits) {
      try {
        fits = ivy::broadcast_shapes(m.shape(), scores_shape) == scores_shape;
      } catch (const ValueError&) {
        fits = false;
      }
    }
    if (!fits)
      throw ValueError(std::string("[nn.") + fn + "] attn_mask of shape " + shp(m) +
                       " does not broadcast to the attention scores " + scores_shape.str() + " of " + shapes);
    if (is_bool(m.dtype()))
      bias = additive_from_bool(m, false, q.dtype());
    else if (is_real_floating(m.dtype()))
      bias = m.dtype() == q.dtype() ? m : ivy::astype(m, q.dtype());
    else
      throw TypeError(std::string("[nn.") + fn + "] attn_mask of shape " + shp(m) + " must be bool or floating, got " +
                      dtype_name(m.dtype()));
  }
  return attend(q, k, v, bias, sc).out;
}

MultiHeadAttentionResult multi_head_attention(const Array& query, const Array& key, const Array& value,
                                              std::int64_t num_heads, const std::optional<Array>& in_proj_weight,
                                              const std::optional<Array>& in_proj_bias, const Array& out_proj_weight,
                                              const std::optional<Array>& out_proj_bias,
                                              const std::optional<Array>& key_padding_mask,
                                              const std::optional<Array>& attn_mask, bool need_weights,
                                              const MultiHeadAttentionExtras& ex) {
  const std::string pre = "[nn.multi_head_attention] ";
  const std::string shapes = "query " + shp(query) + ", key " + shp(key) + ", value " + shp(value);
  const bool batched = query.ndim() == 3;
  if (!(query.ndim() == 3 || query.ndim() == 2) || key.ndim() != query.ndim() || value.ndim() != query.ndim())
    throw ValueError(pre + "expected query [N, L, E], key [N, S, kdim], value [N, S, vdim] (or unbatched [L, E], [S, E], "
                           "[S, E]), got " + shapes);
  require_float("multi_head_attention", "query", query);
  require_float("multi_head_attention", "key", key);
  require_float("multi_head_attention", "value", value);
  Array q = batched ? query : ivy::expand_dims(query, 0);
  Array k = batched ? key : ivy::expand_dims(key, 0);
  Array v = batched ? value : ivy::expand_dims(value, 0);
  const std::int64_t N = dim(q, 0), L = dim(q, 1), E = dim(q, 2);
  if (dim(k, 0) != N || dim(v, 0) != N || dim(k, 1) != dim(v, 1))
    throw ValueError(pre + "query, key and value must share the batch size N and key/value the length S, got " + shapes);
  if (num_heads <= 0 || E % num_heads != 0)
    throw ValueError(pre + "embed_dim " + num(E) + " of query " + shp(query) + " is not divisible by num_heads " +
                     num(num_heads));
  const std::int64_t hd = E / num_heads, H = num_heads;
  const bool separate = ex.q_proj_weight || ex.k_proj_weight || ex.v_proj_weight;

  // ---- input projections
  std::optional<Array> bq, bk, bv;
  if (in_proj_bias) {
    if (in_proj_bias->ndim() != 1 || dim(*in_proj_bias, 0) != 3 * E)
      throw ValueError(pre + "in_proj_bias of shape " + shp(*in_proj_bias) + " should be (" + num(3 * E) + ",) for embed_dim " +
                       num(E));
    bq = chunk_last(*in_proj_bias, 0, E);
    bk = chunk_last(*in_proj_bias, 1, E);
    bv = chunk_last(*in_proj_bias, 2, E);
  }
  if (separate) {
    if (!ex.q_proj_weight || !ex.k_proj_weight || !ex.v_proj_weight)
      throw ValueError(pre + "separate projections need q_proj_weight, k_proj_weight and v_proj_weight");
    auto check = [&](const Array& w, const char* name, std::int64_t in) {
      if (w.ndim() != 2 || dim(w, 0) != E || dim(w, 1) != in)
        throw ValueError(pre + name + " of shape " + shp(w) + " should be (" + num(E) + ", " + num(in) + ") for " + shapes);
    };
    check(*ex.q_proj_weight, "q_proj_weight", E);
    check(*ex.k_proj_weight, "k_proj_weight", dim(k, 2));
    check(*ex.v_proj_weight, "v_proj_weight", dim(v, 2));
    q = linear(q, *ex.q_proj_weight, bq);
    k = linear(k, *ex.k_proj_weight, bk);
    v = linear(v, *ex.v_proj_weight, bv);
  } else {
    if (!in_proj_weight) throw ValueError(pre + "in_proj_weight is required without separate projection weights");
    const Array& w = *in_proj_weight;
    if (w.ndim() != 2 || dim(w, 0) != 3 * E || dim(w, 1) != E)
      throw ValueError(pre + "in_proj_weight of shape " + shp(w) + " should be (" + num(3 * E) + ", " + num(E) + ")");
    if (!(key.shape() == value.shape()) || dim(k, 2) != E)
      throw ValueError(pre + "with the packed in_proj_weight, key and value must both be [N, S, E] (E = " + num(E) +
                       "), got " + shapes);
    q = linear(q, w.index({Slice(0, E)}), bq);
    k = linear(k, w.index({Slice(E, 2 * E)}), bk);
    v = linear(v, w.index({Slice(2 * E, 3 * E)}), bv);
  }
  if (out_proj_weight.ndim() != 2 || dim(out_proj_weight, 0) != E || dim(out_proj_weight, 1) != E)
    throw ValueError(pre + "out_proj_weight of shape " + shp(out_proj_weight) + " should be (" + num(E) + ", " + num(E) + ")");
  if (out_proj_bias && (out_proj_bias->ndim() != 1 || dim(*out_proj_bias, 0) != E))
    throw ValueError(pre + "out_proj_bias of shape " + shp(*out_proj_bias) + " should be (" + num(E) + ",)");

  // ---- masks, as additive float masks; both get a zero column per appended key
  std::int64_t S = dim(k, 1);
  const DType dt = q.dtype();
  auto as_additive = [&](const Array& m, bool true_masks, const char* name) -> Array {
    if (is_bool(m.dtype())) return additive_from_bool(m, true_masks, dt);
    if (is_real_floating(m.dtype())) return m.dtype() == dt ? m : ivy::astype(m, dt);
    throw TypeError(pre + name + " of shape " + shp(m) + " must be bool or floating, got " + dtype_name(m.dtype()));
  };
  std::optional<Array> am, kpm;  // am: [1 or N, 1 or H, L, S]; kpm: [N, 1, 1, S]
  if (attn_mask) {
    const Array& m = *attn_mask;
    if (m.ndim() == 2) {
      if (dim(m, 0) != L || dim(m, 1) != S)
        throw ValueError(pre + "the 2-d attn_mask has shape " + shp(m) + ", but should be (" + num(L) + ", " + num(S) + ")");
      am = ivy::reshape(as_additive(m, true, "attn_mask"), Shape{1, 1, L, S});
    } else if (m.ndim() == 3) {
      if (dim(m, 0) != N * H || dim(m, 1) != L || dim(m, 2) != S)
        throw ValueError(pre + "the 3-d attn_mask has shape " + shp(m) + ", but should be (" + num(N * H) + ", " + num(L) +
                         ", " + num(S) + ") (N * num_heads, L, S)");
      am = ivy::reshape(as_additive(m, true, "attn_mask"), Shape{N, H, L, S});
    } else {
      throw ValueError(pre + "attn_mask of shape " + shp(m) + " must be 2-d (L, S) or 3-d (N * num_heads, L, S)");
    }
  }
  if (key_padding_mask) {
    const Array& m = *key_padding_mask;
    const Shape want = batched ? Shape{N, S} : Shape{S};
    if (!(m.shape() == want))
      throw ValueError(pre + "key_padding_mask of shape " + shp(m) + " should be " + want.str() + " for " + shapes);
    kpm = ivy::reshape(as_additive(m, true, "key_padding_mask"), Shape{N, 1, 1, S});
  }
  auto pad_masks = [&]() {  // one more key that no mask hides
    auto grow = [&](std::optional<Array>& m) {
      if (!m) return;
      Shape s = m->shape();
      s[3] = 1;
      *m = ivy::concat({*m, ivy::zeros(s, dt, m->device(), m->backend())}, 3);
    };
    grow(am);
    grow(kpm);
  };

  // ---- bias_k / bias_v: an extra key and value for every sequence
  if (ex.bias_k || ex.bias_v) {
    if (!ex.bias_k || !ex.bias_v) throw ValueError(pre + "bias_k and bias_v must be given together");
    for (const Array* b : {&*ex.bias_k, &*ex.bias_v})
      if (b->size() != E || b->ndim() != 3)
        throw ValueError(pre + "bias_k and bias_v should be (1, 1, " + num(E) + "), got " + shp(*ex.bias_k) + " and " +
                         shp(*ex.bias_v));
    k = ivy::concat({k, ivy::broadcast_to(*ex.bias_k, Shape{N, 1, E})}, 1);
    v = ivy::concat({v, ivy::broadcast_to(*ex.bias_v, Shape{N, 1, E})}, 1);
    pad_masks();
    ++S;
  }

  // ---- heads: [N, len, E] -> [N, H, len, hd]
  auto heads = [&](const Array& t) {
    return ivy::permute_dims(ivy::reshape(t, Shape{N, dim(t, 1), H, hd}), Dims{0, 2, 1, 3});
  };
  Array qh = heads(q), kh = heads(k), vh = heads(v);
  if (ex.add_zero_attn) {
    const Array z = ivy::zeros(Shape{N, H, 1, hd}, dt, q.device(), q.backend());
    kh = ivy::concat({kh, z}, 2);
    vh = ivy::concat({vh, z}, 2);
    pad_masks();
    ++S;
  }
  std::optional<Array> bias;
  if (am && kpm)
    bias = *am + *kpm;
  else if (am)
    bias = am;
  else if (kpm)
    bias = kpm;

  // ---- attention per head, heads concatenated, output projection
  Attended att = attend(qh, kh, vh, bias, 1.0 / std::sqrt(static_cast<double>(hd)));
  Array out = ivy::reshape(ivy::permute_dims(att.out, Dims{0, 2, 1, 3}), Shape{N, L, E});
  out = linear(out, out_proj_weight, out_proj_bias);
  MultiHeadAttentionResult r;
  r.output = batched ? out : ivy::squeeze(out, 0);
  if (need_weights) {
    Array w = ex.average_attn_weights ? ivy::sum(att.weights, 1) / static_cast<double>(H) : att.weights;
    r.weights = batched ? w : ivy::squeeze(w, 0);
  }
  return r;
}

// ---------------------------------------------------------------- recurrent cells
namespace {

// Checks a cell's weights: w_ih [G*H, F], w_hh [G*H, H], biases [G*H] (both or neither).
void check_cell(const std::string& pre, std::int64_t G, std::int64_t F, std::int64_t H, const Array& w_ih,
                const Array& w_hh, const std::optional<Array>& b_ih, const std::optional<Array>& b_hh) {
  if (w_ih.ndim() != 2 || dim(w_ih, 0) != G * H || dim(w_ih, 1) != F)
    throw ValueError(pre + "w_ih of shape " + shp(w_ih) + " should be (" + num(G * H) + ", " + num(F) + ") for input size " +
                     num(F) + " and hidden size " + num(H));
  if (w_hh.ndim() != 2 || dim(w_hh, 0) != G * H || dim(w_hh, 1) != H)
    throw ValueError(pre + "w_hh of shape " + shp(w_hh) + " should be (" + num(G * H) + ", " + num(H) + ") for hidden size " +
                     num(H));
  if (b_ih.has_value() != b_hh.has_value()) throw ValueError(pre + "give both b_ih and b_hh, or neither");
  for (const std::optional<Array>* b : {&b_ih, &b_hh})
    if (*b && ((*b)->ndim() != 1 || dim(**b, 0) != G * H))
      throw ValueError(pre + "bias of shape " + shp(**b) + " should be (" + num(G * H) + ",)");
}

// One LSTM step from the input projection xp = x W_ih^T + b_ih [N, 4H].
LstmState lstm_step(const Array& xp, const Array& h, const Array& c, const Array& w_hh, const std::optional<Array>& b_hh,
                    std::int64_t H) {
  const Array g = xp + linear(h, w_hh, b_hh);
  const Array i = sigmoid(chunk_last(g, 0, H)), f = sigmoid(chunk_last(g, 1, H));
  const Array gg = ivy::tanh(chunk_last(g, 2, H)), o = sigmoid(chunk_last(g, 3, H));
  const Array c2 = f * c + i * gg;
  return {o * ivy::tanh(c2), c2};
}

// One GRU step from the input projection xp = x W_ih^T + b_ih [N, 3H].
Array gru_step(const Array& xp, const Array& h, const Array& w_hh, const std::optional<Array>& b_hh, std::int64_t H) {
  const Array hp = linear(h, w_hh, b_hh);
  const Array r = sigmoid(chunk_last(xp, 0, H) + chunk_last(hp, 0, H));
  const Array z = sigmoid(chunk_last(xp, 1, H) + chunk_last(hp, 1, H));
  const Array n = ivy::tanh(chunk_last(xp, 2, H) + r * chunk_last(hp, 2, H));
  return (1.0 - z) * n + z * h;
}

void check_state(const std::string& pre, const char* name, const Array& s, const Array& x, std::int64_t H) {
  Shape want = x.shape();
  want[want.size() - 1] = H;
  if (!(s.shape() == want))
    throw ValueError(pre + name + " of shape " + shp(s) + " should be " + want.str() + " for input " + shp(x) +
                     " and hidden size " + num(H));
}

}  // namespace

LstmState lstm_cell(const Array& x, const LstmState& state, const Array& w_ih, const Array& w_hh,
                    const std::optional<Array>& b_ih, const std::optional<Array>& b_hh) {
  const std::string pre = "[nn.lstm_cell] ";
  if (x.ndim() != 1 && x.ndim() != 2) throw ValueError(pre + "input of shape " + shp(x) + " should be [N, F] or [F]");
  require_float("lstm_cell", "input", x);
  if (w_hh.ndim() != 2) throw ValueError(pre + "w_hh of shape " + shp(w_hh) + " should be (4 * H, H)");
  const std::int64_t H = dim(w_hh, 1);
  check_cell(pre, 4, dim(x, -1), H, w_ih, w_hh, b_ih, b_hh);
  check_state(pre, "h", state.h, x, H);
  check_state(pre, "c", state.c, x, H);
  return lstm_step(linear(x, w_ih, b_ih), state.h, state.c, w_hh, b_hh, H);
}

Array gru_cell(const Array& x, const Array& h, const Array& w_ih, const Array& w_hh, const std::optional<Array>& b_ih,
               const std::optional<Array>& b_hh) {
  const std::string pre = "[nn.gru_cell] ";
  if (x.ndim() != 1 && x.ndim() != 2) throw ValueError(pre + "input of shape " + shp(x) + " should be [N, F] or [F]");
  require_float("gru_cell", "input", x);
  if (w_hh.ndim() != 2) throw ValueError(pre + "w_hh of shape " + shp(w_hh) + " should be (3 * H, H)");
  const std::int64_t H = dim(w_hh, 1);
  check_cell(pre, 3, dim(x, -1), H, w_ih, w_hh, b_ih, b_hh);
  check_state(pre, "h", h, x, H);
  return gru_step(linear(x, w_ih, b_ih), h, w_hh, b_hh, H);
}

namespace {

// The shared driver of lstm and gru: layer by layer, each direction a loop over time.
// `lstm_mode` false: GRU (no cell state).
struct RnnOut {
  Array output, h_n, c_n;
};
RnnOut run_rnn(const char* fn, bool lstm_mode, const Array& x_in, const std::vector<RnnWeights>& weights,
               std::int64_t num_layers, bool bidirectional, const std::optional<Array>& h0_in,
               const std::optional<Array>& c0_in) {
  const std::string pre = std::string("[nn.") + fn + "] ";
  const std::int64_t G = lstm_mode ? 4 : 3, D = bidirectional ? 2 : 1;
  if (x_in.ndim() != 2 && x_in.ndim() != 3)
    throw ValueError(pre + "input of shape " + shp(x_in) + " should be [N, T, F] (batch_first) or unbatched [T, F]");
  require_float(fn, "input", x_in);
  if (num_layers < 1) throw ValueError(pre + "num_layers must be >= 1, got " + num(num_layers));
  if (static_cast<std::int64_t>(weights.size()) != num_layers * D)
    throw ValueError(pre + "expected " + num(num_layers * D) + " weight sets (num_layers " + num(num_layers) +
                     (bidirectional ? " x 2 directions" : "") + "), got " + num(static_cast<std::int64_t>(weights.size())));
  const bool batched = x_in.ndim() == 3;
  const Array x = batched ? x_in : ivy::expand_dims(x_in, 0);
  const std::int64_t N = dim(x, 0), T = dim(x, 1);
  if (T < 1) throw ValueError(pre + "input of shape " + shp(x_in) + " has no time steps");
  if (weights[0].w_hh.ndim() != 2)
    throw ValueError(pre + "w_hh of shape " + shp(weights[0].w_hh) + " should be (" + num(G) + " * H, H)");
  const std::int64_t H = dim(weights[0].w_hh, 1);
  const Shape state_shape = batched ? Shape{num_layers * D, N, H} : Shape{num_layers * D, H};
  auto state = [&](const std::optional<Array>& s, const char* name) {
    if (!s) return ivy::zeros(Shape{num_layers * D, N, H}, x.dtype(), x.device(), x.backend());
    if (!(s->shape() == state_shape))
      throw ValueError(pre + name + " of shape " + shp(*s) + " should be " + state_shape.str() + " (num_layers * " +
                       num(D) + ", " + (batched ? "N, " : "") + "H) for input " + shp(x_in));
    return batched ? *s : ivy::expand_dims(*s, 1);
  };
  const Array h0 = state(h0_in, "h0");
  const Array c0 = lstm_mode ? state(c0_in, "c0") : Array();

  Array layer_in = x;
  std::vector<Array> h_n, c_n;
  for (std::int64_t l = 0; l < num_layers; ++l) {
    std::vector<Array> dir_out;
    for (std::int64_t d = 0; d < D; ++d) {
      const RnnWeights& w = weights[static_cast<std::size_t>(l * D + d)];
      const std::string where = pre + "layer " + num(l) + (d ? " (reverse): " : ": ");
      check_cell(where, G, dim(layer_in, 2), H, w.w_ih, w.w_hh, w.b_ih, w.b_hh);
      // all time steps' input projections at once: [N, T, G*H]
      const Array xp = linear(layer_in, w.w_ih, w.b_ih);
      Array h = h0[l * D + d], c = lstm_mode ? c0[l * D + d] : Array();
      std::vector<Array> hs(static_cast<std::size_t>(T));
      for (std::int64_t s = 0; s < T; ++s) {
        const std::int64_t t = d ? T - 1 - s : s;
        const Array xt = xp.index({Slice(), t});
        if (lstm_mode) {
          LstmState st = lstm_step(xt, h, c, w.w_hh, w.b_hh, H);
          h = st.h;
          c = st.c;
        } else {
          h = gru_step(xt, h, w.w_hh, w.b_hh, H);
        }
        hs[static_cast<std::size_t>(t)] = h;
      }
      dir_out.push_back(ivy::stack(hs, 1));  // [N, T, H], in time order
      h_n.push_back(h);
      if (lstm_mode) c_n.push_back(c);
    }
    layer_in = D == 1 ? dir_out[0] : ivy::concat(dir_out, 2);
  }
  RnnOut r;
  r.output = batched ? layer_in : ivy::squeeze(layer_in, 0);
  r.h_n = ivy::stack(h_n, 0);
  if (!batched) r.h_n = ivy::squeeze(r.h_n, 1);
  if (lstm_mode) {
    r.c_n = ivy::stack(c_n, 0);
    if (!batched) r.c_n = ivy::squeeze(r.c_n, 1);
  }
  return r;
}

}  // namespace

LstmResult lstm(const Array& x, const std::vector<RnnWeights>& weights, std::int64_t num_layers, bool bidirectional,
                const std::optional<Array>& h0, const std::optional<Array>& c0) {
  RnnOut r = run_rnn("lstm", true, x, weights, num_layers, bidirectional, h0, c0);
  return {r.output, r.h_n, r.c_n};
}

GruResult gru(const Array& x, const std::vector<RnnWeights>& weights, std::int64_t num_layers, bool bidirectional,
              const std::optional<Array>& h0) {
  RnnOut r = run_rnn("gru", false, x, weights, num_layers, bidirectional, h0, std::nullopt);
  return {r.output, r.h_n};
}

}  // namespace ivy::nn

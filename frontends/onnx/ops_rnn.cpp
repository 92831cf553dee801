// ONNX recurrent operators (default domain): RNN, GRU and LSTM, unrolled over the time steps
// with ivy's public API only, so that imported recurrent models trace, compile and
// differentiate like any other graph.
#include <cctype>
#include <cstdint>
#include <string>
#include <vector>

#include "onnx_ops.hpp"
#include "ivy/nn_functional.hpp"

namespace ivy::onnx::detail {
namespace {

using I64 = std::int64_t;

std::string str(I64 v) { return std::to_string(v); }

enum class Cell { Rnn, Gru, Lstm };

// ---------------------------------------------------------------- activations
enum class ActKind { Relu, Tanh, Sigmoid, Affine, LeakyRelu, ThresholdedRelu, ScaledTanh, HardSigmoid, Elu,
                     Softsign, Softplus };

struct Act {
  ActKind kind = ActKind::Tanh;
  double alpha = 0, beta = 0;
};

// The activations the cell may name (compared case-insensitively), whether each takes alpha
// and beta, and their defaults: those of the ONNX operators of the same names.
struct ActSpec {
  const char* name;
  ActKind kind;
  bool takes_alpha, takes_beta;
  double alpha, beta;
};
constexpr ActSpec kActs[] = {
    {"relu", ActKind::Relu, false, false, 0, 0},
    {"tanh", ActKind::Tanh, false, false, 0, 0},
    {"sigmoid", ActKind::Sigmoid, false, false, 0, 0},
    {"affine", ActKind::Affine, true, true, 1.0, 0.0},
    {"leakyrelu", ActKind::LeakyRelu, true, false, 0.01, 0},
    {"thresholdedrelu", ActKind::ThresholdedRelu, true, false, 1.0, 0},
    {"scaledtanh", ActKind::ScaledTanh, true, true, 1.0, 1.0},
    {"hardsigmoid", ActKind::HardSigmoid, true, true, 0.2, 0.5},
    {"elu", ActKind::Elu, true, false, 1.0, 0},
    {"softsign", ActKind::Softsign, false, false, 0, 0},
    {"softplus", ActKind::Softplus, false, false, 0, 0},
};

Array apply(const Act& a, const Array& x) {
  switch (a.kind) {
    case ActKind::Relu: return nn::relu(x);
    case ActKind::Tanh: return tanh(x);
    case ActKind::Sigmoid: return nn::sigmoid(x);
    case ActKind::Affine: return x * a.alpha + a.beta;
    case ActKind::LeakyRelu: return where(x < 0, x * a.alpha, x);
    case ActKind::ThresholdedRelu: return where(x >= a.alpha, x, 0);
    case ActKind::ScaledTanh: return tanh(x * a.beta) * a.alpha;
    case ActKind::HardSigmoid: return clip(x * a.alpha + a.beta, 0.0, 1.0);
    // expm1 sees min(x, 0) so the unused branch cannot overflow
    case ActKind::Elu: return where(x < 0, expm1(minimum(x, 0.0)) * a.alpha, x);
    case ActKind::Softsign: return x / (abs(x) + 1.0);
    // log(1 + e^x) = log1p(e^-|x|) + max(x, 0)
    case ActKind::Softplus: return log1p(exp(-abs(x))) + maximum(x, 0.0);
  }
  return x;
}

// k activations per direction, directions one after the other: the attribute's list (k for
// each direction, or k shared by both; 2k for one direction keeps the first k, as RNN's
// schema default lists two), else `defaults`. activation_alpha / activation_beta are handed
// out in order to the activations that take them; the others keep their defaults.
std::vector<Act> activations(const NodeInfo& n, const std::vector<std::string>& defaults, I64 dirs) {
  const std::size_t k = defaults.size(), want = k * static_cast<std::size_t>(dirs);
  std::vector<std::string> names = defaults;
  if (auto it = n.attrs.find("activations"); it != n.attrs.end()) {
    if (it->second.kind != Attribute::Strings) n.fail("attribute 'activations' must be a list of strings");
    if (!it->second.strings.empty()) names = it->second.strings;
  }
  if (names.size() == k && dirs == 2) {
    const std::vector<std::string> one = names;
    names.insert(names.end(), one.begin(), one.end());
  } else if (names.size() == 2 * k && dirs == 1) {
    names.resize(k);
  }
  if (names.size() != want)
    n.fail("activations lists " + str(static_cast<I64>(names.size())) + " functions, expected " +
           str(static_cast<I64>(want)) + " (" + str(static_cast<I64>(k)) + " per direction)");
  const std::vector<double> alphas = n.floats("activation_alpha", {}), betas = n.floats("activation_beta", {});
  std::size_t ai = 0, bi = 0;
  std::vector<Act> acts;
  for (const std::string& name : names) {
    std::string low;
    for (char ch : name) low += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    const ActSpec* spec = nullptr;
    for (const ActSpec& s : kActs)
      if (low == s.name) spec = &s;
    if (!spec) n.unsupported("activation '" + name + "'");
    Act a{spec->kind, spec->alpha, spec->beta};
    if (spec->takes_alpha && ai < alphas.size()) a.alpha = alphas[ai++];
    if (spec->takes_beta && bi < betas.size()) a.beta = betas[bi++];
    acts.push_back(a);
  }
  return acts;
}

// ---------------------------------------------------------------- the unrolled cell
// Gate block k (of width h) along the last axis.
Array block(const Array& a, I64 k, I64 h) { return a.index({Ellipsis, Slice(k * h, (k + 1) * h)}); }

// An optional input of the shape `want`, or an undefined Array.
Array optional_input(const NodeInfo& n, const std::vector<Array>& in, std::size_t i, const char* what,
                     const Shape& want) {
  if (in.size() <= i || !in[i].defined()) return Array();
  if (!(in[i].shape() == want))
    n.fail(std::string(what) + " has shape " + in[i].shape().str() + ", expected " + want.str());
  return in[i];
}

// Inputs: X, W, R, B, sequence_lens, initial_h (then initial_c and P for LSTM). Outputs: Y,
// Y_h (and Y_c). Each direction runs over the time steps in its order; with sequence_lens,
// steps past a sequence's length leave the state alone and output 0, and the reverse direction
// starts at each sequence's own last step.
std::vector<Array> recurrent(const NodeInfo& n, const std::vector<Array>& in, Cell cell) {
  need_inputs(n, in, 3, cell == Cell::Lstm ? 8 : 6);
  const I64 gates = cell == Cell::Rnn ? 1 : cell == Cell::Gru ? 3 : 4;
  const I64 layout = n.since >= 14 ? n.i("layout", 0) : 0;
  if (layout != 0 && layout != 1) n.fail("layout must be 0 or 1, got " + str(layout));
  const std::string direction = n.s("direction", "forward");
  if (direction != "forward" && direction != "reverse" && direction != "bidirectional")
    n.fail("unknown direction '" + direction + "'");
  const I64 dirs = direction == "bidirectional" ? 2 : 1;

  // X as [seq, batch, input] whatever the layout
  if (in[0].ndim() != 3)
    n.fail("X has shape " + in[0].shape().str() + ", expected " +
           (layout ? "[batch, seq_length, input_size]" : "[seq_length, batch, input_size]"));
  const Array x = layout ? permute_dims(in[0], {1, 0, 2}) : in[0];
  const I64 T = x.shape()[0], batch = x.shape()[1], input = x.shape()[2];
  const Array& W = in[1];
  const Array& R = in[2];
  if (R.ndim() != 3) n.fail("R has shape " + R.shape().str() + ", expected [num_directions, gates * hidden, hidden]");
  const I64 H = n.has("hidden_size") ? n.i("hidden_size") : R.shape()[2];
  if (H <= 0) n.fail("hidden_size must be positive, got " + str(H));
  if (!(W.shape() == Shape{dirs, gates * H, input}))
    n.fail("W has shape " + W.shape().str() + ", expected " + Shape{dirs, gates * H, input}.str() + " for X " +
           in[0].shape().str());
  if (!(R.shape() == Shape{dirs, gates * H, H}))
    n.fail("R has shape " + R.shape().str() + ", expected " + Shape{dirs, gates * H, H}.str());
  const Array B = optional_input(n, in, 3, "B", Shape{dirs, 2 * gates * H});
  const Array lens_in = optional_input(n, in, 4, "sequence_lens", Shape{batch});
  // initial states as [num_directions, batch, hidden] whatever the layout
  const Shape state_shape = layout ? Shape{batch, dirs, H} : Shape{dirs, batch, H};
  auto state_input = [&](std::size_t i, const char* what) {
    Array s = optional_input(n, in, i, what, state_shape);
    return s.defined() && layout ? permute_dims(s, {1, 0, 2}) : s;
  };
  const Array h0 = state_input(5, "initial_h");
  const Array c0 = cell == Cell::Lstm ? state_input(6, "initial_c") : Array();
  const Array P = cell == Cell::Lstm ? optional_input(n, in, 7, "P", Shape{dirs, 3 * H}) : Array();
  if (T == 0) n.unsupported("X of shape " + in[0].shape().str() + ": an empty sequence");

  const std::vector<Act> acts = activations(
      n,
      cell == Cell::Rnn   ? std::vector<std::string>{"Tanh"}
      : cell == Cell::Gru ? std::vector<std::string>{"Sigmoid", "Tanh"}
                          : std::vector<std::string>{"Sigmoid", "Tanh", "Tanh"},
      dirs);
  const std::size_t per_dir = acts.size() / static_cast<std::size_t>(dirs);
  const bool has_clip = n.has("clip");
  const double clip_at = n.f("clip", 0.0);
  if (has_clip && !(clip_at > 0)) n.fail("clip must be positive, got " + std::to_string(clip_at));
  // an activation of the input clipped to [-clip, clip] when clip is given
  auto act = [&](const Act& a, const Array& v) { return apply(a, has_clip ? clip(v, -clip_at, clip_at) : v); };
  const bool linear_before_reset = cell == Cell::Gru && n.i("linear_before_reset", 0) != 0;
  const bool input_forget = cell == Cell::Lstm && n.i("input_forget", 0) != 0;

  // With sequence_lens: valid[t] ([batch, 1]) says step t is inside the sequence; order maps
  // each time step to the one the reverse direction reads there (L-1-t for t < L; an
  // involution, so it also puts the reverse outputs back in place).
  Array valid, order, nonempty;
  if (lens_in.defined()) {
    if (!is_integer(lens_in.dtype()))
      n.fail("sequence_lens must be an integer tensor, got " + std::string(dtype_name(lens_in.dtype())));
    const Array lens = reshape(astype(lens_in, int64, false), Shape{1, batch, 1});
    if (batch > 0 && any(logical_or(lens < 0, lens > T)).item<bool>())
      n.fail("sequence_lens must lie in [0, " + str(T) + "]");
    const Array t = reshape(arange(Scalar(I64{0}), Scalar(T), Scalar(I64{1}), int64, x.device(), x.backend()),
                            Shape{T, 1, 1});
    valid = t < lens;
    order = where(valid, lens - 1 - t, t);
    nonempty = reshape(lens > 0, Shape{batch, 1});
  }
  // the time-reversed view of a [seq, batch, ...] array for the reverse direction
  auto reversed = [&](const Array& a) {
    return order.defined() ? take_along_axis(a, broadcast_to(order, a.shape()), 0) : flip(a, 0);
  };

  std::vector<Array> ys, hs, cs;
  for (I64 d = 0; d < dirs; ++d) {
    const bool rev = direction == "reverse" || d == 1;
    const Act* f = &acts[static_cast<std::size_t>(d) * per_dir];  // f, g, h of this direction
    const Array Wd = W[d], Rd = R[d];
    Array wb, rb;  // the input and recurrence biases, [gates * hidden] each
    if (B.defined()) {
      wb = B[d].index({Slice(0, gates * H)});
      rb = B[d].index({Slice(gates * H, 2 * gates * H)});
    }
    // the input projections of every step at once: [seq, batch, gates * hidden]; GRU keeps Rb
    // apart since its hidden gate adds Rbh inside the reset product
    Array xw = matmul(rev ? reversed(x) : x, matrix_transpose(Wd));
    if (wb.defined()) xw = xw + (cell == Cell::Gru ? wb : wb + rb);
    const Array RT = matrix_transpose(cell == Cell::Gru ? Rd.index({Slice(0, 2 * H)}) : Rd);
    const Array RhT = cell == Cell::Gru ? matrix_transpose(Rd.index({Slice(2 * H, 3 * H)})) : Array();
    const Array rb_zr = cell == Cell::Gru && rb.defined() ? rb.index({Slice(0, 2 * H)}) : Array();
    const Array rb_h = cell == Cell::Gru && rb.defined() ? block(rb, 2, H) : Array();
    const Array Pi = P.defined() ? block(P[d], 0, H) : Array();
    const Array Po = P.defined() ? block(P[d], 1, H) : Array();
    const Array Pf = P.defined() ? block(P[d], 2, H) : Array();

    Array h = h0.defined() ? h0[d] : zeros(Shape{batch, H}, x.dtype(), x.device(), x.backend());
    Array c;
    if (cell == Cell::Lstm) c = c0.defined() ? c0[d] : zeros(Shape{batch, H}, x.dtype(), x.device(), x.backend());
    std::vector<Array> steps;
    for (I64 t = 0; t < T; ++t) {
      const Array g = xw[t];
      Array hn, cn;
      if (cell == Cell::Rnn) {
        // Ht = f(Xt W^T + Ht-1 R^T + Wb + Rb)
        hn = act(f[0], g + matmul(h, RT));
      } else if (cell == Cell::Gru) {
        // z, r = f(Xt W^T + Ht-1 R^T + Wb + Rb); ht = g(Xt Wh^T + Wbh + (r Ht-1) Rh^T + Rbh), or
        // with linear_before_reset g(Xt Wh^T + Wbh + r (Ht-1 Rh^T + Rbh)); Ht = (1-z) ht + z Ht-1
        Array hr = matmul(h, RT);
        if (rb_zr.defined()) hr = hr + rb_zr;
        const Array z = act(f[0], block(g, 0, H) + block(hr, 0, H));
        const Array r = act(f[0], block(g, 1, H) + block(hr, 1, H));
        Array rec = matmul(linear_before_reset ? h : r * h, RhT);
        if (rb_h.defined()) rec = rec + rb_h;
        const Array hh = act(f[1], block(g, 2, H) + (linear_before_reset ? r * rec : rec));
        hn = (1.0 - z) * hh + z * h;
      } else {
        // gates in order i, o, f, c; peepholes see Ct-1 (i, f) and Ct (o)
        const Array a = g + matmul(h, RT);
        Array pre_i = block(a, 0, H), pre_o = block(a, 1, H), pre_f = block(a, 2, H);
        if (P.defined()) {
          pre_i = pre_i + Pi * c;
          pre_f = pre_f + Pf * c;
        }
        const Array i = act(f[0], pre_i);
        const Array fg = input_forget ? 1.0 - i : act(f[0], pre_f);
        cn = fg * c + i * act(f[1], block(a, 3, H));
        if (P.defined()) pre_o = pre_o + Po * cn;
        hn = act(f[0], pre_o) * act(f[2], cn);
      }
      if (valid.defined()) {
        // past the sequence's end: output 0, keep the state
        const Array v = valid[t];
        steps.push_back(where(v, hn, 0.0));
        h = where(v, hn, h);
        if (cell == Cell::Lstm) c = where(v, cn, c);
      } else {
        steps.push_back(hn);
        h = hn;
        c = cn;
      }
    }
    Array y = stack(steps, 0);
    if (rev) y = reversed(y);
    if (nonempty.defined()) {
      // an empty sequence has zero final states
      h = where(nonempty, h, 0.0);
      if (cell == Cell::Lstm) c = where(nonempty, c, 0.0);
    }
    ys.push_back(y);
    hs.push_back(h);
    if (cell == Cell::Lstm) cs.push_back(c);
  }

  // Y [seq, dirs, batch, hidden], Y_h / Y_c [dirs, batch, hidden]; layout 1 puts batch first
  Array Y = stack(ys, 1), Yh = stack(hs, 0);
  Array Yc = cell == Cell::Lstm ? stack(cs, 0) : Array();
  if (layout) {
    Y = permute_dims(Y, {2, 0, 1, 3});
    Yh = permute_dims(Yh, {1, 0, 2});
    if (Yc.defined()) Yc = permute_dims(Yc, {1, 0, 2});
  }
  if (cell == Cell::Lstm) return {Y, Yh, Yc};
  return {Y, Yh};
}

std::vector<Array> op_rnn(const NodeInfo& n, const std::vector<Array>& in) { return recurrent(n, in, Cell::Rnn); }
std::vector<Array> op_gru(const NodeInfo& n, const std::vector<Array>& in) { return recurrent(n, in, Cell::Gru); }
std::vector<Array> op_lstm(const NodeInfo& n, const std::vector<Array>& in) { return recurrent(n, in, Cell::Lstm); }

}  // namespace

void add_rnn_ops(std::vector<OpEntry>& table) {
  const OpEntry entries[] = {
      {"", "RNN", 7, op_rnn},   {"", "RNN", 14, op_rnn},   {"", "GRU", 7, op_gru},
      {"", "GRU", 14, op_gru},  {"", "LSTM", 7, op_lstm},  {"", "LSTM", 14, op_lstm},
  };
  table.insert(table.end(), std::begin(entries), std::end(entries));
}

}  // namespace ivy::onnx::detail

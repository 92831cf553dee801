// ONNX operators that fit no other family: Einsum (pairwise contractions as batched matmuls),
// NonMaxSuppression (greedy selection on the host) and GridSample (gathers weighted by
// interpolation coefficients, differentiable in the input and the grid), written with ivy's
// public API only.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "onnx_ops.hpp"

namespace ivy::onnx::detail {
namespace {

using Arrays = std::vector<Array>;
using Labels = std::vector<int>;

std::string str(std::int64_t v) { return std::to_string(v); }

// ---------------------------------------------------------------- Einsum
// Labels: letters a-z are 0..25, A-Z 26..51; the k-th axis of the broadcast ellipsis
// (counted from the left) is kEllipsis + k.
constexpr int kEllipsis = 52;

int letter_label(char c) {
  if (c >= 'a' && c <= 'z') return c - 'a';
  if (c >= 'A' && c <= 'Z') return 26 + (c - 'A');
  return -1;
}
std::string label_name(int l) {
  if (l >= kEllipsis) return "... axis " + str(l - kEllipsis);
  return std::string(1, static_cast<char>(l < 26 ? 'a' + l : 'A' + (l - 26)));
}

bool contains(const Labels& v, int l) { return std::find(v.begin(), v.end(), l) != v.end(); }
std::size_t index_of(const Labels& v, int l) {
  return static_cast<std::size_t>(std::find(v.begin(), v.end(), l) - v.begin());
}

// One term of the equation: its letters, and the position of "..." among them (-1: none).
struct Term {
  Labels letters;
  int ellipsis = -1;
};

Term parse_term(const NodeInfo& n, const std::string& s) {
  Term t;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '.') {
      if (t.ellipsis >= 0 || s.compare(i, 3, "...") != 0) n.fail("malformed ellipsis in term '" + s + "'");
      t.ellipsis = static_cast<int>(t.letters.size());
      i += 2;
    } else {
      const int l = letter_label(s[i]);
      if (l < 0) n.fail("invalid character '" + std::string(1, s[i]) + "' in term '" + s + "'");
      t.letters.push_back(l);
    }
  }
  return t;
}

// The labels of a term's axes; its ellipsis stands for the last e of the E broadcast axes.
Labels term_labels(const Term& t, int e, int E) {
  Labels r;
  const int k = static_cast<int>(t.letters.size());
  for (int i = 0; i <= k; ++i) {
    if (i == t.ellipsis)
      for (int j = E - e; j < E; ++j) r.push_back(kEllipsis + j);
    if (i < k) r.push_back(t.letters[static_cast<std::size_t>(i)]);
  }
  return r;
}

// An array with one label per axis.
struct Operand {
  Array a;
  Labels labels;
};

// Replaces each label repeated within the operand by the diagonal over its axes.
void take_diagonals(Operand& o) {
  for (;;) {
    std::size_t i = 0, j = 0;  // the first repeated pair, i < j (j == 0: none)
    for (std::size_t a = 0; a < o.labels.size() && j == 0; ++a)
      for (std::size_t b = a + 1; b < o.labels.size() && j == 0; ++b)
        if (o.labels[a] == o.labels[b]) i = a, j = b;
    if (j == 0) return;
    Dims perm;
    Labels rest;
    for (std::size_t k = 0; k < o.labels.size(); ++k)
      if (k != i && k != j) perm.push_back(static_cast<std::int64_t>(k)), rest.push_back(o.labels[k]);
    perm.push_back(static_cast<std::int64_t>(i));
    perm.push_back(static_cast<std::int64_t>(j));
    rest.push_back(o.labels[i]);
    o.a = linalg::diagonal(permute_dims(o.a, perm));  // the diagonal of the last two axes, appended
    o.labels = rest;
  }
}

// Sums out the axes whose label `keep` rejects (in the operand's dtype).
template <class Keep>
void sum_unless(Operand& o, Keep keep) {
  Dims axes;
  Labels rest;
  for (std::size_t k = 0; k < o.labels.size(); ++k) {
    if (keep(o.labels[k])) rest.push_back(o.labels[k]);
    else axes.push_back(static_cast<std::int64_t>(k));
  }
  if (axes.empty()) return;
  o.a = sum(o.a, AxisArg(axes), std::optional<DType>(o.a.dtype()), false);
  o.labels = rest;
}

// The operand's axes ordered as the groups g1, g2, g3, broadcast to the full label sizes and
// merged into [prod g1, prod g2, prod g3].
Array arrange(const Operand& o, const Labels& g1, const Labels& g2, const Labels& g3,
              const std::vector<std::int64_t>& size) {
  Dims perm;
  Shape full, merged;
  for (const Labels* g : {&g1, &g2, &g3}) {
    std::int64_t p = 1;
    for (int l : *g) {
      perm.push_back(static_cast<std::int64_t>(index_of(o.labels, l)));
      full.push_back(size[static_cast<std::size_t>(l)]);
      p *= size[static_cast<std::size_t>(l)];
    }
    merged.push_back(p);
  }
  Array a = permute_dims(o.a, perm);
  if (!(a.shape() == full)) a = broadcast_to(a, full);
  return reshape(a, merged);
}

// x * y summed over the labels they share that `keep` (the output's and later operands'
// labels) lacks, as one batched matmul [B, M, K] x [B, K, N]; labels only one side has and
// `keep` lacks are summed out first.
Operand contract(Operand x, Operand y, const Labels& keep, const std::vector<std::int64_t>& size) {
  sum_unless(x, [&](int l) { return contains(keep, l) || contains(y.labels, l); });
  sum_unless(y, [&](int l) { return contains(keep, l) || contains(x.labels, l); });
  Labels batch, mid, left, right;  // shared and kept, shared and summed, x's own, y's own
  for (int l : x.labels) (contains(y.labels, l) ? (contains(keep, l) ? batch : mid) : left).push_back(l);
  for (int l : y.labels)
    if (!contains(x.labels, l)) right.push_back(l);
  Array r = matmul(arrange(x, batch, left, mid, size), arrange(y, batch, mid, right, size));
  Operand out;
  Shape s;
  for (const Labels* g : {&batch, &left, &right})
    for (int l : *g) {
      s.push_back(size[static_cast<std::size_t>(l)]);
      out.labels.push_back(l);
    }
  out.a = reshape(r, s);
  return out;
}

std::vector<Array> op_einsum(const NodeInfo& n, const Arrays& in) {
  need_inputs(n, in, 1, -1);
  std::string eq;
  for (char c : n.s("equation", ""))
    if (c != ' ') eq += c;
  const std::size_t arrow = eq.find("->");
  const std::string lhs = eq.substr(0, arrow);
  std::vector<Term> terms;
  for (std::size_t start = 0;;) {
    const std::size_t comma = lhs.find(',', start);
    terms.push_back(parse_term(n, lhs.substr(start, comma - start)));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (terms.size() != in.size())
    n.fail("equation '" + eq + "' has " + str(static_cast<std::int64_t>(terms.size())) + " terms for " +
           str(static_cast<std::int64_t>(in.size())) + " inputs");

  // Ellipsis widths: the ellipses broadcast against each other, aligned at their right end.
  std::vector<int> widths;
  int E = 0;
  for (std::size_t k = 0; k < in.size(); ++k) {
    const auto e = in[k].ndim() - static_cast<std::int64_t>(terms[k].letters.size());
    if (e < 0 || (e > 0 && terms[k].ellipsis < 0))
      n.fail("term " + str(static_cast<std::int64_t>(k)) + " does not match input of shape " + in[k].shape().str());
    widths.push_back(static_cast<int>(e));
    E = std::max(E, static_cast<int>(e));
  }

  // Each operand's labels and each label's size (equal for letters, broadcast for ellipses).
  std::vector<Operand> ops;
  std::vector<std::int64_t> size(static_cast<std::size_t>(kEllipsis + E), -1);
  std::vector<int> count(static_cast<std::size_t>(kEllipsis), 0);
  for (std::size_t k = 0; k < in.size(); ++k) {
    Operand o{in[k], term_labels(terms[k], widths[k], E)};
    for (std::size_t ax = 0; ax < o.labels.size(); ++ax) {
      const int l = o.labels[ax];
      const std::int64_t d = in[k].shape()[ax];
      std::int64_t& s = size[static_cast<std::size_t>(l)];
      if (l < kEllipsis) ++count[static_cast<std::size_t>(l)];
      if (s < 0 || (l >= kEllipsis && s == 1)) s = d;
      else if (s != d && !(l >= kEllipsis && d == 1))
        n.fail("label " + label_name(l) + " has sizes " + str(s) + " and " + str(d) + " (input " +
               str(static_cast<std::int64_t>(k)) + " of shape " + in[k].shape().str() + ")");
    }
    ops.push_back(o);
  }

  // Output labels: the explicit right-hand side, else the ellipsis then the letters seen
  // once in character order (A-Z before a-z).
  Labels out;
  if (arrow != std::string::npos) {
    const Term t = parse_term(n, eq.substr(arrow + 2));
    for (std::size_t i = 0; i < t.letters.size(); ++i) {
      const int l = t.letters[i];
      if (count[static_cast<std::size_t>(l)] == 0) n.fail("output label " + label_name(l) + " is not in any input");
      if (std::count(t.letters.begin(), t.letters.end(), l) > 1) n.fail("output label " + label_name(l) + " repeats");
    }
    out = term_labels(t, E, E);
  } else {
    for (int j = 0; j < E; ++j) out.push_back(kEllipsis + j);
    for (int l = 26; l < 52; ++l)
      if (count[static_cast<std::size_t>(l)] == 1) out.push_back(l);
    for (int l = 0; l < 26; ++l)
      if (count[static_cast<std::size_t>(l)] == 1) out.push_back(l);
  }

  // Contract left to right, keeping the labels the output or a later operand needs.
  for (Operand& o : ops) take_diagonals(o);
  Operand acc = ops[0];
  for (std::size_t k = 1; k < ops.size(); ++k) {
    Labels keep = out;
    for (std::size_t j = k + 1; j < ops.size(); ++j)
      keep.insert(keep.end(), ops[j].labels.begin(), ops[j].labels.end());
    acc = contract(acc, ops[k], keep, size);
  }
  sum_unless(acc, [&](int l) { return contains(out, l); });
  Dims perm;
  for (int l : out) perm.push_back(static_cast<std::int64_t>(index_of(acc.labels, l)));
  Array r = acc.labels == out ? acc.a : permute_dims(acc.a, perm);
  return {r.dtype() == in[0].dtype() ? r : astype(r, in[0].dtype())};
}

// ---------------------------------------------------------------- NonMaxSuppression
// Whether boxes a and b overlap by an intersection over union above `threshold`; boxes are
// 4 values each, corners (y1, x1, y2, x2) in any order or (x_center, y_center, w, h). T is
// the boxes' precision.
template <class T>
bool suppresses(const T* a, const T* b, bool center, T threshold) {
  auto extent = [&](const T* p, T& y0, T& x0, T& y1, T& x1) {
    if (center) {
      x0 = p[0] - p[2] / 2, x1 = p[0] + p[2] / 2;
      y0 = p[1] - p[3] / 2, y1 = p[1] + p[3] / 2;
    } else {
      y0 = std::min(p[0], p[2]), y1 = std::max(p[0], p[2]);
      x0 = std::min(p[1], p[3]), x1 = std::max(p[1], p[3]);
    }
  };
  T ay0, ax0, ay1, ax1, by0, bx0, by1, bx1;
  extent(a, ay0, ax0, ay1, ax1);
  extent(b, by0, bx0, by1, bx1);
  const T ix0 = std::max(ax0, bx0), ix1 = std::min(ax1, bx1);
  const T iy0 = std::max(ay0, by0), iy1 = std::min(ay1, by1);
  if (ix1 <= ix0 || iy1 <= iy0) return false;
  const T inter = (ix1 - ix0) * (iy1 - iy0);
  const T area_a = (ax1 - ax0) * (ay1 - ay0), area_b = (bx1 - bx0) * (by1 - by0);
  const T uni = area_a + area_b - inter;
  if (inter <= 0 || area_a <= 0 || area_b <= 0 || uni <= 0) return false;
  return inter / uni > threshold;
}

// Per batch and class: the boxes scoring above score_threshold, by descending score (lower
// index first on ties), each kept unless a kept one suppresses it, at most max_out of them.
// Rows (batch, class, box) in that order.
template <class T>
std::vector<std::int64_t> select_boxes(const std::vector<double>& boxes, const std::vector<double>& scores,
                                       std::int64_t B, std::int64_t C, std::int64_t S, std::int64_t max_out,
                                       double iou, bool has_score_threshold, double score_threshold, bool center) {
  const std::vector<T> bx(boxes.begin(), boxes.end());
  const std::vector<T> sc(scores.begin(), scores.end());
  const T thr = static_cast<T>(score_threshold);
  std::vector<std::int64_t> rows;
  std::vector<std::int64_t> order, kept;
  for (std::int64_t b = 0; b < B; ++b)
    for (std::int64_t c = 0; c < C; ++c) {
      const T* s = sc.data() + (b * C + c) * S;
      order.clear();
      for (std::int64_t i = 0; i < S; ++i)
        if (!has_score_threshold || s[i] > thr) order.push_back(i);
      std::stable_sort(order.begin(), order.end(), [&](std::int64_t i, std::int64_t j) { return s[i] > s[j]; });
      kept.clear();
      for (std::int64_t i : order) {
        if (static_cast<std::int64_t>(kept.size()) >= max_out) break;
        const T* box = bx.data() + (b * S + i) * 4;
        bool keep = true;
        for (std::int64_t k : kept)
          if (suppresses(bx.data() + (b * S + k) * 4, box, center, static_cast<T>(iou))) { keep = false; break; }
        if (!keep) continue;
        kept.push_back(i);
        rows.insert(rows.end(), {b, c, i});
      }
    }
  return rows;
}

// A scalar (or one-element) optional input.
double one_value(const NodeInfo& n, const Arrays& in, std::size_t k, const char* what, double def) {
  if (in.size() <= k || !in[k].defined()) return def;
  if (in[k].size() != 1) n.fail(std::string(what) + " must hold one value, got shape " + in[k].shape().str());
  return float_values(n, in[k], what)[0];
}

std::vector<Array> op_non_max_suppression(const NodeInfo& n, const Arrays& in) {
  need_inputs(n, in, 2, 5);
  const Array& boxes = in[0];
  const Array& scores = in[1];
  if (boxes.ndim() != 3 || boxes.shape()[2] != 4 || scores.ndim() != 3 || scores.shape()[0] != boxes.shape()[0] ||
      scores.shape()[2] != boxes.shape()[1])
    n.fail("boxes of shape " + boxes.shape().str() + " and scores of shape " + scores.shape().str() +
           " must be [batch, spatial, 4] and [batch, classes, spatial]");
  std::int64_t max_out = 0;  // absent: no output
  if (in.size() > 2 && in[2].defined()) {
    if (in[2].size() != 1)
      n.fail("max_output_boxes_per_class must hold one value, got shape " + in[2].shape().str());
    max_out = std::max<std::int64_t>(0, int_values(n, in[2], "max_output_boxes_per_class")[0]);
  }
  const double iou = one_value(n, in, 3, "iou_threshold", 0.0);
  if (!(iou >= 0 && iou <= 1)) n.fail("iou_threshold " + std::to_string(iou) + " must lie in [0, 1]");
  const bool has_score = in.size() > 4 && in[4].defined();
  const double score_thr = one_value(n, in, 4, "score_threshold", 0.0);
  const std::int64_t center = n.i("center_point_box", 0);
  if (center != 0 && center != 1) n.fail("center_point_box must be 0 or 1, got " + str(center));

  const std::int64_t B = boxes.shape()[0], C = scores.shape()[1], S = boxes.shape()[1];
  std::vector<std::int64_t> rows;
  if (max_out > 0) {
    const auto bv = float_values(n, boxes, "boxes");
    const auto sv = float_values(n, scores, "scores");
    rows = boxes.dtype() == float64
               ? select_boxes<double>(bv, sv, B, C, S, max_out, iou, has_score, score_thr, center == 1)
               : select_boxes<float>(bv, sv, B, C, S, max_out, iou, has_score, score_thr, center == 1);
  }
  const std::int64_t k = static_cast<std::int64_t>(rows.size()) / 3;
  return {asarray(static_cast<const void*>(rows.data()), int64, Shape{k, 3}, int64, boxes.device(), boxes.backend())};
}

// ---------------------------------------------------------------- GridSample
// Sampling follows torch.nn.functional.grid_sample, which ONNX's GridSample mirrors: a grid
// value g in [-1, 1] maps to the pixel coordinate ((g + 1) * S - 1) / 2 (align_corners=0) or
// (g + 1) / 2 * (S - 1) (align_corners=1) along an axis of S pixels.
struct GridSpec {
  std::string mode, padding;
  bool align = false;
};

Array unnormalize(const Array& g, std::int64_t S, bool align) {
  const auto s = static_cast<double>(S);
  return align ? (g + 1.0) / 2.0 * (s - 1) : ((g + 1.0) * s - 1.0) / 2.0;
}

// c folded into [lo2 / 2, hi2 / 2] by reflecting at both ends, as often as needed.
Array reflect(const Array& c, double lo2, double hi2) {
  if (lo2 == hi2) return zeros_like(c);
  const double lo = lo2 / 2, span = (hi2 - lo2) / 2;
  Array a = abs(c - lo);
  Array extra = remainder(a, span);
  Array flips = floor(a / span);
  return where(remainder(flips, 2.0) == 0.0, extra + lo, span - extra + lo);
}

// A pixel coordinate after padding_mode: border clamps it into [0, S - 1], reflection
// reflects it at the borders (the pixel centers with align_corners, else the pixel edges)
// and then clamps; zeros leaves it (taps outside the input weigh 0).
Array pad_coord(const Array& c, std::int64_t S, const GridSpec& g) {
  const auto last = static_cast<double>(S - 1);
  if (g.padding == "border") return clip(c, 0.0, last);
  if (g.padding == "reflection")
    return clip(g.align ? reflect(c, 0, 2 * last) : reflect(c, -1, 2 * last + 1), 0.0, last);
  return c;
}

// The taps of one axis: pixel positions (floating, whole numbers) and their weights, each
// weight 0 where its position lies outside [0, S - 1].
struct Taps {
  Arrays pos, weight;
};

Taps axis_taps(const Array& grid, std::int64_t S, const GridSpec& g) {
  Taps t;
  auto add = [&](const Array& p, const Array& w) {
    t.pos.push_back(p);
    t.weight.push_back(where(logical_and(p >= 0.0, p <= static_cast<double>(S - 1)), w, 0.0));
  };
  const Array c = unnormalize(grid, S, g.align);
  if (g.mode == "nearest") {
    const Array p = round(pad_coord(c, S, g));  // half to even
    add(p, ones_like(p));
  } else if (g.mode == "bilinear") {
    const Array x = pad_coord(c, S, g);
    const Array p = floor(x);
    add(p, (p + 1.0) - x);
    add(p + 1.0, x - p);
  } else {
    // bicubic: the 4 pixels around c with cubic convolution weights (A = -0.75); each tap
    // position then goes through padding_mode
    const double A = -0.75;
    const Array p = floor(c);
    const Array f = c - p;
    auto inner = [&](const Array& d) { return ((d * (A + 2) - (A + 3)) * d) * d + 1.0; };  // |d| <= 1
    auto outer = [&](const Array& d) { return ((d * A - 5 * A) * d + 8 * A) * d - 4 * A; };  // 1 < |d| < 2
    const Array w[4] = {outer(f + 1.0), inner(f), inner(1.0 - f), outer(2.0 - f)};
    for (int k = 0; k < 4; ++k) {
      Array q = pad_coord(p + static_cast<double>(k - 1), S, g);
      if (g.padding != "zeros") q = floor(q);
      add(q, w[k]);
    }
  }
  return t;
}

std::vector<Array> op_grid_sample(const NodeInfo& n, const Arrays& in) {
  need_inputs(n, in, 2, 2);
  const Array& x = in[0];
  const Array& grid = in[1];
  if (x.ndim() == 5) n.unsupported("volumetric (5-D) input of shape " + x.shape().str());
  if (x.ndim() != 4 || grid.ndim() != 4 || grid.shape()[0] != x.shape()[0] || grid.shape()[3] != 2)
    n.fail("input of shape " + x.shape().str() + " and grid of shape " + grid.shape().str() +
           " must be [N, C, H, W] and [N, H_out, W_out, 2]");
  if (!is_real_floating(grid.dtype()))
    n.fail("the grid must be floating, got " + std::string(dtype_name(grid.dtype())));
  GridSpec g{n.s("mode", "bilinear"), n.s("padding_mode", "zeros"), n.i("align_corners", 0) != 0};
  if (g.mode != "bilinear" && g.mode != "nearest" && g.mode != "bicubic") n.fail("unknown mode '" + g.mode + "'");
  if (g.padding != "zeros" && g.padding != "border" && g.padding != "reflection")
    n.fail("unknown padding_mode '" + g.padding + "'");
  const std::int64_t N = x.shape()[0], C = x.shape()[1], H = x.shape()[2], W = x.shape()[3];
  const std::int64_t Ho = grid.shape()[1], Wo = grid.shape()[2];
  if (H == 0 || W == 0) n.fail("cannot sample the empty input of shape " + x.shape().str());

  // Coordinates in at least single precision; integer and bool inputs are interpolated in
  // double and cast back.
  const Array gf = grid.dtype() == float16 || grid.dtype() == bfloat16 ? astype(grid, float32) : grid;
  const Arrays xy = unstack(gf, 3);
  const Taps tx = axis_taps(xy[0], W, g), ty = axis_taps(xy[1], H, g);
  Arrays index, weight;  // per 2-D tap: flat pixel index and weight, [N, Ho, Wo]
  for (std::size_t j = 0; j < ty.pos.size(); ++j)
    for (std::size_t i = 0; i < tx.pos.size(); ++i) {
      const Array row = astype(clip(ty.pos[j], 0.0, static_cast<double>(H - 1)), int64);
      const Array col = astype(clip(tx.pos[i], 0.0, static_cast<double>(W - 1)), int64);
      index.push_back(row * W + col);
      weight.push_back(ty.weight[j] * tx.weight[i]);
    }
  const auto T = static_cast<std::int64_t>(index.size());
  const Array xv = is_floating(x.dtype()) ? x : astype(x, float64);
  const Array idx = reshape(stack(index, -1), Shape{N, 1, Ho * Wo * T});
  const Array taps = reshape(take_along_axis(reshape(xv, Shape{N, C, H * W}), idx, 2), Shape{N, C, Ho, Wo, T});
  const Array y = sum(taps * expand_dims(stack(weight, -1), 1), AxisArg(std::int64_t{-1}));
  return {y.dtype() == x.dtype() ? y : astype(y, x.dtype())};
}

}  // namespace

void add_misc_ops(std::vector<OpEntry>& table) {
  const OpEntry entries[] = {
      {"", "Einsum", 12, op_einsum},
      {"", "NonMaxSuppression", 10, op_non_max_suppression},
      {"", "NonMaxSuppression", 11, op_non_max_suppression},
      {"", "GridSample", 16, op_grid_sample},
  };
  table.insert(table.end(), std::begin(entries), std::end(entries));
}

}  // namespace ivy::onnx::detail

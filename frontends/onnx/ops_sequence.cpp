// ONNX's sequence and optional operators (and Identity, which passes any value through):
// values that are lists of tensors or may be absent, as ivy::onnx::Value.
#include "onnx_ops.hpp"

namespace ivy::onnx::detail {
namespace {

using Values = std::vector<Value>;

const Value& need_sequence(const NodeInfo& n, const Values& in, std::size_t i) {
  if (i >= in.size() || in[i].type != ValueType::Sequence) n.fail("input " + std::to_string(i) + " must be a sequence");
  return in[i];
}
const Array& need_tensor(const NodeInfo& n, const Values& in, std::size_t i) {
  if (i >= in.size() || in[i].type != ValueType::Tensor || !in[i].tensor.defined())
    n.fail("input " + std::to_string(i) + " must be a tensor");
  return in[i].tensor;
}
// An optional tensor input: absent, or a scalar integer.
bool has_input(const Values& in, std::size_t i) {
  return i < in.size() && in[i].type == ValueType::Tensor && in[i].tensor.defined();
}
// A position in [-len, len] (insert) or [-len, len) (at, erase), normalized.
std::int64_t position(const NodeInfo& n, const Array& p, std::int64_t len, bool end_ok) {
  const std::vector<std::int64_t> v = int_values(n, p, "position");
  if (v.size() != 1) n.fail("position must hold one value, got " + p.shape().str());
  const std::int64_t k = v[0];
  if (k < -len || k > len || (!end_ok && k == len))
    n.fail("position " + std::to_string(k) + " is out of range for a sequence of " + std::to_string(len));
  return k < 0 ? k + len : k;
}

Values identity(const NodeInfo& n, const Values& in) {
  if (in.size() != 1) n.fail("takes one input");
  return {in[0]};
}

Values sequence_construct(const NodeInfo& n, const Values& in) {
  std::vector<Array> s;
  for (std::size_t i = 0; i < in.size(); ++i) s.push_back(need_tensor(n, in, i));
  for (const Array& a : s)
    if (a.dtype() != s[0].dtype()) n.fail("the tensors of a sequence must share one dtype");
  return {Value::of_sequence(std::move(s))};
}

Values sequence_empty(const NodeInfo&, const Values&) { return {Value::of_sequence({})}; }

Values sequence_at(const NodeInfo& n, const Values& in) {
  const Value& s = need_sequence(n, in, 0);
  const auto len = static_cast<std::int64_t>(s.sequence.size());
  return {Value::of(s.sequence[static_cast<std::size_t>(position(n, need_tensor(n, in, 1), len, false))])};
}

Values sequence_insert(const NodeInfo& n, const Values& in) {
  Value s = need_sequence(n, in, 0);
  const Array& t = need_tensor(n, in, 1);
  if (!s.sequence.empty() && t.dtype() != s.sequence[0].dtype())
    n.fail(std::string("inserting a ") + dtype_name(t.dtype()) + " tensor into a sequence of " + dtype_name(s.sequence[0].dtype()));
  const auto len = static_cast<std::int64_t>(s.sequence.size());
  const std::int64_t at = has_input(in, 2) ? position(n, in[2].tensor, len, true) : len;
  s.sequence.insert(s.sequence.begin() + at, t);
  return {s};
}

Values sequence_erase(const NodeInfo& n, const Values& in) {
  Value s = need_sequence(n, in, 0);
  const auto len = static_cast<std::int64_t>(s.sequence.size());
  if (len == 0) n.fail("erasing from an empty sequence");
  const std::int64_t at = has_input(in, 1) ? position(n, in[1].tensor, len, false) : len - 1;
  s.sequence.erase(s.sequence.begin() + at);
  return {s};
}

Values sequence_length(const NodeInfo& n, const Values& in) {
  const Value& s = need_sequence(n, in, 0);
  return {Value::of(asarray(static_cast<std::int64_t>(s.sequence.size())))};
}

// The tensors joined along axis (new_axis: stacked along a new axis there).
Values concat_from_sequence(const NodeInfo& n, const Values& in) {
  const Value& s = need_sequence(n, in, 0);
  if (s.sequence.empty()) n.fail("the sequence is empty");
  const bool new_axis = n.i("new_axis", 0) != 0;
  const std::int64_t r = s.sequence[0].ndim() + (new_axis ? 1 : 0);
  const std::int64_t axis = norm_axis(n, n.i("axis"), r);
  if (new_axis) return {Value::of(stack(s.sequence, axis))};
  return {Value::of(concat(s.sequence, axis))};
}

// Split into a sequence: equal parts of `split` (a scalar), the lengths `split` lists, or
// (without split) parts of length 1, squeezed when keepdims is 0.
Values split_to_sequence(const NodeInfo& n, const Values& in) {
  const Array& x = need_tensor(n, in, 0);
  const std::int64_t axis = norm_axis(n, n.i("axis", 0), x.ndim());
  const std::int64_t len = x.shape()[axis];
  std::vector<std::int64_t> sizes;
  bool squeeze_parts = false;
  if (has_input(in, 1)) {
    const Array& sp = in[1].tensor;
    const std::vector<std::int64_t> v = int_values(n, sp, "split");
    if (sp.ndim() == 0) {
      if (v[0] <= 0) n.fail("split must be positive, got " + std::to_string(v[0]));
      for (std::int64_t at = 0; at < len; at += v[0]) sizes.push_back(std::min(v[0], len - at));
    } else {
      sizes = v;
      std::int64_t total = 0;
      for (std::int64_t k : sizes) {
        if (k < 0) n.fail("split lengths must be non-negative");
        total += k;
      }
      if (total != len) n.fail("split lengths sum to " + std::to_string(total) + ", the axis has " + std::to_string(len));
    }
  } else {
    sizes.assign(static_cast<std::size_t>(len), 1);
    squeeze_parts = n.i("keepdims", 1) == 0;
  }
  std::vector<Array> parts;
  std::int64_t at = 0;
  for (std::int64_t k : sizes) {
    std::vector<Index> idx(static_cast<std::size_t>(x.ndim()), Slice());
    idx[static_cast<std::size_t>(axis)] = Slice(at, at + k);
    Array p = x.index(idx);
    parts.push_back(squeeze_parts ? squeeze(p, axis) : p);
    at += k;
  }
  return {Value::of_sequence(std::move(parts))};
}

// Optional: the input wrapped, or an empty optional (of the `type` attribute's kind).
Values optional_op(const NodeInfo& n, const Values& in) {
  if (in.empty() || (in[0].type == ValueType::Tensor && !in[0].tensor.defined()))
    return {Value::empty_optional(n.i("type_is_sequence", 0) != 0)};
  Value v;
  v.type = ValueType::Optional;
  v.holds_sequence = in[0].type == ValueType::Sequence;
  v.tensor = in[0].tensor;
  v.sequence = in[0].sequence;
  return {v};
}

Values optional_has_element(const NodeInfo&, const Values& in) {
  bool has = false;
  if (!in.empty()) {
    const Value& v = in[0];
    has = v.type == ValueType::Optional ? v.present : (v.type == ValueType::Sequence || v.tensor.defined());
  }
  return {Value::of(asarray(has))};
}

Values optional_get_element(const NodeInfo& n, const Values& in) {
  if (in.empty()) n.fail("takes one input");
  const Value& v = in[0];
  if (v.type != ValueType::Optional) return {v};  // opset 18 accepts plain values
  if (!v.present) n.fail("the optional is empty");
  return {v.holds_sequence ? Value::of_sequence(v.sequence) : Value::of(v.tensor)};
}

}  // namespace

void add_sequence_ops(std::vector<OpEntry>& table) {
  const OpEntry entries[] = {
      {"", "Identity", 1, nullptr, identity},
      {"", "SequenceConstruct", 11, nullptr, sequence_construct},
      {"", "SequenceEmpty", 11, nullptr, sequence_empty},
      {"", "SequenceAt", 11, nullptr, sequence_at},
      {"", "SequenceInsert", 11, nullptr, sequence_insert},
      {"", "SequenceErase", 11, nullptr, sequence_erase},
      {"", "SequenceLength", 11, nullptr, sequence_length},
      {"", "ConcatFromSequence", 11, nullptr, concat_from_sequence},
      {"", "SplitToSequence", 11, nullptr, split_to_sequence},
      {"", "Optional", 15, nullptr, optional_op},
      {"", "OptionalHasElement", 15, nullptr, optional_has_element},
      {"", "OptionalGetElement", 15, nullptr, optional_get_element},
  };
  table.insert(table.end(), std::begin(entries), std::end(entries));
}

}  // namespace ivy::onnx::detail

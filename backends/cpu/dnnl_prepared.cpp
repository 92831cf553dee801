// Prepared kernels (src/trace/prepared.hpp): float32 convolutions over oneDNN, the primitive
// chosen once for channels-last activations with the weights' layout left to oneDNN and the
// weights reordered into that layout once; a max pool over channels-last rows; a run
// reorders only a row-major input.
#include <oneapi/dnnl/dnnl.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <unordered_map>

#include "cpu_isa.hpp"
#include "dnnl_layouts.hpp"
#include "trace/prepared.hpp"

namespace ivy::prepared {
namespace {
using dnnl::memory;
using tag = memory::format_tag;

namespace layouts = cpu::dnnl_layouts;
std::size_t aligned(std::size_t n) { return (n + 63) / 64 * 64; }

// Constant operands owned by a prepared kernel: `values` (row-major, as `plain` describes
// them) reordered into the layout `wanted` its primitive chose, and a bias copied as it is.
memory prepack(const memory::desc& wanted, const memory::desc& plain, const std::vector<float>& values) {
  memory out(wanted, layouts::engine());
  memory in(plain, layouts::engine(), const_cast<float*>(values.data()));
  dnnl::stream st(layouts::engine());
  dnnl::reorder(in, out).execute(st, in, out);
  st.wait();
  return out;
}
memory copy_of(const memory::desc& md, const std::vector<float>& values) {
  memory out(md, layouts::engine());
  std::memcpy(out.get_data_handle(), values.data(), values.size() * sizeof(float));
  return out;
}

class DnnlConv final : public Kernel {
 public:
  explicit DnnlConv(const ConvSpec& s) {
    x_plain_ = memory::desc(layouts::dims_of(s.x), memory::data_type::f32, layouts::row_major(s.x.size()));
    src_md_ = memory::desc(layouts::dims_of(s.x), memory::data_type::f32, layouts::channels_last(s.x.size()));
    dst_md_ = memory::desc(layouts::dims_of(s.y), memory::data_type::f32, layouts::channels_last(s.y.size()));
    const memory::desc w_plain = layouts::weights(s.w, s.groups);
    memory::dims strides(s.strides.begin(), s.strides.end()), lo(s.pad_lo.begin(), s.pad_lo.end()),
        hi(s.pad_hi.begin(), s.pad_hi.end()), dil;
    for (auto d : s.dilations) dil.push_back(d - 1);  // oneDNN counts the gaps
    has_bias_ = !s.bias.empty();
    const memory::desc b_md({static_cast<memory::dim>(s.y[1])}, memory::data_type::f32, tag::x);
    const memory::desc w_any(w_plain.dims(), memory::data_type::f32, tag::any);
    auto desc = has_bias_ ? dnnl::convolution_forward::desc(dnnl::prop_kind::forward_inference,
                                                            dnnl::algorithm::convolution_direct, src_md_, w_any, b_md,
                                                            dst_md_, strides, dil, lo, hi)
                          : dnnl::convolution_forward::desc(dnnl::prop_kind::forward_inference,
                                                            dnnl::algorithm::convolution_direct, src_md_, w_any, dst_md_,
                                                            strides, dil, lo, hi);
    dnnl::primitive_attr attr;
    // the scratchpad comes with each run's scratch: oneDNN's own is one per process unless
    // it was built for concurrent execution, and runs may come from several threads
    attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
    pd_ = dnnl::convolution_forward::primitive_desc(desc, attr, layouts::engine());
    name_ = pd_.impl_info_str();
    prim_ = dnnl::convolution_forward(pd_);
    pad_md_ = pd_.scratchpad_desc();
    pad_bytes_ = aligned(pad_md_.get_size());
    to_src_ = dnnl::reorder(dnnl::reorder::primitive_desc(layouts::engine(), x_plain_, layouts::engine(), src_md_));
    src_bytes_ = aligned(src_md_.get_size());
    weights_ = prepack(pd_.weights_desc(), w_plain, s.weights);
    if (has_bias_) bias_ = copy_of(pd_.bias_desc(), s.bias);
  }
  bool reference() const { return name_.rfind("ref", 0) == 0; }
  std::size_t scratch_bytes() const override { return src_bytes_ + pad_bytes_; }
  std::string name() const override { return "conv " + name_; }
  void run(const float* x, bool x_channels_last, float* y, void* scratch) const override {
    dnnl::stream st(layouts::engine());
    auto* s = static_cast<char*>(scratch);
    memory src(src_md_, layouts::engine(), x_channels_last ? const_cast<float*>(x) : static_cast<void*>(s));
    if (!x_channels_last) {
      memory xm(x_plain_, layouts::engine(), const_cast<float*>(x));
      to_src_.execute(st, xm, src);
    }
    std::unordered_map<int, memory> args{
        {DNNL_ARG_SRC, src}, {DNNL_ARG_WEIGHTS, weights_}, {DNNL_ARG_DST, memory(dst_md_, layouts::engine(), y)}};
    if (has_bias_) args.emplace(DNNL_ARG_BIAS, bias_);
    if (pad_bytes_) args.emplace(DNNL_ARG_SCRATCHPAD, memory(pad_md_, layouts::engine(), s + src_bytes_));
    prim_.execute(st, args);
    st.wait();
  }

 private:
  dnnl::convolution_forward::primitive_desc pd_;
  dnnl::convolution_forward prim_;
  dnnl::reorder to_src_;
  memory::desc x_plain_, src_md_, dst_md_, pad_md_;
  memory weights_, bias_;
  bool has_bias_ = false;
  std::size_t src_bytes_ = 0, pad_bytes_ = 0;
  std::string name_;
};

// Max pool over channels-last rows: per output position, the C-long rows of its taps inside
// the input, combined element by element (the inner loop runs along C, contiguous).
class MaxPoolChannelsLast final : public Kernel {
 public:
  explicit MaxPoolChannelsLast(const MaxPoolSpec& s)
      : s_(s),
        to_cl_(dnnl::reorder::primitive_desc(
            layouts::engine(), memory::desc(layouts::dims_of(s.x), memory::data_type::f32, layouts::row_major(s.x.size())), layouts::engine(),
            memory::desc(layouts::dims_of(s.x), memory::data_type::f32, layouts::channels_last(s.x.size())))),
        x_plain_(layouts::dims_of(s.x), memory::data_type::f32, layouts::row_major(s.x.size())),
        x_cl_(layouts::dims_of(s.x), memory::data_type::f32, layouts::channels_last(s.x.size())) {
    // three spatial axes, the missing leading ones of size 1
    const std::size_t d = s.x.size() - 2, off = 3 - d;
    for (std::size_t i = 0; i < d; ++i) {
      in_[off + i] = s.x[2 + i];
      out_[off + i] = s.y[2 + i];
      k_[off + i] = s.window[i];
      st_[off + i] = s.strides[i];
      dl_[off + i] = s.dilations[i];
      lo_[off + i] = s.pad_lo[i];
    }
  }
  std::size_t scratch_bytes() const override { return aligned(x_cl_.get_size()); }
  std::string name() const override { return "max_pool"; }
  void run(const float* x, bool x_channels_last, float* y, void* scratch) const override {
    if (!x_channels_last) {
      dnnl::stream st(layouts::engine());
      memory a(x_plain_, layouts::engine(), const_cast<float*>(x)), b(x_cl_, layouts::engine(), scratch);
      to_cl_.execute(st, a, b);
      st.wait();
      x = static_cast<const float*>(scratch);
    }
    // output rows (n, o0, o1) are independent: split over OpenMP's threads when large
    const std::int64_t rows = s_.x[0] * out_[0] * out_[1];
#if IVY_AVX2
    const RowFn row_fn = cpu::isa::kAvx512 ? rows_avx512 : cpu::isa::kAvx2 ? rows_avx2 : rows_baseline;
#else
    const RowFn row_fn = rows_baseline;
#endif
#ifdef IVY_PREPARED_OPENMP
#pragma omp parallel for schedule(static) if (rows * out_[2] * s_.x[1] >= (std::int64_t{1} << 15))
#endif
    for (std::int64_t r = 0; r < rows; ++r) row_fn(*this, x, y, r);
  }

 private:
  using RowFn = void (*)(const MaxPoolChannelsLast&, const float*, float*, std::int64_t);
  // Output row r (n, o0, o1): every o2, each the maxima of its taps' C-long input rows.
  [[gnu::always_inline]] inline void row(const float* x, float* y, std::int64_t r) const {
    const std::int64_t C = s_.x[1], plane = in_[0] * in_[1] * in_[2] * C;
    const std::int64_t n = r / (out_[0] * out_[1]), o0 = r / out_[1] % out_[0], o1 = r % out_[1];
    for (std::int64_t o2 = 0; o2 < out_[2]; ++o2) {
      float* __restrict best = y + (r * out_[2] + o2) * C;
      std::fill(best, best + C, -std::numeric_limits<float>::infinity());
      for (std::int64_t k0 = 0; k0 < k_[0]; ++k0) {
        const std::int64_t i0 = o0 * st_[0] - lo_[0] + k0 * dl_[0];
        if (i0 < 0 || i0 >= in_[0]) continue;
        for (std::int64_t k1 = 0; k1 < k_[1]; ++k1) {
          const std::int64_t i1 = o1 * st_[1] - lo_[1] + k1 * dl_[1];
          if (i1 < 0 || i1 >= in_[1]) continue;
          for (std::int64_t k2 = 0; k2 < k_[2]; ++k2) {
            const std::int64_t i2 = o2 * st_[2] - lo_[2] + k2 * dl_[2];
            if (i2 < 0 || i2 >= in_[2]) continue;
            const float* __restrict tap = x + n * plane + ((i0 * in_[1] + i1) * in_[2] + i2) * C;
            // greater wins; a NaN wins over a number and then stays
            for (std::int64_t c = 0; c < C; ++c) {
              const float v = tap[c], b = best[c];
              best[c] = (v > b) | ((v != v) & (b == b)) ? v : b;
            }
          }
        }
      }
    }
  }
  static void rows_baseline(const MaxPoolChannelsLast& k, const float* x, float* y, std::int64_t r) { k.row(x, y, r); }
#if IVY_AVX2
  IVY_AVX2_FN static void rows_avx2(const MaxPoolChannelsLast& k, const float* x, float* y, std::int64_t r) {
    k.row(x, y, r);
  }
  IVY_AVX512_FN static void rows_avx512(const MaxPoolChannelsLast& k, const float* x, float* y, std::int64_t r) {
    k.row(x, y, r);
  }
#endif

  MaxPoolSpec s_;
  dnnl::reorder to_cl_;
  memory::desc x_plain_, x_cl_;
  std::int64_t in_[3] = {1, 1, 1}, out_[3] = {1, 1, 1}, k_[3] = {1, 1, 1}, st_[3] = {1, 1, 1}, dl_[3] = {1, 1, 1},
               lo_[3] = {0, 0, 0};
};

// x [M, K] @ w [K, N] (+ bias) with oneDNN's matmul, the weights in the layout it chose.
class DnnlMatmul final : public Kernel {
 public:
  explicit DnnlMatmul(const MatmulSpec& s) {
    const memory::dim m = static_cast<memory::dim>(s.x.numel() / s.k), k = s.k, n = s.n;
    src_md_ = memory::desc({m, k}, memory::data_type::f32, tag::ab);
    dst_md_ = memory::desc({m, n}, memory::data_type::f32, tag::ab);
    const memory::desc w_plain({k, n}, memory::data_type::f32, tag::ab), w_any({k, n}, memory::data_type::f32, tag::any);
    has_bias_ = !s.bias.empty();
    const memory::desc b_md({1, n}, memory::data_type::f32, tag::ab);
    auto desc = has_bias_ ? dnnl::matmul::desc(src_md_, w_any, b_md, dst_md_) : dnnl::matmul::desc(src_md_, w_any, dst_md_);
    dnnl::primitive_attr attr;
    attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);  // as the convolutions: per run
    pd_ = dnnl::matmul::primitive_desc(desc, attr, layouts::engine());
    name_ = pd_.impl_info_str();
    prim_ = dnnl::matmul(pd_);
    pad_md_ = pd_.scratchpad_desc();
    pad_bytes_ = aligned(pad_md_.get_size());
    weights_ = prepack(pd_.weights_desc(), w_plain, s.weights);
    if (has_bias_) bias_ = copy_of(b_md, s.bias);
  }
  bool reference() const { return name_.rfind("ref", 0) == 0; }
  bool channels_last() const override { return false; }
  std::size_t scratch_bytes() const override { return pad_bytes_; }
  std::string name() const override { return "matmul " + name_; }
  void run(const float* x, bool, float* y, void* scratch) const override {
    dnnl::stream st(layouts::engine());
    std::unordered_map<int, memory> args{{DNNL_ARG_SRC, memory(src_md_, layouts::engine(), const_cast<float*>(x))},
                                         {DNNL_ARG_WEIGHTS, weights_},
                                         {DNNL_ARG_DST, memory(dst_md_, layouts::engine(), y)}};
    if (has_bias_) args.emplace(DNNL_ARG_BIAS, bias_);
    if (pad_bytes_) args.emplace(DNNL_ARG_SCRATCHPAD, memory(pad_md_, layouts::engine(), scratch));
    prim_.execute(st, args);
    st.wait();
  }

 private:
  dnnl::matmul::primitive_desc pd_;
  dnnl::matmul prim_;
  memory::desc src_md_, dst_md_, pad_md_;
  memory weights_, bias_;
  bool has_bias_ = false;
  std::size_t pad_bytes_ = 0;
  std::string name_;
};

class DnnlToRowMajor final : public ToRowMajor {
 public:
  explicit DnnlToRowMajor(const Shape& shape)
      : from_(layouts::dims_of(shape), memory::data_type::f32, layouts::channels_last(shape.size())),
        to_(layouts::dims_of(shape), memory::data_type::f32, layouts::row_major(shape.size())),
        reorder_(dnnl::reorder::primitive_desc(layouts::engine(), from_, layouts::engine(), to_)) {}
  void run(const float* channels_last, float* row_major) const override {
    dnnl::stream st(layouts::engine());
    memory a(from_, layouts::engine(), const_cast<float*>(channels_last)), b(to_, layouts::engine(), row_major);
    reorder_.execute(st, a, b);
    st.wait();
  }

 private:
  memory::desc from_, to_;
  dnnl::reorder reorder_;
};
}  // namespace

bool available() { return true; }

std::unique_ptr<Kernel> make_conv(const ConvSpec& spec) {
  const std::size_t r = spec.x.size();
  if (r < 3 || r > 5 || spec.w.size() != r || spec.y.size() != r) return nullptr;
  for (const Shape* s : {&spec.x, &spec.w, &spec.y})
    for (auto e : *s)
      if (e <= 0) return nullptr;
  try {
    auto c = std::make_unique<DnnlConv>(spec);
    if (c->reference()) return nullptr;  // no faster than the eager kernel
    return c;
  } catch (const dnnl::error&) {
    return nullptr;  // a geometry oneDNN does not implement: the eager kernel runs it
  }
}

std::unique_ptr<Kernel> make_max_pool(const MaxPoolSpec& spec) {
  const std::size_t r = spec.x.size();
  if (r < 3 || r > 5 || spec.y.size() != r) return nullptr;
  for (const Shape* s : {&spec.x, &spec.y})
    for (auto e : *s)
      if (e <= 0) return nullptr;
  return std::make_unique<MaxPoolChannelsLast>(spec);
}

std::unique_ptr<Kernel> make_matmul(const MatmulSpec& spec) {
  if (spec.k <= 0 || spec.n <= 0 || spec.x.numel() <= 0 || spec.x.numel() % spec.k != 0) return nullptr;
  try {
    auto m = std::make_unique<DnnlMatmul>(spec);
    if (m->reference()) return nullptr;
    return m;
  } catch (const dnnl::error&) {
    return nullptr;
  }
}

std::unique_ptr<ToRowMajor> make_to_row_major(const Shape& shape) {
  if (shape.size() < 3 || shape.size() > 5) return nullptr;
  return std::make_unique<DnnlToRowMajor>(shape);
}

}  // namespace ivy::prepared

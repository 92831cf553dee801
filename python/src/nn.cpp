// ivy::nn for Python: the submodule _ivy.nn. Each function takes its arguments in the order
// of the Python wrappers in python/ivy/nn.py (torch.nn.functional's names and order where
// ivy has the same function); here the Python values are converted to ivy's option structs
// (padding forms, reductions, per-axis sizes) and errors name the function ("[nn.conv2d]").
// None means "absent" for every optional array.
#include "common.hpp"
#include "ivy/nn_attention_rnn.hpp"
#include "ivy/nn_conv.hpp"
#include "ivy/nn_functional.hpp"
#include "ivy/nn_resample.hpp"

namespace ivy_py {

using ivy::Array;
using ivy::Dims;
using ivy::DType;

namespace {

namespace N = ivy::nn;
using OArray = std::optional<Array>;

std::string type_name(py::handle h) { return py::str(py::type::handle_of(h).attr("__name__")); }

Array opt(const OArray& a) { return a ? *a : Array(); }

bool is_int(py::handle h) {
  return !PyBool_Check(h.ptr()) && PyIndex_Check(h.ptr()) && !py::isinstance<Array>(h);
}

// An int or a sequence of ints (per spatial axis); none_is_empty maps None to {}.
Dims dims_arg(py::handle h, const char* op, const char* name, bool none_is_empty = false) {
  if (none_is_empty && h.is_none()) return Dims{};
  if (is_int(h)) return Dims{to_int64(h)};
  if (!h.is_none() && !PyUnicode_Check(h.ptr()) && PySequence_Check(h.ptr())) {
    py::sequence s = py::reinterpret_borrow<py::sequence>(h);
    if (s.size() > static_cast<std::size_t>(ivy::kMaxRank))
      throw ivy::ValueError(std::string("[") + op + "] " + name + " has " + std::to_string(s.size()) +
                            " entries; at most " + std::to_string(ivy::kMaxRank) + " are supported");
    Dims d;
    bool ok = true;
    for (auto item : s) {
      if (!is_int(item)) {
        ok = false;
        break;
      }
      d.push_back(to_int64(item));
    }
    if (ok) return d;
  }
  throw ivy::TypeError(std::string("[") + op + "] " + name + " must be an int or a sequence of ints, got " +
                       std::string(py::repr(h)));
}

std::vector<std::int64_t> ints_arg(py::handle h, const char* op, const char* name) {
  if (is_int(h)) return {to_int64(h)};
  if (!PyUnicode_Check(h.ptr()) && PySequence_Check(h.ptr())) {
    std::vector<std::int64_t> v;
    for (auto item : py::reinterpret_borrow<py::sequence>(h)) {
      if (!is_int(item))
        throw ivy::TypeError(std::string("[") + op + "] " + name + " must contain ints, got " +
                             std::string(py::repr(h)));
      v.push_back(to_int64(item));
    }
    return v;
  }
  throw ivy::TypeError(std::string("[") + op + "] " + name + " must be an int or a sequence of ints, got " +
                       std::string(py::repr(h)));
}

// padding: "SAME" / "VALID" (any case), an int (every side), a sequence of ints (one per
// spatial axis, both sides), or a sequence of (before, after) pairs (one per spatial axis).
N::Padding padding_arg(py::handle h, const char* op) {
  if (PyUnicode_Check(h.ptr())) return N::Padding(h.cast<std::string>());
  if (is_int(h)) return N::Padding(to_int64(h));
  auto bad = [&] {
    return ivy::TypeError(std::string("[") + op +
                          "] padding must be \"SAME\", \"VALID\", an int, a sequence of ints or a sequence of "
                          "(before, after) pairs, got " +
                          std::string(py::repr(h)));
  };
  if (h.is_none() || !PySequence_Check(h.ptr())) throw bad();
  py::sequence s = py::reinterpret_borrow<py::sequence>(h);
  if (s.size() == 0) throw bad();
  if (is_int(s[0])) return N::Padding(dims_arg(h, op, "padding"));
  std::vector<std::pair<std::int64_t, std::int64_t>> pairs;
  for (auto item : s) {
    if (PyUnicode_Check(item.ptr()) || !PySequence_Check(item.ptr())) throw bad();
    py::sequence p = py::reinterpret_borrow<py::sequence>(item);
    if (p.size() != 2 || !is_int(p[0]) || !is_int(p[1])) throw bad();
    pairs.emplace_back(to_int64(p[0]), to_int64(p[1]));
  }
  return N::Padding(std::move(pairs));
}

N::Reduction reduction_arg(const std::string& r, const char* op, bool batchmean_ok = false) {
  if (r == "none") return N::Reduction::None;
  if (r == "mean") return N::Reduction::Mean;
  if (r == "sum") return N::Reduction::Sum;
  if (r == "batchmean" && batchmean_ok) return N::Reduction::BatchMean;
  throw ivy::ValueError(std::string("[") + op + "] reduction must be \"none\", \"mean\"" +
                        (batchmean_ok ? ", \"sum\" or \"batchmean\"" : " or \"sum\"") + ", got \"" + r + "\"");
}

// Rebinds the Python array `target` (when given) to `value`, as x += y does: the caller's
// variable sees the new running statistics (torch updates them in place).
void rebind(py::handle target, const Array& value) {
  if (target.is_none() || !value.defined()) return;
  target.cast<Array&>() = value;
}

OArray array_or_none(py::handle h, const char* op, const char* name) {
  if (h.is_none()) return std::nullopt;
  if (!py::isinstance<Array>(h))
    throw ivy::TypeError(std::string("[") + op + "] " + name + " must be an ivy array or None, got " + type_name(h));
  return h.cast<Array>();
}

// ---------------------------------------------------------------- conv and pooling
N::ConvOptions conv_options(const char* op, py::handle stride, py::handle padding, py::handle dilation,
                            std::int64_t groups, bool channels_last) {
  N::ConvOptions o;
  o.strides = dims_arg(stride, op, "stride");
  o.padding = padding_arg(padding, op);
  o.dilations = dims_arg(dilation, op, "dilation");
  o.groups = groups;
  o.channels_last = channels_last;
  return o;
}

N::ConvTransposeOptions conv_transpose_options(const char* op, py::handle stride, py::handle padding,
                                               py::handle output_padding, std::int64_t groups, py::handle dilation,
                                               bool channels_last) {
  N::ConvTransposeOptions o;
  o.strides = dims_arg(stride, op, "stride");
  o.padding = dims_arg(padding, op, "padding");
  o.output_padding = dims_arg(output_padding, op, "output_padding");
  o.groups = groups;
  o.dilations = dims_arg(dilation, op, "dilation");
  o.channels_last = channels_last;
  return o;
}

N::PoolOptions pool_options(const char* op, py::handle stride, py::handle padding, py::handle dilation,
                            bool ceil_mode, bool count_include_pad, bool channels_last) {
  N::PoolOptions o;
  o.strides = dims_arg(stride, op, "stride", /*none_is_empty=*/true);
  o.padding = padding_arg(padding, op);
  o.dilations = dims_arg(dilation, op, "dilation");
  o.ceil_mode = ceil_mode;
  o.count_include_pad = count_include_pad;
  o.channels_last = channels_last;
  return o;
}

// max pooling with torch's indices: the flat position of each maximum within its sample's
// and channel's spatial plane (ivy's are flat positions in the whole x).
py::object max_pool_any(const char* op, const Array& x, py::handle kernel_size, py::handle stride,
                        py::handle padding, py::handle dilation, bool ceil_mode, bool channels_last,
                        bool return_indices, std::int64_t want_rank) {
  if (want_rank && x.ndim() != want_rank + 2)
    throw ivy::ValueError(std::string("[") + op + "] expects an input of rank " + std::to_string(want_rank + 2) +
                          " ([N, C, *spatial] or [N, *spatial, C]), got shape " + x.shape().str());
  N::PoolOptions o = pool_options(op, stride, padding, dilation, ceil_mode, true, channels_last);
  Dims window = dims_arg(kernel_size, op, "kernel_size");
  if (!return_indices) return py::cast(N::max_pool(x, window, o));
  auto [y, pos] = N::max_pool_with_indices(x, window, o);
  const std::int64_t c = x.shape()[channels_last ? x.ndim() - 1 : 1];
  const std::int64_t n = x.shape()[0];
  const std::int64_t plane = x.size() / std::max<std::int64_t>(1, n * c);
  Array spatial = channels_last ? ivy::remainder(ivy::floor_divide(pos, ivy::Scalar(std::max<std::int64_t>(c, 1))),
                                                 ivy::Scalar(std::max<std::int64_t>(plane, 1)))
                                : ivy::remainder(pos, ivy::Scalar(std::max<std::int64_t>(plane, 1)));
  return py::make_tuple(y, spatial);
}

void bind_conv(py::module_& nn) {
  nn.def("linear", [](const Array& x, const Array& w, const OArray& b) { return N::linear(x, w, opt(b)); },
         py::arg("x"), py::arg("weight"), py::arg("bias") = py::none());

  using ConvFn = Array (*)(const Array&, const Array&, const Array&, const N::ConvOptions&);
  auto def_conv = [&nn](const char* name, const char* op, ConvFn fn) {
    nn.def(
        name,
        [fn, op](const Array& x, const Array& w, const OArray& b, py::handle stride, py::handle padding,
                 py::handle dilation, std::int64_t groups, bool channels_last) {
          return fn(x, w, opt(b), conv_options(op, stride, padding, dilation, groups, channels_last));
        },
        py::arg("x"), py::arg("w"), py::arg("bias") = py::none(), py::arg("stride") = 1, py::arg("padding") = 0,
        py::arg("dilation") = 1, py::arg("groups") = 1, py::arg("channels_last") = false);
  };
  def_conv("conv", "nn.conv", &N::conv);
  def_conv("conv1d", "nn.conv1d", &N::conv1d);
  def_conv("conv2d", "nn.conv2d", &N::conv2d);
  def_conv("conv3d", "nn.conv3d", &N::conv3d);
  nn.def(
      "depthwise_conv2d",
      [](const Array& x, const Array& w, const OArray& b, py::handle stride, py::handle padding, py::handle dilation,
         bool channels_last) {
        return N::depthwise_conv2d(x, w, opt(b),
                                   conv_options("nn.depthwise_conv2d", stride, padding, dilation, 1, channels_last));
      },
      py::arg("x"), py::arg("w"), py::arg("bias") = py::none(), py::arg("stride") = 1, py::arg("padding") = 0,
      py::arg("dilation") = 1, py::arg("channels_last") = false);

  using ConvTFn = Array (*)(const Array&, const Array&, const Array&, const N::ConvTransposeOptions&);
  auto def_conv_t = [&nn](const char* name, const char* op, ConvTFn fn) {
    nn.def(
        name,
        [fn, op](const Array& x, const Array& w, const OArray& b, py::handle stride, py::handle padding,
                 py::handle output_padding, std::int64_t groups, py::handle dilation, bool channels_last) {
          return fn(x, w, opt(b),
                    conv_transpose_options(op, stride, padding, output_padding, groups, dilation, channels_last));
        },
        py::arg("x"), py::arg("w"), py::arg("bias") = py::none(), py::arg("stride") = 1, py::arg("padding") = 0,
        py::arg("output_padding") = 0, py::arg("groups") = 1, py::arg("dilation") = 1,
        py::arg("channels_last") = false);
  };
  def_conv_t("conv_transpose", "nn.conv_transpose", &N::conv_transpose);
  def_conv_t("conv_transpose1d", "nn.conv_transpose1d", &N::conv_transpose1d);
  def_conv_t("conv_transpose2d", "nn.conv_transpose2d", &N::conv_transpose2d);
  def_conv_t("conv_transpose3d", "nn.conv_transpose3d", &N::conv_transpose3d);

  static const char* kMaxNames[] = {"max_pool", "max_pool1d", "max_pool2d", "max_pool3d"};
  static const char* kMaxOps[] = {"nn.max_pool", "nn.max_pool1d", "nn.max_pool2d", "nn.max_pool3d"};
  for (std::int64_t k = 0; k < 4; ++k) {
    const char* op = kMaxOps[k];
    nn.def(
        kMaxNames[k],
        [op, k](const Array& x, py::handle kernel_size, py::handle stride, py::handle padding, py::handle dilation,
                bool ceil_mode, bool return_indices, bool channels_last) {
          return max_pool_any(op, x, kernel_size, stride, padding, dilation, ceil_mode, channels_last, return_indices,
                              k);
        },
        py::arg("x"), py::arg("kernel_size"), py::arg("stride") = py::none(), py::arg("padding") = 0,
        py::arg("dilation") = 1, py::arg("ceil_mode") = false, py::arg("return_indices") = false,
        py::arg("channels_last") = false);
  }

  using PoolFn = Array (*)(const Array&, const Dims&, const N::PoolOptions&);
  auto def_avg = [&nn](const char* name, const char* op, PoolFn fn) {
    nn.def(
        name,
        [fn, op](const Array& x, py::handle kernel_size, py::handle stride, py::handle padding, bool ceil_mode,
                 bool count_include_pad, bool channels_last) {
          return fn(x, dims_arg(kernel_size, op, "kernel_size"),
                    pool_options(op, stride, padding, py::int_(1), ceil_mode, count_include_pad, channels_last));
        },
        py::arg("x"), py::arg("kernel_size"), py::arg("stride") = py::none(), py::arg("padding") = 0,
        py::arg("ceil_mode") = false, py::arg("count_include_pad") = true, py::arg("channels_last") = false);
  };
  def_avg("avg_pool", "nn.avg_pool", &N::avg_pool);
  def_avg("avg_pool1d", "nn.avg_pool1d", &N::avg_pool1d);
  def_avg("avg_pool2d", "nn.avg_pool2d", &N::avg_pool2d);
  def_avg("avg_pool3d", "nn.avg_pool3d", &N::avg_pool3d);

  static const char* kAdaptiveNames[] = {"adaptive_avg_pool", "adaptive_avg_pool1d", "adaptive_avg_pool2d",
                                         "adaptive_avg_pool3d"};
  static const char* kAdaptiveOps[] = {"nn.adaptive_avg_pool", "nn.adaptive_avg_pool1d", "nn.adaptive_avg_pool2d",
                                       "nn.adaptive_avg_pool3d"};
  for (std::int64_t k = 0; k < 4; ++k) {
    const char* op = kAdaptiveOps[k];
    nn.def(
        kAdaptiveNames[k],
        [op, k](const Array& x, py::handle output_size, bool channels_last) {
          if (k && x.ndim() != k + 2)
            throw ivy::ValueError(std::string("[") + op + "] expects an input of rank " + std::to_string(k + 2) +
                                  " ([N, C, *spatial] or [N, *spatial, C]), got shape " + x.shape().str());
          return N::adaptive_avg_pool(x, dims_arg(output_size, op, "output_size"), channels_last);
        },
        py::arg("x"), py::arg("output_size"), py::arg("channels_last") = false);
  }
}

// ---------------------------------------------------------------- functional
void bind_functional(py::module_& nn) {
  nn.def("relu", &N::relu, py::arg("x"));
  nn.def("leaky_relu", &N::leaky_relu, py::arg("x"), py::arg("negative_slope") = 0.01);
  nn.def("elu", &N::elu, py::arg("x"), py::arg("alpha") = 1.0);
  nn.def(
      "gelu",
      [](const Array& x, py::handle approximate) {
        // torch's approximate="none" | "tanh", or a bool
        if (PyBool_Check(approximate.ptr())) return N::gelu(x, approximate.ptr() == Py_True);
        if (PyUnicode_Check(approximate.ptr())) {
          std::string a = approximate.cast<std::string>();
          if (a == "none" || a == "tanh") return N::gelu(x, a == "tanh");
        }
        throw ivy::ValueError("[nn.gelu] approximate must be \"none\", \"tanh\" or a bool, got " +
                              std::string(py::repr(approximate)));
      },
      py::arg("x"), py::arg("approximate") = "none");
  nn.def("silu", &N::silu, py::arg("x"));
  nn.def("softplus", &N::softplus, py::arg("x"), py::arg("beta") = 1.0, py::arg("threshold") = 20.0);
  nn.def("sigmoid", &N::sigmoid, py::arg("x"));
  nn.def("hard_sigmoid", &N::hard_sigmoid, py::arg("x"));
  nn.def("hardswish", &N::hardswish, py::arg("x"));
  nn.def("mish", &N::mish, py::arg("x"));
  nn.def("softmax", &N::softmax, py::arg("x"), py::arg("axis") = -1);
  nn.def("log_softmax", &N::log_softmax, py::arg("x"), py::arg("axis") = -1);

  // ------------------------------------------------------------ losses
  nn.def(
      "cross_entropy",
      [](const Array& input, const Array& target, const OArray& weight, std::int64_t ignore_index,
         const std::string& reduction, double label_smoothing) {
        N::CrossEntropyOptions o;
        o.weight = opt(weight);
        o.ignore_index = ignore_index;
        o.reduction = reduction_arg(reduction, "nn.cross_entropy");
        o.label_smoothing = label_smoothing;
        return N::cross_entropy(input, target, o);
      },
      py::arg("input"), py::arg("target"), py::arg("weight") = py::none(), py::arg("ignore_index") = -100,
      py::arg("reduction") = "mean", py::arg("label_smoothing") = 0.0);
  nn.def(
      "nll_loss",
      [](const Array& input, const Array& target, const OArray& weight, std::int64_t ignore_index,
         const std::string& reduction) {
        return N::nll_loss(input, target, opt(weight), ignore_index, reduction_arg(reduction, "nn.nll_loss"));
      },
      py::arg("input"), py::arg("target"), py::arg("weight") = py::none(), py::arg("ignore_index") = -100,
      py::arg("reduction") = "mean");
  nn.def(
      "binary_cross_entropy",
      [](const Array& input, const Array& target, const OArray& weight, const std::string& reduction) {
        return N::binary_cross_entropy(input, target, opt(weight), reduction_arg(reduction, "nn.binary_cross_entropy"));
      },
      py::arg("input"), py::arg("target"), py::arg("weight") = py::none(), py::arg("reduction") = "mean");
  nn.def(
      "binary_cross_entropy_with_logits",
      [](const Array& input, const Array& target, const OArray& weight, const std::string& reduction,
         const OArray& pos_weight) {
        return N::binary_cross_entropy_with_logits(
            input, target, opt(weight), opt(pos_weight),
            reduction_arg(reduction, "nn.binary_cross_entropy_with_logits"));
      },
      py::arg("input"), py::arg("target"), py::arg("weight") = py::none(), py::arg("reduction") = "mean",
      py::arg("pos_weight") = py::none());
  nn.def(
      "mse_loss",
      [](const Array& input, const Array& target, const std::string& reduction) {
        return N::mse_loss(input, target, reduction_arg(reduction, "nn.mse_loss"));
      },
      py::arg("input"), py::arg("target"), py::arg("reduction") = "mean");
  nn.def(
      "l1_loss",
      [](const Array& input, const Array& target, const std::string& reduction) {
        return N::l1_loss(input, target, reduction_arg(reduction, "nn.l1_loss"));
      },
      py::arg("input"), py::arg("target"), py::arg("reduction") = "mean");
  nn.def(
      "huber_loss",
      [](const Array& input, const Array& target, const std::string& reduction, double delta) {
        return N::huber_loss(input, target, delta, reduction_arg(reduction, "nn.huber_loss"));
      },
      py::arg("input"), py::arg("target"), py::arg("reduction") = "mean", py::arg("delta") = 1.0);
  nn.def(
      "smooth_l1_loss",
      [](const Array& input, const Array& target, const std::string& reduction, double beta) {
        return N::smooth_l1_loss(input, target, beta, reduction_arg(reduction, "nn.smooth_l1_loss"));
      },
      py::arg("input"), py::arg("target"), py::arg("reduction") = "mean", py::arg("beta") = 1.0);
  nn.def(
      "kl_div",
      [](const Array& input, const Array& target, const std::string& reduction, bool log_target) {
        return N::kl_div(input, target, reduction_arg(reduction, "nn.kl_div", true), log_target);
      },
      py::arg("input"), py::arg("target"), py::arg("reduction") = "mean", py::arg("log_target") = false);

  // ------------------------------------------------------------ normalization
  // batch_norm and instance_norm return the output and, as torch does, update the running
  // statistics passed in "in place": the Python arrays are rebound to the new values.
  nn.def(
      "batch_norm",
      [](const Array& x, py::object running_mean, py::object running_var, const OArray& weight, const OArray& bias,
         bool training, double momentum, double eps, std::int64_t channel_axis) {
        const char* op = "nn.batch_norm";
        OArray rm = array_or_none(running_mean, op, "running_mean");
        OArray rv = array_or_none(running_var, op, "running_var");
        N::NormResult r =
            N::batch_norm(x, opt(rm), opt(rv), opt(weight), opt(bias), training, momentum, eps, channel_axis);
        rebind(running_mean, r.running_mean);
        rebind(running_var, r.running_var);
        return r.output;
      },
      py::arg("x"), py::arg("running_mean"), py::arg("running_var"), py::arg("weight") = py::none(),
      py::arg("bias") = py::none(), py::arg("training") = false, py::arg("momentum") = 0.1, py::arg("eps") = 1e-5,
      py::arg("channel_axis") = 1);
  nn.def(
      "instance_norm",
      [](const Array& x, py::object running_mean, py::object running_var, const OArray& weight, const OArray& bias,
         bool use_input_stats, double momentum, double eps, std::int64_t channel_axis) {
        const char* op = "nn.instance_norm";
        OArray rm = array_or_none(running_mean, op, "running_mean");
        OArray rv = array_or_none(running_var, op, "running_var");
        N::NormResult r = N::instance_norm(x, opt(rm), opt(rv), opt(weight), opt(bias), use_input_stats, momentum,
                                           eps, channel_axis);
        rebind(running_mean, r.running_mean);
        rebind(running_var, r.running_var);
        return r.output;
      },
      py::arg("x"), py::arg("running_mean") = py::none(), py::arg("running_var") = py::none(),
      py::arg("weight") = py::none(), py::arg("bias") = py::none(), py::arg("use_input_stats") = true,
      py::arg("momentum") = 0.1, py::arg("eps") = 1e-5, py::arg("channel_axis") = 1);
  nn.def(
      "layer_norm",
      [](const Array& x, py::handle normalized_shape, const OArray& weight, const OArray& bias, double eps) {
        return N::layer_norm(x, dims_arg(normalized_shape, "nn.layer_norm", "normalized_shape"), opt(weight),
                             opt(bias), eps);
      },
      py::arg("x"), py::arg("normalized_shape"), py::arg("weight") = py::none(), py::arg("bias") = py::none(),
      py::arg("eps") = 1e-5);
  nn.def(
      "group_norm",
      [](const Array& x, std::int64_t num_groups, const OArray& weight, const OArray& bias, double eps,
         std::int64_t channel_axis) { return N::group_norm(x, num_groups, opt(weight), opt(bias), eps, channel_axis); },
      py::arg("x"), py::arg("num_groups"), py::arg("weight") = py::none(), py::arg("bias") = py::none(),
      py::arg("eps") = 1e-5, py::arg("channel_axis") = 1);

  // ------------------------------------------------------------ dropout, embedding, one_hot
  nn.def(
      "dropout",
      [](const Array& x, double p, bool training, std::optional<std::uint64_t> seed) {
        return N::dropout(x, p, training, seed);
      },
      py::arg("x"), py::arg("p") = 0.5, py::arg("training") = true, py::arg("seed") = py::none());
  nn.def("embedding", &N::embedding, py::arg("input"), py::arg("weight"));
  nn.def(
      "one_hot",
      [](const Array& x, std::int64_t num_classes, std::optional<DType> dtype) {
        return N::one_hot(x, num_classes, dtype.value_or(DType::float32));
      },
      py::arg("x"), py::arg("num_classes") = -1, py::arg("dtype") = py::none());
}

// ---------------------------------------------------------------- pad, interpolate
void bind_resample(py::module_& nn) {
  nn.def(
      "pad",
      [](const Array& x, py::handle pad, const std::string& mode, double value) {
        return N::pad(x, ints_arg(pad, "nn.pad", "pad"), mode, value);
      },
      py::arg("x"), py::arg("pad"), py::arg("mode") = "constant", py::arg("value") = 0.0);
  nn.def(
      "pad_axes",
      [](const Array& x, const std::vector<std::pair<std::int64_t, std::int64_t>>& pad_width, const std::string& mode,
         double value) { return N::pad_axes(x, pad_width, mode, value); },
      py::arg("x"), py::arg("pad_width"), py::arg("mode") = "constant", py::arg("value") = 0.0);
  nn.def(
      "interpolate",
      [](const Array& x, py::handle size, py::handle scale_factor, const std::string& mode,
         std::optional<bool> align_corners, std::optional<bool> recompute_scale_factor) {
        const char* op = "nn.interpolate";
        N::InterpolateOptions o;
        if (!size.is_none()) o.size = ints_arg(size, op, "size");
        auto factor = [&](py::handle f) {
          if (PyBool_Check(f.ptr()) || !(PyFloat_Check(f.ptr()) || PyLong_Check(f.ptr()) || PyIndex_Check(f.ptr())))
            throw ivy::TypeError("[nn.interpolate] scale_factor must be a number or a sequence of numbers, got " +
                                 std::string(py::repr(scale_factor)));
          o.scale_factor.push_back(py::float_(py::reinterpret_borrow<py::object>(f)).cast<double>());
        };
        if (!scale_factor.is_none()) {
          if (PySequence_Check(scale_factor.ptr()) && !PyUnicode_Check(scale_factor.ptr())) {
            for (auto f : py::reinterpret_borrow<py::sequence>(scale_factor)) factor(f);
          } else {
            factor(scale_factor);
          }
        }
        o.mode = mode;
        o.align_corners = align_corners;
        o.recompute_scale_factor = recompute_scale_factor.value_or(false);
        return N::interpolate(x, o);
      },
      py::arg("x"), py::arg("size") = py::none(), py::arg("scale_factor") = py::none(), py::arg("mode") = "nearest",
      py::arg("align_corners") = py::none(), py::arg("recompute_scale_factor") = py::none());
}

// ---------------------------------------------------------------- attention, recurrent
N::RnnWeights rnn_weights(py::handle h, std::size_t k) {
  const std::string what = "[nn.lstm/gru] weights[" + std::to_string(k) + "]";
  if (PyUnicode_Check(h.ptr()) || !PySequence_Check(h.ptr()))
    throw ivy::TypeError(what + " must be a tuple (w_ih, w_hh) or (w_ih, w_hh, b_ih, b_hh)");
  py::sequence s = py::reinterpret_borrow<py::sequence>(h);
  if (s.size() != 2 && s.size() != 4)
    throw ivy::ValueError(what + " has " + std::to_string(s.size()) +
                          " entries; expected (w_ih, w_hh) or (w_ih, w_hh, b_ih, b_hh)");
  N::RnnWeights w;
  w.w_ih = s[0].cast<Array>();
  w.w_hh = s[1].cast<Array>();
  if (s.size() == 4) {
    w.b_ih = s[2].cast<OArray>();
    w.b_hh = s[3].cast<OArray>();
  }
  return w;
}

std::vector<N::RnnWeights> rnn_weights_list(py::handle h) {
  if (PyUnicode_Check(h.ptr()) || !PySequence_Check(h.ptr()))
    throw ivy::TypeError("[nn.lstm/gru] weights must be a list of per-layer tuples (w_ih, w_hh[, b_ih, b_hh])");
  std::vector<N::RnnWeights> out;
  std::size_t k = 0;
  for (auto item : py::reinterpret_borrow<py::sequence>(h)) out.push_back(rnn_weights(item, k++));
  return out;
}

void bind_attention_rnn(py::module_& nn) {
  nn.def(
      "scaled_dot_product_attention",
      [](const Array& q, const Array& k, const Array& v, const OArray& attn_mask, double dropout_p, bool is_causal,
         std::optional<double> scale) {
        if (dropout_p != 0.0)
          throw ivy::NotImplementedError("[nn.scaled_dot_product_attention] dropout_p must be 0 (got " +
                                         std::to_string(dropout_p) + "); apply nn.dropout to the output instead");
        return N::scaled_dot_product_attention(q, k, v, attn_mask, is_causal, scale);
      },
      py::arg("query"), py::arg("key"), py::arg("value"), py::arg("attn_mask") = py::none(),
      py::arg("dropout_p") = 0.0, py::arg("is_causal") = false, py::arg("scale") = py::none());
  nn.def(
      "multi_head_attention",
      [](const Array& q, const Array& k, const Array& v, std::int64_t num_heads, const OArray& in_proj_weight,
         const OArray& in_proj_bias, const Array& out_proj_weight, const OArray& out_proj_bias,
         const OArray& key_padding_mask, const OArray& attn_mask, bool need_weights, bool average_attn_weights,
         const OArray& bias_k, const OArray& bias_v, bool add_zero_attn, const OArray& q_proj_weight,
         const OArray& k_proj_weight, const OArray& v_proj_weight) {
        N::MultiHeadAttentionExtras e;
        e.average_attn_weights = average_attn_weights;
        e.bias_k = bias_k;
        e.bias_v = bias_v;
        e.add_zero_attn = add_zero_attn;
        e.q_proj_weight = q_proj_weight;
        e.k_proj_weight = k_proj_weight;
        e.v_proj_weight = v_proj_weight;
        N::MultiHeadAttentionResult r = N::multi_head_attention(q, k, v, num_heads, in_proj_weight, in_proj_bias,
                                                                out_proj_weight, out_proj_bias, key_padding_mask,
                                                                attn_mask, need_weights, e);
        return py::make_tuple(r.output, r.weights ? py::cast(*r.weights) : py::none());
      },
      py::arg("query"), py::arg("key"), py::arg("value"), py::arg("num_heads"), py::arg("in_proj_weight"),
      py::arg("in_proj_bias"), py::arg("out_proj_weight"), py::arg("out_proj_bias"),
      py::arg("key_padding_mask") = py::none(), py::arg("attn_mask") = py::none(), py::arg("need_weights") = true,
      py::arg("average_attn_weights") = true, py::arg("bias_k") = py::none(), py::arg("bias_v") = py::none(),
      py::arg("add_zero_attn") = false, py::arg("q_proj_weight") = py::none(), py::arg("k_proj_weight") = py::none(),
      py::arg("v_proj_weight") = py::none());
  nn.def(
      "lstm_cell",
      [](const Array& x, const std::pair<Array, Array>& hx, const Array& w_ih, const Array& w_hh, const OArray& b_ih,
         const OArray& b_hh) {
        N::LstmState s = N::lstm_cell(x, N::LstmState{hx.first, hx.second}, w_ih, w_hh, b_ih, b_hh);
        return py::make_tuple(s.h, s.c);
      },
      py::arg("x"), py::arg("hx"), py::arg("w_ih"), py::arg("w_hh"), py::arg("b_ih") = py::none(),
      py::arg("b_hh") = py::none());
  nn.def("gru_cell", &N::gru_cell, py::arg("x"), py::arg("hx"), py::arg("w_ih"), py::arg("w_hh"),
         py::arg("b_ih") = py::none(), py::arg("b_hh") = py::none());
  nn.def(
      "lstm",
      [](const Array& x, py::handle weights, std::int64_t num_layers, bool bidirectional, py::object hx) {
        OArray h0, c0;
        if (!hx.is_none()) {
          auto p = hx.cast<std::pair<Array, Array>>();
          h0 = p.first;
          c0 = p.second;
        }
        N::LstmResult r = N::lstm(x, rnn_weights_list(weights), num_layers, bidirectional, h0, c0);
        return py::make_tuple(r.output, py::make_tuple(r.h_n, r.c_n));
      },
      py::arg("x"), py::arg("weights"), py::arg("num_layers") = 1, py::arg("bidirectional") = false,
      py::arg("hx") = py::none());
  nn.def(
      "gru",
      [](const Array& x, py::handle weights, std::int64_t num_layers, bool bidirectional, const OArray& hx) {
        N::GruResult r = N::gru(x, rnn_weights_list(weights), num_layers, bidirectional, hx);
        return py::make_tuple(r.output, r.h_n);
      },
      py::arg("x"), py::arg("weights"), py::arg("num_layers") = 1, py::arg("bidirectional") = false,
      py::arg("hx") = py::none());
}

}  // namespace

void bind_container(py::module_& m);  // python/src/container.cpp

void bind_nn(py::module_& m) {
  py::module_ nn = m.def_submodule("nn", "ivy's neural-network functions (ivy::nn)");
  bind_conv(nn);
  bind_functional(nn);
  bind_resample(nn);
  bind_attention_rnn(nn);
  bind_container(m);
}

}  // namespace ivy_py

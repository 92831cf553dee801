// The layers of include/ivy/module.hpp over the ivy::nn functions. Weights start as
// LibTorch's defaults (uniform in +-1/sqrt(fan_in) for dense and convolution weights and
// biases, ones and zeros for normalization, normal(0, 1) for embeddings), drawn from the
// seeded init stream so that every backend starts from the same values.
#include <cmath>
#include <string>

#include "ivy/functional.hpp"
#include "ivy/module.hpp"
#include "ivy/nn_functional.hpp"

namespace ivy::nn {
namespace {
std::string dims_str(const Dims& d) { return d.str(); }
double fan_in_bound(double fan_in) { return fan_in > 0 ? 1.0 / std::sqrt(fan_in) : 0.0; }
}  // namespace

// ---------------------------------------------------------------- Linear
Linear::Linear(std::int64_t in, std::int64_t out, bool bias, const init::Where& where) : in_(in), out_(out), bias_(bias) {
  if (in < 0 || out < 0)
    throw ValueError("[Linear] features must be >= 0, got in " + std::to_string(in) + ", out " + std::to_string(out));
  const double b = fan_in_bound(static_cast<double>(in));
  register_parameter("weight", init::uniform(Shape{out, in}, -b, b, where));
  if (bias) register_parameter("bias", init::uniform(Shape{out}, -b, b, where));
}
Array Linear::forward(const Array& x) { return linear(x, param("weight"), bias_ ? param("bias") : Array()); }
std::string Linear::describe() const {
  return "Linear " + std::to_string(in_) + " -> " + std::to_string(out_) + (bias_ ? "" : ", no bias");
}

// ---------------------------------------------------------------- convolutions
Conv::Conv(std::int64_t in, std::int64_t out, Dims kernel, ConvOptions options, bool bias, const init::Where& where)
    : in_(in), out_(out), kernel_(std::move(kernel)), options_(std::move(options)), bias_(bias) {
  if (kernel_.empty() || kernel_.size() > 3)
    throw ValueError("[Conv] the kernel must have 1 to 3 axes, got " + kernel_.str());
  if (options_.groups < 1 || in % options_.groups != 0 || out % options_.groups != 0)
    throw ValueError("[Conv] groups " + std::to_string(options_.groups) + " must divide in_channels " +
                     std::to_string(in) + " and out_channels " + std::to_string(out));
  Shape ws{out, in / options_.groups};
  for (auto k : kernel_) ws.push_back(k);
  const double b = fan_in_bound(init::fans(ws).first);
  register_parameter("weight", init::uniform(ws, -b, b, where));
  if (bias) register_parameter("bias", init::uniform(Shape{out}, -b, b, where));
}
Array Conv::forward(const Array& x) { return conv(x, param("weight"), bias_ ? param("bias") : Array(), options_); }
std::string Conv::describe() const {
  return "Conv" + std::to_string(kernel_.size()) + "D " + std::to_string(in_) + " -> " + std::to_string(out_) +
         ", kernel " + dims_str(kernel_) + (options_.groups > 1 ? ", groups " + std::to_string(options_.groups) : "");
}
Conv2D::Conv2D(std::int64_t in, std::int64_t out, Dims kernel, ConvOptions options, bool bias, const init::Where& where)
    : Conv(in, out, kernel.size() == 1 ? Dims{kernel[0], kernel[0]} : kernel, std::move(options), bias, where) {}
Conv3D::Conv3D(std::int64_t in, std::int64_t out, Dims kernel, ConvOptions options, bool bias, const init::Where& where)
    : Conv(in, out, kernel.size() == 1 ? Dims{kernel[0], kernel[0], kernel[0]} : kernel, std::move(options), bias,
           where) {}
namespace {
ConvOptions depthwise(ConvOptions o, std::int64_t channels) {
  o.groups = channels;
  return o;
}
}  // namespace
DepthwiseConv2D::DepthwiseConv2D(std::int64_t channels, Dims kernel, std::int64_t multiplier, ConvOptions options,
                                 bool bias, const init::Where& where)
    : Conv(channels, channels * multiplier, kernel.size() == 1 ? Dims{kernel[0], kernel[0]} : kernel,
           depthwise(std::move(options), channels), bias, where) {}

ConvTranspose::ConvTranspose(std::int64_t in, std::int64_t out, Dims kernel, ConvTransposeOptions options, bool bias,
                             const init::Where& where)
    : options_(std::move(options)), bias_(bias) {
  if (kernel.empty() || kernel.size() > 3)
    throw ValueError("[ConvTranspose] the kernel must have 1 to 3 axes, got " + kernel.str());
  if (options_.groups < 1 || in % options_.groups != 0 || out % options_.groups != 0)
    throw ValueError("[ConvTranspose] groups " + std::to_string(options_.groups) + " must divide in_channels " +
                     std::to_string(in) + " and out_channels " + std::to_string(out));
  Shape ws{in, out / options_.groups};
  for (auto k : kernel) ws.push_back(k);
  // LibTorch computes the fan-in of a transposed weight from its dimension 1
  const double b = fan_in_bound(init::fans(ws).first);
  register_parameter("weight", init::uniform(ws, -b, b, where));
  if (bias) register_parameter("bias", init::uniform(Shape{out}, -b, b, where));
}
Array ConvTranspose::forward(const Array& x) {
  return conv_transpose(x, param("weight"), bias_ ? param("bias") : Array(), options_);
}

// ---------------------------------------------------------------- normalization
BatchNorm::BatchNorm(std::int64_t n, double eps, double momentum, bool affine, bool track, std::int64_t axis,
                     const init::Where& where)
    : features_(n), eps_(eps), momentum_(momentum), affine_(affine), track_(track), axis_(axis) {
  if (affine) {
    register_parameter("weight", init::ones(Shape{n}, where));
    register_parameter("bias", init::zeros(Shape{n}, where));
  }
  if (track) {
    register_buffer("running_mean", init::zeros(Shape{n}, where));
    register_buffer("running_var", init::ones(Shape{n}, where));
  }
}
Array BatchNorm::forward(const Array& x) {
  Array rm = track_ ? buffer("running_mean") : Array(), rv = track_ ? buffer("running_var") : Array();
  NormResult r = batch_norm(x, rm, rv, affine_ ? param("weight") : Array(), affine_ ? param("bias") : Array(),
                            training() || !track_, momentum_, eps_, axis_);
  if (track_ && training()) {
    buffer("running_mean") = r.running_mean;
    buffer("running_var") = r.running_var;
  }
  return r.output;
}
std::string BatchNorm::describe() const { return "BatchNorm " + std::to_string(features_); }

LayerNorm::LayerNorm(Dims shape, double eps, bool affine, const init::Where& where)
    : shape_(std::move(shape)), eps_(eps), affine_(affine) {
  if (affine) {
    Shape s = shape_;
    register_parameter("weight", init::ones(s, where));
    register_parameter("bias", init::zeros(s, where));
  }
}
Array LayerNorm::forward(const Array& x) {
  return layer_norm(x, shape_, affine_ ? param("weight") : Array(), affine_ ? param("bias") : Array(), eps_);
}

GroupNorm::GroupNorm(std::int64_t groups, std::int64_t channels, double eps, bool affine, std::int64_t axis,
                     const init::Where& where)
    : groups_(groups), eps_(eps), affine_(affine), axis_(axis) {
  if (affine) {
    register_parameter("weight", init::ones(Shape{channels}, where));
    register_parameter("bias", init::zeros(Shape{channels}, where));
  }
}
Array GroupNorm::forward(const Array& x) {
  return group_norm(x, groups_, affine_ ? param("weight") : Array(), affine_ ? param("bias") : Array(), eps_, axis_);
}

// ---------------------------------------------------------------- others
Dropout::Dropout(double p, std::uint64_t seed) : p_(p), seed_(seed) {
  if (!(p >= 0 && p <= 1)) throw ValueError("[Dropout] p must be in [0, 1], got " + std::to_string(p));
}
Array Dropout::forward(const Array& x) {
  if (!training()) return x;
  return dropout(x, p_, true, seed_ + calls_++);
}

Embedding::Embedding(std::int64_t num, std::int64_t dim, const init::Where& where) {
  register_parameter("weight", init::normal(Shape{num, dim}, 0.0, 1.0, where));
}
Array Embedding::forward(const Array& indices) { return embedding(indices, param("weight")); }

Array Flatten::forward(const Array& x) {
  if (x.ndim() < 1) throw ValueError("[Flatten] expects an array of rank >= 1, got shape " + x.shape().str());
  const std::int64_t n = x.shape()[0];
  std::int64_t rest = 1;
  for (std::int64_t i = 1; i < x.ndim(); ++i) rest *= x.shape()[i];
  return reshape(x, Shape{n, rest});
}

std::shared_ptr<Activation> ReLU() { return std::make_shared<Activation>("ReLU", [](const Array& x) { return relu(x); }); }
std::shared_ptr<Activation> GELU(bool approximate) {
  return std::make_shared<Activation>(approximate ? "GELU (tanh)" : "GELU",
                                      [approximate](const Array& x) { return gelu(x, approximate); });
}
std::shared_ptr<Activation> SiLU() { return std::make_shared<Activation>("SiLU", [](const Array& x) { return silu(x); }); }
std::shared_ptr<Activation> Sigmoid() {
  return std::make_shared<Activation>("Sigmoid", [](const Array& x) { return sigmoid(x); });
}
std::shared_ptr<Activation> Tanh() { return std::make_shared<Activation>("Tanh", [](const Array& x) { return ivy::tanh(x); }); }
std::shared_ptr<Activation> LeakyReLU(double slope) {
  return std::make_shared<Activation>("LeakyReLU", [slope](const Array& x) { return leaky_relu(x, slope); });
}

Sequential::Sequential(std::initializer_list<std::shared_ptr<Module>> layers) {
  for (const auto& l : layers) add(l);
}
Sequential& Sequential::add(std::shared_ptr<Module> layer) {
  register_module(std::to_string(layers_.size()), layer);
  layers_.push_back(std::move(layer));
  return *this;
}
Array Sequential::forward(const Array& x) {
  Array y = x;
  for (auto& l : layers_) y = l->forward(y);
  return y;
}

}  // namespace ivy::nn

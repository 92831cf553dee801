// ivy::nn::Module: stateful layers whose variables live in a Container (the paper's
// ivy.Module), written once and run on every backend; and the initializers they use.
//
// A module owns named parameters (trained), named buffers (state that is not trained, e.g.
// batch-norm statistics) and named submodules. parameters() collects them into a Container
// ("conv1/weight", ...); set_parameters() puts a Container of the same structure back, which
// is how a training step swaps in the traced arrays of a gradient computation and then the
// optimizer's new values:
//
//   auto [loss, grads] = nn::value_and_grad(model, [&](nn::Module& m) { return loss_fn(m(x), y); });
//   model.set_parameters(optimizer.step(model.parameters(), grads));
//
// User modules subclass Module, register their variables and submodules in the constructor
// and override forward().
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ivy/container.hpp"
#include "ivy/nn_conv.hpp"

namespace ivy::nn {

// ---------------------------------------------------------------- initializers
// Host-side generation from one seeded stream (a 64-bit generator of ivy's own), then copied
// to the backend: the same seed gives the same values on every backend. Each call advances
// the thread's stream; init::seed restarts it.
namespace init {
void seed(std::uint64_t s);
struct Where {
  DType dtype = DType::float32;
  Backend backend = {};
  Device device = {};
};
// fan_in / fan_out of a weight shape: [out, in, *kernel] (dense or convolution)
std::pair<double, double> fans(const Shape& shape);
Array zeros(const Shape& shape, const Where& w = {});
Array ones(const Shape& shape, const Where& w = {});
Array constant(const Shape& shape, double value, const Where& w = {});
Array uniform(const Shape& shape, double low, double high, const Where& w = {});
Array normal(const Shape& shape, double mean, double std, const Where& w = {});
// normal(mean, std) redrawn outside [a, b] (absolute bounds, as torch's trunc_normal_)
Array truncated_normal(const Shape& shape, double mean, double std, double a, double b, const Where& w = {});
Array glorot_uniform(const Shape& shape, double gain = 1.0, const Where& w = {});  // Xavier
Array glorot_normal(const Shape& shape, double gain = 1.0, const Where& w = {});
// He / Kaiming with gain sqrt(2 / (1 + a^2)) over fan_in (mode "fan_in") or fan_out
Array he_uniform(const Shape& shape, double a = 0.0, bool fan_in = true, const Where& w = {});
Array he_normal(const Shape& shape, double a = 0.0, bool fan_in = true, const Where& w = {});
// rows (or columns) orthonormal: Gram-Schmidt on a normal matrix, on the host (the same
// bits on every backend)
Array orthogonal(const Shape& shape, double gain = 1.0, const Where& w = {});
}  // namespace init

// ---------------------------------------------------------------- Module
class Module {
 public:
  Module() = default;
  virtual ~Module() = default;
  Module(const Module&) = delete;
  Module& operator=(const Module&) = delete;

  // The layer's function of one array (modules of several inputs add their own calls).
  virtual Array forward(const Array& x);
  Array operator()(const Array& x) { return forward(x); }

  // Parameters, own then each submodule's under its name, in registration order.
  Container parameters() const;
  // Replaces every parameter by the array at its path (same structure, shapes and dtypes;
  // a [module] error otherwise, before anything is changed).
  void set_parameters(const Container& params);
  Container buffers() const;
  void set_buffers(const Container& buffers);
  // {"params": parameters(), "buffers": buffers()} (buffers only when there are some)
  Container state() const;
  void load_state(const Container& state);
  std::int64_t num_parameters() const;  // elements

  // train/eval mode, for this module and every submodule
  void train(bool on = true);
  void eval() { train(false); }
  bool training() const { return training_; }

  // Every variable on another backend (copies).
  void to_backend(Backend b);
  // A readable tree of the submodules with their parameters' shapes.
  std::string str() const;

  // safetensors checkpoints of state() (atomic write; validated load, [load] errors)
  void save(const std::string& path) const;
  void load(const std::string& path);

 protected:
  // Registration, in the constructor. Names are non-empty, without '/', unique per module.
  void register_parameter(const std::string& name, Array value);
  void register_buffer(const std::string& name, Array value);
  template <class M>
  std::shared_ptr<M> register_module(const std::string& name, std::shared_ptr<M> m) {
    add_child(name, m);
    return m;
  }
  // A registered variable by name ([module] error when absent).
  Array& param(const std::string& name);
  Array& buffer(const std::string& name);
  virtual std::string describe() const { return ""; }  // one line of settings for str()

 private:
  void add_child(const std::string& name, std::shared_ptr<Module> m);
  void check_name(const std::string& name) const;
  void collect(const std::string& prefix, bool buffers, std::vector<std::pair<std::string, Array>>& out) const;
  void assign(const std::string& prefix, bool buffers, const Container& c);
  void print(std::string& out, const std::string& name, int depth) const;

  std::vector<std::pair<std::string, Array>> params_;
  std::vector<std::pair<std::string, Array>> buffers_;
  std::vector<std::pair<std::string, std::shared_ptr<Module>>> children_;
  bool training_ = true;
};

// The loss and its gradients with respect to the module's parameters (a Container of the
// parameters' structure). The module's parameters are swapped for the traced ones during
// the call and restored after it (also when loss throws); buffers the call updates keep
// their new values.
std::pair<Array, Container> value_and_grad(Module& model, const std::function<Array(Module&)>& loss);
// The same, also handing each parameter's gradient to on_ready(path, grad) as soon as the
// backward pass has finished it, while the pass goes on (each parameter once; the order is
// the backward pass's, roughly the reverse of the forward's).
using GradReady = std::function<void(const std::string& path, const Array& grad)>;
std::pair<Array, Container> value_and_grad(Module& model, const std::function<Array(Module&)>& loss,
                                           const GradReady& on_ready);
// The same over a Container of variables (any function of them).
std::pair<Array, Container> value_and_grad(const std::function<Array(const Container&)>& f, const Container& variables);

// ---------------------------------------------------------------- layers
// Each takes the dtype and backend of its variables through init::Where (default float32,
// the current default backend); channels-first input unless its options say channels_last.

class Linear : public Module {
 public:
  Linear(std::int64_t in_features, std::int64_t out_features, bool bias = true, const init::Where& where = {});
  Array forward(const Array& x) override;

 protected:
  std::string describe() const override;

 private:
  std::int64_t in_, out_;
  bool bias_;
};

// A convolution over 1, 2 or 3 spatial axes (the kernel's length says which).
class Conv : public Module {
 public:
  Conv(std::int64_t in_channels, std::int64_t out_channels, Dims kernel, ConvOptions options = {}, bool bias = true,
       const init::Where& where = {});
  Array forward(const Array& x) override;

 protected:
  std::string describe() const override;

 private:
  std::int64_t in_, out_;
  Dims kernel_;
  ConvOptions options_;
  bool bias_;
};
class Conv1D : public Conv {
 public:
  Conv1D(std::int64_t in, std::int64_t out, std::int64_t kernel, ConvOptions options = {}, bool bias = true,
         const init::Where& where = {})
      : Conv(in, out, Dims{kernel}, std::move(options), bias, where) {}
};
class Conv2D : public Conv {
 public:
  Conv2D(std::int64_t in, std::int64_t out, Dims kernel, ConvOptions options = {}, bool bias = true,
         const init::Where& where = {});
};
class Conv3D : public Conv {
 public:
  Conv3D(std::int64_t in, std::int64_t out, Dims kernel, ConvOptions options = {}, bool bias = true,
         const init::Where& where = {});
};
// groups = channels; out_channels = channels * multiplier
class DepthwiseConv2D : public Conv {
 public:
  DepthwiseConv2D(std::int64_t channels, Dims kernel, std::int64_t multiplier = 1, ConvOptions options = {},
                  bool bias = true, const init::Where& where = {});
};
class ConvTranspose : public Module {
 public:
  ConvTranspose(std::int64_t in_channels, std::int64_t out_channels, Dims kernel, ConvTransposeOptions options = {},
                bool bias = true, const init::Where& where = {});
  Array forward(const Array& x) override;

 private:
  ConvTransposeOptions options_;
  bool bias_;
};

// Batch normalization over the channel axis (1, or -1 for channels-last), any spatial rank.
class BatchNorm : public Module {
 public:
  explicit BatchNorm(std::int64_t num_features, double eps = 1e-5, double momentum = 0.1, bool affine = true,
                     bool track_running_stats = true, std::int64_t channel_axis = 1, const init::Where& where = {});
  Array forward(const Array& x) override;

 protected:
  std::string describe() const override;

 private:
  std::int64_t features_;
  double eps_, momentum_;
  bool affine_, track_;
  std::int64_t axis_;
};
class LayerNorm : public Module {
 public:
  explicit LayerNorm(Dims normalized_shape, double eps = 1e-5, bool affine = true, const init::Where& where = {});
  Array forward(const Array& x) override;

 private:
  Dims shape_;
  double eps_;
  bool affine_;
};
class GroupNorm : public Module {
 public:
  GroupNorm(std::int64_t num_groups, std::int64_t num_channels, double eps = 1e-5, bool affine = true,
            std::int64_t channel_axis = 1, const init::Where& where = {});
  Array forward(const Array& x) override;

 private:
  std::int64_t groups_;
  double eps_;
  bool affine_;
  std::int64_t axis_;
};
// Dropout with a seed stream: call k uses seed + k, so a run is reproducible on any backend.
class Dropout : public Module {
 public:
  explicit Dropout(double p = 0.5, std::uint64_t seed = 0);
  Array forward(const Array& x) override;

 private:
  double p_;
  std::uint64_t seed_, calls_ = 0;
};
class Embedding : public Module {
 public:
  Embedding(std::int64_t num_embeddings, std::int64_t dim, const init::Where& where = {});
  Array forward(const Array& indices) override;
};

class MaxPool : public Module {
 public:
  MaxPool(Dims window, PoolOptions options = {}) : window_(std::move(window)), options_(std::move(options)) {}
  Array forward(const Array& x) override { return max_pool(x, window_, options_); }

 private:
  Dims window_;
  PoolOptions options_;
};
class AvgPool : public Module {
 public:
  AvgPool(Dims window, PoolOptions options = {}) : window_(std::move(window)), options_(std::move(options)) {}
  Array forward(const Array& x) override { return avg_pool(x, window_, options_); }

 private:
  Dims window_;
  PoolOptions options_;
};
class AdaptiveAvgPool : public Module {
 public:
  explicit AdaptiveAvgPool(Dims output_size, bool channels_last = false)
      : size_(std::move(output_size)), channels_last_(channels_last) {}
  Array forward(const Array& x) override { return adaptive_avg_pool(x, size_, channels_last_); }

 private:
  Dims size_;
  bool channels_last_;
};
// [N, ...] -> [N, prod(...)]
class Flatten : public Module {
 public:
  Array forward(const Array& x) override;
};
// An activation function as a layer (ReLU, GELU, ... by the function).
class Activation : public Module {
 public:
  Activation(std::string name, std::function<Array(const Array&)> fn) : name_(std::move(name)), fn_(std::move(fn)) {}
  Array forward(const Array& x) override { return fn_(x); }

 protected:
  std::string describe() const override { return name_; }

 private:
  std::string name_;
  std::function<Array(const Array&)> fn_;
};
std::shared_ptr<Activation> ReLU();
std::shared_ptr<Activation> GELU(bool approximate = false);
std::shared_ptr<Activation> SiLU();
std::shared_ptr<Activation> Sigmoid();
std::shared_ptr<Activation> Tanh();
std::shared_ptr<Activation> LeakyReLU(double negative_slope = 0.01);

// Layers applied in order; submodules named "0", "1", ...
class Sequential : public Module {
 public:
  Sequential() = default;
  Sequential(std::initializer_list<std::shared_ptr<Module>> layers);
  Sequential& add(std::shared_ptr<Module> layer);
  Array forward(const Array& x) override;
  std::size_t size() const { return layers_.size(); }
  Module& operator[](std::size_t i) { return *layers_.at(i); }

 private:
  std::vector<std::shared_ptr<Module>> layers_;
};

}  // namespace ivy::nn

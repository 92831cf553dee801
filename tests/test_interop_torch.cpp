// LibTorch interop of ivy::nn modules (the 2021 paper's Fig. 4), through
// include/ivy/backends/torch_nn.hpp:
//  (a) an ivy model as a layer of a LibTorch torch::nn::Module, trained by torch::optim::SGD:
//      the ivy forward is a torch::autograd::Function whose backward is ivy's vjp. Its
//      gradients (to the ivy layer's parameters, to the LibTorch layer before it and to the
//      input) must equal LibTorch's own autograd on the equivalent all-LibTorch model, and
//      training both side by side must give the same parameters, with the loss falling;
//  (b) a LibTorch model's parameters and buffers (Conv2d, BatchNorm2d, Linear built with the
//      LibTorch C++ API) loaded into the equivalent ivy model by name, on every ivy backend,
//      giving LibTorch's outputs.
// Only built with the torch backend (IVY_HAS_TORCH).
#ifdef IVY_HAS_TORCH

#include <gtest/gtest.h>
#include <torch/torch.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "ivy/backends/torch.hpp"
#include "ivy/backends/torch_nn.hpp"
#include "ivy/ivy.hpp"
#include "ivy/nn.hpp"
#include "ivy/nn_layers_seq.hpp"

namespace {

bool xtensor_built() {
  for (ivy::Backend b : ivy::available_backends())
    if (std::string(b.name()) == "xtensor") return true;
  return false;
}

namespace nn = ivy::nn;
namespace ti = ivy::nn::torch_interop;

// max |a - b| / max(1e-300, max |b|)
double rel_err(const at::Tensor& a, const at::Tensor& b) {
  const double scale = std::max(1e-300, b.abs().max().item<double>());
  return (a - b).abs().max().item<double>() / scale;
}

at::Tensor as_tensor(const ivy::Array& a) { return ivy::torch::unwrap(ivy::to_backend(a, "torch")).clone(); }

// ------------------------------------------------------------------ (a) ivy inside LibTorch
// pre: LibTorch Linear(4, 6); body: the ivy model Linear(6, 8) -> Tanh -> Linear(8, 1)
struct Hybrid : torch::nn::Module {
  torch::nn::Linear pre{nullptr};
  ti::IvyLayer body{nullptr};
  explicit Hybrid(std::shared_ptr<nn::Module> m) {
    pre = register_module("pre", torch::nn::Linear(4, 6));
    body = register_module("body", ti::IvyLayer(std::move(m)));
  }
  at::Tensor forward(const at::Tensor& x) { return body(torch::relu(pre(x))); }
};
// the same computation in LibTorch alone
struct Reference : torch::nn::Module {
  torch::nn::Linear pre{nullptr}, l1{nullptr}, l2{nullptr};
  Reference() {
    pre = register_module("pre", torch::nn::Linear(4, 6));
    l1 = register_module("l1", torch::nn::Linear(6, 8));
    l2 = register_module("l2", torch::nn::Linear(8, 1));
  }
  at::Tensor forward(const at::Tensor& x) { return l2(torch::tanh(l1(torch::relu(pre(x))))); }
};

std::shared_ptr<nn::Sequential> ivy_body() {
  ivy::nn::init::seed(21);
  const nn::init::Where w{ivy::float64, "torch", {}};
  return std::make_shared<nn::Sequential>(std::initializer_list<std::shared_ptr<nn::Module>>{
      std::make_shared<nn::Linear>(6, 8, true, w), nn::Tanh(), std::make_shared<nn::Linear>(8, 1, true, w)});
}

// The reference's weights: pre copied from the hybrid's LibTorch layer, l1 / l2 from the ivy body.
void copy_weights(Hybrid& h, nn::Module& body, Reference& r) {
  torch::NoGradGuard ng;
  r.pre->weight.copy_(h.pre->weight);
  r.pre->bias.copy_(h.pre->bias);
  const ivy::Container p = body.parameters();
  r.l1->weight.copy_(as_tensor(p.at("0/weight").array()));
  r.l1->bias.copy_(as_tensor(p.at("0/bias").array()));
  r.l2->weight.copy_(as_tensor(p.at("2/weight").array()));
  r.l2->bias.copy_(as_tensor(p.at("2/bias").array()));
}

struct Data {
  at::Tensor x, y;
};
Data toy_regression() {
  torch::manual_seed(3);
  at::Tensor x = torch::randn({32, 4}, torch::kDouble);
  at::Tensor y = torch::sin(x.index({torch::indexing::Slice(), 0})) - 0.5 * x.index({torch::indexing::Slice(), 1}) +
                 0.25 * x.index({torch::indexing::Slice(), 2}) * x.index({torch::indexing::Slice(), 3});
  return {x, y.unsqueeze(1)};
}

// The aliasing contract (docs/semantics.md, "Aliasing"): unwrap and wrap share the
// buffer, so an in-place write through them is seen by the arrays on it, a zero-copy
// to_backend included; to_tensor and from_tensor copy, so writes stay on their side.
TEST(InteropTorch, UnwrapSharesToTensorCopies) {
  if (!xtensor_built()) GTEST_SKIP() << "copies from the xtensor backend, not built";
  ivy::Array x = ivy::asarray({1.0f, 2.0f}, std::nullopt, {}, ivy::Backend("xtensor"));
  ivy::torch::to_tensor(x).mul_(10);  // a copy: x is unchanged
  EXPECT_EQ(x.to_vector<float>(), (std::vector<float>{1.0f, 2.0f}));
  ivy::Array t = ivy::asarray({1.0f, 2.0f}, std::nullopt, {}, ivy::Backend("torch"));
  ivy::torch::to_tensor(t).mul_(10);
  EXPECT_EQ(t.to_vector<float>(), (std::vector<float>{1.0f, 2.0f}));
  ivy::torch::unwrap(t).mul_(10);  // the same buffer: t changes (documented, not recommended)
  EXPECT_EQ(t.to_vector<float>(), (std::vector<float>{10.0f, 20.0f}));
  at::Tensor src = at::ones({2});
  ivy::Array copied = ivy::torch::from_tensor(src), shared = ivy::torch::wrap(src);
  src.add_(1);
  EXPECT_EQ(copied.to_vector<float>(), (std::vector<float>{1.0f, 1.0f}));
  EXPECT_EQ(shared.to_vector<float>(), (std::vector<float>{2.0f, 2.0f}));
  EXPECT_THROW(ivy::torch::to_tensor(ivy::Array()), ivy::ValueError);
}

TEST(InteropTorch, IvyLayerGradientsMatchLibTorchAutograd) {
  torch::manual_seed(0);
  auto body = ivy_body();
  Hybrid h(body);
  h.to(torch::kDouble);
  Reference r;
  r.to(torch::kDouble);
  copy_weights(h, *body, r);
  // the ivy parameters are LibTorch parameters of the hybrid, under their ivy paths
  std::vector<std::string> names;
  for (const auto& item : h.named_parameters()) names.push_back(item.key());
  EXPECT_EQ(names, (std::vector<std::string>{"pre.weight", "pre.bias", "body.0/weight", "body.0/bias", "body.2/weight",
                                             "body.2/bias"}));

  Data d = toy_regression();
  at::Tensor xh = d.x.clone().requires_grad_(true), xr = d.x.clone().requires_grad_(true);
  at::Tensor lh = torch::mse_loss(h.forward(xh), d.y), lr = torch::mse_loss(r.forward(xr), d.y);
  EXPECT_LT(rel_err(lh, lr), 1e-12);
  lh.backward();
  lr.backward();
  EXPECT_LT(rel_err(h.pre->weight.grad(), r.pre->weight.grad()), 1e-6);  // through the ivy layer's vjp
  EXPECT_LT(rel_err(h.pre->bias.grad(), r.pre->bias.grad()), 1e-6);
  EXPECT_LT(rel_err(xh.grad(), xr.grad()), 1e-6);
  auto hp = h.body->named_parameters();
  EXPECT_LT(rel_err(hp["0/weight"].grad(), r.l1->weight.grad()), 1e-6);
  EXPECT_LT(rel_err(hp["0/bias"].grad(), r.l1->bias.grad()), 1e-6);
  EXPECT_LT(rel_err(hp["2/weight"].grad(), r.l2->weight.grad()), 1e-6);
  EXPECT_LT(rel_err(hp["2/bias"].grad(), r.l2->bias.grad()), 1e-6);
  // the gradients are not zero (the comparison means something)
  EXPECT_GT(hp["0/weight"].grad().abs().max().item<double>(), 1e-3);

  // a forward leaves the ivy module's own parameters as they were
  EXPECT_EQ(body->parameters().at("0/weight").array().backend(), ivy::Backend("torch"));
}

TEST(InteropTorch, IvyLayerTrainsWithTorchSgd) {
  torch::manual_seed(1);
  auto body = ivy_body();
  const ivy::Container initial = body->parameters();
  Hybrid h(body);
  h.to(torch::kDouble);
  Reference r;
  r.to(torch::kDouble);
  copy_weights(h, *body, r);
  torch::optim::SGD opt_h(h.parameters(), torch::optim::SGDOptions(0.05).momentum(0.9));
  torch::optim::SGD opt_r(r.parameters(), torch::optim::SGDOptions(0.05).momentum(0.9));
  Data d = toy_regression();
  std::vector<double> losses;
  for (int step = 0; step < 60; ++step) {
    opt_h.zero_grad();
    opt_r.zero_grad();
    at::Tensor lh = torch::mse_loss(h.forward(d.x), d.y), lr = torch::mse_loss(r.forward(d.x), d.y);
    lh.backward();
    lr.backward();
    opt_h.step();
    opt_r.step();
    losses.push_back(lh.item<double>());
    ASSERT_LT(std::abs(lh.item<double>() - lr.item<double>()), 1e-6 * lr.item<double>()) << "step " << step;
  }
  EXPECT_LT(losses.back(), 0.5 * losses.front()) << losses.front() << " -> " << losses.back();
  // the trained values agree with the all-LibTorch model's
  auto hp = h.body->named_parameters();
  EXPECT_LT(rel_err(hp["0/weight"], r.l1->weight), 1e-6);
  EXPECT_LT(rel_err(hp["2/bias"], r.l2->bias), 1e-6);
  // the ivy module is untouched until sync_to_ivy, then holds the trained values
  EXPECT_EQ(body->parameters().at("0/weight").array().impl(), initial.at("0/weight").array().impl());
  h.body->sync_to_ivy();
  EXPECT_LT(rel_err(as_tensor(body->parameters().at("0/weight").array()), r.l1->weight), 1e-6);
  const at::Tensor xs = d.x.index({torch::indexing::Slice(0, 4)});
  at::Tensor ivy_out = ivy::torch::unwrap((*body)(ivy::torch::wrap(torch::relu(h.pre->forward(xs)).detach())));
  EXPECT_LT(rel_err(ivy_out, r.forward(xs).detach()), 1e-6);
}

TEST(InteropTorch, ApplyChecksAndVersionCounter) {
  auto body = ivy_body();
  std::vector<at::Tensor> params;
  for (const auto& [p, a] : body->parameters().flatten()) params.push_back(as_tensor(a).requires_grad_(true));
  const at::Tensor x = torch::randn({3, 6}, torch::kDouble);
  // the function alone: d sum(f(x)) / d params by LibTorch == ivy's own value_and_grad
  at::Tensor y = ti::apply(*body, x, params);
  y.sum().backward();
  auto [loss, g] = nn::value_and_grad(*body, [&](nn::Module& m) { return ivy::sum(m(ivy::torch::wrap(x))); });
  EXPECT_LT(rel_err(y.sum(), as_tensor(loss)), 1e-12);
  std::size_t i = 0;
  for (const auto& [p, a] : g.flatten()) EXPECT_LT(rel_err(params[i++].grad(), as_tensor(a)), 1e-12) << p;
  // a wrong number of tensors
  EXPECT_THROW(ti::apply(*body, x, at::TensorList(params).slice(1)), ivy::ValueError);
  // changing a parameter in place between forward and backward is caught by LibTorch
  at::Tensor y2 = ti::apply(*body, x, params);
  {
    torch::NoGradGuard ng;
    params[0].add_(1.0);
  }
  EXPECT_THROW(y2.sum().backward(), c10::Error);
}

// ------------------------------------------------------------------ (b) LibTorch weights into ivy
// LibTorch: Conv2d(2, 4, 3, padding 1) -> BatchNorm2d(4) -> ReLU -> Flatten -> Linear(4*5*5, 3),
// as a torch::nn::Sequential (parameters "0.weight", "1.running_mean", "4.bias", ...).
torch::nn::Sequential torch_cnn() {
  return torch::nn::Sequential(torch::nn::Conv2d(torch::nn::Conv2dOptions(2, 4, 3).padding(1)),
                               torch::nn::BatchNorm2d(4), torch::nn::ReLU(), torch::nn::Flatten(),
                               torch::nn::Linear(4 * 5 * 5, 3));
}
std::shared_ptr<nn::Sequential> ivy_cnn(ivy::Backend b) {
  const nn::init::Where w{ivy::float64, b, {}};
  return std::make_shared<nn::Sequential>(std::initializer_list<std::shared_ptr<nn::Module>>{
      std::make_shared<nn::Conv2D>(2, 4, ivy::Dims{3}, nn::ConvOptions{.padding = 1}, true, w),
      std::make_shared<nn::BatchNorm>(4, 1e-5, 0.1, true, true, 1, w), nn::ReLU(), std::make_shared<nn::Flatten>(),
      std::make_shared<nn::Linear>(4 * 5 * 5, 3, true, w)});
}

TEST(InteropTorch, LibTorchWeightsLoadIntoIvyByName) {
  torch::manual_seed(5);
  auto tm = torch_cnn();
  tm->to(torch::kDouble);
  const at::Tensor x = torch::randn({3, 2, 5, 5}, torch::kDouble);
  {
    torch::NoGradGuard ng;
    tm->train();
    tm->forward(2.0 * x + 1.0);  // moves BatchNorm's running statistics off their defaults
  }
  tm->eval();
  const at::Tensor want_eval = tm->forward(x).detach();
  for (auto b : ivy::available_backends()) {
    SCOPED_TRACE(b.name());
    auto m = ivy_cnn(b);
    ti::load_from_torch(*m, *tm);
    EXPECT_EQ(m->parameters().at("0/weight").array().backend(), b);
    const ivy::Array xi = ivy::to_backend(ivy::torch::wrap(x), b);
    m->eval();
    EXPECT_LT(rel_err(as_tensor((*m)(xi)), want_eval), 1e-12);
    // training mode uses the batch statistics, as LibTorch's
    m->train();
    tm->train();
    at::Tensor want_train;
    {
      torch::NoGradGuard ng;
      auto copy = std::dynamic_pointer_cast<torch::nn::SequentialImpl>(tm->clone());
      copy->train();
      want_train = copy->forward(x).detach();
    }
    EXPECT_LT(rel_err(as_tensor((*m)(xi)), want_train), 1e-12);
    tm->eval();
  }
  // parameters_from: the LibTorch names with '/', same values
  const ivy::Container p = ti::parameters_from(*tm);
  std::vector<std::string> paths;
  for (const auto& [k, a] : p.flatten()) paths.push_back(k);
  EXPECT_EQ(paths, (std::vector<std::string>{"0/weight", "0/bias", "1/weight", "1/bias", "4/weight", "4/bias"}));
  EXPECT_TRUE(torch::equal(as_tensor(p.at("4/weight").array()), tm->ptr(4)->as<torch::nn::Linear>()->weight));
  EXPECT_TRUE(torch::equal(as_tensor(p.at("1/bias").array()), tm->ptr(1)->as<torch::nn::BatchNorm2d>()->bias));
}

// a LibTorch module with named submodules, and an ivy module with the same names
struct TorchNamed : torch::nn::Module {
  torch::nn::Linear enc{nullptr}, dec{nullptr};
  TorchNamed() {
    enc = register_module("enc", torch::nn::Linear(3, 5));
    dec = register_module("dec", torch::nn::Linear(5, 2));
  }
  at::Tensor forward(const at::Tensor& x) { return dec(torch::gelu(enc(x))); }
};
class IvyNamed : public nn::Module {
 public:
  explicit IvyNamed(const nn::init::Where& w, std::int64_t hidden = 5) {
    enc_ = register_module("enc", std::make_shared<nn::Linear>(3, hidden, true, w));
    dec_ = register_module("dec", std::make_shared<nn::Linear>(hidden, 2, true, w));
  }
  ivy::Array forward(const ivy::Array& x) override { return dec_->forward(nn::gelu(enc_->forward(x))); }

 private:
  std::shared_ptr<nn::Linear> enc_, dec_;
};

TEST(InteropTorch, NamedSubmodulesAndErrors) {
  torch::manual_seed(9);
  TorchNamed t;
  t.to(torch::kDouble);
  const at::Tensor x = torch::randn({4, 3}, torch::kDouble);
  const at::Tensor want = t.forward(x).detach();
  for (auto b : ivy::available_backends()) {
    SCOPED_TRACE(b.name());
    IvyNamed m(nn::init::Where{ivy::float64, b, {}});
    ti::load_from_torch(m, t);
    EXPECT_LT(rel_err(as_tensor(m(ivy::to_backend(ivy::torch::wrap(x), b))), want), 1e-12);
  }
  // another width: a shape error naming both sides, and nothing loaded
  IvyNamed wrong(nn::init::Where{ivy::float64, "torch", {}}, 4);
  const ivy::Container before = wrong.parameters();
  try {
    ti::load_from_torch(wrong, t);
    ADD_FAILURE() << "expected a [torch_interop] error";
  } catch (const ivy::ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("[torch_interop] parameter \"enc.weight\""), std::string::npos) << e.what();
  }
  for (const auto& [p, a] : wrong.parameters().flatten()) EXPECT_EQ(a.impl(), before.at(p).array().impl()) << p;
  // float32 ivy weights against float64 LibTorch ones: a dtype error
  IvyNamed f32(nn::init::Where{ivy::float32, "torch", {}});
  EXPECT_THROW(ti::load_from_torch(f32, t), ivy::ValueError);
  // an ivy model with other names
  nn::Sequential seq{std::make_shared<nn::Linear>(3, 5, true, nn::init::Where{ivy::float64, "torch", {}}),
                     std::make_shared<nn::Linear>(5, 2, true, nn::init::Where{ivy::float64, "torch", {}})};
  EXPECT_THROW(ti::load_from_torch(seq, t), ivy::ValueError);
}

// An ivy LSTM loaded from LibTorch's C++ torch::nn::LSTM (the same parameter names).
TEST(InteropTorch, LstmFromLibTorch) {
  torch::manual_seed(4);
  torch::nn::LSTM t(torch::nn::LSTMOptions(3, 4).num_layers(2).bidirectional(true).batch_first(true));
  t->to(torch::kDouble);
  const at::Tensor x = torch::randn({2, 5, 3}, torch::kDouble);
  auto [out, state] = t->forward(x);
  for (auto b : ivy::available_backends()) {
    SCOPED_TRACE(b.name());
    nn::LSTM m(3, 4, 2, true, true, nn::init::Where{ivy::float64, b, {}});
    ti::load_from_torch(m, *t);
    nn::LstmResult r = m.forward_with_state(ivy::to_backend(ivy::torch::wrap(x), b));
    EXPECT_LT(rel_err(as_tensor(r.output), out.detach()), 1e-12);
    EXPECT_LT(rel_err(as_tensor(r.h_n), std::get<0>(state).detach()), 1e-12);
    EXPECT_LT(rel_err(as_tensor(r.c_n), std::get<1>(state).detach()), 1e-12);
  }
}

}  // namespace

#endif  // IVY_HAS_TORCH

// ivy::nn::Module and its layers, on every backend that was built:
//  - Module mechanics: registration errors, parameters() paths and order, set_parameters
//    all-or-nothing, buffers, train/eval propagation, state()/load_state, safetensors
//    save/load, num_parameters, str();
//  - value_and_grad(Module&): gradients against closed forms, parameters restored when the
//    loss throws;
//  - the seeded initializers: bit-identical values across backends, bounds and sample
//    statistics of Glorot / He, orthogonality;
//  - every layer (module.hpp and nn_layers_seq.hpp) against PyTorch 1.13: the cases of
//    tests/fixtures/modules.json (written by tests/gen_module_fixtures.py) load torch's
//    weights by name ('.' -> '/'), run under value_and_grad and compare the outputs, the
//    parameter gradients of sum_k sum(out_k * cot_k) and updated buffers (float64,
//    relative 1e-9 of each array's largest element).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "ivy/ivy.hpp"
#include "ivy/nn.hpp"
#include "ivy/nn_layers_seq.hpp"
#include "fixture_file.hpp"

#ifndef IVY_FIXTURES_DIR
#error "define IVY_FIXTURES_DIR as the (quoted) folder that holds modules.json"
#endif

namespace {

using json = nlohmann::json;
using ivy::Array;
using ivy::Container;
using ivy::Shape;
namespace nn = ivy::nn;
namespace init = ivy::nn::init;

std::vector<std::string> backend_names() {
  std::vector<std::string> n;
  for (auto b : ivy::available_backends()) n.push_back(b.name());
  return n;
}

std::vector<double> values(const Array& x) { return ivy::astype(x, ivy::float64).to_vector<double>(); }

// Expects the call to throw E with a message containing `part`.
template <class E, class F>
void expect_error(F&& f, const std::string& part) {
  try {
    f();
    ADD_FAILURE() << "expected an error containing \"" << part << "\"";
  } catch (const E& e) {
    EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << "message: " << e.what();
  }
}

// max |a - b| / max(1, max |b|)
double rel_diff(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size()) return INFINITY;
  double scale = 1, d = 0;
  for (double v : b) scale = std::max(scale, std::abs(v));
  for (std::size_t i = 0; i < a.size(); ++i) d = std::max(d, std::abs(a[i] - b[i]));
  return d / scale;
}

std::vector<std::string> paths(const Container& c) {
  std::vector<std::string> p;
  for (const auto& [k, a] : c.flatten()) p.push_back(k);
  return p;
}

// ------------------------------------------------------------------ a module for the mechanics
// scale [4], buffer count [1], enc = Linear(3, 4), dec = Sequential(Linear(4, 2), Tanh);
// child_first registers enc before scale (parameters() still lists own variables first).
class Net : public nn::Module {
 public:
  Net(const init::Where& w, bool child_first = false) {
    if (child_first) enc = register_module("enc", std::make_shared<nn::Linear>(3, 4, true, w));
    register_parameter("scale", init::uniform(Shape{4}, 0.5, 1.5, w));
    if (!child_first) enc = register_module("enc", std::make_shared<nn::Linear>(3, 4, true, w));
    register_buffer("count", init::zeros(Shape{1}, w));
    dec = register_module("dec", std::make_shared<nn::Sequential>(std::initializer_list<std::shared_ptr<nn::Module>>{
                                     std::make_shared<nn::Linear>(4, 2, true, w), nn::Tanh()}));
  }
  Array forward(const Array& x) override {
    buffer("count") = buffer("count") + 1.0;
    return dec->forward(enc->forward(x) * param("scale"));
  }
  using nn::Module::register_buffer;  // public here, for the error tests
  using nn::Module::register_parameter;
  template <class M>
  void add(const std::string& name, std::shared_ptr<M> m) {
    register_module(name, std::move(m));
  }
  std::shared_ptr<nn::Linear> enc;
  std::shared_ptr<nn::Sequential> dec;
};

class ModuleTest : public ::testing::TestWithParam<std::string> {
 protected:
  ivy::Backend backend() const { return ivy::Backend(GetParam()); }
  init::Where where(ivy::DType d = ivy::float32) const { return init::Where{d, backend(), {}}; }
  Array host(const std::vector<double>& v, const Shape& s) const {
    return ivy::asarray(v, s, ivy::float64, {}, backend());
  }
  Array host32(const std::vector<double>& v, const Shape& s) const {
    return ivy::asarray(v, s, ivy::float32, {}, backend());
  }
};

// ------------------------------------------------------------------ mechanics
// value_and_grad's on_ready: each parameter's gradient once, equal to the returned one, as soon
// as the backward pass has finished it: the last layer's before the first layer's, and the
// first layer's weight only after the second layer's weight (its gradient needs that one's
// cotangent), with a parameter used twice reported after its second use's contribution.
TEST_P(ModuleTest, GradientsAreHandedOutWhenFinal) {
  init::seed(3);
  auto l1 = std::make_shared<nn::Linear>(3, 4, true, where());
  auto l2 = std::make_shared<nn::Linear>(4, 2, true, where());
  nn::Sequential model{l1, nn::Tanh(), l2};
  Array x = host32({0.5, -1, 2, 1, 0.25, -0.5}, Shape{2, 3});
  std::vector<std::string> order;
  std::map<std::string, Array> early;
  auto loss = [&](nn::Module& m) { return ivy::sum(m(x) * m(x)); };  // the whole model used twice
  auto [value, grads] = nn::value_and_grad(model, loss, [&](const std::string& path, const Array& g) {
    order.push_back(path);
    early[path] = g;
  });
  auto [value2, grads2] = nn::value_and_grad(model, loss);
  ASSERT_EQ(order.size(), 4u);
  for (const auto& [path, g] : grads.flatten()) {
    ASSERT_EQ(early.count(path), 1u) << path;
    EXPECT_EQ(values(early[path]), values(g)) << path;
    EXPECT_EQ(values(grads2.at(path).array()), values(g)) << path;  // the same as without on_ready
  }
  auto at = [&](const std::string& p) { return std::find(order.begin(), order.end(), p) - order.begin(); };
  EXPECT_LT(at("2/weight"), at("0/weight"));
  EXPECT_LT(at("2/bias"), at("0/bias"));
  EXPECT_EQ(values(value), values(value2));
}

TEST_P(ModuleTest, RegistrationErrors) {
  Net n(where());
  expect_error<ivy::ValueError>([&] { n.register_parameter("", init::zeros(Shape{1}, where())); }, "[module]");
  expect_error<ivy::ValueError>([&] { n.register_parameter("a/b", init::zeros(Shape{1}, where())); }, "without '/'");
  expect_error<ivy::ValueError>([&] { n.register_parameter("scale", init::zeros(Shape{1}, where())); },
                                "\"scale\" is already registered");
  expect_error<ivy::ValueError>([&] { n.register_buffer("enc", init::zeros(Shape{1}, where())); },
                                "\"enc\" is already registered");
  expect_error<ivy::ValueError>([&] { n.register_parameter("undef", Array()); }, "is undefined");
  expect_error<ivy::ValueError>([&] { n.add("dec", std::make_shared<nn::Flatten>()); }, "already registered");
  expect_error<ivy::ValueError>([&] { n.add("null", std::shared_ptr<nn::Flatten>()); }, "is null");
  // the failed registrations left nothing behind
  EXPECT_EQ(paths(n.parameters()),
            (std::vector<std::string>{"scale", "enc/weight", "enc/bias", "dec/0/weight", "dec/0/bias"}));
  // a module without a single-array forward
  nn::Module bare;
  expect_error<ivy::NotImplementedError>([&] { bare(host({1.0}, Shape{1})); }, "[module]");
}

TEST_P(ModuleTest, ParameterPathsAndOrder) {
  for (bool child_first : {false, true}) {
    Net n(where(), child_first);
    const Container p = n.parameters();
    EXPECT_EQ(paths(p), (std::vector<std::string>{"scale", "enc/weight", "enc/bias", "dec/0/weight", "dec/0/bias"}));
    EXPECT_EQ(p.at("enc/weight").array().shape(), (Shape{4, 3}));
    EXPECT_EQ(p.at("dec/0/bias").array().shape(), (Shape{2}));
    EXPECT_EQ(p.at("scale").array().backend(), backend());
    EXPECT_EQ(paths(n.buffers()), (std::vector<std::string>{"count"}));
    EXPECT_EQ(n.num_parameters(), 4 + 12 + 4 + 8 + 2);
  }
  EXPECT_EQ(nn::Linear(5, 3, true, where()).num_parameters(), 18);
  EXPECT_EQ(nn::Conv2D(4, 6, {3}, {.groups = 2}, true, where()).num_parameters(), 6 * 2 * 9 + 6);
  EXPECT_EQ(nn::LSTM(5, 4, 2, true, true, where()).num_parameters(),
            2 * (16 * 5 + 16 * 4 + 32) + 2 * (16 * 8 + 16 * 4 + 32));
}

TEST_P(ModuleTest, SetParametersIsAllOrNothing) {
  Net n(where());
  const Container before = n.parameters();
  auto unchanged = [&] {
    for (const auto& [p, a] : n.parameters().flatten())
      EXPECT_EQ(a.impl(), before.at(p).array().impl()) << p << " was replaced by a failed set_parameters";
  };
  // the last leaf has the wrong shape: nothing may change, the first leaf included
  Container bad = before.map([](const Array& a) { return a + 1.0f; });
  bad.set("dec/0/bias", init::zeros(Shape{3}, where()));
  expect_error<ivy::ValueError>([&] { n.set_parameters(bad); }, "\"dec/0/bias\"");
  unchanged();
  // a wrong path
  std::vector<std::pair<std::string, Array>> leaves = before.flatten();
  leaves[2].first = "enc/b";
  expect_error<ivy::ValueError>([&] { n.set_parameters(Container::from_pairs(leaves)); }, "enc/bias");
  unchanged();
  // a missing leaf, a wrong dtype
  Container fewer = before;
  fewer.erase("scale");
  expect_error<ivy::ValueError>([&] { n.set_parameters(fewer); }, "expected 5 arrays, got 4");
  Container f64 = before.map([](const Array& a) { return ivy::astype(a, ivy::float64); });
  expect_error<ivy::ValueError>([&] { n.set_parameters(f64); }, "float64");
  unchanged();
  // a good one replaces every leaf
  Container good = before.map([](const Array& a) { return a * 2.0f; });
  n.set_parameters(good);
  for (const auto& [p, a] : n.parameters().flatten()) EXPECT_EQ(values(a), values(before.at(p).array() * 2.0f)) << p;
}

TEST_P(ModuleTest, BuffersAndTrainEval) {
  nn::BatchNorm bn(3, 1e-5, 0.1, true, true, 1, where(ivy::float64));
  EXPECT_EQ(paths(bn.buffers()), (std::vector<std::string>{"running_mean", "running_var"}));
  EXPECT_EQ(paths(bn.parameters()), (std::vector<std::string>{"weight", "bias"}));
  // x[:, c] = c + {0, 2} over the batch: mean c + 1, unbiased variance 2
  Array x = host({0, 1, 2, 2, 3, 4}, Shape{2, 3});
  bn.train();
  bn(x);
  EXPECT_LT(rel_diff(values(bn.buffers().at("running_mean").array()), {0.1, 0.2, 0.3}), 1e-15);
  EXPECT_LT(rel_diff(values(bn.buffers().at("running_var").array()), {1.1, 1.1, 1.1}), 1e-15);
  bn.eval();
  Array y = bn(x);  // running statistics now, and no update
  EXPECT_LT(rel_diff(values(bn.buffers().at("running_mean").array()), {0.1, 0.2, 0.3}), 1e-15);
  EXPECT_NEAR(values(y)[0], (0 - 0.1) / std::sqrt(1.1 + 1e-5), 1e-12);
  // set_buffers: wrong shape is an error, a good one replaces
  Container b = bn.buffers();
  b.set("running_var", init::ones(Shape{4}, where(ivy::float64)));
  expect_error<ivy::ValueError>([&] { bn.set_buffers(b); }, "running_var");
  b.set("running_var", host({4, 4, 4}, Shape{3}));
  bn.set_buffers(b);
  EXPECT_EQ(values(bn.buffers().at("running_var").array()), (std::vector<double>{4, 4, 4}));

  // train / eval reach every submodule
  auto inner = std::make_shared<nn::Sequential>(
      std::initializer_list<std::shared_ptr<nn::Module>>{std::make_shared<nn::Dropout>(0.5, 3)});
  nn::Sequential outer{inner, std::make_shared<nn::Linear>(2, 2, true, where())};
  EXPECT_TRUE(outer.training() && inner->training() && (*inner)[0].training());
  outer.eval();
  EXPECT_FALSE(outer.training() || inner->training() || (*inner)[0].training() || outer[1].training());
  Array ones = ivy::ones(Shape{64}, ivy::float32, {}, backend());
  EXPECT_EQ(values((*inner)(ones)), values(ones));  // eval: dropout is the identity
  outer.train();
  EXPECT_TRUE((*inner)[0].training());
  const std::vector<double> d = values((*inner)(ones));
  const auto zeros = std::count(d.begin(), d.end(), 0.0), twos = std::count(d.begin(), d.end(), 2.0);
  EXPECT_EQ(zeros + twos, 64);
  EXPECT_GT(zeros, 10);
  EXPECT_GT(twos, 10);
}


TEST_P(ModuleTest, StateAndLoadState) {
  init::seed(1);
  Net a(where());
  const Array x = host32({1, 2, 3, -1, 0.5, 2}, Shape{2, 3});
  a(x);
  a(x);  // count = 2
  const Container s = a.state();
  EXPECT_EQ(s.keys(), (std::vector<std::string>{"params", "buffers"}));
  EXPECT_EQ(paths(s.at("params")), paths(a.parameters()));
  EXPECT_EQ(values(s.at("buffers/count").array()), (std::vector<double>{2}));
  EXPECT_EQ(nn::Linear(2, 2, true, where()).state().keys(), (std::vector<std::string>{"params"}));

  init::seed(2);
  Net b(where());
  EXPECT_NE(values(b(x)), values(a(x)));
  b.load_state(s);
  EXPECT_EQ(values(b.buffers().at("count").array()), (std::vector<double>{2}));
  EXPECT_EQ(values(b(x)), values(a(x)));

  // a state whose buffers do not fit: the parameters are left as they were
  init::seed(3);
  Net c(where());
  const Container c_params = c.parameters();
  Container broken = s;
  broken.set("buffers/count", init::zeros(Shape{2}, where()));
  expect_error<ivy::ValueError>([&] { c.load_state(broken); }, "count");
  for (const auto& [p, v] : c.parameters().flatten()) EXPECT_EQ(values(v), values(c_params.at(p).array())) << p;
  Container no_buffers;
  no_buffers.set("params", s.at("params"));
  expect_error<ivy::ValueError>([&] { c.load_state(no_buffers); }, "no \"buffers\"");
  expect_error<ivy::ValueError>([&] { c.load_state(Container()); }, "no \"params\"");
}

TEST_P(ModuleTest, SaveLoadRoundTrip) {
  const std::string path =
      (std::filesystem::temp_directory_path() / ("ivy_module_" + GetParam() + "_" + std::to_string(::getpid()) + ".safetensors"))
          .string();
  init::seed(11);
  nn::Sequential a{std::make_shared<nn::Conv2D>(2, 3, ivy::Dims{3}, nn::ConvOptions{.padding = 1}, true, where()),
                   std::make_shared<nn::BatchNorm>(3, 1e-5, 0.1, true, true, 1, where()), nn::ReLU(),
                   std::make_shared<nn::Flatten>(), std::make_shared<nn::Linear>(3 * 4 * 4, 2, true, where())};
  const Array x = ivy::astype(ivy::reshape(ivy::linspace(-1.0, 1.0, 64, ivy::float64, {}, true, backend()), Shape{2, 2, 4, 4}),
                              ivy::float32);
  a(x);  // training: updates the batch-norm statistics
  a.eval();
  a.save(path);
  init::seed(12);
  nn::Sequential b{std::make_shared<nn::Conv2D>(2, 3, ivy::Dims{3}, nn::ConvOptions{.padding = 1}, true, where()),
                   std::make_shared<nn::BatchNorm>(3, 1e-5, 0.1, true, true, 1, where()), nn::ReLU(),
                   std::make_shared<nn::Flatten>(), std::make_shared<nn::Linear>(3 * 4 * 4, 2, true, where())};
  b.eval();
  EXPECT_NE(values(b(x)), values(a(x)));
  b.load(path);
  for (const auto& [p, v] : a.parameters().flatten()) {
    EXPECT_EQ(values(b.parameters().at(p).array()), values(v)) << p;
    EXPECT_EQ(b.parameters().at(p).array().backend(), backend()) << p;
  }
  EXPECT_EQ(values(b.buffers().at("1/running_mean").array()), values(a.buffers().at("1/running_mean").array()));
  EXPECT_NE(values(a.buffers().at("1/running_mean").array()), (std::vector<double>(3, 0.0)));
  EXPECT_EQ(values(b(x)), values(a(x)));
  // a checkpoint of another model is refused, with b unchanged
  nn::Linear other(4, 4, true, where());
  const std::string path2 = path + ".other";
  other.save(path2);
  const Container kept = b.parameters();
  EXPECT_THROW(b.load(path2), ivy::ValueError);
  for (const auto& [p, v] : b.parameters().flatten()) EXPECT_EQ(v.impl(), kept.at(p).array().impl()) << p;
  std::filesystem::remove(path);
  std::filesystem::remove(path2);
  EXPECT_THROW(b.load(path), ivy::Error);  // missing file
}

TEST_P(ModuleTest, Str) {
  nn::Sequential s{std::make_shared<nn::Linear>(5, 3, true, where()), nn::ReLU(),
                   std::make_shared<nn::BatchNorm>(3, 1e-5, 0.1, true, true, 1, where())};
  EXPECT_EQ(s.str(),
            "model\n"
            "  0 (Linear 5 -> 3)\n"
            "    weight: float32(3, 5)\n"
            "    bias: float32(3,)\n"
            "  1 (ReLU)\n"
            "  2 (BatchNorm 3)\n"
            "    weight: float32(3,)\n"
            "    bias: float32(3,)\n"
            "    running_mean (buffer): float32(3,)\n"
            "    running_var (buffer): float32(3,)\n");
  const std::string l = nn::LSTM(3, 2, 1, true, true, where()).str();
  EXPECT_NE(l.find("LSTM 3 -> 2, layers 1, bidirectional"), std::string::npos) << l;
  EXPECT_NE(l.find("weight_hh_l0_reverse: float32(8, 2)"), std::string::npos) << l;
}

// ------------------------------------------------------------------ value_and_grad
TEST_P(ModuleTest, ValueAndGradClosedForm) {
  // L = sum((x W^T + b) * c): dL/dW = c^T x, dL/db = sum over rows of c
  nn::Linear lin(3, 2, true, where(ivy::float64));
  const std::vector<double> xv{1, 2, 3, -1, 0, 2, 0.5, -2, 1, 3, 1, -1};  // [4, 3]
  const std::vector<double> cv{1, -1, 2, 0.5, -3, 1, 0.25, 2};              // [4, 2]
  const Array x = host(xv, Shape{4, 3}), c = host(cv, Shape{4, 2});
  auto [loss, g] = nn::value_and_grad(lin, [&](nn::Module& m) { return ivy::sum(m(x) * c); });
  std::vector<double> dw(6, 0.0), db(2, 0.0);
  for (int n = 0; n < 4; ++n)
    for (int o = 0; o < 2; ++o) {
      db[o] += cv[n * 2 + o];
      for (int i = 0; i < 3; ++i) dw[o * 3 + i] += cv[n * 2 + o] * xv[n * 3 + i];
    }
  EXPECT_EQ(paths(g), (std::vector<std::string>{"weight", "bias"}));
  EXPECT_LT(rel_diff(values(g.at("weight").array()), dw), 1e-14);
  EXPECT_LT(rel_diff(values(g.at("bias").array()), db), 1e-14);
  const std::vector<double> w = values(lin.parameters().at("weight").array()), b = values(lin.parameters().at("bias").array());
  double want = 0;
  for (int n = 0; n < 4; ++n)
    for (int o = 0; o < 2; ++o) {
      double y = b[o];
      for (int i = 0; i < 3; ++i) y += w[o * 3 + i] * xv[n * 3 + i];
      want += y * cv[n * 2 + o];
    }
  EXPECT_NEAR(values(loss)[0], want, 1e-12);
}

TEST_P(ModuleTest, ValueAndGradRestoresParameters) {
  Net n(where(ivy::float64));
  const Container before = n.parameters();
  const Array x = host({1, 2, 3}, Shape{1, 3});
  bool swapped = false;
  EXPECT_THROW(nn::value_and_grad(n,
                                  [&](nn::Module& m) -> Array {
                                    // inside, the module holds the traced parameters
                                    swapped = m.parameters().at("scale").array().impl() !=
                                              before.at("scale").array().impl();
                                    m(x);
                                    throw std::runtime_error("loss failed");
                                  }),
               std::runtime_error);
  EXPECT_TRUE(swapped);
  for (const auto& [p, a] : n.parameters().flatten()) EXPECT_EQ(a.impl(), before.at(p).array().impl()) << p;
  // a loss of the wrong kind is an error, also restoring
  expect_error<ivy::ValueError>([&] { nn::value_and_grad(n, [&](nn::Module& m) { return m(x); }); }, "0-d");
  for (const auto& [p, a] : n.parameters().flatten()) EXPECT_EQ(a.impl(), before.at(p).array().impl()) << p;
  // and a good call afterwards works and restores too; buffers it updates keep their values
  const double count0 = values(n.buffers().at("count").array())[0];
  auto [loss, g] = nn::value_and_grad(n, [&](nn::Module& m) { return ivy::sum(m(x)); });
  EXPECT_EQ(paths(g), paths(before));
  for (const auto& [p, a] : n.parameters().flatten()) EXPECT_EQ(a.impl(), before.at(p).array().impl()) << p;
  EXPECT_EQ(values(n.buffers().at("count").array())[0], count0 + 1);
  EXPECT_DOUBLE_EQ(values(loss)[0], values(ivy::sum(n(x)))[0]);
}

TEST_P(ModuleTest, TrainingStepWithOptimizer) {
  // y = 2 x0 - x1 + 0.5 fitted by a Linear with SGD; the loss must fall by 100x
  init::seed(5);
  nn::Linear lin(2, 1, true, where(ivy::float64));
  const Array x = host({1, 0, 0, 1, 1, 1, -1, 2, 0.5, -0.5, 2, 1}, Shape{6, 2});
  const Array y = ivy::reshape(ivy::matmul(x, host({2, -1}, Shape{2})) + 0.5, Shape{6, 1});
  auto loss_fn = [&](nn::Module& m) { return ivy::mean(ivy::square(m(x) - y)); };
  const double first = values(nn::value_and_grad(lin, loss_fn).first)[0];
  for (int i = 0; i < 200; ++i) {
    auto [l, g] = nn::value_and_grad(lin, loss_fn);
    lin.set_parameters(lin.parameters() - g * 0.1);
  }
  const double last = values(nn::value_and_grad(lin, loss_fn).first)[0];
  EXPECT_LT(last, first / 100) << first << " -> " << last;
  EXPECT_LT(rel_diff(values(lin.parameters().at("weight").array()), {2, -1}), 1e-2);
}

// ------------------------------------------------------------------ initializers
TEST(ModuleInit, SameSeedSameBitsOnEveryBackend) {
  const auto backends = ivy::available_backends();
  ASSERT_GE(backends.size(), 1u);
  using Gen = std::function<Array(const init::Where&)>;
  const std::vector<std::pair<std::string, Gen>> gens = {
      {"uniform", [](const init::Where& w) { return init::uniform(Shape{7, 5}, -2, 3, w); }},
      {"normal", [](const init::Where& w) { return init::normal(Shape{33}, 1, 2, w); }},
      {"truncated_normal", [](const init::Where& w) { return init::truncated_normal(Shape{40}, 0, 1, -1, 1, w); }},
      {"glorot_uniform", [](const init::Where& w) { return init::glorot_uniform(Shape{6, 4, 3}, 1.0, w); }},
      {"glorot_normal", [](const init::Where& w) { return init::glorot_normal(Shape{6, 4}, 2.0, w); }},
      {"he_uniform", [](const init::Where& w) { return init::he_uniform(Shape{8, 3, 3, 3}, 0.0, true, w); }},
      {"he_normal", [](const init::Where& w) { return init::he_normal(Shape{8, 3}, 0.1, false, w); }},
  };
  for (ivy::DType dt : {ivy::float32, ivy::float64})
    for (const auto& [name, gen] : gens) {
      std::vector<std::vector<double>> got;
      for (auto b : backends) {
        init::seed(1234);
        Array a = gen(init::Where{dt, b, {}});
        EXPECT_EQ(a.dtype(), dt);
        EXPECT_EQ(a.backend(), b);
        got.push_back(values(a));  // float32 -> float64 is exact: equal doubles = equal bits
      }
      for (std::size_t i = 1; i < got.size(); ++i)
        EXPECT_EQ(got[i], got[0]) << name << " differs between " << backends[0].name() << " and " << backends[i].name();
      // reseeding restarts the stream; another seed gives other values
      init::seed(1234);
      EXPECT_EQ(values(gen(init::Where{dt, backends[0], {}})), got[0]) << name;
      init::seed(1235);
      EXPECT_NE(values(gen(init::Where{dt, backends[0], {}})), got[0]) << name;
    }
  // layers draw from the same stream: the same seed gives the same model on every backend
  std::vector<Container> models;
  for (auto b : backends) {
    init::seed(99);
    nn::LSTM l(3, 4, 1, true, true, init::Where{ivy::float32, b, {}});
    models.push_back(l.parameters());
  }
  for (std::size_t i = 1; i < models.size(); ++i)
    for (const auto& [p, a] : models[0].flatten()) EXPECT_EQ(values(models[i].at(p).array()), values(a)) << p;
  // orthogonal is computed on the host: bit-identical too
  std::vector<std::vector<double>> q;
  for (auto b : backends) {
    init::seed(7);
    q.push_back(values(init::orthogonal(Shape{6, 4}, 1.0, init::Where{ivy::float64, b, {}})));
  }
  for (std::size_t i = 1; i < q.size(); ++i) EXPECT_EQ(q[i], q[0]);
  // non-floating dtypes are refused
  expect_error<ivy::TypeError>([] { init::uniform(Shape{2}, 0, 1, init::Where{ivy::int32, {}, {}}); }, "[init.uniform]");
  expect_error<ivy::ValueError>([] { init::orthogonal(Shape{4}, 1.0, {}); }, "[init.orthogonal]");
  expect_error<ivy::ValueError>([] { init::truncated_normal(Shape{4}, 0, 1, 2, 1, {}); }, "[init.truncated_normal]");
}

struct Stats {
  double mean = 0, var = 0, min = INFINITY, max = -INFINITY;
};
Stats stats(const std::vector<double>& v) {
  Stats s;
  for (double e : v) {
    s.mean += e;
    s.min = std::min(s.min, e);
    s.max = std::max(s.max, e);
  }
  s.mean /= static_cast<double>(v.size());
  for (double e : v) s.var += (e - s.mean) * (e - s.mean);
  s.var /= static_cast<double>(v.size() - 1);
  return s;
}

TEST_P(ModuleTest, InitializerBoundsAndStatistics) {
  init::seed(2024);
  const init::Where w = where(ivy::float64);
  EXPECT_EQ(init::fans(Shape{16, 8, 3, 3}), (std::pair<double, double>{72, 144}));
  EXPECT_EQ(init::fans(Shape{5, 7}), (std::pair<double, double>{7, 5}));
  // Glorot uniform on [200, 300]: bound sqrt(6 / 500), variance bound^2 / 3 = 2 / 500
  {
    const double bound = std::sqrt(6.0 / 500.0);
    Stats s = stats(values(init::glorot_uniform(Shape{200, 300}, 1.0, w)));
    EXPECT_GE(s.min, -bound);
    EXPECT_LE(s.max, bound);
    EXPECT_GT(s.max, 0.99 * bound);
    EXPECT_LT(s.min, -0.99 * bound);
    EXPECT_NEAR(s.mean, 0, 0.002);
    EXPECT_NEAR(s.var, 2.0 / 500.0, 0.02 * 2.0 / 500.0);
  }
  // Glorot normal with gain 2: std 2 sqrt(2 / 500)
  {
    Stats s = stats(values(init::glorot_normal(Shape{200, 300}, 2.0, w)));
    EXPECT_NEAR(std::sqrt(s.var), 2 * std::sqrt(2.0 / 500.0), 0.01 * 2 * std::sqrt(2.0 / 500.0));
    EXPECT_NEAR(s.mean, 0, 0.003);
  }
  // He uniform over fan_in of a convolution [64, 32, 3, 3]: bound sqrt(6 / 288); fan_out: sqrt(6 / 576)
  {
    const double bound = std::sqrt(6.0 / 288.0);
    Stats s = stats(values(init::he_uniform(Shape{64, 32, 3, 3}, 0.0, true, w)));
    EXPECT_GE(s.min, -bound);
    EXPECT_LE(s.max, bound);
    EXPECT_GT(s.max, 0.99 * bound);
    EXPECT_NEAR(s.var, bound * bound / 3, 0.03 * bound * bound / 3);
    const double bound_out = std::sqrt(6.0 / 576.0);
    Stats t = stats(values(init::he_uniform(Shape{64, 32, 3, 3}, 0.0, false, w)));
    EXPECT_LE(t.max, bound_out);
    EXPECT_GT(t.max, 0.99 * bound_out);
  }
  // He normal with a = 1 (gain 1): std 1 / sqrt(fan_in)
  {
    Stats s = stats(values(init::he_normal(Shape{300, 250}, 1.0, true, w)));
    EXPECT_NEAR(std::sqrt(s.var), 1 / std::sqrt(250.0), 0.01 / std::sqrt(250.0));
  }
  // truncated normal stays in [a, b]; uniform in [low, high)
  {
    Stats s = stats(values(init::truncated_normal(Shape{5000}, 0.5, 1.0, 0.0, 1.5, w)));
    EXPECT_GE(s.min, 0.0);
    EXPECT_LE(s.max, 1.5);
    Stats u = stats(values(init::uniform(Shape{5000}, 2.0, 3.0, w)));
    EXPECT_GE(u.min, 2.0);
    EXPECT_LT(u.max, 3.0);
    EXPECT_NEAR(u.mean, 2.5, 0.02);
  }
  // orthogonal: W W^T = I for wide, W^T W = I for tall, gain^2 I with a gain
  for (const auto& [shape, gain] : std::vector<std::pair<Shape, double>>{
           {Shape{5, 8}, 1.0}, {Shape{8, 5}, 1.0}, {Shape{6, 6}, 2.0}, {Shape{4, 2, 3}, 1.0}}) {
    Array q = init::orthogonal(shape, gain, w);
    EXPECT_EQ(q.shape(), shape);
    const std::int64_t rows = shape[0], cols = shape.numel() / rows;
    Array m = ivy::reshape(q, Shape{rows, cols});
    Array g = rows <= cols ? ivy::matmul(m, ivy::matrix_transpose(m)) : ivy::matmul(ivy::matrix_transpose(m), m);
    const std::int64_t k = std::min(rows, cols);
    std::vector<double> eye(static_cast<std::size_t>(k * k), 0.0);
    for (std::int64_t i = 0; i < k; ++i) eye[static_cast<std::size_t>(i * k + i)] = gain * gain;
    EXPECT_LT(rel_diff(values(g), eye), 1e-12) << shape;
  }
  // default layer initialization: LibTorch's bounds
  {
    nn::Linear lin(50, 40, true, w);
    Stats s = stats(values(lin.parameters().at("weight").array()));
    EXPECT_LE(std::max(-s.min, s.max), 1 / std::sqrt(50.0));
    EXPECT_GT(s.max, 0.95 / std::sqrt(50.0));
    nn::GRU gru(6, 25, 1, true, false, w);
    for (const auto& [p, a] : gru.parameters().flatten()) {
      Stats t = stats(values(a));
      EXPECT_LE(std::max(-t.min, t.max), 1 / std::sqrt(25.0)) << p;
      EXPECT_GT(std::max(-t.min, t.max), 0.9 / std::sqrt(25.0)) << p;
    }
    nn::MultiHeadAttention mha(16, 4, true, w);
    const Container p = mha.parameters();
    EXPECT_EQ(paths(p), (std::vector<std::string>{"in_proj_weight", "in_proj_bias", "out_proj/weight", "out_proj/bias"}));
    EXPECT_EQ(values(p.at("in_proj_bias").array()), std::vector<double>(48, 0.0));
    EXPECT_EQ(values(p.at("out_proj/bias").array()), std::vector<double>(16, 0.0));
    Stats t = stats(values(p.at("in_proj_weight").array()));
    EXPECT_LE(std::max(-t.min, t.max), std::sqrt(6.0 / 64.0));  // Xavier over [48, 16]
    EXPECT_GT(std::max(-t.min, t.max), 0.9 * std::sqrt(6.0 / 64.0));
    Stats o = stats(values(p.at("out_proj/weight").array()));
    EXPECT_LE(std::max(-o.min, o.max), 1 / std::sqrt(16.0));
  }
}

// ------------------------------------------------------------------ sequence layers
TEST_P(ModuleTest, RecurrentLayers) {
  init::seed(3);
  const init::Where w = where(ivy::float64);
  nn::LSTM lstm(3, 4, 2, true, true, w);
  EXPECT_EQ(paths(lstm.parameters()).front(), "weight_ih_l0");
  EXPECT_EQ(paths(lstm.parameters()).back(), "bias_hh_l1_reverse");
  EXPECT_EQ(lstm.parameters().at("weight_ih_l1").array().shape(), (Shape{16, 8}));
  init::seed(4);
  const Array x = init::normal(Shape{2, 5, 3}, 0, 1, w);
  nn::LstmResult r = lstm.forward_with_state(x);
  EXPECT_EQ(r.output.shape(), (Shape{2, 5, 8}));
  EXPECT_EQ(r.h_n.shape(), (Shape{4, 2, 4}));
  EXPECT_EQ(values(lstm(x)), values(r.output));
  // explicit zero states are the default
  const Array z = ivy::zeros(Shape{4, 2, 4}, ivy::float64, {}, backend());
  EXPECT_EQ(values(lstm.forward_with_state(x, z, z).c_n), values(r.c_n));
  // the last forward step of the top layer is h_n[2]; the first reverse step is h_n[3]
  EXPECT_EQ(values(r.output.index({ivy::Slice(), 4, ivy::Slice(0, 4)})), values(r.h_n[2]));
  EXPECT_EQ(values(r.output.index({ivy::Slice(), 0, ivy::Slice(4, 8)})), values(r.h_n[3]));
  // unbatched input: the batched result's row
  EXPECT_LT(rel_diff(values(lstm(x[1])), values(r.output[1])), 1e-14);
  expect_error<ivy::ValueError>([&] { lstm(init::zeros(Shape{2, 5, 4}, w)); }, "[LSTM] expected input [N, T, 3]");
  expect_error<ivy::ValueError>([&] { nn::LSTM(0, 4); }, "[LSTM]");

  nn::GRU gru(3, 2, 1, false, false, w);
  EXPECT_EQ(paths(gru.parameters()), (std::vector<std::string>{"weight_ih_l0", "weight_hh_l0"}));
  nn::GruResult g = gru.forward_with_state(x);
  EXPECT_EQ(g.output.shape(), (Shape{2, 5, 2}));
  EXPECT_EQ(values(g.output.index({ivy::Slice(), 4})), values(g.h_n[0]));
  expect_error<ivy::ValueError>([&] { gru(init::zeros(Shape{5}, w)); }, "[GRU]");
  // gradients reach every weight
  auto [loss, grads] = nn::value_and_grad(lstm, [&](nn::Module& m) { return ivy::sum(ivy::square(m(x))); });
  for (const auto& [p, a] : grads.flatten()) {
    const std::vector<double> v = values(a);
    EXPECT_GT(std::accumulate(v.begin(), v.end(), 0.0, [](double s, double e) { return s + std::abs(e); }), 0.0) << p;
  }
}

TEST_P(ModuleTest, AttentionAndTransformerLayers) {
  init::seed(8);
  const init::Where w = where(ivy::float64);
  const Array x = init::normal(Shape{2, 5, 8}, 0, 1, w);
  nn::MultiHeadAttention mha(8, 2, true, w, 0.5, 17);
  mha.eval();
  const Array y = mha(x);
  EXPECT_EQ(values(y), values(mha.forward(x, x, x)));
  nn::MultiHeadAttentionResult r = mha.forward_with_weights(x, x, x);
  EXPECT_EQ(r.weights->shape(), (Shape{2, 5, 5}));
  // every row of the averaged weights sums to 1
  for (double s : values(ivy::sum(*r.weights, -1))) EXPECT_NEAR(s, 1.0, 1e-14);
  expect_error<ivy::ValueError>([] { nn::MultiHeadAttention(10, 3); }, "[MultiHeadAttention]");
  expect_error<ivy::ValueError>([&] { mha(init::zeros(Shape{2, 5, 6}, w)); }, "[MultiHeadAttention]");

  // training-mode dropout on the attention weights: p -> 0 gives the eval result (the
  // recomputed value path is the function's), p = 1 leaves out_proj's bias alone
  {
    nn::MultiHeadAttention m(8, 2, true, w, 1e-13, 1);
    m.set_parameters(mha.parameters().map([](const Array& a) { return a + 0.1; }));
    const Array kpm = ivy::asarray(std::vector<bool>{false, true, false, false, true, false, false, false, false, true},
                                   Shape{2, 5}, ivy::bool_, {}, backend());
    m.eval();
    const Array want = m.forward(x, x, x, kpm);
    m.train();
    EXPECT_LT(rel_diff(values(m.forward(x, x, x, kpm)), values(want)), 1e-12);
    // unbatched, with per-head weights
    nn::MultiHeadAttentionResult tr = m.forward_with_weights(x[1], x[1], x[1], std::nullopt, std::nullopt, false);
    m.eval();
    nn::MultiHeadAttentionResult ev = m.forward_with_weights(x[1], x[1], x[1], std::nullopt, std::nullopt, false);
    EXPECT_EQ(tr.weights->shape(), (Shape{2, 5, 5}));
    EXPECT_LT(rel_diff(values(tr.output), values(ev.output)), 1e-12);
    EXPECT_LT(rel_diff(values(*tr.weights), values(*ev.weights)), 1e-15);
    nn::MultiHeadAttention all(8, 2, true, w, 1.0, 1);
    all.set_parameters(m.parameters());
    const std::vector<double> out = values(all(x)), bias = values(m.parameters().at("out_proj/bias").array());
    for (std::size_t i = 0; i < out.size(); ++i) EXPECT_NEAR(out[i], bias[i % 8], 1e-14);
  }

  nn::TransformerEncoderLayer enc(8, 2, 16, 0.3, "gelu", false, true, 1e-5, w, 5);
  EXPECT_EQ(paths(enc.parameters()),
            (std::vector<std::string>{"self_attn/in_proj_weight", "self_attn/in_proj_bias", "self_attn/out_proj/weight",
                                      "self_attn/out_proj/bias", "linear1/weight", "linear1/bias", "linear2/weight",
                                      "linear2/bias", "norm1/weight", "norm1/bias", "norm2/weight", "norm2/bias"}));
  enc.eval();
  const Array e1 = enc(x);
  EXPECT_EQ(values(e1), values(enc(x)));  // eval: deterministic, no dropout
  // post-norm: every position is layer-normalized (mean 0 with unit weight and zero bias)
  for (double m : values(ivy::mean(e1, -1))) EXPECT_NEAR(m, 0.0, 1e-12);
  enc.train();
  const Array t1 = enc(x), t2 = enc(x);
  EXPECT_GT(rel_diff(values(t1), values(e1)), 1e-3);  // dropout is active
  EXPECT_GT(rel_diff(values(t2), values(t1)), 1e-3);  // and a new mask per call
  // the same seed replays the same masks
  nn::TransformerEncoderLayer twin(8, 2, 16, 0.3, "gelu", false, true, 1e-5, w, 5);
  twin.set_parameters(enc.parameters());
  EXPECT_EQ(values(twin(x)), values(t1));
  // gradients in training mode
  auto [loss, g] = nn::value_and_grad(twin, [&](nn::Module& m) { return ivy::sum(ivy::square(m(x))); });
  EXPECT_EQ(paths(g), paths(enc.parameters()));
  // sequence-first layout: the same computation on the transposed input
  nn::TransformerEncoderLayer seq_first(8, 2, 16, 0.3, "gelu", false, false, 1e-5, w, 5);
  seq_first.set_parameters(enc.parameters());
  seq_first.eval();
  EXPECT_LT(rel_diff(values(seq_first(ivy::permute_dims(x, ivy::Dims{1, 0, 2}))),
                     values(ivy::permute_dims(e1, ivy::Dims{1, 0, 2}))),
            1e-14);
  // unbatched input equals the batched row
  enc.eval();
  EXPECT_LT(rel_diff(values(enc(x[0])), values(e1[0])), 1e-12);
  expect_error<ivy::ValueError>([&] { nn::TransformerEncoderLayer(8, 2, 16, 0.1, "tanh"); }, "[TransformerEncoderLayer]");
  expect_error<ivy::ValueError>([&] { enc(init::zeros(Shape{2, 5, 6}, w)); }, "[TransformerEncoderLayer]");
}

// ------------------------------------------------------------------ layers against PyTorch
const ivy::test_fixtures::Fixture& fixtures() {
  static const auto f = [] {
    auto r = ivy::test_fixtures::load_fixture("modules.json", "gen_module_fixtures.py");
    if (r.error.empty() && r.cases().empty()) r.error = "no cases in modules.json";
    return r;
  }();
  return f;
}
std::vector<std::string> case_names() {
  std::vector<std::string> n;
  for (const json& c : fixtures().doc["cases"]) n.push_back(c.at("name").get<std::string>());
  if (n.empty()) n.push_back("missing");  // reported as a failure by the test
  return n;
}

// A fixture array on backend b (float64, int64 or bool).
Array decode(const json& spec, ivy::Backend b) {
  const std::string dt = spec.at("dtype").get<std::string>();
  const std::vector<std::int64_t> sv = spec.at("shape").get<std::vector<std::int64_t>>();
  const Shape shape(sv.begin(), sv.end());
  const json& d = spec.at("data");
  if (dt == "bool") return ivy::asarray(d.get<std::vector<bool>>(), shape, ivy::bool_, {}, b);
  if (dt == "int64") return ivy::asarray(d.get<std::vector<std::int64_t>>(), shape, ivy::int64, {}, b);
  if (dt == "float64") return ivy::asarray(d.get<std::vector<double>>(), shape, ivy::float64, {}, b);
  throw std::invalid_argument("unexpected fixture dtype " + dt);
}
// [{"name": "a.b", "array": ...}] -> Container "a/b", in the fixture's order
Container named(const json& list, ivy::Backend b) {
  std::vector<std::pair<std::string, Array>> v;
  for (const json& e : list) {
    std::string n = e.at("name").get<std::string>();
    std::replace(n.begin(), n.end(), '.', '/');
    v.emplace_back(n, decode(e.at("array"), b));
  }
  return Container::from_pairs(v);
}

// Empty when `got` matches `want` (shape, and values within rtol of want's largest |element|).
std::string mismatch(const Array& got, const Array& want, double rtol) {
  std::ostringstream os;
  if (!(got.shape() == want.shape())) {
    os << "shape " << got.shape() << ", expected " << want.shape();
    return os.str();
  }
  if (got.dtype() != want.dtype()) return std::string("dtype ") + ivy::dtype_name(got.dtype());
  const std::vector<double> g = values(got), w = values(want);
  const double err = rel_diff(g, w);
  if (err <= rtol) return "";
  os << "relative error " << err << " > " << rtol;
  return os.str();
}

using Inputs = std::map<std::string, Array>;
std::optional<Array> opt(const Inputs& in, const std::string& k) {
  auto it = in.find(k);
  return it == in.end() ? std::nullopt : std::optional<Array>(it->second);
}

// The ivy layer a case stands for, and its call on the case's inputs (outputs in order).
struct Built {
  std::shared_ptr<nn::Module> module;
  std::function<std::vector<Array>(nn::Module&, const Inputs&)> call;
};
template <class M>
Built single(std::shared_ptr<M> m) {
  return {m, [](nn::Module& mod, const Inputs& in) { return std::vector<Array>{mod(in.at("x"))}; }};
}
Built build(const json& c, ivy::Backend b) {
  const init::Where w{ivy::float64, b, {}};
  const std::string layer = c.at("layer").get<std::string>();
  const json& k = c.at("config");
  auto I = [&](const char* key) { return k.at(key).get<std::int64_t>(); };
  auto D = [&](const char* key) { return k.at(key).get<double>(); };
  auto B = [&](const char* key) { return k.at(key).get<bool>(); };
  auto dims = [&](const char* key) {
    const auto v = k.at(key).get<std::vector<std::int64_t>>();
    return ivy::Dims(v.begin(), v.end());
  };
  if (layer == "Linear")
    return single(std::make_shared<nn::Linear>(I("in"), I("out"), B("bias"), w));
  if (layer == "Conv2d") {
    nn::ConvOptions o{.strides = dims("stride"), .padding = nn::Padding(dims("padding")), .dilations = dims("dilation"),
                      .groups = I("groups")};
    return single(std::make_shared<nn::Conv2D>(I("in"), I("out"), dims("kernel"), o, true, w));
  }
  if (layer == "ConvTranspose2d") {
    nn::ConvTransposeOptions o{.strides = dims("stride"), .padding = dims("padding"),
                               .output_padding = dims("output_padding"), .groups = I("groups")};
    return single(std::make_shared<nn::ConvTranspose>(I("in"), I("out"), dims("kernel"), o, true, w));
  }
  if (layer == "BatchNorm2d")
    return single(std::make_shared<nn::BatchNorm>(I("features"), D("eps"), D("momentum"), true, true, 1, w));
  if (layer == "LayerNorm") return single(std::make_shared<nn::LayerNorm>(dims("shape"), D("eps"), true, w));
  if (layer == "GroupNorm")
    return single(std::make_shared<nn::GroupNorm>(I("groups"), I("channels"), D("eps"), true, 1, w));
  if (layer == "Embedding") return single(std::make_shared<nn::Embedding>(I("num"), I("dim"), w));
  if (layer == "LSTM") {
    auto m = std::make_shared<nn::LSTM>(I("input_size"), I("hidden_size"), I("num_layers"), B("bias"),
                                        B("bidirectional"), w);
    return {m, [](nn::Module& mod, const Inputs& in) {
              nn::LstmResult r = dynamic_cast<nn::LSTM&>(mod).forward_with_state(in.at("x"), opt(in, "h0"), opt(in, "c0"));
              return std::vector<Array>{r.output, r.h_n, r.c_n};
            }};
  }
  if (layer == "GRU") {
    auto m = std::make_shared<nn::GRU>(I("input_size"), I("hidden_size"), I("num_layers"), B("bias"),
                                       B("bidirectional"), w);
    return {m, [](nn::Module& mod, const Inputs& in) {
              nn::GruResult r = dynamic_cast<nn::GRU&>(mod).forward_with_state(in.at("x"), opt(in, "h0"));
              return std::vector<Array>{r.output, r.h_n};
            }};
  }
  if (layer == "MultiheadAttention") {
    auto m = std::make_shared<nn::MultiHeadAttention>(I("embed_dim"), I("num_heads"), B("bias"), w);
    return {m, [](nn::Module& mod, const Inputs& in) {
              auto& a = dynamic_cast<nn::MultiHeadAttention&>(mod);
              if (in.count("x")) return std::vector<Array>{a(in.at("x"))};
              return std::vector<Array>{
                  a.forward(in.at("q"), in.at("k"), in.at("v"), opt(in, "key_padding_mask"), opt(in, "attn_mask"))};
            }};
  }
  if (layer == "TransformerEncoderLayer") {
    auto m = std::make_shared<nn::TransformerEncoderLayer>(I("d_model"), I("nhead"), I("dim_feedforward"),
                                                           D("dropout"), k.at("activation").get<std::string>(),
                                                           B("norm_first"), true, 1e-5, w);
    return {m, [](nn::Module& mod, const Inputs& in) {
              return std::vector<Array>{dynamic_cast<nn::TransformerEncoderLayer&>(mod).forward(
                  in.at("src"), opt(in, "src_mask"), opt(in, "src_key_padding_mask"))};
            }};
  }
  if (layer == "SequentialCNN") {
    auto m = std::make_shared<nn::Sequential>(std::initializer_list<std::shared_ptr<nn::Module>>{
        std::make_shared<nn::Conv2D>(2, 4, ivy::Dims{3}, nn::ConvOptions{.padding = 1}, true, w), nn::ReLU(),
        std::make_shared<nn::MaxPool>(ivy::Dims{2, 2}),
        std::make_shared<nn::Conv2D>(4, 6, ivy::Dims{3}, nn::ConvOptions{.groups = 2}, true, w),
        std::make_shared<nn::BatchNorm>(6, 1e-5, 0.1, true, true, 1, w), nn::ReLU(), std::make_shared<nn::Flatten>(),
        std::make_shared<nn::Linear>(24, 3, true, w)});
    return single(m);
  }
  throw std::invalid_argument("unknown layer " + layer);
}

class ModuleFixture : public ::testing::TestWithParam<std::tuple<std::string, std::string>> {};

TEST_P(ModuleFixture, MatchesTorch) {
  ASSERT_EQ(fixtures().error, "");
  const auto& [bname, cname] = GetParam();
  const ivy::Backend b(bname);
  const json* found = nullptr;
  for (const json& c : fixtures().doc["cases"])
    if (c.at("name") == cname) found = &c;
  ASSERT_NE(found, nullptr) << cname;
  const json& c = *found;
  constexpr double rtol = 1e-9;

  Built built = build(c, b);
  nn::Module& m = *built.module;
  // torch's names with '/' and in torch's order are exactly the module's parameters
  const Container params = named(c.at("params"), b);
  ASSERT_EQ(paths(params), paths(m.parameters()));
  m.set_parameters(params);
  if (!c.at("buffers").empty()) m.set_buffers(named(c.at("buffers"), b));
  m.train(c.at("training").get<bool>());

  Inputs in;
  for (const json& e : c.at("inputs")) in[e.at("name").get<std::string>()] = decode(e.at("array"), b);
  std::vector<Array> cots;
  for (const json& e : c.at("cotangents")) cots.push_back(decode(e, b));
  std::vector<Array> outs;
  auto [loss, grads] = nn::value_and_grad(m, [&](nn::Module& mod) {
    outs = built.call(mod, in);
    Array l = ivy::asarray(0.0, ivy::float64, {}, b);
    for (std::size_t i = 0; i < outs.size(); ++i) l = l + ivy::sum(outs[i] * cots.at(i));
    return l;
  });
  ASSERT_EQ(outs.size(), c.at("outputs").size());
  for (std::size_t i = 0; i < outs.size(); ++i)
    EXPECT_EQ(mismatch(outs[i], decode(c.at("outputs")[i], b), rtol), "") << "output " << i;
  const Container want = named(c.at("grads"), b);
  ASSERT_EQ(paths(grads), paths(want));
  for (const auto& [p, g] : want.flatten()) EXPECT_EQ(mismatch(grads.at(p).array(), g, rtol), "") << "grad of " << p;
  if (!c.at("buffers_after").empty()) {
    const Container bufs = named(c.at("buffers_after"), b);
    ASSERT_EQ(paths(m.buffers()), paths(bufs));
    for (const auto& [p, v] : bufs.flatten()) EXPECT_EQ(mismatch(m.buffers().at(p).array(), v, rtol), "") << p;
  }
  // the plain forward (outside value_and_grad) in eval mode agrees with the traced one
  if (!c.at("training").get<bool>()) {
    const std::vector<Array> again = built.call(m, in);
    for (std::size_t i = 0; i < outs.size(); ++i) EXPECT_EQ(values(again[i]), values(outs[i])) << "output " << i;
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, ModuleFixture, ::testing::Combine(::testing::ValuesIn(backend_names()),
                                                                     ::testing::ValuesIn(case_names())),
                         [](const auto& info) { return std::get<0>(info.param) + "_" + std::get<1>(info.param); });

INSTANTIATE_TEST_SUITE_P(Backends, ModuleTest, ::testing::ValuesIn(backend_names()),
                         [](const auto& info) { return info.param; });

}  // namespace

// set_parameters matches by path: the same leaves in another order are accepted
TEST(ModuleByPath, SetParametersTakesAnyLeafOrder) {
  ivy::nn::Linear lin(3, 2);
  auto p = lin.parameters();
  Array w2 = ivy::multiply(p.at("weight").array(), 2.0), b2 = ivy::add(p.at("bias").array(), 1.0);
  lin.set_parameters(Container::from_pairs({{"bias", b2}, {"weight", w2}}));
  auto q = lin.parameters().flatten();
  ASSERT_EQ(q.size(), 2u);
  EXPECT_EQ(q[0].first, "weight");  // the module keeps its own order
  EXPECT_EQ(q[0].second.to_vector<float>(), w2.to_vector<float>());
  EXPECT_EQ(q[1].second.to_vector<float>(), b2.to_vector<float>());
}

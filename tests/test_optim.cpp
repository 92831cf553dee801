// ivy::optim on every backend, against tests/fixtures/optim.json (tests/gen_optim_fixtures.py):
// 10 steps of each optimizer configuration against torch.optim 1.13 (SGD, Adam, AdamW,
// RMSprop, Adagrad) or the script's numpy LAMB/LARS; checkpointing the state through
// safetensors mid-run; float32 parameters; the schedules against torch.optim.lr_scheduler;
// clipping against torch.nn.utils; the zero-norm rules of LAMB/LARS; and the errors.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "ivy/container.hpp"
#include "ivy/ivy.hpp"
#include "ivy/optim.hpp"
#include "fixture_file.hpp"

#ifndef IVY_FIXTURES_DIR
#error "define IVY_FIXTURES_DIR as the (quoted) folder that holds optim.json"
#endif

namespace {

using ivy::Array;
using ivy::Container;
using json = nlohmann::json;
namespace optim = ivy::optim;

std::vector<std::string> backend_names() {
  std::vector<std::string> n;
  for (auto b : ivy::available_backends()) n.push_back(b.name());
  return n;
}

// The document, or {"error": why it cannot be used}.
const json& fixtures() {
  static const json doc = [] {
    auto f = ivy::test_fixtures::load_fixture("optim.json", "gen_optim_fixtures.py", ivy::test_fixtures::Layout::any);
    return f.error.empty() ? f.doc : json{{"error", f.error}};
  }();
  return doc;
}

std::vector<double> values(const Array& x) { return ivy::astype(x, ivy::float64).to_vector<double>(); }

// {"path": {"shape": [...], "data": [...]}, ...} -> a Container of float64 (or dtype) arrays
Container tree(const json& j, ivy::DType dtype = ivy::float64) {
  std::vector<std::pair<std::string, Array>> leaves;
  for (auto it = j.begin(); it != j.end(); ++it) {
    std::vector<std::int64_t> shape = it.value().at("shape").get<std::vector<std::int64_t>>();
    std::vector<double> data = it.value().at("data").get<std::vector<double>>();
    leaves.emplace_back(it.key(), ivy::asarray(data, ivy::Shape(shape.begin(), shape.end()), dtype));
  }
  return Container::from_pairs(leaves);
}

// Every leaf of got matches the fixture tree within |d| <= tol * (1 + |want|).
void expect_close(const Container& got, const json& want, double tol, const std::string& what) {
  ASSERT_EQ(got.num_leaves(), static_cast<std::int64_t>(want.size())) << what;
  for (auto it = want.begin(); it != want.end(); ++it) {
    std::vector<double> w = it.value().at("data").get<std::vector<double>>();
    std::vector<double> g = values(got.at(it.key()).array());
    ASSERT_EQ(g.size(), w.size()) << what << " " << it.key();
    for (std::size_t i = 0; i < w.size(); ++i)
      EXPECT_LE(std::abs(g[i] - w[i]), tol * (1 + std::abs(w[i])))
          << what << " " << it.key() << "[" << i << "]: got " << g[i] << ", want " << w[i];
  }
}

double arg(const json& a, const char* k, double def) { return a.contains(k) ? a.at(k).get<double>() : def; }
bool flag(const json& a, const char* k) { return a.contains(k) && a.at(k).get<bool>(); }
double beta(const json& a, int i, double def) { return a.contains("betas") ? a.at("betas").at(i).get<double>() : def; }

// The optimizer a fixture case describes (torch's defaults where an argument is absent).
std::unique_ptr<optim::Optimizer> make(const json& c) {
  const std::string kind = c.at("optimizer");
  const json& a = c.at("args");
  const double lr = a.at("lr");
  if (kind == "SGD")
    return std::make_unique<optim::SGD>(lr, arg(a, "momentum", 0), arg(a, "dampening", 0), arg(a, "weight_decay", 0),
                                        flag(a, "nesterov"));
  if (kind == "Adam")
    return std::make_unique<optim::Adam>(lr, beta(a, 0, 0.9), beta(a, 1, 0.999), arg(a, "eps", 1e-8),
                                         arg(a, "weight_decay", 0), flag(a, "amsgrad"));
  if (kind == "AdamW")
    return std::make_unique<optim::AdamW>(lr, beta(a, 0, 0.9), beta(a, 1, 0.999), arg(a, "eps", 1e-8),
                                          arg(a, "weight_decay", 1e-2), flag(a, "amsgrad"));
  if (kind == "RMSprop")
    return std::make_unique<optim::RMSprop>(lr, arg(a, "alpha", 0.99), arg(a, "eps", 1e-8), arg(a, "weight_decay", 0),
                                            arg(a, "momentum", 0), flag(a, "centered"));
  if (kind == "Adagrad")
    return std::make_unique<optim::Adagrad>(lr, arg(a, "lr_decay", 0), arg(a, "weight_decay", 0),
                                            arg(a, "initial_accumulator_value", 0), arg(a, "eps", 1e-10));
  if (kind == "LAMB")
    return std::make_unique<optim::LAMB>(lr, beta(a, 0, 0.9), beta(a, 1, 0.999), arg(a, "eps", 1e-6),
                                         arg(a, "weight_decay", 0));
  if (kind == "LARS")
    return std::make_unique<optim::LARS>(lr, arg(a, "momentum", 0.9), arg(a, "weight_decay", 0), arg(a, "eta", 0.001));
  throw std::runtime_error("unknown optimizer kind " + kind);
}

// d/dw sum(c w^2 + sin(w)) = 2 c w + cos(w), with ivy, in the parameters' dtype
Container grads_of(const Container& params, const Container& coef) {
  return Container::map2(
      params, coef, [](const Array& w, const Array& c) { return 2.0 * ivy::astype(c, w.dtype()) * w + ivy::cos(w); });
}

class OptimTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    scope_ = std::make_unique<ivy::BackendScope>(GetParam().c_str());
    ASSERT_FALSE(fixtures().contains("error")) << fixtures().value("error", "");
  }
  std::unique_ptr<ivy::BackendScope> scope_;
};

constexpr double kTol = 1e-9;  // float64 trajectories agree to rounding

TEST_P(OptimTest, TrajectoriesMatchTorchAndTheReferenceFormulas) {
  const json& doc = fixtures();
  ASSERT_GE(doc.at("optimizers").size(), 25u);
  const Container coef = tree(doc.at("coef"));
  for (const json& c : doc.at("optimizers")) {
    const std::string name = c.at("name");
    SCOPED_TRACE(name);
    auto opt = make(c);
    Container params = tree(doc.at("start"));
    const json& traj = c.at("trajectory");
    ASSERT_EQ(traj.size(), 10u);
    for (std::size_t i = 0; i < traj.size(); ++i) {
      params = opt->step(params, grads_of(params, coef));
      EXPECT_EQ(opt->steps(), static_cast<std::int64_t>(i + 1));
      expect_close(params, traj[i], kTol, name + " step " + std::to_string(i + 1));
    }
    for (auto& [p, x] : params.flatten()) {
      EXPECT_EQ(x.dtype(), ivy::float64) << p;
      EXPECT_EQ(x.backend().name(), GetParam()) << p;
    }
    EXPECT_EQ(opt->state().at("step").array().item<std::int64_t>(), 10);
  }
}

// Five steps, the state saved to safetensors and loaded into a fresh optimizer (on the other
// backend when there is one), five more steps: the same parameters as ten steps in one go.
TEST_P(OptimTest, StateCheckpointsThroughSafetensors) {
  const json& doc = fixtures();
  const Container coef = tree(doc.at("coef"));
  char tmpl[] = "/tmp/ivy_optim_test_XXXXXX";
  ASSERT_NE(::mkdtemp(tmpl), nullptr);
  const std::string dir = tmpl;
  ivy::Backend other = ivy::current_backend();
  for (auto b : ivy::available_backends())
    if (b != other) other = b;
  for (const json& c : doc.at("optimizers")) {
    const std::string name = c.at("name");
    SCOPED_TRACE(name);
    auto first = make(c);
    Container params = tree(doc.at("start"));
    for (int i = 0; i < 5; ++i) params = first->step(params, grads_of(params, coef));
    const std::string path = dir + "/" + name + ".safetensors";
    first->state().save(path, {{"optimizer", c.at("optimizer").get<std::string>()}});
    auto second = make(c);
    second->load_state(Container::load(path, other));
    EXPECT_EQ(second->steps(), 5);
    for (int i = 0; i < 5; ++i) params = second->step(params, grads_of(params, coef));
    expect_close(params, c.at("trajectory")[9], kTol, name + " resumed");
    // the slots it keeps are the ones it declares
    for (const auto& k : second->state().keys())
      if (k != "step") {
        auto names = second->slot_names();
        EXPECT_NE(std::find(names.begin(), names.end(), k), names.end()) << k;
      }
  }
  std::filesystem::remove_all(dir);
}

TEST_P(OptimTest, Float32ParametersStayFloat32) {
  const json& doc = fixtures();
  const Container coef = tree(doc.at("coef"));
  for (const char* which : {"adam_weight_decay", "sgd_nesterov_wd", "rmsprop_centered", "lamb_wd"}) {
    SCOPED_TRACE(which);
    const json* c = nullptr;
    for (const json& x : doc.at("optimizers"))
      if (x.at("name") == which) c = &x;
    ASSERT_NE(c, nullptr);
    auto opt = make(*c);
    Container params = tree(doc.at("start"), ivy::float32);
    for (int i = 0; i < 10; ++i) {
      // float64 gradients of float32 parameters: cast to the parameter's dtype
      Container g = grads_of(params.map([](const Array& x) { return ivy::astype(x, ivy::float64); }), coef);
      params = opt->step(params, g);
    }
    for (auto& [p, x] : params.flatten()) EXPECT_EQ(x.dtype(), ivy::float32) << p;
    for (auto& [p, x] : opt->state().flatten()) {
      if (p != "step") EXPECT_EQ(x.dtype(), ivy::float32) << p;
    }
    expect_close(params, c->at("trajectory")[9], 1e-4, std::string(which) + " float32");
  }
}

// The rules for a zero norm, by hand: LAMB's trust ratio and LARS's local rate are 1.
TEST_P(OptimTest, ZeroNormsUseATrustRatioOfOne) {
  Container p = Container::from_pairs({{"zero", ivy::zeros({3}, ivy::float64)}, {"w", ivy::asarray({3.0, 4.0})}});
  Container g = Container::from_pairs({{"zero", ivy::asarray({2.0, -1.0, 0.0})}, {"w", ivy::zeros({2}, ivy::float64)}});
  // LAMB, step 1: m_hat = g, v_hat = g^2, u = g / (|g| + eps); ||p|| = 0 -> p - lr * u.
  // For w: g = 0 -> u = 0 -> ||u|| = 0 -> trust 1, and p is unchanged.
  optim::LAMB lamb(0.1, 0.9, 0.999, 1e-6);
  Container q = lamb.step(p, g);
  auto z = values(q.at("zero").array());
  EXPECT_NEAR(z[0], -0.1 * 2.0 / (2.0 + 1e-6), 1e-15);
  EXPECT_NEAR(z[1], 0.1 * 1.0 / (1.0 + 1e-6), 1e-15);
  EXPECT_EQ(z[2], 0.0);
  EXPECT_EQ(values(q.at("w").array()), (std::vector<double>{3.0, 4.0}));
  // LARS, no momentum, weight decay 0.5: zero: ||p|| = 0 -> local 1, p - lr * (g + 0.5 p);
  // w: ||g|| = 0 -> local 1, p - lr * (0 + 0.5 p) = p * (1 - 0.05)
  optim::LARS lars(0.1, 0.0, 0.5, 0.001);
  Container r = lars.step(p, g);
  EXPECT_EQ(values(r.at("zero").array()), (std::vector<double>{-0.2, 0.1, 0.0}));
  auto w = values(r.at("w").array());
  EXPECT_NEAR(w[0], 3.0 * 0.95, 1e-15);
  EXPECT_NEAR(w[1], 4.0 * 0.95, 1e-15);
  // and with both norms non-zero, LARS's local rate is eta ||p|| / (||g|| + wd ||p||):
  // ||p|| = 5, g = (0, 1) -> local = 0.001 * 5 / (1 + 2.5); d = g + 0.5 p
  Container g2 = Container::from_pairs({{"w", ivy::asarray({0.0, 1.0})}});
  Container p2 = Container::from_pairs({{"w", ivy::asarray({3.0, 4.0})}});
  optim::LARS lars2(0.1, 0.0, 0.5, 0.001);
  auto w2 = values(lars2.step(p2, g2).at("w").array());
  const double local = 0.001 * 5.0 / 3.5;
  EXPECT_NEAR(w2[0], 3.0 - 0.1 * local * 1.5, 1e-15);
  EXPECT_NEAR(w2[1], 4.0 - 0.1 * local * 3.0, 1e-15);
}

TEST_P(OptimTest, LearningRateChangesApplyToTheNextStep) {
  Container p = Container::from_pairs({{"w", ivy::asarray({1.0, -2.0})}});
  Container g = Container::from_pairs({{"w", ivy::asarray({0.5, 0.5})}});
  optim::SGD sgd(0.1);
  EXPECT_EQ(values(sgd.step(p, g).at("w").array()), (std::vector<double>{1.0 - 0.1 * 0.5, -2.0 - 0.1 * 0.5}));
  sgd.set_lr(0.0);
  EXPECT_EQ(sgd.lr(), 0.0);
  EXPECT_EQ(values(sgd.step(p, g).at("w").array()), (std::vector<double>{1.0, -2.0}));
  optim::StepLR sched(0.2, 1, 0.5);
  sgd.set_lr(sched.lr_at(2));  // 0.05
  EXPECT_EQ(values(sgd.step(p, g).at("w").array()), (std::vector<double>{1.0 - 0.05 * 0.5, -2.0 - 0.05 * 0.5}));
  EXPECT_EQ(sgd.steps(), 3);
  sgd.reset();
  EXPECT_EQ(sgd.steps(), 0);
  EXPECT_TRUE(sgd.state().empty());
  // a root leaf is a parameter too
  optim::SGD one(1.0);
  EXPECT_EQ(values(one.step(Container(ivy::asarray({1.0})), Container(ivy::asarray({0.25}))).array()),
            (std::vector<double>{0.75}));
  // and an empty tree is a no-op step
  EXPECT_TRUE(one.step(Container(), Container()).empty());
  EXPECT_EQ(one.steps(), 2);
}

TEST_P(OptimTest, SchedulesMatchTorch) {
  const json& doc = fixtures();
  ASSERT_GE(doc.at("schedules").size(), 8u);
  for (const json& s : doc.at("schedules")) {
    const std::string name = s.at("name");
    SCOPED_TRACE(name);
    const json& a = s.at("args");
    const std::string kind = s.at("kind");
    std::unique_ptr<optim::LRSchedule> sched;
    if (kind == "StepLR")
      sched = std::make_unique<optim::StepLR>(a.at("base_lr"), a.at("step_size"), a.at("gamma"));
    else if (kind == "CosineAnnealingLR")
      sched = std::make_unique<optim::CosineAnnealingLR>(a.at("base_lr"), a.at("T_max"), a.at("eta_min"));
    else if (kind == "LinearWarmup")
      sched = std::make_unique<optim::LinearWarmup>(a.at("base_lr"), a.at("warmup_steps"), a.at("start_factor"));
    else if (kind == "OneCycleLR")
      sched = std::make_unique<optim::OneCycleLR>(a.at("max_lr"), a.at("total_steps"), a.at("pct_start"),
                                                  a.at("div_factor"), a.at("final_div_factor"));
    ASSERT_TRUE(sched) << kind;
    const auto lrs = s.at("lr").get<std::vector<double>>();
    for (std::size_t t = 0; t < lrs.size(); ++t)
      EXPECT_NEAR(sched->lr_at(static_cast<std::int64_t>(t)), lrs[t], 1e-12 * (1 + std::abs(lrs[t]))) << "step " << t;
  }
}

TEST_P(OptimTest, ClippingMatchesTorch) {
  const json& clip = fixtures().at("clipping");
  const Container grads = tree(clip.at("grads"));
  int n = 0;
  for (const json& c : clip.at("cases")) {
    if (c.at("kind") == "norm") {
      double total = -1;
      Container out = optim::clip_grad_norm(grads, c.at("max_norm"), &total);
      EXPECT_NEAR(total, c.at("total_norm").get<double>(), 1e-12);
      expect_close(out, c.at("clipped"), 1e-12, "clip_grad_norm " + c.at("max_norm").dump());
    } else {
      expect_close(optim::clip_grad_value(grads, c.at("clip")), c.at("clipped"), 0,
                   "clip_grad_value " + c.at("clip").dump());
    }
    ++n;
  }
  EXPECT_EQ(n, 6);
  double total = -1;
  EXPECT_TRUE(optim::clip_grad_norm(Container(), 1.0, &total).empty());
  EXPECT_EQ(total, 0.0);
  EXPECT_THROW(optim::clip_grad_norm(grads, -1.0), ivy::ValueError);
  EXPECT_THROW(optim::clip_grad_value(grads, -0.5), ivy::ValueError);
}

template <class E, class F>
void expect_error(F&& f, std::initializer_list<std::string> parts) {
  try {
    f();
    ADD_FAILURE() << "no exception; expected one containing '" << *parts.begin() << "'";
  } catch (const E& e) {
    std::string msg = e.what();
    for (const auto& p : parts) EXPECT_NE(msg.find(p), std::string::npos) << "message: " << msg << "\nmissing: " << p;
  } catch (const std::exception& e) {
    ADD_FAILURE() << "wrong exception type: " << e.what();
  }
}

TEST_P(OptimTest, ErrorsNameTheOptimizerAndThePath) {
  Container p = Container::from_pairs({{"a", ivy::asarray({1.0, 2.0})}, {"n/b", ivy::asarray({3.0})}});
  Container g = Container::from_pairs({{"a", ivy::asarray({0.1, 0.2})}, {"n/b", ivy::asarray({0.3})}});
  optim::Adam adam(0.1);
  expect_error<ivy::ValueError>(
      [&] {
        adam.step(p, Container::from_pairs({{"a", ivy::asarray({0.1, 0.2})}}));
      },
      {"[optim.Adam] params and grads differ", "'n' is in the first container but not in the second"});
  expect_error<ivy::ValueError>(
      [&] {
        adam.step(p, Container::from_pairs({{"a", ivy::asarray({0.1, 0.2})}, {"n/b", ivy::asarray({0.3, 0.4})}}));
      },
      {"[optim.Adam]", "gradient of 'n/b' has shape (2,) but the parameter has shape (1,)"});
  expect_error<ivy::TypeError>(
      [&] {
        adam.step(Container::from_pairs({{"i", ivy::asarray({1, 2})}}),
                  Container::from_pairs({{"i", ivy::asarray({1.0, 2.0})}}));
      },
      {"[optim.Adam]", "parameter 'i' has dtype int", "real floating"});
  expect_error<ivy::TypeError>(
      [&] {
        adam.step(Container::from_pairs({{"c", ivy::asarray({1.0})}}),
                  Container::from_pairs({{"c", ivy::asarray(std::vector<std::complex<double>>{{1.0, 1.0}})}}));
      },
      {"[optim.Adam]", "gradient of 'c' has dtype complex128"});
  EXPECT_EQ(adam.steps(), 0);
  EXPECT_TRUE(adam.state().empty());

  // a failing step leaves the state as it was: a slot of the wrong shape for the second leaf
  adam.step(p, g);
  Container bad = adam.state();
  bad.set("m/n/b", ivy::zeros({5}, ivy::float64));
  adam.load_state(bad);
  const auto m_a = values(adam.state().at("m/a").array());
  expect_error<ivy::ValueError>(
      [&] { adam.step(p, g); },
      {"[optim.Adam]", "state entry 'm/n/b' is float64(5,) but parameter 'n/b' is float64(1,)"});
  EXPECT_EQ(adam.steps(), 1);
  EXPECT_EQ(values(adam.state().at("m/a").array()), m_a);
  EXPECT_EQ(adam.state().at("step").array().item<std::int64_t>(), 1);

  // load_state
  optim::SGD sgd(0.1, 0.9);
  expect_error<ivy::ValueError>([&] { sgd.load_state(adam.state()); },
                                {"[optim.SGD] load_state: unknown state entry 'm'", "step, momentum"});
  expect_error<ivy::ValueError>([&] { sgd.load_state(Container()); }, {"[optim.SGD] load_state: no 'step'"});
  expect_error<ivy::ValueError>(
      [&] {
        sgd.load_state(Container::from_pairs({{"step", ivy::asarray({1.0})}}));
      },
      {"[optim.SGD] load_state: 'step' must be a 0-d integer array"});
  expect_error<ivy::ValueError>([&] { sgd.load_state(Container(ivy::asarray({1.0}))); }, {"[optim.SGD] load_state"});

  // constructor arguments
  expect_error<ivy::ValueError>([] { optim::SGD(-0.1); }, {"[optim.SGD] lr must be"});
  expect_error<ivy::ValueError>([] { optim::SGD(0.1, 0.0, 0.0, 0.0, true); },
                                {"[optim.SGD] nesterov needs momentum > 0"});
  expect_error<ivy::ValueError>([] { optim::SGD(0.1, 0.9, 0.5, 0.0, true); }, {"[optim.SGD] nesterov"});
  expect_error<ivy::ValueError>([] { optim::Adam(0.1, 1.0); }, {"[optim.Adam] beta1 must be in [0, 1)"});
  expect_error<ivy::ValueError>([] { optim::AdamW(0.1, 0.9, -0.1); }, {"[optim.AdamW] beta2"});
  expect_error<ivy::ValueError>([] { optim::RMSprop(0.1, 0.99, 1e-8, -1.0); }, {"[optim.RMSprop] weight_decay"});
  expect_error<ivy::ValueError>([] { optim::Adagrad(0.1, -1.0); }, {"[optim.Adagrad] lr_decay"});
  expect_error<ivy::ValueError>([] { optim::LARS(0.1, 0.9, 0.0, 0.0); }, {"[optim.LARS] eta"});
  expect_error<ivy::ValueError>([] { optim::LAMB(0.1, 0.9, 1.5); }, {"[optim.LAMB] beta2"});
  expect_error<ivy::ValueError>([&] { sgd.set_lr(std::nan("")); }, {"[optim.SGD] set_lr"});

  // schedules
  expect_error<ivy::ValueError>([] { optim::StepLR(0.1, 0); }, {"[optim.StepLR] step_size"});
  expect_error<ivy::ValueError>([] { optim::CosineAnnealingLR(0.1, 0); }, {"[optim.CosineAnnealingLR] T_max"});
  expect_error<ivy::ValueError>([] { optim::LinearWarmup(0.1, 0); }, {"[optim.LinearWarmup] warmup_steps"});
  expect_error<ivy::ValueError>([] { optim::OneCycleLR(0.1, 0); }, {"[optim.OneCycleLR] total_steps"});
  optim::OneCycleLR oc(0.5, 20);
  expect_error<ivy::ValueError>([&] { (void)oc.lr_at(21); },
                                {"[optim.OneCycleLR] lr_at: step 21 is past total_steps 20"});
  expect_error<ivy::ValueError>([&] { (void)optim::StepLR(0.1, 2).lr_at(-1); },
                                {"[optim.StepLR] lr_at: step must be >= 0"});
}

INSTANTIATE_TEST_SUITE_P(Backends, OptimTest, ::testing::ValuesIn(backend_names()),
                         [](const auto& info) { return info.param; });

}  // namespace

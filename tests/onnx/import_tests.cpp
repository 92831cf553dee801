// ivy::onnx's API around the operators: inputs, parameters, gradients through an imported
// model, and the errors for bad files and bad calls. The operators themselves are checked by
// ONNX's backend test data (node_tests.cpp).
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "ivy/ivy.hpp"
#include "ivy/onnx.hpp"

namespace {

const std::string kData = IVY_ONNX_TESTDATA;

std::string read(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

// f throws E whose message contains every one of `parts`.
template <class E, class F>
void expect_error(F&& f, std::initializer_list<const char*> parts) {
  try {
    f();
  } catch (const E& e) {
    for (const char* p : parts) EXPECT_NE(std::string(e.what()).find(p), std::string::npos) << e.what() << " lacks " << p;
    return;
  } catch (const std::exception& e) {
    ADD_FAILURE() << "threw another exception: " << e.what();
    return;
  }
  ADD_FAILURE() << "did not throw";
}

class OnnxImport : public testing::TestWithParam<std::string> {
 protected:
  void SetUp() override { scope_ = std::make_unique<ivy::BackendScope>(GetParam().c_str()); }
  std::unique_ptr<ivy::BackendScope> scope_;
};

// pytorch-converted/test_Linear: y = x W^T + b (Gemm) with W [8, 10], b [8] as initializers.
TEST_P(OnnxImport, ParametersInputsAndGradients) {
  auto m = ivy::onnx::load(kData + "/pytorch-converted/test_Linear/model.onnx");
  ASSERT_EQ(m->inputs().size(), 1u);
  EXPECT_EQ(m->inputs()[0].dtype, ivy::float32);
  EXPECT_EQ(m->outputs().size(), 1u);
  EXPECT_EQ(m->opset(), 6);
  ivy::Container p = m->parameters();
  EXPECT_EQ(m->num_parameters(), 8 * 10 + 8);
  EXPECT_EQ(m->inputs()[0].dims, (std::vector<std::int64_t>{4, 10}));
  // the test data's input through the model gives the test data's output
  const std::string dir = kData + "/pytorch-converted/test_Linear/test_data_set_0/";
  ivy::Array out = m->forward(ivy::onnx::load_tensor(dir + "input_0.pb"));
  EXPECT_TRUE(ivy::all(ivy::abs(out - ivy::onnx::load_tensor(dir + "output_0.pb")) <= 1e-5).item<bool>());
  const ivy::Array x = ivy::reshape(ivy::astype(ivy::arange(0, 40), ivy::float32) * 0.1, {4, 10});
  // the forward pass against the closed form with the model's own parameters
  ivy::Array y = m->forward(x);
  ivy::Array w = p["1"].array(), b = p["2"].array();
  ivy::Array want = ivy::matmul(x, ivy::matrix_transpose(w)) + b;
  EXPECT_TRUE(ivy::all(ivy::abs(y - want) <= 1e-5).item<bool>());
  // d sum(y) / dW[i, j] = sum_n x[n, j]; d sum(y) / db[i] = N
  auto [loss, grads] = ivy::nn::value_and_grad(*m, [&](ivy::nn::Module& mod) { return ivy::sum(mod(x)); });
  ivy::Array gw = grads["1"].array(), gb = grads["2"].array();
  ivy::Array col = ivy::sum(x, 0);
  EXPECT_TRUE(ivy::all(ivy::abs(gw - ivy::broadcast_to(col, {8, 10})) <= 1e-5).item<bool>());
  EXPECT_TRUE(ivy::all(gb == 4.0f).item<bool>());
  // named inputs give the same
  auto named = m->run(std::map<std::string, ivy::Array>{{m->inputs()[0].name, x}});
  EXPECT_TRUE(ivy::all(named.at(m->outputs()[0].name) == y).item<bool>());
}

TEST_P(OnnxImport, BadCallsAreErrors) {
  auto m = ivy::onnx::load(kData + "/pytorch-converted/test_Linear/model.onnx");
  expect_error<ivy::ValueError>([&] { m->forward(ivy::zeros({4, 10}, ivy::float64)); },
                                {"[onnx.run]", "must be float32", "float64"});
  expect_error<ivy::ValueError>([&] { m->forward(ivy::zeros({4, 9})); }, {"[onnx.run]", "must have shape (4, 10)", "(4, 9)"});
  expect_error<ivy::ValueError>([&] { m->run(std::map<std::string, ivy::Array>{{"nope", ivy::zeros({1, 10})}}); },
                                {"[onnx.run]", "no input 'nope'"});
}

TEST_P(OnnxImport, BadFilesAreErrors) {
  expect_error<ivy::ValueError>([] { ivy::onnx::load("/nonexistent/model.onnx"); }, {"[onnx.import]", "cannot open"});
  const std::string good = read(kData + "/node/test_add/model.onnx");
  // every truncation of a real model is refused with an [onnx.import] error, never a crash
  for (std::size_t len = 0; len < good.size(); len += 7)
    try {
      ivy::onnx::load_from_bytes(good.substr(0, len));
    } catch (const ivy::Error& e) {
      EXPECT_EQ(std::string(e.what()).rfind("[onnx.import]", 0), 0u) << e.what();
    }
  // and so is every single flipped byte
  for (std::size_t i = 0; i < good.size(); ++i) {
    std::string bad = good;
    bad[i] = static_cast<char>(bad[i] ^ 0x5a);
    try {
      auto m = ivy::onnx::load_from_bytes(bad);
    } catch (const ivy::Error& e) {
      EXPECT_EQ(std::string(e.what()).rfind("[onnx.import]", 0), 0u) << e.what();
    }
  }
  // every unsupported node at once, by operator and opset
  expect_error<ivy::NotImplementedError>([] { ivy::onnx::load(kData + "/node/test_tfidfvectorizer_tf_only_bigrams_skip0/model.onnx"); },
                                         {"[onnx.import]", "TfIdfVectorizer", "opset"});
}

std::vector<std::string> backends() {
  std::vector<std::string> r;
  for (ivy::Backend b : ivy::available_backends()) r.emplace_back(b.name());
  return r;
}
INSTANTIATE_TEST_SUITE_P(Backends, OnnxImport, testing::ValuesIn(backends()),
                         [](const auto& info) { return info.param; });

}  // namespace

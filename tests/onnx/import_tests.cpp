// ivy::onnx's API around the operators: inputs, parameters, gradients through an imported
// model, and the errors for bad files and bad calls. The operators themselves are checked by
// ONNX's backend test data (node_tests.cpp).
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include <onnx/onnx_pb.h>

#include <filesystem>

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

// Sequences and optionals go through run_values, checked against the model's input types;
// the tensor files of the test data load as the type says, and bad ones are errors.
TEST_P(OnnxImport, ValuesAndTensorFiles) {
  const std::string dir = kData + "/node/test_sequence_insert_at_back/";
  auto m = ivy::onnx::load(dir + "model.onnx");
  ASSERT_EQ(m->inputs()[0].type, ivy::onnx::ValueType::Sequence);
  const auto seq = ivy::onnx::load_value(dir + "test_data_set_0/input_0.pb", ivy::onnx::ValueType::Sequence);
  ASSERT_EQ(seq.sequence.size(), 3u);
  const auto t = ivy::onnx::load_value(dir + "test_data_set_0/input_1.pb", ivy::onnx::ValueType::Tensor);
  std::vector<ivy::onnx::Value> out = m->run_values({seq, t});
  ASSERT_EQ(out[0].type, ivy::onnx::ValueType::Sequence);
  ASSERT_EQ(out[0].sequence.size(), 4u);  // inserted at the back
  EXPECT_TRUE(ivy::all(out[0].sequence[3] == t.tensor).item<bool>());
  // a tensor where the model takes a sequence; the array form on a sequence model
  expect_error<ivy::ValueError>([&] { m->run_values({t, t}); }, {"[onnx.run]", "must be a sequence", "got a tensor"});
  expect_error<ivy::ValueError>([&] { m->run({t.tensor, t.tensor}); }, {"[onnx.run]", "use run_values"});
  // files: missing, and not a tensor
  expect_error<ivy::ValueError>([] { ivy::onnx::load_tensor("/nonexistent.pb"); }, {"[onnx.load_tensor]", "cannot open"});
  const std::string junk = testing::TempDir() + "ivy_onnx_junk.pb";
  std::ofstream(junk, std::ios::binary) << std::string("\xff\xff\xff\xff\x0f", 5);
  expect_error<ivy::ValueError>([&] { ivy::onnx::load_tensor(junk); }, {"[onnx.load_tensor]", "not a TensorProto"});
  expect_error<ivy::ValueError>([&] { ivy::onnx::load_value(junk, ivy::onnx::ValueType::Sequence); },
                                {"[onnx.load_value]", "not a SequenceProto"});
  std::remove(junk.c_str());
  // the operator list names each implementation's since_version
  const auto ops = ivy::onnx::supported_operators();
  EXPECT_EQ(ops.at("Softmax"), (std::vector<int>{1, 13}));
  EXPECT_EQ(ops.count("TfIdfVectorizer"), 0u);
}

// A model Y = X + W whose W [2, 2] float32 lives in an external file at `location`.
std::string external_model(const std::string& location, std::int64_t offset, std::int64_t length) {
  onnx::ModelProto m;
  m.set_ir_version(8);
  m.add_opset_import()->set_version(13);
  onnx::GraphProto* g = m.mutable_graph();
  g->set_name("external");
  onnx::TensorProto* w = g->add_initializer();
  w->set_name("W");
  w->set_data_type(onnx::TensorProto::FLOAT);
  w->add_dims(2);
  w->add_dims(2);
  w->set_data_location(onnx::TensorProto::EXTERNAL);
  auto put = [&](const char* k, const std::string& v) {
    auto* e = w->add_external_data();
    e->set_key(k);
    e->set_value(v);
  };
  put("location", location);
  put("offset", std::to_string(offset));
  if (length >= 0) put("length", std::to_string(length));
  for (const char* name : {"X", "Y"}) {
    onnx::ValueInfoProto* v = std::string(name) == "X" ? g->add_input() : g->add_output();
    v->set_name(name);
    auto* tt = v->mutable_type()->mutable_tensor_type();
    tt->set_elem_type(onnx::TensorProto::FLOAT);
    tt->mutable_shape()->add_dim()->set_dim_value(2);
    tt->mutable_shape()->add_dim()->set_dim_value(2);
  }
  onnx::NodeProto* n = g->add_node();
  n->set_op_type("Add");
  n->add_input("X");
  n->add_input("W");
  n->add_output("Y");
  return m.SerializeAsString();
}

// External data is read from inside the model's folder only, within the file's bounds.
TEST_P(OnnxImport, ExternalDataStaysInTheModelsFolder) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(testing::TempDir()) / ("ivy_onnx_external_" + GetParam());
  fs::remove_all(dir);
  fs::create_directories(dir / "model");
  const float w[4] = {1, 2, 3, 4};
  {
    std::ofstream f(dir / "model" / "w.bin", std::ios::binary);
    f.write("12345678", 8);  // 8 bytes before the tensor
    f.write(reinterpret_cast<const char*>(w), sizeof w);
  }
  fs::copy_file(dir / "model" / "w.bin", dir / "outside.bin");
  fs::create_symlink(dir / "outside.bin", dir / "model" / "link.bin");
  auto write_model = [&](const std::string& bytes) {
    std::ofstream(dir / "model" / "m.onnx", std::ios::binary) << bytes;
    return (dir / "model" / "m.onnx").string();
  };
  auto m = ivy::onnx::load(write_model(external_model("w.bin", 8, 16)));
  ivy::Array y = m->forward(ivy::zeros({2, 2}));
  EXPECT_EQ(y.to_vector<float>(), (std::vector<float>{1, 2, 3, 4}));
  EXPECT_EQ(m->num_parameters(), 4);
  auto refused = [&](const std::string& location, std::int64_t offset, std::int64_t length, const char* why) {
    const std::string path = write_model(external_model(location, offset, length));
    expect_error<ivy::ValueError>([&] { ivy::onnx::load(path); }, {"[onnx.import]", why});
  };
  refused("../outside.bin", 8, 16, "leaves the model's folder");
  refused("link.bin", 8, 16, "leaves the model's folder");  // a link to a file outside
  refused((dir / "model" / "w.bin").string(), 8, 16, "absolute path");
  refused("w.bin", 16, 16, "runs past the end");
  refused("w.bin", 100, -1, "past the end");
  refused("w.bin", 0, 24, "the dims and dtype say 16");
  refused("missing.bin", 0, 16, "cannot");
  // without a folder (bytes in memory) there is nowhere to read it from
  expect_error<ivy::NotImplementedError>([&] { ivy::onnx::load_from_bytes(external_model("w.bin", 8, 16)); },
                                         {"[onnx.import]", "external data"});
  fs::remove_all(dir);
}

// An imported model compiles where its shapes are static, and says clearly where they are not.
TEST_P(OnnxImport, CompileRunsStaticModelsAndNamesDataDependentOnes) {
  auto lin = ivy::onnx::load(kData + "/pytorch-converted/test_Linear/model.onnx");
  const ivy::Array x = ivy::reshape(ivy::astype(ivy::arange(0, 40), ivy::float32) * 0.1, {4, 10});
  ivy::CompiledFunction c = ivy::compile([&](const std::vector<ivy::Array>& in) { return lin->run(in); });
  EXPECT_TRUE(ivy::array_equal(c({x})[0], lin->run({x})[0]));
  auto nz = ivy::onnx::load(kData + "/node/test_nonzero_example/model.onnx");
  ivy::CompiledFunction cn = ivy::compile([&](const std::vector<ivy::Array>& in) { return nz->run(in); });
  const ivy::Array cond = ivy::asarray(std::vector<bool>{true, false, true, true}, ivy::Shape{2, 2});
  expect_error<ivy::ValueError>([&] { cn({cond}); }, {"[compile]", "nonzero", "depends on the input's values"});
  EXPECT_EQ(nz->run({cond})[0].shape().str(), ivy::Shape({2, 3}).str());  // eager runs it
}

std::vector<std::string> backends() {
  std::vector<std::string> r;
  for (ivy::Backend b : ivy::available_backends()) r.emplace_back(b.name());
  return r;
}
INSTANTIATE_TEST_SUITE_P(Backends, OnnxImport, testing::ValuesIn(backends()),
                         [](const auto& info) { return info.param; });

}  // namespace

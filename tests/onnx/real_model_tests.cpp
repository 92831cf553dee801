// Real models exported by PyTorch (tests/onnx/gen_real_models.py, written to $IVY_REAL_MODELS
// at test time): resnet18, mobilenet_v2, a transformer encoder layer, 2-layer LSTM and GRU at
// opsets 13 and 17, and resnet18 in training mode, imported once and run at batch 1 and 8 on
// every backend against PyTorch's outputs; then fine-tuning (resnet18 in training mode, in
// float64): gradients of a loss with respect to the imported parameters against PyTorch
// autograd's, and 20 Adam steps against PyTorch's losses.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ivy/ivy.hpp"
#include "ivy/onnx.hpp"
#include "ivy/optim.hpp"

namespace {

using ivy::Array;

std::string dir() {
  const char* d = std::getenv("IVY_REAL_MODELS");
  return d ? d : "";
}

nlohmann::json index_json() {
  std::ifstream f(dir() + "/index.json");
  if (!f) throw std::runtime_error("no " + dir() + "/index.json: run tests/onnx/gen_real_models.py first");
  return nlohmann::json::parse(f);
}

Array read_raw(const std::string& file, const std::vector<std::int64_t>& shape, ivy::Backend b, ivy::DType d) {
  std::ifstream f(dir() + "/" + file, std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  ivy::Shape s(shape.begin(), shape.end());
  if (static_cast<std::int64_t>(bytes.size()) != s.numel() * static_cast<std::int64_t>(ivy::itemsize(d)))
    throw std::runtime_error(file + ": wrong size");
  return ivy::asarray(static_cast<const void*>(bytes.data()), d, s, d, ivy::Device{}, b);
}
Array read_f32(const std::string& file, const std::vector<std::int64_t>& shape, ivy::Backend b) {
  return read_raw(file, shape, b, ivy::DType::float32);
}
Array read_f64(const std::string& file, const std::vector<std::int64_t>& shape, ivy::Backend b) {
  return read_raw(file, shape, b, ivy::DType::float64);
}

// |got - want| <= atol_scale * max|want| + rtol * |want| everywhere; the worst ratio otherwise.
double worst(const Array& got, const Array& want, double rtol, double atol_scale) {
  const auto g = ivy::astype(got, ivy::DType::float64).to_vector<double>();
  const auto w = ivy::astype(want, ivy::DType::float64).to_vector<double>();
  double top = 0, bad = 0;
  for (double v : w) top = std::max(top, std::abs(v));
  for (std::size_t i = 0; i < w.size(); ++i) {
    const double tol = atol_scale * top + rtol * std::abs(w[i]);
    bad = std::max(bad, std::abs(g[i] - w[i]) / tol);
  }
  return bad;  // <= 1 passes
}

class RealModels : public testing::TestWithParam<std::string> {};

TEST_P(RealModels, OutputsEqualPyTorchsAtBatch1And8) {
  const auto idx = index_json();
  const ivy::Backend b(GetParam());
  int checked = 0;
  for (const auto& m : idx["models"]) {
    const std::string name = m["name"];
    ivy::onnx::ImportOptions o;
    o.backend = b;
    auto model = ivy::onnx::load(dir() + "/" + m["file"].get<std::string>(), o);
    EXPECT_EQ(model->opset(), m["opset"].get<int>()) << name;
    for (const auto& c : m["cases"]) {
      Array x = read_f32(c["input"], c["input_shape"], b);
      Array want = read_f32(c["output"], c["output_shape"], b);
      Array got = model->run({x})[0];
      ASSERT_EQ(got.shape().str(), want.shape().str()) << name;
      // (atol: PyTorch's own float32 mobilenet_v2 output is 1.2e-5 x max|y| from its float64 one)
      const double w = worst(got, want, 1e-4, 1e-4);
      EXPECT_LE(w, 1.0) << name << " at batch " << c["batch"] << " on " << GetParam() << ": worst error " << w
                        << " times the tolerance (rtol 1e-4, atol 1e-4 x max|y|)";
      ++checked;
    }
  }
  EXPECT_EQ(checked, 22);  // 11 exported models x 2 batch sizes
}

void write_bytes(const std::string& path, const Array& a) {
  std::vector<unsigned char> b(static_cast<std::size_t>(a.size()) * ivy::itemsize(a.dtype()));
  if (!b.empty()) ivy::copy_to_host(a, b.data());
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
}

// Each inference model imported, then compiled (ivy::compile of its run) and exported again
// (traced at batch 8, written at its opset with the initializers' names): both give PyTorch's
// outputs, the exported one also when imported again; the exported files go to
// $IVY_REAL_EXPORT_DIR for onnxruntime (tools/onnx_ort_check.js, the ctest onnx_real_models_ort).
TEST_P(RealModels, CompiledAndExportedModelsGivePyTorchsOutputs) {
  const auto idx = index_json();
  const ivy::Backend b(GetParam());
  const char* ort_dir = std::getenv("IVY_REAL_EXPORT_DIR");
  int checked = 0;
  for (const auto& m : idx["models"]) {
    if (m["training"].get<bool>()) continue;
    const std::string name = m["name"];
    ivy::onnx::ImportOptions o;
    o.backend = b;
    auto model = ivy::onnx::load(dir() + "/" + m["file"].get<std::string>(), o);
    const auto& c = m["cases"][1];  // batch 8
    Array x = read_f32(c["input"], c["input_shape"], b);
    Array want = read_f32(c["output"], c["output_shape"], b);
    auto run = [&](const std::vector<Array>& in) { return model->run(in); };
    ivy::CompiledFunction compiled = ivy::compile(run);
    const double wc = worst(compiled({x})[0], want, 1e-4, 1e-4);
    EXPECT_LE(wc, 1.0) << name << " compiled on " << GetParam() << ": worst error " << wc << " times the tolerance";
    ivy::onnx::ExportOptions eo;
    eo.opset = m["opset"].get<int>();
    eo.input_names = {"x"};
    eo.output_names = {"y"};
    eo.only_named_initializers = true;
    for (const auto& [pname, a] : model->parameters().flatten()) eo.constant_names.emplace_back(a, pname);
    for (const auto& [pname, a] : model->buffers().flatten()) eo.constant_names.emplace_back(a, pname);
    const std::string bytes = ivy::onnx::export_graph(ivy::trace(run, {x}), eo);
    auto again = ivy::onnx::load_from_bytes(bytes, o);
    EXPECT_EQ(again->num_parameters(), model->num_parameters()) << name;
    const double we = worst(again->run({x})[0], want, 1e-4, 1e-4);
    EXPECT_LE(we, 1.0) << name << " exported and imported again on " << GetParam() << ": worst error " << we << " times the tolerance";
    if (ort_dir && GetParam() == ivy::default_backend().name()) {
      const std::string d = std::string(ort_dir) + "/" + name;
      std::filesystem::create_directories(d);
      std::ofstream(d + "/model.onnx", std::ios::binary) << bytes;
      write_bytes(d + "/in_0.bin", x);
      write_bytes(d + "/out_0.bin", want);
      double top = 0;
      for (double v : ivy::astype(want, ivy::DType::float64).to_vector<double>()) top = std::max(top, std::abs(v));
      nlohmann::json j;
      j["rtol"] = 1e-4;
      j["atol"] = 1e-4 * top;
      j["random"] = false;
      j["inputs"].push_back({{"name", "x"}, {"dtype", "float32"}, {"dims", c["input_shape"]}});
      j["outputs"].push_back({{"name", "y"}, {"dtype", "float32"}, {"dims", c["output_shape"]}});
      std::ofstream(d + "/case.json") << j.dump(1);
    }
    ++checked;
  }
  EXPECT_EQ(checked, 10);
}

TEST_P(RealModels, FineTuningFollowsPyTorch) {
  const auto idx = index_json();
  const auto& ft = idx["finetune"];
  const ivy::Backend b(GetParam());
  ivy::onnx::ImportOptions o;
  o.backend = b;
  auto model = ivy::onnx::load(dir() + "/" + ft["model"].get<std::string>(), o);
  Array x = read_f64(ft["input"], ft["input_shape"], b);
  Array r = read_f64(ft["weights"], ft["weights_shape"], b);
  auto loss_fn = [&](ivy::nn::Module& m) { return ivy::sum(ivy::multiply(m(x), r)); };
  auto [loss, grads] = ivy::nn::value_and_grad(*model, loss_fn);
  const double want_loss = ft["loss"];
  EXPECT_NEAR(loss.item<double>(), want_loss, 1e-6 * std::abs(want_loss));
  int compared = 0;
  for (const auto& [name, g] : ft["grads"].items()) {
    ASSERT_TRUE(grads.contains(name)) << "no gradient for parameter " << name;
    const double w = worst(grads.at(name).array(), read_f64(g["file"], g["shape"], b), 1e-4, 1e-8);
    EXPECT_LE(w, 1.0) << name << " on " << GetParam() << ": worst error " << w << " times the tolerance (rtol 1e-4, atol 1e-8 x max|g|)";
    ++compared;
  }
  EXPECT_EQ(compared, 62);  // resnet18's weights and biases
  ivy::optim::Adam opt(ft["adam_lr"].get<double>());
  const auto& losses = ft["adam_losses"];
  for (std::size_t step = 0; step < losses.size(); ++step) {
    auto [l, g] = ivy::nn::value_and_grad(*model, loss_fn);
    const double want = losses[step];
    EXPECT_NEAR(l.item<double>(), want, 1e-3 * std::abs(want)) << "Adam step " << step << " on " << GetParam();
    model->set_parameters(opt.step(model->parameters(), g));
  }
}

std::vector<std::string> backends() {
  std::vector<std::string> r;
  for (ivy::Backend b : ivy::available_backends()) r.emplace_back(b.name());
  return r;
}
INSTANTIATE_TEST_SUITE_P(Backends, RealModels, testing::ValuesIn(backends()), [](const auto& info) { return info.param; });

}  // namespace

// Runs ONNX's backend test data (Debian's libonnx-testdata) through ivy::onnx on one backend:
// each test folder holds model.onnx and test_data_set_N/{input,output}_K.pb (TensorProtos).
// A test passes when every data set's outputs match: same dtype and shape, floating values
// within ONNX's own tolerance (|got - want| <= 1e-7 + 1e-3 |want|, NaN where NaN), integers
// and booleans exactly.
//
//   onnx_node_tests --backend xtensor --data /usr/share/libonnx-testdata/data/node
//                   [--expect tests/onnx/node_expected_pass.txt] [--report out.txt] [--filter text]
//
// With --expect, the run fails when a test named in that file does not pass (a regression);
// the report lists every test with its result and, for those that do not pass, why.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "ivy/ivy.hpp"
#include "ivy/onnx.hpp"

namespace fs = std::filesystem;

namespace {

std::vector<fs::path> numbered(const fs::path& dir, const std::string& prefix) {
  std::vector<fs::path> r;
  for (int k = 0;; ++k) {
    fs::path p = dir / (prefix + std::to_string(k) + ".pb");
    if (!fs::exists(p)) break;
    r.push_back(p);
  }
  return r;
}

// "" when got matches want, else what differs.
// (random: a model with random operators, whose values ONNX's runner does not compare)
std::string compare(const ivy::Array& got, const ivy::Array& want, bool random) {
  if (got.dtype() != want.dtype())
    return std::string("dtype ") + ivy::dtype_name(got.dtype()) + ", expected " + ivy::dtype_name(want.dtype());
  if (!(got.shape() == want.shape())) return "shape " + got.shape().str() + ", expected " + want.shape().str();
  if (random) return "";
  const ivy::DType d = want.dtype();
  if (ivy::is_floating(d)) {
    auto parts = [](const ivy::Array& a) {
      std::vector<ivy::Array> r;
      if (ivy::is_complex(a.dtype())) r = {ivy::real(a), ivy::imag(a)};
      else r = {a};
      std::vector<std::vector<double>> v;
      for (auto& x : r) v.push_back(ivy::astype(x, ivy::float64).to_vector<double>());
      return v;
    };
    const auto g = parts(got), w = parts(want);
    for (std::size_t p = 0; p < g.size(); ++p)
      for (std::size_t i = 0; i < g[p].size(); ++i) {
        const double a = g[p][i], b = w[p][i];
        if (std::isnan(b) ? !std::isnan(a) : !(std::abs(a - b) <= 1e-7 + 1e-3 * std::abs(b)))
          return "element " + std::to_string(i) + " is " + std::to_string(a) + ", expected " + std::to_string(b);
      }
    return "";
  }
  const auto g = ivy::astype(got, ivy::int64).to_vector<std::int64_t>();
  const auto w = ivy::astype(want, ivy::int64).to_vector<std::int64_t>();
  if (d == ivy::uint64) {  // compare the bits
    const auto gu = got.to_vector<std::uint64_t>(), wu = want.to_vector<std::uint64_t>();
    for (std::size_t i = 0; i < gu.size(); ++i)
      if (gu[i] != wu[i]) return "element " + std::to_string(i) + " differs";
    return "";
  }
  for (std::size_t i = 0; i < g.size(); ++i)
    if (g[i] != w[i]) return "element " + std::to_string(i) + " is " + std::to_string(g[i]) + ", expected " + std::to_string(w[i]);
  return "";
}

// "" when two values match: the same type, presence and length, each tensor by compare().
std::string compare_values(const ivy::onnx::Value& got, const ivy::onnx::Value& want, bool random) {
  using ivy::onnx::ValueType;
  if (got.type != want.type) return "a value of another type (tensor / sequence / optional)";
  if (want.type == ValueType::Optional && got.present != want.present)
    return want.present ? "an empty optional, expected a value" : "a value, expected an empty optional";
  const bool seq = want.type == ValueType::Sequence || (want.type == ValueType::Optional && want.holds_sequence);
  if (!seq) return want.type == ValueType::Optional && !want.present ? "" : compare(got.tensor, want.tensor, random);
  if (got.sequence.size() != want.sequence.size())
    return "a sequence of " + std::to_string(got.sequence.size()) + ", expected " + std::to_string(want.sequence.size());
  for (std::size_t i = 0; i < want.sequence.size(); ++i) {
    const std::string why = compare(got.sequence[i], want.sequence[i], random);
    if (!why.empty()) return "item " + std::to_string(i) + ": " + why;
  }
  return "";
}

// One line per line of the message (the report keeps one line per test).
std::string one_line(std::string s) {
  std::replace(s.begin(), s.end(), '\n', ' ');
  return s.size() > 400 ? s.substr(0, 400) + "..." : s;
}

// "PASS" or the reason it does not pass.
std::string run_test(const fs::path& dir, ivy::Backend backend) {
  std::shared_ptr<ivy::onnx::Model> model;
  try {
    ivy::onnx::ImportOptions o;
    o.backend = backend;
    model = ivy::onnx::load((dir / "model.onnx").string(), o);
  } catch (const std::exception& e) {
    return std::string("import: ") + one_line(e.what());
  }
  std::vector<fs::path> sets;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.is_directory() && e.path().filename().string().rfind("test_data_set_", 0) == 0) sets.push_back(e.path());
  std::sort(sets.begin(), sets.end());
  if (sets.empty()) return "no test data";
  for (const fs::path& s : sets) {
    try {
      const std::vector<fs::path> in_files = numbered(s, "input_"), out_files = numbered(s, "output_");
      if (in_files.size() > model->inputs().size()) return "more input files than model inputs";
      std::vector<ivy::onnx::Value> in;
      for (std::size_t k = 0; k < in_files.size(); ++k)
        in.push_back(ivy::onnx::load_value(in_files[k].string(), model->inputs()[k].type, backend));
      std::vector<ivy::onnx::Value> got = model->run_values(in);
      if (got.size() != out_files.size())
        return "run: " + std::to_string(got.size()) + " outputs, expected " + std::to_string(out_files.size());
      for (std::size_t k = 0; k < got.size(); ++k) {
        const ivy::onnx::Value want = ivy::onnx::load_value(out_files[k].string(), model->outputs()[k].type, backend);
        const std::string why = compare_values(got[k], want, model->has_random_operators());
        if (!why.empty()) return "output " + std::to_string(k) + " (" + s.filename().string() + "): " + why;
      }
    } catch (const std::exception& e) {
      return std::string("run: ") + one_line(e.what());
    }
  }
  return "PASS";
}

}  // namespace

int main(int argc, char** argv) {
  std::string backend_name = "xtensor", data, expect, report, filter;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string k = argv[i], v = argv[i + 1];
    if (k == "--backend") backend_name = v;
    else if (k == "--data") data = v;
    else if (k == "--expect") expect = v;
    else if (k == "--report") report = v;
    else if (k == "--filter") filter = v;
    else {
      std::cerr << "unknown option " << k << "\n";
      return 2;
    }
  }
  if (data.empty() || !fs::is_directory(data)) {
    std::cerr << "onnx_node_tests: --data must name the folder of test folders (libonnx-testdata)\n";
    return 2;
  }
  const ivy::Backend backend(backend_name.c_str());
  ivy::set_backend(backend);
  std::vector<fs::path> tests;
  for (const auto& e : fs::directory_iterator(data))
    if (e.is_directory() && fs::exists(e.path() / "model.onnx") &&
        (filter.empty() || e.path().filename().string().find(filter) != std::string::npos))
      tests.push_back(e.path());
  std::sort(tests.begin(), tests.end());
  std::map<std::string, std::string> results;
  int passed = 0;
  for (const fs::path& t : tests) {
    const std::string r = run_test(t, backend);
    results[t.filename().string()] = r;
    passed += r == "PASS";
  }
  std::cout << "onnx_node_tests (" << backend_name << ", " << data << "): " << passed << " / " << tests.size() << " pass\n";
  if (!report.empty()) {
    std::ofstream f(report);
    f << "# " << passed << " / " << tests.size() << " pass on " << backend_name << "\n";
    for (const auto& [name, r] : results) f << (r == "PASS" ? "PASS " + name : "FAIL " + name + ": " + r) << "\n";
  }
  if (expect.empty()) return 0;
  std::ifstream f(expect);
  if (!f) {
    std::cerr << "cannot read " << expect << "\n";
    return 2;
  }
  std::set<std::string> expected;
  for (std::string line; std::getline(f, line);)
    if (!line.empty() && line[0] != '#') expected.insert(line);
  int regressions = 0, new_passes = 0;
  for (const std::string& name : expected) {
    auto it = results.find(name);
    if (it == results.end() && filter.empty()) {
      std::cout << "MISSING " << name << " (not in the test data)\n";
      ++regressions;
    } else if (it != results.end() && it->second != "PASS") {
      std::cout << "REGRESSION " << name << ": " << it->second << "\n";
      ++regressions;
    }
  }
  for (const auto& [name, r] : results)
    if (r == "PASS" && !expected.count(name)) ++new_passes;
  if (new_passes) std::cout << new_passes << " test(s) pass that " << expect << " does not list yet\n";
  return regressions ? 1 : 0;
}

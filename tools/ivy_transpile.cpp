// ivy-transpile: ONNX models on the command line, through ivy::onnx.
//
//   ivy-transpile info MODEL                     inputs, outputs, opsets, operators, parameters
//   ivy-transpile check MODEL                    every node ivy cannot run, listed at once
//   ivy-transpile run MODEL --input NAME=x.npy ... [--backend B] [--output-dir D]
//                                                outputs as D/<output name>.npy
//   ivy-transpile operators                      the operators and versions the importer runs, and
//                                                the primitives the exporter cannot write
//                                                (Markdown: docs/onnx-operators.md is this output)
//   ivy-transpile convert MODEL -o OUT.onnx [--opset N] [--shape NAME=1,3,224,224 ...]
//                                                imported, traced for the given input shapes
//                                                (symbolic dims default to 1) and exported
//
// .npy files are read and written with xtensor's own npy codec (xtensor/xnpy.hpp). Errors go to
// stderr and the exit code is 1 (2 for `check` when nodes are unsupported).
#include <CLI/CLI.hpp>
#include <xtensor/xadapt.hpp>
#include <xtensor/xnpy.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "core/atomic_file.hpp"
#include "ivy/ivy.hpp"
#include "ivy/onnx.hpp"

namespace {

struct ToolError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::string dims_str(const ivy::onnx::ValueInfo& v) {
  if (v.type != ivy::onnx::ValueType::Tensor) return v.type == ivy::onnx::ValueType::Sequence ? "sequence" : "optional";
  if (!v.has_shape) return std::string(ivy::dtype_name(v.dtype)) + "[?]";
  std::string s = std::string(ivy::dtype_name(v.dtype)) + "[";
  for (std::size_t i = 0; i < v.dims.size(); ++i) {
    if (i) s += ", ";
    s += v.dims[i] >= 0 ? std::to_string(v.dims[i]) : (v.dim_names[i].empty() ? "?" : v.dim_names[i]);
  }
  return s + "]";
}

int info(const std::string& path) {
  auto m = ivy::onnx::load(path);
  std::cout << "model " << path << "\nproducer: " << m->producer() << "\nopset: " << m->opset() << "\n";
  std::cout << "inputs: " << m->inputs().size() << "\n";
  for (const auto& v : m->inputs()) std::cout << "  " << v.name << ": " << dims_str(v) << "\n";
  std::cout << "outputs: " << m->outputs().size() << "\n";
  for (const auto& v : m->outputs()) std::cout << "  " << v.name << ": " << dims_str(v) << "\n";
  auto counts = m->operator_counts();
  std::vector<std::pair<std::string, int>> ops(counts.begin(), counts.end());
  std::stable_sort(ops.begin(), ops.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  int nodes = 0;
  for (const auto& [op, n] : ops) nodes += n;
  std::cout << "nodes: " << nodes << " (" << ops.size() << " operators)\n";
  for (const auto& [op, n] : ops) std::cout << "  " << op << ": " << n << "\n";
  std::int64_t elems = 0;
  const auto params = m->parameters().flatten();
  for (const auto& [name, a] : params) elems += a.size();
  std::cout << "parameters: " << params.size() << " arrays, " << elems << " values\n";
  return 0;
}

int check(const std::string& path) {
  try {
    auto m = ivy::onnx::load(path);
    int nodes = 0;
    for (const auto& [op, n] : m->operator_counts()) nodes += n;
    std::cout << path << ": every node is supported (" << nodes << " nodes, opset " << m->opset() << ")\n";
    return 0;
  } catch (const ivy::NotImplementedError& e) {
    std::cout << e.what() << "\n";
    return 2;
  }
}

// The dtype of a .npy type string ("<f4", "|b1", ...); x86-64 is little-endian.
ivy::DType npy_dtype(const std::string& t, const std::string& file) {
  static const std::map<std::string, ivy::DType> m = {
      {"|b1", ivy::DType::bool_},   {"|i1", ivy::DType::int8},     {"<i2", ivy::DType::int16},   {"<i4", ivy::DType::int32},
      {"<i8", ivy::DType::int64},   {"|u1", ivy::DType::uint8},    {"<u2", ivy::DType::uint16},  {"<u4", ivy::DType::uint32},
      {"<u8", ivy::DType::uint64},  {"<f2", ivy::DType::float16},  {"<f4", ivy::DType::float32}, {"<f8", ivy::DType::float64},
      {"<c8", ivy::DType::complex64}, {"<c16", ivy::DType::complex128}};
  auto it = m.find(t);
  if (it == m.end()) throw ToolError(file + ": .npy dtype '" + t + "' is not one of ivy's (little-endian numbers and bool)");
  return it->second;
}

template <class T>
ivy::Array npy_as(xt::detail::npy_file& f, ivy::DType d, const ivy::Shape& s, ivy::Backend b) {
  auto a = f.cast<T, xt::layout_type::row_major>(false);
  return ivy::asarray(static_cast<const void*>(a.data()), d, s, d, ivy::Device{}, b);
}

// A .npy file as an array; its header is read first (xtensor's header parser) and the data
// size checked against the file before anything of that size is allocated.
ivy::Array read_npy(const std::string& file, ivy::Backend b) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw ToolError("cannot open " + file);
  const auto file_size = std::filesystem::file_size(file);
  std::string typestr;
  bool fortran = false;
  std::vector<std::size_t> shape;
  try {
    unsigned char major = 0, minor = 0;
    xt::detail::read_magic(in, &major, &minor);
    std::string header;
    if (major == 1 && minor == 0) header = xt::detail::read_header_1_0(in);
    else if (major == 2 && minor == 0) header = xt::detail::read_header_2_0(in);
    else throw ToolError(file + ": .npy format version " + std::to_string(major) + "." + std::to_string(minor) + " is not supported");
    xt::detail::parse_header(header, typestr, &fortran, shape);
  } catch (const ToolError&) {
    throw;
  } catch (const std::exception& e) {
    throw ToolError(file + ": not a .npy file (" + e.what() + ")");
  }
  if (fortran) throw ToolError(file + ": Fortran-ordered .npy files are not supported (save a C-ordered array)");
  const ivy::DType d = npy_dtype(typestr, file);
  ivy::Shape s;
  std::uint64_t n = 1;
  for (auto v : shape) {
    if (v != 0 && n > UINT64_MAX / v) throw ToolError(file + ": the element count overflows");
    n *= v;
    s.push_back(static_cast<std::int64_t>(v));
  }
  const auto pos = static_cast<std::uint64_t>(in.tellg());
  if (n > (file_size - std::min<std::uint64_t>(pos, file_size)) / ivy::itemsize(d) || n * ivy::itemsize(d) + pos != file_size)
    throw ToolError(file + ": the header's shape " + s.str() + " and dtype need " + std::to_string(n * ivy::itemsize(d)) +
                    " bytes of data, the file has " + std::to_string(file_size - std::min<std::uint64_t>(pos, file_size)));
  in.seekg(0);
  auto f = xt::detail::load_npy_file(in);
  switch (d) {
    case ivy::DType::bool_: return npy_as<bool>(f, d, s, b);
    case ivy::DType::int8: return npy_as<std::int8_t>(f, d, s, b);
    case ivy::DType::int16: return npy_as<std::int16_t>(f, d, s, b);
    case ivy::DType::int32: return npy_as<std::int32_t>(f, d, s, b);
    case ivy::DType::int64: return npy_as<std::int64_t>(f, d, s, b);
    case ivy::DType::uint8: return npy_as<std::uint8_t>(f, d, s, b);
    case ivy::DType::uint16: return npy_as<std::uint16_t>(f, d, s, b);
    case ivy::DType::uint32: return npy_as<std::uint32_t>(f, d, s, b);
    case ivy::DType::uint64: return npy_as<std::uint64_t>(f, d, s, b);
    case ivy::DType::float16: return npy_as<std::uint16_t>(f, d, s, b);  // the bits
    case ivy::DType::float32: return npy_as<float>(f, d, s, b);
    case ivy::DType::float64: return npy_as<double>(f, d, s, b);
    case ivy::DType::complex64: return npy_as<std::complex<float>>(f, d, s, b);
    case ivy::DType::complex128: return npy_as<std::complex<double>>(f, d, s, b);
    default: break;
  }
  throw ToolError(file + ": unsupported dtype");
}

template <class T>
std::string npy_bytes(const ivy::Array& a) {
  const auto n = static_cast<std::size_t>(a.size());
  std::unique_ptr<T[]> v(new T[std::max<std::size_t>(n, 1)]);
  if (n) ivy::copy_to_host(a, v.get());
  std::vector<std::size_t> shape(a.shape().begin(), a.shape().end());
  return xt::dump_npy(xt::adapt(v.get(), n, xt::no_ownership(), shape));
}

// An array as .npy, written atomically.
void write_npy(const std::string& file, const ivy::Array& a) {
  std::string bytes;
  switch (a.dtype()) {
    case ivy::DType::bool_: bytes = npy_bytes<bool>(a); break;
    case ivy::DType::int8: bytes = npy_bytes<std::int8_t>(a); break;
    case ivy::DType::int16: bytes = npy_bytes<std::int16_t>(a); break;
    case ivy::DType::int32: bytes = npy_bytes<std::int32_t>(a); break;
    case ivy::DType::int64: bytes = npy_bytes<std::int64_t>(a); break;
    case ivy::DType::uint8: bytes = npy_bytes<std::uint8_t>(a); break;
    case ivy::DType::uint16: bytes = npy_bytes<std::uint16_t>(a); break;
    case ivy::DType::uint32: bytes = npy_bytes<std::uint32_t>(a); break;
    case ivy::DType::uint64: bytes = npy_bytes<std::uint64_t>(a); break;
    case ivy::DType::float32: bytes = npy_bytes<float>(a); break;
    case ivy::DType::float64: bytes = npy_bytes<double>(a); break;
    case ivy::DType::complex64: bytes = npy_bytes<std::complex<float>>(a); break;
    case ivy::DType::complex128: bytes = npy_bytes<std::complex<double>>(a); break;
    default: bytes = npy_bytes<float>(ivy::astype(a, ivy::DType::float32)); break;  // float16, bfloat16
  }
  ivy::detail::AtomicFile f(file, "ivy-transpile");
  f.write(bytes.data(), bytes.size());
  f.commit();
}

std::pair<std::string, std::string> split_assignment(const std::string& s, const char* flag) {
  auto eq = s.find('=');
  if (eq == std::string::npos || eq == 0) throw ToolError(std::string(flag) + " takes NAME=VALUE, got '" + s + "'");
  return {s.substr(0, eq), s.substr(eq + 1)};
}

int run(const std::string& path, const std::vector<std::string>& inputs, const std::string& backend, const std::string& out_dir) {
  ivy::onnx::ImportOptions o;
  if (!backend.empty()) o.backend = backend;
  auto m = ivy::onnx::load(path, o);
  ivy::Backend b = backend.empty() ? ivy::Backend() : ivy::Backend(backend);
  std::map<std::string, ivy::Array> feeds;
  for (const auto& s : inputs) {
    auto [name, file] = split_assignment(s, "--input");
    feeds[name] = read_npy(file, b);
  }
  for (const auto& v : m->inputs())
    if (!feeds.count(v.name)) throw ToolError("input '" + v.name + "' (" + dims_str(v) + ") has no --input " + v.name + "=FILE.npy");
  auto out = m->run(feeds);
  std::filesystem::create_directories(out_dir);
  for (const auto& [name, a] : out) {
    std::string safe = name;
    std::replace(safe.begin(), safe.end(), '/', '_');
    const std::string file = (std::filesystem::path(out_dir) / (safe + ".npy")).string();
    write_npy(file, a);
    std::cout << name << ": " << ivy::dtype_name(a.dtype()) << a.shape().str() << " -> " << file << "\n";
  }
  return 0;
}

int operators() {
  std::cout << "# ONNX operators in ivy\n\n"
               "Generated by `ivy-transpile operators` (the ctest onnx_operator_doc fails when this file\n"
               "differs from its output). The importer runs these operators, each from the opset version\n"
               "listed (an implementation serves every opset from its version to the next one listed).\n\n"
               "| operator | versions |\n|---|---|\n";
  for (const auto& [op, versions] : ivy::onnx::supported_operators()) {
    std::string v;
    for (int x : versions) v += (v.empty() ? "" : ", ") + std::to_string(x);
    std::cout << "| " << op << " | " << v << " |\n";
  }
  std::cout << "\nThe exporter writes every primitive of ops.def at opsets 13 to 17 except these:\n\n"
               "| primitive | why |\n|---|---|\n";
  for (const auto& [name, why] : ivy::onnx::unexportable_primitives()) std::cout << "| " << name << " | " << why << " |\n";
  return 0;
}

int convert(const std::string& path, const std::string& out, int opset, const std::vector<std::string>& shapes) {
  auto m = ivy::onnx::load(path);
  std::map<std::string, std::vector<std::int64_t>> given;
  for (const auto& s : shapes) {
    auto [name, dims] = split_assignment(s, "--shape");
    std::vector<std::int64_t> d;
    std::stringstream ss(dims);
    std::string part;
    while (std::getline(ss, part, ',')) {
      try {
        std::size_t used = 0;
        const long long v = std::stoll(part, &used);
        if (used != part.size() || v < 0) throw std::invalid_argument(part);
        d.push_back(v);
      } catch (const std::exception&) {
        throw ToolError("--shape " + name + ": '" + part + "' is not a size");
      }
    }
    given[name] = d;
  }
  std::vector<ivy::Array> examples;
  std::vector<std::string> names;
  for (const auto& v : m->inputs()) {
    if (v.type != ivy::onnx::ValueType::Tensor) throw ToolError("input '" + v.name + "' is not a tensor: such models cannot be converted");
    ivy::Shape s;
    if (given.count(v.name)) {
      for (auto x : given[v.name]) s.push_back(x);
    } else {
      if (!v.has_shape) throw ToolError("input '" + v.name + "' has no shape in the model: give --shape " + v.name + "=D0,D1,...");
      for (auto x : v.dims) s.push_back(x >= 0 ? x : 1);
    }
    examples.push_back(ivy::zeros(s, v.dtype));
    names.push_back(v.name);
  }
  ivy::onnx::ExportOptions o;
  o.opset = opset;
  o.input_names = names;
  o.only_named_initializers = true;
  for (const auto& v : m->outputs()) o.output_names.push_back(v.name);
  for (const auto& [name, a] : m->parameters().flatten()) o.constant_names.emplace_back(a, name);
  for (const auto& [name, a] : m->buffers().flatten()) o.constant_names.emplace_back(a, name);
  ivy::onnx::export_function([&](const std::vector<ivy::Array>& x) { return m->run(x); }, examples, out, o);
  std::cout << path << " -> " << out << " (opset " << opset << ", the input shapes fixed as traced)\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"ivy-transpile: ONNX models through ivy (info, check, run, convert)"};
  app.require_subcommand(1);
  std::string model;
  auto* info_cmd = app.add_subcommand("info", "inputs, outputs, opset, operators and parameters of a model");
  info_cmd->add_option("MODEL", model, "an ONNX model file")->required();
  auto* check_cmd = app.add_subcommand("check", "list every node ivy cannot run (exit code 2 if any)");
  check_cmd->add_option("MODEL", model, "an ONNX model file")->required();
  auto* run_cmd = app.add_subcommand("run", "run a model on .npy inputs, write its outputs as .npy");
  run_cmd->add_option("MODEL", model, "an ONNX model file")->required();
  std::vector<std::string> inputs, shapes;
  std::string backend, out_dir = ".", out;
  int opset = 17;
  run_cmd->add_option("--input,-i", inputs, "NAME=FILE.npy for each input")->required();
  run_cmd->add_option("--backend,-b", backend, "xtensor or torch (default: ivy's default)");
  run_cmd->add_option("--output-dir,-d", out_dir, "where the outputs go (default .)");
  auto* ops_cmd = app.add_subcommand("operators", "the supported ONNX operators and the unexportable primitives, as Markdown");
  auto* conv_cmd = app.add_subcommand("convert", "import, trace and export again as ONNX");
  conv_cmd->add_option("MODEL", model, "an ONNX model file")->required();
  conv_cmd->add_option("-o,--output", out, "the ONNX file to write")->required();
  conv_cmd->add_option("--opset", opset, "the opset to write, 13 to 17 (default 17)");
  conv_cmd->add_option("--shape", shapes, "NAME=D0,D1,... for inputs with symbolic dims (default: 1 for each)");
  CLI11_PARSE(app, argc, argv);
  try {
    if (*info_cmd) return info(model);
    if (*check_cmd) return check(model);
    if (*run_cmd) return run(model, inputs, backend, out_dir);
    if (*conv_cmd) return convert(model, out, opset, shapes);
    if (*ops_cmd) return operators();
  } catch (const std::exception& e) {
    std::cerr << "ivy-transpile: " << e.what() << "\n";
    return 1;
  }
  return 1;
}

// ivy::nn::Module (variables, submodules, modes, checkpoints), value_and_grad over modules
// and containers, and the seeded initializers (include/ivy/module.hpp).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <numbers>
#include <string>
#include <vector>

#include "ivy/autodiff.hpp"
#include "ivy/functional.hpp"
#include "ivy/module.hpp"

namespace ivy::nn {

// ---------------------------------------------------------------- initializers
namespace init {
namespace {
// SplitMix64: a small, fully specified 64-bit generator, so the stream is the same with
// every standard library.
struct Stream {
  std::uint64_t state = 0x1d8e4e27c47d124fULL;
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  double uniform01() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }  // [0, 1)
  // Box-Muller on (0, 1] x [0, 1)
  double normal() {
    const double u = 1.0 - uniform01(), v = uniform01();
    return std::sqrt(-2.0 * std::log(u)) * std::cos(2.0 * std::numbers::pi * v);
  }
};
thread_local Stream g_stream;

Array from_host(const std::vector<double>& v, const Shape& shape, const Where& w) {
  return asarray(v.data(), float64, shape, w.dtype, w.device, w.backend);
}
std::size_t count(const Shape& s) { return static_cast<std::size_t>(std::max<std::int64_t>(0, s.numel())); }
void need_floating(const char* op, const Where& w) {
  if (!is_floating(w.dtype) || is_complex(w.dtype))
    throw TypeError(std::string("[init.") + op + "] needs a real floating dtype, got " + dtype_name(w.dtype));
}
}  // namespace

void seed(std::uint64_t s) { g_stream.state = s; }

std::pair<double, double> fans(const Shape& s) {
  if (s.size() < 2) {
    const double n = s.empty() ? 1.0 : static_cast<double>(s[0]);
    return {n, n};
  }
  double receptive = 1;
  for (std::size_t i = 2; i < s.size(); ++i) receptive *= static_cast<double>(s[i]);
  return {static_cast<double>(s[1]) * receptive, static_cast<double>(s[0]) * receptive};
}
Array zeros(const Shape& shape, const Where& w) { return ivy::zeros(shape, w.dtype, w.device, w.backend); }
Array ones(const Shape& shape, const Where& w) { return ivy::ones(shape, w.dtype, w.device, w.backend); }
Array constant(const Shape& shape, double value, const Where& w) {
  return full(shape, Scalar(value), w.dtype, w.device, w.backend);
}
Array uniform(const Shape& shape, double low, double high, const Where& w) {
  need_floating("uniform", w);
  std::vector<double> v(count(shape));
  for (auto& e : v) e = low + (high - low) * g_stream.uniform01();
  return from_host(v, shape, w);
}
Array normal(const Shape& shape, double mean, double std, const Where& w) {
  need_floating("normal", w);
  std::vector<double> v(count(shape));
  for (auto& e : v) e = mean + std * g_stream.normal();
  return from_host(v, shape, w);
}
Array truncated_normal(const Shape& shape, double mean, double std, double a, double b, const Where& w) {
  need_floating("truncated_normal", w);
  if (!(a < b) || !(std > 0) || mean + 6 * std < a || mean - 6 * std > b)
    throw ValueError("[init.truncated_normal] needs a < b, std > 0 and [a, b] within 6 std of the mean; got a=" +
                     std::to_string(a) + " b=" + std::to_string(b) + " mean=" + std::to_string(mean) +
                     " std=" + std::to_string(std));
  std::vector<double> v(count(shape));
  for (auto& e : v) {
    do e = mean + std * g_stream.normal();
    while (e < a || e > b);
  }
  return from_host(v, shape, w);
}
Array glorot_uniform(const Shape& shape, double gain, const Where& w) {
  auto [fi, fo] = fans(shape);
  const double bound = gain * std::sqrt(6.0 / std::max(1.0, fi + fo));
  return uniform(shape, -bound, bound, w);
}
Array glorot_normal(const Shape& shape, double gain, const Where& w) {
  auto [fi, fo] = fans(shape);
  return normal(shape, 0.0, gain * std::sqrt(2.0 / std::max(1.0, fi + fo)), w);
}
Array he_uniform(const Shape& shape, double a, bool fan_in, const Where& w) {
  auto [fi, fo] = fans(shape);
  const double gain = std::sqrt(2.0 / (1.0 + a * a));
  const double bound = gain * std::sqrt(3.0 / std::max(1.0, fan_in ? fi : fo));
  return uniform(shape, -bound, bound, w);
}
Array he_normal(const Shape& shape, double a, bool fan_in, const Where& w) {
  auto [fi, fo] = fans(shape);
  const double gain = std::sqrt(2.0 / (1.0 + a * a));
  return normal(shape, 0.0, gain / std::sqrt(std::max(1.0, fan_in ? fi : fo)), w);
}
Array orthogonal(const Shape& shape, double gain, const Where& w) {
  need_floating("orthogonal", w);
  if (shape.size() < 2)
    throw ValueError("[init.orthogonal] needs a shape of rank >= 2, got " + shape.str());
  const std::int64_t rows = shape[0], cols = shape.numel() / std::max<std::int64_t>(1, rows);
  // Q of a normal [big, small] matrix by modified Gram-Schmidt on the host, in float64 (the
  // QR with R's diagonal positive), so every backend gets the same bits; transposed when
  // rows < cols
  const std::int64_t big = std::max(rows, cols), small = std::min(rows, cols);
  std::vector<double> a(static_cast<std::size_t>(big * small));  // column j at a[j * big ...]
  for (auto& e : a) e = g_stream.normal();
  for (std::int64_t j = 0; j < small; ++j) {
    double* qj = a.data() + j * big;
    for (std::int64_t i = 0; i < j; ++i) {
      const double* qi = a.data() + i * big;
      double dot = 0;
      for (std::int64_t r = 0; r < big; ++r) dot += qi[r] * qj[r];
      for (std::int64_t r = 0; r < big; ++r) qj[r] -= dot * qi[r];
    }
    double norm = 0;
    for (std::int64_t r = 0; r < big; ++r) norm += qj[r] * qj[r];
    norm = std::sqrt(norm);
    for (std::int64_t r = 0; r < big; ++r) qj[r] = norm > 0 ? qj[r] / norm : 0.0;
  }
  std::vector<double> v(static_cast<std::size_t>(rows * cols));
  for (std::int64_t r = 0; r < rows; ++r)
    for (std::int64_t c = 0; c < cols; ++c)
      v[static_cast<std::size_t>(r * cols + c)] =
          gain * (rows >= cols ? a[static_cast<std::size_t>(c * big + r)] : a[static_cast<std::size_t>(r * big + c)]);
  return from_host(v, shape, w);
}
}  // namespace init

// ---------------------------------------------------------------- Module
Array Module::forward(const Array&) {
  throw NotImplementedError("[module] this module has no single-array forward (" + describe() + ")");
}

void Module::check_name(const std::string& name) const {
  if (name.empty() || name.find('/') != std::string::npos)
    throw ValueError("[module] variable and submodule names must be non-empty and without '/', got \"" + name + "\"");
  auto taken = [&](const auto& v) {
    return std::any_of(v.begin(), v.end(), [&](const auto& e) { return e.first == name; });
  };
  if (taken(params_) || taken(buffers_) || taken(children_))
    throw ValueError("[module] the name \"" + name + "\" is already registered");
}
void Module::register_parameter(const std::string& name, Array value) {
  check_name(name);
  if (!value.defined()) throw ValueError("[module] parameter \"" + name + "\" is undefined");
  params_.emplace_back(name, std::move(value));
}
void Module::register_buffer(const std::string& name, Array value) {
  check_name(name);
  buffers_.emplace_back(name, std::move(value));
}
void Module::add_child(const std::string& name, std::shared_ptr<Module> m) {
  check_name(name);
  if (!m) throw ValueError("[module] submodule \"" + name + "\" is null");
  children_.emplace_back(name, std::move(m));
}
Array& Module::param(const std::string& name) {
  for (auto& [n, a] : params_)
    if (n == name) return a;
  throw ValueError("[module] no parameter \"" + name + "\"");
}
Array& Module::buffer(const std::string& name) {
  for (auto& [n, a] : buffers_)
    if (n == name) return a;
  throw ValueError("[module] no buffer \"" + name + "\"");
}

void Module::collect(const std::string& prefix, bool buffers,
                     std::vector<std::pair<std::string, Array>>& out) const {
  for (const auto& [n, a] : buffers ? buffers_ : params_)
    if (a.defined()) out.emplace_back(prefix + n, a);
  for (const auto& [n, m] : children_) m->collect(prefix + n + "/", buffers, out);
}
Container Module::parameters() const {
  std::vector<std::pair<std::string, Array>> v;
  collect("", false, v);
  return Container::from_pairs(v);
}
Container Module::buffers() const {
  std::vector<std::pair<std::string, Array>> v;
  collect("", true, v);
  return Container::from_pairs(v);
}

// Checks every leaf first (the same paths, in any order, with the same shapes and dtypes),
// then assigns: all or nothing.
void Module::assign(const std::string& what, bool buffers, const Container& c) {
  std::vector<std::pair<std::string, Array>> mine;
  collect("", buffers, mine);
  std::map<std::string, Array> theirs = c.to_map();
  if (theirs.size() != mine.size())
    throw ValueError("[module] set_" + what + ": expected " + std::to_string(mine.size()) + " arrays, got " +
                     std::to_string(theirs.size()));
  std::vector<Array> values;
  for (const auto& [p, a] : mine) {
    auto it = theirs.find(p);
    if (it == theirs.end()) throw ValueError("[module] set_" + what + ": no array at \"" + p + "\"");
    const Array& b = it->second;
    if (!(a.shape() == b.shape()) || a.dtype() != b.dtype())
      throw ValueError("[module] set_" + what + ": \"" + p + "\" is " + std::string(dtype_name(a.dtype())) +
                       a.shape().str() + ", got " + dtype_name(b.dtype()) + b.shape().str());
    values.push_back(b);
  }
  std::size_t k = 0;  // collect's order: own variables, then each submodule's
  std::function<void(Module&)> put = [&](Module& m) {
    for (auto& [n, a] : buffers ? m.buffers_ : m.params_)
      if (a.defined()) a = values[k++];
    for (auto& [n, child] : m.children_) put(*child);
  };
  put(*this);
}
void Module::set_parameters(const Container& p) { assign("parameters", false, p); }
void Module::set_buffers(const Container& b) { assign("buffers", true, b); }

Container Module::state() const {
  Container s;
  s.set("params", parameters());
  Container b = buffers();
  if (!b.empty()) s.set("buffers", b);
  return s;
}
void Module::load_state(const Container& s) {
  if (!s.contains("params")) throw ValueError("[module] load_state: no \"params\" in the state");
  Container b = buffers();
  if (!b.empty() && !s.contains("buffers")) throw ValueError("[module] load_state: no \"buffers\" in the state");
  // check both before assigning either
  Container old_p = parameters();
  set_parameters(s.at("params"));
  if (!b.empty()) {
    try {
      set_buffers(s.at("buffers"));
    } catch (...) {
      set_parameters(old_p);
      throw;
    }
  }
}
std::int64_t Module::num_parameters() const {
  std::int64_t n = 0;
  for (const auto& [p, a] : parameters().flatten()) n += a.size();
  return n;
}
void Module::train(bool on) {
  training_ = on;
  for (auto& [n, m] : children_) m->train(on);
}
void Module::to_backend(Backend b) {
  for (auto& [n, a] : params_)
    if (a.defined()) a = asarray(a, std::nullopt, Device{}, true, b);
  for (auto& [n, a] : buffers_)
    if (a.defined()) a = asarray(a, std::nullopt, Device{}, true, b);
  for (auto& [n, m] : children_) m->to_backend(b);
}
void Module::print(std::string& out, const std::string& name, int depth) const {
  std::string pad(static_cast<std::size_t>(depth) * 2, ' ');
  std::string d = describe();
  out += pad + (name.empty() ? std::string("model") : name) + (d.empty() ? "" : " (" + d + ")") + "\n";
  for (const auto& [n, a] : params_)
    out += pad + "  " + n + ": " + dtype_name(a.dtype()) + a.shape().str() + "\n";
  for (const auto& [n, a] : buffers_)
    if (a.defined()) out += pad + "  " + n + " (buffer): " + dtype_name(a.dtype()) + a.shape().str() + "\n";
  for (const auto& [n, m] : children_) m->print(out, n, depth + 1);
}
std::string Module::str() const {
  std::string s;
  print(s, "", 0);
  return s;
}
void Module::save(const std::string& path) const { state().save(path); }
void Module::load(const std::string& path) {
  Backend b;
  auto p = parameters().flatten();
  if (!p.empty()) b = p.front().second.backend();
  load_state(Container::load(path, b));
}

// ---------------------------------------------------------------- gradients
namespace {
std::pair<Array, Container> value_and_grad_impl(const std::function<Array(const Container&)>& f,
                                                const Container& variables, const GradReady* on_ready) {
  const auto leaves = variables.flatten();
  std::vector<std::string> paths;
  std::vector<Array> primals;
  for (const auto& [p, a] : leaves) {
    paths.push_back(p);
    primals.push_back(a);
  }
  auto rebuild = [&paths](const std::vector<Array>& xs) {
    std::vector<std::pair<std::string, Array>> v;
    for (std::size_t i = 0; i < xs.size(); ++i) v.emplace_back(paths[i], xs[i]);
    return Container::from_pairs(v);
  };
  ArraysFn g = [&](const std::vector<Array>& xs) { return std::vector<Array>{f(rebuild(xs))}; };
  VjpResult r = vjp(g, primals);
  const Array& loss = r.outputs.at(0);
  if (loss.ndim() != 0 || !is_floating(loss.dtype()) || is_complex(loss.dtype()))
    throw ValueError("[value_and_grad] the function must return a 0-d real floating array, got " +
                     std::string(dtype_name(loss.dtype())) + loss.shape().str());
  std::vector<Array> grads =
      on_ready ? r.vjp_streamed({ones_like(loss)},
                                [&](std::size_t i, const Array& grad) { (*on_ready)(paths[i], grad); })
               : r.vjp_fn({ones_like(loss)});
  return {loss, rebuild(grads)};
}

std::pair<Array, Container> module_value_and_grad(Module& model, const std::function<Array(Module&)>& loss,
                                                  const GradReady* on_ready) {
  const Container saved = model.parameters();
  struct Restore {
    Module& m;
    const Container& p;
    ~Restore() {
      try {
        m.set_parameters(p);
      } catch (...) {  // the same structure it was taken from: cannot fail
      }
    }
  } restore{model, saved};
  return value_and_grad_impl(
      [&](const Container& params) {
        model.set_parameters(params);
        return loss(model);
      },
      saved, on_ready);
}
}  // namespace

std::pair<Array, Container> value_and_grad(const std::function<Array(const Container&)>& f, const Container& variables) {
  return value_and_grad_impl(f, variables, nullptr);
}
std::pair<Array, Container> value_and_grad(Module& model, const std::function<Array(Module&)>& loss) {
  return module_value_and_grad(model, loss, nullptr);
}
std::pair<Array, Container> value_and_grad(Module& model, const std::function<Array(Module&)>& loss,
                                           const GradReady& on_ready) {
  return module_value_and_grad(model, loss, &on_ready);
}

}  // namespace ivy::nn

// LibTorch interop for ivy::nn::Module (header-only, opt-in: it pulls in <torch/torch.h>;
// link ivy::torch). The 2021 Ivy paper's Fig. 4 in C++: an ivy model used as a layer of a
// LibTorch model and trained by a LibTorch optimizer, and a LibTorch model's weights loaded
// into an ivy model by name.
//
//   // an ivy model inside a torch::nn::Module; torch::optim trains it
//   struct Net : torch::nn::Module {
//     torch::nn::Linear pre{nullptr};
//     ivy::nn::torch_interop::IvyLayer body{nullptr};
//     Net(std::shared_ptr<ivy::nn::Module> m) {
//       pre = register_module("pre", torch::nn::Linear(4, 6));
//       body = register_module("body", ivy::nn::torch_interop::IvyLayer(m));
//     }
//     at::Tensor forward(at::Tensor x) { return body(torch::relu(pre(x))); }
//   };
//   ... loss.backward(); optimizer.step(); ... net.body->sync_to_ivy();
//
//   // LibTorch weights into an ivy model of the same structure
//   ivy::nn::torch_interop::load_from_torch(ivy_model, *torch_model);
//
// Names: ivy paths join with '/', LibTorch's with '.'; the functions here map one to the
// other ("0/weight" <-> "0.weight"). Errors are ivy::ValueError starting "[torch_interop]".
#pragma once

#include <torch/torch.h>

#include <algorithm>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "ivy/autodiff.hpp"
#include "ivy/backends/torch.hpp"
#include "ivy/module.hpp"

namespace ivy::nn::torch_interop {

namespace detail {
inline std::string dotted(std::string p) {  // ivy path -> LibTorch name
  std::replace(p.begin(), p.end(), '/', '.');
  return p;
}
inline std::string slashed(std::string p) {  // LibTorch name -> ivy path
  std::replace(p.begin(), p.end(), '.', '/');
  return p;
}
// A copy of t's values as an ivy array on backend b (torch: a fresh tensor, not t's storage).
inline Array copy_to(const at::Tensor& t, Backend b) {
  Array a = ivy::torch::wrap(t.detach().clone().contiguous());
  return b && b != a.backend() ? ivy::to_backend(a, b) : a;
}
// Holds an ivy vjp function between a torch autograd forward and its backward.
struct VjpHolder : ::torch::CustomClassHolder {
  std::function<std::vector<Array>(const std::vector<Array>&)> fn;
};
// Arrays from a LibTorch module's named tensors, in the order of `mine` (ivy paths), from
// the tensors named alike; a [torch_interop] error for a missing name, another shape or
// dtype.
inline Container matched(const std::vector<std::pair<std::string, Array>>& mine,
                         const ::torch::OrderedDict<std::string, at::Tensor>& theirs, const char* what) {
  std::vector<std::pair<std::string, Array>> out;
  for (const auto& [path, a] : mine) {
    const at::Tensor* t = theirs.find(dotted(path));
    if (!t)
      throw ValueError(std::string("[torch_interop] the LibTorch module has no ") + what + " \"" + dotted(path) +
                       "\" for the ivy module's \"" + path + "\"");
    Array v = copy_to(*t, a.backend());
    if (!(v.shape() == a.shape()) || v.dtype() != a.dtype())
      throw ValueError(std::string("[torch_interop] ") + what + " \"" + dotted(path) + "\" is " +
                       dtype_name(v.dtype()) + v.shape().str() + " in LibTorch, but \"" + path + "\" is " +
                       dtype_name(a.dtype()) + a.shape().str() + " in ivy");
    out.emplace_back(path, v);
  }
  return Container::from_pairs(out);
}
}  // namespace detail

// A LibTorch module's named_parameters() as an ivy Container ('.' -> '/'), copies on the
// torch backend.
inline Container parameters_from(const ::torch::nn::Module& m) {
  std::vector<std::pair<std::string, Array>> v;
  for (const auto& item : m.named_parameters()) v.emplace_back(detail::slashed(item.key()), detail::copy_to(item.value(), {}));
  return Container::from_pairs(v);
}

// Loads a LibTorch module's parameters into an ivy module of the same structure, by name
// (each ivy path p takes LibTorch's p with '.'), copied to the backend of the ivy
// parameter; with `buffers`, the ivy module's buffers too (LibTorch buffers ivy lacks, such
// as BatchNorm's num_batches_tracked, are ignored). Every name, shape and dtype is checked
// before anything changes; a LibTorch parameter the ivy module lacks is an error.
inline void load_from_torch(Module& model, const ::torch::nn::Module& m, bool buffers = true) {
  const auto mine = model.parameters().flatten();
  const auto theirs = m.named_parameters();
  if (theirs.size() != mine.size()) {
    std::string names;
    for (const auto& item : theirs) names += " " + item.key();
    throw ValueError("[torch_interop] the ivy module has " + std::to_string(mine.size()) +
                     " parameters, the LibTorch module " + std::to_string(theirs.size()) + ":" + names);
  }
  Container p = detail::matched(mine, theirs, "parameter");
  Container b = buffers ? detail::matched(model.buffers().flatten(), m.named_buffers(), "buffer") : Container();
  Container state;
  state.set("params", p);
  if (!model.buffers().empty()) state.set("buffers", buffers ? b : model.buffers());
  model.load_state(state);
}

// The ivy module's forward as a LibTorch autograd function of the input x and the tensors
// `params` (one per model.parameters() leaf, in that order, same shapes and dtypes). The
// forward runs the ivy module on the torch backend with those values under ivy::vjp; the
// backward calls the recorded vjp, so LibTorch's autograd sends gradients through the ivy
// computation to x and to `params`. The module's own parameters are left as they were.
// As for LibTorch's own saved tensors, changing `params` in place between the forward and
// the backward is an error (LibTorch's version check).
class ModuleFunction : public ::torch::autograd::Function<ModuleFunction> {
 public:
  static ::torch::autograd::variable_list forward(::torch::autograd::AutogradContext* ctx, Module* model,
                                                  const at::Tensor& x, at::TensorList params) {
    const auto leaves = model->parameters().flatten();
    if (leaves.size() != params.size())
      throw ValueError("[torch_interop] the ivy module has " + std::to_string(leaves.size()) + " parameters, got " +
                       std::to_string(params.size()) + " tensors");
    std::vector<std::string> paths;
    std::vector<Array> primals;
    for (std::size_t i = 0; i < leaves.size(); ++i) {
      paths.push_back(leaves[i].first);
      primals.push_back(ivy::torch::wrap(params[i].detach()));
    }
    primals.push_back(ivy::torch::wrap(x.detach()));
    auto rebuild = [paths](const std::vector<Array>& xs) {
      std::vector<std::pair<std::string, Array>> v;
      for (std::size_t i = 0; i < paths.size(); ++i) v.emplace_back(paths[i], xs[i]);
      return Container::from_pairs(v);
    };
    // put the module's own parameters back however the call ends
    struct Restore {
      Module* m;
      Container saved;
      ~Restore() {
        try {
          m->set_parameters(saved);
        } catch (...) {  // the structure it was taken from: cannot fail
        }
      }
    } restore{model, model->parameters()};
    ArraysFn f = [model, rebuild](const std::vector<Array>& xs) {
      model->set_parameters(rebuild(xs));
      return std::vector<Array>{model->forward(xs.back())};
    };
    VjpResult r = vjp(f, primals);
    auto holder = c10::make_intrusive<detail::VjpHolder>();
    holder->fn = r.vjp_fn;
    ctx->saved_data["ivy_vjp"] = c10::IValue::make_capsule(holder);
    ctx->save_for_backward(params.vec());
    // a copy: LibTorch sets the result's grad_fn (the node that owns ctx and so the tape),
    // and the tape may keep the output itself, which would make a cycle nothing frees
    return {ivy::torch::unwrap(r.outputs.at(0)).clone()};
  }

  static ::torch::autograd::variable_list backward(::torch::autograd::AutogradContext* ctx,
                                                   ::torch::autograd::variable_list grad_out) {
    (void)ctx->get_saved_variables();  // LibTorch's check that params were not changed in place
    auto capsule = ctx->saved_data["ivy_vjp"].toCapsule();
    auto* holder = static_cast<detail::VjpHolder*>(capsule.get());
    std::vector<Array> g = holder->fn({ivy::torch::wrap(grad_out.at(0).contiguous())});
    // one gradient per forward argument: none for the module, then x, then the parameters
    ::torch::autograd::variable_list out{at::Tensor(), ivy::torch::unwrap(g.back())};
    for (std::size_t i = 0; i + 1 < g.size(); ++i) out.push_back(ivy::torch::unwrap(g[i]));
    return out;
  }
};

// model(x) as a differentiable LibTorch function of x and params (see ModuleFunction).
inline at::Tensor apply(Module& model, const at::Tensor& x, at::TensorList params) {
  return ModuleFunction::apply(&model, x, params)[0];
}

// An ivy module as a LibTorch module: its parameters become LibTorch parameters (copies on
// the torch backend, named by their ivy paths, e.g. "0/weight", since LibTorch names may
// not contain '.'), trained by any torch::optim optimizer; forward(x) is apply(). The ivy
// module keeps its own parameters until sync_to_ivy() copies the trained values into it.
class IvyLayerImpl : public ::torch::nn::Module {
 public:
  explicit IvyLayerImpl(std::shared_ptr<nn::Module> model) : model_(std::move(model)) {
    if (!model_) throw ValueError("[torch_interop] IvyLayer needs a module");
    for (const auto& [path, a] : model_->parameters().flatten()) {
      at::Tensor t = ivy::torch::unwrap(ivy::to_backend(a, "torch")).detach().clone();
      params_.push_back(register_parameter(path, t));
    }
  }
  at::Tensor forward(const at::Tensor& x) { return torch_interop::apply(*model_, x, params_); }
  // Copies the LibTorch parameters' values into the ivy module (each on its backend).
  void sync_to_ivy() {
    std::vector<std::pair<std::string, Array>> v;
    const auto leaves = model_->parameters().flatten();
    for (std::size_t i = 0; i < leaves.size(); ++i)
      v.emplace_back(leaves[i].first, detail::copy_to(params_[i], leaves[i].second.backend()));
    model_->set_parameters(Container::from_pairs(v));
  }
  nn::Module& ivy_module() { return *model_; }

 private:
  std::shared_ptr<nn::Module> model_;
  std::vector<at::Tensor> params_;
};
// The holder LibTorch's TORCH_MODULE(IvyLayer) would define (spelled out: inside namespace
// ivy the macro's unqualified torch:: would name ivy::torch).
class IvyLayer : public ::torch::nn::ModuleHolder<IvyLayerImpl> {
 public:
  using ::torch::nn::ModuleHolder<IvyLayerImpl>::ModuleHolder;
  using Impl = IvyLayerImpl;
};

}  // namespace ivy::nn::torch_interop

// ivy::optim: the optimizers' shared step (validation, casting, state bookkeeping), their
// update rules, gradient clipping and the learning-rate schedules. See include/ivy/optim.hpp
// for the formulas.
#include "ivy/optim.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "ivy/functional.hpp"

namespace ivy::optim {

namespace {

std::string slot_path(const std::string& kind, const std::string& path) {
  return path.empty() ? kind : kind + "/" + path;
}
std::string quoted(const std::string& path) { return path.empty() ? std::string("the root leaf") : "'" + path + "'"; }

// The L2 norm of every element of x, a 0-d array (on x's backend, no host round trip).
Array l2(const Array& x) { return ivy::sqrt(ivy::sum(ivy::square(x))); }

}  // namespace

// ---------------------------------------------------------------- Optimizer

Optimizer::Optimizer(std::string name, double lr) : name_(std::move(name)), lr_(lr) {
  check_arg(std::isfinite(lr) && lr >= 0, "lr must be a finite number >= 0, got " + std::to_string(lr));
}

Optimizer::~Optimizer() = default;

std::string Optimizer::prefix() const { return "[optim." + name_ + "] "; }

void Optimizer::check_arg(bool ok, const std::string& what) const {
  if (!ok) throw ValueError(prefix() + what);
}

void Optimizer::set_lr(double lr) {
  check_arg(std::isfinite(lr) && lr >= 0, "set_lr: lr must be a finite number >= 0, got " + std::to_string(lr));
  lr_ = lr;
}

void Optimizer::reset() {
  state_ = Container();
  steps_ = 0;
}

bool Optimizer::has_slot(const std::string& kind, const std::string& path) const {
  return state_.contains(slot_path(kind, path));
}

Array Optimizer::slot(const std::string& kind, const std::string& path, const Array& like, double init) const {
  const std::string sp = slot_path(kind, path);
  if (!state_.contains(sp)) return ivy::full_like(like, Scalar(init));
  const Container& c = state_.at(sp);
  if (!c.is_leaf())
    throw ValueError(prefix() + "state entry '" + sp + "' is a node, expected the array for parameter " + quoted(path));
  Array s = c.array();
  if (!(s.shape() == like.shape()) || s.dtype() != like.dtype())
    throw ValueError(prefix() + "state entry '" + sp + "' is " + dtype_name(s.dtype()) + s.shape().str() +
                     " but parameter " + quoted(path) + " is " + dtype_name(like.dtype()) + like.shape().str());
  // state loaded onto another backend follows the parameter
  if (s.backend() != like.backend()) s = ivy::to_backend(s, like.backend());
  return s;
}

void Optimizer::set_slot(const std::string& kind, const std::string& path, Array value) {
  state_.set(slot_path(kind, path), Container(std::move(value)));
}

void Optimizer::load_state(const Container& state) {
  if (state.is_leaf()) throw ValueError(prefix() + "load_state: the state is a single array, not a tree");
  if (!state.contains("step") || !state.at("step").is_leaf())
    throw ValueError(prefix() + "load_state: no 'step' array in the state");
  const Array& s = state.at("step").array();
  if (s.ndim() != 0 || !is_integer(s.dtype()))
    throw ValueError(prefix() + "load_state: 'step' must be a 0-d integer array, got " + dtype_name(s.dtype()) +
                     s.shape().str());
  std::int64_t n = s.item<std::int64_t>();
  if (n < 0) throw ValueError(prefix() + "load_state: 'step' is negative (" + std::to_string(n) + ")");
  const auto names = slot_names();
  for (const auto& k : state.keys()) {
    if (k == "step") continue;
    if (std::find(names.begin(), names.end(), k) == names.end()) {
      std::string list;
      for (const auto& nm : names) list += (list.empty() ? "" : ", ") + nm;
      throw ValueError(prefix() + "load_state: unknown state entry '" + k + "' (this optimizer keeps: step" +
                       (list.empty() ? "" : ", " + list) + ")");
    }
  }
  state_ = state;
  steps_ = n;
}

Container Optimizer::step(const Container& params, const Container& grads) {
  // structure first, with the path that differs
  if (!params.same_structure(grads)) {
    try {
      Container::map2(params, grads, [](const Array& a, const Array&) { return a; });
    } catch (const ValueError& e) {
      std::string m = e.what();
      const std::string c = "[container] ";
      if (m.rfind(c, 0) == 0) m = m.substr(c.size());
      throw ValueError(prefix() + "params and grads differ: " + m);
    }
  }
  // then every leaf, before anything changes
  auto flat_p = params.flatten();
  for (const auto& [path, p] : flat_p) {
    const Array& g = grads.at(path).array();
    if (!is_real_floating(p.dtype()))
      throw TypeError(prefix() + "parameter " + quoted(path) + " has dtype " + dtype_name(p.dtype()) +
                      "; parameters must be real floating arrays");
    if (!is_real_floating(g.dtype()))
      throw TypeError(prefix() + "gradient of " + quoted(path) + " has dtype " + dtype_name(g.dtype()) +
                      "; gradients must be real floating arrays");
    if (!(g.shape() == p.shape()))
      throw ValueError(prefix() + "gradient of " + quoted(path) + " has shape " + g.shape().str() +
                       " but the parameter has shape " + p.shape().str());
  }
  const std::int64_t t = steps_ + 1;
  Container saved = state_;  // restored if an update throws: a step is all or nothing
  try {
    Container out = params.map_with_paths([&](const std::string& path, const Array& p) {
      Array g = grads.at(path).array();
      if (g.dtype() != p.dtype()) g = ivy::astype(g, p.dtype());
      if (g.backend() != p.backend()) g = ivy::to_backend(g, p.backend());
      return update(path, p, g, t);
    });
    Backend b = flat_p.empty() ? current_backend() : flat_p.front().second.backend();
    state_.set("step", Container(ivy::asarray(Scalar(t), DType::int64, Device{}, b)));
    steps_ = t;
    return out;
  } catch (...) {
    state_ = std::move(saved);
    throw;
  }
}

// ---------------------------------------------------------------- SGD

SGD::SGD(double lr, double momentum, double dampening, double weight_decay, bool nesterov)
    : Optimizer("SGD", lr),
      momentum_(momentum),
      dampening_(dampening),
      weight_decay_(weight_decay),
      nesterov_(nesterov) {
  check_arg(momentum >= 0, "momentum must be >= 0, got " + std::to_string(momentum));
  check_arg(weight_decay >= 0, "weight_decay must be >= 0, got " + std::to_string(weight_decay));
  check_arg(!nesterov || (momentum > 0 && dampening == 0), "nesterov needs momentum > 0 and dampening = 0");
}

std::vector<std::string> SGD::slot_names() const { return {"momentum"}; }

Array SGD::update(const std::string& path, const Array& p, const Array& g, std::int64_t) {
  Array d = weight_decay_ != 0 ? g + weight_decay_ * p : g;
  if (momentum_ != 0) {
    // torch's first step: the buffer starts as d itself (no dampening)
    Array buf = has_slot("momentum", path) ? slot("momentum", path, p) * momentum_ + (1.0 - dampening_) * d : d;
    set_slot("momentum", path, buf);
    d = nesterov_ ? d + momentum_ * buf : buf;
  }
  return p - lr() * d;
}

// ---------------------------------------------------------------- Adam, AdamW

Adam::Adam(double lr, double beta1, double beta2, double eps, double weight_decay, bool amsgrad)
    : Adam("Adam", lr, beta1, beta2, eps, weight_decay, amsgrad, false) {}

Adam::Adam(std::string name, double lr, double beta1, double beta2, double eps, double weight_decay, bool amsgrad,
           bool decoupled)
    : Optimizer(std::move(name), lr),
      beta1_(beta1),
      beta2_(beta2),
      eps_(eps),
      weight_decay_(weight_decay),
      amsgrad_(amsgrad),
      decoupled_(decoupled) {
  check_arg(beta1 >= 0 && beta1 < 1, "beta1 must be in [0, 1), got " + std::to_string(beta1));
  check_arg(beta2 >= 0 && beta2 < 1, "beta2 must be in [0, 1), got " + std::to_string(beta2));
  check_arg(eps >= 0, "eps must be >= 0, got " + std::to_string(eps));
  check_arg(weight_decay >= 0, "weight_decay must be >= 0, got " + std::to_string(weight_decay));
}

std::vector<std::string> Adam::slot_names() const {
  if (amsgrad_) return {"m", "v", "v_max"};
  return {"m", "v"};
}

Array Adam::update(const std::string& path, const Array& param, const Array& grad, std::int64_t t) {
  Array p = param, g = grad;
  if (decoupled_) {
    if (weight_decay_ != 0) p = p * (1.0 - lr() * weight_decay_);  // AdamW: decay before the moments
  } else if (weight_decay_ != 0) {
    g = g + weight_decay_ * p;  // Adam: L2 decay in the gradient
  }
  Array m = slot("m", path, p) * beta1_ + (1.0 - beta1_) * g;
  Array v = slot("v", path, p) * beta2_ + (1.0 - beta2_) * (g * g);
  set_slot("m", path, m);
  set_slot("v", path, v);
  const double td = static_cast<double>(t);
  const double bc1 = 1.0 - std::pow(beta1_, td);
  const double bc2_sqrt = std::sqrt(1.0 - std::pow(beta2_, td));
  const double step_size = lr() / bc1;
  Array vv = v;
  if (amsgrad_) {
    vv = ivy::maximum(slot("v_max", path, p), v);
    set_slot("v_max", path, vv);
  }
  Array denom = ivy::sqrt(vv) / bc2_sqrt + eps_;
  return p - step_size * (m / denom);
}

AdamW::AdamW(double lr, double beta1, double beta2, double eps, double weight_decay, bool amsgrad)
    : Adam("AdamW", lr, beta1, beta2, eps, weight_decay, amsgrad, true) {}

// ---------------------------------------------------------------- RMSprop

RMSprop::RMSprop(double lr, double alpha, double eps, double weight_decay, double momentum, bool centered)
    : Optimizer("RMSprop", lr),
      alpha_(alpha),
      eps_(eps),
      weight_decay_(weight_decay),
      momentum_(momentum),
      centered_(centered) {
  check_arg(alpha >= 0, "alpha must be >= 0, got " + std::to_string(alpha));
  check_arg(eps >= 0, "eps must be >= 0, got " + std::to_string(eps));
  check_arg(weight_decay >= 0, "weight_decay must be >= 0, got " + std::to_string(weight_decay));
  check_arg(momentum >= 0, "momentum must be >= 0, got " + std::to_string(momentum));
}

std::vector<std::string> RMSprop::slot_names() const {
  std::vector<std::string> s{"square_avg"};
  if (centered_) s.push_back("grad_avg");
  if (momentum_ > 0) s.push_back("momentum");
  return s;
}

Array RMSprop::update(const std::string& path, const Array& p, const Array& grad, std::int64_t) {
  Array g = weight_decay_ != 0 ? grad + weight_decay_ * p : grad;
  Array sq = slot("square_avg", path, p) * alpha_ + (1.0 - alpha_) * (g * g);
  set_slot("square_avg", path, sq);
  Array avg;
  if (centered_) {
    Array ga = slot("grad_avg", path, p) * alpha_ + (1.0 - alpha_) * g;
    set_slot("grad_avg", path, ga);
    avg = ivy::sqrt(sq - ga * ga) + eps_;
  } else {
    avg = ivy::sqrt(sq) + eps_;
  }
  if (momentum_ > 0) {
    Array buf = slot("momentum", path, p) * momentum_ + g / avg;
    set_slot("momentum", path, buf);
    return p - lr() * buf;
  }
  return p - lr() * (g / avg);
}

// ---------------------------------------------------------------- Adagrad

Adagrad::Adagrad(double lr, double lr_decay, double weight_decay, double initial_accumulator_value, double eps)
    : Optimizer("Adagrad", lr),
      lr_decay_(lr_decay),
      weight_decay_(weight_decay),
      initial_accumulator_value_(initial_accumulator_value),
      eps_(eps) {
  check_arg(lr_decay >= 0, "lr_decay must be >= 0, got " + std::to_string(lr_decay));
  check_arg(weight_decay >= 0, "weight_decay must be >= 0, got " + std::to_string(weight_decay));
  check_arg(initial_accumulator_value >= 0,
            "initial_accumulator_value must be >= 0, got " + std::to_string(initial_accumulator_value));
  check_arg(eps >= 0, "eps must be >= 0, got " + std::to_string(eps));
}

std::vector<std::string> Adagrad::slot_names() const { return {"sum"}; }

Array Adagrad::update(const std::string& path, const Array& p, const Array& grad, std::int64_t t) {
  Array g = weight_decay_ != 0 ? grad + weight_decay_ * p : grad;
  const double clr = lr() / (1.0 + static_cast<double>(t - 1) * lr_decay_);
  Array sum = slot("sum", path, p, initial_accumulator_value_) + g * g;
  set_slot("sum", path, sum);
  return p - clr * (g / (ivy::sqrt(sum) + eps_));
}

// ---------------------------------------------------------------- LAMB

LAMB::LAMB(double lr, double beta1, double beta2, double eps, double weight_decay)
    : Optimizer("LAMB", lr), beta1_(beta1), beta2_(beta2), eps_(eps), weight_decay_(weight_decay) {
  check_arg(beta1 >= 0 && beta1 < 1, "beta1 must be in [0, 1), got " + std::to_string(beta1));
  check_arg(beta2 >= 0 && beta2 < 1, "beta2 must be in [0, 1), got " + std::to_string(beta2));
  check_arg(eps >= 0, "eps must be >= 0, got " + std::to_string(eps));
  check_arg(weight_decay >= 0, "weight_decay must be >= 0, got " + std::to_string(weight_decay));
}

std::vector<std::string> LAMB::slot_names() const { return {"m", "v"}; }

Array LAMB::update(const std::string& path, const Array& p, const Array& g, std::int64_t t) {
  Array m = slot("m", path, p) * beta1_ + (1.0 - beta1_) * g;
  Array v = slot("v", path, p) * beta2_ + (1.0 - beta2_) * (g * g);
  set_slot("m", path, m);
  set_slot("v", path, v);
  const double td = static_cast<double>(t);
  Array m_hat = m / (1.0 - std::pow(beta1_, td));
  Array v_hat = v / (1.0 - std::pow(beta2_, td));
  Array u = m_hat / (ivy::sqrt(v_hat) + eps_);
  if (weight_decay_ != 0) u = u + weight_decay_ * p;
  Array wn = l2(p), un = l2(u);
  // ||p|| / ||u||, or 1 when either is 0 (the division's other branch is discarded)
  Array trust = ivy::where(ivy::logical_and(wn > 0.0, un > 0.0), wn / un, Scalar(1.0));
  return p - lr() * (trust * u);
}

// ---------------------------------------------------------------- LARS

LARS::LARS(double lr, double momentum, double weight_decay, double eta)
    : Optimizer("LARS", lr), momentum_(momentum), weight_decay_(weight_decay), eta_(eta) {
  check_arg(momentum >= 0, "momentum must be >= 0, got " + std::to_string(momentum));
  check_arg(weight_decay >= 0, "weight_decay must be >= 0, got " + std::to_string(weight_decay));
  check_arg(eta > 0, "eta (the trust coefficient) must be > 0, got " + std::to_string(eta));
}

std::vector<std::string> LARS::slot_names() const { return {"momentum"}; }

Array LARS::update(const std::string& path, const Array& p, const Array& g, std::int64_t) {
  Array wn = l2(p), gn = l2(g);
  Array local = ivy::where(ivy::logical_and(wn > 0.0, gn > 0.0), eta_ * wn / (gn + weight_decay_ * wn), Scalar(1.0));
  Array d = weight_decay_ != 0 ? g + weight_decay_ * p : g;
  Array buf = slot("momentum", path, p) * momentum_ + lr() * (local * d);
  set_slot("momentum", path, buf);
  return p - buf;
}

// ---------------------------------------------------------------- clipping

Container clip_grad_norm(const Container& grads, double max_norm, double* total_norm) {
  if (!(max_norm >= 0) || std::isinf(max_norm))
    throw ValueError("[optim.clip_grad_norm] max_norm must be a finite number >= 0, got " + std::to_string(max_norm));
  Array total = ivy::sqrt(grads.global_sum_of_squares());
  if (total_norm) *total_norm = ivy::astype(total, DType::float64).item<double>();
  // min(max_norm / (total + 1e-6), 1), kept on the arrays' backend
  Array coef = ivy::minimum(max_norm / (total + 1e-6), Scalar(1.0));
  return grads.map([&](const Array& g) { return g * ivy::astype(coef, g.dtype()); });
}

Container clip_grad_value(const Container& grads, double clip) {
  if (!(clip >= 0)) throw ValueError("[optim.clip_grad_value] clip must be >= 0, got " + std::to_string(clip));
  return grads.map([&](const Array& g) { return ivy::clip(g, -clip, clip); });
}

// ---------------------------------------------------------------- schedules

LRSchedule::~LRSchedule() = default;

namespace {
void check_step(std::int64_t step, const char* name) {
  if (step < 0)
    throw ValueError(std::string("[optim.") + name + "] lr_at: step must be >= 0, got " + std::to_string(step));
}
}  // namespace

StepLR::StepLR(double base_lr, std::int64_t step_size, double gamma)
    : base_(base_lr), gamma_(gamma), step_size_(step_size) {
  if (step_size <= 0) throw ValueError("[optim.StepLR] step_size must be > 0, got " + std::to_string(step_size));
}
double StepLR::lr_at(std::int64_t step) const {
  check_step(step, "StepLR");
  return base_ * std::pow(gamma_, static_cast<double>(step / step_size_));
}

CosineAnnealingLR::CosineAnnealingLR(double base_lr, std::int64_t T_max, double eta_min)
    : base_(base_lr), eta_min_(eta_min), T_max_(T_max) {
  if (T_max <= 0) throw ValueError("[optim.CosineAnnealingLR] T_max must be > 0, got " + std::to_string(T_max));
}
double CosineAnnealingLR::lr_at(std::int64_t step) const {
  check_step(step, "CosineAnnealingLR");
  return eta_min_ + (base_ - eta_min_) *
                        (1.0 + std::cos(std::numbers::pi * static_cast<double>(step) / static_cast<double>(T_max_))) /
                        2.0;
}

LinearWarmup::LinearWarmup(double base_lr, std::int64_t warmup_steps, double start_factor)
    : base_(base_lr), start_factor_(start_factor), warmup_(warmup_steps) {
  if (warmup_steps <= 0)
    throw ValueError("[optim.LinearWarmup] warmup_steps must be > 0, got " + std::to_string(warmup_steps));
  if (!(start_factor > 0 && start_factor <= 1))
    throw ValueError("[optim.LinearWarmup] start_factor must be in (0, 1], got " + std::to_string(start_factor));
}
double LinearWarmup::lr_at(std::int64_t step) const {
  check_step(step, "LinearWarmup");
  const double done = static_cast<double>(std::min(step, warmup_)) / static_cast<double>(warmup_);
  return base_ * (start_factor_ + (1.0 - start_factor_) * done);
}

OneCycleLR::OneCycleLR(double max_lr, std::int64_t total_steps, double pct_start, double div_factor,
                       double final_div_factor)
    : max_lr_(max_lr), total_(total_steps) {
  if (total_steps <= 0)
    throw ValueError("[optim.OneCycleLR] total_steps must be > 0, got " + std::to_string(total_steps));
  if (!(pct_start >= 0 && pct_start <= 1))
    throw ValueError("[optim.OneCycleLR] pct_start must be in [0, 1], got " + std::to_string(pct_start));
  if (!(div_factor > 0) || !(final_div_factor > 0))
    throw ValueError("[optim.OneCycleLR] div_factor and final_div_factor must be > 0");
  initial_lr_ = max_lr / div_factor;
  min_lr_ = initial_lr_ / final_div_factor;
  // torch: the first phase ends at float(pct_start * total_steps) - 1, the second at total_steps - 1
  phase1_end_ = pct_start * static_cast<double>(total_steps) - 1.0;
  if (!(phase1_end_ > 0) || !(phase1_end_ < static_cast<double>(total_steps) - 1.0))
    throw ValueError(
        "[optim.OneCycleLR] pct_start * total_steps - 1 must lie strictly between 0 and total_steps - 1 "
        "(got " +
        std::to_string(phase1_end_) + ")");
}
double OneCycleLR::lr_at(std::int64_t step) const {
  check_step(step, "OneCycleLR");
  if (step > total_)
    throw ValueError("[optim.OneCycleLR] lr_at: step " + std::to_string(step) + " is past total_steps " +
                     std::to_string(total_));
  auto cos_anneal = [](double start, double end, double pct) {
    return end + (start - end) / 2.0 * (std::cos(std::numbers::pi * pct) + 1.0);
  };
  const double s = static_cast<double>(step);
  if (s <= phase1_end_) return cos_anneal(initial_lr_, max_lr_, s / phase1_end_);
  const double end2 = static_cast<double>(total_) - 1.0;
  return cos_anneal(max_lr_, min_lr_, (s - phase1_end_) / (end2 - phase1_end_));
}

}  // namespace ivy::optim

// ivy::optim: optimizers over Containers of parameters, gradient clipping and learning-rate
// schedules. Every update is written with ivy:: array functions, so it runs on whichever
// backend holds the parameters.
//
//   ivy::optim::Adam opt(1e-3);
//   for (...) {
//     Container grads = ...;                        // same structure as params
//     params = opt.step(params, grads);             // new parameters; the state advances
//   }
//   opt.state().save("opt.safetensors");            // a checkpoint of the optimizer
//
// The update rules of SGD, Adam, AdamW, RMSprop and Adagrad are those of torch.optim (1.13),
// including where weight decay enters and how the first momentum step is taken; LAMB and LARS
// follow the formulas stated on their classes. Parameters must be real floating arrays;
// a gradient of another floating dtype is cast to its parameter's dtype.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ivy/container.hpp"

namespace ivy::optim {

// ---------------------------------------------------------------- optimizers

// The state is a Container: "step" (a 0-d int64 array, the number of steps taken) and one
// subtree per kind of slot, holding an array for each parameter path ("m/conv1/weight"), so
// that it can be saved and loaded like any Container. Errors are ValueError/TypeError with
// messages starting "[optim.<Name>]".
class Optimizer {
 public:
  virtual ~Optimizer();
  Optimizer(const Optimizer&) = default;
  Optimizer& operator=(const Optimizer&) = default;

  // One step: returns the new parameters (the inputs are not modified) and advances the
  // state and steps(). params and grads must have the same structure (paths) and, leaf by
  // leaf, the same shape. All-or-nothing: on an error the state is left as it was.
  Container step(const Container& params, const Container& grads);

  double lr() const { return lr_; }
  void set_lr(double lr);  // lr >= 0 (for schedules: opt.set_lr(schedule.lr_at(t)))
  const Container& state() const { return state_; }
  // Replaces the state (e.g. from Container::load). It must hold "step" (a 0-d integer
  // array >= 0) and otherwise only this optimizer's slots (slot_names()); slot arrays are
  // checked against the parameters at the next step.
  void load_state(const Container& state);
  std::int64_t steps() const { return steps_; }
  // Forgets every slot and the step count.
  void reset();
  const std::string& name() const { return name_; }
  // The kinds of per-parameter state this optimizer keeps, e.g. {"m", "v"} for Adam.
  virtual std::vector<std::string> slot_names() const = 0;

 protected:
  Optimizer(std::string name, double lr);
  // The new value of one parameter at step t (1 for the first step). grad has param's
  // dtype and shape; path is the parameter's path in the Container ("" for a root leaf).
  virtual Array update(const std::string& path, const Array& param, const Array& grad, std::int64_t t) = 0;

  // Per-parameter state. slot() returns the stored array for (kind, path), or a new one
  // full of `init` shaped like `like` (stored only by set_slot).
  bool has_slot(const std::string& kind, const std::string& path) const;
  Array slot(const std::string& kind, const std::string& path, const Array& like, double init = 0.0) const;
  void set_slot(const std::string& kind, const std::string& path, Array value);
  // "[optim.<Name>] "
  std::string prefix() const;
  // Throws ValueError(prefix() + what) for a bad constructor argument.
  void check_arg(bool ok, const std::string& what) const;

 private:
  std::string name_;
  double lr_;
  std::int64_t steps_ = 0;
  Container state_;
};

// torch.optim.SGD: d = g + weight_decay * p; with momentum, buf = d on the first step, else
// buf = momentum * buf + (1 - dampening) * d; d = nesterov ? d + momentum * buf : buf;
// p -= lr * d. Slot: "momentum" (only when momentum != 0).
class SGD : public Optimizer {
 public:
  explicit SGD(double lr, double momentum = 0.0, double dampening = 0.0, double weight_decay = 0.0,
               bool nesterov = false);
  std::vector<std::string> slot_names() const override;

 protected:
  Array update(const std::string& path, const Array& param, const Array& grad, std::int64_t t) override;

 private:
  double momentum_, dampening_, weight_decay_;
  bool nesterov_;
};

// torch.optim.Adam: g += weight_decay * p; m = b1 m + (1 - b1) g; v = b2 v + (1 - b2) g^2;
// (amsgrad: v_max = max(v_max, v), used for v); p -= lr / (1 - b1^t) * m /
// (sqrt(v) / sqrt(1 - b2^t) + eps). Slots: "m", "v", "v_max" (amsgrad).
class Adam : public Optimizer {
 public:
  explicit Adam(double lr = 1e-3, double beta1 = 0.9, double beta2 = 0.999, double eps = 1e-8,
                double weight_decay = 0.0, bool amsgrad = false);
  std::vector<std::string> slot_names() const override;

 protected:
  Adam(std::string name, double lr, double beta1, double beta2, double eps, double weight_decay, bool amsgrad,
       bool decoupled);
  Array update(const std::string& path, const Array& param, const Array& grad, std::int64_t t) override;

 private:
  double beta1_, beta2_, eps_, weight_decay_;
  bool amsgrad_, decoupled_;
};

// torch.optim.AdamW: p *= 1 - lr * weight_decay first (decoupled decay), then Adam's update
// without decay in the gradient.
class AdamW : public Adam {
 public:
  explicit AdamW(double lr = 1e-3, double beta1 = 0.9, double beta2 = 0.999, double eps = 1e-8,
                 double weight_decay = 1e-2, bool amsgrad = false);
};

// torch.optim.RMSprop: g += weight_decay * p; s = alpha s + (1 - alpha) g^2; centered:
// a = alpha a + (1 - alpha) g, avg = sqrt(s - a^2) + eps, else avg = sqrt(s) + eps;
// momentum > 0: buf = momentum buf + g / avg, p -= lr buf; else p -= lr g / avg.
// Slots: "square_avg", "grad_avg" (centered), "momentum" (momentum > 0).
class RMSprop : public Optimizer {
 public:
  explicit RMSprop(double lr = 1e-2, double alpha = 0.99, double eps = 1e-8, double weight_decay = 0.0,
                   double momentum = 0.0, bool centered = false);
  std::vector<std::string> slot_names() const override;

 protected:
  Array update(const std::string& path, const Array& param, const Array& grad, std::int64_t t) override;

 private:
  double alpha_, eps_, weight_decay_, momentum_;
  bool centered_;
};

// torch.optim.Adagrad: g += weight_decay * p; clr = lr / (1 + (t - 1) lr_decay);
// sum += g^2 (sum starts at initial_accumulator_value); p -= clr g / (sqrt(sum) + eps).
// Slot: "sum".
class Adagrad : public Optimizer {
 public:
  explicit Adagrad(double lr = 1e-2, double lr_decay = 0.0, double weight_decay = 0.0,
                   double initial_accumulator_value = 0.0, double eps = 1e-10);
  std::vector<std::string> slot_names() const override;

 protected:
  Array update(const std::string& path, const Array& param, const Array& grad, std::int64_t t) override;

 private:
  double lr_decay_, weight_decay_, initial_accumulator_value_, eps_;
};

// LAMB (You et al., "Large Batch Optimization for Deep Learning", Algorithm 2), per
// parameter array: m = b1 m + (1 - b1) g; v = b2 v + (1 - b2) g^2;
// r = (m / (1 - b1^t)) / (sqrt(v / (1 - b2^t)) + eps); u = r + weight_decay * p;
// p -= lr * trust * u with trust = ||p|| / ||u|| (L2 norms), or 1 when either norm is 0.
// Slots: "m", "v".
class LAMB : public Optimizer {
 public:
  explicit LAMB(double lr = 1e-3, double beta1 = 0.9, double beta2 = 0.999, double eps = 1e-6,
                double weight_decay = 0.0);
  std::vector<std::string> slot_names() const override;

 protected:
  Array update(const std::string& path, const Array& param, const Array& grad, std::int64_t t) override;

 private:
  double beta1_, beta2_, eps_, weight_decay_;
};

// LARS (You et al., "Large Batch Training of Convolutional Networks", Algorithm 1), per
// parameter array: local = eta * ||p|| / (||g|| + weight_decay * ||p||), or 1 when ||p|| or
// ||g|| is 0; buf = momentum * buf + lr * local * (g + weight_decay * p) (buf starts at 0);
// p -= buf. Slot: "momentum".
class LARS : public Optimizer {
 public:
  explicit LARS(double lr, double momentum = 0.9, double weight_decay = 0.0, double eta = 0.001);
  std::vector<std::string> slot_names() const override;

 protected:
  Array update(const std::string& path, const Array& param, const Array& grad, std::int64_t t) override;

 private:
  double momentum_, weight_decay_, eta_;
};

// ---------------------------------------------------------------- gradient clipping

// torch.nn.utils.clip_grad_norm_ with the L2 norm: total = sqrt(sum over leaves of
// sum(g^2)); every leaf is multiplied by min(max_norm / (total + 1e-6), 1). Writes total to
// *total_norm when given. max_norm >= 0.
Container clip_grad_norm(const Container& grads, double max_norm, double* total_norm = nullptr);
// torch.nn.utils.clip_grad_value_: every element clipped to [-clip, clip]; clip >= 0.
Container clip_grad_value(const Container& grads, double clip);

// ---------------------------------------------------------------- learning-rate schedules

// The learning rate as a function of the step (or epoch) count, as torch.optim.lr_scheduler
// gives it after that many scheduler steps (lr_at(0) is the initial rate).
class LRSchedule {
 public:
  virtual ~LRSchedule();
  virtual double lr_at(std::int64_t step) const = 0;
};

// base * gamma^floor(step / step_size)
class StepLR : public LRSchedule {
 public:
  StepLR(double base_lr, std::int64_t step_size, double gamma = 0.1);
  double lr_at(std::int64_t step) const override;

 private:
  double base_, gamma_;
  std::int64_t step_size_;
};

// eta_min + (base - eta_min) * (1 + cos(pi * step / T_max)) / 2 (periodic past T_max, as
// torch's recursive form)
class CosineAnnealingLR : public LRSchedule {
 public:
  CosineAnnealingLR(double base_lr, std::int64_t T_max, double eta_min = 0.0);
  double lr_at(std::int64_t step) const override;

 private:
  double base_, eta_min_;
  std::int64_t T_max_;
};

// torch's LinearLR(start_factor, end_factor = 1, total_iters = warmup_steps): base * (start +
// (1 - start) * min(step, warmup_steps) / warmup_steps).
class LinearWarmup : public LRSchedule {
 public:
  LinearWarmup(double base_lr, std::int64_t warmup_steps, double start_factor = 1.0 / 3.0);
  double lr_at(std::int64_t step) const override;

 private:
  double base_, start_factor_;
  std::int64_t warmup_;
};

// torch's OneCycleLR (two phases, cosine annealing; the learning rate only): from
// max_lr / div_factor up to max_lr over the first pct_start of total_steps, then down to
// max_lr / div_factor / final_div_factor. Defined for 0 <= step <= total_steps.
class OneCycleLR : public LRSchedule {
 public:
  OneCycleLR(double max_lr, std::int64_t total_steps, double pct_start = 0.3, double div_factor = 25.0,
             double final_div_factor = 1e4);
  double lr_at(std::int64_t step) const override;

 private:
  double max_lr_, initial_lr_, min_lr_, phase1_end_;
  std::int64_t total_;
};

}  // namespace ivy::optim

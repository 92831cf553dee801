#!/usr/bin/python3
"""Writes tests/fixtures/optim.json, the references for tests/test_optim.cpp.

Needs Debian's python3-torch (1.13) and numpy: run with /usr/bin/python3.

  optimizers  10 steps of each torch.optim optimizer (SGD, Adam, AdamW, RMSprop, Adagrad, in
              several configurations) from one float64 start, on the loss
              sum(c * w^2 + sin(w)) over two parameters ("layer/w", 2x3, and "b", 3), whose
              gradient 2 c w + cos(w) the C++ test computes with ivy; the parameters after
              every step. LAMB and LARS (not in torch) come from the numpy implementations
              below of the formulas stated in include/ivy/optim.hpp.
  schedules   the learning rate after 0, 1, 2, ... scheduler steps of StepLR,
              CosineAnnealingLR, LinearLR and OneCycleLR.
  clipping    torch.nn.utils.clip_grad_norm_ (total norm and clipped grads) for several
              max_norm values, and clip_grad_value_.
"""
import json
import math
import os
import warnings

import numpy as np
import torch

torch.set_default_dtype(torch.float64)
warnings.filterwarnings("ignore")

STEPS = 10
START = {
    "layer/w": np.array([[0.5, -1.2, 2.0], [0.0, -0.3, 1.7]]),
    "b": np.array([0.8, -2.5, 0.05]),
}
COEF = {
    "layer/w": np.array([[0.1, 0.5, 1.0], [2.0, 0.3, 0.05]]),
    "b": np.array([1.5, 0.2, 0.7]),
}
NAMES = list(START)


def flat(d):
    return {k: {"shape": list(v.shape), "data": np.asarray(v, dtype=np.float64).ravel().tolist()} for k, v in d.items()}


def torch_run(make_opt):
    params = {k: torch.tensor(v, dtype=torch.float64, requires_grad=True) for k, v in START.items()}
    coef = {k: torch.tensor(v, dtype=torch.float64) for k, v in COEF.items()}
    opt = make_opt([params[k] for k in NAMES])
    traj = []
    for _ in range(STEPS):
        opt.zero_grad()
        loss = sum((coef[k] * params[k] * params[k] + torch.sin(params[k])).sum() for k in NAMES)
        loss.backward()
        opt.step()
        traj.append(flat({k: params[k].detach().numpy().copy() for k in NAMES}))
    return traj


def grad_np(w, c):
    return 2.0 * c * w + np.cos(w)


def lamb_run(lr, beta1=0.9, beta2=0.999, eps=1e-6, weight_decay=0.0):
    """LAMB, Algorithm 2 of You et al. (2019), per parameter array; trust ratio 1 when a norm is 0."""
    w = {k: v.copy() for k, v in START.items()}
    m = {k: np.zeros_like(v) for k, v in START.items()}
    v2 = {k: np.zeros_like(v) for k, v in START.items()}
    traj = []
    for t in range(1, STEPS + 1):
        for k in NAMES:
            g = grad_np(w[k], COEF[k])
            m[k] = beta1 * m[k] + (1 - beta1) * g
            v2[k] = beta2 * v2[k] + (1 - beta2) * g * g
            m_hat = m[k] / (1 - beta1 ** t)
            v_hat = v2[k] / (1 - beta2 ** t)
            u = m_hat / (np.sqrt(v_hat) + eps) + weight_decay * w[k]
            wn, un = np.linalg.norm(w[k]), np.linalg.norm(u)
            trust = wn / un if wn > 0 and un > 0 else 1.0
            w[k] = w[k] - lr * trust * u
        traj.append(flat(w))
    return traj


def lars_run(lr, momentum=0.9, weight_decay=0.0, eta=0.001):
    """LARS, Algorithm 1 of You et al. (2017), per parameter array; local lr 1 when a norm is 0."""
    w = {k: v.copy() for k, v in START.items()}
    buf = {k: np.zeros_like(v) for k, v in START.items()}
    traj = []
    for _ in range(STEPS):
        for k in NAMES:
            g = grad_np(w[k], COEF[k])
            wn, gn = np.linalg.norm(w[k]), np.linalg.norm(g)
            local = eta * wn / (gn + weight_decay * wn) if wn > 0 and gn > 0 else 1.0
            buf[k] = momentum * buf[k] + lr * local * (g + weight_decay * w[k])
            w[k] = w[k] - buf[k]
        traj.append(flat(w))
    return traj


def optimizer_cases():
    O = torch.optim
    cases = []

    def add(name, kind, args, traj):
        cases.append({"name": name, "optimizer": kind, "args": args, "trajectory": traj})

    def torch_case(name, kind, args):
        add(name, kind, args, torch_run(lambda ps: getattr(O, kind)(ps, **args)))

    torch_case("sgd_plain", "SGD", {"lr": 0.05})
    torch_case("sgd_weight_decay", "SGD", {"lr": 0.05, "weight_decay": 0.1})
    torch_case("sgd_momentum", "SGD", {"lr": 0.05, "momentum": 0.9})
    torch_case("sgd_momentum_dampening_wd", "SGD", {"lr": 0.05, "momentum": 0.8, "dampening": 0.3, "weight_decay": 0.05})
    torch_case("sgd_nesterov", "SGD", {"lr": 0.05, "momentum": 0.9, "nesterov": True})
    torch_case("sgd_nesterov_wd", "SGD", {"lr": 0.05, "momentum": 0.7, "nesterov": True, "weight_decay": 0.2})
    torch_case("adam", "Adam", {"lr": 0.1})
    torch_case("adam_betas_eps", "Adam", {"lr": 0.05, "betas": [0.8, 0.95], "eps": 1e-3})
    torch_case("adam_weight_decay", "Adam", {"lr": 0.1, "weight_decay": 0.3})
    torch_case("adam_amsgrad", "Adam", {"lr": 0.1, "amsgrad": True})
    torch_case("adam_amsgrad_wd", "Adam", {"lr": 0.1, "amsgrad": True, "weight_decay": 0.1})
    torch_case("adamw", "AdamW", {"lr": 0.1})
    torch_case("adamw_strong_decay", "AdamW", {"lr": 0.1, "weight_decay": 0.5, "betas": [0.85, 0.99]})
    torch_case("adamw_amsgrad", "AdamW", {"lr": 0.1, "weight_decay": 0.05, "amsgrad": True})
    torch_case("adamw_no_decay", "AdamW", {"lr": 0.1, "weight_decay": 0.0})
    torch_case("rmsprop", "RMSprop", {"lr": 0.01})
    torch_case("rmsprop_wd", "RMSprop", {"lr": 0.01, "alpha": 0.9, "weight_decay": 0.1})
    torch_case("rmsprop_momentum", "RMSprop", {"lr": 0.01, "momentum": 0.9})
    torch_case("rmsprop_centered", "RMSprop", {"lr": 0.01, "centered": True})
    torch_case("rmsprop_centered_momentum_wd", "RMSprop",
               {"lr": 0.005, "alpha": 0.95, "eps": 1e-4, "centered": True, "momentum": 0.5, "weight_decay": 0.05})
    torch_case("adagrad", "Adagrad", {"lr": 0.1})
    torch_case("adagrad_decay_wd", "Adagrad", {"lr": 0.1, "lr_decay": 0.05, "weight_decay": 0.1})
    torch_case("adagrad_initial_accumulator", "Adagrad", {"lr": 0.2, "initial_accumulator_value": 0.5, "eps": 1e-6})
    add("lamb", "LAMB", {"lr": 0.05}, lamb_run(0.05))
    add("lamb_wd", "LAMB", {"lr": 0.05, "betas": [0.8, 0.99], "eps": 1e-4, "weight_decay": 0.1},
        lamb_run(0.05, 0.8, 0.99, 1e-4, 0.1))
    add("lars", "LARS", {"lr": 0.5}, lars_run(0.5))
    add("lars_eta_wd", "LARS", {"lr": 1.0, "momentum": 0.5, "weight_decay": 0.01, "eta": 0.02},
        lars_run(1.0, 0.5, 0.01, 0.02))
    add("lars_no_momentum", "LARS", {"lr": 2.0, "momentum": 0.0, "eta": 0.01}, lars_run(2.0, 0.0, 0.0, 0.01))
    return cases


def schedule_values(make_sched, n, base=0.1):
    p = torch.zeros(1, requires_grad=True)
    opt = torch.optim.SGD([p], lr=base)
    sched = make_sched(opt)
    out = [opt.param_groups[0]["lr"]]
    for _ in range(n):
        opt.step()
        sched.step()
        out.append(opt.param_groups[0]["lr"])
    return out


def schedule_cases():
    S = torch.optim.lr_scheduler
    return [
        {"name": "step", "kind": "StepLR", "args": {"base_lr": 0.1, "step_size": 3, "gamma": 0.5},
         "lr": schedule_values(lambda o: S.StepLR(o, step_size=3, gamma=0.5), 12, 0.1)},
        {"name": "step_default_gamma", "kind": "StepLR", "args": {"base_lr": 0.3, "step_size": 2, "gamma": 0.1},
         "lr": schedule_values(lambda o: S.StepLR(o, step_size=2), 7, 0.3)},
        {"name": "cosine", "kind": "CosineAnnealingLR", "args": {"base_lr": 0.1, "T_max": 10, "eta_min": 0.001},
         "lr": schedule_values(lambda o: S.CosineAnnealingLR(o, T_max=10, eta_min=0.001), 25, 0.1)},
        {"name": "cosine_zero_min", "kind": "CosineAnnealingLR", "args": {"base_lr": 0.5, "T_max": 7, "eta_min": 0.0},
         "lr": schedule_values(lambda o: S.CosineAnnealingLR(o, T_max=7), 10, 0.5)},
        {"name": "linear_warmup", "kind": "LinearWarmup",
         "args": {"base_lr": 0.2, "warmup_steps": 4, "start_factor": 0.25},
         "lr": schedule_values(lambda o: S.LinearLR(o, start_factor=0.25, total_iters=4), 8, 0.2)},
        {"name": "linear_warmup_default", "kind": "LinearWarmup",
         "args": {"base_lr": 0.1, "warmup_steps": 5, "start_factor": 1.0 / 3.0},
         "lr": schedule_values(lambda o: S.LinearLR(o), 9, 0.1)},
        {"name": "one_cycle", "kind": "OneCycleLR",
         "args": {"max_lr": 0.5, "total_steps": 20, "pct_start": 0.3, "div_factor": 25.0, "final_div_factor": 1e4},
         "lr": schedule_values(lambda o: S.OneCycleLR(o, max_lr=0.5, total_steps=20, cycle_momentum=False), 20)},
        {"name": "one_cycle_custom", "kind": "OneCycleLR",
         "args": {"max_lr": 1.0, "total_steps": 37, "pct_start": 0.25, "div_factor": 10.0, "final_div_factor": 100.0},
         "lr": schedule_values(lambda o: S.OneCycleLR(o, max_lr=1.0, total_steps=37, pct_start=0.25, div_factor=10.0,
                                                      final_div_factor=100.0, cycle_momentum=False), 37)},
    ]


def clipping_cases():
    grads = {
        "layer/w": np.array([[0.3, -4.0, 1.5], [2.0, 0.0, -0.7]]),
        "b": np.array([10.0, -0.25, 3.0]),
    }
    out = []
    for max_norm in [100.0, 5.0, 1.0, 0.01]:
        ts = {k: torch.zeros(v.shape, requires_grad=True) for k, v in grads.items()}
        for k in NAMES:
            ts[k].grad = torch.tensor(grads[k])
        total = torch.nn.utils.clip_grad_norm_([ts[k] for k in NAMES], max_norm)
        out.append({"kind": "norm", "max_norm": max_norm, "total_norm": float(total),
                    "clipped": flat({k: ts[k].grad.numpy() for k in NAMES})})
    for clip in [0.5, 3.0]:
        ts = {k: torch.zeros(v.shape, requires_grad=True) for k, v in grads.items()}
        for k in NAMES:
            ts[k].grad = torch.tensor(grads[k])
        torch.nn.utils.clip_grad_value_([ts[k] for k in NAMES], clip)
        out.append({"kind": "value", "clip": clip, "clipped": flat({k: ts[k].grad.numpy() for k in NAMES})})
    return {"grads": flat(grads), "cases": out}


def main():
    doc = {
        "generator": "tests/gen_optim_fixtures.py",
        "torch_version": torch.__version__,
        "steps": STEPS,
        "start": flat(START),
        "coef": flat(COEF),
        "optimizers": optimizer_cases(),
        "schedules": schedule_cases(),
        "clipping": clipping_cases(),
    }
    here = os.path.dirname(os.path.abspath(__file__))
    out = os.path.join(here, "fixtures", "optim.json")
    with open(out, "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    print("wrote", out, "with", len(doc["optimizers"]), "optimizer cases")


if __name__ == "__main__":
    main()

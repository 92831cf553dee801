"""Writes tests/fixtures/hessian_mlp.json: the Hessian of a 2-layer MLP's loss with respect
to all its parameters, computed by PyTorch's torch.autograd.functional.hessian (Debian's
python3-torch), for tests/test_autodiff.cpp.

The model: h = tanh(x @ W1 + b1), y = h @ W2 + b2, loss = mean((y - t)^2), with x (4, 3),
W1 (3, 5), b1 (5), W2 (5, 2), b2 (2), t (4, 2), float64. The parameters are flattened in
that order (W1 row-major, b1, W2 row-major, b2) into one vector of 37 entries.

Run: /usr/bin/python3 tests/gen_hessian_fixture.py
"""
import json
import os

import torch

torch.manual_seed(5)
x = torch.randn(4, 3, dtype=torch.float64)
t = torch.randn(4, 2, dtype=torch.float64)
shapes = [(3, 5), (5,), (5, 2), (2,)]
sizes = [int(torch.tensor(s).prod()) for s in shapes]
theta = torch.randn(sum(sizes), dtype=torch.float64) * 0.5


def loss(p):
    parts, k = [], 0
    for s, n in zip(shapes, sizes):
        parts.append(p[k:k + n].reshape(s))
        k += n
    w1, b1, w2, b2 = parts
    h = torch.tanh(x @ w1 + b1)
    y = h @ w2 + b2
    return ((y - t) ** 2).mean()


hess = torch.autograd.functional.hessian(loss, theta)
out = {
    "generator": "tests/gen_hessian_fixture.py with torch " + torch.__version__,
    "x": x.flatten().tolist(),
    "t": t.flatten().tolist(),
    "theta": theta.tolist(),
    "loss": float(loss(theta)),
    "hessian": hess.flatten().tolist(),
}
path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "hessian_mlp.json")
with open(path + ".tmp", "w") as f:
    json.dump(out, f)
os.replace(path + ".tmp", path)

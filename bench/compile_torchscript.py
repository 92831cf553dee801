"""Scripts bench/compile.cpp's workloads with TorchScript (Debian's python3-torch) and saves
them as ts_<name>.pt in the directory given (default build/bench), for bench/compile to load
with torch::jit::load. Each function is written op for op as bench/compile.cpp's at:: version."""
import sys

import torch


def gelu(x: torch.Tensor) -> torch.Tensor:
    return 0.5 * x * (1.0 + torch.tanh(0.7978845608028654 * (x + 0.044715 * x * x * x)))


def lnorm(x: torch.Tensor) -> torch.Tensor:
    m = torch.mean(x, [-1], True)
    d = x - m
    v = torch.mean(d * d, [-1], True)
    return d / torch.sqrt(v + 1e-5) * 1.5 + 0.25


def chain20(x: torch.Tensor) -> torch.Tensor:
    y = x
    for _ in range(5):
        y = torch.clamp_max(torch.clamp_min(y * 1.01 + 0.1, -2.0), 2.0)
    return y


def quat(q0: torch.Tensor) -> torch.Tensor:
    q = q0 / torch.sqrt(torch.sum(q0 * q0, [-1], True))
    x, y, z, w = q[:, 0], q[:, 1], q[:, 2], q[:, 3]
    r = torch.stack([1.0 - 2.0 * (y * y + z * z), 2.0 * (x * y - z * w), 2.0 * (x * z + y * w),
                     2.0 * (x * y + z * w), 1.0 - 2.0 * (x * x + z * z), 2.0 * (y * z - x * w),
                     2.0 * (x * z - y * w), 2.0 * (y * z + x * w), 1.0 - 2.0 * (x * x + y * y)], -1)
    return r.reshape(q0.shape[0], 3, 3)


class Gelu(torch.nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return gelu(x)


class LNorm(torch.nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return lnorm(x)


class Chain20(torch.nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return chain20(x)


class Quat(torch.nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return quat(x)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "build/bench"
    for name, mod in [("gelu", Gelu()), ("lnorm", LNorm()), ("chain20", Chain20()), ("quat", Quat())]:
        torch.jit.script(mod).save(f"{out}/ts_{name}.pt")
        print(f"wrote {out}/ts_{name}.pt")


if __name__ == "__main__":
    main()

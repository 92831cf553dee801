#!/usr/bin/python3
"""The polynomial of src/vec_math.cpp's float32 log1p: log1p(f) = f - f^2/2 + f^3 * P(f) on
f in [sqrt(1/2) - 1, sqrt(2) - 1] (with a margin), P of degree 8 fitted by iteratively
reweighted least squares toward the minimax error of the result relative to log1p(f).
Prints the coefficients rounded to float32 and that error.  Run: /usr/bin/python3 fit_log1p.py
"""
import numpy as np

DEG = 8
a, b = np.sqrt(0.5) - 1 - 1e-4, np.sqrt(2) - 1 + 1e-4


def g(f):
    """(log1p(f) - f + f^2/2) / f^3, by its series where f is tiny."""
    f = np.asarray(f, dtype=np.float64)
    out = np.empty_like(f)
    small = np.abs(f) < 1e-3
    fs = f[small]
    out[small] = 1 / 3 - fs / 4 + fs**2 / 5 - fs**3 / 6 + fs**4 / 7
    fl = f[~small]
    out[~small] = (np.log1p(fl) - fl + fl * fl / 2) / fl**3
    return out


x = np.cos(np.linspace(0, np.pi, 4000)) * (b - a) / 2 + (b + a) / 2
w = x**2  # the result's error relative to log1p(f) is about f^2 times P's
ww = np.ones_like(x)
for _ in range(30):
    V = np.vander(x, DEG + 1, increasing=True)
    c = np.linalg.lstsq(V * (w * ww)[:, None], g(x) * w * ww, rcond=None)[0]
    err = np.abs((V @ c - g(x)) * w)
    ww *= (err / err.max()) ** 0.5 + 1e-3
cf = c.astype(np.float32)
xx = np.linspace(a, b, 200001)
r = np.polyval(cf[::-1].astype(np.float64), xx)
rel = np.abs((xx - xx * xx / 2 + xx**3 * r) - np.log1p(xx)) / np.abs(np.log1p(xx))
print("coefficients (f^0 first):", ", ".join(repr(float(v)) + "f" for v in cf))
print("max error relative to log1p(f), float32 coefficients: %.3g" % rel.max())

#!/usr/bin/env python3
"""Writes libs/vision/tests/fixtures/vision_image.json for libs/vision/tests/test_vision_image.cpp:
inputs and expected outputs of ivy::vision's image-side functions, recomputed here from the
formulas in docs/vision-images.md with plain NumPy loops (deterministic seed). Nothing is taken
from the original ivy_vision outputs.

Run: /usr/bin/python3 libs/vision/tests/gen_vision_image_fixtures.py"""
import json
import math
import os

import numpy as np

rng = np.random.default_rng(3305)
MIN_DEN = 1e-12
out = {}


def L(a):
    return np.asarray(a).tolist()


# ---------------------------------------------------------------- bilinear interpolation
def bilinear(img, x, y):
    """img [H, W, C]; clamp to the image, then interpolate between the 4 neighbours."""
    H, W, _ = img.shape
    if not (np.isfinite(x) and np.isfinite(y)):
        return np.full(img.shape[-1], np.nan)
    x = min(max(x, 0.0), W - 1.0)
    y = min(max(y, 0.0), H - 1.0)
    x0 = min(int(math.floor(x)), max(W - 2, 0))
    y0 = min(int(math.floor(y)), max(H - 2, 0))
    x1, y1 = min(x0 + 1, W - 1), min(y0 + 1, H - 1)
    wx, wy = x - x0, y - y0
    return ((1 - wy) * ((1 - wx) * img[y0, x0] + wx * img[y0, x1]) + wy * ((1 - wx) * img[y1, x0] + wx * img[y1, x1]))


img = rng.uniform(-1, 1, (2, 5, 6, 3))
coords = np.stack([rng.uniform(-1.5, 6.5, (2, 4, 3)), rng.uniform(-1.5, 5.5, (2, 4, 3))], -1)
coords[0, 0, 0] = [2.0, 3.0]   # exactly on a pixel centre
coords[1, 3, 2] = [5.0, 4.0]   # the bottom-right pixel
expected = np.zeros((2, 4, 3, 3))
for b in range(2):
    for i in range(4):
        for j in range(3):
            expected[b, i, j] = bilinear(img[b], *coords[b, i, j])
out["bilinear"] = {"image": L(img), "coords": L(coords), "expected": L(expected)}

# ---------------------------------------------------------------- gradient image
g = rng.uniform(-1, 1, (2, 4, 5, 2))
dx = np.zeros_like(g)
dy = np.zeros_like(g)
for b in range(2):
    for i in range(4):
        for j in range(5):
            if j + 1 < 5:
                dx[b, i, j] = g[b, i, j + 1] - g[b, i, j]
            if i + 1 < 4:
                dy[b, i, j] = g[b, i + 1, j] - g[b, i, j]
out["gradient"] = {"image": L(g), "dx": L(dx), "dy": L(dy)}

# ---------------------------------------------------------------- float <-> uint8 bytes
f = rng.uniform(-100, 100, (2, 3)).astype(np.float32)
f[0, 0] = 1.0
out["uint8"] = {"float": L(f.astype(np.float64)), "bytes": L(np.frombuffer(f.astype("<f4").tobytes(), np.uint8).reshape(2, 3, 4))}

# ---------------------------------------------------------------- smoothing (direct loops, VALID)
k = 3
mean = rng.uniform(-1, 1, (2, 5, 6, 2))
weights = rng.uniform(0.1, 2.0, (2, 5, 6, 2))
var = rng.uniform(0.05, 3.0, (2, 5, 6, 2))
scale = np.array([0.5, 2.0])
Ho, Wo = 5 - k + 1, 6 - k + 1
wmean = np.zeros((2, Ho, Wo, 2))
wweights = np.zeros((2, Ho, Wo, 2))
vmean = np.zeros((2, Ho, Wo, 2))
vvar = np.zeros((2, Ho, Wo, 2))
c0 = k // 2
for b in range(2):
    for i in range(Ho):
        for j in range(Wo):
            for c in range(2):
                sw = smw = prec = pm = 0.0
                for di in range(k):
                    for dj in range(k):
                        w = weights[b, i + di, j + dj, c]
                        m = mean[b, i + di, j + dj, c]
                        sw += w
                        smw += w * m
                        s = 1.0 + scale[c] * math.hypot(di - c0, dj - c0)
                        rv = 1.0 / (var[b, i + di, j + dj, c] + MIN_DEN)
                        prec += rv / s
                        pm += m * rv / s
                wmean[b, i, j, c] = smw / (sw + MIN_DEN)
                wweights[b, i, j, c] = sw / (k * k)
                nv = 1.0 / (prec + MIN_DEN)
                vvar[b, i, j, c] = nv
                vmean[b, i, j, c] = nv * pm
out["smoothing"] = {"kernel_dim": k, "mean": L(mean), "weights": L(weights), "var": L(var), "kernel_scale": L(scale),
                    "weighted_mean": L(wmean), "weighted_weights": L(wweights), "var_mean": L(vmean), "var_var": L(vvar)}

# ---------------------------------------------------------------- quantization (brute force)
H, W, N, F = 4, 5, 30, 2
u = rng.integers(-1, W + 1, (2, N)) + rng.uniform(-0.4, 0.4, (2, N))   # some outside the image
v = rng.integers(-1, H + 1, (2, N)) + rng.uniform(-0.4, 0.4, (2, N))
d = rng.uniform(0.5, 4.0, (2, N))
d[0, 3] = -1.0   # behind the camera
d[1, 7] = 0.0
ds = np.stack([u * d, v * d, d], -1)
feat = rng.uniform(-1, 1, (2, N, F))


def quantize(b, with_db):
    img = np.zeros((H, W, F))
    dep = np.zeros((H, W, 1))
    cnt = np.zeros((H, W, 1))
    best = np.full((H, W), np.inf)
    for n in range(N):
        dd = ds[b, n, 2]
        if not dd > 0:
            continue
        col = math.floor(ds[b, n, 0] / dd + 0.5)
        row = math.floor(ds[b, n, 1] / dd + 0.5)
        if not (0 <= col < W and 0 <= row < H):
            continue
        cnt[row, col, 0] += 1
        if with_db:
            if dd < best[row, col]:
                best[row, col] = dd
                img[row, col] = feat[b, n]
                dep[row, col, 0] = dd
        else:
            img[row, col] += feat[b, n]
            dep[row, col, 0] += dd
    if not with_db:
        img /= np.maximum(cnt, 1)
        dep /= np.maximum(cnt, 1)
    return img, dep, cnt


q = {"image_dims": [H, W], "pixel_coords": L(ds), "features": L(feat)}
for name, db in (("db", True), ("mean", False)):
    res = [quantize(b, db) for b in range(2)]
    q[name] = {"image": L([r[0] for r in res]), "depth": L([r[1] for r in res]), "counts": L([r[2] for r in res])}
# plain (u, v) coordinates with features: the mean per pixel
uv = np.stack([u, v], -1)
img2 = np.zeros((2, H, W, F))
cnt2 = np.zeros((2, H, W, 1))
for b in range(2):
    for n in range(N):
        col, row = math.floor(u[b, n] + 0.5), math.floor(v[b, n] + 0.5)
        if 0 <= col < W and 0 <= row < H:
            img2[b, row, col] += feat[b, n]
            cnt2[b, row, col, 0] += 1
img2 /= np.maximum(cnt2, 1)
q["uv"] = {"pixel_coords": L(uv), "image": L(img2), "counts": L(cnt2)}
out["quantize"] = q

# ---------------------------------------------------------------- rasterization (loops)
RH, RW = 6, 7
tris = np.array([
    [[[0, 0, 2.0], [6, 0, 2.0], [0, 5, 2.0]],
     [[1, 1, 1.0], [5, 2, 3.0], [2, 5, 1.5]],
     [[6, 5, 4.0], [3, 5, 4.0], [6, 2, 4.0]]],
    [[[0.5, 0.5, 1.0], [5.5, 1.2, 2.0], [3.1, 4.7, 3.0]],
     [[2, 2, 0.5], [2, 2, 0.5], [4, 4, 0.5]],            # degenerate
     [[6, 0, 1.0], [6, 5, -1.0], [2, 3, 1.0]]],          # a vertex behind the camera
])


def edge(a, b, p):
    return (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])


def rasterize(tb, with_depth):
    mask = np.zeros((RH, RW, 1), bool)
    ids = -np.ones((RH, RW, 1), np.int64)
    bary = np.zeros((RH, RW, 3))
    depth = np.zeros((RH, RW, 1))
    for i in range(RH):
        for j in range(RW):
            p = (j, i)
            best = (np.inf, None, None, None)
            for n, t in enumerate(tb):
                A = edge(t[0], t[1], t[2])
                e = [edge(t[1], t[2], p), edge(t[2], t[0], p), edge(t[0], t[1], p)]
                if A == 0 or any(ek * A < 0 for ek in e):
                    continue
                lam = [ek / A for ek in e]
                if with_depth:
                    if any(t[m][2] <= 0 for m in range(3)):
                        continue
                    z = 1.0 / sum(lam[m] / t[m][2] for m in range(3))
                    if z < best[0]:
                        best = (z, n, lam, z)
                elif best[1] is None:
                    best = (0.0, n, lam, None)
            if best[1] is not None:
                mask[i, j, 0] = True
                ids[i, j, 0] = best[1]
                bary[i, j] = best[2]
                if with_depth:
                    depth[i, j, 0] = best[3]
    return mask, ids, bary, depth


r3 = [rasterize(tris[b], True) for b in range(2)]
r2 = [rasterize(tris[b][:, :, :2], False) for b in range(2)]
out["rasterize"] = {"image_dims": [RH, RW], "triangles": L(tris),
                    "depth": {"mask": L([r[0] for r in r3]), "ids": L([r[1] for r in r3]),
                              "bary": L([r[2] for r in r3]), "depth": L([r[3] for r in r3])},
                    "flat": {"mask": L([r[0] for r in r2]), "ids": L([r[1] for r in r2]),
                             "bary": L([r[2] for r in r2])}}

# ---------------------------------------------------------------- voxel grids (loops)
VN, VF = 40, 2
pts = rng.uniform(0.0, 1.0, (2, VN, 3))
pts[1] *= np.array([2.0, 1.0, 0.5])
pts[0, 5] = [1.5, 0.5, 0.5]    # outside the [0, 1]^3 bounds
vfeat = rng.uniform(-1, 1, (2, VN, VF))


def voxelize(mode, spec, bounds):
    lowers, uppers, dims_l = [], [], []
    for b in range(2):
        if bounds is None:
            lo, hi = pts[b].min(0), pts[b].max(0)
        else:
            lo, hi = np.array(bounds[:3]), np.array(bounds[3:])
        ext = hi - lo
        if mode == "DIMS":
            dm = np.array(spec, np.int64)
        else:
            dm = np.maximum(np.ceil(ext / (np.array(spec) + MIN_DEN)), 1).astype(np.int64)
        lowers.append(lo), uppers.append(hi), dims_l.append(dm)
    X, Y, Z = np.max(np.array(dims_l), 0)
    grid = np.zeros((2, X, Y, Z, 3 + VF + 1))
    res_l = []
    for b in range(2):
        lo, hi, dm = lowers[b], uppers[b], dims_l[b]
        res = (hi - lo) / dm
        res_l.append(res)
        for n in range(VN):
            p = pts[b, n]
            if np.any(p < lo) or np.any(p > hi):
                continue
            ix = np.minimum(np.maximum(np.floor((p - lo) / (res + MIN_DEN)).astype(np.int64), 0), dm - 1)
            grid[b, ix[0], ix[1], ix[2], :3] += p
            grid[b, ix[0], ix[1], ix[2], 3:3 + VF] += vfeat[b, n]
            grid[b, ix[0], ix[1], ix[2], -1] += 1
    cnt = grid[..., -1:]
    grid[..., :-1] /= np.maximum(cnt, 1)
    return {"grid": L(grid), "dims": L(np.array(dims_l)), "res": L(np.array(res_l)), "lower": L(np.array(lowers))}


out["voxel"] = {"coords": L(pts), "features": L(vfeat),
                "dims_mode": dict(spec=[3, 4, 2], **voxelize("DIMS", [3, 4, 2], None)),
                "res_mode": dict(spec=[0.3, 0.22, 0.45], bounds=[0, 0, 0, 1, 1, 1],
                                 **voxelize("RES", [0.3, 0.22, 0.45], [0, 0, 0, 1, 1, 1]))}

# ---------------------------------------------------------------- NeRF helpers (closed forms)
S, RF = 8, 4
dens = rng.uniform(0.0, 3.0, (2, 3, S))
dens[0, 0, 2] = 0.0
dist = rng.uniform(0.05, 0.5, (2, 3, S))
occ = 1.0 - np.exp(-dens * dist)
term = np.zeros_like(occ)
for idx in np.ndindex(2, 3):
    T = 1.0
    for s in range(S):
        term[idx + (s,)] = occ[idx + (s,)] * T
        T *= 1.0 - occ[idx + (s,)]
rfeat = rng.uniform(0, 1, (2, 3, S, RF))
rend = np.einsum("brs,brsf->brf", term, rfeat)
rvar = np.zeros_like(rend)
for idx in np.ndindex(2, 3):
    for s in range(S):
        rvar[idx] += term[idx + (s,)] * (rfeat[idx + (s,)] - rend[idx]) ** 2
out["nerf"] = {"density": L(dens), "dist": L(dist), "occupancy": L(occ), "termination": L(term),
               "features": L(rfeat), "rendering": L(rend), "variance": L(rvar)}


def round_half_away(x):
    return math.floor(x + 0.5)


cases = []
for (h, w, n, mx) in [(480, 640, 1000, False), (480, 640, 1000, True), (100, 50, 77, False), (7, 9, 5, True),
                      (64, 64, 4096, False), (3, 1000, 30, False)]:
    ratio = w / h
    d0 = math.sqrt(n / ratio)
    f_ = (lambda t: max(1, math.floor(t))) if mx else (lambda t: max(1, round_half_away(t)))
    dims = [f_(d0), f_(d0 * ratio)]
    cases.append({"image_dims": [h, w], "num_pixels": n, "maximum": mx, "dims": dims, "n": dims[0] * dims[1]})
out["downsample"] = cases

# ---------------------------------------------------------------- omni padding (index formula)
om = rng.uniform(-1, 1, (2, 4, 6, 2))
P = 2
OH, OW = 4, 6
padded = np.zeros((2, OH + 2 * P, OW + 2 * P, 2))
for i in range(-P, OH + P):
    if i < 0:
        src_r, shift = -1 - i, True          # across the top pole
    elif i >= OH:
        src_r, shift = 2 * OH - 1 - i, True  # across the bottom pole
    else:
        src_r, shift = i, False
    for j in range(-P, OW + P):
        jj = j % OW
        src_c = (jj + OW // 2) % OW if shift else jj
        padded[:, i + P, j + P] = om[:, src_r, src_c]
out["omni"] = {"image": L(om), "pad": P, "expected": L(padded)}

path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "vision_image.json")
os.makedirs(os.path.dirname(path), exist_ok=True)
with open(path, "w") as fh:
    json.dump(out, fh, separators=(",", ":"))
print(path, os.path.getsize(path), "bytes")

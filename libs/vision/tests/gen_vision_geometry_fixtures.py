#!/usr/bin/env python3
"""Writes libs/vision/tests/fixtures/vision_geometry.json for libs/vision/tests/test_vision_geometry*.cpp:
expected outputs of ivy::vision's geometry and optical-flow functions, recomputed here from the
formulas with NumPy (deterministic seed), not taken from the original libraries.

Conventions (docs/vision.md): images [H, W, C]; pixel (x, y), centres at integers; ds pixel coords
[x d, y d, d]; camera +z forward, K = [[fx, 0, px], [0, fy, py], [0, 0, 1]] with negative focal
lengths; E = R [I | -C]; P = K E; inv_full_mat = [R^T K^-1 | C]; sphere coords [atan2(x, z),
acos(y / r), r]; angular pixels [((180 - phi deg) mod 360) ppd, (theta deg mod 180) ppd, r].

The two cameras have the spec's intrinsics (480 x 640, fx = -554.256, fy = -579.411, px = 319.5,
py = 239.5); the depth image is a 9 x 12 grid of pixels spread over the full 480 x 640 image."""
import json
import os

import numpy as np

rng = np.random.default_rng(33)
H, W = 480, 640
FX, FY, PX, PY = -554.256, -579.411, 319.5, 239.5
GH, GW = 9, 12  # the fixture's sampled pixel grid
PPD = 2.0  # pixels per degree of the angular pixel images


def rot(axis, t):
    c, s = np.cos(t), np.sin(t)
    if axis == "x":
        return np.array([[1, 0, 0], [0, c, -s], [0, s, c]])
    if axis == "y":
        return np.array([[c, 0, s], [0, 1, 0], [-s, 0, c]])
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])


def homo(x):
    return np.concatenate([x, np.ones(x.shape[:-1] + (1,))], -1)


def homo_mat(m):
    return np.concatenate([m, np.array([[0.0, 0.0, 0.0, 1.0]])], 0)


def apply(m, x):  # m [m, n] applied to points [..., n]
    return np.einsum("ij,...j->...i", m, x)


def skew(v):
    return np.array([[0, -v[2], v[1]], [v[2], 0, -v[0]], [-v[1], v[0], 0]])


def bilinear(img, xy):  # img [H, W, C], xy [..., 2], clamped
    h, w = img.shape[:2]
    x = np.clip(xy[..., 0], 0, w - 1)
    y = np.clip(xy[..., 1], 0, h - 1)
    x0, y0 = np.floor(x).astype(int), np.floor(y).astype(int)
    x1, y1 = np.minimum(x0 + 1, w - 1), np.minimum(y0 + 1, h - 1)
    wx, wy = (x - x0)[..., None], (y - y0)[..., None]
    return ((img[y0, x0] * (1 - wx) + img[y0, x1] * wx) * (1 - wy) + (img[y1, x0] * (1 - wx) + img[y1, x1] * wx) * wy)


K = np.array([[FX, 0, PX], [0, FY, PY], [0, 0, 1.0]])
K_inv = np.linalg.inv(K)
persp = 2 * np.arctan(np.array([W, H]) / (-2 * np.array([FX, FY])))
assert np.allclose(-np.array([W, H]) / (2 * np.tan(persp / 2)), [FX, FY])

# Two cameras: world -> camera rotations R and centres C.
R0 = rot("z", 0.05) @ rot("y", -0.1) @ rot("x", 0.08)
C0 = np.array([0.1, -0.2, -1.0])
R1 = rot("z", -0.04) @ rot("y", 0.12) @ rot("x", -0.05) @ R0
C1 = C0 + np.array([0.35, 0.06, 0.12])
cams = []
for R, C in ((R0, C0), (R1, C1)):
    E = R @ np.concatenate([np.eye(3), -C[:, None]], 1)
    inv_E = np.concatenate([R.T, C[:, None]], 1)
    P = K @ E
    inv_P = np.concatenate([R.T @ K_inv, C[:, None]], 1)
    assert np.allclose(homo_mat(P) @ homo_mat(inv_P), np.eye(4))
    assert np.allclose(homo_mat(E) @ homo_mat(inv_E), np.eye(4))
    cams.append(dict(R=R, C=C, E=E, inv_E=inv_E, P=P, inv_P=inv_P))

# The sampled pixel grid and a depth image (a tilted plane plus noise).
xs = np.linspace(10.0, W - 10.0, GW)
ys = np.linspace(8.0, H - 8.0, GH)
gx, gy = np.meshgrid(xs, ys)
upc = np.stack([gx, gy, np.ones_like(gx)], -1)  # [GH, GW, 3]
depth = (2.5 + 0.002 * gx + 0.001 * gy + rng.uniform(-0.3, 0.3, gx.shape))[..., None]
ds = upc * depth
cam = apply(K_inv, ds)
assert np.allclose(cam[..., 2:3], depth)
radial = np.linalg.norm(cam, axis=-1, keepdims=True)
world = apply(cams[0]["inv_E"], homo(cam))
assert np.allclose(apply(cams[0]["inv_P"], homo(ds)), world)
ds_in_1 = apply(cams[1]["P"], homo(world))
cam_in_1 = apply(cams[1]["E"], homo(world))
depth_in_1 = ds_in_1[..., 2:3]
assert (depth_in_1 > 0).all()

# Rays through the pixels of camera 0 (world frame, unit).
rays = apply(cams[0]["R"].T, apply(K_inv, upc))
rays = rays / np.linalg.norm(rays, axis=-1, keepdims=True)
assert np.allclose(world, C0 + rays * radial)

# Sphere and angular pixel coordinates of the camera-0 points.
sphere = np.stack([np.arctan2(cam[..., 0], cam[..., 2]), np.arccos(cam[..., 1] / radial[..., 0]), radial[..., 0]], -1)
deg = np.degrees(sphere[..., :2])
angular = np.stack([np.mod(180 - deg[..., 0], 360) * PPD, np.mod(deg[..., 1], 180) * PPD, sphere[..., 2]], -1)
r1 = np.linalg.norm(cam_in_1, axis=-1)
sphere_in_1 = np.stack([np.arctan2(cam_in_1[..., 0], cam_in_1[..., 2]), np.arccos(cam_in_1[..., 1] / r1), r1], -1)
deg1 = np.degrees(sphere_in_1[..., :2])
angular_in_1 = np.stack([np.mod(180 - deg1[..., 0], 360) * PPD, np.mod(deg1[..., 1], 180) * PPD, r1], -1)

# Sphere coords -> world ray vectors for camera 0 (inverse rotation R0^T).
sphere_rays = apply(R0.T, cam / radial)

# Two-view matrices and flow.
cam1to2_ext = cams[1]["E"] @ homo_mat(cams[0]["inv_E"])
cam1to2_full = cams[1]["P"] @ homo_mat(cams[0]["inv_P"])
flow = ds_in_1[..., :2] / ds_in_1[..., 2:3] - upc[..., :2]

# Fundamental matrix: the spec's [e2]x P2 P1^+ ...
P1, P2 = cams[0]["P"], cams[1]["P"]
e2 = P2 @ np.append(C0, 1.0)
F = skew(e2) @ P2 @ np.linalg.pinv(P1)
# ... agrees (up to scale) with the essential-matrix form K^-T [t]x R K^-1 for the relative pose.
R_rel, t_rel = R1 @ R0.T, R1 @ (C0 - C1)
F_ess = K_inv.T @ skew(t_rel) @ R_rel @ K_inv
assert np.allclose(F / np.linalg.norm(F) * np.sign(F[0, 0]), F_ess / np.linalg.norm(F_ess) * np.sign(F_ess[0, 0]))
x2 = homo(upc[..., :2] + flow)
Fn = F / np.linalg.norm(F)
assert np.abs(np.einsum("...i,ij,...j->...", x2, Fn, upc)).max() < 1e-9 * W * W

# Flow projected onto the epipolar lines: a noisy flow's end point moved onto the line F x1.
noisy_flow = flow + rng.normal(0, 2.0, flow.shape)
lines = apply(F, upc)
end = homo(upc[..., :2] + noisy_flow)
dist = np.einsum("...i,...i->...", lines, end)[..., None] / np.sum(lines[..., :2] ** 2, -1, keepdims=True)
epi_flow = end[..., :2] - dist * lines[..., :2] - upc[..., :2]
assert np.abs(np.einsum("...i,...i->...", lines, homo(upc[..., :2] + epi_flow))).max() < 1e-6

# Projective geometry: pseudo-inverse, inverse, DLT of a homography.
P_pinv = np.linalg.pinv(P1)
P_inv = cams[0]["inv_P"]
Hom = np.array([[1.1, 0.2, 15.0], [-0.1, 0.9, -8.0], [0.0005, -0.0003, 1.0]])
src = np.stack([rng.uniform(0, W, 6), rng.uniform(0, H, 6), np.ones(6)], -1)
dst = apply(Hom, src)
dst = dst / dst[:, 2:3]
A = []
for (x, y, _), (u, v, _) in zip(src, dst):
    A.append([-x, -y, -1, 0, 0, 0, u * x, u * y, u])
    A.append([0, 0, 0, -x, -y, -1, v * x, v * y, v])
A = np.array(A)
h = Hom.reshape(-1) / np.linalg.norm(Hom)
h = h * np.sign(h[np.argmax(np.abs(h))])
assert np.abs(A @ h).max() < 1e-9

# Cost volume of two small random images (FlowNet correlation, zero padding), brute force.
img1 = rng.normal(size=(4, 5, 3))
img2 = rng.normal(size=(4, 5, 3))
S = 1
cost = np.zeros((4, 5, (2 * S + 1) ** 2))
for y in range(4):
    for x in range(5):
        k = 0
        for dy in range(-S, S + 1):
            for dx in range(-S, S + 1):
                yy, xx = y + dy, x + dx
                if 0 <= yy < 4 and 0 <= xx < 5:
                    cost[y, x, k] = np.mean(img1[y, x] * img2[yy, xx])
                k += 1

# Velocity from flow: camera coords at t-1 moved into frame t, sampled where the flow points.
cam_tm1 = cam  # camera-0 coords image at t-1
cam_tm1_to_t = cam1to2_ext
cam_t = cam_in_1 + rng.normal(0, 0.01, cam_in_1.shape)
flow_t_to_tm1 = rng.uniform(-1.5, 1.5, flow.shape)
flow_t_to_tm1[0, 0] = [-3.0, -2.0]  # clamped at the border
pix_grid = np.stack(np.meshgrid(np.arange(GW, dtype=float), np.arange(GH, dtype=float)), -1)
sampled = bilinear(apply(cam_tm1_to_t, homo(cam_tm1)), pix_grid + flow_t_to_tm1)
delta_t = 0.1
velocity = (cam_t - sampled) / delta_t

# Object transformations: ids 0 (static), 1 and 2 (moving).
id_image = rng.integers(0, 3, size=(GH, GW, 1)).astype(float)
obj_ids = np.array([[1.0], [2.0]])
obj_trans = np.stack([
    np.concatenate([rot("y", 0.1) @ rot("x", -0.05), np.array([[0.05], [-0.02], [0.1]])], 1),
    np.concatenate([rot("z", -0.2), np.array([[-0.1], [0.03], [0.0]])], 1),
])
moved = cam.copy()
for i, oid in enumerate(obj_ids[:, 0]):
    m = id_image[..., 0] == oid
    moved[m] = apply(obj_trans[i], homo(cam[m]))
obj_cam2 = apply(cam1to2_ext, homo(moved))
obj_velocity = (cam - moved) / delta_t
p2 = apply(K, obj_cam2)
obj_flow = p2[..., :2] / p2[..., 2:3] - upc[..., :2]


def r(a):
    a = np.asarray(a, dtype=float)
    return a.tolist() if a.ndim else float(a)


doc = {
    "image_dims": [H, W], "grid_dims": [GH, GW], "focal_lengths": [FX, FY], "pp_offsets": [PX, PY],
    "persp_angles": r(persp), "calib_mat": r(K), "inv_calib_mat": r(K_inv), "pixels_per_degree": PPD,
    "cams": [{k: r(v) for k, v in c.items()} for c in cams],
    "uniform_pixel_coords": r(upc), "depth": r(depth), "ds_pixel_coords": r(ds), "cam_coords": r(cam),
    "radial_depth": r(radial), "world_coords": r(world), "ds_pixel_coords_in_1": r(ds_in_1),
    "cam_coords_in_1": r(cam_in_1), "world_ray_vectors": r(rays), "sphere_coords": r(sphere),
    "angular_pixel_coords": r(angular), "sphere_coords_in_1": r(sphere_in_1),
    "angular_pixel_coords_in_1": r(angular_in_1), "sphere_world_ray_vectors": r(sphere_rays),
    "cam1to2_ext_mat": r(cam1to2_ext), "cam1to2_full_mat": r(cam1to2_full), "flow": r(flow),
    "fundamental_matrix": r(F), "noisy_flow": r(noisy_flow), "epipolar_flow": r(epi_flow),
    "pseudo_inverse": r(P_pinv), "projection_inverse": r(P_inv), "dlt_A": r(A), "dlt_h": r(h),
    "homography": r(Hom), "cost_image1": r(img1), "cost_image2": r(img2), "cost_search_range": S,
    "cost_volume": r(cost), "cam_t": r(cam_t), "flow_t_to_tm1": r(flow_t_to_tm1), "delta_t": delta_t,
    "velocity": r(velocity), "id_image": r(id_image), "obj_ids": r(obj_ids), "obj_trans": r(obj_trans),
    "obj_cam_coords_2": r(obj_cam2), "obj_velocity": r(obj_velocity), "obj_flow": r(obj_flow),
}
out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "vision_geometry.json")
os.makedirs(os.path.dirname(out), exist_ok=True)
with open(out, "w") as f:
    json.dump(doc, f, separators=(",", ":"))
print(out, os.path.getsize(out), "bytes")

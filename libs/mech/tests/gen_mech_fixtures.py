#!/usr/bin/env python3
"""Writes libs/mech/tests/fixtures/mech.json for libs/mech/tests/test_mech.cpp: rotations in every ivy::mech
representation, computed with scipy.spatial.transform.Rotation (deterministic seed).

Conventions (docs/mech.md): quaternions xyzw; axis-angle [e, theta] with the axis (0, 0, 1) at
theta = 0; rotation vector theta * e with theta in [0, pi]; polar axis-angle
[acos(ez), atan2(ey, ex), theta]; Euler "c0c1c2" means R = R_c2(e2) R_c1(e1) R_c0(e0), which is
SciPy's lowercase (extrinsic) from_euler(conv, [e0, e1, e2]) -- asserted below."""
import json
import os
import warnings

import numpy as np
from scipy.spatial.transform import Rotation

CONVENTIONS = ["xyx", "yzy", "zxz", "xzx", "yxy", "zyz", "xyz", "yzx", "zxy", "xzy", "yxz", "zyx"]
rng = np.random.default_rng(33)


def elementary(axis, t):
    c, s = np.cos(t), np.sin(t)
    if axis == "x":
        return np.array([[1, 0, 0], [0, c, -s], [0, s, c]])
    if axis == "y":
        return np.array([[c, 0, s], [0, 1, 0], [-s, 0, c]])
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])


def spec_euler(conv, e):
    return elementary(conv[2], e[2]) @ elementary(conv[1], e[1]) @ elementary(conv[0], e[0])


# The spec's Euler convention is SciPy's extrinsic (lowercase) one.
for conv in CONVENTIONS:
    for _ in range(5):
        e = rng.uniform(-np.pi, np.pi, 3)
        assert np.allclose(spec_euler(conv, e), Rotation.from_euler(conv, e).as_matrix(), atol=1e-12), conv


def locked(conv, e1):
    # Gimbal lock as ivy::mech detects it: cos(e1) (Tait-Bryan) or sin(e1) (proper) below 1e-4.
    return bool(abs(np.sin(e1)) < 1e-4) if conv[0] == conv[2] else bool(abs(np.cos(e1)) < 1e-4)


# ---- a set of rotations in every representation
rots = [Rotation.from_quat(q) for q in rng.normal(size=(20, 4))]
diag = np.array([1.0, 1.0, 1.0]) / np.sqrt(3.0)
hand = [np.zeros(3), np.pi * np.array([1.0, 0, 0]), np.pi * np.array([0, 1.0, 0]), np.pi * np.array([0, 0, 1.0]),
        np.pi * diag, 1e-9 * np.array([0, 0, 1.0]), 1e-9 * diag, np.array([1e-9, -2e-9, 3e-9])]
rots += [Rotation.from_rotvec(v) for v in hand]

rows = []
for r in rots:
    q = r.as_quat()
    if q[3] < 0:
        q = -q
    rv = r.as_rotvec()
    theta = float(np.linalg.norm(rv))
    axis = rv / theta if theta > 0 else np.array([0.0, 0.0, 1.0])
    row = {
        "quat": q.tolist(),
        "rotmat": r.as_matrix().tolist(),
        "rotvec": rv.tolist(),
        "axis_angle": axis.tolist() + [theta],
        "polar_axis_angle": [float(np.arccos(np.clip(axis[2], -1, 1))), float(np.arctan2(axis[1], axis[0])), theta],
        # theta = pi: axis and -axis (so q and -q with w = 0, rv and -rv) are the same rotation
        "half_turn": bool(abs(theta - np.pi) < 1e-9),
        "euler": {},
        "euler_locked": {},
    }
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for conv in CONVENTIONS:
            e = r.as_euler(conv)
            row["euler"][conv] = e.tolist()
            row["euler_locked"][conv] = locked(conv, e[1])
    rows.append(row)

# ---- Euler angles to matrices per convention: random angles and gimbal-lock cases
euler_cases = {}
for conv in CONVENTIONS:
    proper = conv[0] == conv[2]
    angles = [rng.uniform(-np.pi, np.pi, 3) for _ in range(8)]
    if proper:
        angles = [np.array([a[0], abs(a[1]), a[2]]) for a in angles]
        lock_mid = [0.0, np.pi]
    else:
        angles = [np.array([a[0], a[1] / 2, a[2]]) for a in angles]
        lock_mid = [np.pi / 2, -np.pi / 2]
    lock = [np.array([rng.uniform(-np.pi, np.pi), b, rng.uniform(-np.pi, np.pi)]) for b in lock_mid for _ in range(2)]
    cases = []
    for e in angles + lock:
        r = Rotation.from_euler(conv, e)
        q = r.as_quat()
        cases.append({"euler": e.tolist(), "rotmat": r.as_matrix().tolist(),
                      "quat": (q if q[3] >= 0 else -q).tolist(), "locked": locked(conv, e[1])})
    euler_cases[conv] = cases

# ---- polar coordinates
xyz = rng.normal(size=(8, 3)) * 2.0
r = np.linalg.norm(xyz, axis=1)
polar = np.stack([np.arctan2(xyz[:, 1], xyz[:, 0]), np.arccos(xyz[:, 2] / (r + 1e-12)), r], 1)

# ---- the spec's fixture line: axis [1,2,3]/sqrt(14), angle pi/3, position [1,2,3], scale 2, dt 0.05
axis = np.array([1.0, 2.0, 3.0]) / np.sqrt(14.0)
ang = np.pi / 3
pos = np.array([1.0, 2.0, 3.0])
rot = Rotation.from_rotvec(axis * ang)
q = rot.as_quat()
line = {
    "axis": axis.tolist(), "angle": ang, "position": pos.tolist(), "scale": 2.0, "dt": 0.05,
    "quat": q.tolist(), "rotmat": rot.as_matrix().tolist(), "rotvec": (axis * ang).tolist(),
    "euler_zyx": rot.as_euler("zyx").tolist(),
    "quat_scaled": Rotation.from_rotvec(axis * ang * 2.0).as_quat().tolist(),
    # velocity [position, quat]: position + dt * position, rotation by angle * (1 + dt) about axis
    "incremented_pose": (pos + 0.05 * pos).tolist() + Rotation.from_rotvec(axis * ang * 1.05).as_quat().tolist(),
}

doc = {"rotations": rows, "euler_cases": euler_cases, "polar": {"xyz": xyz.tolist(), "polar": polar.tolist()},
       "fixture_line": line}
out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "mech.json")
with open(out, "w") as f:
    json.dump(doc, f, separators=(",", ":"))
print(out, os.path.getsize(out), "bytes")

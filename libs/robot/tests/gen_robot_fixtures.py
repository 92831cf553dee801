#!/usr/bin/python3
"""Fixtures for libs/robot/tests: polyharmonic splines and DH forward kinematics in NumPy.

Independent of the C++ code: the spline system is assembled entry by entry and solved with
numpy.linalg.solve; the kinematics multiply the four elementary DH transforms
Rz(theta) Tz(d) Tx(a) Rx(alpha) one at a time. Writes fixtures/robot.json.
Run: /usr/bin/python3 libs/robot/tests/gen_robot_fixtures.py
"""
import json
import math
import os

import numpy as np

rng = np.random.default_rng(33)


# ---------------------------------------------------------------- splines
def phi(r, k):
    r = max(r, 1e-6)
    return r ** (k / 2) if k % 2 else 0.5 * r ** (k / 2) * math.log(r)


def spline(c, f, x, k):
    """c [N, D], f [N, PD], x [NS, D] -> [NS, PD]."""
    n, d = c.shape
    m = np.zeros((n + d + 1, n + d + 1))
    for i in range(n):
        for j in range(n):
            m[i, j] = phi(float(np.sum((c[i] - c[j]) ** 2)), k)
        m[i, n:n + d] = c[i]
        m[i, n + d] = 1.0
        m[n:n + d, i] = c[i]
        m[n + d, i] = 1.0
    rhs = np.zeros((n + d + 1, f.shape[1]))
    rhs[:n] = f
    sol = np.linalg.solve(m, rhs)
    w, v = sol[:n], sol[n:]
    out = np.zeros((x.shape[0], f.shape[1]))
    for s in range(x.shape[0]):
        for i in range(n):
            out[s] += w[i] * phi(float(np.sum((x[s] - c[i]) ** 2)), k)
        out[s] += v[:d].T @ x[s] + v[d]
    return out


def spline_cases():
    cases = []
    for order in (1, 2, 3, 4):
        batch, n, pd, ns = 2, 5, 3, 9
        # jittered linspace: well separated anchors (a well-conditioned system for float32 too)
        c = np.linspace(0, 1, n)[None, :, None] + rng.uniform(-0.06, 0.06, (batch, n, 1))
        f = rng.normal(size=(batch, n, pd))
        x = np.stack([np.linspace(0, 1, ns)[:, None], rng.uniform(-0.2, 1.2, (ns, 1))])
        out = np.stack([spline(c[b], f[b], x[b], order) for b in range(batch)])
        cases.append(dict(order=order, anchor_points=c.tolist(), anchor_vals=f.tolist(), sample_points=x.tolist(),
                          samples=out.tolist()))
    # a 2-d parameter (thin plate, order 2)
    c = rng.uniform(-1, 1, (6, 2))
    f = rng.normal(size=(6, 1))
    x = rng.uniform(-1, 1, (4, 2))
    cases.append(dict(order=2, anchor_points=c.tolist(), anchor_vals=f.tolist(), sample_points=x.tolist(),
                      samples=spline(c, f, x, 2).tolist()))
    return cases


# ---------------------------------------------------------------- DH kinematics
def rot_z(t):
    m = np.eye(4)
    m[:2, :2] = [[math.cos(t), -math.sin(t)], [math.sin(t), math.cos(t)]]
    return m


def rot_x(t):
    m = np.eye(4)
    m[1:3, 1:3] = [[math.cos(t), -math.sin(t)], [math.sin(t), math.cos(t)]]
    return m


def trans(x, y, z):
    m = np.eye(4)
    m[:3, 3] = [x, y, z]
    return m


def fk(arm, q, base):
    mats = [base]
    for i in range(len(q)):
        theta = q[i] * arm["scales"][i] - arm["offsets"][i]
        step = rot_z(theta) @ trans(0, 0, arm["d"][i]) @ trans(arm["a"][i], 0, 0) @ rot_x(arm["alpha"][i])
        mats.append(mats[-1] @ step)
    return np.stack(mats)


def mico():
    d1, d2, d3, d4, d5, d6, e2 = 0.2755, 0.29, 0.1233, 0.0741, 0.0741, 0.16, 0.007
    aa = math.radians(30)
    k = math.sin(aa) / math.sin(2 * aa)
    d4b, d5b, d6b = d3 + k * d4, k * (d4 + d5), k * d5 + d6
    return dict(a=[0, d2, 0, 0, 0, 0], d=[d1, 0, -e2, -d4b, -d5b, -d6b],
                alpha=[math.pi / 2, math.pi, math.pi / 2, 2 * aa, 2 * aa, math.pi], scales=[-1, 1, 1, 1, 1, 1],
                offsets=[0, math.pi / 2, -math.pi / 2, 0, math.pi, -math.pi / 2])


def panda():
    return dict(a=[0, 0, 0.0825, -0.0825, 0, 0.088, 0], d=[0.333, 0, 0.316, 0, 0.384, 0, 0.107],
                alpha=[-math.pi / 2, math.pi / 2, math.pi / 2, -math.pi / 2, math.pi / 2, math.pi / 2, 0],
                scales=[1] * 7, offsets=[0] * 7)


def base_pose():
    # the manipulator demo's Mico base position, turned 30 degrees about z and 10 about x
    return trans(0.85, -0.025, 0.70) @ rot_z(math.radians(30)) @ rot_x(math.radians(10))


def fk_cases():
    out = {}
    for name, arm in (("mico", mico()), ("panda", panda())):
        j = len(arm["a"])
        qs = np.concatenate([np.zeros((1, j)), rng.uniform(-math.pi, math.pi, (4, j))])
        if name == "mico":
            qs = np.concatenate([qs, [np.radians([100, 100, 240, 180, 180, 120]),
                                      np.radians([260, 100, 220, 0, 180, 45])]])
        base = base_pose()
        out[name] = dict(joint_angles=qs.tolist(),
                         link_matrices=np.stack([fk(arm, q, np.eye(4)) for q in qs]).tolist(),
                         base=base[:3].tolist(),
                         link_matrices_with_base=np.stack([fk(arm, q, base) for q in qs]).tolist(),
                         dh=arm)
    return out


if __name__ == "__main__":
    doc = dict(splines=spline_cases(), fk=fk_cases())
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "robot.json")
    with open(path, "w") as fh:
        json.dump(doc, fh, indent=None)
        fh.write("\n")
    print("wrote", path)

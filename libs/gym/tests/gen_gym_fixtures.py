#!/usr/bin/env python3
"""Writes libs/gym/tests/fixtures/gym.json for libs/gym/tests/test_gym.cpp: one step of every
ivy::gym environment computed independently here with NumPy, straight from the equations in
docs/gym.md (shared/specs/applied-libs.md, "gym"), on a few states and actions per env.

Per case: state [N, S] and action [N, A] (some actions outside [-1, 1], which the env clips),
and for both the state and the next state: observation, reward and the termination flag.
Run with /usr/bin/python3 (NumPy only)."""
import json
import os

import numpy as np

rng = np.random.default_rng(33)
N = 6  # the tests also view the rows as a (2, 3) batch


# ---------------------------------------------------------------- the equations
def cartpole(s, a):
    g, mc, mp, l, fs, dt = 9.8, 1.0, 0.1, 0.5, 10.0, 0.02
    x, xd, th, thd = s.T
    f = fs * np.clip(a[:, 0], -1, 1)
    total, pml = mc + mp, mp * l
    temp = (f + pml * thd ** 2 * np.sin(th)) / total
    thdd = (g * np.sin(th) - np.cos(th) * temp) / (l * (4.0 / 3.0 - mp * np.cos(th) ** 2 / total))
    xdd = temp - pml * thdd * np.cos(th) / total
    xd2 = xd + dt * xdd
    thd2 = thd + dt * thdd
    return np.stack([x + dt * xd2, xd2, th + dt * thd2, thd2], -1)


def cartpole_obs(s):
    return np.stack([s[:, 0], s[:, 1], np.cos(s[:, 2]), np.sin(s[:, 2]), s[:, 3]], -1)


def cartpole_rew(s):
    return np.exp(-s[:, 0] ** 2) * (np.cos(s[:, 2]) + 1) / 2


def cartpole_term(s):
    return np.abs(s[:, 0]) > 2.4


def mountain_car(s, a):
    dt = 0.02
    x, xd = s.T
    xdd = 3 * np.clip(a[:, 0], -1, 1) - 9.8 * np.cos(3 * x)
    xd2 = xd + dt * xdd
    return np.stack([x + dt * xd2, xd2], -1)


def mountain_car_rew(s):
    return np.exp(-5 * (s[:, 0] - 0.45) ** 2)


def mountain_car_term(s):
    return (s[:, 0] >= 0.45) | (s[:, 0] < -1.2)


def pendulum(s, a):
    g, m, l, dt = 9.8, 1.0, 1.0, 0.05
    th, thd = s.T
    thdd = -3 * g / (2 * l) * np.sin(th + np.pi) + 3.0 / (m * l ** 2) * np.clip(a[:, 0], -1, 1)
    thd2 = thd + dt * thdd
    return np.stack([th + dt * thd2, thd2], -1)


def pendulum_obs(s):
    return np.stack([np.cos(s[:, 0]), np.sin(s[:, 0]), s[:, 1]], -1)


def pendulum_rew(s):
    return (np.cos(s[:, 0]) + 1) / 2


def reacher(n):
    dt = 0.05

    def step(s, a):
        th, thd, goal = s[:, :n], s[:, n:2 * n], s[:, 2 * n:]
        thd2 = thd + dt * np.clip(a, -1, 1)
        return np.concatenate([th + dt * thd2, thd2, goal], -1)

    def ee(s):  # forward kinematics, link by link
        x = np.zeros(len(s))
        y = np.zeros(len(s))
        phi = np.zeros(len(s))
        for i in range(n):
            phi = phi + s[:, i]
            x, y = x + np.cos(phi), y + np.sin(phi)
        return np.stack([x, y], -1)

    def obs(s):
        return np.concatenate([np.cos(s[:, :n]), np.sin(s[:, :n]), s[:, n:]], -1)

    def rew(s):
        return np.exp(-np.sum((ee(s) - s[:, 2 * n:]) ** 2, -1))

    def term(s):
        return np.linalg.norm(ee(s) - s[:, 2 * n:], axis=-1) < 0.05

    return step, obs, rew, term


def swimmer(n):
    dt = 0.05

    def step(s, a):
        v2 = s[:, 2:4] + dt * np.clip(a, -1, 1)
        return np.concatenate([s[:, 0:2] + dt * v2, v2, s[:, 4:]], -1)

    def rew(s):
        r = np.exp(-0.5 * np.sum((s[:, 0:2] - s[:, 4:6]) ** 2, -1))
        for i in range(n):
            u = s[:, 6 + 2 * i:8 + 2 * i]
            r = r * (1 - np.exp(-30 * np.sum((s[:, 0:2] - u) ** 2, -1)))
        return r

    def term(s):
        t = np.linalg.norm(s[:, 0:2] - s[:, 4:6], axis=-1) < 0.05
        for i in range(n):
            t = t | (np.linalg.norm(s[:, 0:2] - s[:, 6 + 2 * i:8 + 2 * i], axis=-1) < 0.05)
        return t

    return step, (lambda s: s), rew, term


# ---------------------------------------------------------------- cases
def case(step, obs, rew, term, states, actions, **params):
    nxt = step(states, actions)
    out = dict(params)
    out.update(state=states.tolist(), action=actions.tolist(), next_state=nxt.tolist())
    for key, s in (("", states), ("next_", nxt)):
        out[key + "observation"] = obs(s).tolist()
        out[key + "reward"] = rew(s).tolist()
        out[key + "terminated"] = [bool(t) for t in term(s)]
    return out


def actions(a_dim):
    a = rng.uniform(-1, 1, (N, a_dim))
    a[0] = 1.7  # clipped to 1
    a[1] = -2.5  # clipped to -1
    return a


cases = {}
s = np.stack([rng.uniform(-1, 1, N), rng.uniform(-1, 1, N), rng.uniform(-np.pi, np.pi, N), rng.uniform(-2, 2, N)], -1)
s[2] = [0.0, 0.0, 0.0, 0.0]  # upright at rest
s[3] = [2.395, 1.0, 0.1, 0.0]  # crosses x = 2.4 this step
s[4] = [-2.5, 0.0, np.pi, 0.0]  # already out of bounds, hanging down
cases["CartPole"] = case(cartpole, cartpole_obs, cartpole_rew, cartpole_term, s, actions(1))

s = np.stack([rng.uniform(-1.1, 0.4, N), rng.uniform(-1, 1, N)], -1)
s[2] = [0.449, 0.5]  # reaches the goal this step
s[3] = [-1.19, -1.0]  # leaves the track on the left
s[4] = [0.46, 0.0]  # at the goal
cases["MountainCar"] = case(mountain_car, lambda s: s, mountain_car_rew, mountain_car_term, s, actions(1))

s = np.stack([rng.uniform(-np.pi, np.pi, N), rng.uniform(-3, 3, N)], -1)
s[2] = [0.0, 0.0]
s[3] = [np.pi, 0.0]
cases["Pendulum"] = case(pendulum, pendulum_obs, pendulum_rew, lambda s: np.zeros(len(s), bool), s, actions(1))

for n in (2, 3):
    s = np.concatenate([rng.uniform(-np.pi, np.pi, (N, n)), rng.uniform(-1, 1, (N, n)), rng.uniform(-n, n, (N, 2))], -1)
    s[2] = np.concatenate([np.zeros(n), np.zeros(n), [n - 0.01, 0.02]])  # at the goal
    cases[f"Reacher{n}"] = case(*reacher(n), s, actions(n), num_joints=n)

for n in (5, 2):
    s = np.concatenate([rng.uniform(-1, 1, (N, 2)), rng.uniform(-1, 1, (N, 2)), rng.uniform(-1, 1, (N, 2 + 2 * n))], -1)
    s[2, 4:6] = s[2, 0:2] + [0.02, -0.01]  # at the goal
    s[3, 6:8] = s[3, 0:2] + [0.12, 0.0]  # near an urchin
    s[3, 2:4] = [2.0, 0.0]  # heading into it
    cases[f"Swimmer{n}"] = case(*swimmer(n), s, actions(2), num_urchins=n)

path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "gym.json")
os.makedirs(os.path.dirname(path), exist_ok=True)
with open(path, "w") as f:
    json.dump(cases, f, indent=1)
print("wrote", path)

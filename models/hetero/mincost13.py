"""The fixed-type, fixed-window cost problem (13) (PS) / (21) (RA) of seed 003 for one job:
the exact counterpart of A_mincost1/2, used to test Theorem 1 (they are optimal)."""
from __future__ import annotations

import math

import numpy as np
import pyomo.environ as pyo

from mlopt.families.hetero.configs import Config
from mlopt.families.hetero.fields import HeteroData


def build_mincost13(data: HeteroData, j: int, prices: np.ndarray, omega: np.ndarray,
                    config: Config, start: int) -> pyo.ConcreteModel:
    """(13) (PS) / (21) (RA) for job j with type(s), q, window [start, start + d) fixed:
    minimize sum_t sum_h sum_r delta_h^r(t) f_jh^r / C_h^r over integer y_h (>= N workers,
    (13b)/(13c) with N from the configuration's d), s_h (PS: (13d) as (2i), (13e)); q = 1 puts
    everything on one server, q = 0 forbids that ((13a) / (15a)).  ``prices`` and ``omega``
    (free capacity) are H x R x T arrays indexed by slot - 1."""
    H, R = data.cap.shape
    ps = data.architecture == "ps"
    L = config.d
    sl = slice(start - 1, start - 1 + L)
    inv = np.where(data.cap > 0, 1.0 / np.where(data.cap > 0, data.cap, 1), 0.0)
    unit = (prices[:, :, sl] * inv[:, :, None]).sum(axis=2)  # H x R
    wmin = omega[:, :, sl].min(axis=2)
    e = data.e[config.m]
    m_ = pyo.ConcreteModel(name="hetero_mincost13")
    m_.y = pyo.Var(range(H), domain=pyo.NonNegativeIntegers, bounds=(0, int(data.chunks[j])))
    m_.u = pyo.Var(range(H), domain=pyo.Binary)  # server used
    N = config.n
    if ps:
        z = data.z[config.p]
        sb = max(1, math.ceil(N * data.b[config.m] / data.B[config.p] - 1e-9))
        m_.s = pyo.Var(range(H), domain=pyo.NonNegativeIntegers, bounds=(0, sb))
        m_.sig = pyo.Var(range(H), domain=pyo.Binary)
    cost = sum(float(unit[h] @ e) * m_.y[h] for h in range(H))
    if ps:
        cost = cost + sum(float(unit[h] @ z) * m_.s[h] for h in range(H))
    m_.obj = pyo.Objective(expr=cost, sense=pyo.minimize)
    # (13c) with the configuration's N: the least workers that finish in d slots
    # (for RA the rate depends on Phi, so Phi = N exactly: (21b))
    m_.c13c = pyo.Constraint(expr=(sum(m_.y[h] for h in range(H)) >= N) if ps else
                             (sum(m_.y[h] for h in range(H)) == N))
    m_.c13b = pyo.Constraint(expr=sum(m_.y[h] for h in range(H)) <= int(data.chunks[j]))
    # (2h) restricted to the window: what j places must fit the free capacity in every slot
    m_.cap = pyo.Constraint([(h, r) for h in range(H) for r in range(R)], rule=lambda m, h, r: (
        e[r] * m.y[h] + (z[r] * m.s[h] if ps else 0) <= float(wmin[h, r])) if (
        e[r] > 0 or (ps and z[r] > 0)) else pyo.Constraint.Skip)
    big = int(data.chunks[j]) + (sb if ps else 0)
    m_.use = pyo.Constraint(range(H), rule=lambda m, h: m.y[h] + (m.s[h] if ps else 0)
                            <= big * m.u[h])
    if config.q == 1:
        m_.c13a = pyo.Constraint(expr=sum(m_.u[h] for h in range(H)) <= 1)
    else:
        # (13a) q = 0: not everything on one server -> at least two servers used
        m_.c13a = pyo.Constraint(expr=sum(m_.u[h] for h in range(H)) >= 2)
        m_.y_used = pyo.Constraint(range(H), rule=lambda m, h: m.u[h] <= m.y[h] + (
            m.s[h] if ps else 0))
    if ps:
        m_.c13e = pyo.Constraint(expr=sum(m_.s[h] for h in range(H)) >= 1)
        m_.mark = pyo.Constraint(range(H), rule=lambda m, h: m.s[h] <= sb * m.sig[h])
        bmax = float(data.b[config.m]) * int(data.chunks[j])
        # (13d): every PS server covers the workers elsewhere
        m_.c13d = pyo.Constraint(range(H), rule=lambda m, h: sum(
            float(data.b[config.m]) * m.y[g] for g in range(H) if g != h)
            <= float(data.B[config.p]) * m.s[h] + bmax * (1 - m.sig[h]))
    return m_

"""Per-slot and single-job models of PD-ORS's online subproblems (seed 004, Alg. 2-4)."""
from __future__ import annotations

import numpy as np
import pyomo.environ as pyo

from mlopt.families.pdors.fields import copies


def build_slot_ip(pw: np.ndarray, ps: np.ndarray, alpha: np.ndarray, beta: np.ndarray,
                  free: np.ndarray, batch: int, gamma: int, demand: int, *, relax: bool = False,
                  ) -> pyo.ConcreteModel:
    """The external case of Alg. 4: packing-covering IP (23)-(26) plus the ratio rows.

      min  sum_h pw_h w_h + ps_h s_h                          (23), pw = sum_r p alpha^r, ...
      s.t. alpha^r w_h + beta^r s_h <= free_h^r   for all h, r (24) (residual capacity C^ hat)
           sum_h w_h <= F_i                                  (25)
           sum_h w_h >= demand                               (26), demand = ceil(v (tau + c^ext))
           gamma_i sum_h s_h >= sum_h w_h,  sum_h s_h >= 1   (ratio rows the notes add: without
                                                              them the LP sets s = 0)
           w, s integer >= 0 (``relax=True``: real >= 0, the LP of Step 8)

    ``free`` is H x R; machines are indexed 0..H-1.
    """
    H, R = free.shape
    m = pyo.ConcreteModel(name="pdors_slot_lp" if relax else "pdors_slot_ip")
    m.H = pyo.RangeSet(0, H - 1)
    dom = pyo.NonNegativeReals if relax else pyo.NonNegativeIntegers
    m.w = pyo.Var(m.H, domain=dom)
    m.s = pyo.Var(m.H, domain=dom)
    rows = [(h, r) for h in range(H) for r in range(R) if alpha[r] > 0 or beta[r] > 0]
    m.c24_packing = pyo.Constraint(rows, rule=lambda _, h, r: float(alpha[r]) * m.w[h] + float(
        beta[r]) * m.s[h] <= float(free[h, r]))
    m.c25_batch = pyo.Constraint(expr=sum(m.w[h] for h in m.H) <= int(batch))
    m.c26_cover = pyo.Constraint(expr=sum(m.w[h] for h in m.H) >= int(demand))
    m.ratio_ps_cover = pyo.Constraint(expr=int(gamma) * sum(m.s[h] for h in m.H) >= sum(
        m.w[h] for h in m.H))
    m.ratio_ps_min = pyo.Constraint(expr=sum(m.s[h] for h in m.H) >= 1)
    m.obj23_cost = pyo.Objective(expr=sum(float(pw[h]) * m.w[h] + float(ps[h]) * m.s[h]
                                          for h in m.H), sense=pyo.minimize)
    return m


def build_pricing_milp(job: dict, price: np.ndarray, free: np.ndarray, grid: int
                       ) -> pyo.ConcreteModel:
    """The single-job pricing problem (15) of Alg. 2 on the DP's workload grid, as one MILP.

    ``job``: dict with arrival ``a``, ``F``, ``gamma``, ``n_int``, ``n_ext``, ``alpha``, ``beta``
    (length-R arrays) and ``utility`` (callable of the duration); ``price`` and ``free`` are
    T x H x R (slot 1 is row 0).  The job's work is cut into ``grid`` equal units; slot t does an
    integer number d_t of units (the DP's restriction, :mod:`mlopt.families.pdors.dp`); per slot,
    the placement is exact (Fact 1 as in :func:`build_dmlrs_milp`).  max u(t~ - a) - cost; the
    optimum is the DP's payoff when the DP uses the exact per-slot oracle.
    """
    T, H, R = price.shape
    a, F, gamma = int(job["a"]), int(job["F"]), int(job["gamma"])
    alpha, beta = np.asarray(job["alpha"], float), np.asarray(job["beta"], float)
    slots = list(range(a, T + 1))
    m = pyo.ConcreteModel(name="pdors_pricing_milp")
    m.T = pyo.Set(initialize=slots, ordered=True)
    m.H = pyo.RangeSet(0, H - 1)
    wfit = copies(free.reshape(T * H, R), alpha[None, :])[0].reshape(T, H)
    sfit = copies(free.reshape(T * H, R), beta[None, :])[0].reshape(T, H)
    m.w = pyo.Var(m.T, m.H, domain=pyo.NonNegativeIntegers,
                  bounds=lambda _, t, h: (0, int(min(F, wfit[t - 1, h]))))
    m.s = pyo.Var(m.T, m.H, domain=pyo.NonNegativeIntegers,
                  bounds=lambda _, t, h: (0, int(min(F, sfit[t - 1, h]))))
    m.z = pyo.Var(m.T, m.H, domain=pyo.Binary)
    m.om = pyo.Var(m.T, m.H, domain=pyo.NonNegativeReals, bounds=(0, F))
    m.d = pyo.Var(m.T, domain=pyo.NonNegativeIntegers, bounds=(0, grid))
    m.e = pyo.Var(m.T, domain=pyo.Binary)
    m.c_one_completion = pyo.Constraint(expr=sum(m.e[t] for t in m.T) <= 1)
    m.c17_total_work = pyo.Constraint(expr=sum(m.d[t] for t in m.T) >= grid * sum(
        m.e[t] for t in m.T))
    m.c_units_until_completion = pyo.Constraint(m.T, rule=lambda _, t: m.d[t] <= grid * sum(
        m.e[u] for u in m.T if u >= t))
    m.c4_batch = pyo.Constraint(m.T, rule=lambda _, t: sum(m.w[t, h] for h in m.H) <= F)
    m.ratio_ps_cover = pyo.Constraint(m.T, rule=lambda _, t: gamma * sum(
        m.s[t, h] for h in m.H) >= sum(m.w[t, h] for h in m.H))
    m.ratio_ps_le_workers = pyo.Constraint(m.T, rule=lambda _, t: sum(
        m.s[t, h] for h in m.H) <= sum(m.w[t, h] for h in m.H))
    m.c18_capacity = pyo.Constraint(m.T, m.H, range(R), rule=lambda _, t, h, r: (
        float(alpha[r]) * m.w[t, h] + float(beta[r]) * m.s[t, h] <= float(free[t - 1, h, r]))
        if alpha[r] > 0 or beta[r] > 0 else pyo.Constraint.Skip)
    m.fact1_one_machine = pyo.Constraint(m.T, rule=lambda _, t: sum(m.z[t, h] for h in m.H) <= 1)
    m.fact1_alone_on_h = pyo.Constraint(m.T, m.H, rule=lambda _, t, h: sum(
        m.w[t, g] + m.s[t, g] for g in m.H if g != h) <= 2 * F * (1 - m.z[t, h]))
    m.fact1_credit_le_w = pyo.Constraint(m.T, m.H, rule=lambda _, t, h: m.om[t, h] <= m.w[t, h])
    m.fact1_credit_if_internal = pyo.Constraint(m.T, m.H, rule=lambda _, t, h: m.om[
        t, h] <= F * m.z[t, h])
    bonus = float(job["n_ext"] / job["n_int"] - 1.0)
    # (20) per slot: worker-slots at external speed >= d_t / grid of n^ext
    m.c20_cover = pyo.Constraint(m.T, rule=lambda _, t: sum(m.w[t, h] for h in m.H) + bonus * sum(
        m.om[t, h] for h in m.H) >= float(job["n_ext"]) / grid * m.d[t])
    pw = (price * alpha[None, None, :]).sum(axis=2)
    pps = (price * beta[None, None, :]).sum(axis=2)
    m.obj15_payoff = pyo.Objective(expr=sum(float(job["utility"](t - a)) * m.e[t] for t in m.T)
                                   - sum(float(pw[t - 1, h]) * m.w[t, h] + float(pps[t - 1, h])
                                         * m.s[t, h] for t in m.T for h in m.H),
                                   sense=pyo.maximize)
    return m

"""OASiS subproblem (27) of seed 000 (Sec. IV-C) as a Pyomo MILP: one job under given prices.

``build_subproblem(job, market, chunk_integral=False)`` states

* variant (a), (27) proper: work counted in worker-slots, sum_t sum_h y_h(t) >= W_i (2);
* variant (b), ``chunk_integral=True``: (27) plus per-slot chunk integrality, the assumption
  Alg. 2's DP makes ("a worker trains an integer number of data chunks in each time slot"):
  integer d_t >= 0, sum_h y_h(t) >= d_t M_i (tau_i + 2e_i/b_i) (in slots), sum_t d_t >= E_i N_i.

Variant (b) is what :func:`mlopt.families.oasis.subroutine.best_schedule` solves exactly, so
their payoffs must agree; (a) relaxes (b) and its payoff can only be larger (DESIGN.md).  Both
never solve here (use :func:`mlopt.solve.solve`); :func:`extract_subproblem` reads a solved model
back as a :class:`~mlopt.families.oasis.subroutine.JobSchedule`.

The end slot t_hat_i of (27) is linearized with completion indicators u[t], as in
``models/oasis/__init__.py``: sum_t u[t] <= 1 (0 = reject, payoff 0, so the optimum is
max(0, best (27)), i.e. mu_i); no workers after the chosen slot; at least one worker in it.
The objective is sum_t f_i(t - a_i) u[t] minus the priced resources of (27).
"""
from __future__ import annotations

import numpy as np
import pyomo.environ as pyo

from mlopt.families.oasis.subroutine import JobSchedule, Market, SubJob, empty_schedule, \
    schedule_cost

MODEL_NAME = "oasis_subproblem"
INTEGRALITY_TOL = 1e-6


def build_subproblem(job: SubJob, market: Market, *, chunk_integral: bool = False
                     ) -> pyo.ConcreteModel:
    """Problem (27) for ``job`` under ``market`` (prices p, q; residual capacities c - g, c - v).

    Variables: y[t,h], z[t,k] integer >= 0 ((12), (13)) for t in [a_i, T]; u[t] binary
    (completion indicators for t_hat_i); with ``chunk_integral`` also d[t] integer >= 0.
    """
    T = market.horizon
    a, N = job.arrival, job.max_workers
    H, K = market.worker_price.shape[1], market.ps_price.shape[1]
    w, s = np.asarray(job.worker_demand, float), np.asarray(job.ps_demand, float)
    slots = list(range(a, T + 1))
    util = {t: float(job.utility(t - a)) for t in slots}
    wprice = {(t, h): float(market.worker_price[t - 1, h] @ w) for t in slots for h in range(H)}
    pprice = {(t, k): float(market.ps_price[t - 1, k] @ s) for t in slots for k in range(K)}
    w_used = [r for r in range(len(w)) if w[r] > 0]
    s_used = [r for r in range(len(s)) if s[r] > 0]

    m = pyo.ConcreteModel(name=MODEL_NAME)
    m.S = pyo.Set(initialize=slots, ordered=True, doc="slots t in [a_i, T]")
    m.H = pyo.RangeSet(0, H - 1, doc="worker servers h")
    m.K = pyo.RangeSet(0, K - 1, doc="PS servers k")
    m.y = pyo.Var(m.S, m.H, domain=pyo.NonNegativeIntegers, bounds=(0, N))  # (12)
    m.z = pyo.Var(m.S, m.K, domain=pyo.NonNegativeIntegers, bounds=(0, N))  # (13)
    m.u = pyo.Var(m.S, domain=pyo.Binary)  # u[t] = 1: t_hat_i = t

    def workers(t):
        return pyo.quicksum(m.y[t, h] for h in m.H)

    def pss(t):
        return pyo.quicksum(m.z[t, k] for k in m.K)

    # (27) utility of the chosen end slot minus priced worker and PS resources
    m.obj27_payoff = pyo.Objective(
        expr=pyo.quicksum(util[t] * m.u[t] for t in slots)
        - pyo.quicksum(wprice[t, h] * m.y[t, h] for t in slots for h in range(H))
        - pyo.quicksum(pprice[t, k] * m.z[t, k] for t in slots for k in range(K)),
        sense=pyo.maximize)

    # (27) first rows / (30): workers fit the residual capacity, per resource the job uses
    m.c27_worker_capacity = pyo.Constraint(
        m.S, m.H, w_used, rule=lambda m_, t, h, r: w[r] * m.y[t, h] <= float(
            market.worker_free[t - 1, h, r]))
    # (27) second rows / (31): parameter servers fit the residual capacity
    m.c27_ps_capacity = pyo.Constraint(
        m.S, m.K, s_used, rule=lambda m_, t, k, r: s[r] * m.z[t, k] <= float(
            market.ps_free[t - 1, k, r]))
    # (2) enough worker-slots, if the job is scheduled at all
    m.c2_work_covered = pyo.Constraint(
        expr=pyo.quicksum(m.y[t, h] for t in slots for h in range(H))
        >= job.work * pyo.quicksum(m.u[t] for t in slots))
    # (3) at most N_i concurrent workers
    m.c3_max_workers = pyo.Constraint(m.S, rule=lambda m_, t: workers(t) <= N)
    # (6) PS bandwidth covers worker bandwidth
    m.c6_ps_bandwidth = pyo.Constraint(
        m.S, rule=lambda m_, t: job.worker_bw * workers(t) <= job.ps_bw * pss(t))
    # (7) no more PSs than workers
    m.c7_ps_at_most_workers = pyo.Constraint(m.S, rule=lambda m_, t: pss(t) <= workers(t))
    # (8) at most one end slot (none = job not scheduled, payoff 0) ...
    m.c8_one_completion = pyo.Constraint(expr=pyo.quicksum(m.u[t] for t in slots) <= 1)
    # ... no workers after it ...
    m.c8_no_work_after_completion = pyo.Constraint(
        m.S, rule=lambda m_, t: workers(t) <= N * pyo.quicksum(m.u[r] for r in slots if r >= t))
    # ... and at least one worker in it, so it is the last slot with workers
    m.c8_work_in_completion_slot = pyo.Constraint(m.S, rule=lambda m_, t: workers(t) >= m.u[t])

    if chunk_integral:
        D = job.chunks_total
        m.d = pyo.Var(m.S, domain=pyo.NonNegativeIntegers, bounds=(0, D))  # chunks in slot t
        # (b) the workers of a slot cover an integer number d_t of chunks ...
        m.cb_chunks_per_slot = pyo.Constraint(
            m.S, rule=lambda m_, t: workers(t) >= job.chunk_slots * m.d[t])
        # ... and the chunks add up to E_i N_i, if the job is scheduled
        m.cb_chunks_total = pyo.Constraint(
            expr=pyo.quicksum(m.d[t] for t in slots) >= D * pyo.quicksum(m.u[t] for t in slots))
    return m


def _int(value) -> int:
    n = round(value or 0.0)
    if abs((value or 0.0) - n) > INTEGRALITY_TOL:
        raise ValueError(f"value {value!r} is not integral within {INTEGRALITY_TOL}")
    return int(n)


def extract_subproblem(model: pyo.ConcreteModel, job: SubJob, market: Market) -> JobSchedule:
    """Read a solved :func:`build_subproblem` model; the payoff is recomputed from y and z."""
    if getattr(model, "name", None) != MODEL_NAME:
        raise ValueError(f"not a {MODEL_NAME} model: {getattr(model, 'name', None)!r}")
    out = empty_schedule(market)
    for (t, h), var in model.y.items():
        out.workers[t - 1, h] = _int(var.value)
    for (t, k), var in model.z.items():
        out.ps[t - 1, k] = _int(var.value)
    if hasattr(model, "d"):
        for t, var in model.d.items():
            out.chunks[t - 1] = _int(var.value)
    ends = [t for t, var in model.u.items() if _int(var.value) == 1]
    if not ends:
        return out
    end = ends[0]
    util = float(job.utility(end - job.arrival))
    cost = schedule_cost(job, market, out.workers, out.ps)
    return JobSchedule(util - cost, end, util, cost, out.workers, out.ps, out.chunks)

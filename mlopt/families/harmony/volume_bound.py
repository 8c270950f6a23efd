"""``volume``: a certified lower bound on the optimal average JCT of Harmony (seed 002): the
standalone bound per job (:mod:`.bounds`) plus the waiting that the cluster's pooled capacity
forces, certified by a Lagrangian dual evaluated in exact rational arithmetic.

Semantics are the checker's (:mod:`.checker`).  A feasible schedule places job j once, in
interval s_j >= a_j, with its W_j workers and P_j PSs (all-or-nothing); it runs in every
interval s_j..c_j and completes at c_j <= T (``complete_by_horizon``); JCT_j = c_j - a_j + 1.

THEOREM.  Let k_j be the standalone bound's intervals (:func:`~.bounds.min_intervals`: fewer
running intervals cannot reach the epochs at any speed the checker can credit, so c_j - s_j + 1
>= k_j).  Keep, of j's run, its LAST k_j intervals and let x_jt = 1 on them (0 elsewhere).
Then

* sum_t x_jt = k_j, x_jt in {0, 1}, and x_jt = 0 for t < a_j or t > T;
* their mean is exactly c_j - (k_j - 1)/2, so JCT_j = sum_t x_jt (t - a_j + 1) / k_j +
  (k_j - 1)/2;
* capacity: in interval t the tasks of every running job fit every server within the checker's
  tolerance, so for every resource r, sum_j d_jr x_jt <= C_r, with d_jr = W_j w_jr + P_j p_jr
  (the job's demand, exact rationals of the floats) and C_r = sum over role-"any" servers (the
  only ones hosting tasks) of (cap_sr + 1e-6)(1 + 1e-9) (tolerance, and room for the checker's
  float sums of demands).

So sum_j JCT_j >= the optimum of the LP  min sum_jt c_jt x_jt + sum_j (k_j - 1)/2,
c_jt = (t - a_j + 1)/k_j, over 0 <= x <= 1, sum_t x_jt = k_j, sum_j d_jr x_jt <= C_r.  Weak
duality: for ANY prices beta_rt >= 0,

    LP >= sum_j [ (sum of the k_j smallest values of c_jt + sum_r beta_rt d_jr, t in a_j..T)
                  + (k_j - 1)/2 ] - sum_{r,t} C_r beta_rt

(the Lagrangian of the capacity rows; the rest is solved by picking the k_j cheapest
intervals).  HiGHS supplies beta (the capacity rows' duals, clipped at 0); the right-hand side
is evaluated in :class:`fractions.Fraction`, so no solver tolerance enters the bound
(``solver=False``).  With beta = 0 it is the standalone bound's sum exactly (the k_j earliest
intervals: k_j (k_j + 1)/2 / k_j + (k_j - 1)/2 = k_j), and the LP's optimal beta is at least
as good, so the result is max(this, standalone).  JCTs are integers: the sum is rounded up
before averaging (the checker's mean of N integers is their exact sum / N, rounded once).
When some job cannot finish by T even alone, no schedule is feasible and the standalone bound
is returned.

What it ignores: interference between co-runners (the standalone speed is charged throughout),
which server hosts what (capacity pooled), and non-preemption beyond the last k_j intervals.
DECISION (tried and dropped): a continuous version with exclusive-server and shared-speed
modes (progress mass instead of whole intervals) lost more to rounding (k_j is 2-4 intervals)
than it gained: 2.37 vs the standalone 2.77 on ``uniform`` seed 0.
"""
from __future__ import annotations

import math
import time
from fractions import Fraction

import numpy as np

from mlopt.families.harmony.bounds import standalone_bound
from mlopt.families.harmony.speed import RESOURCES
from mlopt.workload import Workload

TOL = Fraction(1e-6)  # the checker's capacity tolerance
MARGIN = 1 + Fraction(1, 10**9)  # room for the checker's float sums of demands


def _demand(job) -> dict[str, Fraction]:
    w, p = int(job.extra["workers"]), int(job.extra["ps"])
    return {r: w * Fraction(job.worker_demand[r]) + p * Fraction(job.ps_demand[r])
            for r in RESOURCES}


def _lp_prices(jobs, T, C, threads) -> dict[str, list[float]] | None:
    """beta[r][t - 1] from HiGHS's optimum of the LP, or None when it is not optimal."""
    import highspy

    from mlopt.solvers.quiet_highs import quiet_highs, run_highs

    inf = highspy.kHighsInf
    h = quiet_highs()
    h.setOptionValue("threads", int(threads))
    nJ, R = len(jobs), len(RESOURCES)
    row = {(ri, t): nJ + ri * T + (t - 1) for ri in range(R) for t in range(1, T + 1)}
    lo = np.array([float(jb["k"]) for jb in jobs] + [-inf] * (R * T))
    hi = np.array([float(jb["k"]) for jb in jobs] + [float(C[r]) for r in RESOURCES
                                                     for _ in range(T)])
    h.addRows(nJ + R * T, lo, hi, 0, np.zeros(0, dtype=np.int32), np.zeros(0, dtype=np.int32),
              np.zeros(0))
    cost, starts, index, value = [], [], [], []
    for i, jb in enumerate(jobs):
        for t in range(jb["a"], T + 1):
            starts.append(len(index))
            cost.append((t - jb["a"] + 1) / jb["k"])
            index.append(i)
            value.append(1.0)
            for ri, r in enumerate(RESOURCES):
                if jb["d"][r]:
                    index.append(row[(ri, t)])
                    value.append(float(jb["d"][r]))
    n = len(cost)
    h.addCols(n, np.array(cost), np.zeros(n), np.ones(n), len(index),
              np.array(starts, dtype=np.int32), np.array(index, dtype=np.int32),
              np.array(value))
    run_highs(h)  # retried on a fresh thread pool if HiGHS refuses the thread count
    if h.getModelStatus() != highspy.HighsModelStatus.kOptimal:
        return None
    dual = np.asarray(h.getSolution().row_dual, dtype=float)
    # a <= row of a minimization has a dual <= 0 in HiGHS's convention: the price is -dual
    return {r: [max(0.0, -float(dual[row[(ri, t)]])) for t in range(1, T + 1)]
            for ri, r in enumerate(RESOURCES)}


def _dual_value(jobs, T, C, beta) -> Fraction:
    """The weak-duality bound on N x the average JCT (module docstring), exactly."""
    B = {r: [Fraction(x) for x in beta[r]] for r in RESOURCES}
    total = -sum((C[r] * sum(B[r], Fraction(0)) for r in RESOURCES), Fraction(0))
    for jb in jobs:
        k = jb["k"]
        vals = sorted(Fraction(t - jb["a"] + 1, k)
                      + sum((B[r][t - 1] * jb["d"][r] for r in RESOURCES), Fraction(0))
                      for t in range(jb["a"], T + 1))
        total += sum(vals[:k], Fraction(0)) + Fraction(k - 1, 2)
    return total


def volume_bound(workload: Workload, *, threads: int | None = 1, **_ignored) -> dict:
    """Certified lower bound on the optimal average JCT (module docstring: the theorem)."""
    t0 = time.perf_counter()
    base = standalone_bound(workload)  # validates the workload; k_j per job
    out = {"bound": base["bound"], "status": "ok", "standalone": base["bound"],
           "source": "standalone"}
    T = int(workload.horizon)
    servers = [s for s in workload.servers if s.role == "any"]
    jobs = [{"a": int(j.arrival), "k": int(k), "d": _demand(j)}
            for j, k in zip(workload.jobs, base["per_job"])]
    # k_j == T - a_j + 1 may also mean "cannot finish by T" (min_intervals caps k there)
    if not jobs or not servers or any(jb["k"] < 1 or jb["k"] >= T - jb["a"] + 1
                                      for jb in jobs):
        return {**out, "solve_s": time.perf_counter() - t0}
    C = {r: sum(((Fraction(s.capacity[r]) + TOL) * MARGIN for s in servers), Fraction(0))
         for r in RESOURCES}
    beta = _lp_prices(jobs, T, C, threads or 1)
    if beta is None:
        return {**out, "lp": "not optimal", "solve_s": time.perf_counter() - t0}
    total = _dual_value(jobs, T, C, beta)
    avg = float(math.ceil(total)) / len(jobs)
    out.update(dual_value=float(total) / len(jobs), solve_s=time.perf_counter() - t0)
    if avg > out["bound"]:
        out.update(bound=avg, source="volume")
    return out

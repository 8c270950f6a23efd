"""OASiS's theory checked on a run: Theorem 4's bound 2 alpha and Lemma 2 along the run.

Seed 000, Appendix E. After job i, P_i is the primal objective (14) (total utility of the jobs
admitted so far) and D_i the dual objective (19) as Alg. 1 leaves it:
``D_i = sum_{j <= i} mu_j + sum_{t,h,r} p_h^{r,i}(t) c_h^r + sum_{t,k,r} q_k^{r,i}(t) c_k^r``,
with mu_j the payoff computed at j's arrival and p^i, q^i the prices after job i.

* Lemma 2: ``P_i - P_{i-1} >= (D_i - D_{i-1}) / alpha`` for every job i (trivial for a rejected
  job: both sides are 0).  Its proof needs Definition 1, the allocation-cost relationship
  ``p^{i-1} (g^i - g^{i-1}) >= c / alpha (p^i - p^{i-1})`` per (t, server, r), which holds when
  a job's demand is small next to the capacity (the paper's w << c); we check both.
* Lemma 1 also needs ``D_0 <= OPT / 2``: certainly true when ``2 D_0 <= P_I`` (P_I <= OPT),
  certainly false when ``2 D_0 > opt_upper``; otherwise unknown.
* Theorem 4: OPT / ALG <= 2 alpha, checked with the upper end of what is known about OPT.

The prices are replayed from the run's schedule in decision order with the run's own price
parameters, so the check is independent of Alg. 1's internal arrays. Violations are reported,
never hidden: they point at a broken assumption (w not << c, D_0 too large) or at a bug.
"""
from __future__ import annotations

import math

import numpy as np

from ..workload import Workload
from .oasis import OasisRun

REL_TOL = 1e-9


def theory_checks(workload: Workload, run: OasisRun, *, opt_upper: float | None = None,
                  max_listed: int = 10) -> dict:
    params = run.params
    alpha = float(params.alpha)
    arr = workload.arrays
    T, R = workload.horizon, len(workload.resources)
    cap_w, cap_p = arr.cap_worker, arr.cap_ps
    w_pos = {workload.servers[s].id: n for n, s in enumerate(arr.worker_servers)}
    p_pos = {workload.servers[s].id: n for n, s in enumerate(arr.ps_servers)}
    g = np.zeros((T, len(cap_w), R))
    v = np.zeros((T, len(cap_p), R))
    p = params.worker_price(g, cap_w)
    q = params.ps_price(v, cap_p)
    d0 = float((p * cap_w).sum() + (q * cap_p).sum())

    alloc = run.schedule.allocations
    by_job = {job: rows for job, rows in alloc.groupby("job")} if len(alloc) else {}
    lemma_violations, alloc_cost_violations, checked = [], 0, 0
    primal = dual = 0.0
    worst_slack = math.inf
    for d in run.decisions:
        checked += 1
        if not d.admitted:
            continue
        i = workload.job_index[d.job]
        g_new, v_new = g.copy(), v.copy()
        for r in by_job.get(d.job, ()).itertuples(index=False) if d.job in by_job else ():
            if r.role == "worker":
                g_new[r.slot - 1, w_pos[r.server]] += r.count * arr.worker_demand[i]
            else:
                v_new[r.slot - 1, p_pos[r.server]] += r.count * arr.ps_demand[i]
        p_new, q_new = params.worker_price(g_new, cap_w), params.ps_price(v_new, cap_p)
        d_dual = d.payoff + float(((p_new - p) * cap_w).sum() + ((q_new - q) * cap_p).sum())
        d_primal = d.utility
        slack = d_primal - d_dual / alpha
        worst_slack = min(worst_slack, slack)
        if slack < -REL_TOL * max(1.0, abs(d_dual)):
            lemma_violations.append({"job": d.job, "dP": d_primal, "dD": d_dual,
                                     "dD_over_alpha": d_dual / alpha})
        # Definition 1, per (slot, server, resource) touched by this job
        for old_p, new_p, old_u, new_u, cap in ((p, p_new, g, g_new, cap_w),
                                                (q, q_new, v, v_new, cap_p)):
            lhs = old_p * (new_u - old_u)
            rhs = cap[None] / alpha * (new_p - old_p)
            alloc_cost_violations += int(np.sum(lhs < rhs - REL_TOL * np.maximum(1.0, rhs)))
        g, v, p, q = g_new, v_new, p_new, q_new
        primal += d_primal
        dual += d_dual

    final = primal
    if 2 * d0 <= final * (1 + REL_TOL):
        d0_condition = "holds"
    elif opt_upper is not None and 2 * d0 > opt_upper * (1 + REL_TOL):
        d0_condition = "violated"
    else:
        d0_condition = "unknown"
    bound = 2 * alpha
    if opt_upper is None or not math.isfinite(opt_upper):
        ratio_upper = None
    elif final > 0:
        ratio_upper = opt_upper / final
    else:
        ratio_upper = 1.0 if opt_upper <= 0 else math.inf
    return {
        "alpha": alpha, "competitive_bound": bound,
        "ratio_upper": None if ratio_upper is None or math.isinf(ratio_upper) else ratio_upper,
        "within_bound": None if ratio_upper is None else bool(ratio_upper <= bound),
        "lemma_checked": checked, "lemma_violations": len(lemma_violations),
        "lemma_worst_slack": None if math.isinf(worst_slack) else worst_slack,
        "lemma_violating_jobs": lemma_violations[:max_listed],
        "allocation_cost_violations": alloc_cost_violations,
        "D0": d0, "D_final": d0 + dual, "P_final": final, "d0_condition": d0_condition,
    }

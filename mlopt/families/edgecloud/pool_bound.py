"""``pool_lb``: a certified lower bound on the optimal total JCT from the edge worker pools,
with a Lagrangian (dual) certificate evaluated in exact rational arithmetic.

Notation (:mod:`.fields`): job j arrives at r_j, has D_j chunks of p_j = ``p_edge`` slots each
(mode zeta_j = 0) or ``p_cloud`` <= p_j slots (zeta_j = 1, the whole job in the cloud);
H_j = r_j + Delta_{j,cloud} + p_cloud - 1 (:meth:`EdgeCloud.horizon_bound`), h_j = H_j - r_j.
Pool tau = all edge workers of type tau (M_tau of them, over every edge server); job j may use
only the pool of its worker type.

THEOREM.  Every schedule the checker accepts (speed 1) has total JCT >= B, where

    B = sum_j h_j - sum_tau U_tau,

and U_tau is any upper bound on the optimum of the LP (P_tau) below (here: its value at a dual
solution, weak duality).  Proof, for a checked schedule with completions c_j:

1. Every job falls in one of two cases.  (a) Some chunk of j trains in the cloud: that chunk
   starts at r_j + Delta_{j,cloud} or later ((2i)) and takes p_cloud slots if zeta_j = 1, p_j >=
   p_cloud slots if zeta_j = 0 (the checker's ``c2b_work_covered``), so c_j >= H_j and JCT_j >=
   h_j.  (b) Every chunk of j trains on edge workers of pool tau(j) (``c2a_eligibility``); then
   zeta_j = 0 and each chunk needs p_j slots.  Let S be the jobs of case (b) with c_j < H_j;
   every other job has JCT_j >= h_j, so  total JCT >= sum_j h_j - sum_{j in S} (H_j - c_j).
   A job with e_j + ceil(D_j / M_tau) p_j - 1 >= H_j (e_j as in step 2) is never in S: some
   worker of its pool trains >= ceil(D_j / M_tau) of its pinned chunks, p_j slots each, all
   from e_j on, so c_j >= H_j.  Such jobs get no arcs below.
2. For j in S keep, of each chunk, its first p_j trained slots, and let w_jt be the number of
   j's kept chunk-slots in slot t.  Then: sum_t w_jt = V_j := D_j p_j; w_jt = 0 unless e_j <= t
   <= c_j <= H_j - 1, e_j = r_j + min over servers s with a tau(j) worker of Delta_js ((2i));
   w_jt <= k_j := min(D_j, M_tau) (``c4e_one_worker_per_chunk``: a chunk on one worker per
   slot; a pool has M_tau workers); and sum_{j in S, tau(j) = tau} w_jt <= M_tau
   (``c2d_worker_capacity``: one chunk per worker per slot).
3. Mass V_j in slots <= c_j with at most k_j per slot has its mean slot at most
   c_j - (n_j - 1)/2, n_j = V_j / k_j (fill c_j, c_j - 1, ... with k_j each: with n_j = a + f,
   a integer, 0 <= f < 1, the mean lies a(a-1)/2 + fa over n_j below c_j, which is
   >= (a+f)(a+f-1)/2 over n_j because f^2 <= f).  Hence
   H_j - c_j <= H_j - mean - (n_j - 1)/2 = sum_t w_jt g_jt,  g_jt = (H_j - t - (n_j - 1)/2) / V_j.
4. So sum_{j in S} (H_j - c_j) <= the value of w (with x_j = 1 for j in S) in
       (P_tau)  max sum_{j,t} g_jt w_jt   s.t.  sum_t w_jt <= V_j  (each job),
                sum_j w_jt <= M_tau (each slot),  0 <= w_jt <= k_j,
   over arcs e_j <= t <= H_j - 1 (arcs with g_jt <= 0 can be dropped: zeroing them keeps w
   feasible and does not lower the objective).  Summed over pools, <= sum_tau OPT(P_tau).
5. Weak duality: for any beta_t >= 0 (slot prices) and alpha_j >= 0 (job prices),
       OPT(P_tau) <= sum_t M_tau beta_t + sum_j [V_j alpha_j
                                               + k_j sum_t (g_jt - beta_t - alpha_j)^+],
   since (alpha, beta, gamma_jt = (g_jt - beta_t - alpha_j)^+) is dual feasible.
   So B is valid for EVERY beta >= 0; the LP solver only picks a good beta (the magnitudes of
   HiGHS's slot-row duals, read as exact rationals), and the right-hand side is evaluated in
   exact rational arithmetic (:class:`fractions.Fraction`), alpha_j at its 1-D minimizer (the
   ceil(n_j)-th largest g_jt - beta_t, clipped at 0; any alpha_j >= 0 would be valid).
   Totals of JCT are integers, so ceil(B) is a bound too.  No solver tolerance enters B: the
   bound is a theorem with a dual certificate (``solver=False``).

What it ignores (so it stays a relaxation): per-server worker counts and delays (pooled over
servers, each job released at its nearest server's delay), PS capacity (a cloud PS is always
available to an edge job), chunk pinning and storage.  It charges a job that uses the cloud its
full h_j, and an edge job its position in the pool plus half its own length, which is where it
beats ``flow_lb`` (fractional flow time charges the mean slot only).
"""
from __future__ import annotations

import math
import time
from fractions import Fraction

import numpy as np

from mlopt.families.edgecloud.fields import EdgeCloud
from mlopt.workload import Workload


def _pools(ec: EdgeCloud) -> dict[str, dict]:
    """Per worker type: M (workers), and per job of that type its arc data."""
    pools: dict[str, dict] = {}
    for typ, workers in sorted(ec._by_type.items()):
        servers = {w.server for w in workers}
        pools[typ] = {"M": len(workers), "servers": servers, "jobs": []}
    for jv in ec.jobs:
        pool = pools[jv.worker_type]
        M = pool["M"]
        H = ec.horizon_bound(jv)
        e = jv.arrival + min(jv.delay[s] for s in pool["servers"])
        V = jv.chunks * jv.p_edge
        k = min(jv.chunks, M)
        n = Fraction(V, k)
        # g_jt = (H - t - (n - 1)/2) / V > 0  <=>  t < H - (n - 1)/2; t <= H - 1 as well
        last = min(H - 1, math.ceil(H - (n - 1) / 2) - 1)
        if e + math.ceil(jv.chunks / M) * jv.p_edge - 1 >= H:
            last = e - 1  # never in S (docstring, step 1): no arcs
        pool["jobs"].append({"j": jv.index, "H": H, "e": e, "V": V, "k": k, "n": n,
                             "slots": range(e, last + 1)})
    return pools


def _g(job: dict, t: int) -> Fraction:
    return (job["H"] - t - (job["n"] - 1) / 2) / job["V"]


def _lp_duals(pool: dict, threads: int) -> dict[int, float]:
    """Slot prices beta_t from HiGHS's optimum of (P_tau) (any beta >= 0 is valid)."""
    import highspy

    from mlopt.solvers.quiet_highs import quiet_highs, run_highs

    jobs = [jb for jb in pool["jobs"] if len(jb["slots"])]
    slots = sorted({t for jb in jobs for t in jb["slots"]})
    if not slots:
        return {}
    row_of = {t: len(jobs) + i for i, t in enumerate(slots)}
    cost, upper, starts, index, value = [], [], [], [], []
    for i, jb in enumerate(jobs):
        half, V = (float(jb["n"]) - 1) / 2, float(jb["V"])  # floats: the LP only picks beta
        for t in jb["slots"]:
            starts.append(len(index))
            index += [i, row_of[t]]
            value += [1.0, 1.0]
            cost.append((jb["H"] - t - half) / V)
            upper.append(float(jb["k"]))
    inf = highspy.kHighsInf
    h = quiet_highs()
    h.setOptionValue("threads", int(threads))
    h.changeObjectiveSense(highspy.ObjSense.kMaximize)
    n_rows = len(jobs) + len(slots)
    row_hi = np.array([float(jb["V"]) for jb in jobs] + [float(pool["M"])] * len(slots))
    h.addRows(n_rows, np.full(n_rows, -inf), row_hi, 0, np.zeros(0, dtype=np.int32),
              np.zeros(0, dtype=np.int32), np.zeros(0))
    h.addCols(len(cost), np.array(cost), np.zeros(len(cost)), np.array(upper), len(index),
              np.array(starts, dtype=np.int32), np.array(index, dtype=np.int32),
              np.array(value))
    run_highs(h)  # retried on a fresh thread pool if HiGHS refuses the thread count
    if h.getModelStatus() != highspy.HighsModelStatus.kOptimal:
        return {}  # beta = 0 is still valid (a weaker bound)
    dual = np.abs(np.asarray(h.getSolution().row_dual, dtype=float))  # sign: HiGHS's sense
    return {t: float(dual[row_of[t]]) for t in slots}


def _dual_value(pool: dict, beta: dict[int, float]) -> Fraction:
    """The weak-duality bound of step 5, exactly, for slot prices ``beta`` (clipped at 0)."""
    b = {t: Fraction(max(0.0, v)) for t, v in beta.items()}
    total = sum((pool["M"] * v for v in b.values()), Fraction(0))
    for jb in pool["jobs"]:
        u = sorted((_g(jb, t) - b.get(t, Fraction(0)) for t in jb["slots"]), reverse=True)
        u = [x for x in u if x > 0]
        if not u:
            continue
        q = math.ceil(jb["n"])  # the 1-D minimizer over alpha: the q-th largest price
        alpha = u[q - 1] if q <= len(u) else Fraction(0)
        total += jb["V"] * alpha + jb["k"] * sum((x - alpha for x in u if x > alpha),
                                                 Fraction(0))
    return total


def pool_lb(workload: Workload, *, threads: int | None = 1, lp: bool = True, **_ignored) -> dict:
    """Certified lower bound on the optimal total JCT (module docstring: the theorem).

    ``lp`` False skips the LP and prices every slot at 0 (each job alone on its pool)."""
    t0 = time.perf_counter()
    ec = EdgeCloud(workload)
    base = sum(ec.horizon_bound(jv) - jv.arrival for jv in ec.jobs)
    saving = Fraction(0)
    for pool in _pools(ec).values():
        beta = _lp_duals(pool, threads or 1) if lp else {}
        saving += _dual_value(pool, beta)
    raw = base - saving
    return {"bound": float(math.ceil(raw)), "raw_bound": float(raw), "status": "ok",
            "cloud_total": base, "solve_s": time.perf_counter() - t0}

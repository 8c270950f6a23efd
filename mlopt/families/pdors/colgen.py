"""A certified upper bound on the DMLRS optimum (seed 004) by column generation on the LP of
R-DMLRS (8), with PD-ORS's DP (Alg. 2/3, :mod:`.dp`) over the per-slot oracle (Alg. 4,
:mod:`.oracle`) as pricing.

R-DMLRS (8): one variable x_il per job i and schedule l in L_i (a full placement of i over its
slots, feasible for (4)-(7) with Fact 1's speed rule), utility u_il; rows
sum_l x_il <= 1 (dual mu_i) and, per slot t, machine h and resource r, the shared capacity
sum_il (alpha_i^r w_ilht + beta_i^r s_ilht) x_il <= C_h^r (dual p_h^r(t)).

Loop: solve the restricted master LP over the columns found so far (one HiGHS object, columns
appended); read its duals (p, mu) clipped at >= 0; price every job twice:

1. **bound pricing (a relaxation)**: the DP of :func:`.dp.best_schedule` over the per-slot costs
   ``theta_lb(t, j)`` of :class:`RelaxedSlotOracle`; its best payoff
   ``lambda_i(p) >= max_l [u_il - cost_il(p)]`` over ALL schedules l in L_i (below).  Then
   ``D(p) = sum_i max(0, lambda_i(p)) + sum_{t,h,r} p_h^r(t) C_h^r >= OPT`` for any p >= 0:
   for an optimal schedule, OPT = sum_i u_i = sum_i [u_i - cost_i(p)] + sum p * usage
   <= sum_i max(0, lambda_i(p)) + sum p C (usage <= C, p >= 0, non-admitted jobs add 0).  This
   is the Lagrangian bound (equal to master LP value + sum_i max(0, reduced cost_i) at the LP
   duals when pricing is exact); it needs neither LP optimality nor accurate duals, so the
   smallest D seen is kept and stays valid when the loop stops at a time / round limit;
2. **column pricing (a restriction)**: PD-ORS's own DP with the exact per-slot oracle
   (``oracle="exact"``, ceil worker demands on the grid) on the empty cluster; its schedule is
   a real member of L_i, added when its reduced cost u - cost(p) - mu_i is positive.

Why the grid needs the relaxation.  PD-ORS's DP lets a slot do j/G of the job with
D = ceil(j n / G) workers, a *restriction*: its best payoff can be below the true best, and a
Lagrangian bound from it would be invalid.  :class:`RelaxedSlotOracle` instead charges j units
the cost of the cheapest placement that does *more than (j - 1)/G* of the work: demand
D' = floor((j - 1) n / G) + 1 workers (n = n^int or n^ext by mode), the internal case priced
exactly and the external IP (23)-(26) replaced by its LP relaxation (a lower bound).  Mapping a
real schedule doing v_t of the work in slot t (sum v_t >= 1) to j_t = min(G, ceil(G v_t))
units: v_t > (j_t - 1)/G so the slot's workers are >= D'(j_t) and its cost >= theta_lb(t, j_t);
sum j_t >= G, and lowering some j_t to reach exactly G only lowers theta_lb (non-decreasing in
j: demands are, and both cases minimise over "at least D workers").  So the DP's
Theta_lb(t~, G) <= the real schedule's cost and lambda_i >= its payoff.  Float safety: D' is
computed with a -1e-9 slack (errors can only lower it) and the LP costs are lowered by
1e-9 (1 + |c|).  The bound is then also capped by :func:`.theory.job_sum_bound` (both valid).

The gap D - (master LP value) has two sources: the restricted columns (grid restriction, and
LP duals of a degenerate master) and the relaxed pricing (a finer ``grid`` tightens it).
Stabilization: every round also prices at the smoothed point alpha*center + (1-alpha)*p_LP
(Wentges, ``smoothing``), center = the best certificate's point; both are points of the dual.

Not reused from OASiS's ``colgen``: its ``MasterLP`` is built around OASiS's columns (separate
worker and PS server pools, lazy rows for ~26k rows at 100 jobs); PD-ORS's columns live on one
shared pool and the instances this bound targets are small, so a plain master with all rows is
used here.  The certificate logic (best D over priced points, time-limit semantics) follows it.
"""
from __future__ import annotations

import math
import time
from typing import Any

import highspy
import numpy as np

from mlopt.errors import InputError
from mlopt.families.pdors.dp import best_schedule
from mlopt.families.pdors.fields import pdors_arrays, validate_pdors
from mlopt.families.pdors.oracle import SlotOracle, SlotPlan, new_highs
from mlopt.families.pdors.prices import schedulable
from mlopt.families.pdors.theory import job_sum_bound
from mlopt.workload import Workload

INF = highspy.kHighsInf
SAFETY = 1e-9


class RelaxedSlotOracle(SlotOracle):
    """theta_lb(t, j): a lower bound on the cost of any placement doing > (j-1)/G of the job."""

    def __init__(self, **kw):
        super().__init__(oracle="rounding", **kw)  # "rounding": the ExternalLP is continuous

    def demands(self, n: float) -> np.ndarray:
        j = np.arange(self.grid + 1)
        d = np.floor((j - 1) * n / self.grid - SAFETY) + 1
        d[0] = 0
        return np.maximum(d, 0).astype(int)

    def _external(self, demand, pw, ps, free) -> SlotPlan | None:
        self.stats.lp_solves += 1
        sol = self.lp.solve(demand)
        if sol is None:
            self.lp_infeasible = True  # infeasible LP: no placement with >= demand workers
            return None
        cost, w, s = sol
        return SlotPlan(cost - SAFETY * (1.0 + abs(cost)), w, s, "ext")


class _Pricer:
    """Both pricings of one job on the empty cluster."""

    def __init__(self, workload: Workload, arr, i: int, grid: int, column_grid: int):
        H = len(arr.server_ids)
        kw = dict(alpha=arr.alpha[i], beta=arr.beta[i], F=int(arr.batch[i]),
                  gamma=int(arr.gamma[i]), n_int=arr.n_int[i], n_ext=arr.n_ext[i], H=H,
                  rng=np.random.default_rng(0))
        self.relaxed = RelaxedSlotOracle(grid=grid, **kw)
        self.exact = SlotOracle(grid=column_grid, oracle="exact", **kw)
        self.grid, self.column_grid = grid, column_grid
        self.i, self.a = i, int(arr.arrival[i])
        self.job = workload.jobs[i]
        self.cap = arr.cap
        self.T = workload.horizon

    def bound(self, price: np.ndarray) -> float:
        theta = {t: self.relaxed.slot(price[t - 1], self.cap)[0]
                 for t in range(self.a, self.T + 1)}
        return best_schedule(theta, self.a, self.T, self.grid, self.job.utility).payoff

    def column(self, price: np.ndarray) -> dict[int, SlotPlan] | None:
        theta, plans = {}, {}
        for t in range(self.a, self.T + 1):
            theta[t], plans[t] = self.exact.slot(price[t - 1], self.cap)
        res = best_schedule(theta, self.a, self.T, self.column_grid, self.job.utility)
        if res.end_slot is None:
            return None
        return {t: plans[t][j] for t, j in res.units.items()}


class _Master:
    """Restricted master LP of R-DMLRS (8): rows 0..I-1 are sum_l x_il <= 1, then one capacity
    row per (t, h, r)."""

    def __init__(self, arr, T: int, threads: int):
        self.arr, self.T = arr, T
        self.I, (self.H, self.R) = len(arr.arrival), arr.cap.shape
        h = new_highs()
        h.setOptionValue("threads", int(threads))
        h.changeObjectiveSense(highspy.ObjSense.kMaximize)
        caps = np.broadcast_to(arr.cap, (T, self.H, self.R)).reshape(-1)
        lo = np.full(self.I + caps.size, -INF)
        up = np.concatenate([np.ones(self.I), caps])
        h.addRows(len(lo), lo, up, 0, np.zeros(len(lo), dtype=np.int32),
                  np.zeros(0, dtype=np.int32), np.zeros(0))
        self.h = h
        self.columns: list[dict[str, Any]] = []
        self.keys: set[bytes] = set()

    def usage(self, i: int, plans: dict[int, SlotPlan]) -> np.ndarray:
        u = np.zeros((self.T, self.H, self.R))
        for t, p in plans.items():
            u[t - 1] = np.outer(p.w, self.arr.alpha[i]) + np.outer(p.s, self.arr.beta[i])
        return u

    def add(self, i: int, utility: float, use: np.ndarray, end: int) -> bool:
        key = bytes([i % 256]) + np.int64(i).tobytes() + use.tobytes()
        if key in self.keys:
            return False
        flat = use.reshape(-1)
        nz = np.flatnonzero(flat > 0)
        idx = np.concatenate([[i], self.I + nz]).astype(np.int32)
        val = np.concatenate([[1.0], flat[nz]])
        self.h.addCol(float(utility), 0.0, INF, len(idx), idx, val)
        self.columns.append({"job": i, "utility": float(utility), "use": use, "end": end})
        self.keys.add(key)
        return True

    def solve(self, time_limit: float) -> dict[str, Any] | None:
        self.h.setOptionValue("time_limit", self.h.getRunTime() + max(0.05, time_limit))
        self.h.run()
        if self.h.getModelStatus() != highspy.HighsModelStatus.kOptimal:
            return None
        sol = self.h.getSolution()
        dual = np.maximum(np.asarray(sol.row_dual, dtype=float), 0.0)
        return {"value": float(self.h.getInfo().objective_function_value),
                "mu": dual[:self.I], "p": dual[self.I:].reshape(self.T, self.H, self.R),
                "x": np.asarray(sol.col_value, dtype=float)}


def _grid(name: str, value) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise InputError("must be an integer >= 1", field=name, value=value)
    return int(value)


def colgen_bound(workload: Workload, *, time_limit: float = 60.0, grid: int = 100,
                 column_grid: int = 20, max_iterations: int | None = None,
                 smoothing: float = 0.5, threads: int = 1, **_) -> dict[str, Any]:
    """Certified upper bound on OPT(DMLRS) (see the module docstring).  Returns the harness's
    bound dict: ``bound`` (best certificate, capped by ``job_sum``), ``status``
    (``converged``: no column with positive reduced cost at the last LP duals, ``limit``: time
    or round limit, ``lp_limit``: the master LP itself hit the limit), ``lp_value`` (the last
    restricted master LP value: a lower bound on LP(8), not on OPT) and a per-round log."""
    validate_pdors(workload)
    grid, column_grid = _grid("grid", grid), _grid("column_grid", column_grid)
    if not 0.0 <= smoothing < 1.0:
        raise InputError("must be in [0, 1)", field="smoothing", value=smoothing)
    start = time.perf_counter()
    arr = pdors_arrays(workload)
    T, (H, R) = workload.horizon, arr.cap.shape
    capsum = np.broadcast_to(arr.cap, (T, H, R))
    ok = schedulable(workload, arr)
    pricers = [_Pricer(workload, arr, i, grid, column_grid) for i in np.flatnonzero(ok)]
    master = _Master(arr, T, threads)
    js = job_sum_bound(workload)["bound"]

    def over() -> bool:
        return time.perf_counter() - start >= time_limit

    def certificate(price: np.ndarray) -> float | None:
        total = float(np.sum(price * capsum))
        for pr in pricers:
            if over():
                return None  # a partial pass is no certificate
            total += max(0.0, pr.bound(price))
        return total

    zero = np.zeros((T, H, R))
    c0 = certificate(zero)  # p = 0: every job at its fastest relaxed duration
    best, best_point, center = (math.inf, None, None) if c0 is None else (c0, "zero", zero)
    for pr in pricers:  # initial columns: each job's fastest schedule
        plans = pr.column(zero)
        if plans:
            end = max(plans)
            master.add(pr.i, float(pr.job.utility(end - pr.a)), master.usage(pr.i, plans), end)
    status, rounds, log, lp_value = "limit", 0, [], None
    while not over() and (max_iterations is None or rounds < max_iterations):
        lp = master.solve(time_limit - (time.perf_counter() - start))
        if lp is None:
            status = "lp_limit"
            break
        lp_value = lp["value"]
        rounds += 1
        points = [("lp", lp["p"])]
        if center is not None and smoothing > 0:
            points.insert(0, ("smoothed", smoothing * center + (1 - smoothing) * lp["p"]))
        certs = {}
        for name, p in points:
            c = certificate(p)
            if c is None:
                break
            certs[name] = c
            if c < best:
                best, best_point, center = c, name, p
        added = 0
        for pr in pricers:
            if over():
                break
            plans = pr.column(lp["p"])
            if not plans:
                continue
            use = master.usage(pr.i, plans)
            end = max(plans)
            util = float(pr.job.utility(end - pr.a))
            rc = util - float(np.sum(lp["p"] * use)) - lp["mu"][pr.i]
            if rc > 1e-7 * max(1.0, util):
                added += master.add(pr.i, util, use, end)
        log.append({"round": rounds, "lp_value": lp_value, "certificates": certs,
                    "best": best, "added": added, "columns": len(master.columns),
                    "elapsed_s": time.perf_counter() - start})
        if added == 0 and not over():
            status = "converged"
            break
    bound = min(best, js)
    return {"bound": float(bound), "status": status, "lp_value": lp_value,
            "certificate": None if math.isinf(best) else float(best),
            "best_point": best_point if best <= js else "job_sum", "job_sum": js,
            "rounds": rounds, "columns": len(master.columns), "grid": grid,
            "column_grid": column_grid, "seconds": time.perf_counter() - start, "log": log}

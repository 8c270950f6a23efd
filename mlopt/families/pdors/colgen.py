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
Checker slack (DECISION in :mod:`mlopt.tolerance`): a checked schedule may load C_h^r up to
C (1 + 1e-9) + 1e-9, so the relaxed pricing and the term sum p C use that load
(:func:`.fields.capacity_limits`; exact C on integer data), and a schedule doing 1 - 1e-9 of a
job is mapped to units summing to G all the same (sum_t ceil(G v_t) >= G (1 - 1e-9) > G - 1 for
G < 1e9).

The gap D - (master LP value) has two sources: the restricted columns (grid restriction, and
LP duals of a degenerate master) and the relaxed pricing (a finer ``grid`` tightens it).
Stabilization: every round also prices at the smoothed point alpha*center + (1-alpha)*p_LP
(Wentges, ``smoothing``), center = the best certificate's point; both are points of the dual.

Finer pricing where it matters (``fine_grid``).  The relaxed grid over-credits each slot by
less than 1/G of the work, so a job that needs many slots may "finish" one slot early in the
relaxation, or finish at all when no real schedule can (15-job ``paper-fig6``, seed 0: one job
worth 65 in the relaxation, 0 in reality; the bound 529.6 against PD-ORS's 464.6).  Each
certificate therefore re-prices, largest excess first and while time allows, the jobs whose
relaxed payoff exceeds the real payoff of the column priced at the same point on a finer grid,
and keeps the smaller of the two payoffs: both are >= every real schedule's payoff, so the
certificate stays valid, however many jobs were re-priced when time ran out.  At zero prices
(p = 0, and every slot whose capacity rows have zero duals) the relaxed oracle needs one LP per
slot state instead of one per demand (:meth:`RelaxedSlotOracle._free_external`).

Validity at every iteration: each certificate is D(p) at some p >= 0 with every lambda_i an
upper bound on job i's best payoff, so the smallest D seen is a bound whenever the loop stops
(time, rounds, or the LP itself stopped); it never relies on LP optimality or on the column
pricing (which only adds real columns).

Primal side (``primal=True``): the columns of PD-ORS's own schedule join the master (``warm``),
and after column generation :mod:`.master_primal` returns the best checked schedule over the
master's columns (restricted 0/1 master warm-started from them, a dive with re-pricing, local
search with insertion on residual capacities); ``bracket`` lists it as ``colgen schedule``.

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
from mlopt.families.pdors.columns import Column, ColumnPool
from mlopt.families.pdors.dp import best_schedule
from mlopt.families.pdors.fields import capacity_limits, pdors_arrays, validate_pdors
from mlopt.families.pdors.oracle import ExternalLP, SlotOracle, SlotPlan, new_highs
from mlopt.families.pdors.prices import schedulable
from mlopt.families.pdors.theory import job_sum_bound
from mlopt.workload import Workload
from mlopt.solvers.quiet_highs import run_highs

INF = highspy.kHighsInf
SAFETY = 1e-9


class RelaxedSlotOracle(SlotOracle):
    """theta_lb(t, j): a lower bound on the cost of any placement doing > (j-1)/G of the job."""

    def __init__(self, **kw):
        super().__init__(oracle="rounding", **kw)  # "rounding": the ExternalLP is continuous
        self._maxer: ExternalLP | None = None
        self._dmax: dict[bytes, tuple | None] = {}

    def demands(self, n: float) -> np.ndarray:
        """Return the integer worker demand at each grid share 0..G of n worker-slots."""
        j = np.arange(self.grid + 1)
        d = np.floor((j - 1) * n / self.grid - SAFETY) + 1
        d[0] = 0
        return np.maximum(d, 0).astype(int)

    def _external(self, demand, pw, ps, free) -> SlotPlan | None:
        if not (np.any(pw) or np.any(ps)):
            return self._free_external(demand, free)
        self.stats.lp_solves += 1
        sol = self.lp.solve(demand)
        if sol is None:
            self.lp_infeasible = True  # infeasible LP: no placement with >= demand workers
            return None
        cost, w, s = sol
        return SlotPlan(cost - SAFETY * (1.0 + abs(cost)), w, s, "ext")

    def _free_external(self, demand, free) -> SlotPlan | None:
        """Zero prices (p = 0, and every slot whose capacity rows have zero duals): the LP's
        cost is 0 wherever it is feasible, and it is feasible iff demand <= the LP's largest
        worker count (the cover row is the only one the demand moves).  One LP per slot state
        instead of one per demand; the float margin (1e-6, HiGHS's feasibility tolerance) errs
        on the feasible side, which only lowers theta_lb."""
        key = free.tobytes()
        if key not in self._dmax:
            if self._maxer is None:
                self._maxer = ExternalLP(self.alpha, self.beta, self.H, self.F, self.gamma)
            self._maxer.set_slot(-np.ones(self.H), np.zeros(self.H), free)
            self.stats.lp_solves += 1
            sol = self._maxer.solve(0)
            self._dmax[key] = None if sol is None else (-sol[0], sol[1], sol[2])
        got = self._dmax[key]
        if got is None or demand > got[0] + 1e-6:
            self.lp_infeasible = True  # monotone: larger demands are infeasible too
            return None
        return SlotPlan(-SAFETY, got[1], got[2], "ext")


class _Pricer:
    """Both pricings of one job on the empty cluster."""

    def __init__(self, workload: Workload, arr, i: int, grid: int, column_grid: int,
                 fine_grid: int | None = None, limit: np.ndarray | None = None):
        H = len(arr.server_ids)
        kw = dict(alpha=arr.alpha[i], beta=arr.beta[i], F=int(arr.batch[i]),
                  gamma=int(arr.gamma[i]), n_int=arr.n_int[i], n_ext=arr.n_ext[i], H=H,
                  rng=np.random.default_rng(0))
        self.relaxed = RelaxedSlotOracle(grid=grid, **kw)
        self.exact = SlotOracle(grid=column_grid, oracle="exact", **kw)
        self.fine = RelaxedSlotOracle(grid=fine_grid, **kw) if fine_grid else None
        # placements on residual capacities: PD-ORS's own LP + rounding (its plans are checked
        # against the free capacity), far cheaper than the exact IP per slot state
        self.fitter = SlotOracle(grid=grid, oracle="rounding", **kw)
        self.grid, self.column_grid = grid, column_grid
        self.i, self.a = i, int(arr.arrival[i])
        self.job = workload.jobs[i]
        self.cap = arr.cap  # real columns: exact capacities
        # the relaxed pricing: the load the checker accepts (a relaxation of checked schedules)
        self.limit = capacity_limits(arr) if limit is None else limit
        self.T = workload.horizon

    def bound(self, price: np.ndarray) -> float:
        theta = {t: self.relaxed.slot(price[t - 1], self.limit)[0]
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

    def fine_bound(self, price: np.ndarray) -> float:
        """The relaxed payoff on the finer grid (also >= every real schedule's payoff)."""
        if self.fine is None:
            return math.inf
        theta = {t: self.fine.slot(price[t - 1], self.limit)[0]
                 for t in range(self.a, self.T + 1)}
        return best_schedule(theta, self.a, self.T, self.fine.grid, self.job.utility).payoff

    def as_column(self, pool: ColumnPool, plans, source: str) -> Column | None:
        if not plans:
            return None
        end = max(plans)
        return pool.make(self.i, {t: (p.w, p.s) for t, p in plans.items()},
                         float(self.job.utility(end - self.a)), source)

    def fit(self, pool: ColumnPool, left: np.ndarray, lean: bool = True) -> Column | None:
        """A column of this job inside the flat residual ``left``, None when it cannot finish
        by T: the pricing DP (PD-ORS's rounding oracle) under *lean* prices lam / C.

        DECISION (a heuristic, not in seed 004): utilities fall slowly with completion time,
        so the earliest completion (what tiny prices buy) takes many external workers and
        leaves no room for the next job.  lam is set so that doing the whole job internally
        costs 5% of u_i(0): the DP then gives up a little utility for a placement that uses far
        fewer resources (external work needs n_ext / n_int times more worker-slots).
        ``lean=False``: tiny prices only (the earliest completion that fits)."""
        free = np.maximum(left.reshape(self.T, *self.cap.shape), 0.0)
        u0 = float(self.job.utility(0))
        if u0 <= 0:
            return None
        frac = np.where(self.cap > 0, 1.0 / np.where(self.cap > 0, self.cap, 1.0), 0.0)
        orc = self.fitter
        per_worker = float(np.max(frac @ (orc.alpha + orc.beta / orc.gamma)))
        lean_price = 0.05 * u0 / max(1e-12, orc.n_int * per_worker)
        # then tiny prices (any placement that fits) when the lean ones reject the job
        tiny = 1e-3 * u0 / (self.T * self.cap.size)
        for lam in ((lean_price, tiny) if lean else (tiny,)):
            theta, plans = {}, {}
            for t in range(self.a, self.T + 1):
                theta[t], plans[t] = orc.slot(lam * frac, free[t - 1])
            res = best_schedule(theta, self.a, self.T, orc.grid, self.job.utility)
            if res.end_slot is not None:
                return self.as_column(pool, {t: plans[t][k] for t, k in res.units.items()},
                                      "insert")
        return None


class _Master:
    """Restricted master LP of R-DMLRS (8): rows 0..I-1 are sum_l x_il <= 1, then one capacity
    row per (t, h, r); its columns are those of ``pool`` (one HiGHS column per pool column)."""

    def __init__(self, arr, T: int, threads: int):
        self.arr, self.T = arr, T
        self.I, (self.H, self.R) = len(arr.arrival), arr.cap.shape
        self.pool = ColumnPool(arr, T)
        h = new_highs()
        h.setOptionValue("threads", int(threads))
        h.changeObjectiveSense(highspy.ObjSense.kMaximize)
        lo = np.full(self.I + self.pool.cap.size, -INF)
        up = np.concatenate([np.ones(self.I), self.pool.cap])
        h.addRows(len(lo), lo, up, 0, np.zeros(len(lo), dtype=np.int32),
                  np.zeros(0, dtype=np.int32), np.zeros(0))
        self.h = h

    @property
    def columns(self) -> list[Column]:
        return self.pool.columns

    def add(self, col: Column | None) -> bool:
        if col is None or self.pool.add(col) is None:
            return False
        idx = np.concatenate([[col.job], self.I + col.idx]).astype(np.int32)
        val = np.concatenate([[1.0], col.val])
        self.h.addCol(float(col.utility), 0.0, INF, len(idx), idx, val)
        return True

    def solve(self, time_limit: float) -> dict[str, Any] | None:
        self.h.setOptionValue("time_limit", self.h.getRunTime() + max(0.05, time_limit))
        run_highs(self.h)
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
                 column_grid: int = 20, fine_grid: int | None = 400,
                 max_iterations: int | None = None, smoothing: float = 0.5, threads: int = 1,
                 primal: bool = True, primal_share: float = 0.4,
                 warm: str | None = "pdors", **_) -> dict[str, Any]:
    """Certified upper bound on OPT(DMLRS) (see the module docstring), and with ``primal`` the
    best checked schedule found on the master's columns (:mod:`.master_primal`).  Returns the
    harness's bound dict: ``bound`` (best certificate, capped by ``job_sum``), ``status``
    (``converged``: no column with positive reduced cost at the last LP duals, ``limit``: time
    or round limit, ``lp_limit``: the master LP itself hit the limit), ``lp_value`` (the last
    restricted master LP value: a lower bound on LP(8), not on OPT), a per-round log and, with
    ``primal``, ``schedule`` / ``primal`` (its checked objective and where it came from).

    ``fine_grid``: jobs whose relaxed payoff on ``grid`` exceeds the best real payoff priced at
    the same point are priced again on this finer grid and the smaller payoff is kept (both
    are >= every real schedule's payoff, so the minimum is too); None: never.  ``warm``:
    "pdors" adds PD-ORS's own schedule's columns (the restricted MIP's first incumbent);
    ``primal_share``: the part of ``time_limit`` kept for the primal heuristics."""
    validate_pdors(workload)
    grid, column_grid = _grid("grid", grid), _grid("column_grid", column_grid)
    if fine_grid is not None:
        fine_grid = _grid("fine_grid", fine_grid)
    if not 0.0 <= smoothing < 1.0:
        raise InputError("must be in [0, 1)", field="smoothing", value=smoothing)
    if isinstance(primal_share, bool) or not isinstance(primal_share, (int, float)) \
            or not 0.0 < primal_share < 1.0:
        raise InputError("must be in (0, 1)", field="primal_share", value=primal_share)
    if warm not in WARM:
        raise InputError(f"unknown warm start (known: {', '.join(map(str, WARM))})",
                         field="warm", value=warm)
    start = time.perf_counter()
    arr = pdors_arrays(workload)
    T, (H, R) = workload.horizon, arr.cap.shape
    limit = capacity_limits(arr)  # the load the checker accepts: D(p)'s sum p C
    capsum = np.broadcast_to(limit, (T, H, R))
    ok = schedulable(workload, arr)
    pricers = [_Pricer(workload, arr, i, grid, column_grid, fine_grid, limit)
               for i in np.flatnonzero(ok)]
    master = _Master(arr, T, threads)
    js = job_sum_bound(workload)["bound"]
    cg_end = start + time_limit * ((1.0 - primal_share) if primal else 1.0)

    def over() -> bool:
        return time.perf_counter() >= cg_end

    def relaxed(price: np.ndarray, until: float | None = None) -> dict[int, float] | None:
        """lambda_i(price) on the relaxed grid for every job, or None when the pass does not
        finish by ``until`` (default: the end of column generation; a partial pass is no
        certificate)."""
        until = cg_end if until is None else until
        lam = {}
        for pr in pricers:
            if time.perf_counter() >= until:
                return None
            lam[pr.i] = pr.bound(price)
        return lam

    def refined(price: np.ndarray, lam: dict[int, float], known: dict[int, float] | None,
                refine_share: float = 1.0) -> float:
        """D(price) from ``lam`` after the jobs whose relaxed payoff exceeds ``known`` (the
        real payoff of a column priced at ``price``, per job) the most are priced again on the
        fine grid, for ``refine_share`` of column generation's time left (at least 5% of the
        limit: the largest excesses come first); the smaller payoff is kept."""
        lam = dict(lam)
        known = known or {}
        excess = {i: v - known.get(i, 0.0) for i, v in lam.items()
                  if v > 0 and v - known.get(i, 0.0) > 1e-9 * max(1.0, v)}
        now = time.perf_counter()
        refine_until = now + refine_share * max(cg_end - now, 0.05 * time_limit)
        for pr in sorted(pricers, key=lambda pr: -excess.get(pr.i, 0.0)):
            if pr.i not in excess or time.perf_counter() >= refine_until:
                break
            lam[pr.i] = min(lam[pr.i], pr.fine_bound(price))
        return float(np.sum(price * capsum)) + sum(max(0.0, v) for v in lam.values())

    def certificate(price: np.ndarray, known: dict[int, float] | None = None) -> float | None:
        lam = relaxed(price)
        return None if lam is None else refined(price, lam, known)

    def price_all(price: np.ndarray) -> dict[int, Column]:
        out = {}
        for pr in pricers:
            if over():
                break
            col = pr.as_column(master.pool, pr.column(price), "price")
            if col is not None:
                out[pr.i] = col
        return out

    def payoffs(cols: dict[int, Column], price: np.ndarray) -> dict[int, float]:
        flat = price.reshape(-1)
        return {i: c.utility - float(c.val @ flat[c.idx]) for i, c in cols.items()}

    zero = np.zeros((T, H, R))
    # p = 0: every job alone on the cluster.  Its relaxed pass first (the bound's floor, cheap at
    # zero prices: it may run past column generation's share, not past the primal side's
    # second half), then each job's fastest column (exact pricing: the initial master), then
    # PD-ORS's columns (before the fine-grid pass: at paper-fig9 scale the refinement could take
    # all of column generation's share, and without PD-ORS's columns the primal side starts far
    # below PD-ORS), then the fine-grid pass on half of the time left (the rounds need the rest)
    lam0 = relaxed(zero, until=start + time_limit * (1.0 - 0.5 * primal_share if primal
                                                     else 1.0))
    best, best_point, center = (math.inf, None, None) if lam0 is None else \
        (refined(zero, lam0, {}, refine_share=0.0), "zero", zero)
    first = price_all(zero)
    for col in first.values():
        master.add(col)
    warm_cols, warm_note = _warm_columns(
        workload, master, warm, seconds=min(max(0.0, cg_end - time.perf_counter()),
                                            (cg_end - start) / 2))
    if lam0 is not None:
        best = min(best, refined(zero, lam0, payoffs(first, zero), refine_share=0.5))
    status, rounds, log, lp_value = "limit", 0, [], None
    while not over() and (max_iterations is None or rounds < max_iterations):
        lp = master.solve(cg_end - time.perf_counter())
        if lp is None:
            status = "lp_limit"
            break
        lp_value = lp["value"]
        rounds += 1
        cols = price_all(lp["p"])
        known = payoffs(cols, lp["p"]) if not over() else None
        points = [("lp", lp["p"], known)]
        if center is not None and smoothing > 0:
            points.insert(0, ("smoothed", smoothing * center + (1 - smoothing) * lp["p"], None))
        certs = {}
        for name, p, kn in points:
            c = certificate(p, kn)
            if c is None:
                break
            certs[name] = c
            if c < best:
                best, best_point, center = c, name, p
        added = 0
        flat = lp["p"].reshape(-1)
        for i, col in cols.items():
            rc = col.utility - float(col.val @ flat[col.idx]) - lp["mu"][i]
            if rc > 1e-7 * max(1.0, col.utility):
                added += master.add(col)
        log.append({"round": rounds, "lp_value": lp_value, "certificates": certs,
                    "best": best, "added": added, "columns": len(master.columns),
                    "elapsed_s": time.perf_counter() - start})
        if added == 0 and not over():
            status = "converged"
            break
    bound = min(best, js)
    out = {"bound": float(bound), "status": status, "lp_value": lp_value,
           "certificate": None if math.isinf(best) else float(best),
           "best_point": best_point if best <= js else "job_sum", "job_sum": js,
           "rounds": rounds, "columns": len(master.columns), "grid": grid,
           "column_grid": column_grid, "fine_grid": fine_grid, "log": log}
    if primal:
        from mlopt.alarm import alarm
        from mlopt.families.pdors.master_primal import best_schedule_on_master, result

        by_i = {pr.i: pr for pr in pricers}
        state: dict = {}
        # the phases watch their deadline, but one pricing or check cannot be cut short; the
        # alarm stops the Python side at 95% of the limit with the best schedule so far (a
        # bound method killed at its deadline by bracket would lose the bound as well)
        hard = start + 0.95 * time_limit - time.perf_counter()
        try:
            with alarm(max(0.05, hard), lambda: TimeoutError("primal side stopped")):
                res = best_schedule_on_master(
                    workload, master.pool, warm=warm_cols, bound=bound, threads=threads,
                    deadline=start + PRIMAL_END * time_limit, state=state,
                    price=lambda i, p: by_i[i].as_column(master.pool, by_i[i].column(
                        p.reshape(T, H, R)), "dive"),
                    insert=lambda i, left: by_i[i].fit(master.pool, left),
                    refit=lambda i, left: by_i[i].fit(master.pool, left, lean=False),
                    jobs=sorted(by_i))
        except TimeoutError:
            res = result(state, stopped=True)
        out["primal"] = {**res["info"], "warm": warm_note}
        out["schedule"] = res["schedule"]
    out["seconds"] = time.perf_counter() - start
    return out


#: the primal phases plan to end here (fraction of time_limit); the alarm stops them at 0.95
PRIMAL_END = 0.88
#: warm starts of the primal side: PD-ORS's own schedule, or none
WARM = ("pdors", None)


def _warm_columns(workload: Workload, master: _Master, warm: str | None, seconds: float,
                  quick_grid: int = 20) -> tuple[list[int], str]:
    """The columns of PD-ORS's schedules, added to the master: first on a coarse DP grid
    (``quick_grid``: about five times faster, within a few per mille at paper-fig9), then with
    default options (seed 0, as ``bracket`` runs it), each stopped at what is left of
    ``seconds``; returns the columns of the better checked one."""
    if warm is None:
        return [], "no warm start"
    from mlopt.alarm import alarm
    from mlopt.families.pdors.checker import check_pdors
    from mlopt.families.pdors.online import pdors_online

    end = time.perf_counter() + seconds
    best, notes = (-1.0, []), []
    for label, opts in ((f"grid {quick_grid}", {"grid": quick_grid}), ("default", {})):
        left = end - time.perf_counter()
        if left < 0.5:
            notes.append(f"PD-ORS {label}: no time left")
            continue
        try:
            with alarm(left, lambda: TimeoutError("warm start stopped")):
                schedule = pdors_online(workload, seed=0, **opts).schedule
        except TimeoutError:
            notes.append(f"PD-ORS {label}: stopped at {left:.1f} s")
            continue
        check = check_pdors(workload, schedule)
        if not check.feasible:  # never expected: the checker decides, not the producer
            notes.append(f"PD-ORS {label}: rejected by the checker")
            continue
        idx = []
        for col in master.pool.of_schedule(workload, schedule, "pdors"):
            master.add(col)
            idx.append(master.pool.index_of(col))
        notes.append(f"PD-ORS {label} ({check.objective:.6g})")
        if check.objective > best[0]:
            best = (check.objective, idx)
    return best[1], "; ".join(notes)

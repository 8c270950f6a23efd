"""Diving with re-pricing on the OASiS restricted master (the depth-first side of price-and-branch).

One dive on a :class:`~mlopt.families.oasis.bounds.colgen.MasterLP` repeats, depth by depth:

1. solve the master LP with every fixed column at x = 1 (its lower bound; (17) then holds the
   job's other columns at 0) and every banned column at x = 0;
2. re-price: each free job's best schedule in the *residual* cluster the fixed columns leave,
   at the LP duals (p, q), enters the master when its reduced cost f - cost(p, q) - mu_i is
   positive (the LP is re-solved and re-priced up to ``reprice_rounds`` times per depth), so
   the LP keeps finding schedules that fit next to what is fixed;
3. fix every free column at x >= ``fix_at`` (0.9) at once, else the one with the largest
   fractional x (ties: higher utility).  A candidate that does not fit the residual capacity
   (the LP mixes it with fractions of others) is banned, x <= 0 (the backtrack), and its job
   is fixed to its best schedule in the residual at the current duals instead (re-priced, it
   fits by construction); a job with no such schedule leaves the depth without a fix, the LP
   is re-solved, and a second depth in a row without a fix ends the dive;

until no free column has x > ``INTEGRAL_TOL`` (or the time is up).  The fixed columns are then
completed by greedy insertion in the residual (:meth:`LocalSearch.insert_all`), so a dive cut
short by time still returns a schedule.  The master's column bounds are restored afterwards;
every column the dive priced stays in the master for the restricted MIP.

DECISIONS (the paper has no dive):
* pricing adds the local search's capacity-normalized tie prices to (p, q) so that, among
  schedules of equal payoff at degenerate (zero) duals, the DP takes the one using the least
  capacity; reduced costs are computed at (p, q) alone, so only truly improving columns enter;
* fixing all near-integral columns at once, and only then one fractional column, keeps the
  depth near the number of fractional jobs rather than the number of admitted ones;
* LP re-solves after fixing start with dual simplex (the basis stays dual feasible under
  tightened bounds), after pricing with primal simplex (new columns keep it primal feasible).
"""
from __future__ import annotations

import time
from typing import Any

import numpy as np

from mlopt.families.oasis.primal.local_search import LocalSearch, Packing
from mlopt.families.oasis.subroutine import Market, best_schedule, schedule_cost
from mlopt.models.oasis.master import Column

#: x within this of 1 counts as chosen, within this of 0 as not chosen
INTEGRAL_TOL = 1e-6
#: columns at x >= this are fixed together in one depth (each checked to fit)
FIX_AT = 0.9
#: a priced column enters when its reduced cost exceeds this * max(1, its utility)
RC_RTOL = 1e-7


def _price_residual(master, ls: LocalSearch, pk: Packing, lp: dict[str, Any],
                    free_jobs: list[int]) -> int:
    """Add every free job's best residual schedule with a positive reduced cost; count them."""
    w = master.workload
    p, q = lp["p"], lp["q"]
    at_duals = Market(p, q, np.maximum(pk.free_w, 0.0), np.maximum(pk.free_p, 0.0))
    guided = Market(p + ls.tie_w, q + ls.tie_p, at_duals.worker_free, at_duals.ps_free)
    added = 0
    for j in free_jobs:
        ls.calls += 1
        s = best_schedule(ls.subjobs[j], guided, unit="worker_slot")
        if not s.admit:
            continue
        rc = s.utility - schedule_cost(ls.subjobs[j], at_duals, s.workers, s.ps) - lp["mu"][j]
        if rc > RC_RTOL * max(1.0, s.utility):
            added += master.add(Column.from_dense(w, j, s.workers, s.ps, "dive"))
    return added


def _residual_column(master, ls: LocalSearch, pk: Packing, lp: dict[str, Any], job: int
                     ) -> int | None:
    """Index in the master of ``job``'s best schedule in ``pk``'s residual at the LP duals
    (tie prices added; added to the master if new); None when nothing fits."""
    guided = Market(lp["p"] + ls.tie_w, lp["q"] + ls.tie_p, np.maximum(pk.free_w, 0.0),
                    np.maximum(pk.free_p, 0.0))
    ls.calls += 1
    s = best_schedule(ls.subjobs[job], guided, unit="worker_slot")
    if not s.admit:
        return None
    col = Column.from_dense(master.workload, job, s.workers, s.ps, "dive")
    if master.add(col):
        return len(master.columns) - 1
    return next(n for n, c in enumerate(master.columns) if c.key == col.key)


def dive(master, ls: LocalSearch, *, time_limit: float, reprice_rounds: int = 1,
         fix_at: float = FIX_AT) -> tuple[Packing, dict[str, Any]]:
    """One dive (module docstring); returns the completed packing and a JSON-able log."""
    start = time.perf_counter()
    deadline = start + max(0.0, time_limit)
    w = master.workload
    h = master.h
    pk = Packing.from_columns(w, [])
    fixed_cols: list[int] = []
    banned: list[int] = []
    log: dict[str, Any] = {"depths": 0, "fixed": 0, "backtracks": 0, "priced": 0,
                           "lp_solves": 0, "refits": 0, "stop": "integral"}
    n_before = len(master.columns)
    try:
        misfit = False
        while True:
            if time.perf_counter() >= deadline:
                log["stop"] = "time"
                break
            lp = None
            strategy = 1  # dual simplex after the bound changes of the last depth
            for _ in range(max(1, reprice_rounds)):
                lp = master.solve(time_limit=deadline - time.perf_counter(), strategy=strategy)
                strategy = 4  # primal simplex after new columns
                log["lp_solves"] += 1
                if lp is None:
                    break
                free_jobs = [j for j in range(len(w.jobs)) if j not in pk.chosen
                             and ls.best_f[j] > 0]
                if time.perf_counter() >= deadline or not free_jobs:
                    break
                got = _price_residual(master, ls, pk, lp, free_jobs)
                log["priced"] += got
                if not got:
                    break
                lp = None  # columns came in: the LP must be re-solved before it is read
            if lp is None:
                lp = master.solve(time_limit=deadline - time.perf_counter(), strategy=strategy)
                log["lp_solves"] += 1
            if lp is None:
                log["stop"] = "lp_limit"
                break
            x = np.zeros(len(master.columns))
            x[:len(lp["x"])] = lp["x"]
            job = np.array([c.job for c in master.columns])
            util = np.array([c.utility for c in master.columns])
            free = np.array([j not in pk.chosen for j in job.tolist()])
            cand = np.flatnonzero(free & (x > INTEGRAL_TOL))
            if len(cand) == 0:
                break  # the LP is integral on the free jobs: nothing left to fix
            log["depths"] += 1
            order = cand[np.lexsort((-util[cand], -x[cand]))]
            # every column at x >= fix_at, else the largest fractional one (a misfit of that
            # one is banned: the backtrack, then the LP is re-solved without it)
            took = 0
            for c in order.tolist():
                frac = bool(x[c] < fix_at)
                if frac and took:
                    break  # re-solve first: the fixed columns changed the LP
                col = master.columns[c]
                if col.job in pk.chosen:
                    continue
                pk.put(col)
                if not pk.fits():
                    pk.drop(col.job)
                    h.changeColBounds(c, 0.0, 0.0)
                    banned.append(c)
                    log["backtracks"] += 1
                    if not frac:
                        continue
                    # the job stays admitted if it has a schedule in the residual: its best
                    # one at the current duals (re-priced), which fits by construction
                    c = _residual_column(master, ls, pk, lp, col.job)
                    if c is None:
                        break
                    pk.put(master.columns[c])
                    log["refits"] += 1
                h.changeColBounds(c, 1.0, np.inf)
                fixed_cols.append(c)
                took += 1
                if frac:
                    break
            if took == 0:
                if misfit:
                    log["stop"] = "second_misfit"
                    break
                misfit = True
            else:
                misfit = False
    finally:
        for c in fixed_cols + banned:
            h.changeColBounds(c, 0.0, np.inf)
    log["fixed"] = len(fixed_cols)
    before = pk.utility
    ls.insert_all(pk)  # even when out of time: at most one subproblem per job
    log.update(fixed_utility=before, utility=pk.utility, new_columns=len(master.columns) - n_before,
               seconds=time.perf_counter() - start)
    if not pk.fits():  # pragma: no cover - every step fits by construction
        raise AssertionError("the dive left an infeasible packing")
    return pk, log

"""Diving with re-pricing (price-and-branch) on the restricted master of R-DMLRS (8).

Repeat: solve the master LP with the columns fixed so far at 1; fix every column at >= 1 - eps
and, if the LP is fractional, the one with the largest fractional value; re-price the jobs not
yet fixed at the new LP's duals (the same column pricing as column generation, so the dive
can reach columns the root never priced) and add those with positive reduced cost.  Stops when
the LP is integral, a fixed set makes it infeasible (the last feasible fixings are kept) or at
the deadline; the fixed columns are then a feasible selection (they fit: the LP held them at 1).

DECISION (not in seed 004, whose PD-ORS is online only): one column fixed per round plus all
near-1 ones, the textbook dive; re-pricing is skipped once the deadline is near (the dive then
finishes on the columns in the pool).
"""
from __future__ import annotations

import time
from typing import Callable

import numpy as np

from mlopt.families.pdors.columns import Column, ColumnPool
from mlopt.families.pdors.restricted_mip import solve_restricted_mip

ONE = 1.0 - 1e-6
#: pricing rounds per set of fixings
MAX_REPRICE = 3


def dive(pool: ColumnPool, *, deadline: float,
         price: Callable[[int, np.ndarray], Column | None] | None = None,
         threads: int = 1) -> list[int]:
    """The fixed columns at the end of the dive (a feasible selection, one per job at most).
    ``price(i, p)``: job i's best column at flat capacity prices p (None: none)."""
    fixed: list[int] = []
    repriced = 0  # pricing rounds at the current fixings (a few: this is a heuristic)
    while time.perf_counter() < deadline:
        lp = solve_restricted_mip(pool, time_limit=deadline - time.perf_counter(),
                                  lp_only=True, fixed=fixed, threads=threads)
        if lp["x"] is None:
            break  # infeasible with these fixings (or out of time): keep the last feasible
        done = {pool.columns[k].job for k in fixed}
        if price is not None and repriced < MAX_REPRICE and deadline - time.perf_counter() > 1.0:
            repriced += 1
            added = 0
            for i in sorted(set(pool.by_job) - done):
                if time.perf_counter() >= deadline:
                    break
                col = price(i, lp["p"])
                if col is None:
                    continue
                rc = col.utility - float(col.val @ lp["p"][col.idx]) - lp["mu"][i]
                if rc > 1e-7 * max(1.0, col.utility):
                    added += pool.add(col) is not None
            if added:
                continue  # re-solve the LP with the new columns before fixing
        x = lp["x"]
        free = [(x[k], k) for k in range(len(x)) if pool.columns[k].job not in done
                and x[k] > 1e-6]
        if not free:
            break
        near = [k for v, k in free if v >= ONE]
        frac = [(v, k) for v, k in free if v < ONE]
        new = near + ([max(frac)[1]] if frac else [])
        repriced = 0
        taken: set[int] = set()
        for k in sorted(new, key=lambda k: -x[k]):  # one column per job
            if pool.columns[k].job not in taken:
                taken.add(pool.columns[k].job)
                fixed.append(k)
        if not frac:
            break  # integral: the fixed columns are the LP's solution
    # the last fixings may have made the LP infeasible: drop from the end until they fit
    while fixed:
        left = pool.residual(fixed)
        if np.all(left >= -1e-9 * (1.0 + pool.cap)):
            break
        fixed.pop()
    return fixed

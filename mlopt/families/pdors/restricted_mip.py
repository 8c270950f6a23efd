"""The restricted master of R-DMLRS (8) as a 0/1 program over a :class:`.columns.ColumnPool`:
max sum u_l x_l, at most one column per job, shared capacities per (slot, machine, resource),
x binary.  Its optimum is a feasible schedule (the pool's columns are real placements), never a
bound on OPT; HiGHS's dual bound here bounds only this restriction.

Rows that no choice of one column per job can violate (the sum over jobs of each job's largest
use there fits the capacity) are left out: exact, and at ``paper-fig9`` most of the 16,000
capacity rows go.  The warm start (e.g. PD-ORS's own columns) is handed to HiGHS as its first
incumbent, so the result is never worse than it when the start is feasible.
"""
from __future__ import annotations

import math
import time

import highspy
import numpy as np

from mlopt.families.pdors.columns import ColumnPool
from mlopt.solvers.quiet_highs import binary_program, quiet_highs, run_highs

INF = highspy.kHighsInf


def _entries(pool: ColumnPool, keep: np.ndarray):
    cols = [pool.columns[k] for k in keep]
    col = np.concatenate([np.full(len(c.idx), n) for n, c in enumerate(cols)]
                         or [[]]).astype(np.int64)
    row = np.concatenate([c.idx for c in cols] or [[]]).astype(np.int64)
    val = np.concatenate([c.val for c in cols] or [[]]).astype(float)
    job = np.array([c.job for c in cols], dtype=np.int64)
    return col, row, val, job


def solve_restricted_mip(pool: ColumnPool, *, time_limit: float, warm: list[int] | None = None,
                         keep: list[int] | None = None, threads: int = 1,
                         lp_only: bool = False, fixed: list[int] = ()) -> dict:
    """Solve over the columns ``keep`` (default all), the columns ``fixed`` at 1.  Returns
    ``chosen`` (column indices, or None without a solution), ``objective``, ``status``
    ("optimal" only with HiGHS's gap closed), ``rows``, ``seconds``; with ``lp_only`` the LP
    relaxation instead: ``x`` (over ``keep``), ``p`` (flat capacity duals, >= 0, 0 on rows left
    out) and ``mu`` (per job index, >= 0)."""
    t0 = time.perf_counter()
    keep = np.arange(len(pool.columns)) if keep is None else np.asarray(keep, dtype=np.int64)
    n = len(keep)
    if n == 0:
        return {"chosen": [], "objective": 0.0, "status": "optimal", "rows": 0, "x": None,
                "seconds": 0.0}
    col, row, val, job = _entries(pool, keep)
    # worst case per capacity entry: sum over jobs of the job's largest use there
    nj = int(job.max()) + 1
    key = row * nj + job[col]
    uk, inv = np.unique(key, return_inverse=True)
    mx = np.zeros(len(uk))
    np.maximum.at(mx, inv, val)
    worst = np.zeros(pool.cap.size)
    np.add.at(worst, uk // nj, mx)
    binding = np.flatnonzero(worst > pool.cap * (1 + 1e-9) + 1e-9)
    row_of = np.full(pool.cap.size, -1, dtype=np.int64)
    jobs_u, job_row = np.unique(job, return_inverse=True)
    row_of[binding] = len(jobs_u) + np.arange(len(binding))
    on = row_of[row] >= 0
    rows = np.concatenate([job_row, row_of[row[on]]])
    cols = np.concatenate([np.arange(n), col[on]])
    vals = np.concatenate([np.ones(n), val[on]])
    nr = len(jobs_u) + len(binding)
    lo = np.zeros(n)
    if len(fixed):
        lo[np.isin(keep, np.asarray(list(fixed), dtype=np.int64))] = 1.0
    lp = binary_program([pool.columns[k].utility for k in keep], rows, cols, vals,
                        np.full(nr, -INF), np.concatenate([np.ones(len(jobs_u)),
                                                           pool.cap[binding]]),
                        maximize=True, col_lower=lo, integer=not lp_only)
    h = quiet_highs()
    h.setOptionValue("threads", int(threads))
    h.setOptionValue("mip_rel_gap", 1e-7)
    h.setOptionValue("time_limit", max(0.1, float(time_limit)))
    h.passModel(lp)
    if warm is not None and not lp_only:
        pos = {int(k): p for p, k in enumerate(keep)}
        x0 = np.zeros(n)
        for k in warm:
            if int(k) in pos:
                x0[pos[int(k)]] = 1.0
        ws = highspy.HighsSolution()
        ws.col_value = [float(v) for v in x0]
        h.setSolution(ws)
    run_highs(h)
    info, status = h.getInfo(), h.getModelStatus()
    has = info.primal_solution_status == 2  # kSolutionStatusFeasible
    out = {"rows": int(nr), "seconds": time.perf_counter() - t0, "x": None, "chosen": None,
           "objective": None, "status": "no_solution"}
    if not has:
        return out
    x = np.asarray(h.getSolution().col_value, dtype=float)
    if lp_only:
        if status != highspy.HighsModelStatus.kOptimal:
            return out  # duals of an unfinished LP are no use for pricing
        dual = np.maximum(np.asarray(h.getSolution().row_dual, dtype=float), 0.0)
        p = np.zeros(pool.cap.size)
        p[binding] = dual[len(jobs_u):]
        mu = np.zeros(nj)
        mu[jobs_u] = dual[:len(jobs_u)]
        out.update(x=x, p=p, mu=mu, objective=float(info.objective_function_value),
                   status="optimal")
        return out
    chosen = [int(keep[p]) for p in np.flatnonzero(x > 0.5)]
    obj = pool.value(chosen)
    bound = float(info.mip_dual_bound)
    proven = status == highspy.HighsModelStatus.kOptimal and math.isfinite(bound) and \
        bound - obj <= 1e-6 * max(1.0, abs(obj))
    out.update(chosen=chosen, objective=obj, status="optimal" if proven else "feasible")
    return out

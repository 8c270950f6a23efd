"""The primal side of PD-ORS's column generation: the best checked schedule on the master's
columns, within a deadline.

Candidates, each a set of columns (one per admitted job) that fits every capacity row:

1. the warm start (PD-ORS's own schedule's columns), a greedy pick (columns by utility, each
   taken if it fits) and, without a warm start, a constructive one (jobs by utility, each
   priced on what the others left: the local search's insert move from an empty start); the
   best of them improved by :func:`.local_search.local_search` (30% of the time left);
2. the restricted master as a 0/1 program (:mod:`.restricted_mip`, HiGHS) warm-started from the
   best of 1., then local search;
3. a dive with re-pricing (:mod:`.diving`), then local search.

Every candidate is decoded to a schedule and passed through the independent checker
(:func:`.checker.check_pdors`); the reported objective is the checker's, and a candidate the
checker rejects is dropped (never expected: the columns are real placements).  The phases share
what is left of the deadline (construction 25%, MIP 40%, dive 40% of what is left then, local
search the rest)
and stop early once a schedule meets ``bound``.
"""
from __future__ import annotations

import time
from typing import Callable

from mlopt.families.pdors.checker import check_pdors
from mlopt.families.pdors.columns import Column, ColumnPool
from mlopt.families.pdors.diving import dive
from mlopt.families.pdors.local_search import local_search
from mlopt.families.pdors.restricted_mip import solve_restricted_mip

INSERT_SHARE = 0.25
MIP_SHARE = 0.4
DIVE_SHARE = 0.4


def greedy(pool: ColumnPool) -> list[int]:
    """Columns by decreasing utility (ties: fewer resources), one per job, each if it fits."""
    left = pool.residual([])
    taken, out = set(), []
    for k in sorted(range(len(pool.columns)),
                    key=lambda k: (-pool.columns[k].utility, float(pool.columns[k].val.sum()))):
        c = pool.columns[k]
        if c.job not in taken and pool.fits(k, left):
            left[c.idx] -= c.val
            taken.add(c.job)
            out.append(k)
    return out


def best_schedule_on_master(workload, pool: ColumnPool, *, deadline: float, bound: float,
                            warm: list[int] = (), threads: int = 1,
                            price: Callable[[int, object], Column | None] | None = None,
                            insert: Callable[[int, object], Column | None] | None = None,
                            refit: Callable[[int, object], Column | None] | None = None,
                            jobs: list[int] | None = None, state: dict | None = None) -> dict:
    """``{"schedule": the best checked Schedule (None if nothing was found), "info": {...}}``;
    ``info`` holds the checked objective, the candidate it came from and each phase's value.
    ``state``: a dict kept up to date as candidates are checked, so a caller that stops this
    function from outside (a wall-clock alarm) still has the best so far (:func:`result`)."""
    state = {} if state is None else state
    state.setdefault("t0", time.perf_counter())
    phases: dict[str, float | None] = state.setdefault("phases", {})
    best = state.setdefault("best", {"value": -1.0, "schedule": None, "source": None})
    state["pool"] = pool

    def consider(name: str, chosen: list[int] | None) -> list[int] | None:
        if chosen is None:
            phases[name] = None
            return None
        schedule = pool.schedule(workload, chosen, meta={"producer": f"colgen:{name}"})
        check = check_pdors(workload, schedule)
        phases[name] = float(check.objective) if check.feasible else None
        if check.feasible and check.objective > best["value"]:
            best.update(value=float(check.objective), schedule=schedule, source=name)
        return chosen if check.feasible else None

    def closed() -> bool:
        return best["value"] >= bound - 1e-9 * max(1.0, abs(bound))

    def ls(name, chosen, until):
        if chosen is not None and not closed() and time.perf_counter() < until:
            consider(name + "+ls", local_search(pool, chosen, deadline=until, insert=insert,
                                                refit=refit, jobs=jobs))

    start = consider("warm", list(warm)) if warm else None
    g = consider("greedy", greedy(pool))
    built = None
    if insert is not None and not warm and not closed():  # a start when PD-ORS gave none
        until = time.perf_counter() + INSERT_SHARE * max(0.0, deadline - time.perf_counter())
        built = consider("insert", local_search(pool, [], deadline=until, insert=insert,
                                                jobs=jobs, moves=("insert",)))
    named = [(n, c) for n, c in (("warm", start), ("greedy", g), ("insert", built))
             if c is not None]
    if named:
        name, seed = max(named, key=lambda nc: pool.value(nc[1]))
        ls(name, seed, time.perf_counter() + 0.3 * max(0.0, deadline - time.perf_counter()))
    if not closed() and time.perf_counter() < deadline:
        share = MIP_SHARE * (deadline - time.perf_counter())
        warm_mip = best_columns(pool, best["schedule"], workload)
        res = solve_restricted_mip(pool, time_limit=share, warm=warm_mip, threads=threads)
        mip = consider("restricted_mip", res["chosen"])
        ls("restricted_mip", mip, time.perf_counter() + 0.25 * share)
    if not closed() and time.perf_counter() < deadline:
        left = deadline - time.perf_counter()
        until = time.perf_counter() + DIVE_SHARE / (1 - MIP_SHARE) * left
        d = consider("dive", dive(pool, deadline=until, price=price, threads=threads))
        ls("dive", d, deadline)
    return result(state)


def result(state: dict, stopped: bool = False) -> dict:
    """The return value of :func:`best_schedule_on_master` from its ``state``."""
    best = state.get("best", {"value": -1.0, "schedule": None, "source": None})
    pool = state.get("pool")
    return {"schedule": best["schedule"],
            "info": {"objective": best["value"] if best["schedule"] is not None else None,
                     "source": best["source"], "phases": dict(state.get("phases", {})),
                     "columns": len(pool.columns) if pool is not None else None,
                     "stopped": stopped,
                     "seconds": time.perf_counter() - state.get("t0", time.perf_counter())}}


def best_columns(pool: ColumnPool, schedule, workload) -> list[int]:
    """The pool's columns of a checked schedule (added if missing): the MIP's warm start."""
    if schedule is None:
        return []
    out = []
    for col in pool.of_schedule(workload, schedule, "best"):
        k = pool.add(col)
        out.append(pool.index_of(col) if k is None else k)
    return out

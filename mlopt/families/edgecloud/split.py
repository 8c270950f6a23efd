"""``split_lb``: the exact model solved block by block, where a block is a set of jobs that can
share an edge worker-slot (issue 21: seed 1 of the 100-job shape).  A certified lower bound,
anytime, that also returns a checked schedule; when every block is proven the two meet.

Blocks.  Job j can train on the edge only on workers of its own type, in slots
[r_j + Delta_js, H_j] (``jct_step``'s variables, :meth:`EdgeCloud.horizon_bound`), and the cloud
has no capacity limit.  Two jobs are linked when they have the same worker type and their
windows [r_j, H_j] overlap; a block is a connected component of that graph
(:func:`job_blocks`).  At 100 jobs on 5 edge servers the blocks are the worker types (seed 1:
47 and 53 jobs instead of 100).

THEOREM.  For any partition of the jobs into blocks B_1..B_k,
OPT(W) >= sum_i OPT(W_i), W_i the workload with the jobs of B_i only (servers, workers and
delays unchanged).  Proof: a schedule the checker accepts for W, restricted to the jobs of
B_i, is accepted for W_i (the checker's rows are per job -- every chunk trained, eligibility,
delays, modes -- or capacities summed over jobs -- workers, PSs, storage --, and dropping jobs
only lowers those sums), and its total JCT is the sum of the blocks' totals.  So
sum_i LB_i is a lower bound on OPT(W) for any lower bounds LB_i <= OPT(W_i), and since every
block's total JCT is an integer (c_j and r_j are slots), so is sum_i ceil(LB_i - INT_TOL).
Nothing here needs the blocks to be independent; when they are (the components above, without
the storage extension, whose capacity is per server), the union of the blocks' optimal
schedules is optimal for W, and that union is checked on W before it is reported.

LB_i is the larger of two certified bounds on W_i: ``pool_lb`` (a theorem, exact arithmetic)
and the MILP dual bound of ``jct_step`` on W_i from HiGHS (or SCIP), its optimum when proven
(a solver's word, so the bound is registered ``solver=True``; ``jct_step``'s optimum is OPT,
tested equal to ``jct_milp``).  A block whose solver returns nothing, or whose model exceeds
the size limit (``paper-sim``), keeps ``pool_lb``: a block stopped early gives a weaker bound,
never a wrong one.

DECISIONS (the issue does not say how to share the time): blocks are solved smallest first,
each with the time left divided by the blocks left, so that a block proven early passes its
time on; each block's MILP is warm-started from ``pool_greedy``'s schedule (or a given
schedule) restricted to the block, when that restriction passes the checker on W_i.
"""
from __future__ import annotations

import dataclasses
import math
import time

from mlopt.errors import InputError
from mlopt.schedule import Schedule
from mlopt.workload import Workload

#: every block total is an integer: a block's bound is ceil(LB - INT_TOL)
INT_TOL = 1e-6
#: seconds kept at the end for merging and checking the schedule
RESERVE_S = 0.5


def job_blocks(workload: Workload) -> list[list[str]]:
    """Job ids in blocks (module docstring): connected components of "same worker type and
    overlapping windows [r_j, H_j]", each in workload order, blocks by their first job."""
    from mlopt.families.edgecloud.fields import EdgeCloud

    ec = EdgeCloud(workload)
    blocks: list[list[int]] = []
    by_type: dict[str, list] = {}
    for jv in ec.jobs:
        by_type.setdefault(jv.worker_type, []).append(jv)
    for jobs in by_type.values():
        jobs.sort(key=lambda jv: (jv.arrival, jv.index))
        end = None
        for jv in jobs:  # sweep by arrival: a job starting after every window so far ends
            if end is None or jv.arrival > end:
                blocks.append([])
                end = ec.horizon_bound(jv)
            blocks[-1].append(jv.index)
            end = max(end, ec.horizon_bound(jv))
    blocks = [sorted(b) for b in blocks]
    blocks.sort(key=lambda b: b[0])
    return [[ec.jobs[i].id for i in b] for b in blocks]


def sub_workload(workload: Workload, ids) -> Workload:
    """The workload with the jobs ``ids`` only (same cluster)."""
    keep = set(ids)
    return dataclasses.replace(workload, jobs=tuple(j for j in workload.jobs if j.id in keep))


def restrict(schedule: Schedule, ids) -> Schedule:
    """The schedule's rows of the jobs ``ids``."""
    keep = set(ids)
    rows = schedule.allocations
    return Schedule(frozenset(schedule.admitted) & keep, rows[rows["job"].isin(keep)],
                    dict(schedule.meta))


def merge(schedules: list[Schedule], meta: dict) -> Schedule:
    """One schedule from the blocks' schedules (disjoint jobs)."""
    import pandas as pd

    admitted = frozenset().union(*(s.admitted for s in schedules))
    rows = pd.concat([s.allocations for s in schedules], ignore_index=True)
    return Schedule(admitted, rows, meta)


def _solve_block(w: Workload, start: Schedule | None, solver: str, limit: float,
                 threads: int | None) -> dict:
    """One block: pool_lb, then jct_step warm-started from ``start``; its bound and schedule."""
    from mlopt.families import get_family
    from mlopt.families.edgecloud.pool_bound import pool_lb
    from mlopt.models.edgecloud.jct_step import build_jct_step
    from mlopt.solve import Status
    from mlopt.warmstart import encode_schedule, solve_warm

    fam = get_family("edgecloud")
    t0 = time.perf_counter()
    out = {"jobs": len(w.jobs), "pool_lb": float(pool_lb(w)["raw_bound"])}
    low, sched, upper = out["pool_lb"], None, None
    if start is not None:
        chk = fam.check(w, start)
        if chk.feasible:
            sched, upper = start, float(chk.objective)
    out["start"] = upper
    try:
        m = build_jct_step(w)
    except InputError as err:  # a block beyond the model-size limit keeps pool_lb
        out.update({"status": "refused", "reason": str(err), "solver_bound": None,
                    "bound": math.ceil(low - INT_TOL), "upper": upper, "proven": False,
                    "solve_s": round(time.perf_counter() - t0, 2)})
        return {"row": out, "schedule": sched}
    starting = encode_schedule("edgecloud", m, w, sched) if sched is not None else {}
    r = solve_warm(m, starting, solver, time_limit=max(0.1, limit - (time.perf_counter() - t0)),
                   threads=threads)
    if r.has_solution:
        found = fam.extract["jct_step"](m, w)
        got = fam.check(w, found)
        if got.feasible and (upper is None or got.objective < upper - 1e-9):
            sched, upper = found, float(got.objective)
    # a solver's bound counts only from a run that stopped normally (never from an error, an
    # "infeasible" block -- every block is feasible: all in the cloud -- or a disputed one)
    trusted = r.status in (Status.OPTIMAL, Status.FEASIBLE, Status.NO_SOLUTION)
    raw = r.bound if trusted else None
    if r.status == Status.OPTIMAL and r.objective is not None:
        raw = r.objective if raw is None else min(raw, r.objective)
    if raw is not None and math.isfinite(raw):
        low = max(low, float(raw))
    proven = r.status == Status.OPTIMAL
    out.update({"status": r.status.value, "solver_bound": raw, "bound": math.ceil(low - INT_TOL),
                "upper": upper, "proven": proven, "solve_s": round(time.perf_counter() - t0, 2)})
    return {"row": out, "schedule": sched}


def split_lb(workload: Workload, *, time_limit: float | None = 60.0, threads: int | None = 1,
             solver: str = "highs", start_schedule: Schedule | None = None,
             **_ignored) -> dict:
    """Certified lower bound (module docstring), with the blocks' schedules merged and
    checked: ``{"bound", "raw_bound", "status", "blocks", "schedule", "upper"}``.
    ``start_schedule``: a checked schedule of ``workload`` to warm-start the blocks from
    (default: pool_greedy's)."""
    from mlopt.families import get_family

    fam = get_family("edgecloud")
    t0 = time.perf_counter()
    budget = 60.0 if time_limit is None else float(time_limit)
    deadline = t0 + budget
    blocks = job_blocks(workload)
    start = start_schedule
    if start is None:
        try:
            start = fam.run("pool_greedy", workload, seed=0)
        except InputError:  # pool_greedy refuses the storage extension: the blocks start cold
            start = None
    rows, schedules = [], []
    order = sorted(range(len(blocks)), key=lambda i: (len(blocks[i]), i))
    for k, i in enumerate(order):
        left = deadline - time.perf_counter() - RESERVE_S
        share = max(0.1, left / (len(order) - k))
        w = sub_workload(workload, blocks[i])
        got = _solve_block(w, None if start is None else restrict(start, blocks[i]), solver,
                           share, threads)
        rows.append({"block": i, **got["row"]})
        schedules.append(got["schedule"])
    rows.sort(key=lambda r: r["block"])
    bound = float(sum(r["bound"] for r in rows))
    out = {"bound": bound, "raw_bound": bound, "blocks": rows, "schedule": None, "upper": None,
           "status": "stopped", "solve_s": round(time.perf_counter() - t0, 2)}
    if all(s is not None for s in schedules) and schedules:
        merged = merge(schedules, {"producer": "split_lb"})
        chk = fam.check(workload, merged)
        if chk.feasible:  # blocks sharing a resource (storage) may fail here: then no schedule
            out["schedule"], out["upper"] = merged, float(chk.objective)
    if all(r["proven"] for r in rows) and out["upper"] is not None \
            and out["upper"] <= bound + 1e-9:
        out["status"] = "optimal"
    return out

"""``step_lns``: large-neighbourhood search over ``jct_step`` (issue 21, the schedule side of
the 100-job shape).  An offline reference heuristic (it sees every job), never worse than its
start.

Start: ``pool_greedy``'s schedule (checked).  Each round frees a few jobs (a *neighbourhood*)
and fixes every variable of every other job (u, k, zeta, n, y, z, c) at the incumbent's value
(or only their edge/cloud choice, below), then re-solves the rest of ``jct_step`` with HiGHS
(one thread), warm-started from the incumbent, so the freed jobs are re-placed around the fixed
ones: moved between the edge and the cloud, between workers and slots.  A result is kept only
when its extracted schedule passes the family's checker with a strictly smaller total JCT (the
checker's objective); the next round starts from that schedule, re-encoded.  A neighbourhood
holding every job that HiGHS solves to optimality proves the incumbent optimal for
``jct_step``, and the search stops.

DECISIONS (the issue names the method, not its parameters):

* the model is ``jct_step`` without its symmetry rows: with the other jobs fixed, ordering
  identical workers by load would pin the freed jobs' loads to the fixed ones' order and forbid
  moves between identical workers; dominance and the ``tight`` rows stay (they keep an optimum
  of every restricted problem: dominance moves a job alone, within its own freed variables);
* neighbourhoods, in turn (``KINDS``): ``window``: the jobs of a random run of consecutive
  arrivals (they compete for the same slots); ``type``: the same within one worker type (they
  compete for the same workers); ``random``: jobs drawn at random.  With option ``choice``,
  every other round is a ``choice`` round: only the edge/cloud choice (u, k, zeta) of the jobs
  outside a random set is fixed, every placement (n, y, z, c) of every job is free.  Why it
  exists: on seed 1 of the 100-job shape, with u fixed at a schedule's choice the LP rises
  from 433.5 to 445.8 and HiGHS proves the rest in 7 s (``benchmarks/edgecloud/sides.py``):
  the hard part is the choice, the placements given a choice are easy.  Why it is off by
  default: its rounds re-solve every placement (10-20 s each at load 10), and side by side for
  150 s on that instance at load ~10 the search without it ended at 448, with it at 452 (one
  run each);
* each kind's size adapts: +2 after a round HiGHS proves (the neighbourhood was easy), -2
  after a round it stops at ``round_limit`` seconds, never below ``MIN_SIZE`` (``choice``
  starts at 4, the others at ``free_jobs``);
* ``time_limit`` caps the whole search, the start included (``bracket`` sets it to the
  algorithm's share); ``rounds`` caps the rounds (0: until the time limit or a proof).

The model refuses the sizes ``jct_step`` refuses (``paper-sim``: InputError, before any
round), so ``bracket`` reports the heuristic as not applicable there; with the storage
extension (7)/(8) the start refuses (pool_greedy does not model it).
"""
from __future__ import annotations

import time
from collections import defaultdict

import numpy as np

from mlopt.errors import InputError
from mlopt.schedule import Schedule
from mlopt.workload import Workload

#: the smallest neighbourhood the adaptation shrinks to
MIN_FREE = 4
#: every total JCT is an integer (c_j and r_j are slots), so a strictly better schedule is at
#: least 1 below the incumbent: each round asks HiGHS only for solutions below incumbent - 1/2
#: (its ``objective_bound`` prunes every node that cannot get there; a round that finds none
#: returns the incumbent, which solve_warm keeps)
CUTOFF_MARGIN = 0.5
#: seconds kept free at the end for extracting and checking the last result
RESERVE_S = 0.5


def _job_vars(m) -> dict[int, list]:
    """Every variable of each job (its index is the first key of every variable family)."""
    out: dict[int, list] = defaultdict(list)
    for var in (m.u, m.k, m.zeta, m.c, m.n, m.y, m.z):
        for idx, v in var.items():
            out[idx[0] if isinstance(idx, tuple) else idx].append(v)
    return out


#: the neighbourhood kinds, in turn (module docstring); with ``choice``, "choice" every other
#: round
KINDS = ("window", "type", "random")
KINDS_CHOICE = ("window", "choice", "type", "choice", "random", "choice")
#: the smallest neighbourhood per kind: "choice" rounds re-solve every placement, so they may
#: shrink further
MIN_SIZE = {"window": MIN_FREE, "type": MIN_FREE, "random": MIN_FREE, "choice": 2}


def _neighbourhood(ec, rng: np.random.Generator, size: int, kind: str) -> list[int]:
    """The job indices freed by one round of ``kind`` (module docstring)."""
    by_arrival = sorted(ec.jobs, key=lambda jv: (jv.arrival, jv.index))
    if kind == "type":  # one worker type's jobs, consecutive in arrival order
        types = sorted({jv.worker_type for jv in ec.jobs})
        wt = types[int(rng.integers(len(types)))]
        by_arrival = [jv for jv in by_arrival if jv.worker_type == wt]
    if kind in ("random", "choice"):
        pick = rng.choice(len(ec.jobs), size=min(size, len(ec.jobs)), replace=False)
        return sorted(int(i) for i in pick)
    first = int(rng.integers(max(1, len(by_arrival) - size + 1)))
    return sorted(jv.index for jv in by_arrival[first:first + size])


def run_step_lns(workload: Workload, *, seed: int = 0, time_limit: float = 60.0,
                 free_jobs: int = 12, round_limit: float = 20.0, rounds: int = 0,
                 choice: bool = False, cutoff: bool = True,
                 start_schedule: Schedule | None = None) -> Schedule:
    """Improve pool_greedy's schedule by re-solving ``jct_step`` on a few freed jobs at a time
    (module docstring); returns the best checked schedule.  ``start_schedule``: a checked
    schedule to improve instead (the family's ``start_option``: bracket hands it its best
    schedule when it runs the search again); one ``jct_step`` cannot encode (a job both on
    the edge and in the cloud, which its dominance rows exclude) comes back unchanged."""
    from mlopt.families import get_family
    from mlopt.models.edgecloud.jct_step import build_jct_step
    from mlopt.models.edgecloud.warmstart import encode
    from mlopt.solve import Status
    from mlopt.warmstart import solve_warm

    t0 = time.perf_counter()
    deadline = t0 + float(time_limit)
    fam = get_family("edgecloud")
    # first, so that a workload beyond the model-size limit is refused before any work
    m = build_jct_step(workload, symmetry=False)
    given = start_schedule is not None
    best = start_schedule if given else fam.run("pool_greedy", workload, seed=seed)
    chk = fam.check(workload, best)
    if not chk.feasible:  # pool_greedy's own schedules always pass; guard, never return junk
        raise InputError("the start failed the checker", field="start",
                         value="given schedule" if given else "pool_greedy")
    best_obj = float(chk.objective)
    ec = m._ec
    per_job = _job_vars(m)
    choice_vars = {j: [m.u[j], m.k[j], m.zeta[j]] for j in per_job}
    start = encode(m, workload, best)
    rng = np.random.default_rng(seed)
    size = {k: min(max(MIN_SIZE[k], int(free_jobs)), len(ec.jobs)) for k in MIN_SIZE}
    size["choice"] = min(MIN_FREE, len(ec.jobs))
    history = []
    n = 0
    while (rounds <= 0 or n < rounds) and deadline - time.perf_counter() > RESERVE_S + 0.5:
        kinds = KINDS_CHOICE if choice else KINDS
        kind = kinds[n % len(kinds)]
        free = set(_neighbourhood(ec, rng, size[kind], kind))
        fixed = choice_vars if kind == "choice" else per_job
        for j, vs in fixed.items():
            if j not in free:
                for v in vs:
                    v.fix(float(round(start[v])))
        limit = min(float(round_limit), deadline - time.perf_counter() - RESERVE_S)
        try:
            r = solve_warm(m, start, "highs", time_limit=limit, threads=1, options=(
                {"objective_bound": best_obj - CUTOFF_MARGIN} if cutoff else None))
        finally:
            for vs in per_job.values():
                for v in vs:
                    v.unfix()
        if r.has_solution and r.objective < best_obj - 1e-6:
            sched = fam.extract["jct_step"](m, workload)
            got = fam.check(workload, sched)
            if got.feasible and got.objective < best_obj - 1e-6:
                best, best_obj = sched, float(got.objective)
                start = encode(m, workload, best)
        history.append({"round": n, "kind": kind, "free": len(free),
                        "status": r.status.value, "objective": best_obj,
                        "s": round(time.perf_counter() - t0, 2)})
        n += 1
        if r.status == Status.OPTIMAL and len(free) == len(ec.jobs):
            break  # every job free and proven: the incumbent is jct_step's optimum
        size[kind] = (min(size[kind] + 2, len(ec.jobs)) if r.status == Status.OPTIMAL
                      else max(MIN_SIZE[kind], size[kind] - 2))
    meta = {"producer": "step_lns", "seed": seed, "start": "given" if given else "pool_greedy",
            "start_objective": float(chk.objective), "objective": best_obj}
    # rounds depend on the wall clock: kept as timing, never in the saved file
    return Schedule(best.admitted, best.allocations, meta, timing={"rounds": history})

"""Dorm baseline of OASiS (seed 000, Sec. V-A (iv)), after Dorm (the paper's ref. [18]).

"Jobs are admitted; upon job arrival or completion, numbers and placement of workers/parameter
servers of unfinished jobs are recomputed by an MILP resource utilization maximization problem,
subject to fairness and adjustment overhead constraints."  The MILP is
:func:`mlopt.models.oasis.dorm.build_dorm` (see its docstring for the formulation); this module
supplies its data at every event, solves it through :func:`mlopt.solve.solve` and applies it.

Decisions:

* **Fair share.**  Placement-free DRF by continuous progressive filling.  Workers and PSs live
  in separate pools, so a resource of the worker pool and the same resource of the PS pool are
  two resources (capacities ``Cw^r``, ``Cp^r``; a role-``any`` server counts in both): a worker of
  job j with its share of PSs (``rho_j = b_j / B_j`` PSs per worker, the continuous form of (6))
  uses ``w_j^r / Cw^r`` of pool resource (worker, r) and ``rho_j s_j^r / Cp^r`` of (PS, r); its
  dominant share per worker ``delta_j`` is the largest of these.  (Against the whole cluster's
  capacity, as DRF's priority uses, a scarce PS pool would be hidden by the worker servers' memory
  and the fairness floor below could not be met.)  All jobs' dominant shares rise together; a job
  freezes at its cap ``min(N_j, ceil(remaining work))`` workers or when a pool resource it uses
  saturates.  The result ``x_j`` is job j's fair dominant share.
* **Fairness constraint** (parameter ``theta`` in [0, 1], default 0.5): job j's worker count lies
  in ``[lo_j, hi_j]`` with ``lo_j = min(cap_j, floor((1 - theta) x_j / delta_j))`` and
  ``hi_j = min(cap_j, max(1, ceil((1 + theta) x_j / delta_j)))``: its dominant share is within a
  factor ``1 -+ theta`` of the fair share, rounded outwards to whole workers (``hi >= 1`` so that a
  job whose fair share is below one worker may still run).  A job whose unchanged previous
  allocation completes it in this slot is exempt while unchanged.
* **Adjustment overhead** (``max_adjust``; default ``max(1, ceil(adjust_fraction * n))`` with
  ``adjust_fraction = 0.5`` and n the number of jobs that held an allocation): at most that many
  of those jobs change their allocation (worker/PS count, placement, or being paused) per
  re-solve.  Starting a job that held nothing is not an adjustment.
* **Solve.**  ``solve(model, solver, time_limit=time_limit (default 2 s), mip_gap=mip_gap
  (default 1e-4), threads=threads (default 1))``.  Any incumbent (optimal or feasible at the
  limit) is applied, after trimming PSs to the fewest satisfying (6).  Without an incumbent
  (infeasible: the fairness floor does not pack onto the servers, or needs more adjustments than
  allowed; or the time limit, or an error) and with ``relax_floor`` (default True) the MILP is
  solved once more without the floor (``lo = 0``; the cap ``hi`` and the budget stay), which is
  always feasible when no job held resources, so a cluster can never freeze empty.  If that has
  no incumbent either, the **fallback** keeps the previous allocation: jobs that held resources
  keep them unchanged, jobs that held none wait for the next event.  Per re-solve
  ``meta["resolves"]`` records the stage used (``full``, ``relaxed_floor``, ``fallback``), the
  solver status of each attempt, objective, budget, bands and the jobs actually adjusted;
  ``meta["fallbacks"]`` and ``meta["relaxed"]`` count the stages; the wall-clock time of each
  re-solve is in ``Schedule.timing["resolve_seconds"]`` (never saved: same run, same bytes).
* ``seed`` is accepted for the common interface; Dorm is deterministic as long as each re-solve
  finishes within its time limit (a solve cut by the limit may depend on machine speed).
"""
from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from mlopt.errors import InputError
from mlopt.schedule import Schedule
from mlopt.solve import solve
from mlopt.solvers import get_backend
from mlopt.workload import Workload
from mlopt.families.oasis.baselines._simulate import Allocation, Simulator, check_number
from mlopt.models.oasis.dorm import DormJob, build_dorm, extract_dorm


def fair_shares(per_worker: np.ndarray, caps: np.ndarray) -> np.ndarray:
    """Continuous DRF progressive filling.

    ``per_worker[j, r]``: fraction of resource r one worker of job j uses (with its PS share);
    ``caps[j]``: max workers.  Returns each job's fair dominant share ``x_j``.
    """
    n = len(caps)
    dom = per_worker.max(axis=1) if n else np.zeros(0)
    x = np.zeros(n)
    limit = dom * caps
    frozen = (caps <= 0) | (dom <= 0)
    left = np.ones(per_worker.shape[1])
    eps = 1e-12
    while not frozen.all():
        up = ~frozen
        rate = (per_worker[up] / dom[up, None]).sum(axis=0)  # use per unit of dominant share
        steps = [left[r] / rate[r] for r in range(len(rate)) if rate[r] > eps]
        steps.append(float((limit[up] - x[up]).min()))
        step = max(0.0, min(steps))
        x[up] += step
        left -= step * rate
        frozen |= x >= limit - 1e-12 * np.maximum(1.0, limit)
        saturated = left <= 1e-12
        if saturated.any():
            frozen |= (per_worker[:, saturated] > 0).any(axis=1)
    return x


class _Dorm:
    def __init__(self, workload: Workload, *, theta: float, max_adjust: int | None,
                 adjust_fraction: float, solver: str, time_limit: float, mip_gap: float,
                 threads: int | None, relax_floor: bool):
        self.workload = workload
        self.theta = theta
        self.max_adjust = max_adjust
        self.adjust_fraction = adjust_fraction
        self.solve_opts = dict(solver=solver, time_limit=time_limit, mip_gap=mip_gap,
                               threads=threads)
        arr = workload.arrays
        rho = (arr.worker_bw / arr.ps_bw)[:, None]
        cw, cp = arr.cap_worker.sum(axis=0), arr.cap_ps.sum(axis=0)
        self.per_worker = np.hstack([arr.worker_demand[:, cw > 0] / cw[cw > 0],
                                     rho * arr.ps_demand[:, cp > 0] / cp[cp > 0]])
        self.relax_floor = relax_floor
        self.resolves: list[dict] = []
        self.resolve_seconds: list[float] = []
        self.fallbacks = 0
        self.relaxed = 0

    def bands(self, sim: Simulator, active: list[int]) -> tuple[dict, dict, dict]:
        caps = np.array([min(sim.jobs[i].chunks, sim.jobs[i].need()) for i in active], float)
        pw = self.per_worker[active]
        x = fair_shares(pw, caps)
        dom = pw.max(axis=1)
        lo, hi, fair = {}, {}, {}
        for n, i in enumerate(active):
            fair_workers = x[n] / dom[n]
            cap = int(caps[n])
            lo[i] = min(cap, math.floor((1 - self.theta) * fair_workers + 1e-9))
            hi[i] = min(cap, max(1, math.ceil((1 + self.theta) * fair_workers - 1e-9)))
            fair[i] = float(x[n])
        return lo, hi, fair

    def on_event(self, sim: Simulator, t: int, arrived: list[int], completed: list[int]) -> None:
        active = sim.active(t)
        if not active:
            return
        lo, hi, fair = self.bands(sim, active)
        specs = []
        for i in active:
            js = sim.jobs[i]
            prev = js.alloc or Allocation()
            exempt = js.alloc is not None and prev.n_workers >= js.need()
            specs.append(DormJob(i, lo[i], hi[i], dict(prev.workers), dict(prev.ps), exempt))
        n_prev = sum(1 for s in specs if s.has_prev)
        budget = (int(self.max_adjust) if self.max_adjust is not None
                  else max(1, math.ceil(self.adjust_fraction * n_prev)))
        record = {"slot": t, "budget": budget, "n_prev": n_prev, "status": [],
                  "objective": None,
                  "bands": {sim.jobs[i].id: [lo[i], hi[i]] for i in active},
                  "fair_share": {sim.jobs[i].id: fair[i] for i in active}}
        seconds = 0.0  # wall-clock: kept in Schedule.timing, out of the saved schedule
        stages = [("full", specs)]
        if self.relax_floor and any(sp.lo > 0 for sp in specs):
            stages.append(("relaxed_floor", [replace(sp, lo=0) for sp in specs]))
        record["stage"] = "fallback"
        for stage, stage_specs in stages:
            model = build_dorm(self.workload, stage_specs, max_adjust=budget)
            result = solve(model, **self.solve_opts)
            record["status"].append(result.status.value)
            seconds += result.runtime_s
            if result.has_solution and self._apply(sim, active, extract_dorm(model), record):
                record["stage"] = stage
                record["objective"] = result.objective
                break
        if record["stage"] == "fallback":
            self.fallbacks += 1
            record["adjusted"] = []
        elif record["stage"] == "relaxed_floor":
            self.relaxed += 1
        self.resolves.append(record)
        self.resolve_seconds.append(seconds)

    def _apply(self, sim: Simulator, active: list[int], solution, record: dict) -> bool:
        new = {}
        for i, (w, p) in zip(active, solution):
            js = sim.jobs[i]
            y = sum(w.values())
            keep = js.ps_for(y)
            if y > js.chunks or sum(p.values()) < keep:
                # Only a solver tolerance could let (3)/(6) slip; never apply such a solution.
                record["apply_error"] = f"job {js.id}: {y} workers, {sum(p.values())} PSs"
                return False
            # Trim surplus PSs (allowed by the MILP's tiny PS penalty) from the last servers.
            p = dict(p)
            surplus = sum(p.values()) - keep
            for k in sorted(p, reverse=True):
                if surplus <= 0:
                    break
                cut = min(p[k], surplus)
                p[k] -= cut
                surplus -= cut
            new[i] = Allocation(w, {k: c for k, c in p.items() if c})
        old = {i: sim.release(i) for i in active}
        taken = []
        for i in active:
            if new[i].n_workers and not sim.cluster.take(i, new[i]):
                # Cannot happen for a solution of (4)/(5); restore rather than apply a part.
                for k in taken:
                    sim.cluster.release(k, new[k])
                for k in active:
                    if old[k] is not None:
                        if not sim.cluster.take(k, old[k]):
                            raise RuntimeError(f"Dorm: cannot restore job {sim.jobs[k].id}")
                        sim.set_alloc(k, old[k])
                record["apply_error"] = "solution does not fit the cluster"
                return False
            taken.append(i)
        for i in active:
            sim.set_alloc(i, new[i] if new[i].n_workers else None)
        record["adjusted"] = [sim.jobs[i].id for i in active if old[i] is not None
                              and (new[i].n_workers == 0 or old[i].key() != new[i].key())]
        record["workers"] = {sim.jobs[i].id: new[i].n_workers for i in active}
        return True


def run_dorm(workload: Workload, *, seed: int = 0, theta: float = 0.5,
             max_adjust: int | None = None, adjust_fraction: float = 0.5,
             solver: str = "highs", time_limit: float = 2.0, mip_gap: float = 1e-4,
             threads: int | None = 1, relax_floor: bool = True) -> Schedule:
    """Dorm: per-event utilization-maximizing MILP with fairness and adjustment limits."""
    theta = check_number(theta, "theta", lo=0.0, hi=1.0)
    adjust_fraction = check_number(adjust_fraction, "adjust_fraction", lo=0.0, hi=1.0)
    time_limit = check_number(time_limit, "time_limit", lo=0.0)
    mip_gap = check_number(mip_gap, "mip_gap", lo=0.0)
    if max_adjust is not None and (isinstance(max_adjust, bool) or
                                   not isinstance(max_adjust, (int, np.integer))
                                   or max_adjust < 0):
        raise InputError("must be an integer >= 0 or None", field="max_adjust", value=max_adjust)
    get_backend(solver)  # an unknown or unavailable solver fails before any simulation
    sim = Simulator(workload)
    policy = _Dorm(workload, theta=theta, max_adjust=max_adjust, adjust_fraction=adjust_fraction,
                   solver=solver, time_limit=time_limit, mip_gap=mip_gap, threads=threads,
                   relax_floor=bool(relax_floor))
    sim.run(policy)
    schedule = sim.schedule("dorm", {
        "seed": seed,
        "options": {"theta": theta, "max_adjust": max_adjust, "adjust_fraction": adjust_fraction,
                    "solver": solver, "time_limit": time_limit, "mip_gap": mip_gap,
                    "threads": threads, "relax_floor": bool(relax_floor)},
        "resolves": policy.resolves, "fallbacks": policy.fallbacks, "relaxed": policy.relaxed})
    schedule.timing = {"resolve_seconds": policy.resolve_seconds}
    return schedule

"""OASiS, Alg. 1 of seed 000 (Bao et al., INFOCOM'18, Sec. IV-B): online admission and scheduling.

Jobs are handled one at a time in arrival order (ties: workload order), each seeing only the
jobs before it:

1. compute the best schedule l* and payoff mu_i with Alg. 2 under the current prices and residual
   capacities (:mod:`.oasis_subroutine`; ``subroutine="reference"`` runs the plain
   transliteration :mod:`.oasis_reference` instead);
2. admit iff mu_i > 0 (the subroutine already demands more than a 1e-9 relative tolerance);
3. if admitted, add its allocation to g_h^r(t), v_k^r(t) (lines 7, 9) and re-price the touched
   (slot, server) pairs with (22) (lines 8, 10).

:func:`oasis_online` returns an :class:`OasisRun` with the final prices and usage (a dual
solution of (19)-(20) once each mu_i is recomputed, DESIGN.md) and per-job decisions;
:func:`run_oasis` returns just the :class:`~mlopt.schedule.Schedule`.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from functools import partial
from typing import Callable

import numpy as np

from mlopt.errors import InputError
from mlopt.schedule import Schedule
from mlopt.workload import Workload
from mlopt.families.oasis.prices import PriceParams, price_params
from mlopt.families.oasis.reference import best_schedule_reference
from mlopt.families.oasis.subroutine import WORK_UNITS, JobSchedule, Market, SubJob, best_schedule

SUBROUTINES: dict[str, Callable[[SubJob, Market], JobSchedule]] = {
    "fast": best_schedule,
    "reference": best_schedule_reference,
}


@dataclass(frozen=True)
class JobDecision:
    job: str
    arrival: int
    admitted: bool
    payoff: float  # mu_i >= 0 under the prices the job saw
    end_slot: int | None
    utility: float  # f_i(end - a_i) if admitted, else 0
    cost: float  # priced resources of l* (0 if rejected)
    seconds: float  # wall time of the decision (subroutine + bookkeeping)


@dataclass
class OasisRun:
    """Everything Alg. 1 leaves behind: schedule, final prices p, q and usage g, v."""

    schedule: Schedule
    params: PriceParams
    worker_used: np.ndarray  # (T, H, R) g_h^r(t)
    ps_used: np.ndarray  # (T, K, R) v_k^r(t)
    worker_price: np.ndarray  # (T, H, R) p_h^r(t) = P_h^r(g_h^r(t))
    ps_price: np.ndarray  # (T, K, R) q_k^r(t)
    decisions: list[JobDecision] = field(default_factory=list)  # in processing order

    @property
    def decision_seconds(self) -> np.ndarray:
        """Wall-clock seconds of each decision, as an array."""
        return np.array([d.seconds for d in self.decisions])


def _check_workload(workload: Workload) -> None:
    shared = [s.id for s in workload.servers if s.hosts_workers() and s.hosts_ps()]
    if shared:
        raise InputError("OASiS (seed 000, Sec. III-A) runs workers and parameter servers on "
                         "separate machines; role 'any' is not supported", field="servers.role",
                         value=shared[0])


#: the plain-Python reference DP (:mod:`.reference`) recurses once per slot and loops
#: ~ (slots) x (chunks)^2 / 2 times per job: beyond these it would overflow the stack or run for
#: hours, so it is refused up front (the fast subroutine solves the same DP exactly)
MAX_REFERENCE_SLOTS = 5_000
MAX_REFERENCE_STEPS = 200_000_000


def _check_reference_size(workload: Workload) -> None:
    T = workload.horizon
    for job in workload.jobs:
        span, D = T - job.arrival + 1, job.epochs * job.chunks
        if span > MAX_REFERENCE_SLOTS or span * (D + 1) ** 2 // 2 > MAX_REFERENCE_STEPS:
            raise InputError(f"job {job.id}: the reference subroutine (plain-Python Alg. 2, "
                             f"O(T D^2)) is limited to {MAX_REFERENCE_SLOTS:,} slots and "
                             f"{MAX_REFERENCE_STEPS:,} DP steps per job ({span:,} slots, "
                             f"D = {D:,} chunks here); use subroutine=fast (the same DP, exact)",
                             field="subroutine", value="reference")


def _summary(x: np.ndarray, floor: float) -> dict:
    if x.size == 0:
        return {}
    return {"min": float(x.min()), "max": float(x.max()), "mean": float(x.mean()),
            "raised_fraction": float(np.mean(x > floor * (1 + 1e-12)))}


def oasis_online(workload: Workload, params: PriceParams | None = None, *,
                 price_mode: str = "oracle", estimate_factor: float = 1.0,
                 subroutine: str = "fast", work_unit: str = "chunk",
                 price_scale: float | None = None) -> OasisRun:
    """Run Alg. 1 on ``workload``; ``params`` overrides the (23)-(26) parameters if given.

    ``work_unit="chunk"`` is the paper's Alg. 2 (whole chunks per slot); ``"worker_slot"``
    solves (27) proper instead (fast subroutine only; see :func:`best_schedule`).
    ``price_scale`` caps ln(U/L) (not from the paper, :mod:`mlopt.exp_prices`); unset: literal.
    """
    _check_workload(workload)
    # checked in every price mode: an option that is ignored must still not be nonsense
    if isinstance(estimate_factor, bool) or not isinstance(estimate_factor, (int, float)) or \
            not math.isfinite(estimate_factor) or estimate_factor <= 0:
        raise InputError("must be a finite number > 0", field="estimate_factor",
                         value=estimate_factor)
    if not isinstance(subroutine, str) or subroutine not in SUBROUTINES:
        raise InputError(f"unknown OASiS subroutine (known: {', '.join(SUBROUTINES)})",
                         field="subroutine", value=subroutine)
    solve_job = SUBROUTINES[subroutine]
    if subroutine == "reference":
        _check_reference_size(workload)
    if not isinstance(work_unit, str) or work_unit not in WORK_UNITS:
        raise InputError(f"unknown work unit (known: {', '.join(WORK_UNITS)})",
                         field="work_unit", value=work_unit)
    if work_unit != "chunk":
        if subroutine != "fast":
            raise InputError("only the fast subroutine counts worker-slots", field="work_unit",
                             value=work_unit)
        solve_job = partial(best_schedule, unit=work_unit)
    if params is None:
        params = price_params(workload, price_mode, estimate_factor, price_scale)
    arr = workload.arrays
    T, R = workload.horizon, len(workload.resources)
    cap_w, cap_p = arr.cap_worker, arr.cap_ps
    H, K = len(cap_w), len(cap_p)
    w_ids = [workload.servers[i].id for i in arr.worker_servers]
    p_ids = [workload.servers[i].id for i in arr.ps_servers]

    g = np.zeros((T, H, R))  # line 1
    v = np.zeros((T, K, R))
    p = np.broadcast_to(params.worker_price(np.zeros((1, H, R)), cap_w), (T, H, R)).copy()
    q = np.broadcast_to(params.ps_price(np.zeros((1, K, R)), cap_p), (T, K, R)).copy()
    free_w = np.broadcast_to(cap_w, (T, H, R)).copy()  # c_h^r - g_h^r(t), kept in step with g
    free_p = np.broadcast_to(cap_p, (T, K, R)).copy()

    rows, admitted, decisions = [], [], []
    order = np.argsort(arr.arrival, kind="stable")  # arrival order, ties by workload order
    for i in order:
        job = workload.jobs[i]
        start = time.perf_counter()
        sub = SubJob.from_workload(workload, int(i))
        market = Market(p, q, free_w, free_p)
        best = solve_job(sub, market)  # line 3
        admit = best.admit and best.payoff > 0  # line 4
        if admit:
            t_w = np.flatnonzero(best.workers.sum(axis=1))
            t_p = np.flatnonzero(best.ps.sum(axis=1))
            g[t_w] += best.workers[t_w][:, :, None] * sub.worker_demand  # line 7
            p[t_w] = params.worker_price(g[t_w], cap_w)  # line 8
            free_w[t_w] = np.maximum(cap_w - g[t_w], 0.0)
            v[t_p] += best.ps[t_p][:, :, None] * sub.ps_demand  # line 9
            q[t_p] = params.ps_price(v[t_p], cap_p)  # line 10
            free_p[t_p] = np.maximum(cap_p - v[t_p], 0.0)
        seconds = time.perf_counter() - start
        if admit:  # line 11: record the schedule (outside the timed decision)
            admitted.append(job.id)
            for t, h in zip(*np.nonzero(best.workers)):
                rows.append((job.id, int(t) + 1, w_ids[h], "worker", int(best.workers[t, h])))
            for t, k in zip(*np.nonzero(best.ps)):
                rows.append((job.id, int(t) + 1, p_ids[k], "ps", int(best.ps[t, k])))
        decisions.append(JobDecision(
            job.id, job.arrival, bool(admit), float(max(0.0, best.payoff)),
            best.end_slot if admit else None, best.utility if admit else 0.0,
            best.cost if admit else 0.0, seconds))

    secs = np.array([d.seconds for d in decisions])
    meta = {
        "producer": "oasis", "subroutine": subroutine, "work_unit": work_unit,
        "price_params": params.to_dict(),
        "per_job": {d.job: {"admitted": d.admitted, "payoff": d.payoff, "end_slot": d.end_slot}
                    for d in decisions},
        "final_prices": {"worker": _summary(p, params.L1), "ps": _summary(q, params.L2)},
    }
    schedule = Schedule.from_rows(admitted, rows, meta)
    # wall-clock times stay out of the schedule file (same seed, same bytes)
    schedule.timing = {
        "decision_seconds": ({"median": float(np.median(secs)),
                              "p95": float(np.percentile(secs, 95)),
                              "max": float(secs.max())} if len(secs) else {}),
        "per_job_seconds": {d.job: d.seconds for d in decisions},
    }
    return OasisRun(schedule, params, g, v, p, q, decisions)


def run_oasis(workload: Workload, *, price_mode: str = "oracle", estimate_factor: float = 1.0,
              subroutine: str = "fast", work_unit: str = "chunk", seed: int = 0,
              price_scale: float | None = None) -> Schedule:
    """OASiS as a registered algorithm: ``workload -> Schedule``.

    Deterministic: ``seed`` is taken like every algorithm's (``Family.run`` checks it) and does
    not change the schedule (nor its bytes).
    """
    return oasis_online(workload, price_mode=price_mode, estimate_factor=estimate_factor,
                        subroutine=subroutine, work_unit=work_unit,
                        price_scale=price_scale).schedule

"""Certified upper bounds on the OASiS optimum from resource prices (seed 000, (19)-(20)).

Weak duality for the LP relaxation of (14) (``models/oasis/master.py`` explains which schedule
sets L_i we use): for ANY prices p_h^r(t) >= 0, q_k^r(t) >= 0, setting

    mu_i = max(0, max_{l in L_i} [ f_i(t_il - a_i) - sum p w_i^r y_ih^l(t) - sum q s_i^r z_ik^l(t) ])

makes (p, q, mu) feasible for (19)-(20), so its objective

    D(p, q) = sum_i mu_i + sum_{t,h,r} p_h^r(t) c_h^r + sum_{t,k,r} q_k^r(t) c_k^r

is >= LP(14) >= OPT.  The inner max is problem (27) with the capacity caps of an EMPTY cluster
(every server offers its full capacity c, not the residual capacity Alg. 1 sees), solved exactly
by :func:`~mlopt.families.oasis.subroutine.best_schedule` with ``unit="worker_slot"`` (the DP
counting worker-slots is exact for (27) proper; the paper's chunk DP is not, it can only miss
schedules and would under-estimate mu_i).

:func:`price_certificate` evaluates D(p, q) for given prices; column generation
(:mod:`.colgen`) calls it with LP duals at every round.  :func:`dual_certificate` uses the final
prices of an OASiS run (DESIGN.md, OASiS notes).

Decisions:

* Tolerance.  ``best_schedule`` only reports a schedule whose payoff beats the incumbent by
  more than ``PAYOFF_RTOL * max(1, max_d f_i(d))`` and prunes end times with that slack, so the
  true maximum payoff is at most the reported one plus that tolerance.  We add twice that
  tolerance (covering float rounding in the DP's sums) to every mu_i of a job that has a
  schedule at all: the bound stays certified; the price is a relative 2e-9 per job.
* Jobs with no schedule at all (empty L_i: cannot finish by T even alone on the empty cluster,
  or b_i > B_i so (6)+(7) admit no worker) have no constraint (20); mu_i = 0 is exact for them.
  They are found by one DP with zero prices and unit utility (a schedule exists iff its payoff
  is 1) and listed in ``unschedulable``.
* Prices.  Negative entries (an LP solver's -1e-12 on a slack row) are clipped to 0 before
  anything is computed: the certificate is then evaluated, exactly, at the clipped point, which
  is still a point of the dual.  NaN or infinite prices raise InputError.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, replace

import numpy as np

from mlopt.families.oasis.online import OasisRun, oasis_online
from mlopt.families.oasis.prices import PriceParams
from mlopt.families.oasis.subroutine import (
    PAYOFF_RTOL,
    JobSchedule,
    Market,
    SubJob,
    best_schedule,
)
from mlopt.families.oasis.checker import check_oasis
from mlopt.errors import InputError
from mlopt.workload import Workload
from mlopt.families.oasis.bounds.result import BoundResult

TOL_FACTOR = 2.0  # mu_i gets TOL_FACTOR * PAYOFF_RTOL * max(1, max f_i) on top (see above)


@dataclass
class PriceCertificate:
    """D(p, q) and its parts, for one price point."""

    bound: float  # D(p, q) >= LP(14) >= OPT
    mu: np.ndarray  # (I,) mu_i used in D, tolerance included
    payoff: np.ndarray  # (I,) best payoff found by the DP (0 if none positive)
    tolerance: np.ndarray  # (I,) what was added to max(0, payoff) (0 for unschedulable jobs)
    schedulable: np.ndarray  # (I,) bool, L_i non-empty
    worker_term: float  # sum p c
    ps_term: float  # sum q c
    schedules: list[JobSchedule | None]  # the DP's best schedule per job (None if none)

    @property
    def mu_sum(self) -> float:
        """Sum of the per-job dual values mu."""
        return float(self.mu.sum())

    def summary(self, workload: Workload) -> dict:
        """Return the bound, its price terms and payoff counts as a plain dict."""
        ids = [j.id for j in workload.jobs]
        return {"bound": self.bound, "mu_sum": self.mu_sum, "worker_price_term": self.worker_term,
                "ps_price_term": self.ps_term,
                "tolerance_sum": float(self.tolerance.sum()),
                "jobs_with_positive_payoff": int((self.payoff > 0).sum()),
                "unschedulable": [ids[i] for i in np.flatnonzero(~self.schedulable)]}


def empty_market(workload: Workload, worker_price: np.ndarray, ps_price: np.ndarray) -> Market:
    """A market offering every server's full capacity in every slot (empty-server caps)."""
    a = workload.arrays
    T = workload.horizon
    return Market(worker_price, ps_price,
                  np.broadcast_to(a.cap_worker, (T,) + a.cap_worker.shape).copy(),
                  np.broadcast_to(a.cap_ps, (T,) + a.cap_ps.shape).copy())


def _ones(duration):
    return np.ones_like(np.asarray(duration, dtype=float))


def schedulable_jobs(workload: Workload) -> np.ndarray:
    """(I,) bool: job i has at least one schedule in L_i (fits an empty cluster by T).

    One worker-slot DP per job with zero prices and utility 1: its payoff is 1 iff some
    schedule meets (2)(3)(6)(7)(9)-(13) within the empty-server caps, else no schedule.
    """
    a = workload.arrays
    T, R = workload.horizon, len(workload.resources)
    market = empty_market(workload, np.zeros((T, len(a.cap_worker), R)),
                          np.zeros((T, len(a.cap_ps), R)))
    out = np.zeros(len(workload.jobs), dtype=bool)
    for i in range(len(workload.jobs)):
        sub = replace(SubJob.from_workload(workload, i), utility=_ones)
        out[i] = best_schedule(sub, market, unit="worker_slot").admit
    return out


def payoff_tolerance(workload: Workload) -> np.ndarray:
    """(I,) TOL_FACTOR * PAYOFF_RTOL * max(1, max_{d in 0..T-a_i} f_i(d))."""
    T = workload.horizon
    out = np.empty(len(workload.jobs))
    for i, job in enumerate(workload.jobs):
        f = np.asarray(job.utility(np.arange(T - job.arrival + 1, dtype=float)), dtype=float)
        out[i] = TOL_FACTOR * PAYOFF_RTOL * max(1.0, float(np.max(f)))
    return out


def _clean(price: np.ndarray, shape: tuple, name: str) -> np.ndarray:
    price = np.asarray(price, dtype=float)
    if price.shape != shape:
        raise InputError(f"must have shape {shape}", field=name, value=price.shape)
    if not np.isfinite(price).all():
        raise InputError("must be finite", field=name)
    return np.maximum(price, 0.0)


def price_certificate(workload: Workload, worker_price: np.ndarray, ps_price: np.ndarray, *,
                      schedulable: np.ndarray | None = None,
                      tolerance: np.ndarray | None = None) -> PriceCertificate:
    """D(p, q) for prices ``worker_price`` (T, H, R) p_h^r(t) and ``ps_price`` (T, K, R).

    ``schedulable`` / ``tolerance`` may be passed precomputed (:func:`schedulable_jobs`,
    :func:`payoff_tolerance`) when certifying many price points of one workload.
    """
    a = workload.arrays
    T, R = workload.horizon, len(workload.resources)
    p = _clean(worker_price, (T, len(a.cap_worker), R), "worker_price")
    q = _clean(ps_price, (T, len(a.cap_ps), R), "ps_price")
    ok = schedulable_jobs(workload) if schedulable is None else np.asarray(schedulable, bool)
    tol = payoff_tolerance(workload) if tolerance is None else np.asarray(tolerance, float)
    market = empty_market(workload, p, q)
    n = len(workload.jobs)
    payoff, mu, added = np.zeros(n), np.zeros(n), np.zeros(n)
    schedules: list[JobSchedule | None] = [None] * n
    for i in np.flatnonzero(ok):
        best = best_schedule(SubJob.from_workload(workload, int(i)), market, unit="worker_slot")
        if best.admit:
            payoff[i] = max(0.0, best.payoff)
            schedules[i] = best
        added[i] = tol[i]
        mu[i] = payoff[i] + tol[i]
    # products with c = 0 are 0 whatever the price (prices are finite)
    worker_term = float(np.einsum("thr,hr->", p, a.cap_worker))
    ps_term = float(np.einsum("tkr,kr->", q, a.cap_ps))
    bound = float(mu.sum()) + worker_term + ps_term
    return PriceCertificate(bound, mu, payoff, added, ok, worker_term, ps_term, schedules)


def dual_certificate(workload: Workload, run: OasisRun | None = None, *,
                     params: PriceParams | None = None, price_mode: str = "oracle",
                     estimate_factor: float = 1.0, work_unit: str = "chunk") -> BoundResult:
    """Upper bound on OPT from the final prices of an OASiS run (Alg. 1), DESIGN.md.

    ``run`` defaults to :func:`~mlopt.families.oasis.online.oasis_online` with the given price
    options.  The prices p_h^r(t), q_k^r(t) are the run's final ones, per server, slot and
    resource; each mu_i is recomputed against the empty cluster (see the module docstring).
    The feasible side is the OASiS schedule, as scored by the checker.
    """
    start = time.perf_counter()
    if run is None:
        run = oasis_online(workload, params, price_mode=price_mode,
                           estimate_factor=estimate_factor, work_unit=work_unit)
    cert = price_certificate(workload, run.worker_price, run.ps_price)
    check = check_oasis(workload, run.schedule)
    if not check.feasible:  # pragma: no cover - would be a bug in Alg. 1
        raise AssertionError(f"OASiS schedule rejected by the checker: {check.summary()}")
    details = cert.summary(workload)
    details["online_payoff_sum"] = float(sum(d.payoff for d in run.decisions if d.admitted))
    alpha = run.params.alpha
    details["alpha"] = alpha if np.isfinite(alpha) else None  # JSON: inf (L = 0) -> None
    return BoundResult("dual_certificate", cert.bound, "dual_certificate", check.objective,
                       "oasis", time.perf_counter() - start, schedule=run.schedule,
                       details=details)

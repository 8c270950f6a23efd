"""Certified lower bounds on the optimal Harmony objective (seed 002), for instances beyond the
exact placement MILP's reach (``mlopt bracket``'s lower end).

``standalone_bound(workload)``: every job alone, at its fastest, from its arrival.

The objective is the checker's (:mod:`.checker`): the average over ALL jobs of the JCT in
intervals, ``completion - arrival + 1``, a job unfinished by T counting ``T - arrival + 1``.
The checker replays the intervals: a job placed in interval ``s`` (``s >= arrival``: the
``after_arrival`` check) runs in every interval ``t = s, s+1, ...`` and accumulates
``progress += speed_t``, finishing in the first interval where ``progress >= epochs - EPS``,
with

    speed_t = base_speed[l] * W ** worker_scaling * f(d_t),
    d_t = worst + comm_penalty[l] * [spans > 1 server],
    f(d) = max(1 - d, (1 - knee) - tail_slope * (d - knee), min_factor).

Why ``speed_t <= v_max = base_speed[l] * W ** worker_scaling * f(0)`` in every interval, for
every placement and whatever else runs (the "interference only slows down" argument, checked
against the speed model, :mod:`.speed`, and the checker's own loop):

* ``worst`` starts at 0.0 and is a max of sums of ``alpha[l, l'] * count * (1 or ps_weight)``;
  ``alpha = sensitivity * (pressure * channel_weight) @ pressure.T`` and every one of these
  parameters is parsed as a number >= 0 (``SpeedModel.from_params``), counts are positive:
  so ``d_t >= 0`` (``comm_penalty >= 0`` too). Co-location, other jobs and spreading over
  servers can only raise ``d``.
* each of the three pieces of ``f`` is non-increasing in ``d`` (``tail_slope >= 0``), and
  IEEE rounding is monotone, so the float value of each piece at ``d >= 0`` is at most its
  float value at ``d = 0.0``: ``f(d_t) <= f(0)`` as computed (``f(0) = 1`` in exact arithmetic:
  ``1 - knee * (1 - tail_slope) <= 1`` and ``min_factor <= 1 - knee``). The number of workers
  ``W`` is the job's own (all-or-nothing), not a choice of the schedule.
* the products are of non-negative floats, monotone too; and a float sum of ``k`` terms each
  ``<= v_max``, added in order from 0.0, is at most the float sum of ``k`` copies of ``v_max``.

Spread (the best one the cluster allows): when a job's W workers and P PSs together fit on no
empty server (:func:`must_span`, the checker's capacity test with its 1e-6 tolerance), every
feasible schedule spreads it, so ``d_t = fl(worst + comm_penalty) >= comm_penalty`` and, by the
same monotonicity, ``speed_t <= v_max = base_speed[l] * W ** worker_scaling * f(comm_penalty)``.

So the job cannot have finished after fewer than ``k_j`` running intervals, ``k_j`` the first
``k >= 1`` with ``(v_max + ... + v_max, k times, in floats) >= epochs - EPS`` (computed with the
checker's own EPS and additions), and its JCT ``= s + k - 1 - arrival + 1 >= k_j``; unfinished
it counts ``T - arrival + 1``. Hence every feasible schedule has per-job value
``>= min(k_j, T - arrival + 1)``, and the average of these (integers, averaged as the checker
does) is a lower bound on the checker's objective of any feasible schedule, the optimum
included. The bound is a theorem (``solver=False``): no solver is involved.

It is tight when the cluster lets every job run alone, as compact as it fits, from its arrival
(e.g. two jobs on two servers) and loose under contention: a job is not charged for waiting or
for interference. A volume argument (per resource, the jobs' ``k_j x demand`` on the cluster's
total capacity, as a preemptive one-machine problem with release dates solved by SRPT) is valid
but was below this bound on seed 0 of tiny, small, mini, uniform and poisson (the cluster is not short of
capacity, its cost is interference), so it is not added.
"""
from __future__ import annotations

from fractions import Fraction

import numpy as np
import pandas as pd

from mlopt.families.harmony.checker import EPS
from mlopt.families.harmony.fields import validate_harmony
from mlopt.families.harmony.speed import RESOURCES, model_of
from mlopt.workload import Workload


def speed_at(sm, model_idx: int, workers: int, d: float) -> float:
    """The checker's speed of a job of this model and size at slowdown ``d`` (its expression,
    term for term); non-increasing in ``d`` (module docstring)."""
    f = max(1.0 - d, (1.0 - sm.knee) - sm.tail_slope * (d - sm.knee), sm.min_factor)
    return sm.base_speed[model_idx] * int(workers) ** sm.worker_scaling * f


def fastest_speed(sm, model_idx: int, workers: int, spans: bool = False) -> float:
    """The largest epochs/interval the checker can ever credit a job of this model and size:
    alone (no interference: worst = 0), on one server (d = 0) or, when ``spans`` (its tasks
    fit no single server), at d = comm_penalty -- written exactly as the checker's expression."""
    return speed_at(sm, model_idx, workers, 0.0 + (sm.comm_penalty[model_idx] if spans else 0.0))


def must_span(job, servers) -> bool:
    """True when the job's W workers and P PSs together fit on no server that hosts both roles,
    even empty: a feasible schedule then spreads it over >= 2 servers. Exact arithmetic, and a
    need within a relative 1e-9 of the checker's threshold (capacity + 1e-6) counts as fitting,
    which covers the checker's float sums (only ever a weaker bound)."""
    w, p = int(job.extra["workers"]), int(job.extra["ps"])
    margin = 1 + Fraction(1, 10**9)
    for srv in servers:
        if srv.role != "any":
            continue
        if all(w * Fraction(job.worker_demand[r]) + p * Fraction(job.ps_demand[r])
               <= (Fraction(srv.capacity[r]) + Fraction(1e-6)) * margin for r in RESOURCES):
            return False
    return True


def min_intervals(v_max: np.ndarray, epochs: np.ndarray, cap: np.ndarray) -> np.ndarray:
    """Per job, the fewest running intervals k >= 1 whose float sum of k speeds v_max (added from
    0.0 one at a time, as the checker does) reaches ``epochs - EPS``, or ``cap`` if that is not
    reached within ``cap`` intervals (then the job's value is ``cap`` anyway).

    One sequential ``np.add.accumulate`` per distinct speed (a job's model and worker count:
    a few dozen), not per job: at most that many x T additions however many jobs there are."""
    k = np.zeros(len(v_max), dtype=np.int64)
    if not len(v_max):
        return k
    target = epochs - EPS
    for v in np.unique(v_max):
        idx = np.flatnonzero(v_max == v)
        length = int(cap[idx].max())
        acc = np.add.accumulate(np.full(length, v))  # acc[i]: progress after i + 1 intervals
        first = np.searchsorted(acc, target[idx], side="left")  # acc is non-decreasing
        k[idx] = np.minimum(first + 1, cap[idx])
    return k


def standalone_bound(workload: Workload, **_ignored) -> dict:
    """A certified lower bound on the optimal average JCT (the checker's objective): the
    average over jobs of min(k_j, T - a_j + 1), k_j the intervals job j needs alone at its
    fastest (see the module docstring for the argument)."""
    validate_harmony(workload)
    sm = model_of(workload)
    T = int(workload.horizon)
    jobs = workload.jobs
    if not jobs:
        return {"bound": 0.0, "status": "ok", "jobs": 0, "must_span": 0, "per_job": []}
    spans = [must_span(j, workload.servers) for j in jobs]
    v_max = np.array([fastest_speed(sm, sm.index(j.extra["model"]), j.extra["workers"], sp)
                      for j, sp in zip(jobs, spans)], dtype=float)
    epochs = np.array([float(j.epochs) for j in jobs])
    arrival = np.array([int(j.arrival) for j in jobs], dtype=np.int64)
    cap = T - arrival + 1  # the value of a job unfinished by T (<= 0: arrives after T)
    k = np.zeros(len(jobs), dtype=np.int64)
    live = cap >= 1
    k[live] = min_intervals(v_max[live], epochs[live], cap[live])
    value = np.where(live, np.minimum(k, cap), cap)
    # averaged as the checker does (a pandas mean of float JCTs; exact integer sums)
    bound = float(pd.Series(value.astype(float)).mean())
    return {"bound": bound, "status": "ok", "jobs": len(jobs), "must_span": int(sum(spans)),
            "per_job": [int(x) for x in value]}

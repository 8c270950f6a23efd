"""Tiresias-L [13] (seed 001, Sec. V-A): discretized two-dimensional least-attained-service.

A job's priority comes from "the number and the occupation time of GPUs allocated": its attained
service in worker-slots (workers x slots run).  Jobs fall into priority queues by thresholds on
that service; the highest queue goes first, FIFO (arrival) inside a queue; all-or-nothing
(:mod:`._gang`).

DECISION (thresholds): the paper gives none.  Tiresias' discretized 2D-LAS uses a few queues with
exponentially spaced thresholds; we use two thresholds, ``thresholds = (10, 100)`` worker-slots
by default (three queues), an option.  Tiresias' starvation guard (promotion after waiting) is
left out: the paper's one-sentence description does not mention it.

Three readings of the job's width and of the cloud (:mod:`._gang` says why each exists):
``tiresias_l`` (trace GPU count, edge only: mlopt's original reconstruction),
``tiresias_l_gang`` (D_j workers, edge only) and ``tiresias_l_cloud`` (D_j workers, cloud
overflow).
"""
from __future__ import annotations

import bisect

from mlopt.errors import InputError
from mlopt.schedule import Schedule
from mlopt.workload import Workload

from mlopt.families.edgecloud.baselines._gang import simulate_gang


def _tiresias(workload: Workload, seed: int, thresholds, producer: str, **how) -> Schedule:
    th = list(thresholds)
    if any(not isinstance(x, (int, float)) or x <= 0 for x in th) or th != sorted(th):
        raise InputError("must be increasing positive worker-slot thresholds",
                         field="thresholds", value=thresholds)

    def priority(g, t):
        return (bisect.bisect_right(th, g.attained), g.jv.arrival, g.jv.index)

    return simulate_gang(workload, priority, seed=seed, producer=producer, **how)


def run_tiresias_l(workload: Workload, *, seed: int = 0,
                   thresholds: tuple | list = (10, 100)) -> Schedule:
    """Tiresias-L with the trace GPU count as width, edge only."""
    return _tiresias(workload, seed, thresholds, "tiresias_l", width="trace")


def run_tiresias_l_gang(workload: Workload, *, seed: int = 0,
                        thresholds: tuple | list = (10, 100)) -> Schedule:
    """Tiresias-L with D_j workers per job, edge only."""
    return _tiresias(workload, seed, thresholds, "tiresias_l_gang", width="gang")


def run_tiresias_l_cloud(workload: Workload, *, seed: int = 0,
                         thresholds: tuple | list = (10, 100)) -> Schedule:
    """Tiresias-L with D_j workers per job and cloud overflow."""
    return _tiresias(workload, seed, thresholds, "tiresias_l_cloud", width="gang", cloud=True)

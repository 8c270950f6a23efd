"""SRTF [16] (seed 001, Sec. V-A): "jobs are scheduled in the non-decreasing order of remaining
training time".  Non-elastic, all-or-nothing, edge only (see :mod:`._gang`); remaining training
time = slots the job still needs on its busiest worker; ties by arrival, then job order."""
from __future__ import annotations

from mlopt.schedule import Schedule
from mlopt.workload import Workload

from mlopt.families.edgecloud.baselines._gang import simulate_gang


def run_srtf(workload: Workload, *, seed: int = 0) -> Schedule:
    return simulate_gang(workload, lambda g, t: (g.remaining(), g.jv.arrival, g.jv.index),
                         seed=seed, producer="srtf")

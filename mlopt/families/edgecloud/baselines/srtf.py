"""SRTF [16] (seed 001, Sec. V-A): "jobs are scheduled in the non-decreasing order of remaining
training time".  Non-elastic, all-or-nothing (see :mod:`._gang`); remaining training time = slots
the job still needs on its busiest worker; ties by arrival, then job order.

Three readings of the job's width and of the cloud (:mod:`._gang` says why each exists):
``srtf`` (trace GPU count, edge only: mlopt's original reconstruction), ``srtf_gang`` (D_j
workers, edge only) and ``srtf_cloud`` (D_j workers, cloud overflow)."""
from __future__ import annotations

from mlopt.schedule import Schedule
from mlopt.workload import Workload

from mlopt.families.edgecloud.baselines._gang import simulate_gang


def _srtf(workload: Workload, seed: int, producer: str, **how) -> Schedule:
    return simulate_gang(workload, lambda g, t: (g.remaining(), g.jv.arrival, g.jv.index),
                         seed=seed, producer=producer, **how)


def run_srtf(workload: Workload, *, seed: int = 0) -> Schedule:
    """SRTF with the trace GPU count as width, edge only."""
    return _srtf(workload, seed, "srtf", width="trace")


def run_srtf_gang(workload: Workload, *, seed: int = 0) -> Schedule:
    """SRTF with D_j workers per job, edge only."""
    return _srtf(workload, seed, "srtf_gang", width="gang")


def run_srtf_cloud(workload: Workload, *, seed: int = 0) -> Schedule:
    """SRTF with D_j workers per job and cloud overflow."""
    return _srtf(workload, seed, "srtf_cloud", width="gang", cloud=True)

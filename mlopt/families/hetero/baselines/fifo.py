"""FIFO (seed 003, Sec. 7): jobs start in arrival order with a fixed worker count and the ideal
configuration's worker / PS types; "the number of workers is fixed to a number within [1, 30]":
DECISION: N_j ~ U{1..30} (seeded), capped at D_j; strict FIFO (a job that does not fit blocks
the queue)."""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from mlopt.errors import InputError
from mlopt.families.hetero.baselines._list import ideal_config, list_schedule
from mlopt.families.hetero.fields import hetero_data
from mlopt.families.hetero.online import placements_to_schedule

if TYPE_CHECKING:  # pragma: no cover
    from mlopt.schedule import Schedule


def run_fifo(workload, *, seed: int = 0, max_workers: int = 30) -> Schedule:
    """List-schedule the jobs first-come first-served with a random worker count each."""
    if isinstance(max_workers, bool) or not isinstance(max_workers, int) or max_workers < 1:
        # declared in OPTIONS (Family.run checks it); also here for direct callers
        raise InputError("must be an integer >= 1", field="max_workers", value=max_workers)
    data = hetero_data(workload)
    rng = np.random.default_rng(seed)
    n = {j: int(min(data.chunks[j], rng.integers(1, max_workers + 1)))
         for j in range(len(data.job_ids))}
    cfg = {j: ideal_config(data, j) for j in n}
    shrunk: dict = {}  # jobs whose drawn N fits nowhere (reported in meta; see _list.py)
    placed = list_schedule(
        data, lambda t, waiting, st: sorted(waiting, key=lambda j: (data.arrival[j], j)),
        lambda j, t, waiting: (cfg[j].m, cfg[j].p, n[j]), blocking=True, shrunk=shrunk)
    return placements_to_schedule(workload, placed, {"algorithm": "fifo",
                                                     "shrunk_jobs": len(shrunk)})

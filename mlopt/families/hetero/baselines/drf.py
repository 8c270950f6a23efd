"""DRF (seed 003, Sec. 7): worker counts by max-min fairness in dominant resources.

DECISION (reconstruction): when job j is offered a start, the waiting and running jobs share the
cluster equally in their dominant resource: j gets N = min(D_j, max(1, floor(share / s_j))) where
share = 1 / (number of waiting + running jobs) and s_j is one worker's (plus, PS, one PS per
worker's bandwidth) dominant share of the whole cluster; jobs are offered in increasing order of
dominant share already held (progressive filling), ties by arrival.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from mlopt.families.hetero.baselines._list import ideal_config, list_schedule
from mlopt.families.hetero.fields import hetero_data
from mlopt.families.hetero.online import placements_to_schedule

if TYPE_CHECKING:  # pragma: no cover
    from mlopt.schedule import Schedule


def run_drf(workload, *, seed: int = 0) -> Schedule:
    """List-schedule the jobs in their ideal configuration, least held dominant share first."""
    data = hetero_data(workload)
    total = data.cap.sum(axis=0)
    cfg = {j: ideal_config(data, j) for j in range(len(data.job_ids))}

    def dom(j):
        c = cfg[j]
        vec = data.e[c.m] + (data.z[c.p] * data.b[c.m] / data.B[c.p] if c.p >= 0 else 0)
        return float(np.max(vec / np.where(total > 0, total, 1)))

    held: dict[int, float] = {}

    def order(t, waiting, st):
        return sorted(waiting, key=lambda j: (held.get(j, 0.0), data.arrival[j], j))

    def size(j, t, waiting):
        share = 1.0 / max(1, len(waiting))
        n = int(min(data.chunks[j], max(1, np.floor(share / dom(j)))))
        held[j] = n * dom(j)
        return cfg[j].m, cfg[j].p, n

    shrunk: dict = {}  # jobs whose fair share fits nowhere (reported in meta; see _list.py)
    placed = list_schedule(data, order, size, shrunk=shrunk)
    return placements_to_schedule(workload, placed, {"algorithm": "drf",
                                                     "shrunk_jobs": len(shrunk)})

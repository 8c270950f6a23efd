"""AntMan (seed 003, Sec. 7): resource-guarantee jobs first with sufficient GPUs (the ideal
configuration), opportunistic jobs on what is left; a guarantee job that waits too long becomes
opportunistic.  DECISIONS (notes 6.15): the top half of jobs by weight are guarantee jobs; a wait
of more than ``patience`` = 5 slots demotes; opportunistic jobs take the ideal types with as many
workers as fit now (at least 1, at most D_j).  Non-preemptive (see _list.py)."""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from mlopt.families.hetero.baselines._list import ideal_config, list_schedule
from mlopt.families.hetero.fields import hetero_data
from mlopt.families.hetero.online import placements_to_schedule

if TYPE_CHECKING:  # pragma: no cover
    from mlopt.schedule import Schedule


def run_antman(workload, *, seed: int = 0, patience: int = 5) -> Schedule:
    """AntMan-style list scheduling: the heavier half of the jobs guaranteed for patience slots."""
    data = hetero_data(workload)
    J = len(data.job_ids)
    cfg = {j: ideal_config(data, j) for j in range(J)}
    guarantee = set(np.argsort(-data.weight, kind="stable")[: (J + 1) // 2].tolist())

    def is_guarantee(j, t, st):
        return j in guarantee and t - st["first_seen"][j] <= patience

    def order(t, waiting, st):
        st["t"] = t
        st["g"] = {j: is_guarantee(j, t, st) for j in waiting}
        return sorted(waiting, key=lambda j: (not st["g"][j], data.arrival[j], j))

    st_ref: dict = {}

    def order_kept(t, waiting, st):
        ranked = order(t, waiting, st)
        st_ref.update(st)
        return ranked

    def size(j, t, waiting):
        c = cfg[j]
        if st_ref["g"][j]:
            return (c.m, c.p, c.n)
        # opportunistic: whatever fits now, from the ideal count down
        counts = sorted({c.n, max(1, c.n // 2), max(1, c.n // 4), 1}, reverse=True)
        return [(c.m, c.p, n) for n in counts]

    placed = list_schedule(data, order_kept, size)
    return placements_to_schedule(workload, placed, {"algorithm": "antman"})

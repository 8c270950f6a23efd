"""Tiresias (seed 003, Sec. 7): jobs ordered by remaining workload x number of resources
(GPUs), smallest first, in the ideal configuration.  Non-preemptive here (see _list.py): the
remaining workload of a waiting job is its whole work, E D K mini-batches x duration share."""
from __future__ import annotations

from mlopt.families.hetero.baselines._list import ideal_config, list_schedule
from mlopt.families.hetero.fields import hetero_data
from mlopt.families.hetero.online import placements_to_schedule


def run_tiresias(workload, *, seed: int = 0):
    data = hetero_data(workload)
    g = data.resources.index("gpu") if "gpu" in data.resources else 0
    cfg = {j: ideal_config(data, j) for j in range(len(data.job_ids))}
    # workload x resources: worker-slots of the ideal configuration times its GPUs
    key = {j: c.d * c.n * c.n * max(1.0, data.e[c.m, g]) for j, c in cfg.items()}
    placed = list_schedule(data, lambda t, w, st: sorted(w, key=lambda j: (key[j], j)),
                           lambda j, t, w: (cfg[j].m, cfg[j].p, cfg[j].n))
    return placements_to_schedule(workload, placed, {"algorithm": "tiresias"})

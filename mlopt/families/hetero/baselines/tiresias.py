"""Tiresias (seed 003, Sec. 7): jobs ordered by remaining workload x number of resources
(GPUs), smallest first, in the ideal configuration.  Non-preemptive here (see _list.py): the
remaining workload of a waiting job is its whole work, E D K mini-batches x duration share.

DECISION (issue 23: no preemptive Tiresias).  Seed 003 calls Tiresias "a preemptive scheduler",
but its own problem excludes preemption ("We do not consider preemption in this work, because
when a job is suspended, the entire image of the job needs to be stored temporarily", Sec. 3) and
the checker enforces that (``no_preemption``), so a preemptive schedule would have no certified
objective here; and the paper blames Tiresias' results on preemption ("job execution duration is
lengthened due to frequent preemption", Sec. 7.1), so by its own account this non-preemptive
Tiresias is the stronger opponent.  The cost of one preemption is never stated either."""
from __future__ import annotations

from typing import TYPE_CHECKING

from mlopt.families.hetero.baselines._list import ideal_config, list_schedule
from mlopt.families.hetero.fields import hetero_data
from mlopt.families.hetero.online import placements_to_schedule

if TYPE_CHECKING:  # pragma: no cover
    from mlopt.schedule import Schedule


def run_tiresias(workload, *, seed: int = 0) -> Schedule:
    """List-schedule the jobs smallest ideal GPU-time first (Tiresias-style)."""
    data = hetero_data(workload)
    g = data.resources.index("gpu") if "gpu" in data.resources else 0
    cfg = {j: ideal_config(data, j) for j in range(len(data.job_ids))}
    # workload x resources: worker-slots of the ideal configuration times its GPUs
    key = {j: c.d * c.n * c.n * max(1.0, data.e[c.m, g]) for j, c in cfg.items()}
    placed = list_schedule(data, lambda t, w, st: sorted(w, key=lambda j: (key[j], j)),
                           lambda j, t, w: (cfg[j].m, cfg[j].p, cfg[j].n))
    return placements_to_schedule(workload, placed, {"algorithm": "tiresias"})

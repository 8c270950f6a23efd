"""BatchSche [11] (seed 001, Sec. V-A), a documented reconstruction.

The paper: it "groups the uncompleted jobs into multiple batches, then schedules batches one by
one to minimize the overall resource cost"; non-preemptive; the cheap cloud is chosen "with a
very high probability".  Reconstruction:

* Batches: every ``interval`` slots (default 5) the jobs that arrived since the last batch form
  one batch, dispatched at the batch slot b in arrival order (data uploads start then).
* Placement: the cloud (cheaper per worker-slot) with probability ``p_cloud`` (default 0.9,
  seeded), the whole job there (zeta_j = 1, chunks train from b + Delta_jc without preemption);
  otherwise on the edge: k_j = min(gpus_j, D_j) eligible workers that become free first, its
  chunks dealt round-robin and trained back to back on each worker, never preempted.
"""
from __future__ import annotations

import numpy as np

from mlopt.errors import InputError
from mlopt.schedule import Schedule
from mlopt.workload import Workload

from mlopt.families.edgecloud.fields import EdgeCloud
from mlopt.families.edgecloud.online import assign_ps
from mlopt.families.edgecloud.table import CLOUD_WORKER, chunk_rows, make_schedule


def run_batchsche(workload: Workload, *, seed: int = 0, interval: int = 5,
                  p_cloud: float = 0.9) -> Schedule:
    """BatchSche: dispatch arrival batches every interval slots, to the cloud with probability p_cloud."""
    if not isinstance(interval, int) or interval < 1:
        raise InputError("must be an integer >= 1", field="interval", value=interval)
    if not (isinstance(p_cloud, (int, float)) and 0.0 <= p_cloud <= 1.0):
        raise InputError("must be a probability", field="p_cloud", value=p_cloud)
    ec = EdgeCloud(workload)
    if ec.storage:
        raise InputError("the storage extension (7)/(8) is not modelled by this baseline",
                         field="extra.edgecloud.servers.storage_gb", value="batchsche")
    rng = np.random.default_rng(seed)
    free = np.ones(len(ec.workers), dtype=np.int64)  # first free slot per edge worker
    rows: list = []
    slots_of: dict[int, set] = {}
    zeta: dict[str, int] = {}
    for jv in sorted(ec.jobs, key=lambda jv: (jv.arrival, jv.index)):
        b = ((jv.arrival - 1 + interval - 1) // interval) * interval + 1  # next batch slot
        if rng.random() < p_cloud:
            zeta[jv.id] = 1
            start = b + jv.delay[ec.cloud]
            span = range(start, start + jv.p_cloud)
            for d in range(jv.chunks):
                rows += chunk_rows(jv.id, d, ec.cloud, CLOUD_WORKER, span)
            slots_of.setdefault(jv.index, set()).update(span)
            continue
        zeta[jv.id] = 0
        cand = sorted(ec.eligible(jv), key=lambda w: (max(free[w.index], b + jv.delay[w.server]),
                                                     w.index))
        k = max(1, min(jv.gpus, jv.chunks, len(cand)))
        for i, w in enumerate(cand[:k]):
            t = max(int(free[w.index]), b + jv.delay[w.server])
            for d in range(i, jv.chunks, k):
                span = range(t, t + jv.p_edge)
                rows += chunk_rows(jv.id, d, w.server, w.name, span)
                slots_of.setdefault(jv.index, set()).update(span)
                t += jv.p_edge
            free[w.index] = t
    rows += assign_ps(ec, slots_of, zeta, rng)
    return make_schedule([jv.id for jv in ec.jobs], rows, {"producer": "batchsche",
                                                           "seed": seed})

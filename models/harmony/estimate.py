"""Size of the Harmony placement MILP before it is built (:class:`mlopt.modelsize.ModelSize`).

:func:`build_placement_milp` is dense over (job, server, interval) from each job's arrival, so
its size is a closed form in the arrivals, the server count and the resources the jobs use;
the slowdown rows (every other running job's tasks on the server) dominate: O(J^2 S T)
nonzeros.  Exact for the model as built (the tests compare with
:func:`mlopt.modelsize.measure`)."""
from __future__ import annotations

import numpy as np

from mlopt.families.harmony.speed import RESOURCES
from mlopt.modelsize import ModelSize
from mlopt.models.harmony.placement import MODEL_NAME
from mlopt.workload import Workload


def estimate_placement_milp(workload: Workload, **options) -> ModelSize:
    """Return the size of the offline placement MILP without building it."""
    J, S, T = len(workload.jobs), len(workload.servers), workload.horizon
    if J == 0:  # the builder's one fixed variable, no rows
        return ModelSize(MODEL_NAME, 0, 0, 0)
    a = np.array([j.arrival for j in workload.jobs])
    span = np.maximum(0, T - a + 1)
    JT = int(span.sum())
    JST = JT * S
    # jobs present (arrived) in each interval t = 1..T
    active = np.array([(a <= t).sum() for t in range(1, T + 1)])
    nvars = 7 * JT + 3 * J * S + J + 2 * JST
    nrows = 5 * J + J * S + 2 * JT + 3 * JST + 3 * JT + 3 * JT
    nnz = (JT + 2 * J * S + 3 * J * S + J * (S + 1)  # start once, all W / P, presence, spread
           + 3 * JT - J + 2 * JT  # contiguous (2 terms in the arrival interval), from start
           + 6 * JST  # running workers / PSs
           + JT * 2 + JT * 2 + JT * 3 + JT * 8 + JT)  # spread, speed, one piece, pieces, epochs
    for n in range(J):  # slowdown: D, z, u and both task counts of every other present job
        nnz += S * int(sum(2 * (active[t - 1] - 1) + 3 for t in range(a[n], T + 1)))
    # capacity rows: (server, interval, resource) with a present job demanding the resource
    for r in RESOURCES:
        # a task kind without demand in r has a zero coefficient: no nonzero
        terms = np.array([(j.worker_demand[r] > 0) + (j.ps_demand[r] > 0) for j in workload.jobs])
        users = np.array([((a <= t) * terms).sum() for t in range(1, T + 1)])
        nrows += S * int((users > 0).sum())
        nnz += S * int(users.sum())
    return ModelSize(MODEL_NAME, nvars, nrows, nnz)

"""Size of the Harmony placement MILP before it is built (:class:`mlopt.modelsize.ModelSize`).

:func:`build_placement_milp` is dense over (job, server, interval) from each job's arrival, so
its size is a closed form in the arrivals, the server count and the resources the jobs use;
the slowdown rows (every other running job's tasks on the server) dominate: O(J^2 S T)
nonzeros.  Exact for the model as built (the tests compare with
:func:`mlopt.modelsize.measure`)."""
from __future__ import annotations

import numpy as np

from mlopt.families.harmony.speed import RESOURCES, model_of
from mlopt.modelsize import ModelSize
from mlopt.models.harmony.placement import MODEL_NAME, min_run, server_classes
from mlopt.workload import Workload


def estimate_placement_milp(workload: Workload, *, symmetry: bool = True, run_rows: bool = True,
                            share_row: bool = False, tight_bigm: bool = True,
                            upper: float | None = None, **options) -> ModelSize:
    """Return the size of the offline placement MILP without building it (exact, except with
    ``upper``: its windows fix variables a measured model no longer counts, so the estimate is
    then above the real size, which only makes a refusal cautious)."""
    J, S, T = len(workload.jobs), len(workload.servers), workload.horizon
    if J == 0:  # the builder's one fixed variable, no rows
        return ModelSize(MODEL_NAME, 0, 0, 0)
    extra_rows = extra_nnz = 0
    if symmetry:  # a row per (job, server with a previous one in its class): z and the prefix
        followers = sum(len(c) - 1 for c in server_classes(workload))
        extra_rows += J * followers
        extra_nnz += followers * sum(1 + (i + 1) for i in range(J))
    # share_row and upper's objective row: one row each over every st and act (st at the
    # arrival has coefficient 0)
    for on in (share_row, upper is not None):
        if on:
            a0 = np.array([j.arrival for j in workload.jobs])
            extra_rows += 1
            extra_nnz += 2 * int(np.maximum(0, T - a0 + 1).sum()) - int((a0 <= T).sum())
    if run_rows:
        sm = model_of(workload)
        for j in workload.jobs:
            e = float(j.epochs)
            b = float(sm.standalone(sm.index(j.extra["model"]), int(j.extra["workers"])))
            k = min_run(e, b)
            ts = range(j.arrival, T + 1)
            extra_rows += 1  # c_run_total over the job's intervals
            extra_nnz += len(ts)
            if k >= 2:  # c_run_length: act and the starts in the window
                extra_rows += len(ts)
                extra_nnz += sum(1 + min(k, t - j.arrival + 1) for t in ts)
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
    return ModelSize(MODEL_NAME, nvars, nrows + extra_rows, nnz + extra_nnz)

"""Size of the OASiS utility ILP before it is built (:class:`mlopt.modelsize.ModelSize`).

Counts the variables, rows and nonzeros of :func:`build_utility_ilp` row family by row family
from the same index data (:func:`index_data`), with slot ranges summed arithmetically instead
of listed: milliseconds for the paper's 200 jobs x 300 slots x 100 servers, whose build takes
minutes and gigabytes (issue 20).  Exact for the model as built (the tests compare with
:func:`mlopt.modelsize.measure`)."""
from __future__ import annotations

from mlopt.modelsize import ModelSize
from mlopt.models.oasis import _OPTIONS, MODEL_NAME, index_data
from mlopt.workload import Workload


def estimate_utility_ilp(workload: Workload, **options) -> ModelSize:
    """Return the size of the utility ILP without building it."""
    opts = {**_OPTIONS, **options}
    d = index_data(workload, opts["completion_window"])
    T, R = workload.horizon, workload.resources
    nvars = nrows = nnz = 0
    for j in workload.jobs:
        i, a = j.id, j.arrival
        span = T - a + 1  # slots a_i..T
        ny, nz = len(d["y_servers"][i]), len(d["z_servers"][i])
        first = d["first_completion"][i]
        nu = max(0, T - first + 1)
        nvars += 1 + (ny + nz) * span + nu  # x, y, z, u
        nrows += 2  # c2, c8_one_completion
        nnz += ny * span + 1 + nu + 1
        if ny:
            # c3 (ys + x), c6 (ys + zs, or ys alone), c8_after (ys + the u suffix)
            nrows += 3 * span
            nnz += span * (ny + 1) + span * (ny + nz)
            nnz += span * ny + sum(T - max(t, first) + 1 for t in range(a, T + 1) if t <= T
                                   and max(t, first) <= T)
            nrows += nu  # c8_in: ys + u
            nnz += nu * (ny + 1)
        elif nu:
            nrows += nu
            nnz += nu
        if nz:
            nrows += span  # c7: zs + ys
            nnz += span * (nz + ny)
        # capacity rows' nonzeros: one per variable and resource the job uses
        nnz += ny * span * sum(1 for r in R if j.worker_demand[r] > 0)
        nnz += nz * span * sum(1 for r in R if j.ps_demand[r] > 0)
    # capacity rows (4)/(5): a (server, slot, resource) row from the earliest arrival using it
    for key, demand in (("y_ub", "worker_demand"), ("z_ub", "ps_demand")):
        earliest: dict[tuple[str, str], int] = {}
        job = {j.id: j for j in workload.jobs}
        for (i, h) in d[key]:
            for r in R:
                if getattr(job[i], demand)[r] > 0:
                    earliest[h, r] = min(earliest.get((h, r), T + 1), job[i].arrival)
        nrows += sum(T - a + 1 for a in earliest.values())
    return ModelSize(MODEL_NAME, nvars, nrows, nnz)

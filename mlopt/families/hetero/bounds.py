"""Certified lower bounds on the optimal weighted completion time of (2) / (15), for instances
beyond the exact MILP's reach.

``lower_bound(workload)`` = max(B1, B2_r over resources r):

* B1 = sum_j w_j (a_j + dmin_j): no job completes before its arrival plus its shortest
  duration over configurations that fit the empty cluster.
* B2_r (volume / Smith bound): a job needs at least A_j^r = min over fitting configurations of
  d_k * (N_k e_m^r + [PS] z_p^r) units of resource r x slots (the PS term counts one PS, the
  least (2e) allows), and the cluster offers C^r = sum_h C_h^r per slot (the load the checker
  accepts, ``HeteroData.limit``; durations as the checker counts work,
  ``HeteroData.duration``).  Slots start at 1 and job j occupies slots < c_j, so the jobs done
  by c_j used at most C^r (c_j - 1):
  sum_{k: c_k <= c_j} A_k^r <= C^r (c_j - 1).  Minimizing sum_j w_j c_j subject to these
  inequalities is a one-machine problem with processing times p_j = A_j^r / C^r whose optimum is
  Smith's order (w_j / p_j descending); its value is below OPT because every feasible schedule
  satisfies the inequalities.
"""
from __future__ import annotations

import numpy as np

from mlopt.families.hetero.configs import fits_alone, job_configs
from mlopt.families.hetero.fields import hetero_data
from mlopt.workload import Workload


def lower_bound(workload: Workload, **_ignored) -> dict:
    """Return a lower bound on the weighted completion time (arrival+dmin and volume bounds)."""
    data = hetero_data(workload)
    J, R = len(data.job_ids), len(data.resources)
    dmin = np.zeros(J)
    area = np.full((J, R), np.inf)
    fits: dict[tuple, bool] = {}  # fits_alone reads only (m, p, q, N): one test per key
    for j in range(J):
        for c in job_configs(data, j):
            key = (c.m, c.p, c.q, c.n)
            if key not in fits:
                fits[key] = fits_alone(data, c)
            if not fits[key]:
                continue
            dmin[j] = c.d if dmin[j] == 0 else min(dmin[j], c.d)
            use = c.n * data.e[c.m] + (data.z[c.p] if c.p >= 0 else 0.0)
            area[j] = np.minimum(area[j], c.d * use)
    b1 = float(np.sum(data.weight * (data.arrival + dmin)))
    total = data.limit.sum(axis=0)  # the load the checker accepts (mlopt.tolerance)
    b2 = {}
    for r in range(R):
        if total[r] <= 0 or not np.any(area[:, r] > 0):
            continue
        p = area[:, r] / total[r]
        order = sorted(range(J), key=lambda j: -(data.weight[j] / p[j]) if p[j] > 0 else -np.inf)
        t, val = 1.0, 0.0
        for j in order:
            t += p[j]
            val += data.weight[j] * t
        b2[data.resources[r]] = float(val)
    best = max([b1, *b2.values()])
    return {"bound": best, "arrival_plus_dmin": b1, "volume": b2}

"""Jain et al.'s offline greedy for jobs with deadlines (seed 003 ref. [44], compared only with
A_maxweight in Fig. 8).  DOCUMENTED RECONSTRUCTION (the reference is not identified in the
text; notes 6.15): value-density order -- w_j over the resource volume (sum_t sum_r f/C) of the
job's ideal configuration, descending -- and each job at the earliest start, with its ideal
configuration, that completes by the deadline tau on the window's remaining capacity."""
from __future__ import annotations

import numpy as np

from mlopt.families.hetero.baselines._list import Profile, ideal_config, place
from mlopt.families.hetero.data import HeteroData


def jain_greedy(data: HeteroData, jobs: list[int], tau: int):
    """Returns [(placement, start)] of the admitted jobs in a window of tau slots."""
    cmax = data.cap.max(axis=0)
    inv = np.where(cmax > 0, 1.0 / np.where(cmax > 0, cmax, 1), 0.0)
    cfg = {j: ideal_config(data, j) for j in jobs}

    def density(j):
        c = cfg[j]
        vol = c.d * (c.n * data.e[c.m] @ inv + (data.z[c.p] @ inv if c.p >= 0 else 0.0))
        return data.weight[j] / vol
    prof = Profile(data, length=max(4, tau))
    out = []
    for j in sorted(jobs, key=lambda j: (-density(j), j)):
        c = cfg[j]
        for t in range(1, tau):
            pl = place(data, prof, j, c.m, c.p, c.n, t)
            if pl is not None and t + pl.d <= tau:
                prof.commit(pl, t)
                out.append((pl, t))
                break
            if t + c.d > tau:
                break
    return out

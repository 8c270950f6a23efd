"""Jain et al.'s offline greedy for jobs with deadlines (seed 003 ref. [44], compared only with
A_maxweight in Fig. 8).  DOCUMENTED RECONSTRUCTION (the reference is not identified in the
text; notes 6.15): value-density order -- w_j over the resource volume (sum_t sum_r f/C) of the
job's configuration, descending -- and each job at the earliest start, with that configuration,
that completes by the deadline tau on the window's remaining capacity.

DECISION (the job's configuration): the fastest configuration (configs.job_configs order: d,
then N, m, p) that the baselines' placement rule (_list.place) can put on the empty cluster.
Since ``place`` also builds split placements with workers beside the PSs (as
``configs.fits_alone`` and A_mincost1 allow, (2i)), this is the "ideal case" (notes 6.14) under
both architectures; the search over placeable configurations stays as a guard.  (Before that,
the ideal PS configuration was often not placeable and an earlier greedy that used it directly
admitted almost no PS job: Fig. 12 at 10 and 20 jobs.)  The fastest configuration is also the
deadline-aware choice: if it cannot finish by tau on the empty cluster, none can, so the job is
rejected.
"""
from __future__ import annotations

import numpy as np

from mlopt.families.hetero.baselines._list import Profile, place
from mlopt.families.hetero.configs import fits_alone, job_configs
from mlopt.families.hetero.fields import HeteroData
from mlopt.families.hetero.mincost import Placement


def fastest_placeable(data: HeteroData, j: int) -> Placement:
    """Job j's fastest configuration, placed by ``place`` at slot 1 of the empty cluster."""
    tried: set[tuple[int, int, int]] = set()
    for c in job_configs(data, j):
        # place picks q itself (co-located first), so each (m, p, N) needs one try; its
        # placement is c's when place reaches c's duration (q = 1 failing gives a longer q = 0)
        if (c.m, c.p, c.n) in tried or not fits_alone(data, c):
            continue
        tried.add((c.m, c.p, c.n))
        pl = place(data, Profile(data, 8), j, c.m, c.p, c.n, 1)
        if pl is not None and pl.d <= c.d:
            return pl
    raise ValueError(f"job {data.job_ids[j]} fits nowhere")


def jain_greedy(data: HeteroData, jobs: list[int], tau: int) -> list[tuple[Placement, int]]:
    """Returns [(placement, start)] of the admitted jobs in a window of tau slots: each occupies
    slots start .. start + d - 1 <= tau - 1."""
    cmax = data.cap.max(axis=0)
    inv = np.where(cmax > 0, 1.0 / np.where(cmax > 0, cmax, 1), 0.0)
    cfg = {j: fastest_placeable(data, j) for j in jobs}

    def density(j):
        c = cfg[j]  # volume of its placement on the empty cluster (workers and all its PSs)
        return data.weight[j] / (c.d * sum(v @ inv for v in c.usage(data).values()))
    prof = Profile(data, length=max(4, tau))
    out = []
    for j in sorted(jobs, key=lambda j: (-density(j), j)):
        c = cfg[j]
        # c.d is the shortest (m, p, N) can run (its co-located form if that fits at all), so
        # no later start can finish by tau either
        for t in range(1, tau - c.d + 1):
            pl = place(data, prof, j, c.m, c.p, c.n, t)
            if pl is not None and t + pl.d <= tau:
                prof.commit(pl, t)
                out.append((pl, t))
                break
    return out

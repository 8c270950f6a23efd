"""Priced list schedules: ``pnb``'s insertion with a price on the capacity a job occupies
(issue 21).

WHY.  ``pnb``'s list schedules insert each job where it completes earliest, which picks the
widest configuration that fits: the speed-up in the number of workers is sublinear, so the
fastest run of a job costs more resource-slots than a narrower one.  Measured at
``paper-default`` (``hetero-open-1``, Ring-AllReduce, 100 jobs): the LP-order list schedule used
324,157 GPU-slots where the converged column-generation LP used 259,055, the GPUs were >= 84%
busy from the first arrival to the last completions, and its loss against the LP's mean
completions was all waiting (sum w_j (S_j - S_j^LP) = 14.1M; shorter runs than the LP's gave
back 2.9M): the jobs inserted first took the room the later ones waited for
(``benchmarks/hetero/frontier.md``, "Priced insertion").

THE RULE.  Job j, inserted in a list order, goes to the placement (configuration, servers,
start t) of the current residual profile minimizing

    w_j (t + d) + price_j * area,   price_j = beta * (total weight of the jobs after j),
    area = d * max_r (u^r / C^r)

with u^r the placement's use of resource r per slot and C^r the cluster's total: its dominant
share of the cluster times its duration.  The price is the delay estimate of a saturated
cluster: occupying a share f of it for d slots pushes the work still to be placed back by
about f d slots, and with it the completions of the jobs after j.  beta = 0 is the plain
earliest completion (the old rule); beta = 1 charges every later job the full delay (too much:
not all of them wait), so beta is a parameter (``pnb``'s option ``insertion_price``) and a
short ladder of values is tried as separate candidates (:func:`betas`).

DECISIONS (the paper has no such heuristic): the dominant share (not a sum over resources)
because one resource binds at a time and it is unit-free; the remaining weight in the list
order (not the weight of the jobs that arrived) because the order is what decides who goes
after j; the ladder beta, 2 beta, beta / 2 measured on both ``hetero-open`` instances (table in
frontier.md).
"""
from __future__ import annotations

import math

import numpy as np

from mlopt.families.hetero.baselines._list import place
from mlopt.families.hetero.fields import HeteroData
from mlopt.families.hetero.mincost import Placement


def betas(beta: float) -> list[float]:
    """The prices tried, in order: the option's value, then twice and half of it."""
    return list(dict.fromkeys([beta, 2 * beta, beta / 2])) if beta > 0 else [0.0]


class Pricer:
    """The dominant-share area of placements and, per (job, key), a lower bound on it (co-located
    duration, the fewest PSs: one) for pruning."""

    def __init__(self, data: HeteroData, keys: list[list[tuple]]):
        self.data = data
        tot = data.cap.sum(axis=0)
        self.inv = np.where(tot > 0, 1.0 / np.maximum(tot, 1e-300), 0.0)
        ps = data.architecture == "ps"
        self.low: list[dict[tuple, float]] = []
        for j, ks in enumerate(keys):
            low = {}
            for m, p, n in ks:
                use = n * data.e[m] + (data.z[p] if ps else 0.0)
                d = data.duration(j, n, data.rate(j, m, p, 1, n))  # co-located: shortest
                low[m, p, n] = d * float(np.max(use * self.inv))
            self.low.append(low)

    def area(self, pl: Placement) -> float:
        return pl.d * float(np.max(sum(pl.usage(self.data).values()) * self.inv))


def priced_insertion(search, pricer: Pricer, j: int, price: float) -> Placement | None:
    """Job j's placement in ``search``'s profile minimizing the module docstring's cost
    (None if none fits before the profile's last completion; the caller then appends it)."""
    data = search.data
    a, wj = int(data.arrival[j]), float(data.weight[j])
    ends = sorted({pl.completion for pl in search.pl.values() if pl.completion > a})
    low = pricer.low[j]
    floor = price * min(low.values())
    best, bar = None, math.inf
    for t in [a, *ends]:  # capacity only frees at completions (price_and_branch, 2)
        if wj * (t + search.fast[j]) + floor >= bar:
            break  # every later start costs more
        for key in search.keys[j]:
            m, p, n = key
            d = data.duration(j, n, data.rate(j, m, p, 1, n))
            if wj * (t + d) + price * low[key] >= bar:
                continue
            pl = place(data, search.res, j, m, p, n, t)
            if pl is None:
                continue
            cost = wj * pl.completion + price * pricer.area(pl)
            if cost < bar:
                best, bar = pl, cost
    return best


def priced_list(search, pricer: Pricer, order: list[int], beta: float, *, stop=None):
    """Insert ``order``'s jobs into the empty ``search`` with the price of the module docstring;
    ``search`` itself, or None if ``stop()`` said so before every job was placed."""
    data = search.data
    rest = float(sum(data.weight[j] for j in order))
    for j in order:
        if stop is not None and stop():
            return None
        rest -= float(data.weight[j])
        pl = priced_insertion(search, pricer, j, beta * max(0.0, rest)) if beta > 0 else None
        if pl is None:
            search.insert(j)  # earliest completion (appends after everything if need be)
        else:
            search.put(pl)
    return search

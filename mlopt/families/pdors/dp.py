"""Alg. 2 + Alg. 3 of seed 004: the best completion slot and the DP over time (21).

DECISION (workload grid, notes O6).  The seed recurses over single samples (up to 1e8 values
of v) without memoisation.  We cut the job's work V_i into ``grid`` equal units (default 100)
and let each slot do an integer number of units: Theta(t, k) = min_j theta(t, j) +
Theta(t - 1, k - j), k = 0..grid, with Theta(a_i - 1, 0) = 0 and Theta(a_i - 1, k > 0) = inf
(the base case the seed omits) and theta(t, 0) = 0.  The table is built bottom-up once per job
(prices are fixed while a job is decided) and serves every candidate completion slot t~ of
Alg. 2 at once: payoff(t~) = u_i(t~ - a_i) - Theta(t~, grid).  The strict > of Alg. 2 keeps the
earliest best t~.  The grid is a restriction (a slot cannot do 1/250 of the job when the grid
is 100), so PD-ORS can only lose against the continuous (3); with the exact per-slot oracle the
DP equals :func:`mlopt.models.pdors.slot.build_pricing_milp` (tested).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np


@dataclass
class DPResult:
    payoff: float  # max(0, best u - Theta); 0 when rejected
    end_slot: int | None
    cost: float
    units: dict[int, int]  # slot -> grid units planned (only slots with work)


def best_schedule(theta: dict[int, np.ndarray], arrival: int, horizon: int, grid: int,
                  utility) -> DPResult:
    """``theta[t]``: costs of j = 0..grid units in slot t (inf where impossible)."""
    prev = np.full(grid + 1, math.inf)
    prev[0] = 0.0
    choice: dict[int, np.ndarray] = {}
    best = DPResult(0.0, None, 0.0, {})
    best_t, best_val = None, 0.0
    for t in range(arrival, horizon + 1):
        th = theta[t]
        cur = prev.copy()  # j = 0
        arg = np.zeros(grid + 1, dtype=int)
        for j in np.flatnonzero(np.isfinite(th[1:])) + 1:
            cand = th[j] + prev[:grid + 1 - j]
            better = cand < cur[j:] - 1e-12
            cur[j:] = np.where(better, cand, cur[j:])
            arg[j:] = np.where(better, j, arg[j:])
        choice[t] = arg
        prev = cur
        if math.isfinite(cur[grid]):
            val = float(utility(t - arrival)) - float(cur[grid])
            if val > best_val:
                best_t, best_val = t, val
    if best_t is None:
        return best
    units, k = {}, grid
    cost = 0.0
    for t in range(best_t, arrival - 1, -1):
        j = int(choice[t][k])
        if j:
            units[t] = j
            cost += float(theta[t][j])
        k -= j
    assert k == 0
    return DPResult(best_val, best_t, cost, units)

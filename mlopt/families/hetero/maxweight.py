"""A_maxweight (Alg. 3 of seed 003): primal-dual for the round's max-weight problem (7)/(8).

For each job in order, the cheapest schedule under the current prices (A_mincost2 for q = 1,
A_mincost1 for q = 0, or the RA pair) is committed when its utility u_j = w_j - cost_j > 0; the
prices of the slots and servers it uses rise by (11).  DECISIONS: job order is arrival order
(``order="weight"``: descending weight); lambda = 2 T H R F + 1 with the workload's T (notes 6.1);
F from the data when not given (:func:`default_F`).

:func:`dual_value` evaluates the dual (9) at the final prices with u_j from (10): an upper bound
on the LP relaxation of (8), hence on the round's optimal weight (used to bound the real ratio).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from mlopt.families.hetero.configs import KeyTest, fits_alone, job_config_arrays
from mlopt.families.hetero.fields import HeteroData
from mlopt.families.hetero.mincost import Placement, Searcher, Window


def default_F(data: HeteroData, searcher: Searcher | None = None) -> float:
    """Upper estimate of F in assumption A1: max_j w_j / (least resource volume of a schedule of
    j), the volume sum_t sum_h sum_r f/C measured on the largest capacity of each resource (the
    smallest fraction any server can give), so w_j / volume_j(l) <= F for every l.
    ``searcher``: reuse its per-job configurations (A_online computes them once)."""
    cmax = data.cap.max(axis=0)
    inv = np.where(cmax > 0, 1.0 / np.where(cmax > 0, cmax, 1), 0.0)
    F = 1.0
    fits = KeyTest(data, lambda c: fits_alone(data, c))  # ignores d and j: once per key
    we = np.array([(data.e[m] * inv).sum() for m in range(len(data.e))])  # per-slot fraction
    zp = np.array([(data.z[p] * inv).sum() for p in range(len(data.z))])
    for j in range(len(data.job_ids)):
        a = searcher.config_array(j) if searcher else job_config_arrays(data, j)
        ok = fits(a)
        m, p, n, d = a[ok, 0], a[ok, 1], a[ok, 3], a[ok, 4]
        per_slot = n * we[m]  # elementwise the scalar n * we_m (+ zp_p), d * per_slot
        if data.architecture == "ps":
            per_slot = per_slot + zp[p]
        vols = d * per_slot
        F = max(F, data.weight[j] / vols.min())
    return float(F)


def lam_of(data: HeteroData, F: float) -> float:
    """Return lambda = 2 T H R F + 1."""
    H, R = data.cap.shape
    return 2.0 * data.horizon * H * R * F + 1.0


@dataclass
class MaxWeightResult:
    admitted: list[Placement]
    window: Window
    considered: list[int]
    utilities: dict[int, float] = field(default_factory=dict)

    @property
    def weight(self) -> float:
        """Total weight of the admitted placements."""
        return float(sum(self.window.data.weight[p.job] for p in self.admitted))


def a_maxweight(data: HeteroData, jobs: list[int], tau: int, lam: float, *,
                searcher: Searcher | None = None) -> MaxWeightResult:
    """One call of Alg. 3 on an empty window of tau slots (usable 1..tau-1)."""
    searcher = searcher or Searcher(data)
    win = Window(data, tau, lam)
    res = MaxWeightResult([], win, list(jobs))
    for j in jobs:
        pl = searcher.best(j, win)
        if pl is None:
            continue  # no schedule of j completes by tau (7b)
        u = data.weight[j] - pl.cost
        res.utilities[j] = u
        if u > 0:
            win.commit(pl)
            res.admitted.append(pl)
    win.by_len.clear()  # results keep their window (final prices): not its search cache
    win.by_len_bytes = 0
    return res


def dual_value(data: HeteroData, res: MaxWeightResult, searcher: Searcher | None = None) -> float:
    """Dual objective (9) at the final prices, u_j = max(0, w_j - min cost) (10), the min over
    every schedule of j that fits the empty window (the set (8) ranges over), at the final
    prices.  Searching the busy window instead (before 2026-11-26) missed schedules that no
    longer fit and could give a value below the call's own weight."""
    searcher = searcher or Searcher(data)
    win = res.window
    priced = win.priced_empty()  # (10) ranges over every schedule of (8), not the leftover room
    u = 0.0
    for j in res.considered:
        pl = searcher.best(j, priced)
        if pl is not None:
            u += max(0.0, data.weight[j] - pl.cost)
    delta = win.prices()[:, :, : win.tau - 1]
    # DECISION (units): prices per capacity fraction, so the capacity term is delta x 1 (8a)/C
    cap_term = float(np.where(data.cap[:, :, None] > 0, delta, 0.0).sum())
    return u + cap_term


def theorem3_ratio(lam: float) -> float:
    """Return the Theorem 3 ratio 2 log2(lambda)."""
    return 2.0 * math.log2(lam)

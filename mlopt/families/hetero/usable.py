"""Usable capacity: per server and resource r, the most of r that any integer packing of
workers and PSs can occupy on that server alone,

    K_h^r = max { sum_i n_i a_i^r  :  sum_i n_i a_i <= C_h,  n_i in Z_{>=0} },

items i = the worker types (e_m) and, under PS, the PS types (z_p).  In every schedule, in
every slot, each server holds such a packing, so the jobs' use of r summed over servers is at
most sum_h K_h^r <= sum_h C_h^r: the pooled capacity rows of :mod:`.colgen` stay valid with
K in place of C, and are tighter wherever a server's resources cannot be filled (a 4-CPU
server that holds no worker; memory a server's GPUs run out long before).

CERTIFIED: K_h^r is the HiGHS MIP's *dual* bound (an upper bound on the maximum whether or not
the MIP finished), raised by 1e-9 relative + 1e-9 absolute, and never above C_h^r; the
knapsack's capacities are the checker's (C_h (1 + 1e-9) + 1e-9), so a packing the checker
accepts is inside it.  One MIP per (distinct server shape, resource): 9 shapes x 4 resources
at ``paper-default``.

PRICED CAPACITY (:func:`priced_capacity`): the same knapsack with any prices alpha >= 0 per
item in place of one resource's use: every slot's contents of server h are worth at most
K_h(alpha) at those prices, so sum_i alpha_i (items of kind i running) <= sum_h K_h(alpha)
is valid for every schedule -- the per-resource rows (alpha = a^r), the type rows (alpha = a
unit vector) and every nonnegative combination of them, tightened to what integer packings
of the actual servers reach.
"""
from __future__ import annotations

import math
import time

import numpy as np

from mlopt.families.hetero.fields import HeteroData

_TOL = 1e-9
#: in units of the largest value: items worth less are not given to HiGHS (knapsack_max)
_TINY = 1e-6
#: per copy that fits, raised onto HiGHS's dual bound for the reduced costs it ignores
#: (ten times the dual feasibility tolerance it is given)
_MARGIN = 1e-9
#: seconds per knapsack MIP (its dual bound is certified whenever it stops)
KNAPSACK_SECONDS = 5.0


def items(data: HeteroData) -> np.ndarray:
    """Use vectors of everything a server can hold: worker types, then PS types (PS only)."""
    return np.vstack([data.e, data.z]) if data.architecture == "ps" and len(data.z) else data.e


def knapsack_max(cap: np.ndarray, use: np.ndarray, value: np.ndarray) -> float:
    """An upper bound (the MIP's dual bound) on max value . n over integer n >= 0 with
    n @ use <= cap (checker tolerance); items of value 0 are left out (they cannot help).

    HiGHS treats a reduced cost below its dual feasibility tolerance as zero, so its dual
    bound can miss an item whose value is tiny beside the others' (prices (5.96e-8, 1.0)
    gave 0 where one item of 5.96e-8 fits).  Hence, in units of the largest value: items
    below ``_TINY`` are left out of the MIP and added at their most (value x the most copies
    that fit, exact); the MIP runs with the tightest dual tolerance HiGHS takes, and its
    bound is raised by ``_MARGIN`` per copy that could fit (the most a reduced cost it
    ignored can add up to).  DECISION: a margin on HiGHS's word, not a proof."""
    import highspy

    from mlopt.solvers.quiet_highs import quiet_highs, run_highs

    keep = np.flatnonzero(value > 0)
    if len(keep) == 0:
        return 0.0
    use, value = use[keep], value[keep].astype(float)
    if (use <= 0).all(axis=1).any():
        return math.inf  # an item using nothing: unbounded, no finite bound claimed
    room = np.asarray(cap, float) * (1 + _TOL) + _TOL  # what the checker accepts
    with np.errstate(divide="ignore"):
        fits = np.floor(np.where(use > 0, room / np.where(use > 0, use, 1.0), np.inf)
                        .min(axis=1))  # the most copies of each item alone
    # an item that fits nowhere adds nothing, and must not set the scale: beside a price
    # 1e7 times the others' it made every item that fits "tiny", all summed at their most
    # (a bound 3x the max), and its rounding left the bound an ulp below a packing
    fit = fits >= 1
    if not fit.any():
        return 0.0
    use, value, fits = use[fit], value[fit], fits[fit]
    scale = float(value.max())
    value = value / scale
    tiny = value < _TINY
    extra = float(value[tiny] @ fits[tiny])  # the tiny items at their most
    use, value, fits = use[~tiny], value[~tiny], fits[~tiny]
    h = quiet_highs()
    h.setOptionValue("time_limit", KNAPSACK_SECONDS)
    h.setOptionValue("mip_rel_gap", 1e-9)  # the dual bound is what counts: close it
    h.setOptionValue("mip_abs_gap", 0.0)
    h.setOptionValue("dual_feasibility_tolerance", 1e-10)
    n, inf = len(value), highspy.kHighsInf
    h.addCols(n, -value, np.zeros(n), fits, 0,
              np.zeros(0, dtype=np.int32), np.zeros(0, dtype=np.int32), np.zeros(0))
    for r in range(use.shape[1]):
        nz = np.flatnonzero(use[:, r] > 0)
        if len(nz):
            h.addRow(-inf, float(room[r]), len(nz), nz.astype(np.int32),
                     use[nz, r].astype(float))
    h.changeColsIntegrality(n, np.arange(n, dtype=np.int32),
                            np.full(n, highspy.HighsVarType.kInteger))
    run_highs(h)
    status = h.getModelStatus()
    if status not in (highspy.HighsModelStatus.kOptimal, highspy.HighsModelStatus.kTimeLimit):
        return math.inf  # failed: no finite bound claimed
    # minimization of -value . n: its dual bound is a lower bound on -max
    bound = -float(h.getInfo().mip_dual_bound)
    if not np.isfinite(bound):
        return math.inf
    return scale * (max(bound, 0.0) + _MARGIN * float(fits.sum()) + extra)


def usable_capacity(data: HeteroData) -> np.ndarray:
    """K (H x R): per server and resource, the certified usable capacity (module docstring)."""
    it = items(data)
    out = data.limit.astype(float).copy()  # the load the checker accepts (mlopt.tolerance)
    shapes: dict[tuple, np.ndarray] = {}
    for h, row in enumerate(data.cap.tolist()):
        key = tuple(row)
        if key not in shapes:
            cap = np.asarray(row, dtype=float)
            k = np.array([knapsack_max(cap, it, it[:, r]) for r in range(len(row))])
            shapes[key] = np.minimum(out[h], k * (1 + _TOL) + _TOL)
        out[h] = shapes[key]
    return out


def priced_capacity(data: HeteroData, alpha: np.ndarray, *, deadline: float = math.inf,
                    fallback: np.ndarray | None = None) -> np.ndarray:
    """Per row s of ``alpha`` (S x items, prices >= 0 per worker / PS of each type): an upper
    bound on the most any schedule's contents of one slot can be worth at those prices,
    sum_h max { alpha_s . n : n a packing of server h } (one knapsack per distinct server shape
    and price row, certified as in :func:`knapsack_max`, raised by 1e-6 relative for the MIP's
    tolerances).  ``fallback`` (S,): another valid upper bound per row, used where it is
    smaller and for every row not reached by ``deadline`` (``time.perf_counter()``)."""
    it = items(data)
    shapes: dict[tuple, int] = {}
    for row in data.cap.tolist():
        shapes[tuple(row)] = shapes.get(tuple(row), 0) + 1
    out = np.full(len(alpha), np.inf) if fallback is None else np.asarray(fallback, float).copy()
    memo: dict[bytes, float] = {}
    for s in np.argsort(-np.abs(alpha).sum(axis=1), kind="stable").tolist():  # largest first
        a = np.maximum(alpha[s], 0.0)
        if not a.any():
            out[s] = 0.0
            continue
        key = a.tobytes()  # exact prices only: a K is reused only for the same prices
        if key not in memo:
            if time.perf_counter() > deadline:
                continue  # the fallback stands
            memo[key] = sum(n * knapsack_max(np.asarray(shape, float), it, a)
                            for shape, n in shapes.items()) * (1 + 1e-6) + 1e-9
        out[s] = min(out[s], memo[key])
    return out

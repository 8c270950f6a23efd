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
"""
from __future__ import annotations

import numpy as np

from mlopt.families.hetero.fields import HeteroData

_TOL = 1e-9
#: seconds per knapsack MIP (its dual bound is certified whenever it stops)
KNAPSACK_SECONDS = 5.0


def items(data: HeteroData) -> np.ndarray:
    """Use vectors of everything a server can hold: worker types, then PS types (PS only)."""
    return np.vstack([data.e, data.z]) if data.architecture == "ps" and len(data.z) else data.e


def knapsack_max(cap: np.ndarray, use: np.ndarray, value: np.ndarray) -> float:
    """An upper bound (the MIP's dual bound) on max value . n over integer n >= 0 with
    n @ use <= cap (checker tolerance); items of value 0 are left out (they cannot help)."""
    import highspy

    from mlopt.solvers.quiet_highs import quiet_highs, run_highs

    keep = np.flatnonzero(value > 0)
    if len(keep) == 0:
        return 0.0
    use, value = use[keep], value[keep]
    h = quiet_highs()
    h.setOptionValue("time_limit", KNAPSACK_SECONDS)
    n, inf = len(keep), highspy.kHighsInf
    h.addCols(n, -value.astype(float), np.zeros(n), np.full(n, inf), 0,
              np.zeros(0, dtype=np.int32), np.zeros(0, dtype=np.int32), np.zeros(0))
    for r in range(use.shape[1]):
        nz = np.flatnonzero(use[:, r] > 0)
        if len(nz):
            h.addRow(-inf, float(cap[r]) * (1 + _TOL) + _TOL, len(nz), nz.astype(np.int32),
                     use[nz, r].astype(float))
    h.changeColsIntegrality(n, np.arange(n, dtype=np.int32),
                            np.full(n, highspy.HighsVarType.kInteger))
    run_highs(h)
    # minimization of -value . n: its dual bound is a lower bound on -max
    bound = -float(h.getInfo().mip_dual_bound)
    if not np.isfinite(bound):  # no bound at all (HiGHS stopped before the root): the LP's
        bound = float("inf")
    return bound


def usable_capacity(data: HeteroData) -> np.ndarray:
    """K (H x R): per server and resource, the certified usable capacity (module docstring)."""
    it = items(data)
    out = data.cap.astype(float).copy()
    shapes: dict[tuple, np.ndarray] = {}
    for h, row in enumerate(data.cap.tolist()):
        key = tuple(row)
        if key not in shapes:
            cap = np.asarray(row, dtype=float)
            k = np.array([knapsack_max(cap, it, it[:, r]) for r in range(len(row))])
            shapes[key] = np.minimum(cap, k * (1 + _TOL) + _TOL)
        out[h] = shapes[key]
    return out

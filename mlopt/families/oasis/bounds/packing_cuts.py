"""Bin-packing cuts for the class-merged utility ILP: what merging a class's servers forgets.

On the merged cluster (:mod:`.class_relaxation`) a class of n servers is one server with n
times the capacity, so e.g. five 3-GPU workers fit a class of four 4-GPU servers (15 <= 16)
although only four fit the real servers (one each).  A *dual-feasible function* u of bin
packing (u: [0, 1] -> [0, 1] with sum u(x_j) <= 1 whenever sum x_j <= 1) gives one valid row
per (class, resource, slot):

    sum_i a_i y_ic(t) <= n_c,   a_i = min_{h in c, a copy of i fits on h} u(d_i^r / c_h^r),

because on each real server h, sum_i u(d_i^r / c_h^r) y_ih(t) <= 1 (its load is at most its
capacity), a_i is at most each of those coefficients, and y_ic(t) = sum_h y_ih(t).  The
functions used are Fekete and Schepers' u^(k) (2001), k = 1..MAX_K:
u^(k)(x) = x when (k + 1) x is an integer, else floor((k + 1) x) / k; with k = 1 it counts
the items larger than half a server (one per server), halves counting one half.

DECISION (exactness of the integer test): the "(k + 1) x is an integer" branch is taken only
when both the demand and the capacity are integers (checked with exact fractions: the GPU,
CPU, memory and storage of ``paper-default``); for other data (bandwidth) the coefficient is
floor((k + 1) x (1 - 1e-9)) / k, which is never above u^(k)(x) (u^(k) is non-decreasing and
floor((k + 1) x) / k <= x when (k + 1) x is an integer m <= k + 1), so float noise only
weakens a row.  A row is added only when it can bind: some present job has a_i > 0 and
sum_i a_i ub(y_ic(t)) > n_c; identical rows for different k are added once.
"""
from __future__ import annotations

import math
from fractions import Fraction

import pyomo.environ as pyo

#: Fekete-Schepers functions u^(1) .. u^(MAX_K) (more add rows that rarely bind)
MAX_K = 3
_FLOAT_EPS = 1e-9


def dff(k: int, demand: float, capacity: float) -> float:
    """u^(k)(demand / capacity), rounded down where the data are not integers (docstring)."""
    if demand <= 0:
        return 0.0
    if float(demand).is_integer() and float(capacity).is_integer():
        x = Fraction(int(demand), int(capacity))
        v = (k + 1) * x
        return float(x) if v.denominator == 1 else math.floor(v) / k
    return math.floor((k + 1) * demand / capacity * (1 - _FLOAT_EPS)) / k


def add_packing_cuts(m: pyo.ConcreteModel, workload, members) -> int:
    """Add the rows of the module docstring to the merged model ``m`` (``members``: merged
    server id -> real servers); returns how many were added (``m.packing_cuts``)."""
    from mlopt.models.oasis import _max_copies

    R = workload.resources
    jobs = {j.id: j for j in workload.jobs}
    rows: list[tuple[list, int]] = []
    for var, demand in ((m.y, "worker_demand"), (m.z, "ps_demand")):
        by_st: dict[tuple[str, int], list] = {}
        for (i, s, t) in var:
            by_st.setdefault((s, t), []).append(i)
        coef: dict[tuple[str, str, str, int], float] = {}
        for (s, t), present in sorted(by_st.items(), key=lambda kv: (kv[0][0], kv[0][1])):
            n_c = len(members[s])
            seen = set()
            for r in R:
                for k in range(1, MAX_K + 1):
                    terms = []
                    for i in present:
                        key = (i, s, r, k)
                        if key not in coef:
                            d = getattr(jobs[i], demand)
                            hosts = [h for h in members[s] if _max_copies(h.capacity, d, R)]
                            coef[key] = min((dff(k, d[r], h.capacity[r]) for h in hosts
                                             if h.capacity[r] > 0), default=0.0)
                        if coef[key] > 0:
                            terms.append((coef[key], var[i, s, t]))
                    sig = tuple((a, v.name) for a, v in terms)
                    if not terms or sig in seen:
                        continue
                    seen.add(sig)
                    if sum(a * v.ub for a, v in terms) > n_c + 1e-9:
                        rows.append((terms, n_c))
    m.packing_cuts = pyo.ConstraintList()
    for terms, n_c in rows:
        m.packing_cuts.add(pyo.quicksum(a * v for a, v in terms) <= n_c)
    return len(rows)

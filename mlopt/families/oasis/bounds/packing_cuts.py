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


def subset_cuts(counts: dict[str, int], most: dict[str, int], demand: dict[str, dict],
                servers, resources) -> list[tuple[dict[str, float], float]]:
    """Rows ``sum_i alpha_i y_ic(t) <= beta`` over the jobs of one (slot, class) group whose
    copy counts ``counts`` do not pack onto the class's ``servers``, each violated by
    ``counts`` and valid for every slot.

    Why valid: in any schedule of the real cluster the class's copies of these jobs in a slot
    pack onto its servers, with y_ic(t) <= ``most[i]`` (the merged variable's bound), so
    alpha . y_c(t) is at most beta = the packing MIP's dual bound of max alpha . a over the
    packable a <= most (:func:`~mlopt.families.oasis.primal.disaggregate.most_packed`).
    Weights tried: all ones (the most copies of these jobs the class holds), 1 / most[i]
    (shares of each job's own maximum) and the counts themselves.  Integer weights round
    beta down (alpha . y is then an integer); others keep it with a 1e-9 relative slack.
    """
    from mlopt.families.oasis.primal.disaggregate import most_packed

    jobs = [i for i, n in counts.items() if n > 0]
    tries = ({i: 1.0 for i in jobs}, {i: 1.0 / max(1, most[i]) for i in jobs},
             {i: float(counts[i]) for i in jobs})
    out = []
    for alpha in tries:
        beta = most_packed(alpha, {i: most[i] for i in jobs}, demand, servers, resources)
        if all(float(a).is_integer() for a in alpha.values()):
            beta = math.floor(beta + 1e-6)
        else:
            beta = beta * (1 + 1e-9) + 1e-9
        if sum(alpha[i] * counts[i] for i in jobs) > beta + 1e-6 * max(1.0, beta):
            out.append((alpha, beta))
    return out


def add_subset_cuts(m: pyo.ConcreteModel, workload, members, unpacked) -> int:
    """For every unpackable group (slot, merged server, role, counts) of a merged solution,
    the :func:`subset_cuts` rows on that class in every slot (``m.subset_cuts``, created on
    the first call); returns how many rows were added.  A row is skipped in a slot where it
    cannot bind (sum alpha ub <= beta) and where the same row exists already."""
    jobs = {j.id: j for j in workload.jobs}
    if not hasattr(m, "subset_cuts"):
        m.subset_cuts = pyo.ConstraintList()
        m._subset_seen = set()
    T = workload.horizon
    added = 0
    for (_t, s, role, counts) in unpacked:
        var = m.y if role == "worker" else m.z
        demand = {i: (jobs[i].worker_demand if role == "worker" else jobs[i].ps_demand)
                  for i in counts}
        most = {}
        for i in counts:
            key = next(((i, s, t) for t in range(jobs[i].arrival, T + 1) if (i, s, t) in var),
                       None)
            most[i] = 0 if key is None else int(round(var[key].ub))
        for alpha, beta in subset_cuts(counts, most, demand, members[s], workload.resources):
            sig = (s, role, tuple(sorted(alpha.items())))
            if sig in m._subset_seen:
                continue
            m._subset_seen.add(sig)
            for t in range(1, T + 1):
                terms = [(a, var[i, s, t]) for i, a in alpha.items() if (i, s, t) in var]
                if terms and sum(a * v.ub for a, v in terms) > beta + 1e-9:
                    m.subset_cuts.add(pyo.quicksum(a * v for a, v in terms) <= beta)
                    added += 1
    return added

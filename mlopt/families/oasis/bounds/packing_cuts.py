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
when the capacity and every job's demand in that resource are integers (checked with exact
fractions: the GPU, CPU, memory and storage of ``paper-default``); for other data (bandwidth)
x is taken against the capacity the checker accepts (its relative and absolute slack added)
and the coefficient is floor((k + 1) x (1 - 1e-9)) / k, which is never above u^(k)(x) (u^(k)
is non-decreasing and floor((k + 1) x) / k <= x when (k + 1) x is an integer m <= k + 1), so
float noise only weakens a row.  A row is added only when it can bind: some present job has
a_i > 0 and sum_i a_i ub(y_ic(t)) > n_c; identical rows for different k are added once.
"""
from __future__ import annotations

import math
from fractions import Fraction

import pyomo.environ as pyo

#: Fekete-Schepers functions u^(1) .. u^(MAX_K) (more add rows that rarely bind)
MAX_K = 3
_FLOAT_EPS = 1e-9


def dff(k: int, demand: float, capacity: float, exact: bool = True) -> float:
    """u^(k)(demand / capacity), rounded down where the data are not integers (docstring).

    ``exact``: every demand that can share a server with this one in this resource is an
    integer too (the caller knows the row).  Only then is a server's load an integer, so the
    checker's slack (``CAP_RTOL`` relative + ``CAP_ATOL`` absolute) cannot be used and the
    exact branch is valid.  Otherwise x is taken against the capacity the checker accepts,
    ``accepted_capacity`` (the utility ILP's own): an independent review found demands of 1 + 1.4e-9 GPU,
    two of which the checker accepts on a 2-GPU server, counted as more than half a server
    each (a false ``proven`` optimum)."""
    from mlopt.models.oasis import accepted_capacity

    if demand <= 0:
        return 0.0
    if exact and float(demand).is_integer() and float(capacity).is_integer():
        x = Fraction(int(demand), int(capacity))
        v = (k + 1) * x
        return float(x) if v.denominator == 1 else math.floor(v) / k
    return math.floor((k + 1) * demand / accepted_capacity(capacity) * (1 - _FLOAT_EPS)) / k


def add_packing_cuts(m: pyo.ConcreteModel, workload, members, max_k: int = MAX_K) -> int:
    """Add the rows of the module docstring to the merged model ``m`` (``members``: merged
    server id -> real servers), with u^(1) .. u^(max_k); returns how many were added
    (``m.packing_cuts``).  Fewer functions give fewer rows, each still valid (a weaker
    relaxation, never one below OPT)."""
    from mlopt.models.oasis import _max_copies

    R = workload.resources
    jobs = {j.id: j for j in workload.jobs}
    rows: list[tuple[list, int]] = []
    for var, demand in ((m.y, "worker_demand"), (m.z, "ps_demand")):
        # a resource whose demands are all integers: loads are integers (dff's exact branch)
        integral = {r: all(float(getattr(j, demand)[r]).is_integer() for j in workload.jobs)
                    for r in R}
        by_st: dict[tuple[str, int], list] = {}
        for (i, s, t) in var:
            by_st.setdefault((s, t), []).append(i)
        coef: dict[tuple[str, str, str, int], float] = {}
        for (s, t), present in sorted(by_st.items(), key=lambda kv: (kv[0][0], kv[0][1])):
            n_c = len(members[s])
            seen = set()
            for r in R:
                for k in range(1, max_k + 1):
                    terms = []
                    for i in present:
                        key = (i, s, r, k)
                        if key not in coef:
                            d = getattr(jobs[i], demand)
                            hosts = [h for h in members[s] if _max_copies(h.capacity, d, R)]
                            coef[key] = min((dff(k, d[r], h.capacity[r], integral[r])
                                             for h in hosts
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


def _hull_direction(n: list[float], points: list[list[int]]) -> list[float] | None:
    """alpha >= 0 with sum alpha = 1 maximizing alpha . n - max_{a in points} alpha . a (an
    LP), or None when ``n`` is not separated from ``points`` (the gain is <= 1e-9)."""
    import highspy
    import numpy as np

    from mlopt.solvers.quiet_highs import quiet_highs, run_highs

    d = len(n)
    # columns alpha_1..alpha_d, beta; rows: alpha . a - beta <= 0 per point, sum alpha = 1
    rows = [list(a) + [-1.0] for a in points] + [[1.0] * d + [0.0]]
    A = np.array(rows, dtype=float)
    lp = highspy.HighsLp()
    lp.num_col_, lp.num_row_ = d + 1, len(rows)
    lp.col_cost_ = np.array(list(map(float, n)) + [-1.0])
    lp.sense_ = highspy.ObjSense.kMaximize
    lp.col_lower_ = np.array([0.0] * d + [-highspy.kHighsInf])
    lp.col_upper_ = np.array([1.0] * d + [highspy.kHighsInf])
    lp.row_lower_ = np.array([-highspy.kHighsInf] * len(points) + [1.0])
    lp.row_upper_ = np.array([0.0] * len(points) + [1.0])
    nz = np.nonzero(A.T)
    lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
    lp.a_matrix_.start_ = np.searchsorted(nz[0], np.arange(d + 2)).astype(np.int32)
    lp.a_matrix_.index_ = nz[1].astype(np.int32)
    lp.a_matrix_.value_ = A.T[nz]
    h = quiet_highs()
    h.passModel(lp)
    run_highs(h)
    if h.getModelStatus() != highspy.HighsModelStatus.kOptimal:
        return None
    if h.getInfo().objective_function_value <= 1e-9:
        return None
    return list(h.getSolution().col_value[:d])


def subset_cuts(counts: dict[str, int], most: dict[str, int], demand: dict[str, dict],
                servers, resources, max_points: int = 30) -> list[tuple[dict[str, float], float]]:
    """A row ``sum_i alpha_i y_ic(t) <= beta`` over the jobs of one (slot, class) group whose
    copy counts ``counts`` do not pack onto the class's ``servers``, violated by ``counts``
    and valid for every slot (empty list when none is found).

    Why valid: in any schedule of the real cluster the class's copies of these jobs in a slot
    pack onto its servers, with y_ic(t) <= ``most[i]`` (the merged variable's bound), so
    alpha . y_c(t) is at most beta = the packing MIP's dual bound of max alpha . a over the
    packable a <= most (:func:`~mlopt.families.oasis.primal.disaggregate.most_packed`), for
    any alpha >= 0.  Separation: alpha is the LP direction separating ``counts`` from the
    packable points known so far (each job alone at its maximum first); the MIP then either
    confirms the cut or returns a packable point beating it, which joins the set (at most
    ``max_points`` MIPs).  beta keeps a 1e-9 relative slack.
    """
    from mlopt.families.oasis.primal.disaggregate import most_packed

    jobs = [i for i, n in counts.items() if n > 0]
    n = [float(counts[i]) for i in jobs]
    points = [[most[i] if j == i else 0 for j in jobs] for i in jobs]
    for _ in range(max_points):
        direction = _hull_direction(n, points)
        if direction is None:
            return []
        alpha = {i: float(a) for i, a in zip(jobs, direction)}
        beta, point = most_packed(alpha, {i: most[i] for i in jobs}, demand, servers,
                                  resources)
        beta = beta * (1 + 1e-9) + 1e-9
        if sum(alpha[i] * counts[i] for i in jobs) > beta + 1e-6 * max(1.0, beta):
            return [({i: a for i, a in alpha.items() if a > 0}, beta)]
        if point is None:
            return []
        points.append([point[i] for i in jobs])
    return []


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

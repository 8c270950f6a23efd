"""Reduced-cost fixing from ``share``'s Lagrangian (:mod:`.share_bound`): given an upper limit U
on the sum of JCTs (a checked schedule's), the starts and running intervals no schedule of sum
<= U can use, for ``placement_milp``'s ``rc_fix`` option.

ARGUMENT.  At share's prices beta >= 0 let L = sum_j min_j - M sum beta (the THEOREM of
:mod:`.share_bound`; min_j = job j's cheapest column, cost + priced usage).  A feasible
schedule maps each job j to a column c_j within the rows, so
    sum_j JCT_j >= sum_j value(c_j) - M sum beta = L + sum_j (value(c_j) - min_j),
and every term value(c_j) - min_j >= 0.  So in a schedule with sum_j JCT_j <= U, every job's
column has value(c_j) <= min_j + (U - L): its start s is one whose cheapest column
m_j(s) <= min_j + (U - L), and its completion s + n - 1 <= a_j - 1 + value(c_j) (a column's
value is at least its JCT s + n - a_j: prices are >= 0).  So (s, n) is one of the runs whose
cheapest column is within the slack (``share_slack_columns``); fixing the starts of none of
them, and the intervals after the last completion of all of them, at 0 removes no schedule
of sum <= U; with ``upper``'s objective row the model is then infeasible exactly when no
such schedule exists.  Late arrivals: columns start at
a_j; a lone job's columns are exclusive; the checker's tolerances are share's.

Floats: L is share's certified (exact rational) Lagrangian; the per-start minima and min_j
come from the same float DP, so their difference is off by far less than the TOL added to the
slack (a larger slack keeps more starts: never unsafe).
"""
from __future__ import annotations

import time

from mlopt.families.harmony.bounds import standalone_bound
from mlopt.families.harmony.share_bound import (_Master, _mode_costs, _prepare,
                                                generate_columns, lagrangian)
from mlopt.workload import Workload

TOL = 1e-6


def share_slack_columns(workload: Workload, U: int, *, time_limit: float = 60.0,
                        threads: int = 1, deadline: float | None = None):
    """(slack U - L + TOL, per job the (reduced cost, start, run length) of every run whose
    cheapest column is within the slack, sorted), or None when share has nothing to say --
    or when ``deadline`` (a ``time.perf_counter()`` time) passes while the runs are listed
    (at ``uniform`` from U = 219: 33,662 runs, several seconds), so a caller with a budget
    falls back instead of overrunning it."""
    prep = _prepare(workload, standalone_bound(workload)["per_job"]) if workload.jobs else None
    if prep is None:
        return None
    jobs, M = prep
    T = int(workload.horizon)
    master = _Master(jobs, M, T, threads)
    beta, _, _ = generate_columns(
        master, lambda jb, b: jb.best(_mode_costs(jb, b, T, 0.0, float), 0.0),
        time.perf_counter(), time_limit, 200)
    slack = float(U - lagrangian(jobs, M, T, beta, exact=True)) + TOL
    out = []
    for jb in jobs:
        if deadline is not None and time.perf_counter() > deadline:
            return None
        cost = _mode_costs(jb, beta, T, 0.0, float)
        low = jb.best(cost, 0.0)[0]
        runs = []
        for s in range(jb.a, T + 1):
            if slack < 0 or s + jb.k - jb.a > low + slack:  # value >= JCT: too late a start
                break
            for n in range(jb.k, T - s + 2):
                if s + n - jb.a > low + slack:
                    break
                res = jb.run_value(s, n, cost, 0.0)
                if res is not None and res[0] - low <= slack:
                    runs.append((res[0] - low, s, n))
        out.append(sorted(runs))
    return slack, out


def share_windows(workload: Workload, U: int, *, time_limit: float = 60.0,
                  threads: int = 1) -> dict | None:
    """Per job id, (allowed starts, last running interval) for schedules of JCT sum <= U;
    None when share has nothing to say (no LP: the caller fixes nothing)."""
    res = share_slack_columns(workload, U, time_limit=time_limit, threads=threads)
    if res is None:
        return None
    _, runs = res
    return {job.id: ({s for _, s, _ in r},
                     max((s + n - 1 for _, s, n in r), default=job.arrival - 1))
            for job, r in zip(workload.jobs, runs)}


def pooled_combinations(workload: Workload, U: int, *, time_limit: float = 60.0):
    """``(slack, runs, combinations)``: every choice of one run (start, length) per job from
    :func:`share_slack_columns` whose reduced costs sum within the slack and whose running
    jobs' demands fit the cluster's pooled capacity (each server's plus the checker's
    tolerance) in every interval -- a necessary condition for a schedule of JCT sum <= U.
    ``combinations`` is a generator of tuples of runs, one per job; None when ``share`` has
    no prices (nothing can be ruled out)."""
    got = share_slack_columns(workload, U, time_limit=time_limit)
    if got is None:
        return None
    slack, runs = got
    return slack, runs, _fitting(workload, slack, runs)


def _fitting(workload: Workload, slack: float, runs):
    from fractions import Fraction

    from mlopt.families.harmony.speed import RESOURCES
    from mlopt.families.harmony.volume_bound import MARGIN, TOL, _demand

    T = int(workload.horizon)
    pooled = {r: sum((Fraction(s.capacity[r]) + TOL) * MARGIN for s in workload.servers
                     if s.role == "any") for r in RESOURCES}
    dem = [_demand(j) for j in workload.jobs]
    load = {r: [Fraction(0)] * (T + 2) for r in RESOURCES}
    pick: list = []

    def rec(i, used):
        if i == len(runs):
            yield tuple(pick)
            return
        for rc, s, n in runs[i]:
            if used + rc > slack:
                break  # runs are sorted by reduced cost
            fits = True
            for t in range(s, s + n):
                for r in RESOURCES:
                    load[r][t] += dem[i][r]
                    fits &= load[r][t] <= pooled[r]
            if fits:
                pick.append((s, n))
                yield from rec(i + 1, used + rc)
                pick.pop()
            for t in range(s, s + n):
                for r in RESOURCES:
                    load[r][t] -= dem[i][r]

    yield from rec(0, 0.0)

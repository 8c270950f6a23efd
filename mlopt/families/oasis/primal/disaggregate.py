"""Disaggregation: a schedule of the class-merged cluster split onto the real servers.

:mod:`mlopt.families.oasis.bounds.class_relaxation` solves the utility ILP on a cluster where
each server class is ONE server of summed capacity.  Its solution says, per slot, how many
workers (PSs) of each job sit on each class; rows (2), (3), (6)-(10) of (1)-(13) only see the
per-job totals, so the solution is a schedule of the real cluster as soon as every slot's
per-class counts can be packed onto that class's servers (capacity rows (4)/(5) per server).
That is a small multi-resource bin packing per (slot, class): a greedy first, then an exact
feasibility MIP (HiGHS) when the greedy fails.

DECISION (the issue asks for the split, not for a repair): when a (slot, class) does not pack,
the admitted job of lowest utility among those whose copies are in an unpackable group is
dropped (all its rows removed, which only frees capacity) and the packing is retried, until
every group packs.  The result is always a schedule whose capacity rows hold by construction;
the caller still runs the family's checker on it.  When nothing is dropped the schedule's
utility equals the merged solution's, so a merged *optimum* that disaggregates is OPT.
"""
from __future__ import annotations

import math
from collections import defaultdict
from typing import Mapping, Sequence

from mlopt.families.oasis.checker import CAP_ATOL as CHECK_ATOL
from mlopt.families.oasis.checker import CAP_RTOL as CHECK_RTOL
from mlopt.schedule import Schedule
from mlopt.workload import Server, Workload

#: slack allowed on a packed capacity row, as the checker's (1e-9 relative + 1e-9 absolute)
#: but ten times smaller, so a packing accepted here always passes the checker
CAP_RTOL = 1e-10
#: seconds the exact packing MIP of one (slot, class) group may take
PACK_MIP_SECONDS = 5.0


def _fits(load: Mapping[str, float], demand: Mapping[str, float], n: int,
          cap: Mapping[str, float]) -> bool:
    return all(load[r] + n * demand[r] <= cap[r] * (1 + CAP_RTOL) for r in cap)


def _most(load, demand, cap) -> int:
    """Copies of ``demand`` that still fit beside ``load`` on a server of capacity ``cap``."""
    best = math.inf
    for r, d in demand.items():
        if d > 0:
            best = min(best, math.floor((cap[r] * (1 + CAP_RTOL) - load[r]) / d))
    return max(0, int(best)) if math.isfinite(best) else 1 << 30


def _greedy(counts: dict[str, int], demand: dict[str, dict], servers: Sequence[Server],
            resources) -> dict[tuple[str, str], int] | None:
    """First-fit decreasing: largest jobs (sum of demand shares of the class's capacity)
    first, each onto the servers in order of most copies they still take."""
    total = {r: sum(s.capacity[r] for s in servers) or 1.0 for r in resources}
    order = sorted(counts, key=lambda i: -sum(demand[i][r] / total[r] for r in resources))
    load = {s.id: {r: 0.0 for r in resources} for s in servers}
    out: dict[tuple[str, str], int] = {}
    for i in order:
        left = counts[i]
        while left > 0:
            room = [(_most(load[s.id], demand[i], s.capacity), n) for n, s in enumerate(servers)]
            take, n = max(room, key=lambda x: (x[0], -x[1]))
            if take <= 0:
                return None
            take = min(take, left)
            s = servers[n]
            for r in resources:
                load[s.id][r] += take * demand[i][r]
            out[i, s.id] = out.get((i, s.id), 0) + take
            left -= take
    return out


def _packing_lp(counts: dict[str, int], demand: dict[str, dict], servers: Sequence[Server],
                resources, weights: dict[str, float] | None):
    """The packing MIP over integer a_ih >= 0 (job i's copies on server h) with capacity rows
    per server and resource: ``weights`` None -> sum_h a_ih = counts[i] (feasibility),
    else maximize sum_i weights[i] sum_h a_ih with sum_h a_ih <= counts[i]."""
    import highspy
    import numpy as np

    jobs = list(counts)
    cols = [(i, s) for i in jobs for s in servers]
    rows, cidx, vals, lo, hi = [], [], [], [], []
    for a, i in enumerate(jobs):  # copies placed: all of them, or at most counts[i]
        for b in range(len(servers)):
            rows.append(a), cidx.append(a * len(servers) + b), vals.append(1.0)
        lo.append(counts[i] if weights is None else 0.0), hi.append(counts[i])
    r0 = len(jobs)
    for b, s in enumerate(servers):
        for r in resources:
            used = [(a, demand[i][r]) for a, i in enumerate(jobs) if demand[i][r] > 0]
            if not used:
                continue
            for a, d in used:
                rows.append(r0), cidx.append(a * len(servers) + b), vals.append(d)
            # the bound's MIP (weights) allows what the checker accepts, so its dual bound
            # covers every checker-feasible packing; the split's keeps the exact capacity
            hi.append(s.capacity[r] if weights is None
                      else s.capacity[r] * (1 + CHECK_RTOL) + CHECK_ATOL)
            lo.append(-highspy.kHighsInf)
            r0 += 1
    lp = highspy.HighsLp()
    lp.num_col_, lp.num_row_ = len(cols), len(lo)
    lp.col_cost_ = (np.zeros(len(cols)) if weights is None
                    else np.array([float(weights[i]) for i, _ in cols]))
    if weights is not None:
        lp.sense_ = highspy.ObjSense.kMaximize
    lp.col_lower_ = np.zeros(len(cols))
    lp.col_upper_ = np.array([float(counts[i]) for i, _ in cols])
    lp.row_lower_, lp.row_upper_ = np.array(lo, dtype=float), np.array(hi, dtype=float)
    order = np.lexsort((rows, cidx))
    rows_a, cols_a = np.asarray(rows)[order], np.asarray(cidx)[order]
    lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
    lp.a_matrix_.start_ = np.searchsorted(cols_a, np.arange(len(cols) + 1)).astype(np.int32)
    lp.a_matrix_.index_ = rows_a.astype(np.int32)
    lp.a_matrix_.value_ = np.asarray(vals, dtype=float)[order]
    lp.integrality_ = [highspy.HighsVarType.kInteger] * len(cols)
    return lp, cols


def _run(lp):
    from mlopt.solvers.quiet_highs import quiet_highs, run_highs

    h = quiet_highs()
    h.setOptionValue("time_limit", PACK_MIP_SECONDS)
    h.passModel(lp)
    run_highs(h)
    return h


def _mip(counts: dict[str, int], demand: dict[str, dict], servers: Sequence[Server],
         resources) -> dict[tuple[str, str], int] | None:
    """Exact feasibility MIP: integer a_ih >= 0, sum_h a_ih = n_i, capacity per server and
    resource.  None when infeasible or undecided within :data:`PACK_MIP_SECONDS`."""
    lp, cols = _packing_lp(counts, demand, servers, resources, None)
    h = _run(lp)
    values = _solution(h)
    if values is None:
        return None
    out = {}
    for (i, s), v in zip(cols, values):
        n = int(round(v))
        if n:
            out[i, s.id] = n
    return out


def most_packed(weights: dict[str, float], most: dict[str, int], demand: dict[str, dict],
                servers: Sequence[Server], resources) -> tuple[float, dict[str, int] | None]:
    """An upper bound on max sum_i weights[i] a_i over the copy counts a_i <= most[i] that
    pack onto ``servers`` -- the MIP's dual bound (its optimum when solved; HiGHS's
    tolerances only relax the rows, so the bound stays >= the exact maximum) -- and the
    counts of the MIP's best packing (None without one)."""
    lp, cols = _packing_lp(most, demand, servers, resources, weights)
    h = _run(lp)
    info = h.getInfo()
    bound = float(info.mip_dual_bound)
    if not math.isfinite(bound):  # no bound at all: the trivial one
        bound = float(sum(weights[i] * most[i] for i in most))
    point = None
    values = _solution(h)
    if values is not None:
        point = {i: 0 for i in most}
        for (i, _s), v in zip(cols, values):
            point[i] += int(round(v))
    return bound, point


def _solution(h) -> list[float] | None:
    """The MIP's column values, or None without a usable solution: HiGHS 1.16 once reported a
    feasible primal status with NaN values (seen by an independent review on demands of
    1 + 1.4e-9 GPU), which must read as "no packing found", not crash the bound."""
    if h.getInfo().primal_solution_status != 2:
        return None
    values = list(h.getSolution().col_value)
    return values if all(math.isfinite(v) for v in values) else None


def _valid(packing, counts, demand, servers, resources) -> bool:
    """The packing places every copy and fits every server exactly (not by a MIP tolerance)."""
    placed: dict[str, int] = defaultdict(int)
    load = {s.id: {r: 0.0 for r in resources} for s in servers}
    for (i, sid), n in packing.items():
        placed[i] += n
        for r in resources:
            load[sid][r] += n * demand[i][r]
    cap = {s.id: s.capacity for s in servers}
    return dict(placed) == {i: n for i, n in counts.items() if n} and all(
        load[sid][r] <= cap[sid][r] * (1 + CAP_RTOL) for sid in load for r in resources)


def pack_group(counts: dict[str, int], demand: dict[str, dict], servers: Sequence[Server],
               resources) -> dict[tuple[str, str], int] | None:
    """Copies ``counts`` (job -> n) of per-copy ``demand`` onto ``servers``: (job, server id)
    -> n, or None when they do not pack (the MIP proved it, or could not decide in time)."""
    counts = {i: n for i, n in counts.items() if n > 0}
    if not counts:
        return {}
    for method in (_greedy, _mip):
        p = method(counts, demand, servers, resources)
        if p is not None and _valid(p, counts, demand, servers, resources):
            return p
    return None


def disaggregate(workload: Workload, merged: Schedule, members: Mapping[str, Sequence[Server]],
                 unpacked: list | None = None) -> tuple[Schedule, list[str]]:
    """Split ``merged`` (a schedule of the merged cluster, server ids of ``members``' keys)
    onto the real servers; returns (schedule, dropped job ids), see the module docstring.
    ``unpacked``, when given, receives (slot, merged server id, role, counts) of every group
    of ``merged`` that does not pack (before any drop)."""
    jobs = {j.id: j for j in workload.jobs}
    R = workload.resources
    groups: dict[tuple[int, str, str], dict[str, int]] = defaultdict(dict)
    for job, slot, server, role, count in merged.allocations[
            ["job", "slot", "server", "role", "count"]].itertuples(index=False):
        g = groups[int(slot), str(server), str(role)]
        g[job] = g.get(job, 0) + int(count)
    last: dict[str, int] = {}  # completion slot (8): the last slot with workers
    for (t, _s, role), g in groups.items():
        if role == "worker":
            for i in g:
                last[i] = max(last.get(i, 0), t)
    value = {i: float(jobs[i].utility(last[i] - jobs[i].arrival)) if i in last else 0.0
             for i in merged.admitted}
    demand_of = {"worker": {i: j.worker_demand for i, j in jobs.items()},
                 "ps": {i: j.ps_demand for i, j in jobs.items()}}
    admitted = set(merged.admitted)
    dropped: list[str] = []
    cache: dict[tuple, dict | None] = {}
    while True:
        packed, failed = {}, set()
        for key, g in groups.items():
            counts = {i: n for i, n in g.items() if i in admitted}
            ck = (key[1], key[2], tuple(sorted(counts.items())))
            if ck not in cache:  # many slots repeat the same counts
                cache[ck] = pack_group(counts, demand_of[key[2]], members[key[1]], R)
            if cache[ck] is None:
                failed |= set(counts)
                if unpacked is not None and not dropped:
                    unpacked.append((key[0], key[1], key[2], counts))
            else:
                packed[key] = cache[ck]
        if not failed:
            break
        worst = min(failed, key=lambda i: (value.get(i, 0.0), i))
        admitted.discard(worst)
        dropped.append(worst)
    rows = [(i, t, sid, role, n) for (t, _s, role), p in packed.items()
            for (i, sid), n in p.items() if i in admitted]
    meta = {"producer": "oasis.class_relaxation.disaggregate", "dropped": dropped}
    return Schedule.from_rows(sorted(admitted), rows, meta), dropped


def refill(workload: Workload, schedule: Schedule, seconds: float, seed: int = 0) -> Schedule:
    """The split schedule improved by the residual local search (insert the dropped jobs,
    re-fit, ruin-and-recreate: :mod:`.local_search`) for ``seconds``; the search accepts no
    move that lowers the utility, so the result is never worse than ``schedule``."""
    from mlopt.families.oasis.primal.local_search import LocalSearch, Packing
    from mlopt.models.oasis.master import columns_from_schedule, schedule_from_columns

    pk = Packing.from_columns(workload, columns_from_schedule(workload, schedule, "split"))
    pk, info = LocalSearch(workload, seed=seed).improve(pk, seconds)
    cols = list(pk.chosen.values())
    meta = {**schedule.meta, "producer": "oasis.class_relaxation.disaggregate+local_search",
            "local_search": {k: v for k, v in info.items() if k != "seconds"}}
    return schedule_from_columns(workload, cols, [True] * len(cols), meta)

"""Restricted master MIP over concrete placements: ``pnb``'s last phase (issue 21).

The column-generation columns are configurations with pooled capacity; this phase is the
per-server time-indexed model of :mod:`mlopt.models.hetero.placement_ti` restricted to a few
concrete (job, placement, start) columns around the incumbent, solved by HiGHS (through
:func:`mlopt.solvers.quiet_highs.run_highs`) warm-started from the incumbent, so a round is
never worse than it.  It makes moves the local search cannot: several jobs at once trading
servers and starts (one job's re-insertion only completes it earlier if room is already free).

A ROUND frees a window of ``WINDOW_JOBS`` consecutive jobs in the incumbent's start order
(rounds slide the window by half its size, wrapping around); every other job keeps its one
column (its current placement; its once row fixes it).  A freed job j gets, for each start
t in S_j and each configuration (m, p, n) in K_j:
* the concrete placement :func:`.baselines._list.place` finds at t in the residual capacity
  of every other job (what fits without moving anyone), and
* the one it finds in the residual of the other jobs starting before t only (what fits if the
  later jobs move -- the MIP decides whether they can), for t <= j's current start; for a
  later t, in the residual of the jobs kept in this round (what fits if the freed ones move);
plus j's current placement shifted to t.  S_j: a_j, j's current start, and the incumbent's
completions in (a_j, start] (the latest ``STARTS_BEFORE``) and after it (the next
``STARTS_AFTER``) -- capacity is freed only at completions.  K_j: the incumbent's configuration,
the two the last master LP of column generation used most, then ``pnb``'s candidates spread
over their list (fastest to smallest), at most ``KEYS_PER_JOB``.

ROWS: per (server, resource, slot) as in ``placement_ti`` (its :func:`capacity_rows`), only at
the columns' start slots -- exact for these columns (see there).  The solution is converted to
placements; the caller checks the schedule with the family's checker before accepting it.

DECISIONS (the paper has no such heuristic): window size, start and configuration counts are
fixed constants chosen so that one round's MIP has a few thousand columns at
``paper-default`` (100 jobs, 150 servers) and solves in seconds; the budget is ``pnb``'s
``master_share``.  The enumeration of every per-server placement is what the restriction
avoids (:data:`.placements.MAX_PLACEMENTS`).
"""
from __future__ import annotations

import dataclasses
import time

import numpy as np

from mlopt.families.hetero.baselines._list import place
from mlopt.families.hetero.fields import HeteroData
from mlopt.families.hetero.mincost import Placement

#: jobs freed per round (the others keep their placement)
WINDOW_JOBS = 20
#: configurations per freed job
KEYS_PER_JOB = 6
#: candidate starts per freed job at or before its current start / after it
STARTS_BEFORE = 10
STARTS_AFTER = 2
#: a round shorter than this is not started
MIN_ROUND_SECONDS = 0.5


def _key(pl: Placement) -> tuple:
    return (pl.m, pl.p, pl.n)


def job_keys(pl: Placement, lp_keys: list[tuple], keys: list[tuple]) -> list[tuple]:
    """K_j (module docstring): current configuration, the LP's, then ``pnb``'s candidates
    (fastest first) spread evenly over their list -- the fast ones need room, the small
    ones fit a busy cluster."""
    spread = [keys[i] for i in np.linspace(0, len(keys) - 1, KEYS_PER_JOB).round().astype(int)
              ] if keys else []
    return list(dict.fromkeys([_key(pl), *lp_keys[:2], *spread]))[:KEYS_PER_JOB]


def job_starts(arrival: int, pl: Placement, events: np.ndarray) -> list[int]:
    """S_j (module docstring); ``events`` sorted completions of the incumbent."""
    lo, at = np.searchsorted(events, [arrival, pl.start], side="right")
    before = events[max(lo, at - STARTS_BEFORE):at].tolist()
    after = events[at:at + STARTS_AFTER].tolist()
    return sorted({arrival, pl.start, *before, *after})


def neighborhood(data: HeteroData, cur: dict[int, Placement], free: list[int],
                 keys: dict[int, list[tuple]], residual) -> list[Placement]:
    """The columns of one round: the kept jobs' placements, then the freed jobs' candidates
    (module docstring).  ``residual(placements)`` makes a profile with ``free`` for ``place``."""
    cols = [pl for j, pl in cur.items() if j not in free]
    events = np.array(sorted({pl.completion for pl in cur.values()}), dtype=np.int64)
    others = residual([pl for j, pl in cur.items() if j not in free])
    seen: set[tuple] = set()
    early: dict[int, object] = {}
    for j in free:
        pl = cur[j]
        mine = residual([q for i, q in cur.items() if i != j])
        for t in job_starts(int(data.arrival[j]), pl, events):
            found = [dataclasses.replace(pl, start=t)]
            profiles = [mine]
            if t <= pl.start:
                if t not in early:
                    early[t] = residual([q for q in cur.values() if q.start < t])
                profiles.append(early[t])
            else:
                profiles.append(others)
            for prof in profiles:
                for m, p, n in keys[j]:
                    got = place(data, prof, j, m, p, n, t)
                    if got is not None:
                        found.append(got)
            for c in found:
                sig = (j, c.start, c.d, c.m, c.p, tuple(sorted(c.y.items())),
                       tuple(sorted(c.s.items())))
                if sig not in seen:
                    seen.add(sig)
                    cols.append(c)
    return cols


def solve_round(data: HeteroData, cur: dict[int, Placement], cols: list[Placement],
                deadline: float) -> tuple[dict[int, Placement] | None, dict]:
    """The MIP over ``cols`` (one column per job chosen, per-server capacity at the columns'
    starts), warm-started from ``cur`` (whose placements are among ``cols``) and stopped at
    ``deadline`` (perf_counter); the chosen placements if HiGHS has a solution, and what it
    reported."""
    import highspy

    from mlopt.models.hetero.placement_ti import capacity_rows
    from mlopt.solvers.quiet_highs import binary_program, quiet_highs, run_highs

    H, R = data.cap.shape
    J = len(data.job_ids)

    def dense(pl: Placement) -> np.ndarray:
        use = np.zeros((H, R))
        for h, vec in pl.usage(data).items():
            use[h] += vec
        return use

    at = np.array(sorted({c.start for c in cols}), dtype=np.int64)
    rows = capacity_rows(data.cap, ((i, c.job, dense(c), c.start, c.d)
                                    for i, c in enumerate(cols)), at=at)
    n = len(cols)
    ri = [np.array([c.job for c in cols], dtype=np.int64)]
    ci = [np.arange(n)]
    vi = [np.ones(n)]
    upper = [np.ones(J)]
    for r, (key, terms) in enumerate(rows.items()):
        ci.append(np.array([i for _, i in terms], dtype=np.int64))
        vi.append(np.array([c for c, _ in terms]))
        ri.append(np.full(len(terms), J + r, dtype=np.int64))
        upper.append([float(data.cap[key[0], key[1]])])
    lp = binary_program([float(data.weight[c.job]) * c.completion for c in cols],
                        np.concatenate(ri), np.concatenate(ci), np.concatenate(vi),
                        np.concatenate([np.ones(J), np.full(len(rows), -highspy.kHighsInf)]),
                        np.concatenate([np.asarray(u, dtype=float) for u in upper]))
    mip = quiet_highs()
    mip.setOptionValue("time_limit", max(0.1, deadline - time.perf_counter()))
    # HiGHS 1.16 with presolve on and a start given by setSolution reported a better MIP
    # objective than the start while getSolution() still returned the start's values (seen at
    # paper-default in most improving rounds); without presolve the two agree
    mip.setOptionValue("presolve", "off")
    mip.setOptionValue("mip_rel_gap", 1e-6)  # rounds are small; HiGHS's 1e-4 leaves gains
    mip.passModel(lp)
    warm = np.zeros(n)
    for i, c in enumerate(cols):
        if cur[c.job] == c:
            warm[i] = 1.0
    ws = highspy.HighsSolution()
    ws.col_value = warm.tolist()
    mip.setSolution(ws)
    run_highs(mip)
    info = mip.getInfo()
    out = {"columns": n, "rows": lp.num_row_, "nonzeros": len(lp.a_matrix_.value_),
           "status": mip.modelStatusToString(mip.getModelStatus())}
    if info.primal_solution_status != 2:  # no feasible solution
        return None, out
    x = np.asarray(mip.getSolution().col_value)
    out["objective_gap"] = float(lp.col_cost_ @ x - info.objective_function_value)
    chosen = {}
    for i in np.flatnonzero(x > 0.5).tolist():
        chosen[cols[i].job] = cols[i]
    if len(chosen) != J:
        return None, out
    out["objective"] = float(info.objective_function_value)
    return chosen, out


def master_rounds(data: HeteroData, cur: dict[int, Placement], lp_keys: list[list[tuple]],
                  keys: list[list[tuple]], residual, accept, *, deadline: float) -> dict:
    """Rounds (module docstring) until ``deadline`` (perf_counter) or a full pass over the
    start order without an improvement.  ``accept(placements)`` decides whether a round's
    solution replaces ``cur`` (the caller checks it); ``cur`` is updated in place."""
    J = len(cur)
    width = min(WINDOW_JOBS, J)
    step = max(1, width // 2)
    log = {"rounds": 0, "improved": 0, "columns": 0}
    pos, idle = 0, 0
    value = sum(float(data.weight[j]) * pl.completion for j, pl in cur.items())
    while idle * step < J + step and deadline - time.perf_counter() > MIN_ROUND_SECONDS:
        order = sorted(cur, key=lambda j: (cur[j].start, j))
        free = [order[(pos + i) % J] for i in range(width)]
        kj = {j: job_keys(cur[j], lp_keys[j], keys[j]) for j in free}
        cols = neighborhood(data, cur, free, kj, residual)
        if deadline - time.perf_counter() < MIN_ROUND_SECONDS:
            break
        got, info = solve_round(data, cur, cols, deadline)
        log["rounds"] += 1
        log["columns"] = max(log["columns"], info["columns"])
        new = None if got is None else sum(float(data.weight[j]) * pl.completion
                                           for j, pl in got.items())
        if new is not None and new < value * (1 - 1e-12) and accept(got):
            cur.clear()
            cur.update(got)
            value = new
            log["improved"] += 1
            idle = 0
        else:
            idle += 1
        pos = (pos + step) % J
    log["value"] = value
    return log

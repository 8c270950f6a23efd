"""Local search on a set of master columns (one per admitted job), each move keeping every
capacity row of the shared pool:

1. **upgrade**: replace a job's column (or admit a rejected job) by a column of the same job
   with higher utility that fits what the others leave;
2. **swap**: admit a rejected job's column in place of one admitted job of lower utility whose
   removal makes it fit;
3. **insert**: for a rejected job, a new column priced on the *residual* capacities (the
   pricing DP, :meth:`colgen._Pricer.fit`): any placement that fits admits it;
4. **refit** (rip up and re-place): an admitted job's column taken out and the job priced again
   on what the others leave, utility first; kept when it completes earlier (higher utility).

First-improvement passes until none applies or the deadline.  The objective only grows, so the
result is never below the start.
"""
from __future__ import annotations

import time
from typing import Callable

from mlopt.families.pdors.columns import Column, ColumnPool

GAIN_TOL = 1e-9
MOVES = ("upgrade", "swap", "insert", "refit")


def local_search(pool: ColumnPool, chosen: list[int], *, deadline: float,
                 insert: Callable[[int, object], Column | None] | None = None,
                 refit: Callable[[int, object], Column | None] | None = None,
                 jobs: list[int] | None = None, moves: tuple[str, ...] = MOVES) -> list[int]:
    """Improve ``chosen``; ``insert(i, left)`` prices job i on the flat residual ``left``;
    ``jobs``: the jobs that may be admitted (default: every job with a column); ``moves``: a
    subset of :data:`MOVES` (``("insert",)`` from an empty start is a constructive greedy:
    jobs by decreasing u_i(0), each placed on what the others left)."""
    cur = {pool.columns[k].job: k for k in chosen}
    left = pool.residual(chosen)
    cand = sorted(set(pool.by_job) | set(jobs or ()))
    u0 = {i: max((pool.columns[k].utility for k in pool.by_job.get(i, ())), default=0.0)
          for i in cand}
    by_value = sorted(cand, key=lambda i: -u0[i])
    tried_insert: set[tuple[int, float]] = set()

    def util(i):
        return pool.columns[cur[i]].utility if i in cur else 0.0

    def take(i, k, drop=()):
        for j in (*drop, i):
            if j in cur:
                c = pool.columns[cur.pop(j)]
                left[c.idx] += c.val
        c = pool.columns[k]
        left[c.idx] -= c.val
        cur[i] = k

    def release(i):  # what job i's column holds, added back to left (undone by the caller)
        if i in cur:
            c = pool.columns[cur[i]]
            left[c.idx] += c.val

    def hold(i):
        if i in cur:
            c = pool.columns[cur[i]]
            left[c.idx] -= c.val

    improved = True
    while improved and time.perf_counter() < deadline:
        improved = False
        for i in cand if "upgrade" in moves else ():  # 1. upgrade
            if time.perf_counter() >= deadline:
                break
            release(i)
            best, gain = None, GAIN_TOL
            for k in pool.by_job.get(i, ()):
                g = pool.columns[k].utility - util(i)
                if g > gain and pool.fits(k, left):
                    best, gain = k, g
            hold(i)
            if best is not None:
                take(i, best)
                improved = True
        for i in cand if "swap" in moves else ():  # 2. a rejected job in, an admitted one out
            if i in cur or time.perf_counter() >= deadline:
                continue
            best, gain = None, GAIN_TOL
            for k in pool.by_job.get(i, ()):
                for j in list(cur):
                    g = pool.columns[k].utility - util(j)
                    if g <= gain:
                        continue
                    release(j)
                    ok = pool.fits(k, left)
                    hold(j)
                    if ok:
                        best, gain = (k, j), g
            if best is not None:
                take(i, best[0], drop=(best[1],))
                improved = True
        if insert is not None and "insert" in moves:  # 3. price rejected jobs on what is left
            for i in by_value:
                if i in cur or time.perf_counter() >= deadline:
                    continue
                sig = (i, float(left.sum()))
                if sig in tried_insert:
                    continue
                tried_insert.add(sig)
                col = insert(i, left)
                if col is None or col.utility <= GAIN_TOL:
                    continue
                k = pool.add(col)
                k = pool.index_of(col) if k is None else k
                if pool.fits(k, left):
                    take(i, k)
                    improved = True
        if refit is not None and "refit" in moves:  # 4. admitted jobs re-placed
            for i in by_value:
                if i not in cur or time.perf_counter() >= deadline:
                    continue
                sig = (-1 - i, float(left.sum()))
                if sig in tried_insert:
                    continue
                tried_insert.add(sig)
                release(i)
                col = refit(i, left)
                k = None
                if col is not None and col.utility > util(i) + GAIN_TOL:
                    k = pool.add(col)
                    k = pool.index_of(col) if k is None else k
                    if not pool.fits(k, left):
                        k = None
                hold(i)
                if k is not None:
                    take(i, k)
                    improved = True
    return sorted(cur.values())

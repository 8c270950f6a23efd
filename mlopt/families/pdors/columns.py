"""Columns of R-DMLRS (8): one job's full placement over its slots, kept with the placement so a
set of columns decodes to a :class:`~mlopt.schedule.Schedule` the checker can judge.

A column's resource use is stored sparse over the flattened (slot, machine, resource) grid of
the shared pool (at ``paper-fig9`` a dense column is 80 x 50 x 4 floats and thousands are
generated).  :class:`ColumnPool` deduplicates columns (same job, same use) and answers the
questions every primal heuristic asks: does a set of columns fit the capacities, what is left.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mlopt.schedule import Schedule

#: capacity slack for float sums (the checker allows C (1 + 1e-9) + 1e-9)
FIT_TOL = 1e-9


@dataclass(frozen=True)
class Column:
    job: int  # index into workload.jobs
    utility: float  # u_i(end - a_i)
    end: int  # completion slot t~ (last slot with workers)
    plan: tuple  # ((t, w, s), ...): workers / PSs per machine in slot t
    idx: np.ndarray  # flat (t-1, h, r) indices with use > 0
    val: np.ndarray  # the use there
    source: str  # who produced it ("price", "pdors", "insert", ...)


class ColumnPool:
    """The columns generated so far, per job; capacities ``cap`` (H, R) over T slots."""

    def __init__(self, arr, T: int):
        self.arr, self.T = arr, T
        self.H, self.R = arr.cap.shape
        self.cap = np.broadcast_to(arr.cap, (T, self.H, self.R)).reshape(-1).astype(float)
        self.columns: list[Column] = []
        self.by_job: dict[int, list[int]] = {}
        self._keys: dict[bytes, int] = {}

    def make(self, i: int, plan: dict[int, tuple[np.ndarray, np.ndarray]], utility: float,
             source: str) -> Column:
        """A column of job ``i`` from ``{t: (w, s)}`` (slots without workers are dropped)."""
        use = np.zeros((self.T, self.H, self.R))
        slots = []
        for t in sorted(plan):
            w, s = (np.asarray(v, dtype=int) for v in plan[t])
            if w.sum() <= 0:
                continue
            use[t - 1] = np.outer(w, self.arr.alpha[i]) + np.outer(s, self.arr.beta[i])
            slots.append((int(t), w, s))
        flat = use.reshape(-1)
        idx = np.flatnonzero(flat > 0)
        end = slots[-1][0] if slots else 0
        return Column(int(i), float(utility), end, tuple(slots), idx, flat[idx], source)

    def add(self, col: Column) -> int | None:
        """Index of the new column, or None when the same placement of that job is in."""
        key = np.int64(col.job).tobytes() + col.idx.tobytes() + col.val.tobytes()
        if key in self._keys:
            return None
        k = len(self.columns)
        self._keys[key] = k
        self.columns.append(col)
        self.by_job.setdefault(col.job, []).append(k)
        return k

    def index_of(self, col: Column) -> int | None:
        """Return the pool index of an identical column, or None if absent."""
        key = np.int64(col.job).tobytes() + col.idx.tobytes() + col.val.tobytes()
        return self._keys.get(key)

    # ---- capacities ------------------------------------------------------------------------
    def residual(self, chosen) -> np.ndarray:
        """Capacity left (flat T*H*R) after the columns ``chosen`` (indices)."""
        left = self.cap.copy()
        for k in chosen:
            c = self.columns[k]
            left[c.idx] -= c.val
        return left

    def fits(self, k: int, left: np.ndarray) -> bool:
        """Return whether column k fits into the residual capacity left."""
        c = self.columns[k]
        return bool(np.all(c.val <= left[c.idx] + FIT_TOL * (1.0 + self.cap[c.idx])))

    def value(self, chosen) -> float:
        """Return the total utility of the chosen columns (indices)."""
        return float(sum(self.columns[k].utility for k in chosen))

    # ---- schedules -------------------------------------------------------------------------
    def schedule(self, workload, chosen, meta: dict | None = None) -> Schedule:
        """The schedule admitting the jobs of ``chosen`` (one column per job) as planned."""
        admitted, rows = [], []
        sid = self.arr.server_ids
        for k in sorted(chosen, key=lambda k: self.columns[k].job):
            c = self.columns[k]
            job = workload.jobs[c.job].id
            admitted.append(job)
            for t, w, s in c.plan:
                rows += [(job, t, sid[h], "worker", int(w[h])) for h in np.flatnonzero(w)]
                rows += [(job, t, sid[h], "ps", int(s[h])) for h in np.flatnonzero(s)]
        return Schedule.from_rows(admitted, rows, meta)

    def of_schedule(self, workload, schedule: Schedule, source: str) -> list[Column]:
        """The columns of a schedule's admitted jobs (one per admitted job with workers), as
        placed; utilities from each job's last slot with workers (the checker's t~)."""
        jidx, sidx = workload.job_index, workload.server_index
        out = []
        for job, g in schedule.allocations.groupby("job"):
            if job not in schedule.admitted or job not in jidx:
                continue
            i = jidx[job]
            plan: dict[int, tuple[np.ndarray, np.ndarray]] = {}
            for r in g.itertuples():
                w, s = plan.setdefault(int(r.slot), (np.zeros(self.H, int),
                                                     np.zeros(self.H, int)))
                (w if r.role == "worker" else s)[sidx[r.server]] += int(r.count)
            col = self.make(i, plan, 0.0, source)
            if not col.plan:
                continue
            u = float(workload.jobs[i].utility(col.end - workload.jobs[i].arrival))
            out.append(Column(col.job, u, col.end, col.plan, col.idx, col.val, source))
        return out

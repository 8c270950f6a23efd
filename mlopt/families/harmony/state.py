"""The placement simulator: cluster state over scheduling intervals, shared by the baselines,
the Gymnasium environment and the DRL scheduler (the checker has its own, independent replay).

Semantics (seed 002 Sec. III plus the decisions documented here):

* jobs arriving in interval t are placed at the boundary *starting* interval t (batching) and
  train from interval t on; placement never changes afterwards (no migration);
* gang placement: all W workers and P PSs of a job are placed in the same interval or none is
  (a job that does not fit is rolled back and waits in the queue; waiting counts in its JCT);
* speeds are the ground-truth model's (:mod:`.speed`), constant within an interval and
  recomputed every interval from the jobs still running; a job completes at the end of the first
  interval in which its trained epochs reach e_n and frees its resources at that boundary;
* JCT = completion interval - arrival interval + 1 (whole intervals: the unit of Table II, and
  what the MILP can represent exactly).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mlopt.families.harmony.speed import RESOURCES, model_of
from mlopt.schedule import Schedule

EPS = 1e-9


@dataclass
class JobArrays:
    ids: list[str]
    model: np.ndarray  # N, model index
    workers: np.ndarray  # W
    ps: np.ndarray  # P
    epochs: np.ndarray  # e_n
    arrival: np.ndarray
    dw: np.ndarray  # N x R worker demand
    dp: np.ndarray  # N x R PS demand

    @classmethod
    def of(cls, workload) -> "JobArrays":
        """Return the per-job arrays of the workload."""
        sm = model_of(workload)
        jobs = workload.jobs
        return cls(
            ids=[j.id for j in jobs],
            model=np.array([sm.index(j.extra["model"]) for j in jobs], int),
            workers=np.array([int(j.extra["workers"]) for j in jobs], int),
            ps=np.array([int(j.extra["ps"]) for j in jobs], int),
            epochs=np.array([j.epochs for j in jobs], float),
            arrival=np.array([j.arrival for j in jobs], int),
            dw=np.array([[j.worker_demand[r] for r in RESOURCES] for j in jobs], float
                        ).reshape(len(jobs), len(RESOURCES)),
            dp=np.array([[j.ps_demand[r] for r in RESOURCES] for j in jobs], float
                        ).reshape(len(jobs), len(RESOURCES)))


class ClusterState:
    """Mutable cluster + job progress. Roles: 0 = worker, 1 = PS (the paper's action encoding)."""

    def __init__(self, workload):
        self.workload = workload
        self.sm = model_of(workload)
        self.jobs = JobArrays.of(workload)
        n, m = len(workload.jobs), len(workload.servers)
        self.cap = np.array([[s.capacity[r] for r in RESOURCES] for s in workload.servers])
        self.free = self.cap.copy()
        self.x = np.zeros((2, n, m), int)  # tasks per role, job, server
        self.placed_at = np.zeros(n, int)  # interval of placement, 0 = not placed
        self.done_at = np.zeros(n, int)  # completion interval, 0 = running or not placed
        self.progress = np.zeros(n)
        self.t = 1  # the interval being decided

    # ---- placement ---------------------------------------------------------------------------
    def demand(self, n: int, role: int) -> np.ndarray:
        """Return job n's per-task demand for the role (0 worker, 1 PS)."""
        return self.jobs.dw[n] if role == 0 else self.jobs.dp[n]

    def feasible_servers(self, n: int, role: int) -> np.ndarray:
        """Return the servers where one more task of job n's role fits."""
        return np.flatnonzero((self.free >= self.demand(n, role) - EPS).all(axis=1))

    def remaining(self, n: int, role: int) -> int:
        """Return how many tasks of the role job n still needs placed."""
        need = self.jobs.workers[n] if role == 0 else self.jobs.ps[n]
        return int(need - self.x[role, n].sum())

    def place(self, n: int, role: int, m: int) -> None:
        """Place one task of job n's role on server m; ValueError if infeasible."""
        d = self.demand(n, role)
        if self.remaining(n, role) <= 0 or not (self.free[m] >= d - EPS).all():
            raise ValueError(f"infeasible placement of job {n} role {role} on server {m}")
        self.x[role, n, m] += 1
        self.free[m] -= d

    def _release(self, n: int) -> None:
        for role in (0, 1):
            self.free += self.x[role, n][:, None] * self.demand(n, role)[None, :]

    def rollback(self, n: int) -> None:
        """Undo a partial placement of job n (gang semantics)."""
        self._release(n)
        self.x[:, n] = 0

    def complete(self, n: int) -> bool:
        """Return whether all of job n's workers and PSs are placed."""
        return self.remaining(n, 0) == 0 and self.remaining(n, 1) == 0

    def commit(self, n: int) -> None:
        """Record job n as placed at the current slot."""
        self.placed_at[n] = self.t

    def queue(self) -> np.ndarray:
        """Arrived, unplaced jobs in FIFO order (arrival, then index)."""
        idx = np.flatnonzero((self.jobs.arrival <= self.t) & (self.placed_at == 0))
        return idx[np.lexsort((idx, self.jobs.arrival[idx]))]

    def running(self) -> np.ndarray:
        """Return the mask of jobs placed and not yet done."""
        return (self.placed_at > 0) & (self.done_at == 0)

    # ---- time --------------------------------------------------------------------------------
    def speeds(self) -> np.ndarray:
        """Epochs per interval of every job given the jobs running now (0 for the others)."""
        run = self.running()
        xw = self.x[0] * run[:, None]
        xp = self.x[1] * run[:, None]
        return self.sm.speeds(self.jobs.model, self.jobs.workers, xw, xp)

    def advance(self) -> np.ndarray:
        """Train one interval; returns the speeds c_n of the interval (reward input)."""
        c = self.speeds()
        self.progress += c
        fin = self.running() & (self.progress >= self.jobs.epochs - EPS)
        for n in np.flatnonzero(fin):
            self.done_at[n] = self.t
            self._release(n)  # frees its resources at the boundary; x stays as the record
        self.t += 1
        return c

    def all_done(self) -> bool:
        """Return whether every job is done."""
        return bool((self.done_at > 0).all())

    # ---- output ------------------------------------------------------------------------------
    def schedule(self, producer: str, meta: dict | None = None) -> Schedule:
        """Return the Schedule of the placed jobs."""
        rows, admitted = [], []
        sids = [s.id for s in self.workload.servers]
        for n, jid in enumerate(self.jobs.ids):
            if self.placed_at[n] == 0:
                continue
            admitted.append(jid)
            for role, name in ((0, "worker"), (1, "ps")):
                for m in np.flatnonzero(self.x[role, n]):
                    rows.append((jid, int(self.placed_at[n]), sids[m], name,
                                 int(self.x[role, n, m])))
        return Schedule.from_rows(admitted, rows, dict(meta or {}, producer=producer))


def run_placement(workload, choose, *, producer: str, meta: dict | None = None) -> Schedule:
    """Online placement loop of the baselines: every interval, the queue in FIFO order, each
    job's PSs first, then its workers, one task at a time on the server ``choose(state, n, role,
    feasible)`` returns (DECISION: the paper does not fix the order; PSs first keeps the
    smaller tasks from being stranded by workers). A job that does not fit entirely is rolled
    back and waits; later jobs may still be placed (backfilling)."""
    st = ClusterState(workload)
    while st.t <= workload.horizon and not st.all_done():
        place_queue(st, st.queue(), choose)
        st.advance()
    return st.schedule(producer, meta)


def place_queue(st: ClusterState, queue, choose) -> None:
    """One interval of :func:`run_placement`: the jobs of ``queue`` in order, each whole (PSs
    first, one task at a time on ``choose(state, n, role, feasible)``) or rolled back."""
    for n in queue:
        ok = True
        for role in (1, 0):
            for _ in range(st.remaining(n, role)):
                feas = st.feasible_servers(n, role)
                if len(feas) == 0:
                    ok = False
                    break
                st.place(n, role, int(choose(st, n, role, feas)))
            if not ok:
                break
        if ok:
            st.commit(n)
        else:
            st.rollback(n)


def state_at(workload, schedule: Schedule, interval: int) -> ClusterState:
    """The simulator's state at the boundary of ``interval`` when ``schedule`` is followed up
    to it: every job the schedule places in an earlier interval is placed (as its rows say) and
    the intervals before are trained. What an online algorithm faces at that boundary, given
    the decisions it (or another algorithm) made before. Raises ValueError when a row does not
    fit (the schedule is not a feasible one for this workload)."""
    st = ClusterState(workload)
    index = {jid: n for n, jid in enumerate(st.jobs.ids)}
    server = {s.id: m for m, s in enumerate(workload.servers)}
    rows = schedule.allocations
    while st.t < interval:
        placed = rows[rows["slot"] == st.t]
        for jid, grp in placed.groupby("job", sort=True):
            n = index[jid]
            for _, r in grp.iterrows():
                for _ in range(int(r["count"])):
                    st.place(n, 0 if r["role"] == "worker" else 1, server[r["server"]])
            st.commit(n)
        st.advance()
    return st

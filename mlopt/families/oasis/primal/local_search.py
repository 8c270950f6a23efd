"""Local search on a set of OASiS schedule columns: insert, re-fit, ruin-and-recreate.

A solution is at most one :class:`~mlopt.models.oasis.master.Column` per job whose summed
usage fits every server in every slot ((15)/(16)).  Every move asks the subroutine
:func:`~mlopt.families.oasis.subroutine.best_schedule` (exact for (27) proper with
``unit="worker_slot"``) for the best schedule of one job in the *residual* cluster left by the
other jobs, so a move can never break feasibility; new schedules become columns the restricted
master can reuse (price-and-branch: the master only knows columns priced on the empty cluster,
which often do not fit together).

Moves (each accepted only when the total utility does not drop, strictly rises for ruins):

* insert: a job without a column gets its best residual schedule (if any);
* re-fit: a job's column is replaced by its best residual schedule when that has a higher
  utility, or the same utility with fewer normalized resources (room for inserts);
* ruin-and-recreate: drop 1..``ruin_max`` admitted jobs (3 at first, widened by the caller
  while the search is stuck; random, biased to low utility per resource),
  re-insert every job without a column in a random order biased to high utility; keep the
  result iff it is better than before the ruin, else restore.

DECISION (prices of the residual subproblem; the paper has no such search).  The DP maximizes
f_i - cost.  ``guide`` prices (e.g. the last master LP's duals, scaled by ``guide_weight``)
make a schedule avoid congested resources; on top, every resource unit costs
``tie_cost / c^r`` (normalized by capacity) with ``tie_cost`` so small that the whole cluster
for the whole horizon costs 1e-3 of the smallest positive utility: among schedules of equal
utility the DP then takes the one using the least capacity, never trading utility for it.
When the guided prices leave no positive payoff, the tie prices alone are tried (insertion
wants any feasible schedule of positive utility).
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from mlopt.families.oasis.subroutine import Market, SubJob, best_schedule
from mlopt.models.oasis.master import Column
from mlopt.workload import Workload

#: a utility gain smaller than this (relative to max(1, utility)) is a tie, not an improvement
GAIN_RTOL = 1e-9
#: share of the smallest positive job utility that the whole cluster-horizon costs (tie prices)
TIE_SHARE = 1e-3


@dataclass
class Packing:
    """A feasible set of columns (at most one per job) and the capacity it leaves free."""

    workload: Workload
    chosen: dict[int, Column]
    free_w: np.ndarray  # (T, H, R) residual worker-server capacity
    free_p: np.ndarray  # (T, K, R) residual PS-server capacity

    @classmethod
    def from_columns(cls, workload: Workload, columns) -> "Packing":
        """Pack the given columns; raise ValueError on two columns per job or over capacity."""
        a = workload.arrays
        T = workload.horizon
        pk = cls(workload, {}, np.broadcast_to(a.cap_worker, (T,) + a.cap_worker.shape).copy(),
                 np.broadcast_to(a.cap_ps, (T,) + a.cap_ps.shape).copy())
        for col in columns:
            if col.job in pk.chosen:
                raise ValueError(f"two columns for job {workload.jobs[col.job].id!r}")
            pk.put(col)
        if not pk.fits():
            raise ValueError("the columns exceed a server's capacity")
        return pk

    @property
    def utility(self) -> float:
        """Total utility of the chosen columns."""
        return float(sum(c.utility for c in self.chosen.values()))

    def _use(self, col: Column, sign: float) -> None:
        a = self.workload.arrays
        np.add.at(self.free_w, (col.worker_slot - 1, col.worker_server),
                  -sign * col.worker_count[:, None] * a.worker_demand[col.job][None, :])
        np.add.at(self.free_p, (col.ps_slot - 1, col.ps_server),
                  -sign * col.ps_count[:, None] * a.ps_demand[col.job][None, :])

    def put(self, col: Column) -> None:
        """Choose a column for its job and take its capacity."""
        self.chosen[col.job] = col
        self._use(col, 1.0)

    def drop(self, job: int) -> Column:
        """Remove the job's column, free its capacity and return it."""
        col = self.chosen.pop(job)
        self._use(col, -1.0)
        return col

    def fits(self) -> bool:
        """Return whether no residual capacity is negative beyond tolerance."""
        a = self.workload.arrays
        tol_w = 1e-9 * np.maximum(1.0, a.cap_worker)
        tol_p = 1e-9 * np.maximum(1.0, a.cap_ps)
        return bool((self.free_w >= -tol_w).all() and (self.free_p >= -tol_p).all())

    def copy(self) -> "Packing":
        """Return a copy with its own chosen dict and capacity arrays."""
        return Packing(self.workload, dict(self.chosen), self.free_w.copy(), self.free_p.copy())


@dataclass
class LocalSearch:
    """The moves of the module docstring on one workload; ``found`` collects every new column."""

    workload: Workload
    guide_w: np.ndarray | None = None  # (T, H, R) guide prices (e.g. master LP duals)
    guide_p: np.ndarray | None = None  # (T, K, R)
    seed: int = 0
    ruin_max: int = 3  # a ruin drops 1..ruin_max admitted jobs (the caller widens it when stuck)
    found: list[Column] = field(default_factory=list)
    calls: int = 0  # subproblem solves

    def __post_init__(self):
        w = self.workload
        a = w.arrays
        T = w.horizon
        self.rng = np.random.default_rng(self.seed)
        self.subjobs = [SubJob.from_workload(w, i) for i in range(len(w.jobs))]
        best_f = np.array([float(np.max(np.asarray(j.utility(np.arange(
            T - j.arrival + 1, dtype=float))))) for j in w.jobs])
        self.best_f = best_f
        pos = best_f[best_f > 0]
        f_min = float(pos.min()) if len(pos) else 1.0
        units = T * (np.count_nonzero(a.cap_worker) + np.count_nonzero(a.cap_ps))
        tie = TIE_SHARE * f_min / max(1, units)
        with np.errstate(divide="ignore"):
            self.tie_w = np.broadcast_to(np.where(a.cap_worker > 0, tie / a.cap_worker, 0.0),
                                         (T,) + a.cap_worker.shape).copy()
            self.tie_p = np.broadcast_to(np.where(a.cap_ps > 0, tie / a.cap_ps, 0.0),
                                         (T,) + a.cap_ps.shape).copy()
        self._seen: set[tuple] = set()

    # -- one job in the residual cluster --------------------------------------------------------
    def fit(self, pk: Packing, job: int) -> Column | None:
        """Best schedule of ``job`` in ``pk``'s residual capacity (``job`` must be out of pk)."""
        free_w = np.maximum(pk.free_w, 0.0)
        free_p = np.maximum(pk.free_p, 0.0)
        tries = []
        if self.guide_w is not None:
            tries.append((self.guide_w + self.tie_w, self.guide_p + self.tie_p))
        tries.append((self.tie_w, self.tie_p))
        for pw, pp in tries:
            self.calls += 1
            s = best_schedule(self.subjobs[job], Market(pw, pp, free_w, free_p),
                              unit="worker_slot")
            if s.admit:
                col = Column.from_dense(self.workload, job, s.workers, s.ps, "repair")
                if col.key not in self._seen:
                    self._seen.add(col.key)
                    self.found.append(col)
                return col
        return None

    @staticmethod
    def _size(pk: Packing, col: Column) -> float:
        a = pk.workload.arrays
        with np.errstate(divide="ignore", invalid="ignore"):
            w = np.where(a.cap_worker > 0, a.worker_demand[col.job] / a.cap_worker, 0.0)
            p = np.where(a.cap_ps > 0, a.ps_demand[col.job] / a.cap_ps, 0.0)
        return float((w[col.worker_server].sum(axis=1) * col.worker_count).sum()
                     + (p[col.ps_server].sum(axis=1) * col.ps_count).sum())

    # -- moves ---------------------------------------------------------------------------------
    def insert_all(self, pk: Packing, order=None, deadline: float = np.inf) -> int:
        """Insert jobs without a column (in ``order``, default by best utility); count added."""
        if order is None:
            order = np.argsort(-self.best_f, kind="stable")
        added = 0
        for j in order.tolist():
            if time.perf_counter() > deadline:
                break
            if j in pk.chosen or self.best_f[j] <= 0:
                continue
            col = self.fit(pk, j)
            if col is not None:
                pk.put(col)
                added += 1
        return added

    def refit_all(self, pk: Packing, deadline: float = np.inf) -> int:
        """Re-fit every admitted job (lowest utility first); count improved."""
        better = 0
        for j in sorted(pk.chosen, key=lambda j: pk.chosen[j].utility):
            if time.perf_counter() > deadline:
                break
            old = pk.drop(j)
            col = self.fit(pk, j)
            tol = GAIN_RTOL * max(1.0, old.utility)
            if col is not None and (col.utility > old.utility + tol or (
                    col.utility >= old.utility - tol and
                    self._size(pk, col) < self._size(pk, old) * (1 - 1e-9))):
                pk.put(col)
                better += 1
            else:
                pk.put(old)
        return better

    def ruin_recreate(self, pk: Packing, deadline: float) -> tuple[Packing, int]:
        """Ruin-and-recreate until ``deadline``; returns the best packing and accepted moves."""
        best = pk
        accepted = fails = 0
        # stop after this many ruins in a row without a gain, or when no job can gain
        max_fails = 30 + 2 * len(self.best_f)
        cap_val = float(self.best_f[self.best_f > 0].sum())
        while time.perf_counter() < deadline and best.chosen and fails < max_fails \
                and best.utility < cap_val * (1 - GAIN_RTOL):
            trial = best.copy()
            jobs = np.array(sorted(trial.chosen))
            dens = np.array([trial.chosen[j].utility
                             / max(1e-12, self._size(trial, trial.chosen[j])) for j in jobs])
            weight = 1.0 / (1.0 + np.argsort(np.argsort(dens)))  # rank 0 = lowest density
            k = min(len(jobs), int(self.rng.integers(1, self.ruin_max + 1)))
            out = self.rng.choice(jobs, size=k, replace=False, p=weight / weight.sum())
            for j in out.tolist():
                trial.drop(j)
            noise = self.rng.random(len(self.best_f)) * 0.5 + 0.75
            order = np.argsort(-self.best_f * noise, kind="stable")
            self.insert_all(trial, order, deadline)
            if trial.utility > best.utility + GAIN_RTOL * max(1.0, best.utility):
                best = trial
                accepted += 1
                fails = 0
            else:
                fails += 1
        return best, accepted

    def improve(self, pk: Packing, time_limit: float) -> tuple[Packing, dict]:
        """insert, re-fit, insert, then ruin-and-recreate for the time left."""
        start = time.perf_counter()
        deadline = start + max(0.0, time_limit)
        pk = pk.copy()
        before = pk.utility
        ins = self.insert_all(pk, deadline=deadline)
        ref = self.refit_all(pk, deadline=deadline)
        ins += self.insert_all(pk, deadline=deadline)
        pk, rr = self.ruin_recreate(pk, deadline)
        if not pk.fits():  # pragma: no cover - every move fits by construction
            raise AssertionError("local search left an infeasible packing")
        return pk, {"start": before, "end": pk.utility, "inserted": ins, "refit": ref,
                    "ruin_accepted": rr, "subproblems": self.calls,
                    "seconds": time.perf_counter() - start}

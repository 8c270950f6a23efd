"""Slot-by-slot simulation shared by the OASiS baselines (FIFO, DRF, RRH, Dorm).

The simulator owns the cluster and the jobs' progress; a *policy* only decides allocations when
something happens.  Per slot ``t = 1..T``:

1. if some job arrives at ``t`` or some job completed at the end of ``t-1``, the policy's
   ``on_event(sim, t, arrived, completed)`` runs and may start, resize, move or pause jobs
   (the paper's baselines all react "upon job arrival and job completion");
2. the resulting allocation is checked against the OASiS constraints (3)-(7), (9), (10) -- a
   violation here is a bug in a policy and raises ``RuntimeError``;
3. every allocated job trains: its remaining work (constraint (2), in worker-slots:
   ``E_i N_i M_i (tau_i + 2 e_i / b_i)``, see :mod:`mlopt.workload`) drops by its worker count;
   a job whose remaining work reaches 0 completes at ``t`` and releases its resources.

Decisions shared by every baseline (documented here once, tested in
``tests/oasis/test_baselines_oasis.py``):

* **Capacity.**  Resources are tracked per *physical* server.  A server of role ``any`` hosts
  workers and PSs out of one capacity, which satisfies (4)/(5) under either reading of such a
  server.
* **PS count.**  For ``y`` workers a job uses the fewest PSs satisfying (6):
  ``p(y) = min{p : p B_i >= y b_i}``, compared up to float noise (relative ``BW_RTOL`` = 1e-12,
  far inside the checker's 1e-9: 3 x 0.1 Gbps is covered by one 0.3 Gbps PS).  (7) then holds
  iff ``b_i <= B_i``.
* **Unrunnable jobs.**  A job with ``b_i > B_i`` (no worker count satisfies (6) and (7) at once)
  or whose single worker plus single PS cannot be placed on the empty cluster never runs; it is
  listed in ``meta["unrunnable"]``.
* **Unfinished jobs.**  A job still short of its work at ``T`` earns nothing.  It is *not*
  admitted in the output schedule, its allocation rows are dropped (so (3) with ``x_i = 0``
  holds) and it is listed in ``meta["unfinished"]``.  The output's admitted set is exactly the
  set of completed jobs.
* **Completion tolerance.**  A job completes when its accumulated worker-slots reach
  ``work (1 - WORK_RTOL)``; capacities are respected up to ``CAP_RTOL`` relative (at least
  absolute 1e-9): both within the checker's tolerances (:mod:`mlopt.families.oasis.checker`).
* **Round robin.**  "Place workers and PSs on available servers in a round-robin fashion"
  (paper Sec. V-A): one cursor per pool (worker-hosting, PS-hosting servers); starting at the
  cursor, put one worker (PS) on each server it fits on in turn, cycling, until all are placed;
  the cursor then points past the last server used.  Placement of a job is all-or-nothing.

``meta["jobs"][id]`` records per job: ``status`` (completed, unfinished, rejected, unrunnable,
never_started), ``start``, ``completion`` and ``utility`` (claimed; the checker recomputes).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Iterable, Mapping, Protocol, Sequence

import numpy as np

from mlopt.families.oasis.family import MAX_FIXED_WORKERS
from mlopt.errors import InputError
from mlopt.schedule import Schedule
from mlopt.workload import Workload

WORK_RTOL = 1e-9
CAP_RTOL = 1e-9
BW_RTOL = 1e-12


# ---- small helpers ---------------------------------------------------------------------------
def ps_covers(ps: int, workers: int, b: float, B: float) -> bool:
    """Constraint (6), ``workers b <= ps B``, up to float noise (``BW_RTOL``)."""
    return workers * b <= ps * B * (1.0 + BW_RTOL)


def min_ps(workers: int, b: float, B: float) -> int:
    """Fewest PSs satisfying (6) in the sense of :func:`ps_covers`."""
    if workers <= 0:
        return 0
    p = max(0, math.ceil(workers * b / B))
    while p > 0 and ps_covers(p - 1, workers, b, B):
        p -= 1
    while not ps_covers(p, workers, b, B):
        p += 1
    return p


def need_workers(remaining: float, work: float) -> int:
    """Workers that finish ``remaining`` worker-slots within one slot (at least 1)."""
    return max(1, math.ceil(remaining - WORK_RTOL * work))


def draw_fixed_workers(workload: Workload, rng: np.random.Generator,
                       workers: int | Mapping[str, int] | None,
                       worker_range: Sequence[int]) -> np.ndarray:
    """Fixed worker count per job for FIFO and RRH (paper: "a number within [1, 30]").

    ``workers=None``: one draw per job, uniform on the integers of ``worker_range``, in workload
    order (all jobs drawn at once, so the sizes do not depend on events); an int: that number for
    every job; a mapping job id -> int: per job (every job must be listed).  Always capped by
    N_i (constraint (3)).
    """
    lo, hi = _check_range(worker_range)
    n = len(workload.jobs)
    if workers is None:
        sizes = rng.integers(lo, hi + 1, size=n)
    elif isinstance(workers, Mapping):
        missing = [j.id for j in workload.jobs if j.id not in workers]
        if missing:
            raise InputError("no worker count for this job", field="workers", value=missing[0])
        sizes = np.array([_positive_int(workers[j.id], f"workers[{j.id}]")
                          for j in workload.jobs], dtype=int)
    else:
        sizes = np.full(n, _positive_int(workers, "workers"), dtype=int)
    return np.minimum(sizes.astype(int), workload.arrays.chunks)


def _check_range(worker_range) -> tuple[int, int]:
    try:
        lo, hi = (int(v) for v in worker_range)
    except (TypeError, ValueError):
        raise InputError("must be two integers (lo, hi)", field="worker_range",
                         value=worker_range) from None
    if lo < 1 or hi < lo or hi > MAX_FIXED_WORKERS or \
            any(float(v) != int(v) for v in worker_range):
        raise InputError(f"must satisfy 1 <= lo <= hi <= {MAX_FIXED_WORKERS}, integers",
                         field="worker_range", value=list(worker_range))
    return lo, hi


def _positive_int(value, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or \
            not 1 <= value <= MAX_FIXED_WORKERS:
        raise InputError(f"must be an integer in [1, {MAX_FIXED_WORKERS}]", field=name,
                         value=value)
    return int(value)


def check_number(value, name: str, *, lo: float | None = None, hi: float | None = None) -> float:
    """Validate a numeric option (finite, within [lo, hi])."""
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise InputError("must be a number", field=name, value=value)
    x = float(value)
    if not math.isfinite(x) or (lo is not None and x < lo) or (hi is not None and x > hi):
        raise InputError(f"must be finite and within [{lo}, {hi}]", field=name, value=value)
    return x


# ---- allocations and the cluster -------------------------------------------------------------
@dataclass
class Allocation:
    """Where one job's workers and PSs sit: server index (into ``workload.servers``) -> count."""

    workers: dict[int, int] = field(default_factory=dict)
    ps: dict[int, int] = field(default_factory=dict)

    @property
    def n_workers(self) -> int:
        """Total number of workers over all servers."""
        return sum(self.workers.values())

    @property
    def n_ps(self) -> int:
        """Total number of parameter servers over all servers."""
        return sum(self.ps.values())

    def copy(self) -> "Allocation":
        """Return an independent copy of this allocation."""
        return Allocation(dict(self.workers), dict(self.ps))

    def key(self) -> tuple:
        """Return a hashable, order-independent key of the nonzero worker and PS counts."""
        return (tuple(sorted((s, c) for s, c in self.workers.items() if c)),
                tuple(sorted((s, c) for s, c in self.ps.items() if c)))

    def merge(self, other: "Allocation") -> None:
        """Add the other allocation's worker and PS counts into this one."""
        for s, c in other.workers.items():
            self.workers[s] = self.workers.get(s, 0) + c
        for s, c in other.ps.items():
            self.ps[s] = self.ps.get(s, 0) + c


class Cluster:
    """Residual capacities of the physical servers and round-robin placement."""

    def __init__(self, workload: Workload):
        res = workload.resources
        self.cap = np.array([[s.capacity[r] for r in res] for s in workload.servers], dtype=float)
        self.used = np.zeros_like(self.cap)
        self.tol = CAP_RTOL * np.maximum(1.0, self.cap)
        self.worker_pool = [int(i) for i in workload.arrays.worker_servers]
        self.ps_pool = [int(i) for i in workload.arrays.ps_servers]
        self.cursor = {"worker": 0, "ps": 0}
        arr = workload.arrays
        self.wd = arr.worker_demand
        self.sd = arr.ps_demand

    def reset_cursors(self) -> None:
        """Reset the round-robin placement cursors to the first server."""
        self.cursor = {"worker": 0, "ps": 0}

    def fits(self, s: int, demand: np.ndarray, n: int = 1) -> bool:
        """Return whether n more units of demand fit on server s within tolerance."""
        return bool(np.all(self.used[s] + n * demand <= self.cap[s] + self.tol[s]))

    def _take(self, s: int, demand: np.ndarray, n: int) -> None:
        self.used[s] += n * demand

    def take(self, job: int, alloc: Allocation) -> bool:
        """Reserve ``alloc`` for ``job`` if it fits as a whole; all-or-nothing."""
        need = np.zeros_like(self.cap)
        for s, c in alloc.workers.items():
            need[s] += c * self.wd[job]
        for s, c in alloc.ps.items():
            need[s] += c * self.sd[job]
        if not np.all(self.used + need <= self.cap + self.tol):
            return False
        self.used += need
        return True

    def release(self, job: int, alloc: Allocation) -> None:
        """Return a job's allocated workers and PSs to the servers' free capacity."""
        for s, c in alloc.workers.items():
            self.used[s] -= c * self.wd[job]
        for s, c in alloc.ps.items():
            self.used[s] -= c * self.sd[job]
        # Floating residue of add-then-subtract must not look like a used server.
        self.used[np.abs(self.used) < 1e-12] = 0.0

    def _round_robin(self, pool: list[int], role: str, demand: np.ndarray, n: int,
                     ) -> dict[int, int] | None:
        placed: dict[int, int] = {}
        if n == 0:
            return placed
        m = len(pool)
        if m == 0:
            return None
        k = self.cursor[role] % m
        left, idle = n, 0
        while left > 0 and idle < m:
            s = pool[k]
            if self.fits(s, demand):
                self._take(s, demand, 1)
                placed[s] = placed.get(s, 0) + 1
                left -= 1
                idle = 0
            else:
                idle += 1
            k = (k + 1) % m
        if left > 0:
            for s, c in placed.items():
                self.used[s] -= c * demand
            return None
        self.cursor[role] = k
        return placed

    def place_round_robin(self, job: int, n_workers: int, n_ps: int) -> Allocation | None:
        """Place ``n_workers`` workers and ``n_ps`` PSs of ``job`` round robin; all-or-nothing."""
        saved = dict(self.cursor)
        w = self._round_robin(self.worker_pool, "worker", self.wd[job], n_workers)
        if w is None:
            self.cursor = saved
            return None
        p = self._round_robin(self.ps_pool, "ps", self.sd[job], n_ps)
        if p is None:
            for s, c in w.items():
                self.used[s] -= c * self.wd[job]
            self.cursor = saved
            return None
        return Allocation(w, p)


def largest_fitting(workload: Workload, job: int, workers: int) -> int:
    """Largest ``w <= workers`` whose (w, p(w)) set fits the empty cluster round robin (0: none)."""
    j = workload.jobs[job]
    for w in range(int(workers), 0, -1):
        p = min_ps(w, j.worker_bandwidth, j.ps_bandwidth)
        if p > w:
            return 0
        if Cluster(workload).place_round_robin(job, w, p) is not None:
            return w
    return 0


def total_capacity(workload: Workload) -> np.ndarray:
    """C^r: capacity of the whole cluster (every physical server once), per resource."""
    return np.array([sum(s.capacity[r] for s in workload.servers) for r in workload.resources],
                    dtype=float)


def dominant_share(workload: Workload, job: int, workers: int, ps: int,
                   total: np.ndarray | None = None) -> float:
    """max_r (workers w_i^r + ps s_i^r) / C^r over resources the cluster has (C^r > 0)."""
    total = total_capacity(workload) if total is None else total
    arr = workload.arrays
    use = workers * arr.worker_demand[job] + ps * arr.ps_demand[job]
    mask = total > 0
    return float(np.max(use[mask] / total[mask])) if mask.any() else 0.0


# ---- job state and the simulator -------------------------------------------------------------
@dataclass
class JobState:
    index: int
    id: str
    arrival: int
    work: float
    chunks: int
    b: float
    B: float
    runnable: bool
    done: float = 0.0  # worker-slots trained so far
    alloc: Allocation | None = None
    start: int | None = None
    completion: int | None = None
    status: str = "pending"  # pending -> (rejected) | running/paused -> completed

    @property
    def remaining(self) -> float:
        """Worker-slots of work still to do (never negative)."""
        return max(0.0, self.work - self.done)

    @property
    def finished(self) -> bool:
        """Whether the job has a completion slot."""
        return self.completion is not None

    @property
    def running(self) -> bool:
        """Whether the job currently holds at least one worker."""
        return self.alloc is not None and self.alloc.n_workers > 0

    def need(self) -> int:
        """Return the workers that finish the remaining work within one slot."""
        return need_workers(self.remaining, self.work)

    def ps_for(self, workers: int) -> int:
        """Return the fewest PSs that serve the given number of workers."""
        return min_ps(workers, self.b, self.B)


class Policy(Protocol):
    def on_event(self, sim: "Simulator", t: int, arrived: list[int],
                 completed: list[int]) -> None:
        """React to the jobs arrived and completed at slot t by changing allocations."""
        ...


class Simulator:
    """Runs a policy over slots 1..T and turns the result into a :class:`Schedule`."""

    def __init__(self, workload: Workload):
        self.workload = workload
        self.cluster = Cluster(workload)
        arr = workload.arrays
        self.jobs: list[JobState] = []
        for i, j in enumerate(workload.jobs):
            ok = j.worker_bandwidth <= j.ps_bandwidth and largest_fitting(workload, i, 1) == 1
            self.jobs.append(JobState(i, j.id, int(arr.arrival[i]), float(arr.work[i]),
                                      int(arr.chunks[i]), j.worker_bandwidth, j.ps_bandwidth, ok))
        self.t = 0
        self._rows: dict[int, list[tuple]] = {i: [] for i in range(len(self.jobs))}
        self.events = 0

    # -- used by policies ------------------------------------------------------------------
    def active(self, t: int) -> list[int]:
        """Arrived, runnable, unfinished, not rejected jobs, in (arrival, index) order."""
        out = [js.index for js in self.jobs if js.arrival <= t and js.runnable
               and not js.finished and js.status != "rejected"]
        return sorted(out, key=lambda i: (self.jobs[i].arrival, i))

    def set_alloc(self, i: int, alloc: Allocation | None) -> None:
        """Record ``alloc`` (already reserved on the cluster by the policy) for job ``i``."""
        js = self.jobs[i]
        if alloc is not None and alloc.n_workers == 0:
            alloc = None
        js.alloc = alloc
        if alloc is not None:
            js.status = "running"
            if js.start is None:
                js.start = self.t
        elif js.status == "running":
            js.status = "paused"

    def release(self, i: int) -> Allocation | None:
        """Free job ``i``'s resources and clear its allocation; returns what it held."""
        js = self.jobs[i]
        old = js.alloc
        if old is not None:
            self.cluster.release(i, old)
        js.alloc = None
        return old

    # -- the loop --------------------------------------------------------------------------
    def run(self, policy: Policy) -> None:
        """Run the policy over slots 1..T, calling it whenever jobs arrive or complete."""
        by_arrival: dict[int, list[int]] = {}
        for js in self.jobs:
            by_arrival.setdefault(js.arrival, []).append(js.index)
        completed: list[int] = []
        for t in range(1, self.workload.horizon + 1):
            self.t = t
            arrived = [i for i in by_arrival.get(t, []) if self.jobs[i].runnable]
            if arrived or completed:
                self.events += 1
                policy.on_event(self, t, arrived, completed)
            self._validate(t)
            completed = self._train(t)

    def _train(self, t: int) -> list[int]:
        servers = self.workload.servers
        completed = []
        for js in self.jobs:
            if js.alloc is None:
                continue
            rows = self._rows[js.index]
            for s, c in sorted(js.alloc.workers.items()):
                if c:
                    rows.append((js.id, t, servers[s].id, "worker", int(c)))
            for s, c in sorted(js.alloc.ps.items()):
                if c:
                    rows.append((js.id, t, servers[s].id, "ps", int(c)))
            js.done += js.alloc.n_workers
            if js.done >= js.work * (1.0 - WORK_RTOL):
                js.completion = t
                js.status = "completed"
                self.release(js.index)
                completed.append(js.index)
        return completed

    def _validate(self, t: int) -> None:
        """Constraints (3)-(7), (9), (10) for slot ``t``: a violation is a policy bug."""
        used = np.zeros_like(self.cluster.cap)
        wpool, ppool = set(self.cluster.worker_pool), set(self.cluster.ps_pool)
        for js in self.jobs:
            a = js.alloc
            if a is None:
                continue
            y, p = a.n_workers, a.n_ps
            problems = []
            if t < js.arrival:
                problems.append("allocated before arrival (9)/(10)")
            if js.finished or js.status == "rejected" or not js.runnable:
                problems.append(f"allocated while {js.status}")
            if y > js.chunks:
                problems.append(f"{y} workers > N_i={js.chunks} (3)")
            if not ps_covers(p, y, js.b, js.B):
                problems.append(f"PS bandwidth {p}*{js.B} < {y}*{js.b} (6)")
            if p > y:
                problems.append(f"{p} PSs > {y} workers (7)")
            if any(c < 0 for c in (*a.workers.values(), *a.ps.values())):
                problems.append("negative count")
            if not set(a.workers) <= wpool or not set(a.ps) <= ppool:
                problems.append("server of the wrong role")
            if problems:
                raise RuntimeError(f"slot {t}, job {js.id}: " + "; ".join(problems))
            for s, c in a.workers.items():
                used[s] += c * self.cluster.wd[js.index]
            for s, c in a.ps.items():
                used[s] += c * self.cluster.sd[js.index]
        over = used > self.cluster.cap + self.cluster.tol
        if over.any():
            s, r = map(int, np.argwhere(over)[0])
            raise RuntimeError(f"slot {t}: server {self.workload.servers[s].id} over capacity "
                               f"in {self.workload.resources[r]} (4)/(5)")
        if not np.allclose(used, self.cluster.used, atol=1e-6):
            raise RuntimeError(f"slot {t}: cluster bookkeeping out of sync with allocations")

    # -- output ----------------------------------------------------------------------------
    def schedule(self, algorithm: str, meta: dict | None = None) -> Schedule:
        """Build the Schedule of the completed jobs, with every job's status in the meta."""
        completed = [js for js in self.jobs if js.finished]
        rows = [row for js in completed for row in self._rows[js.index]]
        jobs_meta = {}
        total = 0.0
        for js in self.jobs:
            if js.finished:
                status = "completed"
            elif not js.runnable:
                status = "unrunnable"
            elif js.status == "rejected":
                status = "rejected"
            elif js.start is None:
                status = "never_started"
            else:
                status = "unfinished"
            entry = {"status": status, "start": js.start, "completion": js.completion}
            if js.finished:
                u = float(self.workload.jobs[js.index].utility(js.completion - js.arrival))
                entry["utility"] = u
                total += u
            jobs_meta[js.id] = entry
        out = {
            "algorithm": algorithm,
            "unfinished": [k for k, v in jobs_meta.items() if v["status"] in
                           ("unfinished", "never_started")],
            "rejected": [k for k, v in jobs_meta.items() if v["status"] == "rejected"],
            "unrunnable": [k for k, v in jobs_meta.items() if v["status"] == "unrunnable"],
            "claimed_utility": total,
            "events": self.events,
            "jobs": jobs_meta,
        }
        out.update(meta or {})
        return Schedule.from_rows([js.id for js in completed], rows, _plain(out))


def _plain(obj):
    """Recursively convert numpy scalars and tuples so ``meta`` is JSON-ready."""
    if isinstance(obj, dict):
        return {str(k): _plain(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_plain(v) for v in obj]
    if isinstance(obj, np.integer):
        return int(obj)
    if isinstance(obj, np.floating):
        return float(obj)
    if isinstance(obj, np.ndarray):
        return _plain(obj.tolist())
    return obj


def sorted_ids(sim: Simulator, indices: Iterable[int]) -> list[str]:
    """Return the job ids of the given job indices, in index order."""
    return [sim.jobs[i].id for i in sorted(indices)]

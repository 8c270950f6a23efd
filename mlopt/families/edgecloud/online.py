"""A_online = A_greedy (Alg. 2-4) + A_ps (Alg. 5) of seed 001, Sec. IV, with the fixes below.

Per slot t (Alg. 1), the jobs arriving at t (ascending job order) are dispatched chunk by chunk
by A_greedy; then A_ps gives every training job a PS.  Every edge worker keeps a *plan*: for
each chunk assigned to it, the slots it will train in.  Plans only change at slots
>= t* >= r_j + Delta_js >= t, so the final plans are the realized schedule.

A_greedy for job j (rate gamma_jd = n_jsw / (E_j D_j B_j) = 1 / (D_j p_j): HAPRF = highest
rate first):

1. For every eligible edge worker w, CALCULATEQ: t0 = r_j + Delta_js; A(t0) = chunks on w not
   finished before t0; A1 = those with gamma >= gamma_jd, A2 = the rest; t* = max(t0, one past
   the last planned slot of A1) (the "dividing time point");
   Q = Delta_js / D_j + sum_{A1} p_hat(t0) / D_j + p_j / D_j + p_j sum_{A2} 1 / D_j'   (Eq. (5)).
   The cloud entry: Q = (Delta_jc + p_j^c) / D_j, t* = r_j + Delta_jc, where p_j^c is the
   zeta_j = 1 chunk time for the first chunk and the zeta_j = 0 one afterwards.
2. For d = 1..D_j pick the entry with the least Q (ties: smaller t*, then edge before cloud, then
   worker order).  Cloud: every remaining chunk goes to the cloud, alpha = that Q, stop
   (zeta_j = 1 iff it happens for the first chunk).  Edge worker: alpha_jd = Q; UPDATEVARIABLES
   trains d in [t*, t* + p_j) and postpones every planned slot >= t* of the worker's A2 chunks by
   p_j (preemption without migration); beta_sw(t) += 1/D_j on [r_j, t* + p_j).

FIXES of the printed pseudocode (each tested against the plain transliteration in
:mod:`.reference`):

* FIX 1 (order, Alg. 2 lines 21-24): the printed algorithm recomputes Q of the chosen worker
  (line 21) *before* UPDATEVARIABLES inserts chunk d (line 24), so the recomputed Q is the same
  and every chunk of the job stacks on one worker.  We insert d first, then recompute the
  worker's entry for the next chunk (which has equal gamma, so it queues behind d).
* FIX 2 (Alg. 4 line 5): the printed shift is E_j'B_j'/n_j' (the preempted chunk's own time);
  the text says the preempted chunks are "postponed for E_jB_j/n_jsw", the new chunk's time,
  which is also the only uniform shift that keeps the plan conflict-free.  We shift by the new
  p_j.  Known limitation, kept because it is the paper's rule: the uniform shift is not
  work-conserving.  Every planned slot >= t* of an A2 chunk moves by p_j even when that chunk
  was planned to start later than t* (a gap in the worker's plan): a plan [40, 45) for an A2
  chunk becomes [45, 50) after a new chunk takes [30, 35), so the worker idles in [35, 45)
  although [40, 45) stayed free, and the chunk, pinned to this worker (no migration), finishes
  5 slots later than it could (issue 23 reports it on paper-sim seed 9503: two workers idle
  at slot 36 while a pinned chunk waits).  Option ``shift="compact"`` (issue 23; not the
  paper's; default ``uniform``): after the paper's update, every planned slot >= now of the worker is laid again, in the
  order of the updated plan, on the earliest free slot >= max(now, the chunk's data arrival)
  (:func:`compact_plan`).  No slot moves later than under the uniform shift (slot o + p is
  always still free when the slot planned at o is laid), and the worker's plan is
  work-conserving from now on: it idles in slot t only when no chunk pinned to it with data
  by t has work left after t.  DECISION (where the paper is silent): the order of the
  updated plan is kept (HAPRF as the paper's plan encodes it), the dual bookkeeping (alpha,
  beta) stays the paper's, and a chunk may thereby start before the dividing point t*.
* FIX 3 (Alg. 2 lines 17-19 with Alg. 3 lines 2-7): after the first chunk d1 goes to an edge
  worker, the text says the cloud entry is recalculated "by resetting zeta_j = 0", but the
  printed lines 17-19 call CALCULATEQ(j, d, s_c, w_c) with d = d1, and Alg. 3 line 3 then sets
  zeta_j = 1 again: the printed recalculation reproduces the old zeta_j = 1 entry (the cloud
  time of a job whose workers and PS are all in the cloud), which is wrong for a job that
  already has a chunk on the edge ((2h): zeta_j = 0).  We follow the text: right after d1 is
  placed on the edge, the cloud entry is recomputed with zeta_j = 0 (p_j^c of a split job)
  and used for every later chunk's argmin.
* FIX 4 (whole slots): p_j = ceil(E_j B_j / ((1 + eps) n_j)) slots (see :mod:`.fields`).
* Storage extension ((7)/(8), when the workload has it): a worker is a candidate only while its
  server has room for the chunk (the online rule of Sec. VI); space is released when a chunk
  completes.  A_online-E falls back to the cloud when no edge server has room.
* Eq. (5) breaks ties with >= (an equal-rate chunk is not preempted); the Lemma 2 proof uses >;
  we keep the printed >=: FIFO among equal rates, no preemption between chunks of one job.

A_ps (Alg. 5), with what it leaves out filled in: a job that trained at t - 1 keeps its PS; a job
starting (or resuming) at t gets the cloud PS if zeta_j = 1 (an edge PS would make zeta_j = 0 by
(2h)), else a PS drawn uniformly (seeded) among the *free* edge PSs of its type ((4d)), else the
cloud PS.  All training jobs are served, not only the arriving ones (J_a in Alg. 5 would leave
preempted-and-resumed jobs without a PS).  The PS choice does not change the objective.

``a_online_e`` (the paper's A_online-E baseline) is the same algorithm without the cloud entry.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

import numpy as np

from mlopt.schedule import Schedule
from mlopt.workload import Workload

from mlopt.families.edgecloud.fields import EdgeCloud, JobView
from mlopt.families.edgecloud.table import CLOUD_WORKER, chunk_rows, make_schedule, ps_rows


class Chunk:
    """One chunk in a worker's plan: its rate and its planned slots as [a, b) intervals."""

    __slots__ = ("job", "chunk", "gamma", "inv_d", "iv", "u", "release")

    def __init__(self, job: int, chunk: int, gamma: float, inv_d: float, iv: list,
                 u: float = 0.0, release: int = 0):
        self.job, self.chunk, self.gamma, self.inv_d, self.iv = job, chunk, gamma, inv_d, iv
        self.u = u  # storage the chunk holds on its server until it completes (7)
        self.release = release  # r_j + Delta_js: first slot its data is on the worker

    @property
    def last(self) -> int:
        """Last slot of the chunk's final interval."""
        return self.iv[-1][1] - 1

    def remaining(self, t0: int) -> int:
        """p_hat(t0): planned slots >= t0."""
        return sum(b - max(a, t0) for a, b in self.iv if b > t0)

    def shift(self, t_star: int, p: int) -> None:
        """Postpone every planned slot >= t_star by p (splitting a run that straddles t_star)."""
        out = []
        for a, b in self.iv:
            if b <= t_star:
                out.append([a, b])
            elif a >= t_star:
                out.append([a + p, b + p])
            else:
                out.append([a, t_star])
                out.append([t_star + p, b + p])
        self.iv = out


def compact_plan(plan: list[Chunk], now: int) -> None:
    """The work-conserving re-lay of one worker's plan (``shift="compact"``): slots < now
    stay; the planned runs >= now are taken in slot order and each of their slots goes to the
    earliest free slot >= max(now, its chunk's release).  A slot the plan had at o lands at
    <= o (o itself is free when it is laid: everything laid before it came from earlier
    slots and landed no later than those), so nothing finishes later than in ``plan``."""
    runs = sorted((max(a, now), b, c) for c in plan for a, b in c.iv if b > now)
    kept = {id(c): [[a, min(b, now)] for a, b in c.iv if a < now] for c in plan}
    free = [[now, math.inf]]  # disjoint free intervals [a, b), ascending
    for a, b, c in runs:
        need, lo, i = b - a, max(now, c.release), 0
        while need:
            fa, fb = free[i]
            start = max(fa, lo)
            if start >= fb:
                i += 1
                continue
            take = min(need, fb - start)
            kept[id(c)].append([start, start + take])
            need -= take
            rest = ([[fa, start]] if fa < start else []) + (
                [[start + take, fb]] if start + take < fb else [])
            free[i:i + 1] = rest
            i += len(rest) - (1 if start + take < fb else 0)
    for c in plan:
        merged: list = []
        for a, b in sorted(kept[id(c)]):
            if merged and merged[-1][1] == a:
                merged[-1][1] = b
            else:
                merged.append([a, b])
        c.iv = merged


#: Alg. 4's postponement of the A2 chunks: the paper's uniform shift, or the work-conserving
#: re-lay after it (module docstring, FIX 2)
SHIFTS = ("uniform", "compact")


@dataclass
class Entry:
    q: float
    t_star: int
    cloud: bool
    worker: int  # index into EdgeCloud.workers (-1 for the cloud)


@dataclass
class OnlineRun:
    """Everything A_online decided, for the checker (schedule) and the theory checks."""

    schedule: Schedule
    speed: float
    alpha: dict = field(default_factory=dict)  # (job, chunk) -> Q used to dispatch it
    placed: dict = field(default_factory=dict)  # (job, chunk) -> worker index or -1 (cloud)
    beta_at_dispatch: list = field(default_factory=list)  # (worker, r_j, end, 1/D_j), Alg. 4 l.8
    zeta: dict = field(default_factory=dict)  # job id -> 0/1
    decision_s: list = field(default_factory=list)  # per job: A_greedy wall time


class Greedy:
    """A_greedy's state: one plan per edge worker."""

    def __init__(self, ec: EdgeCloud, use_cloud: bool = True, shift: str = "uniform"):
        self.ec = ec
        self.use_cloud = use_cloud
        self.compact = {"uniform": False, "compact": True}[shift]
        self.plans: list[list[Chunk]] = [[] for _ in ec.workers]
        self.done: list[list[Chunk]] = [[] for _ in ec.workers]
        self._on_server: dict[str, list[int]] = {}
        for w in ec.workers:
            self._on_server.setdefault(w.server, []).append(w.index)

    def prune(self, now: int) -> None:
        """Chunks finished before ``now`` can never matter again (t0 >= now)."""
        for w, plan in enumerate(self.plans):
            if plan and any(c.last < now for c in plan):
                self.done[w] += [c for c in plan if c.last < now]
                self.plans[w] = [c for c in plan if c.last >= now]

    def calculate_q(self, jv: JobView, w: int) -> Entry:
        """Return the cost q and start slot of adding job jv to edge worker w's plan."""
        worker = self.ec.workers[w]
        delta = jv.delay[worker.server]
        t0 = jv.arrival + delta
        p = jv.p_edge
        gamma = 1.0 / (jv.chunks * p)
        wait = 0
        hurt = 0.0
        t_star = t0
        for c in self.plans[w]:
            if c.last < t0:
                continue
            if c.gamma >= gamma:  # A1: keeps its place ahead of d
                wait += c.remaining(t0)
                t_star = max(t_star, c.last + 1)
            else:  # A2: postponed by p
                hurt += c.inv_d
        q = delta / jv.chunks + wait / jv.chunks + p / jv.chunks + p * hurt
        return Entry(q, t_star, False, w)

    def cloud_entry(self, jv: JobView, zeta: int) -> Entry:
        """Return the cost entry of running job jv in the cloud (p_cloud when zeta, else p_edge)."""
        delta = jv.delay[self.ec.cloud]
        p = jv.p_cloud if zeta else jv.p_edge
        return Entry((delta + p) / jv.chunks, jv.arrival + delta, True, -1)

    def update(self, jv: JobView, d: int, e: Entry) -> int:
        """UPDATEVARIABLES: train d in [t*, t* + p); postpone slots >= t* of A2 chunks by p."""
        p = jv.p_edge
        gamma = 1.0 / (jv.chunks * p)
        for c in self.plans[e.worker]:
            if c.last >= e.t_star:  # only A2 chunks have slots >= t* (A1 ends before t*)
                assert c.gamma < gamma, "an A1 chunk was planned after the dividing point"
                c.shift(e.t_star, p)
        release = jv.arrival + jv.delay[self.ec.workers[e.worker].server]
        self.plans[e.worker].append(Chunk(jv.index, d, gamma, 1.0 / jv.chunks,
                                          [[e.t_star, e.t_star + p]], jv.chunk_gb, release))
        if self.compact:
            compact_plan(self.plans[e.worker], jv.arrival)
        return e.t_star + p

    def fits(self, jv: JobView, w: int) -> bool:
        """Storage extension: the worker's server keeps room for one more chunk of j.  Stored
        at r_j = now: every chunk on the server not finished before now; postponing chunks
        never raises the peak, which is now (later stores are checked when they come)."""
        server = self.ec.workers[w].server
        cap = self.ec.storage.get(server)
        if cap is None:
            return True
        used = sum(c.u for w2 in self._on_server[server] for c in self.plans[w2]
                   if c.last >= jv.arrival)
        return used + jv.chunk_gb <= cap * (1 + 1e-9) + 1e-9

    def dispatch(self, jv: JobView, run: OnlineRun, cloud_rows: list) -> None:
        """Alg. 2 for one job (with FIX 1 and FIX 3)."""
        entries = {w.index: self.calculate_q(jv, w.index) for w in self.ec.eligible(jv)}
        cloud = self.cloud_entry(jv, 1) if self.use_cloud else None
        zeta = 0
        for d in range(jv.chunks):
            cands = [e for e in entries.values() if self.fits(jv, e.worker)]
            if cloud is None and not cands:  # A_online-E: no edge storage left -> the cloud
                cloud = self.cloud_entry(jv, int(d == 0))
            cands += [cloud] if cloud is not None else []
            best = min(cands, key=lambda e: (e.q, e.t_star, e.cloud, e.worker))
            if best.cloud:
                zeta = int(d == 0)
                p = jv.p_cloud if zeta else jv.p_edge
                for dd in range(d, jv.chunks):
                    run.alpha[(jv.id, dd)] = best.q
                    run.placed[(jv.id, dd)] = -1
                    cloud_rows.append((jv, dd, best.t_star, p))
                break
            run.alpha[(jv.id, d)] = best.q
            run.placed[(jv.id, d)] = best.worker
            end = self.update(jv, d, best)
            run.beta_at_dispatch.append((best.worker, jv.arrival, end, 1.0 / jv.chunks))
            if d == 0 and cloud is not None:
                cloud = self.cloud_entry(jv, 0)  # FIX 3: zeta_j = 0 from now on
            entries[best.worker] = self.calculate_q(jv, best.worker)  # FIX 1: after insertion
        run.zeta[jv.id] = zeta


def assign_ps(ec: EdgeCloud, slots_of: dict, zeta: dict, rng: np.random.Generator) -> list:
    """A_ps (Alg. 5, filled in as the module docstring says); returns PS rows."""
    free_types = {}
    for s, d in ec.ps_slots.items():
        for typ, cnt in d.items():
            free_types.setdefault(typ, []).extend((s, f"{typ}#{k}") for k in range(cnt))
    by_slot: dict[int, list[int]] = {}
    for j, slots in slots_of.items():
        for t in slots:
            by_slot.setdefault(t, []).append(j)
    held: dict[int, tuple] = {}  # job -> (server, ps) held in the previous slot
    rows = []
    for t in sorted(by_slot):
        running = sorted(by_slot[t])
        keep = {j: held[j] for j in running if j in held}
        busy = {v for v in keep.values() if v[0] != ec.cloud}
        now = {}
        for j in running:
            jv = ec.jobs[j]
            if j in keep:
                now[j] = keep[j]
                continue
            choice = (ec.cloud, CLOUD_WORKER)
            if not zeta[jv.id]:
                free = [v for v in free_types.get(jv.ps_type, []) if v not in busy]
                if free:
                    choice = free[int(rng.integers(len(free)))]
                    busy.add(choice)
            now[j] = choice
        for j, (s, p) in now.items():
            rows += ps_rows(ec.jobs[j].id, s, p, [t])
        held = now
    return rows


def a_online(workload: Workload, *, seed: int = 0, eps: float = 0.0,
             use_cloud: bool = True, shift: str = "uniform") -> OnlineRun:
    """Run A_online (speed 1 + eps); return the schedule and the algorithm's quantities."""
    ec = EdgeCloud(workload, speed=1.0 + eps)
    g = Greedy(ec, use_cloud, shift)
    run = OnlineRun(schedule=None, speed=1.0 + eps)  # type: ignore[arg-type]
    cloud_rows: list = []
    order = sorted(ec.jobs, key=lambda jv: (jv.arrival, jv.index))
    last_now = None
    for jv in order:  # Alg. 1: slot by slot, arriving jobs in ascending order
        if jv.arrival != last_now:
            g.prune(jv.arrival)
            last_now = jv.arrival
        t0 = time.perf_counter()
        g.dispatch(jv, run, cloud_rows)
        run.decision_s.append(time.perf_counter() - t0)
    rows = []
    slots_of: dict[int, set] = {}
    for w, chunks in enumerate(g.plans):
        worker = ec.workers[w]
        for c in g.done[w] + chunks:
            slots = [t for a, b in c.iv for t in range(a, b)]
            rows += chunk_rows(ec.jobs[c.job].id, c.chunk, worker.server, worker.name, slots)
            slots_of.setdefault(c.job, set()).update(slots)
    for jv, d, start, p in cloud_rows:
        rows += chunk_rows(jv.id, d, ec.cloud, CLOUD_WORKER, range(start, start + p))
        slots_of.setdefault(jv.index, set()).update(range(start, start + p))
    rows += assign_ps(ec, slots_of, run.zeta, np.random.default_rng(seed))
    meta = {"producer": "a_online" if use_cloud else "a_online_e", "eps": eps,
            "speed": 1.0 + eps, "seed": seed, "shift": shift}
    run.schedule = make_schedule([jv.id for jv in ec.jobs], rows, meta)
    return run


def check_options(options: dict) -> dict:
    """The problem a run with ``options`` solves, as the checker's arguments: A_online and
    A_online-E at ``eps`` are checked at speed 1 + eps (``Algorithm.check_options``)."""
    return {"speed": 1.0 + options.get("eps", 0.0)}


def run_a_online(workload: Workload, *, seed: int = 0, eps: float = 0.0,
                 shift: str = "uniform") -> Schedule:
    """The registered algorithm ``a_online``: schedule only (``meta['speed'] = 1 + eps`` is
    information; the checker takes the speed from its caller)."""
    return a_online(workload, seed=seed, eps=eps, shift=shift).schedule


def run_a_online_e(workload: Workload, *, seed: int = 0, eps: float = 0.0,
                   shift: str = "uniform") -> Schedule:
    """A_online-E (Sec. V-A baseline): A_online restricted to edge servers (no cloud entry)."""
    return a_online(workload, seed=seed, eps=eps, use_cloud=False, shift=shift).schedule

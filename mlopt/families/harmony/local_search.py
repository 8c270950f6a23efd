"""``local_search``: an offline improvement heuristic for Harmony (seed 002) on checked schedules.

Starts from the schedule of another family algorithm (``start``, e.g. ``harmony``, the DRL
policy) or from its own (``insertion``, the default) and hill-climbs on the sum of JCTs under
the known speed model: for one job at a time it tries

* every start interval from its arrival up to one after its current start (a job that waits
  may start once a co-runner has gone; one that starts later may spare a co-runner),
  keeping its placement, and
* every *compact* placement (workers first, then PSs, packed onto as few servers as fit an
  empty server, beginning at each server in turn) at each of those starts,

and keeps the first change that lowers the total (first improvement), until a full pass over
the jobs improves nothing.  Then it iterates a perturbation (``perturb``): with ``kick``,
``kick`` random jobs get a random start in [arrival, start + 2] and a random placement; with
``ruin``, ``kick`` related jobs are taken out and re-inserted one by one at their best
insertion (:mod:`.ruin`).  The result is climbed again and kept only if it beats the best so
far (iterated local search), until ``rounds`` rounds in a row improve nothing or the total
reaches the standalone bound's (every job alone at its fastest: optimal).  With ``accept`` >
0 the next perturbation starts from the last result within that fraction of the best total
(threshold acceptance: it may leave a basin uphill); the best schedule is returned.
``time_limit`` seconds (after the start's run) cap the whole search: a run it stops depends on
the machine's speed, one that ends by ``rounds`` is deterministic (same seed, same schedule).  Moves are evaluated by a
vectorized replay of the intervals with the speed model (:meth:`SpeedModel.speeds`, the
simulator's), rejecting any move that overfills a server in some interval.  The replay jumps
from event to event (a start or a completion) and resumes a one-job move from the last event
before that job's earlier start (:class:`Replay`): the same totals as stepping every interval
from the first, at a few speed-model calls per move instead of one per interval.  The result is
checked by the family's checker (:mod:`.checker`) and returned only when its checked objective
is not worse than the start's (else the start is returned): never worse than its start.

``start="insertion"`` is a start of its own (:func:`insertion`): jobs in arrival order, each
inserted where it least raises the replayed total of those inserted before (its time counts in
``time_limit``).

DECISIONS (the paper has no offline search; mlopt's): a replay's capacity test is stricter than
the checker's (1e-7 instead of 1e-6 over capacity) so a summation order cannot make an accepted
move infeasible; ties are not accepted (no cycling); the job order of a pass is drawn from
``seed``.  The default start is ``insertion``: at ``uniform`` (Fig. 8 scale) it is the best
start (seed 0: 3.415 from it, 4.615 from the DRL policy's schedule in ``mlopt bracket``'s
300 s; benchmarks/harmony/frontier.md).  The default perturbation is ``ruin``: at ``uniform``
60 s runs it reached 3.338 (seed 0, ruin of 4) and 3.283 (seed 1, ruin of 3) where kicks of 3
stopped at 3.415 and 3.300 (frontier.md, data/ls_perturb_60.jsonl).
Tried and left out: stopping a move's replay once a lower bound on its total (each unfinished
job at its standalone speed) reaches the best; it cut 15% of the replays at ``uniform`` and
its per-event bound cost more than they saved (evaluations per CPU second 2,581 against 3,185
without).
"""
from __future__ import annotations

import bisect
import time

import numpy as np

from mlopt.errors import InputError
from mlopt.families.harmony.bounds import standalone_bound
from mlopt.families.harmony.ruin import best_insert, ruin_recreate
from mlopt.families.harmony.state import EPS, ClusterState

CAP_TOL = 1e-7  # stricter than the checker's 1e-6 (module docstring)


class Replay:
    """Completion intervals of a placement table (start s[n], tasks x[role, n, m]).

    Two evaluations of the same replay: :meth:`full` steps interval by interval (the
    reference), :meth:`total` jumps from event to event (a start or a completion: in between the
    running set and so every speed is constant, so the speed model is evaluated once per
    event, not once per interval) and, after :meth:`set_base`, evaluates a schedule that
    differs from the base in one job only from the base's last event before that job's earlier
    start (nothing before it changes).  Both add the speeds interval by interval in the same
    order (``np.add.accumulate`` is a sequential sum); the event replay sums the speed model
    over the running jobs' rows only, which may move a speed by a rounding error, far below
    the 1e-9 of the completion test: the same completions and totals
    (tests/harmony/test_harmony_local_search.py, on random schedules).
    """

    def __init__(self, workload):
        st = ClusterState(workload)
        self.sm, self.jobs, self.cap = st.sm, st.jobs, st.cap
        self.T = int(workload.horizon)
        self.target = self.jobs.epochs - EPS  # a job is done once its progress reaches it
        self._base = None

    def _demand(self, x):
        """Per job and server, the demand of its tasks: n x m x r."""
        jobs = self.jobs
        return x[0][:, :, None] * jobs.dw[:, None, :] + x[1][:, :, None] * jobs.dp[:, None, :]

    def _running(self, run, x, dem):
        """Speeds of the jobs in ``run``, or None when they overfill a server."""
        used = np.tensordot(run.astype(float), dem, axes=(0, 0))  # m x r
        if (used > self.cap + CAP_TOL).any():
            return None
        return self.sm.speeds(self.jobs.model, self.jobs.workers, x[0] * run[:, None],
                              x[1] * run[:, None])

    def _event_speeds(self, idx, x, dem):
        """:meth:`_running` on the running jobs' rows only (idx), for the event replay: the
        same sums over fewer rows, so equal up to the last bits, far below the checker's and
        the replay's tolerances (a completion test is met 1e-9 early)."""
        if (dem[idx].sum(axis=0) > self.cap + CAP_TOL).any():
            return None
        jobs = self.jobs
        return self.sm.speeds(jobs.model[idx], jobs.workers[idx], x[0][idx], x[1][idx])

    def full(self, s: np.ndarray, x: np.ndarray) -> float:
        """Sum of JCTs of the placed jobs (start <= T; a start past T marks a job not placed
        yet), or inf when a server is overfilled or a placed job does not finish by T: the
        interval-by-interval replay."""
        placed = s <= self.T
        dem = self._demand(x)
        progress = np.zeros(len(s))
        done = np.zeros(len(s), int)
        t = int(s[placed].min()) if placed.any() else self.T + 1
        while t <= self.T and (placed & (done == 0)).any():
            run = (s <= t) & (done == 0)
            if run.any():
                sp = self._running(run, x, dem)
                if sp is None:
                    return float("inf")
                progress += np.where(run, sp, 0.0)
                fin = run & (progress >= self.target)
                done[fin] = t
            t += 1
        return self._finish(s, placed, done)

    def _finish(self, s, placed, done) -> float:
        if (placed & (done == 0)).any():
            return float("inf")
        self.done = done
        return float((done - self.jobs.arrival + 1)[placed].sum())

    def set_base(self, s: np.ndarray, x: np.ndarray) -> float:
        """Replay (s, x) keeping its state at every event, for :meth:`total` of its one-job
        changes; returns its total."""
        self._base = None
        events = []
        dem = self._demand(x)
        val = self._events(s, x, dem, None, events)
        self._base = (s.copy(), x.copy(), dem, events)
        return val

    def total(self, s: np.ndarray, x: np.ndarray, n: int | None = None) -> float:
        """:meth:`full`'s value by events; with ``n``, (s, x) must equal the last
        :meth:`set_base` but in job n, and the replay resumes where that job first matters."""
        if n is None or self._base is None:
            return self._events(s, x, self._demand(x), None, None)
        bs, bx, dem, events = self._base
        other = (bs != s) | (bx != x).any(axis=(0, 2))  # a misuse would give wrong totals
        other[n] = False
        if other.any():
            raise ValueError(f"jobs {np.flatnonzero(other).tolist()} differ from the base too")
        dem = dem.copy()  # the base's demands but job n's
        dem[n] = x[0, n][:, None] * self.jobs.dw[n] + x[1, n][:, None] * self.jobs.dp[n]
        t_n = min(int(bs[n]), int(s[n]))
        # the last event at or before t_n: before t_n both schedules run the same jobs
        i = bisect.bisect_right([e[0] for e in events], t_n) - 1
        return self._events(s, x, dem, events[i] if i >= 0 else None, None)

    def _events(self, s, x, dem, resume, record) -> float:
        placed = s <= self.T
        if resume is None:
            progress = np.zeros(len(s))
            done = np.zeros(len(s), int)
            t = int(s[placed].min()) if placed.any() else self.T + 1
        else:
            t, progress, done = resume[0], resume[1].copy(), resume[2].copy()
        starts = np.unique(s[placed])
        while t <= self.T and (placed & (done == 0)).any():
            run = (s <= t) & (done == 0)
            later = starts[starts > t]
            nxt = int(later[0]) if len(later) else self.T + 1
            if not run.any():
                t = nxt
                continue
            if record is not None:
                record.append((t, progress.copy(), done.copy()))
            idx = np.flatnonzero(run)
            v = self._event_speeds(idx, x, dem)
            if v is None:
                return float("inf")
            p, goal = progress[idx], self.target[idx]
            # intervals until the running set changes: the next start, or the first completion
            # (estimated by division, then found exactly by the sequential sums below)
            est = int(np.ceil(((goal - p) / v).min()))
            length = max(1, min(nxt - t, self.T + 1 - t, est + 1))
            acc = np.empty((length + 1, len(idx)))
            acc[0], acc[1:] = p, v
            acc = np.add.accumulate(acc, axis=0, out=acc)[1:]
            hit = (acc >= goal).any(axis=1)
            if hit.any():
                k = int(hit.argmax())
                progress[idx] = acc[k]
                done[idx[acc[k] >= goal]] = t + k
                t += k + 1
            else:
                progress[idx] = acc[-1]
                t += length
        return self._finish(s, placed, done)

    def fitted(self, s, x, n, t) -> list[np.ndarray]:
        """Job n's tasks packed, at start t, into the room the other jobs running in t leave
        (their completions from the last replay), servers taken (a) emptiest first and (b)
        least interfering with n first: 2 x m count arrays."""
        jobs, sm = self.jobs, self.sm
        run = (s <= t) & (self.done >= t)
        run[n] = False
        dem = x[0][run].T @ jobs.dw[run] + x[1][run].T @ jobs.dp[run]  # m x r
        free = self.cap - dem
        tasks = (x[0][run] + sm.ps_weight * x[1][run])  # k x m
        felt = sm.alpha[jobs.model[n], jobs.model[run]] @ tasks if run.any() \
            else np.zeros(len(self.cap))
        out = []
        for order in (np.lexsort((-free[:, 0], -free.sum(axis=1) / self.cap.sum(axis=1))),
                      np.lexsort((-free[:, 0], felt))):
            place, room = np.zeros((2, len(self.cap)), int), free.copy()
            ok = True
            for role, count, d in ((0, jobs.workers[n], jobs.dw[n]), (1, jobs.ps[n], jobs.dp[n])):
                for _ in range(int(count)):
                    hit = next((m for m in order if (room[m] >= d - EPS).all()), None)
                    if hit is None:
                        ok = False
                        break
                    place[role, hit] += 1
                    room[hit] -= d
            if ok:
                out.append(place)
        return out


def compact_placements(jobs, cap: np.ndarray, n: int) -> list[np.ndarray]:
    """Job n's tasks packed onto consecutive servers from each server in turn (workers first,
    then PSs, as many as an empty server holds), as 2 x m count arrays (distinct ones)."""
    m = len(cap)
    out, seen = [], set()
    for first in range(m):
        x = np.zeros((2, m), int)
        free = cap.copy()
        ok = True
        for role, count, d in ((0, jobs.workers[n], jobs.dw[n]), (1, jobs.ps[n], jobs.dp[n])):
            for _ in range(int(count)):
                for k in range(m):
                    srv = (first + k) % m
                    if (free[srv] >= d - EPS).all():
                        x[role, srv] += 1
                        free[srv] -= d
                        break
                else:
                    ok = False
        key = x.tobytes()
        if ok and key not in seen:
            seen.add(key)
            out.append(x)
    return out


def _table(workload, schedule):
    """(s, x) of a schedule: start interval and tasks per role/job/server."""
    ids = {j.id: i for i, j in enumerate(workload.jobs)}
    sids = {s.id: i for i, s in enumerate(workload.servers)}
    s = np.zeros(len(ids), int)
    x = np.zeros((2, len(ids), len(sids)), int)
    for job, slot, server, role, count in schedule.allocations[
            ["job", "slot", "server", "role", "count"]].itertuples(index=False):
        s[ids[job]] = int(slot)
        x[0 if role == "worker" else 1, ids[job], sids[server]] += int(count)
    return s, x


def _schedule(workload, s, x, meta, producer: str = "local_search"):
    """The schedule of starts ``s`` and worker/PS counts ``x`` (role, job, server)."""
    from mlopt.schedule import Schedule

    rows = []
    sids = [sv.id for sv in workload.servers]
    for n, job in enumerate(workload.jobs):
        for role, name in ((0, "worker"), (1, "ps")):
            for m in np.flatnonzero(x[role, n]):
                rows.append((job.id, int(s[n]), sids[m], name, int(x[role, n, m])))
    return Schedule.from_rows([j.id for j in workload.jobs], rows,
                              dict(meta, producer=producer))


def _climb(rp, s, x, best, cands, rng, deadline):
    """First-improvement passes over the jobs until none improves or the deadline: (best,
    moves, passes); s and x are changed in place."""
    moves = passes = 0
    improved = True
    while improved and time.perf_counter() < deadline:
        improved = False
        passes += 1
        for n in rng.permutation(len(s)):
            if time.perf_counter() >= deadline:
                break
            own = x[:, n].copy()
            s0 = s[n]
            found = False
            rp.set_base(s, x)  # completions of the current schedule, for fitted()
            for t in range(int(rp.jobs.arrival[n]), min(int(s0) + 2, rp.T + 1)):
                for place in [own] + rp.fitted(s, x, n, t) + cands[n]:
                    if t == s0 and place is own:
                        continue
                    s[n] = t
                    x[:, n] = place
                    val = rp.total(s, x, n)
                    if val < best - 1e-9:
                        best, found = val, True
                        break
                if found:
                    break
            if found:
                moves += 1
                improved = True
            else:
                s[n] = s0
                x[:, n] = own
    return best, moves, passes


def _kick(rp, s, x, cands, rng, size):
    """Move ``size`` random jobs to a random start in [arrival, start + 2] with a random
    feasible placement (the current one if none is): the perturbation of iterated local
    search."""
    for n in rng.choice(len(s), size=min(size, len(s)), replace=False):
        own, s0 = x[:, n].copy(), s[n]
        rp.set_base(s, x)
        t = int(rng.integers(rp.jobs.arrival[n], min(int(s0) + 2, rp.T) + 1))
        options = rp.fitted(s, x, n, t) + cands[n]
        for k in rng.permutation(len(options)):
            s[n], x[:, n] = t, options[k]
            if np.isfinite(rp.total(s, x, n)):
                break
        else:
            s[n], x[:, n] = s0, own


def insertion(workload, rp, cands, horizon: int = 4):
    """A start of local_search's own: jobs in arrival order, each inserted at the (start within
    ``horizon`` intervals of its arrival, placement: room-fitted or compact) that least raises
    the replayed total of the jobs inserted so far (their slowdowns included;
    :func:`~mlopt.families.harmony.ruin.best_insert`).  (s, x), or None when some job fits
    nowhere that way."""
    n_jobs, m = len(workload.jobs), len(rp.cap)
    s = np.full(n_jobs, rp.T + 1, int)
    x = np.zeros((2, n_jobs, m), int)
    for n in np.lexsort((np.arange(n_jobs), rp.jobs.arrival)):
        best = best_insert(rp, s, x, n, cands, int(rp.jobs.arrival[n]) + horizon)
        if best is None:
            return None
        s[n], x[:, n] = best[1], best[2]
    return s, x


#: the perturbations of the iterated search, by name (the ``perturb`` option)
PERTURB = {"kick": _kick, "ruin": ruin_recreate}


def run_local_search(workload, *, seed: int = 0, start: str = "insertion", time_limit: float = 30.0,
                     rounds: int = 20, kick: int = 3, perturb: str = "ruin",
                     accept: float = 0.0, start_schedule=None):
    """Iterated hill climbing from ``start``'s schedule (module docstring); never worse than
    the start.  ``start_schedule``: a checked schedule to start from instead (the family's
    ``start_option``: bracket hands it its best schedule when it runs the search again)."""
    from mlopt.families import get_family

    if start == "local_search":
        raise InputError("must be another algorithm", field="start", value=start)
    if not 0.0 <= accept <= 1.0:
        raise InputError("must be in [0, 1]", field="accept", value=accept)
    if perturb not in PERTURB:
        raise InputError(f"must be one of {', '.join(PERTURB)}", field="perturb", value=perturb)
    fam = get_family("harmony")
    rp = Replay(workload)
    cands = [compact_placements(rp.jobs, rp.cap, n) for n in range(len(workload.jobs))]
    t0 = time.perf_counter()
    deadline = t0 + float(time_limit)
    made = None
    if start_schedule is None and start == "insertion" and workload.jobs:
        made = insertion(workload, rp, cands)
    if start_schedule is not None:
        base, start = start_schedule, "given"
    elif made is not None:
        base = _schedule(workload, *made, {"start": "insertion"})
    else:  # an algorithm's schedule (insertion's fallback: the DRL policy's)
        base = fam.run("harmony" if start == "insertion" else start, workload, seed=seed)
        t0 = time.perf_counter()  # the algorithm's run is not the search's time
        deadline = t0 + float(time_limit)
    base_check = fam.check(workload, base)
    if not base_check.feasible or not workload.jobs:
        return base
    s, x = _table(workload, base)
    start_total = rp.total(s, x)
    if not np.isfinite(start_total):
        return base
    rng = np.random.default_rng(seed)
    # no schedule beats every job alone at its fastest (the standalone bound's sum): stop there
    floor = float(sum(standalone_bound(workload)["per_job"]))
    best, moves, passes = _climb(rp, s, x, start_total, cands, rng, deadline)
    kicks = idle = 0
    cs, cx, cur = s, x, best  # the current schedule perturbed next (threshold acceptance)
    while idle < rounds and best > floor + 1e-9 and time.perf_counter() < deadline and kick > 0:
        ks, kx = cs.copy(), cx.copy()  # perturb, climb again, keep the better
        PERTURB[perturb](rp, ks, kx, cands, rng, kick)
        val = rp.total(ks, kx)
        kicks += 1
        idle += 1
        if not np.isfinite(val):
            continue
        val, m, p = _climb(rp, ks, kx, val, cands, rng, deadline)
        passes += p
        if val < best - 1e-9:
            s, x, best, moves, idle = ks, kx, val, moves + m, 0
            cs, cx, cur = ks, kx, val
        elif val < cur - 1e-9 or val < best * (1 + accept) - 1e-9:  # never at accept 0
            cs, cx, cur = ks, kx, val
    out = _schedule(workload, s, x, {"start": start, "perturb": perturb, "moves": moves,
                                     "passes": passes,
                                     "kicks": kicks, "replay_start": start_total,
                                     "replay_end": best})
    check = fam.check(workload, out)
    if check.feasible and check.objective <= base_check.objective:
        return out
    return base

"""``lns``: fix-and-resolve large-neighbourhood search for Harmony (seed 002) over the placement MILP.

From a checked start schedule (default: ``local_search``'s) it repeatedly frees a
neighbourhood of ``k`` jobs, keeps every other job's start interval and placement (workers /
PSs per server) fixed at the incumbent, and solves the *window MILP* of the freed jobs with
HiGHS (:func:`mlopt.warmstart.solve_warm`, one thread, ``window_time`` seconds) warm-started
from the incumbent.  A solution is read back (starts and placements only), CHECKED by the
family's checker (:mod:`.checker`), and replaces the incumbent only when its checked average
JCT is strictly lower.  The returned schedule is the best checked one, never worse than the
start (the start itself when nothing better was found).

Why not fix variables of ``placement_milp`` itself: at ``uniform`` (65 jobs, 12 servers,
T = 222) the full model has 429k columns and 24M nonzeros and took 224 s to build plus 218 s
to compile (measured, load 2-4), before any window.  The window MILP below is
``placement_milp``'s rows (:mod:`mlopt.models.harmony.placement`, same variables, same speed
pieces, same big-M's from :func:`~mlopt.models.harmony.placement.server_load_cap`) restricted
to what a window can change:

* freed job n: ``st``, ``act``, ``X``, ``Y``, ``z``, ``u``, ``Kw``, ``Kp`` as in the full model,
  over the intervals a_n .. t_max, with ``run_rows`` (``c_run_total``, ``c_run_length``);
* fixed job o (start s_o, counts X_o, Y_o constants): only ``act[o, t]`` for t in s_o .. t_max
  (``act[o, s_o] = 1``, contiguous), so its running tasks are the *exact* products
  ``X_o[m] act[o, t]`` (a constant times a binary: no linearization); its slowdown rows only on
  the servers it uses (elsewhere its ``z`` is 0 and the full model's row is void), without
  big-M;
* every job: ``D``, the speed ``s`` and the speed ``piece`` per interval, and its epochs row;
  capacity rows on every (server, interval, resource) with a variable term.

t_max = min(T, the incumbent's last completion + ``HORIZON_SLACK``) (DECISION: a window may
only end later than the incumbent by that much; it shrinks the model, and a neighbourhood is
allowed to be a restriction).  The objective is the full model's sum of JCTs (the fixed jobs'
waits are constants, their running intervals variables: a freed job that slows a fixed one
pays for it, one that leaves its servers lets it finish earlier).

VALIDITY (why a window solution can be trusted, and why nothing rests on it): every window
point is a point of ``placement_milp`` (put the fixed jobs' ``st`` / ``X`` / ``Y`` / ``z`` /
``u`` at the incumbent's values, ``Kw = X act``, the fixed jobs' rows on servers they do not
use are void by ``server_load_cap``, the intervals after t_max idle), so its schedule's checked
JCT is at most its objective by that module's exactness argument.  Edge cases: zero
allocations (a freed job's ``z[n, m] = 0`` voids its row on m exactly as in the full model; a
fixed job has no row where it has no task), late arrivals (a freed job's intervals start at
its arrival; a fixed job's at its incumbent start), a job the window cannot fit before t_max
(the model is infeasible or the solver finds nothing: the incumbent stays), unequal servers
(per-server capacities and big-M's, as in the full model), the checker's tolerance (the
checker, not the MILP, decides acceptance).  A stopped or failed sub-MILP, a solution that the
checker rejects or that is not strictly better: the incumbent stays.  Nothing here is a bound
or an "optimal" claim: ``lns`` only returns checked schedules.

Neighbourhoods (DECISION, the paper has no offline search), drawn at random:
``span``: the k jobs whose run [start, completion] lies nearest a random interval (jobs that
share time compete for servers); ``servers``: the jobs with a task on two random servers, the k
nearest a random interval among them (jobs that share servers interfere); ``related``: ruin's
relatedness, a random job and the jobs whose runs overlap it the longest; ``waiting``: a job
drawn by its wait and the jobs holding room during that wait or sharing its servers in its
run (the incumbents at ``uniform`` wait rather than share).  ``lns_search`` draws from all of
them or from a named subset.  ``k`` adapts (the
OASiS LNS's rule): +1 after a window proved optimal within a quarter of ``window_time``, -1
(down to ``MIN_WINDOW``) after one stopped by its limit without a gain.  Seeded: the same seed
gives the same windows; runs the deadline cuts differ with the machine's speed.
"""
from __future__ import annotations

import time

import numpy as np
import pyomo.environ as pyo
from pyomo.common.collections import ComponentMap

from mlopt.errors import InputError
from mlopt.families.harmony.local_search import Replay, _schedule, _table
from mlopt.families.harmony.ruin import related
from mlopt.families.harmony.speed import RESOURCES, model_of
from mlopt.models.harmony.placement import min_run, server_load_cap
from mlopt.schedule import Schedule

PRODUCER = "mlopt.families.harmony.lns"
#: a window may end this many intervals after the incumbent's last completion (DECISION)
HORIZON_SLACK = 4
#: smallest window the adaptation shrinks to
MIN_WINDOW = 2
#: share of the budget the default start (local_search) may take
START_SHARE = 0.2
#: a checked gain below this is not an improvement
GAIN_TOL = 1e-9


class WindowLNS:
    """One workload's constants for the window MILPs (speed model, big-M's)."""

    def __init__(self, workload):
        self.w = workload
        self.sm = sm = model_of(workload)
        self.jobs = jobs = workload.jobs
        self.servers = workload.servers
        self.rp = Replay(workload)
        self.L = [sm.index(j.extra["model"]) for j in jobs]
        self.W = [int(j.extra["workers"]) for j in jobs]
        self.P = [int(j.extra["ps"]) for j in jobs]
        self.a = [int(j.arrival) for j in jobs]
        self.e = [float(j.epochs) for j in jobs]
        self.b = [float(sm.standalone(self.L[n], self.W[n])) for n in range(len(jobs))]
        self.kap = [float(sm.comm_penalty[self.L[n]]) for n in range(len(jobs))]
        self.al = np.asarray(sm.alpha, dtype=float)[np.ix_(self.L, self.L)]
        self.dw = [[float(j.worker_demand[r]) for r in RESOURCES] for j in jobs]
        self.dp = [[float(j.ps_demand[r]) for r in RESOURCES] for j in jobs]
        self.cap = [[float(s.capacity[r]) for r in RESOURCES] for s in self.servers]
        self.hosts = [s.role == "any" for s in self.servers]
        # the full model's slowdown big-M per (job, server) and speed-piece big-M per job
        self.bigs = [[server_load_cap(workload, n, srv) for srv in self.servers]
                     for n in range(len(jobs))]
        self.dmax = [max(row + [0.0]) for row in self.bigs]

    # -- one window ---------------------------------------------------------------------------
    def build(self, s, x, done, free) -> pyo.ConcreteModel:
        """The window MILP (module docstring) around the incumbent (s, x) with completions
        ``done``, the jobs ``free`` (indices) freed."""
        sm, om = self.sm, float(self.sm.ps_weight)
        J, M = len(self.jobs), len(self.servers)
        free = sorted(int(n) for n in free)
        isfree = np.zeros(J, bool)
        isfree[free] = True
        tmax = int(min(self.rp.T, int(done.max()) + HORIZON_SLACK))
        first = [self.a[n] if isfree[n] else int(s[n]) for n in range(J)]
        times = {n: range(first[n], tmax + 1) for n in range(J)}
        JT = [(n, t) for n in range(J) for t in times[n]]
        FT = [(n, t) for n in free for t in times[n]]
        FMT = [(n, m, t) for n in free for m in range(M) for t in times[n]]

        mdl = pyo.ConcreteModel(name="harmony_lns_window")
        mdl.st = pyo.Var(FT, domain=pyo.Binary)
        mdl.X = pyo.Var(free, range(M), domain=pyo.NonNegativeIntegers,
                        bounds=lambda _, n, m: (0, self.W[n] if self.hosts[m] else 0))
        mdl.Y = pyo.Var(free, range(M), domain=pyo.NonNegativeIntegers,
                        bounds=lambda _, n, m: (0, self.P[n] if self.hosts[m] else 0))
        mdl.z = pyo.Var(free, range(M), domain=pyo.Binary)
        mdl.u = pyo.Var(free, domain=pyo.Binary)
        mdl.act = pyo.Var(JT, domain=pyo.Binary)
        mdl.Kw = pyo.Var(FMT, domain=pyo.NonNegativeReals)
        mdl.Kp = pyo.Var(FMT, domain=pyo.NonNegativeReals)
        mdl.D = pyo.Var(JT, domain=pyo.NonNegativeReals)
        mdl.sp = pyo.Var(JT, domain=pyo.NonNegativeReals)
        mdl.piece = pyo.Var(JT, range(3), domain=pyo.Binary)
        c = mdl.rows = pyo.ConstraintList()

        for n in free:  # placement_milp's rows of a free job
            c.add(sum(mdl.st[n, t] for t in times[n]) == 1)
            c.add(sum(mdl.X[n, m] for m in range(M)) == self.W[n])
            c.add(sum(mdl.Y[n, m] for m in range(M)) == self.P[n])
            for m in range(M):
                c.add(mdl.X[n, m] + mdl.Y[n, m] <= (self.W[n] + self.P[n]) * mdl.z[n, m])
            c.add(sum(mdl.z[n, m] for m in range(M)) <= 1 + (M - 1) * mdl.u[n])
            for t in times[n]:
                prev = mdl.act[n, t - 1] if t > first[n] else 0
                c.add(mdl.act[n, t] <= prev + mdl.st[n, t])
                c.add(mdl.act[n, t] >= mdl.st[n, t])
                for m in range(M):
                    c.add(mdl.Kw[n, m, t] >= mdl.X[n, m] - self.W[n] * (1 - mdl.act[n, t]))
                    c.add(mdl.Kp[n, m, t] >= mdl.Y[n, m] - self.P[n] * (1 - mdl.act[n, t]))
            k = min_run(self.e[n], self.b[n])  # run_rows
            c.add(sum(mdl.act[n, t] for t in times[n]) >= k)
            if k >= 2:
                for t in times[n]:
                    c.add(mdl.act[n, t] >= sum(mdl.st[n, v] for v in
                                               range(max(first[n], t - k + 1), t + 1)))
        for o in range(J):  # a fixed job runs from its start, in one block
            if isfree[o]:
                continue
            mdl.act[o, first[o]].fix(1)
            for t in times[o]:
                if t > first[o]:
                    c.add(mdl.act[o, t] <= mdl.act[o, t - 1])

        def load(o, m, t, r=None):
            """Job o's running tasks on m in t (weighted by resource r's demand, or by the
            slowdown weights 1 / omega): a linear expression, or 0."""
            if t < first[o]:
                return 0
            wgt_w, wgt_p = (1.0, om) if r is None else (self.dw[o][r], self.dp[o][r])
            if isfree[o]:
                return wgt_w * mdl.Kw[o, m, t] + wgt_p * mdl.Kp[o, m, t]
            v = wgt_w * x[0, o, m] + wgt_p * x[1, o, m]
            return float(v) * mdl.act[o, t] if v else 0

        users = [[o for o in range(J) if isfree[o] or x[:, o, m].any()] for m in range(M)]
        for m in range(M):
            for t in range(min(first), tmax + 1):
                on = [o for o in users[m] if first[o] <= t]
                if not on:
                    continue
                for r in range(len(RESOURCES)):
                    terms = [load(o, m, t, r) for o in on]
                    terms = [v for v in terms if not isinstance(v, (int, float))]
                    if terms:
                        c.add(sum(terms) <= self.cap[m][r])
                # slowdown rows: a free job on every server (big-M), a fixed one on its own
                for n in on:
                    others = [self.al[n, o] * load(o, m, t) for o in on if o != n]
                    others = [v for v in others if not isinstance(v, (int, float))]
                    if isfree[n]:
                        c.add(mdl.D[n, t] >= sum(others) - self.bigs[n][m] * (1 - mdl.z[n, m])
                              + self.kap[n] * mdl.u[n])
                    elif x[:, n, m].any() and others:
                        c.add(mdl.D[n, t] >= sum(others) + self.kap[n] * self._spread(x, n))
        for (n, t) in JT:  # spread penalty, speed pieces (placement_milp's)
            spread = mdl.u[n] if isfree[n] else self._spread(x, n)
            c.add(mdl.D[n, t] >= self.kap[n] * spread)
            b = self.b[n]
            c.add(mdl.sp[n, t] <= b * mdl.act[n, t])
            c.add(sum(mdl.piece[n, t, k] for k in range(3)) == 1)
            big = b * (1.0 + self.dmax[n] + self.kap[n])
            for k, rhs in enumerate((b * (1.0 - mdl.D[n, t]),
                                     b * ((1.0 - sm.knee) - sm.tail_slope * (mdl.D[n, t] - sm.knee)),
                                     b * sm.min_factor)):
                c.add(mdl.sp[n, t] <= rhs + big * (1 - mdl.piece[n, t, k]))
        for n in range(J):
            c.add(sum(mdl.sp[n, t] for t in times[n]) >= self.e[n])
        mdl.obj = pyo.Objective(expr=sum((t - self.a[n]) * mdl.st[n, t] for (n, t) in FT)
                                + sum(int(s[o]) - self.a[o] for o in range(J) if not isfree[o])
                                + sum(mdl.act[n, t] for (n, t) in JT), sense=pyo.minimize)
        mdl._window = (free, first, times)
        return mdl

    @staticmethod
    def _spread(x, n) -> int:
        return int(np.count_nonzero(x[:, n].sum(axis=0)) > 1)

    def start(self, mdl, s, x, done) -> ComponentMap:
        """The incumbent as a (partial) start: starts, placements, running intervals and the
        running-task products; HiGHS completes the slowdowns, speeds and pieces."""
        free, first, times = mdl._window
        out = ComponentMap()
        for n in free:
            for t in times[n]:
                out[mdl.st[n, t]] = float(t == s[n])
            for m in range(len(self.servers)):
                out[mdl.X[n, m]] = float(x[0, n, m])
                out[mdl.Y[n, m]] = float(x[1, n, m])
                out[mdl.z[n, m]] = float(x[:, n, m].any())
                for t in times[n]:
                    on = s[n] <= t <= done[n]
                    out[mdl.Kw[n, m, t]] = float(x[0, n, m] * on)
                    out[mdl.Kp[n, m, t]] = float(x[1, n, m] * on)
            out[mdl.u[n]] = float(self._spread(x, n))
        for n in range(len(self.jobs)):
            for t in times[n]:
                if not mdl.act[n, t].fixed:
                    out[mdl.act[n, t]] = float(s[n] <= t <= done[n])
        return out

    def read(self, mdl, s, x):
        """(s, x) with the freed jobs' starts and placements from the solved window."""
        free, _, times = mdl._window
        s2, x2 = s.copy(), x.copy()
        for n in free:
            s2[n] = next(t for t in times[n] if (mdl.st[n, t].value or 0) > 0.5)
            for m in range(len(self.servers)):
                x2[0, n, m] = int(round(mdl.X[n, m].value or 0))
                x2[1, n, m] = int(round(mdl.Y[n, m].value or 0))
        return s2, x2


# -- neighbourhoods ---------------------------------------------------------------------------
def _nearest(s, done, cand, k, rng, T):
    t = int(rng.integers(int(s.min()), int(done.max()) + 1)) if len(s) else 1
    dist = np.maximum(0, np.maximum(s[cand] - t, t - done[cand])).astype(float)
    return np.sort(cand[np.argsort(dist + rng.random(len(cand)), kind="stable")[:k]])


def _span(eng, s, x, done, k, rng):
    """The k jobs whose runs lie nearest a random interval."""
    return _nearest(s, done, np.arange(len(s)), k, rng, eng.rp.T)


def _servers(eng, s, x, done, k, rng):
    """Among the jobs with a task on two random servers, the k nearest a random interval."""
    pick = rng.choice(x.shape[2], size=min(2, x.shape[2]), replace=False)
    cand = np.flatnonzero(x[:, :, pick].sum(axis=(0, 2)) > 0)
    if len(cand) == 0:
        return _span(eng, s, x, done, k, rng)
    return _nearest(s, done, cand, k, rng, eng.rp.T)


def _related(eng, s, x, done, k, rng):
    """Ruin's relatedness (:func:`mlopt.families.harmony.ruin.related`): a random job and the
    k - 1 jobs whose runs overlap its run the longest."""
    return np.sort(related(eng.rp, s.copy(), x, rng, k))


def _waiting(eng, s, x, done, k, rng):
    """A job that waits (drawn with probability proportional to its wait s - a) and the k - 1
    jobs that hold room while it waits: the longest overlap of their runs with its wait
    [a, s - 1], plus, for jobs on a server it uses, with its run (the schedules wait where
    the bound lets jobs share: freeing the waiter with its blockers lets the MILP trade the
    wait for sharing).  ``span`` when no job waits."""
    wait = (s - np.asarray(eng.a)).astype(float)
    if not (wait > 0).any():
        return _span(eng, s, x, done, k, rng)
    n = int(rng.choice(len(s), p=wait / wait.sum()))
    a = eng.a[n]
    hold = np.maximum(0, np.minimum(done, s[n] - 1) - np.maximum(s, a) + 1)
    mine = x[:, n].sum(axis=0) > 0
    near = (x[:, :, mine].sum(axis=(0, 2)) > 0)
    ran = np.maximum(0, np.minimum(done, done[n]) - np.maximum(s, s[n]) + 1)
    score = hold + near * ran
    score[n] = -1
    order = np.lexsort((rng.random(len(s)), -score))
    return np.sort(np.concatenate(([n], order[order != n][:k - 1])))


#: the neighbourhoods by name
NEIGHBOURHOODS = {"span": _span, "servers": _servers, "related": _related,
                  "waiting": _waiting}


def lns_search(workload, schedule: Schedule, time_limit: float, *, seed: int = 0,
               window: int = 4, window_time: float = 10.0, on_improve=None,
               max_windows: int | None = None, neighbourhoods=None):
    """The search of the module docstring from a checked ``schedule``: (best checked schedule,
    log).  ``on_improve(schedule, objective)`` is called on every improvement (to save it);
    ``neighbourhoods``: the names drawn from (default: all of :data:`NEIGHBOURHOODS`)."""
    from mlopt.families import get_family
    from mlopt.warmstart import solve_warm

    names = list(NEIGHBOURHOODS) if neighbourhoods is None else list(neighbourhoods)
    bad = [v for v in names if v not in NEIGHBOURHOODS]
    if bad or not names:
        raise InputError(f"must be a non-empty list of {', '.join(NEIGHBOURHOODS)}",
                         field="neighbourhoods", value=bad[0] if bad else names)

    deadline = time.perf_counter() + float(time_limit)
    fam = get_family("harmony")
    chk = fam.check(workload, schedule)
    if not chk.feasible:
        raise InputError("the start schedule fails the Harmony checker", field="start_schedule",
                         value=schedule.meta.get("producer"))
    best, value = schedule, float(chk.objective)
    log = {"start": value, "windows": 0, "improved": 0, "optimal": 0, "trace": [],
           "steps": []}  # steps: (jobs freed, neighbourhood, status, seconds) per window
    J = len(workload.jobs)
    if J == 0:
        log["end"] = value
        return best, log
    eng = WindowLNS(workload)
    s, x = _table(workload, schedule)
    if not np.isfinite(eng.rp.total(s, x)):
        log["end"] = value
        return best, log
    done = eng.rp.done.copy()
    rng = np.random.default_rng(seed)
    k = max(1, min(int(window), J))
    t0 = time.perf_counter()
    while time.perf_counter() < deadline - 0.2:
        name = names[int(rng.integers(len(names)))]
        free = NEIGHBOURHOODS[name](eng, s, x, done, k, rng)
        mdl = eng.build(s, x, done, free)
        left = deadline - time.perf_counter()
        if left < 0.2:
            break
        res = solve_warm(mdl, eng.start(mdl, s, x, done), "highs",
                         time_limit=max(0.1, min(float(window_time), left)), threads=1)
        log["windows"] += 1
        optimal = res.status.value == "optimal"
        log["steps"].append((len(free), name, res.status.value, round(res.runtime_s, 1)))
        log["optimal"] += optimal
        gained = False
        if res.has_solution:
            s2, x2 = eng.read(mdl, s, x)
            if (s2 != s).any() or (x2 != x).any():
                cand = _schedule(workload, s2, x2, {"lns": {"windows": log["windows"]}},
                                 producer=PRODUCER)
                c2 = fam.check(workload, cand)
                if c2.feasible and c2.objective < value - GAIN_TOL:
                    best, value, s, x, gained = cand, float(c2.objective), s2, x2, True
                    eng.rp.total(s, x)
                    done = eng.rp.done.copy()
                    log["improved"] += 1
                    log["trace"].append((round(time.perf_counter() - t0, 1), round(value, 6),
                                         len(free), name))
                    if on_improve is not None:
                        on_improve(best, value)
        if optimal and len(free) >= J:
            log["all_free_optimal"] = True  # every job free and solved: nothing left
            break
        if optimal and res.runtime_s < 0.25 * window_time:
            k = min(J, k + 1)
        elif not optimal and not gained:
            k = max(min(MIN_WINDOW, J), k - 1)
        if max_windows is not None and log["windows"] >= max_windows:
            break
    log.update(end=value, window_end=k)
    return best, log


def run_lns(workload, *, seed: int = 0, start: str = "local_search", time_limit: float = 60.0,
            window: int = 4, window_time: float = 10.0, start_schedule=None) -> Schedule:
    """The search as a registered algorithm (``mlopt bracket`` sets ``time_limit`` to its
    share).  ``start``: the algorithm whose schedule is improved (``local_search`` runs with
    ``START_SHARE`` of the budget); ``start_schedule``: a checked schedule instead (the
    family's ``start_option``; one returned by lns carries the window size its run ended at,
    ``meta["lns"]["window_end"]``, and the search starts there instead of at ``window``).
    Never worse than the start."""
    from mlopt.families import get_family

    if start == "lns":
        raise InputError("must be another algorithm", field="start", value=start)
    for field, v in (("time_limit", time_limit), ("window_time", window_time)):
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not v > 0 \
                or not np.isfinite(v):
            raise InputError("must be a positive number of seconds", field=field, value=v)
    if isinstance(window, bool) or not isinstance(window, int) or window < 1:
        raise InputError("must be an integer >= 1", field="window", value=window)
    t0 = time.perf_counter()
    fam = get_family("harmony")
    if start_schedule is not None:
        first = start_schedule
        # DECISION: a start that an earlier lns run returned (a bracket's rerun) continues at
        # the window size that run adapted to, rather than ramping up from ``window`` again
        # (a schedule file's meta is free JSON: anything but an object there is no size)
        carried = first.meta.get("lns")
        carried = carried.get("window_end") if isinstance(carried, dict) else None
        if isinstance(carried, int) and not isinstance(carried, bool) and carried >= 1:
            window = carried
    elif start == "local_search":
        first = fam.run("local_search", workload, seed=seed,
                        options={"time_limit": START_SHARE * float(time_limit)})
    else:
        first = fam.run(start, workload, seed=seed)
    left = float(time_limit) - (time.perf_counter() - t0)
    if left <= 0.5:
        return first
    best, log = lns_search(workload, first, left, seed=seed, window=window,
                           window_time=window_time)
    if best is first:
        return first
    best.meta["lns"] = {k: log[k] for k in ("start", "end", "windows", "improved", "optimal",
                                            "window_end")}
    return best

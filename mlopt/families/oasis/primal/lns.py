"""Fix-and-resolve on the utility ILP: large-neighbourhood search around a checked schedule.

The utility ILP (1)-(13) (:func:`mlopt.models.oasis.build_utility_ilp`) is built and compiled
to its matrix form once.  Each step frees a *window* of jobs -- every variable (x, y, z, u) of
those jobs keeps its own bounds -- and fixes every other job's variables at the incumbent;
the sub-MIP over the freed jobs is solved by HiGHS in the capacity the fixed jobs leave
(each row's bounds minus the fixed columns' activity), warm-started from the incumbent's
values of the freed jobs, so its optimum is never below the incumbent.  A sub-MIP solution
that raises the model's objective becomes a schedule, goes through the family's checker, and
replaces the incumbent only when the checker's objective is strictly higher.  Nothing is
relaxed or approximated: every sub-MIP solution is a solution of the full ILP (the fixed part
is the incumbent's, which satisfies every row on its own columns).

Windows (DECISION, the paper has no such search): jobs that share time are the ones that
compete for capacity, so a window is the ``k`` jobs (of positive utility) whose active span
-- arrival to completion for an admitted job, arrival to T for a rejected one -- lies nearest
a random slot, ties broken at random; at least one rejected job joins when there is one
(admitting it is where most of the gain lies).  ``k`` adapts: +max(1, ``grow`` k) after a sub-MIP
solved to optimality in under a quarter of its time limit (the window could be larger), -1
(down to ``MIN_WINDOW``) after one that hit its limit without a gain.

Sixth round (issue 22): three neighbourhoods (:data:`NEIGHBOURHOODS`), each with its own size,
drawn by weights that follow their recent success: ``span`` (the window above), ``span_servers``
(twice the jobs, each free only on the servers it uses plus a random quarter of the others;
its other columns are zero in the incumbent and stay so) and ``rejected`` (repair: a rejected
job drawn by its best utility, with the jobs nearest its arrival).  Freeing any subset of
columns keeps the argument above: the fixed columns are the incumbent's, so every sub-MIP
solution is a solution of the full ILP, and the warm start keeps it never below the incumbent.

Seventh round (issue 22): the *useful tail* (option ``tail``).  A job's utility is a sigmoid
of its completion time that falls to nothing a few slots after its arrival, yet a window frees
every (server, slot) column from arrival to T: most of a sub-MIP's columns are completions and
workers worth less than ``tail`` x the job's best utility.  With ``tail`` > 0 a window frees a
job's y, z and u only up to its *useful end*: the last slot t with f_i(t - a_i) >= tail x
max f_i, pushed out to the last slot where the incumbent has any positive column of the job
(its completion, its last worker or PS).  So every column left out is zero in the incumbent and
stays zero: fixing it is fixing it at the incumbent, and the argument above holds unchanged
(any subset of columns may be freed).  Edge cases: a job of no positive utility is never in a
window; x is always free with the job; an admitted job completing past its useful end (a
filler of utility ~0) keeps its columns up to that completion, so it can still move or drop
out; ``tail = 0`` is the sixth round's search exactly (useful end T, same windows, same
columns).  Windows use the useful end too: a rejected job is active from its arrival to its
useful end (not to T), so a window near slot t holds the jobs that can still gain there.
The ``slab`` neighbourhood (opt-in) frees every job active in a few slots on those slots only;
the y, z of its jobs' other slots keep the incumbent's values (positive ones too), which is
again a fixing at the incumbent.

Time: the build takes seconds at 100 jobs / T = 100 / 100 servers (15 s quiet, more under
load); every sub-MIP is capped by ``window_time`` and by the overall deadline.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from mlopt.errors import InputError
from mlopt.schedule import Schedule
from mlopt.workload import Workload

PRODUCER = "mlopt.families.oasis.primal.lns"
#: smallest window the adaptation shrinks to
MIN_WINDOW = 2
#: a gain below this (relative to max(1, objective)) is not an improvement
GAIN_RTOL = 1e-9
#: a sub-MIP solution's integer values must be this close to integers to be read back
INT_TOL = 1e-6


@dataclass
class _Cols:
    """What every column of the compiled model stands for."""

    kind: np.ndarray  # 0 x, 1 y (worker), 2 z (PS), 3 u
    job: np.ndarray  # job index
    server: list  # server id (y, z) or None
    slot: np.ndarray  # slot (y, z, u) or 0


class UtilityLNS:
    """The compiled utility ILP of one workload and the window re-solve on it."""

    def __init__(self, workload: Workload):
        from mlopt.models.oasis import build_utility_ilp
        from mlopt.solvers._matrix import compile_linear

        t0 = time.perf_counter()
        self.workload = workload
        self.model = build_utility_ilp(workload)
        self.form = f = compile_linear(self.model)
        if f.sense != "max":  # pragma: no cover - the model is a maximization
            raise AssertionError("the utility ILP is a maximization")
        jidx = workload.job_index
        kinds = {"x": 0, "y": 1, "z": 2, "u": 3}
        n = f.n_cols
        kind = np.empty(n, dtype=np.int8)
        job = np.empty(n, dtype=np.int64)
        slot = np.zeros(n, dtype=np.int64)
        server: list = [None] * n
        for c, v in enumerate(f.columns):
            k = kinds[v.parent_component().local_name]
            idx = v.index()
            kind[c] = k
            if k == 0:
                job[c] = jidx[idx]
            else:
                job[c] = jidx[idx[0]]
                slot[c] = idx[-1]
                if k in (1, 2):
                    server[c] = idx[1]
        self.cols = _Cols(kind, job, server, slot)
        # servers as integers (-1 for x and u), for the server-restricted neighbourhoods
        self.server_ids = [s.id for s in workload.servers]
        sidx = {sid: n for n, sid in enumerate(self.server_ids)}
        self.col_server = np.array([-1 if sv is None else sidx[sv] for sv in server],
                                   dtype=np.int64)
        order = np.argsort(job, kind="stable")
        bounds = np.searchsorted(job[order], np.arange(len(workload.jobs) + 1))
        self.job_cols = [order[bounds[i]:bounds[i + 1]] for i in range(len(workload.jobs))]
        # column-wise copy of the CSR matrix (rows of each column), for the sub-MIPs
        rows = f.row_ids()
        o = np.argsort(f.indices, kind="stable")
        self.csc_rows, self.csc_data = rows[o], f.data[o]
        self.csc_ptr = np.searchsorted(f.indices[o], np.arange(n + 1))
        self.best_f = np.array([float(np.max(np.atleast_1d(j.utility(np.arange(
            workload.horizon - j.arrival + 1, dtype=float))))) for j in workload.jobs])
        self.arrival = np.array([j.arrival for j in workload.jobs], dtype=np.int64)
        self.set_tail(0.0)
        self.build_s = time.perf_counter() - t0

    def set_tail(self, tail: float) -> None:
        """The useful end of every job (module docstring): the last slot t with
        f_i(t - a_i) >= ``tail`` x max f_i; T for every job when ``tail`` is 0."""
        w = self.workload
        T = w.horizon
        self.tail = float(tail)
        end = np.full(len(w.jobs), T, dtype=np.int64)
        if self.tail > 0:
            for i, j in enumerate(w.jobs):
                f = np.atleast_1d(j.utility(np.arange(T - j.arrival + 1, dtype=float)))
                ok = np.flatnonzero(f >= self.tail * self.best_f[i])
                # no positive utility: never in a window (best_f > 0 filters it), so any end
                end[i] = j.arrival + int(ok[-1]) if self.best_f[i] > 0 and len(ok) else T
        self.useful_end = end

    # -- schedule <-> column vector ---------------------------------------------------------
    def encode(self, schedule: Schedule) -> np.ndarray:
        """The column vector of a schedule (the inverse of :meth:`decode`); ValueError when the
        schedule uses a (job, server, slot) or completion slot the model has no column for
        (a checker-feasible schedule never does: the model is exact)."""
        from mlopt.models.oasis.warmstart import encode

        start = encode(self.model, self.workload, schedule)
        x = np.array([start.get(v, np.nan) for v in self.form.columns], dtype=float)
        if np.isnan(x).any() or self.form.max_violation(x) > INT_TOL:
            raise ValueError("the schedule is not a solution of the utility ILP")
        return x

    def decode(self, x: np.ndarray, meta: dict | None = None) -> Schedule:
        """The schedule of an integral column vector (ValueError when it is not integral)."""
        r = np.round(x)
        if np.max(np.abs(x - r), initial=0.0) > INT_TOL:
            raise ValueError("the solution is not integral")
        c, ids = self.cols, [j.id for j in self.workload.jobs]
        admitted = [ids[c.job[n]] for n in np.flatnonzero((c.kind == 0) & (r > 0.5))]
        rows = [(ids[c.job[n]], int(c.slot[n]), c.server[n],
                 "worker" if c.kind[n] == 1 else "ps", int(r[n]))
                for n in np.flatnonzero(((c.kind == 1) | (c.kind == 2)) & (r > 0.5))]
        return Schedule.from_rows(admitted, rows, {"producer": PRODUCER, **(meta or {})})

    # -- one window ---------------------------------------------------------------------------
    def free_columns(self, x: np.ndarray, jobs, servers=None, slots=None) -> np.ndarray:
        """The columns of ``jobs`` (indices); with ``servers`` (a boolean mask over
        :attr:`server_ids`) only their x, u and the y, z on those servers.  The mask always
        takes every server the jobs use in ``x``, so the columns left out are zero in ``x``
        and stay zero (fixing them is fixing them at the incumbent, as for every other job).
        With ``slots = (lo, hi)`` only the y, z of slots lo..hi (x and u stay free): the y, z
        of other slots keep the incumbent's values, positive or not -- still a fixing at the
        incumbent, so every sub-MIP solution is a solution of the full ILP."""
        free = np.concatenate([self.job_cols[j] for j in jobs])
        if self.tail > 0:
            free = free[self._within_useful_end(x, free)]
        if slots is not None:
            c, (lo, hi) = self.cols, slots
            k, t = c.kind[free], c.slot[free]
            free = free[(k == 0) | (k == 3) | ((lo <= t) & (t <= hi))]
        if servers is None:
            return np.sort(free)
        srv = self.col_server[free]
        used = srv[(srv >= 0) & (x[free] > 0.5)]
        mask = np.asarray(servers, dtype=bool).copy()
        mask[used] = True
        keep = (srv < 0) | mask[np.maximum(srv, 0)]
        return np.sort(free[keep])

    def _within_useful_end(self, x: np.ndarray, free: np.ndarray) -> np.ndarray:
        """Mask over ``free``: x columns, and y, z, u up to the job's useful end pushed out to
        its last positive column in ``x`` (so every column masked out is zero in ``x``)."""
        c = self.cols
        end = self.useful_end.copy()
        pos = free[(x[free] > 0.5) & (c.kind[free] != 0)]
        np.maximum.at(end, c.job[pos], c.slot[pos])
        return (c.kind[free] == 0) | (c.slot[free] <= end[c.job[free]])

    def resolve(self, x: np.ndarray, jobs, time_limit: float,
                servers=None, slots=None) -> tuple[np.ndarray | None, dict]:
        """Re-optimize ``jobs`` (indices) with every other job fixed at ``x`` (and, with
        ``servers``, their columns on the other servers too, :meth:`free_columns`).  Returns
        the improved full vector (None when the sub-MIP found nothing better) and the run's
        status, objective and time."""
        return self.resolve_columns(x, self.free_columns(x, jobs, servers, slots), time_limit)

    def resolve_columns(self, x: np.ndarray, free: np.ndarray,
                        time_limit: float) -> tuple[np.ndarray | None, dict]:
        """Re-optimize the columns ``free`` (sorted indices) with every other column fixed at
        ``x``: any sub-MIP solution is a solution of the full ILP, because each row keeps its
        bounds minus the fixed columns' activity."""
        import highspy

        from mlopt.solvers.quiet_highs import quiet_highs, run_mip_consistent

        f = self.form
        fixed = x.copy()
        fixed[free] = 0.0
        act = f.activity(fixed)  # the fixed jobs' share of every row
        starts, ends = self.csc_ptr[free], self.csc_ptr[free + 1]
        take = np.concatenate([np.arange(s, e) for s, e in zip(starts, ends)])
        col_of = np.repeat(np.arange(len(free)), ends - starts)
        rows_all = self.csc_rows[take]
        rows = np.unique(rows_all)
        local = np.searchsorted(rows, rows_all)
        lp = highspy.HighsLp()
        lp.num_col_, lp.num_row_ = len(free), len(rows)
        lp.sense_ = highspy.ObjSense.kMaximize
        lp.col_cost_ = f.c[free]
        lp.col_lower_, lp.col_upper_ = f.col_lb[free], f.col_ub[free]
        inf = highspy.kHighsInf
        lo, hi = f.row_lo[rows] - act[rows], f.row_hi[rows] - act[rows]
        lp.row_lower_ = np.where(np.isfinite(lo), lo, -inf)
        lp.row_upper_ = np.where(np.isfinite(hi), hi, inf)
        lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
        lp.a_matrix_.start_ = np.searchsorted(col_of, np.arange(len(free) + 1)).astype(np.int32)
        lp.a_matrix_.index_ = local.astype(np.int32)
        lp.a_matrix_.value_ = self.csc_data[take]
        lp.integrality_ = [highspy.HighsVarType.kInteger if b else
                           highspy.HighsVarType.kContinuous for b in f.integer[free]]
        h = quiet_highs()
        h.setOptionValue("time_limit", max(0.1, float(time_limit)))
        h.passModel(lp)
        start = highspy.HighsSolution()
        start.col_value = list(x[free])
        start.value_valid = True
        t0 = time.perf_counter()
        rep = run_mip_consistent(h, start)
        info = {"status": h.modelStatusToString(h.getModelStatus()), "cols": len(free),
                "rows": len(rows), "s": time.perf_counter() - t0,
                "optimal": h.getModelStatus() == highspy.HighsModelStatus.kOptimal
                and rep["consistent"]}
        if rep["own"] is None:
            return None, info
        y = x.copy()
        y[free] = np.asarray(h.getSolution().col_value, dtype=float)
        ri = np.round(y)
        intg = f.integer
        if np.max(np.abs(y[intg] - ri[intg]), initial=0.0) > INT_TOL:
            return None, info
        y[intg] = ri[intg]
        old, new = f.objective(x), f.objective(y)
        info["objective"] = new
        if new <= old + GAIN_RTOL * max(1.0, abs(old)) or f.max_violation(y) > INT_TOL:
            return None, info
        return y, info

    # -- windows ------------------------------------------------------------------------------
    def window(self, x: np.ndarray, k: int, rng: np.random.Generator,
               t: int | None = None, must=None) -> np.ndarray:
        """The ``k`` jobs nearest slot ``t`` (default: a random slot) by their active span
        (module docstring); ``must`` (a job index) is always in."""
        w = self.workload
        T = w.horizon
        c = self.cols
        cand = np.flatnonzero(self.best_f > 0)
        if len(cand) <= k:
            return cand
        admitted = np.zeros(len(w.jobs), dtype=bool)
        admitted[c.job[(c.kind == 0) & (x > 0.5)]] = True
        end = self.active_end(x)
        arrival = self.arrival
        if t is None:
            t = int(rng.integers(1, T + 1))
        dist = np.maximum(0, np.maximum(arrival - t, t - end))[cand].astype(float)
        pick = cand[np.argsort(dist + rng.random(len(cand)), kind="stable")[:k]]
        out = [j for j in cand if not admitted[j]]
        if must is not None and must not in pick:
            pick[-1] = must
        elif out and not (~admitted[pick]).any():  # at least one rejected job
            pick[-1] = out[int(rng.integers(len(out)))]
        return np.unique(pick)

    def active_end(self, x: np.ndarray) -> np.ndarray:
        """Last active slot of every job: its completion when ``x`` admits it, else its useful
        end (T for every job when tail = 0, the sixth round's span)."""
        c = self.cols
        end = self.useful_end.copy()
        done = (c.kind == 3) & (x > 0.5)
        end[c.job[done]] = c.slot[done]
        return end

    def active_in(self, x: np.ndarray, lo: int, hi: int) -> np.ndarray:
        """The jobs of positive utility active (arrival to :meth:`active_end`) in slots
        lo..hi."""
        return np.flatnonzero((self.best_f > 0) & (self.arrival <= hi)
                              & (self.active_end(x) >= lo))

    def rejected(self, x: np.ndarray) -> np.ndarray:
        """The jobs of positive utility the incumbent ``x`` rejects."""
        c = self.cols
        admitted = np.zeros(len(self.workload.jobs), dtype=bool)
        admitted[c.job[(c.kind == 0) & (x > 0.5)]] = True
        return np.flatnonzero(~admitted & (self.best_f > 0))

    def search(self, schedule: Schedule, value: float, time_limit: float, *, window: int = 8,
               window_time: float = 20.0, seed: int = 0, consider=None,
               neighbourhoods=("span",), grow: float = 0.0, tail: float = 0.0,
               on_improve=None) -> tuple[Schedule, float, dict]:
        """Windows until ``time_limit`` (seconds from now) from the checked ``schedule`` of
        checker objective ``value``: the best checked schedule, its objective and a log.
        ``consider(schedule) -> float | None`` is the checker (default: the family's).
        ``neighbourhoods``: names in :data:`NEIGHBOURHOODS`, drawn by adaptive weights;
        each keeps its own size, which grows by ``max(1, grow * size)`` after a fast optimal
        sub-MIP (``grow = 0``: by one, the fifth round's rule).  ``tail``: the useful tail
        (module docstring; 0 frees every slot).  ``on_improve(schedule, value)`` is called
        with every new checked best (e.g. to save it at once: a killed run keeps it)."""
        deadline = time.perf_counter() + max(0.0, float(time_limit))
        self.set_tail(tail)
        consider = consider or _checked(self.workload)
        x = self.encode(schedule)
        rng = np.random.default_rng(seed)
        names = list(dict.fromkeys(neighbourhoods))
        size = {n: max(MIN_WINDOW, int(window)) for n in names}
        weight = {n: 1.0 for n in names}
        n_cand = int(np.count_nonzero(self.best_f > 0))
        log = {"windows": 0, "improved": 0, "optimal": 0, "start": value, "trace": [],
               "sub_cols": 0, "sub_s": 0.0,
               "by_neighbourhood": {n: [0, 0] for n in names}}
        while True:
            left = deadline - time.perf_counter()
            if left < 0.5:
                break
            p = np.array([weight[n] for n in names])
            name = names[int(rng.choice(len(names), p=p / p.sum()))]
            k = size[name]
            jobs, servers, *slots = NEIGHBOURHOODS[name](self, x, k, rng)
            slots = slots[0] if slots else None  # a time slab (lo, hi), or every slot
            y, info = self.resolve(x, jobs, min(window_time, left), servers, slots)
            log["windows"] += 1
            log["optimal"] += bool(info["optimal"])
            log["sub_cols"] += info["cols"]  # sizes and HiGHS time, for the write-up's means
            log["sub_s"] += info["s"]
            log["by_neighbourhood"][name][0] += 1
            gained = False
            if y is not None:
                cand = self.decode(y, {"lns": {"windows": log["windows"]}})
                v = consider(cand)
                if v is not None and v > value + GAIN_RTOL * max(1.0, abs(value)):
                    schedule, value, x, gained = cand, v, y, True
                    log["improved"] += 1
                    log["by_neighbourhood"][name][1] += 1
                    log["trace"].append((round(time.perf_counter() - deadline
                                               + time_limit, 1), round(v, 4), len(jobs), name))
                    if on_improve is not None:
                        on_improve(schedule, value)
            # adaptive weights (DECISION, not in the paper): exponential smoothing of success
            weight[name] = max(WEIGHT_FLOOR, (1 - WEIGHT_RATE) * weight[name]
                               + WEIGHT_RATE * (1.0 if gained else 0.0))
            if info["optimal"] and info["s"] < 0.25 * window_time:
                size[name] = min(len(self.workload.jobs), k + max(1, int(grow * k)))
            elif not info["optimal"] and not gained:
                size[name] = max(MIN_WINDOW, k - 1)
            if servers is None and slots is None and len(jobs) >= n_cand and info["optimal"]:
                log["all_free_optimal"] = True  # every job free, solved: nothing left
                break
        log.update(end=value, window_end=dict(size), tail=self.tail)
        return schedule, value, log


#: share of the other servers a server-restricted window may also use (DECISION)
SERVER_SHARE = 0.25
#: adaptive neighbourhood weights: smoothing rate and floor (DECISION)
WEIGHT_RATE = 0.3
WEIGHT_FLOOR = 0.1


def _span(eng: UtilityLNS, x, k, rng):
    """Today's window: the k jobs nearest a random slot, all their columns free."""
    return eng.window(x, k, rng), None


def _span_servers(eng: UtilityLNS, x, k, rng):
    """Twice the jobs, on fewer servers: the 2k jobs nearest a random slot, free only on the
    servers they use now plus a random ``SERVER_SHARE`` of the others (DECISION: a job's
    columns scale with the servers, so fewer servers buy a wider window of jobs at about the
    same sub-MIP size; the random share lets rejected jobs and moves reach new servers)."""
    mask = rng.random(len(eng.server_ids)) < SERVER_SHARE
    return eng.window(x, 2 * k, rng), mask


def _rejected(eng: UtilityLNS, x, k, rng):
    """Repair: a rejected job (drawn by its best utility) with the k - 1 jobs nearest its
    arrival, all columns free -- the sub-MIP admits it when the jobs around it can make room."""
    out = eng.rejected(x)
    if len(out) == 0:
        return _span(eng, x, k, rng)
    p = eng.best_f[out] / eng.best_f[out].sum()
    r = int(out[rng.choice(len(out), p=p)])
    return eng.window(x, k, rng, t=int(eng.workload.jobs[r].arrival), must=r), None


def _slab(eng: UtilityLNS, x, k, rng):
    """Seventh round: a time slab.  Every job active (:meth:`UtilityLNS.active_in`) in the k
    slots lo..lo + k - 1, free only on those slots (x and u too): the slab's capacity is
    re-packed among all the jobs that share it, each keeping its work outside the slab.
    DECISION: half the slabs start at a rejected job's arrival (drawn by its best utility,
    where admitting it must happen), half at a random slot; the width k adapts as the other
    windows' sizes do."""
    T = eng.workload.horizon
    w = min(int(k), T)
    out = eng.rejected(x)
    if len(out) and rng.random() < 0.5:
        r = int(out[rng.choice(len(out), p=eng.best_f[out] / eng.best_f[out].sum())])
        lo = min(int(eng.arrival[r]), T - w + 1)
    else:
        lo = int(rng.integers(1, T - w + 2))
    hi = lo + w - 1
    jobs = eng.active_in(x, lo, hi)
    if len(jobs) == 0:  # nothing can gain in these slots: an ordinary window instead
        return _span(eng, x, k, rng)
    return jobs, None, (lo, hi)


#: the neighbourhoods by name (the ``neighbourhoods`` option); each returns the window's jobs,
#: a server mask or None, and optionally a slot range (lo, hi) for the y, z it frees
NEIGHBOURHOODS = {"span": _span, "span_servers": _span_servers, "rejected": _rejected,
                  "slab": _slab}
#: the default mix (DECISION: against ``["span"]`` alone, from the same starts, two seeds each at
#: oasis-open-1 and -2, the means were equal within the seeds' spread and the mix gave the best
#: single run at both; benchmarks/oasis/frontier.md, sixth round)
DEFAULT_NEIGHBOURHOODS = ("span", "span_servers", "rejected")


def _checked(workload: Workload):
    from mlopt.families.oasis.checker import check_oasis

    def consider(schedule: Schedule) -> float | None:
        res = check_oasis(workload, schedule)
        return float(res.objective) if res.feasible else None
    return consider


#: default growth of a window after a fast optimal sub-MIP (share of its size; DECISION:
#: the fifth round's +1 took 200 s at oasis-open-2 to reach the 15-22 jobs where the gains were)
GROW = 0.25
#: default useful tail (module docstring): a window frees a job's slots while its utility is
#: at least this share of its best (DECISION: 1% cuts oasis-open-2's free slot-columns from
#: 4726 to 1760 job-slots; measured against tail = 0 in benchmarks/oasis/frontier.md, seventh
#: round)
TAIL = 0.01


def lns(workload: Workload, schedule: Schedule, time_limit: float, *, window: int = 8,
        window_time: float = 20.0, seed: int = 0, neighbourhoods=DEFAULT_NEIGHBOURHOODS,
        grow: float = GROW, tail: float = TAIL, on_improve=None) -> tuple[Schedule, dict]:
    """The search of the module docstring from a schedule (checked here first; InputError
    when the checker rejects it): the best checked schedule (never worse than ``schedule``)
    and the search's log.  The build counts against ``time_limit``.  ``on_improve``: see
    :meth:`UtilityLNS.search`."""
    t0 = time.perf_counter()
    _positive("time_limit", time_limit)
    _positive("window_time", window_time)
    if isinstance(window, bool) or not isinstance(window, int) or window < 1:
        raise InputError("must be an integer >= 1", field="window", value=window)
    if isinstance(neighbourhoods, str) or not neighbourhoods or any(
            n not in NEIGHBOURHOODS for n in neighbourhoods):
        raise InputError(f"must be a non-empty list of {', '.join(NEIGHBOURHOODS)}",
                         field="neighbourhoods", value=neighbourhoods)
    if isinstance(grow, bool) or not isinstance(grow, (int, float)) or not 0 <= grow <= 4:
        raise InputError("must be a number in [0, 4]", field="grow", value=grow)
    if isinstance(tail, bool) or not isinstance(tail, (int, float)) or not 0 <= tail <= 0.5:
        raise InputError("must be a number in [0, 0.5]", field="tail", value=tail)
    consider = _checked(workload)
    value = consider(schedule)
    if value is None:
        raise InputError("the start schedule fails the OASiS checker", field="schedule",
                         value=schedule.meta.get("producer"))
    eng = UtilityLNS(workload)
    left = float(time_limit) - (time.perf_counter() - t0)
    best, v, log = eng.search(schedule, value, left, window=window, window_time=window_time,
                              seed=seed, consider=consider, neighbourhoods=neighbourhoods,
                              grow=grow, tail=tail, on_improve=on_improve)
    log["build_s"] = round(eng.build_s, 2)
    return best, log


def _positive(field: str, value) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0 \
            or not np.isfinite(value):
        raise InputError("must be a positive number of seconds", field=field, value=value)


#: share of the algorithm's budget its own start (the residual local search) may take
START_SHARE = 0.2
#: the search is skipped (the start returned) when the time left is below this many times the
#: model-size estimate of the build (DECISION: the estimate uses a quiet machine's rate; at
#: oasis-open-2, load 6, build and compile took 31 s against an estimate of 10.7 s)
BUILD_MARGIN = 3.0


def _build_estimate(workload: Workload) -> float:
    from mlopt.models.oasis.estimate import estimate_utility_ilp

    return float(estimate_utility_ilp(workload).build_s)


def residual_start(workload: Workload, seconds: float, seed: int = 0) -> Schedule:
    """A start of its own: the residual local search (:mod:`.local_search`: insert every job
    by its best schedule in the capacity left, re-fit, ruin-and-recreate) from the empty
    cluster, for at most ``seconds``."""
    from mlopt.families.oasis.primal.local_search import LocalSearch, Packing
    from mlopt.models.oasis.master import schedule_from_columns

    pk, info = LocalSearch(workload, seed=seed).improve(Packing.from_columns(workload, []),
                                                        seconds)
    cols = list(pk.chosen.values())
    return schedule_from_columns(workload, cols, [True] * len(cols),
                                 {"producer": f"{PRODUCER}:residual_start"})


def run_lns(workload: Workload, *, seed: int = 0, start: str = "local_search",
            start_file=None, time_limit: float = 60.0, window: int = 8,
            window_time: float = 20.0, start_schedule: Schedule | None = None,
            neighbourhoods=DEFAULT_NEIGHBOURHOODS, grow: float = GROW,
            tail: float = TAIL) -> Schedule:
    """The search as a registered algorithm (an anytime reference heuristic: ``mlopt bracket``
    sets ``time_limit`` to its share).  ``start``: ``local_search`` (the residual local search,
    at most ``START_SHARE`` of the budget) or ``oasis`` (the online algorithm's schedule);
    ``start_file``: a schedule file of this workload instead (e.g. ``mlopt bracket -o``'s best
    schedule; checked, InputError when the checker rejects it); ``start_schedule``: a
    schedule object instead (the family's ``start_option``: bracket hands it its best schedule
    when it runs the search again).  The result is never worse than the start."""
    return run_lns_observed(workload, None, seed=seed, start=start, start_file=start_file,
                            time_limit=time_limit, window=window, window_time=window_time,
                            start_schedule=start_schedule, neighbourhoods=neighbourhoods,
                            grow=grow, tail=tail)


def run_lns_observed(workload: Workload, on_improve, *, seed: int = 0,
                     start: str = "local_search", start_file=None, time_limit: float = 60.0,
                     window: int = 8, window_time: float = 20.0,
                     start_schedule: Schedule | None = None,
                     neighbourhoods=DEFAULT_NEIGHBOURHOODS, grow: float = GROW,
                     tail: float = TAIL) -> Schedule:
    """:func:`run_lns` with a caller's hook: ``on_improve(schedule, value)`` (or None) is
    called with every new checked best (:meth:`UtilityLNS.search`; benchmarks/oasis/lns.py
    saves each at once).  Not the registered entry: a hook is not an option."""
    t0 = time.perf_counter()
    _positive("time_limit", time_limit)
    if start_schedule is not None:
        first, start = start_schedule, "given"
    elif start_file is not None:
        first = Schedule.load(start_file)
        start = "file"
    elif start == "oasis":
        from mlopt.families.oasis.online import run_oasis

        first = run_oasis(workload, seed=seed)
    elif start == "local_search":
        first = residual_start(workload, START_SHARE * float(time_limit), seed)
    else:
        raise InputError("unknown start (known: local_search, oasis)", field="start",
                         value=start)
    left = float(time_limit) - (time.perf_counter() - t0)
    if left <= 0.5 or left < BUILD_MARGIN * _build_estimate(workload):
        return first  # the build would not finish in time: a killed run loses the start too
    best, log = lns(workload, first, left, window=window, window_time=window_time, seed=seed,
                    neighbourhoods=neighbourhoods, grow=grow, tail=tail, on_improve=on_improve)
    build_s = log.pop("build_s", None)
    keep = {k: log[k] for k in ("windows", "improved", "start", "end", "by_neighbourhood",
                                "tail", "optimal", "sub_cols")}
    out = Schedule(best.admitted, best.allocations,
                   {**best.meta, "producer": PRODUCER, "lns": keep, "start": start})
    out.timing.update(build_s=build_s, trace=log.get("trace", []),
                      sub_s=round(log.get("sub_s", 0.0), 1))
    return out

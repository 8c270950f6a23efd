"""``pnb``: a price-and-branch primal heuristic for (2) / (15) over ``colgen_lb``'s columns.

1. COLUMNS.  :func:`.colgen.run_colgen` solves the time-indexed LP by column generation (a
   share ``colgen_share`` of the budget); its columns are (configuration, start) pairs of the
   pooled relaxation, so they name no servers.
2. CONCRETE PLACEMENTS.  A job is inserted into a per-server residual-capacity profile at its
   earliest completion over a short list of configurations (those the column generation priced
   in, then for each (worker type, PS type) a ladder of worker counts 1, 2, 4, ...: the fast
   ones fit an empty cluster, the small ones a busy one; at most ``configs_per_job``), each
   placed on concrete servers by the baselines' placement rule
   (:func:`.baselines._list.place`: co-located on one server if possible, else PSs on one
   server covering the remote workers' bandwidth (2i)).  Starts tried: the arrival and every
   completion of a placed job after it -- the free capacity of a server only rises at a
   completion, so an earliest start is always one of these (a start just after a start s can
   move to s - 1 without losing capacity).
3. SCHEDULES.  Candidates: the warm start (the best checked schedule among the family's online
   algorithms and baselines, or the one named by ``warm``), and list schedules inserting jobs
   in the LP's order (mean start of the job's columns in the last master LP) and in WSPT order
   (w_j / shortest duration, descending), first with a price on the capacity a job occupies
   (:mod:`.priced_insertion`, option ``insertion_price``), then at the earliest completion,
   then with the rest of the price ladder, while the search's time lasts; then, for half the
   search time left, random alpha-point orders of the LP (:mod:`.alpha_points`), priced.
4. LOCAL SEARCH from the best candidate until the budget ends: (a) per job, by weighted
   completion descending, take it out and re-insert it at its earliest completion (an earlier
   start, another configuration or placement); kept only when it completes strictly earlier,
   so nothing else moves; (b) ruin and recreate: take out a few jobs starting close together
   (a random window of the start order) and re-insert them in WSPT order; kept only when the
   total weighted completion drops.
   The list schedules and the search end at a share ``1 - master_share`` of the time left.
5. RESTRICTED MASTER (:mod:`.master`) for the rest: MIPs over concrete (job, placement, start)
   columns around the incumbent (windows of jobs re-placed at once, per-server capacity rows
   of ``placement_ti``), warm-started from it; a round is kept only if the checker accepts it.
Every accepted candidate is the profile's own bookkeeping; the returned schedule is checked by
the family's checker, and if it were rejected or worse than the warm start the warm start is
returned (so ``pnb`` is never worse than its warm start).

DECISIONS (the paper has no such heuristic):
* the restricted master is not solved over every concrete placement: at ``paper-default``
  (150 servers) the per-server placements of one configuration are far too many to enumerate
  (:data:`.placements.MAX_PLACEMENTS`); the LP's columns choose the configurations and the
  order, the concrete placements are the greedy ones above, and step 5's MIPs choose among a
  few of them per job (:mod:`.master`);
* the local search and ruin window sizes (2-8 jobs) and the random choices are seeded by
  ``seed`` (deterministic for a given budget only up to timing: the search stops on the clock).
"""
from __future__ import annotations

import math
import time

import numpy as np

from mlopt.errors import InputError
from mlopt.families.hetero.alpha_points import alpha_order
from mlopt.families.hetero.baselines._list import place
from mlopt.families.hetero.configs import KeyTest, fits_alone, job_config_arrays
from mlopt.families.hetero.fields import HeteroData, hetero_data
from mlopt.families.hetero.mincost import Placement
from mlopt.families.hetero.priced_insertion import Pricer, betas, priced_list
from mlopt.params import Param
from mlopt.schedule import COLUMNS, SCHEDULE_SCHEMA_VERSION, Schedule
from mlopt.workload import Workload

OPTIONS = {
    "time_limit": Param.float(60.0, low=0.1, high=86_400.0,
                              doc="seconds for everything (warm start, columns, search)"),
    "warm": Param.str("tiresias", doc="the warm start: an online algorithm or baseline of the "
                                  "family, 'best' (all of them, the best checked), or 'none'"),
    "colgen_share": Param.float(0.3, low=0.0, high=0.9,
                                doc="share of the budget left after the warm start that column "
                                    "generation may use (0: no columns, WSPT order only)"),
    "configs_per_job": Param.int(48, low=1, high=100_000,
                                 doc="configurations tried per job when it is inserted"),
    "insertion_price": Param.float(0.25, low=0.0, high=100.0,
                                   doc="beta of the priced list schedules (module docstring 3, "
                                       ":mod:`.priced_insertion`; 0: earliest completion only)"),
    "master_share": Param.float(0.5, low=0.0, high=0.95,
                                doc="share of the time left after the list schedules that the "
                                    "restricted master MIP over concrete placements may use "
                                    "(0: local search only)"),
}
_EPS = 1e-9
#: most random alpha-point orders drawn (small instances would otherwise draw until the clock)
ALPHA_DRAWS = 48
#: local-search rounds in a row without an improvement after which the search stops early
STALL_ROUNDS = 5


class Residual:
    """Used capacity per (server, resource) as a step function of the slot, with removal (the
    baselines' Profile is dense and only grows); :meth:`free` is what
    :func:`.baselines._list.place` reads.  The use only changes where a placement starts or
    ends, so it is kept per segment between those slots: a window's peak is the running maximum
    over the few segments it meets instead of over every slot (at ``paper-default`` a job runs
    hundreds of slots)."""

    def __init__(self, data: HeteroData):
        self.data = data
        self.pls: dict[int, Placement] = {}
        self._seg = None  # (breakpoints, S x H x R use per segment), rebuilt after a change
        self._peak: dict[int, np.ndarray] = {}  # first segment -> running max from it on

    def add(self, pl: Placement, sign: float = 1.0) -> None:
        """Add (sign 1) or remove (sign -1) job pl.job's placement."""
        if sign > 0:
            self.pls[pl.job] = pl
        else:
            del self.pls[pl.job]
        self._seg, self._peak = None, {}

    def _segments(self):
        if self._seg is None:
            bp = np.array(sorted({1, *(p.start for p in self.pls.values()),
                                  *(p.completion for p in self.pls.values())}), dtype=np.int64)
            use = np.zeros((len(bp), *self.data.cap.shape))
            for p in self.pls.values():
                lo, hi = np.searchsorted(bp, [p.start, p.completion])
                for h, vec in p.usage(self.data).items():
                    use[lo:hi, h] += vec
            self._seg = (bp, use)
        return self._seg

    def free(self, a: int, b: int) -> np.ndarray:
        """H x R capacity free in every slot of [a, b) (1-based)."""
        bp, use = self._segments()
        lo = int(np.searchsorted(bp, a, side="right")) - 1
        hi = int(np.searchsorted(bp, b - 1, side="right")) - 1
        peak = self._peak.get(lo)
        if peak is None:
            peak = self._peak[lo] = np.maximum.accumulate(use[lo:], axis=0)
        return self.data.cap - peak[hi - lo]


def candidate_keys(data: HeteroData, j: int, priced: set, cap: int) -> list[tuple]:
    """(m, p, n) tried for job j, fastest first (module docstring, 2): the priced ones, then
    per (m, p) the counts 1, 2, 4, ... and the largest, at most ``cap``."""
    fits = KeyTest(data, lambda c: fits_alone(data, c))
    a = job_config_arrays(data, j)
    a = a[fits(a)]
    if len(a) == 0:
        raise InputError(f"job {data.job_ids[j]} fits nowhere on the empty cluster",
                         field="jobs", value=data.job_ids[j])
    dur = {}  # (m, p, n) -> shortest duration (for the order)
    for m, p, q, n, d in a.tolist():
        dur[m, p, n] = min(dur.get((m, p, n), d), d)
    first = [k for k in dur if k in priced]
    ladder = []
    for (m, p) in sorted({(k[0], k[1]) for k in dur}):
        ns = sorted(n for (mm, pp, n) in dur if (mm, pp) == (m, p))
        want = {1 << i for i in range(32)} | {ns[-1]}
        ladder += [(m, p, n) for n in ns if n in want or n == ns[0]]
    chosen = list(dict.fromkeys(first + sorted(ladder, key=lambda k: (dur[k], k))))[:cap]
    return sorted(chosen, key=lambda k: (dur[k], k[2], k))


class Search:
    """The schedule being improved: one placement per job and the residual profile."""

    def __init__(self, data: HeteroData, keys: list[list[tuple]]):
        self.data, self.keys = data, keys
        self.res = Residual(data)
        self.pl: dict[int, Placement] = {}
        self.fast = [min(_duration(data, j, m, p, n) for m, p, n in ks)
                     for j, ks in enumerate(keys)]

    def value(self) -> float:
        return float(sum(self.data.weight[j] * pl.completion for j, pl in self.pl.items()))

    def put(self, pl: Placement) -> None:
        self.pl[pl.job] = pl
        self.res.add(pl)

    def take(self, j: int) -> Placement:
        pl = self.pl.pop(j)
        self.res.add(pl, -1.0)
        return pl

    def best_insertion(self, j: int, before: float = math.inf) -> Placement | None:
        """The placement of job j completing earliest in the current profile (None if none
        completes before ``before``)."""
        a = int(self.data.arrival[j])
        ends = sorted({pl.completion for pl in self.pl.values() if pl.completion > a})
        best, bar = None, before
        for t in [a, *ends]:
            if t + self.fast[j] >= bar:
                break
            for m, p, n in self.keys[j]:
                if t + _duration(self.data, j, m, p, n) >= bar:
                    continue  # its co-located duration is its shortest
                pl = place(self.data, self.res, j, m, p, n, t)
                if pl is not None and pl.completion < bar:
                    best, bar = pl, pl.completion
        return best

    def insert(self, j: int) -> None:
        pl = self.best_insertion(j)
        if pl is None:  # after everything else: the empty cluster holds every key tried
            t = max([int(self.data.arrival[j]), *(q.completion for q in self.pl.values())])
            pl = next((x for x in (place(self.data, self.res, j, *k, t) for k in self.keys[j])
                       if x is not None), None)
            if pl is None:
                raise InputError(f"job {self.data.job_ids[j]} cannot start before the last slot"
                                 " a schedule may name", field="jobs", value=self.data.job_ids[j])
        self.put(pl)


def _duration(data: HeteroData, j: int, m: int, p: int, n: int) -> int:
    """Co-located (shortest) duration of (m, p, n)."""
    return data.duration(j, n, data.rate(j, m, p, 1, n))


def decode(data: HeteroData, schedule: Schedule) -> list[Placement]:
    """A checked schedule's jobs as placements (its first slot's allocation, its run length)."""
    jidx = {j: i for i, j in enumerate(data.job_ids)}
    hidx = {h: i for i, h in enumerate(data.server_ids)}
    widx = {m: i for i, m in enumerate(data.wtype_ids)}
    pidx = {p: i for i, p in enumerate(data.ptype_ids)}
    df = schedule.allocations
    out = []
    for jid, rows in df.groupby("job", sort=False):
        slots = sorted(rows["slot"].unique().tolist())
        first = rows[rows["slot"] == slots[0]]
        y, s, m, p = {}, {}, 0, -1
        for r in first.itertuples(index=False):
            h = hidx[r.server]
            if r.role == "worker":
                y[h] = y.get(h, 0) + int(r.count)
                m = widx[str(r.type)]
            else:
                s[h] = s.get(h, 0) + int(r.count)
                p = pidx[str(r.type)]
        q = 1 if len(set(y) | set(s)) == 1 else 0
        out.append(Placement(jidx[jid], m, p, q, sum(y.values()), len(slots), slots[0], y, s))
    return out


def encode(data: HeteroData, placements) -> Schedule:
    """Placements as a schedule (the rows the checker reads)."""
    rows = []
    for pl in sorted(placements, key=lambda x: x.job):
        jid = data.job_ids[pl.job]
        for t in range(pl.start, pl.start + pl.d):
            for h, c in sorted(pl.y.items()):
                rows.append([jid, t, data.server_ids[h], "worker", int(c), data.wtype_ids[pl.m]])
            for h, c in sorted(pl.s.items()):
                rows.append([jid, t, data.server_ids[h], "ps", int(c), data.ptype_ids[pl.p]])
    return Schedule.from_dict({"schema_version": SCHEDULE_SCHEMA_VERSION,
                               "admitted": sorted(data.job_ids), "columns": [*COLUMNS, "type"],
                               "rows": rows, "meta": {}})


def _warm_start(workload: Workload, warm: str):
    """(name, schedule, checked objective) of the warm start, or None."""
    from mlopt.families import get_family
    from mlopt.warmstart import best_start

    if warm == "none":
        return None
    fam = get_family("hetero")
    names = sorted(n for n, a in fam.algorithms_.items() if a.role in ("online", "baseline"))
    if warm != "best":
        if warm not in names:
            raise InputError(f"not an online algorithm or baseline of hetero (known: "
                             f"{', '.join(names)}, best, none)", field="warm", value=warm)
        names = [warm]
    cand = best_start(workload, "hetero", names)
    return None if cand is None else (cand.algorithm, cand.schedule, cand.objective)


def _given_start(workload: Workload, schedule: Schedule):
    """(name, schedule, checked objective) of a given start; a rejected one is refused (the
    search returns its start when it finds nothing better, so it must never be junk)."""
    from mlopt.families import get_family

    res = get_family("hetero").check(workload, schedule)
    if not res.feasible:
        raise InputError("the start schedule fails the checker: " + res.summary(limit=2),
                         field="start", value="given schedule")
    return ("given", schedule, float(res.objective))


def run_pnb(workload: Workload, *, seed: int = 0, time_limit: float = 60.0, warm: str = "tiresias",
            colgen_share: float = 0.3, configs_per_job: int = 48,
            master_share: float = 0.5, insertion_price: float = 0.25,
            start_schedule: Schedule | None = None) -> Schedule:
    """Price-and-branch (module docstring): the best schedule found within ``time_limit``.
    ``start_schedule``: a checked schedule to start from instead of ``warm`` (the family's
    ``start_option``: bracket hands it its best schedule when it runs the search again)."""
    from mlopt.families.hetero.colgen import run_colgen

    t0 = time.perf_counter()
    deadline = t0 + float(time_limit)
    start = _warm_start(workload, warm) if start_schedule is None else \
        _given_start(workload, start_schedule)
    cols, info = None, None
    share = colgen_share * max(0.0, deadline - time.perf_counter())
    if share >= 0.5:
        info, cols = run_colgen(workload, time_limit=share)
    return improve(workload, start, cols, deadline=deadline, seed=seed,
                   configs_per_job=configs_per_job, colgen=info, master_share=master_share,
                   insertion_price=insertion_price)


def improve(workload: Workload, start, cols, *, deadline: float, seed: int = 0,
            configs_per_job: int = 48, colgen: dict | None = None,
            master_share: float = 0.5, insertion_price: float = 0.25) -> Schedule:
    """Steps 2-4 of the module docstring until ``deadline`` (perf_counter seconds): from the
    warm start ``start`` ((name, schedule, checked objective) or None) and the columns ``cols``
    (:class:`.colgen.Columns` or None), the best checked schedule, never worse than ``start``.
    The list schedules stop at the deadline (then only the warm start is left)."""
    from mlopt.families import get_family

    data = hetero_data(workload)
    fam = get_family("hetero")
    J = len(data.job_ids)
    rng = np.random.default_rng(seed)
    meta = {"warm": None if start is None else [start[0], start[2]]}
    priced: list[set] = [set() for _ in range(J)]
    lp_keys: list[list[tuple]] = [[] for _ in range(J)]  # keys with LP value, largest first
    lp_order, lp_mean = None, None
    if cols is not None:
        if colgen is not None:
            meta["colgen"] = {k: colgen[k] for k in ("bound", "iterations", "converged",
                                                     "columns")}
        for j, (m, p, _, n) in zip(cols.job.tolist(), cols.key.tolist()):
            priced[j].add((m, p, n))
        for i in np.argsort(-cols.x, kind="stable").tolist():
            if cols.x[i] > _EPS:
                m, p, _, n = cols.key[i].tolist()
                lp_keys[int(cols.job[i])].append((m, p, n))
        if cols.x.sum() > 0:  # mean start of the job's columns in the last master LP
            num = np.bincount(cols.job, cols.x * cols.start, minlength=J)
            den = np.bincount(cols.job, cols.x, minlength=J)
            mean = np.where(den > 0, num / np.maximum(den, _EPS), data.arrival)
            lp_order = sorted(range(J), key=lambda j: (mean[j], j))
            lp_mean = mean
    keys = [candidate_keys(data, j, priced[j], configs_per_job) for j in range(J)]

    def fresh() -> Search:
        return Search(data, keys)

    cands: list[tuple[str, Search]] = []
    if start is not None:
        s = fresh()
        for pl in decode(data, start[1]):
            s.put(pl)
        cands.append(("warm", s))
    # the list schedules and the local search end here; the restricted master gets the rest
    search_end = time.perf_counter() + (1 - master_share) * max(
        0.0, deadline - time.perf_counter())
    wspt = sorted(range(J), key=lambda j: (-data.weight[j] / max(1, cands_fast(data, keys, j)),
                                           j))
    # priced ones first (they won at paper-default), then the plain earliest-completion ones,
    # then the rest of the price ladder, while the search's share of the budget lasts
    first, *more = betas(insertion_price)
    plan = [(lp_order, first), (wspt, first)] + ([(lp_order, 0.0), (wspt, 0.0)] if first else [])
    plan += [(o, b) for b in more for o in (lp_order, wspt)]
    pricer = Pricer(data, keys) if insertion_price > 0 else None

    def stop(end: float):  # an unfinished list schedule is dropped; the warm start stands
        return lambda: start is not None and time.perf_counter() > end

    lists = 0  # list schedules finished
    for order, beta in plan:
        if order is None or (lists and time.perf_counter() > search_end):
            continue
        # the first list schedule may run to the deadline: from the warm start alone the
        # master's windows gain little, and at paper-default (PS, loaded machine) one priced
        # list schedule took about a minute, more than the search's share of a short budget
        s = priced_list(fresh(), pricer, order, beta,
                        stop=stop(search_end if lists else deadline))
        if s is not None:
            lists += 1
            name = "lp order" if order is lp_order else "wspt"
            cands.append((f"{name}, price {beta:g}" if beta else name, s))
    # random alpha-point orders (:mod:`.alpha_points`) for half the search time left, the
    # prices cycling through the ladder; only the best draw is kept as a candidate
    draws, best_draw = 0, None
    if lp_mean is not None and insertion_price > 0:
        draw_end = time.perf_counter() + 0.5 * max(0.0, search_end - time.perf_counter())
        ladder = betas(insertion_price)
        while time.perf_counter() < draw_end and draws < ALPHA_DRAWS:
            order = alpha_order(cols, J, rng.uniform(1e-9, 1.0, J), data.arrival, lp_mean)
            s = priced_list(fresh(), pricer, order, ladder[draws % len(ladder)],
                            stop=lambda: time.perf_counter() > draw_end)
            draws += 1
            if s is not None and (best_draw is None or s.value() < best_draw.value()):
                best_draw = s
        if best_draw is not None:
            cands.append(("alpha points", best_draw))
    got, cur = min(cands, key=lambda c: c[1].value())
    meta["candidates"] = {n: s.value() for n, s in cands}
    meta["alpha_draws"] = draws
    moves = {"reinsert": 0, "ruin": 0}
    idle = 0  # rounds in a row without an improvement
    while time.perf_counter() < search_end and idle < STALL_ROUNDS:
        improved = False
        for j in sorted(cur.pl, key=lambda j: -data.weight[j] * cur.pl[j].completion):
            if time.perf_counter() > search_end:
                break
            old = cur.take(j)
            new = cur.best_insertion(j, before=old.completion)
            cur.put(new if new is not None else old)
            if new is not None:
                moves["reinsert"] += 1
                improved = True
        if time.perf_counter() > search_end:
            break
        for _ in range(max(1, J // 4)):  # ruin and recreate
            if time.perf_counter() > search_end:
                break
            by_start = sorted(cur.pl, key=lambda j: (cur.pl[j].start, j))
            k = int(rng.integers(2, min(8, J) + 1)) if J >= 2 else 1
            lo = int(rng.integers(0, max(1, J - k + 1)))
            out = by_start[lo:lo + k]
            before = cur.value()
            olds = [cur.take(j) for j in out]
            for j in sorted(out, key=lambda j: (-data.weight[j] / max(1, cur.fast[j]), j)):
                cur.insert(j)
            if cur.value() < before - _EPS * max(1.0, before):
                moves["ruin"] += 1
                improved = True
            else:
                for j in out:
                    cur.take(j)
                for pl in olds:
                    cur.put(pl)
        idle = 0 if improved else idle + 1
    if master_share > 0 and time.perf_counter() < deadline:
        cur = _master_phase(workload, data, cur, fresh, lp_keys, keys, deadline, meta)
    meta.update(moves=moves, start=got)  # no timings: two runs must give the same bytes
    sched = encode(data, cur.pl.values())
    res = fam.check(workload, sched)
    if start is not None and (not res.feasible or res.objective > start[2]):
        meta["fallback"] = "the warm start (the search's schedule: " + (
            "rejected by the checker)" if not res.feasible else f"{res.objective})")
        sched = start[1]
    elif not res.feasible:
        raise InputError("the search's schedule is rejected by the checker: "
                         + res.summary(limit=2), field="jobs", value=J)
    sched.meta.update({"algorithm": "pnb", "pnb": meta})
    return sched


def _master_phase(workload, data, cur, fresh, lp_keys, keys, deadline, meta):
    """The restricted master rounds (:mod:`.master`) from ``cur`` until ``deadline``; a
    round's schedule replaces the incumbent only if the family's checker accepts it."""
    from mlopt.families import get_family
    from mlopt.families.hetero.master import master_rounds

    fam = get_family("hetero")

    def residual(pls):
        r = Residual(data)
        for pl in pls:
            r.add(pl)
        return r

    def accept(pls) -> bool:
        return fam.check(workload, encode(data, pls.values())).feasible

    pls = dict(cur.pl)
    log = master_rounds(data, pls, lp_keys, keys, residual, accept, deadline=deadline)
    meta["master"] = {k: log[k] for k in ("rounds", "improved")}
    if log["improved"]:
        cur = fresh()
        for pl in pls.values():
            cur.put(pl)
    return cur


def cands_fast(data: HeteroData, keys, j: int) -> int:
    """Shortest duration among job j's keys (the WSPT denominator)."""
    return min(_duration(data, j, m, p, n) for m, p, n in keys[j])

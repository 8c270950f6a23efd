"""``config``: a per-server configuration bound on the optimal average JCT of Harmony (seed 002),
for instances small enough to list every way one server can be filled.  Where ``share`` charges
each sharing job the mildest co-runner of the instance, here each server in each interval holds
a *configuration* (how many workers and PSs of every job it hosts) and every job sharing a
server is slowed by the co-runners actually in that configuration -- both jobs of a pair pay
(frontier.md, 2026-11-29: the next row to bind).

Semantics are the checker's (:mod:`.checker`); notation as :mod:`.share_bound`: job j placed in
s_j >= a_j runs n_j intervals, JCT = s_j + n_j - a_j, M role-"any" servers.

CONFIGURATIONS.  A configuration C gives counts (xw_j, xp_j) <= (W_j, P_j), not all 0, whose
exact demands fit (capacity_r + 1e-6)(1 + 1e-9) in every resource for the capacity vector of
some role-"any" server (the checker's test with its tolerance and room for its float sums;
unequal servers: the union over their capacity vectors).  Listed exactly (integer multiples of
the demands' common binary denominator), refused beyond ``max_configs``.  For j in C its felt
is e_j(C) = sum_{o != j} alpha[l_j, l_o] (xw_o + ps_weight xp_o), computed in floats and lowered
by a relative 1e-12: at most the checker's float ``felt`` of j on a server holding C (the same
non-negative terms; float error far below 1e-12 for the <= 100 terms of a server).

LEVELS.  Per job, thresholds 0 < d_1 < ... < d_L (DECISION: for every speed-loss unit
v_j / 256 that some configuration reaches, the least e_j(C) reaching it; any set of thresholds
is valid, this one loses nothing the loss units see).  In interval t of its run j is at level
m = max{l : d_l <= worst}, worst the checker's max felt over j's servers (d_0 = 0); then its
speed is at most u_m = speed_at(d_m + kappa_j) (kappa_j the spread penalty when j must span;
speed_at non-increasing, float operations monotone: :mod:`.bounds`), and a configuration C
holding a task of j has e_j(C) <= its server's felt <= worst, so lev_j(C) := max{l : d_l <=
e_j(C)} <= m.

THEOREM.  Map a feasible schedule: each job to the column (its run, its level per interval),
each used server in interval t to its configuration (lambda_{t,C} = how many servers hold C).
Rows, all satisfied:
* per t: sum_C lambda_{t,C} <= M;
* per (j, role, t), t >= a_j: R_{j,role} [j runs in t] <= sum_C lambda_{t,C} x_{j,role}(C)
  (every task is on some server);
* per (j, t, l), l >= 1: sum_{C: lev_j(C) >= l} lambda_{t,C} x_j(C) <= X_j [j's level in t
  >= l] (no task of j sits where it is slowed past its level; X_j = W_j + P_j).
Its sum of JCTs is the sum of the columns' costs s + n - a_j, and a column trains the epochs
only if its speeds u_m do (share's Lemma 2; priced by crowd's loss-unit DP, a relaxation).
Dualize the last two kinds with prices sigma, rho >= 0 and keep the first: for ANY prices,
    sum_j JCT_j >= sum_j min_column (cost + sum_t [sigma . R - X_j sum_{l <= m_t} rho_l])
                    + sum_t M min(0, min_C rc_t(C)),
rc_t(C) = sum_j (x_j sum_{l <= lev_j(C)} rho_{j,t,l} - sigma_{j,t} . x_j(C)) over the
configurations whose jobs have all arrived by t (the others are impossible in t).  Zero
allocations: a job with no task on a server is in no configuration of it; a lone job: only
level 0 (no other job's term); late arrivals: rows start at a_j and configurations at the last
arrival of their jobs.  Column generation on the restricted LP (job columns priced by crowd's
DP, configurations by listing every one at the prices) supplies the prices; the bound is the
expression above at the best prices seen, every configuration scanned, each job's float
minimum lowered by 1e-9 (1 + T + its terms' sizes) and each interval's float minimum by 1e-9
(1 + the largest term size), summed in Fractions, rounded up (JCTs are integers) and
averaged; the max with ``share`` is returned (never below it).

SHARE ROWS.  Each job column also carries share's mode per interval (E, P, F: share's Lemma 1,
E only at level 0 -- an exclusive job feels nothing), its speed the smaller of the level's and
the mode's bound, and share's usage in share's server-count rows (Lemma 3, each <= M per
interval, dualized with prices beta >= 0: the Lagrangian above gains - M sum beta).  Both
mappings are of the same schedule, so all rows hold at once and ``config`` is at least
share's LP wherever column generation converges.

What it ignores: that a job's tasks are on a whole number of servers at once (the
configurations are shared out fractionally), spreading penalties beyond must-span, and the
order inside an interval.  DECISIONS (paper silent, mlopt's): ``max_configs`` (default
200,000) bounds the listing -- above it the bound refuses (returns ``share``'s result with
``config_refused``); share gets 30% of ``time_limit`` first, column generation until 60% of it
or ``max_rounds``; at most ``per_interval`` new configurations per interval and round.
"""
from __future__ import annotations

import math
import time
from fractions import Fraction

import numpy as np

from mlopt.families.harmony.bounds import must_span, speed_at, standalone_bound
from mlopt.families.harmony.crowd_bound import DISALLOWED, FLOAT_MARGIN, UNITS_PER_SPEED, \
    _CrowdJob
from mlopt.families.harmony.share_bound import ROWS, _prepare, share_first
from mlopt.families.harmony.speed import RESOURCES, model_of
from mlopt.families.harmony.volume_bound import MARGIN, TOL
from mlopt.workload import Workload

FELT_MARGIN = 1 - 1e-12
MAX_CONFIGS = 200_000


class TooMany(Exception):
    """More configurations than the cap (the bound refuses: fail safe)."""


def list_configs(workload: Workload, cap: int = MAX_CONFIGS) -> tuple[np.ndarray, np.ndarray]:
    """Every configuration of one server (CONFIGURATIONS): arrays XW, XP (configs x jobs)."""
    jobs = workload.jobs
    den = [Fraction(d[r]).denominator for j in jobs for d in (j.worker_demand, j.ps_demand)
           for r in RESOURCES]
    D = math.lcm(*den) if den else 1
    wd = [[int(Fraction(j.worker_demand[r]) * D) for r in RESOURCES] for j in jobs]
    pd = [[int(Fraction(j.ps_demand[r]) * D) for r in RESOURCES] for j in jobs]
    W = [int(j.extra["workers"]) for j in jobs]
    P = [int(j.extra["ps"]) for j in jobs]
    caps = {tuple(s.capacity[r] for r in RESOURCES) for s in workload.servers if s.role == "any"}
    seen: set = set()
    cur: list = []

    def rec(i, rem):
        if i == len(jobs):
            if any(a or b for a, b in cur) and tuple(cur) not in seen:
                seen.add(tuple(cur))
                if len(seen) > cap:
                    raise TooMany
            return
        for a in range(W[i] + 1):
            for b in range(P[i] + 1):
                left = [r - a * x - b * y for r, x, y in zip(rem, wd[i], pd[i])]
                if min(left) < 0:
                    break  # more PSs need more still
                cur.append((a, b))
                rec(i + 1, left)
                cur.pop()

    for c in caps:
        # exact integer test: sum of demands x D <= floor(K_r D) (the left side is an integer)
        rec(0, [math.floor((Fraction(x) + TOL) * MARGIN * D) for x in c])
    arr = np.array(sorted(seen), dtype=np.int64).reshape(len(seen), len(jobs), 2)
    return arr[:, :, 0], arr[:, :, 1]


class _LevelJob(_CrowdJob):
    """One job's columns: a level per interval (LEVELS), crowd's loss-unit DP (``best``)."""

    def __init__(self, base, sm, job, felt, first_other, must_spread):
        """``felt``: e_j(C) of the configurations holding j (lowered, LEVELS)."""
        self.a, self.k, self.T, self.target = base.a, base.k, base.T, base.target
        lj = sm.index(job.extra["model"])
        w = int(job.extra["workers"])
        kap = sm.comm_penalty[lj] if must_spread else 0.0
        vE = base.speed["E"]
        self.unit = vE / UNITS_PER_SPEED
        thresholds, units, speeds = [], [0], [vE]
        for e in np.unique(felt):
            u = min(Fraction(speed_at(sm, lj, w, float(e) + kap)), vE)
            L = math.floor((vE - u) / self.unit)  # rounded down: a relaxation
            if L > units[-1]:
                thresholds.append(float(e))
                units.append(L)
                speeds.append(u)
        self.thresholds = np.array(thresholds)
        self.nlev = len(units)
        # modes: E (exclusive: felt 0, level 0) and share's P / F at every level (SHARE ROWS)
        kinds = [("E", 0)] + [(k, lev) for k in ("P", "F") for lev in range(self.nlev)]
        self.modes = tuple("E" if k == "E" else f"{k}{lev}" for k, lev in kinds)
        self.mlevel = np.array([lev for _, lev in kinds])
        self.speed = {"E": vE}
        self.loss = np.zeros((len(kinds), self.T + 1), dtype=np.int64)
        for m, (k, lev) in enumerate(kinds):
            u = min(speeds[lev], base.speed[k])  # both bounds hold
            self.loss[m, :] = math.floor((vE - u) / self.unit)  # rounded down: a relaxation
        # a shared mode needs another job's task, so another job arrived by t
        self.loss[1:, :min(first_other, self.T + 1)] = DISALLOWED
        self.usage = np.array([[float(base.use[k][row]) for row in ROWS] for k, _ in kinds])
        self.tasks = (w, int(job.extra["ps"]))
        self._su: dict[int, int] = {}

    def level(self, felt: np.ndarray) -> np.ndarray:
        """lev_j(C) for lowered felt values."""
        return np.searchsorted(self.thresholds, felt, side="right")


class _ConfigLP:
    """The restricted LP of the THEOREM (rows as there; the server rows kept as LP rows)."""

    def __init__(self, jobs, M, T, XW, XP, LEV, ARR, threads):
        import highspy

        from mlopt.solvers.quiet_highs import quiet_highs

        self.hs, self.jobs, self.M, self.T = highspy, jobs, M, T
        self.XW, self.XP, self.LEV, self.ARR = XW, XP, LEV, ARR
        self.h = h = quiet_highs()
        h.setOptionValue("threads", int(threads))
        N = len(jobs)
        self.srv = {t: N + t - 1 for t in range(1, T + 1)}
        nrow = N + T
        self.srow = {}  # share's rows (SHARE ROWS), <= M like the server rows
        for row in ROWS:
            for t in range(1, T + 1):
                self.srow[(row, t)] = nrow
                nrow += 1
        nsrv = nrow - N
        self.task, self.lev = {}, {}
        for j, jb in enumerate(jobs):
            for t in range(max(jb.a, 1), T + 1):
                for role, R in enumerate(jb.tasks):
                    if R:
                        self.task[(j, role, t)] = nrow
                        nrow += 1
                for m in range(1, jb.nlev):
                    self.lev[(j, t, m)] = nrow
                    nrow += 1
        inf = highspy.kHighsInf
        lo = np.array([1.0] * N + [-inf] * (nrow - N))
        hi = np.array([1.0] * N + [float(M)] * nsrv + [0.0] * (nrow - N - nsrv))
        h.addRows(nrow, lo, hi, 0, np.zeros(0, dtype=np.int32), np.zeros(0, dtype=np.int32),
                  np.zeros(0))
        for i in range(N):  # artificial: keeps the LP feasible (any duals are valid prices)
            self._add(float(T + 1), [i], [1.0])
        self.seen: set = set()

    def _add(self, cost, index, value):
        self.h.addCol(cost, 0.0, self.hs.kHighsInf, len(index), np.array(index, dtype=np.int32),
                      np.array(value, dtype=float))

    def add_job(self, i, s, n, modes):
        key = ("job", i, s, n, tuple(modes))
        if key in self.seen:
            return False
        self.seen.add(key)
        jb = self.jobs[i]
        index, value = [i], [1.0]
        X = sum(jb.tasks)
        for t, mode in zip(range(s, s + n), modes):
            mi = jb.modes.index(mode)
            for role, R in enumerate(jb.tasks):
                if R:
                    index.append(self.task[(i, role, t)])
                    value.append(float(R))
            for ri, row in enumerate(ROWS):
                if jb.usage[mi, ri]:
                    index.append(self.srow[(row, t)])
                    value.append(float(jb.usage[mi, ri]))
            for m in range(1, int(jb.mlevel[mi]) + 1):
                index.append(self.lev[(i, t, m)])
                value.append(-float(X))
        self._add(float(s + n - jb.a), index, value)
        return True

    def add_config(self, c, t):
        key = ("cfg", c, t)
        if key in self.seen:
            return False
        self.seen.add(key)
        index, value = [self.srv[t]], [1.0]
        for j in np.flatnonzero(self.XW[c] + self.XP[c]):
            j = int(j)
            for role, x in enumerate((self.XW[c, j], self.XP[c, j])):
                if x:
                    index.append(self.task[(j, role, t)])
                    value.append(-float(x))
            for m in range(1, int(self.LEV[c, j]) + 1):
                index.append(self.lev[(j, t, m)])
                value.append(float(self.XW[c, j] + self.XP[c, j]))
        self._add(0.0, index, value)
        return True

    def solve(self):
        from mlopt.solvers.quiet_highs import run_highs

        run_highs(self.h)
        if self.h.getModelStatus() != self.hs.HighsModelStatus.kOptimal:
            return None
        dual = np.asarray(self.h.getSolution().row_dual, dtype=float)
        price = np.maximum(0.0, -dual)  # <= rows of a minimization: dual <= 0 in HiGHS
        return price, self.h.getInfo().objective_function_value


class _Prices:
    """The prices of one LP solve, arranged per job and interval."""

    def __init__(self, lp, price):
        jobs, T = lp.jobs, lp.T
        N = len(jobs)
        L = max(jb.nlev for jb in jobs)
        self.sigma = np.zeros((N, 2, T + 1))
        self.cumrho = np.zeros((N, T + 1, L))  # cumrho[j, t, m] = sum_{l=1..m} rho
        for (j, role, t), r in lp.task.items():
            self.sigma[j, role, t] = price[r]
        rho = np.zeros((N, T + 1, L))
        for (j, t, m), r in lp.lev.items():
            rho[j, t, m] = price[r]
        self.cumrho = np.cumsum(rho, axis=2)
        self.pi = np.array([0.0] + [price[lp.srv[t]] for t in range(1, T + 1)])
        self.B = np.zeros((len(ROWS), T + 1))  # share's row prices
        for (row, t), r in lp.srow.items():
            self.B[ROWS.index(row), t] = price[r]


def _job_costs(jb, j, P: _Prices):
    """C[mode, t] (t 1-based) and the size of its terms (for the float margin)."""
    X = sum(jb.tasks)
    R = np.array(jb.tasks, dtype=float)
    base = R @ P.sigma[j] + jb.usage @ P.B  # modes x (T + 1)
    earn = X * P.cumrho[j][:, jb.mlevel].T  # modes x (T + 1)
    return base - earn, base + earn


def _config_rc(lp, P: _Prices, t):
    """rc_t(C) of every configuration possible in t, and the size of its terms."""
    ok = lp.ARR <= t
    XW, XP, LEV = lp.XW[ok], lp.XP[ok], lp.LEV[ok]
    X = XW + XP
    N = X.shape[1]
    cost = XW * P.sigma[None, :, 0, t] + XP * P.sigma[None, :, 1, t]
    gain = X * P.cumrho[np.arange(N)[None, :], t, np.maximum(LEV, 0)]
    return np.flatnonzero(ok), gain - cost, gain + cost


def config_bound(workload: Workload, *, threads: int | None = 1,
                 time_limit: float | None = 60.0, max_rounds: int = 200,
                 max_configs: int = MAX_CONFIGS, per_interval: int = 20, **_ignored) -> dict:
    """Certified lower bound on the optimal average JCT (module docstring: the theorem)."""
    t0 = time.perf_counter()
    out, limit = share_first(workload, threads=threads, time_limit=time_limit,
                             max_rounds=max_rounds)
    prep = _prepare(workload, standalone_bound(workload)["per_job"]) if workload.jobs else None
    if prep is None:
        return {**out, "solve_s": time.perf_counter() - t0}
    base, M = prep
    try:
        XW, XP = list_configs(workload, max_configs)
    except TooMany:
        return {**out, "config_refused": f"more than {max_configs} configurations",
                "solve_s": time.perf_counter() - t0}
    sm = model_of(workload)
    T = int(workload.horizon)
    kinds = np.array([sm.index(j.extra["model"]) for j in workload.jobs])
    A = sm.alpha[np.ix_(kinds, kinds)].copy()
    np.fill_diagonal(A, 0.0)  # felt counts the other jobs only
    felt = (XW @ A.T + float(sm.ps_weight) * (XP @ A.T)) * FELT_MARGIN
    present = (XW + XP) > 0
    arrival = np.array([int(j.arrival) for j in workload.jobs])
    ARR = np.where(present, arrival[None, :], 0).max(axis=1)
    jobs, LEV = [], np.full(XW.shape, -1, dtype=np.int64)
    for j, (jb, job) in enumerate(zip(base, workload.jobs)):
        others = np.delete(arrival, j)
        first_other = int(others.min()) if len(others) else T + 1
        lj = _LevelJob(jb, sm, job, felt[present[:, j], j], first_other,
                       must_span(job, workload.servers))
        LEV[present[:, j], j] = lj.level(felt[present[:, j], j])
        jobs.append(lj)
    lp = _ConfigLP(jobs, M, T, XW, XP, LEV, ARR, threads or 1)
    for i, jb in enumerate(jobs):
        lp.add_job(i, jb.a, jb.k, ("E",) * jb.k)

    def lagrangian(P: _Prices, exact: bool):
        """The THEOREM's expression; Fractions with the float margins when ``exact``."""
        # share's rows are dualized: - M x their prices (SHARE ROWS)
        total = -M * (sum((Fraction(float(x)) for x in P.B.ravel()), Fraction(0)) if exact
                      else float(P.B.sum()))
        cols = []
        for j, jb in enumerate(jobs):
            C, size = _job_costs(jb, j, P)
            best = jb.best(C)
            cols.append(best)
            if exact:
                margin = FLOAT_MARGIN * (1.0 + T + float(size[:, 1:].max(axis=0).sum()))
                total += Fraction(best[0]) - Fraction(margin)
            else:
                total += best[0]
        cfgs = []
        for t in range(1, T + 1):
            idx, rc, size = _config_rc(lp, P, t)
            if not len(idx):
                continue
            tot = rc.sum(axis=1)
            lo = float(tot.min())
            if exact:
                lo -= FLOAT_MARGIN * (1.0 + float(size.sum(axis=1).max()))
                total += M * Fraction(min(0.0, lo))
            else:
                total += M * min(0.0, lo)
                # the LP's reduced cost adds the server price
                red = tot + P.pi[t]
                neg = np.flatnonzero(red < -1e-9)
                take = neg[np.argsort(red[neg])[:per_interval]]
                cfgs += [(int(idx[c]), t) for c in take]
        return total, cols, cfgs

    best_P, best_val, rounds, lpval = None, -math.inf, 0, None
    while rounds < max_rounds and time.perf_counter() - t0 < 0.6 * limit:
        res = lp.solve()
        rounds += 1
        if res is None:
            break
        price, lpval = res
        P = _Prices(lp, price)
        val, cols, cfgs = lagrangian(P, exact=False)
        if val > best_val:
            best_val, best_P = val, P
        added = sum(lp.add_job(i, s, n, modes) for i, (_, s, n, modes) in enumerate(cols))
        added += sum(lp.add_config(c, t) for c, t in cfgs)
        if not added or val >= lpval - 1e-9:
            break
    out.update(config_count=int(len(XW)), config_rounds=rounds,
               config_lp=None if lpval is None else lpval / len(jobs))
    if best_P is not None:
        total = lagrangian(best_P, exact=True)[0]
        out["config_value"] = float(total) / len(jobs)
        avg = float(math.ceil(total)) / len(jobs)
        if avg > out["bound"]:
            out.update(bound=avg, source="config")
    out["solve_s"] = time.perf_counter() - t0
    return out

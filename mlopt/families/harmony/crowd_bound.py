"""``crowd``: a crowding-aware certified lower bound on the optimal average JCT of Harmony
(seed 002).  It is :mod:`.share_bound`'s configuration LP with the shared modes split by how
crowded the job's busiest server is, and one more row per interval that charges the density
of shared servers: a job that shares with few foreign tasks holds a large share of each of
its servers, a job packed densely is slowed by every foreign task on its worst server.

Notation and Lemmas 1-3 are :mod:`.share_bound`'s (semantics: the checker's, :mod:`.checker`).
M role-"any" servers, K_r the checker's capacity with its tolerance, X_j = W_j + P_j tasks.

SLOTS.  S = min over resources r with dmin_r > 0 of floor(K_r / dmin_r), dmin_r the smallest
demand of any task (every job's worker, and PS when it has PSs) in r: no server hosts more
than S tasks in any interval (their float sum of demands within K_r).  No such r: S = inf.

LEMMA 4 (crowding).  In an interval t of j's run where j is shared (Lemma 1), let
c_j = max over the servers m hosting a task of j of the number of OTHER running jobs' tasks
on m (c_j >= 1: shared).  Then (a) each of those c_j tasks adds a term
``alpha[l_j, l_o] * count * weight`` to the checker's ``felt`` on that server, each at least
amin_j(t) * wmin (amin_j(t) = min of alpha[l_j, l_o] over the jobs o != j arrived by t: a
co-runner runs in t, so it has arrived; wmin = min(1, ps_weight)), and c_j is at most the
task count of those jobs (a higher level is impossible in t), so
``worst >= fl(c_j amin_j wmin) (1 - 1e-12)`` (float sums of non-negative terms are monotone
and lose at most a relative c 2^-53, far below the margin); with share's own single-term
bounds (delta_P, and delta_F when j's mode is F) and the spread penalty, the speed is at most
u_j(mode, c, t) = min(share's u_P or u_F over the same arrived jobs, speed_at(d_c + kappa)),
speed_at non-increasing;
(b) every server m of j holds n_m <= min(S, x_jm + c_j) tasks, x_jm of them j's.

LEMMA 5 (attributed servers).  In every interval t, give every task on a server m a share
1/n_m of it: over the used servers the shares sum to their number, at most M.  Job j's
shares sum to sum_m x_jm / n_m, which is
* >= g_j when j is exclusive (its servers hold only its tasks: one whole server each, and it
  needs >= g_j of them, Lemma 1);
* >= A_j(c_j) := the least sum_m x_m / min(S, x_m + c_j) over the ways to split X_j into
  parts 1 <= x_m <= S (Lemma 4b) when j is shared.  A_j is non-increasing in c; zero
  allocations need no case (a server without a task of j contributes nothing to j's sum, and
  one with x_jm >= 1 tasks is a part).
Hence sum_{excl j} g_j + sum_{shared j} A_j(c_j) <= M in every interval.

THEOREM.  A column of j is a run (s, n) (share's: a_j <= s, s + n - 1 <= T) and a mode per
interval: E, or P_c / F_c (share's P / F, split by c = 1..C_j; the last level C_j stands for
every c >= C_j and is charged A_j at S - 1 (0 when S = inf), its speed at C_j).  Usage: share's
rows (P_c as P, F_c as F) and the attributed row (g_j for E, A_j(c) for P_c / F_c); cost
s + n - a_j.  Every feasible schedule picks one column per job, within every row (Lemmas 3,
5), and its JCTs are the columns' costs; a column trains the epochs only if (Lemma 2, share's
rounding) the losses l_t = v_j - u_t of its intervals sum to at most
slack(n) = n v_j - fl(e_j - EPS) / (1 + n 2^-50).  The pricing relaxes this to
sum_t floor(l_t / unit) <= floor(slack(n) / unit), unit = v_j / 256 (implied by the exact
condition, so only more columns are admissible: a relaxation, the bound stays valid), lets
runs longer than k_j + 4 intervals take any mode possible in each interval (a further
relaxation: long runs are rarely cheapest, and their DP would need many loss units), and
finds the cheapest column by a DP over intervals and used loss units.  For ANY prices >= 0
the Lagrangian sum_j min_column(cost + priced usage) - M sum prices is a lower bound on the
sum of JCTs.  Certification: the prices are taken as the exact values of their floats, the
-M sum term is summed in Fractions, and each job's minimum, computed in floats, is lowered by
1e-9 (1 + T + sum_t max_mode priced cost of t), far above the float error of sums of at most
T + 10 terms; the total is rounded up to an integer (JCTs are integers) and averaged.  The
result is the max with :func:`.share_bound` (never below ``share``).

DECISIONS (paper silent, mlopt's): levels c up to min(S - 1, the other jobs' tasks, 8); the
loss unit v_j / 256 (a shared interval slowing j by less than 0.4% counts as free); column
generation for at most ``max_rounds`` rounds or until 60% of ``time_limit`` (share gets 30% of
it first); certified at the best prices seen, so a stopped run is valid, only weaker.

MEASURED (benchmarks/harmony/frontier.md): equal to ``share`` at ``uniform`` seeds 0-2 and on
the 10-job ``small`` instances: there the LP is bound by the GPU rows, and its shared
intervals have one foreign worker (level 1), which the attributed row lets every job have.
What it still ignores: who the co-runners are (the mildest possible one is charged per foreign
task), and that the foreign tasks crowding j's server are themselves shared jobs' tasks.
"""
from __future__ import annotations

import math
import time
from fractions import Fraction

import numpy as np

from mlopt.families.harmony.bounds import must_span, speed_at, standalone_bound
from mlopt.families.harmony.share_bound import (ROUND_ERR, ROWS, _Master, _prepare,
                                                generate_columns, share_first)
from mlopt.families.harmony.speed import RESOURCES, model_of
from mlopt.families.harmony.volume_bound import MARGIN, TOL
from mlopt.workload import Workload

ATTR = ("attr", "servers")  # Lemma 5's row
CROWD_ROWS = ROWS + (ATTR,)
MAX_LEVEL = 8
UNITS_PER_SPEED = 256
FLOAT_MARGIN = 1e-9
EXACT_EXTRA = 4  # runs up to k + 4 intervals priced with the loss DP, longer ones relaxed
INF = float("inf")
DISALLOWED = 1 << 40  # loss units of a mode impossible in an interval: above every budget


def slots_per_server(workload: Workload) -> float:
    """S of the module docstring: no server ever hosts more tasks (inf when no resource has
    a positive demand for every task)."""
    servers = [s for s in workload.servers if s.role == "any"]
    S = INF
    for r in RESOURCES:
        K = max((Fraction(s.capacity[r]) + TOL) * MARGIN for s in servers)
        demands = [Fraction(j.worker_demand[r]) for j in workload.jobs]
        demands += [Fraction(j.ps_demand[r]) for j in workload.jobs if int(j.extra["ps"]) > 0]
        dmin = min(demands)
        if dmin > 0:
            S = min(S, math.floor(K / dmin))
    return S


def attributed(X: int, c, S) -> Fraction:
    """A_j(c): the least sum of x / min(S, x + c) over the splits of X tasks into parts
    1 <= x <= S (Lemma 5); c = None: any c (the densest, n_m = S; 0 when S = inf)."""
    if c is None:
        return Fraction(0) if S == INF else Fraction(X, S)
    top = X if S == INF else min(S, X)
    best = [Fraction(0)] + [None] * X
    for total in range(1, X + 1):
        best[total] = min(Fraction(x, x + c if S == INF else min(S, x + c)) + best[total - x]
                          for x in range(1, min(top, total) + 1))
    return best[X]


class _CrowdJob:
    """One job's columns (module docstring: THEOREM): modes, their speeds, loss units and
    usage per row; ``best`` prices a job's cheapest column by a DP over used loss units."""

    def __init__(self, base, sm, job, others, S, must_spread):
        """``others``: (arrival, the checker's term alpha[l_j, l_o] * 1, tasks) per other job."""
        self.a, self.k, self.T, self.target = base.a, base.k, base.T, base.target
        T = self.T
        lj = sm.index(job.extra["model"])
        w = int(job.extra["workers"])
        X = w + int(job.extra["ps"])
        kap = sm.comm_penalty[lj] if must_spread else 0.0
        pw = float(sm.ps_weight)
        wmin = min(Fraction(1), Fraction(pw))
        cap = S - 1 if S != INF else MAX_LEVEL
        top = int(min(cap, sum(x for _, _, x in others), MAX_LEVEL)) if others else 0
        vE = base.speed["E"]
        self.speed, self.use = {"E": vE}, {"E": {**base.use["E"], ATTR: base.use["E"][ROWS[0]]}}
        for c in range(1, top + 1):
            last = c == top and (S == INF or c < S - 1)  # stands for every c >= top
            A = attributed(X, None if last and S == INF else (S - 1 if last else c), S)
            for kind in ("P", "F"):
                self.use[f"{kind}{c}"] = {**base.use[kind], ATTR: A}
        self.modes = ("E",) + tuple(m for m in self.use if m != "E")
        self.unit = vE / UNITS_PER_SPEED
        # loss units per (mode, interval): a co-runner runs in t, so it has arrived by t
        # (LEMMA 4 with the other jobs arrived by t); a level above their task count is
        # impossible in t (DISALLOWED)
        self.loss = np.full((len(self.modes), T + 1), DISALLOWED, dtype=np.int64)
        self.loss[0, :] = 0
        cache: dict = {}
        for t in range(1, T + 1):
            here = tuple(sorted((term, x) for a, term, x in others if a <= t))
            if here not in cache:
                cache[here] = self._losses(sm, lj, w, kap, pw, wmin, here, vE)
            self.loss[:, t] = cache[here]
        self.usage = np.array([[float(self.use[m][row]) for row in CROWD_ROWS]
                               for m in self.modes])
        self._su: dict[int, int] = {}

    def _losses(self, sm, lj, w, kap, pw, wmin, here, vE) -> np.ndarray:
        """Loss units of every mode when the other jobs in ``here`` (term, tasks) may run."""
        out = np.full(len(self.modes), DISALLOWED, dtype=np.int64)
        out[0] = 0
        if not here:
            return out
        terms = [term for term, _ in here]
        # share's single-term bounds (Lemma 1): the mildest PS, the mildest worker
        uP = min(Fraction(speed_at(sm, lj, w, min(x * pw for x in terms) + kap)), vE)
        uF = min(Fraction(speed_at(sm, lj, w, min(x * 1.0 for x in terms) + kap)), uP)
        amin = min(Fraction(x) for x in terms)
        most = sum(x for _, x in here)  # no more foreign tasks than these
        for mi, name in enumerate(self.modes[1:], start=1):
            c = int(name[1:])
            if c > most:
                continue
            d_c = float(c * amin * wmin * (1 - Fraction(1, 10**12)))  # Lemma 4a, rounded down
            u = min(uP if name[0] == "P" else uF, Fraction(speed_at(sm, lj, w, d_c + kap)))
            out[mi] = math.floor((vE - u) / self.unit)
        return out

    def slack_units(self, n: int) -> int:
        """floor(slack(n) / unit), -1 when n intervals cannot train the epochs at all."""
        if n not in self._su:
            slack = n * self.speed["E"] - self.target / (1 + n * ROUND_ERR)
            self._su[n] = math.floor(slack / self.unit) if slack >= 0 else -1
        return self._su[n]

    def best(self, C: np.ndarray):
        """(value, s, n, modes): the cheapest column at the priced mode costs ``C[mode, t]``
        (t 1-based), loss units relaxed as in the THEOREM; runs longer than k + EXACT_EXTRA
        intervals may take any mode in every interval (a further relaxation)."""
        a, k, T, loss = self.a, self.k, self.T, self.loss
        # per interval, the cheapest possible mode (relaxed long runs)
        Cok = np.where(loss[:, 1:] >= DISALLOWED, INF, C[:, 1:])
        cheapest, which = Cok.min(axis=0), Cok.argmin(axis=0)
        # the most a run from s can gain from negative mode costs (pair_bound's partner
        # prices; 0 when every cost is >= 0): a run's value >= its JCT + neg[s]
        neg = np.zeros(T + 2)
        neg[1:T + 1] = np.minimum(cheapest, 0.0)[::-1].cumsum()[::-1]
        best = (float(k) + float(C[0, a:a + k].sum()), a, k, ("E",) * k)
        n0 = k + EXACT_EXTRA
        s = a
        while s + k - a + neg[s] < best[0] and s + k - 1 <= T:
            nmax = min(T - s + 1, math.ceil(best[0] - (s - a) - neg[s]))
            U = max(self.slack_units(min(nmax, n0)), 0)
            dp = np.full(U + 1, INF)
            dp[0] = 0.0
            back = []
            free = 0.0
            for n in range(1, nmax + 1):
                if s + n - a + neg[s] >= best[0]:
                    break
                t = s + n - 1
                free += float(cheapest[t - 1])
                if n > n0:  # relaxed: any mode anywhere
                    val = (s + n - a) + free
                    if val < best[0]:
                        best = (val, s, n, tuple(self.modes[int(i)] for i in which[s - 1:t]))
                    continue
                new = np.full(U + 1, INF)
                arg = np.zeros(U + 1, dtype=np.int64)
                for mi, L in enumerate(loss[:, t]):
                    if L > U:
                        continue
                    cand = dp[:U + 1 - L] + C[mi, t]
                    better = cand < new[L:]
                    new[L:][better] = cand[better]
                    arg[L:][better] = mi
                dp = new
                back.append(arg)
                su = self.slack_units(n)
                if su < 0:
                    continue
                m = int(np.argmin(dp[:min(su, U) + 1]))
                val = (s + n - a) + float(dp[m])
                if val < best[0]:
                    modes = []
                    for arg_t in reversed(back):
                        mi = int(arg_t[m])
                        modes.append(self.modes[mi])
                        m -= int(loss[mi, s + n - len(modes)])  # the interval of arg_t
                    best = (val, s, n, tuple(reversed(modes)))
            s += 1
        return best

    def costs(self, B: np.ndarray) -> np.ndarray:
        """C[mode, t] = sum over rows of usage x price (column 0 unused, t 1-based)."""
        return self.usage @ B


def _prices(beta: dict, T: int) -> np.ndarray:
    B = np.zeros((len(CROWD_ROWS), T + 1))
    for ri, row in enumerate(CROWD_ROWS):
        B[ri, 1:] = beta[row]
    return B


def crowd_lagrangian(jobs, M, T, beta) -> Fraction:
    """The certified Lagrangian at ``beta`` (THEOREM: exact price sum, each job's float
    minimum lowered by its float-error margin)."""
    B = _prices(beta, T)
    total = -M * sum((Fraction(float(x)) for row in CROWD_ROWS for x in beta[row]), Fraction(0))
    for jb in jobs:
        C = jb.costs(B)
        margin = FLOAT_MARGIN * (1.0 + T + float(C.max(axis=0).sum()))
        total += Fraction(jb.best(C)[0]) - Fraction(margin)
    return total


def _prepare_crowd(workload: Workload, per_job):
    prep = _prepare(workload, per_job)
    if prep is None:
        return None
    base, M = prep
    sm = model_of(workload)
    S = slots_per_server(workload)
    alpha = sm.alpha
    tasks = [int(j.extra["workers"]) + int(j.extra["ps"]) for j in workload.jobs]
    out = []
    for i, (jb, job) in enumerate(zip(base, workload.jobs)):
        lj = sm.index(job.extra["model"])
        # per other job: its arrival, the checker's single term alpha * 1, its task count
        others = [(int(o.arrival), float(alpha[lj, sm.index(o.extra["model"])] * 1), tasks[n])
                  for n, o in enumerate(workload.jobs) if n != i]
        out.append(_CrowdJob(jb, sm, job, others, S, must_span(job, workload.servers)))
    return out, M


def crowd_bound(workload: Workload, *, threads: int | None = 1, time_limit: float | None = 60.0,
                max_rounds: int = 200, **_ignored) -> dict:
    """Certified lower bound on the optimal average JCT (module docstring: the theorem)."""
    t0 = time.perf_counter()
    out, limit = share_first(workload, threads=threads, time_limit=time_limit,
                             max_rounds=max_rounds)
    prep = _prepare_crowd(workload, standalone_bound(workload)["per_job"]) \
        if workload.jobs else None
    if prep is None:
        return {**out, "solve_s": time.perf_counter() - t0}
    jobs, M = prep
    T = int(workload.horizon)
    master = _Master(jobs, M, T, threads or 1, rows=CROWD_ROWS)
    best_beta, lp, rounds = generate_columns(
        master, lambda jb, beta: jb.best(jb.costs(_prices(beta, T))), t0, 0.6 * limit,
        max_rounds)
    total = crowd_lagrangian(jobs, M, T, best_beta)
    avg = float(math.ceil(total)) / len(jobs)
    out.update(crowd_value=float(total) / len(jobs),
               crowd_lp=None if lp is None else lp / len(jobs), crowd_rounds=rounds,
               solve_s=time.perf_counter() - t0)
    if avg > out["bound"]:
        out.update(bound=avg, source="crowd")
    return out

"""``pair``: a pairing-aware certified lower bound on the optimal average JCT of Harmony
(seed 002).  It is :mod:`.share_bound`'s configuration LP with every shared mode naming the
model type of a co-runner, and one row per (job, type, interval) saying that a co-runner of
that type really shares with it: the co-runner is itself a shared job then, slowed by the pair
too.  ``share`` lets each sharing job pair with the mildest co-runner in the instance whether or
not such a job runs, or shares, then (frontier.md, 2026-11-29: the LP's sharing jobs each took
their own mildest partner, a wlm or resnet PS, while the partner paid nothing).

Notation and Lemmas 1-3 are :mod:`.share_bound`'s (semantics: the checker's, :mod:`.checker`);
the pricing DP and its certification are :mod:`.crowd_bound`'s.

LEMMA P (named partner).  Let j be shared in interval t (Lemma 1).  Choose a running job
o != j with a task on a server m hosting a task of j: if some server of j hosts a worker of
another running job, choose o among those (mode F:b, b = l_o), else any (mode P:b; then no
server of j hosts a foreign worker, as share's P).  Then
(a) the checker's ``felt`` of j on m is a float sum of non-negative terms one of which is
    ``alpha[l_j, b] * c * w`` with c >= 1 and w = 1 (F) or ps_weight (P), so, float sums and
    products being monotone, ``worst >= alpha[l_j, b] * 1 * w`` and j's speed is at most
    u_j(F:b) = speed_at(alpha[l_j, b] * 1 + kappa) (u_j(P:b) with ps_weight), kappa the spread
    penalty when j must span; these are <= share's u_F / u_P (its mildest term is a minimum
    over the same terms), so share's usage and Lemma 3 hold unchanged;
(b) o runs in t (so it has arrived by t: a type with no other job arrived by t is impossible
    in t) and m hosts a task of j, a running job other than o: o is shared in t.
Hence in every interval t, for every job j and type b:
    [j is in mode P:b or F:b]  <=  sum over jobs o != j of type b of [o is shared in t].  (PAIR)
Zero allocations need no case (a job not running is in no mode and is counted nowhere), a lone
job has no shared mode at all, unequal servers enter only through share's K_r (the largest
capacity) and the checker's tolerances through share's and crowd's margins.

THEOREM.  A column of j is a run (s, n) with a mode per interval (E, P:b or F:b); usage:
share's rows (P:b as P, F:b as F) and the PAIR rows (+1 in row (j, b, t) for a shared
interval naming b, -1 in every row (i, l_j, t), i != j, for any shared interval of j); cost
s + n - a_j.  By Lemma P and share's Lemmas every feasible schedule picks one column per job
within all rows; the PAIR rows have right-hand side 0, so for ANY prices beta >= 0 (share's
rows) and mu >= 0 (PAIR rows)

    sum_j JCT_j >= sum_j min_column (cost + priced usage) - M sum beta.

A shared interval of j now also *earns* the prices mu of the jobs naming j's type, so mode
costs may be negative: the pricing DP (crowd's) stops a run's extension only when its JCT plus
the most it could still earn reaches the best value, which keeps it exact.  Certification as
crowd's: prices are the exact values of their floats, the beta sum is taken in Fractions, and
each job's float minimum is lowered by 1e-9 (1 + T + sum_t of the largest absolute term of a
mode's cost in t), far above the float error of its sums; rounded up (JCTs are integers) and
averaged; the max with ``share`` is returned.

DECISIONS (paper silent, mlopt's): partner types are the model types (jobs of a type are
interchangeable partners in Lemma P); loss units, long-run relaxation and the time split are
crowd's (share gets 30% of ``time_limit`` first, column generation until 60% of it or
``max_rounds``); certified at the best prices seen, so a stopped run is valid, only weaker.
What it still ignores: how many jobs one partner can serve (PAIR asks for one shared job of
the type, however many name it), and packing beyond share's server counts.
"""
from __future__ import annotations

import math
import time
from fractions import Fraction

import numpy as np

from mlopt.families.harmony.bounds import must_span, speed_at, standalone_bound
from mlopt.families.harmony.crowd_bound import (DISALLOWED, FLOAT_MARGIN, UNITS_PER_SPEED,
                                                _CrowdJob)
from mlopt.families.harmony.share_bound import ROWS, _Master, _prepare, generate_columns, \
    share_first
from mlopt.families.harmony.speed import model_of
from mlopt.workload import Workload


class _PairJob(_CrowdJob):
    """One job's modes (E, P:b, F:b), their loss units per interval and share's usage; the
    DP (``best``) and slack are crowd's."""

    def __init__(self, base, sm, job, others, must_spread):
        """``others``: (arrival, type index) of every other job."""
        self.a, self.k, self.T, self.target = base.a, base.k, base.T, base.target
        T = self.T
        self.lj = lj = sm.index(job.extra["model"])
        w = int(job.extra["workers"])
        kap = sm.comm_penalty[lj] if must_spread else 0.0
        alpha = sm.alpha
        vE = base.speed["E"]
        types = sorted({b for _, b in others})
        self.speed, self.use, self.partner = {"E": vE}, {"E": base.use["E"]}, [None]
        names = ["E"]
        for b in types:
            term = alpha[lj, b] * 1  # the checker's term, count 1 (Lemma P a)
            uP = min(Fraction(speed_at(sm, lj, w, term * sm.ps_weight + kap)), vE)
            uF = min(Fraction(speed_at(sm, lj, w, term * 1.0 + kap)), uP)
            for kind, u in (("P", uP), ("F", uF)):
                name = f"{kind}:{sm.models[b]}"
                names.append(name)
                self.speed[name], self.use[name] = u, base.use[kind]
                self.partner.append(b)
        self.modes = tuple(names)
        self.unit = vE / UNITS_PER_SPEED
        # loss units per (mode, interval); a partner type none of whose other jobs has
        # arrived by t is impossible in t (Lemma P b)
        self.loss = np.full((len(self.modes), T + 1), DISALLOWED, dtype=np.int64)
        self.loss[0, :] = 0
        first = {b: min(a for a, bb in others if bb == b) for b in types}
        for mi, (name, b) in enumerate(zip(self.modes, self.partner)):
            if b is None:
                continue
            units = math.floor((vE - self.speed[name]) / self.unit)  # rounded down: relaxed
            self.loss[mi, max(first[b], 1):] = units
        self.usage = np.array([[float(self.use[m][row]) for row in ROWS] for m in self.modes])
        self.shared = np.array([b is not None for b in self.partner])
        self._su: dict[int, int] = {}


class _PairMaster(_Master):
    """share's restricted LP plus the PAIR rows (row (i, b, t) <= 0)."""

    def __init__(self, jobs, M, T, threads):
        super().__init__(jobs, M, T, threads, rows=ROWS)
        keys = [(i, b, t) for i, jb in enumerate(jobs) for b in sorted(set(jb.partner) - {None})
                for t in range(1, T + 1)]
        start = self.h.getNumRow()
        self.prow = {key: start + n for n, key in enumerate(keys)}
        if keys:
            inf = self.hs.kHighsInf
            self.h.addRows(len(keys), np.full(len(keys), -inf), np.zeros(len(keys)), 0,
                           np.zeros(0, dtype=np.int32), np.zeros(0, dtype=np.int32),
                           np.zeros(0))
        # who names type b in interval t: rows (i, b, t) per type, for the -1 entries
        self.namers: dict = {}
        for (i, b, t) in keys:
            self.namers.setdefault((b, t), []).append(i)

    def _more_entries(self, i, s, n, modes, index, value):
        jb = self.jobs[i]
        for t, mode in zip(range(s, s + n), modes):
            b = jb.partner[jb.modes.index(mode)]
            if b is None:
                continue
            index.append(self.prow[(i, b, t)])
            value.append(1.0)
            for o in self.namers.get((jb.lj, t), ()):
                if o != i:
                    index.append(self.prow[(o, jb.lj, t)])
                    value.append(-1.0)

    def solve(self):
        res = super().solve()
        if res is None:
            return None
        beta, lp = res
        dual = np.asarray(self.h.getSolution().row_dual, dtype=float)
        beta["mu"] = {key: max(0.0, -float(dual[r])) for key, r in self.prow.items()}
        return beta, lp


def _terms(jobs, beta, T):
    """Per job, the mode-cost matrices at the prices, split into the usage part and the PAIR
    part: (usage C_u, own mu per mode, earned mu per interval), all floats."""
    B = np.zeros((len(ROWS), T + 1))
    for ri, row in enumerate(ROWS):
        B[ri, 1:] = beta[row]
    mu = beta.get("mu", {})
    ntypes = max((jb.lj for jb in jobs), default=0) + 1
    ntypes = max([ntypes] + [b + 1 for jb in jobs for b in jb.partner if b is not None])
    total = np.zeros((ntypes, T + 1))  # sum over namers i of mu[i, b, t]
    for (i, b, t), x in mu.items():
        total[b, t] += x
    out = []
    for i, jb in enumerate(jobs):
        Cu = jb.usage @ B
        own = np.zeros_like(Cu)
        for mi, b in enumerate(jb.partner):
            if b is not None:
                own[mi, 1:] = [mu.get((i, b, t), 0.0) for t in range(1, T + 1)]
        earn = total[jb.lj].copy()
        for t in range(1, T + 1):
            earn[t] -= mu.get((i, jb.lj, t), 0.0)
        out.append((Cu, own, earn))
    return out


def _costs(jb, Cu, own, earn) -> np.ndarray:
    return Cu + own - np.where(jb.shared[:, None], earn[None, :], 0.0)


def pair_lagrangian(jobs, M, T, beta) -> Fraction:
    """The certified Lagrangian at ``beta`` (THEOREM)."""
    total = -M * sum((Fraction(float(x)) for row in ROWS for x in beta[row]), Fraction(0))
    for jb, (Cu, own, earn) in zip(jobs, _terms(jobs, beta, T)):
        size = np.abs(Cu) + own + np.where(jb.shared[:, None], np.abs(earn)[None, :], 0.0)
        margin = FLOAT_MARGIN * (1.0 + T + float(size.max(axis=0).sum()))
        total += Fraction(jb.best(_costs(jb, Cu, own, earn))[0]) - Fraction(margin)
    return total


def _prepare_pair(workload: Workload, per_job):
    prep = _prepare(workload, per_job)
    if prep is None:
        return None
    base, M = prep
    sm = model_of(workload)
    kinds = [sm.index(j.extra["model"]) for j in workload.jobs]
    out = [_PairJob(jb, sm, job,
                    [(int(o.arrival), kinds[n]) for n, o in enumerate(workload.jobs) if n != i],
                    must_span(job, workload.servers))
           for i, (jb, job) in enumerate(zip(base, workload.jobs))]
    return out, M


def pair_bound(workload: Workload, *, threads: int | None = 1, time_limit: float | None = 60.0,
               max_rounds: int = 200, **_ignored) -> dict:
    """Certified lower bound on the optimal average JCT (module docstring: the theorem)."""
    t0 = time.perf_counter()
    out, limit = share_first(workload, threads=threads, time_limit=time_limit,
                             max_rounds=max_rounds)
    prep = _prepare_pair(workload, standalone_bound(workload)["per_job"]) \
        if workload.jobs else None
    if prep is None:
        return {**out, "solve_s": time.perf_counter() - t0}
    jobs, M = prep
    T = int(workload.horizon)
    master = _PairMaster(jobs, M, T, threads or 1)

    def price(jb, beta, cache={}):
        # the terms of all jobs depend on all mu: computed once per price vector
        if cache.get("beta") is not beta:
            cache.update(beta=beta, terms=_terms(jobs, beta, T))
        return jb.best(_costs(jb, *cache["terms"][jobs.index(jb)]))

    best_beta, lp, rounds = generate_columns(master, price, t0, 0.6 * limit, max_rounds)
    total = pair_lagrangian(jobs, M, T, best_beta)
    avg = float(math.ceil(total)) / len(jobs)
    out.update(pair_value=float(total) / len(jobs),
               pair_lp=None if lp is None else lp / len(jobs), pair_rounds=rounds,
               solve_s=time.perf_counter() - t0)
    if avg > out["bound"]:
        out.update(bound=avg, source="pair")
    return out

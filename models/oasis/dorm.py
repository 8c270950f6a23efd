"""Dorm's per-event resource-partitioning MILP, as used for the Dorm baseline of OASiS.

Source: seed 000 (OASiS, INFOCOM'18), Sec. V-A (iv): "upon job arrival or completion, numbers
and placement of workers/parameter servers of unfinished jobs are recomputed by an MILP resource
utilization maximization problem, subject to fairness and adjustment overhead constraints"
(Dorm, the paper's ref. [18]).  The cluster constraints are OASiS's (3)-(7) for one slot.

Data (one re-solve): the workload (servers, job demands) and, per active job j, a
:class:`DormJob`: its fairness band ``[lo_j, hi_j]`` on the worker count (computed by the caller
from the job's fair dominant share, see :mod:`mlopt.families.oasis.baselines.dorm`), and its previous
placement (empty for a job that held nothing).

Variables: ``y[j,h]`` workers of job j on worker-hosting server h, ``z[j,k]`` PSs of job j on
PS-hosting server k (non-negative integers, bounded by N_j and by how many fit the empty server;
created only where at least one fits), ``adjust[j]`` (binary, only for jobs that held an
allocation): 1 when job j's allocation may differ from its previous one.  ``Y_j``/``Z_j`` are the
totals.

Objective ``utilization``: maximize the mean over resources r (with worker-pool capacity
``Cw^r > 0``) of the fraction of the worker pool's r used by workers,
``(1/|R+|) sum_r sum_j w_j^r Y_j / Cw^r``, minus tiny penalties per PS (so PSs are not
over-provisioned) and per adjustment (so nothing moves without a gain); both penalties are below
the value of one worker of any job.  PS-pool usage is implied by (6).

Constraints:

* ``c3_max_workers[j]``: ``Y_j <= N_j``.
* ``c4c5_capacity[s,r]``: per physical server and resource, workers (if s hosts workers) plus
  PSs (if s hosts PSs) fit its capacity -- OASiS (4)/(5); a role-``any`` server shares one
  capacity between both.
* ``c6_ps_bandwidth[j]``: ``b_j Y_j <= B_j Z_j``.
* ``c7_ps_le_workers[j]``: ``Z_j <= Y_j``.
* ``fair_lower[j]``, ``fair_upper[j]``: ``lo_j <= Y_j <= hi_j`` (fairness: the job's dominant
  share within a factor of its fair share, rounded outwards to whole workers).  For an *exempt*
  job -- one whose unchanged previous allocation completes it in this slot -- the band only
  applies if it is adjusted: ``Y_j >= lo_j adjust_j`` and ``Y_j <= hi_j + (N_j - hi_j)(1 -
  adjust_j)``.
* ``keep_workers_off[j]``, ``keep_workers_down/up[j,h]`` (and ``keep_ps_*``): with
  ``adjust_j = 0`` the placement equals the previous one: nothing on servers the job did not
  use (``sum y <= N_j adjust_j`` over those), and ``prev (1 - adjust_j) <= y <= prev + (ub -
  prev) adjust_j`` on the ones it used.
* ``adjustment_budget``: ``sum_j adjust_j <= max_adjust``: at most that many jobs that held an
  allocation change it (count, placement, or pause) per re-solve.  Jobs holding nothing (new or
  waiting) are not counted: starting them is not an adjustment.

A pure builder: it never solves.  :func:`extract_dorm` reads the (rounded) placements back.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Mapping, Sequence

import pyomo.environ as pyo

from mlopt.workload import Workload


@dataclass(frozen=True)
class DormJob:
    index: int  # position of the job in workload.jobs
    lo: int  # fairness band on the worker count
    hi: int
    prev_workers: Mapping[int, int] = field(default_factory=dict)  # server index -> count
    prev_ps: Mapping[int, int] = field(default_factory=dict)
    exempt: bool = False  # unchanged previous allocation completes the job in this slot

    @property
    def has_prev(self) -> bool:
        """Whether the job held any workers in the previous allocation."""
        return any(c > 0 for c in self.prev_workers.values())


def _max_count(capacity: Mapping[str, float], demand: Mapping[str, float], resources) -> int:
    counts = [math.floor(capacity[r] / demand[r] + 1e-9) for r in resources if demand[r] > 0]
    return max(0, min(counts)) if counts else 0


def build_dorm(workload: Workload, jobs: Sequence[DormJob], *, max_adjust: int,
               ps_penalty: float | None = None,
               adjust_penalty: float | None = None) -> pyo.ConcreteModel:
    """The Dorm re-solve MILP for the active ``jobs`` (see module docstring)."""
    res = list(workload.resources)
    servers = workload.servers
    H = [int(h) for h in workload.arrays.worker_servers]
    K = [int(k) for k in workload.arrays.ps_servers]
    J = list(range(len(jobs)))
    spec = {j: workload.jobs[jobs[j].index] for j in J}
    cw = {r: sum(servers[h].capacity[r] for h in H) for r in res}
    rplus = [r for r in res if cw[r] > 0]
    gain = {j: sum(spec[j].worker_demand[r] / cw[r] for r in rplus) / max(1, len(rplus))
            for j in J}
    unit = min([g for g in gain.values() if g > 0], default=1.0)
    ps_penalty = 1e-3 * unit if ps_penalty is None else ps_penalty
    adjust_penalty = 1e-3 * unit if adjust_penalty is None else adjust_penalty

    # Placement variables exist only where one worker (PS) of the job fits the server.
    ub_y = {(j, h): min(spec[j].chunks, _max_count(servers[h].capacity, spec[j].worker_demand,
                                                   res)) for j in J for h in H}
    ub_z = {(j, k): min(spec[j].chunks, _max_count(servers[k].capacity, spec[j].ps_demand, res))
            for j in J for k in K}
    ub_y = {key: u for key, u in ub_y.items() if u > 0}
    ub_z = {key: u for key, u in ub_z.items() if u > 0}
    for j in J:
        stray = [h for h, c in jobs[j].prev_workers.items() if c > 0 and (j, h) not in ub_y] + \
            [k for k, c in jobs[j].prev_ps.items() if c > 0 and (j, k) not in ub_z]
        if stray:
            raise ValueError(f"job {spec[j].id}: previous placement on server(s) {stray} where "
                             "it does not fit")

    m = pyo.ConcreteModel(name="dorm")
    m.J = pyo.Set(initialize=J, ordered=True)
    m.S = pyo.Set(initialize=sorted(set(H) | set(K)), ordered=True)
    m.R = pyo.Set(initialize=res, ordered=True)
    m.JH = pyo.Set(dimen=2, initialize=sorted(ub_y), ordered=True)
    m.JK = pyo.Set(dimen=2, initialize=sorted(ub_z), ordered=True)
    m.A = pyo.Set(initialize=[j for j in J if jobs[j].has_prev], ordered=True)
    hosts_of = {j: [h for (jj, h) in ub_y if jj == j] for j in J}
    ps_hosts_of = {j: [k for (jj, k) in ub_z if jj == j] for j in J}

    m.y = pyo.Var(m.JH, domain=pyo.NonNegativeIntegers, bounds=lambda m, j, h: (0, ub_y[j, h]))
    m.z = pyo.Var(m.JK, domain=pyo.NonNegativeIntegers, bounds=lambda m, j, k: (0, ub_z[j, k]))
    m.adjust = pyo.Var(m.A, domain=pyo.Binary)
    m.Y = pyo.Expression(m.J, rule=lambda m, j: sum(m.y[j, h] for h in hosts_of[j]))
    m.Z = pyo.Expression(m.J, rule=lambda m, j: sum(m.z[j, k] for k in ps_hosts_of[j]))

    # (3) no more concurrent workers than data chunks.
    m.c3_max_workers = pyo.Constraint(m.J, rule=lambda m, j: m.Y[j] <= spec[j].chunks)

    # (4)/(5) what the workers and PSs placed on a server use fits its capacity.
    def capacity(m, s, r):
        terms = [spec[j].worker_demand[r] * m.y[j, s] for j in J
                 if (j, s) in ub_y and spec[j].worker_demand[r] > 0]
        terms += [spec[j].ps_demand[r] * m.z[j, s] for j in J
                  if (j, s) in ub_z and spec[j].ps_demand[r] > 0]
        if not terms:
            return pyo.Constraint.Skip
        return sum(terms) <= servers[s].capacity[r]

    m.c4c5_capacity = pyo.Constraint(m.S, m.R, rule=capacity)

    # (6) the PSs' bandwidth covers the workers' bandwidth.
    m.c6_ps_bandwidth = pyo.Constraint(
        m.J, rule=lambda m, j: spec[j].worker_bandwidth * m.Y[j]
        <= spec[j].ps_bandwidth * m.Z[j])
    # (7) no more PSs than workers.
    m.c7_ps_le_workers = pyo.Constraint(m.J, rule=lambda m, j: m.Z[j] <= m.Y[j])

    # Fairness: worker count within the job's band (waived for an unchanged exempt job).
    def fair_lower(m, j):
        if jobs[j].lo <= 0:
            return pyo.Constraint.Skip
        if jobs[j].exempt and j in m.A:
            return m.Y[j] >= jobs[j].lo * m.adjust[j]
        return m.Y[j] >= jobs[j].lo

    def fair_upper(m, j):
        hi, n = jobs[j].hi, spec[j].chunks
        if hi >= n:
            return pyo.Constraint.Skip
        if jobs[j].exempt and j in m.A:
            return m.Y[j] <= hi + (n - hi) * (1 - m.adjust[j])
        return m.Y[j] <= hi

    m.fair_lower = pyo.Constraint(m.J, rule=fair_lower)
    m.fair_upper = pyo.Constraint(m.J, rule=fair_upper)

    # Adjustment overhead: without adjust[j] the placement stays exactly as it was -- nothing
    # on servers the job did not use, exactly the previous count on those it used.
    prev_w = {(j, h): int(c) for j in J for h, c in jobs[j].prev_workers.items() if c > 0}
    prev_p = {(j, k): int(c) for j in J for k, c in jobs[j].prev_ps.items() if c > 0}
    m.PW = pyo.Set(dimen=2, initialize=sorted(prev_w), ordered=True)
    m.PP = pyo.Set(dimen=2, initialize=sorted(prev_p), ordered=True)
    def keep_off(var, hosts, prev):
        def rule(m, j):
            new_hosts = [h for h in hosts[j] if (j, h) not in prev]
            if not new_hosts:
                return pyo.Constraint.Skip
            return sum(var[j, h] for h in new_hosts) <= spec[j].chunks * m.adjust[j]
        return rule

    m.keep_workers_off = pyo.Constraint(m.A, rule=keep_off(m.y, hosts_of, prev_w))
    m.keep_workers_down = pyo.Constraint(
        m.PW, rule=lambda m, j, h: m.y[j, h] >= prev_w[j, h] * (1 - m.adjust[j]))
    m.keep_workers_up = pyo.Constraint(
        m.PW, rule=lambda m, j, h: m.y[j, h]
        <= prev_w[j, h] + max(ub_y[j, h] - prev_w[j, h], 0) * m.adjust[j])
    m.keep_ps_off = pyo.Constraint(m.A, rule=keep_off(m.z, ps_hosts_of, prev_p))
    m.keep_ps_down = pyo.Constraint(
        m.PP, rule=lambda m, j, k: m.z[j, k] >= prev_p[j, k] * (1 - m.adjust[j]))
    m.keep_ps_up = pyo.Constraint(
        m.PP, rule=lambda m, j, k: m.z[j, k]
        <= prev_p[j, k] + max(ub_z[j, k] - prev_p[j, k], 0) * m.adjust[j])
    if len(m.A):
        m.adjustment_budget = pyo.Constraint(
            expr=sum(m.adjust[j] for j in m.A) <= int(max_adjust))

    # Utilization of the worker pool, minus tie-breaking penalties.
    m.utilization = pyo.Objective(
        expr=sum(gain[j] * m.Y[j] for j in J)
        - ps_penalty * sum(m.Z[j] for j in J)
        - adjust_penalty * sum(m.adjust[j] for j in m.A),
        sense=pyo.maximize)
    return m


def extract_dorm(model: pyo.ConcreteModel) -> list[tuple[dict[int, int], dict[int, int]]]:
    """Per job (in the order given to :func:`build_dorm`): (workers, PSs) by server index."""
    out = []
    for j in model.J:
        w = {h: int(round(pyo.value(model.y[jj, h]))) for jj, h in model.JH if jj == j}
        p = {k: int(round(pyo.value(model.z[jj, k]))) for jj, k in model.JK if jj == j}
        out.append(({h: c for h, c in w.items() if c}, {k: c for k, c in p.items() if c}))
    return out

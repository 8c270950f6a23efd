"""``jct_step``: the pinned total-JCT MILP of :mod:`.jct_milp` with a tighter completion
linearization, identical-worker symmetry breaking and an optional ``pool_lb`` objective cut
(issue 21: exact reach at 100 jobs).  Same variables k, u, zeta, n, y and c as ``jct_milp``
(so its warm-start encoder and schedule extractor serve both); same optimum (tested).

What changes, and why each row is valid for every integer solution of ``jct_milp`` that the
minimization can reach (c_j = the job's completion):

* **Completion floor F_j.**  A job with a cloud chunk finishes at H_j or later (the cloud
  trains it from r_j + Delta_jc for p_cloud <= p_edge slots); a job entirely on the edge
  finishes no earlier than E_j, the makespan of its D_j chunks alone on its eligible workers
  (each worker from its server's data arrival, chunks back to back; earliest-finish list
  scheduling is optimal for equal chunks).  So c_j >= F_j = min(E_j, H_j), and with u_j (a
  cloud chunk) c_j >= E_j + (H_j - E_j) u_j when E_j < H_j.
* **Step variables instead of big-M.**  ``jct_milp`` has c_j >= t y_jw(t), whose LP relaxation
  is worthless (LP 20 against a best schedule of 607 at 100 jobs).  Here z_j(t) in {0, 1} for
  t in (F_j, H_j] says "j still trains at t or later": z non-increasing in t, y_jw(t) <= z_j(t),
  u_j <= z_j(t) (a cloud chunk keeps the job busy to H_j), c_j >= F_j + sum_t z_j(t).  In an
  integer solution this is exactly c_j >= last trained slot; in the LP, z_j(t) >= max_{tau >= t}
  y_jw(tau).  Option ``tight`` (default) adds two rows that raise that LP (issue 21, seed 1 of
  the 100-job shape: 418.9 -> 432.7 against a best schedule of 449): under dominance a cloud
  job has no edge slot, so
  y_jw(t) + u_j <= z_j(t) (u_j = 1 forces n_j. = 0, hence y = 0, and z_j(t) = 1 to H_j); and
  sum_w y_jw(t) <= m_j (z_j(t) - u_j), m_j = min(D_j, the workers j may use), since each slot a
  worker trains one chunk and j has D_j chunks (without dominance: y <= z, sum_w y <= m_j z).
  In the LP the first stops a half-cloud job from training its edge half "for free" under the
  u_j part of z; the second makes z pay for parallel edge slots.  Plus y_jw(t) <= n_jw (no
  slot on a worker without chunks there) and the per-worker floor
  c_j >= s_jw - 1 + p0_j n_jw (n_jw chunks back to back from the data arrival s_jw), which
  ``tight`` lifts by u_j under dominance: + (H_j - s_jw + 1) u_j (u_j = 1: n_jw = 0 and
  c_j = H_j); the lift takes that LP to 433.5.
* **Symmetry.**  Workers of one type on one server are identical (same delays, same
  eligibility), so any schedule can relabel them so that their loads sum_j p0_j n_jw are
  non-increasing in worker order: rows load(w) >= load(w') for consecutive identical workers.
  The warm-start encoder relabels a schedule's workers the same way (:mod:`.warmstart`).
* **Objective cut** (``pool_cut``): total JCT >= ceil(pool_lb), a certified bound on every
  feasible schedule (:mod:`mlopt.families.edgecloud.pool_bound`), so on every solution here.
  Off by default since the ``tight`` rows: their LP is above pool_lb on every 100-job seed
  measured (433.5 / 584.7 / 479.4 against 393 / 548 / 447), and on edgecloud-tiny-2 the
  dense row made HiGHS 2-3x slower (0.11 s against 0.03 s, median of 7).
* **Dominance** (``dominance``): a job that trains on the edge at slot H_j or later, or has a
  cloud chunk, finishes at H_j or later; moving it entirely to the cloud finishes it at H_j
  and frees its edge slots, so some optimum has every edge slot of j at <= H_j - 1 and every
  job either entirely on the edge or entirely in the cloud (k_j = D_j u_j, zeta_j = u_j).
  These rows cut off feasible schedules, never the optimum value: the model is exact for OPT
  (tested equal to ``jct_milp``), not a description of every schedule.

The big-M rows c2j_completion of ``jct_milp`` are dropped (implied in integer solutions by the
step rows); c2j_cloud_completion (mixed jobs finish at L0) is kept.
"""
from __future__ import annotations

import heapq
import math
from collections import defaultdict

import pyomo.environ as pyo

from mlopt.workload import Workload

from mlopt.families.edgecloud.fields import EdgeCloud, JobView
from mlopt.models.edgecloud.common import _groups
from mlopt.models.edgecloud.jct_milp import build_jct_milp, extract_schedule  # noqa: F401


def edge_makespan(ec: EdgeCloud, jv: JobView) -> int:
    """E_j: the last slot of job j run alone on its eligible edge workers (chunks back to
    back on each worker from its server's data arrival; each chunk to the worker where it
    finishes first)."""
    heap = [ec.start(jv, w.server) for w in ec.eligible(jv)]
    heapq.heapify(heap)
    last = 0
    for _ in range(jv.chunks):
        t = heapq.heappop(heap)
        last = max(last, t + jv.p_edge - 1)
        heapq.heappush(heap, t + jv.p_edge)
    return last


def _before_cloud(ec: EdgeCloud, jv: JobView) -> int:
    """The last edge slot the dominance rule keeps for job j: H_j - 1."""
    return ec.horizon_bound(jv) - 1


def completion_floor(ec: EdgeCloud, jv: JobView) -> int:
    """F_j = min(E_j, H_j): no schedule finishes job j before it."""
    return min(edge_makespan(ec, jv), ec.horizon_bound(jv))


def build_jct_step(workload: Workload, *, symmetry: bool = True, pool_cut: bool = False,
                   dominance: bool = True, tight: bool = True) -> pyo.ConcreteModel:
    """The pinned total-JCT MILP with step-indexed completions (module docstring)."""
    m = build_jct_milp(workload, last_edge_slot=_before_cloud if dominance else None)
    m.name = "edgecloud_jct_step"
    ec: EdgeCloud = m._ec
    m.del_component(m.c2j_completion)
    H = {jv.index: ec.horizon_bound(jv) for jv in ec.jobs}
    E = {jv.index: edge_makespan(ec, jv) for jv in ec.jobs}
    F = {j: min(E[j], H[j]) for j in H}
    for j in H:
        m.c[j].setlb(F[j])
    p0 = {jv.index: jv.p_edge for jv in ec.jobs}
    D = {jv.index: jv.chunks for jv in ec.jobs}
    Z = [(j, t) for j in sorted(H) for t in range(F[j] + 1, H[j] + 1)]
    m.Z = pyo.Set(initialize=Z, dimen=2)
    m.z = pyo.Var(m.Z, domain=pyo.Binary)  # j trains at slot t or later
    zset = set(Z)
    m.step_monotone = pyo.Constraint(
        [(j, t) for (j, t) in Z if (j, t + 1) in zset],
        rule=lambda m, j, t: m.z[j, t + 1] <= m.z[j, t])
    m.step_completion = pyo.Constraint(m.J, rule=lambda m, j: m.c[j] >= F[j] + sum(
        m.z[j, t] for t in range(F[j] + 1, H[j] + 1)))
    m.step_cloud = pyo.Constraint(m.Z, rule=lambda m, j, t: m.u[j] <= m.z[j, t])
    # tight (under dominance): a cloud job has no edge slot, so y + u <= z (else y <= z)
    cloud = (lambda m, j: m.u[j]) if dominance and tight else (lambda m, j: 0)
    m.step_edge = pyo.Constraint(
        [(j, w, t) for (j, w, t) in m.JWT if t > F[j]],
        rule=lambda m, j, w, t: m.y[j, w, t] + cloud(m, j) <= m.z[j, t])
    if tight:  # at most m_j = min(D_j, its workers) edge slots of j per slot, none once done
        by_jt = defaultdict(list)
        for (j, w, t) in m.JWT:
            if t > F[j]:
                by_jt[(j, t)].append(w)
        workers = defaultdict(set)
        for (j, w) in m.JW:
            workers[j].add(w)
        width = {j: min(D[j], len(workers[j])) for j in H}
        m.step_width = pyo.Constraint(sorted(by_jt), rule=lambda m, j, t: sum(
            m.y[j, w, t] for w in by_jt[(j, t)]) <= width[j] * (m.z[j, t] - cloud(m, j)))
    m.slot_needs_chunk = pyo.Constraint(m.JWT, rule=lambda m, j, w, t: m.y[j, w, t]
                                        <= m.n[j, w])
    first = {}
    for (j, w, t) in m.JWT:
        first[(j, w)] = min(t, first.get((j, w), t))
    # n_jw chunks back to back from the data arrival s_jw: c_j >= s_jw - 1 + p0_j n_jw when
    # n_jw >= 1, but a job with no chunk on w may finish before s_jw (found by an independent
    # review: c_j >= s_jw - 1 at n_jw = 0 cut off the optimum when w's data arrives late).  The
    # row is the line through (0, F_j) and (D_j, s_jw - 1 + p0_j D_j): below that floor at every
    # n_jw in 1..D_j when F_j <= s_jw - 1 (both linear on 1..D_j, equal at D_j, and at 1 it
    # reduces to F_j <= s_jw - 1), and c_j >= F_j always; otherwise s_jw - 1 < F_j and the plain
    # floor is valid at n_jw = 0 too.  tight lifts it by u_j under dominance (a cloud job has
    # n_j. = 0 and finishes at H_j).
    def floor(m, j, w):
        s = first[(j, w)]
        if F[j] <= s - 1:
            row = F[j] + (s - 1 + p0[j] * D[j] - F[j]) * m.n[j, w] / D[j]
            at_zero = F[j]
        else:
            row, at_zero = s - 1 + p0[j] * m.n[j, w], s - 1
        return m.c[j] >= row + (H[j] - at_zero) * cloud(m, j)
    m.worker_floor = pyo.Constraint(m.JW, rule=floor)
    m.cloud_floor = pyo.Constraint(
        [j for j in sorted(H) if E[j] < H[j]],
        rule=lambda m, j: m.c[j] >= E[j] + (H[j] - E[j]) * m.u[j])
    if dominance:
        m.whole_cloud = pyo.Constraint(m.J, rule=lambda m, j: m.k[j] == D[j] * m.u[j])
        m.whole_cloud_mode = pyo.Constraint(m.J, rule=lambda m, j: m.zeta[j] == m.u[j])
    if symmetry:
        _symmetry(m, ec, p0)
    if pool_cut:
        from mlopt.families.edgecloud.pool_bound import pool_lb

        lb = pool_lb(workload)["bound"]
        arrivals = sum(jv.arrival for jv in ec.jobs)
        m.pool_cut = pyo.Constraint(expr=sum(m.c[j] for j in m.J) >= math.ceil(lb) + arrivals)
    return m


def identical_runs(ec: EdgeCloud) -> list[list[int]]:
    """Worker indices of each (server, type) group with at least two workers, in index order."""
    runs: dict[tuple[str, str], list[int]] = defaultdict(list)
    for w in ec.workers:
        runs[(w.server, w.type)].append(w.index)
    return [runs[g] for g in sorted(_groups(ec)) if len(runs[g]) > 1]


def _symmetry(m, ec: EdgeCloud, p0: dict) -> None:
    by_w = defaultdict(list)
    for (j, w) in m.JW:
        by_w[w].append(j)
    pairs = [(a, b) for run in identical_runs(ec) for a, b in zip(run, run[1:])
             if by_w[a] or by_w[b]]

    def load(m, w):
        return sum(p0[j] * m.n[j, w] for j in by_w[w])

    m.symmetry_load = pyo.Constraint(range(len(pairs)), rule=lambda m, i: load(m, pairs[i][0])
                                     >= load(m, pairs[i][1]))

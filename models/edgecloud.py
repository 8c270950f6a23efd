"""Edge-cloud total-JCT formulations of seed 001 (Wang et al., JSAC 2022), Sec. III.

``build_jct_milp(workload, pin_chunks=True)`` - the exact total-JCT problem (2) as a MILP.
``build_flow_lb(workload, zeta_one=False)`` - the fractional-flow-time ILP (4), a lower bound.
``extract_schedule(model, workload)`` - the pinned MILP's solution as a schedule table.

Notation: jobs j (arrival r_j, D_j chunks), edge workers w (server s(w), type), p0_j / p1_j
whole slots per chunk at mode zeta_j = 0 / 1 (:mod:`mlopt.families.edgecloud.instance`),
Delta_js upload delays, H_j = r_j + Delta_jc + p1_j - 1 (the whole job in the cloud).

Exactness of ``jct_milp`` (pinned, the default):

* PS variables z are dropped: the cloud has unlimited PSs of every type, a cloud PS satisfies
  (2e)/(2f) and only an *edge* PS forces zeta_j = 0, so some optimum has every PS in the cloud.
* Chunks of one job are interchangeable.  On one worker, n_jw chunks of job j need p0_j n_jw
  worker-slots; any p0_j n_jw slots of that worker split into n_jw chunks of p0_j slots each
  (the first p0_j slots, the next p0_j...), all pinned to w.  So integer n_jw + binary
  y_jw(t) with sum_t y_jw(t) = p0_j n_jw is exactly "every chunk on one worker, never migrated".
* The cloud has unlimited workers and never preempts: a cloud chunk trains from r_j + Delta_jc
  for p0_j (zeta_j = 0) or p1_j (zeta_j = 1) consecutive slots, so only the count k_j of cloud
  chunks matters; u_j = [k_j >= 1].  (2g)/(2h) with the nonlinear rate become
  n_jw <= D_j (1 - zeta_j) and c_j >= L0_j u_j - (L0_j - L1_j) zeta_j, L_i the cloud finish
  at mode i.  zeta_j = 1 never hurts, so the minimization sets it whenever allowed.
* (2j) c_j = last active slot: c_j >= t y_jw(t); minimization makes it tight.
* Horizon: an optimal schedule finishes job j by H_j (running j entirely in the cloud finishes
  at H_j and frees edge capacity for everyone else), so y_jw(t) exists for
  t in [r_j + Delta_j,s(w), H_j] only and c_j <= H_j: no optimum is cut off.

DECISION (which model is the offline optimum).  The online problem never migrates a chunk's
data and the checker enforces it, so ``pin_chunks=True`` (above) is the offline optimum the
online algorithm is compared against.  ``pin_chunks=False`` is the literal (2): per (server,
type) integer worker counts Y_jg(t), a job's chunks may hop between workers of a group and
across groups.  Every pinned solution maps to it (Y_jg(t) = sum_{w in g} y_jw(t)), so it is a
relaxation (tested); its optimum is a lower bound, its solution has no chunk identity and is not
extracted.

``flow_lb`` (ILP (4) with whole-slot processing): a chunk's fractional flow time
f_jd = sum_t x_jd(t) (t - r_j) / (D_j p_j) with p_j the slots of the mode it runs in.  In any
feasible schedule a chunk's p_j slots all lie at or before c_jd, so f_jd <= (c_jd - r_j) / D_j
and sum_d f_jd <= c_j - r_j (Lemma 1; with fractional p the Lemma fails for over-processed whole
slots, hence p_j = ceil).  Aggregated over a (server, type) group with identical workers, with
the per-slot chunk cap (4e), capacity (4b) and coverage (4a) as sum x / p >= D_j.  zeta_j is
kept (cloud at p1 only when the whole job is there), or with ``zeta_one=True`` set to 1 for every
job: every worker, edge or cloud, at rate n1 (p1 slots a chunk) and no mode coupling - the
paper's bound for Fig. 12-13, a relaxation of (4).
Its optimum, or the solver's dual bound when stopped early, is a certified lower bound on OPT;
it is never a schedule.
"""
from __future__ import annotations

from collections import defaultdict

import pyomo.environ as pyo

from mlopt.errors import InputError
from mlopt.schedule import Schedule
from mlopt.workload import Workload

from mlopt.families.edgecloud.instance import EdgeCloud
from mlopt.families.edgecloud.table import CLOUD_WORKER, chunk_rows, make_schedule, ps_rows

INTEGRALITY_TOL = 1e-6


def _groups(ec: EdgeCloud) -> dict[tuple[str, str], int]:
    """(server, type) -> number of identical edge workers."""
    g: dict[tuple[str, str], int] = defaultdict(int)
    for w in ec.workers:
        g[(w.server, w.type)] += 1
    return dict(g)


def build_jct_milp(workload: Workload, *, pin_chunks: bool = True) -> pyo.ConcreteModel:
    """Exact total-JCT MILP (2) of seed 001; ``pin_chunks=False``: the literal (2) relaxation."""
    ec = EdgeCloud(workload)
    m = pyo.ConcreteModel(name="edgecloud_jct_milp" + ("" if pin_chunks else "_unpinned"))
    m._ec = ec
    m._pinned = pin_chunks
    J = [jv.index for jv in ec.jobs]
    H = {j: ec.horizon_bound(ec.jobs[j]) for j in J}
    D = {j: ec.jobs[j].chunks for j in J}
    p0 = {j: ec.jobs[j].p_edge for j in J}
    L0 = {j: ec.cloud_finish(ec.jobs[j], 0) for j in J}
    L1 = {j: ec.cloud_finish(ec.jobs[j], 1) for j in J}
    m.J = pyo.Set(initialize=J)
    m.k = pyo.Var(m.J, domain=pyo.NonNegativeIntegers, bounds=lambda _, j: (0, D[j]))
    m.u = pyo.Var(m.J, domain=pyo.Binary)  # some chunk of j goes to the cloud
    m.zeta = pyo.Var(m.J, domain=pyo.Binary)  # the whole job in the cloud (rate n1)
    m.c = pyo.Var(m.J, bounds=lambda _, j: (ec.jobs[j].arrival, H[j]))  # completion c_j
    if pin_chunks:
        units = {w.index: (w.server,) for w in ec.workers}  # a unit = one worker
        cap = {w.index: 1 for w in ec.workers}
        unit_of = {j: [w.index for w in ec.eligible(ec.jobs[j])] for j in J}
        srv = {w.index: w.server for w in ec.workers}
    else:
        grp = _groups(ec)
        keys = sorted(grp)
        units = {n: g for n, g in enumerate(keys)}
        cap = {n: grp[g] for n, g in enumerate(keys)}
        unit_of = {j: [n for n, g in units.items() if g[1] == ec.jobs[j].worker_type] for j in J}
        srv = {n: g[0] for n, g in units.items()}
    JW = [(j, w) for j in J for w in unit_of[j] if ec.start(ec.jobs[j], srv[w]) <= H[j]]
    JWT = [(j, w, t) for (j, w) in JW for t in range(ec.start(ec.jobs[j], srv[w]), H[j] + 1)]
    m.JW = pyo.Set(initialize=JW, dimen=2)
    m.JWT = pyo.Set(initialize=JWT, dimen=3)
    if pin_chunks:
        m.n = pyo.Var(m.JW, domain=pyo.NonNegativeIntegers, bounds=lambda _, j, w: (0, D[j]))
        m.y = pyo.Var(m.JWT, domain=pyo.Binary)
    else:
        m.y = pyo.Var(m.JWT, domain=pyo.NonNegativeIntegers,
                      bounds=lambda _, j, w, t: (0, min(cap[w], D[j])))
        m.R = pyo.Var([(j, t) for j in J for t in range(ec.jobs[j].arrival, H[j] + 1)],
                      domain=pyo.Binary)  # j trains in slot t
    by_jw = defaultdict(list)
    by_wt = defaultdict(list)
    by_jt = defaultdict(list)
    for (j, w, t) in JWT:
        by_jw[(j, w)].append(t)
        by_wt[(w, t)].append(j)
        by_jt[(j, t)].append(w)

    # objective (2): total job completion time
    m.obj = pyo.Objective(expr=sum(m.c[j] - ec.jobs[j].arrival for j in J), sense=pyo.minimize)
    # every chunk placed once: on the edge (pinned: on one worker) or in the cloud
    if pin_chunks:
        m.chunks_placed = pyo.Constraint(m.J, rule=lambda m, j: sum(
            m.n[j, w] for (jj, w) in JW if jj == j) + m.k[j] == D[j])
        # (2b) with pinning: the n_jw chunks on worker w get p0_j slots each
        m.c2b_work_covered = pyo.Constraint(m.JW, rule=lambda m, j, w: sum(
            m.y[j, w, t] for t in by_jw[(j, w)]) == p0[j] * m.n[j, w])
        # (2g)/(2h): any edge chunk forces zeta_j = 0
        m.c2h_edge_mode = pyo.Constraint(m.JW, rule=lambda m, j, w: m.n[j, w]
                                         <= D[j] * (1 - m.zeta[j]))
        # (2j): c_j is at least every slot the job trains
        m.c2j_completion = pyo.Constraint(m.JWT, rule=lambda m, j, w, t: m.c[j] >= t * m.y[j, w, t])
    else:
        # (2b) literal: edge chunk-slots cover the edge chunks' work
        m.c2b_work_covered = pyo.Constraint(m.J, rule=lambda m, j: sum(
            m.y[j, w, t] for (jj, w) in JW if jj == j for t in by_jw[(j, w)])
            >= p0[j] * (D[j] - m.k[j]))
        # (2c): at most as many workers as edge chunks in a slot
        m.c2c_chunk_cap = pyo.Constraint(list(by_jt), rule=lambda m, j, t: sum(
            m.y[j, w, t] for w in by_jt[(j, t)]) <= D[j] - m.k[j])
        m.c2h_edge_mode = pyo.Constraint(m.J, rule=lambda m, j: m.k[j] >= D[j] * m.zeta[j])
        m.job_active = pyo.Constraint(list(by_jt), rule=lambda m, j, t: sum(
            m.y[j, w, t] for w in by_jt[(j, t)]) <= D[j] * m.R[j, t])
        m.c2j_completion = pyo.Constraint(list(by_jt), rule=lambda m, j, t: m.c[j]
                                          >= t * m.R[j, t])
    # (2d): a worker (group of identical workers) trains at most one chunk per worker per slot
    m.c2d_worker_capacity = pyo.Constraint(list(by_wt), rule=lambda m, w, t: sum(
        m.y[j, w, t] for j in by_wt[(w, t)]) <= cap[w])
    # cloud: u_j = 1 when a chunk goes there; it finishes at L0 (mixed) or L1 (zeta_j = 1)
    m.cloud_used = pyo.Constraint(m.J, rule=lambda m, j: m.k[j] <= D[j] * m.u[j])
    m.c2j_cloud_completion = pyo.Constraint(m.J, rule=lambda m, j: m.c[j]
                                            >= L0[j] * m.u[j] - (L0[j] - L1[j]) * m.zeta[j])
    return m


def _val(x) -> int:
    v = pyo.value(x, exception=False)
    if v is None:
        return 0
    r = round(v)
    if abs(v - r) > INTEGRALITY_TOL:
        raise InputError("solution is not integral (was the model solved as a MILP?)",
                         field=x.name, value=v)
    return int(r)


def extract_schedule(model: pyo.ConcreteModel, workload: Workload) -> Schedule:
    """Chunks split in order on each worker (see the module docstring); every PS in the cloud."""
    if not getattr(model, "_pinned", False):
        raise InputError("the unpinned (literal (2)) model has no chunk identity; its optimum is "
                         "a lower bound only", field="pin_chunks", value=False)
    ec: EdgeCloud = model._ec
    rows = []
    for jv in ec.jobs:
        j = jv.index
        d = 0
        slots_used: set[int] = set()
        for (jj, w) in model.JW:
            if jj != j:
                continue
            n = _val(model.n[j, w])
            slots = sorted(t for (j2, w2, t) in model.JWT if j2 == j and w2 == w
                           and _val(model.y[j, w, t]) == 1)
            worker = ec.workers[w]
            for c in range(n):
                part = slots[c * jv.p_edge:(c + 1) * jv.p_edge]
                rows += chunk_rows(jv.id, d, worker.server, worker.name, part)
                slots_used.update(part)
                d += 1
        k = _val(model.k[j])
        if k:
            zeta = _val(model.zeta[j])
            p = jv.p_cloud if zeta else jv.p_edge
            start = ec.start(jv, ec.cloud)
            for _ in range(k):
                rows += chunk_rows(jv.id, d, ec.cloud, CLOUD_WORKER, range(start, start + p))
                d += 1
            slots_used.update(range(start, start + p))
        rows += ps_rows(jv.id, ec.cloud, CLOUD_WORKER, sorted(slots_used))
    return make_schedule([jv.id for jv in ec.jobs], rows, {"producer": model.name})


def build_flow_lb(workload: Workload, *, zeta_one: bool = False) -> pyo.ConcreteModel:
    """ILP (4) (fractional flow time, whole slots) aggregated per (server, type); a lower bound."""
    ec = EdgeCloud(workload)
    m = pyo.ConcreteModel(name="edgecloud_flow_lb" + ("_zeta1" if zeta_one else ""))
    grp = _groups(ec)
    keys = sorted(grp)
    J = [jv.index for jv in ec.jobs]
    H = {j: ec.horizon_bound(ec.jobs[j]) for j in J}
    D = {j: ec.jobs[j].chunks for j in J}
    p0 = {j: ec.jobs[j].p_edge for j in J}
    p1 = {j: ec.jobs[j].p_cloud for j in J}
    pe = p1 if zeta_one else p0  # edge rate: n1 when every zeta_j is set to 1 (paper's bound)
    r = {j: ec.jobs[j].arrival for j in J}
    JGT = [(j, g, t) for j in J for g, key in enumerate(keys)
           if key[1] == ec.jobs[j].worker_type
           for t in range(ec.start(ec.jobs[j], key[0]), H[j] + 1)]
    cs = {j: ec.start(ec.jobs[j], ec.cloud) for j in J}
    JT = [(j, t) for j in J for t in range(cs[j], H[j] + 1)]
    m.J = pyo.Set(initialize=J)
    m.x = pyo.Var(JGT, domain=pyo.NonNegativeIntegers,
                  bounds=lambda _, j, g, t: (0, min(grp[keys[g]], D[j])))
    m.x1 = pyo.Var(JT, domain=pyo.NonNegativeIntegers, bounds=lambda _, j, t: (0, D[j]))
    if not zeta_one:  # cloud at rate n0 while part of the job is on the edge
        m.x0 = pyo.Var(JT, domain=pyo.NonNegativeIntegers, bounds=lambda _, j, t: (0, D[j]))
        m.zeta = pyo.Var(m.J, domain=pyo.Binary)
    by_j = defaultdict(list)
    by_gt = defaultdict(list)
    by_jt = defaultdict(list)
    for (j, g, t) in JGT:
        by_j[j].append((g, t))
        by_gt[(g, t)].append(j)
        by_jt[(j, t)].append(g)
    cloud_t = defaultdict(list)
    for (j, t) in JT:
        cloud_t[j].append(t)

    def edge_terms(j, weight):
        return sum(m.x[j, g, t] * weight(t) for (g, t) in by_j[j])

    def flow(j):
        e = edge_terms(j, lambda t: (t - r[j]) / (D[j] * pe[j]))
        e += sum(m.x1[j, t] * (t - r[j]) / (D[j] * p1[j]) for t in cloud_t[j])
        if not zeta_one:
            e += sum(m.x0[j, t] * (t - r[j]) / (D[j] * p0[j]) for t in cloud_t[j])
        return e

    # objective (4): total fractional flow time (3)
    m.obj = pyo.Objective(expr=sum(flow(j) for j in J), sense=pyo.minimize)

    # (4a): every chunk's work covered (in chunk units: x / p chunks per slot)
    def cover(m, j):
        e = edge_terms(j, lambda t: 1.0 / pe[j]) + sum(m.x1[j, t] / p1[j] for t in cloud_t[j])
        if not zeta_one:
            e += sum(m.x0[j, t] / p0[j] for t in cloud_t[j])
        return e >= D[j]
    m.c4a_work_covered = pyo.Constraint(m.J, rule=cover)
    # (4b): identical workers of a group, one chunk each per slot
    m.c4b_worker_capacity = pyo.Constraint(list(by_gt), rule=lambda m, g, t: sum(
        m.x[j, g, t] for j in by_gt[(g, t)]) <= grp[keys[g]])

    # (4e): a chunk on at most one worker per slot -> at most D_j workers per slot
    def chunk_cap(m, j, t):
        e = sum(m.x[j, g, t] for g in by_jt.get((j, t), ()))
        if t >= cs[j]:
            e += m.x1[j, t] + (0 if zeta_one else m.x0[j, t])
        return e <= D[j]
    slots_j = sorted(set(by_jt) | set(JT))
    m.c4e_chunk_cap = pyo.Constraint(slots_j, rule=chunk_cap)
    if not zeta_one:
        # (4f)/(4g): rate n1 in the cloud only when the whole job is there (zeta_j = 1)
        m.c4f_cloud_fast = pyo.Constraint(JT, rule=lambda m, j, t: m.x1[j, t] <= D[j] * m.zeta[j])
        m.c4g_edge_slow = pyo.Constraint(list(JGT), rule=lambda m, j, g, t: m.x[j, g, t]
                                         <= min(grp[keys[g]], D[j]) * (1 - m.zeta[j]))
        m.c4g_cloud_slow = pyo.Constraint(JT, rule=lambda m, j, t: m.x0[j, t]
                                          <= D[j] * (1 - m.zeta[j]))
    return m

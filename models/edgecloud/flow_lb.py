"""ILP (4) (fractional flow time, whole slots): a certified lower bound; see the package
docstring for why it lies below the optimum."""
from __future__ import annotations

from collections import defaultdict

import pyomo.environ as pyo

from mlopt.families.edgecloud.fields import EdgeCloud
from mlopt.models.edgecloud.common import _groups, check_model_size
from mlopt.workload import Workload


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
    check_model_size(ec, dict(enumerate(keys)),
                     {j: [g for g, key in enumerate(keys) if key[1] == ec.jobs[j].worker_type]
                      for j in J}, {g: key[0] for g, key in enumerate(keys)}, m.name)
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


def build_flow_lb_zeta1(workload: Workload) -> pyo.ConcreteModel:
    """The paper's bound behind Fig. 12-13: ILP (4) with zeta_j = 1 for every job."""
    return build_flow_lb(workload, zeta_one=True)

"""The exact total-JCT MILP (2) (pinned chunks) and its literal unpinned relaxation; see the
package docstring for the linearization and why it is exact."""

from __future__ import annotations

from collections import defaultdict

import pyomo.environ as pyo

from mlopt.errors import InputError
from mlopt.schedule import Schedule
from mlopt.tolerance import capacity_rhs
from mlopt.workload import Workload

from mlopt.families.edgecloud.fields import EdgeCloud
from mlopt.models.edgecloud.common import _groups, check_model_size
from mlopt.families.edgecloud.table import CLOUD_WORKER, chunk_rows, make_schedule, ps_rows

INTEGRALITY_TOL = 1e-6


def build_jct_milp(workload: Workload, *, pin_chunks: bool = True,
                   last_edge_slot=None) -> pyo.ConcreteModel:
    """Exact total-JCT MILP (2) of seed 001; ``pin_chunks=False``: the literal (2) relaxation.
    ``last_edge_slot(ec, job)``: the last slot an edge variable of the job gets (default H_j;
    ``jct_step``'s dominance rule passes H_j - 1)."""
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
    check_model_size(ec, units, unit_of, srv, m.name)
    last = {j: H[j] if last_edge_slot is None else last_edge_slot(ec, ec.jobs[j]) for j in J}
    JW = [(j, w) for j in J for w in unit_of[j]
          if ec.start(ec.jobs[j], srv[w]) + (p0[j] - 1 if last_edge_slot else 0) <= last[j]]
    JWT = [(j, w, t) for (j, w) in JW for t in range(ec.start(ec.jobs[j], srv[w]), last[j] + 1)]
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
    if pin_chunks and ec.storage:
        _storage(m, ec, JW, by_jw, srv, H, D, p0)
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


def _storage(m, ec, JW, by_jw, srv, H, D, p0) -> None:
    """Storage extension (7)/(8), pinned model only.  Chunks on worker w train in slot order
    (the extraction splits them that way), so the chunks of j on w finished before slot t are
    floor(sum_{tau < t} y_jw(tau) / p0_j); integer f_jw(t) <= that count (the storage row makes
    the solver push f up to it).  Server s stores u_j (n_jw - f_jw(t)) for every t in
    [r_j, H_j] ((7c): from the upload's start to the chunk's completion).  The right-hand side
    is what the checker accepts (DECISION in :mod:`mlopt.tolerance`: U_s (1 + 1e-9) + 1e-9),
    U_s itself where U_s and the u_j stored there are integers or on one binary grid
    (equivalent: :func:`mlopt.tolerance.capacity_rhs`).  An exact U_s let the model call 10
    optimal where the checker accepts 4 (two chunks of 1000.000001 GB on a 2000 GB server,
    ``tests/edgecloud/test_edgecloud_tolerance.py``)."""
    F = []
    for (j, w) in JW:
        if srv[w] not in ec.storage:
            continue
        start = min(by_jw[(j, w)])
        F += [(j, w, t) for t in range(start + p0[j], H[j] + 1)]
    m.F = pyo.Set(initialize=F, dimen=3)
    m.f = pyo.Var(m.F, domain=pyo.NonNegativeIntegers, bounds=lambda _, j, w, t: (0, D[j]))
    m.c7_finished = pyo.Constraint(m.F, rule=lambda m, j, w, t: p0[j] * m.f[j, w, t] <= sum(
        m.y[j, w, tau] for tau in by_jw[(j, w)] if tau < t))
    rows = []
    for s_id, cap in ec.storage.items():
        terms = [(j, w) for (j, w) in JW if srv[w] == s_id and ec.jobs[j].chunk_gb > 0]
        if not terms:
            continue
        t_lo = min(ec.jobs[j].arrival for j, _ in terms)
        t_hi = max(H[j] for j, _ in terms)
        rhs = capacity_rhs(cap, [ec.jobs[j].chunk_gb for j, _ in terms])
        rows += [(s_id, t, rhs, terms) for t in range(t_lo, t_hi + 1)]
    Fset = set(F)

    def stored(m, j, w, t):
        if t < ec.jobs[j].arrival or t > H[j]:
            return 0
        done = m.f[j, w, t] if (j, w, t) in Fset else 0
        return ec.jobs[j].chunk_gb * (m.n[j, w] - done)

    def c7b(m, k):
        _, t, cap, terms = rows[k]
        live = [(j, w) for (j, w) in terms if ec.jobs[j].arrival <= t <= H[j]]
        if not live:
            return pyo.Constraint.Skip
        return sum(stored(m, j, w, t) for (j, w) in live) <= cap

    m.c7b_storage = pyo.Constraint(range(len(rows)), rule=c7b)


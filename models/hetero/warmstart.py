"""Warm starts of the exact formulations: ``placement_ti``'s encoder is
:func:`mlopt.models.hetero.placement_ti.encode`; this module holds ``wct_milp``'s.

Warm start of ``wct_milp`` (:func:`mlopt.models.hetero.wct_milp.build_wct_milp`, problem (2) /
(15)) from a schedule.

The inverse of :func:`mlopt.models.hetero.wct_milp.extract_schedule`.  Per job, the schedule
gives the start t_j (first slot), its run length, the worker type m (and PS type p), the counts
N per server in its first slot and the co-location q (everything on one server).  The model only
has the *non-dominated* configurations (per (m, p, q, d) the smallest N), so the encoder picks,
among the job's configurations with the same m and p, q <= the schedule's q (a co-located
placement may use either rate), N' <= N and d' <= the schedule's run length, the one with the
smallest d' (then N'), and drops N - N' workers from the placement (servers without PSs first).
Dropping workers only lowers capacity use and the bandwidth the PS servers must cover (2i), so
the placement stays feasible, and c_j = t_j + d' is never later than the schedule's completion:
the start's objective is at most the schedule's checked objective.  Then ``z[j,k,t_j] = 1``,
``y`` / ``s`` = the reduced placement, ``o`` marks the one server of a q = 1 configuration,
``sigma`` the servers with PSs, and the run-time copies ``Y`` / ``S`` = y / s in the slots the
configuration runs, 0 elsewhere.

A *full* start, except for a job the model cannot represent as scheduled: no configuration
qualifies, a start the model cuts off (c_j beyond the horizon bound derived from the sequential
schedule's objective: only a schedule worse than that sequential schedule has one), or a
placement that changes between slots (the checker rejects it).  That job's variables are left to
the solver (a partial start, which HiGHS and SCIP complete).
"""
from __future__ import annotations

from collections import defaultdict

import pyomo.environ as pyo
from pyomo.common.collections import ComponentMap

from mlopt.families.base import resolve
from mlopt.families.hetero.fields import hetero_data
from mlopt.schedule import Schedule
from mlopt.workload import Workload


#: encoder per exact formulation (``model._hetero["model"]``; wct_milp's models carry none)
ENCODERS = {"wct_milp": "mlopt.models.hetero.warmstart:encode_wct_milp",
            "placement_ti": "mlopt.models.hetero.placement_ti:encode",
            # the same columns as placement_ti (its clique rows hold for every schedule)
            "placement_clique": "mlopt.models.hetero.placement_ti:encode"}


def encode(model: pyo.ConcreteModel, workload: Workload, schedule: Schedule) -> ComponentMap:
    """The start of ``model`` (either exact formulation) representing ``schedule``."""
    return resolve(ENCODERS[model._hetero.get("model", "wct_milp")])(model, workload, schedule)


def encode_wct_milp(model: pyo.ConcreteModel, workload: Workload, schedule: Schedule
                    ) -> ComponentMap:
    """Return a WCT-MILP start (variable -> value) encoding the schedule."""
    data = hetero_data(workload)
    info = model._hetero
    cfg = info["cfg"]
    J = info["jobs"]
    ps = data.architecture == "ps"
    H, M, P = len(data.cap), len(data.e), len(data.z)
    hidx = {h: i for i, h in enumerate(data.server_ids)}
    widx = {m: i for i, m in enumerate(data.wtype_ids)}
    pidx = {p: i for i, p in enumerate(data.ptype_ids)}
    jidx = {j: i for i, j in enumerate(data.job_ids)}
    start = ComponentMap((v, 0.0) for v in model.component_data_objects(pyo.Var))

    df = schedule.allocations
    types = df["type"] if "type" in df.columns else [""] * len(df)
    slots = defaultdict(set)
    place = defaultdict(lambda: defaultdict(int))  # (j, slot) -> (role, h, type) -> count
    for (job, slot, server, role, count), typ in zip(
            df[["job", "slot", "server", "role", "count"]].itertuples(index=False), types):
        if job not in jidx or server not in hidx:
            continue
        j = jidx[job]
        slots[j].add(int(slot))
        place[j, int(slot)][role, hidx[server], str(typ)] += int(count)

    z_index = defaultdict(dict)  # j -> {(k, t)}
    for (j, k, t) in model.Z:
        z_index[j][k, t] = True
    unknown = []
    for j in J:
        chosen = _choose(j, slots.get(j), place, cfg[j], z_index[j], widx, pidx, ps)
        if chosen is None:
            unknown.append(j)
            continue
        k, t0, y, s = chosen
        c = cfg[j][k]
        start[model.z[j, k, t0]] = 1.0
        for h in range(H):
            for mm in range(M):
                start[model.y[j, h, mm]] = float(y.get((h, mm), 0))
        if c.q == 1:
            (h_one,) = {h for (h, _) in y} | {h for (h, _) in s}
            start[model.o[j, h_one]] = 1.0
        if ps:
            for h in range(H):
                for p in range(P):
                    start[model.s[j, h, p]] = float(s.get((h, p), 0))
                start[model.sigma[j, h]] = 1.0 if any(s.get((h, p), 0) for p in range(P)) \
                    else 0.0
        for (jj, h, mm, t) in model.Y:
            if jj == j and t0 <= t < t0 + c.d:
                start[model.Y[j, h, mm, t]] = float(y.get((h, mm), 0))
        if ps:
            for (jj, h, p, t) in model.S:
                if jj == j and t0 <= t < t0 + c.d:
                    start[model.S[j, h, p, t]] = float(s.get((h, p), 0))
    for j in unknown:  # left to the solver
        for comp in [model.z, model.y, model.o, model.Y] + (
                [model.s, model.sigma, model.S] if ps else []):
            for key in list(comp.keys()):
                if key[0] == j:
                    del start[comp[key]]
    return start


def _choose(j, slots, place, configs, z_index, widx, pidx, ps):
    """(configuration index, start, {(h, m): workers}, {(h, p): PSs}) or None."""
    if not slots:
        return None
    t0, t1 = min(slots), max(slots)
    run = t1 - t0 + 1
    if len(slots) != run:
        return None
    first = place[j, t0]
    if any(place[j, t] != first for t in slots):
        return None  # the placement changes (the checker rejects it)
    y, s = defaultdict(int), defaultdict(int)
    for (role, h, typ), n in first.items():
        if role == "worker":
            if typ not in widx:
                return None
            y[h, widx[typ]] += n
        else:
            if typ not in pidx:
                return None
            s[h, pidx[typ]] += n
    wtypes = {m for (_, m) in y}
    ptypes = {p for (_, p) in s}
    if len(wtypes) != 1 or (ps and len(ptypes) != 1) or (not ps and ptypes):
        return None
    m = wtypes.pop()
    p = ptypes.pop() if ps else -1
    n = sum(y.values())
    hosts = {h for (h, _) in y} | {h for (h, _) in s}
    colocated = len(hosts) == 1
    best = None
    for k, c in enumerate(configs):
        if c.m != m or c.p != p or c.n > n or c.d > run or (c.q == 1 and not colocated):
            continue
        if (k, t0) not in z_index:
            continue
        if best is None or (c.d, c.n) < (configs[best].d, configs[best].n):
            best = k
    if best is None:
        return None
    drop = n - configs[best].n
    ps_hosts = {h for (h, _) in s}
    for h, mm in sorted(y, key=lambda key: (key[0] in ps_hosts, key[0])):
        if drop <= 0:
            break
        cut = min(drop, y[h, mm])
        y[h, mm] -= cut
        drop -= cut
    y = {key: v for key, v in y.items() if v > 0}
    return best, t0, y, dict(s)

"""Warm start of ``jct_milp`` (:func:`mlopt.models.edgecloud.build_jct_milp`, pinned chunks)
from a schedule.

The inverse of :func:`mlopt.models.edgecloud.jct_milp.extract_schedule`: per job j and edge
worker w, ``n[j,w]`` = the chunks of j trained on w and ``y[j,w,t] = 1`` in every slot one of them
trains there; ``k[j]`` = the chunks trained in the cloud, ``u[j] = [k_j >= 1]``, ``zeta[j] = 1``
when every chunk is in the cloud (the whole-job rate n1; the model credits it whatever rate the
schedule assumed, so the start is never worse than the schedule); ``c[j]`` = the smallest value
its rows allow: max(r_j, the last edge slot, the cloud finish at the chosen mode).  With the
storage extension, ``f[j,w,t]`` = the chunks of j on w finished before t (floor(sum y / p0_j)).
PS rows are not encoded: the model has no PS variables (every PS in the cloud).

A *full* start for a schedule the checker calls feasible, except where the model cannot
represent it: a chunk split over several workers (migration; the checker rejects it) or a
chunk trained in a slot the model has no variable for (after H_j, which only a schedule worse
than running the job in the cloud uses) -- those jobs' edge variables are left out (partial
start, completed by the solver).  The objective of the start can be lower than the schedule's
checked JCT when the schedule's own completion is later than the model's ``c`` (e.g. a
schedule that keeps a finished chunk's worker busy); it is never higher.
"""
from __future__ import annotations

from collections import defaultdict

import pyomo.environ as pyo
from pyomo.common.collections import ComponentMap

from mlopt.families.edgecloud.table import CLOUD_WORKER
from mlopt.schedule import Schedule
from mlopt.workload import Workload


def encode(model: pyo.ConcreteModel, workload: Workload, schedule: Schedule) -> ComponentMap:
    ec = model._ec
    start = ComponentMap((v, 0.0) for v in model.component_data_objects(pyo.Var))
    df = schedule.allocations
    if "worker" not in df.columns or "chunk" not in df.columns:
        return ComponentMap()  # not an edge-cloud table: nothing to encode
    rows = df[df["role"] == "worker"]
    chunk_on: dict[tuple[str, int], set] = defaultdict(set)  # (job, chunk) -> units
    slots_on: dict[tuple[int, int], set] = defaultdict(set)  # (j, w) -> slots
    cloud_chunks: dict[str, set] = defaultdict(set)
    bad = set()
    for job, slot, server, worker, chunk in rows[["job", "slot", "server", "worker",
                                                  "chunk"]].itertuples(index=False):
        if job not in ec.job_index:
            continue
        j = ec.job_index[job]
        if worker == CLOUD_WORKER or server == ec.cloud:
            cloud_chunks[job].add(int(chunk))
            chunk_on[job, int(chunk)].add("cloud")
            continue
        w = ec.worker_index.get((server, worker))
        if w is None or (j, w, int(slot)) not in model.y:
            bad.add(j)
            continue
        chunk_on[job, int(chunk)].add(w)
        slots_on[j, w].add(int(slot))
    for (job, _), units in chunk_on.items():
        if len(units) > 1:
            bad.add(ec.job_index[job])
    n_on: dict[tuple[int, int], int] = defaultdict(int)
    for (job, _), units in chunk_on.items():
        (unit,) = units if len(units) == 1 else (None,)
        if unit is not None and unit != "cloud":
            n_on[ec.job_index[job], unit] += 1
    for jv in ec.jobs:
        j = jv.index
        k = len(cloud_chunks.get(jv.id, ()))
        zeta = 1 if k >= jv.chunks else 0
        start[model.k[j]] = float(k)
        start[model.u[j]] = 1.0 if k else 0.0
        start[model.zeta[j]] = float(zeta)
        last = jv.arrival
        if k:
            last = max(last, ec.cloud_finish(jv, zeta))
        for (jj, w) in model.JW:
            if jj != j:
                continue
            start[model.n[j, w]] = float(n_on.get((j, w), 0))
            used = slots_on.get((j, w), set())
            for t in used:
                start[model.y[j, w, t]] = 1.0
            if used:
                last = max(last, max(used))
        start[model.c[j]] = float(last)
        if j in bad:  # migration or a slot without a variable: let the solver decide
            for (jj, w) in model.JW:
                if jj == j:
                    del start[model.n[j, w]]
            for (jj, w, t) in model.JWT:
                if jj == j:
                    del start[model.y[j, w, t]]
            del start[model.c[j]]
    if hasattr(model, "f"):
        p0 = {jv.index: jv.p_edge for jv in ec.jobs}
        for (j, w, t) in model.F:
            if j in bad:
                del start[model.f[j, w, t]]
                continue
            done = sum(1 for s in slots_on.get((j, w), ()) if s < t)
            start[model.f[j, w, t]] = float(done // p0[j])
    return start

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

Always a *full* start.  Where the model cannot represent the schedule's edge placement of a
job -- a chunk trained in a slot after H_j (the model has no variable there: running the job
entirely in the cloud finishes it at H_j, earlier) or on a worker the job cannot use by H_j, a
job finishing after H_j in any other way (a mixed job: its cloud chunks at the edge rate), or a
chunk split over several workers (migration, which the checker rejects) -- the start runs that
job entirely in the cloud instead (``k = D_j``, ``zeta = 1``, ``c = H_j``): feasible, and for the
first three cases that job finishes earlier than in the schedule.  So the objective of the start
is never higher than the schedule's checked total JCT (it is lower where the schedule finishes a
job later than the model's ``c``).

The same encoder serves ``jct_step`` (same variables): its step variables z_j(t) are set to
[t <= c_j], and its symmetry rows (identical workers of one server and type ordered by
non-increasing load) are met by relabelling those workers in the start (:func:`_relabel`: the
identical workers' values are permuted, which maps a schedule to an equivalent one); under its
dominance rows a mixed job, and an edge slot at H_j (no variable), send the job to the cloud as
above.
"""
from __future__ import annotations

from collections import defaultdict

import pyomo.environ as pyo
from pyomo.common.collections import ComponentMap

from mlopt.families.edgecloud.table import CLOUD_WORKER
from mlopt.schedule import Schedule
from mlopt.workload import Workload


def encode(model: pyo.ConcreteModel, workload: Workload, schedule: Schedule) -> ComponentMap:
    """Return a jct_milp start (variable -> value) encoding the schedule; empty if not edge-cloud."""
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
        if last > ec.horizon_bound(jv) or (hasattr(model, "whole_cloud") and 0 < k < jv.chunks):
            bad.add(j)  # a mixed job finishing after H_j (or any, under jct_step's dominance)
        if j in bad:  # the whole job in the cloud instead: it finishes at H_j, no later
            for (jj, w) in model.JW:
                if jj == j:
                    start[model.n[j, w]] = 0.0
            for (jj, w, t) in model.JWT:
                if jj == j:
                    start[model.y[j, w, t]] = 0.0
            start[model.k[j]] = float(jv.chunks)
            start[model.u[j]] = 1.0
            start[model.zeta[j]] = 1.0
            start[model.c[j]] = float(ec.horizon_bound(jv))
    if hasattr(model, "f"):
        p0 = {jv.index: jv.p_edge for jv in ec.jobs}
        for (j, w, t) in model.F:
            if j in bad:
                continue  # no edge chunk: f stays 0
            done = sum(1 for s in slots_on.get((j, w), ()) if s < t)
            start[model.f[j, w, t]] = float(done // p0[j])
    if hasattr(model, "symmetry_load"):
        _relabel(model, start)
    if hasattr(model, "z"):
        for (j, t) in model.z:
            start[model.z[j, t]] = 1.0 if t <= start[model.c[j]] else 0.0
    return start


def _relabel(model: pyo.ConcreteModel, start: ComponentMap) -> None:
    """Permute the start's values among identical workers (one server, one type) so that
    their loads sum_j p0_j n_jw are non-increasing in worker order (``jct_step``'s rows)."""
    from mlopt.models.edgecloud.jct_step import identical_runs

    ec = model._ec
    p0 = {jv.index: jv.p_edge for jv in ec.jobs}
    cells = defaultdict(list)  # w -> [(var family, index without w)]
    for (j, w) in model.JW:
        cells[w].append((model.n, (j,)))
    for (j, w, t) in model.JWT:
        cells[w].append((model.y, (j, t)))
    for (j, w, t) in getattr(model, "F", ()):
        cells[w].append((model.f, (j, t)))
    for run in identical_runs(ec):
        load = {w: sum(p0[key[0]] * start[var[key[0], w]] for var, key in cells[w]
                       if var is model.n) for w in run}
        order = sorted(run, key=lambda w: (-load[w], w))  # heaviest first, stable
        old = {w: {(var.name, key): start[_cell(var, key, w)] for var, key in cells[w]}
               for w in run}
        for dst, src in zip(run, order):
            for var, key in cells[dst]:
                start[_cell(var, key, dst)] = old[src][(var.name, key)]


def _cell(var, key: tuple, w: int):
    """The variable of family ``var`` at ``key`` with worker index ``w`` in position 2."""
    return var[(key[0], w, *key[1:])]

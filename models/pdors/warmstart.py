"""Warm start of ``dmlrs_milp`` (:func:`mlopt.models.pdors.build_dmlrs_milp`) from a schedule.

The inverse of :func:`mlopt.models.pdors.extract_schedule`, completed with the auxiliaries:
``x[i] = 1`` for admitted jobs; ``w`` / ``s`` = the schedule's worker / PS counts; ``e[i,t] = 1``
at the last slot with workers of an admitted job; ``z[i,h,t] = 1`` where, in slot t, every worker
and PS of i is on machine h and a PS is there (Fact 1's internal case), and then the internal
credit ``om[i,h,t] = w[i,h,t]`` (else 0).  A *full* start: the model is exact, so the start of a
schedule the checker calls feasible satisfies every row.  A count on a (job, machine, slot)
without a variable (the model has none where one copy does not fit or before the arrival; a
feasible schedule never does that) or a completion slot before the model's earliest one is left
out, and the start is then partial.
"""
from __future__ import annotations

from collections import defaultdict

import pyomo.environ as pyo
from pyomo.common.collections import ComponentMap

from mlopt.schedule import Schedule
from mlopt.workload import Workload


def encode(model: pyo.ConcreteModel, workload: Workload, schedule: Schedule) -> ComponentMap:
    """Return a DMLRS-MILP start (variable -> value) encoding the schedule."""
    start = ComponentMap((v, 0.0) for v in model.component_data_objects(pyo.Var))
    admitted = set(schedule.admitted)
    for j in model.J:
        start[model.x[j]] = 1.0 if j in admitted else 0.0
    last: dict[str, int] = {}
    on: dict[tuple[str, int], dict[str, list[int]]] = defaultdict(lambda: defaultdict(
        lambda: [0, 0]))  # (job, slot) -> machine -> [workers, PSs]
    missing = set()
    for job, slot, server, role, count in schedule.allocations[
            ["job", "slot", "server", "role", "count"]].itertuples(index=False):
        t, n = int(slot), int(count)
        var = model.w if role == "worker" else model.s
        key = (job, server, t)
        if key in var:
            start[var[key]] += float(n)
        else:
            missing.add(job)
        on[job, t][server][0 if role == "worker" else 1] += n
        if role == "worker" and n > 0:
            last[job] = max(last.get(job, 0), t)
    for (job, t), machines in on.items():
        used = [h for h, (nw, ns) in machines.items() if nw + ns > 0]
        if len(used) == 1:
            h = used[0]
            nw, ns = machines[h]
            if nw > 0 and ns > 0 and (job, h, t) in model.z:
                start[model.z[job, h, t]] = 1.0
                start[model.om[job, h, t]] = float(nw)
    for j in admitted:
        t = last.get(j)
        if t is not None and (j, t) in model.e and j not in missing:
            start[model.e[j, t]] = 1.0
        else:
            for key in [k for k in model.e if k[0] == j]:
                del start[model.e[key]]
    return start

"""Warm start of ``utility_ilp`` (:func:`mlopt.models.oasis.build_utility_ilp`) from a schedule.

The inverse of :func:`mlopt.models.oasis.extract_schedule`: ``x[i] = 1`` for admitted jobs,
``y[i,h,t]`` / ``z[i,k,t]`` = the schedule's worker / PS counts, ``u[i,t_hat] = 1`` at the last
slot with workers of an admitted job, every other variable 0.  This is a *full* start: for a
schedule the checker calls feasible it satisfies every row (the model is exact), except where
the schedule uses something the model has no variable for -- a row on a (job, server, slot)
outside the index sets (the model only has y/z where a copy fits and t >= a_i) or a completion
slot before the ``completion_window`` -- which a feasible schedule cannot do; such a value is
left out (the start is then partial and the solver completes or rejects it).
"""
from __future__ import annotations

import pyomo.environ as pyo
from pyomo.common.collections import ComponentMap

from mlopt.schedule import Schedule
from mlopt.workload import Workload


def encode(model: pyo.ConcreteModel, workload: Workload, schedule: Schedule) -> ComponentMap:
    """Return a utility-ILP start (variable -> value) encoding the schedule."""
    start = ComponentMap()
    for v in model.component_data_objects(pyo.Var):
        start[v] = 0.0
    admitted = set(schedule.admitted)
    for i in model.J:
        start[model.x[i]] = 1.0 if i in admitted else 0.0
    last: dict[str, int] = {}
    for job, slot, server, role, count in schedule.allocations[
            ["job", "slot", "server", "role", "count"]].itertuples(index=False):
        key = (job, server, int(slot))
        var = model.y if role == "worker" else model.z
        if key in var:
            start[var[key]] = start.get(var[key], 0.0) + float(count)
        else:
            _drop_job(model, start, job)
        if role == "worker" and count > 0:
            last[job] = max(last.get(job, 0), int(slot))
    for i in admitted:
        t = last.get(i)
        if t is not None and (i, t) in model.u:
            start[model.u[i, t]] = 1.0
        elif i in model.J:
            _drop_job(model, start, i)
    return start


def _drop_job(model, start: dict, job: str) -> None:
    """Leave job ``job``'s completion indicators to the solver (the start becomes partial)."""
    for (i, t) in list(model.u.keys()):
        if i == job:
            start.pop(model.u[i, t], None)

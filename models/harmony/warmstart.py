"""Warm start of ``placement_milp`` (:func:`mlopt.models.harmony.placement.build_placement_milp`)
from a schedule.

The inverse of :func:`mlopt.models.harmony.placement.extract_schedule`, completed by replaying
the placements with the model's own speed arithmetic (the docstring of the model: "any real run
of a placement is a feasible point (set every variable to its true value)"): ``st[n,t_n] = 1`` at
the job's placement interval; ``X`` / ``Y`` = its workers / PSs per server; ``z`` where it has a
task, ``u`` when it spans two or more servers; interval by interval, ``act[n,t] = 1`` while the
job runs (from t_n until it has trained its epochs), ``Kw = X act``, ``Kp = Y act``, the slowdown
``D[n,t]`` = the smallest value its rows allow (max over its servers of the co-located load, plus
the spread penalty), ``s[n,t]`` = b_n factor(D) while running (0 otherwise) and ``piece`` the
affine piece attaining the factor.  A *full* start; for a schedule the checker calls feasible its
objective equals the checked average JCT.  A job without a (single, in-horizon) placement
interval, or that the replay does not finish by T, has its ``st``/``act``/``s`` left to the
solver (partial start).

With the model's symmetry rows (``c_sym_servers``) the schedule's identical servers are first
relabelled, each class sorted by the first job (workload order) with a task there (the
rows' order; the same JCTs, as identical servers are interchangeable), so the start is
feasible.
"""
from __future__ import annotations

from collections import defaultdict

import pyomo.environ as pyo
from pyomo.common.collections import ComponentMap

from mlopt.families.harmony.speed import model_of
from mlopt.models.harmony.placement import server_classes
from mlopt.schedule import Schedule
from mlopt.workload import Workload

_EPS = 1e-9  # the checker's tolerance on finished epochs


def _relabel(workload, J, X, Y):
    """X, Y with each class of identical servers reordered by first user (module docstring)."""
    first = {s.id: next((i for i, n in enumerate(J) if X[n, s.id] + Y[n, s.id] > 0), len(J))
             for s in workload.servers}
    to = {}
    for cls in server_classes(workload):
        for slot, srv in zip(cls, sorted(cls, key=lambda s: (first[s], cls.index(s)))):
            to[srv] = slot
    X2, Y2 = defaultdict(int), defaultdict(int)
    for (n, s), c in X.items():
        X2[n, to.get(s, s)] += c
    for (n, s), c in Y.items():
        Y2[n, to.get(s, s)] += c
    return X2, Y2


def encode(model: pyo.ConcreteModel, workload: Workload, schedule: Schedule) -> ComponentMap:
    """Return a placement-MILP start (variable -> value) encoding the schedule."""
    sm = model_of(workload)
    jobs = {j.id: j for j in workload.jobs}
    J = list(model.J)
    S = list(model.S)
    T = list(model.T)
    L = {n: sm.index(jobs[n].extra["model"]) for n in J}
    Wn = {n: int(jobs[n].extra["workers"]) for n in J}
    b = {n: float(sm.standalone(L[n], Wn[n])) for n in J}
    kap = {n: float(sm.comm_penalty[L[n]]) for n in J}
    alpha = sm.alpha
    om = sm.ps_weight

    start = ComponentMap((v, 0.0) for v in model.component_data_objects(pyo.Var))
    X = defaultdict(int)
    Y = defaultdict(int)
    placed: dict[str, set] = defaultdict(set)
    for job, slot, server, role, count in schedule.allocations[
            ["job", "slot", "server", "role", "count"]].itertuples(index=False):
        if job not in jobs or server not in S:
            continue
        (X if role == "worker" else Y)[job, server] += int(count)
        placed[job].add(int(slot))
    if hasattr(model, "c_sym_servers"):
        X, Y = _relabel(workload, J, X, Y)
    tn = {n: next(iter(placed[n])) for n in J if len(placed[n]) == 1
          and (n, next(iter(placed[n]))) in model.st}
    for n in J:
        for s in S:
            start[model.X[n, s]] = float(X[n, s])
            start[model.Y[n, s]] = float(Y[n, s])
            start[model.z[n, s]] = 1.0 if X[n, s] + Y[n, s] > 0 else 0.0
        spread = sum(1 for s in S if X[n, s] + Y[n, s] > 0) > 1
        start[model.u[n]] = 1.0 if spread else 0.0

    def factor_pieces(d):
        return {"linear": 1.0 - d, "tail": (1.0 - sm.knee) - sm.tail_slope * (d - sm.knee),
                "floor": sm.min_factor}

    progress = defaultdict(float)
    done: dict[str, int] = {}
    act = defaultdict(int)
    for t in T:
        running = [n for n in J if n in tn and tn[n] <= t and n not in done]
        for n in running:
            act[n, t] = 1
        for n in J:
            if (n, t) not in model.JT:
                continue
            u = start[model.u[n]]
            d = kap[n] * u
            for s in S:
                if start[model.z[n, s]] < 0.5:
                    continue
                load = sum(float(alpha[L[n], L[o]]) * (X[o, s] + om * Y[o, s])
                           for o in running if o != n)
                d = max(d, load + kap[n] * u)
            start[model.D[n, t]] = d
            pieces = factor_pieces(d)
            best = max(pieces, key=lambda k: pieces[k])
            for k in pieces:
                start[model.piece[n, t, k]] = 1.0 if k == best else 0.0
            start[model.act[n, t]] = float(act[n, t])
            start[model.s[n, t]] = b[n] * pieces[best] if act[n, t] else 0.0
            for s in S:
                start[model.Kw[n, s, t]] = float(X[n, s] * act[n, t])
                start[model.Kp[n, s, t]] = float(Y[n, s] * act[n, t])
        for n in running:
            progress[n] += start[model.s[n, t]]
            if progress[n] >= float(jobs[n].epochs) - _EPS:
                done[n] = t
    for n in J:
        ts = [t for t in T if (n, t) in model.JT]
        if n in tn and n in done:
            start[model.st[n, tn[n]]] = 1.0
        else:  # not representable as given: the solver decides when it runs
            for t in ts:
                for var in (model.st[n, t], model.act[n, t], model.s[n, t]):
                    del start[var]
    return start

"""Harmony per-interval placement MILP (seed 002; the issue's "per interval" offline view).

``build_interval_milp(state, new_jobs)``: at the boundary of interval t, with the running jobs'
placements fixed, choose which of the queued ``new_jobs`` to place (all of a job's tasks or
none) and where, maximizing the interval's reward of Eq. (1), sum over all concurrent jobs of
c_n / e_n, under the known speed model: the greedy one-interval optimum of the quantity the DRL
learns to maximize. Same linearization as :mod:`.placement` (slowdown >= co-located load on
every server hosting the job minus big-M when absent, plus the spread penalty; the speed factor
as a max of affine pieces with one binary per piece).

``build_interval_milp_at(workload, interval=k, replay=ALG, max_new=5)`` is the same model as a
registered family model (``interval_milp``: ``mlopt export W --model interval_milp -o x.lp``):
an interval's state is not part of a workload, so it is made by replaying the schedule of the
family algorithm ``replay`` up to interval k (:func:`mlopt.families.harmony.state.state_at`);
the new jobs are the first ``max_new`` of k's queue (FIFO), as ``milp_greedy`` takes them.
DECISIONS: the default interval is the first arrival (an empty cluster: nothing to replay), the
default replay is ``milp_greedy`` itself, so the model exported for interval k is the one
``milp_greedy`` solves there (tested); an interval whose queue is empty is an error (naming
the first arrival).
"""
from __future__ import annotations

import numpy as np
import pyomo.environ as pyo

from mlopt.errors import InputError
from mlopt.families.harmony.speed import RESOURCES
from mlopt.families.harmony.state import ClusterState, state_at

MODEL_NAME = "harmony_interval_milp"


def build_interval_milp_at(workload, *, interval: int | None = None,
                           replay: str = "milp_greedy", max_new: int = 5) -> pyo.ConcreteModel:
    """The per-interval MILP of ``workload`` at ``interval`` (default: the first arrival), the
    running jobs being those ``replay`` placed before it."""
    from mlopt.families import get_family

    if not isinstance(max_new, int) or isinstance(max_new, bool) or max_new < 1:
        raise InputError("must be an integer >= 1", field="max_new", value=max_new)
    first = min((j.arrival for j in workload.jobs), default=1)
    k = first if interval is None else interval
    if not isinstance(k, int) or isinstance(k, bool) or not 1 <= k <= workload.horizon:
        raise InputError(f"must be an interval in 1..{workload.horizon}", field="interval",
                         value=interval)
    if k <= first:  # nothing placed yet: no replay needed
        st = ClusterState(workload)
        st.t = k
    else:
        try:
            run = get_family("harmony").algorithm(replay)
        except InputError as err:
            raise InputError(err.message, field="replay", value=replay) from None
        opts = {"max_new": max_new} if replay == "milp_greedy" else {}
        schedule = run(workload, seed=0, **opts)
        st = state_at(workload, schedule, k)
    queue = [int(n) for n in st.queue()][:max_new]
    if not queue:
        raise InputError(f"no job waits at this interval under {replay!r} (the first arrival is "
                         f"interval {first})", field="interval", value=k)
    return build_interval_milp(st, queue)


def build_interval_milp(state, new_jobs) -> pyo.ConcreteModel:
    """Build the one-interval MILP placing new jobs beside the fixed running ones."""
    st, sm = state, state.sm
    jobs = st.jobs
    run = [int(n) for n in np.flatnonzero(st.running())]
    new = [int(n) for n in new_jobs]
    allj = run + new
    S = list(range(len(st.cap)))
    alpha, om = sm.alpha, sm.ps_weight
    b = {n: float(sm.standalone(jobs.model[n], jobs.workers[n])) for n in allj}
    al = {(n, o): float(alpha[jobs.model[n], jobs.model[o]]) for n in allj for o in allj if o != n}
    kap = {n: float(sm.comm_penalty[jobs.model[n]]) for n in allj}
    bigd = {n: sum(al[n, o] * (jobs.workers[o] + om * jobs.ps[o]) for o in allj if o != n)
            for n in allj}
    W = {n: int(jobs.workers[n]) for n in allj}
    P = {n: int(jobs.ps[n]) for n in allj}

    m = pyo.ConcreteModel(name=MODEL_NAME)
    m.NEW = pyo.Set(initialize=new, ordered=True)
    m.ALL = pyo.Set(initialize=allj, ordered=True)
    m.S = pyo.Set(initialize=S, ordered=True)
    m.R = pyo.Set(initialize=list(range(len(RESOURCES))), ordered=True)
    m.PIECES = pyo.Set(initialize=["linear", "tail", "floor"], ordered=True)
    m.a = pyo.Var(m.NEW, domain=pyo.Binary)
    m.X = pyo.Var(m.NEW, m.S, domain=pyo.NonNegativeIntegers, bounds=lambda _, n, s: (0, W[n]))
    m.Y = pyo.Var(m.NEW, m.S, domain=pyo.NonNegativeIntegers, bounds=lambda _, n, s: (0, P[n]))
    m.z = pyo.Var(m.NEW, m.S, domain=pyo.Binary)
    m.u = pyo.Var(m.NEW, domain=pyo.Binary)
    m.D = pyo.Var(m.ALL, domain=pyo.NonNegativeReals)
    m.s = pyo.Var(m.ALL, domain=pyo.NonNegativeReals)
    m.piece = pyo.Var(m.ALL, m.PIECES, domain=pyo.Binary)

    # all or nothing
    m.c_all_workers = pyo.Constraint(m.NEW, rule=lambda m, n: sum(m.X[n, s] for s in S)
                                     == W[n] * m.a[n])
    m.c_all_ps = pyo.Constraint(m.NEW, rule=lambda m, n: sum(m.Y[n, s] for s in S)
                                == P[n] * m.a[n])
    m.c_presence = pyo.Constraint(m.NEW, m.S, rule=lambda m, n, s:
                                  m.X[n, s] + m.Y[n, s] <= (W[n] + P[n]) * m.z[n, s])
    m.c_spread = pyo.Constraint(m.NEW, rule=lambda m, n: sum(m.z[n, s] for s in S)
                                <= 1 + (len(S) - 1) * m.u[n])
    # the free capacity left by the running jobs
    m.c_capacity = pyo.Constraint(m.S, m.R, rule=lambda m, s, r: sum(
        jobs.dw[n, r] * m.X[n, s] + jobs.dp[n, r] * m.Y[n, s] for n in new)
        <= float(st.free[s, r]) + 1e-9 if new else pyo.Constraint.Skip)

    def load(n, s):  # co-located load on s felt by job n (running jobs: constants)
        fixed = sum(al[n, o] * (st.x[0, o, s] + om * st.x[1, o, s]) for o in run if o != n)
        return fixed + sum(al[n, o] * (m.X[o, s] + om * m.Y[o, s]) for o in new if o != n)

    def _slow(m, n, s):
        if n in new:
            return m.D[n] >= load(n, s) - bigd[n] * (1 - m.z[n, s]) + kap[n] * m.u[n]
        if st.x[:, n, s].sum() == 0:
            return pyo.Constraint.Skip
        spans = int((st.x[:, n, :].sum(axis=0) > 0).sum() > 1)
        return m.D[n] >= load(n, s) + kap[n] * spans
    m.c_slowdown = pyo.Constraint(m.ALL, m.S, rule=_slow)
    m.c_speed_admitted = pyo.Constraint(m.NEW, rule=lambda m, n: m.s[n] <= b[n] * m.a[n])
    m.c_one_piece = pyo.Constraint(m.ALL, rule=lambda m, n: sum(
        m.piece[n, k] for k in m.PIECES) == 1)

    def _factor(m, n, k):
        big = b[n] * (1.0 + bigd[n] + kap[n])
        rhs = {"linear": b[n] * (1.0 - m.D[n]),
               "tail": b[n] * ((1.0 - sm.knee) - sm.tail_slope * (m.D[n] - sm.knee)),
               "floor": b[n] * sm.min_factor}[k]
        return m.s[n] <= rhs + big * (1 - m.piece[n, k])
    m.c_speed_factor = pyo.Constraint(m.ALL, m.PIECES, rule=_factor)
    # Eq. (1): epochs trained this interval, relative to each job's total (capped at what is left)
    m.c_left = pyo.Constraint(m.ALL, rule=lambda m, n: m.s[n] <= max(
        0.0, float(jobs.epochs[n] - st.progress[n])))
    m.obj_reward = pyo.Objective(expr=sum(m.s[n] / float(jobs.epochs[n]) for n in allj),
                                 sense=pyo.maximize)
    return m

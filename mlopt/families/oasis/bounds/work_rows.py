"""Cumulative-work rows for the OASiS utility ILP: a job completed by slot t has all its work
done by slot t.

The utility ILP (:func:`mlopt.models.oasis.build_utility_ilp`) ties the completion slot to the
workers only through c8 (workers in slot t <= M_i x the u's of slots >= t) and the total work
through c2 (sum of all worker-slots >= W_i x_i).  In its LP relaxation a job may "complete"
early with a fraction of u while its work sits in late slots, which is what makes the compact
LP (2987 at oasis-open-2) much weaker than the schedule LP (14) of column generation (2955).
For every job i and slot t >= a_i:

    sum_{a_i <= s <= t} sum_h y_ih(s)  >=  W_i * sum_{s <= t} u_is          (work by t)

written with two continuous auxiliaries per (i, t), the running work w_it = w_i,t-1 +
sum_h y_ih(t) (w_i,a_i - 1 = 0) and the running completion U_it = U_i,t-1 + u_it, so each row
has a handful of terms instead of t x servers.  W_i is the model's own integer work ``work``
(ceil of W_i, the right-hand side of c2).

Why valid (every integer solution of the utility ILP satisfies it, so the optimum and every
dual bound stay >= OPT; also on the class-merged cluster, whose solutions are solutions of the
same ILP on other servers):
* x_i = 0: every u_it = 0 (c8_one_completion), the right-hand side is 0 <= the left.
* x_i = 1 with completion slot t*: for t < t* the right-hand side is 0.  For t >= t* it is
  W_i, and the left-hand side is every worker-slot the job ever gets, since c8 allows no
  worker after t*; c2 makes that >= W_i.
* late arrivals: y and u exist only from a_i (and u from the first possible completion), the
  sums start there; a job whose completion window is empty has no u at all, so its rows read
  w_it >= 0.
* zero allocations, unequal servers: the rows see only the per-job total over servers (any
  split over servers, any capacities), and y = 0 in a slot adds 0 to the running work.
* the checker's tolerance: the rows use the model's c2 work (already the integer ceil of W_i,
  valid for every checker-accepted schedule, :func:`~mlopt.models.oasis.build_utility_ilp`);
  nothing else is compared with a float.
"""
from __future__ import annotations

from collections import defaultdict

import pyomo.environ as pyo


def add_work_rows(m: pyo.ConcreteModel, need: dict[str, float]) -> int:
    """Add the rows of the module docstring to a utility-ILP model ``m`` (its y, u, JT);
    ``need``: W_i per job as in c2 (``index_data(...)["work"]``); returns how many "work by
    t" rows were added (``m.work_rows``)."""
    ys: dict[tuple[str, int], list] = defaultdict(list)
    for (i, h, t) in m.y:
        ys[i, t].append(m.y[i, h, t])
    us: dict[tuple[str, int], object] = {(i, t): m.u[i, t] for (i, t) in m.u}
    slots: dict[str, list[int]] = defaultdict(list)
    for (i, t) in m.JT:
        slots[i].append(t)
    m.work_index = pyo.Set(dimen=2, initialize=sorted(m.JT), ordered=True)
    m.work_done = pyo.Var(m.work_index, domain=pyo.NonNegativeReals)
    m.work_completed = pyo.Var(m.work_index, domain=pyo.NonNegativeReals, bounds=(0, 1))
    m.work_rows = pyo.ConstraintList()
    m.work_defs = pyo.ConstraintList()
    n = 0
    for i, ts in slots.items():
        ts = sorted(ts)
        prev_w = prev_u = None
        for t in ts:
            w, u = m.work_done[i, t], m.work_completed[i, t]
            m.work_defs.add(w == (0 if prev_w is None else prev_w) + pyo.quicksum(ys[i, t]))
            here = us.get((i, t))
            m.work_defs.add(u == (0 if prev_u is None else prev_u) + (0 if here is None
                                                                         else here))
            if need[i] > 0 and (prev_u is not None or here is not None):
                m.work_rows.add(w >= need[i] * u)
                n += 1
            prev_w, prev_u = w, u
    return n



def complete_start(m: pyo.ConcreteModel, start) -> None:
    """Set the auxiliaries of :func:`add_work_rows` in a start (variable -> value) from its
    y and u: the running work and the running completion, slot by slot, so a start that
    satisfies the utility ILP satisfies the rows too and stays a full, feasible start."""
    if not hasattr(m, "work_done"):
        return
    run_w: dict[str, float] = defaultdict(float)
    run_u: dict[str, float] = defaultdict(float)
    ys: dict[tuple[str, int], float] = defaultdict(float)
    for (i, h, t) in m.y:
        ys[i, t] += float(start.get(m.y[i, h, t], 0.0))
    for (i, t) in m.work_index:  # sorted by job, then slot
        run_w[i] += ys[i, t]
        if (i, t) in m.u:
            run_u[i] += float(start.get(m.u[i, t], 0.0))
        start[m.work_done[i, t]] = run_w[i]
        start[m.work_completed[i, t]] = run_u[i]

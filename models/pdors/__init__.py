"""PD-ORS formulations (seed 004): the exact DMLRS MILP here; the per-slot packing-covering IP
(23)-(26) with its LP relaxation and the single-job pricing MILP on the DP's workload grid in
:mod:`mlopt.models.pdors.slot`.

Notation (seed 004 / notes 004): jobs i (arrival a_i, batch F_i, ratio gamma_i), machines h of
one pool, resources r (bandwidth excluded), slots t; alpha_i^r / beta_i^r per-worker / per-PS
demands, C_h^r capacities; n_i^int / n_i^ext the worker-slots job i needs at internal / external
speed (:mod:`mlopt.families.pdors.fields`).  A builder never solves.
"""
from __future__ import annotations

import numpy as np
import pyomo.environ as pyo

from mlopt.errors import InputError
from mlopt.families.pdors.fields import (capacity_limits, copies, fastest_slots, pdors_arrays,
                                         work_limits)
from mlopt.schedule import Schedule
from mlopt.workload import Workload

INTEGRALITY_TOL = 1e-6


def _no_options(name: str, options: dict) -> None:
    if options:
        key = sorted(options)[0]
        raise InputError(f"{name} takes no options", field=f"options.{key}", value=options[key])


def build_dmlrs_milp(workload: Workload, **options) -> pyo.ConcreteModel:
    """DMLRS (3)-(7) of seed 004 as an exact MILP (the notes' [D] construction, Sec. 2).

    Variables (indices are job / machine ids and slots, so LP labels read ``w(j1_m1_2)``)
      * ``x[i]`` binary: job admitted; ``e[i,t]`` binary: job i completes in slot t;
      * ``w[i,h,t]``, ``s[i,h,t]`` integer >= 0: workers / PSs of i on machine h in slot t,
        only for t >= a_i (7) and where one worker (PS) fits on h; bounded by
        min(F_i, copies that fit on an empty h);
      * ``z[i,h,t]`` binary: i runs entirely on h in slot t (Fact 1's internal case);
      * ``om[i,h,t]`` >= 0: workers credited at internal speed.

    Rows
      * ``c_one_completion``  sum_t e[i,t] = x[i]
      * ``c4_batch_until_completion``  sum_h w[i,h,t] <= F_i sum_{t'>=t} e[i,t']: (4), and no
        worker after the completion slot, i.e. t~_i of (6) is the completion slot;
      * ``c6_work_in_completion``  sum_h w[i,h,t] >= e[i,t]: the completion slot has workers;
      * ``ratio_ps_cover``  gamma_i sum_h s >= sum_h w, ``ratio_ps_le_workers`` sum_h s <=
        sum_h w (the gamma_i row the notes omit, O1/O2; with (4) this also gives s = 0 when x = 0);
      * ``c5_capacity``  sum_i alpha_i^r w + beta_i^r s <= C_h^r on every shared machine;
      * Fact 1, exactly: ``fact1_one_machine`` sum_h z <= 1; ``fact1_alone_on_h``
        sum_{h' != h}(w + s)[i,h',t] <= 2 F_i (1 - z[i,h,t]); ``fact1_ps_on_h`` s[i,h,t] >= z;
        ``fact1_credit_le_w`` om <= w; ``fact1_credit_if_internal`` om <= ub(w) z;
      * ``c3_work``  sum_t sum_h [w + (n^ext/n^int - 1) om] >= n_i^ext x[i]: (3) in worker-slots
        at external speed, the internal slots credited at their faster rate.

    Why exact: z[i,h,t] = 1 forces every worker and PS of i in slot t onto h (and a PS there), so
    credit om > 0 only where Fact 1 gives internal speed; where it does, setting z = 1 is
    feasible, so the optimum credits every internal slot.  Completion is linearized as in the
    OASiS ILP: e picks the last slot with workers.  Objective: max sum_i sum_t u_i(t - a_i) e.

    Tightening: e[i,t] exists only for t >= a_i + k_i - 1, k_i the fewest slots the checker
    accepts (about ceil(n_i^int (1 - 1e-9) / F_i): no slot does more than F_i / n_i^int of the
    job; :func:`~mlopt.families.pdors.fields.fastest_slots`); a job with no such slot <= T has
    x_i = 0.

    The checker's slack (DECISION in :mod:`mlopt.tolerance`): the model allows what
    :mod:`mlopt.families.pdors.checker` accepts, so its optimum is never below a checked
    schedule.  (5) and the variable bounds use the accepted load C (1 + 1e-9) + 1e-9 and (3)
    the accepted work n_i^ext (1 - 1e-9), the first-completion cut too; integer data keep the
    exact C and n^ext (equivalent there: :func:`~mlopt.families.pdors.fields.capacity_limits`,
    :func:`~mlopt.families.pdors.fields.work_limits`).  An exact row let the model call 0
    optimal where the checker accepts a schedule worth 10 (two workers of 1 + 1e-9 CPU on a
    2-CPU machine; ``tests/pdors/test_pdors_tolerance.py``).
    """
    _no_options("dmlrs_milp", options)
    arr = pdors_arrays(workload)
    T, R = workload.horizon, arr.resources
    jobs = [j.id for j in workload.jobs]
    hs = list(arr.server_ids)
    limit = capacity_limits(arr)  # H x R, the load the checker accepts
    work_needed = work_limits(arr)  # I, the work the checker accepts
    fastest = fastest_slots(arr, T)
    wfit = copies(limit, arr.alpha)  # I x H
    sfit = copies(limit, arr.beta)
    m = pyo.ConcreteModel(name="pdors_dmlrs_milp")
    W, S, E = [], [], []
    wub, sub = {}, {}
    for i, jid in enumerate(jobs):
        a, F = int(arr.arrival[i]), int(arr.batch[i])
        first = a + int(fastest[i]) - 1
        E += [(jid, t) for t in range(first, T + 1)]
        for hi, h in enumerate(hs):
            for t in range(a, T + 1):
                if wfit[i, hi] >= 1:
                    W.append((jid, h, t))
                    wub[jid, h, t] = int(min(F, wfit[i, hi]))
                if sfit[i, hi] >= 1:
                    S.append((jid, h, t))
                    sub[jid, h, t] = int(min(F, sfit[i, hi]))
    m.J = pyo.Set(initialize=jobs, ordered=True)
    m.W = pyo.Set(initialize=W, dimen=3, ordered=True)
    m.S = pyo.Set(initialize=S, dimen=3, ordered=True)
    m.E = pyo.Set(initialize=E, dimen=2, ordered=True)
    m.x = pyo.Var(m.J, domain=pyo.Binary)
    m.e = pyo.Var(m.E, domain=pyo.Binary)
    m.w = pyo.Var(m.W, domain=pyo.NonNegativeIntegers, bounds=lambda _, *k: (0, wub[k]))
    m.s = pyo.Var(m.S, domain=pyo.NonNegativeIntegers, bounds=lambda _, *k: (0, sub[k]))
    m.z = pyo.Var(m.W, domain=pyo.Binary)
    m.om = pyo.Var(m.W, domain=pyo.NonNegativeReals, bounds=lambda _, *k: (0, wub[k]))

    ji = {jid: i for i, jid in enumerate(jobs)}
    w_by = {}  # (i, t) -> [(h, t)]
    s_by = {}
    for (j, h, t) in W:
        w_by.setdefault((j, t), []).append(h)
    for (j, h, t) in S:
        s_by.setdefault((j, t), []).append(h)
    e_by = {}
    for (j, t) in E:
        e_by.setdefault(j, []).append(t)
    slots = sorted({(j, t) for (j, _, t) in W} | {(j, t) for (j, _, t) in S})

    def sw(j, t):
        return sum(m.w[j, h, t] for h in w_by.get((j, t), []))

    def ss(j, t):
        return sum(m.s[j, h, t] for h in s_by.get((j, t), []))

    # one completion slot iff admitted
    m.c_one_completion = pyo.Constraint(m.J, rule=lambda _, j: sum(
        m.e[j, t] for t in e_by.get(j, [])) == m.x[j])
    # (4) + (6): at most F_i workers, and none after the completion slot
    m.c4_batch_until_completion = pyo.Constraint(slots, rule=lambda _, j, t: sw(j, t) <= int(
        arr.batch[ji[j]]) * sum(m.e[j, u] for u in e_by.get(j, []) if u >= t))
    # (6): the completion slot has at least one worker
    m.c6_work_in_completion = pyo.Constraint(m.E, rule=lambda _, j, t: sw(j, t) >= m.e[j, t])
    # worker:PS ratio rows (O1/O2): gamma sum s >= sum w >= sum s
    m.ratio_ps_cover = pyo.Constraint(slots, rule=lambda _, j, t: int(arr.gamma[ji[j]]) * ss(
        j, t) >= sw(j, t))
    m.ratio_ps_le_workers = pyo.Constraint(slots, rule=lambda _, j, t: ss(j, t) <= sw(j, t))

    # (5): capacities of shared machines, both roles of every job
    cap_terms = {}
    for (j, h, t) in W:
        for r, res in enumerate(R):
            if arr.alpha[ji[j], r] > 0:
                cap_terms.setdefault((h, t, res), []).append((float(arr.alpha[ji[j], r]),
                                                              m.w[j, h, t]))
    for (j, h, t) in S:
        for r, res in enumerate(R):
            if arr.beta[ji[j], r] > 0:
                cap_terms.setdefault((h, t, res), []).append((float(arr.beta[ji[j], r]),
                                                              m.s[j, h, t]))
    cap = {(h, res): float(limit[hi, r]) for hi, h in enumerate(hs) for r, res in enumerate(R)}
    keys = sorted(cap_terms, key=lambda k: (hs.index(k[0]), k[1], R.index(k[2])))
    m.c5_capacity = pyo.Constraint(keys, rule=lambda _, h, t, res: sum(
        c * v for c, v in cap_terms[h, t, res]) <= cap[h, res])

    # Fact 1: z[i,h,t] = 1 => everything of i in slot t is on h, with a PS there
    m.fact1_one_machine = pyo.Constraint(slots, rule=lambda _, j, t: sum(
        m.z[j, h, t] for h in w_by.get((j, t), [])) <= 1 if w_by.get((j, t)) else
        pyo.Constraint.Skip)

    def alone(_, j, h, t):
        others = [m.w[j, g, t] for g in w_by.get((j, t), []) if g != h] + \
                 [m.s[j, g, t] for g in s_by.get((j, t), []) if g != h]
        if not others:
            return pyo.Constraint.Skip
        return sum(others) <= 2 * int(arr.batch[ji[j]]) * (1 - m.z[j, h, t])
    m.fact1_alone_on_h = pyo.Constraint(m.W, rule=alone)
    m.fact1_ps_on_h = pyo.Constraint(m.W, rule=lambda _, j, h, t: (
        m.s[j, h, t] >= m.z[j, h, t]) if (j, h, t) in sub else m.z[j, h, t] == 0)
    m.fact1_credit_le_w = pyo.Constraint(m.W, rule=lambda _, j, h, t: m.om[j, h, t] <= m.w[
        j, h, t])
    m.fact1_credit_if_internal = pyo.Constraint(m.W, rule=lambda _, j, h, t: m.om[
        j, h, t] <= wub[j, h, t] * m.z[j, h, t])

    # (3): work in worker-slots at external speed; internal slots count n^ext/n^int times
    def work(_, j):
        i = ji[j]
        bonus = float(arr.n_ext[i] / arr.n_int[i] - 1.0)
        terms = [m.w[k] for k in W if k[0] == j]
        if not terms:
            return m.x[j] == 0
        return sum(terms) + bonus * sum(m.om[k] for k in W if k[0] == j) >= \
            float(work_needed[i]) * m.x[j]
    m.c3_work = pyo.Constraint(m.J, rule=work)

    util = {(j, t): float(workload.jobs[ji[j]].utility(t - int(arr.arrival[ji[j]])))
            for (j, t) in E}
    m.obj_total_utility = pyo.Objective(expr=sum(util[k] * m.e[k] for k in E),
                                        sense=pyo.maximize)
    return m


def extract_schedule(model: pyo.ConcreteModel, workload: Workload) -> Schedule:
    """Read a solved :func:`build_dmlrs_milp` back into a Schedule (integer counts)."""
    def val(v):
        x = pyo.value(v, exception=False)
        if x is None:
            return 0
        r = round(x)
        if abs(x - r) > INTEGRALITY_TOL:
            raise ValueError(f"{v.name} = {x} is not integral: the model was not solved as a MILP")
        return int(r)

    admitted = [j for j in model.J if val(model.x[j]) == 1]
    rows = [(j, t, h, "worker", val(model.w[j, h, t])) for (j, h, t) in model.W]
    rows += [(j, t, h, "ps", val(model.s[j, h, t])) for (j, h, t) in model.S]
    rows = [r for r in rows if r[4] > 0 and r[0] in admitted]
    return Schedule.from_rows(admitted, rows, {"model": "dmlrs_milp"})


from mlopt.models.pdors.slot import build_pricing_milp, build_slot_ip  # noqa: E402,F401

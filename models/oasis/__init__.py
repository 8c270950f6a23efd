"""OASiS offline utility maximization: ILP (1)-(13) of seed 000 (Bao et al., INFOCOM'18), III-C.

``build_utility_ilp(workload)`` states the paper's problem as a declarative Pyomo MILP with the
non-conventional completion-time constraint (8) linearized exactly;
``extract_schedule(model, workload)`` reads a solved model back into a :class:`Schedule`.

Notation (Table I): jobs i with arrival a_i, E_i epochs, N_i chunks; worker servers h (servers
that ``hosts_workers()``), PS servers k (``hosts_ps()``); resources r with capacities c_h^r /
c_k^r and per-worker / per-PS demands w_i^r / s_i^r; bandwidths b_i = w_i^bw, B_i = s_i^bw;
slots t in 1..T.  W_i = E_i N_i M_i (tau_i + 2 e_i / b_i) is ``workload.work(job)``, in
worker-slots (DESIGN.md, OASiS notes).
"""
from __future__ import annotations

import math
from collections import defaultdict

import numpy as np
import pyomo.environ as pyo

from mlopt import limits, tolerance
from mlopt.errors import InputError
from mlopt.models import INTEGRALITY_TOL, integral_value  # noqa: F401 (INTEGRALITY_TOL: docs)
from mlopt.schedule import Schedule
from mlopt.workload import BANDWIDTH, Workload

MODEL_NAME = "oasis_utility_ilp"
# Slack for floors/ceils of ratios of floats (0.3 / 0.1 = 2.9999999999999996 must floor to 3).
# Used only where erring makes a bound *weaker*, never stronger: exact rows still decide.
_RATIO_EPS = 1e-9
_OPTIONS = {"completion_window": True}


def accepted_capacity(capacity: float) -> float:
    """The most load the checker accepts on a capacity: c (1 + CAP_RTOL) + CAP_ATOL.

    DECISION: the model allows what the checker allows, so it is a relaxation of every
    schedule the checker accepts (its optimum, and every bound built on it, is never below a
    checked schedule).  An independent review built a schedule the checker accepts (two workers
    of 1.000000001 CPU on a 2-CPU server, worth 15) above the ILP's "optimal" 1, and a bracket
    that called 10 optimal above it.  With integer data nothing changes (an integer load within
    1e-9 relative + 1e-9 of an integer capacity below 1e8 is within it), so the rows keep the
    exact capacity there (``_capacity_rhs``)."""
    return tolerance.accepted_capacity(capacity)


def _capacity_rhs(capacity: float, demands) -> float:
    """A capacity row's right-hand side: exact for integer data (equivalent), else the
    checker's accepted load (:func:`accepted_capacity`; :func:`mlopt.tolerance.capacity_rhs`)."""
    return tolerance.capacity_rhs(capacity, demands)


def _max_copies(capacity: dict[str, float], demand: dict[str, float], resources) -> int | None:
    """min_r floor(c^r / d^r) over resources with d^r > 0 (never divides by 0), with c^r the
    load the checker accepts (:func:`accepted_capacity`).

    ``None`` when the demand is zero in every resource (no capacity limit at all); cannot
    happen for validated workloads because bandwidth demands are > 0.
    """
    best = None
    for r in resources:
        d = demand[r]
        if d > 0:
            n = max(0, math.floor(accepted_capacity(capacity[r]) / d + _RATIO_EPS))
            best = n if best is None else min(best, n)
    return best


#: most coefficients the ILP may have before it is built: the rows of (8) sum u over a suffix of
#: slots (about T^2 / 2 terms per job), so a long horizon grows the model quadratically.  The
#: paper's largest setting (200 jobs, T = 300, 100 servers) is about a third of this.
MAX_MODEL_TERMS = limits.MAX_CELLS


def _check_size(workload: Workload, y_ub, z_ub, first_completion) -> None:
    """InputError before anything is built when the model would exceed MAX_MODEL_TERMS."""
    T = workload.horizon
    terms = 0
    for (i, _h) in list(y_ub) + list(z_ub):  # y, z over the slots after the arrival
        terms += 3 * (T - workload.jobs[workload.job_index[i]].arrival + 1)
    for j in workload.jobs:  # (8): suffix sums of u over the completion window
        n = max(0, T - first_completion[j.id] + 1)
        terms += n * (n + 1) // 2
    if terms > MAX_MODEL_TERMS:
        raise InputError(f"the utility ILP would have about {terms:,} coefficients, above the "
                         f"limit {MAX_MODEL_TERMS:,} (mlopt.models.oasis.MAX_MODEL_TERMS; the "
                         "rows of (8) grow with T^2): too large to build", field="horizon",
                         value=T)


def index_data(workload: Workload, completion_window: bool = True) -> dict:
    """The ILP's sparse index data, in plain Python (linear in the number of variables):
    ``y_ub`` / ``z_ub`` ((job, server) -> bound, only where one copy fits), ``y_servers`` /
    ``z_servers`` (job -> those servers), ``work`` (ceil W_i), ``most_workers`` (M_i) and
    ``first_completion`` (earliest slot with a u variable).  Shared by the builder and the
    size estimate (:mod:`.estimate`), so both count the same variables."""
    T = workload.horizon
    R = workload.resources
    jobs = workload.jobs
    wservers = workload.worker_servers()
    pservers = workload.ps_servers()
    y_ub: dict[tuple[str, str], int] = {}  # (i, h) -> bound, only where a worker fits
    z_ub: dict[tuple[str, str], int] = {}
    for j in jobs:
        for s in wservers:
            n = _max_copies(s.capacity, j.worker_demand, R)
            n = j.chunks if n is None else min(j.chunks, n)
            if n > 0:
                y_ub[j.id, s.id] = n
        for s in pservers:
            n = _max_copies(s.capacity, j.ps_demand, R)
            n = j.chunks if n is None else min(j.chunks, n)
            if n > 0:
                z_ub[j.id, s.id] = n
    y_servers = defaultdict(list)  # i -> worker servers with a y variable
    for (i, h) in y_ub:
        y_servers[i].append(h)
    z_servers = defaultdict(list)
    for (i, k) in z_ub:
        z_servers[i].append(k)

    # (2) in whole worker-slots: sum_t sum_h y is an integer, so ">= W_i x_i" is the same as
    # ">= ceil(W_i) x_i".  W_i is a float from seconds/MB/Gbps, so the ceil forgives a relative
    # 1e-9 of noise (3.0000000000000004 -> 3, the checker's tolerance) and keeps at least 1
    # (an admitted job needs some work since W_i > 0).  Integer coefficients also keep HiGHS's
    # 1e-6 feasibility tolerance from accepting 3 worker-slots for W_i = 3.0000004.
    work = {j.id: max(1, math.ceil(workload.work(j) * (1.0 - _RATIO_EPS))) for j in jobs}
    most_workers = {}  # M_i: the most workers job i can ever have in one slot
    for j in jobs:
        by_servers = sum(y_ub[j.id, h] for h in y_servers[j.id])
        # (6): b_i sum_h y <= B_i sum_k z <= B_i sum_k ub(z); plus eps so rounding only loosens
        # (the checker's slack on (6) too: accepted_capacity)
        by_ps = math.floor(accepted_capacity(j.ps_bandwidth * sum(
            z_ub[j.id, k] for k in z_servers[j.id])) / j.worker_bandwidth + _RATIO_EPS)
        most_workers[j.id] = max(0, min(j.chunks, by_servers, by_ps))
    first_completion = {}  # earliest slot with a u variable
    for j in jobs:
        m_i = most_workers[j.id]
        if m_i == 0:
            first_completion[j.id] = T + 1  # no worker fits anywhere: never completes
        elif completion_window:
            slots = -(-work[j.id] // m_i)  # ceil(W_i / M_i), both integers
            first_completion[j.id] = j.arrival + slots - 1
        else:
            first_completion[j.id] = j.arrival
    return {"y_ub": y_ub, "z_ub": z_ub, "y_servers": y_servers, "z_servers": z_servers,
            "work": work, "most_workers": most_workers,
            "first_completion": first_completion}


def build_utility_ilp(workload: Workload, **options) -> pyo.ConcreteModel:
    """The OASiS offline ILP (1)-(13), seed 000 Sec. III-C, as a Pyomo model (never solved here).

    Variables
      * ``x[i]`` binary (11): job i admitted.
      * ``y[i,h,t]`` integer >= 0 (12): workers of i on worker server h in slot t.
      * ``z[i,k,t]`` integer >= 0 (13): parameter servers of i on PS server k in slot t.
      * ``u[i,t]`` binary: job i completes in slot t (linearization of (8)).

    (9)/(10) (no workers/PSs before arrival) hold by construction: y and z exist only for
    t >= a_i.  A y (z) variable also exists only when at least one worker (PS) of i fits on the
    server; its upper bound is min(N_i, min_{r: w_i^r>0} floor(c_h^r / w_i^r)) (resp. s_i^r,
    c_k^r).  N_i bounds y by (3) and z by (7)+(3).  Both bounds are implied by the rows, so
    they are valid and only help the solver.

    Exact linearization of the completion time (8), t_hat_i = last slot with workers:
      c8_one_completion           sum_t u[i,t] = x[i]
      c8_no_work_after_completion sum_h y[i,h,t] <= M_i * sum_{t' >= t} u[i,t']
      c8_work_in_completion_slot  sum_h y[i,h,t] >= u[i,t]
      obj1_total_utility          max sum_i sum_t f_i(t - a_i) u[i,t]
    with M_i = min(N_i, sum_h ub(y[i,h,t]), floor(B_i sum_k ub(z[i,k,t]) / b_i)), the most
    workers i can ever have in one slot by (3), the y bounds, and (6) with the z bounds.
    Why exact: if x_i = 0, every u[i,.] = 0, so no worker (and by (7) no PS) is ever placed and
    the job contributes 0, as x_i f_i(.) = 0 in (1).  If x_i = 1, exactly one u[i,t*] = 1; the
    second row forbids workers in every slot t > t* (the suffix sum is 0 there) and the third
    forces at least one worker in t*, so t* is exactly the last slot with workers, i.e.
    t* = t_hat_i of (8), and the objective term is f_i(t_hat_i - a_i) = x_i f_i(t_hat_i - a_i).
    Conversely every feasible (x, y, z) of (1)-(13) maps to one of this model (u[i,t_hat_i] =
    x_i) with the same objective, since the workers in any slot are at most M_i by (3), the
    capacity bounds and (6).  No monotonicity of f_i is needed for this argument.

    (2) is written with the integer ceil(W_i) (forgiving 1e-9 relative float noise in W_i):
    equivalent for integer y, and it tightens the LP relaxation.

    Tightening (option ``completion_window=True``, the default): u[i,t] exists only for
    t >= a_i + ceil(W_i / M_i) - 1, the earliest slot by which i can have received W_i
    worker-slots with at most M_i workers per slot (2).  Fixing the earlier u to 0 is valid:
    no feasible solution completes earlier.  A job whose window is empty (it cannot finish by T)
    gets no u at all, so c8_one_completion forces x_i = 0.  With ``completion_window=False``
    u[i,t] exists for every t >= a_i.

    Capacity rows (4)/(5) only exist for (server, slot, resource) triples that some present job
    actually uses (demand > 0 and a variable on that server): rows with no terms are 0 <= c.

    Indices are the job / server id strings and resource names, so symbolic LP labels read as
    ``y(job_server_slot)``.  OASiS keeps worker and PS machines apart (Sec. III-A), so a server
    with role ``any`` is rejected with :class:`InputError` rather than double-counting it.
    """
    unknown = set(options) - set(_OPTIONS)
    if unknown:
        name = sorted(unknown)[0]
        raise InputError(f"unknown option for {MODEL_NAME} (known: {', '.join(_OPTIONS)})",
                         field=f"options.{name}", value=options[name])
    opts = {**_OPTIONS, **options}
    shared = [s.id for s in workload.servers if s.hosts_workers() and s.hosts_ps()]
    if shared:
        raise InputError("OASiS (seed 000, Sec. III-A) runs workers and parameter servers on "
                         "separate machines; role 'any' is not part of this formulation",
                         field="servers.role", value=shared[0])

    T = workload.horizon
    R = workload.resources
    jobs = workload.jobs
    wservers = workload.worker_servers()
    pservers = workload.ps_servers()

    # ---- sparse index data (plain Python, linear in the number of variables) --------------
    d = index_data(workload, opts["completion_window"])
    y_ub, z_ub, y_servers, z_servers = d["y_ub"], d["z_ub"], d["y_servers"], d["z_servers"]
    work, most_workers, first_completion = d["work"], d["most_workers"], d["first_completion"]
    arrival = {j.id: j.arrival for j in jobs}
    job = {j.id: j for j in jobs}
    _check_size(workload, y_ub, z_ub, first_completion)

    jt = [(j.id, t) for j in jobs for t in range(j.arrival, T + 1)]
    jht = [(i, h, t) for (i, h) in y_ub for t in range(arrival[i], T + 1)]
    jkt = [(i, k, t) for (i, k) in z_ub for t in range(arrival[i], T + 1)]
    ju = [(j.id, t) for j in jobs for t in range(first_completion[j.id], T + 1)]

    # capacity rows: (server, t, r) -> jobs with a variable there and a positive demand in r
    w_rows: dict[tuple[str, int, str], list[str]] = defaultdict(list)
    for (i, h) in y_ub:
        used = [r for r in R if job[i].worker_demand[r] > 0]
        for t in range(arrival[i], T + 1):
            for r in used:
                w_rows[h, t, r].append(i)
    p_rows: dict[tuple[str, int, str], list[str]] = defaultdict(list)
    for (i, k) in z_ub:
        used = [r for r in R if job[i].ps_demand[r] > 0]
        for t in range(arrival[i], T + 1):
            for r in used:
                p_rows[k, t, r].append(i)
    # keep the rows in a deterministic (server, slot, resource) order for golden LP files
    srank = workload.server_index
    rrank = {r: n for n, r in enumerate(R)}
    w_keys = sorted(w_rows, key=lambda key: (srank[key[0]], key[1], rrank[key[2]]))
    p_keys = sorted(p_rows, key=lambda key: (srank[key[0]], key[1], rrank[key[2]]))

    cap = {s.id: s.capacity for s in workload.servers}
    util = {}  # (i, t) -> f_i(t - a_i), vectorized per job
    for j in jobs:
        ts = np.arange(first_completion[j.id], T + 1)
        if len(ts):
            vals = np.atleast_1d(j.utility(ts - j.arrival))
            util.update({(j.id, int(t)): float(v) for t, v in zip(ts, vals)})

    # ---- model --------------------------------------------------------------------------
    m = pyo.ConcreteModel(name=MODEL_NAME)
    m.J = pyo.Set(initialize=[j.id for j in jobs], ordered=True, doc="jobs i")
    m.H = pyo.Set(initialize=[s.id for s in wservers], ordered=True, doc="worker servers h")
    m.K = pyo.Set(initialize=[s.id for s in pservers], ordered=True, doc="PS servers k")
    m.T = pyo.RangeSet(1, T, doc="slots t")
    m.JT = pyo.Set(dimen=2, initialize=jt, ordered=True, doc="(i, t) with t >= a_i")
    m.JHT = pyo.Set(dimen=3, initialize=jht, ordered=True, doc="y index: t >= a_i, fits on h")
    m.JKT = pyo.Set(dimen=3, initialize=jkt, ordered=True, doc="z index: t >= a_i, fits on k")
    m.JU = pyo.Set(dimen=2, initialize=ju, ordered=True, doc="possible completion slots")
    m.HTR = pyo.Set(dimen=3, initialize=w_keys, ordered=True, doc="worker capacity rows")
    m.KTR = pyo.Set(dimen=3, initialize=p_keys, ordered=True, doc="PS capacity rows")

    m.x = pyo.Var(m.J, domain=pyo.Binary)  # (11)
    m.y = pyo.Var(m.JHT, domain=pyo.NonNegativeIntegers,  # (12), (9) by the index set
                  bounds=lambda m_, i, h, t: (0, y_ub[i, h]))
    m.z = pyo.Var(m.JKT, domain=pyo.NonNegativeIntegers,  # (13), (10) by the index set
                  bounds=lambda m_, i, k, t: (0, z_ub[i, k]))
    m.u = pyo.Var(m.JU, domain=pyo.Binary)  # completion indicators for (8)

    def workers(i, t):  # sum_h y_ih(t)
        return [m.y[i, h, t] for h in y_servers[i]]

    def pss(i, t):  # sum_k z_ik(t)
        return [m.z[i, k, t] for k in z_servers[i]]

    u_slots = defaultdict(list)  # i -> slots with a u variable, ascending
    for (i, t) in ju:
        u_slots[i].append(t)

    # (1) total utility of admitted jobs, f_i evaluated at the completion slot picked by u
    m.obj1_total_utility = pyo.Objective(
        expr=pyo.quicksum(util[i, t] * m.u[i, t] for (i, t) in ju), sense=pyo.maximize)

    # (2) an admitted job gets at least W_i worker-slots in total (ceil(W_i), see above)
    m.c2_work_covered = pyo.Constraint(m.J, rule=lambda m_, i: pyo.quicksum(
        m.y[i, h, t] for h in y_servers[i] for t in range(arrival[i], T + 1))
        >= work[i] * m.x[i])

    # (3) at most N_i concurrent workers (one per data chunk), none if not admitted
    def c3(m_, i, t):
        ys = workers(i, t)
        return pyo.quicksum(ys) <= job[i].chunks * m.x[i] if ys else pyo.Constraint.Skip
    m.c3_max_workers = pyo.Constraint(m.JT, rule=c3)

    # (4) workers on a machine fit its capacity, per resource and slot
    m.c4_worker_capacity = pyo.Constraint(m.HTR, rule=lambda m_, h, t, r: pyo.quicksum(
        job[i].worker_demand[r] * m.y[i, h, t] for i in w_rows[h, t, r]) <= _capacity_rhs(
        cap[h][r], [job[i].worker_demand[r] for i in w_rows[h, t, r]]))

    # (5) parameter servers on a machine fit its capacity, per resource and slot
    m.c5_ps_capacity = pyo.Constraint(m.KTR, rule=lambda m_, k, t, r: pyo.quicksum(
        job[i].ps_demand[r] * m.z[i, k, t] for i in p_rows[k, t, r]) <= _capacity_rhs(
        cap[k][r], [job[i].ps_demand[r] for i in p_rows[k, t, r]]))

    # (6) the job's PSs offer at least the bandwidth its workers use
    def c6(m_, i, t):
        ys = workers(i, t)
        if not ys:
            return pyo.Constraint.Skip
        b, B = job[i].worker_demand[BANDWIDTH], job[i].ps_demand[BANDWIDTH]
        offered = B * pyo.quicksum(pss(i, t))
        if not (float(b).is_integer() and float(B).is_integer()):
            offered = accepted_capacity(offered)  # the checker's slack (integer data: the same)
        return b * pyo.quicksum(ys) <= offered
    m.c6_ps_bandwidth = pyo.Constraint(m.JT, rule=c6)

    # (7) no more PSs than workers
    def c7(m_, i, t):
        zs = pss(i, t)
        return pyo.quicksum(zs) <= pyo.quicksum(workers(i, t)) if zs else pyo.Constraint.Skip
    m.c7_ps_at_most_workers = pyo.Constraint(m.JT, rule=c7)

    # (8) an admitted job completes in exactly one slot ...
    m.c8_one_completion = pyo.Constraint(m.J, rule=lambda m_, i: pyo.quicksum(
        m.u[i, t] for t in u_slots[i]) == m.x[i])

    # (8) ... has no workers after it (suffix sum of u is 0 after the completion slot) ...
    def c8_after(m_, i, t):
        ys = workers(i, t)
        if not ys:
            return pyo.Constraint.Skip
        return pyo.quicksum(ys) <= most_workers[i] * pyo.quicksum(
            m.u[i, s] for s in u_slots[i] if s >= t)
    m.c8_no_work_after_completion = pyo.Constraint(m.JT, rule=c8_after)

    # (8) ... and at least one worker in it, so it is the last slot with workers
    m.c8_work_in_completion_slot = pyo.Constraint(m.JU, rule=lambda m_, i, t: pyo.quicksum(
        workers(i, t)) >= m.u[i, t])
    return m


def extract_schedule(model: pyo.ConcreteModel, workload: Workload) -> Schedule:
    """Read x, y, z of a solved :func:`build_utility_ilp` model into a :class:`Schedule`.

    Solver values are rounded to the nearest integer; a value more than ``INTEGRALITY_TOL``
    (1e-6) away from it raises ``ValueError`` (the model was not solved as a MILP).  admitted =
    jobs with x_i = 1; rows (job, slot, server, role, count) for every positive y (role
    ``worker``) and z (role ``ps``).  ``meta`` holds the model's objective value (``objective``)
    and the completion slot the u indicators chose for each admitted job (``completion``);
    neither is trusted downstream: the checker recomputes both.
    """
    if getattr(model, "name", None) != MODEL_NAME:
        raise ValueError(f"not a {MODEL_NAME} model: {getattr(model, 'name', None)!r}")
    if list(model.J) != [j.id for j in workload.jobs]:
        raise ValueError("the model was built from a different workload (job ids differ)")
    admitted = [i for i in model.J if integral_value(model.x[i].value, f"x[{i}]") == 1]
    rows = []
    for (i, h, t), var in model.y.items():
        n = integral_value(var.value, f"y[{i},{h},{t}]")
        if n:
            rows.append((i, t, h, "worker", n))
    for (i, k, t), var in model.z.items():
        n = integral_value(var.value, f"z[{i},{k},{t}]")
        if n:
            rows.append((i, t, k, "ps", n))
    completion = {i: int(t) for (i, t), var in model.u.items()
                  if integral_value(var.value, f"u[{i},{t}]") == 1}
    meta = {"producer": f"models.oasis.{MODEL_NAME}",
            "objective": float(pyo.value(model.obj1_total_utility)),
            "completion": completion}
    return Schedule.from_rows(admitted, rows, meta)

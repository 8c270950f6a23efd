"""Harmony offline placement MILP (seed 002; the paper gives no program, see below).

``build_placement_milp(workload)`` minimizes the average JCT over the horizon under the family's
*known* ground-truth speed model (``mlopt/families/harmony/speed_model.toml``): the offline
optimum the paper, which only had a black box, could not compute. ``extract_schedule`` reads the
placement back. Exact for the model (no approximation), so it is for tiny instances.

Decisions per job n (arrival a_n, W_n workers, P_n PSs, e_n epochs, model l_n) and server m:

* ``st[n,t]`` binary, t in a_n..T: the job is placed at (the start of) interval t (queueing
  allowed: the offline optimum may delay a job to avoid interference);
* ``X[n,m]``, ``Y[n,m]`` integer: workers / PSs on m, fixed for the job's life (no migration);
* ``z[n,m]`` binary: n has a task on m; ``u[n]`` binary: n spans more than one server;
* ``act[n,t]`` binary: n runs in interval t (contiguous from its start);
* ``Kw[n,m,t] = X[n,m] act[n,t]``, ``Kp`` likewise (products linearized: both only ever need
  the lower bound Kw >= X - W (1 - act), Kw >= 0, because they only appear on the "<= capacity"
  and "slowdown >=" sides, where larger is worse for the objective);
* ``D[n,t] >= 0``: n's slowdown; for every m: D >= sum_{n' != n} alpha[l_n, l_n'] (Kw[n',m,t]
  + omega Kp[n',m,t]) - BigM (1 - z[n,m]) + kappa_n u[n] (the max over its servers of the
  co-located load, plus the spread penalty);
* ``s[n,t]``: epochs trained in t, s <= b_n act[n,t] and s <= b_n factor(D) with the speed factor
  max(1 - D, (1 - knee) - tail (D - knee), min_factor), a max of affine pieces: one binary
  ``piece[n,t,k]`` picks the piece that bounds s (exact disjunction, big-M b_n (1 + Dmax_n));
* ``sum_t s[n,t] >= e_n``.

Objective: (1/|J|) sum_n [sum_t (t - a_n) st[n,t] + sum_t act[n,t]] = average of
completion - a_n + 1 (JCT in whole intervals, the checker's definition).

``tight_bigm`` (on by default): the slowdown row of (n, m) only has to be void when n has no
task on m, so its big-M is an upper bound on the load any true placement puts on m (not every
other job's every task): :func:`server_load_cap`, a fractional knapsack of the other jobs'
tasks into m's capacity per resource (with the checker's tolerance), the least over resources
every task uses.  The speed pieces' big-M is b_n (1 + Dmax_n) with Dmax_n the largest of these
over n's servers: at true values D_n = max over n's servers of their load (each <= its cap)
+ kappa_n, so a void piece's rhs + big-M >= b_n >= s.  Only true-valued points matter for
OPT_MILP <= OPT (below), and rows that remove points never break the other direction, so the
optimum is unchanged (tested against the original form, tests/harmony/test_harmony_milp.py).
Zero allocations: a server without n's task has z = 0 and its row is void for every load up to
the cap (a role-"worker" server hosts nothing: X = Y = 0 there, its row is void anyway).

``upper`` (off by default): the average JCT of a checked schedule.  Then an optimal schedule
has sum_n JCT_n <= U = J x upper (an integer) and every JCT_o >= lb_o, the standalone bound's
per-job value (:mod:`mlopt.families.harmony.bounds`, valid for every feasible schedule), so
JCT_n <= cap_n = U - sum_{o != n} lb_o; a job starting in s runs >= lb_n intervals, so
s <= a_n + cap_n - lb_n, and it runs in no interval after a_n + cap_n - 1.  ``st`` and ``act``
beyond these are fixed at 0, and the objective row sum_n JCT_n <= U is added (so an
``upper`` below OPT gives an infeasible model, never a wrong optimum above ``upper``).
This removes only points whose objective exceeds ``upper``
(at true values), so the optimum is unchanged when ``upper`` is at least OPT -- which a
checked schedule's objective is.  An ``upper`` below OPT makes the model infeasible (the
objective row): pass only a checked objective (tests/harmony/test_harmony_milp.py checks both
forms agree on random instances with ``upper`` = a checked schedule's and = OPT itself).

``rc_fix`` (off by default, only with ``upper``; refused without it): reduced-cost fixing
from the ``share`` bound's Lagrangian (:mod:`mlopt.families.harmony.share_fixing`, its
ARGUMENT): a schedule of sum of JCTs <= U uses, per job, only starts whose cheapest share
column lies within U - L of the job's cheapest, and runs no later than a_j - 1 + that much;
the other ``st`` / ``act`` are fixed at 0.  It removes only points above ``upper``, like the
windows: the optimum is unchanged when ``upper`` >= OPT, the model infeasible when below
(tests/harmony/test_harmony_share_fixing.py).

``rc_runs`` (off by default, only with ``upper``): the same ARGUMENT as one choice per job.
A binary per run (start s, k running intervals) whose cheapest share column lies within the
slack U - L, one per job, ``st`` and ``act`` equal to the chosen run's (at true values a job
starts in s and is active exactly in s..s+k-1, k its JCT from the start), and the knapsack
row: the chosen runs' reduced costs sum to at most U - L (a schedule of sum <= U has sum_j
(value(c_j) - min_j) <= U - L).  So every start vector a schedule of sum <= U can use is
kept, and only combinations ``rc_fix``'s per-job test keeps but their sum does not are cut:
the optimum is unchanged when ``upper`` >= OPT, the model infeasible when below
(tests/harmony/test_harmony_rc_runs.py).

Strengthening rows (options, both on by default; each cuts off no integer point up to a
relabelling of identical servers, so the optimum is the same: tests/harmony/test_harmony_milp.py
solves both forms to the same optimum):

* ``symmetry``: identical servers (same role and capacities) are interchangeable, so order each
  class by the first job (workload order) with a task there: ``z[n,m] <= sum_{n' <= n}
  z[n',m-]`` with m- the class's previous server (``c_sym_servers``).  Valid: set z to the
  presence of tasks (lower z only relaxes the slowdown rows) and sort each class by first user;
  then a job on m comes at or after m's first user, which comes at or after m-'s;
* ``run_rows``: s <= b_n act and sum_t s >= e_n force k_n = ceil(e_n / b_n) running intervals
  (less 1e-6 before rounding up, so a float quotient a hair above an integer does not cost an
  interval): ``sum_t act[n,t] >= k_n`` (``c_run_total``) and, as the run is one block from its
  start, ``act[n,t] >= sum_{t' in (t - k_n, t]} st[n,t']`` (``c_run_length``, jobs with k_n >=
  2).  Both are implied for integer points; they lift the LP relaxation to the standalone bound.

``share_row`` (off by default: it runs the bound, 1-10 s): ``sum_n JCT_n >= ceil(J x share)``
(``c_share_cut``) with :func:`~mlopt.families.harmony.share_bound.share_bound`'s certified
value.  Valid for every point: a point's objective is at least its replay's checked average
JCT (below), which is at least OPT, at least the bound; JCTs are integers, so the sum rounds up
(less 1e-6 first, for the float product).

Why this is exact: any real run of a placement is a feasible point (set every variable to its
true value), so OPT_MILP <= OPT. Conversely, in a MILP solution speeds are at most the true
speeds given the MILP's active sets; replaying its placements and start intervals, by induction
over t every job has trained at least as much as in the MILP, so it finishes no later, the
active sets are subsets, interference is no larger: the checked JCT is <= the MILP's objective.
Hence the checked JCT of the extracted schedule equals the optimum (the tests assert it).
"""
from __future__ import annotations

import math

import pyomo.environ as pyo

from mlopt.errors import InputError
from mlopt.families.harmony.speed import RESOURCES, model_of
from mlopt.models import integral_value
from mlopt.schedule import Schedule
from mlopt.workload import Workload

MODEL_NAME = "harmony_placement_milp"


#: k_n is rounded up from e_n / b_n less this (module docstring, ``run_rows``)
RUN_TOL = 1e-6


def server_classes(workload: Workload) -> list[list[str]]:
    """Server ids grouped by (role, capacities), each class in workload order: the servers a
    schedule may relabel among themselves."""
    classes: dict = {}
    for srv in workload.servers:
        key = (srv.role, tuple(float(srv.capacity[r]) for r in RESOURCES))
        classes.setdefault(key, []).append(srv.id)
    return list(classes.values())


def min_run(epochs: float, speed: float) -> int:
    """k_n: the fewest intervals a job of ``epochs`` trains in at ``speed`` (its standalone)."""
    return max(1, math.ceil(epochs / speed - RUN_TOL))


def server_load_cap(workload: Workload, n: int, server) -> float:
    """An upper bound on the co-located load ``sum_{o != n} alpha[l_n, l_o] (Kw + omega Kp)``
    job n can ever feel on ``server`` at true values (``tight_bigm``, module docstring): per
    resource r, the fractional knapsack of the other jobs' tasks (at most W_o workers, P_o PSs
    each, value alpha x weight, size their demand in r) into the capacity (plus the checker's
    1e-6 and a relative 1e-9); the least over the resources with every task's demand > 0 (a
    resource some task does not use bounds nothing)."""
    sm = model_of(workload)
    jobs = workload.jobs
    ln = sm.index(jobs[n].extra["model"])
    items = []  # (value per task, demand per resource, count)
    for i, o in enumerate(jobs):
        if i == n:
            continue
        al = float(sm.alpha[ln, sm.index(o.extra["model"])])
        items.append((al, o.worker_demand, int(o.extra["workers"])))
        items.append((al * float(sm.ps_weight), o.ps_demand, int(o.extra["ps"])))
    items = [it for it in items if it[2] > 0]
    every = sum(v * c for v, _, c in items)  # every task of every other job: the old big-M
    best = math.inf
    for r in RESOURCES:
        if any(float(d[r]) <= 0 for _, d, _ in items):
            continue
        room = (float(server.capacity[r]) + 1e-6) * (1 + 1e-9)
        total = 0.0
        for v, d, c in sorted(items, key=lambda it: -it[0] / float(it[1][r])):
            take = min(c, room / float(d[r]))
            total += v * take
            room -= take * float(d[r])
            if room <= 0:
                break
        best = min(best, total)
    # room for the float sums of the knapsack itself; never above the old big-M (valid too)
    return min(every, best * (1 + 1e-9))


def _windows(workload: Workload, upper: float) -> dict:
    """Per job id, (its latest start, its latest running interval) in any schedule whose
    average JCT is at most ``upper`` (``upper``, module docstring)."""
    from mlopt.families.harmony.bounds import standalone_bound

    J = len(workload.jobs)
    U = math.floor(float(upper) * J + RUN_TOL)  # the sum of JCTs, an integer
    lb = standalone_bound(workload)["per_job"]
    rest = sum(lb)
    out = {}
    for job, low in zip(workload.jobs, lb):
        cap = U - (rest - low)  # this job's JCT at most
        out[job.id] = (job.arrival + cap - low, job.arrival + cap - 1)
    return out


def _add_run_choice(m, workload: Workload, U: int) -> None:
    """``rc_runs``: a binary ``run[n,s,k]`` per run (start s, k running intervals) of job n
    whose cheapest share column lies within the slack U - L (:func:`share_slack_columns`),
    exactly one per job, ``st`` and ``act`` equal to the chosen run's indicators, and the
    knapsack row sum of the chosen runs' reduced costs <= slack (share_fixing's ARGUMENT:
    sum_j (value(c_j) - min_j) <= U - L).  With no prices (no LP) nothing is added."""
    from mlopt.families.harmony.share_fixing import share_slack_columns

    got = share_slack_columns(workload, U)
    if got is None:
        return
    slack, cols = got
    runs = {(n, s, k): rc for n, r in zip(m.J, cols) for rc, s, k in r}
    m.RUNS = pyo.Set(dimen=3, initialize=sorted(runs), ordered=True)
    m.run = pyo.Var(m.RUNS, domain=pyo.Binary)
    # a job without runs keeps no start (c_run_start), so c_start_once makes it infeasible
    m.c_run_one = pyo.Constraint(m.J, rule=lambda m, n: sum(
        m.run[r] for r in runs if r[0] == n) == 1 if any(r[0] == n for r in runs)
        else pyo.Constraint.Skip)
    # a true-valued point starts at s and is active in s..s+k-1 exactly (act is contiguous
    # from the start and ends at the completion), so both links are equalities
    m.c_run_start = pyo.Constraint(m.JT, rule=lambda m, n, t: m.st[n, t] == sum(
        m.run[n, s, k] for (o, s, k) in runs if o == n and s == t))
    m.c_run_act = pyo.Constraint(m.JT, rule=lambda m, n, t: m.act[n, t] == sum(
        m.run[n, s, k] for (o, s, k) in runs if o == n and s <= t < s + k))
    if runs:
        m.c_run_slack = pyo.Constraint(expr=sum(rc * m.run[r] for r, rc in runs.items())
                                       <= slack)


def build_placement_milp(workload: Workload, *, symmetry: bool = True, run_rows: bool = True,
                         share_row: bool = False, tight_bigm: bool = True,
                         upper: float | None = None, rc_fix: bool = False,
                         rc_runs: bool = False, **options) -> pyo.ConcreteModel:
    """Build the offline placement MILP minimizing average JCT under the known speed model
    (``symmetry`` / ``run_rows`` / ``tight_bigm``: the strengthening of the module
    docstring)."""
    sm = model_of(workload)
    jobs = workload.jobs
    J = [j.id for j in jobs]
    S = [s.id for s in workload.servers]
    T = list(range(1, workload.horizon + 1))
    L = {j.id: sm.index(j.extra["model"]) for j in jobs}
    Wn = {j.id: int(j.extra["workers"]) for j in jobs}
    Pn = {j.id: int(j.extra["ps"]) for j in jobs}
    a = {j.id: j.arrival for j in jobs}
    e = {j.id: float(j.epochs) for j in jobs}
    b = {j.id: float(sm.standalone(L[j.id], Wn[j.id])) for j in jobs}
    kap = {n: float(sm.comm_penalty[L[n]]) for n in J}
    alpha = sm.alpha
    om = sm.ps_weight
    al = {(n, o): float(alpha[L[n], L[o]]) for n in J for o in J if o != n}
    bigd = {n: sum(al[n, o] * (Wn[o] + om * Pn[o]) for o in J if o != n) for n in J}
    # the slowdown rows' big-M per (job, server), and the speed pieces' per job: the most
    # load a server can hold (tight_bigm) or every other task (the original form)
    srv_of = {srv.id: srv for srv in workload.servers}
    bigs = {(n, sid): (server_load_cap(workload, i, srv_of[sid]) if tight_bigm else bigd[n])
            for i, n in enumerate(J) for sid in S}
    dmax = {n: max([bigs[n, sid] for sid in S] + [0.0]) for n in J}
    dw = {(j.id, r): float(j.worker_demand[r]) for j in jobs for r in RESOURCES}
    dp = {(j.id, r): float(j.ps_demand[r]) for j in jobs for r in RESOURCES}
    cap = {(s.id, r): float(s.capacity[r]) for s in workload.servers for r in RESOURCES}

    m = pyo.ConcreteModel(name=MODEL_NAME)
    m.J = pyo.Set(initialize=J, ordered=True)
    m.S = pyo.Set(initialize=S, ordered=True)
    m.T = pyo.Set(initialize=T, ordered=True)
    m.R = pyo.Set(initialize=list(RESOURCES), ordered=True)
    m.JT = pyo.Set(dimen=2, initialize=[(n, t) for n in J for t in T if t >= a[n]], ordered=True)
    m.JST = pyo.Set(dimen=3, initialize=[(n, s, t) for n in J for s in S for t in T
                                          if t >= a[n]], ordered=True)
    m.PIECES = pyo.Set(initialize=["linear", "tail", "floor"], ordered=True)

    m.st = pyo.Var(m.JT, domain=pyo.Binary)
    # only servers of role "any" host tasks (the checker's `role` rule; an independent review
    # found the model placing tasks on a role-"worker" server): the others are fixed at 0
    hosts = {srv.id: srv.role == "any" for srv in workload.servers}
    m.X = pyo.Var(m.J, m.S, domain=pyo.NonNegativeIntegers,
                  bounds=lambda _, n, s: (0, Wn[n] if hosts[s] else 0))
    m.Y = pyo.Var(m.J, m.S, domain=pyo.NonNegativeIntegers,
                  bounds=lambda _, n, s: (0, Pn[n] if hosts[s] else 0))
    m.z = pyo.Var(m.J, m.S, domain=pyo.Binary)
    m.u = pyo.Var(m.J, domain=pyo.Binary)
    m.act = pyo.Var(m.JT, domain=pyo.Binary)
    m.Kw = pyo.Var(m.JST, domain=pyo.NonNegativeReals)
    m.Kp = pyo.Var(m.JST, domain=pyo.NonNegativeReals)
    m.D = pyo.Var(m.JT, domain=pyo.NonNegativeReals)
    m.s = pyo.Var(m.JT, domain=pyo.NonNegativeReals)
    m.piece = pyo.Var(m.JT, m.PIECES, domain=pyo.Binary)

    # every job is placed exactly once, in an interval at or after its arrival
    m.c_start_once = pyo.Constraint(m.J, rule=lambda m, n: sum(
        m.st[n, t] for t in T if t >= a[n]) == 1)
    # all-or-nothing: exactly W workers and P PSs
    m.c_all_workers = pyo.Constraint(m.J, rule=lambda m, n: sum(m.X[n, s] for s in S) == Wn[n])
    m.c_all_ps = pyo.Constraint(m.J, rule=lambda m, n: sum(m.Y[n, s] for s in S) == Pn[n])
    # z = 1 where the job has a task; u = 1 when it has tasks on two or more servers
    m.c_presence = pyo.Constraint(m.J, m.S, rule=lambda m, n, s:
                                  m.X[n, s] + m.Y[n, s] <= (Wn[n] + Pn[n]) * m.z[n, s])
    m.c_spread = pyo.Constraint(m.J, rule=lambda m, n: sum(m.z[n, s] for s in S)
                                <= 1 + (len(S) - 1) * m.u[n])

    # running intervals: on at the start, contiguous, never before it
    def _act(m, n, t):
        if t == a[n]:
            return m.act[n, t] <= m.st[n, t]
        return m.act[n, t] <= m.act[n, t - 1] + m.st[n, t]
    m.c_run_contiguous = pyo.Constraint(m.JT, rule=_act)
    m.c_run_from_start = pyo.Constraint(m.JT, rule=lambda m, n, t: m.act[n, t] >= m.st[n, t])

    # tasks running on s in t (X * act, linearized from below)
    m.c_running_workers = pyo.Constraint(m.JST, rule=lambda m, n, s, t:
                                         m.Kw[n, s, t] >= m.X[n, s] - Wn[n] * (1 - m.act[n, t]))
    m.c_running_ps = pyo.Constraint(m.JST, rule=lambda m, n, s, t:
                                    m.Kp[n, s, t] >= m.Y[n, s] - Pn[n] * (1 - m.act[n, t]))

    # capacity of every server, resource and interval, over the running jobs' tasks
    def _cap(m, s, t, r):
        terms = [dw[n, r] * m.Kw[n, s, t] + dp[n, r] * m.Kp[n, s, t]
                 for n in J if t >= a[n] and (dw[n, r] > 0 or dp[n, r] > 0)]
        if not terms:
            return pyo.Constraint.Skip
        return sum(terms) <= cap[s, r]
    m.c_capacity = pyo.Constraint(m.S, m.T, m.R, rule=_cap)

    # slowdown: at least the co-located load on each server hosting the job, plus the spread
    def _slow(m, n, s, t):
        load = sum(al[n, o] * (m.Kw[o, s, t] + om * m.Kp[o, s, t])
                   for o in J if o != n and t >= a[o])
        return m.D[n, t] >= load - bigs[n, s] * (1 - m.z[n, s]) + kap[n] * m.u[n]
    m.c_slowdown = pyo.Constraint(m.JST, rule=_slow)
    m.c_slowdown_spread = pyo.Constraint(m.JT, rule=lambda m, n, t: m.D[n, t] >= kap[n] * m.u[n])

    # speed: zero unless running; below the piece of the speed factor the binary picks
    m.c_speed_running = pyo.Constraint(m.JT, rule=lambda m, n, t: m.s[n, t] <= b[n] * m.act[n, t])
    m.c_one_piece = pyo.Constraint(m.JT, rule=lambda m, n, t: sum(
        m.piece[n, t, k] for k in m.PIECES) == 1)

    def _factor(m, n, t, k):
        big = b[n] * (1.0 + dmax[n] + kap[n])
        if k == "linear":
            rhs = b[n] * (1.0 - m.D[n, t])
        elif k == "tail":
            rhs = b[n] * ((1.0 - sm.knee) - sm.tail_slope * (m.D[n, t] - sm.knee))
        else:
            rhs = b[n] * sm.min_factor
        return m.s[n, t] <= rhs + big * (1 - m.piece[n, t, k])
    m.c_speed_factor = pyo.Constraint(m.JT, m.PIECES, rule=_factor)

    # the job trains all its epochs within the horizon
    m.c_epochs = pyo.Constraint(m.J, rule=lambda m, n: sum(
        m.s[n, t] for t in T if t >= a[n]) >= e[n])

    if symmetry:  # identical servers ordered by their first user (module docstring)
        prev = {cls[i]: cls[i - 1] for cls in server_classes(workload) for i in range(1, len(cls))}
        order = {n: i for i, n in enumerate(J)}
        m.SYM = pyo.Set(dimen=2, initialize=[(n, s) for n in J for s in S if s in prev],
                        ordered=True)
        m.c_sym_servers = pyo.Constraint(m.SYM, rule=lambda m, n, s: m.z[n, s] <= sum(
            m.z[o, prev[s]] for o in J if order[o] <= order[n]))
    if run_rows:  # at least k_n running intervals, in one block from the start
        k = {n: min_run(e[n], b[n]) for n in J}
        m.c_run_total = pyo.Constraint(m.J, rule=lambda m, n: sum(
            m.act[n, t] for t in T if t >= a[n]) >= k[n])
        m.RUNK = pyo.Set(dimen=2, initialize=[(n, t) for (n, t) in m.JT if k[n] >= 2],
                         ordered=True)
        m.c_run_length = pyo.Constraint(m.RUNK, rule=lambda m, n, t: m.act[n, t] >= sum(
            m.st[n, u] for u in range(max(a[n], t - k[n] + 1), t + 1)))

    if upper is not None and J:  # time windows from a schedule's objective (module docstring)
        win = _windows(workload, upper)
        for (n, t) in m.JT:
            last_start, last_run = win[n]
            if t > last_start:
                m.st[n, t].fix(0)
            if t > last_run:
                m.act[n, t].fix(0)
        # and the objective itself at most U: an ``upper`` below OPT then makes the model
        # infeasible, never a wrong "optimum" above ``upper`` (the review found 3.75 reported
        # optimal with upper = 3.25 < OPT = 3.5); valid like the windows (module docstring)
        U = math.floor(float(upper) * len(J) + RUN_TOL)
        m.c_upper_cut = pyo.Constraint(expr=sum(
            (t - a[n]) * m.st[n, t] + m.act[n, t] for (n, t) in m.JT) <= U)

    if rc_fix and J:  # reduced-cost fixing from share's prices (share_fixing's ARGUMENT)
        if upper is None:  # the fixing holds only below an objective row: refuse, never guess
            raise InputError("needs `upper` (the fixing is valid for schedules of average JCT "
                             "<= upper only)", field="rc_fix", value=rc_fix)
        from mlopt.families.harmony.share_fixing import share_windows
        win = share_windows(workload, math.floor(float(upper) * len(J) + RUN_TOL))
        for (n, t) in m.JT if win is not None else ():
            starts, last_run = win[n]
            if t not in starts:
                m.st[n, t].fix(0)
            if t > last_run:
                m.act[n, t].fix(0)

    if rc_runs and J:  # one run per job, reduced costs within the slack (module docstring)
        if upper is None:
            raise InputError("needs `upper` (the run choice holds for schedules of average "
                             "JCT <= upper only)", field="rc_runs", value=rc_runs)
        _add_run_choice(m, workload, math.floor(float(upper) * len(J) + RUN_TOL))

    if share_row and J:  # the sum of JCTs at least the certified bound's (module docstring)
        from mlopt.families.harmony.share_bound import share_bound
        need = math.ceil(share_bound(workload)["bound"] * len(J) - RUN_TOL)
        m.c_share_cut = pyo.Constraint(expr=sum(
            (t - a[n]) * m.st[n, t] + m.act[n, t] for (n, t) in m.JT) >= need)

    # no jobs: the average JCT is 0 by convention (as the checker's); solvers refuse a model
    # without variables, so an empty instance gets one, fixed at 0, and the optimum 0
    empty = not J
    if empty:
        m.no_jobs = pyo.Var(bounds=(0, 0))
    m.obj_avg_jct = pyo.Objective(expr=(1.0 / max(1, len(J))) * sum(
        (t - a[n]) * m.st[n, t] + m.act[n, t] for (n, t) in m.JT)
        + (m.no_jobs if empty else 0), sense=pyo.minimize)
    return m


def extract_schedule(model: pyo.ConcreteModel, workload: Workload) -> Schedule:
    """Placements (X, Y) in each job's start interval (st) -> Schedule; the objective in meta is
    the model's claim, which the checker recomputes."""
    if getattr(model, "name", None) != MODEL_NAME:
        raise ValueError(f"not a {MODEL_NAME} model: {getattr(model, 'name', None)!r}")
    if list(model.J) != [j.id for j in workload.jobs]:
        raise ValueError("the model was built from a different workload (job ids differ)")
    start = {n: t for (n, t), v in model.st.items() if integral_value(v.value, f"st[{n},{t}]") == 1}
    rows = []
    for n in model.J:
        for s in model.S:
            for role, var in (("worker", model.X), ("ps", model.Y)):
                c = integral_value(var[n, s].value, f"{var.name}[{n},{s}]")
                if c:
                    rows.append((n, start[n], s, role, c))
    return Schedule.from_rows(list(start), rows, {
        "producer": f"models.harmony.{MODEL_NAME}",
        "objective": float(pyo.value(model.obj_avg_jct))})

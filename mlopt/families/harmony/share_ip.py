"""``share_ip``: the integer version of ``share``'s relaxation (:mod:`.share_bound`), a compact
MILP solved through :func:`mlopt.solve.solve`; a solver's lower bound on the optimal average
JCT of Harmony (registered ``solver=True``: its dual bound is one solver's word).

Constants are ``share``'s (:func:`.share_bound._prepare`, not re-derived): per job j its
arrival a_j, least run k_j, mode speeds v_E >= v_P >= v_F, the admissible (P, F) interval
counts of a run of n intervals (Lemma 2), and per row (kind, r) the usages use_E = g_j
(exclusive: whole servers) and use_P, use_F (shared: d_jr / K_r, worker rows of P as share
derives them); M role-"any" servers.

MODEL.  x[j,s,n] binary per run (s, n) of j (s >= a_j, n >= k_j, s + n - 1 <= T); yP[j,t],
yF[j,t] binary: j is shared in t (mode P / F); loss[j,t] >= 0: j's speed lost in t (v_E minus
its speed).  Rows:

* ``one[j]``: sum_{s,n} x = 1;
* ``inside[j,t]``: yP + yF <= sum of the x whose run covers t (shared only inside the run);
* ``budget[j]``: sum_t loss[j,t] <= sum_{s,n} B_n x[j,s,n], B_n = n v_E - target / (1 + n
  2^-50) rounded UP (+1e-9 relative): Lemma 2 says the run's float speed sum reaches the
  target only if sum_t speed_t >= target / (1 + n 2^-50), i.e. the losses sum to at most B_n
  (share's admissible (p, f) are exactly the counts whose mode losses fit under B_n);
* ``mode_loss[j,t]``: loss >= lossP_j yP + lossF_j yF, lossP_j / lossF_j at least share's
  v_E - v_P / v_E - v_F, raised by SPAN (below);
* ``cap[row,t]``: sum_j [use_E (covering x) + (use_P - use_E) yP + (use_F - use_E) yF] <= M
  (Lemma 3), every coefficient rounded DOWN from share's exact rational to a float, so a
  point of a real schedule, whose exact left side is <= M, stays <= M in floats (variables
  are >= 0); every loss coefficient is rounded DOWN too and every B_n UP.
* ``partner[j,t]`` (integer-only): j shared in t has a partner.  ARGUMENT (the checker's
  definitions): j is shared in t when a server m hosting a task of j hosts a task of another
  job o running in t; then o has a task on m, which hosts a task of j, running in t: o is
  shared in t too.  Tasks sit only on role-"any" servers (the checker refuses others), so
  PS-only / worker-only servers add no case; zero allocations put no task on a server and
  are no case either; o running in t means t is inside o's run, as the ``inside`` rows
  require.  A job alone in the cluster (or before anyone else arrives) is never shared.
  With PAIRS: shared(j,t) <= sum_o z[j,o,t]; otherwise shared(j,t) <= sum_{o != j}
  shared(o,t).
* PAIRS (when at most PAIR_CAP pairs of jobs can run together): z[j,o,t] binary (j < o) =
  j and o have tasks on a common server in t, z <= shared(j,t), z <= shared(o,t) (the
  partner argument), loss[j,t] >= pair(j,o) z and loss[o,t] >= pair(o,j) z: on that server
  the checker's felt of j is a float sum of non-negative terms one of which is
  alpha[l_j, l_o] x c x w, c >= 1, w in {ps_weight, 1}, so felt >= alpha x 1 x ps_weight
  (ps_weight <= 1; float sums of non-negatives are monotone) and j's speed is at most
  speed_at of that (+ comm_penalty by SPAN), and at most v_P (j is shared).
  WORKER: zW[j,o,t] binary = a server hosting a task of j hosts a WORKER of o; zW <= z,
  loss[j,t] >= wpair(j,o) zW (felt >= alpha x 1 x 1), and ``worker_partner``: yF[j,t] <=
  sum_o zW[j,o,t] (mode F is exactly "a foreign worker on one of j's servers").
* SPAN: if j's whole demand (W_j workers, P_j PSs) plus the partner's task (a PS of o for
  the P-level charge, a worker of o for the F-level one) fits on no role-"any" server
  (exactly, with the checker's +1e-6 and must_span's 1e-9 margin: a near fit counts as a
  fit, only a weaker bound), j's tasks span >= 2 servers and its d includes comm_penalty.
  Per job the mode losses take the mildest partner o (speeds maximized over o).
* ``pool[r,t]`` / ``whole[t]`` (integer-only): S[t] integer >= the shared jobs' task usage
  sum (use_P yP + use_F yF) in every resource (the servers hosting any task of a shared job
  are whole servers holding those demands, Lemma 3), and sum of exclusive g_j + S[t] <= M
  (exclusive jobs' servers host no other running job's task, so they are disjoint from
  those).

Objective: min sum x[j,s,n] (s + n - a_j), the sum of JCTs.

THEOREM.  Let U be the sum of JCTs of a checked schedule (or any number the caller gives as
``upper``), and restrict each job's runs to those whose cheapest ``share`` column lies within
the slack U - L (:func:`.share_fixing.share_slack_columns`, its ARGUMENT).  Then
min(ceil(IP* - tol), U) <= OPT, IP* the optimum of the restricted model (or the solver's dual
bound of it), tol = 1e-4 (1 + |IP*|), far above the solver's tolerances (subtracted BEFORE rounding up:
JCT sums are integers).  Proof: if OPT <= U, an optimal schedule maps (share's Lemmas 1-3,
the partner argument above) to an integer point of the restricted model whose objective is
OPT, so IP* <= OPT; if OPT > U, the minimum is <= U < OPT.  So a too-low ``upper`` gives a
weaker (still valid) bound, never one above OPT.  An infeasible, empty or unsolved model
returns ``share``'s bound (a theorem), so a stopped solve is weaker, never wrong.  The result
is the max with ``share``'s bound (the IP restricts share's LP to integers, so IP* >= share's
LP up to the float margins; the max only guards a stopped solve).

DECISIONS (the issue does not say): U is the least of ``upper`` (x the job count), the checked
``start_schedule``'s and, when neither is given, ``local_search``'s from its own greedy start
with 15% of the budget; share takes another 15% (its own limit, shared with the slack
columns' run); HiGHS gets what is left.  The LP relaxation of this compact form can be weaker
than share's column LP (a fractional job may spend one run's sharing budget in another's
intervals); the IP's optimum is not.
"""
from __future__ import annotations

import math
import time
from fractions import Fraction

from mlopt.families.harmony.bounds import must_span, speed_at, standalone_bound
from mlopt.families.harmony.share_bound import ROUND_ERR, MODES, ROWS, _prepare, share_bound
from mlopt.families.harmony.speed import RESOURCES, model_of
from mlopt.families.harmony.volume_bound import _demand
from mlopt.workload import Workload

#: the solver's dual bound is lowered by this much (times 1 + |bound|) before rounding up
INT_TOL = 1e-4
#: the pairwise indicators (z, zW) are left out above this many unordered pairs of jobs
#: running together (``uniform`` seed 0 at the ruin schedule's sum: 50,024, a model Pyomo
#: builds for minutes in gigabytes); without them the partner row stands in
PAIR_CAP = 5_000
#: above this many runs the model takes the BLOCKS form (start and running indicators)
#: instead of one binary per run (uniform seed 0 at the ruin schedule's sum: 27,476 runs,
#: about two million nonzeros in the capacity rows)
RUN_CAP = 5_000
#: shares of the budget: the upper end's search, share (and its slack columns)
SEARCH_SHARE, SHARE_SHARE = 0.15, 0.15
#: the share of the budget by which the runs within the slack must be listed
LIST_SHARE = 0.5


def _down(x: Fraction) -> float:
    """The largest float <= x (a coefficient rounded towards the relaxation)."""
    f = float(x)
    return math.nextafter(f, -math.inf) if Fraction(f) > x else f


def _up(x: Fraction) -> float:
    """The smallest float >= x, plus a relative 1e-9 (a right-hand side loosened)."""
    f = float(x)
    f = math.nextafter(f, math.inf) if Fraction(f) < x else f
    return f + 1e-9 * (1.0 + abs(f))


def _loss_line(jb, n: int) -> Fraction | None:
    """B_n = n v_E - target / (1 + n 2^-50): a run of n intervals trains its epochs only if
    its intervals' speed losses v_E - speed_t sum to at most B_n (Lemma 2 rearranged; share's
    admissible (p, f) are exactly the counts whose losses fit); None when no count fits."""
    if not jb.admissible(n):
        return None
    return n * jb.speed["E"] - jb.target / (1 + n * ROUND_ERR)


def _fits_with(job, extra: dict, servers) -> bool:
    """True when all of the job's tasks plus ``extra`` (one task's demand) fit some role-"any"
    server within the checker's tolerance (+1e-6), exactly, with must_span's 1e-9 margin (a
    need within it counts as fitting: only ever a weaker bound)."""
    d = _demand(job)
    margin = 1 + Fraction(1, 10**9)
    return any(all(d[r] + Fraction(extra[r]) <= (Fraction(srv.capacity[r]) + Fraction(1e-6))
                   * margin for r in RESOURCES) for srv in servers if srv.role == "any")


def _pair_losses(workload: Workload, jobs) -> tuple[dict, dict, list, list]:
    """Speed losses v_E - speed (Fractions) a partner forces (``SPAN`` in the module
    docstring): ``pair[(j, o)]`` when j and o have tasks on a common server, ``wpair[(j, o)]``
    when a server hosting a task of j hosts a worker of o (felt >= alpha x 1 x 1); per job ``lossP``
    (j shares, only with PSs) and ``lossF`` (j shares with a worker), each the least over the
    partners o, and at least share's own v_E - v_P, v_E - v_F."""
    sm = model_of(workload)
    srv = workload.servers
    pair, wpair, lossP, lossF = {}, {}, [], []
    for j, (job, jb) in enumerate(zip(workload.jobs, jobs)):
        lj = sm.index(job.extra["model"])
        alone = must_span(job, srv)
        w = int(job.extra["workers"])
        vE = jb.speed["E"]

        def speed(d, extra):  # j's speed bound with o's task of demand ``extra`` beside it
            kap = sm.comm_penalty[lj] if alone or not _fits_with(job, extra, srv) else 0.0
            return Fraction(speed_at(sm, lj, w, d + kap))
        bestP, bestF = Fraction(0), Fraction(0)
        for o, other in enumerate(workload.jobs):
            if o == j:
                continue
            a = sm.alpha[lj, sm.index(other.extra["model"])]
            viaP = speed(a * 1 * sm.ps_weight, other.ps_demand)
            viaW = speed(a * 1 * 1.0, other.worker_demand)
            pair[(j, o)] = vE - min(jb.speed["P"], max(viaP, viaW))
            wpair[(j, o)] = vE - min(jb.speed["F"], viaW)
            bestP, bestF = max(bestP, viaP), max(bestF, viaW)
        lossP.append(vE - min(jb.speed["P"], bestP))
        lossF.append(vE - min(jb.speed["F"], bestF))
    return pair, wpair, lossP, lossF


def _blocks(m, jobs, X, of_job, T) -> None:
    """BLOCKS: st[j,s] binary per start of an allowed run, act[j,t] binary per interval of the
    allowed runs' union, act a contiguous block from the one start, at least k_j long;
    objective sum (s - a_j) st + sum act (= c_j - a_j + 1)."""
    import pyomo.environ as pyo

    starts = sorted({(j, s) for j, s, _ in X})
    m.ST = pyo.Set(initialize=starts, dimen=2, ordered=True)
    m.st = pyo.Var(m.ST, domain=pyo.Binary)
    m.act = pyo.Var(m.C, domain=pyo.Binary)
    by_job: dict = {j: [] for j in range(len(jobs))}
    for j, s in starts:
        by_job[j].append(s)
    m.obj = pyo.Objective(expr=sum((s - jobs[j].a) * m.st[j, s] for j, s in starts)
                          + sum(m.act[k] for k in m.C), sense=pyo.minimize)
    m.one = pyo.Constraint(range(len(jobs)), rule=lambda m, j: sum(
        m.st[j, s] for s in by_job[j]) == 1 if by_job[j] else pyo.Constraint.Infeasible)
    m.started = pyo.Constraint(m.C, rule=lambda m, j, t: m.act[j, t] <= sum(
        m.st[j, s] for s in by_job[j] if s <= t))
    m.at_start = pyo.Constraint(m.ST, rule=lambda m, j, s: m.st[j, s] <= m.act[j, s])
    cov = set(m.C)

    def no_gap(m, j, t):  # running in t: running in t - 1 or started in t
        prev = m.act[j, t - 1] if (j, t - 1) in cov else 0
        return m.act[j, t] <= prev + (m.st[j, t] if (j, t) in m.ST else 0)
    m.no_gap = pyo.Constraint(m.C, rule=no_gap)
    m.length = pyo.Constraint(range(len(jobs)), rule=lambda m, j: sum(
        m.act[j, t] for t in of_job[j]) >= jobs[j].k)


def build_share_ip(workload: Workload, runs: list[list[tuple[int, int]]] | None = None, *,
                   pairs: bool | None = None, form: str | None = None):
    """The MILP (module docstring) and ``share``'s prepared jobs, or None where share has
    nothing to model (no role-"any" server, a job that cannot finish by T).  ``runs``: per
    job the allowed (s, n); default every run of the horizon.  ``pairs``: the pairwise
    sharing indicators z, zW and their loss rows (else only the ``partner`` row); None: when
    there are at most PAIR_CAP pairs.  ``form``: "runs" (x per run) or "blocks" (BLOCKS);
    None: runs up to RUN_CAP runs."""
    import pyomo.environ as pyo

    prep = _prepare(workload, standalone_bound(workload)["per_job"]) if workload.jobs else None
    if prep is None:
        return None
    jobs, M = prep
    T = int(workload.horizon)
    if runs is None:
        runs = [[(s, n) for s in range(jb.a, T + 1) for n in range(jb.k, T - s + 2)]
                for jb in jobs]
    m = pyo.ConcreteModel(name="harmony_share_ip")
    X, cover, line = [], [], []
    for j, jb in enumerate(jobs):
        keep = [(s, n, b) for s, n in runs[j]
                if (b := _loss_line(jb, n)) is not None and s >= jb.a and s + n - 1 <= T]
        X.extend((j, s, n) for s, n, _ in keep)
        cover.extend((j, t) for t in sorted({t for s, n, _ in keep for t in range(s, s + n)}))
        line.append({(s, n): _up(b) for s, n, b in keep})
    if form is None:
        form = "runs" if len(X) <= RUN_CAP else "blocks"
    if form not in ("runs", "blocks"):
        raise ValueError(f"form must be runs or blocks, not {form!r}")
    m.C = pyo.Set(initialize=cover, dimen=2, ordered=True)
    m.yP = pyo.Var(m.C, domain=pyo.Binary)
    m.yF = pyo.Var(m.C, domain=pyo.Binary)
    m.loss = pyo.Var(m.C, domain=pyo.NonNegativeReals)
    at_t: dict = {}
    of_job: dict = {j: [] for j in range(len(jobs))}
    for j, t in cover:
        at_t.setdefault(t, []).append(j)
        of_job[j].append(t)
    if form == "runs":
        m.X = pyo.Set(initialize=X, dimen=3, ordered=True)
        m.x = pyo.Var(m.X, domain=pyo.Binary)
        runs_of = {j: [] for j in range(len(jobs))}
        covering: dict = {}
        for j, s, n in X:
            runs_of[j].append((j, s, n))
            for t in range(s, s + n):
                covering.setdefault((j, t), []).append((j, s, n))

        def on(m, j, t):  # j runs in t
            return sum(m.x[k] for k in covering[(j, t)])
        m.obj = pyo.Objective(expr=sum((s + n - jobs[j].a) * m.x[j, s, n] for j, s, n in X),
                              sense=pyo.minimize)
        m.one = pyo.Constraint(range(len(jobs)), rule=lambda m, j: sum(
            m.x[k] for k in runs_of[j]) == 1 if runs_of[j] else pyo.Constraint.Infeasible)
        budget_rhs = [sum(line[j][(s, n)] * m.x[j, s, n] for _, s, n in runs_of[j])
                      for j in range(len(jobs))]
    else:
        _blocks(m, jobs, X, of_job, T)

        def on(m, j, t):
            return m.act[j, t]
        budget_rhs = [_up(jb.speed["E"]) * sum(m.act[j, t] for t in of_job[j])
                      - _down(jb.target / (1 + T * ROUND_ERR)) for j, jb in enumerate(jobs)]
    m.inside = pyo.Constraint(m.C, rule=lambda m, j, t: m.yP[j, t] + m.yF[j, t] <= on(m, j, t))
    # a shared interval loses at least its mode's speed (share's, or more with SPAN)
    pair_loss, wpair_loss, lossP, lossF = _pair_losses(workload, jobs)
    m.mode_loss = pyo.Constraint(m.C, rule=lambda m, j, t: m.loss[j, t] >= _down(
        lossP[j]) * m.yP[j, t] + _down(lossF[j]) * m.yF[j, t])
    m.budget = pyo.Constraint(range(len(jobs)), rule=lambda m, j: sum(
        m.loss[j, t] for t in of_job[j]) <= budget_rhs[j])

    def shared(m, j, t):
        return m.yP[j, t] + m.yF[j, t]

    Z = [(j, o, t) for t in sorted(at_t) for i, j in enumerate(at_t[t])
         for o in at_t[t][i + 1:]]
    if pairs is None:
        pairs = len(Z) <= PAIR_CAP
    if pairs:
        loss = pair_loss
        m.Z = pyo.Set(initialize=Z, dimen=3, ordered=True)
        m.z = pyo.Var(m.Z, domain=pyo.Binary)
        m.z_j = pyo.Constraint(m.Z, rule=lambda m, j, o, t: m.z[j, o, t] <= shared(m, j, t))
        m.z_o = pyo.Constraint(m.Z, rule=lambda m, j, o, t: m.z[j, o, t] <= shared(m, o, t))
        m.z_loss_j = pyo.Constraint(m.Z, rule=lambda m, j, o, t: m.loss[j, t] >= _down(
            loss[(j, o)]) * m.z[j, o, t])
        m.z_loss_o = pyo.Constraint(m.Z, rule=lambda m, j, o, t: m.loss[o, t] >= _down(
            loss[(o, j)]) * m.z[j, o, t])
        with_ = {}
        for j, o, t in Z:
            with_.setdefault((j, t), []).append((j, o, t))
            with_.setdefault((o, t), []).append((j, o, t))

        def partner(m, j, t):
            return shared(m, j, t) <= sum(m.z[k] for k in with_.get((j, t), []))
        # worker partners: zW[j,o,t] = a server hosting a task of j hosts a worker of o
        # (``WORKER`` in the module docstring); mode F names one
        ZW = [(j, o, t) for t in sorted(at_t) for j in at_t[t] for o in at_t[t] if o != j]
        m.ZW = pyo.Set(initialize=ZW, dimen=3, ordered=True)
        m.zW = pyo.Var(m.ZW, domain=pyo.Binary)
        m.zW_pair = pyo.Constraint(m.ZW, rule=lambda m, j, o, t: m.zW[j, o, t] <= m.z[
            min(j, o, key=at_t[t].index), max(j, o, key=at_t[t].index), t])
        m.zW_loss = pyo.Constraint(m.ZW, rule=lambda m, j, o, t: m.loss[j, t] >= _down(
            wpair_loss[(j, o)]) * m.zW[j, o, t])
        wwith: dict = {}
        for j, o, t in ZW:
            wwith.setdefault((j, t), []).append((j, o, t))
        m.worker_partner = pyo.Constraint(m.C, rule=lambda m, j, t: m.yF[j, t] <= sum(
            m.zW[k] for k in wwith.get((j, t), [])))
    else:
        def partner(m, j, t):
            return shared(m, j, t) <= sum(shared(m, o, t) for o in at_t[t] if o != j)
    m.partner = pyo.Constraint(m.C, rule=partner)
    use = [{mode: {row: jb.use[mode][row] for row in ROWS} for mode in MODES} for jb in jobs]
    ts = sorted(at_t)

    def cap(m, ri, t):
        row = ROWS[ri]
        terms = []
        for j in at_t[t]:
            u = use[j]
            terms.append(_down(u["E"][row]) * on(m, j, t))
            terms.append(_down(u["P"][row] - u["E"][row]) * m.yP[j, t])
            terms.append(_down(u["F"][row] - u["E"][row]) * m.yF[j, t])
        return sum(terms) <= M
    m.cap = pyo.Constraint([(ri, t) for ri in range(len(ROWS)) for t in ts], rule=cap)
    # whole shared servers (integer-only): S[t] counts the servers hosting a task of a job
    # shared in t (module docstring, ``pool`` / ``whole``)
    m.S = pyo.Var(ts, domain=pyo.NonNegativeIntegers, bounds=(0, M))
    task = [ri for ri, row in enumerate(ROWS) if row[0] == "task"]
    m.pool = pyo.Constraint([(ri, t) for ri in task for t in ts], rule=lambda m, ri, t: sum(
        _down(use[j]["P"][ROWS[ri]]) * m.yP[j, t] + _down(use[j]["F"][ROWS[ri]]) * m.yF[j, t]
        for j in at_t[t]) <= m.S[t])
    m.whole = pyo.Constraint(ts, rule=lambda m, t: sum(
        _down(use[j]["E"][ROWS[task[0]]]) * (on(m, j, t) - m.yP[j, t] - m.yF[j, t])
        for j in at_t[t]) + m.S[t] <= M)
    return m, jobs


def _upper_sum(workload: Workload, upper, start_schedule, budget: float) -> tuple[int, str]:
    """(U, where it came from): the least sum of JCTs among ``upper`` x J, the checked start
    schedule's, and (when neither is given) local_search's with ``budget`` seconds."""
    from mlopt.families import get_family

    fam = get_family("harmony")
    J = len(workload.jobs)
    cands = []
    if upper is not None:
        cands.append((math.floor(float(upper) * J + 1e-6), "upper"))
    if isinstance(start_schedule, str):  # a file, as `mlopt bound --option` passes it
        from mlopt.schedule import Schedule
        start_schedule = Schedule.load(start_schedule)
    if start_schedule is not None:
        chk = fam.check(workload, start_schedule)
        if chk.feasible:
            cands.append((round(chk.objective * J), "start_schedule"))
    if not cands:
        sched = fam.run("local_search", workload, seed=0,
                        options={"time_limit": max(0.5, budget)})
        chk = fam.check(workload, sched)
        if chk.feasible:
            cands.append((round(chk.objective * J), "local_search"))
    if not cands:  # nothing checked: every run of the horizon (no job can do worse)
        T = int(workload.horizon)
        cands.append((sum(T - int(j.arrival) + 1 for j in workload.jobs), "horizon"))
    return min(cands)


def confirm_bound(model, ip_sum: int, upper: int, solver: str, *, time_limit: float | None,
                  threads: int = 1, options: dict | None = None) -> dict:
    """The second solver's word on the IP's bound: ``model`` solved again by ``solver``; its
    dual bound, rounded up as the first's (``INT_TOL``, capped at ``upper``), must reach
    ``ip_sum``.  (A cutoff row "sum <= ip_sum - 1/2" asked of SCIP instead was slower than
    the plain solve: at harmony-open-0 from U = 214 it stopped after 154 s at 188.1, where
    the plain solve from U = 208 took about a minute.)  Returns the solve's status, bound,
    its rounded ``sum`` and seconds, and ``confirmed``; a failing solver confirms nothing."""
    from mlopt.errors import InputError
    from mlopt.solve import Status, solve

    t0 = time.perf_counter()
    try:
        res = solve(model, solver, time_limit=time_limit, mip_gap=0.0, threads=threads,
                    options=dict(options or {}))
    except InputError:  # a bad option: the caller's error, named
        raise
    except Exception as err:  # noqa: BLE001  (a failing second solver confirms nothing)
        return {"solver": solver, "status": "error", "bound": None, "sum": None,
                "runtime_s": round(time.perf_counter() - t0, 1), "confirmed": False,
                "message": f"{type(err).__name__}: {err}"}
    db = res.bound
    if db is None and res.status == Status.OPTIMAL:
        db = res.objective
    got = (min(math.ceil(db - INT_TOL * (1.0 + abs(db))), upper)
           if db is not None and math.isfinite(db) else None)
    # an "infeasible" second answer is no confirmation: the first solver found the IP
    # feasible (or stopped with a bound), so the two disagree
    return {"solver": f"{res.solver} {res.solver_version}".strip(), "status": res.status.value,
            "bound": db, "sum": got, "runtime_s": round(time.perf_counter() - t0, 1),
            "confirmed": got is not None and got >= ip_sum
            and res.status != Status.INFEASIBLE}


def share_ip_bound(workload: Workload, *, time_limit: float | None = 60.0,
                   threads: int | None = 1, solver: str = "highs", upper: float | None = None,
                   start_schedule=None, solver_options: dict | None = None,
                   pairs: bool | None = None, form: str | None = None,
                   confirm: str | None = "auto", confirm_options: dict | None = None,
                   **_ignored) -> dict:
    """Lower bound on the optimal average JCT (module docstring: the THEOREM).

    ``confirm``: when the IP lifts the bound above ``share``'s, a second solver's word on it
    in the time the first solve left (:func:`confirm_bound`): ``"auto"`` (default) SCIP when
    installed and not ``solver`` (:func:`mlopt.solve.default_verifier`), a solver name, or
    None (not asked).  ``verified_by`` in the result names the solver that confirmed,
    ``confirm`` its answer.  DECISION: the bound is the first solver's either way (a second
    solver that does not answer in time leaves it one solver's word, as before); the
    confirmation does not make a bracket ``optimal`` by itself (no ``level`` near a
    schedule: it confirms the bound, not a closed interval)."""
    from mlopt.errors import InputError
    from mlopt.families.harmony.share_fixing import share_slack_columns
    from mlopt.solve import Status, solve

    if upper is not None and not (isinstance(upper, (int, float)) and math.isfinite(upper)
                                  and upper > 0):
        raise InputError("must be a positive finite average JCT", field="upper", value=upper)
    from mlopt.solve import second_solver

    # the IP has continuous loss columns: CP-SAT is refused before the first solve, not after
    confirm = second_solver(confirm, solver, continuous=True)
    t0 = time.perf_counter()
    budget = 60.0 if time_limit is None else float(time_limit)
    sh = share_bound(workload, threads=threads, time_limit=SHARE_SHARE * budget / 2)
    out = {**sh, "share": sh["bound"], "status": "share"}
    J = len(workload.jobs)
    if not J or sh.get("share_value") is None:  # share had nothing to model: neither have we
        return {**out, "solve_s": time.perf_counter() - t0}
    U, source = _upper_sum(workload, upper, start_schedule, SEARCH_SHARE * budget)
    # the runs are listed by half of the budget, or share's bound is returned: listing them
    # from a poor U overran a 21 s budget by 11 s at ``uniform`` (U = 219), and a bracket
    # kills a bound at its hard limit with nothing
    got = share_slack_columns(workload, U, time_limit=SHARE_SHARE * budget / 2,
                              threads=threads or 1, deadline=t0 + LIST_SHARE * budget)
    out.update(upper_sum=U, upper_source=source)
    if got is None or got[0] < 0:  # U below share's Lagrangian: no run within the slack
        if got is None and time.perf_counter() > t0 + LIST_SHARE * budget:
            out["ip_status"] = "not_run: the runs were not listed within the budget"
        return {**out, "solve_s": time.perf_counter() - t0}
    slack, cols = got
    t1 = time.perf_counter()
    built = build_share_ip(workload, [[(s, n) for _, s, n in r] for r in cols], pairs=pairs,
                           form=form)
    if built is None:
        return {**out, "solve_s": time.perf_counter() - t0}
    model, _ = built
    if budget - (time.perf_counter() - t0) < 1.0:  # built too late to solve: share's bound
        out["ip_status"] = "not_run: no time left after the build"
        return {**out, "solve_s": time.perf_counter() - t0}
    left = budget - (time.perf_counter() - t0)
    res = solve(model, solver, time_limit=left, threads=threads or 1,
                options=dict(solver_options or {}))
    out.update(slack=slack, runs=sum(len(r) for r in cols), pairs=hasattr(model, "z"),
               form="runs" if hasattr(model, "x") else "blocks",
               build_s=round(time.perf_counter() - t1 - res.runtime_s, 2),
               ip_status=res.status.value,
               ip_objective=res.objective, ip_bound=res.bound)
    if res.status == Status.INFEASIBLE:
        # no point within the slack: OPT > U (so U is no checked schedule's sum) or the
        # solver is wrong; either way share's bound stands (fail safe)
        return {**out, "solve_s": time.perf_counter() - t0}
    db = res.bound
    if db is None and res.status == Status.OPTIMAL:
        db = res.objective
    if db is not None and math.isfinite(db):
        ip_sum = min(math.ceil(db - INT_TOL * (1.0 + abs(db))), U)
        out["ip_sum"] = ip_sum
        if ip_sum / J > out["bound"]:
            out.update(bound=ip_sum / J, source="share_ip")
        # the IP's status, never OPT's: the bound is OPT only where it meets a schedule
        out["status"] = "ip_optimal" if res.status == Status.OPTIMAL else "ip_stopped"
        if confirm is not None and out["source"] == "share_ip":
            # the second solver's own limit starts after it has built its model (SCIP's
            # build at harmony-open-0: seconds): a tenth of the rest is kept for that, so a
            # bracket does not kill the bound with the first solver's lift inside it
            rest = 0.9 * (budget - (time.perf_counter() - t0)) - 1.0
            if rest >= 1.0:
                answer = confirm_bound(model, ip_sum, U, confirm, time_limit=rest,
                                       threads=threads or 1, options=confirm_options)
            else:
                answer = {"solver": confirm, "status": "not_run", "confirmed": False,
                          "message": "no time left in the budget"}
            out["confirm"] = answer
            if answer["confirmed"]:
                out["verified_by"] = answer["solver"]
    return {**out, "solve_s": time.perf_counter() - t0}

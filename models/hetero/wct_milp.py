"""Formulations of seed 003 (Zhou et al., heterogeneous weighted completion time).

* ``build_wct_milp(workload)``: an exact MILP of problem (2)-(2o) (PS) or (15) (Ring-AllReduce),
  chosen by ``workload.extra["hetero"]["architecture"]``;
* ``build_wct_milp(workload, deadline=tau, jobs=...)``: the round's max-weight problem (7) (and
  (16) for RA) on an empty cluster, equivalent to ILP (8)/(17) (every l in Gamma_j is one
  configuration + start + placement here);
(``build_mincost13``, the fixed-type, fixed-window cost problem (13) / (21) that tests
Theorem 1, is in :mod:`.mincost13`.)

LINEARIZATION of (2).  The printed program multiplies start indicators by durations and counts,
and has cardinality and logical constraints.  We enumerate per job the non-dominated
configurations k = (m, p, q, N) with d_k = ceil(E D K / (N rho_k)) (:mod:`configs`) and use
binaries z_jkt (job j runs configuration k from slot t):
  c2a   sum_{k,t} z_jkt = 1;  objective sum_j w_j sum_{k,t} z_jkt (t + d_k)  (c_j = t + d_j);
  c2b   sum_h y_jhm = sum_{k: m_k = m} N_k sum_t z_jkt  (exactly N workers of the chosen type);
  c2c/e v_jp = sum_{k: p_k = p, t} z_jkt;  s_jhp <= S v_jp;  sum_h s_jhp >= v_jp;
  c2d   only "q = 1 => co-located" is needed (a co-located q = 0 schedule is also feasible and
        the checker credits it the faster rate): Q_j = sum_{k: q_k = 1, t} z_jkt,
        sum_h o_jh = Q_j, y_jhm <= D_j (1 - Q_j + o_jh), s_jhp <= S (1 - Q_j + o_jh);
  c2i   sigma_jh >= [PSs of j on h]: s_jhp <= S sigma_jh and
        sum_{h' != h} sum_m b_m y_jh'm <= sum_p B_p s_jhp + b_max D_j (1 - sigma_jh);
  c2h   run_jt = sum_k sum_{t' in (t - d_k, t]} z_jkt';  Y_jhmt >= y_jhm - D_j (1 - run_jt),
        S_jhpt >= s_jhp - S (1 - run_jt) (Y, S >= 0 only appear on the left of capacities, so a
        solver sets them to y / s while j runs and 0 otherwise);
        sum_j (sum_m e_m^r Y_jhmt + sum_p z_p^r S_jhpt) <= C_h^r.
(2f) and (2g) hold by construction of the configurations.  S = max_m max(1, ceil(D_j b_m / B_p))
bounds PS counts: more PSs than any (2i) can need only consume resources.

CHECKER SLACK (DECISION in :mod:`mlopt.tolerance`): the model allows what the checker accepts,
so its optimum is never above a checked schedule: durations count the work the checker
accepts (:meth:`HeteroData.duration`), (2h) / (15b) use ``data.limit`` (C (1 + 1e-9) + 1e-9)
and (2i) the cover B s (1 + 1e-9) + 1e-9; integer data keep C and B s (equivalent there).
Before, a job of 3.0000000015 slots of work ran 4 slots in the model and 3 under the checker
(``tests/hetero/test_hetero_tolerance.py``).

HORIZON (exact, not a guess).  Starts after T are allowed (as for online algorithms).  UB is the
weighted completion time of a sequential schedule (each job alone at its fastest configuration
that fits the empty cluster, in arrival order).  A schedule at least as good as UB has, for every
j, w_j c_j <= UB - sum_{k != j} w_k (a_k + dmin_k), so c_j <= Cmax_j; starts beyond are cut.
That cap grows as 1 / w_j (a weight of 0.01 next to weights of 1000 made the model run out of
memory), so Cmax_j is also capped by slots alone: in an optimal schedule no run of dmin_j
consecutive empty-cluster slots lies in [a_j, t_j) (moving j there at its fastest configuration
would complete it earlier, and w_j > 0); such runs are separated by the at most J - 1 busy
stretches of the other jobs, so t_j - a_j <= sum_{k != j} dmax_k + J (dmin_j - 1) and
c_j <= a_j + sum_k dmax_k + J (dmin_j - 1) (dmax_k: the longest configuration of k that fits).
Cmax_j is the smaller of the two.  SIZE: the model's variables are counted before building
(:func:`model_size`); beyond :data:`MAX_MODEL_VARS` it is refused with one InputError.
"""
from __future__ import annotations

import math

import numpy as np
import pyomo.environ as pyo

from mlopt.errors import InputError
from mlopt.families.hetero.configs import Config, fits_alone, job_configs
from mlopt.families.hetero.fields import HeteroData, hetero_data
from mlopt.schedule import COLUMNS, SCHEDULE_SCHEMA_VERSION, Schedule
from mlopt.tolerance import CAP_ATOL, CAP_RTOL, integral
from mlopt.workload import Workload

INTEGRALITY_TOL = 1e-6
#: largest exact model (variables, estimated before building: :func:`model_size`) that
#: ``build_wct_milp`` builds: about 10 s of building; the largest model HiGHS solved in
#: benchmarks/hetero (offline_reach) has 7,000 variables and timed out after 600 s
MAX_MODEL_VARS = 200_000


def sequential_bound(data: HeteroData) -> tuple[float, np.ndarray, dict[int, Config]]:
    """(UB, dmin, fastest config per job) from the sequential schedule in arrival order."""
    fastest: dict[int, Config] = {}
    dmin = np.zeros(len(data.job_ids), dtype=int)
    for j in range(len(dmin)):
        c = next(c for c in job_configs(data, j) if fits_alone(data, c))  # sorted by d
        fastest[j], dmin[j] = c, c.d
    t, ub = 1, 0.0
    for j in np.argsort(data.arrival, kind="stable"):
        start = max(t, int(data.arrival[j]))
        t = start + int(dmin[j])
        ub += data.weight[j] * t
    return ub, dmin, fastest


def completion_caps(data: HeteroData, J: list[int], cfg: dict[int, list[Config]]
                    ) -> dict[int, int]:
    """Per job, Cmax_j >= c_j of every optimal schedule (module docstring, HORIZON): the
    smaller of the weighted cap and the slot-count cap (which does not depend on weights)."""
    ub, dmin, _ = sequential_bound(data)
    rest = float(sum(data.weight[k] * (data.arrival[k] + dmin[k]) for k in J))
    dmax = {j: max(c.d for c in cfg[j]) for j in J}
    busy = sum(dmax.values())
    out = {}
    for j in J:
        weighted = (ub - rest + data.weight[j] * (data.arrival[j] + dmin[j])) / data.weight[j]
        slots = int(data.arrival[j]) + busy + len(J) * (int(dmin[j]) - 1)
        out[j] = int(min(slots, math.floor(min(weighted, 2.0 ** 62) + 1e-9)))
    return out


def model_size(data: HeteroData, J: list[int], cfg: dict[int, list[Config]],
               first: dict[int, int], cmax: dict[int, int]) -> int:
    """Variables of the exact model, counted before building it: z (one per configuration and
    start), Y / S (one per job, running slot, server and type)."""
    H = len(data.cap)
    types = len(data.e) + len(data.z)
    n = 0
    for j in J:
        n += sum(max(0, cmax[j] - c.d - first[j] + 1) for c in cfg[j])
        n += max(0, cmax[j] - first[j]) * H * types
    return n


def check_model_size(data: HeteroData, J: list[int], cfg: dict[int, list[Config]],
                     first: dict[int, int], cmax: dict[int, int]) -> None:
    """InputError (one line) when the exact model would exceed :data:`MAX_MODEL_VARS`."""
    n = model_size(data, J, cfg, first, cmax)
    if n > MAX_MODEL_VARS:
        raise InputError(f"the exact model would have about {n:,} variables (> {MAX_MODEL_VARS:,}"
                         ", mlopt.models.hetero.wct_milp.MAX_MODEL_VARS): too large to build; "
                         "use the lower_bound bound or an online algorithm", field="jobs",
                         value=len(J))


def _s_bar(data: HeteroData, j: int, p: int) -> int:
    return int(max(max(1, math.ceil(data.chunks[j] * b / data.B[p] - 1e-9)) for b in data.b))


def build_wct_milp(workload: Workload, *, deadline: int | None = None,
                   jobs: list[int] | None = None) -> pyo.ConcreteModel:
    """Exact MILP of (2) / (15); with ``deadline`` the max-weight problem (7) / (16)."""
    data = hetero_data(workload)
    ps = data.architecture == "ps"
    J = list(range(len(data.job_ids))) if jobs is None else list(jobs)
    H, R = data.cap.shape
    M, P = len(data.e), len(data.z)
    m_ = pyo.ConcreteModel(name="hetero_wct_milp" if deadline is None else "hetero_maxweight")
    cfg = {j: [c for c in job_configs(data, j) if fits_alone(data, c)] for j in J}
    if deadline is None:
        cmax = completion_caps(data, J, cfg)
        first = {j: int(data.arrival[j]) for j in J}
        check_model_size(data, J, cfg, first, cmax)
    else:
        if deadline < 2:
            raise InputError("must be >= 2", field="deadline", value=deadline)
        cmax = {j: int(deadline) for j in J}  # (7b): t + d_j <= tau
        first = {j: 1 for j in J}
    idx = [(j, k, t) for j in J for k, c in enumerate(cfg[j])
           for t in range(first[j], cmax[j] - c.d + 1)]
    if deadline is None and not idx:
        raise InputError("no schedule fits", field="jobs")
    slots = sorted({t for j in J for t in range(first[j], cmax[j])})
    m_.Z = pyo.Set(initialize=idx, dimen=3)
    m_.z = pyo.Var(m_.Z, domain=pyo.Binary)
    m_.JHM = pyo.Set(initialize=[(j, h, m) for j in J for h in range(H) for m in range(M)],
                     dimen=3)
    m_.y = pyo.Var(m_.JHM, domain=pyo.NonNegativeIntegers,
                   bounds=lambda m, j, h, mm: (0, int(data.chunks[j])))
    jrun = [(j, t) for j in J for t in range(first[j], cmax[j])]
    m_.Y = pyo.Var([(j, h, mm, t) for (j, t) in jrun for h in range(H) for mm in range(M)],
                   domain=pyo.NonNegativeReals)
    by_job: dict[int, list] = {}
    for (j, k, t) in idx:
        by_job.setdefault(j, []).append((k, t))

    def zsum(j, pred=lambda c: True):
        return sum(m_.z[j, k, t] for (k, t) in by_job.get(j, []) if pred(cfg[j][k]))

    if deadline is None:
        # (2): sum_j w_j c_j with c_j = t + d_j
        m_.obj = pyo.Objective(expr=sum(data.weight[j] * (t + cfg[j][k].d) * m_.z[j, k, t]
                                         for (j, k, t) in idx), sense=pyo.minimize)
        # (2a) every job runs once
        m_.c2a_once = pyo.Constraint(J, rule=lambda m, j: zsum(j) == 1)
    else:
        # (7): total weight of jobs completed by tau; (7a) at most once
        m_.obj = pyo.Objective(expr=sum(data.weight[j] * m_.z[j, k, t] for (j, k, t) in idx),
                               sense=pyo.maximize)
        m_.c7a_at_most_once = pyo.Constraint(J, rule=lambda m, j: zsum(j) <= 1 if by_job.get(j)
                                             else pyo.Constraint.Skip)
    # (2b) exactly N workers of the chosen type
    m_.c2b_workers = pyo.Constraint(m_.JHM.data() and [(j, mm) for j in J for mm in range(M)],
                                    rule=lambda m, j, mm: sum(m.y[j, h, mm] for h in range(H))
                                    == sum(cfg[j][k].n * m.z[j, k, t] for (k, t) in
                                           by_job.get(j, []) if cfg[j][k].m == mm))
    Q = {j: zsum(j, lambda c: c.q == 1) for j in J}
    m_.o = pyo.Var([(j, h) for j in J for h in range(H)], domain=pyo.Binary)
    # (2d) q = 1 => one server holds everything
    m_.c2d_pick = pyo.Constraint(J, rule=lambda m, j: sum(m.o[j, h] for h in range(H)) == Q[j])
    m_.c2d_workers = pyo.Constraint(m_.JHM, rule=lambda m, j, h, mm: m.y[j, h, mm] <= int(
        data.chunks[j]) * (1 - Q[j] + m.o[j, h]))
    if ps:
        JHP = [(j, h, p) for j in J for h in range(H) for p in range(P)]
        sb = {(j, p): _s_bar(data, j, p) for j in J for p in range(P)}
        m_.s = pyo.Var(JHP, domain=pyo.NonNegativeIntegers,
                       bounds=lambda m, j, h, p: (0, sb[j, p]))
        m_.S = pyo.Var([(j, h, p, t) for (j, t) in jrun for h in range(H) for p in range(P)],
                       domain=pyo.NonNegativeReals)
        V = {(j, p): zsum(j, lambda c, p=p: c.p == p) for j in J for p in range(P)}
        # (2c) PSs only of the chosen type; (2e) at least one PS
        m_.c2c_type = pyo.Constraint(JHP, rule=lambda m, j, h, p: m.s[j, h, p] <= sb[j, p]
                                     * V[j, p])
        m_.c2e_one_ps = pyo.Constraint([(j, p) for j in J for p in range(P)], rule=lambda m, j, p:
                                       sum(m.s[j, h, p] for h in range(H)) >= V[j, p])
        m_.c2d_ps = pyo.Constraint(JHP, rule=lambda m, j, h, p: m.s[j, h, p] <= sb[j, p] * (
            1 - Q[j] + m.o[j, h]))
        # (2i) every server with PSs of j covers the bandwidth of j's workers elsewhere
        m_.sigma = pyo.Var([(j, h) for j in J for h in range(H)], domain=pyo.Binary)
        m_.c2i_mark = pyo.Constraint(JHP, rule=lambda m, j, h, p: m.s[j, h, p] <= sb[j, p]
                                     * m.sigma[j, h])
        bmax = float(data.b.max())
        # the checker's slack on (2i) (cover (1 + 1e-9) + 1e-9) unless the bandwidths and the
        # largest cover and remote load are on one grid (then equivalent: tolerance.integral)
        most = max(float(data.B[p] * sb[j, p]) for j in J for p in range(P)) if J and P else 0.0
        exact_bw = integral(*data.b, *data.B, most, float(data.b.max()) * float(
            data.chunks[J].max() if J else 0))
        cover_scale = 1.0 if exact_bw else 1.0 + CAP_RTOL
        cover_slack = 0.0 if exact_bw else CAP_ATOL
        m_.c2i_bandwidth = pyo.Constraint(
            [(j, h) for j in J for h in range(H)], rule=lambda m, j, h:
            sum(data.b[mm] * m.y[j, g, mm] for g in range(H) if g != h for mm in range(M))
            <= sum(data.B[p] * cover_scale * m.s[j, h, p] for p in range(P)) + cover_slack
            + bmax * int(data.chunks[j]) * (1 - m.sigma[j, h]))

    def run(j, t):
        return sum(m_.z[j, k, tt] for (k, tt) in by_job.get(j, []) if tt <= t < tt + cfg[j][k].d)

    m_.c2h_link_workers = pyo.Constraint(
        [(j, h, mm, t) for (j, t) in jrun for h in range(H) for mm in range(M)],
        rule=lambda m, j, h, mm, t: m.Y[j, h, mm, t] >= m.y[j, h, mm]
        - int(data.chunks[j]) * (1 - run(j, t)))
    if ps:
        m_.c2h_link_ps = pyo.Constraint(
            [(j, h, p, t) for (j, t) in jrun for h in range(H) for p in range(P)],
            rule=lambda m, j, h, p, t: m.S[j, h, p, t] >= m.s[j, h, p]
            - sb[j, p] * (1 - run(j, t)))
    running = {t: [j for j in J if first[j] <= t < cmax[j]] for t in slots}

    def cap_rule(m, h, r, t):
        lhs = sum(data.e[mm, r] * m.Y[j, h, mm, t] for j in running[t] for mm in range(M)
                  if data.e[mm, r] > 0)
        if ps:
            lhs = lhs + sum(data.z[p, r] * m.S[j, h, p, t] for j in running[t] for p in range(P)
                            if data.z[p, r] > 0)
        if isinstance(lhs, (int, float)):
            return pyo.Constraint.Skip
        return lhs <= float(data.limit[h, r])  # the checker's accepted load
    # (2h) / (15b) capacity of every server, resource and slot
    m_.c2h_capacity = pyo.Constraint([(h, r, t) for h in range(H) for r in range(R)
                                      for t in slots], rule=cap_rule)
    m_._hetero = {"cfg": cfg, "jobs": J, "deadline": deadline}
    return m_


def _val(v) -> int:
    x = pyo.value(v)
    r = round(x)
    if abs(x - r) > INTEGRALITY_TOL:
        raise InputError("model was not solved as a MILP (fractional value)", value=x)
    return int(r)


def extract_schedule(model: pyo.ConcreteModel, workload: Workload) -> Schedule:
    """Read the chosen (job, configuration, start) binaries back into a Schedule."""
    data = hetero_data(workload)
    info = model._hetero
    cfg = info["cfg"]
    H, M, P = len(data.cap), len(data.e), len(data.z)
    rows, admitted = [], set()
    for (j, k, t) in model.Z:
        if _val(model.z[j, k, t]) != 1:
            continue
        c = cfg[j][k]
        jid = data.job_ids[j]
        admitted.add(jid)
        for tt in range(t, t + c.d):
            for h in range(H):
                for mm in range(M):
                    n = _val(model.y[j, h, mm])
                    if n:
                        rows.append([jid, tt, data.server_ids[h], "worker", n, data.wtype_ids[mm]])
                if data.architecture == "ps":
                    for p in range(P):
                        n = _val(model.s[j, h, p])
                        if n:
                            rows.append([jid, tt, data.server_ids[h], "ps", n, data.ptype_ids[p]])
    return Schedule.from_dict({"schema_version": SCHEDULE_SCHEMA_VERSION,
                               "admitted": sorted(admitted), "columns": [*COLUMNS, "type"],
                               "rows": rows, "meta": {}})

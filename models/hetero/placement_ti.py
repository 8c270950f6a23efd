"""Per-placement time-indexed formulation of seed 003's (2) / (15): one binary per (job,
placement, start slot).

A placement fixes everything the paper's per-job variables decide (worker type m, PS type p,
workers y_h per server, the PS server and its PS count: :mod:`mlopt.families.hetero.placements`),
so its duration d_l, co-location q and the PS-bandwidth condition (2i) are known per column and
only three kinds of rows remain:
  once      sum_{l,t} x_jlt = 1                                      ((2a): every job runs once)
  capacity  sum_{j,l,t: t <= tau < t + d_l} use_lhr x_jlt <= C_h^r    ((2h) / (15b), per server,
            resource and slot; rows no column touches are omitted)
  objective sum_j w_j sum_{l,t} (t + d_l) x_jlt                       ((2), c_j = t_j + d_j)
(2b)-(2g), (2i), (2j) hold by construction of the columns (starts t >= a_j).

HORIZON: the same exact per-job completion caps as ``wct_milp`` (:func:`.wct_milp.
completion_caps`: every optimal schedule has c_j <= Cmax_j; its argument only uses durations of
configurations that fit the empty cluster, and every placement's duration is one of those).
SYMMETRY: identical servers are permuted freely by any schedule; the first job with more than
one placement is restricted to canonical placements (:func:`.placements.canonical`), which
keeps an optimal schedule.  No start-time symmetry is broken (jobs with equal data could be
ordered, but the instances have none; the argument would need equal arrival, weight and work).
SIZE: columns are counted before building; beyond :data:`.wct_milp.MAX_MODEL_VARS` the model is
refused with one InputError.
"""
from __future__ import annotations

from collections import defaultdict

import numpy as np
import pyomo.environ as pyo
from pyomo.common.collections import ComponentMap

from mlopt.errors import InputError
from mlopt.families.hetero.configs import fits_alone, job_configs
from mlopt.families.hetero.fields import hetero_data
from mlopt.families.hetero.placements import canonical, job_placements, server_classes
from mlopt.models.hetero.wct_milp import MAX_MODEL_VARS, _val, completion_caps
from mlopt.schedule import COLUMNS, SCHEDULE_SCHEMA_VERSION, Schedule
from mlopt.workload import Workload


def columns(data):
    """What the model's columns are made of, shared with its size estimate
    (:func:`mlopt.models.hetero.estimate.estimate_placement_ti`): the jobs, each job's
    placements (the symmetry-restricted job's canonical ones only), completion caps, first
    slots, and the symmetry-restricted job."""
    J = list(range(len(data.job_ids)))
    pls = {j: job_placements(data, j) for j in J}  # refuses a large cluster first
    cfg = {j: [c for c in job_configs(data, j) if fits_alone(data, c)] for j in J}
    cmax = completion_caps(data, J, cfg)
    sym = next((j for j in J if len(pls[j]) > 1), None)
    if sym is not None:
        pls[sym] = pls[sym].take(canonical(pls[sym], server_classes(data)))
    first = {j: int(data.arrival[j]) for j in J}
    return J, pls, cmax, first, sym


def binds(most: float, cap: float) -> bool:
    """Whether a capacity row is kept: its columns together can exceed the capacity."""
    return most > cap * (1 + 1e-9) + 1e-9


def build_placement_ti(workload: Workload) -> pyo.ConcreteModel:
    """Build the per-placement time-indexed model; InputError if it would be too large."""
    data = hetero_data(workload)
    J, pls, cmax, first, sym = columns(data)
    n = sum(max(0, cmax[j] - int(d) - first[j] + 1) for j in J for d in pls[j].d.tolist())
    if n > MAX_MODEL_VARS:
        raise InputError(f"the per-placement model would have {n:,} variables (> "
                         f"{MAX_MODEL_VARS:,}, mlopt.models.hetero.wct_milp.MAX_MODEL_VARS): too "
                         "large to build; use a bound or an online algorithm", field="jobs",
                         value=len(J))
    idx = [(j, l, t) for j in J for l, d in enumerate(pls[j].d.tolist())
           for t in range(first[j], cmax[j] - d + 1)]
    if not idx:
        raise InputError("no schedule fits", field="jobs")
    m_ = pyo.ConcreteModel(name="hetero_placement_ti")
    m_.X = pyo.Set(initialize=idx, dimen=3)
    m_.x = pyo.Var(m_.X, domain=pyo.Binary)
    by_job = defaultdict(list)
    for (j, l, t) in idx:
        by_job[j].append(m_.x[j, l, t])
    rows = capacity_rows(data.cap, ((i, j, pls[j].use[l], t, int(pls[j].d[l]))
                                    for i, (j, l, t) in enumerate(idx)))
    m_.obj = pyo.Objective(expr=sum(float(data.weight[j]) * (t + int(pls[j].d[l])) * m_.x[j, l, t]
                                    for (j, l, t) in idx), sense=pyo.minimize)
    m_.once = pyo.Constraint(J, rule=lambda m, j: sum(by_job[j]) == 1)
    m_.capacity = pyo.Constraint(list(rows), rule=lambda m, h, r, tau: sum(
        c * m.x[idx[i]] for c, i in rows[h, r, tau]) <= float(data.limit[h, r]))  # checker's
    m_._hetero = {"model": "placement_ti", "placements": pls, "jobs": J, "sym": sym,
                  "classes": server_classes(data)}
    return m_


def capacity_rows(cap: np.ndarray, cols, at: np.ndarray | None = None) -> dict:
    """The per-server capacity rows (h, r, tau) -> [(coef, column id)], sorted by key, of
    columns given as (id, job, use H x R, start t, duration d), each loading use[h, r] on
    server h in slots t .. t + d - 1.  Rows whose columns cannot exceed C_h^r together
    (:func:`binds`, :func:`_most`) are omitted.  ``at`` (sorted slots): rows only at those
    slots; callers pass every column start, which is EXACT -- the columns running at a slot
    tau all run at the latest start among them, so that slot's row is at least as tight."""
    rows = defaultdict(list)
    job_of = {}
    for i, j, use, t, d in cols:
        job_of[i] = j
        taus = range(t, t + d) if at is None else \
            at[np.searchsorted(at, t):np.searchsorted(at, t + d)].tolist()
        for h, r in zip(*np.nonzero(use > 0)):
            coef = float(use[h, r])
            for tau in taus:
                rows[int(h), int(r), tau].append((coef, i))
    return {k: rows[k] for k in sorted(rows)
            if binds(_most(rows[k], job_of), float(cap[k[0], k[1]]))}


def _most(terms, job_of) -> float:
    """The largest sum the row's left side reaches: per job, its largest coefficient (a job
    runs one column)."""
    per_job: dict[int, float] = {}
    for coef, i in terms:
        j = job_of[i]
        per_job[j] = max(per_job.get(j, 0.0), coef)
    return sum(per_job.values())


def extract_schedule(model: pyo.ConcreteModel, workload: Workload) -> Schedule:
    """Read the chosen (job, placement, start) binaries back into a Schedule."""
    data = hetero_data(workload)
    pls = model._hetero["placements"]
    rows, admitted = [], set()
    for (j, l, t) in model.X:
        if _val(model.x[j, l, t]) != 1:
            continue
        pl, jid = pls[j], data.job_ids[j]
        admitted.add(jid)
        m, p = int(pl.m[l]), int(pl.p[l])
        for tt in range(t, t + int(pl.d[l])):
            for h in range(len(data.cap)):
                if pl.y[l, h]:
                    rows.append([jid, tt, data.server_ids[h], "worker", int(pl.y[l, h]),
                                 data.wtype_ids[m]])
                if pl.s[l, h]:
                    rows.append([jid, tt, data.server_ids[h], "ps", int(pl.s[l, h]),
                                 data.ptype_ids[p]])
    return Schedule.from_dict({"schema_version": SCHEDULE_SCHEMA_VERSION,
                               "admitted": sorted(admitted), "columns": [*COLUMNS, "type"],
                               "rows": rows, "meta": {}})


def encode(model: pyo.ConcreteModel, workload: Workload, schedule: Schedule) -> ComponentMap:
    """Warm start from a schedule.  Per job: its start t0, run length and per-server use in its
    first slot; the column chosen is, among the job's placements with use <= that use on every
    server and resource, duration <= the run length and start t0 in the model, the shortest.
    Such a column replaces the schedule's placement without breaking any capacity row and
    completes no later, so the start's objective is at most the schedule's.  A job with no such
    column (a start beyond the horizon caps, a placement that changes between slots; the
    symmetry-restricted job is first made canonical by permuting identical servers in the whole
    schedule: an equally good schedule) is left to the solver (a partial start)."""
    data = hetero_data(workload)
    pls = model._hetero["placements"]
    H, R = data.cap.shape
    hidx = {h: i for i, h in enumerate(data.server_ids)}
    jidx = {j: i for i, j in enumerate(data.job_ids)}
    demand = {("worker", t): data.e[i] for i, t in enumerate(data.wtype_ids)}
    demand.update({("ps", t): data.z[i] for i, t in enumerate(data.ptype_ids)})
    df = schedule.allocations
    types = df["type"] if "type" in df.columns else [""] * len(df)
    per = defaultdict(lambda: defaultdict(lambda: np.zeros((H, R))))  # j -> slot -> use
    for (job, slot, server, role, count), typ in zip(
            df[["job", "slot", "server", "role", "count"]].itertuples(index=False), types):
        vec = demand.get((role, str(typ)))
        if job not in jidx or server not in hidx or vec is None:
            continue
        per[jidx[job]][int(slot)][hidx[server]] += float(count) * vec
    _canonicalize(per, model._hetero["sym"], model._hetero["classes"])
    starts = defaultdict(set)
    for (j, l, t) in model.X:
        starts[j, l].add(t)
    start = ComponentMap((v, 0.0) for v in model.x.values())
    for j in model._hetero["jobs"]:
        slots = sorted(per.get(j, {}))
        if not slots or slots[-1] - slots[0] + 1 != len(slots):
            _forget(model, start, j)
            continue
        use = per[j][slots[0]]
        if any(not np.array_equal(per[j][t], use) for t in slots):
            _forget(model, start, j)
            continue
        pl, t0 = pls[j], slots[0]
        ok = (pl.use <= use[None] * (1 + 1e-9) + 1e-9).all(axis=(1, 2)) & (pl.d <= len(slots))
        cands = [l for l in np.flatnonzero(ok).tolist() if t0 in starts[j, l]]
        if not cands:
            _forget(model, start, j)
            continue
        best = min(cands, key=lambda l: (int(pl.d[l]), l))
        start[model.x[j, best, t0]] = 1.0
    return start


def _canonicalize(per, sym, classes) -> None:
    """Permute identical servers in every job's per-slot use (in place) so that job ``sym``'s
    first-slot use is lexicographically non-increasing along each class, as the model's
    symmetry breaking asks (:func:`mlopt.families.hetero.placements.canonical`)."""
    if sym is None or not per.get(sym):
        return
    use0 = per[sym][min(per[sym])]
    perm = np.arange(len(use0))  # new server position -> old server
    for cls in classes:
        order = sorted(cls, key=lambda h: tuple(use0[h].tolist()), reverse=True)
        perm[cls] = order
    for slots in per.values():
        for t in slots:
            slots[t] = slots[t][perm]


def _forget(model, start, j) -> None:
    for key in list(model.x.keys()):
        if key[0] == j:
            del start[model.x[key]]

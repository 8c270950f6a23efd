"""OASiS schedule-based master problem (14)-(18) of seed 000 (Bao et al., INFOCOM'18), Sec. IV-A.

The paper reformulates (1)-(13) over *schedules*: a schedule l of job i fixes its worker and PS
counts y_ih^l(t), z_ik^l(t) in every slot, hence its completion slot t_il and utility
f_i(t_il - a_i).  Choosing at most one schedule per job (17) subject to the per-server capacities
(15)/(16) is problem (14); its LP relaxation (x_il in [0, 1]) has the dual (19)-(20).  The full
schedule sets L_i are exponential, so this module states (14)-(18) over a *given* list of
:class:`Column` s (the restricted master of column generation, :mod:`mlopt.families.oasis.bounds.colgen`):

* ``build_master(workload, columns, relax=False)`` -- a declarative Pyomo model (never solved
  here): x binary (18), or x in [0, 1] with ``relax=True`` (the LP whose duals price columns);
* ``extract_master_schedule(model, workload, columns)`` -- a solved integer master back into a
  :class:`~mlopt.schedule.Schedule` for the independent checker.

DECISION (which schedules form L_i).  The paper lets L_i be the schedules satisfying
(2)(3)(6)(7)(9)-(13) only.  We additionally require each schedule to fit an *empty* cluster
(y_ih(t) w_i^r <= c_h^r and z_ik(t) s_i^r <= c_k^r for each server alone).  A schedule breaking
that can never carry x_il = 1 in a feasible integer solution, so OPT of (14) is unchanged; it
only removes fractional LP solutions such as "x = 1/2 of a schedule that needs two servers'
worth of one machine", so LP(14) over our L_i is a *tighter* valid upper bound on OPT, and the
dual (19)-(20) needs (20) only for these schedules.  This is exactly the schedule set that the
subroutine :func:`mlopt.families.oasis.subroutine.best_schedule` searches when its market
offers full capacities (empty-server caps), which is how :mod:`mlopt.families.oasis.bounds` prices (20).

Indices: ``x[job_id, n]`` is the n-th column of job ``job_id`` in the given list (symbolic LP
labels read ``x(a_0)``); rows are (server id, slot, resource) as in ``models/oasis/__init__.py``.
"""
from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import pyomo.environ as pyo

from mlopt.errors import InputError
from mlopt.schedule import Schedule
from mlopt.workload import Workload

MODEL_NAME = "oasis_master"
INTEGRALITY_TOL = 1e-6  # as models/oasis/__init__.py: a solved binary further than this is an error
# Tolerances of column validation, identical to the checker's (mlopt/families/oasis/checker.py).
WORK_RTOL = 1e-9
CAP_RTOL = 1e-9
CAP_ATOL = 1e-9


@dataclass(frozen=True, eq=False)
class Column:
    """One complete schedule l of one job i: the data (14)-(16) need, in sparse form.

    ``worker_*`` arrays list the (slot t, worker-server index h, count y_ih^l(t) > 0) triples,
    ``h`` indexing ``workload.arrays.worker_servers`` (0..H-1); ``ps_*`` likewise with k.
    ``end_slot`` is t_il, the last slot with a worker (8), and ``utility`` = f_i(t_il - a_i).
    ``source`` says who produced it ("oasis", "greedy", "pricing", ...): informational only.
    """

    job: int
    end_slot: int
    utility: float
    worker_slot: np.ndarray
    worker_server: np.ndarray
    worker_count: np.ndarray
    ps_slot: np.ndarray
    ps_server: np.ndarray
    ps_count: np.ndarray
    source: str = ""

    @classmethod
    def from_dense(cls, workload: Workload, job: int, workers: np.ndarray, ps: np.ndarray,
                   source: str = "") -> Column:
        """From (T, H) worker and (T, K) PS count arrays (row t-1 is slot t), e.g. a
        :class:`~mlopt.families.oasis.subroutine.JobSchedule`."""
        workers = np.asarray(workers)
        ps = np.asarray(ps)
        wt, wh = np.nonzero(workers)
        pt, pk = np.nonzero(ps)
        if len(wt) == 0:
            raise ValueError(f"job {workload.jobs[job].id!r}: a schedule needs workers")
        end = int(wt.max()) + 1
        j = workload.jobs[job]
        return cls(job, end, float(j.utility(end - j.arrival)),
                   (wt + 1).astype(np.int64), wh.astype(np.int64),
                   workers[wt, wh].astype(np.int64), (pt + 1).astype(np.int64),
                   pk.astype(np.int64), ps[pt, pk].astype(np.int64), source)

    def dense(self, workload: Workload) -> tuple[np.ndarray, np.ndarray]:
        """(T, H) worker and (T, K) PS count arrays."""
        a = workload.arrays
        T = workload.horizon
        w = np.zeros((T, len(a.worker_servers)), dtype=np.int64)
        p = np.zeros((T, len(a.ps_servers)), dtype=np.int64)
        np.add.at(w, (self.worker_slot - 1, self.worker_server), self.worker_count)
        np.add.at(p, (self.ps_slot - 1, self.ps_server), self.ps_count)
        return w, p

    @property
    def key(self) -> tuple:
        """Identity of the schedule (not of its source): equal keys, equal columns."""
        return (self.job, self.worker_slot.tobytes(), self.worker_server.tobytes(),
                self.worker_count.tobytes(), self.ps_slot.tobytes(), self.ps_server.tobytes(),
                self.ps_count.tobytes())


def columns_from_schedule(workload: Workload, schedule: Schedule, source: str = ""
                          ) -> list[Column]:
    """One column per admitted job of a (checked) schedule, e.g. an OASiS run's."""
    a = workload.arrays
    T = workload.horizon
    h_of = {workload.servers[s].id: n for n, s in enumerate(a.worker_servers)}
    k_of = {workload.servers[s].id: n for n, s in enumerate(a.ps_servers)}
    out = []
    df = schedule.allocations
    for i, job in enumerate(workload.jobs):
        if job.id not in schedule.admitted:
            continue
        rows = df[df["job"] == job.id]
        w = np.zeros((T, len(h_of)), dtype=np.int64)
        p = np.zeros((T, len(k_of)), dtype=np.int64)
        for r in rows.itertuples(index=False):
            if r.role == "worker":
                w[int(r.slot) - 1, h_of[r.server]] += int(r.count)
            else:
                p[int(r.slot) - 1, k_of[r.server]] += int(r.count)
        out.append(Column.from_dense(workload, i, w, p, source))
    return out


def column_violations(workload: Workload, col: Column) -> list[str]:
    """Why ``col`` is not in L_i (empty list: it is): (2)(3)(6)(7)(9)-(13) + empty-server caps.

    Used to validate every column before it enters a master, so a bug in a column producer
    cannot silently inflate a bound or break a schedule.
    """
    a = workload.arrays
    i = col.job
    job = workload.jobs[i]
    T = workload.horizon
    out = []
    for name, slot, cnt in (("worker", col.worker_slot, col.worker_count),
                            ("ps", col.ps_slot, col.ps_count)):
        if len(slot) and ((slot < job.arrival).any() or (slot > T).any()):
            out.append(f"(9)/(10): a {name} outside slots {job.arrival}..{T}")
        if (cnt <= 0).any():
            out.append(f"(12)/(13): non-positive {name} count")
    w, p = col.dense(workload)
    y, z = w.sum(axis=1), p.sum(axis=1)
    if y.sum() < a.work[i] * (1 - WORK_RTOL):
        out.append(f"(2): {y.sum()} worker-slots < work {a.work[i]:.6g}")
    if (y > a.chunks[i]).any():
        out.append(f"(3): more than N={a.chunks[i]} workers in a slot")
    if (y * a.worker_bw[i] > z * a.ps_bw[i] * (1 + CAP_RTOL) + CAP_ATOL).any():
        out.append("(6): PS bandwidth below worker bandwidth in a slot")
    if (z > y).any():
        out.append("(7): more PSs than workers in a slot")
    if (w[:, :, None] * a.worker_demand[i] > a.cap_worker * (1 + CAP_RTOL) + CAP_ATOL).any():
        out.append("empty-server cap: workers exceed one worker server's capacity")
    if (p[:, :, None] * a.ps_demand[i] > a.cap_ps * (1 + CAP_RTOL) + CAP_ATOL).any():
        out.append("empty-server cap: PSs exceed one PS server's capacity")
    end = int(np.flatnonzero(y)[-1]) + 1 if y.any() else None
    if end != col.end_slot:
        out.append(f"(8): end slot {col.end_slot} but the last worker is in slot {end}")
    elif not math.isclose(col.utility, float(job.utility(end - job.arrival)), rel_tol=1e-12,
                          abs_tol=1e-12):
        out.append(f"(14): utility {col.utility} != f_i(t_il - a_i)")
    return out


def column_coefficients(workload: Workload, col: Column
                        ) -> tuple[dict[tuple[int, int, int], float],
                                   dict[tuple[int, int, int], float]]:
    """Coefficients of x_il in (15) and (16): {(t, h, r): w_i^r y_ih^l(t)} and
    {(t, k, r): s_i^r z_ik^l(t)}, only for resources the job uses (demand > 0)."""
    a = workload.arrays
    wd, sd = a.worker_demand[col.job], a.ps_demand[col.job]
    wr, sr = np.flatnonzero(wd > 0), np.flatnonzero(sd > 0)
    cw: dict[tuple[int, int, int], float] = {}
    for t, h, n in zip(col.worker_slot.tolist(), col.worker_server.tolist(),
                       col.worker_count.tolist()):
        for r in wr.tolist():
            cw[t, h, r] = cw.get((t, h, r), 0.0) + float(wd[r]) * n
    cp: dict[tuple[int, int, int], float] = {}
    for t, k, n in zip(col.ps_slot.tolist(), col.ps_server.tolist(), col.ps_count.tolist()):
        for r in sr.tolist():
            cp[t, k, r] = cp.get((t, k, r), 0.0) + float(sd[r]) * n
    return cw, cp


def _labels(columns: Sequence[Column], workload: Workload) -> list[tuple[str, int]]:
    seen: dict[int, int] = defaultdict(int)
    out = []
    for c in columns:
        out.append((workload.jobs[c.job].id, seen[c.job]))
        seen[c.job] += 1
    return out


def build_master(workload: Workload, columns: Iterable[Column], *, relax: bool = False
                 ) -> pyo.ConcreteModel:
    """Problem (14)-(18) of seed 000 Sec. IV-A over the given columns, as a Pyomo model.

    Variables: ``x[i, n]`` -- job i runs its n-th given schedule; binary (18), or in [0, 1]
    with ``relax=True`` (the LP relaxation, dual (19)-(20); x <= 1 is implied by (17)).
    A ``dual`` import suffix is attached in the relaxed model for solvers that fill it.

    Rows exist only where some column has a positive coefficient (other rows read 0 <= c).
    Columns are validated with :func:`column_violations` first (InputError on a bad one).
    """
    columns = list(columns)
    for c in columns:
        bad = column_violations(workload, c)
        if bad:
            raise InputError(f"not a schedule of L_i: {bad[0]}", field="columns",
                             value=workload.jobs[c.job].id)
    a = workload.arrays
    R = workload.resources
    h_ids = [workload.servers[s].id for s in a.worker_servers]
    k_ids = [workload.servers[s].id for s in a.ps_servers]
    labels = _labels(columns, workload)

    w_rows: dict[tuple[int, int, int], list[tuple[tuple[str, int], float]]] = defaultdict(list)
    p_rows: dict[tuple[int, int, int], list[tuple[tuple[str, int], float]]] = defaultdict(list)
    for lab, c in zip(labels, columns):
        cw, cp = column_coefficients(workload, c)
        for key, v in cw.items():
            w_rows[key].append((lab, v))
        for key, v in cp.items():
            p_rows[key].append((lab, v))
    # deterministic (server, slot, resource) order, as models/oasis/__init__.py (golden LP files)
    w_keys = sorted(w_rows, key=lambda k: (k[1], k[0], k[2]))
    p_keys = sorted(p_rows, key=lambda k: (k[1], k[0], k[2]))
    by_job: dict[str, list[tuple[str, int]]] = defaultdict(list)
    for lab in labels:
        by_job[lab[0]].append(lab)
    jobs = [j.id for j in workload.jobs if j.id in by_job]

    m = pyo.ConcreteModel(name=MODEL_NAME)
    m.J = pyo.Set(initialize=jobs, ordered=True, doc="jobs with at least one column")
    m.C = pyo.Set(dimen=2, initialize=labels, ordered=True, doc="columns (job i, schedule l)")
    m.HTR = pyo.Set(dimen=3, ordered=True, doc="worker capacity rows (h, t, r)",
                    initialize=[(h_ids[h], t, R[r]) for (t, h, r) in w_keys])
    m.KTR = pyo.Set(dimen=3, ordered=True, doc="PS capacity rows (k, t, r)",
                    initialize=[(k_ids[k], t, R[r]) for (t, k, r) in p_keys])
    m.x = pyo.Var(m.C, domain=pyo.UnitInterval if relax else pyo.Binary)  # (18)
    util = {lab: c.utility for lab, c in zip(labels, columns)}
    w_terms = {(h_ids[h], t, R[r]): w_rows[t, h, r] for (t, h, r) in w_keys}
    p_terms = {(k_ids[k], t, R[r]): p_rows[t, k, r] for (t, k, r) in p_keys}
    cap_w = {(h_ids[h], R[r]): float(a.cap_worker[h, r]) for h in range(len(h_ids))
             for r in range(len(R))}
    cap_p = {(k_ids[k], R[r]): float(a.cap_ps[k, r]) for k in range(len(k_ids))
             for r in range(len(R))}

    # (14) total utility of the chosen schedules
    m.obj14 = pyo.Objective(expr=pyo.quicksum(util[lab] * m.x[lab] for lab in labels),
                            sense=pyo.maximize)
    # (15) the chosen schedules' workers fit each worker server, per slot and resource
    m.c15_worker_capacity = pyo.Constraint(m.HTR, rule=lambda m_, h, t, r: pyo.quicksum(
        v * m.x[lab] for lab, v in w_terms[h, t, r]) <= cap_w[h, r])
    # (16) the chosen schedules' PSs fit each PS server, per slot and resource
    m.c16_ps_capacity = pyo.Constraint(m.KTR, rule=lambda m_, k, t, r: pyo.quicksum(
        v * m.x[lab] for lab, v in p_terms[k, t, r]) <= cap_p[k, r])
    # (17) at most one schedule per job
    m.c17_one_schedule_per_job = pyo.Constraint(m.J, rule=lambda m_, i: pyo.quicksum(
        m.x[lab] for lab in by_job[i]) <= 1)
    if relax:
        m.dual = pyo.Suffix(direction=pyo.Suffix.IMPORT)
    return m


def extract_master_schedule(model: pyo.ConcreteModel, workload: Workload,
                            columns: Sequence[Column]) -> Schedule:
    """Read the chosen columns (x = 1) of a solved integer master into a Schedule.

    Values are rounded; one further than ``INTEGRALITY_TOL`` from an integer raises ValueError
    (the model was the LP relaxation, or not solved).  The checker recomputes everything.
    """
    if getattr(model, "name", None) != MODEL_NAME:
        raise ValueError(f"not a {MODEL_NAME} model: {getattr(model, 'name', None)!r}")
    labels = _labels(columns, workload)
    if list(model.C) != labels:
        raise ValueError("the model was built from different columns")
    selected = []
    for lab in labels:
        val = model.x[lab].value
        if val is None:
            raise ValueError(f"x[{lab}] has no value: solve the model first")
        n = round(val)
        if abs(val - n) > INTEGRALITY_TOL:
            raise ValueError(f"x[{lab}] = {val!r} is not integral within {INTEGRALITY_TOL}")
        selected.append(n == 1)
    meta = {"producer": f"models.oasis_master.{MODEL_NAME}",
            "objective": float(pyo.value(model.obj14))}
    return schedule_from_columns(workload, columns, selected, meta)


def schedule_from_columns(workload: Workload, columns: Sequence[Column],
                          selected: Sequence[bool], meta: dict | None = None) -> Schedule:
    """The Schedule running every selected column (at most one per job, else ValueError)."""
    a = workload.arrays
    h_ids = [workload.servers[s].id for s in a.worker_servers]
    k_ids = [workload.servers[s].id for s in a.ps_servers]
    admitted, rows, chosen = [], [], {}
    for lab, c, on in zip(_labels(columns, workload), columns, selected):
        if not on:
            continue
        jid = lab[0]
        if jid in chosen:
            raise ValueError(f"two schedules selected for job {jid!r}: (17) violated")
        admitted.append(jid)
        chosen[jid] = {"column": lab[1], "source": c.source, "end_slot": c.end_slot}
        rows += [(jid, t, h_ids[h], "worker", n_) for t, h, n_ in
                 zip(c.worker_slot.tolist(), c.worker_server.tolist(), c.worker_count.tolist())]
        rows += [(jid, t, k_ids[k], "ps", n_) for t, k, n_ in
                 zip(c.ps_slot.tolist(), c.ps_server.tolist(), c.ps_count.tolist())]
    return Schedule.from_rows(admitted, rows, {**(meta or {}), "chosen": chosen})

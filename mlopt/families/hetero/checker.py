"""Independent checker for hetero schedules: problem (2)-(2o) (PS) and (15) (Ring-AllReduce).

From the workload and the allocation table alone (columns job, slot, server, role, count, type;
``type`` is a worker-type id for role ``worker`` and a PS-type id for role ``ps``) it re-derives
each job's start, duration, worker/PS counts and placement, the co-location q_j, the rate (1) or
(14), and recomputes the objective sum_j w_j c_j with c_j = t_j + d_j (start slot + duration: the
job occupies slots t_j .. t_j + d_j - 1).

Violations, named after the paper's equations:
* structural: ``unknown_job`` (a row's job or an ``admitted`` id the workload does not have),
  ``unknown_server``, ``unknown_role``, ``unknown_type``, ``slot_out_of_range`` (slot < 1),
  ``integer_counts`` (count not a positive integer), ``duplicate_row`` (two rows with the same
  job, slot, server, role and type);
* ``c2a_scheduled_once``: a job with no worker rows (every job must complete: (2a));
  ``c2a_admitted``: DECISION: in this min-sum family every job is admitted, so a job missing
  from ``admitted`` is a violation (as is one admitted without rows: ``c2a_scheduled_once``);
* ``c2b_one_worker_type`` also when the job's first slot holds no worker (its workers moved to
  other slots: every slot must hold the same allocation);
* ``no_preemption``: the job's slots are not contiguous, or its allocation changes between slots
  (y_jhm, s_jhp are fixed for the whole run, Sec. 3.1);
* ``c2b_one_worker_type`` / ``c2c_one_ps_type``; ``c2e_at_least_one_ps``;
  ``c15_no_ps`` (an RA job with PS rows);
* ``c2f_work_done``: d_j * N_j * rho < E_j D_j K_j (rate from the derived q_j);
* ``c2g_max_workers``: N_j > D_j;
* ``c2h_capacity`` (``c15b_capacity`` for RA): a server's resource exceeded in a slot;
* ``c2i_ps_bandwidth``: a server hosting PSs of j covers less than the bandwidth of j's workers on
  other servers;
* ``c2j_before_arrival``: start before a_j.

Decisions: the horizon T bounds arrivals, not starts: online algorithms start jobs after T when
needed (seed 003 simulates until every job is done), so slots > T are allowed.  q_j is derived
from the placement (all workers and PSs on one server -> q_j = 1, the faster rate); a schedule
that would also be feasible with q_j = 0 is feasible.  Tolerances (:mod:`mlopt.tolerance`, shared
with the exact models and the bounds): work 1e-9 relative, capacities and (2i) 1e-9 relative +
1e-9 absolute.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from mlopt.check import CheckResult, Violation
from mlopt.families.hetero.fields import hetero_data
from mlopt.schedule import Schedule
from mlopt.tolerance import CAP_RTOL, WORK_RTOL, accepted_capacity
from mlopt.workload import Workload

TOL = CAP_RTOL  # the name placement_clique reads
CONSTRAINTS = (
    "unknown_job", "unknown_server", "unknown_role", "unknown_type", "slot_out_of_range",
    "integer_counts", "duplicate_row", "c2a_scheduled_once", "c2a_admitted", "no_preemption",
    "c2b_one_worker_type",
    "c2c_one_ps_type", "c2e_at_least_one_ps", "c15_no_ps", "c2f_work_done", "c2g_max_workers",
    "c2h_capacity", "c15b_capacity", "c2i_ps_bandwidth", "c2j_before_arrival",
)


def check_hetero(workload: Workload, schedule: Schedule) -> CheckResult:
    """Check a hetero schedule against the workload and return the CheckResult."""
    d = hetero_data(workload)
    ra = d.architecture == "ra"
    df = schedule.allocations
    out: list[Violation] = []
    if "type" not in df.columns:
        df = df.assign(type="")
    jidx = {j: i for i, j in enumerate(d.job_ids)}
    hidx = {h: i for i, h in enumerate(d.server_ids)}
    widx = {m: i for i, m in enumerate(d.wtype_ids)}
    pidx = {p: i for i, p in enumerate(d.ptype_ids)}

    admitted = {str(a) for a in schedule.admitted}
    for a in sorted(admitted - set(jidx)):
        out.append(Violation("unknown_job", f"admitted job {a!r} is not in the workload", job=a))
    for jid in d.job_ids:
        if jid not in admitted:
            out.append(Violation("c2a_admitted", "every job must be admitted (2a)", job=jid))
    ok = np.ones(len(df), dtype=bool)
    for n, r in enumerate(df.itertuples(index=False)):
        bad = None
        if r.job not in jidx:
            bad = ("unknown_job", f"job {r.job!r} is not in the workload")
        elif r.server not in hidx:
            bad = ("unknown_server", f"server {r.server!r} is not in the workload")
        elif r.role not in ("worker", "ps"):
            bad = ("unknown_role", f"role {r.role!r} is neither worker nor ps")
        elif r.role == "ps" and ra:
            bad = ("c15_no_ps", "a parameter server in a Ring-AllReduce schedule")
        elif (r.role == "worker" and str(r.type) not in widx) or \
                (r.role == "ps" and str(r.type) not in pidx):
            bad = ("unknown_type", f"{r.role} type {r.type!r} is not declared")
        elif r.slot < 1:
            bad = ("slot_out_of_range", f"slot {r.slot} < 1")
        elif not (np.isfinite(r.count) and r.count > 0 and float(r.count).is_integer()):
            bad = ("integer_counts", f"count {r.count!r} is not a positive integer")
        if bad:
            out.append(Violation(bad[0], bad[1], job=str(r.job), slot=int(r.slot),
                                 server=str(r.server)))
            ok[n] = False
    keys = ["job", "slot", "server", "role", "type"]
    dup = df.duplicated(keys, keep="first").to_numpy() & ok if len(df) else ok
    for n in np.flatnonzero(dup):
        r = df.iloc[n]
        out.append(Violation("duplicate_row", "two rows with the same job, slot, server, role "
                             "and type", job=str(r["job"]), slot=int(r["slot"]),
                             server=str(r["server"])))
    good = df[ok & ~dup]

    H, R = d.cap.shape
    loads: dict[int, np.ndarray] = {}  # slot -> H x R used
    per_job = []
    total = 0.0
    groups = dict(tuple(good.groupby("job", sort=False))) if len(good) else {}
    for j, jid in enumerate(d.job_ids):
        rows = groups.get(jid)
        if rows is None or (rows["role"] == "worker").sum() == 0:
            out.append(Violation("c2a_scheduled_once", "job has no workers scheduled", job=jid))
            per_job.append((jid, False, None, None))
            continue
        slots = np.sort(rows["slot"].unique())
        start, dur = int(slots[0]), len(slots)
        if slots[-1] - slots[0] + 1 != dur:
            out.append(Violation("no_preemption", f"slots {slots.tolist()} are not contiguous",
                                 job=jid))
        # per-slot allocation as a sorted tuple; it must not change
        alloc = rows.groupby(["slot", "role", "server", "type"])["count"].sum()
        acc: dict[int, list] = {}
        for (t, role, srv, typ), v in alloc.items():
            acc.setdefault(int(t), []).append((role, srv, str(typ), float(v)))
        per_slot = {int(t): tuple(sorted(acc[int(t)])) for t in slots}
        first = per_slot[start]
        if any(per_slot[t] != first for t in slots):
            out.append(Violation("no_preemption", "the allocation changes between slots", job=jid))
        workers = [(srv, typ, c) for role, srv, typ, c in first if role == "worker"]
        pss = [(srv, typ, c) for role, srv, typ, c in first if role == "ps"]
        wtypes = {typ for _, typ, _ in workers}
        ptypes = {typ for _, typ, _ in pss}
        if len(wtypes) != 1:
            out.append(Violation("c2b_one_worker_type", f"worker types {sorted(wtypes)} in the "
                                 f"first slot {start}", job=jid, slot=start))
        if not ra and len(ptypes) > 1:
            out.append(Violation("c2c_one_ps_type", f"PS types {sorted(ptypes)}", job=jid))
        if not ra and not pss:
            out.append(Violation("c2e_at_least_one_ps", "no parameter server", job=jid))
        N = int(sum(c for _, _, c in workers))
        if N > d.chunks[j]:
            out.append(Violation("c2g_max_workers", f"{N} workers > D_j = {d.chunks[j]}", job=jid))
        if start < d.arrival[j]:
            out.append(Violation("c2j_before_arrival", f"starts at {start} < a_j = "
                                 f"{d.arrival[j]}", job=jid, slot=start))
        servers_used = {s for s, _, _ in workers} | {s for s, _, _ in pss}
        q = 1 if len(servers_used) == 1 else 0
        m = widx[min(wtypes)] if wtypes else None
        rate = None  # None: no rate (no worker or no PS in the first slot, flagged above)
        if m is not None and ra:
            rate = d.rate_ra(j, m, N, q)
        elif m is not None and pss:
            rate = d.rate_ps(j, m, pidx[min(ptypes)], q)
        if rate is not None and not (rate > 0 and dur * N * rate >= d.work[j] * (1 - WORK_RTOL)):
            out.append(Violation("c2f_work_done", f"d N rho = {dur} x {N} x {rate:.6g} = "
                                 f"{dur * N * rate:.6g} < E D K = {d.work[j]:g}", job=jid))
        if not ra and pss and m is not None:
            b = d.b[m]
            for srv in {s for s, _, _ in pss}:
                remote = sum(c for s, _, c in workers if s != srv) * b
                cover = sum(c * d.B[pidx[t]] for s, t, c in pss if s == srv)
                if remote > accepted_capacity(cover):
                    out.append(Violation("c2i_ps_bandwidth", f"PSs on {srv} cover {cover:g} Gbps "
                                         f"< {remote:g} Gbps of remote workers", job=jid,
                                         server=srv))
        # capacity (2h) / (15b): every slot the job actually holds, with what it holds there
        for t in slots:
            arr = loads.setdefault(int(t), np.zeros((H, R)))
            for role, srv, typ, c in per_slot[t]:
                vec = d.e[widx[typ]] if role == "worker" else d.z[pidx[typ]]
                arr[hidx[srv]] += c * vec
        completion = start + dur
        total += d.weight[j] * completion
        per_job.append((jid, True, completion, d.weight[j] * completion))
    label = "c15b_capacity" if ra else "c2h_capacity"
    for t in sorted(loads):
        over = loads[t] > accepted_capacity(d.cap)
        for h, r in zip(*np.nonzero(over)):
            out.append(Violation(label, f"{d.resources[r]} used {loads[t][h, r]:g} > capacity "
                                 f"{d.cap[h, r]:g}", slot=t, server=d.server_ids[h]))
    table = pd.DataFrame(per_job, columns=["job", "admitted", "completion", "value"])
    return CheckResult(not out, float(total), "min", out, table)

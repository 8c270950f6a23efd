"""Independent checker of PD-ORS schedules: DMLRS (3)-(7) of seed 004 with Fact 1 recomputed.

Never trusts the producer.  From the workload and the allocation table alone it checks

* structure: known jobs / machines, role ``worker`` or ``ps``, integer counts >= 0, slots in
  1..T, no allocation before arrival (7), allocations only for admitted jobs (x_i = 0 => 0);
* (5) capacities on *shared* machines: sum over jobs and both roles of alpha^r w + beta^r s <= C^r
  for every machine, slot and resource (bandwidth excluded, see :mod:`.fields`);
* (4) sum_h w_ih[t] <= F_i; ratio rows gamma_i sum s >= sum w and sum s <= sum w (O1/O2 of the
  notes: the printed gamma_i equality needs divisibility; extra PSs only cut communication);
* (3) with Fact 1 recomputed from the placements: in each slot the job runs at internal speed
  iff all its workers and PSs sit on one single machine (|W|=|P|=1, W=P), else external; the
  slot does sum_h w / n_i^m of the job, which must reach 1 (relative tolerance 1e-9);
* tolerances (:mod:`mlopt.tolerance`, which the exact model and the bounds share): capacities
  1e-9 relative + 1e-9 absolute, work 1e-9 relative; a count within 1e-9 of an integer is
  that integer (float noise), and the loads and work are computed from the integer: DECISION,
  a count of 1.9999999991 workers used to add less than 2 workers' load, a slack no integer
  model can follow;
* (6) t~_i = the last slot with workers; the objective is sum of u_i(t~_i - a_i) over admitted
  jobs, recomputed here.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from mlopt.check import CheckResult, Violation
from mlopt.families.pdors.fields import pdors_arrays
from mlopt.schedule import Schedule
from mlopt.tolerance import WORK_RTOL, accepted_capacity
from mlopt.workload import Workload

TOL = 1e-9  # integer counts and the ratio rows (integers)


def _speed_mode(g: pd.DataFrame) -> str:
    """Fact 1 for one (job, slot): 'int' iff workers and PSs are all on one single machine."""
    w = set(g.loc[g["role"] == "worker", "server"])
    p = set(g.loc[g["role"] == "ps", "server"])
    return "int" if len(w) == 1 and w == p else "ext"


def check_pdors(workload: Workload, schedule: Schedule) -> CheckResult:
    """Check a PD-ORS schedule against the workload and return the violations found."""
    arr = pdors_arrays(workload)
    T = workload.horizon
    jidx, sidx = workload.job_index, workload.server_index
    df = schedule.allocations
    viol: list[Violation] = []

    def add(c, d, job=None, slot=None, server=None):
        viol.append(Violation(c, d, job, None if slot is None else int(slot), server))

    for a in sorted(schedule.admitted - set(jidx)):
        add("unknown_job", f"admitted job {a} is not in the workload", job=a)
    ok = pd.Series(True, index=df.index)
    for col, known, label in (("job", jidx, "unknown_job"), ("server", sidx, "unknown_server")):
        bad = ~df[col].isin(list(known))
        for r in df[bad].itertuples():
            add(label, f"{col} {getattr(r, col)} not in the workload", job=r.job, slot=r.slot)
        ok &= ~bad
    bad = ~df["role"].isin(["worker", "ps"])
    for r in df[bad].itertuples():
        add("role", f"role {r.role!r} is neither worker nor ps", job=r.job, slot=r.slot)
    ok &= ~bad
    cnt = df["count"].astype(float)
    bad = (cnt < 0) | (np.abs(cnt - np.round(cnt)) > 1e-9)
    for r in df[bad].itertuples():
        add("integrality", f"count {r.count} is not a non-negative integer", job=r.job,
            slot=r.slot, server=r.server)
    bad = (df["slot"] < 1) | (df["slot"] > T)
    for r in df[bad].itertuples():
        add("horizon", f"slot {r.slot} outside 1..{T}", job=r.job, slot=r.slot)
    ok &= ~bad
    d = df[ok].copy()
    c = d["count"].astype(float).to_numpy()
    d["count"] = np.where(np.abs(c - np.round(c)) <= TOL, np.round(c), c)  # float noise only
    d["a"] = np.array([arr.arrival[jidx[j]] for j in d["job"]], dtype=int)
    for r in d[d["slot"] < d["a"]].itertuples():
        add("c7_before_arrival", f"allocation in slot {r.slot} before arrival {r.a}", job=r.job,
            slot=r.slot, server=r.server)
    for r in d[~d["job"].isin(list(schedule.admitted))].itertuples():
        add("x_not_admitted", "allocation for a job that is not admitted", job=r.job,
            slot=r.slot, server=r.server)

    # (5) shared-machine capacities: both roles of every job count on the same machine
    if len(d):
        ji = d["job"].map(jidx).to_numpy()
        dem = np.where((d["role"] == "worker").to_numpy()[:, None], arr.alpha[ji], arr.beta[ji])
        use = pd.DataFrame(dem * d["count"].to_numpy(float)[:, None], columns=arr.resources)
        use["server"], use["slot"] = d["server"].to_numpy(), d["slot"].to_numpy()
        tot = use.groupby(["server", "slot"]).sum()
        for (srv, t), row in tot.iterrows():
            cap = arr.cap[sidx[srv]]
            over = row.to_numpy(float) > accepted_capacity(cap)
            for k in np.flatnonzero(over):
                add("c5_capacity", f"{arr.resources[k]} used {row.iloc[k]:g} > capacity "
                    f"{cap[k]:g}", slot=t, server=srv)

    # per (job, slot): (4), ratio rows, Fact 1 speed and progress (3)
    per_job = []
    objective = 0.0
    groups = dict(tuple(d.groupby("job"))) if len(d) else {}
    for job in workload.jobs:
        i = jidx[job.id]
        admitted = job.id in schedule.admitted
        g = groups.get(job.id)
        done, completion, value = 0.0, None, 0.0
        if g is not None:
            for t, gs in g.groupby("slot"):
                nw = float(gs.loc[gs["role"] == "worker", "count"].sum())
                ns = float(gs.loc[gs["role"] == "ps", "count"].sum())
                if nw > arr.batch[i] + TOL:
                    add("c4_batch_cap", f"{nw:g} workers > F_i = {arr.batch[i]}", job.id, t)
                if arr.gamma[i] * ns < nw - TOL:
                    add("ratio_ps_cover", f"gamma*PS = {arr.gamma[i]}*{ns:g} < workers {nw:g}",
                        job.id, t)
                if ns > nw + TOL:
                    add("ratio_ps_le_workers", f"{ns:g} PSs > {nw:g} workers", job.id, t)
                if nw > 0:
                    mode = _speed_mode(gs)
                    done += nw / (arr.n_int[i] if mode == "int" else arr.n_ext[i])
                    completion = int(t) if completion is None else max(completion, int(t))
        if admitted:
            if done < 1 - WORK_RTOL:
                add("c3_work", f"trained {done:.9g} of the job's samples (< 1)", job.id)
            else:
                value = float(job.utility(completion - job.arrival))
                objective += value
        per_job.append({"job": job.id, "admitted": admitted, "completion": completion,
                        "fraction_done": done, "value": value})
    return CheckResult(not viol, objective, "max", viol, pd.DataFrame(per_job))

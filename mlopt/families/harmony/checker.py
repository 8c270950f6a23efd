"""Independent checker of Harmony placements (seed 002).

Never trusts the producer: from the workload and the allocation table alone it checks

* ``known_job`` / ``known_server`` / ``role`` / ``integral_count``: rows name real jobs and
  servers, roles ``worker``/``ps``, positive integer counts;
* ``no_migration``: all rows of a job share one placement interval (placements never change);
* ``after_arrival`` / ``within_horizon``: placed in an interval in [arrival, T];
* ``all_or_nothing``: exactly W workers and P PSs (a job with rows must be complete; ``admitted``
  must equal the set of jobs with rows);
* ``all_jobs_placed`` / ``complete_by_horizon``: every job is placed and finishes by T;
* ``capacity``: in every interval, the tasks of the jobs running then fit every server;

and replays the intervals with its own plain-loop evaluation of the speed model (not the
vectorized simulator) to recompute every job's completion interval. Objective: the average JCT
in intervals (completion - arrival + 1), sense ``min``. An unfinished job counts T - a + 1.
"""
from __future__ import annotations

import math

import pandas as pd

from mlopt.check import CheckResult, Violation
from mlopt.families.harmony.speed import RESOURCES, model_of

EPS = 1e-9


def _job_speed(sm, n, jobs, running, place) -> float:
    """Epochs per interval of job n by the model's definition, written out with loops."""
    ln = sm.index(jobs[n].extra["model"])
    alpha = sm.alpha
    servers = {m for (role, m), c in place[n].items() if c > 0}
    worst = 0.0
    for m in servers:
        felt = 0.0
        for o in running:
            if o == n:
                continue
            lo = sm.index(jobs[o].extra["model"])
            for (role, mm), c in place[o].items():
                if mm == m:
                    felt += alpha[ln, lo] * c * (1.0 if role == "worker" else sm.ps_weight)
        worst = max(worst, felt)
    d = worst + (sm.comm_penalty[ln] if len(servers) > 1 else 0.0)
    f = max(1.0 - d, (1.0 - sm.knee) - sm.tail_slope * (d - sm.knee), sm.min_factor)
    w = int(jobs[n].extra["workers"])
    return sm.base_speed[ln] * w ** sm.worker_scaling * f


def check_harmony(workload, schedule) -> CheckResult:
    """Check a Harmony schedule against the workload and return the CheckResult."""
    sm = model_of(workload)
    jobs = {j.id: j for j in workload.jobs}
    order = [j.id for j in workload.jobs]
    servers = {s.id: s for s in workload.servers}
    T = workload.horizon
    viol: list[Violation] = []
    place: dict[str, dict] = {j: {} for j in order}
    slot: dict[str, int] = {}
    for row in schedule.allocations.itertuples(index=False):
        job, server, role, count, t = str(row.job), str(row.server), str(row.role), row.count, \
            int(row.slot)
        if job not in jobs:
            viol.append(Violation("known_job", f"unknown job {job}", job=job))
            continue
        if server not in servers:
            viol.append(Violation("known_server", f"unknown server {server}", job=job,
                                  server=server))
            continue
        if role not in ("worker", "ps"):
            viol.append(Violation("role", f"role {role!r} is neither worker nor ps", job=job))
            continue
        if not (isinstance(count, (int, float)) and math.isfinite(count)
                and float(count).is_integer() and count > 0):
            viol.append(Violation("integral_count", f"count {count} is not a positive integer",
                                  job=job, server=server))
            continue
        if servers[server].role != "any":
            viol.append(Violation("role", f"server {server} does not host {role}s", job=job,
                                  server=server))
        if job in slot and slot[job] != t:
            viol.append(Violation("no_migration", f"rows in intervals {slot[job]} and {t}",
                                  job=job, slot=t))
            continue
        slot[job] = t
        key = (role, server)
        place[job][key] = place[job].get(key, 0) + int(count)

    with_rows = {j for j in order if place[j]}
    for j in sorted(set(schedule.admitted) ^ with_rows):
        viol.append(Violation("all_or_nothing", "admitted set and allocation rows disagree",
                              job=j))
    for j in order:
        job = jobs[j]
        if not place[j]:
            viol.append(Violation("all_jobs_placed", "job is never placed", job=j))
            continue
        nw = sum(c for (r, _), c in place[j].items() if r == "worker")
        npp = sum(c for (r, _), c in place[j].items() if r == "ps")
        if nw != job.extra["workers"] or npp != job.extra["ps"]:
            viol.append(Violation("all_or_nothing", f"{nw} workers / {npp} PSs placed, job needs "
                                  f"{job.extra['workers']} / {job.extra['ps']}", job=j))
        if slot[j] < job.arrival:
            viol.append(Violation("after_arrival", f"placed in {slot[j]} before arrival "
                                  f"{job.arrival}", job=j, slot=slot[j]))
        if slot[j] > T:
            viol.append(Violation("within_horizon", f"placed in {slot[j]} > T={T}", job=j,
                                  slot=slot[j]))

    # replay the intervals: who runs, does it fit, how fast does it train
    placed = [j for j in order if place[j]]
    progress = {j: 0.0 for j in order}
    done: dict[str, int] = {}
    cap_reported = set()
    for t in range(1, T + 1):
        running = [j for j in placed if slot[j] <= t and j not in done]
        for sid, srv in servers.items():
            for r in RESOURCES:
                used = 0.0
                for j in running:
                    for (role, m), c in place[j].items():
                        if m == sid:
                            dem = jobs[j].worker_demand if role == "worker" else jobs[j].ps_demand
                            used += c * dem[r]
                if used > srv.capacity[r] + 1e-6 and (sid, r) not in cap_reported:
                    cap_reported.add((sid, r))
                    viol.append(Violation("capacity", f"{r} used {used:g} > capacity "
                                          f"{srv.capacity[r]:g} (first in interval {t})",
                                          slot=t, server=sid))
        speeds = {j: _job_speed(sm, j, jobs, running, place) for j in running}
        for j in running:
            progress[j] += speeds[j]
            if progress[j] >= jobs[j].epochs - EPS:
                done[j] = t
    rows = []
    for j in order:
        a = jobs[j].arrival
        if j in done:
            jct = done[j] - a + 1
        else:
            jct = T - a + 1
            if place[j]:
                viol.append(Violation("complete_by_horizon", f"{progress[j]:.4g} of "
                                      f"{jobs[j].epochs} epochs trained by T={T}", job=j))
        rows.append({"job": j, "admitted": j in with_rows, "placed": slot.get(j),
                     "completion": done.get(j), "value": float(jct)})
    per_job = pd.DataFrame(rows)
    objective = float(per_job["value"].mean()) if len(rows) else 0.0
    return CheckResult(not viol, objective, "min", viol, per_job)

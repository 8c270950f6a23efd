"""Independent checker for OASiS schedules (seed 000, Sec. III-C, problem (1)-(13)).

It trusts nothing the producer says: from the workload and the allocation table alone it
re-derives per-job worker/PS counts, per-server loads, completion slots (8) and the objective (1).
Violations are named after the paper's equations:

* ``unknown_job``: a row's job (or an admitted id) is not in the workload;
* ``unknown_server``: a row's server is not in the workload;
* ``unknown_role``: a row's role is neither ``worker`` nor ``ps``;
* ``wrong_server_role``: a worker on a server without ``hosts_workers()``, a PS on one without
  ``hosts_ps()``;
* ``slot_out_of_range``: slot outside 1..T;
* ``not_admitted``: an allocation of a job not in the admitted set (x_i = 0 in (2)-(3));
* ``c12_integer_workers`` / ``c13_integer_ps``: a count that is not a non-negative integer;
* ``c2_work_covered``: an admitted job gets fewer worker-slots than E_i N_i M_i (tau_i + 2e_i/b_i);
* ``c3_max_workers``: more than N_i workers of a job in a slot;
* ``c4_worker_capacity`` / ``c5_ps_capacity``: a worker (PS) server's capacity exceeded in a slot
  for some resource; ``c4_c5_shared_capacity`` for a server of role ``any`` (outside the paper,
  which keeps H and K disjoint), where workers and PSs share the capacity;
* ``c6_ps_bandwidth``: workers x b_i > PSs x B_i for a job in a slot;
* ``c7_ps_le_workers``: more PSs than workers for a job in a slot;
* ``c9_worker_before_arrival`` / ``c10_ps_before_arrival``: an allocation before a_i.

Decisions:

* Counts must be exact integers (a solver's 0.9999999 must be rounded by whoever extracts the
  schedule); rows repeating the same (job, slot, server, role) add up.
* Rows with a structural problem (unknown job/server/role, wrong server role, slot out of range,
  not admitted, NaN/inf count) are reported and then left out of the equation checks, since they
  cannot be placed in (2)-(10).  Rows that are fractional or negative still count, as given.
* Tolerances: (2) passes when worker-slots >= work (1 - 1e-9) (the work is a float computed from
  seconds, MB and Gbps); capacities and (6) allow 1e-9 relative + 1e-9 absolute slack for
  float sums of demands.
* The completion slot t_hat_i (8) is the last slot in which job i has a positive number of
  workers; an admitted job with no workers at all violates (2) and contributes 0 utility.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from mlopt.schedule import Schedule
from mlopt.workload import Workload
from mlopt.check import CheckResult, Violation
from mlopt.tolerance import CAP_ATOL, CAP_RTOL, WORK_RTOL  # one definition for all checkers

ROLES = ("worker", "ps")

CONSTRAINTS = (
    "unknown_job", "unknown_server", "unknown_role", "wrong_server_role", "slot_out_of_range",
    "not_admitted", "c12_integer_workers", "c13_integer_ps", "c2_work_covered", "c3_max_workers",
    "c4_worker_capacity", "c5_ps_capacity", "c4_c5_shared_capacity", "c6_ps_bandwidth",
    "c7_ps_le_workers", "c9_worker_before_arrival", "c10_ps_before_arrival",
)
_CAPACITY_LABEL = {"worker": "c4_worker_capacity", "ps": "c5_ps_capacity",
                   "any": "c4_c5_shared_capacity"}


def _row_violations(rows: pd.DataFrame, constraint: str, detail) -> list[Violation]:
    """One violation per offending table row; ``detail(row)`` writes the numbers."""
    return [Violation(constraint, detail(r), job=str(r.job), slot=int(r.slot), server=str(r.server))
            for r in rows.itertuples(index=False)]


def _structural(workload: Workload, schedule: Schedule, df: pd.DataFrame,
                out: list[Violation]) -> np.ndarray:
    """Flag rows that cannot be placed in the model; return the mask of rows that can."""
    T = workload.horizon
    known_job = df["job"].isin(workload.job_index).to_numpy()
    known_server = df["server"].isin(workload.server_index).to_numpy()
    known_role = df["role"].isin(ROLES).to_numpy()
    slot = df["slot"].to_numpy()
    in_range = (slot >= 1) & (slot <= T)
    count = df["count"].to_numpy(dtype=float)
    finite = np.isfinite(count)

    hosts = {"worker": {s.id for s in workload.servers if s.hosts_workers()},
             "ps": {s.id for s in workload.servers if s.hosts_ps()}}
    is_worker = (df["role"] == "worker").to_numpy()
    role_fits = np.where(is_worker, df["server"].isin(hosts["worker"]),
                         df["server"].isin(hosts["ps"]))
    wrong_role = known_server & known_role & ~role_fits
    admitted = df["job"].isin(schedule.admitted).to_numpy()
    not_admitted = known_job & ~admitted

    for aid in sorted(a for a in schedule.admitted if a not in workload.job_index):
        out.append(Violation("unknown_job", f"admitted job {aid!r} is not in the workload",
                             job=aid))
    out += _row_violations(df[~known_job], "unknown_job",
                           lambda r: f"job {r.job!r} is not in the workload")
    out += _row_violations(df[~known_server], "unknown_server",
                           lambda r: f"server {r.server!r} is not in the workload")
    out += _row_violations(df[~known_role], "unknown_role",
                           lambda r: f"role {r.role!r} is not one of {', '.join(ROLES)}")
    out += _row_violations(df[wrong_role], "wrong_server_role",
                           lambda r: f"a {r.role} on server {r.server!r}, which does not host "
                                     f"{'workers' if r.role == 'worker' else 'parameter servers'}")
    out += _row_violations(df[~in_range], "slot_out_of_range",
                           lambda r: f"slot {r.slot} outside 1..{T}")
    out += _row_violations(df[not_admitted], "not_admitted",
                           lambda r: f"{r.count:g} {r.role}(s) of job {r.job!r}, which is not "
                                     "admitted")
    integral = finite & (count >= 0) & (np.floor(count) == count)
    for role, label in (("worker", "c12_integer_workers"), ("ps", "c13_integer_ps")):
        bad = ~integral & (df["role"] == role).to_numpy()
        out += _row_violations(df[bad], label,
                               lambda r: f"count {r.count!r} is not a non-negative integer")
    return known_job & known_server & known_role & ~wrong_role & in_range & admitted & finite


def check_oasis(workload: Workload, schedule: Schedule) -> CheckResult:
    """Check ``schedule`` against OASiS (1)-(13) and recompute the total utility (1)."""
    arr = workload.arrays
    df = schedule.allocations
    out: list[Violation] = []
    valid = _structural(workload, schedule, df, out)

    jobs = workload.jobs
    server_ids = np.array([s.id for s in workload.servers], dtype=object)
    job_ids = np.array([j.id for j in jobs], dtype=object)
    caps = np.array([[s.capacity[r] for r in workload.resources] for s in workload.servers],
                    dtype=float).reshape(len(workload.servers), len(workload.resources))

    v = df.loc[valid, ["slot", "count"]].reset_index(drop=True)
    ji = df.loc[valid, "job"].map(workload.job_index).to_numpy(dtype=int)
    si = df.loc[valid, "server"].map(workload.server_index).to_numpy(dtype=int)
    is_worker = (df.loc[valid, "role"] == "worker").to_numpy()
    count = v["count"].to_numpy(dtype=float)
    slot = v["slot"].to_numpy(dtype=int)

    # (9), (10): nothing before arrival.
    early = slot < arr.arrival[ji]
    for role, label, mask in (("worker", "c9_worker_before_arrival", early & is_worker),
                              ("ps", "c10_ps_before_arrival", early & ~is_worker)):
        for k in np.flatnonzero(mask):
            out.append(Violation(label, f"{count[k]:g} {role}(s) in slot {slot[k]} before "
                                        f"arrival a={arr.arrival[ji[k]]}", job=job_ids[ji[k]],
                                 slot=int(slot[k]), server=server_ids[si[k]]))

    # Per (job, slot): total workers Y and PSs Z.
    per_js = pd.DataFrame({"ji": ji, "slot": slot, "y": np.where(is_worker, count, 0.0),
                           "z": np.where(is_worker, 0.0, count)})
    js = per_js.groupby(["ji", "slot"], sort=True)[["y", "z"]].sum().reset_index()
    jj, jt = js["ji"].to_numpy(dtype=int), js["slot"].to_numpy(dtype=int)
    Y, Z = js["y"].to_numpy(), js["z"].to_numpy()

    def per_job_slot(label, mask, detail):
        for k in np.flatnonzero(mask):
            out.append(Violation(label, detail(k), job=job_ids[jj[k]], slot=int(jt[k])))

    # (3) at most N_i concurrent workers.
    N = arr.chunks[jj]
    per_job_slot("c3_max_workers", Y > N,
                 lambda k: f"{Y[k]:g} workers > N={N[k]} chunks")
    # (6) PS bandwidth covers worker bandwidth.
    wbw, pbw = Y * arr.worker_bw[jj], Z * arr.ps_bw[jj]
    per_job_slot("c6_ps_bandwidth", wbw > pbw * (1 + CAP_RTOL) + CAP_ATOL,
                 lambda k: f"{Y[k]:g} workers x b={arr.worker_bw[jj[k]]:g} = {wbw[k]:g} Gbps > "
                           f"{Z[k]:g} PSs x B={arr.ps_bw[jj[k]]:g} = {pbw[k]:g} Gbps")
    # (7) no more PSs than workers.
    per_job_slot("c7_ps_le_workers", Z > Y, lambda k: f"{Z[k]:g} PSs > {Y[k]:g} workers")

    # (4), (5): per server, slot and resource, the summed demands fit the capacity.
    demand = np.where(is_worker[:, None], arr.worker_demand[ji], arr.ps_demand[ji])
    load = pd.DataFrame(demand * count[:, None], columns=list(workload.resources))
    load["si"], load["slot"] = si, slot
    ss = load.groupby(["si", "slot"], sort=True).sum().reset_index()
    s_idx, s_slot = ss["si"].to_numpy(dtype=int), ss["slot"].to_numpy(dtype=int)
    used = ss[list(workload.resources)].to_numpy(dtype=float)
    cap = caps[s_idx]
    over_r, over_c = np.nonzero(used > cap * (1 + CAP_RTOL) + CAP_ATOL)
    for k, r in zip(over_r, over_c):
        server = workload.servers[s_idx[k]]
        out.append(Violation(_CAPACITY_LABEL[server.role],
                             f"{workload.resources[r]}: load {used[k, r]:g} > capacity "
                             f"{cap[k, r]:g}", slot=int(s_slot[k]), server=server.id))

    # (8) completion slot: last slot with a positive number of workers; (2) work covered.
    admitted = np.array([j.id in schedule.admitted for j in jobs], dtype=bool)
    worker_slots = np.zeros(len(jobs))
    np.add.at(worker_slots, jj, Y)
    with_workers = Y > 0
    completion = np.zeros(len(jobs), dtype=int)  # 0: no worker ever
    np.maximum.at(completion, jj[with_workers], jt[with_workers])
    short = admitted & (worker_slots < arr.work * (1 - WORK_RTOL))
    for i in np.flatnonzero(short):
        out.append(Violation("c2_work_covered",
                             f"{worker_slots[i]:g} worker-slots < work E N M (tau + 2e/b) = "
                             f"{arr.work[i]:.6g}", job=job_ids[i]))

    # (1) objective: sum over admitted jobs of f_i(t_hat_i - a_i).
    utility = np.zeros(len(jobs))
    for i in np.flatnonzero(admitted & (completion > 0)):
        utility[i] = float(jobs[i].utility(completion[i] - arr.arrival[i]))
    per_job = pd.DataFrame({
        "job": job_ids.astype(str), "admitted": admitted,
        "completion": pd.array(np.where(admitted & (completion > 0), completion, 0),
                               dtype="Int64"),
        "utility": utility, "worker_slots": worker_slots, "work": arr.work,
    })
    per_job.loc[~(admitted & (completion > 0)), "completion"] = pd.NA
    per_job["value"] = per_job["utility"]  # the generic column name of CheckResult.per_job
    order = {c: n for n, c in enumerate(CONSTRAINTS)}
    out.sort(key=lambda x: order.get(x.constraint, len(order)))
    return CheckResult(feasible=not out, objective=float(utility.sum()), sense="max",
                       violations=out, per_job=per_job)

"""Independent checker for edge-cloud schedules (seed 001, problem (2) with pinned chunks).

From the workload and the schedule table alone it re-derives each chunk's worker and slots, each
job's mode zeta_j ((2g)/(2h)), the slots a chunk needs at that mode's rate, completion c_j ((2j))
and the objective sum_j (c_j - r_j).  Violations, named after the paper's equations:

* ``unknown_job`` (in a row or in ``admitted``) / ``not_admitted`` (every job of (2) is
  trained, so ``admitted`` lists every job) / ``unknown_server`` / ``unknown_role`` /
  ``bad_row`` (count != 1, slot outside 1..MAX_HORIZON, a ``worker`` that is not a string, a
  ``chunk`` that is not an integer, a missing ``worker``/``chunk`` column) / ``bad_chunk`` (chunk
  id outside 0..D_j-1, -1 on PS rows);
* ``c2a_eligibility``: a worker slot that does not exist on that edge server or whose type is
  not the job's (v_jsw = 0); ``o_ps_eligibility`` the same for a PS (o_jsp = 0);
* ``c2i_upload_delay``: a chunk trained on server s before r_j + Delta_js;
* ``c2d_worker_capacity``: an edge worker trains two chunks in one slot;
* ``c4e_one_worker_per_chunk``: a chunk on two workers in one slot;
* ``chunk_pinning``: a chunk trained on more than one worker (data never migrates);
* ``c2b_work_covered``: a chunk trained fewer slots than p_j at its job's mode (or never);
* ``cloud_no_preemption``: a cloud chunk whose slots are not consecutive;
* ``c2e_one_ps``: a slot where the job trains without exactly one PS, or has a PS while idle;
* ``c2f_ps_capacity``: an edge PS slot serving two jobs in one slot;
* ``c7b_storage`` (storage extension): the chunks stored on an edge server exceed its
  storage_gb in some slot (a chunk is stored from r_j through its completion slot c_jd), beyond
  the float slack 1e-9 relative + 1e-9 absolute (:mod:`mlopt.tolerance`, shared with the
  exact models).

DECISIONS.  zeta_j = 1 iff every worker and PS row of the job is in the cloud ((2g)/(2h), read
as OR).  A chunk may train more slots than it needs (the (2b) inequality); c_j is the last
slot with a worker row.  Slots beyond the workload's horizon are allowed (T "large enough").

Speed augmentation is the caller's argument, never the schedule's: ``speed`` (1 + eps, default
1) shortens p_j, and a schedule feasible at speed > 1 solves the speed-augmented problem, not
the problem itself, so its objective is no feasible value of OPT (the harness and the pipeline
pass the speed an algorithm was run at, :attr:`Algorithm.check_options`; ``mlopt check
--speed``).  Whatever a schedule file's ``meta`` says (``meta.speed`` included) is ignored.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from mlopt import limits
from mlopt.check import CheckResult, Violation
from mlopt.schedule import Schedule
from mlopt.tolerance import accepted_capacity
from mlopt.workload import Workload

from mlopt.families.edgecloud.fields import EdgeCloud, check_speed

CONSTRAINTS = (
    "unknown_job", "not_admitted", "unknown_server", "unknown_role", "bad_row", "bad_chunk",
    "c2a_eligibility",
    "o_ps_eligibility", "c2i_upload_delay", "c2d_worker_capacity", "c4e_one_worker_per_chunk",
    "chunk_pinning", "c2b_work_covered", "cloud_no_preemption", "c2e_one_ps", "c2f_ps_capacity",
    "c7b_storage",
)


def _typed(col: pd.Series, integer: bool) -> pd.Series:
    """Per row: is the value a string (``integer`` False) / an integer, not a bool?"""
    if integer:  # and within 64 bits (a chunk id is compared with D_j <= MAX_COUNT)
        if pd.api.types.is_signed_integer_dtype(col.dtype):
            return pd.Series(True, index=col.index)
        return col.map(lambda v: isinstance(v, (int, np.integer)) and not isinstance(v, bool)
                       and -limits.MAX_COUNT <= v <= limits.MAX_COUNT)
    if pd.api.types.is_string_dtype(col.dtype) and col.dtype != object:
        return col.notna()  # a string column: every value a string, or missing
    return col.map(lambda v: isinstance(v, str))


def _v(V, label, frame, text):
    """One violation per offending row of ``frame`` (capped: the first 20 are enough to act)."""
    for r in frame.head(20).itertuples(index=False):
        d = r._asdict()
        V.append(Violation(label, text.format(**d), job=d.get("job"),
                           slot=None if d.get("slot") is None else int(d["slot"]),
                           server=d.get("server")))
    if len(frame) > 20:
        V.append(Violation(label, f"... and {len(frame) - 20} more rows"))


def check_edgecloud(workload: Workload, schedule: Schedule, *,
                    speed: float = 1.0) -> CheckResult:
    """Check ``schedule`` against problem (2) at speed ``speed`` (1: the problem itself)."""
    ec = EdgeCloud(workload, speed=check_speed(speed))
    V: list[Violation] = []
    # admitted: the workload's jobs, all of them ((2) trains every job)
    admitted = {str(j) for j in schedule.admitted}
    for j in sorted(admitted - set(ec.job_index)):
        V.append(Violation("unknown_job", f"admitted job {j!r} is not in the workload", job=j))
    for jv in ec.jobs:
        if jv.id not in admitted:
            V.append(Violation("not_admitted", "every job is trained in (2): the schedule "
                               "must admit it", job=jv.id))
    df = schedule.allocations.copy()
    missing = [c for c in ("worker", "chunk") if c not in df.columns]
    if missing and len(df):
        V.append(Violation("bad_row", f"the table needs a {' and a '.join(missing)} column"))
    for c in missing:  # every row is then a bad row; an empty table just trains nothing
        df[c] = pd.Series([None] * len(df), index=df.index, dtype=object)
    # rows of the wrong shape (a worker that is no string, a chunk that is no integer) are
    # reported and left out before anything is computed from them
    typed = _typed(df["worker"], False) & _typed(df["chunk"], True)
    _v(V, "bad_row", df[~typed], "job {job} slot {slot}: worker {worker!r} / chunk {chunk!r} "
       "(need a worker name and an integer chunk)")
    df = df[typed].copy()
    df["worker"] = df["worker"].astype(str)
    df["chunk"] = df["chunk"].astype("int64")
    cloud = ec.cloud
    servers = {s.id for s in workload.servers}
    # structural problems first; such rows cannot be placed in (2) and are left out afterwards
    known_job = df["job"].isin(list(ec.job_index))
    _v(V, "unknown_job", df[~known_job], "job {job}")
    known_srv = df["server"].isin(list(servers))
    _v(V, "unknown_server", df[known_job & ~known_srv], "server {server}")
    ok = known_job & known_srv
    role_ok = df["role"].isin(["worker", "ps"])
    _v(V, "unknown_role", df[ok & ~role_ok], "role {role}")
    ok &= role_ok
    row_ok = (df["count"] == 1) & (df["slot"] >= 1) & (df["slot"] <= limits.MAX_HORIZON)
    _v(V, "bad_row", df[ok & ~row_ok], f"count {{count}} at slot {{slot}} (need count 1, slot "
       f"in 1..{limits.MAX_HORIZON})")
    ok &= row_ok
    chunks = df["job"].map({jv.id: jv.chunks for jv in ec.jobs}).astype("float64")
    chunk_ok = ((df["role"] == "worker") & (df["chunk"] >= 0) & (df["chunk"] < chunks)) | (
        (df["role"] == "ps") & (df["chunk"] == -1))
    _v(V, "bad_chunk", df[ok & ~chunk_ok], "chunk {chunk} out of range")
    ok &= chunk_ok
    df = df[ok]
    wk = df[df["role"] == "worker"]
    ps = df[df["role"] == "ps"]

    # eligibility (v_jsw, o_jsp) and upload delay (2i)
    wtype = {(w.server, w.name): w.type for w in ec.workers}
    ptype = {(s, f"{t}#{k}"): t for s, d in ec.ps_slots.items() for t, c in d.items()
             for k in range(c)}
    jw = {jv.id: jv.worker_type for jv in ec.jobs}
    jp = {jv.id: jv.ps_type for jv in ec.jobs}
    edge_w = wk[wk["server"] != cloud]
    have = [wtype.get(k) for k in zip(edge_w["server"], edge_w["worker"])]
    _v(V, "c2a_eligibility", edge_w[np.array(have, dtype=object) != edge_w["job"].map(jw)
                                   .to_numpy(dtype=object)],
       "worker {worker} cannot serve job {job}")
    edge_p = ps[ps["server"] != cloud]
    have = [ptype.get(k) for k in zip(edge_p["server"], edge_p["worker"])]
    _v(V, "o_ps_eligibility", edge_p[np.array(have, dtype=object) != edge_p["job"].map(jp)
                                    .to_numpy(dtype=object)],
       "PS {worker} cannot serve job {job}")
    start = np.array([ec.start(ec.jobs[ec.job_index[j]], s)
                      for j, s in zip(wk["job"], wk["server"])], dtype=np.int64)
    _v(V, "c2i_upload_delay", wk[wk["slot"].to_numpy() < start],
       "chunk {chunk} trained at slot {slot}, before its data arrives")
    # capacity: one chunk per edge worker per slot (2d); one job per edge PS per slot (2f)
    _v(V, "c2d_worker_capacity",
       edge_w[edge_w.duplicated(["server", "worker", "slot"], keep="first")],
       "worker {worker} trains a second chunk")
    _v(V, "c2f_ps_capacity", edge_p[edge_p.duplicated(["server", "worker", "slot"],
                                                      keep="first")],
       "PS {worker} serves a second job")
    # per chunk: one worker per slot, pinned, enough slots, no preemption in the cloud
    _v(V, "c4e_one_worker_per_chunk", wk[wk.duplicated(["job", "chunk", "slot"], keep="first")],
       "chunk {chunk} of {job} on a second worker")
    wk = wk.assign(place=wk["server"] + "/" + wk["worker"], in_cloud=wk["server"] == cloud)
    agg = wk.groupby(["job", "chunk"]).agg(places=("place", "nunique"),
                                           slots=("slot", "nunique"), first=("slot", "min"),
                                           last=("slot", "max"), cloud=("in_cloud", "all"))
    agg = agg.reset_index()
    _v(V, "chunk_pinning", agg[agg["places"] > 1], "chunk {chunk} of {job} migrates across "
       "{places} workers")
    zeta = {}
    jobs_w = wk.groupby("job")["in_cloud"].all().to_dict()
    ps_cloud = (ps["server"] == cloud).groupby(ps["job"]).all().to_dict()
    for jv in ec.jobs:
        zeta[jv.id] = int(jobs_w.get(jv.id, False) and ps_cloud.get(jv.id, True))
    need = agg["job"].map({jv.id: (jv.p_cloud if zeta[jv.id] else jv.p_edge)
                           for jv in ec.jobs}).astype("float64")
    _v(V, "c2b_work_covered", agg.assign(need=need)[agg["slots"] < need],
       "chunk {chunk} of {job} trained {slots} of {need:.0f} slots")
    trained = agg.groupby("job")["chunk"].nunique().to_dict()
    for jv in ec.jobs:
        if trained.get(jv.id, 0) < jv.chunks:
            V.append(Violation("c2b_work_covered", f"{jv.chunks - trained.get(jv.id, 0)} of "
                               f"{jv.chunks} chunks never trained", jv.id))
    if ec.storage:  # (7b): u_j per chunk on its server from r_j through c_jd
        first_srv = wk.groupby(["job", "chunk"])["server"].first()
        use: dict[str, dict[int, float]] = {}
        for r in agg.itertuples(index=False):
            srv = first_srv[(r.job, r.chunk)]
            if srv not in ec.storage:
                continue
            jv = ec.jobs[ec.job_index[r.job]]
            d = use.setdefault(srv, {})
            d[jv.arrival] = d.get(jv.arrival, 0.0) + jv.chunk_gb
            d[r.last + 1] = d.get(r.last + 1, 0.0) - jv.chunk_gb
        for srv, d in use.items():
            level = 0.0
            for t in sorted(d):
                level += d[t]
                if level > accepted_capacity(ec.storage[srv]):
                    V.append(Violation("c7b_storage", f"{level:g} GB stored > {ec.storage[srv]:g}",
                                       slot=int(t), server=srv))
                    break
    cl = agg[agg["cloud"]]
    _v(V, "cloud_no_preemption", cl[cl["last"] - cl["first"] + 1 != cl["slots"]],
       "cloud chunk {chunk} of {job} preempted")
    # (2e): exactly one PS in every slot the job trains, none while idle
    run = wk[["job", "slot"]].drop_duplicates().assign(run=1)
    pc = ps.groupby(["job", "slot"]).size().rename("ps").reset_index()
    both = run.merge(pc, on=["job", "slot"], how="outer").fillna(0)
    _v(V, "c2e_one_ps", both[both["ps"] != both["run"]],
       "{job} at slot {slot}: {ps:.0f} PSs while training={run:.0f}")
    # completion (2j) and the objective
    comp = wk.groupby("job")["slot"].max().to_dict()
    ncloud = wk[wk["in_cloud"]].groupby("job")["chunk"].nunique().to_dict()
    per_job, total = [], 0.0
    for jv in ec.jobs:
        c = comp.get(jv.id)
        jct = float(c - jv.arrival) if c is not None else float("nan")
        total += 0.0 if c is None else jct
        per_job.append({"job": jv.id, "admitted": True, "completion": c, "value": jct,
                        "zeta": zeta[jv.id], "cloud_chunks": int(ncloud.get(jv.id, 0))})
    return CheckResult(not V, float(total), "min", V, pd.DataFrame(per_job))

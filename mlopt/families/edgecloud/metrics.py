"""Evaluation metrics of seed 001, Sec. V, computed from a (checked) schedule table.

* ``preemptions``: a unit that trained at slot t - 1, not at t, and trains again later.  Unit =
  chunk for chunk-level schedulers (A_online), job for gang schedulers (SRTF, Tiresias-L);
  ``level`` chooses.  Counted after the fact from the table.
* ``utilisation``: busy edge workers / edge workers, per slot (Fig. 11).
* ``makespan``: the last slot any chunk trains.
* ``communication``: slots spent moving data and gradients: each chunk's upload delay
  Delta_js plus, for jobs with zeta_j = 0, its E_j B_j exchanges of 2 q_j / b_j (in slots).
* ``idle_while_waiting`` (issue 23): (edge worker, slot) pairs where the worker idles although a
  chunk pinned to it has its data there and trains later (0 for a work-conserving schedule).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from mlopt.schedule import Schedule
from mlopt.workload import Workload

from mlopt.families.edgecloud.fields import EdgeCloud


def _workers(schedule: Schedule) -> pd.DataFrame:
    df = schedule.allocations
    return df[df["role"] == "worker"]


def preemptions(schedule: Schedule, level: str = "chunk") -> int:
    """Return the number of gaps in the worker slots, per chunk or per job."""
    wk = _workers(schedule)
    keys = ["job", "chunk"] if level == "chunk" else ["job"]
    slots = wk[keys + ["slot"]].drop_duplicates().sort_values(keys + ["slot"])
    gap = slots.groupby(keys)["slot"].diff()
    return int((gap > 1).sum())


def utilisation(workload: Workload, schedule: Schedule) -> pd.Series:
    """Return the share of edge workers busy in each slot."""
    ec = EdgeCloud(workload)
    wk = _workers(schedule)
    edge = wk[wk["server"] != ec.cloud]
    if edge.empty:
        return pd.Series(dtype=float)
    busy = edge.groupby("slot").size()
    idx = np.arange(1, int(wk["slot"].max()) + 1)
    return (busy.reindex(idx, fill_value=0) / max(1, len(ec.workers))).rename("utilisation")


def makespan(schedule: Schedule) -> int:
    """Return the last slot with a worker allocated (0 when none)."""
    wk = _workers(schedule)
    return int(wk["slot"].max()) if len(wk) else 0


def communication(workload: Workload, schedule: Schedule) -> float:
    """Return the total data-transfer and gradient-communication slots of the schedule."""
    ec = EdgeCloud(workload)
    wk = _workers(schedule)
    place = wk.groupby(["job", "chunk"])["server"].first().reset_index()
    in_cloud = wk["server"] == ec.cloud
    ps = schedule.allocations[schedule.allocations["role"] == "ps"]
    ps_edge = set(ps.loc[ps["server"] != ec.cloud, "job"])
    zeta = {j: bool(g.all()) and j not in ps_edge for j, g in in_cloud.groupby(wk["job"])}
    total = 0.0
    for r in place.itertuples(index=False):
        jv = ec.jobs[ec.job_index[r.job]]
        total += jv.delay[r.server]
        if not zeta[r.job]:
            total += jv.minibatches_total * jv.comm_seconds / workload.slot_seconds
    return total


def summary(workload: Workload, schedule: Schedule, level: str = "chunk") -> dict:
    """Return preemptions, makespan, communication and mean utilisation as a dict."""
    return {"preemptions": preemptions(schedule, level), "makespan": makespan(schedule),
            "communication_slots": communication(workload, schedule),
            "mean_utilisation": float(utilisation(workload, schedule).mean() or 0.0)}


def idle_while_waiting(workload: Workload, schedule: Schedule) -> list[tuple[str, str, int]]:
    """(server, worker, slot) where an edge worker idles while a chunk pinned to it, whose data
    is on the worker's server by then (r_j + Delta_js), still has a training slot later."""
    ec = EdgeCloud(workload)
    wk = _workers(schedule)
    wk = wk[wk["server"] != ec.cloud]
    out = set()
    for (server, worker), rows in wk.groupby(["server", "worker"]):
        busy = set(rows["slot"].tolist())
        for (job, _), ch in rows.groupby(["job", "chunk"]):
            release = ec.start(ec.jobs[ec.job_index[job]], server)
            out.update((server, worker, t) for t in range(release, int(ch["slot"].max()))
                       if t not in busy)
    return sorted(out)

"""``pool_greedy``: an offline reference heuristic (it sees every job in advance; no paper
algorithm), the upper end that ``pool_lb`` is measured against at ``paper-sim``.

Every job starts entirely in the cloud (zeta_j = 1: all chunks from r_j + Delta_{j,cloud} for
p_cloud slots, completion H_j, as in ``pool_lb``'s proof).  Then, job by job in a priority
order, it tries to move the whole job onto edge workers of its type: each chunk, in turn, goes
to the eligible worker where it can finish earliest in a free window of p_edge consecutive
slots (after the data arrives on that worker's server); the move is kept only when every chunk
finishes before H_j (strictly better than the cloud), and then the windows are taken.  A job
that stays in the cloud uses no edge worker, so earlier decisions stay feasible.  PSs are
assigned by A_ps (:func:`.online.assign_ps`).

DECISION (orders, where nothing is given): three priority orders are tried and the one with the
smallest total JCT is returned: arrival; largest saving per worker-slot first (H_j minus the
earliest edge completion, over D_j p_edge); fewest worker-slots first.  Chunks are contiguous on
their worker (no preemption on the edge, although the checker allows it).  The storage extension
(7)/(8) is not modelled (refused, as by BatchSche).
"""
from __future__ import annotations

import numpy as np

from mlopt.errors import InputError
from mlopt.schedule import Schedule
from mlopt.workload import Workload

from mlopt.families.edgecloud.fields import EdgeCloud, JobView
from mlopt.families.edgecloud.online import assign_ps
from mlopt.families.edgecloud.table import CLOUD_WORKER, chunk_rows, make_schedule


def _first_window(row: np.ndarray, t0: int, p: int, last_end: int) -> int | None:
    """First slot t >= t0 with row[t .. t+p-1] all free and t + p - 1 <= last_end."""
    if t0 + p - 1 > last_end:
        return None
    seg = row[t0:last_end + 1].astype(np.int64)
    cs = np.concatenate(([0], np.cumsum(seg)))
    free = np.flatnonzero(cs[p:] - cs[:-p] == 0)
    return None if not len(free) else t0 + int(free[0])


def _edge_plan(ec: EdgeCloud, jv: JobView, busy: np.ndarray) -> list | None:
    """Per chunk (worker index, start) finishing before H_j on a copy of ``busy``, or None."""
    last_end = ec.horizon_bound(jv) - 1
    p = jv.p_edge
    ws = ec.eligible(jv)
    rows = busy[[w.index for w in ws]].copy()
    release = [ec.start(jv, w.server) for w in ws]
    nxt = [_first_window(rows[i], release[i], p, last_end) for i in range(len(ws))]
    plan = []
    for _ in range(jv.chunks):
        cand = [(t, i) for i, t in enumerate(nxt) if t is not None]
        if not cand:
            return None
        t, i = min(cand)
        plan.append((ws[i].index, t))
        rows[i, t:t + p] = True
        nxt[i] = _first_window(rows[i], t + p, p, last_end)
    return plan


def _greedy(ec: EdgeCloud, order: list[JobView], n_slots: int):
    busy = np.zeros((len(ec.workers), n_slots), dtype=bool)
    plans, total = {}, 0
    for jv in order:
        plan = _edge_plan(ec, jv, busy)
        if plan is None:
            total += ec.horizon_bound(jv) - jv.arrival
            continue
        for w, t in plan:
            busy[w, t:t + jv.p_edge] = True
        plans[jv.index] = plan
        total += max(t for _, t in plan) + jv.p_edge - 1 - jv.arrival
    return total, plans


def _orders(ec: EdgeCloud) -> list[list[JobView]]:
    def saving(jv):  # H_j minus the earliest edge completion, per worker-slot
        e = min(ec.start(jv, w.server) for w in ec.eligible(jv))
        return (ec.horizon_bound(jv) - (e + jv.p_edge - 1)) / (jv.chunks * jv.p_edge)
    return [sorted(ec.jobs, key=lambda jv: (jv.arrival, jv.index)),
            sorted(ec.jobs, key=lambda jv: (-saving(jv), jv.index)),
            sorted(ec.jobs, key=lambda jv: (jv.chunks * jv.p_edge, jv.index))]


def run_pool_greedy(workload: Workload, *, seed: int = 0) -> Schedule:
    """Run the offline pool heuristic: start all in the cloud, move jobs to the edge when better."""
    ec = EdgeCloud(workload)
    if ec.storage:
        raise InputError("the storage extension (7)/(8) is not modelled by this heuristic",
                         field="extra.edgecloud.servers.storage_gb", value="pool_greedy")
    n_slots = max(ec.horizon_bound(jv) for jv in ec.jobs) + 1  # index = slot
    total, plans = min((_greedy(ec, order, n_slots) for order in _orders(ec)),
                       key=lambda tp: tp[0])
    rows: list = []
    slots_of: dict[int, set] = {}
    zeta: dict[str, int] = {}
    for jv in ec.jobs:
        plan = plans.get(jv.index)
        if plan is None:
            zeta[jv.id] = 1
            start = ec.start(jv, ec.cloud)
            span = range(start, start + jv.p_cloud)
            for d in range(jv.chunks):
                rows += chunk_rows(jv.id, d, ec.cloud, CLOUD_WORKER, span)
            slots_of[jv.index] = set(span)
            continue
        zeta[jv.id] = 0
        slots = slots_of.setdefault(jv.index, set())
        for d, (w, t) in enumerate(plan):
            worker = ec.workers[w]
            span = range(t, t + jv.p_edge)
            rows += chunk_rows(jv.id, d, worker.server, worker.name, span)
            slots.update(span)
    rows += assign_ps(ec, slots_of, zeta, np.random.default_rng(seed))
    return make_schedule([jv.id for jv in ec.jobs], rows,
                         {"producer": "pool_greedy", "seed": seed, "total_jct": total})

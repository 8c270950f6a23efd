"""Non-elastic, all-or-nothing slot simulation shared by SRTF and Tiresias-L (seed 001, Sec. V-A).

Both baselines come from data-centre schedulers ([16], [13]): a job uses a fixed number of
workers (the paper calls them "non-elastic") and is suspended or resumed as a whole
("all-or-nothing").  The paper does not say how many workers; :data:`WIDTHS` names the readings:

* ``trace`` (the registry's ``srtf`` / ``tiresias_l``): k_j = min(gpus_j, D_j, eligible edge
  workers), gpus_j the trace's GPU count (60% of jobs get one worker, which trains its D_j chunks
  back to back while other workers idle);
* ``gang`` (``*_gang``, ``*_cloud``): k_j = min(D_j, eligible edge workers), one worker per data
  chunk as the paper's own model allows ((2c): at most D_j workers at a time) -- the strongest
  fixed width, the one A_online itself may reach.

Cloud overflow (``cloud=True``, the ``*_cloud`` variants).  The paper puts SRTF and Tiresias-L
in the edge-only category ("Aonline and Aonline-E consistently outperform all others in their
category"), yet states A_online's gains over them; the cloud variant is the strongest reading that
lets a baseline use what A_online uses.  DECISION (rule, the paper has none): at arrival, a job
goes to the cloud as a whole (zeta_j = 1, its chunks train without preemption from
r_j + Delta_jc, the cloud being uncapacitated) when that finishes strictly earlier than the
job's edge estimate: its data-ready slot plus, on its busiest chosen worker, the slots already
committed there plus its own chunks (a FIFO estimate; ties stay on the edge).

DECISIONS (the paper gives no detail beyond one sentence each):

* Edge only (``cloud=False``): both schedule the edge cluster, as in the paper's categories.
* No migration: at arrival the job's k_j workers are fixed (the least-loaded eligible workers:
  least remaining committed slots, then earliest data arrival, then worker order) and its chunks
  dealt round-robin to them, each worker training its chunks one after another.  The paper says
  these baselines migrate data; migration would break the "data never moves" rule the checker
  enforces for every algorithm, so it is not modelled (this can only help the baselines, whose
  re-uploads would cost Delta slots each).
* Per slot, jobs in priority order run when every worker still holding work is free; a job that
  cannot get all of them waits (lower-priority jobs may fill the gaps: backfilling).
* A job's data reaches all its servers by r_j + max_s Delta_js; it cannot run before.
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from mlopt.errors import InputError

from mlopt.schedule import Schedule
from mlopt.workload import Workload

from mlopt.families.edgecloud.fields import EdgeCloud
from mlopt.families.edgecloud.online import assign_ps
from mlopt.families.edgecloud.table import CLOUD_WORKER, chunk_rows, make_schedule


class GangJob:
    __slots__ = ("jv", "workers", "queues", "ready", "attained", "ran_last")

    def __init__(self, jv, workers, queues, ready):
        self.jv, self.workers, self.queues, self.ready = jv, workers, queues, ready
        self.attained = 0  # worker-slots received so far (Tiresias' GPU time)
        self.ran_last = False

    def remaining(self) -> int:
        """Slots until done if it ran without interruption (max over its workers)."""
        return max((sum(q[1] for q in queue) for queue in self.queues), default=0)

    def active(self) -> list[int]:
        """Return the indices of the job's workers whose chunk queues are not empty."""
        return [i for i, q in enumerate(self.queues) if q]


#: width rule -> number of workers of a job given its view and its eligible edge workers
WIDTHS: dict[str, Callable[[object, int], int]] = {
    "trace": lambda jv, n_eligible: max(1, min(jv.gpus, jv.chunks, n_eligible)),
    "gang": lambda jv, n_eligible: max(1, min(jv.chunks, n_eligible)),
}


def simulate_gang(workload: Workload, priority: Callable[[GangJob, int], tuple], *, seed: int,
                  producer: str, width: str = "trace", cloud: bool = False) -> Schedule:
    """Simulate all-or-nothing gang scheduling in the given priority order and return the Schedule."""
    ec = EdgeCloud(workload)
    if width not in WIDTHS:
        raise InputError(f"unknown width rule (known: {', '.join(WIDTHS)})", field="width",
                         value=width)
    if ec.storage:
        raise InputError("the storage extension (7)/(8) is not modelled by this baseline",
                         field="extra.edgecloud.servers.storage_gb", value=producer)
    load = np.zeros(len(ec.workers), dtype=np.int64)  # committed remaining slots per worker
    pending = sorted(ec.jobs, key=lambda jv: (jv.arrival, jv.index))
    live: list[GangJob] = []
    rows: list = []
    slots_of: dict[int, set] = {}
    chunk_slots: dict = {}
    zeta = {jv.id: 0 for jv in ec.jobs}
    k_of = WIDTHS[width]
    t = min((jv.arrival for jv in ec.jobs), default=1)
    nxt = 0
    while nxt < len(pending) or live:
        while nxt < len(pending) and pending[nxt].arrival <= t:
            jv = pending[nxt]
            nxt += 1
            cand = sorted(ec.eligible(jv), key=lambda w: (load[w.index], jv.delay[w.server],
                                                         w.index))
            k = k_of(jv, len(cand))
            chosen = cand[:k]
            queues = [[] for _ in chosen]
            for d in range(jv.chunks):
                queues[d % k].append([d, jv.p_edge])
            ready = jv.arrival + max(jv.delay[w.server] for w in chosen)
            if cloud and ec.cloud_finish(jv, 1) < ready - 1 + max(
                    int(load[w.index]) + jv.p_edge * len(q) for w, q in zip(chosen, queues)):
                zeta[jv.id] = 1
                span = range(ec.start(jv, ec.cloud), ec.cloud_finish(jv, 1) + 1)
                for d in range(jv.chunks):
                    rows += chunk_rows(jv.id, d, ec.cloud, CLOUD_WORKER, span)
                slots_of.setdefault(jv.index, set()).update(span)
                continue
            for i, w in enumerate(chosen):
                load[w.index] += jv.p_edge * len(queues[i])
            live.append(GangJob(jv, [w.index for w in chosen], queues, ready))
        busy: set[int] = set()
        for g in sorted((g for g in live if g.ready <= t), key=lambda g: priority(g, t)):
            act = g.active()
            need = [g.workers[i] for i in act]
            if any(w in busy for w in need):
                g.ran_last = False
                continue
            busy.update(need)
            for i in act:
                q = g.queues[i]
                d = q[0][0]
                chunk_slots.setdefault((g.jv.index, d), (g.workers[i], []))[1].append(t)
                q[0][1] -= 1
                load[g.workers[i]] -= 1
                if q[0][1] == 0:
                    q.pop(0)
            g.attained += len(act)
            g.ran_last = True
            slots_of.setdefault(g.jv.index, set()).add(t)
        live = [g for g in live if g.active()]
        t += 1
    for (j, d), (w, ts) in chunk_slots.items():
        worker = ec.workers[w]
        rows += chunk_rows(ec.jobs[j].id, d, worker.server, worker.name, ts)
    rows += assign_ps(ec, slots_of, zeta, np.random.default_rng(seed))
    return make_schedule([jv.id for jv in ec.jobs], rows, {"producer": producer, "seed": seed})

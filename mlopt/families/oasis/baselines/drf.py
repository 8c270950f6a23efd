"""DRF baseline of OASiS (seed 000, Sec. V-A (ii)): Dominant Resource Fairness as in YARN/Mesos.

"Jobs are all admitted and numbers of workers/parameter servers are computed to achieve max-min
fairness in dominant resources upon job arrival and job completion", with round-robin placement.

Decisions:

* **Dominant share** of job i holding ``y`` workers and ``p`` PSs:
  ``max_r (y w_i^r + p s_i^r) / C^r`` where ``C^r`` is the capacity of the whole cluster (every
  physical server once) and resources with ``C^r = 0`` are skipped.
* **PS count** follows the workers: ``p(y) = min{p : p B_i >= y b_i}`` ((6)/(7)).
* **Demand cap** of job i: ``min(N_i, ceil(remaining work))`` workers -- (3), and no more workers
  than can still do useful work in one slot.
* **Progressive filling** (discrete DRF), upon every event: all allocations are released and the
  round-robin cursors reset; then, repeatedly, the active job with the smallest dominant share
  (ties: earlier arrival, then workload order) gets one more worker -- plus one more PS when
  ``p(y+1) > p(y)`` -- placed round robin.  A job that reached its cap, or whose next increment
  does not fit anywhere, is frozen.  Filling stops when every job is frozen.  The result is
  max-min fair in dominant shares up to the granularity of one worker.
* Between events allocations are unchanged (also placements).  Unfinished jobs at T are dropped.

Options: ``record_events`` (bool, default True): ``meta["allocations"]`` lists, per event, the
slot and per job ``[workers, ps, dominant share]``.  ``seed`` is accepted for the common interface;
DRF is deterministic.
"""
from __future__ import annotations

import heapq

from mlopt.schedule import Schedule
from mlopt.workload import Workload
from mlopt.families.oasis.baselines._simulate import Allocation, Simulator, dominant_share, total_capacity


class _Drf:
    def __init__(self, workload: Workload, record: bool):
        self.total = total_capacity(workload)
        self.workload = workload
        self.record = record
        self.log: list[dict] = []

    def share(self, i: int, y: int, p: int) -> float:
        return dominant_share(self.workload, i, y, p, self.total)

    def on_event(self, sim: Simulator, t: int, arrived: list[int], completed: list[int]) -> None:
        active = sim.active(t)
        for i in active:
            sim.release(i)
        sim.cluster.reset_cursors()
        allocs = {i: Allocation() for i in active}
        cap = {i: min(sim.jobs[i].chunks, sim.jobs[i].need()) for i in active}
        heap = [(0.0, sim.jobs[i].arrival, i) for i in active]
        heapq.heapify(heap)
        while heap:
            _, arrival, i = heapq.heappop(heap)
            js, a = sim.jobs[i], allocs[i]
            y, p = a.n_workers, a.n_ps
            if y >= cap[i]:
                continue
            extra = sim.cluster.place_round_robin(i, 1, js.ps_for(y + 1) - p)
            if extra is None:
                continue  # frozen: the next increment fits nowhere
            a.merge(extra)
            heapq.heappush(heap, (self.share(i, y + 1, a.n_ps), arrival, i))
        for i in active:
            sim.set_alloc(i, allocs[i])
        if self.record:
            self.log.append({"slot": t, "jobs": {
                sim.jobs[i].id: [allocs[i].n_workers, allocs[i].n_ps,
                                 self.share(i, allocs[i].n_workers, allocs[i].n_ps)]
                for i in active}})


def run_drf(workload: Workload, *, seed: int = 0, record_events: bool = True) -> Schedule:
    """DRF by progressive filling upon arrivals and completions (see module doc)."""
    sim = Simulator(workload)
    policy = _Drf(workload, bool(record_events))
    sim.run(policy)
    meta = {"seed": seed, "options": {"record_events": bool(record_events)}}
    if record_events:
        meta["allocations"] = policy.log
    return sim.schedule("drf", meta)

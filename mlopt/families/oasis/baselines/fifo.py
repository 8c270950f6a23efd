"""FIFO baseline of OASiS (seed 000, Sec. V-A (i)): the default scheduler of Hadoop and Spark.

"Jobs are admitted and run in order of their arrivals, with fixed numbers of workers/parameter
servers ... the number of workers (parameter servers) is fixed to a number within [1, 30]",
placed "on available servers in a round-robin fashion".

Decisions (the paper is silent on them):

* **Size.**  Each job gets a fixed worker count ``w_i`` (option ``workers``; default one draw per
  job, uniform on ``worker_range`` = [1, 30], from ``numpy.random.default_rng(seed)``), capped by
  N_i (3), and the fewest PSs satisfying (6)/(7), ``p_i = min{p : p B_i >= w_i b_i}``.  If the
  set ``(w_i, p_i)`` cannot fit even the *empty* cluster, ``w_i`` is lowered to the largest count
  that does (otherwise one oversized job would block the queue forever); ``meta["sizes"]``
  records the drawn and the used counts.
* **Queue.**  Every runnable job joins one queue in arrival order (ties: workload order).  Upon
  each arrival or completion the scheduler starts queued jobs from the head while the head's
  whole set fits round robin in the free capacity; it stops at the first head that does not fit
  (strict head-of-line blocking: no backfilling).
* **Running.**  A started job keeps its workers, PSs and placement until it completes; nothing is
  preempted.  Jobs not finished at T are dropped (see :mod:`._simulate`).

Options: ``workers`` (int, mapping job id -> int, or None), ``worker_range`` ((lo, hi)).
``meta``: ``sizes`` {id: {drawn, workers, ps, capped}}, ``queue_wait`` {id: start - arrival}.
"""
from __future__ import annotations

from collections import deque
from typing import Mapping, Sequence

import numpy as np

from mlopt.schedule import Schedule
from mlopt.workload import Workload
from mlopt.families.oasis.baselines._simulate import Simulator, draw_fixed_workers, largest_fitting


class _Fifo:
    def __init__(self, sim: Simulator, sizes: np.ndarray):
        self.sizes = sizes
        self.queue: deque[int] = deque()

    def on_event(self, sim: Simulator, t: int, arrived: list[int], completed: list[int]) -> None:
        for i in sorted(arrived):
            self.queue.append(i)
        while self.queue:
            i = self.queue[0]
            w = int(self.sizes[i])
            alloc = sim.cluster.place_round_robin(i, w, sim.jobs[i].ps_for(w))
            if alloc is None:
                break  # head-of-line blocking
            self.queue.popleft()
            sim.set_alloc(i, alloc)


def run_fifo(workload: Workload, *, seed: int = 0,
             workers: int | Mapping[str, int] | None = None,
             worker_range: Sequence[int] = (1, 30)) -> Schedule:
    """FIFO with fixed per-job worker/PS numbers and round-robin placement (see module doc)."""
    rng = np.random.default_rng(seed)
    drawn = draw_fixed_workers(workload, rng, workers, worker_range)
    sim = Simulator(workload)
    sizes = np.array([largest_fitting(workload, i, int(w)) if sim.jobs[i].runnable else 0
                      for i, w in enumerate(drawn)], dtype=int)
    sim.run(_Fifo(sim, sizes))
    meta_sizes = {
        js.id: {"drawn": int(drawn[js.index]), "workers": int(sizes[js.index]),
                "ps": js.ps_for(int(sizes[js.index])),
                "capped": bool(sizes[js.index] < drawn[js.index])}
        for js in sim.jobs if js.runnable}
    waits = {js.id: js.start - js.arrival for js in sim.jobs if js.start is not None}
    return sim.schedule("fifo", {
        "seed": seed,
        "options": {"workers": workers if not isinstance(workers, Mapping) else dict(workers),
                    "worker_range": list(worker_range)},
        "sizes": meta_sizes, "queue_wait": waits})

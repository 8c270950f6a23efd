"""RRH baseline of OASiS (seed 000, Sec. V-A (iii)): the risk-reward heuristic of its ref. [38].

"A job is admitted if its utility minus a delay cost incurred by its admission is larger than a
threshold; upon job arrival or completion, unfinished jobs either continue running (always with
same worker/parameter server numbers once running) or pause, decided by job's future utility
gain minus cost."  Workers and PSs are placed round robin; worker numbers are fixed in [1, 30].

Concrete definitions (the paper gives none; they follow the risk-reward idea of [38]: the cost
of running a task is the value the *other* tasks lose by being delayed while it runs):

* **Size.**  Fixed worker count ``w_i`` and PSs ``p_i`` exactly as in FIFO (same option and the
  same seeded draw, so FIFO and RRH with one seed use the same sizes); ``phi_i`` is the dominant
  share of that set, ``max_r (w_i w_i^r + p_i s_i^r) / C^r`` over the whole cluster.
* **Projection** at event slot t: run without pause, job k needs ``D_k = ceil(remaining_k / w_k)``
  more slots and completes at ``c_k = t + D_k - 1``; its *future utility gain* is
  ``g_k = f_k(c_k - a_k)``.
* **Delay** a job i inflicts on each competitor while it runs: ``delta_i = phi_i * D_i`` slots
  (it holds the fraction ``phi_i`` of the bottleneck resource for ``D_i`` slots; on a single
  machine with ``phi_i = 1`` this is the classic "everybody else waits D_i").
* **Delay cost** of i with respect to a set S of other jobs:
  ``cost_i(S) = sum_{k in S, k != i} [g_k - f_k(c_k + delta_i - a_k)]``, the utility S loses if
  i delays each of them by ``delta_i``.  It is charged only when S and i *contend*, i.e. their
  fixed sets together exceed the cluster (``sum phi > 1``); otherwise the cost is 0.
* **Admission.**  New arrivals are considered in workload order; S = jobs admitted and not yet
  finished (including arrivals admitted earlier in the same slot).  Job j is admitted iff
  ``g_j - cost_j(S) > threshold`` (option ``threshold``, default 0); otherwise it is rejected
  for good (never runs, not admitted).
* **Continue or pause.**  Every admitted unfinished job gets the value ``v_i = g_i - cost_i(A)``
  (A = all admitted unfinished jobs) and they are ranked by ``v_i`` (ties: running first, then
  arrival, then workload order).  Running jobs keep running with their placement, except that a
  waiting or paused job that does not fit in the free capacity may preempt (pause) running jobs
  ranked below it, lowest ranked first, until it fits; if it still does not fit nothing is
  paused for it.  Victims whose old placement fits again afterwards resume immediately.  A
  paused job resumes later with the same numbers (possibly elsewhere, round robin).  Resources
  are never left idle on purpose: ranking decides who runs, not an absolute cut-off.

Options: ``threshold`` (float), ``workers``, ``worker_range`` (as FIFO), ``record_events``.
``meta``: ``sizes``, ``admission`` {id: {slot, gain, cost, admitted}}, ``pauses`` (count of
preemptions), and with ``record_events`` per event ``ranking`` [[id, v], ...].
"""
from __future__ import annotations

import math
from typing import Mapping, Sequence

import numpy as np

from mlopt.schedule import Schedule
from mlopt.workload import Workload
from mlopt.families.oasis.baselines._simulate import (WORK_RTOL, Simulator, check_number, dominant_share, draw_fixed_workers,
                        largest_fitting, total_capacity)


class _Rrh:
    def __init__(self, workload: Workload, sim: Simulator, sizes: np.ndarray, threshold: float,
                 record: bool):
        self.workload = workload
        self.w = sizes
        total = total_capacity(workload)
        self.phi = np.array([dominant_share(workload, js.index, int(sizes[js.index]),
                                            js.ps_for(int(sizes[js.index])), total)
                             if js.runnable else 0.0 for js in sim.jobs])
        self.threshold = threshold
        self.record = record
        self.admission: dict[str, dict] = {}
        self.log: list[dict] = []
        self.pauses = 0

    # -- projections -----------------------------------------------------------------------
    def _slots_left(self, sim: Simulator, k: int) -> int:
        js = sim.jobs[k]
        return max(1, math.ceil((js.remaining - WORK_RTOL * js.work) / self.w[k]))

    def _project(self, sim: Simulator, t: int, ks) -> dict[int, tuple[int, float, float]]:
        """k -> (completion c_k, gain g_k, delay delta_k it inflicts)."""
        out = {}
        for k in ks:
            d = self._slots_left(sim, k)
            c = t + d - 1
            f = self.workload.jobs[k].utility
            out[k] = (c, float(f(c - sim.jobs[k].arrival)), float(self.phi[k] * d))
        return out

    def _cost(self, sim: Simulator, i: int, others, proj) -> float:
        if sum(self.phi[k] for k in others if k != i) + self.phi[i] <= 1.0 + 1e-12:
            return 0.0  # no contention: running i delays nobody
        delta = proj[i][2]
        cost = 0.0
        for k in others:
            if k == i:
                continue
            c, g, _ = proj[k]
            late = float(self.workload.jobs[k].utility(c + delta - sim.jobs[k].arrival))
            cost += g - late
        return cost

    # -- the event handler -----------------------------------------------------------------
    def on_event(self, sim: Simulator, t: int, arrived: list[int], completed: list[int]) -> None:
        new = set(arrived)
        admitted = [i for i in sim.active(t) if i not in new]
        proj = self._project(sim, t, admitted + sorted(new))
        for j in sorted(new):
            cost = self._cost(sim, j, admitted, proj)
            gain = proj[j][1]
            ok = gain - cost > self.threshold
            self.admission[sim.jobs[j].id] = {"slot": t, "gain": gain, "cost": cost,
                                             "admitted": ok}
            if ok:
                admitted.append(j)
            else:
                sim.jobs[j].status = "rejected"
        value = {i: proj[i][1] - self._cost(sim, i, admitted, proj) for i in admitted}
        order = sorted(admitted, key=lambda i: (-value[i], not sim.jobs[i].running,
                                                sim.jobs[i].arrival, i))
        rank = {i: n for n, i in enumerate(order)}
        cl = sim.cluster
        for i in order:
            js = sim.jobs[i]
            if js.running:
                continue
            w = int(self.w[i])
            alloc = cl.place_round_robin(i, w, js.ps_for(w))
            freed = []
            if alloc is None:
                victims = [k for k in reversed(order) if rank[k] > rank[i] and sim.jobs[k].running]
                for k in victims:
                    freed.append((k, sim.release(k)))
                    alloc = cl.place_round_robin(i, w, js.ps_for(w))
                    if alloc is not None:
                        break
            if alloc is None:
                for k, old in freed:  # nothing changed since: the old placements fit again
                    if not cl.take(k, old):
                        raise RuntimeError(f"RRH: cannot restore job {sim.jobs[k].id}")
                    sim.set_alloc(k, old)
                continue
            sim.set_alloc(i, alloc)
            for k, old in sorted(freed, key=lambda kv: rank[kv[0]]):
                if cl.take(k, old):
                    sim.set_alloc(k, old)
                else:
                    sim.set_alloc(k, None)
                    self.pauses += 1
        if self.record:
            self.log.append({"slot": t, "ranking": [[sim.jobs[i].id, value[i]] for i in order],
                             "running": [sim.jobs[i].id for i in order if sim.jobs[i].running]})


def run_rrh(workload: Workload, *, seed: int = 0, threshold: float = 0.0,
            workers: int | Mapping[str, int] | None = None,
            worker_range: Sequence[int] = (1, 30), record_events: bool = True) -> Schedule:
    """Risk-reward heuristic: admission by gain minus delay cost, ranked preemption."""
    threshold = check_number(threshold, "threshold")
    rng = np.random.default_rng(seed)
    drawn = draw_fixed_workers(workload, rng, workers, worker_range)
    sim = Simulator(workload)
    sizes = np.array([largest_fitting(workload, i, int(w)) if sim.jobs[i].runnable else 0
                      for i, w in enumerate(drawn)], dtype=int)
    policy = _Rrh(workload, sim, sizes, threshold, bool(record_events))
    sim.run(policy)
    meta = {
        "seed": seed,
        "options": {"threshold": threshold,
                    "workers": workers if not isinstance(workers, Mapping) else dict(workers),
                    "worker_range": list(worker_range), "record_events": bool(record_events)},
        "sizes": {js.id: {"drawn": int(drawn[js.index]), "workers": int(sizes[js.index]),
                          "ps": js.ps_for(int(sizes[js.index])),
                          "phi": float(policy.phi[js.index])}
                  for js in sim.jobs if js.runnable},
        "admission": policy.admission,
        "pauses": policy.pauses,
    }
    if record_events:
        meta["events_log"] = policy.log
    return sim.schedule("rrh", meta)

"""A greedy online reference: at every interval, place queued jobs by the per-interval MILP
(:func:`mlopt.models.harmony.interval.build_interval_milp`), which maximizes the interval's
Eq. (1) reward under the *known* speed model. Not a baseline of the paper: it shows what
one-interval-greedy optimization with perfect knowledge of interference achieves (the quantity
Harmony's DRL maximizes over a discounted horizon instead).

DECISION: at most ``max_new`` queued jobs (FIFO) per interval enter the MILP (the DRL's N'),
HiGHS with ``time_limit`` seconds per interval; the incumbent is used when the limit stops it.
When the limit stops HiGHS before any incumbent, that interval's ``max_new`` jobs are placed as
load balancing places them (:mod:`.baselines.lb`; counted in ``meta.fallback_intervals``), so a
short limit never leaves jobs unplaced for good (with none, ``time_limit=1e-9`` placed nothing:
an infeasible schedule).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from mlopt.errors import InputError
from mlopt.families.harmony.baselines.lb import lb_choice
from mlopt.families.harmony.state import ClusterState, place_queue
from mlopt.models.harmony.interval import build_interval_milp
from mlopt.solve import solve

if TYPE_CHECKING:  # pragma: no cover
    from mlopt.schedule import Schedule


def run_milp_greedy(workload, *, seed: int = 0, max_new: int = 5, time_limit: float = 10.0) -> Schedule:
    """Place each interval's first max_new queued jobs by the interval MILP, greedy fallback."""
    if isinstance(max_new, bool) or not isinstance(max_new, int) or max_new < 1:
        raise InputError("must be an integer >= 1", field="max_new", value=max_new)
    st = ClusterState(workload)
    solves = fallbacks = 0
    while st.t <= workload.horizon and not st.all_done():
        queue = list(st.queue())[: int(max_new)]
        if queue:
            m = build_interval_milp(st, queue)
            res = solve(m, "highs", time_limit=float(time_limit), threads=1)
            solves += 1
            if res.has_solution:
                for n in queue:
                    if round(m.a[n].value or 0) != 1:
                        continue
                    for s in range(len(st.cap)):
                        for role, var in ((0, m.X), (1, m.Y)):
                            for _ in range(int(round(var[n, s].value or 0))):
                                st.place(n, role, s)
                    st.commit(n)
            else:
                place_queue(st, queue, lb_choice)
                fallbacks += 1
        st.advance()
    return st.schedule("milp_greedy", {"interval_solves": solves,
                                       **({"fallback_intervals": fallbacks} if fallbacks else {})})

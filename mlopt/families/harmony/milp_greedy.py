"""A greedy online reference: at every interval, place queued jobs by the per-interval MILP
(:func:`mlopt.models.harmony.interval.build_interval_milp`), which maximizes the interval's
Eq. (1) reward under the *known* speed model. Not a baseline of the paper: it shows what
one-interval-greedy optimization with perfect knowledge of interference achieves (the quantity
Harmony's DRL maximizes over a discounted horizon instead).

DECISION: at most ``max_new`` queued jobs (FIFO) per interval enter the MILP (the DRL's N'),
HiGHS with ``time_limit`` seconds per interval; the incumbent is used when the limit stops it.
"""
from __future__ import annotations

import numpy as np

from mlopt.families.harmony.state import ClusterState
from mlopt.models.harmony.interval import build_interval_milp
from mlopt.solve import solve


def run_milp_greedy(workload, *, seed: int = 0, max_new: int = 5, time_limit: float = 10.0):
    st = ClusterState(workload)
    solves = 0
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
        st.advance()
    return st.schedule("milp_greedy", {"interval_solves": solves})

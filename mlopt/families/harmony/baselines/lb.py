"""Load Balancing (Mesos/Kubernetes style, seed 002 Sec. VI): each task goes to the feasible server
with the least load, the sum over resources of used / capacity; ties to the lowest index."""
from __future__ import annotations

import numpy as np

from mlopt.families.harmony.state import run_placement


def lb_choice(st, n, role, feasible) -> int:
    load = ((st.cap - st.free) / st.cap)[feasible].sum(axis=1)
    return int(feasible[np.argmin(load)])


def run_lb(workload, *, seed: int = 0):
    return run_placement(workload, lb_choice, producer="lb")

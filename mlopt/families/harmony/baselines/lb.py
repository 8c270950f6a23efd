"""Load Balancing (Mesos/Kubernetes style, seed 002 Sec. VI): each task goes to the feasible server
with the least load, the sum over resources of used / capacity; ties to the lowest index."""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from mlopt.families.harmony.state import run_placement

if TYPE_CHECKING:  # pragma: no cover
    from mlopt.schedule import Schedule


def lb_choice(st, n, role, feasible) -> int:
    """Return the feasible server with the least summed load fraction."""
    load = ((st.cap - st.free) / st.cap)[feasible].sum(axis=1)
    return int(feasible[np.argmin(load)])


def run_lb(workload, *, seed: int = 0) -> Schedule:
    """Place the jobs with the load-balancing rule."""
    return run_placement(workload, lb_choice, producer="lb")

"""Tetris (Grandl et al., SIGCOMM'14), as the Harmony paper uses it (seed 002 Sec. VI):
multi-resource bin packing that "tries to put the jobs together" to avoid fragmentation.

DECISION. Tetris's alignment score is a dot product of the task's demand with a server's resource
vector. With the *free* vector, identical empty servers attract tasks evenly (spreading), which
is not the packing behaviour the paper describes; we align the demand with the server's *used*
vector after the placement (both normalized by capacity): the task goes where the load already
looks like it, which consolidates jobs and keeps the other servers' resources whole. Ties go to
the lowest index (so the first server is filled first)."""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from mlopt.families.harmony.state import run_placement

if TYPE_CHECKING:  # pragma: no cover
    from mlopt.schedule import Schedule


def tetris_choice(st, n, role, feasible) -> int:
    """Return the feasible server with the largest demand-usage alignment score."""
    cap = st.cap[feasible]
    d = st.demand(n, role)
    used_after = cap - st.free[feasible] + d
    score = ((d / cap) * (used_after / cap)).sum(axis=1)
    return int(feasible[np.argmax(score)])


def run_tetris(workload, *, seed: int = 0) -> Schedule:
    """Place the jobs with the Tetris packing rule."""
    return run_placement(workload, tetris_choice, producer="tetris")

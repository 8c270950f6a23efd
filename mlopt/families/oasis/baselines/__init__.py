"""The four schemes OASiS (seed 000, Sec. V-A "Schemes for comparison") compares against.

Each is ``run_<name>(workload, *, seed=0, **options) -> Schedule``; one file per baseline, the
shared slot-by-slot simulation (capacities, (3)-(7), progress, round-robin placement, dropping
jobs unfinished at T) in :mod:`._simulate`.  ``BASELINES`` maps the registry name to the function.
"""
from __future__ import annotations

from typing import Callable

from mlopt.schedule import Schedule
from mlopt.families.oasis.baselines.dorm import run_dorm
from mlopt.families.oasis.baselines.drf import run_drf
from mlopt.families.oasis.baselines.fifo import run_fifo
from mlopt.families.oasis.baselines.rrh import run_rrh

BASELINES: dict[str, Callable[..., Schedule]] = {
    "fifo": run_fifo,
    "drf": run_drf,
    "rrh": run_rrh,
    "dorm": run_dorm,
}

__all__ = ["BASELINES", "run_dorm", "run_drf", "run_fifo", "run_rrh"]

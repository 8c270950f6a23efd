"""Baselines of seed 004 (FIFO, DRF, Dorm) and OASiS, run by OASiS's own code on the
OASiS-adapted view of a PD-ORS workload (:mod:`.oasis_adapted`).

DECISION.  The seed gives one line per baseline; OASiS's implementations (seed 000, Sec. V)
already realize them on a worker pool and a PS pool.  Rather than copy them onto one pool, every
baseline runs unchanged on the adapted view (split pool, external speed, N_i = F_i, the ratio
rows as OASiS (6)-(7)); the adapted view keeps the machine ids, so the schedule is a schedule of
the PD-ORS workload and is checked by the PD-ORS checker with Fact 1 (a baseline never
co-locates, so it always runs at external speed, exactly as it planned).  The comparison
therefore includes the pool split; ``pdors_no_internal`` (PD-ORS on the shared pool without
its internal case) separates the gain of co-location from the split.
"""
from __future__ import annotations

from typing import Callable

from mlopt.families.pdors.fields import validate_pdors
from mlopt.families.pdors.oasis_adapted import to_oasis
from mlopt.schedule import Schedule
from mlopt.workload import Workload

ADAPTED = ("fifo", "drf", "dorm", "oasis")


def _adapted(name: str) -> Callable[..., Schedule]:
    def run(workload: Workload, *, seed: int = 0, **options) -> Schedule:
        from mlopt.families import get_family

        validate_pdors(workload)
        schedule = get_family("oasis").algorithm(name)(to_oasis(workload), seed=seed, **options)
        schedule.meta["view"] = "oasis-adapted (split pool, external speed)"
        return schedule
    run.__name__ = f"run_{name}_adapted"
    run.__qualname__ = run.__name__
    run.__doc__ = f"OASiS's {name} on the OASiS-adapted view (see the module docstring)."
    return run


BASELINES: dict[str, Callable[..., Schedule]] = {name: _adapted(name) for name in ADAPTED}

"""Baselines of seed 004 (FIFO, DRF, Dorm) and OASiS, run by OASiS's own code on the
OASiS-adapted view of a PD-ORS workload (:mod:`mlopt.families.pdors.oasis_adapted`).

DECISION.  The seed gives one line per baseline; OASiS's implementations (seed 000, Sec. V)
already realize them on a worker pool and a PS pool.  Rather than copy them onto one pool, every
baseline runs unchanged on the adapted view (split pool, external speed, N_i = F_i, the ratio
rows as OASiS (6)-(7)); the adapted view keeps the machine ids, so the schedule is a schedule of
the PD-ORS workload and is checked by the PD-ORS checker with Fact 1 (a baseline never
co-locates on two or more machines, so it runs at external speed, exactly as it planned).  The
comparison therefore includes the pool split; ``pdors_no_internal`` (PD-ORS on the shared pool
without its internal case) separates the gain of co-location from the split.

DECISION (one machine).  A single machine cannot be split by machines; the adapted view then
splits it by capacity: a worker half and a PS half, each with half of every resource (see
:func:`~mlopt.families.pdors.oasis_adapted.to_oasis`), and the PS half's rows are mapped back to
the machine's id.  Both halves together never exceed the machine's capacity.  A slot whose
workers and PSs all sit on that machine runs at internal speed under Fact 1, never slower than
planned (the fields check guarantees b^(i) >= b^(e)), so the plan stays feasible for the PD-ORS
checker with the same completion slots and utility.

Options.  Each baseline takes exactly the options of the OASiS algorithm it runs: the schema the
OASiS family declares for it (``OPTIONS``, resolved on first use by the family record); unknown
names and bad values are refused by ``Family.run``, of PD-ORS and of OASiS alike.
"""
from __future__ import annotations

from typing import Callable

from mlopt import limits
from mlopt.errors import InputError
from mlopt.families.pdors.fields import validate_pdors
from mlopt.families.pdors.oasis_adapted import from_oasis, to_oasis
from mlopt.params import Schema
from mlopt.schedule import Schedule
from mlopt.workload import Workload

ADAPTED = ("fifo", "drf", "dorm", "oasis")


def _options() -> dict[str, Schema]:
    from mlopt.families import get_family

    oasis = get_family("oasis")
    return {name: dict(oasis.option_schema(name)) for name in ADAPTED}


#: name -> declared options of the adapted baseline (resolved when the family first needs them)
OPTIONS: dict[str, Schema] = _options()


def _adapted(name: str) -> Callable[..., Schedule]:
    def run(workload: Workload, *, seed: int = 0, **options) -> Schedule:
        from mlopt.families import get_family

        validate_pdors(workload)
        _check_size(workload)
        view = to_oasis(workload)
        # through the OASiS family's run: its declared options are checked there (a direct
        # call of this function included), nothing is forwarded unchecked
        schedule = get_family("oasis").run(name, view, seed=seed, options=options)
        schedule = from_oasis(schedule, workload)
        schedule.meta["view"] = "oasis-adapted (split pool, external speed)" \
            if len(workload.servers) > 1 else \
            "oasis-adapted (one machine split in a worker and a PS half, external speed)"
        return schedule
    run.__name__ = f"run_{name}_adapted"
    run.__qualname__ = run.__name__
    run.__doc__ = f"OASiS's {name} on the OASiS-adapted view (see the module docstring)."
    return run


#: largest horizon x batch of one job on the adapted view: OASiS's subroutine prices every slot
#: x worker count in dense tables (T x N_i, N_i = F_i here) of about 50 bytes a cell (measured:
#: 2e6 cells ~ 100 MB); a tenth of mlopt.limits.MAX_CELLS, far above the paper's T F_i <= 16,000
MAX_TABLE_CELLS = limits.MAX_CELLS // 10


def _check_size(workload: Workload) -> None:
    """Refuse a job whose T x F_i table would exceed :data:`MAX_TABLE_CELLS`."""
    for n, job in enumerate(workload.jobs):
        cells = workload.horizon * int(job.extra["batch"])
        if cells > MAX_TABLE_CELLS:
            raise InputError(f"the OASiS-adapted baselines size a horizon x batch table per job: "
                             f"{cells:,} cells is above the limit {MAX_TABLE_CELLS:,}",
                             field=f"jobs[{n}].extra.batch",
                             value=job.extra["batch"])


BASELINES: dict[str, Callable[..., Schedule]] = {name: _adapted(name) for name in ADAPTED}

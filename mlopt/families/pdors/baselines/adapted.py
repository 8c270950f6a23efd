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

DECISION (whole pool, issue 23: ``fifo_whole``, ``drf_whole``, ``dorm_whole``).  The seed's
one line per baseline says nothing about splitting the machines ("allocate by arrival time",
"by the largest held resource", "MILP utilisation maximisation"), and PD-ORS's own model is one
pool of shared machines; the split is mlopt's OASiS adaptation, not the paper's.  The whole-pool
variants run the same OASiS code on the same adapted jobs with every machine of role ``any``
(full capacity, workers and PSs of every job drawn from one capacity per machine, as the OASiS
simulator allows): the strongest reading of these baselines the paper's text permits.  They still
plan at external speed; where round robin happens to put all of a slot's workers and PSs on one
machine, Fact 1 makes that slot faster than planned, so the PD-ORS checker sees at least the
planned work with the same completion slots and utility.  (Dorm's MILP counts a role-``any``
machine in both of its pools, see :mod:`mlopt.families.oasis.baselines.dorm`; placement still
respects each machine's one capacity.)

Options.  Each baseline takes exactly the options of the OASiS algorithm it runs: the schema the
OASiS family declares for it (``OPTIONS``, resolved on first use by the family record); unknown
names and bad values are refused by ``Family.run``, of PD-ORS and of OASiS alike.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Callable

from mlopt import limits
from mlopt.errors import InputError
from mlopt.families.pdors.fields import validate_pdors
from mlopt.families.pdors.fields import FREE_BANDWIDTH_GBPS
from mlopt.families.pdors.oasis_adapted import from_oasis, to_oasis
from mlopt.params import Schema
from mlopt.schedule import Schedule
from mlopt.workload import BANDWIDTH, Server, Workload

ADAPTED = ("fifo", "drf", "dorm", "oasis")
#: the whole-pool readings (name -> the OASiS algorithm they run)
WHOLE = {"fifo_whole": "fifo", "drf_whole": "drf", "dorm_whole": "dorm"}


def _options() -> dict[str, Schema]:
    from mlopt.families import get_family

    oasis = get_family("oasis")
    own = {name: dict(oasis.option_schema(name)) for name in ADAPTED}
    return {**own, **{name: own[base] for name, base in WHOLE.items()}}


#: name -> declared options of the adapted baseline (resolved when the family first needs them)
OPTIONS: dict[str, Schema] = _options()


def whole_pool(workload: Workload) -> Workload:
    """The OASiS-adapted view with the pool left whole: every machine role ``any`` with its full
    capacity (bandwidth non-binding, as in :func:`to_oasis`); jobs as :func:`to_oasis` makes
    them."""
    view = to_oasis(workload)
    servers = tuple(Server(s.id, "any", dict(s.capacity, **{BANDWIDTH: FREE_BANDWIDTH_GBPS}),
                           s.kind, s.location) for s in workload.servers)
    return replace(view, servers=servers)


def _adapted(name: str, whole: bool = False) -> Callable[..., Schedule]:
    algorithm = WHOLE[name] if whole else name

    def run(workload: Workload, *, seed: int = 0, **options) -> Schedule:
        from mlopt.families import get_family

        validate_pdors(workload)
        _check_size(workload)
        view = whole_pool(workload) if whole else to_oasis(workload)
        # through the OASiS family's run: its declared options are checked there (a direct
        # call of this function included), nothing is forwarded unchecked
        schedule = get_family("oasis").run(algorithm, view, seed=seed, options=options)
        if whole:
            schedule.meta["view"] = "oasis-adapted (whole pool, external speed)"
            return schedule
        schedule = from_oasis(schedule, workload)
        schedule.meta["view"] = "oasis-adapted (split pool, external speed)" \
            if len(workload.servers) > 1 else \
            "oasis-adapted (one machine split in a worker and a PS half, external speed)"
        return schedule
    run.__name__ = f"run_{name}_adapted"
    run.__qualname__ = run.__name__
    run.__doc__ = f"OASiS's {algorithm} on the OASiS-adapted view, " + \
        ("whole pool" if whole else "split pool") + " (see the module docstring)."
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


BASELINES: dict[str, Callable[..., Schedule]] = {
    **{name: _adapted(name) for name in ADAPTED},
    **{name: _adapted(name, whole=True) for name in WHOLE}}

"""Harmony's own fields: ``Job.extra`` (model, workers W, PSs P) and ``Workload.extra``
(speed model, N', N), and the sizes its simulator, DRL state and models assume. Raises
:class:`~mlopt.errors.InputError` naming the field and value.

Size caps (DECISION, documented limits beyond :mod:`mlopt.limits`): the placement simulator
keeps a few jobs x servers tables and recomputes them every interval (about 80 bytes a cell), so
jobs x servers is capped at :data:`MAX_JOB_SERVER_CELLS` (~160 MB; the paper's scale is a few
hundred jobs on 6-12 servers); the DRL state has N (``max_jobs``) job rows of 2 x servers
cells each, so N and N' are capped at :data:`MAX_STATE_JOBS`. Measured: 20,000 jobs on 12
servers (the speed model no longer builds a jobs x jobs matrix, 3.2 GB there) peak at 280 MB
and take about 200 s of CPU for ``run harmony`` plus the checker. An instance without jobs is
valid (every schedule is empty, the average JCT is 0).
"""
from __future__ import annotations

from mlopt import limits
from mlopt.errors import InputError
from mlopt.families.harmony.generator import MAX_JOB_SERVER_CELLS, MAX_STATE_JOBS, MAX_TASKS
from mlopt.families.harmony.speed import RESOURCES, model_of


def _count(value, field: str, minimum: int = 1, maximum: int = limits.MAX_COUNT) -> int:
    # checked before float(): an int beyond 64 bits must fail here, not overflow later
    if isinstance(value, bool) or not isinstance(value, (int, float)) \
            or not minimum <= value <= maximum or not float(value).is_integer():
        raise InputError(f"must be an integer in [{minimum}, {maximum}]", field=field,
                         value=value)
    return int(value)


def validate_harmony(workload) -> None:
    """Check the workload's Harmony fields, raising InputError on an invalid one."""
    sm = model_of(workload)  # parses extra.speed_model, raising on any bad parameter
    for key in ("max_new_jobs", "max_jobs"):
        if key not in workload.extra:
            raise InputError("missing", field=f"extra.{key}")
        _count(workload.extra[key], f"extra.{key}", maximum=MAX_STATE_JOBS)
    if workload.extra["max_new_jobs"] >= workload.extra["max_jobs"]:
        raise InputError("N' must be below N (extra.max_jobs)", field="extra.max_new_jobs",
                         value=workload.extra["max_new_jobs"])
    cells = len(workload.jobs) * len(workload.servers)
    if cells > MAX_JOB_SERVER_CELLS:
        raise InputError(f"jobs x servers = {cells} exceeds {MAX_JOB_SERVER_CELLS} (the "
                         "simulator's tables; see mlopt.families.harmony.fields)", field="jobs",
                         value=len(workload.jobs))
    missing = [r for r in RESOURCES if r not in workload.resources]
    if missing:
        raise InputError("a Harmony workload needs these resources", field="resources",
                         value=missing)
    # the DRL state, LB's and Tetris' loads are fractions of each server's capacity
    for m, server in enumerate(workload.servers):
        for r in RESOURCES:
            if not server.capacity[r] > 0:
                raise InputError("a Harmony server needs a positive capacity of every resource",
                                 field=f"servers[{m}].capacity.{r}", value=server.capacity[r])
    for n, job in enumerate(workload.jobs):
        where = f"jobs[{n}].extra"
        for key in ("model", "workers", "ps"):
            if key not in job.extra:
                raise InputError("missing", field=f"{where}.{key}")
        if job.extra["model"] not in sm.models:
            raise InputError(f"unknown model type (known: {', '.join(sm.models)})",
                             field=f"{where}.model", value=job.extra["model"])
        _count(job.extra["workers"], f"{where}.workers", maximum=MAX_TASKS)
        _count(job.extra["ps"], f"{where}.ps", maximum=MAX_TASKS)
        # every task of a job must fit an empty server, or the job can never be placed
        for role, dem in (("worker", job.worker_demand), ("ps", job.ps_demand)):
            if not any(all(dem[r] <= s.capacity[r] + 1e-9 for r in RESOURCES)
                       for s in workload.servers if s.role == "any"):
                raise InputError(f"a {role} fits on no server that hosts both roles",
                                 field=f"jobs[{n}].{role}_demand", value=dem)

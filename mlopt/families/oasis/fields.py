"""What OASiS (seed 000) requires of a workload beyond the shared model's validation.

OASiS uses only the shared core fields (:mod:`mlopt.workload`: arrival a_i, E_i, N_i, M_i,
tau_i, e_i, worker / PS demands with b_i and B_i, a non-increasing utility f_i); it reads no
``Job.extra`` and no ``Workload.extra``.  :func:`validate_oasis` (``Family.validate`` of
``oasis``, run on every loaded workload by ``solve``, ``run`` and ``check``) re-runs the shared
validation and then refuses, with one :class:`~mlopt.errors.InputError` naming the field, what
the utility ILP (1)-(13), Alg. 1/2 and the bounds rely on:

* **Separate machines** (Sec. III-A): workers run on worker servers, parameter servers on PS
  servers; a server of role ``any`` is not part of the model (the ILP and Alg. 1 both refuse
  it), and a cluster needs at least one server of each role.
* **Sizes the algorithms can hold** (``MAX_CELLS`` of :mod:`mlopt.limits`, the same cap as a
  dense capacity table).  Alg. 2's dynamic program keeps, per job, a cost table of
  (slots after the arrival) x (N_i + 1) worker counts and a row over the E_i N_i chunks the job
  must train, and the utility ILP has one completion indicator per job and slot and integer
  worker counts up to N_i.  So for every job ``T x (N_i + 1)`` and ``E_i N_i`` must be at most
  ``MAX_CELLS`` (20 million): far above any instance of the paper (T <= 300, N_i <= 100,
  E_i <= 200) or of a converted trace, and low enough that a job claiming a billion workers
  (a CSV row with 1e9 GPUs) is refused at once instead of allocating tens of gigabytes.

DECISION (empty job list).  A workload without jobs is refused (InputError, exit 2) by
``solve``, ``run`` and ``check`` alike, rather than answered: its optimum is trivially 0, no
generator or trace conversion produces one (``n_jobs >= 1``; a trace window without arrivals is
already an error), and the solvers report an empty ILP as an error, not as optimal 0, so a
"clean" answer would differ between commands.  The message says so.
"""
from __future__ import annotations

from mlopt import limits
from mlopt.errors import InputError
from mlopt.workload import Workload, validate

#: largest T x (N_i + 1) (Alg. 2's per-job cost table) and E_i N_i (its chunk row)
MAX_JOB_CELLS = limits.MAX_CELLS


def validate_oasis(workload: Workload) -> Workload:
    """Refuse (InputError) a workload OASiS cannot take; see the module docstring.  Returns
    the re-validated workload (:func:`mlopt.workload.validate`)."""
    workload = validate(workload)
    if not workload.jobs:
        raise InputError("an OASiS workload needs at least one job (nothing to schedule: the "
                         "optimum of an empty workload is 0)", field="jobs", value=[])
    shared = [s.id for s in workload.servers if s.role == "any"]
    if shared:
        raise InputError("OASiS (seed 000, Sec. III-A) runs workers and parameter servers on "
                         "separate machines; role 'any' is not supported", field="servers.role",
                         value=shared[0])
    for role in ("worker", "ps"):
        if not any(s.role == role for s in workload.servers):
            raise InputError(f"OASiS needs at least one server of role '{role}'",
                             field="servers.role", value=sorted({s.role for s in
                                                                 workload.servers}))
    T = workload.horizon
    for n, job in enumerate(workload.jobs):
        where = f"jobs[{n}]"
        if T * (job.chunks + 1) > MAX_JOB_CELLS:
            raise InputError(f"N_i = {job.chunks:,} workers over T = {T:,} slots is above the "
                             f"limit T x (N_i + 1) <= {MAX_JOB_CELLS:,} (mlopt.limits.MAX_CELLS)",
                             field=f"{where}.chunks", value=job.chunks)
        if job.epochs * job.chunks > MAX_JOB_CELLS:
            raise InputError(f"E_i N_i = {job.epochs * job.chunks:,} chunks is above the limit "
                             f"{MAX_JOB_CELLS:,} (mlopt.limits.MAX_CELLS)",
                             field=f"{where}.epochs", value=job.epochs)
    return workload

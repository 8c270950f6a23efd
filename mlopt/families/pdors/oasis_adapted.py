"""The "OASiS-adapted (BSP)" view of a PD-ORS workload, so PD-ORS and OASiS run on one workload.

DECISION (mapping, notes 004 Sec. 7).  PD-ORS job i becomes the OASiS job with

* N_i := F_i (the worker cap, OASiS (3) = PD-ORS (4)); E_i unchanged; M_i := 1 mini-batch per
  chunk, a chunk being K_i / F_i samples;
* tau_i^OASiS := K_i tau_i / F_i seconds and e_i := g_i K_i gamma_i / F_i^2 MB with
  b_i := b^(e): then E_i N_i M_i (tau + 2 e / b) / slot = E_i K_i (tau_i + c_i^ext) / slot = n_i^ext,
  the PD-ORS work at *external* speed (OASiS never co-locates, so Fact 1 always gives b^(e));
* B_i := gamma_i b_i, so OASiS (6) ceil(y b/B) <= z reads gamma_i z >= y (the ratio row) and
  OASiS (7) z <= y is the other ratio row;
* bandwidth is no PD-ORS resource, so servers get a non-binding bandwidth capacity
  (:data:`FREE_BANDWIDTH_GBPS`) in the adapted view;
* same utility, arrival, per-worker / per-PS demands (GPU, CPU, memory, storage);
* the pool is split: the first ceil(H/2) machines (workload order) host workers, the rest PSs
  ("proportionally divided", OASiS Fig. 5).  Server ids are kept, so a schedule produced on the
  adapted view is a schedule of the PD-ORS workload, checked by the PD-ORS checker;
* DECISION (H = 1): the one machine is split by capacity instead, into a worker half (its own
  id) and a PS half (id + :data:`PS_HALF_SUFFIX`), each with half of every resource;
  :func:`from_oasis` maps the PS half's rows back to the machine's id.

The PD-ORS generator fills the core ``Job`` fields with exactly these values, and
:func:`to_oasis` recomputes them from ``Job.extra`` (so hand-written workloads need not).
"""
from __future__ import annotations

import math

from mlopt.families.pdors.fields import FREE_BANDWIDTH_GBPS, core_fields
from mlopt.schedule import Schedule
from mlopt.workload import BANDWIDTH, Job, Server, Workload

def adapt_job(job: Job, resources) -> Job:
    """Return a copy of the job with the OASiS-adapted core fields and bandwidth demands."""
    c = core_fields(job.extra, job.epochs, resources)
    wd = dict(job.worker_demand, **{BANDWIDTH: c["worker_bw"]})
    sd = dict(job.ps_demand, **{BANDWIDTH: c["ps_bw"]})
    return Job(job.id, job.arrival, c["epochs"], c["chunks"], c["minibatches"],
               c["minibatch_seconds"], c["gradient_mb"], wd, sd, job.utility, dict(job.extra))


PS_HALF_SUFFIX = "~ps"  # the PS half of a single machine in the adapted view


def worker_pool_size(n_machines: int) -> int:
    """Return the number of machines in the worker pool: ceil(n/2), at least 1."""
    return max(1, math.ceil(n_machines / 2)) if n_machines > 1 else 1


def to_oasis(workload: Workload) -> Workload:
    """The OASiS-adapted workload (split pool, external speed); see the module docstring."""
    n_w = worker_pool_size(len(workload.servers))
    servers = []
    for n, s in enumerate(workload.servers):
        cap = dict(s.capacity, **{BANDWIDTH: FREE_BANDWIDTH_GBPS})
        servers.append(Server(s.id, "worker" if n < n_w else "ps", cap, s.kind, s.location))
    if len(servers) == 1:  # one machine: a worker half and a PS half by capacity
        (s,) = workload.servers
        half = {r: (FREE_BANDWIDTH_GBPS if r == BANDWIDTH else v / 2.0)
                for r, v in s.capacity.items()}
        servers = [Server(s.id, "worker", half, s.kind, s.location),
                   Server(s.id + PS_HALF_SUFFIX, "ps", dict(half), s.kind, s.location)]
    jobs = tuple(adapt_job(j, workload.resources) for j in workload.jobs)
    meta = dict(workload.meta, family="oasis", adapted_from="pdors")
    return Workload(workload.name + "-oasis-adapted", workload.horizon, workload.slot_seconds,
                    workload.resources, tuple(servers), jobs, meta, dict(workload.extra))


def from_oasis(schedule: Schedule, workload: Workload) -> Schedule:
    """A schedule made on ``to_oasis(workload)`` as a schedule of the PD-ORS ``workload``: with
    one machine, its PS half is that machine; otherwise every server id is the workload's own."""
    if len(workload.servers) != 1:
        return schedule
    sid = workload.servers[0].id
    df = schedule.allocations.copy()
    df.loc[df["server"] == sid + PS_HALF_SUFFIX, "server"] = sid
    return Schedule(schedule.admitted, df, schedule.meta, schedule.timing)

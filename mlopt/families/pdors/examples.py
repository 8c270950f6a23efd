"""A hand-worked PD-ORS instance where co-location pays off (used by tests and the docs).

Two machines, each 2 GPUs / 4 CPUs / 16 GB / 100 GB; T = 3, slots of 3600 s.  Two identical jobs
arrive in slot 1: E = 1, K = 3600 samples, tau = 1 s/sample, g = 1000 MB, gamma = 1, F = 4,
b^(i) = 4 Gbit/s, b^(e) = 0.5 Gbit/s; a worker needs 1 GPU + 1 CPU + 1 GB + 1 GB, a PS 1 CPU +
1 GB + 1 GB; utility u(d) = 10 - 3 d (linear).

  c^int = 2*8*1000*1 / (1000*4*4)   = 1 s/sample  -> n^int = 1*3600*(1+1)/3600 = 2 worker-slots
  c^ext = 2*8*1000*1 / (1000*4*0.5) = 8 s/sample  -> n^ext = 1*3600*(1+8)/3600 = 9 worker-slots

Co-located (internal): 2 workers + 2 PSs on one machine (2 GPUs, 4 CPUs: exactly full) finish
the job in slot 1, u(0) = 10.  Both jobs do so, one per machine: total 20, which is optimal
since no job is worth more than u(0) = 10.
Without co-location (the OASiS-adapted split: m1 hosts workers, m2 PSs), at most 2 workers a
slot: 9 worker-slots need 5 slots > T, so no job can finish: utility 0.
On the shared pool at external speed, one job alone takes 4 + 4 + 1 workers (3 slots, u = 4).
"""
from __future__ import annotations

from mlopt.utility import Linear
from mlopt.workload import Job, Server, Workload, validate

HAND_OPTIMUM = 20.0


def hand_tiny(n_jobs: int = 2) -> Workload:
    """Return a validated hand-built PD-ORS workload of n_jobs identical jobs on two machines."""
    cap = {"gpu": 2.0, "cpu": 4.0, "memory_gb": 16.0, "storage_gb": 100.0,
           "bandwidth_gbps": 1e6}
    servers = (Server("m1", "any", dict(cap)), Server("m2", "any", dict(cap)))
    extra = {"samples": 3600, "batch": 4, "ps_ratio": 1, "sample_seconds": 1.0,
             "param_mb": 1000.0, "bw_internal_gbps": 4.0, "bw_external_gbps": 0.5}
    wd = {"gpu": 1.0, "cpu": 1.0, "memory_gb": 1.0, "storage_gb": 1.0, "bandwidth_gbps": 0.5}
    sd = {"gpu": 0.0, "cpu": 1.0, "memory_gb": 1.0, "storage_gb": 1.0, "bandwidth_gbps": 0.5}
    # core fields: the OASiS-adapted view (mlopt.families.pdors.oasis_adapted.core_fields)
    jobs = tuple(Job(f"j{k + 1}", 1, 1, 4, 1, 900.0, 225000.0, dict(wd), dict(sd),
                     Linear(10.0, 3.0), dict(extra)) for k in range(n_jobs))
    return validate(Workload("pdors-hand-tiny", 3, 3600.0,
                             ("gpu", "cpu", "memory_gb", "storage_gb", "bandwidth_gbps"),
                             servers, jobs, {"family": "pdors", "generator": "hand"}))

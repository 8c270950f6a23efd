"""PD-ORS job fields (seed 004) and the quantities every PD-ORS module derives from them.

PD-ORS reads its own per-job fields from ``Job.extra`` (the shared core fields carry the
OASiS-adapted view, see :mod:`mlopt.families.pdors.oasis_adapted`):

==================  ======  ===============================================================
key                 symbol  meaning and unit
==================  ======  ===============================================================
``samples``         K_i     training samples (integer >= 1)
``batch``           F_i     global batch size; also the cap on concurrent workers, (4)
``ps_ratio``        gamma_i worker:PS ratio (integer >= 1; enforced as gamma_i sum s >= sum w)
``sample_seconds``  tau_i   compute time of one sample, seconds (DECISION: the seed gives
                            [1e-5, 1e-4] with no unit; seconds, with ``slot_seconds`` per slot)
``param_mb``        g_i     gradient / parameter size, MB (10^6 bytes)
``bw_internal_gbps`` b^(i)  worker-PS bandwidth when they share one machine (bus), Gbit/s
``bw_external_gbps`` b^(e)  worker-PS bandwidth across machines (link), Gbit/s
==================  ======  ===============================================================

E_i is the core field ``Job.epochs``.  The machine pool is the workload's servers, all with role
``any`` (workers and PSs of any job may share a machine).  Resources are the workload's
resources *except* ``bandwidth_gbps``: in PD-ORS bandwidth only sets the speed (Fact 1), it is
not a capacity (the notes' R = GPU, CPU, memory, storage).

Speed (BSP, Fact 1).  A sample costs ``tau_i + c_i^m`` seconds per worker with
``c_i^m = 2 * 8 g_i gamma_i / (1000 F_i b^(m))`` (push gradients, pull parameters; MB -> Gbit),
m = internal iff all of the job's workers and PSs in that slot sit on one single machine, else
external.  So a job needs ``n_i^m = E_i K_i (tau_i + c_i^m) / slot_seconds`` worker-slots if it
ran entirely in mode m; a slot with w workers in mode m does the fraction ``w / n_i^m`` of it.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from mlopt import limits
from mlopt.errors import InputError
from mlopt.workload import BANDWIDTH, Workload

EPS = 1e-9  # relative slack for ceil of float ratios (worker counts from workloads)
FIELDS = ("samples", "batch", "ps_ratio", "sample_seconds", "param_mb", "bw_internal_gbps",
          "bw_external_gbps")
_INTEGER = {"samples", "batch", "ps_ratio"}
_STRICT = {"bw_internal_gbps", "bw_external_gbps"}


def pdors_resources(workload: Workload) -> tuple[str, ...]:
    """Resource types PD-ORS prices and caps: every declared one but bandwidth."""
    return tuple(r for r in workload.resources if r != BANDWIDTH)


def validate_pdors(workload: Workload) -> None:
    """The family's field check: one pool of role-``any`` machines and every job's extra fields."""
    for n, s in enumerate(workload.servers):
        if s.role != "any":
            raise InputError("PD-ORS runs on one machine pool: every server needs role 'any'",
                             field=f"servers[{n}].role", value=s.role)
    for n, job in enumerate(workload.jobs):
        where = f"jobs[{n}].extra"
        for key in FIELDS:
            if key not in job.extra:
                raise InputError("missing (a PD-ORS job field)", field=f"{where}.{key}")
            v = job.extra[key]
            # the upper limits keep products like E_i K_i tau_i finite and counts in 64 bits
            hi = limits.MAX_COUNT if key in _INTEGER else limits.MAX_VALUE
            ok = isinstance(v, (int, float)) and not isinstance(v, bool) and -hi <= v <= hi
            if ok and key in _INTEGER:
                ok = float(v).is_integer() and v >= 1
            if ok:
                ok = v > 0 if key in _STRICT else v >= 0
            if not ok:
                kind = f"an integer in [1, {hi}]" if key in _INTEGER else (
                    f"a number in (0, {hi:g}]" if key in _STRICT else f"a number in [0, {hi:g}]")
                raise InputError(f"must be {kind}", field=f"{where}.{key}", value=v)
        if job.extra["sample_seconds"] == 0 and job.extra["param_mb"] == 0:
            raise InputError("a sample must take time: sample_seconds and param_mb are both 0",
                             field=f"{where}.sample_seconds", value=0)
        # each field may be in range while their product is not (a tiny bandwidth times a huge
        # parameter size): the work n_i^m must stay a finite, representable number of slots
        for mode in ("int", "ext"):
            work = worker_slots(workload, job, mode)
            if not work <= limits.MAX_VALUE:
                raise InputError(f"the job's work is {work:g} worker-slots, more than "
                                 f"{limits.MAX_VALUE:g}: check samples, sample_seconds, param_mb "
                                 f"and the bandwidths", field=f"{where}.samples",
                                 value=job.extra["samples"])
        res = pdors_resources(workload)
        if sum(job.worker_demand[r] for r in res) <= 0:
            raise InputError("a worker must demand some resource other than bandwidth",
                             field=f"jobs[{n}].worker_demand", value=job.worker_demand)


@dataclass(frozen=True)
class PdorsArrays:
    """Dense per-job / per-machine data (rows follow workload order; resources exclude bw)."""

    resources: tuple[str, ...]
    server_ids: tuple[str, ...]
    cap: np.ndarray  # H x R, C_h^r
    alpha: np.ndarray  # I x R, per-worker demand
    beta: np.ndarray  # I x R, per-PS demand
    arrival: np.ndarray  # I
    batch: np.ndarray  # I, F_i
    gamma: np.ndarray  # I, gamma_i
    samples_total: np.ndarray  # I, V_i = E_i K_i
    n_int: np.ndarray  # I, worker-slots needed at internal speed
    n_ext: np.ndarray  # I, worker-slots needed at external speed


def copies(cap: np.ndarray, dem: np.ndarray) -> np.ndarray:
    """I x H: min_r floor(C_h^r / d_i^r) over r with d_i^r > 0 (large where d_i = 0)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        q = np.where(dem[:, None, :] > 0, cap[None, :, :] / np.where(dem > 0, dem, 1)[:, None, :],
                     np.inf)
    return np.floor(q.min(axis=2) + EPS)


def comm_seconds(job, mode: str) -> float:
    """c_i^m in seconds per sample: 2 g_i gamma_i / (F_i b^(m)), MB and Gbit/s."""
    e = job.extra
    b = e["bw_internal_gbps"] if mode == "int" else e["bw_external_gbps"]
    return 2.0 * 8.0 * e["param_mb"] * e["ps_ratio"] / (1000.0 * e["batch"] * b)


def worker_slots(workload: Workload, job, mode: str) -> float:
    """n_i^m = E_i K_i (tau_i + c_i^m) / slot_seconds: worker-slots for the whole job in mode m."""
    e = job.extra
    return job.epochs * e["samples"] * (e["sample_seconds"] + comm_seconds(job, mode)) \
        / workload.slot_seconds


def pdors_arrays(workload: Workload) -> PdorsArrays:
    res = pdors_resources(workload)
    jobs = workload.jobs
    return PdorsArrays(
        resources=res, server_ids=tuple(s.id for s in workload.servers),
        cap=np.array([[s.capacity[r] for r in res] for s in workload.servers], dtype=float),
        alpha=np.array([[j.worker_demand[r] for r in res] for j in jobs],
                       dtype=float).reshape(len(jobs), len(res)),
        beta=np.array([[j.ps_demand[r] for r in res] for j in jobs],
                      dtype=float).reshape(len(jobs), len(res)),
        arrival=np.array([j.arrival for j in jobs], dtype=int),
        batch=np.array([int(j.extra["batch"]) for j in jobs], dtype=int),
        gamma=np.array([int(j.extra["ps_ratio"]) for j in jobs], dtype=int),
        samples_total=np.array([j.epochs * j.extra["samples"] for j in jobs], dtype=float),
        n_int=np.array([worker_slots(workload, j, "int") for j in jobs], dtype=float),
        n_ext=np.array([worker_slots(workload, j, "ext") for j in jobs], dtype=float),
    )


def ceil_eps(x) -> np.ndarray | int:
    """ceil forgiving float noise (2.0000000001 -> 2)."""
    a = np.ceil(np.asarray(x, dtype=float) * (1 - EPS) - EPS)
    return int(a) if np.ndim(a) == 0 else a.astype(int)


def min_ps(workers: int, gamma: int) -> int:
    """Fewest PSs for ``workers`` workers: gamma s >= w and s >= 1 (s <= w holds for w >= 1)."""
    return max(1, -(-int(workers) // int(gamma)))

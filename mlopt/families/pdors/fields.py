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

from dataclasses import dataclass

import numpy as np

from mlopt import limits, tolerance
from mlopt.errors import InputError
from mlopt.workload import BANDWIDTH, Workload

EPS = 1e-9  # relative slack for ceil of float ratios (worker counts from workloads)
FIELDS = ("samples", "batch", "ps_ratio", "sample_seconds", "param_mb", "bw_internal_gbps",
          "bw_external_gbps")
_INTEGER = {"samples", "batch", "ps_ratio"}
_STRICT = {"bw_internal_gbps", "bw_external_gbps"}
#: least work a job may need, in worker-slots (1e-12: 3.6 ns of one worker at 1-hour slots);
#: with at most MAX_COUNT workers a slot then does a finite w / n^m of the job
MIN_WORK = 1.0 / limits.MAX_VALUE


#: the bandwidth capacity of every generated machine: bandwidth is no PD-ORS resource (it only
#: sets the speed, Fact 1), but the shared ``Workload`` needs one; non-binding by design
FREE_BANDWIDTH_GBPS = 1e6


def core_fields(extra: dict, epochs: int, resources) -> dict:
    """Core Job fields of the OASiS-adapted view (:mod:`.oasis_adapted`) from the PD-ORS
    fields; the demands get the bandwidths.  The generator fills the core fields with these."""
    K, F, gamma = extra["samples"], extra["batch"], extra["ps_ratio"]
    b = extra["bw_external_gbps"]
    return {
        "epochs": int(epochs), "chunks": int(F), "minibatches": 1,
        "minibatch_seconds": K * extra["sample_seconds"] / F,
        "gradient_mb": extra["param_mb"] * K * gamma / (F * F),
        "worker_bw": float(b), "ps_bw": float(gamma * b),
    }


def pdors_resources(workload: Workload) -> tuple[str, ...]:
    """Resource types PD-ORS prices and caps: every declared one but bandwidth."""
    return tuple(r for r in workload.resources if r != BANDWIDTH)


def validate_pdors(workload: Workload) -> None:
    """The family's field check: one pool of role-``any`` machines, every job's extra fields, and
    every assumption the exact model, the bounds and the online algorithm rely on.

    DECISIONS (each refused with one :class:`InputError` naming the field and the value):

    * ``bw_internal_gbps >= bw_external_gbps`` for every job (so n_i^int <= n_i^ext).  Fact 1 is
      about a bus faster than a link; the exact MILP (its first-completion cut
      a_i + ceil(n_i^int / F_i) - 1 and its internal credit ``om``, which may only *add* work),
      ``job_sum``, ``colgen`` and the prices' ``schedulable`` all take the internal speed as the
      fastest one.  A slower bus would make co-location a penalty the model does not force,
      giving "verified" optima below what the online algorithm reaches; such a workload is
      refused rather than modelled (no paper setting has it);
    * at least one job: an empty job list has nothing to schedule (the MILP would have no
      variables, the online algorithm no decision); refused, not answered with objective 0;
    * the work n_i^m of each mode is in [:data:`MIN_WORK`, MAX_VALUE] worker-slots and the
      speed-up n_i^ext / n_i^int (a MILP coefficient) is <= MAX_VALUE: each field may be in
      range while a product under- or overflows (a subnormal work made w / n^m overflow in the
      checker, and the per-slot worker counts round to 0).
    Utilities need no check here: every utility kind is non-negative and non-increasing in the
    duration (:mod:`mlopt.utility`), which ``job_sum`` relies on.
    """
    if not workload.jobs:
        raise InputError("a PD-ORS workload needs at least one job", field="jobs", value=[])
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
        b_int, b_ext = job.extra["bw_internal_gbps"], job.extra["bw_external_gbps"]
        if b_int < b_ext:
            raise InputError(f"the internal (same-machine) bandwidth must be >= the external one "
                             f"({b_ext:g} Gbit/s): PD-ORS's co-location is never slower",
                             field=f"{where}.bw_internal_gbps", value=b_int)
        # each field may be in range while their product is not (a tiny bandwidth times a huge
        # parameter size): the work n_i^m must stay a finite, representable number of slots
        for mode in ("int", "ext"):
            work = worker_slots(workload, job, mode)
            if not MIN_WORK <= work <= limits.MAX_VALUE:
                raise InputError(f"the job's work is {work:g} worker-slots, not in [{MIN_WORK:g}, "
                                 f"{limits.MAX_VALUE:g}]: check samples, sample_seconds, "
                                 f"param_mb, the bandwidths and slot_seconds",
                                 field=f"{where}.samples", value=job.extra["samples"])
        speedup = worker_slots(workload, job, "ext") / worker_slots(workload, job, "int")
        if not speedup <= limits.MAX_VALUE:
            raise InputError(f"co-location would make the job {speedup:g} times faster, more "
                             f"than {limits.MAX_VALUE:g}", field=f"{where}.bw_internal_gbps",
                             value=b_int)
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
    """Return the workload's PD-ORS per-job and per-server arrays."""
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


def capacity_limits(arr: PdorsArrays) -> np.ndarray:
    """H x R: the most load :mod:`.checker` accepts on each machine and resource, for the
    exact model and the bounds (DECISION in :mod:`mlopt.tolerance`: they allow what the checker
    allows).  Exact C_h^r where C_h^r and every job's alpha^r and beta^r are integers (or on
    one binary grid: then equivalent, :func:`mlopt.tolerance.integral`), else
    C (1 + 1e-9) + 1e-9."""
    return tolerance.capacity_rhs_table(arr.cap, [(*arr.alpha[:, r], *arr.beta[:, r])
                                                 for r in range(len(arr.resources))])


def work_limits(arr: PdorsArrays) -> np.ndarray:
    """I: the least worker-slots at external speed (internal ones counted n^ext / n^int times)
    that :mod:`.checker` accepts as the whole job: it accepts sum_t w_t / n^m(t) >= 1 - 1e-9,
    i.e. n^ext (1 - 1e-9) (DECISION in :mod:`mlopt.tolerance`).  Exactly n^ext where n^int and
    n^ext are integers with n^int n^ext < 1e8: the fraction done is then a multiple of
    1 / (n^int n^ext), so 1 - 1e-9 of it (with float noise far below 1e-8) is all of it."""
    out = tolerance.accepted_work(arr.n_ext)
    for i in range(len(out)):
        if float(arr.n_int[i]).is_integer() and float(arr.n_ext[i]).is_integer() and \
                arr.n_int[i] * arr.n_ext[i] < tolerance.EXACT_LIMIT:
            out[i] = arr.n_ext[i]
    return out


def fastest_slots(arr: PdorsArrays, horizon: int) -> np.ndarray:
    """I: the fewest slots any schedule the checker accepts needs for each job: at most F_i
    workers at the faster, internal speed do F_i / n^int of it per slot, and the checker
    accepts 1 - 1e-9 of the job as all of it.  Where the job could finish by ``horizon`` this
    is the checker's own count: the first t at which its float sum done += F_i / n^int passes
    1 - 1e-9 (a slot with fewer workers, or at external speed, adds no more).  The estimate
    ceil(n^int (1 - 1e-9) / F_i - 1e-9) can be one slot short of it (n^int = 2.000000003,
    F_i = 2: 1 slot, but 2 / 2.000000003 < 1 - 1e-9): the model's first-completion cut then
    let HiGHS's feasibility tolerance (1e-7) pass 2 worker-slots for 2.000000003 and extract a
    schedule the checker rejects.  Beyond the horizon the estimate stands (never above the
    count, so every bound and cut built on it stays valid)."""
    est = np.maximum(1, np.ceil(tolerance.accepted_work(arr.n_int) / arr.batch - EPS)).astype(int)
    for i in np.flatnonzero(arr.arrival + est - 1 <= horizon):
        # the checker's running sum of nw / n^int, one full slot each (accumulate adds in
        # order, as the checker does); est + 1 slots pass (est is at most one short)
        done = np.add.accumulate(np.full(int(est[i]) + 1, arr.batch[i] / arr.n_int[i]))
        hit = np.flatnonzero(done >= 1 - tolerance.WORK_RTOL)
        est[i] = hit[0] + 1 if len(hit) else len(done)  # (never above the count)
    return est


def ceil_eps(x) -> np.ndarray | int:
    """ceil forgiving float noise (2.0000000001 -> 2)."""
    a = np.ceil(np.asarray(x, dtype=float) * (1 - EPS) - EPS)
    return int(a) if np.ndim(a) == 0 else a.astype(int)


def min_ps(workers: int, gamma: int) -> int:
    """Fewest PSs for ``workers`` workers: gamma s >= w and s >= 1 (s <= w holds for w >= 1)."""
    return max(1, -(-int(workers) // int(gamma)))

"""The heterogeneous weighted-completion family's view of a workload (seed 003, Zhou et al.).

Fields (Sec. 3, Table 1) and where they live:

* ``Workload.extra["hetero"]``: ``architecture`` (``"ps"``: problem (2); ``"ra"``:
  Ring-AllReduce problem (15)), ``worker_types`` (M entries ``{"id", "demand": {resource:
  amount}}``: e_m^r, with b_m = demand["bandwidth_gbps"]) and ``ps_types`` (P entries: z_p^r,
  B_p).  An RA workload needs no PS types.
* per job, in ``Job.extra``: ``weight`` w_j > 0, ``minibatch_slots`` (M values v_jm, slots per
  mini-batch on a type-m worker), ``ps_update_ms`` (P values U_j^p, ms per iteration at a type-p
  PS; PS architecture) and ``ra_update_ms`` (U_j, the reduce time of Ring-AllReduce, ms; RA).
* shared Job fields: ``epochs`` = E_j, ``chunks`` = D_j, ``minibatches`` = K_j (per chunk),
  ``gradient_mb`` = pi_j.  ``worker_demand`` / ``ps_demand`` are required by the shared model;
  this family ignores them (the types decide demands); generators set them to type 1.

Units: a slot is ``slot_seconds`` (the paper: 1 h); U in ms -> U / 1000 / slot_seconds slots;
the exchange 2 pi / b (MB over Gbps) -> 2 * 8 * pi / (1000 b) seconds -> / slot_seconds slots.

Rates, mini-batches per worker per slot:
(1)  PS:  rho = 1 / (v_jm + U_j^p + (1 - q) 2 pi_j / b_m)
(14) RA:  rho = 1 / (v_jm + U_j (Phi-1)/Phi + (1 - q) 2 pi_j (Phi-1) / (Phi b_m))
A configuration (m, p, q, N) runs for d = ceil(E_j D_j K_j / (N rho)) slots (2f).

Assumptions the models, algorithms and bounds rely on, checked here (one InputError naming the
field and value):

* at least one job (DECISION: a hetero workload without jobs is refused: A_online's F, lambda
  and Theorem 5's alpha are undefined without weights, and there is nothing to schedule);
* every job has a configuration that fits the empty cluster (else no algorithm can place it and
  the exact model is infeasible).  The test is exact and the same for every job: a job has a
  fitting configuration iff some N = 1 configuration fits (q = 1: one worker (+ one PS) on one
  server; PS q = 0: max(1, ceil(b_m / B_p)) PSs on one server, the worker on another), since with
  N > 1 workers the same placement minus workers (and no more PSs) also fits;
* every job can finish within :data:`mlopt.limits.MAX_HORIZON` slots at the fastest rate its
  fields allow (E D K min_m (v_jm + min_p U_j^p) / D_j <= MAX_HORIZON): schedules name slots
  up to that limit;
* sizes: at most :data:`MAX_TYPES` worker and PS types, and per job at most
  :data:`MAX_CONFIG_ROWS` candidate configurations M * max(P, 1) * 2 * D_j (the enumeration of
  :mod:`.configs` is linear in M P min(D_j, the workers the cluster holds); the paper's setting
  has 8 * 10 * 2 * 50 = 8,000);
* positive amounts: weights, mini-batch times, type bandwidths and every nonzero type demand
  are at least :data:`MIN_POSITIVE`, so reciprocals and ratios stay finite.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from mlopt.errors import InputError
from mlopt.limits import MAX_VALUE
from mlopt.tolerance import (CAP_ATOL, CAP_RTOL, accepted_capacity, accepted_work,
                             capacity_rhs_table)
from mlopt.workload import BANDWIDTH, Workload

KEY = "hetero"
ARCHITECTURES = ("ps", "ra")
# durations are clipped here (about 1.1e12 slots): anything beyond mlopt.limits.MAX_HORIZON is
# never schedulable, and the clip keeps integer arithmetic on durations exact and overflow-free
# (a near-zero rate would otherwise give inf or a wrapped int64)
MAX_DURATION = 2 ** 40
# DECISION: strictly positive fields (weight, minibatch_slots) are at least this, so their
# reciprocals and products with MAX_VALUE-sized quantities stay finite (a 1e-300 mini-batch time
# made rates infinite); real values are many orders of magnitude larger
MIN_POSITIVE = 1e-9
#: worker types M and PS types P in one workload (the paper: 8 and 10)
MAX_TYPES = 64
#: candidate configurations M * max(P, 1) * 2 * D_j of one job (the paper: 8,000)
MAX_CONFIG_ROWS = 1_000_000


@dataclass(frozen=True)
class HeteroData:
    """Dense arrays of one workload (rows follow workload.jobs / servers / types)."""

    architecture: str
    resources: tuple[str, ...]
    server_ids: tuple[str, ...]
    cap: np.ndarray  # H x R, C_h^r
    wtype_ids: tuple[str, ...]
    e: np.ndarray  # M x R, e_m^r
    ptype_ids: tuple[str, ...]
    z: np.ndarray  # P x R, z_p^r (P = 0 for RA)
    job_ids: tuple[str, ...]
    arrival: np.ndarray  # J
    weight: np.ndarray  # J
    work: np.ndarray  # J, E_j D_j K_j mini-batches
    chunks: np.ndarray  # J, D_j
    v: np.ndarray  # J x M, slots per mini-batch
    u_ps: np.ndarray  # J x P, slots per iteration at the PS
    u_ra: np.ndarray  # J, slots
    comm: np.ndarray  # J x M, 2 pi_j / b_m in slots
    horizon: int
    slot_seconds: float

    @property
    def bw(self) -> int:
        """Index of the bandwidth resource."""
        return self.resources.index(BANDWIDTH)

    @property
    def b(self) -> np.ndarray:
        """Bandwidth demand of each worker type."""
        return self.e[:, self.bw]

    @property
    def B(self) -> np.ndarray:
        """Bandwidth of each PS type (empty when there are none)."""
        return self.z[:, self.bw] if len(self.z) else np.zeros(0)

    def rate_ps(self, j: int, m: int, p: int, q: int) -> float:
        """(1): mini-batches per worker per slot."""
        return 1.0 / (self.v[j, m] + self.u_ps[j, p] + (0.0 if q else self.comm[j, m]))

    def rate_ra(self, j: int, m: int, phi: int, q: int) -> float:
        """(14): with Phi workers in the ring."""
        f = (phi - 1) / phi
        return 1.0 / (self.v[j, m] + self.u_ra[j] * f + (0.0 if q else self.comm[j, m] * f))

    def duration(self, j: int, n: int, rate: float) -> int:
        """Slots d with d N rho >= E D K (2f) as the checker counts it, the smallest such
        integer: the checker accepts d N rho >= E D K (1 - 1e-9) (:data:`mlopt.tolerance.
        WORK_RTOL`), so d = ceil(E D K / (N rho) (1 - 1e-9)) (which also forgives float noise,
        3.0000000004 -> 3), the last slot settled by the checker's own product
        (:func:`checked_slots`).  DECISION (:mod:`mlopt.tolerance`): every model and bound built on
        durations allows what the checker accepts; ceil(x - 1e-9) gave 4 slots for
        x = 3.0000000015, where the checker accepts 3."""
        if not rate > 0:
            return MAX_DURATION
        return int(checked_slots(self.work[j], n, rate))

    @cached_property
    def limit(self) -> np.ndarray:
        """H x R: the most load the checker accepts on each server and resource, for the exact
        models and the bounds (DECISION in :mod:`mlopt.tolerance`): C (1 + 1e-9) + 1e-9, or C
        itself where C and every worker and PS type's demand of the resource are integers or
        on one binary grid (equivalent there: :func:`mlopt.tolerance.integral`)."""
        out = capacity_rhs_table(self.cap, [(*self.e[:, r], *self.z[:, r])
                                            for r in range(len(self.resources))])
        out.flags.writeable = False
        return out

    def fewest_ps(self, remote, p: int):
        """The fewest PSs of type p that cover ``remote`` Gbit/s (2i) as the checker counts it
        (``remote`` <= k B_p (1 + 1e-9) + 1e-9), at least 1 (2e); ``remote`` and ``p`` may be
        arrays.  With bandwidths on a binary grid (:func:`mlopt.tolerance.integral`) this is
        ceil(remote / B_p): remote and k B_p lie on the grid, so the slack admits nothing more.
        The quotient can be an ulp off the checker's product either way (2 workers of
        0.45000000095000003 Gbit/s over PSs of 0.3: the quotient says 3, the checker's
        0.9000000019000001 > 3 x 0.3 (1 + 1e-9) + 1e-9 needs 4), so the checker's own test
        (:func:`mlopt.tolerance.accepted_capacity` of k B_p) settles the last PS."""
        if np.ndim(remote) == 0 and np.ndim(p) == 0:  # the placement loops: plain floats
            remote, B = float(remote), float(self.B[p])
            k = math.ceil((remote - CAP_ATOL) / (B * (1 + CAP_RTOL)))
            if k > 1 and remote <= accepted_capacity((k - 1) * B):
                k -= 1
            elif remote > accepted_capacity(k * B):
                k += 1
            return max(1, k)
        remote, B = np.asarray(remote, dtype=float), self.B[p]
        k = np.ceil((remote - CAP_ATOL) / (B * (1 + CAP_RTOL)))
        k = np.where((k > 1) & (remote <= accepted_capacity((k - 1) * B)), k - 1, k)
        k = np.where(remote > accepted_capacity(k * B), k + 1, k)
        return np.maximum(1, k).astype(np.int64)

    def rate(self, j: int, m: int, p: int, q: int, n: int) -> float:
        """Return the mini-batch rate of job j for the architecture (PS or ring-allreduce)."""
        return self.rate_ps(j, m, p, q) if self.architecture == "ps" else self.rate_ra(j, m, n, q)


def checked_slots(work, n, rate):
    """The fewest slots d >= 1 (at most MAX_DURATION) with d N rho >= E D K (1 - 1e-9) as the
    checker evaluates it (``dur * N * rate >= work * (1 - WORK_RTOL)``, IEEE); ``n`` and
    ``rate`` (> 0) may be arrays of one length (then an int64 array).  ceil(E D K / (N rho)
    (1 - 1e-9)) rounds differently from the checker's product by an ulp either way, so the
    checker's own test settles the last slot: 4 mini-batches of 1.000000001 slots gave 4 slots,
    which the checker rejects (4 x 1 x 0.999999999 < 4 (1 - 1e-9) in floats).  The ratio is
    within a few ulps of the product's threshold (far below one slot for d <= 2^40), so one
    step either way suffices."""
    need = accepted_work(work)
    if np.ndim(n) == 0 and np.ndim(rate) == 0:  # the placement loops: plain floats
        n, rate = int(n), float(rate)  # Python ints as the checker's (no int64 wrap)
        d = max(1, math.ceil(accepted_work(min(work / (n * rate), 2.0 ** 60))))
        if d > 1 and (d - 1) * n * rate >= need:
            d -= 1
        elif d * n * rate < need:
            d += 1
        return min(MAX_DURATION, d)
    n = np.asarray(n, dtype=np.int64)
    with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
        d = np.maximum(1.0, np.ceil(accepted_work(np.minimum(work / (n * rate), 2.0 ** 60))))
        d = np.where((d > 1) & ((d - 1) * n * rate >= need), d - 1, d)
        d = np.where(d * n * rate < need, d + 1, d)
    return np.minimum(d, MAX_DURATION).astype(np.int64)


def _vector(obj, resources, where):
    if not isinstance(obj, dict):
        raise InputError("must be an object of resource amounts", field=where, value=obj)
    out = []
    for r in resources:
        if r not in obj:
            raise InputError("missing", field=f"{where}.{r}")
        x = obj[r]
        if isinstance(x, bool) or not isinstance(x, (int, float)) or not (
                x == 0 or MIN_POSITIVE <= x <= MAX_VALUE):
            raise InputError(f"must be 0 or a number in [{MIN_POSITIVE:g}, {MAX_VALUE:g}]",
                             field=f"{where}.{r}", value=x)
        out.append(float(x))
    extra = set(obj) - set(resources)
    if extra:
        k = sorted(extra)[0]
        raise InputError("unknown resource", field=f"{where}.{k}", value=obj[k])
    return out


def _types(spec, key, resources, *, required: bool):
    lst = spec.get(key, [] if not required else None)
    where = f"extra.{KEY}.{key}"
    if not isinstance(lst, list) or (required and not lst):
        raise InputError("must be a non-empty list of types", field=where, value=lst)
    if len(lst) > MAX_TYPES:
        raise InputError(f"at most {MAX_TYPES} types", field=where, value=len(lst))
    ids, rows = [], []
    for n, t in enumerate(lst):
        if not isinstance(t, dict) or "id" not in t:
            raise InputError("a type must be an object with 'id' and 'demand'",
                             field=f"{where}[{n}]", value=t)
        row = _vector(t.get("demand"), resources, f"{where}[{n}].demand")
        if row[resources.index(BANDWIDTH)] < MIN_POSITIVE:
            raise InputError(f"bandwidth must be >= {MIN_POSITIVE:g}",
                             field=f"{where}[{n}].demand.{BANDWIDTH}",
                             value=row[resources.index(BANDWIDTH)])
        if all(x == 0 for x in row):
            raise InputError("demand must be positive in some resource",
                             field=f"{where}[{n}].demand", value=t.get("demand"))
        ids.append(str(t["id"]))
        rows.append(row)
    if len(set(ids)) != len(ids):
        raise InputError("duplicate type id", field=where, value=ids)
    return tuple(ids), np.array(rows, dtype=float).reshape(len(rows), len(resources))


def _num_list(x, n, where, *, strict=False):
    if not isinstance(x, list) or len(x) != n:
        raise InputError(f"must be a list of {n} numbers", field=where, value=x)
    for k, v in enumerate(x):
        # comparisons, not math.isfinite: that raises OverflowError on ints beyond floats
        if isinstance(v, bool) or not isinstance(v, (int, float)) or \
                not (MIN_POSITIVE if strict else 0) <= v <= MAX_VALUE:
            raise InputError(f"must be a number in [{MIN_POSITIVE if strict else 0:g}, "
                             f"{MAX_VALUE:g}]", field=f"{where}[{k}]", value=v)
    return [float(v) for v in x]


def hetero_data(workload: Workload) -> HeteroData:
    """Parse and validate the family's fields; InputError names field and value."""
    return _cached(workload)


# parsed data per workload object (workloads are immutable; the identity check guards reuse)
_CACHE: dict[int, tuple[Workload, HeteroData]] = {}


def _cached(workload: Workload) -> HeteroData:
    hit = _CACHE.get(id(workload))
    if hit is not None and hit[0] is workload:
        return hit[1]
    data = parse_fields(workload)
    if len(_CACHE) > 64:
        _CACHE.clear()
    _CACHE[id(workload)] = (workload, data)
    return data


def parse_fields(workload: Workload, *, assumptions: bool = True) -> HeteroData:
    """The fields; with ``assumptions`` also every job fits and can finish (module docstring).
    The generator parses without them to word its own error (its parameters, not a job)."""
    spec = workload.extra.get(KEY)
    if not isinstance(spec, dict):
        raise InputError("the hetero family needs extra.hetero (architecture, worker_types, "
                         "ps_types)", field=f"extra.{KEY}", value=spec)
    arch = spec.get("architecture")
    if arch not in ARCHITECTURES:
        raise InputError(f"must be one of {', '.join(ARCHITECTURES)}",
                         field=f"extra.{KEY}.architecture", value=arch)
    res = tuple(workload.resources)
    wids, e = _types(spec, "worker_types", res, required=True)
    pids, z = _types(spec, "ps_types", res, required=arch == "ps")
    if arch == "ra":
        pids, z = (), np.zeros((0, len(res)))
    cap = np.array([[s.capacity[r] for r in res] for s in workload.servers], dtype=float)
    M, P = len(wids), len(pids)
    slot = workload.slot_seconds
    jobs = workload.jobs
    J = len(jobs)
    if J == 0:
        raise InputError("a hetero workload needs at least one job (F, lambda and alpha of "
                         "A_online are undefined without weights)", field="jobs", value=[])
    weight, v, ups, ura, comm = np.zeros(J), np.zeros((J, M)), np.zeros((J, P)), np.zeros(J), \
        np.zeros((J, M))
    bwi = res.index(BANDWIDTH)
    for j, job in enumerate(jobs):
        where = f"jobs[{j}].extra"
        x = job.extra
        w = x.get("weight")
        if isinstance(w, bool) or not isinstance(w, (int, float)) or \
                not MIN_POSITIVE <= w <= MAX_VALUE:
            raise InputError(f"must be a number in [{MIN_POSITIVE:g}, {MAX_VALUE:g}]",
                             field=f"{where}.weight", value=w)
        weight[j] = w
        v[j] = _num_list(x.get("minibatch_slots"), M, f"{where}.minibatch_slots", strict=True)
        if arch == "ps":
            ups[j] = np.array(_num_list(x.get("ps_update_ms"), P, f"{where}.ps_update_ms")) \
                / 1000.0 / slot
        else:
            u = x.get("ra_update_ms")
            ura[j] = _num_list([u] if u is not None else None, 1, f"{where}.ra_update_ms")[0] \
                / 1000.0 / slot
        comm[j] = 2.0 * 8.0 * job.gradient_mb / (1000.0 * e[:, bwi]) / slot
        rows = M * max(P, 1) * 2 * job.chunks
        if rows > MAX_CONFIG_ROWS:
            raise InputError(f"M * max(P, 1) * 2 * D_j = {rows:,} candidate configurations > "
                             f"{MAX_CONFIG_ROWS:,} (mlopt.families.hetero.fields)",
                             field=f"jobs[{j}].chunks", value=job.chunks)
    data = HeteroData(
        architecture=arch, resources=res, server_ids=tuple(s.id for s in workload.servers),
        cap=cap, wtype_ids=wids, e=e, ptype_ids=pids, z=z,
        job_ids=tuple(j.id for j in jobs), arrival=np.array([j.arrival for j in jobs], int),
        weight=weight,
        work=np.array([j.epochs * j.chunks * j.minibatches for j in jobs], dtype=float),
        chunks=np.array([j.chunks for j in jobs], int), v=v, u_ps=ups, u_ra=ura, comm=comm,
        horizon=workload.horizon, slot_seconds=slot)
    if assumptions:
        _check_fit(data)
        _check_durations(data)
    return data


def fitting_pairs(d: HeteroData) -> list[tuple[int, int, int]]:
    """The (m, p, q) whose one-worker configuration fits the empty cluster (p = -1 for RA).  A
    job has a configuration that fits iff this is not empty (module docstring)."""
    from mlopt.families.hetero.configs import Config, fits_alone  # configs imports this module

    out = []
    for m in range(len(d.e)):
        for p in (range(len(d.z)) if d.architecture == "ps" else (-1,)):
            for q in ((1, 0) if d.architecture == "ps" else (1,)):
                if fits_alone(d, Config(m, p, q, 1, 0)):
                    out.append((m, p, q))
    return out


def _check_fit(d: HeteroData) -> None:
    """Every job needs some configuration that fits the empty cluster (else no algorithm can
    place it and the exact model is infeasible)."""
    if fitting_pairs(d):
        return
    what = ("one worker with a PS on one server, or a worker and ceil(b_m / B_p) PSs on two "
            "servers" if d.architecture == "ps" else "one worker on one server")
    raise InputError(f"job {d.job_ids[0]} (and every other job) has no configuration that fits "
                     f"the empty cluster: no worker/PS type combination fits ({what})",
                     field="jobs[0]", value=d.job_ids[0])


def _check_durations(d: HeteroData) -> None:
    """Every job can finish within MAX_HORIZON slots at the fastest rate its fields allow."""
    from mlopt.limits import MAX_HORIZON

    u = d.u_ps.min(axis=1) if d.architecture == "ps" else np.zeros(len(d.job_ids))
    fastest = d.work * (d.v + u[:, None]).min(axis=1) / d.chunks
    bad = np.flatnonzero(fastest > MAX_HORIZON)
    if len(bad):
        j = int(bad[0])
        raise InputError(f"job {d.job_ids[j]} needs at least {fastest[j]:.4g} slots even at its "
                         f"fastest rate with D_j workers (> {MAX_HORIZON:,}, mlopt.limits."
                         "MAX_HORIZON): check epochs, chunks, minibatches, minibatch_slots and "
                         "the update times", field=f"jobs[{j}]", value=d.job_ids[j])


def validate_hetero(workload: Workload) -> None:
    """Parse the family's fields, raising InputError if invalid."""
    hetero_data(workload)

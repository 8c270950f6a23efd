"""The edge-cloud fields of a workload (seed 001, Sec. III) and a derived, validated view.

Fields (units explicit; everything an algorithm, model or checker needs, nothing else):

``Workload.extra["edgecloud"]`` (cluster level)::

    {"cloud": "cloud",                                   # id of the cloud server s_c
     "servers": {"e0": {"workers": {"w1": 2, "w4": 1},   # edge server -> worker slots by type
                        "ps": {"p2": 3}}, ...}}          #             -> PS slots by type

Optional storage extension ((7)/(8)): ``"storage_gb": U_s`` on an edge server and
``Job.extra["chunk_gb"]`` = u_j on every job; then a chunk assigned to s occupies u_j of s from
r_j (its upload starts at arrival) through its completion slot c_jd (DECISION: (7c) read per
chunk and on the assigned server only).  A server without ``storage_gb`` is unlimited.

Every server of the workload is either an edge server listed there or the cloud (unlimited
workers and PSs of every type, no preemption, longer upload delay).

``Job.extra`` (per job): ``worker_type`` and ``ps_type`` (eligibility v_jsw / o_jsp is type
matching, Sec. V-A), ``delay`` = {server id: upload delay of one chunk in slots} (Delta_js, every
server including the cloud), ``ps_update_seconds`` (G_j), optionally ``gpus`` (the trace's GPU
count, the fixed worker count of the non-elastic baselines).  The shared job fields carry the
rest: ``chunks`` = D_j, ``minibatches`` = B_j, ``epochs`` = E_j, ``minibatch_seconds`` = m_j,
``gradient_mb`` = q_j, ``worker_demand["bandwidth_gbps"]`` = b_j.

Rates (Eq. (1)): one mini-batch takes m_j + G_j + 2 q_j / b_j seconds when workers and PS are
apart (zeta_j = 0) and m_j + G_j when the whole job runs in the cloud (zeta_j = 1).

DECISION (whole slots).  A worker trains one chunk per slot ((2d)), so a chunk occupies
p_j = ceil(E_j B_j t_minibatch / slot_seconds / speed) slots of its worker (speed = 1 + eps
under speed augmentation, 1 otherwise).  This p_j is used by every model, algorithm, bound and
the checker.

DECISION (JCT).  c_j is the last slot in which any chunk of j is trained ((2j)); JCT_j = c_j - r_j
exactly as the objective of (2) (a job trained in its arrival slot has JCT 0; with the paper's
delays >= 1 this never happens).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

from mlopt import limits
from mlopt.errors import InputError
from mlopt.workload import Workload

KEY = "edgecloud"
EPS = 1e-9
#: the largest speed augmentation anything accepts: A_online's eps <= MAX_EPS, a check's
#: speed <= 1 + MAX_EPS (far beyond the point where every chunk takes one slot)
MAX_EPS = 1000.0
MAX_SPEED = 1.0 + MAX_EPS
#: chunks of one job (D_j).  DECISION: the paper's jobs have 27-115; A_greedy and the gang
#: baselines scan a worker's planned chunks for every chunk they place (quadratic in D_j), so
#: 2,000 keeps every algorithm within seconds on any workload that passes validation
MAX_CHUNKS = 2_000


def check_speed(speed) -> float:
    """``speed`` if it is a speed-augmentation factor in [1, MAX_SPEED], else InputError."""
    if isinstance(speed, bool) or not isinstance(speed, (int, float)) \
            or not math.isfinite(speed) or not 1.0 <= speed <= MAX_SPEED:
        raise InputError(f"must be a number in [1, {MAX_SPEED:g}] (1 + eps)", field="speed",
                         value=speed)
    return float(speed)


def chunk_slots(seconds_per_minibatch: float, epochs: int, minibatches: int,
                slot_seconds: float, speed: float = 1.0) -> int:
    """Whole slots one worker needs for one chunk: ceil(E B t / slot / speed), at least 1."""
    x = epochs * minibatches * seconds_per_minibatch / slot_seconds / speed
    return max(1, math.ceil(x - EPS))


@dataclass(frozen=True)
class Worker:
    server: str
    type: str
    name: str  # unique within the server, "<type>#<k>"
    index: int  # position in EdgeCloud.workers


@dataclass(frozen=True)
class JobView:
    id: str
    index: int
    arrival: int  # r_j
    chunks: int  # D_j
    worker_type: str
    ps_type: str
    delay: dict  # server -> Delta_js (slots)
    p_edge: int  # slots per chunk with zeta_j = 0 (edge, or cloud when mixed), at the speed
    p_cloud: int  # slots per chunk with zeta_j = 1 (the whole job in the cloud), at the speed
    gpus: int
    chunk_gb: float  # u_j (0 without the storage extension)
    comm_seconds: float  # 2 q_j / b_j per mini-batch (communication when zeta_j = 0)
    minibatches_total: int  # E_j B_j per chunk


class EdgeCloud:
    """Validated, derived view of an edge-cloud workload at a given speed (1 + eps)."""

    def __init__(self, workload: Workload, speed: float = 1.0):
        validate(workload)
        self.workload = workload
        self.speed = check_speed(speed)
        ex = workload.extra[KEY]
        self.cloud: str = ex["cloud"]
        self.edge_servers: list[str] = [s.id for s in workload.servers if s.id != self.cloud]
        self.workers: list[Worker] = []
        self.ps_slots: dict[str, dict[str, int]] = {}
        for s in self.edge_servers:
            spec = ex["servers"][s]
            for typ, count in sorted(spec.get("workers", {}).items()):
                for k in range(int(count)):
                    self.workers.append(Worker(s, typ, f"{typ}#{k}", len(self.workers)))
            self.ps_slots[s] = {t: int(c) for t, c in sorted(spec.get("ps", {}).items())}
        # storage extension: server -> U_s (servers without a limit are absent)
        self.storage: dict[str, float] = {s: float(ex["servers"][s]["storage_gb"])
                                          for s in self.edge_servers
                                          if "storage_gb" in ex["servers"][s]}
        self.worker_index = {(w.server, w.name): w.index for w in self.workers}
        slot = workload.slot_seconds
        self.jobs: list[JobView] = []
        for i, j in enumerate(workload.jobs):
            g = float(j.extra["ps_update_seconds"])
            comm = j.exchange_seconds
            p0 = chunk_slots(j.minibatch_seconds + g + comm, j.epochs, j.minibatches, slot, speed)
            p1 = chunk_slots(j.minibatch_seconds + g, j.epochs, j.minibatches, slot, speed)
            self.jobs.append(JobView(
                j.id, i, j.arrival, j.chunks, str(j.extra["worker_type"]),
                str(j.extra["ps_type"]), {k: int(v) for k, v in j.extra["delay"].items()},
                p0, p1, int(j.extra.get("gpus", 1)), float(j.extra.get("chunk_gb", 0.0)), comm,
                j.epochs * j.minibatches))
        self.job_index = {jv.id: jv.index for jv in self.jobs}

    # ---- derived -------------------------------------------------------------------------------
    def eligible(self, job: JobView) -> list[Worker]:
        """Edge workers whose type matches the job's (v_jsw = 1)."""
        return self._by_type.get(job.worker_type, [])

    @cached_property
    def _by_type(self) -> dict[str, list[Worker]]:
        out: dict[str, list[Worker]] = {}
        for w in self.workers:
            out.setdefault(w.type, []).append(w)
        return out

    def start(self, job: JobView, server: str) -> int:
        """First slot a chunk of ``job`` can be trained on ``server``: r_j + Delta_js ((2i))."""
        return job.arrival + job.delay[server]

    def cloud_finish(self, job: JobView, zeta: int) -> int:
        """Last slot of a chunk sent to the cloud at r_j (it trains without preemption)."""
        p = job.p_cloud if zeta else job.p_edge
        return self.start(job, self.cloud) + p - 1

    def horizon_bound(self, job: JobView) -> int:
        """H_j: the last slot of the whole job run in the cloud.  An optimal schedule finishes
        every job by H_j (moving a later job entirely to the cloud frees capacity and finishes
        it at H_j), so time-indexed models need slots up to max_j H_j only."""
        return self.cloud_finish(job, 1)

    @cached_property
    def d_max(self) -> int:
        """Largest number of chunks of any job (1 when there are no jobs)."""
        return max((jv.chunks for jv in self.jobs), default=1)


# ---- validation -----------------------------------------------------------------------------
def _count(value, field: str, hi: int = limits.MAX_COUNT) -> int:
    # the upper limit keeps later arithmetic in 64 bits and loops over counts finite
    if isinstance(value, bool) or not isinstance(value, (int, float)) or (
            isinstance(value, float) and not value.is_integer()) or not 0 <= value <= hi:
        raise InputError(f"must be an integer in [0, {hi}]", field=field, value=value)
    return int(value)


def _nonneg(value, field: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) \
            or not 0 <= value <= limits.MAX_VALUE:  # NaN fails the comparison too
        raise InputError(f"must be a number in [0, {limits.MAX_VALUE:g}]", field=field,
                         value=value)
    return float(value)


def validate(workload: Workload) -> None:
    """Check every edge-cloud field; raise :class:`InputError` naming the field and value.

    DECISION (no jobs): a workload without jobs is refused here (so by ``solve``, ``run`` and
    ``check`` alike, before any model, algorithm or checker runs): problem (2) is stated for a
    non-empty job set, its horizon is max_j H_j, and a total JCT of nothing (0) is no instance
    worth a ratio."""
    if not workload.jobs:
        raise InputError("an edge-cloud workload needs at least one job", field="jobs",
                         value=[])
    ex = workload.extra.get(KEY)
    if not isinstance(ex, dict):
        raise InputError("missing edge-cloud cluster data (extra.edgecloud)", field="extra."+KEY,
                         value=ex)
    ids = [s.id for s in workload.servers]
    cloud = ex.get("cloud")
    if cloud is None or cloud not in ids:
        raise InputError("no cloud: must name a server of the workload", field="extra.edgecloud"
                         ".cloud", value=cloud)
    servers = ex.get("servers")
    if not isinstance(servers, dict):
        raise InputError("must be an object: edge server -> {workers, ps}",
                         field="extra.edgecloud.servers", value=servers)
    edge_types: set[str] = set()
    ps_types: set[str] = set()
    has_storage = False
    for sid in ids:
        if sid == cloud:
            continue
        if sid not in servers:
            raise InputError("edge server without worker/PS slots", field=f"extra.edgecloud."
                             f"servers.{sid}", value=None)
    for sid, spec in servers.items():
        where = f"extra.edgecloud.servers.{sid}"
        if sid not in ids or sid == cloud:
            raise InputError("not an edge server of the workload", field=where, value=sid)
        if not isinstance(spec, dict) or set(spec) - {"workers", "ps", "storage_gb"}:
            raise InputError("must be {workers: {type: count}, ps: {type: count}[, storage_gb]}",
                             field=where, value=spec)
        if "storage_gb" in spec:
            _nonneg(spec["storage_gb"], f"{where}.storage_gb")
            has_storage = True
        for role, seen in (("workers", edge_types), ("ps", ps_types)):
            slots = spec.get(role, {})
            if not isinstance(slots, dict):
                raise InputError("must be an object type -> count", field=f"{where}.{role}",
                                 value=slots)
            for typ, cnt in slots.items():
                # one Worker object per slot is built: at most MAX_SERVERS slots of a type
                if _count(cnt, f"{where}.{role}.{typ}", limits.MAX_SERVERS) > 0:
                    seen.add(str(typ))
    for n, j in enumerate(workload.jobs):
        where = f"jobs[{n}].extra"
        for key in ("worker_type", "ps_type", "delay", "ps_update_seconds"):
            if key not in j.extra:
                raise InputError("missing", field=f"{where}.{key}")
        for key in ("worker_type", "ps_type"):  # type names are strings (slot-table keys)
            if not isinstance(j.extra[key], str):
                raise InputError("must be a string (a worker/PS type)", field=f"{where}.{key}",
                                 value=j.extra[key])
        if j.extra["worker_type"] not in edge_types:
            raise InputError("job eligible on no edge server: no edge worker of this type",
                             field=f"{where}.worker_type", value=j.extra["worker_type"])
        if j.extra["ps_type"] not in ps_types:
            raise InputError("job eligible on no edge server: no edge PS of this type",
                             field=f"{where}.ps_type", value=j.extra["ps_type"])
        delay = j.extra["delay"]
        if not isinstance(delay, dict):
            raise InputError("must be an object server -> slots", field=f"{where}.delay",
                             value=delay)
        for sid in ids:
            if sid not in delay:
                raise InputError("missing upload delay to this server", field=f"{where}.delay."
                                 f"{sid}")
            _count(delay[sid], f"{where}.delay.{sid}", limits.MAX_HORIZON)
        unknown = set(delay) - set(ids)
        if unknown:
            name = sorted(unknown)[0]
            raise InputError("unknown server", field=f"{where}.delay.{name}", value=delay[name])
        _nonneg(j.extra["ps_update_seconds"], f"{where}.ps_update_seconds")
        if has_storage and "chunk_gb" not in j.extra:
            raise InputError("missing (edge servers have storage_gb)", field=f"{where}.chunk_gb")
        if "chunk_gb" in j.extra:
            _nonneg(j.extra["chunk_gb"], f"{where}.chunk_gb")
        if "gpus" in j.extra and _count(j.extra["gpus"], f"{where}.gpus") < 1:
            raise InputError("must be >= 1", field=f"{where}.gpus", value=j.extra["gpus"])
    _check_sizes(workload, cloud)


def _check_sizes(workload: Workload, cloud: str) -> None:
    """DECISION (sizes): a job has 1..MAX_CHUNKS chunks; a schedule names slots up to
    MAX_HORIZON and has at most MAX_SCHEDULE_ROWS rows, so a job whose chunk takes more than
    MAX_HORIZON slots of a worker, or that cannot finish by MAX_HORIZON even entirely in the
    cloud (H_j), and a workload whose every schedule has more worker rows than
    MAX_SCHEDULE_ROWS (sum_j D_j p_j^cloud, the fewest chunk-slots) are refused here, before an
    algorithm or a model tries to lay them out."""
    rows = 0
    for n, j in enumerate(workload.jobs):
        where = f"jobs[{n}]"
        if not 1 <= j.chunks <= MAX_CHUNKS:
            raise InputError(f"must be in [1, {MAX_CHUNKS}] (fields.MAX_CHUNKS)",
                             field=f"{where}.chunks", value=j.chunks)
        g = float(j.extra["ps_update_seconds"])
        for label, seconds in (("edge", j.minibatch_seconds + g + j.exchange_seconds),
                               ("cloud", j.minibatch_seconds + g)):
            x = j.epochs * j.minibatches * seconds / workload.slot_seconds
            if not math.isfinite(x) or x > limits.MAX_HORIZON:
                raise InputError(f"one chunk takes {x:.4g} slots of a worker ({label} rate, "
                                 f"E B t / slot_seconds) > MAX_HORIZON {limits.MAX_HORIZON}",
                                 field=where, value=j.id)
        p_cloud = chunk_slots(j.minibatch_seconds + g, j.epochs, j.minibatches,
                              workload.slot_seconds)
        h = j.arrival + int(j.extra["delay"][cloud]) + p_cloud - 1
        if h > limits.MAX_HORIZON:
            raise InputError(f"finishes at slot {h} at the earliest (entirely in the cloud), "
                             f"after MAX_HORIZON {limits.MAX_HORIZON}",
                             field=f"{where}.arrival", value=j.arrival)
        rows += j.chunks * p_cloud
    if rows > limits.MAX_SCHEDULE_ROWS:
        raise InputError(f"every schedule has at least sum_j D_j p_j = {rows:,} rows, above "
                         f"MAX_SCHEDULE_ROWS {limits.MAX_SCHEDULE_ROWS:,}", field="jobs",
                         value=len(workload.jobs))


validate_edgecloud = validate  # the name the family contract looks up

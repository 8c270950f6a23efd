"""The one world all five papers describe: a cluster, data-parallel training jobs, a horizon.

Units are explicit and fixed:

* time: integer slots ``1..horizon``; a slot lasts ``slot_seconds`` seconds;
* per-mini-batch compute ``minibatch_seconds`` (tau_i) in seconds;
* gradient / parameter size ``gradient_mb`` (e_i) in megabytes (10^6 bytes);
* bandwidth in Gbit/s, stored as the resource ``bandwidth_gbps`` of a worker (b_i) or PS (B_i);
* other resources in the units their names say (``gpu`` count, ``cpu`` vCPUs, ``memory_gb``...).

Derived quantities used by every family (OASiS notation, seed 000):

* ``exchange_seconds = 2 * 8 * e_i / (1000 * b_i)``: push gradients and pull parameters, 2 e_i/b_i;
* ``chunk_slots = M_i (tau_i + 2 e_i / b_i) / slot_seconds``: worker-slots to train one chunk;
* ``work = E_i N_i chunk_slots``: worker-slots for the whole job, the RHS of OASiS constraint (2).

A :class:`Workload` is immutable data.  It is read and written as JSON with a schema version and
validated on construction from a file: every problem raises :class:`~mlopt.errors.InputError`
naming the file, field and value.  Paper-specific optional fields (weight, model type, worker/PS
types, location...) live in the job's ``extra`` dict; a family declares which ones it requires.
"""
from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, Iterable

import numpy as np

from mlopt.errors import InputError
from mlopt.utility import Utility, utility_from_dict

SCHEMA_VERSION = 1
BANDWIDTH = "bandwidth_gbps"
DEFAULT_RESOURCES = ("gpu", "cpu", "memory_gb", "storage_gb", BANDWIDTH)
ROLES = ("worker", "ps", "any")


@dataclass(frozen=True)
class Server:
    """A physical machine. ``role``: hosts workers, parameter servers, or ``any`` (co-location)."""

    id: str
    role: str
    capacity: dict[str, float]
    kind: str | None = None  # instance type, e.g. "p2.8xlarge"; informational
    location: str | None = None  # e.g. "edge" / "cloud" for papers that need it

    def hosts_workers(self) -> bool:
        return self.role in ("worker", "any")

    def hosts_ps(self) -> bool:
        return self.role in ("ps", "any")

    def to_dict(self) -> dict:
        d: dict[str, Any] = {"id": self.id, "role": self.role, "capacity": dict(self.capacity)}
        if self.kind is not None:
            d["kind"] = self.kind
        if self.location is not None:
            d["location"] = self.location
        return d


@dataclass(frozen=True)
class Job:
    """A data-parallel training job (OASiS notation in brackets)."""

    id: str
    arrival: int  # a_i, slot in 1..T
    epochs: int  # E_i
    chunks: int  # N_i, data chunks; also the cap on concurrent workers (OASiS (3))
    minibatches: int  # M_i, mini-batches per chunk
    minibatch_seconds: float  # tau_i, compute time of one mini-batch
    gradient_mb: float  # e_i, gradient (= parameter) size exchanged per mini-batch
    worker_demand: dict[str, float]  # w_i^r; worker_demand[BANDWIDTH] = b_i
    ps_demand: dict[str, float]  # s_i^r; ps_demand[BANDWIDTH] = B_i
    utility: Utility  # f_i(t_hat - a_i)
    extra: dict[str, Any] = field(default_factory=dict)  # paper-specific optional fields

    @property
    def worker_bandwidth(self) -> float:
        return float(self.worker_demand[BANDWIDTH])

    @property
    def ps_bandwidth(self) -> float:
        return float(self.ps_demand[BANDWIDTH])

    @property
    def exchange_seconds(self) -> float:
        """2 e_i / b_i: send gradients and receive parameters over the worker's bandwidth."""
        return 2.0 * 8.0 * self.gradient_mb / (1000.0 * self.worker_bandwidth)

    def to_dict(self) -> dict:
        d = {
            "id": self.id, "arrival": self.arrival, "epochs": self.epochs, "chunks": self.chunks,
            "minibatches": self.minibatches, "minibatch_seconds": self.minibatch_seconds,
            "gradient_mb": self.gradient_mb, "worker_demand": dict(self.worker_demand),
            "ps_demand": dict(self.ps_demand), "utility": self.utility.to_dict(),
        }
        if self.extra:
            d["extra"] = dict(self.extra)
        return d


@dataclass(frozen=True)
class WorkloadArrays:
    """Dense numpy views used by algorithms and checkers (rows follow the workload's order)."""

    worker_servers: np.ndarray  # indices into workload.servers of servers hosting workers (H)
    ps_servers: np.ndarray  # indices of servers hosting PSs (K)
    cap_worker: np.ndarray  # H x R capacities c_h^r
    cap_ps: np.ndarray  # K x R capacities c_k^r
    worker_demand: np.ndarray  # I x R, w_i^r
    ps_demand: np.ndarray  # I x R, s_i^r
    arrival: np.ndarray  # I, a_i
    epochs: np.ndarray  # I, E_i
    chunks: np.ndarray  # I, N_i
    chunk_slots: np.ndarray  # I, M_i (tau_i + 2 e_i / b_i) in slots
    work: np.ndarray  # I, E_i N_i chunk_slots (worker-slots)
    worker_bw: np.ndarray  # I, b_i
    ps_bw: np.ndarray  # I, B_i


@dataclass(frozen=True)
class Workload:
    name: str
    horizon: int  # T
    slot_seconds: float
    resources: tuple[str, ...]
    servers: tuple[Server, ...]
    jobs: tuple[Job, ...]
    meta: dict[str, Any] = field(default_factory=dict)  # generator, seed, parameters, origin
    # family-specific cluster-level data (worker/PS types, delays, speed-model parameters...):
    # part of the instance (in the content hash), validated by the family that needs it
    extra: dict[str, Any] = field(default_factory=dict)

    # ---- derived -----------------------------------------------------------------------------
    def chunk_slots(self, job: Job) -> float:
        return job.minibatches * (job.minibatch_seconds + job.exchange_seconds) / self.slot_seconds

    def work(self, job: Job) -> float:
        return job.epochs * job.chunks * self.chunk_slots(job)

    @cached_property
    def job_index(self) -> dict[str, int]:
        return {j.id: i for i, j in enumerate(self.jobs)}

    @cached_property
    def server_index(self) -> dict[str, int]:
        return {s.id: i for i, s in enumerate(self.servers)}

    @cached_property
    def arrays(self) -> WorkloadArrays:
        res = self.resources
        ws = np.array([i for i, s in enumerate(self.servers) if s.hosts_workers()], dtype=int)
        ps = np.array([i for i, s in enumerate(self.servers) if s.hosts_ps()], dtype=int)

        def cap(idx):
            return np.array([[self.servers[i].capacity[r] for r in res] for i in idx],
                            dtype=float).reshape(len(idx), len(res))

        def dem(attr):
            return np.array([[getattr(j, attr)[r] for r in res] for j in self.jobs],
                            dtype=float).reshape(len(self.jobs), len(res))

        return WorkloadArrays(
            worker_servers=ws, ps_servers=ps, cap_worker=cap(ws), cap_ps=cap(ps),
            worker_demand=dem("worker_demand"), ps_demand=dem("ps_demand"),
            arrival=np.array([j.arrival for j in self.jobs], dtype=int),
            epochs=np.array([j.epochs for j in self.jobs], dtype=int),
            chunks=np.array([j.chunks for j in self.jobs], dtype=int),
            chunk_slots=np.array([self.chunk_slots(j) for j in self.jobs], dtype=float),
            work=np.array([self.work(j) for j in self.jobs], dtype=float),
            worker_bw=np.array([j.worker_bandwidth for j in self.jobs], dtype=float),
            ps_bw=np.array([j.ps_bandwidth for j in self.jobs], dtype=float),
        )

    def worker_servers(self) -> list[Server]:
        return [s for s in self.servers if s.hosts_workers()]

    def ps_servers(self) -> list[Server]:
        return [s for s in self.servers if s.hosts_ps()]

    def with_jobs(self, jobs: Iterable[Job], name: str | None = None) -> "Workload":
        return Workload(name or self.name, self.horizon, self.slot_seconds, self.resources,
                        self.servers, tuple(jobs), dict(self.meta), dict(self.extra))

    # ---- serialization -----------------------------------------------------------------------
    def to_dict(self) -> dict:
        d = {
            "schema_version": SCHEMA_VERSION, "name": self.name, "horizon": self.horizon,
            "slot_seconds": self.slot_seconds, "resources": list(self.resources),
            "servers": [s.to_dict() for s in self.servers],
            "jobs": [j.to_dict() for j in self.jobs], "meta": self.meta,
        }
        if self.extra:  # omitted when empty so existing instances keep their content hash
            d["extra"] = self.extra
        return d

    def content_hash(self) -> str:
        """sha256 of the canonical JSON of everything but ``meta``: identifies the instance."""
        d = self.to_dict()
        d.pop("meta")
        blob = json.dumps(d, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(blob.encode()).hexdigest()[:16]

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_dict(), indent=1) + "\n")

    @classmethod
    def from_dict(cls, data: Any, file: str | None = None) -> "Workload":
        try:
            return _parse_workload(data)
        except InputError as err:
            raise err.with_file(file) if file else err

    @classmethod
    def load(cls, path: str | Path) -> "Workload":
        path = Path(path)
        try:
            text = path.read_text()
        except OSError as err:
            raise InputError(f"cannot read ({err.strerror})", file=str(path)) from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as err:
            raise InputError(f"malformed JSON at line {err.lineno} column {err.colno}: {err.msg}",
                             file=str(path)) from None
        return cls.from_dict(data, file=str(path))


# ---- parsing and validation ------------------------------------------------------------------
def _get(obj: dict, key: str, where: str):
    if not isinstance(obj, dict):
        raise InputError("must be an object", field=where, value=obj)
    if key not in obj:
        raise InputError("missing", field=f"{where}.{key}" if where else key)
    return obj[key]


def _number(value, where: str, *, minimum: float = 0.0, strict: bool = False) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InputError("must be a number", field=where, value=value)
    x = float(value)
    if not math.isfinite(x):
        raise InputError("must be finite", field=where, value=value)
    if x < minimum or (strict and x <= minimum):
        raise InputError(f"must be {'>' if strict else '>='} {minimum:g}", field=where, value=value)
    return x


def _integer(value, where: str, *, minimum: int = 1) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or (
            isinstance(value, float) and (not math.isfinite(value) or not value.is_integer())):
        raise InputError("must be an integer", field=where, value=value)
    if int(value) < minimum:
        raise InputError(f"must be >= {minimum}", field=where, value=value)
    return int(value)


def _resource_vector(obj, resources, where: str) -> dict[str, float]:
    if not isinstance(obj, dict):
        raise InputError("must be an object of resource amounts", field=where, value=obj)
    unknown = set(obj) - set(resources)
    if unknown:
        name = sorted(unknown)[0]
        raise InputError(f"unknown resource (declared: {', '.join(resources)})",
                         field=f"{where}.{name}", value=obj[name])
    return {r: _number(_get(obj, r, where), f"{where}.{r}") for r in resources}


def _parse_workload(data: Any) -> Workload:
    if not isinstance(data, dict):
        raise InputError("a workload must be a JSON object", value=type(data).__name__)
    version = _get(data, "schema_version", "")
    if version != SCHEMA_VERSION:
        raise InputError(f"unsupported schema version (this mlopt reads {SCHEMA_VERSION})",
                         field="schema_version", value=version)
    horizon = _integer(_get(data, "horizon", ""), "horizon")
    slot_seconds = _number(_get(data, "slot_seconds", ""), "slot_seconds", strict=True)
    resources = _get(data, "resources", "")
    if (not isinstance(resources, list) or not resources
            or not all(isinstance(r, str) and r for r in resources)):
        raise InputError("must be a non-empty list of names", field="resources", value=resources)
    if len(set(resources)) != len(resources):
        raise InputError("duplicate resource name", field="resources", value=resources)
    if BANDWIDTH not in resources:
        raise InputError(f"must include '{BANDWIDTH}' (b_i and B_i)", field="resources",
                         value=resources)
    resources = tuple(resources)

    servers_raw = _get(data, "servers", "")
    if not isinstance(servers_raw, list) or not servers_raw:
        raise InputError("must be a non-empty list", field="servers", value=servers_raw)
    servers = []
    for n, s in enumerate(servers_raw):
        where = f"servers[{n}]"
        sid = str(_get(s, "id", where))
        role = _get(s, "role", where)
        if role not in ROLES:
            raise InputError(f"must be one of {', '.join(ROLES)}", field=f"{where}.role", value=role)
        cap = _resource_vector(_get(s, "capacity", where), resources, f"{where}.capacity")
        servers.append(Server(sid, role, cap, s.get("kind"), s.get("location")))
    ids = [s.id for s in servers]
    if len(set(ids)) != len(ids):
        dup = next(i for i in ids if ids.count(i) > 1)
        raise InputError("duplicate server id", field="servers.id", value=dup)

    jobs_raw = _get(data, "jobs", "")
    if not isinstance(jobs_raw, list):
        raise InputError("must be a list", field="jobs", value=jobs_raw)
    jobs = [_parse_job(j, n, resources, horizon, servers) for n, j in enumerate(jobs_raw)]
    jids = [j.id for j in jobs]
    if len(set(jids)) != len(jids):
        dup = next(i for i in jids if jids.count(i) > 1)
        raise InputError("duplicate job id", field="jobs.id", value=dup)
    meta = data.get("meta", {})
    if not isinstance(meta, dict):
        raise InputError("must be an object", field="meta", value=meta)
    extra = data.get("extra", {})
    if not isinstance(extra, dict):
        raise InputError("must be an object", field="extra", value=extra)
    return Workload(str(data.get("name", "workload")), horizon, slot_seconds, resources,
                    tuple(servers), tuple(jobs), meta, extra)


def _fits(demand: dict[str, float], servers: Iterable[Server]) -> bool:
    return any(all(demand[r] <= s.capacity[r] + 1e-12 for r in demand) for s in servers)


def _parse_job(j, n: int, resources, horizon: int, servers) -> Job:
    where = f"jobs[{n}]"
    jid = str(_get(j, "id", where))
    arrival = _integer(_get(j, "arrival", where), f"{where}.arrival")
    if arrival > horizon:
        raise InputError(f"arrival after the horizon T={horizon}", field=f"{where}.arrival",
                         value=arrival)
    wd = _resource_vector(_get(j, "worker_demand", where), resources, f"{where}.worker_demand")
    sd = _resource_vector(_get(j, "ps_demand", where), resources, f"{where}.ps_demand")
    for key, vec in (("worker_demand", wd), ("ps_demand", sd)):
        if vec[BANDWIDTH] <= 0:
            raise InputError("bandwidth must be > 0", field=f"{where}.{key}.{BANDWIDTH}",
                             value=vec[BANDWIDTH])
    if not _fits(wd, [s for s in servers if s.hosts_workers()]):
        raise InputError("a worker of this job fits on no server", field=f"{where}.worker_demand",
                         value=wd)
    if not _fits(sd, [s for s in servers if s.hosts_ps()]):
        raise InputError("a parameter server of this job fits on no server",
                         field=f"{where}.ps_demand", value=sd)
    tau = _number(_get(j, "minibatch_seconds", where), f"{where}.minibatch_seconds")
    grad = _number(_get(j, "gradient_mb", where), f"{where}.gradient_mb")
    if tau == 0 and grad == 0:
        raise InputError("a mini-batch must take time: minibatch_seconds and gradient_mb are both 0",
                         field=f"{where}.minibatch_seconds", value=tau)
    extra = j.get("extra", {})
    if not isinstance(extra, dict):
        raise InputError("must be an object", field=f"{where}.extra", value=extra)
    return Job(
        id=jid, arrival=arrival,
        epochs=_integer(_get(j, "epochs", where), f"{where}.epochs"),
        chunks=_integer(_get(j, "chunks", where), f"{where}.chunks"),
        minibatches=_integer(_get(j, "minibatches", where), f"{where}.minibatches"),
        minibatch_seconds=tau, gradient_mb=grad,
        worker_demand=wd, ps_demand=sd,
        utility=utility_from_dict(_get(j, "utility", where), f"{where}.utility"),
        extra=extra,
    )


def validate(workload: Workload) -> Workload:
    """Re-validate an in-memory workload (e.g. one a generator built) by a JSON round trip."""
    return Workload.from_dict(json.loads(json.dumps(workload.to_dict())))

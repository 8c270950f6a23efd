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
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, Iterable

import numpy as np

from mlopt import fileio, formats, limits
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
        """Whether workers may run on this server."""
        return self.role in ("worker", "any")

    def hosts_ps(self) -> bool:
        """Whether parameter servers may run on this server."""
        return self.role in ("ps", "any")

    def to_dict(self) -> dict:
        """The server as in the workload file."""
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
        """A worker's bandwidth demand."""
        return float(self.worker_demand[BANDWIDTH])

    @property
    def ps_bandwidth(self) -> float:
        """A parameter server's bandwidth demand."""
        return float(self.ps_demand[BANDWIDTH])

    @property
    def exchange_seconds(self) -> float:
        """2 e_i / b_i: send gradients and receive parameters over the worker's bandwidth."""
        return 2.0 * 8.0 * self.gradient_mb / (1000.0 * self.worker_bandwidth)

    def to_dict(self) -> dict:
        """The job as in the workload file."""
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
        """Slots one worker needs for one chunk of ``job``."""
        return job.minibatches * (job.minibatch_seconds + job.exchange_seconds) / self.slot_seconds

    def work(self, job: Job) -> float:
        """Total worker-slots of ``job`` (epochs x chunks x chunk slots)."""
        return job.epochs * job.chunks * self.chunk_slots(job)

    @cached_property
    def job_index(self) -> dict[str, int]:
        """Job id -> position."""
        return {j.id: i for i, j in enumerate(self.jobs)}

    @cached_property
    def server_index(self) -> dict[str, int]:
        """Server id -> position."""
        return {s.id: i for i, s in enumerate(self.servers)}

    @cached_property
    def arrays(self) -> WorkloadArrays:
        """Capacities and demands as numpy arrays (cached)."""
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
        """The servers that host workers."""
        return [s for s in self.servers if s.hosts_workers()]

    def ps_servers(self) -> list[Server]:
        """The servers that host parameter servers."""
        return [s for s in self.servers if s.hosts_ps()]

    def with_jobs(self, jobs: Iterable[Job], name: str | None = None) -> "Workload":
        """A copy with other jobs (and optionally another name)."""
        return Workload(name or self.name, self.horizon, self.slot_seconds, self.resources,
                        self.servers, tuple(jobs), dict(self.meta), dict(self.extra))

    # ---- serialization -----------------------------------------------------------------------
    def to_dict(self) -> dict:
        """The workload file format as a dict."""
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
        """Write the workload as JSON to ``path``."""
        Path(path).write_text(json.dumps(self.to_dict(), indent=1) + "\n")

    @classmethod
    def from_dict(cls, data: Any, file: str | None = None) -> "Workload":
        """Parse and check a workload dict (errors name ``file``)."""
        try:
            return _parse_workload(data)
        except InputError as err:
            raise err.with_file(file) if file else err

    @classmethod
    def load(cls, path: str | Path) -> "Workload":
        """Read and check a workload file."""
        return cls.from_dict(fileio.load_json(path), file=str(path))


# ---- parsing and validation ------------------------------------------------------------------
# Types, ranges, limits and unknown keys are declared once in mlopt.formats.WorkloadFile; the
# rules below relate fields to each other.
def _resource_vector(obj: dict[str, float], resources, where: str) -> dict[str, float]:
    unknown = [r for r in obj if r not in resources]
    if unknown:
        raise InputError(f"unknown resource (declared: {', '.join(resources)})",
                         field=f"{where}.{unknown[0]}", value=obj[unknown[0]])
    missing = [r for r in resources if r not in obj]
    if missing:
        raise InputError("missing", field=f"{where}.{missing[0]}")
    return {r: float(obj[r]) for r in resources}


def _duplicate(ids: list[str]) -> str | None:
    seen = set()
    for i in ids:
        if i in seen:
            return i
        seen.add(i)
    return None


def _parse_workload(data: Any) -> Workload:
    if isinstance(data, dict) and "schema_version" in data and (
            type(data["schema_version"]) is not int or data["schema_version"] != SCHEMA_VERSION):
        raise InputError(f"unsupported schema version (this mlopt reads {SCHEMA_VERSION})",
                         field="schema_version", value=data["schema_version"])
    f = formats.validate(formats.WorkloadFile, data)
    family = f.meta.get("family")
    if family is not None and not isinstance(family, str) or family == "":
        raise InputError("must be a family name", field="meta.family", value=family)
    resources = tuple(f.resources)
    if len(set(resources)) != len(resources):
        raise InputError("duplicate resource name", field="resources", value=list(resources))
    if BANDWIDTH not in resources:
        raise InputError(f"must include '{BANDWIDTH}' (b_i and B_i)", field="resources",
                         value=list(resources))

    cells = f.horizon * len(f.servers) * len(resources)
    if cells > limits.MAX_CELLS:
        raise InputError(f"horizon x servers x resources = {cells:,} is above the limit "
                         f"{limits.MAX_CELLS:,} (see mlopt.limits)", field="horizon",
                         value=f.horizon)
    servers = []
    for n, s in enumerate(f.servers):
        cap = _resource_vector(s.capacity, resources, f"servers[{n}].capacity")
        servers.append(Server(s.id, s.role, cap, s.kind, s.location))
    dup = _duplicate([s.id for s in servers])
    if dup is not None:
        raise InputError("duplicate server id", field="servers.id", value=dup)

    jobs = [_parse_job(j, n, resources, f.horizon, servers) for n, j in enumerate(f.jobs)]
    dup = _duplicate([j.id for j in jobs])
    if dup is not None:
        raise InputError("duplicate job id", field="jobs.id", value=dup)
    return Workload(f.name, f.horizon, float(f.slot_seconds), resources, tuple(servers),
                    tuple(jobs), f.meta, f.extra)


def _fits(demand: dict[str, float], servers: Iterable[Server]) -> bool:
    return any(all(demand[r] <= s.capacity[r] + 1e-12 for r in demand) for s in servers)


def _parse_job(j: formats.JobFile, n: int, resources, horizon: int, servers) -> Job:
    where = f"jobs[{n}]"
    if j.arrival > horizon:
        raise InputError(f"arrival after the horizon T={horizon}", field=f"{where}.arrival",
                         value=j.arrival)
    wd = _resource_vector(j.worker_demand, resources, f"{where}.worker_demand")
    sd = _resource_vector(j.ps_demand, resources, f"{where}.ps_demand")
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
    tau, grad = float(j.minibatch_seconds), float(j.gradient_mb)
    if tau == 0 and grad == 0:
        raise InputError("a mini-batch must take time: minibatch_seconds and gradient_mb are both 0",
                         field=f"{where}.minibatch_seconds", value=tau)
    return Job(
        id=j.id, arrival=j.arrival, epochs=j.epochs, chunks=j.chunks, minibatches=j.minibatches,
        minibatch_seconds=tau, gradient_mb=grad, worker_demand=wd, ps_demand=sd,
        utility=utility_from_dict(j.utility, f"{where}.utility"), extra=j.extra,
    )


def validate(workload: Workload) -> Workload:
    """Re-validate an in-memory workload (e.g. one a generator built) by a JSON round trip."""
    return Workload.from_dict(json.loads(json.dumps(workload.to_dict())))

"""Alibaba PAI 2023 GPU cluster trace (alibaba/clusterdata, cluster-trace-gpu-v2023; ATC'23
"Beware of Fragmentation"): calibration only.

Its licence is unstated, so nothing from it is copied into the project: these functions read the
shared copy at run time, and callers fall back to :class:`UniformPerGpuDemand` when it is absent.

**Per-GPU CPU/memory demand** (:func:`load_pod_demand`).  ``openb_pod_list_default.csv`` has one
row per pod with ``cpu_milli``, ``memory_mib``, ``num_gpu`` and ``gpu_milli`` (per-GPU share,
< 1000 = a fraction of one GPU).  Conventions (parameters):

* a pod's GPUs are ``num_gpu`` when it holds whole GPUs (``gpu_milli == 1000``); pods holding a
  fraction of a GPU (mostly shared inference) are excluded (``whole_gpus_only=True``; with False
  they count ``num_gpu * gpu_milli / 1000`` GPUs);
* per-GPU demand = (``cpu_milli / 1000`` vCPUs, ``memory_mib / 1024`` GiB) / GPUs, kept as joint
  pairs and sampled by bootstrap (uniform over pods, with replacement);
* pods without GPUs or with zero CPU or memory are excluded; ``qos`` / ``phases`` filters are off
  by default.  Every excluded pod is counted per reason in ``PerGpuDemand.filtered``.

Memory is in GiB, the unit of the EC2 catalogue figures :mod:`mlopt.clusters` uses as
``memory_gb``, so demands and capacities compare directly.

**Fallback** (:class:`UniformPerGpuDemand`, used when the file is absent): the OASiS paper's worker
ranges (seed 000, Sec. V-A; :data:`FALLBACK_CPU_RANGE`, :data:`FALLBACK_MEMORY_GB_RANGE`, the same
numbers as the OASiS generator's defaults): 1-10 vCPUs and 2-32 GB memory, uniform integers, per
GPU.

**Heterogeneous cluster** (:func:`alibaba_cluster`).  ``openb_node_list_gpu_node.csv`` lists 1,213
GPU nodes (``cpu_milli``, ``memory_mib``, ``gpu``, GPU ``model``).  A cluster of ``n_servers``
nodes is drawn without replacement, stratified by GPU model (largest-remainder proportional
allocation, so the model mix is preserved), with a seeded generator.  The trace gives no disk or
NIC figures: every server gets ``storage_gb`` (default :data:`mlopt.clusters.STORAGE_GB`) and a NIC
bandwidth uniform in ``nic_gbps`` (default :data:`mlopt.clusters.NIC_GBPS`, the OASiS range).
All nodes have GPUs; with ``roles="split"`` a seeded random ``ps_fraction`` of the drawn nodes
host parameter servers (their GPUs stay idle, as PSs use none) and the rest host workers; with
``roles="any"`` every node may host both (co-location, PD-ORS style).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, Sequence

import numpy as np
import pandas as pd

from mlopt.clusters import NIC_GBPS, STORAGE_GB
from mlopt.errors import InputError
from mlopt.workload import BANDWIDTH, Server
from mlopt.traces.paths import shared_trace, shared_traces_dir

#: per-GPU worker vCPUs and memory (GB) of the fallback demand: the OASiS paper's worker ranges
#: (seed 000, Sec. V-A), inclusive
FALLBACK_CPU_RANGE: tuple[int, int] = (1, 10)
FALLBACK_MEMORY_GB_RANGE: tuple[int, int] = (2, 32)

POD_FILE = "alibaba-pai-2023/openb_pod_list_default.csv"
NODE_FILE = "alibaba-pai-2023/openb_node_list_gpu_node.csv"
MIB_PER_GIB = 1024.0
QUANTILES = (0.0, 0.1, 0.25, 0.5, 0.75, 0.9, 1.0)
CLUSTER_ROLES = ("split", "any")


class DemandModel(Protocol):
    """Per-GPU (vCPU, memory GB) demand of a worker: ``sample(rng, n) -> (cpu, memory)``."""

    def sample(self, rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]: ...

    def describe(self) -> dict[str, Any]: ...


def _quantiles(x: np.ndarray) -> dict[str, float]:
    return {f"q{int(q * 100)}": round(float(np.quantile(x, q)), 4) for q in QUANTILES}


@dataclass(frozen=True, eq=False)
class PerGpuDemand:
    """Empirical joint distribution of (vCPUs, GiB) per GPU, sampled by bootstrap."""

    cpu: np.ndarray
    memory_gb: np.ndarray
    source: str
    filtered: dict[str, int] = field(default_factory=dict)  # reason -> pods excluded

    def __post_init__(self):
        if len(self.cpu) == 0 or len(self.cpu) != len(self.memory_gb):
            raise InputError("empty per-GPU demand distribution (every pod was filtered out)",
                             file=self.source)

    def sample(self, rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
        idx = rng.integers(0, len(self.cpu), size=n)
        return self.cpu[idx].copy(), self.memory_gb[idx].copy()

    def describe(self) -> dict[str, Any]:
        return {"kind": "alibaba-empirical", "source": self.source, "pods": int(len(self.cpu)),
                "filtered": dict(self.filtered), "cpu_per_gpu": _quantiles(self.cpu),
                "memory_gb_per_gpu": _quantiles(self.memory_gb)}


@dataclass(frozen=True)
class UniformPerGpuDemand:
    """Fallback: uniform integers per GPU over the OASiS worker ranges (inclusive)."""

    cpu_range: tuple[int, int] = FALLBACK_CPU_RANGE
    memory_gb_range: tuple[int, int] = FALLBACK_MEMORY_GB_RANGE

    def sample(self, rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
        cpu = rng.integers(self.cpu_range[0], self.cpu_range[1], size=n, endpoint=True)
        mem = rng.integers(self.memory_gb_range[0], self.memory_gb_range[1], size=n,
                           endpoint=True)
        return cpu.astype(float), mem.astype(float)

    def describe(self) -> dict[str, Any]:
        return {"kind": "fallback-uniform", "source": "OASiS Sec. V-A worker ranges",
                "cpu_per_gpu": list(self.cpu_range), "memory_gb_per_gpu":
                    list(self.memory_gb_range)}


def _read_csv(path: Path, needed: Sequence[str]) -> pd.DataFrame:
    try:
        df = pd.read_csv(path)
    except OSError as err:
        raise InputError(f"cannot read ({err.strerror})", file=str(path)) from None
    except (pd.errors.ParserError, UnicodeDecodeError, pd.errors.EmptyDataError) as err:
        raise InputError(f"malformed CSV ({err})", file=str(path)) from None
    for c in needed:
        if c not in df.columns:
            raise InputError("missing column", file=str(path), field=c)
    for c in needed:
        if c in ("sn", "model", "qos", "pod_phase", "name"):
            continue
        x = pd.to_numeric(df[c], errors="coerce")
        if x.isna().any():
            i = int(np.flatnonzero(x.isna().to_numpy())[0])
            raise InputError(f"not a number (line {i + 2})", file=str(path), field=c,
                             value=df[c].iloc[i])
        df[c] = x
    return df


def load_pod_demand(path: str | Path | None = None, *, whole_gpus_only: bool = True,
                    qos: Sequence[str] | None = None,
                    phases: Sequence[str] | None = None) -> PerGpuDemand:
    """Per-GPU CPU/memory demand of the Alibaba pods (see the module docstring)."""
    path = Path(path) if path is not None else shared_trace(POD_FILE)
    df = _read_csv(path, ("cpu_milli", "memory_mib", "num_gpu", "gpu_milli", "qos",
                          "pod_phase"))
    n = len(df)
    reason = np.full(n, "", dtype=object)

    def flag(name, mask):
        sel = (reason == "") & np.asarray(mask, dtype=bool)
        reason[sel] = name

    flag("no_gpu", (df["num_gpu"] <= 0) | (df["gpu_milli"] <= 0))
    if whole_gpus_only:
        flag("fractional_gpu", df["gpu_milli"] < 1000)
    flag("zero_cpu_or_memory", (df["cpu_milli"] <= 0) | (df["memory_mib"] <= 0))
    if qos is not None:
        flag("qos", ~df["qos"].isin(list(qos)))
    if phases is not None:
        flag("phase", ~df["pod_phase"].isin(list(phases)))
    keep = reason == ""
    d = df[keep]
    gpus = d["num_gpu"].to_numpy(float) * np.minimum(d["gpu_milli"].to_numpy(float), 1000) / 1000
    cpu = d["cpu_milli"].to_numpy(float) / 1000.0 / gpus
    mem = d["memory_mib"].to_numpy(float) / MIB_PER_GIB / gpus
    filtered = {r: int((reason == r).sum()) for r in dict.fromkeys(reason[~keep])}
    return PerGpuDemand(cpu, mem, str(path), filtered)


DEMAND_SOURCES = ("auto", "alibaba", "fallback")


def per_gpu_demand(source: Any = "auto") -> DemandModel:
    """Resolve a demand source: ``"auto"`` (the Alibaba pods when ../shared is available, else
    the fallback), ``"alibaba"`` (required), ``"fallback"``, a path to a pod list, or a ready
    :class:`DemandModel`."""
    if hasattr(source, "sample") and hasattr(source, "describe"):
        return source
    if source == "auto":
        root = shared_traces_dir()
        if root is not None and (root / POD_FILE).is_file():
            return load_pod_demand(root / POD_FILE)
        return UniformPerGpuDemand()
    if source == "alibaba":
        return load_pod_demand()
    if source == "fallback":
        return UniformPerGpuDemand()
    if isinstance(source, (str, Path)) and Path(source).is_file():
        return load_pod_demand(source)
    raise InputError(f"unknown demand source (known: {', '.join(DEMAND_SOURCES)}, a pod-list "
                     "path, or a DemandModel)", field="demand", value=source)


# ---- cluster ---------------------------------------------------------------------------------
def load_nodes(path: str | Path | None = None) -> pd.DataFrame:
    """The node list as a table: ``sn, gpu, cpu, memory_gb, model`` (GiB, vCPUs)."""
    path = Path(path) if path is not None else shared_trace(NODE_FILE)
    df = _read_csv(path, ("sn", "cpu_milli", "memory_mib", "gpu", "model"))
    bad = (df["cpu_milli"] <= 0) | (df["memory_mib"] <= 0) | (df["gpu"] < 0)
    if bad.any():
        i = int(np.flatnonzero(bad.to_numpy())[0])
        raise InputError(f"node with non-positive capacity (line {i + 2})", file=str(path),
                         field="cpu_milli/memory_mib/gpu", value=df["sn"].iloc[i])
    if df["sn"].duplicated().any():
        raise InputError("duplicate node id", file=str(path), field="sn",
                         value=df["sn"][df["sn"].duplicated()].iloc[0])
    return pd.DataFrame({
        "sn": df["sn"].astype(str), "gpu": df["gpu"].astype(float),
        "cpu": df["cpu_milli"].astype(float) / 1000.0,
        "memory_gb": df["memory_mib"].astype(float) / MIB_PER_GIB,
        "model": df["model"].astype(str)})


def stratified_sample(groups: np.ndarray, n: int, rng: np.random.Generator) -> np.ndarray:
    """Indices of ``n`` items drawn without replacement, proportionally per group (largest
    remainder, ties by group name), sorted."""
    names, counts = np.unique(groups, return_counts=True)
    quota = n * counts / counts.sum()
    alloc = np.floor(quota).astype(int)
    order = sorted(range(len(names)), key=lambda k: (-(quota[k] - alloc[k]), names[k]))
    for k in order[: n - int(alloc.sum())]:
        alloc[k] += 1
    picked = [rng.choice(np.flatnonzero(groups == name), size=int(a), replace=False)
              for name, a in zip(names, alloc) if a]
    return np.sort(np.concatenate(picked)) if picked else np.array([], dtype=int)


def alibaba_cluster(rng: np.random.Generator, n_servers: int = 100, *, ps_fraction: float = 0.5,
                    roles: str = "split", path: str | Path | None = None,
                    storage_gb: float = STORAGE_GB,
                    nic_gbps: tuple[float, float] = NIC_GBPS) -> list[Server]:
    """A seeded, model-stratified sample of the Alibaba GPU nodes as Servers (module docstring).

    Server ids are the node serial numbers, ``kind`` the GPU model.  Workers come first, then
    PS servers (``roles="split"``)."""
    nodes = load_nodes(path)
    if (isinstance(n_servers, bool) or not isinstance(n_servers, (int, np.integer))
            or not 1 <= n_servers <= len(nodes)):
        raise InputError(f"must be an integer in 1..{len(nodes)} (nodes in the trace)",
                         field="n_servers", value=n_servers)
    if roles not in CLUSTER_ROLES:
        raise InputError(f"must be one of {', '.join(CLUSTER_ROLES)}", field="roles",
                         value=roles)
    lo, hi = (float(x) for x in nic_gbps)
    if not (0 < lo <= hi) or not np.isfinite(hi):
        raise InputError("must be a range 0 < low <= high", field="nic_gbps", value=nic_gbps)
    if not (np.isfinite(storage_gb) and storage_gb > 0):
        raise InputError("must be > 0", field="storage_gb", value=storage_gb)
    idx = stratified_sample(nodes["model"].to_numpy(), int(n_servers), rng)
    nics = np.round(rng.uniform(lo, hi, size=len(idx)), 2)
    if roles == "split":
        if not 0 < ps_fraction < 1 or n_servers < 2:
            raise InputError("needs 0 < ps_fraction < 1 and n_servers >= 2", field="ps_fraction",
                             value=ps_fraction)
        n_ps = min(len(idx) - 1, max(1, round(ps_fraction * len(idx))))
        is_ps = np.zeros(len(idx), dtype=bool)
        is_ps[rng.permutation(len(idx))[:n_ps]] = True
        role = np.where(is_ps, "ps", "worker")
    else:
        role = np.full(len(idx), "any")
    servers = []
    for want in (("worker", "any"), ("ps",)):
        for k, i in enumerate(idx):
            if role[k] not in want:
                continue
            row = nodes.iloc[int(i)]
            servers.append(Server(row["sn"], str(role[k]), {
                "gpu": float(row["gpu"]), "cpu": float(row["cpu"]),
                "memory_gb": float(row["memory_gb"]), "storage_gb": float(storage_gb),
                BANDWIDTH: float(nics[k])}, kind=row["model"]))
    return servers

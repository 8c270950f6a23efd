"""Cluster presets: EC2-like servers with the five shared resources.

Capacities follow the Amazon EC2 instance types the OASiS paper cites (seed 000, Sec. V-A):
P2 and G3 (GPU instances) and C4 (compute-optimized, no GPU).  Per type we take GPUs, vCPUs and
memory from the EC2 catalogue; the paper gives no disk size and sets server NIC bandwidth "within
[20, 50] Gbps", so

* ``storage_gb`` is a documented fixed amount, :data:`STORAGE_GB` = 1000 GB per server (worker and
  PS demands are 5-10 GB, so storage is never the binding resource, as in the paper);
* ``bandwidth_gbps`` is drawn uniformly in [20, 50] Gbps per server (:data:`NIC_GBPS`).

DECISION (roles).  Sec. V-A says worker servers are C4 and PS servers are P2/G3, but Sec. III says
"parameter servers are typically placed on machines with high bandwidth but without GPU, while
workers run on GPU servers", and the paper's workers demand 0-4 GPUs, which would fit nowhere on a
GPU-less C4.  We follow Sec. III: by default worker servers are drawn from P2/G3 and PS servers
from C4 (role assignment ``"gpu-workers"``).  The literal Sec. V-A reading stays available as
``roles="paper-v-a"`` (then only GPU-free workers fit), and any explicit type lists can be given.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from mlopt.errors import InputError
from mlopt.workload import Server

STORAGE_GB = 1000.0  # fixed per-server disk (the paper gives none)
NIC_GBPS = (20.0, 50.0)  # per-server NIC bandwidth range, Sec. V-A


@dataclass(frozen=True)
class InstanceType:
    """An EC2 instance type: GPUs, vCPUs, memory (GB)."""

    name: str
    gpu: int
    cpu: int
    memory_gb: float

    def capacity(self, bandwidth_gbps: float, storage_gb: float = STORAGE_GB) -> dict[str, float]:
        """The capacity vector of one server of this type."""
        return {"gpu": float(self.gpu), "cpu": float(self.cpu), "memory_gb": float(self.memory_gb),
                "storage_gb": float(storage_gb), "bandwidth_gbps": float(bandwidth_gbps)}


INSTANCE_TYPES: dict[str, InstanceType] = {t.name: t for t in (
    InstanceType("p2.xlarge", 1, 4, 61),
    InstanceType("p2.8xlarge", 8, 32, 488),
    InstanceType("p2.16xlarge", 16, 64, 732),
    InstanceType("g3.4xlarge", 1, 16, 122),
    InstanceType("g3.8xlarge", 2, 32, 244),
    InstanceType("g3.16xlarge", 4, 64, 488),
    InstanceType("c4.2xlarge", 0, 8, 15),
    InstanceType("c4.4xlarge", 0, 16, 30),
    InstanceType("c4.8xlarge", 0, 36, 60),
)}

# Instance families by EC2 prefix.
P2 = ("p2.xlarge", "p2.8xlarge", "p2.16xlarge")
G3 = ("g3.4xlarge", "g3.8xlarge", "g3.16xlarge")
C4 = ("c4.2xlarge", "c4.4xlarge", "c4.8xlarge")
GPU_TYPES = P2 + G3

# Role assignment name -> (worker server types, PS server types).  See the module docstring.
ROLE_ASSIGNMENTS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "gpu-workers": (GPU_TYPES, C4),  # Sec. III reading (default)
    "paper-v-a": (C4, GPU_TYPES),  # Sec. V-A taken literally
}


def _check_types(types: Sequence[str], field: str) -> tuple[str, ...]:
    types = tuple(types)
    if not types:
        raise InputError("must name at least one instance type", field=field, value=list(types))
    for t in types:
        if t not in INSTANCE_TYPES:
            raise InputError(f"unknown instance type (known: {', '.join(INSTANCE_TYPES)})",
                             field=field, value=t)
    return types


def _count(value, field: str, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < minimum:
        raise InputError(f"must be an integer >= {minimum}", field=field, value=value)
    return int(value)


def ec2_cluster(rng: np.random.Generator, n_worker_servers: int, n_ps_servers: int, *,
                roles: str = "gpu-workers", worker_types: Sequence[str] | None = None,
                ps_types: Sequence[str] | None = None, storage_gb: float = STORAGE_GB,
                nic_gbps: tuple[float, float] = NIC_GBPS) -> list[Server]:
    """Draw ``n_worker_servers`` worker servers then ``n_ps_servers`` PS servers.

    Each server's type is uniform over its role's type list (``roles`` picks the lists from
    :data:`ROLE_ASSIGNMENTS`; ``worker_types`` / ``ps_types`` override them), its NIC bandwidth
    uniform in ``nic_gbps`` (rounded to 0.01 Gbps), its disk ``storage_gb``.  Ids are ``w01..``
    and ``ps01..``; ``kind`` is the instance type.  Same generator state, same cluster.
    """
    if roles not in ROLE_ASSIGNMENTS:
        raise InputError(f"unknown role assignment (known: {', '.join(ROLE_ASSIGNMENTS)})",
                         field="roles", value=roles)
    default_w, default_p = ROLE_ASSIGNMENTS[roles]
    wtypes = _check_types(worker_types if worker_types is not None else default_w, "worker_types")
    ptypes = _check_types(ps_types if ps_types is not None else default_p, "ps_types")
    n_w = _count(n_worker_servers, "n_worker_servers", 1)
    n_p = _count(n_ps_servers, "n_ps_servers", 1)
    lo, hi = (float(x) for x in nic_gbps)
    if not (0 < lo <= hi) or not np.isfinite(hi):
        raise InputError("must be a range 0 < low <= high", field="nic_gbps", value=nic_gbps)
    if not (np.isfinite(storage_gb) and storage_gb > 0):
        raise InputError("must be > 0", field="storage_gb", value=storage_gb)

    servers: list[Server] = []
    for role, n, types, prefix in (("worker", n_w, wtypes, "w"), ("ps", n_p, ptypes, "ps")):
        kinds = rng.choice(len(types), size=n)
        # 0.01 Gbps granularity keeps the JSON readable; clipping keeps tiny ranges valid.
        nics = np.clip(np.round(rng.uniform(lo, hi, size=n), 2), lo, hi)
        width = max(2, len(str(n)))
        for k, (kind, nic) in enumerate(zip(kinds, nics), start=1):
            itype = INSTANCE_TYPES[types[kind]]
            servers.append(Server(f"{prefix}{k:0{width}d}", role,
                                  itype.capacity(float(nic), storage_gb), kind=itype.name))
    return servers


# Named cluster presets: parameters of ec2_cluster (the paper's sizes, Sec. V-A and Fig. 5).
CLUSTER_PRESETS: dict[str, dict] = {
    "ec2-paper": {"n_worker_servers": 50, "n_ps_servers": 50},  # H = K = 50
    "ec2-fig5": {"n_worker_servers": 2, "n_ps_servers": 2},  # "few servers" for the ILP
    "ec2-tiny": {"n_worker_servers": 1, "n_ps_servers": 1},
}


def cluster(name: str, rng: np.random.Generator, **overrides) -> list[Server]:
    """Build the named cluster preset, with keyword overrides of :func:`ec2_cluster` params."""
    if name not in CLUSTER_PRESETS:
        raise InputError(f"unknown cluster preset (known: {', '.join(CLUSTER_PRESETS)})",
                         field="cluster", value=name)
    return ec2_cluster(rng, **{**CLUSTER_PRESETS[name], **overrides})


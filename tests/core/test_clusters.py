"""EC2-like cluster presets (mlopt/clusters.py; seed 000 Sec. III-A and V-A)."""
from __future__ import annotations

import numpy as np
import pytest

from mlopt.clusters import (C4, CLUSTER_PRESETS, GPU_TYPES, INSTANCE_TYPES, NIC_GBPS, STORAGE_GB,
                            cluster, ec2_cluster)
from mlopt.errors import InputError


def test_instance_catalogue_matches_ec2():
    # (GPUs, vCPUs, GB) as listed by EC2 for the P2, G3 and C4 families.
    expected = {"p2.xlarge": (1, 4, 61), "p2.8xlarge": (8, 32, 488), "p2.16xlarge": (16, 64, 732),
                "g3.4xlarge": (1, 16, 122), "g3.8xlarge": (2, 32, 244),
                "g3.16xlarge": (4, 64, 488), "c4.2xlarge": (0, 8, 15), "c4.4xlarge": (0, 16, 30),
                "c4.8xlarge": (0, 36, 60)}
    assert {n: (t.gpu, t.cpu, t.memory_gb) for n, t in INSTANCE_TYPES.items()} == expected


def test_default_roles_gpu_workers_cpu_parameter_servers():
    servers = ec2_cluster(np.random.default_rng(0), 30, 20)
    workers = [s for s in servers if s.role == "worker"]
    ps = [s for s in servers if s.role == "ps"]
    assert len(workers) == 30 and len(ps) == 20
    assert {s.kind for s in workers} <= set(GPU_TYPES)
    assert {s.kind for s in ps} <= set(C4)
    assert all(s.capacity["gpu"] == 0 for s in ps)
    for s in servers:
        t = INSTANCE_TYPES[s.kind]
        assert (s.capacity["gpu"], s.capacity["cpu"], s.capacity["memory_gb"]) == (
            t.gpu, t.cpu, t.memory_gb)
        assert s.capacity["storage_gb"] == STORAGE_GB
        assert NIC_GBPS[0] <= s.capacity["bandwidth_gbps"] <= NIC_GBPS[1]
    assert [s.id for s in workers][:2] == ["w01", "w02"] and ps[0].id == "ps01"
    assert len({s.id for s in servers}) == 50


def test_role_assignment_is_a_parameter():
    servers = ec2_cluster(np.random.default_rng(0), 5, 5, roles="paper-v-a")
    assert {s.kind for s in servers if s.role == "worker"} <= set(C4)
    assert {s.kind for s in servers if s.role == "ps"} <= set(GPU_TYPES)
    servers = ec2_cluster(np.random.default_rng(0), 2, 1, worker_types=["p2.16xlarge"],
                          ps_types=["c4.8xlarge"], storage_gb=500, nic_gbps=(25, 25))
    assert [s.kind for s in servers] == ["p2.16xlarge", "p2.16xlarge", "c4.8xlarge"]
    assert all(s.capacity["storage_gb"] == 500 and s.capacity["bandwidth_gbps"] == 25
               for s in servers)


def test_same_generator_state_same_cluster():
    a = ec2_cluster(np.random.default_rng(7), 10, 10)
    b = ec2_cluster(np.random.default_rng(7), 10, 10)
    c = ec2_cluster(np.random.default_rng(8), 10, 10)
    assert a == b and a != c


def test_cluster_presets():
    assert CLUSTER_PRESETS["ec2-paper"] == {"n_worker_servers": 50, "n_ps_servers": 50}
    servers = cluster("ec2-paper", np.random.default_rng(0))
    assert len(servers) == 100
    assert len(cluster("ec2-tiny", np.random.default_rng(0), n_ps_servers=2)) == 3


@pytest.mark.parametrize("kwargs, field", [
    ({"roles": "nope"}, "roles"),
    ({"worker_types": ["p3.2xlarge"]}, "worker_types"),
    ({"ps_types": []}, "ps_types"),
    ({"n_worker_servers": 0}, "n_worker_servers"),
    ({"n_ps_servers": 1.5}, "n_ps_servers"),
    ({"nic_gbps": (50, 20)}, "nic_gbps"),
    ({"storage_gb": -1}, "storage_gb"),
])
def test_bad_cluster_parameters(kwargs, field):
    args = {"n_worker_servers": 2, "n_ps_servers": 2, **kwargs}
    with pytest.raises(InputError) as err:
        ec2_cluster(np.random.default_rng(0), **args)
    assert err.value.field == field


def test_unknown_cluster_preset():
    with pytest.raises(InputError) as err:
        cluster("ec2-huge", np.random.default_rng(0))
    assert err.value.field == "cluster" and err.value.value == "ec2-huge"

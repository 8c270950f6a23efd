"""Shared test helpers: tiny hand-built workloads and the ../shared location."""
from __future__ import annotations

import copy
from pathlib import Path

import pytest

from mlopt.workload import BANDWIDTH, Workload

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
DATA = Path(__file__).resolve().parent / "data"

needs_shared = pytest.mark.skipif(not (SHARED / "traces").is_dir(),
                                  reason="../shared/traces is not available")

RES = ["gpu", "cpu", "memory_gb", "storage_gb", BANDWIDTH]


def tiny_dict() -> dict:
    """Two jobs, T=3, one worker server and one PS server, round numbers.

    slot_seconds=100, minibatch_seconds=10, gradient_mb=0 -> chunk_slots = M*10/100 = 0.1*M.
    Job a: E=1, N=2, M=10 -> chunk_slots 1.0, work W = E*N*1.0 = 2 worker-slots.
    Job b: E=2, N=1, M=5  -> chunk_slots 0.5, work W = 2*1*0.5 = 1 worker-slot.
    """
    def job(jid, arrival, E, N, M, util):
        return {"id": jid, "arrival": arrival, "epochs": E, "chunks": N, "minibatches": M,
                "minibatch_seconds": 10.0, "gradient_mb": 0.0,
                "worker_demand": {"gpu": 1, "cpu": 2, "memory_gb": 4, "storage_gb": 5,
                                  BANDWIDTH: 1.0},
                "ps_demand": {"gpu": 0, "cpu": 1, "memory_gb": 2, "storage_gb": 5,
                              BANDWIDTH: 2.0},
                "utility": util}

    return {
        "schema_version": 1, "name": "tiny-hand", "horizon": 3, "slot_seconds": 100.0,
        "resources": RES,
        "servers": [
            {"id": "w1", "role": "worker", "capacity": {"gpu": 2, "cpu": 8, "memory_gb": 16,
                                                        "storage_gb": 100, BANDWIDTH: 10}},
            {"id": "p1", "role": "ps", "capacity": {"gpu": 0, "cpu": 4, "memory_gb": 8,
                                                    "storage_gb": 100, BANDWIDTH: 10}},
        ],
        "jobs": [job("a", 1, 1, 2, 10, {"kind": "constant", "value": 10.0}),
                 job("b", 1, 2, 1, 5, {"kind": "sigmoid", "gamma1": 8.0, "gamma2": 1.0,
                                       "gamma3": 1.0})],
        "meta": {"family": "oasis"},
    }


@pytest.fixture
def tiny_workload_dict():
    return copy.deepcopy(tiny_dict())


@pytest.fixture
def tiny_workload():
    return Workload.from_dict(tiny_dict())

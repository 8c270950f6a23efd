"""Seeded toy workloads: ``n_jobs`` unit jobs arriving over the horizon."""
import numpy as np

from mlopt.params import Param
from mlopt.workload import BANDWIDTH, Workload

PRESETS = {"tiny": {}}
PARAMS = {
    "n_jobs": Param.int(5, low=1, high=50),
    "n_servers": Param.int(2, low=1, high=5),
    "horizon": Param.int(3, low=1, high=20),
    "capacity": Param.int(4, low=1, high=64),
}


def params(preset: str) -> dict:
    return PARAMS


def generate(preset: str, seed: int = 0, **overrides) -> Workload:
    p = {**{k: v.default for k, v in PARAMS.items()}, **PRESETS[preset], **overrides}
    rng = np.random.default_rng(seed)
    demand = rng.integers(1, p["capacity"] + 1, size=p["n_jobs"])
    value = rng.integers(1, 20, size=p["n_jobs"])
    arrival = rng.integers(1, p["horizon"] + 1, size=p["n_jobs"])
    jobs = [{"id": f"j{i}", "arrival": int(arrival[i]), "epochs": 1, "chunks": 1,
             "minibatches": 1, "minibatch_seconds": 1.0, "gradient_mb": 0.0,
             "worker_demand": {"gpu": int(demand[i]), BANDWIDTH: 1.0},
             "ps_demand": {"gpu": 0, BANDWIDTH: 1.0},
             "utility": {"kind": "constant", "value": float(value[i])}}
            for i in range(p["n_jobs"])]
    servers = [{"id": f"s{k}", "role": "any",
                "capacity": {"gpu": p["capacity"], BANDWIDTH: 100.0}}
               for k in range(p["n_servers"])]
    return Workload.from_dict({
        "schema_version": 1, "name": f"toy-{preset}-s{seed}", "horizon": p["horizon"],
        "slot_seconds": 60.0, "resources": ["gpu", BANDWIDTH], "servers": servers,
        "jobs": jobs, "meta": {"family": "toy", "seed": seed}})

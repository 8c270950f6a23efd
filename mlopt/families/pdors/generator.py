"""PD-ORS instance generator, from the simulation settings of seed 004 (Numerical results).

``generate(preset, seed, **overrides)`` draws one machine pool and a job set from one
``numpy.random.Generator``: same seed and parameters, same workload bit for bit.

Given by the seed: E_i in [50, 200], K_i in [2e4, 5e5], g_i in [30, 575] MB, tau_i in
[1e-5, 1e-4], gamma_i in [1, 10], F_i in [1, 200]; worker: 0-4 GPUs, 1-10 CPUs, 2-32 GB memory,
5-10 GB storage; PS the same without GPU; sigmoid utility theta1 in [1, 100] (priority),
theta2 in [0.01, 1] (time sensitivity), theta3 in [1, 15] (target), stored as the shared
:class:`~mlopt.utility.Sigmoid` (gamma1, gamma2, gamma3) = (theta1, theta2, theta3).

DECISIONS where the seed is silent (notes 004, Sec. 5):

* units: tau_i in seconds per sample, slots of ``slot_seconds`` = 3600 s, bandwidth in Gbit/s;
* b^(e) uniform in [1, 10] Gbit/s per job, b^(i) = 100 Gbit/s (a memory bus is far faster
  than a link; only b^(i) > b^(e) matters for Fact 1);
* machines: uniform over EC2 p2.8xlarge (8 GPU / 32 CPU / 488 GB), p2.16xlarge (16 / 64 / 732)
  and g3.16xlarge (4 / 64 / 488), 1000 GB storage (as OASiS's cluster), all role ``any``;
  bandwidth is no PD-ORS resource, so every machine gets the non-binding bandwidth capacity
  :data:`~mlopt.families.pdors.fields.FREE_BANDWIDTH_GBPS` (the shared ``Workload``
  needs one; the core demands carry the OASiS-adapted b_i and B_i = gamma_i b_i);
* gamma_i and F_i are integers; arrivals i.i.d. uniform instants in [0, W) (W = horizon by
  default), slot 1 + floor(instant), as the OASiS generator;
* counts (E, K, gamma, F, GPUs, CPUs, GB) are uniform integers; the rest uniform reals rounded
  to 6 significant digits.

With the paper's ranges, communication is ~99.9% of a sample's time at external speed (median),
so co-location (internal speed) cuts a job's work about 20x, and about 22% of jobs cannot finish
within T = 20 at external speed even with F_i workers every slot (``meta.infeasible_share``
reports the share per instance: their utility is out of reach for every scheme but co-location).
"""
from __future__ import annotations

from functools import partial
from typing import Any, Callable

import numpy as np

from mlopt import limits
from mlopt.clusters import INSTANCE_TYPES, STORAGE_GB
from mlopt.errors import InputError
from mlopt.families.pdors.fields import FREE_BANDWIDTH_GBPS, MIN_WORK, core_fields, \
    validate_pdors, worker_slots
from mlopt.genparams import as_float_range, as_int_range, count_range, integers, real_range, \
    uniform6
from mlopt.params import Param, Schema, check_values
from mlopt.utility import Sigmoid
from mlopt.workload import DEFAULT_RESOURCES, Job, Server, Workload, validate

DEFAULTS: dict[str, Any] = {
    "n_jobs": 50,
    "horizon": 20,  # T
    "n_machines": 50,  # H
    "slot_seconds": 3600.0,
    "machine_types": ("p2.8xlarge", "p2.16xlarge", "g3.16xlarge"),
    "arrival_window": None,  # slots; None: the horizon
    "epochs": (50, 200),  # E_i
    "samples": (20000, 500000),  # K_i
    "param_mb": (30.0, 575.0),  # g_i
    "sample_seconds": (1e-5, 1e-4),  # tau_i
    "ps_ratio": (1, 10),  # gamma_i
    "batch": (1, 200),  # F_i
    "bw_external_gbps": (1.0, 10.0),  # b^(e)
    "bw_internal_gbps": 100.0,  # b^(i)
    "worker_gpu": (0, 4), "worker_cpu": (1, 10), "worker_memory_gb": (2, 32),
    "worker_storage_gb": (5, 10),
    "ps_cpu": (1, 10), "ps_memory_gb": (2, 32), "ps_storage_gb": (5, 10),
    "priority": (1.0, 100.0),  # theta1
    "decay": (0.01, 1.0),  # theta2
    "target": (1.0, 15.0),  # theta3, slots
}

PRESETS: dict[str, dict[str, Any]] = {
    # Fig. 6: vs FIFO/DRF/Dorm with a growing number of machines; T = 20, 50 jobs.
    "paper-fig6": {"n_jobs": 50, "horizon": 20, "n_machines": 50},
    # Fig. 7: growing number of jobs (10-50); T = 20, 100 hosts.
    "paper-fig7": {"n_jobs": 30, "horizon": 20, "n_machines": 100},
    # Fig. 8: vs OASiS, growing number of jobs; 50 hosts, T = 20.
    "paper-fig8": {"n_jobs": 50, "horizon": 20, "n_machines": 50},
    # Fig. 9: vs OASiS, growing number of machines; 100 jobs, T = 80.
    "paper-fig9": {"n_jobs": 100, "horizon": 80, "n_machines": 50},
    # Fig. 10: median training time; 30 hosts, T = 80, 100 jobs.
    "paper-fig10": {"n_jobs": 100, "horizon": 80, "n_machines": 30},
    # Small enough for the exact MILP (dmlrs_milp) to prove its optimum in seconds: 6 jobs,
    # T = 6, 2 machines.  SCALING: K_i in [2e3, 2e4] (paper 2e4-5e5) and F_i in [1, 12] keep
    # the integer ranges and the per-slot worker counts small; the rest are the paper's ranges.
    "small": {"n_jobs": 6, "horizon": 6, "n_machines": 2, "samples": (2000, 20000),
              "batch": (1, 12), "epochs": (10, 50), "arrival_window": 3,
              "param_mb": (30.0, 150.0), "ps_ratio": (1, 4), "bw_external_gbps": (2.0, 10.0)},
    # Hand-checkable: 3 jobs, T = 4, 2 machines.
    "tiny": {"n_jobs": 3, "horizon": 4, "n_machines": 2, "samples": (1000, 5000),
             "batch": (2, 6), "epochs": (5, 20), "arrival_window": 2,
             "machine_types": ("g3.16xlarge",), "param_mb": (30.0, 150.0), "ps_ratio": (1, 4),
             "bw_external_gbps": (2.0, 10.0)},
}


# integer ranges (uniform integer draws) and real ranges (uniform, 6 significant digits)
COUNT_RANGES = ("epochs", "samples", "ps_ratio", "batch")
DEMAND_RANGES = ("worker_gpu", "worker_cpu", "worker_memory_gb", "worker_storage_gb", "ps_cpu",
                 "ps_memory_gb", "ps_storage_gb")
REAL_RANGES = ("param_mb", "sample_seconds", "priority", "decay", "target")
_DOCS = {
    "n_jobs": "jobs", "horizon": "T, slots", "n_machines": "H, machines of the shared pool",
    "slot_seconds": "seconds per slot", "machine_types": "EC2 types drawn uniformly",
    "arrival_window": "arrivals uniform in [0, W) slots; null: W = T",
    "epochs": "E_i", "samples": "K_i", "ps_ratio": "gamma_i", "batch": "F_i",
    "param_mb": "g_i, MB", "sample_seconds": "tau_i, seconds per sample",
    "bw_external_gbps": "b^(e), Gbit/s", "bw_internal_gbps": "b^(i), Gbit/s (>= every b^(e))",
    "priority": "theta1", "decay": "theta2", "target": "theta3, slots",
}
#: most machine types one ``machine_types`` list may name (repeats weight the draw)
MAX_MACHINE_TYPES = 64


def params(preset: str) -> Schema:
    """The parameters every preset takes (defaults: the preset's values); see the module doc."""
    if preset not in PRESETS:
        raise InputError(f"unknown PD-ORS preset (known: {', '.join(PRESETS)})", field="preset",
                         value=preset)
    d = {**DEFAULTS, **PRESETS[preset]}
    doc = _DOCS.get
    schema: dict[str, Param] = {
        "n_jobs": Param.int(d["n_jobs"], low=1, high=limits.MAX_JOBS, doc=doc("n_jobs")),
        "horizon": Param.int(d["horizon"], low=1, high=limits.MAX_HORIZON, doc=doc("horizon")),
        "n_machines": Param.int(d["n_machines"], low=1, high=limits.MAX_SERVERS,
                                doc=doc("n_machines")),
        "slot_seconds": Param.float(d["slot_seconds"], low=0.0, low_open=True,
                                    doc=doc("slot_seconds")),
        "machine_types": Param.list(Param.choice(next(iter(INSTANCE_TYPES)), INSTANCE_TYPES),
                                    list(d["machine_types"]), min_items=1,
                                    max_items=MAX_MACHINE_TYPES, doc=doc("machine_types")),
        "arrival_window": Param.float(d["arrival_window"], low=0.0, low_open=True,
                                      high=limits.MAX_HORIZON, nullable=True,
                                      doc=doc("arrival_window")),
        "bw_external_gbps": real_range(d["bw_external_gbps"], low_open=True,
                                       doc=doc("bw_external_gbps")),
        "bw_internal_gbps": Param.float(d["bw_internal_gbps"], low=0.0, low_open=True,
                                        doc=doc("bw_internal_gbps")),
    }
    for key in COUNT_RANGES:
        schema[key] = count_range(d[key], low=1, doc=doc(key, ""))
    for key in DEMAND_RANGES:
        schema[key] = count_range(d[key], low=0, doc=f"per-{key.replace('_', ' ', 1)} demand")
    for key in REAL_RANGES:
        schema[key] = real_range(d[key], doc=doc(key, ""))
    return schema


def check_params(preset: str, overrides: dict) -> dict[str, Any]:
    """Every parameter of ``preset`` updated by ``overrides``, checked one by one (the declared
    schema) and together (below); returns the full parameter dict the draw uses."""
    schema = params(preset)
    checked = check_values(schema, overrides, where=f"preset {preset!r} of family pdors",
                           reserved={"seed": "the seed is --seed, not a parameter"})
    q = {**{k: v.default for k, v in schema.items()}, **checked}
    p: dict[str, Any] = {k: q[k] for k in ("n_jobs", "horizon", "n_machines")}
    p["slot_seconds"] = float(q["slot_seconds"])
    p["machine_types"] = tuple(q["machine_types"])
    cells = p["horizon"] * p["n_machines"] * len(DEFAULT_RESOURCES)
    if cells > limits.MAX_CELLS:
        raise InputError(f"horizon x machines x resources = {cells:,} is above the limit "
                         f"{limits.MAX_CELLS:,} (see mlopt.limits)", field="n_machines",
                         value=p["n_machines"])
    window = q["arrival_window"]
    if window is not None and window > p["horizon"]:
        raise InputError(f"must be <= the horizon T={p['horizon']}", field="arrival_window",
                         value=window)
    p["arrival_window"] = float(window if window is not None else p["horizon"])
    for key in COUNT_RANGES + DEMAND_RANGES:
        p[key] = as_int_range(q[key])
    for key in REAL_RANGES + ("bw_external_gbps",):
        p[key] = as_float_range(q[key])
    p["bw_internal_gbps"] = float(q["bw_internal_gbps"])
    if p["param_mb"][1] == 0 and p["sample_seconds"][1] == 0:
        raise InputError("a sample must take time", field="sample_seconds",
                         value=q["sample_seconds"])
    if p["bw_internal_gbps"] < p["bw_external_gbps"][1]:
        raise InputError("the internal (bus) bandwidth must be >= every external one",
                         field="bw_internal_gbps", value=q["bw_internal_gbps"])
    if p["worker_cpu"][0] + p["worker_memory_gb"][0] + p["worker_gpu"][0] \
            + p["worker_storage_gb"][0] <= 0:
        raise InputError("a worker must demand some resource: every lower bound is 0",
                         field="worker_cpu", value=q["worker_cpu"])
    # the largest job the ranges allow must stay a finite number of worker-slots (the family's
    # field check refuses more): E K (tau + 16 g gamma / (1000 F b^(e))) / slot_seconds
    (e, k, g, tau, gam) = (p["epochs"][1], p["samples"][1], p["param_mb"][1],
                           p["sample_seconds"][1], p["ps_ratio"][1])
    comm = 16.0 * g * gam / (1000.0 * p["batch"][0] * p["bw_external_gbps"][0])
    work = e * k * (tau + comm) / p["slot_seconds"]
    if not work <= limits.MAX_VALUE:
        raise InputError(f"the largest job these ranges allow needs {work:g} worker-slots, more "
                         f"than {limits.MAX_VALUE:g}: narrow epochs, samples, sample_seconds, "
                         "param_mb, ps_ratio, batch, bw_external_gbps or raise slot_seconds",
                         field="samples", value=q["samples"])
    # ... and the smallest one at least MIN_WORK (internal speed, the lowest ends)
    comm = 16.0 * p["param_mb"][0] * p["ps_ratio"][0] / (1000.0 * p["batch"][1]
                                                         * p["bw_internal_gbps"])
    work = p["epochs"][0] * p["samples"][0] * (p["sample_seconds"][0] + comm) \
        / p["slot_seconds"]
    if not work >= MIN_WORK:
        raise InputError(f"the smallest job these ranges allow needs {work:g} worker-slots, less "
                         f"than {MIN_WORK:g}: raise the low end of sample_seconds or param_mb",
                         field="sample_seconds", value=q["sample_seconds"])
    if not p["bw_internal_gbps"] / p["bw_external_gbps"][0] <= limits.MAX_VALUE:
        raise InputError(f"co-location may not speed a job up more than {limits.MAX_VALUE:g} "
                         "times", field="bw_internal_gbps", value=q["bw_internal_gbps"])
    # the order the workload's meta.params lists them in (unchanged since the first instances)
    order = ("n_jobs", "horizon", "n_machines", "slot_seconds", "machine_types",
             "arrival_window") + COUNT_RANGES + DEMAND_RANGES + (
        "param_mb", "sample_seconds", "bw_external_gbps", "bw_internal_gbps", "priority",
        "decay", "target")
    return {k: p[k] for k in order}


def _machines(rng, p) -> list[Server]:
    kinds = rng.choice(len(p["machine_types"]), size=p["n_machines"])
    width = max(2, len(str(p["n_machines"])))
    return [Server(f"m{k + 1:0{width}d}", "any",
                   INSTANCE_TYPES[p["machine_types"][kind]].capacity(FREE_BANDWIDTH_GBPS,
                                                                     STORAGE_GB),
                   kind=p["machine_types"][kind])
            for k, kind in enumerate(kinds)]


def _draw(p: dict, seed: int) -> tuple[list[Server], list[Job]]:
    rng = np.random.default_rng(seed)
    servers = _machines(rng, p)
    n = p["n_jobs"]
    arrivals = 1 + np.floor(np.sort(rng.uniform(0.0, p["arrival_window"], size=n))).astype(int)
    arrivals = np.minimum(arrivals, p["horizon"])
    E = integers(rng, p["epochs"], n)
    K = integers(rng, p["samples"], n)
    g = uniform6(rng, p["param_mb"], n)
    tau = uniform6(rng, p["sample_seconds"], n)
    gamma = integers(rng, p["ps_ratio"], n)
    F = integers(rng, p["batch"], n)
    be = uniform6(rng, p["bw_external_gbps"], n)
    wdem = np.column_stack([integers(rng, p[k], n) for k in (
        "worker_gpu", "worker_cpu", "worker_memory_gb", "worker_storage_gb")]).astype(float)
    sdem = np.column_stack([np.zeros(n)] + [integers(rng, p[k], n) for k in (
        "ps_cpu", "ps_memory_gb", "ps_storage_gb")]).astype(float)
    th1 = uniform6(rng, p["priority"], n)
    th2 = uniform6(rng, p["decay"], n)
    th3 = uniform6(rng, p["target"], n)
    res = list(DEFAULT_RESOURCES)
    width = max(3, len(str(n)))
    jobs = []
    for i in range(n):
        extra = {"samples": int(K[i]), "batch": int(F[i]), "ps_ratio": int(gamma[i]),
                 "sample_seconds": float(tau[i]), "param_mb": float(g[i]),
                 "bw_internal_gbps": p["bw_internal_gbps"], "bw_external_gbps": float(be[i])}
        c = core_fields(extra, int(E[i]), res)
        wd = dict(zip(res[:4], map(float, wdem[i])), **{res[4]: c["worker_bw"]})
        sd = dict(zip(res[:4], map(float, sdem[i])), **{res[4]: c["ps_bw"]})
        jobs.append(Job(f"j{i + 1:0{width}d}", int(arrivals[i]), c["epochs"], c["chunks"],
                        c["minibatches"], c["minibatch_seconds"], c["gradient_mb"], wd, sd,
                        Sigmoid(float(th1[i]), float(th2[i]), float(th3[i])), extra))
    return servers, jobs


def _jsonable(value):
    return list(value) if isinstance(value, tuple) else value


def generate(preset: str = "paper-fig6", seed: int = 0, **overrides) -> Workload:
    """Draw a PD-ORS workload from ``PRESETS[preset]`` updated by ``overrides`` (the names of
    :func:`params`).  Bad preset, parameter name or value -> :class:`InputError`."""
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise InputError("must be an integer >= 0", field="seed", value=seed)
    p = check_params(preset, overrides)
    servers, jobs = _draw(p, int(seed))
    T = p["horizon"]
    late = [j for j in jobs if j.arrival - 1 + worker_slots_per_cap(j, p) > T]
    meta = {
        "family": "pdors", "generator": "pdors", "paper": "004_ae39656865c572fa (PD-ORS)",
        "preset": preset, "seed": int(seed), "params": {k: _jsonable(v) for k, v in p.items()},
        "overrides": sorted(overrides),
        # jobs that cannot finish by T at external speed even with F_i workers every slot
        "infeasible_share": len(late) / len(jobs),
    }
    w = Workload(f"pdors-{preset}-s{seed}", T, p["slot_seconds"], DEFAULT_RESOURCES,
                 tuple(servers), tuple(jobs), meta)
    validate(w)
    validate_pdors(w)
    return w


def worker_slots_per_cap(job: Job, p: dict) -> float:
    """Fewest slots at external speed with F_i workers every slot."""
    class _W:  # the slot length is all worker_slots needs from a workload
        slot_seconds = p["slot_seconds"]
    return float(np.ceil(worker_slots(_W, job, "ext") / job.extra["batch"] - 1e-9))


PRESET_GENERATORS: dict[str, Callable[..., Workload]] = {
    name: partial(generate, name) for name in PRESETS
}

"""Seeded edge-cloud instance generator, calibrated to seed 001, Sec. V-A (simulator).

``generate(preset, seed, **overrides)`` draws everything from one ``numpy.random.Generator``:
same seed and parameters, same workload bit for bit.  Paper ranges (Sec. V-A):

* job model from Table II (uniformly): D_j / B_j = 27/58 (ResNet-50, ResNet-101 on CIFAR10),
  115/58 (GoogLeNet, LeNet on Caltech101), 60/58 (AlexNet, Inception-BN on ImageNet-12);
* E_j in [20, 60]; m_j in [0.001, 0.05] h; G_j in [10, 100] ms; q_j in [30, 575] MB;
  b_j in [100, 5*1024] Mbps;
* upload delay of a chunk: [1, 4] slots to an edge server, [10, 15] slots to the cloud;
* 8-10 worker types and 8-10 PS types, each worker and PS slot of a server of a random type.

DECISION (servers).  The paper takes worker/PS counts per server from a trace's GPUs and CPUs
(unnamed).  We draw ``workers_per_server`` and ``ps_per_server`` uniformly (defaults 1-8, the
GPU counts of Philly-like machines).  A job's worker (PS) type is drawn among the types present
on the edge, so every job is eligible on some edge server (A_online-E needs one).

DECISION (arrivals).  The traces are unnamed; arrivals are i.i.d. uniform instants over
``arrival_window`` slots (a Poisson process conditioned on n_jobs arrivals), job arrives in slot
1 + floor(instant).  ``gpus`` (the non-elastic baselines' worker count) is drawn from
{1, 2, 4, 8} with Philly-like shares 0.6 / 0.2 / 0.1 / 0.1, capped at D_j.

Trace-driven (``trace = "philly"`` or ``"itp"``, preset ``trace-philly``): arrivals and GPU
counts come from consecutive rows of the trace through :mod:`mlopt.traces` (one slot = one hour
of trace time, as the paper's testbed maps submission times), the rest is drawn as above.

DECISION (scaled presets).  ``paper-ratio`` (Fig. 12-13: the offline optimum must be solvable
at 5-25 jobs) scales a job down: chunks = ceil(D_j * chunk_scale) with chunk_scale = 0.05
(27 -> 2, 60 -> 3, 115 -> 6), E in [1, 3], upload delays edge [1, 2] / cloud [3, 5] slots
(the paper's cloud/edge contrast at the scaled chunk times of 1-9 slots).  ``tiny`` is smaller.

The horizon T is set to max_j H_j (every job finished when run entirely in the cloud), the
slot bound the exact model needs; algorithms may finish later (the checker allows it: "T is set
to be large enough to complete all jobs").
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from mlopt import limits
from mlopt.errors import InputError
from mlopt.params import Param, check_values
from mlopt.utility import Constant
from mlopt.workload import BANDWIDTH, Job, Server, Workload, validate as validate_workload

from mlopt.families.edgecloud.fields import KEY, EdgeCloud

DATASET_GB = {"CIFAR10": 0.170, "Caltech101": 0.131, "ImageNet-12": 0.1018}
TABLE_II = (  # (model, dataset, D_j, B_j)
    ("ResNet-50", "CIFAR10", 27, 58), ("ResNet-101", "CIFAR10", 27, 58),
    ("GoogLeNet", "Caltech101", 115, 58), ("LeNet", "Caltech101", 115, 58),
    ("AlexNet", "ImageNet-12", 60, 58), ("Inception-BN", "ImageNet-12", 60, 58),
)
GPU_CHOICES = (1, 2, 4, 8)
GPU_SHARES = (0.6, 0.2, 0.1, 0.1)

DEFAULTS: dict[str, Any] = {
    "n_jobs": 300,
    "n_edge": 100,  # edge servers (the cloud is added)
    "slot_seconds": 3600.0,  # 1 slot = 1 h (Sec. V-A)
    "arrival_window": 150.0,  # slots
    "worker_types": (8, 10),
    "ps_types": (8, 10),
    "workers_per_server": (1, 8),
    "ps_per_server": (1, 8),
    "chunk_scale": 1.0,  # D_j = ceil(Table II D * chunk_scale)
    "minibatches": None,  # None: Table II's B_j; else a range
    "epochs": (20, 60),
    "minibatch_hours": (0.001, 0.05),  # m_j
    "ps_update_ms": (10.0, 100.0),  # G_j
    "gradient_mb": (30.0, 575.0),  # q_j
    "bandwidth_mbps": (100.0, 5120.0),  # b_j
    "delay_edge": (1, 4),
    "delay_cloud": (10, 15),
    # storage extension (7)/(8): None, or a range of edge storage_gb per server; chunk size
    # u_j = the job's dataset (Table II: CIFAR10 170 MB, Caltech101 131 MB, ImageNet-12 101.8 MB)
    # split into its D_j chunks, times chunk_gb_scale
    "storage_gb": None,
    "chunk_gb_scale": 1.0,
    # trace-driven arrivals and GPU counts (mlopt.traces): None, "philly" or "itp"
    "trace": None,
    "trace_start": 0,  # first trace row used (rows are sorted by arrival)
    "trace_time_scale": 1.0,  # submission times are multiplied by this (< 1: denser)
}

PRESETS: dict[str, dict[str, Any]] = {
    "paper-sim": {},  # Sec. V-A simulator: 300 jobs, 100 edge servers
    "paper-ratio": {  # Fig. 12-13 scale (see DECISION (scaled presets))
        "n_jobs": 10, "n_edge": 5, "arrival_window": 5.0, "chunk_scale": 0.05,
        "epochs": (1, 3), "delay_edge": (1, 2), "delay_cloud": (3, 5),
        "workers_per_server": (1, 4), "ps_per_server": (1, 4),
        "worker_types": (2, 3), "ps_types": (2, 3),
    },
    # Sec. V-A workload from a trace: arrivals (1 slot = 1 h) and GPU counts of consecutive
    # Philly jobs (the paper's traces are unnamed), everything else drawn as in paper-sim;
    # chunk_scale 0.25 keeps it at 2-core scale.
    "trace-philly": {"trace": "philly", "n_jobs": 100, "n_edge": 30, "chunk_scale": 0.25,
                     "trace_start": 1000},
    "tiny": {  # a few jobs on two edge servers: exact model in well under a second
        "n_jobs": 3, "n_edge": 2, "arrival_window": 3.0, "chunk_scale": 0.02,
        "epochs": (1, 2), "delay_edge": (1, 1), "delay_cloud": (2, 4),
        "workers_per_server": (1, 2), "ps_per_server": (1, 2), "worker_types": (1, 1),
        "ps_types": (1, 1),
    },
}


# ---- declared parameters ---------------------------------------------------------------------
# Caps (DECISION): far above the paper (300 jobs, 100 edge servers, 8 GPUs a machine, 10 types,
# E <= 60, B_j = 58, D_j <= 115) and low enough that no accepted value makes the generator grind
# or overflow; a value whose workload is still beyond mlopt.limits (e.g. a horizon above
# MAX_HORIZON from huge chunk times) is refused with InputError by the workload validation.
#: worker (PS) slots per edge server and worker (PS) types
MAX_SLOTS_PER_SERVER = 64
MAX_TYPES = 100
#: n_jobs x (n_edge + 1) upload delays drawn and stored (one JSON number each)
MAX_DELAY_ENTRIES = 1_000_000
MAX_EPOCHS = 100_000
MAX_MINIBATCHES = 1_000_000
#: chunks = ceil(D_j x chunk_scale) with D_j <= 115: at most 1,150 (fields.MAX_CHUNKS 2,000)
MAX_CHUNK_SCALE = 10.0
#: hours of one mini-batch, ms of one PS update, MB of one gradient, Mbit/s of bandwidth
MAX_MINIBATCH_HOURS = 1_000.0
MAX_MS = 1e6
MAX_MB = 1e6
MAX_MBPS = 1e7
MAX_TRACE_ROW = 100_000_000
MAX_TIME_SCALE = 1e6

_H = limits.MAX_HORIZON
SCHEMA: dict[str, Param] = {
    "n_jobs": Param.int(low=1, high=limits.MAX_JOBS, doc="jobs"),
    "n_edge": Param.int(low=1, high=limits.MAX_SERVERS - 1, doc="edge servers (+ the cloud)"),
    "slot_seconds": Param.float(low=1.0, high=limits.MAX_VALUE, doc="seconds of one slot"),
    "arrival_window": Param.float(low=0.0, high=float(_H - 1), low_open=True,
                                  doc="arrivals uniform over this many slots"),
    "worker_types": Param.range(low=1, high=MAX_TYPES, integer=True, doc="worker types"),
    "ps_types": Param.range(low=1, high=MAX_TYPES, integer=True, doc="PS types"),
    "workers_per_server": Param.range(low=1, high=MAX_SLOTS_PER_SERVER, integer=True,
                                      doc="worker slots per edge server"),
    "ps_per_server": Param.range(low=1, high=MAX_SLOTS_PER_SERVER, integer=True,
                                 doc="PS slots per edge server"),
    "chunk_scale": Param.float(low=0.0, high=MAX_CHUNK_SCALE, low_open=True,
                               doc="D_j = ceil(Table II D x chunk_scale)"),
    "minibatches": Param.range(low=1, high=MAX_MINIBATCHES, integer=True, nullable=True,
                               doc="B_j range (null: Table II)"),
    "epochs": Param.range(low=1, high=MAX_EPOCHS, integer=True, doc="E_j"),
    "minibatch_hours": Param.range(low=0.0, high=MAX_MINIBATCH_HOURS, doc="m_j (hours)"),
    "ps_update_ms": Param.range(low=0.0, high=MAX_MS, doc="G_j (ms)"),
    "gradient_mb": Param.range(low=0.0, high=MAX_MB, doc="q_j (MB)"),
    "bandwidth_mbps": Param.range(low=1.0, high=MAX_MBPS, doc="b_j (Mbit/s)"),
    "delay_edge": Param.range(low=0, high=_H, integer=True, doc="upload delay to an edge "
                              "server (slots)"),
    "delay_cloud": Param.range(low=0, high=_H, integer=True, doc="upload delay to the cloud "
                               "(slots)"),
    "storage_gb": Param.range(low=0.0, high=limits.MAX_VALUE, nullable=True,
                              doc="storage extension: edge storage_gb range (null: none)"),
    "chunk_gb_scale": Param.float(low=0.0, high=MAX_MB, low_open=True,
                                  doc="u_j scale (storage extension only)"),
    "trace": Param.choice("philly", ("philly", "itp"), doc="the trace of arrivals and GPUs"),
    "trace_start": Param.int(low=0, high=MAX_TRACE_ROW, doc="first trace row used"),
    "trace_time_scale": Param.float(low=0.0, high=MAX_TIME_SCALE, low_open=True,
                                    doc="submission times are multiplied by this"),
}
TRACE_ONLY = ("trace", "trace_start", "trace_time_scale")


def _preset(preset: str) -> dict[str, Any]:
    if not isinstance(preset, str) or preset not in PRESETS:
        raise InputError(f"unknown edgecloud preset (known: {', '.join(PRESETS)})",
                         field="preset", value=preset)
    return {**DEFAULTS, **PRESETS[preset]}


def params(preset: str) -> dict[str, Param]:
    """The parameters ``preset`` takes, defaults = the preset's values.  A trace preset takes
    the trace parameters and not ``arrival_window`` (arrivals come from the trace); the other
    presets take no trace parameter."""
    base = _preset(preset)
    traced = base["trace"] is not None
    skip = ("arrival_window",) if traced else TRACE_ONLY
    return {k: p.with_default(base[k]) for k, p in SCHEMA.items() if k not in skip}


def check_params(preset: str, overrides: dict) -> None:
    """Relations between parameters (each one is checked on its own by ``params``)."""
    p = {**_preset(preset), **overrides}
    cells = p["n_jobs"] * (p["n_edge"] + 1)
    if cells > MAX_DELAY_ENTRIES:
        raise InputError(f"n_jobs x (n_edge + 1) = {cells:,} upload delays is above "
                         f"{MAX_DELAY_ENTRIES:,}", field="n_jobs", value=p["n_jobs"])
    if p["chunk_gb_scale"] != DEFAULTS["chunk_gb_scale"] and p["storage_gb"] is None:
        raise InputError("applies to the storage extension only: set storage_gb too",
                         field="chunk_gb_scale", value=overrides["chunk_gb_scale"])


def resolve(preset: str, overrides: dict) -> dict[str, Any]:
    """Every parameter of ``preset`` with ``overrides`` checked and applied (ranges as tuples)."""
    base = _preset(preset)
    checked = check_values(params(preset), overrides,
                           where=f"preset {preset!r} of family edgecloud",
                           reserved={"seed": "the seed is --seed, not a parameter"})
    check_params(preset, checked)
    for k, v in checked.items():  # numbers as the kind says (3600 -> 3600.0 seconds)
        kind = SCHEMA[k]
        if v is not None and kind.kind == "float":
            checked[k] = float(v)
        elif v is not None and kind.kind == "range" and not kind.integer:
            checked[k] = (float(v[0]), float(v[1]))
    p = {**base, **checked}
    return {k: (tuple(v) if isinstance(v, list) else v) for k, v in p.items()}


def _trace_arrivals(p: dict, slot_seconds: float):
    """Arrival slots and GPU counts of ``n_jobs`` consecutive trace jobs from ``trace_start``
    (DECISION, as in the paper's testbed: one slot = ``slot_seconds`` of trace time, the first
    job at slot 1; submission times scaled by ``trace_time_scale``)."""
    from mlopt.traces import load_trace

    table, _ = load_trace(p["trace"])
    rows = table.iloc[p["trace_start"]:p["trace_start"] + p["n_jobs"]]
    if len(rows) < p["n_jobs"]:
        raise InputError(f"the trace has only {len(table)} usable rows", field="trace_start",
                         value=p["trace_start"])
    a = rows["arrival_s"].to_numpy(dtype=float)
    slots = 1 + np.floor((a - a[0]) * p["trace_time_scale"] / slot_seconds).astype(int)
    return slots, rows["gpus"].to_numpy(dtype=int)


def _u(rng, r, size=None):
    """Uniform real, rounded to 6 significant digits (readable JSON), kept inside the range."""
    x = rng.uniform(r[0], r[1], size=size)
    return np.clip(np.vectorize(lambda v: float(f"{v:.6g}"))(x), r[0], r[1])


def _i(rng, r, size=None):
    return rng.integers(r[0], r[1], size=size, endpoint=True)


def generate(preset: str, seed: int = 0, **overrides) -> Workload:
    """Generate a seeded edge-cloud workload from the named preset and overrides."""
    p = resolve(preset, overrides)
    rng = np.random.default_rng(seed)
    n_wt, n_pt = int(_i(rng, p["worker_types"])), int(_i(rng, p["ps_types"]))
    wtypes = [f"w{k}" for k in range(n_wt)]
    ptypes = [f"p{k}" for k in range(n_pt)]
    edge = [f"e{k}" for k in range(p["n_edge"])]
    slots: dict[str, dict] = {}
    for s in edge:
        nw, npp = int(_i(rng, p["workers_per_server"])), int(_i(rng, p["ps_per_server"]))
        w = rng.choice(n_wt, size=nw)
        q = rng.choice(n_pt, size=npp)
        slots[s] = {"workers": {wtypes[t]: int((w == t).sum()) for t in sorted(set(w))},
                    "ps": {ptypes[t]: int((q == t).sum()) for t in sorted(set(q))}}
    present_w = sorted({t for s in edge for t in slots[s]["workers"]})
    present_p = sorted({t for s in edge for t in slots[s]["ps"]})
    cloud = "cloud"
    # Capacities of the shared model: only bandwidth matters here (b_j must fit somewhere);
    # the worker/PS slots by type are in extra.edgecloud.
    servers = [Server(s, "any", {BANDWIDTH: 10.0}, location="edge") for s in edge]
    servers.append(Server(cloud, "any", {BANDWIDTH: 1e6}, location="cloud"))

    n = p["n_jobs"]
    arrivals = 1 + np.floor(np.sort(rng.uniform(0.0, p["arrival_window"], size=n))).astype(int)
    trace_gpus = None
    if p["trace"] is not None:  # the uniform draw above is still made: same stream either way
        arrivals, trace_gpus = _trace_arrivals(p, p["slot_seconds"])
    models = rng.integers(0, len(TABLE_II), size=n)
    epochs = _i(rng, p["epochs"], n)
    m_h = _u(rng, p["minibatch_hours"], n)
    g_ms = _u(rng, p["ps_update_ms"], n)
    q_mb = _u(rng, p["gradient_mb"], n)
    b_mbps = _u(rng, p["bandwidth_mbps"], n)
    wt = rng.integers(0, len(present_w), size=n)
    pt = rng.integers(0, len(present_p), size=n)
    gpus = rng.choice(GPU_CHOICES, size=n, p=GPU_SHARES)
    if trace_gpus is not None:
        gpus = np.maximum(1, trace_gpus)
    d_edge = _i(rng, p["delay_edge"], (n, len(edge)))
    d_cloud = _i(rng, p["delay_cloud"], n)
    if p["storage_gb"] is not None:  # drawn last: workloads without storage keep their stream
        store = _u(rng, p["storage_gb"], len(edge))
        for k, s in enumerate(edge):
            slots[s]["storage_gb"] = float(store[k])
    mb = None if p["minibatches"] is None else _i(rng, p["minibatches"], n)
    jobs = []
    for i in range(n):
        name, data, d_full, b_full = TABLE_II[models[i]]
        chunks = max(1, math.ceil(d_full * p["chunk_scale"] - 1e-9))
        delay = {s: int(d_edge[i, k]) for k, s in enumerate(edge)}
        delay[cloud] = int(d_cloud[i])
        bw = float(b_mbps[i]) / 1000.0  # Mbit/s -> Gbit/s (the shared model's unit)
        jobs.append(Job(
            id=f"j{i}", arrival=int(arrivals[i]), epochs=int(epochs[i]), chunks=chunks,
            minibatches=int(b_full if mb is None else mb[i]),
            minibatch_seconds=float(m_h[i]) * 3600.0, gradient_mb=float(q_mb[i]),
            worker_demand={BANDWIDTH: bw}, ps_demand={BANDWIDTH: bw},
            utility=Constant(1.0),  # unused: the objective is total JCT
            extra={**({"chunk_gb": float(f"{DATASET_GB[data] * p['chunk_gb_scale'] / chunks:.6g}")}
                      if p["storage_gb"] is not None else {}),
                   "worker_type": present_w[wt[i]], "ps_type": present_p[pt[i]],
                   "delay": delay, "ps_update_seconds": float(g_ms[i]) / 1000.0,
                   "gpus": int(min(gpus[i], chunks)), "model": f"{name}/{data}"}))
    extra = {KEY: {"cloud": cloud, "servers": slots}}
    meta = {"family": "edgecloud", "generator": "edgecloud", "preset": preset, "seed": seed,
            "params": {k: (list(v) if isinstance(v, tuple) else v) for k, v in p.items()}}
    w = Workload(f"edgecloud-{preset}-{seed}", int(arrivals.max()), p["slot_seconds"],
                 (BANDWIDTH,), tuple(servers), tuple(jobs), meta, extra)
    ec = EdgeCloud(w)
    horizon = max([ec.horizon_bound(jv) for jv in ec.jobs] + [int(arrivals.max())])
    w = Workload(w.name, horizon, w.slot_seconds, w.resources, w.servers, w.jobs, meta, extra)
    return validate_workload(w)

"""Seeded instance generator for the hetero family, calibrated to seed 003, Sec. 7.

``generate(preset, seed, **overrides)`` draws servers, worker/PS types and jobs from one
``numpy.random.Generator``: same seed and parameters, same workload bit for bit.
``params(preset)`` declares the parameters each preset takes (with its values as defaults and
the documented caps below); :meth:`mlopt.families.base.Family.generate` checks them first.  A
draw in which no job can be placed (no worker/PS type combination fits the empty cluster) is
refused naming the parameters, and the workload is validated by :mod:`.fields` before it is
returned.

Paper settings (Sec. 7): T in [100, 300] (default 150), slot = 1 h, H = 150 servers shaped like
EC2 P3 / P2 / G3, M = 8 worker types (1-4 GPUs, 1-16 vCPUs, 100 Mbps - 5 Gbps), P = 10 PS types
(1-16 vCPUs, 5-20 Gbps); w in [200, 5000], E in [50, 100], D in [5, 50], K in [10, 50],
U in [10, 100] ms, v in [0.001, 0.05] slots, pi in [30, 575] MB.

DECISIONS (the paper is silent):
* Server shapes (GPUs, vCPUs, memory GB, NIC Gbps) are public EC2 sizes of P3/P2/G3
  (:data:`SERVER_SHAPES`); memory of types is drawn in [8, 64] GB; PSs use no GPU.
* v_jm: independent draws would make the type choice arbitrary; we draw a per-job base time
  v_j in the paper's range and set v_jm = max(v_lo, v_j * g_m^-speedup_exp) (sublinear GPU
  speed-up, g_m the type's GPUs, exponent 0.5), so more GPUs help, less than proportionally.
* U_j^p is drawn per (job, PS type) in the range; the RA reduce time U_j in the same range.
* Arrivals: uniform integers on [1, arrival_window] (default: T).
* Traces (``trace`` = "philly", "itp", ...; presets ``trace-philly``, ``trace-itp`` and their
  ``-ra`` twins): ``n_jobs`` consecutive trace rows from ``trace_start`` give each job its
  arrival (1 + floor(submission offset x ``trace_time_scale`` / slot), the first job at slot 1),
  its chunks (D_j = GPUs clipped to ``chunks``), its epochs (E_j = round(duration / (K_j p_j))
  with p_j the time per mini-batch of its fastest co-located configuration, so that run at full
  width it takes about the recorded duration x ``trace_duration_scale``) and optionally its
  weight (``trace_weight``: "random" = the paper's draw, "size" = GPU-hour rank, "tenant" = one
  draw per virtual cluster); the rest is drawn as above.  Full mapping and its reasons:
  :mod:`mlopt.families.hetero.trace`.
* The capacity ratio ("[0.2, 0.5] of the total ideal demand") is not enforced: the generator
  records the ratio of the cluster's GPUs to the summed per-slot GPUs of every job's ideal
  configuration (N = D_j workers of its best type) in ``meta["capacity_ratio_gpu"]``; choose
  ``n_servers`` / ``n_jobs`` to land in the paper's range.
"""
from __future__ import annotations

import math
from functools import partial
from typing import Any

import numpy as np
import pandas as pd

from mlopt.errors import InputError
from mlopt.families.hetero.fields import (MAX_TYPES, MIN_POSITIVE, fitting_pairs, parse_fields,
                                          validate_hetero)
from mlopt.families.hetero.trace import (JOB_TRACES, WEIGHT_MODES, check_trace_params,
                                         epochs_from_duration, trace_rows, trace_weights)
from mlopt.limits import MAX_COUNT, MAX_HORIZON, MAX_JOBS, MAX_SERVERS, MAX_VALUE
from mlopt.params import Param, check_values
from mlopt.utility import utility_from_dict
from mlopt.workload import BANDWIDTH, Job, Server, Workload, validate

RESOURCES = ("gpu", "cpu", "memory_gb", BANDWIDTH)
# EC2 shapes (public specs): GPUs, vCPUs, memory (GiB), NIC (Gbps; "up to 10" taken as 10)
SERVER_SHAPES: dict[str, tuple[float, float, float, float]] = {
    "p3.2xlarge": (1, 8, 61, 10), "p3.8xlarge": (4, 32, 244, 10),
    "p3.16xlarge": (8, 64, 488, 25),
    "p2.xlarge": (1, 4, 61, 10), "p2.8xlarge": (8, 32, 488, 10), "p2.16xlarge": (16, 64, 732, 25),
    "g3.4xlarge": (1, 16, 122, 10), "g3.8xlarge": (2, 32, 244, 10),
    "g3.16xlarge": (4, 64, 488, 25),
}

DEFAULTS: dict[str, Any] = {
    "architecture": "ps",
    "n_jobs": 100,
    "horizon": 150,
    "slot_seconds": 3600.0,
    "n_servers": 150,
    "server_shapes": tuple(SERVER_SHAPES),
    "capacity_scale": 1.0,  # multiplies every server capacity (tiny presets shrink servers)
    "n_worker_types": 8,
    "n_ps_types": 10,
    "worker_gpu": (1, 4),
    "worker_cpu": (1, 16),
    "worker_memory_gb": (8, 64),
    "worker_bandwidth_gbps": (0.1, 5.0),
    "ps_cpu": (1, 16),
    "ps_memory_gb": (8, 64),
    "ps_bandwidth_gbps": (5.0, 20.0),
    "arrival_window": None,
    "weight": (200.0, 5000.0),
    "epochs": (50, 100),
    "chunks": (5, 50),
    "minibatches": (10, 50),
    "update_ms": (10.0, 100.0),
    "minibatch_slots": (0.001, 0.05),
    "speedup_exp": 0.5,
    "gradient_mb": (30.0, 575.0),
    # trace-driven jobs (mlopt.families.hetero.trace): None or a job trace's name
    "trace": None,
    "trace_path": None,  # a file in the trace's format; None: the shared copy
    "trace_start": 0,  # first trace row used (rows sorted by submission time)
    "trace_time_scale": 1.0,  # submission offsets are multiplied by this (< 1: denser)
    "trace_duration_scale": 1.0,  # recorded durations are multiplied by this
    "trace_weight": "random",  # random | size | tenant
}

PRESETS: dict[str, dict[str, Any]] = {
    # Sec. 7 defaults (T = 150, H = 150, M = 8, P = 10); n_jobs 100 (the paper sweeps it)
    "paper-default": {},
    "paper-default-ra": {"architecture": "ra"},
    # 2-core scale of the paper's setting: same ranges, a smaller cluster and fewer jobs
    "bench": {"n_jobs": 40, "n_servers": 30, "horizon": 150},
    "bench-ra": {"n_jobs": 40, "n_servers": 30, "horizon": 150, "architecture": "ra"},
    # provably solvable by the exact MILP in seconds: 5 jobs, 2 small servers, 2+2 types,
    # D <= 3 and short mini-batch counts so durations are 1-6 slots
    "small": {
        "n_jobs": 5, "horizon": 6, "n_servers": 2, "server_shapes": ("g3.8xlarge",),
        "n_worker_types": 2, "n_ps_types": 2, "worker_gpu": (1, 2), "worker_cpu": (1, 8),
        "ps_cpu": (1, 8), "epochs": (1, 2), "chunks": (1, 3), "minibatches": (2, 4),
        "minibatch_slots": (0.2, 0.6), "arrival_window": 4, "ps_bandwidth_gbps": (2.0, 8.0),
    },
    # the bench cluster fed by consecutive Philly jobs (arrivals, widths, durations; weights one
    # per virtual cluster) and by ITP jobs (no tenants: the paper's weight draw)
    "trace-philly": {"trace": "philly", "n_jobs": 40, "n_servers": 30, "horizon": 150,
                     "trace_start": 1000, "trace_weight": "tenant"},
    "trace-itp": {"trace": "itp", "n_jobs": 40, "n_servers": 30, "horizon": 150,
                  "trace_start": 1000},
    # hand-checkable: 3 jobs, 2 servers of 2 GPUs, one worker / PS type pair each
    "tiny": {
        "n_jobs": 3, "horizon": 4, "n_servers": 2, "server_shapes": ("g3.8xlarge",),
        "n_worker_types": 2, "n_ps_types": 2, "worker_gpu": (1, 2), "worker_cpu": (1, 8),
        "ps_cpu": (1, 8), "epochs": (1, 1), "chunks": (1, 2), "minibatches": (2, 3),
        "minibatch_slots": (0.3, 0.6), "arrival_window": 2, "ps_bandwidth_gbps": (2.0, 8.0),
    },
}


def _ring_allreduce(name: str) -> dict[str, Any]:
    """The Ring-AllReduce twin of a PS preset: same cluster and jobs, no PS bandwidth range."""
    params = {k: v for k, v in PRESETS[name].items() if k != "ps_bandwidth_gbps"}
    return {"architecture": "ra", **params}


PRESETS["small-ra"] = _ring_allreduce("small")
PRESETS["tiny-ra"] = _ring_allreduce("tiny")
PRESETS["trace-philly-ra"] = _ring_allreduce("trace-philly")
PRESETS["trace-itp-ra"] = _ring_allreduce("trace-itp")

# ---- declared parameters (Family.generate checks them before anything is drawn) -------------
# Caps (documented limits, far above the paper's Sec. 7 settings, low enough that a value is
# refused at once instead of grinding): counts use mlopt.limits; types use the family's
# MAX_TYPES; per-type demands and per-job quantities the caps below.
#: largest D_j drawn (chunks = max workers per job; the paper: 50); see fields.MAX_CONFIG_ROWS
MAX_CHUNKS = 1_000
#: largest epochs E_j / mini-batches K_j drawn (the paper: 100 / 50)
MAX_EPOCHS = 1_000_000
#: largest GPUs / vCPUs / GB of memory of one drawn type (servers have at most 16 / 64 / 732)
MAX_TYPE_AMOUNT = 100_000
#: a slot lasts 1 s to 1e7 s (the paper: 3600 s)
SLOT_SECONDS = (1.0, 1e7)
#: capacity_scale, speedup_exp, trace time/duration scales: at most this
MAX_SCALE = 1e6

_PS_ONLY = ("n_ps_types", "ps_cpu", "ps_memory_gb", "ps_bandwidth_gbps")
_TRACE_ONLY = ("trace", "trace_path", "trace_start", "trace_time_scale", "trace_duration_scale",
               "trace_weight")
# with a trace, arrivals come from the trace and epochs from its durations (the draws are made
# for the random stream, then replaced): those parameters mean nothing there
_SYNTHETIC_ONLY = ("arrival_window", "epochs")


def _schema_all() -> dict[str, Param]:
    amount = dict(low=0, high=MAX_TYPE_AMOUNT, integer=True)
    bw = dict(low=0.001, high=MAX_VALUE)
    return {
        "n_jobs": Param.int(low=1, high=MAX_JOBS, doc="jobs J"),
        "horizon": Param.int(low=1, high=MAX_HORIZON, doc="T: slots arrivals fall in"),
        "slot_seconds": Param.float(low=SLOT_SECONDS[0], high=SLOT_SECONDS[1],
                                    doc="seconds per slot"),
        "n_servers": Param.int(low=1, high=MAX_SERVERS, doc="servers H"),
        "server_shapes": Param.list(Param.choice(None, tuple(SERVER_SHAPES)), min_items=1,
                                    max_items=len(SERVER_SHAPES),
                                    doc="EC2 shapes servers are drawn from"),
        "capacity_scale": Param.float(low=0.0, low_open=True, high=MAX_SCALE,
                                      doc="multiplies every server capacity"),
        "n_worker_types": Param.int(low=1, high=MAX_TYPES, doc="worker types M"),
        "n_ps_types": Param.int(low=1, high=MAX_TYPES, doc="PS types P"),
        "worker_gpu": Param.range(**amount), "worker_cpu": Param.range(**amount),
        "worker_memory_gb": Param.range(**amount),
        "worker_bandwidth_gbps": Param.range(**bw),
        "ps_cpu": Param.range(**amount), "ps_memory_gb": Param.range(**amount),
        "ps_bandwidth_gbps": Param.range(**bw),
        "arrival_window": Param.int(low=1, high=MAX_HORIZON, nullable=True,
                                    doc="arrivals uniform on 1..window (null: T)"),
        "weight": Param.range(low=MIN_POSITIVE, high=MAX_VALUE, doc="w_j"),
        "epochs": Param.range(low=1, high=MAX_EPOCHS, integer=True, doc="E_j"),
        "chunks": Param.range(low=1, high=MAX_CHUNKS, integer=True, doc="D_j"),
        "minibatches": Param.range(low=1, high=MAX_EPOCHS, integer=True, doc="K_j"),
        "update_ms": Param.range(low=0.0, high=MAX_VALUE, doc="U_j^p / U_j (ms)"),
        "minibatch_slots": Param.range(low=MIN_POSITIVE, high=MAX_VALUE,
                                       doc="base v_j (slots per mini-batch)"),
        "speedup_exp": Param.float(low=0.0, high=MAX_SCALE, doc="v_jm = v_j g_m^-exp"),
        "gradient_mb": Param.range(low=0.0, high=MAX_VALUE, doc="pi_j (MB)"),
        "trace": Param.choice(None, JOB_TRACES, doc="job trace the jobs come from"),
        "trace_path": Param.path(doc="a file in the trace's format (null: the shared copy)"),
        "trace_start": Param.int(low=0, high=MAX_COUNT, doc="first trace row used"),
        "trace_time_scale": Param.float(low=0.0, low_open=True, high=MAX_SCALE),
        "trace_duration_scale": Param.float(low=0.0, low_open=True, high=MAX_SCALE),
        "trace_weight": Param.choice(None, WEIGHT_MODES),
    }


def params(preset: str) -> dict[str, Param]:
    """The parameters ``preset`` takes, with the preset's values as defaults: the PS-only ones
    only for PS presets, the trace ones only for trace presets, arrival_window and epochs only
    for synthetic ones.  ``architecture`` is the preset's (every PS preset has an ``-ra``
    twin), not a parameter."""
    values = {**DEFAULTS, **PRESETS[preset]}
    drop = {"architecture"}
    if values["architecture"] != "ps":
        drop |= set(_PS_ONLY)
    drop |= set(_SYNTHETIC_ONLY) if values["trace"] is not None else set(_TRACE_ONLY)
    out = {}
    for name, p in _schema_all().items():
        if name not in drop:
            v = values[name]
            out[name] = p.with_default(list(v) if isinstance(v, tuple) else v)
    return out


def check_params(preset: str, given: dict[str, Any]) -> None:
    """Relations between parameters (Family.generate, after each one's own check)."""
    values = {**DEFAULTS, **PRESETS[preset], **given}
    window = values.get("arrival_window")
    if window is not None and values["trace"] is None and window > values["horizon"]:
        raise InputError(f"must be at most horizon = {values['horizon']}",
                         field="arrival_window", value=window)


def _rng_range(params, key, integer=False):
    v = params[key]
    if not (isinstance(v, (tuple, list)) and len(v) == 2) or not all(
            isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)
            for x in v) or v[0] > v[1] or v[0] < 0:
        raise InputError("must be a range [low, high] with 0 <= low <= high", field=key, value=v)
    if integer and not all(float(x).is_integer() for x in v):
        raise InputError("must be an integer range", field=key, value=v)
    return v


def _count(params, key, minimum=1):
    v = params[key]
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < minimum:
        raise InputError(f"must be an integer >= {minimum}", field=key, value=v)
    return int(v)


def _r(x: float) -> float:
    return float(f"{x:.6g}")


def generate(preset: str = "paper-default", seed: int = 0, *, table=None,
             **overrides) -> Workload:
    """``table``: a trace table (:mod:`mlopt.traces.table`) to take the jobs from instead of
    loading ``trace`` (``mlopt instances from-trace --family hetero``, :func:`from_trace`)."""
    if preset not in PRESETS:
        raise InputError(f"unknown preset (known: {', '.join(PRESETS)})", field="preset",
                         value=preset)
    params = {**DEFAULTS, **PRESETS[preset]}
    unknown = set(overrides) - set(params)
    if unknown:
        k = sorted(unknown)[0]
        raise InputError("unknown generator parameter", field=k, value=overrides[k])
    params.update(overrides)
    arch = params["architecture"]
    if arch not in ("ps", "ra"):
        raise InputError("must be ps or ra", field="architecture", value=arch)
    rng = np.random.default_rng(seed)
    J = _count(params, "n_jobs", 0)
    T = _count(params, "horizon")
    H = _count(params, "n_servers")
    M = _count(params, "n_worker_types")
    P = _count(params, "n_ps_types")
    shapes = tuple(params["server_shapes"])
    for s in shapes:
        if s not in SERVER_SHAPES:
            raise InputError(f"unknown server shape (known: {', '.join(SERVER_SHAPES)})",
                             field="server_shapes", value=s)
    scale = float(params["capacity_scale"])
    if not (math.isfinite(scale) and scale > 0):
        raise InputError("must be > 0", field="capacity_scale", value=params["capacity_scale"])

    servers = []
    kinds = rng.choice(len(shapes), size=H)
    width = max(2, len(str(H)))
    for h in range(H):
        kind = shapes[kinds[h]]
        g, c, mem, nic = SERVER_SHAPES[kind]
        cap = {"gpu": g * scale, "cpu": c * scale, "memory_gb": mem * scale,
               BANDWIDTH: nic * scale}
        servers.append(Server(f"s{h + 1:0{width}d}", "any", cap, kind=kind))
    max_cap = {r: max(s.capacity[r] for s in servers) for r in RESOURCES}

    def draw_types(n, prefix, gpu_rng, cpu_rng, mem_rng, bw_rng):
        types = []
        for k in range(n):
            for _ in range(1000):  # redraw until the type fits the largest server (conditional draw)
                d = {"gpu": float(rng.integers(gpu_rng[0], gpu_rng[1] + 1)) if gpu_rng else 0.0,
                     "cpu": float(rng.integers(cpu_rng[0], cpu_rng[1] + 1)),
                     "memory_gb": float(rng.integers(mem_rng[0], mem_rng[1] + 1)),
                     BANDWIDTH: _r(rng.uniform(*bw_rng))}
                if all(d[r] <= max_cap[r] for r in RESOURCES):
                    break
            else:
                raise InputError("no type fits the largest server", field=f"{prefix}_types")
            types.append({"id": f"{prefix}{k + 1}", "demand": d})
        return types

    wtypes = draw_types(M, "w", _rng_range(params, "worker_gpu", True),
                        _rng_range(params, "worker_cpu", True),
                        _rng_range(params, "worker_memory_gb", True),
                        _rng_range(params, "worker_bandwidth_gbps"))
    ptypes = draw_types(P, "p", None, _rng_range(params, "ps_cpu", True),
                        _rng_range(params, "ps_memory_gb", True),
                        _rng_range(params, "ps_bandwidth_gbps")) if arch == "ps" else []

    window = params["arrival_window"] or T
    if not (isinstance(window, int) and 1 <= window <= T):
        raise InputError("must be an integer in 1..horizon", field="arrival_window", value=window)
    E, D, K = (_rng_range(params, k, True) for k in ("epochs", "chunks", "minibatches"))
    Wr, Ur, Vr, Gr = (_rng_range(params, k) for k in
                      ("weight", "update_ms", "minibatch_slots", "gradient_mb"))
    if table is not None and not isinstance(table, pd.DataFrame):
        raise InputError("must be a trace table", field="table", value=type(table).__name__)
    traced = params["trace"] is not None or table is not None
    check_trace_params(params, table_given=table is not None)
    slot = float(params["slot_seconds"])
    tr = trace_rows(params, J, slot, table=table) if traced and J else None
    gpus = np.array([t["demand"]["gpu"] for t in wtypes])
    speed = np.maximum(gpus, 1.0) ** -float(params["speedup_exp"])
    arrivals = np.sort(rng.integers(1, window + 1, size=J))  # drawn either way: same stream
    tw = None
    if tr is not None:
        arrivals = tr.arrival
        T = max(T, int(arrivals[-1]))
        tw = trace_weights(tr, params["trace_weight"], Wr, seed)
    jobs = []
    ideal_gpu = 0.0
    fit = []
    for j in range(J):
        base = rng.uniform(*Vr)
        v = [_r(max(Vr[0], base * s)) for s in speed]
        extra = {"weight": _r(rng.uniform(*Wr)), "minibatch_slots": v}
        if tw is not None:  # the draw above is still made: same stream either way
            extra["weight"] = _r(float(tw[j]))
        if arch == "ps":
            extra["ps_update_ms"] = [_r(x) for x in rng.uniform(*Ur, size=P)]
        else:
            extra["ra_update_ms"] = _r(rng.uniform(*Ur))
        chunks = int(rng.integers(D[0], D[1] + 1))
        epochs = int(rng.integers(E[0], E[1] + 1))
        minibatches = int(rng.integers(K[0], K[1] + 1))
        gradient = _r(rng.uniform(*Gr))
        if tr is not None:  # see mlopt.families.hetero.trace
            chunks = int(np.clip(tr.gpus[j], D[0], D[1]))
            if arch == "ps":
                u = min(extra["ps_update_ms"])
            else:
                u = extra["ra_update_ms"] * (chunks - 1) / chunks
            p = min(v) + u / 1000.0 / slot
            epochs, minibatches = epochs_from_duration(tr.duration_slots[j], minibatches, p)
            fit.append(epochs * minibatches * p / tr.duration_slots[j])
        ideal_gpu += chunks * wtypes[int(np.argmin(v))]["demand"]["gpu"]
        jobs.append(Job(
            id=f"j{j + 1:03d}", arrival=int(arrivals[j]), epochs=epochs, chunks=chunks,
            minibatches=minibatches, minibatch_seconds=0.0, gradient_mb=gradient,
            worker_demand=dict(wtypes[0]["demand"]),
            ps_demand=dict((ptypes or wtypes)[0]["demand"]),
            utility=utility_from_dict({"kind": "constant", "value": 0.0}, "utility"),
            extra=extra))
    cluster_gpu = sum(s.capacity["gpu"] for s in servers)
    meta = {"family": "hetero", "generator": "hetero", "preset": preset, "seed": seed,
            # trace parameters only when a trace is used (synthetic workloads' meta unchanged)
            "params": {k: (list(v) if isinstance(v, tuple) else v) for k, v in params.items()
                       if traced or not k.startswith("trace")},
            "capacity_ratio_gpu": _r(cluster_gpu / ideal_gpu) if ideal_gpu else None}
    if tr is not None:
        meta["trace"] = {"name": params["trace"] or "table",
                         "first_row": int(params["trace_start"]),
                         "rows": tr.rows, "duration_fit": {
                             "median": _r(float(np.median(fit))), "min": _r(float(min(fit))),
                             "max": _r(float(max(fit)))}}
    w = Workload(f"hetero-{preset}-{seed}", T, float(params["slot_seconds"]), RESOURCES,
                 tuple(servers), tuple(jobs), meta,
                 {"hetero": {"architecture": arch, "worker_types": wtypes, "ps_types": ptypes}})
    validate(w)
    if not fitting_pairs(parse_fields(w, assumptions=False)):
        raise InputError("no job could be placed: no drawn worker/PS type combination fits the "
                         "empty cluster (widen server_shapes / capacity_scale or lower the type "
                         "demand ranges)", field="server_shapes", value=list(shapes))
    validate_hetero(w)  # every assumption the models rely on (e.g. durations)
    return w


PRESET_FUNCS = {name: partial(generate, name) for name in PRESETS}

# generator parameters that mean nothing for a given table (it is the trace)
FROM_TRACE_IGNORED = ("trace", "trace_path", "arrival_window")


def from_trace_params() -> dict[str, Param]:
    """What :func:`from_trace` takes: the ``trace-itp`` preset's parameters but the trace
    itself, and the architecture (``ps`` or ``ra``: the PS parameters then mean nothing)."""
    out = {k: v for k, v in params("trace-itp").items() if k not in FROM_TRACE_IGNORED}
    out["architecture"] = Param.choice("ps", ("ps", "ra"), doc="PS or Ring-AllReduce")
    return out


def from_trace(table, *, seed: int = 0, report=None, **params) -> Workload:
    """Trace table -> hetero workload (``mlopt instances from-trace TRACE [FILE] --family hetero
    -p KEY=VALUE``): the ``trace-itp`` preset's cluster and conventions (30 servers, T = 150,
    40 jobs, paper weight draws) on rows ``trace_start`` (default 0) onwards of the table; every
    other generator parameter can be given (``architecture``, ``trace_weight``, ...)."""
    bad = sorted(set(params) & set(FROM_TRACE_IGNORED))
    if bad:
        raise InputError("not a parameter of a trace conversion (the table is the trace)",
                         field=bad[0], value=params[bad[0]])
    from mlopt.families.base import check_seed

    check_seed(seed)
    check_values(from_trace_params(), params, where="hetero's trace conversion",
                 reserved={"seed": "the seed is --seed, not a parameter"})
    w = generate("trace-itp", seed, table=table, **{"trace": None, "trace_start": 0, **params})
    name = getattr(report, "trace", None) or "table"
    meta = {**w.meta, "generator": "hetero.from_trace", "preset": None,
            "trace": {**w.meta["trace"], "name": name}}
    return validate(Workload(f"hetero-trace-{seed}", w.horizon, w.slot_seconds, w.resources,
                             w.servers, w.jobs, meta, w.extra))

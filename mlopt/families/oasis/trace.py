"""OASiS trace conversion: trace table -> OASiS :class:`~mlopt.workload.Workload`, the
conventions each a parameter (``Family.from_trace`` of ``oasis``; reading a trace into a table
is shared, :mod:`mlopt.traces`).

No trace records parameter servers, epochs, mini-batches or per-worker CPU/memory, so a trace job
(arrival, duration D seconds, g GPUs) becomes an OASiS-style job by these conventions
(:data:`DEFAULTS`; the OASiS ranges come from :data:`mlopt.families.oasis.generator.DEFAULTS`,
seed 000 Sec. V-A, with its DECISION that tau_i is in seconds):

* **Time.**  Slots of ``slot_seconds`` [3600 s, "one time slot can be 1 hour", as in seeds 000 /
  001 / 003].  Jobs arriving in the window ``[window_start_s, window_start_s + window_s)`` are
  eligible (``window_s`` None: to the last arrival); a job arriving at ``s`` seconds gets slot
  ``1 + floor((s - window_start_s) / slot_seconds)``.  The horizon T is ``horizon`` when given
  (the window is then cut at T slots) else ``ceil(window_s / slot_seconds)``, or the last
  arrival's slot when there is no ``window_s``.  Give ``horizon`` > ``window_s / slot_seconds``
  to leave the last arrivals time to finish.
* **Subsampling.**  ``n_jobs`` [None: every eligible job] jobs drawn uniformly without
  replacement, kept in arrival order.  More jobs than eligible -> InputError.
* **Workers and chunks.**  One worker per ``gpus_per_worker`` [1] GPUs: a job that ran on g GPUs
  has ``workers = ceil(g / gpus_per_worker)``, each demanding ``gpus_per_worker`` GPUs, and
  ``N_i = workers`` data chunks, so the trace's parallelism is the job's maximum useful
  parallelism (OASiS (3): at most N_i concurrent workers).
* **Parameter servers.**  ``ps = min(workers, max(1, ceil(ps_ratio * workers),
  ceil(workers * b_i / B_i)))`` [``ps_ratio`` 1.0]: the ratio, raised to what PS bandwidth
  needs (OASiS (6)) and capped by the workers (OASiS (7)); stored in ``extra``.
* **Mini-batch shape.**  tau_i (``minibatch_seconds``), e_i (``gradient_mb``), b_i / B_i
  (``worker_bandwidth_gbps`` / ``ps_bandwidth_gbps``) and the target M_i (``minibatches``) are
  drawn uniformly from a ``(low, high)`` range [the OASiS ranges] or fixed when a number is given.
* **Epochs (throughput model).**  A worker trains one mini-batch in
  ``p = tau_i + 2 e_i / b_i`` seconds and workers scale linearly (the OASiS model), so at
  ``workers`` workers the job takes ``E_i M_i p``.  With ``K = D / p`` mini-batches per worker,
  ``E_i = max(1, round(K / M_drawn))`` and ``M_i = max(1, round(K / E_i))``: the job, run at its
  trace parallelism, takes about the trace's duration (``meta["duration_fit"]`` reports the
  error; jobs shorter than one mini-batch, ``K < 1``, get E = M = 1 and run longer).
* **Worker / PS demands.**  Worker CPU and memory are ``gpus_per_worker`` x a per-GPU draw from
  ``demand`` [``"auto"``: the Alibaba PAI pod distribution when ../shared is available, else the
  fallback, see :mod:`mlopt.traces.alibaba`]; worker storage and PS CPU / memory / storage from
  the OASiS ranges; PS GPU 0.  A demand that fits no server of its role is redrawn (demands are
  conditional on fitting, as in the OASiS generator); ``meta["demand_redraws"]`` counts them.
* **Utility.**  Sigmoid f(d) = g1 / (1 + exp(g2 (d - g3))) with d = completion - arrival slots.
  Priority g1 in ``priority_range`` [1, 100] from ``priority`` [``"size"``: the job's rank in
  GPU-hours (D x g / 3600) among the selected jobs, mapped linearly onto the range, ties
  averaged; ``"tenant"``: one uniform draw per tenant; ``"random"``: one uniform draw per job].
  Time sensitivity as in OASiS (``class_split`` 10/55/35 %: g2 = 0, in ``decay_sensitive``, in
  ``decay_critical``).  Target g3 = max(``min_target_slots`` [1], ``target_slack`` [1.5] x
  D / slot_seconds) (``target_from="duration"``) or the deadline's distance from the arrival in
  slots (``"deadline"``, needs a ``deadline_s`` column).  ``extra["weight"] = g1`` for
  weighted-completion families.
* **Cluster.**  ``cluster`` [``"ec2-paper"``]: a preset of :mod:`mlopt.clusters`, ``"alibaba"``
  (:func:`mlopt.traces.alibaba.alibaba_cluster`), or a list of Servers; ``cluster_options`` are
  passed to the builder.

Randomness: ``seed`` seeds a :class:`numpy.random.SeedSequence` spawned into independent streams
for the subsample, the cluster and the job draws, so e.g. changing ``n_jobs`` leaves the cluster
unchanged.  Same table, seed and conventions -> the same workload, bit for bit.
"""
from __future__ import annotations

import math
from typing import Any, Callable, Sequence

import numpy as np
import pandas as pd

from mlopt import clusters as _clusters
from mlopt.errors import InputError
from mlopt.families.oasis.fields import MAX_JOB_CELLS, validate_oasis
from mlopt.families.oasis.generator import CLASSES, DEFAULTS as OASIS, MAX_REDRAWS
from mlopt.utility import Sigmoid
from mlopt.workload import DEFAULT_RESOURCES, Job, Server, Workload
from mlopt.traces.alibaba import alibaba_cluster, per_gpu_demand
from mlopt.traces.table import LoadReport, check_table

DEFAULTS: dict[str, Any] = {
    "slot_seconds": 3600.0,
    "window_start_s": 0.0,
    "window_s": None,
    "horizon": None,
    "n_jobs": None,
    "gpus_per_worker": 1,
    "ps_ratio": 1.0,
    "minibatch_seconds": tuple(OASIS["minibatch_seconds"]),
    "gradient_mb": tuple(OASIS["gradient_mb"]),
    "worker_bandwidth_gbps": tuple(OASIS["worker_bandwidth_gbps"]),
    "ps_bandwidth_gbps": tuple(OASIS["ps_bandwidth_gbps"]),
    "minibatches": tuple(OASIS["minibatches"]),
    "worker_storage_gb": tuple(OASIS["worker_storage_gb"]),
    "ps_cpu": tuple(OASIS["ps_cpu"]),
    "ps_memory_gb": tuple(OASIS["ps_memory_gb"]),
    "ps_storage_gb": tuple(OASIS["ps_storage_gb"]),
    "demand": "auto",
    "priority": "size",
    "priority_range": tuple(OASIS["priority"]),
    "class_split": tuple(OASIS["class_split"]),
    "decay_sensitive": tuple(OASIS["decay_sensitive"]),
    "decay_critical": tuple(OASIS["decay_critical"]),
    "target_from": "duration",
    "target_slack": 1.5,
    "min_target_slots": 1.0,
}
PRIORITY_RULES = ("size", "tenant", "random")
TARGET_RULES = ("duration", "deadline")
INTEGER_PARAMS = ("minibatches", "worker_storage_gb", "ps_cpu", "ps_memory_gb", "ps_storage_gb")


# ---- clusters --------------------------------------------------------------------------------
def _alibaba(rng: np.random.Generator, **options) -> list[Server]:
    return alibaba_cluster(rng, **options)


CLUSTER_BUILDERS: dict[str, Callable[..., list[Server]]] = {"alibaba": _alibaba}


def cluster_names() -> list[str]:
    """Return the sorted names of the known cluster presets and builders."""
    return sorted(set(_clusters.CLUSTER_PRESETS) | set(CLUSTER_BUILDERS))


def build_cluster(cluster: str | Sequence[Server], rng: np.random.Generator,
                  options: dict | None = None) -> list[Server]:
    """A named cluster (EC2 preset or ``"alibaba"``) or an explicit list of Servers."""
    options = dict(options or {})
    if isinstance(cluster, str):
        if cluster in CLUSTER_BUILDERS:
            return CLUSTER_BUILDERS[cluster](rng, **options)
        if cluster in _clusters.CLUSTER_PRESETS:
            return _clusters.cluster(cluster, rng, **options)
        raise InputError(f"unknown cluster (known: {', '.join(cluster_names())})",
                         field="cluster", value=cluster)
    servers = list(cluster)
    if not servers or not all(isinstance(s, Server) for s in servers):
        raise InputError("must be a cluster name or a non-empty list of Servers",
                         field="cluster", value=type(cluster).__name__)
    if options:
        raise InputError("cluster_options only apply to a named cluster",
                         field="cluster_options", value=sorted(options))
    return servers


# ---- parameter checking ----------------------------------------------------------------------
def _num(x) -> bool:
    return isinstance(x, (int, float, np.integer, np.floating)) and not isinstance(x, bool) \
        and math.isfinite(float(x))


def _spec(params: dict, key: str, *, integer: bool = False, positive: bool = False):
    """A fixed number or a (low, high) range -> (low, high)."""
    value = params[key]
    if _num(value):
        lo = hi = value
    elif isinstance(value, (tuple, list)) and len(value) == 2 and all(_num(v) for v in value):
        lo, hi = value
    else:
        raise InputError("must be a number or a range [low, high]", field=key, value=value)
    lo, hi = float(lo), float(hi)
    if integer and not (lo.is_integer() and hi.is_integer()):
        raise InputError("must be integers", field=key, value=value)
    if lo > hi or lo < 0 or (positive and lo <= 0):
        raise InputError(f"must satisfy {'0 <' if positive else '0 <='} low <= high", field=key,
                         value=value)
    return (int(lo), int(hi)) if integer else (lo, hi)


def _opt_positive(params: dict, key: str, integer: bool = False):
    value = params[key]
    if value is None:
        return None
    if not _num(value) or value <= 0 or (integer and not float(value).is_integer()):
        raise InputError(f"must be {'an integer' if integer else 'a number'} > 0 or null",
                         field=key, value=value)
    return int(value) if integer else float(value)


def _check(params: dict) -> dict[str, Any]:
    p: dict[str, Any] = {}
    p["slot_seconds"] = _opt_positive(params, "slot_seconds")
    if p["slot_seconds"] is None:
        raise InputError("must be > 0", field="slot_seconds", value=None)
    ws = params["window_start_s"]
    if not _num(ws) or ws < 0:
        raise InputError("must be a number >= 0", field="window_start_s", value=ws)
    p["window_start_s"] = float(ws)
    p["window_s"] = _opt_positive(params, "window_s")
    p["horizon"] = _opt_positive(params, "horizon", integer=True)
    p["n_jobs"] = _opt_positive(params, "n_jobs", integer=True)
    gpw = params["gpus_per_worker"]
    if not _num(gpw) or gpw < 1 or not float(gpw).is_integer():
        raise InputError("must be an integer >= 1", field="gpus_per_worker", value=gpw)
    p["gpus_per_worker"] = int(gpw)
    r = params["ps_ratio"]
    if not _num(r) or not 0 < r <= 1:
        raise InputError("must be in (0, 1] (OASiS (7): no more PSs than workers)",
                         field="ps_ratio", value=r)
    p["ps_ratio"] = float(r)
    for key in ("minibatch_seconds", "gradient_mb"):
        p[key] = _spec(params, key)
    if p["minibatch_seconds"][0] == 0 and p["gradient_mb"][0] == 0:
        raise InputError("a mini-batch must take time: minibatch_seconds and gradient_mb may "
                         "both be 0", field="minibatch_seconds", value=params["minibatch_seconds"])
    for key in ("worker_bandwidth_gbps", "ps_bandwidth_gbps"):
        p[key] = _spec(params, key, positive=True)
    p["minibatches"] = _spec(params, "minibatches", integer=True, positive=True)
    for key in INTEGER_PARAMS[1:]:
        p[key] = _spec(params, key, integer=True)
    if params["priority"] not in PRIORITY_RULES:
        raise InputError(f"must be one of {', '.join(PRIORITY_RULES)}", field="priority",
                         value=params["priority"])
    p["priority"] = params["priority"]
    p["priority_range"] = _spec(params, "priority_range")
    for key in ("decay_sensitive", "decay_critical"):
        p[key] = _spec(params, key)
    split = params["class_split"]
    if (not isinstance(split, (tuple, list)) or len(split) != 3
            or not all(_num(s) and s >= 0 for s in split) or abs(sum(split) - 1.0) > 1e-9):
        raise InputError("must be 3 non-negative shares (insensitive, sensitive, critical) "
                         "summing to 1", field="class_split", value=split)
    p["class_split"] = tuple(float(s) for s in split)
    if params["target_from"] not in TARGET_RULES:
        raise InputError(f"must be one of {', '.join(TARGET_RULES)}", field="target_from",
                         value=params["target_from"])
    p["target_from"] = params["target_from"]
    for key in ("target_slack", "min_target_slots"):
        v = params[key]
        if not _num(v) or v < 0 or (key == "target_slack" and v == 0):
            raise InputError("must be a number > 0" if key == "target_slack" else
                             "must be a number >= 0", field=key, value=v)
        p[key] = float(v)
    p["demand"] = params["demand"]
    return p


# ---- drawing ---------------------------------------------------------------------------------
def _sig6(x: np.ndarray) -> np.ndarray:
    return np.array([float(f"{v:.6g}") for v in np.atleast_1d(x)], dtype=float)


def _draw_real(rng, spec, n) -> np.ndarray:
    lo, hi = spec
    return np.clip(_sig6(rng.uniform(lo, hi, size=n)), lo, hi) if hi > lo else np.full(n, lo)


def _draw_int(rng, spec, n) -> np.ndarray:
    lo, hi = spec
    return rng.integers(lo, hi, size=n, endpoint=True).astype(float)


def _fits(rows: np.ndarray, caps: np.ndarray) -> np.ndarray:
    return (rows[:, None, :] <= caps[None, :, :] + 1e-12).all(axis=2).any(axis=1)


def _fit(rng, rows: np.ndarray, caps: np.ndarray, draw: Callable, role: str,
         ids: Sequence[str]) -> int:
    """Redraw (in place, job order) rows that fit no server of their role; return redraws."""
    redraws = 0
    for i in np.flatnonzero(~_fits(rows, caps)):
        for _ in range(MAX_REDRAWS):
            redraws += 1
            rows[i] = draw(rng, 1)[0]
            if _fits(rows[i:i + 1], caps)[0]:
                break
        else:
            raise InputError(f"no {role} demand drawn for job {ids[i]} fits a {role} server of "
                             f"this cluster after {MAX_REDRAWS} tries", field=f"{role}_demand",
                             value=dict(zip(DEFAULT_RESOURCES, rows[i].tolist())))
    return redraws


def _jsonable(v):
    if isinstance(v, tuple):
        return list(v)
    if isinstance(v, (np.integer,)):
        return int(v)
    if isinstance(v, (np.floating,)):
        return float(v)
    if isinstance(v, (str, int, float, bool, list, dict)) or v is None:
        return v
    return repr(v)


def trace_to_workload(table: pd.DataFrame, *, cluster: str | Sequence[Server] = "ec2-paper",
                      cluster_options: dict | None = None, seed: int = 0,
                      name: str | None = None, report: LoadReport | None = None,
                      **conventions) -> Workload:
    """Map a trace table to a validated Workload (conventions: module docstring, DEFAULTS)."""
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise InputError("must be an integer >= 0", field="seed", value=seed)
    unknown = sorted(set(conventions) - set(DEFAULTS))
    if unknown:
        raise InputError(f"unknown trace convention (known: {', '.join(DEFAULTS)})",
                         field=unknown[0], value=conventions[unknown[0]])
    p = _check({**DEFAULTS, **conventions})
    t = check_table(table)
    slot = p["slot_seconds"]
    start = p["window_start_s"]

    # Window, horizon.
    end = start + p["window_s"] if p["window_s"] is not None else math.inf
    if p["horizon"] is not None:
        end = min(end, start + p["horizon"] * slot)
    arr = t["arrival_s"].to_numpy(dtype=float)
    in_window = np.flatnonzero((arr >= start) & (arr < end))
    if in_window.size == 0:
        raise InputError("no job of the trace arrives in the window", field="window_start_s",
                         value=[start, None if math.isinf(end) else end])
    if p["horizon"] is not None:
        T = p["horizon"]
    elif p["window_s"] is not None:
        T = max(1, math.ceil(p["window_s"] / slot))
    else:
        T = int((arr[in_window].max() - start) // slot) + 1

    ss = np.random.SeedSequence(int(seed))
    rng_sub, rng_cluster, rng = (np.random.default_rng(s) for s in ss.spawn(3))
    if p["n_jobs"] is not None:
        if p["n_jobs"] > in_window.size:
            raise InputError(f"only {in_window.size} jobs arrive in the window", field="n_jobs",
                             value=p["n_jobs"])
        pick = np.sort(rng_sub.choice(in_window.size, size=p["n_jobs"], replace=False))
        rows = in_window[pick]
    else:
        rows = in_window
    sel = t.iloc[rows].reset_index(drop=True)
    n = len(sel)
    arrival = np.clip(((sel["arrival_s"].to_numpy(float) - start) // slot).astype(int) + 1, 1, T)
    dur = sel["duration_s"].to_numpy(float)
    gpus = sel["gpus"].to_numpy(np.int64)
    trace_ids = sel["job_id"].astype(str).tolist()

    # Cluster.
    servers = build_cluster(cluster, rng_cluster, cluster_options)
    res = list(DEFAULT_RESOURCES)
    for s in servers:
        missing = [r for r in res if r not in s.capacity]
        if missing:
            raise InputError("server lacks a resource", field=f"cluster.{s.id}.{missing[0]}")
    wcaps = np.array([[s.capacity[r] for r in res] for s in servers if s.hosts_workers()])
    pcaps = np.array([[s.capacity[r] for r in res] for s in servers if s.hosts_ps()])
    if len(wcaps) == 0 or len(pcaps) == 0:
        raise InputError("the cluster needs servers hosting workers and servers hosting PSs",
                         field="cluster", value=[s.role for s in servers])
    gpw = p["gpus_per_worker"]
    if not (wcaps[:, 0] >= gpw).any():
        raise InputError(f"no worker server has {gpw} GPUs", field="gpus_per_worker", value=gpw)

    # Job draws, in a fixed order.
    demand = per_gpu_demand(p["demand"])
    classes = rng.choice(len(CLASSES), size=n, p=p["class_split"])
    tau = _draw_real(rng, p["minibatch_seconds"], n)
    grad = _draw_real(rng, p["gradient_mb"], n)
    m_target = _draw_int(rng, p["minibatches"], n)

    def worker_rows(g, k):
        cpu, mem = demand.sample(g, k)
        return np.column_stack([np.full(k, float(gpw)), _sig6(cpu * gpw), _sig6(mem * gpw),
                                _draw_int(g, p["worker_storage_gb"], k),
                                _draw_real(g, p["worker_bandwidth_gbps"], k)])

    def ps_rows(g, k):
        return np.column_stack([np.zeros(k), _draw_int(g, p["ps_cpu"], k),
                                _draw_int(g, p["ps_memory_gb"], k),
                                _draw_int(g, p["ps_storage_gb"], k),
                                _draw_real(g, p["ps_bandwidth_gbps"], k)])

    wdem = worker_rows(rng, n)
    sdem = ps_rows(rng, n)
    lo, hi = p["priority_range"]
    if p["priority"] == "size":
        gh = dur * gpus / 3600.0
        q = (pd.Series(gh).rank(method="average").to_numpy() - 1) / (n - 1) if n > 1 \
            else np.full(n, 0.5)
        gamma1 = _sig6(lo + (hi - lo) * q)
    elif p["priority"] == "tenant":
        if "tenant" not in sel:
            raise InputError("the trace table has no tenant column", field="priority",
                             value="tenant")
        tenants = sorted(set(sel["tenant"].astype(str)))
        level = dict(zip(tenants, _draw_real(rng, (lo, hi), len(tenants))))
        gamma1 = np.array([level[x] for x in sel["tenant"].astype(str)], dtype=float)
    else:
        gamma1 = _draw_real(rng, (lo, hi), n)
    decay = np.where(classes == 2, _draw_real(rng, p["decay_critical"], n),
                     _draw_real(rng, p["decay_sensitive"], n))
    gamma2 = np.where(classes == 0, 0.0, decay)
    redraws = _fit(rng, wdem, wcaps, worker_rows, "worker", trace_ids)
    redraws += _fit(rng, sdem, pcaps, ps_rows, "ps", trace_ids)

    # Structure: workers, chunks, PSs, epochs.
    workers = -(-gpus // gpw)
    too_big = np.flatnonzero(T * (workers + 1) > MAX_JOB_CELLS)
    if too_big.size:  # before any per-worker work: a 1e9-GPU row must not allocate anything
        i = int(too_big[0])
        raise InputError(f"trace job {trace_ids[i]} ran on {int(gpus[i]):,} GPUs: "
                         f"{int(workers[i]):,} workers over T = {T:,} slots is above the OASiS "
                         f"limit T x (N_i + 1) <= {MAX_JOB_CELLS:,} "
                         "(mlopt.families.oasis.fields)", field="gpus", value=int(gpus[i]))
    b, B = wdem[:, 4], sdem[:, 4]
    n_ps = np.minimum(workers, np.maximum.reduce([
        np.ones(n, dtype=np.int64), np.ceil(p["ps_ratio"] * workers - 1e-9).astype(np.int64),
        np.ceil(workers * b / B - 1e-9).astype(np.int64)]))
    per_mb = tau + 2.0 * 8.0 * grad / (1000.0 * b)  # seconds per mini-batch, as Job computes
    K = dur / per_mb
    epochs = np.maximum(1, np.rint(K / m_target)).astype(np.int64)
    minibatches = np.maximum(1, np.rint(K / epochs)).astype(np.int64)
    model_s = epochs * minibatches * per_mb
    ratio = model_s / dur

    # Utility targets.
    if p["target_from"] == "deadline":
        if "deadline_s" not in sel:
            raise InputError("the trace table has no deadline_s column", field="target_from",
                             value="deadline")
        gamma3 = (sel["deadline_s"].to_numpy(float) - sel["arrival_s"].to_numpy(float)) / slot
    else:
        gamma3 = p["target_slack"] * dur / slot
    gamma3 = _sig6(np.maximum(p["min_target_slots"], gamma3))

    optional = [c for c in ("tenant", "model", "batch_size", "iterations") if c in sel]
    deadline_slot = None
    if "deadline_s" in sel:
        deadline_slot = ((sel["deadline_s"].to_numpy(float) - start) // slot).astype(int) + 1
    width = max(3, len(str(n)))
    jobs = []
    for i in range(n):
        extra: dict[str, Any] = {
            "trace_id": trace_ids[i], "trace_gpus": int(gpus[i]),
            "trace_duration_s": float(dur[i]), "workers": int(workers[i]), "ps": int(n_ps[i]),
            "weight": float(gamma1[i]), "time_class": CLASSES[classes[i]]}
        for c in optional:
            v = sel[c].iloc[i]
            extra[c] = int(v) if c in ("batch_size", "iterations") else str(v)
        if deadline_slot is not None:
            extra["deadline_slot"] = int(deadline_slot[i])
        jobs.append(Job(
            id=f"j{i + 1:0{width}d}", arrival=int(arrival[i]), epochs=int(epochs[i]),
            chunks=int(workers[i]), minibatches=int(minibatches[i]),
            minibatch_seconds=float(tau[i]), gradient_mb=float(grad[i]),
            worker_demand=dict(zip(res, map(float, wdem[i]))),
            ps_demand=dict(zip(res, map(float, sdem[i]))),
            utility=Sigmoid(float(gamma1[i]), float(gamma2[i]), float(gamma3[i])),
            extra=extra))

    within = np.abs(ratio - 1.0) <= 0.1
    meta = {
        "generator": "trace", "seed": int(seed),
        "trace": report.trace if report is not None else None,
        "load_report": report.to_dict() if report is not None else None,
        "conventions": {k: _jsonable(v) for k, v in p.items()},
        "cluster": cluster if isinstance(cluster, str) else "explicit",
        "cluster_options": {k: _jsonable(v) for k, v in (cluster_options or {}).items()},
        "demand": demand.describe(),
        "window": {"start_s": start, "end_s": None if math.isinf(end) else end,
                   "jobs_in_window": int(in_window.size), "jobs": n},
        "duration_fit": {
            "median_ratio": round(float(np.median(ratio)), 4),
            "p05_ratio": round(float(np.quantile(ratio, 0.05)), 4),
            "p95_ratio": round(float(np.quantile(ratio, 0.95)), 4),
            "share_within_10pct": round(float(within.mean()), 4),
            "shorter_than_one_minibatch": int((K < 1).sum())},
        "demand_redraws": int(redraws),
    }
    label = name or f"{report.trace if report is not None else 'trace'}-{n}jobs-s{seed}"
    return validate_oasis(Workload(label, int(T), float(slot), DEFAULT_RESOURCES,
                                   tuple(servers), tuple(jobs), meta))

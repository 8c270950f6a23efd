"""OASiS instance generator, calibrated to the simulation settings of seed 000 (Sec. V-A).

``generate(preset, seed, **overrides)`` draws an EC2-like cluster (:mod:`mlopt.clusters`) and a
set of jobs from one ``numpy.random.Generator`` seeded with ``seed``: same seed and parameters,
same workload bit for bit.  Every range is a parameter; :data:`PRESETS` holds named parameter
sets.  Defaults (paper, Sec. V-A):

* worker demand: 0-4 GPUs, 1-10 vCPUs, 2-32 GB memory, 5-10 GB storage, b_i in [0.1, 5] Gbps;
* PS demand: 0 GPU, 1-10 vCPUs, 2-32 GB memory, 5-10 GB storage, B_i in [5, 20] Gbps;
* E_i in [50, 200], N_i in [5, 100], M_i in [10, 100], tau_i in [0.001, 0.1], e_i in [30, 575] MB;
* sigmoid utility f(d) = g1 / (1 + exp(g2 (d - g3))): priority g1 in [1, 100], target g3 in
  [1, 15]; 10% / 55% / 35% of jobs are time-insensitive (g2 = 0) / sensitive (g2 in [0.01, 1]) /
  critical (g2 in [4, 6]), each job's class drawn independently with those probabilities.

Counts (GPUs, vCPUs, GB of memory and storage, E, N, M) are uniform integers over the inclusive
range; the rest are uniform reals, rounded to 6 significant digits so the JSON stays readable.

DECISION (tau_i units).  The paper puts tau_i in [0.001, 0.1] "time slots".  With E_i M_i up to
20,000 mini-batches per worker that is a minimum completion time of hundreds to thousands of
slots, inconsistent with T = 100-300 and targets g3 in [1, 15].  We read the range as *seconds*
with ``slot_seconds = 3600`` ("one time slot can be 1 hour or longer", Sec. III-C): a mini-batch
costs tau_i + 2 e_i / b_i seconds and the workload model converts to slots
(:meth:`mlopt.workload.Workload.chunk_slots`).  Both ``minibatch_seconds`` and ``slot_seconds``
are parameters.

DECISION (arrivals).  The paper follows the Google cluster trace, which we do not have.  Jobs
arrive as a homogeneous Poisson process conditioned on exactly ``n_jobs`` arrivals in the window
[0, W) (i.e. i.i.d. uniform arrival instants, sorted); job arrives in slot 1 + floor(instant).
W is ``arrival_window`` (slots, default: the horizon T) or ``n_jobs / arrival_rate`` when a rate
(jobs per slot) is given instead; W <= T keeps every arrival in 1..T.

DECISION (fit).  A demand vector must fit some server of its role or ``mlopt.workload.validate``
rejects the instance (e.g. a 4-GPU worker on a cluster of p2.xlarge).  Such a job's worker (or PS)
demand vector is redrawn from the same generator until it fits (at most ``MAX_REDRAWS`` times):
demands are drawn conditional on fitting.  ``meta["demand_redraws"]`` counts the redraws.
"""
from __future__ import annotations

from dataclasses import replace
from functools import partial
from typing import Any, Callable

import numpy as np

from mlopt import limits
from mlopt.clusters import INSTANCE_TYPES, ROLE_ASSIGNMENTS, ec2_cluster
from mlopt.errors import InputError
from mlopt.genparams import integers, uniform6
from mlopt.params import Param, check_values
from mlopt.utility import Sigmoid
from mlopt.workload import DEFAULT_RESOURCES, Job, Server, Workload

MAX_REDRAWS = 1000
CLASSES = ("insensitive", "sensitive", "critical")  # time sensitivity, Sec. V-A

# Every parameter with its paper default.  Ranges are inclusive (low, high).
DEFAULTS: dict[str, Any] = {
    # instance size
    "n_jobs": 200,
    "horizon": 300,  # T (the paper: 100-300)
    "slot_seconds": 3600.0,
    # cluster (mlopt.clusters.ec2_cluster); n_servers, when set, is split by worker_server_fraction
    "n_worker_servers": 50,  # H
    "n_ps_servers": 50,  # K
    "n_servers": None,
    "worker_server_fraction": 0.5,
    "roles": "gpu-workers",
    "worker_types": None,  # None: from roles
    "ps_types": None,
    "storage_gb": 1000.0,
    "nic_gbps": (20.0, 50.0),
    # arrivals
    "arrival_window": None,  # slots; None: the horizon (or n_jobs / arrival_rate)
    "arrival_rate": None,  # jobs per slot
    # job shape
    "epochs": (50, 200),  # E_i
    "chunks": (5, 100),  # N_i
    "minibatches": (10, 100),  # M_i
    "minibatch_seconds": (0.001, 0.1),  # tau_i, seconds (see DECISION above)
    "gradient_mb": (30.0, 575.0),  # e_i
    # worker demand w_i
    "worker_gpu": (0, 4),
    "worker_cpu": (1, 10),
    "worker_memory_gb": (2, 32),
    "worker_storage_gb": (5, 10),
    "worker_bandwidth_gbps": (0.1, 5.0),  # b_i
    # parameter-server demand s_i (no GPU)
    "ps_cpu": (1, 10),
    "ps_memory_gb": (2, 32),
    "ps_storage_gb": (5, 10),
    "ps_bandwidth_gbps": (5.0, 20.0),  # B_i
    # utility
    "priority": (1.0, 100.0),  # gamma1 (Fig. 5 varies it)
    "target": (1.0, 15.0),  # gamma3, slots
    "class_split": (0.10, 0.55, 0.35),  # insensitive / sensitive / critical
    "decay_sensitive": (0.01, 1.0),  # gamma2
    "decay_critical": (4.0, 6.0),  # gamma2
}

# Named presets: overrides of DEFAULTS.
PRESETS: dict[str, dict[str, Any]] = {
    # Sec. V-A, Fig. 3/6: T = 300, H = K = 50, 200 jobs arriving over the whole horizon.
    "paper-default": {},
    # Fig. 5: 10 jobs, T = 10, few servers, so that the offline optimum of the utility ILP (1)-(13)
    # is provable with HiGHS.  SCALING: only the job size shrinks; per-worker/PS demands, M_i,
    # tau_i, e_i, bandwidths and the utility ranges stay the paper's.  E_i in [10, 30] (paper
    # 50-200) and N_i in [1, 10] (paper 5-100) keep a job's minimum completion time
    # E_i M_i (tau_i + 2e_i/b_i) at one to a few slots and its work at a few worker-slots, and
    # the integer y/z ranges small.  Arrivals come in the first half of the horizon so late
    # arrivals still have room.  Calibrated with a throwaway ILP (x, y, z, completion indicators
    # per job/server/slot) on seeds 0-7: HiGHS proves the optimum in 0.1-4 s; with 4 servers
    # the optimum reaches 63-100% (median ~80%) of the sum of each job's utility when run alone,
    # admitting 6-10 jobs, i.e. resources are contended; with 12 servers contention mostly
    # vanishes.  "Number of servers" (Fig. 5's x-axis) is n_servers, split evenly between
    # worker and PS servers (worker_server_fraction).
    "paper-fig5": {
        "n_jobs": 10, "horizon": 10, "n_servers": 4, "n_worker_servers": None,
        "n_ps_servers": None, "arrival_window": 5, "epochs": (10, 30), "chunks": (1, 10),
    },
    # Hand-checkable: 3 jobs, 3 slots, one big server of each role (every demand fits without
    # redraws), 1-minute slots and moderate bandwidths so a chunk costs about half a worker-slot.
    "tiny": {
        "n_jobs": 3, "horizon": 3, "slot_seconds": 60.0, "n_worker_servers": 1,
        "n_ps_servers": 1, "worker_types": ("p2.8xlarge",), "ps_types": ("c4.8xlarge",),
        "arrival_window": 2, "epochs": (1, 2), "chunks": (1, 3), "minibatches": (20, 60),
        "gradient_mb": (30.0, 100.0), "worker_bandwidth_gbps": (0.5, 2.0),
    },
}


# ---- declared parameters -----------------------------------------------------------------------
def _count_range(doc: str, low: int = 1, high: int = limits.MAX_COUNT) -> Param:
    return Param.range(low=low, high=high, integer=True, doc=doc)


def _real_range(doc: str, *, low_open: bool = False) -> Param:
    return Param.range(low=0.0, high=limits.MAX_VALUE, low_open=low_open, doc=doc)


_TYPES = Param.list(Param.choice(None, sorted(INSTANCE_TYPES)), min_items=1, max_items=100,
                    nullable=True)
#: every parameter's kind and range (defaults: :data:`DEFAULTS` updated by the preset)
SCHEMA: dict[str, Param] = {
    "n_jobs": Param.int(low=1, high=limits.MAX_JOBS, doc="jobs I"),
    "horizon": Param.int(low=1, high=limits.MAX_HORIZON, doc="slots T"),
    "slot_seconds": Param.float(low=0.0, low_open=True, doc="seconds per slot"),
    "n_worker_servers": Param.int(low=1, high=limits.MAX_SERVERS, nullable=True,
                                  doc="worker servers H (replaces the preset's n_servers)"),
    "n_ps_servers": Param.int(low=1, high=limits.MAX_SERVERS, nullable=True,
                              doc="PS servers K (replaces the preset's n_servers)"),
    "n_servers": Param.int(low=2, high=limits.MAX_SERVERS, nullable=True,
                           doc="servers, split by worker_server_fraction (Fig. 5)"),
    "worker_server_fraction": Param.float(low=0.0, high=1.0, low_open=True, high_open=True,
                                          doc="share of n_servers hosting workers"),
    "roles": Param.choice(None, sorted(ROLE_ASSIGNMENTS), doc="instance types per role"),
    "worker_types": replace(_TYPES, doc="worker server types (null: from roles)"),
    "ps_types": replace(_TYPES, doc="PS server types (null: from roles)"),
    "storage_gb": Param.float(low=0.0, low_open=True, doc="disk of every server"),
    "nic_gbps": _real_range("server NIC bandwidth", low_open=True),
    "arrival_window": Param.float(low=0.0, low_open=True, high=limits.MAX_HORIZON,
                                  nullable=True, doc="arrivals in [0, W) slots (<= T)"),
    "arrival_rate": Param.float(low=0.0, low_open=True, high=limits.MAX_JOBS, nullable=True,
                                doc="jobs per slot (instead of arrival_window)"),
    "epochs": _count_range("E_i"),
    "chunks": _count_range("N_i"),
    "minibatches": _count_range("M_i"),
    "minibatch_seconds": _real_range("tau_i, seconds"),
    "gradient_mb": _real_range("e_i, MB"),
    "worker_gpu": _count_range("worker GPUs", low=0),
    "worker_cpu": _count_range("worker vCPUs", low=0),
    "worker_memory_gb": _count_range("worker memory", low=0),
    "worker_storage_gb": _count_range("worker storage", low=0),
    "worker_bandwidth_gbps": _real_range("b_i", low_open=True),
    "ps_cpu": _count_range("PS vCPUs", low=0),
    "ps_memory_gb": _count_range("PS memory", low=0),
    "ps_storage_gb": _count_range("PS storage", low=0),
    "ps_bandwidth_gbps": _real_range("B_i", low_open=True),
    "priority": _real_range("gamma1"),
    "target": _real_range("gamma3, slots"),
    "class_split": Param.list(Param.float(low=0.0, high=1.0), length=3,
                              doc="shares insensitive / sensitive / critical, summing to 1"),
    "decay_sensitive": _real_range("gamma2 of sensitive jobs"),
    "decay_critical": _real_range("gamma2 of critical jobs"),
}


def params(preset: str) -> dict[str, Param]:
    """The parameters ``preset`` takes, each with the preset's value as its default.

    Every preset takes every parameter: the two ways of sizing the cluster (``n_servers`` with
    ``worker_server_fraction``, or ``n_worker_servers`` / ``n_ps_servers``) and of spreading
    arrivals (``arrival_window`` or ``arrival_rate``) replace each other, and ``roles`` applies
    when a types list is null.  Relations between parameters are :func:`check_params`'s; a
    parameter given where it would have no effect (``roles`` with both types lists set,
    ``worker_server_fraction`` without ``n_servers``) is refused, never silently ignored."""
    if preset not in PRESETS:
        raise InputError(f"unknown OASiS preset (known: {', '.join(PRESETS)})", field="preset",
                         value=preset)
    values = {**DEFAULTS, **PRESETS[preset]}
    return {name: p.with_default(_jsonable(values[name])) for name, p in SCHEMA.items()}


# ---- parameter checking ----------------------------------------------------------------------
def _resolve(preset: str, overrides: dict) -> dict[str, Any]:
    """Preset + overrides -> full parameter dict, with the server-count shorthand resolved."""
    if preset not in PRESETS:
        raise InputError(f"unknown OASiS preset (known: {', '.join(PRESETS)})", field="preset",
                         value=preset)
    unknown = sorted(set(overrides) - set(DEFAULTS))
    if unknown:
        raise InputError(f"unknown generator parameter (known: {', '.join(DEFAULTS)})",
                         field=unknown[0], value=overrides[unknown[0]])
    explicit = {"n_worker_servers", "n_ps_servers"} & set(overrides)
    if "n_servers" in overrides and explicit and overrides["n_servers"] is not None:
        raise InputError("give either n_servers or n_worker_servers/n_ps_servers",
                         field="n_servers", value=overrides["n_servers"])
    params = {**DEFAULTS, **PRESETS[preset]}
    # An override of one way of sizing the cluster replaces the preset's other way (a preset
    # sized by n_servers overridden with explicit counts needs both counts).
    if overrides.get("n_servers") is not None:
        params.update(n_worker_servers=None, n_ps_servers=None)
    elif explicit:
        params["n_servers"] = None
    # Likewise for arrivals: a rate given alone replaces the preset's window (and vice versa).
    if overrides.get("arrival_rate") is not None and "arrival_window" not in overrides:
        params["arrival_window"] = None
    elif overrides.get("arrival_window") is not None and "arrival_rate" not in overrides:
        params["arrival_rate"] = None
    params.update(overrides)
    return params


def _check(params: dict) -> dict[str, Any]:
    """The normalized values used for drawing, and the relations between parameters.

    Each value's kind and range is :data:`SCHEMA`'s (checked first by :func:`check_params`);
    what is left here relates parameters to each other: one way of sizing the cluster and its
    table size, arrivals within T, a mini-batch that takes time, class shares summing to 1."""
    p: dict[str, Any] = {"n_jobs": int(params["n_jobs"]), "horizon": int(params["horizon"]),
                         "slot_seconds": float(params["slot_seconds"])}
    if params["n_servers"] is not None:
        n = int(params["n_servers"])
        frac = float(params["worker_server_fraction"])
        if not 0 < frac < 1:
            raise InputError("must be a number in (0, 1)", field="worker_server_fraction",
                             value=params["worker_server_fraction"])
        # "number of servers (proportionally divided to host workers and PSs)", Fig. 5.
        p["n_worker_servers"] = min(n - 1, max(1, round(n * frac)))
        p["n_ps_servers"] = n - p["n_worker_servers"]
    else:
        for key in ("n_worker_servers", "n_ps_servers"):
            if params[key] is None:
                raise InputError("must be set when n_servers is not", field=key, value=None)
            p[key] = int(params[key])
    cells = p["horizon"] * (p["n_worker_servers"] + p["n_ps_servers"]) * len(DEFAULT_RESOURCES)
    if cells > limits.MAX_CELLS:
        raise InputError(f"horizon x servers x resources = {cells:,} is above the limit "
                         f"{limits.MAX_CELLS:,} (see mlopt.limits)", field="horizon",
                         value=p["horizon"])
    p["roles"] = params["roles"]
    for key in ("worker_types", "ps_types"):
        p[key] = None if params[key] is None else tuple(params[key])
    p["storage_gb"] = float(params["storage_gb"])
    p["nic_gbps"] = tuple(float(v) for v in params["nic_gbps"])

    T = p["horizon"]
    window, rate = params["arrival_window"], params["arrival_rate"]
    if window is not None and rate is not None:
        raise InputError("give either arrival_window or arrival_rate", field="arrival_rate",
                         value=rate)
    if rate is not None:
        window = p["n_jobs"] / float(rate)
        if window > T:
            raise InputError(f"too low: {p['n_jobs']} jobs at this rate arrive after the horizon "
                             f"T={T} (need rate >= n_jobs / T = {p['n_jobs'] / T:g})",
                             field="arrival_rate", value=rate)
    elif window is not None and float(window) > T:
        raise InputError(f"must be <= the horizon T={T}", field="arrival_window", value=window)
    p["arrival_window"] = float(window if window is not None else T)

    for key in ("epochs", "chunks", "minibatches", "worker_gpu", "worker_cpu", "worker_memory_gb",
                "worker_storage_gb", "ps_cpu", "ps_memory_gb", "ps_storage_gb"):
        p[key] = tuple(int(v) for v in params[key])
    for key in ("minibatch_seconds", "gradient_mb", "worker_bandwidth_gbps",
                "ps_bandwidth_gbps", "priority", "target", "decay_sensitive", "decay_critical"):
        p[key] = tuple(float(v) for v in params[key])
    if p["minibatch_seconds"][1] == 0 and p["gradient_mb"][1] == 0:
        raise InputError("a mini-batch must take time: minibatch_seconds and gradient_mb are "
                         "both 0", field="minibatch_seconds", value=params["minibatch_seconds"])
    split = tuple(float(v) for v in params["class_split"])
    if abs(sum(split) - 1.0) > 1e-9:
        raise InputError("must be 3 non-negative shares (insensitive, sensitive, critical) "
                         "summing to 1", field="class_split", value=params["class_split"])
    p["class_split"] = split
    return p


# ---- drawing ---------------------------------------------------------------------------------
def _worker_vectors(rng, p, n) -> np.ndarray:
    """n x 5 worker demands in DEFAULT_RESOURCES order (gpu, cpu, memory, storage, bandwidth)."""
    return np.column_stack([
        integers(rng, p["worker_gpu"], n), integers(rng, p["worker_cpu"], n),
        integers(rng, p["worker_memory_gb"], n), integers(rng, p["worker_storage_gb"], n),
        uniform6(rng, p["worker_bandwidth_gbps"], n)]).astype(float)


def _ps_vectors(rng, p, n) -> np.ndarray:
    return np.column_stack([
        np.zeros(n), integers(rng, p["ps_cpu"], n), integers(rng, p["ps_memory_gb"], n),
        integers(rng, p["ps_storage_gb"], n), uniform6(rng, p["ps_bandwidth_gbps"], n)])


def _fit_demands(rng, draw: Callable, demands: np.ndarray, caps: np.ndarray, role: str,
                 p: dict) -> tuple[np.ndarray, int]:
    """Redraw rows of ``demands`` that fit no row of ``caps`` (see DECISION (fit))."""
    def fits(rows):
        return (rows[:, None, :] <= caps[None, :, :] + 1e-12).all(axis=2).any(axis=1)

    redraws = 0
    bad = np.flatnonzero(~fits(demands))
    for i in bad:  # in job order, so the draw sequence is deterministic
        for _ in range(MAX_REDRAWS):
            redraws += 1
            demands[i] = draw(rng, p, 1)[0]
            if fits(demands[i:i + 1])[0]:
                break
        else:
            raise InputError(f"no {role} demand drawn from the configured ranges fits a {role} "
                             f"server of this cluster after {MAX_REDRAWS} tries",
                             field=f"{role}_demand", value=demands[i].tolist())
    return demands, redraws


def _draw(p: dict, seed: int) -> tuple[list[Server], list[Job], int]:
    rng = np.random.default_rng(seed)
    servers = ec2_cluster(rng, p["n_worker_servers"], p["n_ps_servers"], roles=p["roles"],
                          worker_types=p["worker_types"], ps_types=p["ps_types"],
                          storage_gb=p["storage_gb"], nic_gbps=p["nic_gbps"])
    n = p["n_jobs"]
    arrivals = 1 + np.floor(np.sort(rng.uniform(0.0, p["arrival_window"], size=n))).astype(int)
    arrivals = np.minimum(arrivals, p["horizon"])  # guard the float edge instant == window == T
    classes = rng.choice(len(CLASSES), size=n, p=p["class_split"])
    epochs = integers(rng, p["epochs"], n)
    chunks = integers(rng, p["chunks"], n)
    minibatches = integers(rng, p["minibatches"], n)
    tau = uniform6(rng, p["minibatch_seconds"], n)
    grad = uniform6(rng, p["gradient_mb"], n)
    wdem = _worker_vectors(rng, p, n)
    sdem = _ps_vectors(rng, p, n)
    gamma1 = uniform6(rng, p["priority"], n)
    gamma3 = uniform6(rng, p["target"], n)
    decay = np.where(classes == 2, uniform6(rng, p["decay_critical"], n),
                     uniform6(rng, p["decay_sensitive"], n))
    gamma2 = np.where(classes == 0, 0.0, decay)  # time-insensitive: constant utility g1 / 2

    res = list(DEFAULT_RESOURCES)
    caps = {role: np.array([[s.capacity[r] for r in res] for s in servers if s.role == role])
            for role in ("worker", "ps")}
    wdem, r1 = _fit_demands(rng, _worker_vectors, wdem, caps["worker"], "worker", p)
    sdem, r2 = _fit_demands(rng, _ps_vectors, sdem, caps["ps"], "ps", p)

    width = max(3, len(str(n)))
    jobs = [Job(
        id=f"j{i + 1:0{width}d}", arrival=int(arrivals[i]), epochs=int(epochs[i]),
        chunks=int(chunks[i]), minibatches=int(minibatches[i]),
        minibatch_seconds=float(tau[i]), gradient_mb=float(grad[i]),
        worker_demand=dict(zip(res, map(float, wdem[i]))),
        ps_demand=dict(zip(res, map(float, sdem[i]))),
        utility=Sigmoid(float(gamma1[i]), float(gamma2[i]), float(gamma3[i])),
        extra={"time_class": CLASSES[classes[i]]},
    ) for i in range(n)]
    return servers, jobs, r1 + r2


def _jsonable(value):
    return list(value) if isinstance(value, tuple) else value


def check_params(preset: str, params: dict) -> None:
    """Validate a preset's parameter overrides without drawing anything (spec loading): every
    value against :data:`SCHEMA` (kinds, ranges; ``Family.generate`` has done this already),
    then the relations between parameters (:func:`_check`)."""
    _check(_checked(preset, params))


def _checked(preset: str, overrides: dict) -> dict[str, Any]:
    """Preset + overrides, every override checked against the preset's declared parameters."""
    if preset not in PRESETS:
        raise InputError(f"unknown OASiS preset (known: {', '.join(PRESETS)})", field="preset",
                         value=preset)
    check_values(params(preset), overrides, where=f"preset {preset!r} of family oasis",
                 reserved={"seed": "the seed is --seed, not a parameter"})
    resolved = _resolve(preset, overrides)
    # a parameter given but without effect is an error, never silently ignored
    if "roles" in overrides and resolved["worker_types"] is not None \
            and resolved["ps_types"] is not None:
        raise InputError("has no effect: worker_types and ps_types are both set (give "
                         "worker_types=null or ps_types=null to draw those from roles)",
                         field="roles", value=overrides["roles"])
    if "worker_server_fraction" in overrides and resolved["n_servers"] is None:
        raise InputError("has no effect without n_servers (it splits n_servers into worker and "
                         "PS servers)", field="worker_server_fraction",
                         value=overrides["worker_server_fraction"])
    return resolved


def generate(preset: str = "paper-default", seed: int = 0, **overrides) -> Workload:
    """Draw an OASiS workload from ``PRESETS[preset]`` updated by ``overrides`` (keys of
    :data:`DEFAULTS`).  Bad preset, parameter name or value -> :class:`InputError`."""
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise InputError("must be an integer >= 0", field="seed", value=seed)
    p = _check(_checked(preset, overrides))
    servers, jobs, redraws = _draw(p, int(seed))
    meta = {
        "family": "oasis", "generator": "oasis", "paper": "000_1db5ded823e0cb57 (OASiS, Sec. V-A)",
        "preset": preset, "seed": int(seed),
        "params": {k: _jsonable(v) for k, v in p.items()},
        "overrides": sorted(overrides),
        "arrival_rate": p["n_jobs"] / p["arrival_window"],
        "demand_redraws": redraws,
    }
    workload = Workload(f"oasis-{preset}-s{seed}", p["horizon"], p["slot_seconds"],
                        DEFAULT_RESOURCES, tuple(servers), tuple(jobs), meta)
    from mlopt.families.oasis.fields import validate_oasis

    return validate_oasis(workload)


# One generator callable per preset, for registries (``Family.presets``): fn(seed=, **params).
PRESET_GENERATORS: dict[str, Callable[..., Workload]] = {
    name: partial(generate, name) for name in PRESETS
}

"""Harmony instance generator, calibrated to the paper's evaluation (seed 002, Sec. VI).

``generate(preset, seed, **overrides)`` draws jobs from one ``numpy.random.Generator``: same seed
and parameters, same workload bit for bit. Every job trains a model type drawn uniformly from the
speed model's six (Table I); its worker and PS counts W, P are uniform in [1, 3]; its demands are
its model's (``speed_model.toml``: "demands can be inferred from a job's model type").

Time is in scheduling intervals of 20 minutes (``slot_seconds = 1200``). Arrival patterns
(``arrivals``):

* ``uniform`` (the paper's default, "3 jobs per interval on average"): DECISION the number of
  arrivals in each interval of the window is uniform on {1, ..., 5};
* ``poisson``: Poisson(2) arrivals per interval (Fig. 8);
* ``trace``: the paper's downscaled Google trace is not available; mlopt uses the Philly trace
  (``../shared/traces``): ``n_jobs`` consecutive submissions from ``trace_offset`` on, their
  time span rescaled linearly onto the window, so the burstiness of the real arrivals survives
  and the mean rate is ``n_jobs / window`` (``trace_map`` below, also used by
  ``mlopt instances``);
* ``fixed``: ``n_jobs`` jobs arriving uniformly over the window (small presets for the MILP).

DECISION (job length). Datasets were downscaled in the paper; a job's epochs e_n are its
standalone speed times a standalone duration uniform in ``duration`` intervals, rounded up, so
Table II's average JCT of a few intervals is the right order.

DECISION (horizon). Arrivals fall in ``1..window``; the horizon adds ``drain`` intervals so every
job can finish (the checker requires completion within the horizon). ``drain = "auto"`` (the
default) adds sum_n ceil(e_n / (b_n (1 - kappa_n))): running the jobs one after the other, each
alone (spread penalty included), fits, so the offline MILP is always feasible, and the online
policies have ample room.

DECISION (cluster). The testbed's servers (2 GPUs, 8 cores, 48 GB, 50 GbE); ``n_servers``
defaults to 12: with 6 (the testbed) and 3 arrivals of ~2 one-GPU workers per interval the
demand exceeds the 12 GPUs and queues grow without bound.
"""
from __future__ import annotations

import math
from functools import partial
from typing import Any

import numpy as np

from mlopt import limits
from mlopt.errors import InputError
from mlopt.families.harmony.speed import RESOURCES, SpeedModel, default_params
from mlopt.params import Param, check_values
from mlopt.utility import Constant
from mlopt.workload import Job, Server, Workload, validate

SLOT_SECONDS = 1200.0

DEFAULTS: dict[str, Any] = {
    "n_servers": 12,
    "arrivals": "uniform",  # uniform | poisson | trace | fixed
    "window": 20,  # intervals with arrivals
    "drain": "auto",  # extra intervals for the last jobs to finish (see DECISION above)
    "uniform_counts": (1, 5),  # arrivals per interval, uniform integers (mean 3)
    "poisson_rate": 2.0,  # arrivals per interval
    "n_jobs": 60,  # trace / fixed
    "trace": "philly",
    "trace_offset": 0,  # index of the first trace submission used
    "workers": (1, 3),  # W
    "ps": (1, 3),  # P
    "duration": (1.0, 3.0),  # standalone intervals
    "models": None,  # restrict to these model types (list), None: all
    "max_new_jobs": 5,  # N' of the DRL state (kept with the instance)
    "max_jobs": 12,  # N
}

PRESETS: dict[str, dict[str, Any]] = {
    # hand-sized: 3 jobs on 2 servers, the MILP's and the tests' instance
    "tiny": {"n_servers": 2, "arrivals": "fixed", "n_jobs": 3, "window": 2,
             "workers": (1, 2), "ps": (1, 1), "duration": (1.0, 2.0)},
    # a few jobs: the offline optimum stays within reach of HiGHS
    "small": {"n_servers": 3, "arrivals": "fixed", "n_jobs": 5, "window": 3,
              "workers": (1, 2), "ps": (1, 2), "duration": (1.0, 2.0)},
    "uniform": {"arrivals": "uniform"},
    "poisson": {"arrivals": "poisson"},
    "trace": {"arrivals": "trace"},
    # the paper's Fig. 3-4 scale, for quick experiments
    "mini": {"n_servers": 4, "arrivals": "uniform", "window": 6,
             "uniform_counts": (0, 2)},
}


# ---- declared parameters (``params(preset)``) ------------------------------------------------
# Caps (DECISION), far above the paper's scale (6-12 servers, a few hundred jobs) and low enough
# that a generated instance stays runnable: the simulator keeps a few jobs x servers tables
# (about 80 bytes a cell, recomputed every interval), so jobs x servers is capped too
# (MAX_JOB_SERVER_CELLS, also a field check of every Harmony workload: .fields).
#: servers of a generated cluster
MAX_SERVERS = 1_000
#: jobs a preset may draw (n_jobs; window x the high end of uniform_counts; window x poisson_rate)
MAX_JOBS = 20_000
#: intervals with arrivals
MAX_WINDOW = 10_000
#: arrivals per interval (uniform_counts' high end, poisson_rate)
MAX_RATE = 1_000
#: workers / PSs of one job (the paper: at most 3 each)
MAX_TASKS = 16
#: a job's standalone duration in intervals
MAX_DURATION = 1_000.0
#: N and N' of the DRL state (its size grows with N x servers)
MAX_STATE_JOBS = 100
#: model types a ``models`` list may name
MAX_MODELS = 64
#: jobs x servers of one instance (the simulator's tables, ~80 bytes a cell: ~160 MB)
MAX_JOB_SERVER_CELLS = 2_000_000

_COMMON: dict[str, Param] = {
    "n_servers": Param.int(12, low=1, high=MAX_SERVERS, doc="testbed servers"),
    "window": Param.int(20, low=1, high=MAX_WINDOW, doc="intervals with arrivals"),
    "drain": Param.json("auto", nullable=False,
                        doc='"auto" (jobs one after the other, alone) or an integer >= that'),
    "workers": Param.range((1, 3), low=1, high=MAX_TASKS, integer=True, doc="W, uniform"),
    "ps": Param.range((1, 3), low=1, high=MAX_TASKS, integer=True, doc="P, uniform"),
    "duration": Param.range((1.0, 3.0), low=0.0, high=MAX_DURATION,
                            doc="standalone intervals, uniform"),
    "models": Param.list(Param.str(), None, min_items=1, max_items=MAX_MODELS, nullable=True,
                         doc="model types to draw from (null: all of the speed model's)"),
    "max_new_jobs": Param.int(5, low=1, high=MAX_STATE_JOBS - 1, doc="N' (< N)"),
    "max_jobs": Param.int(12, low=2, high=MAX_STATE_JOBS, doc="N"),
}
_N_JOBS = Param.int(60, low=1, high=MAX_JOBS, doc="jobs")
#: the parameters each arrival pattern reads, besides the common ones
_BY_ARRIVALS: dict[str, dict[str, Param]] = {
    "uniform": {"uniform_counts": Param.range((1, 5), low=0, high=MAX_RATE, integer=True,
                                              doc="arrivals per interval, uniform")},
    "poisson": {"poisson_rate": Param.float(2.0, low=0.0, low_open=True, high=MAX_RATE,
                                            doc="mean arrivals per interval")},
    "trace": {"n_jobs": _N_JOBS,
              "trace": Param.choice("philly", ("philly",), doc="trace of the arrivals"),
              "trace_offset": Param.int(0, low=0, high=limits.MAX_JOBS,
                                        doc="index of the first submission used")},
    "fixed": {"n_jobs": _N_JOBS},
}


def _settings(preset: str | None) -> dict[str, Any]:
    if preset is None:
        return dict(DEFAULTS)
    if preset not in PRESETS:
        raise InputError(f"unknown preset (known: {', '.join(sorted(PRESETS))})",
                         field="preset", value=preset)
    return {**DEFAULTS, **PRESETS[preset]}


def _trace_choices() -> tuple[str, ...]:
    from mlopt.traces import TRACES

    return tuple(sorted(n for n, f in TRACES.items() if not f.needs_path))


def params(preset: str | None) -> dict[str, Param]:
    """The parameters ``preset`` takes, with the preset's values as defaults: the common ones
    and those of its arrival pattern (the pattern itself is the preset's: not a parameter), plus
    ``speed_params`` (a whole speed model, as ``speed_model.toml``; null: the packaged one)."""
    settings = _settings(preset)
    schema = {**_COMMON, **_BY_ARRIVALS[settings["arrivals"]]}
    if "trace" in schema:
        schema["trace"] = Param.choice("philly", _trace_choices(), doc=schema["trace"].doc)
    out = {k: p.with_default(settings[k]) for k, p in schema.items()}
    out["speed_params"] = Param.json(None, doc="a speed model (speed_model.toml's tables)")
    return out


def check_params(preset: str | None, values: dict) -> None:
    """Every parameter of ``preset`` (declared kinds and ranges) and the relations between them,
    before anything is drawn: N' < N, known model types, a bounded number of jobs, ``drain``."""
    check_values(params(preset), values, where=f"preset {preset!r} of the harmony generator",
                 reserved={"seed": "the seed is --seed, not a parameter"})
    p = {**_settings(preset), **values}
    if p["max_new_jobs"] >= p["max_jobs"]:
        raise InputError("N' must be below N (max_jobs)", field="max_new_jobs",
                         value=p["max_new_jobs"])
    raw = values.get("speed_params")
    sm = SpeedModel.from_params(raw if raw is not None else default_params(),
                                where="speed_params")
    for n, m in enumerate(p["models"] or ()):
        if m not in sm.models:
            raise InputError(f"unknown model type (known: {', '.join(sm.models)})",
                             field=f"models[{n}]", value=m)
    window, kind = p["window"], p["arrivals"]
    if kind == "uniform" and window * p["uniform_counts"][1] > MAX_JOBS:
        raise InputError(f"window x the high end of uniform_counts must be <= {MAX_JOBS} jobs",
                         field="uniform_counts", value=p["uniform_counts"])
    if kind == "poisson" and window * p["poisson_rate"] > MAX_JOBS:
        raise InputError(f"window x poisson_rate must be <= {MAX_JOBS} jobs",
                         field="poisson_rate", value=p["poisson_rate"])
    jobs = (window * p["uniform_counts"][1] if kind == "uniform"
            else window * p["poisson_rate"] if kind == "poisson" else p["n_jobs"])
    check_cells(jobs, p["n_servers"])
    check_drain(p["drain"])


def check_cells(jobs: float, n_servers: int) -> None:
    """(Expected) jobs x servers within :data:`MAX_JOB_SERVER_CELLS`."""
    if jobs * n_servers > MAX_JOB_SERVER_CELLS:
        raise InputError(f"jobs x servers (about {int(jobs)} x {n_servers}) must be <= "
                         f"{MAX_JOB_SERVER_CELLS} (the simulator's tables)", field="n_servers",
                         value=n_servers)


def check_drain(drain) -> None:
    """Check the drain option is "auto" or a slot count, else raise InputError."""
    if drain != "auto" and (isinstance(drain, bool) or not isinstance(drain, int)
                            or not 1 <= drain <= limits.MAX_HORIZON):
        raise InputError(f'must be "auto" or an integer in [1, {limits.MAX_HORIZON}]',
                         field="drain", value=drain)


def _range(params, key, integer=False):
    v = params[key]
    if (not isinstance(v, (list, tuple)) or len(v) != 2
            or not all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in v)
            or v[0] > v[1] or v[0] < 0 or (integer and not all(float(x).is_integer() for x in v))):
        raise InputError("must be a range [low, high] with 0 <= low <= high", field=key, value=v)
    return (int(v[0]), int(v[1])) if integer else (float(v[0]), float(v[1]))


def _positive_int(params, key, minimum=1):
    v = params[key]
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not float(v).is_integer() \
            or v < minimum:
        raise InputError(f"must be an integer >= {minimum}", field=key, value=v)
    return int(v)


def trace_map(times_s: np.ndarray, n_jobs: int, window: int, offset: int = 0) -> np.ndarray:
    """Interval (1..window) of each of ``n_jobs`` consecutive submissions from ``offset`` on:
    their time span is rescaled linearly onto [0, window) (burstiness kept, rate n_jobs/window)."""
    t = np.sort(np.asarray(times_s, float))[offset:offset + n_jobs]
    if len(t) < n_jobs:
        raise InputError(f"the trace has only {len(t)} submissions from this offset",
                         field="n_jobs", value=n_jobs)
    span = t[-1] - t[0]
    x = (t - t[0]) / span * window if span > 0 else np.zeros(len(t))
    return np.minimum(np.floor(x).astype(int), window - 1) + 1


def _trace_arrivals(params) -> np.ndarray:
    from mlopt.traces import load_trace

    table, _ = load_trace(params["trace"])
    return trace_map(table["arrival_s"].to_numpy(), _positive_int(params, "n_jobs"),
                     _positive_int(params, "window"), _positive_int(params, "trace_offset", 0))


def _arrivals(params, rng: np.random.Generator) -> np.ndarray:
    kind, window = params["arrivals"], _positive_int(params, "window")
    if kind == "uniform":
        lo, hi = _range(params, "uniform_counts", integer=True)
        counts = rng.integers(lo, hi + 1, size=window)
    elif kind == "poisson":
        rate = params["poisson_rate"]
        if not isinstance(rate, (int, float)) or not math.isfinite(rate) or rate <= 0:
            raise InputError("must be > 0", field="poisson_rate", value=rate)
        counts = rng.poisson(rate, size=window)
    elif kind == "trace":
        return _trace_arrivals(params)
    elif kind == "fixed":
        return np.sort(rng.integers(1, window + 1, size=_positive_int(params, "n_jobs")))
    else:
        raise InputError("unknown arrival pattern (uniform, poisson, trace, fixed)",
                         field="arrivals", value=kind)
    return np.repeat(np.arange(1, window + 1), counts)


def make_job(sm: SpeedModel, jid: str, model: str, workers: int, ps: int, epochs: int,
             arrival: int) -> Job:
    """One Harmony job with its model's demands (``speed_model.toml``)."""
    mi = sm.index(model)
    speed = float(sm.standalone(mi, workers))
    return Job(
        id=jid, arrival=int(arrival), epochs=int(epochs), chunks=int(workers), minibatches=1,
        # one "mini-batch" = one epoch at standalone speed: keeps the shared fields meaningful
        minibatch_seconds=round(SLOT_SECONDS / speed, 6), gradient_mb=0.0,
        worker_demand=dict(zip(RESOURCES, map(float, sm.worker_demand[mi]))),
        ps_demand=dict(zip(RESOURCES, map(float, sm.ps_demand[mi]))), utility=Constant(1.0),
        extra={"model": model, "workers": int(workers), "ps": int(ps)})


def make_workload(jobs: list[dict], *, n_servers: int, horizon: int, name: str = "harmony-hand",
                  speed_params: dict | None = None, max_new_jobs: int = 5, max_jobs: int = 12,
                  meta: dict | None = None) -> Workload:
    """A Harmony workload from explicit job specs (dicts with model, workers, ps, epochs,
    arrival; optional id) on ``n_servers`` testbed servers."""
    raw = speed_params if speed_params is not None else default_params()
    sm = SpeedModel.from_params(raw)
    js = tuple(make_job(sm, str(j.get("id", f"j{n}")), j["model"], j["workers"], j["ps"],
                        j["epochs"], j["arrival"]) for n, j in enumerate(jobs))
    servers = tuple(Server(f"s{m}", "any", dict(zip(RESOURCES, map(float, sm.server))),
                           kind="harmony-testbed") for m in range(n_servers))
    extra = {"speed_model": raw, "max_new_jobs": int(max_new_jobs), "max_jobs": int(max_jobs)}
    return validate(Workload(name, int(horizon), SLOT_SECONDS, RESOURCES, servers, js,
                             {"family": "harmony", **(meta or {})}, extra))


def drain_of(jobs: list[dict], sm: SpeedModel, params: dict) -> int:
    """Intervals added after the window (the DECISION on the horizon above). An explicit
    ``drain`` must be at least the ``auto`` one: with less, no schedule need exist (the checker
    requires every job to finish within the horizon; ``drain = 0`` left the online algorithms
    nothing but infeasible schedules), so it is refused."""
    auto = sum(math.ceil(j["epochs"] / (float(sm.standalone(sm.index(j["model"]), j["workers"]))
                                        * (1.0 - sm.comm_penalty[sm.index(j["model"])])) - 1e-9)
               for j in jobs)
    if params["drain"] == "auto":
        return auto
    check_drain(params["drain"])
    if params["drain"] < auto:
        raise InputError(f"must be \"auto\" or at least {auto} intervals for these jobs (them "
                         "run one after the other, alone: less may leave no feasible schedule)",
                         field="drain", value=params["drain"])
    return params["drain"]


def generate(preset: str | None = None, seed: int = 0, *, speed_params: dict | None = None,
             **overrides) -> Workload:
    """Generate a seeded Harmony workload from the preset (None: defaults) and overrides."""
    check_params(preset, {**overrides, **({} if speed_params is None
                                           else {"speed_params": speed_params})})
    params = _settings(preset)
    params.update(overrides)
    raw = speed_params if speed_params is not None else default_params()
    sm = SpeedModel.from_params(raw)
    rng = np.random.default_rng(seed)
    arrivals = _arrivals(params, rng)
    models = params["models"] or list(sm.models)
    for m in models:
        sm.index(m)
    wlo, whi = _range(params, "workers", integer=True)
    plo, phi = _range(params, "ps", integer=True)
    dlo, dhi = _range(params, "duration")
    n_servers = _positive_int(params, "n_servers")
    window = _positive_int(params, "window")
    jobs = []
    for a in arrivals:
        mi = sm.index(models[int(rng.integers(len(models)))])
        w = int(rng.integers(max(1, wlo), whi + 1))
        p = int(rng.integers(max(1, plo), phi + 1))
        epochs = max(1, math.ceil(float(sm.standalone(mi, w)) * rng.uniform(dlo, dhi) - 1e-9))
        jobs.append({"model": sm.models[mi], "workers": w, "ps": p, "epochs": epochs,
                     "arrival": int(a)})
    drain = drain_of(jobs, sm, params)
    meta = {"generator": "harmony", "preset": preset, "seed": seed,
            "params": {k: list(v) if isinstance(v, tuple) else v for k, v in params.items()}}
    return make_workload(jobs, n_servers=n_servers, horizon=window + drain,
                         name=f"harmony-{preset or 'custom'}-{seed}", speed_params=raw,
                         max_new_jobs=_positive_int(params, "max_new_jobs"),
                         max_jobs=_positive_int(params, "max_jobs"), meta=meta)


def preset_generators() -> dict[str, Any]:
    """Return a generator function for every preset, by name."""
    return {name: partial(generate, name) for name in PRESETS}

"""Harmony workloads from a real trace table (``mlopt instances from-trace TRACE [FILE]
--family harmony``): the trace gives each job's arrival, GPU count, relative length and, where it
names one of the speed model's types, its model; the rest is drawn as the generator does.

Conventions (``-p`` parameters: the generator's, :data:`.generator.DEFAULTS`, plus
``gpus_per_worker``):

* **Jobs and arrivals**: ``n_jobs`` consecutive submissions from ``trace_offset`` on (the table
  is sorted by arrival), their time span rescaled onto ``window`` 20-minute intervals by
  :func:`.generator.trace_map`: the generator's ``trace`` arrival pattern, so with the shared
  Philly copy and the defaults the arrivals are the ``trace`` preset's (tested);
* **Workers**: W = ceil(gpus / ``gpus_per_worker``) clipped to the ``workers`` range [1, 3]
  (one GPU per worker as in the testbed; the paper's W <= 3);
* **Length** (DECISION): real durations (minutes to days) do not fit the downscaled cluster's
  20-minute intervals, so a job keeps its *rank* among the selected jobs' durations (ties
  averaged), mapped linearly onto the ``duration`` range of standalone intervals (the longest
  job gets the top); epochs = ceil(standalone speed x that duration), as in the generator;
* **Model type**: the trace's ``model`` column when it is one of the speed model's types
  (case-insensitive), else uniform among ``models``; **PSs**: uniform in the ``ps`` range.
  The model and P draws are made for every job in order from ``numpy.random.default_rng(seed)``
  (a trace-given model still consumes its draw, so P does not depend on the model column);
* **Horizon**: ``window`` plus the generator's ``drain``.

Same table, seed and parameters -> the same workload, bit for bit.
"""
from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from mlopt.errors import InputError
from mlopt.families.harmony.generator import (_COMMON, _N_JOBS, DEFAULTS, MAX_TASKS,
                                              _positive_int, _range, check_cells, check_drain,
                                              drain_of, make_workload, trace_map)
from mlopt.families.harmony.speed import SpeedModel, default_params
from mlopt.limits import MAX_JOBS
from mlopt.params import Param, check_values

if TYPE_CHECKING:  # pragma: no cover
    from mlopt.workload import Workload

# generator parameters that mean nothing here (the trace decides the arrivals)
IGNORED = ("arrivals", "uniform_counts", "poisson_rate", "trace")
#: the parameters (``-p``): the generator's common ones and n_jobs, trace_offset,
#: gpus_per_worker, with the generator's kinds, ranges and caps (``drain`` as in the generator:
#: "auto" or at least the auto drain, so every job can finish)
PARAMS: dict[str, Param] = {
    **{k: p.with_default(DEFAULTS[k]) for k, p in _COMMON.items()},
    "n_jobs": _N_JOBS.with_default(DEFAULTS["n_jobs"]),
    "trace_offset": Param.int(0, low=0, high=MAX_JOBS, doc="first trace row used"),
    "gpus_per_worker": Param.int(1, low=1, high=MAX_TASKS * 64, doc="GPUs per worker"),
}
KNOWN = sorted(PARAMS)


def rank_durations(durations: np.ndarray, lo: float, hi: float) -> np.ndarray:
    """Each duration's rank among ``durations`` (ties averaged) mapped onto [lo, hi]."""
    n = len(durations)
    if n == 1:
        return np.array([(lo + hi) / 2.0])
    ranks = pd.Series(durations).rank(method="average").to_numpy() - 1.0
    return lo + (hi - lo) * ranks / (n - 1)


def harmony_from_trace(table: pd.DataFrame, *, seed: int = 0, report=None, **params) -> Workload:
    """Trace table (:mod:`mlopt.traces.table`) -> Harmony workload (module docstring)."""
    check_values(PARAMS, params, where="the harmony trace conversion",
                 reserved={"seed": "the seed is --seed, not a parameter"})
    p = {**DEFAULTS, "gpus_per_worker": 1, **params}
    if p["max_new_jobs"] >= p["max_jobs"]:
        raise InputError("N' must be below N (max_jobs)", field="max_new_jobs",
                         value=p["max_new_jobs"])
    check_drain(p["drain"])
    check_cells(p["n_jobs"], p["n_servers"])
    n_jobs, window = _positive_int(p, "n_jobs"), _positive_int(p, "window")
    offset, gpw = _positive_int(p, "trace_offset", 0), _positive_int(p, "gpus_per_worker")
    wlo, whi = _range(p, "workers", integer=True)
    plo, phi = _range(p, "ps", integer=True)
    dlo, dhi = _range(p, "duration")
    raw = default_params()
    sm = SpeedModel.from_params(raw)
    models = p["models"] or list(sm.models)
    if not isinstance(models, (list, tuple)) or not models:
        raise InputError("must be a non-empty list of model types", field="models",
                         value=p["models"])
    for n, m in enumerate(models):
        if m not in sm.models:
            raise InputError(f"unknown model type (known: {', '.join(sm.models)})",
                             field=f"models[{n}]", value=m)
    arrivals = trace_map(table["arrival_s"].to_numpy(), n_jobs, window, offset)
    rows = table.iloc[offset:offset + n_jobs]
    length = rank_durations(rows["duration_s"].to_numpy(float), dlo, dhi)
    named = rows["model"].astype(str).str.lower().tolist() if "model" in rows else [""] * n_jobs
    rng = np.random.default_rng(seed)
    jobs = []
    for k, (gpus, a) in enumerate(zip(rows["gpus"].to_numpy(int), arrivals)):
        drawn = models[int(rng.integers(len(models)))]
        ps = int(rng.integers(max(1, plo), phi + 1))
        model = named[k] if named[k] in sm.models else drawn
        w = min(max(math.ceil(gpus / gpw), max(1, wlo)), whi)
        epochs = max(1, math.ceil(float(sm.standalone(sm.index(model), w)) * length[k] - 1e-9))
        jobs.append({"model": model, "workers": w, "ps": ps, "epochs": epochs,
                     "arrival": int(a)})
    meta = {"generator": "harmony.from_trace", "seed": seed,
            "params": {k: list(v) if isinstance(v, tuple) else v for k, v in sorted(p.items())
                       if k in KNOWN},
            "trace_job_ids": [str(j) for j in rows["job_id"]],
            # counts only: the report's file path is this machine's
            **({"trace_rows": {"read": report.rows_read, "kept": report.kept}}
               if report is not None else {})}
    return make_workload(jobs, n_servers=_positive_int(p, "n_servers"),
                         horizon=window + drain_of(jobs, sm, p), name=f"harmony-trace-{seed}",
                         speed_params=raw, max_new_jobs=_positive_int(p, "max_new_jobs"),
                         max_jobs=_positive_int(p, "max_jobs"), meta=meta)

"""Real traces -> hetero jobs: the rows a trace-driven preset uses and how each becomes a job.

The mapping (the generator's ``trace*`` parameters; the module docstring of
:mod:`mlopt.families.hetero.generator` summarizes it):

* **Rows.**  ``n_jobs`` consecutive rows of the trace table (:mod:`mlopt.traces`: rows sorted by
  submission time) from row ``trace_start``; ``trace`` names the loader (``philly``,
  ``itp``, ``itp-annotated``, ``pollux-workload``), ``trace_path`` a file in that loader's format
  (default: the shared copy).  ``mlopt instances from-trace TRACE [FILE] --family hetero`` (and
  ``from-csv``) passes an already loaded table instead
  (:func:`mlopt.families.hetero.generator.from_trace`).
* **Arrival.**  a_j = 1 + floor((s_j - s_first) * ``trace_time_scale`` / slot_seconds): the
  first job arrives at slot 1, one slot is ``slot_seconds`` of trace time (the paper's 1 h).
  The horizon becomes max(``horizon``, last arrival).
* **Chunks.**  D_j = the trace's GPU count clipped to the ``chunks`` range: the GPUs a job ran
  on are its data-parallel width (one chunk per worker at full width); the paper's D in [5, 50]
  lifts the many 1-GPU jobs to 5 chunks.
* **Epochs (from the duration).**  K_j, v_jm, U and pi are drawn as for synthetic jobs.  At full
  width (N = D_j workers) of its fastest worker type, co-located (q = 1, no exchange term), a job
  runs E_j K_j p_j slots with p_j = min_m v_jm + min_p U_j^p (PS, rate (1)) or
  min_m v_jm + U_j (D_j - 1) / D_j (RA, rate (14)).  E_j = max(1, round(dur_j / (K_j p_j))) with
  dur_j = duration_s * ``trace_duration_scale`` / slot_seconds, so that ideal configuration
  takes about the trace's duration.  A job shorter than one epoch of the drawn K_j (most Philly
  jobs last minutes) keeps E_j = 1 and gets K_j' = round(dur_j / p_j) in [1, K_j] mini-batches
  per chunk.  ``meta["trace"]["duration_fit"]`` gives the median and range of E K p / dur
  (> 1 only for jobs shorter than one mini-batch; a job still occupies whole slots).
* **Weights** (``trace_weight``): ``"random"`` (default) keeps the paper's uniform draw in the
  ``weight`` range (traces record no priority); ``"size"`` maps the job's GPU-hours (GPUs x
  duration) rank among the selected jobs linearly onto the range (ties averaged: bigger jobs
  weigh more); ``"tenant"`` draws one weight per tenant (Philly's virtual cluster) from a
  separate stream, so jobs of one tenant share a priority.
* Not from traces: servers, worker / PS types and their demands (no trace records them for
  training jobs); the Alibaba PAI files are pods, not jobs with durations, and their licence
  keeps them out of generated data, so hetero does not use them.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from mlopt.errors import InputError

# job traces a preset can name (the generic "csv" loader needs a column mapping)
JOB_TRACES = ("philly", "itp", "itp-annotated", "pollux-workload")
WEIGHT_MODES = ("random", "size", "tenant")


@dataclass(frozen=True)
class TraceRows:
    arrival: np.ndarray  # slots, first = 1
    gpus: np.ndarray
    duration_slots: np.ndarray
    tenant: np.ndarray | None
    rows: int


def check_trace_params(params: dict[str, Any], *, table_given: bool = False) -> None:
    """Check the trace parameters, raising InputError on an invalid one."""
    name = params["trace"]
    if name is None and not table_given:
        return
    if not table_given and name not in JOB_TRACES:
        raise InputError(f"must be null or one of {', '.join(JOB_TRACES)}", field="trace",
                         value=name)
    v = params["trace_start"]
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 0:
        raise InputError("must be an integer >= 0", field="trace_start", value=v)
    for key in ("trace_time_scale", "trace_duration_scale"):
        x = params[key]
        if isinstance(x, bool) or not isinstance(x, (int, float)) or not (
                math.isfinite(x) and x > 0):
            raise InputError("must be a finite number > 0", field=key, value=x)
    if params["trace_weight"] not in WEIGHT_MODES:
        raise InputError(f"must be one of {', '.join(WEIGHT_MODES)}", field="trace_weight",
                         value=params["trace_weight"])
    p = params["trace_path"]
    if p is not None and not isinstance(p, str):
        raise InputError("must be a file path or null", field="trace_path", value=p)


def trace_rows(params: dict[str, Any], n_jobs: int, slot_seconds: float, *,
               table=None) -> TraceRows:
    """The ``n_jobs`` rows from ``trace_start`` of ``table`` (default: load ``trace``)."""
    if table is None:
        from mlopt.traces import load_trace

        table, _ = load_trace(params["trace"], params["trace_path"])
    start = int(params["trace_start"])
    rows = table.iloc[start:start + n_jobs]
    if len(rows) < n_jobs:
        raise InputError(f"the trace has {len(table)} usable rows, fewer than trace_start + "
                         f"n_jobs = {start + n_jobs}", field="trace_start", value=start)
    a = rows["arrival_s"].to_numpy(dtype=float)
    arrival = 1 + np.floor((a - a[0]) * params["trace_time_scale"] / slot_seconds).astype(int)
    dur = rows["duration_s"].to_numpy(dtype=float) * params["trace_duration_scale"] / slot_seconds
    tenant = rows["tenant"].astype(str).to_numpy() if "tenant" in rows.columns else None
    if params["trace_weight"] == "tenant" and tenant is None:
        raise InputError(f"trace {params['trace'] or 'table'!r} records no tenant",
                         field="trace_weight", value="tenant")
    return TraceRows(arrival, rows["gpus"].to_numpy(dtype=int), dur, tenant, len(rows))


def epochs_from_duration(duration_slots: float, minibatches: int,
                         per_minibatch: float) -> tuple[int, int]:
    """(E, K): E with E K p closest to the duration (at least 1); a job shorter than one epoch
    of the drawn K keeps E = 1 and gets fewer mini-batches per chunk, K' = round(dur / p) in
    [1, K]."""
    epochs = max(1, int(round(duration_slots / (minibatches * per_minibatch))))
    if epochs == 1:
        minibatches = min(minibatches, max(1, int(round(duration_slots / per_minibatch))))
    return epochs, minibatches


def trace_weights(tr: TraceRows, mode: str, weight_range, seed: int) -> np.ndarray | None:
    """Weights by ``trace_weight``; None for "random" (the generator's own draws stay)."""
    lo, hi = float(weight_range[0]), float(weight_range[1])
    if mode == "random":
        return None
    if mode == "size":
        import pandas as pd

        size = tr.gpus * tr.duration_slots
        rank = pd.Series(size).rank(method="average").to_numpy()
        n = len(size)
        return lo + (rank - 1) / (n - 1) * (hi - lo) if n > 1 else np.full(n, (lo + hi) / 2)
    # tenant: one draw per tenant in order of first appearance, from a stream of its own
    rng = np.random.default_rng([seed, 3])
    per: dict[str, float] = {}
    for t in tr.tenant:
        if t not in per:
            per[t] = float(rng.uniform(lo, hi))
    return np.array([per[t] for t in tr.tenant])

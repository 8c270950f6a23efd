"""Microsoft Philly trace as shipped with Pollux (petuum/adaptdl, osdi21-artifact).

``philly.csv`` columns ``timestamp,duration,num_gpus,gpu_time,cluster`` (82,247 jobs, CC-BY-4.0;
cite Jeon et al., ATC'19 and Qiao et al., OSDI'21).  Conventions of :func:`load_philly`:

* ``timestamp`` is an absolute date-time (``%Y-%m-%d %H:%M:%S``, no time zone); rows are NOT
  sorted in the file, so the table is sorted (``unsorted="sort"``) and the report counts how many
  kept rows were out of order;
* ``arrival_s`` is measured from the earliest kept timestamp unless ``origin`` (a timestamp
  string) is given; the report's ``origin`` says which instant is 0;
* ``duration`` is in seconds; ``num_gpus`` -> ``gpus``; the hashed virtual cluster ``cluster`` ->
  ``tenant`` (``tenant=None`` drops it); ``gpu_time`` (= duration x GPUs) is not used;
* no job ids: ``job_id`` is ``philly:<line>``.

``workload-6.csv`` (``name,time,application,num_replicas,batch_size``; 160 jobs, the Pollux
testbed workload) has no duration.  Pollux generated it from ``philly.csv`` by picking the
application from the sampled job's GPU-time: below 1 GPU-hour cifar10 or ncf, 1-10 GPU-hours
deepspeech2 (half relabelled bert), 10-100 yolov3, 100-1000 imagenet (jobs shorter than 60 s were
excluded first), and then drew ``num_replicas`` independently.  :func:`load_pollux_workload`
turns that back into a duration: each application gets the geometric midpoint of its GPU-hour
band (:data:`POLLUX_GPU_HOURS`, a parameter), and ``duration_s = gpu_hours * 3600 /
num_replicas`` (one GPU per replica).  ``time`` is seconds from the start of the workload;
``application`` -> ``model``; ``batch_size`` -> ``batch_size``; ``name`` -> ``job_id``.
Rows with an application not in the table are skipped as ``no_duration``.
"""
from __future__ import annotations

import math
from pathlib import Path
from typing import Any, Mapping

import numpy as np
import pandas as pd

from mlopt.traces.paths import shared_trace
from mlopt.traces.table import LoadReport, read_table

PHILLY_FILE = "philly-pollux/philly.csv"
POLLUX_WORKLOAD_FILE = "philly-pollux/workload-6.csv"
PHILLY_TIMESTAMP_FORMAT = "%Y-%m-%d %H:%M:%S"
PHILLY_COLUMNS = {"arrival": "timestamp", "duration": "duration", "gpus": "num_gpus"}
POLLUX_COLUMNS = {"job_id": "name", "arrival": "time", "gpus": "num_replicas",
                  "model": "application", "batch_size": "batch_size"}

# GPU-hour bands Pollux's workload generator used per application; the midpoint (geometric,
# the bands span decades) is the GPU-hours we assume a job of that application took.
POLLUX_GPU_HOUR_BANDS: dict[str, tuple[float, float]] = {
    "cifar10": (1 / 60, 1.0), "ncf": (1 / 60, 1.0),
    "deepspeech2": (1.0, 10.0), "bert": (1.0, 10.0),
    "yolov3": (10.0, 100.0), "imagenet": (100.0, 1000.0),
}
POLLUX_GPU_HOURS: dict[str, float] = {
    app: math.sqrt(lo * hi) for app, (lo, hi) in POLLUX_GPU_HOUR_BANDS.items()}


def load_philly(path: str | Path | None = None, *, tenant: str | None = "cluster",
                origin: Any = None, unsorted: str = "sort",
                strict: bool = False) -> tuple[pd.DataFrame, LoadReport]:
    """Pollux ``philly.csv`` -> (trace table, load report).  ``path`` defaults to the shared
    copy; ``tenant`` is the column used as tenant (None: no tenant)."""
    columns = dict(PHILLY_COLUMNS)
    if tenant is not None:
        columns["tenant"] = tenant
    return read_table(path if path is not None else shared_trace(PHILLY_FILE), columns,
                      trace="philly", arrival_unit="datetime",
                      timestamp_format=PHILLY_TIMESTAMP_FORMAT, origin=origin,
                      unsorted=unsorted, strict=strict)


def load_pollux_workload(path: str | Path | None = None, *,
                         gpu_hours: Mapping[str, float] | None = None, origin: Any = None,
                         unsorted: str = "sort",
                         strict: bool = False) -> tuple[pd.DataFrame, LoadReport]:
    """Pollux ``workload-6.csv`` (or any ``workloads*/workload-N.csv``) -> (table, report)."""
    hours = dict(POLLUX_GPU_HOURS if gpu_hours is None else gpu_hours)

    def duration(frame: pd.DataFrame) -> np.ndarray:
        gh = frame["model"].map(hours).to_numpy(dtype=float, na_value=np.nan)
        return gh * 3600.0 / frame["gpus"].to_numpy(dtype=float)

    table, report = read_table(
        path if path is not None else shared_trace(POLLUX_WORKLOAD_FILE), POLLUX_COLUMNS,
        trace="pollux-workload", arrival_unit="s", origin=origin, unsorted=unsorted,
        strict=strict, derive_duration=duration, derive_field="model")
    report.options["gpu_hours"] = hours
    return table, report

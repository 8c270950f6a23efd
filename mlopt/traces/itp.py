"""Microsoft ITP traces as published with ElasticFlow (microsoft/elasticflow-traces, MIT).

``raw/clusterNN.csv``: ``job_id,submission_time,duration,num_gpu``; ``annotated/clusterNN.csv``
and ``annotated/195job.csv`` add ``num_iteration,model_name,deadline,batch_size``, which the
publishers generated at random (``duration`` stays the measured run time).  Conventions of
:func:`load_itp`:

* ``submission_time`` is seconds from the start of collection; ``arrival_s`` keeps that clock
  (``origin=None``; ``"min"`` makes the first job arrive at 0);
* the publisher states the files are sorted by submission time, so order matters: a row that
  arrives earlier than a previous one is skipped as ``unsorted`` (``unsorted="skip"``);
* ``duration`` in seconds; ``num_gpu`` -> ``gpus``; ``job_id`` kept (later duplicates skipped);
* annotated files (``annotated=True``): ``model_name`` -> ``model``, ``deadline`` (same clock as
  ``submission_time``) -> ``deadline_s``, ``batch_size`` -> ``batch_size``, ``num_iteration`` ->
  ``iterations``.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from mlopt.traces.paths import shared_trace
from mlopt.traces.table import LoadReport, read_table

ITP_DEFAULT_FILE = "microsoft-itp/raw/cluster01.csv"
ITP_DEFAULT_ANNOTATED_FILE = "microsoft-itp/annotated/cluster01.csv"
ITP_RAW_COLUMNS = {"job_id": "job_id", "arrival": "submission_time", "duration": "duration",
                   "gpus": "num_gpu"}
ITP_ANNOTATED_COLUMNS = {**ITP_RAW_COLUMNS, "model": "model_name", "deadline": "deadline",
                         "batch_size": "batch_size", "iterations": "num_iteration"}


def load_itp(path: str | Path | None = None, *, annotated: bool = False, origin: Any = None,
             unsorted: str = "skip", strict: bool = False) -> tuple[pd.DataFrame, LoadReport]:
    """An ITP cluster file -> (trace table, load report).  ``path`` defaults to the shared
    ``cluster01.csv`` (raw or annotated)."""
    if path is None:
        path = shared_trace(ITP_DEFAULT_ANNOTATED_FILE if annotated else ITP_DEFAULT_FILE)
    return read_table(path, ITP_ANNOTATED_COLUMNS if annotated else ITP_RAW_COLUMNS,
                      trace="itp-annotated" if annotated else "itp", arrival_unit="s",
                      origin=origin, unsorted=unsorted, strict=strict)

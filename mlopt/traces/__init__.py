"""Real workload traces -> trace tables -> Workloads.

``load_trace(name, path=None, **opts) -> (table, report)`` looks the loader up in :data:`TRACES`
(``path`` defaults to the shared copy under ``../shared/traces`` when the trace has one);
each family turns a trace table into its own workloads (``Family.from_trace``, ``mlopt
instances from-trace --family NAME``; OASiS's conventions are in
:mod:`mlopt.families.oasis.trace`).  The table format and the bad-row accounting are in
:mod:`mlopt.traces.table`; each loader module documents its trace's quirks.

``trace_to_workload``, ``build_cluster`` and ``CONVENTIONS`` are still importable from here
(loaded on first use, so importing :mod:`mlopt.traces` loads no family); they are OASiS's.

Add a trace: write a loader ``fn(path=None, **opts) -> (table, LoadReport)`` (usually a column
mapping on :func:`mlopt.traces.table.read_table`) and :func:`register_trace` it.
"""
from __future__ import annotations

import inspect
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, Callable

import pandas as pd

from mlopt.errors import InputError
from mlopt.traces.alibaba import (PerGpuDemand, UniformPerGpuDemand, alibaba_cluster, load_nodes,
                      load_pod_demand, per_gpu_demand)
from mlopt.traces.csv_generic import load_csv, parse_mapping
from mlopt.traces.itp import load_itp
from mlopt.traces.paths import shared_traces_dir
from mlopt.traces.philly import load_philly, load_pollux_workload
from mlopt.traces.table import REASONS, LoadReport, check_table, read_table

Loader = Callable[..., "tuple[pd.DataFrame, LoadReport]"]


@dataclass(frozen=True)
class TraceFormat:
    name: str
    loader: Loader
    description: str
    licence: str
    needs_path: bool = False  # no default shared file (e.g. the generic CSV loader)


TRACES: dict[str, TraceFormat] = {}


def register_trace(fmt: TraceFormat) -> TraceFormat:
    TRACES[fmt.name] = fmt
    return fmt


def _csv(path=None, mapping=None, *, arrival_unit="s", duration_unit="s",
         timestamp_format=None, origin=None, unsorted="sort", strict=False, name="csv"):
    if mapping is None:
        raise InputError("the generic CSV loader needs a column mapping "
                         "(arrival=COL,gpus=COL,duration=COL,...)", field="mapping")
    return load_csv(path, mapping, arrival_unit=arrival_unit, duration_unit=duration_unit,
                    timestamp_format=timestamp_format, origin=origin, unsorted=unsorted,
                    strict=strict, name=name)


for _fmt in (
    TraceFormat("philly", load_philly, "Microsoft Philly via Pollux (philly.csv)", "CC-BY-4.0"),
    TraceFormat("pollux-workload", load_pollux_workload,
                "Pollux testbed workload (workload-6.csv), durations from GPU-hour bands",
                "CC-BY-4.0"),
    TraceFormat("itp", load_itp, "Microsoft ITP raw clusterNN.csv (ElasticFlow)", "MIT"),
    TraceFormat("itp-annotated", partial(load_itp, annotated=True),
                "Microsoft ITP annotated clusterNN.csv with model/deadline/batch (ElasticFlow)",
                "MIT"),
    TraceFormat("csv", _csv, "any CSV with a column mapping", "the file's own", True),
):
    register_trace(_fmt)


def load_trace(name: str, path: str | Path | None = None,
               **opts: Any) -> tuple[pd.DataFrame, LoadReport]:
    """Load trace ``name`` (a key of :data:`TRACES`) -> (trace table, load report)."""
    if name not in TRACES:
        raise InputError(f"unknown trace (known: {', '.join(sorted(TRACES))})", field="trace",
                         value=name)
    fmt = TRACES[name]
    if path is None and fmt.needs_path:
        raise InputError(f"trace '{name}' needs a file path", field="path")
    try:
        inspect.signature(fmt.loader).bind(path, **opts)
    except TypeError as err:  # an option this loader does not have
        raise InputError(f"bad option for trace '{name}': {err}", field="options",
                         value=sorted(opts)) from None
    return fmt.loader(path, **opts)


_OASIS = {"trace_to_workload": "trace_to_workload", "build_cluster": "build_cluster",
          "CONVENTIONS": "DEFAULTS"}


def __getattr__(name: str):
    """The OASiS trace conversion under its old names (see the module docstring)."""
    if name in _OASIS:
        from mlopt.families.oasis import trace

        return getattr(trace, _OASIS[name])
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "CONVENTIONS", "REASONS", "TRACES", "LoadReport", "PerGpuDemand", "TraceFormat",
    "UniformPerGpuDemand", "alibaba_cluster", "build_cluster", "check_table", "load_csv",
    "load_itp", "load_nodes", "load_philly", "load_pod_demand", "load_pollux_workload",
    "load_trace", "parse_mapping", "per_gpu_demand", "read_table", "register_trace",
    "shared_traces_dir", "trace_to_workload",
]

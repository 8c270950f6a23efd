"""Instance-set entries built from real traces (``source = "trace"`` in a manifest).

A manifest entry's ``trace`` table holds the trace name (a key of :data:`mlopt.traces.TRACES`),
an optional ``file`` relative to the shared traces folder (default: the trace's shared copy) and
the conversion conventions of the set's family (``Family.from_trace``; OASiS's are in
:mod:`mlopt.families.oasis.trace`).  Committed trace instances use
``demand = "fallback"`` so that nothing derived from the Alibaba files (licence unstated) lands
in the repository, and so the rebuild does not depend on whether ../shared is present.
"""
from __future__ import annotations

import json
from typing import Any

from mlopt.errors import InputError
from mlopt.workload import Workload
from mlopt.traces import load_trace, shared_traces_dir
from mlopt.traces.paths import shared_trace


def workload_from_trace_entry(trace: dict[str, Any], *, seed: int = 0,
                              family: str = "oasis") -> Workload:
    spec = dict(trace)
    name = spec.pop("name", None)
    if not name:
        raise InputError("missing", field="trace.name")
    rel = spec.pop("file", None)
    # a missing file: the one line that names the whole lookup (--traces, the variable, ../shared)
    path = None if rel is None else shared_trace(rel)
    table, report = load_trace(name, path)
    from mlopt.families import get_family

    convert = get_family(family).from_trace
    if convert is None:
        raise InputError("this family has no trace conversion", field="family", value=family)
    w = convert(table, seed=seed, report=report, **spec)
    # Committed files must not carry this machine's paths: name trace files relative to the
    # shared folder (meta is not part of the content hash).
    root = shared_traces_dir()
    meta = json.loads(json.dumps(w.meta, default=str).replace(str(root), "../shared/traces")
                      if root else json.dumps(w.meta, default=str))
    return Workload(w.name, w.horizon, w.slot_seconds, w.resources, w.servers, w.jobs, meta)

"""What a trace conversion changed: one line a user sees when a workload no longer says what
the trace said.

A family's conversion (``Family.from_trace``) maps seconds onto slots by its own conventions.
With the defaults, a short trace can collapse: five jobs submitted over 40 minutes, each running
1-2 h, become a one-slot horizon with every job arriving in slot 1 (OASiS's default horizon is
the last arrival's slot), and a scheduler can then admit almost nothing.  The conversion is
legitimate, so it is not refused; :func:`conversion_warnings` names what collapsed and the
parameter that changes it.
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np


def _slot_seconds(workload) -> float | None:
    conv = workload.meta.get("conventions")
    value = conv.get("slot_seconds") if isinstance(conv, dict) else None
    return float(value) if isinstance(value, (int, float)) and value > 0 else None


def _hours(seconds: float) -> str:
    return f"{seconds / 3600:.2g} h" if seconds >= 3600 else f"{seconds / 60:.2g} min"


def conversion_warnings(table: Any, workload, requested: dict | None = None) -> list[str]:
    """Sentences (one per thing that collapsed) comparing the trace ``table`` with the
    ``workload`` converted from it; ``requested``: the conversion parameters the user gave
    (what they asked for explicitly is not reported)."""
    requested = requested or {}
    out: list[str] = []
    arrivals = table["arrival_s"].to_numpy(dtype=float)
    ends = arrivals + table["duration_s"].to_numpy(dtype=float)
    span = float(ends.max() - arrivals.min()) if len(arrivals) else 0.0
    slot = _slot_seconds(workload)
    if slot and "horizon" not in requested and workload.horizon * slot < span:
        need = math.ceil(span / slot)
        out.append(f"the horizon T={workload.horizon} slot(s) of {_hours(slot)} covers less "
                   f"than the trace's {_hours(span)} from first submission to last end: jobs "
                   f"cannot run as long as the trace says (-p horizon={need} covers it)")
    kept = len(arrivals)
    if kept > 1 and len(workload.jobs) == kept:
        distinct_trace = len(np.unique(arrivals))
        distinct_slots = len({j.arrival for j in workload.jobs})
        if distinct_slots == 1 and distinct_trace > 1:
            hint = f" (-p slot_seconds smaller than {slot:g})" if slot else ""
            out.append(f"{distinct_trace} different submission times all fell into slot "
                       f"{workload.jobs[0].arrival}{hint}")
    if len(workload.jobs) < kept and "n_jobs" not in requested:
        out.append(f"{kept - len(workload.jobs)} of {kept} trace jobs were left out by the "
                   "conversion's window or caps")
    return out

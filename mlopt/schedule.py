"""Schedules are data: which jobs are admitted plus a long allocation table.

One row per (job, slot, server, role) with a positive ``count`` of workers (role ``worker``) or
parameter servers (role ``ps``).  Papers that need more (worker/PS type, chunk) add columns; the
table keeps them.  Schedules round-trip through JSON so any producer's output can be saved,
plotted, compared and, above all, re-checked by :mod:`mlopt.checkers`.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

import pandas as pd

from mlopt import fileio, formats
from mlopt.errors import InputError

SCHEDULE_SCHEMA_VERSION = 1
COLUMNS = ("job", "slot", "server", "role", "count")


@dataclass
class Schedule:
    admitted: frozenset[str]
    allocations: pd.DataFrame  # columns COLUMNS (+ optional extras)
    meta: dict[str, Any] = field(default_factory=dict)  # producer, parameters (saved)
    # wall-clock measurements of the producer (decision times...): kept in memory for reports,
    # never written to the schedule file, so the same run gives the same bytes
    timing: dict[str, Any] = field(default_factory=dict, compare=False)

    @classmethod
    def from_rows(cls, admitted: Iterable[str], rows: Iterable[tuple], meta: dict | None = None,
                  ) -> "Schedule":
        """A schedule from admitted job ids and allocation rows (normalized)."""
        df = pd.DataFrame(list(rows), columns=list(COLUMNS))
        return cls(frozenset(admitted), _normalize(df), dict(meta or {}))

    @classmethod
    def empty(cls, meta: dict | None = None) -> "Schedule":
        """A schedule admitting nothing."""
        return cls.from_rows([], [], meta)

    def rows_for(self, job: str) -> pd.DataFrame:
        """The allocation rows of one job."""
        return self.allocations[self.allocations["job"] == job]

    def to_dict(self) -> dict:
        """The schedule file format as a dict."""
        return {
            "schema_version": SCHEDULE_SCHEMA_VERSION,
            "admitted": sorted(self.admitted),
            "columns": list(self.allocations.columns),
            "rows": self.allocations.astype(object).values.tolist(),
            "meta": self.meta,
        }

    def save(self, path: str | Path) -> None:
        """Write the schedule as JSON to ``path``."""
        Path(path).write_text(json.dumps(self.to_dict(), default=_json_default) + "\n")

    @classmethod
    def from_dict(cls, data: Any, file: str | None = None) -> "Schedule":
        """Parse and check a schedule dict (errors name ``file``)."""
        try:
            return _parse_schedule(data)
        except InputError as err:
            raise err.with_file(file) if file else err

    @classmethod
    def load(cls, path: str | Path) -> "Schedule":
        """Read and check a schedule file."""
        return cls.from_dict(fileio.load_json(path), file=str(path))


def _parse_schedule(data: Any) -> Schedule:
    # types, limits and unknown keys: mlopt.formats.ScheduleFile; the rest relates fields
    if isinstance(data, dict) and "schema_version" in data and (
            type(data["schema_version"]) is not int
            or data["schema_version"] != SCHEDULE_SCHEMA_VERSION):
        raise InputError(f"unsupported schedule schema version (this mlopt reads "
                         f"{SCHEDULE_SCHEMA_VERSION})", field="schema_version",
                         value=data["schema_version"])
    f = formats.validate(formats.ScheduleFile, data)
    cols = f.columns
    if len(set(cols)) != len(cols):
        raise InputError("duplicate column name", field="columns", value=cols)
    missing = [c for c in COLUMNS if c not in cols]
    if missing:
        raise InputError("missing column", field="columns", value=missing[0])
    for n, row in enumerate(f.rows):
        if len(row) != len(cols):
            raise InputError(f"row must have {len(cols)} values", field=f"rows[{n}]", value=row)
    formats.validate_columns(cols, f.rows)
    df = pd.DataFrame(f.rows, columns=cols)
    return Schedule(frozenset(f.admitted), _normalize(df), f.meta)


def _normalize(df: pd.DataFrame) -> pd.DataFrame:
    """Canonical dtypes and order; rows with count 0 are dropped (they allocate nothing)."""
    df = df.copy()
    df["job"] = df["job"].astype(str)
    df["server"] = df["server"].astype(str)
    df["role"] = df["role"].astype(str)
    df["slot"] = df["slot"].astype("int64")
    # Counts stay numeric as given: the checker, not the parser, decides whether a fractional
    # or negative count is a violation.
    df["count"] = pd.to_numeric(df["count"])
    df = df[df["count"] != 0]
    return df.sort_values(["job", "slot", "role", "server"], kind="stable").reset_index(drop=True)


def _json_default(o):
    if hasattr(o, "item"):
        return o.item()
    raise TypeError(f"not JSON serializable: {type(o)}")

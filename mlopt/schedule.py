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

from mlopt.errors import InputError

SCHEDULE_SCHEMA_VERSION = 1
COLUMNS = ("job", "slot", "server", "role", "count")


@dataclass
class Schedule:
    admitted: frozenset[str]
    allocations: pd.DataFrame  # columns COLUMNS (+ optional extras)
    meta: dict[str, Any] = field(default_factory=dict)  # producer, parameters, timings

    @classmethod
    def from_rows(cls, admitted: Iterable[str], rows: Iterable[tuple], meta: dict | None = None,
                  ) -> "Schedule":
        df = pd.DataFrame(list(rows), columns=list(COLUMNS))
        return cls(frozenset(admitted), _normalize(df), dict(meta or {}))

    @classmethod
    def empty(cls, meta: dict | None = None) -> "Schedule":
        return cls.from_rows([], [], meta)

    def rows_for(self, job: str) -> pd.DataFrame:
        return self.allocations[self.allocations["job"] == job]

    def to_dict(self) -> dict:
        return {
            "schema_version": SCHEDULE_SCHEMA_VERSION,
            "admitted": sorted(self.admitted),
            "columns": list(self.allocations.columns),
            "rows": self.allocations.astype(object).values.tolist(),
            "meta": self.meta,
        }

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_dict(), default=_json_default) + "\n")

    @classmethod
    def from_dict(cls, data: Any, file: str | None = None) -> "Schedule":
        if not isinstance(data, dict):
            raise InputError("a schedule must be a JSON object", file=file)
        if data.get("schema_version") != SCHEDULE_SCHEMA_VERSION:
            raise InputError("unsupported schedule schema version", file=file,
                             field="schema_version", value=data.get("schema_version"))
        for key in ("admitted", "columns", "rows"):
            if not isinstance(data.get(key), list):
                raise InputError("missing or not a list", file=file, field=key)
        cols = data["columns"]
        missing = [c for c in COLUMNS if c not in cols]
        if missing:
            raise InputError("missing column", file=file, field="columns", value=missing[0])
        for n, row in enumerate(data["rows"]):
            if not isinstance(row, list) or len(row) != len(cols):
                raise InputError(f"row must have {len(cols)} values", file=file,
                                 field=f"rows[{n}]", value=row)
        df = pd.DataFrame(data["rows"], columns=cols)
        try:
            df = _normalize(df)
        except (TypeError, ValueError) as err:
            raise InputError(f"bad value in rows: {err}", file=file, field="rows") from None
        return cls(frozenset(str(a) for a in data["admitted"]), df, dict(data.get("meta", {})))

    @classmethod
    def load(cls, path: str | Path) -> "Schedule":
        path = Path(path)
        try:
            data = json.loads(path.read_text())
        except OSError as err:
            raise InputError(f"cannot read ({err.strerror})", file=str(path)) from None
        except json.JSONDecodeError as err:
            raise InputError(f"malformed JSON at line {err.lineno}: {err.msg}",
                             file=str(path)) from None
        return cls.from_dict(data, file=str(path))


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

"""The common trace table every loader produces, and the load report that accounts for each row.

Trace table (a :class:`pandas.DataFrame`, one row per kept job, sorted by ``arrival_s`` then by
``source_line``; index 0..n-1):

===============  ========  ==================================================================
column           dtype     meaning
===============  ========  ==================================================================
``job_id``       str       the trace's job id, or ``<file stem>:<line>`` when it has none
``arrival_s``    float64   submission time in seconds after the table's origin (>= 0)
``duration_s``   float64   run time in seconds as recorded by the trace (> 0)
``gpus``         int64     GPUs the job ran with (>= 1)
``source_line``  int64     line of the source file the row came from (header = line 1)
``model``        str       optional: model / application name
``tenant``       str       optional: tenant, virtual cluster or user group
``deadline_s``   float64   optional: deadline on the same clock as ``arrival_s`` (>= arrival)
``batch_size``   int64     optional: global batch size
``iterations``   int64     optional: iterations (steps) the job trains for
===============  ========  ==================================================================

Bad rows are never dropped silently.  Every data row read (blank lines are not rows) is either
kept or skipped for exactly one reason, the first that applies in :data:`REASONS` order, and
:class:`LoadReport` counts them (``kept + sum(skipped.values()) == rows_read``, checked on
construction).  With ``strict=True`` the first bad row in file order raises one
:class:`~mlopt.errors.InputError` naming the file, the line, the column and the raw value.

Conventions (parameters of :func:`read_table`, defaults in brackets):

* missing value: an empty field or one of :data:`MISSING_TOKENS` (case-insensitive), in any
  mapped column;
* time units: ``arrival_unit`` ["s"] is a key of :data:`UNIT_SECONDS` or ``"datetime"`` (then
  ``timestamp_format`` [None: pandas infers one format for the column]); ``duration_unit`` ["s"];
  a deadline is read on the arrival's clock;
* origin [None]: for a date-time clock, the earliest arrival among rows that pass every other
  check, so the first kept job arrives at 0; for a numeric clock, the trace's own zero.
  ``"min"`` forces the earliest arrival, a number (seconds on the trace clock) or a timestamp
  string sets it; rows that then arrive before it are skipped as ``negative_arrival``;
* order [``unsorted="sort"``]: rows are sorted by arrival and ``LoadReport.reordered`` counts the
  kept rows that arrived earlier than some previous row of the file.  ``"skip"`` is for traces
  whose publisher declares them sorted (order matters): a row arriving earlier than the latest
  arrival of the previous valid rows is skipped as ``unsorted``;
* duplicate ids: the first row with a job id is kept, later ones are skipped.
"""
from __future__ import annotations

import csv
import io
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping

import numpy as np
import pandas as pd

from mlopt import limits
from mlopt.errors import InputError

# Mapping keys (the table's logical fields) and how the source column is parsed.
FIELD_KINDS: dict[str, str] = {
    "job_id": "text", "arrival": "time", "duration": "duration", "gpus": "count",
    "model": "text", "tenant": "text", "deadline": "time", "batch_size": "count",
    "iterations": "count",
}
REQUIRED_FIELDS = ("arrival", "duration", "gpus")
# Logical field -> output column.
OUTPUT_COLUMN = {"job_id": "job_id", "arrival": "arrival_s", "duration": "duration_s",
                 "gpus": "gpus", "model": "model", "tenant": "tenant", "deadline": "deadline_s",
                 "batch_size": "batch_size", "iterations": "iterations"}
CORE_COLUMNS = ("job_id", "arrival_s", "duration_s", "gpus", "source_line")
OPTIONAL_COLUMNS = ("model", "tenant", "deadline_s", "batch_size", "iterations")

UNIT_SECONDS: dict[str, float] = {"ms": 1e-3, "s": 1.0, "min": 60.0, "h": 3600.0, "d": 86400.0}
MISSING_TOKENS = frozenset({"", "na", "n/a", "nan", "null", "none"})

# Skip reasons, in the order they are tested (a row gets the first that applies).
REASONS: dict[str, str] = {
    "malformed": "wrong number of fields",
    "missing": "missing value",
    "not_a_number": "not a finite number",
    "too_large": "beyond the limits of mlopt.limits (times > MAX_VALUE s, counts > MAX_COUNT)",
    "bad_timestamp": "unparseable timestamp",
    "nonpositive_duration": "duration must be > 0",
    "nonpositive_gpus": "GPU count must be >= 1",
    "fractional_gpus": "GPU count must be an integer",
    "bad_count": "must be a positive integer",
    "no_duration": "no duration can be derived for this row",
    "negative_arrival": "arrives before the trace origin",
    "deadline_before_arrival": "deadline before arrival",
    "duplicate_id": "job id already seen on an earlier line",
    "unsorted": "arrives earlier than a previous row (the trace is declared sorted)",
}
UNSORTED_POLICIES = ("sort", "skip")


@dataclass
class LoadReport:
    """What happened to every row of one source file."""

    trace: str
    file: str
    rows_read: int
    kept: int
    skipped: dict[str, int]  # reason -> count (non-zero only, REASONS order)
    examples: dict[str, dict[str, Any]] = field(default_factory=dict)  # reason -> first bad row
    reordered: int = 0  # kept rows that were out of arrival order in the file (then sorted)
    origin: Any = None  # what arrival_s = 0 means (timestamp string or trace-clock seconds)
    options: dict[str, Any] = field(default_factory=dict)  # the conventions used

    def __post_init__(self) -> None:
        if self.kept + sum(self.skipped.values()) != self.rows_read:
            raise AssertionError(f"row accounting broken: kept {self.kept} + skipped "
                                 f"{sum(self.skipped.values())} != read {self.rows_read}")

    @property
    def n_skipped(self) -> int:
        return sum(self.skipped.values())

    def to_dict(self) -> dict[str, Any]:
        return {"trace": self.trace, "file": self.file, "rows_read": self.rows_read,
                "kept": self.kept, "skipped": dict(self.skipped),
                "examples": {k: dict(v) for k, v in self.examples.items()},
                "reordered": self.reordered, "origin": self.origin, "options": dict(self.options)}

    def summary(self) -> str:
        lines = [f"{self.file}: read {self.rows_read} rows, kept {self.kept}, "
                 f"skipped {self.n_skipped}" + (f", re-sorted {self.reordered}"
                                               if self.reordered else "")]
        for reason, count in self.skipped.items():
            ex = self.examples.get(reason, {})
            lines.append(f"  {reason}: {count} ({REASONS[reason]}; first at line "
                         f"{ex.get('line')}, column {ex.get('field')!r}, "
                         f"value {ex.get('value')!r})")
        return "\n".join(lines)


# ---- reading ---------------------------------------------------------------------------------
def read_header(path: str | Path) -> list[str]:
    """The header row of a CSV file (stripped names); InputError if unreadable or empty."""
    path = Path(path)
    try:
        with path.open(newline="", encoding="utf-8-sig") as f:
            header = next(csv.reader(f), None)
    except OSError as err:
        raise InputError(f"cannot read ({err.strerror})", file=str(path)) from None
    except (UnicodeDecodeError, csv.Error) as err:
        raise InputError(f"not a readable CSV file ({err})", file=str(path)) from None
    if not header or not any(h.strip() for h in header):
        raise InputError("empty file: no header row", file=str(path))
    return [h.strip() for h in header]


def _read_rows(path: Path, header: list[str], wanted: list[str]):
    """Raw strings of the ``wanted`` columns, the file line and the number of fields of each
    data row.  Blank lines are not rows.

    Files without quote characters (every trace we know) take a vectorized path: lines and
    field counts from a byte scan, values from pandas' C parser; anything else (quotes, or a
    disagreement between the two) is read with the :mod:`csv` module."""
    try:
        data = path.read_bytes()
    except OSError as err:
        raise InputError(f"cannot read ({err.strerror})", file=str(path)) from None
    if b'"' not in data:
        fast = _read_rows_fast(data, header, wanted, path)
        if fast is not None:
            return fast
    return _read_rows_csv(path, header, wanted)


def _read_rows_fast(data: bytes, header: list[str], wanted: list[str], path: Path):
    buf = np.frombuffer(data, dtype=np.uint8)
    nl = np.flatnonzero(buf == 10)
    starts = np.concatenate([[0], nl + 1])
    ends = np.concatenate([nl, [len(buf)]])
    if len(ends) and ends[-1] == starts[-1]:  # nothing after the final newline
        starts, ends = starts[:-1], ends[:-1]
    starts, ends = starts[1:], ends[1:]  # drop the header line
    commas = np.concatenate([[0], np.cumsum(buf == 44)])
    nfields = (commas[ends] - commas[starts] + 1).astype(np.int64)
    blank = np.zeros(len(starts), dtype=bool)
    for i in np.flatnonzero(nfields == 1):
        blank[i] = not data[starts[i]:ends[i]].strip()
    width = max(len(header), int(nfields.max()) if len(nfields) else 0)
    idx = [header.index(c) for c in wanted]
    try:
        df = pd.read_csv(io.BytesIO(data), header=None, skiprows=1, names=range(width),
                         usecols=idx, dtype=object, keep_default_na=False, na_filter=False,
                         skip_blank_lines=False, encoding="utf-8-sig")
    except UnicodeDecodeError as err:
        raise InputError(f"not a readable CSV file ({err})", file=str(path)) from None
    except (pd.errors.ParserError, pd.errors.EmptyDataError, ValueError):
        return None
    if len(df) != len(starts):
        return None
    keep = ~blank
    raw = pd.DataFrame({c: pd.Series(df[i].to_numpy(dtype=object)[keep], dtype=object)
                        for c, i in zip(wanted, idx)})
    lines = np.arange(2, len(starts) + 2, dtype=np.int64)[keep]
    return raw, lines, nfields[keep]


def _read_rows_csv(path: Path, header: list[str], wanted: list[str]):
    width = len(header)
    recs: list[list[str]] = []
    lines: list[int] = []
    try:
        with path.open(newline="", encoding="utf-8-sig") as f:
            reader = csv.reader(f)
            next(reader)
            for rec in reader:
                recs.append(rec)
                lines.append(reader.line_num)
    except (UnicodeDecodeError, csv.Error) as err:
        raise InputError(f"not a readable CSV file ({err})", file=str(path)) from None
    nfields = np.fromiter(map(len, recs), dtype=np.int64, count=len(recs))
    short = np.flatnonzero(nfields <= 1)
    blank = [i for i in short if nfields[i] == 0 or not recs[i][0].strip()]
    if blank:
        keep = np.ones(len(recs), dtype=bool)
        keep[blank] = False
        recs = [r for r, k in zip(recs, keep) if k]
        lines = [ln for ln, k in zip(lines, keep) if k]
        nfields = nfields[keep]
    for i in np.flatnonzero(nfields != width):  # pad / cut malformed rows to the header
        recs[i] = (recs[i] + [""] * width)[:width]
    columns = list(zip(*recs)) if recs else [()] * width
    raw = pd.DataFrame({c: pd.Series(columns[header.index(c)], dtype=object) for c in wanted})
    return raw, np.asarray(lines, dtype=np.int64), nfields


class _Verdicts:
    """Per-row reason codes (0 = keep) with the column that caused each."""

    def __init__(self, n: int):
        self.code = np.zeros(n, dtype=np.int16)
        self.column = np.full(n, -1, dtype=np.int16)
        self.names = list(REASONS)

    def ok(self) -> np.ndarray:
        return self.code == 0

    def flag(self, reason: str, mask, column: int = -1) -> None:
        sel = (self.code == 0) & np.asarray(mask, dtype=bool)
        self.code[sel] = self.names.index(reason) + 1
        self.column[sel] = column


def read_table(path: str | Path, columns: Mapping[str, str], *, trace: str = "csv",
               arrival_unit: str = "s", duration_unit: str = "s",
               timestamp_format: str | None = None, origin: Any = None,
               unsorted: str = "sort", strict: bool = False,
               derive_duration: Callable[[pd.DataFrame], pd.Series] | None = None,
               derive_field: str | None = None) -> tuple[pd.DataFrame, LoadReport]:
    """Read ``path`` with ``columns`` (logical field -> source column) into a trace table.

    ``derive_duration``, when given, replaces a ``duration`` column: it receives the parsed
    frame (columns named by logical field) and returns seconds, NaN where no duration can be
    derived (those rows are skipped as ``no_duration``, blamed on ``derive_field``).
    """
    path = Path(path)
    file = str(path)
    columns = dict(columns)
    unknown = sorted(set(columns) - set(FIELD_KINDS))
    if unknown:
        raise InputError(f"unknown field in column mapping (known: {', '.join(FIELD_KINDS)})",
                         field=unknown[0], value=columns[unknown[0]])
    required = [f for f in REQUIRED_FIELDS if not (f == "duration" and derive_duration)]
    for f in required:
        if f not in columns:
            raise InputError("required field missing from column mapping", field=f)
    if arrival_unit != "datetime" and arrival_unit not in UNIT_SECONDS:
        raise InputError(f"unknown time unit (known: datetime, {', '.join(UNIT_SECONDS)})",
                         field="arrival_unit", value=arrival_unit)
    if duration_unit not in UNIT_SECONDS:
        raise InputError(f"unknown time unit (known: {', '.join(UNIT_SECONDS)})",
                         field="duration_unit", value=duration_unit)
    if unsorted not in UNSORTED_POLICIES:
        raise InputError(f"must be one of {', '.join(UNSORTED_POLICIES)}", field="unsorted",
                         value=unsorted)
    header = read_header(path)
    for f, col in columns.items():
        if col not in header:
            raise InputError(f"column not in the file's header (columns: {', '.join(header)})",
                             file=file, field=f"{f}={col}", value=col)

    fields = list(columns)  # logical fields, in mapping order
    sources = list(dict.fromkeys(columns[f] for f in fields))  # a column may feed two fields
    raw_src, lines, nfields = _read_rows(path, header, sources)
    raw = pd.DataFrame({f: raw_src[columns[f]] for f in fields})
    n = len(raw)
    v = _Verdicts(n)
    col_of = {f: i for i, f in enumerate(fields)}
    v.flag("malformed", nfields != len(header))

    text = {f: raw[f].astype(str).str.strip() for f in fields}
    for f in fields:
        v.flag("missing", text[f].str.lower().isin(MISSING_TOKENS).to_numpy(), col_of[f])

    parsed: dict[str, Any] = {}
    for f in fields:
        kind = FIELD_KINDS[f]
        if kind == "text":
            parsed[f] = text[f]
        elif kind == "time" and arrival_unit == "datetime":
            if timestamp_format is None:
                _no_numbers_as_datetimes(text[f], v.ok(), lines, file, columns[f])
            ts = pd.to_datetime(text[f], format=timestamp_format, errors="coerce")
            v.flag("bad_timestamp", ts.isna().to_numpy(), col_of[f])
            parsed[f] = ts
        else:
            x = pd.to_numeric(text[f], errors="coerce").to_numpy(dtype=float)
            v.flag("not_a_number", ~np.isfinite(x), col_of[f])
            unit = duration_unit if kind == "duration" else (
                arrival_unit if kind == "time" else None)
            with np.errstate(over="ignore"):  # 1e308 min -> inf: flagged too_large below
                parsed[f] = x * UNIT_SECONDS[unit] if unit else x
            # a value no instance can hold (1e308 s) is a bad row, not an overflow later on
            top = limits.MAX_COUNT if kind == "count" else limits.MAX_VALUE
            with np.errstate(invalid="ignore"):
                v.flag("too_large", np.abs(parsed[f]) > top, col_of[f])

    if "duration" in parsed:
        v.flag("nonpositive_duration", parsed["duration"] <= 0, col_of["duration"])
    g = parsed["gpus"]
    v.flag("nonpositive_gpus", g < 1, col_of["gpus"])
    v.flag("fractional_gpus", np.floor(g) != g, col_of["gpus"])
    for f in ("batch_size", "iterations"):
        if f in parsed:
            x = parsed[f]
            v.flag("bad_count", (x < 1) | (np.floor(x) != x), col_of[f])

    if derive_duration is not None:
        frame = pd.DataFrame({f: parsed[f] for f in fields})
        dur = np.asarray(derive_duration(frame), dtype=float)
        blame = col_of.get(derive_field or "", -1)
        v.flag("no_duration", ~np.isfinite(dur) | (dur <= 0), blame)
        parsed["duration"] = dur

    # Clock: seconds after the origin.
    ok = v.ok()
    arrival, origin_out = _to_clock(parsed["arrival"], ok, arrival_unit, origin, file)
    v.flag("negative_arrival", arrival < 0, col_of["arrival"])
    deadline = None
    if "deadline" in parsed:
        deadline, _ = _to_clock(parsed["deadline"], ok, arrival_unit, origin_out, file)
        v.flag("deadline_before_arrival", deadline < arrival, col_of["deadline"])
    if "job_id" in parsed:
        ok = v.ok()
        dup = np.zeros(n, dtype=bool)
        dup[ok] = text["job_id"][ok].duplicated(keep="first").to_numpy()
        v.flag("duplicate_id", dup, col_of["job_id"])

    ok = v.ok()
    a_ok = np.where(ok, arrival, -np.inf)
    prev_max = np.concatenate([[-np.inf], np.maximum.accumulate(a_ok)[:-1]]) if n else a_ok
    late = ok & (arrival < prev_max)
    if unsorted == "skip":
        v.flag("unsorted", late, col_of["arrival"])
        reordered = 0
    else:
        reordered = int(late.sum())

    # Accounting, examples, strict mode.
    names = v.names
    counts = np.bincount(v.code, minlength=len(names) + 1)
    skipped = {names[k - 1]: int(counts[k]) for k in range(1, len(names) + 1) if counts[k]}
    examples: dict[str, dict[str, Any]] = {}
    for reason in skipped:
        i = int(np.flatnonzero(v.code == names.index(reason) + 1)[0])
        examples[reason] = _example(fields, columns, raw, v, i, lines, nfields)
    bad = np.flatnonzero(v.code)
    if strict and bad.size:
        i = int(bad[0])
        ex = _example(fields, columns, raw, v, i, lines, nfields)
        reason = names[v.code[i] - 1]
        msg = REASONS[reason]
        if reason == "malformed":
            msg = f"expected {len(header)} fields"
        raise InputError(f"line {ex['line']} (data row {i + 1}): {msg} [{reason}]",
                         file=file, field=ex["field"], value=ex["value"])

    keep = v.ok()
    out: dict[str, Any] = {}
    if "job_id" in parsed:
        out["job_id"] = text["job_id"][keep].to_numpy(dtype=object)
    else:
        stem = path.stem
        out["job_id"] = np.array([f"{stem}:{ln}" for ln in lines[keep].tolist()], dtype=object)
    out["arrival_s"] = arrival[keep].astype(np.float64)
    out["duration_s"] = np.asarray(parsed["duration"], dtype=np.float64)[keep]
    out["gpus"] = g[keep].astype(np.int64)
    out["source_line"] = lines[keep]
    for f in ("model", "tenant"):
        if f in parsed:
            out[f] = parsed[f][keep].to_numpy(dtype=object)
    if deadline is not None:
        out["deadline_s"] = deadline[keep].astype(np.float64)
    for f in ("batch_size", "iterations"):
        if f in parsed:
            out[f] = parsed[f][keep].astype(np.int64)
    table = pd.DataFrame(out)
    for c in ("job_id", "model", "tenant"):
        if c in table:
            table[c] = table[c].astype(str)
    table = table.sort_values(["arrival_s", "source_line"], kind="stable").reset_index(drop=True)

    report = LoadReport(
        trace=trace, file=file, rows_read=n, kept=int(keep.sum()), skipped=skipped,
        examples=examples, reordered=reordered,
        origin=str(origin_out) if isinstance(origin_out, pd.Timestamp) else origin_out,
        options={"columns": columns, "arrival_unit": arrival_unit,
                 "duration_unit": duration_unit, "timestamp_format": timestamp_format,
                 "unsorted": unsorted, "strict": strict})
    return table, report


def _no_numbers_as_datetimes(text: pd.Series, ok: np.ndarray, lines, file: str,
                             column: str) -> None:
    """A plain number in a date-time column would be read as nanoseconds since 1970 (a
    47-million-slot horizon from seconds since trace start): say which unit to use instead."""
    numeric = np.isfinite(pd.to_numeric(text, errors="coerce").to_numpy(dtype=float)) & ok
    if numeric.any():
        i = int(np.flatnonzero(numeric)[0])
        raise InputError(f"line {int(lines[i])}: a number in a date-time column; for a numeric "
                         f"clock give --arrival-unit {'|'.join(UNIT_SECONDS)} (or a "
                         "--timestamp-format that reads it)", file=file, field=column,
                         value=text.iloc[i])


def _to_clock(values, ok: np.ndarray, unit: str, origin: Any, file: str):
    """Arrival-like values -> float seconds after the origin; returns (seconds, origin)."""
    if unit == "datetime":
        ts = values
        if origin is None or origin == "min":
            valid = ts[ok]
            t0 = valid.min() if len(valid) else pd.Timestamp(0)
        elif isinstance(origin, pd.Timestamp):
            t0 = origin
        else:
            t0 = pd.to_datetime(origin, errors="coerce") if isinstance(origin, str) else pd.NaT
            if pd.isna(t0):
                raise InputError("must be a timestamp for a date-time clock", field="origin",
                                 value=origin)
        sec = ((ts - t0) / pd.Timedelta(seconds=1)).to_numpy(dtype=float, na_value=np.nan)
        return np.nan_to_num(sec, nan=0.0), t0
    x = np.asarray(values, dtype=float)
    if origin is None:
        t0 = 0.0
    elif origin == "min":
        t0 = float(x[ok].min()) if ok.any() else 0.0
    elif isinstance(origin, (int, float)) and not isinstance(origin, bool) and math.isfinite(
            origin):
        t0 = float(origin)
    else:
        raise InputError("must be None, 'min' or a number of seconds", field="origin",
                         value=origin)
    return np.nan_to_num(x - t0, nan=0.0), t0


def _example(fields, columns, raw: pd.DataFrame, v: _Verdicts, i: int, lines,
             nfields) -> dict:
    c = int(v.column[i])
    if c < 0:
        value = f"{nfields[i]} fields" if v.names[v.code[i] - 1] == "malformed" else None
        return {"line": int(lines[i]), "field": None, "value": value}
    f = fields[c]
    return {"line": int(lines[i]), "field": columns[f], "value": str(raw.iat[i, c])}


# ---- checking a table handed in by a user ----------------------------------------------------
def check_table(table: Any, *, where: str = "table") -> pd.DataFrame:
    """Validate a trace table built elsewhere; returns it sorted by arrival (a copy)."""
    if not isinstance(table, pd.DataFrame):
        raise InputError("a trace table must be a pandas DataFrame", field=where,
                         value=type(table).__name__)
    for c in ("arrival_s", "duration_s", "gpus"):
        if c not in table.columns:
            raise InputError("missing column", field=f"{where}.{c}")
    t = table.copy()
    for c in ("arrival_s", "duration_s", "gpus") + tuple(
            c for c in ("deadline_s", "batch_size", "iterations") if c in t):
        x = pd.to_numeric(t[c], errors="coerce").to_numpy(dtype=float)
        bad = ~np.isfinite(x)
        if c == "arrival_s":
            bad |= x < 0
        elif c == "duration_s":
            bad |= x <= 0
        elif c == "deadline_s":
            bad |= x < t["arrival_s"].to_numpy(dtype=float)
        else:
            bad |= (x < 1) | (np.floor(x) != x)
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise InputError("invalid value (arrival >= 0, duration > 0, integer counts >= 1, "
                             "deadline >= arrival)", field=f"{where}.{c}[{i}]",
                             value=t[c].iloc[i])
    if "job_id" not in t:
        t["job_id"] = [f"row{i}" for i in range(len(t))]
    if "source_line" not in t:
        t["source_line"] = np.arange(len(t), dtype=np.int64)
    t["gpus"] = t["gpus"].astype(np.int64)
    return t.sort_values(["arrival_s", "source_line"], kind="stable").reset_index(drop=True)

"""Any CSV file as a trace, driven by a column mapping.

The mapping names, for each field of the trace table, the CSV column it comes from; as a string
``"arrival=submit_time,gpus=num_gpu,duration=runtime[,model=COL,tenant=COL,...]"`` or a dict.
Fields (see :mod:`mlopt.traces.table`): ``arrival``, ``duration`` and ``gpus`` are required;
``job_id``, ``model``, ``tenant``, ``deadline``, ``batch_size``, ``iterations`` are optional.
An unknown field name in the mapping, or a column the file does not have, raises
:class:`~mlopt.errors.InputError` naming it.

Conventions, each a parameter of :func:`load_csv` (defaults in brackets): arrival clock unit
[``"s"``; ``"ms"``, ``"min"``, ``"h"``, ``"d"`` or ``"datetime"``], ``timestamp_format`` for a
date-time clock [None: inferred], duration unit [``"s"``], ``origin`` [None], order policy
[``unsorted="sort"``] and ``strict`` [False]; their meaning is documented in
:mod:`mlopt.traces.table`.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping

import pandas as pd

from mlopt import limits
from mlopt.errors import InputError
from mlopt.traces.table import FIELD_KINDS, LoadReport, read_table


def parse_mapping(spec: str | Mapping[str, str]) -> dict[str, str]:
    """``"arrival=COL,gpus=COL,duration=COL"`` (or a dict) -> {field: column}.

    Unknown field names raise InputError naming them; so do duplicates and malformed items.
    """
    if isinstance(spec, Mapping):
        items = [(str(k).strip(), str(v).strip()) for k, v in spec.items()]
    elif isinstance(spec, str):
        items = []
        for part in spec.split(","):
            if not part.strip():
                continue
            if "=" not in part:
                raise InputError("mapping items must look like field=COLUMN", field="mapping",
                                 value=part.strip())
            k, v = part.split("=", 1)
            items.append((k.strip(), v.strip()))
    else:
        raise InputError("must be a 'field=COLUMN,...' string or a dict", field="mapping",
                         value=spec)
    out: dict[str, str] = {}
    for k, v in items:
        if k not in FIELD_KINDS:
            raise InputError(f"unknown field in column mapping (known: {', '.join(FIELD_KINDS)})",
                             field="mapping", value=k)
        if not v:
            raise InputError("empty column name in mapping", field=f"mapping.{k}", value=v)
        if k in out:
            raise InputError("field mapped twice", field=f"mapping.{k}", value=v)
        out[k] = v
    return out


def load_csv(path: str | Path, mapping: str | Mapping[str, str], *, arrival_unit: str = "s",
             duration_unit: str = "s", timestamp_format: str | None = None, origin: Any = None,
             unsorted: str = "sort", strict: bool = False,
             name: str = "csv") -> tuple[pd.DataFrame, LoadReport]:
    """Load any CSV file with a column mapping -> (trace table, load report).  A bad
    ``timestamp_format`` (an unknown directive such as ``%Q``, a stray ``%``, no directive at
    all) is an InputError before the file is read."""
    if timestamp_format is not None:
        check_timestamp_format(timestamp_format)
    return read_table(path, parse_mapping(mapping), trace=name, arrival_unit=arrival_unit,
                      duration_unit=duration_unit, timestamp_format=timestamp_format,
                      origin=origin, unsorted=unsorted, strict=strict)


def check_timestamp_format(fmt: Any) -> str:
    """``fmt`` if it is a strftime format pandas can parse with, else one InputError."""
    if not isinstance(fmt, str) or not fmt or len(fmt) > limits.MAX_NAME:
        raise InputError("must be a non-empty strftime format", field="timestamp_format",
                         value=fmt)
    if "%" not in fmt:
        raise InputError("has no % directive (e.g. %Y-%m-%d %H:%M:%S)",
                         field="timestamp_format", value=fmt)
    try:
        pd.to_datetime(pd.Series(["2000-01-01"]), format=fmt, errors="coerce")
    except (ValueError, TypeError) as err:
        raise InputError(f"not a usable strftime format ({err})", field="timestamp_format",
                         value=fmt) from None
    return fmt

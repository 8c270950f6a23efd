"""Reading user files safely: every failure becomes one :class:`~mlopt.errors.InputError`
naming the file.

* a size cap (:mod:`mlopt.limits`) checked before reading, so a huge file fails fast;
* strict UTF-8 (a BOM is accepted), reported with the byte offset of the first bad byte;
* JSON with line and column of a syntax error, nesting too deep for the parser reported as such
  (NaN / Infinity literals parse, and the formats reject them where a number is expected, naming
  the field);
* TOML with the parser's message.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

try:  # Python >= 3.11
    import tomllib
except ModuleNotFoundError:  # pragma: no cover - Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]

from mlopt import limits
from mlopt.errors import InputError


def read_bytes(path: str | Path, max_bytes: int) -> bytes:
    path = Path(path)
    try:
        size = path.stat().st_size
        if path.is_dir():
            raise InputError("is a directory, not a file", file=str(path))
        if size > max_bytes:
            raise InputError(f"file too large ({size} bytes; limit {max_bytes})", file=str(path))
        data = path.read_bytes()
    except OSError as err:
        raise InputError(f"cannot read ({err.strerror or err})", file=str(path)) from None
    if len(data) > max_bytes:  # grew while reading (a pipe, a device)
        raise InputError(f"file too large (limit {max_bytes} bytes)", file=str(path))
    return data


def decode(data: bytes, file: str | None) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise InputError(f"not UTF-8 text (bad byte at offset {err.start})", file=file) from None


def read_text(path: str | Path, max_bytes: int) -> str:
    return decode(read_bytes(path, max_bytes), str(path))


def parse_json(text: str, file: str | None = None) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise InputError(f"malformed JSON at line {err.lineno} column {err.colno}: {err.msg}",
                         file=file) from None
    except ValueError as err:  # integers with more digits than Python converts
        raise InputError(f"malformed JSON: {err}", file=file) from None
    except RecursionError:
        raise InputError("malformed JSON: nested too deeply", file=file) from None


def load_json(path: str | Path, max_bytes: int = limits.MAX_JSON_BYTES) -> Any:
    return parse_json(read_text(path, max_bytes), str(path))


def parse_toml(text: str, file: str | None = None) -> dict:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise InputError(f"malformed TOML: {err}", file=file) from None
    except RecursionError:
        raise InputError("malformed TOML: nested too deeply", file=file) from None


def load_toml(path: str | Path, max_bytes: int = limits.MAX_TOML_BYTES) -> dict:
    return parse_toml(read_text(path, max_bytes), str(path))


def depth(obj: Any, limit: int = limits.MAX_DEPTH) -> int:
    """Nesting depth of plain data, iteratively (stops counting past ``limit`` + 1)."""
    deepest, stack = 0, [(obj, 1)]
    while stack:
        o, d = stack.pop()
        if isinstance(o, dict):
            o = list(o.values())
        elif not isinstance(o, list):
            continue
        deepest = max(deepest, d)
        if d > limit:
            return d
        stack.extend((x, d + 1) for x in o)
    return deepest

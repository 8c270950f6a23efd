"""Reading user files safely: every failure becomes one :class:`~mlopt.errors.InputError`
naming the file.

* a size cap (:mod:`mlopt.limits`) checked before reading, so a huge file fails fast;
* strict UTF-8 (a BOM is accepted), reported with the byte offset of the first bad byte;
* JSON with line and column of a syntax error, nesting too deep for the parser reported as such
  (NaN / Infinity literals parse, and the formats reject them where a number is expected, naming
  the field);
* TOML with the parser's message.

Writing goes through :func:`atomic_output` / :func:`write_text`: the output's folder is checked
first (missing, not a folder, not writable, or the target is a folder: one InputError before any
work), the data goes to a temporary file next to the target and is renamed over it only when
complete, so a full device or a crash never leaves a partial file behind.
"""
from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import tempfile
from pathlib import Path
from typing import Any, Iterator

try:  # Python >= 3.11
    import tomllib
except ModuleNotFoundError:  # pragma: no cover - Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]

from mlopt import limits
from mlopt.errors import InputError


def read_bytes(path: str | Path, max_bytes: int) -> bytes:
    """The bytes of a file, refusing a directory or more than ``max_bytes``."""
    path = Path(path)
    try:
        size = path.stat().st_size
        if path.is_dir():
            raise InputError("is a directory, not a file", file=str(path))
        if size > max_bytes:
            raise InputError(f"file too large ({size} bytes; limit {max_bytes})", file=str(path))
        with open(path, "rb") as fh:  # at most one byte past the cap: /dev/zero never ends
            data = fh.read(max_bytes + 1)
    except OSError as err:
        raise InputError(f"cannot read ({err.strerror or err})", file=str(path)) from None
    if len(data) > max_bytes:  # grew while reading (a pipe, a device)
        raise InputError(f"file too large (limit {max_bytes} bytes)", file=str(path))
    return data


def decode(data: bytes, file: str | None) -> str:
    """UTF-8 text (a BOM dropped); bad bytes are an InputError naming the file."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise InputError(f"not UTF-8 text (bad byte at offset {err.start})", file=file) from None


def read_text(path: str | Path, max_bytes: int) -> str:
    """The UTF-8 text of a file of at most ``max_bytes``."""
    return decode(read_bytes(path, max_bytes), str(path))


def parse_json(text: str, file: str | None = None) -> Any:
    """Parse JSON text; malformed text is one InputError with line and column."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise InputError(f"malformed JSON at line {err.lineno} column {err.colno}: {err.msg}",
                         file=file) from None
    except ValueError as err:  # integers with more digits than Python converts
        raise InputError(f"malformed JSON: {err}", file=file) from None
    except RecursionError:
        raise InputError("malformed JSON: nested too deeply", file=file) from None


#: most ``"id"`` keys a workload or schedule file may hold: one per job and per server, twice
#: over (a family's own records with ids -- worker types, per-job entries -- fit in the slack)
MAX_ID_KEYS = 2 * (limits.MAX_JOBS + limits.MAX_SERVERS)
_ID_KEY = re.compile(r'"id"\s*:')


def count_records(text: str, file: str | None = None) -> None:
    """Refuse, before parsing, a file with more ``"id"`` keys (jobs + servers) than the limits
    allow: parsing a million servers costs seconds and a gigabyte before the per-list limits
    (:func:`mlopt.formats.validate`) can refuse them.  A string can hold ``"id"`` only with its
    quotes escaped, so the unescaped token is a key (or the string value "id")."""
    if text.count('"id"') <= MAX_ID_KEYS:  # fast path: C-speed substring count
        return
    n = text.count('"id":') + text.count('"id" :')  # how JSON writers spell a key
    if n <= MAX_ID_KEYS:  # other spacing: the exact count
        n = sum(1 for _ in _ID_KEY.finditer(text))
    if n > MAX_ID_KEYS:
        raise InputError(f"{n:,} records with an id: far more than the {limits.MAX_JOBS:,} "
                         f"jobs + {limits.MAX_SERVERS:,} servers a workload may have (at most "
                         f"{MAX_ID_KEYS:,} ids; see mlopt.limits)", file=file)


def load_json(path: str | Path, max_bytes: int = limits.MAX_JSON_BYTES) -> Any:
    """Parse a JSON file (size- and record-capped)."""
    text = read_text(path, max_bytes)
    count_records(text, str(path))
    return parse_json(text, str(path))


def parse_toml(text: str, file: str | None = None) -> dict:
    """Parse TOML text; malformed text is one InputError."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise InputError(f"malformed TOML: {err}", file=file) from None
    except RecursionError:
        raise InputError("malformed TOML: nested too deeply", file=file) from None


def load_toml(path: str | Path, max_bytes: int = limits.MAX_TOML_BYTES) -> dict:
    """Parse a TOML file (size-capped)."""
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


# ---- writing ------------------------------------------------------------------------------------
#: errors of the machine, not of mlopt: reported as one line naming the file (exit 2)
ENVIRONMENT_ERRNOS = {errno.ENOSPC, errno.EDQUOT, errno.EACCES, errno.EPERM, errno.EROFS,
                      errno.ENOENT, errno.ENOTDIR, errno.EISDIR, errno.EFBIG, errno.ENAMETOOLONG,
                      errno.EEXIST, errno.ENOTEMPTY, errno.EMFILE, errno.ENFILE, errno.ELOOP,
                      errno.EIO}


def os_error(err: OSError, path: str | Path | None = None, doing: str = "write") -> InputError:
    """An OSError of the machine (full device, read-only folder, ...) as one InputError."""
    where = path if path is not None else err.filename
    return InputError(f"cannot {doing} ({err.strerror or err})",
                      file=None if where is None else str(where))


def check_output(path: str | Path, *, folder: bool = False) -> Path:
    """Fail fast, before any work, when ``path`` cannot be written: its folder is missing or
    not a folder or not writable, or (``folder`` False) ``path`` itself is a folder."""
    if not isinstance(path, (str, Path)) or not str(path):
        raise InputError("must be a file name", field="output", value=path)
    path = Path(path)
    parent = path.parent if str(path.parent) else Path(".")
    if not folder and path.is_dir():
        raise InputError("is a folder, not a file name", file=str(path))
    if folder and path.exists() and not path.is_dir():
        raise InputError("exists and is not a folder", file=str(path))
    if not folder and path.exists() and not path.is_file():
        return path  # a device or a pipe: written in place (see atomic_output)
    if not parent.exists():
        raise InputError(f"folder {str(parent)!r} does not exist", file=str(path))
    if not parent.is_dir():
        raise InputError(f"{str(parent)!r} is not a folder", file=str(path))
    target = path if folder and path.is_dir() else parent
    if not os.access(target, os.W_OK | os.X_OK):
        raise InputError(f"folder {str(target)!r} is not writable", file=str(path))
    return path


@contextlib.contextmanager
def atomic_output(path: str | Path) -> Iterator[Path]:
    """``with atomic_output("out.json") as tmp: obj.save(tmp)``: the data is written to a
    temporary file in the same folder and renamed to ``path`` when the block ends without an
    error; on any error the temporary file is removed and ``path`` is left as it was.  An
    OSError of the machine (full device, read-only folder) becomes one InputError."""
    path = check_output(path)
    real = Path(os.path.realpath(path))  # a symlink: replace its target, not the link
    if real.exists() and not real.is_file():
        # a device or a pipe (/dev/stdout, /dev/full): written in place, never renamed over
        try:
            yield real
        except OSError as err:
            if err.errno in ENVIRONMENT_ERRNOS:
                raise os_error(err, path) from None
            raise
        return
    path = real
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp",
                                   dir=str(path.parent) if str(path.parent) else ".")
        os.close(fd)
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp's 0600 -> what open() would have made
    except OSError as err:
        raise os_error(err, path) from None
    try:
        yield Path(tmp)
        os.replace(tmp, path)
    except OSError as err:
        _remove(tmp)
        if err.errno in ENVIRONMENT_ERRNOS:
            raise os_error(err, path) from None
        raise
    except BaseException:
        _remove(tmp)
        raise


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _remove(tmp: str) -> None:
    with contextlib.suppress(OSError):
        os.unlink(tmp)


def write_text(path: str | Path, text: str) -> Path:
    """Write ``text`` to ``path`` atomically (see :func:`atomic_output`)."""
    with atomic_output(path) as tmp:
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
    return Path(path)

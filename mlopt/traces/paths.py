"""Where the shared, read-only trace files live: one documented lookup.

The traces sit beside the project (``../shared/traces`` from the repository root); they are
never copied into it.  The directory is, in this order:

1. the one given explicitly: ``mlopt --traces DIR ...`` on the command line (or
   :func:`set_traces_dir` from Python);
2. the environment variable ``MLOPT_SHARED_TRACES`` (a directory that does not exist means
   "traces unavailable", which tests use to exercise fallbacks);
3. the repository's ``../shared/traces``: beside the source tree mlopt was installed from in
   editable mode, else beside the current directory (a non-editable install keeps no link to
   its source tree).

Commands that need a trace and find none say all three in one line.
"""
from __future__ import annotations

import os
from pathlib import Path

from mlopt.errors import InputError

ENV_VAR = "MLOPT_SHARED_TRACES"
_EXPLICIT: Path | None = None


def set_traces_dir(path: str | Path | None) -> None:
    """Use ``path`` as the traces directory (step 1 of the lookup); None: back to the
    environment variable and the repository's ``../shared/traces``."""
    global _EXPLICIT
    _EXPLICIT = None if path is None else Path(path)


def _candidates() -> list[Path]:
    if _EXPLICIT is not None:
        return [_EXPLICIT]
    env = os.environ.get(ENV_VAR)
    if env is not None:
        return [Path(env)]
    source_tree = Path(__file__).resolve().parents[2]  # the repository, for an editable install
    return [source_tree.parent / "shared" / "traces", Path.cwd().parent / "shared" / "traces"]


def shared_traces_dir() -> Path | None:
    """The shared traces directory, or None when it is not available on this machine."""
    return next((p for p in _candidates() if p.is_dir()), None)


LOOKUP = (f"--traces DIR, then the environment variable {ENV_VAR}, then the repository's "
          "../shared/traces")


def shared_trace(relative: str) -> Path:
    """Path of a file under the shared traces directory; InputError when it is unavailable."""
    root = shared_traces_dir()
    if root is None or not (root / relative).is_file():
        where = f"{root or _candidates()[0]}/{relative}"
        # only some commands take the file itself: name them, not a flag the others lack
        raise InputError(f"trace file not available (looked in: {LOOKUP}; mlopt instances "
                         "from-trace TRACE PATH and hetero's trace_path parameter also take "
                         "the file's path)", file=where)
    return root / relative

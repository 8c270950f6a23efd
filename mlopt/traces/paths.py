"""Where the shared, read-only trace files live.

The traces sit beside the project (``../shared/traces`` from the project root); they are never
copied into it.  The environment variable ``MLOPT_SHARED_TRACES`` overrides the location (a
directory that does not exist means "traces unavailable", which tests use to exercise fallbacks).
"""
from __future__ import annotations

import os
from pathlib import Path

from mlopt.errors import InputError

ENV_VAR = "MLOPT_SHARED_TRACES"


def shared_traces_dir() -> Path | None:
    """The shared traces directory, or None when it is not available on this machine."""
    env = os.environ.get(ENV_VAR)
    if env is not None:
        path = Path(env)
    else:
        path = Path(__file__).resolve().parents[2].parent / "shared" / "traces"
    return path if path.is_dir() else None


def shared_trace(relative: str) -> Path:
    """Path of a file under the shared traces directory; InputError when it is unavailable."""
    root = shared_traces_dir()
    if root is None or not (root / relative).is_file():
        where = f"{root}/{relative}" if root else f"../shared/traces/{relative}"
        raise InputError(f"trace file not available (set {ENV_VAR} or pass a path)",
                         file=where)
    return root / relative

"""mlopt: optimization models, online algorithms and an independent checker for scheduling
distributed ML training jobs, built on five published scheduling systems.

The package imports nothing heavy itself: the public names below load their modules on first
use (PEP 562), so ``mlopt --help`` and an early Ctrl-C do not wait for Pyomo or pydantic.
``mlopt.solve`` is the solve-layer module and is callable: ``mlopt.solve(model, ...)`` is
:func:`mlopt.solve.solve`.

``mlopt.__version__`` is the installed distribution's version (``importlib.metadata``): the
version is written in one place, ``pyproject.toml``.
"""
from __future__ import annotations

import importlib

from mlopt.errors import InputError
from mlopt.forksafe import register as _register_fork_hooks

_register_fork_hooks()  # a killed child must not hold its parent's locks (mlopt.forksafe)

#: what ``__version__`` is when mlopt runs from a source tree that was never installed
UNKNOWN_VERSION = "0+unknown"

_LAZY = {
    "Job": "mlopt.workload", "Server": "mlopt.workload", "Workload": "mlopt.workload",
    "Schedule": "mlopt.schedule",
    "SolveResult": "mlopt.solvers.result", "Status": "mlopt.solvers.result",
    "Verification": "mlopt.solvers.result", "verify": "mlopt.solve",
}

__all__ = ["InputError", "Job", "Schedule", "Server", "SolveResult", "Status", "Verification",
           "Workload", "solve", "verify"]


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("mlopt")
    except PackageNotFoundError:
        return UNKNOWN_VERSION


def __getattr__(name: str):
    if name == "__version__":
        value = _version()
        globals()[name] = value
        return value
    if name == "solve":  # the module (callable as the function), see the docstring
        return importlib.import_module("mlopt.solve")
    if name in _LAZY:
        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'mlopt' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(__all__) | {"__version__"})

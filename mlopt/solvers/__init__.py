"""Solver backends, registered by name.  Add one: subclass :class:`SolverBackend` in a module
here, decorate it with :func:`register_backend`, and import the module below."""
from __future__ import annotations

from .base import BACKENDS, SolverBackend, available_backends, get_backend, register_backend
from . import highs  # noqa: F401  (registers "highs")
from . import scip  # noqa: F401  (registers "scip")
from . import cpsat  # noqa: F401  (registers "cpsat")
from . import gurobi  # noqa: F401  (registers "gurobi"; available only with a licence)

__all__ = ["BACKENDS", "SolverBackend", "available_backends", "get_backend", "register_backend"]

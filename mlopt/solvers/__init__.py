"""Solver backends, registered by name.  Add one: subclass :class:`SolverBackend` in a module
here, decorate it with :func:`register_backend`, and import the module below."""
from __future__ import annotations

from mlopt.solvers.base import BACKENDS, SolverBackend, available_backends, get_backend, register_backend
from mlopt.solvers import highs  # noqa: F401  (registers "highs")
from mlopt.solvers import scip  # noqa: F401  (registers "scip")
from mlopt.solvers import cpsat  # noqa: F401  (registers "cpsat")
from mlopt.solvers import gurobi  # noqa: F401  (registers "gurobi"; available only with a licence)

__all__ = ["BACKENDS", "SolverBackend", "available_backends", "get_backend", "register_backend"]

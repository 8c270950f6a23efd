"""Solver backends, registered by name.  Add one: subclass :class:`SolverBackend` in a module
here, decorate it with :func:`register_backend`, and import the module below."""
from __future__ import annotations

from .base import BACKENDS, SolverBackend, available_backends, get_backend, register_backend
from . import highs  # noqa: F401  (registers "highs")

__all__ = ["BACKENDS", "SolverBackend", "available_backends", "get_backend", "register_backend"]

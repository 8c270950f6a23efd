"""Importing this module registers every family (kept separate to avoid import cycles)."""
from . import oasis  # noqa: F401

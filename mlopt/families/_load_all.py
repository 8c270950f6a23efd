"""Importing this module registers every family (kept separate to avoid import cycles)."""
from mlopt.families import oasis  # noqa: F401
from mlopt.families import edgecloud  # noqa: F401
from mlopt.families import pdors  # noqa: F401
from mlopt.families import harmony  # noqa: F401
from mlopt.families import hetero  # noqa: F401

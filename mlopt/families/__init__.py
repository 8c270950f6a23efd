"""Problem families, one package per paper, registered by name.

Add a paper: create ``mlopt/families/<paper>/`` (generator, checker, algorithms, baselines,
bounds, theory checks) whose ``__init__`` builds a :class:`Family` and calls
:func:`register_family`, put its formulations in ``models/<paper>.py``, and add one import line
to ``_load_all``.  Everything of a family (algorithms, models, presets, bounds) is found through
its :class:`Family` only; names are scoped per family."""
from __future__ import annotations

from mlopt.families.base import FAMILIES, Family, all_families, get_family, register_family

__all__ = ["FAMILIES", "Family", "all_families", "get_family", "register_family"]

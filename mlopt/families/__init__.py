"""Problem families, one package per paper, registered by name (:mod:`.base`).

Add a paper: create ``mlopt/families/<name>/`` with ``family.py`` defining ``FAMILY =
Family(...)`` (every part named by a ``"module:attribute"`` reference, so registering loads
nothing), and add one line to :data:`mlopt.families.base.BUILTIN`.  ``mlopt.testing.check_family``
then holds it to the same guarantees as every other family."""
from __future__ import annotations

from mlopt.families.base import (BUILTIN, FAMILIES, Algorithm, Bound, Family, Formulation,
                                 ReportNotes, all_families, family_names, family_of, get_family,
                                 register_family, unregister_family)

__all__ = ["BUILTIN", "FAMILIES", "Algorithm", "Bound", "Family", "Formulation", "ReportNotes",
           "all_families", "family_names", "family_of", "get_family", "register_family",
           "unregister_family"]

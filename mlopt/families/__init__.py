"""Problem families, registered by name.  Add a paper: write ``families/<name>.py`` that builds
a :class:`Family` and calls :func:`register_family`, then import it in ``_load_all`` below."""
from __future__ import annotations

from .base import FAMILIES, Family, get_family, register_family

__all__ = ["FAMILIES", "Family", "get_family", "register_family"]

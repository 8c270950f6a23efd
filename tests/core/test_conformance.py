"""Every registered family passes the same conformance suite (:mod:`mlopt.testing`)."""
from __future__ import annotations

import pytest

from mlopt.families.base import BUILTIN
from mlopt.testing import check_family

CHECKS = [check for name in sorted(BUILTIN) for check in check_family(name)]


@pytest.mark.parametrize("check", CHECKS, ids=[c.name for c in CHECKS])
def test_conformance(check):
    check()

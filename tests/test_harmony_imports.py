"""Harmony's modules import on their own in a fresh interpreter, in any order (regression: the
formulations and the family import each other, and ``import mlopt.models.harmony`` before the
family package failed with a circular ImportError)."""
from __future__ import annotations

import subprocess
import sys

import pytest


# (one interpreter each costs seconds: the package and a submodule that used to fail are enough)
@pytest.mark.parametrize("module", ["mlopt.models.harmony", "mlopt.models.harmony.interval"])
def test_imports_first_in_a_fresh_interpreter(module):
    code = (f"import {module}\n"
            "import mlopt.models.harmony as m\n"
            "from mlopt.families import get_family\n"
            "fam = get_family('harmony')\n"
            "assert fam.models['placement_milp'] is m.build_placement_milp\n"
            "assert callable(m.build_interval_milp)\n")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120)
    assert res.returncode == 0, res.stderr[-2000:]

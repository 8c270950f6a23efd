"""Every formulation module imports first thing in a fresh interpreter (regression: the
formulations and their families import each other, and ``import mlopt.models.pdors``,
``.hetero`` and ``.edgecloud`` failed with a circular ImportError before ``mlopt.models``
loaded the families first).  Harmony has its own test (test_harmony_imports.py)."""
from __future__ import annotations

import subprocess
import sys

import pytest

# (module, a builder it must expose, the family whose registry must hold that same builder)
CASES = [
    ("mlopt.models.oasis", "build_utility_ilp", "oasis", "utility_ilp"),
    ("mlopt.models.edgecloud", "build_jct_milp", "edgecloud", "jct_milp"),
    ("mlopt.models.pdors", "build_dmlrs_milp", "pdors", "dmlrs_milp"),
    ("mlopt.models.hetero", "build_wct_milp", "hetero", "wct_milp"),
]


@pytest.mark.parametrize("module,builder,family,model", CASES, ids=[c[2] for c in CASES])
def test_formulation_imports_first(module, builder, family, model):
    code = (f"import {module} as m\n"
            "from mlopt.families import get_family\n"
            f"assert get_family({family!r}).models[{model!r}] is m.{builder}\n")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120)
    assert res.returncode == 0, res.stderr[-2000:]

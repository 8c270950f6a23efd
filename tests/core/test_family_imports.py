"""No family's modules load another family's: registering is by reference (nothing is imported
until used), so a family's registration, fields, generator and checker import on their own in a
fresh interpreter, and ``mlopt --help`` imports no family at all."""
from __future__ import annotations


import pytest
from fresh_python import assert_runs_fresh

from mlopt.families.base import BUILTIN

FAMILIES = sorted(BUILTIN)


def _modules_of(name: str) -> list[str]:
    """The modules of a family's registration, fields, generator and checker."""
    from mlopt.families import get_family

    fam = get_family(name)
    refs = [BUILTIN[name], fam.fields, fam.generator, fam.checker]
    return sorted({r.partition(":")[0] for r in refs})


@pytest.mark.parametrize("name", FAMILIES)
def test_a_family_loads_no_other_family(name):
    modules = _modules_of(name)
    others = [f"mlopt.families.{o}" for o in FAMILIES if o != name]
    code = (f"import importlib, sys\n"
            f"for m in {modules!r}: importlib.import_module(m)\n"
            f"loaded = [o for o in {others!r} if o in sys.modules]\n"
            "assert not loaded, loaded\n"
            f"from mlopt.families import get_family\n"
            f"assert get_family({name!r}).name == {name!r}\n")
    assert_runs_fresh(code)


def test_the_registry_loads_no_family():
    code = ("import sys\n"
            "from mlopt.families import family_names\n"
            "import mlopt.cli\n"
            "assert family_names() == sorted(%r)\n"
            "loaded = [m for m in sys.modules if m.startswith('mlopt.families.') and\n"
            "          m not in ('mlopt.families.base',)]\n"
            "assert not loaded, loaded\n" % (FAMILIES,))
    assert_runs_fresh(code)

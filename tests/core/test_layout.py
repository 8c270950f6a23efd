"""The house: one package per paper, one registry per concept, and a README that matches the tree."""
from __future__ import annotations

import importlib
import json
import re
from pathlib import Path

import pytest

from mlopt.cli import main
from mlopt.families import all_families, get_family


def packaged_families():
    """Families shipped in mlopt/families/ (tests register toy families of their own)."""
    return {n: f for n, f in all_families().items()
            if (f.module or "").startswith("mlopt.families.")}

ROOT = Path(__file__).resolve().parents[2]


def _readme_layout_paths() -> list[str]:
    text = (ROOT / "README.md").read_text()
    section = text[text.index("## Layout and how to extend mlopt"):]
    paths = set(re.findall(r"`((?:mlopt|models|tests|benchmarks|instances)/[\w./<>-]*)`", section))
    block = section[section.index("```") + 3:]
    block = block[:block.index("```")]
    paths |= {line.split()[0] for line in block.splitlines()
              if line.strip() and "/" in line.split()[0] and not line.startswith(" ")}
    return sorted(paths)


def test_readme_layout_matches_the_tree():
    """Every path the README's layout and extension guide names exists (``<paper>`` and
    ``<name>`` are read as every registered family, ``<set>`` as instance sets)."""
    paths = _readme_layout_paths()
    assert len(paths) > 15
    missing = []
    for p in paths:
        if "<name>" in p or "<set>" in p:
            continue  # a file the reader is told to create
        if "<family>" in p or "<paper>" in p:
            for fam in packaged_families():
                q = p.replace("<family>", fam).replace("<paper>", fam)
                if q.endswith(".py") and not (ROOT / q).exists():
                    q = q[:-3]  # models/<paper>.py may be a package models/<paper>/
                elif q.endswith("/") and not (ROOT / q).exists() and \
                        (ROOT / (q.rstrip("/") + ".py")).exists():
                    q = q.rstrip("/") + ".py"  # ... and models/<paper>/ may be one module
                if not (ROOT / q).exists() and "test_" not in q:
                    missing.append(q)
            continue
        if not (ROOT / p.rstrip("/")).exists():
            missing.append(p)
    assert not missing, f"README names paths that do not exist: {missing}"


def test_readme_oasis_package_entries_exist():
    """The indented entries under ``mlopt/families/oasis/`` in the README's tree."""
    text = (ROOT / "README.md").read_text()
    block = text[text.index("mlopt/families/oasis/ "):]
    block = block[:block.index("models/oasis/")]
    names = [line.split()[0] for line in block.splitlines()[1:]
             if line.startswith("    ") and line.split()[0].endswith((".py", "/"))]
    assert {"family.py", "generator.py", "checker.py", "online.py", "baselines/",
            "bounds/"} <= set(names)
    for n in names:
        assert (ROOT / "mlopt" / "families" / "oasis" / n.rstrip("/")).exists(), n


def test_every_family_is_one_package_with_its_formulations_in_models():
    for name, fam in packaged_families().items():
        pkg = ROOT / "mlopt" / "families" / name
        assert (pkg / "__init__.py").exists(), name
        for model_name, builder in fam.models.items():
            assert builder.__module__.startswith(f"mlopt.models.{name}"), (name, model_name)
        for alg, fn in fam.algorithms.items():
            assert fn.__module__.startswith(f"mlopt.families.{name}"), (name, alg)


def test_old_global_registries_are_gone():
    for mod in ("mlopt.algorithms", "mlopt.generators", "mlopt.checkers", "mlopt.bounds",
                "mlopt.solvers.bench"):
        with pytest.raises(ModuleNotFoundError):
            importlib.import_module(mod)


def test_families_json_lists_oasis(capsys):
    assert main(["families", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    oasis = out["families"]["oasis"]
    assert oasis["sense"] == "max"
    assert oasis["models"] == ["utility_ilp"] and oasis["default_model"] == "utility_ilp"
    assert oasis["algorithms"] == ["dorm", "drf", "fifo", "lns", "oasis", "rrh"]
    assert {"paper-default", "paper-fig5", "tiny"} <= set(oasis["presets"])
    # the family's registered bounds, then the LP relaxation every family has
    assert oasis["bounds"] == ["class_relaxation", "colgen", "dual_certificate", "lp_relaxation"]
    assert out["families"] == {n: {**f.describe(), "bounds": f.describe()["bounds"]
                                   + ["lp_relaxation"]}
                               for n, f in all_families().items()}


def test_families_text(capsys):
    assert main(["families"]) == 0
    assert "oasis" in capsys.readouterr().out


def test_unknown_names_are_scoped_per_family():
    fam = get_family("oasis")
    for lookup, field in ((fam.algorithm, "algorithm"), (fam.preset, "preset"),
                          (fam.bound, "bound"), (fam.model, "model")):
        with pytest.raises(Exception) as err:
            lookup("no-such-name")
        assert getattr(err.value, "field", None) == field

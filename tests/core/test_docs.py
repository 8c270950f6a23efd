"""The docs site (mkdocs.yml, docs/) builds with --strict from the docstrings, and the package
ships its py.typed marker."""
from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_py_typed_is_shipped():
    import mlopt

    assert (Path(mlopt.__file__).parent / "py.typed").is_file()
    text = (ROOT / "pyproject.toml").read_text()
    assert '"mlopt" = ["py.typed"]' in text  # package data: a wheel carries it too


def test_docs_site_builds_strict(tmp_path):
    if importlib.util.find_spec("mkdocs") is None or importlib.util.find_spec(
            "mkdocstrings") is None:
        if os.environ.get("CI"):
            pytest.fail("CI is set but mkdocs / mkdocstrings are missing (the dev extra)")
        pytest.skip("mkdocs and mkdocstrings not installed (pip install -e '.[dev]')")
    site = tmp_path / "site"
    run = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet",
                          "-f", str(ROOT / "mkdocs.yml"), "-d", str(site)],
                         capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert run.returncode == 0, run.stderr[-3000:]
    harness = (site / "api" / "harness" / "index.html").read_text()
    # pages generated from the docstrings, not empty shells
    for name in ("run_spec", "write_report", "write_html", "ResultStore"):
        assert name in harness
    assert "report_notes" in (site / "api" / "families" / "index.html").read_text()

"""``-v`` / ``-q`` drive the standard ``logging`` module: library code logs (never prints),
the command line shows INFO with ``-v``, DEBUG names with ``-vv``, nothing but errors with
``-q``; stdout (and ``--json``) never carries a log line; long steps get a spinner."""
from __future__ import annotations

import json
import logging
import time

import pytest

from mlopt.cli import main
from mlopt.cli import progress


@pytest.fixture(autouse=True)
def _reset_logging():
    yield
    progress.configure(0, False)  # later tests see the default (warnings only)


def run_cli(capsys, *argv):
    capsys.readouterr()
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def workload(capsys, tmp_path):
    path = str(tmp_path / "o.json")
    assert run_cli(capsys, "generate", "oasis", "-o", path)[0] == 0
    return path


def test_default_is_silent_on_stderr(capsys, workload):
    code, out, err = run_cli(capsys, "solve", workload)
    assert code == 0 and out.startswith("status optimal") and err == ""


def test_verbose_says_each_step_on_stderr_and_json_stays_clean(capsys, workload):
    code, out, err = run_cli(capsys, "-v", "solve", workload, "--json")
    assert code == 0 and json.loads(out)["status"] == "optimal"  # stdout: the JSON alone
    lines = err.splitlines()
    assert any(line.startswith("mlopt: built utility_ilp for 3 jobs") for line in lines)
    assert any(line.startswith("mlopt: highs on utility_ilp: optimal") for line in lines)
    code, out, err = run_cli(capsys, "-v", "run", "oasis", workload)
    assert code == 0 and "mlopt: oasis ran in" in err


def test_double_verbose_names_the_logging_module(capsys, workload):
    _, _, err = run_cli(capsys, "-vv", "run", "oasis", workload)
    assert "mlopt.pipeline: oasis ran in" in err


def test_quiet_hides_warnings_but_not_errors(capsys, workload):
    code, _, err = run_cli(capsys, "-q", "run", "oasis", workload)
    assert code == 0 and err == ""
    logging.getLogger("mlopt.test").warning("hidden")
    logging.getLogger("mlopt.test").error("shown")
    err = capsys.readouterr().err
    assert "hidden" not in err and "mlopt: shown" in err
    assert progress.progress_wanted() is False  # -q: no progress bars either
    code, _, err = run_cli(capsys, "-q", "solve", str(workload) + ".missing")
    assert code == 2 and err.startswith("mlopt: error:")  # errors are never silenced


def test_verbose_and_quiet_together_is_an_argument_error(capsys):
    code, out, err = run_cli(capsys, "-v", "-q", "families")
    assert code == 2 and out == "" and "not allowed with" in err and err.count("\n") == 1


def test_spinner_shows_the_step_and_its_elapsed_time(capsys):
    with progress.spinner("building a model", enabled=True, interval=0.05):
        time.sleep(0.2)
    err = capsys.readouterr().err
    assert "building a model [00:00]" in err


def test_spinner_off_without_a_terminal(capsys):
    """Under pytest stderr is not a terminal: nothing drawn, the step is only logged."""
    with progress.spinner("exporting"):
        pass
    assert capsys.readouterr().err == ""

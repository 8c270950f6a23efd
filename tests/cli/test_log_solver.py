"""``--log-solver``: the solver's own log on stderr while ``solve`` / ``bracket`` run, never on
stdout (``--json`` stays one JSON object); a backend that cannot stream says so in one line."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest


def _mlopt(*argv, timeout=120):
    return subprocess.run([sys.executable, "-m", "mlopt", *argv], capture_output=True,
                          text=True, timeout=timeout)


@pytest.fixture(scope="module")
def workload(tmp_path_factory):
    path = tmp_path_factory.mktemp("log") / "o.json"
    assert _mlopt("generate", "oasis", "-o", str(path)).returncode == 0
    return str(path)


@pytest.mark.parametrize("solver, marker", [("highs", "Running HiGHS"),
                                            ("scip", "presolving")])
def test_solve_streams_the_solver_log_to_stderr_only(workload, solver, marker):
    quiet = _mlopt("solve", workload, "--solver", solver, "--json")
    loud = _mlopt("solve", workload, "--solver", solver, "--json", "--log-solver")
    assert quiet.returncode == loud.returncode == 0
    assert marker not in quiet.stderr and marker in loud.stderr
    assert json.loads(loud.stdout)["status"] == "optimal"  # stdout: the JSON alone


def test_warm_started_highs_streams_too(workload):
    out = _mlopt("solve", workload, "--warm-start", "oasis", "--log-solver")
    assert out.returncode == 0 and "MIP has" in out.stderr
    assert "MIP has" not in out.stdout


def test_bracket_streams_the_exact_models_log_from_its_child(workload):
    out = _mlopt("bracket", workload, "--time-limit", "20", "--json", "--log-solver")
    assert out.returncode == 0 and json.loads(out.stdout)["status"] == "optimal"
    # the model's own log lines: HiGHS prints its "Running HiGHS" banner once per process,
    # and not at all on the warm-started path (a HiGHS object built with output off), which
    # bracket takes whenever the online algorithm's start arrives within its cap
    assert "MIP has" in out.stderr


def test_cpsat_says_its_log_is_not_streamed(workload):
    out = _mlopt("solve", workload, "--solver", "cpsat", "--log-solver")
    assert out.returncode == 0
    assert "mlopt: --log-solver: cpsat's log is not streamed" in out.stderr.splitlines()

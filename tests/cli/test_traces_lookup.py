"""One documented lookup for the shared traces: ``--traces DIR``, then
``$MLOPT_SHARED_TRACES``, then the repository's ``../shared/traces``; a missing trace names
all three in one line."""
from __future__ import annotations

import pytest

from mlopt.cli import main
from mlopt.traces import paths


def run_cli(capsys, *argv):
    capsys.readouterr()
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_missing_traces_name_the_whole_lookup(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv(paths.ENV_VAR, str(tmp_path / "from-env"))
    code, out, err = run_cli(capsys, "--traces", str(tmp_path / "given"), "generate", "hetero",
                             "--preset", "trace-philly", "-o", str(tmp_path / "w.json"))
    assert code == 2 and out == "" and err.count("\n") == 1
    assert str(tmp_path / "given") in err  # the directory it looked in: the one given
    assert "--traces DIR" in err and paths.ENV_VAR in err and "../shared/traces" in err
    # where a file's path is taken instead (generate has no such flag: not offered as one)
    assert "from-trace TRACE PATH" in err and "trace_path" in err


def test_the_option_comes_before_the_environment_and_holds_for_one_command(tmp_path,
                                                                           monkeypatch):
    given, env = tmp_path / "given", tmp_path / "env"
    given.mkdir()
    env.mkdir()
    monkeypatch.setenv(paths.ENV_VAR, str(env))
    assert paths.shared_traces_dir() == env
    paths.set_traces_dir(given)
    try:
        assert paths.shared_traces_dir() == given
    finally:
        paths.set_traces_dir(None)
    assert paths.shared_traces_dir() == env
    monkeypatch.setenv(paths.ENV_VAR, str(tmp_path / "missing"))
    assert paths.shared_traces_dir() is None  # a missing directory means "unavailable"


def test_the_repository_default_is_beside_the_source_tree_or_the_current_directory(
        tmp_path, monkeypatch):
    monkeypatch.delenv(paths.ENV_VAR, raising=False)
    project = tmp_path / "project"
    (tmp_path / "shared" / "traces").mkdir(parents=True)
    project.mkdir()
    monkeypatch.chdir(project)
    found = paths.shared_traces_dir()
    # an editable install finds its own repository's ../shared first; else the working
    # directory's ../shared/traces (what a non-editable install uses)
    assert found is not None
    if found != tmp_path / "shared" / "traces":
        assert found.name == "traces" and found.parent.name == "shared"


def test_the_cli_option_reads_a_real_trace(capsys, tmp_path):
    root = paths.shared_traces_dir()
    if root is None:
        pytest.skip("the shared traces are not on this machine")
    code, _, _ = run_cli(capsys, "--traces", str(root), "generate", "hetero", "--preset",
                         "trace-philly", "-o", str(tmp_path / "w.json"))
    assert code == 0 and paths._EXPLICIT is None


def test_a_trace_set_without_the_traces_names_the_whole_lookup(capsys, tmp_path, monkeypatch):
    """``mlopt instances build oasis-trace-itp`` without the traces said only "needs the shared
    traces folder (../shared/traces)": the same one line as every other missing trace now."""
    monkeypatch.setenv(paths.ENV_VAR, str(tmp_path / "missing"))
    code, out, err = run_cli(capsys, "instances", "build", "oasis-trace-itp")
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "--traces DIR" in err and paths.ENV_VAR in err and "cluster01.csv" in err

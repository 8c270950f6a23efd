"""Command-line conventions: ``--version`` from the package metadata, bare ``mlopt`` is the
help (exit 0), one ``mlopt: error:`` prefix, every command's ``--help`` lists the registry's
names (built only when asked for: ``mlopt --help`` loads no family), ``generate`` defaults to
the small ``tiny`` preset and says so."""
from __future__ import annotations

import importlib.metadata
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import mlopt
from mlopt.cli import main
from mlopt.errors import InputError

CLI_DIR = Path(mlopt.__file__).parent / "cli"


def run_cli(capsys, *argv):
    capsys.readouterr()
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


# ---- --version and bare mlopt -------------------------------------------------------------------
def test_version_is_the_package_metadata(capsys):
    code, out, err = run_cli(capsys, "--version")
    assert (code, err) == (0, "")
    assert out == f"mlopt {importlib.metadata.version('mlopt')}\n"
    assert mlopt.__version__ == importlib.metadata.version("mlopt")


def test_version_is_written_once():
    """pyproject.toml holds the version; the package reads the metadata, no literal copy."""
    source = Path(mlopt.__file__).read_text()
    assert not re.search(r"^__version__\s*=", source, re.M)


def test_bare_mlopt_prints_the_help_and_exits_0(capsys):
    code, out, err = run_cli(capsys)
    assert (code, err) == (0, "")
    assert out.startswith("usage: mlopt") and "generate" in out and "--version" in out


def test_bare_mlopt_console_exit_0():
    proc = subprocess.run([sys.executable, "-m", "mlopt"], capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 0 and proc.stderr == ""
    assert proc.stdout.startswith("usage: mlopt")


def test_help_returns_0_from_main(capsys):
    """``main(["--help"])`` returns 0 (no SystemExit escapes to a caller of main)."""
    code, out, _ = run_cli(capsys, "--help")
    assert code == 0 and "mlopt COMMAND --help" in out


# ---- one error prefix ---------------------------------------------------------------------------
@pytest.mark.parametrize("argv", [
    ["frobnicate"], ["generate"], ["generate", "oasis", "-o", "x.json", "--seed", "x"],
    ["bench", "run"], ["instances", "show"], ["run", "fifo"],
    ["solve", "w.json", "--threads", "two"], ["--no-such-flag"],
])
def test_argument_errors_have_one_prefix(capsys, tmp_path, argv):
    argv = [str(tmp_path / a) if a.endswith(".json") else a for a in argv]
    code, out, err = run_cli(capsys, *argv)
    assert code == 2 and out == ""
    assert err.startswith("mlopt: error: ") and err.count("\n") == 1
    assert "mlopt: error: mlopt" not in err and err.count("mlopt:") == 1, err


def test_a_message_that_names_the_program_itself_gets_one_prefix(capsys, monkeypatch):
    import mlopt.cli.families as families

    def handler(args):
        raise InputError("mlopt: error: mlopt: something is wrong")

    monkeypatch.setattr(families, "_families", handler)
    code, _, err = run_cli(capsys, "families")
    assert code == 2 and err == "mlopt: error: something is wrong\n"


def test_no_cli_message_starts_with_the_program_name():
    """Only main() writes 'mlopt: ...' (its error and interrupt lines); a command's own message
    starting with the program name would be printed after main's prefix."""
    pattern = re.compile(r"""["'](mlopt:|mlopt error)""")
    offenders = [f"{p.name}:{i}" for p in sorted(CLI_DIR.glob("*.py")) if p.name != "__init__.py"
                 for i, line in enumerate(p.read_text().splitlines(), 1) if pattern.search(line)]
    assert offenders == []


# ---- --help lists the registry -------------------------------------------------------------------
def _help(capsys, *argv) -> str:
    code, out, err = run_cli(capsys, *argv, "--help")
    assert (code, err) == (0, "")
    return " ".join(out.split())  # unwrapped


def test_generate_help_lists_families_and_presets(capsys):
    from mlopt.families import all_families

    text = _help(capsys, "generate")
    assert "default: tiny" in text
    for name, fam in all_families().items():
        assert f"{name} ({fam.sense}imize): presets {', '.join(fam.preset_names)}" in text
    assert "n_jobs" in text


def test_run_help_lists_algorithms_with_their_options_and_defaults(capsys):
    from mlopt.families import all_families
    from mlopt.params import describe

    text = _help(capsys, "run")
    fifo = all_families()["oasis"].option_schema("fifo")
    assert fifo  # oasis's fifo declares options
    for name, line in describe(fifo).items():
        assert f"{name}: {' '.join(line.split())}" in text
    for fam in all_families().values():
        for algorithm in fam.algorithms_:
            assert re.search(rf"\b{re.escape(algorithm)}\b", text), algorithm


def test_solve_help_lists_models_and_solvers(capsys):
    from mlopt.families import all_families
    from mlopt.solvers import BACKENDS

    text = _help(capsys, "solve")
    for fam in all_families().values():
        assert f"{fam.default_model} (default)" in text
        for model in fam.formulations:
            assert model in text
    for name in BACKENDS:
        assert name in text


def test_bound_and_bracket_help_list_bounds(capsys):
    from mlopt.families import all_families

    bound, bracket = _help(capsys, "bound"), _help(capsys, "bracket")
    assert "lp_relaxation" in bound
    for fam in all_families().values():
        for name in fam.bounds_:
            assert name in bound and name in bracket


def test_bench_help_lists_the_packaged_specs(capsys):
    from mlopt.cli.quickstart import quick_specs

    for argv in (["bench"], ["bench", "run"]):
        text = _help(capsys, *argv)
        for spec in quick_specs():
            assert spec.name in text


def test_schema_help_lists_formats_and_unknown_is_one_line(capsys):
    assert "formats: schedule, spec, workload" in _help(capsys, "schema")
    code, _, err = run_cli(capsys, "schema", "nope")
    assert code == 2 and err.startswith("mlopt: error: ") and "known:" in err


def test_top_level_help_is_fast_and_loads_no_family():
    """``mlopt --help`` builds every parser but none of the epilogs: no family, no Pyomo,
    pandas, NumPy or pydantic (benchmarks/cli/README.md has the timings)."""
    code = ("import contextlib, io, sys\n"
            "from mlopt.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()) as out:\n"
            "    assert main(['--help']) == 0\n"
            "assert 'usage: mlopt' in out.getvalue()\n"
            "heavy = [m for m in sys.modules if m.split('.')[0] in ('numpy', 'pandas', "
            "'pyomo', 'pydantic') or m.startswith('mlopt.families')]\n"
            "print(heavy)\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.strip() == "[]"


# ---- generate's default preset ------------------------------------------------------------------
def test_generate_defaults_to_tiny_and_says_so(capsys, tmp_path):
    from mlopt.families import get_family
    from mlopt.workload import Workload

    out = tmp_path / "w.json"
    code, _, err = run_cli(capsys, "generate", "oasis", "-o", out)
    assert code == 0 and "preset tiny (default), seed 0" in err
    tiny = get_family("oasis").generate("tiny", seed=0)
    assert Workload.load(out).content_hash() == tiny.content_hash()
    code, _, err = run_cli(capsys, "generate", "oasis", "--preset", "tiny", "-o", out)
    assert code == 0 and "preset tiny, seed 0" in err and "(default)" not in err
    assert json.loads(out.read_text())["meta"]["family"] == "oasis"


def test_export_train_and_trace_help_list_the_registry(capsys):
    from mlopt.families import all_families

    families = all_families()
    export, train = _help(capsys, "export"), _help(capsys, "train")
    trace = _help(capsys, "instances", "from-trace")
    for name, fam in families.items():
        assert all(model in export for model in fam.formulations)
        assert all(target in train for target in fam.trainers_)
        assert (f" {name}" in trace.split("(--family):")[1]) == (fam.from_trace_ is not None)


def test_generate_family_help_lists_each_presets_parameters(capsys):
    from mlopt.families import get_family
    from mlopt.params import describe

    fam = get_family("oasis")
    text = _help(capsys, "generate", "oasis")
    assert "presets of oasis" in text and "hetero" not in text
    tiny = describe(fam.param_schema("tiny"))
    assert tiny and all(f"{name}: {' '.join(line.split())}" in text
                        for name, line in tiny.items())


def test_run_algorithm_help_lists_only_that_algorithm(capsys):
    text = _help(capsys, "run", "fifo")
    assert "worker_range" in text and "max_workers" in text  # oasis's and hetero's fifo
    assert "adjust_fraction" not in text  # dorm's
    assert "adjust_fraction" in _help(capsys, "run", "no-such-algorithm")  # all of them


@pytest.mark.parametrize("group, action", [("bench", "run"), ("instances", "from-csv"),
                                           ("solvers", "list")])
def test_a_command_group_without_its_action_prints_its_help(capsys, group, action):
    """``mlopt bench`` is like bare ``mlopt``: the group's help (listing its actions), exit 0,
    not "the following arguments are required"."""
    code, out, err = run_cli(capsys, group)
    assert (code, err) == (0, "")
    assert out.startswith(f"usage: mlopt {group}") and action in out


def test_solvers_list_has_a_header_and_aligned_columns(capsys):
    code, out, _ = run_cli(capsys, "solvers", "list")
    lines = out.splitlines()
    assert code == 0 and lines[0].split()[:3] == ["SOLVER", "STATUS", "VERSION"]
    # every row's capabilities start in the header's CAPABILITIES column (versions with spaces
    # such as "10.0.2 (PySCIPOpt ...)" used to push them right)
    col = lines[0].index("CAPABILITIES")
    assert all(line[col - 2:col] == "  " and line[col] != " " for line in lines[1:])
    assert {line.split()[0] for line in lines[1:]} >= {"highs", "scip", "cpsat"}


def test_families_lists_the_lp_relaxation_every_family_has(capsys):
    code, out, _ = run_cli(capsys, "families", "--json")
    fams = json.loads(out)["families"]
    assert code == 0 and all(d["bounds"].count("lp_relaxation") == 1 for d in fams.values())
    code, out, _ = run_cli(capsys, "families")
    assert sum("lp_relaxation" in line for line in out.splitlines()) == len(fams)


# ---- what a newcomer reads (found by following the README) ---------------------------------------
def test_every_action_help_says_what_the_action_does(capsys):
    """``mlopt instances solve --help`` used to open with the usage and no sentence: each
    action's one-line help (the group's list) is its own description too."""
    for group, action, line in [("instances", "solve", "solve every instance of a set"),
                                ("instances", "build", "regenerate a set's files"),
                                ("solvers", "bench", "instances x solvers"),
                                ("bench", "report", "write DIR/report.md")]:
        assert line in _help(capsys, group, action), (group, action)
    assert "mlopt instances list names them" in _help(capsys, "instances", "show")


def test_solve_help_points_at_a_listing_that_exists(capsys):
    """The --model-option help said "`mlopt families FAMILY` lists them": that command takes no
    family (exit 2); the options are listed in solve's own help."""
    text = _help(capsys, "solve")
    assert "mlopt families FAMILY" not in text
    assert "listed below with the models" in text and "tight: bool" in text  # jct_step's
    assert "default: no limit" in text  # --time-limit
    code, _, _ = run_cli(capsys, "families", "edgecloud")
    assert code == 2


def test_quickstart_help_does_not_promise_minutes(capsys):
    text = _help(capsys, "quickstart")
    assert "a few minutes" not in text and "second solver" in text
    assert "local worker processes (default 2" in text  # --workers had no help


def test_unknown_bound_lists_the_lp_relaxation_the_commands_accept(capsys, tmp_path):
    w = tmp_path / "w.json"
    assert run_cli(capsys, "generate", "oasis", "-o", w)[0] == 0
    for argv in (["bound", w, "--bound", "colgn"], ["bracket", w, "--bound", "colgn"]):
        code, out, err = run_cli(capsys, *argv)
        assert (code, out) == (2, "") and err.count("\n") == 1
        assert "colgen" in err and "lp_relaxation" in err


def test_bound_line_leaves_out_a_status_the_method_does_not_report(capsys, tmp_path):
    """``mlopt bound W --bound dual_certificate`` printed "method status -"."""
    w = tmp_path / "w.json"
    assert run_cli(capsys, "generate", "oasis", "-o", w)[0] == 0
    code, out, _ = run_cli(capsys, "bound", w, "--bound", "dual_certificate", "--time-limit", 10)
    assert code == 0 and out.startswith("oasis dual_certificate: OPT <= ")
    assert "method status" not in out and "(upper bound; " in out


def test_a_speed_augmented_run_says_its_objective_is_not_comparable_with_opt(capsys, tmp_path):
    """``mlopt run a_online e.json --option eps=0.5`` printed an objective below the proven
    optimum with nothing to say why; mlopt check --speed says it, and now run does too."""
    e = tmp_path / "e.json"
    assert run_cli(capsys, "generate", "edgecloud", "-o", e)[0] == 0
    code, out, _ = run_cli(capsys, "run", "a_online", e, "--option", "eps=0.5")
    assert code == 0 and "checked at speed 1.5" in out and "not comparable with OPT" in out
    code, out, _ = run_cli(capsys, "run", "a_online", e)
    assert code == 0 and "speed" not in out


def test_an_algorithm_of_another_family_says_whose_it_is(capsys, tmp_path):
    """``mlopt run harmony w.json`` on an OASiS workload: the one line says harmony is Harmony's
    (a_online: edgecloud's and hetero's); a name no family has gets no such hint."""
    w = tmp_path / "w.json"
    assert run_cli(capsys, "generate", "oasis", "-o", w)[0] == 0
    for alg, hint in [("harmony", "harmony is an algorithm of family harmony, not oasis"),
                      ("a_online", "of families edgecloud and hetero, not oasis")]:
        code, out, err = run_cli(capsys, "run", alg, w)
        assert (code, out) == (2, "") and err.count("\n") == 1 and hint in err
    code, _, err = run_cli(capsys, "run", "fifoo", w)
    assert code == 2 and "is an algorithm of" not in err and "fifo" in err


def test_export_to_an_unknown_suffix_names_the_flag(capsys, tmp_path):
    """The field was export_workload's argument name, ``out_path``; the user typed -o."""
    w = tmp_path / "w.json"
    assert run_cli(capsys, "generate", "oasis", "-o", w)[0] == 0
    code, out, err = run_cli(capsys, "export", w, "-o", tmp_path / "w.txt")
    assert (code, out) == (2, "") and err.count("\n") == 1
    assert "field '--output'" in err and "w.txt" in err and ".mps" in err


def test_solve_errors_name_the_flags_typed(capsys, tmp_path):
    """solve_offline's keywords (time_limit, options.NAME) became the flags the user typed."""
    hu, w = tmp_path / "hu.json", tmp_path / "w.json"
    assert run_cli(capsys, "generate", "harmony", "--preset", "uniform", "-o", hu)[0] == 0
    assert run_cli(capsys, "generate", "oasis", "-o", w)[0] == 0
    for argv, needle in [([hu, "--time-limit", 1], "field '--time-limit', value 1.0"),
                         ([w, "--model-option", "foo=1"], "field '--model-option foo', value 1"),
                         ([w, "--warm-start", "nope"], "field '--warm-start', value 'nope'")]:
        code, out, err = run_cli(capsys, "solve", *argv)
        assert (code, out) == (2, "") and err.count("\n") == 1 and needle in err, err
        if argv[0] == hu:  # the refusal's suggested commands name the file typed
            assert f"'mlopt bracket {hu} --time-limit 1'" in err and "FILE" not in err


def test_train_help_lists_the_training_parameters(capsys):
    """The -p names of ``mlopt train`` were only in the error for an unknown one: the help lists
    them, and ``mlopt train harmony --help`` each with its range and default."""
    from mlopt.families.harmony.train_params import POLICY_PARAMS, REWARD_PARAMS

    text = _help(capsys, "train")
    assert "policy -p parameters: " + ", ".join(POLICY_PARAMS) in text
    assert "reward_model -p parameters: " + ", ".join(REWARD_PARAMS) in text
    text = _help(capsys, "train", "harmony")
    assert "episodes: int in [1, 100000] (default 600)" in text and "samples: int in" in text


def test_verify_before_the_file_says_so(capsys, tmp_path):
    """``mlopt solve --verify w.json`` took w.json for the second solver and then said "the
    following arguments are required: file"; ``instances solve --verify oasis-tiny`` alike."""
    w = tmp_path / "w.json"
    assert run_cli(capsys, "generate", "oasis", "-o", w)[0] == 0
    for argv, value in [(["solve", "--verify", w], repr(str(w))),
                        (["instances", "solve", "--verify", "oasis-tiny"], "'oasis-tiny'")]:
        code, out, err = run_cli(capsys, *argv)
        assert (code, out) == (2, "") and err.count("\n") == 1
        assert f"argument --verify: {value} is not a solver" in err and "--verify=SOLVER" in err
    code, out, _ = run_cli(capsys, "solve", w, "--verify", "highs", "--time-limit", 10)
    assert code == 0 and "verified by highs" in out


def test_instances_list_counts_one_instance_in_the_singular(capsys):
    from mlopt.instances import list_sets, load_set

    code, out, _ = run_cli(capsys, "instances", "list")
    lines = {line.split()[0]: line for line in out.splitlines()}
    assert code == 0
    for name in list_sets():
        n = len(load_set(name).entries)
        assert f" {n} instance{'s' if n != 1 else ' '}  " in lines[name]


def test_the_flags_a_run_depends_on_say_their_defaults(capsys):
    """--solver, --threads, --seed and the instance commands' --time-limit (60 per instance;
    600 for verify) and --update-solu were listed without a word."""
    assert "solver threads (default 1)" in _help(capsys, "bracket")
    assert "default: highs" in _help(capsys, "bound") and "random seed (default 0)" in \
        _help(capsys, "generate")
    assert "seconds per instance (default 60)" in _help(capsys, "instances", "solve")
    assert "seconds per instance (default 600)" in _help(capsys, "instances", "verify")
    assert "record the interval in instances/solu.csv" in _help(capsys, "instances", "bracket")


def test_verify_takes_a_solvers_name_even_where_a_file_has_it(capsys, tmp_path, monkeypatch):
    """A folder named scip (or highs) in the working directory made ``--verify scip`` and even
    ``--verify=scip`` "not a solver" (the refusal's own advice failed): a solver's name is a
    solver's name first."""
    w = tmp_path / "w.json"
    assert run_cli(capsys, "generate", "oasis", "-o", w)[0] == 0
    monkeypatch.chdir(tmp_path)
    (tmp_path / "scip").mkdir()
    (tmp_path / "highs").write_text("")
    for argv in (["--verify", "highs"], ["--verify=highs"]):
        code, out, err = run_cli(capsys, "solve", w, *argv, "--time-limit", 10)
        assert code == 0 and "verified by highs" in out, err
    from mlopt.cli import verify_solver
    assert verify_solver("scip") == "scip" and verify_solver("auto") == "auto"


def test_the_memory_refusal_names_the_file_typed_too(capsys, tmp_path, monkeypatch):
    """The too-large refusal for memory (field 'model') still said 'mlopt bracket FILE' while
    the one for time named the file: both name it."""
    import mlopt.modelsize as modelsize

    w = tmp_path / "w.json"
    assert run_cli(capsys, "generate", "oasis", "-o", w)[0] == 0
    monkeypatch.setattr(modelsize, "available_memory", lambda: 1)  # 1 byte: nothing fits
    code, out, err = run_cli(capsys, "solve", w)
    assert (code, out) == (2, "") and err.count("\n") == 1 and "more than the" in err
    assert f"'mlopt bracket {w}'" in err and "FILE" not in err, err


def test_check_help_says_when_it_exits_2(capsys):
    """check's help said only "exit 1 if infeasible": a schedule of another family, or one
    infeasible on a workload other than its meta.workload, exits 2 since the newcomer fixes."""
    text = " ".join(_help(capsys, "check").split())
    assert "exit 1 if infeasible; 2 for a schedule of another family" in text
    assert "other than its meta.workload" in text and "the workload (JSON)" in text

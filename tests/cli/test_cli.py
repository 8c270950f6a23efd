"""The CLI contract: --json objects with the documented keys; user errors print exactly one line
on stderr and exit 2 (never a traceback)."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from mlopt.cli import main

from conftest import tiny_dict

JSON_KEYS = {"status", "objective", "bound", "gap", "runtime_s", "feasible"}


def run_cli(capsys, *argv):
    capsys.readouterr()  # drop what fixtures printed
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def tiny_file(tmp_path):
    path = tmp_path / "w.json"
    code = main(["generate", "oasis", "--preset", "tiny", "--seed", "2", "-o", str(path)])
    assert code == 0
    return path


def test_generate_is_deterministic(tmp_path, capsys):
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    for p in (a, b):
        assert run_cli(capsys, "generate", "oasis", "--preset", "paper-fig5", "--seed", "7",
                       "-p", "n_jobs=6", "-o", str(p))[0] == 0
    assert a.read_text() == b.read_text()
    assert len(json.loads(a.read_text())["jobs"]) == 6


def test_solve_run_check_json(tmp_path, tiny_file, capsys):
    sched = tmp_path / "opt.json"
    code, out, _ = run_cli(capsys, "solve", str(tiny_file), "--json", "-o", str(sched))
    assert code == 0
    opt = json.loads(out)
    assert JSON_KEYS | {"solver"} <= set(opt)
    assert opt["status"] == "optimal" and opt["feasible"] is True
    assert opt["objective"] == pytest.approx(opt["bound"], rel=1e-6)

    code, out, _ = run_cli(capsys, "check", str(tiny_file), str(sched), "--json")
    assert code == 0
    assert json.loads(out)["objective"] == pytest.approx(opt["objective"])

    alg_sched = tmp_path / "oasis.json"
    code, out, _ = run_cli(capsys, "run", "oasis", str(tiny_file), "--json", "-o",
                           str(alg_sched))
    assert code == 0
    alg = json.loads(out)
    assert JSON_KEYS | {"algorithm"} <= set(alg)
    assert alg["feasible"] is True
    assert alg["objective"] <= opt["objective"] + 1e-6  # online never beats the optimum


def test_check_reports_infeasible_with_exit_1(tmp_path, tiny_file, capsys):
    sched = tmp_path / "s.json"
    run_cli(capsys, "run", "oasis", str(tiny_file), "-o", str(sched))
    data = json.loads(sched.read_text())
    if not data["rows"]:
        pytest.skip("OASiS admitted nothing on this instance")
    for row in data["rows"]:
        row[data["columns"].index("count")] *= 50  # blow every capacity
    sched.write_text(json.dumps(data))
    code, out, _ = run_cli(capsys, "check", str(tiny_file), str(sched), "--json")
    assert code == 1
    assert json.loads(out)["feasible"] is False


def _bad_workloads():
    d = tiny_dict()
    neg = json.loads(json.dumps(d))
    neg["servers"][0]["capacity"]["cpu"] = -4
    nan = json.dumps(d).replace('"minibatch_seconds": 10.0', '"minibatch_seconds": NaN', 1)
    late = json.loads(json.dumps(d))
    late["jobs"][1]["arrival"] = 9
    fat = json.loads(json.dumps(d))
    fat["jobs"][0]["worker_demand"]["memory_gb"] = 1000
    missing = json.loads(json.dumps(d))
    del missing["jobs"][0]["chunks"]
    return {
        "malformed": '{"schema_version": 1,,}',
        "missing field": json.dumps(missing),
        "negative capacity": json.dumps(neg),
        "NaN": nan,
        "arrival after T": json.dumps(late),
        "worker fits nowhere": json.dumps(fat),
    }


@pytest.mark.parametrize("case", sorted(_bad_workloads()))
def test_bad_workload_one_line_exit_2(tmp_path, capsys, case):
    path = tmp_path / "bad.json"
    path.write_text(_bad_workloads()[case])
    for argv in (["solve", str(path)], ["run", "oasis", str(path)]):
        code, out, err = run_cli(capsys, *argv)
        assert code == 2, case
        assert err.count("\n") == 1 and err.startswith("mlopt: error: ")
        assert str(path) in err
        assert "Traceback" not in err


@pytest.mark.parametrize("argv,needle", [
    (["generate", "oasis", "--preset", "nope", "-o", "x.json"], "preset"),
    (["generate", "papers", "-o", "x.json"], "family"),
    (["generate", "oasis", "-p", "n_jobs=-3", "-o", "x.json"], "n_jobs"),
    (["solve", "TINY", "--solver", "cplex"], "solver"),
    (["run", "magic", "TINY"], "algorithm"),
    (["solve"], "arguments"),
    (["frobnicate"], "invalid choice"),
    (["instances", "show", "nope"], "instance set"),
    (["export", "TINY", "--model", "nope", "-o", "x.mps"], "model"),
])
def test_user_errors_one_line_exit_2(tmp_path, capsys, tiny_file, argv, needle):
    argv = [str(tiny_file) if a == "TINY" else a for a in argv]
    argv = [str(tmp_path / a) if a.endswith((".json", ".mps")) and a != str(tiny_file) else a
            for a in argv]
    code, out, err = run_cli(capsys, *argv)
    assert code == 2
    assert err.count("\n") == 1 and needle in err


def test_console_script_exit_code(tmp_path):
    """The installed entry point returns the exit code and prints no traceback."""
    proc = subprocess.run([sys.executable, "-m", "mlopt", "run", "oasis",
                           str(tmp_path / "missing.json")], capture_output=True, text=True)
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "cannot read" in proc.stderr


def test_quickstart_runs_the_quick_spec_with_every_schedule_checked(tmp_path, capsys):
    spec = tmp_path / "quick_oasis.toml"
    from mlopt.cli.quickstart import SPECS_DIR

    # the packaged spec, cut to two instances to keep the suite fast
    spec.write_text((SPECS_DIR / "quick_oasis.toml").read_text().replace("count = 8", "count = 2"))
    code, out, _ = run_cli(capsys, "quickstart", "--spec", str(spec), "-o",
                           str(tmp_path / "out"), "--workers", "0")
    assert code == 0
    assert "paper-fig5#1" in out and "()#" not in out
    assert out.count("optimal (verified)") == 2  # every optimum re-solved by a second solver
    for alg in ("oasis", "fifo", "drf", "rrh", "dorm"):
        assert f"`{alg}` | 2 | 2/2 |" in out  # two runs, both checked feasible
    assert (tmp_path / "out" / "report.md").is_file()


def test_quickstart_runs_every_packaged_quick_spec(tmp_path, capsys, monkeypatch):
    """Without --spec the quickstart runs one spec per family (each validated first), each into
    its own directory, in name order (quick_<family>.toml: no family comes first)."""
    from mlopt.cli import quickstart
    from mlopt.harness import load_spec

    specs = quickstart.quick_specs()
    assert [s.name for s in specs] == sorted(s.name for s in specs)
    assert all(s.stem == f"quick_{load_spec(s).family}" for s in specs)
    families = [load_spec(s).family for s in specs]
    assert len(set(families)) == len(families)  # one quick spec per family
    # run two copies of a cut-down OASiS spec through the multi-spec path
    for name in ("quick_a", "quick_b"):
        text = (quickstart.SPECS_DIR / "quick_oasis.toml").read_text().replace("count = 8",
                                                                               "count = 1")
        (tmp_path / f"{name}.toml").write_text(text.replace('name = "quick_oasis"',
                                                            f'name = "{name}"'))
    monkeypatch.setattr(quickstart, "SPECS_DIR", tmp_path)
    code, out, _ = run_cli(capsys, "quickstart", "-o", str(tmp_path / "out"), "--workers", "0")
    assert code == 0
    assert out.index("=== oasis: quick_a.toml") < out.index("=== oasis: quick_b.toml")
    assert (tmp_path / "out" / "quick_a" / "report.md").is_file()
    assert (tmp_path / "out" / "quick_b" / "report.md").is_file()


def test_bench_run_and_report(tmp_path, capsys):
    spec = tmp_path / "s.toml"
    spec.write_text('family = "oasis"\n[[instances]]\npreset = "tiny"\nseeds = [0, 1]\n'
                    '[[algorithms]]\nname = "oasis"\n[offline]\nmethod = "exact"\n')
    out = tmp_path / "res"
    code, text, _ = run_cli(capsys, "bench", "run", str(spec), "-o", str(out), "--workers", "0")
    assert code == 0 and "2 tasks run" in text
    code, text, _ = run_cli(capsys, "bench", "run", str(spec), "-o", str(out), "--workers", "0",
                            "--resume")
    assert code == 0 and "2 resumed" in text
    code, text, _ = run_cli(capsys, "bench", "report", str(out), "--csv", str(tmp_path / "r.csv"))
    assert code == 0 and "`oasis` | 2 | 2/2" in text
    assert (tmp_path / "r.csv").read_text().count("\n") >= 5


@pytest.mark.parametrize("body,needle", [
    ('family = "nope"\n', "family"),
    ('family = "oasis"\n[[instances]]\npreset = "tiny"\nseeds = []\n', "seeds"),
    ('family = "oasis"\n[[instances]]\npreset = "tiny"\nseeds = [0]\n[[algorithms]]\n'
     'name = "magic"\n', "magic"),
    ('family = "oasis"\n[[instances]]\npreset = "tiny"\nseeds = [0]\n[solver]\nname = "cplex"\n',
     "cplex"),
    ('family = = "oasis"\n', "TOML"),
])
def test_bad_specs_one_line_exit_2(tmp_path, capsys, body, needle):
    spec = tmp_path / "bad.toml"
    spec.write_text(body)
    code, _, err = run_cli(capsys, "bench", "run", str(spec), "-o", str(tmp_path / "o"))
    assert code == 2
    assert err.count("\n") == 1 and needle in err and str(spec) in err


def test_instances_from_csv_with_datetime_arrivals(tmp_path, capsys):
    from conftest import DATA

    out = tmp_path / "w.json"
    args = ["instances", "from-csv", str(DATA / "philly_sample.csv"), "--family", "oasis",
            "--map",
            "arrival=timestamp,gpus=num_gpus,duration=duration", "-p", "n_jobs=10", "-o", str(out)]
    code, _, err = run_cli(capsys, *args)
    assert code == 2 and "no usable rows (150 read; skipped: not_a_number 150)" in err
    code, _, err = run_cli(capsys, *args, "--arrival-unit", "datetime")
    assert code == 0 and "kept 150, skipped 0" in err
    assert len(json.loads(out.read_text())["jobs"]) == 10
    code, _, err = run_cli(capsys, *args, "--map", "arrival=timestamp,gpus=nope,duration=duration")
    assert code == 2 and "nope" in err


@pytest.fixture
def edgecloud_tiny(tmp_path):
    path = tmp_path / "e.json"
    assert main(["generate", "edgecloud", "--preset", "tiny", "--seed", "0", "-o", str(path)]) == 0
    return path


def test_solve_model_options_reach_the_estimate_and_the_build(edgecloud_tiny, capsys):
    """``--model-option tight=false`` builds ``jct_step`` without its tight rows: the same
    optimum (the rows only cut fractional points), a smaller model (the exact size estimate
    counts the rows, so a dropped option would show here), the options in the JSON."""
    code, out, _ = run_cli(capsys, "solve", str(edgecloud_tiny), "--json")
    default = json.loads(out)
    code2, out2, _ = run_cli(capsys, "solve", str(edgecloud_tiny), "--json",
                             "--model-option", "tight=false")
    loose = json.loads(out2)
    assert code == code2 == 0 and default["status"] == loose["status"] == "optimal"
    assert loose["objective"] == default["objective"]
    assert loose["model_options"] == {"tight": False} and default["model_options"] == {}
    assert loose["estimate"]["rows"] < default["estimate"]["rows"]


@pytest.mark.parametrize("argv, needle", [
    (["--model-option", "tight=3"], "field '--model-option tight', value 3"),
    (["--model-option", "tite=true"], "field '--model-option tite'"),
    (["--model", "jct_milp", "--model-option", "tight=true"], "unknown option of model 'jct_milp'"),
    (["--model-option", "tight"], "--model-option"),
])
def test_solve_bad_model_options_one_line_exit_2(edgecloud_tiny, capsys, argv, needle):
    code, _, err = run_cli(capsys, "solve", str(edgecloud_tiny), *argv)
    assert code == 2 and len(err.strip().splitlines()) == 1 and needle in err

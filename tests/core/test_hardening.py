"""Inputs that cannot crash or fool mlopt (issue 8, section 3): one test per failure class found
by feeding mutated workloads, schedules, specs and CSV files to the CLI.

Every bad input must end in exit status 2 with exactly one line on stderr that names the file,
the field and the value, and never a traceback; absurd sizes are rejected by the documented
limits (:mod:`mlopt.limits`) before anything hangs or allocates."""
from __future__ import annotations

import copy
import json
import time

import pytest

from mlopt import limits
from mlopt.cli import main


def run_cli(capsys, *argv):
    capsys.readouterr()
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def expect_error(capsys, argv, *words):
    """Exit 2, one line on stderr containing every word, no traceback."""
    code, out, err = run_cli(capsys, *argv)
    assert code == 2, (code, out, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    for w in words:
        assert str(w) in lines[0], (w, lines[0])
    return lines[0]


@pytest.fixture
def files(tmp_path, capsys):
    """A valid workload (tiny preset) and OASiS's checked, feasible schedule for it."""
    w, s = tmp_path / "w.json", tmp_path / "s.json"
    assert main(["generate", "oasis", "--preset", "tiny", "--seed", "2", "-o", str(w)]) == 0
    assert main(["run", "oasis", str(w), "-o", str(s)]) == 0
    capsys.readouterr()
    return tmp_path, json.loads(w.read_text()), json.loads(s.read_text())


def write(path, obj):
    path.write_text(json.dumps(obj))
    return path


# ---- tracebacks instead of the one-line error ----------------------------------------------------
def test_not_utf8(tmp_path, files, capsys):
    d, _, s = files
    bad = d / "bad.json"
    bad.write_bytes(b'{"schema_version": 1, "name": "\xff\xfe"}')
    expect_error(capsys, ["check", bad, d / "s.json"], "bad.json", "not UTF-8", "offset 31")
    expect_error(capsys, ["check", d / "w.json", bad], "bad.json", "not UTF-8")


def test_json_nested_100000_deep(files, capsys):
    d, _, _ = files
    deep = d / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    expect_error(capsys, ["check", deep, d / "s.json"], "deep.json", "nested too deeply")
    expect_error(capsys, ["check", d / "w.json", deep], "deep.json", "nested too deeply")
    # free-form data nested within what Python can parse is capped too
    w = copy.deepcopy(files[1])
    nest: list = []
    for _ in range(limits.MAX_DEPTH + 5):
        nest = [nest]
    w["jobs"][0]["extra"]["deep"] = nest
    expect_error(capsys, ["check", write(d / "x.json", w), d / "s.json"], "x.json",
                 "jobs[0].extra", "nested more than")


@pytest.mark.parametrize("path,value,field", [
    (["jobs", 0, "utility", "kind"], ["sigmoid"], "jobs[0].utility.kind"),
    (["jobs", 0, "utility", "kind"], {"a": 1}, "jobs[0].utility.kind"),
    (["meta", "family"], ["oasis"], "meta.family"),
    (["meta", "family"], {"x": 1}, "meta.family"),
    (["name"], ["w"], "name"),
    (["servers", 0, "id"], [1], "servers[0].id"),
    (["resources", 0], {"r": 1}, "resources[0]"),
])
def test_container_where_a_string_is_expected(files, capsys, path, value, field):
    d, w, _ = files
    obj = w
    for k in path[:-1]:
        obj = obj[k]
    obj[path[-1]] = value
    expect_error(capsys, ["check", write(d / "x.json", w), d / "s.json"], "x.json", field)


@pytest.mark.parametrize("meta", [None, "text", [1, 2], 3])
def test_schedule_meta_not_an_object(files, capsys, meta):
    d, _, s = files
    s["meta"] = meta
    expect_error(capsys, ["check", d / "w.json", write(d / "x.json", s)], "x.json", "'meta'",
                 "must be an object")


@pytest.mark.parametrize("field", ["epochs", "chunks", "minibatches", "minibatch_seconds",
                                   "gradient_mb", "worker_demand.gpu", "ps_demand.cpu",
                                   "worker_demand.bandwidth_gbps"])
@pytest.mark.parametrize("value", [2**70, 1e308, 2**64 + 1])
def test_numbers_beyond_64_bits_or_1e308(files, capsys, field, value):
    d, w, _ = files
    obj = w["jobs"][0]
    *head, last = field.split(".")
    for k in head:
        obj = obj[k]
    obj[last] = value
    line = expect_error(capsys, ["check", write(d / "x.json", w), d / "s.json"], "x.json",
                        f"jobs[0].{field}")
    assert "limit" in line or "too large" in line


@pytest.mark.parametrize("slot", [2**70, 2**63, 1e308, limits.MAX_HORIZON + 1])
def test_schedule_slot_beyond_limits(files, capsys, slot):
    d, _, s = files
    s["rows"][0][s["columns"].index("slot")] = slot
    expect_error(capsys, ["check", d / "w.json", write(d / "x.json", s)], "x.json",
                 "rows[0].slot")


# ---- hangs and unbounded memory ------------------------------------------------------------------
@pytest.mark.parametrize("horizon", [1e308, 1e9, 10**9, limits.MAX_HORIZON + 1])
@pytest.mark.parametrize("command", ["check", "solve", "run drf", "run oasis"])
def test_absurd_horizon_is_rejected_fast(files, capsys, horizon, command):
    d, w, _ = files
    w["horizon"] = horizon
    path = write(d / "x.json", w)
    argv = {"check": ["check", path, d / "s.json"], "solve": ["solve", path],
            "run drf": ["run", "drf", path], "run oasis": ["run", "oasis", path]}[command]
    t0 = time.perf_counter()
    expect_error(capsys, argv, "x.json", "'horizon'", "limit")
    assert time.perf_counter() - t0 < 5


@pytest.mark.parametrize("what,limit", [("jobs", limits.MAX_JOBS), ("servers", limits.MAX_SERVERS)])
def test_counts_beyond_limits(files, capsys, what, limit):
    d, w, _ = files
    w[what] = [0] * (limit + 1)  # rejected by count before any item is looked at
    expect_error(capsys, ["check", write(d / "x.json", w), d / "s.json"], "x.json",
                 f"'{what}'", "items")


def test_slots_times_servers_cap(files, capsys):
    """Each count within its limit, their product (dense tables) beyond MAX_CELLS."""
    d, w, _ = files
    w["horizon"] = limits.MAX_HORIZON
    n = limits.MAX_CELLS // (limits.MAX_HORIZON * len(w["resources"])) + 1
    w["servers"] = [dict(w["servers"][k % 2], id=f"s{k}") for k in range(n)]
    expect_error(capsys, ["check", write(d / "x.json", w), d / "s.json"], "x.json",
                 "'horizon'", "servers x resources")
    spec = d / "big.toml"
    spec.write_text('family = "oasis"\n[[instances]]\npreset = "tiny"\nseeds = [0]\n'
                    f'params = {{ horizon = {limits.MAX_HORIZON}, n_worker_servers = {n}, '
                    'arrival_window = 1 }\n[[algorithms]]\nname = "fifo"\n[offline]\n'
                    'method = "none"\n')
    expect_error(capsys, ["bench", "run", spec, "-o", d / "o"], "big.toml",
                 "instances[0].params.horizon", "servers x resources")


def test_file_size_cap(files, capsys, monkeypatch):
    d, _, _ = files
    monkeypatch.setattr(limits, "MAX_JSON_BYTES", 100)
    import mlopt.fileio as fio

    monkeypatch.setattr(fio.load_json, "__defaults__", (100,))
    expect_error(capsys, ["check", d / "w.json", d / "s.json"], "w.json", "file too large")


# ---- nonsense accepted silently ------------------------------------------------------------------
@pytest.mark.parametrize("path,value,field", [
    (["jobs", 0, "epochs"], "5", "jobs[0].epochs"),
    (["jobs", 0, "epochs"], True, "jobs[0].epochs"),
    (["jobs", 0, "minibatch_seconds"], "0.5", "jobs[0].minibatch_seconds"),
    (["jobs", 0, "worker_demand", "gpu"], False, "jobs[0].worker_demand.gpu"),
    (["horizon"], "3", "horizon"),
    (["slot_seconds"], True, "slot_seconds"),
    (["jobs", 0, "utility", "gamma1"], "5", "jobs[0].utility.gamma1"),
    (["jobs", 0, "utility", "gamma2"], True, "jobs[0].utility.gamma2"),
    (["jobs", 0, "id"], None, "jobs[0].id"),
    (["jobs", 0, "id"], ["j1"], "jobs[0].id"),
    (["jobs", 0, "id"], 7, "jobs[0].id"),
    (["servers", 0, "id"], None, "servers[0].id"),
    (["jobs", 0, "arrival"], 1.5, "jobs[0].arrival"),
])
def test_wrong_types_are_not_converted(files, capsys, path, value, field):
    d, w, _ = files
    obj = w
    for k in path[:-1]:
        obj = obj[k]
    obj[path[-1]] = value
    expect_error(capsys, ["check", write(d / "x.json", w), d / "s.json"], "x.json", field)


@pytest.mark.parametrize("column,value", [("slot", 2.5), ("slot", "2"), ("slot", True),
                                          ("count", "3"), ("count", None), ("count", [1]),
                                          ("job", None), ("job", ["a"]), ("server", 3)])
def test_schedule_values_are_not_converted(files, capsys, column, value):
    d, _, s = files
    s["rows"][0][s["columns"].index(column)] = value
    expect_error(capsys, ["check", d / "w.json", write(d / "x.json", s)], "x.json",
                 f"rows[0].{column}")


@pytest.mark.parametrize("admitted", [[None], [["a"]], "j001", [1]])
def test_schedule_admitted_ids_are_strings(files, capsys, admitted):
    d, _, s = files
    s["admitted"] = admitted
    expect_error(capsys, ["check", d / "w.json", write(d / "x.json", s)], "x.json", "admitted")


def test_integral_floats_are_still_integers(files, capsys):
    """3.0 is an integer written by another tool; only fractional values are refused."""
    d, w, s = files
    w["jobs"][0]["epochs"] = float(w["jobs"][0]["epochs"])
    s["rows"][0][s["columns"].index("slot")] = float(s["rows"][0][s["columns"].index("slot")])
    code, out, err = run_cli(capsys, "check", write(d / "x.json", w), write(d / "y.json", s))
    assert code == 0, err


@pytest.mark.parametrize("where", ["top", "job", "server", "utility", "schedule"])
def test_unknown_keys_are_named(files, capsys, where):
    d, w, s = files
    if where == "schedule":
        s["admited"] = []
        line = expect_error(capsys, ["check", d / "w.json", write(d / "x.json", s)], "x.json",
                            "admited", "unknown key")
        assert "admitted" in line  # the allowed keys are listed
        return
    target = {"top": w, "job": w["jobs"][0], "server": w["servers"][0],
              "utility": w["jobs"][0]["utility"]}[where]
    target["epoch"] = 1
    expect_error(capsys, ["check", write(d / "x.json", w), d / "s.json"], "x.json", "epoch",
                 "unknown key")


def test_extra_dicts_stay_free_form(files, capsys):
    """Family-specific fields live in Job.extra / Workload.extra: any keys, any JSON values."""
    d, w, s = files
    w["jobs"][0]["extra"] = {"worker_type": "v100", "deadline": 7, "nested": {"a": [1, 2.5]}}
    w["extra"] = {"worker_types": {"v100": {"speed": 1.5}}, "delays": [[0, 1], [1, 0]]}
    path = write(d / "x.json", w)
    code, out, err = run_cli(capsys, "check", path, d / "s.json", "--json")
    assert code == 0, err
    from mlopt.workload import Workload

    loaded = Workload.load(path)
    assert loaded.jobs[0].extra["nested"] == {"a": [1, 2.5]}
    assert loaded.extra["delays"] == [[0, 1], [1, 0]]


# ---- orphans -------------------------------------------------------------------------------------
ORPHAN_SPEC = """name = "slow"
family = "harness_toy_max"
[[instances]]
preset = "small"
seeds = { start = 0, count = 4 }
params = { n_jobs = 5 }
[[algorithms]]
name = "greedy"
options = { sleep_s = 60.0 }
[offline]
method = "none"
"""
ORPHAN_RUNNER = """
import sys
import test_harness_toyfamily
test_harness_toyfamily.register()
from mlopt.cli import main
if __name__ == "__main__":
    sys.exit(main(["bench", "run", sys.argv[1], "-o", sys.argv[2], "--workers", "2"]))
"""
LIFELINE_PARENT = """
import subprocess, sys, time
from mlopt.lifeline import child_env
child = subprocess.Popen([sys.executable, "-c", sys.argv[1]], env=child_env())
print(child.pid, flush=True)
time.sleep(120)
"""
# busy in a loop that never reads stdin (like a CP-SAT worker mid-solve): only the lifeline
# (polling, no PDEATHSIG, as the CP-SAT worker uses it) can end it
LIFELINE_CHILD = """
import time
from mlopt.lifeline import watch_parent
watch_parent(interval=0.2, pdeathsig=False)
end = time.monotonic() + 120
while time.monotonic() < end:
    time.sleep(0.05)
"""


def _group(pgid: int) -> dict[int, int]:
    """pid -> ppid of the live (non-zombie) processes in process group ``pgid``."""
    import os

    out = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        state, ppid, group = fields[0], int(fields[1]), int(fields[2])
        if group == pgid and state not in ("Z", "X"):
            out[int(entry)] = ppid
    return out


@pytest.mark.skipif(not __import__("os").path.exists("/proc/self/stat"), reason="needs /proc")
def test_workers_die_with_a_killed_parent(tmp_path):
    """SIGKILL of `bench run`'s process (only it) ends its pool workers, mid-task."""
    import os
    import signal
    import subprocess
    import sys
    from pathlib import Path

    here = Path(__file__).resolve().parents[1] / "harness"  # test_harness_toyfamily
    spec = tmp_path / "slow.toml"
    spec.write_text(ORPHAN_SPEC)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(here), os.environ.get("PYTHONPATH",
                                                                                  "")]))
    proc = subprocess.Popen([sys.executable, "-c", ORPHAN_RUNNER, str(spec), str(tmp_path / "o")],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    try:
        end = time.monotonic() + 60
        while time.monotonic() < end:  # wait for the workers: grandchildren of the runner
            group = _group(proc.pid)
            helpers = {pid for pid, ppid in group.items() if ppid == proc.pid}
            workers = [pid for pid, ppid in group.items() if ppid in helpers]
            if len(workers) >= 2:
                break
            time.sleep(0.1)
        assert len(workers) >= 2, group
        time.sleep(1.0)  # the workers are inside their 60 s tasks
        os.kill(proc.pid, signal.SIGKILL)  # the parent only, not the group
        proc.wait(timeout=10)
        end = time.monotonic() + 15
        while time.monotonic() < end and _group(proc.pid):
            time.sleep(0.1)
        assert not _group(proc.pid), f"orphans: {_group(proc.pid)}"
    finally:
        if _group(proc.pid):
            os.killpg(proc.pid, signal.SIGKILL)


# ---- same seed, same bytes -----------------------------------------------------------------------
def _probe_runs():
    from mlopt.families import all_families

    for fam in all_families().values():
        for alg in sorted(fam.algorithms):
            if fam.probe_preset_of(alg) in fam.presets:
                yield fam.name, alg


@pytest.mark.parametrize("family,algorithm", list(_probe_runs()))
def test_same_run_writes_the_same_bytes(tmp_path, capsys, family, algorithm):
    """No wall-clock time (or anything else run-dependent) in a schedule file: timings stay in
    Schedule.timing, in memory.  Each algorithm runs on its family's probe preset, or on the
    preset the family declares for it (``algorithm_presets``: e.g. hetero's ``a_online_ra`` needs
    a Ring-AllReduce workload); it must run there."""
    from mlopt.families import get_family

    fam = get_family(family)
    w = tmp_path / "w.json"
    preset = fam.probe_preset_of(algorithm)
    assert main(["generate", family, "--preset", preset, "--seed", "1", "-o", str(w)]) == 0
    outs = []
    for k in range(2):
        out = tmp_path / f"s{k}.json"
        code = main(["run", algorithm, str(w), "--family", family, "-o", str(out)])
        assert code in (0, 1)
        outs.append(out.read_bytes())
    assert outs[0] == outs[1]


def test_algorithm_presets_name_real_presets():
    """A declared probe preset exists, so no algorithm silently drops out of the runs above."""
    from mlopt.families import all_families

    for fam in all_families().values():
        for alg, preset in fam.algorithm_presets.items():
            assert alg in fam.algorithms and preset in fam.presets, (fam.name, alg, preset)


def test_solver_schedule_same_bytes(files, capsys):
    d, _, _ = files
    a, b = d / "a.json", d / "b.json"
    assert main(["solve", str(d / "w.json"), "-o", str(a)]) == 0
    assert main(["solve", str(d / "w.json"), "-o", str(b)]) == 0
    assert a.read_bytes() == b.read_bytes()


# ---- an infeasible schedule's objective must not look valid --------------------------------------
def test_unfinished_job_gets_no_objective(files, capsys):
    """Drop the last slot of one job: the job is unfinished, the schedule infeasible; `check`
    reports objective null and the checker's recomputation only as partial_objective."""
    d, _, s = files
    job_col, slot_col = s["columns"].index("job"), s["columns"].index("slot")
    job = s["rows"][0][job_col]
    last = max(r[slot_col] for r in s["rows"] if r[job_col] == job)
    s["rows"] = [r for r in s["rows"] if not (r[job_col] == job and r[slot_col] == last)]
    code, out, err = run_cli(capsys, "check", d / "w.json", write(d / "x.json", s), "--json")
    assert code == 1, err
    res = json.loads(out)
    assert res["feasible"] is False and res["status"] == "infeasible"
    assert res["objective"] is None
    assert isinstance(res["partial_objective"], float)
    code, out, _ = run_cli(capsys, "check", d / "w.json", d / "x.json")
    assert "no objective" in out


def test_offline_status_error_when_checker_disagrees(monkeypatch):
    """A solver objective the checker does not reproduce is never 'optimal'."""
    from mlopt import pipeline
    from mlopt.families import get_family
    from mlopt.solve import Status

    w = get_family("oasis").preset("tiny")(seed=2)
    real = pipeline.solve

    def inflated(*args, **kwargs):
        res = real(*args, **kwargs)
        res.objective = res.objective + 1.0  # the model claims more than the schedule gives
        return res

    monkeypatch.setattr(pipeline, "solve", inflated)
    off = pipeline.solve_offline(w)
    assert off.solve.status == Status.ERROR
    assert "differs" in off.solve.message


# ---- specs validated when loaded -----------------------------------------------------------------
SPEC = """family = "oasis"
[[instances]]
preset = "paper-fig5"
seeds = [0]
{instances}
[[algorithms]]
name = "oasis"
{options}
[offline]
method = "none"
{solver}
"""


@pytest.mark.parametrize("instances,options,solver,field,words", [
    ("params = { n_jobs = -1 }", "", "", "instances[0].params.n_jobs", "-1"),
    ("params = { n_jobs = 0 }", "", "", "instances[0].params.n_jobs", ">= 1"),
    ('params = { horizon = "x" }', "", "", "instances[0].params.horizon", "'x'"),
    ("params = { horizon = 1e9 }", "", "", "instances[0].params.horizon", "integer"),
    ("params = { horizon = 1000000000 }", "", "", "instances[0].params.horizon", "<= 100000"),
    ("[instances.grid]\nn_jobz = [1, 2]", "", "", "instances[0].grid.n_jobz",
     "unknown name"),
    ("[instances.grid]\nn_jobs = [5, -3]", "", "", "instances[0].grid.n_jobs", "-3"),
    ("", 'options = { price_mode = "bogus" }', "", "algorithms[0].options.price_mode",
     "bogus"),
    ("", 'options = { pricemode = "oracle" }', "", "algorithms[0].options.pricemode",
     "price_mode"),
    ("", "options = { estimate_factor = -1 }", "", "algorithms[0].options.estimate_factor", ""),
    ("", "", '[solver]\noptions = { presolv = "off" }', "solver.options.presolv",
     "presolve"),
    ("", "", "[solver]\noptions = { random_seed = 2.5 }", "solver.options.random_seed", "int"),
])
def test_spec_errors_before_anything_runs(tmp_path, capsys, instances, options, solver, field,
                                          words):
    text = SPEC.format(instances=instances, options=options, solver=solver)
    if "solver.options" in field:  # solver options are checked where a solver will run
        text = text.replace('method = "none"', 'method = "exact"')
    spec = tmp_path / "bad.toml"
    spec.write_text(text)
    out = tmp_path / "out"
    expect_error(capsys, ["bench", "run", spec, "-o", out], "bad.toml", field, words)
    assert not (out / "results.sqlite").exists()  # nothing ran


def test_unknown_solver_option_rejected_in_api():
    from mlopt.errors import InputError
    from mlopt.families import get_family
    from mlopt.models.oasis import build_utility_ilp
    from mlopt.solve import solve

    m = build_utility_ilp(get_family("oasis").preset("tiny")(seed=0))
    with pytest.raises(InputError, match="options.presolv"):
        solve(m, "highs", options={"presolv": "off"})


@pytest.mark.parametrize("solver,options,field", [
    ("scip", {"limits/tme": 1}, "limits/tme"), ("cpsat", {"random_sed": 1}, "random_sed")])
def test_unknown_option_per_backend(solver, options, field):
    from mlopt.errors import InputError
    from mlopt.solvers import get_backend

    try:
        backend = get_backend(solver)
    except InputError:
        pytest.skip(f"{solver} not installed")
    with pytest.raises(InputError) as info:
        backend.check_options(options)
    assert info.value.field == field


def test_spec_file_not_utf8_and_deep(tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_bytes(b'family = "\xff"\n')
    expect_error(capsys, ["bench", "run", bad, "-o", tmp_path / "o"], "bad.toml", "not UTF-8")
    bad.write_text("x = " + "[" * 5000 + "]" * 5000 + "\n")
    line = expect_error(capsys, ["bench", "run", bad, "-o", tmp_path / "o"], "bad.toml")
    assert "nested" in line or "TOML" in line


# ---- instances from-csv --------------------------------------------------------------------------
CSV = "submit,gpus,runtime\n0,1,3600\n100,2,1e308\n200,1,7200\n300,1e30,60\n"


def test_from_csv_too_large_values_are_counted_rows(tmp_path, capsys):
    src = tmp_path / "t.csv"
    src.write_text(CSV)
    out = tmp_path / "w.json"
    code, _, err = run_cli(capsys, "instances", "from-csv", src, "--family", "oasis", "--map",
                           "arrival=submit,gpus=gpus,duration=runtime", "-o", out)
    assert code == 0, err
    assert "too_large: 2" in err and "'1e308'" in err
    assert len(json.loads(out.read_text())["jobs"]) == 2


def test_from_csv_strict_names_file_row_column(tmp_path, capsys):
    src = tmp_path / "t.csv"
    src.write_text(CSV)
    expect_error(capsys, ["instances", "from-csv", src, "--family", "oasis", "--map",
                          "arrival=submit,gpus=gpus,duration=runtime", "--strict", "-o",
                          tmp_path / "w.json"], "t.csv", "line 3", "'runtime'", "1e308",
                 "too_large")


def test_from_csv_numbers_as_datetimes(tmp_path, capsys):
    src = tmp_path / "t.csv"
    src.write_text("submit,gpus,runtime\n1000,1,3600\n2000,2,60\n")
    expect_error(capsys, ["instances", "from-csv", src, "--family", "oasis", "--map",
                          "arrival=submit,gpus=gpus,duration=runtime", "--arrival-unit",
                          "datetime", "-o", tmp_path / "w.json"], "t.csv", "'submit'", "1000",
                 "--arrival-unit")
    # real timestamps still work
    src.write_text("submit,gpus,runtime\n2024-01-01 00:00:00,1,3600\n2024-01-01 01:00:00,2,60\n")
    code, _, err = run_cli(capsys, "instances", "from-csv", src, "--family", "oasis", "--map",
                           "arrival=submit,gpus=gpus,duration=runtime", "--arrival-unit",
                           "datetime", "-o", tmp_path / "w.json")
    assert code == 0, err


# ---- JSON Schemas --------------------------------------------------------------------------------
@pytest.mark.parametrize("fmt", ["workload", "schedule", "spec"])
def test_schema_command_prints_json_schema(capsys, fmt):
    code, out, _ = run_cli(capsys, "schema", fmt)
    assert code == 0
    schema = json.loads(out)
    assert schema["$schema"].endswith("2020-12/schema")
    assert schema["additionalProperties"] is False


def test_schemas_accept_mlopt_files_and_reject_mutations(files, capsys):
    jsonschema = pytest.importorskip("jsonschema")
    d, w, s = files
    from mlopt.formats import json_schema

    ws, ss = json_schema("workload"), json_schema("schedule")
    jsonschema.validate(w, ws)
    jsonschema.validate(s, ss)
    from pathlib import Path

    for inst in sorted((Path(__file__).resolve().parents[2] / "instances").glob("*/*.json"))[:20]:
        jsonschema.validate(json.loads(inst.read_text()), ws)
    bad = copy.deepcopy(w)
    bad["jobs"][0]["epochs"] = "5"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, ws)
    bad = copy.deepcopy(w)
    bad["horizon"] = limits.MAX_HORIZON + 1
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, ws)
    bad = copy.deepcopy(w)
    bad["jobs"][0]["utility"]["kind"] = "bogus"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, ws)


def test_packaged_specs_match_the_spec_schema():
    jsonschema = pytest.importorskip("jsonschema")
    from pathlib import Path

    from mlopt.fileio import load_toml
    from mlopt.formats import json_schema

    schema = json_schema("spec")
    root = Path(__file__).resolve().parents[2]
    checked = 0
    for spec in sorted(root.glob("mlopt/specs/*.toml")) + sorted(root.glob("benchmarks/*/*.toml")):
        data = load_toml(spec)
        if "solvers" not in data:  # experiment specs (not solver benchmarks)
            jsonschema.validate(data, schema)
            checked += 1
    assert checked >= 2


@pytest.mark.skipif(not __import__("os").path.exists("/proc/self/stat"), reason="needs /proc")
def test_lifeline_polling_ends_a_busy_child():
    """The mechanism the CP-SAT worker relies on (it may be started from a short-lived thread,
    so it cannot use PDEATHSIG): a busy child ends soon after its parent is SIGKILLed."""
    import os
    import signal
    import subprocess
    import sys

    from mlopt.lifeline import alive

    proc = subprocess.Popen([sys.executable, "-c", LIFELINE_PARENT, LIFELINE_CHILD],
                            stdout=subprocess.PIPE, text=True, start_new_session=True)
    try:
        child = int(proc.stdout.readline())
        time.sleep(0.5)  # the child may still be starting: it knows its parent's pid anyway
        assert alive(child)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
        end = time.monotonic() + 10
        while time.monotonic() < end and alive(child):
            time.sleep(0.1)
        assert not alive(child), "the child outlived its parent"
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        os.killpg(proc.pid, signal.SIGKILL) if _group(proc.pid) else None


def test_highs_options_the_verifier_sets_are_accepted_and_typed():
    """Every HiGHS setting of ``VERIFY_SETTINGS`` passes the option check (highspy 1.16's
    option record lacks ``mip_allow_restart``, which HiGHS has: a solve with the verifier's
    own settings was refused as "not a HiGHS option"); its type is still checked."""
    from mlopt.errors import InputError
    from mlopt.solve import VERIFY_SETTINGS
    from mlopt.solvers import get_backend

    backend = get_backend("highs")
    backend.check_options(VERIFY_SETTINGS["highs"])
    with pytest.raises(InputError) as info:
        backend.check_options({"mip_allow_restart": 1})
    assert info.value.field == "mip_allow_restart" and "bool" in info.value.message
    with pytest.raises(InputError) as info:
        backend.check_options({"mip_allow_restrt": False})
    assert info.value.field == "mip_allow_restrt"


def test_a_long_value_keeps_its_end():
    """A value longer than 80 characters is shortened in the middle: a path's file name (at
    its end) stays in the line.  Cut at the end, a long temporary folder once hid which
    schedule file an error was about."""
    from mlopt.errors import InputError

    path = "/tmp/" + "deep/" * 40 + "schedule.json"
    text = str(InputError("refused", field="--warm-start", value=path))
    assert "schedule.json" in text and "/tmp/" in text and "..." in text
    assert len(text) < 140, text
    short = str(InputError("refused", field="f", value="a.json"))
    assert short == "field 'f', value 'a.json': refused"

"""The edge-cloud family under the family contract: declared generator parameters and algorithm
options (every bad value one InputError, before anything runs), the speed of a check is the
caller's (never the schedule file's), and the holes found from outside stay closed."""
from __future__ import annotations

import inspect
import json
import subprocess
import sys
import time
import warnings

import pytest
from edgecloud_tiny import OPT, tiny_workload

from mlopt.errors import InputError
from mlopt.families import get_family
from mlopt.params import bad_values

FAM = get_family("edgecloud")


def cli(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "mlopt", *map(str, args)],
                          capture_output=True, text=True, timeout=300, cwd=cwd)


def one_line_error(out, *words):
    assert out.returncode == 2, (out.returncode, out.stderr)
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1, out.stderr  # no RuntimeWarning (or anything) before the error
    for w in words:
        assert w in lines[0], lines[0]


# ---- generator parameters ------------------------------------------------------------------
@pytest.mark.parametrize("preset", FAM.preset_names)
def test_every_bad_parameter_value_refused_fast(preset):
    schema = FAM.param_schema(preset)
    assert schema
    for name, param in schema.items():
        for bad in bad_values(param):
            t0 = time.perf_counter()
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                with pytest.raises(InputError):
                    FAM.generate(preset, 0, **{name: bad.value})
            assert time.perf_counter() - t0 < 2, (name, bad)


@pytest.mark.parametrize("preset", ["tiny", "paper-ratio", "paper-sim"])
def test_schema_defaults_are_the_presets_values(preset):
    """Passing every declared default explicitly gives the same workload bit for bit."""
    schema = FAM.param_schema(preset)
    explicit = {k: (list(p.default) if isinstance(p.default, tuple) else p.default)
                for k, p in schema.items()}
    a, b = FAM.generate(preset, 2), FAM.generate(preset, 2, **explicit)
    assert a.content_hash() == b.content_hash() and a.meta == b.meta


def test_parameters_a_preset_ignores_are_not_in_its_schema():
    """Trace parameters only in the trace preset; arrival_window not there (the trace sets
    the arrivals); chunk_gb_scale without storage_gb is refused, not ignored."""
    for preset in ("tiny", "paper-ratio", "paper-sim"):
        assert not {"trace", "trace_start", "trace_time_scale"} & set(FAM.param_schema(preset))
    traced = FAM.param_schema("trace-philly")
    assert "arrival_window" not in traced and "trace_start" in traced
    with pytest.raises(InputError, match="trace"):
        FAM.generate("tiny", 0, trace="philly")
    with pytest.raises(InputError, match="chunk_gb_scale"):
        FAM.generate("tiny", 0, chunk_gb_scale=2.0)
    w = FAM.generate("tiny", 0, chunk_gb_scale=2.0, storage_gb=[1.0, 2.0])
    assert all("chunk_gb" in j.extra for j in w.jobs)


@pytest.mark.parametrize("value", [2.0, 1e308, 2 ** 70, 0, -1, True, "3"])
def test_n_jobs_must_be_an_integer_in_range(value):
    """n_jobs=2.0 was accepted (a float job count), 1e308 an internal error (exit 3)."""
    with pytest.raises(InputError, match="n_jobs"):
        FAM.generate("tiny", 0, n_jobs=value)


def test_sizes_are_capped_jointly():
    """n_jobs x (n_edge + 1) upload delays are drawn and stored: capped, refused at once."""
    t0 = time.perf_counter()
    with pytest.raises(InputError, match="upload delays"):
        FAM.generate("tiny", 0, n_jobs=100_000, n_edge=100)
    assert time.perf_counter() - t0 < 1


def test_accepted_extremes_never_overflow():
    """Values inside the declared ranges that still make a workload beyond mlopt.limits (a
    horizon past MAX_HORIZON) are one InputError, with no numpy warning on the way."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(InputError, match="MAX_HORIZON"):
            FAM.generate("tiny", 0, epochs=[100_000, 100_000],
                         minibatch_hours=[1000.0, 1000.0])
        w = FAM.generate("tiny", 0, arrival_window=99_999.0, slot_seconds=1e12)
        assert w.horizon <= 100_000


@pytest.mark.parametrize("args,words", [
    (["-p", "n_jobs=2.0"], ["n_jobs", "integer"]),
    (["-p", "n_jobs=1e308"], ["n_jobs"]),
    (["-p", "n_edge=1e308"], ["n_edge"]),
    (["-p", "arrival_window=1e308"], ["arrival_window"]),
    (["--seed", "-1"], ["seed"]),
])
def test_cli_generate_bad_values_one_line(tmp_path, args, words):
    """n_edge=1e308 hung, arrival_window=1e308 printed a RuntimeWarning and a negative
    horizon, --seed -1 and n_jobs=1e308 were exit 3."""
    out = cli("generate", "edgecloud", "--preset", "tiny", *args, "-o", tmp_path / "w.json")
    one_line_error(out, *words)
    assert not (tmp_path / "w.json").exists()


# ---- algorithm options -----------------------------------------------------------------------
def test_every_algorithm_declares_its_options_with_the_functions_defaults():
    for name, rec in FAM.algorithms_.items():
        schema = FAM.option_schema(name)
        assert schema is not None, name
        params = inspect.signature(FAM.algorithm(name)).parameters
        assert not any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values())
        # the start_option keyword takes a Schedule from bracket, never a user option
        taken = {k for k in params if k not in ("workload", "seed", rec.start_option)}
        assert set(schema) == taken, name
        for k, p in schema.items():
            default = params[k].default
            assert (list(p.default) if isinstance(p.default, tuple) else p.default) == (
                list(default) if isinstance(default, tuple) else default), (name, k)


@pytest.mark.parametrize("name", sorted(FAM.algorithms_))
def test_every_bad_option_value_refused_before_the_run(name, monkeypatch):
    w = tiny_workload()
    for opt, param in FAM.option_schema(name).items():
        for bad in bad_values(param):
            with pytest.raises(InputError):
                FAM.run(name, w, seed=0, **{opt: bad.value})
    with pytest.raises(InputError, match="unknown"):
        FAM.run(name, w, seed=0, bogus=1)
    with pytest.raises(InputError, match="seed"):
        FAM.validate_options(name, {"seed": 1})


def test_tiresias_thresholds_must_increase():
    with pytest.raises(InputError, match="thresholds"):
        FAM.run("tiresias_l", tiny_workload(), thresholds=[100, 10])


@pytest.mark.parametrize("args,words", [
    (["a_online", "--option", "bogus=1"], ["bogus", "unknown"]),
    (["a_online", "--option", "eps=-1"], ["eps"]),
    (["a_online_e", "--option", "eps=1e308"], ["eps"]),
    (["batchsche", "--option", "interval=2.0"], ["interval"]),
    (["srtf", "--option", "x=1"], ["x"]),
])
def test_cli_run_bad_option_one_line(tmp_path, args, words):
    """Unknown option names were an internal error (exit 3)."""
    path = tmp_path / "w.json"
    tiny_workload().save(path)
    out = cli("run", args[0], path, "--family", "edgecloud", *args[1:])
    one_line_error(out, *words)


# ---- speed: the caller's, never the schedule file's --------------------------------------------
def test_check_options_follow_the_run_options():
    assert FAM.run_check_options("a_online", {}) == {"speed": 1.0}
    assert FAM.run_check_options("a_online_e", {"eps": 0.5}) == {"speed": 1.5}
    assert FAM.run_check_options("srtf", {}) == {}


def test_pipeline_checks_a_run_at_the_speed_it_was_run_at():
    from mlopt.pipeline import run_algorithm

    res = run_algorithm(tiny_workload(), "a_online", family="edgecloud", eps=3.0)
    assert res.check.feasible and res.check_options == {"speed": 4.0}
    assert res.to_dict()["check_options"] == {"speed": 4.0}
    assert not FAM.check(tiny_workload(), res.schedule).feasible  # at speed 1: short of work


def test_forged_speed_in_a_schedule_file_does_not_vouch_for_it(tmp_path):
    """The hole: a schedule saying ``meta.speed: 4`` with every chunk cut to a quarter of its
    slots printed "feasible, objective 3" on the hand instance whose optimum is 5."""
    w, s = tmp_path / "w.json", tmp_path / "s.json"
    tiny_workload().save(w)
    run = FAM.run("a_online", tiny_workload(), eps=3.0)
    run.meta.update(speed=4.0, eps=3.0, producer="mlopt.families.edgecloud.reference")
    run.save(s)
    assert json.loads(s.read_text())["meta"]["speed"] == 4.0
    out = cli("check", w, s)
    assert out.returncode == 1 and "infeasible" in out.stdout and "c2b_work_covered" in out.stdout
    forged = FAM.check(tiny_workload(), run, speed=4.0)
    assert forged.feasible and forged.objective < OPT  # why it must never pass unasked
    out = cli("check", w, s, "--speed", "4")
    assert out.returncode == 0, out.stderr
    assert "speed 4" in out.stdout and "not comparable with OPT" in out.stdout
    out = cli("check", w, s, "--speed", "4", "--json")
    d = json.loads(out.stdout)
    assert d["feasible"] and d["speed"] == 4.0


@pytest.mark.parametrize("speed", ["0.5", "nan", "inf", "1e308"])
def test_cli_check_bad_speed_one_line(tmp_path, speed):
    w, s = tmp_path / "w.json", tmp_path / "s.json"
    tiny_workload().save(w)
    FAM.run("srtf", tiny_workload()).save(s)
    one_line_error(cli("check", w, s, "--speed", speed), "speed")


def test_cli_check_speed_on_a_family_without_it(tmp_path):
    w, s = tmp_path / "w.json", tmp_path / "s.json"
    oasis = get_family("oasis")
    wl = oasis.generate("tiny", 0)
    wl.save(w)
    oasis.run(sorted(oasis.algorithms_)[0], wl).save(s)
    one_line_error(cli("check", w, s, "--speed", "2"), "speed", "oasis")


# ---- schedule files the checker must judge, not crash on ---------------------------------------
def _rows_file(tmp_path, mutate):
    w, s = tmp_path / "w.json", tmp_path / "s.json"
    tiny_workload().save(w)
    FAM.run("a_online", tiny_workload()).save(s)
    d = json.loads(s.read_text())
    mutate(d)
    s.write_text(json.dumps(d))
    return cli("check", w, s, "--json")


@pytest.mark.parametrize("what", ["worker_int", "chunk_str", "no_rows", "ghost"])
def test_cli_check_broken_schedule_files_are_violations(tmp_path, what):
    """``worker`` as an int, ``chunk`` as a str and no rows were exit 3; an unknown admitted
    id ("ghost") was "feasible"."""
    def mutate(d):
        wi, ci = d["columns"].index("worker"), d["columns"].index("chunk")
        if what == "worker_int":
            d["rows"][0][wi] = 7
        elif what == "chunk_str":
            d["rows"][0][ci] = "0"
        elif what == "no_rows":
            d["rows"] = []
        else:
            d["admitted"].append("ghost")
    out = _rows_file(tmp_path, mutate)
    assert out.returncode == 1, out.stderr
    assert not json.loads(out.stdout)["feasible"]


# ---- no jobs -------------------------------------------------------------------------------------
@pytest.mark.parametrize("command", ["check", "run", "solve"])
def test_empty_job_list_refused(tmp_path, command):
    """DECISION: a workload without jobs is refused by the fields validation (check and run
    were exit 3, solve said status error with exit 0)."""
    w, s = tmp_path / "w.json", tmp_path / "s.json"
    d = tiny_workload().to_dict()
    d["jobs"] = []
    w.write_text(json.dumps(d))
    s.write_text(json.dumps({"schema_version": 1, "admitted": [], "rows": [], "meta": {},
                             "columns": ["job", "slot", "server", "role", "count"]}))
    args = {"check": ["check", w, s], "run": ["run", "a_online", w],
            "solve": ["solve", w]}[command]
    one_line_error(cli(*args), "jobs", "at least one job")


# ---- sizes: refused by the fields validation, never laid out ---------------------------------
def _mutated(mutate):
    import copy

    from mlopt.workload import Workload

    d = copy.deepcopy(FAM.generate("tiny", 0).to_dict())
    mutate(d)
    return Workload.from_dict(json.loads(json.dumps(d)))


@pytest.mark.parametrize("what,mutate,words", [
    # one chunk of 1e304 slots: math.ceil(inf) / minutes of rows before
    ("slot_seconds", lambda d: d.update(slot_seconds=1e-300), "MAX_HORIZON"),
    ("bandwidth", lambda d: d["jobs"][0]["worker_demand"].update(bandwidth_gbps=1e-300),
     "MAX_HORIZON"),
    ("epochs", lambda d: d["jobs"][0].update(epochs=10 ** 6), "MAX_HORIZON"),
    # the job cannot finish by MAX_HORIZON even in the cloud
    ("delay", lambda d: d["jobs"][0]["extra"]["delay"].update(cloud=100_000), "MAX_HORIZON"),
    # 10^6 chunks: A_online ran for minutes (quadratic in D_j)
    ("chunks", lambda d: d["jobs"][0].update(chunks=10 ** 6), "chunks"),
    ("no_chunks", lambda d: d["jobs"][0].update(chunks=0), "chunks"),
])
def test_oversized_jobs_refused_at_validation(what, mutate, words):
    t0 = time.perf_counter()
    with pytest.raises(InputError, match=words):
        FAM.validate(_mutated(mutate))
    assert time.perf_counter() - t0 < 1


def test_oversized_model_refused_before_it_is_built():
    """10,000 workers on one server: the pinned MILP took ~10 s to build 240,000 cells."""
    from mlopt.models.edgecloud.common import MAX_MODEL_CELLS

    w = _mutated(lambda d: d["extra"]["edgecloud"]["servers"]["e0"].update(
        workers={"w0": 10_000}))
    FAM.validate(w)
    t0 = time.perf_counter()
    with pytest.raises(InputError, match="MAX_MODEL_CELLS"):
        FAM.model("jct_milp")(w)
    assert time.perf_counter() - t0 < 2
    FAM.model("flow_lb")(w)  # grouped per (server, type): one unit, a small model
    assert MAX_MODEL_CELLS >= 100_000  # the 250-job, 45-server flow bound (38,000) still builds

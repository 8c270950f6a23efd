"""OASiS under the family contract (issue 19): its own fields, trace conversion, declared
parameters and options, and the holes found from outside, each with the test that guards it."""
from __future__ import annotations

import inspect
import json
import time

import pytest
from fresh_python import assert_runs_fresh

from mlopt.cli import main
from mlopt.errors import InputError
from mlopt.families import get_family
from mlopt.families.oasis.fields import MAX_JOB_CELLS, validate_oasis
from mlopt.params import bad_values
from mlopt.workload import Workload

FAM = get_family("oasis")


def run_cli(capsys, *argv):
    capsys.readouterr()
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def tiny_file(tmp_path):
    path = tmp_path / "w.json"
    FAM.generate("tiny", seed=0).save(path)
    return path


def _mutated(path, tmp_path, edit, name="m.json"):
    d = json.loads(path.read_text())
    edit(d)
    out = tmp_path / name
    out.write_text(json.dumps(d))
    return out


# ---- the family's own parts ------------------------------------------------------------------
def test_oasis_registers_its_own_fields_trace_and_theory_modules():
    """OASiS is no longer the zeroth family: nothing of it lives in the shared modules."""
    assert FAM.fields == "mlopt.families.oasis.fields:validate_oasis"
    assert FAM.from_trace_ == "mlopt.families.oasis.trace:trace_to_workload"
    assert FAM.algorithms_["oasis"].diagnostics == "mlopt.families.oasis.theory:diagnostics"
    from mlopt.families.oasis import trace, theory  # noqa: F401

    assert FAM.from_trace is trace.trace_to_workload


def test_shared_trace_modules_load_no_family():
    code = ("import sys, mlopt.traces, mlopt.traces.alibaba, mlopt.traces.instances\n"
            "assert not [m for m in sys.modules if m.startswith('mlopt.families.')], "
            "[m for m in sys.modules if m.startswith('mlopt.families.')]\n"
            "from mlopt.traces import trace_to_workload\n"
            "from mlopt.families.oasis.trace import trace_to_workload as t\n"
            "assert trace_to_workload is t\n")
    assert_runs_fresh(code)


# ---- options (item 4) --------------------------------------------------------------------------
@pytest.mark.parametrize("alg", sorted(FAM.algorithms_))
def test_every_algorithm_declares_options_matching_its_signature(alg):
    schema = FAM.option_schema(alg)
    assert schema is not None
    params = inspect.signature(FAM.algorithm(alg)).parameters
    assert not any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values())
    start = FAM.algorithm_record(alg).start_option  # a Schedule from bracket, not an option
    taken = {n: p.default for n, p in params.items()
             if p.kind is inspect.Parameter.KEYWORD_ONLY and n not in ("seed", start)}
    assert set(schema) == set(taken)
    for name, param in schema.items():
        default = taken[name]
        assert (list(default) if isinstance(default, tuple) else default) == \
            (list(param.default) if isinstance(param.default, tuple) else param.default), name
        if param.default is not None:
            param.check(param.default, name)  # the default is inside the declared range
    assert params["seed"].default == 0


def test_run_oasis_takes_seed_like_every_algorithm():
    w = FAM.generate("tiny", seed=0)
    a = FAM.run("oasis", w, seed=0)
    b = FAM.run("oasis", w, seed=7)  # deterministic: the seed does not change the schedule
    assert a.to_dict() == b.to_dict()


@pytest.mark.parametrize("alg", ["oasis", "fifo", "drf", "rrh", "dorm"])
def test_cli_run_refuses_unknown_option_with_exit_2(capsys, tiny_file, alg):
    code, _, err = run_cli(capsys, "run", alg, tiny_file, "--option", "nonsense=1")
    assert code == 2 and "nonsense" in err and "Traceback" not in err


def test_cli_run_refuses_seed_option_with_exit_2(capsys, tiny_file):
    code, _, err = run_cli(capsys, "run", "oasis", tiny_file, "--option", "seed=0")
    assert code == 2 and "--seed" in err


@pytest.mark.parametrize("alg,name,value", [
    ("fifo", "workers", 10 ** 9), ("rrh", "worker_range", [1, 10 ** 9]),
    ("dorm", "time_limit", 1e9), ("oasis", "estimate_factor", 1e300)])
def test_huge_option_values_are_refused_before_running(alg, name, value):
    w = FAM.generate("tiny", seed=0)
    t0 = time.perf_counter()
    with pytest.raises(InputError, match=name):
        FAM.run(alg, w, **{name: value})
    assert time.perf_counter() - t0 < 5


def test_fixed_worker_counts_are_capped_in_the_python_api_too():
    from mlopt.families.oasis.baselines import run_fifo

    w = FAM.generate("tiny", seed=0)
    with pytest.raises(InputError, match="workers"):
        run_fifo(w, workers=10 ** 9)


# ---- generator parameters (item 5) ---------------------------------------------------------------
@pytest.mark.parametrize("preset", FAM.preset_names)
def test_every_preset_declares_its_parameters_with_its_own_defaults(preset):
    from mlopt.families.oasis import generator

    schema = FAM.param_schema(preset)
    assert set(schema) == set(generator.DEFAULTS)
    values = {**generator.DEFAULTS, **generator.PRESETS[preset]}
    for name, p in schema.items():
        v = values[name]
        assert p.default == (list(v) if isinstance(v, tuple) else v), name
        if v is not None:
            p.check(p.default, name)
    # passing every default explicitly is the preset itself
    explicit = {n: p.default for n, p in schema.items()}
    if values["n_servers"] is not None:  # one way of sizing the cluster at a time
        explicit.pop("n_worker_servers"), explicit.pop("n_ps_servers")
    else:
        explicit.pop("n_servers"), explicit.pop("worker_server_fraction")
    if values["worker_types"] is not None and values["ps_types"] is not None:
        explicit.pop("roles")
    if preset == "tiny":
        assert FAM.generate(preset, seed=1, **explicit).content_hash() == \
            FAM.generate(preset, seed=1).content_hash()


@pytest.mark.parametrize("preset", FAM.preset_names)
def test_every_bad_parameter_value_is_refused_fast(preset):
    for name, p in FAM.param_schema(preset).items():
        for bad in bad_values(p):
            t0 = time.perf_counter()
            with pytest.raises(InputError):
                FAM.generate(preset, seed=0, **{name: bad.value})
            assert time.perf_counter() - t0 < 2, (name, bad)


@pytest.mark.parametrize("value", [[], ["gpu-workers"], {"a": 1}, 3])
def test_roles_of_the_wrong_type_is_an_input_error(value):
    """roles=[] raised TypeError (unhashable) inside the generator: exit 3."""
    from mlopt.families.oasis.generator import generate

    with pytest.raises(InputError, match="roles"):
        FAM.generate("tiny", roles=value)
    with pytest.raises(InputError, match="roles"):
        generate("tiny", roles=value)  # the generator's own check, without the schema


def test_cli_generate_refuses_roles_list_and_huge_sizes(capsys, tmp_path):
    for kv in ("roles=[]", "n_jobs=100000000000", "chunks=[1,100000000000]"):
        code, _, err = run_cli(capsys, "generate", "oasis", "--preset", "tiny", "-p", kv,
                               "-o", tmp_path / "x.json")
        assert code == 2 and err.count("\n") == 1, (kv, err)


def test_arrival_rate_replaces_the_presets_window():
    """tiny sets arrival_window = 2: arrival_rate alone was refused ("give either ...")."""
    w = FAM.generate("tiny", seed=0, arrival_rate=3.0)
    assert w.meta["params"]["arrival_window"] == 1.0 and w.meta["arrival_rate"] == 3.0
    with pytest.raises(InputError, match="arrival_rate"):
        FAM.generate("tiny", seed=0, arrival_rate=3.0, arrival_window=1.0)


def test_a_parameter_without_effect_is_refused_not_ignored():
    """tiny sets both types lists, so roles changed nothing; worker_server_fraction without
    n_servers changed nothing either."""
    with pytest.raises(InputError, match="roles"):
        FAM.generate("tiny", seed=0, roles="paper-v-a")
    with pytest.raises(InputError, match="worker_server_fraction"):
        FAM.generate("tiny", seed=0, worker_server_fraction=0.3)
    a = FAM.generate("tiny", seed=0, roles="paper-v-a", worker_types=None, worker_gpu=[0, 0])
    assert a.content_hash() != FAM.generate("tiny", seed=0, worker_gpu=[0, 0]).content_hash()
    FAM.generate("tiny", seed=0, n_servers=4, worker_server_fraction=0.25)


def test_cross_parameter_checks_stay_in_check_params():
    for bad, field in (({"class_split": [0.5, 0.5, 0.5]}, "class_split"),
                       ({"arrival_window": 5.0}, "arrival_window"),
                       ({"arrival_window": 1.0, "arrival_rate": 1.0}, "arrival_rate"),
                       ({"n_servers": 4, "n_worker_servers": 2}, "n_servers")):
        with pytest.raises(InputError, match=field):
            FAM.validate_params("tiny", bad)


# ---- absurd sizes (item 6) -----------------------------------------------------------------------
def test_csv_row_with_a_billion_gpus_is_refused_at_import(capsys, tmp_path):
    """A CSV row with 1e9 GPUs became a job with N_i = 1e9 and `mlopt run` grew to ~20 GB."""
    csv = tmp_path / "big.csv"
    csv.write_text("a,g,d\n0,1,3600\n100,1000000000,7200\n200,2,1800\n")
    t0 = time.perf_counter()
    code, _, err = run_cli(capsys, "instances", "from-csv", csv, "--family", "oasis", "--map",
                           "arrival=a,gpus=g,duration=d", "-o", tmp_path / "w.json")
    assert code == 2 and "1,000,000,000 GPUs" in err and "gpus" in err
    assert time.perf_counter() - t0 < 30
    assert not (tmp_path / "w.json").exists()


@pytest.mark.parametrize("field,value", [("chunks", 10 ** 9), ("epochs", 10 ** 9)])
def test_workload_with_absurd_job_size_is_refused_before_any_work(capsys, tmp_path, tiny_file,
                                                                 field, value):
    def edit(d):
        d["jobs"][0][field] = value

    path = _mutated(tiny_file, tmp_path, edit)
    Workload.load(path)  # within the shared model's limits ...
    with pytest.raises(InputError, match=field):
        validate_oasis(Workload.load(path))  # ... but not OASiS's
    for argv in (("run", "oasis", path), ("run", "drf", path), ("solve", path)):
        t0 = time.perf_counter()
        code, _, err = run_cli(capsys, *argv)
        assert code == 2 and field in err, (argv, err)
        assert time.perf_counter() - t0 < 10


def test_size_limit_is_far_above_committed_instances():
    from mlopt.instances import list_sets, load_set

    for name in list_sets():
        iset = load_set(name)
        if iset.family != "oasis":
            continue
        for e in iset.entries:
            w = iset.load(e)
            validate_oasis(w)
            assert max(w.horizon * (j.chunks + 1) for j in w.jobs) < MAX_JOB_CELLS / 1000


def test_role_any_is_refused_by_the_fields(tmp_path, tiny_file):
    def edit(d):
        d["servers"][0]["role"] = "any"

    with pytest.raises(InputError, match="role 'any'"):
        validate_oasis(Workload.load(_mutated(tiny_file, tmp_path, edit)))


# ---- empty job list (item 7) ---------------------------------------------------------------------
def test_empty_job_list_is_refused_alike_by_solve_run_and_check(capsys, tmp_path, tiny_file):
    """`solve` said status `error` and exited 0 on an empty workload, run and check said 0."""
    schedule = tmp_path / "s.json"
    assert run_cli(capsys, "run", "oasis", tiny_file, "-o", schedule)[0] == 0

    def edit(d):
        d["jobs"] = []

    empty = _mutated(tiny_file, tmp_path, edit)
    empty_schedule = tmp_path / "es.json"
    empty_schedule.write_text(json.dumps({**json.loads(schedule.read_text()), "admitted": [],
                                          "rows": []}))
    for argv in (("solve", empty), ("run", "oasis", empty), ("run", "fifo", empty),
                 ("check", empty, empty_schedule)):
        code, _, err = run_cli(capsys, *argv)
        assert code == 2 and "at least one job" in err, (argv, err)


def test_utility_ilp_too_large_to_build_is_refused_at_once(tmp_path, tiny_file):
    """T = 100,000 is within the shared limits, but the rows of (8) have ~T^2/2 terms per job:
    building the model ran for minutes (the fuzz builds the default model of every input)."""
    def edit(d):
        d["horizon"] = 100_000

    w = Workload.load(_mutated(tiny_file, tmp_path, edit))
    t0 = time.perf_counter()
    with pytest.raises(InputError, match="too large to build"):
        FAM.model()(w)
    assert time.perf_counter() - t0 < 5


def test_unreachable_work_is_rejected_without_allocating_for_it(tmp_path, tiny_file):
    """With work_unit=worker_slot the DP kept rows over ceil(W_i) worker-slots: a job with
    W_i ~ 1.3e8 (minibatches = 1e9, within the limits) allocated ~2 GB and ran ~10 s although it
    can never finish in T = 3 slots."""
    def edit(d):
        d["jobs"][0]["minibatches"] = 10 ** 9
        d["jobs"][0]["utility"] = {"kind": "sigmoid", "gamma1": 1e12, "gamma2": 0.0,
                                   "gamma3": 1.0}

    w = Workload.load(_mutated(tiny_file, tmp_path, edit))
    job = w.jobs[0].id
    for unit in ("chunk", "worker_slot"):
        t0 = time.perf_counter()
        s = FAM.run("oasis", w, options={"work_unit": unit})
        assert time.perf_counter() - t0 < 3
        assert job not in s.admitted and FAM.check(w, s).feasible


def test_reference_subroutine_refuses_sizes_it_cannot_run(tmp_path, tiny_file):
    """subroutine=reference recursed once per slot (T up to 100,000: a C-stack overflow) and
    loops T D^2 / 2 times per job: refused up front, the fast subroutine runs the same DP."""
    w = FAM.generate("tiny", seed=0)
    ref, fast = FAM.run("oasis", w, options={"subroutine": "reference"}), FAM.run("oasis", w)
    assert ref.admitted == fast.admitted and ref.allocations.equals(fast.allocations)
    for field, value in (("horizon", 100_000), ("epochs", 5_000)):
        def edit(d, field=field, value=value):
            if field == "horizon":
                d["horizon"] = value
            else:
                d["jobs"][0][field] = value

        big = Workload.load(_mutated(tiny_file, tmp_path, edit, name=f"{field}.json"))
        t0 = time.perf_counter()
        with pytest.raises(InputError, match="subroutine=fast"):
            FAM.run("oasis", big, options={"subroutine": "reference"})
        assert time.perf_counter() - t0 < 5


def test_a_share_below_one_says_so_in_the_help_and_the_check(capsys, tmp_path):
    """worker_server_fraction was listed as "float in (0, 1]" while 1 was refused ("must be a
    number in (0, 1)"): the declaration now excludes 1 itself (high_open), in both."""
    from mlopt.params import Param

    p = FAM.param_schema("paper-fig5")["worker_server_fraction"]
    assert p.describe().startswith("float in (0, 1) ")
    for bad in (1, 1.0, 0):
        with pytest.raises(InputError, match=r"must be [<>] "):
            FAM.generate("paper-fig5", seed=0, worker_server_fraction=bad)
    FAM.generate("paper-fig5", seed=0, worker_server_fraction=0.75)
    share = Param.float(low=0.0, high=1.0, high_open=True)
    assert share.check(0.999, "x") == 0.999 and share.check(0.0, "x") == 0.0
    with pytest.raises(InputError, match="must be < 1"):
        share.check(1.0, "x")

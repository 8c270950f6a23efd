"""Harmony under the family contract (issue 19): the holes found from outside, each pinned by a
test named after what it guards -- the agent/training split without import cycles, declared
algorithm options and generator parameters (typos, NaN, huge sizes, parameters a preset ignores),
``drain`` that leaves no feasible schedule, the memory of the speed model, size caps in the
fields, file names on ``extra.*`` errors and instances without jobs."""
from __future__ import annotations

import ast
import json
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np
import pytest
from conftest import ROOT

from mlopt.cli import main
from mlopt.errors import InputError
from mlopt.families import get_family
from mlopt.families.harmony.speed import SpeedModel
from mlopt.workload import Workload

FAM = get_family("harmony")
PKG = ROOT / "mlopt" / "families" / "harmony"
TRAINING = ("mlopt.families.harmony.training", "mlopt.families.harmony.experience",
            "mlopt.families.harmony.parallel")


def tiny():
    return FAM.generate("tiny", seed=0)


def run_cli(capsys, *argv):
    capsys.readouterr()
    code = main([str(a) for a in argv])
    return (code, *capsys.readouterr())


# ---- the agent / training split -----------------------------------------------------------

def _harmony_imports() -> dict[str, set[str]]:
    """Module -> the harmony modules it imports anywhere (top level or inside a function)."""
    prefix = "mlopt.families.harmony."
    graph = {}
    for path in PKG.rglob("*.py"):
        rel = path.relative_to(PKG).with_suffix("")
        name = prefix + ".".join(rel.parts).removesuffix(".__init__")
        deps = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module \
                    and node.module.startswith(prefix):
                deps.add(node.module)
            elif isinstance(node, ast.Import):
                deps.update(a.name for a in node.names if a.name.startswith(prefix))
        graph[name] = deps - {name}
    return graph


def test_harmony_modules_form_no_import_cycle():
    graph = _harmony_imports()
    assert "mlopt.families.harmony.agent" in graph and "mlopt.families.harmony.drl" not in graph
    state: dict[str, int] = {}

    def visit(node, path):
        state[node] = 1
        for dep in sorted(graph.get(node, ())):
            if state.get(dep) == 1:
                raise AssertionError("import cycle: " + " -> ".join(path + [dep]))
            if dep not in state:
                visit(dep, path + [dep])
        state[node] = 2
    for node in sorted(graph):
        if node not in state:
            visit(node, [node])


def test_agent_side_imports_nothing_of_training():
    graph = _harmony_imports()
    for module in ("mlopt.families.harmony.agent", "mlopt.families.harmony.env",
                   "mlopt.families.harmony.nn"):
        assert not graph[module] & set(TRAINING), module


def test_running_a_policy_loads_no_trainer():
    code = ("import sys\nfrom mlopt.families import get_family\n"
            "f = get_family('harmony')\nf.run('harmony', f.generate('tiny', seed=0))\n"
            f"print([m for m in {list(TRAINING)!r} if m in sys.modules])\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


# ---- algorithm options ---------------------------------------------------------------------

@pytest.mark.parametrize("algorithm, options, field", [
    ("harmony", {"polcy": "pol.npz"}, "polcy"),  # a typo ran the committed checkpoint
    ("harmony", {"policy": "/nonexistent/pol.npz"}, "policy"),
    ("milp_greedy", {"max_new": 0}, "max_new"),  # placed nothing: an infeasible schedule
    ("milp_greedy", {"max_new": -3}, "max_new"),
    ("milp_greedy", {"time_limit": 0.0}, "time_limit"),
    ("lif_line", {"n_profile": 1e308}, "n_profile"),  # hung
    ("lif_quad", {"n_profile": 10**9}, "n_profile"),
    ("lb", {"anything": 1}, "anything"),
    ("tetris", {"n_profile": 3}, "n_profile"),
])
def test_undeclared_or_bad_options_are_refused_before_running(algorithm, options, field):
    t0 = time.perf_counter()
    with pytest.raises(InputError) as err:
        FAM.run(algorithm, tiny(), options=options)
    assert err.value.field == field
    assert time.perf_counter() - t0 < 5


def test_algorithm_functions_take_no_catch_all_options():
    import inspect

    for name in FAM.algorithms_:
        params = inspect.signature(FAM.algorithm(name)).parameters.values()
        assert not any(p.kind is p.VAR_KEYWORD for p in params), name
        declared = set(FAM.option_schema(name))
        # the start_option keyword takes a Schedule from bracket, never a user option
        taken = {p.name for p in params if p.kind is p.KEYWORD_ONLY} - {
            "seed", FAM.algorithm_record(name).start_option}
        assert declared == taken, name


def test_declared_option_defaults_are_the_function_defaults():
    import inspect

    for name in FAM.algorithms_:
        sig = inspect.signature(FAM.algorithm(name)).parameters
        for opt, param in FAM.option_schema(name).items():
            assert sig[opt].default == param.default, (name, opt)


def test_a_spec_with_an_option_typo_is_refused(tmp_path):
    from mlopt.harness.spec import parse_spec

    text = ('name = "t"\nfamily = "harmony"\n[[instances]]\npreset = "tiny"\nseeds = [0]\n'
            '[[algorithms]]\nname = "harmony"\n[algorithms.options]\npolcy = "pol.npz"\n')
    with pytest.raises(InputError, match="polcy"):
        parse_spec(text)


# ---- generator parameters ------------------------------------------------------------------

@pytest.mark.parametrize("preset, params, field", [
    ("tiny", {"duration": [float("nan"), 2.0]}, "duration[0]"),  # exited 3
    ("tiny", {"models": 5}, "models"),  # exited 3
    ("tiny", {"models": ["bert"]}, "models[0]"),
    ("tiny", {"n_servers": 2**62}, "n_servers"),  # hung: servers built before any check
    ("uniform", {"n_servers": 1000, "window": 1000}, "n_servers"),  # jobs x servers
    ("uniform", {"window": 10_000, "uniform_counts": [1, 900]}, "uniform_counts"),
    ("tiny", {"poisson_rate": -1}, "poisson_rate"),  # ignored by tiny: was silently accepted
    ("tiny", {"trace": []}, "trace"),  # ignored by tiny
    ("uniform", {"n_jobs": 10}, "n_jobs"),  # uniform arrivals ignore n_jobs
    ("poisson", {"uniform_counts": [1, 2]}, "uniform_counts"),
    ("tiny", {"arrivals": "poisson"}, "arrivals"),  # the preset's pattern, not a parameter
    ("tiny", {"drain": 0}, "drain"),
    ("tiny", {"drain": 1}, "drain"),  # below what the jobs need alone: no feasible schedule
    ("tiny", {"max_new_jobs": 12}, "max_new_jobs"),  # N' = N broke the DRL state
    ("tiny", {"max_jobs": 10**9}, "max_jobs"),
    ("tiny", {"workers": [1, 100]}, "workers[1]"),
])
def test_bad_generator_parameters_are_refused_at_once(preset, params, field):
    t0 = time.perf_counter()
    with pytest.raises(InputError) as err:
        FAM.generate(preset, seed=0, **params)
    assert err.value.field == field
    assert time.perf_counter() - t0 < 5


def test_each_preset_declares_only_the_parameters_it_reads():
    common = {"n_servers", "window", "drain", "workers", "ps", "duration", "models",
              "max_new_jobs", "max_jobs", "speed_params"}
    own = {"tiny": {"n_jobs"}, "small": {"n_jobs"}, "uniform": {"uniform_counts"},
           "mini": {"uniform_counts"}, "poisson": {"poisson_rate"},
           "trace": {"n_jobs", "trace", "trace_offset"}}
    for preset in FAM.preset_names:
        assert set(FAM.param_schema(preset)) == common | own[preset], preset


def test_declared_parameters_keep_the_committed_instances():
    import tomllib

    for name in ("harmony-tiny", "harmony-small"):
        manifest = tomllib.loads((ROOT / "instances" / name / "manifest.toml").read_text())
        for inst in manifest["instance"]:
            w = FAM.generate(inst["preset"], seed=inst["seed"])
            assert w.content_hash() == inst["hash"], inst["name"]


def test_an_explicit_drain_at_least_the_auto_one_is_kept():
    horizon = FAM.generate("tiny", seed=0).horizon
    auto = horizon - 2  # tiny: a window of 2 intervals
    assert FAM.generate("tiny", seed=0, drain=auto).horizon == horizon
    assert FAM.generate("tiny", seed=0, drain=auto + 5).horizon == horizon + 5
    with pytest.raises(InputError, match=f"at least {auto} intervals"):
        FAM.generate("tiny", seed=0, drain=auto - 1)


def test_cli_generate_bad_values_exit_2(capsys, tmp_path):
    out = tmp_path / "w.json"
    for args in (["-p", "duration=[NaN,2.0]"], ["-p", "models=5"], ["--seed", "-1"],
                 ["-p", "n_servers=4611686018427387904"], ["-p", "poisson_rate=-1"]):
        code, _, err = run_cli(capsys, "generate", "harmony", "--preset", "tiny", *args,
                               "-o", out)
        assert code == 2 and err.count("\n") == 1, (args, err)


# ---- memory and sizes ----------------------------------------------------------------------

def test_speed_model_needs_no_jobs_by_jobs_matrix():
    """20,000 jobs: the pairwise jobs x jobs slowdown matrix was 3.2 GB per interval."""
    sm = SpeedModel.default()
    rng = np.random.default_rng(0)
    n, m = 20_000, 12
    model = rng.integers(len(sm.models), size=n)
    xw = np.zeros((n, m))
    xp = np.zeros((n, m))
    running = rng.choice(n, 40, replace=False)
    xw[running, rng.integers(m, size=40)] = 1
    xp[running, rng.integers(m, size=40)] = 1
    tracemalloc.start()
    d = sm.slowdowns(model, xw, xp)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 50e6
    # the per-type sums equal the pairwise definition (on the running jobs)
    a = sm.alpha[np.ix_(model[running], model[running])]
    t = (xw + sm.ps_weight * xp)[running]
    felt = a @ t - np.diag(a)[:, None] * t
    present = (xw + xp)[running] > 0
    want = np.where(present, felt, 0.0).max(axis=1) + sm.comm_penalty[model[running]] * (
        present.sum(axis=1) > 1)
    assert np.allclose(d[running], want, rtol=0, atol=1e-12)
    assert (d[np.setdiff1d(np.arange(n), running)] == 0).all()


@pytest.mark.parametrize("path, value, field", [
    (("extra", "max_jobs"), 10**9, "extra.max_jobs"),  # the DRL state: N x servers rows
    (("extra", "max_new_jobs"), 12, "extra.max_new_jobs"),  # N' = N
    (("jobs", 0, "extra", "workers"), 1000, "jobs[0].extra.workers"),
])
def test_fields_cap_what_the_state_and_simulator_allocate(path, value, field):
    d = tiny().to_dict()
    node = d
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    with pytest.raises(InputError) as err:
        FAM.validate(Workload.from_dict(d))
    assert err.value.field == field


def test_fields_cap_jobs_times_servers():
    from mlopt.families.harmony.generator import MAX_JOB_SERVER_CELLS, make_workload

    jobs = [{"model": "resnet", "workers": 1, "ps": 1, "epochs": 1, "arrival": 1}] * 2001
    w = make_workload(jobs, n_servers=1000, horizon=3000)
    assert len(w.jobs) * len(w.servers) > MAX_JOB_SERVER_CELLS
    with pytest.raises(InputError) as err:
        FAM.validate(w)
    assert err.value.field == "jobs"


# ---- CLI errors name the file --------------------------------------------------------------

def test_extra_field_errors_name_the_workload_file(capsys, tmp_path):
    d = tiny().to_dict()
    d["extra"]["max_jobs"] = -4
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(d))
    code, _, err = run_cli(capsys, "run", "lb", path)
    assert code == 2 and str(path) in err and "extra.max_jobs" in err


# ---- an instance without jobs --------------------------------------------------------------

def test_an_instance_without_jobs_solves_to_zero(capsys, tmp_path):
    d = tiny().to_dict()
    d["jobs"] = []
    path = tmp_path / "empty.json"
    path.write_text(json.dumps(d))
    w = Workload.from_dict(d)
    FAM.validate(w)
    for name in FAM.algorithms_:
        res = FAM.check(w, FAM.run(name, w))
        assert res.feasible and res.objective == 0.0, name
    code, out, err = run_cli(capsys, "solve", path, "-o", tmp_path / "s.json")  # was a
    assert code == 0, err  # ZeroDivisionError building the MILP
    assert "optimal" in out and "checked-feasible True" in out


def test_milp_greedy_without_an_incumbent_still_places_every_job():
    """time_limit=1e-9 stopped HiGHS before any incumbent: nothing was ever placed."""
    w = FAM.generate("small", seed=0)
    sched = FAM.run("milp_greedy", w, options={"time_limit": 1e-9})
    res = FAM.check(w, sched)
    assert res.feasible, res.summary()
    assert sched.meta["fallback_intervals"] >= 1
    assert "fallback_intervals" not in FAM.run("milp_greedy", w).meta


def test_a_spec_with_a_huge_n_servers_is_refused_at_once():
    from mlopt.harness.spec import parse_spec

    t0 = time.perf_counter()
    text = ('name = "t"\nfamily = "harmony"\n[[instances]]\npreset = "uniform"\nseeds = [0]\n'
            'params = { n_servers = 4611686018427387904 }\n[[algorithms]]\nname = "lb"\n')
    with pytest.raises(InputError, match="n_servers"):
        parse_spec(text)
    assert time.perf_counter() - t0 < 5


def test_a_server_without_capacity_of_a_resource_is_refused():
    """The DRL state and LB/Tetris divide by capacities: 0 made NaN features and loads."""
    d = tiny().to_dict()
    d["servers"][1]["capacity"]["gpu"] = 0.0
    with pytest.raises(InputError) as err:
        FAM.validate(Workload.from_dict(d))
    assert err.value.field == "servers[1].capacity.gpu"


def test_formulation_options_are_the_builder_keywords():
    import inspect

    from mlopt.families.base import resolve

    assert set(FAM.algorithms_) == set(FAM.formulations["interval_milp"].options["replay"].choices)
    for name, f in FAM.formulations.items():
        sig = inspect.signature(resolve(f.build)).parameters
        taken = {k for k, p in sig.items() if p.kind is p.KEYWORD_ONLY}
        assert set(f.options) == taken, name
        for key, param in f.options.items():
            assert sig[key].default == param.default, (name, key)


def test_a_speed_model_server_without_capacity_is_refused():
    """The DRL state and LIF's profile divide demands by it: 0 made inf/NaN features."""
    d = tiny().to_dict()
    d["extra"]["speed_model"]["server"]["gpu"] = 0
    with pytest.raises(InputError) as err:
        FAM.validate(Workload.from_dict(d))
    assert err.value.field == "extra.speed_model.server.gpu"

"""Regression tests of the PD-ORS holes closed for the family contract (issue 19): each test is
named after what it guards and failed before its fix."""
from __future__ import annotations

import copy
import subprocess
import sys
import time

import numpy as np
import pytest
from fresh_python import assert_runs_fresh

from mlopt import limits
from mlopt.errors import InputError
from mlopt.families import get_family
from mlopt.families.pdors.colgen import colgen_bound
from mlopt.families.pdors.fields import MIN_WORK, validate_pdors
from mlopt.families.pdors.generator import check_params, params
from mlopt.families.pdors.online import MAX_RETRIES, run_pdors
from mlopt.families.pdors.theory import job_sum_bound
from mlopt.pipeline import solve_offline
from mlopt.workload import Workload

FAM = get_family("pdors")
ALGORITHMS = ("pdors", "pdors_no_internal", "fifo", "drf", "dorm", "oasis")


def _tiny(seed=0, **params_):
    return FAM.generate("tiny", seed=seed, **params_)


def _mutated(workload, fn) -> Workload:
    d = copy.deepcopy(workload.to_dict())
    fn(d)
    return Workload.from_dict(d)


def _slow_bus(d):
    for j in d["jobs"]:
        j["extra"]["bw_internal_gbps"] = j["extra"]["bw_external_gbps"] / 2


# ---- 1. false verified optimum: b_int < b_ext -----------------------------------------------

@pytest.mark.parametrize("n_machines", [1, 2])
def test_slower_internal_bandwidth_is_refused(n_machines):
    """b^(i) < b^(e) made the MILP (first-completion cut, internal credit) and job_sum/colgen
    assume the wrong fastest speed: "optimal, verified" below what PD-ORS reached.  Refused."""
    w = _mutated(_tiny(n_machines=n_machines), _slow_bus)
    with pytest.raises(InputError) as err:
        validate_pdors(w)
    assert err.value.field == "jobs[0].extra.bw_internal_gbps"
    for alg in ALGORITHMS:
        with pytest.raises(InputError):
            FAM.run(alg, w, seed=0)
    for bound in (job_sum_bound, colgen_bound):
        with pytest.raises(InputError):
            bound(w)


def test_slower_internal_bandwidth_cli_solve_and_run_exit_2(tmp_path):
    path = tmp_path / "slow.json"
    _mutated(_tiny(n_machines=1), _slow_bus).save(path)
    for args in (["solve", str(path), "--verify"], ["run", "pdors", str(path)]):
        res = subprocess.run([sys.executable, "-m", "mlopt", *args], capture_output=True,
                             text=True, timeout=300)
        assert res.returncode == 2, (args, res.stdout, res.stderr)
        assert res.stderr.count("\n") == 1 and "bw_internal_gbps" in res.stderr


def test_equal_bandwidths_are_accepted():
    """b^(i) = b^(e): co-location neither helps nor hurts; the workload is valid."""
    def equal(d):
        for j in d["jobs"]:
            j["extra"]["bw_internal_gbps"] = j["extra"]["bw_external_gbps"]
    w = _mutated(_tiny(), equal)
    validate_pdors(w)
    assert FAM.check(w, FAM.run("pdors", w)).feasible


def _instances():
    out = []
    for seed in range(3):
        for nm in (1, 2):
            out.append(("tiny", seed, {"n_machines": nm}))
    out.append(("small", 100, {"n_jobs": 5, "n_machines": 1, "horizon": 5}))
    out.append(("small", 101, {"n_jobs": 5, "n_machines": 2, "horizon": 5,
                               "bw_internal_gbps": 10.0}))  # b_int = the largest b_ext
    return out


@pytest.mark.parametrize("preset,seed,over", _instances())
def test_bounds_and_optimum_dominate_every_checked_schedule(preset, seed, over):
    """On random small instances (one and two machines): OPT (HiGHS, proven) >= every checked
    schedule of every algorithm, and job_sum, colgen >= OPT."""
    w = FAM.generate(preset, seed=seed, **over)
    off = solve_offline(w, family="pdors", time_limit=120, threads=1)
    assert off.solve.status.value == "optimal" and off.check.feasible
    opt = off.objective
    tol = 1e-6 * max(1.0, opt)
    for alg in ALGORITHMS:
        res = FAM.check(w, FAM.run(alg, w, seed=seed))
        assert res.feasible, (alg, res.summary())
        assert res.objective <= opt + tol, (alg, res.objective, opt)
    assert job_sum_bound(w)["bound"] >= opt - tol
    assert colgen_bound(w, time_limit=20, grid=20)["bound"] >= opt - tol


# ---- 6. empty job list; degenerate work ------------------------------------------------------

def test_empty_job_list_is_refused(tmp_path):
    w = _mutated(_tiny(), lambda d: d.__setitem__("jobs", []))
    with pytest.raises(InputError) as err:
        validate_pdors(w)
    assert err.value.field == "jobs"
    path = tmp_path / "empty.json"
    w.save(path)
    res = subprocess.run([sys.executable, "-m", "mlopt", "solve", str(path)],
                         capture_output=True, text=True, timeout=300)
    assert res.returncode == 2 and res.stderr.count("\n") == 1, (res.stdout, res.stderr)


def test_subnormal_work_is_refused():
    """A job whose work underflows to ~1e-322 worker-slots made w / n^m overflow."""
    def tiny_work(d):
        e = d["jobs"][0]["extra"]
        e.update(sample_seconds=0.0, param_mb=1e-300, bw_internal_gbps=1e12,
                 bw_external_gbps=1e12)
    with pytest.raises(InputError) as err:
        validate_pdors(_mutated(_tiny(), tiny_work))
    assert err.value.field == "jobs[0].extra.samples"


def test_a_tiny_job_gets_at_least_one_worker():
    """One sample of 1e-6 s (2.8e-10 worker-slots, above MIN_WORK): PD-ORS's per-slot demand
    ceil(j n / grid) rounded to 0 workers (float slack 1e-9) and the schedule did no work."""
    def one_sample(d):
        d["jobs"][0]["epochs"] = 1
        d["jobs"][0]["extra"].update(samples=1, sample_seconds=1e-6, param_mb=0.0)
    w = _mutated(_tiny(), one_sample)
    validate_pdors(w)
    assert MIN_WORK < 1e-6 / 3600 < 1e-9
    for alg in ("pdors", "pdors_no_internal"):
        s = FAM.run(alg, w, seed=0)
        res = FAM.check(w, s)
        assert res.feasible, res.summary()
        assert "j001" in s.admitted
        assert s.allocations.query("job == 'j001' and role == 'worker'")["count"].sum() >= 1


# ---- 2. adapted baselines on one machine ------------------------------------------------------

@pytest.mark.parametrize("alg", ["fifo", "drf", "dorm", "oasis"])
def test_adapted_baselines_run_on_one_machine(alg):
    """The adapted view used to raise ValueError (exit 3) on a one-machine workload."""
    w = FAM.generate("small", seed=100, n_jobs=8, n_machines=1)
    s = FAM.run(alg, w, seed=0)
    res = FAM.check(w, s)
    assert res.feasible, res.summary()
    assert set(s.allocations["server"]) <= {w.servers[0].id}
    assert "one machine split" in s.meta["view"]


def test_adapted_baselines_refuse_a_huge_batch_table():
    """F_i = 1e9 made OASiS's subroutine allocate a 30 GB T x N_i table (MemoryError)."""
    w = _mutated(_tiny(), lambda d: d["jobs"][1]["extra"].__setitem__("batch", 10 ** 9))
    validate_pdors(w)
    for alg in ("fifo", "oasis"):
        with pytest.raises(InputError) as err:
            FAM.run(alg, w, seed=0)
        assert err.value.field == "jobs[1].extra.batch"
    assert FAM.check(w, FAM.run("pdors", w)).feasible


# ---- 3. generator: declared parameters, no import of another family ------------------------

@pytest.mark.parametrize("name,value", [
    ("n_jobs", 1e308), ("horizon", 1e308), ("n_jobs", 2 ** 70), ("horizon", 2 ** 70),
    ("horizon", limits.MAX_HORIZON + 1), ("n_machines", limits.MAX_SERVERS + 1),
    ("n_jobs", 2.0), ("samples", [1, 2 ** 70]), ("machine_types", ["no-such-type"]),
    ("slot_seconds", 0.0), ("bw_external_gbps", [0.0, 1.0]), ("arrival_window", float("nan")),
])
def test_generator_refuses_bad_sizes_at_once(name, value):
    t0 = time.perf_counter()
    with pytest.raises(InputError) as err:
        FAM.generate("tiny", seed=0, **{name: value})
    assert err.value.field.startswith(name)
    assert time.perf_counter() - t0 < 2


@pytest.mark.parametrize("over,field", [
    ({"arrival_window": 5.0}, "arrival_window"),  # tiny: T = 4
    ({"bw_internal_gbps": 5.0}, "bw_internal_gbps"),  # below b^(e) up to 10
    ({"horizon": 100_000, "n_machines": 100}, "n_machines"),  # cells
    ({"epochs": [1, 10 ** 9], "samples": [1, 10 ** 9], "sample_seconds": [0.0, 1e6]},
     "samples"),  # a job of ~1e24 worker-slots
    ({"worker_gpu": [0, 1], "worker_cpu": [0, 1], "worker_memory_gb": [0, 1],
      "worker_storage_gb": [0, 1]}, "worker_cpu"),
    ({"param_mb": [0.0, 0.0], "sample_seconds": [0.0, 0.0]}, "sample_seconds"),
    ({"param_mb": [0.0, 1.0], "sample_seconds": [0.0, 1e-4]}, "sample_seconds"),  # work 0
    ({"bw_external_gbps": [1e-6, 1.0], "bw_internal_gbps": 1e12}, "bw_internal_gbps"),
])
def test_generator_cross_parameter_relations(over, field):
    with pytest.raises(InputError) as err:
        check_params("tiny", over)
    assert err.value.field == field


def test_every_preset_declares_every_parameter_it_takes():
    from mlopt.families.pdors.generator import DEFAULTS, PRESETS

    for preset in PRESETS:
        schema = params(preset)
        assert set(schema) == set(DEFAULTS)
        for k, v in PRESETS[preset].items():
            assert schema[k].default == (list(v) if k == "machine_types" else v)


def test_fields_generator_checker_load_neither_oasis_nor_the_adapted_view():
    code = ("import sys\n"
            "import mlopt.families.pdors.family, mlopt.families.pdors.fields\n"
            "import mlopt.families.pdors.generator, mlopt.families.pdors.checker\n"
            "bad = [m for m in sys.modules if m.startswith('mlopt.families.oasis')\n"
            "       or m == 'mlopt.families.pdors.oasis_adapted']\n"
            "assert not bad, bad\n")
    assert_runs_fresh(code)


# ---- 5. declared options -------------------------------------------------------------------

def test_retries_is_capped():
    """retries=2**70 looped (practically) forever; now refused before anything runs."""
    w = _tiny()
    for call in (lambda: FAM.run("pdors", w, options={"retries": 2 ** 70}),
                 lambda: run_pdors(w, retries=2 ** 70),
                 lambda: run_pdors(w, retries=MAX_RETRIES + 1)):
        with pytest.raises(InputError) as err:
            call()
        assert err.value.field == "retries"


@pytest.mark.parametrize("alg", ALGORITHMS)
def test_seed_and_unknown_options_are_refused(alg):
    w = _tiny()
    for opts in ({"seed": 0}, {"no_such_option": 1}):
        with pytest.raises(InputError):
            FAM.run(alg, w, seed=0, options=opts)


def test_the_ablation_does_not_take_internal():
    """pdors_no_internal silently dropped ``internal``; it is not one of its options."""
    assert "internal" not in FAM.option_schema("pdors_no_internal")
    with pytest.raises(InputError):
        FAM.run("pdors_no_internal", _tiny(), options={"internal": True})


def test_adapted_baselines_refuse_unknown_options_when_called_directly():
    from mlopt.families.pdors.baselines import BASELINES

    with pytest.raises(InputError):
        BASELINES["fifo"](_tiny(), seed=0, no_such_option=1)


@pytest.mark.parametrize("option", ["seed=0", "no_such_option=1", "retries=1180591620717411303424"])
def test_cli_run_refuses_bad_options_with_exit_2(option):
    path = "instances/pdors-tiny/pdors-tiny-0.json"
    res = subprocess.run([sys.executable, "-m", "mlopt", "run", "pdors", path, "--option",
                          option], capture_output=True, text=True, timeout=300)
    assert res.returncode == 2, (res.stdout, res.stderr)
    assert res.stderr.count("\n") == 1


def test_declared_defaults_match_the_functions():
    import inspect

    from mlopt.families.pdors import online

    for name, fn in (("pdors", online.run_pdors),
                     ("pdors_no_internal", online.run_pdors_no_internal)):
        sig = inspect.signature(fn).parameters
        schema = FAM.option_schema(name)
        assert set(schema) == set(sig) - {"workload", "seed"}
        for k, p in schema.items():
            assert p.default == sig[k].default, (name, k)


def test_random_options_never_crash():
    """Declared option values in range run or raise InputError, never another exception."""
    rng = np.random.default_rng(7)
    w = _tiny()
    for _ in range(6):
        opts = {"grid": int(rng.integers(1, 30)), "retries": int(rng.integers(1, 5)),
                "delta": float(rng.uniform(0.01, 1.0)),
                "oracle": str(rng.choice(["rounding", "exact"])),
                "price_scale": None if rng.random() < 0.5 else float(rng.uniform(0.5, 20))}
        s = FAM.run("pdors", w, seed=0, options=opts)
        assert FAM.check(w, s).feasible

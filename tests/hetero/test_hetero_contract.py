"""The holes found from outside in the hetero family (issue 19), one regression test each: bad
workloads, generator parameters and algorithm options are one InputError (exit 2), never a
crash (exit 3), a hang or an exhausted memory."""
from __future__ import annotations

import copy
import time

import pytest

from mlopt.errors import InputError
from mlopt.families import get_family
from mlopt.families.hetero.fields import validate_hetero
from mlopt.families.hetero.generator import from_trace
from mlopt.models.hetero import build_wct_milp, wct_milp
from mlopt.params import bad_values
from mlopt.solve import Status, solve
from mlopt.workload import Workload

FAM = get_family("hetero")


def _tiny(preset="tiny", mutate=None) -> Workload:
    d = copy.deepcopy(FAM.generate(preset, 0).to_dict())
    if mutate:
        mutate(d)
    return Workload.from_dict(d)


def _nothing_fits(d):
    """The issue's instance: p3.2xlarge servers (61 GB), worker and PS types of 40-60 GB, PS
    bandwidth far below the workers': no worker + PS fits one server, and a split needs >= 2
    PSs (80+ GB) on one server."""
    for s in d["servers"]:
        s["capacity"] = {"gpu": 1.0, "cpu": 8.0, "memory_gb": 61.0, "bandwidth_gbps": 10.0}
    for t in d["extra"]["hetero"]["worker_types"]:
        t["demand"].update(gpu=1.0, memory_gb=45.0, bandwidth_gbps=3.0)
    for t in d["extra"]["hetero"]["ps_types"]:
        t["demand"].update(memory_gb=45.0, bandwidth_gbps=0.75)
    for j in d["jobs"]:  # the shared fields: type 1's demands, as the generator sets them
        j["worker_demand"] = dict(d["extra"]["hetero"]["worker_types"][0]["demand"])
        j["ps_demand"] = dict(d["extra"]["hetero"]["ps_types"][0]["demand"])


# ---- no job can be placed -----------------------------------------------------------------
def test_workload_where_no_job_fits_is_refused_naming_the_job():
    w = _tiny(mutate=_nothing_fits)
    with pytest.raises(InputError) as err:
        FAM.validate(w)
    assert err.value.field == "jobs[0]" and err.value.value == w.jobs[0].id
    for algorithm in FAM.algorithms_:  # every entry point validates first
        with pytest.raises(InputError):
            FAM.run(algorithm, w)
    with pytest.raises(InputError):
        build_wct_milp(w)
    with pytest.raises(InputError):  # it returned inf
        FAM.bound("lower_bound")(w)


def test_generator_refuses_parameters_that_place_no_job():
    with pytest.raises(InputError) as err:
        FAM.generate("tiny", 1, server_shapes=["p3.2xlarge"], worker_memory_gb=[40, 60],
                     ps_memory_gb=[40, 60], worker_bandwidth_gbps=[2.0, 5.0],
                     ps_bandwidth_gbps=[0.5, 1.0])
    assert err.value.field == "server_shapes"


@pytest.mark.parametrize("preset", ["tiny", "tiny-ra", "small", "small-ra"])
def test_fit_test_on_one_worker_equals_any_configuration_fitting(preset):
    """fields' exact test (some N = 1 configuration fits) agrees with every configuration."""
    from mlopt.families.hetero.configs import fits_alone, job_configs
    from mlopt.families.hetero.fields import fitting_pairs, parse_fields

    for seed in range(6):
        for scale in (0.3, 0.5, 1.0):
            d = FAM.generate(preset, seed).to_dict()
            for s in d["servers"]:
                s["capacity"] = {r: v * scale for r, v in s["capacity"].items()}
            for j in d["jobs"]:  # shared fields this family ignores: anything that fits
                j["worker_demand"] = j["ps_demand"] = {"gpu": 0, "cpu": 0, "memory_gb": 0,
                                                       "bandwidth_gbps": 1e-3}
            data = parse_fields(Workload.from_dict(d), assumptions=False)
            any_fit = [any(fits_alone(data, c) for c in job_configs(data, j))
                       for j in range(len(data.job_ids))]
            assert all(x == bool(fitting_pairs(data)) for x in any_fit)


# ---- fractional weights: the exact model no longer grows as 1 / w_min ----------------------
def test_fractional_weight_keeps_the_exact_model_small():
    def light(d):
        d["jobs"][0]["extra"]["weight"] = 0.01

    w = _tiny(mutate=light)
    t = time.perf_counter()
    m = build_wct_milp(w)
    assert time.perf_counter() - t < 10
    assert m.nvariables() < 2000  # it was about 1 / 0.01 times the horizon larger


def test_slot_cap_is_exact_on_a_light_job(monkeypatch):
    """The optimum with the slot-count cap equals the optimum with a looser cap."""
    def light(d):
        d["jobs"][1]["extra"]["weight"] = 0.01

    w = _tiny(mutate=light)
    res = solve(build_wct_milp(w))
    caps = wct_milp.completion_caps
    monkeypatch.setattr(wct_milp, "completion_caps",
                        lambda data, J, cfg: {j: c + 6 for j, c in caps(data, J, cfg).items()})
    loose = solve(build_wct_milp(w))
    assert res.status == loose.status == Status.OPTIMAL
    assert res.objective == pytest.approx(loose.objective)


def test_exact_model_too_large_is_refused_before_building():
    def long_jobs(d):
        for j in d["jobs"]:
            j["epochs"] = 30_000

    w = _tiny(mutate=long_jobs)
    t = time.perf_counter()
    with pytest.raises(InputError, match="variables"):
        build_wct_milp(w)
    assert time.perf_counter() - t < 5


# ---- empty job lists, sizes, near-zero amounts -------------------------------------------------
def test_empty_job_list_is_refused():
    """DECISION: refused in the fields (A_online failed with "math domain error")."""
    w = _tiny(mutate=lambda d: d.update(jobs=[]))
    with pytest.raises(InputError) as err:
        validate_hetero(w)
    assert err.value.field == "jobs"


def test_huge_chunk_count_does_not_grind():
    def wide(d):
        d["jobs"][2]["chunks"] = 100_000

    w = _tiny(mutate=wide)
    t = time.perf_counter()
    assert FAM.check(w, FAM.run("fifo", w)).feasible
    for run in (lambda: FAM.run("a_online", w), lambda: build_wct_milp(w)):
        try:  # work E D K grows with D: A_online's rounds may pass the slot limit, the model
            run()  # its size limit; either answer is fine, fast
        except InputError:
            pass
    assert time.perf_counter() - t < 20


@pytest.mark.parametrize("path, value", [
    (("extra", "hetero", "worker_types", 0, "demand", "bandwidth_gbps"), 1e-300),
    (("extra", "hetero", "ps_types", 0, "demand", "cpu"), 1e-300),
    (("jobs", 0, "epochs"), 10 ** 9),
])
def test_near_zero_or_huge_amounts_are_refused(path, value):
    def put(d):
        o = d
        for k in path[:-1]:
            o = o[k]
        o[path[-1]] = value

    with pytest.raises(InputError):
        validate_hetero(_tiny(mutate=put))


# ---- generator parameters ----------------------------------------------------------------------
@pytest.mark.parametrize("params", [
    {"slot_seconds": "x"}, {"n_jobs": 1e308}, {"n_worker_types": 2 ** 62}, {"n_jobs": 0},
    {"bogus": 1}, {"chunks": [1, 10 ** 9]}, {"server_shapes": ["nope"]},
    {"arrival_window": 10},  # > horizon 4 of tiny
])
def test_bad_generator_parameters_are_refused_at_once(params):
    t = time.perf_counter()
    with pytest.raises(InputError):
        FAM.generate("tiny", 0, **params)
    assert time.perf_counter() - t < 2


def test_negative_seed_is_refused():
    with pytest.raises(InputError):
        FAM.generate("tiny", -1)


@pytest.mark.parametrize("preset", sorted(FAM.preset_names))
def test_every_preset_declares_its_parameters_and_refuses_bad_values(preset):
    schema = FAM.param_schema(preset)
    ra = preset.endswith("-ra")
    assert ("ps_bandwidth_gbps" in schema) != ra and "architecture" not in schema
    assert ("trace_start" in schema) == preset.startswith("trace")
    for name, p in schema.items():
        for bad in bad_values(p):
            with pytest.raises(InputError):
                FAM.generate(preset, 0, **{name: bad.value})


@pytest.mark.parametrize("preset", ["tiny", "tiny-ra", "small"])
def test_declared_defaults_are_the_presets_values(preset):
    schema = FAM.param_schema(preset)
    a = FAM.generate(preset, 3)
    b = FAM.generate(preset, 3, **{k: p.default for k, p in schema.items()})
    assert a.to_dict()["jobs"] == b.to_dict()["jobs"]


def test_from_trace_checks_seed_and_parameters():
    import pandas as pd

    table = pd.DataFrame({"arrival_s": [0.0, 60.0, 600.0], "gpus": [1, 2, 1],
                          "duration_s": [3600.0, 7200.0, 1800.0]})
    with pytest.raises(InputError, match="n_jobs"):
        from_trace(table, seed=0, n_jobs=0)
    with pytest.raises(InputError, match="seed"):
        from_trace(table, seed=-1, n_jobs=3)
    assert len(from_trace(table, seed=0, n_jobs=3).jobs) == 3


# ---- algorithm options -----------------------------------------------------------------------
@pytest.mark.parametrize("algorithm, options", [
    ("a_online", {"alpha": 2 ** 70}), ("a_online", {"alpha": "theorem5"}),
    ("a_online", {"F": 0.5}), ("fifo", {"max_workers": 0}), ("fifo", {"bogus": 1}),
    ("drf", {"max_workers": 3}), ("antman", {"patience": -1}),
])
def test_bad_options_are_refused_before_the_run(algorithm, options):
    w = _tiny()
    t = time.perf_counter()
    with pytest.raises(InputError):
        FAM.run(algorithm, w, **options)
    assert time.perf_counter() - t < 2


def test_every_algorithm_declares_options_with_its_defaults():
    import inspect

    for name in FAM.algorithms_:
        schema = FAM.option_schema(name)
        assert schema is not None
        sig = inspect.signature(FAM.algorithm(name)).parameters
        # the start_option keyword (pnb's start_schedule) is bracket's, never a user option
        internal = {"workload", "seed", FAM.algorithm_record(name).start_option}
        assert set(sig) - internal == set(schema)
        for k, p in schema.items():
            assert sig[k].default == p.default, (name, k)


def test_theorem5_alpha_rule_runs():
    w = _tiny()
    s = FAM.run("a_online", w, alpha_rule="theorem5")
    assert FAM.check(w, s).feasible
    assert s.meta["alpha"] == s.meta["alpha_theorem5"]


def test_diagnostics_rerun_with_the_theorem5_rule():
    """The harness hook re-runs A_online with the run's options: alpha_rule included (else the
    re-run used alpha = 4 and did not reproduce the checked schedule)."""
    from mlopt.families.hetero.theory import diagnostics

    w = FAM.generate("small", 0)
    s = FAM.run("a_online", w, alpha_rule="theorem5")
    out = diagnostics(w, s, options={"alpha_rule": "theorem5"}, opt_upper=None)
    assert out["alpha"] == out["alpha_theorem5"]


@pytest.mark.parametrize("preset", ["tiny", "tiny-ra"])
def test_field_fuzz_of_both_architectures(preset):
    """The conformance fuzz (mlopt.testing.fuzz_one) on every field of tiny and tiny-ra with a
    seeded sample of the replacement values: only InputError or a checked result."""
    import numpy as np

    from mlopt.testing import _DELETE, _REPLACEMENTS, _leaves, fuzz_one

    base = FAM.generate(preset, 0).to_dict()
    paths = [p for p in _leaves(base) if p and p[0] not in ("meta", "schema_version", "name")]
    rng = np.random.default_rng(19)
    values = list(_REPLACEMENTS) + [_DELETE]
    for path in paths:
        fuzz_one(FAM, base, path, values[int(rng.integers(len(values)))])

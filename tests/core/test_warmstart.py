"""Warm starts of every family's exact model (mlopt.warmstart, mlopt.models.<family>.warmstart).

Per family, on its committed tiny (and a few small) instances: the best checked schedule of the
family's algorithms encodes into a full start that satisfies every row of the default exact
model (within 1e-6) and whose model objective is no worse than the schedule's checked
objective; a node-limited warm solve (HiGHS, SCIP; CP-SAT where the model is all-integer)
returns an incumbent never worse than that; the warm solve to optimality gives the verified
optimum of ``instances/solu.csv``.
"""
from __future__ import annotations

import csv
import functools
import math
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st
from pyomo.common.collections import ComponentMap

from mlopt import warmstart as W
from mlopt.errors import InputError
from mlopt.families import get_family
from mlopt.solve import Status
from mlopt.solvers._matrix import compile_linear
from mlopt.workload import Workload

ROOT = Path(__file__).resolve().parents[2]
INSTANCES = ROOT / "instances"
FAMILIES = ("oasis", "pdors", "hetero", "edgecloud", "harmony")
# small instances whose exact solve takes a few seconds at most (hetero-small-0 takes minutes)
SMALL = {"oasis": 2, "pdors": 2, "hetero": 0, "edgecloud": 2, "harmony": 1}
EXTRA = ["hetero-small-1"]
# SCIP needs 4-6 s to prove these optima (HiGHS well under 1 s): node-limited runs only
SCIP_SLOW = {"edgecloud-tiny-0", "edgecloud-tiny-4"}
TOL = 1e-6


def _path(name: str) -> Path:
    hits = sorted(INSTANCES.glob(f"*/{name}.json"))
    assert hits, f"instance {name} is not committed"
    return hits[0]


def _names(family: str, kind: str) -> list[str]:
    return sorted({p.stem for p in INSTANCES.glob(f"*/{family}-{kind}-*.json")})


CASES = [(f, n) for f in FAMILIES for n in _names(f, "tiny")] + \
    [(f, n) for f in FAMILIES for n in _names(f, "small")[:SMALL[f]]] + \
    [(n.split("-")[0], n) for n in EXTRA]
TINY = [(f, n) for f, n in CASES if "-tiny-" in n]
ALL_SMALL = [(f, n) for f in FAMILIES for n in _names(f, "small")]


@functools.lru_cache(maxsize=None)
def _solu() -> dict[str, float]:
    with open(INSTANCES / "solu.csv", newline="") as fh:
        return {r["instance"]: float(r["objective"]) for r in csv.DictReader(fh)
                if r["status"] == "optimal"}


@functools.lru_cache(maxsize=None)
def _best(name: str):
    family = name.split("-")[0]
    w = Workload.load(_path(name))
    cand = W.best_start(w, family)
    assert cand is not None, f"no algorithm of {family} gives a feasible schedule on {name}"
    return w, cand


def _fresh(family: str, name: str):
    """(workload, model, start, candidate) with a newly built model."""
    w, cand = _best(name)
    model = get_family(family).model()(w)
    return w, model, W.encode_schedule(family, model, w, cand.schedule), cand


def _not_worse(sense: str, value: float, reference: float) -> bool:
    slack = TOL * max(1.0, abs(reference))
    return value >= reference - slack if sense == "max" else value <= reference + slack


def _close(a: float, b: float) -> bool:
    return abs(a - b) <= TOL * max(1.0, abs(b))


def _check_incumbent(family: str, w, model, res) -> None:
    """The incumbent is on the variables: its schedule is feasible with the same objective."""
    fam = get_family(family)
    sched = fam.extract[fam.default_model](model, w)
    chk = fam.check(w, sched)
    assert chk.feasible, chk.violations[:3]
    assert _close(chk.objective, res.objective)


def test_every_builtin_family_has_an_encoder():
    for family in FAMILIES:
        assert callable(W.encoder(family))


@pytest.mark.parametrize("family,name", CASES + [c for c in ALL_SMALL if c not in CASES])
def test_start_satisfies_every_row_and_is_no_worse_than_the_schedule(family, name):
    w, model, start, cand = _fresh(family, name)
    chk, _, _ = W.check_start(compile_linear(model), start)
    assert chk.full and chk.unknown == 0
    assert chk.max_violation <= TOL, chk.worst_row
    assert chk.feasible
    assert _not_worse(get_family(family).sense, chk.objective, cand.objective)


@pytest.mark.parametrize("family,name", CASES + [c for c in ALL_SMALL if c not in CASES])
def test_highs_node_limit_incumbent_never_worse_than_start(family, name):
    w, model, start, cand = _fresh(family, name)
    res = W.solve_warm(model, start, "highs", time_limit=5, options={"mip_max_nodes": 1})
    assert res.has_solution, res.message
    assert res.options["warm_start"]["feasible"]
    assert _not_worse(res.sense, res.objective, cand.objective)
    if res.bound is not None:
        assert _not_worse(res.sense, res.bound, res.objective)
    _check_incumbent(family, w, model, res)


@pytest.mark.parametrize("family,name", CASES)
def test_highs_warm_optimum_is_the_verified_optimum(family, name):
    w, model, start, _ = _fresh(family, name)
    res = W.solve_warm(model, start, "highs", time_limit=120)
    assert res.status == Status.OPTIMAL, res.message
    assert _close(res.objective, _solu()[name])
    _check_incumbent(family, w, model, res)


@pytest.mark.parametrize("family,name", TINY)
def test_scip_warm_start(family, name):
    pytest.importorskip("pyscipopt")
    w, model, start, cand = _fresh(family, name)
    res = W.solve_warm(model, start, "scip", time_limit=10, options={"limits/nodes": 1})
    assert res.has_solution and _not_worse(res.sense, res.objective, cand.objective)
    _check_incumbent(family, w, model, res)
    if name in SCIP_SLOW:
        return
    w, model, start, _ = _fresh(family, name)
    res = W.solve_warm(model, start, "scip", time_limit=120)
    assert res.status == Status.OPTIMAL and _close(res.objective, _solu()[name])
    _check_incumbent(family, w, model, res)


@pytest.mark.parametrize("name", _names("oasis", "tiny")[:2] + _names("oasis", "small")[:1])
def test_cpsat_hint_on_the_all_integer_oasis_model(name):
    pytest.importorskip("ortools")
    w, model, start, cand = _fresh("oasis", name)
    res = W.solve_warm(model, start, "cpsat", time_limit=10)
    assert res.options["warm_start"]["cpsat_hinted"] == len(start)
    assert res.status == Status.OPTIMAL and _close(res.objective, _solu()[name])
    _check_incumbent("oasis", w, model, res)


def test_cpsat_refuses_a_model_with_continuous_variables():
    pytest.importorskip("ortools")
    _, model, start, _ = _fresh("pdors", _names("pdors", "tiny")[0])
    with pytest.raises(InputError) as err:
        W.solve_warm(model, start, "cpsat", time_limit=5)
    assert err.value.field == "solver"


# ---- the guarantee and the honest report -------------------------------------------------
@pytest.mark.parametrize("family", FAMILIES)
def test_no_time_still_returns_the_start_never_nothing(family):
    """With no time at all the solver may return nothing: a feasible start is the incumbent."""
    name = _names(family, "tiny")[0]
    w, model, start, cand = _fresh(family, name)
    res = W.solve_warm(model, start, "highs", time_limit=0)
    assert res.has_solution
    assert _not_worse(res.sense, res.objective, cand.objective)
    assert res.status in (Status.FEASIBLE, Status.OPTIMAL)
    _check_incumbent(family, w, model, res)


def test_infeasible_start_is_reported_and_the_solve_stays_correct():
    name = "oasis-small-0"
    w, model, start, _ = _fresh("oasis", name)
    admitted = next(v for v in model.x.values() if start[v] == 1.0)
    start[admitted] = 0.0  # its workers stay: rows (3) and (8) break
    chk, _, _ = W.check_start(compile_linear(model), start)
    assert chk.full and not chk.feasible and chk.max_violation > 0.5 and chk.worst_row
    res = W.solve_warm(model, start, "highs", time_limit=60)
    assert "infeasible (max violation" in res.message
    assert res.options["warm_start"]["used"] == "solver"
    assert res.status == Status.OPTIMAL and _close(res.objective, _solu()[name])


@pytest.mark.parametrize("solver", ["highs", "scip"])
def test_partial_start_of_the_main_decisions_is_completed(solver):
    if solver == "scip":
        pytest.importorskip("pyscipopt")
    name = "pdors-small-0"
    w, model, start, _ = _fresh("pdors", name)
    partial = ComponentMap((v, start[v]) for v in list(model.x.values())
                           + list(model.w.values()) + list(model.s.values()))
    chk, _, _ = W.check_start(compile_linear(model), partial)
    assert not chk.full and chk.given == len(partial)
    res = W.solve_warm(model, partial, solver, time_limit=60)
    assert "partial" in res.message
    assert res.status == Status.OPTIMAL and _close(res.objective, _solu()[name])
    _check_incumbent("pdors", w, model, res)


def test_empty_start_is_a_plain_solve():
    name = _names("harmony", "tiny")[0]
    w, model, _, _ = _fresh("harmony", name)
    res = W.solve_warm(model, ComponentMap(), "highs")
    assert res.status == Status.OPTIMAL and _close(res.objective, _solu()[name])


def test_edgecloud_job_the_model_cannot_place_as_scheduled_runs_in_the_cloud():
    """edgecloud-small-2: the online schedule trains a chunk of j4 after H_j4 (the model has no
    variable there); the start runs j4 entirely in the cloud instead and stays full.  A_online's
    schedule by name: the best one is now pool_greedy's, which has no such chunk."""
    w = Workload.load(_path("edgecloud-small-2"))
    cand = W.best_start(w, "edgecloud", ["a_online"])
    model = get_family("edgecloud").model()(w)
    start = W.encode_schedule("edgecloud", model, w, cand.schedule)
    ec = model._ec
    late = [jv for jv in ec.jobs
            if cand.schedule.rows_for(jv.id)["slot"].max() > ec.horizon_bound(jv)]
    assert late, "the instance no longer exercises this case"
    for jv in late:
        assert start[model.k[jv.index]] == jv.chunks and start[model.zeta[jv.index]] == 1
        assert start[model.c[jv.index]] == ec.horizon_bound(jv)
    chk, _, _ = W.check_start(compile_linear(model), start)
    assert chk.feasible and chk.objective < cand.objective


@pytest.mark.parametrize("kwargs,field", [
    ({"solver": "gurobi"}, "solver"), ({"mip_gap": -0.1}, "mip_gap"),
    ({"mip_gap": math.nan}, "mip_gap"), ({"time_limit": -1}, "time_limit"),
    ({"time_limit": math.inf}, "time_limit"), ({"options": {"no_such_option": 1}},
                                               "options.no_such_option")])
def test_bad_arguments_are_input_errors(kwargs, field):
    _, model, start, _ = _fresh("oasis", _names("oasis", "tiny")[0])
    with pytest.raises(InputError) as err:
        W.solve_warm(model, start, **kwargs)
    assert err.value.field == field


@pytest.mark.parametrize("solver,options", [("scip", {"no/such/param": 1}),
                                            ("cpsat", {"no_such_param": 1}),
                                            ("highs", {"mip_max_nodes": "many"})])
def test_unknown_or_bad_solver_option_is_an_input_error(solver, options):
    pytest.importorskip({"scip": "pyscipopt", "cpsat": "ortools", "highs": "highspy"}[solver])
    _, model, start, _ = _fresh("oasis", _names("oasis", "tiny")[0])
    with pytest.raises(InputError) as err:
        W.solve_warm(model, start, solver, options=options)
    assert err.value.field.startswith("options.")


def test_start_must_be_a_mapping():
    _, model, _, _ = _fresh("oasis", _names("oasis", "tiny")[0])
    with pytest.raises(InputError):
        W.solve_warm(model, [1, 2, 3])


def test_best_start_names_unknown_algorithm_and_family():
    w, _ = _best(_names("oasis", "tiny")[0])
    with pytest.raises(InputError):
        W.best_start(w, "oasis", ["no_such_algorithm"])
    with pytest.raises(InputError):
        W.encoder("no_such_family")


def test_best_start_is_the_best_checked_schedule():
    w, cand = _best("oasis-small-0")
    fam = get_family("oasis")
    for name in sorted(fam.algorithms_):
        try:
            sched = fam.run(name, w, seed=0)
        except InputError:
            continue
        res = fam.check(w, sched)
        if res.feasible:
            assert res.objective <= cand.objective + 1e-9


# ---- where a start comes from (mlopt solve W --warm-start SOURCE) -------------------------
def test_start_from_algorithm_best_and_schedule_file(tmp_path):
    name = "oasis-small-0"
    w, cand = _best(name)
    fam = get_family("oasis")
    model = fam.model()(w)
    start, got = W.start_from(w, "oasis", model, "best")
    assert got.objective == cand.objective
    start, got = W.start_from(w, "oasis", model, "drf")
    assert got.algorithm == "drf" and W.check_start(compile_linear(model), start)[0].feasible
    path = tmp_path / "s.json"
    cand.schedule.save(path)
    start, got = W.start_from(w, "oasis", model, str(path))
    assert _close(got.objective, cand.objective)
    res = W.solve_warm(model, start, "highs", options={"mip_max_nodes": 1})
    assert _not_worse("max", res.objective, cand.objective)


def test_start_from_refuses_an_infeasible_schedule_and_unknown_sources(tmp_path):
    from mlopt.schedule import Schedule

    w, cand = _best("oasis-small-0")
    model = get_family("oasis").model()(w)
    rows = cand.schedule.allocations
    broken = Schedule(cand.schedule.admitted, rows[rows["role"] != "ps"].copy(),
                      dict(cand.schedule.meta))
    path = tmp_path / "broken.json"
    broken.save(path)
    for source in (str(path), broken, "no_such_algorithm", str(tmp_path / "missing.json")):
        with pytest.raises(InputError) as err:
            W.start_from(w, "oasis", model, source)
        assert err.value.field == "warm_start"


def test_highs_banner_does_not_reach_stdout():
    import subprocess
    import sys

    code = ("from mlopt.workload import Workload; from mlopt import warmstart as W; "
            "from mlopt.families import get_family; from pyomo.common.collections import "
            f"ComponentMap; w = Workload.load({str(_path('oasis-tiny-0'))!r}); "
            "m = get_family('oasis').model()(w); W.solve_warm(m, ComponentMap())")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert out.stdout == ""


@settings(max_examples=6, deadline=None, derandomize=True)
@given(st.data())
def test_any_part_of_a_start_is_completed_to_the_optimum(data):
    """Hypothesis, sparingly: a random subset of a full start (harmony: integer and continuous
    columns) is a partial start; HiGHS completes it and proves the verified optimum."""
    name = _names("harmony", "tiny")[0]
    _, model, start, _ = _fresh("harmony", name)
    keys = list(start.keys())
    mask = data.draw(st.lists(st.booleans(), min_size=len(keys), max_size=len(keys)))
    part = ComponentMap((v, start[v]) for v, keep in zip(keys, mask) if keep)
    chk, _, _ = W.check_start(compile_linear(model), part)
    assert chk.given == len(part) and chk.full == all(mask)
    res = W.solve_warm(model, part, "highs", time_limit=60)
    assert res.status == Status.OPTIMAL and _close(res.objective, _solu()[name])


# ---- model variants the committed instances do not cover -----------------------------------
VARIANTS = [("hetero", "tiny-ra", {}, s) for s in range(3)] + \
    [("edgecloud", "tiny", {"storage_gb": [0.05, 0.3], "chunk_gb_scale": 5.0}, s)
     for s in range(3)]


@pytest.mark.parametrize("family,preset,params,seed", VARIANTS)
def test_variant_start_is_full_and_warm_optimum_equals_cold(family, preset, params, seed):
    """Ring-AllReduce hetero (no PS variables) and edge-cloud with binding storage (7)/(8)."""
    from mlopt.solve import solve

    fam = get_family(family)
    w = fam.generate(preset, seed=seed, **params)
    cand = W.best_start(w, family)
    model = fam.model()(w)
    start = W.encode_schedule(family, model, w, cand.schedule)
    chk, _, _ = W.check_start(compile_linear(model), start)
    assert chk.full and chk.feasible, chk.worst_row
    assert _not_worse(fam.sense, chk.objective, cand.objective)
    res = W.solve_warm(model, start, "highs", time_limit=60)
    _check_incumbent(family, w, model, res)
    cold = solve(fam.model()(w), "highs", time_limit=60)
    assert res.status == cold.status == Status.OPTIMAL
    assert _close(res.objective, cold.objective)


def test_highs_answer_that_contradicts_its_own_solution_is_retried_without_presolve():
    """HiGHS 1.16, presolve on, full start on hetero's placement_ti (hetero-tiny-0): it reported
    "optimal" at 8,631.08 (objective and bound) while returning the start's values, whose
    objective is the true optimum 26,162.34.  The warm-start layer re-solves with presolve off
    instead of passing on a status the checker then has to call an error."""
    from mlopt.instances import load_set
    from mlopt.pipeline import solve_offline
    from mlopt.solve import Status

    iset = load_set("hetero-tiny")
    w = iset.load(next(e for e in iset.entries if e.name == "hetero-tiny-0"))
    res = solve_offline(w, model="placement_ti", warm_start="best", time_limit=60)
    assert res.solve.status == Status.OPTIMAL and res.check.feasible
    assert res.objective == pytest.approx(26162.34) and res.solve.bound == pytest.approx(26162.34)


def test_an_inconsistent_highs_answer_never_passes_its_bound(monkeypatch):
    """Both solves contradict their own solution: the objective is recomputed from the values
    and no bound is passed on."""
    import numpy as np

    import mlopt.warmstart as ws

    class Form:
        c = np.array([1.0, 2.0])
        c0 = 0.5

    calls = []

    def liar(form, x, given, full_ok, time_limit, mip_gap, threads, options):
        calls.append(dict(options or {}))
        return "optimal", 1.0, 1.0, np.array([1.0, 1.0]), "Optimal"

    monkeypatch.setattr(ws, "_highs_once", liar)
    kind, obj, bound, _, name = ws._highs(Form(), None, None, True, 10.0, 0.0, 1, {})
    assert calls[1] == {"presolve": "off"} and len(calls) == 2
    assert (kind, obj, bound) == ("other", 3.5, None) and "disagreed" in name  # 1 + 2 + 0.5


def test_a_run_ending_in_an_error_passes_no_bound(monkeypatch):
    """A solver run that ended neither proven optimal nor at a limit (HiGHS's "Solve error")
    with an incumbent: the incumbent is kept as feasible, its bound is dropped (it may rest on
    wrong pruning), so no gap is claimed."""
    import numpy as np
    import pyomo.environ as pyo

    import mlopt.warmstart as ws
    from mlopt.solve import Status

    m = pyo.ConcreteModel()
    m.x = pyo.Var(within=pyo.Binary)
    m.y = pyo.Var(within=pyo.Binary)
    m.c = pyo.Constraint(expr=m.x + m.y <= 1)
    m.o = pyo.Objective(expr=m.x + 2 * m.y, sense=pyo.maximize)

    def erring(form, x, given, full_ok, time_limit, mip_gap, threads, options):
        return "other", 1.0, 1.5, np.array([1.0, 0.0]), "Solve error"

    monkeypatch.setattr(ws, "_highs", erring)
    res = ws.solve_warm(m, {}, "highs", time_limit=10)
    assert res.status == Status.FEASIBLE and res.objective == 1.0
    assert res.bound is None and res.gap == math.inf
    monkeypatch.setattr(ws, "_highs", lambda *a: ("limit", 1.0, 1.5, np.array([1.0, 0.0]),
                                                  "Time limit reached"))
    res = ws.solve_warm(m, {}, "highs", time_limit=10)
    assert res.status == Status.FEASIBLE and res.bound == 1.5  # a limit keeps its bound


def test_trusted_bound_only_after_an_optimum_or_a_limit():
    from mlopt.solvers.result import trusted_bound

    assert trusted_bound(3.0, True, False) == 3.0
    assert trusted_bound(3.0, False, True) == 3.0
    assert trusted_bound(3.0, False, False) is None

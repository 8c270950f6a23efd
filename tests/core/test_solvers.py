"""Solver backends (scip, cpsat, gurobi beside highs), CP-SAT's integer mapping, the benchmark."""
from __future__ import annotations

import itertools
import math

import numpy as np
import pyomo.environ as pyo
import pytest

from mlopt.errors import InputError
from mlopt.solve import OPTIMALITY_ABS_TOL, OPTIMALITY_GAP_TOL, Status, solve
from mlopt.solvers import BACKENDS, available_backends
from mlopt.harness import solver_bench as bench
from mlopt.solvers._matrix import compile_linear
from mlopt.solvers.cpsat import ROW_RELAX_TOL, integer_rows, scale_objective

SOLVERS = available_backends()
NEW = ["scip", "cpsat", "gurobi"]


def _need(name):
    if name not in SOLVERS:
        pytest.skip(f"{name} is not available here")


def _agree(a: float, b: float) -> bool:
    return abs(a - b) <= max(OPTIMALITY_ABS_TOL, OPTIMALITY_GAP_TOL * max(abs(a), abs(b))) * 2


# ---- small MILPs with brute-force optima ------------------------------------------------------


def _model_real_max():
    """max with real objective and real row coefficients, a range row and a fractional binary."""
    m = pyo.ConcreteModel()
    m.x = pyo.Var([1, 2, 3], domain=pyo.NonNegativeIntegers, bounds=(0, 6))
    m.y = pyo.Var(domain=pyo.Binary)
    m.o = pyo.Objective(expr=1.37 * m.x[1] + 0.3 * m.x[2] + math.pi * m.y + 2.5 - 0.71 * m.x[3],
                        sense=pyo.maximize)
    m.c1 = pyo.Constraint(expr=pyo.inequality(1, m.x[1] + 2 * m.x[2] + 3 * m.y, 8.5))
    m.c2 = pyo.Constraint(expr=m.x[1] - m.x[3] <= 2.5)
    m.c3 = pyo.Constraint(expr=m.x[1] + m.x[2] >= 3.14159 * m.y)  # one fractional binary
    m.c4 = pyo.Constraint(expr=0.1 * m.x[1] + 2 ** 0.5 * m.x[2] <= 4.2)  # irrational coefficient
    return m


def _model_min_eq():
    """min with an equality, negative bounds, a fixed variable and an unused variable."""
    m = pyo.ConcreteModel()
    m.x = pyo.Var([1, 2], domain=pyo.Integers, bounds=(-4, 4))
    m.z = pyo.Var(domain=pyo.Binary)
    m.f = pyo.Var(domain=pyo.Integers)
    m.f.fix(2)
    m.unused = pyo.Var(domain=pyo.Integers, bounds=(3, 5))
    m.o = pyo.Objective(expr=0.25 * m.x[1] - 1.5 * m.x[2] + 4 * m.z + m.f)
    m.e = pyo.Constraint(expr=m.x[1] + m.x[2] + m.z == m.f + 1)
    m.r = pyo.Constraint(expr=2 * m.x[1] - m.x[2] >= -3 - 5 * m.z)
    return m


def _brute_force(model) -> float:
    form = compile_linear(model)
    ranges = [range(int(lo), int(hi) + 1) for lo, hi in zip(form.col_lb, form.col_ub)]
    best = None
    for point in itertools.product(*ranges):
        x = np.array(point, dtype=float)
        if form.max_violation(x) <= 1e-9:
            v = form.objective(x)
            if best is None or (v > best if form.sense == "max" else v < best):
                best = v
    return best


def _check_loaded(model, objective):
    """The values loaded onto the Pyomo variables satisfy every row and give ``objective``."""
    for con in model.component_data_objects(pyo.Constraint, active=True):
        body = pyo.value(con.body)
        if con.has_lb():
            assert body >= pyo.value(con.lower) - 1e-6, con.name
        if con.has_ub():
            assert body <= pyo.value(con.upper) + 1e-6, con.name
    for v in compile_linear(model).columns:
        assert v.value is not None, v.name
        if v.is_integer():
            assert v.value == round(v.value), v.name
    obj = next(model.component_data_objects(pyo.Objective, active=True))
    assert _agree(pyo.value(obj), objective)


@pytest.mark.parametrize("build", [_model_real_max, _model_min_eq])
def test_all_solvers_find_the_brute_force_optimum(build):
    expected = _brute_force(build())
    assert len(SOLVERS) >= 3, f"highs, scip and cpsat expected (dev extra), found {SOLVERS}"
    for s in SOLVERS:
        m = build()
        res = solve(m, s)
        assert res.status == Status.OPTIMAL, (s, res)
        assert _agree(res.objective, expected), (s, res.objective, expected)
        assert res.bound is not None and _agree(res.bound, expected), (s, res.bound)
        assert res.solver == s and res.solver_version and res.runtime_s > 0
        _check_loaded(m, res.objective)


def test_highs_thread_counts_may_change_from_solve_to_solve():
    # HiGHS sizes one worker pool per process at its first run and fails (kError) any later
    # run asking for another count; which count came first depended on the machine (HiGHS's
    # own choice is half its cores), so on a CI machine every later one-thread solve failed
    import highspy

    from mlopt.solvers.quiet_highs import quiet_highs, run_highs

    for threads in (2, 1, None, 2, 1):
        res = solve(_model_real_max(), "highs", threads=threads)
        assert res.status == Status.OPTIMAL, (threads, res.status)
        h = quiet_highs()  # the highspy path: max x s.t. x <= 1 (as min -x)
        h.addVar(0.0, 1.0)
        h.changeColCost(0, -1.0)
        if threads is not None:
            h.setOptionValue("threads", threads)
        assert run_highs(h) == highspy.HighsStatus.kOk
        assert h.getModelStatus() == highspy.HighsModelStatus.kOptimal


def test_infeasible_model_is_reported_as_such():
    for s in SOLVERS:
        m = pyo.ConcreteModel()
        m.x = pyo.Var([1, 2], domain=pyo.Binary)
        m.o = pyo.Objective(expr=m.x[1] + m.x[2], sense=pyo.maximize)
        m.c = pyo.Constraint(expr=2 * m.x[1] + 2 * m.x[2] == 3)
        res = solve(m, s)
        assert res.status == Status.INFEASIBLE, (s, res)
        assert res.objective is None


def _hard(n=40, m=5, seed=0):
    rng = np.random.default_rng(seed)
    A = rng.integers(20, 80, size=(m, n))
    c = A.sum(0) / m + rng.uniform(0, 5, size=n)
    b = A.sum(1) // 2
    M = pyo.ConcreteModel()
    M.x = pyo.Var(range(n), domain=pyo.Binary)
    M.o = pyo.Objective(expr=sum(float(c[j]) * M.x[j] for j in range(n)), sense=pyo.maximize)
    M.c = pyo.Constraint(range(m), rule=lambda M_, i: sum(
        int(A[i, j]) * M.x[j] for j in range(n)) <= int(b[i]))
    return M


def test_time_limit_gives_feasible_or_no_solution_never_optimal_with_a_gap():
    # a 40-item, 5-row knapsack none of the solvers proves within half a second here
    for s in SOLVERS:
        res = solve(_hard(), s, time_limit=0.5)
        assert res.status in (Status.FEASIBLE, Status.NO_SOLUTION), (s, res)
        if res.status == Status.FEASIBLE:
            assert res.bound is not None and res.bound >= res.objective
            assert res.gap > OPTIMALITY_GAP_TOL
        assert res.runtime_s < 30


def test_optimal_is_never_claimed_with_an_open_gap_even_if_the_solver_says_so():
    # mip_gap=0.05 lets every solver stop early and call it "optimal"; our status must not
    for s in SOLVERS:
        res = solve(_hard(), s, mip_gap=0.05, time_limit=20)
        if res.status == Status.OPTIMAL:
            assert res.gap <= OPTIMALITY_GAP_TOL or abs(res.bound - res.objective) <= 1e-6
        else:
            assert res.status == Status.FEASIBLE and res.gap > OPTIMALITY_GAP_TOL


def test_unknown_solver_is_an_input_error():
    with pytest.raises(InputError) as err:
        solve(_model_min_eq(), "no-such-solver")
    assert err.value.field == "solver" and err.value.value == "no-such-solver"


def test_registry_and_capabilities():
    assert {"highs", "scip", "cpsat", "gurobi"} <= set(BACKENDS)
    assert BACKENDS["cpsat"].capabilities.lp is False  # no continuous variables
    for name in NEW:
        caps = BACKENDS[name].capabilities
        assert caps.mip and caps.dual_bound and caps.time_limit and caps.threads


def test_gurobi_is_unavailable_without_a_licence_or_agrees():
    if "gurobi" not in SOLVERS:
        with pytest.raises(InputError) as err:
            solve(_model_min_eq(), "gurobi")
        assert err.value.field == "solver"
    else:  # pragma: no cover - needs a licence
        assert solve(_model_min_eq(), "gurobi").status == Status.OPTIMAL


def test_scip_concurrent_threads():
    _need("scip")
    res = solve(_model_real_max(), "scip", threads=2)
    assert res.status == Status.OPTIMAL
    assert _agree(res.objective, _brute_force(_model_real_max()))
    assert res.options["threads"] == 2


# ---- CP-SAT: faithful or refused -----------------------------------------------------------------


def test_cpsat_refuses_continuous_variables():
    _need("cpsat")
    m = _model_min_eq()
    m.w = pyo.Var(bounds=(0, 1))
    m.cw = pyo.Constraint(expr=m.w + m.x[1] <= 3)
    with pytest.raises(InputError) as err:
        solve(m, "cpsat")
    assert err.value.field == "solver" and "w" in str(err.value)


def test_cpsat_uses_implied_bounds_and_refuses_unbounded_integers():
    _need("cpsat")
    m = pyo.ConcreteModel()
    m.x = pyo.Var([1, 2], domain=pyo.NonNegativeIntegers)  # no upper bound given
    m.o = pyo.Objective(expr=0.5 * m.x[1] + 0.7 * m.x[2], sense=pyo.maximize)
    m.c = pyo.Constraint(expr=3 * m.x[1] + 4 * m.x[2] <= 13)
    res = solve(m, "cpsat")
    ref = solve(m, "highs")
    assert res.status == Status.OPTIMAL and _agree(res.objective, ref.objective)
    m.c.deactivate()
    m.c2 = pyo.Constraint(expr=m.x[1] - m.x[2] <= 1)
    with pytest.raises(InputError):
        solve(m, "cpsat")


def _points(lb, ub):
    return itertools.product(*[range(int(l), int(u) + 1) for l, u in zip(lb, ub)])


def _feasible_int(rows, x):
    return all((lo == -math.inf or np.dot(c, x) >= lo) and (hi == math.inf or np.dot(c, x) <= hi)
               for _, c, lo, hi in rows)


@pytest.mark.parametrize("a,lo,hi,binary,rule", [
    ([0.3, 0.7, -1.0], 0.5, 2.1, [False, False, False], "exact"),  # decimal scaling
    ([1.0, 1.0, -3.2846138], 0.0, math.inf, [False, False, True], "exact"),  # fractional binary
    ([1.0, 2.0, -2.7182818], -1.0, 1.0, [False, False, True], "exact"),  # ... ranged
    ([1.0, -1.0, 0.4142135623730951], 0.0, 0.0, [False, False, True], "exact"),  # ... equality
    ([0.1, 2 ** 0.5, 1.0], -math.inf, 4.2, [False, False, False], "relaxed"),  # irrational
])
def test_integer_rows_match_the_real_row_on_every_integer_point(a, lo, hi, binary, rule):
    lb = np.array([0.0, 0.0, 0.0])
    ub = np.array([3.0, 3.0, 1.0])
    rows, relaxed = integer_rows(np.arange(3), np.array(a), lo, hi, lb, ub, np.array(binary))
    assert relaxed == (rule == "relaxed")
    for coefs in (r[1] for r in rows):
        assert all(isinstance(v, int) for v in coefs)
    for p in _points(lb, ub):
        x = np.array(p, dtype=float)
        act = float(np.dot(a, x))
        real = (lo - 1e-12 <= act) and (act <= hi + 1e-12)
        mapped = _feasible_int(rows, x)
        if rule == "exact":
            assert mapped == real, (p, act)
        else:  # a relaxation: keeps every feasible point, admits only eps-violations
            assert mapped or not real, p
            if mapped:
                assert act <= hi + ROW_RELAX_TOL and act >= lo - ROW_RELAX_TOL, p


def test_scale_objective_delta_bounds_the_rounding_error():
    rng = np.random.default_rng(5)
    c = rng.normal(size=12) * 50
    box = rng.integers(1, 9, size=12).astype(float)
    scale, ci, delta, exact = scale_objective(c, box)
    assert not exact and delta <= 1e-7 and scale == 2 ** round(math.log2(scale))
    for _ in range(200):
        x = np.round(rng.uniform(-box, box))
        assert abs(c @ x - np.dot(ci, x) / scale) <= delta + 1e-12
    s2, ci2, d2, ex2 = scale_objective(np.array([0.25, 1.5, -3.0]), np.ones(3))
    assert ex2 and s2 == 100 and ci2 == [25, 150, -300] and d2 == 0.0


def test_cpsat_coarse_objective_scale_is_not_claimed_optimal():
    """With S_obj = 1 the real utilities are rounded to integers: CP-SAT still proves the integer
    optimum, but the mapped bound must stay valid and the status must not be 'optimal'."""
    _need("cpsat")
    ref = solve(_model_real_max(), "highs")
    res = solve(_model_real_max(), "cpsat", options={"objective_scale": 1.0})
    assert res.termination == "OPTIMAL"  # CP-SAT's own word
    assert res.status == Status.FEASIBLE  # ours: the real gap is open
    assert res.options["objective_delta"] > 1e-3
    assert res.bound >= ref.objective - 1e-9  # still a valid upper bound
    assert res.objective <= ref.objective + 1e-9


# ---- OASiS instances: all solvers agree, the checker accepts ----------------------------------


def _oasis():
    gen = pytest.importorskip("mlopt.families.oasis.generator")
    mod = pytest.importorskip("mlopt.models.oasis")
    chk = pytest.importorskip("mlopt.families.oasis.checker")
    return gen.generate, mod.build_utility_ilp, mod.extract_schedule, chk.check_oasis


@pytest.mark.parametrize("preset,seed", [("tiny", 0), ("tiny", 1), ("tiny", 2),
                                         ("paper-fig5", 3)])
def test_oasis_all_solvers_agree_and_schedules_check(preset, seed):
    generate, build, extract, check = _oasis()
    w = generate(preset, seed)
    results = {}
    for s in SOLVERS:
        m = build(w)
        res = solve(m, s, time_limit=60)
        assert res.status == Status.OPTIMAL, (s, res)
        verdict = check(w, extract(m, w))
        assert verdict.feasible, (s, verdict.summary())
        assert _agree(verdict.objective, res.objective), (s, verdict.objective, res.objective)
        results[s] = res.objective
    ref = results["highs"]
    for s, v in results.items():
        assert _agree(v, ref), f"{s} optimum {v} disagrees with highs {ref}"


# ---- benchmark report math --------------------------------------------------------------------


def test_shifted_geomean_by_hand():
    # (11 * 20 * 110) ** (1/3) - 10
    assert bench.shifted_geomean([1, 10, 100], shift=10) == pytest.approx(24200 ** (1 / 3) - 10)
    assert bench.shifted_geomean([5.0]) == pytest.approx(5.0)
    assert math.isnan(bench.shifted_geomean([]))
    with pytest.raises(ValueError):
        bench.shifted_geomean([math.inf])


def test_performance_profile_on_a_2x2_toy():
    times = np.array([[1.0, 2.0],
                      [4.0, np.inf]])  # solver B fails problem 2
    r = bench.performance_ratios(times)
    assert r.tolist() == [[1.0, 2.0], [1.0, math.inf]]
    rho = bench.performance_profile(r, [1.0, 1.5, 2.0, 100.0])
    assert rho[0].tolist() == [1.0, 1.0, 1.0, 1.0]
    assert rho[1].tolist() == [0.0, 0.0, 0.5, 0.5]
    # a problem nobody solved counts against everyone
    r2 = bench.performance_ratios([[np.inf, np.inf], [3.0, 6.0]])
    assert bench.performance_profile(r2, [2.0])[:, 0].tolist() == [0.5, 0.5]


def test_summary_counts_unsolved_at_the_time_limit():
    import pandas as pd

    df = pd.DataFrame({
        "time_limit": [10.0] * 4, "threads": [1] * 4, "solver": ["a", "a", "b", "b"],
        "instance": ["p", "q", "p", "q"], "status": ["optimal", "feasible", "optimal",
                                                    "no_solution"],
        "runtime_s": [1.0, 10.2, 2.0, 10.1], "gap": [0.0, 0.25, 0.0, None],
        "objective": [1.0, 2.0, 1.0, None], "check_feasible": [True, True, True, None]})
    s = bench.summarize(df).set_index("solver")
    assert s.loc["a", "optimal"] == 1 and s.loc["b", "no_incumbent"] == 1
    assert s.loc["a", "sgm_runtime_s"] == pytest.approx(bench.shifted_geomean([1.0, 10.0]))
    assert s.loc["a", "median_gap_open"] == pytest.approx(0.25)
    assert s.loc["a", "checked_feasible"] == "2/2"


def test_optimum_spread_flags_disagreements():
    import pandas as pd

    df = pd.DataFrame({"instance": ["p", "p", "q", "q", "q"],
                       "status": ["optimal", "optimal", "optimal", "optimal", "feasible"],
                       "objective": [100.0, 100.00000001, 50.0, 50.5, 70.0]})
    s = bench.optimum_spread(df).set_index("instance")
    assert s.loc["p", "spread"] == pytest.approx(1e-10, abs=1e-12)
    assert s.loc["q", "spread"] == pytest.approx(0.5 / 50.5) and s.loc["q", "solvers"] == 2


@pytest.mark.parametrize("patch,field", [
    ({"name": ""}, "name"),
    ({"solvers": ["highs", "nope"]}, "solvers"),
    ({"time_limits": [0]}, "time_limits"),
    ({"threads": [0]}, "threads"),
    ({"mip_gap": -1}, "mip_gap"),
    ({"instances": [{"preset": "tiny", "seeds": [-1]}]}, "seeds"),
    ({"instances": [{"seeds": [1]}]}, "instances[0]"),
    ({"bogus": 1}, "bogus"),
])
def test_bad_spec_names_the_field(patch, field):
    spec = {"name": "x", "family": "oasis", "solvers": ["highs"], "time_limits": [5],
            "instances": [{"preset": "tiny", "seeds": [0]}], **patch}
    with pytest.raises(InputError) as err:
        bench.parse_spec(spec, file="spec.toml")
    assert err.value.field == field and err.value.file == "spec.toml"


def test_bench_runs_checks_resumes_and_reports(tmp_path):
    _oasis()
    spec_path = tmp_path / "spec.toml"
    spec_path.write_text('name = "t"\nfamily = "oasis"\nsolvers = ["highs", "scip"]\n'
                         'time_limits = [20]\n'
                         'output = "out"\n[[instances]]\npreset = "tiny"\nseeds = [0]\n')
    spec = bench.load_spec(spec_path)
    assert spec.output == tmp_path / "out"
    df = bench.run_bench(spec, log=None)
    assert len(df) == 2 and tuple(df.columns) == bench.COLUMNS
    assert set(df["status"]) == {"optimal"} and df["check_feasible"].all()
    assert (df["build_s"] > 0).all() and df["content_hash"].str.len().min() > 0
    again = bench.run_bench(spec, log=None)  # resumes: nothing is re-run
    assert again["timestamp"].tolist() == df["timestamp"].tolist()
    report = bench.write_report(df, spec.output)
    text = report.read_text()
    assert "| highs | 1 | 1 |" in text and "- machine:" in text
    assert (spec.output / "profile_tl20_th1.png").stat().st_size > 0
    if (spec.output / "results.sqlite").exists():
        from mlopt.harness.store import ResultStore

        with ResultStore(spec.output / "results.sqlite") as store:
            assert len(store) == 2


def _three_quarters():
    # max x + y/2, x binary, y integer in [0, 3], x + y <= 1.7: the optimum is 1 (x = 1),
    # the other points are 0 and 0.5 (y = 1)
    m = pyo.ConcreteModel()
    m.x = pyo.Var(domain=pyo.Binary)
    m.y = pyo.Var(domain=pyo.NonNegativeIntegers, bounds=(0, 3))
    m.c = pyo.Constraint(expr=m.x + m.y <= 1.7)
    m.o = pyo.Objective(expr=m.x + 0.5 * m.y, sense=pyo.maximize)
    return m


@pytest.mark.skipif("scip" not in available_backends(), reason="SCIP not installed")
@pytest.mark.parametrize("limit,status", [(1.5, Status.INFEASIBLE), (1.0, Status.INFEASIBLE),
                                          (0.5, Status.OPTIMAL)])
def test_scip_objlimit_accepts_only_strictly_better_solutions(limit, status):
    # the optimum 1 is not strictly better than a limit of 1.0 or 1.5: "infeasible"; above
    # 0.5 it is found and proven
    res = solve(_three_quarters(), "scip", options={"objlimit": limit})
    assert res.status == status
    if status == Status.OPTIMAL:
        assert res.objective == pytest.approx(1.0)


@pytest.mark.skipif("scip" not in available_backends(), reason="SCIP not installed")
@pytest.mark.parametrize("bad", ["high", math.inf, True])
def test_scip_objlimit_must_be_a_finite_number(bad):
    with pytest.raises(InputError) as err:
        solve(_three_quarters(), "scip", options={"objlimit": bad})
    assert err.value.field == "options.objlimit"


@pytest.mark.skipif("scip" not in available_backends(), reason="SCIP not installed")
def test_scip_objlimit_infeasible_says_what_it_means():
    # the optimum 1 is better than a limit of 1 - 1e-9, yet SCIP's tolerance prunes it:
    # "infeasible", and the message says it is the limit's word, not the model's
    res = solve(_three_quarters(), "scip", options={"objlimit": 1.0 - 1e-9})
    assert res.status == Status.INFEASIBLE and "objlimit" in res.message
    assert "not a proof that the model is infeasible" in res.message
    assert solve(_three_quarters(), "scip", options={"objlimit": 0.5}).message == ""


@pytest.mark.skipif("scip" not in available_backends(), reason="SCIP not installed")
def test_scip_objlimit_is_refused_with_a_warm_start():
    # before: the option check passed it, then setParam("objlimit") failed as "not a SCIP
    # parameter"; a start no better than the limit has no honest reading there
    from pyomo.common.collections import ComponentMap

    from mlopt.warmstart import solve_warm

    m = _three_quarters()
    with pytest.raises(InputError) as err:
        solve_warm(m, ComponentMap([(m.x, 1), (m.y, 0)]), "scip", options={"objlimit": 0.5})
    assert err.value.field == "options.objlimit" and err.value.value == 0.5
    assert "warm start" in err.value.message

"""A solver's bound confirmed by a second solver (issue 22, eighth round): ``_proof``'s rules,
``class_relaxation``'s ``confirm``, the bracket from a start that closes through it (and stays
an interval when the second solver does not confirm), the time split, and the solu row."""
from __future__ import annotations

import importlib
from types import SimpleNamespace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mlopt.bracket import Bracket, Source, _proof, _State, bracket
from mlopt.errors import InputError
from mlopt.families import get_family
from mlopt.schedule import Schedule
from tests.oasis.test_class_relaxation_oasis import split_bins

# the module (the package re-exports its function under the same name)
cr = importlib.import_module("mlopt.families.oasis.bounds.class_relaxation")


def _twenty() -> Schedule:
    """split_bins with b and c in slot 1, one worker server each, a rejected: 10 + 10 = 20
    (OPT = 27: a runs in slot 2 with f(1) = 7)."""
    return Schedule.from_rows(["b", "c"], [("b", 1, "w1", "worker", 1), ("b", 1, "p1", "ps", 1),
                                           ("c", 1, "w2", "worker", 1), ("c", 1, "p1", "ps", 1)],
                              {"producer": "hand"})


# ---- _proof's rules, on a state built by hand -----------------------------------------------

def _state(*sources, solver_bound=True):
    bounds = {"milp": SimpleNamespace(solver=solver_bound), "theorem": SimpleNamespace(solver=False)}
    st = _State(SimpleNamespace(sense="max", bounds_=bounds), None)
    for s in sources:
        st.add(s)
    return st


def _primal(v):
    return Source("start", "primal", v, "ok", 0.0)


def test_a_solver_bound_met_closes_nothing_alone():
    st = _state(_primal(100.0), Source("milp", "dual", 100.0, "ok", 1.0))
    assert st.closed() and _proof(st, None, "highs") is None


def test_a_theorem_bound_met_by_a_schedule_proves():
    st = _state(_primal(100.0), Source("theorem", "dual", 100.0, "ok", 1.0))
    proof, by = _proof(st, None, "highs")
    assert "meets certified bound theorem" in proof and by is None


@pytest.mark.parametrize("level,proves", [
    (100.0 + 0.999e-4, True),   # 100 (1 + 0.999e-6): within the 1e-6 tolerance
    (100.0 + 1.5e-4, False),    # 1.5e-6 relative: too far, only an interval
    (99.9, False),              # below the schedule: says nothing about OPT's upper side
])
def test_a_confirmed_solver_bound_proves_within_the_tolerance(level, proves):
    # the bound 100.00005 is HiGHS's; the second solver found nothing at or beyond the level
    st = _state(_primal(100.0), Source("milp", "dual", 100.00005, "ok", 1.0,
                                       verified_by="scip 10", confirmed_at=level))
    assert st.closed() is proves
    got = _proof(st, None, "highs")
    if proves:
        assert got[1] == "scip 10" and "confirmed by scip 10" in got[0]
    else:
        assert got is None


def test_a_confirmed_level_just_below_the_schedule_is_no_proof():
    # within 1e-6 of the schedule but below it (OPT >= the schedule): says nothing about OPT's
    # upper side (the gap check alone would let it through; from the review's mutation E)
    st = _state(_primal(100.0), Source("milp", "dual", 100.00005, "ok", 1.0,
                                       verified_by="scip 10", confirmed_at=100.0 - 0.5e-4))
    assert not st.closed() and _proof(st, None, "highs") is None


@pytest.mark.parametrize("source", [
    Source("milp", "dual", 90.0, "ok", 1.0, verified_by="scip 10", confirmed_at=100.00005),
    Source("theorem", "dual", 90.0, "ok", 1.0),
])
def test_a_bound_beyond_a_checked_schedule_is_disputed_never_optimal(source):
    """A max family's bound below a checked schedule (found by the review: a model stricter
    than the checker gave [10, 1.0] ``optimal``, and with a confirmed source [10, 10.000005]):
    crossed, not closed, no proof, and the bracket says ``disputed``."""
    st = _state(_primal(100.0), source)
    assert st.crossed() and not st.closed() and _proof(st, None, "highs") is None
    within = _state(_primal(100.0), Source("theorem", "dual", 100.0 - 0.5e-7, "ok", 1.0))
    assert not within.crossed() and within.closed()  # float noise within CLOSED_TOL


def test_a_crossed_bracket_is_reported_disputed_and_not_recorded(tmp_path, monkeypatch):
    """End to end: a bound method that returns less than a checked schedule (a stand-in for
    a wrong model) makes the bracket ``disputed``; ``instances bracket --update-solu`` reports
    the row and leaves solu.csv as it was."""
    import mlopt.bracket as mb
    from mlopt.instances import bracket_set, load_set, read_solu, write_solu

    monkeypatch.setattr(mb, "compute_bound", lambda *a, **k: 1.0)  # far below any schedule
    iset = load_set("oasis-tiny")
    iset.entries = iset.entries[:1]
    b = bracket(iset.load(iset.entries[0]), time_limit=20, exact=False, bounds=["colgen"],
                algorithms=["oasis"])  # OASiS's schedule on tiny-0: 137.93
    assert b.status == "disputed" and "lies beyond the checked schedule" in b.proof
    assert b.verified_by is None and b.low > b.high  # max family: schedule above the bound
    path = tmp_path / "solu.csv"
    name = iset.entries[0].name
    write_solu({name: read_solu()[name]}, path)
    before = path.read_text()
    rows = bracket_set(iset, time_limit=20, update_solu=True, solu_path=path,
                       bounds=["colgen"], algorithms=["oasis"], exact=False)
    assert rows[0]["bracket_status"] == "disputed" and path.read_text() == before


def test_a_confirmation_of_an_unregistered_bound_is_not_a_proof():
    # lp_relaxation (the exact model's own relaxation) is not a registered bound
    st = _state(_primal(100.0), Source("lp_relaxation", "dual", 100.00005, "ok", 1.0,
                                       verified_by="scip 10", confirmed_at=100.00005))
    assert _proof(st, None, "highs") is None


def test_the_exact_optimum_verified_by_a_second_solver_proves():
    st = _state(_primal(100.0), Source("model (highs)", "exact", None, "ok", 1.0, bound=100.0))
    assert _proof(st, {"verified_by": "scip 10"}, "highs") == (
        "highs optimum verified by scip 10", "scip 10")
    assert _proof(st, {"verified_by": None}, "highs") is None


# ---- class_relaxation's confirm ---------------------------------------------------------------

def test_class_relaxation_confirms_with_scip_by_hand():
    wl = split_bins()
    # from the 20 schedule the cutoff loop (on by default with a start) proves 27; SCIP is
    # asked whether a merged solution reaches 27 + 0.999e-6 x 27 = 27.000026973: it does not
    rel = cr.class_relaxation(wl, time_limit=30, warm_start=_twenty())
    assert rel["cutoff_value"] is not None  # cutoff="auto" with a start
    assert rel["proven"] and rel["feasible_objective"] == pytest.approx(27.0)
    assert rel["confirm"]["level"] == pytest.approx(27.000026973, abs=1e-9)
    assert rel["confirm"]["status"] == "infeasible" and rel["confirm"]["confirmed"]
    assert rel["verified_by"].startswith("scip")
    # no start: no cutoff row; the merged optimum packs, proven, and confirmed all the same
    cold = cr.class_relaxation(wl, time_limit=30)
    assert cold["cutoff_value"] is None and cold["verified_by"].startswith("scip")
    # not asked, or asked the first solver again: no second word
    for confirm in (None, "highs"):
        off = cr.class_relaxation(wl, time_limit=30, confirm=confirm)
        assert off["proven"] and off["verified_by"] is None and off["confirm"] is None


def test_a_second_solver_stopped_at_its_limit_confirms_nothing():
    # SCIP given no time (its own limits/time 0): no answer is no confirmation
    wl = split_bins()
    rel = cr.class_relaxation(wl, time_limit=30, warm_start=_twenty(),
                              confirm_options={"limits/time": 0.0})
    assert rel["proven"] and rel["verified_by"] is None
    assert rel["confirm"]["status"] != "infeasible" and not rel["confirm"]["confirmed"]


@pytest.mark.parametrize("status,confirmed", [("infeasible", True), ("feasible", False),
                                              ("optimal", False), ("no_solution", False),
                                              ("error", False)])
def test_only_the_second_solvers_infeasible_confirms(monkeypatch, status, confirmed):
    # a solution at or above the level (feasible, optimal) contradicts the first solver; a
    # limit or an error says nothing
    asked = {}

    def second(m, solver, **kw):
        asked[solver] = kw["options"]
        return SimpleNamespace(status=SimpleNamespace(value=status), solver=solver,
                               solver_version="x", bound=None, objective=None)
    monkeypatch.setattr(cr, "solve", second)
    m, _, _ = cr.build_class_relaxation(split_bins())
    got = cr.confirm_infeasible(m, 27.0, "scip")
    assert got["confirmed"] is confirmed and got["status"] == status
    # SCIP: no row; its objective limit sits 1e-7 x 27 below the level c = 27 (1 + 0.999e-6)
    assert got["level"] == pytest.approx(27.000026973, abs=1e-9)
    assert asked["scip"]["objlimit"] == pytest.approx(27.000024273, abs=1e-9)
    assert not hasattr(m, "cutoff_value")
    # any other solver: the cutoff row at c
    got = cr.confirm_infeasible(m, 27.0, "highs")
    assert got["confirmed"] is confirmed and "objlimit" not in asked["highs"]
    assert m.cutoff_value.value == pytest.approx(27.000026973, abs=1e-9)  # a row was added


def test_scip_under_its_objective_limit_finds_a_solution_at_the_level():
    # the margin is wide enough: a merged solution worth exactly c (here the model's optimum
    # itself, asked about with value = OPT / (1 + 0.999e-6)) is found, not pruned
    m, _, _ = cr.build_class_relaxation(split_bins())
    opt = 27.0  # split_bins' class relaxation optimum (test_a_bracket_from_a_start_...)
    got = cr.confirm_infeasible(m, opt / (1 + cr.CONFIRM_STEP), "scip", time_limit=60)
    assert not got["confirmed"] and got["status"] in ("optimal", "feasible")
    assert got["objective"] == pytest.approx(opt)
    got = cr.confirm_infeasible(m, opt, "scip", time_limit=60)  # above the optimum: none
    assert got["confirmed"] and got["objlimit"] < got["level"]


@pytest.mark.parametrize("field,value", [("confirm", 3), ("confirm", "nosuchsolver"),
                                         ("cutoff", "sometimes")])
def test_bad_confirm_inputs_are_one_input_error(field, value):
    with pytest.raises(InputError) as err:
        cr.class_relaxation(split_bins(), **{field: value})
    assert err.value.value == value


# ---- the bracket -----------------------------------------------------------------------------

def test_a_bracket_from_a_start_closes_through_the_confirmed_bound():
    wl = split_bins()
    b = bracket(wl, family="oasis", time_limit=60, algorithms=[], bounds=["class_relaxation"],
                start_schedule=_twenty())
    assert b.status == "optimal", b.to_dict()
    assert b.verified_by.startswith("scip") and "confirmed by scip" in b.proof
    assert b.low == pytest.approx(27.0) and b.high == pytest.approx(27.0, rel=1e-6)
    src = {s.name: s for s in b.sources}
    # the time split: the exact model is not started, its core went to the bound
    assert src["utility_ilp (highs)"].status == "skipped"
    assert "proves from the start schedule" in src["utility_ilp (highs)"].note
    assert src["class_relaxation"].confirmed_at == pytest.approx(27.000026973, abs=1e-9)
    assert get_family("oasis").check(wl, b.schedule).objective == pytest.approx(27.0)


def test_without_a_confirmation_the_bracket_stays_an_interval(monkeypatch):
    # the second solver times out (its answer replaced here, in the forked child too): the
    # loop's proof (the merged optimum 27 packs: bound 27 = the schedule) is HiGHS's word
    # only -- a closed interval, not "optimal"
    def timeout(m, value, solver, **kw):
        return {"solver": solver, "status": "no_solution", "level": cr.confirm_level(value),
                "bound": 30.0, "objective": None, "runtime_s": 0.0, "confirmed": False}
    monkeypatch.setattr(cr, "confirm_infeasible", timeout)
    b = bracket(split_bins(), family="oasis", time_limit=60, algorithms=[],
                bounds=["class_relaxation"], start_schedule=_twenty())
    assert b.status == "interval" and b.verified_by is None and b.proof is None
    assert b.low == pytest.approx(27.0) and b.high == pytest.approx(27.0)
    assert all(s.verified_by is None for s in b.sources)


def test_without_a_start_the_exact_model_runs_as_before():
    b = bracket(split_bins(), family="oasis", time_limit=60, algorithms=["fifo"],
                bounds=["class_relaxation"])
    exact = [s for s in b.sources if s.kind == "exact"]
    assert exact and exact[0].status != "skipped"


def test_an_optimal_bracket_confirmed_by_a_second_solver_is_an_optimal_solu_row(
        monkeypatch, tmp_path):
    import mlopt.bracket as mb
    from mlopt.instances import bracket_set, load_set, read_solu

    iset = load_set("oasis-tiny")
    name = iset.entries[0].name

    def fake(workload, *, verified_by, dual):
        # dual: the proof came from a confirmed bound (rule 2), else from the exact model;
        # "no level": the exact model's proof beside a bound whose second solver confirmed
        # the bound itself and no level (share_ip's confirm): still the exact model's proof
        src = [Source("class_relaxation", "dual", 27.00001, "ok", 1.0, verified_by="scip 10"
                      if dual == "no level" else verified_by,
                      confirmed_at=27.00002 if dual is True else None)]
        return Bracket("oasis", "max", 27.0, 27.00001, "optimal", "start", "class_relaxation",
                       src if dual else [], 1.0, 0.5, None, "a proof", verified_by)
    solu = tmp_path / "solu.csv"
    for by, dual, status in (("scip 10", True, "optimal"), (None, True, "bound"),
                             ("scip 10", False, "bound"), ("scip 10", "no level", "bound")):
        monkeypatch.setattr(mb, "bracket", lambda w, by=by, dual=dual, **kw: fake(
            w, verified_by=by, dual=dual))
        solu.unlink(missing_ok=True)
        bracket_set(iset, only=[name], update_solu=True, solu_path=solu)
        row = read_solu(solu)[name]
        assert row["status"] == status
        assert (row["verified_by"] or None) == (by if status == "optimal" else None)


def test_cpsat_answers_the_same_question():
    # the running sums of the work rows are declared integer for the second solve (exact:
    # sums of integer y and binary u); CP-SAT takes integer models only
    rel = cr.class_relaxation(split_bins(), time_limit=30, warm_start=_twenty(), confirm="cpsat")
    assert rel["verified_by"].startswith("cpsat") and rel["confirm"]["status"] == "infeasible"


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), n_servers=st.integers(2, 4),
       arrival_window=st.sampled_from([1.0, 5.0, 10.0]))
def test_a_confirmed_proof_holds_the_exact_optimum(seed, n_servers, arrival_window):
    # random small paper-fig5 instances: whenever SCIP confirms, OPT (the utility ILP's
    # optimum, HiGHS) lies in [schedule, level) up to the solvers' tolerance
    import mlopt
    from mlopt.families.oasis.generator import generate
    from mlopt.models.oasis import build_utility_ilp

    wl = generate("paper-fig5", seed=seed, n_jobs=6, n_servers=n_servers,
                  arrival_window=arrival_window)
    exact = mlopt.solve(build_utility_ilp(wl), "highs", time_limit=60)
    assert exact.status.value == "optimal"
    opt = float(exact.objective)
    rel = cr.class_relaxation(wl, time_limit=30)
    if rel["verified_by"]:
        tol = 1e-6 * max(1.0, opt)
        assert rel["feasible_objective"] - tol <= opt < rel["confirm"]["level"] + tol
        assert rel["confirm"]["level"] == pytest.approx(cr.confirm_level(rel["feasible_objective"]))
    else:
        assert not rel["proven"] or rel["confirm"]["status"] != "infeasible"


def test_the_reviews_checker_slack_instance_is_not_called_optimal_below_a_checked_schedule():
    """The review's counterexample: workers of 1 + 1e-9 CPU, two on a 2-CPU server (within
    the checker's slack).  From the start "a alone" (10) the bracket said ``optimal`` 10 while
    the checker accepts a and c both (15).  The merged model now allows what the checker
    allows, so the relaxation's bound is at least 15 and 10 is not called optimal."""
    from mlopt.families.oasis.checker import check_oasis
    from tests.oasis.test_model_oasis import checker_slack_instance

    wl, start, both = checker_slack_instance()
    best = check_oasis(wl, both)
    assert best.feasible and best.objective > check_oasis(wl, start).objective
    b = bracket(wl, family="oasis", time_limit=60, algorithms=[], bounds=["class_relaxation"],
                start_schedule=start)
    assert b.high >= best.objective - 1e-9  # the bound holds the checked schedule
    assert not (b.status == "optimal" and b.low < best.objective - 1e-9)

"""The class relaxation's check-and-cut loop above a schedule (``cutoff``) and its other
seventh-round options (``packing_k``, ``solver_options``): the bound never falls below the
utility ILP's proven optimum, "proven" only when a checked schedule meets it, and a stopped
run, a too-low or a too-high cutoff give a valid (weaker) bound, never a wrong optimum."""
from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mlopt
from mlopt.errors import InputError
from mlopt.families.oasis.bounds.class_relaxation import CUTOFF_STEP, class_relaxation
from mlopt.families.oasis.checker import check_oasis
from mlopt.families.oasis.generator import generate
from mlopt.models.oasis import build_utility_ilp
from mlopt.solve import Status
from tests.oasis.test_class_relaxation_oasis import split_bins


def _opt(wl) -> float:
    res = mlopt.solve(build_utility_ilp(wl), "highs", time_limit=60)
    assert res.status is Status.OPTIMAL
    return float(res.objective)


def _valid(wl, rel, opt: float) -> None:
    """The bound is >= OPT, the schedule is checked and <= OPT, and "proven" means both meet
    OPT within the optimality tolerance (1e-6 relative)."""
    assert rel["bound"] is not None and rel["bound"] >= opt - 1e-6 * max(1.0, opt)
    if rel["schedule"] is not None:
        res = check_oasis(wl, rel["schedule"])
        assert res.feasible and res.objective == pytest.approx(rel["feasible_objective"])
        assert res.objective <= opt + 1e-6 * max(1.0, opt)
    if rel["proven"]:
        assert rel["feasible_objective"] == pytest.approx(opt, rel=1e-6)
        assert rel["bound"] == pytest.approx(opt, rel=1e-6)


def test_cutoff_by_hand():
    # split_bins: OPT = 27 (two of the three alike jobs in slot 1, one in slot 2: 10 + 10 + 7)
    wl = split_bins()
    # cutoff 20: the merged optimum (27 with the packing row) packs; the round's bound
    # max(27, 20) = 27 meets the schedule: proven after one round (the cutoff has moved to
    # 27 + 27 x 0.5e-6 = 27.0000135 for a next round that is not needed)
    low = class_relaxation(wl, time_limit=30, cutoff=20.0)
    assert low["proven"] and low["feasible_objective"] == pytest.approx(27.0)
    assert low["bound"] == pytest.approx(27.0)
    assert low["cutoff_value"] == pytest.approx(27.0 * (1 + CUTOFF_STEP))
    assert [r["status"] for r in low["rounds"]] == ["optimal"]
    # from the optimal schedule: the cutoff starts just above it, infeasible at once; the
    # bound is the cutoff 27.0000135, within 1e-6 of the schedule: proven
    again = class_relaxation(wl, time_limit=30, cutoff=0.0, warm_start=low["schedule"])
    assert again["proven"] and again["bound"] == pytest.approx(27.0000135)
    assert len(again["rounds"]) == 1 and again["rounds"][0]["status"] == "infeasible"
    # a cutoff above the merged optimum (40 > 27): infeasible at once, the bound is 40 --
    # valid, only weaker, and nothing is proven without a schedule
    high = class_relaxation(wl, time_limit=30, cutoff=40.0)
    assert high["bound"] == 40.0 and not high["proven"] and high["schedule"] is None


def test_cutoff_rounds_prove_the_optimum_where_the_merged_optimum_does_not_pack():
    # paper-fig5 seed 6: the merged optimum (544.83) does not pack (the fourth round's test);
    # from a cutoff at 90% of OPT the rounds cut it off and end at the utility ILP's
    # optimum (544.11)
    wl = generate("paper-fig5", seed=6)
    opt = _opt(wl)
    rel = class_relaxation(wl, time_limit=60, cutoff=0.9 * opt)
    _valid(wl, rel, opt)
    # it ends when a round's bound meets the schedule (optimal) or the model is infeasible
    assert rel["proven"] and rel["rounds"][-1]["status"] in ("optimal", "infeasible")
    assert any(r.get("cuts") for r in rel["rounds"])


def test_a_stopped_run_reports_a_bound_never_optimal():
    # one round only (max_rounds=1) with a cutoff below OPT: the round's merged optimum does
    # not pack, the loop stops with max(solver bound, cutoff) >= OPT and proves nothing
    wl = generate("paper-fig5", seed=6)
    opt = _opt(wl)
    rel = class_relaxation(wl, time_limit=60, cutoff=0.5 * opt, max_rounds=1)
    _valid(wl, rel, opt)
    assert not rel["proven"] and rel["bound"] > opt + 0.5
    # the rounds stopped at their first solution (a HiGHS option) still end valid
    first = class_relaxation(wl, time_limit=60, cutoff=0.5 * opt, max_rounds=2,
                             solver_options={"mip_max_improving_sols": 1})
    _valid(wl, first, opt)


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), n_servers=st.integers(2, 4),
       arrival_window=st.sampled_from([1.0, 5.0, 10.0]),
       fraction=st.sampled_from([0.0, 0.7, 0.98, 1.0, 1.02]), packing_k=st.integers(1, 3))
def test_cutoff_bound_never_below_opt(seed, n_servers, arrival_window, fraction, packing_k):
    # widened past the preset: two servers (one per role: heavy contention, most jobs
    # rejected or given zero allocations), every job at slot 0 or arrivals up to the last slot
    # (late jobs with little or no room); cutoffs from 0 to just above OPT, so "infeasible"
    # at once (1.02), a cutoff at OPT itself (1.0) and far below it are all reached
    wl = generate("paper-fig5", seed=seed, n_jobs=6, n_servers=n_servers,
                  arrival_window=arrival_window)
    opt = _opt(wl)
    rel = class_relaxation(wl, time_limit=30, cutoff=fraction * opt, packing_k=packing_k)
    _valid(wl, rel, opt)
    if fraction > 1.0:  # no schedule reaches a cutoff above OPT: never "proven" there
        assert not rel["proven"]


@pytest.mark.parametrize("field,value", [("cutoff", "high"), ("cutoff", math.nan),
                                         ("cutoff", True), ("packing_k", 0),
                                         ("packing_k", 1.5)])
def test_bad_inputs_are_one_input_error(field, value):
    with pytest.raises(InputError) as err:
        class_relaxation(split_bins(), **{field: value})
    assert err.value.field == field
    assert err.value.value is value or (value != value and err.value.value != err.value.value)

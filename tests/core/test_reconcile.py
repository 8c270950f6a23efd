"""The solver's word against the checker's (:func:`mlopt.pipeline.reconcile`).

A proven optimum must be the checked problem's (any difference is an error); an unproven
incumbent whose checked objective is better than the model's is reported at the checker's
value (an exact model may carry slack at a non-optimal point); worse, or beyond the solver's
bound, is an error."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

from mlopt.pipeline import reconcile
from mlopt.solve import SolveResult, Status


def result(status, objective, bound, sense):
    return SolveResult(status, objective, bound, None, 1.0, "highs", "test", sense)


def checked(objective, feasible=True):
    return SimpleNamespace(feasible=feasible, objective=objective, summary=lambda: "broken")


@pytest.mark.parametrize("sense, model, check, bound, status, objective", [
    # min, unproven: Harmony's slack case, model 4.0, checked 3.9, bound 3.2 -> 3.9 reported,
    # gap (3.9 - 3.2) / 3.9 = 0.1795
    ("min", 4.0, 3.9, 3.2, Status.FEASIBLE, 3.9),
    ("max", 10.0, 10.5, 12.0, Status.FEASIBLE, 10.5),   # max: a higher checked value
    ("min", 4.0, 4.1, 3.2, Status.ERROR, 4.0),          # the model under-counts
    ("max", 10.0, 9.5, 12.0, Status.ERROR, 10.0),
    ("min", 4.0, 3.1, 3.2, Status.ERROR, 4.0),          # checked below the lower bound
    ("min", 4.0, 4.0 + 1e-12, 3.2, Status.FEASIBLE, 4.0),  # equal up to rounding: untouched
])
def test_unproven_incumbent(sense, model, check, bound, status, objective):
    res = result(Status.FEASIBLE, model, bound, sense)
    reconcile(res, checked(check))
    assert res.status == status and res.objective == objective
    if status == Status.FEASIBLE and objective != model:
        assert res.gap == pytest.approx(abs(bound - objective) / abs(objective))
        assert "checked objective" in res.message


@pytest.mark.parametrize("check", [3.9, 4.1])
def test_a_proven_optimum_must_be_the_checked_value(check):
    res = result(Status.OPTIMAL, 4.0, 4.0, "min")
    reconcile(res, checked(check))
    assert res.status == Status.ERROR and "differs" in res.message


def test_a_rejected_schedule_is_no_optimum_but_an_incumbent_keeps_its_status():
    res = result(Status.OPTIMAL, 4.0, 4.0, "min")
    reconcile(res, checked(4.0, feasible=False))
    assert res.status == Status.ERROR and "rejected" in res.message
    res = result(Status.FEASIBLE, 4.0, 3.0, "min")
    reconcile(res, checked(4.0, feasible=False))
    assert res.status == Status.FEASIBLE

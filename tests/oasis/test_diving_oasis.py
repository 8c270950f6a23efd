"""Diving with re-pricing on the OASiS master (mlopt/families/oasis/primal/diving.py).

Every dive must leave a packing that fits, whose schedule the checker accepts at the same
utility, never above the exact optimum; the master's column bounds come back untouched.
"""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mlopt
from mlopt.families.oasis.bounds.colgen import MasterLP, colgen_bound, initial_columns
from mlopt.families.oasis.checker import check_oasis
from mlopt.families.oasis.generator import generate
from mlopt.families.oasis.online import oasis_online
from mlopt.families.oasis.primal.diving import dive
from mlopt.families.oasis.primal.local_search import LocalSearch
from mlopt.models.oasis import build_utility_ilp
from mlopt.models.oasis.master import schedule_from_columns
from mlopt.solve import Status

from tests.oasis.test_primal_oasis import three_jobs


def _master(wl):
    run = oasis_online(wl)
    master = MasterLP(wl)
    for col in initial_columns(wl, run, ("oasis", "greedy")):
        master.add(col)
    return master


def _checked(wl, pk):
    cols = list(pk.chosen.values())
    chk = check_oasis(wl, schedule_from_columns(wl, cols, [True] * len(cols)))
    assert chk.feasible, chk.summary()
    assert chk.objective == pytest.approx(pk.utility, rel=1e-9, abs=1e-9)
    return chk.objective


def _bounds_restored(master):
    lp = master.h.getLp()
    assert np.all(np.asarray(lp.col_lower_) == 0.0)
    assert np.all(np.isinf(np.asarray(lp.col_upper_)))


def test_dive_by_hand():
    # three_jobs: slot 1 holds two of the three jobs (cpu 2 per server, 1 per job), so the
    # best is 10 + 10 (slot 1) + 7 (slot 2) = 27, and the dive, re-pricing the job left out of
    # slot 1 in the residual (only slot 2 is free for it), must find exactly that
    wl = three_jobs()
    master = _master(wl)
    ls = LocalSearch(wl)
    pk, log = dive(master, ls, time_limit=10.0)
    assert pk.fits()
    assert _checked(wl, pk) == pytest.approx(27.0)
    assert sorted(c.end_slot for c in pk.chosen.values()) == [1, 1, 2]
    assert log["lp_solves"] >= 1 and log["utility"] == pytest.approx(27.0)
    _bounds_restored(master)


def test_dive_out_of_time_still_returns_a_checked_schedule():
    wl = generate("paper-fig5", seed=2)
    master = _master(wl)
    pk, log = dive(master, LocalSearch(wl), time_limit=0.0)
    assert log["stop"] == "time" and log["fixed"] == 0
    assert pk.fits() and _checked(wl, pk) >= 0.0  # the greedy completion alone
    _bounds_restored(master)


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000))
def test_dive_is_feasible_and_below_the_optimum(seed):
    wl = generate("paper-fig5", seed=seed)
    opt = mlopt.solve(build_utility_ilp(wl), time_limit=30)
    # OPT, or when a loaded machine stops the solver first, its proven bound (>= OPT)
    top = opt.objective if opt.status == Status.OPTIMAL else opt.bound
    assert top is not None
    master = _master(wl)
    n0 = len(master.columns)
    pk, log = dive(master, LocalSearch(wl, seed=seed), time_limit=20.0)
    value = _checked(wl, pk)
    assert value <= top + 1e-6 * max(1.0, top)
    assert log["new_columns"] == len(master.columns) - n0
    _bounds_restored(master)
    # the LP over the enlarged column set is still a valid restricted master: its value can
    # only have grown, and it stays below the (column generation) bound on OPT
    assert master.solve() is not None


def test_dive_share_zero_skips_the_dive_and_dive_never_lowers_the_incumbent():
    wl = generate("paper-fig5", seed=5)
    # the time limit is far above what column generation needs here (1-3 s), so both runs
    # converge to the same bound also on a loaded machine (at 5 s, load 9, one did not)
    off = colgen_bound(wl, time_limit=60, ilp_time_limit=2, primal_time_limit=2,
                       dive_share=0.0)
    assert "dive" not in off.details["primal"]
    on = colgen_bound(wl, time_limit=60, ilp_time_limit=2, primal_time_limit=2,
                      local_search=False)
    assert "dive" in on.details["primal"]  # the dive runs even without the local search
    primal = on.details["primal"]
    assert primal["objective"] >= primal["start_objective"] - 1e-9
    assert check_oasis(wl, on.schedule).feasible
    assert on.upper_bound == pytest.approx(off.upper_bound)  # the dive changes no bound


def test_bad_dive_share():
    with pytest.raises(mlopt.errors.InputError) as err:
        colgen_bound(three_jobs(), dive_share=1.5)
    assert err.value.field == "dive_share" and err.value.value == 1.5

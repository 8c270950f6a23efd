"""The PD-ORS column-generation bound (:mod:`mlopt.families.pdors.colgen`): the relaxed pricing
is never below any real schedule's payoff (hypothesis), OPT <= colgen <= job_sum / LP
relaxation on random small instances, a time-limited run still returns a valid bound, bad
options."""
from __future__ import annotations

import numpy as np
import pyomo.environ as pyo
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from mlopt import pipeline
from mlopt.errors import InputError
from mlopt.families import get_family
from mlopt.families.pdors.colgen import RelaxedSlotOracle, colgen_bound
from mlopt.families.pdors.dp import best_schedule
from mlopt.families.pdors.examples import HAND_OPTIMUM, hand_tiny
from mlopt.families.pdors.generator import generate
from mlopt.families.pdors.theory import job_sum_bound
from mlopt.models.pdors import build_dmlrs_milp
from mlopt.solve import Status, solve
from pdors_fixtures import dp_payoff, pricing_cases


def relaxed_payoff(c, grid):
    orc = RelaxedSlotOracle(alpha=c["alpha"], beta=c["beta"], F=c["F"], gamma=c["gamma"],
                            n_int=c["n_int"], n_ext=c["n_ext"], grid=grid, H=c["H"],
                            rng=np.random.default_rng(0))
    theta = {t: orc.slot(c["price"][t - 1], c["free"][t - 1])[0]
             for t in range(c["a"], c["T"] + 1)}
    return best_schedule(theta, c["a"], c["T"], grid, c["utility"]).payoff


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pricing_cases(), st.integers(1, 6))
def test_relaxed_pricing_is_never_below_a_real_schedule(c, relaxed_grid):
    """The exact-oracle DP on any grid yields real schedules, so the relaxed DP (whatever its
    own grid, coarser or finer) must be >= it: the property the certificate rests on."""
    assert relaxed_payoff(c, relaxed_grid) >= dp_payoff(c) - 1e-9


def test_hand_instance_bound_is_the_optimum():
    # each job alone co-located finishes in its arrival slot, u(0) = 10 each: OPT = 20
    r = colgen_bound(hand_tiny())
    assert r["bound"] == pytest.approx(HAND_OPTIMUM, rel=1e-7)
    assert r["bound"] >= HAND_OPTIMUM - 1e-9


# contended small instances (1-2 machines): colgen strictly below job_sum on several of them
CASES = [(12, 1, 6, 0), (12, 1, 6, 4), (8, 1, 6, 4), (10, 2, 6, 4), (8, 1, 6, 1)]


@pytest.mark.parametrize("n_jobs, n_machines, horizon, seed", CASES)
def test_opt_le_colgen_le_job_sum_and_lp_relaxation(n_jobs, n_machines, horizon, seed):
    w = generate("small", seed=100 + seed, n_jobs=n_jobs, n_machines=n_machines,
                 horizon=horizon)
    off = pipeline.solve_offline(w, family="pdors", time_limit=60)
    assert off.solve.status == Status.OPTIMAL and off.check.feasible
    r = colgen_bound(w, time_limit=60)
    assert r["status"] == "converged"
    assert r["bound"] >= off.objective - 1e-6 * max(1.0, off.objective)
    assert r["bound"] <= job_sum_bound(w)["bound"] + 1e-9
    # the DMLRS MILP's LP relaxation: not a theorem (the bound's pricing is relaxed on a grid),
    # but measured below it on every instance of the benchmark sweep; a regression guard
    m = build_dmlrs_milp(w)
    pyo.TransformationFactory("core.relax_integer_vars").apply_to(m)
    lp = solve(m, "highs")
    assert lp.status == Status.OPTIMAL
    assert r["bound"] <= lp.objective + 1e-6 * max(1.0, lp.objective)
    # the restricted master LP value is a lower bound on LP(8) <= the certificate
    assert r["lp_value"] <= r["certificate"] + 1e-6 * max(1.0, r["certificate"])


def test_strictly_better_than_job_sum_under_contention():
    w = generate("small", seed=100, n_jobs=12, n_machines=1, horizon=6)
    r = colgen_bound(w)
    assert r["bound"] < 0.8 * job_sum_bound(w)["bound"]  # measured 496.3 vs 679.2


@pytest.mark.parametrize("limits", [{"time_limit": 0.0}, {"max_iterations": 1},
                                    {"time_limit": 0.3}])
def test_limited_run_is_still_a_valid_bound(limits):
    w = generate("small", seed=100, n_jobs=12, n_machines=1, horizon=6)
    off = pipeline.solve_offline(w, family="pdors", time_limit=60)
    r = colgen_bound(w, **limits)
    assert r["bound"] >= off.objective - 1e-6 * off.objective
    assert r["bound"] <= job_sum_bound(w)["bound"] + 1e-9
    if limits.get("time_limit") == 0.0:
        assert r["status"] == "limit" and r["bound"] == job_sum_bound(w)["bound"]
    if "max_iterations" in limits:
        assert r["status"] in ("limit", "converged") and r["rounds"] <= 1


def test_registered_and_harness_shaped():
    fam = get_family("pdors")
    out = fam.bounds["colgen"](hand_tiny(), time_limit=10, threads=1)
    assert set(out) >= {"bound", "status"} and out["status"] == "converged"


@pytest.mark.parametrize("opt, value", [("grid", 0), ("column_grid", 1.5), ("smoothing", 1.0)])
def test_bad_options(opt, value):
    with pytest.raises(InputError) as e:
        colgen_bound(hand_tiny(), **{opt: value})
    assert e.value.field == opt

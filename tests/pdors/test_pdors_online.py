"""PD-ORS online (Alg. 1-4 of seed 004): DP vs an exact pricing MILP, rounding vs the exact
external IP, PD-ORS vs OPT, baselines on one workload, options and bad input."""
from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings, strategies as st

from mlopt import pipeline
from mlopt.errors import InputError
from mlopt.families.pdors.checker import check_pdors
from mlopt.families.pdors.examples import HAND_OPTIMUM, hand_tiny
from mlopt.families.pdors.generator import generate
from mlopt.families.pdors.online import pdors_online
from mlopt.families.pdors import oracle as oracle_mod
from mlopt.families.pdors.oracle import SlotOracle, exact_tolerance
from mlopt.families.pdors.prices import pdors_prices
from mlopt.families.pdors.fields import pdors_arrays
from mlopt.models.pdors import build_pricing_milp
from mlopt.solve import Status, solve
from mlopt.utility import Sigmoid
from pdors_fixtures import dp_payoff, pricing_cases


def test_hand_instance_pdors_reaches_the_optimum_by_colocation():
    run = pdors_online(hand_tiny())
    res = check_pdors(hand_tiny(), run.schedule)
    assert res.feasible and res.objective == pytest.approx(HAND_OPTIMUM)
    assert run.schedule.meta["internal_slots"] == 2  # one co-located slot per job


def test_hand_instance_ablation_and_baselines():
    """Without the internal case one job runs external over 3 slots (u(2) = 4) and blocks the
    other; on the split pool (OASiS and the baselines) no job can finish (examples docstring)."""
    w = hand_tiny()
    assert pipeline.run_algorithm(w, "pdors_no_internal", family="pdors").check.objective == \
        pytest.approx(4.0)
    for alg in ("fifo", "drf", "dorm", "oasis"):
        r = pipeline.run_algorithm(w, alg, family="pdors")
        assert r.check.feasible and r.check.objective == 0.0, alg


# ---- DP with the exact oracle == the pricing MILP (hypothesis, >= 50 cases) ---------------
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pricing_cases())
def test_dp_with_exact_oracle_equals_pricing_milp(c):
    job = {k: c[k] for k in ("a", "F", "gamma", "n_int", "n_ext", "alpha", "beta")}
    job["utility"] = c["utility"]
    m = build_pricing_milp(job, c["price"], c["free"], c["grid"])
    res = solve(m, "highs", mip_gap=0.0)
    assert res.status == Status.OPTIMAL
    assert dp_payoff(c) == pytest.approx(max(0.0, res.objective), abs=1e-6, rel=1e-6)
    # with rounding the oracle is never better than exact, so the payoff never exceeds it
    assert dp_payoff(c, "rounding") <= max(0.0, res.objective) + 1e-6


# Found by hypothesis: machine 1's only nonzero price is 2^-24 ~ 5.96e-8 (in r = 1, used by both
# a worker and a PS); machine 0 is free of charge and fits w = s = 1.  The optimum costs 0, but
# HiGHS took the PS onto machine 1 (reduced cost 6e-8 < its dual_feasibility_tolerance 1e-7),
# so the "exact" oracle said 6e-8 while rounding found 0.  Fixed by scaling the IP's costs
# (oracle.cost_scale).
TINY_PRICE_CASE = dict(T=1, H=2, a=1, F=1, gamma=2, n_int=1.0, n_ext=1.0, alpha=[1, 1],
                       beta=[0, 1], price=np.array([[[0.0, 0.0], [0.0, 2.0 ** -24]]]),
                       free=np.array([[[1.0, 2.0], [1.0, 2.0]]]), grid=1,
                       utility=Sigmoid(1.0, 0.0, 0.0))
# A subnormal price (5e-324, the PS's only cost): a naive 2^-log2 scale overflows to inf.
SUBNORMAL_CASE = dict(TINY_PRICE_CASE, H=1, gamma=1, alpha=[1, 0], beta=[0, 1],
                      price=np.array([[[0.0, 5e-324]]]), free=np.array([[[1.0, 1.0]]]))


def _slot_tolerance(c, t):
    """The exact oracle is exact up to HiGHS's tolerances, relative to the slot's smallest
    nonzero price (oracle.exact_tolerance: < 2 min price (1e-6 + 4F 1e-7) <= 3.6e-6 here)."""
    a, b = np.asarray(c["alpha"], float), np.asarray(c["beta"], float)
    return exact_tolerance(c["price"][t] @ a, c["price"][t] @ b, c["F"])


@settings(max_examples=40, deadline=None)
@given(pricing_cases(), st.integers(0, 10**6))
@example(TINY_PRICE_CASE, 0)
@example(SUBNORMAL_CASE, 0)
def test_rounding_never_beats_exact_and_is_feasible(c, seed):
    kw = dict(alpha=c["alpha"], beta=c["beta"], F=c["F"], gamma=c["gamma"], n_int=c["n_int"],
              n_ext=c["n_ext"], grid=c["grid"], H=c["H"])
    ex = SlotOracle(**kw, rng=np.random.default_rng(0), oracle="exact", internal=False)
    ro = SlotOracle(**kw, rng=np.random.default_rng(seed), oracle="rounding", internal=False)
    for t in range(c["T"]):
        ce, _ = ex.slot(c["price"][t], c["free"][t])
        cr, plans = ro.slot(c["price"][t], c["free"][t])
        # a rounded plan is a feasible point of the IP: it can undercut the exact oracle only
        # by what HiGHS's optimality tolerances let through (see _slot_tolerance)
        assert np.all(cr >= ce - _slot_tolerance(c, t)), (cr, ce)
        d_ext = ro.demands(c["n_ext"])
        for j, p in plans.items():
            assert ro._feasible(p.w, p.s, c["free"][t], int(d_ext[j]))
            assert p.cost == pytest.approx(float(c["price"][t] @ ro.alpha @ p.w
                                                 + c["price"][t] @ ro.beta @ p.s))


def _brute_force_external(c, t, demand):
    """min p.(alpha w + beta s) over every integer w, s in [0, F]^H of (23)-(26) + ratio rows."""
    H, F, g = c["H"], c["F"], c["gamma"]
    a, b = np.asarray(c["alpha"], float), np.asarray(c["beta"], float)
    grid = np.array(np.meshgrid(*[np.arange(F + 1)] * (2 * H), indexing="ij")).reshape(2 * H, -1).T
    w, s = grid[:, :H], grid[:, H:]
    sw, ss = w.sum(1), s.sum(1)
    use = w[:, :, None] * a + s[:, :, None] * b  # (n, H, R)
    ok = (sw >= demand) & (sw <= F) & (ss >= 1) & (ss <= sw) & (g * ss >= sw) \
        & np.all(use <= c["free"][t] + 1e-9, axis=(1, 2))
    cost = w @ (c["price"][t] @ a) + s @ (c["price"][t] @ b)
    return float(cost[ok].min()) if ok.any() else math.inf


@settings(max_examples=40, deadline=None)
@given(pricing_cases())
@example(TINY_PRICE_CASE)
@example(SUBNORMAL_CASE)
def test_exact_oracle_matches_brute_force(c):
    """The exact external oracle against enumeration: never below it (it is feasible) and above
    it by no more than the documented tolerance (unscaled, HiGHS exceeded it by 10^6 times
    on slots whose prices were all below 1e-7)."""
    ex = SlotOracle(alpha=c["alpha"], beta=c["beta"], F=c["F"], gamma=c["gamma"],
                    n_int=c["n_int"], n_ext=c["n_ext"], grid=c["grid"], H=c["H"],
                    rng=np.random.default_rng(0), oracle="exact", internal=False)
    for t in range(c["T"]):
        ce, _ = ex.slot(c["price"][t], c["free"][t])
        for j, d in enumerate(ex.demands(c["n_ext"])):
            if j == 0:
                continue
            bf = _brute_force_external(c, t, int(d))
            if math.isinf(bf):
                assert math.isinf(ce[j])
            else:
                assert bf - 1e-12 <= ce[j] <= bf + _slot_tolerance(c, t), (j, d, ce[j], bf)


def test_tiny_price_case_exact_oracle_finds_the_free_machine():
    """The regression by hand: w = s = 1 on machine 0 costs 0 (its prices are 0); any worker
    or PS on machine 1 costs 2^-24.  The exact oracle must say 0, without any tolerance."""
    c = TINY_PRICE_CASE
    ex = SlotOracle(alpha=c["alpha"], beta=c["beta"], F=1, gamma=2, n_int=1.0, n_ext=1.0,
                    grid=1, H=2, rng=np.random.default_rng(0), oracle="exact", internal=False)
    cost, plans = ex.slot(c["price"][0], c["free"][0])
    assert cost[1] == 0.0
    assert plans[1].w.tolist() == [1, 0] and plans[1].s.tolist() == [1, 0]


def test_cost_scale_is_a_power_of_two_from_the_smallest_price():
    # smallest nonzero 3e-9: 3e-9 * 2^29 = 1.61 > 1, * 2^28 = 0.81 in (0.5, 1]; the largest
    # 0.01 * 2^28 = 2.7e6 stays below 2^25 = 3.4e7
    assert oracle_mod.cost_scale(np.array([0.0, 3e-9, 0.01])) == 2.0 ** 28
    # with 0.25 it would not (6.7e7): 0.25 <= 2^-2, scale 2^25 / 2^-2 = 2^27
    assert oracle_mod.cost_scale(np.array([0.0, 3e-9, 0.25])) == 2.0 ** 27
    # ... unless the largest then passes 2^25: 100 -> 2^7 = 128, scale 2^25 / 2^7 = 2^18
    assert oracle_mod.cost_scale(np.array([3e-9, 100.0])) == 2.0 ** 18
    assert oracle_mod.cost_scale(np.zeros(4)) == 1.0
    # subnormal prices (hypothesis draws them): capped at 2^1000 instead of overflowing
    assert oracle_mod.cost_scale(np.array([0.0, 5e-324])) == 2.0 ** 1000


def test_exact_tolerance_constants_are_highs_defaults():
    """exact_tolerance() is derived from HiGHS's defaults: fail if a HiGHS upgrade moves them."""
    h = oracle_mod.new_highs()
    assert h.getOptionValue("dual_feasibility_tolerance")[1] == oracle_mod.DUAL_FEAS_TOL
    assert h.getOptionValue("mip_feasibility_tolerance")[1] == oracle_mod.MIP_FEAS_TOL


# ---- PD-ORS never beats OPT; every schedule checked ----------------------------------------
@pytest.mark.parametrize("preset, seed", [("tiny", s) for s in range(4)]
                         + [("small", s) for s in range(3)])
def test_pdors_never_beats_opt(preset, seed):
    w = generate(preset, seed=seed)
    off = pipeline.solve_offline(w, family="pdors", time_limit=60)
    assert off.solve.status == Status.OPTIMAL and off.check.feasible
    for alg in ("pdors", "pdors_no_internal", "oasis", "fifo", "drf"):
        r = pipeline.run_algorithm(w, alg, family="pdors", seed=seed)
        assert r.check.feasible, (alg, r.check.summary())
        assert r.check.objective <= off.objective + 1e-6, alg


def test_deterministic_and_seeded():
    w = generate("small", seed=1)
    a = pdors_online(w, seed=3).schedule.allocations
    b = pdors_online(w, seed=3).schedule.allocations
    assert a.equals(b)


def test_lp_rebuild_gives_the_same_decisions():
    """A warm-started LP may return another optimal vertex than a fresh one (so placements can
    differ after rounding); admissions and checked utility agree."""
    w = generate("small", seed=2)
    a = pdors_online(w, lp="persistent").schedule
    b = pdors_online(w, lp="rebuild").schedule
    assert a.admitted == b.admitted
    assert check_pdors(w, a).objective == pytest.approx(check_pdors(w, b).objective)


@pytest.mark.parametrize("opt, value", [("grid", 0), ("oracle", "magic"), ("lp", "x"),
                                        ("delta", 0.0), ("retries", 0), ("gdelta", "two"),
                                        ("price_mode", "guess"), ("price_scale", -1.0)])
def test_bad_options(opt, value):
    with pytest.raises(InputError, match=opt):
        pdors_online(hand_tiny(), **{opt: value})


def test_price_scale_caps_log_ratio():
    w = generate("paper-fig6", seed=0, n_jobs=10, n_machines=4)
    arr = pdors_arrays(w)
    lit = pdors_prices(w, arr)
    cap = pdors_prices(w, arr, price_scale=5.0)
    assert lit.price_scale is None and float(np.max(lit.log_ratio)) > 5.0
    assert float(np.max(cap.log_ratio)) == pytest.approx(5.0)
    assert np.allclose(cap.log_U, lit.log_U) and cap.log_L > lit.log_L
    assert math.isfinite(cap.log_L)


def test_job_sum_bound_is_valid_and_tight_alone():
    from mlopt.families.pdors.theory import job_sum_bound

    # hand instance: each job alone finishes in its arrival slot (u(0) = 10): bound 20 = OPT
    assert job_sum_bound(hand_tiny())["bound"] == pytest.approx(HAND_OPTIMUM)
    for seed in range(3):
        w = generate("small", seed=seed)
        off = pipeline.solve_offline(w, family="pdors")
        assert job_sum_bound(w)["bound"] >= off.objective - 1e-9

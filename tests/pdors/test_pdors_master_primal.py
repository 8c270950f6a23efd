"""The primal side of PD-ORS's column generation (:mod:`mlopt.families.pdors.master_primal` and
its parts): hand-computed pools on the hand instance, the zero-price shortcut of the relaxed
pricing, random small instances (schedule checked, never below PD-ORS, bound >= proven OPT),
``bracket`` naming ``colgen`` and the primal source on a paper-fig6 instance, bad options."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from mlopt import pipeline
from mlopt.bracket import bracket
from mlopt.errors import InputError
from mlopt.families.pdors.checker import check_pdors
from mlopt.families.pdors.colgen import RelaxedSlotOracle, colgen_bound
from mlopt.families.pdors.columns import ColumnPool
from mlopt.families.pdors.dp import best_schedule
from mlopt.families.pdors.examples import HAND_OPTIMUM, hand_tiny
from mlopt.families.pdors.fields import pdors_arrays
from mlopt.families.pdors.generator import generate
from mlopt.families.pdors.local_search import local_search
from mlopt.families.pdors.online import run_pdors
from mlopt.families.pdors.restricted_mip import solve_restricted_mip
from mlopt.solve import Status
from pdors_fixtures import dp_payoff, pricing_cases


def hand_pool():
    """hand_tiny: machines m1, m2 (2 GPUs, 4 CPUs each), T = 3, two jobs with n_int = 2,
    u(d) = 10 - 3d.  Columns (w, s per machine):
      a: j1, slot 1, 2 workers + 2 PSs on m1 -> done in slot 1, u = 10 (m1 full: 2 GPUs, 4 CPUs)
      b: j2, the same on m1                   -> u = 10, conflicts with a
      c: j2, the same on m2                   -> u = 10, fits beside a
      e: j1, 1 worker + 1 PS on m1 in slots 1 and 2 -> 1/2 + 1/2 of the job, ends slot 2,
         u(1) = 7; uses 1 GPU of m1 in slot 1, so b (2 GPUs there) does not fit beside it."""
    w = hand_tiny()
    pool = ColumnPool(pdors_arrays(w), w.horizon)
    m1 = (np.array([2, 0]), np.array([2, 0]))
    m2 = (np.array([0, 2]), np.array([0, 2]))
    one = (np.array([1, 0]), np.array([1, 0]))
    cols = {"a": pool.make(0, {1: m1}, 10.0, "t"), "b": pool.make(1, {1: m1}, 10.0, "t"),
            "c": pool.make(1, {1: m2}, 10.0, "t"), "e": pool.make(0, {1: one, 2: one}, 7.0, "t")}
    return w, pool, {k: pool.add(c) for k, c in cols.items()}


def test_pool_capacities_and_decoding():
    w, pool, k = hand_pool()
    left = pool.residual([k["a"]])
    assert not pool.fits(k["b"], left) and pool.fits(k["c"], left)
    assert pool.add(pool.make(0, {1: (np.array([2, 0]), np.array([2, 0]))}, 10.0, "x")) is None
    check = check_pdors(w, pool.schedule(w, [k["a"], k["c"]]))
    assert check.feasible and check.objective == pytest.approx(HAND_OPTIMUM)  # 10 + 10
    check = check_pdors(w, pool.schedule(w, [k["e"]]))
    assert check.feasible and check.objective == pytest.approx(7.0)  # u(1) = 10 - 3
    # round trip: a schedule's columns are the columns it was decoded from
    again = pool.of_schedule(w, pool.schedule(w, [k["a"], k["c"]]), "again")
    assert sorted(pool.index_of(c) for c in again) == sorted([k["a"], k["c"]])


def test_restricted_mip_picks_the_compatible_pair():
    w, pool, k = hand_pool()
    r = solve_restricted_mip(pool, time_limit=10, keep=[k["a"], k["b"]])
    assert r["objective"] == pytest.approx(10.0)  # a and b both need m1's 2 GPUs in slot 1
    r = solve_restricted_mip(pool, time_limit=10, warm=[k["e"]])
    assert r["status"] == "optimal" and sorted(r["chosen"]) == sorted([k["a"], k["c"]])
    lp = solve_restricted_mip(pool, time_limit=10, lp_only=True, fixed=[k["e"]])
    assert lp["x"][k["e"]] == pytest.approx(1.0)
    assert lp["objective"] == pytest.approx(17.0)  # e fixed (7) + c (10): b cannot fit


def test_local_search_upgrade_and_swap():
    w, pool, k = hand_pool()
    # upgrade: j1 from e (7) to a (10), j2 admitted with c: 20
    got = local_search(pool, [k["e"]], deadline=float("inf"))
    assert pool.value(got) == pytest.approx(20.0)
    # swap only, without c: b (10) in for e (7) (b needs m1's 2 GPUs in slot 1, e holds one)
    pool2 = ColumnPool(pool.arr, pool.T)
    kk = {n: pool2.add(pool.columns[k[n]]) for n in ("b", "e")}
    got = local_search(pool2, [kk["e"]], deadline=float("inf"), moves=("swap",))
    assert got == [kk["b"]]


def test_local_search_refit_replaces_a_slower_column():
    w, pool, k = hand_pool()
    pool2 = ColumnPool(pool.arr, pool.T)
    e = pool2.add(pool.columns[k["e"]])
    a = pool.columns[k["a"]]
    seen = []

    def refit(i, left):  # e released first: m1 is empty again, so a (u = 10) fits
        seen.append((i, float(left.sum())))
        return a if i == 0 else None

    got = local_search(pool2, [e], deadline=float("inf"), refit=refit, moves=("refit",))
    assert pool2.value(got) == pytest.approx(10.0) and seen[0][0] == 0
    assert seen[0][1] == pytest.approx(float(pool2.cap.sum()))  # nothing else held


def test_insert_prices_a_rejected_job_on_the_residual():
    w = hand_tiny()
    r = colgen_bound(w, time_limit=20, warm=None)
    assert r["primal"]["objective"] == pytest.approx(HAND_OPTIMUM)
    assert check_pdors(w, r["schedule"]).objective == pytest.approx(HAND_OPTIMUM)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pricing_cases(), st.integers(1, 6))
def test_zero_price_shortcut_is_never_below_a_real_schedule(c, relaxed_grid):
    """At zero prices the relaxed oracle answers feasibility from one LP per slot state; it
    must still be >= the exact DP's payoff (any real schedule)."""
    c = {**c, "price": np.zeros_like(c["price"])}
    orc = RelaxedSlotOracle(alpha=c["alpha"], beta=c["beta"], F=c["F"], gamma=c["gamma"],
                            n_int=c["n_int"], n_ext=c["n_ext"], grid=relaxed_grid, H=c["H"],
                            rng=np.random.default_rng(0))
    theta = {t: orc.slot(c["price"][t - 1], c["free"][t - 1])[0]
             for t in range(c["a"], c["T"] + 1)}
    assert best_schedule(theta, c["a"], c["T"], relaxed_grid, c["utility"]).payoff \
        >= dp_payoff(c) - 1e-9


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10_000), st.integers(4, 8), st.integers(1, 2))
def test_random_small_schedule_checked_not_below_pdors_bound_above_opt(seed, n_jobs, machines):
    w = generate("small", seed=seed, n_jobs=n_jobs, n_machines=machines, horizon=5)
    off = pipeline.solve_offline(w, family="pdors", time_limit=60)
    assert off.solve.status == Status.OPTIMAL and off.check.feasible
    r = colgen_bound(w, time_limit=30)
    tol = 1e-6 * max(1.0, off.objective)
    assert r["bound"] >= off.objective - tol
    pdors = check_pdors(w, run_pdors(w)).objective
    check = check_pdors(w, r["schedule"])
    assert check.feasible
    assert check.objective == pytest.approx(r["primal"]["objective"])
    assert pdors - tol <= check.objective <= off.objective + tol


def test_bracket_on_paper_fig6_15_jobs_names_colgen_and_its_primal():
    w = generate("paper-fig6", seed=0, n_jobs=15, n_machines=6)
    b = bracket(w, time_limit=30, exact=False, algorithms=["pdors"], bounds=["colgen"])
    assert b.high_source == "colgen"
    assert b.low_source in ("pdors", "colgen schedule")
    assert b.gap <= 0.02  # measured: closed (464.586 both ends)
    assert check_pdors(w, b.schedule).objective == pytest.approx(b.low)


def test_time_limit_is_kept_with_the_primal_side():
    # 15 jobs, 6 machines, T = 20: converges in ~2 s unloaded; at 3 s the primal side has
    # ~1 s and the alarm stops it at 95% of the limit (C calls carry their own time limits)
    w = generate("paper-fig6", seed=0, n_jobs=15, n_machines=6)
    r = colgen_bound(w, time_limit=3.0)
    assert r["seconds"] <= 3.0 + 1.5
    if r.get("schedule") is not None:
        assert check_pdors(w, r["schedule"]).feasible


@pytest.mark.parametrize("opt, value", [("fine_grid", 0), ("primal_share", 1.0),
                                        ("primal_share", True), ("warm", "oasis")])
def test_bad_primal_options(opt, value):
    with pytest.raises(InputError) as e:
        colgen_bound(hand_tiny(), **{opt: value})
    assert e.value.field == opt

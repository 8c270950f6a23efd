"""Primal side of OASiS column generation: mlopt/families/oasis/primal/.

Every schedule the local search or the restricted-master MIP returns must pass the checker,
never be worse than its start (OASiS's own schedule), never exceed the exact optimum; the
colgen bound stays >= OPT at every iteration limit.  Hand instance as test_bounds_oasis.py:
one chunk = 1 worker-slot, W_i = E_i N_i worker-slots.
"""
from __future__ import annotations

import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mlopt
from mlopt.bracket import bracket
from mlopt.errors import InputError
from mlopt.families.oasis.bounds import colgen_budget
from mlopt.families.oasis.bounds.colgen import colgen_bound
from mlopt.families.oasis.checker import check_oasis
from mlopt.families.oasis.generator import generate
from mlopt.families.oasis.online import oasis_online
from mlopt.families.oasis.primal.local_search import LocalSearch, Packing
from mlopt.models.oasis import build_utility_ilp
from mlopt.models.oasis.master import columns_from_schedule, schedule_from_columns
from mlopt.solve import Status
from mlopt.utility import Linear
from mlopt.workload import BANDWIDTH, Job, Server, Workload

RES = ("cpu", BANDWIDTH)
ONE = {"cpu": 1.0, BANDWIDTH: 1.0}


def three_jobs() -> Workload:
    """T=2, one worker and one PS server {cpu 2, bw 2}; jobs a, b, c alike: arrive in slot 1,
    W = 1 worker-slot, N = 1, one worker + one PS of {cpu 1, bw 1}, f(0) = 10, f(1) = 7.
    Slot 1 holds two jobs, so OPT = 10 + 10 + 7 = 27 (two finish in slot 1, one in slot 2)."""
    servers = (Server("w1", "worker", {"cpu": 2.0, BANDWIDTH: 2.0}),
               Server("p1", "ps", {"cpu": 2.0, BANDWIDTH: 2.0}))
    jobs = tuple(Job(j, 1, 1, 1, minibatches=10, minibatch_seconds=9.0, gradient_mb=62.5,
                     worker_demand=dict(ONE), ps_demand=dict(ONE),
                     utility=Linear(10.0, 3.0)) for j in "abc")
    return Workload("three", 2, 100.0, RES, servers, jobs)


def test_insertion_by_hand():
    wl = three_jobs()
    ls = LocalSearch(wl)
    pk = Packing.from_columns(wl, [])
    assert ls.insert_all(pk) == 3
    assert pk.fits()
    # a and b take slot 1 (utility 10 each), c only fits in slot 2 (7)
    assert sorted(c.end_slot for c in pk.chosen.values()) == [1, 1, 2]
    assert pk.utility == pytest.approx(27.0)
    chk = check_oasis(wl, schedule_from_columns(wl, list(pk.chosen.values()), [True] * 3))
    assert chk.feasible and chk.objective == pytest.approx(27.0)
    # slot 1 is full now: cpu 2 - 1 - 1 = 0 on both servers
    assert pk.free_w[0, 0] == pytest.approx([0.0, 0.0])
    # dropping a job gives its capacity back exactly
    pk.drop(0)
    assert pk.free_w[0].sum() == pytest.approx(2.0) or pk.free_w[1].sum() == pytest.approx(3.0)


def test_packing_rejects_overlaps():
    wl = three_jobs()
    ls = LocalSearch(wl)
    pk = Packing.from_columns(wl, [])
    ls.insert_all(pk)
    cols = list(pk.chosen.values())
    with pytest.raises(ValueError, match="two columns"):
        Packing.from_columns(wl, [cols[0], cols[0]])
    # three slot-1 schedules need cpu 3 > 2
    slot1 = [c for c in cols if c.end_slot == 1]
    alone = Packing.from_columns(wl, [])
    third = ls.fit(alone, 2)  # job c on the empty cluster: slot 1
    assert third.end_slot == 1
    with pytest.raises(ValueError, match="capacity"):
        Packing.from_columns(wl, slot1 + [third])


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000))
def test_local_search_never_worse_than_oasis_and_checked(seed):
    wl = generate("paper-fig5", seed=seed)
    run = oasis_online(wl)
    start = check_oasis(wl, run.schedule).objective
    pk0 = Packing.from_columns(wl, columns_from_schedule(wl, run.schedule, "oasis"))
    assert pk0.utility == pytest.approx(start, rel=1e-9, abs=1e-9)
    pk, info = LocalSearch(wl, seed=seed).improve(pk0, time_limit=1.0)
    assert pk.fits() and info["end"] == pytest.approx(pk.utility)
    assert pk.utility >= start - 1e-9
    cols = list(pk.chosen.values())
    chk = check_oasis(wl, schedule_from_columns(wl, cols, [True] * len(cols)))
    assert chk.feasible
    assert chk.objective == pytest.approx(pk.utility, rel=1e-9, abs=1e-9)


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), rounds=st.sampled_from([1, 3, None]))
def test_colgen_primal_and_bound_bracket_the_optimum(seed, rounds):
    wl = generate("paper-fig5", seed=seed)
    opt = mlopt.solve(build_utility_ilp(wl), time_limit=60)
    assert opt.status == Status.OPTIMAL
    run = oasis_online(wl)
    alg = check_oasis(wl, run.schedule).objective
    # the primal phase uses its whole limit: at 3 s, 4 examples x 3 s were most of this test
    cg = colgen_bound(wl, run=run, time_limit=20, max_iterations=rounds, ilp_time_limit=5,
                      primal_time_limit=1)
    tol = 1e-6 * max(1.0, opt.objective)
    assert cg.upper_bound >= opt.objective - tol  # certified at any iteration limit
    assert alg - tol <= cg.feasible_objective <= opt.objective + tol
    chk = check_oasis(wl, cg.schedule)
    assert chk.feasible and chk.objective == pytest.approx(cg.feasible_objective)
    primal = cg.details["primal"]
    assert primal["objective"] >= primal["start_objective"] - tol
    assert primal["objective"] <= cg.feasible_objective + tol


def test_primal_phase_off_matches_the_plain_ilp():
    wl = generate("paper-fig5", seed=3)
    off = colgen_bound(wl, primal_time_limit=0)
    on = colgen_bound(wl, primal_time_limit=5)
    assert "primal" not in off.details
    assert on.feasible_objective >= off.feasible_objective - 1e-9
    assert on.upper_bound == pytest.approx(off.upper_bound)  # the primal side changes no bound


def test_total_time_limit_clips_every_phase():
    wl = generate("paper-default", seed=0, n_jobs=20, horizon=20)
    t0 = time.perf_counter()
    cg = colgen_bound(wl, time_limit=600, ilp_time_limit=600, primal_time_limit=600,
                      total_time_limit=4.0)
    # generous slack for a loaded machine: without the clip this runs for minutes
    assert time.perf_counter() - t0 < 20.0
    assert cg.method == "lagrangian_at_limit" or cg.method == "lp_optimal"
    assert check_oasis(wl, cg.schedule).feasible


@pytest.mark.parametrize("budget", [10.0, 60.0, 119.0, 120.0, 600.0])
def test_budget_split_stays_inside_the_budget(budget):
    b = colgen_budget(budget)
    assert b["total_time_limit"] == pytest.approx(0.95 * budget)
    assert b["time_limit"] + b["ilp_time_limit"] + b["primal_time_limit"] <= 0.95 * budget + 1e-9
    # short budgets: the loop (where the bound falls fastest) gets the larger share
    assert b["time_limit"] / budget == pytest.approx(0.65 if budget < 120 else 0.5)
    assert "total_time_limit" not in colgen_budget(None)


def test_bad_lp_point_mode():
    with pytest.raises(InputError) as err:
        colgen_bound(three_jobs(), price_lp_point="sometimes")
    assert err.value.field == "price_lp_point" and err.value.value == "sometimes"


def test_bracket_takes_the_colgen_schedule():
    wl = generate("paper-fig5", seed=1)
    # colgen alone: with the default bounds class_relaxation (from the oasis schedule, confirmed
    # by SCIP) now closes this interval first and colgen is stopped ("the interval closed")
    br = bracket(wl, time_limit=20, exact=False, algorithms=["oasis"], bounds=["colgen"])
    names = {s.name: s for s in br.sources}
    assert names["colgen"].kind == "dual" and names["colgen"].status == "ok"
    assert names["colgen schedule"].kind == "primal"
    assert names["colgen schedule"].value >= names["oasis"].value - 1e-9
    assert br.low >= names["colgen schedule"].value - 1e-9
    assert check_oasis(wl, br.schedule).feasible
    # the class-aggregated relaxation is registered: bracket runs it, a bound above every schedule
    br = bracket(wl, time_limit=20, exact=False, algorithms=["oasis"])
    names = {s.name: s for s in br.sources}
    rel = names["class_relaxation"]
    assert rel.kind == "dual" and rel.status in ("ok", "stopped")  # stopped: a loaded machine
    if rel.status == "ok":
        assert rel.value >= br.low - 1e-6

"""The class relaxation's primal side (primal/disaggregate.py) and its packing cuts
(bounds/packing_cuts.py): split schedules pass the checker, cuts never cut off OPT."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mlopt
from mlopt.families.oasis.bounds.class_relaxation import class_relaxation
from mlopt.families.oasis.bounds.packing_cuts import dff
from mlopt.families.oasis.checker import check_oasis
from mlopt.families.oasis.generator import generate
from mlopt.families.oasis.primal.disaggregate import _greedy, pack_group
from mlopt.models.oasis import build_utility_ilp
from mlopt.solve import Status
from mlopt.workload import Server

R = ("gpu", "bw")


def test_dff_by_hand():
    # u^(1): above half a server counts 1, exactly half 1/2, below half 0
    assert dff(1, 3, 4) == 1.0 and dff(1, 2, 4) == 0.5 and dff(1, 1, 4) == 0.0
    # u^(2)(0.4) = floor(1.2) / 2 = 1/2; u^(2)(1/3) = 1/3 exactly (3 x 1/3 is an integer)
    assert dff(2, 2, 5) == 0.5 and dff(2, 1, 3) == pytest.approx(1 / 3)
    # float data: 1.5 / 3.0 is exactly half, but the float branch rounds down (never above u)
    assert dff(1, 1.5, 3.0) == 0.0 and dff(1, 1.6, 3.0) == 1.0
    assert dff(3, 0.0, 4) == 0.0


def _srv(n, gpu, bw):
    return Server(f"s{n}", "worker", {"gpu": float(gpu), "bw": float(bw)})


def test_pack_group_needs_the_mip():
    # two servers with 10 GPUs; copies a (6 GPUs) x 1, b (4) x 2, c (3) x 2: 20 GPUs in all.
    # The greedy (largest first, onto the server taking most copies): a -> s0 (4 left), both
    # b -> s1 (2 left), one c -> s0 (1 left), the second c fits nowhere.  The exact MIP packs
    # {a, b} and {b, c, c} (10 + 10)
    servers = [_srv(0, 10, 100), _srv(1, 10, 100)]
    demand = {i: {"gpu": g, "bw": 1.0} for i, g in (("a", 6.0), ("b", 4.0), ("c", 3.0))}
    counts = {"a": 1, "b": 2, "c": 2}
    assert _greedy(counts, demand, servers, R) is None
    p = pack_group(counts, demand, servers, R)
    assert p is not None and sum(p.values()) == 5
    for s in ("s0", "s1"):
        assert sum(n * demand[i]["gpu"] for (i, sid), n in p.items() if sid == s) == 10
    # 3 copies of 6 GPUs on two 10-GPU servers: no packing (the MIP proves it)
    assert pack_group({"a": 3}, demand, servers, R) is None


@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000))
def test_split_schedule_is_checked_and_below_the_bound(seed):
    wl = generate("paper-fig5", seed=seed)
    opt = mlopt.solve(build_utility_ilp(wl), time_limit=30)
    rel = class_relaxation(wl, time_limit=30)
    assert rel["schedule"] is not None
    res = check_oasis(wl, rel["schedule"])
    assert res.feasible and res.objective == pytest.approx(rel["feasible_objective"])
    tol = 1e-6 * max(1.0, opt.objective)
    assert rel["feasible_objective"] <= rel["bound"] + tol
    if opt.status == Status.OPTIMAL:  # a schedule never beats OPT; the bound never under it
        assert rel["feasible_objective"] <= opt.objective + tol
        assert rel["bound"] >= opt.objective - tol
    if not rel["dropped"] and rel["status"] == "optimal":
        assert rel["feasible_objective"] == pytest.approx(rel["bound"], rel=1e-6)


def test_warm_start_is_never_lost():
    # the best split of a warm-started relaxation is at least... the start's own value is
    # the solver's first incumbent on the merged cluster; its split drops nothing (it came
    # from real servers) unless the solver found better, so the result is >= the start
    wl = generate("paper-fig5", seed=1)
    opt = mlopt.solve(build_utility_ilp(wl), time_limit=30)
    from mlopt.models.oasis import extract_schedule
    m = build_utility_ilp(wl)
    mlopt.solve(m, time_limit=30)
    start = extract_schedule(m, wl)
    rel = class_relaxation(wl, time_limit=30, warm_start=start)
    assert rel["feasible_objective"] is not None
    assert rel["bound"] >= opt.objective - 1e-6 * max(1.0, opt.objective)

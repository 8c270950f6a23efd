"""The class relaxation's primal side (primal/disaggregate.py) and its packing cuts
(bounds/packing_cuts.py): split schedules pass the checker, cuts never cut off OPT."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mlopt
from mlopt.families.oasis.bounds.class_relaxation import class_relaxation
from mlopt.families.oasis.bounds.packing_cuts import dff, subset_cuts
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


def test_dff_counts_the_checkers_slack():
    # an independent review: demands of 1 + 1.4e-9 GPU, two of which the checker accepts on a
    # 2-GPU server (2 + 2.8e-9 <= 2 (1 + 1e-9) + 1e-9), were counted as more than half a
    # server each (u^(1) = 1), so the rows allowed one per server and the bound fell below OPT.
    # Against the accepted capacity 2 + 3e-9 each is below half: u^(1) = 0
    assert dff(1, 1 + 1.4e-9, 2.0, exact=False) == 0.0
    assert dff(1, 1 + 1.4e-9, 2.0) == 0.0  # not an integer: the float branch either way
    # integer data in a row whose other demands are not integers: the float branch, so exact
    # halves no longer count 1/2 (valid, weaker)
    assert dff(1, 1, 2, exact=True) == 0.5 and dff(1, 1, 2, exact=False) == 0.0


def test_packing_rows_hold_on_a_schedule_using_the_checkers_slack():
    """The review's instance: the utility ILP's optimum 440.30 (checker-feasible) places two
    workers of 1 + 1.4e-9 GPU on 2-GPU servers; the merged model with the packing rows must stay
    at or above it (it was 398.50)."""
    import dataclasses

    from mlopt.families.oasis.bounds.class_relaxation import build_class_relaxation
    from mlopt.solve import solve

    wl = generate("paper-fig5", seed=0, n_servers=4, n_jobs=10, worker_types=("g3.8xlarge",),
                  chunks=(2, 8))
    wl = dataclasses.replace(wl, jobs=tuple(
        dataclasses.replace(j, worker_demand={**j.worker_demand, "gpu": 1 + 1.4e-9})
        for j in wl.jobs))
    opt = solve(build_utility_ilp(wl), "highs", time_limit=60)
    assert opt.status == Status.OPTIMAL
    m, _merged, _members = build_class_relaxation(wl, packing_cuts=True)
    rel = solve(m, "highs", time_limit=60)
    assert rel.bound >= opt.objective - 1e-6


def test_a_nan_solution_reads_as_no_packing():
    # HiGHS 1.16 once reported a feasible primal status with NaN column values (review)
    from types import SimpleNamespace

    from mlopt.families.oasis.primal.disaggregate import _solution

    def highs(values, status=2):
        return SimpleNamespace(getInfo=lambda: SimpleNamespace(primal_solution_status=status),
                               getSolution=lambda: SimpleNamespace(col_value=values))
    assert _solution(highs([1.0, float("nan")])) is None
    assert _solution(highs([1.0, 2.0], status=1)) is None
    assert _solution(highs([1.0, 2.0])) == [1.0, 2.0]


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


@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
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
    # a warm start is checked and kept as the incumbent to beat: the result's schedule is
    # never below it, the bound never below OPT
    from mlopt.models.oasis import extract_schedule

    wl = generate("paper-fig5", seed=1)
    m = build_utility_ilp(wl)
    opt = mlopt.solve(m, time_limit=30)
    start = extract_schedule(m, wl)
    rel = class_relaxation(wl, time_limit=30, warm_start=start)
    tol = 1e-6 * max(1.0, opt.objective)
    assert rel["feasible_objective"] >= check_oasis(wl, start).objective - tol
    assert check_oasis(wl, rel["schedule"]).feasible
    assert rel["bound"] >= opt.objective - tol


def test_subset_cut_by_hand():
    # two servers {cpu 16, mem 122}; p = {cpu 3, mem 26} (4 per server, by memory), q =
    # {cpu 9, mem 3} (1 per server, by cpu).  7 p + 1 q fits the summed capacity (cpu 30 <= 32,
    # mem 185 <= 244) but not the servers: q's server keeps cpu 7 for 2 p, the other takes 4 p.
    # The packable maxima are (8, 0), (6, 1), (4, 2): the cut is p + 2 q <= 8 (scaled to sum 1)
    R2 = ("cpu", "mem")
    servers = [Server(f"s{n}", "worker", {"cpu": 16.0, "mem": 122.0}) for n in range(2)]
    demand = {"p": {"cpu": 3.0, "mem": 26.0}, "q": {"cpu": 9.0, "mem": 3.0}}
    assert pack_group({"p": 7, "q": 1}, demand, servers, R2) is None
    [(alpha, beta)] = subset_cuts({"p": 7, "q": 1}, {"p": 8, "q": 2}, demand, servers, R2)
    assert alpha["q"] == pytest.approx(2 * alpha["p"]) and beta / alpha["p"] == pytest.approx(8)
    assert subset_cuts({"p": 4, "q": 2}, {"p": 8, "q": 2}, demand, servers, R2) == []


@settings(max_examples=6, deadline=None)
@given(caps=st.lists(st.integers(4, 12), min_size=2, max_size=3),
       d=st.lists(st.tuples(st.integers(1, 7), st.integers(1, 7)), min_size=2, max_size=2))
def test_subset_cuts_keep_every_packable_count(caps, d):
    # brute force: every count vector a <= most that packs (the exact MIP) satisfies every cut
    # derived from any unpackable vector
    R2 = ("cpu", "mem")
    servers = [Server(f"s{n}", "worker", {"cpu": float(c), "mem": 10.0}) for n, c in
               enumerate(caps)]
    demand = {"a": {"cpu": float(d[0][0]), "mem": float(d[0][1])},
              "b": {"cpu": float(d[1][0]), "mem": float(d[1][1])}}
    most = {i: sum(min(int(s.capacity["cpu"] // demand[i]["cpu"]),
                       int(s.capacity["mem"] // demand[i]["mem"])) for s in servers)
            for i in demand}
    grid = [(x, y) for x in range(most["a"] + 1) for y in range(most["b"] + 1)]
    packs = {(x, y): pack_group({"a": x, "b": y}, demand, servers, R2) is not None
             for (x, y) in grid}
    for (x, y) in grid:
        if packs[x, y]:
            continue
        for alpha, beta in subset_cuts({"a": x, "b": y}, most, demand, servers, R2):
            assert alpha.get("a", 0) * x + alpha.get("b", 0) * y > beta  # cuts the point
            for (u, v), ok in packs.items():
                if ok:
                    assert alpha.get("a", 0) * u + alpha.get("b", 0) * v <= beta + 1e-9


def test_a_round_of_subset_rows_proves_the_optimum():
    # paper-fig5 seed 6: the merged optimum (544.83) has one (slot, class) group that does
    # not pack; its subset rows cut it off, and the next merged optimum splits without a
    # drop: schedule = bound = the utility ILP's optimum (544.11, solved here)
    wl = generate("paper-fig5", seed=6)
    rel = class_relaxation(wl, time_limit=60)
    first, last = rel["rounds"][0], rel["rounds"][-1]
    assert first["unpacked"] >= 1 and first["cuts"] >= 1 and last["unpacked"] == 0
    assert rel["proven"] and rel["feasible_objective"] == pytest.approx(rel["bound"], rel=1e-9)
    assert check_oasis(wl, rel["schedule"]).feasible
    opt = mlopt.solve(build_utility_ilp(wl), time_limit=60)
    assert opt.status == Status.OPTIMAL
    assert rel["bound"] == pytest.approx(opt.objective, rel=1e-6)
    assert first["bound"] > opt.objective + 0.5  # the first round alone did not prove it

"""``pnb`` (price-and-branch over colgen_lb's columns): registered, checked, never worse than
its warm start and never below OPT."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from mlopt.errors import InputError
from mlopt.families import get_family
from mlopt.families.hetero.fields import hetero_data
from mlopt.families.hetero.generator import generate
from mlopt.families.hetero.mincost import Placement
from mlopt.families.hetero.price_and_branch import Residual, decode, encode, run_pnb
from mlopt.models.hetero.placement_ti import build_placement_ti, extract_schedule
from mlopt.solve import Status, solve
from tests.hetero_fixtures import OPT, hand

FAM = get_family("hetero")


def test_registered_as_reference_with_options():
    rec = FAM.algorithm_record("pnb")
    assert rec.role == "reference"
    assert set(FAM.option_schema("pnb")) == {"time_limit", "warm", "colgen_share",
                                             "configs_per_job", "master_share",
                                             "insertion_price"}


@pytest.mark.parametrize("arch", ["ps", "ra"])
def test_hand_instance_optimal(arch):
    # A (w = 2): 2 w1 workers co-located on one server for 1 slot from a = 1: c_A = 2;
    # B (w = 1): one w2 worker (2 GPUs) on the other server for 3 slots: c_B = 4.
    # 2 * 2 + 1 * 4 = 8 = OPT (both start at once, each alone on a server)
    w = hand(arch)
    s = run_pnb(w, time_limit=5, warm="none")
    res = FAM.check(w, s)
    assert res.feasible and res.objective == pytest.approx(OPT)


def test_residual_add_remove_restores():
    w = hand()
    data = hetero_data(w)
    r = Residual(data)
    pl = Placement(0, 0, 0, 1, 2, 6, 3, {1: 2}, {1: 1})  # slots 3..8 on s2
    r.add(pl)
    assert r.free(3, 9)[1, 0] == pytest.approx(0.0)  # 2 GPUs of s2 used by 2 w1 workers
    assert r.free(1, 3)[1, 0] == pytest.approx(2.0)
    r.add(pl, -1.0)
    assert (r.free(1, 20) == data.cap).all()


def test_decode_encode_round_trip():
    w = generate("small", seed=3, n_jobs=4)
    s = FAM.run("tiresias", w, seed=0)
    before = FAM.check(w, s)
    again = encode(hetero_data(w), decode(hetero_data(w), s))
    after = FAM.check(w, again)
    assert after.feasible and after.objective == pytest.approx(before.objective)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), preset=st.sampled_from(["tiny", "tiny-ra", "small"]),
       warm=st.sampled_from(["tiresias", "fifo", "a_online"]))
def test_checked_never_worse_than_warm_never_below_opt(seed, preset, warm):
    w = generate(preset, seed=seed, **({"n_jobs": 4} if preset == "small" else {}))
    start = FAM.check(w, FAM.run(warm, w, seed=0))
    s = run_pnb(w, time_limit=3, warm=warm, seed=seed)
    res = FAM.check(w, s)
    assert res.feasible
    assert res.objective <= start.objective * (1 + 1e-12)
    opt = solve(build_placement_ti(w), time_limit=60)
    assert opt.status == Status.OPTIMAL
    assert res.objective >= opt.objective * (1 - 1e-9)


@pytest.mark.parametrize("field, value", [("warm", "nope"), ("time_limit", 0.0),
                                          ("colgen_share", 0.95), ("configs_per_job", 0),
                                          ("master_share", 0.99),
                                          ("insertion_price", -1.0)])
def test_bad_options_refused(field, value):
    with pytest.raises(InputError) as err:
        FAM.run("pnb", hand(), seed=0, **{field: value})
    assert err.value.field == field and err.value.value == value


def test_colgen_lb_primal_side_returns_a_checked_schedule():
    # hetero-small-0 style: 5 jobs on 2 servers; the bound's schedule lies between the bound
    # and Tiresias's checked objective, and primal=False returns none
    w = generate("small", seed=0)
    from mlopt.families.hetero.colgen import colgen_lb
    r = colgen_lb(w, time_limit=30)
    res = FAM.check(w, r["schedule"])
    tiresias = FAM.check(w, FAM.run("tiresias", w, seed=0)).objective
    assert res.feasible and r["primal"]["objective"] == pytest.approx(res.objective)
    assert r["bound"] <= res.objective <= tiresias * (1 + 1e-12)
    assert "schedule" not in colgen_lb(w, time_limit=30, primal=False)


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), preset=st.sampled_from(["tiny", "tiny-ra"]))
def test_start_schedule_is_the_floor(seed, preset):
    # bracket hands pnb its best schedule (start_option): from the proven optimum pnb can only
    # return a schedule of the same value, and from a weak start (fifo) never a worse one
    w = generate(preset, seed=seed)
    m = build_placement_ti(w)
    opt = solve(m, time_limit=60)
    assert opt.status == Status.OPTIMAL
    for start in (extract_schedule(m, w), FAM.run("fifo", w, seed=0)):
        floor = FAM.check(w, start).objective
        res = FAM.check(w, run_pnb(w, time_limit=2, start_schedule=start, seed=seed))
        assert res.feasible
        assert opt.objective * (1 - 1e-9) <= res.objective <= floor * (1 + 1e-12)


def test_rejected_start_schedule_refused():
    w = hand()
    bad = FAM.run("fifo", w, seed=0)
    bad.allocations = bad.allocations.iloc[1:]  # a job loses a slot of its run
    assert not FAM.check(w, bad).feasible
    with pytest.raises(InputError) as err:
        run_pnb(w, time_limit=2, start_schedule=bad)
    assert err.value.field == "start"


def test_start_option_declared_not_a_user_option():
    rec = FAM.algorithm_record("pnb")
    assert rec.start_option == "start_schedule"
    assert "start_schedule" not in FAM.option_schema("pnb")

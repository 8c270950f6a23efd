"""The exact hetero models and bounds admit every schedule the checker accepts (DECISION in
mlopt.tolerance).  The checker grants 1e-9 relative on work and 1e-9 relative + 1e-9 absolute on
capacities and on (2i); before the fix the durations, the capacity rows, the PS counts and the
bounds used exact values, and each instance below had a checked schedule below the models'
"optimal" value and below ``lower_bound`` / ``colgen_lb`` (a minimization family: a stricter
model puts its optimum, and a bound, above a checked schedule)."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from hetero_fixtures import OPT, OPT_ROWS, hand, sched
from mlopt import pipeline
from mlopt.bracket import bracket
from mlopt.families.hetero.bounds import lower_bound
from mlopt.families.hetero.checker import check_hetero
from mlopt.families.hetero.colgen import colgen_lb
from mlopt.families.hetero.fields import hetero_data
from mlopt.families.hetero.generator import generate
from mlopt.solve import Status
from mlopt.workload import Workload

MODELS = ("wct_milp", "placement_ti", "placement_clique")


def slow_b(d):
    """Job B's mini-batch takes 1.0000000005 slots on either worker type: 3 mini-batches are
    x = 3.0000000015 slots of work, and 3 slots do 3 / 1.0000000005 = 2.9999999985 >=
    3 (1 - 1e-9) of it (the checker's slack).  ceil(x - 1e-9) = 4 slots made the models' best
    c_B = 5 (WCT 9) where the checker accepts the hand optimum's c_B = 4 (WCT 8)."""
    d["jobs"][1]["extra"]["minibatch_slots"] = [1.0000000005, 1.0000000005]


def heavy_w1(d):
    """A w1 worker needs 1 + 1e-9 GPUs: A's two w1 workers on s1 load 2.000000002 <=
    2 (1 + 1e-9) + 1e-9 GPUs (the checker's slack); the exact rows allowed one per server, so A
    took both servers' GPUs (two w2) or two slots and B could not start in slot 1."""
    d["extra"]["hetero"]["worker_types"][0]["demand"]["gpu"] = 1.0 + 1e-9


@pytest.mark.parametrize("mutate", [slow_b, heavy_w1])
def test_the_hand_optimum_stays_checked_and_no_model_is_above_it(mutate):
    wl = hand(mutate=mutate)
    checked = check_hetero(wl, sched(OPT_ROWS))
    assert checked.feasible and checked.objective == OPT
    for model in MODELS:
        res = pipeline.solve_offline(wl, family="hetero", model=model, time_limit=60)
        assert res.solve.status == Status.OPTIMAL and res.check.feasible, model
        assert res.objective <= OPT + 1e-9, model  # was 9
    assert lower_bound(wl)["bound"] <= OPT + 1e-9  # slow_b: was 9 (a_B + dmin_B = 1 + 4)
    got = colgen_lb(wl, time_limit=20, primal=False)
    assert got["bound"] <= OPT + 1e-9


def ps_bandwidth_instance() -> Workload:
    """(2i) slack.  s1 holds PSs only (no GPU), s2 workers only (no CPU); w1: 1 GPU, 1 Gbit/s;
    p1: 1 CPU, B = 1 - 1e-9 Gbit/s; s1 has 2 CPUs.  Job A (w = 1, E D K = 4, v = 1 slot,
    comm 0.001 slot): two workers on s2 need 2 / (1 - 1e-9) = 2.000000002 PSs' worth of
    bandwidth; two PSs cover 1.999999998 (1 + 1e-9) + 1e-9 >= 2 (the checker's slack).  So
    N = 2 runs ceil(4 x 1.001 / 2) = 3 slots: c_A = 4.  ceil(2.000000002 - 1e-9) = 3 PSs do not
    fit s1, so the models ran N = 1 (one PS): ceil(4.004) = 5 slots, c_A = 6."""
    d = hand().to_dict()
    d["servers"] = [
        {"id": "s1", "role": "any", "capacity": {"gpu": 0, "cpu": 2, "memory_gb": 32,
                                                 "bandwidth_gbps": 10}},
        {"id": "s2", "role": "any", "capacity": {"gpu": 2, "cpu": 0, "memory_gb": 32,
                                                 "bandwidth_gbps": 10}}]
    h = d["extra"]["hetero"]
    h["worker_types"] = [{"id": "w1", "demand": {"gpu": 1, "cpu": 0, "memory_gb": 4,
                                                 "bandwidth_gbps": 1}}]
    h["ps_types"] = [{"id": "p1", "demand": {"gpu": 0, "cpu": 1, "memory_gb": 2,
                                             "bandwidth_gbps": 1 - 1e-9}}]
    a = d["jobs"][0]
    a["worker_demand"] = dict(h["worker_types"][0]["demand"])
    a["ps_demand"] = dict(h["ps_types"][0]["demand"])
    a["extra"]["minibatch_slots"] = [1.0]
    a["extra"]["ps_update_ms"] = [0.0]
    a["extra"]["weight"] = 1.0
    d["jobs"] = [a]
    return Workload.from_dict(d)


def test_two_ps_within_the_bandwidth_slack():
    wl = ps_bandwidth_instance()
    rows = [("A", t, "s2", "worker", 2, "w1") for t in (1, 2, 3)] + \
        [("A", t, "s1", "ps", 2, "p1") for t in (1, 2, 3)]
    checked = check_hetero(wl, sched(rows))
    assert checked.feasible and checked.objective == 4.0
    for model in MODELS:
        res = pipeline.solve_offline(wl, family="hetero", model=model, time_limit=60)
        assert res.solve.status == Status.OPTIMAL and res.check.feasible, model
        assert res.objective <= 4.0 + 1e-9, model  # was 6
    assert lower_bound(wl)["bound"] <= 4.0 + 1e-9
    assert colgen_lb(wl, time_limit=20, primal=False)["bound"] <= 4.0 + 1e-9


def test_bracket_is_not_optimal_above_a_checked_schedule():
    """From the hand optimum (8) as its start, the bracket on ``slow_b`` must not report a bound
    above it (before: the exact model's 9, "disputed" at best)."""
    wl = hand(mutate=slow_b)
    b = bracket(wl, family="hetero", time_limit=30, algorithms=[],
                start_schedule=sched(OPT_ROWS))
    assert b.low <= OPT + 1e-9 and b.status == "optimal" and b.high == pytest.approx(OPT)


def test_integer_and_binary_grid_data_keep_exact_limits():
    """``limit`` is C itself on the hand instance (PS bandwidth 1.5: a binary grid), the
    accepted load C (1 + 1e-9) + 1e-9 where a demand is off the grid."""
    assert (hetero_data(hand()).limit == hetero_data(hand()).cap).all()
    data = hetero_data(hand(mutate=heavy_w1))
    gpu = data.resources.index("gpu")
    assert data.limit[0, gpu] == 2 * (1 + 1e-9) + 1e-9
    assert data.limit[0, data.resources.index("cpu")] == data.cap[0, 1]


def within_slack(wl: Workload, factor: float = 1 + 9e-10) -> Workload:
    """``wl`` with every worker / PS type demand and every mini-batch time times ``factor``:
    a schedule feasible on ``wl`` loads at most C (1 + 9e-10) and does E D K / (1 + 9e-10) >=
    E D K (1 - 1e-9), so the checker still accepts it here."""
    d = wl.to_dict()
    h = d["extra"]["hetero"]
    for kind in ("worker_types", "ps_types"):
        for t in h.get(kind, []):
            t["demand"] = {r: v * factor for r, v in t["demand"].items()}
    for j in d["jobs"]:
        j["extra"]["minibatch_slots"] = [v * factor for v in j["extra"]["minibatch_slots"]]
    return Workload.from_dict(d)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), ra=st.booleans())
def test_a_schedule_within_the_slack_is_never_beaten_by_the_exact_optimum(seed, ra):
    """Random tiny instances: the optimum of ``wl`` is checked on ``within_slack(wl)``, so the
    exact optimum there (placement_clique, the default) is at most its value."""
    wl = generate("tiny-ra" if ra else "tiny", seed=seed)
    off = pipeline.solve_offline(wl, family="hetero", time_limit=60)
    assert off.solve.status == Status.OPTIMAL and off.check.feasible
    near = within_slack(wl)
    again = check_hetero(near, off.schedule)
    assert again.feasible and again.objective == pytest.approx(off.objective)
    res = pipeline.solve_offline(near, family="hetero", time_limit=60)
    assert res.solve.status == Status.OPTIMAL and res.check.feasible
    assert res.objective <= off.objective * (1 + 1e-9)
    assert lower_bound(near)["bound"] <= off.objective * (1 + 1e-9)


def four_slow_minibatches(d):
    """Job B: 4 mini-batches of 1.000000001 slots on either worker type (N = 1, co-located:
    rho = 1 / 1.000000001).  Four slots do 4 rho = 3.9999999959999997 < 4 (1 - 1e-9) =
    3.999999996 in floats (the checker rejects them); (4 / rho) (1 - 1e-9) rounds to 4.0, so
    ceil gave 4 slots: the models ran B 4 slots (WCT 9) and their schedule failed the checker.
    Five slots: c_B = 6, WCT 2 x 2 + 1 x 6 = 10."""
    d["jobs"][1]["minibatches"] = 4
    d["jobs"][1]["extra"]["minibatch_slots"] = [1.000000001, 1.000000001]


def test_a_duration_the_checker_rejects_is_never_the_models():
    wl = hand(mutate=four_slow_minibatches)
    four = [("A", 1, "s1", "worker", 2, "w1"), ("A", 1, "s1", "ps", 1, "p1")] + [
        r for t in (1, 2, 3, 4) for r in (("B", t, "s2", "worker", 1, "w1"),
                                          ("B", t, "s2", "ps", 1, "p1"))]
    assert check_hetero(wl, sched(four)).constraints_violated() == {"c2f_work_done"}
    five = four + [("B", 5, "s2", "worker", 1, "w1"), ("B", 5, "s2", "ps", 1, "p1")]
    assert check_hetero(wl, sched(five)).objective == 10.0  # 2 x 2 + 1 x 6
    for model in MODELS:
        res = pipeline.solve_offline(wl, family="hetero", model=model, time_limit=60)
        assert res.solve.status == Status.OPTIMAL and res.check.feasible, model  # was 9, rejected
        assert res.objective == 10.0, model


@settings(max_examples=150, deadline=None)
@given(work=st.integers(2, 40), k=st.integers(1, 12), n=st.integers(1, 2),
       ulps=st.integers(-6, 6), ra=st.booleans())
def test_durations_are_the_checkers_least_slots(work, k, n, ulps, ra):
    """Mini-batch times at the boundary d N rho = E D K (1 - 1e-9) up to a few ulps: the
    duration of every model (``HeteroData.duration``, ``job_config_arrays``) is the fewest
    slots the checker accepts, to the slot -- d slots of B on s1 pass, d - 1 fail."""
    import math

    from mlopt.families.hetero.configs import job_config_arrays

    v = k * n / (work * (1 - 1e-9))
    v += ulps * math.ulp(v)

    def mutate(d):
        d["jobs"][1]["chunks"], d["jobs"][1]["minibatches"] = n, work
        d["jobs"][1]["extra"]["minibatch_slots"] = [v, v]
    wl = hand("ra" if ra else "ps", mutate=mutate)
    data = hetero_data(wl)
    rate = data.rate(1, 0, 0, 1, n)
    d = data.duration(1, n, rate)
    arr = job_config_arrays(data, 1, worker_types=[0], workers=n)
    got = {int(r[4]) for r in arr if r[2] == 1 and (ra or r[1] == 0)}
    assert got == {d}  # the array path computes the same duration

    def rows(slots):
        out = [("B", t, "s1", "worker", n, "w1") for t in range(1, slots + 1)]
        return out if ra else out + [("B", t, "s1", "ps", 1, "p1") for t in range(1, slots + 1)]
    a = [("A", 1, "s2", "worker", 2, "w1")] + ([] if ra else [("A", 1, "s2", "ps", 1, "p1")])
    assert check_hetero(wl, sched(a + rows(d))).feasible
    if d > 1:
        assert check_hetero(wl, sched(a + rows(d - 1))).constraints_violated() == \
            {"c2f_work_done"}


def split_instance(b: float, B: float, ps_cpu: int) -> Workload:
    """``ps_bandwidth_instance`` with worker bandwidth b, PS bandwidth B, ``ps_cpu`` CPUs on
    s1 (one per PS) and 100 Gbit/s servers: every placement has A's workers on s2 and its PSs
    on s1 (q = 0)."""
    d = ps_bandwidth_instance().to_dict()
    h = d["extra"]["hetero"]
    h["worker_types"][0]["demand"]["bandwidth_gbps"] = b
    h["ps_types"][0]["demand"]["bandwidth_gbps"] = B
    d["servers"][0]["capacity"]["cpu"] = ps_cpu
    for srv in d["servers"]:  # bandwidth_gbps is also a capacity: not the binding one here
        srv["capacity"]["bandwidth_gbps"] = 100
    a = d["jobs"][0]
    a["worker_demand"] = dict(h["worker_types"][0]["demand"])
    a["ps_demand"] = dict(h["ps_types"][0]["demand"])
    return Workload.from_dict(d)


def test_a_ps_count_the_checker_rejects_is_never_the_models():
    """Two remote workers of b = 0.45000000095000003 Gbit/s over PSs of 0.3: the quotient
    (2b - 1e-9) / (0.3 (1 + 1e-9)) rounds to 3, but the checker's 2b = 0.9000000019000001 >
    3 x 0.3 (1 + 1e-9) + 1e-9 = 0.9000000019 rejects 3 PSs.  s1 holds 3 PSs: N = 2 (c_A = 4)
    does not fit; the models said 4 and their schedule failed the checker.  N = 1 needs 2 PSs
    and ceil(4 x 1.0022.. / 1) = 5 slots: c_A = 6."""
    wl = split_instance(0.45000000095000003, 0.3, 3)
    three = [("A", t, "s2", "worker", 2, "w1") for t in (1, 2, 3)] + \
        [("A", t, "s1", "ps", 3, "p1") for t in (1, 2, 3)]
    assert check_hetero(wl, sched(three)).constraints_violated() == {"c2i_ps_bandwidth"}
    for model in MODELS:
        res = pipeline.solve_offline(wl, family="hetero", model=model, time_limit=60)
        assert res.solve.status == Status.OPTIMAL and res.check.feasible, model  # was 4, rejected
        assert res.objective == 6.0, model


@settings(max_examples=100, deadline=None)
@given(k=st.integers(1, 6), n=st.integers(1, 2), B=st.sampled_from([0.3, 0.7, 1.1, 1.3, 2.3]),
       ulps=st.integers(-6, 6))
@example(k=3, n=2, B=0.3, ulps=1)  # 6 of the 780 cases had one PS too few before the fix
@example(k=5, n=1, B=1.1, ulps=1)
def test_ps_counts_are_the_checkers_fewest(k, n, B, ulps):
    """Worker bandwidths at the boundary n b = k B (1 + 1e-9) + 1e-9 up to a few ulps:
    ``fewest_ps`` (every model's PS count) is the fewest PSs the checker accepts -- that many
    on s1 pass (2i), one fewer fails."""
    import math

    b = (k * B * (1 + 1e-9) + 1e-9) / n
    b += ulps * math.ulp(b)
    wl = split_instance(b, B, 16)
    data = hetero_data(wl)
    s = data.fewest_ps(n * data.b[0], 0)
    assert s == int(data.fewest_ps([n * data.b[0]], 0)[0])  # the array path agrees
    dur = data.duration(0, n, data.rate_ps(0, 0, 0, 0))

    def rows(ps):
        return [("A", t, "s2", "worker", n, "w1") for t in range(1, dur + 1)] + \
            [("A", t, "s1", "ps", ps, "p1") for t in range(1, dur + 1)]
    assert check_hetero(wl, sched(rows(s))).feasible
    if s > 1:
        assert check_hetero(wl, sched(rows(s - 1))).constraints_violated() == \
            {"c2i_ps_bandwidth"}


def big_memory(d):
    """Servers of 100,002 GB; a w1 worker needs 50,000 (1 + 1e-9) GB: the hand optimum's s1
    (2 w1 + 1 p1) loads 100,002.0001 <= 100,002 (1 + 1e-9) + 1e-9 (the checker's slack).  The
    excess over C, 1e-4, is beyond HiGHS's feasibility tolerance (2e-9 on a 2-GPU row is not:
    ``heavy_w1`` passes with exact rows), so an exact wct_milp / placement_ti row fails this."""
    for s in d["servers"]:
        s["capacity"]["memory_gb"] = 100_002
    d["extra"]["hetero"]["worker_types"][0]["demand"]["memory_gb"] = 50_000 * (1 + 1e-9)


def big_bandwidth() -> Workload:
    """``ps_bandwidth_instance`` at 1000 Gbit/s workers and PSs of 1000 (1 - 1e-9): two PSs
    cover 1999.999998 (1 + 1e-9) + 1e-9 >= 2000 (the checker's slack), 2e-6 short of the
    exact row (beyond HiGHS's tolerance): wct_milp's (2i) row needs its slack here."""
    d = ps_bandwidth_instance().to_dict()
    h = d["extra"]["hetero"]
    h["worker_types"][0]["demand"]["bandwidth_gbps"] = 1000.0
    h["ps_types"][0]["demand"]["bandwidth_gbps"] = 1000.0 * (1 - 1e-9)
    for srv in d["servers"]:
        srv["capacity"]["bandwidth_gbps"] = 10_000
    d["jobs"][0]["worker_demand"] = dict(h["worker_types"][0]["demand"])
    d["jobs"][0]["ps_demand"] = dict(h["ps_types"][0]["demand"])
    return Workload.from_dict(d)


def test_the_model_rows_admit_slack_beyond_highs_tolerance():
    """The capacity rows (2h) and wct_milp's (2i) are the checker's accepted loads, not only
    in the closed-form placement tests: on large capacities the slack is beyond what HiGHS's
    tolerance would forgive an exact row."""
    wl = hand(mutate=big_memory)
    assert check_hetero(wl, sched(OPT_ROWS)).objective == OPT
    two_ps = [("A", t, "s2", "worker", 2, "w1") for t in (1, 2, 3)] + \
        [("A", t, "s1", "ps", 2, "p1") for t in (1, 2, 3)]
    bw = big_bandwidth()
    assert check_hetero(bw, sched(two_ps)).objective == 4.0
    for model in MODELS:
        for w, best in ((wl, OPT), (bw, 4.0)):
            res = pipeline.solve_offline(w, family="hetero", model=model, time_limit=60)
            assert res.solve.status == Status.OPTIMAL and res.check.feasible, model
            assert res.objective == best, model

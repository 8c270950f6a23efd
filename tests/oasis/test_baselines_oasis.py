"""OASiS baselines (seed 000, Sec. V-A): FIFO, DRF, RRH, Dorm in mlopt/families/oasis/baselines/.

Hand-built instances use slot_seconds=100 and M=10 mini-batches of tau=10 s with e=0, so a chunk
takes 10*10/100 = 1 worker-slot and the work of a job is W = E*N worker-slots exactly.  Workers
need 1 GPU and 1 Gbps (b=1), PSs 1 vCPU and B=2 Gbps, so y workers need p(y) = ceil(y/2) PSs.
The GPU count of the single worker server therefore sets how many workers run at once.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from mlopt.testing import assert_golden_lp
from mlopt.families.oasis.baselines import BASELINES, run_dorm, run_drf, run_fifo, run_rrh
from mlopt.families.oasis.baselines._simulate import min_ps
from mlopt.families.oasis.baselines.dorm import fair_shares
from mlopt.families.oasis.checker import check_oasis
from mlopt.errors import InputError
from mlopt.families.oasis.generator import generate
from mlopt.models.oasis.dorm import DormJob, build_dorm, extract_dorm
from mlopt.solve import Status, solve
from mlopt.utility import Constant, Linear, Sigmoid
from mlopt.workload import BANDWIDTH, Job, Server, Workload, validate

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "golden" / "dorm_tiny.lp"
RES = ("gpu", "cpu", BANDWIDTH)


# ---- helpers ---------------------------------------------------------------------------------
def job(jid, arrival, work, utility, *, chunks=None, b=1.0, B=2.0):
    """A job of exactly ``work`` worker-slots (E = work / N epochs of N chunks of 1 slot)."""
    n = chunks if chunks is not None else work
    assert work % n == 0
    return Job(jid, arrival, epochs=work // n, chunks=n, minibatches=10, minibatch_seconds=10.0,
               gradient_mb=0.0, worker_demand={"gpu": 1.0, "cpu": 1.0, BANDWIDTH: b},
               ps_demand={"gpu": 0.0, "cpu": 1.0, BANDWIDTH: B}, utility=utility)


def workload(horizon, jobs, *, gpus=2.0, ps_cpu=16.0, worker_servers=1) -> Workload:
    servers = tuple(Server(f"w{n + 1}", "worker", {"gpu": gpus, "cpu": 64.0, BANDWIDTH: 100.0})
                    for n in range(worker_servers))
    servers += (Server("p1", "ps", {"gpu": 0.0, "cpu": ps_cpu, BANDWIDTH: 100.0}),)
    return validate(Workload("hand", horizon, 100.0, RES, servers, tuple(jobs)))


def alloc_by_slot(schedule, jid):
    """slot -> frozenset of (server, role, count) for job ``jid``."""
    out = {}
    for r in schedule.rows_for(jid).itertuples(index=False):
        out.setdefault(int(r.slot), set()).add((r.server, r.role, int(r.count)))
    return {t: frozenset(v) for t, v in out.items()}


def workers_by_slot(schedule, jid):
    rows = schedule.rows_for(jid)
    rows = rows[rows["role"] == "worker"]
    return rows.groupby("slot")["count"].sum().astype(int).to_dict()


def changes(schedule, horizon):
    """slot -> (jobs started or resumed, jobs whose held allocation changed or vanished).

    A job that completed at t-1 (its last row) is not a change at t.
    """
    per_job = {j: alloc_by_slot(schedule, j) for j in schedule.admitted}
    out = {}
    for t in range(2, horizon + 1):
        started, adjusted = set(), set()
        for j, a in per_job.items():
            before, now = a.get(t - 1), a.get(t)
            if before is None and now is not None:
                started.add(j)
            elif before is not None and max(a) > t - 1 and before != now:
                adjusted.add(j)
        out[t] = (started, adjusted)
    return out


def event_slots(workload, schedule):
    """Arrival slots and slots right after a completion (completion slot = last worker row)."""
    ev = {j.arrival for j in workload.jobs}
    for j in schedule.admitted:
        ev.add(max(workers_by_slot(schedule, j)) + 1)
    return ev


def assert_sound(wl, s):
    """The checker accepts; the admitted set, claims and dropped jobs are consistent."""
    res = check_oasis(wl, s)
    assert res.feasible, res.summary()
    assert res.objective == pytest.approx(s.meta["claimed_utility"], abs=1e-9)
    completed = {k for k, v in s.meta["jobs"].items() if v["status"] == "completed"}
    assert set(s.admitted) == completed
    dropped = set(s.meta["unfinished"]) | set(s.meta["rejected"]) | set(s.meta["unrunnable"])
    assert dropped.isdisjoint(s.admitted)
    assert dropped | completed == {j.id for j in wl.jobs}
    assert not s.allocations["job"].isin(dropped).any()
    for jid in s.admitted:
        assert s.meta["jobs"][jid]["completion"] == max(workers_by_slot(s, jid))
    return res


def run(name, wl, **kw):
    return BASELINES[name](wl, **kw)


FAST_DORM = {"time_limit": 10.0}


# ---- every baseline on generated workloads ---------------------------------------------------
CASES = [("tiny", 0), ("tiny", 1), ("tiny", 2), ("paper-fig5", 0), ("paper-fig5", 2),
         ("paper-fig5", 5)]


@pytest.fixture(scope="module")
def generated():
    return {case: generate(*case) for case in CASES}


@pytest.fixture(scope="module")
def schedules(generated):
    return {(name, case): run(name, wl, seed=case[1])
            for case, wl in generated.items() for name in BASELINES}


def test_registry_names():
    assert list(BASELINES) == ["fifo", "drf", "rrh", "dorm"]
    assert BASELINES["dorm"] is run_dorm and BASELINES["fifo"] is run_fifo


@pytest.mark.parametrize("name", list(BASELINES))
@pytest.mark.parametrize("case", CASES)
def test_checker_accepts_every_baseline(generated, schedules, name, case):
    wl, s = generated[case], schedules[(name, case)]
    assert_sound(wl, s)
    assert s.meta["algorithm"] == name
    # Allocations change only upon arrivals and completions.
    ev = event_slots(wl, s)
    for t, (started, adjusted) in changes(s, wl.horizon).items():
        if started or adjusted:
            assert t in ev, (t, started, adjusted)


def test_baselines_complete_jobs_on_contended_instances(generated, schedules):
    """Guard against a do-nothing baseline passing the checker vacuously."""
    for name in BASELINES:
        total = sum(len(schedules[(name, c)].admitted) for c in CASES)
        assert total >= 15, (name, total)


@pytest.mark.parametrize("name", list(BASELINES))
def test_deterministic_per_seed(generated, schedules, name):
    wl = generated[("paper-fig5", 2)]
    again = run(name, wl, seed=2)
    first = schedules[(name, ("paper-fig5", 2))]
    assert first.allocations.equals(again.allocations)
    strip = (lambda m: {k: v for k, v in m.items() if k != "resolves"})
    assert strip(first.meta) == strip(again.meta)
    if name == "dorm":
        drop = lambda rs: [{k: v for k, v in r.items() if k != "runtime_s"} for r in rs]  # noqa
        assert drop(first.meta["resolves"]) == drop(again.meta["resolves"])


@pytest.mark.parametrize("runner", [run_fifo, run_rrh])
def test_fixed_sizes_follow_the_seed(generated, runner):
    wl = generated[("paper-fig5", 0)]
    a, b = runner(wl, seed=1), runner(wl, seed=2)
    sizes = lambda s: [v["drawn"] for v in s.meta["sizes"].values()]  # noqa: E731
    assert sizes(a) == sizes(runner(wl, seed=1))
    assert sizes(a) != sizes(b)
    assert all(1 <= v <= 30 for v in sizes(a))
    for j in wl.jobs:  # capped by N_i
        assert a.meta["sizes"][j.id]["workers"] <= j.chunks


# ---- FIFO ------------------------------------------------------------------------------------
def test_fifo_hand_computed_two_jobs_one_server():
    """One worker server with 2 GPUs; both jobs use 2 workers (1 PS each).

    a: arrives 1, W = 6 -> 2 worker-slots per slot in slots 1, 2, 3 -> completes at 3.
    b: arrives 2, W = 4 -> no GPU free in slots 2, 3 (a holds both); a's completion at the end
       of slot 3 is an event at slot 4 -> b runs slots 4, 5 -> completes at 5.
    Utility f(d) = 10 - d: a: 10 - (3 - 1) = 8; b: 10 - (5 - 2) = 7; total 15.
    """
    wl = workload(6, [job("a", 1, 6, Linear(10.0, 1.0)), job("b", 2, 4, Linear(10.0, 1.0))])
    s = run_fifo(wl, workers=2)
    res = assert_sound(wl, s)
    assert workers_by_slot(s, "a") == {1: 2, 2: 2, 3: 2}
    assert workers_by_slot(s, "b") == {4: 2, 5: 2}
    assert set(s.rows_for("a")[s.rows_for("a")["role"] == "ps"]["count"]) == {1}
    assert res.objective == pytest.approx(15.0)
    assert s.meta["jobs"]["b"]["start"] == 4 and s.meta["queue_wait"]["b"] == 2


def test_fifo_head_of_line_blocking():
    """3 GPUs: a (2 workers) runs 1-3; b (2 workers) cannot start before 4; c (1 worker) would
    fit in slot 2 but waits behind b, so both start at 4."""
    wl = workload(8, [job("a", 1, 6, Constant(1.0)), job("b", 2, 4, Constant(1.0)),
                      job("c", 2, 1, Constant(1.0))], gpus=3.0)
    s = run_fifo(wl, workers={"a": 2, "b": 2, "c": 1})
    assert_sound(wl, s)
    assert s.meta["jobs"]["c"]["start"] == 4
    assert workers_by_slot(s, "c") == {4: 1}


def test_fifo_unfinished_jobs_are_dropped():
    wl = workload(2, [job("a", 1, 6, Constant(5.0)), job("b", 1, 1, Constant(5.0))])
    s = run_fifo(wl, workers=2)
    assert_sound(wl, s)
    assert s.admitted == frozenset() and len(s.allocations) == 0
    assert s.meta["jobs"]["a"]["status"] == "unfinished"
    assert s.meta["jobs"]["b"]["status"] == "never_started"
    assert sorted(s.meta["unfinished"]) == ["a", "b"]


def test_fifo_oversized_set_is_lowered_to_what_fits_the_empty_cluster():
    wl = workload(10, [job("a", 1, 8, Constant(1.0), chunks=8)], gpus=3.0)
    s = run_fifo(wl, workers=8)
    assert_sound(wl, s)
    assert s.meta["sizes"]["a"] == {"drawn": 8, "workers": 3, "ps": 2, "capped": True}
    assert set(workers_by_slot(s, "a").values()) == {3}


# ---- DRF -------------------------------------------------------------------------------------
def test_drf_symmetric_jobs_get_equal_dominant_shares():
    wl = workload(10, [job("a", 1, 8, Constant(1.0)), job("b", 1, 8, Constant(1.0))],
                  gpus=4.0)
    s = run_drf(wl)
    assert_sound(wl, s)
    first = s.meta["allocations"][0]["jobs"]
    assert first["a"] == first["b"]
    assert first["a"][:2] == [2, 1]
    assert workers_by_slot(s, "a") == workers_by_slot(s, "b") == {1: 2, 2: 2, 3: 2, 4: 2}


def test_drf_progressive_filling_gives_capped_jobs_share_to_others():
    """a can use one worker (N=1); b gets the other 3 GPUs: max-min, not equal split."""
    wl = workload(10, [job("a", 1, 2, Constant(1.0), chunks=1),
                       job("b", 1, 9, Constant(1.0), chunks=9)], gpus=4.0)
    s = run_drf(wl)
    assert_sound(wl, s)
    assert workers_by_slot(s, "a") == {1: 1, 2: 1}
    w_b = workers_by_slot(s, "b")
    assert w_b[1] == 3 and w_b[2] == 3
    assert w_b[3] == 3  # a's completion at 2: b refilled at 3, capped by ceil(remaining) = 3


def test_drf_reallocates_on_arrival():
    wl = workload(10, [job("a", 1, 8, Constant(1.0)), job("b", 2, 4, Constant(1.0))],
                  gpus=4.0)
    s = run_drf(wl)
    assert_sound(wl, s)
    assert workers_by_slot(s, "a")[1] == 4
    assert workers_by_slot(s, "a")[2] == 2 and workers_by_slot(s, "b")[2] == 2


# ---- RRH -------------------------------------------------------------------------------------
def test_rrh_rejects_job_with_utility_below_threshold():
    """4 GPUs, two 2-worker jobs: no contention, so the delay cost is 0 and gain decides."""
    jobs = [job("low", 1, 4, Constant(3.0)), job("high", 1, 4, Constant(10.0))]
    wl = workload(10, jobs, gpus=4.0)
    s = run_rrh(wl, workers=2, threshold=5.0)
    res = assert_sound(wl, s)
    assert s.meta["rejected"] == ["low"] and s.admitted == frozenset({"high"})
    assert s.meta["admission"]["low"] == {"slot": 1, "gain": 3.0, "cost": 0.0,
                                          "admitted": False}
    assert res.objective == pytest.approx(10.0)
    s2 = run_rrh(wl, workers=2, threshold=2.0)
    assert s2.admitted == frozenset({"low", "high"})


def test_rrh_delay_cost_rejects_job_that_would_ruin_a_critical_one():
    """2 GPUs: X (critical, f(1) = 92.4, f(2) = 7.6) runs slots 1-2.  Y (worth 10) would hold
    the whole cluster (phi = 1) for D = 1 slot, delaying X by 1: cost 84.8 > 10 -> rejected.
    With 4 GPUs the two fit side by side (phi = 0.5 each): no contention, Y is admitted."""
    crit = Sigmoid(100.0, 5.0, 1.5)
    jobs = [job("X", 1, 4, crit), job("Y", 1, 2, Linear(10.0, 1.0))]
    s = run_rrh(workload(10, jobs), workers=2)
    adm = s.meta["admission"]["Y"]
    assert not adm["admitted"]
    assert adm["cost"] == pytest.approx(crit(1) - crit(2))
    assert s.admitted == frozenset({"X"})
    assert_sound(workload(10, jobs), s)
    s4 = run_rrh(workload(10, jobs, gpus=4.0), workers=2)
    assert s4.admitted == frozenset({"X", "Y"}) and s4.meta["admission"]["Y"]["cost"] == 0.0
    # Without contention the ranking values are the bare gains (no job is charged a delay).
    ranking = dict(s4.meta["events_log"][0]["ranking"])
    assert ranking == pytest.approx({"X": crit(1), "Y": 10.0})


def test_rrh_pauses_low_value_job_and_resumes_it_with_same_numbers():
    """2 GPUs: L (worth 1, W=6) starts at 1; H (worth 100, W=2) arrives at 2 and outranks L,
    so L pauses for slot 2 and resumes at 3 with the same 2 workers, finishing at 4."""
    wl = workload(10, [job("L", 1, 6, Constant(1.0)), job("H", 2, 2, Constant(100.0))])
    s = run_rrh(wl, workers=2)
    assert_sound(wl, s)
    assert workers_by_slot(s, "H") == {2: 2}
    assert workers_by_slot(s, "L") == {1: 2, 3: 2, 4: 2}
    assert s.meta["pauses"] == 1


# ---- Dorm ------------------------------------------------------------------------------------
def dorm_case(horizon=30):
    """6 GPUs.  Slot 1: A, B, C (fair share 2 workers each).  Slot 2: D, E arrive, fair share
    6/5 = 1.2 -> with theta = 0 the band is [1, 2]: D and E need 1 worker each, so two of A, B,
    C must drop to 1 worker: two adjustments."""
    jobs = [job(n, 1, 12, Constant(5.0), chunks=6) for n in "ABC"]
    jobs += [job(n, 2, 12, Constant(5.0), chunks=6) for n in "DE"]
    return workload(horizon, jobs, gpus=6.0)


@pytest.mark.parametrize("limit", [1, 2])
def test_dorm_respects_adjustment_limit(limit):
    wl = dorm_case()
    s = run_dorm(wl, theta=0.0, max_adjust=limit, **FAST_DORM)
    assert_sound(wl, s)
    assert len(s.admitted) == 5
    counts = {t: len(adj) for t, (_, adj) in changes(s, wl.horizon).items()}
    assert max(counts.values()) <= limit
    for r in s.meta["resolves"]:
        assert len(r["adjusted"]) <= limit
    if limit == 2:  # the limit is what holds the count down: 2 adjust when 2 may
        assert counts[2] == 2
        assert s.meta["resolves"][1]["stage"] == "full"
        at2 = {j: workers_by_slot(s, j)[2] for j in "ABCDE"}
        # Two of A, B, C drop 2 -> 1, D and E get 1 each: 6 GPUs, all within the band [1, 2].
        assert sorted(at2.values()) == [1, 1, 1, 1, 2]
    else:  # floor unreachable with one adjustment: relaxed stage, never more than 1 change
        assert s.meta["resolves"][1]["stage"] == "relaxed_floor"
        assert s.meta["resolves"][1]["status"][0] == "infeasible"


def test_dorm_fallback_keeps_previous_allocation():
    wl = dorm_case()
    s = run_dorm(wl, theta=0.0, max_adjust=1, relax_floor=False, **FAST_DORM)
    assert_sound(wl, s)
    second = s.meta["resolves"][1]
    assert second["slot"] == 2 and second["stage"] == "fallback"
    assert second["status"] == ["infeasible"] and s.meta["fallbacks"] >= 1
    for j in "ABC":
        a = alloc_by_slot(s, j)
        assert a[2] == a[1]
    for j in "DE":
        assert min(workers_by_slot(s, j)) > 2


def test_dorm_never_applies_part_of_a_solution_that_does_not_fit(monkeypatch):
    """A (forged) solution oversubscribing the GPUs is rolled back and the event falls back."""
    import mlopt.families.oasis.baselines.dorm as dorm_mod

    def forged(model):
        return [({0: 6}, {1: 3}) for _ in model.J]  # 6 workers each on the 6-GPU server

    monkeypatch.setattr(dorm_mod, "extract_dorm", forged)
    wl = dorm_case(horizon=4)
    s = run_dorm(wl, theta=0.0, **FAST_DORM)  # the simulator re-validates every slot
    assert_sound(wl, s)
    assert s.admitted == frozenset() and len(s.allocations) == 0
    first = s.meta["resolves"][0]
    assert first["stage"] == "fallback"
    assert first["apply_error"] == "solution does not fit the cluster"


def test_dorm_default_budget_and_fair_bands():
    wl = dorm_case()
    s = run_dorm(wl, **FAST_DORM)  # theta 0.5, budget max(1, ceil(0.5 * 3)) = 2
    assert_sound(wl, s)
    first, second = s.meta["resolves"][:2]
    assert first["bands"]["A"] == [1, 3] and first["budget"] == 1
    assert second["budget"] == 2 and second["stage"] == "full"
    for j in "ABCDE":
        lo, hi = second["bands"][j]
        assert lo <= workers_by_slot(s, j).get(2, 0) <= hi


def test_fair_shares_water_filling():
    # Two jobs on one resource, one capped at 2 workers of 10%: the other gets the rest.
    x = fair_shares(np.array([[0.1], [0.1]]), np.array([2.0, 100.0]))
    assert x == pytest.approx([0.2, 0.8])
    # Disjoint dominant resources: both reach a full resource.
    x = fair_shares(np.array([[0.25, 0.0], [0.0, 0.5]]), np.array([100.0, 100.0]))
    assert x == pytest.approx([1.0, 1.0])
    # Shared resource: equal dominant shares (DRF): 0.5 / (1 + 0.5) each.
    x = fair_shares(np.array([[0.2, 0.1], [0.1, 0.2]]), np.array([100.0, 100.0]))
    assert x == pytest.approx([2 / 3, 2 / 3])


def _tiny_dorm_model(max_adjust):
    """Worker servers w1, w2 (2 GPUs each), PS server p1 (index 2): a held 2 workers on w1 and
    1 PS, b held nothing; fairness bands a: [1, 1] (so a must change), b: [1, 2]."""
    wl = workload(5, [job("a", 1, 8, Constant(1.0), chunks=4),
                      job("b", 1, 8, Constant(1.0), chunks=4)], gpus=2.0, worker_servers=2)
    specs = [DormJob(0, lo=1, hi=1, prev_workers={0: 2}, prev_ps={2: 1}),
             DormJob(1, lo=1, hi=2)]
    return build_dorm(wl, specs, max_adjust=max_adjust)


def test_dorm_model_solves_to_the_fair_split():
    m = _tiny_dorm_model(max_adjust=1)
    res = solve(m, time_limit=10)
    assert res.status == Status.OPTIMAL
    (wa, pa), (wb, pb) = extract_dorm(m)
    assert sum(wa.values()) == 1 and sum(wb.values()) == 2  # a shrinks from 2 to hi = 1
    assert sum(pa.values()) == 1 and sum(pb.values()) == min_ps(2, 1.0, 2.0) == 1
    # a holds 2 > hi = 1: it must change, so a zero budget is infeasible.
    assert solve(_tiny_dorm_model(max_adjust=0), time_limit=10).status == Status.INFEASIBLE


def test_dorm_golden_lp():
    assert_golden_lp(_tiny_dorm_model(max_adjust=1), GOLDEN.name)
    text = GOLDEN.read_text()
    for name in ("c3_max_workers(0)", "c4c5_capacity(0_gpu)", "c4c5_capacity(2_cpu)",
                 "c6_ps_bandwidth(0)", "c7_ps_le_workers(1)", "fair_lower(1)", "fair_upper(0)",
                 "keep_workers_off(0)", "keep_workers_down(0_0)", "keep_workers_up(0_0)",
                 "keep_ps_down(0_2)",
                 "adjustment_budget", "utilization"):
        assert name in text, name


# ---- shared machinery ------------------------------------------------------------------------
@pytest.mark.parametrize("name", list(BASELINES))
def test_unrunnable_job_is_reported_not_run(name):
    """b = 3 > B = 2: no worker count satisfies (6) and (7) together."""
    wl = workload(10, [job("ok", 1, 2, Constant(1.0)), job("bad", 1, 2, Constant(9.0), b=3.0)],
                  gpus=4.0)
    kw = {"workers": 2} if name in ("fifo", "rrh") else {}
    s = run(name, wl, **kw)
    assert_sound(wl, s)
    assert s.meta["unrunnable"] == ["bad"] and s.admitted == frozenset({"ok"})


def test_min_ps_is_exact():
    assert min_ps(0, 1.0, 2.0) == 0
    assert [min_ps(y, 1.0, 2.0) for y in range(1, 6)] == [1, 1, 2, 2, 3]
    for y, b, B in [(3, 0.1, 0.3), (7, 0.7, 4.9), (10, 0.3, 3.0)]:
        p = min_ps(y, b, B)
        assert p * B * (1 + 1e-12) >= y * b and (p - 1) * B < y * b
    # 3 * 0.1 = 0.30000000000000004 > 0.3 in floats: float noise must not cost a second PS.
    assert min_ps(3, 0.1, 0.3) == 1 and min_ps(4, 0.1, 0.3) == 2


@pytest.mark.parametrize("call", [
    lambda wl: run_fifo(wl, worker_range=(0, 5)),
    lambda wl: run_fifo(wl, worker_range=(5, 2)),
    lambda wl: run_fifo(wl, workers={"a": 2}),
    lambda wl: run_fifo(wl, workers=0),
    lambda wl: run_rrh(wl, threshold=float("nan")),
    lambda wl: run_dorm(wl, theta=1.5),
    lambda wl: run_dorm(wl, max_adjust=-1),
    lambda wl: run_dorm(wl, solver="no-such-solver"),
])
def test_bad_options_raise_input_error(call):
    wl = workload(5, [job("a", 1, 2, Constant(1.0)), job("b", 1, 2, Constant(1.0))])
    with pytest.raises(InputError):
        call(wl)


def test_meta_is_json_ready(schedules, tmp_path):
    from mlopt.schedule import Schedule
    for name in BASELINES:
        s = schedules[(name, ("paper-fig5", 0))]
        path = tmp_path / f"{name}.json"
        s.save(path)
        back = Schedule.load(path)
        assert back.admitted == s.admitted and back.allocations.equals(s.allocations)

"""Seventh round of the OASiS fix-and-resolve (issue 22): the useful tail (option ``tail``).

A window frees a job's y, z, u only up to its useful end (the last slot where its utility is
at least ``tail`` x its best), pushed out to the last slot where the incumbent uses it.  The
columns left out are zero in the incumbent, so every sub-MIP solution is still a solution of
the full utility ILP: schedules are checked, never below the start, never above OPT.
"""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mlopt
from mlopt.errors import InputError
from mlopt.families.oasis.checker import check_oasis
from mlopt.families.oasis.generator import generate
from mlopt.families.oasis.online import run_oasis
from mlopt.families.oasis.primal.lns import UtilityLNS, lns
from mlopt.models.oasis import build_utility_ilp
from mlopt.schedule import Schedule
from mlopt.solve import Status
from mlopt.utility import Linear
from mlopt.workload import BANDWIDTH, Job, Server, Workload

ONE = {"cpu": 1.0, BANDWIDTH: 1.0}


def decaying_jobs() -> Workload:
    """T = 4, one worker and one PS server {cpu 2, bw 2}; jobs a, b, c alike: arrive in slot
    1, W = 1 worker-slot, N = 1, one worker + one PS of {cpu 1, bw 1}, f(d) = max(0, 10 - 4d):
    f = 10, 6, 2, 0 for completion in slots 1, 2, 3, 4.  Slot 1 holds two jobs, so OPT =
    10 + 10 + 6 = 26 (the third finishes in slot 2)."""
    servers = (Server("w1", "worker", {"cpu": 2.0, BANDWIDTH: 2.0}),
               Server("p1", "ps", {"cpu": 2.0, BANDWIDTH: 2.0}))
    jobs = tuple(Job(j, 1, 1, 1, minibatches=10, minibatch_seconds=9.0, gradient_mb=62.5,
                     worker_demand=dict(ONE), ps_demand=dict(ONE),
                     utility=Linear(10.0, 4.0)) for j in "abc")
    return Workload("decaying", 4, 100.0, ("cpu", BANDWIDTH), servers, jobs)


def _opt(wl) -> float:
    res = mlopt.solve(build_utility_ilp(wl), "highs", time_limit=60)
    assert res.status is Status.OPTIMAL
    return float(res.objective)


def test_useful_end_by_hand():
    """f = 10, 6, 2, 0 by slot 1..4, best 10: tail 0.1 keeps f >= 1 (slots 1-3), 0.5 keeps
    f >= 5 (slots 1-2), 0.7 keeps f >= 7 (slot 1); tail 0 is T = 4 for every job."""
    eng = UtilityLNS(decaying_jobs())
    assert eng.useful_end.tolist() == [4, 4, 4]
    for tail, end in ((0.1, 3), (0.5, 2), (0.7, 1)):
        eng.set_tail(tail)
        assert eng.useful_end.tolist() == [end] * 3
    # tail 0 frees every column of the jobs: the sixth round's windows exactly
    eng.set_tail(0.0)
    x = eng.encode(Schedule.empty())
    assert eng.free_columns(x, [0, 1, 2]).tolist() == sorted(
        np.concatenate(eng.job_cols).tolist())


def test_tail_windows_by_hand():
    """From the empty schedule with tail 0.7 (useful end slot 1) a window of every job can
    only fill slot 1: 10 + 10 = 20.  From the optimum 26 (c in slot 2, past that end) c's
    slot-2 columns stay free (pushed out to its last used slot), so nothing is lost and no
    better solution exists; with tail 0.5 (end slot 2) the empty schedule reaches 26."""
    wl = decaying_jobs()
    assert _opt(wl) == pytest.approx(26.0)
    eng = UtilityLNS(wl)
    x = eng.encode(Schedule.empty())
    eng.set_tail(0.7)
    free = eng.free_columns(x, [0, 1, 2])
    assert set(eng.cols.slot[free][eng.cols.kind[free] != 0].tolist()) == {1}
    y, info = eng.resolve(x, [0, 1, 2], 10.0)
    assert info["optimal"] and eng.form.objective(y) == pytest.approx(20.0)
    eng.set_tail(0.5)
    z, info = eng.resolve(x, [0, 1, 2], 10.0)
    assert info["optimal"] and eng.form.objective(z) == pytest.approx(26.0)
    eng.set_tail(0.7)
    late = eng.free_columns(z, [0, 1, 2])
    assert set(np.flatnonzero(z > 0.5)) <= set(late.tolist())  # every used column is free
    again, info = eng.resolve(z, [0, 1, 2], 10.0)
    assert again is None and info["optimal"]
    assert check_oasis(wl, eng.decode(z)).objective == pytest.approx(26.0)


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), n_servers=st.integers(2, 4),
       arrival_window=st.sampled_from([1.0, 5.0, 10.0]), tail=st.sampled_from([0.01, 0.2, 0.5]))
def test_tail_checked_never_below_start_never_above_opt(seed, n_servers, arrival_window, tail):
    # widened past the preset: two servers (one of each role, heavy contention), every job at
    # slot 0 or arrivals up to the last slot (late jobs whose useful end is T), large tails
    # that leave the incumbent's late completions outside the useful end
    wl = generate("paper-fig5", seed=seed, n_jobs=6, n_servers=n_servers,
                  arrival_window=arrival_window)
    start = run_oasis(wl)
    v0 = check_oasis(wl, start).objective
    seen = []
    best, log = lns(wl, start, 2.0, window=2, window_time=0.5, seed=seed, grow=1.0, tail=tail,
                    on_improve=lambda s, v: seen.append((check_oasis(wl, s).objective, v)))
    res = check_oasis(wl, best)
    assert res.feasible
    assert v0 - 1e-9 <= res.objective <= _opt(wl) + 1e-6
    assert log["end"] == pytest.approx(res.objective) and log["tail"] == tail
    # every reported best is the checker's value, strictly rising, the last one returned
    assert all(c == pytest.approx(v) for c, v in seen)
    assert all(b > a for (a, _), (b, _) in zip(seen, seen[1:]))
    assert not seen or seen[-1][1] == pytest.approx(res.objective)
    assert log["improved"] == len(seen)


def test_tail_bad_inputs():
    wl = decaying_jobs()
    for bad in (-0.1, 0.6, True, "0.1", float("nan")):
        with pytest.raises(InputError) as e:
            lns(wl, Schedule.empty(), 5.0, tail=bad)
        assert e.value.field == "tail"
        assert e.value.value is bad or e.value.value == bad
    from mlopt.families.oasis.family import LNS_OPTIONS

    with pytest.raises(InputError) as e:
        LNS_OPTIONS["tail"].check(0.9, "tail")
    assert "tail" in e.value.field


def test_slab_by_hand():
    """decaying_jobs (useful end slot 3 at tail 0.01): a slab of slot 1 frees x, u and the
    y, z of slot 1 only; from the empty schedule it admits two jobs (20), and a slab of slots
    1-2 from there reaches 26 (the third job in slot 2).  At that optimum a job is active in
    slot 2 only if it completes there (the other two ended in slot 1)."""
    from mlopt.families.oasis.primal.lns import NEIGHBOURHOODS

    wl = decaying_jobs()
    eng = UtilityLNS(wl)
    eng.set_tail(0.01)
    x = eng.encode(Schedule.empty())
    c = eng.cols
    free = eng.free_columns(x, [0, 1, 2], slots=(1, 1))
    yz = free[(c.kind[free] == 1) | (c.kind[free] == 2)]
    assert set(c.slot[yz].tolist()) == {1} and set(c.kind[free].tolist()) == {0, 1, 2, 3}
    y, info = eng.resolve(x, [0, 1, 2], 10.0, slots=(1, 1))
    assert info["optimal"] and eng.form.objective(y) == pytest.approx(20.0)
    z, info = eng.resolve(y, [0, 1, 2], 10.0, slots=(1, 2))
    assert info["optimal"] and eng.form.objective(z) == pytest.approx(26.0)
    assert check_oasis(wl, eng.decode(z)).objective == pytest.approx(26.0)
    # the jobs done in slot 1 are no longer active in slot 2; the third one is
    done = eng.active_end(z)
    assert sorted(done.tolist()) == [1, 1, 2]
    assert eng.active_in(z, 2, 2).tolist() == [int(np.argmax(done))]
    assert eng.active_in(z, 1, 1).tolist() == [0, 1, 2]
    # a one-slot slab holds the jobs active there; in slots 3-4 none is: a span window then
    rng = np.random.default_rng(0)
    kinds = set()
    for _ in range(20):
        out = NEIGHBOURHOODS["slab"](eng, z, 1, rng)
        kinds.add(len(out))
        if len(out) == 3:
            jobs, servers, (lo, hi) = out
            assert servers is None and lo == hi and lo in (1, 2)
            assert jobs.tolist() == eng.active_in(z, lo, hi).tolist()
    assert kinds == {2, 3}

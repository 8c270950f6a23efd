"""Harmony's ``local_search`` (mlopt/families/harmony/local_search.py): a hand case where
delaying one job beats co-locating both, checked schedules never worse than the start's and
never below the certified bounds (hypothesis), the event replay equal to the interval replay
(hypothesis) and the search the same whichever evaluates it, bad inputs."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_harmony_share_bound import two_that_fit_together

from mlopt import pipeline
from mlopt.errors import InputError
from mlopt.families import get_family
from mlopt.families.harmony.local_search import Replay, compact_placements, run_local_search
from mlopt.families.harmony.share_bound import share_bound

FAM = get_family("harmony")


def test_hand_case_delays_one_job():
    # lb places both in interval 1 on the one server: each feels 0.133 + 0.5 * 0.133 = 0.2,
    # trains 3.2 < 4 epochs, finishes in 2: average 2.  Starting one in interval 2 instead:
    # JCTs 1 and 2, average 1.5 (the optimum, test_harmony_share_bound's hand case)
    w = two_that_fit_together()
    start = pipeline.run_algorithm(w, "lb", family="harmony")
    assert start.check.objective == pytest.approx(2.0)
    r = pipeline.run_algorithm(w, "local_search", family="harmony",
                               options={"start": "lb", "time_limit": 1.0})
    assert r.check.feasible and r.check.objective == pytest.approx(1.5)


@settings(max_examples=6, deadline=None, suppress_health_check=list(HealthCheck))
@given(preset=st.sampled_from(["tiny", "small", "mini"]), seed=st.integers(0, 10_000),
       start=st.sampled_from(["lb", "tetris", "harmony", "insertion"]))
def test_checked_never_worse_than_start_never_below_bound(preset, seed, start):
    w = FAM.generate(preset, seed=seed)
    r = pipeline.run_algorithm(w, "local_search", family="harmony",
                               options={"start": start, "time_limit": 1.0})
    assert r.check.feasible
    if start == "insertion":  # its own start: never worse than the search without rounds
        base = pipeline.run_algorithm(w, "local_search", family="harmony",
                                      options={"start": start, "rounds": 0, "time_limit": 1.0})
    else:
        base = pipeline.run_algorithm(w, start, family="harmony")
    if base.check.feasible:
        assert r.check.objective <= base.check.objective + 1e-9
    assert r.check.objective >= share_bound(w)["bound"] - 1e-9


def test_insertion_start_on_the_hand_case():
    # job 0 alone in interval 1 (total 1); job 1 beside it makes both take 2 intervals (total
    # 4), after it in interval 2 the total is 1 + 2 = 3: insertion alone finds the optimum 1.5
    w = two_that_fit_together()
    r = pipeline.run_algorithm(w, "local_search", family="harmony",
                               options={"start": "insertion", "rounds": 0, "time_limit": 5.0})
    assert r.check.objective == pytest.approx(1.5)
    assert r.schedule.meta["start"] == "insertion"


def test_bad_inputs():
    w = two_that_fit_together()
    with pytest.raises(InputError) as err:
        run_local_search(w, start="local_search")
    assert err.value.field == "start"
    with pytest.raises(InputError) as err:
        FAM.run("local_search", w, options={"time_limit": -1.0})
    assert "time_limit" in str(err.value.field)


def _random_table(rp, cands, rng):
    """Random starts in [arrival, arrival + 3] (a few past T: not placed yet) and compact
    placements: schedules that may overfill a server or run past T (then both give inf)."""
    n = len(rp.jobs.arrival)
    s = np.minimum(rp.jobs.arrival + rng.integers(0, 4, n), rp.T + 1)
    s[rng.random(n) < 0.1] = rp.T + 1
    x = np.zeros((2, n, len(rp.cap)), int)
    for j in range(n):
        x[:, j] = cands[j][rng.integers(len(cands[j]))]
    return s, x


@settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
@given(preset=st.sampled_from(["tiny", "small", "mini"]), seed=st.integers(0, 10_000))
def test_event_replay_equals_interval_replay(preset, seed):
    # the event-by-event replay, from scratch and resumed after a one-job change, gives the
    # interval-by-interval replay's total and completions on random schedules
    w = FAM.generate(preset, seed=seed)
    rp = Replay(w)
    cands = [compact_placements(rp.jobs, rp.cap, n) for n in range(len(w.jobs))]
    rng = np.random.default_rng(seed)
    s, x = _random_table(rp, cands, rng)
    want = rp.full(s, x)
    done = rp.done.copy() if np.isfinite(want) else None
    assert rp.total(s, x) == want
    assert rp.set_base(s, x) == want
    if done is not None:
        assert (rp.done == done).all()
    for _ in range(10):  # one job moved: a start in [arrival, start + 2], any placement
        n = int(rng.integers(len(s)))
        s2, x2 = s.copy(), x.copy()
        s2[n] = min(int(rng.integers(rp.jobs.arrival[n], min(s[n], rp.T) + 3)), rp.T + 1)
        x2[:, n] = cands[n][rng.integers(len(cands[n]))]
        want = rp.full(s2, x2)
        done = rp.done.copy() if np.isfinite(want) else None
        assert rp.total(s2, x2, n) == want
        if done is not None:
            assert (rp.done == done).all()


def test_event_replay_search_equals_interval_replay_search(monkeypatch):
    # a search that ends by rounds (no time limit reached) takes the same moves whichever
    # replay evaluates them: the same schedule
    w = FAM.generate("mini", seed=5)
    opts = dict(start="insertion", time_limit=1e6, rounds=3, seed=5)
    fast = run_local_search(w, **opts)
    monkeypatch.setattr(Replay, "total", lambda self, s, x, n=None: self.full(s, x))
    monkeypatch.setattr(Replay, "set_base", lambda self, s, x: self.full(s, x))
    slow = run_local_search(w, **opts)
    assert fast.allocations.equals(slow.allocations)
    assert fast.meta == slow.meta

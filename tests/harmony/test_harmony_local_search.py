"""Harmony's ``local_search`` (mlopt/families/harmony/local_search.py): a hand case where
delaying one job beats co-locating both, checked schedules never worse than the start's and
never below the certified bounds (hypothesis), bad inputs."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_harmony_share_bound import two_that_fit_together

from mlopt import pipeline
from mlopt.errors import InputError
from mlopt.families import get_family
from mlopt.families.harmony.local_search import run_local_search
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

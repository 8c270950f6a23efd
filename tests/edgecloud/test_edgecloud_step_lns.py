"""``step_lns`` (mlopt/families/edgecloud/step_lns.py): every schedule it returns passes the
checker, is never worse than its start (pool_greedy) and never better than the optimum; with
every job free in one round it returns the optimum; bad options are refused by name.

Nothing here depends on the wall clock: the instances are tiny (each round is milliseconds of
HiGHS) and the limits are far above that, so a slow machine changes no assertion.
"""
from __future__ import annotations

import pytest
from edgecloud_tiny import OPT, tiny_workload
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mlopt.errors import InputError
from mlopt.families import get_family
from mlopt.families.edgecloud.generator import generate
from mlopt.models.edgecloud import build_jct_milp
from mlopt.solve import Status, solve

FAM = get_family("edgecloud")
SLOW_OK = {"time_limit": 600.0, "round_limit": 120.0}


def _run(w, **options):
    s = FAM.run("step_lns", w, seed=0, options={**SLOW_OK, **options})
    chk = FAM.check(w, s)
    assert chk.feasible, chk.summary()
    return s, chk.objective


def test_hand_instance_reaches_the_optimum():
    """Hand instance (tests/edgecloud_tiny.py, OPT = 5: b on e0 slots 2-3, JCT 2, a in the
    cloud to slot 4, JCT 3).  Two jobs <= the 4 jobs of the smallest neighbourhood, so the first
    round frees both, HiGHS proves the whole model, and the search stops there."""
    s, obj = _run(tiny_workload())
    assert obj == pytest.approx(OPT)
    assert len(s.timing["rounds"]) == 1
    assert s.meta["objective"] == pytest.approx(OPT)
    assert obj <= s.meta["start_objective"]


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), n_jobs=st.integers(1, 8),
       preset=st.sampled_from(["tiny", "paper-ratio"]),
       late=st.sampled_from([None, (0, 2), (1, 4)]), choice=st.booleans())
def test_checked_between_the_optimum_and_the_start(seed, n_jobs, preset, late, choice):
    # late: wide edge-delay spreads (some workers' data arrives after a job could finish),
    # the instances that broke jct_step's per-worker floor before
    kw = {} if late is None else {"delay_edge": list(late), "workers_per_server": [1, 3],
                                  "chunk_scale": 0.03}
    w = generate(preset, seed, n_jobs=n_jobs, **kw)
    start = FAM.check(w, FAM.run("pool_greedy", w, seed=0)).objective
    ref = solve(build_jct_milp(w), "highs", time_limit=60)
    assert ref.status == Status.OPTIMAL
    # free_jobs 4 and 3 rounds: on 5-8 jobs the rounds are true neighbourhoods (others fixed)
    s, obj = _run(w, free_jobs=4, rounds=3, choice=choice)
    assert ref.objective - 1e-6 <= obj <= start + 1e-6
    assert s.meta["start_objective"] == pytest.approx(start)
    if n_jobs <= 4:  # every job free in round one: the optimum, proven
        assert obj == pytest.approx(ref.objective, abs=1e-6)


@pytest.mark.parametrize("key, value", [("free_jobs", 0), ("time_limit", 0.0),
                                        ("round_limit", -1.0), ("rounds", -1)])
def test_bad_options_are_refused_by_name(key, value):
    with pytest.raises(InputError) as err:
        FAM.run("step_lns", tiny_workload(), seed=0, options={key: value})
    assert err.value.field == key
    assert err.value.value == value


def test_beyond_the_model_size_limit_it_is_refused_before_any_work(monkeypatch):
    import mlopt.models.edgecloud.common as common

    monkeypatch.setattr(common, "MAX_MODEL_CELLS", 1)
    with pytest.raises(InputError) as err:
        FAM.run("step_lns", tiny_workload(), seed=0)
    assert err.value.field == "jobs"

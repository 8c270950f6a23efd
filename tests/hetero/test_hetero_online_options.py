"""A_online's restriction options for Fig. 9 / 10 of seed 003: worker_types and workers."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mlopt import pipeline
from mlopt.errors import InputError
from mlopt.families.hetero.fields import hetero_data
from mlopt.families.hetero.generator import generate
from mlopt.families.hetero.online import a_online
from mlopt.families.hetero.theory import diagnostics
from tests.hetero_fixtures import hand


def _run(w, **opts):
    res = pipeline.run_algorithm(w, "a_online", family="hetero", **opts)
    assert res.check.feasible, res.check.summary()
    return res


def test_one_worker_each_on_hand_instance():
    # workers=1: A (E D K = 4) on w1 q=1 has rho = 1/0.5 = 2, d = ceil(4/2) = 2 (w2: rho = 1/0.3,
    # d = ceil(1.2) = 2); d = 2 <= tau - 1 first at tau = 4 (round 3, base 4 tau = 16): c_A = 18.
    # B (D = 1, already one worker) d = 3, same round, the other free resources: c_B = 19.
    # WCT = 2 * 18 + 19 = 55 (default, A with 2 workers in round 2: 37).
    res = _run(hand(), workers=1)
    assert res.check.objective == pytest.approx(55.0)
    run = a_online(hand(), workers=1)
    assert {pl.job: pl.n for pl, _ in run.placements.values()} == {0: 1, 1: 1}
    assert _run(hand()).check.objective == pytest.approx(37.0)


def test_worker_type_restriction_on_hand_instance():
    # only w1: A needs N = 2 for d = 1 (rho 2, 4 mini-batches), 2 GPUs: fits one server, c_A = 9
    run = a_online(hand(), worker_types=["w1"])
    assert {pl.m for pl, _ in run.placements.values()} == {0}
    run = a_online(hand(), worker_types=["w2"])
    assert {pl.m for pl, _ in run.placements.values()} == {1}


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10_000), arch=st.sampled_from(["tiny", "tiny-ra", "small", "small-ra"]),
       k=st.integers(1, 4), t=st.integers(0, 1))
def test_restricted_runs_respect_the_restriction(seed, arch, k, t):
    w = generate(arch, seed=seed)
    d = hetero_data(w)
    wt = d.wtype_ids[t]
    try:
        run = a_online(w, worker_types=[wt], workers=k)
    except InputError as e:  # a job may not fit under the restriction: then it says so
        assert "no configuration" in str(e)
        return
    for pl, _ in run.placements.values():
        assert pl.m == t and pl.n == min(k, int(d.chunks[pl.job]))
    res = _run(w, worker_types=[wt], workers=k)
    assert set(res.schedule.allocations.query("role == 'worker'")["type"]) == {wt}
    # the harness diagnostics re-run with the same options and must reproduce the schedule
    diagnostics(w, res.schedule, options={"worker_types": [wt], "workers": k}, opt_upper=None)


@pytest.mark.parametrize("preset, seed", [("small", 0), ("small-ra", 1)])
def test_all_types_equals_default(preset, seed):
    # restricting to every type is no restriction: the same schedule, row for row
    w = generate(preset, seed=seed)
    full = _run(w, worker_types=list(hetero_data(w).wtype_ids)).schedule
    assert full.allocations.equals(_run(w).schedule.allocations)


@pytest.mark.parametrize("opts, field", [
    ({"worker_types": "w1"}, "worker_types"), ({"worker_types": []}, "worker_types"),
    ({"worker_types": ["w9"]}, "worker_types"), ({"worker_types": [1]}, "worker_types"),
    ({"workers": 0}, "workers"), ({"workers": True}, "workers"), ({"workers": 1.5}, "workers")])
def test_bad_options(opts, field):
    with pytest.raises(InputError) as e:
        a_online(hand(), **opts)
    assert e.value.field == field


def test_restriction_that_fits_nowhere_is_an_input_error():
    # one server with 2 GPUs: two w2 workers (2 GPUs each) of job A fit nowhere
    w = hand(mutate=lambda d: d.update(servers=d["servers"][:1]))
    with pytest.raises(InputError) as e:
        a_online(w, worker_types=["w2"], workers=2)
    assert e.value.field == "workers" and "job A" in str(e.value)

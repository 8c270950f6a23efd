"""Harmony's ``crowd`` bound (mlopt/families/harmony/crowd_bound.py): the attributed-servers
arithmetic by hand, the slot count, the pricing DP against brute force, a hand value, and
(hypothesis, widened generator parameters: 1-4 jobs, 1-3 workers, 1-3 PSs, 1-2 servers, long
and short jobs, late arrivals) never below ``share`` and never above the proven optimum.
The laws shared by every Harmony bound are in test_harmony_bound_chain.py."""
from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mlopt import pipeline
from mlopt.errors import InputError
from mlopt.families import get_family
from mlopt.families.harmony import crowd_bound as cb
from mlopt.families.harmony.bounds import standalone_bound
from mlopt.families.harmony.generator import make_workload
from mlopt.families.harmony.share_bound import share_bound
from mlopt.solve import Status

FAM = get_family("harmony")


def test_attributed_servers_by_hand():
    # 2 tasks, 4 slots: one foreign task -> 2 / 3 of a server; two -> 2 / 4; splitting 1 + 1
    # costs 1/2 + 1/2 = 1 (c = 1), so one server is the least
    assert cb.attributed(2, 1, 4) == Fraction(2, 3)
    assert cb.attributed(2, 2, 4) == Fraction(1, 2)
    # 6 tasks, 4 slots, c = 1: 4 + 2 -> 4/4 + 2/3 = 5/3; 3 + 3 -> 3/4 + 3/4 = 3/2 (the least)
    assert cb.attributed(6, 1, 4) == Fraction(3, 2)
    # any crowding (None): densest servers, 6 / 4; no slot limit: x / (x + c), 0 if unknown
    assert cb.attributed(6, None, 4) == Fraction(3, 2)
    assert cb.attributed(3, 1, math.inf) == Fraction(3, 4)
    assert cb.attributed(3, None, math.inf) == 0


def test_slots_per_server_by_hand():
    # testbed server: 2 GPUs, 8 cores, 48 GB, 50 Gbps.  VGG16 only: worker 2 cores / 8 GB /
    # 8 Gbps, PS 2 / 8 / 8: cores allow 4 tasks, memory 6, bandwidth 6 -> 4 (GPUs: PSs need 0)
    vgg = [{"model": "vgg16", "workers": 1, "ps": 1, "epochs": 2, "arrival": 1}] * 2
    assert cb.slots_per_server(make_workload(vgg, n_servers=1, horizon=4)) == 4
    # a ResNet PS takes 1 core and 4 GB: 8 of them fit -> 8
    mixed = vgg + [{"model": "resnet", "workers": 1, "ps": 1, "epochs": 4, "arrival": 1}]
    assert cb.slots_per_server(make_workload(mixed, n_servers=1, horizon=4)) == 8


def test_hand_value_two_resnets_on_one_server():
    # share's hand case (test_harmony_share_bound.py): two 1-worker + 1-PS ResNet jobs of 4
    # epochs on one server: a one-interval run must be exclusive, the server holds one at a
    # time: JCTs 1 + 2, average 1.5 = OPT.  crowd keeps it (it is never below share) and its
    # own Lagrangian is 1.5 up to the float margin (ceil(2.99999999...) = 3)
    w = make_workload([{"model": "resnet", "workers": 1, "ps": 1, "epochs": 4, "arrival": 1}]
                      * 2, n_servers=1, horizon=4)
    out = cb.crowd_bound(w)
    assert out["bound"] == 1.5 and out["share"] == 1.5
    assert out["crowd_value"] == pytest.approx(1.5, abs=1e-6) and out["crowd_value"] <= 1.5


def brute_force(jb, C):
    """The cheapest column by enumeration: every run, every mode sequence admissible under
    the relaxed loss units (runs beyond k + EXACT_EXTRA: any modes)."""
    a, k, T = jb.a, jb.k, jb.T
    best = math.inf
    for s in range(a, T + 1):
        for n in range(1, T - s + 2):
            ts = range(s, s + n)
            if n > k + cb.EXACT_EXTRA:
                best = min(best, s + n - a + sum(
                    C[jb.loss[:, t] < cb.DISALLOWED, t].min() for t in ts))
                continue
            su = jb.slack_units(n)
            if su < 0:
                continue
            for seq in itertools.product(range(len(jb.modes)), repeat=n):
                if sum(jb.loss[i, t] for i, t in zip(seq, ts)) <= su:
                    best = min(best, s + n - a + sum(C[i, t] for i, t in zip(seq, ts)))
    return best


@settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 10_000), scale=st.sampled_from([0.0, 0.3, 1.0, 3.0]))
def test_pricing_dp_equals_brute_force(seed, scale):
    # the CTC job arrives in 2: in interval 1 the ResNet job has no co-runner (E only)
    w = make_workload([{"model": "resnet", "workers": 1, "ps": 1, "epochs": 7, "arrival": 1},
                       {"model": "ctc", "workers": 1, "ps": 1, "epochs": 6, "arrival": 2}],
                      n_servers=1, horizon=5)
    jobs, _ = cb._prepare_crowd(w, standalone_bound(w)["per_job"])
    rng = np.random.default_rng(seed)
    for jb in jobs:
        C = np.zeros((len(jb.modes), w.horizon + 1))
        C[:, 1:] = scale * rng.random((len(jb.modes), w.horizon))
        assert (jb.loss[1:, 1] == cb.DISALLOWED).all() if jb.a == 1 else True
        val, s, n, modes = jb.best(C)
        assert val == pytest.approx(brute_force(jb, C), abs=1e-9)
        # the column it returns costs what it says
        assert val == pytest.approx(s + n - jb.a + sum(
            C[jb.modes.index(m), t] for m, t in zip(modes, range(s, s + n))), abs=1e-9)


WIDE = st.fixed_dictionaries({
    "n_jobs": st.integers(1, 4), "n_servers": st.integers(1, 2), "window": st.integers(1, 4),
    "workers": st.sampled_from([(1, 1), (1, 2), (2, 3), (1, 3)]),
    "ps": st.sampled_from([(1, 1), (1, 3), (3, 3)]),
    "duration": st.sampled_from([(1.0, 1.0), (1.0, 3.0), (2.5, 3.0)])})


@settings(max_examples=6, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 10_000), params=WIDE)
def test_between_share_and_the_optimum_on_widened_instances(seed, params):
    w = FAM.generate("tiny", seed=seed, **params)
    crowd = cb.crowd_bound(w)["bound"]
    assert crowd >= share_bound(w)["bound"] - 1e-12
    off = pipeline.solve_offline(w, family="harmony", time_limit=60)
    if off.solve.status == Status.OPTIMAL:
        assert off.check.feasible and crowd <= off.objective + 1e-9


def test_registered_as_a_theorem_bound():
    assert FAM.bounds_["crowd"].solver is False


def test_validates_the_workload():
    w = make_workload([{"model": "resnet", "workers": 1, "ps": 1, "epochs": 4, "arrival": 1}]
                      * 2, n_servers=1, horizon=4)
    w.jobs[0].extra["workers"] = 2.5
    with pytest.raises(InputError) as err:
        cb.crowd_bound(w)
    assert "workers" in str(err.value.field) and "2.5" in str(err.value)

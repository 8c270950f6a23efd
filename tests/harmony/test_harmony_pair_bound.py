"""Harmony's ``pair`` bound (mlopt/families/harmony/pair_bound.py): partner-type modes by hand
(speeds, arrivals), the pricing DP against brute force with the negative mode costs the PAIR
prices bring (crowd's DP, shared), a hand value, and (hypothesis, widened generator
parameters) never below ``share`` and never above the proven optimum."""
from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_harmony_crowd_bound import WIDE, brute_force

from mlopt import pipeline
from mlopt.errors import InputError
from mlopt.families import get_family
from mlopt.families.harmony import crowd_bound as cb
from mlopt.families.harmony import pair_bound as pb
from mlopt.families.harmony.bounds import speed_at, standalone_bound
from mlopt.families.harmony.generator import make_workload
from mlopt.families.harmony.share_bound import share_bound
from mlopt.families.harmony.speed import model_of
from mlopt.solve import Status

FAM = get_family("harmony")


def two_jobs():
    # the CTC job arrives in 2: in interval 1 the ResNet job has no partner (E only)
    return make_workload([{"model": "resnet", "workers": 1, "ps": 1, "epochs": 7, "arrival": 1},
                          {"model": "ctc", "workers": 1, "ps": 1, "epochs": 6, "arrival": 2}],
                         n_servers=1, horizon=5)


def test_partner_modes_by_hand():
    w = two_jobs()
    jobs, M = pb._prepare_pair(w, standalone_bound(w)["per_job"])
    sm = model_of(w)
    r, c = sm.index("resnet"), sm.index("ctc")
    res = jobs[0]
    # one partner type (ctc): modes E, P:ctc, F:ctc; the PS term is alpha x 1 x 0.5
    assert res.modes == ("E", "P:ctc", "F:ctc") and res.partner == [None, c, c]
    assert float(res.speed["P:ctc"]) == speed_at(sm, r, 1, sm.alpha[r, c] * 1 * sm.ps_weight)
    assert float(res.speed["F:ctc"]) == speed_at(sm, r, 1, sm.alpha[r, c] * 1 * 1.0)
    # resnet's shared modes are impossible in interval 1 (ctc arrives in 2), allowed from 2
    assert (res.loss[1:, 1] == cb.DISALLOWED).all() and (res.loss[1:, 2] < cb.DISALLOWED).all()
    # ctc arrives after resnet: its partner is there from its arrival
    assert (jobs[1].loss[1:, 2] < cb.DISALLOWED).all()
    # the PAIR rows: one per (job, partner type, interval)
    master = pb._PairMaster(jobs, M, w.horizon, 1)
    assert len(master.prow) == 2 * w.horizon
    assert master.namers[(c, 3)] == [0] and master.namers[(r, 3)] == [1]


@settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 10_000), scale=st.sampled_from([0.3, 1.0, 3.0]))
def test_pricing_dp_equals_brute_force_with_negative_costs(seed, scale):
    # the PAIR prices make shared modes earn: costs in [-scale, scale]; crowd's DP must still
    # find the cheapest column (its pruning counts what a run could still earn)
    w = two_jobs()
    jobs, _ = pb._prepare_pair(w, standalone_bound(w)["per_job"])
    crowd_jobs, _ = cb._prepare_crowd(w, standalone_bound(w)["per_job"])
    rng = np.random.default_rng(seed)
    for jb in jobs + crowd_jobs:
        C = np.zeros((len(jb.modes), w.horizon + 1))
        C[:, 1:] = scale * (2 * rng.random((len(jb.modes), w.horizon)) - 1)
        val, s, n, modes = jb.best(C)
        assert val == pytest.approx(brute_force(jb, C), abs=1e-9)
        assert val == pytest.approx(s + n - jb.a + sum(
            C[jb.modes.index(m), t] for m, t in zip(modes, range(s, s + n))), abs=1e-9)


def test_hand_value_two_resnets_on_one_server():
    # share's hand case: two 1-worker + 1-PS ResNet jobs of 4 epochs on one server: a
    # one-interval run must be exclusive, the server holds one at a time: JCTs 1 + 2, average
    # 1.5 = OPT.  pair keeps it; its own Lagrangian is 1.5 up to the float margin
    w = make_workload([{"model": "resnet", "workers": 1, "ps": 1, "epochs": 4, "arrival": 1}]
                      * 2, n_servers=1, horizon=4)
    out = pb.pair_bound(w)
    assert out["bound"] == 1.5 and out["share"] == 1.5
    assert out["pair_value"] == pytest.approx(1.5, abs=1e-6) and out["pair_value"] <= 1.5
    assert math.ceil(2 * out["pair_value"]) == 3


@settings(max_examples=4, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 10_000), params=WIDE)
def test_between_share_and_the_optimum_on_widened_instances(seed, params):
    w = FAM.generate("tiny", seed=seed, **params)
    pair = pb.pair_bound(w, time_limit=5)["bound"]  # stopped runs are certified too
    assert pair >= share_bound(w)["bound"] - 1e-12
    off = pipeline.solve_offline(w, family="harmony", time_limit=60)
    if off.solve.status == Status.OPTIMAL:
        assert off.check.feasible and pair <= off.objective + 1e-9


def test_registered_as_a_theorem_bound_not_in_bracket():
    assert FAM.bounds_["pair"].solver is False and FAM.bounds_["pair"].bracket is False


def test_validates_the_workload():
    w = make_workload([{"model": "resnet", "workers": 1, "ps": 1, "epochs": 4, "arrival": 1}]
                      * 2, n_servers=1, horizon=4)
    w.jobs[0].extra["workers"] = 2.5
    with pytest.raises(InputError) as err:
        pb.pair_bound(w)
    assert "workers" in str(err.value.field) and "2.5" in str(err.value)

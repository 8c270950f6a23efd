"""Harmony's ``share`` bound (mlopt/families/harmony/share_bound.py): a hand-computed value
where only interference forces waiting (``volume`` sees room for both jobs), never below
``volume`` (the laws shared by every Harmony bound, below OPT
and every checked schedule, are in test_harmony_bound_chain.py)."""
from __future__ import annotations

import pytest

from mlopt import pipeline
from mlopt.errors import InputError
from mlopt.families import get_family
from mlopt.families.harmony.generator import make_workload
from mlopt.families.harmony.share_bound import share_bound
from mlopt.families.harmony.volume_bound import volume_bound
from mlopt.solve import Status

FAM = get_family("harmony")


def two_that_fit_together():
    # one server (2 GPUs, 8 cores); two ResNet jobs of 1 worker + 1 PS, 4 epochs, both at 1.
    # Together they fit (2 GPUs, 2 * (2 + 1) = 6 cores): volume sees no waiting.  Alone a job
    # trains 4.0 * 1 ** 0.8 = 4 epochs per interval: k = 1 with no slack.
    return make_workload([
        {"model": "resnet", "workers": 1, "ps": 1, "epochs": 4, "arrival": 1},
        {"model": "resnet", "workers": 1, "ps": 1, "epochs": 4, "arrival": 1}],
        n_servers=1, horizon=4)


def test_hand_value_interference_forces_waiting():
    # share: a one-interval run must be exclusive (any co-runner's task slows a ResNet by
    # >= alpha[resnet, resnet] * 0.5 > 0, so 4 epochs are not reached), and an exclusive job
    # holds the one server (worker row: ceil(1 GPU / 2) = 1 = M).  So in interval 1 at most one
    # job runs a one-interval run: the LP pays 1 + 2 = 3, average 1.5.  OPT is 1.5 too: sharing
    # the server costs both (felt 0.133 + 0.5 * 0.133 = 0.2: 3.2 epochs per interval, JCT 2
    # each, sum 4), running one after the other costs 1 + 2 = 3.
    w = two_that_fit_together()
    assert volume_bound(w)["bound"] == 1.0
    out = share_bound(w)
    assert out["bound"] == 1.5 and out["source"] == "share"
    assert out["share_value"] == pytest.approx(1.5, abs=1e-5)
    off = pipeline.solve_offline(w, family="harmony", time_limit=60)
    assert off.solve.status == Status.OPTIMAL and off.objective == pytest.approx(1.5)


def test_with_slack_sharing_is_free_and_the_bound_is_volume():
    # 3 epochs instead of 4: sharing with a worker credits up to 4 * (1 - alpha[resnet, resnet])
    # = 4 * 0.867 = 3.47 >= 3 epochs, so both may share interval 1 in the LP: the bound is 1
    w = two_that_fit_together()
    for j in w.jobs:
        object.__setattr__(j, "epochs", 3)
    out = share_bound(w)
    assert out["bound"] == 1.0


def test_cannot_finish_returns_volume():
    w = make_workload([{"model": "ctc", "workers": 2, "ps": 1, "epochs": 100, "arrival": 1}],
                      n_servers=1, horizon=4)
    out = share_bound(w)
    assert out["bound"] == volume_bound(w)["bound"] and "share_value" not in out








def test_registered_as_a_theorem_bound():
    assert FAM.bounds_["share"].solver is False
    assert FAM.bound("share")(two_that_fit_together())["bound"] == 1.5


def test_validates_the_workload():
    w = two_that_fit_together()
    w.jobs[0].extra["workers"] = 2.5
    with pytest.raises(InputError) as err:
        share_bound(w)
    assert "workers" in str(err.value.field)

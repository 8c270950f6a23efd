"""Harmony's ``config`` bound (mlopt/families/harmony/config_bound.py): the configuration
listing by hand, felt levels by hand, refusal above the cap (fail safe: share's result), a hand
value, and (hypothesis, widened generator parameters) never below ``share`` and never above the
proven optimum."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_harmony_crowd_bound import WIDE

from mlopt import pipeline
from mlopt.errors import InputError
from mlopt.families import get_family
from mlopt.families.harmony import config_bound as cfg
from mlopt.families.harmony.generator import make_workload
from mlopt.families.harmony.share_bound import share_bound
from mlopt.solve import Status

FAM = get_family("harmony")
VGG = {"model": "vgg16", "workers": 1, "ps": 1, "epochs": 2, "arrival": 1}


def test_listing_by_hand():
    # testbed server: 2 GPUs, 8 cores, 48 GB, 50 Gbps; a VGG16 worker takes 1 GPU / 2 cores /
    # 10 GB / 8 Gbps, a PS 0 / 2 / 8 / 8.  One 1+1 job: (1,0), (0,1), (1,1) -> 3.  Two: all
    # four tasks fit together (2 GPUs, 8 cores, 36 GB, 32 Gbps), so 4 x 4 - 1 (empty) = 15
    XW, XP = cfg.list_configs(make_workload([VGG], n_servers=1, horizon=4))
    assert len(XW) == 3
    XW, XP = cfg.list_configs(make_workload([VGG, VGG], n_servers=2, horizon=4))
    assert len(XW) == 15 and XW.max() == 1 and XP.max() == 1
    # a 2+2 VGG job with them: its 2 PSs and 2 workers take all 8 cores alone, so no
    # configuration holds 5 tasks; 3 workers never (2 GPUs)
    big = {**VGG, "workers": 2, "ps": 2}
    XW, XP = cfg.list_configs(make_workload([VGG, big], n_servers=2, horizon=4))
    assert (XW + XP).sum(axis=1).max() == 4 and XW.sum(axis=1).max() == 2


def test_refuses_above_the_cap_with_shares_result():
    w = make_workload([VGG, VGG], n_servers=2, horizon=4)
    out = cfg.config_bound(w, max_configs=10)
    assert "config_refused" in out and out["bound"] == share_bound(w)["bound"]


def test_levels_by_hand():
    # ResNet (1 worker, 1 PS) with a CTC job (1+1) on one server: ResNet's felt is
    # alpha[resnet, ctc] x (workers + 0.5 PSs) of CTC: 0.5, 1 or 1.5 alphas -> the level of
    # a configuration is the number of thresholds at or below its (lowered) felt
    w = make_workload([{"model": "resnet", "workers": 1, "ps": 1, "epochs": 7, "arrival": 1},
                       {"model": "ctc", "workers": 1, "ps": 1, "epochs": 6, "arrival": 2}],
                      n_servers=1, horizon=5)
    from mlopt.families.harmony.bounds import must_span, standalone_bound
    from mlopt.families.harmony.share_bound import _prepare
    from mlopt.families.harmony.speed import model_of
    sm = model_of(w)
    a = sm.alpha[sm.index("resnet"), sm.index("ctc")]
    base, _ = _prepare(w, standalone_bound(w)["per_job"])
    felt = np.array([0.0, 0.5 * a, a, 1.5 * a]) * cfg.FELT_MARGIN
    jb = cfg._LevelJob(base[0], sm, w.jobs[0], felt, 2, must_span(w.jobs[0], w.servers))
    # thresholds are felt values that cost more loss units: here all three shared ones (each
    # step of 0.5 x 0.122 slows ResNet by several 1/256ths), so levels 0, 1, 2, 3
    assert list(jb.thresholds) == list(felt[1:])
    assert list(jb.level(felt)) == [0, 1, 2, 3] and jb.nlev == 4
    # modes: E, then share's P and F at each level 0-3; a mode's loss is the larger of its
    # level's and its share kind's, so it grows with the level within a kind
    assert jb.modes == ("E", "P0", "P1", "P2", "P3", "F0", "F1", "F2", "F3")
    assert list(jb.mlevel) == [0, 0, 1, 2, 3, 0, 1, 2, 3] and jb.loss[0, 3] == 0
    for kind in (slice(1, 5), slice(5, 9)):
        assert list(jb.loss[kind, 3]) == sorted(jb.loss[kind, 3])
    assert (jb.loss[1:, 1] == cfg.DISALLOWED).all()


def test_hand_value_two_resnets_on_one_server():
    # share's hand case: two 1-worker + 1-PS ResNet jobs of 4 epochs on one server (average
    # 1.5 = OPT): sharing slows each below the 4 epochs of one interval, so the configuration
    # LP also needs two intervals for one of them: 1 + 2 = 3, average 1.5
    w = make_workload([{"model": "resnet", "workers": 1, "ps": 1, "epochs": 4, "arrival": 1}]
                      * 2, n_servers=1, horizon=4)
    out = cfg.config_bound(w)
    assert out["bound"] == 1.5 and out["config_value"] == pytest.approx(1.5, abs=1e-6)
    assert out["config_value"] <= 1.5


@settings(max_examples=3, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 10_000), params=WIDE)
def test_between_share_and_the_optimum_on_widened_instances(seed, params):
    w = FAM.generate("tiny", seed=seed, **params)
    # a budget: column generation tails off on some (36 s at one 4-job, 1-server instance);
    # a stopped run is certified at the best prices seen, so the law must hold all the same
    out = cfg.config_bound(w, time_limit=5)
    assert out["bound"] >= share_bound(w)["bound"] - 1e-12
    off = pipeline.solve_offline(w, family="harmony", time_limit=60)
    if off.solve.status == Status.OPTIMAL:
        assert off.check.feasible and out["bound"] <= off.objective + 1e-9
        # the configuration LP's own certified value lies below OPT too (not only the max)
        if "config_value" in out:
            assert out["config_value"] <= off.objective + 1e-9


def test_registered_as_a_theorem_bound_not_in_bracket():
    assert FAM.bounds_["config"].solver is False and FAM.bounds_["config"].bracket is False


def test_validates_the_workload():
    w = make_workload([VGG, VGG], n_servers=1, horizon=4)
    w.jobs[0].extra["workers"] = 2.5
    with pytest.raises(InputError) as err:
        cfg.config_bound(w)
    assert "workers" in str(err.value.field) and "2.5" in str(err.value)


def test_exact_where_share_is_not_on_a_committed_instance():
    # harmony-small-4 (5 jobs, 3 servers; optimum 2.6, verified by two solvers in solu.csv):
    # share certifies 2.4; the configuration LP's Lagrangian is above 12 = 5 x 2.4 (about
    # 12.33: benchmarks/harmony/data/config_proven.jsonl), so the JCT sum is >= 13: 2.6 = OPT
    from mlopt.instances import load_instance
    w = load_instance("harmony-small-4")
    out = cfg.config_bound(w)
    assert out["share"] == pytest.approx(2.4) and out["bound"] == pytest.approx(2.6)
    assert 12 < 5 * out["config_value"] <= 13

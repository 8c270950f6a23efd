"""The reward-prediction network: learns the speeds of random placements better than LIF's
CPU+bandwidth model (Fig. 9a, qualitatively), and supplies DRL rewards."""
from __future__ import annotations

import numpy as np
import pytest

from mlopt.errors import InputError
from mlopt.families import get_family
from mlopt.families.harmony.agent import TrainConfig
from mlopt.families.harmony.training import train
from mlopt.families.harmony.env import PlacementEnv
from mlopt.families.harmony.reward_model import (RewardConfig, RewardModel, lif_relative_errors,
                                                 sample_placements, train_reward_model)
from mlopt.families.harmony.speed import SpeedModel


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    path = tmp_path_factory.mktemp("rm") / "rm.npz"
    summary = train_reward_model(path, {"samples": 1500, "epochs": 3, "seed": 0})
    return path, summary


def test_reward_model_beats_lif_and_roundtrips(trained):
    path, s = trained
    assert s["samples"] > 1000
    assert s["test_relative_error"] < s["lif_line_test_error"]
    assert s["test_relative_error"] < 0.2
    rm = RewardModel.load(path)
    sm = SpeedModel.default()
    X, Y, mask, _ = sample_placements(sm, RewardConfig(samples=50, seed=7), np.random.default_rng(7))
    f = rm.predict_factor(X)
    assert f.shape == Y.shape and np.all((f > 0) & (f < 1))


def test_labels_are_the_ground_truth():
    sm = SpeedModel.default()
    cfg = RewardConfig(samples=20, seed=3)
    X, Y, mask, raw = sample_placements(sm, cfg, np.random.default_rng(3))
    for (models, W, xw, xp), y, m in zip(raw, Y, mask):
        assert m.sum() == len(models)
        assert np.allclose(y[: len(models)], sm.factor(sm.slowdowns(models, xw, xp)))
    errs = lif_relative_errors(sm, raw, Y, mask)
    assert set(errs) == {"line", "quad"} and all(e > 0 for e in errs.values())


def test_drl_trains_on_predicted_rewards(trained):
    path, _ = trained
    agent, hist = train(TrainConfig(preset="tiny", episodes=3, seed=0, reward="model",
                                    reward_model=str(path)))
    assert len(hist) == 3 and all(np.isfinite(h["reward"]) for h in hist)
    w = get_family("harmony").preset("tiny")(seed=0)
    fn = RewardModel.load(path).env_reward_fn()
    env = PlacementEnv(w, reward_fn=fn)
    while not env.done:
        env.step(int(np.flatnonzero(env.action_mask())[0]))
    assert env.total_reward > 0


def test_bad_reward_model_file(tmp_path):
    bad = tmp_path / "x.npz"
    bad.write_text("nope")
    with pytest.raises(InputError):
        RewardModel.load(bad)

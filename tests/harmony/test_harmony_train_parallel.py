"""Harmony DRL training with parallel sample collection (``workers``, mlopt/families/harmony/
parallel.py) and continued training from a checkpoint (``init``): determinism for a fixed
(seed, workers), the same instances and update count as one process, bad values."""
from __future__ import annotations

import json

import numpy as np
import pytest

from mlopt.cli import main
from mlopt.errors import InputError
from mlopt.families import get_family
from mlopt.families.harmony.agent import TrainConfig, load_checkpoint, save_checkpoint
from mlopt.families.harmony.training import train, train_policy
from mlopt.families.harmony.env import PlacementEnv
from mlopt.families.harmony.experience import discounted


def weights(agent) -> dict:
    return {**agent.policy.to_arrays("p"), **agent.value.to_arrays("v")}


def same(a, b) -> bool:
    return a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)


def test_discounted_by_hand():
    # gamma 0.5: G2 = 4; G1 = 0 + 0.5 * 4 = 2; G0 = 1 + 0.5 * 2 = 2
    assert discounted(np.array([1.0, 0.0, 4.0]), 0.5).tolist() == [2.0, 2.0, 4.0]


def test_two_workers_are_deterministic_and_differ_from_one():
    cfg = dict(preset="tiny", episodes=7, seed=3)  # 7: the last round has one episode
    a1, h1 = train(TrainConfig(workers=2, **cfg))
    a2, h2 = train(TrainConfig(workers=2, **cfg))
    assert same(weights(a1), weights(a2)) and json.dumps(h1) == json.dumps(h2)  # NaN-safe
    assert [h["episode"] for h in h1] == list(range(7))
    assert all(np.isfinite(h["avg_jct"]) for h in h1)  # every episode completed its jobs
    # the same annealing per episode index as one process, and other samples than one process
    one, h0 = train(TrainConfig(workers=1, **cfg))
    assert [h["eps"] for h in h0] == [h["eps"] for h in h1]
    assert not same(weights(one), weights(a1))
    a3, _ = train(TrainConfig(workers=3, **cfg))
    assert not same(weights(a3), weights(a1))


@pytest.mark.parametrize("flags", [{"replay": False}, {"value_net": False}])
def test_ablations_with_workers(flags):
    agent, hist = train(TrainConfig(preset="tiny", episodes=4, seed=1, workers=2, **flags))
    assert len(hist) == 4 and all(np.isfinite(p).all() for p in agent.policy.params.values())


@pytest.mark.parametrize("value", [0, -1, 1.5, "2", True])
def test_bad_workers(value):
    with pytest.raises(InputError) as err:
        train(TrainConfig(preset="tiny", episodes=2, workers=value))
    assert err.value.field == "workers"


def test_bad_reward_setting_fails_before_workers_start(tmp_path):
    with pytest.raises(InputError):
        train(TrainConfig(preset="tiny", episodes=2, workers=2, reward="model",
                          reward_model=str(tmp_path / "missing.npz")))


def test_init_continues_from_a_checkpoint(tmp_path):
    cfg = TrainConfig(preset="tiny", episodes=3, seed=0)
    agent, _ = train(cfg)
    ckpt = tmp_path / "a.npz"
    env = PlacementEnv(get_family("harmony").preset("tiny")(seed=0))
    save_checkpoint(agent, ckpt, obs_dim=env.obs_dim, n_actions=env.n_actions,
                    models=env.state.sm.models)
    saved = weights(load_checkpoint(ckpt)[0])
    # zero episodes: exactly the checkpoint's weights (as stored, float32)
    for workers in (1, 2):
        start, _ = train(TrainConfig(preset="tiny", episodes=0, seed=5, init=str(ckpt),
                                     workers=workers))
        assert same(weights(start), saved)
    cont, _ = train(TrainConfig(preset="tiny", episodes=3, seed=5, batch=4, init=str(ckpt)))
    assert not same(weights(cont), saved)
    with pytest.raises(InputError) as err:
        train(TrainConfig(preset="tiny", episodes=1, hidden=(16,), init=str(ckpt)))
    assert err.value.field == "init"
    with pytest.raises(InputError):
        train(TrainConfig(preset="tiny", episodes=1, init=str(tmp_path / "none.npz")))


def test_cli_workers_and_init(tmp_path):
    a, b = tmp_path / "a.npz", tmp_path / "b.npz"
    assert main(["train", "harmony", "-p", "preset=tiny", "-p", "episodes=3", "-p", "workers=2",
                 "--no-progress", "-o", str(a)]) == 0
    assert load_checkpoint(a)[1]["config"]["workers"] == 2
    summary = train_policy(b, {"preset": "tiny", "episodes": 2, "init": str(a)})
    assert summary["episodes"] == 2 and load_checkpoint(b)[1]["config"]["init"] == str(a)
    assert main(["train", "harmony", "-p", "workers=0", "-o", str(b)]) == 2


def test_an_episode_without_decisions():
    """An instance without jobs (the mini preset draws one, seed 540) gives no samples and
    the learner takes it in stride."""
    from mlopt.families.harmony.agent import Agent
    from mlopt.families.harmony.generator import make_workload
    from mlopt.families.harmony.experience import ReplayBuffer, collect_episode
    from mlopt.families.harmony.parallel import learn_from

    env = PlacementEnv(make_workload([], n_servers=1, horizon=2))
    cfg = TrainConfig()
    agent = Agent(env.obs_dim, 40, cfg, np.random.default_rng(0))
    ep = collect_episode(agent, env, np.random.default_rng(0), 0.5)
    assert ep["obs"].shape == (0, env.obs_dim) and ep["reward"] == 0.0
    buf = ReplayBuffer(8, {"obs": (env.obs_dim,), "job": (), "srv": (), "pair": (), "mask": (),
                           "act": (), "ret": ()}, dict.fromkeys(
        ("obs", "job", "srv", "pair", "mask", "act", "ret"), float))
    assert learn_from(agent, cfg, buf, ep, np.random.default_rng(0), 0.1) == {} and buf.n == 0

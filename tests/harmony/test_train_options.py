"""The paper's training choices as options of the Harmony trainer (agent.py's docstring):
``critic`` ("mc" default, "td" the paper's), ``standardize`` and ``grad_clip`` (on by default,
off in the paper), ``lr``. Defaults unchanged, so the committed checkpoint loads as before."""
from __future__ import annotations

import numpy as np
import pytest

from mlopt.errors import InputError
from mlopt.families.harmony.agent import (DEFAULT_CHECKPOINT, GRAD_CLIP_NORM, Agent,
                                          TrainConfig, load_checkpoint)
from mlopt.families.harmony.experience import discounted, td_samples
from mlopt.families.harmony.train_params import POLICY_PARAMS, config_from_params
from mlopt.families.harmony.training import train, train_policy


def _identity_critic(cfg: TrainConfig) -> Agent:
    """An agent whose value network is V(x) = relu(x) on a 1-dimensional state: one hidden
    unit, both weights 1, biases 0 (so V(x) = x for the positive states below)."""
    agent = Agent(1, 4, cfg, np.random.default_rng(0))
    for k, v in agent.value.params.items():
        v[...] = 1.0 if k.startswith("W") else 0.0
    return agent


def test_td_target_by_hand_on_a_three_step_episode():
    # states 1, 2, 3; rewards 1, 0, 4; gamma 0.5; V(x) = x
    # TD(0): y_0 = 1 + 0.5 V(2) = 2, y_1 = 0 + 0.5 V(3) = 1.5, y_2 = 4 (last: V(s') = 0)
    # Monte-Carlo: G_2 = 4, G_1 = 0 + 0.5 * 4 = 2, G_0 = 1 + 0.5 * 2 = 2
    obs = np.array([[1.0], [2.0], [3.0]], np.float32)
    rew = np.array([1.0, 0.0, 4.0])
    td = td_samples(obs, rew)
    assert td["next_obs"][:, 0].tolist() == [2.0, 3.0, 0.0]
    assert td["last"].tolist() == [False, False, True]
    ret = discounted(rew, 0.5)
    assert ret.tolist() == [2.0, 2.0, 4.0]
    tdc = _identity_critic(TrainConfig(critic="td", value_hidden=(1,), gamma=0.5))
    y = tdc.value_target(ret, (td["rew"], td["next_obs"], td["last"]))
    assert y.tolist() == [2.0, 1.5, 4.0]
    mc = _identity_critic(TrainConfig(critic="mc", value_hidden=(1,), gamma=0.5))
    assert mc.value_target(ret, None) is ret  # the default: the return itself


def test_td_critic_steps_towards_its_own_target():
    """One value step on the 3-step episode: V(1) = 1 against target 2 (both critics) moves up;
    V(3) = 3 against the TD target 4 (= the return) moves up; V(2) = 2 against TD 1.5 moves
    down, against the return 2 it has no error. Checked through the gradient the critic takes:
    (V - y) / B per sample."""
    obs = np.array([[1.0], [2.0], [3.0]], np.float32)
    rew = np.array([1.0, 0.0, 4.0])
    td = td_samples(obs, rew)
    ret = discounted(rew, 0.5)
    agent = _identity_critic(TrainConfig(critic="td", value_hidden=(1,), gamma=0.5))
    target = agent.value_target(ret, (td["rew"], td["next_obs"], td["last"]))
    v = agent.value.forward(obs)[:, 0]
    assert ((v - target) / 3).tolist() == pytest.approx([-1 / 3, 0.5 / 3, -1 / 3])


def test_td_critic_needs_the_samples_rewards_and_next_states():
    agent = _identity_critic(TrainConfig(critic="td", value_hidden=(1,)))
    with pytest.raises(ValueError, match="critic = td"):
        agent.value_target(np.zeros(2), None)


def test_clipping_and_standardization_switch():
    on = Agent(3, 4, TrainConfig(), np.random.default_rng(0))
    off = Agent(3, 4, TrainConfig(grad_clip=False), np.random.default_rng(0))
    assert on.p_opt.clip == on.v_opt.clip == GRAD_CLIP_NORM == 5.0
    assert off.p_opt.clip is None and off.v_opt.clip is None


def test_defaults_are_mlopt_and_the_committed_checkpoint_still_loads():
    cfg = TrainConfig()
    assert (cfg.critic, cfg.standardize, cfg.grad_clip, cfg.lr) == ("mc", True, True, 3e-3)
    agent, meta = load_checkpoint(DEFAULT_CHECKPOINT)
    # trained before the options existed: its meta lacks them and they take the defaults
    assert "critic" not in meta["config"]
    assert (agent.cfg.critic, agent.cfg.standardize, agent.cfg.grad_clip) == ("mc", True, True)


@pytest.mark.parametrize("params, field", [
    ({"critic": "q"}, "critic"),
    ({"critic": None}, "critic"),
    ({"standardize": "yes"}, "standardize"),
    ({"grad_clip": 5}, "grad_clip"),
    ({"lr": 0.0}, "lr"),
    ({"lr": float("nan")}, "lr"),
])
def test_bad_options_name_field_and_value(tmp_path, params, field):
    out = tmp_path / "p.npz"
    with pytest.raises(InputError) as err:
        train_policy(out, dict(params, episodes=1))
    assert err.value.field == field and not out.exists()
    with pytest.raises(InputError) as err:
        config_from_params(TrainConfig, params, POLICY_PARAMS)
    assert err.value.field == field


def test_agent_rejects_an_unknown_critic_built_in_code():
    with pytest.raises(InputError) as err:
        Agent(3, 4, TrainConfig(critic="sarsa"), np.random.default_rng(0))
    assert err.value.field == "critic" and err.value.value == "sarsa"


@pytest.mark.parametrize("over", [
    {"critic": "td", "lr": 1e-4, "value_lr": 1e-4, "standardize": False, "grad_clip": False},
    {"critic": "td", "replay": False},
    {"critic": "td", "workers": 2},
])
def test_the_papers_choices_train_and_are_kept_in_the_checkpoint(tmp_path, over):
    params = {"episodes": 3, "batch": 4, **over}
    out = tmp_path / "paper.npz"
    summary = train_policy(out, params)
    assert summary["episodes"] == 3
    agent, meta = load_checkpoint(out)
    for k, v in over.items():
        assert meta["config"][k] == v
    assert all(np.isfinite(p).all() for p in agent.value.params.values())


def test_td_changes_training_and_mc_does_not_depend_on_the_td_samples():
    """Same seed and budget: the TD critic trains other value weights than the Monte-Carlo
    one (the option is live), while the default run is repeatable."""
    def value_weights(**kw):
        a, _ = train(TrainConfig(episodes=4, batch=4, **kw))
        return np.concatenate([v.ravel() for v in a.value.params.values()])
    mc1, mc2, tdw = value_weights(), value_weights(), value_weights(critic="td")
    assert np.array_equal(mc1, mc2)
    assert not np.array_equal(mc1, tdw)

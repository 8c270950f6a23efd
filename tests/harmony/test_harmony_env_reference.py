"""The fast (numpy) Harmony environment equals its plain-Python reference value for value:
rows, observations, policy features, masks, rewards, schedules, step by step under random and
greedy policies, and a short training run gives bit-identical networks on either; the policy's
valid-row features equal the full feature matrix's masked rows."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from mlopt.families import get_family
from mlopt.families.harmony.agent import (DEFAULT_CHECKPOINT, TrainConfig, action_features,
                                          load_checkpoint, valid_action_features)
from mlopt.families.harmony.training import train
from mlopt.families.harmony.env import PlacementEnv
from mlopt.families.harmony.env_reference import ReferencePlacementEnv
from mlopt.families.harmony.reward_model import RewardConfig, RewardModel
from mlopt.families.harmony.speed import model_of

FAM = get_family("harmony")


def assert_same_state(a, b):
    assert a.done == b.done and a.slots == b.slots and a.rows() == b.rows()
    oa, ob = a.observe(), b.observe()
    assert oa.dtype == ob.dtype == np.float32 and np.array_equal(oa, ob)
    for pa, pb in zip(a.action_parts(), b.action_parts()):
        assert pa.dtype == pb.dtype and pa.shape == pb.shape and np.array_equal(pa, pb)
    ma, mb = a.action_mask(), b.action_mask()
    assert np.array_equal(ma, mb)
    return ma


def run_both(w, choose, max_servers=12, **kw):
    a = PlacementEnv(w, max_servers=max_servers, **kw)
    b = ReferencePlacementEnv(w, max_servers=max_servers, **kw)
    steps = 0
    while not a.done:
        mask = assert_same_state(a, b)
        act = choose(a, mask)
        assert a.step(act) == b.step(act)  # (reward, closed), exactly
        assert a.closed_rewards == b.closed_rewards and a.total_reward == b.total_reward
        steps += 1
    assert_same_state(a, b)
    assert a.schedule("x").to_dict() == b.schedule("x").to_dict()
    return steps


@pytest.mark.parametrize("preset,seed,servers", [("mini", 0, 12), ("mini", 1, 12), ("tiny", 2, 12),
                                                 ("small", 3, 12), ("poisson", 4, 12),
                                                 ("uniform", 5, 30)])
def test_random_actions_agree_with_the_reference(preset, seed, servers):
    kw = {"n_servers": servers} if preset == "uniform" else {}
    rng = np.random.default_rng(seed)
    steps = run_both(FAM.preset(preset)(seed=seed, **kw),
                     lambda env, mask: int(rng.choice(np.flatnonzero(mask))), servers)
    assert steps > 0


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(preset=st.sampled_from(["mini", "tiny"]), seed=st.integers(0, 10_000),
       extra_servers=st.integers(0, 4), max_new=st.integers(1, 4), policy_seed=st.integers(0, 99))
def test_property_any_instance_and_state_shape_agrees(preset, seed, extra_servers, max_new,
                                                      policy_seed):
    """Random instances, padded server counts and N' (new-job rows), random valid actions."""
    w = FAM.preset(preset)(seed=seed)
    rng = np.random.default_rng(policy_seed)
    run_both(w, lambda env, mask: int(rng.choice(np.flatnonzero(mask))),
             len(w.servers) + extra_servers, max_new_jobs=max_new)


def test_predicted_rewards_agree_with_the_reference():
    """With a reward model as the reward (reads the state after the interval trained)."""
    w = FAM.preset("mini")(seed=2)
    fn = RewardModel(RewardConfig(n_servers=len(w.servers)), model_of(w)).env_reward_fn()
    rng = np.random.default_rng(0)
    run_both(w, lambda env, mask: int(rng.choice(np.flatnonzero(mask))), reward_fn=fn)


def test_greedy_policy_agrees_with_the_reference():
    agent, _ = load_checkpoint(DEFAULT_CHECKPOINT)
    for seed in range(3):
        run_both(FAM.preset("mini")(seed=seed),
                 lambda env, mask: agent.greedy(env.action_parts(), mask))


def test_masked_actions_are_refused_by_both():
    w = FAM.preset("mini")(seed=0)
    for env in (PlacementEnv(w), ReferencePlacementEnv(w)):
        mask = env.action_mask()
        for a in [*np.flatnonzero(~mask)[:20], -1, env.n_actions]:
            with pytest.raises(ValueError):
                env.step(int(a))
        assert np.array_equal(env.action_mask(), mask)  # refused actions change nothing


def test_training_is_bit_identical_on_the_reference():
    """Exploration (heuristic servers read the reference's state snapshot), replay updates and
    the episode records: the environment implementation does not change a single bit."""
    cfg = TrainConfig(episodes=8, seed=5)
    fast, h_fast = train(cfg)
    ref, h_ref = train(cfg, env_cls=ReferencePlacementEnv)
    assert [h["reward"] for h in h_fast] == [h["reward"] for h in h_ref]
    for net_a, net_b in ((fast.policy, ref.policy), (fast.value, ref.value)):
        for k in net_a.params:
            assert np.array_equal(net_a.params[k], net_b.params[k]), k


def test_valid_action_features_are_the_masked_rows():
    rng = np.random.default_rng(0)
    B, Np, Mmax = 3, 5, 7
    job = rng.random((B, Np, 16)).astype(np.float32)
    server = rng.random((B, Mmax, 17)).astype(np.float32)
    pair = rng.random((B, Np, Mmax, 3)).astype(np.float32)
    mask = rng.random((B, 2 * Np * Mmax)) < 0.3
    full = action_features(job, server, pair)
    got = valid_action_features(job, server, pair, mask)
    assert got.dtype == np.float32 and np.array_equal(got, full[mask.reshape(-1)])
    # a broken gather (rows in another order) is caught
    assert not np.array_equal(got[::-1], full[mask.reshape(-1)])

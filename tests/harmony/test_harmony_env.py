"""The Harmony environment: Gymnasium's checker, masks that never allow an infeasible action,
the reward of Eq. (1), and episodes that end in a checked placement."""
from __future__ import annotations

import numpy as np
import pytest

from mlopt.families import get_family
from mlopt.families.harmony.checker import check_harmony
from mlopt.families.harmony.env import PlacementEnv
from mlopt.families.harmony.generator import make_workload
from mlopt.families.harmony.state import EPS

FAM = get_family("harmony")


def test_gymnasium_env_checker():
    gym = pytest.importorskip("gymnasium")
    from gymnasium.utils.env_checker import check_env

    from mlopt.families.harmony.gym_env import HarmonyPlacementEnv

    env = HarmonyPlacementEnv(preset="mini")
    check_env(env, skip_render_check=True)
    obs, info = env.reset(seed=3)
    assert env.observation_space.contains(obs)
    assert info["action_mask"].dtype == np.int8 and info["action_mask"].any()
    assert isinstance(env.action_space, gym.spaces.Discrete)


def test_state_dimensions_are_the_papers():
    w = FAM.preset("mini")(seed=0)
    env = PlacementEnv(w, max_servers=12)
    N, L, K, M, Np = 12, 6, 4, 12, 5
    assert env.obs_dim == N * L + 2 * N * (1 + K) + 2 * N + M * K + 2 * M * N
    assert env.n_actions == 2 * M * Np


@pytest.mark.parametrize("preset,seed", [("mini", 0), ("mini", 1), ("uniform", 2), ("tiny", 3)])
def test_masks_never_allow_an_infeasible_action(preset, seed):
    w = FAM.preset(preset)(seed=seed)
    env = PlacementEnv(w)
    rng = np.random.default_rng(seed)
    steps = 0
    while not env.done:
        mask = env.action_mask()
        assert mask.any()
        for a in np.flatnonzero(mask):  # every allowed action fits and is still needed
            row, role, m = env.decode(a)
            n = env.slots[row]
            assert n >= 0 and m < env.M and env.state.remaining(n, role) > 0
            assert (env.state.free[m] >= env.state.demand(n, role) - EPS).all()
        for a in np.flatnonzero(~mask)[:50]:
            with pytest.raises(ValueError):
                env.step(int(a))
        env.step(int(rng.choice(np.flatnonzero(mask))))
        steps += 1
    res = check_harmony(w, env.schedule("random"))
    assert res.feasible, res.summary()
    # every task placed at least once (rolled-back partial jobs are placed again later)
    assert steps >= sum(j.extra["workers"] + j.extra["ps"] for j in w.jobs)


def test_reward_is_eq1():
    """Two jobs alone on two servers: interval 1 reward = c0/e0 + c1/e1 with standalone speeds
    (ResNeXt 3 / 6 epochs + CTC 6 / 12 epochs = 0.5 + 0.5 = 1.0)."""
    w = make_workload([
        {"model": "resnext110", "workers": 1, "ps": 1, "epochs": 6, "arrival": 1},
        {"model": "ctc", "workers": 1, "ps": 1, "epochs": 12, "arrival": 1}],
        n_servers=2, horizon=6)
    env = PlacementEnv(w)
    for row, role, m in [(0, 1, 0), (0, 0, 0), (1, 1, 1)]:
        r, closed = env.step(env.encode(row, role, m))
        assert (r, closed) == (0.0, False)
    r, closed = env.step(env.encode(1, 0, 1))
    assert closed and r == pytest.approx(1.0)

"""Gymnasium wrapper of :class:`~mlopt.families.harmony.env.PlacementEnv` (needs the ``rl``
extra, part of ``dev``).

``HarmonyPlacementEnv(workload=None, preset="mini", seed=...)``: observation Box(0, 10, obs_dim)
float32, action Discrete(2 M N'); ``info["action_mask"]`` (int8) marks the valid actions.
``reset(seed=s)`` draws a fresh instance from ``preset`` with seed s unless a fixed workload was
given. An invalid action changes nothing, earns 0 and sets ``info["invalid_action"]`` (so
random agents and Gymnasium's checker can step it); the episode is truncated after
``max_steps``. The reward of a step is the sum of Eq. (1) over the intervals it closed.
"""
from __future__ import annotations

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from mlopt.families.harmony.env import PlacementEnv


class HarmonyPlacementEnv(gym.Env):
    metadata = {"render_modes": []}

    def __init__(self, workload=None, *, preset: str = "mini", max_servers: int = 12,
                 max_steps: int = 5000, **preset_params):
        from mlopt.families import get_family

        self._fixed = workload
        self._gen = get_family("harmony").preset(preset)
        self._params = preset_params
        self._max_servers = max_servers
        self._max_steps = max_steps
        w = workload if workload is not None else self._gen(seed=0, **preset_params)
        self.core = PlacementEnv(w, max_servers=max_servers)
        self.observation_space = spaces.Box(0.0, 10.0, (self.core.obs_dim,), np.float32)
        self.action_space = spaces.Discrete(self.core.n_actions)

    def _info(self, invalid=False):
        return {"action_mask": self.core.action_mask().astype(np.int8),
                "invalid_action": invalid, "interval": int(self.core.state.t)}

    def reset(self, *, seed=None, options=None) -> tuple[np.ndarray, dict]:
        """Reset (on a new generated workload unless fixed); return observation and info."""
        super().reset(seed=seed)
        if self._fixed is None:
            s = int(self.np_random.integers(2 ** 31)) if seed is None else int(seed)
            self.core = PlacementEnv(self._gen(seed=s, **self._params),
                                     max_servers=self._max_servers)
        else:
            self.core.reset()
        self._steps = 0
        return self.core.observe(), self._info()

    def step(self, action) -> tuple[np.ndarray, float, bool, bool, dict]:
        """Apply an action (invalid ones change nothing); return the Gymnasium step tuple."""
        self._steps += 1
        truncated = self._steps >= self._max_steps
        if self.core.done or not self.core.valid(int(action)):
            return self.core.observe(), 0.0, self.core.done, truncated and not self.core.done, \
                self._info(invalid=True)
        self.core.step(int(action))
        reward = float(sum(self.core.closed_rewards))
        return self.core.observe(), reward, self.core.done, truncated and not self.core.done, \
            self._info()

"""Experience of Harmony's DRL trainers (single-process :func:`.training.train` and the workers
of :mod:`.parallel`): playing an episode, the replay buffer, and the updates an episode's
experience triggers (one per closed interval from the buffer; then, without replay, on the
episode's own samples); also the exploration / entropy annealing, the reward setting and the
warm start both trainers share. One implementation for both trainers, so they act and learn
alike. The training side: it imports :mod:`.agent`, never the other way round.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from mlopt.errors import InputError
from mlopt.families.harmony.agent import Agent, TrainConfig, heuristic_server, load_checkpoint
from mlopt.families.harmony.env import PlacementEnv

if TYPE_CHECKING:  # pragma: no cover
    from collections.abc import Callable


def anneal(cfg: TrainConfig, ep: int) -> tuple[float, float]:
    """Return the exploration epsilon and entropy weight beta for episode ep."""
    frac = min(1.0, ep / max(1, cfg.anneal_fraction * cfg.episodes))
    eps = cfg.eps_start * (1 - frac) if cfg.exploration else 0.0
    beta = cfg.beta_start + (cfg.beta_end - cfg.beta_start) * frac
    return eps, beta


def reward_fn_of(cfg: TrainConfig) -> Callable | None:
    """Return the env reward function of the config: None (true reward) or the reward model's."""
    if cfg.reward == "true":
        return None
    if cfg.reward == "model":
        from mlopt.families.harmony.reward_model import RewardModel

        return RewardModel.load(cfg.reward_model).env_reward_fn()
    raise InputError("must be 'true' or 'model'", field="reward", value=cfg.reward)


def load_initial(agent: Agent, cfg: TrainConfig, obs_dim: int, feat_dim: int) -> None:
    """Online retraining (the paper retrains "periodically" on new samples): start from the
    weights of the checkpoint ``cfg.init`` instead of random ones (DECISION: Adam's moments and
    the exploration schedule start afresh; lower ``eps_start`` / ``beta_start`` to explore
    less). Its networks must have this run's shapes."""
    if cfg.init is None:
        return
    _, meta = load_checkpoint(cfg.init)
    if (meta["obs_dim"], meta["feat_dim"]) != (obs_dim, feat_dim) \
            or tuple(meta["config"]["hidden"]) != tuple(cfg.hidden) \
            or tuple(meta["config"]["value_hidden"]) != tuple(cfg.value_hidden):
        raise InputError("the checkpoint's networks differ from this run's (hidden, "
                         "value_hidden, model types or max_servers)", field="init",
                         value=str(cfg.init))
    data = np.load(cfg.init, allow_pickle=False)
    agent.policy.load_arrays(data, "policy")
    agent.value.load_arrays(data, "value")


def discounted(rewards: np.ndarray, gamma: float) -> np.ndarray:
    """G_i = sum_{i' >= i} gamma^(i' - i) r_i' over the inference index (Q of Eq. (2))."""
    out = np.zeros(len(rewards))
    acc = 0.0
    for i in range(len(rewards) - 1, -1, -1):
        acc = rewards[i] + gamma * acc
        out[i] = acc
    return out


def collect_episode(agent, env: PlacementEnv, rng: np.random.Generator, eps: float,
                    on_close=None) -> dict:
    """Play one episode: actions sampled from the policy, with probability ``eps`` job-aware
    exploration (the task the policy chose, the server a heuristic picks); ``on_close()`` runs
    after every interval the episode closes (the single-process trainer updates there).
    Returns the samples (per decision: obs, job, srv, pair, mask, act, interval_of) and the
    closed intervals' Eq. (1) rewards."""
    obs, job, srv, pair, masks, acts, interval_of, interval_rewards = ([] for _ in range(8))
    while not env.done:
        o, parts, mask = env.observe(), env.action_parts(), env.action_mask()
        p = agent.probs(parts, mask)
        a = int(rng.choice(len(p), p=p))
        if rng.random() < eps:  # keep the task the policy chose, a heuristic picks the server
            row, role, _ = env.decode(a)
            a = env.encode(row, role, heuristic_server(env, row, role,
                                                       "bp" if rng.random() < 0.5 else "lb"))
        for lst, x in zip((obs, job, srv, pair, masks, acts), (o, *parts, mask, a)):
            lst.append(x)
        interval_of.append(len(interval_rewards))
        _, closed = env.step(a)
        if closed:
            interval_rewards.append(env.closed_rewards[0])
            if on_close is not None:
                on_close()
    st = env.state
    jct = float(np.mean(st.done_at - st.jobs.arrival + 1)) \
        if st.all_done() and len(st.jobs.ids) else float("nan")
    return {"obs": np.array(obs, np.float32).reshape(len(acts), env.obs_dim),  # 0 decisions: ok
            "job": np.array(job, np.float32), "srv": np.array(srv, np.float32),
            "pair": np.array(pair, np.float32), "mask": np.array(masks, bool),
            "act": np.array(acts, int), "interval_of": np.array(interval_of, int),
            "interval_rewards": np.array(interval_rewards, float),
            "reward": env.total_reward, "avg_jct": jct}


class ReplayBuffer:
    """FIFO buffer of (obs, job, server, pair, mask, action, return) samples, with each
    sample's reward, next state and last-decision flag for the TD critic (``critic = "td"``;
    a buffer built without those keys serves the default Monte-Carlo critic)."""

    def __init__(self, size: int, shapes: dict[str, tuple], dtypes: dict[str, type]):
        self.size, self.n, self.head = size, 0, 0
        self.data = {k: np.zeros((size,) + shapes[k], dtypes[k]) for k in shapes}

    def add(self, ep: dict, returns: np.ndarray, td: dict | None = None) -> None:
        """Append an episode's steps and returns (and ``td``: per-sample ``rew``, ``next_obs``,
        ``last``, for the keys the buffer has), overwriting the oldest when full."""
        extra = {k: v for k, v in (td or {}).items() if k in self.data}
        for i in range(len(returns)):
            for k in ("obs", "job", "srv", "pair", "mask", "act"):
                self.data[k][self.head] = ep[k][i]
            self.data["ret"][self.head] = returns[i]
            for k, v in extra.items():
                self.data[k][self.head] = v[i]
            self.head = (self.head + 1) % self.size
            self.n = min(self.n + 1, self.size)

    @classmethod
    def for_env(cls, env: PlacementEnv, size: int) -> "ReplayBuffer":
        """Return an empty buffer of the given size shaped for the env's observations and actions."""
        job, srv, pair = env.action_parts()
        return cls(size, {"obs": (env.obs_dim,), "job": job.shape, "srv": srv.shape,
                          "pair": pair.shape, "mask": (env.n_actions,), "act": (), "ret": (),
                          "rew": (), "next_obs": (env.obs_dim,), "last": ()},
                   {"obs": np.float32, "job": np.float32, "srv": np.float32,
                    "pair": np.float32, "mask": bool, "act": int, "ret": float,
                    "rew": float, "next_obs": np.float32, "last": bool})

    def sample(self, rng: np.random.Generator, batch: int) -> tuple:
        """A uniform mini-batch (with replacement) of the samples held: the arguments of
        :meth:`.agent.Agent.update` before ``beta``, then its ``td`` (None without those keys)."""
        idx = rng.integers(self.n, size=batch)
        d = self.data
        td = (d["rew"][idx], d["next_obs"][idx], d["last"][idx]) if "rew" in d else None
        return (d["obs"][idx], d["job"][idx], d["srv"][idx], d["pair"][idx], d["mask"][idx],
                d["act"][idx], d["ret"][idx], td)


def replay_updates(agent, cfg, buf: ReplayBuffer, rng: np.random.Generator,
                   beta: float) -> dict | None:
    """At an interval's close: ``updates_per_interval`` updates on mini-batches from the buffer
    once it holds a batch (with replay). Returns the last update's stats (None: no update)."""
    stats = None
    if cfg.replay and buf.n >= cfg.batch:
        for _ in range(cfg.updates_per_interval):
            *batch, td = buf.sample(rng, cfg.batch)
            stats = agent.update(*batch, beta, td=td)
    return stats


def end_of_episode(agent, cfg, buf: ReplayBuffer, ep: dict, beta: float) -> dict | None:
    """After an episode: every sample gets its interval's reward and the discounted return over
    the inference index; with replay they enter the buffer, without it the agent updates on
    them interval by interval, in order. Returns the last update's stats (None: no update)."""
    rew = np.array([ep["interval_rewards"][k] if k < len(ep["interval_rewards"]) else 0.0
                    for k in ep["interval_of"]])
    ret = discounted(rew, cfg.gamma)
    td = td_samples(ep["obs"], rew)
    stats = None
    if cfg.replay:
        buf.add(ep, ret, td)
    else:
        for k in range(len(ep["interval_rewards"])):
            idx = np.flatnonzero(ep["interval_of"] == k)
            if len(idx):
                stats = agent.update(ep["obs"][idx], ep["job"][idx], ep["srv"][idx],
                                     ep["pair"][idx], ep["mask"][idx], ep["act"][idx], ret[idx],
                                     beta, td=(td["rew"][idx], td["next_obs"][idx],
                                               td["last"][idx]))
    return stats


def td_samples(obs: np.ndarray, rew: np.ndarray) -> dict:
    """Per decision i of an episode: its reward r_i, the next decision's state s_{i+1} and
    whether i is the last decision (then V(s_{i+1}) = 0): the TD(0) critic's ingredients, one
    step of the same inference index the return G is discounted over (:func:`discounted`)."""
    n = len(rew)
    next_obs = np.zeros_like(obs)
    next_obs[:-1] = obs[1:]
    last = np.zeros(n, bool)
    last[-1:] = True
    return {"rew": rew, "next_obs": next_obs, "last": last}


def record_episode(history: list, ep: int, sample: dict, eps: float, beta: float, stats: dict,
                   *, log=None, bar=None) -> None:
    """One training record per episode (both trainers): appended to ``history``, passed to
    ``log`` and shown on the progress bar."""
    rec = {"episode": ep, "reward": sample["reward"], "avg_jct": sample["avg_jct"], "eps": eps,
           "beta": beta, **stats}
    history.append(rec)
    if log is not None:
        log(rec)
    if bar is not None:
        bar.set_postfix(jct=f"{sample['avg_jct']:.2f}", R=f"{sample['reward']:.1f}")
        bar.update(1)

"""Harmony's DRL trainers, the training side: :func:`train` (single process, or
``workers`` >= 2 collecting processes, :mod:`.parallel`) and :func:`train_policy` (``mlopt train
harmony --target policy``). Episodes, the replay buffer and the updates are in :mod:`.experience`;
the networks, acting and checkpoints in :mod:`.agent` (which imports nothing of this side).
Algorithm and DECISIONS: :mod:`.agent`'s docstring.
"""
from __future__ import annotations

import time

import numpy as np

from mlopt.errors import InputError
from mlopt.families.harmony.agent import (Agent, TrainConfig, action_features, save_checkpoint)
from mlopt.families.harmony.env import PlacementEnv
from mlopt.families.harmony.experience import (ReplayBuffer, anneal, collect_episode,
                                               end_of_episode, load_initial, record_episode,
                                               replay_updates, reward_fn_of)
from mlopt.families.harmony.nn import one_thread
from mlopt.families.harmony.parallel import train_parallel
from mlopt.families.harmony.train_params import POLICY_PARAMS, config_from_params


def train(cfg: TrainConfig, *, progress: bool = False, log=None,
          env_cls=PlacementEnv, on_start=None) -> tuple[Agent, list[dict]]:
    """Train (from scratch, or from ``cfg.init``); returns the agent and one record per
    episode. ``cfg.workers`` >= 2: parallel collection (:mod:`.parallel`). ``env_cls``: the
    environment implementation (tests train on the plain-Python reference too).
    ``on_start(agent)``: called once on the initialised agent before the first episode
    (single process only; the retraining-equivalence test and
    ``benchmarks/harmony/retrain_small.py`` move the initial weights by a few last bits with
    it, as another BLAS kernel would, without a config field in the checkpoint)."""
    w = cfg.workers
    if isinstance(w, bool) or not isinstance(w, int) or w < 1:
        raise InputError("must be an integer >= 1", field="workers", value=w)
    reward_fn_of(cfg)  # a bad reward setting fails here, not in a worker
    if w > 1:
        if on_start is not None:
            raise ValueError("on_start needs the single-process trainer (workers = 1)")
        return train_parallel(cfg, progress=progress, log=log, env_cls=env_cls)
    with one_thread():
        return _train(cfg, progress=progress, log=log, env_cls=env_cls, on_start=on_start)


def _train(cfg: TrainConfig, *, progress: bool = False, log=None, env_cls=PlacementEnv,
           on_start=None):
    from mlopt.families import get_family

    rng = np.random.default_rng(cfg.seed)
    gen = get_family("harmony").preset(cfg.preset)
    reward_fn = reward_fn_of(cfg)
    probe = env_cls(gen(seed=cfg.seed, **cfg.preset_params), max_servers=cfg.max_servers)
    pj, ps_, pp = probe.action_parts()
    agent = Agent(probe.obs_dim, action_features(pj[None], ps_[None], pp[None]).shape[1], cfg,
                  rng)
    load_initial(agent, cfg, probe.obs_dim, agent.policy.sizes[0])
    buf = ReplayBuffer.for_env(probe, cfg.replay_size)
    if on_start is not None:
        on_start(agent)
    history = []
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=cfg.episodes, desc="train harmony", unit="ep")
    for ep in range(cfg.episodes):
        eps, beta = anneal(cfg, ep)
        w = gen(seed=cfg.seed + 1 + ep, **cfg.preset_params)
        env = env_cls(w, max_servers=cfg.max_servers, reward_fn=reward_fn)
        stats = {}

        def on_close():  # one update per closed interval, inside the episode
            nonlocal stats
            stats = replay_updates(agent, cfg, buf, rng, beta) or stats
        sample = collect_episode(agent, env, rng, eps, on_close=on_close)
        stats = end_of_episode(agent, cfg, buf, sample, beta) or stats
        record_episode(history, ep, sample, eps, beta, stats, log=log, bar=bar)
    if bar is not None:
        bar.close()
    return agent, history


def train_policy(out_path, params: dict, *, progress: bool = False) -> dict:
    """``mlopt train harmony --target policy``: train and write a checkpoint (.npz)."""
    from mlopt.families import get_family

    cfg = config_from_params(TrainConfig, params, POLICY_PARAMS)
    preset_params = cfg.preset_params
    if not isinstance(preset_params, dict):
        raise InputError("must be a table of generator parameters", field="preset_params",
                         value=preset_params)
    get_family("harmony").validate_params(cfg.preset, preset_params)
    if cfg.reward == "model" and cfg.reward_model is None:
        raise InputError("reward = model needs a reward_model checkpoint", field="reward_model")
    t0 = time.perf_counter()
    agent, history = train(cfg, progress=progress)
    seconds = time.perf_counter() - t0
    gen = get_family("harmony").preset(cfg.preset)
    w0 = gen(seed=cfg.seed, **cfg.preset_params)
    env = PlacementEnv(w0, max_servers=cfg.max_servers)
    last = [h["avg_jct"] for h in history[-max(1, len(history) // 10):]
            if np.isfinite(h["avg_jct"])] or [float("nan")]
    summary = {"episodes": cfg.episodes, "train_s": round(seconds, 1),
               "train_jct_last10pct": round(float(np.nanmean(last)), 4)}
    save_checkpoint(agent, out_path, obs_dim=env.obs_dim, n_actions=env.n_actions,
                    models=env.state.sm.models, extra={"summary": summary})
    return summary


train_policy.params = POLICY_PARAMS  # what mlopt train --help lists (-p KEY=VALUE)

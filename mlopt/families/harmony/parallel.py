"""Parallel sample collection for Harmony's DRL (``workers = N >= 2``): the paper trains with 20
workers that generate samples and whose gradients are aggregated synchronously (seed 002
Sec. VI); here N processes generate the samples and one learner updates.

Rounds. In round r, worker w (a dedicated process, w = 0..N-1) plays episode
e = r N + w (the same generated instance, ``seed + 1 + e``, and the same epsilon / beta as the
single-process trainer gives episode e) greedily-or-exploring with the policy weights the
learner sends for the round. The learner then takes the N episodes in worker order
and, as the single-process trainer does for one episode, makes ``updates_per_interval`` updates
per interval the episode closed (mini-batches of ``batch`` from the replay buffer, once it holds
that many) before appending the episode's samples (without replay: it updates on the episode's
samples interval by interval). The workers do not wait for that: round r + 1 is sent out as
soon as round r is back, with the weights learned up to round r - 1, so collection and learning
overlap (on 2 cores the learner would otherwise leave one idle for about a third of the run).
So an N-worker run makes the same number of updates on the same instances; what differs is
that a worker acts with weights up to 2N - 1 episodes old and never sees an update in the
middle of its episode (the price of collecting in parallel).

Determinism: ``numpy.random.SeedSequence(seed).spawn(N + 1)`` gives the learner (network
initialization, mini-batches) stream 0 and worker w stream w + 1, each a Generator that lives
for the whole run in its own process (worker w always plays episodes w, w + N, ...), so a run is
a function of (seed, workers) alone, whatever the scheduling of the processes. ``workers = 1``
is the single-process trainer of :mod:`.training` (updates inside the episode, one stream), which
reproduces the committed checkpoint; it is not this module with one worker.
"""
from __future__ import annotations

import multiprocessing as mp
import traceback
from dataclasses import asdict

import numpy as np

from mlopt.families.harmony.agent import Agent, TrainConfig, action_features
from mlopt.families.harmony.env import PlacementEnv
from mlopt.families.harmony.experience import (ReplayBuffer, anneal, collect_episode,
                                               end_of_episode, load_initial, record_episode,
                                               replay_updates, reward_fn_of)
from mlopt.families.harmony.nn import one_thread


def _worker(conn, cfg_dict: dict, seed_seq: np.random.SeedSequence, obs_dim: int,
            feat_dim: int, env_cls=PlacementEnv) -> None:
    """Worker process: receive (episode, eps, policy weights), play, send the samples back (or
    the traceback of a failure); ``None`` ends it."""
    from mlopt.families import get_family

    cfg = TrainConfig(**cfg_dict)
    rng = np.random.default_rng(seed_seq)
    gen = get_family("harmony").preset(cfg.preset)
    reward_fn = reward_fn_of(cfg)
    agent = Agent(obs_dim, feat_dim, cfg, np.random.default_rng(0))  # weights come per round
    with one_thread():
        while True:
            msg = conn.recv()
            if msg is None:
                break
            ep, eps, weights = msg
            agent.policy.params = {k: v.copy() for k, v in weights.items()}
            try:
                env = env_cls(gen(seed=cfg.seed + 1 + ep, **cfg.preset_params),
                              max_servers=cfg.max_servers, reward_fn=reward_fn)
                conn.send(collect_episode(agent, env, rng, eps))
            except Exception:  # reported by the learner, which stops the run
                conn.send(traceback.format_exc())
    conn.close()


def learn_from(agent, cfg, buf: ReplayBuffer, ep: dict, rng: np.random.Generator,
               beta: float) -> dict:
    """The learner's share of one collected episode: what the single-process trainer does at
    each of its interval closes, then at its end (module docstring)."""
    stats: dict = {}
    for _ in range(len(ep["interval_rewards"])):
        stats = replay_updates(agent, cfg, buf, rng, beta) or stats
    return end_of_episode(agent, cfg, buf, ep, beta) or stats


def train_parallel(cfg, *, progress: bool = False, log=None, env_cls=PlacementEnv) -> tuple[Agent, list[dict]]:
    """Train with ``cfg.workers`` collecting processes; returns (agent, history) as
    :func:`.training.train`."""
    from mlopt.families import get_family

    n = int(cfg.workers)
    streams = np.random.SeedSequence(cfg.seed).spawn(n + 1)
    rng = np.random.default_rng(streams[0])
    gen = get_family("harmony").preset(cfg.preset)
    probe = env_cls(gen(seed=cfg.seed, **cfg.preset_params), max_servers=cfg.max_servers)
    pj, ps_, pp = probe.action_parts()
    feat_dim = action_features(pj[None], ps_[None], pp[None]).shape[1]
    agent = Agent(probe.obs_dim, feat_dim, cfg, rng)
    load_initial(agent, cfg, probe.obs_dim, feat_dim)
    buf = ReplayBuffer.for_env(probe, cfg.replay_size)
    ctx = mp.get_context("fork" if "fork" in mp.get_all_start_methods() else "spawn")
    pipes, procs = [], []
    for w in range(n):
        parent, child = ctx.Pipe()
        proc = ctx.Process(target=_worker, args=(child, asdict(cfg), streams[w + 1],
                                                 probe.obs_dim, feat_dim, env_cls),
                           daemon=True)
        proc.start()
        child.close()
        pipes.append(parent)
        procs.append(proc)
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=cfg.episodes, desc=f"train harmony ({n} workers)", unit="ep")
    history = []
    try:
        with one_thread():
            rounds = [range(s, min(s + n, cfg.episodes)) for s in range(0, cfg.episodes, n)]

            def dispatch(r: int) -> None:
                weights = {k: v.copy() for k, v in agent.policy.params.items()}
                for w, ep in enumerate(rounds[r]):
                    pipes[w].send((ep, anneal(cfg, ep)[0], weights))
            if rounds:
                dispatch(0)
            for r, eps_round in enumerate(rounds):
                results = [pipes[w].recv() for w in range(len(eps_round))]
                for w, res in enumerate(results):
                    if isinstance(res, str):
                        raise RuntimeError(f"harmony training worker {w} failed:\n{res}")
                if r + 1 < len(rounds):  # the workers play round r + 1 while the learner learns
                    dispatch(r + 1)
                for ep, res in zip(eps_round, results):
                    eps, beta = anneal(cfg, ep)
                    stats = learn_from(agent, cfg, buf, res, rng, beta)
                    record_episode(history, ep, res, eps, beta, stats, log=log, bar=bar)
    finally:
        for pipe in pipes:
            try:
                pipe.send(None)
            except (BrokenPipeError, OSError):
                pass
        for proc in procs:
            proc.join(timeout=10)
            if proc.is_alive():
                proc.terminate()
        if bar is not None:
            bar.close()
    return agent, history

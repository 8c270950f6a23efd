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
is the single-process trainer of :mod:`.drl` (updates inside the episode, one stream), which
reproduces the committed checkpoint; it is not this module with one worker.
"""
from __future__ import annotations

import multiprocessing as mp
import traceback
from dataclasses import asdict

import numpy as np

from mlopt.families.harmony.env import PlacementEnv
from mlopt.families.harmony.nn import one_thread


def discounted(rewards: np.ndarray, gamma: float) -> np.ndarray:
    """G_i = sum_{i' >= i} gamma^(i' - i) r_i' over the inference index (Q of Eq. (2))."""
    out = np.zeros(len(rewards))
    acc = 0.0
    for i in range(len(rewards) - 1, -1, -1):
        acc = rewards[i] + gamma * acc
        out[i] = acc
    return out


def collect_episode(agent, env: PlacementEnv, rng: np.random.Generator, eps: float) -> dict:
    """Play one episode with fixed weights (sampled actions, job-aware exploration with
    probability ``eps``, as :func:`.drl._train` acts) and return its samples."""
    from mlopt.families.harmony.drl import heuristic_server

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
    st = env.state
    jct = float(np.mean(st.done_at - st.jobs.arrival + 1)) \
        if st.all_done() and len(st.jobs.ids) else float("nan")
    return {"obs": np.array(obs, np.float32).reshape(len(acts), env.obs_dim),  # 0 decisions: ok
            "job": np.array(job, np.float32), "srv": np.array(srv, np.float32),
            "pair": np.array(pair, np.float32), "mask": np.array(masks, bool),
            "act": np.array(acts, int), "interval_of": np.array(interval_of, int),
            "interval_rewards": np.array(interval_rewards, float),
            "reward": env.total_reward, "avg_jct": jct}


def _worker(conn, cfg_dict: dict, seed_seq: np.random.SeedSequence, obs_dim: int,
            feat_dim: int, env_cls=PlacementEnv) -> None:
    """Worker process: receive (episode, eps, policy weights), play, send the samples back (or
    the traceback of a failure); ``None`` ends it."""
    from mlopt.families import get_family
    from mlopt.families.harmony.drl import Agent, TrainConfig, _reward_fn

    cfg = TrainConfig(**cfg_dict)
    rng = np.random.default_rng(seed_seq)
    gen = get_family("harmony").preset(cfg.preset)
    reward_fn = _reward_fn(cfg)
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


class ReplayBuffer:
    """FIFO buffer of (obs, job, server, pair, mask, action, return) samples."""

    def __init__(self, size: int, shapes: dict[str, tuple], dtypes: dict[str, type]):
        self.size, self.n, self.head = size, 0, 0
        self.data = {k: np.zeros((size,) + shapes[k], dtypes[k]) for k in shapes}

    def add(self, ep: dict, returns: np.ndarray) -> None:
        for i in range(len(returns)):
            for k in ("obs", "job", "srv", "pair", "mask", "act"):
                self.data[k][self.head] = ep[k][i]
            self.data["ret"][self.head] = returns[i]
            self.head = (self.head + 1) % self.size
            self.n = min(self.n + 1, self.size)

    def batch(self, idx) -> tuple:
        d = self.data
        return (d["obs"][idx], d["job"][idx], d["srv"][idx], d["pair"][idx], d["mask"][idx],
                d["act"][idx], d["ret"][idx])


def learn_from(agent, cfg, buf: ReplayBuffer, ep: dict, rng: np.random.Generator,
               beta: float) -> dict:
    """The learner's share of one collected episode (module docstring)."""
    rew = np.array([ep["interval_rewards"][k] if k < len(ep["interval_rewards"]) else 0.0
                    for k in ep["interval_of"]])
    ret = discounted(rew, cfg.gamma)
    stats: dict = {}
    if cfg.replay:
        for _ in range(len(ep["interval_rewards"])):
            if buf.n >= cfg.batch:
                for _ in range(cfg.updates_per_interval):
                    stats = agent.update(*buf.batch(rng.integers(buf.n, size=cfg.batch)), beta)
        buf.add(ep, ret)
    else:
        for k in range(len(ep["interval_rewards"])):
            idx = np.flatnonzero(ep["interval_of"] == k)
            if len(idx):
                stats = agent.update(ep["obs"][idx], ep["job"][idx], ep["srv"][idx],
                                     ep["pair"][idx], ep["mask"][idx], ep["act"][idx], ret[idx],
                                     beta)
    return stats


def train_parallel(cfg, *, progress: bool = False, log=None, env_cls=PlacementEnv):
    """Train with ``cfg.workers`` collecting processes; returns (agent, history) as
    :func:`.drl.train`."""
    from mlopt.families import get_family
    from mlopt.families.harmony.drl import Agent, _schedule, action_features, load_initial

    n = int(cfg.workers)
    streams = np.random.SeedSequence(cfg.seed).spawn(n + 1)
    rng = np.random.default_rng(streams[0])
    gen = get_family("harmony").preset(cfg.preset)
    probe = env_cls(gen(seed=cfg.seed, **cfg.preset_params), max_servers=cfg.max_servers)
    pj, ps_, pp = probe.action_parts()
    feat_dim = action_features(pj[None], ps_[None], pp[None]).shape[1]
    agent = Agent(probe.obs_dim, feat_dim, cfg, rng)
    load_initial(agent, cfg, probe.obs_dim, feat_dim)
    buf = ReplayBuffer(cfg.replay_size, {
        "obs": (probe.obs_dim,), "job": pj.shape, "srv": ps_.shape, "pair": pp.shape,
        "mask": (probe.n_actions,), "act": (), "ret": ()},
        {"obs": np.float32, "job": np.float32, "srv": np.float32, "pair": np.float32,
         "mask": bool, "act": int, "ret": float})
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
                    pipes[w].send((ep, _schedule(cfg, ep)[0], weights))
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
                    eps, beta = _schedule(cfg, ep)
                    stats = learn_from(agent, cfg, buf, res, rng, beta)
                    rec = {"episode": ep, "reward": res["reward"], "avg_jct": res["avg_jct"],
                           "eps": eps, "beta": beta, **stats}
                    history.append(rec)
                    if log is not None:
                        log(rec)
                    if bar is not None:
                        bar.set_postfix(jct=f"{res['avg_jct']:.2f}", R=f"{res['reward']:.1f}")
                        bar.update(1)
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

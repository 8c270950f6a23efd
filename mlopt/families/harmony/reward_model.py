"""Harmony's reward-prediction network (seed 002 Sec. V): predicts every job's training speed
from the job set and its placement, trained on simulated random placements, and used to
produce DRL rewards for placements never measured.

Per the paper: input (x, w, p, d) (demands "can be inferred from a job's model type"), output the
jobs' speeds; fully connected, 3 hidden layers, batch normalization; Adam, learning rate 0.005,
batch 32; loss (1/|N|) sum |c'_n - c_n| / c'_n (relative error, c' the measured speed); 13,177
samples of random jobs placed at random, split 90/10 (the paper reports 9.8% test error).

DECISIONS: the network predicts each job's speed *factor* (speed / standalone speed, a sigmoid
output), and c = factor x standalone (known from the model type and W), so the relative error
of c is that of the factor; padded job rows are masked out of the loss; a sample has 1..N jobs
of random models with W, P uniform in [1, 3], each task on a uniformly random server where it
fits on a cluster of ``n_servers`` testbed servers (a job with a task that fits nowhere is
dropped); the label is the ground-truth factor with every placed job running. Inputs are
the paper's (x, w, p, d) with counts / 3.
"""
from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from mlopt.errors import InputError
from mlopt.families.harmony.nn import MLP, Adam, one_thread
from mlopt.families.harmony.speed import SpeedModel
from mlopt.families.harmony.train_params import REWARD_PARAMS, config_from_params

if TYPE_CHECKING:  # pragma: no cover
    from collections.abc import Callable

ROLE_NORM = 3.0


@dataclass
class RewardConfig:
    samples: int = 13177
    test_fraction: float = 0.1
    max_jobs: int = 12  # N
    n_servers: int = 6  # the testbed's 6 servers
    hidden: tuple = (128, 128, 128)
    lr: float = 0.005
    batch: int = 32
    epochs: int = 8
    seed: int = 0


def sample_placements(sm: SpeedModel, cfg: RewardConfig, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray, list]:
    """Random (job set, placement) samples -> inputs (S x F), factors (S x N), row mask, and the
    raw placements (model, W, xw, xp) for other predictors (LIF)."""
    N, M, L = cfg.max_jobs, cfg.n_servers, len(sm.models)
    X, Y, mask, raw = [], [], [], []
    for _ in range(cfg.samples):
        k = int(rng.integers(1, N + 1))
        free = np.tile(sm.server, (M, 1))
        models, W, xw, xp = [], [], [], []
        for _ in range(k):
            l = int(rng.integers(L))
            w, p = int(rng.integers(1, 4)), int(rng.integers(1, 4))
            trial = free.copy()
            cw, cp = np.zeros(M, int), np.zeros(M, int)
            ok = True
            for role, count, dem in ((0, w, sm.worker_demand[l]), (1, p, sm.ps_demand[l])):
                for _ in range(count):
                    fits = np.flatnonzero((trial >= dem - 1e-9).all(axis=1))
                    if len(fits) == 0:
                        ok = False
                        break
                    m = int(rng.choice(fits))
                    trial[m] -= dem
                    (cw if role == 0 else cp)[m] += 1
                if not ok:
                    break
            if ok:
                free = trial
                models.append(l)
                W.append(w)
                xw.append(cw)
                xp.append(cp)
        n = len(models)
        if n == 0:
            continue
        models, W = np.array(models), np.array(W)
        xw, xp = np.array(xw), np.array(xp)
        factor = sm.factor(sm.slowdowns(models, xw, xp))
        X.append(encode(models, W, xw, xp, N, M, L))
        Y.append(np.pad(factor, (0, N - n)))
        mask.append(np.arange(N) < n)
        raw.append((models, W, xw, xp))
    return np.array(X, np.float32), np.array(Y), np.array(mask), raw


def encode(models, W, xw, xp, N, M, L) -> np.ndarray:
    """(x, w, p, d) of up to N jobs on up to M servers, zero-padded."""
    n = len(models)
    x = np.zeros((N, L))
    x[np.arange(n), models] = 1.0
    w = np.zeros(N)
    w[:n] = xw.sum(axis=1) / ROLE_NORM
    p = np.zeros(N)
    p[:n] = xp.sum(axis=1) / ROLE_NORM
    d = np.zeros((M, 2 * N))
    d[: xw.shape[1], 0:2 * n:2] = xw.T / ROLE_NORM
    d[: xp.shape[1], 1:2 * n:2] = xp.T / ROLE_NORM
    return np.concatenate([x.ravel(), w, p, d.ravel()])


class RewardModel:
    def __init__(self, cfg: RewardConfig, sm: SpeedModel, net: MLP | None = None):
        self.cfg, self.sm = cfg, sm
        L = len(sm.models)
        in_dim = cfg.max_jobs * L + 2 * cfg.max_jobs + 2 * cfg.n_servers * cfg.max_jobs
        self.net = net or MLP([in_dim, *cfg.hidden, cfg.max_jobs], np.random.default_rng(cfg.seed),
                              batch_norm=True)

    def predict_factor(self, X: np.ndarray) -> np.ndarray:
        """Return the predicted speed factors (sigmoid of the network output)."""
        return 1.0 / (1.0 + np.exp(-self.net.forward(X, train=False)))

    def fit(self, X, Y, mask, *, progress: bool = False) -> list[float]:
        """Train the network on the samples and return the loss of each epoch."""
        rng = np.random.default_rng(self.cfg.seed + 1)
        opt = Adam(self.net.params, self.cfg.lr)
        losses = []
        bar = None
        if progress:
            from tqdm import tqdm

            bar = tqdm(total=self.cfg.epochs, desc="train reward model", unit="epoch")
        with one_thread():
            for _ in range(self.cfg.epochs):
                order = rng.permutation(len(X))
                tot = 0.0
                for i in range(0, len(X) - self.cfg.batch + 1, self.cfg.batch):
                    idx = order[i:i + self.cfg.batch]
                    z = self.net.forward(X[idx], train=True)
                    f = 1.0 / (1.0 + np.exp(-z))
                    y, m = Y[idx], mask[idx]
                    cnt = m.sum(axis=1, keepdims=True)
                    rel = np.where(m, np.abs(f - y) / np.where(m, y, 1.0), 0.0)
                    tot += float((rel.sum(axis=1) / cnt[:, 0]).mean())
                    g = np.where(m, np.sign(f - y) / np.where(m, y, 1.0), 0.0) / cnt / len(idx)
                    opt.step(self.net.params, self.net.backward(g * f * (1 - f)))
                losses.append(tot / max(1, len(X) // self.cfg.batch))
                if bar is not None:
                    bar.set_postfix(loss=f"{losses[-1]:.3f}")
                    bar.update(1)
        if bar is not None:
            bar.close()
        return losses

    def relative_error(self, X, Y, mask) -> float:
        """Return the mean relative error of the predicted factors over the masked rows."""
        with one_thread():
            f = self.predict_factor(X)
        rel = np.abs(f - Y)[mask] / Y[mask]
        return float(rel.mean())

    # ---- use as the DRL's reward -------------------------------------------------------------
    def env_reward_fn(self) -> Callable:
        """``reward_fn(env, running) -> c`` for :class:`~.env.PlacementEnv`: predicted speeds of
        the running jobs (the first N of them; the cluster must have <= n_servers servers)."""
        cfg, L = self.cfg, len(self.sm.models)

        def fn(env, running):
            st = env.state
            idx = np.flatnonzero(running)[: cfg.max_jobs]
            c = np.zeros(len(st.jobs.ids))
            if len(idx) == 0:
                return c
            if env.M > cfg.n_servers:
                raise InputError(f"the reward model covers at most {cfg.n_servers} servers",
                                 field="servers", value=env.M)
            X = encode(st.jobs.model[idx], st.jobs.workers[idx], st.x[0, idx], st.x[1, idx],
                       cfg.max_jobs, cfg.n_servers, L)[None, :]
            f = self.predict_factor(X.astype(np.float32))[0, : len(idx)]
            c[idx] = f * self.sm.standalone(st.jobs.model[idx], st.jobs.workers[idx])
            return c
        return fn

    # ---- checkpoints -------------------------------------------------------------------------
    def save(self, path, extra: dict | None = None) -> None:
        """Save the network, config and speed model as a compressed .npz."""
        meta = {"config": asdict(self.cfg), "speed_model": self.sm.params, **(extra or {})}
        np.savez_compressed(path, meta=np.array(json.dumps(meta)), **{
            k: v.astype(np.float32) for k, v in self.net.to_arrays("net").items()})

    @classmethod
    def load(cls, path) -> "RewardModel":
        """Load a reward model from a checkpoint; InputError if the file is not one."""
        path = Path(str(path))
        try:
            data = np.load(path, allow_pickle=False)
            meta = json.loads(str(data["meta"]))
            cfg_d = meta["config"]
        except (OSError, ValueError, KeyError, TypeError) as err:
            raise InputError(f"not a Harmony reward-model checkpoint ({err})",
                             file=str(path)) from None
        cfg_d["hidden"] = tuple(cfg_d["hidden"])
        rm = cls(RewardConfig(**cfg_d), SpeedModel.from_params(meta["speed_model"]))
        rm.net.load_arrays(data, "net")
        return rm


def lif_relative_errors(sm: SpeedModel, raw, Y, mask) -> dict[str, float]:
    """Fig. 9a's comparison: LIF-Line / LIF-Quad as speed predictors (a job's factor = 1 - the
    largest predicted slowdown among its tasks), relative error on the same samples."""
    from mlopt.families.harmony.baselines import lif

    cpu_i, bw_i = 1, 3
    out = {}
    for kind in ("line", "quad"):
        theta = lif.fit(sm, kind)
        errs = []
        for (models, W, xw, xp), y, m in zip(raw, Y, mask):
            use = xw[:, :, None] * sm.worker_demand[models][:, None, :] \
                + xp[:, :, None] * sm.ps_demand[models][:, None, :]  # n x M x R
            other = use.sum(axis=0)[None] - use
            pred = lif.predict(theta, models[:, None], other[..., cpu_i] / sm.server[cpu_i],
                               other[..., bw_i] / sm.server[bw_i], kind)
            present = (xw + xp) > 0
            slow = np.where(present, pred, -np.inf).max(axis=1)
            f = np.clip(1.0 - slow, sm.min_factor, 1.0)
            errs.extend(np.abs(f - y[: len(models)]) / y[: len(models)])
        out[kind] = float(np.mean(errs))
    return out


def train_reward_model(out_path, params: dict, *, progress: bool = False) -> dict:
    """``mlopt train harmony --target reward_model``: sample, train, report the test error."""
    cfg = config_from_params(RewardConfig, params, REWARD_PARAMS)
    sm = SpeedModel.default()
    t0 = time.perf_counter()
    X, Y, mask, raw = sample_placements(sm, cfg, np.random.default_rng(cfg.seed))
    n_test = max(1, int(round(cfg.test_fraction * len(X))))
    rm = RewardModel(cfg, sm)
    losses = rm.fit(X[n_test:], Y[n_test:], mask[n_test:], progress=progress)
    test = rm.relative_error(X[:n_test], Y[:n_test], mask[:n_test])
    lif_err = lif_relative_errors(sm, raw[:n_test], Y[:n_test], mask[:n_test])
    summary = {"samples": len(X), "train_s": round(time.perf_counter() - t0, 1),
               "train_loss": round(losses[-1], 4), "test_relative_error": round(test, 4),
               "lif_line_test_error": round(lif_err["line"], 4),
               "lif_quad_test_error": round(lif_err["quad"], 4)}
    rm.save(out_path, {"summary": summary})
    return summary


train_reward_model.params = REWARD_PARAMS  # what mlopt train --help lists (-p KEY=VALUE)

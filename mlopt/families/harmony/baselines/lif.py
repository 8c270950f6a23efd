"""Least Interference First (seed 002 Sec. VI, after [31] and [11]): LIF-Line and LIF-Quad.

An explicit interference model: a task's slowdown is a function of the CPU and network bandwidth
the *other* jobs' tasks use on its server, linear (``[1, cpu, bw]``) or quadratic (plus
``cpu^2, bw^2, cpu*bw``), one least-squares fit per model type from profiling runs in the
simulator (:func:`profile`). A task goes to the feasible server with the least interference
score, the predicted slowdown summed over all tasks on that server after the placement.

The model is misspecified on purpose, as in the paper: the ground truth also flows through disk
and PCIe (Seq2Seq is PCIe-bound) and charges cross-server communication, which LIF cannot see.

DECISION (profiling). For each model type, ``n_profile`` random scenarios: one 1-worker/1-PS job
of that model on one server with 0-6 random other tasks (random models and roles, within the
server's capacity); the label is the ground-truth slowdown of the job; features are the others'
CPU and bandwidth as fractions of capacity. Seeded, so the fit is reproducible.
"""
from __future__ import annotations

from functools import lru_cache
import json
from typing import TYPE_CHECKING

import numpy as np

from mlopt.families.harmony.speed import SpeedModel, model_of
from mlopt.families.harmony.state import run_placement

if TYPE_CHECKING:  # pragma: no cover
    from mlopt.schedule import Schedule

CPU, BW = 1, 3  # indices of cpu and bandwidth_gbps in RESOURCES


def features(cpu: np.ndarray, bw: np.ndarray, kind: str) -> np.ndarray:
    """Return the LIF regression features: 1, cpu, bw (quad adds squares and cpu * bw)."""
    cols = [np.ones_like(cpu), cpu, bw]
    if kind == "quad":
        cols += [cpu ** 2, bw ** 2, cpu * bw]
    return np.stack(cols, axis=-1)


def profile(sm: SpeedModel, n_profile: int = 300, seed: int = 0) -> dict:
    """Per model type: (features cpu, bw fractions, true slowdown) of random co-locations."""
    rng = np.random.default_rng(seed)
    L = len(sm.models)
    alpha = sm.alpha
    out = {}
    for l in range(L):
        cpu, bw, y = [], [], []
        for _ in range(n_profile):
            used = sm.worker_demand[l] + sm.ps_demand[l]
            felt = 0.0
            other = np.zeros_like(used)
            for _ in range(int(rng.integers(0, 7))):
                lo, role = int(rng.integers(L)), int(rng.integers(2))
                d = sm.worker_demand[lo] if role == 0 else sm.ps_demand[lo]
                if (used + d <= sm.server + 1e-9).all():
                    used = used + d
                    other = other + d
                    felt += alpha[l, lo] * (1.0 if role == 0 else sm.ps_weight)
            cpu.append(other[CPU] / sm.server[CPU])
            bw.append(other[BW] / sm.server[BW])
            y.append(1.0 - float(sm.factor(felt)))
        out[sm.models[l]] = (np.array(cpu), np.array(bw), np.array(y))
    return out


@lru_cache(maxsize=8)
def _fit_cached(params_json: str, kind: str, n_profile: int, seed: int):
    sm = SpeedModel.from_params(json.loads(params_json))
    theta = []
    for name, (cpu, bw, y) in profile(sm, n_profile, seed).items():
        coef, *_ = np.linalg.lstsq(features(cpu, bw, kind), y, rcond=None)
        theta.append(coef)
    return np.array(theta)


def fit(sm: SpeedModel, kind: str, n_profile: int = 300, seed: int = 0) -> np.ndarray:
    """L x F least-squares coefficients, one row per model type."""
    # no sort_keys: the order of the models table is the model index
    return _fit_cached(json.dumps(sm.params), kind, n_profile, seed)


def predict(theta: np.ndarray, model_idx, cpu, bw, kind: str) -> np.ndarray:
    """Return the LIF model's predicted slowdown for each model index and (cpu, bw)."""
    return (features(np.asarray(cpu, float), np.asarray(bw, float), kind)
            * theta[np.asarray(model_idx)]).sum(axis=-1)


def _score(st, theta, kind, m: int) -> float:
    """Predicted slowdown summed over every task on server m (as placed right now)."""
    active = st.running() | ((st.x.sum(axis=(0, 2)) > 0) & (st.placed_at == 0))
    cnt = (st.x[:, :, m] * active[None, :])  # 2 x N tasks on m
    jobs = np.flatnonzero(cnt.sum(axis=0))
    if len(jobs) == 0:
        return 0.0
    use = cnt[0][jobs, None] * st.jobs.dw[jobs] + cnt[1][jobs, None] * st.jobs.dp[jobs]
    other = use.sum(axis=0)[None, :] - use  # resources used by the other jobs' tasks
    pred = predict(theta, st.jobs.model[jobs], other[:, CPU] / st.cap[m, CPU],
                   other[:, BW] / st.cap[m, BW], kind)
    return float((pred * cnt[:, jobs].sum(axis=0)).sum())


def _run(workload, kind: str, n_profile: int, seed: int):
    theta = fit(model_of(workload), kind, n_profile, seed)

    def choose(st, n, role, feasible):
        best, best_score = int(feasible[0]), np.inf
        for m in feasible:
            st.x[role, n, m] += 1  # tentatively, to score the server with the task on it
            s = _score(st, theta, kind, int(m))
            st.x[role, n, m] -= 1
            if s < best_score - 1e-12:
                best, best_score = int(m), s
        return best

    return run_placement(workload, choose, producer=f"lif_{kind}",
                         meta={"profile_samples": n_profile, "profile_seed": seed})


def run_lif_line(workload, *, seed: int = 0, n_profile: int = 300) -> Schedule:
    """Place the jobs with the LIF rule on a linear interference model."""
    return _run(workload, "line", int(n_profile), int(seed))


def run_lif_quad(workload, *, seed: int = 0, n_profile: int = 300) -> Schedule:
    """Place the jobs with the LIF rule on a quadratic interference model."""
    return _run(workload, "quad", int(n_profile), int(seed))

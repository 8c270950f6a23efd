"""Small fully connected networks in plain numpy, for the Harmony DRL and reward model.

DECISION (dependencies). The networks are tiny (< 200k parameters, a few hundred inputs), run on
CPU, and must be usable in CI that installs only ``.[dev]`` on a 2-core machine. A deep-learning
library would be the largest dependency of mlopt for two MLPs (the torch wheel pulls ~3 GB of
CUDA libraries; JAX is lighter but still a compiler stack). Forward and backward passes of ReLU
MLPs, batch normalization and Adam are a few dozen lines of numpy, exact (tested against finite
differences), deterministic with a seeded Generator, and fast enough at this size: training
and inference need nothing beyond numpy. Gymnasium (pure Python) is the only RL dependency, for
the environment API, in the ``rl`` extra (part of ``dev``).
"""
from __future__ import annotations

import contextlib

import numpy as np


class MLP:
    """ReLU MLP ``sizes[0] -> ... -> sizes[-1]`` with a linear output; optional batch norm on the
    hidden layers (training mode uses batch statistics and updates running averages)."""

    def __init__(self, sizes, rng: np.random.Generator, *, batch_norm: bool = False,
                 out_scale: float = 1.0, bn_momentum: float = 0.9):
        self.sizes = list(sizes)
        self.batch_norm = batch_norm
        self.momentum = bn_momentum
        self.params: dict[str, np.ndarray] = {}
        self.state: dict[str, np.ndarray] = {}  # batch-norm running statistics (not trained)
        n = len(sizes) - 1
        for i in range(n):
            fan_in = sizes[i]
            scale = np.sqrt(2.0 / fan_in) * (out_scale if i == n - 1 else 1.0)
            self.params[f"W{i}"] = rng.standard_normal((sizes[i], sizes[i + 1])) * scale
            self.params[f"b{i}"] = np.zeros(sizes[i + 1])
            if batch_norm and i < n - 1:
                self.params[f"g{i}"] = np.ones(sizes[i + 1])
                self.params[f"be{i}"] = np.zeros(sizes[i + 1])
                self.state[f"mu{i}"] = np.zeros(sizes[i + 1])
                self.state[f"var{i}"] = np.ones(sizes[i + 1])
        self._cache = None

    @property
    def n_layers(self) -> int:
        """Number of weight layers."""
        return len(self.sizes) - 1

    def forward(self, x: np.ndarray, *, train: bool = False) -> np.ndarray:
        """Return the network's output for x (train: batch statistics, cache for backward)."""
        cache = []
        h = x
        for i in range(self.n_layers):
            z = h @ self.params[f"W{i}"] + self.params[f"b{i}"]
            last = i == self.n_layers - 1
            entry = {"h_in": h}
            if not last:
                if self.batch_norm:
                    if train:
                        mu, var = z.mean(axis=0), z.var(axis=0)
                        m = self.momentum
                        self.state[f"mu{i}"] = m * self.state[f"mu{i}"] + (1 - m) * mu
                        self.state[f"var{i}"] = m * self.state[f"var{i}"] + (1 - m) * var
                    else:
                        mu, var = self.state[f"mu{i}"], self.state[f"var{i}"]
                    inv = 1.0 / np.sqrt(var + 1e-5)
                    zn = (z - mu) * inv
                    entry.update(zn=zn, inv=inv)
                    z = zn * self.params[f"g{i}"] + self.params[f"be{i}"]
                entry["pre"] = z
                h = np.maximum(z, 0.0)
            else:
                h = z
            cache.append(entry)
        self._cache = cache
        return h

    def predict(self, x: np.ndarray) -> np.ndarray:
        """``forward(x)`` for inference: the same operations in the same order (so the same
        bits), without keeping what :meth:`backward` needs and with fewer temporaries."""
        h = x
        for i in range(self.n_layers):
            z = h @ self.params[f"W{i}"]
            z += self.params[f"b{i}"]
            if i < self.n_layers - 1:
                if self.batch_norm:
                    inv = 1.0 / np.sqrt(self.state[f"var{i}"] + 1e-5)
                    z = (z - self.state[f"mu{i}"]) * inv * self.params[f"g{i}"] \
                        + self.params[f"be{i}"]
                np.maximum(z, 0.0, out=z)
            h = z
        return h

    def backward(self, grad_out: np.ndarray) -> dict[str, np.ndarray]:
        """Gradients of sum(grad_out * output) w.r.t. every parameter (after a forward pass;
        batch norm backward assumes that forward ran in training mode)."""
        grads = {}
        g = grad_out
        for i in reversed(range(self.n_layers)):
            entry = self._cache[i]
            if i < self.n_layers - 1:
                g = g * (entry["pre"] > 0)
                if self.batch_norm:
                    grads[f"g{i}"] = (g * entry["zn"]).sum(axis=0)
                    grads[f"be{i}"] = g.sum(axis=0)
                    gzn = g * self.params[f"g{i}"]
                    zn, inv, B = entry["zn"], entry["inv"], g.shape[0]
                    g = inv / B * (B * gzn - gzn.sum(axis=0) - zn * (gzn * zn).sum(axis=0))
            grads[f"W{i}"] = entry["h_in"].T @ g
            grads[f"b{i}"] = g.sum(axis=0)
            g = g @ self.params[f"W{i}"].T
        return grads

    def n_params(self) -> int:
        """Return the number of trainable parameters."""
        return int(sum(p.size for p in self.params.values()))

    def to_arrays(self, prefix: str) -> dict[str, np.ndarray]:
        """Return the parameters and state arrays under prefixed names."""
        out = {f"{prefix}.{k}": v for k, v in self.params.items()}
        out.update({f"{prefix}.state.{k}": v for k, v in self.state.items()})
        return out

    def load_arrays(self, arrays, prefix: str) -> None:
        """Load the parameters and state arrays saved under the prefix."""
        for k in self.params:
            self.params[k] = np.array(arrays[f"{prefix}.{k}"], float)
        for k in self.state:
            self.state[k] = np.array(arrays[f"{prefix}.state.{k}"], float)


class Adam:
    """Adam (Kingma & Ba) over an MLP's parameter dict; ``clip``: global-norm gradient clipping
    (not in the Harmony paper; its trainer switches it with ``TrainConfig.grad_clip``)."""

    def __init__(self, params: dict[str, np.ndarray], lr: float, b1: float = 0.9,
                 b2: float = 0.999, eps: float = 1e-8, clip: float | None = 5.0):
        self.lr, self.b1, self.b2, self.eps, self.clip = lr, b1, b2, eps, clip
        self.m = {k: np.zeros_like(v) for k, v in params.items()}
        self.v = {k: np.zeros_like(v) for k, v in params.items()}
        self.t = 0

    def step(self, params: dict[str, np.ndarray], grads: dict[str, np.ndarray]) -> None:
        """Apply one Adam update (with global-norm clipping) to the params in place."""
        if self.clip is not None:  # global-norm clipping keeps early updates sane
            norm = np.sqrt(sum(float((g * g).sum()) for g in grads.values()))
            if norm > self.clip:
                grads = {k: g * (self.clip / norm) for k, g in grads.items()}
        self.t += 1
        c1, c2 = 1 - self.b1 ** self.t, 1 - self.b2 ** self.t
        for k, g in grads.items():
            self.m[k] = self.b1 * self.m[k] + (1 - self.b1) * g
            self.v[k] = self.b2 * self.v[k] + (1 - self.b2) * g * g
            params[k] -= self.lr * (self.m[k] / c1) / (np.sqrt(self.v[k] / c2) + self.eps)


def masked_softmax(logits: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Return the softmax of the logits over the masked entries (0 elsewhere)."""
    z = np.where(mask, logits, -np.inf)
    z = z - z.max(axis=-1, keepdims=True)
    e = np.where(mask, np.exp(z), 0.0)
    return e / e.sum(axis=-1, keepdims=True)


def one_thread() -> contextlib.AbstractContextManager:
    """Single-threaded BLAS for these small matrices: on a shared 2-core machine a threaded
    32 x 552 by 552 x 196 product measured 7 ms, single-threaded 0.5 ms (threadpoolctl)."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # pragma: no cover - a core dependency
        return contextlib.nullcontext()
    return threadpool_limits(1)

"""The ground-truth speed model of the Harmony family (parameters: ``speed_model.toml``).

The paper (seed 002) learns from measured speeds; mlopt has no cluster, so this module *is* the
measurement. The model, with the reasoning behind every number, is documented at the top of
``speed_model.toml``: pairwise slowdown ``alpha`` from per-model channel pressures and
sensitivities, the slowest task of a synchronous job sets its pace, a communication penalty when
a job spans servers, and sub-linear scaling in the number of workers.

A workload carries the parameters it was generated with in ``Workload.extra["speed_model"]``, so
an instance file is self-contained and its content hash covers the ground truth.
"""
from __future__ import annotations

import copy
import sys
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from mlopt import limits
from mlopt.errors import InputError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

DATA_FILE = Path(__file__).with_name("speed_model.toml")
RESOURCES = ("gpu", "cpu", "memory_gb", "bandwidth_gbps")


@lru_cache(maxsize=1)
def _default_params() -> dict:
    return tomllib.loads(DATA_FILE.read_text())


def default_params() -> dict[str, Any]:
    """A fresh copy of the packaged parameters (callers may change it)."""
    return copy.deepcopy(_default_params())


@dataclass(frozen=True)
class SpeedModel:
    models: tuple[str, ...]  # model type names, index l
    channels: tuple[str, ...]
    channel_weight: np.ndarray  # C
    pressure: np.ndarray  # L x C
    sensitivity: np.ndarray  # L
    comm_penalty: np.ndarray  # L (kappa_l)
    base_speed: np.ndarray  # L, epochs per interval with one worker, standalone
    worker_demand: np.ndarray  # L x 4 over RESOURCES
    ps_demand: np.ndarray  # L x 4
    server: np.ndarray  # 4, capacity of one server
    ps_weight: float
    worker_scaling: float
    knee: float
    tail_slope: float
    min_factor: float
    params: dict  # the raw parameters (what goes into Workload.extra)

    @classmethod
    def from_params(cls, p: Any, where: str = "extra.speed_model") -> "SpeedModel":
        """Parse and validate speed-model parameters, raising InputError at the bad field."""
        def need(obj, key, at):
            if not isinstance(obj, dict) or key not in obj:
                raise InputError("missing", field=f"{at}.{key}")
            return obj[key]

        def num(x, at, lo=0.0, hi=None):
            # abs() bound, not np.isfinite: an int beyond 64 bits makes numpy raise TypeError
            if isinstance(x, bool) or not isinstance(x, (int, float)) \
                    or not abs(x) <= limits.MAX_VALUE:
                raise InputError("must be a finite number", field=at, value=x)
            if x < lo or (hi is not None and x > hi):
                raise InputError(f"must be in [{lo:g}, {hi if hi is not None else 'inf'}]",
                                 field=at, value=x)
            return float(x)

        channels = need(p, "channels", where)
        if not isinstance(channels, list) or not channels:
            raise InputError("must be a non-empty list", field=f"{where}.channels", value=channels)
        cw = need(p, "channel_weight", where)
        if not isinstance(cw, list) or len(cw) != len(channels):
            raise InputError(f"must list {len(channels)} weights",
                             field=f"{where}.channel_weight", value=cw)
        cw = [num(x, f"{where}.channel_weight") for x in cw]
        models = need(p, "models", where)
        if not isinstance(models, dict) or not models:
            raise InputError("must be a non-empty table", field=f"{where}.models", value=models)
        names = tuple(models)
        pres, sens, kap, base, wd, pd_ = [], [], [], [], [], []
        for name in names:
            m = models[name]
            at = f"{where}.models.{name}"
            pr = need(m, "pressure", at)
            if not isinstance(pr, list) or len(pr) != len(channels):
                raise InputError(f"must list {len(channels)} values", field=f"{at}.pressure",
                                 value=pr)
            pres.append([num(x, f"{at}.pressure", 0.0, 1.0) for x in pr])
            sens.append(num(need(m, "sensitivity", at), f"{at}.sensitivity"))
            kap.append(num(need(m, "comm_penalty", at), f"{at}.comm_penalty", 0.0, 1.0))
            b = num(need(m, "base_speed", at), f"{at}.base_speed")
            if b <= 0:
                raise InputError("must be > 0", field=f"{at}.base_speed", value=b)
            base.append(b)
            for role, out in (("worker", wd), ("ps", pd_)):
                d = need(m, role, at)
                out.append([num(need(d, r, f"{at}.{role}"), f"{at}.{role}.{r}")
                            for r in RESOURCES])
        srv = need(p, "server", where)
        server = np.array([num(need(srv, r, f"{where}.server"), f"{where}.server.{r}")
                           for r in RESOURCES])
        for r, x in zip(RESOURCES, server):  # demands are normalized by it (DRL state, LIF)
            if not x > 0:
                raise InputError("must be > 0", field=f"{where}.server.{r}", value=float(x))
        return cls(
            models=names, channels=tuple(channels), channel_weight=np.array(cw),
            pressure=np.array(pres), sensitivity=np.array(sens), comm_penalty=np.array(kap),
            base_speed=np.array(base), worker_demand=np.array(wd), ps_demand=np.array(pd_),
            server=server,
            ps_weight=num(need(p, "ps_weight", where), f"{where}.ps_weight", 0.0, 1.0),
            worker_scaling=num(need(p, "worker_scaling", where), f"{where}.worker_scaling",
                               0.0, 1.0),
            knee=num(need(p, "knee", where), f"{where}.knee", 0.0, 0.99),
            tail_slope=num(need(p, "tail_slope", where), f"{where}.tail_slope", 0.0, 1.0),
            min_factor=num(need(p, "min_factor", where), f"{where}.min_factor", 0.01, 1.0),
            params=copy.deepcopy(p))

    def __post_init__(self):
        if self.min_factor > 1.0 - self.knee:
            raise InputError("must be <= 1 - knee (the floor lies below the knee)",
                             field="extra.speed_model.min_factor", value=self.min_factor)

    @classmethod
    def default(cls) -> "SpeedModel":
        """Return the speed model of the default parameters."""
        return cls.from_params(default_params())

    @property
    def alpha(self) -> np.ndarray:
        """L x L: slowdown one co-located worker of model l' (column) inflicts on model l (row)."""
        return self.sensitivity[:, None] * ((self.pressure * self.channel_weight) @ self.pressure.T)

    def index(self, model: str) -> int:
        """Return the index of a model type; InputError if unknown."""
        try:
            return self.models.index(model)
        except ValueError:
            raise InputError(f"unknown model type (known: {', '.join(self.models)})",
                             field="model", value=model) from None

    def standalone(self, model_idx, workers) -> np.ndarray:
        """Epochs per interval of a job alone on dedicated servers, all its tasks on one server."""
        return self.base_speed[np.asarray(model_idx)] * np.asarray(workers, float) ** self.worker_scaling

    def slowdowns(self, model_idx: np.ndarray, xw: np.ndarray, xp: np.ndarray) -> np.ndarray:
        """Slowdown D of each job (uncapped) given its tasks per server.

        ``xw``/``xp``: jobs x servers counts of workers/PSs of the *running* jobs (zero rows for
        jobs not running). Vectorized: S[n, m] = sum_n' alpha[l_n, l_n'] T[n', m] minus the job's
        own term, T = xw + ps_weight * xp, summed per model type first (sum_l' alpha[l_n, l']
        T_l'[m] with T_l' the tasks of type l' on m): memory jobs x (types + servers), not the
        jobs x jobs matrix of pairwise slowdowns (3.2 GB for 20,000 jobs).
        """
        model_idx = np.asarray(model_idx, int)
        tasks = xw + self.ps_weight * xp
        alpha = self.alpha
        per_type = np.zeros((len(self.models), tasks.shape[1]))
        np.add.at(per_type, model_idx, tasks)
        felt = alpha[model_idx] @ per_type - alpha[model_idx, model_idx][:, None] * tasks
        present = (xw + xp) > 0
        worst = np.where(present, felt, 0.0).max(axis=1, initial=0.0)
        spans = present.sum(axis=1) > 1
        return worst + self.comm_penalty[model_idx] * spans

    def factor(self, d) -> np.ndarray:
        """Speed factor of slowdown D: max of three affine pieces (see speed_model.toml)."""
        d = np.asarray(d, float)
        return np.maximum.reduce([1.0 - d, (1.0 - self.knee) - self.tail_slope * (d - self.knee),
                                  np.full_like(d, self.min_factor)])

    def speeds(self, model_idx: np.ndarray, workers: np.ndarray, xw: np.ndarray,
               xp: np.ndarray) -> np.ndarray:
        """Epochs per interval of every job (0 for jobs with no task placed)."""
        f = self.factor(self.slowdowns(model_idx, xw, xp))
        placed = (xw + xp).sum(axis=1) > 0
        return np.where(placed, self.standalone(model_idx, workers) * f, 0.0)


def model_of(workload) -> SpeedModel:
    """The speed model an instance carries (cached on the workload object)."""
    cache = workload.__dict__.get("_harmony_speed_model")
    if cache is None:
        raw = workload.extra.get("speed_model")
        if raw is None:
            raise InputError("missing: a Harmony workload carries its speed model",
                             field="extra.speed_model")
        cache = SpeedModel.from_params(raw)
        object.__setattr__(workload, "_harmony_speed_model", cache)
    return cache

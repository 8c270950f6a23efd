"""Training parameters (``mlopt train harmony -p KEY=VALUE``) -> a trainer's config dataclass,
one place for the DRL policy (:class:`.agent.TrainConfig`) and the reward model
(:class:`.reward_model.RewardConfig`).

Every parameter is declared (:data:`POLICY_PARAMS`, :data:`REWARD_PARAMS`) and checked by the
shared checker before anything trains: kinds, NaN, ranges and sizes (DECISION, caps far above
the paper's settings: layers of at most 4096 units, 8 layers; at most 100,000 episodes; a
replay buffer of at most 65,536 samples and a policy state of at most 64 servers, whose
samples are a few KB each, so the buffer stays below 1 GB). ``episodes=1e308`` crashed,
``lr=NaN`` trained NaN weights, ``hidden=[0]`` and ``batch=0`` crashed, ``episodes=-1`` wrote an
untrained checkpoint.
"""
from __future__ import annotations

from dataclasses import fields

from mlopt.errors import InputError
from mlopt.params import Param, check_values

_LAYERS = Param.list(Param.int(None, low=1, high=4096), None, min_items=1, max_items=8,
                     doc="layer widths")

#: ``mlopt train harmony --target policy`` (:class:`.agent.TrainConfig`)
POLICY_PARAMS: dict[str, Param] = {
    "preset": Param.str("mini", doc="the generator preset of the training episodes"),
    "preset_params": Param.json({}, nullable=False, doc="its parameters (checked as -p)"),
    "episodes": Param.int(600, low=1, high=100_000),
    "seed": Param.int(0, low=0, high=2 ** 63 - 1),
    "hidden": _LAYERS.with_default((128, 64)),
    "value_hidden": _LAYERS.with_default((128, 64)),
    "lr": Param.float(3e-3, low=0.0, low_open=True, high=10.0),
    "value_lr": Param.float(1e-3, low=0.0, low_open=True, high=10.0),
    "gamma": Param.float(0.9, low=0.0, high=1.0),
    "eps_start": Param.float(0.5, low=0.0, high=1.0),
    "beta_start": Param.float(0.5, low=0.0, high=100.0),
    "beta_end": Param.float(0.01, low=0.0, high=100.0),
    "anneal_fraction": Param.float(0.8, low=0.0, high=1.0),
    "replay_size": Param.int(8192, low=1, high=65_536),
    "batch": Param.int(32, low=1, high=65_536),
    "updates_per_interval": Param.int(1, low=1, high=1_000),
    "max_servers": Param.int(12, low=1, high=64),
    "value_net": Param.bool(True),
    "exploration": Param.bool(True),
    "replay": Param.bool(True),
    "reward": Param.choice("true", ("true", "model")),
    "reward_model": Param.path(None, doc="a reward-model checkpoint (reward = model)"),
    "workers": Param.int(1, low=1, high=64),
    "init": Param.path(None, doc="continue from this policy checkpoint"),
    # the paper's training choices as options (defaults: mlopt's; agent.py's docstring)
    "critic": Param.choice("mc", ("mc", "td"),
                           doc="value target: Monte-Carlo return or the paper's TD(0)"),
    "standardize": Param.bool(True, doc="standardize advantages per mini-batch"),
    "grad_clip": Param.bool(True, doc="clip gradients to global norm 5"),
}

#: ``mlopt train harmony --target reward_model`` (:class:`.reward_model.RewardConfig`)
REWARD_PARAMS: dict[str, Param] = {
    "samples": Param.int(13177, low=2, high=1_000_000),
    "test_fraction": Param.float(0.1, low=0.0, low_open=True, high=0.5),
    "max_jobs": Param.int(12, low=1, high=100),
    "n_servers": Param.int(6, low=1, high=64),
    "hidden": _LAYERS.with_default((128, 128, 128)),
    "lr": Param.float(0.005, low=0.0, low_open=True, high=10.0),
    "batch": Param.int(32, low=1, high=65_536),
    "epochs": Param.int(8, low=1, high=10_000),
    "seed": Param.int(0, low=0, high=2 ** 63 - 1),
}


def config_from_params(cls, params: dict, schema: dict[str, Param] | None = None):
    """``cls(**params)`` after rejecting names ``cls`` does not have (InputError naming the
    first, listing the known ones), checking every value against ``schema`` (the declared
    parameters) and turning lists (TOML / CLI) into tuples for the fields whose default is a
    tuple (layer widths)."""
    known = set(cls.__dataclass_fields__)
    unknown = set(params) - known
    if unknown:
        name = sorted(unknown)[0]
        raise InputError(f"unknown training parameter (known: {', '.join(sorted(known))})",
                         field=name, value=params[name])
    params = dict(params)
    for key in (f.name for f in fields(cls) if isinstance(f.default, tuple)):
        if key in params:
            if not isinstance(params[key], (list, tuple)):
                raise InputError("must be a list of layer widths", field=key, value=params[key])
            params[key] = tuple(params[key])
    if schema is not None:
        check_values(schema, params, where="the harmony trainer")
    return cls(**params)

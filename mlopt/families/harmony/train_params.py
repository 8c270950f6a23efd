"""Training parameters (``mlopt train harmony -p KEY=VALUE``) -> a trainer's config dataclass,
one place for the DRL policy (:class:`.agent.TrainConfig`) and the reward model
(:class:`.reward_model.RewardConfig`)."""
from __future__ import annotations

from dataclasses import fields

from mlopt.errors import InputError


def config_from_params(cls, params: dict):
    """``cls(**params)`` after rejecting names ``cls`` does not have (InputError naming the
    first, listing the known ones) and turning lists (TOML / CLI) into tuples for the fields
    whose default is a tuple (layer widths)."""
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
    return cls(**params)

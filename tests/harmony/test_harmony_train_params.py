"""Training parameters of both Harmony trainers go through one check
(mlopt/families/harmony/train_params.py): unknown names and non-list layer widths are
InputErrors naming the field, before any training."""
from __future__ import annotations

import pytest

from mlopt.cli import main
from mlopt.errors import InputError
from mlopt.families.harmony.agent import TrainConfig
from mlopt.families.harmony.training import train_policy
from mlopt.families.harmony.reward_model import RewardConfig, train_reward_model
from mlopt.families.harmony.train_params import config_from_params


@pytest.mark.parametrize("trainer", [train_policy, train_reward_model])
@pytest.mark.parametrize("params, field, words", [
    ({"nope": 1}, "nope", "unknown training parameter (known: "),
    ({"zz": 1, "aa": 2}, "aa", "unknown training parameter"),  # the first by name
    ({"hidden": 64}, "hidden", "must be a list of layer widths"),
])
def test_bad_parameters(tmp_path, trainer, params, field, words):
    out = tmp_path / "x.npz"
    with pytest.raises(InputError) as err:
        trainer(out, params)
    assert err.value.field == field and words in err.value.message
    assert not out.exists()


def test_known_names_are_listed_and_lists_become_tuples():
    with pytest.raises(InputError) as err:
        config_from_params(RewardConfig, {"lr2": 0.1})
    assert "samples" in err.value.message and "episodes" not in err.value.message
    cfg = config_from_params(TrainConfig, {"hidden": [8, 4], "value_hidden": [3], "seed": 2})
    assert cfg.hidden == (8, 4) and cfg.value_hidden == (3,) and cfg.seed == 2


def test_cli_one_line_exit_2(tmp_path, capsys):
    assert main(["train", "harmony", "--target", "reward_model", "-p", "nope=1",
                 "-o", str(tmp_path / "x.npz")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "'nope'" in err


@pytest.mark.parametrize("params, field", [
    ({"episodes": 1e308}, "episodes"),  # crashed (exit 3)
    ({"episodes": -1}, "episodes"),  # wrote an untrained checkpoint
    ({"lr": float("nan")}, "lr"),  # trained NaN weights
    ({"hidden": [0]}, "hidden[0]"),  # ZeroDivisionError
    ({"batch": 0}, "batch"),
    ({"workers": 2.0}, "workers"),
    ({"replay_size": 10**9}, "replay_size"),
    ({"max_servers": 10**6}, "max_servers"),
    ({"reward": "fake"}, "reward"),
    ({"reward": "model"}, "reward_model"),
    ({"init": "/nonexistent/pol.npz"}, "init"),
    ({"preset": "nope"}, "preset"),
    ({"preset_params": {"n_servers": 2**62}}, "n_servers"),
    ({"preset_params": {"poisson_rate": 3}}, "poisson_rate"),  # mini ignores it
    ({"preset_params": 5}, "preset_params"),
])
def test_policy_training_parameters_are_checked_before_training(tmp_path, params, field):
    out = tmp_path / "x.npz"
    with pytest.raises(InputError) as err:
        train_policy(out, params)
    assert err.value.field == field
    assert not out.exists()


@pytest.mark.parametrize("params, field", [
    ({"samples": 1e308}, "samples"), ({"test_fraction": float("nan")}, "test_fraction"),
    ({"hidden": [0]}, "hidden[0]"), ({"epochs": 0}, "epochs"), ({"n_servers": 10**6}, "n_servers"),
])
def test_reward_model_parameters_are_checked_before_training(tmp_path, params, field):
    out = tmp_path / "x.npz"
    with pytest.raises(InputError) as err:
        train_reward_model(out, params)
    assert err.value.field == field
    assert not out.exists()


def test_declared_training_parameters_are_the_config_fields_and_defaults():
    from dataclasses import fields

    from mlopt.families.harmony.train_params import POLICY_PARAMS, REWARD_PARAMS

    for cls, schema in ((TrainConfig, POLICY_PARAMS), (RewardConfig, REWARD_PARAMS)):
        defaults = {f.name: (f.default_factory() if f.default_factory is not f.default
                             and callable(f.default_factory) else f.default) for f in fields(cls)}
        assert set(schema) == set(defaults), cls
        for name, param in schema.items():
            assert param.default == defaults[name], (cls, name)

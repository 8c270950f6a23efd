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

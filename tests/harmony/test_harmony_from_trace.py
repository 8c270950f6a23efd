"""Harmony workloads from real traces (``mlopt instances from-trace ... --family harmony``,
mlopt/families/harmony/from_trace.py) on the small fixtures under tests/data; the one test that
compares with the ``trace`` preset needs ../shared and skips without it."""
from __future__ import annotations

import json
import math

import numpy as np
import pytest
from conftest import DATA, needs_shared

from mlopt import pipeline
from mlopt.cli import main
from mlopt.errors import InputError
from mlopt.families import get_family
from mlopt.families.harmony.from_trace import harmony_from_trace, rank_durations
from mlopt.families.harmony.speed import SpeedModel
from mlopt.traces import load_trace

FAM = get_family("harmony")


@pytest.fixture(scope="module")
def philly():
    return load_trace("philly", DATA / "philly_sample.csv")[0]


def test_rank_durations_by_hand():
    # ranks of [5, 1, 3, 3]: 1 -> 0, the two 3s share (1 + 2) / 2 = 1.5, 5 -> 3; onto [1, 2]:
    # 1 + r / 3 -> [2.0, 1.0, 1.5, 1.5]
    assert rank_durations(np.array([5.0, 1, 3, 3]), 1.0, 2.0).tolist() == [2.0, 1.0, 1.5, 1.5]
    assert rank_durations(np.array([7.0]), 1.0, 3.0).tolist() == [2.0]


def test_jobs_follow_the_trace(philly):
    w = harmony_from_trace(philly, seed=3, n_jobs=40, window=10)
    FAM.validate(w)
    rows = philly.iloc[:40]
    arr = [j.arrival for j in w.jobs]
    assert len(w.jobs) == 40 and arr == sorted(arr) and arr[0] == 1 and arr[-1] == 10
    sm = SpeedModel.default()
    longest = int(np.argmax(rows["duration_s"].to_numpy()))
    for j, gpus in zip(w.jobs, rows["gpus"]):
        assert j.extra["workers"] == min(max(int(gpus), 1), 3)
        assert 1 <= j.extra["ps"] <= 3
    j = w.jobs[longest]  # the longest trace job gets the top of the duration range (3 intervals)
    speed = float(sm.standalone(sm.index(j.extra["model"]), j.extra["workers"]))
    assert j.epochs == math.ceil(speed * 3.0 - 1e-9)
    assert w.meta["trace_job_ids"] == [str(x) for x in rows["job_id"]]
    assert w.horizon > 10  # window + drain
    # same seed and parameters: the same workload; another seed: other draws
    assert harmony_from_trace(philly, seed=3, n_jobs=40, window=10).content_hash() \
        == w.content_hash()
    assert harmony_from_trace(philly, seed=4, n_jobs=40, window=10).content_hash() \
        != w.content_hash()


def test_runs_and_checks(philly):
    w = harmony_from_trace(philly, seed=0, n_jobs=12, window=4, n_servers=4)
    for alg in ("lb", "tetris"):
        r = pipeline.run_algorithm(w, alg, family="harmony")
        assert r.check.feasible, r.check.summary()


def test_model_column_is_used_when_known():
    table = load_trace("itp-annotated", DATA / "itp_sample.csv")[0]
    w = harmony_from_trace(table, seed=0, n_jobs=30, window=5)
    sm = SpeedModel.default()
    for j, name in zip(w.jobs, table["model"].iloc[:30]):
        if name.lower() in sm.models:  # vgg16 is one of the speed model's types
            assert j.extra["model"] == name.lower()
    assert "vgg16" in set(table["model"].iloc[:30])


@pytest.mark.parametrize("params, field", [
    ({"n_jobs": 151}, "n_jobs"), ({"foo": 1}, "foo"), ({"arrivals": "uniform"}, "arrivals"),
    ({"window": 0}, "window"), ({"workers": [3, 1]}, "workers"),
    ({"models": ["bert"]}, "models[0]"),
    ({"gpus_per_worker": 0}, "gpus_per_worker"),
    # drain=0 (or any drain below the auto one) left no feasible schedule: refused
    ({"drain": 0}, "drain"), ({"drain": 2}, "drain"), ({"drain": 2.0}, "drain"),
    ({"max_new_jobs": 12}, "max_new_jobs"), ({"n_servers": 2**62}, "n_servers"),
    ({"n_jobs": 20_000, "n_servers": 1_000}, "n_servers"),
])
def test_bad_parameters_name_the_field(philly, params, field):
    with pytest.raises(InputError) as err:
        harmony_from_trace(philly, **params)
    assert err.value.field == field


def test_cli(tmp_path, capsys):
    out = tmp_path / "w.json"
    assert main(["instances", "from-trace", "philly", str(DATA / "philly_sample.csv"),
                 "--family", "harmony", "-p", "n_jobs=20", "-p", "window=5", "--seed", "1",
                 "-o", str(out)]) == 0
    data = json.loads(out.read_text())
    assert data["meta"]["family"] == "harmony" and len(data["jobs"]) == 20
    assert main(["run", "lb", str(out)]) == 0
    capsys.readouterr()
    # bad input: one line naming the file and the field, exit 2
    assert main(["instances", "from-trace", "philly", str(DATA / "philly_sample.csv"),
                 "--family", "harmony", "-p", "n_jobs=999", "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert "philly_sample.csv" in err and "n_jobs" in err
    assert main(["instances", "from-trace", "philly", str(DATA / "philly_sample.csv"),
                 "--family", "edgecloud", "-o", str(out)]) == 2
    assert "no trace conversion" in capsys.readouterr().err


@needs_shared
@pytest.mark.shared
def test_shared_philly_defaults_reproduce_the_trace_presets_arrivals():
    table = load_trace("philly")[0]
    w = harmony_from_trace(table, seed=0)
    preset = FAM.preset("trace")(seed=0)
    assert [j.arrival for j in w.jobs] == [j.arrival for j in preset.jobs]

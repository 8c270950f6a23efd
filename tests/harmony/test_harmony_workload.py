"""Harmony workload: generator presets and arrival patterns, trace mapping, validation."""
from __future__ import annotations

import json

import numpy as np
import pytest

from mlopt.errors import InputError
from mlopt.families import get_family
from mlopt.families.harmony.generator import generate, make_workload, trace_map
from mlopt.workload import Workload

FAM = get_family("harmony")


def test_family_registered():
    d = FAM.describe()
    assert d["sense"] == "min"
    assert {"tiny", "small", "uniform", "poisson", "trace"} <= set(d["presets"])
    assert {"lb", "tetris", "lif_line", "lif_quad"} <= set(d["algorithms"])


@pytest.mark.parametrize("preset", ["tiny", "small", "uniform", "poisson"])
def test_presets_are_seeded_and_valid(preset):
    a, b, c = (FAM.preset(preset)(seed=s) for s in (3, 3, 4))
    assert a.to_dict() == b.to_dict() and a.content_hash() != c.content_hash()
    FAM.validate(a)
    for j in a.jobs:
        assert 1 <= j.extra["workers"] <= 3 and 1 <= j.extra["ps"] <= 3
        assert j.extra["model"] in a.extra["speed_model"]["models"]
        assert 1 <= j.arrival <= a.horizon
    # round trip through JSON keeps everything (the speed model travels with the instance)
    back = Workload.from_dict(json.loads(json.dumps(a.to_dict())))
    assert back.content_hash() == a.content_hash()


def test_arrival_patterns_have_the_papers_rates():
    u = [len(generate("uniform", s).jobs) / 20 for s in range(30)]
    p = [len(generate("poisson", s).jobs) / 20 for s in range(30)]
    assert abs(np.mean(u) - 3.0) < 0.2  # "3 jobs per interval on average"
    assert abs(np.mean(p) - 2.0) < 0.2  # "Poisson ... arrival rate of 2"
    counts = np.bincount([j.arrival for j in generate("uniform", 0).jobs], minlength=21)[1:]
    assert counts.min() >= 1 and counts.max() <= 5  # U{1..5} per interval


def test_trace_map_keeps_burstiness_and_rate():
    t = np.array([0, 1, 2, 3, 100, 101, 1000, 1001, 1002, 1003.0])
    a = trace_map(t, 10, 5)
    assert a.tolist() == [1, 1, 1, 1, 1, 1, 5, 5, 5, 5]
    assert trace_map(t[::-1], 4, 2, offset=6).tolist() == [1, 1, 2, 2]
    with pytest.raises(InputError):
        trace_map(t, 20, 5)


@pytest.mark.shared
def test_trace_preset_from_philly():
    from mlopt.traces.paths import shared_traces_dir

    if shared_traces_dir() is None:
        pytest.skip("../shared/traces is absent")
    w = FAM.preset("trace")(seed=0, n_jobs=30)
    assert len(w.jobs) == 30 and max(j.arrival for j in w.jobs) <= 20
    FAM.validate(w)


def test_bad_generator_parameters():
    with pytest.raises(InputError, match="arrivals"):
        generate("uniform", 0, arrivals="weekly")
    with pytest.raises(InputError, match="workers"):
        generate("uniform", 0, workers=(3, 1))
    with pytest.raises(InputError, match="nope"):
        generate("uniform", 0, nope=1)
    with pytest.raises(InputError, match="preset"):
        FAM.preset("huge")


def _tiny_dict():
    return make_workload([{"model": "ctc", "workers": 1, "ps": 1, "epochs": 3, "arrival": 1}],
                         n_servers=1, horizon=3).to_dict()


@pytest.mark.parametrize("mutate,field", [
    (lambda d: d["jobs"][0]["extra"].pop("model"), "jobs[0].extra.model"),
    (lambda d: d["jobs"][0]["extra"].update(model="alexnet"), "jobs[0].extra.model"),
    (lambda d: d["jobs"][0]["extra"].update(workers=0), "jobs[0].extra.workers"),
    (lambda d: d["jobs"][0]["extra"].update(ps=1.5), "jobs[0].extra.ps"),
    (lambda d: d["extra"].pop("speed_model"), "extra.speed_model"),
    (lambda d: d["extra"]["speed_model"].update(ps_weight=float("nan")),
     "extra.speed_model.ps_weight"),
    (lambda d: d["extra"].update(max_new_jobs=20), "extra.max_new_jobs"),
])
def test_validate_names_field(mutate, field):
    d = _tiny_dict()
    mutate(d)
    w = Workload.from_dict(d)
    with pytest.raises(InputError) as err:
        FAM.validate(w)
    assert err.value.field == field

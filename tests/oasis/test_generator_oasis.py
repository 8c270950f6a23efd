"""OASiS instance generator (mlopt/families/oasis/generator.py; seed 000 Sec. V-A)."""
from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from mlopt.families import get_family
from mlopt.clusters import C4, GPU_TYPES
from mlopt.errors import InputError
from mlopt.families.oasis import generator as oasis
from mlopt.utility import Sigmoid
from mlopt.workload import Workload, validate


def as_json(w: Workload) -> str:
    return json.dumps(w.to_dict(), sort_keys=True)


@pytest.mark.parametrize("preset", sorted(oasis.PRESETS))
def test_same_seed_same_workload_bit_for_bit(preset):
    a, b = oasis.generate(preset, seed=11), oasis.generate(preset, seed=11)
    assert as_json(a) == as_json(b)
    assert as_json(a) != as_json(oasis.generate(preset, seed=12))


def test_generated_workload_round_trips_through_json(tmp_path):
    w = oasis.generate("paper-fig5", seed=3)
    path = tmp_path / "w.json"
    w.save(path)
    assert as_json(Workload.load(path)) == as_json(w)
    assert as_json(validate(w)) == as_json(w)


def test_meta_records_generator_preset_seed_and_params():
    w = oasis.generate("paper-fig5", seed=5, priority=(1, 10))
    m = w.meta
    assert (m["generator"], m["preset"], m["seed"]) == ("oasis", "paper-fig5", 5)
    assert m["params"]["priority"] == [1.0, 10.0] and m["overrides"] == ["priority"]
    assert m["params"]["epochs"] == [10, 30] and m["params"]["n_worker_servers"] == 2
    # The recorded (resolved) parameters regenerate the same instance from any preset.
    params = {k: (tuple(v) if isinstance(v, list) else v) for k, v in m["params"].items()}
    again = oasis.generate("paper-default", seed=5, **params)
    assert again.servers == w.servers and again.jobs == w.jobs


def test_ranges_respected_paper_default():
    w = oasis.generate("paper-default", seed=1, n_jobs=600)
    assert w.horizon == 300 and w.slot_seconds == 3600
    assert len(w.jobs) == 600
    for j in w.jobs:
        wd, sd = j.worker_demand, j.ps_demand
        assert wd["gpu"] in range(0, 5) and wd["cpu"] in range(1, 11)
        assert wd["memory_gb"] in range(2, 33) and wd["storage_gb"] in range(5, 11)
        assert 0.1 <= wd["bandwidth_gbps"] <= 5
        assert sd["gpu"] == 0 and sd["cpu"] in range(1, 11)
        assert sd["memory_gb"] in range(2, 33) and sd["storage_gb"] in range(5, 11)
        assert 5 <= sd["bandwidth_gbps"] <= 20
        assert 50 <= j.epochs <= 200 and 5 <= j.chunks <= 100 and 10 <= j.minibatches <= 100
        assert 0.001 <= j.minibatch_seconds <= 0.1 and 30 <= j.gradient_mb <= 575
        assert 1 <= j.arrival <= 300
        u = j.utility
        assert isinstance(u, Sigmoid) and 1 <= u.gamma1 <= 100 and 1 <= u.gamma3 <= 15
        cls = j.extra["time_class"]
        if cls == "insensitive":
            assert u.gamma2 == 0
        elif cls == "sensitive":
            assert 0.01 <= u.gamma2 <= 1
        else:
            assert cls == "critical" and 4 <= u.gamma2 <= 6
    arrivals = [j.arrival for j in w.jobs]
    assert arrivals == sorted(arrivals)
    # The integer ranges are inclusive at both ends and the draws cover them.
    assert {j.worker_demand["gpu"] for j in w.jobs} == {0, 1, 2, 3, 4}


def test_tau_is_seconds_and_work_uses_slot_length():
    # DECISION: tau_i in seconds; a mini-batch costs tau + 2 e / b seconds, e in MB, b in Gbps.
    w = oasis.generate("paper-default", seed=2, n_jobs=20)
    for j, work in zip(w.jobs, w.arrays.work):
        per_batch = j.minibatch_seconds + 2 * 8 * j.gradient_mb / (1000 * j.worker_bandwidth)
        assert work == pytest.approx(j.epochs * j.chunks * j.minibatches * per_batch / 3600)
    # Minimum completion times (N_i workers every slot) are slots, not thousands of slots.
    min_slots = w.arrays.work / w.arrays.chunks
    assert np.median(min_slots) < 15


def test_class_split_proportions_on_a_large_sample():
    w = oasis.generate("paper-default", seed=4, n_jobs=5000, n_worker_servers=2, n_ps_servers=2,
                       worker_types=["p2.16xlarge"], ps_types=["c4.8xlarge"])
    classes = [j.extra["time_class"] for j in w.jobs]
    share = {c: classes.count(c) / len(classes) for c in oasis.CLASSES}
    # binomial sd <= sqrt(.25/5000) = 0.007; 0.03 is > 4 sd
    assert share["insensitive"] == pytest.approx(0.10, abs=0.03)
    assert share["sensitive"] == pytest.approx(0.55, abs=0.03)
    assert share["critical"] == pytest.approx(0.35, abs=0.03)
    w = oasis.generate("paper-default", seed=4, n_jobs=300, class_split=(0.5, 0.0, 0.5))
    assert {j.extra["time_class"] for j in w.jobs} == {"insensitive", "critical"}


def test_presets():
    d = oasis.generate("paper-default", seed=0)
    assert (d.horizon, len(d.jobs), len(d.worker_servers()), len(d.ps_servers())) == (300, 200,
                                                                                      50, 50)
    assert {s.kind for s in d.worker_servers()} <= set(GPU_TYPES)
    assert {s.kind for s in d.ps_servers()} <= set(C4)
    f = oasis.generate("paper-fig5", seed=0)
    assert (f.horizon, len(f.jobs), len(f.worker_servers()), len(f.ps_servers())) == (10, 10,
                                                                                      2, 2)
    assert max(j.arrival for j in f.jobs) <= 5
    assert all(10 <= j.epochs <= 30 and 1 <= j.chunks <= 10 for j in f.jobs)
    # "number of servers" is split proportionally between workers and PSs
    f6 = oasis.generate("paper-fig5", seed=0, n_servers=6)
    assert (len(f6.worker_servers()), len(f6.ps_servers())) == (3, 3)
    f5 = oasis.generate("paper-fig5", seed=0, n_servers=5, worker_server_fraction=0.6)
    assert (len(f5.worker_servers()), len(f5.ps_servers())) == (3, 2)
    # explicit counts replace the preset's n_servers
    fx = oasis.generate("paper-fig5", seed=0, n_worker_servers=1, n_ps_servers=3)
    assert (len(fx.worker_servers()), len(fx.ps_servers())) == (1, 3)
    # Fig. 5 varies the priority range
    fp = oasis.generate("paper-fig5", seed=0, priority=(50, 100))
    assert all(50 <= j.utility.gamma1 <= 100 for j in fp.jobs)
    t = oasis.generate("tiny", seed=0)
    assert (t.horizon, len(t.jobs), len(t.servers)) == (3, 3, 2)
    # tiny jobs are small enough to finish inside the horizon with N_i workers
    assert all(w <= 3 * n for w, n in zip(t.arrays.work, t.arrays.chunks))


def test_fig5_jobs_are_sized_for_the_horizon():
    # Each job alone can finish (with N_i workers) by T in the fig5 preset, on most jobs.
    finishable = 0
    for seed in range(10):
        w = oasis.generate("paper-fig5", seed=seed)
        a = w.arrays
        finishable += int(np.sum(a.arrival - 1 + np.ceil(a.work / a.chunks) <= w.horizon))
    assert finishable >= 80


def test_arrival_rate_and_window():
    w = oasis.generate("paper-default", seed=0, n_jobs=100, arrival_rate=2.0)
    assert max(j.arrival for j in w.jobs) <= 50 and w.meta["arrival_rate"] == 2.0
    w = oasis.generate("paper-default", seed=0, n_jobs=50, arrival_window=1)
    assert {j.arrival for j in w.jobs} == {1}
    w = oasis.generate("paper-default", seed=0, n_jobs=400, horizon=20)
    assert {j.arrival for j in w.jobs} == set(range(1, 21))


def test_demands_are_redrawn_to_fit_the_cluster():
    # Sec. V-A literally (workers on C4, no GPU): a GPU worker fits nowhere, so GPU demands are
    # redrawn until they are 0; validation passes.
    w = oasis.generate("paper-fig5", seed=0, roles="paper-v-a")
    assert all(j.worker_demand["gpu"] == 0 for j in w.jobs)
    assert w.meta["demand_redraws"] > 0
    with pytest.raises(InputError) as err:
        oasis.generate("tiny", seed=0, roles="paper-v-a", worker_types=None, worker_gpu=(1, 4))
    assert err.value.field == "worker_demand"


def test_generator_registry():
    """Presets are found through the family only."""
    a = get_family("oasis").preset("tiny")(seed=3)
    assert as_json(a) == as_json(oasis.generate("tiny", seed=3))
    assert as_json(get_family("oasis").preset("paper-default")(seed=1, n_jobs=5)) == as_json(
        oasis.generate("paper-default", seed=1, n_jobs=5))
    assert set(get_family("oasis").presets) == set(oasis.PRESETS)
    assert as_json(oasis.PRESET_GENERATORS["tiny"](seed=3)) == as_json(a)
    with pytest.raises(InputError) as err:
        get_family("oasis").preset("nope")
    assert (err.value.field, err.value.value) == ("preset", "nope")


@pytest.mark.parametrize("kwargs, field", [
    ({"preset": "paper-huge"}, "preset"),
    ({"seed": -1}, "seed"),
    ({"seed": True}, "seed"),
    ({"seed": 1.5}, "seed"),
    ({"n_jobbs": 3}, "n_jobbs"),
    ({"n_jobs": 0}, "n_jobs"),
    ({"horizon": 2.5}, "horizon"),
    ({"slot_seconds": 0}, "slot_seconds"),
    ({"epochs": (10, 5)}, "epochs"),
    ({"chunks": (0, 5)}, "chunks"),
    ({"worker_gpu": (0, 2.5)}, "worker_gpu"),
    ({"worker_bandwidth_gbps": (0, 5)}, "worker_bandwidth_gbps"),
    ({"gradient_mb": (30, float("nan"))}, "gradient_mb"),
    ({"priority": 5}, "priority"),
    ({"class_split": (0.2, 0.2, 0.2)}, "class_split"),
    ({"class_split": (-0.1, 0.6, 0.5)}, "class_split"),
    ({"arrival_window": 301}, "arrival_window"),
    ({"arrival_rate": 0.5}, "arrival_rate"),  # 200 jobs at 0.5/slot need 400 > T slots
    ({"arrival_rate": 1.0, "arrival_window": 100}, "arrival_rate"),
    ({"roles": "upside-down"}, "roles"),
    ({"worker_types": "p2.xlarge"}, "worker_types"),
    ({"ps_types": ["c5.large"]}, "ps_types"),
    ({"n_servers": 1}, "n_servers"),
    ({"n_servers": 4, "n_worker_servers": 2}, "n_servers"),
    ({"n_servers": 4, "worker_server_fraction": 1.0}, "worker_server_fraction"),
])
def test_bad_preset_or_parameter_raises_input_error(kwargs, field):
    kwargs = dict(kwargs)
    preset = kwargs.pop("preset", "paper-default")
    with pytest.raises(InputError) as err:
        oasis.generate(preset, **kwargs)
    assert err.value.field.split("[")[0] == field  # a range end is named chunks[0]
    assert field in str(err.value)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), preset=st.sampled_from(sorted(oasis.PRESETS)),
       n_jobs=st.integers(1, 30), horizon=st.integers(1, 40), n_servers=st.integers(2, 8))
def test_any_seed_and_size_validates(seed, preset, n_jobs, horizon, n_servers):
    w = oasis.generate(preset, seed=seed, n_jobs=n_jobs, horizon=horizon, n_servers=n_servers,
                       arrival_window=None)
    assert as_json(validate(w)) == as_json(w)  # validation passes, nothing changes
    assert len(w.jobs) == n_jobs and len(w.servers) == n_servers
    assert all(1 <= j.arrival <= horizon for j in w.jobs)

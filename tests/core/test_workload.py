"""Workload model: units, JSON round trip, and one clear error per kind of bad input."""
from __future__ import annotations

import json

import pytest

from mlopt.errors import InputError
from mlopt.schedule import Schedule
from mlopt.utility import Constant, Sigmoid, utility_from_dict
from mlopt.workload import Workload, validate

from conftest import tiny_dict


def test_units_and_work(tiny_workload):
    a, b = tiny_workload.jobs
    # chunk_slots = M * (tau + 2e/b) / slot = 10 * (10 + 0) / 100 = 1.0 for job a
    assert tiny_workload.chunk_slots(a) == pytest.approx(1.0)
    assert tiny_workload.work(a) == pytest.approx(2.0)  # E*N*chunk_slots = 1*2*1
    assert tiny_workload.work(b) == pytest.approx(1.0)  # 2*1*0.5
    arr = tiny_workload.arrays
    assert arr.cap_worker.shape == (1, 5) and arr.cap_ps.shape == (1, 5)
    assert list(arr.work) == pytest.approx([2.0, 1.0])


def test_exchange_time_units():
    d = tiny_dict()
    d["jobs"][0]["gradient_mb"] = 125.0  # 125 MB = 1000 Mbit; at 1 Gbps -> 1 s each way
    w = Workload.from_dict(d)
    assert w.jobs[0].exchange_seconds == pytest.approx(2.0)
    # chunk_slots = 10 * (10 + 2) / 100 = 1.2
    assert w.chunk_slots(w.jobs[0]) == pytest.approx(1.2)


def test_round_trip(tmp_path, tiny_workload):
    path = tmp_path / "w.json"
    tiny_workload.save(path)
    back = Workload.load(path)
    assert back.to_dict() == tiny_workload.to_dict()
    assert back.content_hash() == tiny_workload.content_hash()
    assert validate(back).to_dict() == back.to_dict()


def test_content_hash_ignores_meta_but_not_jobs():
    d = tiny_dict()
    h = Workload.from_dict(d).content_hash()
    d["meta"] = {"anything": 1}
    assert Workload.from_dict(d).content_hash() == h
    d["jobs"][0]["epochs"] = 2
    assert Workload.from_dict(d).content_hash() != h


def test_utilities():
    s = Sigmoid(10.0, 1.0, 2.0)
    assert s(2) == pytest.approx(5.0)  # 10 / (1 + e^0)
    assert s(1000) == 0.0  # overflow of exp handled
    assert Constant(3.0)(50) == 3.0
    with pytest.raises(InputError, match="gamma2"):
        utility_from_dict({"kind": "sigmoid", "gamma1": 1, "gamma3": 1})
    with pytest.raises(InputError, match="unknown utility kind"):
        utility_from_dict({"kind": "step"})


def _mutations():
    def set_(path, value):
        def f(d):
            obj = d
            for k in path[:-1]:
                obj = obj[k]
            obj[path[-1]] = value
        return f

    def delete(path):
        def f(d):
            obj = d
            for k in path[:-1]:
                obj = obj[k]
            del obj[path[-1]]
        return f

    return {
        "missing field": (delete(["jobs", 0, "epochs"]), "jobs[0].epochs", "missing"),
        "negative capacity": (set_(["servers", 0, "capacity", "cpu"], -1),
                              "servers[0].capacity.cpu", ">= 0"),
        "NaN": (set_(["jobs", 1, "minibatch_seconds"], float("nan")),
                "jobs[1].minibatch_seconds", "finite"),
        "arrival after T": (set_(["jobs", 0, "arrival"], 4), "jobs[0].arrival", "horizon"),
        "worker fits nowhere": (set_(["jobs", 0, "worker_demand", "gpu"], 3),
                                "jobs[0].worker_demand", "fits on no server"),
        "ps fits nowhere": (set_(["jobs", 0, "ps_demand", "memory_gb"], 9),
                            "jobs[0].ps_demand", "fits on no server"),
        "zero bandwidth": (set_(["jobs", 0, "worker_demand", "bandwidth_gbps"], 0),
                           "bandwidth_gbps", "> 0"),
        "non-integer epochs": (set_(["jobs", 0, "epochs"], 1.5), "jobs[0].epochs", "integer"),
        "bad role": (set_(["servers", 1, "role"], "gpu"), "servers[1].role", "one of"),
        "unknown resource": (set_(["servers", 0, "capacity", "fpga"], 1),
                             "servers[0].capacity.fpga", "unknown resource"),
        "duplicate job": (set_(["jobs", 1, "id"], "a"), "jobs.id", "duplicate"),
        "schema version": (set_(["schema_version"], 99), "schema_version", "unsupported"),
        "zero horizon": (set_(["horizon"], 0), "horizon", ">= 1"),
        "string number": (set_(["slot_seconds"], "100"), "slot_seconds", "number"),
    }


@pytest.mark.parametrize("case", sorted(_mutations()))
def test_bad_input_names_file_field_value(tmp_path, case):
    mutate, field, words = _mutations()[case]
    d = tiny_dict()
    mutate(d)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(d))
    with pytest.raises(InputError) as info:
        Workload.load(path)
    err = info.value
    assert err.file == str(path)
    assert field in (err.field or "")
    assert words in str(err)
    assert "\n" not in str(err)


def test_malformed_json(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text('{"schema_version": 1, "horizon": ')
    with pytest.raises(InputError, match="malformed JSON at line 1"):
        Workload.load(path)


def test_missing_file(tmp_path):
    with pytest.raises(InputError, match="cannot read"):
        Workload.load(tmp_path / "nope.json")


def test_schedule_round_trip(tmp_path):
    s = Schedule.from_rows(["a"], [("a", 1, "w1", "worker", 2), ("a", 1, "p1", "ps", 1),
                                   ("a", 2, "w1", "worker", 0)], {"producer": "test"})
    assert len(s.allocations) == 2  # zero-count rows carry no allocation
    path = tmp_path / "s.json"
    s.save(path)
    back = Schedule.load(path)
    assert back.admitted == {"a"}
    assert back.allocations.equals(s.allocations)
    assert back.meta == {"producer": "test"}


def test_schedule_bad_rows(tmp_path):
    path = tmp_path / "s.json"
    path.write_text(json.dumps({"schema_version": 1, "admitted": [], "columns":
                                ["job", "slot", "server", "role", "count"],
                                "rows": [["a", "x", "w1", "worker", 1]]}))
    with pytest.raises(InputError, match="rows"):
        Schedule.load(path)

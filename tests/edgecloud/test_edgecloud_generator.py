"""Edge-cloud generator (seeded, presets, paper ranges) and field validation (bad inputs)."""
from __future__ import annotations

import copy
import json
import subprocess
import sys

import pytest
from edgecloud_tiny import tiny_workload

from mlopt.errors import InputError
from mlopt.families import get_family
from mlopt.families.edgecloud.generator import TABLE_II, generate
from mlopt.families.edgecloud.fields import EdgeCloud, validate
from mlopt.workload import Workload


@pytest.mark.parametrize("preset", ["tiny", "paper-ratio", "paper-sim"])
def test_presets_seeded_and_valid(preset):
    a = generate(preset, 3)
    b = generate(preset, 3)
    assert a.content_hash() == b.content_hash()
    assert a.content_hash() != generate(preset, 4).content_hash()
    validate(a)
    ec = EdgeCloud(a)
    assert all(ec.eligible(jv) for jv in ec.jobs)
    assert a.horizon >= max(ec.horizon_bound(jv) for jv in ec.jobs)


def test_paper_sim_ranges():
    w = generate("paper-sim", 0)
    assert len(w.jobs) == 300 and len(w.servers) == 101
    ntypes = {j.extra["worker_type"] for j in w.jobs}
    assert len(ntypes) <= 10
    for j in w.jobs:
        assert (j.chunks, j.minibatches) in {(d, b) for _, _, d, b in TABLE_II}
        assert 20 <= j.epochs <= 60
        assert 3.6 <= j.minibatch_seconds <= 180.0  # [0.001, 0.05] h
        assert 0.01 <= j.extra["ps_update_seconds"] <= 0.1
        assert 30 <= j.gradient_mb <= 575
        assert 0.1 <= j.worker_bandwidth <= 5.12
        d = j.extra["delay"]
        assert 10 <= d["cloud"] <= 15 and all(1 <= v <= 4 for k, v in d.items() if k != "cloud")


def test_family_registered():
    fam = get_family("edgecloud")
    assert fam.sense == "min" and {"tiny", "paper-ratio", "paper-sim"} <= set(fam.presets)


def test_unknown_parameter_and_preset():
    with pytest.raises(InputError, match="n_jobz"):
        generate("tiny", 0, n_jobz=3)
    with pytest.raises(InputError, match="preset"):
        generate("nope", 0)
    with pytest.raises(InputError, match="epochs"):
        generate("tiny", 0, epochs=(3, 1))


def _bad(mutate):
    d = tiny_workload().to_dict()
    mutate(d)
    w = Workload.from_dict(json.loads(json.dumps(d)))
    with pytest.raises(InputError) as err:
        validate(w)
    return err.value


def test_bad_inputs_named():
    e = _bad(lambda d: d["jobs"][0]["extra"].update(worker_type="w7"))
    assert e.field == "jobs[0].extra.worker_type" and "eligible on no" in e.message
    e = _bad(lambda d: d["jobs"][1]["extra"]["delay"].update(e1=-1))
    assert e.field == "jobs[1].extra.delay.e1" and e.value == -1
    e = _bad(lambda d: d["extra"]["edgecloud"].pop("cloud"))
    assert "no cloud" in e.message
    e = _bad(lambda d: d["jobs"][0]["extra"]["delay"].pop("cloud"))
    assert e.field == "jobs[0].extra.delay.cloud"
    e = _bad(lambda d: d["jobs"][0]["extra"].update(ps_update_seconds=float("nan")))
    assert e.field == "jobs[0].extra.ps_update_seconds"
    e = _bad(lambda d: d.pop("extra"))
    assert e.field == "extra.edgecloud"


def test_cli_bad_input_one_line(tmp_path):
    d = tiny_workload().to_dict()
    d["jobs"][1]["extra"]["delay"]["e1"] = -2
    path = tmp_path / "w.json"
    path.write_text(json.dumps(d))
    out = subprocess.run([sys.executable, "-m", "mlopt", "solve", str(path), "--family",
                          "edgecloud"], capture_output=True, text=True)
    assert out.returncode == 2
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and "delay.e1" in lines[0] and "-2" in lines[0]


def test_trace_param_checked():
    with pytest.raises(InputError, match="trace"):
        generate("tiny", 0, trace="google")


from conftest import needs_shared  # noqa: E402


@needs_shared
def test_trace_philly_arrivals_and_gpus():
    from mlopt.traces import load_trace

    w = generate("trace-philly", 0, n_jobs=20)
    table, _ = load_trace("philly")
    rows = table.iloc[1000:1020]
    arr = [j.arrival for j in w.jobs]
    assert arr[0] == 1 and arr == sorted(arr)
    a = rows["arrival_s"].to_numpy()
    assert arr[-1] == 1 + int((a[-1] - a[0]) // 3600)
    assert [j.extra["gpus"] for j in w.jobs] == [min(g, j.chunks) for g, j in
                                                 zip(rows["gpus"], w.jobs)]


def test_cli_export_and_bound_model(tmp_path):
    """export finds the family in the workload's meta; flow_lb exports but, solved as an
    offline model, gives the one-line error (a bound has no schedule), exit 2."""
    from mlopt.cli import main

    w = tmp_path / "w.json"
    tiny_workload().save(w)
    assert main(["export", str(w), "--model", "jct_milp", "-o", str(tmp_path / "m.lp")]) == 0
    assert main(["export", str(w), "--model", "flow_lb", "-o", str(tmp_path / "f.mps")]) == 0
    out = subprocess.run([sys.executable, "-m", "mlopt", "solve", str(w), "--model", "flow_lb"],
                         capture_output=True, text=True)
    assert out.returncode == 2 and len(out.stderr.strip().splitlines()) == 1
    assert "lower-bound model" in out.stderr

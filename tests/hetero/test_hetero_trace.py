"""Trace -> hetero workload mapping (mlopt.families.hetero.trace) on the small fixtures under
tests/data (Philly, ITP) and on hand-written CSVs; the shared full traces only where marked."""
from __future__ import annotations

import json

import numpy as np
import pytest
from conftest import needs_shared

from mlopt import pipeline
from mlopt.errors import InputError
from mlopt.families.hetero.fields import hetero_data
from mlopt.families.hetero.generator import generate
from mlopt.traces import load_trace

DATA = __import__("pathlib").Path(__file__).parent.parent / "data"
PHILLY = str(DATA / "philly_sample.csv")
ITP = str(DATA / "itp_sample.csv")
SMALL = {"n_servers": 4, "horizon": 20}


def philly(**kw):
    return generate("trace-philly", 0, **{"trace_path": PHILLY, "trace_start": 0,
                                           "n_jobs": 12, **SMALL, **kw})


def per_minibatch(d, j):
    """p_j of the mapping: fastest type, co-located (no exchange term)."""
    u = d.u_ps[j].min() if d.architecture == "ps" else d.u_ra[j] * (d.chunks[j] - 1) / d.chunks[j]
    return d.v[j].min() + u


def test_arrivals_from_submission_times_by_hand(tmp_path):
    """Submissions at 00:00, 00:30, 02:10 (1 h slots): slots 1, 1, 3; with trace_time_scale 2
    the offsets 0, 1, 4.33 h give slots 1, 2, 5.  GPUs 1, 8, 64 -> chunks 5, 8, 50 (clipped to
    the paper's D in [5, 50])."""
    csv = tmp_path / "p.csv"
    csv.write_text("timestamp,duration,num_gpus,gpu_time,cluster\n"
                   "2017-10-09 00:00:00,7200,1,7200,a\n2017-10-09 00:30:00,600,8,4800,b\n"
                   "2017-10-09 02:10:00,36000,64,2304000,a\n")
    kw = {"trace_path": str(csv), "trace_start": 0, "n_jobs": 3, **SMALL}
    w = generate("trace-philly", 0, **kw)
    assert [j.arrival for j in w.jobs] == [1, 1, 3]
    assert [j.chunks for j in w.jobs] == [5, 8, 50]
    w2 = generate("trace-philly", 0, trace_time_scale=2.0, **kw)
    assert [j.arrival for j in w2.jobs] == [1, 2, 5]
    # tenant weights: jobs 1 and 3 share virtual cluster "a"
    wt = [j.extra["weight"] for j in w.jobs]
    assert wt[0] == wt[2] != wt[1] and all(200 <= x <= 5000 for x in wt)
    # size weights: GPU-hours 2, 1.33, 640 -> ranks 2, 1, 3 -> 2600, 200, 5000
    ws = generate("trace-philly", 0, trace_weight="size", **kw)
    assert [j.extra["weight"] for j in ws.jobs] == pytest.approx([2600.0, 200.0, 5000.0])


@pytest.mark.parametrize("preset, path", [("trace-philly", PHILLY), ("trace-itp", ITP),
                                          ("trace-philly-ra", PHILLY)])
def test_epochs_fit_the_recorded_duration(preset, path):
    """Run at full width on its fastest co-located configuration a job takes E K p slots, within
    half an epoch (rounding of E; K p / 2) of the recorded duration, except jobs shorter than
    one mini-batch (E = K = 1)."""
    name = "itp-annotated" if path == ITP else "philly"
    w = generate(preset, 1, trace=name, trace_path=path, trace_start=5, n_jobs=30,
                 trace_weight="random", **SMALL)
    d = hetero_data(w)
    table, _ = load_trace(name, path)
    dur = table["duration_s"].to_numpy()[5:35] / 3600.0
    for j, job in enumerate(w.jobs):
        p = per_minibatch(d, j)
        run = job.epochs * job.minibatches * p
        assert abs(run - dur[j]) <= job.minibatches * p / 2 + 1e-9 or \
            (job.epochs == 1 and job.minibatches == 1), (j, run, dur[j])
    assert w.meta["trace"]["rows"] == 30 and w.meta["trace"]["first_row"] == 5


def test_random_weights_and_draws_match_the_synthetic_stream():
    """trace_weight="random" keeps the paper's weight draws: the same as the synthetic preset's
    jobs at the same seed (the stream is the same; only arrivals, chunks, epochs and K differ)."""
    a = philly(trace_weight="random")
    b = generate("trace-philly", 0, trace=None, n_jobs=12, **SMALL)
    assert [j.extra["weight"] for j in a.jobs] == [j.extra["weight"] for j in b.jobs]
    assert [j.extra["minibatch_slots"] for j in a.jobs] == \
        [j.extra["minibatch_slots"] for j in b.jobs]
    assert json.dumps(philly().to_dict()) == json.dumps(philly().to_dict())  # same bytes
    assert "trace" not in b.meta and "trace_start" not in b.meta["params"]


@pytest.mark.parametrize("arch", ["", "-ra"])
def test_online_and_checker_on_a_trace_workload(arch):
    w = generate("trace-philly" + arch, 0, trace_path=PHILLY, trace_start=20, n_jobs=6, **SMALL)
    for alg in ("a_online" + arch.replace("-", "_"), "fifo"):
        res = pipeline.run_algorithm(w, alg, family="hetero")
        assert res.check.feasible, res.check.summary()
        assert res.schedule.admitted == {j.id for j in w.jobs}


@pytest.mark.parametrize("override, field", [
    ({"trace": "google"}, "trace"), ({"trace": "csv"}, "trace"),
    ({"trace_start": 149}, "trace_start"), ({"trace_start": -1}, "trace_start"),
    ({"trace_time_scale": 0}, "trace_time_scale"),
    ({"trace_duration_scale": float("inf")}, "trace_duration_scale"),
    ({"trace_weight": "fair"}, "trace_weight"),
    ({"trace": "itp-annotated", "trace_path": ITP, "trace_weight": "tenant"}, "trace_weight"),
    ({"trace_path": 3}, "trace_path"),
])
def test_bad_trace_parameters(override, field):
    with pytest.raises(InputError) as e:
        philly(**override)
    assert e.value.field == field


def test_cli_generate_from_a_trace_file(tmp_path, capsys):
    from mlopt.cli import main

    out = tmp_path / "w.json"
    assert main(["generate", "hetero", "--preset", "trace-itp", "-p", "trace=\"itp-annotated\"",
                 "-p", f"trace_path={json.dumps(ITP)}", "-p", "trace_start=0", "-p", "n_jobs=5",
                 "-p", "n_servers=3", "-o", str(out)]) == 0
    doc = json.loads(out.read_text())
    assert len(doc["jobs"]) == 5 and doc["meta"]["trace"]["name"] == "itp-annotated"
    capsys.readouterr()
    assert main(["generate", "hetero", "--preset", "trace-itp", "-p", "trace_start=1000",
                 "-p", f"trace_path={json.dumps(ITP)}", "-p", "trace=\"itp-annotated\"",
                 "-o", str(out)]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1


@needs_shared
def test_trace_philly_preset_uses_consecutive_rows_of_the_shared_trace():
    w = generate("trace-philly", 0)
    table, _ = load_trace("philly")
    rows = table.iloc[1000:1040]
    a = rows["arrival_s"].to_numpy()
    assert [j.arrival for j in w.jobs] == list(1 + ((a - a[0]) // 3600).astype(int))
    assert [j.chunks for j in w.jobs] == list(np.clip(rows["gpus"].to_numpy(), 5, 50))


def test_from_trace_table_equals_the_preset_on_the_same_rows():
    """``mlopt instances from-trace ... --family hetero`` (Family.from_trace) converts a loaded
    table exactly as the trace presets convert the file: same jobs, servers and types."""
    from mlopt.families import get_family

    table, report = load_trace("itp-annotated", ITP)
    conv = get_family("hetero").from_trace
    a = conv(table, seed=2, report=report, trace_start=3, n_jobs=9, **SMALL)
    b = generate("trace-itp", 2, trace="itp-annotated", trace_path=ITP, trace_start=3, n_jobs=9,
                 **SMALL)
    assert [j.to_dict() for j in a.jobs] == [j.to_dict() for j in b.jobs]
    assert a.servers == b.servers and a.extra == b.extra
    assert a.meta["trace"]["name"] == "itp-annotated" and a.name == "hetero-trace-2"
    with pytest.raises(InputError) as e:
        conv(table, trace_path=ITP)
    assert e.value.field == "trace_path"


def test_cli_from_trace_family_hetero(tmp_path, capsys):
    from mlopt.cli import main

    out = tmp_path / "w.json"
    assert main(["instances", "from-trace", "philly", PHILLY, "--family", "hetero", "-p",
                 "n_jobs=6", "-p", "n_servers=3", "-p", 'trace_weight="tenant"', "-o",
                 str(out)]) == 0
    doc = json.loads(out.read_text())
    assert len(doc["jobs"]) == 6 and doc["extra"]["hetero"]["architecture"] == "ps"
    assert main(["run", "a_online", str(out), "--family", "hetero",
                 "-o", str(tmp_path / "s.json")]) == 0
    capsys.readouterr()
    assert main(["instances", "from-trace", "itp-annotated", ITP, "--family", "hetero", "-p",
                 'trace_weight="tenant"', "-o", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "trace_weight" in err

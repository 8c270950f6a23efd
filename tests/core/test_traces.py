"""Trace loaders, bad-row accounting, the generic CSV mapping and trace -> Workload conventions.

Fixtures (tests/data, see NOTICE): philly_sample.csv and itp_sample.csv are unmodified cuts of
the CC-BY Philly and MIT ITP files; philly_bad.csv is corrupted on purpose.  Tests reading
../shared skip when it is absent; the others never touch it (demand="fallback" or a missing
MLOPT_SHARED_TRACES directory).
"""
from __future__ import annotations

import csv
import math
from datetime import datetime

import numpy as np
import pandas as pd
import pytest

from mlopt.errors import InputError
from mlopt.traces import (TRACES, LoadReport, alibaba_cluster, check_table, load_csv, load_itp,
                          load_philly, load_pod_demand, load_pollux_workload, load_trace,
                          parse_mapping, per_gpu_demand, trace_to_workload)
from mlopt.traces.alibaba import UniformPerGpuDemand, load_nodes, stratified_sample
from mlopt.traces.paths import ENV_VAR
from mlopt.workload import BANDWIDTH, Server, validate

from conftest import DATA, SHARED, needs_shared

PHILLY = DATA / "philly_sample.csv"
PHILLY_BAD = DATA / "philly_bad.csv"
ITP = DATA / "itp_sample.csv"


def _csv_rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


@pytest.fixture(scope="module")
def philly():
    return load_philly(PHILLY)


@pytest.fixture(scope="module")
def itp():
    return load_itp(ITP, annotated=True)


# ---- loaders on fixtures -------------------------------------------------------------------
def test_philly_sample_columns_units_and_sorting(philly):
    table, report = philly
    rows = _csv_rows(PHILLY)
    assert report.rows_read == len(rows) == 150 and report.kept == 150 and not report.skipped
    assert list(table.columns[:5]) == ["job_id", "arrival_s", "duration_s", "gpus", "source_line"]
    assert table["gpus"].dtype == np.int64 and table["tenant"].notna().all()
    # Sorted by arrival although the file is not; the report says how many rows moved.
    assert table["arrival_s"].is_monotonic_increasing
    stamps = [datetime.strptime(r["timestamp"], "%Y-%m-%d %H:%M:%S") for r in rows]
    assert stamps != sorted(stamps) and report.reordered > 0
    # Origin = earliest timestamp; every arrival recomputed independently with datetime.
    t0 = min(stamps)
    assert report.origin == str(pd.Timestamp(t0))
    for _, rec in table.iterrows():
        src = rows[rec["source_line"] - 2]  # header is line 1
        ts = datetime.strptime(src["timestamp"], "%Y-%m-%d %H:%M:%S")
        assert rec["arrival_s"] == (ts - t0).total_seconds()
        assert rec["duration_s"] == float(src["duration"])
        assert rec["gpus"] == int(src["num_gpus"]) and rec["tenant"] == src["cluster"]
        assert rec["job_id"] == f"philly_sample:{rec['source_line']}"
    assert sorted(table["gpus"].unique()) == [1, 2, 4, 8, 16]


def test_philly_explicit_origin_and_no_tenant():
    table, report = load_philly(PHILLY, origin="2017-10-09 00:00:00", tenant=None)
    assert "tenant" not in table
    first = min(datetime.strptime(r["timestamp"], "%Y-%m-%d %H:%M:%S") for r in _csv_rows(PHILLY))
    assert table["arrival_s"].iloc[0] == (first - datetime(2017, 10, 9)).total_seconds()
    # An origin after some jobs: those rows are skipped, and counted.
    table, report = load_philly(PHILLY, origin="2017-10-09 06:00:00")
    early = sum(r["timestamp"] < "2017-10-09 06:00:00" for r in _csv_rows(PHILLY))
    assert early > 0 and report.skipped == {"negative_arrival": early}
    assert report.kept + early == 150 and (table["arrival_s"] >= 0).all()


def test_itp_sample_raw_and_annotated(itp):
    rows = _csv_rows(ITP)
    raw, rep = load_itp(ITP)
    assert rep.rows_read == rep.kept == 150 and rep.reordered == 0
    assert set(raw.columns) == {"job_id", "arrival_s", "duration_s", "gpus", "source_line"}
    # origin None keeps the trace clock: seconds from the start of collection.
    assert list(raw["arrival_s"]) == [float(r["submission_time"]) for r in rows]
    assert list(raw["job_id"]) == [r["job_id"] for r in rows]
    table, _ = itp
    assert list(table["model"]) == [r["model_name"] for r in rows]
    assert list(table["deadline_s"]) == [float(r["deadline"]) for r in rows]
    assert list(table["iterations"]) == [int(r["num_iteration"]) for r in rows]
    assert list(table["batch_size"]) == [int(r["batch_size"]) for r in rows]
    shifted, rep2 = load_itp(ITP, origin="min")
    assert shifted["arrival_s"].iloc[0] == 0.0 and rep2.origin == float(rows[0]["submission_time"])


def test_itp_order_matters(tmp_path):
    lines = ITP.read_text().splitlines()
    moved = lines[:1] + lines[1:50] + [lines[120]] + lines[50:120] + lines[121:]
    path = tmp_path / "itp_unsorted.csv"
    path.write_text("\n".join(moved) + "\n")
    # Row 120 now sits early: later rows arrive before it and are skipped as unsorted.
    t120 = int(lines[120].split(",")[1])
    later = sum(int(x.split(",")[1]) < t120 for x in lines[50:120])
    assert later > 0
    table, rep = load_itp(path)
    assert rep.skipped == {"unsorted": later} and rep.kept == 150 - later
    assert rep.examples["unsorted"]["line"] == 52 and rep.examples["unsorted"]["field"] == \
        "submission_time"
    # With unsorted="sort" nothing is skipped: the table is re-sorted, and it says so.
    table, rep = load_itp(path, unsorted="sort")
    assert rep.kept == 150 and rep.reordered == later and table["arrival_s"].is_monotonic_increasing
    with pytest.raises(InputError, match=r"line 52 .*unsorted") as err:
        load_itp(path, strict=True)
    assert err.value.field == "submission_time" and err.value.file == str(path)


# ---- bad rows ------------------------------------------------------------------------------
EXPECTED_BAD = {"malformed": 1, "missing": 2, "not_a_number": 1, "bad_timestamp": 1,
                "nonpositive_duration": 2, "nonpositive_gpus": 1, "fractional_gpus": 1}


def test_bad_rows_counted_per_reason():
    table, report = load_philly(PHILLY_BAD)
    assert report.rows_read == 20  # the blank line is not a row
    assert report.skipped == EXPECTED_BAD
    assert report.kept == len(table) == 11
    assert report.kept + report.n_skipped == report.rows_read
    ex = report.examples
    assert ex["missing"] == {"line": 4, "field": "duration", "value": ""}
    assert ex["malformed"] == {"line": 18, "field": None, "value": "6 fields"}
    assert ex["bad_timestamp"] == {"line": 11, "field": "timestamp", "value": "2017-13-45 99:00:00"}
    assert ex["nonpositive_duration"] == {"line": 6, "field": "duration", "value": "-12.0"}
    assert ex["not_a_number"]["value"] == "two" and ex["fractional_gpus"]["value"] == "1.5"
    assert ex["nonpositive_gpus"] == {"line": 9, "field": "num_gpus", "value": "0"}
    assert "missing: 2" in report.summary()
    # Kept rows are exactly the clean ones, whatever their order in the file.
    assert (table["duration_s"] > 0).all() and (table["gpus"] >= 1).all()


def test_strict_mode_rejects_first_bad_row(tmp_path):
    with pytest.raises(InputError) as err:
        load_philly(PHILLY_BAD, strict=True)
    e = err.value
    assert e.file == str(PHILLY_BAD) and e.field == "duration" and e.value == ""
    assert "line 4" in str(e) and "missing" in str(e)
    lines = PHILLY.read_text().splitlines()
    fields = lines[7].split(",")
    fields[2] = "0"
    lines[7] = ",".join(fields)
    path = tmp_path / "zero_gpus.csv"
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(InputError, match="line 8") as err:
        load_philly(path, strict=True)
    assert err.value.field == "num_gpus" and err.value.value == "0"
    assert load_philly(path)[1].skipped == {"nonpositive_gpus": 1}


def test_duplicate_ids_and_deadline_before_arrival(tmp_path):
    path = tmp_path / "d.csv"
    path.write_text("id,t,d,g,dl\na,0,10,1,20\nb,5,10,2,3\na,7,10,1,30\nc,9,10,1,9\n")
    table, rep = load_csv(path, "job_id=id,arrival=t,duration=d,gpus=g,deadline=dl")
    assert rep.skipped == {"deadline_before_arrival": 1, "duplicate_id": 1}
    assert list(table["job_id"]) == ["a", "c"] and list(table["deadline_s"]) == [20.0, 9.0]


def test_load_report_invariant():
    with pytest.raises(AssertionError):
        LoadReport("x", "f", rows_read=5, kept=3, skipped={"missing": 1})


# ---- generic CSV ---------------------------------------------------------------------------
def test_generic_csv_mapping_and_units(tmp_path):
    path = tmp_path / "mine.csv"
    path.write_text("user,submit_min,runtime_h,n,arch\n"
                    "u1,2,0.5,4,resnet\nu2,1,2,1,bert\nu1,3,1,8,gpt\n")
    table, rep = load_csv(path, "arrival=submit_min, duration=runtime_h, gpus=n, tenant=user,"
                          "model=arch", arrival_unit="min", duration_unit="h")
    assert rep.kept == 3 and rep.reordered == 1  # u2 arrives before u1's first job
    assert list(table["arrival_s"]) == [60.0, 120.0, 180.0]
    assert list(table["duration_s"]) == [7200.0, 1800.0, 3600.0]
    assert list(table["tenant"]) == ["u2", "u1", "u1"] and list(table["model"]) == [
        "bert", "resnet", "gpt"]
    assert list(table["job_id"]) == ["mine:3", "mine:2", "mine:4"]
    both, _ = load_csv(path, "arrival=submit_min,duration=runtime_h,gpus=n,tenant=arch,"
                       "model=arch", arrival_unit="min")  # one column may feed two fields
    assert list(both["tenant"]) == list(both["model"]) == ["bert", "resnet", "gpt"]
    # Date-time clock with an explicit format, via the registry.
    p2 = tmp_path / "dt.csv"
    p2.write_text("when,secs,gpu\n2020-01-01T00:10:00,5,1\n2020-01-01T00:00:00,6,1\n")
    t2, r2 = load_trace("csv", p2, mapping={"arrival": "when", "duration": "secs", "gpus": "gpu"},
                        arrival_unit="datetime", timestamp_format="%Y-%m-%dT%H:%M:%S")
    assert list(t2["arrival_s"]) == [0.0, 600.0] and r2.origin == "2020-01-01 00:00:00"


def test_generic_csv_mapping_errors(tmp_path):
    path = tmp_path / "m.csv"
    path.write_text("a,b,c\n1,2,3\n")
    with pytest.raises(InputError, match="unknown field") as err:
        parse_mapping("arrival=a,duration=b,gpus=c,colour=c")
    assert err.value.value == "colour"
    with pytest.raises(InputError, match="not in the file's header") as err:
        load_csv(path, "arrival=a,duration=b,gpus=nope")
    assert err.value.value == "nope" and "nope" in str(err.value) and err.value.file == str(path)
    with pytest.raises(InputError, match="required field"):
        load_csv(path, "arrival=a,duration=b")
    with pytest.raises(InputError, match="field=COLUMN"):
        parse_mapping("arrival=a,duration")
    with pytest.raises(InputError, match="mapped twice"):
        parse_mapping("arrival=a,arrival=b")
    with pytest.raises(InputError, match="unknown time unit"):
        load_csv(path, "arrival=a,duration=b,gpus=c", duration_unit="fortnight")
    with pytest.raises(InputError, match="needs a column mapping"):
        load_trace("csv", path)
    with pytest.raises(InputError, match="unknown trace"):
        load_trace("borg", path)
    with pytest.raises(InputError, match="bad option for trace 'itp'"):
        load_trace("itp", path, annotate=True)
    with pytest.raises(InputError, match="cannot read"):
        load_csv(tmp_path / "absent.csv", "arrival=a,duration=b,gpus=c")


def test_generic_mapping_reproduces_philly_loader(philly):
    table, rep = load_csv(PHILLY, "arrival=timestamp,duration=duration,gpus=num_gpus,"
                          "tenant=cluster", arrival_unit="datetime",
                          timestamp_format="%Y-%m-%d %H:%M:%S")
    pd.testing.assert_frame_equal(table, philly[0])
    assert rep.skipped == philly[1].skipped and rep.reordered == philly[1].reordered


def test_pollux_workload_durations_from_gpu_hour_bands(tmp_path):
    path = tmp_path / "workload-x.csv"
    path.write_text("name,time,application,num_replicas,batch_size\n"
                    "a,10,cifar10,2,256\nb,20,imagenet,8,1600\nc,30,unknownnet,1,32\n")
    table, rep = load_pollux_workload(path)
    assert rep.skipped == {"no_duration": 1} and rep.examples["no_duration"]["field"] == \
        "application"
    # cifar10: band [1/60, 1) GPU-h -> sqrt(1/60) GPU-h over 2 GPUs; imagenet: sqrt(1e5) / 8.
    assert table["duration_s"].iloc[0] == pytest.approx(math.sqrt(1 / 60) * 3600 / 2)
    assert table["duration_s"].iloc[1] == pytest.approx(math.sqrt(100 * 1000) * 3600 / 8)
    assert list(table["model"]) == ["cifar10", "imagenet"] and list(table["batch_size"]) == [
        256, 1600]
    table, _ = load_pollux_workload(path, gpu_hours={"cifar10": 1.0, "imagenet": 2.0,
                                                     "unknownnet": 0.5})
    assert list(table["duration_s"]) == [1800.0, 900.0, 1800.0]


# ---- trace -> Workload ---------------------------------------------------------------------
def _convert(table, **kw):
    kw.setdefault("demand", "fallback")
    kw.setdefault("cluster_options", {"n_worker_servers": 6, "n_ps_servers": 4})
    return trace_to_workload(table, cluster=kw.pop("cluster", "ec2-paper"), **kw)


def test_trace_to_workload_valid_and_conventions(philly):
    table, report = philly
    w = _convert(table, report=report, n_jobs=60, seed=3)
    validate(w)  # passes the workload validator (a JSON round trip)
    assert len(w.jobs) == 60 and w.slot_seconds == 3600.0 and w.meta["trace"] == "philly"
    last = table["arrival_s"].max()
    assert w.horizon == int(last // 3600) + 1
    ids = [j.extra["trace_id"] for j in w.jobs]
    sub = table.set_index("job_id").loc[ids]
    assert sub["arrival_s"].is_monotonic_increasing  # subsample kept in arrival order
    for job, (_, rec) in zip(w.jobs, sub.iterrows()):
        assert job.arrival == int(rec["arrival_s"] // 3600) + 1 <= w.horizon
        assert job.chunks == job.extra["workers"] == rec["gpus"]  # one worker per GPU, N = g
        assert job.worker_demand["gpu"] == 1.0 and job.ps_demand["gpu"] == 0.0
        assert 1 <= job.extra["ps"] <= job.extra["workers"]
        assert job.extra["ps"] * job.ps_bandwidth >= job.extra["workers"] * job.worker_bandwidth
        # Running at the trace's GPU count takes about the trace's duration.
        model_s = job.epochs * job.minibatches * (job.minibatch_seconds + job.exchange_seconds)
        per_mb = job.minibatch_seconds + job.exchange_seconds
        if rec["duration_s"] >= 20 * per_mb:
            assert model_s == pytest.approx(rec["duration_s"], rel=0.05)
        # Target completion = slack x trace duration in slots (>= 1 slot).
        assert job.utility.gamma3 == pytest.approx(max(1.0, 1.5 * rec["duration_s"] / 3600),
                                                   rel=1e-5)
        assert 0.001 <= job.minibatch_seconds <= 0.1 and 30 <= job.gradient_mb <= 575
        assert 0.1 <= job.worker_bandwidth <= 5 and 5 <= job.ps_bandwidth <= 20
        # Fallback distribution: OASiS worker ranges, integers.
        assert job.worker_demand["cpu"] in range(1, 11)
        assert job.worker_demand["memory_gb"] in range(2, 33)
        assert job.extra["weight"] == job.utility.gamma1
    # Priority by size: rank in GPU-hours, mapped onto [1, 100].
    gh = np.array([j.extra["trace_duration_s"] * j.extra["trace_gpus"] for j in w.jobs])
    g1 = np.array([j.utility.gamma1 for j in w.jobs])
    order = np.argsort(gh, kind="stable")
    assert np.all(np.diff(g1[order]) >= -1e-9) and g1.min() == 1.0 and g1.max() == 100.0
    classes = {j.extra["time_class"] for j in w.jobs}
    assert classes <= {"insensitive", "sensitive", "critical"} and len(classes) >= 2
    assert all((j.utility.gamma2 == 0) == (j.extra["time_class"] == "insensitive")
               for j in w.jobs)
    assert w.meta["demand"]["kind"] == "fallback-uniform"
    assert w.meta["load_report"]["rows_read"] == 150


def test_trace_to_workload_deterministic(philly):
    table, _ = philly
    a = _convert(table, n_jobs=40, seed=7)
    b = _convert(table, n_jobs=40, seed=7)
    assert a.to_dict() == b.to_dict()
    c = _convert(table, n_jobs=40, seed=8)
    assert c.content_hash() != a.content_hash()
    # Independent streams: another subsample size leaves the cluster unchanged.
    d = _convert(table, n_jobs=20, seed=7)
    assert d.servers == a.servers and d.content_hash() != a.content_hash()


def test_window_horizon_and_subsampling(philly):
    table, _ = philly
    start, length = 3 * 3600.0, 4 * 3600.0
    w = _convert(table, window_start_s=start, window_s=length, slot_seconds=1800.0)
    inside = table[(table["arrival_s"] >= start) & (table["arrival_s"] < start + length)]
    assert w.horizon == 8 and len(w.jobs) == len(inside) > 0
    assert [j.arrival for j in w.jobs] == [
        int((a - start) // 1800) + 1 for a in inside["arrival_s"]]
    h = _convert(table, window_start_s=start, horizon=3, slot_seconds=1800.0)
    assert h.horizon == 3 and all(j.arrival <= 3 for j in h.jobs)
    assert len(h.jobs) == int(((table["arrival_s"] >= start) &
                               (table["arrival_s"] < start + 3 * 1800)).sum())
    with pytest.raises(InputError, match="only") as err:
        _convert(table, n_jobs=151)
    assert err.value.field == "n_jobs"
    with pytest.raises(InputError, match="no job"):
        _convert(table, window_start_s=1e9)


def test_worker_grouping_ps_ratio_and_tenant_priority(philly):
    table, _ = philly
    w = _convert(table, gpus_per_worker=2, ps_ratio=0.25, priority="tenant", seed=1,
                 worker_bandwidth_gbps=1.0, ps_bandwidth_gbps=8.0)
    for j in w.jobs:
        g = j.extra["trace_gpus"]
        assert j.extra["workers"] == j.chunks == math.ceil(g / 2)
        assert j.worker_demand["gpu"] == 2.0 and j.worker_bandwidth == 1.0
        assert j.extra["ps"] == min(j.chunks, max(1, math.ceil(0.25 * j.chunks),
                                                  math.ceil(j.chunks / 8)))
    by_tenant: dict[str, set] = {}
    for j in w.jobs:
        by_tenant.setdefault(j.extra["tenant"], set()).add(j.utility.gamma1)
    assert all(len(v) == 1 for v in by_tenant.values()) and len(by_tenant) >= 2


def test_deadline_target_and_extras(itp):
    table, report = itp
    w = _convert(table, report=report, target_from="deadline", window_start_s=889000.0,
                 slot_seconds=600.0)
    for j in w.jobs:
        rec = table[table["job_id"] == j.extra["trace_id"]].iloc[0]
        assert j.utility.gamma3 == pytest.approx(
            max(1.0, (rec["deadline_s"] - rec["arrival_s"]) / 600), rel=1e-5)
        assert j.extra["model"] == rec["model"] and j.extra["batch_size"] == rec["batch_size"]
        assert j.extra["deadline_slot"] >= j.arrival
    with pytest.raises(InputError, match="no deadline_s"):
        _convert(load_philly(PHILLY)[0], target_from="deadline")


def test_demand_redrawn_to_fit_an_explicit_cluster(philly):
    caps = {"gpu": 4.0, "cpu": 6.0, "memory_gb": 20.0, "storage_gb": 100.0, BANDWIDTH: 25.0}
    servers = [Server("w1", "worker", caps), Server("p1", "ps", dict(caps, gpu=0.0))]
    w = trace_to_workload(philly[0], cluster=servers, demand="fallback", n_jobs=50, seed=2)
    assert w.meta["demand_redraws"] > 0  # fallback CPU reaches 10 > 6
    assert all(j.worker_demand["cpu"] <= 6 and j.ps_demand["memory_gb"] <= 20 for j in w.jobs)
    with pytest.raises(InputError, match="no worker server has 8 GPUs"):
        trace_to_workload(philly[0], cluster=servers, demand="fallback", gpus_per_worker=8)


def test_bad_conventions_and_tables(philly):
    table, _ = philly
    with pytest.raises(InputError, match="unknown trace convention"):
        _convert(table, slots=5)
    with pytest.raises(InputError, match="unknown cluster"):
        _convert(table, cluster="ec2-giant", cluster_options=None)
    with pytest.raises(InputError) as err:
        _convert(table, ps_ratio=2.0)
    assert err.value.field == "ps_ratio"
    with pytest.raises(InputError, match="no tenant"):
        _convert(load_itp(ITP)[0], priority="tenant")
    bad = table.copy()
    bad.loc[3, "duration_s"] = -1.0
    with pytest.raises(InputError) as err:
        check_table(bad)
    assert err.value.field == "table.duration_s[3]"
    with pytest.raises(InputError, match="missing column"):
        check_table(table.drop(columns=["gpus"]))


def test_auto_demand_falls_back_without_shared(philly, monkeypatch, tmp_path):
    monkeypatch.setenv(ENV_VAR, str(tmp_path / "no-such-dir"))
    assert isinstance(per_gpu_demand("auto"), UniformPerGpuDemand)
    w = trace_to_workload(philly[0], demand="auto", n_jobs=10,
                          cluster_options={"n_worker_servers": 3, "n_ps_servers": 2})
    assert w.meta["demand"]["kind"] == "fallback-uniform"
    fixed = trace_to_workload(philly[0], demand="fallback", n_jobs=10,
                              cluster_options={"n_worker_servers": 3, "n_ps_servers": 2})
    assert fixed.to_dict()["jobs"] == w.to_dict()["jobs"]
    with pytest.raises(InputError, match="not available"):
        load_trace("philly")


def test_stratified_sample_is_proportional():
    groups = np.array(["a"] * 60 + ["b"] * 30 + ["c"] * 10)
    rng = np.random.default_rng(0)
    idx = stratified_sample(groups, 10, rng)
    assert len(set(idx)) == 10
    assert {g: int((groups[idx] == g).sum()) for g in "abc"} == {"a": 6, "b": 3, "c": 1}
    idx = stratified_sample(groups, 7, rng)  # quotas 4.2 / 2.1 / 0.7: remainder goes to c
    assert {g: int((groups[idx] == g).sum()) for g in "abc"} == {"a": 4, "b": 2, "c": 1}


def test_registry_lists_the_traces():
    assert {"philly", "pollux-workload", "itp", "itp-annotated", "csv"} <= set(TRACES)


# ---- ../shared (skipped when absent) -------------------------------------------------------
@needs_shared
@pytest.mark.shared
def test_full_philly_and_itp_files_load_cleanly():
    table, report = load_trace("philly")
    assert report.rows_read == report.kept == 82247 and not report.skipped
    assert report.origin == "2017-09-04 10:30:41" and table["arrival_s"].iloc[0] == 0.0
    assert sorted(table["gpus"].unique()) == [1, 2, 4, 8, 12, 16, 24, 32, 64, 128]
    assert int((table["gpus"] == 1).sum()) == 76627 and table["tenant"].nunique() == 15
    total = 0
    for k in range(1, 11):
        _, rep = load_trace("itp", SHARED / "traces" / "microsoft-itp" / "raw" /
                            f"cluster{k:02d}.csv")
        assert not rep.skipped
        total += rep.kept
    assert total == 69351
    table, rep = load_trace("pollux-workload")
    assert rep.kept == 160 and set(table["model"]) == {"cifar10", "ncf", "deepspeech2", "bert",
                                                        "yolov3", "imagenet"}


@needs_shared
@pytest.mark.shared
def test_alibaba_per_gpu_distribution():
    d = load_pod_demand()
    assert len(d.cpu) + sum(d.filtered.values()) == 8152
    assert d.filtered["no_gpu"] == 1088
    assert np.median(d.cpu) == pytest.approx(11.3) and np.median(d.memory_gb) == pytest.approx(47)
    cpu, mem = d.sample(np.random.default_rng(0), 1000)
    cpu2, mem2 = d.sample(np.random.default_rng(0), 1000)
    assert np.array_equal(cpu, cpu2) and np.array_equal(mem, mem2)
    assert set(zip(cpu, mem)) <= set(zip(d.cpu, d.memory_gb))  # joint pairs, not marginals
    assert len(load_pod_demand(whole_gpus_only=False).cpu) > len(d.cpu)
    assert per_gpu_demand("auto").describe()["kind"] == "alibaba-empirical"


@needs_shared
@pytest.mark.shared
def test_alibaba_cluster_and_workload(philly):
    nodes = load_nodes()
    assert len(nodes) == 1213 and (nodes["gpu"] >= 1).all()
    servers = alibaba_cluster(np.random.default_rng(5), 100)
    again = alibaba_cluster(np.random.default_rng(5), 100)
    assert servers == again and len({s.id for s in servers}) == 100
    kinds = pd.Series([s.kind for s in servers]).value_counts()
    share = nodes["model"].value_counts() / len(nodes) * 100
    assert all(abs(kinds.get(m, 0) - share[m]) < 1 for m in share.index)
    assert sum(s.role == "ps" for s in servers) == 50
    row = nodes.set_index("sn").loc[servers[0].id]
    assert servers[0].capacity["cpu"] == row["cpu"] and servers[0].capacity["gpu"] == row["gpu"]
    assert all(s.role == "any" for s in alibaba_cluster(np.random.default_rng(5), 8, roles="any"))
    w = trace_to_workload(philly[0], cluster="alibaba", cluster_options={"n_servers": 20},
                          demand="alibaba", n_jobs=40, seed=4)
    validate(w)
    assert w.meta["demand"]["kind"] == "alibaba-empirical"
    with pytest.raises(InputError):
        alibaba_cluster(np.random.default_rng(0), 5000)


@pytest.mark.parametrize("variant", ["as-is", "crlf", "spaces-line", "no-final-newline",
                                     "short-row", "bom", "quoted"])
def test_fast_and_csv_module_readers_agree(tmp_path, variant):
    from mlopt.traces.table import _read_rows, _read_rows_csv, _read_rows_fast, read_header
    text = PHILLY_BAD.read_text()
    body = {"as-is": text, "crlf": text.replace("\n", "\r\n"),
            "spaces-line": text.replace("\n\n", "\n   \n\n"),
            "no-final-newline": text.rstrip("\n"),
            "short-row": text.replace(",87.0,1,87.0,11cb48,extra", ",87.0"),
            "bom": "\ufeff" + text,
            "quoted": text.replace("6214e9", '"6214e9"')}[variant]
    path = tmp_path / "v.csv"
    path.write_text(body, newline="")
    header = read_header(path)
    wanted = ["timestamp", "duration", "num_gpus", "cluster"]
    fast = _read_rows(path, header, wanted)
    ref = _read_rows_csv(path, header, wanted)
    # The vectorized path is taken unless the file has quotes (then the csv module reads it).
    assert (b'"' in path.read_bytes()) == (variant == "quoted")
    assert _read_rows_fast(path.read_bytes(), header, wanted, path) is not None
    pd.testing.assert_frame_equal(fast[0], ref[0])
    assert np.array_equal(fast[1], ref[1]) and np.array_equal(fast[2], ref[2])
    assert load_philly(path)[1].skipped == EXPECTED_BAD

"""Inputs that cannot crash or fool mlopt (issue 8, section 3): one test per failure class found
by feeding mutated workloads, schedules, specs and CSV files to the CLI.

Every bad input must end in exit status 2 with exactly one line on stderr that names the file,
the field and the value, and never a traceback; absurd sizes are rejected by the documented
limits (:mod:`mlopt.limits`) before anything hangs or allocates."""
from __future__ import annotations

import copy
import json
import time

import pytest

from mlopt import limits
from mlopt.cli import main

from conftest import tiny_dict


def run_cli(capsys, *argv):
    capsys.readouterr()
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def expect_error(capsys, argv, *words):
    """Exit 2, one line on stderr containing every word, no traceback."""
    code, out, err = run_cli(capsys, *argv)
    assert code == 2, (code, out, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    for w in words:
        assert str(w) in lines[0], (w, lines[0])
    return lines[0]


@pytest.fixture
def files(tmp_path, capsys):
    """A valid workload (tiny preset) and OASiS's checked, feasible schedule for it."""
    w, s = tmp_path / "w.json", tmp_path / "s.json"
    assert main(["generate", "oasis", "--preset", "tiny", "--seed", "2", "-o", str(w)]) == 0
    assert main(["run", "oasis", str(w), "-o", str(s)]) == 0
    capsys.readouterr()
    return tmp_path, json.loads(w.read_text()), json.loads(s.read_text())


def write(path, obj):
    path.write_text(json.dumps(obj))
    return path


# ---- tracebacks instead of the one-line error ----------------------------------------------------
def test_not_utf8(tmp_path, files, capsys):
    d, _, s = files
    bad = d / "bad.json"
    bad.write_bytes(b'{"schema_version": 1, "name": "\xff\xfe"}')
    expect_error(capsys, ["check", bad, d / "s.json"], "bad.json", "not UTF-8", "offset 31")
    expect_error(capsys, ["check", d / "w.json", bad], "bad.json", "not UTF-8")


def test_json_nested_100000_deep(files, capsys):
    d, _, _ = files
    deep = d / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    expect_error(capsys, ["check", deep, d / "s.json"], "deep.json", "nested too deeply")
    expect_error(capsys, ["check", d / "w.json", deep], "deep.json", "nested too deeply")
    # free-form data nested within what Python can parse is capped too
    w = copy.deepcopy(files[1])
    nest: list = []
    for _ in range(limits.MAX_DEPTH + 5):
        nest = [nest]
    w["jobs"][0]["extra"]["deep"] = nest
    expect_error(capsys, ["check", write(d / "x.json", w), d / "s.json"], "x.json",
                 "jobs[0].extra", "nested more than")


@pytest.mark.parametrize("path,value,field", [
    (["jobs", 0, "utility", "kind"], ["sigmoid"], "jobs[0].utility.kind"),
    (["jobs", 0, "utility", "kind"], {"a": 1}, "jobs[0].utility.kind"),
    (["meta", "family"], ["oasis"], "meta.family"),
    (["meta", "family"], {"x": 1}, "meta.family"),
    (["name"], ["w"], "name"),
    (["servers", 0, "id"], [1], "servers[0].id"),
    (["resources", 0], {"r": 1}, "resources[0]"),
])
def test_container_where_a_string_is_expected(files, capsys, path, value, field):
    d, w, _ = files
    obj = w
    for k in path[:-1]:
        obj = obj[k]
    obj[path[-1]] = value
    expect_error(capsys, ["check", write(d / "x.json", w), d / "s.json"], "x.json", field)


@pytest.mark.parametrize("meta", [None, "text", [1, 2], 3])
def test_schedule_meta_not_an_object(files, capsys, meta):
    d, _, s = files
    s["meta"] = meta
    expect_error(capsys, ["check", d / "w.json", write(d / "x.json", s)], "x.json", "'meta'",
                 "must be an object")


@pytest.mark.parametrize("field", ["epochs", "chunks", "minibatches", "minibatch_seconds",
                                   "gradient_mb", "worker_demand.gpu", "ps_demand.cpu",
                                   "worker_demand.bandwidth_gbps"])
@pytest.mark.parametrize("value", [2**70, 1e308, 2**64 + 1])
def test_numbers_beyond_64_bits_or_1e308(files, capsys, field, value):
    d, w, _ = files
    obj = w["jobs"][0]
    *head, last = field.split(".")
    for k in head:
        obj = obj[k]
    obj[last] = value
    line = expect_error(capsys, ["check", write(d / "x.json", w), d / "s.json"], "x.json",
                        f"jobs[0].{field}")
    assert "limit" in line or "too large" in line


@pytest.mark.parametrize("slot", [2**70, 2**63, 1e308, limits.MAX_HORIZON + 1])
def test_schedule_slot_beyond_limits(files, capsys, slot):
    d, _, s = files
    s["rows"][0][s["columns"].index("slot")] = slot
    expect_error(capsys, ["check", d / "w.json", write(d / "x.json", s)], "x.json",
                 "rows[0].slot")


# ---- hangs and unbounded memory ------------------------------------------------------------------
@pytest.mark.parametrize("horizon", [1e308, 1e9, 10**9, limits.MAX_HORIZON + 1])
@pytest.mark.parametrize("command", ["check", "solve", "run drf", "run oasis"])
def test_absurd_horizon_is_rejected_fast(files, capsys, horizon, command):
    d, w, _ = files
    w["horizon"] = horizon
    path = write(d / "x.json", w)
    argv = {"check": ["check", path, d / "s.json"], "solve": ["solve", path],
            "run drf": ["run", "drf", path], "run oasis": ["run", "oasis", path]}[command]
    t0 = time.perf_counter()
    expect_error(capsys, argv, "x.json", "'horizon'", "limit")
    assert time.perf_counter() - t0 < 5


@pytest.mark.parametrize("what,limit", [("jobs", limits.MAX_JOBS), ("servers", limits.MAX_SERVERS)])
def test_counts_beyond_limits(files, capsys, what, limit):
    d, w, _ = files
    w[what] = [0] * (limit + 1)  # rejected by count before any item is looked at
    expect_error(capsys, ["check", write(d / "x.json", w), d / "s.json"], "x.json",
                 f"'{what}'", "items")


def test_file_size_cap(files, capsys, monkeypatch):
    d, _, _ = files
    monkeypatch.setattr(limits, "MAX_JSON_BYTES", 100)
    import mlopt.fileio as fio

    monkeypatch.setattr(fio.load_json, "__defaults__", (100,))
    expect_error(capsys, ["check", d / "w.json", d / "s.json"], "w.json", "file too large")


# ---- nonsense accepted silently ------------------------------------------------------------------
@pytest.mark.parametrize("path,value,field", [
    (["jobs", 0, "epochs"], "5", "jobs[0].epochs"),
    (["jobs", 0, "epochs"], True, "jobs[0].epochs"),
    (["jobs", 0, "minibatch_seconds"], "0.5", "jobs[0].minibatch_seconds"),
    (["jobs", 0, "worker_demand", "gpu"], False, "jobs[0].worker_demand.gpu"),
    (["horizon"], "3", "horizon"),
    (["slot_seconds"], True, "slot_seconds"),
    (["jobs", 0, "utility", "gamma1"], "5", "jobs[0].utility.gamma1"),
    (["jobs", 0, "utility", "gamma2"], True, "jobs[0].utility.gamma2"),
    (["jobs", 0, "id"], None, "jobs[0].id"),
    (["jobs", 0, "id"], ["j1"], "jobs[0].id"),
    (["jobs", 0, "id"], 7, "jobs[0].id"),
    (["servers", 0, "id"], None, "servers[0].id"),
    (["jobs", 0, "arrival"], 1.5, "jobs[0].arrival"),
])
def test_wrong_types_are_not_converted(files, capsys, path, value, field):
    d, w, _ = files
    obj = w
    for k in path[:-1]:
        obj = obj[k]
    obj[path[-1]] = value
    expect_error(capsys, ["check", write(d / "x.json", w), d / "s.json"], "x.json", field)


@pytest.mark.parametrize("column,value", [("slot", 2.5), ("slot", "2"), ("slot", True),
                                          ("count", "3"), ("count", None), ("count", [1]),
                                          ("job", None), ("job", ["a"]), ("server", 3)])
def test_schedule_values_are_not_converted(files, capsys, column, value):
    d, _, s = files
    s["rows"][0][s["columns"].index(column)] = value
    expect_error(capsys, ["check", d / "w.json", write(d / "x.json", s)], "x.json",
                 f"rows[0].{column}")


@pytest.mark.parametrize("admitted", [[None], [["a"]], "j001", [1]])
def test_schedule_admitted_ids_are_strings(files, capsys, admitted):
    d, _, s = files
    s["admitted"] = admitted
    expect_error(capsys, ["check", d / "w.json", write(d / "x.json", s)], "x.json", "admitted")


def test_integral_floats_are_still_integers(files, capsys):
    """3.0 is an integer written by another tool; only fractional values are refused."""
    d, w, s = files
    w["jobs"][0]["epochs"] = float(w["jobs"][0]["epochs"])
    s["rows"][0][s["columns"].index("slot")] = float(s["rows"][0][s["columns"].index("slot")])
    code, out, err = run_cli(capsys, "check", write(d / "x.json", w), write(d / "y.json", s))
    assert code == 0, err


@pytest.mark.parametrize("where", ["top", "job", "server", "utility", "schedule"])
def test_unknown_keys_are_named(files, capsys, where):
    d, w, s = files
    if where == "schedule":
        s["admited"] = []
        line = expect_error(capsys, ["check", d / "w.json", write(d / "x.json", s)], "x.json",
                            "admited", "unknown key")
        assert "admitted" in line  # the allowed keys are listed
        return
    target = {"top": w, "job": w["jobs"][0], "server": w["servers"][0],
              "utility": w["jobs"][0]["utility"]}[where]
    target["epoch"] = 1
    expect_error(capsys, ["check", write(d / "x.json", w), d / "s.json"], "x.json", "epoch",
                 "unknown key")


def test_extra_dicts_stay_free_form(files, capsys):
    """Family-specific fields live in Job.extra / Workload.extra: any keys, any JSON values."""
    d, w, s = files
    w["jobs"][0]["extra"] = {"worker_type": "v100", "deadline": 7, "nested": {"a": [1, 2.5]}}
    w["extra"] = {"worker_types": {"v100": {"speed": 1.5}}, "delays": [[0, 1], [1, 0]]}
    path = write(d / "x.json", w)
    code, out, err = run_cli(capsys, "check", path, d / "s.json", "--json")
    assert code == 0, err
    from mlopt.workload import Workload

    loaded = Workload.load(path)
    assert loaded.jobs[0].extra["nested"] == {"a": [1, 2.5]}
    assert loaded.extra["delays"] == [[0, 1], [1, 0]]

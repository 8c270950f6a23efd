"""Property test of the CLI's input contract (issue 8, section 3): random mutations of valid
workloads, schedules, specs and CSV files fed to the commands that read them.

Whatever the mutation, a command ends within a time limit with exit status 0, 1 (an infeasible
schedule) or 2 (bad input) and, for 2, exactly one line on stderr (``mlopt: error: ...``); never
a traceback, never exit 3 (an internal error, i.e. a bug).  Mutations: a value anywhere in the
document replaced by one of many ill-typed, huge, tiny, empty or deeply nested values; a key
deleted or an unknown one added; list items duplicated or dropped; for the raw text, truncation
and bytes that are not UTF-8.  Derandomized, so a failure reproduces; about 25 s in total.
"""
from __future__ import annotations

import copy
import json
import signal
import time

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from mlopt import limits
from mlopt.cli import main

TIME_LIMIT_S = 30  # per command; a hang fails the example instead of the whole run

VALUES = [
    None, True, False, 0, -1, 1, 2.5, -0.0, 1e-300, 1e308, -1e308, 2**63, 2**70, -(2**70),
    limits.MAX_HORIZON + 1, limits.MAX_COUNT + 1, float("nan"), float("inf"), "", "5", "x",
    "x" * 2000, "\u00e9\u6f22", "null", [], [1, 2], ["a"], [[[]]], {}, {"a": 1}, {"kind": []},
]


class Hang(BaseException):
    """Raised by the alarm: not an Exception, so mlopt's last-resort handler cannot hide it."""


def _alarm(signum, frame):
    raise Hang()


def run_cli(capsys, argv):
    capsys.readouterr()
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(TIME_LIMIT_S)
    t0 = time.perf_counter()
    try:
        code = main([str(a) for a in argv])
    except Hang:
        pytest.fail(f"no answer within {TIME_LIMIT_S} s: {argv}")
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    out, err = capsys.readouterr()
    return code, out, err, time.perf_counter() - t0


def assert_contract(code, out, err, what):
    assert code in (0, 1, 2), f"exit {code} for {what}: {err[-2000:]}"
    assert "Traceback" not in err, err
    if code == 2:
        lines = err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("mlopt: error: "), err


# ---- mutations ----------------------------------------------------------------------------------
def _paths(doc, prefix=()):
    """Every location in a JSON-like document (for choosing one to mutate)."""
    yield prefix
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(doc, list):
        for i, v in enumerate(doc[:6]):  # a few items of long lists are enough
            yield from _paths(v, prefix + (i,))


def _get(doc, path):
    for p in path:
        doc = doc[p]
    return doc


@st.composite
def mutated(draw, base):
    doc = copy.deepcopy(base)
    for _ in range(draw(st.integers(1, 3))):
        paths = [p for p in _paths(doc) if p]
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        parent, key = _get(doc, path[:-1]), path[-1]
        op = draw(st.sampled_from(["replace", "replace", "replace", "delete", "add", "dup",
                                   "nest"]))
        if op == "replace":
            parent[key] = copy.deepcopy(draw(st.sampled_from(VALUES)))
        elif op == "delete":
            del parent[key]
        elif op == "add" and isinstance(parent, dict):
            parent[draw(st.sampled_from(["extra_key", "id", "kind", "x y"]))] = \
                copy.deepcopy(draw(st.sampled_from(VALUES)))
        elif op == "dup" and isinstance(parent, list):
            parent.append(copy.deepcopy(parent[key]))
        elif op == "nest":
            value = parent[key]
            for _ in range(draw(st.sampled_from([2, 40, 200]))):
                value = [value]
            parent[key] = value
    return doc


def _text(draw, text: str) -> bytes:
    """The serialized document, sometimes truncated or with bytes that are not UTF-8."""
    data = text.encode()
    cut = draw(st.sampled_from(["none", "none", "none", "truncate", "bad-bytes"]))
    if cut == "truncate":
        data = data[:draw(st.integers(0, len(data)))]
    elif cut == "bad-bytes":
        at = draw(st.integers(0, len(data)))
        data = data[:at] + b"\xff\xfe\xc3" + data[at:]
    return data


# ---- fixtures: one valid set of files ----------------------------------------------------------
@pytest.fixture(scope="module")
def base(tmp_path_factory):
    d = tmp_path_factory.mktemp("fuzz")
    w, s = d / "w.json", d / "s.json"
    assert main(["generate", "oasis", "--preset", "tiny", "--seed", "2", "-o", str(w)]) == 0
    assert main(["run", "oasis", str(w), "-o", str(s)]) == 0
    return d, json.loads(w.read_text()), json.loads(s.read_text())


FUZZ = settings(max_examples=100, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture,
                                       HealthCheck.too_slow, HealthCheck.data_too_large])

WORKLOAD_COMMANDS = [["check", "{w}", "{s}"], ["run", "oasis", "{w}"], ["run", "drf", "{w}"],
                     ["run", "fifo", "{w}"], ["solve", "{w}", "--time-limit", "2"],
                     ["check", "{w}", "{s}", "--json"]]


@FUZZ
@given(data=st.data())
def test_mutated_workloads(base, capsys, data):
    d, w, _ = base
    doc = data.draw(mutated(w))
    path = d / "mw.json"
    path.write_bytes(_text(data.draw, json.dumps(doc)))
    cmd = data.draw(st.sampled_from(WORKLOAD_COMMANDS))
    argv = [a.format(w=path, s=d / "s.json") for a in cmd]
    code, out, err, _ = run_cli(capsys, argv)
    assert_contract(code, out, err, argv)


@FUZZ
@given(data=st.data())
def test_mutated_schedules(base, capsys, data):
    d, _, s = base
    doc = data.draw(mutated(s))
    path = d / "ms.json"
    path.write_bytes(_text(data.draw, json.dumps(doc)))
    argv = ["check", d / "w.json", path] + data.draw(st.sampled_from([[], ["--json"]]))
    code, out, err, _ = run_cli(capsys, argv)
    assert_contract(code, out, err, argv)
    if code in (0, 1) and "--json" in argv:  # an infeasible schedule never shows an objective
        res = json.loads(out)
        assert (res["objective"] is None) == (not res["feasible"])


# ---- specs --------------------------------------------------------------------------------------
SPEC = {
    "name": "fuzz", "family": "oasis",
    "instances": [{"preset": "tiny", "seeds": [0], "params": {"n_jobs": 3}}],
    "algorithms": [{"name": "fifo"}, {"name": "oasis", "options": {"price_mode": "oracle"}}],
    "offline": {"method": "exact", "time_limit": 2.0},
    "solver": {"name": "highs", "threads": 1, "options": {"presolve": "on"}},
}


def _toml_value(v) -> str | None:
    """An inline TOML value (None: not representable, the key is left out)."""
    if v is None:
        return None
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v) if -2**63 <= v < 2**63 else json.dumps(str(v))  # TOML ints are 64-bit
    if isinstance(v, float):
        return "nan" if v != v else ("inf" if v == float("inf") else
                                     "-inf" if v == float("-inf") else repr(v))
    if isinstance(v, str):
        return json.dumps(v)
    if isinstance(v, list):
        items = [_toml_value(x) for x in v]
        return "[" + ", ".join(x for x in items if x is not None) + "]"
    items = [(json.dumps(str(k)), _toml_value(x)) for k, x in v.items()]
    return "{" + ", ".join(f"{k} = {x}" for k, x in items if x is not None) + "}"


def toml_dumps(doc: dict) -> str:
    lines = []
    for k, v in doc.items():
        text = _toml_value(v)
        if text is not None:
            lines.append(f"{json.dumps(str(k))} = {text}")
    return "\n".join(lines) + "\n"


def test_toml_writer_round_trips():
    from mlopt.fileio import parse_toml

    assert parse_toml(toml_dumps(SPEC)) == SPEC


@settings(FUZZ, max_examples=30)  # a valid mutation runs the spec (an exact solve, 2 s limit)
@given(data=st.data())
def test_mutated_specs(base, capsys, data, tmp_path_factory):
    d, _, _ = base
    doc = data.draw(mutated(SPEC))
    path = d / "spec.toml"
    path.write_bytes(_text(data.draw, toml_dumps(doc)))
    out = tmp_path_factory.mktemp("run")
    argv = ["bench", "run", path, "-o", out, "--workers", "0"]
    code, stdout, err, _ = run_cli(capsys, argv)
    assert_contract(code, stdout, err, argv)


# ---- CSV ----------------------------------------------------------------------------------------
CSV_ROWS = [["submit", "gpus", "runtime"], ["0", "1", "3600"], ["600", "2", "7200"],
            ["1200", "1", "1800"], ["1800", "4", "600"]]
CELLS = ["", "x", "-1", "0", "1e308", "-1e308", "nan", "inf", "2.5", "1e30", "99999999999999999999",
         "2024-01-01 00:00:00", "\"quoted,comma\"", "1,2", "\u00e9", " 5 "]


@FUZZ
@given(data=st.data())
def test_mutated_csv(base, capsys, data):
    d, _, _ = base
    rows = copy.deepcopy(CSV_ROWS)
    for _ in range(data.draw(st.integers(1, 4))):
        r = data.draw(st.integers(0, len(rows) - 1))
        c = data.draw(st.integers(0, 2))
        rows[r][c] = data.draw(st.sampled_from(CELLS))
    if data.draw(st.booleans()):
        rows.append(rows[data.draw(st.integers(1, len(rows) - 1))][:data.draw(st.integers(0, 3))])
    path = d / "t.csv"
    path.write_bytes(_text(data.draw, "\n".join(",".join(r) for r in rows) + "\n"))
    extra = data.draw(st.sampled_from([[], ["--strict"], ["--arrival-unit", "datetime"],
                                       ["--arrival-unit", "min"], ["-p", "slot_seconds=1"]]))
    argv = ["instances", "from-csv", path, "--family", "oasis", "--map", "arrival=submit,gpus=gpus,duration=runtime",
            "-o", d / "csv.json", *extra]
    code, out, err, _ = run_cli(capsys, argv)
    assert code in (0, 2), (code, err)
    assert "Traceback" not in err
    if code == 2:
        assert len(err.strip().splitlines()) == 1, err


# ---- every family's own fields (Job.extra / Workload.extra) -------------------------------------
# A fast algorithm per family (milliseconds on its tiny preset); a family missing here falls back
# to its first algorithm by name.
FAST_ALGORITHM = {"oasis": "fifo", "edgecloud": "srtf", "harmony": "lb", "hetero": "fifo",
                  "pdors": "fifo"}
FAMILY_VALUES = VALUES + [-5, 10**9 + 1, 2**64, 1e12 + 1, "w1", {"x": {"y": 1}}, [0.5, "a"]]


def _families():
    """The project's families (packages under mlopt/families), not toys other tests register."""
    import pkgutil

    import mlopt.families
    from mlopt.families import all_families

    packages = {m.name for m in pkgutil.iter_modules(mlopt.families.__path__) if m.ispkg}
    return [name for name in all_families() if name in packages]


@pytest.fixture(scope="module")
def family_bases(tmp_path_factory):
    """name -> (dir, workload doc, algorithm): each family's tiny preset and its schedule."""
    from mlopt.families import get_family

    out = {}
    for name in _families():
        fam = get_family(name)
        alg = FAST_ALGORITHM.get(name, sorted(fam.algorithms)[0])
        d = tmp_path_factory.mktemp(f"fam-{name}")
        w, s = d / "w.json", d / "s.json"
        assert main(["generate", name, "--preset", "tiny", "--seed", "3", "-o", str(w)]) == 0
        assert main(["run", alg, str(w), "--family", name, "-o", str(s)]) == 0
        out[name] = (d, json.loads(w.read_text()), alg)
    return out


@st.composite
def mutated_extra(draw, base):
    """Mutations aimed at the family's own fields: 1-3 values inside ``extra`` dicts (the
    workload's and the jobs') replaced, dropped or wrapped; sometimes a core field too."""
    doc = copy.deepcopy(base)
    for _ in range(draw(st.integers(1, 3))):
        paths = [p for p in _paths(doc) if p]
        inside = [p for p in paths if "extra" in p[:-1] or (p[-1] == "extra" and len(p) > 1)]
        path = draw(st.sampled_from(inside if inside and draw(st.integers(0, 4)) else paths))
        parent, key = _get(doc, path[:-1]), path[-1]
        op = draw(st.sampled_from(["replace"] * 6 + ["delete", "wrap", "add"]))
        if op == "replace":
            parent[key] = copy.deepcopy(draw(st.sampled_from(FAMILY_VALUES)))
        elif op == "delete":
            del parent[key]
        elif op == "wrap":  # a dict or list where a scalar belongs
            parent[key] = draw(st.sampled_from([{"v": parent[key]}, [parent[key]]]))
        elif op == "add" and isinstance(parent, dict):
            parent["unknown_key"] = copy.deepcopy(draw(st.sampled_from(FAMILY_VALUES)))
    return doc


@pytest.mark.parametrize("family", _families())
@settings(FUZZ, max_examples=300)
@given(data=st.data())
def test_mutated_family_fields(family_bases, capsys, data, family):
    d, w, alg = family_bases[family]
    path = d / "mw.json"
    path.write_text(json.dumps(data.draw(mutated_extra(w))))
    argv = data.draw(st.sampled_from([["run", alg, path, "--family", family],
                                      ["check", path, d / "s.json"]]))
    code, out, err, _ = run_cli(capsys, argv)
    assert_contract(code, out, err, argv)

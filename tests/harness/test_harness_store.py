"""ResultStore: schema, atomic per-task writes, resume keys, infinities, exports."""
from __future__ import annotations

import json
import math
import sqlite3

import pandas as pd
import pytest

from mlopt.errors import InputError
from mlopt.harness.store import COLUMNS, FLAT_EXTRA, FLAT_TIMING, ResultStore


def _row(task, method, **kw):
    r = {c: None for c in COLUMNS}
    r.update(key=f"{task}/algorithm/{method}", task_key=task, spec="t", instance_id=f"i-{task}",
             family="f", preset="p", params="{}", seed=1, method_kind="algorithm",
             method=method, status="feasible", objective=2.0, feasible=True, proven=False,
             bound_low=2.0, bound_high=3.0, ratio_low=1.0, ratio_high=1.5, extra="{}",
             timing="{}")
    r.update(kw)
    return r


def test_roundtrip_keys_and_infinity(tmp_path):
    with ResultStore(tmp_path / "r.sqlite") as s:
        assert s.keys() == set() and not s.has("a")
        s.add_task([_row("a", "x"), _row("a", "y", ratio_low=math.inf, ratio_high=math.inf,
                                          objective=0.0)])
        s.add_task([_row("b", "x", feasible=False, ratio_low=None, ratio_high=None)])
        assert s.keys() == {"a", "b"} and s.has("a") and len(s) == 3
        df = s.to_frame()
    assert list(df.columns) == list(COLUMNS)
    y = df[df.method == "y"].iloc[0]
    assert math.isinf(y.ratio_high) and y.ratio_high > 0  # +inf survives SQLite
    b = df[df.task_key == "b"].iloc[0]
    assert b.feasible is False or not b.feasible
    assert pd.isna(b.ratio_low)  # NULL = undefined
    # reopening keeps everything; WAL mode is on
    with ResultStore(tmp_path / "r.sqlite") as s:
        assert s.keys() == {"a", "b"}
        assert s._con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_a_task_is_written_atomically(tmp_path):
    with ResultStore(tmp_path / "r.sqlite") as s:
        s.add_task([_row("a", "x")])
        bad = [_row("b", "x"), _row("b", "x")]  # duplicate primary key in the middle
        with pytest.raises(sqlite3.IntegrityError):
            s.add_task(bad)
        assert s.keys() == {"a"} and len(s) == 1  # none of task b's rows remain
        # rewriting a task replaces its rows instead of mixing old and new
        s.add_task([_row("a", "z")])
        assert [r["method"] for r in s.rows()] == ["z"]
        with pytest.raises(ValueError):
            s.add_task([_row("a", "x"), _row("c", "x")])


def test_meta_exports_and_bad_files(tmp_path):
    with ResultStore(tmp_path / "r.sqlite") as s:
        s.set_meta("fingerprint", "abc")
        s.set_meta("cfg", {"a": [1, 2]})
        assert s.get_meta("fingerprint") == "abc" and s.get_meta("cfg") == {"a": [1, 2]}
        assert s.get_meta("missing", 5) == 5
        s.add_task([_row("a", "x", ratio_high=math.inf, extra=json.dumps(
            {"gap": 0.25, "termination": "time_limit", "verification": {"outcome": "verified"},
             "options": {"k": 1}}), timing=json.dumps({"build_s": 1.5, "task_wall_s": 2}))])
        s.add_task([_row("b", "y")])  # extra and timing without those keys: empty cells
        csv = s.export_csv(tmp_path / "r.csv")
        pq = s.export_parquet(tmp_path / "r.parquet")
    flat = [f"extra.{k}" for k in FLAT_EXTRA] + [f"timing.{k}" for k in FLAT_TIMING]
    for back in (pd.read_csv(csv), pd.read_parquet(pq)):
        assert list(back.columns) == list(COLUMNS) + flat and math.isinf(back.ratio_high[0])
        assert back.method.tolist() == ["x", "y"]
        # the documented keys are columns of their own, numbers as numbers
        assert back["extra.gap"][0] == 0.25 and back["timing.build_s"][0] == 1.5
        assert back["timing.task_wall_s"][0] == 2.0 and pd.isna(back["extra.gap"][1])
        assert back["extra.termination"][0] == "time_limit"
        assert back["extra.verification.outcome"][0] == "verified"
        assert json.loads(back["extra"][0])["options"] == {"k": 1}  # the JSON keeps the rest
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"this is not a database" * 100)
    with pytest.raises(InputError) as info:
        ResultStore(junk)
    assert info.value.file == str(junk)
    other = tmp_path / "other.sqlite"
    con = sqlite3.connect(other)
    con.execute("CREATE TABLE results (key TEXT PRIMARY KEY, something TEXT)")
    con.commit()
    con.close()
    with pytest.raises(InputError, match="unexpected schema"):
        ResultStore(other)

"""ResultStore: schema, atomic per-task writes, resume keys, infinities, exports."""
from __future__ import annotations

import math
import sqlite3

import pandas as pd
import pytest

from mlopt.errors import InputError
from mlopt.harness.store import COLUMNS, ResultStore


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
        s.add_task([_row("a", "x", ratio_high=math.inf)])
        csv = s.export_csv(tmp_path / "r.csv")
        pq = s.export_parquet(tmp_path / "r.parquet")
    back = pd.read_csv(csv)
    assert list(back.columns) == list(COLUMNS) and math.isinf(back.ratio_high[0])
    back = pd.read_parquet(pq)
    assert back.method.tolist() == ["x"] and math.isinf(back.ratio_high[0])
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

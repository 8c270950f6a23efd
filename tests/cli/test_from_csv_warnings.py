"""``mlopt instances from-csv`` says in one line what a conversion collapsed (the issue's
case: five jobs over 40 minutes, 1-2 h each, became one slot and OASiS admitted none), and the
converted file names its family."""
from __future__ import annotations

import json

import pandas as pd

from mlopt.cli import main
from mlopt.traces.fidelity import conversion_warnings

CSV = "submit,gpus,dur\n0,1,3600\n600,2,7200\n1200,1,5400\n1800,4,3600\n2400,2,7000\n"
MAP = "arrival=submit,gpus=gpus,duration=dur"


def run_cli(capsys, *argv):
    capsys.readouterr()
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_a_collapsed_horizon_is_warned_in_one_line(capsys, tmp_path):
    src, out = tmp_path / "t.csv", tmp_path / "w.json"
    src.write_text(CSV)
    code, _, err = run_cli(capsys, "instances", "from-csv", str(src), "--map", MAP,
                           "--family", "oasis", "-o", str(out))
    assert code == 0
    warning = [line for line in err.splitlines() if "changed what the trace says" in line]
    assert len(warning) == 1
    # span: first submission 0 s, last end max(0+3600, 600+7200, ...) = 7800 s = 2.2 h; slots
    # of 3600 s -> ceil(7800 / 3600) = 3 slots would cover it
    assert "T=1 slot(s) of 1 h" in warning[0] and "-p horizon=3" in warning[0]
    assert "5 different submission times all fell into slot 1" in warning[0]
    assert json.loads(out.read_text())["meta"]["family"] == "oasis"
    # the file is usable without --family
    assert run_cli(capsys, "run", "oasis", str(out))[0] == 0


def test_what_the_user_asked_for_is_not_reported(capsys, tmp_path):
    src, out = tmp_path / "t.csv", tmp_path / "w.json"
    src.write_text(CSV)
    code, _, err = run_cli(capsys, "instances", "from-csv", str(src), "--map", MAP,
                           "--family", "oasis", "-p", "horizon=14", "-p", "slot_seconds=600",
                           "-o", str(out))
    # 14 slots of 600 s = 8400 s >= 7800 s; arrivals in slots 1..5: nothing collapsed
    assert code == 0 and "changed what the trace says" not in err


def test_conversion_warnings_counts_dropped_jobs():
    class W:  # the two things the check reads of a workload
        horizon = 10
        meta = {"conventions": {"slot_seconds": 3600.0}}
        jobs = [type("J", (), {"arrival": 1})(), type("J", (), {"arrival": 2})()]

    table = pd.DataFrame({"arrival_s": [0.0, 10.0, 20.0], "duration_s": [60.0] * 3})
    assert conversion_warnings(table, W()) == [
        "1 of 3 trace jobs were left out by the conversion's window or caps"]
    assert conversion_warnings(table, W(), {"n_jobs": 2}) == []

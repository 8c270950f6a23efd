"""A resumed run verifies its store: rows deleted or garbled are re-run, never trusted; a
damaged SQLite file is one line, exit 2, saying what to do (issue 19)."""
from __future__ import annotations

import os
import random
import shutil
import sqlite3

import pytest
from test_harness import run, spec_text, stable
from test_harness_toyfamily import toys  # noqa: F401  (autouse: registers the toys)

from mlopt.cli import main
from mlopt.errors import InputError
from mlopt.harness import ResultStore, report

TEXT = spec_text(algorithms=["greedy", "random"], seeds="[0, 1]", grid="n_jobs = [5]",
                 bounds='["fractional"]')


def _fresh(tmp_path):
    summary, df = run(tmp_path, "r", TEXT, workers=0)
    assert summary.ok and summary.completed == 2
    return tmp_path / "r" / "results.sqlite", df


def _sql(path, *statements):
    con = sqlite3.connect(str(path))
    for st in statements:
        con.execute(st)
    con.commit()
    con.close()


def test_resume_reruns_a_task_whose_rows_were_deleted(tmp_path):
    db, df = _fresh(tmp_path)
    _sql(db, "DELETE FROM results WHERE rowid = (SELECT MIN(rowid) FROM results "
             "WHERE method_kind = 'algorithm')")
    summary, df2 = run(tmp_path, "r", TEXT, workers=0, resume=True)
    assert summary.completed == 1 and summary.repaired == 1 and summary.skipped == 1
    assert "re-run" in str(summary)
    assert stable(df2).drop(columns=["extra"]).equals(stable(df).drop(columns=["extra"]))


@pytest.mark.parametrize("garble", [
    "UPDATE results SET objective = 'garbage' WHERE rowid = 1",
    "UPDATE results SET status = 'bogus' WHERE rowid = 1",
    "UPDATE results SET extra = '{not json' WHERE rowid = 1",
    "UPDATE results SET task_key = 'zzz' WHERE rowid = 1",
    "UPDATE results SET key = 'x/y/z' WHERE rowid = 1",
    "UPDATE results SET feasible = 7 WHERE rowid = 1",
])
def test_resume_reruns_a_task_with_a_garbled_row(tmp_path, garble):
    db, df = _fresh(tmp_path)
    _sql(db, garble)
    with pytest.raises(InputError, match="malformed"):  # the report refuses it ...
        report(tmp_path / "r")
    summary, df2 = run(tmp_path, "r", TEXT, workers=0, resume=True)  # ... resume repairs it
    assert summary.completed == 1 and summary.repaired == 1
    assert len(df2) == len(df) and set(df2["key"]) == set(df["key"])
    report(tmp_path / "r")  # clean again


def test_resume_on_an_intact_store_runs_nothing(tmp_path):
    _fresh(tmp_path)
    summary, _ = run(tmp_path, "r", TEXT, workers=0, resume=True)
    assert summary.completed == 0 and summary.skipped == 2 and summary.repaired == 0


def _patch(db, seed: int) -> None:
    """A 4 KB random patch in the middle of the file (a damaged disk, a bad copy)."""
    size = os.path.getsize(db)
    rng = random.Random(seed)
    with open(db, "r+b") as fh:
        fh.seek(rng.randrange(4096, max(size - 4096, 4097)) // 4096 * 4096)
        fh.write(rng.randbytes(4096))


def test_damaged_store_is_one_line_exit_2_on_resume_and_report(tmp_path, capsys):
    spec = tmp_path / "spec.toml"
    spec.write_text(spec_text(algorithms=["greedy"], seeds="[0, 1, 2, 3, 4, 5, 6, 7]",
                              grid="n_jobs = [5, 8]", bounds="[]"))
    out = tmp_path / "o"
    assert main(["bench", "run", str(spec), "-o", str(out), "--workers", "0",
                 "--no-report"]) == 0
    _sql(out / "results.sqlite", "PRAGMA wal_checkpoint(TRUNCATE)")
    assert os.path.getsize(out / "results.sqlite") > 3 * 4096
    for seed in range(6):  # SQLite's integrity report spans lines: still one line here
        copy = tmp_path / f"o{seed}"
        shutil.copytree(out, copy)
        _patch(copy / "results.sqlite", seed)
        capsys.readouterr()
        for argv in (["bench", "run", str(spec), "-o", str(copy), "--workers", "0",
                      "--resume"], ["bench", "report", str(copy)]):
            assert main(argv) == 2, (seed, argv)
            err = capsys.readouterr().err.strip()
            assert len(err.splitlines()) == 1 and "results" in err and "Traceback" not in err
            assert "damaged" in err or "malformed" in err or "not a usable" in err


def test_check_integrity_passes_on_a_good_store(tmp_path):
    db, _ = _fresh(tmp_path)
    with ResultStore(db) as s:
        s.check_integrity()
        assert s.malformed() == {}


def test_solver_bench_resume_reruns_a_garbled_result_line(tmp_path, capsys):
    """The solver benchmark's results.csv: a garbled line is dropped (never a crash, exit 3),
    run again on resume, and --report-only refuses to report over it."""
    from mlopt.harness import solver_bench as bench

    spec_path = tmp_path / "b.toml"
    spec_path.write_text('name = "b"\nfamily = "oasis"\nsolvers = ["highs"]\n'
                         'time_limits = [20]\noutput = "out"\n'
                         '[[instances]]\npreset = "tiny"\nseeds = [0, 1]\n')
    spec = bench.load_spec(spec_path)
    df = bench.run_bench(spec, log=None)
    assert len(df) == 2 and df.attrs["malformed"] == 0
    csv_path = tmp_path / "out" / "results.csv"
    lines = csv_path.read_text().splitlines()
    cells = lines[1].split(",")
    cells[bench.COLUMNS.index("objective")] = "garbage"
    csv_path.write_text("\n".join([lines[0], ",".join(cells), *lines[2:]]) + "\n")
    assert bench.read_results(csv_path).attrs["malformed"] == 1
    capsys.readouterr()
    assert main(["solvers", "bench", str(spec_path), "--report-only"]) == 2
    assert "malformed" in capsys.readouterr().err
    df2 = bench.run_bench(spec, log=None)  # resume: the garbled run is run again
    assert len(df2) == 2 and df2.attrs["malformed"] == 0
    assert sorted(df2["instance"]) == sorted(df["instance"])
